// Takes of overlapping directories, files, globs and symbols between real processes: the take
// lock must make each overlap check and its creations one step, so no two overlapping sets win.
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { overlaps, shapeOf } from "../src/targets/overlap.js";
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { BIN, claims, claimsAsync, cleanEnv, iso, ROOT, sandbox, writeClaimFile, type Sandbox } from "./helpers.js";
import { claimFileName } from "../src/targets/target.js";

/** A claims process, running: its pid now, its end later. */
function spawnClaims(args: string[], options: { cwd: string; env: Record<string, string> }): { pid: number; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: cleanEnv(options.env), stdio: ["ignore", "pipe", "pipe"] });
  let [stdout, stderr] = ["", ""];
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { pid: child.pid as number, done };
}

const Race = suite<{ box: Sandbox }>("concurrent takes of overlapping target sets");
Race.before.each((context) => {
  context.box = sandbox();
  mkdirSync(join(context.box.project, "src", "api"), { recursive: true });
  writeFileSync(join(context.box.project, "src", "a.ts"), "export function f() {}\nexport function g() {}\n");
});
Race.after.each((context) => context.box.cleanup());

const SETS: string[][] = [
  ["src/", "alpha"],
  ["src/a.ts", "beta"],
  ["src/**/*.ts"],
  ["src/a.ts#f", "gamma"],
  ["src/a.ts#g", "alpha"],
  ["src/api/", "beta"],
  ["gamma", "delta"],
  ["lib/*.js", "delta"],
];

Race("should never grant two overlapping sets, and leave nothing of a refused one", async ({ box }) => {
  for (let round = 0; round < 4; round++) {
    rmSync(box.dir, { recursive: true, force: true });
    const results = await Promise.all(
      SETS.map((targets, index) =>
        claimsAsync(["take", ...targets, "--holder", `h${index}`, "--dir", box.dir, "--json"], { cwd: box.project }),
      ),
    );
    const winners: Array<{ holder: string; targets: string[] }> = [];
    results.forEach((result, index) => {
      assert.ok(result.code === 0 || result.code === 3, `round ${round} h${index}: exit ${result.code} ${result.stderr}`);
      const body = JSON.parse(result.stdout);
      if (result.code === 0) winners.push({ holder: `h${index}`, targets: body.granted.map((claim: { target: string }) => claim.target) });
    });
    assert.ok(winners.length > 0, "someone must win");
    for (const a of winners) {
      for (const b of winners) {
        if (a === b) continue;
        for (const x of a.targets) for (const y of b.targets) assert.not.ok(overlaps(shapeOf(x), shapeOf(y)), `${a.holder} ${x} / ${b.holder} ${y}`);
      }
    }
    const onDisk = readdirSync(box.dir)
      .filter((name) => name.endsWith(".json") && !name.startsWith("."))
      .map((name) => JSON.parse(readFileSync(join(box.dir, name), "utf8")) as { holder: string; target: string });
    const expected = winners.flatMap((winner) => winner.targets.map((target) => `${winner.holder} ${target}`)).sort();
    assert.equal(onDisk.map((claim) => `${claim.holder} ${claim.target}`).sort(), expected);
  }
});

/** Four takers of `targets` at once, four rounds: exactly one wins, and two are refused through a hard link. */
async function oneWinnerThroughLinks(box: Sandbox, targets: string[], refusal: RegExp): Promise<void> {
  for (let round = 0; round < 4; round++) {
    rmSync(box.dir, { recursive: true, force: true });
    const results = await Promise.all(targets.map((target, index) => claimsAsync(["take", target, "--holder", `h${index}`, "--dir", box.dir], { cwd: box.project })));
    assert.equal(results.map((result) => result.code).filter((code) => code === 0).length, 1, `round ${round}: ${results.map((result) => result.stdout + result.stderr).join(" | ")}`);
    // Two of the refused asked for the other name than the winner's: refused through the link.
    assert.is(results.filter((result) => result.code === 3 && refusal.test(result.stdout)).length, 2, results.map((result) => result.stdout).join(" | "));
  }
}

Race("should grant one of two names of one file (a hard link) to one holder, racing or not", async ({ box }) => {
  linkSync(join(box.project, "src", "a.ts"), join(box.project, "src", "b.ts"));
  await oneWinnerThroughLinks(box, ["src/a.ts", "src/b.ts", "src/a.ts", "src/b.ts"], /the same file as .*src\/[ab]\.ts \(a hard link\)/);
});

Race("should grant a glob or another name of a file it matches (a hard link) to one holder, racing or not", async ({ box }) => {
  mkdirSync(join(box.project, "other"));
  linkSync(join(box.project, "src", "a.ts"), join(box.project, "other", "b.ts"));
  await oneWinnerThroughLinks(box, ["src/*.ts", "other/b.ts", "src/*.ts", "other/b.ts"], /same file as .*\(a hard link\)/);
});

