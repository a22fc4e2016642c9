// A take whose answer reaches nobody (Ctrl-C or SIGTERM during a CLI take, an MCP call its client
// cancelled) gives back what it granted. Between its grant and that give-back, the same holder may
// be told it holds the target by another call: a subagent's take of the same file, or the client's
// retry of the call with its idempotency key. What that call was told must stand. Real processes,
// stopped at exact steps (CLAIMS_STOP_AT, src/os/crash.ts): the interleaving is made, not hoped for.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, claimsAsync, claimsIn, iso, sandbox, startedToStop, untilStopped, untilWaitingForLock, writeClaimFile, type Sandbox } from "./helpers.js";
import { claimFileName } from "../src/targets/target.js";

const Interrupted = suite<{ box: Sandbox }>("an interrupted take's give-back racing the holder's other calls");
// Where sessions that pin no claims directory claim: a take pinning one (--dir) looks there too (docs/PROTOCOL.md 1a).
const DEFAULT_DIR = join(process.env.HOME as string, ".local", "state", "claims");
Interrupted.before.each((context) => {
  context.box = sandbox();
});
Interrupted.after.each((context) => {
  context.box.cleanup();
  rmSync(DEFAULT_DIR, { recursive: true, force: true });
});

const as = claimsIn;

/**
 * h's take of ./x.ts (`args`) is interrupted by SIGINT while it waits for the take lock (held by g's
 * take of y, stopped there): it is granted x.ts, and gives it back once it notes the signal. It is
 * stopped in between, as it looks again in the default claims directory after its grant (a pinned
 * take's look, section 1a) and reads the filesystem's clock for a stale claim found there, written
 * after its first look; meanwhile `during` runs. Answers how it ended.
 */
async function interruptedTake(box: Sandbox, args: string[], during: () => void | Promise<void>): Promise<string> {
  const holding = startedToStop(box, "g", ["take", "y"], "lock-won");
  let taking: ReturnType<typeof startedToStop> | undefined;
  try {
    await untilStopped(holding.child);
    taking = startedToStop(box, "h", args, "clock-probed");
    await untilWaitingForLock(box.dir, taking.child);
    const file = join(box.project, "x.ts");
    const old = iso(Date.now() - 7200_000);
    writeClaimFile(DEFAULT_DIR, claimFileName(file), { target: file, holder: "gone", purpose: "lapsed", taken_at: old, heartbeat_at: old });
    taking.child.kill("SIGINT"); // noted by the take's listener once it yields, after its grant
    holding.child.kill("SIGCONT");
    assert.is(await holding.exited, "0");
    await untilStopped(taking.child);
    assert.is(JSON.parse(readFileSafe(join(box.dir, claimFileName(file)))).holder, "h", "stopped after its grant");
    await during();
    taking.child.kill("SIGCONT");
    return await taking.exited;
  } finally {
    holding.child.kill("SIGKILL");
    taking?.child.kill("SIGKILL");
  }
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "{}";
  }
}

Interrupted("should keep a claim the holder was told it holds by another take while an interrupted take of it gave it back", async ({ box }) => {
  let retaken: ReturnType<typeof as> | undefined;
  const exit = await interruptedTake(box, ["take", "./x.ts"], () => {
    // A subagent of the same session takes x.ts: it is the holder's already (the interrupted take's grant).
    retaken = as(box, "h", "take", "./x.ts");
  });
  assert.is(retaken?.code, 0, retaken?.stdout);
  assert.equal(JSON.parse(retaken?.stdout as string).granted.map((claim: { action: string }) => claim.action), ["retaken"]);
  assert.ok(exit === "SIGINT" || exit === "130", `the interrupted take ended by its signal, not ${exit}`);
  // h was told it holds x.ts: nobody else may be granted it.
  const other = as(box, "other", "take", "./x.ts");
  assert.is(other.code, 3, `h was told it holds x.ts, yet: ${other.stdout}${other.stderr}`);
});

Interrupted("should keep a claim whose grant was replayed to a retry with the same idempotency key while the interrupted take gave it back", async ({ box }) => {
  let replay: ReturnType<typeof as> | undefined;
  const exit = await interruptedTake(box, ["take", "./x.ts", "--idempotency-key", "k1"], () => {
    // The caller gave up on the first call and retried it with its key: it is told the first answer.
    replay = as(box, "h", "take", "./x.ts", "--idempotency-key", "k1");
  });
  assert.is(replay?.code, 0, replay?.stdout);
  assert.is(JSON.parse(replay?.stdout as string).idempotent_replay, true);
  assert.ok(exit === "SIGINT" || exit === "130", `the interrupted take ended by its signal, not ${exit}`);
  const other = as(box, "other", "take", "./x.ts");
  assert.is(other.code, 3, `h was told it holds x.ts, yet: ${other.stdout}${other.stderr}`);
});

