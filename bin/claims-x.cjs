#!/usr/bin/env node
"use strict";
// The CLI is CommonJS bundles built by `npm ci` (the `prepare` script): dist/hot-<verb>.cjs, one
// for each verb every agent hook runs (take, beat, release, check, hook), without commander or
// the other verbs, and dist/cli.cjs, everything. A hot verb loads its own bundle alone; a call it
// does not take (help, a flag only commander reads) goes on to cli.cjs. Each is compiled with a V8
// code cache kept beside it (hot-check.cjs.v8cache, ...), as the v8-compile-cache package does
// (Node 22's module.enableCompileCache() is the built-in equivalent): start-up is most of the
// cost of a `claims` call, and every agent hook pays it (docs/BENCHMARKS.md). The build writes
// every cache after running its calls once (scripts/bundle.mjs, through scripts/bundle-script.cjs,
// which must wrap the source exactly as below). A missing or rejected cache (another Node version, a
// rebuilt bundle) is written anew after the command ran; where dist/ is not writable the bundle
// simply runs uncached.
//
// This file is CommonJS (bin/package.json says so): an ES-module entry would load Node's ESM
// loader and build a facade of every export of node:fs (fs.promises, the streams), a few
// milliseconds per call that no claim needs.
const { readFileSync, renameSync, writeFileSync } = require("node:fs");
// Module.createRequire, reached through this module's own class: the first require of node:module
// by user code makes Node build an ES-module facade of it, about 0.15 ms of every call.
const { createRequire } = module.constructor.createRequire ? module.constructor : require("node:module");
const { join } = require("node:path");
const vm = require("node:vm");

const dir = join(__dirname, "..", "dist");
const HOT = new Set(["take", "beat", "release", "check", "hook"]);

/**
 * Compiles and runs one bundle; `saveCache` writes its code cache when V8 had none it accepted.
 * A hot verb's bundle that cannot be read (`optional`: a checkout pulled but not built again, whose
 * dist/ has an older layout) is undefined, and dist/cli.cjs, which runs every verb, runs the call.
 */
function load(name, cacheName, optional = false) {
  const file = join(dir, name);
  const cacheFile = join(dir, cacheName);
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
    if (optional) return undefined;
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
  const saveCache = () => {
    if (cachedData !== undefined && !script.cachedDataRejected) return;
    try {
      const temp = `${cacheFile}.${process.pid}`;
      writeFileSync(temp, script.createCachedData());
      renameSync(temp, cacheFile);
    } catch {
      // an unwritable dist/ only costs the cache
    }
  };
  return { main: bundle.exports.main, mayExitNow: bundle.exports.mayExitNow, saveCache };
}

async function run(argv) {
  const verb = argv[0];
  if (HOT.has(verb)) {
    const hot = load(`hot-${verb}.cjs`, `hot-${verb}.cjs.v8cache`, true);
    // Saved only after a call it ran: a cache made by `take --help` would hold none of take's code.
    if (hot !== undefined && (await hot.main(argv))) {
      hot.saveCache();
      // Done: exiting now skips the teardown of the heap (src/cli/hot.ts, mayExitNow).
      if (hot.mayExitNow()) process.exit();
      return;
    }
  }
  const cli = load("cli.cjs", "cli.cjs.v8cache");
  await cli.main(argv);
  cli.saveCache();
}

run(process.argv.slice(2));
