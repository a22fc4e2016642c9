// Code an interpreter loads from a file the command names, before its program or beside it: ruby's
// `-r` and RUBYOPT, perl's `-M` and PERL5OPT with `-I` or PERL5LIB, php's `-c`, `-d
// auto_prepend_file=` and PHPRC, NODE_OPTIONS' preloads under another command, PYTHONPATH's
// sitecustomize.py, R's profile; the modules a program given inline loads from where it runs
// (`python3 -c 'import w'`); the commands a screenrc runs. Another session holds u.ts; session s2
// runs each command through the Claude hook of the real CLI, and the shell reader says what it
// finds written.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Preloads = suite<Context>("claims hook: code loaded before or beside the program");
Preloads.before.each((context) => {
  context.box = heldBox();
});
Preloads.after.each((context) => context.box.cleanup());

Preloads("should read the files ruby's -r and RUBYOPT load, where ruby finds them", async ({ box }) => {
  file(box, "w.rb", 'File.delete("u.ts")\n');
  file(box, "lib/v.rb", 'File.write("u.ts", "x")\n');
  file(box, "x.rb", "puts 1\n");
  denies(box, [
    "ruby -r./w x.rb",
    "ruby -r ./w -e 'puts 1'",
    "ruby -r./w.rb -e 'puts 1'",
    "ruby -I. -rw -e 'puts 1'",
    "ruby -Ilib -rv x.rb",
    "RUBYLIB=lib ruby -rv x.rb",
    "RUBYOPT=-r./w ruby x.rb",
    "RUBYOPT='-I lib -rv' bundle exec rake",
    "export RUBYOPT=-r./w; rails test",
  ]);
  assert.equal(await writes(box, "ruby -r./w -e 'puts 1'"), ["u.ts"]);
  // Written by the command first: the text it gives.
  assert.equal(await writes(box, "cat > t.rb <<'EOF'\nFile.delete('u.ts')\nEOF\nruby -r./t -e 'puts 1'"), ["t.rb", "u.ts"]);
  // A library the text does not fix: any file.
  assert.equal(await writes(box, 'ruby -r"$lib" -e "puts 1"'), ["unknown:."]);
  // ruby's own libraries, and a name ruby does not look for here (its load path has no `.`).
  allows(box, ["ruby -rjson -e 'puts 1'", "ruby -rw -e 'puts 1'", "ruby -I. -rjson x.rb", "RUBYOPT=-rjson ruby x.rb", "RUBYOPT=-W0 ruby x.rb"]);
});

Preloads("should read the modules perl's -M, -m, -d: and PERL5OPT load from @INC", async ({ box }) => {
  file(box, "w.pm", 'package w; unlink "u.ts"; 1;\n');
  file(box, "lib/Foo/Bar.pm", 'package Foo::Bar; open(my $f, ">", "u.ts"); 1;\n');
  file(box, "lib/Devel/Probe.pm", 'package Devel::Probe; unlink "u.ts"; 1;\n');
  file(box, "x.pl", "print 1;\n");
  denies(box, [
    "perl -I. -Mw -e 1",
    "perl -Mw x.pl", // perls before 5.26 look here last
    "perl -mw x.pl",
    "perl -M-w x.pl",
    "perl -Ilib -MFoo::Bar=baz x.pl",
    "perl -I lib -MFoo::Bar -e 1",
    "PERL5LIB=lib perl -MFoo::Bar x.pl",
    "perl -Ilib -d:Probe x.pl",
    "PERL5OPT=-Mw perl x.pl",
    "PERL5OPT='-Ilib -MFoo::Bar' prove t",
  ]);
  assert.equal(await writes(box, "perl -Ilib -MFoo::Bar -e 1"), ["u.ts"]);
  assert.equal(await writes(box, 'perl -M"$m" -e 1'), ["unknown:."]);
  // perl's own modules, not here.
  allows(box, ["perl -MJSON::PP -e 1", "perl -Mstrict x.pl", "perl -Ilib -MList::Util=sum -e 1", "PERL5OPT=-Mstrict perl x.pl"]);
});

