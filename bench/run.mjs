#!/usr/bin/env node
// The benchmark suite (issue 7): whole-process timings of the built CLI, each against a baseline
// measured in the same run, interleaved with it, several runs after a warm-up, medians.
//
//   npm run bench                    build, then the full run (a few minutes)
//   node bench/run.mjs               the full run against the dist/ that is there
//   BENCH_QUICK=1 node bench/run.mjs fewer runs (well under a minute); also --quick
//   node bench/run.mjs --only take-release,check   just those rows (ids: see ROWS below; counts: the strace table)
//
// Prints a table and writes bench/results.json. Targets are reported, never asserted: the exit
// code is 0 whether or not they are met (it is 1 only when a measurement itself failed).
// Everything runs in a temporary directory (claims dirs, HOME) removed at the end.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);
const CLI = join(ROOT, "bin", "claims.js");
const INDEX = join(ROOT, "dist", "index.js");
const NODE = process.execPath;

const argv = process.argv.slice(2);
const QUICK = process.env.BENCH_QUICK === "1" || argv.includes("--quick");
const onlyAt = argv.indexOf("--only");
const ONLY = onlyAt !== -1 ? new Set(argv[onlyAt + 1].split(",")) : undefined;

/** Runs per measurement, after WARMUP discarded ones. Odd, so the median is one real run. */
const RUNS = QUICK ? 5 : 21;
const WARMUP = QUICK ? 1 : 3;
const RSS_RUNS = QUICK ? 3 : 9;
const STORE_RUNS = QUICK ? 3 : 11; // take/status/check against the 10,000-claim store
const SWEEP_RUNS = QUICK ? 1 : 5; // each needs a fresh store of 10,000 stale claims
const CONTENTION_RUNS = QUICK ? 3 : 9;
const CONTENDERS = 32;
const LIB_RUNS = QUICK ? 1 : 5;
const LIB_MS = QUICK ? 1000 : 2000;
const STORE_SIZE = 10_000;

if (!existsSync(INDEX) || !existsSync(join(ROOT, "dist", "cli.cjs"))) {
  console.error("bench: dist/ is not built; run npm run bench (which builds) or npm run build first.");
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Scratch space, and an environment that cannot reach the user's real claims.

const TMP = realpathSync(mkdtempSync(join(tmpdir(), "claims-bench-")));
const PROJECT = join(TMP, "project"); // cwd of every child; targets live under it
const HOME = join(TMP, "home");
for (const d of [PROJECT, HOME, join(PROJECT, "src")]) mkdirSync(d, { recursive: true });
writeFileSync(join(PROJECT, "src", "app.ts"), "export const a = 1;\n");

const ENV = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith("CLAIMS_") && key !== "CLAUDE_CODE_SESSION_ID" && key !== "XDG_STATE_HOME"),
);
// No XDG_STATE_HOME: the default claims directory is HOME's, as for most users (one that moves it
// also judges HOME's, docs/PROTOCOL.md 1).
Object.assign(ENV, { HOME, NO_COLOR: "1" });

let cleaned = false;
function cleanup() {
  if (cleaned) return;
  cleaned = true;
  rmSync(TMP, { recursive: true, force: true });
}
process.on("exit", cleanup);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    cleanup();
    process.exit(130);
  });
}

/**
 * Every section pins a claims directory of its own, and a pinned take of a path leaves a pointer
 * to it in the default directory (docs/PROTOCOL.md 1a), which every later pinned take of that path
 * follows. Cleared before each section, so none judges its files in an earlier one's directory: a
 * machine whose sessions all pin one directory has one such pointer, not a dozen.
 */
function forgetPointers() {
  rmSync(join(ENV.HOME, ".local", "state", "claims", ".pinned"), { recursive: true, force: true });
}

let dirCount = 0;
function freshDir(label) {
  const dir = join(TMP, `claims-${label}-${++dirCount}`);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Measurement primitives.

/** One whole process, timed from spawn to exit (the parent's spawn cost is in every figure alike). */
function run(command, args, { input, env = ENV, expect = [0] } = {}) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd: PROJECT, env, input, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.error) throw result.error;
  if (expect !== null && !expect.includes(result.status)) {
    throw new Error(`${[command, ...args].join(" ")} exited ${result.status} (expected ${expect.join(" or ")}): ${result.stderr.trim() || result.stdout.trim()}`);
  }
  return { ms, status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const claims = (args, options) => run(NODE, [CLI, ...args], options);
const nodeNoop = () => run(NODE, ["-e", "0"]);

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q) => {
    const i = (s.length - 1) * q;
    return s[Math.floor(i)] + (s[Math.ceil(i)] - s[Math.floor(i)]) * (i - Math.floor(i));
  };
  return { median: at(0.5), p25: at(0.25), p75: at(0.75), min: s[0], max: s[s.length - 1], n: s.length, samples };
}