Interrupted("should still give back what nobody else was told of", async ({ box }) => {
  const exit = await interruptedTake(box, ["take", "./x.ts"], () => undefined);
  assert.ok(exit === "SIGINT" || exit === "130", `the interrupted take ended by its signal, not ${exit}`);
  const other = as(box, "other", "take", "./x.ts");
  assert.is(other.code, 0, `the interrupted take kept x.ts: ${other.stdout}${other.stderr}`);
});

Interrupted("should keep a claim the holder was told it holds by another take while a wait that got it timed out", async ({ box }) => {
  assert.is(as(box, "other", "take", "b").code, 0);
  // h's wait for a and b gets a at once and waits for b, which it never gets.
  const waiting = claimsAsync(["take", "a", "b", "--wait", "2", "--holder", "h", "--dir", box.dir, "--json"], { cwd: box.project });
  const queued = () => readdirSync(box.dir).some((name) => name.startsWith(".queue-"));
  for (let i = 0; i < 300 && !queued(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(queued(), "the wait queued for b");
  // A subagent of the same session takes a meanwhile: it is the holder's already (the wait's).
  const retaken = as(box, "h", "take", "a");
  assert.is(retaken.code, 0, retaken.stdout);
  assert.equal(JSON.parse(retaken.stdout).granted.map((claim: { action: string }) => claim.action), ["retaken"]);
  assert.is((await waiting).code, 5, "the wait timed out");
  const another = as(box, "another", "take", "a");
  assert.is(another.code, 3, `h was told it holds a, yet: ${another.stdout}${another.stderr}`);
});

/** h waits for a and b (2 s), held by o1 and o2; o1 frees a to it (`freeing`); the wait times out for b and must give a back. */
async function waitGivesBackA(box: Sandbox, freeing: string[]): Promise<void> {
  assert.is(as(box, "o1", "take", "a").code, 0);
  assert.is(as(box, "o2", "take", "b").code, 0);
  const waiting = claimsAsync(["take", "a", "b", "--wait", "2", "--holder", "h", "--dir", box.dir, "--json"], { cwd: box.project });
  const queued = () => readdirSync(box.dir).filter((name) => name.startsWith(".queue-")).length;
  for (let i = 0; i < 300 && queued() < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.is(queued(), 2, "the wait queued for a and b");
  assert.is(as(box, "o1", ...freeing).code, 0);
  assert.is((await waiting).code, 5, "the wait timed out");
  const another = as(box, "another", "take", "a");
  assert.is(another.code, 0, `the wait kept a: ${another.stdout}${another.stderr}`);
}

Interrupted("should still give back what a wait that timed out was granted from the queue", async ({ box }) => {
  await waitGivesBackA(box, ["release", "a"]); // a is granted to the waiting h, by o1's release
});

Interrupted("should still give back what a wait that timed out was handed while it waited", async ({ box }) => {
  await waitGivesBackA(box, ["handover", "a", "--to", "h"]);
});

Interrupted("should keep the holder's claim in the old mode when a take switching it loses a race through another claims directory", async ({ box }) => {
  // h holds x.ts exclusively, and takes x.ts (switching it to shared) and y.ts, pinning its claims
  // directory. g, claiming y.ts where sessions that pin none claim it, is granted it while h's take
  // waits for its take lock (g0's take, stopped there): h's take, granted, meets g's claim when it
  // looks again, and gives back what it took. It answers REFUSED, and h still holds x.ts as before.
  assert.is(as(box, "h", "take", "./x.ts", "--purpose", "edit x").code, 0);
  await loseRaceForY(box, ["take", "./x.ts", "./y.ts", "--shared"]);
  // h was told its take failed, which keeps what h held before it: x.ts, exclusively.
  const other = as(box, "k", "take", "./x.ts", "--shared");
  assert.is(other.code, 3, `h still holds x.ts exclusively, yet: ${other.stdout}${other.stderr}`);
});

/**
 * h's take (`args`, in its pinned claims directory) waits for the take lock behind a stopped taker
 * while g claims ./y.ts where the sessions that pin none claim it; let go, h's take looks again
 * after its grant, meets g's claim, and answers REFUSED (exit 3).
 */
async function loseRaceForY(box: Sandbox, args: string[]): Promise<void> {
  const holding = startedToStop(box, "g0", ["take", "n"], "lock-won");
  let taking: ReturnType<typeof startedToStop> | undefined;
  try {
    await untilStopped(holding.child);
    taking = startedToStop(box, "h", args, "none");
    await untilWaitingForLock(box.dir, taking.child);
    const g = claims(["take", "./y.ts", "--holder", "g", "--json"], { cwd: box.project });
    assert.is(g.code, 0, `g's take of y.ts where the unpinned sessions claim: ${g.stdout}${g.stderr}`);
    holding.child.kill("SIGCONT");
    assert.is(await holding.exited, "0");
    assert.is(await taking.exited, "3", `h's take lost the race: ${taking.stdout()}`);
  } finally {
    holding.child.kill("SIGKILL");
    taking?.child.kill("SIGKILL");
  }
}

Interrupted("should give back a re-take of the holder's own lapsed claim that lost a race through another claims directory", async ({ box }) => {
  // h's claim on y.ts (pinned to its claims directory) has lapsed; g claims y.ts where sessions that
  // pin none claim it, finding h's claim stale, while h's take of y.ts again waits for its take lock.
  // h's take renews its claim, meets g's when it looks again, and must give it back: it answers REFUSED.
  const file = join(box.project, "y.ts");
  const old = iso(Date.now() - 7200_000);
  writeClaimFile(box.dir, claimFileName(file), { target: file, holder: "h", purpose: "lapsed", taken_at: old, heartbeat_at: old });
  await loseRaceForY(box, ["take", "./y.ts"]);
  const left = readFileSafe(join(box.dir, claimFileName(file)));
  assert.is.not(JSON.parse(left).holder, "h", `h was told REFUSED, yet holds y.ts beside g: ${left}`);
});

Interrupted("should tell the holder of a claim handed to it just after it released the same target", async ({ box }) => {
  // h releases x; before the release has served the queue (it waits for the take lock, held by g's
  // take, stopped there), o takes x, now free, and hands it over to h. h holds x again: the notice
  // of that handover is how h learns it, and the release must not spend it with the one it released.
  assert.is(as(box, "j", "take", "q").code, 0);
  assert.is(as(box, "k", "take", "q", "--queue").code, 6); // a queue to serve: the release takes the take lock
  assert.is(as(box, "h", "take", "x").code, 0);
  const holding = startedToStop(box, "g", ["take", "y"], "lock-won");
  let releasing: ReturnType<typeof startedToStop> | undefined;
  try {
    await untilStopped(holding.child);
    releasing = startedToStop(box, "h", ["release", "x"], "none");
    const released = () => !readdirSync(box.dir).includes(claimFileName("x"));
    for (let i = 0; i < 500 && !released(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(released(), "h released x");
    await untilWaitingForLock(box.dir, releasing.child);
    releasing.child.kill("SIGSTOP");
    await untilStopped(releasing.child);
    holding.child.kill("SIGCONT");
    assert.is(await holding.exited, "0");
    assert.is(as(box, "o", "take", "x").code, 0);
    const handed = as(box, "o", "handover", "x", "--to", "h");
    assert.is(handed.code, 0, handed.stdout + handed.stderr);
    releasing.child.kill("SIGCONT");
    assert.is(await releasing.exited, "0", releasing.stdout());
  } finally {
    holding.child.kill("SIGKILL");
    releasing?.child.kill("SIGKILL");
  }
  assert.is(JSON.parse(readFileSafe(join(box.dir, claimFileName("x")))).holder, "h", "x was handed to h");
  const told = JSON.parse(as(box, "h", "status", "--mine").stdout).granted_while_waiting.map((grant: { target: string }) => grant.target);
  assert.equal(told, ["x"], "h holds x, handed over after its release, and was never told");
});

Interrupted("should still give back what an interrupted take granted while another process holds the take lock, stopped", async ({ box }) => {
  // Between the interrupted take's grant and its give-back, k's take gets the take lock and is
  // stopped there (a paused process): the give-back cannot judge under the take lock.
  let stopped: ReturnType<typeof startedToStop> | undefined;
  try {
    const exit = await interruptedTake(box, ["take", "./x.ts"], async () => {
      stopped = startedToStop(box, "k", ["take", "z"], "lock-won");
      await untilStopped(stopped.child);
    });
    assert.ok(stopped !== undefined);
    assert.ok(exit === "SIGINT" || exit === "130", `the interrupted take ended by its signal, not ${exit}`);
    const left = readFileSafe(join(box.dir, claimFileName(join(box.project, "x.ts"))));
    assert.is.not(JSON.parse(left).holder, "h", `the interrupted take was answered nothing, yet h holds x.ts: ${left}`);
  } finally {
    stopped?.child.kill("SIGKILL");
  }
});

Interrupted.run();