Preloads("should read what php's ini files and -d have it run before its program", async ({ box }) => {
  file(box, "w.php", '<?php unlink("u.ts");\n');
  file(box, "x.php", "<?php echo 1;\n");
  file(box, "php.ini", "; test settings\nauto_prepend_file = w.php\n");
  file(box, "conf/php-cli.ini", 'auto_append_file="w.php"\n');
  file(box, "quiet/php.ini", "display_errors = On\nauto_prepend_file = none\n");
  denies(box, [
    "php -c ./php.ini x.php",
    "php -c . x.php",
    "php -c conf x.php",
    "php -d auto_prepend_file=w.php x.php",
    "php -dauto_append_file=w.php x.php",
    "PHPRC=. php x.php",
    "PHPRC=conf composer install",
    "PHP_INI_SCAN_DIR=. php x.php",
  ]);
  assert.equal(await writes(box, "php -d auto_prepend_file=w.php x.php"), ["u.ts"]);
  // An extension by its path is a library the hook does not read; an ini file the text does not fix, any file.
  for (const command of ["php -d extension=./x.so x.php", "php -z ./x.so x.php", 'PHPRC="$d" php x.php']) assert.equal(await writes(box, command), ["unknown:."], command);
  allows(box, ["php x.php", "php -c quiet x.php", "php -d display_errors=1 x.php", "php -n -c . x.php", "php -d extension=intl x.php"]);
});

Preloads("should read the files NODE_OPTIONS preloads under a command that starts node", async ({ box }) => {
  file(box, "package.json", JSON.stringify({ scripts: { test: "echo ok" } }));
  file(box, "w.js", "require('fs').unlinkSync('u.ts');\n");
  file(box, "quiet.js", "console.log('ok');\n");
  denies(box, ["NODE_OPTIONS='-r ./w.js' npm test", "NODE_OPTIONS='--require ./w.js' npx vitest run", "export NODE_OPTIONS='--import=./w.js'; npm test", "NODE_OPTIONS='-r ./w' npm test"]);
  // bun runs a package's scripts too, whose node takes the options.
  assert.equal(await writes(box, "NODE_OPTIONS='-r ./w.js' bun run test"), ["u.ts"]);
  assert.equal(await writes(box, "NODE_OPTIONS='-r ./w.js' npm test"), ["u.ts"]);
  allows(box, ["NODE_OPTIONS='-r ./quiet.js' npm test", "NODE_OPTIONS=--max-old-space-size=4096 npm test", "NODE_OPTIONS='-r dotenv/config' npm test", "npm test"]);
});

Preloads("should read what the node options npm gives its scripts, deno's --preload and bun's bunfig.toml preload", async ({ box }) => {
  file(box, "package.json", JSON.stringify({ scripts: { test: "echo ok" } }));
  file(box, "w.js", "require('fs').unlinkSync('u.ts');\n");
  file(box, "x.ts", "console.log(1);\n");
  const cases = ["npm test --node-options='-r ./w.js'", "npm_config_node_options='--require ./w.js' npm test", "deno run --preload ./w.js x.ts", "deno run -A --require=./w.js x.ts"];
  for (const command of cases) assert.ok((await writes(box, command)).includes("u.ts"), command);
  denies(box, cases);
  allows(box, ["npm test", "pnpm test", "bun test", "bun run test", "deno run -A x.ts"]);
  // The project's .npmrc (npm's and pnpm's), and bun's config where it runs.
  file(box, ".npmrc", "node-options=--require ./w.js\n");
  denies(box, ["npm test", "npm run test", "pnpm test"]);
  file(box, ".npmrc", "save-exact=true\n");
  file(box, "bunfig.toml", '[test]\npreload = ["./w.js"]\n');
  denies(box, ["bun test", "bun run test", "bun x.ts"]);
  allows(box, ["npm test"]);
});

