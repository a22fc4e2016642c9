// The same refused writes and /clear (./claude-sessions.ts) in the oldest Claude Code that
// docs/HOOKS.md names, so the minimum version there is measured: it is installed from the npm
// registry once, into node_modules/.cache, and skipped with a note where the registry is out of reach.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./harness.js";
import { claudeSessionTests } from "./claude-sessions.js";

const OLDEST = "2.1.197";
const prefix = join(ROOT, "node_modules", ".cache", "claims-e2e", `claude-code-${OLDEST}`);
const claude = join(prefix, "node_modules", ".bin", "claude");

if (!existsSync(claude)) {
  mkdirSync(prefix, { recursive: true });
  const installed = spawnSync("npm", ["install", "--prefix", prefix, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", `@anthropic-ai/claude-code@${OLDEST}`], {
    encoding: "utf8",
    timeout: 300_000,
  });
  if (installed.status !== 0) console.log(`claude-older.e2e.ts: skipped, Claude Code ${OLDEST} could not be installed from the registry: ${(installed.stderr || installed.error?.message || "").trim().split("\n").at(-1)}`);
}
if (existsSync(claude)) claudeSessionTests(claude, OLDEST);
