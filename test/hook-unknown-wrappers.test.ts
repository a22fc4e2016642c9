// Commands the hook has no rule for that run the rest of their line: sandboxes and containers of
// this machine's files (bwrap, nsenter, schroot, distrobox, toolbox), daemon starters, secret
// managers and process runners (start-stop-daemon, sops exec-env, heroku local:run, foreman run),
// watchers (entr), and any wrapper the hook has never heard of. Each was read as writing nothing.
// Another session holds u.ts; session s2 runs each command through the Claude hook of the real CLI.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Unknown = suite<Context>("claims hook: an unknown command that runs the rest of its line");
Unknown.before.each((context) => {
  context.box = heldBox();
});
Unknown.after.each((context) => context.box.cleanup());

Unknown("should read an unknown command's arguments from each command the hook reads, as that command", async ({ box }) => {
  denies(box, [
    "bwrap --bind / / rm u.ts",
    "bwrap --dev-bind / / --chdir . rm u.ts", // (`.` an option's value, not the `.` command)
    "devcontainer exec --workspace-folder . rm u.ts",
    "schroot -c deb -- rm u.ts",
    "distrobox enter box -- rm u.ts",
    "toolbox run rm u.ts",
    "nsenter -t 1 -m rm u.ts",
    "start-stop-daemon --start --exec /bin/rm -- u.ts", // by the command's path
    "start-stop-daemon --start --chuid git --exec /bin/rm -- u.ts", // an option's value that names a command too
    "machinectl shell .host /bin/rm u.ts",
    "ls | entr rm u.ts", // entr runs its first operand, as these do
    "nocache rm u.ts",
    "proxychains4 -q rm u.ts",
    "torsocks rm u.ts",
    "tsp rm u.ts",
    "nq rm u.ts",
    "sem rm u.ts",
    "dbus-launch rm u.ts",
    "catchsegv rm u.ts",
    "run-one rm u.ts",
    "please rm u.ts",
    "arch -x86_64 rm u.ts",
    "arch -arch x86_64 rm u.ts",
    "heroku local:run rm u.ts",
    "foreman run sed -i s/a/b/ u.ts",
    "envchain aws rm u.ts",
    "chamber exec aws -- rm u.ts",
    "pueue add -- rm u.ts", // after a verb, what follows --
    "hatch env run -- rm u.ts", // a wrapper given no subcommand of its table
    "mywrapper --flag value rm u.ts", // one no table names
    "mywrapper sudo -u app rm u.ts", // a wrapper it runs, read in turn
    "mywrapper bash -c 'rm u.ts'",
  ]);
  // A whole command line given as one argument, after a word that says it runs one.
  denies(box, ["sops exec-env secrets.yaml 'rm u.ts'", "ls | entr -s 'rm -f u.ts'", 'mywrapper --exec "sed -i s/a/b/ u.ts"', 'doppler run --command "rm u.ts"', 'infisical run --command "rm u.ts"']);
  assert.equal(await writes(box, "frobnicate -x 1 rm a.ts b.ts"), ["a.ts", "b.ts"]);
  assert.equal(await writes(box, "frobnicate --exec 'cp a.ts b.ts'"), ["b.ts"]);
});

Unknown("should read build tools' exec without -- as running their first operand", async ({ box }) => {
  denies(box, ["stack exec rm u.ts", "cabal exec sed -i s/a/b/ u.ts", "dune exec rm u.ts", "opam exec rm u.ts", "aws-vault exec prod rm u.ts"]);
  allows(box, ["stack exec ghc -- --version", "aws-vault exec prod aws s3 ls", "stack build"]);
});

Unknown("should not read a command's name given as data, or a package's, as a command it runs", async ({ box }) => {
  allows(box, [
    "grep -n rm u.ts", // commands that take a name or text as data
    "echo rm u.ts",
    'printf "%s\\n" "rm u.ts"',
    "man rm",
    "which rm",
    "pkill -f 'rm u.ts'",
    "frobnicate u.ts", // an unknown command naming the held file: no write the hook can read
    "frobnicate rm other.ts", // what it would run writes nothing held
    "notify-send 'done: rm u.ts'",
    "zoxide init bash", // a shell's name with nothing to run
    "starship init bash --print-full-init",
    // Its first word that is no option: a subcommand of its own, whatever it is named.
    'pass rm "$ENTRY"',
    "docker-compose rm -f $(docker-compose ps -q)",
    "brew unlink $(brew list --formula)",
    "ollama rm llama3",
    "gsutil cp u.ts gs://$BUCKET/",
    "rspec -e patch u.ts", // a test filter
    "mocha --grep touch u.ts",
    "frobnicate rm u.ts",
    // A message that reads as a command line.
    'say "rm u.ts"',
    'glab mr create --title "rm u.ts"',
    'jira issue create -s "patch u.ts for x"',
    'ollama run llama3 "touch u.ts"',
    // A cloud storage client's cp and rm are its own.
    'gcloud storage cp -r dist "gs://${BUCKET}/"',
    // A line run on another machine.
    "heroku run rm -rf u.ts",
    "heroku run --app web -- sed -i s/a/b/ u.ts",
    'fly ssh console -C "rm u.ts"',
    "flyctl machine exec 123 'rm u.ts'",
    "mosh host -- rm u.ts",
  ]);
  // Run here: heroku's local commands, fly's others, pdsh's and clush's exec module, a VM sharing the project.
  denies(box, ["heroku local:run rm u.ts", "heroku local rm u.ts", "heroku -a web local:run rm u.ts", "fly mcp wrap -- rm u.ts", "pdsh -R exec -w h1 rm u.ts", "clush -w h1 --worker=exec rm u.ts", "vagrant ssh -- rm u.ts"]);
  // Packages a package manager installs, named as the commands they give: none runs here.
  for (const command of ["brew install make cmake", "apt-get install -y bash curl", "snap install node --classic", "nvm install node", "gem install bundler rake", "conda install python numpy", "pip install sh rich", "uv pip install black ruff"]) {
    assert.equal(await writes(box, command), [], command);
  }
});

