// Writes through forms of bash the grammar reads otherwise than bash does, found by running each
// command in real bash and comparing what it changed on disk with what the shell reader found:
// substitutions in an input redirection's target, a compound command after `!`, `time` or
// `coproc`, a heredoc's delimiter glued to an operator or spelled `$'…'`, a command named by a glob
// or by an expansion alone, a function whose body is no group, nested backticks, pushd's stack, a
// HOME set in the script, commands that make files from their options, and a backslash at a
// line's start (`true<newline>\rm f`: one command to the grammar, two to bash). Another session
// holds u.ts; session s2 runs each command through the Claude hook of the real CLI.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { allows, bash, event, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Forms = suite<Context>("claims hook: bash forms the grammar misreads");
Forms.before.each((context) => {
  context.box = heldBox();
});
Forms.after.each((context) => context.box.cleanup());

/** Each case: what bash writes there (the reader may name more: a word it cannot tell from a file). */
async function finds(box: Sandbox, cases: Array<[string, string[]]>): Promise<void> {
  for (const [command, written] of cases) {
    const found = await writes(box, command);
    for (const path of written) assert.ok(found.includes(path), `${JSON.stringify(command)} writes ${path}; the reader found ${JSON.stringify(found)}`);
  }
}

Forms("should read the commands that name an input redirection's file, a here-string and a process substitution read from", async ({ box }) => {
  await finds(box, [
    ["while read -r l; do :; done < <(rm u.ts)", ["u.ts"]],
    ["mapfile -t a < <(rm u.ts)", ["u.ts"]],
    ["exec 3< <(rm u.ts)", ["u.ts"]],
    ['cat < "$(rm u.ts; echo /dev/null)"', ["u.ts"]],
    ["cat 3< `rm u.ts; echo /dev/null`", ["u.ts"]],
    ["{ :; } <<< $(rm u.ts; echo /dev/null)", ["u.ts"]],
  ]);
  assert.equal(await writes(box, 'while read -r f; do echo "$f"; done < <(find . -name "*.ts")'), [], "a loop over what find lists writes nothing");
  assert.is(bash(box, "while read -r l; do echo $l; done < <(rm u.ts)"), "deny");
});

Forms("should read a compound command after `!`, `time` and `coproc` as bash does", async ({ box }) => {
  await finds(box, [
    ["! { rm u.ts; }", ["u.ts"]],
    ["! if true; then rm u.ts; fi", ["u.ts"]],
    ["if ! { rm u.ts; }; then :; fi", ["u.ts"]],
    ["( ! { rm u.ts; } )", ["u.ts"]],
    ["! ! ( rm u.ts )", ["u.ts"]],
    ["! ! case x in x) rm u.ts;; esac", ["u.ts"]],
    ["time ( rm u.ts )", ["u.ts"]],
    ["time -p for i in 1; do rm u.ts; done", ["u.ts"]],
    ["true && time { rm u.ts; }", ["u.ts"]],
    ["while ! if true; then rm u.ts; fi; do break; done", ["u.ts"]],
    ["coproc ( rm u.ts ); wait", ["u.ts"]],
    ["coproc N if true; then rm u.ts; fi", ["u.ts"]],
    ["coproc { { rm u.ts; } >/dev/null; }", ["u.ts"]],
    ["coproc { for i in 1; do mv u.ts w.ts; done; }", ["u.ts", "w.ts"]],
  ]);
  // A group's `cd` moves this shell: where the rest runs is not known here (in coproc's subshell, it stays).
  assert.equal(await writes(box, "! { cd src; }; rm u.ts"), ["unknown:u.ts"]);
  assert.equal(await writes(box, "coproc { cd src; }; rm u.ts"), ["u.ts"]);
  assert.equal(await writes(box, "time npm test | tail"), []);
  assert.equal(await writes(box, "! grep -q x u.ts"), []);
  assert.is(bash(box, "time ( rm u.ts )"), "deny");
});

Forms("should end a heredoc's delimiter where bash does: before an operator glued to it, and after `$'…'`", async ({ box }) => {
  await finds(box, [
    ["cat <<EOF>u.ts\nhi\nEOF", ["u.ts"]],
    ["cat <<EOF>>u.ts\nhi\nEOF", ["u.ts"]],
    ["cat <<EOF&>u.ts\nhi\nEOF", ["u.ts"]],
    ["cat <<E'O'F>u.ts\nhi\nEOF", ["u.ts"]],
    ["cat <<\\EOF;rm u.ts\nhi\nEOF", ["u.ts"]],
    ["cat <<EOF>/dev/null; rm u.ts\nhi\nEOF", ["u.ts"]],
    ["cat <<EOF 2>&1|tee u.ts\nhi\nEOF", ["u.ts"]],
    ["cat <<EOF 2>&1|tee u.ts\nhi $y\nEOF", ["u.ts"]], // (a body that expands: the grammar took `|tee u.ts` into the redirection)
    ["cat <<EOF >v.ts|tee u.ts\nhi $y\nEOF", ["u.ts", "v.ts"]],
    ["cat <<E'O'F;rm u.ts\nhi\nEOF", ["u.ts"]], // a delimiter quoted in part
    ['cat <<"E"OF>u.ts\nhi\nEOF', ["u.ts"]],
    ["cat <<'EOF'\"\"&>u.ts\nhi\nEOF", ["u.ts"]],
    ["cat <<$'EOF'\nhi\nEOF\nrm u.ts", ["u.ts"]],
    ["cat <<$\"EOF\" > u.ts\nhi\nEOF", ["u.ts"]],
    ["x=$(cat <<$'EOF'\nhi\nEOF\n); rm u.ts", ["u.ts"]],
  ]);
  assert.is(bash(box, "cat <<EOF>u.ts\nhi\nEOF"), "deny");
});

Forms("should judge a command named by a glob or by an expansion alone, whose words the text does not give", async ({ box }) => {
  await finds(box, [
    ["/bin/r? u.ts", ["u.ts"]],
    ["/usr/bin/[r]m u.ts", ["u.ts"]],
    ["$(echo rm u.ts)", ["unknown:."]],
    ["x=$(echo rm u.ts); $x", ["unknown:."]],
    ["$CMD", ["unknown:."]],
    ["`cat cmd.txt`", ["unknown:."]],
    ['$SHELL -c "rm u.ts"', ["u.ts"]],
    ['"$BASH" -c "rm u.ts"', ["u.ts"]],
  ]);
  assert.equal(await writes(box, "$PYTHON x.py"), ["x.py"], "an expansion with arguments: each judged as written");
  // A loop's values are the commands: each read.
  assert.equal(await writes(box, 'for c in "rm u.ts" "ls"; do $c; done'), ["u.ts"]);
  assert.equal(await writes(box, 'for c in "npm test" "npm run lint"; do $c; done'), []);
  // `[` and `[[` after a wrapper are tests, not globs.
  assert.equal(await writes(box, "time [ -f src/a.ts ]"), []);
  assert.equal(await writes(box, "sudo [[ -e u.ts ]]"), []);
  assert.is(bash(box, "`cat cmd.txt`"), "deny");
});

