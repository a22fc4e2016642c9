import { readdirSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { beat } from "../../src/commands/beat.js";
import { handover } from "../../src/commands/handover.js";
import { log } from "../../src/commands/log.js";
import { release } from "../../src/commands/release.js";
import { status } from "../../src/commands/status.js";
import { sweep } from "../../src/commands/sweep.js";
import { check } from "../../src/commands/check.js";
import { take } from "../../src/commands/take.js";
import { ClaimsError } from "../../src/os/errors.js";
import { freshLibraryContext, readJson, SECOND, T0, type LibraryContext } from "../helpers.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { plain, renderStatus } from "../../src/cli/render.js";

const Queue = suite<LibraryContext>("queue and handover");
Queue.before.each(freshLibraryContext);
Queue.after.each((context) => context.box.cleanup());

const holderOf = (dir: string, name: string) => readJson(join(dir, `${name}.json`)).holder as string;
const queueFiles = (dir: string) => readdirSync(dir).filter((name) => name.startsWith(".queue-"));

Queue("should queue behind the holder (exit 6 in the CLI) and grant in order of arrival on release", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["cfg"], purpose: "first", now: T0 });
  const b = await take({ ...opts, holder: "b", targets: ["cfg"], purpose: "second", queue: true, now: T0 + SECOND });
  assert.equal(b.queued?.map((place) => [place.target, place.position]), [["cfg", 1]]);
  const c = await handover({ ...opts, holder: "c", target: "cfg", purpose: "third", now: T0 + 2 * SECOND });
  assert.equal("queued" in c && c.queued?.map((place) => place.position), [2]);
  const released = release({ ...opts, holder: "a", targets: ["cfg"], now: T0 + 3 * SECOND });
  assert.equal(released.handed_to, [{ target: "cfg", holder: "b" }]);
  assert.is(holderOf(opts.dir, "cfg"), "b");
  assert.is(readJson(join(opts.dir, "cfg.json")).purpose, "second");
  release({ ...opts, holder: "b", targets: ["cfg"], now: T0 + 4 * SECOND });
  assert.is(holderOf(opts.dir, "cfg"), "c");
  assert.equal(queueFiles(opts.dir), []);
});

Queue("should not show as granted while waiting a claim the waiter has released since", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["cfg"], now: T0 });
  await take({ ...opts, holder: "b", targets: ["cfg"], queue: true, now: T0 + SECOND });
  release({ ...opts, holder: "a", targets: ["cfg"], now: T0 + 2 * SECOND }); // granted to b
  assert.equal(release({ ...opts, holder: "b", now: T0 + 3 * SECOND }).released, ["cfg"]);
  // b let cfg go: its status must not tell it cfg is its own, from a grant it released.
  assert.equal(status({ ...opts, holder: "b", mine: true, now: T0 + 4 * SECOND }).granted_while_waiting, []);
  // One granted after the release is shown as ever.
  await take({ ...opts, holder: "c", targets: ["cfg"], now: T0 + 5 * SECOND });
  await take({ ...opts, holder: "b", targets: ["cfg"], queue: true, now: T0 + 6 * SECOND });
  release({ ...opts, holder: "c", targets: ["cfg"], now: T0 + 7 * SECOND });
  assert.equal(status({ ...opts, holder: "b", mine: true, now: T0 + 8 * SECOND }).granted_while_waiting.map((grant) => grant.target), ["cfg"]);
});

Queue("should say with no purpose given when someone hands over a claim another holds without a purpose", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["cfg"], now: T0 });
  try {
    await handover({ ...opts, holder: "b", target: "cfg", to: "c", now: T0 });
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, /a does, with no purpose given; only the holder can hand it over/);
  }
});

Queue("should tell the waiter once, in status, that it was granted while it waited", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["cfg"], now: T0 });
  await take({ ...opts, holder: "b", targets: ["cfg"], queue: true, now: T0 });
  await take({ ...opts, holder: "c", targets: ["cfg"], queue: true, purpose: "after b", now: T0 });
  release({ ...opts, holder: "a", now: T0 });
  const first = status({ ...opts, holder: "b", mine: true, now: T0 });
  assert.equal(first.granted_while_waiting.map((grant) => grant.target), ["cfg"]);
  assert.equal(first.granted_while_waiting[0]?.notes.map((note) => [note.holder, note.purpose]), [["c", "after b"]]);
  assert.equal(status({ ...opts, holder: "b", mine: true, now: T0 }).granted_while_waiting, [], "exactly once");
  const retake = await take({ ...opts, holder: "b", targets: ["cfg"], now: T0 + SECOND });
  assert.is(retake.granted[0]?.action, "retaken");
});