Preloads("should read a sitecustomize.py or usercustomize.py on PYTHONPATH, which python imports as it starts", async ({ box }) => {
  file(box, "x.py", "print(1)\n");
  file(box, "sitecustomize.py", "import os\nos.remove('u.ts')\n");
  file(box, "tools/usercustomize.py", "open('u.ts', 'w').write('x')\n");
  denies(box, ["PYTHONPATH=. python3 x.py", "PYTHONPATH=src:. pytest", "PYTHONPATH=tools python3 -c 'print(1)'", "export PYTHONPATH=.; make test"]);
  assert.equal(await writes(box, "PYTHONPATH=. python3 x.py"), ["u.ts"]);
  // Not on its path: python does not import it from the script's directory.
  allows(box, ["python3 x.py", "PYTHONPATH=src python3 x.py"]);
});

Preloads("should judge an R profile an agent may have written as any file", async ({ box }) => {
  file(box, "p.R", "file.remove('u.ts')\n");
  denies(box, ["R_PROFILE_USER=./p.R Rscript -e 'cat(1)'", 'R_PROFILE_USER="$p" Rscript -e \'cat(1)\'']);
  allows(box, ["Rscript -e 'cat(1)'"]);
  file(box, ".Rprofile", "file.remove('u.ts')\n");
  denies(box, ["Rscript -e 'cat(1)'"]);
});

Preloads("should read the modules a python program imports from PYTHONPATH's directories", async ({ box }) => {
  file(box, "run.py", "from fix import main\nmain()\n");
  file(box, "src/fix.py", "import os\ndef main():\n    os.remove('u.ts')\n");
  file(box, "src/quiet.py", "def main():\n    print(1)\n");
  file(box, "calm.py", "from quiet import main\nmain()\n");
  assert.equal(await writes(box, "PYTHONPATH=src python3 run.py"), ["u.ts"]);
  denies(box, ["PYTHONPATH=src python3 run.py", "PYTHONPATH=lib:src python3 -c 'import fix'", "export PYTHONPATH=$PWD/src; python3 run.py"]);
  allows(box, ["python3 run.py", "PYTHONPATH=lib python3 run.py", "PYTHONPATH=src python3 calm.py"]);
});

Preloads("should read the modules a ruby or perl program loads by name from the -I directories the command gives", async ({ box }) => {
  file(box, "lib/w.rb", "File.delete('u.ts')\n");
  file(box, "t.rb", "require 'json'\nrequire 'w'\nputs 1\n");
  file(box, "lib/Foo/Bar.pm", "package Foo::Bar; unlink 'u.ts'; 1;\n");
  file(box, "x.pl", "use strict;\nuse Foo::Bar;\nprint 1;\n");
  for (const command of ["ruby -Ilib t.rb", "RUBYLIB=lib ruby t.rb", "perl -Ilib x.pl", "PERL5LIB=lib perl x.pl", "ruby -Ilib -e \"require 'w'\"", "perl -Ilib -e 'use Foo::Bar; 1'"]) {
    assert.equal(await writes(box, command), ["u.ts"], command);
  }
  denies(box, ["ruby -Ilib t.rb", "perl -I lib x.pl"]);
  // Not on the load path: ruby and perl do not look in lib/ for them.
  allows(box, ["ruby t.rb", "perl x.pl", "ruby -Isrc t.rb"]);
});

