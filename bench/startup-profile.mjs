#!/usr/bin/env node
// Where a short `claims` process spends its time (issue 7; findings in docs/BENCHMARKS.md).
//
//   node bench/startup-profile.mjs            (after npm run build; BENCH_QUICK=1 for fewer runs)
//
// Part 1, start-up costs: whole-process medians of `node` doing one piece of a call's start-up
// (or one thing the CLI avoids) and exiting, then whole claims calls, interleaved with `node -e 0`;
// the delta is what that piece adds to a call.
// Part 2, CPU profiles (node --cpu-prof) of take, release and check, each sample put in one
// bucket: module loading (Node's ESM/CJS loader: resolve, read, compile, link), claims code, etc.
// The profiler slows everything somewhat, so read part 2 for proportions, part 1 for milliseconds.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const CLI = join(ROOT, "bin", "claims.js");
const NODE = process.execPath;
const QUICK = process.env.BENCH_QUICK === "1" || process.argv.includes("--quick");
const RUNS = QUICK ? 7 : 25;
const PROFILES = QUICK ? 3 : 10;

const TMP = realpathSync(mkdtempSync(join(tmpdir(), "claims-profile-")));
process.on("exit", () => rmSync(TMP, { recursive: true, force: true }));
const DIR = join(TMP, "claims");
const TARGET = join(TMP, "project", "a.ts");
mkdirSync(dirname(TARGET), { recursive: true });
const ENV = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CLAIMS_"))), HOME: TMP, NO_COLOR: "1" };

const BUNDLE = join(ROOT, "dist", "cli.cjs");
// The bundle compiled as bin/claims.js compiles it, with or without its code cache, and no command run.
const loadBundle = (cached) =>
  `const fs=require("fs"),vm=require("vm");const f=${JSON.stringify(BUNDLE)};` +
  `const s=new vm.Script("(function (exports, require, module, __filename, __dirname) {"+fs.readFileSync(f,"utf8")+"\\n})",` +
  `{filename:f,${cached ? 'cachedData:fs.readFileSync(f+".v8cache"),' : ""}importModuleDynamically:vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER});` +
  `const m={exports:{}};s.runInThisContext()(m.exports,require("module").createRequire(f),m,f,require("path").dirname(f));`;
const EVENT = JSON.stringify({ session_id: "profile", hook_event_name: "PreToolUse", cwd: TMP, tool_name: "Edit", tool_input: { file_path: join(TMP, "project", "hooked.ts"), old_string: "a", new_string: "b" } });

// [what, node arguments, after (untimed), before (untimed), stdin]. stdout is a pipe, as an agent
// hook's is (spawnSync collects it).
const probes = [
  ["node -e 0 (baseline)", ["-e", "0"]],
  ["an ES-module entry, empty (bin/claims.js is CommonJS)", ["--input-type=module", "-e", "0"]],
  ["node:crypto, one SHA-256 (src/os/hash.ts instead)", ["-e", "require('node:crypto').createHash('sha256').update('x').digest('hex')"]],
  ["process.stdout.write of a line (src/os/stdio.ts instead)", ["-e", "process.stdout.write('x\\n')"]],
  ["require commander (only the verbs off the fast path)", ["-e", `require(${JSON.stringify(join(ROOT, "node_modules", "commander"))})`]],
  ["the bundle compiled, no code cache, no command", ["-e", loadBundle(false)]],
  ["the bundle compiled from its code cache, no command", ["-e", loadBundle(true)]],
  ["claims --version (loads commander)", [CLI, "--version"]],
  ["claims take", [CLI, "take", TARGET, "--dir", DIR, "--holder", "p"], () => run([CLI, "release", TARGET, "--dir", DIR, "--holder", "p"])],
  ["claims release (after an untimed take)", [CLI, "release", TARGET, "--dir", DIR, "--holder", "p"], null, () => run([CLI, "take", TARGET, "--dir", DIR, "--holder", "p"])],
  ["claims check", [CLI, "check", TARGET, "--dir", DIR, "--holder", "p"]],
  ["claims hook claude (its claim renewed seconds ago)", [CLI, "hook", "claude", "--dir", DIR], null, null, EVENT],
];

