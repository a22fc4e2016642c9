import { spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { beat } from "../../src/commands/beat.js";
import { check } from "../../src/commands/check.js";
import { status } from "../../src/commands/status.js";
import { sweep } from "../../src/commands/sweep.js";
import { take } from "../../src/commands/take.js";
import { bootTag } from "../../src/os/files.js";
import { processStartTime } from "../../src/os/process-identity.js";
import { recordClientSession } from "../../src/protocol/hook-files.js";
import { plain, renderStatus } from "../../src/cli/render.js";
import { markAsked, markWritten, recordCleared, recordPending } from "../../src/hooks/state.js";
import { claims, freshLibraryContext, entries, iso, readJson, SECOND, T0, writeClaimFile, type LibraryContext } from "../helpers.js";


const Status = suite<LibraryContext>("status");
Status.before.each(freshLibraryContext);
Status.after.each((context) => context.box.cleanup());

Status("should list each claim with its kind, heartbeat age and freshness, without needing a holder", async ({ box, opts }) => {
  writeFileSync(join(box.project, "a.ts"), "");
  await take({ ...opts, targets: ["shared-config"], holder: "a", purpose: "lint", now: T0 });
  await take({ ...opts, targets: ["a.ts"], holder: "b", now: T0 - 3600 * SECOND });
  const result = status({ ...opts, now: T0 + 5 * SECOND });
  const byTarget = Object.fromEntries(result.claims.map((claim) => [claim.target, claim]));
  assert.is(byTarget["shared-config"]?.kind, "name");
  assert.is(byTarget["shared-config"]?.stale, false);
  assert.is(byTarget["shared-config"]?.heartbeat_age_seconds, 5);
  assert.is(byTarget[join(box.project, "a.ts")]?.kind, "path");
  assert.is(byTarget[join(box.project, "a.ts")]?.stale, true);
  assert.is(byTarget["shared-config"]?.mine, undefined);
});

Status("should show how long a fresh claim stays fresh unless beaten, and the TTL a stale one was judged by", async ({ opts }) => {
  await take({ ...opts, targets: ["cfg"], holder: "a", purpose: "lint", ttl: 600, now: T0 });
  await take({ ...opts, targets: ["old"], holder: "b", purpose: "gone", now: T0 - 3600 * SECOND });
  const lines = renderStatus(status({ ...opts, now: T0 + 100 * SECOND }), plain);
  assert.ok(lines.includes('cfg  fresh for 8m  a  heartbeat 1m ago  "lint"'), lines.join("\n"));
  assert.ok(lines.includes('old  stale (ttl 30m)  b  heartbeat 1h 1m ago  "gone"'), lines.join("\n"));
});

Status("should say which file a waiter behind a glob claim wants", async ({ box, opts }) => {
  await take({ ...opts, targets: ["src/*.ts"], holder: "a", purpose: "format", now: T0 });
  await take({ ...opts, targets: ["src/a.ts"], holder: "b", purpose: "fix a", queue: true, now: T0 });
  const lines = renderStatus(status({ ...opts, now: T0 }), plain);
  assert.equal(lines.slice(1), [`  1. queued: b since ${iso(T0)} for "fix a" (wants ${join(box.project, "src/a.ts")})`]);
});

Status("should show invisible and direction-changing characters escaped, and keep them exact in the result", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x\u200by"], holder: "a", purpose: "fix \u202eevil", now: T0 });
  // A holder id the CLI refuses, as another writer (a shell script) may still have written it.
  const [file] = entries(box.dir);
  writeClaimFile(box.dir, file as string, { ...readJson(join(box.dir, file as string)), holder: "a\u202eb" });
  const result = status({ ...opts, now: T0 });
  assert.equal([result.claims[0]?.target, result.claims[0]?.holder, result.claims[0]?.purpose], ["x\u200by", "a\u202eb", "fix \u202eevil"]);
  assert.equal(renderStatus(result, plain), ['x\\u200by  fresh for 30m  a\\u202eb  heartbeat 0s ago  "fix \\u202eevil"']);
});

