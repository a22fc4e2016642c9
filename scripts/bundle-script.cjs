// Compiles and runs a bundle of dist/ as bin/claims.js does, for the build scripts that write its
// code cache (scripts/code-cache.cjs, scripts/hot-cache.cjs). The source text, file name and
// options must stay those of bin/claims.js's load(), or V8 rejects the cache there.
"use strict";
const { readFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { dirname } = require("node:path");
const vm = require("node:vm");

/** The bundle at `file` compiled (with `cachedData` when given) and run: its exports and its script, whose createCachedData() is the cache. */
function runBundle(file, cachedData) {
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file).toString("utf8")}\n})`;
  const script = new vm.Script(source, { filename: file, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  const bundle = { exports: {} };
  script.runInThisContext()(bundle.exports, createRequire(file), bundle, file, dirname(file));
  return { exports: bundle.exports, script };
}

module.exports = { runBundle };
