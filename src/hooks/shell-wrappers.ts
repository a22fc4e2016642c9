// Wrappers, read off a command to find the command they run (shell-walk.ts reads that one): `sudo
// -u x cmd`, `env -C dir A=1 cmd`, `timeout 5 cmd`, `time -o out cmd` (and the file it writes),
// package runners (`npx prettier`, `npm exec -- eslint`, `uv run black`, `yarn prettier`), and a
// package manager's command that runs the package's scripts (`npm run fmt`: shell-scripts.ts), and
// git's command that runs the repository's hooks (`git commit`: shell-git-rules.ts).
import { existsSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { GLOB_MARK } from "./payload.js";
import type Parser from "web-tree-sitter";
import { ownEntry, readOptions, type Syntax } from "./shell-options.js";
import { readEditor } from "./shell-editors.js";
import { takesTypedCommands } from "./shell-terminal.js";
import { RULES } from "./shell-rules.js";
import { nodeOptionLoads, readEnvironmentLoads, readLoads } from "./shell-preloads.js";
import { interpreterOf, type Nested, runsJavaScript, WRAPPERS } from "./shell-runners.js";
import { composerRuns, denoTaskRuns, installRuns, npmNodeOptions, npmScriptsUnread, nxRuns, PACKAGE_MANAGERS, packageRun, scriptFile, turboRuns } from "./shell-scripts.js";
import { gitHookRuns, gitScripts, type HookRun, splitGlobals } from "./shell-git-rules.js";
import { lefthookRuns, lintStagedRuns, preCommitWrites } from "./shell-commit-tools.js";
import { justRuns } from "./shell-just.js";
import { goTaskRuns } from "./shell-task.js";
import { TASK_RUNNERS, taskRuns } from "./shell-task-runners.js";
import { miseRuns } from "./shell-mise.js";
import { PYPROJECT_RUNNERS, pyprojectRuns } from "./shell-pyproject.js";
import { packageCommands, prismaSeedRun, projectRoots } from "./shell-tool-rules.js";
import { createdIfMissing } from "./shell-rule.js";
import { gotestsumReports } from "./shell-more-tools.js";
import { archiveCommandRuns } from "./shell-archive-rules.js";
import { add, directoryAt, nearestFile, outputs, physicalDirectoryAt, readText, readsTerminal, shellQuoted, UNKNOWABLE, type Walk, wordValue, wordValues, writtenBefore } from "./shell-words.js";

type Node = Parser.SyntaxNode;

/** Tools read as what they run (above), which a package manager also runs by name (`yarn lint-staged`). */
const READ_AS_RUNNERS = ["lint-staged", "pre-commit", "prek", "just", "turbo", "nx", "lerna"];

const ASSIGNMENT = /^([A-Za-z_]\w*)=(.*)$/s;

/** python-dotenv's options before its command (`-f FILE`, `-q always`, `-e false`), with dotenv-cli's (`-v K=V`, `-p NAME`, `-c [env]`). */
const PYTHON_DOTENV: Syntax = { short: "f:q:e:v:p:c::", long: { file: "f", quote: "q", export: "e" }, ordered: true };

/**
 * GNU coreutils, findutils, tar, sed, patch, make and indent under the names Homebrew gives them
 * (`g` before GNU's name, beside the system's BSD tools): each is the tool of GNU's name.
 */
const GNU_PREFIXED = new Set(
  [
    ...["cp", "mv", "rm", "rmdir", "ln", "link", "unlink", "install", "touch", "truncate", "tee", "dd", "shred", "split", "csplit", "mktemp", "mkdir", "mkfifo", "mknod"],
    ...["chmod", "chown", "chgrp", "sort", "uniq", "shuf", "timeout", "nice", "nohup", "env", "stdbuf", "chroot", "nproc", "cat", "ls"],
    ...["find", "xargs", "tar", "sed", "patch", "make", "indent"],
  ].map((name) => `g${name}`),
);

/** Wrappers that chdir(2) to the directory they are given, as written: the kernel takes its `..` physically. */
const CHDIR_AS_GIVEN = ["sudo", "env", "unshare", "chpst", "run0", "flatpak-spawn"];

/**
 * Where a wrapper runs its command, given a directory (`env -C L/.. cmd`, `yarn --cwd L/..`): the
 * kernel's reading for the ones that chdir(2) to it as given (with `L -> sub/deep`, `L/..` is sub);
 * for the runners, which may join it as text first, a place unknown where the two readings of a
 * `..` differ.
 */
function wrapperDirectory(program: string, cwd: string | undefined, path: string | undefined): string | undefined {
  if (CHDIR_AS_GIVEN.includes(program)) return physicalDirectoryAt(cwd, path);
  const lexical = directoryAt(cwd, path);
  if (lexical === undefined || path === undefined || !/(^|\/)\.\.(\/|$)/.test(path)) return lexical;
  const physical = physicalDirectoryAt(cwd, path);
  return physical !== undefined && physical === physicalDirectoryAt(lexical, ".") ? lexical : undefined;
}

/** The tools the go command itself ships (`go tool compile`), which `go tool NAME` runs rather than a NAME on the path. */
const GO_TOOLS = new Set(["addr2line", "asm", "buildid", "cgo", "compile", "covdata", "cover", "dist", "distpack", "doc", "fix", "link", "nm", "objdump", "pack", "pprof", "preprofile", "test2json", "trace", "vet"]);

/** The main module around `cwd`: go.mod's `module` path and its directory. */
function mainModule(cwd: string | undefined): { path: string; root: string } | undefined {
  if (cwd === undefined) return undefined;
  const manifest = nearestFile(cwd, (names) => (names.includes("go.mod") ? "go.mod" : undefined));
  const path = manifest === undefined ? undefined : /^module\s+(\S+)/m.exec(readText(manifest) ?? "")?.[1];
  return path === undefined || manifest === undefined ? undefined : { path, root: dirname(manifest) };
}

/** A Go import path that names a package of the main module: its directory relative to the module's root (`./cmd/gen`). */
function ownPackage(path: string, cwd: string | undefined): { root: string; relative: string } | undefined {
  const main = mainModule(cwd);
  if (main === undefined || !(path === main.path || path.startsWith(`${main.path}/`))) return undefined;
  return { root: main.root, relative: `.${path.slice(main.path.length) || ""}` };
}

/**
 * A command read after its wrappers (`sudo -u x cmd`, `env A=1 cmd`, `npx prettier`): its words,
 * and the walk as it runs (another directory, more variables); undefined when the wrappers leave
 * nothing more to read (what they run is judged or handed back as `nested` already).
 */
export function unwrap(start: Array<string | undefined>, startWords: Node[], walk: Walk, here: Walk, nested: Nested[]): { argv: Array<string | undefined>; words: Node[]; here: Walk } | undefined {
  let argv = start;
  const words = [...startWords];
  for (let guard = 0; guard < 5; guard++) {
    // `grm f`, `gtimeout 60 sed -i …`: GNU's tools as Homebrew installs them beside BSD's.
    const named = basename(argv[0] ?? "");
    if (GNU_PREFIXED.has(named) && !walk.shared.functions.has(named)) argv = [named.slice(1), ...argv.slice(1)];
    const program = basename(argv[0] ?? "");
    // What the variables it runs with have an interpreter load (`NODE_OPTIONS='-r ./w.js' npm test`): shell-preloads.ts.
    readEnvironmentLoads(program, here, nested);
    // `mise run build`, `mise lint`: a task of mise's configs (shell-mise.ts); `pdm run fmt`, `hatch
    // run lint:fix`, `poe fmt`: a task of pyproject.toml (shell-pyproject.ts); each read as the
    // command lines it runs. Undefined: none of their tasks, read on as the command it is.
    const tasks = walk.shared.functions.has(program) ? undefined : program === "mise" ? miseRuns(argv.slice(1), here.cwd, here.environment) : PYPROJECT_RUNNERS.includes(program) ? pyprojectRuns(program, argv.slice(1), here.cwd) : undefined;
    if (tasks === UNKNOWABLE) {
      add(here, UNKNOWABLE);
      return undefined;
    }
    if (tasks !== undefined) {
      nested.push(...tasks);
      return undefined;
    }
    if (program === "composer" && !walk.shared.functions.has(program)) {
      // `composer fix`, `composer install`: composer.json's scripts it runs (shell-scripts.ts),
      // read in turn; composer itself is judged by its rule (vendor/, the lock file).
      const runs = composerRuns(argv.slice(1), here.cwd);
      if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
      else nested.push(...runs);
    }
    if (PACKAGE_MANAGERS.includes(program) && !walk.shared.functions.has(program)) {
      // `npm run fmt`, `pnpm lint`: the package's scripts are read in turn (shell-scripts.ts).
      const holes = words.slice(1).map((word) => wordValue(word, here));
      const runs = packageRun(program, argv.slice(1), words.slice(1).map((word) => word.text), here.cwd, (path) => writtenBefore(here, path), holes);
      if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
      else if (runs !== undefined) nested.push(...runs);
      // (Run by a shell, or with node options, the hook cannot read: `npm test --script-shell="$x"`.)
      if (runs !== undefined && runs !== UNKNOWABLE && program === "npm" && npmScriptsUnread(argv.slice(1), holes, here.environment)) add(here, UNKNOWABLE);
      // And the files the node options it gives them preload (`--node-options='-r ./w.js'`, the project's .npmrc `node-options=`), read as node's programs.
      if (runs !== undefined && runs !== UNKNOWABLE && (program === "npm" || program === "pnpm")) {
        const given = npmNodeOptions(program, argv.slice(1), holes, here.environment, here.cwd);
        readLoads(nodeOptionLoads(given.options, given.directory), here, nested);
      }
      if (runs !== undefined) return undefined;
      // `npm install`, `npm ci`: the project's install scripts run too, and the install is read on.
      const installs = installRuns(program, argv.slice(1), here.cwd, holes);
      if (installs === UNKNOWABLE) add(here, UNKNOWABLE);
      else nested.push(...installs);
    }
    // `node --run fmt` (Node 22) and antfu's `nr fmt` run the package's script as `npm run fmt` does (node's without its pre and post scripts: read all the same).
    // (node's --run among its options, before a program's file: `node x.js --run w` gives x.js the word.)
    const firstOperand = argv.findIndex((arg, at) => at > 0 && arg !== undefined && !arg.startsWith("-") && !/^(--run|-r|--require|--import|--loader|--experimental-loader|--env-file|--env-file-if-exists|--conditions|-C|--input-type|--title|--watch-path|--inspect-port|--redirect-warnings|--test-name-pattern|--disable-warning)$/.test(argv[at - 1] ?? ""));
    const scriptAt = program === "nr" ? 0 : program === "node" ? argv.findIndex((arg, at) => at > 0 && (firstOperand === -1 || at < firstOperand) && (arg === "--run" || arg?.startsWith("--run=") === true)) : -1;
    if (scriptAt >= 0 && !walk.shared.functions.has(program)) {
      // (`--run=fmt`, or the word after `--run`, or after `nr`.)
      const inline = argv[scriptAt]?.startsWith("--run=") === true;
      const from = inline ? scriptAt + 1 : scriptAt + 2;
      const name = inline ? (argv[scriptAt] as string).slice("--run=".length) : argv[scriptAt + 1];
      if (name === undefined) {
        add(here, UNKNOWABLE); // a script the text does not fix, or nr's pick of one
        return undefined;
      }
      const nameText = inline ? name : (words[scriptAt + 1]?.text ?? name);
      // (Every word after the name is the script's, as after npm run's `--`: `nr lint --fix`.)
      const extra = argv.slice(from)[0] === "--" ? from + 1 : from;
      const runs = packageRun("npm", ["run", name, "--", ...argv.slice(extra)], ["run", nameText, "--", ...words.slice(extra).map((word) => word.text)], here.cwd, (path) => writtenBefore(here, path), ["run", name, "--", ...words.slice(extra).map((word) => wordValue(word, here))]);
      if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
      else if (runs !== undefined) nested.push(...runs);
      return undefined;
    }
    if (program === "git" && !walk.shared.functions.has(program)) {
      // `git commit`: the hooks it runs are read in turn (git-hooks.ts); git itself is judged by its rule.
      // (`git -C"$d" commit`: its global options read as `git -C "$d" commit`'s are.)
      const gitText = (at: number) => wordValue(words[at + 1], here);
      const split = splitGlobals(argv.slice(1), gitText);
      const gitArgs = split?.args ?? argv.slice(1);
      const gitTexts = split?.text ?? gitText;
      const runs = gitHookRuns(gitArgs, gitTexts, here);
      if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
      else for (const run of runs) nested.push(...("hook" in run ? hookScript(run, here) : [run]));
      // The shell code its words give it to run: filter-branch's filters, `rebase -x`, `bisect run`.
      for (const { script, cwd } of gitScripts(gitArgs, gitTexts, here)) {
        if (script === undefined) add(here, UNKNOWABLE);
        else nested.push({ script, cwd });
      }
    }
    if ((program === "tar" || program === "bsdtar" || program === "zip") && !walk.shared.functions.has(program)) {
      // The commands their options name (`tar -I cmd`, `--checkpoint-action=exec=cmd`, `zip -TT cmd`): read in turn (shell-archive-rules.ts).
      // tar takes options from TAR_OPTIONS too (`TAR_OPTIONS=--rsh-command=x`, `-f u.ts`, `--remove-files`),
      // merged with its own after an old-style first word is split: one the command sets is any
      // file, unread; the user's own, in the environment the hook runs in, is theirs.
      const preset = program === "zip" ? undefined : here.environment.TAR_OPTIONS;
      if (preset !== undefined && preset.trim() !== "" && preset !== process.env.TAR_OPTIONS) add(here, UNKNOWABLE);
      const runs = archiveCommandRuns(program, argv.slice(1), here.cwd, (at) => wordValue(words[at + 1], here));
      if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
      else nested.push(...runs);
    }
    // (By its name or from a bin directory: a file named so elsewhere is a script, .git/hooks/pre-commit.)
    const installed = /^([^/]*|.*\/\.?bin\/[^/]*)$/.test(argv[0] ?? "");
    // (`npx lint-staged@16`: the package's version taken off.)
    const tool = program.replace(/(?<=.)@[^/]*$/, "");
    if (tool === "lint-staged" && installed && !walk.shared.functions.has(program)) {
      // What it runs on the staged files, as its config says (shell-commit-tools.ts).
      const runs = lintStagedRuns(argv.slice(1), (at) => wordValue(words[at + 1], here), here, (path) => add(here, path));
      if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
      else nested.push(...runs);
      return undefined;
    }
    if (tool === "lefthook" && !walk.shared.functions.has(program)) {
      // The commands and scripts its config gives the hook (shell-commit-tools.ts); by any path, as
      // the git hooks it installs find it (node_modules/lefthook-linux-x64/bin/lefthook).
      // Its words as the shell expands them: `lefthook "$@"` in the function its hooks call it through.
      const expanded = words.slice(1).flatMap((word): Array<string | undefined> => wordValues(word, here) ?? [undefined]);
      const runs = lefthookRuns(expanded, here, (path) => add(here, path));
      if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
      else nested.push(...runs);
      return undefined;
    }
    if ((tool === "pre-commit" || tool === "prek" || tool === "pre_commit") && installed && !walk.shared.functions.has(program)) {
      // The files its hooks may fix, and the unstaged changes it stashes (shell-commit-tools.ts).
      const paths = preCommitWrites(argv.slice(1), (at) => wordValue(words[at + 1], here), here);
      for (const path of paths === UNKNOWABLE ? [UNKNOWABLE] : paths) add(here, path);
      return undefined;
    }
    if (tool === "just" && installed && !walk.shared.functions.has(program)) {
      // The recipes it runs, read in turn (shell-just.ts).
      const runs = justRuns(argv.slice(1), here, (path) => add(here, path), (at) => wordValue(words[at + 1], here));
      if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
      else nested.push(...runs);
      return undefined;
    }
    if ((tool === "task" || tool === "go-task") && installed && !walk.shared.functions.has(program)) {
      // Task (go-task): the Taskfile's tasks it runs, read in turn (shell-task.ts).
      const runs = goTaskRuns(argv.slice(1), here, (path) => add(here, path), (at) => wordValue(words[at + 1], here));
      if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
      else nested.push(...runs);
      return undefined;
    }
    // (Python's commitizen is `cz` too: `cz bump`, `cz changelog` are its own, judged by their rule, shell-project-tools.ts.)
    if ((tool === "cz" || tool === "git-cz") && installed && !walk.shared.functions.has(program) && !(tool === "cz" && /^(bump|changelog|ch|version|check|init|ls|example|info|schema)$/.test(argv[1] ?? ""))) {
      // commitizen: a message asked for, then `git commit` with the rest (its hooks read in turn).
      nested.push({ script: ["git", "commit", ...words.slice(1).map((word) => word.text)].join(" "), cwd: here.cwd });
      return undefined;
    }
    if (tool === "prisma" && installed && !walk.shared.functions.has(program)) {
      // `prisma db seed`: the seed command its config or package.json names, read in turn; the rest is prisma's rule.
      const seed = prismaSeedRun(argv.slice(1), (at) => wordValue(words[at + 1], here), here.cwd);
      if (seed === UNKNOWABLE) add(here, UNKNOWABLE);
      else if (seed !== undefined) nested.push(seed);
    }
    if (TASK_RUNNERS.includes(program)) {
      // `run-s clean build`, `concurrently "npm:watch" "tsc -w"`: what they run (shell-task-runners.ts).
      const runs = taskRuns(program, argv.slice(1), (at) => wordValue(words[at + 1], here), here.cwd);
      if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
      else nested.push(...runs);
      return undefined;
    }
    if (program === "scl" && argv[1] === "enable" && !argv.includes("--") && !walk.shared.functions.has(program)) {
      // `scl enable coll 'cmd'`: its last word is a command line a shell runs (`-- cmd …`: the wrapper table's).
      const line = argv.at(-1);
      if (argv.length > 3 && line === undefined) add(here, UNKNOWABLE);
      else if (argv.length > 3) nested.push({ script: line as string, cwd: here.cwd });
      return undefined;
    }
    if ((tool === "turbo" || tool === "nx") && installed && !walk.shared.functions.has(program)) {
      // turbo's tasks, the packages' scripts of their names; nx's targets, not read (shell-scripts.ts).
      const runs = tool === "turbo" ? turboRuns(argv.slice(1), here.cwd, (path) => writtenBefore(here, path)) : nxRuns(argv.slice(1));
      if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
      else if (runs !== undefined) nested.push(...runs);
      return undefined;
    }
    if (program === "deno" && argv[1] === "task" && !walk.shared.functions.has(program)) {
      // deno.json's task, or package.json's script, of that name (shell-scripts.ts); the rest is deno's rule.
      const runs = denoTaskRuns(argv.slice(2), (at) => wordValue(words[at + 2], here), here.cwd);
      if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
      else if (runs !== undefined) nested.push(...runs);
      return undefined;
    }
    if (tool === "lerna" && installed && !walk.shared.functions.has(program)) {
      // `lerna exec -- cmd`: the command, run in each package's directory (a place the text does not
      // fix); `lerna exec cmd` and `lerna run x` (each package's script x, not read): any file.
      const sub = argv.findIndex((arg, at) => at > 0 && arg !== undefined && !arg.startsWith("-"));
      if (argv[sub] !== "exec" && argv[sub] !== "run") break;
      const dashdash = argv[sub] === "exec" ? argv.indexOf("--", sub) : -1;
      if (dashdash === -1) {
        add(here, UNKNOWABLE);
        return undefined;
      }
      argv = argv.slice(dashdash + 1);
      words.splice(0, dashdash + 1);
      here = { ...here, cwd: undefined };
      continue;
    }
    if (program === "nix" && !walk.shared.functions.has(program)) {
      // `nix develop -c cmd …`, `nix shell nixpkgs#jq --command cmd …`: the words after -c are the command.
      const sub = argv.findIndex((arg) => arg === "develop" || arg === "shell");
      const command = sub === -1 ? -1 : argv.findIndex((arg, at) => at > sub && (arg === "-c" || arg === "--command"));
      if (command === -1) break;
      argv = argv.slice(command + 1);
      words.splice(0, command + 1);
      continue;
    }
    if (program === "go" && !walk.shared.functions.has(program)) {
      // `go run golang.org/x/tools/cmd/goimports@latest -w .`: a module's command at a version,
      // built from the module cache, is that command (its last path part) run with the rest.
      const run = argv[1] === "-C" ? 3 : 1;
      const at = argv[run] === "run" ? argv.findIndex((arg, index) => index > run && arg !== undefined && !arg.startsWith("-")) : -1;
      const module = at === -1 ? undefined : argv[at];
      // The main module's own package by its import path (`go run example.com/me/cmd/gen`) is `./cmd/gen` from its root: read as that.
      const own = module === undefined ? undefined : ownPackage(module, here.cwd);
      if (own !== undefined) {
        here = { ...here, cwd: own.root };
        argv = [...argv.slice(0, at), own.relative, ...argv.slice(at + 1)];
        break;
      }
      // Without a version, a module's path the main module (go.mod's `module`) does not start: a
      // dependency's command (`go run github.com/99designs/gqlgen generate`), not the project's own
      // code; nor a file given to it (`gen.d/main.go`) or a directory here, which are.
      const onDisk = module === undefined || module.endsWith(".go") || here.cwd === undefined || existsSync(resolve(here.cwd, module));
      if (module !== undefined && (/^[\w.-]+\.[\w.-]+\/[^@\s]+@[^\s/]+$/.test(module) || (!onDisk && /^[\w-]+(\.[\w-]+)+\/[\w./-]+$/.test(module) && mainModule(here.cwd) !== undefined))) {
        if (run === 3) here = { ...here, cwd: wrapperDirectory(program, here.cwd, argv[2]) };
        // (Named as go names its binary: `github.com/vektra/mockery/v2` is mockery.)
        argv = [module.replace(/@[^@]*$/, "").replace(/\/v\d+$/, "").replace(/^.*\//, ""), ...argv.slice(at + 1)];
        words.splice(0, at + 1, words[at] as Node);
        continue;
      }
      // `go tool link -o bin a.o`: go's own tools are not the commands of their names (link, fix): what their -o names, and fix rewrites the packages where it runs.
      const tool = argv[run] === "tool" ? argv[run + 1] : undefined;
      if (tool !== undefined && GO_TOOLS.has(tool)) {
        const own = argv.slice(run + 2);
        own.forEach((arg, index) => {
          if (arg === "-o" || arg === "-output" || arg === "-outfile") add(here, own[index + 1] === undefined ? UNKNOWABLE : (directoryAt(here.cwd, own[index + 1]) ?? UNKNOWABLE));
          else if (arg !== undefined && /^-(o|output|outfile)=/.test(arg)) add(here, directoryAt(here.cwd, arg.slice(arg.indexOf("=") + 1)) ?? UNKNOWABLE);
        });
        if (tool === "fix") add(here, here.cwd === undefined ? UNKNOWABLE : `${GLOB_MARK}${here.cwd}/**`);
        return undefined;
      }
    }
    if (program === "gotestsum" && !walk.shared.functions.has(program)) {
      // `gotestsum -- ./... -update`: go test with the words after `--` (golden files rewritten by -update),
      // and its own report files before them (shell-more-tools.ts).
      const dashdash = argv.indexOf("--");
      if (dashdash === -1) break;
      for (const path of gotestsumReports(argv.slice(1, dashdash), here.cwd, (at) => wordValue(words[at + 1], here))) add(here, path);
      argv = ["go", "test", ...argv.slice(dashdash + 1)];
      words.splice(0, dashdash + 1, words[0] as Node, words[0] as Node);
      continue;
    }
    if (program === "cross-env-shell" && !walk.shared.functions.has(program)) {
      // `cross-env-shell A=1 "node x.js; rm f"`: its leading VAR=value words set, the rest joined
      // with spaces into one line a shell runs, read as `env A=1 sh -c LINE` (one the text does not
      // fix: unknown). (cross-env takes any leading word holding `NAME=` for one: reading fewer as such reads more of the line.)
      const from = crossEnvCommand(argv, words);
      if (from >= argv.length) return undefined;
      const line = argv.slice(from);
      if (line.some((word) => word === undefined)) add(here, UNKNOWABLE);
      else nested.push({ script: ["env", ...plainSetters(words, from), "sh", "-c", shellQuoted((line as string[]).map(crossEnvPassed).join(" "))].join(" "), cwd: here.cwd });
      return undefined;
    }
    if (program === "cross-env" && !walk.shared.functions.has(program)) {
      // Plain cross-env passes its command's words on as cross-env-shell does (`cross-env A=1 rm
      // "'u.ts'"` removes u.ts): where that changes one, its command is read as `env A=1 WORDS…`
      // of the words it runs; else through the wrapper table (shell-runners.ts).
      const from = crossEnvCommand(argv, words);
      const line = argv.slice(from);
      // (Also where a setter is no plain NAME= word, which the wrapper table would take for the command.)
      const oddSetter = plainSetters(words, from).length < from - 1;
      if (oddSetter || line.some((word) => word !== undefined && crossEnvPassed(word) !== word)) {
        if (line.some((word) => word === undefined)) add(here, UNKNOWABLE);
        else nested.push({ script: ["env", ...plainSetters(words, from), ...(line as string[]).map((word) => shellQuoted(crossEnvPassed(word)))].join(" "), cwd: here.cwd });
        return undefined;
      }
    }
    if (program === "dotenv" && !walk.shared.functions.has(program)) {
      // python-dotenv's CLI (`dotenv -f .env run --no-override cmd`): the command after `run`; its
      // `set` and `unset` rewrite the file (-f's, else .env). dotenv-cli's (`dotenv -e .env -- cmd`): the wrapper table's.
      const before = readOptions(argv, PYTHON_DOTENV, 1, (at) => wordValue(words[at], here));
      const sub = argv[before.end];
      if (sub === "run") {
        let from = before.end + 1;
        while (/^--(no-)?override$/.test(argv[from] ?? "")) from++;
        if (argv[from] === "--") from++;
        if (from >= argv.length) return undefined;
        argv = argv.slice(from);
        words.splice(0, from);
        continue;
      }
      if (sub === "set" || sub === "unset") {
        add(here, before.has("f") ? (before.value("f") ?? UNKNOWABLE) : ".env");
        return undefined;
      }
    }
    const wrapper = ownEntry(WRAPPERS, program);
    if (!wrapper || wrapper.own?.includes(argv[1] ?? "")) break;
    // A word the text does not fix, as written (shell-options.ts: `sudo -u"$u" cmd`, `timeout -s"$sig" 5 cmd`).
    const text = (at: number) => wordValue(words[at], here);
    let index = 1;
    let positional = wrapper.positional ?? 0;
    if (wrapper.subcommands !== undefined) {
      // `npm exec …`, `uv run …`: a runner only through these; `npm install` is npm's own. yarn,
      // pnpm and bun also run a package's command by its name (`yarn prettier --write f`).
      const before = readOptions(argv, { ...wrapper.syntax, ordered: true }, 1, text);
      // `yarn $cmd`, `uv $sub …`: a subcommand the text does not fix may run any command (`exec -- rm f`, a package's bin).
      if (before.end < argv.length && argv[before.end] === undefined) {
        add(here, UNKNOWABLE);
        return undefined;
      }
      const sub = argv[before.end] ?? "";
      const manager = basename(argv[0] ?? "");
      // `yarn workspace a add x` is `yarn add x` in the member's directory; `yarn workspaces foreach
      // … run cmd` runs it in every member's: places the text does not name.
      if (manager === "yarn" && (sub === "workspace" || sub === "workspaces")) {
        const from = sub === "workspace" ? before.end + 2 : argv.findIndex((arg, at) => at > before.end && (arg === "run" || arg === "exec"));
        if (from > 0 && from < argv.length) nested.push({ script: ["yarn", ...words.slice(from).map((word) => word.text)].join(" "), cwd: undefined });
        return undefined;
      }
      // `pnpm recursive exec cmd` (`multi`, `m`): `pnpm -r exec cmd`, in every package (a place the text does not name).
      if (manager === "pnpm" && ["recursive", "multi", "m"].includes(sub)) {
        argv = [...argv.slice(0, before.end), "-r", ...argv.slice(before.end + 1)];
        continue;
      }
      // `npm explore pkg -- cmd`: cmd, its words joined into a line a shell runs, in
      // node_modules/pkg where npm's project is (`-g`: the global one's, a place the text does not name).
      if (manager === "npm" && sub === "explore") {
        const pkg = argv[before.end + 1];
        const from = argv[before.end + 2] === "--" ? before.end + 3 : before.end + 2;
        if (from >= argv.length) return undefined; // (a shell there, on the terminal)
        const global = argv.some((arg, at) => at < from && (arg === "-g" || arg === "--global" || arg === "--location=global"));
        const root = projectRoots(here.cwd, ["package.json", "node_modules"])[0];
        const line = argv.slice(from);
        if (line.some((word) => word === undefined)) add(here, UNKNOWABLE);
        else nested.push({ script: line.join(" "), cwd: global || pkg === undefined || root === undefined ? undefined : resolve(root, "node_modules", pkg) });
        return undefined;
      }
      // `uv tool run black` is `uvx black`.
      const tool = manager === "uv" && sub === "tool" && argv[before.end + 1] === "run";
      // `yarn node -e …` runs node (with the project's loader) as `yarn prettier` runs prettier.
      // (And an interpreter a package installs: `yarn tsx x.ts`, `pnpm ts-node x.ts`, `bun vite-node x.ts`.)
      const bin = wrapper.bins === true && !packageCommands(manager).includes(sub) && (ownEntry(RULES, sub) !== undefined || sub === "node" || READ_AS_RUNNERS.includes(sub) || (runsJavaScript(sub) && interpreterOf(sub) !== undefined));
      if (!wrapper.subcommands.includes(sub) && !bin && !tool) break;
      if (wrapper.chdir !== undefined && before.has(wrapper.chdir)) here = { ...here, cwd: wrapperDirectory(program, here.cwd, before.value(wrapper.chdir)) };
      if ((wrapper.elsewhere ?? []).some((key) => before.has(key))) here = { ...here, cwd: undefined };
      index = bin ? before.end : tool ? before.end + 2 : before.end + 1;
      const after = wrapper.lines !== undefined || wrapper.lineFlag !== undefined || wrapper.spacedLine !== undefined ? readOptions(argv, { ...wrapper.syntax, ordered: true }, index, text) : undefined;
      // (Yarn 2+'s `yarn exec 'rm f && ls'`: one word holding a space, a line its shell runs.)
      const spaced = after !== undefined && wrapper.spacedLine?.includes(sub) === true && after.end === argv.length - 1 && /\s/.test(argv[after.end] ?? "");
      if (after !== undefined && !bin && (spaced || wrapper.lines?.includes(sub) === true || (wrapper.lineFlag !== undefined && (before.has(wrapper.lineFlag) || after.has(wrapper.lineFlag))))) {
        // `bun exec 'rm f && ls'`, `pnpm exec -c 'rm f && ls'`: its operands, a line a shell runs (one the text does not fix: unknown).
        if ((wrapper.elsewhere ?? []).some((key) => before.has(key) || after.has(key))) here = { ...here, cwd: undefined };
        const line = words.slice(after.end).map((word) => word.text);
        if (line.length === 1 && argv[after.end] === undefined) add(here, UNKNOWABLE);
        else if (line.length > 0) nested.push({ script: line.length === 1 ? (argv[after.end] as string) : line.join(" "), cwd: here.cwd });
        return undefined;
      }
      if (wrapper.dashdash === true) {
        // `mise x node@20 python -c 'cmd'`: its options anywhere among its tools; the command after `--`.
        const dashdash = argv.indexOf("--", index);
        const own = readOptions(dashdash === -1 ? argv : argv.slice(0, dashdash), { ...wrapper.syntax, ordered: false }, index, text);
        if (wrapper.chdir !== undefined && own.has(wrapper.chdir)) here = { ...here, cwd: wrapperDirectory(program, here.cwd, own.value(wrapper.chdir)) };
        if (wrapper.call !== undefined && own.has(wrapper.call)) {
          const line = own.value(wrapper.call);
          if (line !== undefined) nested.push({ script: line, cwd: here.cwd });
          else add(here, UNKNOWABLE);
          return undefined;
        }
        // Or, for some, without `--`: their operand of that place (`stack exec rm f`).
        const first = dashdash === -1 && wrapper.commandOperand !== undefined ? own.operands[wrapper.commandOperand] : undefined;
        if (dashdash === -1 && first === undefined) return undefined; // nothing to run
        const from = first ?? dashdash + 1;
        argv = argv.slice(from);
        words.splice(0, from);
        continue;
      }
    }
    // The file a lock wrapper opens: setlock's for writing; flock's made only where none is, and
    // only when it runs something (alone, `flock -n 9`, its operand is a descriptor).
    const opened = (at: number, runs = at + 1 < argv.length) => {
      if (wrapper.opens !== true && (wrapper.creates !== true || !runs)) return;
      const paths = argv[at] !== undefined ? [argv[at] as string] : (wordValues(words[at] as Node, here) ?? [UNKNOWABLE]);
      for (const path of paths) for (const written of wrapper.opens === true ? [path] : createdIfMissing(here.cwd, path)) add(here, written);
    };
    for (;;) {
      const reading = readOptions(argv, { ...wrapper.syntax, ordered: wrapper.transcript === undefined }, index, text);
      // `env -C dir`, `env -iC dir`, `env --chdir=dir`, `sudo -D dir`: the command runs there.
      if (wrapper.chdir !== undefined && reading.has(wrapper.chdir)) here = { ...here, cwd: wrapperDirectory(program, here.cwd, reading.value(wrapper.chdir)) };
      // `pnpm -r exec`, `npm exec -w a`: in workspace packages' directories, which the text does not name.
      if ((wrapper.elsewhere ?? []).some((key) => reading.has(key))) here = { ...here, cwd: undefined };
      for (const { value, at } of (wrapper.writes ?? []).flatMap((key) => reading.occurrences(key))) {
        const paths = value !== undefined ? outputs([value]) : at === undefined ? [] : (wordValues(words[at] as Node, here) ?? []);
        for (const path of paths) add(here, path);
      }
      if (wrapper.edits !== undefined && reading.has(wrapper.edits)) {
        // sudo -e f g (sudoedit): each operand is a file it writes back, edited by its editor (shell-editors.ts).
        for (const at of reading.operands) for (const path of wordValues(words[at] as Node, here) ?? []) add(here, path);
        readEditor("sudoedit", [], () => undefined, here, nested); // (no arguments: no text to read)
        return undefined;
      }
      if (wrapper.transcript !== undefined) {
        // script [-c cmd] [file]: the file (else `typescript`); without -c, a shell reading the terminal.
        if (reading.has("h", "V")) return undefined;
        const first = reading.operands[0];
        for (const path of first === undefined ? [wrapper.transcript] : (wordValues(words[first] as Node, here) ?? [])) add(here, path);
        if (wrapper.call === undefined || !reading.has(wrapper.call)) {
          add(here, UNKNOWABLE);
          return undefined;
        }
      }
      if (wrapper.call !== undefined && reading.has(wrapper.call)) {
        // `flock -c 'cmd' FILE`: its file after the command line (util-linux's flock takes -c only after FILE, and fails: judged all the same).
        const file = reading.operands[0];
        if (positional > 0 && file !== undefined) opened(file, true);
        // npx -c 'prettier --write f': the command line is read in turn (one the text does not fix is unknown).
        const line = reading.value(wrapper.call);
        if (line !== undefined) nested.push({ script: line, cwd: here.cwd });
        else add(here, UNKNOWABLE);
        return undefined;
      }
      if (wrapper.module !== undefined && reading.has(wrapper.module)) {
        // `uv run -m pkg.mod args`: python running that module, read as `python3 -m pkg.mod args` is.
        const module = reading.value(wrapper.module);
        if (module !== undefined) nested.push({ script: ["python3", "-m", shellQuoted(module), ...words.slice(reading.end).map((word) => word.text)].join(" "), cwd: here.cwd });
        else add(here, UNKNOWABLE);
        return undefined;
      }
      if (wrapper.split !== undefined && reading.has(wrapper.split)) {
        // env -S 'cmd args' rest: the string is split into words and the rest follows. Read as a
        // shell line of env's (so `-S 'A=1 cmd'` and `-S '-C dir cmd'` keep their meaning): a
        // redirection in it, which env passes on as a word, is judged a write, never the reverse.
        const line = reading.value(wrapper.split);
        if (line !== undefined) nested.push({ script: ["env", line, ...words.slice(reading.end).map((word) => word.text)].join(" "), cwd: here.cwd });
        else add(here, UNKNOWABLE); // env -S "$cmd": a command line the text does not give
        return undefined;
      }
      index = reading.end;
      if (index >= argv.length) {
        // Nothing to run: `sudo -s`, `doas`, `chroot /srv` start a shell, which, given a terminal,
        // runs what is typed into it later (shell-terminal.ts).
        if (here.shared.terminal && takesTypedCommands(program, argv.slice(1), (at) => text(at + 1))) readsTerminal(here);
        return undefined;
      }
      const arg = argv[index];
      if (arg === undefined) {
        // `env PATH=./node_modules/.bin:$PATH prettier …`: an assignment whose value the text does
        // not fix (its value unknown to the command, as `X="$x" cmd` leaves it); `timeout "$t" cmd`:
        // a value of the wrapper's own. Else the command itself is not fixed (`sudo "$cmd" f`): what
        // it writes cannot be known.
        const unfixed = /^([A-Za-z_]\w*)=/.exec(words[index]?.text ?? "");
        if (unfixed) {
          here = { ...here, environment: { ...here.environment, [unfixed[1] as string]: undefined } };
          index++;
          continue;
        }
        if (positional > 0) {
          opened(index);
          positional--;
          index++;
          continue;
        }
        add(here, UNKNOWABLE);
        return undefined;
      }
      // A runner's option it does not know, given as `--opt value`, took the command's place
      // (`uv run --index URL black .`): the command is the next word when that is one with a rule.
      const unknownOption = /^--[\w-]+$/.test(argv[index - 1] ?? "") && index - 1 >= 1;
      if (isRunner(wrapper) && unknownOption && ownEntry(RULES, basename(arg)) === undefined && ownEntry(RULES, basename(argv[index + 1] ?? "")) !== undefined) {
        index++;
        continue;
      }
      const assignment = ASSIGNMENT.exec(arg);
      if (assignment) here = { ...here, environment: { ...here.environment, [assignment[1] as string]: assignment[2] } };
      if (arg === "-" || assignment) index++; // `env - A=1 cmd`: `-` is env's -i
      else if (positional > 0) {
        opened(index);
        positional--;
        index++;
      } else break;
    }
    argv = argv.slice(index);
    words.splice(0, index);
    // `npm exec prettier -- --write f`: the runner takes the `--`; the command gets what follows.
    if (wrapper.subcommands !== undefined || wrapper.call !== undefined) {
      if (argv[1] === "--") {
        argv.splice(1, 1);
        words.splice(1, 1);
      }
    }
  }
  return { argv, words, here };
}

/** A package runner (npx, npm exec, uv run, …), as opposed to a wrapper such as sudo or env. */
function isRunner(wrapper: { subcommands?: string[]; call?: string }): boolean {
  return wrapper.subcommands !== undefined || wrapper.call !== undefined;
}

/**
 * A git hook's text as it is now, read as a script run with its arguments, not by its path: a
 * command before it that rewrites the work tree (`git checkout main`, `git stash`) need not have
 * rewritten the hooks. Another language's program, or a binary: run by its path, as the walk
 * reads such a program.
 */
function hookScript(run: HookRun, here: Walk): Nested[] {
  const file = scriptFile(run.hook, run.shell);
  if (file === UNKNOWABLE) {
    add(here, UNKNOWABLE);
    return [];
  }
  if (file === undefined) return [{ script: [run.hook, ...run.args].map(shellQuoted).join(" "), cwd: run.cwd, bound: new Map() }];
  return [{ script: file.text, cwd: run.cwd, bound: new Map([["0", [run.hook]], ["BASH_SOURCE", [run.hook]]]), positional: run.args.map((arg) => [arg]) }];
}

/** Where cross-env's command starts: after its leading setters, each word holding `NAME=` anywhere, as cross-env's own unanchored `(\w+)=` reads them (`a.b=1` sets b). */
function crossEnvCommand(argv: Array<string | undefined>, words: Node[]): number {
  let from = 1;
  while (from < argv.length && /\w=/.test(words[from]?.text ?? "")) from++;
  return from;
}

/** cross-env's setters that are plain `NAME=value` words, for env (an odd one, `a.b=1`, sets b: left out, a variable the command's words do not name). */
function plainSetters(words: Node[], from: number): string[] {
  return words.slice(1, from).map((word) => word.text).filter((text) => /^[A-Za-z_]\w*=/.test(text));
}

/** A word of its command as cross-env passes it on: its `'` dropped, `\'` and `\\` made `'` and `\`, a `\` before `$` or `"` dropped (`"echo ';rm f'"` runs rm). */
const crossEnvPassed = (word: string): string => word.replace(/\\\\|(\\)?'|\\(?=[$"\\])/g, (match) => (match === "\\\\" ? "\\" : match === "\\'" ? "'" : ""));