Status("should show only the caller's claims with --mine", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  await take({ ...opts, targets: ["y"], holder: "b", now: T0 });
  const result = status({ ...opts, holder: "a", mine: true, now: T0 });
  assert.equal(result.claims.map((claim) => claim.target), ["x"]);
  assert.is(result.claims[0]?.mine, true);
});

Status("should flag a heartbeat in the future as clock skew and count it fresh", async ({ box, opts }) => {
  writeClaimFile(box.dir, "x.json", { target: "x", holder: "a", purpose: "", taken_at: iso(T0), heartbeat_at: iso(T0 + 600 * SECOND) });
  const [claim] = status({ ...opts, now: T0 }).claims;
  assert.is(claim?.clock_skew, true);
  assert.is(claim?.stale, false);
});

Status("should report an unreadable claim file instead of crashing", async ({ box, opts }) => {
  mkdirSync(box.dir, { recursive: true });
  writeFileSync(join(box.dir, "torn.json"), '{"target": "torn", "hol');
  writeFileSync(join(box.dir, "empty.json"), "");
  const result = status({ ...opts, now: Date.now() });
  assert.equal(result.unreadable.map((entry) => [entry.target, entry.reason]).sort(), [
    ["empty", "the file is empty"],
    ["torn", "the file is not valid JSON"],
  ]);
});

Status("should say of a stale directory where a claim file belongs that sweep leaves it, as sweep does", async ({ box, opts }) => {
  mkdirSync(join(box.dir, "x.json"), { recursive: true });
  const later = Date.now() + 1801 * SECOND;
  const result = status({ ...opts, now: later });
  assert.equal(result.unreadable.map((entry) => [entry.target, entry.stale, entry.directory]), [["x", true, true]]);
  assert.match(renderStatus(result, plain).join("\n"), /x\.json: the claim file is a directory; .*\(stale, but sweep leaves a directory: remove it by hand\)/);
  assert.equal(sweep({ ...opts, now: later }).removed, []);
  assert.ok(existsSync(join(box.dir, "x.json")), "left for a person to look at");
});

Status("should never list temp files or locks as claims", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  writeFileSync(join(box.dir, ".tmp-1-abc"), "{}");
  writeFileSync(join(box.dir, ".lock-abc-1"), "{}");
  assert.equal(status({ ...opts, now: T0 }).claims.map((claim) => claim.target), ["x"]);
});

Status("should report named targets nobody holds as free", async ({ opts }) => {
  assert.equal(status({ ...opts, targets: ["nothing"], now: T0 }).free, ["nothing"]);
});

Status.run();

const Check = suite<LibraryContext>("check");
Check.before.each(freshLibraryContext);
Check.after.each((context) => context.box.cleanup());

Check("should allow free and own targets and refuse another holder's fresh claim", async ({ opts }) => {
  await take({ ...opts, targets: ["mine"], holder: "a", now: T0 });
  await take({ ...opts, targets: ["theirs"], holder: "b", purpose: "busy", now: T0 });
  const result = check({ ...opts, targets: ["free", "mine", "theirs"], holder: "a", now: T0 });
  assert.equal(result.allowed.sort(), ["free", "mine"]);
  assert.equal(result.refused.map((refusal) => [refusal.target, refusal.holder, refusal.purpose]), [["theirs", "b", "busy"]]);
});

Check("should allow a target whose claim is stale", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "b", now: T0 });
  assert.equal(check({ ...opts, targets: ["x"], holder: "a", now: T0 + 1801 * SECOND }).refused, []);
});

Check("should count every fresh claim as another's when no holder is known", async ({ opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: T0 });
  const result = check({ ...opts, targets: ["x"], now: T0 });
  assert.is(result.holder, undefined);
  assert.is(result.refused.length, 1);
});