Race("should grant one of two directories, or a directory and a glob, each holding a name of one file (a hard link) to one holder, racing or not", async ({ box }) => {
  mkdirSync(join(box.project, "other"));
  linkSync(join(box.project, "src", "a.ts"), join(box.project, "other", "b.ts"));
  await oneWinnerThroughLinks(box, ["src/", "other/", "src/", "other/"], /other\/b\.ts is the same file as .*src\/a\.ts, under .*src\/ \(a hard link\)|src\/a\.ts is the same file as .*other\/b\.ts, under .*other\/ \(a hard link\)/);
  await oneWinnerThroughLinks(box, ["src/*.ts", "other/", "src/*.ts", "other/"], /same file as .*(matched by|under) .*\(a hard link\)/);
  // Files a package manager links into two projects' dependencies are no one's to edit: not compared.
  for (const tree of ["src", "other"]) mkdirSync(join(box.project, tree, ".venv"));
  rmSync(join(box.project, "other", "b.ts"));
  writeFileSync(join(box.root, "six.py"), "");
  for (const tree of ["src", "other"]) linkSync(join(box.root, "six.py"), join(box.project, tree, ".venv", "six.py"));
  rmSync(box.dir, { recursive: true, force: true });
  const trees = await Promise.all(["src/", "other/"].map((tree, index) => claimsAsync(["take", tree, "--holder", `h${index}`, "--dir", box.dir], { cwd: box.project })));
  assert.equal(trees.map((result) => result.code), [0, 0], trees.map((result) => result.stdout).join(" | "));
  linkSync(join(box.project, "src", "a.ts"), join(box.project, "other", "b.ts"));
  // A glob that does not match the file's name there holds nothing of it.
  rmSync(box.dir, { recursive: true, force: true });
  const [glob, dir] = [await claimsAsync(["take", "src/*.js", "--holder", "h0", "--dir", box.dir], { cwd: box.project }), await claimsAsync(["take", "other/", "--holder", "h1", "--dir", box.dir], { cwd: box.project })];
  assert.equal([glob.code, dir.code], [0, 0], glob.stdout + dir.stdout);
});

Race("should grant a file's names in two packages' claims directories to one of the holders racing for them, and let only that one write it", async ({ box }) => {
  // packages/a has a claims directory of its own; the file's other name is at the root, in the root's.
  const pkg = join(box.project, "packages", "a");
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(box.project, ".claims"), JSON.stringify({ dir: join(box.root, "store-root") }));
  writeFileSync(join(pkg, ".claims"), JSON.stringify({ dir: join(box.root, "store-a") }));
  writeFileSync(join(pkg, "f.ts"), "");
  linkSync(join(pkg, "f.ts"), join(box.project, "g.ts"));
  const env = { HOME: box.root };
  for (let round = 0; round < 4; round++) {
    rmSync(join(box.root, "store-root"), { recursive: true, force: true });
    rmSync(join(box.root, "store-a"), { recursive: true, force: true });
    const names = ["packages/a/f.ts", "g.ts", "packages/a/f.ts", "g.ts"];
    const taken = await Promise.all(names.map((name, index) => claimsAsync(["take", name, "--holder", `h${index}`], { cwd: box.project, env })));
    // The two directories share no take lock: a take racing the other's looks again after its grant.
    const winners = taken.flatMap((result, index) => (result.code === 0 ? [index] : []));
    assert.is(winners.length, 1, `round ${round}: ${taken.map((result) => `${result.code} ${result.stdout}${result.stderr}`).join(" | ")}`);
    for (const [index, result] of taken.entries()) if (index !== winners[0]) assert.is(result.code, 3, result.stdout + result.stderr);
    // What a loser gave back is gone: only the winner's claim is on disk, and only the winner may write.
    const onDisk = ["store-root", "store-a"].flatMap((store) => {
      try {
        return readdirSync(join(box.root, store)).filter((name) => name.endsWith(".json") && !name.startsWith("."));
      } catch {
        return [];
      }
    });
    assert.is(onDisk.length, 1, onDisk.join(" "));
    const writers = await Promise.all(names.map((name, index) => claimsAsync(["check", name, "--holder", `h${index}`], { cwd: box.project, env })));
    assert.equal(writers.flatMap((result, index) => (result.code === 0 ? [index] : [])), winners, writers.map((result) => result.stdout).join(" | "));
  }
});

/** Two packages with claims directories of their own, and a file with a name in each (a hard link). */
function twoPackages(box: Sandbox): { storeA: string; storeRoot: string; env: Record<string, string> } {
  const pkg = join(box.project, "packages", "a");
  mkdirSync(pkg, { recursive: true });
  const [storeA, storeRoot] = [join(box.root, "store-a"), join(box.root, "store-root")];
  writeFileSync(join(box.project, ".claims"), JSON.stringify({ dir: storeRoot }));
  writeFileSync(join(pkg, ".claims"), JSON.stringify({ dir: storeA }));
  writeFileSync(join(pkg, "f.ts"), "");
  linkSync(join(pkg, "f.ts"), join(box.project, "g.ts"));
  mkdirSync(storeA, { mode: 0o700 });
  mkdirSync(storeRoot, { mode: 0o700 });
  return { storeA, storeRoot, env: { HOME: box.root } };
}

