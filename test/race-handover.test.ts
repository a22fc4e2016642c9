// `handover --to X` racing X's own release, between real processes. The release is stopped at an
// exact step (CLAIMS_STOP_AT, src/os/crash.ts) and let go (SIGCONT) once the handover has landed,
// or the handover is stopped holding the take lock while the release runs: the interleaving is
// made, not hoped for. No assertion depends on how long anything takes.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, claimsAsync, claimsIn, cleanEnv, readJson, sandbox, untilStopped, type Sandbox } from "./helpers.js";

const Handover = suite<{ box: Sandbox }>("handover --to racing the new holder's release");
Handover.before.each((context) => {
  context.box = sandbox();
});
Handover.after.each((context) => context.box.cleanup());

const as = claimsIn;
const asAsync = (box: Sandbox, holder: string, ...args: string[]) =>
  claimsAsync([...args, "--dir", box.dir, "--holder", holder, "--json"], { cwd: box.project });

/**
 * A real `claims` process run as `holder` with CLAIMS_STOP_AT=`stop`, once it has stopped itself
 * there. Killed by the caller in a finally, so none is left stopped when an assertion fails.
 */
async function stoppedAt(box: Sandbox, holder: string, args: string[], stop: string) {
  const child = spawn(process.execPath, [BIN, ...args, "--dir", box.dir, "--holder", holder, "--json"], { cwd: box.project, env: cleanEnv({ CLAIMS_STOP_AT: stop }) });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await untilStopped(child);
  return { child, exited, output: () => `${stdout}${stderr}`, json: () => JSON.parse(stdout) };
}

/** Resolves once `predicate` holds (checked every 25 ms, bounded). */
async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.ok(predicate(), `timed out waiting until ${what}`);
}

/** The targets of the claims `holder` has in the claims directory. */
function heldBy(box: Sandbox, holder: string): string[] {
  return readdirSync(box.dir)
    .filter((name) => name.endsWith(".json") && !name.startsWith("."))
    .map((name) => readJson(join(box.dir, name)))
    .filter((claim) => claim.holder === holder)
    .map((claim) => claim.target)
    .sort();
}

Handover("should leave a claim the holder took itself while its release of everything ran, which that take answered granted", async ({ box }) => {
  // A subagent shares its session's holder: its take of c lands while the session's release of
  // everything waits for the take lock to look again. That look is for what was handed or granted
  // to the holder (a notice names it), not for a claim its own take was just told it holds.
  assert.is(as(box, "alice", "take", "y").code, 0);
  const taking = await stoppedAt(box, "alice", ["take", "c"], "lock-won");
  try {
    const releasing = asAsync(box, "alice", "release");
    await until(() => !existsSync(join(box.dir, "y.json")), "the release's first pass released y");
    taking.child.kill("SIGCONT");
    assert.is(await taking.exited, 0, taking.output());
    assert.equal(taking.json().granted.map((claim: { target: string }) => claim.target), ["c"]);
    const released = await releasing;
    assert.is(released.code, 0, released.stderr);
    assert.equal(JSON.parse(released.stdout).released, ["y"], released.stdout);
    assert.equal(heldBy(box, "alice"), ["c"], "alice still holds what her take was granted");
  } finally {
    taking.child.kill("SIGKILL");
  }
});

