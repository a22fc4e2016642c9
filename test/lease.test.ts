// A lease lasts at least its TTL: writers round heartbeat_at up to the whole second, so no claim is
// judged stale before its holder's full TTL has passed, whichever verb wrote it. And the lease
// starts when the claim is written, with a warning when the call itself took longer than the TTL.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { beat } from "../src/commands/beat.js";
import { handover } from "../src/commands/handover.js";
import { release } from "../src/commands/release.js";
import { status } from "../src/commands/status.js";
import { take } from "../src/commands/take.js";
import { openContext, othersFreshness, ownFreshness } from "../src/protocol/context.js";
import { claims, claimsAsync, freshLibraryContext, ROOT, SECOND, T0, type LibraryContext } from "./helpers.js";

const WHOLE_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const Lead = suite<LibraryContext>("a clock read ahead of the filesystem's, within the tolerance left uncorrected");
Lead.before.each(freshLibraryContext);
Lead.after.each((context) => context.box.cleanup());

Lead("should find another's claim stale no sooner for its lead, and its own lapsed no later", ({ opts }) => {
  // A context on the real clock whose probe read this process 0.4 s ahead (ClockReading.aheadMs):
  // a claim whose heartbeat and file are 1800.2 s old is stale by this clock, fresh by the filesystem's.
  const context = openContext({ dir: opts.dir, cwd: opts.cwd, env: opts.env });
  context.clockAheadMs = 400;
  context.clock = { onClock: true, measured: true };
  context.clockReadAt = Date.now(); // (read just now: not read again)
  const then = Date.now() - 1_800_200;
  const claim = { target: "x", holder: "a", purpose: "", taken_at: new Date(then).toISOString().replace(/\.\d+Z$/, "Z"), heartbeat_at: new Date(then).toISOString().replace(/\.\d+Z$/, "Z") };
  assert.is(othersFreshness(claim, then, context).stale, false, "another's claim: held, by the filesystem's clock");
  assert.is(ownFreshness(claim, then, context).stale, true, "its own: lapsed, as a reader on the filesystem's clock may already have found it stale");
});

const FullTtl = suite<LibraryContext>("a lease lasts its full TTL");
FullTtl.before.each(freshLibraryContext);
FullTtl.after.each((context) => context.box.cleanup());

FullTtl("should refuse another holder until the full TTL after a take late in a second has passed", async ({ opts }) => {
  const taken = await take({ ...opts, targets: ["x"], holder: "a", ttl: 1, now: T0 + 999 });
  assert.is(taken.granted.length, 1);
  const early = await take({ ...opts, targets: ["x"], holder: "b", ttl: 1, now: T0 + 999 + SECOND - 1 });
  assert.equal(early.granted, []);
  assert.is(early.refused[0]?.holder, "a");
});

FullTtl("should write whole seconds, rounded up", async ({ opts }) => {
  const [claim] = (await take({ ...opts, targets: ["x"], holder: "a", ttl: 1, now: T0 + 1 })).granted;
  assert.match(claim?.taken_at as string, WHOLE_SECONDS);
  assert.is(Date.parse(claim?.heartbeat_at as string), T0 + SECOND);
  assert.is(claim?.taken_at, claim?.heartbeat_at);
});

FullTtl("should keep a heartbeat on the second as it is", async ({ opts }) => {
  const [claim] = (await take({ ...opts, targets: ["x"], holder: "a", ttl: 1, now: T0 })).granted;
  assert.is(Date.parse(claim?.heartbeat_at as string), T0);
});

FullTtl("should let another holder take over once the TTL has passed, at most a second late", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", ttl: 1, now: T0 + 1 });
  const taken = await take({ ...opts, targets: ["x"], holder: "b", ttl: 1, now: T0 + 1 + 2 * SECOND });
  assert.is(taken.granted[0]?.action, "took_over");
});

FullTtl("should give a re-take the full TTL again", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", ttl: 1, now: T0 });
  const again = await take({ ...opts, targets: ["x"], holder: "a", ttl: 1, now: T0 + 999 });
  assert.is(again.granted[0]?.action, "retaken");
  const early = await take({ ...opts, targets: ["x"], holder: "b", ttl: 1, now: T0 + 999 + SECOND - 1 });
  assert.equal(early.granted, []);
});

