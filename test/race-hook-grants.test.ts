// The agent hooks and grant ids (docs/PROTOCOL.md 8, held markers). The session's `claims take`
// in its own shell acts as the same holder as its hook: a take that is then given back (a `--wait`
// that timed out or got SIGTERM, an interrupted take) must not remove a claim the hook let a write
// through on meanwhile, and the hook's own give-back of a call that never ran must not remove a
// claim another call of the holder was told it holds. Real processes, stopped at exact steps
// (CLAIMS_STOP_AT, src/os/crash.ts) where an interleaving matters: made, not hoped for.
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claimsIn, cleanEnv, iso, sandbox, untilStopped, writeClaimFile, type Sandbox } from "./helpers.js";
import { claimFileName } from "../src/targets/target.js";

const Grants = suite<{ box: Sandbox }>("claims hook: grant ids of the holder's other calls");
Grants.before.each((context) => {
  context.box = sandbox();
});
Grants.after.each((context) => context.box.cleanup());

const as = claimsIn;

function hook(box: Sandbox, payload: object): Promise<{ code: number; stdout: string; stderr: string }> & { pid?: number } {
  const child = spawn(process.execPath, [BIN, "hook", "claude"], { env: cleanEnv({ CLAIMS_DIR: box.dir }), stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.end(JSON.stringify(payload));
  const answer = new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
  return Object.assign(answer, { pid: child.pid });
}

const event = (box: Sandbox, session: string, name: string, extra: object = {}) => ({ session_id: session, transcript_path: "/tmp/t.jsonl", cwd: box.project, permission_mode: "default", hook_event_name: name, ...extra });
const edit = (box: Sandbox, session: string, call: string, file: string, extra: object = {}) =>
  event(box, session, "PreToolUse", { tool_use_id: call, tool_name: "Edit", tool_input: { file_path: file, old_string: "x", new_string: "y" }, ...extra });
const denied = (answer: { stdout: string }) => answer.stdout.includes('"permissionDecision":"deny"');

/** `claims take <args> --wait 60` of holder `claude-<session>`, as the agent's shell runs it, stopped at `stop` if given. */
function waitingTake(box: Sandbox, session: string, args: string[], stop = "none") {
  const child = spawn(process.execPath, [BIN, "take", ...args, "--wait", "60", "--dir", box.dir, "--holder", `claude-${session}`, "--json"], { cwd: box.project, env: cleanEnv({ CLAIMS_STOP_AT: stop }) });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(`${code ?? ""}${signal ?? ""}`)));
  return { child, exited, stdout: () => stdout };
}

async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(done(), what);
}

const holderOf = (box: Sandbox, file: string) => {
  try {
    return JSON.parse(readFileSync(join(box.dir, claimFileName(file)), "utf8")).holder as string;
  } catch {
    return undefined;
  }
};

/**
 * Whether `child` has an owner record (a temp file) in the claims directory: it waits for a lock.
 * The same temp file seen at two looks in a row: a probe of the filesystem's clock is removed at once.
 */
const seen = new Set<string>();
const waitsForLock = (box: Sandbox, child: { pid?: number }) => {
  const now = readdirSync(box.dir).filter((name) => name.startsWith(`.tmp-${child.pid}-`));
  const again = now.some((name) => seen.has(name));
  seen.clear();
  for (const name of now) seen.add(name);
  return again;
};

Grants("should keep the claim a hook let a write through on when the session's own waiting take that granted it gives it back", async ({ box }) => {
  const file = join(box.project, "x.ts");
  writeFileSync(file, "x\n");
  assert.is(as(box, "other", "take", "b").code, 0);
  // The agent's shell: a take of x.ts and b, waiting for b. It gets x.ts at once.
  const waiting = waitingTake(box, "S", ["./x.ts", "b"]);
  let child: ChildProcess | undefined = waiting.child;
  try {
    await until("the wait got x.ts and queued for b", () => holderOf(box, file) === "claude-S" && readdirSync(box.dir).some((name) => name.startsWith(".queue-")));
    // The session's edit of x.ts: its own claim, a second old.
    const allowed = await hook(box, edit(box, "S", "e1", file));
    assert.is(allowed.stdout, "", `the session's own claim lets its edit through: ${allowed.stdout}${allowed.stderr}`);
    // The take is stopped by the user (or its tool call's timeout) and gives back what it got.
    waiting.child.kill("SIGTERM");
    assert.ok(["143", "SIGTERM"].includes(await waiting.exited), "the waiting take ended by its signal");
    child = undefined;
  } finally {
    child?.kill("SIGKILL");
  }
  // The edit was let through on the session's claim: nobody else may write x.ts now.
  assert.is(holderOf(box, file), "claude-S", "the write let through is still claimed by the session");
  const theirs = await hook(box, edit(box, "T", "t1", file));
  assert.ok(denied(theirs), `another session's edit of x.ts is refused: ${theirs.stdout}${theirs.stderr}`);
});