/**
 * Holds `dir`'s take lock, as a take does, until `release` is called; resolves once inside. A take
 * there then looks through the link first and waits for the lock, where it writes its lock owner
 * record (`.tmp-<pid>-…`): `waiting(pid)` says when it got there.
 */
async function takeLockOf(dir: string): Promise<{ release(): Promise<void>; waiting(pid: number): boolean }> {
  const go = join(dir, "..", `go-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const script = `
    import { existsSync } from "node:fs";
    import { Store } from ${JSON.stringify(pathToFileURL(join(ROOT, "dist", "protocol", "store.js")).href)};
    import { sleepSync } from ${JSON.stringify(pathToFileURL(join(ROOT, "dist", "os", "files.js")).href)};
    new Store(${JSON.stringify(dir)}).withTakeLock(() => {
      process.stdout.write("locked\\n");
      while (!existsSync(${JSON.stringify(go)})) sleepSync(10);
    });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("locked") && resolve());
    child.on("close", (code) => reject(new Error(`the lock holder exited ${code}`)));
  });
  return {
    release: async () => {
      writeFileSync(go, "");
      await closed;
    },
    waiting: (pid) => readdirSync(dir).some((name) => name.startsWith(`.tmp-${pid}-`)),
  };
}

async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1200 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.ok(predicate(), `timed out waiting until ${what}`);
}

const claimsIn = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".json") && !name.startsWith("."));

Race("should not offer a queue that cannot wait for a claim on the file's other name in the other package's claims directory", ({ box }) => {
  const { storeRoot, env } = twoPackages(box);
  assert.is(claims(["take", "g.ts", "--holder", "h1", "--purpose", "rename"], { cwd: box.project, env }).code, 0);
  const refused = claims(["take", "packages/a/f.ts", "--holder", "h0"], { cwd: box.project, env });
  assert.is(refused.code, 3);
  assert.match(refused.stdout, new RegExp(`The claim in the way is in the claims directory ${storeRoot} \\(of another name of the file, made before a \\.claims nearer to it appeared, where a session not pinning --dir or CLAIMS_DIR claims it, one a session pinned, or the default directory of a session with another XDG_STATE_HOME\\), where a queue here cannot wait for it`));
  assert.not.match(refused.stdout, /--queue/);
  const json = JSON.parse(claims(["take", "packages/a/f.ts", "--holder", "h0", "--json"], { cwd: box.project, env }).stdout);
  assert.is(json.refused[0].claims_dir, storeRoot);
});

Race("should answer REFUSED and give its claim back when the other name was granted between its look and its grant", async ({ box }) => {
  const { storeA, storeRoot, env } = twoPackages(box);
  const before = claims(["take", "./packages/a/other.ts", "--holder", "h0"], { cwd: box.project, env });
  assert.is(before.code, 0, `a claim h0 had before: ${before.stdout}${before.stderr}`);
  const lock = await takeLockOf(storeA);
  const asked = ["take", "packages/a/f.ts", "./packages/a/other.ts", "--holder", "h0", "--idempotency-key", "k1"];
  const first = spawnClaims(asked, { cwd: box.project, env });
  await until(() => lock.waiting(first.pid), "the take waits for its take lock, having looked through the link");
  // Meanwhile the other name is taken, and that take is over before the first one's claim exists.
  assert.is(claims(["take", "g.ts", "--holder", "h1", "--purpose", "rename"], { cwd: box.project, env }).code, 0);
  await lock.release();
  const result = await first.done;
  assert.is(result.code, 3, result.stdout + result.stderr);
  assert.match(result.stdout, /held by h1 .*rename.*a hard link/s);
  assert.not.match(result.stderr, /claimed in/, "no note of a grant it gave back");
  assert.is(claimsIn(storeA).length, 1, "its new claim is given back, the one it had before kept");
  assert.is(claimsIn(storeRoot).length, 1, "h1's claim is untouched");
  assert.is(claims(["check", "./packages/a/other.ts", "--holder", "h9"], { cwd: box.project, env }).code, 3, "h0 still holds what it held before");
  const again = claims(asked, { cwd: box.project, env });
  assert.is(again.code, 3, `a retry with the key replays the answer given: ${again.stdout}`);
});

Race("should end as interrupted, holding nothing, when interrupted while it waits out a race through a link", async ({ box }) => {
  const { storeA, storeRoot, env } = twoPackages(box);
  const lock = await takeLockOf(storeA);
  const first = spawnClaims(["take", "packages/a/f.ts", "--holder", "h0"], { cwd: box.project, env: { ...env, CLAIMS_STOP_AT: "race-waiting" } });
  const end = endedAfter(first);
  try {
    await until(() => lock.waiting(first.pid), "the take waits for its take lock");
    assert.is(claims(["take", "g.ts", "--holder", "h1"], { cwd: box.project, env }).code, 0);
    await lock.release();
    // Its claims directory sorts first: it waits for h1 to give back, which h1 never will; Ctrl-C meanwhile.
    await until(() => /^\d+ \(.*\) T /.test(readFileSync(`/proc/${first.pid}/stat`, "utf8")), "the take stops in its wait");
    process.kill(first.pid, "SIGINT");
    process.kill(first.pid, "SIGCONT");
    const result = await first.done;
    assert.is(result.signal, "SIGINT", `${result.code} ${result.stdout} ${result.stderr}`);
    assert.equal(claimsIn(storeA), [], "nothing left that nobody was told of");
    assert.is(claims(["check", "g.ts", "--holder", "h1"], { cwd: box.project, env }).code, 0, "h1 may write");
    assert.is(claimsIn(storeRoot).length, 1);
  } finally {
    end();
  }
});

