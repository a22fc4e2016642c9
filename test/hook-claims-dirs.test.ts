// Commands that would remove, move or rewrite a whole claims directory, and with it other sessions'
// claims, named as the agent's shell would read them (its variables, another holder's directory),
// judged by the Claude hook through the real CLI, the claims in the way taken by real processes.
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, sandbox, type Sandbox } from "./helpers.js";

const Wipe = suite<{ box: Sandbox }>("claims hook: writes that would wipe a claims directory");
Wipe.before.each((context) => {
  context.box = sandbox();
});
Wipe.after.each((context) => context.box.cleanup());

Wipe("should read $XDG_STATE_HOME and $CLAIMS_DIR in a command as the agent's shell inherits them from the environment the hook shares, unless the command sets them", ({ box }) => {
  const state = join(box.root, "state");
  const dir = join(state, "claims");
  const env = { XDG_STATE_HOME: state };
  writeFileSync(join(box.project, "a.ts"), "");
  assert.is(claims(["take", join(box.project, "a.ts"), "--holder", "other", "--purpose", "the parser"], { env }).code, 0);
  assert.ok(existsSync(join(dir, `${encodeURIComponent(join(box.project, "a.ts"))}.json`)));
  const hook = (command: string, environment: Record<string, string> = env) => {
    const input = JSON.stringify({ session_id: "s2", cwd: box.project, tool_use_id: "t1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
    const result = spawnSync(process.execPath, [BIN, "hook", "claude"], { input, cwd: box.project, env: cleanEnv(environment), encoding: "utf8" });
    return result.stdout.trim() ? JSON.parse(result.stdout).hookSpecificOutput : undefined;
  };
  const wipes = [
    `rm -rf "$XDG_STATE_HOME"`,
    `rm -rf $XDG_STATE_HOME/claims`,
    `rm -rf "\${XDG_STATE_HOME}/claims"`,
    `rm -f $XDG_STATE_HOME/claims/*.json`,
    `rm -rf "\${XDG_STATE_HOME:-$HOME/.local/state}/claims"`,
    `cd "$XDG_STATE_HOME" && rm -rf claims`,
    `mv "$XDG_STATE_HOME" ${box.root}/old-state`,
    `bash -c 'rm -rf "$XDG_STATE_HOME"'`,
    `x=1; rm -rf "$XDG_STATE_HOME/claims"`,
  ];
  for (const command of wipes) {
    const answer = hook(command);
    assert.is(answer?.permissionDecision, "deny", command);
    assert.match(answer.permissionDecisionReason, new RegExp(`(holds|is in) the claims directory ${dir}`), command);
  }
  assert.is(hook(`rm -rf "$CLAIMS_DIR"`, { CLAIMS_DIR: dir })?.permissionDecision, "deny", "CLAIMS_DIR");
  assert.is(hook(`rm -rf $CLAIMS_DIR/*`, { CLAIMS_DIR: dir })?.permissionDecision, "deny", "CLAIMS_DIR's files");
  // Set by the command before: another directory, not this one (nor a false refusal of it).
  for (const command of [`XDG_STATE_HOME=$PWD/tmp; rm -rf "$XDG_STATE_HOME"`, `export XDG_STATE_HOME=$PWD/tmp && rm -rf $XDG_STATE_HOME/claims`, `read -r XDG_STATE_HOME < f.txt; rm -rf "$XDG_STATE_HOME/claims"`, `for XDG_STATE_HOME in tmp; do rm -rf "$XDG_STATE_HOME/claims"; done`]) {
    assert.is(hook(command), undefined, command);
  }
  assert.is(hook(`rm -rf node_modules dist`), undefined, "everyday removals");
  assert.ok(existsSync(join(dir, `${encodeURIComponent(join(box.project, "a.ts"))}.json`)), "nothing was run");
});

Wipe.run();
