// scripts/test.mjs, npm test's runner: what it counts of each test file's uvu run (scripts/test-tally.mjs),
// read from real uvu runs of small files.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ROOT, sandbox, type Sandbox } from "./helpers.js";

type Tally = { total: number; passed: number; skipped: number; failed: number };

const Runner = suite<{ box: Sandbox }>("npm test's runner");

Runner.before.each((context) => {
  context.box = sandbox();
});

Runner.after.each(({ box }) => box.cleanup());

/** The file `body` (after an import of uvu's test) run by uvu alone, as scripts/test.mjs runs one, and counted. */
async function counted(box: Sandbox, body: string): Promise<Tally> {
  const uvu = pathToFileURL(join(ROOT, "node_modules", "uvu", "dist", "index.mjs")).href;
  writeFileSync(join(box.root, "one.test.mjs"), `import { test } from ${JSON.stringify(uvu)};\n${body}\n`);
  const run = spawnSync(process.execPath, [join(ROOT, "node_modules", "uvu", "bin.js"), box.root, "^one\\.test\\.mjs$"], { cwd: ROOT, encoding: "utf8", env: { PATH: process.env.PATH, FORCE_COLOR: "1" } });
  const module = pathToFileURL(join(ROOT, "scripts", "test-tally.mjs")).href;
  const { tally } = (await import(module)) as { tally: (output: string, code: number) => Tally };
  return tally(`${run.stdout}${run.stderr}`, run.status ?? 1);
}

Runner("should count a file whose only test is skipped (one that needs root, run without) as failing nothing", async ({ box }) => {
  assert.equal(await counted(box, `test.skip("needs root", () => {});\ntest.run();`), { total: 1, passed: 0, skipped: 1, failed: 0 });
});

Runner("should count each failed test of a file with a skipped one", async ({ box }) => {
  const body = `test("a", () => {});\ntest("b", () => { throw new Error("b"); });\ntest("c", () => { throw new Error("c"); });\ntest.skip("d", () => {});\ntest.run();`;
  assert.equal(await counted(box, body), { total: 4, passed: 1, skipped: 1, failed: 2 });
});

Runner("should count a file that registers no test, or dies before its summary, as one failure", async ({ box }) => {
  assert.equal(await counted(box, "test.run();"), { total: 1, passed: 0, skipped: 0, failed: 1 });
  assert.equal(await counted(box, `test("a", () => {});\nthrow new Error("at load");`), { total: 1, passed: 0, skipped: 0, failed: 1 });
});

Runner("should read uvu's summary, not a test's own output before it", async ({ box }) => {
  const body = `test("a", () => { console.log("  Total:     9\\n  Passed:    9"); });\ntest("b", () => {});\ntest.run();`;
  assert.equal(await counted(box, body), { total: 2, passed: 2, skipped: 0, failed: 0 });
});

Runner.run();