/** Stops `first` (SIGKILL) unless it has ended: a take stopped in its wait by a test that failed would keep the suite running. */
function endedAfter(first: ReturnType<typeof spawnClaims>): () => void {
  let ended = false;
  void first.done.then(() => (ended = true));
  return () => {
    if (!ended) process.kill(first.pid, "SIGKILL");
  };
}

Race("should leave no claim of its own beside the other's grant when killed while it waits out a race through a link", async ({ box }) => {
  const { storeA, storeRoot, env } = twoPackages(box);
  const lock = await takeLockOf(storeA);
  const first = spawnClaims(["take", "packages/a/f.ts", "--holder", "h0"], { cwd: box.project, env: { ...env, CLAIMS_STOP_AT: "race-waiting" } });
  const end = endedAfter(first);
  try {
    await until(() => lock.waiting(first.pid), "the take waits for its take lock, its look done");
    assert.is(claims(["take", "g.ts", "--holder", "h1", "--purpose", "rename"], { cwd: box.project, env }).code, 0);
    await lock.release();
    // Its claims directory sorts first: it waits for h1 to give back, and is killed meanwhile.
    await until(() => /^\d+ \(.*\) T /.test(readFileSync(`/proc/${first.pid}/stat`, "utf8")), "the take stops in its wait");
    process.kill(first.pid, "SIGKILL");
    assert.is((await first.done).signal, "SIGKILL");
    assert.equal(claimsIn(storeA), [], "no claim of the killed take is left beside h1's");
    assert.equal(readdirSync(storeA).filter((name) => name.startsWith(".held-")), [], "nor a marker saying h0 holds it");
    // h1 was told it holds the file: it may write it under either name, and nobody else may.
    assert.is(claims(["check", "g.ts", "--holder", "h1"], { cwd: box.project, env }).code, 0);
    assert.is(claims(["check", "packages/a/f.ts", "--holder", "h1"], { cwd: box.project, env }).code, 0);
    assert.is(claims(["check", "packages/a/f.ts", "--holder", "h0"], { cwd: box.project, env }).code, 3);
    assert.is(claimsIn(storeRoot).length, 1);
  } finally {
    end();
  }
});

Race("should take again, with a newer token, once the other gives back while it waits out a race through a link holding nothing", async ({ box }) => {
  const { storeA, storeRoot, env } = twoPackages(box);
  const lock = await takeLockOf(storeA);
  const first = spawnClaims(["take", "packages/a/f.ts", "--holder", "h0", "--json"], { cwd: box.project, env: { ...env, CLAIMS_STOP_AT: "race-waiting" } });
  const end = endedAfter(first);
  try {
    await until(() => lock.waiting(first.pid), "the take waits for its take lock, its look done");
    assert.is(claims(["take", "g.ts", "--holder", "h1"], { cwd: box.project, env }).code, 0);
    await lock.release();
    await until(() => /^\d+ \(.*\) T /.test(readFileSync(`/proc/${first.pid}/stat`, "utf8")), "the take stops in its wait");
    assert.equal(claimsIn(storeA), [], "it waits holding nothing");
    const counters = readdirSync(storeA).filter((name) => name.startsWith(".token-"));
    assert.is(counters.length, 1, "the claim it gave back was issued a token");
    const given = JSON.parse(readFileSync(join(storeA, counters[0] as string), "utf8")).token as number;
    assert.is(claims(["release", "g.ts", "--holder", "h1"], { cwd: box.project, env }).code, 0);
    process.kill(first.pid, "SIGCONT");
    const result = await first.done;
    assert.is(result.code, 0, result.stdout + result.stderr);
    const granted = JSON.parse(result.stdout).granted;
    assert.is(granted.length, 1);
    assert.ok(granted[0].token > given, `the token of the claim taken again (${granted[0].token}) is above the one given back (${given})`);
    assert.is(claimsIn(storeA).length, 1);
    assert.equal(claimsIn(storeRoot), []);
    assert.is(claims(["check", "packages/a/f.ts", "--holder", "h0"], { cwd: box.project, env }).code, 0);
    assert.is(claims(["check", "g.ts", "--holder", "h1"], { cwd: box.project, env }).code, 3);
  } finally {
    end();
  }
});

