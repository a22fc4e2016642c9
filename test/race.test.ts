// Races between real processes: every contender is a spawned `bin/claims.js` (or, for crashes, a
// spawned node script using the built library), all on one claims directory. Nothing is mocked.
//
// To make the contenders really overlap (instead of starting tens of milliseconds apart, one node
// start-up after another), each spawned CLI preloads a small barrier module through NODE_OPTIONS:
// it loads the CLI's modules, reports "ready", and blocks until the test creates a "go" file. The
// test waits for every contender to be ready, then releases them all at once. The barrier only
// makes races more likely; no assertion depends on who wins or on timing, so a slow machine can
// make a race less interesting but never makes a test pass or fail by luck.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { readSnapshot } from "../src/os/files.js";
import { readLockRecord, versionOf } from "../src/protocol/lock.js";
import { take } from "../src/index.js";
import { BIN, claims, claimsAsync, cleanEnv, iso, readJson, ROOT, sandbox, SECOND, writeClaimFile, untilStopped, type RunResult, type Sandbox } from "./helpers.js";

const HOUR = 3600 * SECOND;
const DIST_URL = pathToFileURL(join(ROOT, "dist") + "/").href;
const CLAIM_FIELDS = ["target", "holder", "purpose", "taken_at", "heartbeat_at"] as const;

// Loaded before the CLI in every racer: it parks the process until all of them are up. (It once
// imported dist/'s ES modules as a warm-up, but the CLI runs the bundle dist/cli.cjs, so that only
// cost every racer its own load of modules it never used.)
const BARRIER_MODULE = `
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const barrier = process.env.RACE_BARRIER;
writeFileSync(join(barrier, "ready-" + process.pid), "");
const go = join(barrier, "go");
const cell = new Int32Array(new SharedArrayBuffer(4));
const deadline = Date.now() + 60000;
while (!existsSync(go) && Date.now() < deadline) Atomics.wait(cell, 0, 0, 1);
`;

interface Job {
  args: string[];
}

let raceCount = 0;

