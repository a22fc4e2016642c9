// Parallel tool calls of one session: each hook event runs as a process of its own, so the
// PostToolUse of one call runs beside another's. What a call wrote must stay claimed past the turn.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { clearMarks, markAsked, markWritten, recordPending, scopeOf, takePending, unwritten } from "../src/hooks/state.js";
import { BIN, claims, cleanEnv, sandbox, type Sandbox } from "./helpers.js";

type Context = { box: Sandbox };
const Race = suite<Context>("claims hook: parallel tool calls of one session");
Race.before.each((context) => {
  context.box = sandbox();
});
Race.after.each((context) => context.box.cleanup());

function hookAsync(box: Sandbox, payload: object): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, "hook", "claude"], { env: cleanEnv({ CLAIMS_DIR: box.dir }), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(JSON.stringify(payload));
  });
}

/** The session's fresh claims, by target. */
function heldBy(box: Sandbox, holder: string): string[] {
  const result = claims(["status", "--dir", box.dir, "--json"]);
  const claimed = JSON.parse(result.stdout).claims as Array<{ target: string; holder: string; stale: boolean }>;
  return claimed
    .filter((claim) => claim.holder === holder && !claim.stale)
    .map((claim) => claim.target)
    .sort();
}

const hookFiles = (box: Sandbox) => readdirSync(box.dir).filter((name) => name.startsWith(".hook-"));

const ROUNDS = 6;
const GROUPS = 4;
const FILES = 4;

Race("should keep every file a call wrote claimed past the turn when the calls' PostToolUse run at once", async ({ box }) => {
  const base = (session: string, event: string, id: string) => ({ session_id: session, transcript_path: "/tmp/t.jsonl", cwd: box.project, permission_mode: "default", hook_event_name: event, tool_use_id: id });
  for (let round = 0; round < ROUNDS; round++) {
    const session = `race${round}`;
    // Per group: a shell call that writes FILES files (it claims them all), then an edit of each
    // of them but the last (already the session's: the edits claim nothing). In even groups the
    // shell call runs; in odd ones it never does (refused after its PreToolUse), so at Stop it
    // gives back only the file no call wrote.
    type Call = { id: string; tool_name: string; tool_input: object; files: string[]; runs: boolean };
    const calls: Call[] = [];
    const expected: string[] = [];
    for (let group = 0; group < GROUPS; group++) {
      const files = Array.from({ length: FILES }, (_, index) => join(box.project, `f${round}-${group}-${index}.ts`));
      for (const file of files) writeFileSync(file, "x\n");
      const runs = group % 2 === 0;
      calls.push({ id: `sh${group}`, tool_name: "Bash", tool_input: { command: `touch ${files.join(" ")}` }, files, runs });
      for (const file of files.slice(0, -1)) {
        calls.push({ id: `ed${group}-${files.indexOf(file)}`, tool_name: "Edit", tool_input: { file_path: file, old_string: "x", new_string: "y" }, files: [file], runs: true });
      }
      expected.push(...(runs ? files : files.slice(0, -1)));
    }
    const event = (call: Call, name: string) => ({ ...base(session, name, call.id), tool_name: call.tool_name, tool_input: call.tool_input });
    // PreToolUse in the order the calls were made: the shell call claims first.
    for (const call of calls) {
      const before = await hookAsync(box, event(call, "PreToolUse"));
      assert.is(before.stdout, "", `${call.id} allowed`);
    }
    // The calls that ran: their PostToolUse hooks all start at once.
    const after = await Promise.all(calls.filter((call) => call.runs).map((call) => hookAsync(box, { ...event(call, "PostToolUse"), tool_response: {} })));
    for (const result of after) assert.is(result.code, 0, result.stderr);
    assert.is((await hookAsync(box, { session_id: session, cwd: box.project, hook_event_name: "Stop" })).code, 0);
    assert.equal(heldBy(box, `claude-${session}`), expected.sort(), `round ${round}: what the session's calls wrote, and only that, is still claimed after Stop`);
    assert.equal(hookFiles(box), [], `round ${round}: the turn's records and markers are gone after Stop`);
  }
});

// The same turns one step at a time, in the orders two processes could take: the state functions
// on their own. Each PostToolUse is: remove its own record, then mark what it wrote.
Race("should give back at the end of the turn only what no call wrote, whatever order the calls' events come in", ({ box }) => {
  mkdirSync(box.dir);
  const [a, b, c] = ["a.ts", "b.ts", "c.ts"].map((name) => join(box.project, name)) as [string, string, string];
  const scope = scopeOf("claude-s1", undefined);
  const postToolUse = (id: string, written: string[]) => () => {
    takePending(box.dir, scope, id);
    markWritten(box.dir, scope, written);
  };
  const stop = () => {
    const back = unwritten(box.dir, scope, takePending(box.dir, scope).flatMap((call) => call.targets)).sort();
    clearMarks(box.dir, scope);
    assert.equal(readdirSync(box.dir), [], "nothing of the turn is left in the claims directory");
    return back;
  };
  const turn = (steps: Array<() => void>) => {
    // z: a shell call that claimed a, b and c; y: an edit of a (the session's already: it claimed nothing).
    recordPending(box.dir, scope, { holder: "claude-s1", tool_use_id: "z", targets: [a, b, c], tool_name: "Bash", files: [a, b, c] });
    recordPending(box.dir, scope, { holder: "claude-s1", tool_use_id: "y", targets: [], tool_name: "Edit", files: [a] });
    for (const step of steps) step();
  };
  const y = postToolUse("y", [a]);
  const z = postToolUse("z", [a, b, c]);
  for (const steps of [[y, z], [z, y]]) {
    turn(steps);
    assert.equal(stop(), [], "both ran: nothing goes back, in either order");
  }
  // z never ran (refused after its PreToolUse); two edits of its files ran at once.
  for (const steps of [[y, postToolUse("x", [b])], [postToolUse("x", [b]), y]]) {
    turn(steps);
    assert.equal(stop(), [c], "only the file no call wrote goes back");
  }
  // A permission prompt shown for z, whose PostToolUse comes before or after it: the next prompt
  // gives nothing back once z ran.
  const asked = () => markAsked(box.dir, scope, "Bash", [a, b, c]);
  const prompt = () => takePending(box.dir, scope, undefined, (call) => call.asked === true).flatMap((call) => call.targets);
  for (const steps of [[asked, z], [z, asked]]) {
    turn(steps);
    assert.equal(prompt(), [], "z ran: the next prompt gives none of it back");
    assert.equal(stop(), [], "nor does the end of the turn");
  }
  turn([asked]);
  assert.equal(prompt().sort(), [a, b, c], "z refused at the prompt: its claims go back at the next prompt");
  assert.equal(stop(), [], "y, never asked about, gave back nothing: it took nothing");
});

Race.run();
