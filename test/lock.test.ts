import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { beat } from "../src/commands/beat.js";
import { sweep } from "../src/commands/sweep.js";
import { take } from "../src/commands/take.js";
import { readSnapshot } from "../src/os/files.js";
import { lockName, versionOf } from "../src/protocol/lock.js";
import { Store, TAKES_FILE } from "../src/protocol/store.js";
import { entries, readJson, sandbox, SECOND, T0, type Sandbox } from "./helpers.js";

const Locks = suite<{ box: Sandbox }>("claim locks");
Locks.before.each((context) => {
  context.box = sandbox();
});
Locks.after.each((context) => context.box.cleanup());

function plantDeadLocks(dir: string, claimFile: string, generations: number): string[] {
  const version = versionOf(readSnapshot(join(dir, claimFile))) as string;
  const names: string[] = [];
  for (let generation = 1; generation <= generations; generation++) {
    const name = lockName(claimFile, version, generation);
    // pid 999999999 cannot exist: its owner crashed mid-change.
    writeFileSync(join(dir, name), JSON.stringify({ claim: claimFile, version, pid: 999999999 }));
    names.push(name);
  }
  return names;
}

Locks("should not let a crashed writer's lock wedge the claim", async ({ box }) => {
  const opts = { dir: box.dir, cwd: box.project, env: {} };
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  plantDeadLocks(box.dir, "x.json", 2);
  assert.equal(beat({ ...opts, holder: "a", now: T0 + 5 * SECOND }).renewed, ["x"]);
  assert.is(readJson(join(box.dir, "x.json")).heartbeat_at, "2026-08-14T21:02:16Z");
});

Locks("should retire dead locks of the current version by rewriting the claim, then remove them", async ({ box }) => {
  const opts = { dir: box.dir, cwd: box.project, env: {} };
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  const before = readJson(join(box.dir, "x.json"));
  const planted = plantDeadLocks(box.dir, "x.json", 2);
  // Removing them outright would leave a gap in the chain; sweep first gives the claim a new version.
  assert.equal(sweep({ ...opts, now: T0 }).debris.sort(), [...planted].sort());
  assert.equal(readJson(join(box.dir, "x.json")), before, "same claim, new version");
  assert.equal(entries(box.dir), ["x.json"]);
});

Locks("should never retire a lock whose owner is alive", async ({ box }) => {
  const opts = { dir: box.dir, cwd: box.project, env: {} };
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  const version = versionOf(readSnapshot(join(box.dir, "x.json"))) as string;
  const name = lockName("x.json", version, 1);
  writeFileSync(join(box.dir, name), JSON.stringify({ claim: "x.json", version, pid: process.pid }));
  assert.equal(sweep({ ...opts, now: T0 }).debris, []);
  assert.ok(entries(box.dir).includes(name));
});

Locks("should leave no lock or temp file behind after normal operation", async ({ box }) => {
  const opts = { dir: box.dir, cwd: box.project, env: {} };
  await take({ ...opts, targets: ["x", "y"], holder: "a", now: T0 });
  beat({ ...opts, holder: "a", now: T0 + SECOND });
  await take({ ...opts, targets: ["x"], holder: "b", now: T0 + 3600 * SECOND });
  assert.equal(entries(box.dir), ["x.json", "y.json"]);
});

Locks("should give the take lock's file a new version, after the work, when a dead taker's lock was passed over", ({ box }) => {
  const store = new Store(box.dir);
  store.ensure();
  store.withTakeLock(() => null);
  const before = versionOf(readSnapshot(join(box.dir, TAKES_FILE))) as string;
  const [dead] = plantDeadLocks(box.dir, TAKES_FILE, 1);
  let during: string | undefined;
  store.withTakeLock(() => {
    during = versionOf(readSnapshot(join(box.dir, TAKES_FILE)));
  });
  assert.is(during, before, "the version must not change while the work runs: a taker on a new version would get in");
  assert.is.not(versionOf(readSnapshot(join(box.dir, TAKES_FILE))), before, "the dead lock's chain must be retired");
  assert.equal(sweep({ dir: box.dir, cwd: box.project, env: {}, now: T0 }).debris, [dead]);
});

Locks.run();