FullTtl("should give a beat the full TTL again", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", ttl: 1, now: T0 });
  const renewed = beat({ ...opts, targets: ["x"], holder: "a", ttl: 1, now: T0 + 999 });
  assert.equal(renewed.renewed, ["x"]);
  const early = await take({ ...opts, targets: ["x"], holder: "b", ttl: 1, now: T0 + 999 + SECOND - 1 });
  assert.equal(early.granted, []);
});

FullTtl("should give a claim granted from the queue the full TTL", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  await take({ ...opts, targets: ["x"], holder: "b", ttl: 1, queue: true, now: T0 });
  const released = release({ ...opts, targets: ["x"], holder: "a", now: T0 + 999 });
  assert.equal(released.handed_to, [{ target: "x", holder: "b" }]);
  const early = await take({ ...opts, targets: ["x"], holder: "c", ttl: 1, now: T0 + 999 + SECOND - 1 });
  assert.equal(early.granted, []);
  assert.is(early.refused[0]?.holder, "b");
});

FullTtl("should give a claim handed over the full TTL", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", ttl: 1, now: T0 });
  await handover({ ...opts, target: "x", holder: "a", to: "b", ttl: 1, now: T0 + 999 });
  const early = await take({ ...opts, targets: ["x"], holder: "c", ttl: 1, now: T0 + 999 + SECOND - 1 });
  assert.is(early.refused[0]?.holder, "b");
});

FullTtl("should keep a queued interest alive for its full TTL", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  await take({ ...opts, targets: ["x"], holder: "b", ttl: 1, queue: true, now: T0 + 999 });
  const later = status({ ...opts, now: T0 + 999 + SECOND - 1 });
  assert.equal(later.queued.map((note) => note.holder), ["b"]);
});

const Skew = suite<LibraryContext>("a heartbeat rounded up is not clock skew");
Skew.before.each(freshLibraryContext);
Skew.after.each((context) => context.box.cleanup());

Skew("should show a claim taken this second as 0 s old and not skewed", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 + 1 });
  const [claim] = status({ ...opts, now: T0 + 1 }).claims;
  assert.is(claim?.clock_skew, false);
  assert.is(claim?.heartbeat_age_seconds, 0);
  assert.is(claim?.stale, false);
});

Skew("should name a heartbeat 0 s old in a refusal right after the take", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 + 1 });
  const refused = await take({ ...opts, targets: ["x"], holder: "b", now: T0 + 2 });
  assert.is(refused.refused[0]?.heartbeat_age_seconds, 0);
});

Skew("should still flag a heartbeat a second or more ahead", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 + 2 * SECOND });
  const [claim] = status({ ...opts, now: T0 }).claims;
  assert.is(claim?.clock_skew, true);
  assert.is(claim?.heartbeat_age_seconds, -2);
});

const Processes = suite<LibraryContext>("a short lease between real processes");
Processes.before.each(freshLibraryContext);
Processes.after.each((context) => context.box.cleanup());

/**
 * A second take right after a first one's with --ttl 1: refused while the lease (at least 1 s,
 * to the heartbeat rounded up and a second) lasts. Where the machine is so loaded that the second
 * process answered after it ended, a takeover is right too: nothing to judge by then.
 */
function refusedRightAfter(target: string, box: LibraryContext["box"], cwd?: string): void {
  const at = cwd === undefined ? {} : { cwd };
  const first = claims(["take", target, "--ttl", "1", "--dir", box.dir, "--holder", "a", "--json"], at);
  assert.is(first.code, 0, first.stderr);
  const leaseEnds = Date.parse(JSON.parse(first.stdout).granted[0].heartbeat_at) + 1000;
  const second = claims(["take", target, "--ttl", "1", "--dir", box.dir, "--holder", "b"], at);
  if (Date.now() <= leaseEnds) assert.is(second.code, 3, second.stdout);
  else assert.ok(second.code === 3 || /^took over /m.test(second.stdout), `answered after the lease ended: ${second.stdout}`);
}

Processes("should refuse a take right after another process's take with --ttl 1", ({ box }) => {
  refusedRightAfter("x", box);
});

