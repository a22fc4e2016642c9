// Builds, read by the Claude hook from a shell command: a Makefile's recipes (`make`), compilers'
// outputs (cc -o, tsc --outDir or tsconfig.json's, javac -d, rustc, go build -o), bundlers' (esbuild,
// vite, rollup, webpack, tsup, parcel, babel, swc, next) and `git worktree`.
// Another session holds u.ts; session s2 runs the command.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Builds = suite<Context>("claims hook: builds a shell command runs");
Builds.before.each((context) => {
  context.box = heldBox();
});
Builds.after.each((context) => context.box.cleanup());

const MAKEFILE = `CC ?= gcc
OUT := build
GEN = u.ts
SRCS = $(wildcard src/*.c)
VERSION != git describe --tags

.PHONY: all fmt clean sub
all: $(OUT)/app

$(OUT)/app: $(OUT)/main.o
\t$(CC) -o $@ $^

$(OUT)/%.o: src/%.c
\t@mkdir -p $(@D)
\t$(CC) -c $< -o $@

fmt:
\tprettier --write $(GEN) \\
\t  other.ts
\t-sed -i 's/a/b/' $(SRCS)

clean: ; rm -rf $(OUT)

sub:
\t+$(MAKE) -C sub

price = $$5
echo:
\techo '$(price)' > $(OUT).txt

include rules.mk
`;

