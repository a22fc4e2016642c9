// What git runs from what a command saves or names for it: a setting `git config` writes that names
// a command (core.fsmonitor, core.pager, diff.external…), an alias it saves and a later `git <name>`
// runs, a git alias of several words, the directory `--exec-path` names for git's own programs,
// the tool difftool and mergetool run and the files mergetool merges, grep's pager in a cluster
// the text does not fix, a trace2 target git config saves, imap-send's tunnel and instaweb's server,
// a config file written other than by git config. Another session holds u.ts; session s2 runs each command
// through the Claude hook of the real CLI.
import { spawnSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Saved = suite<Context>("claims hook: commands git runs from what the command saves or names");
Saved.before.each((context) => {
  context.box = heldBox();
  spawnSync("git", ["init", "-q", context.box.project]);
});
Saved.after.each((context) => context.box.cleanup());

/** Read-only git commands that stay allowed, whatever the change. */
const COMMON = ["git status", "git config user.name x && git status", "git grep -n foo", "git log", "git diff", "git config --get core.pager", "git config pull.rebase true"];

Saved("should read a command a setting git config saves names as run where it is saved", async ({ box }) => {
  file(box, "tools/w.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  denies(box, [
    "git config core.fsmonitor tools/w.sh && git status",
    "git config core.fsmonitor tools/w.sh",
    "git config diff.external tools/w.sh && git diff",
    "git config core.pager 'rm u.ts; less' && git log",
    "git config --global core.pager 'rm u.ts; less'",
    "git config --add core.pager 'rm u.ts; less'",
    "git config set core.pager 'rm u.ts; less'",
    "git config filter.x.clean 'rm u.ts #'",
    "git config credential.helper '!rm u.ts #'",
    "git config core.editor 'rm u.ts;'",
    "git config sequence.editor tools/w.sh",
    // What the text does not fix, an include, a section renamed to one that names commands: any file.
    'git config core.fsmonitor "$x"',
    'git config "$k" "$v"',
    'git config "core.$k" x',
    "git config include.path other.cfg",
    "git config --rename-section mine core",
    "git config url.ext::sh.insteadOf https://x",
  ]);
  assert.ok((await writes(box, "git config core.pager 'rm u.ts; less'")).includes("u.ts"), "read as its command, not as any file");
  allows(box, [
    ...COMMON,
    "git config core.fsmonitor true && git status",
    "git config core.pager less && git log",
    "git config --global core.editor 'code --wait'",
    "git config credential.helper store",
    "git config --unset core.pager",
    'git config user.email "$email" && git commit --allow-empty -m x',
    'git config "user.$k" x',
    "git config --rename-section mine theirs",
  ]);
});

Saved("should run an alias git config saves where a later git command names it", async ({ box }) => {
  denies(box, [
    "git config alias.x 'checkout -- u.ts' && git x",
    "git config alias.x 'checkout --' && git x u.ts",
    'git config alias.x "$v" && git x',
  ]);
  assert.equal(await writes(box, "git config alias.x 'checkout -- u.ts' && git x"), ["u.ts"]);
  allows(box, ["git config alias.st status && git st", "git config alias.x 'checkout --' && git x other.ts"]);
});

Saved("should read the words after a multi-word alias as the command's own", async ({ box }) => {
  assert.equal(await writes(box, "git -c alias.x='checkout --' x u.ts"), ["u.ts"]);
  assert.equal(await writes(box, "git -c alias.x='checkout -- u.ts' x"), ["u.ts"]);
  denies(box, ["git -c alias.x='checkout -- u.ts' x", "git -c alias.x='restore --staged --worktree' x u.ts"]);
});