/** Starts every job as its own `claims` process, releases them together, and waits for all of them. */
async function race(sb: Sandbox, jobs: Job[]): Promise<RunResult[]> {
  const barrier = join(sb.root, `barrier-${++raceCount}`);
  mkdirSync(barrier, { recursive: true });
  const preload = join(sb.root, "barrier.mjs");
  if (!existsSync(preload)) writeFileSync(preload, BARRIER_MODULE);
  const env = {
    NODE_OPTIONS: `--import=${pathToFileURL(preload).href}`,
    RACE_BARRIER: barrier,
  };
  let exited = 0;
  const running = jobs.map((job) =>
    claimsAsync(job.args, { cwd: sb.project, env }).then((result) => {
      exited += 1;
      return result;
    }),
  );
  // Wait until every contender is loaded and parked (or one died before getting there: then let the
  // rest go at once, and the assertions on its result will say what happened).
  const deadline = Date.now() + 60 * SECOND;
  while (exited === 0 && Date.now() < deadline) {
    const ready = readdirSync(barrier).filter((name) => name.startsWith("ready-")).length;
    if (ready === jobs.length) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  writeFileSync(join(barrier, "go"), "");
  return Promise.all(running);
}

function parse(result: RunResult, what: string): any {
  try {
    return JSON.parse(result.stdout);
  } catch {
    assert.unreachable(`${what}: stdout is not one JSON document (exit ${result.code}): ${result.stdout}\n${result.stderr}`);
  }
}

function describe(results: RunResult[]): string {
  return results.map((r, i) => `#${i} exit ${r.code} ${r.stdout.replace(/\s+/g, " ")} ${r.stderr.trim()}`).join("\n");
}

/** The claim file on disk for a simple name, or undefined when there is none. */
function claimOnDisk(dir: string, name: string): any {
  const path = join(dir, `${name}.json`);
  return existsSync(path) ? readJson(path) : undefined;
}

/** Every process here exited normally, so none may have left a temp file or a lock behind. */
function assertNoDebris(dir: string): void {
  const debris = readdirSync(dir).filter((name) => name.startsWith(".tmp-") || name.startsWith(".lock-"));
  assert.equal(debris, [], `temp files or locks left behind by processes that exited normally: ${debris.join(", ")}`);
}

function staleClaim(target: string, holder: string): object {
  const now = Date.now();
  return {
    target,
    holder,
    purpose: `abandoned by ${holder}`,
    taken_at: iso(Math.floor((now - 3 * HOUR) / SECOND) * SECOND),
    heartbeat_at: iso(Math.floor((now - 2 * HOUR) / SECOND) * SECOND),
  };
}

// 1 ---------------------------------------------------------------------------------------------

const freeTake = suite("take race on a free target");

freeTake("should grant a free target to exactly one of 24 concurrent processes and name that one to the rest", async () => {
  const sb = sandbox();
  try {
    const holders = Array.from({ length: 24 }, (_, i) => `h${i}`);
    // The claims directory does not exist yet: the contenders also race to create it.
    const results = await race(
      sb,
      holders.map((holder) => ({ args: ["take", "x", "--holder", holder, "--purpose", `work of ${holder}`, "--json", "--dir", sb.dir] })),
    );
    const winners = results.flatMap((r, i) => (r.code === 0 ? [i] : []));
    assert.is(winners.length, 1, `exactly one process must win:\n${describe(results)}`);
    const winner = holders[winners[0]!]!;
    const won = parse(results[winners[0]!]!, winner);
    assert.is(won.granted.length, 1);
    assert.is(won.granted[0].holder, winner);
    assert.is(won.granted[0].action, "taken");
    assert.equal(won.refused, []);

    const onDisk = claimOnDisk(sb.dir, "x");
    assert.ok(onDisk, "the winner's claim file must exist");
    assert.is(onDisk.holder, winner, "the claim file must name the process that exited 0");
    assert.is(onDisk.purpose, `work of ${winner}`);

    results.forEach((result, i) => {
      if (i === winners[0]) return;
      assert.is(result.code, 3, `${holders[i]} must be refused (exit 3):\n${describe([result])}`);
      const refused = parse(result, holders[i]!);
      assert.equal(refused.granted, []);
      assert.is(refused.refused.length, 1);
      assert.is(refused.refused[0].target, "x");
      assert.is(refused.refused[0].holder, winner, `${holders[i]} must be told the winner holds x`);
      assert.is(refused.refused[0].purpose, `work of ${winner}`);
    });
    assertNoDebris(sb.dir);
  } finally {
    sb.cleanup();
  }
});

freeTake.run();

// 2 ---------------------------------------------------------------------------------------------

const staleTake = suite("take race on a stale claim");

staleTake("should let exactly one of 16 concurrent processes take over a stale claim, reporting from whom", async () => {
  const sb = sandbox();
  try {
    const stale = staleClaim("x", "gone") as { taken_at: string };
    writeClaimFile(sb.dir, "x.json", stale);
    const holders = Array.from({ length: 16 }, (_, i) => `h${i}`);
    const results = await race(
      sb,
      holders.map((holder) => ({ args: ["take", "x", "--holder", holder, "--json", "--dir", sb.dir] })),
    );
    const winners = results.flatMap((r, i) => (r.code === 0 ? [i] : []));
    assert.is(winners.length, 1, `exactly one process must take the stale claim over:\n${describe(results)}`);
    const winner = holders[winners[0]!]!;
    const won = parse(results[winners[0]!]!, winner);
    assert.is(won.granted.length, 1);
    assert.is(won.granted[0].holder, winner);
    assert.is(won.granted[0].action, "took_over");
    assert.is(won.granted[0].previous.holder, "gone", "the takeover must say whose stale claim it replaced");

    const onDisk = claimOnDisk(sb.dir, "x");
    assert.ok(onDisk, "the winner's claim file must exist");
    assert.is(onDisk.holder, winner);
    assert.is.not(onDisk.taken_at, stale.taken_at, "the winner's claim is new, not the stale one renamed");

    results.forEach((result, i) => {
      if (i === winners[0]) return;
      assert.is(result.code, 3, `${holders[i]} must be refused (exit 3):\n${describe([result])}`);
      const refused = parse(result, holders[i]!);
      assert.equal(refused.granted, []);
      assert.is(refused.refused.length, 1);
      assert.is(refused.refused[0].holder, winner, `${holders[i]} must be told the winner holds x, not the stale holder`);
    });
    assertNoDebris(sb.dir);
  } finally {
    sb.cleanup();
  }
});

staleTake.run();

// 3 ---------------------------------------------------------------------------------------------

const beatSweep = suite("beat racing sweep");

beatSweep("should never let a sweep remove a fresh claim while its holder beats", async () => {
  const sb = sandbox();
  try {
    const taken = claims(["take", "x", "--holder", "h", "--json", "--dir", sb.dir]);
    assert.is(taken.code, 0, taken.stderr);
    const before = claimOnDisk(sb.dir, "x");

    const jobs: Job[] = [];
    for (let i = 0; i < 10; i++) {
      jobs.push({ args: ["beat", "x", "--holder", "h", "--json", "--dir", sb.dir] });
      jobs.push({ args: ["sweep", "--json", "--dir", sb.dir] });
    }
    const results = await race(sb, jobs);
    results.forEach((result, i) => {
      const what = jobs[i]!.args[0]!;
      assert.is(result.code, 0, `every ${what} must succeed:\n${describe([result])}`);
      const output = parse(result, what);
      if (what === "beat") {
        assert.equal(output.renewed, ["x"]);
        assert.equal(output.lost, []);
      } else {
        assert.equal(output.removed, [], "a sweep must not remove a fresh claim");
      }
    });
    const after = claimOnDisk(sb.dir, "x");
    assert.ok(after, "the fresh claim must survive the sweeps");
    assert.is(after.holder, "h");
    assert.is(after.taken_at, before.taken_at, "beats keep taken_at");
    assert.ok(after.heartbeat_at >= before.heartbeat_at);
    assertNoDebris(sb.dir);
  } finally {
    sb.cleanup();
  }
});

beatSweep("should either renew a stale claim for every beat or lose it for every beat, never both", async () => {
  // On one stale version, exactly one of the beats and sweeps wins. If a beat wins, the claim is
  // fresh from then on, so no sweep may remove it and every beat renews it. If a sweep wins, the
  // claim is gone and every beat must report it lost; nothing brings it back. A beat that says
  // "renewed" while the claim ends up swept is exactly the bug this rules out.
  //
  // In odd rounds 300 fresh claims of other sessions sort after x: a sweep reads x first and the
  // others after it, so some time passes between its reading of x and its acting on x, and the
  // beats renew x in between. A sweep that acted on that old reading instead of re-checking under
  // the lock would remove a fresh claim (and the others are fresh: no sweep may touch them).
  const sb = sandbox();
  try {
    for (let round = 0; round < 4; round++) {
      const name = `x${round}`;
      const stale = staleClaim(name, "h") as { heartbeat_at: string };
      writeClaimFile(sb.dir, `${name}.json`, stale);
      const others = round % 2 === 1 ? Array.from({ length: 300 }, (_, i) => `y${round}-${String(i).padStart(3, "0")}`) : [];
      const now = iso(Math.floor(Date.now() / SECOND) * SECOND);
      for (const other of others) {
        const claim = { target: other, holder: "busy", purpose: "working", taken_at: now, heartbeat_at: now };
        writeFileSync(join(sb.dir, `${other}.json`), `${JSON.stringify(claim)}\n`);
      }
      const jobs: Job[] = [];
      for (let i = 0; i < 8; i++) {
        jobs.push({ args: ["beat", name, "--holder", "h", "--json", "--dir", sb.dir] });
        jobs.push({ args: ["sweep", "--json", "--dir", sb.dir] });
      }
      const results = await race(sb, jobs);
      const beats = results.filter((_, i) => jobs[i]!.args[0] === "beat");
      const sweeps = results.filter((_, i) => jobs[i]!.args[0] === "sweep");
      for (const result of sweeps) assert.is(result.code, 0, `every sweep must succeed:\n${describe([result])}`);
      const sweptBy = sweeps.filter((r) => parse(r, "sweep").removed.includes(name)).length;
      const onDisk = claimOnDisk(sb.dir, name);
      if (beats.some((r) => r.code === 0)) {
        for (const result of beats) {
          assert.is(result.code, 0, `once one beat renewed ${name}, every beat must renew it:\n${describe(beats)}`);
          const output = parse(result, "beat");
          assert.equal(output.renewed, [name]);
          assert.equal(output.lost, []);
        }
        const wasStale = beats.filter((r) => parse(r, "beat").was_stale.includes(name)).length;
        assert.is(wasStale, 1, "exactly one beat renewed the stale version, and must say it was stale");
        assert.is(sweptBy, 0, `a sweep removed ${name} although a beat renewed it:\n${describe(results)}`);
        assert.ok(onDisk, `${name} was renewed by every beat but is gone:\n${describe(results)}`);
        assert.is(onDisk.holder, "h");
        assert.ok(onDisk.heartbeat_at > stale.heartbeat_at, "the renewed heartbeat must be newer than the stale one");
      } else {
        for (const result of beats) {
          assert.is(result.code, 4, `a beat that did not renew must report the claim lost (exit 4):\n${describe([result])}`);
          const output = parse(result, "beat");
          assert.equal(output.renewed, []);
          assert.equal(output.lost, [name]);
        }
        assert.is(sweptBy, 1, `every beat lost ${name}, so exactly one sweep must have removed it:\n${describe(results)}`);
        assert.is(onDisk, undefined, `every beat lost ${name}, yet its claim file is there`);
      }
      for (const result of sweeps) assert.equal(parse(result, "sweep").removed.filter((t: string) => t !== name), []);
      for (const other of others) rmSync(join(sb.dir, `${other}.json`));
    }
    assertNoDebris(sb.dir);
  } finally {
    sb.cleanup();
  }
});

/**
 * A real `claims` process run with CLAIMS_STOP_AT=`stop` (and CLAIMS_CRASH_AT=`crash`), once it has
 * stopped itself there; `stdout` is what it printed so far. Killed by the caller in a finally, so
 * none is left stopped when an assertion fails.
 */
async function stoppedAt(args: string[], cwd: string, stop: string, crash?: string) {
  const env = cleanEnv({ CLAIMS_STOP_AT: stop, ...(crash !== undefined && { CLAIMS_CRASH_AT: crash }) });
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await untilStopped(child);
  return { child, exited, stdout: () => stdout };
}

/** What stalls in beatStallingPastTtl: A's beat, A's take of its own claim again, A's handover to B. */
const STALLING = {
  beat: { args: ["beat", "./D/", "--holder", "A"], holder: "A", told: (stdout: string) => stdout !== "" && (JSON.parse(stdout).renewed as unknown[]).length > 0 },
  take: { args: ["take", "./D/", "--ttl", "2", "--holder", "A"], holder: "A", told: (stdout: string) => stdout !== "" && (JSON.parse(stdout).granted as unknown[]).length > 0 },
  handover: { args: ["handover", "./D/", "--to", "B", "--holder", "A"], holder: "B", told: () => true },
};

/**
 * A's `./D/` (TTL 2) renewed (or handed to B) by a process that stalls, stopped at `stop`
 * (CLAIMS_STOP_AT) past the claim's TTL, and is killed at `crash` if given, while C takes
 * `./D/a.js`; then a beat of the holder's (A's, or B's after a handover). Never both: the verb told
 * that D/ is held (renewed, granted, handed over) and C granted a file inside it.
 */
async function beatStallingPastTtl(stop: string, crash?: string, verb: keyof typeof STALLING = "beat") {
  const sb = sandbox();
  try {
    mkdirSync(join(sb.project, "D"));
    const takenAt = Date.now();
    assert.is(claims(["take", "./D/", "--holder", "A", "--ttl", "2", "--dir", sb.dir], { cwd: sb.project }).code, 0);
    const stalling = STALLING[verb];
    const stalled = await stoppedAt([...stalling.args, "--json", "--dir", sb.dir], sb.project, stop, crash);
    try {
      // Past A's TTL (its heartbeat is rounded up to the second), stopped all along: then the take.
      await new Promise((resolve) => setTimeout(resolve, 3200 - (Date.now() - takenAt)));
      const taking = claimsAsync(["take", "./D/a.js", "--holder", "C", "--json", "--dir", sb.dir], { cwd: sb.project });
      await new Promise((resolve) => setTimeout(resolve, 700));
      stalled.child.kill("SIGCONT");
      const code = await stalled.exited;
      const stdout = stalled.stdout();
      const taken = await taking;
      const again = claims(["beat", "./D/", "--holder", stalling.holder, "--json", "--dir", sb.dir], { cwd: sb.project });
      const report = `${verb} ${code}: ${stdout}\ntake ${taken.code}: ${taken.stdout}${taken.stderr}\n${stalling.holder}'s beat ${again.code}: ${again.stdout}${again.stderr}`;
      if (taken.code === 0) {
        assert.ok(code !== 0 || !stalling.told(stdout), `A's ${verb} said D/ is held, and C was granted D/a.js:\n${report}`);
        assert.is(again.code, 4, `${stalling.holder}'s next beat must report D/ lost:\n${report}`);
      } else {
        assert.is(taken.code, 3, report);
        assert.is(again.code, 0, report);
        if (verb === "handover") assert.is(code, 0, `B was handed D/ and holds it:\n${report}`);
      }
      const fresh = JSON.parse(claims(["status", "--json", "--dir", sb.dir], { cwd: sb.project }).stdout).claims.filter((claim: { stale: boolean }) => !claim.stale);
      assert.is(fresh.length, 1, `one fresh holder in D/:\n${report}`);
    } finally {
      stalled.child.kill("SIGKILL"); // never left stopped when an assertion fails
    }
  } finally {
    sb.cleanup();
  }
}

beatSweep("should never have a beat renew a claim that went stale while it stalled, once another holder took what it covers", async () => {
  // A beat renews under the take lock, judged there, as a take judges what is in its way: a take
  // waits for a stalled beat, and a beat that stalled before the lock finds its claim stale under it.
  await beatStallingPastTtl("lock-won");
});

beatSweep("should never leave a lapsed claim renewed by a beat killed after its write, for the next beat to find fresh", async () => {
  // Written before it was judged again under the take lock, a beat that read its claim fresh,
  // stalled past its TTL while a take built over it, landed its write and died before its check
  // after the write, left the claim fresh: the next beat renewed it, and two held D/a.js.
  await beatStallingPastTtl("lock-won", "after-rename");
});

beatSweep("should never answer renewed for a beat that stalled past the TTL between stamping its claim and writing it", async () => {
  // Judged fresh under the take lock and stamped, the beat stopped before its rename: the renewal it
  // landed carried a heartbeat (and a temp file's mtime) already older than the TTL, so it renewed
  // nothing. It answered renewed all the same, and the take waiting for the lock took D/a.js.
  await beatStallingPastTtl("before-rename");
});

beatSweep("should never grant a re-take that stalled past the TTL between stamping its claim and writing it", async () => {
  // The same for a take renewing the caller's own claim (an MCP claim or renew_file_reservations
  // runs one): granted, and stale as it landed.
  await beatStallingPastTtl("before-rename", undefined, "take");
});

beatSweep("should never answer handed over for a handover that stalled past the TTL between stamping the handed claim and writing it", async () => {
  // handover --to writes the new holder's claim itself, stamped under the take lock before its
  // rename. Stopped there past the TTL, it landed B's claim stale: A was told it handed D/ to B,
  // B's status showed it granted, and the take waiting for the lock took D/a.js at once.
  await beatStallingPastTtl("before-rename", undefined, "handover");
});

beatSweep("should report as was_stale a beat that landed after its claim lapsed, when a check found the claim free meanwhile", async () => {
  // A beat stalled under the take lock keeps every take out, but not a check: past the claim's
  // TTL, a check answers that the target may be written. The beat that lands then must not answer
  // renewed as if the claim had been held throughout.
  const sb = sandbox();
  try {
    mkdirSync(join(sb.project, "D"));
    const takenAt = Date.now();
    assert.is(claims(["take", "./D/", "--holder", "A", "--ttl", "4", "--dir", sb.dir], { cwd: sb.project }).code, 0);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const stalled = await stoppedAt(["beat", "./D/", "--holder", "A", "--json", "--dir", sb.dir], sb.project, "before-rename");
    try {
      await new Promise((resolve) => setTimeout(resolve, 6000 - (Date.now() - takenAt)));
      const checked = claims(["check", "./D/a.js", "--holder", "C", "--dir", sb.dir], { cwd: sb.project });
      assert.is(checked.code, 0, `A's claim lapsed while its beat stalled: ${checked.stdout}${checked.stderr}`);
      stalled.child.kill("SIGCONT");
      assert.is(await stalled.exited, 0, stalled.stdout());
      const result = JSON.parse(stalled.stdout()) as { renewed: string[]; was_stale: string[] };
      assert.is(result.renewed.length, 1, stalled.stdout());
      assert.is(result.was_stale.length, 1, `a check let C write D/a.js while A's claim was stale, and the beat answered renewed:\n${stalled.stdout()}`);
    } finally {
      stalled.child.kill("SIGKILL");
    }
  } finally {
    sb.cleanup();
  }
});

beatSweep("should judge a claim by the time of the judgement, not by a time read before the claim was renewed", async () => {
  // A verb reads the clock once, then can stall for seconds before it judges (waiting on another's
  // claim lock, descheduled). A claim renewed meanwhile then had a heartbeat and an mtime more than
  // its TTL ahead of that time, as a copied file's are, and was judged stale. Here the verb is this
  // process, whose context was opened before a real process took the claim.
  const sb = sandbox();
  try {
    const { openContext, judge } = await import("../src/protocol/context.js");
    assert.is(claims(["take", "warm", "--holder", "W", "--dir", sb.dir], { cwd: sb.project }).code, 0);
    const context = openContext({ dir: sb.dir, cwd: sb.project, env: {} });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.is(claims(["take", "x", "--holder", "H", "--ttl", "1", "--dir", sb.dir], { cwd: sb.project }).code, 0);
    const judgement = judge(context.store.read("x.json"), "x", "T", context);
    assert.is(judgement.state, "held", `H's claim, taken this moment, is held: ${JSON.stringify(judgement)}`);
  } finally {
    sb.cleanup();
  }
});

/**
 * A holder whose clock runs 10 minutes behind (a process under libfaketime; here a module preloaded
 * into the real `claims` process moves Date.now back) is granted A's `./D/` (TTL 2 s) by `grant`,
 * which runs in a process on the true clock and stamps the claim by it: a grant from the queue, a
 * handover. The holder does not beat; C takes `./D/a.js` once `./D/` is stale; then the holder
 * beats. Never both: C granted a file inside D/ and the holder told D/ is renewed.
 */
async function behindHolderGranted(grant: (sb: Sandbox, behind: (args: string[]) => RunResult) => void) {
  const sb = sandbox();
  try {
    mkdirSync(join(sb.project, "D"));
    const preload = join(sb.root, "behind.cjs");
    writeFileSync(preload, "const now = Date.now;\nDate.now = () => now() - 600000;\n");
    const behind = (args: string[]) => claims([...args, "--dir", sb.dir], { cwd: sb.project, env: { NODE_OPTIONS: `--require=${preload}` } });
    assert.is(claims(["take", "./D/", "--holder", "B", "--ttl", "2", "--dir", sb.dir], { cwd: sb.project }).code, 0);
    grant(sb, behind);
    const granted = readJson(join(sb.dir, readdirSync(sb.dir).find((name) => name.endsWith(".json") && !name.startsWith("."))!));
    assert.is(granted.holder, "H", `the holder behind was granted D/: ${JSON.stringify(granted)}`);
    // Past the TTL by every clock but the holder's (its heartbeat rounded up to the second).
    await new Promise((resolve) => setTimeout(resolve, 3500));
    const taken = claims(["take", "./D/a.js", "--holder", "C", "--json", "--dir", sb.dir], { cwd: sb.project });
    assert.is(taken.code, 0, `D/ is stale: C takes D/a.js: ${taken.stdout}${taken.stderr}`);
    const beat = behind(["beat", "./D/", "--holder", "H", "--json"]);
    assert.is(beat.code, 4, `the holder's beat renewed D/, which lapsed while C took D/a.js inside it: ${beat.stdout}${beat.stderr}`);
    assert.equal(JSON.parse(beat.stdout).renewed, []);
    const fresh = JSON.parse(claims(["status", "--json", "--dir", sb.dir], { cwd: sb.project }).stdout).claims.filter((claim: { stale: boolean }) => !claim.stale);
    assert.equal(fresh.map((claim: { holder: string }) => claim.holder), ["C"], "one fresh holder in D/");
  } finally {
    sb.cleanup();
  }
}

beatSweep("should judge a claim granted from the queue on the filesystem's clock, not on its holder's clock running behind", async () => {
  await behindHolderGranted((sb, behind) => {
    assert.is(behind(["take", "./D/", "--holder", "H", "--queue", "--ttl", "2"]).code, 6, "queued behind B");
    assert.is(claims(["release", "./D/", "--holder", "B", "--dir", sb.dir], { cwd: sb.project }).code, 0);
  });
});

beatSweep("should judge a claim handed over on the filesystem's clock, not on its holder's clock running behind", async () => {
  await behindHolderGranted((sb) => {
    const handed = claims(["handover", "./D/", "--to", "H", "--holder", "B", "--dir", sb.dir], { cwd: sb.project });
    assert.is(handed.code, 0, handed.stderr);
  });
});

beatSweep.run();

// 4 ---------------------------------------------------------------------------------------------

const releaseTake = suite("release racing take");

releaseTake("should never leave two holders when a release races two takes of a fresh claim", async () => {
  const sb = sandbox();
  try {
    for (let round = 0; round < 10; round++) {
      const target = `t${round}`;
      const taken = claims(["take", target, "--holder", "A", "--json", "--dir", sb.dir]);
      assert.is(taken.code, 0, taken.stderr);
      const [released, ...takes] = await race(sb, [
        { args: ["release", target, "--holder", "A", "--json", "--dir", sb.dir] },
        { args: ["take", target, "--holder", "B", "--json", "--dir", sb.dir] },
        { args: ["take", target, "--holder", "C", "--json", "--dir", sb.dir] },
      ]);
      const report = describe([released!, ...takes]);

      // A's claim is fresh, so no taker touches it: A's release always finds it and removes it.
      assert.is(released!.code, 0, `A's release must succeed:\n${report}`);
      assert.equal(parse(released!, "release").released, [target]);
      assert.equal(parse(released!, "release").lost, []);

      const takers = ["B", "C"];
      for (const result of takes) assert.ok(result.code === 0 || result.code === 3, `a take must be granted or refused:\n${report}`);
      const winners = takers.filter((_, i) => takes[i]!.code === 0);
      assert.ok(winners.length <= 1, `two takers were granted ${target}:\n${report}`);
      const winner = winners[0];

      const onDisk = claimOnDisk(sb.dir, target);
      if (winner === undefined) {
        assert.is(onDisk, undefined, `A released ${target} and nobody took it, yet a claim file is there:\n${report}`);
      } else {
        assert.ok(onDisk, `${winner} was granted ${target} but there is no claim file:\n${report}`);
        assert.is(onDisk.holder, winner, `${winner} was granted ${target} but the file names ${onDisk.holder}:\n${report}`);
        const granted = parse(takes[takers.indexOf(winner)]!, winner).granted;
        assert.is(granted.length, 1);
        assert.is(granted[0].action, "taken", "the winner took a released target, not A's fresh claim");
        assert.is(granted[0].taken_at, onDisk.taken_at);
      }
      takes.forEach((result, i) => {
        if (result.code !== 3) return;
        const holder = parse(result, takers[i]!).refused[0].holder;
        // Refused while A still held it, or after the winner took it; never by a phantom.
        const allowed = winner === undefined ? ["A"] : ["A", winner];
        assert.ok(allowed.includes(holder), `${takers[i]} was refused naming ${holder}, who never held ${target}:\n${report}`);
      });
    }
    assertNoDebris(sb.dir);
  } finally {
    sb.cleanup();
  }
});

releaseTake("should give a stale claim to exactly one taker when its holder releases it at the same time", async () => {
  // A's claim is stale: B and C may take it over, and A's release races them on the same version.
  // Either A removes it first (A: released; then B and C race for a free target) or a taker
  // replaces it first (that taker: took_over from A; A: lost, naming that taker). Both ways,
  // exactly one taker ends up holding it, and A and the winner agree on what happened.
  const sb = sandbox();
  try {
    for (let round = 0; round < 8; round++) {
      const target = `s${round}`;
      writeClaimFile(sb.dir, `${target}.json`, staleClaim(target, "A"));
      const [released, ...takes] = await race(sb, [
        { args: ["release", target, "--holder", "A", "--json", "--dir", sb.dir] },
        { args: ["take", target, "--holder", "B", "--json", "--dir", sb.dir] },
        { args: ["take", target, "--holder", "C", "--json", "--dir", sb.dir] },
      ]);
      const report = describe([released!, ...takes]);

      const takers = ["B", "C"];
      const winners = takers.filter((_, i) => takes[i]!.code === 0);
      assert.is(winners.length, 1, `exactly one taker must end up with ${target}:\n${report}`);
      const winner = winners[0]!;
      const loser = takes[1 - takers.indexOf(winner)]!;
      assert.is(loser.code, 3, `the other taker must be refused:\n${report}`);
      assert.is(parse(loser, "take").refused[0].holder, winner, `the refused taker must name ${winner}:\n${report}`);

      const granted = parse(takes[takers.indexOf(winner)]!, winner).granted;
      assert.is(granted.length, 1);
      const onDisk = claimOnDisk(sb.dir, target);
      assert.ok(onDisk, `${winner} was granted ${target} but there is no claim file:\n${report}`);
      assert.is(onDisk.holder, winner);
      assert.is(granted[0].taken_at, onDisk.taken_at);

      const release = parse(released!, "release");
      if (released!.code === 0) {
        assert.equal(release.released, [target]);
        assert.is(granted[0].action, "taken", `A released ${target} first, so ${winner} cannot have taken it over from A:\n${report}`);
      } else {
        assert.is(released!.code, 4, `A's release must succeed or report the claim lost:\n${report}`);
        assert.equal(release.released, []);
        assert.equal(release.lost, [target]);
        assert.is(release.lost_to[0].now_held_by?.holder, winner, `A's release must name who holds ${target} now:\n${report}`);
        assert.is(granted[0].action, "took_over", `A lost ${target}, so ${winner} must have taken it over:\n${report}`);
        assert.is(granted[0].previous.holder, "A");
      }
    }
    assertNoDebris(sb.dir);
  } finally {
    sb.cleanup();
  }
});

releaseTake("should stamp a claim granted after waiting on another's claim lock with the time it was granted", async () => {
  // A take judged a stale claim, waited on the claim lock of a release stopped while it removed it,
  // then found the target free and took it, stamped with the time read before the wait: its claim
  // was born seconds old, with a short TTL already stale by its heartbeat.
  const sb = sandbox();
  try {
    assert.is(claims(["take", "x", "--holder", "A", "--ttl", "1", "--dir", sb.dir]).code, 0);
    await new Promise((resolve) => setTimeout(resolve, 2200)); // A's claim is stale
    const slow = spawn(process.execPath, [BIN, "release", "x", "--holder", "A", "--dir", sb.dir], { env: cleanEnv({ CLAIMS_STOP_AT: "before-unlink" }), stdio: "ignore" });
    const released = new Promise((resolve) => slow.on("exit", resolve));
    try {
      await untilStopped(slow);
      const taking = claimsAsync(["take", "x", "--holder", "B", "--ttl", "5", "--json", "--dir", sb.dir]);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const resumedAt = Date.now();
      slow.kill("SIGCONT");
      const taken = await taking;
      await released;
      assert.is(taken.code, 0, taken.stdout + taken.stderr);
      const claim = readJson(join(sb.dir, "x.json")) as { holder: string; heartbeat_at: string; taken_at: string };
      assert.is(claim.holder, "B");
      // Heartbeats are written to the second, rounded up.
      assert.ok(Date.parse(claim.heartbeat_at) >= resumedAt - 1000, `B's claim was stamped ${claim.heartbeat_at}, before the wait ended (${new Date(resumedAt).toISOString()})`);
    } finally {
      slow.kill("SIGKILL");
    }
  } finally {
    sb.cleanup();
  }
});

releaseTake.run();

// 5 ---------------------------------------------------------------------------------------------

const allOrNothing = suite("all-or-nothing take between processes");

allOrNothing("should grant overlapping multi-target takes to exactly one process and leave nothing of the other", async () => {
  // P and Q each take two targets, one of them shared. Both cannot win (the shared one), and both
  // cannot lose either: a process is refused on the shared target only when the other already
  // holds it, and then nothing else stands in the other's way. The loser must leave no claim
  // behind, whatever it managed to create before meeting the shared target. The layouts put the
  // shared target first for both, last for both, or last for one and first for the other (in
  // sorted order), so a take that goes target by target meets it at every point.
  const layouts = [
    { P: ["a", "b"], Q: ["b", "c"] }, // `take a b` vs `take b c`
    { P: ["a", "c"], Q: ["b", "c"] }, // both take their own target first, then meet on c
    { P: ["a", "b"], Q: ["a", "c"] }, // both meet on a first
  ];
  const sb = sandbox();
  try {
    for (let round = 0; round < 15; round++) {
      const layout = layouts[round % layouts.length]!;
      const sets: Record<string, string[]> = {
        P: layout.P.map((t) => `${t}${round}`),
        Q: layout.Q.map((t) => `${t}${round}`),
      };
      const names = [...new Set([...sets.P!, ...sets.Q!])];
      const shared = sets.P!.find((t) => sets.Q!.includes(t))!;
      // Alternate which process is spawned first, and the order the targets are written in.
      const order = round % 2 === 0 ? ["P", "Q"] : ["Q", "P"];
      const jobs: Job[] = order.map((holder) => {
        const targets = round % 4 < 2 ? sets[holder]! : [...sets[holder]!].reverse();
        return { args: ["take", ...targets, "--holder", holder, "--json", "--dir", sb.dir] };
      });
      const results = await race(sb, jobs);
      const report = describe(results);
      const winners = order.filter((_, i) => results[i]!.code === 0);
      assert.is(winners.length, 1, `exactly one of two overlapping takes must be granted:\n${report}`);
      const winner = winners[0]!;
      const loser = order.find((holder) => holder !== winner)!;
      const lost = results[order.indexOf(loser)]!;
      assert.is(lost.code, 3, `the other take must be refused:\n${report}`);
      const refusal = parse(lost, loser);
      assert.equal(refusal.granted, []);
      assert.is(refusal.refused.length, 1);
      assert.is(refusal.refused[0].target, shared);
      assert.is(refusal.refused[0].holder, winner);
      const granted = parse(results[order.indexOf(winner)]!, winner).granted.map((claim: { target: string }) => claim.target);
      assert.equal(granted.sort(), [...sets[winner]!].sort());

      for (const name of names) {
        const onDisk = claimOnDisk(sb.dir, name);
        if (sets[winner]!.includes(name)) {
          assert.ok(onDisk, `${winner} was granted ${name} but there is no claim file:\n${report}`);
          assert.is(onDisk.holder, winner);
        } else {
          assert.is(onDisk, undefined, `the refused ${loser} left a claim on ${name} behind:\n${report}`);
        }
      }
    }
    assertNoDebris(sb.dir);
  } finally {
    sb.cleanup();
  }
});

allOrNothing("should never grant a claim of a take of several targets that lapsed while a later one waited on a claim lock", async () => {
  // T takes a and b (TTL 2) under the take lock, one after the other. b is stale, and a sweep
  // removing it stalled holding its claim lock: T's takeover of b waits for that lock, within the
  // limits a live owner gets, while a, already written fresh, goes past its TTL. T answered
  // granted for both, a stale as answered, and the next take of a took it over at once.
  const sb = sandbox();
  try {
    writeClaimFile(sb.dir, "b.json", staleClaim("b", "old"));
    const sweeping = await stoppedAt(["sweep", "--json", "--dir", sb.dir], sb.project, "lock-won");
    try {
      const taking = claimsAsync(["take", "a", "b", "--holder", "T", "--ttl", "2", "--json", "--dir", sb.dir], { cwd: sb.project });
      await new Promise((resolve) => setTimeout(resolve, 4000));
      sweeping.child.kill("SIGCONT");
      assert.is(await sweeping.exited, 0, sweeping.stdout());
      const taken = await taking;
      const other = claims(["take", "a", "--holder", "X", "--json", "--dir", sb.dir], { cwd: sb.project });
      const report = `T's take ${taken.code}: ${taken.stdout}${taken.stderr}\nX's take ${other.code}: ${other.stdout}${other.stderr}`;
      assert.is(taken.code, 0, report);
      assert.equal(parse(taken, "T").granted.map((claim: { target: string }) => claim.target), ["a", "b"], report);
      assert.is(other.code, 3, `T was granted a, and X took it over at once:\n${report}`);
      assert.is(claimOnDisk(sb.dir, "a").holder, "T");
    } finally {
      sweeping.child.kill("SIGKILL");
    }
  } finally {
    sb.cleanup();
  }
});

allOrNothing("should give back what a take of several targets took before a later claim lock stayed busy", async () => {
  // T takes a and b. b is stale, and a sweep removing it stopped for good holding its claim lock:
  // T's takeover of b gives up once the lock's owner seems stopped, and the take fails. a, written
  // before, stayed T's: T was told the take failed, and held a, unknowing, until its TTL.
  const sb = sandbox();
  try {
    writeClaimFile(sb.dir, "b.json", staleClaim("b", "old"));
    const sweeping = await stoppedAt(["sweep", "--json", "--dir", sb.dir], sb.project, "lock-won");
    try {
      const taken = await claimsAsync(["take", "a", "b", "--holder", "T", "--json", "--dir", sb.dir], { cwd: sb.project });
      const other = claims(["take", "a", "--holder", "X", "--json", "--dir", sb.dir], { cwd: sb.project });
      const report = `T's take ${taken.code}: ${taken.stdout}${taken.stderr}\nX's take ${other.code}: ${other.stdout}${other.stderr}`;
      assert.is.not(taken.code, 0, report);
      assert.match(taken.stderr, /seems stopped/, report);
      assert.is(other.code, 0, `T's take failed, yet T still held a:\n${report}`);
      assert.is(claimOnDisk(sb.dir, "a").holder, "X");
    } finally {
      sweeping.child.kill("SIGKILL");
    }
  } finally {
    sb.cleanup();
  }
});

allOrNothing("should give back what a take of several targets wrote when a signal ends it midway, and exit as killed by it", async () => {
  // T's take of a, b and c stops (SIGSTOP) once a's claim is linked; the signal comes meanwhile and
  // is delivered as it goes on, as Ctrl-C or a supervisor's SIGTERM reach a take of many targets.
  // T took all or nothing: killed there, it left a held for its TTL, and no session could take it.
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    const sb = sandbox();
    try {
      const taking = await stoppedAt(["take", "a", "b", "c", "--holder", "T", "--json", "--dir", sb.dir], sb.project, "after-link");
      try {
        assert.ok(existsSync(join(sb.dir, "a.json")), "stopped with a linked");
        taking.child.kill(signal);
        taking.child.kill("SIGCONT");
        const exit = await new Promise<string>((resolve) => taking.child.once("close", (status, killed) => resolve(`${status ?? ""}${killed ?? ""}`)));
        assert.ok(exit === signal || exit === String(code), `ended by ${exit}`);
        assert.is(taking.stdout(), "", "no grant was told");
        const other = claims(["take", "a", "b", "c", "--holder", "X", "--json", "--dir", sb.dir], { cwd: sb.project });
        assert.is(other.code, 0, `after T's ${signal}: ${other.stdout}${other.stderr}`);
        assert.equal(readdirSync(sb.dir).filter((name) => name.startsWith(".held-")).length, 3, "X's markers alone: T's were given back with its claims");
      } finally {
        taking.child.kill("SIGKILL");
      }
    } finally {
      sb.cleanup();
    }
  }
});