Check("should match a path claim whatever the spelling of the path", async ({ box, opts }) => {
  writeFileSync(join(box.project, "a.ts"), "");
  await take({ ...opts, targets: [join(box.project, "a.ts")], holder: "hook", now: T0 });
  assert.is(check({ ...opts, targets: ["./a.ts"], holder: "me", now: T0 }).refused.length, 1);
  assert.is(check({ ...opts, targets: ["a.ts"], holder: "me", now: T0 }).refused.length, 1);
});

Check.run();

const Sweep = suite<LibraryContext>("sweep");
Sweep.before.each(freshLibraryContext);
Sweep.after.each((context) => context.box.cleanup());

Sweep("should remove stale claims and keep fresh ones", async ({ box, opts }) => {
  await take({ ...opts, targets: ["old"], holder: "a", now: T0 - 3600 * SECOND });
  await take({ ...opts, targets: ["new"], holder: "b", now: T0 });
  const result = sweep({ ...opts, now: T0 });
  assert.equal(result.removed, ["old"]);
  assert.equal(entries(box.dir), ["new.json"]);
});

Sweep("should remove nothing with --dry-run", async ({ box, opts }) => {
  await take({ ...opts, targets: ["old"], holder: "a", now: T0 - 3600 * SECOND });
  const result = sweep({ ...opts, dryRun: true, now: T0 });
  assert.equal(result.removed, ["old"]);
  assert.ok(existsSync(join(box.dir, "old.json")));
});

Sweep("should say with --dry-run what the queue would be granted, in order, granting nothing", async ({ box, opts }) => {
  // All before "old" goes stale: b first, then c on it (behind b), and d behind "held", fresh still at the sweep.
  const before = T0 - 3600 * SECOND;
  await take({ ...opts, targets: ["old"], holder: "a", now: before });
  await take({ ...opts, targets: ["held"], holder: "a", ttl: 7200, now: before + 500 });
  await take({ ...opts, targets: ["old"], holder: "b", queue: true, ttl: 7200, now: before + 1000 });
  await take({ ...opts, targets: ["old"], holder: "c", queue: true, ttl: 7200, now: before + 2000 });
  await take({ ...opts, targets: ["held"], holder: "d", queue: true, ttl: 7200, now: before + 3000 });
  const dry = sweep({ ...opts, dryRun: true, now: T0 });
  assert.equal(dry.granted, [{ target: "old", holder: "b" }]);
  assert.equal(readJson(join(box.dir, "old.json")).holder, "a", "nothing granted");
  const real = sweep({ ...opts, now: T0 });
  assert.equal(real.granted, dry.granted, "as the sweep then grants");
});

Sweep("should remove an unreadable claim file only once it is older than the TTL", async ({ box, opts }) => {
  mkdirSync(box.dir, { recursive: true });
  writeFileSync(join(box.dir, "torn.json"), "{"); // a claim cut short after its first byte
  assert.equal(sweep({ ...opts, now: Date.now() }).removed, []);
  assert.equal(sweep({ ...opts, now: Date.now() + 1801 * SECOND }).removed, ["torn"]);
  assert.not.ok(existsSync(join(box.dir, "torn.json")));
});