Saved("should take a directory git runs its own programs from, holding one, for any file", ({ box }) => {
  file(box, "x/git-status", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  file(box, "docs/notes.md", "# notes\n");
  const own = spawnSync("git", ["--exec-path"], { encoding: "utf8" }).stdout.trim();
  denies(box, [
    "git --exec-path=./x status",
    "GIT_EXEC_PATH=./x git status",
    "export GIT_EXEC_PATH=x; git log",
    'git --exec-path="$d" status',
    'GIT_EXEC_PATH="$d" git status',
    "mkdir -p y && cp x/git-status y/ && git --exec-path=y status",
  ]);
  allows(box, [...COMMON, "git --exec-path", "git --exec-path=./docs status", "git --exec-path=./none status", `git --exec-path=${own} status`, `GIT_EXEC_PATH=${own} git log`, "GIT_EXEC_PATH= git status"]);
});

Saved("should take the tool difftool or mergetool runs, unfixed, for any file, and mergetool as writing the files it merges", async ({ box }) => {
  const git = (...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: box.project, encoding: "utf8" });
  git("add", "u.ts");
  git("commit", "-qm", "one");
  git("checkout", "-qb", "side");
  file(box, "u.ts", "export const u = 2;\n");
  git("commit", "-qam", "side");
  git("checkout", "-q", "-");
  file(box, "u.ts", "export const u = 3;\n");
  git("commit", "-qam", "main");
  denies(box, ['git mergetool --tool "$t" other.ts', 'git mergetool -t"$t" other.ts', 'git mergetool --tool="$t" other.ts', 'git mergetool -"$x" other.ts', 'git difftool --tool "$t"', 'git difftool -t"$t"', "git difftool -x \"$cmd\""]);
  allows(box, [...COMMON, "git mergetool", "git mergetool --tool-help", "git difftool", "git difftool --tool=vimdiff -y HEAD", "git mergetool -t meld other.ts"]);
  git("merge", "-q", "side");
  assert.equal(await writes(box, "git mergetool -t meld"), ["u.ts", "u.ts.orig"]);
  denies(box, ["git mergetool", "git mergetool -y --tool=meld u.ts"]);
  allows(box, ["git mergetool other.ts", "git status"]);
});

Saved("should take a cluster of flags a part the text does not fix ends as possibly naming grep's pager", ({ box }) => {
  denies(box, ['git grep -n"$x" foo', 'git grep -in"$x" foo', 'git grep -"$x" foo', 'git clone -q"$x" . d', 'git difftool -y"$x"', "git grep -nO'rm u.ts #' foo"]);
  allows(box, [...COMMON, 'git grep -e"$x" foo', 'git grep -nie"$x" foo', 'git grep -A"$n" foo', 'git grep "$x" foo', 'git grep -n -e "$x"', 'git clone -b"$x" . d', 'git fetch -q"$x"']);
});

Saved("should take a trace2 target git config saves as a file every later git command writes", async ({ box }) => {
  denies(box, [`git config --global trace2.eventTarget ${box.project}/u.ts`, `git config trace2.normalTarget ${box.project}`, 'git config --global trace2.perfTarget "$t"', 'git config --global "trace2.$k" 1']);
  assert.equal(await writes(box, `git config -f x.cfg trace2.eventTarget ${box.project}/u.ts`), ["u.ts", "x.cfg"]);
  allows(box, [...COMMON, `git config --global trace2.eventTarget ${box.project}/trace.json`, "git config --global trace2.normalTarget 1", "git config --global trace2.eventTarget af_unix:/tmp/s"]);
});

Saved("should read imap-send's tunnel and instaweb's web server as commands git runs", ({ box }) => {
  file(box, "tools/w.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  denies(box, ["git -c imap.tunnel='rm u.ts #' imap-send", "git config imap.tunnel 'rm u.ts #'", "git instaweb --httpd=tools/w.sh", "git instaweb -d tools/w.sh", "git -c instaweb.httpd=tools/w.sh instaweb", 'git instaweb -d "$h"', 'git instaweb -l"$x"']);
  allows(box, [...COMMON, "git instaweb --httpd=lighttpd", "git instaweb --stop", 'git instaweb -p"$port"']);
});

Saved("should take a git config file written other than by git config for any file", ({ box }) => {
  denies(box, ["echo '[core] fsmonitor = ./w.sh' >> .git/config", "sed -i s/a/b/ .git/config", "cp other.cfg .git/config", "printf x >> ~/.gitconfig", "git config --global user.name x && printf x >> ~/.gitconfig"]);
  allows(box, [...COMMON, "git config --global user.name x", "git config -f .git/config user.name x", "cat .git/config", "echo x > notes.txt"]);
});

Saved.run();
