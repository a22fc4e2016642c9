// The Claude hook's answer to a shell command, and what the shell reader finds it writes: shared by
// the suites on writes through the shell.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, sandbox, type Sandbox } from "./helpers.js";

export function event(box: Sandbox, payload: Record<string, unknown>, extra: string[] = [], environment: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, "hook", "claude", "--dir", box.dir, ...extra], {
    input: JSON.stringify({ session_id: "s2", cwd: box.project, tool_use_id: "t1", ...payload }),
    env: cleanEnv(environment),
    encoding: "utf8",
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The hook's answer to a Bash call: "deny", or undefined for a silent allow. */
export function bash(box: Sandbox, command: string, extra: Record<string, unknown> = {}, environment: Record<string, string> = {}): string | undefined {
  const result = event(box, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, ...extra }, [], environment);
  return result.stdout.trim() ? JSON.parse(result.stdout).hookSpecificOutput.permissionDecision : undefined;
}

/** Every command denied: each writes u.ts, or may write any file. */
export function denies(box: Sandbox, commands: string[]): void {
  for (const command of commands) assert.is(bash(box, command), "deny", command);
}

/** Every command allowed: none writes a file another session holds. */
export function allows(box: Sandbox, commands: string[]): void {
  for (const command of commands) assert.is(bash(box, command), undefined, command);
}

/**
 * What a command writes, as the hook reads it from the project directory, relative to it and
 * sorted; a glob checked as a glob is shown `glob:…`, a path in a place the hook cannot know
 * `unknown:…` (`unknown:.`: a write it cannot name at all). No variables but the ones given.
 */
export async function writes(box: Sandbox, command: string, environment: Record<string, string> = {}): Promise<string[]> {
  const { shellWrites } = await import("../src/hooks/shell.js");
  const found = await shellWrites(command, box.project, box.root, environment);
  return found.map((path) => path.replace(/^\0(glob|unknown):/, "$1:").replace(`${box.project}/`, "")).sort();
}

/** A sandbox where another session ("other") holds u.ts: the box each shell suite starts from. */
export function heldBox(): Sandbox {
  const box = sandbox();
  writeFileSync(join(box.project, "u.ts"), "export const u = 1;\n");
  claims(["take", join(box.project, "u.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  return box;
}

/** A file of the project, with the directories it needs (a script: mode 0o755). */
export function file(box: Sandbox, path: string, text: string, mode = 0o644): void {
  mkdirSync(join(box.project, path, ".."), { recursive: true });
  writeFileSync(join(box.project, path), text);
  chmodSync(join(box.project, path), mode);
}
