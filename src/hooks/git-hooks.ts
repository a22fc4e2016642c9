// The hooks git runs around its own commands (githooks(5)): `git commit` runs the repository's
// pre-commit, prepare-commit-msg, commit-msg and post-commit hooks, and those may write any file of
// the work tree (husky's pre-commit running a formatter over the staged files, a post-checkout
// regenerating code). Which hooks a command runs, and, for the gate (shell-gate.ts), whether any of
// them is there at all without asking git; the walk asks git itself where the hooks are and reads
// each one there as a script run with its arguments (shell-git-rules.ts: gitHookRuns).
import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The hooks each command may run (client side; a command that updates a ref or the index runs those two too). */
const HOOKS: Record<string, string[]> = {
  commit: ["pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-rewrite", "pre-auto-gc"],
  merge: ["pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge", "pre-auto-gc"],
  pull: ["pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge", "pre-rebase", "post-checkout", "post-rewrite", "post-commit", "pre-auto-gc"],
  rebase: ["pre-rebase", "post-checkout", "post-rewrite", "pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-auto-gc"],
  "cherry-pick": ["pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"],
  revert: ["pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"],
  am: ["applypatch-msg", "pre-applypatch", "post-applypatch", "post-rewrite", "pre-auto-gc"],
  checkout: ["post-checkout"],
  switch: ["post-checkout"],
  worktree: ["post-checkout"],
  push: ["pre-push"],
  fetch: ["pre-auto-gc"],
  gc: ["pre-auto-gc"],
  reset: [],
  restore: [],
  stash: [],
  add: [],
  rm: [],
  mv: [],
  apply: [],
  status: [],
  "update-index": [],
  "read-tree": [],
  branch: [],
  tag: [],
  "update-ref": [],
};

/** The hooks that commands updating a ref or the index run (most commands). */
export const EVERY_COMMAND_HOOKS = ["reference-transaction", "post-index-change"];

/** Commands that update a ref: reference-transaction runs for each. */
const UPDATE_REFS = new Set(["commit", "merge", "pull", "rebase", "cherry-pick", "revert", "am", "checkout", "switch", "worktree", "push", "fetch", "reset", "stash", "branch", "tag", "update-ref"]);

/** Commands that write the index: post-index-change runs after each. */
const WRITE_INDEX = new Set(["commit", "merge", "pull", "rebase", "cherry-pick", "revert", "am", "checkout", "switch", "reset", "restore", "stash", "add", "rm", "mv", "apply", "status", "update-index", "read-tree"]);

/** The hooks `--no-verify` turns off, per command. */
const VERIFY: Record<string, string[]> = {
  commit: ["pre-commit", "commit-msg"],
  merge: ["pre-merge-commit", "commit-msg"],
  pull: ["pre-merge-commit", "commit-msg"],
  push: ["pre-push"],
  rebase: ["pre-rebase"],
  am: ["applypatch-msg", "pre-applypatch"],
};

/** The commands that run hooks, for the gate's pattern. */
export const HOOKED_COMMANDS = Object.keys(HOOKS);

/**
 * The hooks a git command may run, from its name and the words after it: `--no-verify` (and
 * commit's `-n`) leaves out the ones it turns off.
 */
export function hooksRun(sub: string | undefined, rest: Array<string | undefined> = []): string[] {
  if (sub === undefined || !Object.hasOwn(HOOKS, sub)) return [];
  const skipped = read(sub, rest).verify ? [] : (VERIFY[sub] ?? []);
  const names = [...(HOOKS[sub] as string[]), ...(UPDATE_REFS.has(sub) ? ["reference-transaction"] : []), ...(WRITE_INDEX.has(sub) ? ["post-index-change"] : [])];
  return names.filter((name) => !skipped.includes(name));
}

/** Options of these commands that take a value (the next word, when not joined to it). */
const VALUED_LONG = new Set(["--message", "--file", "--author", "--date", "--template", "--reuse-message", "--reedit-message", "--fixup", "--squash", "--trailer", "--cleanup", "--strategy", "--strategy-option", "--push-option", "--repo", "--exec", "--onto", "--receive-pack", "--pathspec-from-file"]);
const VALUED_SHORT = "mFCctsXox";

/**
 * A command's words read as git reads them: whether the hooks `--no-verify` turns off run (the
 * last of `--verify`, `--no-verify` and commit's `-n` wins; an option's value is none of them:
 * `-m -n`), and whether a commit stages more than is staged now (paths given, `-a`, `-i`, `-o`).
 */
