// Scripts on disk that a shell command runs, read by the Claude hook as it reads the command itself:
// a shell script (`bash x.sh`, `./x.sh`, `source x.sh`) with its arguments as `$1`…, the functions
// a command or script defines (read where they are called), and a package's scripts (`npm run`,
// `npm test`, `pnpm x`, `yarn x`, workspace members). Another session holds u.ts; session s2 runs
// the command.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Scripts = suite<Context>("claims hook: scripts a shell command runs");
Scripts.before.each((context) => {
  context.box = heldBox();
});
Scripts.after.each((context) => context.box.cleanup());

Scripts("should read a shell script a command runs, with its arguments as $1 and \"$@\"", async ({ box }) => {
  file(box, "scripts/fix.sh", '#!/usr/bin/env bash\nset -euo pipefail\nsed -i "s/a/b/" "$1"\n', 0o755);
  file(box, "scripts/all.sh", '#!/bin/sh\nfor f in "$@"; do perl -pi -e s/a/b/ "$f"; done\n', 0o755);
  file(box, "scripts/clean", "rm -f gen.ts\n", 0o755); // no shebang: the shell runs it
  file(box, "scripts/shifted.sh", 'shift\nrm -f "$1"\n', 0o755);
  const cases: Array<[string, string[]]> = [
    ["bash scripts/fix.sh u.ts", ["u.ts"]],
    ["sh -e scripts/fix.sh a.ts", ["a.ts"]],
    ["./scripts/fix.sh a.ts b.ts", ["a.ts"]],
    ["scripts/all.sh a.ts b.ts", ["a.ts", "b.ts"]],
    ["cd scripts && ./clean", ["scripts/gen.ts"]],
    ["sudo -u nobody ./scripts/clean", ["gen.ts"]],
    ["time scripts/clean && echo done", ["gen.ts"]],
    ["bash -c 'rm -f \"$1\"' name a.ts", ["a.ts"]],
    // What the script does with arguments it can change, or is given from a variable: any file.
    ["./scripts/shifted.sh a.ts b.ts", ["unknown:."]],
    ['./scripts/fix.sh "$f"', ["unknown:."]],
    ['bash "$script"', ["unknown:."]],
    ['"$root/scripts/fix.sh" a.ts', ["unknown:."]],
    ['"$EDITOR" a.ts', ["a.ts"]], // a command the text does not name may write what it is given (an editor does)
    // Nothing there, a syntax check: nothing runs.
    ["./scripts/missing.sh u.ts", []],
    ["bash -n scripts/fix.sh u.ts", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["./scripts/fix.sh u.ts", "bash scripts/fix.sh u.ts", "scripts/all.sh a.ts u.ts", "./scripts/shifted.sh a.ts b.ts"]) assert.is(bash(box, command), "deny", command);
  assert.is(bash(box, "./scripts/fix.sh a.ts"), undefined, "a.ts is no one's");
});

Scripts("should follow a script to its own directory ($0, BASH_SOURCE) and a variable it sets once", async ({ box }) => {
  file(box, "bin/lib.sh", 'fix() { rm -f "$1"; }\n');
  file(box, "bin/one.sh", '. "$(dirname "$0")/lib.sh"\nfix a.txt\n', 0o755);
  file(box, "bin/two.sh", 'DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\nsource "$DIR/lib.sh"\nfix b.txt\nrm -f "$DIR/own.txt"\n', 0o755);
  file(box, "bin/three.sh", 'SCRIPT_DIR=$( cd -- "$( dirname -- "${BASH_SOURCE[0]}" )" &> /dev/null && pwd )\n. "$SCRIPT_DIR/lib.sh"\nfix c.txt\n', 0o755);
  file(box, "gradlew", '#!/bin/sh\neval "set -- $(printf \'%s\\n\' "$*" | xargs -n1)" \'"$@"\'\nexec java -jar gradle.jar "$@"\n', 0o755);
  const cases: Array<[string, string[]]> = [
    ["./bin/one.sh", ["a.txt"]],
    ["bin/two.sh", ["b.txt", "bin/own.txt"]],
    ["bash bin/three.sh", ["c.txt"]],
    ['f=src/a.ts; sed -i s/a/b/ "$f"', ["src/a.ts"]],
    ['d=gen; rm "$d/x.ts"', ["gen/x.ts"]],
    ['f=a; f=b; rm "$f"', ["unknown:."]], // set twice: which one is not read
    ['if x; then f=a; fi; rm "$f"', ["unknown:."]], // set in a branch
    ['d=a; eval "d=b"; rm "$d"', ["unknown:."]], // code run after may set it
    ["d=a; ((d=2)); rm \"$d\"", ["unknown:."]],
    ['d=a; let d=3; rm "$d"', ["unknown:."]],
    ['d+=x; rm "$d"', ["unknown:."]], // appended to a value from before
    ['d=gen; source /dev/null; rm "$d/x"', ["gen/x"]],
    ["./gradlew test", ["glob:**/build/**", "glob:.gradle/**"]], // the Gradle wrapper: read as gradle, not as its script
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
});

Scripts("should not read a binary, and judge a script it cannot read as writing any file", async ({ box }) => {
  file(box, "tool", "\u007fELF\u0002\u0001\u0001\u0000\u0000rm u.ts", 0o755);
  file(box, "big.sh", `# ${"x".repeat(1024 * 1024)}\necho hi\n`, 0o755);
  assert.equal(await writes(box, "./tool"), [], "a binary program");
  assert.equal(await writes(box, "./big.sh"), ["unknown:."], "over a megabyte");
  assert.equal(await writes(box, 'cd "$(mktemp -d)" && ./fix.sh'), ["unknown:."], "a script in a place the text does not fix");
  assert.is(bash(box, "./big.sh"), "deny");
});

Scripts("should read a program in a file an agent may have written (untracked, changed, new outside a repository) as an inline one", async ({ box }) => {
  file(box, "fix.py", "import os\nos.remove('u.ts')\n");
  file(box, "walk.py", "import os\nfor f in os.listdir('.'):\n    open(f, 'w').write('')\n");
  file(box, "gen.js", "require('fs').writeFileSync('out/a.ts', '')\n");
  file(box, "run.py", "#!/usr/bin/env python3\nopen('u.ts', 'w')\n", 0o755);
  file(box, "reads.rb", "puts File.read('README.md')\n");
  // A program whose write is in a module of its own beside it.
  file(box, "main.py", "from tools.fixer import fix\nimport helpers as h\nfix()\n");
  file(box, "tools/__init__.py", "");
  file(box, "tools/fixer.py", "def fix():\n    open('u.ts', 'w').write('')\n");
  file(box, "helpers.py", "import os\n");
  file(box, "main.mjs", "import { fix } from './lib/fix.js';\nfix();\n");
  file(box, "lib/fix.js", "import { writeFileSync } from 'node:fs';\nexport const fix = () => writeFileSync('w.ts', '');\n");
  file(box, "main.rb", "require_relative 'lib/rb_fix'\n");
  file(box, "lib/rb_fix.rb", "File.write('r.ts', '')\n");
  const cases: Array<[string, string[]]> = [
    ["python3 fix.py", ["u.ts"]],
    ["python3 walk.py", ["glob:**"]], // changes files it lists: any file under where it runs
    ["node gen.js", ["out/a.ts"]],
    ["./run.py", ["u.ts"]], // run by its path: its #! names the interpreter
    ["cd src && python3 ../fix.py", ["src/u.ts"]], // the program's names are where it runs
    ["python3 fix.py a.ts --dry-run", ["a.ts", "u.ts"]], // its arguments, as an inline program's
    ["f=fix.py; python3 \"$f\"", ["u.ts"]],
    ["uv run fix.py", ["u.ts"]], // a runner given the file by its name
    ["nvm exec 20 node fix.py", ["u.ts"]],
    ["nvm run --silent v20.1 gen.js", ["out/a.ts"]],
    ["nvm exec node gen.js", ["out/a.ts"]], // `node` is a version to nvm, and a command
    ["deno run --allow-write --config deno.json gen.js", ["out/a.ts"]],
    ["ruby reads.rb", ["README.md"]], // a read is judged as a write (the text cannot tell them apart)
    ["python3 main.py", ["u.ts"]], // its own modules beside it are read with it
    ["node main.mjs", ["lib/fix.js", "w.ts"]], // (a module it names is judged as any path it names)
    ["ruby main.rb", ["lib/rb_fix", "r.ts"]],
    ["python3 missing.py", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["python3 fix.py", "python3 walk.py", "./run.py", "node fix.py", "uv run fix.py", "nvm exec 20 node fix.py", "python3 main.py"]) assert.is(bash(box, command), "deny", command);
  assert.is(bash(box, "node gen.js"), undefined, "out/a.ts is no one's");
  // A FIFO is not opened to wait on; one over 256 KiB or with a line over 2,000 characters is not read: either could write anything.
  spawnSync("mkfifo", [join(box.project, "pipe.py")]);
  file(box, "big.py", `# ${"x\n".repeat(200 * 1024)}\n`);
  file(box, "long.py", `# ${"\\'".repeat(5000)}\nopen('ok.ts', 'w')\n`); // a line too long to read fast: a quote left open, many escaped
  assert.equal(await writes(box, "python3 pipe.py"), ["unknown:."]);
  assert.equal(await writes(box, "python3 big.py"), ["unknown:."]);
  assert.equal(await writes(box, "python3 long.py"), ["unknown:."]);
  assert.equal(await writes(box, "python3 -c 'print(\"\\xZZ\", \"\\u{110000}\")'"), [], "escapes that are no character are left as written");
  // Outside a repository, a file last changed over a day ago is not one an agent just wrote.
  utimesSync(join(box.project, "fix.py"), new Date("2020-01-01"), new Date("2020-01-01"));
  assert.equal(await writes(box, "python3 fix.py"), []);
});

Scripts("should read a program file run through a runner, a tool that loads it, a preload, or as its interpreter finds it", async ({ box }) => {
  file(box, "fix.py", "open('u.ts', 'w')\n");
  file(box, "tools/fix.py", "open('u.ts', 'w')\n");
  file(box, "gen.js", "require('fs').rmSync('u.ts')\n");
  file(box, "x.ts", "import fs from 'node:fs';\nfs.rmSync('u.ts');\n");
  file(box, "app/package.json", '{"main": "lib/start"}\n');
  file(box, "app/lib/start.js", "require('fs').rmSync('u.ts')\n");
  file(box, "pkg/__main__.py", "open('u.ts', 'w')\n");
  file(box, "uvscript", "#!/usr/bin/env -S uv run --script\nopen('u.ts', 'w')\n", 0o755);
  const cases = [
    "uv run tools/fix.py", "uv run ./fix.py", "uv run -p 3.12 fix.py", "uv run --with pandas python fix.py",
    "npx tsx x.ts", "bunx tsx x.ts", "npm exec tsx x.ts", "npx node gen.js", "tsx watch x.ts", "deno x.ts",
    "nodemon gen.js", "ipython fix.py", "sudo -u nobody python3 fix.py",
    "node -r ./gen.js -e 1", "node --import ./gen.js -e 1", "NODE_OPTIONS=--require=./gen.js node -e 1",
    "node gen", "node app", "python3 pkg", "./uvscript",
  ];
  for (const command of cases) assert.equal(await writes(box, command), ["u.ts"], command);
  assert.equal(await writes(box, "coverage run fix.py"), [".coverage", "u.ts"], "and its data file");
  file(box, "sub/up.py", "open('../u.ts', 'w')\n");
  for (const command of ["npx tsx x.ts", "sudo -u nobody python3 fix.py", "NODE_OPTIONS=--require=./gen.js node -e 1", "uv run --directory sub up.py"]) assert.is(bash(box, command), "deny", command);
});

Scripts("should judge what only a program's text names without claiming it, and claim what a command writes", async ({ box }) => {
  file(box, "report.py", "for name in ['notes.md', 'src/a.ts', 'src/b.ts']:\n    print(len(open(name).read()))\n");
  file(box, "notes.md", "x\n");
  const held = () => (JSON.parse(claims(["status", "--dir", box.dir, "--json"]).stdout).claims as Array<{ target: string; holder: string }>).filter((claim) => claim.holder === "claude-s2").map((claim) => claim.target.replace(`${box.project}/`, ""));
  assert.is(bash(box, "python3 report.py"), undefined);
  assert.equal(held(), [], "the paths a program names are not the session's to hold");
  assert.is(bash(box, "python3 report.py && sed -i s/x/y/ notes.md"), undefined);
  assert.equal(held(), ["notes.md"], "a file a command writes is claimed, even where a program names it too");
  file(box, "edit.py", "open('u.ts', 'w').write('')\n");
  assert.is(bash(box, "python3 edit.py"), "deny", "and what a program names is still judged");
  // A directory it only lists is not one it changes; one it also removes is.
  file(box, "src/a.ts", "");
  file(box, "count.py", "import os\nn = len(os.listdir('src'))\nopen('out.txt', 'w').write(str(n))\n");
  file(box, "clean.py", "import os, shutil\nprint(os.listdir('src'))\nshutil.rmtree('src')\n");
  assert.equal(await writes(box, "python3 count.py"), ["out.txt"]);
  assert.equal(await writes(box, "python3 clean.py"), ["src"]);
  // Thousands of names: judged by their directories, so the hook answers before the agent gives up on it.
  file(box, "many.py", `${Array.from({ length: 300 }, (_, at) => `print("gen/f${at}.ts")`).join("\n")}\nprint("u.ts")\n`);
  file(box, "other.py", `${Array.from({ length: 300 }, (_, at) => `print("gen/f${at}.ts")`).join("\n")}\n`);
  assert.equal(await writes(box, "python3 many.py"), ["glob:*", "glob:gen/*"]);
  assert.is(bash(box, "python3 many.py"), "deny");
  assert.is(bash(box, "python3 other.py"), undefined, "nothing under gen/ is held");
});

Scripts("should read the shell commands a program runs that its text gives whole, as commands", async ({ box }) => {
  file(box, "fmt.py", 'import subprocess\nsubprocess.run(["npx", "prettier", "--write", "."])\n');
  file(box, "reset.js", 'const { execFileSync } = require("node:child_process");\nexecFileSync("git", ["checkout", "--", "."]);\n');
  file(box, "shell.js", "require('child_process').execSync('sed -i s/a/b/ *.ts');\n");
  file(box, "status.py", 'import subprocess\nsubprocess.run(["git", "status"])\n');
  const cases: Array<[string, string[]]> = [
    ["python3 fmt.py", [box.project]], // prettier --write . rewrites what is here
    ["node reset.js", [box.project]],
    ["node shell.js", ["glob:*.ts", "s/a/b", "u.ts"]],
    ["python3 -c 'import os; os.system(\"git checkout -- .\")'", [box.project]], // inline programs too
    ["python3 status.py", []], // a command that writes nothing
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  assert.is(bash(box, "python3 fmt.py"), "deny");
  assert.is(bash(box, "python3 status.py"), undefined);
});

Scripts("should not read a program git keeps as it is (tracked and unchanged, or ignored), and read it once changed", async ({ box }) => {
  const git = (...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: box.project, encoding: "utf8" });
  file(box, "tools/gen.py", "import os\nos.remove('u.ts')\n");
  file(box, ".gitignore", "dist/\n");
  file(box, "dist/cli.js", "require('fs').rmSync('u.ts')\n");
  assert.is(git("init", "-q").status, 0);
  git("add", "tools/gen.py", ".gitignore");
  assert.is(git("commit", "-qm", "first").status, 0);
  assert.equal(await writes(box, "python3 tools/gen.py"), [], "the project's own script");
  assert.equal(await writes(box, "node dist/cli.js"), [], "a build's output git ignores");
  assert.is(bash(box, "python3 tools/gen.py"), undefined);
  // GIT_DIR in the hook's environment does not make git look at another repository.
  assert.is(bash(box, "python3 tools/gen.py", {}, { GIT_DIR: "/nonexistent" }), undefined);
  file(box, "tools/gen.py", "import os\nos.remove('u.ts')\nos.remove('v.ts')\n");
  assert.equal(await writes(box, "python3 tools/gen.py"), ["u.ts", "v.ts"], "changed since the commit");
  file(box, "tools/new.py", "open('u.ts', 'w')\n");
  assert.equal(await writes(box, "python3 tools/new.py"), ["u.ts"], "not tracked");
  assert.is(bash(box, "cd tools && python3 new.py"), undefined, "tools/u.ts is no one's");
  assert.is(bash(box, "python3 tools/new.py"), "deny");
  git("add", "tools/new.py");
  assert.equal(await writes(box, "python3 tools/new.py"), ["u.ts"], "staged, not committed");
  // A tracked link to a file the agent changed; a name git would read as pathspec magic.
  file(box, "tools/lib.py", "open('u.ts', 'w')\n");
  symlinkSync("lib.py", join(box.project, "tools", "link.py"));
  file(box, "tools/:gen.py", "open('u.ts', 'w')\n");
  git("add", "tools/lib.py", "tools/link.py");
  assert.is(git("commit", "-qm", "second").status, 0);
  assert.equal(await writes(box, "python3 tools/link.py"), []);
  file(box, "tools/lib.py", "open('u.ts', 'w')\nopen('v.ts', 'w')\n");
  assert.equal(await writes(box, "python3 tools/link.py"), ["u.ts", "v.ts"], "what the tracked link leads to changed");
  assert.equal(await writes(box, "python3 tools/:gen.py"), ["u.ts"], "`:gen.py` is a file, not pathspec magic");
  // An installed package's file is no agent's, fresh or not.
  file(box, "node_modules/tool/cli.js", "require('fs').rmSync('u.ts')\n");
  assert.equal(await writes(box, "node node_modules/tool/cli.js"), []);
});

Scripts("should not run anything a repository's config names while it asks git about a program", async ({ box }) => {
  const git = (...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: box.project, encoding: "utf8" });
  file(box, "gen.py", "print(1)\n");
  file(box, ".gitattributes", "*.py filter=planted\n");
  assert.is(git("init", "-q").status, 0);
  git("add", "gen.py", ".gitattributes");
  assert.is(git("commit", "-qm", "first").status, 0);
  const planted = join(box.root, "planted");
  git("config", "core.fsmonitor", `touch ${planted}; true`);
  git("config", "filter.planted.clean", `touch ${planted}; cat`);
  utimesSync(join(box.project, "gen.py"), new Date(), new Date()); // its stat no longer the index's: status would run the clean filter
  assert.is(bash(box, "python3 gen.py"), undefined);
  assert.not.ok(existsSync(planted), "the hook ran the repository's fsmonitor or filter");
});

Scripts("should read a program the command writes from its own text before running it, and judge one written otherwise as writing anything", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["cat > fix.py <<'EOF'\nimport os\nos.remove('u.ts')\nEOF\npython3 fix.py", ["fix.py", "u.ts"]],
    ["cat <<'EOF' > /tmp/claims-test-fix.py\nopen('w.ts', 'w')\nEOF\npython3 /tmp/claims-test-fix.py", ["/tmp/claims-test-fix.py", "w.ts"]],
    ["cat <<EOF > g.js\nrequire('fs').rmSync('v.ts')\nEOF\nnode g.js", ["g.js", "v.ts"]], // unquoted, nothing bash expands
    ["tee t.py > /dev/null <<'EOF'\nopen('t.ts', 'w')\nEOF\npython3 t.py", ["t.py", "t.ts"]],
    ["echo \"open('u.ts', 'w')\" > e.py; python3 e.py", ["e.py", "u.ts"]],
    ["echo 'print(1)' > quiet.py && python3 quiet.py", ["quiet.py"]],
    ["printf 'open(\"v.ts\", \"w\")\\n' > p.py; python3 p.py", ["p.py", "v.ts"]],
    ["cat > b.py <<EOF\nprint(\"a\\nb\")\nEOF\npython3 b.py", ["b.py"]], // a backslash bash leaves as it is
    ["cat > s.py <<'EOF'; python3 s.py\nopen('u.ts', 'w')\nEOF", ["s.py", "u.ts"]], // `;` after the delimiter
    // Appended to: what was noted before, or the file's text on disk.
    ["cat >> a.py <<'EOF'\nprint(1)\nEOF\npython3 a.py", ["a.py"]],
    ["cat > w.py <<'EOF'\nimport os\nEOF\necho \"os.remove('u.ts')\" >> w.py; python3 w.py", ["u.ts", "w.py"]],
    ["echo 'print(2)' >> old.py; python3 old.py", ["old.py", "u.ts"]],
    // What bash writes is not the text: an unquoted heredoc that expands, another command.
    ["cat <<EOF > x.py\nopen('$n.ts', 'w')\nEOF\npython3 x.py", ["unknown:.", "x.py"]],
    ["cat > y.py <<'EOF'\nprint(1)\nEOF\nsed -i s/1/2/ y.py; python3 y.py", ["unknown:.", "y.py"]],
    ["cp other.py z.py && python3 z.py", ["unknown:.", "z.py"]],
    // `python3 -m`: a module of its own beside where it runs; the operands are the module's.
    ["python3 -m fixer", ["u.ts"]],
    ["python3 -m json.tool data.json", []],
    // Its packages' __init__.py run first (and a package's own, run by its __main__.py); python
    // takes a package before a module of its name; an init's imports are found from where it runs.
    ["python3 -m tools.quiet", ["v.ts"]],
    ["python3 -m tools", ["v.ts"]],
    ["python3 -m both", ["w.ts"]],
    ["python3 -m imp.quiet", ["x.ts"]],
    ["python3 -m pkg2.run", ["x.ts"]], // the module's own imports too: ./helper.py, not pkg2/helper.py
    // uv's own -m: python running that module.
    ["uv run -m fixer", ["u.ts"]],
    ["uv run --module=tools.quiet", ["v.ts"]],
    ["uv run -m json.tool data.json", []],
    ["mkdir -p q && echo \"open('y.ts', 'w')\" > q/__init__.py && echo 'print(1)' > q/m.py && python3 -m q.m", ["q/__init__.py", "q/m.py", "y.ts"]],
  ];
  file(box, "tools/__init__.py", "open('v.ts', 'w')\n");
  file(box, "tools/quiet.py", "print(1)\n");
  file(box, "tools/__main__.py", "print(2)\n");
  file(box, "both.py", "print(3)\n");
  file(box, "both/__init__.py", "open('w.ts', 'w')\n");
  file(box, "both/__main__.py", "print(4)\n");
  file(box, "imp/__init__.py", "import helper\n");
  file(box, "imp/quiet.py", "print(5)\n");
  file(box, "imp/helper.py", "print(6)\n");
  file(box, "helper.py", "open('x.ts', 'w')\n");
  file(box, "pkg2/__init__.py", "");
  file(box, "pkg2/run.py", "import helper\n");
  file(box, "pkg2/helper.py", "print(7)\n");
  file(box, "old.py", "open('u.ts', 'w')\n");
  utimesSync(join(box.project, "old.py"), new Date("2020-01-01"), new Date("2020-01-01")); // not read on its own
  file(box, "fixer.py", "open('u.ts', 'w')\n");
  file(box, "data.json", '{"file": "u.ts"}\n');
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  assert.is(bash(box, "cat > fix.py <<'EOF'\nimport os\nos.remove('u.ts')\nEOF\npython3 fix.py"), "deny");
  assert.is(bash(box, "cat > ok.py <<'EOF'\nopen('mine.ts', 'w')\nEOF\npython3 ok.py"), undefined);
});

