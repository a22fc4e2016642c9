// Errors and leftovers: a claims directory removed under running calls, a wait resumed after its
// deadline, a release on a full disk, a world-writable directory of another user, and what the
// log and release report. Races and crashes use real processes.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, closeSync, existsSync, linkSync, mkdirSync, openSync, readdirSync, rmSync, statSync, truncateSync, writeSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { beat } from "../src/commands/beat.js";
import { log } from "../src/commands/log.js";
import { take } from "../src/commands/take.js";
import { BIN, claims, claimsAsync, claimsIn, cleanEnv, freshLibraryContext, readJson, sandbox, SECOND, T0, type LibraryContext, type RunResult, type Sandbox } from "./helpers.js";

const as = claimsIn;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `predicate` holds (checked every 25 ms, bounded). */
async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !predicate(); i++) await pause(25);
  assert.ok(predicate(), `timed out waiting until ${what}`);
}

const namesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

const Removed = suite<{ box: Sandbox }>("a claims directory removed while calls run");
Removed.before.each((context) => {
  context.box = sandbox();
});
Removed.after.each((context) => context.box.cleanup());

/** Each verb that writes, in turn: takes racing for one target (takeover and lock paths), takes of their own, a queue, beats, releases, sweeps. */
function verbAt(round: number, i: number): string[] {
  const holder = `h${i % 4}`;
  const verbs = [
    ["take", "shared-target", "--ttl", "1"],
    ["take", `own-${round}-${i}`],
    ["take", "shared-target", "--queue"],
    ["beat"],
    ["release"],
    ["sweep"],
    ["status"],
  ];
  return [...(verbs[i % verbs.length] as string[]), "--holder", holder];
}

Removed("should answer every verb with a result or one sentence, never an internal error, while the directory keeps vanishing", async ({ box }) => {
  let removing = true;
  const remover = (async () => {
    while (removing) {
      try {
        rmSync(box.dir, { recursive: true, force: true });
      } catch {
        // files appeared while it was being emptied: the next round gets them
      }
      await pause(50);
    }
  })();
  const results: Array<RunResult & { args: string }> = [];
  try {
    for (let round = 0; round < 10; round++) {
      const batch = Array.from({ length: 14 }, (_, i) => {
        const args = [...verbAt(round, i), "--dir", box.dir];
        return claimsAsync(args, { cwd: box.project }).then((result) => ({ ...result, args: args.join(" ") }));
      });
      results.push(...(await Promise.all(batch)));
    }
  } finally {
    removing = false;
    await remover;
  }
  for (const result of results) {
    assert.ok([0, 2, 3, 4, 6].includes(result.code), `${result.args}: exit ${result.code}\n${result.stderr}`);
    assert.not.match(result.stderr, /Internal error|This is a bug/, result.args);
    assert.not.match(result.stderr, /\n\s+at .+:\d+:\d+/, `${result.args}: a stack trace`);
    if (result.code === 2) assert.match(result.stderr, /^claims: [^\n]+\n$/, `${result.args}: not one sentence`);
  }
});

Removed.run();

/**
 * Stops a process at a moment it holds no lock in the claims directory (stopped inside the take
 * lock it would stall every other verb, which is not the case under test).
 */
async function stopOutsideLocks(pid: number, dir: string, signal: (name: NodeJS.Signals) => void): Promise<void> {
  for (;;) {
    signal("SIGSTOP");
    const locks = namesIn(dir).filter((name) => name.startsWith(".lock-"));
    const holding = locks.some((name) => {
      try {
        return readJson(join(dir, name)).pid === pid;
      } catch {
        return false; // gone meanwhile
      }
    });
    if (!holding) return;
    signal("SIGCONT");
    await pause(5);
  }
}

const Resumed = suite<{ box: Sandbox }>("take --wait resumed after its deadline");
Resumed.before.each((context) => {
  context.box = sandbox();
  mkdirSync(join(context.box.project, "D"));
});
Resumed.after.each((context) => context.box.cleanup());