allOrNothing("should give back what a take of several targets wrote when it was stopped past the take lock's hold limit", async () => {
  // T's take of a and b stops (SIGSTOP, a frozen VM) once a's claim is linked, for longer than a
  // lock may be held unrenewed. Let go on, it must not write b (a waiter on another machine may
  // have passed over its take lock), and fails. a went back only under the take lock, whose every
  // write now fails the same way: T, told its take failed, held a until its TTL.
  const sb = sandbox();
  try {
    const taking = await stoppedAt(["take", "a", "b", "--holder", "T", "--json", "--dir", sb.dir], sb.project, "after-link");
    try {
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      taking.child.kill("SIGCONT");
      const code = await taking.exited;
      assert.is.not(code, 0);
      const other = claims(["take", "a", "b", "--holder", "X", "--json", "--dir", sb.dir], { cwd: sb.project });
      assert.is(other.code, 0, `T's take failed (exit ${code}), yet: ${other.stdout}${other.stderr}`);
      assert.is(claimOnDisk(sb.dir, "a").holder, "X");
    } finally {
      taking.child.kill("SIGKILL");
    }
  } finally {
    sb.cleanup();
  }
});

allOrNothing("should give back an interrupted take's grants without undoing what the holder had before it", async () => {
  // A switch to shared, taken with a key, goes back to exclusive (the key's record spread into the
  // switch back made it replay-conflict, and it stayed shared: a second shared holder got in); a
  // replay of a key's first answer gives nothing back (it took nothing, and that answer was told);
  // an interrupted take with --queue --partial withdraws the interest it queued.
  const sb = sandbox();
  const run = (args: string[]) => claims([...args, "--json", "--dir", sb.dir], { cwd: sb.project });
  const interrupted = async (args: string[], stop: string) => {
    const taking = await stoppedAt([...args, "--json", "--dir", sb.dir], sb.project, stop);
    try {
      taking.child.kill("SIGINT");
      taking.child.kill("SIGCONT");
      await taking.exited;
      assert.is(taking.stdout(), "", `${args.join(" ")}: no answer was told`);
    } finally {
      taking.child.kill("SIGKILL");
    }
  };
  try {
    assert.is(run(["take", "a", "--holder", "alice"]).code, 0);
    await interrupted(["take", "a", "--shared", "--idempotency-key", "k4", "--holder", "alice"], "after-link");
    assert.is(claimOnDisk(sb.dir, "a").holder, "alice", "exclusive again, as before the switch");
    assert.is(run(["take", "a", "--shared", "--holder", "bob"]).code, 3, "no second holder beside alice's exclusive claim");

    assert.is(run(["take", "b", "--idempotency-key", "k1", "--holder", "alice"]).code, 0);
    await interrupted(["take", "b", "--idempotency-key", "k1", "--holder", "alice"], "lock-won");
    assert.is(run(["take", "b", "--holder", "bob"]).code, 3, "the replay gave nothing back: alice was told she holds b");

    assert.is(run(["take", "c", "--holder", "carol"]).code, 0);
    await interrupted(["take", "d", "c", "--queue", "--partial", "--holder", "alice"], "after-link");
    assert.is(run(["take", "d", "--holder", "bob"]).code, 0, "d was given back");
    assert.is(run(["release", "c", "--holder", "carol"]).code, 0);
    assert.is(run(["take", "c", "--holder", "bob"]).code, 0, "alice's interest in c was withdrawn: c was not granted to her");
  } finally {
    sb.cleanup();
  }
});

