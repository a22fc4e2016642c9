// git's subcommands that write the work tree: the files they name (checkout -- f, restore, rm, mv,
// apply), and, for those that rewrite it wholesale (checkout <branch>, switch, reset --hard, stash,
// merge, pull, rebase, cherry-pick, revert, am), every file under the work tree's top; clean removes
// what is untracked from where it runs. git's own -C and --work-tree move where paths are read from.
// diff, log and show (and diff-tree, diff-index, diff-files, range-diff) write what they print to
// --output's file, format-patch its patches; fast-export and fast-import their marks, mailinfo its
// message and patch, credential-store its credentials.
import { createRequire } from "node:module";
import { dirname, isAbsolute, join } from "node:path";
import { exists, isDirectory } from "../targets/target.js";
import { guessedArguments, readOptions, type Syntax, valuedLong } from "./shell-options.js";
import { diffPaths, globOf, optionFiles, placeOf, type RuleInput } from "./shell-rule.js";
import { anyIn, anyUnder, directoryAt, physicalDirectoryAt, readText, shellQuoted as quote, UNKNOWABLE, within, workTreeOf } from "./shell-words.js";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { CLONE, CONFIG, configWrite, gitCommandRuns, INIT, unfixedCommandOption } from "./shell-git-commands.js";
import { commitStagesMore, EVERY_COMMAND_HOOKS, gitConfigFiles, hooksRun, repositoryOf, runnableHook } from "./git-hooks.js";
import type { Nested } from "./shell-runners.js";
import type { Walk } from "./shell-words.js";

/** diff, log and show: --output writes what they print to the file. */
const OUTPUT: Syntax = { long: { output: ":", "output-indicator-new": ":", "output-indicator-old": ":", "output-indicator-context": ":" } };

/** The options of the git subcommands that write files of the working tree (and diff's --output). */
const GIT: Record<string, Syntax> = {
  checkout: { short: "b:B:", long: { orphan: ":", detach: "", conflict: ":", patch: "p", "pathspec-from-file": ":" } },
  switch: { short: "c:C:", long: { create: "c", "force-create": "C", orphan: ":", detach: "", conflict: ":" } },
  reset: { long: { hard: "", merge: "", keep: "", "pathspec-from-file": ":" } },
  stash: { short: "m:", long: { message: "m", "pathspec-from-file": ":" } },
  clean: { short: "ne:", long: { "dry-run": "n", exclude: "e" } },
  merge: { short: "m:s:X:F:", long: { message: "m", strategy: "s", "strategy-option": "X", file: "F", "into-name": ":", quit: "" } },
  pull: { short: "s:X:", long: { strategy: "s", "strategy-option": "X", "upload-pack": ":", depth: ":", "shallow-since": ":", "shallow-exclude": ":", "dry-run": "" } },
  rebase: { short: "s:X:x:", long: { strategy: "s", "strategy-option": "X", exec: "x", onto: ":", quit: "", "edit-todo": "", "show-current-patch": "" } },
  bisect: {},
  "checkout-index": { short: "a", long: { all: "a", prefix: ":", stage: ":" } },
  "read-tree": { short: "u", long: { prefix: ":", "index-output": ":", exclude_per_directory: ":" } },
  "sparse-checkout": {},
  worktree: { short: "b:B:", long: { reason: ":", orphan: "" } },
  submodule: {},
  // git-subtree (contrib, shipped with git): add, pull and merge write under --prefix.
  subtree: { short: "P:m:qd", long: { prefix: "P", message: "m", branch: ":", onto: ":", annotate: ":", squash: "", rejoin: "", "ignore-joins": "", quiet: "q", debug: "d" } },
  "merge-file": { short: "pL:", long: { stdout: "p" } },
  "cherry-pick": { short: "m:X:", long: { mainline: "m", "strategy-option": "X", strategy: ":", quit: "" } },
  revert: { short: "m:X:", long: { mainline: "m", "strategy-option": "X", strategy: ":", quit: "" } },
  am: { short: "C:p:", long: { directory: ":", exclude: ":", include: ":", "patch-format": ":", quit: "", "show-current-patch": "" } },
  // Its filters are shell code it evals (read by gitScripts), -d its temp directory, removed at the end.
  "filter-branch": {
    short: "d:f",
    long: {
      setup: ":", "env-filter": ":", "tree-filter": ":", "index-filter": ":", "parent-filter": ":", "msg-filter": ":", "commit-filter": ":", "tag-name-filter": ":",
      "subdirectory-filter": ":", original: ":", "state-branch": ":", "prune-empty": "", force: "f",
    },
  },
  // The tool each runs (`-t`, `--tool`: one of git's, or a `mergetool.<tool>.cmd` of a config);
  // clang-format's (git-clang-format) reformats the lines changed since a commit in the work tree's files.
  "clang-format": { short: "fqv", long: { force: "f", quiet: "q", verbose: "v", diff: "", diffstat: "", staged: "", cached: "staged", "no-diff": "", ...valuedLong("binary commit extensions style") } },
  // filter-repo rewrites history and checks the result out; git-town's commands switch, sync and ship branches.
  "filter-repo": { long: { "dry-run": "", analyze: "" } },
  town: {},
  cliff: { short: "o:p:c:w:r:", long: { output: "o", prepend: "p", config: "c", workdir: "w", repository: "r", ...valuedLong("include-path exclude-path tag with-commit body strip sort") } },
  // mergetool's writes the files it merges. (difftool's `-x` command: shell-git-commands.ts.)
  mergetool: { short: "t:ygO::", long: { tool: "t", "tool-help": "", gui: "g", "no-gui": "", prompt: "", "no-prompt": "y" } },
  difftool: { short: "t:x:ygd", long: { tool: "t", extcmd: "x", "tool-help": "", gui: "g", "no-gui": "", prompt: "", "no-prompt": "y", "dir-diff": "d", "trust-exit-code": "", "no-trust-exit-code": "", "symlinks": "", "no-symlinks": "" } },
  restore: { short: "s:SW", long: { source: "s", staged: "S", worktree: "W", conflict: ":", patch: "p", "pathspec-from-file": ":" } },
  rm: { long: { cached: "", "pathspec-from-file": ":" } },
  mv: {},
  config: CONFIG,
  diff: OUTPUT,
  log: OUTPUT,
  show: OUTPUT,
  whatchanged: OUTPUT,
  "diff-files": OUTPUT,
  "diff-index": OUTPUT,
  "diff-tree": OUTPUT,
  "range-diff": OUTPUT,
  "format-patch": { short: "o:", long: { "output-directory": "o", stdout: "", suffix: ":", ...OUTPUT.long } },
  archive: { short: "o:lv", long: { output: "o", format: ":", prefix: ":", remote: ":", exec: ":", "add-file": ":", "add-virtual-file": ":", list: "l", verbose: "v", mtime: ":" } },
  bundle: { short: "q", long: { progress: "", "all-progress": "", "all-progress-implied": "", version: ":", quiet: "q" } },
  clone: CLONE,
  init: INIT,
  // Git LFS's own commands (git-lfs-checkout(1), -pull(1), -migrate(1)): their options that take a value.
  lfs: {
    short: "I:X:m:",
    long: { include: "I", exclude: "X", message: "m", to: ":", "object-map": ":", "include-ref": ":", "exclude-ref": ":", above: ":", top: ":", unit: ":", remote: ":" },
  },
  // Plumbing that writes a file it is named: fast-export's and fast-import's marks (and pack
  // edges), mailinfo's message and patch, credential-store's credentials.
  "fast-export": { long: { "export-marks": ":", "import-marks": ":", "import-marks-if-exists": ":", "signed-tags": ":", "signed-commits": ":", "tag-of-filtered-object": ":", "refspec": ":", "anonymize-map": ":", "reencode": ":" } },
  "fast-import": { long: { "export-marks": ":", "import-marks": ":", "import-marks-if-exists": ":", "export-pack-edges": ":", "relative-marks": "", "no-relative-marks": "", "allow-unsafe-features": "" } },
  mailinfo: { long: { encoding: "::", "quoted-cr": "::" } },
  "credential-store": { long: { file: ":" } },
  apply: {
    short: "p:C:",
    long: { directory: ":", exclude: ":", include: ":", whitespace: ":", "build-fake-ancestor": ":", "unsafe-paths": "", cached: "", stat: "", numstat: "", summary: "", check: "", apply: "", reject: "" },
  },
};

