#!/usr/bin/env node
// The CLI is one CommonJS bundle, dist/cli.cjs, built by `npm ci` (the `prepare` script). It is
// compiled with a V8 code cache kept beside it (dist/cli.cjs.v8cache), as the v8-compile-cache
// package does (Node 22's module.enableCompileCache() is the built-in equivalent): start-up is
// most of the cost of a `claims` call, and every agent hook pays it (docs/BENCHMARKS.md). A
// missing or rejected cache (another Node version, a rebuilt bundle) is written anew after the
// command ran; where dist/ is not writable the bundle simply runs uncached.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const file = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const cacheFile = `${file}.v8cache`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`;
const script = new vm.Script(source, {
  filename: file,
  cachedData,
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const bundle = { exports: {} };
script.runInThisContext()(bundle.exports, createRequire(file), bundle, file, dirname(file));
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