Queue("should grant to the queue when status, sweep or beat finds the claim stale", async ({ opts }) => {
  for (const [observer, observe] of [
    ["status", (now: number) => status({ ...opts, now })],
    ["sweep", (now: number) => sweep({ ...opts, now })],
    ["beat", (now: number) => beat({ ...opts, holder: "someone-else", now })],
  ] as const) {
    const target = `t-${observer}`;
    await take({ ...opts, holder: "a", targets: [target], now: T0 });
    await take({ ...opts, holder: "b", targets: [target], queue: true, ttl: 7200, now: T0 });
    observe(T0 + 1801 * SECOND);
    assert.is(holderOf(opts.dir, target), "b", `${observer} granted it`);
    // Whoever saw it stale, the waiter is told whose stale claim it took over (a sweep removed it first).
    const told = status({ ...opts, holder: "b", mine: true, now: T0 + 1802 * SECOND }).granted_while_waiting.find((grant) => grant.target === target);
    assert.is(told?.previous, "a", `${observer}: ${JSON.stringify(told)}`);
  }
});

Queue("should renew a waiter's place when it beats the target it waits for by name, not report it lost", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["cfg"], now: T0 });
  await take({ ...opts, holder: "b", targets: ["cfg"], queue: true, now: T0 });
  const named = beat({ ...opts, holder: "b", targets: ["cfg"], now: T0 + SECOND });
  assert.equal([named.lost, named.waiting], [[], ["cfg"]], "waiting, as a beat without targets says");
  assert.equal(beat({ ...opts, holder: "b", now: T0 + SECOND }).waiting, ["cfg"]);
  // One it held and lost, then queued for again: that loss is news.
  await take({ ...opts, holder: "c", targets: ["other"], ttl: 1, now: T0 });
  await take({ ...opts, holder: "d", targets: ["other"], now: T0 + 2 * SECOND });
  await take({ ...opts, holder: "c", targets: ["other"], queue: true, now: T0 + 3 * SECOND });
  assert.equal(beat({ ...opts, holder: "c", targets: ["other"], now: T0 + 4 * SECOND }).lost, ["other"]);
});

Queue("should refuse a check of a path another holder is queued for ahead, as a take of it is refused, and allow the waiter and holders", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["./D/a.ts"], now: T0 });
  await take({ ...opts, holder: "b", targets: ["./D/"], queue: true, now: T0 });
  const other = check({ ...opts, holder: "c", targets: ["./D/b.ts"], now: T0 + SECOND });
  assert.equal(other.refused.map((holding) => [holding.holder, holding.queued]), [["b", true]], "the waiter for D/ goes first");
  assert.is((await take({ ...opts, holder: "c", targets: ["./D/b.ts"], now: T0 + SECOND })).granted.length, 0, "as a take is refused");
  assert.equal(check({ ...opts, targets: ["./D/b.ts"], now: T0 + SECOND }).refused.length, 1, "without a holder too");
  assert.equal(check({ ...opts, holder: "b", targets: ["./D/b.ts"], now: T0 + SECOND }).refused, [], "the waiter itself");
  assert.equal(check({ ...opts, holder: "a", targets: ["./D/a.ts"], now: T0 + SECOND }).refused, [], "the holder of the file");
  assert.equal(check({ ...opts, holder: "c", targets: ["./E/x.ts"], now: T0 + SECOND }).refused, [], "elsewhere");
  // A waiter owed a stale claim: a take is refused, and so is a check.
  await take({ ...opts, holder: "d", targets: ["cfg"], now: T0 });
  await take({ ...opts, holder: "e", targets: ["cfg"], queue: true, ttl: 7200, now: T0 });
  assert.equal(check({ ...opts, holder: "f", targets: ["cfg"], now: T0 + 1801 * SECOND }).refused.map((holding) => holding.holder), ["e"]);
});

Queue("should let the queue outrank a direct take of a stale claim", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["cfg"], now: T0 });
  await take({ ...opts, holder: "b", targets: ["cfg"], queue: true, ttl: 7200, now: T0 });
  const direct = await take({ ...opts, holder: "c", targets: ["cfg"], now: T0 + 1801 * SECOND });
  assert.is(direct.granted.length, 0);
  assert.is(direct.refused[0]?.holder, "b");
  assert.is(holderOf(opts.dir, "cfg"), "b");
});

Queue("should refuse a direct take while someone is queued, naming the place it could take", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["cfg"], now: T0 });
  await take({ ...opts, holder: "b", targets: ["cfg"], queue: true, now: T0 });
  const direct = await take({ ...opts, holder: "c", targets: ["cfg"], now: T0 });
  assert.equal(direct.refused.map((refusal) => [refusal.holder, refusal.queued ?? false]), [
    ["a", false],
    ["b", true],
  ]);
});