/**
 * The git subcommands that write files of the working tree: named files (checkout -- f, restore,
 * rm, mv, apply), and any tracked or untracked file of the work tree (checkout <branch>, switch,
 * reset --hard, stash, merge, pull, rebase, cherry-pick, revert, am), checked as everything under
 * its top; `clean` removes untracked files from cwd down, or under the paths it is given.
 */
/**
 * Whether a name is a revision git would take before a file of that name: a branch, tag or remote
 * branch (asked of git, only when a file of that name exists), or what only a revision looks like
 * (a commit id, `HEAD~2`, `@{-1}`). When git cannot say, it may be one.
 */
function namesRevision(cwd: string, name: string): boolean {
  // `@` alone, `@{-1}`, `HEAD~2`, `main^`, `:/msg`; an `@` elsewhere is a path's or a branch's (packages/@acme).
  if (/^[0-9a-f]{4,40}$/i.test(name) || /[~^:]|@\{/.test(name) || name === "@") return true;
  const { spawnSync } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
  // for-each-ref matches a pattern up to a slash too (refs/heads/docs lists refs/heads/docs/x): the names are compared whole.
  const found = spawnSync("git", ["for-each-ref", "--format=%(refname)", `refs/heads/${name}`, `refs/tags/${name}`, "refs/remotes/"], { cwd, encoding: "utf8", timeout: 5000 });
  if (found.status !== 0) return true;
  return found.stdout.split("\n").some((ref) => ref === `refs/heads/${name}` || ref === `refs/tags/${name}` || (ref.startsWith("refs/remotes/") && ref.slice("refs/remotes/".length).split("/").slice(1).join("/") === name));
}

/**
 * The directory `git clone` makes when none is named: the repository's last path part, without a
 * trailing `.git` or `/.git` (`host:org/tool.git`, `https://host/tool/.git` are tool); undefined where
 * the text does not fix it.
 */
function humanishName(source: string | undefined): string | undefined {
  if (source === undefined) return undefined;
  const path = source.replace(/\/+$/, "").replace(/\/?\.git$/, "").replace(/\/+$/, "");
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf(":")) + 1);
  return name === "" || name === "." || name === ".." ? undefined : name;
}

/** git's global options that take a value as the next argument. */
const GLOBAL_VALUED = ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"];

/**
 * git's arguments with each global option before its subcommand that the text fixes but for its
 * value, given in the same word (`-C"$d"`, `-c"$k"`, `--work-tree="$t"`, `--git-dir="$g"`), split
 * as `-C "$d"` is, so that each reader of git's global options takes it as it takes that (the
 * value unknown), never as the subcommand; `text` and `origin` for the split arguments. Undefined
 * where there is none (a word the text does not fix at all, `git "$x" …`, is read as before).
 */
export function splitGlobals(args: Array<string | undefined>, text: (at: number) => string | undefined): { args: Array<string | undefined>; text: (at: number) => string | undefined; origin: (at: number) => number } | undefined {
  const out: Array<string | undefined> = [];
  const texts: Array<string | undefined> = [];
  const from: number[] = [];
  const keep = (at: number) => {
    out.push(args[at]);
    texts.push(args[at] ?? text(at));
    from.push(at);
  };
  let index = 0;
  let split = false;
  while (index < args.length) {
    const arg = args[index];
    if (arg === undefined) {
      const attached = /^(-C|-c|--git-dir=|--work-tree=|--namespace=|--config-env=)([^]*)$/.exec(text(index) ?? "");
      if (attached === null || !/[\u0001\u0002]/.test(attached[2] as string)) break;
      out.push((attached[1] as string).replace(/=$/, ""), undefined);
      texts.push((attached[1] as string).replace(/=$/, ""), attached[2]);
      from.push(index, index);
      split = true;
      index++;
      continue;
    }
    if (!arg.startsWith("-")) break;
    keep(index++);
    if (GLOBAL_VALUED.includes(arg) && index < args.length) keep(index++);
  }
  if (!split) return undefined;
  for (; index < args.length; index++) keep(index);
  return { args: out, text: (at) => texts[at], origin: (at) => from[at] ?? at };
}

/** git's trace variables, which name where it writes its traces (GIT_TRACE_REDACT, a switch, aside). */
const TRACE_VARIABLE = /^GIT_TRACE(2|2_EVENT|2_PERF|_PACKET|_PACK_ACCESS|_PERFORMANCE|_SETUP|_SHALLOW|_CURL|_REFS|_FSMONITOR)?$/;

/**
 * The files git's trace variables the command sets write: an absolute path (`GIT_TRACE=/tmp/t.log`,
 * and under it where GIT_TRACE2 names a directory, a file per process); none for `1`, `2`, `true`
 * or a descriptor's number (stderr or that descriptor); any file for one the text does not fix.
 */
export function gitTraceFiles(environment: Record<string, string | undefined>): string[] {
  return Object.entries(environment).flatMap(([name, value]) => {
    if (!TRACE_VARIABLE.test(name) || (value !== undefined && value === process.env[name])) return [];
    if (value === undefined) return [UNKNOWABLE];
    return !isAbsolute(value) ? [] : isDirectory(value) ? [anyUnder(value)] : [value];
  });
}

