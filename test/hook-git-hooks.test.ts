// The hooks git runs around its own commands (`git commit` runs pre-commit, commit-msg, …): the
// Claude hook reads them as scripts the command runs, in real repositories, as git finds them
// (.git/hooks, core.hooksPath, husky's layouts, a linked worktree), and refuses a commit whose
// pre-commit writes a file another session holds.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

interface Context {
  box: Sandbox;
}
const Hooks = suite<Context>("claims hook: the hooks git runs");
Hooks.before.each((context) => {
  context.box = heldBox();
  git(context.box, "init", "-q", ".");
});
Hooks.after.each((context) => context.box.cleanup());

/** The git hook lefthook install writes (its shape as of lefthook 1.x). */
const HOOK = `#!/bin/sh
if [ "$LEFTHOOK" = "0" ]; then
  exit 0
fi
call_lefthook()
{
  if test -n "$LEFTHOOK_BIN"
  then
    "$LEFTHOOK_BIN" "$@"
  elif lefthook -h >/dev/null 2>&1
  then
    lefthook "$@"
  else
    dir="$(git rev-parse --show-toplevel)"
    osArch=$(uname | tr '[:upper:]' '[:lower:]')
    cpuArch=$(uname -m | sed 's/aarch64/arm64/;s/x86_64/x64/')
    if test -f "$dir/node_modules/lefthook-\${osArch}-\${cpuArch}/bin/lefthook"
    then
      "$dir/node_modules/lefthook-\${osArch}-\${cpuArch}/bin/lefthook" "$@"
    else
      echo "Can't find lefthook in PATH"
    fi
  fi
}

call_lefthook run "pre-commit" "$@"
`;

function git(box: Sandbox, ...args: string[]): void {
  const result = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: box.project, encoding: "utf8" });
  assert.is(result.status, 0, result.stderr);
}

Hooks("should read the hooks a git command runs from .git/hooks, and leave out the ones --no-verify turns off", async ({ box }) => {
  file(box, ".git/hooks/pre-commit", "#!/bin/sh\nnpx prettier --write src\necho generated > u.ts\n", 0o755);
  file(box, ".git/hooks/pre-push", "#!/bin/sh\necho pushed >> notes.txt\n", 0o755);
  file(box, ".git/hooks/commit-msg", '#!/bin/sh\necho "Signed-off-by: t" >> "$1"\n', 0o755);
  file(box, ".git/hooks/post-checkout", "#!/bin/sh\ntouch checked-out.txt\n", 0o644); // not executable: git skips it
  assert.equal(await writes(box, "git commit -m wip"), [".git/COMMIT_EDITMSG", "src", "u.ts"]);
  assert.equal(await writes(box, "git commit --no-verify -m wip"), [], "--no-verify: neither pre-commit nor commit-msg runs");
  assert.equal(await writes(box, "git commit -n -m wip"), []);
  assert.equal(await writes(box, "git commit -nm wip"), []);
  // The last of --no-verify and --verify wins; a message is no option.
  assert.equal(await writes(box, "git commit --no-verify --verify -m wip"), [".git/COMMIT_EDITMSG", "src", "u.ts"]);
  assert.equal(await writes(box, "git commit -m -n"), [".git/COMMIT_EDITMSG", "src", "u.ts"]);
  assert.equal(await writes(box, "git commit -m --no-verify"), [".git/COMMIT_EDITMSG", "src", "u.ts"]);
  assert.equal(await writes(box, "git push origin main"), ["notes.txt"]);
  assert.equal(await writes(box, "git status"), [], "git status runs none of them");
  assert.equal(await writes(box, "git switch -c feature"), [], "the post-checkout hook is not executable");
  assert.is(bash(box, "git add -A && git commit -m wip"), "deny", "the pre-commit hook writes u.ts, which another session holds");
  assert.is(bash(box, "git commit --no-verify -m wip"), undefined);
  assert.is(bash(box, "git log --oneline"), undefined);
  // A command that rewrites the whole work tree before it runs its hooks: the hooks are still read as they are.
  file(box, ".git/hooks/post-checkout", "#!/bin/sh\ntrue\n", 0o755);
  assert.equal(await writes(box, "git stash && git checkout -b feature"), ["glob:**"], "not any file: the hook writes nothing");
  // An alias of commit runs commit's hooks; a commit in a place the text does not fix, any repository's.
  git(box, "config", "alias.ci", "commit");
  assert.equal(await writes(box, "git ci -m wip"), [".git/COMMIT_EDITMSG", "src", "u.ts"]);
  assert.equal(await writes(box, 'git -C "$d" commit -m wip'), ["unknown:."]);
});