/**
 * Interleaves subject and baseline: warm-up rounds are discarded, then each round runs both, in
 * alternating order, so drift in the machine's load hits both alike. Each function returns ms.
 */
function paired(subject, baseline, runs = RUNS, warmup = WARMUP) {
  const a = [];
  const b = [];
  for (let i = 0; i < warmup + runs; i++) {
    const order = i % 2 === 0 ? [subject, baseline] : [baseline, subject];
    const [first, second] = order.map((f) => f());
    if (i < warmup) continue;
    const [s, base] = i % 2 === 0 ? [first, second] : [second, first];
    a.push(s);
    b.push(base);
  }
  return { subject: stats(a), baseline: stats(b) };
}

async function pairedAsync(subject, baseline, runs, warmup) {
  const a = [];
  const b = [];
  for (let i = 0; i < warmup + runs; i++) {
    let s;
    let base;
    if (i % 2 === 0) {
      s = await subject();
      base = await baseline();
    } else {
      base = await baseline();
      s = await subject();
    }
    if (i < warmup) continue;
    a.push(s);
    b.push(base);
  }
  return { subject: stats(a), baseline: stats(b) };
}

// ---------------------------------------------------------------------------------------------
// Rows.

const rows = [];
let failures = 0;

/**
 * target: { kind: "ratio" | "value", max?: number, min?: number, text } compared with the ratio or
 * with the median. A row without a target is context.
 */
function addRow(row) {
  const { subject, baseline, target } = row;
  const ratio = baseline ? subject.median / baseline.median : undefined;
  let met = null;
  if (target) {
    const value = target.kind === "ratio" ? ratio : subject.median;
    met = (target.max === undefined || value <= target.max) && (target.min === undefined || value >= target.min);
  }
  rows.push({ ...row, ratio, met });
  printRow(rows[rows.length - 1]);
}

function unavailable(id, what, reason) {
  rows.push({ id, what, unavailable: reason });
  printRow(rows[rows.length - 1]);
}

const ROWS = {};
function section(id, fn) {
  ROWS[id] = fn;
}

// 0. What each call asks of the kernel: system calls (strace -f -c), fsyncs, files created and
// directory entries made or removed (strace -f -e trace=...). Exact counts, unlike the times.
const counts = [];
const STRACE = spawnSync("strace", ["-V"]).error === undefined;
const ENTRY_CALLS = "openat,open,creat,link,linkat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,fsync,fdatasync";

