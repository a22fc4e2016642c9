// Waiting, queueing and granting between real processes: no daemon, so whichever process frees or
// observes a target does the grant, and it must happen exactly once.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claimsAsync, claimsIn, cleanEnv, readJson, sandbox, untilStopped, type Sandbox } from "./helpers.js";

const Waiting = suite<{ box: Sandbox }>("take --wait and the queue between processes");
Waiting.before.each((context) => {
  context.box = sandbox();
});
Waiting.after.each((context) => context.box.cleanup());

const as = claimsIn;
const asAsync = (box: Sandbox, holder: string, ...args: string[]) =>
  claimsAsync([...args, "--dir", box.dir, "--holder", holder, "--json"], { cwd: box.project });

/** Resolves once `predicate` holds on the claims directory (checked on every change, bounded). */
async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.ok(predicate(), `timed out waiting until ${what}`);
}

/** Who holds the claim file at `path`; undefined when there is none (or it went while read). */
function holderOf(path: string): string | undefined {
  try {
    return readJson(path).holder;
  } catch {
    return undefined;
  }
}

const queued = (box: Sandbox) => (existsSync(box.dir) ? readdirSync(box.dir).filter((name) => name.startsWith(".queue-")) : []);

Waiting("should grant a waiting take as soon as the holder releases", async ({ box }) => {
  as(box, "a", "take", "cfg");
  const waiting = asAsync(box, "b", "take", "cfg", "--wait", "60", "--purpose", "after a");
  await until(() => queued(box).length === 1, "b is queued");
  assert.is(as(box, "a", "release", "cfg").code, 0);
  const result = await waiting;
  assert.is(result.code, 0, result.stderr); // well before its 60 s: woken by the release
  assert.is(JSON.parse(result.stdout).granted[0].holder, "b");
  assert.is(readJson(join(box.dir, "cfg.json")).purpose, "after a");
});

Waiting("should time out with exit 5, explain the refusal, and leave nothing behind", async ({ box }) => {
  as(box, "a", "take", "cfg", "--purpose", "long job");
  const result = as(box, "b", "take", "cfg", "other", "--wait", "1");
  assert.is(result.code, 5);
  const body = JSON.parse(result.stdout);
  assert.is(body.timed_out, true);
  assert.is(body.refused[0].holder, "a");
  assert.is(body.refused[0].purpose, "long job");
  assert.equal(queued(box), []);
  assert.not.ok(existsSync(join(box.dir, "other.json")), "the free target taken while waiting was given back");
});

Waiting("should leave no trace of a wait that ran out: no lost claims, no stale notices, an earlier place kept", async ({ box }) => {
  as(box, "h", "take", "x");
  as(box, "k", "take", "y");
  assert.is(as(box, "a", "take", "y", "--queue", "--purpose", "important").code, 6);
  const waiting = asAsync(box, "a", "take", "z", "x", "y", "--wait", "3");
  await until(() => queued(box).length === 2, "a waits for x as well");
  as(box, "h", "release", "x"); // x is granted to the waiting a, then given back when y never frees
  assert.is((await waiting).code, 5);
  const beat = as(box, "a", "beat");
  assert.equal(JSON.parse(beat.stdout).lost, [], "the wait gave back what it got, and said so");
  const shown = JSON.parse(as(box, "a", "status", "--mine").stdout);
  assert.equal(shown.granted_while_waiting, []);
  assert.equal(shown.queued.map((note: { target: string; purpose: string }) => [note.target, note.purpose]), [["y", "important"]]);
});

Waiting("should withdraw a waiter killed with SIGTERM and let the next one through", async ({ box }) => {
  as(box, "a", "take", "cfg");
  const child = spawn(process.execPath, [BIN, "take", "cfg", "--wait", "60", "--dir", box.dir, "--holder", "b"], { env: cleanEnv(), stdio: "ignore" });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  await until(() => queued(box).length === 1, "b is queued");
  child.kill("SIGTERM");
  assert.is(await exited, 143);
  assert.equal(queued(box), []);
  as(box, "a", "release", "cfg");
  assert.is(as(box, "c", "take", "cfg").code, 0);
});

