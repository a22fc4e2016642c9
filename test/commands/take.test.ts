import { lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { take } from "../../src/commands/take.js";
import { plain, renderTake } from "../../src/cli/render.js";
import { freshLibraryContext, entries, readJson, SECOND, T0, iso, writeClaimFile, type LibraryContext } from "../helpers.js";

const Take = suite<LibraryContext>("take");
Take.before.each(freshLibraryContext);
Take.after.each((context) => context.box.cleanup());

Take("should write exactly the five fields, plus the fencing token, for a plain take", async ({ box, opts }) => {
  const result = await take({ ...opts, targets: ["shared-config"], holder: "session-a41", purpose: "align the lint rule", now: T0 });
  assert.is(result.granted.length, 1);
  assert.is(result.granted[0]?.action, "taken");
  const onDisk = readJson(join(box.dir, "shared-config.json"));
  assert.equal(onDisk, {
    target: "shared-config",
    holder: "session-a41",
    purpose: "align the lint rule",
    taken_at: "2026-08-14T21:02:11Z",
    heartbeat_at: "2026-08-14T21:02:11Z",
    token: 1,
  });
});

Take("should create the claims directory owner-only on first use", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  assert.is(statSync(box.dir).mode & 0o777, 0o700);
  assert.is(statSync(join(box.dir, "x.json")).mode & 0o777, 0o600);
});

Take("should create a group-shared directory when the config says so", async ({ box }) => {
  writeFileSync(join(box.project, ".claims"), JSON.stringify({ dir: "../store", shared_group: true }));
  await take({ cwd: box.project, env: {}, targets: ["x"], holder: "a", now: T0 });
  assert.is(statSync(box.dir).mode & 0o7777, 0o2770);
  assert.is(statSync(join(box.dir, "x.json")).mode & 0o777, 0o660);
});

Take("should make every file of a group-shared directory 0660, the log and markers too, whatever the umask", async ({ box }) => {
  writeFileSync(join(box.project, ".claims"), JSON.stringify({ dir: "../store", shared_group: true }));
  const umask = process.umask(0o022);
  try {
    await take({ cwd: box.project, env: {}, targets: ["x", "y"], holder: "a", now: T0 });
    await take({ cwd: box.project, env: {}, targets: ["x"], holder: "b", now: T0 });
  } finally {
    process.umask(umask);
  }
  const files = readdirSync(box.dir).filter((name) => statSync(join(box.dir, name)).isFile());
  assert.ok(files.includes("log.jsonl"), files.join(" "));
  assert.ok(files.some((name) => name.startsWith(".held-")), files.join(" "));
  for (const name of files) assert.is((statSync(join(box.dir, name)).mode & 0o777).toString(8), "660", name);
});

Take("should word bad input for the library caller: the option names of its call, not the CLI's flags", async ({ opts }) => {
  for (const [call, wording] of [
    [() => take({ ...opts, targets: ["x"], holder: "" }), /^holder must be 1 to 200 printable characters/],
    [() => take({ ...opts, targets: ["x"], holder: "a", ttl: 0 }), /^ttl must be whole seconds/],
    [() => take({ ...opts, targets: ["x"] }), /^No holder id: pass holder <id> or set CLAIMS_HOLDER/],
    [() => take({ ...opts, targets: ["x"], holder: "a", wait: 5000 }), /^wait must be whole seconds/],
    [() => take({ ...opts, targets: ["x"], holder: "a", idempotencyKey: "" }), /^idempotencyKey must be/],
    [() => take({ ...opts, targets: ["/"], holder: "a" }), /pass force: true if you mean it/],
  ] as const) {
    try {
      await call();
      assert.unreachable();
    } catch (error) {
      assert.match((error as Error).message, wording);
      assert.not.match((error as Error).message, /--/);
    }
  }
});

Take("should write whole seconds, rounded up, even when the clock has milliseconds", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 + 987 });
  assert.is(readJson(join(box.dir, "x.json")).taken_at, "2026-08-14T21:02:12Z"); // a lease is never shorter than its TTL
});

Take("should refuse a fresh claim of another holder, naming holder, purpose and heartbeat age", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", purpose: "first", now: T0 });
  const result = await take({ ...opts, targets: ["x"], holder: "b", now: T0 + 120 * SECOND });
  assert.is(result.granted.length, 0);
  assert.equal(result.refused, [
    { target: "x", holder: "a", purpose: "first", heartbeat_at: "2026-08-14T21:02:11Z", heartbeat_age_seconds: 120 },
  ]);
});

Take("should word the refusal of a claim taken without a purpose as a sentence, not 'for (no purpose given)'", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  const result = await take({ ...opts, targets: ["x"], holder: "b", now: T0 + 40 * SECOND });
  assert.is(renderTake(result, plain, ["x"])[0], "REFUSED x: held by a with no purpose given (heartbeat 40s ago)");
});