/** Runs one process under strace twice (a summary, then the file calls) and counts. */
function countCall(command, args, { input, env = ENV, expect = [0] } = {}, setup = () => {}) {
  const summary = join(TMP, "strace-summary.txt");
  const calls = join(TMP, "strace-calls.txt");
  setup();
  run("strace", ["-f", "-c", "-o", summary, command, ...args], { input, env, expect });
  setup();
  run("strace", ["-f", "-qq", "-o", calls, "-e", `trace=${ENTRY_CALLS}`, command, ...args], { input, env, expect });
  const bySyscall = {};
  for (const line of readFileSync(summary, "utf8").split("\n")) {
    const cells = line.trim().split(/\s+/);
    // % time, seconds, usecs/call, calls, [errors], syscall
    if (cells.length < 5 || !/^\d/.test(cells[0]) || cells[cells.length - 1] === "total") continue;
    bySyscall[cells[cells.length - 1]] = Number(cells[3]);
  }
  const syscalls = Object.values(bySyscall).reduce((a, b) => a + b, 0);
  const lines = readFileSync(calls, "utf8").split("\n").filter((line) => !/ = -1 /.test(line)); // successful calls only
  const count = (pattern) => lines.filter((line) => pattern.test(line)).length;
  return {
    syscalls,
    fsync: (bySyscall.fsync ?? 0) + (bySyscall.fdatasync ?? 0),
    // A file created: an open with O_CREAT that is not an append to the log (which exists).
    files: count(/\bopen(at)?\(.*O_CREAT/) - count(/\bopen(at)?\(.*O_CREAT.*O_APPEND|\bopen(at)?\(.*O_APPEND.*O_CREAT/),
    links: count(/\blink(at)?\(/),
    renames: count(/\brename(at2?)?\(/),
    unlinks: count(/\bunlink(at)?\(/),
    by_syscall: bySyscall,
  };
}

function printCounts() {
  if (!STRACE) {
    console.log("(counts: strace is not installed; apt-get install strace to print system-call, fsync and file counts)");
    return;
  }
  const dir = freshDir("counts");
  const target = join(PROJECT, "src", "app.ts");
  const base = ["--dir", dir, "--holder", "bench-a"];
  const free = () => {
    for (const holder of ["bench-a", "bench-b"]) claims(["release", target, "--dir", dir, "--holder", holder], { expect: null });
  };
  claims(["take", "warm", ...base]); // the directory, .takes and the log exist, as in use
  claims(["release", "warm", ...base]);
  // and the pointer a pinned take of a path leaves where unpinned sessions claim it (PROTOCOL.md 1a), made by its first
  const other = join(PROJECT, "src", "warm.ts");
  claims(["take", other, ...base]);
  claims(["release", other, ...base]);
  const held = (holder) => () => {
    free();
    claims(["take", target, "--dir", dir, "--holder", holder, "--purpose", "bench"]);
  };
  const rows = [
    ["node -e 0", NODE, ["-e", "0"], {}, () => {}],
    ["take (free)", NODE, [CLI, "take", target, ...base, "--purpose", "bench"], {}, free],
    ["release", NODE, [CLI, "release", target, ...base], {}, held("bench-a")],
    ["take refused (held by another)", NODE, [CLI, "take", target, ...base, "--purpose", "bench"], { expect: [3] }, held("bench-b")],
    ["check (allowed)", NODE, [CLI, "check", target, ...base], {}, free],
  ];
  // Another file: the hook's session pins a directory of its own, and its claim would refuse the rows' takes of theirs.
  const hooked = join(PROJECT, "src", "hooked.ts");
  writeFileSync(hooked, "export const a = 1;\n");
  const payload = `${JSON.stringify({ session_id: "bench-s1", hook_event_name: "PreToolUse", cwd: PROJECT, tool_name: "Edit", tool_input: { file_path: hooked, old_string: "a", new_string: "b" } })}\n`;
  const hookEnv = { ...ENV, CLAIMS_DIR: freshDir("counts-hook") };
  const hookProbe = claims(["hook", "claude"], { input: payload, env: hookEnv, expect: null });
  if (hookProbe.status === 0) {
    // The session's own claim, renewed seconds ago (the first call took it): the hook only reads.
    rows.push(["hook claude (own fresh claim)", NODE, [CLI, "hook", "claude"], { input: payload, env: hookEnv }, () => claims(["hook", "claude"], { input: payload, env: hookEnv, expect: null })]);
  }
  for (const [what, command, args, options, setup] of rows) counts.push({ what, ...countCall(command, args, options, setup) });
  free();
  const floor = counts[0].syscalls;
  console.log(`${"system calls per call (strace -f)".padEnd(42)} ${"syscalls".padStart(9)} ${"above node".padStart(11)} ${"fsync".padStart(6)} ${"files".padStart(6)} ${"links".padStart(6)} ${"renames".padStart(8)} ${"unlinks".padStart(8)}`);
  for (const row of counts) {
    console.log(`${row.what.padEnd(42)} ${String(row.syscalls).padStart(9)} ${(row === counts[0] ? "" : `+${row.syscalls - floor}`).padStart(11)} ${String(row.fsync).padStart(6)} ${String(row.files).padStart(6)} ${String(row.links).padStart(6)} ${String(row.renames).padStart(8)} ${String(row.unlinks).padStart(8)}`);
  }
  console.log("");
}

// 1. Cold start: take + release against two `node -e 0`.
section("take-release", () => {
  const dir = freshDir("cold");
  const target = join(PROJECT, "src", "app.ts");
  const take = [];
  const release = [];
  const result = paired(
    () => {
      const t = claims(["take", target, "--dir", dir, "--holder", "bench-a", "--purpose", "bench"]).ms;
      const r = claims(["release", target, "--dir", dir, "--holder", "bench-a"]).ms;
      take.push(t);
      release.push(r);
      return t + r;
    },
    () => nodeNoop().ms + nodeNoop().ms,
  );
  addRow({
    id: "take-release",
    what: "take X + release X (two processes)",
    unit: "ms",
    subject: result.subject,
    baseline: { what: "2 x node -e 0", ...result.baseline },
    target: { kind: "ratio", max: 1.15, text: "<= 1.15x" },
  });
  // The same runs split into their two processes (warm-ups dropped), against one node -e 0.
  const half = stats(result.baseline.samples.map((ms) => ms / 2));
  addRow({ id: "take", what: "  take alone (the pairs' takes)", unit: "ms", subject: stats(take.slice(WARMUP)), baseline: { what: "node -e 0 (half the pair)", ...half } });
  addRow({ id: "release", what: "  release alone (the pairs' releases)", unit: "ms", subject: stats(release.slice(WARMUP)), baseline: { what: "node -e 0 (half the pair)", ...half } });
});

// 2. check, and the Claude Code PreToolUse hook.
section("check", () => {
  const dir = freshDir("check");
  // A few claims of another session elsewhere, so check has something to compare against.
  for (const target of ["shared-config", join(TMP, "elsewhere") + "/", join(TMP, "other", "**", "*.md")]) {
    claims(["take", target, "--dir", dir, "--holder", "bench-other", "--purpose", "in the way elsewhere"]);
  }
  const path = join(PROJECT, "src", "app.ts");
  const result = paired(() => claims(["check", path, "--dir", dir, "--holder", "bench-a"]).ms, () => nodeNoop().ms);
  addRow({
    id: "check",
    what: "check PATH (allowed)",
    unit: "ms",
    subject: result.subject,
    baseline: { what: "node -e 0", ...result.baseline },
    target: { kind: "ratio", max: 1.08, text: "<= 1.08x" },
  });
});

section("hook", () => {
  const id = "hook";
  const what = "hook claude (PreToolUse Edit payload)";
  const dir = freshDir("hook");
  const path = join(PROJECT, "src", "app.ts");
  const payload = `${JSON.stringify({
    session_id: "bench-s1",
    hook_event_name: "PreToolUse",
    cwd: PROJECT,
    tool_name: "Edit",
    tool_input: { file_path: path, old_string: "a", new_string: "b" },
  })}\n`;
  const env = { ...ENV, CLAIMS_DIR: dir };
  const probe = claims(["hook", "claude"], { input: payload, env, expect: null });
  if (/unknown command/i.test(probe.stderr) && /hook/.test(probe.stderr)) {
    unavailable(id, what, "not available (claims hook not built)");
    return;
  }
  if (probe.status !== 0) {
    unavailable(id, what, `not measured: exit ${probe.status} on an unclaimed file (${(probe.stderr || probe.stdout).trim().split("\n")[0]})`);
    return;
  }
  // What the hook did with the free file: with auto-take (the default) the session now holds it.
  const held = JSON.parse(claims(["status", path, "--json", "--dir", dir]).stdout).claims.map((c) => `${c.holder} holds ${c.target === path ? "the file" : c.target}`);
  const result = paired(() => claims(["hook", "claude"], { input: payload, env }).ms, () => nodeNoop().ms);
  addRow({
    id,
    what,
    unit: "ms",
    subject: result.subject,
    baseline: { what: "node -e 0", ...result.baseline },
    target: { kind: "ratio", max: 1.12, text: "<= 1.12x" },
    note: `payload on stdin, CLAIMS_DIR set; first call: exit ${probe.status}, ${held.length ? held.join(", ") : "no claim taken"}; the timed calls find the session's own claim, renewed seconds ago, so they only read (a heartbeat is rewritten once it is a minute old)`,
  });
  // The same call when the session's claim is two minutes old: the hook rewrites its heartbeat.
  const claimFile = join(dir, readdirSync(dir).find((name) => name.endsWith(".json") && !name.startsWith(".")));
  const age = () => {
    const claim = JSON.parse(readFileSync(claimFile, "utf8"));
    claim.heartbeat_at = new Date(Date.now() - 120_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    writeFileSync(claimFile, `${JSON.stringify(claim, null, 2)}\n`);
  };
  const renewing = paired(() => (age(), claims(["hook", "claude"], { input: payload, env }).ms), () => nodeNoop().ms);
  addRow({
    id: "hook-renewing",
    what: "  hook claude, renewing a claim 2 min old",
    unit: "ms",
    subject: renewing.subject,
    baseline: { what: "node -e 0", ...renewing.baseline },
    note: "the claim's heartbeat set two minutes back (untimed) before each call",
  });
  // Bash: every command an agent runs goes through the hook. One the gate passes as writing nothing
  // (src/hooks/shell-gate.ts), and one it hands to the shell reader (the parser loads).
  for (const [rowId, command, shown] of [
    ["hook-bash-read", "ls -la src && git status", "Bash writing nothing"],
    ["hook-bash-write", `sed -i s/a/b/ ${path}`, "Bash writing its file"],
  ]) {
    const bash = `${JSON.stringify({ session_id: "bench-s1", hook_event_name: "PreToolUse", cwd: PROJECT, tool_name: "Bash", tool_input: { command } })}\n`;
    const timed = paired(() => claims(["hook", "claude"], { input: bash, env }).ms, () => nodeNoop().ms);
    addRow({ id: rowId, what: `  hook claude, ${shown}`, unit: "ms", subject: timed.subject, baseline: { what: "node -e 0", ...timed.baseline }, note: `\`${command}\`, the session's own claim on the file` });
  }
  const passiveEnv = { ...env, CLAIMS_DIR: freshDir("hook-passive") };
  const passive = paired(() => claims(["hook", "claude", "--no-auto-take"], { input: payload, env: passiveEnv }).ms, () => nodeNoop().ms);
  addRow({
    id: "hook-no-auto-take",
    what: "  hook claude --no-auto-take",
    unit: "ms",
    subject: passive.subject,
    baseline: { what: "node -e 0", ...passive.baseline },
    note: "the same payload, checking only",
  });
});

// 3. Peak RSS of a take.
section("rss", () => {
  const dir = freshDir("rss");
  const target = join(PROJECT, "src", "app.ts");
  const gnuTime = existsSync("/usr/bin/time") && spawnSync("/usr/bin/time", ["-f", "%M", "true"], { encoding: "utf8" }).status === 0;
  const out = join(TMP, "rss.txt");
  const measure = (args) => {
    if (gnuTime) run("/usr/bin/time", ["-f", "%M", "-o", out, NODE, ...args]);
    else run(NODE, [join(HERE, "rss-wrapper.mjs"), out, ...(args[0] === "-e" ? ["-"] : args)]);
    return Number(readFileSync(out, "utf8").trim().split("\n").pop()) / 1024; // KiB -> MiB
  };
  const result = paired(
    () => {
      const mib = measure([CLI, "take", target, "--dir", dir, "--holder", "bench-a", "--purpose", "bench"]);
      claims(["release", target, "--dir", dir, "--holder", "bench-a"]);
      return mib;
    },
    () => measure(["-e", "0"]),
    RSS_RUNS,
    1,
  );
  addRow({
    id: "rss",
    what: "peak RSS of take",
    unit: "MiB",
    subject: result.subject,
    baseline: { what: "node -e 0", ...result.baseline },
    target: { kind: "value", max: 60, text: "< 60 MiB" },
    note: gnuTime ? "/usr/bin/time -f %M" : "process.resourceUsage().maxRSS via bench/rss-wrapper.mjs",
  });
});

// 4. A store of 10,000 claims.
let claimFileName;
async function loadLibrary() {
  claimFileName ??= (await import(pathToFileURL(INDEX).href)).claimFileName;
}

/**
 * Writes STORE_SIZE claim files directly in the documented format (PROTOCOL.md sections 3 and 4):
 * a quarter each of names, absolute paths, directories and globs, held by 50 other sessions, all
 * under TMP/far so none overlaps the benchmark's own targets under PROJECT.
 */
function buildStore(dir, { stale }) {
  const now = Date.now();
  const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  const heartbeat = iso(stale ? now - 2 * 3600_000 : now - 60_000);
  const takenAt = iso(stale ? now - 3 * 3600_000 : now - 600_000);
  const far = join(TMP, "far");
  for (let i = 0; i < STORE_SIZE; i++) {
    const n = String(i).padStart(5, "0");
    const target = [`shared-name-${n}`, `${far}/p${n}/src/file.ts`, `${far}/d${n}/`, `${far}/g${n}/**/*.ts`][i % 4];
    const claim = { target, holder: `bench-other-${i % 50}`, purpose: `bench claim ${n}`, taken_at: takenAt, heartbeat_at: heartbeat };
    const path = join(dir, claimFileName(target));
    writeFileSync(path, `${JSON.stringify(claim, null, 2)}\n`, { mode: 0o600 });
    // A claim is stale only when its file is old too (docs/PROTOCOL.md 5), as a dead holder's is.
    if (stale) utimesSync(path, new Date(now - 2 * 3600_000), new Date(now - 2 * 3600_000));
  }
}

section("store", async () => {
  await loadLibrary();
  const big = freshDir("big");
  const t0 = performance.now();
  buildStore(big, { stale: false });
  const buildMs = performance.now() - t0;
  const empty = freshDir("empty");
  const target = join(PROJECT, "new", "file.ts"); // overlaps none of the 10,000
  // Directory and take lock set up in both, so neither run pays for creating them.
  for (const dir of [big, empty]) {
    claims(["take", "warm", "--dir", dir, "--holder", "bench-a"]);
    claims(["release", "warm", "--dir", dir, "--holder", "bench-a"]);
  }
  const takeIn = (dir) => () => {
    const { ms, stdout } = claims(["take", target, "--dir", dir, "--holder", "bench-a", "--purpose", "bench", "--json"]);
    if (JSON.parse(stdout).granted.length !== 1) throw new Error(`take in ${dir} was not granted: ${stdout}`);
    claims(["release", target, "--dir", dir, "--holder", "bench-a"]);
    return ms;
  };
  const take = paired(takeIn(big), takeIn(empty), STORE_RUNS, 1);
  addRow({
    id: "take-10k",
    what: `take of a new path, ${STORE_SIZE} claims`,
    unit: "ms",
    subject: take.subject,
    baseline: { what: "the same take, empty store", ...take.baseline },
    target: { kind: "ratio", max: 1.15, text: "<= 1.15x" },
    note: `store written directly in ${buildMs.toFixed(0)} ms: ${STORE_SIZE / 4} each of names, paths, directories, globs; 50 holders`,
  });

  const checkPath = join(PROJECT, "src", "app.ts");
  const check = paired(
    () => claims(["check", checkPath, "--dir", big, "--holder", "bench-a"]).ms,
    () => claims(["check", checkPath, "--dir", empty, "--holder", "bench-a"]).ms,
    STORE_RUNS,
    1,
  );
  addRow({ id: "check-10k", what: `check PATH, ${STORE_SIZE} claims`, unit: "ms", subject: check.subject, baseline: { what: "the same check, empty store", ...check.baseline } });

  for (const json of [false, true]) {
    const args = ["status", "--dir", big, "--holder", "bench-a", ...(json ? ["--json"] : [])];
    const probe = claims(args);
    const listed = json ? JSON.parse(probe.stdout).claims.length : STORE_SIZE;
    if (listed !== STORE_SIZE) throw new Error(`status --json listed ${listed} claims, expected ${STORE_SIZE}`);
    const result = paired(() => claims(args).ms, () => nodeNoop().ms, STORE_RUNS, 1);
    addRow({
      id: json ? "status-json-10k" : "status-10k",
      what: `status${json ? " --json" : ""}, ${STORE_SIZE} claims`,
      unit: "ms",
      subject: result.subject,
      baseline: { what: "node -e 0", ...result.baseline },
      target: { kind: "value", max: 500, text: "< 500 ms" },
      note: `${probe.stdout.length} bytes of output`,
    });
  }
});

section("sweep", async () => {
  await loadLibrary();
  const result = paired(
    () => {
      const dir = freshDir("sweep");
      buildStore(dir, { stale: true });
      const { ms, stdout } = claims(["sweep", "--dir", dir, "--json"]);
      const removed = JSON.parse(stdout).removed.length;
      if (removed !== STORE_SIZE) throw new Error(`sweep removed ${removed} claims, expected ${STORE_SIZE}`);
      rmSync(dir, { recursive: true, force: true });
      return ms;
    },
    () => nodeNoop().ms,
    SWEEP_RUNS,
    0,
  );
  addRow({
    id: "sweep-10k",
    what: `sweep of ${STORE_SIZE} stale claims`,
    unit: "ms",
    subject: result.subject,
    baseline: { what: "node -e 0", ...result.baseline },
    target: { kind: "value", max: 2000, text: "< 2000 ms" },
    note: "each run on a freshly written store; sweep --json, all removed verified",
  });
});

// 5. Contention: 32 concurrent processes, wall time until the last has exited.
function concurrently(argsFor) {
  return new Promise((resolve, reject) => {
    const codes = [];
    let left = CONTENDERS;
    const start = process.hrtime.bigint();
    for (let i = 0; i < CONTENDERS; i++) {
      const child = spawn(NODE, argsFor(i), { cwd: PROJECT, env: ENV, stdio: "ignore" });
      child.on("error", reject);
      child.on("exit", (code) => {
        codes.push(code);
        if (--left === 0) resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, codes });
      });
    }
  });
}

section("contention", async () => {
  const target = join(PROJECT, "src", "app.ts");
  const outcomes = [];
  const result = await pairedAsync(
    async () => {
      const dir = freshDir("race");
      claims(["take", "warm", "--dir", dir, "--holder", "bench-a"]);
      claims(["release", "warm", "--dir", dir, "--holder", "bench-a"]);
      const { ms, codes } = await concurrently((i) => [CLI, "take", target, "--dir", dir, "--holder", `bench-racer-${i}`, "--purpose", "race"]);
      const granted = codes.filter((c) => c === 0).length;
      const refused = codes.filter((c) => c === 3).length;
      if (granted !== 1 || refused !== CONTENDERS - 1) throw new Error(`${CONTENDERS} takes of one target: exit codes ${codes.join(",")}`);
      outcomes.push({ granted, refused });
      rmSync(dir, { recursive: true, force: true });
      return ms;
    },
    async () => {
      const { ms, codes } = await concurrently(() => ["-e", "0"]);
      if (codes.some((c) => c !== 0)) throw new Error(`node -e 0 failed: ${codes.join(",")}`);
      return ms;
    },
    CONTENTION_RUNS,
    QUICK ? 0 : 1,
  );
  addRow({
    id: "contention-32",
    what: `${CONTENDERS} concurrent takes of one target`,
    unit: "ms",
    subject: result.subject,
    baseline: { what: `${CONTENDERS} concurrent node -e 0`, ...result.baseline },
    target: { kind: "ratio", max: 1.25, text: "<= 1.25x" },
    note: `every run: exactly 1 granted (exit 0), ${CONTENDERS - 1} refused (exit 3); ${cpus().length} CPUs`,
  });
});

// 6. In-process library throughput.
section("library", () => {
  const worker = join(HERE, "lib-worker.mjs");
  // One directory for both: on ext4 the cost of creating a file depends on the block group the
  // directory landed in (0.02 ms or 1 ms per create on the machine of docs/BENCHMARKS.md).
  const dir = freshDir("lib");
  const once = (mode) => JSON.parse(run(NODE, [worker, mode, pathToFileURL(INDEX).href, dir, PROJECT, String(LIB_MS)]).stdout).pairs_per_second;
  const result = paired(() => once("lib"), () => once("floor"), LIB_RUNS, 0);
  addRow({
    id: "library",
    what: "library take + release, pairs/s",
    unit: "/s",
    subject: result.subject,
    baseline: { what: "bare link+unlink+fsyncs, pairs/s", ...result.baseline },
    note: `one path target, ${LIB_MS} ms per run after 20 warm-up pairs, in a fresh node process; ratio < 1 means slower than the floor`,
  });
});

// 7. A tool call inside a running `claims mcp` server: what an MCP user pays, start-up aside.
// Twice: as docs/MCP.md sets the server up (`claims mcp`, the default claims directory), which
// carries the target, and with --dir, whose takes also look in the default directory and look
// again after each grant (docs/PROTOCOL.md 1a).
section("mcp", () => {
  const measure = (mode) => JSON.parse(run(NODE, [join(HERE, "mcp-worker.mjs"), CLI, pathToFileURL(INDEX).href, freshDir("mcp"), PROJECT, String(QUICK ? 50 : 300), mode]).stdout);
  const setup = measure("setup");
  addRow({
    id: "mcp-claim-release",
    what: "MCP claim + release, in a running server",
    unit: "ms",
    subject: stats(setup.pairs),
    baseline: { what: "library take + release, in-process", ...stats(setup.library) },
    target: { kind: "value", max: 2, text: "< 2 ms" },
    note: `\`claims mcp\` as docs/MCP.md sets it up (the default claims directory); two tool calls over stdio from the SDK client, a free path, fsyncs included, interleaved with the library pair; a ping round trip: ${stats(setup.ping).median.toFixed(2)} ms`,
  });
  addRow({
    id: "mcp-floor",
    what: "  floor: 2 pings + the bare file operations",
    unit: "ms",
    subject: stats(setup.floor),
    baseline: { what: "the MCP claim + release above", ...stats(setup.pairs) },
    note: "what no server could answer a claim + release in on this machine: two ping round trips of the same client and server around the bare durable file operations of a take and a release (write, fsync, link, fsync the directory; unlink, fsync the directory), timed together, interleaved with the rows above; a tool call costs the client more than a ping",
  });
  const pinned = measure("pinned");
  addRow({
    id: "mcp-claim-release-pinned",
    what: "  the same, server run with --dir",
    unit: "ms",
    subject: stats(pinned.pairs),
    baseline: { what: "library take + release, --dir", ...stats(pinned.library) },
    note: `a pinned directory: each take also looks in the default directory, and again after its grant; a ping round trip: ${stats(pinned.ping).median.toFixed(2)} ms`,
  });
});

// 8a. What a machine-wide NODE_EXTRA_CA_CERTS costs every Node start-up, claims or not.
section("ca-certs", () => {
  const bundle = process.env.NODE_EXTRA_CA_CERTS;
  if (!bundle) return;
  const without = { ...ENV };
  delete without.NODE_EXTRA_CA_CERTS;
  const result = paired(() => nodeNoop().ms, () => run(NODE, ["-e", "0"], { env: without }).ms);
  addRow({
    id: "ca-certs",
    what: "node -e 0 with NODE_EXTRA_CA_CERTS",
    unit: "ms",
    subject: result.subject,
    baseline: { what: "node -e 0 without it", ...result.baseline },
    note: `NODE_EXTRA_CA_CERTS=${bundle} is set here; every baseline above includes it`,
  });
});

// 8. flock(1) on the same filesystem: the native floor.
section("flock", () => {
  if (spawnSync("flock", ["--version"]).error) return unavailable("flock", "flock -n FILE true", "not available (no flock(1) on PATH)");
  const file = join(freshDir("flock"), ".lockfile");
  writeFileSync(file, "");
  const result = paired(() => run("flock", ["-n", file, "true"]).ms, () => nodeNoop().ms);
  addRow({
    id: "flock",
    what: "flock -n FILE true (native floor)",
    unit: "ms",
    subject: result.subject,
    baseline: { what: "node -e 0", ...result.baseline },
    note: "util-linux flock(1), same filesystem as the claims directories; context only",
  });
});

// ---------------------------------------------------------------------------------------------
// Output.

const COLUMNS = [
  ["what", 42],
  ["median", 10],
  ["baseline", 34],
  ["base med.", 10],
  ["ratio", 7],
  ["target", 10],
  ["met", 4],
];

function fmt(value, unit) {
  if (value === undefined) return "";
  if (unit === "/s") return `${value.toFixed(0)}/s`;
  if (unit === "MiB") return `${value.toFixed(1)} MiB`;
  return `${value.toFixed(value >= 100 ? 0 : 1)} ms`;
}

function cells(row) {
  if (row.unavailable) return [row.what, row.unavailable, "", "", "", "", ""];
  return [
    row.what,
    fmt(row.subject.median, row.unit),
    row.baseline?.what ?? "",
    fmt(row.baseline?.median, row.unit),
    row.ratio === undefined ? "" : `${row.ratio.toFixed(2)}x`,
    row.target?.text ?? "context",
    row.met === null ? "" : row.met ? "yes" : "NO",
  ];
}

function printRow(row) {
  const c = cells(row);
  if (row.unavailable) {
    console.log(`${c[0].padEnd(COLUMNS[0][1])} ${c[1]}`);
    return;
  }
  console.log(
    c
      .map((text, i) => (i === 0 || i === 2 ? text.padEnd(COLUMNS[i][1]) : text.padStart(COLUMNS[i][1])))
      .join(" ")
      .trimEnd(),
  );
}

function markdown() {
  const head = `| ${COLUMNS.map(([name]) => name).join(" | ")} |\n|${COLUMNS.map((_, i) => (i === 0 || i === 2 ? " --- " : " ---: ")).join("|")}|`;
  const body = rows.map((row) => `| ${cells(row).map((c) => c.trim() || (row.unavailable ? "" : "—")).join(" | ")} |`);
  return [head, ...body].join("\n");
}

function countsMarkdown() {
  if (counts.length === 0) return undefined;
  const floor = counts[0].syscalls;
  const head = "| call | system calls | above node -e 0 | fsync | files created | links | renames | unlinks |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |";
  const body = counts.map((row, i) => `| ${row.what} | ${row.syscalls} | ${i === 0 ? "—" : `+${row.syscalls - floor}`} | ${row.fsync} | ${row.files} | ${row.links} | ${row.renames} | ${row.unlinks} |`);
  return [head, ...body].join("\n");
}

// ---------------------------------------------------------------------------------------------

const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout?.trim();
const dirty = spawnSync("git", ["status", "--porcelain", "--", "src"], { cwd: ROOT, encoding: "utf8" }).stdout?.trim() !== "";
const started = new Date();
const loadBefore = loadavg();
console.log(
  `claims bench ${QUICK ? "(quick) " : ""}${started.toISOString()}  node ${process.version}  ${cpus().length} x ${cpus()[0]?.model ?? "?"}  load ${loadBefore.map((l) => l.toFixed(2)).join(" ")}`,
);
console.log(`runs: ${RUNS} after ${WARMUP} warm-up (RSS ${RSS_RUNS}, 10k store ${STORE_RUNS}, sweep ${SWEEP_RUNS}, contention ${CONTENTION_RUNS}); medians; ratio = median / baseline median\n`);
if (!ONLY || ONLY.has("counts")) {
  try {
    forgetPointers();
    printCounts();
  } catch (error) {
    failures++;
    console.log(`counts: FAILED: ${error.message.split("\n")[0]}\n`);
  }
}
console.log(
  COLUMNS.map(([name, width], i) => (i === 0 || i === 2 ? name.padEnd(width) : name.padStart(width)))
    .join(" ")
    .trimEnd(),
);

for (const [id, fn] of Object.entries(ROWS)) {
  if (ONLY && !ONLY.has(id)) continue;
  try {
    forgetPointers();
    await fn();
  } catch (error) {
    failures++;
    unavailable(id, id, `FAILED: ${error.message.split("\n")[0]}`);
  }
}

const finished = new Date();
const results = {
  date: started.toISOString(),
  duration_seconds: (finished - started) / 1000,
  quick: QUICK,
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpus: cpus().length,
  cpu_model: cpus()[0]?.model,
  total_memory_mib: Math.round(totalmem() / 1048576),
  load_before: loadBefore,
  load_after: loadavg(),
  commit: commit ? `${commit}${dirty ? " (src/ modified)" : ""}` : undefined,
  runs: { runs: RUNS, warmup: WARMUP, rss: RSS_RUNS, store: STORE_RUNS, sweep: SWEEP_RUNS, contention: CONTENTION_RUNS, library: LIB_RUNS, store_size: STORE_SIZE, contenders: CONTENDERS },
  rows: rows.map((row) => ({
    id: row.id,
    what: row.what.trim(),
    ...(row.unavailable
      ? { unavailable: row.unavailable }
      : {
          unit: row.unit,
          median: row.subject.median,
          spread: { p25: row.subject.p25, p75: row.subject.p75, min: row.subject.min, max: row.subject.max, n: row.subject.n },
          samples: row.subject.samples,
          baseline: row.baseline && {
            what: row.baseline.what,
            median: row.baseline.median,
            spread: { p25: row.baseline.p25, p75: row.baseline.p75, min: row.baseline.min, max: row.baseline.max, n: row.baseline.n },
            samples: row.baseline.samples,
          },
          ratio: row.ratio,
          target: row.target,
          met: row.met,
          note: row.note,
        }),
  })),
  markdown: markdown(),
  counts,
  counts_markdown: countsMarkdown(),
};
writeFileSync(join(HERE, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
const missed = rows.filter((row) => row.met === false).map((row) => row.id);
console.log(`\n${rows.filter((row) => row.met === true).length} targets met, ${missed.length} missed${missed.length ? ` (${missed.join(", ")})` : ""}; ${((finished - started) / 1000).toFixed(0)} s; wrote bench/results.json`);
process.exitCode = failures > 0 ? 1 : 0;