Processes("should refuse a take right after another process's symbol take with --ttl 1", ({ box }) => {
  writeFileSync(join(box.project, "a.ts"), "export function price() {\n  return 1;\n}\n");
  refusedRightAfter("a.ts#price", box, box.project);
});

/**
 * Another process holds the take lock until it has slept `ms`. Resolves once it holds it, with
 * `letGo`: the time it let go (wrapped: an async function returning a promise would wait for it).
 */
async function holdTakeLock(dir: string, ms: number): Promise<{ letGo: Promise<number> }> {
  const script = `
    import { Store } from ${JSON.stringify(join(ROOT, "dist", "protocol", "store.js"))};
    import { sleepSync } from ${JSON.stringify(join(ROOT, "dist", "os", "files.js"))};
    const store = new Store(${JSON.stringify(dir)});
    store.ensure();
    store.withTakeLock(() => {
      process.stdout.write("locked\\n");
      sleepSync(${ms});
      process.stdout.write(Date.now() + "\\n");
    });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  const done = new Promise<number>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(Number(output.split("\n")[1])) : reject(new Error(`the lock holder exited ${code}`))));
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("locked\n")) resolve();
    });
    done.catch(reject);
  });
  return { letGo: done };
}

const SlowCall = suite<LibraryContext>("a call slower than its TTL");
SlowCall.before.each(freshLibraryContext);
SlowCall.after.each((context) => context.box.cleanup());

SlowCall("should stamp the heartbeat when the claim is written, not when the call began", async ({ opts }) => {
  const { letGo } = await holdTakeLock(opts.dir, 1500);
  const result = await take({ ...opts, targets: ["x"], holder: "a", ttl: 1 });
  const releasedAt = await letGo;
  assert.ok(Date.parse(result.granted[0]?.heartbeat_at as string) >= releasedAt, `${result.granted[0]?.heartbeat_at} is before ${new Date(releasedAt).toISOString()}`);
});

SlowCall("should warn when the call took longer than the TTL it asked for", async ({ opts }) => {
  const { letGo } = await holdTakeLock(opts.dir, 1500);
  const result = await take({ ...opts, targets: ["x"], holder: "a", ttl: 1 });
  await letGo;
  assert.is(result.granted.length, 1);
  assert.is(result.warnings?.length, 1);
  assert.match(result.warnings?.[0] as string, /^this take took \d+\.\d s, longer than the TTL of 1 s it asked for: .* ask for a longer --ttl$/);
});

SlowCall("should warn on stderr and under warnings in --json output", async ({ box }) => {
  const { letGo } = await holdTakeLock(box.dir, 1500);
  const taken = await claimsAsync(["take", "x", "--ttl", "1", "--json", "--dir", box.dir, "--holder", "a"]);
  await letGo;
  assert.is(taken.code, 0, taken.stderr);
  const json = JSON.parse(taken.stdout);
  assert.match(json.warnings[0], /longer than the TTL of 1 s it asked for/);
  assert.match(taken.stderr, /^claims: note: this take took \d+\.\d s, longer than the TTL of 1 s/m);
});

SlowCall("should not warn when the call was quicker than its TTL", async ({ opts }) => {
  const result = await take({ ...opts, targets: ["x"], holder: "a", ttl: 60 });
  assert.is(result.warnings, undefined);
});

SlowCall("should not warn on a fixed clock, where the call takes no time", async ({ opts }) => {
  const result = await take({ ...opts, targets: ["x"], holder: "a", ttl: 1, now: T0, startedAt: T0 - 5 * SECOND });
  assert.is(result.warnings, undefined);
});

FullTtl.run();
Lead.run();
Skew.run();
Processes.run();
SlowCall.run();

const Young = suite<LibraryContext>("a hook's renewal right after a take");
Young.before.each(freshLibraryContext);
Young.after.each((context) => context.box.cleanup());

Young("should leave a heartbeat written this second alone, though rounding put it up to a second ahead", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], now: T0 + 200 });
  const again = beat({ ...opts, holder: "a", targets: ["x"], renewAfterMs: 60_000, now: T0 + 300 });
  assert.equal(again.renewed, [], "a heartbeat 0.7 s ahead of the clock is young, not due");
  assert.equal(beat({ ...opts, holder: "a", targets: ["x"], now: T0 + 300 }).renewed, ["x"], "a plain beat still renews");
});

Young.run();