Grants("should keep the claim a hook let a write through on while the take that granted it had not written its held marker yet", async ({ box }) => {
  // S held x.ts once and lost it (taken over when stale, then released): its held marker is left,
  // naming no grant id, until a beat or release of everything reports the loss.
  const file = join(box.project, "x.ts");
  writeFileSync(file, "x\n");
  assert.is(as(box, "claude-S", "take", "./x.ts").code, 0);
  assert.is(as(box, "claude-S", "beat", "./x.ts").code, 0); // told held again: the marker names no grant now
  const old = iso(Date.now() - 7200_000);
  writeClaimFile(box.dir, claimFileName(file), { target: file, holder: "claude-S", purpose: "lapsed", taken_at: old, heartbeat_at: old });
  assert.is(as(box, "o", "take", "./x.ts").code, 0, "o takes the stale claim over");
  assert.is(as(box, "o", "release", "./x.ts").code, 0);
  assert.ok(readdirSync(box.dir).some((name) => name.startsWith(".held-")), "S's marker of x.ts is left");
  assert.is(as(box, "other", "take", "b").code, 0);
  // S's shell takes x.ts and b, waiting for b; stopped just after linking its claim of x.ts, before
  // its held marker names its grant id (it holds the take lock).
  const waiting = waitingTake(box, "S", ["./x.ts", "b"], "after-link");
  let child: ChildProcess | undefined = waiting.child;
  try {
    await untilStopped(waiting.child);
    assert.is(holderOf(box, file), "claude-S", "stopped after linking its claim");
    const editing = hook(box, edit(box, "S", "e1", file));
    // The hook waits for the take lock (a take holds it, and may be about to write its marker), or has answered.
    let answered = false;
    void editing.then(() => (answered = true));
    await until("the hook waits for the take lock, or has answered", () => answered || waitsForLock(box, editing));
    waiting.child.kill("SIGCONT");
    const allowed = await editing;
    assert.is(allowed.stdout, "", `the session's own claim lets its edit through: ${allowed.stdout}${allowed.stderr}`);
    await until("the wait queued for b", () => readdirSync(box.dir).some((name) => name.startsWith(".queue-")));
    waiting.child.kill("SIGTERM");
    assert.ok(["143", "SIGTERM"].includes(await waiting.exited), "the waiting take ended by its signal");
    child = undefined;
  } finally {
    child?.kill("SIGKILL");
  }
  assert.is(holderOf(box, file), "claude-S", "the write let through is still claimed by the session");
  const theirs = await hook(box, edit(box, "T", "t1", file));
  assert.ok(denied(theirs), `another session's edit of x.ts is refused: ${theirs.stdout}${theirs.stderr}`);
});

Grants("should keep a claim the hook took for a call that never ran once the session's shell took it too", async ({ box }) => {
  const file = join(box.project, "x.ts");
  writeFileSync(file, "x\n");
  // The hook claims x.ts for an edit the user then refuses (no PostToolUse).
  const allowed = await hook(box, edit(box, "S", "e1", file));
  assert.is(allowed.stdout, "", allowed.stderr);
  assert.is(holderOf(box, file), "claude-S", "claimed by the hook");
  assert.is((await hook(box, event(box, "S", "PermissionDenied", { tool_use_id: "e1", tool_name: "Edit" }))).code, 0);
  // Meanwhile the agent's shell takes x.ts: it is told it holds it.
  const retaken = as(box, "claude-S", "take", "./x.ts", "--purpose", "rewrite x");
  assert.is(retaken.code, 0, retaken.stdout);
  assert.equal(JSON.parse(retaken.stdout).granted.map((claim: { action: string }) => claim.action), ["retaken"]);
  // The turn ends: the refused call gives back what it took, but not what the shell was told it holds.
  assert.is((await hook(box, event(box, "S", "Stop"))).code, 0);
  const other = as(box, "other", "take", "./x.ts");
  assert.is(other.code, 3, `the session's shell was told it holds x.ts, yet: ${other.stdout}${other.stderr}`);
});

