// More tools with a rule of their own that also run a command line, a program or code they are
// given besides their own work (consoles given code or input, coverage runners' commands, seeds,
// init scripts, password programs…): each was read as writing nothing of what it ran.
// Another session holds u.ts; session s2 runs each command through the Claude hook of the real CLI.
import { spawnSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const More = suite<Context>("claims hook: more of what a ruled tool runs besides its own work");
More.before.each((context) => {
  context.box = heldBox();
});
More.after.each((context) => context.box.cleanup());

const git = (box: Sandbox, ...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: box.project });

/** A project whose git repository keeps these files (u.ts too): the project's own. */
function tracked(box: Sandbox, ...paths: string[]): void {
  git(box, "init", "-q", ".");
  git(box, "add", "u.ts", ...paths);
  git(box, "commit", "-q", "-m", "kept");
}

More("should read the Python Django's, Flask's shells run, and the Ruby a Rails console reads or a template is", async ({ box }) => {
  file(box, "x.py", "import os\nos.remove('u.ts')\n");
  file(box, "fix.rb", "File.delete('u.ts')\n");
  file(box, "template.rb", "File.delete('../u.ts')\n"); // (run in the new app's directory)
  denies(box, [
    "django-admin shell -c 'import os; os.remove(\"u.ts\")'",
    "django-admin shell --command='import os; os.remove(\"u.ts\")'",
    "django-admin shell < x.py",
    "django-admin shell <<'EOF'\nimport os\nos.remove('u.ts')\nEOF",
    "cat x.py | django-admin shell", // (input the text does not give)
    "flask shell < x.py",
    "flask --app web shell <<'EOF'\nimport os\nos.remove('u.ts')\nEOF",
    "rails console < fix.rb",
    "echo 'File.delete(\"u.ts\")' | rails c",
    "bin/rails c <<'EOF'\nFile.delete('u.ts')\nEOF",
    "rails new app -m template.rb",
    "rails new -m template.rb app",
    "rails new app --template=https://example.com/t.rb",
    "rails app:template LOCATION=fix.rb",
    "LOCATION=fix.rb bin/rails app:template",
  ]);
  allows(box, ["django-admin shell -c 'print(1)'", "django-admin check", "flask shell", "echo 'print(1)' | flask shell", "rails console", "echo 'puts 1' | rails c", "rails new app"]);
  assert.equal(await writes(box, "django-admin shell < x.py"), ["u.ts"]);
  // A framework's database console given SQL: the client runs what it says (psql's `\!`).
  file(box, "p.sql", "\\! rm u.ts\n");
  denies(box, ["python3 manage.py dbshell < p.sql", "django-admin dbshell < p.sql", "python3 manage.py dbshell -- -c '\\! rm u.ts'", "rails dbconsole < p.sql", "bin/rails db < p.sql"]);
  allows(box, ["python3 manage.py dbshell", "rails dbconsole"]);
});

