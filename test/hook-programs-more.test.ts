// Programs run through an interpreter's own machinery: python's standard modules run as commands
// (`-m cProfile -o f`, `-m doctest notes.txt`), node's options that write diagnostic files, and
// inline programs that compute the name they write. Another session holds u.ts; session s2 runs
// each command through the Claude hook of the real CLI, and the shell reader says what it finds written.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const More = suite<Context>("claims hook: interpreters' own outputs and computed names");
More.before.each((context) => {
  context.box = heldBox();
});
More.after.each((context) => context.box.cleanup());

More("should judge what python's standard modules run as commands write, and the programs they run", async ({ box }) => {
  file(box, "fix.py", "open('u.ts', 'w').write('x')\n");
  file(box, "notes.txt", "Some prose about src/v.ts.\n\n>>> open('u.ts', 'w').write('doctest') and None\n");
  file(box, "x.pickle", "x");
  file(box, "app/__main__.py", "print(1)\n");
  const cases: Array<[string, string[]]> = [
    ["python3 -m cProfile -o u.ts -m json.tool /dev/null", ["u.ts"]],
    ["python3 -m profile -o u.ts -s time -m json.tool /dev/null", ["u.ts"]],
    ["python3 -m cProfile -s time fix.py", ["u.ts"]], // the script it profiles is read
    ["python3 -m pickletools -o u.ts x.pickle", ["u.ts"]],
    ["python3 -m pickletools x.pickle", []],
    ["python3 -m zipapp app -o u.ts", ["u.ts"]],
    ["python3 -m zipapp app", ["app.pyz"]],
    ["python3 -m zipapp app --info", []],
    ["python3 -m uu -d x.uu u.ts", ["u.ts"]],
    ["python3 -m uu x.txt -", []],
    ["python3 -m doctest notes.txt", ["u.ts"]], // the examples' code, not the prose
    ["python3 -m doctest -v fix.py", ["u.ts"]], // a module is imported: its code runs
    ["python3 -m timeit \"open('u.ts', 'w')\"", ["u.ts"]],
    ["python3 -m timeit -s \"import os\" \"os.remove('u.ts')\"", ["u.ts"]],
    ["python3 -m trace --count -C cov fix.py", ["glob:cov/**/*.cover", "u.ts"]],
    ["python3 -m timeit \"$code\"", ["unknown:."]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const [command, expected] of cases) if (expected.includes("u.ts")) assert.is(bash(box, command), "deny", command);
  for (const command of ["python3 -m pytest", "python3 -m json.tool x.json", "python3 -m timeit '1+1'", "python3 -m cProfile -s time -m json.tool x.json"]) {
    assert.equal(await writes(box, command), [], command);
    assert.is(bash(box, command), undefined, command);
  }
});

More("should judge the files node's own options write, on its command line or in NODE_OPTIONS", async ({ box }) => {
  file(box, "x.js", "console.log(1);\n");
  const cases: Array<[string, string[]]> = [
    ["node --redirect-warnings=u.ts -e \"process.emitWarning('w')\"", ["u.ts"]],
    ["NODE_OPTIONS=--redirect-warnings=u.ts node -e \"process.emitWarning('w')\"", ["u.ts"]],
    ["NODE_OPTIONS='--cpu-prof --cpu-prof-name=u.ts' node x.js", ["u.ts"]],
    ["node --cpu-prof --cpu-prof-name=u.ts -e 1", ["u.ts"]],
    ["node --cpu-prof --cpu-prof-name u.ts x.js", ["u.ts"]],
    ["node --cpu-prof --cpu-prof-dir=prof '--cpu-prof-name=p-${pid}.json' x.js", ["glob:prof/p-*.json"]],
    ["node --cpu-prof --cpu-prof-name=\"$name\" x.js", ["glob:CPU.*.cpuprofile", "unknown:."]],
    ["node --heap-prof --heap-prof-name=u.ts -e 1", ["u.ts"]],
    ["node --diagnostic-dir=src --heap-prof x.js", ["glob:src/Heap.*.heapprofile"]],
    ["node --trace-event-file-pattern=u.ts --trace-events-enabled -e 1", ["u.ts"]],
    ["node --trace-events-enabled x.js", ["glob:node_trace.*.log"]],
    ["node --test --test-reporter=tap --test-reporter-destination=u.ts x.test.js", ["u.ts"]],
    ["node --test --test-reporter=spec --test-reporter-destination=stdout x.test.js", []],
    ["node --report-on-signal --report-filename=u.ts x.js", ["u.ts"]],
    ["node --tls-keylog=u.ts x.js", ["u.ts"]],
    ["node --snapshot-blob u.ts --build-snapshot x.js", ["u.ts"]],
    ["node --cpu-prof x.js", ["glob:CPU.*.cpuprofile"]], // a new file of node's naming
    ["node --prof x.js", ["glob:isolate-*.log"]],
    ["node --test", []],
    ["node x.js", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const [command, expected] of cases) assert.is(bash(box, command), expected.includes("u.ts") ? "deny" : undefined, command);
  assert.equal(await writes(box, "node x.js", { NODE_OPTIONS: "--redirect-warnings=u.ts" }), ["u.ts"]);
});

More.run();