Take("should renew on re-take, keeping taken_at and updating the purpose when given", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", purpose: "first", now: T0 });
  const result = await take({ ...opts, targets: ["x"], holder: "a", now: T0 + 60 * SECOND });
  assert.is(result.granted[0]?.action, "retaken");
  let onDisk = readJson(join(box.dir, "x.json"));
  assert.is(onDisk.taken_at, iso(T0));
  assert.is(onDisk.heartbeat_at, iso(T0 + 60 * SECOND));
  assert.is(onDisk.purpose, "first");
  await take({ ...opts, targets: ["x"], holder: "a", purpose: "second", now: T0 + 90 * SECOND });
  onDisk = readJson(join(box.dir, "x.json"));
  assert.is(onDisk.purpose, "second");
  assert.is(onDisk.taken_at, iso(T0));
});

Take("should say when a re-take replaces the purpose, naming the old one, and not when it keeps it", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", purpose: "first", now: T0 });
  const same = await take({ ...opts, targets: ["x"], holder: "a", purpose: "first", now: T0 + SECOND });
  assert.is(same.granted[0]?.previous_purpose, undefined);
  assert.is(renderTake(same, plain)[0], "renewed x (token 1) (already yours; taken_at kept)");
  const kept = await take({ ...opts, targets: ["x"], holder: "a", now: T0 + 2 * SECOND });
  assert.is(kept.granted[0]?.previous_purpose, undefined, "no purpose given keeps the old one");
  const changed = await take({ ...opts, targets: ["x"], holder: "a", purpose: "second", now: T0 + 3 * SECOND });
  assert.is(changed.granted[0]?.previous_purpose, "first");
  assert.is(changed.granted[0]?.purpose, "second");
  assert.is(renderTake(changed, plain)[0], 'renewed x (token 1) (already yours; taken_at kept); purpose changed from "first" to "second"');
  const cleared = await take({ ...opts, targets: ["x"], holder: "a", purpose: "", now: T0 + 4 * SECOND });
  assert.is(renderTake(cleared, plain)[0], 'renewed x (token 1) (already yours; taken_at kept); purpose cleared (it was "second")');
  const set = await take({ ...opts, targets: ["x"], holder: "a", purpose: "third", now: T0 + 5 * SECOND });
  assert.is(renderTake(set, plain)[0], 'renewed x (token 1) (already yours; taken_at kept); purpose set to "third"');
});

Take("should say when a re-take's --ttl replaces the claim's TTL, naming the old one, and not when it keeps it", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  const set = await take({ ...opts, targets: ["x"], holder: "a", ttl: 120, now: T0 + SECOND });
  assert.is(set.granted[0]?.previous_ttl, null, "it had no TTL of its own");
  assert.is(renderTake(set, plain)[0], "renewed x (token 1) (already yours; taken_at kept); TTL set to 120s");
  const same = await take({ ...opts, targets: ["x"], holder: "a", ttl: 120, now: T0 + 2 * SECOND });
  assert.is(same.granted[0]?.previous_ttl, undefined);
  const kept = await take({ ...opts, targets: ["x"], holder: "a", now: T0 + 3 * SECOND });
  assert.is(kept.granted[0]?.previous_ttl, undefined, "no --ttl keeps the old one");
  const changed = await take({ ...opts, targets: ["x"], holder: "a", ttl: 5, purpose: "short", now: T0 + 4 * SECOND });
  assert.equal([changed.granted[0]?.previous_ttl, changed.granted[0]?.ttl], [120, 5]);
  assert.is(renderTake(changed, plain)[0], 'renewed x (token 1) (already yours; taken_at kept); purpose set to "short"; TTL changed from 120s to 5s');
});

Take("should take over a stale claim and say from whom", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", purpose: "old work", now: T0 });
  const later = T0 + 1801 * SECOND;
  const result = await take({ ...opts, targets: ["x"], holder: "b", purpose: "new work", now: later });
  assert.is(result.granted[0]?.action, "took_over");
  assert.is(result.granted[0]?.previous?.holder, "a");
  assert.is(result.granted[0]?.previous?.purpose, "old work");
  const onDisk = readJson(join(box.dir, "x.json"));
  assert.is(onDisk.holder, "b");
  assert.is(onDisk.taken_at, iso(later));
});

Take("should still refuse at exactly the TTL: stale means older than the TTL", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  assert.is((await take({ ...opts, targets: ["x"], holder: "b", now: T0 + 1800 * SECOND })).refused.length, 1);
  assert.is((await take({ ...opts, targets: ["x"], holder: "b", now: T0 + 1800 * SECOND + 1 })).granted.length, 1);
});

