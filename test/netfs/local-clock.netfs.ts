// Skewed clocks on a local disk: processes on one machine share the kernel's clock, but one run
// under libfaketime (`faketime`, a test harness, a script pinning the date) reads its own. Such a
// process must neither steal a fresh claim (its clock ahead) nor be robbed of its own (its clock
// behind), as between machines on a network filesystem (scenarios.ts). Real `claims` processes
// under the real libfaketime, in a local directory.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { run, thisMachine, type Machine } from "./machines.js";
import { installPrograms } from "./servers.js";

const test = suite<{ dir: string }>("claims on a local disk, processes on skewed clocks (libfaketime)");
// Root: to install faketime where it is missing, and for the read-only mount of a sandbox (unshare).
const missing = process.getuid?.() !== 0 ? "it needs root" : undefined;

if (missing) {
  console.log(`\n  SKIPPED: the local clock suite ${missing} (faketime, unshare).\n`);
  test.skip("should hold against skewed clocks on a local disk", () => undefined);
} else {
  test.before(() => installPrograms(["faketime"]));
  test.before.each((context) => {
    context.dir = mkdtempSync(join(tmpdir(), "claims-clock-"));
  });
  test.after.each((context) => rmSync(context.dir, { recursive: true, force: true }));

  const honest = thisMachine();
  const ahead = thisMachine(7200);
  const behind = thisMachine(-7200);

  test("should not let a process whose clock is 2 hours ahead take over, check past, or sweep a fresh claim", async ({ dir }) => {
    assert.is((await run(honest, ["take", "shared-config", "--dir", dir, "--holder", "honest", "--ttl", "60"])).code, 0);
    const stolen = await run(ahead, ["take", "shared-config", "--dir", dir, "--holder", "ahead", "--json"]);
    assert.is(stolen.code, 3, `a taker 2 hours ahead took over a claim taken a moment ago: ${stolen.stdout}${stolen.stderr}`);
    assert.match(JSON.parse(stolen.stdout).refused[0].holder, "honest");
    assert.is((await run(ahead, ["check", "shared-config", "--dir", dir, "--holder", "ahead"])).code, 3);
    const swept = JSON.parse((await run(ahead, ["sweep", "--dir", dir, "--json"])).stdout);
    assert.equal(swept.removed, [], "a sweep 2 hours ahead removed a fresh claim");
    const status = JSON.parse((await run(ahead, ["status", "shared-config", "--dir", dir, "--json"])).stdout);
    assert.is(status.claims[0].stale, false);
    assert.is((await run(honest, ["beat", "shared-config", "--dir", dir, "--holder", "honest"])).code, 0, "the honest holder still holds it");
  });

  test("should not let a holder whose clock is 2 hours behind be robbed, and keep its claim its own", async ({ dir }) => {
    assert.is((await run(behind, ["take", "memory-file", "--dir", dir, "--holder", "behind"])).code, 0);
    const robbed = await run(honest, ["take", "memory-file", "--dir", dir, "--holder", "honest", "--json"]);
    assert.is(robbed.code, 3, `an honest taker took over the claim of a holder 2 hours behind, taken a moment ago: ${robbed.stdout}`);
    const swept = JSON.parse((await run(honest, ["sweep", "--dir", dir, "--json"])).stdout);
    assert.equal(swept.removed, []);
    const beat = await run(behind, ["beat", "memory-file", "--dir", dir, "--holder", "behind", "--json"]);
    assert.is(beat.code, 0, beat.stderr);
    assert.is((await run(behind, ["release", "memory-file", "--dir", dir, "--holder", "behind"])).code, 0);
    assert.is((await run(honest, ["take", "memory-file", "--dir", dir, "--holder", "honest"])).code, 0, "released: free for the next");
  });

  test("should not let a process 2 hours ahead drop a live waiter's place in the queue", async ({ dir }) => {
    assert.is((await run(honest, ["take", "T", "--dir", dir, "--holder", "A"])).code, 0);
    assert.is((await run(honest, ["take", "T", "--dir", dir, "--holder", "B", "--queue"])).code, 6);
    assert.is((await run(ahead, ["take", "U", "--dir", dir, "--holder", "C"])).code, 0, "an unrelated take, which prunes dead waiters");
    const released = JSON.parse((await run(honest, ["release", "T", "--dir", dir, "--holder", "A", "--json"])).stdout);
    assert.equal(released.handed_to, [{ target: "T", holder: "B" }], `the queue was jumped: ${JSON.stringify(released)}`);
  });

  test("should not let a waiter whose clock runs ten times fast take over a claim beaten every second", async ({ dir }) => {
    const fast: Machine = { name: "a fast clock", wrap: (command) => ["faketime", "-f", "+0 x10", ...command] };
    assert.is((await run(honest, ["take", "T", "--dir", dir, "--holder", "A", "--ttl", "5"])).code, 0);
    let beating = true;
    const beats: number[] = [];
    const beater = (async () => {
      while (beating) {
        await new Promise((resolve) => setTimeout(resolve, 700));
        beats.push((await run(honest, ["beat", "T", "--dir", dir, "--holder", "A"])).code);
      }
    })();
    // 60 s on its clock: 6 s of real time, in which its clock runs 54 s ahead of the kernel's.
    const waited = await run(fast, ["take", "T", "--dir", dir, "--holder", "B", "--wait", "60", "--json"]);
    beating = false;
    await beater;
    assert.is(waited.code, 5, `the fast waiter was granted a claim beaten every 0.7 s: ${waited.stdout}`);
    assert.ok(beats.length >= 5 && beats.every((code) => code === 0), `the holder's beats: ${beats.join(" ")}`);
  });

  test("should judge by the kernel's clock where the claims directory is read-only to the process (a sandbox's mount)", async ({ dir }) => {
    assert.is((await run(honest, ["take", "T", "--dir", dir, "--holder", "A", "--ttl", "60"])).code, 0);
    const readOnlyAhead: Machine = {
      name: "a sandbox 2 hours ahead",
      wrap: (command) => ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"', dir, "faketime", "-f", "+7200s", ...command],
    };
    const checked = await run(readOnlyAhead, ["check", "T", "--dir", dir, "--holder", "B", "--json"]);
    assert.is(checked.code, 3, `a fresh claim was judged stale where the probe could not be written: ${checked.stdout}${checked.stderr}`);
  });

  test("should hold a fresh claim against a process 2 hours behind that can read no clock (read-only directory, no temp directory)", async ({ dir }) => {
    assert.is((await run(honest, ["take", "T", "--dir", dir, "--holder", "A", "--ttl", "60"])).code, 0);
    const readOnlyBehind: Machine = {
      name: "a sandbox 2 hours behind",
      wrap: (command) => ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"', dir, "faketime", "-f", "-7200s", ...command],
    };
    const checked = await run(readOnlyBehind, ["check", "T", "--dir", dir, "--holder", "B", "--json"], { TMPDIR: "/nonexistent" });
    assert.is(checked.code, 3, `a claim a moment old was judged stale by a clock 2 hours behind: ${checked.stdout}${checked.stderr}`);
  });

  test("should tell a holder whose clock is 4 s behind that its claim was lost once the others found it stale", async ({ dir }) => {
    const slightlyBehind = thisMachine(-4);
    const tree = join(dir, "tree");
    assert.is((await run(slightlyBehind, ["take", `${tree}/`, "--dir", dir, "--holder", "A", "--ttl", "5"])).code, 0);
    await new Promise((resolve) => setTimeout(resolve, 5600));
    // Its heartbeat reads 9.6 s old to the others, its file 5.6 s: stale (TTL 5 s). To it, the
    // heartbeat reads 5.6 s old, and its file (on the kernel's clock) 1.6 s: it must read the clock.
    assert.is((await run(honest, ["take", `${tree}/a.ts`, "--dir", dir, "--holder", "B"])).code, 0);
    const beat = await run(slightlyBehind, ["beat", `${tree}/`, "--dir", dir, "--holder", "A"]);
    assert.is(beat.code, 4, `the holder renewed a claim another took over inside: ${beat.stdout}${beat.stderr}`);
  });

  test("should not let a process 1.45 s ahead, within the tolerance that leaves its clock uncorrected, take over a claim in the last 1.45 s of its lease", async ({ dir }) => {
    const slightlyAhead = thisMachine(1.45);
    const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - Date.now())));
    // Taken just after a second S starts: its heartbeat reads S+1 (rounded up), its lease (TTL 2 s) ends at S+3.
    await until(Math.ceil(Date.now() / 1000) * 1000 + 50);
    const second = Math.floor(Date.now() / 1000) * 1000;
    assert.is((await run(honest, ["take", "edge", "--dir", dir, "--holder", "honest", "--ttl", "2"])).code, 0);
    // From S+1.6 on, its clock reads past S+3 (the lease's end), while the lease still has 1.4 s to run.
    await until(second + 1600);
    const stolen = await run(slightlyAhead, ["take", "edge", "--dir", dir, "--holder", "ahead", "--json"]);
    if (Date.now() < second + 3000) assert.is(stolen.code, 3, `a taker 1.45 s ahead took over a claim inside its lease: ${stolen.stdout}${stolen.stderr}`);
    else assert.ok([0, 3].includes(stolen.code), "(the lease had ended by the time it answered: either is right)");
  });

  test("should let a process ahead take over a claim that really went stale, stamped on the kernel's clock", async ({ dir }) => {
    const twoHoursAgo = Math.floor(Date.now() / 1000) - 7200;
    const at = new Date(twoHoursAgo * 1000).toISOString().replace(".000Z", "Z");
    const path = join(dir, "left-behind.json");
    writeFileSync(path, `${JSON.stringify({ target: "left-behind", holder: "ghost", purpose: "crashed", taken_at: at, heartbeat_at: at })}\n`);
    utimesSync(path, twoHoursAgo, twoHoursAgo);
    const taken = await run(ahead, ["take", "left-behind", "--dir", dir, "--holder", "ahead", "--json"]);
    assert.is(taken.code, 0, taken.stdout + taken.stderr);
    const claim = JSON.parse((await run(honest, ["status", "left-behind", "--dir", dir, "--json"])).stdout).claims[0];
    assert.is(claim.holder, "ahead");
    assert.ok(Math.abs(claim.heartbeat_age_seconds) <= 5, `the new claim's heartbeat reads ${claim.heartbeat_age_seconds} s old on the kernel's clock`);
  });
}

test.run();