Hooks("should read the hooks where core.hooksPath sends git (the repository's config or the command's own), and from a linked worktree", async ({ box }) => {
  file(box, ".githooks/pre-commit", "#!/bin/sh\necho x > u.ts\n", 0o755);
  assert.equal(await writes(box, "git commit -m wip"), [], ".githooks is not where git looks yet");
  git(box, "config", "core.hooksPath", ".githooks");
  assert.equal(await writes(box, "git commit -m wip"), ["u.ts"]);
  assert.is(bash(box, "git commit -m wip"), "deny");
  assert.equal(await writes(box, "git -c core.hooksPath=/dev/null commit -m wip"), [], "the command's own config wins");
  // A linked worktree runs the main repository's hooks, from its own top.
  git(box, "config", "--unset", "core.hooksPath");
  file(box, ".git/hooks/pre-commit", "#!/bin/sh\necho x > u.ts\n", 0o755);
  git(box, "commit", "-q", "--no-verify", "--allow-empty", "-m", "init");
  git(box, "worktree", "add", "-q", "wt");
  const tree = join(box.project, "wt");
  const { shellWrites } = await import("../src/hooks/shell.js");
  assert.equal(await shellWrites("git commit -m wip", tree, box.root, {}), [join(tree, "u.ts")]);
  git(box, "config", "alias.ci", "commit");
  assert.equal(await shellWrites("git ci -m wip", tree, box.root, {}), [join(tree, "u.ts")], "an alias of the main repository's config");
});

Hooks("should take hooks set up earlier in the same command as unknown: core.hooksPath set, a hook written or made runnable", async ({ box }) => {
  file(box, ".githooks/pre-commit", "#!/bin/sh\necho x > u.ts\n", 0o755);
  file(box, ".git/hooks/pre-commit", "#!/bin/sh\necho x > u.ts\n", 0o644); // not executable yet
  assert.equal(await writes(box, "git commit -m wip"), [], "no hook git runs now");
  assert.is(bash(box, "git config core.hooksPath .githooks && git commit -m wip"), "deny", "the hooks git runs after the config are not those on disk now");
  assert.equal(await writes(box, "git config set core.hooksPath .githooks; git push"), ["unknown:."]);
  assert.is(bash(box, "chmod +x .git/hooks/pre-commit && git commit -m wip"), "deny");
  assert.equal(await writes(box, "cp .githooks/pre-commit .git/hooks/ && git commit -m wip"), [".git/hooks/pre-commit", "unknown:."]);
  // Other config, and a formatter run over the project before the commit, move no hook.
  assert.equal(await writes(box, "git config user.name t && git commit -m wip"), []);
  assert.is(bash(box, "git config user.name t && git commit -m wip"), undefined);
  assert.equal(await writes(box, "npx prettier --write . && git commit -m wip"), [box.project]);
});

Hooks("should read the hooks of the commits other tools make (npm version, commitizen), --config-env, and what git submodule foreach runs", async ({ box }) => {
  file(box, ".git/hooks/pre-commit", "#!/bin/sh\necho x > u.ts\n", 0o755);
  file(box, "package.json", '{"name": "p", "version": "1.0.0"}');
  assert.ok((await writes(box, "npm version patch")).includes("u.ts"), "npm version commits, running pre-commit");
  assert.not.ok((await writes(box, "npm version patch --no-git-tag-version")).includes("u.ts"));
  assert.not.ok((await writes(box, "npm version patch --no-commit-hooks")).includes("u.ts"));
  assert.is(bash(box, "npm version patch"), "deny");
  assert.equal(await writes(box, "git cz"), ["u.ts"]);
  assert.is(bash(box, "npx cz"), "deny");
  assert.equal(await writes(box, "npx git-cz --no-verify"), []);
  file(box, ".other-hooks/pre-commit", "#!/bin/sh\necho x > v.ts\n", 0o755);
  assert.equal(await writes(box, "git --config-env=core.hooksPath=HOOKS commit -m wip", { HOOKS: join(box.project, ".other-hooks") }), ["v.ts"]);
  // git submodule foreach: the command in each submodule .gitmodules names (nested ones too with --recursive: places unknown).
  file(box, ".gitmodules", '[submodule "lib"]\n\tpath = vendor/lib\n\turl = ../lib\n');
  mkdirSync(join(box.project, "vendor/lib"), { recursive: true });
  assert.equal(await writes(box, "git submodule foreach 'touch built.txt'"), ["vendor/lib/built.txt"]);
  assert.equal(await writes(box, "git submodule foreach --recursive touch built.txt"), ["unknown:built.txt", "vendor/lib/built.txt"]);
  assert.equal(await writes(box, "git submodule status"), []);
});

