// Programs given inline, on stdin or through options an interpreter takes a value for: the
// interpreters' options that take their value as the next word, a copy into a directory, deno's and
// bun's program on stdin, sqlite3's dot-commands and SQL, and the languages the hook does not read.
// Another session holds u.ts; session s2 runs each command through the Claude hook of the real CLI,
// and the shell reader says what it finds written.
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Inline = suite<Context>("claims hook: programs given inline or on stdin");
Inline.before.each((context) => {
  context.box = heldBox();
});
Inline.after.each((context) => context.box.cleanup());

Inline("should not take the value of an interpreter's option for its program", async ({ box }) => {
  file(box, "gen.js", "require('fs').writeFileSync('u.ts', 'x');\n");
  file(box, "gen.ts", "Deno.removeSync('u.ts');\n");
  const denied = [
    "perl -I lib -pi -e 's/u/w/' u.ts", // perl takes `-I dir` as well as `-Idir`
    "perl -w -I lib -e 'unlink \"u.ts\"'",
    "bun --cwd . -e \"require('fs').writeFileSync('u.ts','x')\"",
    "bun -c bunfig.toml -e \"require('fs').writeFileSync('u.ts','x')\"",
    "node --inspect-port 9229 gen.js",
    "node --watch gen.js", // a flag, no start of --watch-path
    "node --max-old-space-size 4096 gen.js",
    "php --define x=1 -r 'unlink(\"u.ts\");'",
    "ruby --encoding utf-8 -e 'File.write(\"u.ts\", 1)'",
    "ruby -C src -e 'File.write(\"../u.ts\", 1)'", // from another directory: any file
    "deno -A gen.ts", // deno's options before a program file, with no `run`
    "deno --config deno.json gen.ts",
    "tsx --tsconfig tsconfig.json gen.js",
    "ts-node -P tsconfig.json gen.js",
  ];
  for (const command of denied) assert.is(bash(box, command), "deny", command);
  assert.equal(await writes(box, "bun --cwd src -e \"require('fs').writeFileSync('v.ts','x')\""), ["unknown:.", "v.ts"]);
  for (const command of ["node --inspect-port 9229 -e 'console.log(1)'", "bun --cwd . -e 'console.log(1)'"]) assert.is(bash(box, command), undefined, command);
});

Inline("should judge a copy into a directory as writing the source's name there, and a tree copy as all under it", async ({ box }) => {
  file(box, "gen/u.ts", "export const u = 2;\n");
  file(box, "src/v.ts", "export const v = 1;\n");
  const cases: Array<[string, string[]]> = [
    ["python3 -c \"import shutil; shutil.copy('gen/u.ts', '.')\"", ["gen/u.ts", "u.ts"]],
    ["python3 -c \"import shutil; shutil.copy2('gen/u.ts', '.')\"", ["gen/u.ts", "u.ts"]],
    ["python3 -c \"import shutil, os; shutil.move('gen/u.ts', os.getcwd())\"", ["gen/u.ts", "u.ts"]],
    ["python3 -c \"import shutil; shutil.copy('gen/u.ts', '..')\"", ["gen/u.ts", "unknown:u.ts"]],
    ["python3 -c \"import shutil, sys; shutil.copy(sys.argv[1], '.')\" gen/u.ts", ["gen/u.ts", "glob:*"]],
    ["perl -MFile::Copy -e 'copy(\"gen/u.ts\", \".\")'", ["gen/u.ts", "u.ts"]],
    ["node -e \"require('fs').cpSync('gen', 'src', {recursive: true})\"", ["gen", "src"]], // cpSync changes files by name
    ["ruby -rfileutils -e 'FileUtils.cp_r(\"gen\", \"src\")'", ["gen", "src"]],
    ["python3 -c \"import shutil; shutil.copytree('gen', '.', dirs_exist_ok=True)\"", ["gen", "glob:**"]], // its content (gen: a plain name here, as any program's)
    ["node -e \"require('fs').cp('gen', '.', {recursive: true}, () => {})\"", ["gen", "glob:**"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of cases.slice(0, 6).map(([command]) => command)) assert.is(bash(box, command), "deny", command);
  assert.is(bash(box, "python3 -c \"import shutil; shutil.copy('gen/u.ts', 'out/')\""), undefined);
});

Inline("should read deno's, bun's and uv's program on stdin as node's, and a pipe to one as any file", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["deno run -A - <<'EOF'\nDeno.writeTextFileSync('u.ts', 'x')\nEOF", ["u.ts"]],
    ["deno -A - <<'EOF'\nDeno.removeSync('u.ts')\nEOF", ["u.ts"]],
    ["deno run --config deno.json - <<<\"Deno.writeTextFileSync('u.ts', 'x')\"", ["u.ts"]],
    ["bun run - <<'EOF'\nawait Bun.write('u.ts', 'x')\nEOF", ["u.ts"]],
    ["sudo bun run - <<'EOF'\nawait Bun.write('u.ts', 'x')\nEOF", ["u.ts"]],
    ["uv run - <<'EOF'\nimport os; os.remove('u.ts')\nEOF", ["u.ts"]],
    ["echo \"require('fs').writeFileSync('u.ts','x')\" | bun run -", ["unknown:."]],
    ["cat gen.ts | deno run -", ["unknown:."]],
    ["bun run - < gen.js", ["unknown:."]],
    ["bun run - <<'EOF'\nconsole.log(1)\nEOF", []],
  ];
  for (const [command, expected] of cases) assert.equal((await writes(box, command)).filter((path) => !/^deno\.lock$/.test(path)), expected, command);
  for (const [command] of cases.slice(0, 9)) assert.is(bash(box, command), "deny", command);
  assert.is(bash(box, "bun run - <<'EOF'\nconsole.log(1)\nEOF"), undefined);
  // Words of another command are no runner's: rm is read as ever.
  assert.equal(await writes(box, "rm u.ts bun run -"), ["-", "bun", "run", "u.ts"]);
  assert.equal(await writes(box, "echo bun run -"), []);
});