Race("should grant one of two takes of a file that a .claims, there for one and gone for the other, routes to two claims directories", async ({ box }) => {
  const { storeRoot, env } = twoPackages(box);
  const pkgB = join(box.project, "packages", "b");
  mkdirSync(pkgB);
  writeFileSync(join(pkgB, "x.ts"), "");
  const storeB = join(box.root, "store-b");
  mkdirSync(storeB, { mode: 0o700 });
  writeFileSync(join(pkgB, ".claims"), JSON.stringify({ dir: storeB }));
  const lock = await takeLockOf(storeB);
  const first = spawnClaims(["take", "packages/b/x.ts", "--holder", "h0"], { cwd: box.project, env });
  await until(() => lock.waiting(first.pid), "the take waits for its take lock in the package's directory, having looked in the root's");
  // The package's .claims goes again: the next take of the file is made in the root's directory, before the first one's exists.
  rmSync(join(pkgB, ".claims"));
  assert.is(claims(["take", "packages/b/x.ts", "--holder", "h1", "--purpose", "later"], { cwd: box.project, env }).code, 0);
  await lock.release();
  await lostTheRace(first, /held by h1 for "later"/, storeB, storeRoot);
});

Race("should grant one of two takes of a file when a .claims made above it after the first one's look sends the second elsewhere", async ({ box }) => {
  // No .claims anywhere: the file's claims live in the default directory, and a take looks nowhere else.
  const env = { HOME: box.root };
  const pkgB = join(box.project, "packages", "b");
  mkdirSync(pkgB, { recursive: true });
  writeFileSync(join(pkgB, "x.ts"), "");
  const storeRoot = join(box.root, ".local", "state", "claims");
  mkdirSync(storeRoot, { recursive: true, mode: 0o700 });
  const storeB = join(box.root, "store-b");
  const lock = await takeLockOf(storeRoot);
  const first = spawnClaims(["take", "packages/b/x.ts", "--holder", "h0"], { cwd: box.project, env });
  await until(() => lock.waiting(first.pid), "the take waits for its take lock in the default directory, its look done");
  writeFileSync(join(pkgB, ".claims"), JSON.stringify({ dir: storeB }));
  assert.is(claims(["take", "packages/b/x.ts", "--holder", "h1", "--purpose", "in b"], { cwd: box.project, env }).code, 0);
  await lock.release();
  await lostTheRace(first, /held by h1 for "in b"/, storeRoot, storeB);
});

Race("should grant one of two takes of a file when a .claims made above it while the first one stalled before its claim sends the second elsewhere", async ({ box }) => {
  // As above, with no lock to wait for: the first take stalls (stopped) just before its claim is
  // linked. What it looked up before (no .claims above the file) must be looked up again after its grant.
  const env = { HOME: box.root };
  const pkgB = join(box.project, "packages", "b");
  mkdirSync(pkgB, { recursive: true });
  writeFileSync(join(pkgB, "x.ts"), "");
  const storeRoot = join(box.root, ".local", "state", "claims");
  const storeB = join(box.root, "store-b");
  const first = spawnClaims(["take", "packages/b/x.ts", "--holder", "h0"], { cwd: box.project, env: { ...env, CLAIMS_STOP_AT: "before-link" } });
  await until(() => /^\d+ \(.*\) T /.test(readFileSync(`/proc/${first.pid}/stat`, "utf8")), "the first take stops before its claim is linked");
  writeFileSync(join(pkgB, ".claims"), JSON.stringify({ dir: storeB }));
  assert.is(claims(["take", "packages/b/x.ts", "--holder", "h1", "--purpose", "in b"], { cwd: box.project, env }).code, 0);
  process.kill(first.pid, "SIGCONT");
  await lostTheRace(first, /held by h1 for "in b"/, storeRoot, storeB);
});

Race("should look again after its grant at every target of a take, not only those its first look found another directory for", async ({ box }) => {
  // The directory d/ has another package's claims directory to look in (a file of it may be another
  // name of a file there), looked at before the grant and after it; b/x.ts has none when the take
  // first looks, and gets one while the take stalls before its claims are linked.
  const env = { HOME: box.root };
  for (const dir of [".git", "d", "b", "pkg"]) mkdirSync(join(box.project, dir));
  writeFileSync(join(box.project, "pkg", ".claims"), JSON.stringify({ dir: join(box.root, "store-pkg") }));
  writeFileSync(join(box.project, "b", "x.ts"), "");
  const storeRoot = join(box.root, ".local", "state", "claims");
  const storeB = join(box.root, "store-b");
  const first = spawnClaims(["take", "d/", "b/x.ts", "--holder", "h0"], { cwd: box.project, env: { ...env, CLAIMS_STOP_AT: "before-link" } });
  await until(() => /^\d+ \(.*\) T /.test(readFileSync(`/proc/${first.pid}/stat`, "utf8")), "the first take stops before a claim is linked");
  writeFileSync(join(box.project, "b", ".claims"), JSON.stringify({ dir: storeB }));
  assert.is(claims(["take", "b/x.ts", "--holder", "h1", "--purpose", "in b"], { cwd: box.project, env }).code, 0);
  process.kill(first.pid, "SIGCONT");
  await lostTheRace(first, /held by h1 for "in b"/, storeRoot, storeB);
});