Hooks("should find core.hooksPath in a file the user's config includes, and read only the commands that run a hook there", async ({ box }) => {
  file(box, "shared-hooks/pre-commit", "#!/bin/sh\necho x > u.ts\n", 0o755);
  writeFileSync(join(box.root, ".gitconfig"), `[user]\n\tname = t\n[includeIf "gitdir:~/"]\n\tpath = hooks.cfg\n`);
  writeFileSync(join(box.root, "hooks.cfg"), `[core]\n\thooksPath = ${join(box.project, "shared-hooks")} # the team's\n`);
  const environment = { HOME: box.root };
  assert.equal(await writes(box, "git commit -m wip", environment), ["u.ts"]);
  assert.is(bash(box, "git commit -m wip", {}, environment), "deny");
  // What the gate sends to the walk (the parser's load, and git asked where its hooks are): only a command one of the hooks there runs.
  const { runsGitHooks } = await import("../src/hooks/shell-gate.js");
  assert.is(runsGitHooks("git commit -m wip", box.project, environment), true);
  assert.is(runsGitHooks("git status && git log", box.project, environment), false, "no post-index-change hook there");
  assert.is(runsGitHooks("git status", box.project, {}), false, "without the user's config: no hooks");
  assert.is(runsGitHooks("git commit -m wip", box.project, {}), false);
});

Hooks("should read husky's hooks: version 9's stubs as the project's own hook run by sh, version 8's that source husky.sh and run themselves again", async ({ box }) => {
  // husky 9 (`npx husky init`): core.hooksPath is .husky/_, every hook there the same two lines.
  file(box, ".husky/_/h", '#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\n');
  for (const name of ["pre-commit", "commit-msg", "pre-push"]) file(box, `.husky/_/${name}`, '#!/usr/bin/env sh\n. "$(dirname "$0")/h"', 0o755);
  file(box, ".husky/pre-commit", "npx prettier --write src\necho generated > u.ts\n");
  git(box, "config", "core.hooksPath", ".husky/_");
  assert.equal(await writes(box, "git commit -m wip"), ["src", "u.ts"], "commit-msg and pre-push have no project hook: nothing runs");
  assert.is(bash(box, "git commit -m wip"), "deny");
  assert.equal(await writes(box, "HUSKY=0 git commit -m wip"), [], "HUSKY=0 turns husky off");
  assert.equal(await writes(box, "git push"), []);
  // husky 9.0's stubs (`${0%/*}`), and a hook that kept husky 8's first line (9.1's husky.sh only prints a warning).
  file(box, ".husky/_/pre-commit", '#!/usr/bin/env sh\n. "${0%/*}/h"', 0o755);
  file(box, ".husky/_/husky.sh", 'echo "husky - DEPRECATED\n\nPlease remove the following two lines from $0:\n\n#!/usr/bin/env sh\n. \\"\\$(dirname -- \\"\\$0\\")/_/husky.sh\\"\n"');
  file(box, ".husky/pre-commit", '. "$(dirname -- "$0")/_/husky.sh"\n\nnpx prettier --write src\n');
  assert.equal(await writes(box, "git commit -m wip"), ["src"]);
  // husky 8: core.hooksPath is .husky, each hook sources _/husky.sh, which runs the hook again with sh -e.
  file(
    box,
    ".husky/_/husky.sh",
    '#!/usr/bin/env sh\nif [ -z "$husky_skip_init" ]; then\n  readonly hook_name="$(basename -- "$0")"\n  if [ -f ~/.huskyrc ]; then\n    . ~/.huskyrc\n  fi\n  readonly husky_skip_init=1\n  export husky_skip_init\n  sh -e "$0" "$@"\n  exitCode="$?"\n  exit $exitCode\nfi\n',
  );
  file(box, ".husky/pre-commit", '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\nnpx prettier --write src\n', 0o755);
  git(box, "config", "core.hooksPath", ".husky");
  assert.equal(await writes(box, "git commit -m wip"), ["src"], "read once, in the work tree's top, not as any file");
});