Sweep("should remove temp files of dead writers and locks of claims that changed", async ({ box, opts }) => {
  await take({ ...opts, targets: ["x"], holder: "a", now: Date.now() });
  const namespace = readlinkSync("/proc/self/ns/pid").replace(/\D/g, "");
  const boot = bootTag(readFileSync("/proc/sys/kernel/random/boot_id", "utf8"));
  // A writer (pid 999999999) that cannot exist in this pid namespace on this machine, and a lock for a version that is gone.
  writeFileSync(join(box.dir, `.tmp-999999999-${namespace}-${boot}-abcdef`), "{}");
  writeFileSync(join(box.dir, ".lock-0123-1"), JSON.stringify({ claim: "x.json", version: "1-2-gone", pid: 999999999 }));
  // The same pid in another pid namespace proves nothing: only age makes that one debris.
  writeFileSync(join(box.dir, ".tmp-999999999-1-fresh"), "{}");
  writeFileSync(join(box.dir, ".tmp-999999999-1-old"), "{}");
  const old = (Date.now() - 120 * SECOND) / 1000;
  utimesSync(join(box.dir, ".tmp-999999999-1-old"), old, old);
  const result = sweep({ ...opts, now: Date.now() });
  assert.equal(result.debris.sort(), [".lock-0123-1", `.tmp-999999999-${namespace}-${boot}-abcdef`, ".tmp-999999999-1-old"].sort());
  assert.equal(entries(box.dir), [".tmp-999999999-1-fresh", "x.json"]);
});

Sweep("should leave a directory that stands where a claim belongs, and say so", async ({ box, opts }) => {
  mkdirSync(join(box.dir, "odd.json"), { recursive: true });
  const result = sweep({ ...opts, now: Date.now() + 7200 * SECOND });
  assert.is(result.skipped.length, 1);
  assert.ok(existsSync(join(box.dir, "odd.json")));
});

Sweep("should remove a held marker a week old once its holder no longer holds the claim", async ({ box, opts }) => {
  const now = Date.now();
  await take({ ...opts, targets: ["kept"], holder: "a", now });
  await take({ ...opts, targets: ["lost"], holder: "a", ttl: 1, now });
  await take({ ...opts, targets: ["lost"], holder: "b", now: now + 2 * SECOND });
  const weekAgo = (now - 8 * 24 * 3600 * SECOND) / 1000;
  for (const name of readdirSync(box.dir).filter((file) => file.startsWith(".held-"))) utimesSync(join(box.dir, name), weekAgo, weekAgo);
  const removed = sweep({ ...opts, now: now + 3 * SECOND }).debris.filter((file) => file.startsWith(".held-"));
  assert.is(removed.length, 1, "only a's marker of the claim b took over");
  assert.equal(beat({ ...opts, holder: "a", now: now + 4 * SECOND }).lost, [], "a was told nothing more: the marker is gone");
});

Sweep("should remove the hooks' files a day old, left by a client that died mid-turn, and list them as debris", async ({ box, opts }) => {
  mkdirSync(box.dir, { recursive: true });
  const now = Date.now();
  // As the hooks write them: a pending call, asked for, a written target, a /clear in progress, and a torn temp file.
  recordPending(box.dir, "deadscope", { holder: "claude-dead", tool_use_id: "toolu_1", targets: ["/p/a.ts"], tool_name: "Edit", files: ["/p/a.ts"] });
  markAsked(box.dir, "deadscope", "Edit", ["/p/a.ts"]);
  markWritten(box.dir, "deadscope", ["/p/b.ts"]);
  recordCleared(box.dir, "123-456", "claude-dead");
  writeFileSync(join(box.dir, ".hook-pending-deadscope-x.json.999999999.tmp"), "{");
  const dead = readdirSync(box.dir).filter((name) => name.startsWith(".hook-")).sort();
  assert.is(dead.length, 5);
  const dayAgo = (now - 24 * 3600 * SECOND - 5 * SECOND) / 1000;
  for (const name of dead) utimesSync(join(box.dir, name), dayAgo, dayAgo);
  // A live session's: written an hour ago, in a turn still running.
  recordPending(box.dir, "livescope", { holder: "claude-live", tool_use_id: "toolu_2", targets: [], tool_name: "Bash", files: [] });
  markWritten(box.dir, "livescope", ["/p/c.ts"]);
  const hourAgo = (now - 3600 * SECOND) / 1000;
  const live = readdirSync(box.dir).filter((name) => name.includes("livescope")).sort();
  for (const name of live) utimesSync(join(box.dir, name), hourAgo, hourAgo);

  const dry = sweep({ ...opts, dryRun: true, now });
  assert.equal(dry.debris.sort(), dead);
  assert.is(readdirSync(box.dir).filter((name) => name.startsWith(".hook-")).length, 7, "--dry-run removes nothing");
  const swept = sweep({ ...opts, now });
  assert.equal(swept.debris.sort(), dead);
  assert.equal(readdirSync(box.dir).filter((name) => name.startsWith(".hook-")).sort(), live);
  assert.equal(sweep({ ...opts, now }).debris, []);
});