Inline("should judge the files sqlite3's dot-commands and SQL write, and the commands they run", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["sqlite3 :memory: '.output u.ts' 'select 1;'", ["u.ts"]],
    ["sqlite3 :memory: '.once u.ts' 'select 2;'", ["u.ts"]],
    ["sqlite3 :memory: '.out u.ts' 'select 2;'", ["u.ts"]], // the start of a dot-command's name is it
    ["sqlite3 :memory: '.save u.ts'", ["u.ts"]],
    ["sqlite3 :memory: '.backup main u.ts'", ["u.ts"]],
    ["sqlite3 :memory: \"select writefile('u.ts', 'x')\"", ["u.ts"]],
    ["sqlite3 :memory: \"ATTACH DATABASE 'u.ts' AS x\"", ["u.ts"]],
    ["sqlite3 :memory: \"VACUUM INTO 'u.ts'\"", ["u.ts"]],
    ["sqlite3 :memory: 'select writefile(name, data) from t'", ["unknown:."]],
    ["sqlite3 :memory: '.shell rm -f u.ts'", ["u.ts"]],
    ["sqlite3 :memory: '.system rm -f u.ts'", ["u.ts"]],
    ["sqlite3 :memory: \".output '|tee u.ts'\" 'select 1'", ["u.ts"]],
    ["sqlite3 -cmd '.output u.ts' :memory: 'select 3'", ["u.ts"]],
    ["sqlite3 -lookaside 64 8 :memory: '.output u.ts'", ["u.ts"]], // -lookaside SIZE N
    ["sqlite3 :memory: <<'SQL'\n.output u.ts\nselect 'heredoc';\nSQL", ["u.ts"]],
    ["sqlite3 :memory: <<< \"select writefile('u.ts', 'x');\"", ["u.ts"]],
    ["echo \"select writefile('u.ts','x');\" | sqlite3", ["u.ts"]],
    ["cat q.sql | sqlite3 db", ["db", "unknown:."]], // SQL the text does not give
    ["sqlite3 db < q.sql", ["db", "unknown:."]],
    ["sqlite3 :memory: '.read q.sql'", ["unknown:."]],
    ["sqlite3 -init q.sql :memory: 'select 1'", ["unknown:."]],
    ["sqlite3 :memory: '.load ./ext'", ["unknown:."]],
    ["sqlite3 db '.dump'", ["db"]],
    ["sqlite3 db '.import data.csv t'", ["db"]],
    ["echo 'select 1;' | sqlite3 db", ["db"]],
    ["sqlite3 db <<'SQL'\nselect 1;\nSQL", ["db"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const [command] of cases.slice(0, 8)) assert.is(bash(box, command), "deny", command);
  for (const command of ["sqlite3 :memory: '.shell rm -f u.ts'", "sqlite3 :memory: <<'SQL'\n.output u.ts\nselect 'heredoc';\nSQL", "echo \"select writefile('u.ts','x');\" | sqlite3", "cat q.sql | sqlite3"]) assert.is(bash(box, command), "deny", command);
  for (const command of ["sqlite3 db '.dump'", "echo 'select 1;' | sqlite3 db"]) assert.is(bash(box, command), undefined, command);
});

