// Writes through the shell, judged by the Claude hook through the real CLI: another session holds
// u.ts; session s2 runs a command. A command that names a held file is denied whatever else it says.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, entries, readJson, sandbox, type Sandbox } from "./helpers.js";
import { bash, event, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox; file: string };
const Shell = suite<Context>("claims hook: writes through the shell");
Shell.before.each((context) => {
  context.box = sandbox();
  context.file = join(context.box.project, "u.ts");
  writeFileSync(context.file, "export const u = 1;\n");
  claims(["take", context.file, "--dir", context.box.dir, "--holder", "other", "--purpose", "rounding"]);
});
Shell.after.each((context) => context.box.cleanup());

/** Target -> holder of every claim in the directory. */
const holders = (box: Sandbox): Record<string, string> =>
  Object.fromEntries(
    entries(box.dir)
      .filter((name) => name.endsWith(".json") && !name.startsWith("."))
      .map((name) => readJson(join(box.dir, name)))
      .map((claim) => [claim.target, claim.holder]),
  );

Shell("should deny the write to a held file when another path of the command cannot be a target", ({ box }) => {
  assert.is(bash(box, `touch ${"z".repeat(1100)}; echo y > u.ts`), "deny", "a path over 1,024 bytes");
  symlinkSync("loop", join(box.project, "loop"));
  assert.is(bash(box, "echo y > u.ts; touch loop"), "deny", "a symlink loop");
  assert.is(bash(box, "rm -f u.ts /**/*.zzz"), "deny", "a glob over directories that cannot be read");
  mkdirSync(join(box.project, "locked"));
  chmodSync(join(box.project, "locked"), 0o000);
  try {
    assert.is(bash(box, "rm -f u.ts **/*.bak"), "deny", "an unreadable directory under the glob");
  } finally {
    chmodSync(join(box.project, "locked"), 0o755);
  }
});

Shell("should judge a shell glob the overlap rules cannot compare (a POSIX class, three stars) as the directory it starts in, and claim nothing for it", ({ box }) => {
  // Refused as targets (picomatch then matches across a /): as the directory, never skipped.
  assert.is(bash(box, "rm -f [[:lower:]].ts"), "deny");
  assert.is(bash(box, "rm -f ./***.ts"), "deny");
  mkdirSync(join(box.project, "other"));
  assert.is(bash(box, "rm -f other/[[:lower:]].ts"), undefined, "a directory nobody holds anything in");
  assert.not.ok(readdirSync(box.dir).some((name) => name.startsWith("%2F") && name.includes("other.json")), "the directory is not claimed whole");
});