Race("should grant one of two takes of a file, one pinning CLAIMS_DIR and one not, racing or in either order", async ({ box }) => {
  // No .claims: the unpinned session claims in the default directory, the pinned one in its own;
  // the pinned take's pointer (docs/PROTOCOL.md 1a) is how the unpinned one meets it.
  const env = { HOME: box.root };
  const pinned = { ...env, CLAIMS_DIR: join(box.root, "pinned") };
  const storeRoot = join(box.root, ".local", "state", "claims");
  writeFileSync(join(box.project, "x.ts"), "");
  for (let round = 0; round < 6; round++) {
    for (const store of [storeRoot, pinned.CLAIMS_DIR]) for (const name of existsSync(store) ? claimsIn(store) : []) rmSync(join(store, name));
    const order = round % 2 === 0 ? [pinned, env] : [env, pinned];
    const taken = await Promise.all(order.map((each, index) => claimsAsync(["take", "x.ts", "--holder", `h${index}`], { cwd: box.project, env: each })));
    const winners = taken.flatMap((result, index) => (result.code === 0 ? [index] : []));
    assert.is(winners.length, 1, `round ${round}: ${taken.map((result) => `${result.code} ${result.stdout}${result.stderr}`).join(" | ")}`);
    assert.is([storeRoot, pinned.CLAIMS_DIR].filter(existsSync).flatMap(claimsIn).length, 1, "one claim on disk: the loser gave its back");
    const writers = await Promise.all(order.map((each, index) => claimsAsync(["check", "x.ts", "--holder", `h${index}`], { cwd: box.project, env: each })));
    assert.equal(writers.flatMap((result, index) => (result.code === 0 ? [index] : [])), winners, writers.map((result) => result.stdout).join(" | "));
  }
});

Race("should refuse a take not pinning a directory that was granted while a pinned take of the file waited for its take lock", async ({ box }) => {
  const env = { HOME: box.root };
  const pinnedDir = join(box.root, "pinned");
  const storeRoot = join(box.root, ".local", "state", "claims");
  mkdirSync(pinnedDir, { mode: 0o700 });
  writeFileSync(join(box.project, "x.ts"), "");
  const lock = await takeLockOf(pinnedDir);
  const first = spawnClaims(["take", "x.ts", "--holder", "h0"], { cwd: box.project, env: { ...env, CLAIMS_DIR: pinnedDir } });
  await until(() => lock.waiting(first.pid), "the pinned take waits for its take lock, its pointer left and its look done");
  assert.is(claims(["take", "x.ts", "--holder", "h1", "--purpose", "unpinned"], { cwd: box.project, env }).code, 0, "nothing claimed yet where the pointer sends");
  await lock.release();
  await lostTheRace(first, /held by h1 for "unpinned"/, pinnedDir, storeRoot);
});

Race("should refuse, after its grant, a take not pinning a directory that looked before a pinned take of the file left its pointer", async ({ box }) => {
  const env = { HOME: box.root };
  const pinnedDir = join(box.root, "pinned");
  const storeRoot = join(box.root, ".local", "state", "claims");
  mkdirSync(storeRoot, { recursive: true, mode: 0o700 });
  writeFileSync(join(box.project, "x.ts"), "");
  const lock = await takeLockOf(storeRoot);
  const first = spawnClaims(["take", "x.ts", "--holder", "h0"], { cwd: box.project, env });
  await until(() => lock.waiting(first.pid), "the unpinned take waits for its take lock, having found no pointer");
  assert.is(claims(["take", "x.ts", "--holder", "h1", "--purpose", "pinned"], { cwd: box.project, env: { ...env, CLAIMS_DIR: pinnedDir } }).code, 0);
  await lock.release();
  await lostTheRace(first, /held by h1 for "pinned"/, storeRoot, pinnedDir);
});

Race("should grant one of two takes of a file, one with XDG_STATE_HOME and one without, racing or in either order", async ({ box }) => {
  // Each claims in its own default directory; the pointer the one with XDG_STATE_HOME leaves in
  // the other's (docs/PROTOCOL.md 1a) is how the one without meets it.
  const env = { HOME: box.root };
  const moved = { ...env, XDG_STATE_HOME: join(box.root, "state") };
  const stores = [join(box.root, ".local", "state", "claims"), join(box.root, "state", "claims")];
  writeFileSync(join(box.project, "x.ts"), "");
  for (let round = 0; round < 6; round++) {
    for (const store of stores) for (const name of existsSync(store) ? claimsIn(store) : []) rmSync(join(store, name));
    const order = round % 2 === 0 ? [moved, env] : [env, moved];
    const taken = await Promise.all(order.map((each, index) => claimsAsync(["take", "x.ts", "--holder", `h${index}`], { cwd: box.project, env: each })));
    const winners = taken.flatMap((result, index) => (result.code === 0 ? [index] : []));
    assert.is(winners.length, 1, `round ${round}: ${taken.map((result) => `${result.code} ${result.stdout}${result.stderr}`).join(" | ")}`);
    assert.is(stores.filter(existsSync).flatMap(claimsIn).length, 1, "one claim on disk: the loser gave its back");
    const writers = await Promise.all(order.map((each, index) => claimsAsync(["check", "x.ts", "--holder", `h${index}`], { cwd: box.project, env: each })));
    assert.equal(writers.flatMap((result, index) => (result.code === 0 ? [index] : [])), winners, writers.map((result) => result.stdout).join(" | "));
  }
});

