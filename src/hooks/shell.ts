// The files a shell command will write, read from its syntax tree (tree-sitter's bash grammar, the
// same parser family the symbol claims use), not from a regex: redirections (`>`, `>>`, `&>`,
// `<>`), and the arguments of the commands that write the files they name (sed -i, perl -i, tee,
// cp, mv, rm, truncate, touch, dd of=, ln, install, patch, tar, unzip, git checkout/restore/rm/mv/apply,
// apply_patch), the work tree that git's branch, reset, stash and merge commands rewrite, what find's
// -delete and -exec reach, formatters, package managers and compilers (prettier --write, npm
// install x, cc -o), through `sudo`/`env`/`timeout`-style wrappers, `bash -c '…'`, `eval '…'`,
// `xargs`, and `cd` before them. Each command's options are read as getopt reads them, from one declaration
// of the ones that take a value (shell-options.ts): `cp -at dst f` copies into dst, `sort -uo out` writes out.
// Scripts on disk that the command runs are read in turn: a shell script (`bash build.sh`,
// `./build.sh`, `source env.sh`), a package's scripts (`npm run fmt`), a Makefile's recipes (`make`);
// and a shell function where it is called.
//
// Only what the text itself says. A written word built from a variable, a command substitution or
// arithmetic is judged by the part the text fixes (judgedPath in shell-words.ts: `"$d/u.ts"` is a
// u.ts in a place unknown, as after an unknown `cd`; `"out-$n.ts"` any out-*.ts there), unless it is
// in temp space ($TMPDIR, mktemp); so is a write whose directory such a word decides (`cp -t "$d" f`,
// `git -C "$d"`). Where the text cannot name what is written at all (`curl … | sh`, `eval "$x"`,
// `curl -K`), it could be any file. A program in another language given inline (`python3 -c '…'`)
// has its path-like strings judged (shell-programs.ts), and so does one in a file an agent may have
// written (`python3 fix.py`, untracked by git: program-files.ts); the project's own are not read.
// docs/HOOKS.md lists both sides.
//
// This file is the entry (shellWrites), behind the cheap gate (mayWrite, shell-gate.ts). The hook
// loads both for every shell command; the rest loads only for a command that may write: the walk
// over the syntax tree, which loads the parser (shell-walk.ts); a word's value and the path it
// names (shell-words.ts); what a script does with its variables (shell-variables.ts); what code
// run in this shell leaves for what follows (shell-state.ts); options (shell-options.ts); commands
// that run other commands: wrappers, shells, interpreters, xargs, find, package runners
// (shell-runners.ts, shell-wrappers.ts, shell-task-runners.ts); scripts on disk (shell-scripts.ts,
// shell-make.ts); what each command writes (shell-rules.ts, with the scripts of sed, awk, Vim/ex and ed
// in shell-editor-scripts.ts, and which gathers shell-archive-rules.ts,
// shell-build-rules.ts, shell-download-rules.ts, shell-git-rules.ts and shell-tool-rules.ts; a
// rule's shape and the readings rules share: shell-rule.ts).
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type Parser from "web-tree-sitter";
import { mayWrite, programsHere, quietPackageRun, runsGitHooks } from "./shell-gate.js";
import { forgetTracked } from "./program-files.js";
import { joinContinuations, lineStartEscapes } from "./shell-continuations.js";
import { mayTakeTypedCommands } from "./shell-terminal.js";
import type { Environment, Shared } from "./shell-words.js";
import { CHECK_ONLY, GLOB_MARK, REMOVED_WHOLE, TYPED_AT_TERMINAL, UNKNOWN_MARK } from "./payload.js";
import { INHERITED, UNSET } from "./shell-variables.js";

export { mayWrite };

/** At most this many paths a program's text names are judged one by one. */
const NAMED_LIMIT = 256;

/**
 * How long the walk may spend parsing one command's scripts: an agent runs a command whose hook
 * outlasts its timeout unjudged (Claude Code's was a minute), and a user waits meanwhile, so a
 * script the grammar is slow on (shell-heredocs.ts) is judged as one that could write any file.
 */
const PARSE_MS = 5_000;

/**
 * How long the walk may spend on one command in all, parses and reading the trees: a line of
 * 20,000 `:&&` took 16 s to read, past the 10 s the hooks' install gives the hook, and an agent
 * runs a command whose hook timed out unjudged. Past it, any file. (An object, so a test can
 * shorten it.)
 */
export const WALK_LIMIT = { ms: 6_000 };

/**
 * How much text the walk gives the grammar for one command, heredocs set aside, its scripts and
 * programs together: a tree's nodes cost the walk too, past the parse (540 KB of words: 4 s).
 */