Hooks("should read lefthook's hooks as the commands its config gives them, with the staged files each glob matches", async ({ box }) => {
  // The hook lefthook install writes (it finds lefthook on PATH or in node_modules, and runs it with the hook's name).
  file(box, ".git/hooks/pre-commit", HOOK, 0o755);
  file(
    box,
    "lefthook.yml",
    `pre-commit:
  commands:
    fmt:
      glob: "*.ts"
      run: npx prettier --write {staged_files}
    lint:
      glob: "*.py"
      run: ruff check --fix {staged_files}
fmt:
  jobs:
    - name: all
      run: npx biome check --write src
    - group:
        jobs:
          - run: touch grouped.txt
`,
  );
  file(box, "b.ts", "export const b = 1;\n");
  git(box, "add", "lefthook.yml", "u.ts");
  git(box, "commit", "-q", "--no-verify", "-m", "init");
  git(box, "add", "b.ts");
  assert.equal((await writes(box, "git commit -m wip")).filter((path) => path.endsWith(".ts")), ["b.ts"], "prettier on the staged .ts files");
  assert.is(bash(box, "git commit -m wip"), undefined, "u.ts, which another session holds, is not staged");
  file(box, "u.ts", "export const u = 2;\n");
  git(box, "add", "u.ts");
  assert.is(bash(box, "git commit -m wip"), "deny", "u.ts staged: prettier --write would rewrite it");
  assert.is(bash(box, "git commit --no-verify -m wip"), undefined);
  assert.is(bash(box, "LEFTHOOK=0 git commit -m wip"), "deny", "read whatever the variable (a hook may be run again by hand)");
  assert.equal(await writes(box, "lefthook run pre-commit"), ["b.ts", "u.ts"]);
  assert.equal(await writes(box, "npx lefthook run fmt"), ["grouped.txt", "src"]);
  assert.equal(await writes(box, "lefthook run pre-commit --file b.ts"), ["b.ts"]);
  assert.equal(await writes(box, "lefthook install"), []);
  // Scripts from .lefthook/HOOK/ and .lefthook-local/HOOK/.
  file(box, "lefthook.yml", "pre-commit:\n  scripts:\n    fix.sh:\n      runner: sh\n");
  file(box, ".lefthook-local/pre-commit/fix.sh", "sed -i s/a/b/ other.txt\n");
  assert.equal(await writes(box, "lefthook run pre-commit"), ["lefthook.yml", "other.txt"], "the script's write, and the config's unstaged change, stashed and put back");
  // A config it cannot read, one in another format, settings that send it elsewhere, LEFTHOOK_CONFIG: any file.
  file(box, "lefthook.yml", "pre-commit: &anchor\n  commands: {}\n");
  assert.equal(await writes(box, "lefthook run pre-commit"), ["unknown:."]);
  file(box, "lefthook.yml", "source_dir: hooks/\npre-commit:\n  scripts:\n    fix.sh:\n      runner: sh\n");
  assert.equal(await writes(box, "lefthook run pre-commit"), ["unknown:."]);
  file(box, "lefthook.yml", "pre-commit:\n  commands:\n    x:\n      run: echo x\n");
  assert.equal(await writes(box, "LEFTHOOK_CONFIG=alt.yml lefthook run pre-commit"), ["unknown:."]);
  for (const name of ["lefthook.jsonc", ".config/lefthook.toml", ".config/lefthook-local.yml", "lefthook-local.json"]) {
    file(box, name, name.endsWith("yml") ? "pre-commit:\n  commands:\n    x:\n      run: sed -i s/a/b/ other.txt\n" : "{}\n");
    assert.ok((await writes(box, "lefthook run pre-commit")).some((path) => path === "unknown:." || path === "other.txt"), name);
    spawnSync("rm", ["-f", join(box.project, name)]);
  }
});