Sweep("should keep a client's record of its sessions, however old, while that client runs here, and remove it a day old once it exits", async ({ box, opts }) => {
  mkdirSync(box.dir, { recursive: true });
  const now = Date.now();
  const running = spawn("sleep", ["60"], { stdio: "ignore" });
  const exited = spawn("sleep", ["60"], { stdio: "ignore" });
  try {
    const idOf = (pid: number | undefined) => `${pid}-${processStartTime(pid as number)}`;
    recordClientSession(box.dir, idOf(running.pid), "claude-live");
    recordClientSession(box.dir, idOf(exited.pid), "claude-over");
    const records = () => readdirSync(box.dir).filter((name) => name.startsWith(".hook-client-")).sort();
    const [runningRecord] = records().filter((name) => readFileSync(join(box.dir, name), "utf8").includes("claude-live"));
    const dayAgo = (now - 25 * 3600 * SECOND) / 1000;
    for (const name of records()) utimesSync(join(box.dir, name), dayAgo, dayAgo);
    await new Promise((resolve) => {
      exited.on("exit", resolve);
      exited.kill();
    });
    const swept = sweep({ ...opts, now });
    assert.is(swept.debris.length, 1);
    assert.not.equal(swept.debris[0], runningRecord, "the record of the client that exited");
    assert.equal(records(), [runningRecord], "kept while its client runs");
  } finally {
    running.kill();
  }
});

Sweep("should, as root in another user's owner-only directory, write what it grants as that user's, readable to the waiter it is granted to", async ({ box, opts }) => {
  if (process.getuid?.() !== 0) return; // only root writes in another user's directory
  const NOBODY = 65534;
  const before = Date.now() - 3600 * SECOND;
  await take({ ...opts, targets: ["x"], holder: "s1", now: before });
  await take({ ...opts, targets: ["x"], holder: "s2", queue: true, ttl: 7200, now: before + SECOND });
  utimesSync(join(box.dir, "x.json"), new Date(before), new Date(before)); // stale by the file's mtime too
  const own = (mode: number) => {
    for (const name of readdirSync(box.dir)) chownSync(join(box.dir, name), NOBODY, NOBODY);
    chownSync(box.dir, NOBODY, NOBODY);
    chmodSync(box.dir, mode);
  };
  own(0o700); // a user's default claims directory, swept from root's crontab
  const swept = claims(["sweep", "--dir", box.dir, "--json"]);
  assert.is(swept.code, 0, swept.stderr);
  assert.equal(JSON.parse(swept.stdout).granted, [{ target: "x", holder: "s2" }]);
  const granted = statSync(join(box.dir, "x.json"));
  assert.equal([granted.uid, granted.mode & 0o777], [NOBODY, 0o600], "the waiter's claim is the directory owner's, as its sessions' own");
  assert.equal(readdirSync(box.dir).filter((name) => statSync(join(box.dir, name)).uid !== NOBODY), [], "and so is everything else the sweep wrote");
});

Sweep("should need no holder", async ({ opts }) => {
  await take({ ...opts, targets: ["old"], holder: "a", now: T0 - 3600 * SECOND });
  assert.equal(sweep({ dir: opts.dir, cwd: opts.cwd, env: {}, now: T0 }).removed, ["old"]);
});

Sweep.run();
