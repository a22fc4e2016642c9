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
  for (const [command, expected] of cases) assert.is(bash(box, command), expected.includes("u.ts") || expected.includes("unknown:.") ? "deny" : undefined, command);
  assert.equal(await writes(box, "node x.js", { NODE_OPTIONS: "--redirect-warnings=u.ts" }), ["u.ts"]);
  // A word that may be an option the text does not name (`--redirect-warnings"$f"`, `-"$x"`), or a
  // diagnostic directory it does not fix, given apart: any file.
  for (const command of ['node --redirect-warnings"$f" x.js', 'node -"$x" x.js', 'node --diagnostic-dir "$d" --cpu-prof x.js']) {
    assert.ok((await writes(box, command)).includes("unknown:."), command);
    assert.is(bash(box, command), "deny", command);
  }
});

More("should judge a name an inline program builds by an expression as any file where it runs, and keep the names its text gives", async ({ box }) => {
  const built: Array<[string, string[]]> = [
    ["python3 -c \"import pathlib; pathlib.Path('u').with_suffix('.ts').write_text('x')\"", [".ts", "glob:**"]],
    ["python3 -c \"open(''.join(['u','.','ts']),'w').write('x')\"", ["glob:**"]],
    ["python3 -c \"open('u.t'+chr(115),'w').write('x')\"", ["glob:**", "u.t"]],
    ["python3 -c \"n = 'u.t' + chr(115); open(n, 'w')\"", ["glob:**", "u.t"]], // set to a built name first
    ["python3 -c \"open('{}.ts'.format('u'), 'w')\"", ["glob:**", "glob:*.ts"]],
    ["node -e \"require('fs').writeFileSync(['u','ts'].join('.'),'x')\"", ["glob:**"]],
    ["node -e \"require('fs').writeFileSync(String.fromCharCode(117)+'.ts','x')\"", [".ts", "glob:*.ts", "unknown:.ts"]], // a stem built, its extension given
    ["python3 -c \"from pathlib import Path; Path('u').with_suffix('.ts').resolve().write_text('x')\"", [".ts", "glob:**"]],
    ["perl -e 'open F, \">\", join(\".\", \"u\", \"ts\"); print F \"x\"'", ["glob:**"]],
    ["python3 -c \"import os; os.rename('a.txt', '..' + chr(47) + 'u.ts')\"", ["a.txt", "u.ts", "unknown:.", "unknown:u.ts"]], // reaching above: anywhere
  ];
  const given: Array<[string, string[]]> = [
    ["node -e 'require(\"fs\").writeFileSync(\"u.\" + \"ts\", \"\")'", ["u.ts"]],
    ["node -e 'require(\"fs\").writeFileSync(__dirname + \"/u.ts\", \"\")'", ["/u.ts", "unknown:u.ts"]],
    ["python3 -c 'import os; open(os.path.join(os.path.dirname(d), \"u.ts\"), \"w\")'", ["u.ts", "unknown:u.ts"]],
    ["python3 -c 'open(f\"{d}/u.ts\", \"w\")'", ["unknown:u.ts"]],
    ["python3 -c 'open(f\"{n}.ts\", \"w\")'", ["glob:*.ts"]],
    ["python3 -c \"from pathlib import Path; (Path('src') / 'u.ts').write_text('x')\"", ["u.ts", "unknown:u.ts"]],
    ["python3 -c \"from pathlib import Path; Path('src/v.ts').write_text('x')\"", ["src/v.ts"]],
    ["python3 -c \"from pathlib import Path; Path(__file__).parent.joinpath('v.json').resolve().write_text('x')\"", ["v.json"]],
    ["python3 -c \"out = 'v.txt'; open(out, 'w').write('x')\"", ["v.txt"]],
    ["python3 -c \"import sys; open(sys.argv[1], 'w')\" v.txt", ["v.txt"]],
    ["python3 - <<'EOF'\nfor p in ['src/a.ts', 'src/b.ts']:\n    open(p, 'w').write('x')\nEOF", ["src/a.ts", "src/b.ts", "unknown:src/b.ts"]],
    ["python3 - <<'EOF'\ndef fix(path):\n    open(path, 'w').write('x')\nfix('src/a.ts')\nEOF", ["src/a.ts"]],
    ["node -e \"const fs = require('fs'); for (const f of ['src/a.ts']) fs.writeFileSync(f, 'x')\"", ["src/a.ts"]],
    ["python3 -c \"import json; print(json.dumps({'a': 1}))\"", []],
  ];
  for (const [command, expected] of [...built, ...given]) assert.equal(await writes(box, command), expected, command);
  for (const [command] of built) assert.is(bash(box, command), "deny", command);
  for (const [command, expected] of given) if (!expected.some((path) => /u\.ts|\*\.ts/.test(path))) assert.is(bash(box, command), undefined, command);
});

More.run();
