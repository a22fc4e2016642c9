import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { beat } from "../../src/commands/beat.js";
import { release } from "../../src/commands/release.js";
import { sweep } from "../../src/commands/sweep.js";
import { take } from "../../src/commands/take.js";
import { freshLibraryContext, iso, readJson, SECOND, T0, type LibraryContext } from "../helpers.js";


const Beat = suite<LibraryContext>("beat");
Beat.before.each(freshLibraryContext);
Beat.after.each((context) => context.box.cleanup());

Beat("should renew heartbeat_at and keep everything else", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", purpose: "p", ttl: 600, now: T0 });
  const result = beat({ ...opts, targets: ["x"], holder: "a", now: T0 + 30 * SECOND });
  assert.equal(result.renewed, ["x"]);
  assert.equal(readJson(join(box.dir, "x.json")), {
    target: "x",
    holder: "a",
    purpose: "p",
    taken_at: iso(T0),
    heartbeat_at: iso(T0 + 30 * SECOND),
    ttl: 600,
    token: 1,
  });
});

Beat("should renew every claim of the holder when no target is named, and only those", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x", "y"], holder: "a", now: T0 });
  await take({ ...opts, targets: ["z"], holder: "b", now: T0 });
  const result = beat({ ...opts, holder: "a", now: T0 + 10 * SECOND });
  assert.equal(result.renewed.sort(), ["x", "y"]);
  assert.is(readJson(join(box.dir, "z.json")).heartbeat_at, iso(T0));
});

Beat("should report a claim taken over by another holder as lost, naming the new holder", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  await take({ ...opts, targets: ["x"], holder: "b", purpose: "mine now", now: T0 + 1801 * SECOND });
  const result = beat({ ...opts, targets: ["x"], holder: "a", now: T0 + 1802 * SECOND });
  assert.equal(result.renewed, []);
  assert.equal(result.lost, ["x"]);
  assert.is(result.lost_to[0]?.now_held_by?.holder, "b");
  assert.is(result.lost_to[0]?.now_held_by?.purpose, "mine now");
});

Beat("should name the claim that covers a lost path now: a directory above it another holder took after it lapsed", async ({ opts }) => {
  await take({ ...opts, targets: ["./D/a.ts"], holder: "a", now: T0 });
  sweep({ ...opts, now: T0 + 1801 * SECOND }); // the lapsed claim's file is gone
  await take({ ...opts, targets: ["./D/"], holder: "b", purpose: "moving D", now: T0 + 1801 * SECOND });
  const result = beat({ ...opts, targets: ["./D/a.ts"], holder: "a", now: T0 + 1802 * SECOND });
  assert.is(result.lost.length, 1);
  assert.equal([result.lost_to[0]?.now_held_by?.holder, result.lost_to[0]?.now_held_by?.purpose], ["b", "moving D"], "not 'nobody holds it'");
});

Beat("should report a claim nobody holds any more as lost", async ({ opts }) => {
  const result = beat({ ...opts, targets: ["never-taken"], holder: "a", now: T0 });
  assert.equal(result.lost, ["never-taken"]);
  assert.equal(result.lost_to, [{ target: "never-taken" }]);
});

Beat("should report a lost claim even when beating all claims, once", async ({ opts }) => {
  await take({ ...opts, targets: ["x", "y"], holder: "a", now: T0 });
  await take({ ...opts, targets: ["x"], holder: "b", now: T0 + 1801 * SECOND });
  const result = beat({ ...opts, holder: "a", now: T0 + 1802 * SECOND });
  assert.equal([result.renewed, result.lost], [["y"], ["x"]]);
  assert.is(result.lost_to[0]?.now_held_by?.holder, "b");
  assert.equal(beat({ ...opts, holder: "a", now: T0 + 1803 * SECOND }).lost, [], "reported once");
});

Beat("should not renew a stale claim when another holder took an overlapping target meanwhile", async ({ box, opts }) => {
  mkdirSync(join(box.project, "src"));
  await take({ ...opts, targets: ["src/"], holder: "a", now: T0 });
  await take({ ...opts, targets: ["src/a.ts"], holder: "b", purpose: "inside", now: T0 + 1801 * SECOND });
  const result = beat({ ...opts, holder: "a", now: T0 + 1802 * SECOND });
  assert.equal(result.renewed, []);
  assert.equal(result.lost, [join(box.project, "src") + "/"]);
  assert.is(result.lost_to[0]?.now_held_by?.holder, "b");
});

Beat("should renew a stale claim nobody took over, and say it had gone stale", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  const result = beat({ ...opts, targets: ["x"], holder: "a", now: T0 + 3600 * SECOND });
  assert.equal(result.renewed, ["x"]);
  assert.equal(result.was_stale, ["x"]);
});

Beat("should keep fields it does not know when it rewrites a claim", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  const path = join(box.dir, "x.json");
  const claim = readJson(path);
  writeJson(path, { ...claim, token: 7, note: "from a newer writer" });
  beat({ ...opts, targets: ["x"], holder: "a", now: T0 + SECOND });
  const after = readJson(path);
  assert.is(after.token, 7);
  assert.is(after.note, "from a newer writer");
});

Beat.run();

const Release = suite<LibraryContext>("release");
Release.before.each(freshLibraryContext);
Release.after.each((context) => context.box.cleanup());

Release("should remove the holder's claim", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  assert.equal(release({ ...opts, targets: ["x"], holder: "a", now: T0 }).released, ["x"]);
  assert.not.ok(existsSync(join(box.dir, "x.json")));
});

Release("should leave another holder's claim untouched and report it", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", purpose: "busy", now: T0 });
  const result = release({ ...opts, targets: ["x"], holder: "b", now: T0 });
  assert.equal(result.released, []);
  assert.equal(result.lost, ["x"]);
  assert.is(result.lost_to[0]?.now_held_by?.holder, "a");
  assert.is(readJson(join(box.dir, "x.json")).holder, "a");
});

Release("should not release another holder's stale claim either: that is sweep's job", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  const result = release({ ...opts, targets: ["x"], holder: "b", now: T0 + 7200 * SECOND });
  assert.is(result.lost.length, 1);
  assert.ok(existsSync(join(box.dir, "x.json")));
});

Release("should treat a free target as a no-op with a note", async ({ opts }) => {
  const result = release({ ...opts, targets: ["x"], holder: "a", now: T0 });
  assert.equal(result.not_held, ["x"]);
  assert.equal(result.lost, []);
});

Release("should release all of the holder's claims and nobody else's when no target is named", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x", "y"], holder: "a", now: T0 });
  await take({ ...opts, targets: ["z"], holder: "b", now: T0 });
  assert.equal(release({ ...opts, holder: "a", now: T0 }).released.sort(), ["x", "y"]);
  assert.ok(existsSync(join(box.dir, "z.json")));
});

Release("should let another holder take the target at once after a release", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  release({ ...opts, targets: ["x"], holder: "a", now: T0 });
  assert.is((await take({ ...opts, targets: ["x"], holder: "b", now: T0 })).granted[0]?.action, "taken");
});

Release.run();


function writeJson(path: string, value: object): void {
  writeFileSync(path, JSON.stringify(value));
}