Hooks("should read lint-staged as the commands its configs give the staged files each pattern matches", async ({ box }) => {
  file(box, ".husky/_/h", "#!/usr/bin/env sh\n");
  file(box, ".husky/_/pre-commit", '#!/usr/bin/env sh\n. "$(dirname "$0")/h"', 0o755);
  file(box, ".husky/pre-commit", "npx lint-staged\n");
  git(box, "config", "core.hooksPath", ".husky/_");
  file(box, "package.json", JSON.stringify({ name: "app", "lint-staged": { "*.ts": "prettier --write", "*.md": ["markdownlint"] } }));
  file(box, "b.ts", "export const b = 1;\n");
  file(box, "notes.md", "# notes\n");
  // A package with its own YAML config (the nearest config wins), and one in JavaScript (not read: its files any command's).
  file(box, "packages/app/.lintstagedrc", '"*.{ts,tsx}":\n  - eslint --fix\n  - vitest related --run\n');
  file(box, "packages/app/x.ts", "export const x = 1;\n");
  file(box, "packages/tool/lint-staged.config.js", "export default { '*.ts': (files) => `biome check --write ${files.join(' ')}` };\n");
  file(box, "packages/tool/y.ts", "export const y = 1;\n");
  git(box, "add", "package.json", ".husky", "packages");
  git(box, "commit", "-q", "--no-verify", "-m", "init");
  git(box, "add", "b.ts", "notes.md");
  // Staged: b.ts (prettier --write writes it), notes.md (markdownlint writes nothing); u.ts is not staged.
  assert.equal(await writes(box, "git commit -m wip"), ["b.ts"]);
  assert.is(bash(box, "git commit -m wip"), undefined, "u.ts, which another session holds, is not staged: lint-staged leaves it");
  // A command that stages more first: every changed or new file is one lint-staged may be given.
  assert.equal(await writes(box, "git add -A && git commit -m wip"), ["b.ts", "u.ts"]);
  assert.is(bash(box, "git add -A && git commit -m wip"), "deny");
  assert.is(bash(box, "git commit -am wip"), "deny");
  git(box, "add", "u.ts");
  assert.is(bash(box, "git commit -m wip"), "deny", "u.ts staged: prettier --write would rewrite it");
  assert.is(bash(box, "npx lint-staged"), "deny", "run by hand, as in the hook");
  assert.is(bash(box, "git commit --no-verify -m wip"), undefined);
  // Each package's files to its own config.
  file(box, "packages/app/x.ts", "export const x = 2;\n");
  file(box, "packages/tool/y.ts", "export const y = 2;\n");
  git(box, "add", "packages");
  assert.equal(await writes(box, "npx lint-staged"), ["b.ts", "packages/app/x.ts", "packages/tool/y.ts", "u.ts"]);
  assert.equal(await writes(box, "npx lint-staged --config missing.json"), [], "no such config: lint-staged stops");
  assert.equal(await writes(box, "node_modules/.bin/lint-staged"), ["b.ts", "packages/app/x.ts", "packages/tool/y.ts", "u.ts"]);
  assert.equal(await writes(box, "yarn lint-staged"), ["b.ts", "packages/app/x.ts", "packages/tool/y.ts", "u.ts"]);
  // The unstaged changes lint-staged sets aside while the tasks run: a partly staged file's by
  // default (checked out, whatever the tasks are), every file's with --hide-unstaged.
  file(box, "package.json", JSON.stringify({ name: "app", "lint-staged": { "*.md": "markdownlint" } }));
  git(box, "add", "package.json");
  file(box, "u.ts", "export const u = 2;\n"); // staged before: now partly staged
  assert.equal(await writes(box, "npx lint-staged"), ["packages/app/x.ts", "packages/tool/y.ts", "u.ts"]);
  assert.equal(await writes(box, "npx lint-staged --no-stash"), ["packages/app/x.ts", "packages/tool/y.ts"]);
  git(box, "commit", "-q", "--no-verify", "-m", "all");
  file(box, "notes.md", "# more notes\n");
  git(box, "add", "notes.md");
  assert.equal(await writes(box, "npx lint-staged"), [], "u.ts has unstaged changes only; markdownlint writes nothing");
  assert.equal(await writes(box, "npx lint-staged --hide-unstaged"), ["u.ts"]);
});

