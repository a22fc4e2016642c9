// 10,000-claim A/B for the scratch experiments (bench/experiments/run.sh): for each variant root
// (a directory with bin/claims.js and dist/), take and check of a new path in the big store and
// in an empty one, status and status --json, and sweep of 10,000 stale claims, interleaved.
//
//   node scale-compare.mjs RUNS SWEEP_RUNS /tmp/claims-exp/base /tmp/claims-exp/glob ...
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const [runs, sweepRuns, ...roots] = process.argv.slice(2);
const T = realpathSync(mkdtempSync(join(tmpdir(), "claims-scale-")));
process.on("exit", () => rmSync(T, { recursive: true, force: true }));
mkdirSync(join(T, "p", "new"), { recursive: true });
const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CLAIMS_"))), HOME: T, NO_COLOR: "1" };
const { claimFileName } = await import(pathToFileURL(join(roots[0], "dist", "index.js")).href);

/** The same store as bench/run.mjs: a quarter each of names, paths, directories, globs; 50 holders. */
function store(dir, stale) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const now = Date.now();
  const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  const heartbeat = iso(stale ? now - 7200e3 : now - 60e3);
  const takenAt = iso(stale ? now - 10800e3 : now - 600e3);
  const far = join(T, "far");
  for (let i = 0; i < 10000; i++) {
    const n = String(i).padStart(5, "0");
    const target = [`shared-name-${n}`, `${far}/p${n}/src/file.ts`, `${far}/d${n}/`, `${far}/g${n}/**/*.ts`][i % 4];
    const claim = { target, holder: `other-${i % 50}`, purpose: `bench claim ${n}`, taken_at: takenAt, heartbeat_at: heartbeat };
    writeFileSync(join(dir, claimFileName(target)), `${JSON.stringify(claim, null, 2)}\n`, { mode: 0o600 });
  }
}

function time(root, args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(root, "bin", "claims.js"), ...args], { env, cwd: join(T, "p"), stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 27 });
  if (r.status !== 0) throw new Error(`${args.join(" ")}: exit ${r.status} ${r.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const big = join(T, "big");
store(big, false);
const empty = join(T, "empty");
mkdirSync(empty);
const target = join(T, "p", "new", "f.ts");
const samples = {};
const add = (key, ms) => (samples[key] ??= []).push(ms);
for (let i = 0; i < Number(runs) + 1; i++) {
  for (const root of i % 2 ? [...roots].reverse() : roots) {
    const name = basename(root);
    const takeBig = time(root, ["take", target, "--dir", big, "--holder", "b"]);
    time(root, ["release", target, "--dir", big, "--holder", "b"]);
    const takeEmpty = time(root, ["take", target, "--dir", empty, "--holder", "b"]);
    time(root, ["release", target, "--dir", empty, "--holder", "b"]);
    const checkBig = time(root, ["check", target, "--dir", big, "--holder", "b"]);
    const checkEmpty = time(root, ["check", target, "--dir", empty, "--holder", "b"]);
    const status = time(root, ["status", "--dir", big, "--holder", "b"]);
    const statusJson = time(root, ["status", "--json", "--dir", big, "--holder", "b"]);
    if (i === 0) continue; // warm-up
    add(`${name}: take, 10k store`, takeBig);
    add(`${name}: take, empty store`, takeEmpty);
    add(`${name}: check, 10k store`, checkBig);
    add(`${name}: check, empty store`, checkEmpty);
    add(`${name}: status, 10k`, status);
    add(`${name}: status --json, 10k`, statusJson);
  }
}
for (let i = 0; i < Number(sweepRuns); i++) {
  for (const root of i % 2 ? [...roots].reverse() : roots) {
    const dir = join(T, "sweep");
    store(dir, true);
    add(`${basename(root)}: sweep of 10k stale`, time(root, ["sweep", "--dir", dir]));
    rmSync(dir, { recursive: true });
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`${runs} interleaved rounds (sweep ${sweepRuns}), medians (node ${process.version})`);
for (const key of Object.keys(samples).sort()) console.log(`${key.padEnd(40)} ${median(samples[key]).toFixed(0).padStart(6)} ms`);
for (const root of roots) {
  const name = basename(root);
  const ratio = (a, b) => (median(samples[`${name}: ${a}`]) / median(samples[`${name}: ${b}`])).toFixed(2);
  console.log(`${name}: take 10k / empty ${ratio("take, 10k store", "take, empty store")}x, check 10k / empty ${ratio("check, 10k store", "check, empty store")}x`);
}