Scripts("should read a function's body where it is called, with the call's arguments, and a sourced file's functions", async ({ box }) => {
  file(box, "lib.sh", 'fixup() { truncate -s0 "$1"; }\nnever() { rm -rf /; }\n');
  file(box, "env.sh", "cd build\n");
  const cases: Array<[string, string[]]> = [
    ['f() { rm "$1"; }; f a.ts; f b.ts', ["a.ts", "b.ts"]],
    ["f() { rm -rf /; }; echo f", []],
    ["source lib.sh && fixup x.ts", ["x.ts"]],
    [". ./lib.sh; fixup y.ts", ["y.ts"]],
    ["source env.sh; rm a.ts", ["unknown:a.ts"]],
    ['g() { shift; rm "$1"; }; g a.ts b.ts', ["unknown:."]],
    // A function calling itself is read once for each different call.
    ['r() { rm "$1"; r "$1"; }; r a.ts', ["a.ts"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  assert.is(bash(box, "source lib.sh && fixup u.ts"), "deny");
  assert.is(bash(box, "source lib.sh && fixup x.ts"), undefined);
});

Scripts("should read what a review found scripts hide: dispatch through \"$@\", a variable command, many calls, a cd in a function, a FIFO", async ({ box }) => {
  file(box, "budget.sh", `log() { echo "$*" >&2; }\ndo_rm() { rm -f important.txt; }\nclean_build() { do_rm; }\n${Array.from({ length: 70 }, (_, i) => `log "step ${i}"`).join("\n")}\nclean_build\n`, 0o755);
  file(box, "tasks.sh", 'clean() { rm -rf dist; }\n"$@"\n', 0o755);
  file(box, "tasks2.sh", 'cmd="$1"; shift; "$cmd" "$@"\n', 0o755);
  file(box, "helpers.sh", "up() { cd /; }\nexport A=1\n");
  file(box, "outer.sh", ". ./inner.sh\n");
  file(box, "inner.sh", "cd sub\n");
  file(box, "s.sh", 'rm -f "$1"\n', 0o755);
  const cases: Array<[string, string[]]> = [
    ["./budget.sh", ["important.txt"]], // 70 calls of one function do not use up what the hook reads
    ["./tasks.sh clean extra", ["dist"]],
    ["./tasks2.sh clean", ["unknown:."]], // a command named by the script's arguments
    ["bash -c '${1:-clean}'", ["unknown:."]],
    ["$SUDO rm -f x.txt", ["x.txt"]],
    ['g() { rm -f "$f"; }; for f in one; do g; done; for f in two; do g; done', ["one", "two"]],
    ["up() { cd sub; }; up; rm -f x.txt", ["unknown:x.txt"]],
    ["source outer.sh && rm -f y.txt", ["unknown:y.txt"]],
    ["source helpers.sh && rm -f z.txt", ["z.txt"]], // a cd inside a function does not move the shell that sources it
    ["timeout -s KILL 10 ./s.sh a.txt", ["a.txt"]],
    ['RUSTFLAGS="-C x" ./s.sh b.txt', ["b.txt"]],
    ["uv run ./s.sh c.txt", ["c.txt"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  spawnSync("mkfifo", [join(box.project, "fifo")]);
  assert.equal(await writes(box, "bash fifo"), ["unknown:."], "a FIFO is not opened (it would block the hook): a script it cannot read");
});

Scripts("should not take a binding for a variable that code run later may set: a function, a sourced file, bash -c, eval", async ({ box }) => {
  file(box, "lib3.sh", 'if true; then d=src; fi\nrm "$d/y"\n');
  file(box, "set.sh", "d=src\n");
  file(box, "loc.sh", 'g() { local d=src; rm "$d/x"; }\nfor d in gen; do g; done\n');
  file(box, "f3.sh", "bash -c 'rm \"$0\"' gen/q\n");
  file(box, "x.sh", 'cd sub\nrm "$(dirname "$0")/x"\n', 0o755);
  file(box, "sub/keep", ""); // a directory there: the cd goes in
  file(box, "lib/l.sh", 'f() { rm "$(dirname "${BASH_SOURCE[0]}")/out"; }\n');
  file(box, "main.sh", "source lib/l.sh\nf\n");
  const cases: Array<[string, string[]]> = [
    ["bash loc.sh", ["unknown:x"]],
    ["d=gen; source ./lib3.sh", ["unknown:y"]],
    ["d=gen; bash -c 'read d; rm \"$d/x\"'", ["unknown:x"]],
    ['d=gen; f() { source ./set.sh; }; f; rm "$d/x"', ["unknown:x"]],
    ['d=gen; f() { eval "$1"; }; f d=src; rm "$d/x"', ["unknown:x"]],
    ['for d in gen; do source ./set.sh; rm "$d/x"; done', ["unknown:x"]],
    ['n=d; d=gen; declare "$n=src"; rm "$d/x"', ["unknown:x"]],
    ['d=gen; declare -n r=d; r=src; rm "$d/x"', ["unknown:x"]],
    ['d=gen; d[0]=src; rm "$d/x"', ["unknown:x"]],
    ['d=gen; unset d; : ${d:=src}; rm "$d/x"', ["unknown:x"]],
    ["eval 'rm \"$d/x\"'; d=gen", ["unknown:x"]], // read with the variables as they are where it runs
    ["bash f3.sh", ["gen/q"]], // `$0` of bash -c is the word after its script
    ["./x.sh", ["sub/x"]], // `$0` as it was run (`./x.sh`), from where the script is now
    ["bash main.sh", ["lib/out"]], // BASH_SOURCE in a function: the file that defined it
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  // A script the command writes first, then runs: not the one on disk now.
  file(box, "old.sh", "echo hi\n");
  for (const command of ["cat > old.sh <<'EOF'\nrm -rf src\nEOF\nbash old.sh", "echo 'rm -rf src' > new.sh; bash new.sh", 'printf "all:\\n\\trm -rf src\\n" > M2; make -f M2', "echo '{}' > package.json && npm test"]) {
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  file(box, "package.json", JSON.stringify({ scripts: { test: "uvu" } }));
  assert.not.ok((await writes(box, "npm install lodash && npm test")).includes("unknown:."), "a package manager's own package.json writes change no script");
});

Scripts("should judge scripts nested deeper than it reads as writing any file", async ({ box }) => {
  assert.equal(await writes(box, `${"eval ".repeat(20)}rm a.ts`), ["unknown:."]);
  file(box, "loop.sh", 'rm "x$1.ts"\nbash loop.sh "1$1"\n');
  // The script calling itself, one more `1` each time, until the hook stops reading: then any file.
  const found = await writes(box, "bash loop.sh 0");
  assert.ok(found.includes("x0.ts") && found.includes("x110.ts") && found.includes("unknown:."), found.join(" "));
  assert.is(bash(box, `${"eval ".repeat(20)}rm a.ts`), "deny");
});

Scripts("should read a package's scripts: npm run, npm test, pnpm and yarn by name, with pre and post scripts", async ({ box }) => {
  file(
    box,
    "package.json",
    JSON.stringify({
      scripts: { fmt: "prettier --write src", prefmt: "rm -f .cache/fmt", test: "uvu test", fix: "bash scripts/fix.sh", postfix: "touch fixed.txt", stop: "rm -f pid", start: "node server.js" },
    }),
  );
  file(box, "scripts/fix.sh", 'sed -i "s/a/b/" "$@"\n');
  mkdirSync(join(box.project, "src"));
  const cases: Array<[string, string[]]> = [
    ["npm run fmt", [".cache/fmt", "src"]],
    ["npm run-script fmt --silent", [".cache/fmt", "src"]],
    ["pnpm fmt", [".cache/fmt", "src"]],
    ["pnpm run fmt", [".cache/fmt", "src"]],
    ["yarn fmt", [".cache/fmt", "src"]],
    ["bun run fmt", [".cache/fmt", "src"]],
    ["bun fmt", [".cache/fmt", "src"]],
    ["node --run fmt", [".cache/fmt", "src"]], // Node 22's own runner (without pre and post scripts: read all the same)
    ["node --run=fix a.ts", ["a.ts", "fixed.txt"]],
    ["nr fmt", [".cache/fmt", "src"]], // antfu's ni
    ['node --run "$task"', ["unknown:."]],
    ["nr", ["unknown:."]], // it asks which
    ["node server.js --run fmt", []], // a word of the program's
    ["cd src && npm run fmt", [".cache/fmt", "src"]], // the package's directory, from anywhere in it
    ["npm run fix -- a.ts b.ts", ["a.ts", "b.ts", "fixed.txt"]],
    ["pnpm fix a.ts", ["a.ts", "fixed.txt"]],
    ["npm test", []],
    ["npm restart", ["pid"]],
    ["npm run nothing", []],
    ["npm run", []],
    ['npm run "$task"', ["unknown:."]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  // From the work tree's top, which the hook knows: the package there.
  spawnSync("git", ["init", "-q", box.project]);
  assert.equal(await writes(box, 'cd src && cd "$(git rev-parse --show-toplevel)" && npm run fmt'), [".cache/fmt", "src"]);
  assert.equal(await writes(box, 'cd "$(git rev-parse --show-toplevel)/src" && rm a.ts'), ["src/a.ts"]);
  assert.is(bash(box, "npm run fix -- u.ts"), "deny");
  assert.is(bash(box, "npm test"), undefined);
});

Scripts("should read the project's own install scripts an install runs: preinstall, postinstall, prepare", async ({ box }) => {
  file(box, "package.json", JSON.stringify({ scripts: { postinstall: "cp template.ts gen.ts", prepare: "touch .prepared", test: "uvu" } }));
  const lock = ["glob:node_modules/**", "npm-shrinkwrap.json", "package-lock.json"];
  assert.equal(await writes(box, "npm ci"), [".prepared", "gen.ts", ...lock].sort());
  assert.equal(await writes(box, "npm install lodash"), [".prepared", "gen.ts", ...lock, "package.json"].sort());
  assert.equal(await writes(box, "pnpm install"), [".prepared", "gen.ts", "glob:node_modules/**", "pnpm-lock.yaml"]);
  assert.equal(await writes(box, "npm ci --ignore-scripts"), lock);
  assert.equal(await writes(box, "npm install -g typescript"), [], "the machine's packages, not the project's");
  file(box, "package.json", JSON.stringify({ scripts: { postinstall: "cp template.ts u.ts" } }));
  assert.is(bash(box, "npm ci"), "deny");
});

Scripts("should load no parser for a package's script run alone whose text writes nothing", async ({ box }) => {
  file(box, "package.json", JSON.stringify({ scripts: { test: "uvu test", lint: "eslint .", fix: "eslint --fix .", pretest: "tsc --noEmit", build: "npm run lint" } }));
  const { quietPackageRun } = await import("../src/hooks/shell-gate.js");
  const sub = join(box.project, "src");
  mkdirSync(sub);
  for (const command of ["npm test", "npm t", "npm run lint", "pnpm lint", "yarn run lint", "npm test 2>&1 | tail -20"]) {
    assert.ok(quietPackageRun(command, sub), command);
  }
  for (const command of ["npm run fix", "pnpm fix", "npm run build", "npm test | python3", "npm test || rm u.ts", "npm test > out.txt", "npm run lint -- --fix", "npm install", "pnpm install", "yarn nothing", "npm test; rm u.ts", "npm test || echo failed", "npm test | ./clean.sh", "npm test || make clean", "npm test | cat\nmake clean", "yarn run tsc", "bun run tsc"]) {
    assert.not.ok(quietPackageRun(command, sub), command);
  }
  assert.is(bash(box, "npm test 2>&1 | tail -20"), undefined);
});

Scripts("should read the tools scripts run scripts with: npm-run-all, run-s, concurrently, cross-env, dotenv, shx, rimraf", async ({ box }) => {
  file(
    box,
    "package.json",
    JSON.stringify({
      scripts: {
        clean: "rimraf dist build",
        "clean:x": "shx rm -rf out",
        "build:a": "touch a.txt",
        "build:b": "cross-env NODE_ENV=production touch b.txt",
        "build:c:d": "touch cd.txt",
        all: "run-s clean build:*",
        dev: 'concurrently "npm:build:a" "dotenv -e .env -- touch c.txt"',
        sedit: "sed -i s/a/b/",
      },
    }),
  );
  const cases: Array<[string, string[]]> = [
    ["npm run all", ["a.txt", "b.txt", "build", "dist"]], // `*` stops at `:`
    ["npm-run-all -p 'build:**'", ["a.txt", "b.txt", "cd.txt"]],
    ["npm run dev", ["a.txt", "c.txt"]],
    ["npm run clean:x", ["out"]],
    ["npx rimraf dist", ["dist"]],
    ["npm run sedit a.ts", ["a.ts"]], // npm passes what follows the name, `--` or not
    ["npm run sedit -- b.ts", ["b.ts"]],
    ["bun test", []], // bun's own test runner, not the script
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  assert.is(bash(box, "npm run sedit u.ts"), "deny");
});

Scripts("should read a script in every workspace member for -ws, -r, --filter and yarn workspace", async ({ box }) => {
  file(box, "package.json", JSON.stringify({ workspaces: ["packages/*"], scripts: { fmt: "prettier --write root.ts" } }));
  file(box, "packages/a/package.json", JSON.stringify({ name: "a", scripts: { fmt: "prettier --write a.ts" } }));
  file(box, "packages/b/package.json", JSON.stringify({ name: "b", scripts: { fmt: "prettier --write b.ts" } }));
  file(box, "packages/c/package.json", JSON.stringify({ name: "c" }));
  const all = ["packages/a/a.ts", "packages/b/b.ts", "root.ts"];
  for (const command of ["npm run fmt -ws", "npm run fmt --workspace a", "pnpm -r fmt", "pnpm --filter a run fmt", "yarn workspace a fmt", "yarn workspaces foreach -A run fmt"]) {
    assert.equal(await writes(box, command), all, command);
  }
  assert.equal(await writes(box, "npm run fmt"), ["root.ts"], "the package's own only");
  file(box, "pnpm-workspace.yaml", "packages:\n  - 'packages/a'\n  # b is not a member\n");
  assert.equal(await writes(box, "pnpm -r fmt"), ["packages/a/a.ts", "root.ts"], "pnpm-workspace.yaml's members");
  file(box, "pnpm-workspace.yaml", 'packages: ["packages/b"]\n');
  assert.equal(await writes(box, "pnpm -r fmt"), ["packages/b/b.ts", "root.ts"], "a flow list");
  for (const command of ["bun run --cwd packages/a fmt", "bun run --cwd=packages/a fmt", "yarn --cwd packages/a fmt", "yarn run --cwd packages/a fmt"]) {
    assert.equal(await writes(box, command), ["packages/a/a.ts"], command);
  }
});

Scripts("should read turbo's tasks as every member's scripts, nx's targets as writing any file, deno's tasks, and the scripts npm pack and publish run", async ({ box }) => {
  file(box, "package.json", JSON.stringify({ workspaces: ["packages/*"], scripts: { fmt: "prettier --write root.ts", prepack: "touch packed.ts" } }));
  file(box, "packages/a/package.json", JSON.stringify({ name: "a", scripts: { fmt: "prettier --write a.ts", build: "tsc --noEmit" } }));
  file(box, "packages/b/package.json", JSON.stringify({ name: "b", scripts: { lint: "eslint --fix b.ts" } }));
  for (const command of ["turbo run fmt", "turbo fmt", "npx turbo run fmt --filter a", "pnpm turbo fmt", "turbo run a#fmt"]) assert.equal(await writes(box, command), ["packages/a/a.ts", "root.ts"], command);
  assert.equal(await writes(box, "turbo run fmt lint"), ["packages/a/a.ts", "packages/b/b.ts", "root.ts"]);
  for (const command of ["turbo run build", "turbo login", "turbo ls", "nx graph", "nx show projects", "nx"]) assert.equal(await writes(box, command), [], command);
  for (const command of ["turbo gen", "turbo run $task", "nx run a:build", "nx run-many -t fmt", "nx affected -t lint", "nx build a", "npx nx format"]) assert.equal(await writes(box, command), ["unknown:."], command);
  file(box, "deno.jsonc", '{\n  // tasks\n  "tasks": { "gen": "touch gen.ts", "both": { "command": "touch both.ts", "dependencies": ["gen"] }, "ls": "ls", },\n}\n');
  const cases: Array<[string, string[]]> = [
    ["deno task gen", ["gen.ts"]],
    ["deno task both", ["both.ts", "gen.ts"]],
    ["deno task ls", []],
    ["deno task fmt", ["root.ts"]], // package.json's, where deno.json has none of the name
    ["deno task", []],
    ["deno task --eval 'touch e.ts'", ["e.ts"]],
    ["deno task -r gen", ["unknown:."]],
    ["npm pack --dry-run", ["packed.ts"]],
    ["npm publish", ["packed.ts"]],
    ["npm pack --ignore-scripts", ["glob:*.tgz"]], // its tarball, where it runs
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  claims(["take", join(box.project, "packages/a/a.ts"), "--dir", box.dir, "--holder", "other"]);
  for (const command of ["turbo run fmt", "pnpm turbo fmt", "nx run a:fmt"]) assert.is(bash(box, command), "deny", command);
  for (const command of ["turbo run build", "nx graph", "deno task ls", "deno task fmt"]) assert.is(bash(box, command), undefined, command);
  assert.is(bash(box, "npm pack"), undefined, "prepack writes packed.ts, which nobody holds");
  file(box, "package.json", JSON.stringify({ scripts: { prepare: "sed -i s/1/2/ u.ts" } }));
  for (const command of ["npm pack", "npm publish --dry-run", "pnpm pack"]) assert.is(bash(box, command), "deny", command);
});

Scripts("should read a justfile's recipes that just runs: the ones named or the default, after their dependencies, with its string variables", async ({ box }) => {
  file(
    box,
    "justfile",
    [
      'out := "dist"',
      "",
      "default: fmt",
      "",
      "alias f := fmt",
      "",
      "fmt:",
      "    @npx prettier --write src",
      "",
      'test target="all": build',
      "    npm test -- {{target}}",
      "",
      "build:",
      "    -rm -rf {{out}}",
      "    echo x > {{out}}/a.js",
      "",
      "[private]",
      "_gen:",
      "    #!/usr/bin/env python3",
      "    open('u.ts', 'w').write('x')",
      "",
      "release version: build && _gen",
      "    echo {{version}} > VERSION",
      "",
      // A recipe named like a directive; a command continued on the next line (its `-o` no prefix);
      // each line in a shell of its own (the cd moves nothing after it); a long run of blanks.
      // A recipe running another through just itself.
      "again:",
      "    {{just_executable()}} build",
      "",
      "import-data:",
      "    sort notes \\",
      "    -o sorted.txt",
      "    cd sub",
      "    touch made.txt",
      `# end${" ".repeat(5000)}of file`,
      "",
    ].join("\n"),
  );
  assert.equal(await writes(box, "just"), ["src"], "the first recipe, and what it depends on");
  assert.equal(await writes(box, "just f"), ["src"], "an alias");
  assert.equal(await writes(box, "just test unit"), ["dist", "dist/a.js"]);
  assert.equal(await writes(box, "just release 1.2"), ["VERSION", "dist", "dist/a.js", "u.ts"], "a dependency after && runs too; a python recipe is read as python");
  assert.is(bash(box, "just release 1.2"), "deny", "its _gen recipe writes u.ts, which another session holds");
  assert.is(bash(box, "just build"), undefined);
  assert.equal(await writes(box, "just --list"), []);
  assert.equal(await writes(box, "just --fmt"), ["justfile"]);
  assert.equal(await writes(box, "just --fmt --check"), []);
  assert.equal(await writes(box, "just nothing"), ["unknown:."], "a recipe the hook cannot find could write anything");
  assert.equal(await writes(box, "just import-data"), ["made.txt", "sorted.txt"]);
  assert.equal(await writes(box, "just again"), ["dist", "dist/a.js"], "just_executable() is just");
  assert.equal(await writes(box, "just --shell-arg -c build"), ["dist", "dist/a.js"], "--shell-arg's value is no --command");
  // From a directory below, just finds the justfile above and runs its recipes there.
  mkdirSync(join(box.project, "sub"));
  assert.equal(await writes(box, "cd sub && just build"), ["dist", "dist/a.js"]);
});

Scripts("should read where a justfile's recipes run, their parameters, variables set on the command line, backticks, scripts and recipes for this system", async ({ box }) => {
  file(
    box,
    "justfile",
    [
      "set working-directory := 'work'",
      'target := "safe.txt"',
      "stamp := `date > stamp.txt; echo now`",
      "",
      "touch-it target:",
      "    touch {{target}}",
      "",
      "[working-directory: 'sub']",
      "gen:",
      "    touch gen.txt",
      "",
      "[no-cd]",
      "here:",
      "    touch here.txt",
      "",
      "[linux]",
      "os:",
      "    touch linux.txt",
      "",
      "[windows]",
      "os:",
      "    touch windows.txt",
      "",
      "[script('python3')]",
      "py:",
      "    open('py.txt', 'w').write('x')",
      "",
      "env-s:",
      "    #!/usr/bin/env -S python3 -u",
      "    open('env-s.txt', 'w').write('x')",
      "",
      "v:",
      "    touch {{target}}",
      "",
      "compile what:",
      "    touch {{what}}.o",
      "",
      "link target: (compile target) (compile 'main')",
      "    touch {{target}}.bin",
      "",
    ].join("\n"),
  );
  mkdirSync(join(box.project, "sub"));
  mkdirSync(join(box.project, "work")); // (just runs nothing where the directory is missing)
  const stamps = ["stamp.txt", "work/stamp.txt"]; // the backtick runs as just reads the justfile
  assert.equal(await writes(box, "just touch-it out.txt"), [...stamps, "work/out.txt"].sort(), "a parameter is its argument, not the variable it shadows");
  assert.equal(await writes(box, "just v"), [...stamps, "work/safe.txt"].sort());
  assert.equal(await writes(box, "just target=other.txt v"), [...stamps, "work/other.txt"].sort());
  assert.equal(await writes(box, "just --set target x.txt v"), [...stamps, "work/x.txt"].sort());
  assert.equal(await writes(box, "just gen"), [...stamps, "sub/gen.txt"].sort());
  assert.equal(await writes(box, "cd sub && just here"), [...stamps, "sub/here.txt"].sort());
  if (process.platform === "linux") assert.equal(await writes(box, "just os"), [...stamps, "work/linux.txt"].sort());
  assert.equal(await writes(box, "just py"), [...stamps, "work/py.txt"].sort());
  assert.equal(await writes(box, "just env-s"), [...stamps, "work/env-s.txt"].sort());
  assert.equal(await writes(box, "just --command touch cmd.txt"), [...stamps, "cmd.txt"].sort());
  assert.equal(await writes(box, "just link app"), [...stamps, "work/app.bin", "work/app.o", "work/main.o"].sort(), "a dependency's arguments, once for each set");
  claims(["take", join(box.project, "work/safe.txt"), "--dir", box.dir, "--holder", "other", "--purpose", "the safe"]);
  assert.is(bash(box, "just v"), "deny");
  assert.is(bash(box, "just target=other.txt v"), undefined);
  // An import is part of the justfile (its recipes run where the root one's do); a module declared is no obstacle to the rest.
  file(box, "just/extra.just", ["gen:", "    touch generated.txt", ""].join("\n"));
  file(box, "justfile", ["import 'just/extra.just'", "import? 'missing.just'", "mod tools", "", "all: gen", "    touch all.txt", ""].join("\n"));
  assert.equal(await writes(box, "just all"), ["all.txt", "generated.txt"]);
  assert.equal(await writes(box, "just tools::fmt"), ["unknown:."], "a module's recipe is not read");
  // set no-cd: every recipe runs where just runs, a [working-directory] one still there.
  file(box, "justfile", ["set no-cd", "", "a:", "    touch a.txt", "", "[working-directory('sub')]", "b:", "    touch b.txt", ""].join("\n"));
  assert.equal(await writes(box, "cd sub && just a b"), ["sub/a.txt", "sub/b.txt"]);
});

Scripts("should read the tasks Task (go-task) runs from its Taskfile: the ones named or default, their deps, dirs, variables and nested tasks", async ({ box }) => {
  file(
    box,
    "Taskfile.yml",
    [
      "version: '3'",
      "vars:",
      "  OUT: dist",
      "  REV:",
      "    sh: git rev-parse HEAD > rev.txt # a dynamic variable's command runs",
      "tasks:",
      "  default:",
      "    deps: [gen]",
      "    cmds:",
      "      - task: build",
      "  build:",
      "    dir: sub",
      "    cmds:",
      "      - go build -o {{.OUT}}/app ./...",
      "      - cmd: echo hi > x.txt",
      "      - |",
      "        cd ..",
      "        touch u.ts",
      "  gen:",
      "    cmds:",
      "    - touch gen.txt",
      "  hello: echo hi > hello.txt",
      "  args:",
      "    cmds: ['touch {{.CLI_ARGS}}']",
      "  release:",
      "    aliases: [r]",
      "    preconditions:",
      "      - sh: touch pre.txt",
      "    status:",
      "      - touch status.txt",
      "    env:",
      "      F:",
      "        sh: touch env.txt",
      "    cmds: [touch rel.txt]",
      "  'gen:*':",
      "    cmds: [touch wild.txt]",
      "",
    ].join("\n"),
  );
  mkdirSync(join(box.project, "sub"));
  assert.equal(await writes(box, "task"), ["gen.txt", "rev.txt", "sub/dist/app", "sub/x.txt", "u.ts"], "default: its deps, then build by `task:`");
  assert.equal(await writes(box, "task build OUT=out"), ["rev.txt", "sub/out/app", "sub/x.txt", "u.ts"], "a variable set on the command line");
  assert.equal(await writes(box, "task hello"), ["hello.txt", "rev.txt"], "a task written as its command");
  assert.equal(await writes(box, "task args -- f.txt"), ["f.txt", "rev.txt"]);
  assert.equal(await writes(box, "task r"), ["env.txt", "pre.txt", "rel.txt", "rev.txt", "status.txt"], "by an alias; its preconditions, status checks and env's sh: run too");
  assert.equal(await writes(box, "task gen:api"), ["rev.txt", "wild.txt"], "a wildcard task");
  assert.equal(await writes(box, "task --list"), []);
  assert.equal(await writes(box, "task -h"), [], "help runs nothing");
  assert.equal(await writes(box, "task -g build"), ["unknown:."], "the user's own Taskfile");
  assert.is(bash(box, "task build"), "deny", "its block's second line writes u.ts, which another session holds");
  assert.is(bash(box, "task gen"), undefined);
  assert.is(bash(box, "cd sub && task gen"), undefined, "the Taskfile above is found");
  // A Taskfile the hook cannot read: any file.
  file(box, "Taskfile.yml", "version: '3'\ntasks:\n  a: &x\n    cmds: [touch a]\n");
  assert.equal(await writes(box, "task a"), ["unknown:."]);
});

Scripts.run();
