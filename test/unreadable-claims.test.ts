// A claim file another user's permissions keep this one from reading (docs/PROTOCOL.md 5): in a
// group-shared claims directory (2770), a 0600 claim of user X (a script's under `umask 077`, an
// older writer's) is unreadable to user Y, and so is its `ttl`. Judged by Y's TTL, a claim X still
// beat by a longer one of its own was taken over: two holders. Real users, made as root.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, iso, sandbox, systemUser as user, type Sandbox } from "./helpers.js";

const ROOT = process.getuid?.() === 0;

type Context = { box: Sandbox; x: { uid: number; gid: number } };
const Unreadable = suite<Context>("a claim unreadable to the caller by its permissions");
Unreadable.before.each((context) => {
  context.box = sandbox();
  if (!ROOT) return;
  context.x = user("claimsx");
  user("claimsy");
  chmodSync(context.box.root, 0o755);
  mkdirSync(context.box.dir);
  chownSync(context.box.dir, context.x.uid, context.x.gid);
  chmodSync(context.box.dir, 0o2770); // group-shared, as `"shared_group": true` makes it
  for (const home of ["home-x", "home-y"]) {
    mkdirSync(join(context.box.root, home));
    chownSync(join(context.box.root, home), context.x.uid, context.x.gid);
    chmodSync(join(context.box.root, home), 0o777);
  }
});
Unreadable.after.each((context) => context.box.cleanup());

/** `claims <args>` as `user`, in the group-shared claims directory. */
function as(box: Sandbox, user: string, ...args: string[]) {
  const home = join(box.root, user === "claimsx" ? "home-x" : "home-y");
  const result = spawnSync("runuser", ["-u", user, "--", process.execPath, BIN, ...args, "--dir", box.dir, "--json"], { cwd: box.root, env: { PATH: process.env.PATH, HOME: home }, encoding: "utf8" });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** X's claim of `x`, with a TTL of its own of 2 hours, beaten `ageMs` ago; 0600: only X reads it. */
function claimOfX(box: Sandbox, x: { uid: number; gid: number }, ageMs: number): string {
  const path = join(box.dir, "x.json");
  const at = Date.now() - ageMs;
  writeFileSync(path, `${JSON.stringify({ target: "x", holder: "X", purpose: "long job", taken_at: iso(at), heartbeat_at: iso(at), ttl: 7200 })}\n`);
  utimesSync(path, new Date(at), new Date(at));
  chownSync(path, x.uid, x.gid);
  chmodSync(path, 0o600);
  return path;
}

Unreadable("should refuse a take of another user's unreadable claim that is older than the caller's TTL but within the longest TTL a claim may carry", ({ box, x }) => {
  if (!ROOT) return; // only root makes users
  const path = claimOfX(box, x, 3600_000); // an hour: past Y's TTL (30 min), within X's own (2 h)
  const mine = as(box, "claimsx", "status", "x");
  assert.is(JSON.parse(mine.stdout).claims[0]?.stale, false, `X reads its claim fresh: ${mine.stdout}${mine.stderr}`);
  const taken = as(box, "claimsy", "take", "x", "--holder", "Y");
  assert.is(taken.code, 3, `Y took over a claim X still holds: ${taken.stdout}${taken.stderr}`);
  assert.match(JSON.parse(taken.stdout).refused[0].purpose, /unreadable claim file/);
  assert.is(JSON.parse(readFileSync(path, "utf8")).holder, "X", "X's claim is left");
  // Nor does Y's sweep remove it.
  const swept = as(box, "claimsy", "sweep");
  assert.is(swept.code, 0, swept.stderr);
  assert.is(JSON.parse(readFileSync(path, "utf8")).holder, "X", "Y's sweep leaves X's claim");
  // X still holds it: its beat renews it.
  const beat = as(box, "claimsx", "beat", "x", "--holder", "X");
  assert.is(beat.code, 0, `${beat.stdout}${beat.stderr}`);
});

Unreadable("should take over another user's unreadable claim once its file is older than the longest TTL a claim may carry", ({ box, x }) => {
  if (!ROOT) return;
  claimOfX(box, x, 31 * 24 * 3600_000);
  const taken = as(box, "claimsy", "take", "x", "--holder", "Y");
  assert.is(taken.code, 0, `${taken.stdout}${taken.stderr}`);
  assert.is(JSON.parse(taken.stdout).granted[0].action, "took_over");
});

Unreadable("should still judge a claim file that does not parse by the caller's TTL", ({ box, x }) => {
  if (!ROOT) return;
  // Readable, but no claim: nobody can learn a TTL from it, and nobody beats it as one.
  const path = join(box.dir, "x.json");
  const at = Date.now() - 3600_000;
  writeFileSync(path, '{\n  "target": "x",\n  "holder": "Y", "purp'); // a claim cut short
  utimesSync(path, new Date(at), new Date(at));
  chownSync(path, x.uid, x.gid);
  chmodSync(path, 0o660);
  const taken = as(box, "claimsy", "take", "x", "--holder", "Y");
  assert.is(taken.code, 0, `${taken.stdout}${taken.stderr}`);
});

Unreadable.run();