Handover("should leave nothing held by a holder whose release of everything ran while a claim was handed to it", async ({ box }) => {
  // X's release listed what X holds (y), then A handed t to X before the release ended: t
  // survived X's "release everything", and X, told it holds nothing, kept t from everyone until
  // its TTL ran out.
  assert.is(as(box, "A", "take", "t", "--purpose", "for X").code, 0);
  assert.is(as(box, "X", "take", "y").code, 0);
  // Stopped under y's claim lock, about to remove it: its claims listed.
  const releasing = await stoppedAt(box, "X", ["release"], "before-unlink");
  try {
    const handed = as(box, "A", "handover", "t", "--to", "X");
    assert.is(handed.code, 0, handed.stdout + handed.stderr);
    releasing.child.kill("SIGCONT");
    assert.is(await releasing.exited, 0, releasing.output());
  } finally {
    releasing.child.kill("SIGKILL");
  }
  assert.equal(heldBy(box, "X"), [], `X released everything, yet holds:\n${releasing.output()}`);
  const answer = releasing.json();
  assert.equal([...answer.released].sort(), ["t", "y"], releasing.output());
  assert.equal(answer.received, [{ target: "t", handed_by: "A" }], releasing.output());
  // Told by the release: no notice of t is left for X's next status to show as held.
  const status = as(box, "X", "status", "--mine");
  assert.equal(JSON.parse(status.stdout).granted_while_waiting, [], status.stdout);
  assert.equal(readdirSync(box.dir).filter((name) => name.startsWith(".held-")), [], "no held marker is left");
  assert.ok(as(box, "B", "take", "t").code === 0, "t is free for anyone");
});

Handover("should leave nothing held by a holder whose release of everything ran while a handover to it held the take lock", async ({ box }) => {
  // The handover is stopped holding the take lock, before anything changed hands; X's release
  // releases y meanwhile. Whenever the handover lands (before the release looks again, or while
  // the release waits for the take lock), the release must end with t released too.
  assert.is(as(box, "A", "take", "t").code, 0);
  assert.is(as(box, "X", "take", "y").code, 0);
  const handing = await stoppedAt(box, "A", ["handover", "t", "--to", "X"], "lock-won");
  let released;
  try {
    const releasing = asAsync(box, "X", "release");
    await until(() => !existsSync(join(box.dir, "y.json")), "X's release removed y");
    handing.child.kill("SIGCONT");
    assert.is(await handing.exited, 0, handing.output());
    released = await releasing;
  } finally {
    handing.child.kill("SIGKILL");
  }
  assert.is(released.code, 0, released.stdout + released.stderr);
  assert.equal(heldBy(box, "X"), [], `X released everything, yet holds:\n${released.stdout}`);
  assert.equal([...JSON.parse(released.stdout).released].sort(), ["t", "y"], released.stdout);
});

Handover("should release a named target handed to the releaser after the release found it another's", async ({ box }) => {
  // X releases t (A's, so far) and y: t is judged A's, then A hands it to X before the release
  // ends. X was told t is A's ("not yours") and held it, unknowing, until its TTL.
  assert.is(as(box, "A", "take", "t").code, 0);
  assert.is(as(box, "X", "take", "y").code, 0);
  const releasing = await stoppedAt(box, "X", ["release", "t", "y"], "before-unlink");
  try {
    assert.is(as(box, "A", "handover", "t", "--to", "X").code, 0);
    releasing.child.kill("SIGCONT");
    assert.is(await releasing.exited, 0, releasing.output());
  } finally {
    releasing.child.kill("SIGKILL");
  }
  assert.equal(heldBy(box, "X"), [], `X released t and y, yet holds:\n${releasing.output()}`);
  const answer = releasing.json();
  assert.equal([...answer.released].sort(), ["t", "y"], releasing.output());
  assert.equal(answer.lost, [], releasing.output());
  assert.is(answer.never_held, undefined, releasing.output());
});

Handover("should serve the queue with a claim handed to the releaser during its release", async ({ box }) => {
  // B waits for t. Handed to X while X releases everything, t goes on to B, as it would have had
  // the handover come a moment sooner.
  assert.is(as(box, "A", "take", "t").code, 0);
  assert.is(as(box, "B", "take", "t", "--queue").code, 6);
  assert.is(as(box, "X", "take", "y").code, 0);
  const releasing = await stoppedAt(box, "X", ["release"], "before-unlink");
  try {
    assert.is(as(box, "A", "handover", "t", "--to", "X").code, 0);
    releasing.child.kill("SIGCONT");
    assert.is(await releasing.exited, 0, releasing.output());
  } finally {
    releasing.child.kill("SIGKILL");
  }
  assert.equal(heldBy(box, "X"), [], releasing.output());
  assert.equal(heldBy(box, "B"), ["t"], `B, next in the queue, holds t:\n${releasing.output()}`);
  assert.equal(releasing.json().handed_to, [{ target: "t", holder: "B" }], releasing.output());
});

