// The parts of "Across machines" (docs/PROTOCOL.md section 11) that need no network filesystem:
// lock owners on another kernel are waited for, not judged dead; versions are the bytes alone;
// the staleness rule on the filesystem's clock, which holds on a local disk too; the filesystem of
// a local directory. The real
// thing, on sshfs and GlusterFS with two mounts and two "machines", is `npm run test:netfs`.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freshnessOf, type Claim } from "../src/protocol/claim.js";
import { bootTag, readSnapshot } from "../src/os/files.js";
import { filesystemOf, onKernelClock, readFilesystemClock } from "../src/os/filesystem.js";
import { lockName, versionOf } from "../src/protocol/lock.js";
import { livenessOf, ownIdentity } from "../src/os/process-identity.js";
import { Store, TAKES_FILE } from "../src/protocol/store.js";
import { claims, claimsAsync, iso, sandbox, SECOND, T0, writeClaimFile, type Sandbox } from "./helpers.js";

const Across = suite<{ box: Sandbox }>("across machines, on one");
Across.before.each((context) => {
  context.box = sandbox();
});
Across.after.each((context) => context.box.cleanup());

Across("should judge an owner with another boot id to be elsewhere, never dead, whatever its pid", () => {
  const self = ownIdentity();
  assert.is(livenessOf({ pid: 999999999, boot: "another-machine", ns: self.ns as string }), "elsewhere");
  assert.is(livenessOf({ ...self, boot: "another-machine" }), "elsewhere");
  assert.is(livenessOf({ ...self, pid: 999999999, start: 1 }), "dead");
  assert.is(livenessOf(self), "alive");
});

Across("should hold a take off while a live process on another machine holds the take lock", async ({ box }) => {
  const store = new Store(box.dir);
  store.ensure();
  store.withTakeLock(() => undefined);
  const version = versionOf(readSnapshot(join(box.dir, TAKES_FILE))) as string;
  const lock = join(box.dir, lockName(TAKES_FILE, version, 1));
  // pid 1 exists here, but on another machine it is another process: its boot id says so.
  writeFileSync(lock, `${JSON.stringify({ claim: TAKES_FILE, version, pid: 1, boot: "another-machine", host: "elsewhere", nonce: "x" })}\n`);
  const started = Date.now();
  const taking = claimsAsync(["take", "x", "--dir", box.dir, "--holder", "here"]);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.not.ok(readSnapshot(join(box.dir, "x.json")).kind === "file", "the take went past the lock of a live owner elsewhere");
  rmSync(lock);
  const result = await taking;
  assert.is(result.code, 0, result.stderr);
  assert.ok(Date.now() - started >= 1500);
});

Across("should leave to its minute the temp file of a writer on another machine with the same pid namespace, and sweep this machine's dead writer's at once", ({ box }) => {
  const self = ownIdentity();
  const ns = (self.ns as string).replace(/\D/g, "");
  const boot = bootTag(self.boot);
  assert.is.not(boot, "0", "this machine's boot id is readable");
  const other = boot === "00000001" ? "00000002" : "00000001";
  // A pid that ran here and is gone (a finished child), and one no process here has.
  const dead = (spawnSync(process.execPath, ["-e", "0"]).pid as number) || 999_999_999;
  claims(["take", "x", "--dir", box.dir, "--holder", "here"]);
  const names = {
    deadHere: `.tmp-${dead}-${ns}-${boot}-aaaaaaaaaaaa`,
    // A take running on another machine: its first pid namespace has this one's number, as on every Linux host.
    elsewhere: `.tmp-${dead}-${ns}-${other}-bbbbbbbbbbbb`,
    elsewhereUnknownPid: `.tmp-999999999-${ns}-${other}-cccccccccccc`,
    // A name with no boot in it (a writer of an earlier version, the shell recipe's): its machine is not known.
    noBoot: `.tmp-${dead}-${ns}-dddddddddddd`,
    oldElsewhere: `.tmp-999999999-${ns}-${other}-eeeeeeeeeeee`,
  };
  for (const name of Object.values(names)) writeFileSync(join(box.dir, name), "{}\n");
  const old = new Date(Date.now() - 120 * SECOND);
  utimesSync(join(box.dir, names.oldElsewhere), old, old);
  const swept = claims(["sweep", "--dir", box.dir, "--json"]);
  assert.is(swept.code, 0, swept.stderr);
  const left = readdirSync(box.dir).filter((name) => name.startsWith(".tmp-")).sort();
  assert.equal(left, [names.elsewhere, names.elsewhereUnknownPid, names.noBoot].sort(), "a live writer's temp file elsewhere is left for a minute; this machine's dead writer's and a minute-old one go");
  assert.is(readSnapshot(join(box.dir, "x.json")).kind, "file", "the claim stays");
});