Forms("should read a function whose body is a loop or case, escaped backticks and heredocs inside backticks, `$((` opening a subshell, pushd's stack and a HOME set in the script", async ({ box }) => {
  await finds(box, [
    ["f() for i in 1; do rm u.ts; done; f", ["u.ts"]],
    ["f() while true; do rm u.ts; break; done; f", ["u.ts"]],
    ["f() case x in x) rm u.ts;; esac; f", ["u.ts"]],
    ["echo `echo \\`rm u.ts\\``", ["u.ts"]],
    ["echo `cat <<A <<B; mv u.ts w.ts\na\nA\nb\nB`", ["u.ts", "w.ts"]], // heredocs inside backticks
    ["x=`cat <<EOF>u.ts\nhi $(true)\nEOF\n`\nrm v.ts", ["u.ts", "v.ts"]],
    // `$((` and `((` that open a subshell, not arithmetic (bash reads them so once arithmetic fails).
    ["x=$((sed -i s/1/2/ u.ts) | cat)", ["u.ts"]],
    ["echo $((cd src && rm u.ts) 2>&1)", ["src/u.ts"]],
    ["((cd src; rm u.ts); ls)", ["unknown:u.ts"]], // (no src here: a cd that may fail)
    // Where bash is after these, the text does not fix: any u.ts.
    ["pushd -n src; popd; rm u.ts", ["unknown:u.ts"]],
    ["pushd src; pushd ../d; popd +1; rm u.ts", ["unknown:u.ts"]],
    ["pushd src; dirs -c; popd; rm u.ts", ["unknown:u.ts"]],
    ['pushd "$d"; rm u.ts', ["unknown:u.ts"]],
    ["HOME=$PWD/src; cd; rm u.ts", ["src/u.ts"]],
    ["HOME=$PWD/src; rm ~/u.ts", ["src/u.ts"]],
    ["HOME=$PWD/src cd; rm u.ts", ["src/u.ts"]],
    ["export HOME=$(mktemp -d); cd; rm u.ts", ["unknown:u.ts"]],
    ["HOME=$x; git config --global a.b c", ["unknown:.gitconfig"]],
  ]);
  assert.equal(await writes(box, "pushd src; popd; rm u.ts"), ["u.ts"]);
  assert.equal(await writes(box, "x=$(( (1+2) * 3 )); y=$((x+(2*3))); (( x++ )); rm u.ts"), ["u.ts"], "arithmetic stays arithmetic");
});

Forms("should name the files made by shuf -o, sdiff -o, split, csplit, mkfifo, mknod, link, mktemp, a redirection to -, and the backups and archives kept beside a file", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["shuf -o u.ts list.txt", ["u.ts"]],
    ["sdiff -o u.ts a b", ["u.ts"]],
    ["split -l1 list.txt u.", ["glob:u.*"]],
    ["split list.txt", ["glob:x*"]],
    ["csplit -f u. list.txt 2", ["glob:u.*"]],
    ["csplit list.txt 2", ["glob:xx*"]],
    ["mkfifo w.ts", ["w.ts"]],
    ["mknod w.ts p", ["w.ts"]],
    ["link u.ts w.ts", ["w.ts"]],
    ["mktemp u.XXX", ["glob:u.*"]],
    ["mktemp -p src u.XXXXXX", ["glob:src/u.*"]],
    ["mktemp -p .", ["glob:tmp.*"]],
    ["mktemp -p src", ["glob:src/tmp.*"]],
    ["TMPDIR=$PWD mktemp", ["glob:tmp.*"]],
    ["echo x > -", ["-"]],
    // Beside the file written, the one a tool keeps or makes of it.
    ["gzip u.ts", ["u.ts", "u.ts.gz"]],
    ["xz -S .lz u.ts", ["u.ts", "u.ts.lz"]],
    ["sed -i.bak s/1/2/ u.ts", ["u.ts", "u.ts.bak"]],
    ["sed -i'old/*' s/1/2/ u.ts", ["old/u.ts", "u.ts"]],
    ["perl -pi.orig -e s/1/2/ u.ts", ["u.ts", "u.ts.orig"]],
    // Temp space, a directory, or nothing made.
    ["tmp=$(mktemp)", []],
    ["mktemp --tmpdir u.XXX", []],
    ["mktemp -d build.XXX", []],
    ["echo x >&-", []],
    ["shuf list.txt", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  assert.is(bash(box, "split -l1 list.txt u."), "deny", "u.ts is one of the pieces split may make");
});

Forms("should split an unquoted variable as bash does (also at an IFS the script sets), follow aliases ending in a blank, a cd with an option or in a function, and name what git clone and git init make", async ({ box }) => {
  await finds(box, [
    // Word splitting: the words a known value becomes.
    ['IFS=,; x=rm,u.ts; $x', ["u.ts"]],
    ['x="r u.ts"; rm -$x', ["u.ts"]],
    ['IFS=.; x=r.w; rm -$x u.ts', ["u.ts", "w"]], // (bash runs rm -r w u.ts)
    ['IFS=,; for f in w.ts,u.ts; do rm $f; done', ["u.ts", "w.ts"]],
    ['x="rm u.ts"; $x w.ts', ["u.ts", "w.ts"]],
    ["IFS=$(cat sep); x=a; rm $x", ["unknown:."]], // an IFS the text does not fix: any file
    ["x=notes,u.ts; printf -v IFS ,; rm -f $x", ["unknown:."]], // IFS set otherwise than by an assignment of its own
    ["f() { IFS=,; }; f; x=notes,u.ts; rm -f $x", ["unknown:."]],
    ['x=notes,u.ts; IFS=, eval "rm -f \\$x"', ["unknown:."]],
    // An alias ending in a blank: the next word is an alias too (`alias sudo="sudo "`).
    ['alias r="rm " g=u.ts; r g', ["u.ts"]],
    ['alias s="sudo " r="rm "; alias g=u.ts; s r g', ["u.ts"]],
    ['alias sudo="sudo "; sudo rm u.ts', ["u.ts"]],
    // Where a cd bash refuses (`-@` without extended attributes) or a function's bare `cd;` leaves the shell: not known.
    ["cd -@ src; rm u.ts", ["unknown:u.ts"]],
    ["HOME=$PWD/src; f() { cd; }; f; rm u.ts", ["unknown:u.ts"]],
    ["f() { cd src;}; f; rm u.ts", ["unknown:u.ts"]],
    // git clone and git init write a tree of their own.
    ["git clone https://example.com/org/src.git", ["glob:src/**"]],
    ["git clone -b main ../other src", ["glob:src/**"]],
    ["git init src", ["glob:src/.git/**", "src/.git"]],
    ["git -C src init", ["glob:src/.git/**"]],
  ]);
  assert.equal(await writes(box, "x=a,b; rm $x"), ["a,b"], "without IFS set, a comma splits nothing");
  assert.equal(await writes(box, "while IFS= read -r l; do echo $l; done < notes; x=a; rm $x"), ["a"], "IFS set for read alone");
  file(box, "src/a.ts", "export const a = 1;\n");
  assert.equal(await writes(box, "cd -P src; rm u.ts"), ["src/u.ts"]);
  assert.equal(await writes(box, "git clone --help"), []);
  assert.is(bash(box, "IFS=,; x=rm,u.ts; $x"), "deny");
  assert.is(bash(box, 'alias r="rm " g=u.ts; r g'), "deny");
});

