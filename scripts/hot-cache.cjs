// Runs one call of a hot verb through its bundle, dist/hot-<verb>.cjs, compiled as bin/claims.js
// compiles it (with its code cache when there is one), then writes the bundle's code cache whatever
// the call answered. A code cache holds the functions compiled before it was written, and
// bin/claims.js writes one only after the first call of a verb, which sees one case: a check in a
// directory holding no glob claim compiles no glob matching, and every later check meeting one
// compiled picomatch from its source, about 1.5 ms a call here (docs/BENCHMARKS.md). So
// scripts/bundle.mjs runs each verb through this script in the cases a session meets (a free
// file among other sessions' names, directories and globs; its own claim; a refusal; a Bash line),
// each call adding what it compiled to the cache the calls before it left.
//
//   node scripts/hot-cache.cjs VERB ARGS... [< hook-event.json]
"use strict";
const { readFileSync, renameSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { runBundle } = require("./bundle-script.cjs");

const verb = process.argv[2];
const file = join(__dirname, "..", "dist", `hot-${verb}.cjs`);
const cacheFile = `${file}.v8cache`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const { exports: bundle, script } = runBundle(file, cachedData);

bundle.main(process.argv.slice(2)).then((ran) => {
  if (!ran) {
    process.stderr.write(`hot-cache: dist/hot-${verb}.cjs did not take the call ${process.argv.slice(2).join(" ")}\n`);
    process.exitCode = 1;
    return;
  }
  writeFileSync(`${cacheFile}.${process.pid}`, script.createCachedData());
  renameSync(`${cacheFile}.${process.pid}`, cacheFile);
  process.exitCode = 0; // the call set it (a refusal is 3); the cache is written either way
});