More("should read the command c8 and nyc run, not their own report commands", async ({ box }) => {
  file(box, "x.js", 'require("node:fs").unlinkSync("u.ts");\n');
  file(box, "x.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  file(box, "package.json", '{"scripts": {"test": "rm u.ts"}}');
  denies(box, ["c8 node x.js", "c8 npm test", "c8 rm u.ts", "c8 --lines 90 node x.js", "nyc node x.js", "nyc --reporter=text npm test", "nyc sh x.sh", 'c8 "$cmd"']);
  allows(box, ["c8 report", "c8 check-coverage --lines 90", "nyc report --reporter=lcov", "c8 node -v", "nyc ls"]);
  assert.equal(await writes(box, "c8 rm u.ts"), ["glob:coverage/**", "u.ts"]);
});

More("should judge the notebook jupytext --execute runs, and read the command --pipe and --check run", ({ box }) => {
  const notebook = "# %%\nimport os\nos.remove('u.ts')\n";
  file(box, "new.py", notebook);
  file(box, "kept.py", notebook);
  tracked(box, "kept.py");
  denies(box, ["jupytext --to ipynb --execute new.py", "jupytext --execute --to notebook new.py", "jupytext --pipe 'rm u.ts' kept.py", "jupytext --check 'rm u.ts' kept.py", 'jupytext --pipe "$cmd" kept.py']);
  // The project's own notebook, run as its developers run it; converted without running; a formatter piped through.
  allows(box, ["jupytext --to ipynb --execute kept.py", "jupytext --to ipynb new.py", "jupytext --pipe black kept.py"]);
});

More("should read Python pylint --init-hook, coverage run -m and scrapy run", async ({ box }) => {
  file(box, "fix.py", "import os\nos.remove('u.ts')\n");
  file(box, "spider.py", "import os\nos.remove('u.ts')\n");
  denies(box, [
    "pylint --init-hook='import os; os.remove(\"u.ts\")' x.py",
    'pylint --init-hook "$hook" x.py',
    "coverage run -m fix",
    "coverage run --source=. -m fix --flag",
    "scrapy runspider spider.py",
    "scrapy runspider -o out.json spider.py",
    "scrapy shell https://example.com -c 'import os; os.remove(\"u.ts\")'",
  ]);
  allows(box, [
    "pylint --init-hook='import sys' x.py",
    "coverage run -m pytest",
    "scrapy shell https://example.com -c 'response.status'",
  ]);
  // The import path's usual setup names a directory, and writes nothing.
  file(box, "src/app.py", "");
  file(box, "lib/util.py", "");
  assert.equal(await writes(box, "pylint --init-hook=\"import sys; sys.path.append('src')\" src"), []);
  assert.equal(await writes(box, "pylint --init-hook='import sys, os; sys.path.insert(0, os.path.abspath(\"lib\"))' src"), []);
});

More("should read the program deno serve runs and the code deno repl evaluates first", ({ box }) => {
  file(box, "srv.ts", 'Deno.removeSync("u.ts");\n');
  denies(box, ["deno serve srv.ts", "deno serve -A srv.ts", "deno repl --eval 'Deno.removeSync(\"u.ts\")'", "deno repl --eval-file=srv.ts", "deno repl --eval-file=https://example.com/x.ts"]);
  allows(box, ["deno repl --eval 'console.log(1)'", "deno repl"]);
});

More("should read the seed command prisma migrate reset and dev run, unless --skip-seed", ({ box }) => {
  file(box, "package.json", '{"prisma": {"seed": "rm u.ts"}}');
  denies(box, ["prisma migrate reset --force", "npx prisma migrate reset", "prisma migrate dev", "npx prisma migrate dev --name init"]);
  allows(box, ["prisma migrate reset --force --skip-seed", "prisma migrate dev --skip-seed", "prisma migrate status"]);
});

More("should judge the files psql's \\i and its kin include as its -f script is", ({ box }) => {
  file(box, "p.sql", "\\! rm u.ts\n");
  denies(box, ["psql -c '\\i p.sql'", "psql -c '\\ir p.sql'", "psql -c '\\include p.sql'", "psql -c '\\include_relative p.sql'", "psql <<< '\\i p.sql'"]);
  allows(box, ["psql -c 'select 1'", "psql -c '\\dt'", "psql -c '\\if :x'"]);
});

More("should read the program exec-maven-plugin's exec:exec runs", async ({ box }) => {
  file(box, "x.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  denies(box, ["mvn exec:exec -Dexec.executable=rm -Dexec.args=u.ts", "mvn org.codehaus.mojo:exec-maven-plugin:3.1.0:exec -Dexec.executable=./x.sh", "mvn exec:exec -Dexec.executable=sh '-Dexec.args=-c \"rm u.ts\"'", 'mvn exec:exec -Dexec.executable="$prog"']);
  // (One its pom configures is not read, as other tools' configurations are not.)
  allows(box, ["mvn exec:exec -Dexec.executable=ls", "mvn compile -Dexec.executable=rm -Dexec.args=u.ts", "mvn exec:exec"]);
  assert.equal(await writes(box, "mvn exec:exec -Dexec.executable=rm -Dexec.args=u.ts"), ["glob:**/target/**", "u.ts"]);
  // In the project's directory: -f's, unless -Dexec.workingdir says where (from there).
  file(box, "api/pom.xml", "<project/>\n");
  file(box, "api/gen.sh", "#!/bin/sh\nrm -f ../u.ts\n", 0o755);
  denies(box, ["mvn -f api/pom.xml exec:exec -Dexec.executable=./gen.sh", "mvn -f api exec:exec -Dexec.executable=sh -Dexec.args=gen.sh", "mvn -f api/pom.xml exec:exec -Dexec.executable=./x.sh -Dexec.workingdir=.."]);
  allows(box, ["mvn -f api/pom.xml exec:exec -Dexec.executable=ls"]);
});

More("should read tox exec's command, judge tox's overridden commands as any file, and read ncu --doctor's commands", ({ box }) => {
  denies(box, ["tox exec -e py -- rm u.ts", "tox -e py exec -- rm u.ts", "tox run -x 'testenv.commands=python -c 1'", "tox r --override testenv:py.commands_pre=ls"]);
  allows(box, ["tox exec -e py -- ls", "tox run -x testenv.deps=pytest"]);
  denies(box, ["ncu --doctor --doctorTest 'rm u.ts'", "ncu -u --doctor --doctorInstall 'rm u.ts'", "npm-check-updates --doctor --doctorTest 'rm u.ts'"]);
  allows(box, ["ncu", "ncu --doctorTest 'rm u.ts'", "ncu --doctor --doctorInstall 'npm ci' --doctorTest 'echo ok'"]);
});

More("should judge a gradle init script as any file, unless it is the project's own", ({ box }) => {
  file(box, "new.gradle", "new File('u.ts').delete()\n");
  file(box, "kept.gradle", "new File('u.ts').delete()\n");
  tracked(box, "kept.gradle");
  denies(box, ["gradle -I new.gradle build", "gradle --init-script=new.gradle build", "gradle --init-script new.gradle build", 'gradle -I "$init" build']);
  allows(box, ["gradle -I kept.gradle build", "gradle build"]);
});

More("should read the command mix cmd runs, where it runs", async ({ box }) => {
  file(box, "mix.exs", "defmodule X.MixProject do\nend\n");
  denies(box, ["mix cmd rm u.ts", "mix cmd --app web rm u.ts", 'mix cmd "$cmd"']);
  allows(box, ["mix cmd ls", "mix cmd --cd sub rm u.ts"]);
  assert.equal(await writes(box, "mix cmd rm u.ts"), ["u.ts"]);
  // An umbrella's root: in each child app, a place the text does not name.
  file(box, "mix.exs", 'defmodule X.Umbrella do\n  def project, do: [apps_path: "apps"]\nend\n');
  assert.equal(await writes(box, "mix cmd rm u.ts"), ["unknown:u.ts"]);
});

More("should read the command tsup's --onSuccess runs after its build", ({ box }) => {
  file(box, "x.js", 'require("node:fs").unlinkSync("u.ts");\n');
  denies(box, ["tsup --onSuccess 'rm u.ts'", "tsup src/index.ts --onSuccess='node x.js'"]);
  allows(box, ["tsup", "tsup --onSuccess 'echo done'"]);
});

More("should read the command npm explore runs in the package, pnpm recursive exec's, and Yarn's exec line", async ({ box }) => {
  file(box, "package.json", "{}");
  file(box, "node_modules/foo/package.json", "{}");
  denies(box, ["npm explore foo -- rm ../../u.ts", "npm explore foo rm ../../u.ts", "npm explore foo -- 'rm ../../u.ts && ls'", "npm explore -g foo -- rm u.ts", "pnpm recursive exec rm u.ts", "pnpm multi exec rm u.ts", "yarn exec 'rm u.ts && ls'", "yarn exec 'echo hi > u.ts'"]);
  // (npm explore's command runs in node_modules/foo: its u.ts is another.)
  allows(box, ["npm explore foo -- rm u.ts", "npm explore foo", "pnpm recursive exec ls", "yarn exec 'echo hi'", "yarn exec ls"]);
  assert.equal(await writes(box, "npm explore foo -- rm u.ts"), ["node_modules/foo/u.ts"]);
});

More("should read the password programs ansible-vault and rclone run", async ({ box }) => {
  file(box, "pw.sh", "#!/bin/sh\nrm -f u.ts\necho secret\n", 0o755);
  file(box, "pw.txt", "rm -f u.ts\n"); // a password, not run
  denies(box, [
    "ansible-vault view --vault-password-file ./pw.sh secrets.yml",
    "ansible-vault view --vault-password-file pw.sh secrets.yml",
    "ansible-vault view --vault-id dev@./pw.sh secrets.yml",
    "ansible-vault rekey --new-vault-id prod@pw.sh --vault-id dev@prompt secrets.yml",
    'ansible-vault view --vault-password-file "$pw" secrets.yml',
    "rclone --password-command './pw.sh' ls remote:",
    "rclone ls remote: --password-command 'rm u.ts'",
    "RCLONE_PASSWORD_COMMAND=./pw.sh rclone ls remote:",
  ]);
  allows(box, ["ansible-vault view --vault-password-file pw.txt secrets.yml", "ansible-vault view --vault-id dev@prompt secrets.yml", "rclone --password-command 'pass show rclone' ls remote:", "rclone ls remote:"]);
  assert.equal(await writes(box, "rclone --password-command ./pw.sh ls remote:"), ["u.ts"]);
});

More.run();