Resumed("should time out with nothing kept when the grant it got while stopped went stale and was overlapped", async ({ box }) => {
  assert.is(as(box, "a", "take", "D/").code, 0);
  const child = spawn(process.execPath, [BIN, "take", "D/*.js", "--wait", "1", "--ttl", "2", "--dir", box.dir, "--holder", "w", "--json"], {
    cwd: box.project,
    env: cleanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  const exited = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? -1)));
  await until(() => namesIn(box.dir).some((name) => name.startsWith(".queue-")), "w is queued");
  await stopOutsideLocks(child.pid as number, box.dir, (signal) => child.kill(signal));
  try {
    const released = as(box, "a", "release", "D/");
    assert.is(released.code, 0, released.stderr);
    const claimOfW = namesIn(box.dir).find((name) => name.endsWith(".json") && readJson(join(box.dir, name)).holder === "w");
    assert.ok(claimOfW, `the queue granted D/*.js to the stopped waiter: ${released.stdout}`);
    // Its claim (ttl 2) goes stale while it is stopped; then another holder takes a file under it.
    await until(() => as(box, "v", "take", "D/a.js").code === 0, "v gets D/a.js past w's stale claim");
  } finally {
    child.kill("SIGCONT");
  }
  const code = await exited;
  assert.is(code, 5, stdout);
  assert.is(JSON.parse(stdout).timed_out, true);
  assert.equal(namesIn(box.dir).filter((name) => name.startsWith(".queue-")), [], "no queue entry left behind");
  const claimsLeft = namesIn(box.dir).filter((name) => name.endsWith(".json") && !name.startsWith(".") && !name.startsWith("log"));
  assert.equal(claimsLeft.map((name) => readJson(join(box.dir, name)).holder), ["v"], "w's stale grant was given back, v's claim kept");
});

Resumed.run();

const FullDisk = suite<{ box: Sandbox; mounted: boolean }>("release on a full disk");
FullDisk.before.each((context) => {
  context.box = sandbox();
  mkdirSync(context.box.dir);
  const mount = spawnSync("mount", ["-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", context.box.dir], { encoding: "utf8" });
  context.mounted = mount.status === 0;
  if (!context.mounted) console.log(`  (skipped: cannot mount a small tmpfs here: ${(mount.stderr || mount.error?.message || "").trim()})`);
});
FullDisk.after.each((context) => {
  if (context.mounted) spawnSync("umount", [context.box.dir]);
  context.box.cleanup();
});

/** Fills the filesystem of `dir` until a write fails with ENOSPC. */
function fill(dir: string): void {
  const fd = openSync(join(dir, "filler"), "w");
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    assert.is((error as NodeJS.ErrnoException).code, "ENOSPC");
  } finally {
    closeSync(fd);
  }
  // Also the last bytes: a smaller write must fail as well.
  const tail = openSync(join(dir, "filler-tail"), "w");
  try {
    for (;;) writeSync(tail, Buffer.alloc(1, 1));
  } catch {
    // full
  } finally {
    closeSync(tail);
  }
}

FullDisk("should release a claim, removing it, when no byte can be written", ({ box, mounted }) => {
  if (!mounted) return;
  assert.is(as(box, "a", "take", "x", "y", "--purpose", "long job").code, 0);
  fill(box.dir);
  assert.is(as(box, "a", "take", "z").code, 2, "the disk is full: a take cannot write");
  const result = as(box, "a", "release", "x");
  assert.is(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout).released, ["x"]);
  assert.not.ok(existsSync(join(box.dir, "x.json")), "x's claim is gone");
  assert.ok(existsSync(join(box.dir, "y.json")), "y is still held");
  const all = as(box, "a", "release");
  assert.is(all.code, 0, all.stderr);
  assert.equal(JSON.parse(all.stdout).released, ["y"]);
  assert.equal(namesIn(box.dir).filter((name) => name.startsWith(".tmp-") || name.startsWith(".lock-")), [], "no debris");
});