allOrNothing("should give back what a --partial take made in one claims directory when a signal comes as it takes in another", () => {
  // root.ts is claimed in the default directory, pkg/x.ts in the one pkg/.claims names, one part
  // after the other; the signal comes as the second part links its claim (a module preloaded into
  // the real process sends it). The second part gives back its own; the first part's stayed held.
  const sb = sandbox();
  try {
    const env = { HOME: sb.root, XDG_STATE_HOME: join(sb.root, "state") };
    mkdirSync(join(sb.project, "pkg"), { recursive: true });
    writeFileSync(join(sb.project, "pkg", ".claims"), JSON.stringify({ dir: "../../pkg-claims" }));
    writeFileSync(join(sb.project, "root.ts"), "");
    writeFileSync(join(sb.project, "pkg", "x.ts"), "");
    const preload = join(sb.root, "signal-at-second-link.cjs");
    writeFileSync(
      preload,
      `const fs = require("node:fs"); const link = fs.linkSync; let links = 0;
fs.linkSync = function (from, to) { const done = link.apply(this, arguments); if (String(to).endsWith(".json") && ++links === 2) process.kill(process.pid, "SIGINT"); return done; };`,
    );
    const taken = spawnSync(process.execPath, [BIN, "take", "--partial", "root.ts", "pkg/x.ts", "--holder", "alice", "--json"], {
      cwd: sb.project,
      env: cleanEnv({ ...env, NODE_OPTIONS: `--require=${preload}` }),
      encoding: "utf8",
    });
    assert.is(taken.signal ?? String(taken.status), "SIGINT", `${taken.stdout}${taken.stderr}`);
    for (const file of ["root.ts", "pkg/x.ts"]) assert.is(claims(["take", file, "--holder", "bob"], { cwd: sb.project, env }).code, 0, `${file} was given back`);
  } finally {
    sb.cleanup();
  }
});