Unknown("should read a command run with options only, or a script run by its path, after a wrapper it does not know", ({ box }) => {
  file(box, "Makefile", "all:\n\trm -f u.ts\n");
  file(box, "build.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  denies(box, [
    "bear -- make", // the Makefile's first target
    "bear make",
    "bear -- make -j8",
    "scan-build make -j4",
    "compiledb make",
    "intercept-build make",
    "perf stat -- make",
    "ls *.c | entr make",
    "entr -c make",
    "bear -- ./build.sh",
    "scan-build ./build.sh",
    "noti ./build.sh",
    "env-cmd ./build.sh",
    "entr -s 'make'", // a line of one word
    "chokidar '**' -c make",
    "chokidar '**' -c ./build.sh",
    "onchange '**' -- make",
    "reflex -s -- make",
    "mywatcher --exec make", // after an option that says a command follows: no subcommand of its own
    "start-server-and-test 'rm u.ts' http://localhost:3000 test", // its first operand, a line
    "watchfiles 'rm u.ts'",
    "xterm -e rm u.ts",
    "kitty rm u.ts",
    "tsc-watch --onSuccess 'rm u.ts'", // a hook's line
    "tsc-watch --onFirstSuccess ./build.sh",
    "air --build.cmd make",
    "sbatch --wrap 'rm u.ts'",
    "tsc-watch --onSuccess='rm u.ts'", // the line in the option's own word
    "air --build.cmd=make",
    "mywatcher --exec=./build.sh",
  ]);
  // A shell or interpreter named alone runs nothing here; a file that is no program is not run; a
  // command's name or a script's path given as data, where no command plainly follows.
  allows(box, [
    "zoxide init bash",
    "starship init bash --print-full-init",
    "tldr make",
    "mytool ./notes.txt",
    "shellcheck ./build.sh",
    "code ./build.sh",
    "ldd /usr/bin/make",
    "brew reinstall make",
    "apt-cache policy make",
    "systemctl --user restart make",
    "mytool show make",
  ]);
});

Unknown("should read a program file an interpreter runs behind a wrapper the gate does not know", ({ box }) => {
  file(box, "fix.js", "require('fs').rmSync('u.ts');\n");
  file(box, "fix.py", "import os\nos.remove('u.ts')\n");
  file(box, "fix.rb", "File.delete('u.ts')\n");
  file(box, "fix.ts", "import { rmSync } from 'node:fs';\nrmSync('u.ts');\n");
  denies(box, [
    "cross-env NODE_ENV=production node fix.js",
    "dotenv -- node fix.js",
    "bundle exec ruby fix.rb",
    "op run -- node fix.js",
    "pyenv exec python3 fix.py",
    "direnv exec . python3 fix.py",
    "volta run node fix.js",
    "fnm exec node fix.js",
    "micromamba run -n x python fix.py",
    "aws-vault exec p -- python3 fix.py",
    "env-cmd node fix.js",
    "chronic python3 fix.py",
    "yarn tsx fix.ts", // an interpreter a package installs, run by the package manager
    "pnpm ts-node fix.ts",
    // Restarters, process managers and profilers given the program file.
    "ts-node-dev --respawn fix.ts",
    "node-dev fix.js",
    "pm2 start fix.js",
    "forever start fix.js",
    "0x fix.js",
    "scalene fix.py",
    "pyinstrument fix.py",
    "kernprof -l fix.py",
    "memray run fix.py",
    "austin python fix.py",
    "py-spy record -- python fix.py",
    "clinic doctor -- node fix.js",
  ]);
  allows(box, ["grep -n node fix.js", "cross-env NODE_ENV=production node -v", "pm2 list", "pm2 logs"]);
});

Unknown.run();
