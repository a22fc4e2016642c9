// What the end-to-end tests of the real clients share: a sandbox (home, project, claims directory),
// the environment the clients run with, the claims CLI, and the claims log.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BIN = join(ROOT, "bin", "claims.js");
export const CLAUDE = join(ROOT, "node_modules", ".bin", "claude");
export const CODEX = join(ROOT, "node_modules", ".bin", "codex");

export interface Box {
  root: string;
  home: string;
  project: string;
  dir: string;
}

export function box(): Box {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "claims-agents-")));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home);
  mkdirSync(project);
  return { root, home, project, dir: join(root, "claims") };
}

export function baseEnv(b: Box, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`, HOME: b.home, CLAIMS_DIR: b.dir, ...extra };
}

export function claims(b: Box, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: b.project, env: baseEnv(b, env), encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function run(command: string, args: string[], options: { cwd: string; env: Record<string, string>; input?: string }): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    if (options.input !== undefined) child.stdin?.end(options.input);
    const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

/** What the claims log recorded: [event, target, holder]. */
export function logged(b: Box): Array<[string, string, string]> {
  const path = join(b.dir, "log.jsonl");
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .map((entry) => [entry.event, entry.target, entry.holder]);
}

export const REFUSED = /claimed by another session[\s\S]*held by someone-else for "their work"/;