export function gitWrites(input: RuleInput, depth = 0): string[] {
  const split = splitGlobals(input.args, input.text);
  if (split !== undefined) return gitWrites({ ...input, args: split.args, text: split.text, values: (at) => input.values(at?.map(split.origin)), reading: readOptions(split.args, {}, 0, split.text) }, depth);
  const { args, walk } = input;
  let index = 0;
  let cwd = walk.cwd;
  let workTree: string | undefined;
  let treeGiven = false;
  let gitDir = walk.environment.GIT_DIR !== undefined && walk.environment.GIT_DIR !== "";
  while (index < args.length && args[index]?.startsWith("-")) {
    const option = args[index] as string;
    // -C "$d", or -C after a cd it cannot follow: unknown, never the hook's own directory.
    if (option === "-C") cwd = physicalDirectoryAt(cwd, args[index + 1]); // chdir(2): `..` after a symlink taken physically
    if (option === "--work-tree" || option.startsWith("--work-tree=")) {
      // Paths are read from where git runs inside the work tree, or from its top when it runs outside.
      const tree = directoryAt(cwd, option.includes("=") ? option.slice(option.indexOf("=") + 1) : args[index + 1]);
      cwd = tree !== undefined && cwd !== undefined && `${cwd}/`.startsWith(`${tree}/`) ? cwd : tree;
      workTree = tree;
      treeGiven = true;
    }
    if (option === "--git-dir" || option.startsWith("--git-dir=")) gitDir = true;
    index += GLOBAL_VALUED.includes(option) ? 2 : 1;
  }
  // A word the text does not fix where the subcommand or a global option is (`git "$x" checkout --
  // u.ts`, `git -"$x" checkout -- u.ts`, `git --no-pager "$x"`): any git command, run anywhere (`-C`
  // with any value): any file.
  if (index < args.length && args[index] === undefined) return [UNKNOWABLE];
  const sub = args[index];
  // A command an option names that the text does not fix (`git grep -O"$pager" x`): any file (one it fixes is read: shell-git-commands.ts).
  if (args.slice(index + 1).some((arg, at) => arg === undefined && unfixedCommandOption(sub, input.text(index + 1 + at)))) return [UNKNOWABLE];
  // A template or a clone's setting the text does not fix (`--template="$t"`, `-c"$x"`): hooks or commands it may give (shell-git-commands.ts).
  const unfixedSetting = sub === "clone" ? /^(--te|--con|-[a-zA-Z]*c)/ : sub === "init" ? /^--te/ : undefined;
  if (unfixedSetting !== undefined && args.slice(index + 1).some((arg, at) => arg === undefined && unfixedSetting.test(input.text(index + 1 + at) ?? ""))) return [UNKNOWABLE];
  // An alias (`git co -- f` with `alias.co = checkout` in a config git reads): its words in the
  // name's place; one that runs a shell command (`!rm -f notes`) could write any file.
  if (sub !== undefined && !Object.hasOwn(GIT, sub) && !GIT_COMMANDS.has(sub) && depth < 5) {
    const alias = gitAlias(sub, args.slice(0, index), cwd, walk);
    if (alias !== undefined) {
      if (alias.trimStart().startsWith("!")) return [UNKNOWABLE];
      const words = alias.trim().split(/\s+/).map((word) => word.replace(/^(["'])(.*)\1$/, "$2"));
      const expanded = [...args.slice(0, index), ...words, ...args.slice(index + 1)];
      // (The alias's words are fixed; the words after it are the command's, moved along: `co = checkout --` then `git co u.ts`.)
      const origin = (at: number) => (at < index ? at : at >= index + words.length ? at - words.length + 1 : undefined);
      const values = (indexes = expanded.map((_, at) => at)) => indexes.flatMap((at) => (origin(at) === undefined ? [words[at - index] as string] : input.values([origin(at) as number])));
      const text = (at: number) => (origin(at) === undefined ? words[at - index] : input.text(origin(at) as number));
      return gitWrites({ ...input, args: expanded, values, text }, depth + 1);
    }
  }
  const syntax = sub === undefined || !Object.hasOwn(GIT, sub) ? undefined : GIT[sub];
  if (syntax === undefined) return [];
  const rest = args.slice(index + 1);
  const reading = readOptions(rest, syntax, 0, (at) => input.text(at + index + 1));
  // Every file of the work tree: a tree unknown is any file at all; outside a repository git writes nothing.
  // With --git-dir (or GIT_DIR) and no work tree given, the work tree is where git runs.
  const wholeTree = (): string[] => {
    const top = treeGiven ? workTree : workTreeOf(cwd, undefined, walk.environment);
    if (top === "" && gitDir) return [anyUnder(cwd)];
    return top === "" ? [] : [anyUnder(top)];
  };
  // A path the text does not fix (`git checkout "$x"`) is still one of the work tree's: git refuses
  // any other; so is a pathspec with magic (`:/`, `:(top)src`). A pathspec's `*` and `?` match
  // across `/` (`*.ts` is every .ts below): anything under the directory before its first one.
  const at = (paths: string[]) =>
    paths.flatMap((path) => {
      if (path === UNKNOWABLE || path.startsWith(":")) return wholeTree();
      if (path.startsWith(GLOB_MARK) || path.startsWith(UNKNOWN_MARK) || !/[*?[]/.test(path)) return [isAbsolute(path) ? path : within(cwd, path)];
      const fixed = path.slice(0, path.search(/[*?[]/));
      return [anyUnder(directoryAt(cwd, fixed.includes("/") ? fixed.slice(0, fixed.lastIndexOf("/") + 1) : "."))];
    });
  const values = (indexes: number[]) => input.values(indexes.map((i) => i + index + 1));
  const dashes = rest.indexOf("--");
  const afterDashes = dashes === -1 ? [] : rest.map((_, i) => i).filter((i) => i > dashes);
  if (rest.some((arg) => arg === "-h" || arg === "--help")) return [];
  // --output=FILE, also `--output="$d/x"`, its value judged by what the text fixes (readOptions).
  const outputFiles = () => at(optionFiles(input, ["output"], reading, (i) => i + index + 1));
  const separateGitDir = () => (reading.has("separate-git-dir") ? [anyUnder(directoryAt(cwd, reading.value("separate-git-dir")))] : []);
  switch (sub) {
    case "filter-repo":
      return reading.has("dry-run", "analyze") ? [] : wholeTree();
    // git-cliff as `git cliff`: its changelog, `-o`'s (`--output`) or `-p`'s (`--prepend`) file.
    case "cliff":
      return at(optionFiles(input, ["o", "p"], reading, (i) => i + index + 1));
    case "town":
      return /^(status|config|help|completions|diff-parent|--version|-V)?$/.test(rest[reading.operands[0] ?? -1] ?? "") ? [] : wholeTree();
    case "clang-format": {
      // The changed lines of the files given after `--` (all the changed files without), unless it only shows the diff.
      if (reading.has("diff", "diffstat")) return [];
      return afterDashes.length > 0 ? at(values(afterDashes)) : wholeTree();
    }
    case "mergetool":
    case "difftool": {
      if (reading.has("tool-help")) return [];
      // A tool the text does not fix (`--tool "$t"`, `-t"$t"`, `-"$x"`): any tool a config names, any command.
      const unfixedTool = reading.occurrences("t").some(({ value, at, text }) => value === undefined && (text !== undefined || (at !== undefined && at < rest.length)));
      if (unfixedTool || reading.unnamed.length > 0) return [UNKNOWABLE];
      if (sub === "difftool") return [];
      // The files it merges (each a conflicted file of the work tree, none named: all of them), and each one's `.orig` it keeps.
      const merged = dashes !== -1 ? afterDashes : reading.operands;
      const paths = merged.length > 0 ? at(values(merged)) : (unmergedFiles(args.slice(0, index), walk, treeGiven ? workTree : workTreeOf(cwd, undefined, walk.environment)) ?? wholeTree());
      return [...paths, ...paths.filter((path) => !path.startsWith("\0")).map((path) => `${path}.orig`)];
    }
    case "config": {
      // A write (a name and a value, --unset, --add, --edit, or git 2.46's `set`, `unset`, `edit`…)
      // of the file -f names, or of ~/.gitconfig with --global; the repository's own is in .git.
      const verbs = /^(set|unset|edit|rename-section|remove-section)$/;
      const first = reading.operands[0] === undefined ? undefined : rest[reading.operands[0]];
      const reads = reading.has("l", "get", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool") || first === "get" || first === "list";
      const writes = !reads && (reading.operands.length >= 2 || reading.has("e", "unset", "unset-all", "add", "replace-all", "rename-section", "remove-section") || verbs.test(first ?? ""));
      if (!writes) return [];
      // One that may move the hooks (core.hooksPath, an include, a key the text does not fix, --edit): a later git command's hooks are not those on disk.
      const key = reading.operands[verbs.test(first ?? "") ? 1 : 0];
      const named = key === undefined ? undefined : rest[key];
      if (reading.has("e", "rename-section", "remove-section") || named === undefined || /^(core\.hookspath|include\.|includeif\.)/i.test(named)) walk.shared.hooksMoved = true;
      // An alias it saves, which a later `git <name>` in the command runs (gitAlias).
      const saved = configWrite(rest, (at) => input.text(at + index + 1));
      if (saved !== undefined && !saved.section && saved.name !== undefined && /^alias\./i.test(saved.name)) (walk.shared.gitAliases ??= new Map()).set(saved.name.slice(6).toLowerCase(), saved.value);
      // A trace2 target it saves (`--global trace2.eventTarget /path`, read from the user's and the
      // system's config): every later git command writes that file, as GIT_TRACE2 names one.
      const traced = saved !== undefined && !saved.section && saved.name !== undefined && /^trace2\.(normal|perf|event)target$/i.test(saved.name) ? gitTraceFiles({ GIT_TRACE2: saved.value }) : [];
      // (Counted: a write of a config file by anything but `git config` may save a command unread, shell.ts.)
      const saving = (paths: string[]) => {
        for (const path of paths) (walk.shared.gitConfigWrites ??= new Map()).set(path, (walk.shared.gitConfigWrites.get(path) ?? 0) + 1);
        return paths;
      };
      if (reading.has("f")) return [...traced, ...saving(at(optionFiles(input, ["f"], reading, (i) => i + index + 1)))];
      // (A HOME the script set to a place the text does not fix: a .gitconfig in a place unknown.)
      if (!reading.has("global") || walk.home === undefined) return traced;
      return [...traced, ...saving([walk.home.startsWith("/") ? join(walk.home, ".gitconfig") : `${UNKNOWN_MARK}.gitconfig`])];
    }
    case "checkout": {
      // `git checkout main -- f` writes f; `git checkout main --` switches to main.
      if (dashes !== -1) return afterDashes.length > 0 ? at(values(afterDashes)) : reading.operands.some((i) => i < dashes) ? wholeTree() : [];
      if (reading.has("pathspec-from-file")) return wholeTree();
      const operands = reading.operands;
      // `git checkout -b new`, `--detach`: the files stay as they are; with a start point they change to it.
      if (reading.has("b", "B", "orphan", "detach")) return operands.length === 0 ? [] : wholeTree();
      const [first, ...others] = operands;
      // `git checkout -f` alone puts back every changed file; `-p` alone offers every change to put back.
      if (first === undefined) return reading.has("f", "--force", "p") ? wholeTree() : [];
      // The first operand is a revision unless it names only a file or directory there: git takes a
      // branch before a file of the same name (`git checkout docs` with a docs/ directory switches
      // branches). A revision alone switches the whole tree; before paths (`git checkout main f`,
      // `HEAD f`), it writes those paths. Where the directory is unknown, it may be either.
      const name = rest[first];
      const path = name !== undefined && cwd !== undefined && exists(within(cwd, name));
      if (!path || cwd === undefined || namesRevision(cwd, name as string)) {
        if (others.length > 0) return [...at(values(others)), ...(path ? at(values([first])) : [])];
        const tree = wholeTree();
        // No repository found (git will fail), yet a file of that name: judged as that file all the same.
        return tree.length > 0 || !path ? tree : at(values(operands));
      }
      return at(values(operands));
    }
    case "switch":
      // `git switch -c new` leaves the files as they are; a branch, a start point or --orphan change them.
      return reading.operands.length === 0 && !reading.has("orphan") ? [] : wholeTree();
    case "reset":
      // Only --hard, --merge and --keep touch the work tree; the other modes move HEAD and the index.
      return reading.has("hard", "merge", "keep") ? wholeTree() : [];
    case "stash": {
      const action = reading.operands[0] === undefined ? "push" : rest[reading.operands[0]];
      if (["list", "show", "drop", "clear", "create", "store"].includes(action ?? "")) return [];
      // push (also with no action, and `save`) puts the changed files back as HEAD has them: with
      // paths after `--`, only those; pop, apply and branch write the stash's files.
      if (reading.has("pathspec-from-file")) return wholeTree();
      if ((action === "push" || action === "save") && dashes !== -1) return afterDashes.length === 0 ? wholeTree() : at(values(afterDashes));
      if (action === "push" && reading.operands.length > 1) return at(values(reading.operands.slice(1)));
      return wholeTree();
    }
    case "clean": {
      if (reading.has("n")) return [];
      // Untracked files from where it runs down, or under the paths given.
      const paths = dashes !== -1 ? afterDashes : reading.operands;
      const files = paths.length > 0 ? at(values(paths)) : [anyUnder(cwd)];
      // With -d it removes untracked directories whole (with -x, ignored ones too): each a tree of
      // its own, which may be or hold a claims directory, as `rm -rf` of it would. (Not -i: it asks.)
      if (!reading.has("d") || reading.has("i", "--interactive")) return files;
      const removed = directoriesCleaned(args.slice(0, index), rest, walk, cwd);
      for (const directory of removed) (walk.shared.removedWhole ??= new Set()).add(directory);
      return [...files, ...removed];
    }
    case "filter-branch":
      // It rewrites every commit, then checks the rewritten HEAD out over the work tree (`read-tree
      // -u -m HEAD`), as a checkout of a branch does; with -f it first removes -d's directory if there.
      return [...wholeTree(), ...(reading.has("d") ? [anyUnder(directoryAt(cwd, reading.value("d")))] : [])];
    case "merge":
    case "pull":
    case "rebase":
    case "cherry-pick":
    case "revert":
    case "am":
      return reading.has("quit", "edit-todo", "show-current-patch", "dry-run") ? [] : wholeTree();
    case "restore":
      if (reading.has("S") && !reading.has("W")) return [];
      // `git restore -p` with no path offers every change of the work tree.
      return reading.has("pathspec-from-file") || (reading.has("p") && reading.operands.length === 0) ? wholeTree() : at(values(reading.operands));
    case "rm":
      return reading.has("cached") ? [] : reading.has("pathspec-from-file") ? wholeTree() : at(values(reading.operands));
    case "bisect":
    case "sparse-checkout":
    case "submodule": {
      // Each checks out revisions or rewrites which files are there, except the ones that only report.
      const action = rest[reading.operands[0] ?? -1] ?? "";
      const reports = { bisect: ["log", "visualize", "view", "terms", "help"], "sparse-checkout": ["list", "check-rules"], submodule: ["status", "summary", "foreach", "sync", "absorbgitdirs", "set-branch", "set-url", ""] }[sub];
      return reports.includes(action) ? [] : wholeTree();
    }
    case "subtree": {
      // `git subtree add|pull|merge --prefix=P …` merges into P (relative to the top of the work tree); split and push write no file.
      const operation = reading.operands.length === 0 ? "" : rest[reading.operands[0] as number];
      if (operation !== undefined && !["add", "pull", "merge"].includes(operation)) return []; // (one the text does not fix: as add)
      const top = treeGiven ? workTree : workTreeOf(cwd, undefined, walk.environment);
      const prefix = reading.has("P") ? reading.value("P") : undefined;
      if (top === "" || top === undefined) return top === "" ? [] : [UNKNOWABLE];
      return prefix === undefined ? wholeTree() : [anyUnder(directoryAt(top, prefix.replace(/\/+$/, "")))];
    }
    case "archive":
      // The archive -o names (its format from the name); without -o it goes to stdout.
      return reading.has("l") || !reading.has("o") ? [] : at(optionFiles(input, ["o"], reading, (i) => i + index + 1));
    case "bundle": {
      // `git bundle create FILE REV…` writes FILE (`-`: stdout).
      const [action, file] = reading.operands;
      return rest[action ?? -1] !== "create" || file === undefined || rest[file] === "-" ? [] : at(values([file]));
    }
    case "clone": {
      // Everything under the directory it makes: the one named, else the repository's own name
      // (`git clone host:org/tool.git` makes tool); and a --separate-git-dir.
      const [source, directory] = reading.operands;
      const named = directory === undefined ? (source === undefined ? undefined : humanishName(rest[source])) : rest[directory];
      return [anyUnder(named === undefined ? undefined : directoryAt(cwd, named)), ...separateGitDir()];
    }
    case "init": {
      // A repository in the directory named (made if need be), or where it runs: its .git, or the
      // directory itself with --bare; and a --separate-git-dir (then .git is a file pointing there).
      const operand = reading.operands[0];
      const directory = operand === undefined ? cwd : rest[operand] === undefined ? undefined : directoryAt(cwd, rest[operand]);
      const repository = directory === undefined || reading.has("bare") ? directory : join(directory, ".git");
      return [anyUnder(repository), ...(directory === undefined ? [] : [join(directory, ".git")]), ...separateGitDir()];
    }
    case "worktree": {
      // `add <path>` checks a tree out there, `remove <path>` deletes one, `move <from> <to>` both.
      const [action, ...paths] = reading.operands;
      const taking = { add: 1, remove: 1, move: 2 }[rest[action ?? -1] ?? ""] ?? 0;
      return values(paths.slice(0, taking)).map((path) => {
        const place = path.startsWith(GLOB_MARK) || path.startsWith(UNKNOWN_MARK) ? undefined : directoryAt(cwd, path);
        return anyUnder(place);
      });
    }
    case "checkout-index":
      return reading.has("a") || reading.operands.length === 0 ? (reading.has("a") ? wholeTree() : []) : at(values(reading.operands));
    case "read-tree":
      return reading.has("u") ? wholeTree() : [];
    case "merge-file":
      return reading.has("p") || reading.operands[0] === undefined ? [] : at(values([reading.operands[0]]));
    case "mv":
      return at(values(reading.operands));
    case "diff":
    case "log":
    case "show":
    case "whatchanged":
    case "diff-files":
    case "diff-index":
    case "diff-tree":
    case "range-diff":
      return outputFiles();
    case "format-patch": {
      // Its patches (0001-subject.patch, …, as --suffix ends them) into -o's directory, else where
      // it runs; or one file, --output.
      if (reading.has("stdout")) return [];
      if (reading.has("output")) return outputFiles();
      const directory = reading.has("o") ? directoryAt(cwd, reading.value("o")) : cwd;
      const suffix = reading.has("suffix") ? reading.value("suffix") : ".patch";
      return [directory === undefined ? UNKNOWABLE : globOf(join(directory, `*${suffix ?? ""}`))];
    }
    case "lfs": {
      // Git LFS: `pull` is `fetch` then `checkout` (git-lfs-pull(1)); `checkout` writes the LFS
      // files of the work tree whose content is there, only those its patterns match when given
      // (gitignore's form: read as a pathspec), or with `--to FILE` one side of a conflict to FILE
      // alone (git-lfs-checkout(1)); `migrate import` and `export` rewrite history and the work
      // tree with it, and `--object-map`'s file (git-lfs-migrate(1)); `info` only reports. Each as
      // git checkout and git pull are read. `fetch`, `ls-files`, `status` and the rest write no
      // file of the work tree.
      const [verb, ...paths] = reading.operands;
      const action = rest[verb ?? -1];
      if (action === "pull") return wholeTree();
      if (action === "checkout") return reading.has("to") ? at(optionFiles(input, ["to"], reading, (i) => i + index + 1)) : paths.length > 0 ? at(values(paths)) : wholeTree();
      const mode = rest[paths[0] ?? -1];
      if (action === "migrate" && (mode === "import" || mode === "export")) return [...wholeTree(), ...at(optionFiles(input, ["object-map"], reading, (i) => i + index + 1))];
      return [];
    }
    case "apply": {
      // --stat, --numstat, --summary and --check turn applying off, unless --apply turns it back on.
      if (reading.has("cached") || (reading.has("stat", "numstat", "summary", "check") && !reading.has("apply"))) return [];
      const strip = reading.value("p");
      const files = values(reading.operands);
      // No operand, or `-`: the diff comes on stdin.
      const texts = files.length > 0 ? files.map((file) => (file === "-" ? input.stdin : readText(within(cwd, file)))) : [input.stdin];
      const root = placeOf(reading, "directory", cwd);
      // A diff the hook cannot read (`cat g.diff | git apply`, `curl … | git apply`, `"$f"`) could
      // name any file of the work tree (outside a repository, under where it runs; with
      // --unsafe-paths, anywhere), as `curl … | sh` could write any file.
      if (texts.includes(undefined)) return reading.has("unsafe-paths") ? [UNKNOWABLE] : wholeTree().length > 0 ? wholeTree() : [anyUnder(root)];
      const paths = texts.flatMap((text) => (text === undefined ? [] : diffPaths(text, strip === undefined ? 1 : Number(strip))));
      // --reject: the hunks that do not apply are left beside each file, in f.rej.
      return [...paths, ...(reading.has("reject") ? paths.map((path) => `${path}.rej`) : [])].map((path) => within(root, path));
    }
    case "fast-export":
      return at(optionFiles(input, ["export-marks"], reading, (i) => i + index + 1));
    case "fast-import": {
      // A stream may name marks files of its own with --allow-unsafe-features; with --relative-marks
      // a relative name is under the repository's info/fast-import (not the work tree's).
      if (reading.has("allow-unsafe-features")) return [UNKNOWABLE];
      const files = optionFiles(input, ["export-marks", "export-pack-edges"], reading, (i) => i + index + 1);
      const relative = reading.has("relative-marks") && !reading.has("no-relative-marks");
      return at(relative ? files.filter((file) => isAbsolute(file) || file.startsWith("\0")) : files);
    }
    case "mailinfo":
      // `git mailinfo MSG PATCH`: the message and the patch of the mail on its input.
      return at(values(reading.operands.slice(0, 2)));
    case "credential-store": {
      // store and erase rewrite --file's file, else ~/.git-credentials (or XDG's); get reads it.
      const first = reading.operands[0];
      if (first === undefined || (rest[first] !== undefined && rest[first] !== "store" && rest[first] !== "erase")) return [];
      if (reading.has("file")) return at(optionFiles(input, ["file"], reading, (i) => i + index + 1));
      const home = walk.environment.HOME ?? walk.home;
      if (home === undefined || !home.startsWith("/")) return [`${UNKNOWN_MARK}.git-credentials`];
      return [join(home, ".git-credentials"), join(walk.environment.XDG_CONFIG_HOME || join(home, ".config"), "git", "credentials")];
    }
    default:
      return [];
  }
}

/**
 * gh, GitHub's CLI: `gh pr checkout N` (and its built-in alias `gh co N`) switches the work tree to
 * the pull request's branch, as `git checkout <branch>` does: any file of it; `gh repo clone R
 * [DIR]` makes DIR (else the repository's name), as `git clone` does, and `gh gist clone ID [DIR]`
 * DIR (else the gist's id). What follows `--` is git's.
 * `gh release download` and `gh run download` write what they fetch (ghDownload).
 */
export function ghWrites(input: RuleInput): string[] {
  const { args, walk } = input;
  const operands: Array<string | undefined> = [];
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg === "--") break;
    if (arg !== undefined && arg.startsWith("-") && arg !== "-") {
      if (/^(-[Rbu]|--(repo|branch|upstream-remote-name))$/.test(arg)) at++; // a value of its own
      continue;
    }
    operands.push(arg);
  }
  if (args.some((arg) => arg === "-h" || arg === "--help")) return [];
  const [group, action] = operands;
  if ((group === "pr" && action === "checkout") || group === "co") {
    const top = workTreeOf(walk.cwd, undefined, walk.environment);
    return top === "" ? [] : [anyUnder(top)];
  }
  if ((group === "release" || group === "run") && action === "download") return ghDownload(args, walk.cwd, group);
  if (group === "repo" && action === "clone") {
    const [, , source, directory] = operands;
    const named = directory ?? humanishName(source);
    return [anyUnder(named === undefined ? undefined : directoryAt(walk.cwd, named))];
  }
  // `gh gist clone ID [DIR]`: DIR, else a directory of the gist's id.
  if (group === "gist" && action === "clone") {
    const [, , gist, directory] = operands;
    const named = directory ?? (gist === undefined ? undefined : gist.replace(/\/+$/, "").split("/").pop());
    return [anyUnder(named === undefined ? undefined : directoryAt(walk.cwd, named))];
  }
  return [];
}

/**
 * `gh release download [TAG]`: the release's assets, by their names, into `-D`/`--dir` (else
 * where it runs): the files `-p`/`--pattern` match there, the source archive `-A`/`--archive`
 * makes (`*.zip`, `*.tar.gz`), else any file there; `-O`/`--output` names the one file instead
 * (`-` is stdout). `gh run download [RUN]`: each artifact's files, unpacked into the directory
 * (or a directory of the artifact's name in it, with several): anything under it.
 */
function ghDownload(args: Array<string | undefined>, cwd: string | undefined, group: "release" | "run"): string[] {
  const given: Record<string, Array<string | undefined>> = { D: [], O: [], p: [], A: [] };
  const LONG: Record<string, string> = { dir: "D", output: "O", pattern: "p", archive: "A", name: "n" };
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined || arg === "--") continue;
    // pflag's forms: `-D dir`, `-Ddir`, `-D=dir`, `--dir dir`, `--dir=dir`.
    const option = /^(?:-([DOpAn])(.*)|--(dir|output|pattern|archive|name)(?:=(.*))?)$/s.exec(arg);
    if (option === null) continue;
    const key = option[1] ?? (LONG[option[3] as string] as string);
    const attached = option[1] !== undefined ? option[2]?.replace(/^=/, "") || undefined : option[4]; // pflag's `-D=dir` too
    const value = attached ?? args[++at];
    given[key]?.push(value);
  }
  const dirs = given.D as Array<string | undefined>;
  const place = dirs.length === 0 ? cwd : directoryAt(cwd, dirs.at(-1));
  if (group === "run") return [anyUnder(place)];
  const output = (given.O as Array<string | undefined>).at(-1);
  if ((given.O as Array<string | undefined>).length > 0) return output === "-" ? [] : output === undefined ? [UNKNOWABLE] : [within(cwd, output)];
  if (place === undefined) return [UNKNOWABLE];
  const patterns = given.p as Array<string | undefined>;
  const archives = given.A as Array<string | undefined>;
  if (patterns.length === 0 && archives.length === 0) return [anyIn(place)];
  return [
    ...patterns.map((pattern) => (pattern === undefined || pattern.includes("/") ? anyIn(place) : globOf(join(place, pattern)))),
    ...archives.map((format) => globOf(join(place, format === "zip" ? "*.zip" : format === "tar.gz" ? "*.tar.gz" : "*"))),
  ];
}

/**
 * The hooks a git command runs (githooks(5): `git commit` runs pre-commit, commit-msg, …), each
 * read in turn as a script run by its path from the top of the work tree, as git runs it: from
 * the hooks directory git itself names (`git rev-parse --git-path hooks`, which follows
 * core.hooksPath, `-c core.hooksPath=…`, GIT_DIR and a linked worktree's common directory). A
 * commit-msg hook is given the message file, as git gives it. In a place the text does not fix
 * (`git -C "$d" commit`) the hooks could be any repository's: they could write any file.
 */
/** A hook file to read as a script (the walk reads its text: shell-wrappers.ts), or `shell`: one given to sh whatever its first line. */
export interface HookRun {
  hook: string;
  shell: boolean;
  args: string[];
  cwd: string | undefined;
}

export function gitHookRuns(args: Array<string | undefined>, text: (at: number) => string | undefined, walk: Walk, depth = 0): Array<Nested | HookRun> | typeof UNKNOWABLE {
  // The commands its own settings and environment name (core.fsmonitor, GIT_SSH_COMMAND, `ext::`): shell-git-commands.ts.
  const commands = depth === 0 ? gitCommandRuns(args, text, walk) : [];
  const runs = hookRuns(args, text, walk, depth);
  return commands === UNKNOWABLE || runs === UNKNOWABLE ? UNKNOWABLE : [...commands, ...runs];
}

/** The hooks a git command runs, and `submodule foreach`'s command: gitHookRuns without the commands of its settings. */
function hookRuns(args: Array<string | undefined>, text: (at: number) => string | undefined, walk: Walk, depth: number): Array<Nested | HookRun> | typeof UNKNOWABLE {
  let index = 0;
  let cwd = walk.cwd;
  let workTree: string | undefined;
  const configs: string[] = [];
  while (index < args.length && args[index]?.startsWith("-")) {
    const option = args[index] as string;
    const value = args[index + 1];
    if (option === "-C") cwd = physicalDirectoryAt(cwd, value);
    if (option === "-c") {
      if (value === undefined) return UNKNOWABLE; // a config the text does not fix
      configs.push("-c", value);
    }
    if (option === "--config-env" || option.startsWith("--config-env=")) {
      const setting = option.includes("=") ? option.slice(option.indexOf("=") + 1) : value;
      if (setting === undefined) return UNKNOWABLE;
      configs.push(`--config-env=${setting}`); // (its variable is read from the command's environment)
    }
    if (option === "--work-tree" || option.startsWith("--work-tree=")) workTree = directoryAt(cwd, option.includes("=") ? option.slice(option.indexOf("=") + 1) : value);
    if (option === "--git-dir" || option.startsWith("--git-dir=")) {
      const dir = option.includes("=") ? option.slice(option.indexOf("=") + 1) : value;
      if (dir === undefined) return UNKNOWABLE;
      configs.push(`--git-dir=${dir}`);
    }
    index += GLOBAL_VALUED.includes(option) ? 2 : 1;
  }
  let sub = args[index];
  // `git submodule foreach CMD`: CMD runs in each submodule (.gitmodules' paths; nested ones with --recursive: places unknown).
  if (sub === "submodule") {
    const rest = args.slice(index + 1);
    const foreach = rest.findIndex((arg) => arg === "foreach");
    if (foreach === -1 || rest.slice(0, foreach).some((arg) => arg !== "--quiet" && arg !== "-q")) return [];
    const after = rest.slice(foreach + 1);
    const recursive = after[0] === "--recursive";
    const words = recursive ? after.slice(1) : after;
    if (words.length === 0) return [];
    if (words.some((word) => word === undefined) || cwd === undefined) return UNKNOWABLE;
    const script = words.length === 1 ? (words[0] as string) : (words as string[]).map(quote).join(" ");
    const top = workTreeOf(cwd, workTree, walk.environment);
    const modules = top === undefined ? undefined : readText(join(top, ".gitmodules"));
    const paths = modules === undefined ? [] : [...modules.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)].map((match) => join(top as string, match[1] as string));
    return [...paths.map((path) => ({ script, cwd: path, bound: new Map() })), ...(recursive && paths.length > 0 ? [{ script, cwd: undefined, bound: new Map() }] : [])];
  }
  // `git cz` (commitizen's git-cz) asks for a message, then runs git commit with the rest.
  if (sub === "cz" && gitAlias(sub, args.slice(0, index), cwd, walk) === undefined) sub = "commit";

  if (sub !== undefined && !Object.hasOwn(GIT, sub) && !GIT_COMMANDS.has(sub) && depth < 5) {
    const alias = gitAlias(sub, args.slice(0, index), cwd, walk);
    // (One that runs a shell command is any file already: gitWrites.)
    if (alias !== undefined && !alias.trimStart().startsWith("!")) {
      const words = alias.trim().split(/\s+/).map((word) => word.replace(/^(["'])(.*)\1$/, "$2"));
      // (The alias's words are fixed; the words after it are the command's, moved along.)
      const aliased = (at: number) => (at < index ? text(at) : at < index + words.length ? words[at - index] : text(at - words.length + 1));
      return gitHookRuns([...args.slice(0, index), ...words, ...args.slice(index + 1)], aliased, walk, depth + 1);
    }
  }
  const names = hooksRun(sub, args.slice(index + 1));
  if (names.length === 0) return [];
  // `git commit -m x path`, `git commit -a`: what its hooks see staged is more than is staged now (lint-staged, pre-commit).
  if (sub === "commit" && commitStagesMore(args.slice(index + 1))) walk.shared.stagesMore = true;
  // (Not for the two hooks nearly every command may run, which few repositories have: `git -C "$d"
  // add f` stays a write of nothing, not of any file.) Nor where a `git config` before it may have moved them.
  if (cwd === undefined || walk.shared.hooksMoved === true) return names.some((name) => !EVERY_COMMAND_HOOKS.includes(name)) ? UNKNOWABLE : [];
  const { spawnSync } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
  const environment = Object.fromEntries(Object.entries({ ...process.env, ...walk.environment }).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const asked = spawnSync("git", [...configs, "rev-parse", "--absolute-git-dir", "--git-path", "hooks"], { cwd, env: environment, encoding: "utf8", timeout: 5000 });
  // Outside a repository (or with no git to run) the command runs no hook: it fails.
  if (asked.error !== undefined || asked.status !== 0) return [];
  const [gitDir, hooks] = asked.stdout.split("\n") as [string, string | undefined];
  if (hooks === undefined || hooks === "") return [];
  const directory = isAbsolute(hooks) ? hooks : join(cwd, hooks);
  const top = workTreeOf(cwd, workTree, walk.environment);
  const given: Record<string, string> = { "commit-msg": join(gitDir, "COMMIT_EDITMSG"), "prepare-commit-msg": join(gitDir, "COMMIT_EDITMSG"), "applypatch-msg": join(gitDir, "rebase-apply", "final-commit") };
  const runs: Array<Nested | HookRun> = [];
  for (const name of names) {
    const path = join(directory, name);
    // A hook written or made runnable before it in the same command (`chmod +x .git/hooks/pre-commit && git commit`): its text then is not on disk yet.
    if (hookWrittenBefore(walk, path, dirname(directory)) || hookWrittenBefore(walk, join(dirname(directory), name), dirname(directory))) return UNKNOWABLE;
    if (!runnableHook(path)) continue;
    const args = Object.hasOwn(given, name) ? [given[name] as string] : [];
    const at = top === undefined || top === "" ? cwd : top;
    const text = readText(path) ?? "";
    // The pre-commit framework's hook (`pre-commit install`) runs `python -m pre_commit hook-impl`: read as that.
    if (text.includes("# File generated by pre-commit: https://pre-commit.com")) {
      runs.push({ script: `pre-commit hook-impl --hook-type=${name}`, cwd: at, bound: new Map() });
      continue;
    }
    let script = path;
    let shell = false;
    // husky (9): core.hooksPath is .husky/_, whose every hook is the same two lines sourcing `h`,
    // which runs the project's own .husky/<hook> with `sh -e` when there is one (after the user's
    // init.sh), unless HUSKY=0. Read as that: the walk cannot follow `h`'s `$(basename "$0")`.
    if (HUSKY_STUB.test(text) && exists(join(directory, "h"))) {
      const own = join(dirname(directory), name);
      if (walk.environment.HUSKY === "0" || !exists(own)) continue;
      const home = walk.environment.HOME ?? walk.home;
      const init = join(walk.environment.XDG_CONFIG_HOME || join(home, ".config"), "husky", "init.sh");
      if (exists(init)) runs.push({ script: `. ${quote(init)}`, cwd: at, bound: new Map() });
      script = own;
      shell = true;
    }
    runs.push({ hook: script, shell, args, cwd: at });
  }
  return runs;
}

/**
 * Whether a part of the command before this one wrote the hook at `path`, or a directory holding it
 * whole within `root` (`cp -r hooks .git/`, `.husky/`): not the project above it (`prettier --write
 * .`), which no tool means for .git, nor any file, which the command writes already.
 */
function hookWrittenBefore(walk: Walk, path: string, root: string): boolean {
  return [...walk.found].some(
    (written) =>
      written === path ||
      (!written.startsWith("\0") && (written === root || written.startsWith(`${root}/`)) && path.startsWith(`${written}/`)) ||
      (written.startsWith(UNKNOWN_MARK) && written !== UNKNOWABLE && path.endsWith(`/${written.slice(UNKNOWN_MARK.length)}`)),
  );
}

/**
 * The untracked directories `git clean -d …` removes, as its dry run lists them: git's own options
 * (`globals`), clean's and its paths, with `--dry-run` and `--no-quiet` (`-q` would list nothing)
 * added, in English; absolute, from where git runs (`cwd`). None where the text does not fix every
 * word. A name git quotes (a newline or a quote in it) is not listed: the files under the paths
 * given stand for it. A repository's fsmonitor is not run for the hook.
 */
function directoriesCleaned(globals: Array<string | undefined>, rest: Array<string | undefined>, walk: Walk, cwd: string | undefined): string[] {
  if (walk.cwd === undefined || cwd === undefined || globals.includes(undefined) || rest.includes(undefined)) return [];
  const dashes = rest.indexOf("--");
  const [options, paths] = dashes === -1 ? [rest, []] : [rest.slice(0, dashes), rest.slice(dashes)];
  const args = [...(globals as string[]), "-c", "core.fsmonitor=false", "-c", "core.quotePath=false", "clean", ...(options as string[]), "--dry-run", "--no-quiet", ...(paths as string[])];
  const { spawnSync } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
  const env = Object.fromEntries(Object.entries(walk.environment).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const listed = spawnSync("git", args, { cwd: walk.cwd, env: { ...env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" }, encoding: "utf8", timeout: 5000, maxBuffer: 16 * 1024 * 1024 });
  if (listed.status !== 0) return [];
  return listed.stdout
    .split("\n")
    .map((line) => /^Would remove (.+)\/$/.exec(line)?.[1])
    .filter((path): path is string => path !== undefined && !path.startsWith('"'))
    .map((path) => join(cwd, path));
}

/**
 * The files with conflicts `git mergetool` with no path merges: the unmerged files of the work tree
 * at `top`, as git lists them (`ls-files -u`), absolute; undefined where git cannot say (its options
 * the text does not fix, no work tree known), and none outside a merge.
 */
function unmergedFiles(globals: Array<string | undefined>, walk: Walk, top: string | undefined): string[] | undefined {
  if (walk.cwd === undefined || top === undefined || top === "" || globals.includes(undefined)) return undefined;
  const { spawnSync } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
  const env = Object.fromEntries(Object.entries(walk.environment).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const listed = spawnSync("git", [...(globals as string[]), "-c", "core.fsmonitor=false", "ls-files", "-u", "-z", "--full-name", ":/"], { cwd: walk.cwd, env: { ...env, GIT_OPTIONAL_LOCKS: "0" }, encoding: "utf8", timeout: 5000, maxBuffer: 16 * 1024 * 1024 });
  if (listed.status !== 0) return undefined;
  return [...new Set(listed.stdout.split("\0").filter((entry) => entry !== "").map((entry) => join(top, entry.slice(entry.indexOf("\t") + 1))))];
}

/** filter-branch's options whose values are shell code it evals for each commit. */
const FILTERS = ["setup", "env-filter", "tree-filter", "index-filter", "parent-filter", "msg-filter", "commit-filter", "tag-name-filter"];

/**
 * The shell code a git command runs that its words give (read by the walk as scripts): filter-branch's
 * filters, run in its temp checkout (`<top>/.git-rewrite/t`, or -d's `t`), each commit's files
 * there; `rebase -x`'s commands, run at the work tree's top; `bisect run`'s command, from where git
 * runs. undefined for code the text does not fix (any write at all).
 */
export function gitScripts(args: Array<string | undefined>, text: (at: number) => string | undefined, walk: Walk): Array<{ script: string | undefined; cwd: string | undefined }> {
  let index = 0;
  let cwd = walk.cwd;
  while (index < args.length && args[index]?.startsWith("-")) {
    const option = args[index] as string;
    // Another directory or work tree: where the code runs is not where the command does.
    if (option === "-C" || option.startsWith("--work-tree") || option.startsWith("--git-dir")) cwd = undefined;
    index += GLOBAL_VALUED.includes(option) ? 2 : 1;
  }
  const sub = args[index];
  const rest = args.slice(index + 1);
  const restText = (at: number) => text(at + index + 1);
  // Each reading of its options: as the text gives them, and as each word that may be an option
  // the text does not name (`--tree-filter"$x"`, `-"$x"`) would be, each option it may be.
  const readings = (syntax: Syntax) => {
    const reading = readOptions(rest, syntax, 0, restText);
    return [reading, ...guessedArguments(rest, syntax, reading, restText).map((guess) => readOptions(guess.args, syntax, 0, guess.text))];
  };
  // Each script once, where it runs (the readings give a filter given in a word of its own again and again).
  const once = (scripts: Array<{ script: string | undefined; cwd: string | undefined }>) => [...new Map(scripts.map((run) => [`${run.cwd}\0${run.script ?? "\0"}`, run])).values()];
  const top = () => {
    if (cwd === undefined || walk.environment.GIT_DIR !== undefined || walk.environment.GIT_WORK_TREE !== undefined) return undefined;
    const found = workTreeOf(cwd, undefined, walk.environment);
    return found === "" ? undefined : found;
  };
  const words = (from: number) => {
    const given = rest.slice(from);
    if (given.length === 0) return [];
    if (given.includes(undefined)) return [{ script: undefined, cwd }];
    return [{ script: given.length === 1 ? (given[0] as string) : (given as string[]).map(quote).join(" "), cwd }];
  };
  if (sub === "filter-branch") {
    return once(
      readings(GIT["filter-branch"] as Syntax).flatMap((reading) => {
        const temp = reading.has("d") ? directoryAt(top(), reading.value("d")) : top() === undefined ? undefined : join(top() as string, ".git-rewrite");
        const run = temp === undefined ? undefined : join(temp, "t");
        return FILTERS.flatMap((key) => reading.occurrences(key).map(({ value }) => ({ script: value, cwd: run })));
      }),
    );
  }
  if (sub === "rebase") {
    return once(readings(GIT.rebase as Syntax).flatMap((reading) => reading.occurrences("x").map(({ value }) => ({ script: value, cwd: top() }))));
  }
  if (sub === "bisect" && rest[0] === "run") return words(1);
  return []; // (`submodule foreach`'s command: gitHookRuns)
}

/** The hook husky 9 writes for every hook name into .husky/_ (its `h` does the rest). */
const HUSKY_STUB = /^#!\/usr\/bin\/env sh\n\. "(\$\(dirname "\$0"\)|\$\{0%\/\*\})\/h"\s*$/; // (9.1; 9.0: `${0%/*}`)

/** git's own commands, which no alias can stand for (git runs the command, not an alias of its name). */
export const GIT_COMMANDS = new Set(
  `add am annotate apply archive bisect blame branch bundle cat-file check-attr check-ignore checkout checkout-index cherry cherry-pick
  citool clean clone commit commit-tree config count-objects credential describe diff diff-files diff-index diff-tree difftool fetch filter-branch
  for-each-ref format-patch fsck gc grep hash-object help init instaweb log ls-files ls-remote ls-tree maintenance merge merge-base
  merge-file mergetool mktree mv name-rev notes pack-objects prune pull push range-diff read-tree rebase reflog remote repack replace
  reset restore rev-list rev-parse revert rm send-email shortlog show show-branch show-ref sparse-checkout stash status stripspace
  submodule switch symbolic-ref tag update-index update-ref var verify-commit verify-tag version whatchanged worktree write-tree`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * The value of `alias.<name>` as git would read it: `-c alias.<name>=…` on the command line, else
 * one a `git config` before it in the command saved (`!` for a value the text does not fix: a
 * command, for all the hook knows), else the repository's config, else the user's (~/.gitconfig,
 * $XDG_CONFIG_HOME/git/config), else the system's. Undefined where none sets it (or where the
 * repository is not known).
 */
function gitAlias(name: string, options: Array<string | undefined>, cwd: string | undefined, walk: Walk): string | undefined {
  const key = name.toLowerCase();
  let found: string | undefined;
  for (const [at, option] of options.entries()) {
    if (options[at - 1] !== "-c" || option === undefined) continue;
    const match = /^alias\.([^=]+)=(.*)$/s.exec(option);
    if (match && (match[1] as string).toLowerCase() === key) found = match[2];
  }
  if (found !== undefined) return found;
  const saved = walk.shared.gitAliases;
  if (saved?.has(key)) return saved.get(key) ?? "!";
  const environment = walk.environment;
  for (const file of gitConfigFiles(cwd === undefined ? undefined : repositoryOf(cwd), environment)) {
    const text = readText(file);
    if (text === undefined) continue;
    let inAlias = false;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      const section = /^\[\s*([^\]\s"]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
      if (section) {
        inAlias = (section[1] as string).toLowerCase() === "alias";
        continue;
      }
      if (!inAlias) continue;
      const entry = /^([\w-]+)\s*=\s*(.*)$/.exec(line);
      if (entry && (entry[1] as string).toLowerCase() === key) found = unquotedConfigValue(entry[2] as string);
    }
  }
  return found;
}

/** A config value as git reads it: quotes taken off, `\"` and `\\` unescaped, a `#` or `;` comment outside quotes dropped. */
function unquotedConfigValue(value: string): string {
  let out = "";
  let quoted = false;
  for (let at = 0; at < value.length; at++) {
    const char = value[at] as string;
    if (char === "\\" && at + 1 < value.length) {
      const next = value[++at] as string;
      out += next === "n" ? "\n" : next === "t" ? "\t" : next;
    } else if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "#" || char === ";")) break;
    else out += char;
  }
  return out.trim();
}
