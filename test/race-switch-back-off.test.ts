// A take that switches the holder's claim between shared and exclusive and then loses a race
// through another claims directory (docs/PROTOCOL.md 1a, 5a) gives its new-mode claim back
// (take-links.ts, backOff). Between its grant and that give-back, another call of the same holder
// may be told it holds the target in that mode (a subagent's take of it): what that call was told
// must stand. Real processes, stopped at exact steps (CLAIMS_STOP_AT, src/os/crash.ts).
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, claimsIn, sandbox, startedToStop, untilStopped, untilWaitingForLock, type Sandbox } from "./helpers.js";
import { claimFileName } from "../src/targets/target.js";

const Switch = suite<{ box: Sandbox }>("a mode switch that lost a race through another claims directory, and the holder's other calls");
// Where sessions that pin no claims directory claim: a take pinning one (--dir) looks there too.
const DEFAULT_DIR = join(process.env.HOME as string, ".local", "state", "claims");
Switch.before.each((context) => {
  context.box = sandbox();
});
Switch.after.each((context) => {
  context.box.cleanup();
  rmSync(DEFAULT_DIR, { recursive: true, force: true });
});

const as = claimsIn;

/**
 * h's take `args` (of ./x.ts, switching it, and ./y.ts, in its pinned claims directory) waits for
 * the take lock behind g0's take, stopped there, while g claims ./y.ts where the sessions that pin
 * none claim it. Let go, h's take is granted, looks again there after its grant, meets g's claim
 * and backs off (REFUSED, exit 3): it is stopped as it removes the first claim it gives back (y.ts,
 * the one raced for), and meanwhile `during` runs.
 */
async function switchLosesRace(box: Sandbox, args: string[], during: () => void): Promise<void> {
  const holding = startedToStop(box, "g0", ["take", "n"], "lock-won");
  let taking: ReturnType<typeof startedToStop> | undefined;
  try {
    await untilStopped(holding.child);
    taking = startedToStop(box, "h", args, "before-unlink");
    await untilWaitingForLock(box.dir, taking.child);
    const g = claims(["take", "./y.ts", "--holder", "g", "--json"], { cwd: box.project });
    assert.is(g.code, 0, `g's take of y.ts where the unpinned sessions claim: ${g.stdout}${g.stderr}`);
    holding.child.kill("SIGCONT");
    assert.is(await holding.exited, "0");
    await untilStopped(taking.child);
    during();
    taking.child.kill("SIGCONT");
    assert.is(await taking.exited, "3", `h's take lost the race: ${taking.stdout()}`);
  } finally {
    holding.child.kill("SIGKILL");
    taking?.child.kill("SIGKILL");
  }
}

const claimOf = (box: Sandbox, fileName: string) => {
  try {
    return JSON.parse(readFileSync(join(box.dir, fileName), "utf8")) as { holder: string };
  } catch {
    return undefined;
  }
};

Switch("should keep the exclusive claim a subagent was told it holds while a take switching the holder's shared claim to exclusive lost a race", async ({ box }) => {
  const file = join(box.project, "x.ts");
  assert.is(as(box, "h", "take", "./x.ts", "--shared", "--purpose", "read x").code, 0);
  let retaken: ReturnType<typeof as> | undefined;
  await switchLosesRace(box, ["take", "./x.ts", "./y.ts"], () => {
    assert.is(claimOf(box, claimFileName(file))?.holder, "h", "h's take was granted x.ts exclusively");
    // A subagent of the same session takes x.ts exclusively: the holder's already (the switch's).
    retaken = as(box, "h", "take", "./x.ts", "--purpose", "rewrite x");
  });
  assert.is(retaken?.code, 0, retaken?.stdout);
  assert.equal(JSON.parse(retaken?.stdout as string).granted.map((claim: { action: string }) => claim.action), ["retaken"]);
  // h was told it holds x.ts exclusively: nobody may share it now.
  const other = as(box, "k", "take", "./x.ts", "--shared");
  assert.is(other.code, 3, `h was told it holds x.ts exclusively, yet: ${other.stdout}${other.stderr}`);
});

Switch("should still give back the exclusive claim of a switch that lost a race when nobody else was told of it", async ({ box }) => {
  const file = join(box.project, "x.ts");
  assert.is(as(box, "h", "take", "./x.ts", "--shared", "--purpose", "read x").code, 0);
  await switchLosesRace(box, ["take", "./x.ts", "./y.ts"], () => undefined);
  assert.is(claimOf(box, claimFileName(file)), undefined, "the switch's exclusive claim is given back");
  const other = as(box, "k", "take", "./x.ts", "--shared");
  assert.is(other.code, 0, `h still shares x.ts, as before its take: ${other.stdout}${other.stderr}`);
});

