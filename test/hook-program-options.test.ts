// Options that hand a tool code or a program to run besides its own work: a file of code for a
// language the hook does not read (`emacs -l`, `R -f`, `expect -f`, `julia -L`), Neovim's `-l`,
// the programs sdiff, split, mysql, wget, a C compiler, hg and jj are told to run, crystal eval,
// an F# script, kotlinc -e, and the words plain cross-env passes on. Each was read as writing
// nothing of what it ran (or, for the files of code, as plainly read-only by the file's name).
// Another session holds u.ts; session s2 runs each command through the Claude hook of the real CLI.
import { spawnSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import { claims, type Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Options = suite<Context>("claims hook: code and programs a tool's options run");
Options.before.each((context) => {
  context.box = heldBox();
});
Options.after.each((context) => context.box.cleanup());

const git = (box: Sandbox, ...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: box.project });

Options("should judge a file of code an option loads, in a language the hook does not read, as writing any file unless it is the project's own", async ({ box }) => {
  file(box, "w.el", '(write-region "" nil "u.ts")\n');
  file(box, "w.R", "file.remove('u.ts')\n");
  file(box, "w.exp", "spawn rm u.ts\n");
  file(box, "w.jl", 'rm("u.ts")\n');
  file(box, "w.scm", '(delete-file "u.ts")\n');
  const denied = [
    "emacs --batch -l w.el",
    "emacs -batch -load w.el",
    "emacs --script w.el",
    "emacs --script=w.el",
    "R -f w.R",
    "R --vanilla --file=w.R",
    "expect -f w.exp",
    "julia -L w.jl",
    "julia --load=w.jl -e 'println(1)'",
    "csi -s w.scm",
    'emacs --batch -l "$f"',
    "cp w.el new.el && emacs --batch -l new.el", // written first by the same line
  ];
  for (const command of denied) assert.ok((await writes(box, command)).includes("unknown:."), command);
  denies(box, denied);
  // A library the language finds on its own path, a file that is not there (the tool stops), and the project's own.
  file(box, "kept.el", '(write-region "" nil "u.ts")\n');
  git(box, "init", "-q", ".");
  git(box, "add", "u.ts", "kept.el");
  git(box, "commit", "-q", "-m", "kept");
  allows(box, ["emacs --batch -l kept.el", "emacs --batch -l subr-x --eval '(+ 1 2)'", "R -f missing.R"]);
  // The project's own file, rewritten by the line before it runs (also by a script the line runs): what runs is not what git has.
  denies(box, ["echo '(delete-file \"u.ts\")' > kept.el && emacs --batch -l kept.el", "bash -c 'cp w.el kept.el'; emacs --batch -l kept.el"]);
  // A whole option before a letter's prefix: csi's -ss and -script are files of code too.
  file(box, "w.scm", '(delete-file "u.ts")\n');
  denies(box, ["csi -ss w.scm", "csi -script w.scm"]);
});

Options("should read the functions `emacs -f` calls in batch: a byte compile writes each file's .elc, a test runner nothing of its own, any other any file", async ({ box }) => {
  file(box, "lisp/m.el", "(provide 'm)\n");
  file(box, "notes.org", "#+begin_src sh :tangle u.ts\nx\n#+end_src\n");
  file(box, "u.elc", "");
  const cases: Array<[string, string[]]> = [
    ["emacs --batch -f batch-byte-compile lisp/m.el", ["lisp/m.el", "lisp/m.elc"]],
    ["emacs -batch lisp/m.el --funcall=batch-byte-compile", ["lisp/m.el", "lisp/m.elc"]],
    ["emacs --batch -f batch-byte-recompile-directory lisp", ["glob:lisp/**", "lisp"]],
    ["emacs --batch -f batch-byte-compile lisp", ["glob:lisp/**", "lisp"]],
    ["emacs --batch -f batch-byte-compile lisp/m", ["lisp/m", "lisp/m.elc"]],
    ["emacs --batch -l ert -f ert-run-tests-batch-and-exit", []],
    ["emacs -Q --batch -f kill-emacs", []],
    ["emacs --batch notes.org -f org-babel-tangle", ["notes.org", "unknown:."]],
    ["emacs --batch -f package-refresh-contents", ["unknown:."]],
    ['emacs --batch -f "$fn"', ["unknown:."]],
  ];
  for (const [command, written] of cases) assert.equal(await writes(box, command), written, command);
  // Another session holds u.ts and u.elc: a byte compile of u.el writes u.elc, a tangle any file.
  file(box, "u.el", "(provide 'u)\n");
  assert.is(claims(["take", join(box.project, "u.elc"), "--dir", box.dir, "--holder", "other"]).code, 0);
  denies(box, ["emacs --batch -f batch-byte-compile u.el", "emacs --batch notes.org -f org-babel-tangle"]);
  allows(box, ["emacs --batch -f batch-byte-compile lisp/m.el", "emacs --batch -l ert -f ert-run-tests-batch-and-exit"]);
});

Options("should judge a program file given to expect, babashka, Clojure, Raku, escript, SWI-Prolog, Octave or CoffeeScript as writing any file unless it is the project's own", async ({ box }) => {
  const programs: Array<[string, string, string]> = [
    ["expect", "w.exp", "spawn rm u.ts\n"],
    ["bb", "w.clj", '(babashka.fs/delete "u.ts")\n'],
    ["clojure -M", "w.clj", '(clojure.java.io/delete-file "u.ts")\n'],
    ["raku", "w.raku", "unlink 'u.ts';\n"],
    ["escript", "w.erl", 'main(_) -> file:delete("u.ts").\n'],
    ["swipl", "w.pl", "rm :- delete_file('u.ts').\n"],
    ["octave", "w.m", "delete('u.ts');\n"],
    ["coffee", "w.coffee", "require('fs').unlinkSync 'u.ts'\n"],
  ];
  for (const [, path, text] of programs) file(box, path, text);
  const commands = programs.map(([runner, path]) => `${runner} ${path}`);
  for (const command of commands) assert.equal(await writes(box, command), ["unknown:."], command);
  denies(box, commands);
  git(box, "init", "-q", ".");
  git(box, "add", ".");
  git(box, "commit", "-q", "-m", "kept");
  allows(box, [...commands, "coffee --version", "expect -c 'puts hi'"]);
});

Options("should judge Neovim's -l script as writing any file, and Vim's -l (Lisp mode) as editing its file", async ({ box }) => {
  file(box, "w.lua", 'os.remove("u.ts")\n');
  denies(box, ["nvim -l w.lua", "nvim --headless -l w.lua a b"]);
  assert.equal(await writes(box, "nvim -l w.lua"), ["unknown:."]);
  assert.equal(await writes(box, "vim -l x.lisp"), ["x.lisp"]);
});

Options("should read the programs sdiff, split, mysql, wget and a C compiler are told to run", async ({ box }) => {
  file(box, "x.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  file(box, "a.txt", "a\n");
  denies(box, [
    "sdiff --diff-program=./x.sh a.txt b.txt",
    "sdiff --diff-program=rm u.ts a.txt", // (given the two files)
    "split --filter='rm -f u.ts' a.txt",
    "split -l 1 --filter=./x.sh a.txt",
    "mysql --pager='rm -f u.ts' -e 'select 1'",
    "mysql --pager=\"$p\" -e 'select 1'",
    "wget --use-askpass=./x.sh https://example.com/a",
    "gcc -wrapper ./x.sh -c a.c",
    "gcc -wrapper rm,u.ts -c a.c",
    "gcc -fplugin=./p.so -c a.c",
  ]);
  assert.equal(await writes(box, "split --filter='rm -f u.ts' a.txt"), ["u.ts"]); // (its pieces go to the filter, not to files)
  assert.equal(await writes(box, "PAGER='rm -f u.ts' mysql --pager -e 'select 1'"), ["u.ts"]);
  allows(box, ["sdiff a.txt b.txt", "split -l 1 a.txt part-", "mysql -e 'select 1'", "gcc -c a.c -o a.o"]);
});

Options("should judge hg's and jj's config given on the line that runs a program as writing any file", ({ box }) => {
  file(box, "x.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  denies(box, [
    "hg --config extensions.x=./x.py status",
    "hg --config ui.merge=./x.sh status",
    "hg --config=pager.pager=./x.sh log",
    "jj --config ui.pager=./x.sh log",
    "jj --config=ui.diff-editor=./x.sh log",
    'jj --config-toml \'aliases.x = ["util", "exec", "--", "rm", "u.ts"]\' x',
    "jj --config-file c.toml log",
    'jj --config "$c" log',
  ]);
  allows(box, ["hg --config ui.username=a status", "hg --config extensions.rebase= status", "jj --config user.name=a log", "jj log", "hg --config ui.merge=internal:merge status", "hg --config ui.editor=true status", "jj --config user.name=Designer log"]);
});

Options("should judge crystal eval, an F# script and kotlinc -e as writing any file", ({ box }) => {
  file(box, "w.fsx", 'System.IO.File.Delete "u.ts"\n');
  file(box, "w.cr", 'File.delete("u.ts")\n');
  denies(box, ["crystal eval 'File.delete(\"u.ts\")'", "crystal i w.cr", "dotnet fsi w.fsx", 'kotlinc -e \'java.io.File("u.ts").delete()\'']);
  allows(box, ["kotlinc -e 'println(1)' -version"]);
});

Options("should read the words plain cross-env passes on as it does: its quotes dropped", async ({ box }) => {
  assert.equal(await writes(box, "cross-env A=1 rm \"'u.ts'\""), ["u.ts"]);
  denies(box, ["cross-env A=1 rm \"'u.ts'\"", "cross-env NODE_ENV=test sh -c \"echo ';rm u.ts'\"", "cross-env a.b=1 rm u.ts", "cross-env-shell a.b=1 'rm u.ts'"]); // (a setter is any word with NAME= in it, as cross-env's own unanchored pattern reads it)
  allows(box, ["cross-env A=1 echo \"it's\""]);
});

Options.run();
