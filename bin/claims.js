#!/usr/bin/env node
"use strict";
// The CLI is one CommonJS bundle, dist/cli.cjs, built by `npm ci` (the `prepare` script). It is
// compiled with a V8 code cache kept beside it (dist/cli.cjs.v8cache), as the v8-compile-cache
// package does (Node 22's module.enableCompileCache() is the built-in equivalent): start-up is
// most of the cost of a `claims` call, and every agent hook pays it (docs/BENCHMARKS.md). The
// build writes the cache after running the hot calls once (scripts/code-cache.cjs, which must
// wrap the source exactly as below). A missing or rejected cache (another Node version, a
// rebuilt bundle) is written anew after the command ran; where dist/ is not writable the bundle
// simply runs uncached.
//
// This file is CommonJS (bin/package.json says so): an ES-module entry would load Node's ESM
// loader and build a facade of every export of node:fs (fs.promises, the streams), a few
// milliseconds per call that no claim needs.
const { readFileSync, renameSync, writeFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { join } = require("node:path");
const vm = require("node:vm");

const dir = join(__dirname, "..", "dist");
const file = join(dir, "cli.cjs");
const cacheFile = `${file}.v8cache`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
let bundled;
try {
  // Read as bytes, then decoded: one read(2) of the whole file, where reading it as "utf8" makes
  // Node 20 read it 8 KiB at a time (60 calls for this bundle).
  bundled = readFileSync(file).toString("utf8");
} catch (error) {
  process.stderr.write(`claims: the CLI is not built (${file}: ${error.code}); run npm ci, or npm run build, in ${join(__dirname, "..")}.\n`);
  process.exit(1);
}
const source = `(function (exports, require, module, __filename, __dirname) {${bundled}\n})`;
const script = new vm.Script(source, {
  filename: file,
  cachedData,
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const bundle = { exports: {} };
script.runInThisContext()(bundle.exports, createRequire(file), bundle, file, dir);
const done = bundle.exports.main(process.argv.slice(2));
if (cachedData === undefined || script.cachedDataRejected) {
  done.then(() => {
    try {
      const temp = `${cacheFile}.${process.pid}`;
      writeFileSync(temp, script.createCachedData());
      renameSync(temp, cacheFile);
    } catch {
      // an unwritable dist/ only costs the cache
    }
  });
}