Queue("should skip a waiter that stopped beating", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["cfg"], ttl: 7200, now: T0 });
  await take({ ...opts, holder: "dead", targets: ["cfg"], queue: true, ttl: 60, now: T0 });
  await take({ ...opts, holder: "alive", targets: ["cfg"], queue: true, ttl: 7200, now: T0 + SECOND });
  beat({ ...opts, holder: "alive", now: T0 + 3000 * SECOND });
  release({ ...opts, holder: "a", targets: ["cfg"], now: T0 + 3600 * SECOND });
  assert.is(holderOf(opts.dir, "cfg"), "alive");
});

Queue("should withdraw the releaser's own queued interests", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["cfg"], now: T0 });
  await take({ ...opts, holder: "b", targets: ["cfg"], queue: true, now: T0 });
  const withdrawn = release({ ...opts, holder: "b", targets: ["cfg"], now: T0 });
  assert.equal(withdrawn.withdrawn, ["cfg"]);
  release({ ...opts, holder: "a", targets: ["cfg"], now: T0 });
  assert.equal(status({ ...opts, now: T0 }).claims, []);
});

Queue("should hand a claim directly to another holder, and refuse it to a non-holder with LOST", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["cfg"], purpose: "p", now: T0 });
  const handed = await handover({ ...opts, holder: "a", target: "cfg", to: "b", now: T0 + SECOND });
  assert.equal(handed, { holder: "a", target: "cfg", to: "b", purpose: "p", token: 2 });
  assert.is(holderOf(opts.dir, "cfg"), "b");
  try {
    await handover({ ...opts, holder: "a", target: "cfg", to: "c", now: T0 + 2 * SECOND });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, ClaimsError);
    assert.is((error as ClaimsError).exitCode, 4);
  }
});

Queue("should not hand over a claim that lapsed, under which another holder took a file since", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["src/"], ttl: 5, now: T0 });
  const inside = await take({ ...opts, holder: "b", targets: ["src/b.ts"], now: T0 + 10 * SECOND });
  assert.is(inside.granted.length, 1, "src/ had lapsed");
  try {
    await handover({ ...opts, holder: "a", target: "src/", to: "c", now: T0 + 11 * SECOND });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, ClaimsError);
    assert.is((error as ClaimsError).exitCode, 4);
    assert.match((error as ClaimsError).message, /lapsed/);
  }
  assert.equal(status({ ...opts, now: T0 + 11 * SECOND }).claims.filter((claim) => claim.holder === "c"), [], "c holds nothing over b's file");
});

Queue("should refuse a queue that would close a waits-for cycle, naming it", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], now: T0 });
  await take({ ...opts, holder: "b", targets: ["y"], now: T0 });
  await take({ ...opts, holder: "a", targets: ["y"], queue: true, now: T0 });
  try {
    await take({ ...opts, holder: "b", targets: ["x"], queue: true, now: T0 });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, ClaimsError);
    assert.is((error as ClaimsError).code, "DEADLOCK");
    assert.is((error as ClaimsError).exitCode, 3);
    assert.match((error as Error).message, /b waits for a waits for b/);
  }
  assert.is(readdirSync(opts.dir).filter((name) => name.startsWith(".queue-")).length, 1, "nothing was queued for b");
});

Queue("should keep order across granularity: a file waiter is not overtaken by a later symbol waiter", async ({ box, opts }) => {
  mkdirSync(join(box.project, "src"));
  writeFileSync(join(box.project, "src", "u.ts"), "export function f() {}\nexport function g() {}\n");
  await take({ ...opts, holder: "a", targets: ["src/u.ts#f"], now: T0 });
  await take({ ...opts, holder: "d", targets: ["src/u.ts#g"], now: T0 });
  await take({ ...opts, holder: "file", targets: ["src/u.ts"], queue: true, now: T0 });
  await take({ ...opts, holder: "sym", targets: ["src/u.ts#f"], queue: true, now: T0 });
  release({ ...opts, holder: "a", now: T0 });
  const shown = status({ ...opts, now: T0 });
  assert.not.ok(shown.claims.some((claim) => claim.holder === "sym"), "the later symbol waiter must not overtake the file waiter");
  release({ ...opts, holder: "d", now: T0 });
  const after = status({ ...opts, now: T0 }).claims.map((claim) => claim.holder);
  assert.equal(after, ["file"]);
});