Grants("should keep a claim a subagent's edit was let through on when the main agent's call that took it never ran", async ({ box }) => {
  const file = join(box.project, "x.ts");
  writeFileSync(file, "x\n");
  // The main agent's edit claims x.ts, and is refused; a subagent of the session (the same holder)
  // edits x.ts, on that claim, and writes it.
  assert.is((await hook(box, edit(box, "S", "e1", file))).stdout, "");
  assert.is((await hook(box, event(box, "S", "PermissionDenied", { tool_use_id: "e1", tool_name: "Edit" }))).code, 0);
  const sub = await hook(box, edit(box, "S", "s1", file, { agent_id: "a1" }));
  assert.is(sub.stdout, "", `the subagent's edit goes through on the session's claim: ${sub.stdout}${sub.stderr}`);
  assert.is((await hook(box, event(box, "S", "PostToolUse", { tool_use_id: "s1", agent_id: "a1", tool_name: "Edit", tool_input: { file_path: file, old_string: "x", new_string: "y" }, tool_response: {} }))).code, 0);
  assert.is((await hook(box, event(box, "S", "SubagentStop", { agent_id: "a1" }))).code, 0);
  // The main agent's turn ends: its refused call gives back x.ts only if nobody was let through on it since.
  assert.is((await hook(box, event(box, "S", "Stop"))).code, 0);
  assert.is(holderOf(box, file), "claude-S", "the file the subagent wrote is still the session's");
  const theirs = await hook(box, edit(box, "T", "t1", file));
  assert.ok(denied(theirs), `another session's edit of x.ts is refused: ${theirs.stdout}${theirs.stderr}`);
});

Grants("should still give back what the hook took for a call that never ran when nobody else was told of it", async ({ box }) => {
  const file = join(box.project, "x.ts");
  writeFileSync(file, "x\n");
  assert.is((await hook(box, edit(box, "S", "e1", file))).stdout, "");
  assert.is((await hook(box, event(box, "S", "PermissionDenied", { tool_use_id: "e1", tool_name: "Edit" }))).code, 0);
  // A second edit of the same agent, on its own claim, also refused.
  assert.is((await hook(box, edit(box, "S", "e2", file))).stdout, "");
  assert.is((await hook(box, event(box, "S", "PermissionDenied", { tool_use_id: "e2", tool_name: "Edit" }))).code, 0);
  assert.is((await hook(box, event(box, "S", "Stop"))).code, 0);
  assert.is(holderOf(box, file), undefined, "given back");
});



Grants("should refuse an edit on the session's lapsed claim that the queue was granted when the hook renewed it", async ({ box }) => {
  const file = join(box.project, "x.ts");
  writeFileSync(file, "x\n");
  assert.is(as(box, "claude-S", "take", "./x.ts").code, 0);
  assert.is(as(box, "w", "take", "./x.ts", "--queue").code, 6, "w queues for x.ts");
  // S's claim lapses (its session stopped beating it): the queue comes first.
  const old = iso(Date.now() - 7200_000);
  writeClaimFile(box.dir, claimFileName(file), { target: file, holder: "claude-S", purpose: "lapsed", taken_at: old, heartbeat_at: old, token: 1 });
  const answer = await hook(box, edit(box, "S", "e1", file));
  assert.is(holderOf(box, file), "w", "the queue was granted x.ts when the hook renewed S's lapsed claim");
  assert.ok(denied(answer), `S's edit of x.ts, now w's, is refused: ${answer.stdout}${answer.stderr}`);
});
Grants.run();