Take("should store an explicit --ttl in the claim and judge staleness by it", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", ttl: 60, now: T0 });
  assert.is(readJson(join(box.dir, "x.json")).ttl, 60);
  // An observer with the default TTL still judges the claim by its own ttl.
  assert.is((await take({ ...opts, targets: ["x"], holder: "b", now: T0 + 59 * SECOND })).refused.length, 1);
  assert.is((await take({ ...opts, targets: ["x"], holder: "b", now: T0 + 61 * SECOND })).granted[0]?.action, "took_over");
});

Take("should not let a taker's short TTL make another's default claim stale", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  const result = await take({ ...opts, targets: ["x"], holder: "b", ttl: 2, now: T0 + 60 * SECOND });
  assert.is(result.refused.length, 1, "a's claim carries no ttl: it is judged by the protocol's 1800 s");
  assert.is((await take({ ...opts, targets: ["x"], holder: "b", ttl: 7200, now: T0 + 1801 * SECOND })).refused.length, 1, "a longer TTL of the reader counts");
});

Take("should judge a heartbeat more than a TTL in the future by the file's mtime", async ({ box, opts }) => {
  writeClaimFile(box.dir, "x.json", { target: "x", holder: "a", purpose: "", taken_at: iso(T0), heartbeat_at: "2099-01-01T00:00:00Z" });
  const now = Date.now();
  assert.is((await take({ ...opts, targets: ["x"], holder: "b", now })).refused.length, 1);
  assert.is((await take({ ...opts, targets: ["x"], holder: "b", now: now + 1801 * SECOND })).granted[0]?.action, "took_over");
});

Take("should count a heartbeat in the future as fresh", async ({ box, opts }) => {
  writeClaimFile(box.dir, "x.json", { target: "x", holder: "a", purpose: "", taken_at: iso(T0), heartbeat_at: iso(T0 + 3600 * SECOND) });
  assert.is((await take({ ...opts, targets: ["x"], holder: "b", now: T0 })).refused.length, 1);
});

Take("should take every target or none, reporting every refusal", async ({ box, opts }) => {
  await take({ ...opts, targets: ["b"], holder: "other", purpose: "mine", now: T0 });
  await take({ ...opts, targets: ["d"], holder: "other", purpose: "mine too", now: T0 });
  const result = await take({ ...opts, targets: ["a", "b", "c", "d"], holder: "me", now: T0 + SECOND });
  assert.is(result.granted.length, 0);
  assert.equal(result.refused.map((refusal) => refusal.target).sort(), ["b", "d"]);
  assert.equal(entries(box.dir), ["b.json", "d.json"]);
});

Take("should treat an unparseable claim as held until its mtime is older than the TTL", async ({ box, opts }) => {
  writeClaimFile(box.dir, "x.json", {});
  writeFileSync(join(box.dir, "x.json"), '{"target": "x", "holder": "a", "purp');
  const now = Date.now();
  const refused = await take({ ...opts, targets: ["x"], holder: "b", now });
  assert.is(refused.refused[0]?.holder, "unknown");
  assert.match(refused.refused[0]?.purpose ?? "", /unreadable claim file: the file is not valid JSON/);
  const later = await take({ ...opts, targets: ["x"], holder: "b", now: now + 1801 * SECOND });
  assert.is(later.granted[0]?.action, "took_over");
  assert.is(readJson(join(box.dir, "x.json")).holder, "b");
});

Take("should treat a claim whose fields have the wrong types as unreadable, not crash", async ({ box, opts }) => {
  writeClaimFile(box.dir, "x.json", { target: "x", holder: 42, purpose: [], taken_at: "yesterday", heartbeat_at: null });
  const result = await take({ ...opts, targets: ["x"], holder: "b", now: Date.now() });
  assert.match(result.refused[0]?.purpose ?? "", /field "holder"/);
});

Take("should keep a claims file inside the directory for a path that climbs out", async ({ box, opts }) => {
  const result = await take({ ...opts, targets: ["../../../../etc/passwd"], holder: "a", now: T0 });
  assert.is(result.granted[0]?.target, "/etc/passwd");
  assert.equal(entries(box.dir), ["%2Fetc%2Fpasswd.json"]);
});

Take("should replace a claim file that is a symlink without writing through it", async ({ box, opts }) => {
  const outside = join(box.root, "outside.txt");
  writeFileSync(outside, "precious");
  await take({ ...opts, targets: ["y"], holder: "a", now: T0 }); // creates the directory
  symlinkSync(outside, join(box.dir, "x.json"));
  // Planted just now: held (unknown) until the TTL passes by the link's own mtime.
  assert.is((await take({ ...opts, targets: ["x"], holder: "b", now: Date.now() })).refused.length, 1);
  const result = await take({ ...opts, targets: ["x"], holder: "b", now: Date.now() + 1801 * SECOND });
  assert.is(result.granted[0]?.action, "took_over");
  assert.is(readFileSync(outside, "utf8"), "precious");
  assert.ok(lstatSync(join(box.dir, "x.json")).isFile());
});

Take.run();
