// What a wrapper, process manager or profiler runs when it is not given a program file by its
// extension: a launcher or an extension-less program after a wrapper the hook does not know, the
// command after python-dotenv's `run`, the line cross-env-shell runs, what pm2 starts,
// start-server-and-test's package scripts, and a profiler's module (`-m`): each was read as
// writing nothing of what it ran.
// Another session holds u.ts; session s2 runs each command through the Claude hook of the real CLI.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Runs = suite<Context>("claims hook: what wrappers, process managers and profilers run");
Runs.before.each((context) => {
  context.box = heldBox();
  file(context.box, "tool.js", 'require("node:fs").unlinkSync("u.ts");\n');
  file(context.box, "fix.py", "import os\nos.remove('u.ts')\n");
  file(context.box, "fixer/__init__.py", "");
  file(context.box, "fixer/__main__.py", "import os\nos.remove('u.ts')\n");
  file(context.box, "x.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  file(context.box, "package.json", '{"scripts": {"gen": "node tool.js", "test": "true"}}');
});
Runs.after.each((context) => context.box.cleanup());

Runs("should read a launcher, and node given a program without its extension, after a wrapper the hook does not know", async ({ box }) => {
  denies(box, ["op run -- uv run fix.py", "op run -- uv run -m fixer", "op run -- node tool", "cross-env node tool", "cross-env A=1 node tool", "cross-env A=1 NODE_ENV=test node tool"]);
  allows(box, ["op run -- node -v", "cross-env A=1 node --version", "cross-env A=1 echo node tool", "op item list"]);
  assert.equal(await writes(box, "cross-env A=1 node tool"), ["u.ts"]);
});

Runs("should read the line cross-env-shell runs in a shell, after the variables it sets", async ({ box }) => {
  denies(box, [
    'cross-env-shell "rm u.ts"',
    'cross-env-shell A=1 "node tool; echo > o"',
    "cross-env-shell A=1 B='x y' rm u.ts",
    'cross-env-shell NODE_ENV=test "node tool.js && echo done"',
    "cross-env-shell 'echo hi > u.ts'",
    'npx cross-env-shell "python3 fix.py"',
    'cross-env-shell "$cmd"',
    // (cross-env drops each word's `'` before it joins them: the shell gets `echo ;rm u.ts;`.)
    `cross-env-shell "echo ';rm u.ts;'"`,
  ]);
  allows(box, ['cross-env-shell A=1 "echo hi"', "cross-env-shell A=1", "cross-env A=1 node --version", 'cross-env-shell "node --version; ls"', `cross-env-shell "echo \\';rm u.ts;\\'"`]);
  assert.equal(await writes(box, 'cross-env-shell A=1 "node tool; echo > o"'), ["o", "u.ts"]);
  // (cross-env itself runs its words as a command, not a line: still read as before.)
  denies(box, ["cross-env A=1 rm u.ts", "cross-env A=1 node tool"]);
});

Runs("should read the command python-dotenv runs, and the file its set and unset rewrite", async ({ box }) => {
  denies(box, ["dotenv run python3 fix.py", "dotenv run --override python3 fix.py", "dotenv run --no-override -- python3 fix.py", "dotenv -f .env run python3 fix.py", "dotenv -f u.ts set K V", "dotenv --file u.ts unset K"]);
  allows(box, ["dotenv list", "dotenv get K", "dotenv -f .env list", "dotenv set K V", "dotenv run python3 -V"]);
  assert.equal(await writes(box, "dotenv set K V"), [".env"]);
});

Runs("should read what pm2 starts: a command, a script, a line, a program given its interpreter, an ecosystem file", async ({ box }) => {
  allows(box, ["pm2 start", "pm2 list", "pm2 logs", "pm2 restart api", "pm2 stop all", "pm2 start --help"]);
  file(box, "ecosystem.config.js", 'module.exports = { apps: [{ name: "fix", script: "fix.py", interpreter: "python3" }] };\n');
  file(box, "apps.json", '{"apps": [{"name": "fix", "script": "fix.py"}]}');
  denies(box, [
    "pm2 start npm -- run gen",
    "pm2 start npm --name gen -- run gen",
    "pm2 start 'node tool.js'",
    "pm2 start ./x.sh",
    "pm2 start x.sh",
    "pm2 start tool --interpreter node",
    "pm2 start ecosystem.config.js",
    "pm2 start ecosystem.config.js --only fix",
    "pm2 reload ecosystem.config.js",
    "pm2 startOrRestart apps.json",
    "pm2 start", // (its ecosystem.config.js)
    'pm2 start "$app"',
  ]);
  allows(box, ["pm2 list", "pm2 logs", "pm2 restart api", "pm2 stop all"]);
  assert.equal(await writes(box, "pm2 start npm -- run gen"), ["u.ts"]);
});

Runs("should read the package scripts start-server-and-test runs by their names", async ({ box }) => {
  denies(box, [
    "start-server-and-test gen http://localhost:3000 test",
    "start-test gen 3000 test",
    "server-test gen :3000",
    "start-test --expect 200 gen 3000",
    "start-test 3000 gen",
    "start-test true 3000 'node tool.js'", // (a line: a word holding a space)
    "start-test true 3000 gen 4000 test",
  ]);
  allows(box, ["start-server-and-test --help", "start-test true 3000 test", "start-test 3000"]);
  assert.equal(await writes(box, "start-test gen 3000 test"), ["u.ts"]);
});

Runs("should read the module a Python profiler runs, and its code", ({ box }) => {
  denies(box, ["pyinstrument -m fixer", "pyinstrument -r html -m fixer --flag", "scalene -m fixer", "memray run -m fixer", "memray run -o out.bin -m fixer", "kernprof -l -m fixer", "pyinstrument -c 'import os; os.remove(\"u.ts\")'", "memray run -c 'import os; os.remove(\"u.ts\")'", 'pyinstrument -m "$m"']);
  allows(box, ["pyinstrument --version", "scalene --help", "memray flamegraph out.bin", "kernprof --help"]);
});

Runs.run();