Waiting("should fail at once, even with --wait, on a denial waiting cannot fix", async ({ box }) => {
  writeFileSync(join(box.project, "u.ts"), "export function formatPrice() {}\n");
  const result = as(box, "b", "take", "u.ts#formatPrize", "--wait", "60");
  assert.is(result.code, 2);
  assert.match(JSON.parse(result.stdout).error.message, /did you mean `formatPrice`/);
  assert.is(as(box, "b", "take", "x", "--wait", "60", "--queue").code, 2);
});

Waiting("should grant three queued sessions in the order they queued", async ({ box }) => {
  as(box, "a", "take", "cfg");
  for (const holder of ["q1", "q2", "q3"]) assert.is(as(box, holder, "take", "cfg", "--queue").code, 6);
  const order: string[] = [];
  let current = "a";
  for (let i = 0; i < 3; i++) {
    as(box, current, "release", "cfg");
    current = readJson(join(box.dir, "cfg.json")).holder;
    order.push(current);
  }
  assert.equal(order, ["q1", "q2", "q3"]);
});

Waiting("should grant exactly once when releases and observers race", async ({ box }) => {
  for (let round = 0; round < 5; round++) {
    const target = `t${round}`;
    as(box, "a", "take", target);
    as(box, "w1", "take", target, "--queue");
    as(box, "w2", "take", target, "--queue");
    const racers = [
      asAsync(box, "a", "release", target),
      ...Array.from({ length: 4 }, () => asAsync(box, "observer", "status")),
      ...Array.from({ length: 3 }, () => claimsAsync(["sweep", "--dir", box.dir, "--json"])),
    ];
    await Promise.all(racers);
    assert.is(readJson(join(box.dir, `${target}.json`)).holder, "w1", "the head of the queue got it");
    const notices = readdirSync(box.dir).filter((name) => name.startsWith(".granted-"));
    assert.is(notices.length, 1 + round, "one grant notice per round: granted exactly once");
    const waiting = JSON.parse(as(box, "w2", "status").stdout).queued.filter((note: { target: string }) => note.target === target);
    assert.equal(waiting.map((note: { holder: string }) => note.holder), ["w2"], "w2 still waits, behind w1");
  }
});

