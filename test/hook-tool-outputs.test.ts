// The files profilers and pm2 write of their own, besides what the program they run writes:
// pyinstrument's, austin's, py-spy's and memray's -o, scalene's --outfile and profile, kernprof's
// stats, memray's and 0x's and Clinic.js's defaults, pm2's logs, pid file, written configuration
// and dump. Each was read as writing nothing.
// Another session holds u.ts; session s2 runs each command through the Claude hook of the real CLI.
import { suite } from "uvu";
import { join } from "node:path";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Outputs = suite<Context>("claims hook: the files profilers and pm2 write of their own");
Outputs.before.each((context) => {
  context.box = heldBox();
  // (Programs that write nothing: what is denied is the tool's own file.)
  file(context.box, "x.py", "print(1)\n");
  file(context.box, "app.js", "console.log(1);\n");
});
Outputs.after.each((context) => context.box.cleanup());

Outputs("should read the file a Python profiler writes where -o or --outfile says", ({ box }) => {
  denies(box, [
    "pyinstrument -o u.ts x.py",
    "pyinstrument -o u.ts -m json.tool",
    "pyinstrument --outfile=u.ts -r html x.py",
    "pyinstrument -ou.ts x.py",
    "scalene --outfile u.ts x.py",
    "scalene --cli --outfile u.ts -m json.tool",
    "kernprof -o u.ts -m json.tool",
    "kernprof -l --outfile u.ts x.py",
    "memray run -o u.ts -m json.tool",
    "memray run --output u.ts x.py",
    "memray flamegraph -o u.ts out.bin",
    "memray attach 123 -o u.ts",
    'pyinstrument -o "$f" x.py',
  ]);
  allows(box, ["pyinstrument x.py", "pyinstrument --version", "pyinstrument -m json.tool -o u.ts", "scalene --help", "kernprof --help", "memray --help", "memray flamegraph --help", "memray summary out.bin", "memray tree out.bin"]);
});

Outputs("should read the files a Python profiler names of its own", async ({ box }) => {
  assert.equal(await writes(box, "memray run -m json.tool"), ["glob:memray-*.bin"]);
  assert.equal(await writes(box, "memray run -c 'pass'"), ["glob:memray-*.bin"]);
  assert.equal(await writes(box, "memray run --live x.py"), []);
  assert.equal(await writes(box, "memray flamegraph out.bin"), ["glob:memray-flamegraph-*.html"]);
  assert.equal(await writes(box, "memray table r/memray-x.py.1.bin"), ["glob:r/memray-table-*.html"]);
  assert.equal(await writes(box, "memray stats --json out.bin"), ["glob:memray-stats-*.json"]);
  assert.equal(await writes(box, "memray stats out.bin"), []);
  assert.equal(await writes(box, "kernprof -l x.py"), ["x.py.lprof"]);
  assert.equal(await writes(box, "kernprof x.py"), ["x.py.prof"]);
  assert.equal(await writes(box, "kernprof -l -m json.tool"), ["glob:*.lprof"]);
  assert.equal(await writes(box, "scalene x.py"), ["profile.html", "profile.json"]);
  assert.equal(await writes(box, "scalene --cli x.py"), []);
  assert.equal(await writes(box, "pyinstrument -r html x.py"), []);
  // (A file its option names is no program it runs: not read as one written before it runs.)
  assert.equal(await writes(box, "pyinstrument -o out.py x.py"), ["out.py"]);
});

Outputs("should read what py-spy and austin record, and the command they run", async ({ box }) => {
  file(box, "fix.py", "import os\nos.remove('u.ts')\n");
  denies(box, ["py-spy record -o u.ts -- python3 x.py", "py-spy record -o u.ts --pid 123", "py-spy record --output=u.ts -f speedscope -- python3 x.py", "austin -o u.ts python3 x.py", "austin -o u.ts -p 123", "austin --output=u.ts python3 x.py", "py-spy record -o out.svg -- python3 fix.py", "austin python3 fix.py"]);
  allows(box, ["py-spy dump --pid 123", "py-spy top --pid 123", "py-spy --version", "austin --help", "austin python3 x.py"]);
  assert.equal(await writes(box, "py-spy record -- python3 x.py"), ["glob:python3-*.svg"]);
  assert.equal(await writes(box, "py-spy record -f speedscope --pid 123"), ["glob:123-*.json"]);
});

Outputs("should read what 0x and Clinic.js write, and the line they run once the program listens", async ({ box }) => {
  denies(box, ["0x -F u.ts app.js", "0x --output-html=u.ts app.js", "0x -P 'rm u.ts' app.js", "0x -D . app.js", "clinic doctor --dest . -- node app.js", "clinic flame --on-port 'rm u.ts' -- node app.js", "clinic doctor --on-port \"$cmd\" -- node app.js"]);
  allows(box, ["0x --help", "0x -v", "clinic --help", "clinic doctor --help", "0x app.js", "clinic doctor -- node app.js"]);
  assert.equal(await writes(box, "0x app.js"), ["glob:*.0x/**", "glob:*.0x/flamegraph.html", "glob:isolate-*-v8.log"]);
  assert.equal(await writes(box, "0x -o -D prof app.js"), ["glob:isolate-*-v8.log", "glob:prof/**", "prof/flamegraph.html"]);
  assert.equal(await writes(box, "clinic doctor -- node app.js"), ["glob:.clinic/**", "glob:node_trace.*.log"]);
  assert.equal(await writes(box, "clinic flame --visualize-only .clinic/12.clinic-flame/"), [".clinic/12.clinic-flame.html"]);
});

Outputs("should read the logs, pid file and configuration pm2 writes, and its dump", async ({ box }) => {
  denies(box, [
    "pm2 start app.js -o u.ts",
    "pm2 start app.js --output u.ts",
    "pm2 start app.js -e u.ts",
    "pm2 start app.js --error=u.ts",
    "pm2 start app.js -l u.ts",
    "pm2 start app.js --log u.ts",
    "pm2 start app.js --pid u.ts",
    "pm2 -o u.ts start app.js",
    "pm2 startOrRestart app.js -o u.ts",
    "pm2 start app.js --watch -l u.ts", // (--watch, no --watch-delay taking -l)
    'pm2 start app.js -o "$f"',
  ]);
  allows(box, ["pm2 list", "pm2 logs", "pm2 logs --lines 20", "pm2 restart api", "pm2 start app.js -l", "pm2 start app.js -o /dev/null", "pm2 start --help", "pm2 save --help"]);
  assert.equal(await writes(box, "pm2 start app.js -w"), ["app-pm2.json"]);
  assert.equal(await writes(box, "pm2 start app.js -w -n api"), ["api-pm2.json"]);
  assert.equal(await writes(box, "pm2 start app.js --cwd sub -o out.log"), ["sub/out.log"]);
  // (Its dump in its home: PM2_HOME, else ~/.pm2.)
  assert.equal(await writes(box, "pm2 save"), [join(box.root, ".pm2/dump.pm2"), join(box.root, ".pm2/dump.pm2.bak")]);
  assert.equal(await writes(box, "pm2 cleardump"), [join(box.root, ".pm2/dump.pm2")]);
  assert.equal(await writes(box, "PM2_HOME=/srv/pm2 pm2 dump"), ["/srv/pm2/dump.pm2", "/srv/pm2/dump.pm2.bak"]);
});

Outputs.run();