const PARSE_TEXT = 256 * 1024;

/** How many syntax-tree nodes the walk reads for one command (250 KB of words is about 100,000: 2 s). */
const PARSE_NODES = 150_000;

/** Globs that hold every one of `paths`, at most NAMED_LIMIT of them: each path's directory's files, or a directory further up and all under it. */
function directoriesOf(paths: string[]): string[] {
  let level = 0;
  for (;;) {
    const up = (path: string) => {
      let at = dirname(path);
      for (let step = 0; step < level; step++) at = dirname(at);
      return at;
    };
    const globs = new Set(paths.map((path) => `${GLOB_MARK}${join(up(path), level === 0 ? "*" : "**")}`));
    if (globs.size <= NAMED_LIMIT || level > 64) return [...globs];
    level++;
  }
}

/** The variables the programs that run an editor take it from (shell-editors.ts). */
const EDITOR_VARIABLES = ["GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "VISUAL", "EDITOR", "KUBE_EDITOR", "SUDO_EDITOR", "SYSTEMD_EDITOR"];
/** An editor given its options alone, which writes the file it is given and nothing else. */
const PLAIN_EDITOR = /^\s*(\S*\/)?(vi|vim|nvim|view|nano|pico|emacs|emacsclient|code|code-insiders|cursor|subl|mate|micro|hx|helix|kak|joe|jed|ne|mcedit|gedit|kate|zed|ed|ex|true|false|cat)(\s+-\S*)*\s*$/;

/** Whether the environment names an editor that may write more than its file (`GIT_EDITOR='sed -i … x.ts'`, a script). */
function editorMayWriteElsewhere(environment: Environment): boolean {
  return EDITOR_VARIABLES.some((name) => {
    const value = environment[name];
    return typeof value === "string" && value.trim() !== "" && !PLAIN_EDITOR.test(value);
  });
}

/** The variables of INHERITED, bound to their values in the environment, or to UNSET. */
function inherited(environment: Environment): Map<string, string[]> {
  return new Map(INHERITED.map((name) => [name, [environment[name] ?? UNSET]]));
}

/**
 * Absolute paths the command writes (an existing directory stands for everything under it). The
 * environment is the one the command inherits, for the variables that name what a tool writes
 * (SIMPLE_BACKUP_SUFFIX, VERSION_CONTROL).
 */
export async function shellWrites(given: string, cwd: string | undefined, home: string, environment: Environment = process.env, terminal = false): Promise<string[]> {
  CHECK_ONLY.clear(); // this command's, not an earlier one's in the same process
  TYPED_AT_TERMINAL.clear();
  REMOVED_WHOLE.clear();
  forgetTracked();
  // A NUL: bash drops it reading a script, an argument ends at it; which the agent's shell does,
  // the text does not say (`rm u.ts<NUL>x` is rm u.tsx or rm u.ts): any file.
  if (given.includes("\0")) return [`${UNKNOWN_MARK}.`];
  const command = joinContinuations(given); // `r\<newline>m u.ts` is `rm u.ts` to the gate too
  // `git commit` where the repository has a pre-commit hook: the hook is read (git-hooks.ts).
  // (Where it runs is unknown, for text typed into a terminal, `cwd` undefined: the walk reads it as after a `cd "$d"`.)
  const hooked = cwd !== undefined && runsGitHooks(command, cwd, environment);
  // With a terminal, a program that writes nothing by its words may take commands typed into it
  // later (tmux, su, vim): the walk reads every such command (shell-terminal.ts).
  // And one that runs an editor on a file of its own (`git commit` with no message, `crontab -e`),
  // where the environment names an editor that is a command line of its own (shell-editors.ts).
  const typed = (terminal || editorMayWriteElsewhere(environment)) && mayTakeTypedCommands(command);
  if (!hooked && !typed && (!mayWrite(command) || (cwd !== undefined && quietPackageRun(command, cwd)))) return [];
  // `python3 manage.py test`: programs the project keeps are not read (program-files.ts); looked at before the parser loads.
  const programs = hooked || typed ? undefined : programsHere(command);
  if (programs !== undefined && cwd !== undefined) {
    const { programCandidates, programOnDisk } = await import("./program-files.js");
    // (Not a package's command run by its file, `node node_modules/vite/bin/vite.js build`: read as that command, shell-walk.ts.)
    if (programs.every((word) => !word.includes("node_modules/") && programCandidates(word, cwd).every((path) => programOnDisk(path) === undefined))) return [];
  }
  // The walk, the rules and the parser load only now: most commands an agent runs write nothing.
  const { walkScript } = await import("./shell-walk.js");
  const { parserFor } = await import("../targets/symbols.js");
  const found = new Set<string>();
  // Scripts read for one command, at most: a script calling itself, or a thousand members' scripts, ends there.
  const shared: Shared = { command, terminal, functions: new Map(), pending: [], read: new Set<string>(), budget: 64, managed: new Set<string>(), deadline: Date.now() + PARSE_MS, walkDeadline: Date.now() + WALK_LIMIT.ms, textLeft: PARSE_TEXT, nodesLeft: PARSE_NODES };
  await walkScript(command, { cwd, previous: undefined, stack: [], home, environment, found, temporary: new Set(), bound: inherited(environment), shared }, 0, () => parserFor("bash"));
  for (const program of shared.typedPrograms ?? []) TYPED_AT_TERMINAL.add(program);
  for (const directory of shared.removedWhole ?? []) REMOVED_WHOLE.add(directory);
  // A config file git reads, written other than by `git config` (`echo '[core] fsmonitor = …' >>
  // .git/config`, `sed -i … ~/.gitconfig`): it may save a command a later git command runs, in any
  // session, which the hook does not read there (shell-git-commands.ts): any file.
  const configs = [join(home, ".gitconfig"), join(environment.XDG_CONFIG_HOME || join(home, ".config"), "git", "config"), "/etc/gitconfig"];
  const gitConfig = (path: string) => /\/\.git\/(worktrees\/[^/]+\/)?(config|config\.worktree)$/.test(path) || configs.includes(path);
  if ([...found].some((path) => gitConfig(path) && (shared.writes?.get(path) ?? 0) > (shared.gitConfigWrites?.get(path) ?? 0))) found.add(`${UNKNOWN_MARK}.`);
  // What only a program's text names, and no rule writes too: judged, not claimed.
  const named = [...found].filter((path) => shared.judged?.has(path) && shared.judged.get(path) === shared.writes?.get(path));
  if (named.length <= NAMED_LIMIT) {
    for (const path of named) CHECK_ONLY.add(path);
    return [...found];
  }
  // A program naming thousands of paths would take the hook longer to judge than the agent waits
  // (about a millisecond each): judged as their directories' files instead (`src/*`, then `src/**`).
  for (const path of named) found.delete(path);
  return [...found, ...directoriesOf(named)];
}

/** Bash's builtins and keywords: commands no PATH lookup finds. */
const BASH_BUILTINS = new Set(
  ". : [ [[ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait".split(" "),
);

/**
 * A command's name that no shell would run, where it is no builtin and no program on PATH: a
 * method's (`File.delete`, `manage.py`), psql's `\o` (its backslash taken off: `\rm` is rm),
 * all capitals (SQL's `COPY`), or given `=` (`x = 1`): a line for a program that is no shell.
 */
function foreignName(name: string, first: string | undefined, environment: Environment): boolean {
  const bare = name.replace(/^\\/, "");
  if (bare.includes("/") || bare.includes("$") || BASH_BUILTINS.has(bare)) return false;
  if (!(bare.includes(".") || bare !== name || /^[A-Z]+$/.test(bare) || /^[-+*/]?=$/.test(first ?? ""))) return false;
  return !(environment.PATH ?? "").split(":").some((dir) => dir !== "" && existsSync(join(dir, bare)));
}

/**
 * Whether a text reads as Bash, without a syntax error and with commands a shell would run: text
 * typed into a process that may not be a shell is read as a shell line only where it is one, not
 * a REPL's `os.remove("u.ts")` (a syntax error to bash) or `File.delete "u.ts"` (foreignName).
 */
export async function readsAsShell(text: string, environment: Environment = process.env): Promise<boolean> {
  const { parserFor } = await import("../targets/symbols.js");
  const parser = await parserFor("bash");
  parser.setTimeoutMicros(PARSE_MS * 1000);
  let tree: Parser.Tree;
  try {
    tree = parser.parse(lineStartEscapes(joinContinuations(text)));
  } catch {
    parser.delete();
    return false;
  }
  // The grammar is kinder than bash: it reads `f(x)` as a command and a subshell, which bash refuses.
  const commands = tree.rootNode.descendantsOfType("command");
  const defined = new Set(tree.rootNode.descendantsOfType("function_definition").map((node) => node.childForFieldName("name")?.text));
  const clean =
    !tree.rootNode.hasError &&
    !commands.some((node) => node.namedChildren.some((child) => child.type === "subshell")) &&
    !commands.some((node) => {
      const name = node.childForFieldName("name")?.text;
      return name !== undefined && !defined.has(name) && foreignName(name, node.childForFieldName("argument")?.text, environment);
    });
  tree.delete();
  parser.delete();
  return clean;
}