Shell("should judge a relative path after a cd it cannot follow as any file of that name, and claim none", ({ box }) => {
  mkdirSync(join(box.project, "gen"));
  writeFileSync(join(box.project, "gen", "a.ts"), "");
  claims(["take", join(box.project, "gen", "a.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "codegen"]);
  for (const command of [
    'cd "$(git rev-parse --show-toplevel)/gen" && rm a.ts',
    'cd "$(workdir)/gen" && sed -i s/x/y/ a.ts',
    "pushd gen && rm a.ts",
    "env -C gen rm a.ts",
    "env --chdir=gen rm a.ts",
    'cd "$(workdir)/x" && git -C gen rm a.ts',
    'cd "$PWD/gen" && rm a.ts',
    "cd $HOME; cd -; cd gen; rm a.ts",
    "cd gen; cd -; rm u.ts",
    "pushd gen; popd; rm u.ts",
    'cd "$(workdir)/x" && rm x/../a.ts', // what follows a `..` is under some directory all the same
    'cd "$(workdir)/x" && rm x/y/../../gen/a.ts',
    'cd "$(workdir)/x" && rm ./x/./../a.ts',
  ]) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.is(bash(box, 'cd "$(mktemp -d)" && rm other.ts'), undefined, "no claim of that name: allowed");
  assert.is(bash(box, 'cd "$(mktemp -d)" && rm a.ts/../other.ts'), undefined);
  writeFileSync(join(box.project, "gen", "s.ts"), "");
  claims(["take", join(box.project, "gen", "s.ts"), "--shared", "--dir", box.dir, "--holder", "other", "--purpose", "reading"]);
  assert.is(bash(box, 'cd "$(pwd)/gen" && rm s.ts'), "deny", "another holder's shared claim is in a write's way, as with a known path");
  mkdirSync(join(box.project, "src"));
  claims(["take", join(box.project, "src") + "/", "--dir", box.dir, "--holder", "other", "--purpose", "refactor"]);
  const answer = event(box, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: 'cd "$(workdir)/x" && echo hi > notes.txt' } });
  assert.match(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecisionReason, /claims handover src\/ /, "a directory is suggested with its slash, not as a name");
  assert.is(bash(box, "pushd gen && rm b.ts"), undefined);
  assert.equal(Object.values(holders(box)).filter((holder) => holder !== "other"), ["claude-s2"], "only gen/b.ts, whose place is known, is claimed");
  assert.is(holders(box)[join(box.project, "gen", "b.ts")], "claude-s2");
});

Shell("should deny the writes of commands and redirections that name the held file", ({ box }) => {
  writeFileSync(join(box.project, "x.ts"), "");
  for (const command of [
    "\\rm u.ts",
    "\\cp x.ts u.ts",
    "\\mv u.ts v.ts",
    "printf x 1<>u.ts",
    "echo x >&u.ts",
    "git checkout u.ts",
    "git checkout .",
    "git checkout HEAD u.ts",
    "coproc rm u.ts",
    "sort -o u.ts x.ts",
    "sort -uo u.ts x.ts",
    "curl -so u.ts https://example.com/",
    "wget -qO u.ts https://example.com/",
    "rsync x.ts u.ts",
    "gzip u.ts",
    "gunzip u.ts.gz",
    "awk -i inplace '{print}' u.ts",
    "sort u.ts | sponge u.ts",
    "ed -s u.ts <<EOF\n,s/1/2/\nw\nEOF",
    "printf ',s/1/2/\\nw\\n' | ed u.ts",
    "ex -sc '%s/1/2/|x' u.ts",
    "vim -es -u NONE -c wq +3 u.ts",
    "emacs --batch u.ts --eval '(save-buffer)'",
    "emacs --batch --visit u.ts --eval '(save-buffer)'",
    "emacs -batch -visit u.ts",
    "vimdiff x.ts u.ts",
  ]) {
    assert.is(bash(box, command), "deny", command);
  }
  for (const command of ["git checkout main", "git status", "git log -p u.ts 2>&1", "sort u.ts >/dev/null", "curl -s https://example.com/ 2>&1", "gzip -c u.ts > /dev/null", "awk '{print}' u.ts", "rsync x.ts host:u.ts", "vim --version", "sort u.ts | sponge x.ts"]) {
    assert.is(bash(box, command), undefined, command);
  }
});

Shell("should expand globs and braces where bash does, in a redirection and a copy's destination too", async ({ box }) => {
  writeFileSync(join(box.project, "a.ts"), "");
  mkdirSync(join(box.project, "sub"));
  writeFileSync(join(box.project, "sub", "x.ts"), "");
  for (const command of ["sed -i{,} s/1/2/ u.ts", "touch {t..v}.ts", "rm -f \"$PWD\"/*.ts", "cp /etc/hostname u?ts", "cp x.ts u.t[s]", "mv /tmp/zz u?ts", "echo x > u?ts", "echo x >> u.t*", "touch {u,v}.ts", "tee {a,u}.ts < /dev/null", "cp a.ts {v,u}.ts", "touch u{,.bak}.ts", "touch {x,{y,u}}.ts"]) {
    assert.is(bash(box, command), "deny", command);
  }
  for (const command of ["echo x > 'u?ts'", "touch '{u,v}.ts'", "touch \\{u,v\\}.ts", "echo '{u,v}.ts' > a.ts", "[ -f u.ts ] && echo yes"]) {
    assert.is(bash(box, command), undefined, command);
  }
  // A `?` in a directory part: fast-glob finds nothing for it, bash expands it.
  mkdirSync(join(box.project, "src", "x"), { recursive: true });
  writeFileSync(join(box.project, "src", "x", "b.ts"), "");
  claims(["take", join(box.project, "src", "x", "b.ts"), "--dir", box.dir, "--holder", "other"]);
  for (const command of ["rm src/?/b.ts", "sed -i s/a/b/ sr?/x/b.ts", "echo x > src/?/b.ts", `rm ${box.project}/src/?/b.ts`]) assert.is(bash(box, command), "deny", command);
  assert.is(bash(box, "rm src/?/c.ts"), undefined, "a glob no claim matches");
  // Where a rule takes one word as a file (a copy's destination, an option's value), the glob is
  // expanded to what bash gives it, not judged as the name it spells.
  for (const command of ["cp a.ts sr?/x/b.ts", "cp a.ts src/?/b.ts", "mv a.ts sr?/?/b.ts", "install a.ts ?rc/x/b.ts", "ln -f a.ts sr?/x/b.ts", "cp -T a.ts sr?/x/b.ts", "sort -o sr?/x/b.ts a.ts", "curl -o sr?/x/b.ts http://127.0.0.1:9/", "iconv -f utf8 -t ascii a.ts -o sr?/x/b.ts", "rsync a.ts sr?/x/b.ts"]) {
    assert.is(bash(box, command), "deny", command);
  }
  for (const command of ["cp a.ts 'sr?/x/b.ts'", "cp a.ts sr\\?/x/b.ts", "cp a.ts ?src/x/b.ts"]) assert.is(bash(box, command), undefined, command);
  for (const command of ["cp a.ts sr[[:alpha:]]/x/b.ts", "cp a.ts src/x/b.[[:lower:]][[:lower:]]", "cp a.ts src/x/b.t[[:alnum:]_]"]) assert.is(bash(box, command), "deny", command);
  assert.equal(await writes(box, "cp a.ts sr?/x/b.ts"), ["src/x/b.ts"]);
  mkdirSync(join(box.project, ".src", "x"), { recursive: true });
  assert.equal(await writes(box, "cp a.ts ?src/x/"), ["?src/x"], "a `?` matches no leading dot, as in bash");
  const cases: Array<[string, string[]]> = [
    ["touch {b,c}.ts", ["b.ts", "c.ts"]],
    ["touch x{,.bak}", ["x", "x.bak"]],
    ["touch {x}.ts", ["{x}.ts"]], // no comma: text
    ["find . -name a.ts -exec rm {} \\;", ["glob:**"]], // `{}` is find's, not a brace expansion
    ["cp a.ts \"$d\"/{u,v}.ts", ["unknown:a.ts", "unknown:u.ts", "unknown:v.ts"]],
    ["echo x > a?ts", ["a.ts"]],
    ["echo x > z?ts", ["glob:z?ts", "z?ts"]], // matches nothing: bash writes the name as it is; judged as the glob too
    ["cp u.ts{,.bak}", ["u.ts.bak"]], // the words bash passes: cp u.ts u.ts.bak
    ["touch part{01..03}.ts", ["part01.ts", "part02.ts", "part03.ts"]],
    ["cd {a,b}; touch x", ["unknown:x"]], // cd with two operands: bash stays, zsh swaps one for the other
    ["touch a{b..d}.ts", ["ab.ts", "ac.ts", "ad.ts"]],
    ["touch {1..3}.txt", ["1.txt", "2.txt", "3.txt"]],
    ["touch {x,u}{,,,,,,,,}{,,,,,,,,,}{,,,}.ts", ["unknown:."]], // 720 words: braces the text does not fix
    ["d=sub; rm -f \"$d\"/*.ts", ["sub/x.ts"]], // a quoted part does not stop the glob
    ["rm -f \"$PWD\"/*.ts", ["a.ts", "u.ts"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
});

Shell("should judge a symlink's own entry in a held directory, and .. after a symlink where the kernel takes it", ({ box }) => {
  for (const directory of ["d", "free", "other/sub"]) mkdirSync(join(box.project, directory), { recursive: true });
  writeFileSync(join(box.project, "free", "x.ts"), "v\n");
  writeFileSync(join(box.project, "other", "t6.ts"), "v\n");
  symlinkSync("../free/x.ts", join(box.project, "d", "x.ts"));
  symlinkSync("other/sub", join(box.project, "lq"));
  claims(["take", join(box.project, "d") + "/", "--dir", box.dir, "--holder", "other", "--purpose", "the d tree"]);
  claims(["take", join(box.project, "other", "t6.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "t6"]);
  // The link is an entry of d/: removing, replacing or renaming onto it changes d/.
  for (const command of ["rm d/x.ts", "sed -i s/v/w/ d/x.ts", "mv free/x.ts d/x.ts", "rm d/x.ts && echo new > d/x.ts", "echo w > lq/../t6.ts", "sed -i s/v/w/ lq/../t6.ts"]) {
    assert.is(bash(box, command), "deny", command);
  }
  const write = (path: string) => event(box, { hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: path, content: "w" } });
  assert.is(JSON.parse(write(join(box.project, "d", "x.ts")).stdout).hookSpecificOutput.permissionDecision, "deny");
  assert.is(JSON.parse(write(`${box.project}/lq/../t6.ts`).stdout).hookSpecificOutput.permissionDecision, "deny");
  // What the link leads to is outside d/, and ../t6.ts from other/sub/ is no held file.
  assert.is(bash(box, "echo w > free/x.ts"), undefined);
  assert.is(bash(box, "echo w > other/sub/../../t6.ts"), undefined);
});

Shell("should judge a write of another name of a held file (a hard link) as a write of that file", ({ box, file }) => {
  linkSync(file, join(box.project, "alias.ts"));
  assert.is(bash(box, "echo x >> alias.ts"), "deny");
  const written = event(box, { hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: join(box.project, "alias.ts"), content: "w" } });
  assert.match(JSON.parse(written.stdout).hookSpecificOutput.permissionDecisionReason, /held by other .*the same file as .*u\.ts \(a hard link\)/);
  assert.is(Object.values(holders(box)).filter((holder) => holder !== "other").length, 0, "the other name was not claimed");
  // Another name of a file under a held directory, or of a file one of whose symbols is held.
  mkdirSync(join(box.project, "held"));
  writeFileSync(join(box.project, "held", "f.ts"), "export function foo() {}\n");
  writeFileSync(join(box.project, "sym.ts"), "export function foo() {}\nexport function bar() {}\n");
  claims(["take", join(box.project, "held") + "/", "--dir", box.dir, "--holder", "other", "--purpose", "the held tree"]);
  claims(["take", `${join(box.project, "sym.ts")}#foo`, "--dir", box.dir, "--holder", "other", "--purpose", "foo"]);
  linkSync(join(box.project, "held", "f.ts"), join(box.project, "hf.ts"));
  linkSync(join(box.project, "sym.ts"), join(box.project, "hardsym.ts"));
  assert.is(bash(box, "echo x >> hf.ts"), "deny", "a file under a held directory");
  assert.is(bash(box, "echo x > hardsym.ts"), "deny", "a file with a held symbol, written whole");
  // A held tree too big to search does not refuse a linked file from elsewhere (a package store's).
  mkdirSync(join(box.project, "big"));
  for (let index = 0; index < 20_100; index++) writeFileSync(join(box.project, "big", `${index}.txt`), "");
  claims(["take", join(box.project, "big") + "/", "--dir", box.dir, "--holder", "other", "--purpose", "assets"]);
  writeFileSync(join(box.project, "store.ts"), "");
  linkSync(join(box.project, "store.ts"), join(box.project, "linked.ts"));
  assert.is(bash(box, "echo x >> linked.ts"), undefined);
});

Shell("should deny writes into the claims directory by hand, and leave the claims commands to change it", ({ box }) => {
  const claimFile = readdirSync(box.dir).find((name) => name.endsWith(".json") && !name.startsWith(".")) as string;
  for (const command of [`rm -f ${box.dir}/*.json`, `rm -rf ${box.dir}`, `echo '{}' > ${join(box.dir, claimFile)}`, `cd ${box.dir} && rm ${claimFile}`]) {
    const answer = event(box, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
    assert.match(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecisionReason, /is in the claims directory .*, which only the claims commands change/, command);
  }
  mkdirSync(join(box.root, "elsewhere"));
  symlinkSync(join(box.root, "elsewhere"), join(box.project, "lnk2"));
  assert.is(bash(box, `rm -f lnk2/../${basename(box.dir)}/${claimFile}`), "deny", "through .. after a symlink, where the kernel takes it");
  const edit = event(box, { hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: join(box.dir, claimFile), content: "{}" } });
  assert.is(JSON.parse(edit.stdout).hookSpecificOutput.permissionDecision, "deny");
  assert.is(bash(box, `ls ${box.dir} && cat ${join(box.dir, claimFile)}`), undefined, "reading it is fine");
  assert.is(bash(box, `node ${BIN} sweep --dir ${box.dir}`), undefined, "and so are the claims commands");
});

Shell("should deny a write of a tree holding the claims directory where others hold claims (rm -rf, mv, chmod -R of a parent), and let the session wipe its own", ({ box }) => {
  const home = join(box.root, "home");
  const state = join(home, ".local", "state");
  const dir = join(state, "claims");
  mkdirSync(state, { recursive: true });
  const hook = (command: string) => {
    const input = JSON.stringify({ session_id: "s2", cwd: box.project, tool_use_id: "t1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
    const result = spawnSync(process.execPath, [BIN, "hook", "claude", "--dir", dir], { input, env: cleanEnv({}), encoding: "utf8" });
    return result.stdout.trim() ? JSON.parse(result.stdout).hookSpecificOutput : undefined;
  };
  assert.is(claims(["take", "shared-config", "--dir", dir, "--holder", "other", "--purpose", "the preset"]).code, 0);
  for (const command of [`rm -rf ${state}`, `rm -rf ${join(home, ".local")}`, `mv ${state} ${state}.bak`, `find ${home} -delete`, `rm -rf ${join(home, ".local")}/*`, `chmod -R 777 ${state}`, `rm -rf ${dir}/../../state`]) {
    const answer = hook(command);
    assert.is(answer?.permissionDecision, "deny", command);
    assert.match(answer.permissionDecisionReason, /holds the claims directory .*, where other sessions hold claims/, command);
  }
  assert.is(hook(`rm -rf ${join(home, ".local")}/*.txt`), undefined, "a glob that cannot reach it");
  assert.is(hook(`touch ${join(state, "notes.txt")}`), undefined, "beside it");
  assert.ok(existsSync(join(dir, "shared-config.json")), "nothing was run");
  assert.is(claims(["release", "shared-config", "--dir", dir, "--holder", "other"]).code, 0);
  assert.is(claims(["take", "mine", "--dir", dir, "--holder", "claude-s2"]).code, 0);
  assert.is(hook(`rm -rf ${state}`), undefined, "only the session's own claims are there");
});

Shell("should let project-wide writes through where the claims directory is inside the repository, holding only a name", ({ box }) => {
  const repo = join(box.root, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  writeFileSync(join(repo, ".claims"), JSON.stringify({ dir: ".claims-state" }));
  writeFileSync(join(repo, "a.ts"), "");
  assert.is(claims(["take", "name:deploy", "--holder", "other", "--purpose", "release train"], { cwd: repo }).code, 0);
  assert.ok(existsSync(join(repo, ".claims-state", "deploy.json")));
  const hook = (command: string) => {
    const input = JSON.stringify({ session_id: "s2", cwd: repo, tool_use_id: "t1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
    const result = spawnSync(process.execPath, [BIN, "hook", "claude"], { input, cwd: repo, env: cleanEnv({ HOME: box.root }), encoding: "utf8" });
    return result.stdout.trim() ? JSON.parse(result.stdout).hookSpecificOutput.permissionDecision : undefined;
  };
  // Read as writes of the whole tree, which leave the untracked claims directory alone.
  for (const command of ["git checkout .", "npx prettier --write .", "chmod -R u+w ."]) assert.is(hook(command), undefined, command);
});

Shell("should deny a copy into a held file's directory written with clustered options, and claim an unheld one", ({ box }) => {
  mkdirSync(join(box.project, "dst"));
  claims(["take", join(box.project, "dst", "a.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "codegen"]);
  for (const command of ["cp -at dst a.ts", "cp -rt dst a.ts", "ln -st dst a.ts", "ln -sft dst a.ts", "mv -ft dst a.ts", "install -Dm644 -t dst a.ts"]) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.is(bash(box, "cp -at dst b.ts"), undefined, "dst/b.ts is no one's");
  assert.is(holders(box)[join(box.project, "dst", "b.ts")], "claude-s2", "and is read as the file written: the session claims it");
});

Shell("should judge a directory copied or moved to a name not there yet as the tree it makes, which a glob or a file claim under it meets", ({ box }) => {
  mkdirSync(join(box.project, "src"));
  mkdirSync(join(box.root, "tpl"));
  writeFileSync(join(box.root, "tpl", "a.ts"), "export const a = 1;\n");
  const tpl = join(box.root, "tpl");
  claims(["take", join(box.project, "src", "**", "*.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "generated code"]);
  for (const command of [`cp -r ${tpl} src/gen`, `cp -a ${tpl} src/gen`, `mv ${tpl} src/gen`, `rsync -a ${tpl}/ src/gen`, `rsync -a ${tpl}/ src/gen/`, `rsync -a ${tpl} src/gen`, `cp -r ${tpl} src/`, `mv ${tpl} src`, 'cp -r "$T" src/gen', "scp -r host:tpl src/gen", "mkdir t && cp -r t src/gen", "mkdir -p t/sub && mv t src/gen", "mkdir t; rsync -a t src/gen", `cp -r ${tpl} t && cp -r t src/gen`, "git clone https://example.com/x.git t && mv t src/gen"]) {
    assert.is(bash(box, command), "deny", command);
  }
  claims(["take", join(box.project, "lib", "gen", "a.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "one file"]);
  mkdirSync(join(box.project, "lib"));
  assert.is(bash(box, `cp -r ${tpl} lib/gen`), "deny", "a file claim inside the tree it makes");
  assert.is(bash(box, `cp -r ${tpl} lib/other`), undefined, "a tree elsewhere is no one's");
  writeFileSync(join(box.root, "one.ts"), "");
  assert.is(bash(box, `cp -r ${join(box.root, "one.ts")} src/gen`), undefined, "a file copied is the one file it makes, which the glob does not match");
});

Shell("should judge a program in a language the hook does not read, written by an agent, as writing anything, and one the project keeps as run", ({ box }) => {
  const git = (...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: box.project, encoding: "utf8" });
  git("init", "-q");
  writeFileSync(join(box.project, "kept.lua"), 'print("hello")\n');
  mkdirSync(join(box.project, "tool"));
  writeFileSync(join(box.project, "tool", "main.go"), "package main\n\nfunc main() {}\n");
  git("add", "kept.lua", "tool/main.go");
  git("commit", "-q", "-m", "kept");
  // Written since: each could open u.ts, which another session holds, and the hook cannot read it.
  writeFileSync(join(box.project, "Fix.java"), 'class Fix { public static void main(String[] a) throws Exception { java.nio.file.Files.writeString(java.nio.file.Path.of("u.ts"), "lost"); } }\n');
  writeFileSync(join(box.project, "fix.lua"), 'io.open("u" .. ".ts", "w"):write("lost")\n');
  writeFileSync(join(box.project, "main.go"), "package main\n\nfunc main() {}\n");
  const writtenFirst = "cat > new.lua <<'EOF'\nio.open('u.ts', 'w'):write('lost')\nEOF\nlua new.lua";
  for (const command of ["java Fix.java", "java -cp . Fix.java", "lua fix.lua", "lua5.4 fix.lua", "go run .", "go run main.go", "go run", "go -C . run .", "sudo lua fix.lua", writtenFirst, 'lua "$f"']) {
    assert.is(bash(box, command), "deny", command);
  }
  // The project's own, even changed since (the edit-and-run loop), is run, not judged.
  writeFileSync(join(box.project, "kept.lua"), 'print("changed")\n');
  writeFileSync(join(box.project, "tool", "main.go"), "package main\n\nfunc main() { println(1) }\n");
  writeFileSync(join(box.project, "lib.dart"), "void main() {}\n");
  for (const command of ["lua kept.lua", "go run ./tool", "java -version", "lua -v", "go build ./tool", "go run golang.org/x/tools/cmd/stringer@latest -type=Kind", "dart format lib.dart", "dart analyze lib.dart"]) {
    assert.is(bash(box, command), undefined, command);
  }
  assert.is(bash(box, "dart lib.dart"), "deny", "a program run by its name");
});

Shell("should ask git anew for each command whether the project keeps a program: one changed since the last command is read", async ({ box }) => {
  const git = (...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: box.project, encoding: "utf8" });
  git("init", "-q");
  writeFileSync(join(box.project, "tool.py"), "open('u.ts', 'w').write('x')\n");
  writeFileSync(join(box.project, "run.lua"), 'print("hello")\n');
  git("add", "tool.py", "run.lua");
  git("commit", "-q", "-m", "kept");
  // (One process reads both commands, as a library caller does: what git said of the first is not the second's answer.)
  assert.equal(await writes(box, "python3 tool.py; python3 tool.py"), [], "the project's own program, as committed, is run, not read");
  writeFileSync(join(box.project, "tool.py"), "open('u.ts', 'w').write('y')\n");
  assert.equal(await writes(box, "python3 tool.py; python3 tool.py"), ["u.ts"], "changed since: read");
  assert.equal(await writes(box, "lua run.lua; lua run.lua"), []);
  rmSync(join(box.project, ".git"), { recursive: true });
  spawnSync("git", ["init", "-q"], { cwd: box.project });
  assert.equal(await writes(box, "lua run.lua; lua run.lua"), ["unknown:."], "no longer the project's: any file");
});

Shell("should read short options clustered as getopt does: flags up to the first letter that takes a value", async ({ box }) => {
  mkdirSync(join(box.project, "dst"));
  mkdirSync(join(box.project, "sub"));
  const diff = "--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\n+b\n";
  writeFileSync(join(box.project, "fix.diff"), diff);
  writeFileSync(join(box.project, "sub", "fix.diff"), diff);
  const cases: Array<[string, string[]]> = [
    // cp, mv, ln, install: -t's value ends a cluster or is the rest of it; -S and -m take one too.
    ["cp -at dst a.ts", ["dst/a.ts"]],
    ["cp -rt dst a.ts", ["dst/a.ts"]],
    ["cp -tdst a.ts", ["dst/a.ts"]],
    ["cp -a -t dst a.ts", ["dst/a.ts"]],
    ["cp -vt dst a b", ["dst/a", "dst/b"]],
    ["cp a b -vt dst", ["dst/a", "dst/b"]],
    ["cp --target dst a.ts", ["dst/a.ts"]],
    ["cp -bS .orig a.ts dst", ["dst/a.ts", "dst/a.ts.orig", "glob:dst/a.ts.~*~"]],
    ["cp -fT a.ts dst", ["dst"]],
    ["mv -ft dst a.ts", ["a.ts", "dst/a.ts"]],
    ["mv -vS .old a.ts b.ts", ["a.ts", "b.ts", "b.ts.old", "glob:b.ts.~*~"]],
    ["ln -st dst a.ts", ["dst/a.ts"]],
    ["ln -sft dst a", ["dst/a"]],
    ["install -Dm644 -t dst f", ["dst/f"]],
    ["install -m 644 -o root f dst", ["dst/f"]],
    ["install -dm755 sub/d", []],
    // touch, truncate, shred: the value after a cluster is not a file.
    ["touch -cd tomorrow f", ["f"]],
    ["touch -r ref f", ["f"]],
    ["truncate -cs 0 f", ["f"]],
    ["shred -un 3 f", ["f"]],
    // sed: -i takes a suffix only attached (the backup's); -e and -f take the script.
    ["sed -ni.bak s/a/b/ f", ["f", "f.bak"]],
    ["sed -i -es/a/b/ f", ["f"]],
    ["sed -ie s/a/b/ f g", ["f", "fe", "g", "ge"]],
    // (BSD sed, macOS's, takes the word after a -i ending its cluster as the backup's extension: `-e`
    // here, so its files are s/a/b/ and f, each kept as …-e; read beside GNU's.)
    ["sed -Ei -e s/a/b/ -f x.sed f", ["f", "f-e", "s/a/b", "s/a/b/-e"]],
    ["sed --in-place=.bak s/a/b/ f", ["f", "f.bak"]],
    ["sed -e s/a/b/ f", []],
    ["perl -pi -es/a/b/ f", ["f"]],
    ["perl -0pi -e s/a/b/ f", ["f"]],
    ["perl -pie s/a/b/ f", ["f", "fe"]],
    // patch: -p and -d in clusters; -d is where it opens -i's file and writes (its .rej and .orig too).
    ["patch -sp1 -d sub -i fix.diff", ["glob:sub/src/x.ts.~*~", "sub/src/x.ts", "sub/src/x.ts.orig", "sub/src/x.ts.rej"]],
    ["patch -sd sub -p1 < fix.diff", ["glob:sub/src/x.ts.~*~", "sub/src/x.ts", "sub/src/x.ts.orig", "sub/src/x.ts.rej"]],
    ["patch -Np1 -o out.ts < fix.diff", ["out.ts", "out.ts.rej", "src/x.ts"]],
    // sort, curl, wget: the output letter anywhere in a cluster, and not when another letter's value holds it.
    ["sort -uo out in", ["out"]],
    ["sort -muo out a b", ["out"]],
    ["sort -to out in", []],
    ["curl -so f https://example.com/", ["f"]],
    ["curl -sSLo f https://example.com/", ["f"]],
    ["curl -Ho https://example.com/", []],
    ["curl -o a -o b https://example.com/a https://example.com/b", ["a", "b"]],
    ["curl --output-dir dst -o a https://example.com/", ["dst/a"]],
    ["curl -sD headers -c jar https://example.com/", ["headers", "jar"]],
    ["wget -qO f https://example.com/", ["f"]],
    ["wget -nv -o log -O - https://example.com/", ["log"]],
    // rsync: a value never stands for the destination.
    ["rsync -avT tmp a.ts dst", ["dst/a.ts"]],
    ["rsync -ae ssh a.ts host:dst", []],
    ["rsync a.ts b.ts --backup-dir bak", ["b.ts", "bak/b.ts"]],
    // gzip and co: -c, -t, -l anywhere in a cluster write nothing; -S takes a suffix.
    ["gzip -kS .z f", ["f", "f.z"]],
    ["gzip -kc f", []],
    ["xz -T0 -d f.xz", ["f", "f.xz"]],
    ["gawk -bi inplace '{print}' f", ["f"]],
    ["awk -v x=1 -iinplace '{print}' f", ["f"]],
    ["gawk '@include \"inplace\"; {print}' f", ["f"]], // the program's own directive, as -i inplace
    ["gawk -e '@include \"inplace\"' -e '{print}' f", ["f"]],
    ["gawk '@include \"helpers\"; {print}' f", ["unknown:."]], // a library of its own: code not read
    ["gawk '{print \"@include\"}' f", []],
    ["gawk -l rwarray 'BEGIN { writea(\"f\", a) }'", ["unknown:."]], // extensions that write files the text does not give
    ["gawk '@load \"filefuncs\"; BEGIN { chdir(\"src\") }'", ["unknown:."]],
    // git's subcommands.
    ["git checkout -fb new", []],
    ["git restore -WS f", ["f"]],
    ["git restore -S f", []],
    ["git apply -Rp1 fix.diff", ["src/x.ts"]],
    ["git apply --stat --apply fix.diff", ["src/x.ts"]],
    // Wrappers and shells read their own options as clusters too.
    ["sudo -Eu root rm f", ["f"]],
    ["sudo -C 4 rm f", ["f"]],
    ["env -iC sub rm f", ["sub/f"]],
    ["env - PATH=/bin rm f", ["f"]],
    ["timeout -s KILL 5 rm f", ["f"]],
    ["bash -c -- 'rm f'", ["f"]],
    ["bash -o pipefail -c 'rm f'", ["f"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
});

Shell("should read what a wrapper writes itself, and the command line env -S splits", async ({ box }) => {
  mkdirSync(join(box.project, "sub"));
  const cases: Array<[string, string[]]> = [
    ["env -S 'rm -f' a.ts", ["a.ts"]],
    ["env -S'A=1 rm' a.ts", ["a.ts"]],
    ["env --split-string='-C sub rm a.ts'", ["sub/a.ts"]],
    ["time -o out rm f", ["f", "out"]],
    ["time --output=out -a ls", ["out"]],
    ["sudo -e f g", ["f", "g"]],
    ["sudo -u root --edit f", ["f"]],
    ["sudoedit -u root f", ["f"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["env -S 'rm -f' u.ts", "time -o u.ts ls", "time -ao u.ts ls", "sudo -e u.ts", "sudoedit u.ts"]) {
    assert.is(bash(box, command), "deny", command);
  }
  for (const command of ["env -S 'ls -l' u.ts", "time ls", "sudo -E ls"]) assert.is(bash(box, command), undefined, command);
});

Shell("should judge the backups and rejects that cp, mv, ln, install and patch leave beside what they write", async ({ box }) => {
  mkdirSync(join(box.project, "dst"));
  const diff = "--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\n+b\n";
  writeFileSync(join(box.project, "fix.diff"), diff);
  const cases: Array<[string, string[], Record<string, string>?]> = [
    // dst~, or the -S suffix, or SIMPLE_BACKUP_SUFFIX; numbered (f.~N~) where numbered backups are asked for or already there.
    ["cp -b a b", ["b", "b~", "glob:b.~*~"]],
    ["cp --backup a dst", ["dst/a", "dst/a~", "glob:dst/a.~*~"]],
    ["cp --backup=numbered a b", ["b", "glob:b.~*~"]],
    ["cp --backup=simple --suffix=.old a b", ["b", "b.old"]],
    ["cp --backup=none a b", ["b"]],
    ["cp -b a b", ["b", "b.bak"], { SIMPLE_BACKUP_SUFFIX: ".bak", VERSION_CONTROL: "simple" }],
    ["SIMPLE_BACKUP_SUFFIX=.x VERSION_CONTROL=never mv -b a b", ["a", "b", "b.x"]],
    ["env VERSION_CONTROL=simple ln -sfb a b", ["b", "b~"]],
    ["ln -sb ../a", ["a", "a~", "glob:a.~*~"]],
    ["install -bm644 -t dst a", ["dst/a", "dst/a~", "glob:dst/a.~*~"]],
    ['cp -S "$suffix" a b', ["b", "glob:b*", "glob:b.~*~"]],
    // patch: f.rej and f.orig beside each file (-r names the rejects, -B, -Y and -z the originals).
    ["patch -p1 -i fix.diff", ["glob:src/x.ts.~*~", "src/x.ts", "src/x.ts.orig", "src/x.ts.rej"]],
    ["patch -V never -r - f fix.diff", ["f", "f.orig"]],
    ["patch -B old/ -r out.rej f fix.diff", ["f", "old/f", "out.rej"]],
    ["patch -Y bk_ -z .z --no-backup-if-mismatch -b sub/f fix.diff", ["sub/bk_f.z", "sub/f", "sub/f.rej"]],
    ["patch --no-backup-if-mismatch -p1 -i fix.diff", ["src/x.ts", "src/x.ts.rej"]],
    ["git apply --reject fix.diff", ["src/x.ts", "src/x.ts.rej"]],
  ];
  for (const [command, expected, environment] of cases) assert.equal(await writes(box, command, environment), expected, command);
  writeFileSync(join(box.project, "b.ts"), "");
  claims(["take", join(box.project, "b.ts~"), join(box.project, "src", "x.ts.rej"), "--dir", box.dir, "--holder", "other", "--purpose", "keeping"]);
  for (const command of ["cp -b x.ts b.ts", "mv --backup=simple x.ts b.ts", "patch -p1 < fix.diff"]) assert.is(bash(box, command), "deny", command);
  assert.is(bash(box, "cp x.ts b.ts"), undefined, "no backup asked for");
});

Shell("should judge the file curl -O and wget name from the URL, and any file where a config or a list names them", async ({ box }) => {
  mkdirSync(join(box.project, "dst"));
  const cases: Array<[string, string[]]> = [
    ["curl -O https://example.com/a/u.ts?q=1#top", ["u.ts"]],
    ["curl -sLO https://example.com/u.ts -o b https://example.com/b", ["b", "u.ts"]],
    ["curl --remote-name-all https://example.com/a https://example.com/", ["a"]],
    ["curl -OJ --output-dir dst https://example.com/u.ts", ["dst/u.ts"]],
    ['curl --output-dir dst -O "$url"', ["glob:dst/*"]],
    ["curl -O 'https://example.com/f[1-3].txt'", ["glob:f*.txt"]],
    ["curl -K opts https://example.com/", ["unknown:."]],
    ["wget https://example.com/u.ts", ["u.ts"]],
    ["wget -q 'https://example.com/u.ts?x=1'", ["u.ts?x=1"]],
    ["wget -P dst https://example.com/", ["dst/index.html"]],
    ["wget -r -np https://example.com/docs/", ["glob:**"]],
    ["wget -e robots=off https://example.com/a", ["a"]],
    ["wget -e robots=off -e User_Agent=x -r https://example.com/d/", ["glob:**"]],
    ["wget -e robots=off -e dir_prefix=/tmp https://example.com/a", ["unknown:."]],
    ["wget -e output_document=u.ts https://example.com/a", ["unknown:."]],
    ["wget --execute=output_document=u.ts https://example.com/a", ["unknown:."]],
    ["wget -qO- https://example.com/a", []],
    ["wget --spider https://example.com/a", []],
    ["xz --files=list", ["unknown:."]],
    ["unxz --files0 < list", ["unknown:."]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["curl -sO https://example.com/u.ts", "curl --remote-name https://example.com/src/u.ts", "wget https://example.com/u.ts", "wget -P . https://example.com/u.ts", "curl -K opts https://example.com/", "wget -e timeout=5 -e logfile=l https://example.com/x", "xz --files=list"]) {
    assert.is(bash(box, command), "deny", command);
  }
  for (const command of ["curl -s https://example.com/u.ts", "wget -qO- https://example.com/u.ts", "curl -O https://example.com/v.ts", "wget -e robots=off https://example.com/v.ts"]) {
    assert.is(bash(box, command), undefined, command);
  }
});

Shell("should judge a write into a directory a variable names as one in a place the hook cannot know", async ({ box }) => {
  mkdirSync(join(box.project, "gen"));
  writeFileSync(join(box.project, "a.ts"), "");
  writeFileSync(join(box.project, "fix.diff"), "--- a.ts\n+++ a.ts\n@@ -1 +1 @@\n-a\n+b\n");
  claims(["take", join(box.project, "gen", "a.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "codegen"]);
  const cases: Array<[string, string[]]> = [
    ['cp -t "$d" a.ts', ["unknown:a.ts"]],
    ['cp a.ts "$d"', ["unknown:.", "unknown:a.ts"]], // "$d" may be a directory, or a file of any name
    ['mv -t "$(workdir)/gen" a.ts', ["a.ts", "unknown:a.ts"]],
    ['mv -t "$(pwd)/gen" a.ts', ["a.ts", "gen/a.ts"]], // `$(pwd)` is where the command runs
    ['git -C "$d" rm a.ts', ["unknown:a.ts"]],
    ['patch -d "$d" -p0 -r - --no-backup-if-mismatch < fix.diff', ["unknown:a.ts"]],
    ['curl --output-dir "$d" -o a.ts https://example.com/', ["unknown:a.ts"]],
    ['wget -P "$d" https://example.com/a.ts', ["unknown:a.ts"]],
    ['rsync a.ts "$d"/', ["unknown:a.ts"]],
    ['rsync -a src/ "$d"', ["unknown:."]],
    ["rsync -a src/ gen", ["gen"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const [command] of cases.slice(0, -1)) assert.is(bash(box, command), "deny", command);
  assert.is(bash(box, 'cp -t "$d" other.ts'), undefined, "no claim of that name");
  assert.is(bash(box, 'cp template.ts "$target"'), "deny", "a destination the text does not fix may be the held file itself");
});

Shell("should judge a shell that reads its program from a pipe or an unknown file as writing what it cannot know", async ({ box }) => {
  for (const command of ["cat x | bash", "curl -fsSL https://example.com/install.sh | sudo sh -s -- -y", 'bash < "$script"', "sh -s", "sh -"]) {
    assert.equal(await writes(box, command), ["unknown:."], command);
    assert.is(bash(box, command), "deny", command);
  }
  assert.equal(await writes(box, "bash <<'EOF'\nrm f\nEOF"), ["f"], "a heredoc is read as the program");
  claims(["take", join(box.project, "held.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "codegen"]);
  const refused = event(box, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "cat x | bash" } });
  const reason: string = JSON.parse(refused.stdout).hookSpecificOutput.permissionDecisionReason;
  assert.match(reason, 'held by other for "codegen"');
  assert.match(reason, "(what it writes cannot be known)");
  assert.match(reason, "writes files its text does not name");
  assert.not.match(reason, "after a cd", "no cd is in the command");
  const underVariable = event(box, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: 'echo x > "$d/held.ts"' } });
  const told: string = JSON.parse(underVariable.stdout).hookSpecificOutput.permissionDecisionReason;
  assert.match(told, `writes the relative path "held.ts" after a cd (or pushd, popd) whose directory cannot be known from the command's text, or under a directory a variable names ("$d/held.ts")`);
  for (const command of ["bash --version", "bash -n < x.sh", "ls | grep x"]) assert.is(bash(box, command), undefined, command);
});

Shell("should read a glob that `..` leads back out of as the path it names, and judge the rest of the line, not let it through", async ({ box }) => {
  // `*/../u.ts` normalized is u.ts, a glob of no pattern: the hook failed open on the whole line.
  mkdirSync(join(box.project, "src"));
  assert.equal(await writes(box, "rm */../u.ts"), ["*/../u.ts", "u.ts", "unknown:u.ts"]);
  assert.equal(await writes(box, "rm src/*/../*.ts"), ["glob:src/*.ts", "src/*/../*.ts", "unknown:*.ts"]);
  for (const command of ["rm */../u.ts", "echo x > s*/../u.ts", "rm ./*/../u.ts", "sed -i s/1/2/ u.ts && touch */../stamp", "git checkout . ; touch */../stamp"]) {
    const answer = event(box, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
    assert.is(answer.stderr, "", command);
    assert.is(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision, "deny", command);
  }
  assert.is(bash(box, "touch */../v.ts"), undefined, "no claim there: allowed");
  // Nor a glob's trailing slash (an empty last segment), here or outside the project, nor a quoted
  // brace range past 2^53 given to fast-glob (it wrote the range out until the process died).
  for (const command of ["rm u.ts a*/", "rm u.ts ../nomatch*/", 'rm u.ts "{9007199254740993..9007199254740999}"*']) {
    const answer = event(box, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
    assert.equal([answer.code, answer.stderr], [0, ""], command);
    assert.is(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision, "deny", command);
  }
  assert.equal(await writes(box, "rm -r src/*/"), ["glob:src/*", "src/*"], "a glob's directories: any entry it names");
  // A NUL, which bash drops from a script and which ends an argument: `rm u.ts<NUL>` was the file `u.ts<NUL>`.
  assert.equal(await writes(box, "rm u.ts\0"), ["unknown:."]);
  assert.is(bash(box, "rm u.ts\0x"), "deny");
});

Shell("should judge the rest of a line that writes a .claims naming no directory, not fail open on it", ({ box }) => {
  for (const [name, dir] of [["cfgdev", "/dev/null"], ["cfgfile", join(box.project, "u.ts")]]) {
    mkdirSync(join(box.project, name));
    writeFileSync(join(box.project, name, ".claims"), JSON.stringify({ dir }));
  }
  for (const command of ["rm u.ts; rm -rf cfgdev/.claims", "rm u.ts; touch cfgfile/.claims"]) {
    const answer = event(box, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
    assert.equal([answer.code, answer.stderr], [0, ""], command);
    assert.is(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision, "deny", command);
  }
  assert.is(bash(box, "rm -rf cfgdev/.claims"), undefined, "the broken config itself may go");
});

Shell("should judge a path past PATH_MAX as a place the text does not fix, not walk its every directory", ({ box }) => {
  // 20,000 directories deep: each check walked each of them (21 s, past the agent's wait for the hook).
  const deep = "x/".repeat(20_000);
  assert.is(bash(box, `touch ${deep}f`), "deny", "no call opens it whole; any file, where another session holds one");
  assert.is(bash(box, `rm u.ts; touch ${deep}f`), "deny");
  assert.is(bash(box, `touch ${"x/".repeat(100)}f`), undefined, "a deep path within PATH_MAX is judged as it is");
});

Shell("should read a substitution the grammar leaves a word in a ${…} operand, and mapfile's callback, as commands bash runs", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["echo ${x:-`rm u.ts`}", ["u.ts"]],
    ["x=a; echo ${x/`rm u.ts`/}", ["u.ts"]],
    ["echo ${x#`rm u.ts`}", ["u.ts"]],
    ["echo ${x:-${y:-`rm u.ts`}}", ["u.ts"]],
    ['echo "${x:-`rm u.ts`}"', ["u.ts"]],
    ["echo ${x:-<(echo hi > u.ts)}", ["u.ts"]],
    ["echo ${x:-`date`}", []],
    ["echo ${x:-`rm -f $PWD/u.ts`}", ["u.ts"]], // an operand the grammar makes a concatenation, or an error
    ["echo ${x:-`rm $y`}", ["unknown:."]],
    ['pwd() { echo /elsewhere; }; rm -f "$(pwd)/u.ts"', ["unknown:u.ts"]], // a function named pwd is no pwd
    ["echo '${x:-`rm u.ts`}'", []], // quoted: no substitution
    ["mapfile -t -C 'rm u.ts;:' -c 1 a <<< x", ["u.ts"]],
    ["readarray -tC 'echo x > v.ts;:' a < u.ts", ["v.ts"]],
    ['mapfile -C "$cb" a < u.ts', ["unknown:."]],
    ["mapfile -t a < u.ts", []],
    ['mapfile -t "$name" < u.ts', []], // an array's name the text does not fix: no callback
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["echo ${x:-`rm u.ts`}", "bash -c 'echo ${x:-`rm u.ts`}'", "echo ${x:-<(echo hi > u.ts)}", "mapfile -t -C 'rm u.ts;:' -c 1 a <<< x"]) assert.is(bash(box, command), "deny", command);
  assert.is(bash(box, "echo ${x:-`date`}"), undefined);
});

Shell("should judge a written path with a variable or a substitution in it by the part the text fixes", async ({ box }) => {
  mkdirSync(join(box.project, "gen"));
  mkdirSync(join(box.project, "dst"));
  const cases: Array<[string, string[]]> = [
    // In a directory: the fixed tail after the last expansion, in a place the hook cannot know.
    ['echo x > "$d/u.ts"', ["unknown:u.ts"]],
    ['echo x > "$(workdir)/u.ts"', ["unknown:u.ts"]],
    ['echo x > "$(pwd)/u.ts"', ["u.ts"]], // `$(pwd)`, `$(pwd -P)`: where the command runs, as `$PWD`
    ['cd gen && echo x > "$(pwd -P)/u.ts"', ["gen/u.ts"]],
    ['echo x >> "${dir}x/sub/u.ts"', ["unknown:sub/u.ts"]],
    ['sort -o "$d/x" f', ["unknown:x"]],
    ['cp a "$d/b.ts"', ["unknown:a", "unknown:b.ts"]],
    ['cp "$d/a.ts" dst', ["dst/a.ts"]],
    ['tee "$d/x"', ["unknown:x"]],
    ['tee "$HOME/project/x"', ["x"]],
    ['touch "${dir}/a.ts"', ["unknown:a.ts"]],
    ['rm -f "$d"/*.ts', ["unknown:*.ts"]],
    ['dd if=/dev/zero of="$d/img"', ["unknown:img"]],
    ['time -o "$d/t" ls', ["unknown:t"]],
    ['curl -so "$d/a" https://example.com/', ["unknown:a"]],
    // In the name: any file of that shape in a fixed directory; a name that starts with one may be a path.
    ['echo x > "out-$n.ts"', ["glob:out-*.ts"]],
    ['echo x > "gen/out-${n}-$m.ts"', ["glob:gen/out-*-*.ts"]],
    ['echo x > "gen/$f"', ["glob:gen/**"]],
    ['cp "$f" dst/', ["glob:dst/**"]],
    ['cp "out-$n.ts" dst/', ["glob:dst/out-*.ts"]],
    ['echo x > "$f"', ["unknown:."]],
    ['echo x > "$d/out-$n.ts"', ["unknown:out-*.ts"]],
    // Temp space: $TMPDIR and what mktemp makes hold no claim.
    ['echo x > "$TMPDIR/x"', []],
    ['echo x > "${TMPDIR:-/tmp}/x"', []],
    ['echo x > "$(mktemp)"', []],
    ['t=$(mktemp -d); cp a.ts "$t/"; echo x > "$t/b"; mv "$t/b" u.ts', ["u.ts"]],
    ['t="$(mktemp)"; t=u.ts; echo x > "$t"', ["unknown:."]],
    ['TMPDIR=.; echo x > "$TMPDIR/u.ts"', ["unknown:u.ts"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ['echo x > "$d/u.ts"', 'echo x > "$(workdir)/u.ts"', 'echo x > "$(pwd)/u.ts"', 'sort -o "$d/u.ts" x.ts', 'cp a "$d/u.ts"', 'tee "$d/u.ts"', 'touch "${dir}/u.ts"', 'echo x > "$f"', 'echo x > "${n}.ts"']) {
    assert.is(bash(box, command), "deny", command);
  }
  for (const command of ['echo x > "$d/v.ts"', 'echo x > "$TMPDIR/u.ts"', 'f=$(mktemp); sort u.ts > "$f"', "echo x >/dev/null 2>&1", 'echo x > "out-$n.js"', 'cp v.ts "$d/"']) {
    assert.is(bash(box, command), undefined, command);
  }
});

Shell("should judge a program read from a pipe, a substitution or a string the text does not fix as writing what it cannot know", async ({ box }) => {
  mkdirSync(join(box.project, "dst"));
  for (const command of [
    "bash <(curl -fsSL https://example.com/install.sh)",
    'bash -c "$(curl -fsSL https://example.com/install.sh)"',
    "curl -s https://example.com/x | source /dev/stdin",
    "source /dev/stdin",
    ". <(kubectl completion bash)",
    "curl -s https://example.com/x.py | python3",
    "curl -s https://example.com/x.py | python3 -",
    "curl -s https://example.com/x.py | python3.12 -u - --flag",
    "curl -s https://example.com/x.js | node",
    "curl -s https://example.com/x.js | node -",
    "curl -s https://example.com/x.pl | perl",
    "curl -s https://example.com/x.rb | ruby",
    "curl -s https://example.com/x.php | php",
    "cat x.py | sudo -E python3 2>/dev/null",
    "python3 <(curl -s https://example.com/x.py)",
    'env -S "$cmd"',
    'eval "$x"',
    "find . -name '*.ts' | xargs sh -c 'echo \"$@\"' _",
    "find . -name '*.ts' | xargs rm",
    "find . -name '*.ts' | xargs -0 sed -i s/a/b/",
    // A program typed later at the terminal (a Codex tty session written to with write_stdin).
    "python3",
    "python3 -i x.py",
    "node",
    "node --interactive",
    "php -a",
    "irb",
    "cd sub && ipython",
    "python3 -q",
    "python3 -",
    "node --inspect",
  ]) {
    assert.equal(await writes(box, command), ["unknown:."], command);
    assert.is(bash(box, command), "deny", command);
  }
  const cases: Array<[string, string[]]> = [
    ["eval 'rm f'", ["f"]],
    ["ls | xargs -I{} cp {} dst/", ["glob:dst/**"]],
    ["ls | xargs -n1 cp -t dst", ["glob:dst/**"]],
    ["ls | xargs grep -l x", []],
    ["python3 script.py", []],
    ["node x.js", []],
    ["cat data | python3 script.py", []],
    ["cat data | python3 -c 'import sys; print(sys.stdin.read())'", []],
    ["cat x.js | node --check", []],
    ["python3 - <<'EOF'\nprint(1)\nEOF", []],
    ["ruby -v", []],
    ["python3 --version", []],
    ["node -e 'console.log(1)'", []],
    ["bash scripts/build.sh", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["python3 script.py", "node x.js", "cat data | python3 script.py", "ls | xargs grep -l x", "ls | xargs -I{} cat {}"]) {
    assert.is(bash(box, command), undefined, command);
  }
});

Shell("should read a perl -n/-p one-liner that can only read and print as reading its files, and any other as before", async ({ box }) => {
  for (const command of [
    "perl -ne 'print if /x/' u.ts",
    "perl -pe 's/a/b/' u.ts",
    "perl -lane 'print $F[0]' u.ts",
    "perl -F: -lane 'print $F[1]' u.ts",
    "perl -nE 'say if /export/' u.ts",
    `perl -ne 'print "$ARGV: $_" if /export/' *.ts`,
    "perl -0777 -ne 'print length' u.ts",
  ]) {
    assert.equal(await writes(box, command), [], command);
    assert.is(bash(box, command), undefined, command);
  }
  for (const command of [
    "perl -pi -e 's/a/b/' u.ts",
    "perl -i.bak -pe 's/a/b/' u.ts",
    "perl -pe 'BEGIN { $^I = q{} } s/a/b/' u.ts", // -i from inside
    "perl -pe '${^I} = 1' u.ts",
    "PERL5OPT=-i perl -pe 's/a/b/' u.ts",
    "perl -ne 'open F, q{+<}, $ARGV' u.ts",
    "perl -ne 'system q(true)' u.ts",
    "perl -ne 'BEGIN { @ARGV = map { chr(62) . $_ } @ARGV } print' u.ts", // `<>` opens `>u.ts` for writing
    "perl -pe 's/(.*)/$1/ee' u.ts",
    "perl -ne 'print {$h} $_' u.ts",
    "perl -MFile::Copy -ne 'print' u.ts",
    "perl -ne '`true`' u.ts",
    "perl -e 'print' u.ts", // no loop: as any inline program's arguments
    "perl -ne 'print' '>u.ts'", // two-argument open's mode, whatever the program
    "perl -ne 'print' ' >> u.ts'",
    "perl -pe 1 u.ts > u.ts",
    "perl -ne 'BEGIN { unshift @INC, sub { return \\ (q(trun).q(cate $ARGV, 0; 1;)) } } binmode STDOUT, q(:encoding(UTF-8)); print' u.ts", // a module perl loads by itself, its source from a hook
    "perl -pF'e -i' -e 's/a/b/' u.ts", // -F's pattern ends at the space: -i
    "perl -p '-F:e -i' -e 's/a/b/' u.ts",
  ]) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.equal(await writes(box, "perl -ne 'print' '>u.ts'"), ["u.ts"]);
  assert.equal(await writes(box, "perl -ne 'print' 'cmd |'"), ["unknown:."]);
});

Shell("should judge git commands that rewrite the work tree as writes anywhere in it, and the ones that do not as none", async ({ box }) => {
  spawnSync("git", ["init", "-q", box.project]);
  mkdirSync(join(box.project, "sub"));
  writeFileSync(join(box.project, "x.ts"), "");
  const cases: Array<[string, string[]]> = [
    ["git checkout main", ["glob:**"]],
    ["git checkout -b new origin/main", ["glob:**"]],
    ["git checkout main new.ts", ["new.ts"]],
    ["git checkout -b new", []],
    ["yes | git checkout -p", ["glob:**"]], // every change of the work tree, offered and taken
    ["git checkout --patch", ["glob:**"]],
    ["git checkout -p x.ts", ["x.ts"]],
    ["yes | git restore -p", ["glob:**"]],
    ["git restore --patch x.ts", ["x.ts"]],
    ["git switch main", ["glob:**"]],
    ["git switch -c new", []],
    ["git reset --hard", ["glob:**"]],
    ["git reset --keep HEAD~1", ["glob:**"]],
    ["git reset HEAD~1", []],
    ["git stash", ["glob:**"]],
    ["git stash -u", ["glob:**"]],
    ["git stash pop", ["glob:**"]],
    ["git stash push -- x.ts", ["x.ts"]],
    ["git stash list", []],
    ["git stash show -p", []],
    ["git clean -fd", ["glob:**", "sub"]], // and each untracked directory, removed whole
    ["git clean -fdi", ["glob:**"]], // it asks first
    ["git clean -f sub", ["sub"]],
    ["git clean -nd", []],
    ["git pull --rebase", ["glob:**"]],
    ["git merge feature", ["glob:**"]],
    ["git rebase -i HEAD~3", ["glob:**"]],
    ["git rebase --quit", []],
    ["git cherry-pick abc123", ["glob:**"]],
    ["git revert HEAD", ["glob:**"]],
    ["git am < fix.mbox", ["glob:**"]],
    ["git -C sub reset --hard", ["glob:**"]],
    ['git checkout "$branch"', ["glob:**"]],
    ['git restore -- "$f"', ["glob:**"]],
    ['git -C "$d" reset --hard', ["unknown:."]],
    ["GIT_WORK_TREE=sub git checkout main", ["glob:sub/**"]],
    ["git status", []],
    ["git log --grep=merge", []],
    ["git merge --help", []],
    ["git config --file u.ts a.b c", ["u.ts"]],
    ["git config -f u.ts --unset a.b", ["u.ts"]],
    ["git config -f u.ts --get a.b", []],
    ["git config -f u.ts a.b", []],
    ["git config user.name x", []], // the repository's own, in .git
    ["gh pr checkout 12", ["glob:**"]], // GitHub's CLI: a pull request's branch, checked out
    ["gh co 12", ["glob:**"]],
    ["gh -R o/r pr checkout -b mine 12", ["glob:**"]],
    ["gh repo clone o/tool", ["glob:tool/**"]],
    ["gh repo clone o/r sub/lib -- --depth 1", ["glob:sub/lib/**"]],
    ["gh pr view 12", []],
    ["gh pr create --title checkout --body x", []],
    ["gh release download v1", ["glob:*"]], // the release's assets, into where it runs
    ["gh release download v1 -D dist", ["glob:dist/*"]],
    ["gh release download -R o/r --pattern '*.tgz' --dir=dist", ["glob:dist/*.tgz"]],
    ["gh release download v1 --archive zip", ["glob:*.zip"]],
    ["gh release download v1 -p app.zip -O u.ts", ["u.ts"]],
    ["gh release download v1 -O -", []],
    ["gh run download 123", ["glob:**"]], // artifacts, unpacked
    ["gh run download -n dist -D out", ["glob:out/**"]],
    ["gh release view v1", []],
    ["gh run view 123 --log", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  assert.equal(await writes(box, "git config --global user.name x"), [join(box.root, ".gitconfig")]);
  assert.equal(await writes(box, "git config --global --list"), []);
  for (const command of ["git checkout main", "yes | git checkout -p", "yes | git restore -p", "git pull", "git stash", "git reset --hard origin/main", "git clean -fdx", "cd sub && git merge feature", "gh pr checkout 12", "gh release download v1", "gh run download 123", "gh release download v1 -O u.ts"]) {
    assert.is(bash(box, command), "deny", command);
  }
  for (const command of ["gh release download v1 -D dist", "gh run download 123 -D out", "gh release view v1"]) assert.is(bash(box, command), undefined, command);
  const reason = JSON.parse(event(box, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git checkout main" } }).stdout).hookSpecificOutput.permissionDecisionReason;
  assert.ok(reason.includes("claims handover u.ts --purpose"), `the handover named is the claim in the way, not the whole tree:\n${reason}`);
  assert.ok(reason.includes("- any file here (the command may rewrite files it does not name): the claim on"), `the write is named in words, not as **:\n${reason}`);
  for (const command of ["git checkout -b new", "git stash list", "git reset HEAD~1", "git clean -n", "git status", "git clean -f sub"]) {
    assert.is(bash(box, command), undefined, command);
  }
  // Outside a repository git writes nothing.
  rmSync(join(box.project, ".git"), { recursive: true });
  assert.equal(await writes(box, "git checkout main"), [], "no repository");
  assert.is(bash(box, "git reset --hard"), undefined, "no repository");
});

Shell("should judge git filter-branch as a checkout of the whole tree, and read the shell code it, rebase -x and bisect run run", async ({ box }) => {
  spawnSync("git", ["init", "-q", box.project]);
  const cases: Array<[string, string[]]> = [
    ["git filter-branch --tree-filter 'sed -i s/a/b/ x.ts' HEAD", [".git-rewrite/t/x.ts", "glob:**"]], // each commit's files in its temp checkout, then the result checked out here
    ["git filter-branch --index-filter 'git rm --cached --ignore-unmatch secrets.txt' -- --all", ["glob:**"]],
    ["git filter-branch -f --prune-empty --subdirectory-filter lib HEAD", ["glob:**"]],
    ["git filter-branch -f -d ../scratch --msg-filter 'sed s/x/y/' HEAD", ["glob:**", `glob:${join(box.root, "scratch")}/**`]], // -f: -d's directory removed first
    [`git filter-branch --tree-filter 'rm -f ${join(box.root, "elsewhere.ts")}' HEAD`, [join(box.root, "elsewhere.ts"), "glob:**"]],
    ['git filter-branch --env-filter "$F" HEAD', ["glob:**", "unknown:."]],
    [`git rebase -x 'rm -f ${join(box.root, "elsewhere.ts")}' main`, [join(box.root, "elsewhere.ts"), "glob:**"]],
    [`git bisect run sh -c 'rm -f ${join(box.root, "elsewhere.ts")}'`, [join(box.root, "elsewhere.ts"), "glob:**"]],
    ["git filter-branch --help", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  assert.is(bash(box, "git filter-branch --tree-filter 'true' HEAD"), "deny");
  // Outside a repository it fails before it writes.
  rmSync(join(box.project, ".git"), { recursive: true });
  assert.equal(await writes(box, "git filter-branch --index-filter 'true' HEAD"), [], "no repository");
});

Shell("should judge Git LFS's pull, checkout and migrate as git pull and git checkout are judged, and its fetch and reports as none", async ({ box }) => {
  spawnSync("git", ["init", "-q", box.project]);
  mkdirSync(join(box.project, "assets"));
  const cases: Array<[string, string[]]> = [
    ["git lfs pull", ["glob:**"]], // fetch, then checkout: any LFS file of the work tree
    ["git lfs pull origin -I 'assets/*'", ["glob:**"]],
    ["git lfs checkout", ["glob:**"]],
    ["git lfs checkout assets u.ts", ["assets", "u.ts"]], // only what its patterns match
    ["git lfs checkout '*.psd'", ["glob:**"]], // a pattern that matches at any depth
    ["git lfs checkout --to theirs.psd --theirs assets/a.psd", ["theirs.psd"]], // one side of a conflict, to that file alone
    ["git lfs migrate import --include='*.psd'", ["glob:**"]], // history rewritten, and the work tree with it
    ["git lfs migrate export --everything --include='*.bin' --object-map=map.csv", ["glob:**", "map.csv"]],
    ["git lfs migrate import --no-rewrite assets/a.psd", ["glob:**"]],
    ["git -C assets lfs pull", ["glob:**"]],
    ["git-lfs pull", ["glob:**"]], // by its own name
    ["git-lfs checkout u.ts", ["u.ts"]],
    ["git lfs migrate info --everything", []],
    ["git lfs fetch --all", []], // into .git/lfs
    ["git lfs ls-files", []],
    ["git lfs status", []],
    ["git lfs pull --help", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["git lfs pull", "git lfs pull origin main", "git lfs checkout", "git lfs checkout u.ts", "git lfs migrate import --above=1MB", "cd assets && git lfs checkout ../u.ts", "git-lfs pull", "git lfs checkout --to u.ts --ours a.psd"]) {
    assert.is(bash(box, command), "deny", command);
  }
  for (const command of ["git lfs fetch", "git lfs fetch --all origin", "git lfs ls-files", "git lfs migrate info", "git lfs checkout assets", "git lfs checkout --to theirs.psd --theirs u.ts"]) assert.is(bash(box, command), undefined, command);
  rmSync(join(box.project, ".git"), { recursive: true });
  assert.equal(await writes(box, "git lfs pull"), [], "no repository");
});

Shell("should judge find's -delete, -exec and -fprint: what it finds under each starting point, and the file it prints to", async ({ box }) => {
  mkdirSync(join(box.project, "sub"));
  mkdirSync(join(box.project, "dst"));
  writeFileSync(join(box.project, "x.ts"), "");
  const cases: Array<[string, string[]]> = [
    ["find sub -name '*.ts' -exec sed -i s/a/b/ {} +", ["glob:sub/**"]],
    ["find . -exec sed -i s/a/b/ '{}' ';'", ["glob:**"]],
    ["find x.ts -exec rm {} \\;", ["x.ts"]],
    ["find sub x.ts -exec rm {} +", ["glob:sub/**", "x.ts"]],
    ["find . -type f -exec cp {} dst/ \\;", ["glob:dst/**"]],
    ["find sub -execdir rm {} +", ["glob:sub/**"]],
    ["find sub -exec bash -c 'sed -i s/x/y/ {}' \\;", ["glob:sub/**"]],
    ["find sub -exec sh -c 'rm \"$1\"' _ {} \\;", ["glob:sub/**"]], // `$1` is what find finds
    ["find . -exec mv {} {}.bak \\;", ["glob:**", "unknown:."]],
    ["find -L sub -name '*.orig' -delete", ["sub"]],
    ["find -name '*.orig' -delete", ["."]],
    ['find "$d" -delete', ["unknown:."]],
    ["find . -fprint list.txt", ["list.txt"]],
    ["find . -fprintf list.txt '%p'", ["list.txt"]],
    ["find . -name '*.ts' -exec grep -l x {} +", []],
    ["find . -name -delete -print", []],
    ["find . -newermt yesterday -print", []],
  ];
  for (const [command, expected] of cases) assert.equal((await writes(box, command)).map((path) => (path === box.project ? "." : path)), expected, command);
  for (const command of ["find . -name '*.ts' -exec sed -i s/a/b/ {} +", "find . -name u.ts -delete", "find . -type f -exec rm {} \\;", "find . -execdir rm {} +"]) {
    assert.is(bash(box, command), "deny", command);
  }
  for (const command of ["find . -name '*.ts'", "find . -name '*.ts' -exec grep -l x {} +", "find sub -delete", "find sub -exec sed -i s/a/b/ {} +"]) {
    assert.is(bash(box, command), undefined, command);
  }
});

Shell("should judge what fd and fdfind run with -x and -X on what they find: any file under each search path", async ({ box }) => {
  mkdirSync(join(box.project, "sub"));
  mkdirSync(join(box.project, "dst"));
  mkdirSync(join(box.project, "src"));
  const cases: Array<[string, string[]]> = [
    ["fd -e ts -x rm", ["glob:**"]], // no placeholder: the file is the last word
    ["fd . sub -x rm {}", ["glob:sub/**"]],
    ["fdfind -e ts . sub -X sed -i s/a/b/", ["glob:sub/**"]], // Debian's name
    ["fd --exec-batch rm -f", ["glob:**"]],
    ["fd -t f --search-path sub --exec rm", ["glob:sub/**"]],
    ["fd -C sub -x rm", ["glob:sub/**"]], // from its base directory
    ["fd -Hx rm", ["glob:**"]], // -x at the end of a cluster
    ["fd --exec=rm", ["glob:**"]],
    ["fd -x cp {} dst/ \\;", ["glob:dst/**"]],
    ["fd -x mv {} {.}.bak", ["glob:**", "unknown:."]], // a placeholder inside a word: a name unknown
    ["fd -x sh -c 'rm {}'", ["glob:**"]],
    ["fd -e ts -x gzip -k {/}", ["glob:*", "glob:*.gz"]], // a found file's name, where it runs
    ['fd . "$d" -x rm', ["unknown:."]],
    ["fd -x rm \\; -e ts . sub", ["glob:sub/**"]], // fd's own words again after the command's `;`: the pattern, a path
    ["fd -e ts", []],
    ["fd -ex .", []], // -e's value, not -x
    ["fd -x wc -l", []],
    ["fd -l", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  claims(["take", join(box.project, "src") + "/", "--dir", box.dir, "--holder", "other", "--purpose", "refactor"]);
  for (const command of ["fd . src -x rm", "fd -e ts -x rm", "fdfind -X rm", "fd -C src -x rm {}", "fd . src -x sh -c 'rm {}'"]) assert.is(bash(box, command), "deny", command);
  for (const command of ["fd . sub -x rm", "fd -e ts", "fd . src -x wc -l", "fd . src"]) assert.is(bash(box, command), undefined, command);
});

Shell("should read a for loop's variable as each value of its list, and a list the text does not fix as unknown", async ({ box }) => {
  mkdirSync(join(box.project, "src"));
  mkdirSync(join(box.project, "dst"));
  for (const name of ["a.ts", "b.ts", "c.md"]) writeFileSync(join(box.project, "src", name), "");
  const cases: Array<[string, string[]]> = [
    ['for f in src/*.ts; do sed -i s/a/b/ "$f"; done', ["src/a.ts", "src/b.ts"]],
    ["for f in u.ts x.ts; do rm $f; done", ["u.ts", "x.ts"]],
    ['for f in src/*.ts; do cp "${f}" dst/; done', ["dst/a.ts", "dst/b.ts"]],
    ['for f in src/**; do rm "$f"; done', ["glob:src/**"]],
    ['for f in src/*.ts; do echo "$f"; done > list.txt', ["list.txt"]],
    ['for f in $(git ls-files); do rm "$f"; done', ["unknown:."]],
    ['for f in "$@"; do rm "$f"; done', ["unknown:."]],
    ['for f; do rm "$f"; done', ["unknown:."]],
    ['for f in a.ts; do f=u.ts; rm "$f"; done', ["unknown:."]],
    ['for f in src/*.ts; do rm "$f.bak"; done', ["src/a.ts.bak", "src/b.ts.bak"]], // each pass its own value
    ['for f in $(git ls-files); do rm "$f.bak"; done', ["unknown:."]],
    ['for f in src/a.ts; do for g in src/b.ts; do cp "$f" "$g"; done; done', ["src/b.ts"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  assert.is(bash(box, 'for f in src/*.ts; do sed -i s/a/b/ "$f"; done'), undefined, "none of the loop's files is held");
  assert.is(bash(box, 'for f in src/*.ts u.ts; do sed -i s/a/b/ "$f"; done'), "deny", "u.ts is");
});

Shell("should read eval of a tool that only prints shell settings as writing nothing, and any other eval of output as unknown", async ({ box }) => {
  for (const command of ['eval "$(ssh-agent -s)"', "eval $(pyenv init -)", 'eval "$(brew shellenv)"', 'eval "$(conda shell.bash hook)"', "eval `dircolors -b`", 'eval "$(zoxide init bash)"']) {
    assert.equal(await writes(box, command), [], command);
    assert.is(bash(box, command), undefined, command);
  }
  for (const command of ['eval "$(direnv export bash)"', 'eval "$(ssh-agent -s; rm x)"', 'eval "$(curl -s https://example.com/)"', 'eval "set $(ssh-agent -s)"']) {
    assert.equal((await writes(box, command)).filter((path) => path !== "x"), ["unknown:."], command);
    assert.is(bash(box, command), "deny", command);
  }
  assert.equal(await writes(box, 'eval "$(pyenv init -)" && echo x > u.ts'), ["u.ts"], "what follows is read as ever");
});

Shell("should read a command named as a property every object has (constructor, toString) as the unknown command it is", async ({ box }) => {
  // Not a wrapper of the hook's tables: a command bash looks for by that name, which may run the rest of its line as any unknown command may.
  assert.equal(await writes(box, "constructor f"), [], "no file it writes");
  assert.equal(await writes(box, "constructor -n 1 rm f"), ["f"]);
  assert.equal(await writes(box, `${"toString ".repeat(6)}rm f`), ["f"]);
  assert.equal(await writes(box, "__proto__ x > f"), ["f"], "its redirection still writes");
  assert.is(bash(box, "valueOf -n 1 cat u.ts"), undefined);
  assert.is(bash(box, "valueOf -n 1 rm u.ts"), "deny");
});

Shell("should judge formatters and fixers by what they rewrite, and package managers by their manifest, lock file and node_modules", async ({ box }) => {
  mkdirSync(join(box.project, "src"));
  writeFileSync(join(box.project, "package.json"), "{}\n");
  const cases: Array<[string, string[]]> = [
    ["npx prettier --write u.ts", ["u.ts"]],
    ["npx prettier@3 -w 'src/**/*.ts'", ["glob:src/**/*.ts"]],
    ["prettier --check u.ts", []],
    ["npx eslint --fix src", ["src"]],
    ["eslint --fix", ["."]],
    ["eslint -o report.txt src", ["report.txt"]],
    ["eslint src", []],
    ["black src", ["src"]],
    ["black --check src", []],
    ["python3 -m black src", ["src"]],
    ["ruff format", ["."]],
    ["ruff check --fix u.ts", ["u.ts"]],
    ["ruff check u.ts", []],
    ["uv run ruff format src", ["src"]],
    ["gofmt -w u.go", ["u.go"]],
    ["gofmt -l .", []],
    ["clang-format -i a.c", ["a.c"]],
    ["cargo fmt -- --check", []],
    ["npx -c 'prettier --write u.ts'", ["u.ts"]],
    ["pnpm exec prettier --write src", ["src"]],
    ["npm install lodash", ["glob:node_modules/**", "package-lock.json", "package.json", "npm-shrinkwrap.json"].sort()],
    ["npm ci", ["glob:node_modules/**", "npm-shrinkwrap.json", "package-lock.json"]],
    ["cd src && npm i -D typescript", ["glob:node_modules/**", "npm-shrinkwrap.json", "package-lock.json", "package.json"]],
    ["npm install -g typescript", []],
    ["yarn add x", [".pnp.cjs", ".pnp.loader.mjs", "glob:node_modules/**", "package.json", "yarn.lock"]],
    ["npm test", []],
    ["npm run build", []],
    ["npx tsc --noEmit", []],
    ["go test ./...", []],
    ["npx oxlint --fix src", ["src"]],
    ["oxlint src", []],
    ["npx standard --fix", ["."]],
    ["npx xo --fix u.ts", ["u.ts"]],
    ["markdownlint -f u.ts", ["u.ts"]],
    ["npx markdownlint-cli2 --fix '**/*.md'", ["glob:**/*.md"]],
    ["codespell -w", ["."]],
    ["codespell src", []],
    ["ktlint -F", ["."]],
    ["swiftformat src", ["src"]],
    ["swiftformat --lint src", []],
    ["vendor/bin/pint", ["."]],
    ["vendor/bin/pint --test", []],
    ["vendor/bin/pint --version", []],
    ["pint -h", []],
    ["php-cs-fixer fix src", ["src"]],
    ["php-cs-fixer fix --dry-run", []],
    ["golangci-lint run --fix", ["glob:**"]],
    ["golangci-lint run --fix ./src/...", ["glob:src/**"]],
    ["golangci-lint run ./...", []],
    ["dart format .", ["."]],
    ["dart format -o none .", []],
    ["dart fix --apply", ["."]],
    ["dart fix --dry-run", []],
    // --help prints and stops.
    ["dart format --help", []],
    ["php-cs-fixer fix --help src", []],
    ["golangci-lint fmt --help", []],
    ["npx oxlint --fix --help", []],
    ["npx playwright test -u --help", []],
    ["pip-compile --help", []],
    ["dart format -- --help", ["--help"]], // after --, a file of that name
    ["pip-compile requirements.in", ["requirements.txt"]], // pinned requirements beside their source
    ["pip-compile", ["requirements.txt"]],
    ["pip-compile -o reqs/dev.txt dev.in", ["reqs/dev.txt"]],
    ["pip-compile --output-file=locked.txt dev.in", ["locked.txt"]],
    ["pip-compile src/pyproject.toml", ["src/requirements.txt"]],
    ["python3 -m piptools compile requirements.in", ["requirements.txt"]],
    ["pip-compile --dry-run requirements.in", []],
    ["pip-compile -o - requirements.in", []],
    ["uv pip compile requirements.in -o requirements.txt", ["requirements.txt"]],
    ["uv --directory src pip compile requirements.in -o requirements.txt", ["src/requirements.txt"]],
    ["uv pip compile requirements.in", []], // prints
    ["pip freeze > requirements.txt", ["requirements.txt"]],
    ["npx playwright test --update-snapshots", ["glob:**", "glob:test-results/**"]], // snapshots, and aria snapshots in the tests: anything under where it runs
    ["npx playwright test -u", ["glob:**", "glob:test-results/**"]],
    ["pnpm exec playwright test -u", ["glob:**", "glob:test-results/**"]],
    ["yarn playwright test --update-snapshots=changed", ["glob:**", "glob:test-results/**"]],
    ["bunx playwright test -c e2e/playwright.config.ts -u", ["glob:**", "glob:e2e/**", "glob:e2e/test-results/**"]],
    // Every run empties and fills its output directory: test-results/ beside its config, or --output's.
    ["npx playwright test --update-snapshots=none", ["glob:test-results/**"]],
    ["npx playwright test", ["glob:test-results/**"]],
    ["npx playwright test --output out", ["glob:out/**"]],
    ["npx playwright test --list", []],
    ["go test -update ./...", ["glob:**"]], // golden files, by convention
    ["go test ./... -args -update", ["glob:**"]],
    ["go test -run TestGolden -update ./src/...", ["glob:src/**"]],
    ["go test -update", ["glob:**"]],
    ["go -C src test -update", ["glob:src/**"]],
    ["go test -update=false ./...", []],
    ["go test -v -run Update ./...", []],
  ];
  for (const [command, expected] of cases) assert.equal((await writes(box, command)).map((path) => (path === box.project ? "." : path)), expected, command);
  for (const command of ["npx prettier --write u.ts", "eslint --fix .", "black .", "ruff check --fix u.ts", "npx oxlint --fix", "golangci-lint run --fix", "dart format .", "npx playwright test -u", "go test -update ./...", "go test ./... -args -update"]) assert.is(bash(box, command), "deny", command);
  for (const command of ["npx prettier --check u.ts", "eslint .", "npm test", "npx prettier --write src", "npx playwright test", "go test ./...", "uv pip compile requirements.in"]) assert.is(bash(box, command), undefined, command);
  writeFileSync(join(box.project, "requirements.txt"), "");
  claims(["take", join(box.project, "requirements.txt"), "--dir", box.dir, "--holder", "other", "--purpose", "pins"]);
  for (const command of ["pip-compile requirements.in", "pip-compile", "uv pip compile requirements.in -o requirements.txt"]) assert.is(bash(box, command), "deny", command);
  for (const command of ["pip-compile --dry-run requirements.in", "uv pip compile requirements.in", "pip-compile -o dev.txt dev.in"]) assert.is(bash(box, command), undefined, command);
  claims(["take", join(box.project, "package.json"), "--dir", box.dir, "--holder", "other", "--purpose", "scripts"]);
  assert.is(bash(box, "npm install lodash"), "deny", "another session edits package.json");
  assert.is(bash(box, "npm test"), undefined);
});

Shell("should take a branch before a file of its name, read git pathspecs with glob characters or magic as what they match, and read the rarer git commands that rewrite the tree", async ({ box }) => {
  const git = (...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: box.project, encoding: "utf8" });
  git("init", "-q");
  git("commit", "-q", "--allow-empty", "-m", "first");
  git("branch", "docs");
  mkdirSync(join(box.project, "docs"));
  mkdirSync(join(box.project, "src"));
  writeFileSync(join(box.project, "src", "a.ts"), "");
  const cases: Array<[string, string[]]> = [
    ["git checkout docs", ["glob:**"]],
    ["git checkout src", ["src"]],
    ["git checkout HEAD src/a.ts", ["src/a.ts"]],
    ["git checkout -- '*.ts'", ["glob:**"]],
    ["git restore 'src/*.ts'", ["glob:src/**"]],
    ["git stash push -- '*.ts'", ["glob:**"]],
    ["git checkout -- ':/'", ["glob:**"]],
    ["git restore ':(top)src'", ["glob:**"]],
    ["git stash --", ["glob:**"]],
    ["git bisect start", ["glob:**"]],
    ["git bisect log", []],
    ["git submodule update --init", ["glob:**"]],
    ["git sparse-checkout set src", ["glob:**"]],
    ["git subtree pull --prefix=src ../lib main", ["glob:src/**"]], // git-subtree merges into its prefix
    ["git subtree add -P vendor/lib ../lib main", ["glob:vendor/lib/**"]],
    ["cd src && git subtree merge --prefix src FETCH_HEAD", ["glob:src/**"]], // from the top of the work tree
    ["git subtree split --prefix=src -b only-src", []],
    ['git subtree "$op" -P src ../lib main', ["glob:src/**"]], // an operation the text does not fix: as add
    ["git read-tree -u HEAD", ["glob:**"]],
    ["git checkout-index -a -f", ["glob:**"]],
    ["git merge-file src/a.ts base.ts other.ts", ["src/a.ts"]],
    ["git \\\n  checkout docs", ["glob:**"]],
    ['git "checkout" docs', ["glob:**"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  rmSync(join(box.project, ".git"), { recursive: true });
  assert.equal(await writes(box, `git --git-dir=${join(box.root, "elsewhere.git")} checkout main`), ["glob:**"], "with --git-dir, the work tree is where git runs");
});

Shell("should read a command substitution wherever it stands, and eval of a setting printer only when it runs that alone", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ['echo "$(rm u.ts)"', ["u.ts"]],
    ["echo a$(rm u.ts)b", ["u.ts"]],
    ['x="$(rm u.ts)"', ["u.ts"]],
    ['eval "$(pyenv init -\nrm u.ts)"', ["u.ts", "unknown:."]],
    ["find . -name x \\\n  -delete", ["."]],
    ["find . -regextype egrep -regex '.*\\.(ts|rej)' -delete", ["."]],
  ];
  for (const [command, expected] of cases) assert.equal((await writes(box, command)).map((path) => (path === box.project ? "." : path)), expected, command);
  assert.is(bash(box, 'echo "$(rm u.ts)"'), "deny");
});

Shell("should read yarn, pnpm and bun running a package's command by name, workspace roots, directory options, toolchains and Go-style flags", async ({ box }) => {
  writeFileSync(join(box.project, "package.json"), '{"workspaces":["packages/*"]}\n');
  mkdirSync(join(box.project, "packages", "a", "src"), { recursive: true });
  writeFileSync(join(box.project, "packages", "a", "package.json"), "{}\n");
  const member = join(box.project, "packages", "a");
  const cases: Array<[string, string[]]> = [
    ["cd packages/a && yarn prettier --write src/a.ts", ["packages/a/src/a.ts"]],
    ["cd packages/a && pnpm eslint --fix src", ["packages/a/src"]],
    ["cd packages/a && bun run prettier --write src/a.ts", ["packages/a/src/a.ts"]],
    ["npm exec prettier -- --write u.ts", ["u.ts"]],
    ["pnpm -r exec prettier --write u.ts", ["unknown:u.ts"]],
    ["npx --registry https://registry.example.com prettier --write u.ts", ["u.ts"]],
    ["pnpm test", []],
    ["yarn build", []],
    ["npm audit", []],
    ["cargo +nightly fmt -- --check", []],
    ["shfmt -i 2 -ci -w s.sh", ["s.sh"]],
    ["shfmt -ci -l s.sh", []],
    ["gofmt -s -w x.go", ["x.go"]],
    ["terraform -chdir=infra fmt main.tf", ["infra/main.tf"]],
    ['for f in "src/*.ts"; do rm $f; done', ["unknown:."]],
    ['for f in "a.ts b.ts"; do rm $f; done', ["a.ts", "b.ts"]], // split at the blank, as bash does
    ['for f in a.ts; do printf -v f x; rm "$f"; done', ["unknown:."]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  const installed = await writes(box, "cd packages/a && npm install lodash");
  for (const path of ["packages/a/package.json", "package-lock.json", "glob:node_modules/**", "glob:packages/a/node_modules/**"]) assert.ok(installed.includes(path), `${path} in ${installed}`);
  assert.ok(!installed.includes("package.json"), "the workspace's manifest is not the member's");
  assert.ok((await writes(box, "npm audit fix")).includes("package-lock.json"));
  assert.ok((await writes(box, "pnpm -C packages/a add x")).includes("packages/a/package.json"));
  assert.ok(existsSync(member));
});

Shell("should judge snapshot updates asked for through a package's script: npm's arguments after --, and pnpm's and yarn's with or without it", async ({ box }) => {
  writeFileSync(join(box.project, "package.json"), JSON.stringify({ scripts: { test: "jest", e2e: "playwright test" } }));
  const snapshots = ["glob:**/*.{test,spec}.*", "glob:**/__snapshots__/**", "glob:**/__tests__/**"].sort();
  const cases: Array<[string, string[]]> = [
    ["npm test -- -u", snapshots],
    ["pnpm test -- -u", snapshots], // pnpm drops the first --
    ["yarn test -- -u", snapshots],
    ["pnpm test -u", snapshots],
    ["npm run e2e -- --update-snapshots", ["glob:**", "glob:test-results/**"]],
    ["pnpm e2e -- -u", ["glob:**", "glob:test-results/**"]],
    ["yarn e2e -u", ["glob:**", "glob:test-results/**"]],
    ["npm test", []],
    ["pnpm e2e", ["glob:test-results/**"]], // its output directory, at every run
  ];
  for (const [command, expected] of cases) assert.equal((await writes(box, command)).sort(), expected, command);
  for (const command of ["npm run e2e -- -u", "pnpm e2e -- -u"]) assert.is(bash(box, command), "deny", command);
  assert.is(bash(box, "pnpm e2e"), undefined);
});

Shell("should read case statements and [[ == ]] tests, which the parser once threw on", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ['case "$1" in *.ts) rm u.ts;; esac', ["u.ts"]],
    ["[[ $x == y ]] && rm u.ts", ["u.ts"]],
    ["case x in *) ;; esac; npx prettier --write u.ts", ["u.ts"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ['case "$1" in *.ts) rm u.ts;; esac', "[[ $x == y ]] && rm u.ts"]) assert.is(bash(box, command), "deny", command);
  assert.is(bash(box, 'case "$1" in *.md) cat u.ts;; esac'), undefined, "a case that writes nothing is not denied");
});

Shell("should read package managers and runners as a second review found them: options in every place, workspaces, variables, aliases and read-only forms", async ({ box }) => {
  writeFileSync(join(box.project, "package.json"), '{"workspaces":["packages/*"]}\n');
  mkdirSync(join(box.project, "packages", "a", "src"), { recursive: true });
  writeFileSync(join(box.project, "packages", "a", "package.json"), "{}\n");
  const cases: Array<[string, string[]]> = [
    ['npm --prefix "$d" i x', ["unknown:.", "unknown:node_modules/**", "unknown:npm-shrinkwrap.json", "unknown:package-lock.json", "unknown:package.json"]], // its install scripts: unread
    ['cargo add x --manifest-path "$d/Cargo.toml"', ["unknown:Cargo.lock", "unknown:Cargo.toml"]],
    ["yarn workspace a test", []],
    ["yarn workspace a prettier --write src", ["unknown:src"]],
    ["yarn workspaces foreach -A run prettier --write .", ["unknown:."]],
    ["pnpm -w add -D typescript", ["glob:node_modules/**", "package.json", "pnpm-lock.yaml"]],
    ["pnpm -F a exec prettier --write .", ["unknown:."]],
    ["bun --filter a run prettier --write .", ["unknown:."]],
    ["npm --loglevel silent exec prettier -- --write u.ts", ["u.ts"]],
    ["npx -w a prettier --write .", ["unknown:."]],
    ["uv run --index https://example.com black u.py", ["u.py"]],
    ["uv tool run black u.py", ["u.py"]],
    ["env PATH=./node_modules/.bin:$PATH prettier --write u.ts", ["u.ts"]],
    ['timeout "$t" npx prettier --write u.ts', ["u.ts"]],
    ['timeout 5 "$cmd" u.ts && rm x', ["unknown:.", "x"]],
    ["npm it", ["glob:node_modules/**", "npm-shrinkwrap.json", "package-lock.json"]],
    ["yarn --immutable", [".pnp.cjs", ".pnp.loader.mjs", "glob:node_modules/**", "yarn.lock"]],
    ["corepack pnpm add x", ["glob:node_modules/**", "package.json", "pnpm-lock.yaml"]],
    ["python -mblack u.py", ["u.py"]],
    ["gofmt --w u.go", ["u.go"]],
    ["npm version", []],
    ["npm pkg get name", []],
    ["npm install --help", []],
    ["npm install --dry-run", []],
    ["go mod edit -json", []],
    ["uv lock --check", []],
    ["uv sync", ["uv.lock"]],
    ["yarn patch x", []],
    ["pnpm unlink x", []],
    ["clang-format -style=file a.c", []],
    ["clang-format -i -style=file a.c", ["a.c"]],
    ['for f in a.ts; do for f in b.ts; do :; done; rm "$f"; done', ["unknown:."]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  const { mayWrite } = await import("../src/hooks/shell.js");
  for (const command of ['git commit -m "merge upstream changes"', 'git log --grep "revert"', "git stash list", "black --check .", "ruff format --check", "cargo --version", "cargo tree --locked", "go mod graph", "npm audit", "npm view react version", "uv sync --locked"]) {
    assert.not.ok(mayWrite(command), `${command}: no parse needed`);
  }
});

Shell("should take a path with @ and a directory named like a branch's prefix as paths, and read checkout's -f and a trailing --", async ({ box }) => {
  const git = (...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: box.project, encoding: "utf8" });
  git("init", "-q");
  git("commit", "-q", "--allow-empty", "-m", "first");
  git("branch", "docs/readme");
  mkdirSync(join(box.project, "docs"));
  mkdirSync(join(box.project, "packages", "@acme"), { recursive: true });
  writeFileSync(join(box.project, "packages", "@acme", "a.ts"), "");
  const cases: Array<[string, string[]]> = [
    ["git checkout docs", ["docs"]],
    ["git checkout packages/@acme/a.ts", ["packages/@acme/a.ts"]],
    ["git checkout docs/readme --", ["glob:**"]],
    ["git checkout -f", ["glob:**"]],
    ["git checkout --", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
});

Shell("should read the GitHub Actions runner's files as temp space, unless the command sets them", async ({ box }) => {
  for (const command of ['echo "x=1" >> "$GITHUB_OUTPUT"', "echo done >> $GITHUB_STEP_SUMMARY", 'echo "$PWD/bin" >> "$GITHUB_PATH"']) {
    assert.equal(await writes(box, command), [], command);
    assert.is(bash(box, command), undefined, command);
  }
  assert.equal(await writes(box, 'GITHUB_OUTPUT=u.ts; echo x >> "$GITHUB_OUTPUT"'), ["u.ts"], "set by the command itself: an ordinary variable, here set once to u.ts");
  assert.equal(await writes(box, 'if x; then GITHUB_OUTPUT=u.ts; fi; echo x >> "$GITHUB_OUTPUT"'), ["unknown:."], "set in a branch: a value unknown");
});

Shell("should judge what tar, unzip and 7z extract as any file under the directory, and the archive they create", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["tar xf a.tar", ["glob:**"]],
    ["tar -xzf a.tgz -C dir", ["glob:dir/**"]],
    ["tar --extract --file=a.tar --directory dir", ["glob:dir/**"]],
    ["tar xzfC a.tgz dir", ["glob:dir/**"]],
    ['tar -xf a.tar -C "$d"', ["unknown:."]],
    ["tar -xOf a.tar f", []],
    ["tar cf out.tar src", ["out.tar"]],
    ["tar -czvf out.tgz src", ["out.tgz"]],
    ["tar -c -f out.tgz -C src .", ["out.tgz"]],
    ['tar czf "$d/out.tgz" src', ["unknown:out.tgz"]],
    ["tar czf out.tgz --remove-files a.ts", ["a.ts", "out.tgz"]],
    ["tar -rf out.tar a.ts", ["out.tar"]],
    ["tar cf - src", []],
    ["tar tf a.tar", []],
    ["tar -tvzf a.tgz", []],
    ["unzip a.zip", ["glob:**"]],
    ["unzip -oq a.zip -d out", ["glob:out/**"]],
    ["unzip -l a.zip", []],
    ["unzip -p a.zip f", []],
    ["7z x a.7z", ["glob:**"]],
    ["7z x a.7z -oout -y", ["glob:out/**"]],
    ["7z x a.7z -so", []],
    ["7z a out.7z src", ["out.7z"]],
    ["7z l a.7z", []],
    ["gunzip -k f.gz", ["f", "f.gz"]],
    ["gzip -d f.gz", ["f", "f.gz"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["tar xf a.tar", "tar -xzf a.tgz -C .", "tar cf u.ts src", "unzip a.zip", "7z x a.7z"]) assert.is(bash(box, command), "deny", command);
  for (const command of ["tar tf a.tar", "tar -xzf a.tgz -C other", "unzip -l a.zip", "tar cf out.tar u.ts"]) assert.is(bash(box, command), undefined, command);
});

Shell("should judge the backups rsync and wget keep, and wget's WARC file", async ({ box }) => {
  mkdirSync(join(box.project, "dst"));
  const cases: Array<[string, string[]]> = [
    ["rsync -b a b", ["b", "b~"]],
    ["rsync -ab --suffix=.old a dst", ["dst/a", "dst/a.old"]],
    ["rsync --backup a b", ["b", "b~"]],
    ["rsync -a --backup-dir=bak a dst/", ["dst/a", "dst/bak/a"]],
    ["rsync -ab --backup-dir=../bak src/ dst/", ["dst", "glob:bak/**"]],
    ['rsync -b --backup-dir "$d" a b', ["b", "unknown:b"]],
    ["wget -k -K https://example.com/u.html", ["u.html", "u.html.orig"]],
    ["wget --backup-converted -P dst https://example.com/u.html", ["dst/u.html", "dst/u.html.orig"]],
    ["wget --warc-file=arc https://example.com/a", ["a", "arc.warc.gz"]],
    ["wget -qO- --warc-file arc --no-warc-compression https://example.com/a", ["arc.warc"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  writeFileSync(join(box.project, "t.ts"), "");
  claims(["take", join(box.project, "u~"), join(box.project, "u.orig"), join(box.project, "u.ts.warc.gz"), join(box.project, "dst", "bak", "t.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "keeping"]);
  for (const command of ["rsync -b t.ts u", "rsync --backup-dir=bak t.ts dst/", "wget -K https://example.com/u", "wget --warc-file=u.ts https://example.com/a"]) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.is(bash(box, "rsync t.ts u"), undefined, "no backup asked for");
});

Shell("should read heredoc bodies where bash reads them, and commands run apart (`&`, a pipeline, coproc) or perhaps (a failing or conditional cd) as bash runs them", async ({ box }) => {
  mkdirSync(join(box.project, "src"));
  for (const [command, expected] of [
    ["cat <<EOF > a.txt; rm -f u.ts\nx\nEOF", ["a.txt", "u.ts"]],
    ["cat <<A > a.txt; cat <<B > b.txt\nx\nA\ny\nB\nrm u.ts", ["a.txt", "b.txt", "u.ts"]],
    ["cat <<EOF > a.txt; { rm u.ts; }\nx\nEOF", ["a.txt", "u.ts"]],
    // An unquoted body joins its backslash-newlines, as bash does: `hello EOF` ends nothing, the rm is body.
    ["cat <<EOF > a.txt\nhello \\\nEOF\nrm u.ts\nEOF", ["a.txt"]],
    // No end line: the rest of the text is the body, and runs nothing.
    ["cat <<'EOF' > a.txt\nx\nrm u.ts", ["a.txt"]],
    ["echo $((1<<2)) > a.txt; rm u.ts", ["a.txt", "u.ts"]], // a shift, not a heredoc
    ["x=$[1<<2]\nrm u.ts", ["u.ts"]],
    ["arr[1<<2]=3\nrm u.ts", ["u.ts"]],
    ["let x=1<<2\nrm u.ts", []], // unquoted, a heredoc to bash: the rm is its body
    ["case x in a) cat <<EOF > a.txt;; b) rm u.ts;; esac\nx\nEOF", ["a.txt", "u.ts"]],
    ["for ((i=0; i<1; i++)); do cat <<EOF > a.txt; done; rm u.ts\nx\nEOF", ["a.txt", "u.ts"]],
    // In a `$(…)` closed on its start line: the body still after the line, what follows the `)` commands.
    ["x=$(cat <<EOF); rm u.ts\nhello\nEOF\necho \"$x\" > a.txt", ["a.txt", "u.ts"]],
    ['x=$(cat <<A; cat <<B); y="$(cat <<C)" && rm u.ts\na\nA\nb\nB\nc\nC\necho > a.txt', ["a.txt", "u.ts"]],
    ["x=$(cat <<EOF | tee b.txt); echo > a.txt\n$(rm u.ts)\nEOF", ["a.txt", "b.txt", "u.ts"]],
    ["diff <(cat <<EOF) src/a.ts; rm u.ts\na\nEOF", ["u.ts"]], // a process substitution, as `$(…)`
    // A list piped on: bash pipes its last command alone (`cd src && (npm test 2>&1 | tail)`), the cd is this shell's.
    ["cd src && npm test 2>&1 | tail -20\nrm ../u.ts", ["src/../u.ts"]],
    ["cd src && ls 2>/dev/null | cat; echo x > a.txt", ["src/a.txt"]],
    ["cd src && echo hi 2>&1 | tee ../u.ts", ["src/../u.ts"]],
    ["cd src && ls | cat; echo x > a.txt", ["src/a.txt"]],
  ] as const) {
    assert.equal(await writes(box, command), [...expected].sort(), command);
  }
  // Backticks in double quotes, with a quote inside (a commit message's markdown): the grammar leaves the rest of the script an error, and a cd there is seen.
  for (const cd of ["cd src; rm ../u.ts", "if true; then cd src; fi; rm ../u.ts", "true && builtin cd src && rm ../u.ts", "for d in src; do cd $d; done; rm ../u.ts"]) {
    const error = await writes(box, `git commit -m "Handle \`user's\` field"\ncat <<EOF > n.txt\nx\nEOF\n${cd}`);
    assert.ok(error.includes("unknown:../u.ts") && !error.includes("../u.ts"), `${cd}: ${error.join(" ")}`);
  }
  for (const [command, expected] of [
    ["cd src & echo x > a.txt", ["a.txt"]],
    ["(cd src; echo x > a.txt) & echo y > b.txt", ["b.txt", "src/a.txt"]],
    ["cd src | cat && echo x > a.txt", ["a.txt"]],
    ["echo a | (cd src && cat > a.txt)", ["src/a.txt"]],
    ["cd src && echo | cat; echo x > a.txt", ["src/a.txt"]], // `cd src && (echo | cat)`: this shell's cd
    ["shopt -s lastpipe; true | cd src; echo x > a.txt", ["src/a.txt"]], // the last command in this shell
    // A cd to a directory not there: what follows runs here or not at all, unless nothing stops it.
    ["cd gone && echo x > a.txt", ["gone/a.txt"]],
    ["cd gone 2>/dev/null || exit 1; echo x > a.txt", ["gone/a.txt"]],
    ["cd gone; echo x > a.txt", ["unknown:a.txt"]],
    ["mkdir made; cd made; echo x > a.txt", ["unknown:a.txt"]], // made first: not known to the walk, judged by the name
    // A cd that may not run: what follows may be here or there; in its own `&&` chain, after it.
    ["true && cd src && echo x > a.txt; echo y > b.txt", ["src/a.txt", "unknown:b.txt"]],
    ["test -d src || cd src && echo x > a.txt", ["unknown:a.txt"]],
    ["case x in y) cd src;; esac; echo x > a.txt", ["unknown:a.txt"]],
    ["while false; do cd src; done; echo x > a.txt", ["unknown:a.txt"]],
    ["cd src && echo x > a.txt; echo y > b.txt", ["src/a.txt", "src/b.txt"]],
    ['eval "cd src"; echo x > a.txt', ["unknown:a.txt"]], // eval and `.` run in this shell: a cd there moves it
    ['. /dev/stdin <<< "cd src"; echo x > a.txt', ["unknown:a.txt"]],
    ['eval "echo hi"; echo x > a.txt', ["a.txt"]],
  ] as const) {
    assert.equal(await writes(box, command), [...expected].sort(), command);
  }
  assert.is(bash(box, "cat <<EOF > a.txt & echo ok\nx\nEOF"), undefined, "a.txt is nobody's");
});

Shell("should read what bash reads: joined lines, heredoc bodies and commands beside them, links made before, names from variables", async ({ box }) => {
  mkdirSync(join(box.project, "src"));
  writeFileSync(join(box.project, "src", "b.ts"), "");
  const patch = "--- u.ts\n+++ u.ts\n@@ -1 +1 @@\n-export const u = 1;\n+export const u = 2;\n";
  for (const command of [
    "echo x > u\\\n.ts", // a backslash-newline inside a word: bash joins it first
    "r\\\nm u.ts",
    "echo x >\\\nu.ts",
    "# a comment ends at its line \\\nrm u.ts",
    "cat <<EOF\n$(rm u.ts)\nEOF", // an unquoted heredoc's body runs its substitutions
    "cat <<EOF\n`rm u.ts`\nEOF",
    "cat <<EOF; rm u.ts\nx\nEOF", // a command beside the heredoc's start
    "cat <<EOF & rm u.ts\nx\nEOF",
    "read x <<EOF; rm u.ts\nx\nEOF",
    "cat <<EOF > out.txt; rm -f u.ts\nx\nEOF", // after the heredoc's redirections: bash reads the body after the whole line
    "cat <<EOF | tee out.txt; rm -f u.ts\nx\nEOF",
    "cd /tmp <<EOF & rm -f u.ts\nx\nEOF",
    "cat <<'EOF' > out.txt\nhello \\\nEOF\nrm u.ts", // a quoted body's backslash joins nothing: EOF ends it
    "cat <<EOF > out.txt\ndon't\nEOF\nr\\\nm u.ts", // a quote in a body opens none for the lines after it
    "cat <<EOF > out.txt\nit's\nEOF\necho x > u\\\n.ts",
    "cd /tmp & rm u.ts", // a `cd` run apart with `&` moves nothing after it
    "cd /tmp & echo x > u.ts",
    "cd /tmp | true; rm u.ts", // nor one in a pipeline, or a coprocess: each a subshell
    "true | cd /tmp; rm u.ts",
    "coproc cd /tmp; rm u.ts",
    "cd gone; rm u.ts", // a cd that fails leaves the shell here: `cd gone; rm -rf *` empties this directory
    "cd gone; rm -rf *",
    "cd gone || true; rm u.ts",
    "cd gone && make; rm u.ts", // `&&` stops its own chain only
    "cd gone && echo ok || rm u.ts",
    "mkdir -p src; cd src; cat <<EOF > o & rm ../u.ts\nx\nEOF", // the part run apart is the heredoc's command alone
    "echo $'a\\'b'; cat <<EOF > o; rm u.ts\nx\nEOF", // an escaped quote in $'…' closes nothing
    "git commit -m \"$(cat <<'EOF'\nFix 12\" screens\nEOF\n)\" && cat <<EOF > o; rm u.ts\nx\nEOF", // a heredoc inside \"$(…)\"
    "x=$(cat <<EOF >/dev/null; mv a u.ts\nx\nEOF\n)", // a line inside $(…) split as at the top
    "x=$(echo a[)\ncat <<EOF >/dev/null; mv a u.ts\nbody\nEOF", // a `[` outside an assignment opens nothing
    "mkdir -p src; cd src &&\ncat <<EOF >o & rm u.ts\nbody\nEOF", // the `&` runs the list from the line before apart
    "cd gone || return; rm u.ts", // return outside a function fails, and the script goes on
    'mkdir -p src; [ -n "$CI" ] && cd src; rm u.ts', // a cd that may not run: here or in src
    "if false; then cd /tmp; fi; rm u.ts",
    "for d in /tmp; do cd $d; done; rm u.ts",
    `true && patch -p0 <<'EOF'\n${patch}EOF`, // the heredoc is the last command's
    "ln -s u.ts l && echo x > l", // a link made before the write
    "ln u.ts h && echo x > h",
    "mkdir -p a/b && ln -s a/b lk && echo x > lk/../../u.ts",
    "echo x > ~+/u.ts", // ~+ is $PWD, ~- is $OLDPWD
    "cd src && echo x > ~-/u.ts",
    "cd src && echo x > /proc/self/cwd/../u.ts", // the shell's cwd, not the hook's
    "rm -f ./**/[!a].ts", // bash's [!a], anything but a, in a glob judged as a glob
    "exec 3<.; echo x > /proc/self/fd/3/u.ts", // a directory a descriptor is open on: which, the text cannot tell
    "mkdir -p sub && exec 3<sub; echo x > /proc/self/fd/3/../u.ts",
    "ash -c 'rm u.ts'", // the POSIX shells: Alpine's sh, the Korn and Almquist kin
    "mksh -c 'rm u.ts'",
    "yash -c 'rm u.ts'",
    "toybox truncate -s0 u.ts",
    'x="rm u.ts"; $x', // an unquoted value splits into a command
    "c=(rm u.ts); \"${c[@]}\"",
    "trap 'rm u.ts' EXIT",
    "hash -p /bin/rm zap; zap u.ts",
    "f() { echo; } > u.ts; f", // the function's redirection, at every call
    "c=rm; $c u.ts",
    "\"$c\" u.ts", // a command the text does not name: its arguments may be written
    "shopt -s expand_aliases\nalias r=rm\nr u.ts",
    "python3 -c \"import os; open('u.ts', 'w').write('x')\"", // an inline program's path-like strings
    "node -e \"require('fs').writeFileSync('u.ts', 'x')\"",
    "node <<EOF\nrequire('fs').writeFileSync('u.ts', '')\nEOF",
    "perl -e 'open(F, \">u.ts\")'",
    "ed -s src/b.ts <<< 'w u.ts'", // a here-string is the command's stdin
    "shopt -s extglob\nrm u.@(ts)", // extglob patterns, read as globs
    "shopt -s extglob\nrm !(src)",
    "PS4='$(rm u.ts)'; set -x; true", // run at each traced line
    "git -c alias.x='!rm u.ts' x",
    "git config alias.x '!rm u.ts' && git x", // an alias saved, run later
    "CDPATH=.. cd project && echo x > u.ts", // cd looks in CDPATH first: a place unknown
    `python3 -c 'open("${box.project}/u.ts","w")'`, // an inline program: an absolute path, a cluster, its arguments, a shell in a string
    "node -pe 'require(\"fs\").writeFileSync(\"u.ts\",\"x\")'",
    "python3 -c 'import sys; open(sys.argv[1],\"w\")' u.ts",
    "python3 -c 'import os; os.system(\"rm u.ts\")'",
    "python3 /dev/stdin <<<'open(\"u.ts\",\"w\")'",
    "python3 -c \"$(cat gen.py)\"",
    "python3 -c \"import os; [open(f,'a').write('# x') for f in os.listdir()]\"", // names it lists, which the text does not give
    "python3 -c \"import os; [os.remove(f) for f in os.listdir()]\"",
    "perl -e 'opendir D, q{.}; for (readdir D) { unlink }'",
    "perl -e 'unlink glob(q{*})'",
    "node -e \"const fs=require('fs'); for (const f of fs.readdirSync(process.cwd())) fs.appendFileSync(f,'x')\"",
    "ruby -e 'Dir[\"*\"].each { |f| File.write(f, \"\") }'",
    "deno eval \"for (const e of Deno.readDirSync('.')) Deno.writeTextFileSync(e.name, '')\"",
    "ruby -e 'require \"find\"; Find.find(\".\") { |f| File.write(f, \"\") if File.file?(f) }'",
    "python3 -c \"import os, subprocess; [os.remove(f) for f in subprocess.check_output(['git', 'ls-files']).decode().split()]\"",
    "git ls-files | python3 -c \"import sys, os; [os.remove(l.strip()) for l in sys.stdin]\"",
    "python3 -c \"from pathlib import Path; [p.unlink() for p in Path('.').rglob('*.ts')]\"",
    "ruby -e 'Dir[\"*\"].each { |f| File.delete(f) }'",
    "perl -e 'opendir D, \".\"; for (readdir D) { open F, \">\", $_ }'",
    "python3 -c \"import os; [os.replace(f, f + '~') for f in os.listdir()]\"",
    "python3 -c \"import os; [open(f, mode='w') for f in os.listdir()]\"",
    "node -e \"const fs = require('fs'); for (const f of fs.readdirSync('.')) fs.openSync(f, 'w')\"",
    "ls | python3 -c \"import sys, os; [os.remove(l.strip()) for l in sys.stdin]\"",
    "mkdir -p src && cd src && python3 -c \"import os; [os.remove(os.path.join(d, f)) for d, _, fs in os.walk('..') for f in fs]\"", // above where it runs
    "python3 -c \"import os, shutil; [shutil.copy('/etc/hosts', f) for f in os.listdir()]\"", // a name computed in any argument that names a file
    "node -e \"const fs = require('fs'); for (const f of fs.readdirSync('.')) fs.unlinkSync(`${f}`)\"",
    "python3 -c \"import os; list(map(os.remove, os.listdir()))\"", // a function passed as a value
    "python3 -c \"import os; [open(os.path.join('.', f), 'w') for f in os.listdir()]\"",
    "ruby -e \"Dir.children('.').each { |f| File.write f, '' }\"",
    "perl -e 'opendir D, \".\"; for my $f (readdir D) { open(my $h, \">\", $f) }'",
    "perl -e 'unlink glob \"*\"'",
    "mkdir -p src && cd src && git ls-files --full-name | python3 -c \"import sys, os; [os.remove(l.strip()) for l in sys.stdin]\"", // names from its input: anywhere
    "find . -name '*.ts' -exec python3 -c \"import sys, os; os.remove(sys.argv[1])\" {} \\;", // find's files as its arguments
    "node -e 'require(\"fs\").readdirSync(\".\").forEach((f) => require(\"fs\").unlinkSync(f))'", // a module's function however reached
    "python3 -c 'from os import remove, listdir; [remove(f) for f in listdir(\".\")]'", // imported bare
    "python3 -c 'from shutil import move; import os; [move(f, \"old\") for f in os.listdir(\".\")]'",
    "python3 -c 'from pathlib import Path; [p.open(\"w\").close() for p in Path(\".\").glob(\"*.ts\")]'", // a method's mode first
    "python3 -c 'import io, os; [io.open(f, \"w\").close() for f in os.listdir(\".\")]'",
    "python3 -c 'import os; [os.system(\"rm \" + f) for f in os.listdir(\".\")]'", // a command run on the names
    "python3 -c 'import os, subprocess; [subprocess.run([\"rm\", f]) for f in os.listdir(\".\")]'",
    "python3 -c 'import fileinput, glob; [print(l, end=\"\") for l in fileinput.input(glob.glob(\"*.ts\"), inplace=True)]'",
    "python3 -c 'import os; out = \"x.txt\"; [open(out, \"w\") for out in os.listdir()]'", // a name set to a quoted one, then bound by a loop
    "python3 -c \"import os as o; [o.remove(f) for f in o.listdir('.')]\"", // a module by another name
    "python3 -c \"from os import remove as zap, listdir; [zap(f) for f in listdir()]\"",
    "ruby -e 'require \"pathname\"; Dir.children(\".\").each { |f| Pathname.new(f).delete }'", // a path object's own methods
    "python3 -c \"from pathlib import Path; [p.replace(p.with_suffix('.bak')) for p in Path('.').iterdir()]\"",
    "python3 -c \"import os; [os.remove(l.strip()) for l in open('list.txt')]\"", // names read from a file
    "python3 -c \"import os, json; c = json.load(open('cfg.json')); os.remove(c['f'])\"",
    "python3 -c \"exec('import os; os.remove(\\\"u.ts\\\")')\"", // code run from a string
    "python3 -c \"c = 'import os; os.remove(\\\"u.ts\\\")'; exec(c)\"",
    "python3 -c \"import os; exec('os.rem' + 'ove(\\\"u.ts\\\")')\"",
    "node -e \"eval('require(\\\"fs\\\").rmSync(\\\"u.ts\\\")')\"",
    "perl -e 'eval q{unlink \"u.ts\"}'",
    "eval -- 'rm u.ts'", // -- before the script
    "trap -- 'rm u.ts' EXIT",
    "coproc { rm u.ts; }",
    "coproc W { rm u.ts; }",
    "echo 'rm u.ts' > e.sh; BASH_ENV=e.sh bash -c :", // a script bash runs first
    "ln -s u.ts l1 && ln -s l1 l2 && echo x > l2", // link chains and the other ways to make links
    "cp -l u.ts l && echo x > l",
    "cp -s \"$PWD/u.ts\" l && echo x > l",
    "ln -st src ../u.ts && echo x > src/u.ts",
    "link u.ts l && echo x > l",
    "cat <<-EOF\n\t$(rm u.ts)\n\tEOF", // a tab-stripped heredoc's substitution
    "echo x > /proc/$$/cwd/u.ts",
    "echo x > /dev/fd/../cwd/u.ts",
    "echo x > /proc/$PPID/cwd/u.ts", // another process's cwd: a place the text does not fix
    "echo x > /proc/1/cwd/u.ts",
    `echo x > /proc/1/root${box.project}/u.ts`, // another process's root: the same tree
    `echo x > /proc/$PPID/root${box.project}/u.ts`,
    "cd /proc/1/cwd && echo x > u.ts", // a cd there: a directory the text does not fix
    `cd /proc/1/root${box.project} && echo x > u.ts`,
    `echo x > /proc/1/task/1/root${box.project}/u.ts`,
    "echo x > /proc/$$/task/$$/cwd/u.ts",
    "runuser -u root -- rm u.ts", // more wrappers
    "setpriv --reuid=0 rm u.ts",
    "prlimit --nofile=100 rm u.ts",
    "setarch x86_64 rm u.ts",
    "faketime '2020-01-01' rm u.ts",
    "yarn node -e \"require('fs').unlinkSync('u.ts')\"", // version managers and runners that run the interpreter after them
    "volta run node -e \"require('fs').unlinkSync('u.ts')\"",
    "fnm exec --using=20 -- node -e \"require('fs').unlinkSync('u.ts')\"",
    "asdf exec node -e \"require('fs').unlinkSync('u.ts')\"",
    "pyenv exec python -c \"import os; os.remove('u.ts')\"",
    "rye run python -c \"import os; os.remove('u.ts')\"",
    "mise x node@20 python@3.12 -- rm u.ts", // the tools up to --, the command after it
    "mise exec node@20 -c 'rm u.ts'",
    "pixi run -e dev rm u.ts",
    "valgrind rm u.ts",
    "eatmydata rm u.ts",
    "gosu app rm u.ts",
    "su-exec app rm u.ts",
    "run0 -D . rm u.ts",
    "tini -- rm u.ts",
    "dumb-init rm u.ts",
    "catatonit -- rm u.ts",
    "with-contenv rm u.ts",
    "s6-setuidgid app rm u.ts",
    "gtimeout 5 rm u.ts",
    "trickle -d 100 sed -i s/a/b/ u.ts",
    "pnpx prettier --write u.ts",
    "pnpx -c 'rm u.ts'",
    "trickle -L 10 rm u.ts",
    "dumb-init -c -r 15:2 sed -i s/a/b/ u.ts",
    "daemonize -c . /bin/rm u.ts",
    "daemonize -o u.ts /bin/true", // its output file
    "stack exec -- rm u.ts",
    "cabal exec -- sed -i s/a/b/ u.ts",
    "dune exec -- rm u.ts",
    "opam exec -- rm u.ts",
    "aws-vault exec prod -- rm u.ts",
    "infisical run --env=dev -- rm u.ts",
    "proot -r /tmp/rootfs rm u.ts", // another root: a u.ts in a place unknown
    "cpulimit -l 50 -- rm u.ts",
    "ifne rm u.ts",
    "dotenvx run -f .env -- rm u.ts",
    "devbox run rm u.ts",
    "scl enable gcc-toolset-13 -- rm u.ts",
    'scl enable devtoolset-9 "rm -f u.ts"',
    "nix develop -c sed -i s/1/2/ u.ts",
    "nix shell nixpkgs#jq --command rm u.ts",
  ]) {
    assert.is(bash(box, command), "deny", JSON.stringify(command));
  }
  for (const command of ["cat <<'EOF'\n$(rm u.ts)\nEOF", "cat <<EOF\nhello $(date)\nEOF", 'x="rm u.ts"; echo "$x"', "ln -s src/b.ts l && echo x > l", "trap - EXIT", "echo 'a \\\nb' > src/b.ts", "python3 -c 'import sys; print(sys.version)'", "python3 -c 'import os; print(os.listdir())'", "python3 -c 'import os; out = \"files.txt\"; open(out, \"w\").write(\"\\n\".join(os.listdir(\".\")))'", "node -e 'const fs = require(\"fs\"), path = require(\"path\"); const out = path.join(\"dist\", \"files.json\"); fs.writeFileSync(out, JSON.stringify(fs.readdirSync(\".\")))'", "perl -e 'for my $f (glob(\"*.csv\")) { open(my $fh, \"<\", $f) or die; print scalar(<$fh>) }'", "python3 -c 'import glob; [print(open(f, encoding=\"ascii\").read()[:20]) for f in glob.glob(\"*.csv\")]'", "python3 -c 'import glob, shutil; shutil.copy(sorted(glob.glob(\"*.csv\"))[-1], \"latest.csv\")'", "cat u.ts | python3 -c \"import sys, shutil; shutil.copyfileobj(sys.stdin, sys.stdout)\"", "python3 -c \"import os; print([f for f in os.listdir() if 'unlink' in f])\"", "python3 -c \"import os; links = os.listdir(); [print(link) for link in links]\"", "python3 -c 'import os; print([f for f in os.listdir() if \"copy\" in f])'", "node -e 'console.log(require(\"fs\").readdirSync(\".\").filter((f) => !f.startsWith(\"create\")))'", "python3 -c 'import os, json; print(json.dumps({\"files\": os.listdir(), \"mode\": \"write\"}))'", "python3 -c \"import os; print([f.removesuffix('.py') for f in os.listdir('src')])\"", "python3 -c \"import os; r = []; [r.append(d) for d, _, _ in os.walk('.')]; print(len(r))\"", "python3 -c \"import glob, json; json.dump(glob.glob('src/*.ts'), open('files.json', 'w'))\"", "node -e \"const fs = require('fs'); fs.writeFileSync('index.json', JSON.stringify(fs.readdirSync('src')))\"", "node -e \"console.log(require('fs').readdirSync('.').length) // remove me\"", "python3 -c \"import glob, copy; print(copy.copy(glob.glob('**/*.py')))\"", "python3 -c \"print(eval('1+2'))\"", "python3 -c \"c = 'print(1)'; exec(c)\"", "python3 -c \"import os; print([f.replace('.ts', '') for f in os.listdir('.')])\"", "python3 -c \"import json; print(json.load(open('package.json'))['name'])\"", "ruby -e 'puts Dir.children(\".\").map { |f| f.delete(\"x\") }'", "python3 -c \"from pathlib import Path; print([p.name for p in Path('.').iterdir()])\"", "python3 -c \"import re; print(re.compile('a').match('a'))\"", "python3 -c \"s = 'abc'; s.find('b'); open('out.txt', 'w')\"", "node -e \"console.log(require('./package.json').name)\"", "ed -s src/b.ts <<< 'w src/c.ts'",
    // Everyday forms that write nothing held: a pipe to a process substitution, a trap removing a temp file, --version.
    "exec > >(tee -a log.txt) 2>&1", "cat u.ts | tee >(wc -l) >/dev/null", "tmp=$(mktemp); trap 'rm -f \"$tmp\"' EXIT; cat u.ts > \"$tmp\"", "ed --version", "ex --version"]) {
    assert.is(bash(box, command), undefined, JSON.stringify(command));
  }
  // A path longer than a target may be, folded where the kernel folds it: a Write, and through the shell.
  const long = `${box.project}${"//".repeat(600)}u.ts`;
  assert.is(JSON.parse(event(box, { hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: long, content: "x" } }).stdout).hookSpecificOutput.permissionDecision, "deny");
  assert.is(bash(box, `echo x > ${"src/../".repeat(200)}u.ts`), "deny");
  // An argument array's script after bash's own options (Codex's shell tool).
  for (const command of [["bash", "-c", "--", "rm u.ts"], ["bash", "-c", "-e", "rm u.ts"], ["bash", "-lc", "rm u.ts"]]) {
    assert.is(JSON.parse(event(box, { hook_event_name: "PreToolUse", tool_name: "shell", tool_input: { command } }).stdout || "{}").hookSpecificOutput?.permissionDecision, "deny", command.join(" "));
  }
});

Shell("should find what bash finds for each POSIX class in a bracket", async ({ box }) => {
  const { globFiles } = await import("../src/hooks/shell-words.js");
  const names = ["a ", "a!", "a-", "a.", "a5", "aZ", "a[", "a]", "a^", "a_", "a`", "a{", "a~", "ab"].map((name) => `x.${name}`);
  mkdirSync(join(box.project, "g"));
  for (const name of names) writeFileSync(join(box.project, "g", name), "");
  for (const name of ["alpha", "upper", "lower", "digit", "xdigit", "alnum", "word", "blank", "space", "punct", "graph", "print", "cntrl"]) {
    // (After a dot: fast-glob's matcher made `x.a[[:alpha:]]` the regex `.a[a-zA-Z]`, dropping the x.)
    const pattern = `g/x.a[[:${name}:]]`;
    const found = globFiles(pattern, box.project, { onlyFiles: false, braces: false }).map((path) => basename(path)).sort();
    const listed = spawnSync("bash", ["-c", `shopt -s nullglob && for f in ${pattern}; do printf '%s\\n' "\${f#g/}"; done`], { cwd: box.project, encoding: "utf8", env: { ...process.env, LC_ALL: "C" } });
    assert.equal(found, listed.stdout.split("\n").filter((line) => line !== "").sort(), pattern);
  }
});

Shell("should judge a wrapper or runner given its command in a variable or a substitution as writing any file", async ({ box }) => {
  // The gate passed these as writing nothing: the command word is no `$` word, and which of the
  // wrapper's words is the command, the text does not say (its user, arch, subcommand).
  for (const command of ["gosu root $cmd", "su-exec app \"$cmd\"", "setarch x86_64 $cmd", "faketime '2020-01-01' $cmd", "chrt 10 $cmd", "taskset 3 $cmd", "direnv exec . $cmd", "scl enable coll \"$cmd\"", "scl enable coll -- $cmd", "nix develop -c $cmd", "nix shell nixpkgs#jq --command $cmd", "devbox run $cmd", "dotenvx run -- $cmd", "mise exec -- $cmd", "bundle exec $cmd", "uv run $cmd", "pixi run $cmd", "pyenv exec $cmd", "yarn $cmd", "eatmydata $cmd", "tini -- $cmd", "cross-env A=1 $cmd", "uv run $(cat cmd)", "gosu root `cat cmd`", "npm exec -- ${c}", "cmd='rm u.ts'; op run -- $cmd"]) {
    assert.is(bash(box, command), "deny", command);
  }
  for (const command of ["uv run pytest $ARGS", "timeout 60 npm test -- $F", "devbox run echo $x", "echo $HOME"]) assert.is(bash(box, command), undefined, command);
  // The gate's list of them is the walk's.
  const { RUNS_COMMAND } = await import("../src/hooks/shell-gate.js");
  const { WRAPPERS } = await import("../src/hooks/shell-runners.js");
  assert.equal(Object.keys(WRAPPERS).filter((name) => name !== "!" && !RUNS_COMMAND.test(name)), []);
});

Shell("should answer as the whole regex does where the gate tries a regex's alternatives one by one", async () => {
  const { alternatives, SPLIT_REGEXES, TOOL_USE } = await import("../src/hooks/shell-gate.js");
  // Split at the top level only: not at a bar in a class, an escaped bar, or one inside a group.
  const tricky = alternatives(/a[|b]c|d\|e|(f|g)h|^i(?=[)|])|x?yz|(p|q)?r|\x41B|[]|Kk/i);
  assert.equal(tricky.parts.map((part) => part.source), ["a[|b]c", "d\\|e", "(f|g)h", "^i(?=[)|])", "x?yz", "(p|q)?r", "\\x41B", "[]", "Kk"]);
  for (const text of ["a|c", "abc", "d|e", "de", "gh", "fh", "i)", "i|", "ix", "xi)", "z", "yz", "r", "AB", "ab", "x41B", "kK", "k"]) {
    assert.is(tricky.test(text), /a[|b]c|d\|e|(f|g)h|^i(?=[)|])|x?yz|(p|q)?r|\x41B|[]|Kk/i.test(text), text);
  }
  // The u and v flags: with i, the long s matches s; v nests classes.
  assert.ok(alternatives(/xs|y/iu).test("x\u017f"));
  assert.ok(alternatives(new RegExp("[[a]b]c|z", "v")).test("ac"));
  // Each split regex against its whole, over every quoted text of the shell tests (commands,
  // words, paths) and the commands below: a part skipped for want of a word it did not need would
  // answer otherwise.
  const texts = new Set(["ls -la", "black .", "black --check .", "prettier --write src", "prettier --check src", "npm install", "npm i -D x", "npm test", "yarn", "yarn add x", "cargo build", "cargo fmt --check", "go build ./...", "tsc", "tsc --noEmit", "python3 x.py", "python3", "cat x | python3", "node -e 1", "node", "ruby -i", "php -a", "uv add x", "poetry lock --check", "terraform plan", "sass a.scss", "git status", "grep -r black .", "gsed -i s/a/b/ f", "R -e 1", "PYTHONPATH=. x"]);
  const here = new URL(".", import.meta.url);
  for (const name of readdirSync(here).filter((file) => /^hook-.*\.test\.ts$/.test(file))) {
    for (const match of readFileSync(new URL(name, here), "utf8").matchAll(/"((?:[^"\\\n]|\\.){2,300})"|`([^`$\\\n]{2,300})`|'((?:[^'\\\n]|\\.){2,300})'/g)) texts.add(match[1] ?? match[2] ?? match[3] ?? "");
  }
  assert.ok(texts.size > 3000, `a corpus of ${texts.size} texts`);
  for (const [name, split] of Object.entries(SPLIT_REGEXES)) {
    const whole = new RegExp(split.parts.map((part) => part.source).join("|"), split.parts[0]?.flags);
    assert.not.match(whole.source, /\\[1-9]/, `${name}: a backreference would count its groups anew in a part`);
    let matched = 0;
    for (const text of texts) {
      const answer = whole.test(text);
      assert.is(split.test(text), answer, `${name}: ${text}`);
      if (answer) matched++;
    }
    assert.ok(matched > 0, `${name}: the corpus reaches it`);
  }
  assert.ok([...texts].filter((text) => TOOL_USE.test(text)).length > 10, "the corpus reaches the formatters' alternatives");
});

Shell("should name the words every match of a regex holds, and none where its source does not show them", async () => {
  const { requiredWords } = await import("../src/hooks/shell-gate.js");
  assert.equal(requiredWords(String.raw`\b(black|isort|rustfmt)\b(?![^;&|\n]*\s--check)`), ["black", "isort", "rustfmt"]);
  assert.equal(requiredWords(String.raw`(^|[\s;&|(\`'"/\\])g?(sed|perl|mkfs(\.\w+)?|c\+\+)\s`), ["sed", "perl", "mkfs", "c++"]);
  assert.equal(requiredWords(String.raw`\bgit\b[^;&|\n]*\s-c`), ["git"]);
  assert.equal(requiredWords(String.raw`\bgo(\s+-C\s*\S+)?\s+(fmt|fix)\b`), ["go"]);
  assert.equal(requiredWords(String.raw`\bab+c`), ["ab"]);
  assert.equal(requiredWords(String.raw`\bab{0,2}c`), ["a"]);
  assert.equal(requiredWords(String.raw`(\w+)?=x`), ["=x"]);
  assert.equal(requiredWords("(PATH|Path)=", true), ["path", "path"]);
  // An optional first group gives nothing, the literal after it does; an alternative with no literal start gives nothing.
  assert.equal(requiredWords(String.raw`(npx\s+)?tsc\b`), ["tsc"]);
  assert.equal(requiredWords(String.raw`(a|\s)b`), ["b"]);
  assert.equal(requiredWords(String.raw`(a|)b`), ["b"]);
  assert.equal(requiredWords(String.raw`x?`), undefined);
  assert.equal(requiredWords(String.raw`\x41b`), undefined);
  assert.equal(requiredWords(String.raw`(a)\1`), ["a"]);
  assert.equal(requiredWords(String.raw`\1a`), undefined);
  assert.equal(requiredWords(String.raw`[ab]*`), undefined);
});

Shell("should judge a command it could not read within the walk's time as writing any file", async ({ box }) => {
  const { WALK_LIMIT } = await import("../src/hooks/shell.js");
  const long = `${":&&".repeat(3000)}echo done`;
  assert.equal(await writes(box, long), [], "read whole in time: it writes nothing");
  const limit = WALK_LIMIT.ms;
  WALK_LIMIT.ms = 0;
  try {
    assert.equal(await writes(box, long), ["unknown:."], "stopped at the deadline: what is left unread could write anything");
  } finally {
    WALK_LIMIT.ms = limit;
  }
});

Shell("should read the files database clients and dumps, linkers, downloaders, jar, ImageMagick, ffmpeg, kubectl cp and aws s3 write", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["psql -o out.txt -c 'select 1'", ["out.txt"]],
    ["psql -L log.txt", ["log.txt"]],
    ["psql -c '\\o u.ts' -c 'select 1'", ["unknown:."]],
    ["psql -c 'select 1'", []],
    ["pg_dump -f dump.sql db", ["dump.sql"]],
    ["pg_dump -Fd -f out db", ["glob:out/**"]],
    ["mysqldump -r dump.sql db", ["dump.sql"]],
    ["as -o x.o x.s", ["x.o"]],
    ["ld -r -o y.o x.o", ["y.o"]],
    ["aria2c -o f.bin http://127.0.0.1:9/f", ["f.bin"]],
    ["aria2c -d dl http://127.0.0.1:9/f", ["glob:dl/*"]],
    ["http --download -o f.json http://127.0.0.1:9/", ["f.json"]],
    ["jar xf a.jar", ["glob:**"]],
    ["jar cf out.jar a", ["out.jar"]],
    ["convert in.png -resize 50% out.png", ["out.png"]],
    ["mogrify -resize 50% a.png b.png", ["a.png", "b.png"]],
    ["ffmpeg -i in.mp4 -c:v libx264 -y out.mp4", ["out.mp4"]],
    ["kubectl -n ns cp pod:/x ./got -c app", ["glob:got/**", "got"]],
    ["aws s3 cp s3://b/k got.ts", ["got.ts"]],
    ["aws s3 cp --recursive s3://b/k got --region us-east-1", ["glob:got/**", "got"]],
    ["aws s3 cp got.ts s3://b/k", []],
    // aws's global options before the service; s3api get-object's file.
    ["aws --endpoint-url http://127.0.0.1:9 s3 cp s3://b/k got.ts", ["got.ts"]],
    ["aws --profile p --region us-east-1 s3 sync s3://b/out out", ["glob:out/**", "out"]],
    ["aws s3api get-object --bucket b --key k got.ts", ["got.ts"]],
    ["aws --profile p s3 ls s3://b", []],
    // ffmpeg's numbered outputs, tee's, and the files its options name.
    ["ffmpeg -y -i in.mp4 frames/a%03d.png", ["glob:frames/a*.png"]],
    ["ffmpeg -i in.mp4 -vstats_file stats.txt out.mp4", ["out.mp4", "stats.txt"]],
    ["ffmpeg -i in.mp4 -f tee '[f=mp4]a.mp4|[f=null]-'", ["a.mp4"]],
    // ImageMagick: mogrify -path's directory, montage and composite's output, -write's image.
    ["mogrify -path out -resize 50% a.png", ["glob:out/**"]],
    ["montage a.png b.png sheet.png", ["sheet.png"]],
    ["composite over.png base.png out.png", ["out.png"]],
    ["convert a.png -write mid.png -resize 50% b.png", ["b.png", "mid.png"]],
    // pip install's report, log and places.
    ["pip install --report r.json x", ["r.json"]],
    ["pip install --prefix out x", ["glob:out/**"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["psql -o u.ts -c 'select 1'", "pg_dump -f u.ts db", "ffmpeg -i in.mp4 u.ts", "convert in.png u.ts", "aws s3 cp s3://b/u.ts .", "kubectl cp pod:/u.ts u.ts", "aws --profile p s3 cp s3://b/k u.ts", "ffmpeg -i in.mp4 -vstats_file u.ts out.mp4", "montage a.png u.ts"]) assert.is(bash(box, command), "deny", command);
});

Shell("should read lerna exec's command as run in a place the text does not fix, and lerna run's scripts as writing any file", async ({ box }) => {
  assert.equal(await writes(box, "lerna exec --scope a -- sed -i s/1/2/ u.ts"), ["unknown:u.ts"]);
  assert.equal(await writes(box, "lerna run build"), ["unknown:."]);
  for (const command of ["lerna exec -- rm u.ts", "npx lerna exec --stream -- sed -i s/1/2/ u.ts", "lerna run build", "lerna exec 'rm u.ts'"]) assert.is(bash(box, command), "deny", command);
  for (const command of ["lerna exec -- ls", "lerna list", "npx lerna changed"]) assert.is(bash(box, command), undefined, command);
});

Shell("should read the editor a command runs on a file of its own (git commit with no message, crontab -e) as the command line its environment names", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["GIT_EDITOR='rm u.ts; :' git commit", ["u.ts"]],
    ["git -c core.editor='rm u.ts; :' commit --amend", ["u.ts"]],
    ["GIT_SEQUENCE_EDITOR='rm -f u.ts' git rebase -i HEAD~2", ["u.ts"]], // outside a repository, rebase itself writes nothing
    ["EDITOR='rm u.ts; true' crontab -e", ["u.ts"]],
    ["KUBE_EDITOR='rm u.ts; true' kubectl edit deploy/web", ["u.ts"]],
    ['GIT_EDITOR="$e" git commit', ["unknown:."]],
    // The file it edits is its own, in temp space; with a message given, git runs no editor.
    ["GIT_SEQUENCE_EDITOR='sed -i s/^pick/fixup/' git rebase -i HEAD~2", []],
    ["GIT_EDITOR='rm u.ts; :' git commit -m x", []],
    ["GIT_EDITOR='rm u.ts; :' git tag -a v1 -m x", []],
    ["git commit", []], // vi, with no terminal: nothing is typed into it
    ["EDITOR=true crontab -e", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  assert.is(bash(box, "GIT_EDITOR='rm u.ts; :' git commit"), "deny");
  // Named in the agent's own environment, not the command's text: the same, whatever else the command does.
  const agent = { GIT_EDITOR: "sed -i s/1/2/ u.ts" };
  for (const command of ["git commit", "git add -A && git commit", "touch x.txt && git commit"]) assert.is(bash(box, command, {}, agent), "deny", command);
  for (const command of ["git commit -m x", "git status"]) assert.is(bash(box, command, {}, agent), undefined, command);
  assert.is(bash(box, "git commit", {}, { GIT_EDITOR: "vim -u NONE", EDITOR: "code --wait" }), undefined, "an editor given its options writes its own file");
});

Shell("should read what runs a command line its own way: array subscripts, watch, debuggers, capsh, ssh, containers, scp, and links made in nested scripts", async ({ box }) => {
  mkdirSync(join(box.project, "src"));
  writeFileSync(join(box.project, "dc.yml"), "services:\n  web:\n    image: nginx\n");
  const cases: Array<[string, string[]]> = [
    // bash runs a substitution inside a subscript it evaluates from a word's value.
    ["let 'a[$(rm u.ts)]=1'", ["u.ts"]],
    ["printf -v 'a[$(rm u.ts)]' x", ["u.ts"]],
    ["read 'a[$(rm u.ts)]' <<< x", ["u.ts"]],
    ["declare -a 'a[$(rm u.ts)]=1'", ["u.ts"]],
    ["[[ -v 'a[$(rm u.ts)]' ]]", ["u.ts"]],
    ["x='a[$(rm u.ts)]'; echo $((x))", ["u.ts"]],
    ["watch -n 1 'rm u.ts'", ["u.ts"]], // sh -c of its words joined
    ["watch -x rm u.ts", ["u.ts"]],
    ["gdb -q --args rm u.ts", ["u.ts"]],
    ["gdb -batch -ex 'shell rm u.ts'", ["u.ts"]],
    ["gdb -ex '!rm u.ts'", ["u.ts"]],
    ["gdb -ex 'pipe bt | tee u.ts'", ["u.ts"]],
    ["gdb -batch -ex 'dump memory u.ts 0 8' ./a.out", ["unknown:."]], // a file a debugger command names
    ["gdb -batch -ex 'run > u.ts' ./a.out", ["u.ts"]], // the program's arguments, read by a shell
    ["gdb -cd=src -ex 'shell rm ../u.ts'", ["src/../u.ts"]], // judged where the kernel takes it
    ['gdb -batch -ex "attach $PID" -ex bt', []],
    ["lldb -x -o 'platform shell rm u.ts'", ["u.ts"]],
    ["lldb ./a.out -- rm u.ts", []], // the program's arguments
    ["lldb -- rm u.ts", ["u.ts"]],
    ["lldb -o 'platform shell rm u.ts'", ["u.ts"]],
    ["capsh --caps=cap_chown+ep -- -c 'rm u.ts'", ["u.ts"]], // bash's arguments
    ["ssh h rm -f " + box.project + "/u.ts", ["u.ts"]], // an absolute path, on a filesystem both machines may mount
    ["ssh h <<'EOF'\nrm " + box.project + "/u.ts\nEOF", ["u.ts"]],
    ["ssh -o 'ProxyCommand=rm u.ts' h true", ["u.ts"]], // run here
    ["ssh -E u.ts h true", ["u.ts"]],
    ["ssh -p 2222 h 'rm u.ts'", []], // the remote home's
    ["ssh prod 'cd app && git pull'", []],
    ["ssh build make", []],
    ['docker run --rm -v "$PWD":/src -w /src node:20 rm u.ts', ["u.ts"]], // a container's writes under a bind mount
    ["docker run -v .:/w alpine sh -c 'echo x > /w/u.ts'", ["u.ts"]],
    ["podman run --mount type=bind,source=.,target=/w --entrypoint rm alpine /w/u.ts", ["u.ts"]],
    ["docker run -v .:/w alpine rm -rf /", ["glob:**"]],
    ["docker run -v .:/w node:20", ["glob:**"]], // the image's own command
    ['docker run -v "$V":/src alpine rm /src/u.ts', ["unknown:u.ts"]],
    ["docker run -v .:/w:ro alpine rm /w/u.ts", []], // read-only, a named volume, the container's own files
    ["docker run -v data:/w alpine rm /w/u.ts", []],
    ["docker run -v .:/w alpine rm /tmp/x", []],
    ['docker run --rm -v "$PWD":/app -w /app node:20 npm test', []], // the package's script, read from the mount's source
    ["docker run -v `pwd`:/w alpine rm /w/u.ts", ["u.ts"]],
    ["docker run -v `workdir`:/w alpine rm /w/u.ts", ["unknown:u.ts"]],
    ["docker run --detach-keys ctrl-q -v .:/w alpine rm /w/u.ts", ["u.ts"]],
    ["docker cp web:/app/u.ts .", ["glob:u.ts/**", "u.ts"]], // copied out of a container: a file, or a tree, where it lands
    ["docker cp -a web:/app/u.ts u.ts", ["glob:u.ts/**", "u.ts"]],
    ["docker container cp web:/app/dist/. src/", ["glob:src/**", "src"]], // its contents
    ["docker compose -f dc.yml cp web:/app/u.ts .", ["glob:u.ts/**", "u.ts"]],
    ["docker-compose -f dc.yml cp web:/app/u.ts .", ["glob:u.ts/**", "u.ts"]], // Compose v1's command, read as docker compose
    ["podman-compose -f dc.yml run -v .:/w web rm /w/u.ts", ["u.ts"]],
    ["docker-compose -f dc.yml rm -f u.ts", []], // a service named as a file: its container removed, not the file
    ['docker cp web:/app/u.ts "$d"', ["unknown:."]],
    ["docker cp u.ts web:/app/u.ts", []], // into the container
    ["docker cp web:/app/u.ts - > /dev/null", []],
    ["pkexec rm u.ts", ["u.ts"]], // more that run the command after them
    ["xvfb-run -a rm u.ts", ["u.ts"]],
    ["bundle exec rm u.ts", ["u.ts"]],
    ["conda run -n env rm u.ts", ["u.ts"]],
    ["mise exec -- rm u.ts", ["u.ts"]],
    ["direnv exec . rm u.ts", ["u.ts"]],
    ["nix-shell -p git --run 'rm u.ts'", ["u.ts"]],
    ["nodemon --exec 'rm u.ts'", ["u.ts"]],
    ["systemd-run --same-dir rm u.ts", ["u.ts"]],
    ["systemd-run rm u.ts", ["unknown:u.ts"]], // from / or home
    ["tmux new-session -d 'rm u.ts'", ["u.ts"]], // command lines of their own
    ["tmux send-keys -t x 'rm u.ts' Enter", ["u.ts"]], // typed into a pane, taken to be here
    ['tmux send-keys -t x "$cmd" Enter', ["unknown:."]], // keys the text does not give
    ["screen -S x -X stuff 'rm u.ts\\n'", ["u.ts"]], // typed into a screen session's window
    ['screen -S x -X stuff "$cmd"', ["unknown:."]],
    ["screen -r x -X stuff 'rm u.ts\\n'", ["u.ts"]], // a session named after -r
    ["screen -S x -X hardcopy u.ts", ["u.ts"]], // screen writes it
    ["screen -S x -X eval 'stuff x'", ["unknown:."]], // any other command may do anything
    ["screen -L -Logfile u.ts -dmS x top", ["u.ts"]],
    ["screen -S x -X exec rm u.ts", ["u.ts"]],
    ["screen -dmS x rm u.ts", ["u.ts"]], // a window running it
    ["screen -S x -X quit", []],
    ["screen -ls", []],
    ["at now <<< 'rm u.ts'", ["u.ts"]],
    ["watchexec -- rm u.ts", ["u.ts"]],
    ["hyperfine 'rm u.ts'", ["u.ts"]],
    ["hyperfine --export-json u.ts 'sleep 1'", ["u.ts"]],
    ["parallel ::: 'rm u.ts'", ["u.ts"]],
    ["parallel gzip ::: a.log", ["a.log", "a.log.gz"]],
    ["parallel 'rm {}' ::: u.ts", ["u.ts"]],
    ["systemd-run --user --scope rm u.ts", ["u.ts"]],
    ["systemd-run --user --wait --same-dir --service-type oneshot rm u.ts", ["u.ts"]], // an option's value, not the command
    ["systemd-run --user --pty --same-dir --timer-property AccuracySec=1 rm u.ts", ["u.ts"]],
    ["ssh prod 'rm -rf ~/u.ts'", []], // the remote home
    ["trash u.ts", ["u.ts"]], // to the trash, converted or rewritten in place
    ["gio trash u.ts", ["u.ts"]],
    ["dos2unix u.ts", ["u.ts"]],
    ["yq -i '.a = 1' u.ts", ["u.ts"]],
    ["sd foo bar u.ts", ["u.ts"]],
    ["xxd -r dump u.ts", ["u.ts"]],
    ["iconv -f latin1 -t utf8 -o u.ts in.txt", ["u.ts"]],
    ["pandoc b.md -o u.ts", ["u.ts"]],
    ["pandoc b.md", []],
    ["sqlite3 -cmd '.mode csv' u.ts 'create table t(x)'", ["u.ts"]],
    ["sqlite3 :memory: 'select 1'", []],
    ["strip u.ts", ["u.ts"]],
    ["strip -o u.ts b.o", ["u.ts"]],
    ["objcopy b.o u.ts", ["u.ts"]],
    ["objcopy u.ts", ["u.ts"]],
    ["ssh-keygen -t ed25519 -f u.ts -N ''", ["u.ts", "u.ts.pub"]],
    ["fallocate -p -o 0 -l 1 u.ts", ["u.ts"]], // holes punched or zeroes written
    ["fallocate -l 1M u.ts", ["u.ts"]],
    ["cmake -E copy b.txt u.ts", ["u.ts", "u.ts/b.txt"]], // cmake's portable file commands
    ["cmake -E copy_if_different b.txt c.txt sub", ["sub", "sub/b.txt", "sub/c.txt"]],
    ["cmake -E rename b.txt u.ts", ["b.txt", "u.ts"]],
    ["cmake -E rm -rf u.ts", ["u.ts"]],
    ["cmake -E touch u.ts", ["u.ts"]],
    ["cmake -E create_symlink b.txt u.ts", ["u.ts"]],
    ["cmake -E echo u.ts", []],
    ["cmake -E tar xf a.tar", ["glob:**"]], // extracted where it runs
    ["cmake -E tar xzf a.tgz", ["glob:**"]],
    ["cmake -E tar cf out.tar b.txt", ["out.tar"]],
    ["cmake -E chdir sub rm u.ts", ["unknown:."]],
    ["cmake -P gen.cmake", ["unknown:."]], // a script in cmake's language (file(WRITE …)), not read
    ["cmake --build build", ["glob:build/**"]], // what it builds, in its build directory
    ["zip -m z.zip u.ts", ["u.ts", "z.zip"]],
    ["zip u.ts b.txt", ["u.ts"]],
    ["gpg -o u.ts -d secret.gpg", ["u.ts"]],
    ["zstd --rm u.ts", ["u.ts", "u.ts.zst"]],
    ["unzstd u.ts.zst", ["u.ts"]],
    ["tmux ls", []],
    ["yq '.a' u.ts", []],
    ["zstd u.ts", ["u.ts.zst"]], // beside it, the file read alone
    ["zstd -r src", ["glob:src/**/*.zst"]], // each file under it, compressed beside itself
    ["zstd -dr src", ["glob:src/**"]], // decompressed: any name
    ["zstd --output-dir-flat=out u.ts", ["glob:out/*.zst"]],
    ["zstd -b1 u.ts", []], // a benchmark
    ["pzstd -d -f u.ts.zst", ["u.ts"]],
    ["scp h:x/u.ts .", ["u.ts"]],
    ["rsync h:x/u.ts .", ["u.ts"]],
    ["rsync --remove-source-files u.ts h:", ["u.ts"]],
    ["node -e 'fs.writeFileSync(\"u.t\\x73\", \"\")'", ["u.ts"]], // an inline program's escapes and joins
    ["node -e 'fs.writeFileSync(\"u.\" + \"ts\", \"\")'", ["u.ts"]],
    ["node -e 'fs.writeFileSync(__dirname + \"/u.ts\", \"\")'", ["/u.ts", "unknown:u.ts"]],
    ["python3 -c 'import os; open(os.path.join(d, \"u.ts\"), \"w\")'", ["u.ts", "unknown:u.ts"]],
    ["python3 -c 'open(f\"{d}/u.ts\", \"w\")'", ["unknown:u.ts"]],
    ["python3 - u.ts <<'EOF'\nimport os, sys\nos.remove(sys.argv[1])\nEOF", ["u.ts"]], // arguments before a heredoc
    ["python3 -m pdb x.py <<'EOF'\nimport os; os.remove('u.ts')\nEOF", ["u.ts"]], // a debugger's commands, Python's code, from its input
    ["echo c | python3 -m pdb x.py", ["unknown:."]],
    ["python3 manage.py shell <<'EOF'\nimport os; os.remove('u.ts')\nEOF", ["u.ts"]], // Django's console
    ["echo 'import os' | python3 manage.py shell", ["unknown:."]],
    ["bun -e 'require(\"fs\").unlinkSync(\"u.ts\")'", ["u.ts"]],
    ["deno eval 'Deno.removeSync(\"u.ts\")'", ["u.ts"]],
    ["python3 -c 'import shutil; shutil.rmtree(\"src\")'", ["src"]], // a plain name that is here
    ["python3 -c 'import shutil; shutil.rmtree(\".\")'", ["glob:**"]], // where it runs, whole: a tree call given it
    ["python3 -c 'import os, shutil; shutil.rmtree(os.getcwd())'", ["glob:**"]],
    ["python3 -c 'import shutil; shutil.copytree(\"tpl\", \".\", dirs_exist_ok=True)'", ["glob:**"]],
    ["node -e 'require(\"fs\").rmSync(process.cwd(), { recursive: true })'", ["glob:**"]],
    ["node -e 'require(\"fs\").rmSync(\"..\", { recursive: true })'", ["unknown:."]], // the directory above: any file
    ["python3 -c 'open(\"v.txt\", \"w\").write(\".\".join([\"a\", \"b\"]))'", ["v.txt"]], // a \".\" that names no directory
    ["node -e 'require(\"fs\").rmSync(process.cwd() + \"/dist\", { recursive: true })'", ["/dist", "unknown:dist"]], // a path built on it: not all of it
    ["python3 -c 'import shutil; shutil.move(\"tpl/t.ts\", \".\")'", ["t.ts", "tpl/t.ts"]], // a file moved into it (its name there), a tree copied from it: not all of it
    ["python3 -c 'import shutil; shutil.copytree(\".\", \"/tmp/backup\")'", ["/tmp/backup", "unknown:tmp/backup"]],
    ["python3 -c 'open(f\"{n}.ts\", \"w\")'", ["glob:*.ts"]],
    ["node -p 'require(\"path\").join(process.cwd(), \"package.json\")'", ["package.json"]], // a program that writes nothing: no name matched anywhere
    ["node -e 'process.stdout.write(require(\"path\").join(__dirname, \"package.json\"))'", ["package.json"]],
    ["python3 -c 'import subprocess; subprocess.run([\"npm\", \"src\"])'", []], // a command's words, not files
    ["python3 -c 'import os; print([f for f in os.listdir(\"src\") if len(f) > 3])'", []],
    ["rm 2>/dev/null u.ts", ["u.ts"]], // words after a redirection are the command's
    ["rm -f u.ts >/dev/null 2>&1 other.ts", ["other.ts", "u.ts"]],
    ["true && rm 2>/dev/null u.ts", ["u.ts"]], // … also the last command's of a list or pipeline, which the grammar gives the whole
    ["true && cd src && cp 2>&1 a.ts ../u.ts", ["src/../u.ts"]],
    ["ls | rm >/dev/null u.ts v", ["u.ts", "v"]],
    ["! rm 2>/dev/null u.ts", ["u.ts"]],
    ["! ! rm u.ts", ["u.ts"]], // bash reads each `!` as negation; the grammar, a second one as a command's name
    ["true && ! ! ! echo > u.ts", ["u.ts"]],
    ["rm <<EOF 2>/dev/null u.ts\nx\nEOF", ["u.ts"]], // … and after a heredoc's start, where the grammar nests the redirection in it
    ["true && cd src && rm <<EOF 2>&1 ../u.ts\nx\nEOF", ["src/../u.ts"]],
    ["cat <<EOF 2>&1 | tee u.ts\nx\nEOF", ["u.ts"]], // a `|` after it: a command of its own
    ["cat <<EOF >/dev/null |& rm u.ts\nx\nEOF", ["u.ts"]],
    ["true && ! patch <<EOF\n--- u.ts\n+++ u.ts\n@@ -1 +1 @@\n-export const u = 1;\n+export const u = 2;\nEOF", ["glob:u.ts.~*~", "u.ts", "u.ts.orig", "u.ts.rej"]],
    ["awk -F, '{ s[$(1)] += $2 }' d.csv > t.txt", ["t.txt"]], // a subscript in awk, a link in markdown
    ["echo '[`rm -rf src`] is dangerous' > s.txt", ["s.txt"]],
    ['scp u.ts "$HOST:/tmp/"', []], // a host the text does not fix
    ["scp h:'*.ts' .", ["glob:*.ts"]], // a glob the remote expands
    ["bash -c 'ln -s u.ts l'; echo x > l", ["l", "u.ts"]], // a link made in a script read after the line
    ["f() { ln -s u.ts l; }; f; echo x > l", ["l", "u.ts"]],
    ['ln -s "$(workdir)/u.ts" l; echo x > l', ["l", "unknown:u.ts"]], // a link to a place the text does not fix
    ["mkdir d && ln -s ../u.ts d/ && echo x > d/u.ts", ["d", "d/u.ts", "u.ts"]], // into a directory made first
    // What writes nothing here.
    ["echo 'a[$(ls)]' > /dev/null", []],
    ["watch -n 1 ls", []],
    ["gdb -batch -ex bt ./a.out core", []],
    ["python3 -m pdb x.py <<'EOF'\nc\nEOF", []],
    ["ssh h ls", []],
    ["ssh -T git@github.com", []],
    ["scp u.ts h:", []],
    ["rsync u.ts h:", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["gdb -ex '!rm u.ts'", "gdb -batch -ex 'dump memory u.ts 0 8' ./a.out", "scp h:u.ts .", "watch -x rm u.ts", "let 'a[$(rm u.ts)]=1'", "docker run -v .:/w node:20", "yq -i '.a = 1' u.ts", "tmux new-session -d 'rm u.ts'", "hyperfine --export-json u.ts 'sleep 1'"]) assert.is(bash(box, command), "deny", command);
  assert.is(bash(box, "watch -n 5 ls"), undefined);
});

Shell("should read docker compose exec and run with the mounts the compose file gives the service", async ({ box }) => {
  writeFileSync(
    join(box.project, "compose.yaml"),
    "services:\n  app:\n    image: node:20\n    working_dir: /app\n    volumes:\n      - ./:/app\n      - data:/data\n      - ./conf:/conf:ro\n    command: rm /app/u.ts\n  db:\n    image: postgres\n    volumes:\n      - type: bind\n        source: ./pg\n        target: /var/lib/postgresql/data\n  web:\n    image: nginx\nvolumes:\n  data:\n",
  );
  writeFileSync(join(box.project, "anchors.yml"), "x-common: &common\n  volumes:\n    - ./:/app\nservices:\n  app:\n    <<: *common\n    image: node\n");
  writeFileSync(join(box.project, "more.yml"), "services:\n  extra:\n    image: x\n    volumes:\n      - .:/srv\n");
  writeFileSync(join(box.project, "vars.yml"), "services:\n  app:\n    image: x\n    volumes:\n      - ${SRC:-..}:/app\n");
  mkdirSync(join(box.project, "sub"));
  const cases: Array<[string, string[]]> = [
    ["docker compose exec app rm /app/u.ts", ["u.ts"]], // ./ mounted at /app
    ["docker compose exec app rm u.ts", ["u.ts"]], // from its working_dir, under the mount
    ["docker compose exec -w /app app rm u.ts", ["u.ts"]],
    ["docker compose exec db rm -rf /var/lib/postgresql/data/x", ["pg/x"]], // the long syntax
    ["docker-compose exec app sh -c 'echo x > /app/u.ts'", ["u.ts"]],
    ["docker compose run --rm app", ["u.ts"]], // the service's command:
    ["docker compose run --rm -v ./sub:/s web rm /s/x", ["sub/x"]], // run's own -v
    ["cd sub && docker compose exec app rm /app/u.ts", ["u.ts"]], // the file found above, its directory the project's
    ["docker compose exec app sh -c 'rm /app/u.ts'", ["u.ts"]], // its words as written: a shell's script
    ["docker compose exec app python3 -c 'open(\"/app/u.ts\", \"w\")'", ["u.ts"]],
    ["docker-compose --log-level INFO exec app rm /app/u.ts", ["u.ts"]], // Compose v1's own options
    ["COMPOSE_FILE=more.yml docker compose exec extra rm /srv/u.ts", ["u.ts"]], // the files COMPOSE_FILE names
    // Mounts not known: a write could be any file here.
    ["docker compose -f anchors.yml exec app rm /app/u.ts", ["unknown:."]], // YAML not read
    ["docker compose -f missing.yml exec app rm /app/u.ts", ["unknown:."]],
    ["docker compose exec nosuch rm /app/u.ts", ["unknown:."]],
    ['docker compose exec "$s" rm /app/u.ts', ["unknown:."]],
    ["docker compose -f vars.yml exec app rm /app/u.ts", ["unknown:."]], // a variable in a volume
    ["cd sub && printf 'services: {}' > compose.yaml && docker compose exec app rm /app/u.ts", ["sub/compose.yaml", "unknown:."]], // written first
    ['docker compose exec "$s" ls', []], // what writes nothing, wherever it runs
    ["docker compose exec app grep -rn 'a > u.ts' .", []], // quoted text is no redirection
    ['docker compose exec app ls "$DIR"', []],
    // What writes nothing here: no mount there, a read-only one, a named volume, a command that writes nothing.
    ["docker compose exec web rm /usr/share/nginx/html/index.html", []],
    ["docker compose exec app rm /conf/x", []],
    ["docker compose exec app rm /data/x", []],
    ["docker compose exec -T app ls", []],
    ["docker compose exec db psql -U postgres", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  for (const command of ["docker compose exec app rm /app/u.ts", "docker compose exec app sh -c 'rm /app/u.ts'", "docker compose -f anchors.yml exec app rm /app/u.ts"]) assert.is(bash(box, command), "deny", command);
  for (const command of ["docker compose exec db psql -U postgres", "docker compose ps", "docker compose logs app"]) assert.is(bash(box, command), undefined, command);
});

Shell("should not block on a kernel file that says it is a regular one", async ({ box }) => {
  // /proc/kmsg blocks a read (root only); any file of /proc is read as code the hook cannot see.
  for (const command of ["source /proc/self/status; rm x", "bash < /proc/self/status"]) assert.ok((await writes(box, command)).includes("unknown:."), command);
});

Shell("should not load the shell parser for commands that write no file", async () => {
  const { mayWrite } = await import("../src/hooks/shell.js");
  for (const command of ["git status", "git log --oneline", "npm view react 2>&1", "ls >/dev/null 2>&1", "cat src/a.ts", "echo hi >&2", "sort u.ts", "curl -s https://example.com/", "cat x.py", "grep -n node x.js", "ls | grep x"]) {
    assert.not.ok(mayWrite(command), command);
  }
  for (const command of [
    "echo x > f",
    "python3 x.py", // a program in a file, which an agent may have written (program-files.ts)
    "node x.js",
    "sudo -E python3 -W ignore ./tools/fix.py",
    'uv run python "$f"',
    "git checkout f",
    "\\rm f",
    "x 1<>f",
    "sort -o f g",
    "curl -sD h https://example.com/",
    "curl -c jar https://example.com/",
    "wget -a log https://example.com/",
    "wget https://example.com/f",
    "curl -sO https://example.com/f",
    "curl --remote-name-all https://example.com/f",
    "curl -K opts",
    "time -o f ls",
    "sudo -e f",
    "sudoedit f",
    "env -S 'ls' f",
    "tar xf a.tar",
    "unzip a.zip",
    "curl -s https://example.com/x | python3",
    "python3 <(curl -s https://example.com/x)",
    ". <(cmd)",
    'eval "$x"',
    "ls | xargs rm",
    // Scripts on disk, read in turn: a package's, a Makefile's, one run by its path.
    "npm test 2>&1",
    "pnpm lint",
    "make &>/dev/null",
    "./build.sh",
    "sudo -u bob scripts/deploy",
  ]) {
    assert.ok(mayWrite(command), command);
  }
});

Shell("should refuse to install into an odd settings file with exit 2 and one sentence, changing nothing", ({ box }) => {
  const settings = join(box.project, ".claude", "settings.json");
  mkdirSync(join(box.project, ".claude"));
  for (const odd of ['{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":"x"}]}}', '{"hooks":{"PreToolUse":"x"}}', '{"hooks":[1]}', '{"hooks":{"Stop":[null]}}']) {
    writeFileSync(settings, odd);
    const result = claims(["hook", "install", "claude", "--project"], { cwd: box.project, env: { HOME: box.root } });
    assert.is(result.code, 2, `${odd}: ${result.stderr}`);
    assert.match(result.stderr, /nothing was changed/);
    assert.is(readFileSync(settings, "utf8"), odd);
    assert.is(claims(["hook", "verify", "claude", "--project"], { cwd: box.project, env: { HOME: box.root } }).code, 2);
  }
});

const Turns = suite<Context>("claims hook: what a turn gives back");
Turns.before.each((context) => {
  context.box = sandbox();
  context.file = join(context.box.project, "u.ts");
  writeFileSync(context.file, "export const u = 1;\n");
});
Turns.after.each((context) => context.box.cleanup());

const editCall = (box: Sandbox, id: string, event = "PreToolUse") => ({ hook_event_name: event, tool_name: "Edit", tool_use_id: id, tool_input: { file_path: join(box.project, "u.ts"), old_string: "1", new_string: "2" } });

Turns("should keep the claims of a shell command that failed after it ran, past the end of the turn", ({ box }) => {
  const call = { tool_name: "Bash", tool_input: { command: "echo x > new.ts && false" } };
  assert.is(bash(box, "echo x > new.ts && false"), undefined);
  event(box, { hook_event_name: "PostToolUseFailure", ...call, error: "exit 1" });
  event(box, { hook_event_name: "Stop" });
  assert.is(holders(box)[join(box.project, "new.ts")], "claude-s2", "new.ts was written: it stays claimed");
});

Turns("should not give back a file one call of the turn wrote when another call of it fails or is refused", ({ box, file }) => {
  event(box, editCall(box, "A"));
  event(box, editCall(box, "B"));
  event(box, editCall(box, "B", "PostToolUse"));
  event(box, { ...editCall(box, "A", "PostToolUseFailure"), error: "old_string not found" });
  assert.is(holders(box)[file], "claude-s2", "B wrote it");
  event(box, { hook_event_name: "Stop" });
  assert.is(holders(box)[file], "claude-s2");
});

Turns("should not give back at the next Stop what a refused shell command claimed once the next turn wrote it", ({ box, file }) => {
  assert.is(bash(box, "echo y > u.ts", { tool_use_id: "refused" }), undefined);
  // The user said No: no event. The next turn edits the same file, and ends.
  event(box, editCall(box, "next"));
  event(box, editCall(box, "next", "PostToolUse"));
  event(box, { hook_event_name: "Stop" });
  assert.is(holders(box)[file], "claude-s2");
});

Turns("should release nothing at a SubagentStop without agent_id when subagents hold claims of their own", ({ box, file }) => {
  event(box, editCall(box, "A"));
  event(box, editCall(box, "A", "PostToolUse"));
  event(box, { hook_event_name: "SubagentStop" }, ["--subagent-holders"]);
  assert.is(holders(box)[file], "claude-s2");
});

Shell.run();
Turns.run();
