// A take that switches the holder's claim between shared and exclusive and then loses a race
// through another claims directory (docs/PROTOCOL.md 1a, 5a) gives its new-mode claim back
// (take-links.ts, backOff). Between its grant and that give-back, another call of the same holder
// may be told it holds the target in that mode (a subagent's take of it): what that call was told
// must stand. Real processes, stopped at exact steps (CLAIMS_STOP_AT, src/os/crash.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, sandbox, untilStopped, type Sandbox } from "./helpers.js";
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

const as = (box: Sandbox, holder: string, ...args: string[]) => claims([...args, "--dir", box.dir, "--holder", holder, "--json"], { cwd: box.project });

function started(box: Sandbox, holder: string, args: string[], stop: string) {
  const child = spawn(process.execPath, [BIN, ...args, "--dir", box.dir, "--holder", holder, "--json"], { cwd: box.project, env: cleanEnv({ CLAIMS_STOP_AT: stop }) });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(`${code ?? ""}${signal ?? ""}`)));
  return { child, exited, stdout: () => stdout };
}

async function untilWaitingForLock(box: Sandbox, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (readdirSync(box.dir).some((name) => name.startsWith(`.tmp-${child.pid}-`))) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the take never waited for the take lock");
}

/**
 * h's take `args` (of ./x.ts, switching it, and ./y.ts, in its pinned claims directory) waits for
 * the take lock behind g0's take, stopped there, while g claims ./y.ts where the sessions that pin
 * none claim it. Let go, h's take is granted, looks again there after its grant, meets g's claim
 * and backs off (REFUSED, exit 3): it is stopped as it removes the first claim it gives back (y.ts,
 * the one raced for), and meanwhile `during` runs.
 */
async function switchLosesRace(box: Sandbox, args: string[], during: () => void): Promise<void> {
  const holding = started(box, "g0", ["take", "n"], "lock-won");
  let taking: ReturnType<typeof started> | undefined;
  try {
    await untilStopped(holding.child);
    taking = started(box, "h", args, "before-unlink");
    await untilWaitingForLock(box, taking.child);
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
