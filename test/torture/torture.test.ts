// The torture test: N real processes run random operations over overlapping targets with a short
// TTL (and stalls long enough to lose their claims), then the checker looks for any violation.
// Small in `npm test`; `npm run torture` runs the large sizes. A failing seed is printed and can be
// replayed with TORTURE_SEED=<seed>.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ROOT, sandbox } from "../helpers.js";
import { check } from "./checker.js";

const WORKERS = Number(process.env.TORTURE_WORKERS ?? 8);
const OPS = Number(process.env.TORTURE_OPS ?? 25);
const SEEDS = Number(process.env.TORTURE_SEEDS ?? 1);
const TTL = 1;
const WORKER = join(ROOT, "test", "torture", "worker.mjs");
const DIST = pathToFileURL(join(ROOT, "dist")).href;

function runWorker(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ["ignore", "ignore", "inherit"] });
    child.on("close", (code) => resolve(code ?? -1));
  });
}

const Torture = suite("torture: random concurrent operations, checked");

Torture(`should show no violation over ${SEEDS} seed(s) of ${WORKERS} processes x ${OPS} operations`, async () => {
  const totals = { operations: 0, intervals: 0 };
  const seeds: number[] = [];
  for (let run = 0; run < SEEDS; run++) {
    const seed = process.env.TORTURE_SEED ? Number(process.env.TORTURE_SEED) : Math.floor(Math.random() * 2 ** 31);
    seeds.push(seed);
    const box = sandbox();
    try {
      writeFileSync(join(box.project, "f.ts"), "export function a() {\n  return 1;\n}\n\nexport function b() {\n  return 2;\n}\n");
      mkdirSync(join(box.project, "app", "[id]"), { recursive: true });
      writeFileSync(join(box.project, "app", "[id]", "page.tsx"), "");
      mkdirSync(join(box.project, "links"));
      symlinkSync("../f.ts", join(box.project, "links", "f.ts"));
      const outputs = Array.from({ length: WORKERS }, (_, i) => join(box.root, `history-${i}.jsonl`));
      outputs.forEach((path) => writeFileSync(path, ""));
      const codes = await Promise.all(
        outputs.map((out, i) => runWorker([DIST, box.dir, box.project, `w${i}`, String(seed + i * 7919), String(OPS), String(TTL), out])),
      );
      assert.equal(codes, outputs.map(() => 0), `seed ${seed}: a worker crashed`);
      const links: Array<[string, string]> = [[`${box.project}/links/*`, `${box.project}/f.ts`]];
      const verdict = check(outputs.map((path) => readFileSync(path, "utf8")), box.dir, TTL, links);
      totals.operations += verdict.operations;
      totals.intervals += verdict.intervals;
      assert.equal(verdict.violations, [], `seed ${seed} (replay with TORTURE_SEED=${seed}):\n${verdict.violations.join("\n")}`);
    } finally {
      box.cleanup();
    }
  }
  console.log(`  torture: seed(s) ${seeds.join(", ")}: ${totals.operations} operations, ${totals.intervals} holding intervals checked, 0 violations`);
});

Torture("should let the checker tell a holding that lapsed and was taken again from one held throughout, and still catch two holders", () => {
  const box = sandbox();
  try {
    mkdirSync(box.dir, { recursive: true });
    const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
    const grant = (holder: string, t0: number, t1: number, action: string) =>
      JSON.stringify({ holder, op: "take", t0, t1, granted: [{ target: "x", taken_at: at(t1), heartbeat_at: at(t1), action }] });
    const t = 1_700_000_000_000; // TTL 5 s
    // h's claim lapses at t+5 s; g takes it over at t+6 s and releases it; h's second take, begun
    // at t+4.9 s, is granted anew at t+8 s: two holdings of h, neither beside g's.
    const lapsed = [
      `${grant("h", t, t + 10, "taken")}\n${grant("h", t + 4900, t + 8000, "taken")}`,
      `${grant("g", t + 5500, t + 6000, "took_over")}\n${JSON.stringify({ holder: "g", op: "release", t0: t + 7000, t1: t + 7100, released: ["x"] })}`,
    ];
    assert.equal(check(lapsed, box.dir, 5).violations, []);
    // h re-takes its own claim (retaken) while g is granted the same target: two holders.
    const overlapping = [
      `${grant("h", t, t + 10, "taken")}\n${grant("h", t + 3000, t + 3010, "retaken")}`,
      grant("g", t + 4000, t + 4010, "taken"),
    ];
    assert.equal(check(overlapping, box.dir, 5).violations.length, 1);
  } finally {
    box.cleanup();
  }
});

Torture.run();
