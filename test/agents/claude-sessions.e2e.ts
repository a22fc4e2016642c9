// Refused writes and /clear in the Claude Code this project pins (./claude-sessions.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CLAUDE, ROOT } from "./harness.js";
import { claudeSessionTests } from "./claude-sessions.js";

const { version } = JSON.parse(readFileSync(join(ROOT, "node_modules", "@anthropic-ai", "claude-code", "package.json"), "utf8")) as { version: string };
claudeSessionTests(CLAUDE, version);
