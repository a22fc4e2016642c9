// Experiment (bench/experiments/run.sh copies this beside a CommonJS bundle cli.cjs): run the
// bundle through vm.Script with a V8 code cache kept in cli.cjs.v8cache, as v8-compile-cache does
// (Node 22's module.enableCompileCache() is the built-in equivalent; this machine has Node 20).
// The first run, or one whose cache V8 rejects (another Node version, a rebuilt bundle), writes
// the cache after the command has run, so it holds the functions that command compiled.
const { readFileSync, renameSync, writeFileSync } = require("node:fs");
const { dirname, join } = require("node:path");
const vm = require("node:vm");

const file = join(__dirname, "cli.cjs");
const cacheFile = `${file}.v8cache`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {}
const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`;
const script = new vm.Script(source, { filename: file, cachedData });
const mod = { exports: {} };
script.runInThisContext()(mod.exports, require, mod, file, dirname(file));
const done = Promise.resolve(mod.exports.main(process.argv.slice(2)));
if (cachedData === undefined || script.cachedDataRejected) {
  done.then(() => {
    const temp = `${cacheFile}.${process.pid}`;
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, cacheFile);
  });
}