Waiting("should leave nothing behind when a waiting take is interrupted", async ({ box }) => {
  as(box, "a", "take", "cfg");
  const child = spawn(process.execPath, [BIN, "take", "cfg", "free-one", "--wait", "60", "--dir", box.dir, "--holder", "b"], {
    env: cleanEnv(),
    stdio: "ignore",
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  await until(() => queued(box).length === 1, "b is queued");
  child.kill("SIGINT");
  assert.is(await exited, 130);
  assert.equal(queued(box), []);
  assert.not.ok(existsSync(join(box.dir, "free-one.json")));
  assert.is(readJson(join(box.dir, "cfg.json")).holder, "a");
});

Waiting("should show on a terminal whom it waits for and for how long", async ({ box }) => {
  as(box, "a", "take", "cfg", "--purpose", "long job");
  const command = `${process.execPath} ${BIN} take cfg --holder b --wait 20 --dir ${box.dir}`;
  const child = spawn("script", ["-qec", command, "/dev/null"], { env: cleanEnv(), stdio: ["ignore", "pipe", "ignore"] });
  let screen = "";
  child.stdout.on("data", (chunk) => (screen += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  await until(() => /waiting \ds for cfg: held by a; Ctrl-C to give up/.test(screen), "the waiting line is shown");
  as(box, "a", "release", "cfg");
  assert.is(await exited, 0);
  assert.match(screen, /granted.*cfg/);
});

Waiting("should detect a two-session deadlock between processes", async ({ box }) => {
  as(box, "a", "take", "x");
  as(box, "b", "take", "y");
  const first = asAsync(box, "a", "take", "y", "--wait", "30");
  await until(() => queued(box).length === 1, "a waits for y");
  const second = as(box, "b", "take", "x", "--wait", "30");
  assert.is(second.code, 3);
  assert.match(JSON.parse(second.stdout).error.message, /deadlock: b waits for a waits for b/);
  as(box, "b", "release", "y");
  assert.is((await first).code, 0);
});

Waiting("should grant the queue first when a claim goes stale while its holder's beat waits for the take lock", async ({ box }) => {
  // The beat found the claim fresh, then waited for the take lock (held by a stopped take) past the
  // claim's TTL. Under the lock it renewed the claim as was_stale, passing over the queued holder.
  assert.is(as(box, "a", "take", "f1", "--ttl", "3").code, 0);
  assert.is(as(box, "b", "take", "f1", "--queue").code, 6);
  const stopped = spawn(process.execPath, [BIN, "take", "f9", "--holder", "c", "--dir", box.dir], { env: cleanEnv({ CLAIMS_STOP_AT: "lock-won" }), stdio: "ignore" });
  try {
    await untilStopped(stopped);
    const beating = asAsync(box, "a", "beat", "f1");
    await new Promise((resolve) => setTimeout(resolve, 4500)); // past a's TTL (its heartbeat is rounded up to the second)
    stopped.kill("SIGKILL"); // its take lock is passed over as a dead owner's
    const beaten = await beating;
    assert.is(beaten.code, 4, beaten.stdout + beaten.stderr);
    assert.is(JSON.parse(beaten.stdout).lost_to[0].now_held_by.holder, "b");
    assert.is(readJson(join(box.dir, "f1.json")).holder, "b", "the queued holder got it");
  } finally {
    stopped.kill("SIGKILL");
  }
});

Waiting("should leave a holder holding nothing it released when its queued interest is granted during the release", async ({ box }) => {
  // h releases y (everything it holds, or y and t by name) while queued for t, held by a. a's
  // release grants t to h after h's release listed its claims (or judged t a's) and before it
  // withdrew its interests: h was told it released everything, and held t until its TTL.
  for (const named of [false, true]) {
    const t = named ? "t-named" : "t-all";
    assert.is(as(box, "a", "take", t).code, 0);
    assert.is(as(box, "h", "take", "y").code, 0);
    assert.is(as(box, "h", "take", t, "--queue").code, 6);
    const args = ["release", ...(named ? [t, "y"] : []), "--dir", box.dir, "--holder", "h", "--json"];
    // Stopped at its first lock: y's claim lock, its claims listed and t judged (or the take lock,
    // where it withdraws its interests before it lists them).
    const releasing = spawn(process.execPath, [BIN, ...args], { cwd: box.project, env: cleanEnv({ CLAIMS_STOP_AT: "lock-won" }) });
    let stdout = "";
    releasing.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => releasing.on("exit", (code) => resolve(code)));
    try {
      await untilStopped(releasing);
      const freeing = asAsync(box, "a", "release", t);
      await until(() => holderOf(join(box.dir, `${t}.json`)) !== "a", `a released ${t}`);
      await new Promise((resolve) => setTimeout(resolve, 500)); // a grants the queue, or waits for the take lock
      releasing.kill("SIGCONT");
      assert.is(await exited, 0, stdout);
      assert.is((await freeing).code, 0);
    } finally {
      releasing.kill("SIGKILL");
    }
    const left = readdirSync(box.dir).filter((name) => name.endsWith(".json") && !name.startsWith(".")).map((name) => readJson(join(box.dir, name)));
    assert.equal(left.filter((claim) => claim.holder === "h").map((claim) => claim.target), [], `h released ${named ? `${t} and y` : "everything"}, yet holds:\n${stdout}`);
    assert.equal(queued(box), [], "nothing queued is left");
  }
});

Waiting("should release what it holds behind a take lock whose owner is stopped, though it waits in a queue itself", async ({ box }) => {
  // Its own interests are withdrawn under the take lock before its claims are released; a stopped
  // take holding that lock must not keep the release from releasing (it did before the withdrawal
  // came first): it says what it could not do, after HOLD_LIMIT_MS (10 s).
  assert.is(as(box, "a", "take", "t").code, 0);
  assert.is(as(box, "h", "take", "y").code, 0);
  assert.is(as(box, "h", "take", "t", "--queue").code, 6);
  const stopped = spawn(process.execPath, [BIN, "take", "f9", "--holder", "c", "--dir", box.dir], { env: cleanEnv({ CLAIMS_STOP_AT: "lock-won" }), stdio: "ignore" });
  try {
    await untilStopped(stopped);
    const released = await asAsync(box, "h", "release");
    assert.is(released.code, 0, released.stdout + released.stderr);
    const answer = JSON.parse(released.stdout);
    assert.equal(answer.released, ["y"]);
    assert.match(answer.warnings.join("\n"), /queued interests were not withdrawn, nor the queue served: .*seems stopped/);
    assert.not.ok(existsSync(join(box.dir, "y.json")), "y is free");
  } finally {
    stopped.kill("SIGKILL");
  }
});

Waiting.run();
