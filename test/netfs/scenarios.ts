// The guarantee across machines, on a real network filesystem mounted twice (servers.ts): takers
// on both mounts and on two "machines" (machines.ts), one winner per race, a lock held on one
// machine holding off the other, a crashed machine's lock freed after its lease, a take through
// one mount seen through the other at once, and clocks skewed by minutes neither stealing nor
// being robbed. Each filesystem's file (*.netfs.ts) runs these against its own mounts.
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LOCK_LEASE_MS } from "../../src/os/lease.js";
import { BIN, cleanEnv } from "../helpers.js";
import { holdTakeLock, otherMachine, race, run, thisMachine, type Job, type Machine } from "./machines.js";
import { missingPrerequisite, type NetworkMounts } from "./servers.js";

const ROUNDS = Number(process.env.NETFS_ROUNDS ?? 6);
const TAKERS = 16;

interface Context {
  mounts: NetworkMounts;
  here: Machine;
  there: Machine;
  round: number;
}

/** One figure per scenario, printed at the end for docs/RELIABILITY.md. */
export const figures: string[] = [];

export function netfsSuite(name: string, start: () => Promise<NetworkMounts>): void {
  const missing = missingPrerequisite();
  const test = suite<Context>(`claims on ${name}, two mounts, two machines`);
  if (missing) {
    console.log(`\n  SKIPPED: the ${name} suite needs root and /dev/fuse on Linux (${missing}).\n`);
    test.skip("should run on a real network filesystem", () => undefined);
    test.run();
    return;
  }
  test.before(async (context) => {
    try {
      context.mounts = await start();
    } catch (error) {
      // uvu reports a failing hook as nothing at all: say it, and fail every test below.
      console.error(`\n  could not set up ${name}: ${(error as Error).message}\n`);
      throw error;
    }
    context.here = thisMachine();
    context.there = otherMachine(context.mounts.root);
    context.round = 0;
  });
  test.after((context) => {
    context.mounts?.stop();
    const mine = figures.filter((line) => line.startsWith(`${name}:`));
    if (mine.length > 0) console.log(`\n  figures:\n${mine.map((line) => `    ${line}`).join("\n")}\n`);
  });

  const dirOf = (context: Context, i: number) => (i % 2 === 0 ? context.mounts.a : context.mounts.b);
  const machineOf = (context: Context, i: number) => (i % 4 < 2 ? context.here : context.there);
  const takers = (context: Context, target: string): Job[] =>
    Array.from({ length: TAKERS }, (_, i) => ({
      machine: machineOf(context, i),
      args: ["take", target, "--dir", dirOf(context, i), "--holder", `taker-${i}`, "--json"],
    }));

  const assertOneWinner = (results: Array<{ code: number; stdout: string; stderr: string }>, what: string) => {
    const codes = results.map((result) => result.code);
    const detail = results.map((r, i) => `#${i} exit ${r.code} ${r.stderr.trim()}`).join("\n");
    assert.is(codes.filter((code) => code === 0).length, 1, `${what}: one winner\n${detail}`);
    assert.is(codes.filter((code) => code === 3).length, TAKERS - 1, `${what}: every other taker refused\n${detail}`);
    return codes.indexOf(0);
  };

  test(`should give a free target to one of ${TAKERS} takers on two mounts and two machines, ${ROUNDS} rounds`, async (context) => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const target = `free-${round}`;
      const winner = assertOneWinner(await race(context.mounts.root, takers(context, target)), `free round ${round}`);
      const onDisk = JSON.parse(readFileSync(join(context.mounts.b, `${target}.json`), "utf8"));
      assert.is(onDisk.holder, `taker-${winner}`);
    }
    figures.push(`${name}: free races, ${ROUNDS} rounds x ${TAKERS} takers: one winner every round`);
  });

  test(`should give a stale claim to one of ${TAKERS} takers on two mounts and two machines, ${ROUNDS} rounds`, async (context) => {
    const tokens = new Set<number>();
    let logged = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const target = `stale-${round}`;
      plantStale(context.mounts.a, target);
      const results = await race(context.mounts.root, takers(context, target));
      const winner = assertOneWinner(results, `stale round ${round}`);
      const granted = JSON.parse((results[winner] as { stdout: string }).stdout).granted[0];
      assert.is(granted.action, "took_over");
      assert.is(granted.previous?.holder, "ghost");
      const onDisk = JSON.parse(readFileSync(join(context.mounts.a, `${target}.json`), "utf8"));
      assert.is(onDisk.holder, `taker-${winner}`);
      assert.not.ok(tokens.has(onDisk.token * 1000 + round), "a token issued twice");
      tokens.add(onDisk.token * 1000 + round);
      const takeovers = logLines(context.mounts.b).filter((line) => line.event === "takeover" && line.target === target);
      // The record is best effort: appends from two machines can overwrite one another on a network
      // filesystem (O_APPEND is atomic per client), so a line may be lost, never doubled.
      assert.ok(takeovers.length <= 1, `never two takeovers in the log, round ${round}`);
      logged += takeovers.length;
    }
    figures.push(`${name}: stale takeovers, ${ROUNDS} rounds x ${TAKERS} takers: one winner every round, ${logged} of ${ROUNDS} takeovers in the log`);
  });

  test("should hold a take on this machine off while a live process on another machine holds the take lock", async (context) => {
    const holder = await holdTakeLock(context.there, context.mounts.b, context.mounts.root, 4000);
    const started = performance.now();
    const taken = await run(context.here, ["take", "after-the-lock", "--dir", context.mounts.a, "--holder", "here"]);
    const waited = performance.now() - started;
    assert.is(taken.code, 0, taken.stderr);
    assert.is(await holder.done, 0);
    assert.ok(waited > 2500, `the take went through after ${waited} ms while the lock was held`);
    figures.push(`${name}: a take waited ${(waited / 1000).toFixed(1)} s for a live lock holder on another machine (held 4 s)`);
  });

  test("should free the take lock of a crashed machine after its lease, once", async (context) => {
    const holder = await holdTakeLock(context.there, context.mounts.b, context.mounts.root, 0);
    process.kill(holder.pid, "SIGKILL");
    await holder.done;
    const [first, second] = await Promise.all([
      run(context.here, ["take", "after-a-crash", "--dir", context.mounts.a, "--holder", "here", "--json"]),
      run(context.here, ["take", "after-a-crash-2", "--dir", context.mounts.b, "--holder", "here", "--json"]),
    ]);
    assert.is(first.code, 0, first.stderr);
    assert.is(second.code, 0, second.stderr);
    const slowest = Math.max(first.ms, second.ms);
    assert.ok(first.ms >= LOCK_LEASE_MS - 1000, `freed after ${first.ms} ms, before the lease of ${LOCK_LEASE_MS} ms`);
    assert.ok(slowest < LOCK_LEASE_MS + 15_000, `freed after ${slowest} ms`);
    const next = await run(context.there, ["take", "after-a-crash-3", "--dir", context.mounts.b, "--holder", "there"]);
    assert.is(next.code, 0, next.stderr);
    assert.ok(next.ms < 10_000, `the next take waited again (${next.ms} ms)`);
    figures.push(`${name}: a crashed machine's take lock held takes off for ${(first.ms / 1000).toFixed(1)} s (lease ${LOCK_LEASE_MS / 1000} s); the next take ${(next.ms / 1000).toFixed(1)} s`);
  });

  test("should let a take over a stale claim through once a takeover of it crashed inside on another machine, and the takes after it at once", async (context) => {
    // Killed holding the take lock and the stale claim's lock, its replacement written and not yet renamed.
    plantStale(context.mounts.b, "crashed-takeover");
    const crashed = await run(context.there, ["take", "crashed-takeover", "--dir", context.mounts.b, "--holder", "crashed"], { CLAIMS_CRASH_AT: "before-rename" });
    assert.ok(crashed.code === -1 || crashed.code === 128 + 9, `the takeover was to be killed inside: exit ${crashed.code} ${crashed.stderr}`);
    // Both locks are waited out, a lease each; the take lock is kept alive meanwhile, so the takeover lands.
    const first = await run(context.here, ["take", "crashed-takeover", "--dir", context.mounts.a, "--holder", "here", "--json"]);
    assert.is(first.code, 0, first.stderr);
    assert.is(JSON.parse(first.stdout).granted[0].action, "took_over");
    assert.ok(first.ms >= LOCK_LEASE_MS - 1000, `taken over after ${first.ms} ms, before the lease of ${LOCK_LEASE_MS} ms`);
    assert.is(JSON.parse(readFileSync(join(context.mounts.b, "crashed-takeover.json"), "utf8")).holder, "here");
    const next = await run(context.there, ["take", "after-the-crashed-takeover", "--dir", context.mounts.b, "--holder", "there"]);
    assert.is(next.code, 0, next.stderr);
    assert.ok(next.ms < 10_000, `the next take waited again (${next.ms} ms)`);
    figures.push(`${name}: a takeover crashed inside on another machine held its target off for ${(first.ms / 1000).toFixed(1)} s (two leases of ${LOCK_LEASE_MS / 1000} s at most); the next take ${(next.ms / 1000).toFixed(1)} s`);
  });

  test("should show a take through one mount to check and status through the other at once", async (context) => {
    for (let i = 0; i < 5; i += 1) {
      const target = `seen-${i}`;
      // The other mount looks first, so any cache it keeps holds "free".
      assert.is((await run(context.there, ["check", target, "--dir", context.mounts.b, "--holder", "there"])).code, 0);
      assert.is((await run(context.here, ["take", target, "--dir", context.mounts.a, "--holder", "here"])).code, 0);
      const checked = await run(context.there, ["check", target, "--dir", context.mounts.b, "--holder", "there", "--json"]);
      assert.is(checked.code, 3, `check through the other mount said free right after the take: ${checked.stdout}`);
      const status = JSON.parse((await run(context.there, ["status", "--dir", context.mounts.b, "--json"])).stdout);
      assert.ok(status.claims.some((claim: { target: string }) => claim.target === target), "status through the other mount");
      assert.is((await run(context.here, ["release", target, "--dir", context.mounts.a, "--holder", "here"])).code, 0);
      assert.is((await run(context.there, ["check", target, "--dir", context.mounts.b, "--holder", "there"])).code, 0, "released, seen at once");
    }
    figures.push(`${name}: a take through one mount was seen by check and status through the other at once, 5 of 5`);
  });

  test("should not let a holder whose clock is 2 minutes behind be robbed, nor a taker 10 minutes ahead steal", async (context) => {
    const behind = otherMachine(context.mounts.root, -120);
    const ahead = thisMachine(600);
    const held = await run(behind, ["take", "skewed", "--dir", context.mounts.b, "--holder", "behind", "--ttl", "60", "--json"]);
    assert.is(held.code, 0, held.stderr);
    const robbed = await run(context.here, ["take", "skewed", "--dir", context.mounts.a, "--holder", "honest", "--ttl", "60", "--json"]);
    assert.is(robbed.code, 3, `an honest taker took over the fresh claim of a holder 2 minutes behind: ${robbed.stdout}`);
    const stolen = await run(ahead, ["take", "skewed", "--dir", context.mounts.a, "--holder", "ahead", "--ttl", "60", "--json"]);
    assert.is(stolen.code, 3, `a taker 10 minutes ahead took over a fresh claim: ${stolen.stdout}`);
    const status = JSON.parse((await run(context.here, ["status", "skewed", "--dir", context.mounts.a, "--json"])).stdout);
    const claim = status.claims.find((entry: { target: string }) => entry.target === "skewed");
    assert.is(claim.stale, false);
    assert.ok(Math.abs(claim.heartbeat_age_seconds) <= 3, `the heartbeat reads ${claim.heartbeat_age_seconds} s old on an honest clock`);
    const beat = await run(behind, ["beat", "skewed", "--dir", context.mounts.b, "--holder", "behind"]);
    assert.is(beat.code, 0, beat.stderr);
    // The honest taker of a claim that really went stale gets it, and one ahead of time does not.
    plantStale(context.mounts.a, "really-stale", 90);
    const early = await run(ahead, ["check", "really-stale", "--dir", context.mounts.a, "--holder", "ahead"]);
    assert.is(early.code, 3, "a 90 s old claim with a TTL of 1800 s is fresh on every clock");
    figures.push(`${name}: holders 2 min behind and takers 10 min ahead: no theft, heartbeat read ${claim.heartbeat_age_seconds} s old`);
  });

  test("should not let a `claims mcp` server 10 minutes ahead, started before its claims directory was mounted, steal a fresh claim", async (context) => {
    // The server judges by the filesystem's clock once its directory is on the network filesystem,
    // however it was when the server first looked (a server started at login, the mount made later).
    const mountPoint = join(context.mounts.root, "late");
    mkdirSync(mountPoint);
    // The shared directory as the late mount shows it (GlusterFS's is a directory of the volume).
    const late = context.mounts.kind === "gluster" ? join(mountPoint, "claims") : mountPoint;
    const command = thisMachine(600).wrap([process.execPath, BIN, "mcp", "--dir", late, "--holder", "ahead"]);
    const transport = new StdioClientTransport({ command: command[0] as string, args: command.slice(1), env: cleanEnv({ FAKETIME_DONT_FAKE_MONOTONIC: "1" }) as Record<string, string>, stderr: "pipe" });
    const client = new Client({ name: "late-mount", version: "1.0.0" });
    await client.connect(transport);
    try {
      const before = (await client.callTool({ name: "get_status", arguments: {} })) as { isError?: boolean };
      assert.is(before.isError, undefined, "the server looked at its directory, not yet mounted");
      context.mounts.mountAnother(mountPoint);
      const held = await run(context.here, ["take", "late-skewed", "--dir", context.mounts.a, "--holder", "honest", "--ttl", "60", "--json"]);
      assert.is(held.code, 0, held.stderr);
      // (A FUSE mount may answer for its directory a moment after the mount command returns.)
      for (let tries = 0; !(existsSync(late) && readdirSync(late).some((entry) => entry.startsWith("late-skewed"))); tries++) {
        assert.ok(tries < 200, "the claim taken through the first mount is seen through the late one");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const stolen = (await client.callTool({ name: "claim", arguments: { paths: ["late-skewed"] } })) as { structuredContent?: { granted?: boolean } };
      assert.is(stolen.structuredContent?.granted, false, `the server 10 minutes ahead took over a fresh claim: ${JSON.stringify(stolen.structuredContent)}`);
    } finally {
      await client.close();
    }
    figures.push(`${name}: a claims mcp server 10 min ahead, its directory mounted after it started, refused a fresh claim`);
  });

  test("should be trusted by doctor through both mounts, and failed where a cache would hide a claim", async (context) => {
    const doctor = await run(context.here, ["doctor", "--dir", context.mounts.a, "--via", context.mounts.b, "--json"]);
    const result = JSON.parse(doctor.stdout);
    const failed = result.checks.filter((check: { status: string }) => check.status === "fail");
    assert.equal(failed, [], doctor.stdout);
    assert.is(result.trusted, true);
    const names = result.checks.map((check: { check: string }) => check.check);
    for (const expected of ["filesystem", "caches", "lock of another machine", "seen through the other mount", "lock across mounts"]) assert.ok(names.includes(expected), expected);
    if (context.mounts.kind === "sshfs") {
      // Mounted with a relative mount point: the sshfs process's command line names it as typed.
      context.mounts.mountAnother("relative");
      const relative = JSON.parse((await run(context.here, ["doctor", "--dir", join(context.mounts.root, "relative"), "--json"])).stdout);
      const caches = relative.checks.find((check: { check: string }) => check.check === "caches");
      assert.is.not(caches.status, "fail", JSON.stringify(relative.checks));
    }
    let cached: string;
    if (context.mounts.kind === "sshfs") {
      cached = join(context.mounts.root, "cached");
      context.mounts.mountAnother(cached, []);
    } else {
      cached = context.mounts.a;
      context.mounts.setVolumeOption?.("performance.stat-prefetch", "on");
    }
    try {
      const untrusted = JSON.parse((await run(context.here, ["doctor", "--dir", cached, "--json"])).stdout);
      const caches = untrusted.checks.find((check: { check: string }) => check.check === "caches");
      assert.is(caches.status, "fail", JSON.stringify(untrusted.checks));
      assert.match(caches.detail, context.mounts.kind === "sshfs" ? /dir_cache=no/ : /performance\.stat-prefetch off/);
      assert.is(untrusted.trusted, false);
    } finally {
      context.mounts.setVolumeOption?.("performance.stat-prefetch", "off");
    }
    figures.push(`${name}: doctor --via trusted the directory (${result.checks.length} checks) and failed a mount with client caches`);
  });

  test.run();
}

/** A claim of "ghost" whose heartbeat and file are `ageSeconds` old (2 h by default). */
function plantStale(dir: string, target: string, ageSeconds = 7200): void {
  const at = new Date(Math.floor(Date.now() / 1000 - ageSeconds) * 1000).toISOString().replace(".000Z", "Z");
  const path = join(dir, `${target}.json`);
  writeFileSync(path, `${JSON.stringify({ target, holder: "ghost", purpose: "left behind", taken_at: at, heartbeat_at: at })}\n`);
  const when = Date.now() / 1000 - ageSeconds;
  utimesSync(path, when, when);
}

function logLines(dir: string): Array<{ event: string; target: string }> {
  const lines: Array<{ event: string; target: string }> = [];
  for (const name of readdirSync(dir).filter((entry) => entry.startsWith("log"))) {
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      try {
        lines.push(JSON.parse(line));
      } catch {
        // a torn or empty line
      }
    }
  }
  return lines;
}