Handover.run();

// Loaded into a release of everything: just before it removes its pointer to another claims
// directory (src/protocol/routes.ts), once it is done there, it runs HANDOVER_ARGS to the end (a
// handover of a claim there to the releaser). The bundle calls node:fs's unlinkSync through the
// module object, so this wrapper sees that removal.
const HANDOVER_BEFORE_FORGET = `
const fs = require("node:fs");
const { spawnSync } = require("node:child_process");
const unlink = fs.unlinkSync;
let done = false;
fs.unlinkSync = function (path) {
  if (!done && String(path).includes("/.elsewhere/")) {
    done = true;
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    delete env.HANDOVER_ARGS;
    const handed = spawnSync(process.execPath, [process.argv[1], ...JSON.parse(process.env.HANDOVER_ARGS)], { env, stdio: "ignore" });
    fs.writeFileSync(process.env.HANDOVER_EXIT, String(handed.status));
  }
  return unlink.apply(this, arguments);
};
`;

const Elsewhere = suite<{ box: Sandbox }>("handover --to in another claims directory racing the new holder's release");
Elsewhere.before.each((context) => {
  context.box = sandbox();
});
Elsewhere.after.each((context) => context.box.cleanup());

Elsewhere("should keep the pointer to a claims directory where a claim was handed to the releaser after it was done there", ({ box }) => {
  // X releases everything from the root; its claims in the package's own claims directory are
  // reached through X's pointer, which the release removes once done there. A handover of a claim
  // there to X landed after that, and wrote X's pointer again just before the release removed it:
  // X held the claim, and nothing led X's later release, beat or status to it.
  const root = box.project;
  const pkg = join(root, "packages", "a");
  mkdirSync(join(pkg, "src"), { recursive: true });
  writeFileSync(join(root, ".claims"), JSON.stringify({ dir: "../store-root" }));
  writeFileSync(join(pkg, ".claims"), JSON.stringify({ dir: "../../../store-a" }));
  const pkgStore = join(box.root, "store-a");
  const env = { HOME: box.root };
  const run = (holder: string, args: string[], extra: Record<string, string> = {}) => claims([...args, "--holder", holder, "--json"], { cwd: root, env: { ...env, ...extra } });
  assert.is(run("A", ["take", "packages/a/src/f.ts"]).code, 0);
  assert.is(run("X", ["take", "packages/a/src/g.ts"]).code, 0);
  const preload = join(box.root, "handover-before-forget.cjs");
  writeFileSync(preload, HANDOVER_BEFORE_FORGET);
  const exit = join(box.root, "handover-exit");
  const released = run("X", ["release"], {
    NODE_OPTIONS: `--require=${preload}`,
    HANDOVER_ARGS: JSON.stringify(["handover", "packages/a/src/f.ts", "--to", "X", "--holder", "A"]),
    HANDOVER_EXIT: exit,
  });
  assert.is(released.code, 0, released.stdout + released.stderr);
  assert.is(readFileSync(exit, "utf8"), "0", "A handed f.ts to X once X's release was done in the package's directory");
  const f = join(pkg, "src", "f.ts");
  assert.equal(JSON.parse(released.stdout).released, [join(pkg, "src", "g.ts")], released.stdout);
  // The handover came after X's release was done there: X holds f.ts, and can reach it from the root.
  const mine = JSON.parse(run("X", ["status", "--mine"]).stdout);
  assert.equal(mine.claims.map((claim: { target: string }) => claim.target), [f], "X's status from the root shows f.ts");
  const again = run("X", ["release"]);
  assert.equal(JSON.parse(again.stdout).released, [f], again.stdout);
  assert.equal(readdirSync(pkgStore).filter((name) => name.endsWith(".json") && !name.startsWith(".")), [], "nothing is left held in the package's directory");
});

Elsewhere.run();