allOrNothing.run();

// 6 ---------------------------------------------------------------------------------------------

const crashes = suite("crashed writers");

const CRASHER = `
const { take, beat, release } = await import(process.env.CLAIMS_LIB);
const dir = process.env.CLAIMS_TEST_DIR;
const holder = process.env.CLAIMS_TEST_HOLDER;
const targets = ["t0", "t1", "t2", "t3"];
for (let i = 0; ; i++) {
  const pair = [targets[i % 4], targets[(i + 1) % 4]];
  await take({ dir, holder, targets: pair, ttl: 1, purpose: "crash loop " + i });
  await beat({ dir, holder, targets: [pair[0]] });
  await take({ dir, holder, targets: [pair[1]], ttl: 1 });
  if (i % 3 !== 0) await release({ dir, holder, targets: [pair[1]] });
  process.stdout.write(".");
}
`;

/**
 * Runs the take/beat/release loop as its own process and SIGKILLs it once it has done `marks`
 * iterations, or (inLock) at the first lock it is seen holding after that, to die mid-change.
 */
function runAndKill(sb: Sandbox, holder: string, marks: number, inLock: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    mkdirSync(sb.dir, { recursive: true, mode: 0o700 });
    const child = spawn(process.execPath, ["--input-type=module", "-e", CRASHER], {
      cwd: sb.project,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME ?? "/root",
        CLAIMS_LIB: new URL("index.js", DIST_URL).href,
        CLAIMS_TEST_DIR: sb.dir,
        CLAIMS_TEST_HOLDER: holder,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let seen = 0;
    let stderr = "";
    const watcher = watch(sb.dir, (_event, name) => {
      if (!inLock || seen < marks || !name?.startsWith(".lock-")) return;
      if (readLockRecord(join(sb.dir, name))?.pid === child.pid) child.kill("SIGKILL");
    });
    child.stdout.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      // Without a lock sighting, kill wherever it is a few iterations later.
      if (seen >= marks + (inLock ? 20 : 0)) child.kill("SIGKILL");
    });
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      watcher.close();
      if (signal === "SIGKILL") resolve(child.pid!);
      else reject(new Error(`the loop exited by itself (code ${code}) instead of being killed: ${stderr}`));
    });
  });
}