Switch.run();

const Interrupted = suite<{ box: Sandbox }>("an interrupted take that switched the holder's claim, and the holder's other calls");
Interrupted.before.each((context) => {
  context.box = sandbox();
});
Interrupted.after.each((context) => context.box.cleanup());

/**
 * h's take of ./x.ts, switching its shared claim to exclusive, is stopped once it linked the
 * exclusive claim (inside the take lock) and sent SIGTERM there; h's `beat ./x.ts` (stopped once it
 * wins the take lock) waits behind it. Let go, the take notes the signal after its grant and gives
 * it back (src/commands/take-undo.ts), racing the beat for the take lock: the beat must win for the
 * order asked for (told held, then the give-back), else the attempt says nothing and is made again.
 * Returns whether it was made, with the beat's and the take's exits.
 */
async function beatBeforeGiveBack(box: Sandbox): Promise<{ made: boolean; beat?: string; take?: string }> {
  const file = join(box.project, "x.ts");
  const taking = startedToStop(box, "h", ["take", "./x.ts", "--purpose", "rewrite x"], "after-link");
  let beating: ReturnType<typeof startedToStop> | undefined;
  try {
    await untilStopped(taking.child);
    taking.child.kill("SIGTERM"); // noted once it runs on: after its grant, it gives it back
    beating = startedToStop(box, "h", ["beat", "./x.ts"], "lock-won");
    await untilWaitingForLock(box.dir, beating.child);
    taking.child.kill("SIGCONT");
    await untilStopped(beating.child);
    // The beat holds the take lock now: where the give-back came first, the exclusive claim is gone already.
    const made = claimOf(box, claimFileName(file))?.holder === "h";
    beating.child.kill("SIGCONT");
    const [beat, take] = [await beating.exited, await taking.exited];
    return { made, beat, take };
  } finally {
    taking.child.kill("SIGKILL");
    beating?.child.kill("SIGKILL");
  }
}

Interrupted("should keep the exclusive claim the holder's beat was told it holds before an interrupted take that switched it gives it back", async ({ box }) => {
  const file = join(box.project, "x.ts");
  for (let attempt = 0; attempt < 20; attempt++) {
    // Each attempt afresh: the claims and markers of the last one gone.
    rmSync(box.dir, { recursive: true, force: true });
    assert.is(as(box, "h", "take", "./x.ts", "--shared", "--purpose", "read x").code, 0);
    const run = await beatBeforeGiveBack(box);
    if (!run.made) continue;
    assert.is(run.beat, "0", "the beat renewed h's exclusive claim: h was told it holds it");
    assert.is(claimOf(box, claimFileName(file))?.holder, "h", "the give-back left the exclusive claim the beat told h it holds");
    const other = as(box, "k", "take", "./x.ts", "--shared");
    assert.is(other.code, 3, `h was told it holds x.ts exclusively, yet: ${other.stdout}${other.stderr}`);
    return;
  }
  assert.unreachable("the beat never won the take lock before the give-back");
});

Interrupted("should still give back the exclusive claim of an interrupted take that switched it when nobody else was told of it", async ({ box }) => {
  const file = join(box.project, "x.ts");
  assert.is(as(box, "h", "take", "./x.ts", "--shared", "--purpose", "read x").code, 0);
  const taking = startedToStop(box, "h", ["take", "./x.ts", "--purpose", "rewrite x"], "after-link");
  try {
    await untilStopped(taking.child);
    taking.child.kill("SIGTERM");
    taking.child.kill("SIGCONT");
    await taking.exited;
  } finally {
    taking.child.kill("SIGKILL");
  }
  assert.is(claimOf(box, claimFileName(file)), undefined, "the switch's exclusive claim is given back");
  const status = JSON.parse(as(box, "h", "status", "./x.ts").stdout);
  assert.equal(status.claims.map((claim: { holder: string; mode?: string; purpose: string }) => [claim.holder, claim.mode ?? "exclusive", claim.purpose]), [["h", "shared", "read x"]]);
  const other = as(box, "k", "take", "./x.ts", "--shared");
  assert.is(other.code, 0, `h still shares x.ts, as before its take: ${other.stdout}${other.stderr}`);
});

Interrupted.run();
