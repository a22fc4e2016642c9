// A take killed inside a sandbox of its own pid namespace (bubblewrap, a container sharing the
// claims directory) while it holds the take lock: its pid means nothing here, so it is looked up in
// that namespace. Gone with it, the lock is passed over at once, never waited for forever. And a
// live owner in a time namespace of its own, whose start time /proc shows shifted, is waited for.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, sandbox } from "./helpers.js";

const test = suite("a lock of a process in another pid or time namespace");
const unshare = spawnSync("unshare", ["--version"]).status === 0;
if (process.platform !== "linux" || process.getuid?.() !== 0 || !unshare) {
  console.log("\n  SKIPPED: a pid namespace of its own needs root and unshare on Linux.\n");
  test.skip("should pass over the take lock of a take killed in a pid namespace that is gone", () => undefined);
} else {
  test("should pass over the take lock of a take killed in a pid namespace that is gone", () => {
    const box = sandbox();
    try {
      assert.is(claims(["take", "name:warm", "--dir", box.dir, "--holder", "w"]).code, 0);
      assert.is(claims(["release", "--dir", box.dir, "--holder", "w"]).code, 0);
      // Killed holding the take lock (not as the namespace's pid 1, which SIGKILL from inside cannot stop).
      const killed = spawnSync("unshare", ["--pid", "--fork", "--mount-proc", "sh", "-c", `"$0" "$1" take name:job --dir "$2" --holder sandboxed; echo "inner $?"`, process.execPath, BIN, box.dir], {
        env: cleanEnv({ CLAIMS_CRASH_AT: "token-issued" }),
        encoding: "utf8",
      });
      assert.match(killed.stdout, /inner 137/, killed.stdout + killed.stderr);
      assert.ok(readdirSync(box.dir).some((name) => name.startsWith(".lock-")), "it left its lock");
      const next = claims(["take", "name:other", "--dir", box.dir, "--holder", "h"]);
      assert.is(next.code, 0, next.stdout + next.stderr);
      assert.match(next.stdout, /granted other/);
    } finally {
      box.cleanup();
    }
  });

  test("should wait for a live lock owner of its own pid namespace when /proc is another namespace's (no --mount-proc)", () => {
    // `unshare -p -f` without --mount-proc, bwrap without --proc: /proc/<pid> there is the parent
    // namespace's process of that number, not the owner; taken for a dead owner, its locks were
    // passed over and a stale claim taken over twice.
    const box = sandbox();
    try {
      const script = `
        node="$0"; bin="$1"; dir="$2"
        "$node" "$bin" take t --holder old --ttl 1 --dir "$dir" >/dev/null
        sleep 2.2
        CLAIMS_STOP_AT=before-rename "$node" "$bin" take t --holder p1 --ttl 60 --dir "$dir" >/dev/null & p1=$!
        for i in $(seq 1 200); do [ "$(ls -a "$dir" | grep -c '^\\.lock')" -ge 2 ] && break; sleep 0.05; done
        "$node" "$bin" take t --holder p2 --ttl 60 --dir "$dir" >/dev/null & p2=$!
        sleep 2
        kill -CONT $p1; wait $p1; echo "p1 $?"; wait $p2; echo "p2 $?"`;
      const run = spawnSync("unshare", ["--pid", "--fork", "sh", "-c", script, process.execPath, BIN, box.dir], { env: cleanEnv(), encoding: "utf8" });
      assert.match(run.stdout, /p1 0\np2 3\n/, run.stdout + run.stderr);
      assert.is(JSON.parse(readFileSync(join(box.dir, "t.json"), "utf8")).holder, "p1");
    } finally {
      box.cleanup();
    }
  });

  const timeNamespaces = spawnSync("unshare", ["--time", "--boottime", "100000", "--fork", "true"]).status === 0;
  (timeNamespaces ? test : test.skip)("should wait for a live take-lock owner of another time namespace, whose start time /proc shows shifted", () => {
    // /proc shows a process's start time shifted by the reader's time namespace's boot offset: read
    // from here, a live owner in `unshare -T` looked like one whose pid was used again, its take lock
    // was passed over, and a directory and a file under it were both granted.
    const box = sandbox();
    try {
      const script = `
        node="$0"; bin="$1"; dir="$2"; src="$3"
        CLAIMS_STOP_AT=before-link unshare --time --boottime 100000 --fork "$node" "$bin" take "$src/" --holder shifted --dir "$dir" >/dev/null & a=$!
        stopped=""
        for i in $(seq 1 200); do
          for p in $(pgrep -f -- "--holder shifted"); do grep -q '^[0-9]* ([^)]*) T' /proc/$p/stat 2>/dev/null && stopped=$p; done
          [ -n "$stopped" ] && break; sleep 0.05
        done
        [ -n "$stopped" ] || { echo "the owner never stopped"; exit 1; }
        "$node" "$bin" take "$src/a.ts" --holder here --dir "$dir" >/dev/null 2>&1 & b=$!
        sleep 1.5
        kill -CONT $stopped; wait $a; echo "shifted $?"; wait $b; echo "here $?"`;
      const src = join(box.project, "src");
      const run = spawnSync("bash", ["-c", script, process.execPath, BIN, box.dir, src], { env: cleanEnv(), encoding: "utf8", timeout: 60_000 });
      assert.match(run.stdout, /shifted 0\nhere 3\n/, run.stdout + run.stderr);
      const holders = readdirSync(box.dir).filter((name) => name.endsWith(".json") && !name.startsWith(".")).map((name) => JSON.parse(readFileSync(join(box.dir, name), "utf8")).holder);
      assert.equal(holders, ["shifted"], "one holder: the directory's");
    } finally {
      box.cleanup();
    }
  });

  (timeNamespaces ? test : test.skip)("should pass over the take lock of a dead owner of another time namespace whose pid another process now has", () => {
    // Its start time, recorded shifted by its namespace's boot offset, is put on this clock with
    // that offset (`tboot`): the process now under its pid started at another time, so it is not
    // the owner. Without the offset, that process was taken for the owner: takes waited until it
    // exited, and gave up with "busy".
    const box = sandbox();
    const other = spawn("sleep", ["120"], { stdio: "ignore" });
    try {
      assert.is(claims(["take", "name:warm", "--dir", box.dir, "--holder", "w"]).code, 0);
      assert.is(claims(["release", "--dir", box.dir, "--holder", "w"]).code, 0);
      const killed = spawnSync("unshare", ["--time", "--boottime", "100000", "--fork", "sh", "-c", `"$0" "$1" take name:job --dir "$2" --holder shifted; echo "inner $?"`, process.execPath, BIN, box.dir], {
        env: cleanEnv({ CLAIMS_CRASH_AT: "token-issued" }),
        encoding: "utf8",
      });
      assert.match(killed.stdout, /inner 137/, killed.stdout + killed.stderr);
      const locks = readdirSync(box.dir).filter((name) => name.startsWith(".lock-"));
      assert.is(locks.length, 1, "it left its take lock");
      const lock = join(box.dir, locks[0] as string);
      const record = JSON.parse(readFileSync(lock, "utf8"));
      assert.is(record.tboot, "100000000000000", "the owner recorded its namespace's boot offset");
      writeFileSync(lock, JSON.stringify({ ...record, pid: other.pid })); // its pid, now another process's
      const next = claims(["take", "name:other", "--dir", box.dir, "--holder", "h"]);
      assert.is(next.code, 0, next.stdout + next.stderr);
      assert.match(next.stdout, /granted other/);
    } finally {
      other.kill();
      box.cleanup();
    }
  });
}

test.run();