crashes("should leave only whole claims and removable debris when writers are SIGKILLed mid-loop", async () => {
  const sb = sandbox();
  try {
    const targets = ["t0", "t1", "t2", "t3"];
    const killed: number[] = [];
    // Kill at a different point each round; two loops at a time so they also meet each other's locks.
    for (let round = 0; round < 4; round++) {
      const inLock = round % 2 === 1;
      killed.push(...(await Promise.all([runAndKill(sb, "crasher", 1 + round * 7, inLock), runAndKill(sb, "crasher", 3 + round * 5, inLock)])));
    }

    // No reader may ever see a partial claim: every claim file is a whole five-field claim.
    const entries = readdirSync(sb.dir);
    for (const name of entries.filter((n) => n.endsWith(".json") && !n.startsWith("."))) {
      const claim = JSON.parse(readFileSync(join(sb.dir, name), "utf8"));
      for (const field of CLAIM_FIELDS) assert.type(claim[field], "string", `${name}: field ${field}`);
      assert.is(claim.holder, "crasher");
      assert.is(`${claim.target}.json`, name);
    }

    const swept = claims(["sweep", "--json", "--dir", sb.dir]);
    assert.is(swept.code, 0, swept.stderr);
    const sweepResult = parse(swept, "sweep");
    assert.ok(Array.isArray(sweepResult.removed));

    // Temp files are only ever written by the dead loops: all of them are debris and must be gone.
    const afterSweep = readdirSync(sb.dir);
    assert.equal(afterSweep.filter((n) => n.startsWith(".tmp-")), [], "sweep must remove the temp files of killed writers");
    // A killed writer's lock may stay only while the exact claim version it guards is still on disk
    // (the lock chain for that version must have no gap); any other lock is debris.
    for (const name of afterSweep.filter((n) => n.startsWith(".lock-"))) {
      const record = readLockRecord(join(sb.dir, name));
      assert.ok(record, `${name} is not a readable lock`);
      assert.ok(killed.includes(record!.pid), `${name} belongs to ${record!.pid}, which is not one of the killed loops`);
      const current = versionOf(readSnapshot(join(sb.dir, record!.claim)));
      assert.is(current, record!.version, `sweep left ${name}, a lock of a claim version that no longer exists`);
    }

    // Once the dead loops' claims are stale (ttl 1; judged an hour on), another holder gets every
    // target in one all-or-nothing take: no dead lock wedges a claim.
    const later = await take({ dir: sb.dir, holder: "survivor", targets, now: Date.now() + HOUR });
    assert.equal(later.refused, []);
    assert.equal(later.granted.map((claim) => claim.target).sort(), targets);
    for (const claim of later.granted) {
      assert.ok(claim.action === "taken" || claim.action === "took_over", `${claim.target}: ${claim.action}`);
      if (claim.action === "took_over") assert.is(claim.previous?.holder, "crasher");
    }

    // Now every version a dead loop locked is gone, so a sweep leaves nothing but the survivor's claims.
    const again = claims(["sweep", "--json", "--dir", sb.dir]);
    assert.is(again.code, 0, again.stderr);
    assert.equal(parse(again, "sweep").removed, [], "the survivor's claims are fresh");
    const left = readdirSync(sb.dir);
    assert.equal(left.filter((n) => n.startsWith(".tmp-") || n.startsWith(".lock-")), [], "no debris may outlive the versions it locked");
    assert.equal(left.filter((n) => n.endsWith(".json") && !n.startsWith(".")).sort(), targets.map((t) => `${t}.json`));
    for (const target of targets) assert.is(claimOnDisk(sb.dir, target).holder, "survivor");
  } finally {
    sb.cleanup();
  }
});

crashes.run();
