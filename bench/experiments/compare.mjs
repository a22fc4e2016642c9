// Start-up A/B for the scratch experiments (bench/experiments/run.sh): every variant runs
// take + release, check, the Claude Code hook and --version, interleaved round by round with
// `node -e 0`, and the medians are printed as ratios (take + release against two node -e 0);
// then 32 concurrent takes of one target against 32 concurrent node -e 0.
//
//   node compare.mjs RUNS 'name|node args before the verb' ...
//   e.g. node compare.mjs 15 'shipped|/repo/bin/claims.js' 'snapshot|--snapshot-blob /tmp/x.blob'
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const runs = Number(process.argv[2]);
const variants = process.argv.slice(3).map((spec) => {
  const [name, args] = spec.split("|");
  return { name, pre: args.split(" ").filter(Boolean) };
});
const T = realpathSync(mkdtempSync(join(tmpdir(), "claims-compare-")));
process.on("exit", () => rmSync(T, { recursive: true, force: true }));
mkdirSync(join(T, "p"));
const file = join(T, "p", "a.ts");
writeFileSync(file, "export const a = 1;\n");
const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CLAIMS_"))), HOME: T, NO_COLOR: "1" };
const payload = JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", cwd: join(T, "p"), tool_name: "Edit", tool_input: { file_path: file, old_string: "a", new_string: "b" } });

function time(args, input) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env, cwd: join(T, "p"), stdio: [input ? "pipe" : "ignore", "ignore", "pipe"], encoding: "utf8" });
  if (r.status !== 0) throw new Error(`node ${args.join(" ")}: exit ${r.status} ${r.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const samples = {};
const add = (key, ms) => (samples[key] ??= []).push(ms);
for (let i = 0; i < runs + 2; i++) {
  const keep = i >= 2;
  const base = time(["-e", "0"]);
  if (keep) add("node -e 0", base);
  for (const v of i % 2 ? [...variants].reverse() : variants) {
    const dir = join(T, `claims-${v.name}`);
    const take = time([...v.pre, "take", file, "--dir", dir, "--holder", "h"]);
    const release = time([...v.pre, "release", file, "--dir", dir, "--holder", "h"]);
    const check = time([...v.pre, "check", file, "--dir", dir, "--holder", "h"]);
    const hook = time([...v.pre, "hook", "claude", "--dir", `${dir}-hook`], payload);
    const version = v.pre.includes("--snapshot-blob") ? Number.NaN : time([...v.pre, "--version"]);
    if (!keep) continue;
    add(`${v.name}: take + release`, take + release);
    add(`${v.name}: check`, check);
    add(`${v.name}: hook claude`, hook);
    add(`${v.name}: --version`, version);
  }
}
// 32 concurrent processes, wall time until the last exits: takes of one target against node -e 0.
function together(argsFor) {
  return new Promise((resolve, reject) => {
    let left = 32;
    const start = process.hrtime.bigint();
    for (let i = 0; i < 32; i++) {
      spawn(process.execPath, argsFor(i), { env, cwd: join(T, "p"), stdio: "ignore" })
        .on("error", reject)
        .on("exit", () => --left === 0 && resolve(Number(process.hrtime.bigint() - start) / 1e6));
    }
  });
}
const rounds = Math.max(3, Math.ceil(runs / 3));
for (let i = 0; i < rounds + 1; i++) {
  const base = await together(() => ["-e", "0"]);
  if (i > 0) add("32 x node -e 0", base);
  for (const v of i % 2 ? [...variants].reverse() : variants) {
    const dir = join(T, `race-${v.name}-${i}`);
    const ms = await together((k) => [...v.pre, "take", file, "--dir", dir, "--holder", `racer-${k}`]);
    if (i > 0) add(`${v.name}: 32 concurrent takes`, ms);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const base = median(samples["node -e 0"]);
const base32 = median(samples["32 x node -e 0"]);
console.log(`${runs} interleaved rounds after 2 warm-ups, medians (node ${process.version})`);
for (const [key, xs] of Object.entries(samples)) {
  const m = median(xs);
  if (Number.isNaN(m)) continue;
  const ratio = key.endsWith("take + release") ? m / (2 * base) : key.includes("32") ? m / base32 : m / base;
  console.log(`${key.padEnd(44)} ${m.toFixed(1).padStart(7)} ms ${ratio.toFixed(2).padStart(6)}x`);
}
