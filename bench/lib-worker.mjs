// In-process throughput, run by bench/run.mjs in a fresh child process (so the bench's own heap and
// module graph do not colour the figure).
//
//   node bench/lib-worker.mjs lib   <dist/index.js URL> <claims dir> <project dir> <duration ms>
//   node bench/lib-worker.mjs floor <dist/index.js URL> <claims dir> <project dir> <duration ms>
//
// lib:   take + release of one path target through the library API, as fast as it goes.
// floor: the bare file operations a take + release cannot avoid, with the same durability: write a
//        temp file, fsync it, link(2) it to the claim name, unlink the temp, fsync the directory;
//        then unlink the claim and fsync the directory. No locks, no reads, no log.
// Prints one JSON line: { mode, pairs, ms, pairs_per_second }.
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

const [mode, indexUrl, dir, project, durationText] = process.argv.slice(2);
const duration = Number(durationText);
mkdirSync(dir, { recursive: true, mode: 0o700 });

let pair;
if (mode === "lib") {
  const { take, release } = await import(indexUrl);
  const options = { dir, holder: "bench-lib", cwd: project, env: {} };
  const target = join(project, "lib", "file.ts");
  pair = async () => {
    const taken = await take({ ...options, targets: [target], purpose: "bench" });
    if (taken.granted.length !== 1) throw new Error(`library take was not granted: ${JSON.stringify(taken)}`);
    const released = release({ ...options, targets: [target] });
    if (released.released.length !== 1) throw new Error(`library release did not release: ${JSON.stringify(released)}`);
  };
} else if (mode === "floor") {
  const directory = openSync(dir, "r");
  const claim = join(dir, "floor.json");
  const body = Buffer.from(`${JSON.stringify({ target: "floor", holder: "bench-lib", purpose: "bench", taken_at: "2026-01-01T00:00:00Z", heartbeat_at: "2026-01-01T00:00:00Z" }, null, 2)}\n`);
  pair = async () => {
    const temp = join(dir, `.tmp-${process.pid}-floor`);
    const fd = openSync(temp, "wx", 0o600);
    writeSync(fd, body);
    fsyncSync(fd);
    closeSync(fd);
    linkSync(temp, claim);
    unlinkSync(temp);
    fsyncSync(directory);
    unlinkSync(claim);
    fsyncSync(directory);
  };
} else {
  throw new Error(`unknown mode ${mode}`);
}

for (let i = 0; i < 20; i++) await pair(); // warm-up: JIT, page cache, directory entries
let pairs = 0;
const start = performance.now();
let elapsed = 0;
while (elapsed < duration) {
  await pair();
  pairs++;
  elapsed = performance.now() - start;
}
process.stdout.write(`${JSON.stringify({ mode, pairs, ms: elapsed, pairs_per_second: (pairs * 1000) / elapsed })}\n`);
