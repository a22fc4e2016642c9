// npm test: every test/**/*.test.ts file run by uvu in a process of its own, as many at once as the
// machine has cores (CLAIMS_TEST_JOBS sets another number; 1 runs them one after another).
//
// Nearly all of a suite's time is the claims processes it starts and waits for, one at a time: run
// one file after another, one core did the work while the others idled, and the whole suite took
// over 20 minutes on two cores. Each file's tests still run in order in one process, as uvu runs
// them; only whole files run side by side, each in its own sandboxes (test/helpers.ts).
//
// Each file's output is printed whole once it is done (not interleaved), then one summary in uvu's
// own words (Total, Passed, Skipped, Duration), which .ci/run reads, and the slowest files. As in
// uvu's, Total is the tests run: a skipped one is counted under Skipped alone.
// The exit code is 1 when any file failed or its runner died before its summary.
//
//   node scripts/test.mjs                      # every file (npm test builds first)
//   node scripts/test.mjs hook-shell race      # the files whose path contains one of these words
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { tally as countOf } from "./test-tally.mjs";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const TESTS = join(ROOT, "test");

/**
 * Files run after all the others, alone: they assert that the hook answers within the time an
 * agent gives it (10 s) over inputs that take it seconds, which a machine busy with other suites
 * can stretch past that.
 */
const ALONE = new Set(["hook-slow-input.test.ts"]);

/**
 * The longest files, started first so that no long one starts last and runs on alone (the others
 * start in path order).
 */
const LONGEST_FIRST = ["hook-shell.test.ts", "hook-shell-tools.test.ts", "hook.test.ts", "race.test.ts", "race-targets.test.ts", "mcp.test.ts", "hook-claims-dirs.test.ts"];

function testFiles(directory) {
  const found = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(path));
    else if (entry.name.endsWith(".test.ts")) found.push(relative(TESTS, path));
  }
  return found.sort();
}

const words = process.argv.slice(2);
const all = testFiles(TESTS).filter((file) => words.length === 0 || words.some((word) => file.includes(word)));
if (all.length === 0) {
  console.error(`claims tests: no test file under test/ matches ${words.join(", ")}.`);
  process.exit(2);
}
const jobs = Math.max(1, Number.parseInt(process.env.CLAIMS_TEST_JOBS ?? "", 10) || availableParallelism());
const longest = LONGEST_FIRST.filter((file) => all.includes(file));
const pooled = [...longest, ...all.filter((file) => !longest.includes(file) && !ALONE.has(file))];
const alone = all.filter((file) => ALONE.has(file));

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// uvu colours its report only on a terminal; the children write to pipes, so they are told to when this runs on one.
const env = { ...process.env, ...(process.stdout.isTTY && !process.env.NO_COLOR && { FORCE_COLOR: "1" }) };

// Stopped (Ctrl-C, a CI job's timeout), the files running are stopped too, not left running on
// their own, and no other starts.
const running = new Set();
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]]) {
  process.once(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(code);
  });
}

function runFile(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "node_modules", "uvu", "bin.js"), "test", `^${escape(file)}$`], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    running.add(child);
    child.on("close", (code, signal) => {
      running.delete(child);
      resolve({ file, output, code: code ?? (signal ? 128 : 1), ms: Date.now() - started });
    });
  });
}

function tally(result) {
  return countOf(result.output, result.code);
}

const started = Date.now();
const results = [];
function report(result) {
  results.push(result);
  const { failed } = tally(result);
  process.stdout.write(`\n${failed > 0 ? "FAIL" : "ok"}  test/${result.file}  (${(result.ms / 1000).toFixed(1)} s)\n${result.output.trimEnd()}\n`);
}

async function pool(files, width) {
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) report(await runFile(file));
  };
  await Promise.all(Array.from({ length: Math.min(width, files.length) }, worker));
}

console.log(`claims tests: ${all.length} files, ${jobs} at a time${alone.length > 0 ? `, then ${alone.join(", ")} alone` : ""}`);
await pool(pooled, jobs);
await pool(alone, 1);

const sum = results.map(tally).reduce((a, b) => ({ total: a.total + b.total, passed: a.passed + b.passed, skipped: a.skipped + b.skipped, failed: a.failed + b.failed }), { total: 0, passed: 0, skipped: 0, failed: 0 });
const failedFiles = results.filter((result) => tally(result).failed > 0).map((result) => `test/${result.file}`);
const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 8).map((result) => `${(result.ms / 1000).toFixed(0).padStart(5)} s  test/${result.file}`);
console.log(`\nslowest files:\n${slowest.join("\n")}`);
if (failedFiles.length > 0) console.log(`\nfailed: ${failedFiles.join(", ")}`);
console.log(`\n  Total:     ${sum.total - sum.skipped}\n  Passed:    ${sum.passed}\n  Skipped:   ${sum.skipped}\n  Duration:  ${Date.now() - started}ms\n`);
process.exitCode = sum.failed > 0 ? 1 : 0;