Queue("should pass the notes of those queued to whoever takes the target", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["cfg"], now: T0 });
  await handover({ ...opts, holder: "b", target: "cfg", purpose: "bump the preset", now: T0 });
  const retake = await take({ ...opts, holder: "a", targets: ["cfg"], now: T0 + SECOND });
  assert.equal(retake.notes?.map((note) => [note.holder, note.purpose]), [["b", "bump the preset"]]);
  assert.equal(status({ ...opts, now: T0 }).claims[0]?.queue.map((note) => note.holder), ["b"]);
});

Queue("should list, for named targets, only the queued interests in something that overlaps one of them", async ({ opts }) => {
  mkdirSync(join(opts.cwd, "src"));
  await take({ ...opts, holder: "a", targets: ["cfg", "other", "src/"], now: T0 });
  await take({ ...opts, holder: "b", targets: ["cfg"], purpose: "bump", queue: true, now: T0 });
  await take({ ...opts, holder: "c", targets: ["other"], purpose: "unrelated", queue: true, now: T0 });
  await take({ ...opts, holder: "d", targets: ["src/a.ts"], purpose: "in src", queue: true, now: T0 });
  const queued = (targets: string[]) => status({ ...opts, targets, now: T0 }).queued.map((note) => note.holder);
  assert.equal(queued([]), ["b", "c", "d"], "unnamed: every queue");
  assert.equal(queued(["cfg"]), ["b"]);
  assert.equal(queued(["src/"]), ["d"], "a waiter for a file under a named directory");
  assert.equal(queued(["src/b.ts"]), [], "not a waiter for another file of the directory claim that covers it");
  assert.equal(queued(["src/**/*.ts", "cfg"]), ["b", "d"]);
  const lines = renderStatus(status({ ...opts, targets: ["cfg"], now: T0 }), plain);
  assert.equal(lines, ["cfg  fresh for 30m  a  heartbeat 0s ago  (no purpose given)", `  1. queued: b since ${new Date(T0).toISOString().replace(".000Z", "Z")} for "bump"`]);
});

Queue("should show behind a directory claim covering a named target only the waiters for something overlapping that target", async ({ opts }) => {
  mkdirSync(join(opts.cwd, "src"));
  const src = join(opts.cwd, "src");
  await take({ ...opts, holder: "a", targets: ["src/"], purpose: "restructure", now: T0 });
  await take({ ...opts, holder: "b", targets: ["src/a.ts"], purpose: "fix a", queue: true, now: T0 });
  await take({ ...opts, holder: "c", targets: ["src/b.ts"], purpose: "fix b", queue: true, now: T0 });
  await take({ ...opts, holder: "d", targets: ["src/"], purpose: "all of it", queue: true, now: T0 });
  const behind = (targets: string[]) => status({ ...opts, targets, now: T0 }).claims.map((claim) => [claim.target, claim.queue.map((note) => note.holder)]);
  assert.equal(behind([]), [[`${src}/`, ["b", "c", "d"]]], "unnamed: the directory's whole queue");
  assert.equal(behind(["src/a.ts"]), [[`${src}/`, ["b", "d"]]], "not c, who waits for another file of the directory");
  assert.equal(behind(["src/"]), [[`${src}/`, ["b", "c", "d"]]]);
  assert.equal(behind(["src/a.ts", "src/b.ts"]), [[`${src}/`, ["b", "c", "d"]]]);
  assert.equal(behind(["src/new.ts"]), [[`${src}/`, ["d"]]]);
  const since = new Date(T0).toISOString().replace(".000Z", "Z");
  assert.equal(renderStatus(status({ ...opts, targets: ["src/a.ts"], now: T0 }), plain), [
    `${src}/  fresh for 30m  a  heartbeat 0s ago  "restructure"  (directory)`,
    `  1. queued: b since ${since} for "fix a" (wants ${src}/a.ts)`,
    `  2. queued: d since ${since} for "all of it"`,
  ]);
});

Queue("should refuse wait together with queue, naming the options as the library caller gave them", async ({ opts }) => {
  try {
    await take({ ...opts, holder: "a", targets: ["cfg"], queue: true, wait: 5, now: T0 });
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, /^wait and queue cannot be used together: wait blocks, queue returns at once/);
  }
});

Queue("should record queueing, the grant and the takeover in the log", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["cfg"], now: T0 });
  await take({ ...opts, holder: "b", targets: ["cfg"], queue: true, now: T0 });
  release({ ...opts, holder: "a", now: T0 + SECOND });
  const events = log({ ...opts, now: T0 }).entries.map((entry) => `${entry.event} ${entry.holder}`);
  assert.ok(events.includes("queue b") && events.includes("grant b") && events.includes("release a"), events.join(", "));
});

Queue.run();
