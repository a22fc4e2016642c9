// Tools with a rule of their own that also run a command line, a program file or code they are
// given: `bun exec 'cmd'`, `pnpm -c exec 'cmd'`, `go test -exec cmd`, `cargo watch -s cmd`, `helm
// --post-renderer prog`, pandoc's filters, `terragrunt exec -- cmd`, `jj util exec -- cmd`,
// `composer exec bin`, `rails runner CODE`, notebooks executed (`jupyter execute`, `nbconvert
// --execute`, papermill), `nim r x.nim`; and wrappers whose first operand is the command they run
// (env-cmd, summon, rlwrap, srun, lima…). Each was read as writing nothing of what it ran.
// Another session holds u.ts; session s2 runs each command through the Claude hook of the real CLI.
import { spawnSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Lines = suite<Context>("claims hook: what a ruled tool runs besides its own work");
Lines.before.each((context) => {
  context.box = heldBox();
});
Lines.after.each((context) => context.box.cleanup());

const git = (box: Sandbox, ...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: box.project });

Lines("should read the command line a package manager's shell runs: bun exec, pnpm's shell mode", ({ box }) => {
  denies(box, [
    "bun exec 'rm u.ts'",
    "bun exec 'echo hi && rm u.ts'",
    'bun exec "$line"', // a line the text does not fix
    "pnpm -c exec 'rm u.ts'",
    "pnpm --shell-mode exec 'rm u.ts'",
    "pnpm exec -c 'rm u.ts'",
    "pnpm dlx -c 'rm u.ts'",
    "pnpm -r -c exec 'rm u.ts'", // in every package: anywhere
  ]);
  allows(box, ["bun exec 'echo hi'", "pnpm -c exec 'ls -la'", "pnpm -r exec ls"]);
});

Lines("should read the command a wrapper runs as its first operand: env loaders, a line editor, a job step, a VM sharing the home directory", ({ box }) => {
  denies(box, ["env-cmd rm u.ts", "env-cmd -f .env.test rm u.ts", "summon rm u.ts", "with-venv rm u.ts", "rlwrap rm u.ts", "fakechroot rm u.ts", "srun rm u.ts", "srun -n 2 rm u.ts", "lima rm u.ts", "orb rm u.ts"]);
  allows(box, ["env-cmd node -v", "rlwrap cat", "lima nerdctl ps"]);
});