Across("should give a claim the same version wherever its bytes are, so every mount computes one lock name", ({ box }) => {
  mkdirSync(box.dir);
  const a = join(box.dir, "a.json");
  writeFileSync(a, '{"x":1}\n');
  copyFileSync(a, join(box.dir, "b.json"));
  const first = versionOf(readSnapshot(a));
  const copy = versionOf(readSnapshot(join(box.dir, "b.json")));
  assert.is(first, copy, "inode and mtime must not be part of the version");
  assert.is(lockName("a.json", first as string, 1), lockName("a.json", copy as string, 1));
});

Across("should count a stale-looking heartbeat in a file written within the TTL as held, on the filesystem's clock only", () => {
  const claim: Claim = { target: "x", holder: "h", purpose: "", taken_at: "2026-08-14T20:00:00Z", heartbeat_at: "2026-08-14T20:00:00Z", ttl: 60 };
  const now = T0;
  assert.ok(freshnessOf(claim, now, 1800, now - 10 * SECOND).stale, "with no clock the mtime is on (a fixed `now`), the heartbeat decides");
  const onClock = { onClock: true, measured: false };
  assert.not.ok(freshnessOf(claim, now, 1800, now - 10 * SECOND, onClock).stale, "written 10 s ago by the filesystem's clock: held");
  assert.ok(freshnessOf(claim, now, 1800, now - 120 * SECOND, onClock).stale, "file and heartbeat both older than the TTL: stale");
  // An mtime more than a TTL ahead: a copy's, once the clock was read; until then it may be this clock that is behind.
  const ahead = freshnessOf(claim, now, 1800, now + 3600 * SECOND, onClock);
  assert.equal([ahead.stale, ahead.mtimeAhead], [false, true]);
  assert.ok(freshnessOf(claim, now, 1800, now + 3600 * SECOND, { onClock: true, measured: true }).stale);
});

Across("should measure no clock on a local filesystem unless asked, and find the kernel's agreeing with this process's", ({ box }) => {
  mkdirSync(box.dir);
  assert.is(filesystemOf(box.dir).network, false);
  assert.equal(readFilesystemClock(box.dir, 0o600), { offsetMs: 0, measured: false });
  assert.equal(readFilesystemClock(box.dir, 0o600, true), { offsetMs: 0, measured: true });
  assert.equal(readdirSync(box.dir), [], "the probe file is removed");
});

Across("should read the kernel's clock by a probe where something stands between it and this process's (a replaced Date.now, a preload), and take it as its own otherwise", ({ box }) => {
  mkdirSync(box.dir);
  assert.ok(onKernelClock({}), "nothing preloaded, Date.now native");
  assert.not.ok(onKernelClock({ LD_PRELOAD: "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1" }));
  assert.not.ok(onKernelClock({ DYLD_INSERT_LIBRARIES: "/usr/local/lib/faketime/libfaketime.1.dylib" }));
  const now = Date.now;
  Date.now = () => now() - 600_000; // ten minutes behind, as a module preloaded with --require makes it
  try {
    assert.not.ok(onKernelClock({}));
    const clock = readFilesystemClock(box.dir, 0o600, true);
    assert.ok(clock.measured && Math.abs(clock.offsetMs - 600_000) < 5_000, `the filesystem's clock read ten minutes ahead of this process's: ${JSON.stringify(clock)}`);
  } finally {
    Date.now = now;
  }
  assert.equal(readdirSync(box.dir), [], "the probe file is removed");
});