Preloads("should read the modules a program given inline or on stdin loads from where it runs", async ({ box }) => {
  file(box, "w.py", "import os\nos.remove('u.ts')\n");
  file(box, "tools/fix.py", "open('u.ts', 'w').write('x')\n");
  file(box, "w.js", "require('fs').unlinkSync('u.ts');\n");
  file(box, "w.rb", "File.delete('u.ts')\n");
  file(box, "wp.php", "<?php unlink('u.ts');\n");
  file(box, "tools/req.rb", "require \"./w\"\n");
  const cases: Array<[string, string[]]> = [
    ["python3 -c 'import w'", ["u.ts"]],
    ["python3 -c 'from tools.fix import main'", ["u.ts"]],
    ["python3 - <<'EOF'\nimport w\nEOF", ["u.ts"]],
    ["node -e \"require('./w')\"", ["u.ts", "w"]],
    ["ruby -e 'require_relative \"w\"'", ["u.ts"]],
    ["python3 -c 'import json; print(1)'", []],
    // An import after another statement on its line, or ending in `;` or a comment; by a name given as a string.
    ["python3 -c 'import os; import w'", ["u.ts"]],
    ["python3 -c 'import sys; sys.path.insert(0, \".\"); import w; w.main()'", ["u.ts"]],
    ["python3 -c 'if True: import w'", ["u.ts"]],
    ["python3 -c 'import json; from tools.fix import main'", ["u.ts"]],
    ["python3 - <<'EOF'\nimport w  # the helper\nEOF", ["u.ts"]],
    ["python3 -c \"__import__('w')\"", ["u.ts"]],
    ["python3 -c \"import importlib; importlib.import_module(name='w')\"", ["u.ts"]],
    ["python3 -c \"import runpy; runpy.run_path('tools/fix.py')\"", ["tools/fix.py", "u.ts"]], // (a path a program's text names is judged too)
    ["python3 -c 'exec(\"import w\")'", ["u.ts"]],
    ["python3 -c \"import runpy; runpy.run_module('w')\"", ["u.ts"]],
    ["python3 -c 'import os; print(os.getcwd())'", []],
    // ruby's load and require by a path, php's require beside the program.
    ["ruby -e 'load \"w.rb\"'", ["u.ts", "w.rb"]],
    ["ruby -e 'require \"./w\"'", ["u.ts", "w"]],
    ["ruby tools/req.rb", ["u.ts", "w"]], // require "./w" from where ruby runs, not beside the program
    ["php -r 'require __DIR__ . \"/wp.php\";'", ["/wp.php", "u.ts"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  denies(box, ["python3 -c 'import w'", "python3 -c 'from tools import fix'", "node -e \"require('./w.js')\"", "python3 -c 'import os; import w'", "python3 -c \"__import__('w')\""]);
  // A module the command writes before it runs the program: the text it gives, or any file where it does not give it.
  const written: Array<[string, string[]]> = [
    ["cat > m.py <<'EOF'\nimport os; os.remove('u.ts')\nEOF\npython3 -c 'import m'", ["m.py", "u.ts"]],
    ["cat > m.py <<'EOF'\nimport os; os.remove('u.ts')\nEOF\necho 'import m' > r.py; python3 r.py", ["m.py", "r.py", "u.ts"]],
    ["cp w.py m.py; python3 -c 'import m'", ["m.py", "unknown:."]],
    ["cat > m.py <<'EOF'\nprint(1)\nEOF\npython3 -c 'import m'", ["m.py"]],
  ];
  for (const [command, expected] of written) assert.equal(await writes(box, command), expected, command);
  allows(box, ["python3 -c 'import json; print(1)'", "python3 -c 'import os'"]);
});

Preloads("should read the commands a screenrc given to screen runs as it starts", async ({ box }) => {
  file(box, "rc", "# windows\nstartup_message off\nscreen -t fix 1 rm u.ts\n");
  file(box, "plain.rc", "defscrollback 5000\nhardstatus alwayslastline\nscreen -t shell 0\nscreen -t top 1 top\n");
  file(box, "sourcing.rc", "source ./more.rc\n");
  file(box, "exec.rc", "exec !.. sed -i s/a/b/ u.ts\n");
  const cases: Array<[string, string[]]> = [
    ["screen -c ./rc", ["u.ts"]],
    ["screen -dmS s -c rc top", ["u.ts"]],
    ["SCREENRC=exec.rc screen -dm top", ["u.ts"]],
    ["screen -c sourcing.rc -dm top", ["unknown:."]],
    ['screen -c "$rc" -dm top', ["unknown:."]],
    ["screen -c plain.rc -dm top", []],
    ["screen -c none.rc -dm top", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  denies(box, ["screen -c ./rc", "screen -dm -c rc top"]);
  allows(box, ["screen -c plain.rc -dm top"]);
});

Preloads.run();