Lines("should read the programs go's builds and tests run through: -toolexec, -exec, -vettool", async ({ box }) => {
  file(box, "wrap.sh", "#!/bin/sh\nrm -f u.ts\nexec \"$@\"\n", 0o755);
  denies(box, ["go test -exec 'rm u.ts' ./...", "go build -toolexec 'rm u.ts' ./...", "go run -exec ./wrap.sh .", "go test -exec=./wrap.sh ./...", "go vet -vettool=./wrap.sh ./...", 'go test -toolexec="$wrap" ./...', "GOFLAGS=-exec=./wrap.sh go test ./...", 'GOFLAGS="-v -toolexec=./wrap.sh" go build ./...']);
  // From `-C dir`: the program there.
  file(box, "sub/wrap.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  assert.equal(await writes(box, "go -C sub test -exec ./wrap.sh ./..."), ["sub/u.ts"]);
  // The test binary's arguments, and the program's, are not go's.
  allows(box, ["go test ./... -args -exec 'rm u.ts'", "go run . -exec 'rm u.ts'", "go test -run TestExec ./..."]);
  assert.equal(await writes(box, "go test -exec 'rm u.ts' ./..."), ["u.ts"]);
});

Lines("should read what cargo watch runs at each change: -s, -x, and the command after --", async ({ box }) => {
  file(box, "Cargo.toml", '[package]\nname = "x"\nversion = "0.1.0"\n');
  denies(box, ["cargo watch -s 'rm u.ts'", "cargo watch --shell='rm u.ts'", "cargo watch -x check -s 'rm u.ts'", "cargo watch -- rm u.ts", 'cargo watch -x "$cmd"']);
  // `-x run` is `cargo run`: its build, where cargo builds.
  assert.equal(await writes(box, "cargo watch -x run"), ["Cargo.lock", "glob:target/**"]);
  allows(box, ["cargo watch -x check", "cargo watch -x 'test -- --nocapture'", "cargo watch --"]);
});

Lines("should read the program helm's --post-renderer names and the filters pandoc runs", ({ box }) => {
  file(box, "post.sh", "#!/bin/sh\nrm -f u.ts\ncat\n", 0o755);
  file(box, "filter.py", "import os\nos.remove('u.ts')\n");
  file(box, "filter.lua", "os.remove('u.ts')\n"); // Lua, which the hook does not read: any file, being no file of the project's
  denies(box, [
    "helm template x . --post-renderer ./post.sh",
    "helm upgrade --install x . --post-renderer=./post.sh",
    "pandoc --filter ./post.sh a.md -o a.html",
    "pandoc -F filter.py a.md",
    "pandoc --lua-filter filter.lua a.md",
    "pandoc -L filter.lua a.md",
  ]);
  allows(box, ["helm template x .", "helm template x . --post-renderer", "pandoc a.md -o a.html", "pandoc --filter pandoc-crossref a.md -o a.html"]);
});

Lines("should read the command terragrunt exec, jj util exec and composer exec run", async ({ box }) => {
  denies(box, ["terragrunt exec -- rm u.ts", "terragrunt exec rm u.ts", "jj util exec -- rm u.ts", "composer exec rimraf u.ts", "composer exec -- rimraf u.ts"]);
  allows(box, ["terragrunt exec -- ls", "jj util exec -- ls", "jj log", "composer exec phpunit --version"]);
  assert.equal(await writes(box, "composer -d sub exec rimraf u.ts"), ["sub/u.ts"]); // from its working directory
  // terragrunt's, in its working directory, after options that take values; a program run for terraform.
  file(box, "live/clean.sh", "#!/bin/sh\nrm -f ../u.ts\n", 0o755);
  file(box, "tf.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  denies(box, ["terragrunt --working-dir live exec -- ./clean.sh", "terragrunt exec --working-dir=live -- ./clean.sh", "TG_WORKING_DIR=live terragrunt exec -- ./clean.sh", "terragrunt --terragrunt-working-dir live exec -- ./clean.sh", "terragrunt plan --tf-path ./tf.sh", "TG_TF_PATH=./tf.sh terragrunt apply"]);
  allows(box, ["terragrunt --working-dir live exec -- ls", "terragrunt plan --tf-path tofu"]);
  assert.equal(await writes(box, "terragrunt --working-dir live hclfmt"), ["glob:live/**"]);
});

Lines("should read the Ruby rails runner runs: its code, or its file", async ({ box }) => {
  file(box, "script/clean.rb", "File.delete('u.ts')\n");
  denies(box, ["rails runner 'File.delete(\"u.ts\")'", "bin/rails r 'File.delete(\"u.ts\")'", "rails runner -e production 'FileUtils.rm(\"u.ts\")'", "rails runner script/clean.rb", "bundle exec rails runner 'File.delete(\"u.ts\")'", 'rails runner "$code"']);
  allows(box, ["rails runner 'puts User.count'", "rails routes"]);
  assert.equal(await writes(box, "rails runner -e production 'File.write(\"u.ts\", \"\")'"), ["u.ts"]);
});

Lines("should judge notebooks that run as any file, unless they are the project's own", ({ box }) => {
  const notebook = JSON.stringify({ cells: [{ cell_type: "code", source: ["import os\n", "os.remove('u.ts')"] }], metadata: {}, nbformat: 4, nbformat_minor: 5 });
  file(box, "new.ipynb", notebook);
  file(box, "kept.ipynb", notebook);
  git(box, "init", "-q", ".");
  git(box, "add", "kept.ipynb", "u.ts");
  git(box, "commit", "-q", "-m", "kept");
  denies(box, ["jupyter execute new.ipynb", "jupyter nbconvert --execute --to notebook new.ipynb", "jupyter nbconvert --to html --execute --stdout new.ipynb", "papermill new.ipynb out.ipynb", "papermill new.ipynb out.ipynb -p a 1", "jupyter execute 'missing.ipynb'", 'jupyter execute "$nb"']);
  // The project's own notebook, run as its developers run it; converted without running.
  allows(box, ["jupyter execute kept.ipynb", "jupyter nbconvert --execute --to notebook kept.ipynb", "papermill kept.ipynb out.ipynb", "jupyter nbconvert --to html new.ipynb", "jupyter execute --help"]);
});

Lines("should judge a Nim or Haskell program nim r, stack script and cabal run run as any file, being no file of the project's", ({ box }) => {
  file(box, "fix.nim", 'import os\nremoveFile("u.ts")\n');
  file(box, "Fix.hs", 'import System.Directory\nmain = removeFile "u.ts"\n');
  denies(box, ["nim r fix.nim", "nim e fix.nims", "stack script Fix.hs", "stack runghc Fix.hs", "cabal run Fix.hs"]);
  allows(box, ["nim --version", "stack --version"]);
});

Lines("should judge cargo given a setting that runs a program (a runner, a compiler's wrapper, a linker) as any file", async ({ box }) => {
  file(box, "Cargo.toml", '[package]\nname = "x"\nversion = "0.1.0"\n');
  file(box, "wrap.sh", "#!/bin/sh\nrm -f u.ts\nexec \"$@\"\n", 0o755);
  denies(box, ["cargo --config 'target.x86_64-unknown-linux-gnu.runner=\"./run.sh\"' run", "cargo --config build.rustc-wrapper=/opt/w build", "RUSTC_WRAPPER=./wrap.sh cargo build", "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=./wrap.sh cargo run"]);
  // A wrapper of the machine's, read as the command it is: cargo's own build.
  assert.equal(await writes(box, "RUSTC_WRAPPER=sccache cargo build"), ["Cargo.lock", "glob:target/**"]);
  // A setting that runs nothing: cargo's own build, where it builds.
  assert.equal(await writes(box, "cargo --config net.git-fetch-with-cli=true build"), ["Cargo.lock", "glob:target/**"]);
});

Lines("should read the command manypkg exec runs, in every package", async ({ box }) => {
  assert.equal(await writes(box, "manypkg exec rm u.ts"), ["unknown:u.ts"]);
});

Lines("should read the code files a linter's, formatter's or compiler's options load, not a package's name", async ({ box }) => {
  file(box, "tools/fmt.js", "require('fs').rmSync('u.ts');\n");
  file(box, "tools/plugin.mjs", "import { rmSync } from 'node:fs';\nrmSync('u.ts');\n");
  file(box, "tools/cop.rb", "File.delete('u.ts')\n");
  denies(box, [
    "eslint -f ./tools/fmt.js src",
    "eslint --format=./tools/fmt.js src",
    "prettier --plugin=./tools/plugin.mjs --check .",
    "stylelint --custom-formatter ./tools/fmt.js 'src/**/*.css'",
    "rubocop -r ./tools/cop.rb",
    "markdownlint -r ./tools/fmt.js README.md",
    "textlint --rule ./tools/fmt.js README.md",
    "postcss -u ./tools/fmt.js a.css -o b.css",
    "stylus -u ./tools/fmt.js a.styl",
    "node-sass --importer ./tools/fmt.js a.scss",
    "graphql-codegen -r ./tools/fmt.js",
  ]);
  allows(box, ["eslint -f stylish src", "prettier --plugin prettier-plugin-tailwindcss --check .", "rubocop -r rubocop-rails", "textlint --rule no-todo README.md"]);
  assert.equal(await writes(box, "eslint -f ./tools/fmt.js src"), ["u.ts"]);
});

Lines.run();