FullDisk("should name what a take of several targets could not give back when the disk filled between them", ({ box, mounted }) => {
  if (!mounted) return;
  // The first target's claim fits, the second's does not, and giving the first back needs a new
  // file too: the take fails (exit 2) with the first still held, which a bare release does not find
  // (its held marker did not fit either). The caller must be told which, by a name release takes.
  let reached = 0;
  for (let free = 1; free <= 8; free++) {
    for (const name of readdirSync(box.dir)) rmSync(join(box.dir, name), { recursive: true, force: true });
    assert.is(as(box, "z", "take", "warm").code, 0);
    assert.is(as(box, "z", "release", "warm").code, 0);
    fill(box.dir);
    rmSync(join(box.dir, "filler-tail"));
    const filler = join(box.dir, "filler");
    truncateSync(filler, Math.max(0, statSync(filler).size - free * 4096));
    const result = as(box, "a", "take", "bar", "foo");
    const left = readdirSync(box.dir).filter((name) => name.endsWith(".json") && !name.startsWith(".") && readJson(join(box.dir, name)).holder === "a");
    if (result.code === 0 || left.length === 0) continue;
    assert.is(result.code, 2, result.stdout);
    reached++;
    for (const name of left) {
      const target = name.replace(/\.json$/, "");
      assert.match(result.stderr, `still yours: ${target}; release it by name (claims release name:${target}) once the claims directory is writable again`, `${free} pages free`);
    }
    rmSync(filler);
    for (const name of left) {
      const released = as(box, "a", "release", `name:${name.replace(/\.json$/, "")}`);
      assert.equal(JSON.parse(released.stdout).released, [name.replace(/\.json$/, "")]);
    }
  }
  assert.ok(reached > 0, "some amount of free space let the first claim in and kept the second out");
});

FullDisk("should release with a note when the queue cannot be served, and grant it once there is space", ({ box, mounted }) => {
  if (!mounted) return;
  assert.is(as(box, "a", "take", "x").code, 0);
  assert.is(as(box, "b", "take", "x", "--queue").code, 6);
  // A second link keeps the claim's block allocated when the claim is removed: the disk stays
  // full, as if another writer took the freed space at once.
  linkSync(join(box.dir, "x.json"), join(box.dir, "x-copy"));
  fill(box.dir);
  const result = as(box, "a", "release", "x");
  assert.is(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout).released, ["x"]);
  assert.match(JSON.parse(result.stdout).warnings[0], /queue was not served: the disk is full \(ENOSPC\)/);
  assert.match(result.stderr, /^claims: note: the queue was not served/);
  rmSync(join(box.dir, "filler"));
  assert.is(as(box, "c", "status").code, 0);
  assert.is(readJson(join(box.dir, "x.json")).holder, "b", "the next verb granted the queue");
});

FullDisk("should still leave another holder's claim alone on a full disk", ({ box, mounted }) => {
  if (!mounted) return;
  assert.is(as(box, "a", "take", "x").code, 0);
  assert.is(as(box, "b", "take", "mine").code, 0);
  fill(box.dir);
  assert.is(as(box, "b", "release", "x").code, 4);
  assert.is(readJson(join(box.dir, "x.json")).holder, "a");
});

FullDisk.run();

const WorldWritable = suite<{ box: Sandbox }>("a world-writable claims directory");
WorldWritable.before.each((context) => {
  context.box = sandbox();
  mkdirSync(context.box.dir);
});
WorldWritable.after.each((context) => context.box.cleanup());

WorldWritable("should refuse to take in a world-writable directory of another user, in one sentence", ({ box }) => {
  if (process.getuid?.() !== 0) {
    console.log("  (skipped: chown to nobody needs root)");
    return;
  }
  chownSync(box.dir, 65534, 65534);
  chmodSync(box.dir, 0o777);
  const result = claims(["take", "x", "--dir", box.dir, "--holder", "a"], { cwd: box.project });
  assert.is(result.code, 2, result.stderr);
  assert.match(result.stderr, /^claims: [^\n]*world-writable[^\n]*\n$/);
  assert.match(result.stderr, /owned by another user/);
  assert.not.ok(existsSync(join(box.dir, "x.json")), "nothing was taken");
});