function run(args, input) {
  const start = process.hrtime.bigint();
  const result = spawnSync(NODE, args, { cwd: TMP, env: ENV, input, stdio: ["pipe", "pipe", "pipe"], encoding: "utf8" });
  if (result.status !== 0) throw new Error(`node ${args.join(" ")}: exit ${result.status} ${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log(`Part 1: start-up costs, ${RUNS} interleaved runs each after 2 warm-ups, medians (node ${process.version})\n`);
run([CLI, "take", "warm", "--dir", DIR, "--holder", "p"]);
const samples = probes.map(() => []);
for (let i = 0; i < RUNS + 2; i++) {
  probes.forEach(([, args, after, before, input], k) => {
    before?.();
    const ms = run(args, input);
    after?.();
    if (i >= 2) samples[k].push(ms);
  });
}
const base = median(samples[0]);
for (const [k, [what]] of probes.entries()) {
  const m = median(samples[k]);
  console.log(`${what.padEnd(56)} ${m.toFixed(1).padStart(6)} ms   ${k === 0 ? "" : `+${(m - base).toFixed(1)} ms`.padStart(9)}`);
}

console.log(`\nPart 2: CPU profiles (--cpu-prof, 100 us sampling), mean of ${PROFILES} processes per verb, ms per bucket\n`);
const verbs = {
  take: [[CLI, "take", TARGET, "--dir", DIR, "--holder", "p"], [CLI, "release", TARGET, "--dir", DIR, "--holder", "p"]],
  release: [[CLI, "release", TARGET, "--dir", DIR, "--holder", "p"], null, [CLI, "take", TARGET, "--dir", DIR, "--holder", "p"]],
  check: [[CLI, "check", TARGET, "--dir", DIR, "--holder", "p"]],
};
for (const [verb, [args, after, before]] of Object.entries(verbs)) {
  const profDir = join(TMP, `prof-${verb}`);
  for (let i = 0; i < PROFILES; i++) {
    if (before) run(before);
    run(["--cpu-prof", "--cpu-prof-dir", profDir, "--cpu-prof-interval", "100", ...args]);
    if (after) run(after);
  }
  const { buckets, functions, wall } = categorize(profDir);
  console.log(`${verb}: ${wall.toFixed(1)} ms profiled (from the end of bootstrap to exit)`);
  for (const [bucket, ms] of [...buckets].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms >= 0.3)) console.log(`  ${ms.toFixed(1).padStart(6)} ms  ${bucket}`);
  console.log(`  claims functions (innermost claims frame): ${[...functions].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([f, ms]) => `${f} ${ms.toFixed(1)}`).join(", ")}`);
}

function categorize(profDir) {
  const files = readdirSync(profDir).filter((f) => f.endsWith(".cpuprofile"));
  const buckets = new Map();
  const functions = new Map();
  let wall = 0;
  const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms / files.length);
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(profDir, file), "utf8"));
    wall += (profile.endTime - profile.startTime) / 1000 / files.length;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parents = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
    profile.samples.forEach((id, i) => {
      const ms = profile.timeDeltas[i] / 1000;
      const stack = [];
      for (let at = id; at !== undefined; at = parents.get(at)) stack.push(nodes.get(at).callFrame);
      const leaf = stack[0];
      const urls = stack.map((frame) => frame.url);
      let bucket;
      if (leaf.functionName === "(idle)") bucket = "idle (waiting for I/O or timers)";
      else if (leaf.functionName === "(garbage collector)") bucket = "garbage collection";
      else if (urls.some((u) => /node:internal\/modules|cjs-module-lexer/.test(u))) bucket = "module loading (resolve, read, compile, link, evaluate)";
      else if (urls.some((u) => u.includes("/node_modules/"))) bucket = `dependency code: ${urls.find((u) => u.includes("/node_modules/")).replace(/.*node_modules\//, "").split("/")[0]}`;
      else if (urls.some((u) => u.includes("/dist/"))) {
        bucket = "claims code (including the fs calls it makes)";
        const frame = stack.find((f) => f.url.includes("/dist/"));
        add(functions, `${frame.url.replace(/.*\/dist\//, "")}:${frame.functionName || "(top)"}`, ms);
      } else if (leaf.functionName === "(program)") bucket = "V8/native, unattributed";
      else if (urls.some((u) => /^node:internal\/(bootstrap|main|process)/.test(u))) bucket = "node bootstrap / builtins";
      else bucket = "other";
      add(buckets, bucket, ms);
    });
  }
  return { buckets, functions, wall };
}