Race("should refuse a take without XDG_STATE_HOME that was granted while a take with it waited for its take lock, and one that looked before that take's pointer was left", async ({ box }) => {
  const env = { HOME: box.root };
  const moved = { ...env, XDG_STATE_HOME: join(box.root, "state") };
  writeFileSync(join(box.project, "x.ts"), "");
  await underTakeLocks("x.ts", box, env, moved);
});

Race("should grant one of two takes of a name, one with XDG_STATE_HOME and one without, racing or in either order, and refuse one granted while the other waited for its take lock", async ({ box }) => {
  // Names are claimed in the session's own default directory: the one with XDG_STATE_HOME leaves a
  // pointer saying its directory is a moved default in the other's first (docs/PROTOCOL.md 1a).
  const env = { HOME: box.root };
  const moved = { ...env, XDG_STATE_HOME: join(box.root, "state") };
  const movedStore = join(box.root, "state", "claims");
  const defaultStore = join(box.root, ".local", "state", "claims");
  const stores = [defaultStore, movedStore];
  for (let round = 0; round < 6; round++) {
    for (const store of stores) for (const name of existsSync(store) ? claimsIn(store) : []) rmSync(join(store, name));
    const order = round % 2 === 0 ? [moved, env] : [env, moved];
    const taken = await Promise.all(order.map((each, index) => claimsAsync(["take", "shared-config", "--holder", `h${index}`], { cwd: box.project, env: each })));
    const winners = taken.flatMap((result, index) => (result.code === 0 ? [index] : []));
    assert.is(winners.length, 1, `round ${round}: ${taken.map((result) => `${result.code} ${result.stdout}${result.stderr}`).join(" | ")}`);
    assert.is(stores.filter(existsSync).flatMap(claimsIn).length, 1, "one claim on disk: the loser gave its back");
    const checked = await Promise.all(order.map((each, index) => claimsAsync(["check", "shared-config", "--holder", `h${index}`], { cwd: box.project, env: each })));
    assert.equal(checked.flatMap((result, index) => (result.code === 0 ? [index] : [])), winners, checked.map((result) => result.stdout).join(" | "));
  }
  for (const store of stores) for (const name of claimsIn(store)) rmSync(join(store, name));
  await underTakeLocks("shared-config", box, env, moved);
});

/**
 * Takes of `target` with XDG_STATE_HOME (`moved`) and without (`env`), each granted while the other
 * waited for its take lock, one way and then the other: the one that waited loses the race.
 */
async function underTakeLocks(target: string, box: Sandbox, env: Record<string, string>, moved: Record<string, string>): Promise<void> {
  const movedStore = join(moved.XDG_STATE_HOME as string, "claims");
  const defaultStore = join(env.HOME as string, ".local", "state", "claims");
  for (const store of [movedStore, defaultStore]) mkdirSync(store, { recursive: true, mode: 0o700 });
  // The one with XDG_STATE_HOME has left its pointer and looked: the other is granted meanwhile.
  let lock = await takeLockOf(movedStore);
  let first = spawnClaims(["take", target, "--holder", "h0"], { cwd: box.project, env: moved });
  await until(() => lock.waiting(first.pid), "the take with XDG_STATE_HOME waits for its take lock, its pointer left and its look done");
  assert.is(claims(["take", target, "--holder", "h1", "--purpose", "without"], { cwd: box.project, env }).code, 0, "nothing claimed yet where the pointer sends");
  await lock.release();
  await lostTheRace(first, /held by h1 for "without"/, movedStore, defaultStore);
  assert.is(claims(["release", "--holder", "h1"], { cwd: box.project, env }).code, 0);
  // The one without has looked and found no pointer: the one with it is granted meanwhile.
  rmSync(join(defaultStore, ".pinned"), { recursive: true });
  lock = await takeLockOf(defaultStore);
  first = spawnClaims(["take", target, "--holder", "h2"], { cwd: box.project, env });
  await until(() => lock.waiting(first.pid), "the take without XDG_STATE_HOME waits for its take lock, having found no pointer");
  assert.is(claims(["take", target, "--holder", "h3", "--purpose", "with"], { cwd: box.project, env: moved }).code, 0);
  await lock.release();
  await lostTheRace(first, /held by h3 for "with"/, defaultStore, movedStore);
}

/** The first of two takes of one file lost: REFUSED naming the winner, its own claim given back in `gaveBack`, the winner's standing in `stands`. */
async function lostTheRace(first: ReturnType<typeof spawnClaims>, winner: RegExp, gaveBack: string, stands: string): Promise<void> {
  const result = await first.done;
  assert.is(result.code, 3, result.stdout + result.stderr);
  assert.match(result.stdout, winner);
  assert.equal(claimsIn(gaveBack), [], "it gave its claim back");
  assert.is(claimsIn(stands).length, 1, "the other's stands: one holder");
}

