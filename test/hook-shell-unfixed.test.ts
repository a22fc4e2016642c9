// Words the text does not fix whole that are an option given a value it does not fix (`sort
// -o"$x"`, `cp --target-directory="$d"`): read as that option with its value unknown, never as an
// operand; a word the text does not fix at all is an operand still (`sort "$x"`). Another session
// holds u.ts; session s2 runs each command through the Claude and Codex hooks of the real CLI, and
// the shell reader says what it finds written.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, cleanEnv, type Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Unfixed = suite<Context>("claims hook: an option whose value the text does not fix, attached to it");
Unfixed.before.each((context) => {
  context.box = heldBox();
  file(context.box, "a", "b\na\n");
  file(context.box, "a.c", "int main(void) { return 0; }\n");
  file(context.box, "src/b.ts", "export const b = 1;\n");
});
Unfixed.after.each((context) => context.box.cleanup());

/** The Codex hook's answer to a Bash call: "deny" (exit 2, the reason on stderr) or "allow" (exit 0). */
function codex(box: Sandbox, command: string): string {
  const result = spawnSync(process.execPath, [BIN, "hook", "codex", "--dir", box.dir], {
    input: JSON.stringify({ session_id: "s2", cwd: box.project, tool_use_id: "t1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } }),
    env: cleanEnv(),
    encoding: "utf8",
  });
  return result.status === 2 && /claimed by another session/.test(result.stderr) ? "deny" : result.status === 0 ? "allow" : `exit ${result.status}`;
}

Unfixed("should read an option with a value the text does not fix, attached to it, as that option with its value unknown", async ({ box }) => {
  // Any file: the value names a file written, and the text fixes nothing of it.
  for (const command of [
    'sort -o"$x" a',
    'sort -uo"$x" a', // in a cluster, after a flag
    'sort --output="$x" a',
    'sort --out="$x" a', // an unambiguous start of a long option
    'gcc -o"$out" a.c',
    'gcc -c a.c -MF"$dep"',
    'curl -o"$f" https://example.com/x',
  ]) {
    assert.is(bash(box, command), "deny", command);
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  assert.is(codex(box, 'sort -o"$x" a'), "deny");
  // The value judged by what the text fixes: u.ts in a place unknown; something under src/.
  assert.is(bash(box, 'sort -o"$d/u.ts" a'), "deny");
  assert.equal(await writes(box, 'sort -o"$d/u.ts" a'), ["unknown:u.ts"]);
  assert.equal(await writes(box, 'sort -o"src/$f" a'), ["glob:src/**"]);
  assert.is(bash(box, 'sort -o"src/$f" a'), undefined);
  // A target directory the text does not fix: each source lands there under its name.
  for (const command of ['cp -t"$d" u.ts', 'cp --target-directory="$d" u.ts']) {
    assert.is(bash(box, command), "deny", command);
    assert.equal(await writes(box, command), ["unknown:u.ts"], command);
  }
  // sed's in-place suffix the text does not fix: in place still.
  assert.is(bash(box, 'sed -i"$suffix" s/a/b/ u.ts'), "deny");
});

Unfixed("should read a word the text does not fix at all as an operand, and a fixed option's value as before", async ({ box }) => {
  for (const command of ['sort "$x"', 'cat "$f"', 'sort -k"$key" a', 'sort -o out.txt "$x"', 'cp -t src "$f"', 'gcc -o out "$src"']) {
    assert.is(bash(box, command), undefined, command);
    assert.not.ok((await writes(box, command)).includes("unknown:."), command);
  }
  assert.equal(await writes(box, 'sort -o out.txt "$x"'), ["out.txt"]);
  assert.is(bash(box, "sort -ou.ts a"), "deny");
  assert.is(codex(box, 'sort "$x"'), "allow");
});

Unfixed("should read a wrapper's option with a value the text does not fix, attached to it, as that option, and the command after it as its command", async ({ box }) => {
  // Not the option's word taken for the duration, and `5` for the command.
  assert.is(bash(box, 'timeout -s"$sig" 5 rm u.ts'), "deny");
  assert.equal(await writes(box, 'timeout -s"$sig" 5 rm u.ts'), ["u.ts"]);
  // A command line the text does not fix: any file.
  assert.is(bash(box, 'flock -c"$cmd" lock'), "deny");
  assert.ok((await writes(box, 'flock -c"$cmd" lock')).includes("unknown:."));
  // The user is unknown, the command is not: it writes what it names.
  assert.equal(await writes(box, 'sudo -u"$user" rm src/b.ts'), ["src/b.ts"]);
  assert.is(bash(box, 'sudo -u"$user" rm src/b.ts'), undefined);
});

Unfixed("should read git's global option with a value the text does not fix, attached to it, as that option, never as the subcommand", async ({ box }) => {
  spawnSync("git", ["init", "-q", box.project]);
  // As `git -C "$d" checkout -- u.ts` is: u.ts of a work tree the text does not fix.
  for (const command of ['git -C"$d" checkout -- u.ts', 'git --work-tree="$t" checkout -- u.ts', 'git --git-dir="$g" checkout -- u.ts', 'git -c"$setting" status', 'git diff --output="$f"']) {
    assert.is(bash(box, command), "deny", command);
  }
  assert.equal(await writes(box, 'git -C"$d" checkout -- u.ts'), await writes(box, 'git -C "$d" checkout -- u.ts'));
  // Read-only where it runs, as `git -C "$d" status` is.
  assert.is(bash(box, 'git -C"$d" status'), undefined);
});

Unfixed("should read a word whose option letters or name the text does not fix as any option it may be, with any value", async ({ box }) => {
  // `-o` with any value among them: any file.
  for (const command of ['sort -u"$x" a', 'sort -"$x" a', 'sort --output"$x" a', 'sort --"$x" a', 'sort -k1 -"$x" a', 'curl -"$x" https://example.com/x']) {
    assert.is(bash(box, command), "deny", command);
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  assert.is(codex(box, 'sort -"$x" a'), "deny");
  // `-t` with any value: u.ts copied into a directory the text does not fix; `-i`: sed edits u.ts in place; `-w`: prettier writes it.
  for (const command of ['cp -"$x" u.ts b', 'sed -"$x" s/a/b/ u.ts', 'prettier -"$x" u.ts']) assert.is(bash(box, command), "deny", command);
  // `-o` taking the next argument: `sort -o a`.
  assert.ok((await writes(box, 'sort -"$x" a')).includes("a"));
});

Unfixed("should read a command with no option that writes, or a word past the options, as before when a word's option letters are not fixed", async ({ box }) => {
  for (const command of ['rm -"$x" src/b.ts', 'mkdir -"$x" d', 'sort -- -"$x"', 'sort -o out.txt "$x"']) assert.is(bash(box, command), undefined, command);
  assert.equal(await writes(box, "sort -o out.txt a"), ["out.txt"]);
  assert.equal(await writes(box, 'sort -k"$k" -o out.txt a'), ["out.txt"]);
  assert.not.ok((await writes(box, 'rm -"$x" src/b.ts')).includes("unknown:."));
});

Unfixed("should read a word the text does not fix where git's subcommand or a global option is as any git command: any file", async ({ box }) => {
  spawnSync("git", ["init", "-q", box.project]);
  for (const command of ['git "$x" checkout -- u.ts', 'git -"$x" checkout -- u.ts', 'git --"$x" checkout -- u.ts', 'git --no-pager "$x" checkout -- u.ts', 'git -C "$d" "$x"', 'git "$x"']) {
    assert.is(bash(box, command), "deny", command);
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  assert.is(codex(box, 'git "$x" checkout -- u.ts'), "deny");
  // A subcommand the text fixes, given a word it does not: as before.
  for (const command of ['git log "$x"', 'git -C "$d" status', 'git --no-pager log']) assert.is(bash(box, command), undefined, command);
});

Unfixed("should read git's --output given a value the text does not fix as that option, and such a word after -- as a pathspec", async ({ box }) => {
  spawnSync("git", ["init", "-q", box.project]);
  for (const command of ['git diff --output="$f"', 'git log --output="$d/u.ts"', 'git format-patch --output="$f" HEAD~1', 'git diff --stat --output="$f" HEAD']) assert.is(bash(box, command), "deny", command);
  assert.equal(await writes(box, 'git log --output="$d/u.ts"'), ["unknown:u.ts"]);
  // After `--`, a path git diffs, not an option: nothing written.
  assert.is(bash(box, 'git diff -- --output="$f"'), undefined);
  assert.equal(await writes(box, 'git diff -- --output="$f"'), []);
});

Unfixed("should read an option given a value the text does not fix, attached to it, as that option where a rule reads its options again", async ({ box }) => {
  for (const command of [
    'uv pip compile -o"$f" r.in',
    'uv pip compile r.in --output-file="$f"',
    'cd src && deno compile -o"$f" main.ts', // its executable: any file, not one of src/
  ]) {
    assert.is(bash(box, command), "deny", command);
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  // `uv --directory="$d"`: where -o's file lands is unknown.
  assert.equal(await writes(box, 'uv --directory="$d" pip compile -o out.txt r.in'), ["unknown:out.txt"]);
  // swift-format's configuration is no file to format.
  assert.equal(await writes(box, 'swift format --configuration="$c" -i src/b.ts'), ["src/b.ts"]);
});

Unfixed("should read a launcher's option given a value the text does not fix, attached to it, as that option", async ({ box }) => {
  for (const command of [
    'docker run -v"$d":/src img rm /src/u.ts', // a mount whose source the text does not fix
    'docker run -v"$v" img',
    'ssh -o"$option" host ls', // a ProxyCommand or LocalCommand the text does not fix
    'ssh -E"$log" host ls',
    'scp -o"$option" a host:b',
    'rsync -e"$rsh" a host:b',
  ]) {
    assert.is(bash(box, command), "deny", command);
    assert.ok((await writes(box, command)).some((path) => path.startsWith("unknown:")), command);
  }
  // hyperfine's --output the text does not fix, in a word of its own too: its commands' output, into any file.
  for (const command of ["hyperfine --output \"$out\" 'ls'", "hyperfine --output=\"$out\" 'ls'"]) assert.is(bash(box, command), "deny", command);
  assert.equal(await writes(box, "hyperfine --output=null 'ls'"), []);
  // The option's value unknown, the command after it is not.
  assert.equal(await writes(box, 'watch -n"$n" rm src/b.ts'), ["src/b.ts"]);
  assert.equal(await writes(box, 'parallel -j"$n" rm ::: src/b.ts'), ["src/b.ts"]);
});

Unfixed("should read a package manager's option given a value the text does not fix, attached to it, as that option", async ({ box }) => {
  file(box, "package.json", JSON.stringify({ scripts: { fmt: "rm u.ts" } }));
  // A package's scripts, in a place the text does not fix: any file.
  for (const command of ['pnpm -C"$d" fmt', 'pnpm -C"$d" run fmt', 'npm --prefix="$d" run fmt', 'yarn --cwd="$d" fmt']) {
    assert.is(bash(box, command), "deny", command);
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  // An option whose value does not move it: the script here.
  assert.equal(await writes(box, 'pnpm --reporter="$r" fmt'), ["u.ts"]);
});

Unfixed("should read a package's install scripts in a place the text does not fix as any file", async ({ box }) => {
  file(box, "package.json", JSON.stringify({ scripts: { postinstall: "rm u.ts" } }));
  for (const command of ['npm --prefix "$d" install', 'npm --prefix="$d" install', 'npm install --prefix="$d"', 'pnpm -C"$d" install']) {
    assert.is(bash(box, command), "deny", command);
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  // Here, they are read: u.ts.
  assert.ok((await writes(box, "npm install")).includes("u.ts"));
  assert.not.ok((await writes(box, "npm install")).includes("unknown:."));
});

Unfixed("should read just's, task's and fd's option given a value the text does not fix, attached to it, as that option", async ({ box }) => {
  // A justfile or Taskfile the text does not fix: recipes the hook cannot read.
  for (const command of ['just -f"$file" build', 'just --justfile="$file" build', 'task -t"$file" build', 'task --taskfile="$file" build']) {
    assert.is(bash(box, command), "deny", command);
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  // A command fd runs on each file it finds that the text does not fix, as `fd -x "$cmd"` is: each found file written.
  for (const command of ['fd -x"$cmd"', 'fd . -x"$cmd"', 'fd --exec="$cmd"']) {
    assert.is(bash(box, command), "deny", command);
    assert.equal(await writes(box, command), await writes(box, 'fd -x "$cmd"'), command);
  }
  assert.equal(await writes(box, 'fd --base-directory="$d" -x rm'), ["unknown:."]);
});

Unfixed("should read tsc's option the text does not fix, attached to its name or as the project, as that option: any file", async ({ box }) => {
  file(box, "tsconfig.json", JSON.stringify({ compilerOptions: { outDir: "dist" } }));
  for (const command of ['tsc --outDir="$d"', 'tsc --outDir="$d" src/b.ts', 'tsc -"$x"', 'tsc -p "$p"', 'tsc -b "$p"', 'tsc --project="$p"']) {
    assert.is(bash(box, command), "deny", command);
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
  // An option that moves no output: as without it.
  assert.equal(await writes(box, 'tsc --target="$t"'), await writes(box, "tsc"));
  assert.is(bash(box, 'tsc --target="$t"'), undefined);
});

Unfixed("should read tmux's and screen's option given a value the text does not fix, attached to it, as that option, and the command after it as theirs", async ({ box }) => {
  // The socket or config unknown: the session's command is read as `tmux -S "$s" new …`'s is.
  for (const command of ["tmux -S\"$s\" new 'echo x > u.ts'", "tmux -L\"$l\" new-session 'echo x > u.ts'", "tmux -\"$x\" new 'echo x > u.ts'"]) assert.is(bash(box, command), "deny", command);
  assert.equal(await writes(box, "tmux -S\"$s\" new 'echo x > u.ts'"), await writes(box, "tmux -S \"$s\" new 'echo x > u.ts'"));
  assert.equal(await writes(box, 'screen -S"$s" rm u.ts'), ["u.ts"]);
  // tmux's own command line the text does not fix, or a word that may be -c with one: any file.
  for (const command of ['tmux -c"$c"', "tmux -\"$x\" new 'echo hi'"]) assert.ok((await writes(box, command)).includes("unknown:."), command);
});

Unfixed("should read python's option given a value the text does not fix, attached to it, as that option, and the module after it as run", async ({ box }) => {
  // -W's value unknown: cProfile still writes -o's file; an -o the text does not fix is any file.
  assert.is(bash(box, 'python3 -W"$w" -m cProfile -o u.ts x.py'), "deny");
  assert.ok((await writes(box, 'python3 -m cProfile -o"$o" x.py')).includes("unknown:."));
  // A word that may be an option the module's text does not name: -o, given the next word or any value.
  assert.is(bash(box, 'python3 -m cProfile -"$x" u.ts x.py'), "deny");
  // And one of python's own: -m, cProfile the module.
  assert.equal(await writes(box, 'python3 -"$x" cProfile -o u.ts x.py'), ["u.ts"]);
  assert.ok((await writes(box, 'python3 -m pickletools x.pickle -"$y"')).includes("unknown:."));
});

Unfixed("should read git's filters and rebase's commands given in a word the text does not fix as any file", async ({ box }) => {
  // A repository of its own beside u.ts: the code may write u.ts, the checkouts of sub/ cannot.
  spawnSync("git", ["init", "-q", join(box.project, "sub")]);
  // Shell code; `--tree-filter"$x"` and `-"$x"` may be --tree-filter="…", `-"$o"` may be -x.
  for (const command of ['git filter-branch --tree-filter="$x"', 'git filter-branch --tree-filter"$x"', 'git filter-branch -"$x" HEAD', 'git rebase -x"$c" main', 'git rebase -"$o" main']) {
    assert.is(bash(box, `cd sub && ${command}`), "deny", command);
    assert.ok((await writes(box, `cd sub && ${command}`)).includes("unknown:."), command);
  }
});

Unfixed("should read a long option of git's that names a command, its name's end or value not fixed by the text, as a command the text does not fix", async ({ box }) => {
  spawnSync("git", ["init", "-q", join(box.project, "sub")]);
  // `--open-files-in-pager"$p"` may be `--open-files-in-pager=cmd`, `--rec"$x"` `--receive-pack=cmd`.
  for (const command of ['git grep --open-files-in-pager"$p" pat', 'git push --rec"$x" origin']) {
    assert.is(bash(box, `cd sub && ${command}`), "deny", command);
    assert.ok((await writes(box, `cd sub && ${command}`)).includes("unknown:."), command);
  }
});

Unfixed("should read pre-commit's config, prisma's and lint-staged's, given in a word the text does not fix, as any file", async ({ box }) => {
  spawnSync("git", ["init", "-q", join(box.project, "sub")]);
  // Hooks of a config the hook cannot read, or given files it does not know, a seed command, a place whose config it cannot find.
  for (const command of ['pre-commit run -c"$c"', 'pre-commit run -c "$c"', 'pre-commit run -"$x"', 'pre-commit run --files="$f"', 'prisma db seed --config="$c"', 'npx prisma db seed --config"$c"', 'lint-staged --cwd="$d"']) {
    assert.is(bash(box, `cd sub && ${command}`), "deny", command);
    assert.ok((await writes(box, `cd sub && ${command}`)).includes("unknown:."), command);
  }
});

Unfixed("should read a word of make's whose option letters the text does not fix as one that may name the makefile", async ({ box }) => {
  // -f: gen.mk's recipes, which write u.ts.
  file(box, "gen.mk", "all:\n\techo x > u.ts\n");
  file(box, "Makefile", "all:\n\techo done\n");
  for (const command of ['make -"$x" gen.mk', 'make -k"$x" gen.mk']) {
    assert.is(bash(box, command), "deny", command);
    assert.ok((await writes(box, command)).includes("unknown:."), command);
  }
});

Unfixed("should read git commit's and crontab's options the text does not fix as those that open the editor, or give a message", ({ box }) => {
  // `-"$y"` may be -e: the editor, which writes u.ts; `-m"$m"` gives a message, and none runs.
  const editor = "GIT_EDITOR='sed -i s/a/b/ u.ts' ";
  assert.is(bash(box, `${editor}git commit -m x -"$y"`), "deny");
  assert.is(bash(box, `${editor}git commit -m"$m"`), undefined);
  // crontab's -e, in a word whose letters the text does not fix or in a cluster: the editor.
  for (const command of ['crontab -"$x"', "crontab -ie"]) assert.is(bash(box, `EDITOR='sed -i s/a/b/ u.ts' ${command}`), "deny", command);
});

Unfixed.run();