Across("should hold, on a local disk too, a claim whose heartbeat reads stale in a file written a moment ago (its writer's clock behind)", ({ box }) => {
  const twoHoursAgo = iso(Date.now() - 7200 * SECOND);
  writeClaimFile(box.dir, "config.json", { target: "config", holder: "behind", purpose: "editing", taken_at: twoHoursAgo, heartbeat_at: twoHoursAgo }, { fresh: true });
  const taken = claims(["take", "config", "--dir", box.dir, "--holder", "honest", "--json"]);
  assert.is(taken.code, 3, `took over a claim whose file was written a moment ago: ${taken.stdout}`);
  assert.is(JSON.parse(taken.stdout).refused[0].holder, "behind");
  assert.is(claims(["check", "config", "--dir", box.dir, "--holder", "honest"]).code, 3);
  assert.equal(JSON.parse(claims(["sweep", "--dir", box.dir, "--json"]).stdout).removed, [], "swept a claim written a moment ago");
  assert.is(JSON.parse(claims(["status", "config", "--dir", box.dir, "--json"]).stdout).claims[0].stale, false);
  // Once the file, too, has gone unwritten for longer than the TTL, the claim is stale.
  const when = (Date.now() - 7200 * SECOND) / 1000;
  utimesSync(join(box.dir, "config.json"), when, when);
  assert.is(claims(["take", "config", "--dir", box.dir, "--holder", "honest"]).code, 0);
});

Across("should judge a queued interest as a claim: one whose heartbeat lies years ahead and whose file is hours old is dead", ({ box }) => {
  assert.is(claims(["take", "T", "--dir", box.dir, "--holder", "A"]).code, 0);
  assert.is(claims(["take", "T", "--dir", box.dir, "--holder", "B", "--queue"]).code, 6);
  const [name] = readdirSync(box.dir).filter((entry) => entry.startsWith(".queue-"));
  const path = join(box.dir, name as string);
  writeFileSync(path, `${JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), heartbeat_at: "2036-01-01T00:00:00Z" })}\n`);
  const twoHoursAgo = Date.now() / 1000 - 7200;
  utimesSync(path, twoHoursAgo, twoHoursAgo);
  const released = JSON.parse(claims(["release", "T", "--dir", box.dir, "--holder", "A", "--json"]).stdout);
  assert.equal(released.handed_to, [], "granted to an interest a writer ahead left hours ago");
  assert.is(claims(["take", "T", "--dir", box.dir, "--holder", "D"]).code, 0);
});

Across("should not let a file's mtime far in the future (a copy that kept another clock's times) hold a stale claim", ({ box }) => {
  const twoDaysAgo = iso(Date.now() - 2 * 86400 * SECOND);
  writeClaimFile(box.dir, "copied.json", { target: "copied", holder: "gone", purpose: "", taken_at: twoDaysAgo, heartbeat_at: twoDaysAgo, ttl: 60 });
  const aYearAhead = Date.now() / 1000 + 365 * 86400;
  utimesSync(join(box.dir, "copied.json"), aYearAhead, aYearAhead);
  assert.is(JSON.parse(claims(["status", "copied", "--dir", box.dir, "--json"]).stdout).claims[0].stale, true);
  assert.is(claims(["take", "copied", "--dir", box.dir, "--holder", "next"]).code, 0);
});

Across("should report the filesystem in doctor, and run no network checks on a local one", ({ box }) => {
  const result = JSON.parse(claims(["doctor", "--dir", box.dir, "--json"]).stdout);
  const filesystem = result.checks.find((check: { check: string }) => check.check === "filesystem");
  assert.is(filesystem.status, "ok");
  assert.match(filesystem.detail, /local filesystem/);
  assert.not.ok(result.checks.some((check: { check: string }) => check.check === "caches"));
});

Across.run();
