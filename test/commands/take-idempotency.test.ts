import { suite } from "uvu";
import * as assert from "uvu/assert";
import { release } from "../../src/commands/release.js";
import { sweep } from "../../src/commands/sweep.js";
import { take } from "../../src/commands/take.js";
import { ClaimsError } from "../../src/os/errors.js";
import { freshLibraryContext, claims, entries, SECOND, T0, type LibraryContext } from "../helpers.js";

const DAY = 24 * 3600 * SECOND;
const Keys = suite<LibraryContext>("take --idempotency-key");
Keys.before.each(freshLibraryContext);
Keys.after.each((context) => context.box.cleanup());

Keys("should return the first result to a retry instead of acting again", async ({ opts }) => {
  const first = await take({ ...opts, holder: "a", targets: ["x"], purpose: "p", idempotencyKey: "k1", now: T0 });
  assert.equal((await take({ ...opts, holder: "a", targets: ["x"], purpose: "p", idempotencyKey: "k1", now: T0 })).granted, first.granted, "held: the first answer");
  release({ ...opts, holder: "a", targets: ["x"], now: T0 + SECOND });
  const retry = await take({ ...opts, holder: "a", targets: ["x"], purpose: "p", idempotencyKey: "k1", now: T0 + 2 * SECOND });
  assert.is(retry.idempotent_replay, true);
  assert.equal([retry.granted, retry.no_longer_held], [[], first.granted.map((claim) => claim.target)], "x is no longer promised");
  assert.equal(entries(opts.dir).filter((name) => name.endsWith(".json")), [], "the retry did not take x again");
});

Keys("should answer LOST, not granted, to a retry of a grant that lapsed while another holder took a file under it", async ({ opts }) => {
  const first = await take({ ...opts, holder: "a", targets: ["src/"], ttl: 2, idempotencyKey: "k1", now: T0 });
  assert.is((await take({ ...opts, holder: "b", targets: ["src/b.ts"], now: T0 + 4 * SECOND })).granted.length, 1);
  const retry = await take({ ...opts, holder: "a", targets: ["src/"], ttl: 2, idempotencyKey: "k1", now: T0 + 5 * SECOND });
  assert.is(retry.idempotent_replay, true);
  assert.equal([retry.granted, retry.no_longer_held], [[], first.granted.map((claim) => claim.target)]);
  // Fresh, the same retry is the grant it was.
  await take({ ...opts, holder: "a", targets: ["lib/"], ttl: 60, idempotencyKey: "k2", now: T0 });
  assert.is((await take({ ...opts, holder: "a", targets: ["lib/"], ttl: 60, idempotencyKey: "k2", now: T0 + 5 * SECOND })).no_longer_held, undefined);
});

Keys("should replay a refusal too", async ({ opts }) => {
  await take({ ...opts, holder: "b", targets: ["x"], now: T0 });
  const first = await take({ ...opts, holder: "a", targets: ["x"], idempotencyKey: "k", now: T0 });
  release({ ...opts, holder: "b", targets: ["x"], now: T0 });
  const retry = await take({ ...opts, holder: "a", targets: ["x"], idempotencyKey: "k", now: T0 + SECOND });
  assert.equal(retry.refused, first.refused);
});

Keys("should refuse the same key with different arguments", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], idempotencyKey: "k", now: T0 });
  try {
    await take({ ...opts, holder: "a", targets: ["y"], idempotencyKey: "k", now: T0 });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, ClaimsError);
    assert.is((error as ClaimsError).code, "IDEMPOTENCY_KEY_CONFLICT");
    assert.is((error as ClaimsError).exitCode, 2);
  }
});

Keys("should keep keys apart per holder", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], idempotencyKey: "k", now: T0 });
  const other = await take({ ...opts, holder: "b", targets: ["y"], idempotencyKey: "k", now: T0 });
  assert.is(other.idempotent_replay, undefined);
  assert.is(other.granted.length, 1);
});

Keys("should act again after 7 days, and sweep should remove expired keys", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], ttl: 60, idempotencyKey: "k", now: T0 });
  const later = await take({ ...opts, holder: "a", targets: ["x"], ttl: 60, idempotencyKey: "k", now: T0 + 7 * DAY + SECOND });
  assert.is(later.idempotent_replay, undefined);
  assert.is(later.granted[0]?.action, "retaken");
  assert.is(sweep({ ...opts, now: T0 + 7 * DAY }).debris.length, 0, "still live");
  assert.is(sweep({ ...opts, now: T0 + 15 * DAY }).debris.filter((file) => file.startsWith(".idem-")).length, 1);
});

Keys("should answer a reused key with exit 2 and the IDEMPOTENCY_KEY_CONFLICT code", ({ box }) => {
  const base = ["--dir", box.dir, "--holder", "a", "--idempotency-key", "k", "--json"];
  assert.is(claims(["take", "x", ...base]).code, 0);
  const replayed = claims(["take", "x", ...base]);
  assert.is(replayed.code, 0);
  assert.is(JSON.parse(replayed.stdout).idempotent_replay, true);
  const conflict = claims(["take", "y", ...base]);
  assert.is(conflict.code, 2);
  assert.is(JSON.parse(conflict.stdout).error.code, "IDEMPOTENCY_KEY_CONFLICT");
});

Keys.run();

const Replays = suite<LibraryContext>("idempotent replays never promise a lost claim");
Replays.before.each(freshLibraryContext);
Replays.after.each((context) => context.box.cleanup());

Replays("should list granted targets the caller no longer holds, and exit 4 from the CLI", async ({ box, opts }) => {
  await take({ ...opts, holder: "a", targets: ["x", "y"], idempotencyKey: "k", now: T0 });
  await take({ ...opts, holder: "b", targets: ["x"], now: T0 + 1801 * SECOND });
  const retry = await take({ ...opts, holder: "a", targets: ["x", "y"], idempotencyKey: "k", now: T0 + 1802 * SECOND });
  assert.equal(retry.no_longer_held, ["x", "y"]); // x taken over, y lapsed
  claims(["take", "z", "--dir", box.dir, "--holder", "c", "--idempotency-key", "k2"]);
  claims(["release", "z", "--dir", box.dir, "--holder", "c"]);
  const cli = claims(["take", "z", "--dir", box.dir, "--holder", "c", "--idempotency-key", "k2"]);
  assert.is(cli.code, 4);
  assert.match(cli.stdout, /LOST z: granted by the first take, but no longer yours/);
  assert.not.match(cli.stdout, /granted z/);
});

Replays.run();