Hooks("should read lint-staged's files where a commit stages more (paths given), configs not committed yet, lists in brackets and braces of one", async ({ box }) => {
  file(box, ".git/hooks/pre-commit", "#!/bin/sh\nnpx lint-staged\n", 0o755);
  file(box, "package.json", JSON.stringify({ name: "app" }));
  git(box, "add", "package.json", "u.ts");
  git(box, "commit", "-q", "--no-verify", "-m", "init");
  file(box, "u.ts", "export const u = 2;\n"); // changed, not staged
  file(box, ".lintstagedrc", '"*.{ts}": [prettier --write, "eslint --fix"]\n'); // not committed
  assert.equal(await writes(box, "git commit -m wip"), [], "nothing staged");
  assert.equal(await writes(box, "git commit -m wip u.ts"), ["u.ts"], "a path given: committed as it is in the work tree");
  assert.equal(await writes(box, "git commit -m wip -- u.ts"), ["u.ts"]);
  assert.is(bash(box, "git commit -m 'fix u' u.ts"), "deny");
});

Hooks("should read the pre-commit framework's hook as the files its hooks may fix and the unstaged changes it stashes", async ({ box }) => {
  // What `pre-commit install` writes (its template, the paths filled in).
  file(
    box,
    ".git/hooks/pre-commit",
    '#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n# ID: 138fd403232d2ddd5efb44317e38bf03\n\n# start templated\nINSTALL_PYTHON=/usr/bin/python3\nARGS=(hook-impl --config=.pre-commit-config.yaml --hook-type=pre-commit)\n# end templated\n\nHERE="$(cd "$(dirname "$0")" && pwd)"\nARGS+=(--hook-dir "$HERE" -- "$@")\n\nif [ -x "$INSTALL_PYTHON" ]; then\n    exec "$INSTALL_PYTHON" -mpre_commit "${ARGS[@]}"\nelif command -v pre-commit > /dev/null; then\n    exec pre-commit "${ARGS[@]}"\nelse\n    echo \'`pre-commit` not found.  Did you forget to activate your virtualenv?\' 1>&2\n    exit 1\nfi\n',
    0o755,
  );
  file(box, ".pre-commit-config.yaml", "repos:\n  - repo: https://github.com/psf/black\n    rev: 24.1.0\n    hooks:\n      - id: black\n");
  file(box, "b.py", "b = 1\n");
  git(box, "add", "b.py", ".pre-commit-config.yaml");
  assert.equal(await writes(box, "git commit -m wip"), [".pre-commit-config.yaml", "b.py"], "the staged files; u.ts is new and not staged");
  assert.is(bash(box, "git commit -m wip"), undefined);
  assert.is(bash(box, "git add -A && git commit -m wip"), "deny", "u.ts staged first: black may rewrite it");
  assert.is(bash(box, "pre-commit run --all-files"), "deny", "every file of the repository");
  assert.is(bash(box, "pre-commit run --files b.py"), undefined);
  assert.equal(await writes(box, "pre-commit autoupdate"), [".pre-commit-config.yaml"]);
  assert.equal(await writes(box, "pre-commit migrate-config"), [".pre-commit-config.yaml"]);
  assert.is(bash(box, "pre-commit run --files=u.ts"), "deny", "--files=FILE is --files FILE");
  // A tracked file with unstaged changes is stashed while the hooks run, then put back: written.
  git(box, "add", "u.ts");
  git(box, "commit", "-q", "--no-verify", "-m", "init");
  file(box, "u.ts", "export const u = 2;\n");
  assert.equal(await writes(box, "git commit -m wip"), ["u.ts"]);
  assert.is(bash(box, "git commit -m wip"), "deny", "the other session's unstaged change to u.ts is stashed and put back");
  assert.is(bash(box, "git commit --no-verify -m wip"), undefined);
  assert.equal(await writes(box, "pre-commit run black --files b.py"), ["b.py", "u.ts"], "black is a hook's id, not a file");
  assert.equal(await writes(box, "python3 -m pre_commit run --files b.py"), ["b.py", "u.ts"]);
  // Its pre-push hook: the files of the commits no remote has.
  git(box, "checkout", "-q", "--", "u.ts");
  spawnSync("cp", [join(box.project, ".git/hooks/pre-commit"), join(box.project, ".git/hooks/pre-push")]);
  assert.equal(await writes(box, "git push origin HEAD"), [".pre-commit-config.yaml", "b.py", "u.ts"]);
});

Hooks("should read a script that runs itself again with the same arguments once, not as any file", async ({ box }) => {
  file(box, "self.sh", '#!/bin/sh\nif [ -z "$again" ]; then\n  export again=1\n  sh -e "$0" "$@"\n  exit $?\nfi\necho done > out.txt\n', 0o755);
  assert.equal(await writes(box, "./self.sh"), ["out.txt"]);
});

Hooks.run();