/** Every claim in `dir` two hours old: stale, as if its holder stopped beating (written as the holder's own would be). */
function staleAll(dir: string): void {
  for (const name of claimsIn(dir)) {
    const path = join(dir, name);
    const claim = JSON.parse(readFileSync(path, "utf8"));
    const old = iso(Date.now() - 2 * 3600_000);
    writeFileSync(path, `${JSON.stringify({ ...claim, taken_at: old, heartbeat_at: old })}\n`);
    utimesSync(path, new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000));
  }
}

Race("should not renew a stale claim by a beat, nor grant a queued one, while another name of the file is held in the other package", ({ box }) => {
  const { storeRoot, env } = twoPackages(box);
  const cli = (...args: string[]) => claims(args, { cwd: box.project, env });
  assert.is(cli("take", "g.ts", "--holder", "h1").code, 0);
  assert.is(cli("take", "g.ts", "--holder", "h2", "--queue").code, 6, "h2 waits for g.ts");
  staleAll(storeRoot);
  assert.is(cli("take", "packages/a/f.ts", "--holder", "h0", "--purpose", "split").code, 0, "h1's claim is stale: the file is free");
  const beat = cli("beat", "--holder", "h1");
  assert.is(beat.code, 4, `h1's stale claim is lost to h0 through the link: ${beat.stdout}${beat.stderr}`);
  assert.match(beat.stdout, /h0/);
  const waiting = JSON.parse(cli("status", "--mine", "--holder", "h2", "--json").stdout);
  assert.equal(waiting.granted_while_waiting, [], "the queued interest is not granted g.ts while h0 holds f.ts");
  assert.is(waiting.queued.length, 1);
  assert.is(cli("check", "g.ts", "--holder", "h2").code, 3);
  assert.is(cli("release", "--holder", "h0").code, 0);
  assert.is(cli("take", "g.ts", "--holder", "h3").code, 3, "once h0 lets go, the queue is first: h2 is granted g.ts");
  assert.is(cli("check", "g.ts", "--holder", "h2").code, 0);
});

Race("should deny an agent's edit, and keep no claim, when the file's other name was taken between the hook's look and its claim", async ({ box }) => {
  const { storeA, storeRoot, env } = twoPackages(box);
  const lock = await takeLockOf(storeA);
  const payload = { session_id: "s1", cwd: join(box.project, "packages", "a"), hook_event_name: "PreToolUse", tool_name: "Edit", tool_input: { file_path: join(box.project, "packages", "a", "f.ts"), old_string: "", new_string: "x" } };
  const child = spawn(process.execPath, [BIN, "hook", "claude"], { env: cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stdin.end(JSON.stringify(payload));
  const done = new Promise<number | null>((resolve) => child.on("close", resolve));
  await until(() => lock.waiting(child.pid as number), "the hook's claim waits for the take lock, its look done");
  assert.is(claims(["take", "g.ts", "--holder", "h1", "--purpose", "rename"], { cwd: box.project, env }).code, 0);
  await lock.release();
  assert.is(await done, 0);
  const answer = JSON.parse(stdout).hookSpecificOutput;
  assert.is(answer?.permissionDecision, "deny", stdout);
  assert.match(answer.permissionDecisionReason, /h1/);
  assert.equal(claimsIn(storeA), [], "the hook's claim is given back");
  assert.is(claimsIn(storeRoot).length, 1);
});

Race("should give back the claim an agent's edit made in its own claims directory when the package's directory refuses it in between", async ({ box }) => {
  // The file is claimed where its package's .claims says (store-a), and by the hook in its own too.
  const pkg = join(box.project, "packages", "a");
  mkdirSync(pkg, { recursive: true });
  const storeA = join(box.root, "store-a");
  mkdirSync(storeA, { mode: 0o700 });
  writeFileSync(join(pkg, ".claims"), JSON.stringify({ dir: storeA }));
  const file = join(pkg, "f.ts");
  writeFileSync(file, "");
  const own = join(box.root, ".local", "state", "claims");
  const lock = await takeLockOf(storeA);
  const payload = { session_id: "s1", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Edit", tool_input: { file_path: file, old_string: "", new_string: "x" } };
  const child = spawn(process.execPath, [BIN, "hook", "claude"], { env: cleanEnv({ HOME: box.root }), stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stdin.end(JSON.stringify(payload));
  const done = new Promise<number | null>((resolve) => child.on("close", resolve));
  await until(() => lock.waiting(child.pid as number), "the hook's claim in the package's directory waits for its take lock");
  assert.is(claimsIn(own).length, 1, "claimed in its own directory first");
  // Another session's claim appears there meanwhile (written as its take would have).
  const now = iso(Date.now());
  writeClaimFile(storeA, claimFileName(file), { target: file, holder: "h1", purpose: "rename", taken_at: now, heartbeat_at: now });
  await lock.release();
  assert.is(await done, 0);
  assert.is(JSON.parse(stdout).hookSpecificOutput?.permissionDecision, "deny", stdout);
  assert.equal(claimsIn(own), [], "the claim made for the denied write is given back");
});

Race.run();