Builds("should read the recipes make runs for its goals, with the makefile's variables put in", async ({ box }) => {
  file(box, "Makefile", MAKEFILE);
  file(box, "rules.mk", "stamp:\n\ttouch stamp.txt\n");
  file(box, "sub/Makefile", "all:\n\trm -f sub.txt\n");
  const cases: Array<[string, string[]]> = [
    ["make", ["build/app", "build/main.o"]], // the first target, and what it needs, by the pattern rule
    ["make fmt", ["other.ts", "u.ts", "unknown:."]], // $(SRCS) is make's to compute: any file
    ["make clean", ["build"]],
    ["make sub", ["sub/sub.txt"]],
    ["make -C sub", ["sub/sub.txt"]],
    ["make -j 4 clean", ["build"]],
    ["make OUT=out clean", ["out"]], // the command line's variables win
    ["make stamp", ["stamp.txt"]], // from the included file
    ["make echo", ["build.txt"]],
    ["make -n fmt clean sub", []], // a dry run runs only `+` and $(MAKE) lines, and the sub-make inherits -n
    ["make nothing", []],
    ['make "$target"', ["unknown:."]],
    ["make -f missing.mk", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  assert.is(bash(box, "make fmt"), "deny");
  assert.is(bash(box, "make clean"), undefined);
});

Builds("should read the makefile forms a review found: quiet prefixes, target variables, .ONESHELL, .DEFAULT_GOAL, generated rules", async ({ box }) => {
  file(
    box,
    "Makefile",
    `Q ?= @
A := first.txt
B := $(A)
A := second.txt
.DEFAULT_GOAL := install
all:
\t$(Q)rm -f quiet.txt
install: F = gen.txt
install:
\trm -f $(F) $(B) $(CURDIR)/cur.txt $(@).out
computed:
\t$(call cleanup,x.txt)
include mk/*.mk
`,
  );
  file(box, "mk/a.mk", "globinc:\n\ttouch globinc.txt\n");
  file(box, "one.mk", ".ONESHELL:\nall:\n\tcd sub\n\trm -f x.txt\n");
  file(box, "sub/keep", ""); // a directory there: the cd goes in
  file(box, "prefix.mk", ".RECIPEPREFIX = >\nall:\n> rm -f r.txt\n");
  file(box, "builtin.mk", "CFLAGS = -Wall\nprog: prog.o util.o\n");
  file(box, "prog.c", "");
  file(box, "util.c", "");
  file(box, "eval.mk", "TPL = $(1):\\n\\ttouch $(1)\n$(eval $(call TPL,a))\n");
  file(box, "override.mk", "override OUT = over.txt\nall:\n\techo x > $(OUT)\n");
  file(box, "default.mk", ".DEFAULT:\n\techo x > default-$@.txt\n");
  file(box, "suffix.mk", "all: x.o\n.q.o:\n\techo x > $@.txt\n");
  file(box, "x.q", "");
  file(box, "deep.mk", `${Array.from({ length: 12 }, (_, i) => `X${i} = ${"$(X" + (i + 1) + ") ".repeat(8)}`).join("\n")}\nall:\n\techo $(X0) > deep.txt\n`);
  const cases: Array<[string, string[]]> = [
    ["make", ["cur.txt", "first.txt", "gen.txt", "install.out"]], // `:=` expands once; the target's F; $(@)
    ["make all", ["quiet.txt"]],
    ["make computed", ["unknown:."]], // a command make computes
    ["make globinc", ["globinc.txt"]],
    ["make -f one.mk", ["sub/x.txt"]],
    ["make -f prefix.mk", ["r.txt"]],
    ["make -f eval.mk a", ["unknown:."]], // a rule $(eval) may make
    ["make -f deep.mk", ["deep.txt"]], // a chain that grows without end is cut off, not followed for minutes
    ["make -j$(nproc) all", ["quiet.txt"]],
    ['make CFLAGS="$x" all', ["quiet.txt"]],
    ['make -C"$d"', ["unknown:."]],
    ["make --version", []],
    ["make -q all", []],
    ["make -f builtin.mk", ["prog", "prog.o", "util.o"]], // make's built-in rules: objects from sources, a program from objects
    ["make -f override.mk OUT=cli.txt", ["over.txt"]], // an override beats the command line
    ["make -f default.mk gen", ["default-gen.txt"]], // a target no rule makes: .DEFAULT's recipe
    ["make -f suffix.mk x.o", ["x.o.txt"]], // an old-fashioned suffix rule: %.o from %.q
    ["remake all", ["quiet.txt"]], // makes read as GNU make is
    ["colormake -f override.mk", ["over.txt"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
});

Builds("should read what compilers write: -o, their own names, tsc's project settings", async ({ box }) => {
  file(box, "tsconfig.json", '{\n  // comments and trailing commas, as tsc reads them\n  "compilerOptions": { "outDir": "dist", },\n}\n');
  file(box, "lib/tsconfig.json", '{ "compilerOptions": { "noEmit": true } }');
  file(box, "web/tsconfig.json", "{}");
  mkdirSync(join(box.project, "out"));
  const cases: Array<[string, string[]]> = [
    ["gcc -O2 -o app main.c", ["app"]],
    ["cc -c a.c src/b.c", ["a.o", "b.o"]],
    ["g++ main.cpp", ["a.out"]],
    ["clang -E x.c", []],
    ["gcc -MMD -MF deps.d -c x.c -o x.o", ["deps.d", "x.o"]],
    ["rustc -o bin main.rs", ["bin"]],
    ["go build -o bin/app .", ["bin/app"]],
    ["go build -o out ./cmd/...", ["glob:out/*"]],
    ["go build ./...", []],
    ["tsc", ["glob:*.tsbuildinfo", "glob:dist/**"]],
    ["npx tsc -p lib", []],
    ["tsc --noEmit", []],
    ["tsc -p web", ["glob:web/**/*.cjs", "glob:web/**/*.d.cts", "glob:web/**/*.d.mts", "glob:web/**/*.d.ts", "glob:web/**/*.js", "glob:web/**/*.jsx", "glob:web/**/*.map", "glob:web/**/*.mjs", "glob:web/**/*.tsbuildinfo"]],
    ["tsc src/a.ts", ["src/a.d.ts", "src/a.d.ts.map", "src/a.js", "src/a.js.map"]],
    ["tsc --outDir out src/a.ts", ["glob:out/**"]],
    ["javac -d classes A.java", ["glob:classes/**"]],
    ["javac src/A.java", ["glob:src/A$*.class", "src/A.class"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  assert.is(bash(box, "gcc -o u.ts main.c"), "deny");
  assert.is(bash(box, "tsc --outFile u.ts src/a.ts"), "deny");
});

Builds("should read the compiler forms a review found: --output, -MMD, versioned and cross names, ccache, tsc -b references, go.mod's name", async ({ box }) => {
  file(box, "app/tsconfig.json", '{ "references": [{ "path": "../shared" }], "compilerOptions": { "outDir": "out" } }');
  file(box, "shared/tsconfig.json", '{ "compilerOptions": { "outDir": "lib", "composite": true } }');
  file(box, "web/tsconfig.json", '\uFEFF{ "compilerOptions": { "declaration": true, "declarationDir": "types", "tsBuildInfoFile": "cache/x.tsbuildinfo" } }');
  file(box, "tool/go.mod", "module example.com/tool/v2\n");
  file(box, "sources.txt", "src/A.java src/B.java\n");
  const cases: Array<[string, string[]]> = [
    ["gcc --output=prog a.c", ["prog"]],
    ["gcc --output prog a.c", ["prog"]],
    ["gcc -MMD -MP -c a.c -o build/a.o", ["build/a.d", "build/a.o"]],
    ["ccache gcc -c a.c -o a.o", ["a.o"]],
    ["gcc-12 -o app a.c", ["app"]],
    ["arm-none-eabi-gcc -o fw.elf a.c", ["fw.elf"]],
    ["tsc -b app", ["glob:app/*.tsbuildinfo", "glob:app/out/**", "glob:shared/*.tsbuildinfo", "glob:shared/lib/**"]],
    ["rustc --crate-name foo main.rs", ["foo", "glob:libfoo.*"]],
    ["javac @sources.txt", ["glob:src/A$*.class", "glob:src/B$*.class", "src/A.class", "src/B.class"]],
    ["cd tool && go build", ["tool/tool"]],
    ["tsc --experimentalDecorators src/a.ts", ["src/a.d.ts", "src/a.d.ts.map", "src/a.js", "src/a.js.map"]], // a flag tsc has: not a value
    ["tsc --strict false --outDir=o src/a.ts", ["glob:o/**"]],
    ["gcc -MD -MFdeps.d -c a.c", ["a.o", "deps.d"]],
    ["gcc -MD a.c b.c", ["a.d", "a.out", "b.d"]],
    ["gcc -save-temps -c a.c", ["a.i", "a.ii", "a.o", "a.s"]],
    ["gcc --version", []],
    ["rustc --crate-name=foo main.rs", ["foo", "glob:libfoo.*"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  const web = await writes(box, "tsc -p web");
  for (const path of ["glob:web/types/**", "web/cache/x.tsbuildinfo", "glob:web/**/*.js"]) assert.ok(web.includes(path), `${path} in ${web.join(" ")}`);
});

Builds("should read what a tool's configuration makes it write (ruff's fix = true) and go generate as anything under its packages", async ({ box }) => {
  file(box, "py/pyproject.toml", '[project]\nname = "x"\n[tool.ruff]\nfix = true\n[tool.ruff.lint]\nselect = ["E"]\n');
  file(box, "py2/ruff.toml", "line-length = 90\n[lint]\nfix = true\n"); // not ruff's `fix`: that one is top-level
  const cases: Array<[string, string[]]> = [
    ["cd py && ruff check a.py", ["py/a.py"]],
    ["cd py && ruff check --no-fix a.py", []],
    ["cd py2 && ruff check a.py", []],
    ["go generate ./...", ["glob:**"]],
    ["go generate -run mock ./pkg/...", ["glob:pkg/**"]],
    ["go generate -n ./...", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  file(box, "pyproject.toml", "[tool.ruff]\nfix = true\n");
  assert.is(bash(box, "ruff check u.ts"), "deny");
});

Builds("should read git worktree add, remove and move as writes anywhere under the worktree", async ({ box }) => {
  spawnSync("git", ["init", "-q", box.project]);
  const cases: Array<[string, string[]]> = [
    ["git worktree add wt main", ["glob:wt/**"]],
    ["git worktree add -b topic wt", ["glob:wt/**"]],
    ["git worktree remove --force wt", ["glob:wt/**"]],
    ["git worktree move wt wt2", ["glob:wt/**", "glob:wt2/**"]],
    ["git worktree list", []],
    ["git worktree prune", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  const holder = join(box.project, "wt");
  mkdirSync(holder);
  writeFileSync(join(holder, "x.ts"), "");
  claims(["take", join(holder, "x.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "a change in the worktree"]);
  assert.is(bash(box, "git worktree remove --force wt"), "deny");
});

Builds("should read what other languages' build tools and package managers write: build directories, lock files, vendored packages", async ({ box }) => {
  const at = (dir: string, command: string) => writes(box, `cd ${dir} && ${command}`);
  file(box, "rs/Cargo.toml", '[package]\nname = "x"\n');
  assert.equal(await at("rs", "cargo build"), ["glob:rs/target/**", "rs/Cargo.lock"]);
  assert.equal(await at("rs", "cargo test --target-dir /tmp/t"), ["glob:/tmp/t/**", "rs/Cargo.lock"]);
  assert.equal(await at("rs", "cargo new tool"), ["glob:rs/tool/**"]);
  assert.equal(await at("rs", "cargo set-version 1.0.0"), ["rs/Cargo.lock", "rs/Cargo.toml"]); // cargo-edit's
  // A build script or program an agent may have written (new, outside a repository) is Rust the hook does not read: any file.
  file(box, "rb2/Cargo.toml", "[package]\nname = \"x\"\n");
  file(box, "rb2/build.rs", "fn main() { std::fs::write(\"../u.ts\", \"x\").unwrap(); }\n");
  assert.equal(await at("rb2", "cargo build"), ["glob:rb2/target/**", "rb2/Cargo.lock", "unknown:."]);
  assert.equal(await at("rb2", "cargo run"), ["glob:rb2/target/**", "rb2/Cargo.lock", "unknown:."]);
  assert.equal(await at("rb2", "cargo fmt --check"), []);
  assert.equal(await at("rs", "cp /tmp/x.rs build.rs && cargo build"), ["glob:rs/target/**", "rs/Cargo.lock", "rs/build.rs", "unknown:."], "a build script the command writes first");
  assert.equal(await at("rs", "cargo upgrade"), ["rs/Cargo.lock", "rs/Cargo.toml"]);
  assert.equal(await at("rs", "cargo upgrade --dry-run"), []);
  // Snapshot tests told to update rewrite snapshots and sources anywhere in the crate.
  assert.equal(await at("rs", "cargo insta accept"), ["glob:rs/**"]);
  assert.equal(await at("rs", "INSTA_UPDATE=always cargo test"), ["glob:rs/**", "glob:rs/target/**", "rs/Cargo.lock"]);
  assert.equal(await at("rs", "cargo insta test"), []);
  assert.equal(await at("rs", "cmake -B build"), ["glob:rs/build/**"]);
  assert.equal(await at("rs", "cmake -E echo hi"), []);
  file(box, "j/pom.xml", "<project/>");
  file(box, "j/mod/pom.xml", "<project/>");
  assert.equal(await at("j/mod", "mvn -q clean install"), ["glob:j/**/target/**"], "every module's, from the outermost pom");
  assert.equal(await at("j", "mvn help:effective-pom"), []);
  // Formatters and sorters rewrite sources and poms, named by prefix or by their full coordinates.
  for (const goal of ["spotless:apply", "com.diffplug.spotless:spotless-maven-plugin:apply", "com.coveo:fmt-maven-plugin:format", "formatter:format", "license:format", "sortpom:sort", "impsort:sort", "rewrite:run"]) {
    assert.equal(await at("j", `mvn ${goal}`), ["glob:j/**", "glob:j/**/target/**"], goal);
  }
  assert.equal(await at("j", "mvn spotless:check"), ["glob:j/**/target/**"]);
  file(box, "g/settings.gradle", "");
  assert.equal(await at("g", "./gradlew build"), ["glob:g/**/build/**", "glob:g/.gradle/**"]);
  assert.equal(await at("g", "gradle tasks"), []);
  for (const task of ["spotlessApply", "spotlessJavaApply", ":app:spotlessKotlinApply", "formatKotlin", "ktlintFormat", "ktfmtFormat", "rewriteRun"]) {
    assert.equal(await at("g", `./gradlew ${task}`), ["glob:g/**", "glob:g/**/build/**", "glob:g/.gradle/**"], task);
  }
  assert.equal(await at("g", "./gradlew spotlessCheck checkFormat"), ["glob:g/**/build/**", "glob:g/.gradle/**"]);
  file(box, "php/composer.json", "{}");
  assert.equal(await at("php", "composer require monolog/monolog"), ["glob:php/vendor/**", "php/composer.json", "php/composer.lock"]);
  // composer.json's scripts, as npm's: run by name, as a command of their name, and on install's events.
  file(box, "phs/composer.json", JSON.stringify({ autoload: { "psr-4": { "App\\": "src/" } }, scripts: { fix: "sed -i s/a/b/ src/a.php", all: ["@fix", "@php bin/gen.php > out.php", "@putenv X=1"], "post-install-cmd": "cp x.php config.php", cb: "App\\Hooks::run" } }));
  for (const command of ["composer run fix", "composer run-script fix", "composer fix", "composer -d . fix"]) assert.equal(await at("phs", command), ["phs/src/a.php"], command);
  assert.equal(await at("phs", "composer all"), ["phs/out.php", "phs/src/a.php"], "@fix read in turn, @php as php");
  assert.equal(await at("phs", "composer install"), ["glob:phs/vendor/**", "phs/composer.lock", "phs/config.php"]);
  assert.equal(await at("phs", "composer install --no-scripts"), ["glob:phs/vendor/**", "phs/composer.lock"]);
  assert.equal(await at("phs", "composer cb"), ["unknown:."], "a PHP callback: PHP the hook does not read");
  assert.equal(await at("phs", "composer run --timeout 0 fix"), ["phs/src/a.php"]);
  assert.equal(await at("phs", "composer dump"), ["glob:phs/vendor/**", "phs/composer.lock"], "dump-autoload by an abbreviation");
  // Laravel's stock scripts: a package's callback is its vendor code, not read; the project's own namespace's is.
  file(box, "lara/composer.json", JSON.stringify({ autoload: { "psr-4": { "App\\": "app/" } }, scripts: { "post-autoload-dump": ["Illuminate\\Foundation\\ComposerScripts::postAutoloadDump", "@php artisan package:discover --ansi"], own: "App\\Hooks::run" } }));
  // (Its post-autoload-dump script runs `php artisan package:discover`, which writes bootstrap/cache/: anything in the project.)
  assert.equal(await at("lara", "composer install"), ["glob:lara/**", "glob:lara/vendor/**", "lara/composer.lock"]);
  assert.equal(await at("lara", "composer own"), ["unknown:."]);
  assert.equal(await at("phs", "composer show"), []);
  assert.equal(await at("phs", "composer run"), []);
  file(box, "rb/Gemfile", 'source "https://rubygems.org"\n');
  assert.equal(await at("rb", "bundle install"), ["rb/Gemfile.lock"]);
  file(box, "py/pyproject.toml", "[project]\n");
  assert.equal(await at("py", "pip install -e ."), ["glob:py/**/*.egg-info/**", "glob:py/build/**"]);
  assert.equal(await at("py", "tox -e lint"), ["glob:py/.tox/**"]);
  // A version bump rewrites the manifest; the version alone is printed.
  assert.equal(await at("py", "poetry version patch"), ["py/pyproject.toml"]);
  assert.equal(await at("py", "uv version --frozen --bump patch"), ["py/pyproject.toml"], "--frozen skips the relock alone");
  assert.equal(await at("py", "uv version --bump minor"), ["py/pyproject.toml", "py/uv.lock"]);
  assert.equal(await at("py", "uv version 1.2.0"), ["py/pyproject.toml", "py/uv.lock"]);
  assert.equal(await at("py", "poetry version --short"), []);
  assert.equal(await at("py", "uv version"), []);
  // pdm run, hatch run and poe: the tasks pyproject.toml gives them.
  file(box, "pj/pyproject.toml", "[project]\nname = \"x\"\n\n[tool.pdm.scripts]\nfmt = \"black src\"\ngen = {cmd = \"sh -c 'echo x > gen.txt'\"}\nall = {composite = [\"fmt\", \"gen\"]}\n\n[tool.pdm.scripts.clean]\nshell = \"rm -f out.txt\"\n\n[tool.hatch.envs.default.scripts]\nfix = [\"black src\", \"touch fixed.txt\"]\n\n[tool.poe.tasks]\nw = \"touch w.txt\"\n");
  assert.equal(await at("pj", "pdm run fmt"), ["pj/src"]);
  assert.equal(await at("pj", "pdm run gen"), ["pj/gen.txt"]);
  assert.equal(await at("pj", "pdm run clean"), ["pj/out.txt"]);
  assert.equal(await at("pj", "pdm run all"), ["unknown:."], "a composite: not read");
  assert.equal(await at("pj", "pdm run pytest"), [], "no task of that name: the command itself");
  assert.equal(await at("pj", "hatch run fix"), ["pj/fixed.txt", "pj/src"]);
  assert.equal(await at("pj", "poe w"), ["pj/w.txt"]);
  // rake loads its Rakefile and rakelib/*.rake, ruby read as a program an agent may have written is (new here: no repository).
  file(box, "rk/Rakefile", "task :gen do\n  File.write(\"gen.ts\", \"x\")\nend\n");
  file(box, "rk/rakelib/more.rake", "task :more do\n  sh \"rm -f old.ts\"\nend\n");
  assert.equal(await at("rk", "rake gen"), ["rk/gen.ts", "rk/old.ts"]);
  assert.equal(await at("rk/rakelib", "bundle exec rake more"), ["rk/gen.ts", "rk/old.ts"], "from the Rakefile's directory");
  assert.equal(await at("rk", "rake -T"), [], "a listing runs no task");
  assert.equal(await at("rk", "rake --version"), []);
  assert.equal(await at("rk", "rake -C rakelib gen"), ["rk/gen.ts", "rk/old.ts"], "-C: from there, the Rakefile found above");
  // Generators that write the file an option names.
  assert.equal(await at("py", "mockgen -source=x.go -destination=mocks/x.go"), ["py/mocks/x.go"]);
  assert.equal(await at("py", "stringer -type=Pill -output pill_string.go"), ["py/pill_string.go"]);
  assert.equal(await at("py", "oapi-codegen -o api.gen.go api.yaml"), ["py/api.gen.go"]);
  assert.equal(await at("py", "pbjs -t static-module -o gen.js a.proto"), ["py/gen.js"]);
  assert.equal(await at("py", "datamodel-codegen --input a.json --output model.py"), ["py/model.py"]);
  assert.equal(await at("py", "mockgen -source=x.go"), []);
  // Manifest writers: syncpack's fixing commands, taze -w, json -I.
  file(box, "mw/package.json", "{}");
  assert.equal(await at("mw", "npx syncpack format"), ["glob:mw/**/package.json"]);
  assert.equal(await at("mw", "npx syncpack list"), []);
  assert.equal(await at("mw", "npx taze -w"), ["mw/package.json"]);
  assert.equal(await at("mw", "npx taze"), []);
  assert.equal(await at("mw", "npx json -I -f package.json -e 'this.private = true'"), ["mw/package.json"]);
  // pytest's inline-snapshot and pytest-regressions, told to update: the tests and their data, under where it runs.
  assert.equal(await at("py", "pytest --inline-snapshot=fix"), ["glob:py/**"]);
  assert.equal(await at("py", "pytest --force-regen tests"), ["glob:py/**"]);
  assert.equal(await at("py", "pytest --inline-snapshot=disable"), []);
  // More formatters that rewrite files in place, unless they only check.
  assert.equal(await at("py", "docformatter -i old.py"), ["py/old.py"]);
  assert.equal(await at("py", "perltidy -b x.pl"), ["py/x.pl"]);
  assert.equal(await at("py", "cmake-format -i CMakeLists.txt"), ["py/CMakeLists.txt"]);
  assert.equal(await at("py", "ormolu --mode inplace A.hs"), ["py/A.hs"]);
  assert.equal(await at("py", "ktfmt A.kt"), ["py/A.kt"]);
  assert.equal(await at("py", "ktfmt --dry-run A.kt"), []);
  assert.equal(await at("py", "scalafmt --test"), []);
  assert.equal(await at("py", "ruff --fix ."), ["py"]); // ruff before 0.5: check with no subcommand
  assert.equal(await at("py", "ruff ."), []);
  assert.equal(await at("py", "rome check --apply src"), ["py/src"]);
  // 2to3 -w rewrites its files, a .bak beside each unless -n.
  file(box, "py/old.py", "print 'x'\n");
  assert.equal(await at("py", "python3 -m lib2to3 -w old.py"), ["py/old.py", "py/old.py.bak"]);
  assert.equal(await at("py", "2to3 -w -n old.py"), ["py/old.py"]);
  assert.equal(await at("py", "2to3 old.py"), []);
  // graphql-codegen: the outputs its config's generates keys name.
  file(box, "gq/codegen.yml", "schema: schema.graphql\ngenerates:\n  src/types.ts:\n    plugins:\n      - typescript\n  src/gql/:\n    preset: client\n");
  assert.equal(await at("gq", "npx graphql-codegen"), ["glob:gq/src/gql/**", "gq/src/types.ts"]);
  file(box, "gt/codegen.ts", "const config = {\n  schema: 'x.graphql',\n  generates: {\n    './src/types.ts': { plugins: ['typescript'] },\n  },\n};\nexport default config;\n");
  assert.equal(await at("gt", "npx @graphql-codegen/cli"), ["gt/src/types.ts"]);
  assert.equal(await at("gq", "graphql-codegen -c missing.yml"), ["unknown:."]);
  // nox runs its noxfile.py, python read as a program an agent may have written is.
  file(box, "nx/noxfile.py", "import nox\n\n@nox.session\ndef fmt(session):\n    open('gen.py', 'w').write('x')\n");
  assert.equal(await at("nx", "nox -s fmt"), ["glob:nx/.nox/**", "nx/gen.py"]);
  assert.equal(await at("nx", "nox -l"), []);
  // tox's environments run the commands tox.ini lists for them, read in turn.
  file(box, "tx/tox.ini", "[tox]\nenvlist = py311, fmt\n\n[testenv]\ncommands =\n    pytest {posargs:tests}\n\n[testenv:fmt]\ncommands =\n    - black src\n    sh -c \"echo x > {toxinidir}/gen.ts\"\n\n[testenv:docs]\nchangedir = docs\ncommands = sphinx-build . out\n");
  assert.equal(await at("tx", "tox -e fmt"), ["glob:tx/.tox/**", "tx/gen.ts", "tx/src"]);
  assert.equal(await at("tx", "tox run -e fmt,py311"), ["glob:tx/.tox/**", "tx/gen.ts", "tx/src"]);
  assert.equal(await at("tx", "TOXENV=fmt tox"), ["glob:tx/.tox/**", "tx/gen.ts", "tx/src"]);
  assert.equal(await at("tx", "tox"), ["glob:tx/.tox/**", "tx/gen.ts", "tx/src"], "every environment it defines");
  assert.equal(await at("tx", "tox -e py311 -- -x"), ["glob:tx/.tox/**"]);
  assert.equal(await at("tx", "tox -l"), []);
  assert.equal(await at("tx", 'tox -e "$env"'), ["glob:tx/.tox/**", "unknown:."]);
  file(box, "tt/tox.toml", "[env.fmt]\ncommands = [[\"black\", \".\"]]\n");
  assert.equal(await at("tt", "tox -e fmt"), ["glob:tt/.tox/**", "unknown:."], "a configuration not read: any file");
  // tox runs its envlist by default, not every environment it defines; its own places are put in.
  file(box, "tl/tox.ini", "[tox]\nenvlist = py311\n\n[testenv]\ncommands = python -m pytest --basetemp={envtmpdir} --junitxml={toxworkdir}/junit-{envname}.xml {posargs}\n\n[testenv:format]\ncommands = black .\n\n[testenv:fix]\ncommands =\n    lint: sed -i s/a/b/ {toxinidir}/u.ts\n");
  assert.equal(await at("tl", "tox"), ["glob:tl/.tox/**", "glob:tl/.tox/py311/tmp/**", "tl/.tox/junit-py311.xml"]);
  assert.equal(await at("tl", 'tox -e py311 -- -k "$k"'), ["glob:tl/.tox/**", "glob:tl/.tox/py311/tmp/**", "tl/.tox/junit-py311.xml"]);
  assert.equal(await at("tl", "tox -e fix"), ["glob:tl/.tox/**", "tl/u.ts"], "a factor-conditional line, whatever its factors");
  assert.equal(await at("tl", "tox -e c"), ["glob:tl/.tox/**", "glob:tl/.tox/c/tmp/**", "tl/.tox/junit-c.xml"], "an environment named like a subcommand");
  file(box, "cs/app.csproj", "<Project/>");
  assert.equal(await at("cs", "dotnet add package Serilog"), ["cs/app.csproj"]);
  assert.equal(await at("cs", "dotnet build"), ["glob:cs/**/bin/**", "glob:cs/**/obj/**"]);
  file(box, "fl/pubspec.yaml", "name: app\n");
  assert.equal(await at("fl", "flutter pub get"), ["fl/pubspec.lock", "glob:fl/.dart_tool/**"]);
  assert.equal(await at("fl", "dart pub add http"), ["fl/pubspec.lock", "fl/pubspec.yaml", "glob:fl/.dart_tool/**"]);
  assert.equal(await at("fl", "dart pub deps"), []);
  file(box, "ios/Podfile", "platform :ios\n");
  assert.equal(await at("ios", "pod install"), ["glob:ios/Pods/**", "ios/Podfile.lock"]);
  file(box, "sw/Package.swift", "// swift-tools-version:5.9\n");
  assert.equal(await at("sw", "swift package resolve"), ["sw/Package.resolved"]);
  assert.equal(await at("sw", "swift package describe"), []);
  file(box, "ex/mix.exs", "defmodule X.MixProject do end\n");
  assert.equal(await at("ex", "mix deps.get"), ["ex/mix.lock", "glob:ex/deps/**"]);
  assert.equal(await at("ex", "mix test"), ["glob:ex/_build/**"]); // it compiles the project first (hook-ecosystems.test.ts)
  // Through the hook: a lock file another session holds is refused; a build that writes none of it is not.
  claims(["take", join(box.project, "rs/Cargo.lock"), "--dir", box.dir, "--holder", "other", "--purpose", "bumping deps"]);
  assert.is(bash(box, "cd rs && cargo build"), "deny");
  for (const lock of ["fl/pubspec.lock", "ios/Podfile.lock", "sw/Package.resolved", "ex/mix.lock"]) claims(["take", join(box.project, lock), "--dir", box.dir, "--holder", "other", "--purpose", "bumping deps"]);
  for (const command of ["cd fl && flutter pub get", "cd ios && pod install", "cd sw && swift package update", "cd ex && mix deps.get"]) assert.is(bash(box, command), "deny", command);
  assert.is(bash(box, "cd rb && bundle install"), undefined);
});

Builds("should read mise's tasks as the command lines they run, and its commands that rewrite its config", async ({ box }) => {
  file(
    box,
    "ms/mise.toml",
    `[tools]
node = "20"

[tasks.build]
description = "Build"
run = "rm -f ../u.ts"
alias = "b"

[tasks.fmt]
run = [
  "prettier -w src",  # format
  "touch fmt.stamp",
]

[tasks."lint:fix"]
run = '''
eslint --fix lib
cp a.txt b.txt
'''

[tasks.all]
depends = ["fmt", "lint:*"]
run = "echo done > all.txt"

[tasks.js]
shell = "node -e"
run = "require('fs').writeFileSync('js.txt', 'x')"

[tasks.here]
dir = "sub"
run = "touch here.txt"

[tasks.dyn]
run = "touch {{arg(name='out')}}"

[tasks]
quick = "touch quick.txt"
inline = { run = "touch inline.txt", depends = ["quick"] }
`,
  );
  file(box, "ms/mise-tasks/db/reset", "#!/bin/sh\nrm -f data.db\n", 0o755);
  const at = (dir: string, command: string) => writes(box, `cd ${dir} && ${command}`);
  assert.equal(await at("ms", "mise run build"), ["ms/../u.ts"]);
  assert.equal(await at("ms", "mise r b"), ["ms/../u.ts"], "by its alias");
  assert.equal(await at("ms", "mise build"), ["ms/../u.ts"], "a task no mise command is named like");
  assert.equal(await at("ms", "mise run fmt"), ["ms/fmt.stamp", "ms/src"]);
  assert.equal(await at("ms", "mise run lint:fix"), ["ms/b.txt", "ms/lib"], "a run of several lines");
  assert.equal(await at("ms", "mise run all"), ["ms/all.txt", "ms/b.txt", "ms/fmt.stamp", "ms/lib", "ms/src"], "its dependencies, a glob among them");
  assert.equal(await at("ms", "mise run js"), ["ms/js.txt"], "its shell given the line as code");
  assert.equal(await at("ms/sub", "mise run here"), ["ms/sub/here.txt"], "from its dir, relative to its config");
  assert.equal(await at("ms", "mise run dyn"), ["unknown:."], "a template the text does not fix");
  assert.equal(await at("ms", "mise run quick ::: inline"), ["ms/inline.txt", "ms/quick.txt"]);
  assert.equal(await at("ms", "mise run db:reset"), ["ms/data.db"], "a file task, read as the script it is");
  assert.equal(await at("ms/sub", "mise tasks run build"), ["ms/../u.ts"], "found from below its config");
  assert.equal(await at("ms", "mise watch build"), ["ms/../u.ts"]);
  assert.equal(await at("ms", "mise run"), ["unknown:."], "it asks which task");
  assert.equal(await at("ms", "mise run nosuch"), ["unknown:."], "a task defined where this reader does not look");
  assert.equal(await at("ms", "mise ls"), []);
  assert.equal(await at("ms", "mise nosuch"), [], "no task: mise's error");
  // Every definition of a name is read: a local or env file overrides the others in mise, by files and MISE_ENV.
  file(box, "ov/mise.toml", '[tasks.build]\nrun = "echo hi"\n[tasks.post]\nrun = "echo post"\ndepends_post = ["clean"]\n[tasks.clean]\nrun = "rm -rf src"\n');
  file(box, "ov/mise.ci.toml", '[tasks.build]\nrun = "rm -rf lib"\n');
  file(box, "ov/mise.local.toml", '[tasks.fmt]\nrun = "touch local-fmt"\n');
  file(box, "ov/mise-tasks/ft", '#!/bin/sh\n#MISE depends=["clean"]\necho ft\n', 0o755);
  assert.equal(await at("ov", "mise -E ci run build"), ["ov/lib"]);
  assert.equal(await at("ov", "MISE_ENV=ci mise run build"), ["ov/lib"]);
  assert.equal(await at("ov", "mise run fmt"), ["ov/local-fmt"]);
  assert.equal(await at("ov", "mise run post"), ["ov/src"], "depends_post");
  assert.equal(await at("ov", "mise run ft"), ["ov/src"], "a file task's #MISE depends");
  file(box, "ov/mise-tasks/build", "#!/bin/sh\nrm -rf vendor\n", 0o755);
  assert.equal(await at("ov", "mise run build"), ["ov/lib", "ov/vendor"], "a file task and a config task of one name: both");
  file(box, "ov/mise-tasks/gen.toml", "[gen]\nrun = 'x'\n");
  assert.equal(await at("ov", "mise run build"), ["unknown:."], "TOML task files are not read");
  // The other config files mise reads: local and env variants of each place, .rtx.toml; CRLF headers.
  for (const name of ["mise.dev.local.toml", ".config/mise.local.toml", ".config/mise/config.local.toml", ".mise/config.local.toml", "mise/config.dev.toml", ".rtx.toml"]) {
    file(box, `vr/${name}`, '[tasks.build]\nrun = "echo x > over.ts"\n');
    assert.ok((await at("vr", "MISE_ENV=dev mise run build")).includes("vr/over.ts"), name);
    spawnSync("rm", ["-rf", join(box.project, "vr")]);
  }
  file(box, "cr/mise.toml", '[tasks.clean]\nrun = "rm -rf src"\n');
  file(box, "cr/mise-tasks/ft", '#!/bin/sh\r\n#MISE depends=["clean"]\r\necho ft\r\n', 0o755);
  assert.equal(await at("cr", "mise run ft"), ["cr/src"]);
  // A glob too intricate to match in time; keys like __proto__ and constructor are keys; a config not read.
  assert.equal(await at("ms", `mise run '${"*a".repeat(12)}b'`), ["unknown:."]);
  assert.equal(await at("ms", "mise run '*a*a*a*b'"), ["unknown:."]);
  file(box, "pr/mise.toml", '[tasks.__proto__]\ndir = "/tmp/elsewhere"\n[tasks.build]\nrun = "rm -rf src"\n[tasks.constructor]\nrun = "touch c"\n');
  assert.equal(await at("pr", "mise run build"), ["pr/src"]);
  assert.equal(await at("pr", "mise run constructor"), ["pr/c"]);
  file(box, "pr/mise.toml", `a = ${"[".repeat(20000)}\n`);
  assert.equal(await at("pr", "mise run build"), ["unknown:."]);
  // Its config, rewritten.
  assert.equal(await at("ms", "mise use node@22"), ["ms/mise.toml"]);
  assert.equal(await at("ms", "mise use -e dev node@22"), ["ms/mise.dev.toml"]);
  assert.equal(await at("ms", "mise use --path other.toml node@22"), ["ms/other.toml"]);
  assert.equal(await at("ms", "mise use -g node@22"), [".config/mise/config.toml"].map((path) => join(box.root, path)));
  assert.equal(await at("ms", "mise set FOO=bar"), ["ms/mise.toml"]);
  assert.equal(await at("ms", "mise set"), [], "a listing");
  assert.equal(await at("ms", "mise fmt"), ["ms/mise.toml"]);
  assert.equal(await at("ms", "mise lock"), ["ms/mise.lock"]);
  assert.equal(await at("ms", "mise tasks edit build"), ["unknown:."], "an editor");
  // The hook itself denies the task that removes the held file.
  assert.is(bash(box, `cd ${join(box.project, "ms")} && mise run build`), "deny");
  assert.is(bash(box, `cd ${join(box.project, "ms")} && mise run fmt`), undefined);
});

Builds("should read project-wide tools: release tools, framework generators and fixers, Go's and migrations' generators, as writing the project", async ({ box }) => {
  file(box, "js/package.json", '{"name":"x","version":"1.0.0","scripts":{"release":"standard-version","lint":"next lint"}}');
  file(box, "js/angular.json", "{}");
  file(box, "go/go.mod", "module x\n");
  file(box, "rs/Cargo.toml", "[package]\nname = \"x\"\n");
  file(box, "py/pyproject.toml", "[project]\nname = \"x\"\n");
  file(box, "dj/manage.py", "");
  const at = (dir: string, command: string) => writes(box, `cd ${dir} && ${command}`);
  const all = (dir: string) => [`glob:${dir}/**`];
  // Release tools bump, write changelogs and commit: any file, but a dry run.
  for (const command of ["npx standard-version", "npm run release", "npx release-it patch --ci", "npx lerna version patch --yes", "npx semantic-release", "cz bump --yes", "bump-my-version bump patch", "towncrier build --yes", "hatch version minor", "cargo release patch --execute", "rush build", "bin/rails credentials:edit"]) {
    const dir = /cargo/.test(command) ? "rs" : /cz|bump-my|towncrier|hatch/.test(command) ? "py" : "js";
    assert.equal(await at(dir, command), ["unknown:."], command);
  }
  for (const command of ["npx release-it --dry-run", "cz bump --dry-run", "hatch version", "cargo release patch", "towncrier build --draft"]) assert.equal(await at(/cargo/.test(command) ? "rs" : "py", command), [], command);
  assert.equal(await at("js", "npx git-cliff -o CHANGELOG.md"), ["js/CHANGELOG.md"]);
  // Framework generators and fixers: anything in the project.
  for (const command of ["npx ng generate component foo", "ng g c foo", "npx ng update @angular/core", "npx @nestjs/cli g controller cats", "npx nest g service users", "npx next lint --fix", "npm run lint -- --fix", "npx astro add react --yes", "npx @next/codemod@latest next-async-request-api .", "npx @tailwindcss/upgrade", "npx typeorm migration:generate src/migrations/X -d ds.ts", "npx knex migrate:make users", "npx sequelize-cli migration:generate --name x", "npx expo prebuild"]) {
    assert.equal(await at("js", command), all("js"), command);
  }
  for (const command of ["npx next lint", "ng g --help", "ng lint"]) assert.equal(await at("js", command), [], command);
  for (const command of ["templ generate", "mockery", "swag init", "go tool golangci-lint run --fix"]) assert.equal(await at("go", command), all("go"), command);
  assert.equal(await at("go", "go tool goimports -w ."), ["go"], "a tool go.mod names, run as that command");
  assert.equal(await at("go", "go run golang.org/x/tools/cmd/goimports@latest -w ."), ["go"], "a module's command at a version");
  assert.equal(await at("go", "gci write ."), ["go"]);
  // A file or directory of its own given to go run is the project's code, not a dependency's path.
  file(box, "go/gen.d/main.go", "package main\nfunc main() {}\n");
  assert.equal(await at("go", "go run gen.d/main.go"), await at("go", "go run ./gen.d/main.go"));
  // A dependency's command by its import path, without a version (gqlgen rewrites the resolvers, which hold hand-written code).
  for (const command of ["go run github.com/99designs/gqlgen generate", "go run entgo.io/ent/cmd/ent generate ./ent/schema", "gqlgen"]) assert.equal(await at("go", command), all("go"), command);
  // The module's own package by its import path is its directory: read as `go run ./cmd/gen` is.
  file(box, "go/cmd/gen/main.go", "package main\nfunc main() {}\n");
  assert.equal(await at("go", "go run x/cmd/gen"), await at("go", "go run ./cmd/gen"));
  assert.equal(await at("go/cmd", "go run x/cmd/gen"), await at("go", "go run ./cmd/gen"), "from below the module's root too");
  for (const command of ["diesel migration run", "sea-orm-cli generate entity -o src/entities"]) assert.equal(await at("rs", command), all("rs"), command);
  assert.equal(await at("rs", "cargo sort -w"), ["glob:rs/**/Cargo.toml"]);
  assert.equal(await at("rs", "cargo sort"), ["rs/Cargo.toml"]);
  assert.equal(await at("rs", "cargo sort --check"), []);
  assert.equal(await at("rs", "cargo machete --fix"), ["glob:rs/**/Cargo.toml"]);
  assert.equal(await at("rs", "wasm-pack build"), ["glob:rs/pkg/**"]);
  assert.equal(await at("py", "hatch fmt"), ["py"], "ruff's fixes and formatting from the project's root");
  assert.equal(await at("py", "hatch fmt --check"), []);
  assert.equal(await at("py", "pybabel extract -o messages.pot ."), ["py/messages.pot"]);
  assert.equal(await at("py", "python -m grpc_tools.protoc -I. --python_out=gen a.proto"), ["glob:py/gen/**"]);
  assert.equal(await at("dj", "python manage.py makemessages -l de"), ["glob:dj/**/locale/**"]);
  assert.equal(await at("py", "sphinx-build -b html docs docs/_build"), ["glob:py/docs/_build/**"]);
  assert.equal(await at("py", "tofu fmt"), await at("py", "terraform fmt"), "OpenTofu's fmt as terraform's");
  assert.equal(await at("js", "npx vue-tsc --declaration --emitDeclarationOnly --outDir types"), ["glob:js/types/**"], "vue-tsc as tsc");
  assert.equal(await at("js", "npx @redocly/cli bundle openapi.yaml -o dist/api.yaml"), ["js/dist/api.yaml"]);
  assert.equal(await at("js", "npx @svgr/cli --out-dir src/icons -- icons"), ["glob:js/src/icons/**"]);
  assert.equal(await at("rs", "cargo sqlx prepare"), ["glob:rs/.sqlx/**"]);
  assert.equal(await at("rs", "cargo sqlx migrate add init"), all("rs"));
  assert.equal(await at("js", "npx redocly split openapi.yaml --outDir out"), ["glob:js/out/**"]);
  assert.equal(await at("dj", "python manage.py collectstatic --noinput"), ["glob:dj/**"]);
  // Their names in prose do not load the parser (the gate's cost); in a command's place they do.
  const { mayWrite } = await import("../src/hooks/shell-gate.js");
  for (const prose of ['git commit -m "auto migrate the next lint"', 'echo "the ent schema is fine"', "grep -rn auto src", "rg migrate .", "ls auto"]) assert.is(mayWrite(prose), false, prose);
  // Whatever stands before them: sudo, env, npx -y, a keyword.
  for (const command of ["sudo npx semantic-release", "env A=1 npx semantic-release", "A=1 npx standard-version", "npx -y semantic-release", "npm exec -- semantic-release", "if npx semantic-release; then :; fi"]) assert.equal(await at("js", command), ["unknown:."], command);
  assert.equal(await at("js", "nice ng g c x"), all("js"));
  assert.equal(await at("go", "go run github.com/vektra/mockery/v2@v2.43.0 --all"), all("go"), "a module's major version is no command's name");
  // go's own tools are not the commands of their names.
  assert.equal(await at("go", "go tool link -o bin a.o"), ["go/bin"]);
  assert.equal(await at("go", "go tool cover -o c.html -html=c.out"), ["go/c.html"]);
  assert.equal(await at("go", "go tool fix ."), all("go"));
  // gotestsum hands the words after -- to go test (-update rewrites golden files); rake in a Rails app runs rails' tasks.
  assert.equal(await at("go", "gotestsum -- ./... -update"), await at("go", "go test ./... -update"));
  assert.ok((await at("go", "gotestsum -- ./... -update")).length > 0);
  file(box, "rb/Rakefile", "require_relative 'config/application'\nRails.application.load_tasks\n");
  file(box, "rb/Gemfile", "gem 'rails'\n");
  const rails = await at("rb", "bin/rails db:migrate");
  const rake = await at("rb", "rake db:migrate");
  assert.ok(rails.length > 0 && rails.every((path) => rake.includes(path)), `a Rails Rakefile's tasks are rails' own: ${rake}`);
  assert.ok((await at("rb", "bundle exec rake db:migrate")).length > 0);
  // The hook denies them where they would write the held file.
  assert.is(bash(box, "npx standard-version"), "deny");
  assert.is(bash(box, "npx ng generate component foo"), "deny");
});

Builds("should read what frameworks' and code generators' commands write: migrations, generated code, their config's outputs", async ({ box }) => {
  const at = (dir: string, command: string) => writes(box, `cd ${dir} && ${command}`);
  file(box, "dj/manage.py", "import sys\n");
  assert.equal(await at("dj", "python manage.py makemigrations"), ["glob:dj/**/migrations/**"]);
  assert.equal(await at("dj", "python3 manage.py makemigrations --check"), []);
  assert.equal(await at("dj", "./manage.py startapp shop"), ["glob:dj/shop/**"]);
  assert.equal(await at("dj", "python manage.py migrate"), ["glob:dj/**/*.sqlite3"]);
  file(box, "al/alembic.ini", "[alembic]\nscript_location = %(here)s/alembic\n");
  assert.equal(await at("al", "alembic revision --autogenerate -m add"), ["glob:al/alembic/versions/**"]);
  assert.equal(await at("al", "protoc --go_out=gen --go-grpc_out=paths=source_relative:rpc api.proto"), ["glob:al/gen/**", "glob:al/rpc/**"]);
  file(box, "bf/buf.gen.yaml", "version: v2\nplugins:\n  - remote: buf.build/protocolbuffers/go\n    out: gen/go\n  - local: protoc-gen-es\n    out: web/gen\n");
  assert.equal(await at("bf", "buf generate"), ["glob:bf/gen/go/**", "glob:bf/web/gen/**"]);
  file(box, "sq/sqlc.yaml", 'version: "2"\nsql:\n  - engine: postgresql\n    gen:\n      go:\n        out: internal/db\n');
  assert.equal(await at("sq", "sqlc generate"), ["glob:sq/internal/db/**"]);
  file(box, "sq/sqlc.yaml", 'version: "1"\npackages:\n  - name: db\n    path: gen/db\n    queries: query.sql\n');
  assert.equal(await at("sq", "sqlc generate"), ["glob:sq/gen/db/**"], "version 1: each package's path");
  file(box, "sq/sqlc.yaml", 'version: "2"\nplugins: []\n');
  assert.equal(await at("sq", "sqlc generate"), ["unknown:."], "a config that names no output: where, the hook cannot see");
  file(box, "dz/drizzle.config.ts", 'export default { schema: "./src/schema.ts", out: "./migrations" };\n');
  assert.equal(await at("dz", "npx drizzle-kit generate"), ["glob:dz/migrations/**"]);
  assert.equal(await at("dz", "npx openapi-typescript api.yaml -o src/api.ts"), ["dz/src/api.ts"]);
  assert.equal(await at("dz", "terraform init"), ["dz/.terraform.lock.hcl", "glob:dz/.terraform/**"]);
  file(box, "rb/Gemfile", 'source "https://rubygems.org"\n');
  assert.equal(await at("rb", "bundle exec rails db:migrate"), ["glob:rb/db/**", "glob:rb/storage/**"]);
  assert.equal(await at("dj", "python -m pytest --junitxml=reports/junit.xml --cov=src --cov-report=html:cov_html"), ["dj/.coverage", "dj/reports/junit.xml", "glob:dj/cov_html/**"]);
  assert.equal(await at("dj", "pytest -q"), []);
  // Through the hook: generated code another session holds is refused.
  file(box, "al/gen/api.pb.go", "package api\n");
  claims(["take", join(box.project, "al/gen/api.pb.go"), "--dir", box.dir, "--holder", "other", "--purpose", "hand-fixing the generated client"]);
  assert.is(bash(box, "cd al && protoc --go_out=gen api.proto"), "deny");
  assert.is(bash(box, "cd dj && python manage.py makemigrations"), undefined);
});

Builds("should read where bundlers write: their options, the output their configuration names, else their own directory", async ({ box }) => {
  file(box, "vite.config.ts", 'export default defineConfig({\n  build: { outDir: "public/app", sourcemap: true },\n});\n');
  file(box, "webpack.config.js", 'module.exports = {\n  output: { path: path.resolve(__dirname, "build", "js"), filename: "x.js" },\n  resolve: { alias: { "@": path.resolve(__dirname, "src") } },\n};\n');
  file(box, "rollup.config.mjs", 'export default { input: "src/main.js", output: [{ file: "dist/bundle.cjs" }, { dir: "es" }, { file: pkg.module }], plugins: [stats({ file: "stats.html" })] };\n');
  file(box, "package.json", JSON.stringify({ module: "lib/index.mjs" }));
  file(box, "web/vite.config.mjs", "export default { build: { outDir: fileURLToPath(new URL('./build', import.meta.url)) } };\n");
  file(box, "lib/tsup.config.ts", "export default { outDir: process.env.OUT };\n"); // computed: taken for its own dist/
  const cases: Array<[string, string[]]> = [
    ["npx esbuild src/a.ts --bundle --outfile=dist/a.js", ["dist/a.css", "dist/a.js", "dist/a.js.map"]],
    ["esbuild src/a.ts --outdir=out --metafile=meta.json", ["glob:out/**", "meta.json"]],
    ["esbuild src/a.ts --bundle", []], // to stdout
    ["npx vite build", ["glob:public/app/**"]],
    ["vite build --outDir www", ["glob:www/**"]],
    ["vite build site", ["glob:site/dist/**"]], // a root of its own, with no config there: its dist/
    ["vite", []], // the dev server
    ["rollup -c", ["dist/bundle.cjs", "dist/bundle.cjs.map", "dist/bundle.css", "glob:dist/**", "glob:es/**", "lib/index.css", "lib/index.mjs", "lib/index.mjs.map"]], // the config's output, not the plugin's file; pkg.module: package.json's, and dist/
    ["rollup src/a.js -o out.js", ["out.css", "out.js", "out.js.map"]],
    ["rollup -c missing.config.mjs", ["unknown:."]],
    ["rollup src/a.js", []],
    ["webpack", ["glob:build/js/**"]], // output.path, not resolve.alias's
    ["./node_modules/.bin/webpack --output-path o2", ["glob:o2/**"]],
    ["webpack serve", []],
    ["tsup src/index.ts", ["glob:dist/**"]],
    ["cd lib && tsup", ["glob:lib/dist/**"]],
    ["parcel build src/index.html", ["glob:dist/**"]],
    ["npx babel src -d lib", ["glob:lib/**"]],
    ["swc src/a.ts -o a.js", ["a.css", "a.js", "a.js.map"]],
    ["babel src/u.js -o src/u.out.js", ["src/u.out.css", "src/u.out.js", "src/u.out.js.map"]],
    ["babel src/a.js", []],
    ["next build", ["glob:.next/**"]],
    ["cd web && vite build", ["glob:web/build/**", "glob:web/dist/**"]], // a computed outDir: the paths it names, and dist/
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  // Through a package's script: another session holds a file of the build's output.
  file(box, "package.json", JSON.stringify({ module: "lib/index.mjs", scripts: { build: "tsc --noEmit && vite build" } }));
  file(box, "public/app/index.html", "");
  claims(["take", join(box.project, "public/app/index.html"), "--dir", box.dir, "--holder", "other", "--purpose", "a hand-made page"]);
  assert.is(bash(box, "npm run build"), "deny");
  assert.is(bash(box, "npx vite build --outDir elsewhere"), undefined); // u.ts, under the project, is not where it writes
  assert.is(bash(box, "npx rollup -c && npx webpack"), undefined, "a computed output is no write anywhere in the project");
});

Builds.run();
