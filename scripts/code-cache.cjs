// Writes dist/cli.cjs.v8cache, the V8 code cache that bin/claims.js compiles the full CLI with,
// after running the calls every agent hook makes (take, beat, check, hook claude, release) once in
// this process, in a scratch claims directory: the full CLI runs them too when a flag keeps them
// off the hot bundles (dist/hot-<verb>.cjs, whose caches the build has the CLI itself write). A
// code cache holds the functions compiled before it was written; bin/claims.js writes one only
// when there is none (or V8 rejects it), after whichever command ran first. Had that been
// `claims --help`, every later call would compile its own code from scratch, about 4 ms a call
// (docs/BENCHMARKS.md).
//
//   node scripts/code-cache.cjs SCRATCH < hook-event.json
//
// scripts/bundle.mjs runs it (so `npm run build` does) with an empty scratch directory holding
// a.ts, a PreToolUse event editing SCRATCH/a.ts on stdin, and its output discarded.
"use strict";
const { renameSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { runBundle } = require("./bundle-script.cjs");

const dist = join(__dirname, "..", "dist");
const { exports: bundle, script } = runBundle(join(dist, "cli.cjs"));

const scratch = process.argv[2];
async function warm() {
  const flags = ["--dir", join(scratch, "claims"), "--holder", "build"];
  const target = join(scratch, "a.ts");
  for (const argv of [
    ["take", target, "--purpose", "compile the hot paths", ...flags],
    ["beat", target, ...flags],
    ["check", target, ...flags],
    ["release", target, ...flags],
    ["hook", "claude", "--dir", join(scratch, "claims")], // the event on stdin edits a.ts
  ]) {
    await bundle.main(argv);
  }
}

warm().then(() => {
  const cache = join(dist, "cli.cjs.v8cache");
  writeFileSync(`${cache}.${process.pid}`, script.createCachedData());
  renameSync(`${cache}.${process.pid}`, cache);
  process.exitCode = 0; // the calls set it; the cache is written either way
});