Forms("should apply an alias's text, read an inline program's shell variables, follow a function calling one that cds, count ((i++)), and name npm's, git archive's, zip's and uniq's outputs", async ({ box }) => {
  file(box, "package.json", "{}\n");
  file(box, "notes", "n\n");
  file(box, "src/a.ts", "export const a = 1;\n");
  file(box, "d/.keep", "");
  await finds(box, [
    // An alias is its text (one word too), not again inside itself.
    ["alias g=git; g checkout -- u.ts", ["u.ts"]],
    ['alias sed="sed -i.bak"; sed s/a/b/ u.ts', ["u.ts", "u.ts.bak"]],
    // A shell variable inside an inline program or an unquoted heredoc's program.
    ["python3 -c \"open('$x','w')\"", ["unknown:."]],
    ["python3 <<EOF\nopen('$x','w')\nEOF", ["unknown:."]],
    ["f=u.ts; python3 <<EOF\nopen('$f','w')\nEOF", ["u.ts"]],
    ["node -e \"require('fs').writeFileSync('$x', '')\"", ["unknown:."]],
    ["find src -name '*.ts' -exec perl -e 'open(my $h, \">\", \"{}\")' \\;", ["unknown:."]], // find's {} inside a program's text
    ["find . -name notes -exec python3 -c \"open('{}', 'w')\" \\;", ["unknown:."]],
    ["python3 -c 'import sys; open(sys.argv[1], \"w\")' notes", ["notes"]], // an existing name with no extension
    ["read -r f < notes; python3 - \"$f\" <<'EOF'\nimport sys\nopen(sys.argv[1], 'w')\nEOF", ["unknown:."]], // an argument the text does not fix
    // Where a function that calls one that cds leaves the shell; a counter ((i++)) changes.
    ["f() { cd src; }; g() { f; }; g; rm u.ts", ["unknown:u.ts"]],
    ["f() { eval cd src; }; f; rm u.ts", ["unknown:u.ts"]],
    ["i=1; while [ $i -le 3 ]; do touch g$i; ((i++)); done", ["glob:g*"]],
    // npm's options before its operand, its --prefix and init; git archive, git bundle, zip --move, uniq -.
    ["npm version --no-git-tag-version minor", ["package.json"]],
    ["npm pkg --json set a=1", ["package.json"]],
    ["pnpm pkg set a=1", ["package.json"]],
    // Tools that rewrite the manifest: npm-check-updates -u, sort-package-json.
    ["npx npm-check-updates -u", ["package.json"]],
    ["ncu --deep -u", ["glob:**/package.json"]],
    ["npx sort-package-json", ["package.json"]],
    ["pnpm version patch", ["package.json"]], // pnpm's and yarn's version too
    ["yarn version --new-version 1.2.3", ["package.json"]],
    ["yarn version", ["package.json"]], // yarn asks for the version, then writes it
    ["npm i --prefix d ./lib", ["d/package.json", "glob:d/node_modules/**"]],
    ["cd d && npm init -y", ["d/package.json"]],
    ["git archive -o out.tar HEAD", ["out.tar"]],
    ["git bundle create x.bundle main", ["x.bundle"]],
    ["zip --move out.zip u.ts", ["out.zip", "u.ts"]],
    ["cat list.txt | uniq - u.ts", ["u.ts"]],
    ["python3 -m json.tool notes u.ts", ["u.ts"]],
    ["python3 -m venv .venv", ["glob:.venv/**"]],
    ["perl -e 'open(F, \">notes\")'", ["notes"]], // perl's open of a name with no extension, mode in the string or before it
    ["perl -e 'open my $f, \">>\", \"notes\"; print $f 1'", ["notes"]],
    // After shopt -s nocaseglob, a glob matches names in any case.
    ["shopt -s nocaseglob; rm -f U.T*", ["u.ts"]],
    ["shopt -s nocaseglob; rm -f [U].ts", ["u.ts"]],
    // Scaffolders: the whole directory they make.
    ["npm create vite@latest app -- --template react", ["glob:app/**"]],
    ["npx create-next-app@latest .", ["glob:**"]],
    ["npx degit user/repo site", ["glob:site/**"]],
    ["yarn create vite app", ["glob:app/**"]],
    // A variable inside braces after other text, which the grammar splits into two words.
    ["old=u; new=w; mv {$old,$new}.ts", ["u.ts", "w.ts"]],
    ["n=u; rm -f {notes,$n.ts}", ["notes", "u.ts"]],
    // A variable exported earlier in the command is the environment of the commands after it.
    ["export SIMPLE_BACKUP_SUFFIX=.old; cp -b notes u.ts", ["u.ts", "u.ts.old"]],
    // A function defined again after a call; a sequence of one; variables set by printf's -v spelled otherwise and after time.
    ["f() { :; }; f; f() { rm u.ts; }; f", ["u.ts"]],
    ["touch u.t{s..s}", ["u.ts"]],
    ['f=w.ts; printf -v "f" u.ts; rm $f', ["unknown:."]],
    ["f=w.ts; printf -vf u.ts; rm $f", ["unknown:."]],
    ["f=w.ts; time f=u.ts; rm $f", ["unknown:."]],
    // A function with a command's name runs instead of the command.
    ["git() { rm -f u.ts; }; git status", ["u.ts"]],
    ["cp() { command cp \"$@\"; echo x > u.ts; }; cp notes w.ts", ["u.ts", "w.ts"]],
    ["cd() { builtin cd src; }; cd /; rm u.ts", ["unknown:u.ts"]],
  ]);
  assert.equal(await writes(box, 'alias rm="rm -i"; rm u.ts'), ["u.ts"], "an alias naming itself is read once");
  assert.equal(await writes(box, "python3 -c \"print('$x')\""), [], "a program that writes nothing");
  assert.equal(await writes(box, 'alias ll="ls -l"; ll'), []);
  assert.equal(await writes(box, "pnpm version"), [], "pnpm version alone prints the versions");
  assert.equal(await writes(box, "ncu"), [], "npm-check-updates without -u lists what is out of date");
  assert.equal(await writes(box, "ncu -u --packageFile 'packages/*/package.json'"), ["glob:packages/*/package.json"], "a glob: each manifest it matches");
  assert.equal(await writes(box, "sort-package-json --check"), []);
  // jest and vitest -u rewrite snapshots, also inline in the test files; a plain run is judged as writing nothing.
  file(box, "package.json", "{}");
  file(box, "src/u.test.ts", "test('u', () => expect(1).toMatchInlineSnapshot());\n");
  claims(["take", join(box.project, "src/u.test.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "its tests"]);
  assert.is(bash(box, "npx vitest run -u"), "deny");
  assert.is(bash(box, "npm exec jest -- --updateSnapshot"), "deny");
  assert.is(bash(box, "npx vitest run"), undefined);
  // Test files the config names besides the default ones (vitest's include, jest's testMatch): their inline snapshots too.
  file(box, "cfg/package.json", JSON.stringify({ name: "cfg", jest: { testMatch: ["<rootDir>/checks/**/*.ts"] } }));
  file(box, "cfg/vitest.config.ts", "export default { test: { include: ['tests/**/*.ts', \"spec/*.mjs\"] } };\n");
  assert.equal((await writes(box, "cd cfg && npx vitest run -u")).filter((path) => !/__|test,spec/.test(path)), ["glob:cfg/spec/*.mjs", "glob:cfg/tests/**/*.ts"]);
  assert.equal((await writes(box, "cd cfg && npx jest -u")).filter((path) => !/__|test,spec/.test(path)), ["glob:cfg/checks/**/*.ts"]);
  file(box, "cfg/vitest.config.ts", "const dirs = ['a'];\nexport default { test: { include: dirs.map((d) => `${d}/**`).concat(['b/**']) } };\n");
  assert.ok((await writes(box, "cd cfg && npx vitest run -u")).includes("glob:cfg/**"), "a list the text does not give: anything in the project");
  // So do bun's test runner and ava with -u.
  assert.is(bash(box, "bun test -u"), "deny");
  assert.is(bash(box, "bun test --update-snapshots src"), "deny");
  assert.is(bash(box, "bun test"), undefined);
  assert.equal(await writes(box, "npx ava -u"), ["glob:**/*.snap", "glob:**/*.snap.md", "glob:**/__snapshots__/**", "glob:**/snapshots/**"]);
  assert.equal(await writes(box, "npx ava"), []);
  assert.is(bash(box, "npx react-scripts test -u --watchAll=false"), "deny"); // jest's options, handed on
  assert.equal(await writes(box, "deno test -A -- --update"), ["deno.lock", "glob:**/__snapshots__/**"]);
  assert.equal(await writes(box, "dune promote"), ["glob:**"]);
  assert.equal(await writes(box, "npx jest --coverage --outputFile=out/r.json"), ["glob:coverage/**", "out/r.json"]);
  // A flag =false is off; coverage and snapshots where --rootDir, --root or --config put the project; reports where the options or config say.
  assert.equal(await writes(box, "npx jest --coverage=false"), []);
  assert.equal(await writes(box, "npm pkg set scripts.x=y"), ["package.json"], "pkg set rewrites the manifest alone: no install runs");
  // npm config set rewrites an npmrc: the project's with --location=project, the user's by default.
  assert.equal(await writes(box, "npm config set audit=false --location=project"), [".npmrc"]);
  assert.equal(await writes(box, "npm config delete audit -L project"), [".npmrc"]);
  assert.equal(await writes(box, "pnpm config set audit false --location project"), [".npmrc"]);
  assert.equal((await writes(box, "npm config set audit false")).map((path) => path.replace(/^.*\//, "~/")), ["~/.npmrc"]);
  assert.equal(await writes(box, "npm config get audit"), []);
  assert.equal(await writes(box, "npm config set audit false -g"), []);
  assert.equal(await writes(box, "npm pkg set scripts.x=y --workspaces"), ["package.json", "unknown:package.json"]);
  assert.is(bash(box, "npx vitest run -u --update=false"), undefined);
  file(box, "pkg/package.json", "{}");
  assert.equal(await writes(box, "npx jest --rootDir pkg -u"), ["glob:pkg/**/*.{test,spec}.*", "glob:pkg/**/__snapshots__/**", "glob:pkg/**/__tests__/**"]);
  assert.equal(await writes(box, "npx vitest -r pkg --coverage"), ["glob:pkg/coverage/**"]);
  assert.equal(await writes(box, "npx vitest --coverage --coverage.reportsDirectory=out/cov --outputFile.json=r.json"), ["glob:out/cov/**", "r.json"]);
  // Given with a space, as vitest takes it too (it was read as coverage/).
  assert.equal(await writes(box, "npx vitest run --coverage --coverage.reportsDirectory out/cov"), ["glob:out/cov/**"]);
  assert.equal(await writes(box, "npx jest --coverage --coverageDirectory reports"), ["glob:reports/**"]);
  file(box, "pkg/jest.config.js", "module.exports = { collectCoverage: true, coverageDirectory: '<rootDir>/cov' };\n");
  assert.equal(await writes(box, "npx jest -c pkg/jest.config.js"), ["glob:pkg/cov/**"], "coverage on in the config, where it says");
  // prisma: format and db pull rewrite the schema, generate the generators' outputs, migrate dev the migrations too.
  file(box, "prisma/schema.prisma", 'generator client {\n  provider = "prisma-client-js"\n  output   = "../src/generated/client"\n}\n');
  claims(["take", join(box.project, "prisma/schema.prisma"), "--dir", box.dir, "--holder", "other", "--purpose", "the data model"]);
  assert.is(bash(box, "npx prisma format"), "deny");
  assert.is(bash(box, "npx prisma@6 format"), "deny", "a versioned package is the package");
  assert.is(bash(box, "bunx prisma@6.1.0 db pull"), "deny");
  assert.is(bash(box, "npx prisma migrate status"), undefined);
  assert.equal(await writes(box, "npx prisma format --check"), [], "--check only says whether it would");
  assert.equal(await writes(box, "npx prisma db pull --print"), []);
  assert.equal(await writes(box, "npx prisma generate"), ["glob:node_modules/.prisma/**", "glob:src/generated/client/**"]);
  assert.equal(await writes(box, "npx prisma migrate dev --name init --skip-generate"), ["glob:prisma/migrations/**"]);
  // A schema folder: each file's generators (an output with a comment after it too).
  file(box, "prisma/schema.prisma", "");
  spawnSync("rm", [join(box.project, "prisma/schema.prisma")]);
  file(box, "prisma/schema/gen.prisma", 'generator client {\n  output = "../../lib/client" // generated\n}\n');
  assert.equal(await writes(box, "npx prisma generate"), ["glob:lib/client/**", "glob:node_modules/.prisma/**"]);
  // A Prisma config file (read where prisma runs) names the schema, the migrations and the seed command, relative to itself.
  file(box, "prisma.config.ts", 'import { defineConfig } from "prisma/config";\nexport default defineConfig({\n  schema: "db/schema.prisma",\n  migrations: {\n    path: "db/migrations",\n    seed: "node db/seed.js",\n  },\n});\n');
  file(box, "db/schema.prisma", 'generator client {\n  output = "../gen"\n}\n');
  file(box, "db/seed.js", 'require("node:fs").writeFileSync("seeded.txt", "1");\n');
  assert.equal(await writes(box, "npx prisma format"), ["db/schema.prisma"]);
  // (migrate dev may reset the database, which runs the seed command too: seeded.txt.)
  assert.equal(await writes(box, "npx prisma migrate dev"), ["glob:db/migrations/**", "glob:gen/**", "glob:node_modules/.prisma/**", "seeded.txt"]);
  assert.equal(await writes(box, "npx prisma db seed"), ["seeded.txt"], "the seed command is read as a command");
  file(box, "prisma.config.ts", 'import path from "node:path";\nexport default { schema: path.join("db", "schema.prisma") };\n');
  assert.equal(await writes(box, "npx prisma format"), ["unknown:schema.prisma"], "a schema the config computes is not known");
  spawnSync("rm", [join(box.project, "prisma.config.ts")]);
  // Without one, package.json's prisma.seed; and prisma run from a subdirectory reads the schema there too.
  file(box, "package.json", '{"prisma": {"seed": "touch seeded-too.txt"}}');
  assert.equal(await writes(box, "npx prisma db seed"), ["seeded-too.txt"]);
  file(box, "sub/prisma/schema.prisma", 'generator client {\n  output = "../out"\n}\n');
  assert.equal(await writes(box, "cd sub && npx prisma generate"), ["glob:lib/client/**", "glob:node_modules/.prisma/**", "glob:sub/out/**"]);
  file(box, "package.json", "{}");
  // shadcn add: where components.json's aliases lead (through tsconfig's paths), its CSS file, and what it installs.
  file(box, "tsconfig.json", '{"compilerOptions": {"paths": {"@/*": ["./src/*"]}}}');
  file(box, "components.json", '{"tailwind": {"css": "src/app/globals.css"}, "aliases": {"ui": "@/components/ui", "utils": "@/lib/utils"}}');
  assert.equal(await writes(box, "npx shadcn@latest add button"), ["bun.lock", "bun.lockb", "glob:node_modules/**", "glob:src/components/ui/**", "glob:src/lib/utils.*", "package-lock.json", "package.json", "pnpm-lock.yaml", "src/app/globals.css", "yarn.lock"]);
  claims(["take", join(box.project, "src/app/globals.css"), "--dir", box.dir, "--holder", "other", "--purpose", "the theme"]);
  assert.is(bash(box, "pnpm dlx shadcn@latest add card"), "deny", "it adds its CSS variables to globals.css, which another session holds");
  assert.is(bash(box, "npx shadcn@latest --help"), undefined);
  spawnSync("rm", [join(box.project, "components.json"), join(box.project, "tsconfig.json")]);
  assert.equal(await writes(box, "i=1; touch g$i"), ["g1"]);
  assert.is(bash(box, "alias g=git; g checkout -- u.ts"), "deny");
  assert.is(bash(box, "python3 -c \"open('$x','w')\""), "deny");
});

Forms("should judge an archive a program unpacks by its members (any file for a tar), and read what follows python's -m MODULE as the module's arguments", async ({ box }) => {
  await finds(box, [
    // A tar's members may be absolute or climb out with `..`: any file; a zip's stay under its destination.
    ["python3 -c \"import tarfile; tarfile.open('a.tar').extractall()\"", ["unknown:."]],
    ["python3 -c \"import shutil; shutil.unpack_archive('a.zip')\"", ["unknown:."]],
    ["python3 -c \"import zipfile; zipfile.ZipFile('a.zip').extractall()\"", ["glob:**"]],
    ["python3 -c \"import zipfile; zipfile.ZipFile('a.zip').extractall(d)\"", ["unknown:."]],
    ["python3 -c \"import zipfile; zipfile.ZipFile('a.zip').extract('u.ts', '../x')\"", ["unknown:."]],
    ["node -e \"require('tar').x({ file: 'a.tgz' })\"", ["unknown:."]],
    ["node -e \"const AdmZip = require('adm-zip'); new AdmZip('a.zip').extractAllTo('.')\"", ["glob:**"]],
    // python3 -m zipfile and -m tarfile as commands; options after -m MODULE are the module's.
    ["python3 -m zipfile -e a.zip .", ["glob:**"]],
    ["python3 -m zipfile -c u.ts notes", ["u.ts"]],
    ["python3 -m tarfile -e a.tar", ["unknown:."]],
    ["python3 -m tarfile --filter data -e a.tar .", ["glob:**"]],
    ["python3 -m json.tool --indent 2 notes u.ts", ["u.ts"]],
    ["python3 -c \"import sys; open(sys.argv[2], 'w')\" -v u.ts", ["u.ts"]],
  ]);
  assert.equal(await writes(box, "python3 -m zipfile -l a.zip"), [], "listing an archive writes nothing");
  assert.equal(await writes(box, "python3 -c \"import zipfile; print(zipfile.ZipFile('a.zip').namelist())\""), ["a.zip"], "reading its names: the archive alone, as any path in a program");
  assert.is(bash(box, "python3 -c \"import tarfile; tarfile.open('a.tar').extractall()\""), "deny");
  assert.is(bash(box, "python3 -m zipfile -e a.zip ."), "deny");
});

Forms("should name what tsc -b -v, a command line's declarationDir beside a config's outDir, ${configDir}, awk's joined output names, npx --no, rustfmt's modules, make's computed := and ?=, and a diff's quoted names write", async ({ box }) => {
  file(box, "tsconfig.json", '{ "compilerOptions": { "outDir": "dist" } }\n');
  file(box, "web/tsconfig.json", '{ "compilerOptions": { "outDir": "${configDir}/cdir" } }\n');
  await finds(box, [
    ["tsc -b -v", ["glob:dist/**"]], // -v is --verbose in build mode
    ["npx tsc --build -v", ["glob:dist/**"]],
    ["tsc --declarationDir types", ["glob:dist/**", "glob:types/**"]],
    ["tsc -p web", ["glob:web/cdir/**"]],
    // awk's output name joined from a string and what follows it: any name starting so.
    ["awk '{print > \"u\" \".ts\"}' notes", ["glob:u*"]],
    ["awk '{print > \"split_\" NR \".txt\"}' notes", ["glob:split_*"]],
    ["awk '{print $1 >> \"log_\" $1}' notes", ["glob:log_*"]],
    // npx's and npm exec's --no is a flag, not the start of --node-options taking the command.
    ["npx --no prettier -- --write u.ts", ["u.ts"]],
    ["npm exec --no prettier -- --write u.ts", ["u.ts"]],
  ]);
  // rustfmt formats the modules a file declares: every .rs file under its directory, unless told to skip them.
  await finds(box, [["rustfmt rs/main.rs", ["rs/main.rs", "glob:rs/**/*.rs"]]]);
  assert.equal(await writes(box, "rustfmt --skip-children rs/main.rs"), ["rs/main.rs"]);
  // A make variable set with := from what make computes ($(wildcard …)) is still computed where it is used; ?= yields to the environment.
  file(box, "Makefile", "SRCS := $(wildcard c/*.c)\nOUT ?= dflt.txt\nformat:\n\tclang-format -i $(SRCS)\nall:\n\techo x > $(OUT)\n");
  await finds(box, [
    ["make format", ["unknown:."]],
    ["OUT=u.ts make all", ["u.ts"]],
    ["export OUT=u.ts; make all", ["u.ts"]],
  ]);
  assert.equal(await writes(box, "make all"), ["dflt.txt"]);
  // A variable given a value on both sides of a conditional is either: where it is used, a place make decides.
  file(box, "both.mk", "ifeq ($(shell uname -s),Linux)\nOUT_DIR = build/linux\nelse\nOUT_DIR = build/mac\nendif\nONE = one.txt\nall:\n\techo x > $(OUT_DIR)/u.ts\n\techo > $(ONE)\n");
  assert.equal(await writes(box, "make -f both.mk"), ["one.txt", "unknown:u.ts"]);
  // A diff's names as git writes them: C-quoted where they need it, with spaces, a rename with no content change.
  file(box, "quoted.diff", 'diff --git "a/caf\\303\\251.md" "b/caf\\303\\251.md"\n--- "a/caf\\303\\251.md"\n+++ "b/caf\\303\\251.md"\n@@ -1 +1 @@\n-a\n+b\n');
  file(box, "rename.diff", "diff --git a/u.ts b/v new.ts\nsimilarity index 100%\nrename from u.ts\nrename to v new.ts\n");
  await finds(box, [
    ["git apply quoted.diff", ["café.md"]],
    ["patch -p1 < quoted.diff", ["café.md"]],
    ["git apply rename.diff", ["u.ts", "v new.ts"]],
  ]);
  assert.equal(await writes(box, "tsc -v"), [], "tsc -v prints its version");
  assert.equal(await writes(box, "awk '{print > \"out.txt\"}' notes"), ["out.txt"]);
  assert.is(bash(box, "awk '{print > \"u\" \".ts\"}' notes"), "deny");
});

Forms("should read a git alias from git's config (the repository's, the user's, the command line's) as the command it stands for", async ({ box }) => {
  file(box, ".git/config", '[core]\n\tbare = false\n[alias]\n\tco = checkout\n\tundo = reset --hard HEAD~1 # back one\n\tnuke = "!rm -f notes"\n');
  await finds(box, [
    ["git co -- u.ts", ["u.ts"]],
    ["git undo", ["glob:**"]],
    ["git nuke", ["unknown:."]], // a shell command: any file
    ["git -c alias.x=restore x u.ts", ["u.ts"]],
  ]);
  assert.equal(await writes(box, "git lg"), [], "a word that is no alias and no command of git's writes nothing");
  assert.is(bash(box, "git co -- u.ts"), "deny");
  assert.is(bash(box, "git status"), undefined, "allowed: no answer");
});

Forms("should judge an inline program whose code, not one of its strings, holds a part the text does not fix as writing any file", async ({ box }) => {
  // A variable or a line read at run time is the program, or part of its code: the hook cannot read it.
  await finds(box, [
    ['x=$(cat /tmp/p.py); python3 -c "$x"', ["unknown:."]],
    ['read -r x < notes; python3 -c "$x"', ["unknown:."]],
    ['python3 -c "$PROG"', ["unknown:."]],
    ['python3 -c "print(1); $x"', ["unknown:."]],
    ['node -e "$x"', ["unknown:."]],
    ['node -p "$x"', ["unknown:."]],
    ['perl -e "$x"', ["unknown:."]],
    ['ruby -e "$x"', ["unknown:."]],
    ['php -r "$x"', ["unknown:."]],
    ['deno eval "$x"', ["unknown:."]],
    ["python3 - <<EOF\nprint(1)\n$x\nEOF", ["unknown:."]],
    // In a string that holds code: an f-string's braces.
    ["python3 -c \"print(f'{$x}')\"", ["unknown:."]],
    ["python3 -c \"print(rf'{$x}')\"", ["unknown:."]],
  ]);
  // In one of its strings, or fixed by the text, it is read as before.
  assert.equal(await writes(box, "python3 -c \"print('$f')\""), []);
  assert.equal(await writes(box, "python3 - <<EOF\nprint(\"$x\")\nEOF"), []);
  assert.equal(await writes(box, "python3 -c \"print(f'a {b} $x')\""), [], "outside the f-string's braces");
  assert.equal(await writes(box, "x='print(1)'; python3 -c \"$x\""), []);
  assert.equal(await writes(box, 'deno eval "console.log(1)"'), []);
  // A part that is only ever a number is no code: nothing it can write.
  for (const command of ['python3 -c "import sys; sys.exit($?)"', 'python3 -c "print($RANDOM % 6, $#, ${#args[@]})"', 'node -e "process.exit($?)"']) assert.equal(await writes(box, command), [], command);
  assert.equal(await writes(box, 'python3 -c "print($? + $n)"'), ["unknown:."], "beside one that may be anything");
  // Its operands are no code: the file a loop gives perl to edit is judged as that file.
  assert.equal(await writes(box, 'for f in a.ts b.ts; do perl -pi -e s/a/b/ "$f"; done'), ["a.ts", "b.ts"]);
  assert.equal(await writes(box, 'deno eval "console.log(Deno.args)" "$f"'), []);
  assert.equal(await writes(box, 'python3 -c"$x"'), ["unknown:."], "attached to its option");
  assert.is(bash(box, 'python3 -c "$PROG"'), "deny");
  const refused = event(box, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: 'python3 -c "print($n)"' } });
  assert.match(JSON.parse(refused.stdout).hookSpecificOutput.permissionDecisionReason, `a variable in an inline program's code: python3 -c "print($n)", whose value is better passed in the environment`, "the refusal says how to run it");
  assert.is(bash(box, "python3 -c \"import json; print(json.load(open('$f')))\""), undefined, "allowed: no answer");
});

Forms("should judge a quoted program an inline program evaluates, holding a part the text does not fix, as writing any file", async ({ box }) => {
  // eval's string is code: `$x` in it may be any statement, as in the code itself.
  await finds(box, [
    ["python3 -c \"eval('$x')\"", ["unknown:."]],
    ["node -e \"eval('$x')\"", ["unknown:."]],
    ["node -e \"new Function('$x')()\"", ["unknown:."]],
  ]);
  assert.equal(await writes(box, "python3 -c \"print('$x')\""), [], "a string printed is no code");
  assert.equal(await writes(box, "python3 -c \"eval('1 + 1')\""), []);
});

Forms("should read a command written with a backslash at a line's start as bash does: a command of its own", async ({ box }) => {
  file(box, "inc.sql", "\\! rm u.ts\n");
  for (const command of ["true\n\\rm u.ts", "echo hi\n\\cp a u.ts", "git status\n\n\\tee u.ts", "bash <<'EOF'\necho hi\n\\rm u.ts\nEOF", "sh -c 'echo hi\n\\rm u.ts'"]) {
    assert.is(bash(box, command), "deny", command);
    assert.ok((await writes(box, command)).includes("u.ts"), command);
  }
  // A heredoc's first line: psql's input including a file, whose `\!` runs a command.
  assert.equal(await writes(box, "psql <<'EOF'\n\\i inc.sql\nEOF"), ["unknown:."]);
  assert.equal(await writes(box, "git status\n\\ls -la"), []);
});

Forms("should read a command's input where bash opens it: after its list's cd, as the line left it, through a statement around it, after exec gives the shell one, in a function or script given one", async ({ box }) => {
  file(box, "site/manage.py", "import sys\n");
  file(box, "site/fix.py", "import os; os.remove('../u.ts')\n");
  file(box, "site/ok.py", "print(1)\n");
  // The grammar hangs `< f` on the whole `&&` list; bash opens it for the last command, after the cd.
  for (const command of ["cd site && python3 manage.py shell < fix.py", "cd site && python3 < fix.py", "true && cd site && python3 manage.py shell <<< \"$(cat fix.py)\""]) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.equal(spawnSync("bash", ["-c", "cd site && cat < fix.py"], { cwd: box.project, encoding: "utf8" }).stdout, "import os; os.remove('../u.ts')\n", "bash reads site/fix.py");
  // A file the line itself wrote before reading it is not what is on disk now: any file.
  assert.equal(await writes(box, "cp site/fix.py site/ok.py && python3 site/manage.py shell < site/ok.py"), ["site/ok.py", "unknown:."]);
  assert.equal(await writes(box, "cp site/fix.py site/ok.py && python3 < site/ok.py"), ["site/ok.py", "unknown:."]);
  // A console in a group, a subshell or a loop whose input is redirected reads that input.
  for (const command of ["{ python3 site/manage.py shell; } < site/fix.py", "( python3 site/manage.py shell ) < site/fix.py", "while read -r l; do python3 site/manage.py shell; done < site/fix.py"]) {
    assert.is(bash(box, command), "deny", command);
  }
  // `exec < f` gives the shell its input: each command after with none of its own reads it.
  for (const command of ["exec < site/fix.py; python3 site/manage.py shell", "exec 0< site/fix.py\npython3 site/manage.py shell", "cd site && exec < fix.py; python3 manage.py shell", "command exec < site/fix.py; python3 site/manage.py shell"]) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.equal(await writes(box, "exec 3< site/fix.py; python3 site/manage.py shell"), [], "another descriptor is not its input");
  assert.equal(await writes(box, "exec </dev/null; python3 site/manage.py shell"), []);
  // A function or a script given an input: its commands with none of their own read it (also a function's own `< f`).
  for (const command of ["f() { python3 site/manage.py shell; }; f < site/fix.py", "f() { python3 site/manage.py shell; }; f; f < site/fix.py", "f() { python3 site/manage.py shell; } < site/fix.py; f", "bash -c 'python3 site/manage.py shell'; bash -c 'python3 site/manage.py shell' < site/fix.py", "exec < site/fix.py; bash -c 'python3 site/manage.py shell'"]) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.equal(await writes(box, "f() { python3 site/manage.py shell; }; f"), []);
  // A group, subshell or loop after a pipe reads the pipe; what a subshell's exec gives its shell stays there.
  for (const command of ["cat site/fix.py | (python3 site/manage.py shell)", "cat site/fix.py | { cd site && python3 manage.py shell; }", "cat site/fix.py | while true; do python3 site/manage.py shell; break; done", "bash -c '(exec </dev/null); python3 site/manage.py shell' < site/fix.py", "f() { (exec </dev/null); python3 site/manage.py shell; }; f < site/fix.py"]) {
    assert.is(bash(box, command), "deny", command);
  }
  // A file written by its path with `..` is the one read after a cd back (`sub/../x.py` is x.py).
  assert.equal(await writes(box, "cd site && cat fix.py > ../x.py; cd .. && python3 < x.py"), ["site/../x.py", "unknown:."]);
  assert.equal(await writes(box, "f() { echo hi; }; f < site/fix.py"), []);
  assert.equal(await writes(box, "cd site && python3 manage.py shell < ok.py"), []);
  assert.equal(await writes(box, "python3 site/manage.py shell < site/ok.py"), []);
  assert.equal(await writes(box, "cd site && lua <<'EOF'\nprint(1)\nEOF"), [], "a heredoc is text the line gives, after a cd too");
  assert.is(bash(box, "cd site && python3 manage.py shell < ok.py"), undefined, "allowed");
});

Forms("should judge a program or input file a script the line ran before rewrote as any file: what runs is not what is on disk", async ({ box }) => {
  file(box, "fix.py", "import os\nos.remove('u.ts')\n");
  file(box, "ok.py", "print(1)\n");
  // The scripts a line runs (`bash -c`, a function, a script file) are read after the line: the file read as on disk is asked again.
  for (const command of ["bash -c 'cp fix.py ok.py'; python3 ok.py", "sh -c 'cat fix.py > ok.py' && python3 < ok.py", "f() { cp fix.py ok.py; }; f; python3 ok.py"]) {
    assert.ok((await writes(box, command)).includes("unknown:."), command);
    assert.is(bash(box, command), "deny", command);
  }
  // Also where a later command of the line writes the file too, where the line gave its text first, and in a substitution of the command that reads it.
  for (const command of ["bash -c 'cp fix.py ok.py'; python3 ok.py; rm -f ok.py", "printf 'print(1)\\n' > ok.py; bash -c 'cp fix.py ok.py'; python3 ok.py", "FOO=$(bash -c 'cp fix.py ok.py') python3 ok.py", "python3 ok.py <(bash -c 'cp fix.py ok.py')"]) {
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  // Not a write after the read, nor one of another file, nor a command's own (python -m build), nor a virtual environment a tool makes.
  for (const command of ["python3 ok.py; bash -c 'cp fix.py ok.py'", "bash -c 'cp fix.py new.py'; python3 ok.py", "bash -c 'echo hi'; python3 ok.py", "printf 'print(1)\\n' > ok.py; bash -c 'echo hi'; python3 ok.py", "python -m build", "python3 -m venv .venv && . .venv/bin/activate && python3 ok.py", "uv venv && . .venv/bin/activate"]) {
    assert.not.ok((await writes(box, command)).includes("unknown:."), command);
  }
  allows(box, ["python3 -m venv .venv && . .venv/bin/activate", "python3 -m venv .venv && .venv/bin/python ok.py"]);
});

Forms("should read what follows a function call or a sourced script that gives the shell an input (exec < f) as reading it", async ({ box }) => {
  file(box, "site/fix.py", "import os\nos.remove('u.ts')\n");
  file(box, "site/manage.py", "");
  file(box, "in.sh", "exec < site/fix.py\n");
  file(box, "quiet.sh", "exec </dev/null\n");
  file(box, "calls.sh", "h() { exec < site/fix.py; }\nh\n");
  for (const command of ["f() { exec < site/fix.py; }; f; python3 site/manage.py shell", "g() { exec 0<site/fix.py; }; f() { g; }; f; python3 site/manage.py shell", ". ./in.sh; python3 site/manage.py shell", "source in.sh; python3 site/manage.py shell", "f() { exec 2>&1 < site/fix.py; }; f; python3 site/manage.py shell", "f() { exec 3<&0 < site/fix.py; }; f; python3 site/manage.py shell", ". ./calls.sh; python3 site/manage.py shell"]) {
    assert.is(bash(box, command), "deny", command);
  }
  // Never called, another descriptor, /dev/null: no input the console reads.
  for (const command of ["f() { exec < site/fix.py; }; python3 site/manage.py shell", "f() { exec 3< site/fix.py; }; f; python3 site/manage.py shell", "f() { exec </dev/null; }; f; python3 site/manage.py shell", ". ./quiet.sh; python3 site/manage.py shell"]) {
    assert.equal(await writes(box, command), [], command);
  }
});

Forms("should read what follows a call of a function a sourced script or eval defines after what the call does (cd, exec < f, a rewrite)", async ({ box }) => {
  // (The walk reads a sourced script after the line, so the call is read after it too; what the call changes holds for the commands after it.)
  file(box, "other/w.ts", "x\n");
  file(box, "w.ts", "x\n");
  file(box, "fix.py", "import os\nos.remove('u.ts')\n");
  file(box, "ok.py", "print(1)\n");
  file(box, "site/manage.py", "");
  file(box, "lib.sh", "go() {\n  cd other\n}\ninput() {\n  exec < fix.py\n}\nswap() {\n  cp fix.py ok.py\n}\nlate() {\n  python3 ok.py\n  cp fix.py ok.py\n}\n");
  file(box, "outer.sh", ". ./lib.sh\n");
  assert.is(claims(["take", join(box.project, "other", "w.ts"), "--dir", box.dir, "--holder", "other"]).code, 0);
  for (const command of ["source ./lib.sh; go; rm w.ts", ". ./outer.sh; go; rm w.ts", "eval 'f() { cd other; }'; f; rm w.ts"]) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.equal(await writes(box, "source ./lib.sh; go; rm w.ts"), ["unknown:w.ts"]);
  assert.is(bash(box, "source ./lib.sh; rm w.ts"), undefined, "w.ts here is no one's");
  // A function of a command's name (lib.sh's `npm`) runs for that command, as one the line defines does.
  file(box, "shadow.sh", "npm() {\n  rm -f u.ts\n}\n");
  assert.equal(await writes(box, "source ./shadow.sh; npm test"), ["u.ts"]);
  assert.is(bash(box, "source ./shadow.sh; npm test"), "deny");
  // After the keywords time and coproc too, as bash runs it, and one the line defines.
  for (const command of ["source ./shadow.sh; time npm test", "source ./shadow.sh; time -p npm test", "npm() { rm -f u.ts; }; time npm test", "npm() { rm -f u.ts; }; coproc npm test"]) {
    assert.ok((await writes(box, command)).includes("u.ts"), command);
  }
  for (const command of ["source ./lib.sh; swap; python3 ok.py", "source ./lib.sh; input; python3 site/manage.py shell", "eval 'exec < fix.py'; python3 site/manage.py shell"]) {
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  // A helper whose `cd` is in a substitution or subshell, or that sources a script that moves nothing, leaves the caller where it was.
  file(box, "env.sh", 'project_root() {\n  echo "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\n}\nin_other() {\n  ( cd other && ls )\n}\nactivate_env() {\n  source venv/bin/activate\n}\n');
  file(box, "venv/bin/activate", "deactivate() { :; }\nexport VIRTUAL_ENV=venv\n");
  // (And a script that sources itself, or modules each other, is read once each: a hook must answer.)
  file(box, "self.sh", `${". ./self.sh\n".repeat(16)}f() { echo hi > s.txt; }\n`);
  for (const [command, written] of [["source ./env.sh; project_root; echo ok > out.txt", ["out.txt"]], ["source ./env.sh && in_other && activate_env && echo ok > out.txt", ["out.txt"]], ["source ./env.sh && activate_env && npm test", []]] as const) {
    assert.equal(await writes(box, command), written, command);
  }
  assert.ok((await writes(box, ". ./self.sh; f")).length > 0);
  // Not a call before the sourcing or none at all, nor a rewrite after the read (its own or a later call's), nor exec of /dev/null.
  for (const [command, written] of [["source ./lib.sh; rm w.ts", ["w.ts"]], ["source ./lib.sh; late", ["ok.py"]], ["source ./lib.sh; python3 ok.py; swap", ["ok.py"]], ["eval 'exec < /dev/null'; python3 site/manage.py shell", []]] as const) {
    assert.equal(await writes(box, command), written, command);
  }
});

Forms("should read a loop's passes in turn: what one writes or where it moves is before the next", async ({ box }) => {
  file(box, "other/w.ts", "x\n");
  file(box, "w.ts", "x\n");
  file(box, "fix.py", "import os\nos.remove('u.ts')\n");
  file(box, "ok.py", "print(1)\n");
  assert.is(claims(["take", join(box.project, "other", "w.ts"), "--dir", box.dir, "--holder", "other"]).code, 0);
  // The second pass removes other/w.ts; with passes the text does not count, in a place it does not fix.
  for (const command of ["for i in 1 2; do rm w.ts; cd other; done", "while true; do rm w.ts; cd other; done", "for ((i=0; i<2; i++)); do rm w.ts; cd other; done", "until false; do rm w.ts; cd other; done", "for i in $(seq 2); do rm w.ts; cd other; done"]) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.equal(await writes(box, "for i in 1 2; do rm w.ts; cd other; done"), ["other/w.ts", "w.ts"]);
  // The second pass runs what the first copied over ok.py.
  for (const command of ["for i in 1 2; do python3 ok.py; cp fix.py ok.py; done", "while true; do python3 ok.py; cp fix.py ok.py; done"]) {
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  // Each pass with its own value: a loop over a few words is exact, not any file; one pass reads nothing written after it.
  const cases: Array<[string, string[]]> = [
    ["for f in a b; do cp $f.ts $f.bak; done", ["a.bak", "b.bak"]],
    ['for f in a b; do echo x > "$f.txt"; done', ["a.txt", "b.txt"]],
    ["for f in a b; do for g in 1 2; do touch $f$g; done; done", ["a1", "a2", "b1", "b2"]],
    ["for i in 1; do python3 ok.py; cp fix.py ok.py; done", ["ok.py"]],
    ["for d in other; do cd $d; rm q; cd ..; done", ["other/q"]],
  ];
  for (const [command, written] of cases) assert.equal(await writes(box, command), written, command);
  assert.is(bash(box, "for f in a b; do cp $f.ts $f.bak; done"), undefined);
});

Forms("should read ~ in a command as the agent's shell expands it with an empty or relative HOME", ({ box }) => {
  // (The claims directory reads such a HOME as the account's; a command's `~/x` is h/x to bash.)
  file(box, "h/notes.md", "x\n");
  assert.is(claims(["take", join(box.project, "h", "notes.md"), "--dir", box.dir, "--holder", "other"]).code, 0);
  assert.is(bash(box, "echo x > ~/notes.md", {}, { HOME: "h" }), "deny");
  assert.is(bash(box, "echo x > ~/other.md", {}, { HOME: "h" }), undefined);
});

Forms.run();