WorldWritable("should refuse one's own world-writable directory too, saying how to fix it", ({ box }) => {
  chmodSync(box.dir, 0o777);
  const result = claims(["take", "x", "--dir", box.dir, "--holder", "a", "--json"], { cwd: box.project });
  assert.is(result.code, 2, result.stderr);
  assert.is(JSON.parse(result.stdout).error.code, "BAD_INPUT");
  assert.match(result.stderr, /chmod o-w/);
  chmodSync(box.dir, 0o700);
  assert.is(claims(["take", "x", "--dir", box.dir, "--holder", "a"], { cwd: box.project }).code, 0);
});

WorldWritable("should answer a check there, saying the answer guarantees nothing", ({ box }) => {
  chmodSync(box.dir, 0o777);
  const result = claims(["check", "./a.ts", "--dir", box.dir, "--holder", "a"], { cwd: box.project });
  assert.is(result.code, 0);
  assert.match(result.stderr, /^claims: note: the claims directory [^\n]* is world-writable: anyone on the machine can forge or remove claims in it, so this answer guarantees nothing \(chmod o-w [^\n]*\)\n$/);
  chmodSync(box.dir, 0o700);
  assert.is(claims(["check", "./a.ts", "--dir", box.dir, "--holder", "a"], { cwd: box.project }).stderr, "");
});

WorldWritable.run();

const Record = suite<LibraryContext>("what beat logs and release reports");
Record.before.each(freshLibraryContext);
Record.after.each((context) => context.box.cleanup());

Record("should log a beat that renews a claim gone stale", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], ttl: 60, now: T0 });
  const renewed = beat({ ...opts, holder: "a", ttl: 60, now: T0 + 120 * SECOND });
  assert.equal(renewed.was_stale, ["x"]);
  beat({ ...opts, holder: "a", ttl: 60, now: T0 + 130 * SECOND }); // a fresh heartbeat is not an event
  const events = log({ ...opts, now: T0 + 200 * SECOND }).entries.map(({ event, target, holder }) => ({ event, target, holder }));
  assert.equal(events, [
    { event: "take", target: "x", holder: "a" },
    { event: "renew", target: "x", holder: "a" },
  ]);
});

Record.run();

const HandedTo = suite<{ box: Sandbox }>("release reports whom the queue handed what");
HandedTo.before.each((context) => {
  context.box = sandbox();
  mkdirSync(join(context.box.project, "D"));
});
HandedTo.after.each((context) => context.box.cleanup());

HandedTo("should list a waiter granted a target under the released directory", ({ box }) => {
  assert.is(as(box, "a", "take", "D/").code, 0);
  assert.is(as(box, "w", "take", "D/*.js", "--queue").code, 6);
  assert.is(as(box, "x", "take", "D/b.txt", "--queue").code, 6);
  const result = as(box, "a", "release", "D/");
  assert.is(result.code, 0, result.stderr);
  const handed = JSON.parse(result.stdout).handed_to as Array<{ target: string; holder: string }>;
  const relative = (target: string) => target.slice(box.project.length + 1);
  assert.equal(handed.map(({ target, holder }) => `${relative(target)} ${holder}`).sort(), ["D/*.js w", "D/b.txt x"]);
});

HandedTo("should list the exact target handed to the next in the queue, as before", ({ box }) => {
  assert.is(as(box, "a", "take", "cfg").code, 0);
  assert.is(as(box, "b", "take", "cfg", "--queue").code, 6);
  const handed = JSON.parse(as(box, "a", "release", "cfg").stdout).handed_to;
  assert.equal(handed, [{ target: "cfg", holder: "b" }]);
});

HandedTo.run();