function read(sub: string, rest: Array<string | undefined>): { verify: boolean; stagesMore: boolean } {
  let verify = true;
  let stagesMore = false;
  for (let at = 0; at < rest.length; at++) {
    const arg = rest[at];
    if (arg === undefined) {
      stagesMore = true; // a word the text does not fix: a path, perhaps
      continue;
    }
    if (arg === "--") {
      if (at + 1 < rest.length) stagesMore = true;
      break;
    }
    if (arg === "--no-verify") verify = false;
    else if (arg === "--verify") verify = true;
    else if (["--all", "--include", "--only", "--pathspec-from-file"].includes(arg) || arg.startsWith("--pathspec-from-file=")) stagesMore = true;
    else if (VALUED_LONG.has(arg)) at++;
    else if (/^-[^-]/.test(arg)) {
      for (let letter = 1; letter < arg.length; letter++) {
        const char = arg[letter] as string;
        if (sub === "commit" && char === "n") verify = false;
        if (sub === "commit" && "aio".includes(char)) stagesMore = true;
        if (VALUED_SHORT.includes(char)) {
          if (letter === arg.length - 1) at++; // its value is the next word
          break;
        }
      }
    } else if (!arg.startsWith("-")) stagesMore = true; // a path (commit's pathspec)
  }
  return { verify, stagesMore: sub === "commit" && stagesMore };
}

/** Whether a `git commit` (its words after `commit`) stages more than is staged now before its hooks run. */
export function commitStagesMore(rest: Array<string | undefined>): boolean {
  return read("commit", rest).stagesMore;
}

/** Whether a hook file git would run: a regular file it may execute (git skips any other with a warning). */
export function runnableHook(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * For the gate: whether a git command run in `cwd` (no `-C`, `--git-dir` or config of its own:
 * the gate sends those to the walk) may run any of `names`: a hook of one of those names in the
 * repository's hooks directory or in any directory a `core.hooksPath` of git's config files names
 * (also in the files they include, whatever an `includeIf` asks); or true where the environment
 * chooses the repository or the config.
 */
export function mayRunHooks(cwd: string, names: string[], environment: Record<string, string | undefined>): boolean {
  if (names.length === 0) return false;
  if (Object.keys(environment).some((key) => /^GIT_(DIR|COMMON_DIR|WORK_TREE|CONFIG\w*)$/.test(key) && environment[key] !== undefined)) return true;
  const repository = repositoryOf(cwd);
  if (repository === undefined) return false; // outside a repository, git runs no hook
  const configs = gitConfigFiles(repository, environment);
  const directories = new Set([join(repository.common, "hooks")]);
  const seen = new Set<string>();
  const readConfig = (file: string, depth: number): void => {
    if (seen.has(file) || depth > 4) return;
    seen.add(file);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return;
    }
    let section = "";
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      const header = /^\[\s*([^\]\s"]+)/.exec(line);
      if (header) section = (header[1] as string).toLowerCase();
      const entry = /^(?:\[[^\]]*\]\s*)?([\w-]+)\s*=\s*(.*)$/.exec(line);
      if (!entry) continue;
      const key = (entry[1] as string).toLowerCase();
      const value = configPath((entry[2] as string).replace(/\s+[#;].*$/, "").replace(/^"(.*)"$/, "$1"), environment.HOME);
      if (section === "core" && key === "hookspath") directories.add(resolve(repository.top, value));
      if ((section === "include" || section === "includeif") && key === "path") readConfig(resolve(dirname(file), value), depth + 1);
    }
  };
  for (const config of configs) readConfig(config, 0);
  return [...directories].some((directory) => names.some((name) => runnableHook(join(directory, name))));
}

/** A path of git's config: `~/` is the home directory. */
function configPath(value: string, home: string | undefined): string {
  return value.startsWith("~/") && home !== undefined ? join(home, value.slice(2)) : value;
}

/** The repository `cwd` is in: its git directory and common directory (a linked worktree's differ); undefined outside one. */
/**
 * The config files git reads, in its order (a later one wins): the system's, the user's
 * ($XDG_CONFIG_HOME/git/config, ~/.gitconfig), and the repository's (a linked worktree's: the main
 * repository's config and its own config.worktree), where `repository` is known.
 */
export function gitConfigFiles(repository: { gitDir: string; common: string } | undefined, environment: Record<string, string | undefined>): string[] {
  const home = environment.HOME;
  const xdg = environment.XDG_CONFIG_HOME || (home ? join(home, ".config") : undefined);
  const user = [...(xdg ? [join(xdg, "git", "config")] : []), ...(home ? [join(home, ".gitconfig")] : [])];
  return ["/etc/gitconfig", ...user, ...(repository === undefined ? [] : [join(repository.common, "config"), join(repository.gitDir, "config.worktree")])];
}

export function repositoryOf(cwd: string): { top: string; gitDir: string; common: string } | undefined {
  for (let at = cwd; ; at = dirname(at)) {
    const dotGit = join(at, ".git");
    let gitDir: string | undefined;
    try {
      if (statSync(dotGit).isDirectory()) gitDir = dotGit;
      else {
        // A linked worktree's or a submodule's `.git` file: `gitdir: <path>`.
        const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"))?.[1];
        if (pointer !== undefined) gitDir = resolve(at, pointer);
      }
    } catch {
      // none here: further up
    }
    if (gitDir !== undefined) {
      let common = gitDir;
      try {
        common = resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
      } catch {
        // a repository's own git directory is its common one
      }
      return { top: at, gitDir, common };
    }
    if (at === dirname(at)) return undefined;
  }
}