Inline("should judge code in a language the hook does not read, given inline or on its input, as writing any file unless plainly read-only", async ({ box }) => {
  const denied = [
    "tclsh <<<'set f [open u.ts w]; puts $f x; close $f'",
    "echo 'file delete u.ts' | tclsh",
    "tclsh8.6 < fix.tcl",
    'expect -c "spawn rm u.ts; expect eof"', // expect, Tcl's, spawns commands
    "expect <<<'spawn rm u.ts'",
    "Rscript -e \"writeLines('x', 'u.ts')\"",
    "R --vanilla -q -e \"file.remove('u.ts')\"",
    "R --no-save < fix.R",
    "lua -e \"io.open('u.ts','w'):write('x')\"",
    "lua5.4 -e 'os.remove(arg[1])' u.ts",
    "julia -e 'write(\"u.ts\", \"x\")'",
    "emacs -Q --batch --eval '(with-temp-file \"u.ts\" (insert \"x\"))'",
    "elixir -e 'File.write!(\"u.ts\", \"x\")'",
    "Rscript -e \"$code\"",
  ];
  for (const command of denied) {
    assert.equal(await writes(box, command), ["unknown:."], command);
    assert.is(bash(box, command), "deny", command);
  }
  for (const command of ["Rscript -e 'cat(1+1)'", "julia -e 'println(VERSION)'", "lua -e 'print(_VERSION)'", "echo 'puts 1' | tclsh", "R --version", "expect -v"]) {
    assert.equal(await writes(box, command), [], command);
    assert.is(bash(box, command), undefined, command);
  }
});

Inline("should judge code given inline or on its input to more languages the hook does not read as writing any file, their plainly read-only code aside", async ({ box }) => {
  const denied = [
    'erl -noshell -eval "$x" -s init stop',
    "erl -noshell -eval 'file:write_file(\"u.ts\", \"x\")' -s init stop",
    'osascript -e "$x"',
    "osascript -e 'do shell script \"rm u.ts\"'",
    "osascript -e 'display notification \"x\"' -e 'do shell script \"rm u.ts\"'",
    "raku -e 'spurt \"u.ts\", \"x\"'",
    'bb -e "$x"',
    'clojure -M -e "$x"',
    "ghc -e 'writeFile \"u.ts\" \"\"'",
    'octave --eval "$x"',
    "gnuplot -e \"set output 'u.ts'; plot sin(x)\"",
    "dc -e '!rm u.ts'",
    "m4 <<< 'syscmd(rm u.ts)'",
    'read -r x; m4 <<< "$x"',
  ];
  for (const command of denied) {
    assert.equal(await writes(box, command), ["unknown:."], command);
    assert.is(bash(box, command), "deny", command);
  }
  for (const command of ["erl -noshell -s init stop", "osascript -e 'display notification \"Build done\" with title \"claims\"'", "raku -e 'say 1'", "dc -e '2 3 + p'"]) {
    assert.equal(await writes(box, command), [], command);
    assert.is(bash(box, command), undefined, command);
  }
});

Inline("should judge a file a program creates by a plain name, not there yet, as written, and one it only reads as no write", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    [`python3 -c "open('Dockerfile', 'w').write('FROM node')"`, ["Dockerfile"]],
    [`node -e "require('fs').writeFileSync('VERSION', '1')"`, ["VERSION"]],
    [`ruby -e 'File.write("Gemfile", "x")'`, ["Gemfile"]],
    [`perl -e 'open(my $f, ">", "VERSION") or die'`, ["VERSION"]],
    [`php -r 'file_put_contents("VERSION", "1");'`, ["VERSION"]],
    // (Its source too: every path-like string in a program that writes is judged so.)
    [`python3 -c "import shutil; shutil.copy('a.txt', 'LICENSE')"`, ["LICENSE", "a.txt"]],
    [`python3 -c "from pathlib import Path; Path('VERSION').write_text('1')"`, ["VERSION"]],
    [`python3 -c "import pathlib; pathlib.Path('NOTES').touch()"`, ["NOTES"]],
    [`bun -e "await Bun.write('VERSION', '1')"`, ["VERSION"]],
    [`perl -e 'open(FH, ">VERSION"); print FH 1'`, ["VERSION"]],
    [`python3 -c "print(Path('README').read_text())"`, []],
    [`python3 -c "print(open('README').read())"`, []],
    [`python3 -c "import subprocess; subprocess.run(['npm', 'test'])"`, []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  file(box, "scripts/stamp.py", "open('STAMP', 'w').write('x')\n");
  assert.equal(await writes(box, "python3 scripts/stamp.py"), ["STAMP"]);
});

Inline("should judge ruby's FileUtils removals and rimraf given a directory's plain name as writing it, and refuse one where another session holds a file", async ({ box }) => {
  file(box, "src/k.ts", "export const k = 1;\n");
  for (const command of [`ruby -e 'require "fileutils"; FileUtils.rm_rf("src")'`, `ruby -rfileutils -e 'FileUtils.rm_r("src")'`, `node -e "require('rimraf').sync('src')"`]) {
    assert.equal(await writes(box, command), ["src"], command);
  }
  assert.equal(await writes(box, `ruby -e 'puts File.read("src/k.ts")'`), ["src/k.ts"], "a path-like string is judged, as before");
  claims(["take", join(box.project, "src/k.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "keys"]);
  assert.is(bash(box, `ruby -e 'require "fileutils"; FileUtils.rm_rf("src")'`), "deny");
});

Inline.run();
