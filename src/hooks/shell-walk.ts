// The walk over a shell command's syntax tree, in source order, so that a `cd` applies to what
// follows it: subshells, pipelines, redirections, heredocs, for loops, and each command, read after
// its wrappers (`sudo`, `env -C dir`, `timeout 5`: shell-wrappers.ts) as the command they run. A
// script the text gives (`bash -c '…'`, `eval '…'`, `xargs`, `find -exec`, a heredoc a shell
// reads) or one on disk it runs (shell-scripts.ts, shell-make.ts), and a function where it is
// called, is read in turn; a command with a rule (shell-rules.ts) adds the paths it writes.
// shellWrites (shell.ts) loads this file only for a command that may write, and walkScript loads
// the parser.
import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type Parser from "web-tree-sitter";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { guessedArguments, ownEntry, readOptions } from "./shell-options.js";
import { noteLinks, throughLinksMade } from "./shell-links.js";
import { launches, onHost, sshConfigRuns, sshMaster, sshOption } from "./shell-launchers.js";
import { readsWrapper } from "./shell-wrapper-readers.js";
import { fdCommand } from "./shell-fd.js";
import { COMPILER_NAME } from "./shell-build-rules.js";
import { makeRecipes } from "./shell-make.js";
import { toxRuns } from "./shell-tox.js";
import { unwrap } from "./shell-wrappers.js";
import { joinContinuations, lineStartEscapes } from "./shell-continuations.js";
import { inputRedirected, parentOf } from "./shell-tree.js";
import { isDirectory } from "../targets/target.js";
import { bodiesMissed, heredocText, setAsideHeredocs } from "./shell-heredocs.js";
import { bareNames, commandsInProgram, createdNames, isPathLike, pathsInProgram, perlOnlyReads, unfixedCode } from "./shell-programs.js";
import { programAlias, resolveProgram, shebangOf } from "./program-files.js";
import { loadPathOf, optionLoads, readLoads } from "./shell-preloads.js";
import { moduleFile, moduleTexts, noteText, onlyValue, packageInits, preloadedFiles, programText, runsProgramFile, stdinProgram, unfixedCodeOptions } from "./shell-program-runs.js";
import { PACKAGE_BINS, RULES } from "./shell-rules.js";
import { askpassRun, lessPreprocessors, loadsNamedLibrary, loadsOpensslCode } from "./shell-key-rules.js";
import { CHANGES_DIRECTORY, changeDirectory, forgetBound, functionChangesDirectory, declaredChangesDirectory, functionInputLeft, functionsIn, functionsSourced, type Guard, outsideFunctions, OWN, shellInputLeft, sourcedChangesDirectory } from "./shell-state.js";
import { argumentVariables, constantVariables, INHERITED, isTopLevel, namesSet, temporaryVariables } from "./shell-variables.js";
import { callFunction, PACKAGE_MANAGERS, positionalOf, runScript, withPositional } from "./shell-scripts.js";
import { METADATA_COMMANDS } from "./shell-metadata-rules.js";
import { OTHER_SHELLS, otherShellWrites } from "./shell-other.js";
import { findCommand, INPUT, inputKey, interpreterOf, type Nested, runsJavaScript, printsEnvironment, SHELL, SHELLS, STDIN, WRAPPERS, XARGS } from "./shell-runners.js";
import { readEditor } from "./shell-editors.js";
import { sqliteWrites } from "./shell-sqlite.js";
import { interpreterConsole, isConsoleModule, takesTypedCommands } from "./shell-terminal.js";
import { isUnreadRunner, readsUnreadInline, runsUnreadCrate, runsUnreadInline, runsUnreadProgram } from "./shell-unread-programs.js";
import {
  add,
  anyUnder,
  braceWords,
  directoryAt,
  type Environment,
  type FunctionBody,
  HOLE,
  nearestFile,
  printedBy,
  type Positional,
  readsTerminal,
  type Shared,
  readText,
  redirectionOperator,
  runnable,
  statementOf,
  STATEMENTS,
  staticWord,
  UNKNOWABLE,
  type Walk,
  wordValue,
  shellQuoted,
  wordValues,
  writesAny,
  writtenBefore,
} from "./shell-words.js";

type Node = Parser.SyntaxNode;

/**
 * `bash`: a parser of the bash grammar, from the caller's src/targets/symbols.ts (so the grammar
 * loads once per process, with the CLI's baseline-only compilation, though the CLI keeps this walk
 * in a bundle of its own: scripts/bundle.mjs).
 */
/** How deep scripts run scripts before the hook stops reading (`bash -c 'bash -c …'`, functions calling functions). */
const DEPTH = 16;

export async function walkScript(script: string, walk: Walk, depth: number, bash: () => Promise<Parser>, positional?: Positional): Promise<void> {
  if (depth > DEPTH || --walk.shared.budget < 0) {
    // Deeper, or more scripts, than the hook reads: what is not read could write anything (a
    // function body that only calls other functions may too).
    add(walk, UNKNOWABLE);
    return;
  }
  const parser = await bash();
  let tree: Parser.Tree | undefined;
  const nested: Nested[] = [];
  try {
    tree = parse(parser, lineStartEscapes(extglobsAsGlobs(joinContinuations(script))), walk);
    // Temp-space variables: this script's, and the caller's it does not set itself (a trap's
    // `rm -f "$tmp"` after `tmp=$(mktemp)`).
    // A tree's nodes cost the walk each (25,000 heredocs on one line: 5 s): past the walk's budget, any file.
    if (walk.shared.nodesLeft !== undefined && (walk.shared.nodesLeft -= tree.rootNode.descendantCount) < 0) throw new Error("more of a tree than the walk reads in time");
    const setHere = namesSet(tree.rootNode);
    walk.temporary = new Set([...(setHere === undefined ? [] : [...walk.temporary].filter((name) => !setHere.has(name))), ...temporaryVariables(tree.rootNode)]);
    walk.fromArguments = argumentVariables(tree.rootNode);
    walk.lastpipe = walk.lastpipe === true || /\blastpipe\b/.test(script);
    walk.nocaseglob = walk.nocaseglob === true || /\bnocaseglob\b/.test(script);
    walk.physical = walk.physical === true || /\bset\b[^;&|\n]*\s(-[a-zA-Z]*P|-o\s*physical\b)/.test(script);
    walk.constants = constantVariables(tree.rootNode);
    // IFS set otherwise than by an assignment of its own (read as it comes, in visit): `printf -v
    // IFS ,`, `read IFS`, `for IFS in`, `IFS=, eval …`, in a function: where unquoted variables
    // split, the text does not fix. (`IFS= read …`, which sets it for read alone, is no such case.)
    if (/\bIFS\b/.test(script.replace(/\bIFS=(\S*)\s+(read|mapfile|readarray)\b/g, "").replace(/(^|[;&|\n]|\b(then|do|else)\b)\s*IFS=("[^"]*"|'[^']*'|\$'[^']*'|[^\s;&|()]*)\s*(?=[;&|\n]|$)/g, "$1"))) walk.ifs = (walk.ifs ?? "") + HOLE;
    // A binding it was given (the caller's loop variable, a variable set once there) does not hold
    // in code that may set that variable itself.
    const sets = setHere;
    if (walk.bound !== undefined) walk.bound = new Map([...walk.bound].filter(([name]) => OWN.test(name) || (sets !== undefined && !sets.has(name))));
    if (positional !== undefined) walk.bound = withPositional(walk.bound, positional, tree.rootNode);
    const [outer, outerBefore] = [walk.shared.laterReads, walk.shared.laterReadsBefore];
    [walk.shared.laterReads, walk.shared.laterReadsBefore] = [nested, undefined];
    try {
      visit(tree.rootNode, walk, nested);
    } finally {
      [walk.shared.laterReads, walk.shared.laterReadsBefore] = [outer, outerBefore];
    }
  } catch {
    // A command the parser cannot take apart is a command whose writes cannot be named: any file.
    add(walk, UNKNOWABLE);
    return;
  } finally {
    tree?.delete();
    parser.delete(); // its memory is WebAssembly's: a library caller serving many calls would keep every one
  }
  // Paths asked of while some of these were still unread (writtenBefore): what each of these writes, in turn.
  const asked = walk.shared.unwrittenAsked?.filter((entry) => entry.reads === nested) ?? [];
  for (const [index, inner] of nested.entries()) {
    // (What it writes: new to the walk, or written again, a path a later command of the line wrote too: `…; python3 x.py; rm x.py`.)
    const before = asked.length === 0 ? undefined : { found: new Set(walk.found), writes: new Map(walk.shared.writes ?? []) };
    try {
      await readNested(inner, walk, depth, bash);
    } finally {
      // A file read as on disk that a script run before it writes (`bash -c "cp a.py x.py"; python3 x.py`): what runs is not what was read.
      if (before !== undefined) {
        const added = [...walk.found].filter((path) => !before.found.has(path) || (walk.shared.writes?.get(path) ?? 0) > (before.writes.get(path) ?? 0));
        if (asked.some((entry) => entry.before > index && writesAny(walk, added, entry.path))) walk.found.add(UNKNOWABLE);
      }
    }
  }
  if (walk.shared.unwrittenAsked !== undefined && asked.length > 0) walk.shared.unwrittenAsked = walk.shared.unwrittenAsked.filter((entry) => entry.reads !== nested);
  if (depth > 0) return;
  // Calls of functions defined only later in the walk (in a script sourced before them): read now.
  for (let calls = walk.shared.pending.splice(0); calls.length > 0; calls = walk.shared.pending.splice(0)) {
    for (const { name, serial, declared, ...call } of calls) {
      const bodies = walk.shared.functions.get(name);
      if (bodies === undefined) continue;
      // A `cd` or an `exec < f` in one its sourced text did not show (a function of a script that
      // script sources, one defined by eval): what followed the call was read in the wrong place, or with the wrong input.
      if (!declared && (functionChangesDirectory(name, walk.shared.functions) || functionInputLeft(name, walk.shared.functions) !== undefined)) walk.found.add(UNKNOWABLE);
      const later: Nested[] = [];
      callFunction(name, bodies, call, walk, later);
      // A file read as on disk after the call that the function writes (`source ./lib.sh; f; python3 x.py`, f copying over x.py): what runs is not what was read.
      const asked = walk.shared.unwrittenAsked?.filter((entry) => entry.reads === walk.shared.pending && entry.before > serial) ?? [];
      const before = asked.length === 0 ? undefined : { found: new Set(walk.found), writes: new Map(walk.shared.writes ?? []) };
      const outer = walk.shared.pendingRead;
      walk.shared.pendingRead = serial;
      try {
        for (const inner of later) await walkScript(inner.script, { ...walk, cwd: inner.cwd, previous: undefined, stack: [], bound: inner.bound, shellInput: inputOf(inner, walk) }, 1, bash, inner.positional);
      } finally {
        walk.shared.pendingRead = outer;
      }
      if (before !== undefined) {
        const added = [...walk.found].filter((path) => !before.found.has(path) || (walk.shared.writes?.get(path) ?? 0) > (before.writes.get(path) ?? 0));
        if (asked.some((entry) => writesAny(walk, added, entry.path))) walk.found.add(UNKNOWABLE);
      }
    }
  }
  throughLinksMade(walk);
}

/** Python's virtual environment makers: `python3 -m venv d` (read as the command `venv`), virtualenv, `uv venv`. */
function makesEnvironment(name: string, args: Array<string | undefined>): boolean {
  return name === "venv" || name === "virtualenv" || (name === "uv" && args.find((arg) => arg === undefined || !arg.startsWith("-")) === "venv");
}

/** One script a script runs, read after it (walkScript): with its own place, variables and input. */
async function readNested(inner: Nested, walk: Walk, depth: number, bash: () => Promise<Parser>): Promise<void> {
  const found = inner.mounts === undefined && inner.remote !== true ? walk.found : new Set<string>();
  // On another machine `~` is the remote home: a place the text does not fix.
  const home = inner.remote === true ? `${UNKNOWN_MARK}~` : walk.home;
  // The same script read again with the same inputs writes what its first read found (a script
  // that runs itself, `sh -e "$0" "$@"` as husky's hooks do, would otherwise be read until the
  // walk's depth runs out, and judged any file).
  // Nor the variables this machine's environment gives (INHERITED): another's, or a container's, are its own.
  const given = inner.bound ?? walk.bound;
  const bound = inner.mounts === undefined && inner.remote !== true ? given : given && new Map([...given].filter(([name]) => !INHERITED.includes(name)));
  const key = `\0script ${JSON.stringify([inner.script, inner.cwd, home, [...(bound ?? [])], inner.positional, inner.mounts, inner.remote, inner.terminal, inputKey(inner.input), walk.environment, [...walk.temporary], walk.shared.functions.size])}`;
  if (walk.shared.read.has(key)) return;
  walk.shared.read.add(key);
  const typed = walk.shared.typed ?? 0;
  await walkScript(inner.script, { ...walk, found, home, cwd: inner.cwd, previous: undefined, stack: [], bound, shellInput: inputOf(inner, walk) }, depth + 1, bash, inner.positional);
  if (inner.mounts !== undefined) for (const path of found) for (const here of onHost(path, inner.mounts)) walk.found.add(here);
  if (inner.remote === true) for (const path of found) if (!path.startsWith(UNKNOWN_MARK)) walk.found.add(path);
  // A remote command reading this terminal (`ssh host tmux`, `ssh -t host vim`): what is typed into it runs on a host that may be this one.
  if (inner.terminal === true && (walk.shared.typed ?? 0) > typed) walk.found.add(UNKNOWABLE);
}

/**
 * What the scripts and functions a command runs read where their commands have no input of their
 * own (`f < x.py`, `echo x | ./run.sh`): its text where the walk reads it (each command is read as
 * given all of it), null for a stream it does not, undefined where the command is given none.
 */
function callerInput(node: Node, stdin: string | undefined, piped: boolean): string | null | undefined {
  return stdin ?? (piped || inputRedirected(node) ? null : undefined);
}

/** Programs whose windows run commands on a terminal of their own. */
const NEW_TERMINALS = /^(tmux|screen|byobu|dtach|abduco|zellij)$/;

/** The shell input a nested script runs with: its caller's when it ran (Nested.input), else the walk's. */
function inputOf(inner: Nested, walk: Walk): string | null | undefined {
  return Object.hasOwn(inner, "input") ? inner.input : walk.shellInput;
}

/**
 * The script's tree, its large heredoc bodies set aside (shell-heredocs.ts). Parsing stops at the
 * walk's deadline, and a script past the text the walk still reads (shared.textLeft) is not
 * parsed: the parse then throws, and the script could write any file.
 */
function parse(parser: Parser, script: string, walk: Walk): Parser.Tree {
  // `${x@P}` expands x's value as a prompt, which runs the `$(…)` and backquotes in it: code a
  // value holds, which the walk does not follow into expansions (`x='$(rm f)'; echo "${x@P}"`).
  if (/\$\{[^{}]*@P\}/.test(script)) add(walk, UNKNOWABLE);
  const skip = new Set<number>();
  for (let tries = 0; ; tries++) {
    const left = (walk.shared.deadline ?? Number.POSITIVE_INFINITY) - Date.now();
    if (left <= 0) throw new Error("no time left to parse");
    if (Number.isFinite(left)) parser.setTimeoutMicros(left * 1000);
    const { script: text, bodies, unread } = setAsideHeredocs(script, skip);
    if (walk.shared.textLeft !== undefined && text.length > walk.shared.textLeft) throw new Error("more text than the walk reads in time");
    // The scanner spends its time inside one step of the parse, where the deadline cannot stop it.
    if (unread || (tries === SET_ASIDE_TRIES && bodies.size > 0)) throw new Error("a heredoc the grammar cannot read in time");
    const tree = parser.parse(text);
    if (walk.shared.textLeft !== undefined) walk.shared.textLeft -= text.length;
    if (bodies.size === 0) return tree;
    const missed = bodiesMissed(tree.rootNode, bodies);
    if (missed.skip.size === 0) {
      walk.shared.heredocs = new Map([...(walk.shared.heredocs ?? []), ...[...bodies].map(([key, body]): [string, string] => [key, body.text])]);
      return tree;
    }
    tree.delete();
    if (missed.otherwise) throw new Error("a heredoc the grammar reads otherwise, and not in time");
    // A `<<` the grammar does not read as a heredoc's start (in a comment, a quote): not one, next time.
    for (const line of missed.skip) skip.add(line);
  }
}

/** How many times a script's heredocs are set aside again, each time without the starts the grammar did not read as such. */
const SET_ASIDE_TRIES = 3;

/** Nodes visited by the walk (the clock is read once every 256). */
let visits = 0;

/**
 * In source order, so a `cd` applies to what follows it; a subshell's `cd` ends with the subshell.
 * `piped`: the node reads a pipe (`curl … | python3`), whose contents the text does not give.
 */
function visit(node: Node, walk: Walk, nested: Nested[], piped = false, wrapped = false): void {
  // Past the walk's deadline, what is left unread could write any file (walkScript's catch).
  if ((++visits & 255) === 0 && walk.shared.walkDeadline !== undefined && Date.now() > walk.shared.walkDeadline) throw new Error("no time left to read the command");
  const instead = INSTEAD.size > 0 ? INSTEAD.get(node.id) : undefined;
  if (instead !== undefined) {
    INSTEAD.delete(node.id); // (the node itself is read inside)
    try {
      return instead(walk);
    } finally {
      INSTEAD.set(node.id, instead);
    }
  }
  if (node.type === "subshell" || node.type === "command_substitution" || node.type === "process_substitution") {
    // ``echo `a \`rm f\``` ``: inside backticks, an escaped backtick opens one nested in it, which
    // the grammar leaves a word; bash reads the text with those escapes removed. A heredoc inside
    // backticks the grammar reads apart from its body: the text is read again as a script of its own.
    if (node.text.startsWith("`") && (node.text.includes("\\`") || node.text.includes("<<"))) nested.push({ script: node.text.slice(1, -1).replace(/\\([`\\$])/g, "$1"), cwd: walk.cwd });
    visitChildren(node, subshellOf(walk), nested);
    return;
  }
  // `${x:-`rm f`}`, `${x/`rm f`/}`, `${x:-<(rm f)}`: in an operand the grammar leaves a backtick
  // substitution or a process substitution a plain word; bash runs it. Read as a script's argument.
  if (hidesSubstitution(node)) nested.push({ script: `: ${operandOf(node)}`, cwd: walk.cwd, ...(walk.bound ? { bound: walk.bound } : {}) });
  if (node.type === "file_redirect") return redirect(node, walk, nested);
  // `{ …; } <<< "$(cmd)"`: a here-string's substitutions run before the statement does.
  if (node.type === "herestring_redirect") {
    for (const substitution of substitutionsIn(node)) visit(substitution, walk, nested);
    return;
  }
  if (node.type === "redirected_statement") {
    const body = node.childForFieldName("body");
    if (body?.type === "list") {
      // `true && cd src && echo x > a.txt`: the grammar gives the list the redirection, bash its
      // last command, where it is written (in src), and the heredoc too (`true && patch -p0 <<EOF`),
      // and its input, read from there (`cd sub && python3 manage.py shell < x.py`: sub/x.py).
      // So are the words after a redirection's target (`true && rm 2>/dev/null u.ts`: wordsInRedirections).
      const last = lastCommand(body);
      noting(STATEMENTS, last, node, () =>
        noting(STDIN_AT, last, node, () =>
          visitList(body, walk, nested, () => {
            for (const child of node.namedChildren) if (child.id !== body.id) visit(child, walk, nested);
          }),
        ),
      );
      return;
    }
    const stdin = stdinOf(node, walk);
    for (const child of node.namedChildren) {
      if (child === body || child.id === body?.id) {
        if (child.type === "command") noting(STATEMENTS, child, node, () => command(child, walk, nested, stdin, piped && stdin === undefined));
        // `cat | patch -p0 <<EOF`, `cat | rm 2>/dev/null u.ts`, `! rm 2>/dev/null u.ts`: the heredoc and the redirections are the last command's.
        else if (child.type === "pipeline" || child.type === "negated_command") {
          const last = lastCommand(child);
          noting(STATEMENTS, last, node, () => noting(STDIN_OF, stdin === undefined ? undefined : last, stdin, () => visit(child, walk, nested)));
        } else visit(child, walk, nested);
      } else visit(child, walk, nested);
    }
    return;
  }
  if (node.type === "heredoc_redirect") {
    // `cat <<EOF | tee f`: the pipeline after the heredoc's start is a command of its own; and in
    // the body of an unquoted one, `$(…)` and backticks run.
    const quoted = /['"\\]/.test(node.namedChildren.find((child) => child.type === "heredoc_start")?.text ?? "");
    for (const child of node.namedChildren) {
      if (child.type === "word") add(walk, child.text); // `cat <<EOF & rm f`: words the grammar left loose
      else if (child.type !== "heredoc_body") {
        visit(child, walk, nested);
        // `cat <<EOF 2>&1 | tee f`: what follows the `|` is a command of its own, read as a script (in a pipeline: a subshell's).
        const pipe = child.type === "file_redirect" ? pipedOn(child) : undefined;
        if (pipe !== undefined) nested.push({ script: child.text.slice(pipe.endIndex - child.startIndex), cwd: walk.cwd });
      } else if (!quoted) {
        // A body set aside (shell-heredocs.ts) runs nothing: none with `$(`, `${` or a backtick is.
        const text = heredocText(child, walk);
        for (const part of child.namedChildren) if (part.type !== "heredoc_content") visit(part, walk, nested);
        for (const [, script] of text.matchAll(/`([^`]*)`/g)) nested.push({ script: script as string, cwd: walk.cwd });
        // `<<-` with tab-indented lines: the grammar leaves the body text, its `$(…)` unread.
        if (!child.namedChildren.some((part) => part.type === "command_substitution")) {
          const scripts = substitutionTexts(text);
          if (scripts === undefined) add(walk, UNKNOWABLE);
          else for (const script of scripts) nested.push({ script, cwd: walk.cwd });
        }
      }
    }
    return;
  }
  if (node.type === "ERROR") {
    // A part the grammar cannot read (`cat <<EOF; rm f`, `{rm,f}`): each word in it but a command's
    // name could be a file a command there writes, so each is judged as one; the commands it holds are read.
    for (const part of node.text.split(/[;&|()\n]+/)) {
      const words = part.split(/[\s{}<>,`'"]+/).filter((word) => word !== "");
      for (const word of words.slice(1)) if (!word.includes("$") && !/^-/.test(word)) add(walk, word);
      // A `cd` in it (``echo "`it's`"`` then, lines later, `cd src; rm ../f`; `then cd src`,
      // `builtin cd src`, `x=1 cd src`): where the rest runs is not known.
      if (words.some((word) => /^\\?(cd|pushd|popd)$/.test(word))) walk.cwd = undefined;
    }
    for (const child of node.namedChildren) visit(child, walk, nested);
    return;
  }
  // What may or may not run: a list's commands after its first (`[ -d b ] && cd b; rm f`), a
  // branch, a loop's body. Read in order, as if it ran; after it, a directory it changed is
  // either: unknown. In `a && cd b && rm f` the rm runs only after the cd: in b.
  if (node.type === "list") return visitList(node, walk, nested);
  if (node.type === "for_statement") return perhaps(walk, () => forLoop(node, walk, nested));
  if (LOOPS.has(node.type) && !wrapped) return perhaps(walk, () => passesOf(walk, () => visit(node, walk, nested, piped, true)));
  if (MAYBE.has(node.type) && !wrapped) return perhaps(walk, () => visit(node, walk, nested, piped, true));
  if (node.type === "variable_assignment" && node.childForFieldName("name")?.text === "HOME") {
    // `HOME=$PWD/src; cd; rm f`, `HOME=/x; rm ~/f`: `~` and a bare `cd` go there from here on.
    const home = staticWord(node.childForFieldName("value"), walk);
    walk.home = home !== undefined && isAbsolute(home) ? home : HOLE; // (a place the text does not fix)
  }
  if (node.type === "variable_assignment" && parentOf(node)?.type !== "command") {
    // `export SIMPLE_BACKUP_SUFFIX=.old; cp -b a b`: a variable exported, or one the command's
    // environment has already, is the commands' after it (a value the text does not fix: unknown).
    const name = node.childForFieldName("name")?.text ?? "";
    const parent = parentOf(node);
    const exported = parent?.type === "declaration_command" && /^(export|(declare|typeset|local)\s+-\w*x)\b/.test(parent.text);
    if (name !== "" && (exported || Object.hasOwn(walk.environment, name))) {
      const value = node.childForFieldName("value");
      walk.environment = { ...walk.environment, [name]: value ? staticWord(value, walk) : "" };
    }
  }
  if (node.type === "variable_assignment" && node.childForFieldName("name")?.text === "IFS") {
    // `IFS=,; x=rm,f; $x`: from here on, an unquoted variable splits at these characters too.
    const value = node.childForFieldName("value");
    const ifs = value ? staticWord(value, walk) : "";
    walk.ifs = (walk.ifs ?? "") + (ifs ?? HOLE);
  }
  if (node.type === "variable_assignment" && node.childForFieldName("name")?.text === "PS4") {
    // PS4='$(cmd)' runs cmd at each line `set -x` traces: read as the string it is expanded as.
    const value = staticWord(node.childForFieldName("value"), walk);
    if (value !== undefined) nested.push({ script: `: "${value.replace(/["\\]/g, "\\$&")}"`, cwd: walk.cwd });
  }
  if (node.type === "variable_assignment" && walk.constants?.has(node.childForFieldName("name")?.text ?? "") && isTopLevel(node, rootOf(node))) {
    // `dir=src/gen` set once, at the top: `"$dir/a.ts"` is src/gen/a.ts from here on.
    for (const child of node.namedChildren) visit(child, walk, nested);
    const value = node.childForFieldName("value");
    const fixed = value ? staticWord(value, walk) : "";
    // (In place: a subshell reads a copy, and what is handed back to read later takes one.)
    if (fixed !== undefined) (walk.bound ??= new Map()).set(node.childForFieldName("name")?.text as string, [fixed]);
    return;
  }
  if (node.type === "function_definition") {
    // A function's body runs where it is called, with the call's arguments: read then, not here.
    const name = node.childForFieldName("name")?.text;
    const body = node.childForFieldName("body")?.text;
    const source = walk.bound?.get("BASH_SOURCE")?.[0];
    const input = inputRedirected(node) ? { input: null } : {};
    if (name !== undefined && body !== undefined) walk.shared.functions.set(name, [...(walk.shared.functions.get(name) ?? []), { body, ...(source === undefined ? {} : { source }), ...input }]);
    // bash runs command_not_found_handle for any command it does not find, wherever one comes
    // after: when, where and whether, the text does not fix.
    if (name === "command_not_found_handle") add(walk, UNKNOWABLE);
    // `f() { …; } > out`: the redirection applies at every call; judged where it is written.
    for (const child of node.namedChildren) if (child.type === "file_redirect") redirect(child, walk, nested);
    return;
  }
  if (node.type === "command") {
    const statement = STDIN_AT.get(node.id);
    const stdin = statement === undefined ? STDIN_OF.get(node.id) : stdinOf(statement, walk);
    return command(node, walk, nested, stdin, piped && stdin === undefined);
  }
  if (node.type === "pipeline") {
    // Each command of a pipeline runs in a subshell (`cd /tmp | cat; rm f` removes ./f); under
    // `shopt -s lastpipe` the last may run in this one, and is read as if it did.
    const commands = node.namedChildren;
    const rest = (here: Walk, from: number) =>
      commands.forEach((child, index) => index >= from && visit(child, index === commands.length - 1 && here.lastpipe ? here : subshellOf(here), nested, index > 0));
    const [head] = commands;
    const list = head?.type === "list" ? head : head?.type === "redirected_statement" && head.childForFieldName("body")?.type === "list" ? head.childForFieldName("body") : null;
    if (head === undefined || list === null) return rest(walk, 0);
    // `cd src && npm test 2>&1 | tail`: the grammar pipes the whole list, bash its last command
    // alone (`cd src && (npm test 2>&1 | tail)`): the list is read here, its last command in the pipeline.
    const last = list.namedChildren.filter((child) => child.type !== "comment").at(-1) as Node;
    const redirections = head.id === list.id ? [] : head.namedChildren.filter((child) => child.id !== list.id);
    const piped = (here: Walk) => {
      const first = commands.length === 1 && here.lastpipe ? here : subshellOf(here);
      noting(STATEMENTS, head.id === list.id ? undefined : lastCommand(last), head, () => visit(last, first, nested));
      for (const redirection of redirections) visit(redirection, first, nested);
      rest(here, 1);
    };
    noting(INSTEAD, last, piped, () => visitList(list, walk, nested));
    return;
  }
  if (WORDS.includes(node.type)) subscriptRuns(node, walk, nested); // `declare 'a[$(cmd)]=1'`, `x='a[$(cmd)]'`
  visitChildren(node, walk, nested);
}

/**
 * A node's parts in order. `cd /tmp & rm u.ts`: a statement run with `&` runs in a subshell, and
 * its `cd` does not move the next one (looked at here, among siblings: a node's own look for its
 * next sibling costs the depth of the tree).
 */
function visitChildren(node: Node, walk: Walk, nested: Nested[]): void {
  const children = node.children;
  children.forEach((child, index) => {
    if (child.isNamed) visit(child, children[index + 1]?.type === "&" ? subshellOf(walk) : walk, nested);
  });
}

const WORDS = ["word", "string", "raw_string", "ansi_c_string", "concatenation"];

/**
 * A list, `a && b || c`, its commands in order; `trailing`: read right after its last command (the
 * redirections the grammar gives the list). A `cd` to a directory not there that only its `&&`
 * chain depends on (`cd b && make; rm f`) leaves the place unknown after the list, and for a `||`.
 */
function visitList(node: Node, walk: Walk, nested: Nested[], trailing = () => {}): void {
  const outer = walk.shaky;
  walk.shaky = false;
  try {
    listInOrder(node, walk, nested, trailing);
  } finally {
    if (walk.shaky) walk.cwd = undefined;
    walk.shaky = outer;
  }
}

function listInOrder(node: Node, walk: Walk, nested: Nested[], trailing: () => void): void {
  const operands: Node[] = [];
  const operators: Array<string | undefined> = [];
  let first: Node = node;
  for (;;) {
    const [left, right, ...more] = first.type === "list" ? first.namedChildren.filter((child) => child.type !== "comment") : [];
    if (left === undefined || right === undefined || more.length > 0) break;
    operands.push(right);
    operators.push(first.children.find((child) => child.type === "&&" || child.type === "||")?.type);
    first = left;
  }
  operands.reverse(); // (found from the last; unshift would cost the square of a long chain)
  operators.reverse();
  // (A list the grammar gave other parts: each read in turn.)
  if (first.type === "list") for (const child of first.namedChildren) visit(child, walk, nested);
  else noting(GUARDED, first, guardOf(operators[0], operands[0]), () => visit(first, walk, nested));
  if (operands.length === 0) return trailing();
  perhaps(walk, () =>
    operands.forEach((operand, index) => {
      const read = () =>
        noting(GUARDED, operand, guardOf(operators[index + 1], operands[index + 1]), () => {
          visit(operand, walk, nested);
          if (index === operands.length - 1) trailing();
        });
      if (operators[index] === "&&") read();
      else {
        if (walk.shaky) walk.cwd = undefined; // `cd b && make || rm f`: the rm may run where the cd failed
        perhaps(walk, read);
      }
    }),
  );
}

/** What failing stops for a list's command followed by this operator and command. */
function guardOf(operator: string | undefined, next: Node | undefined): Guard | undefined {
  if (operator === "&&") return "chain";
  // (Not `return`: outside a function it fails, and the script goes on.)
  return operator === "||" && next?.type === "command" && next.childForFieldName("name")?.text === "exit" ? "exit" : undefined;
}

/** Runs `read` with `value` noted for `node` in one of the walk's per-node maps (STDIN_OF, STDIN_AT, STATEMENTS, GUARDED), and what was noted before after. */
function noting<T>(map: Map<number, T>, node: Node | undefined, value: T | undefined, read: () => void): void {
  if (node === undefined || value === undefined) return read();
  const before = map.get(node.id);
  map.set(node.id, value);
  try {
    read();
  } finally {
    if (before === undefined) map.delete(node.id);
    else map.set(node.id, before);
  }
}

/** Statements whose parts may or may not run (for loops: forLoop). */
const MAYBE = new Set(["if_statement", "case_statement", "while_statement", "c_style_for_statement"]);

/** Loops other than `for … in` (read by forLoop): `while`, `until`, `for ((…))`. */
const LOOPS = new Set(["while_statement", "c_style_for_statement"]);

/**
 * A loop: its body runs again after itself. Where its first pass wrote a file or moved the shell,
 * it is read a second time, from where that pass left the walk: what one pass writes is before what
 * the next reads (`for …; do python3 x.py; cp a.py x.py; done` runs a.py's code the second time),
 * and after a `cd` in it the next pass runs in a place the text does not fix (`for …; do rm u.ts;
 * cd sub; done` removes sub/u.ts too, and sub/sub/u.ts…).
 */
function passesOf(walk: Walk, read: () => void): void {
  const { cwd, previous } = walk;
  const stack = [...walk.stack];
  const found = walk.found.size;
  const writes = [...(walk.shared.writes?.values() ?? [])].reduce((sum, count) => sum + count, 0);
  read();
  const moved = walk.cwd !== cwd || walk.previous !== previous || walk.stack.length !== stack.length || walk.stack.some((entry, index) => entry !== stack[index]);
  const wrote = walk.found.size > found || [...(walk.shared.writes?.values() ?? [])].reduce((sum, count) => sum + count, 0) > writes;
  if (!moved && !wrote) return;
  if (moved) {
    walk.cwd = undefined;
    walk.previous = undefined;
    walk.stack = walk.stack.map(() => undefined);
  }
  read();
}

/** Runs `read` (a part that may not run); where it leaves the shell in another directory, the directory is unknown after it. */
function perhaps(walk: Walk, read: () => void): void {
  const { cwd, previous } = walk;
  const stack = [...walk.stack];
  read();
  if (walk.cwd !== cwd) walk.cwd = undefined;
  if (walk.previous !== previous) walk.previous = undefined;
  if (walk.stack.length !== stack.length || walk.stack.some((entry, index) => entry !== stack[index])) walk.stack = walk.stack.map(() => undefined);
}


/** The walk a subshell starts with: the same, but what it changes (directory, stack, variables) stays in it. */
function subshellOf(walk: Walk): Walk {
  return { ...walk, stack: [...walk.stack], ...(walk.bound ? { bound: new Map(walk.bound) } : {}) };
}

/**
 * bash expands an array subscript in a name it is given as a value, and runs the substitutions in
 * it: `let 'a[$(cmd)]=1'`, `printf -v 'a[$(cmd)]'`, `read`, `declare`, `[[ -v … ]]`, and a
 * variable's value in arithmetic (`x='a[$(cmd)]'; $((x))`). A word whose value holds one is read
 * as a script too (a word that stays data costs only a reading of it).
 */
function subscriptRuns(word: Node, walk: Walk, nested: Nested[]): void {
  const value = staticWord(word, walk);
  // A name and its subscript first (`a[$(cmd)]=1`, `a[`cmd`]`): not an awk program's `s[$(1)]` or markdown's `[`x`](y)`.
  if (value !== undefined && /^\s*[A-Za-z_]\w*\[[^\]]*(\$\(|`)/.test(value)) nested.push({ script: value, cwd: walk.cwd });
}

/**
 * With `shopt -s extglob` in the text, `u.@(ts)`, `!(src)`, `+(a|b)` are patterns bash expands,
 * which the grammar does not read: each is read as `*`, a glob over at least what it matches.
 */
function extglobsAsGlobs(script: string): string {
  return /\bshopt\s+(-\w+\s+)*-s\s+(\w+\s+)*extglob\b/.test(script) ? script.replace(/[@!+*?]\([^()]*\)/g, "*") : script;
}

/** The options that give an interpreter its program inline: python's and ipython's -c, node's -e and -p, perl's -e and -E, ruby's -e, php's -r. */
/** An expansion that is only ever a number, or nothing (`$?`, `$#`, `$!`, `$RANDOM`, `$PPID`, `${#a[@]}`): no code, wherever a program has it. */
const NUMERIC_EXPANSION = /^\$(?:[?#!]|\{[?#!]\}|\{#\w+(?:\[[@*]\])?\}|\{?(?:RANDOM|SRANDOM|PPID|UID|EUID|SECONDS|LINENO|BASHPID)\}?)$/;

/**
 * A word's value (wordValue) where every part the text does not fix is a number (NUMERIC_EXPANSION):
 * `0` in their place, so that `python3 -c "import sys; sys.exit($?)"` is read as code the hook can
 * read; a HOLE for each, as wordValue's, where any other part is not fixed.
 */
function numberedWord(node: Node | undefined, walk: Walk): string | undefined {
  const value = wordValue(node, walk);
  if (node === undefined || value === undefined || !value.includes(HOLE)) return value;
  const unfixed = node.descendantsOfType(["simple_expansion", "expansion", "command_substitution", "arithmetic_expansion", "process_substitution"]);
  return unfixed.every((part) => NUMERIC_EXPANSION.test(part.text)) ? value.replaceAll(HOLE, "0") : value;
}

function inlineOptions(name: string): string[] {
  if (/^(python|pypy|ipython)/.test(name)) return ["c"];
  if (runsJavaScript(name)) return ["e", "p"];
  if (name === "perl") return ["e", "E"];
  if (name === "ruby") return ["e"];
  if (name === "php") return ["r"];
  return [];
}

/** A node read otherwise than as itself where it stands: a list's last command piped on (visit's pipelines). */
const INSTEAD = new Map<number, (walk: Walk) => void>();

/** The stdin a command of a list or pipeline is given by a heredoc written after the whole (redirected_statement). */
const STDIN_OF = new Map<number, string>();

/** The statement whose redirections give a list's last command its stdin, read where that command runs (after the list's `cd`). */
const STDIN_AT = new Map<number, Node>();

/**
 * A list's commands whose failure stops what follows them (visitList): "chain", the rest of its
 * `&&` chain (`cd b && make`); "exit", the script (`cd b || exit`). By node id, while read.
 */
const GUARDED = new Map<number, Guard>();

/** At most this many `$(` of a heredoc's text are looked at (a walk reads 64 scripts at most: shell.ts). */
const SUBSTITUTIONS_READ = 128;

/** The scripts of the `$(…)` in a text, by their balanced parentheses; undefined past SUBSTITUTIONS_READ. */
function substitutionTexts(text: string): string[] | undefined {
  const found: string[] = [];
  for (let start = text.indexOf("$("), starts = 0; start !== -1; start = text.indexOf("$(", start + 2)) {
    // More than a command's walk reads (its budget of scripts), each looked for to the end: what the rest run is not read.
    if (++starts > SUBSTITUTIONS_READ) return undefined;
    let depth = 0;
    for (let at = start + 1; at < text.length; at++) {
      if (text[at] === "(") depth++;
      else if (text[at] === ")" && --depth === 0) {
        found.push(text.slice(start + 2, at));
        break;
      }
    }
  }
  return found;
}

/** The command a list or pipeline ends with: the one a heredoc after it belongs to. */
function lastCommand(node: Node): Node | undefined {
  for (let at: Node | null = node; at !== null; at = at.namedChildren[at.namedChildren.length - 1] ?? null) if (at.type === "command") return at;
  return undefined;
}

/**
 * `for f in src/*.ts a.ts; do sed -i … "$f"; done`: in the body, `"$f"` is each value of the list
 * (a glob as bash expands it when the loop starts). A list the text does not fix (`$(ls)`, `"$@"`,
 * none), or a body that sets the variable itself, leaves it a variable the text does not fix.
 */
function forLoop(node: Node, walk: Walk, nested: Nested[]): void {
  const name = node.childForFieldName("variable")?.text;
  const body = node.childForFieldName("body");
  const list = node.childrenForFieldName("value");
  let values: string[] | undefined = list.length > 0 && name !== undefined && !setsVariable(name, body?.text ?? "") ? [] : undefined;
  for (const word of list) {
    const got = values && wordValues(word, walk);
    values = got === undefined || got.some((value) => value.startsWith(UNKNOWN_MARK)) ? undefined : [...(values ?? []), ...got];
    if (values === undefined) break;
  }
  for (const word of list) visit(word, walk, nested); // a substitution in the list runs too
  const outer = walk.bound;
  try {
    // A few values: each pass read in turn with its own, from where the one before left the walk
    // (`for f in a b; do cp $f.ts $f.bak; done`: a.ts to a.bak, not to b.bak). More, or values the
    // text does not fix: one pass with them all, read again where it wrote or moved (passesOf).
    if (name !== undefined && values !== undefined && values.length >= 1 && values.length <= PASSES_READ) {
      for (const value of values) {
        walk.bound = new Map(outer);
        walk.bound.set(name, [value]);
        if (body) visit(body, walk, nested);
      }
      return;
    }
    if (name !== undefined) {
      walk.bound = new Map(outer);
      if (values !== undefined) walk.bound.set(name, values);
      else walk.bound.delete(name);
    }
    passesOf(walk, () => {
      if (body) visit(body, walk, nested);
    });
  } finally {
    walk.bound = outer;
  }
}

/** A `for` loop over this many values or fewer is read a pass per value (forLoop). */
const PASSES_READ = 8;

/**
 * The directory a project scaffolder makes: `npm create vite app`, `npm init vite app` (npm runs
 * create-vite), `pnpm|yarn|bun create x app`, `npx create-next-app app`, `degit user/repo app`,
 * `tiged`; `.` where none is named; UNKNOWABLE where the text does not fix it. Undefined for any
 * other command.
 */
function scaffoldDirectory(name: string, args: Array<string | undefined>): string | undefined {
  const operands = (from: number) => {
    const found: Array<string | undefined> = [];
    for (let at = from; at < args.length; at++) {
      const arg = args[at];
      if (arg === "--") break; // what follows is the scaffolder's own options
      if (arg === undefined || !arg.startsWith("-")) found.push(arg);
    }
    return found;
  };
  const directory = (given: Array<string | undefined>, at: number) => (given.length > at ? (given[at] ?? UNKNOWABLE) : ".");
  if (["npm", "pnpm", "yarn", "bun"].includes(name)) {
    const [sub, initializer] = operands(0);
    if (!(sub === "create" || (sub === "init" && initializer !== undefined)) || initializer === undefined) return undefined;
    return directory(operands(0), 2);
  }
  if (/^create-[\w.-]+$/.test(name)) return directory(operands(0), 0);
  if (name === "degit" || name === "tiged") return directory(operands(0), 1);
  return undefined;
}

/**
 * The functions code run in this shell later in the walk defines (a sourced script, eval's text),
 * by their text: a call of one later in the line is read after the line (Shared.pending), but its
 * `cd` moves what follows the call.
 */
function declare(walk: Walk, functions: Array<{ name: string; body: string }>): void {
  for (const { name, body } of functions) (walk.shared.declared ??= new Map()).set(name, [...(walk.shared.declared?.get(name) ?? []), { body }]);
}

/** A call of a name no function has yet, read at the end of the line (Shared.pending). */
function pend(name: string, call: Omit<Shared["pending"][number], "name" | "serial" | "declared">, walk: Walk): void {
  const declared = walk.shared.declared?.has(name) === true;
  walk.shared.pending.push({ name, ...call, serial: walk.shared.pendingMade ?? 0, declared });
  walk.shared.pendingMade = (walk.shared.pendingMade ?? 0) + 1;
  // One a script sourced before it defines (`source ./lib.sh; f; rm u.ts`): its `cd` or `exec < f` holds for what follows.
  if (declared) {
    const known = new Map([...(walk.shared.declared ?? []), ...walk.shared.functions]);
    if (declaredChangesDirectory(name, known, walk.cwd, walk.home)) walk.cwd = undefined;
    const left = functionInputLeft(name, known);
    if (left !== undefined) walk.shellInput = left;
  }
}

/** A call of a shell function: its bodies read with the call's arguments; it runs in this shell. */
function runFunction(name: string, functions: FunctionBody[], argWords: Node[], here: Walk, walk: Walk, nested: Nested[], input?: string | null): void {
  callFunction(name, functions, { cwd: here.cwd, bound: walk.bound, positional: positionalOf(argWords, here), input }, walk, nested);
  // A `cd` in it leaves what follows in a place the text does not fix; an `exec < f` in it, an input the walk does not read.
  if (functionChangesDirectory(name, walk.shared.functions)) walk.cwd = undefined;
  const left = functionInputLeft(name, walk.shared.functions);
  if (left !== undefined) walk.shellInput = left;
  forgetBound(walk, functions.map(({ body }) => body).join("\n")); // and what it sets stays set
}

/** Whether a program's argument names a file it may write: path-like, or an entry there of that name (`Makefile`, `notes`). */
function programArgumentNames(arg: string, here: Walk): boolean {
  return isPathLike(arg) || (here.cwd !== undefined && /^[^-]/.test(arg) && !arg.includes("\0") && existsSync(join(here.cwd, arg)));
}

/**
 * A heredoc's text as the command reads it: in one whose delimiter is not quoted, each `$x` the text
 * fixes put in, and a HOLE for each it does not (`$f`, `$(…)`, `${x:-y}`).
 */
function expandedHeredoc(body: Node, walk: Walk): string {
  const text = heredocText(body, walk);
  if (text !== body.text) return text; // (one the reader set aside and put back: as it is)
  const parts = body.namedChildren.filter((part) => ["simple_expansion", "expansion", "command_substitution", "arithmetic_expansion"].includes(part.type));
  let out = text;
  for (const part of parts.reverse()) {
    const value = part.type === "command_substitution" ? undefined : wordValue(part, walk);
    out = out.slice(0, part.startIndex - body.startIndex) + (value ?? HOLE) + out.slice(part.endIndex - body.startIndex);
  }
  return out;
}

/** What a command reads on stdin, when the statement gives it literally: a heredoc's text or a `< file`. */
function stdinOf(statement: Node, walk: Walk): string | undefined {
  // The last one given wins, as bash applies them in order (`cat <<A <<B` reads B).
  let stdin: string | undefined;
  for (const child of statement.namedChildren) {
    if (child.type === "heredoc_redirect") {
      const body = child.namedChildren.find((part) => part.type === "heredoc_body");
      stdin = body === undefined ? undefined : expandedHeredoc(body, walk);
    }
    else if (child.type === "herestring_redirect") stdin = staticWord(child.namedChildren[0], walk);
    else if (child.type === "file_redirect" && child.children.some((part) => part.type === "<")) {
      const file = staticWord(child.childForFieldName("destination"), walk);
      const path = file && (walk.cwd !== undefined || isAbsolute(file)) ? resolve(walk.cwd ?? "/", file) : undefined;
      // A file the command wrote before it (`cp other.py x.py && python3 < x.py`): not what is on disk now.
      stdin = path === undefined || writtenBefore(walk, path) ? undefined : readText(path);
    }
  }
  return stdin;
}

/** `deno run - <<'EOF'`: a lone `-` before a heredoc's `<<`, which the grammar leaves out of the command. */
function dashBeforeHeredoc(node: Node): boolean {
  const parent = parentOf(node);
  const statement = parent?.type === "redirected_statement" ? parent : undefined;
  const heredoc = statement?.namedChildren.find((child) => child.type === "heredoc_redirect");
  return statement !== undefined && heredoc !== undefined && /^\s+-\s*$/.test(statement.text.slice(node.endIndex - statement.startIndex, heredoc.startIndex - statement.startIndex));
}

/** The input `exec` with no command gives the shell (`exec < f`, `exec 0< f`, `exec </dev/null`): "" for none, null for a stream; undefined for any other command. */
function execInput(node: Node, walk: Walk): string | null | undefined {
  // (Also `command exec < f` and `builtin exec < f`, as bash runs them.)
  const name = staticWord(node.childForFieldName("name"), walk);
  const words = node.childrenForFieldName("argument");
  const prefixed = (name === "command" || name === "builtin") && words[0] !== undefined && staticWord(words[0], walk) === "exec";
  if (name !== "exec" && !prefixed) return undefined;
  const args = prefixed ? words.slice(1) : words;
  // (`exec 0< f`: the grammar reads the 0 as an argument.)
  if (args.length > 1 || (args.length === 1 && !(args[0]?.type === "number" && args[0].text === "0"))) return undefined;
  const parent = parentOf(node);
  const statement = parent?.type === "redirected_statement" ? parent : STDIN_AT.get(node.id);
  let input: string | null | undefined;
  for (const child of [...node.namedChildren, ...(statement?.namedChildren ?? [])]) {
    const descriptor = child.childForFieldName("descriptor")?.text;
    if (descriptor !== undefined && descriptor !== "0") continue;
    if (child.type === "heredoc_redirect" || child.type === "herestring_redirect") input = null;
    else if (child.type === "file_redirect" && child.children.some((part) => part.type === "<" || part.type === "<&" || part.type === "<>")) {
      const destination = staticWord(child.childForFieldName("destination"), walk);
      input = destination === "/dev/null" || destination === "-" ? "" : null;
    }
  }
  return input;
}

/** Whether what the command reads on stdin is text the command gives: a heredoc or a here-string, not a file given with `<`. */
function literalInput(node: Node): boolean {
  const parent = parentOf(node);
  // (Or a list's, whose redirections are its last command's: STDIN_AT.)
  const statement = parent?.type === "redirected_statement" ? parent : STDIN_AT.get(node.id);
  const redirects = [...node.namedChildren, ...(statement?.namedChildren ?? [])];
  const inputs = redirects.filter((child) => child.type === "heredoc_redirect" || child.type === "herestring_redirect" || (child.type === "file_redirect" && child.children.some((part) => part.type === "<")));
  return inputs.length > 0 && inputs.every((child) => child.type !== "file_redirect");
}

/**
 * `echo 'select 1;' | sqlite3`: what the command before this one in a pipeline prints, where it is
 * echo or printf given only words the text fixes and printedBy reads (shell-words.ts, as crontab's
 * input is read); else undefined. A function of the line's own by that name prints what it will.
 */
function pipedText(node: Node, walk: Walk): string | undefined {
  const before = parentOf(node)?.type === "pipeline" ? node.previousNamedSibling : null;
  if (before?.type !== "command" || before.namedChildren.some((child) => child.type !== "command_name" && before.childrenForFieldName("argument").every((word) => word.id !== child.id))) return undefined;
  const name = staticWord(before.childForFieldName("name"), walk);
  if (name === undefined || walk.shared.functions.has(name)) return undefined;
  const words = before.childrenForFieldName("argument").map((word) => staticWord(word, walk));
  if (words.some((word) => word === undefined)) return undefined;
  return printedBy(name, words as string[]);
}

function redirect(node: Node, walk: Walk, nested: Nested[]): void {
  const destination = node.childForFieldName("destination");
  if (!destination || destination.type === "number") return;
  const operator = redirectionOperator(node);
  if (![">", ">>", ">|", "&>", "&>>", "<>", ">&"].includes(operator)) {
    // `<` reads and `>&2` duplicates; but what runs to name the file runs all the same:
    // `done < <(cmd)`, `cat < "$(cmd)"`, `exec 3< <(cmd)`.
    for (const substitution of destination.type === "process_substitution" || destination.type === "command_substitution" ? [destination] : substitutionsIn(destination)) visit(substitution, walk, nested);
    return;
  }
  // `> >(tee -a log)`: a pipe to the commands inside, which are read for what they write.
  if (destination.type === "process_substitution") return visit(destination, walk, nested);
  // bash expands a glob (`> b?txt`) or braces here too: to one file, or it refuses an ambiguous one.
  for (const path of wordValues(destination, walk) ?? []) if (path !== "-" || operator !== ">&") add(walk, path); // (`>&-` closes; `> -` writes a file named -)
}


/**
 * A command, read after its wrappers. What it hands back to read later (`eval '…'`, `bash -c`) is
 * read with the variables bound as they are here, not as they are when the whole line has been read.
 */
function command(node: Node, walk: Walk, nested: Nested[], stdin: string | undefined, piped: boolean): void {
  const start = nested.length;
  // What this command hands back runs as it runs, not before it: a file it reads is asked again of those before it alone (writtenBefore).
  const outerBefore = walk.shared.laterReadsBefore;
  if (walk.shared.laterReads === nested) walk.shared.laterReadsBefore = start;
  // After `exec < f`, a command with no input of its own reads the shell's (`exec < x.py; python3 manage.py shell`).
  const shellInput = walk.shellInput;
  if (shellInput !== undefined && stdin === undefined && !piped && !inputRedirected(node)) {
    if (shellInput === null) piped = true;
    else stdin = shellInput;
  }
  // (A window of a terminal it opens reads that terminal, none of this input: `tmux new -d python3 < x.py`.)
  const given = NEW_TERMINALS.test(staticWord(node.childForFieldName("name"), walk) ?? "") ? undefined : callerInput(node, stdin, piped);
  const input = execInput(node, walk);
  if (input !== undefined) walk.shellInput = input;
  try {
    readCommand(node, walk, nested, stdin, piped);
  } finally {
    // (One read inside another's words, a substitution, ran before it: what it handed back is before it too.)
    walk.shared.laterReadsBefore = outerBefore === undefined ? undefined : nested.length;
    for (const inner of nested.slice(start)) {
      inner.bound ??= new Map(walk.bound ?? []);
      // (Read later, when the line may have given the shell another: `f; exec </dev/null`. Not a
      // terminal's or another machine's: ssh's remote command reads its own.)
      if (!Object.hasOwn(inner, "input") && inner.terminal !== true && inner.remote !== true) inner.input = given;
    }
  }
}

/** The command's text with each `$name` inside braces the grammar splits in two (`{$old,…}`, `{a,$n.ts}`) written `${name}`; undefined when there is none. */
function gluedBraceVariables(node: Node): string | undefined {
  const parts = node.namedChildren;
  const cuts: number[] = [];
  for (let at = 0; at + 1 < parts.length; at++) {
    const [left, right] = [parts[at] as Node, parts[at + 1] as Node];
    if (left.endIndex !== right.startIndex || !left.text.endsWith("$") || /(^|[^\\])(\\\\)*\\\$$/.test(left.text) || !left.text.includes("{")) continue;
    if (/^[A-Za-z_]\w*/.test(right.text)) cuts.push(left.endIndex - node.startIndex);
  }
  if (cuts.length === 0) return undefined;
  let text = node.text;
  for (const cut of cuts.reverse()) {
    const name = (/^[A-Za-z_]\w*/.exec(text.slice(cut)) as RegExpExecArray)[0];
    text = `${text.slice(0, cut)}{${name}}${text.slice(cut + name.length)}`; // (after the `$`: `${name}`)
  }
  return text;
}

/**
 * The command's text with each unquoted variable whose one known value bash splits (at whitespace,
 * or at the characters of an IFS the script set) put in as the words it becomes; undefined when
 * there is none. Only plain values (no quotes, `$`, globs or operators) are put in, so the text read
 * again means what bash runs.
 */
function splitExpansions(node: Node, words: Node[], walk: Walk): string | undefined {
  const ifs = walk.ifs ?? " \t\n";
  if (ifs.includes(HOLE) || walk.bound === undefined) return undefined;
  const at = (character: string) => ifs.includes(character);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const written of words) {
    const word = written.type === "command_name" ? written.namedChildren[0] : written;
    for (const part of word?.type === "concatenation" ? word.namedChildren : word ? [word] : []) {
      // (A word the grammar left after a redirection outside the command's text is judged as written.)
      if ((part.type !== "simple_expansion" && part.type !== "expansion") || part.startIndex < node.startIndex || part.endIndex > node.endIndex) continue;
      const name = /^\$\{?(\w+)\}?$/.exec(part.text)?.[1];
      const values = name === undefined ? undefined : walk.bound.get(name);
      const value = values?.length === 1 ? (values[0] as string) : undefined;
      if (value === undefined || ![...value].some(at) || !/^[\w./@%+=:,~^ \t\n-]*$/.test(value)) continue;
      edits.push({ start: part.startIndex - node.startIndex, end: part.endIndex - node.startIndex, text: [...value].map((character) => (at(character) ? " " : character)).join("") });
    }
  }
  if (edits.length === 0) return undefined;
  let text = node.text;
  for (const { start, end, text: put } of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, start) + put + text.slice(end);
  return text;
}

function readCommand(node: Node, walk: Walk, nested: Nested[], given: string | undefined, piped: boolean): void {
  // A here-string the grammar keeps inside the command (`ed f <<< 'w g'`) is its stdin too.
  const herestring = node.namedChildren.find((child) => child.type === "herestring_redirect");
  const stdin = given ?? (herestring ? staticWord(herestring.namedChildren[0], walk) : undefined);
  for (const [link, target] of walk.shared.newLinks?.splice(0) ?? []) (walk.shared.links ??= new Map()).set(link, target);
  // Redirections written inside the command node (`echo hi > f` parses so in some positions).
  for (const child of node.namedChildren) if (child.type === "file_redirect") redirect(child, walk, nested);
  // `$(…)` and `<(…)` run wherever they stand: an argument, inside "…" or a longer word, an assignment.
  for (const substitution of substitutionsIn(node)) visit(substitution, walk, nested);
  const nameNode = node.childForFieldName("name");
  // A word with braces bash expands (`cp a.ts{,.bak}`) is the words it becomes, each an argument.
  const words = [nameNode, ...node.childrenForFieldName("argument"), ...wordsInRedirections(node)].filter((word): word is Node => word !== null).flatMap((word) => braceWords(word, walk) ?? [word]);
  for (const word of words) subscriptRuns(word, walk, nested);
  // `mv src/{$old,$new}.ts`: the grammar ends a word at `{$` after other text and starts another at
  // the name; bash expands the braces first, then each `$old`. Read again with `${old}`, which it parses whole.
  const glued = gluedBraceVariables(node);
  if (glued !== undefined) {
    nested.push({ script: glued, cwd: walk.cwd });
    return;
  }
  // `x="rm u.ts"; $x`, `x="r f"; rm -$x`, `IFS=,; x=rm,f; $x`: an unquoted variable is split into
  // words, the first of them the command where it is first: read again as those words.
  const resplit = splitExpansions(node, words, walk);
  if (resplit !== undefined) {
    nested.push({ script: resplit, cwd: walk.cwd });
    return;
  }
  const split = walk.bound?.get(/^\$\{?(\w+)\}?$/.exec(words[0]?.text ?? "")?.[1] ?? "");
  // `for c in "npm test" "npm run lint"; do $c; done`: each value the loop gives it, a few at most.
  if (split !== undefined && split.length > 1 && split.length <= 16 && split.every((value) => /^[^\0\u0001\u0002]*$/.test(value))) {
    for (const value of split) nested.push({ script: [value, ...words.slice(1).map((word) => word.text)].join(" "), cwd: walk.cwd });
    return;
  }
  let argv: Array<string | undefined> = words.map((word) => staticWord(word, walk));
  // An alias is its text, put in where its name is the command (`alias g=git; g checkout -- f`);
  // one whose text ends in a blank has the next word read as an alias too (`alias s="sudo "; s r f`).
  // bash expands only a word written plain, and not an alias again inside its own text: `alias
  // sudo="sudo "`, `alias rm="rm -i"` are `\sudo`, `\rm` here.
  const aliases = walk.shared.aliases;
  const aliasAt = (at: number) => aliases?.get(words[at]?.text ?? "");
  if (aliasAt(0) !== undefined) {
    const expanded: string[] = [];
    let at = 0;
    for (let value = aliasAt(0); value !== undefined && at < words.length; value = aliasAt(at)) {
      expanded.push(value.trimStart().split(/\s/)[0] === words[at]?.text ? `\\${value.trimStart()}` : value);
      at++;
      if (!/[ \t]$/.test(value)) break;
    }
    nested.push({ script: [...expanded, ...words.slice(at).map((word) => word.text)].join(" "), cwd: walk.cwd });
    return;
  }
  // `SIMPLE_BACKUP_SUFFIX=.bak cp -b a b`: the command's own variables (one the text does not fix is unknown).
  const environment: Environment = { ...walk.environment };
  for (const child of node.namedChildren) {
    if (child.type !== "variable_assignment") continue;
    const name = child.childForFieldName("name")?.text;
    const value = child.childForFieldName("value");
    if (name !== undefined) environment[name] = value ? staticWord(value, walk) : "";
  }
  // coproc runs its command in a subshell: `coproc cd /tmp` moves nothing after it.
  if (argv[0] === "coproc") walk = subshellOf(walk);
  // A subshell the grammar leaves inside a command (`time ( … )`, `coproc ( … )`) runs.
  for (const child of node.namedChildren) if (child.type === "subshell") visit(child, walk, nested);
  // `f() for …; done`, `f() while …`: a function whose body is a compound command other than a
  // group, which the grammar reads as a command `f` and an error: its body read here, as if called.
  if (node.namedChildren.some((child) => child.type === "ERROR" && /^\(\s*\)$/.test(child.text)) && compoundRead(words, 1, walk, nested)) return;
  // coproc [NAME] { cmd; } (or another compound command): see compoundRead.
  if (argv[0] === "coproc" && (compoundRead(words, 1, walk, nested) || compoundRead(words, 2, walk, nested))) return;
  // A function the script defines with a command's name (`git() { … }; git status`, `cd() { builtin
  // cd d; }`): bash runs the function, as for any other name (below), not the command.
  // (After the keywords `time` and `coproc` too, which run a function as a plain call does: `time npm test`.)
  const calledAt = argv[0] === "time" ? (argv[1] === "-p" ? 2 : 1) : argv[0] === "coproc" ? 1 : 0;
  const callee = argv[calledAt];
  const shadowing = callee === undefined ? undefined : walk.shared.functions.get(callee);
  if (shadowing !== undefined && shadowing.some((body) => body.stands !== true)) return runFunction(callee as string, shadowing, words.slice(calledAt + 1), walk, walk, nested, callerInput(node, stdin, piped));
  // One a script sourced before it defines (`source ./lib.sh; npm test`, lib.sh's `npm() { … }`),
  // read after the line: its call is made pending here, and the command read too (the text may
  // define it in a branch that does not run).
  const pended = shadowing === undefined && callee !== undefined && walk.shared.declared?.has(callee) === true;
  if (pended) pend(callee as string, { cwd: walk.cwd, bound: walk.bound, positional: positionalOf(words.slice(calledAt + 1), walk), input: callerInput(node, stdin, piped) }, walk);
  // `deno run -A -`, `bun run -`, `uv run -`, also after a wrapper: a program on stdin, read as `node -` reads one; a pipe, or a file it cannot read, could write any file.
  const fromInput = argv.some((arg) => arg !== undefined && /^(deno|bun|uv)$/.test(basename(arg))) ? stdinProgram(dashBeforeHeredoc(node) ? [...argv, "-"] : argv, words, (at) => wordValue(words[at], walk), stdin) : undefined;
  if (fromInput !== undefined) {
    if (stdin === undefined && (piped || inputRedirected(node))) add(walk, UNKNOWABLE);
    else nested.push({ script: fromInput.script, cwd: walk.cwd });
    if (fromInput.alone) return;
  }
  // Wrappers first: what they run is the command.
  const unwrapped = unwrap(argv, words, walk, { ...walk, environment }, nested);
  if (unwrapped === undefined) return;
  const { here } = unwrapped;
  // A command a wrapper or runner runs that the text does not name (`mise exec -- "$cmd"`, `nvm
  // exec "$cmd"`): any command, as after `sudo` (not `"$@"`, which unnamed reads from the arguments).
  if (unwrapped.words.length < words.length && unwrapped.argv.length > 0 && unwrapped.argv[0] === undefined && !/^"?\$\{?@\}?"?$/.test(unwrapped.words[0]?.text ?? "")) return add(here, UNKNOWABLE);
  argv = unwrapped.argv;
  words.splice(0, words.length, ...unwrapped.words);
  if (compoundRead(words, 0, here, nested, walk)) return;
  // A package runner's command may be a package name: `prettier@3`, `@biomejs/biome`, or one whose
  // command has another name (`@tailwindcss/cli@4`: tailwindcss).
  const name = ownEntry(PACKAGE_BINS, (argv[0] ?? "").replace(/(?<=.)@[^/]*$/, "")) ?? named(basename(argv[0] ?? "").replace(/^([^@]+)@.*$/, "$1"), argv[0] ?? "");
  // `/bin/r? f`: a glob bash expands to the command's path; which one, the text does not say.
  if (!name || (/[*?[]/.test(name) && name !== "[" && name !== "[[" && !/['"\\]/.test(words[0]?.text ?? ""))) return unnamed(words, here, walk, nested);
  const args = argv.slice(1);
  const argWords = words.slice(1);
  // A project scaffolder writes the whole directory it makes (here, with none or `.`).
  const scaffolded = scaffoldDirectory(name, args);
  if (scaffolded !== undefined) add(here, scaffolded === UNKNOWABLE ? UNKNOWABLE : anyUnder(directoryAt(here.cwd, scaffolded)));
  const values = (from: number[] | undefined = undefined) => {
    const out: string[] = [];
    const wanted = from && new Set(from); // (a list's includes for each word: the square of a long line's words)
    args.forEach((_, index) => {
      if (wanted && !wanted.has(index)) return;
      const word = argWords[index];
      const found = word && wordValues(word, here);
      if (found) out.push(...found);
    });
    return out;
  };
  // A word the text does not fix, as written: with a HOLE where it does not (shell-options.ts).
  const text = (index: number) => wordValue(argWords[index], here);
  const rule = ownEntry(RULES, name) ?? (COMPILER_NAME.test(name) ? RULES.cc : undefined);
  // Given a terminal, a program that runs commands typed into it later (shell-terminal.ts).
  if (here.shared.terminal && takesTypedCommands(name, args, text, stdin !== undefined || piped || inputRedirected(node), lessSecure(node, here.environment))) readsTerminal(here, name);
  // An editor it runs on a file of its own (`git commit` with no message, `crontab -e`): that command line, read in turn (shell-editors.ts).
  readEditor(name, args, text, here, nested);
  // A library the command has it load (`SSH_SK_PROVIDER=./sk.so ssh host`, `LD_PRELOAD=./x.so ls`): code the hook does not read.
  if (loadsNamedLibrary(here.environment)) add(here, UNKNOWABLE);
  // Options an interpreter reads from a variable the command sets, whose value the text does not fix (`NODE_OPTIONS="$x" npm test`): code the hook cannot read.
  if (unfixedCodeOptions(here.environment)) add(here, UNKNOWABLE);
  // And the code an OpenSSL config, or directory of engines or providers, the command sets has any program that uses the library load (`OPENSSL_CONF=./x.cnf curl …`).
  if (loadsOpensslCode(name, here)) add(here, UNKNOWABLE);
  // The askpass program an SSH_ASKPASS the command sets names (`SSH_ASKPASS=./p.sh ssh-add k`), which ssh runs with no terminal.
  const askpass = askpassRun(name, here.environment);
  if (askpass === UNKNOWABLE) add(here, UNKNOWABLE);
  else if (askpass !== undefined) nested.push({ script: askpass, cwd: here.cwd });
  // less's preprocessor a LESSOPEN the command sets names (`LESSOPEN='|./pre.sh %s' less f`), run through a shell.
  const preprocessors = lessPreprocessors(here.environment);
  if (preprocessors === UNKNOWABLE) add(here, UNKNOWABLE);
  else for (const line of preprocessors) nested.push({ script: line, cwd: here.cwd });
  // A program in a language the hook does not read, that an agent may have written (shell-unread-programs.ts).
  if (isUnreadRunner(name) && runsUnreadProgram(name, args, here.cwd, (path) => writtenBefore(here, path))) add(here, UNKNOWABLE);
  if ((name === "cargo" || name === "cross") && !walk.shared.functions.has(name) && runsUnreadCrate(args, here.cwd, (path) => writtenBefore(here, path))) add(here, UNKNOWABLE);
  // Its code given inline or on its input (`Rscript -e '…'`, `tclsh <<<'…'`, `echo '…' | lua`), unless plainly read-only.
  if (readsUnreadInline(name) && runsUnreadInline(name, args, piped || inputRedirected(node), literalInput(node) ? stdin : piped ? pipedText(node, here) : undefined, here.cwd, (path) => writtenBefore(here, path))) add(here, UNKNOWABLE);
  if (name === "cat" || name === "tee" || name === "echo" || name === "printf") noteText(node, name, args, stdin, here);
  // `shopt -s cdable_vars; cd d`: where ./d is no directory, bash goes to the one $d names: not known here.
  if (name === "cd" && args.length === 1 && /^[A-Za-z_]\w*$/.test(args[0] ?? "") && /\b(cdable_vars|BASHOPTS)\b/.test(here.shared.command ?? "") && (here.cwd === undefined || !isDirectory(join(here.cwd, args[0] as string)))) {
    walk.previous = walk.cwd;
    walk.cwd = undefined;
    return;
  }
  // `CDPATH=… cd q`: bash looks for q in CDPATH's directories first: where it lands is not known.
  if (name === "cd" && (environment.CDPATH || walk.bound?.has("CDPATH")) && args[0] !== undefined && !/^(\/|\.\.?(\/|$)|-$)/.test(args[0])) {
    walk.cwd = undefined;
    return;
  }
  // `HOME=$PWD/src cd`: a bare `cd` goes to the HOME it is given.
  if (name === "cd" && args.length === 0 && node.namedChildren.some((child) => child.type === "variable_assignment" && child.childForFieldName("name")?.text === "HOME")) {
    walk.previous = walk.cwd;
    walk.cwd = environment.HOME !== undefined && isAbsolute(environment.HOME) ? environment.HOME : undefined;
    return;
  }
  // `dirs -c` empties pushd's stack: a `popd` after it fails, and the shell stays.
  if (name === "dirs" && args.some((arg) => arg === undefined || /^-[a-z]*c/.test(arg))) walk.stack = [undefined];
  if (name === "cd" || name === "pushd" || name === "popd") return changeDirectory(name, args, walk, GUARDED.get(node.id) ?? GUARDED.get(statementOf(node)?.id ?? -1));
  // git -c alias.x='!cmd' x, and `git config alias.x '!cmd'` (run by a later `git x`): the alias
  // runs cmd in a shell, read here.
  if (name === "git") {
    // Asked once, not of every word: a line of 50,000 words after one `git` took seconds.
    const configures = args.includes("config");
    for (const [at, arg] of args.entries()) {
      if (args[at - 1] === "-c" && arg !== undefined && /^alias\.[^=]+=\s*!/.test(arg)) nested.push({ script: arg.slice(arg.indexOf("!") + 1), cwd: here.cwd });
      const value = args[at + 1];
      if (configures && arg !== undefined && /^alias\.[^=\s]+$/.test(arg) && value !== undefined && /^\s*!/.test(value)) nested.push({ script: value.slice(value.indexOf("!") + 1), cwd: here.cwd });
    }
  }
  // `bash <(curl …)`, `. <(cmd)`: a program read from a pipe the text does not give.
  const piping = (at: number | undefined) => at !== undefined && argWords[at]?.type === "process_substitution";
  if (SHELLS.includes(name)) {
    const reading = readOptions(args, SHELL, 0, text);
    const first = reading.operands[0];
    // BASH_ENV names a script a non-interactive bash runs first (`BASH_ENV=e.sh bash -c :`).
    if ("BASH_ENV" in here.environment && name === "bash") {
      const script = here.environment.BASH_ENV;
      if (script === undefined) add(here, UNKNOWABLE);
      else if (script !== "") runScript(script, true, here, nested, {});
    }
    if (reading.has("c")) {
      // bash -c 'script' name args: `$0` is the name, `$1` the first of the args.
      const script = first === undefined ? undefined : args[first];
      const zero = first === undefined ? undefined : args[first + 1];
      const bound = new Map([...(walk.bound ?? [])].filter(([key]) => key !== "0" && key !== "BASH_SOURCE"));
      if (zero !== undefined) bound.set("0", [zero]);
      if (script !== undefined) nested.push({ script, cwd: here.cwd, bound, positional: first === undefined ? [] : positionalOf(argWords.slice(first + 2), here) });
      else if (first !== undefined) add(here, UNKNOWABLE); // bash -c "$(curl …)"
    } else if (first === undefined || STDIN.test(args[first] ?? "") || reading.has("s")) {
      // The program comes on stdin: a heredoc or a file the hook reads is read in turn; a pipe
      // (`curl … | sh`), or a file it cannot read, runs commands it cannot see. (A command in it
      // that reads its input reads the rest of the script: a stream.)
      if (stdin !== undefined) nested.push({ script: stdin, cwd: here.cwd, input: null });
      else if (!reading.has("n", "--version", "--help")) (piped || inputRedirected(node) ? add : readsTerminal)(here, UNKNOWABLE);
    } else if (piping(first)) add(here, UNKNOWABLE);
    else if (!reading.has("n")) runScript(args[first], true, here, nested, { bound: new Map(), positional: positionalOf(argWords.slice(first + 1), here) });
    return;
  }
  if (OTHER_SHELLS.includes(name)) {
    // fish, csh, PowerShell…: their programs are not parsed; every path-like word is judged (shell-other.ts).
    const run = otherShellWrites(name, args, { stdin, piped, ...(here.cwd !== undefined && { cwd: here.cwd }) });
    for (const path of run.paths) add(here, path);
    const cwd = here.cwd;
    if (cwd !== undefined) for (const bare of run.names) if (existsSync(join(cwd, bare)) || here.shared.links?.has(join(cwd, bare))) add(here, bare);
    for (const script of run.scripts) nested.push({ script, cwd });
    for (const script of run.elsewhere ?? []) nested.push({ script, cwd: undefined });
    return;
  }
  if (name === "source" || name === ".") {
    // As `bash file`, in this shell: its functions and variables stay, and its `cd` leaves this one
    // in a place the text does not fix. A process substitution, or stdin, as bash reads them.
    if (piping(0)) add(here, UNKNOWABLE);
    else if (STDIN.test(args[0] ?? "") && args[0] !== "-") {
      if (stdin !== undefined) nested.push({ script: stdin, cwd: here.cwd, input: null });
      else add(here, UNKNOWABLE);
      if (stdin === undefined || CHANGES_DIRECTORY.test(outsideFunctions(stdin))) walk.cwd = undefined;
    } else if (argWords.length > 0) {
      const script = runScript(args[0], true, here, nested, argWords.length > 1 ? { positional: positionalOf(argWords.slice(1), here) } : {}, true);
      if (typeof script === "object" && sourcedChangesDirectory(script.text, here.cwd, walk.home)) walk.cwd = undefined;
      // (And an `exec < f` in it gives this shell an input the walk does not read: in its functions too, which it may call itself.)
      const input = typeof script === "object" ? shellInputLeft(script.text) : undefined;
      if (input !== undefined) walk.shellInput = input;
      if (typeof script === "object") declare(walk, functionsSourced(script.text, here.cwd, walk.home));
      forgetBound(walk, typeof script === "object" ? script.text : script === undefined ? "" : undefined);
    }
    return;
  }
  if (name === "trap") {
    // trap 'rm f' EXIT: the handler runs later in this shell, as eval would run it.
    const from = args[0] === "--" ? 1 : 0;
    const handler = args[from];
    if (argWords.length >= from + 2 && handler !== undefined && handler !== "-" && (from === 1 || !handler.startsWith("-"))) nested.push({ script: handler, cwd: here.cwd, ...(walk.bound ? { bound: walk.bound } : {}) });
    else if (argWords.length >= from + 2 && handler === undefined) add(here, UNKNOWABLE);
    return;
  }

  if (name === "mapfile" || name === "readarray") {
    // mapfile -C 'rm f;:' -c 1 a: the callback runs, as eval would run it, every quantum lines.
    const callback = mapfileCallback(args);
    if (callback === null) add(here, UNKNOWABLE);
    else if (callback !== undefined) nested.push({ script: callback, cwd: here.cwd, ...(walk.bound ? { bound: walk.bound } : {}) });
    return;
  }

  if (name === "alias" || name === "hash") {
    // alias r=rm (Claude Code's shell expands aliases), hash -p /bin/rm r: `r` runs what it names.
    const pairs: Array<[string, string]> = [];
    if (name === "alias") for (const arg of args) if (arg !== undefined && /^[^=\s]+=/.test(arg)) pairs.push([arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]);
    const path = args.indexOf("-p");
    if (name === "hash" && path !== -1 && args[path + 1] !== undefined && args[path + 2] !== undefined) pairs.push([args[path + 2] as string, shellQuoted(args[path + 1] as string)]);
    for (const [alias, value] of pairs) walk.shared.functions.set(alias, [{ body: `{ ${value} "$@"; }`, stands: true }]);
    if (name === "alias") for (const [alias, value] of pairs) (walk.shared.aliases ??= new Map()).set(alias, value);
    return;
  }
  if (name === "ln" || name === "link" || (name === "cp" && args.some((arg) => arg !== undefined && /^(-[a-zA-Z]*[ls][a-zA-Z]*|--link|--symbolic-link)$/.test(arg)))) noteLinks(name, args, argWords, here);
  if (name === "compgen") {
    // `compgen -C 'cmd' x` runs cmd for the words it completes, `-F f` the function f (also in a
    // script): cmd read as a line (with the word as its argument, not known here), f as called.
    for (let at = 0; at < args.length; at++) {
      const option = /^-[a-zA-Z]*([CF])$/.exec(args[at] ?? "")?.[1];
      if (option === undefined) continue;
      const value = args[at + 1];
      if (value === undefined) add(here, UNKNOWABLE);
      else if (option === "C") nested.push({ script: value, cwd: here.cwd });
      else if (walk.shared.functions.has(value)) runFunction(value, walk.shared.functions.get(value) as FunctionBody[], [], here, walk, nested);
      at++;
    }
  }
  if (name === "eval") {
    // eval 'rm f' is read as its line; eval "$x", eval "$(tool init)": code the text does not give,
    // unless the tool is one that prints variable settings and functions for a shell (ENVIRONMENT_SETUP).
    const words = args[0] === "--" ? args.slice(1) : args; // eval -- 'rm f'
    const known = words.every((arg) => arg !== undefined);
    const settings = !known && argWords.every((word, index) => args[index] !== undefined || printsEnvironment(word));
    if (known) nested.push({ script: words.join(" "), cwd: here.cwd });
    else if (!settings) add(here, UNKNOWABLE);
    forgetBound(walk, known ? words.join(" ") : undefined);
    // Run in this shell: its `cd` (`eval "cd /tmp"; rm f`) leaves this one in a place the text does not fix.
    if (known ? CHANGES_DIRECTORY.test(outsideFunctions(words.join(" "))) : !settings) walk.cwd = undefined;
    // And its `exec < f` gives this shell an input the walk does not read (`eval 'exec < x.py'; python3 manage.py shell`).
    const input = known ? shellInputLeft(words.join(" ")) : undefined;
    if (input !== undefined) walk.shellInput = input;
    if (known) declare(walk, functionsIn(words.join(" ")));
    return;
  }
  if (name === "xargs") {
    // The command runs with arguments read from xargs' input: read as that command with an operand
    // the text does not fix (or, with -I, with that operand in place of each word holding the
    // replacement). A shell or interpreter it runs is code the hook cannot see with those arguments.
    const reading = readOptions(args, XARGS, 0, text);
    const inner = args[reading.end];
    if (reading.end >= args.length) return; // echo
    // (`-I"$r"`: a replacement the text does not fix may be any part of any word.)
    const unfixedReplace = reading.occurrences("I").some(({ value }) => value === undefined) || reading.occurrences("i").some(({ value, text }) => value === undefined && text !== undefined);
    if (inner === undefined || unfixedReplace || SHELLS.includes(basename(inner)) || OTHER_SHELLS.includes(basename(inner)) || interpreterOf(basename(inner)) || ["eval", "source", "."].includes(basename(inner))) {
      add(here, UNKNOWABLE);
      return;
    }
    const replace = reading.has("I") ? reading.value("I") : reading.has("i") ? (reading.value("i") ?? "{}") : undefined;
    const texts = argWords.slice(reading.end).map((word) => word.text);
    const line = replace === undefined ? [...texts, INPUT] : texts.map((text) => (text.includes(replace) ? INPUT : text));
    nested.push({ script: line.join(" "), cwd: here.cwd });
    return;
  }
  // sqlite3's dot-commands and SQL: the files they write and the commands they run (its database: its rule).
  if (name === "sqlite3") {
    const sqlite = sqliteWrites(args, piped || inputRedirected(node), literalInput(node) ? stdin : piped ? pipedText(node, here) : undefined);
    for (const path of sqlite.paths) add(here, path);
    for (const script of sqlite.scripts) nested.push({ script, cwd: here.cwd });
  }
  // scp's and sftp's `-o ProxyCommand=…` (LocalCommand, KnownHostsCommand) and `-F`'s config: a
  // command line run here, read as ssh's is (shell-launchers.ts); their rules judge the rest (`-S`, `-D`: any file).
  if ((name === "scp" || name === "sftp") && rule !== undefined) {
    const reading = readOptions(args, rule.syntax, 0, text);
    const master = sshMaster(reading.values("o"), false);
    for (const option of reading.values("o")) sshOption(option, master, here, nested);
    for (const config of reading.values("F")) sshConfigRuns(config, here, nested, master);
  }
  // rsync's remote shell (`-e "ssh -F c.conf"`, RSYNC_RSH): run here with the host and rsync's
  // server command, so what its options run or write here is read as ssh's is.
  if (name === "rsync" && rule !== undefined) {
    const shells = [...readOptions(args, rule.syntax, 0, text).values("e"), ...(here.environment.RSYNC_RSH === undefined ? [] : [here.environment.RSYNC_RSH])];
    for (const shell of shells) {
      if (shell === undefined) add(here, UNKNOWABLE);
      else nested.push({ script: `${shell} host rsync --server .`, cwd: here.cwd });
    }
  }
  if (name === "find") return findCommand(args, argWords, here, nested);
  if (name === "fd" || name === "fdfind") return fdCommand(args, argWords, here, nested);
  // deno eval 'code': an inline program, read as node's is; with a part in its code the text does not fix (`deno eval "$x"`), any file.
  if (name === "deno" && args[0] === "eval") {
    const programs = args.flatMap((arg, at) => (at === 0 ? [] : (arg ?? (argWords[at] === undefined ? [] : (wordValue(argWords[at], here) ?? [])))));
    for (const path of programs.flatMap(pathsInProgram)) add(here, path, true);
    // Its program is its first operand; what follows it are the program's arguments (Deno.args).
    const program = programs.find((text) => !text.startsWith("-"));
    if (program !== undefined && unfixedCode(program)) add(here, UNKNOWABLE);
  }
  const launch = { name, args, words: argWords, here, stdin, piped, input: stdin !== undefined || piped || inputRedirected(node), nested, node };
  if (launches(launch) || readsWrapper(launch)) return;
  // (Not for what runs no task: its version, help, listings, a dry run.)
  if (name === "rake" && !walk.shared.functions.has(name) && !args.some((arg) => arg !== undefined && /^(-[VhHTPWnD]|--(version|help|tasks|prereqs|where|dry-run|describe))$/.test(arg))) {
    // Its Rakefile (and rakelib/*.rake) is ruby: read as `ruby Rakefile` is, where an agent may have written it (shell-program-runs.ts).
    const found = rakeFiles(args, here.cwd);
    if (found === UNKNOWABLE) add(here, UNKNOWABLE);
    else for (const file of found.files) nested.push({ script: `ruby ${shellQuoted(file)}`, cwd: found.directory });
    // A Rails application's Rakefile (`Rails.application.load_tasks`): its tasks are rails' own
    // (`rake db:migrate` is `rails db:migrate`), read by rails' rule whether or not the Rakefile is.
    const rakefile = found === UNKNOWABLE ? undefined : found.files[0];
    if (rakefile !== undefined && /\.load_tasks\b/.test(readText(rakefile) ?? "")) {
      for (const task of args) if (task !== undefined && /^[\w-]+(:[\w-]+)+$/.test(task)) nested.push({ script: `rails ${shellQuoted(task)}`, cwd: found === UNKNOWABLE ? undefined : found.directory });
    }
  }
  if (name === "nox" && !walk.shared.functions.has(name) && here.cwd !== undefined && !args.some((arg) => ["-l", "--list", "--list-sessions", "-h", "--help", "--version"].includes(arg ?? ""))) {
    // Its noxfile.py (`-f`, `--noxfile`) is python: read as `python3 noxfile.py` is, where an agent may have written it.
    const given = args.findIndex((arg) => arg === "-f" || arg === "--noxfile" || arg?.startsWith("--noxfile=") === true);
    const file = given === -1 ? join(here.cwd, "noxfile.py") : args[given]?.startsWith("--noxfile=") ? (args[given] as string).slice("--noxfile=".length) : args[given + 1];
    if (file === undefined) add(here, UNKNOWABLE);
    else if (given !== -1 || existsSync(file)) nested.push({ script: `python3 ${shellQuoted(resolve(here.cwd, file))}`, cwd: dirname(resolve(here.cwd, file)) });
  }
  if (name === "tox" && !walk.shared.functions.has(name)) {
    // The commands of the environments it runs, read in turn (shell-tox.ts); its own .tox/ is the rule's.
    const runs = toxRuns(args, text, here.cwd, (path) => writtenBefore(here, path), here.environment.TOXENV);
    if (runs === UNKNOWABLE) add(here, UNKNOWABLE);
    else nested.push(...runs);
  }
  if (MAKES.includes(name)) {
    // The recipes make would run, read in turn (shell-make.ts).
    const recipes = makeRecipes(args, argWords.map((_, at) => text(at) ?? ""), here.cwd, here.environment, (path) => writtenBefore(here, path));
    return recipes === UNKNOWABLE ? add(here, UNKNOWABLE) : void nested.push(...recipes);
  }
  // `uv run fix.py`, `nvm exec 20 node x.js`, `deno run gen.ts`: a program file, read as its
  // interpreter's; a runner with a rule of its own is judged by it too (deno's lock file).
  if (runsProgramFile({ name, args, argv0: argv[0], words: argWords, here, known: rule !== undefined || walk.shared.functions.has(name) }, nested) && rule === undefined) return;
  const interpreter = interpreterOf(name);
  if (interpreter) {
    // `curl … | python3`, `| node -`, `ruby <(curl …)`: a program the text does not give. A script
    // file, a heredoc, `-c '…'`, are read by the program alone, as before: not judged.
    const reading = readOptions(args, interpreter.syntax, 0, text);
    // `ruby -C dir`, `bun --cwd dir`, `zx --cwd dir`: the program runs from another directory, which its names are not read from: any file (not `.`).
    const moved = [...(interpreter === interpreterOf("ruby") ? reading.values("C") : []), ...(interpreter === interpreterOf("bun") || interpreter === interpreterOf("zx") ? reading.values("cwd") : [])];
    if (moved.some((directory) => directory === undefined || !/^\.\/?$/.test(directory))) add(here, UNKNOWABLE);
    // `python -m black .`: the module runs as the command of that name.
    const module = interpreter === interpreterOf("python") && reading.has("m") ? reading.value("m") : undefined;
    // (By its command's name where the module's is another: MODULE_COMMANDS.)
    if (module !== undefined && !isConsoleModule(module)) nested.push({ script: [ownEntry(MODULE_COMMANDS, module) ?? module, ...argWords.slice(reading.end).map((word) => word.text)].join(" "), cwd: here.cwd });
    // Its debugger or a console of its own (`python3 -m pdb x.py`, `perl -d x.pl`, `node inspect x.js`,
    // `python3 manage.py shell`: shell-terminal.ts), given a terminal, reads what is typed into it later.
    const typedConsole = interpreterConsole(name, args, reading);
    if (here.shared.terminal && typedConsole !== undefined && !(typedConsole === "input" && (stdin !== undefined || piped || inputRedirected(node)))) readsTerminal(here, name);
    const program = reading.operands[0];
    // A program given inline, or a heredoc or here-string one reads: each path-like string in it,
    // and the path-like arguments it is given (shell-programs.ts).
    const inline = inlineOptions(name).some((option) => reading.has(option));
    const fromStdin = module === undefined && (program === undefined || args[program] === "-" || args[program] === "/dev/stdin");
    // A program in a file an agent may have written (`python3 /tmp/fix.py`): read as an inline one
    // is, its arguments too (program-files.ts); `python3 -m fix`: a module of its own beside where
    // it runs (fix.py, fix/__main__.py), whose arguments are all the operands.
    const family = runsJavaScript(name) ? "node" : /^(python|pypy|ipython)/.test(name) ? "python" : "other";
    const given = module !== undefined ? moduleFile(module, here.cwd) : directoryAt(here.cwd, onlyValue(argWords[program as number], here));
    // `python3 -m pkg.mod` imports pkg first: pkg/__init__.py runs before mod (and `-m pkg`,
    // pkg/__main__.py, after pkg/__init__.py): each read as a program run here, its imports found
    // from here (python's path starts where it runs, not in the package); so is the module itself,
    // whose imports beside it are read below too.
    if (module !== undefined && family === "python" && here.cwd !== undefined) {
      const inPackage = module.includes(".") && given !== undefined && (existsSync(given) || writtenBefore(here, given)) ? [given] : [];
      for (const init of [...packageInits(module, given, here), ...inPackage]) nested.push({ script: `PYTHONPATH=${shellQuoted(here.cwd)} ${name} ${shellQuoted(init)}`, cwd: here.cwd });
    }
    // As the interpreter finds it: `node gen` is gen.js, `node .` the package's main, `python3 fix/` fix/__main__.py.
    const programPath = given === undefined || writtenBefore(here, given) ? given : (resolveProgram(given, family) ?? given);
    // A package's command run by its file (`node node_modules/.bin/tsc`, `node node_modules/typescript/bin/tsc`,
    // `node ./node_modules/esbuild/bin/esbuild …`): read as that command, by its name or its package's.
    const bin = family === "node" && !inline && !fromStdin && programPath !== undefined ? packageCommand(programPath) : undefined;
    if (bin !== undefined) nested.push({ script: [bin, ...argWords.slice((program as number) + 1).map((word) => word.text)].join(" "), cwd: here.cwd });
    // Django's manage.py: its command read as django-admin's, where manage.py is (shell-codegen-rules.ts).
    if (family === "python" && !inline && !fromStdin && programPath !== undefined && basename(programPath) === "manage.py") {
      const rest = argWords.slice((program as number) + 1).map((word) => word.text);
      // (`manage.py shell -c CODE` too: django-admin's rule reads CODE as `python3 -c CODE`, where manage.py is.)
      nested.push({ script: ["django-admin", ...rest].join(" "), cwd: dirname(programPath) });
    }
    // (What a project's own script writes, added once its text is read: a write to it first would make its code unknown.)
    const built: string[] = [];
    // A build script run with its commands: `python setup.py build|develop|sdist|bdist_wheel|build_ext
    // --inplace|install …` writes build/, dist/, *.egg-info and built extensions beside the sources:
    // anything under its directory (not `--help`, `--version`, `--name` and the like, which print).
    if (family === "python" && !inline && !fromStdin && programPath !== undefined && basename(programPath) === "setup.py") {
      const rest = args.slice((program as number) + 1);
      if (rest.some((arg) => arg === undefined || !/^(--?(help|h|version|name|fullname|author|author-email|maintainer|url|license|description|long-description|classifiers|keywords|platforms|provides|requires|obsoletes|contact|contact-email|help-commands|dry-run|n|quiet|q|verbose|v))$/.test(arg))) built.push(anyUnder(dirname(programPath)));
    }
    // Composer's bin files run by php (`php vendor/bin/phpunit --log-junit j.xml`): read as that command.
    const composerBin = /^php/.test(name) && !inline && !fromStdin && programPath !== undefined ? /\/vendor\/(?:bin|[^/]+\/[^/]+\/bin)\/([^/]+?)(?:\.php)?$/.exec(programPath)?.[1] : undefined;
    if (composerBin !== undefined && ownEntry(RULES, composerBin) !== undefined) nested.push({ script: [composerBin, ...argWords.slice((program as number) + 1).map((word) => word.text)].join(" "), cwd: here.cwd });
    // Laravel's artisan and Symfony's bin/console: their commands (make:*, migrate, key:generate,
    // vendor:publish, cache:clear, doctrine:migrations:diff…) write the app's sources, migrations,
    // configuration, .env and caches: anything under the project (artisan's directory, bin/'s
    // parent). Not those that only print (list, help, about, route:list, debug:*, lint:*…), nor tinker (shell-terminal.ts).
    if (/^php/.test(name) && !inline && !fromStdin && programPath !== undefined && (basename(programPath) === "artisan" || (basename(programPath) === "console" && basename(dirname(programPath)) === "bin"))) {
      const after = args.slice((program as number) + 1);
      // (Its command past its options and their values: `--env testing route:list`.)
      const command = after.find((arg, at) => (arg === undefined || !arg.startsWith("-")) && !/^--?(env|e)$/.test(after[at - 1] ?? ""));
      // (tinker's `--execute` runs its PHP: code the hook does not read.)
      if (command === "tinker" && after.some((arg) => arg === undefined || arg.startsWith("--execute"))) built.push(UNKNOWABLE);
      const prints = /^(list|help|about|env|inspire|completion|tinker|serve|route:list|schedule:list|event:list|channel:list|model:show|db:show|db:table|db:monitor|config:show|migrate:status|queue:monitor|debug:.*|lint:.*|router:match|secrets:list|server:.*|doctrine:migrations:(status|list|latest|current|up-to-date)|doctrine:schema:validate)$/;
      if (command !== undefined && !prints.test(command)) built.push(anyUnder(basename(programPath) === "artisan" ? dirname(programPath) : dirname(dirname(programPath))));
    }
    // (ruby's and perl's modules by their names, from the `-I` directories it gives: `ruby -Ilib x.rb` with `require 'w'`.)
    const loadPath = name === "ruby" || name === "perl" ? loadPathOf(name, reading, here) : {};
    const file = inline || fromStdin ? undefined : programText(programPath, here, loadPath);
    for (const path of built) add(here, path);
    // A program file the text does not fix at all (`python3 "$script"`, `node $(ls *.js | head -1)`):
    // code the hook cannot read, as `bash "$f"` is. One of a few the text gives (`for f in a.py
    // b.py; do python3 "$f"; done`): each read in turn, as the same command naming it. Not one in a
    // place the text does not fix (`python3 "$VIRTUAL_ENV/bin/pip"`, `node "$(npm root -g)/x/cli.js"`),
    // nor an installed program found by name (`node $(which tsc)`), which are not read, as before;
    // nor `-"$x"`, an option, read as each it may be.
    if (!inline && !fromStdin && module === undefined && program !== undefined && args[program] === undefined && given === undefined && !argWords[program]?.text.startsWith("-")) {
      const programs = wordValues(argWords[program] as Node, here);
      if (programs !== undefined && programs.length > 0 && programs.length <= 16 && programs.every((value) => !value.startsWith("\0"))) {
        for (const value of programs) nested.push({ script: [name, ...argWords.map((word, at) => (at === program ? shellQuoted(value) : word.text))].join(" "), cwd: here.cwd });
      } else if (wholeUnfixed(argWords[program]?.text ?? "")) add(here, UNKNOWABLE);
    }
    if (file === UNKNOWABLE) add(here, UNKNOWABLE);
    const fromFile = file !== undefined && file !== UNKNOWABLE ? file.text : undefined;
    // An inline program with parts the shell puts in that the text does not fix (`-c "open('$f','w')"`): with a HOLE for each.
    const inlineTexts = () => args.flatMap((arg, at) => arg ?? (argWords[at] !== undefined && !/\$\(|`/.test(argWords[at]?.text ?? "") ? (wordValue(argWords[at], here) ?? []) : []));
    // `python3 -m pdb x.py <<EOF`, `python3 manage.py shell <<EOF`: a debugger or console reads its commands, code, from its input.
    const consoleInput = typedConsole === "input";
    const texts = inline ? inlineTexts() : (fromStdin || consoleInput) && stdin !== undefined ? [stdin] : fromFile !== undefined ? [fromFile] : [];
    // A part the text does not fix in its code, not in a string (`-c "$x"`, `-e "f(); $more"`, an unquoted heredoc's `$code`): code the hook cannot read.
    // Only the program's own text: not its operands (`perl -pi -e s/a/b/ "$f"` edits the file "$f" names, judged as that file).
    const inlineCodes = () => inlineOptions(name).flatMap((option) => reading.occurrences(option)).flatMap(({ value, at, text }) => value ?? text ?? (at === undefined ? [] : (numberedWord(argWords[at], here) ?? [])));
    if (fromFile === undefined && (inline ? inlineCodes() : texts).some(unfixedCode)) add(here, UNKNOWABLE);
    // The modules a program given inline or on stdin loads from where it runs (`python3 -c 'import w'`, `node -e "require('./w')"`): read as a program file's own are.
    if (fromFile === undefined && here.cwd !== undefined) {
      for (const text of [...texts]) {
        const modules = moduleTexts(text, here.cwd, new Set(), here, loadPath);
        if (modules === UNKNOWABLE) add(here, UNKNOWABLE);
        else texts.push(...modules);
      }
    }
    // What ruby, perl and php load before it by their options (`ruby -r./w`, `perl -I. -Mw`, `php -d auto_prepend_file=w.php`): read as programs of their own.
    if (name === "ruby" || name === "perl" || name === "php") readLoads(optionLoads(name, reading, args.slice(0, reading.end), here), here, nested);
    // What node loads before the program (`-r ./x.js`, `--import`, NODE_OPTIONS'): read as the program is.
    if (family === "node") {
      for (const preload of preloadedFiles(reading, here.environment.NODE_OPTIONS)) {
        const path = directoryAt(here.cwd, preload);
        const loaded = programText(path === undefined || writtenBefore(here, path) ? path : (resolveProgram(path, "node") ?? path), here);
        if (loaded === UNKNOWABLE) add(here, UNKNOWABLE);
        else if (loaded !== undefined) texts.push(loaded.text);
      }
    }
    for (const path of texts.flatMap(pathsInProgram)) add(here, path, true);
    // The shell commands it runs that its text gives whole (`os.system("git checkout -- .")`), read as commands.
    // (A shell command in it reads a part the text does not fix as a variable unknown.)
    for (const lines of texts.map((text) => commandsInProgram(text.replaceAll(HOLE, "${__unfixed}")))) {
      if (lines === undefined) add(here, UNKNOWABLE);
      else for (const line of lines) nested.push({ script: line, cwd: here.cwd });
    }
    // A plain name a program that writes gives (`rmtree("src")`): what is here of that name, or a link the command made.
    const cwd = here.cwd;
    if (cwd !== undefined) for (const name of texts.flatMap(bareNames)) if (existsSync(join(cwd, name)) || here.shared.links?.has(join(cwd, name))) add(here, name, true);
    // And one it creates by name, there or not (`open('VERSION', 'w')`).
    for (const name of texts.flatMap(createdNames)) add(here, name, true);
    // Its arguments: a path as written, or what a variable stands for (`find -exec python3 -c … {} \;`:
    // find's files); after a program file's name, or after the `-` of one on stdin (`python3 - u.ts <<EOF`).
    // (Not a perl -n/-p one-liner that can only read the files it loops over and print: shell-programs.ts.)
    const filtersOnly = name === "perl" && inline && perlOnlyReads(args.slice(0, reading.end), [...reading.values("e"), ...reading.values("E")], reading.operands.map((at) => (args[at] !== undefined && !/[*?[]/.test(args[at] as string) ? [args[at] as string] : argWords[at] === undefined ? undefined : wordValues(argWords[at] as Node, here))), here.environment);
    const programArguments = filtersOnly ? [] : inline || (module !== undefined && fromFile !== undefined) ? reading.operands : fromFile !== undefined || (fromStdin && stdin !== undefined) ? reading.operands.slice(1) : [];
    for (const at of programArguments) {
      const arg = args[at];
      if (arg !== undefined && programArgumentNames(arg, here)) add(here, arg, true);
      else if (arg === undefined && argWords[at] !== undefined) for (const value of wordValues(argWords[at] as Node, here) ?? []) add(here, value, true);
    }
    // A program a substitution prints (`-c "$(cat gen.py)"`) is code the text does not give.
    if (inline && argWords.some((word, at) => args[at] === undefined && /\$\(|`/.test(word.text))) add(here, UNKNOWABLE);
    if (!reading.has(...interpreter.inline) && ((piped && (program === undefined || STDIN.test(args[program] ?? ""))) || piping(program))) add(here, UNKNOWABLE);
    // `| python3 manage.py shell`, `{ …shell; } < f`, a file written before it: commands the text does not give.
    else if (consoleInput && stdin === undefined && (piped || inputRedirected(node))) add(here, UNKNOWABLE);
    // With no program and nothing on its input, or asked to be (`python -i`), it reads its program
    // from the terminal: typed later (a Codex tty session's write_stdin), none of it in this text.
    else if (reading.has(...(interpreter.interactive ?? [])) || ((program === undefined || args[program] === "-") && !piped && stdin === undefined && !reading.has(...interpreter.inline))) readsTerminal(here, name);
  }
  if (rule === undefined) {
    const functions = walk.shared.functions.get(name);
    // (With its input: `f < x.py` runs f's commands on it.)
    const input = callerInput(node, stdin, piped);
    const call = { cwd: here.cwd, bound: walk.bound, positional: positionalOf(argWords, here), input };
    // A function's body, with the call's arguments (one defined later, in a script sourced before
    // this, is read at the end: Shared.pending); a script run by its path (`./build.sh`).
    if (functions !== undefined) return runFunction(name, functions, argWords, here, walk, nested, input);
    if ((argv[0] ?? "").includes("/")) {
      // A script run by its path: a shell's, read in turn; one whose `#!` names another language's interpreter, as that interpreter given the file.
      if (runScript(argv[0], false, here, nested, { bound: new Map(), positional: call.positional }) !== undefined) return;
      const path = directoryAt(here.cwd, argv[0]);
      // A runner named by the `#!` (`#!/usr/bin/env -S uv run --script`, `deno run`): its language's interpreter.
      const shebang = path === undefined ? undefined : shebangOf(path);
      const interpreter = shebang !== undefined && interpreterOf(shebang) ? shebang : shebang === "uv" ? "python3" : shebang === "deno" ? "node" : undefined;
      if (interpreter !== undefined) nested.push({ script: [interpreter, shellQuoted(path as string), ...argWords.map((word) => word.text)].join(" "), cwd: here.cwd });
      return;
    }
    if (/^[\w.:-]+$/.test(name) && !(pended && name === callee)) pend(name, call, walk);
    // A command the hook knows nothing of, or a wrapper given none of the subcommands its table
    // runs (`hatch env run -- rm u.ts`), may run the rest of its line (`bwrap --bind / / rm u.ts`,
    // `nsenter -t 1 -m rm u.ts`, `heroku local:run rm u.ts`, `entr -s 'rm u.ts'`): read as the
    // commands its arguments hold (commandsInArguments). Not one that only names commands as words
    // (`grep rm f`, `man rm`, `mc cp f s3/b/`): NAMES_COMMANDS.
    if (interpreter === undefined && !NAMES_COMMANDS.has(name) && !runsElsewhere(name, argWords, here)) {
      for (const inner of commandsInArguments(name, argWords, here, walk)) nested.push({ script: inner, cwd: here.cwd });
    }
  }
  // One with a rule that also runs a command its arguments hold (Rule.runsArguments).
  if (rule?.runsArguments === true && interpreter === undefined) for (const inner of commandsInArguments(name, argWords, here, walk)) nested.push({ script: inner, cwd: here.cwd });
  // One that runs a program file of the project (Rule.runsProgram): read as its interpreter given the file.
  const runs = rule?.runsProgram;
  const verb = runs === undefined ? -1 : args.findIndex((arg) => arg !== undefined && runs.after.includes(arg));
  // (The first program file after it, past options' values, `hardhat run --network sepolia x.ts`; else its first operand.)
  const operand = (at: number) => at > verb && (args[at] === undefined || !(args[at] as string).startsWith("-")) && !(runs?.valued ?? []).includes(args[at - 1] ?? "");
  const programFile = verb === -1 ? -1 : runs?.code !== undefined ? args.findIndex((_, at) => operand(at)) : ([/\.[cm]?[jt]sx?$/, /^[^-]/].map((shape) => args.findIndex((arg, at) => at > verb && (arg === undefined || shape.test(arg)))).find((at) => at !== -1) ?? -1);
  // (With `code`: an operand that names no file there is the code itself; one the text does not fix may be either.)
  const code = runs?.code !== undefined && programFile !== -1 && (args[programFile] === undefined || !existsSync(directoryAt(here.cwd, args[programFile]) ?? "")) ? runs.code : undefined;
  if (runs !== undefined && programFile !== -1) nested.push({ script: [runs.interpreter, ...(code === undefined ? [] : [code]), ...argWords.slice(programFile).map((word) => word.text)].join(" "), cwd: here.cwd });
  if (!rule) return;
  const before = walk.found.size;
  // `echo 'select 1' | psql`: what echo or printf gives it, read as a here-string's text.
  const stdinText = stdin ?? (piped ? pipedText(node, here) : undefined);
  const fed = stdinText === undefined && launch.input;
  const input = { args, reading: readOptions(args, rule.syntax, 0, text), values, stdin: stdinText, fed, walk: here, text };
  // The command lines it runs (Rule.runsLines), read in turn where it runs (or where the rule says).
  for (const line of rule.runsLines?.(input) ?? []) {
    if (line === undefined) add(here, UNKNOWABLE);
    else nested.push(typeof line === "string" ? { script: line, cwd: here.cwd } : line);
  }
  // A word that may be an option the text does not name (`sort -"$x" a`, `sort -u"$x" a`): what the
  // command writes given each option it may be too (`-o` with any value: any file).
  const written = rule.writes(input);
  const guessed = new Set(guessedArguments(args, rule.syntax, input.reading, text).flatMap((guess) => rule.writes({ ...input, ...guess, reading: readOptions(guess.args, rule.syntax, 0, guess.text) })));
  for (const path of [...written, ...[...guessed].filter((path) => !written.includes(path))]) add(here, path);
  // A package manager's own writes of package.json change its dependencies, not its scripts.
  // A mode, owner or attribute changed is no change of a script's text either (`chmod +x run.sh && ./run.sh`).
  // Nor is a virtual environment a tool makes a program an agent wrote (`python3 -m venv .venv && . .venv/bin/activate`).
  if (PACKAGE_MANAGERS.includes(name) || METADATA_COMMANDS.has(name) || makesEnvironment(name, args)) for (const path of [...walk.found].slice(before)) walk.shared.managed.add(path);
}

/**
 * A command whose name the text does not fix. `"$@"` with the arguments known (a script's
 * `"$@"` dispatch): those words, read as a command. The script's arguments (`"$1"`, `${1:-x}`,
 * `$*`): a command that could write anything. `$SUDO rm f`, `"$run" make`: the rest too, as a
 * command, when it starts with one the hook reads. `"$root/scripts/fix.sh"`: a shell script in a
 * place unknown. Any other (`"$EDITOR" f`) is not judged.
 */
function unnamed(words: Node[], here: Walk, walk: Walk, nested: Nested[]): void {
  const first = words[0]?.text ?? "";
  const all = walk.bound?.get("@");
  if (/^"?\$\{?@\}?"?$/.test(first) && all !== undefined && all.every((value) => !value.startsWith(UNKNOWN_MARK) && !value.startsWith(GLOB_MARK))) {
    nested.push({ script: [...all.map(shellQuoted), ...words.slice(1).map((word) => word.text)].join(" "), cwd: here.cwd, ...(walk.bound ? { bound: walk.bound } : {}) });
    return;
  }
  const variable = /^"?\$\{?(\w+)/.exec(first)?.[1];
  if (/^"?\$\{?([\d@*#]|[\d@*]:?[-=?+][^}]*)\}?"?$/.test(first) || (variable !== undefined && walk.fromArguments?.has(variable))) return add(here, UNKNOWABLE);
  const next = staticWord(words[1], here);
  if (next !== undefined && (ownEntry(RULES, basename(next)) !== undefined || SHELLS.includes(basename(next)) || walk.shared.functions.has(next) || next.includes("/") || [...MAKES, "npm", "pnpm", "yarn", "bun", "find", "xargs", "eval", "source", "."].includes(basename(next)))) {
    nested.push({ script: words.slice(1).map((word) => word.text).join(" "), cwd: here.cwd });
    return;
  }
  if (/\.(sh|bash|zsh|ksh)$/.test(first.replace(/["'}]/g, ""))) return add(here, UNKNOWABLE);
  // `"${c[@]}"` after `c=(rm u.ts)`: the array's words are the command.
  const array = /^"?\$\{(\w+)\[[@*]\]\}"?$/.exec(first)?.[1];
  const assigned = array === undefined ? undefined : new RegExp(`(^|[\\s;&|(])${array}=\\(([^)]*)\\)`).exec(rootOf(words[0] as Node).text)?.[2];
  if (assigned !== undefined) return void nested.push({ script: [assigned, ...words.slice(1).map((word) => word.text)].join(" "), cwd: here.cwd });
  // One the text does not assign so (`mapfile -t c < cmds`, `read -ra c`): the command and its arguments, none of which the text gives.
  if (array !== undefined) return add(here, UNKNOWABLE);
  // An unquoted expansion alone (`$CMD`, `$(echo rm f)`, `` `cat cmd` ``): bash splits its value
  // into the command and its arguments, none of which the text gives: it could write any file. So
  // with more words after it, for a substitution (`$(cat cmd) f`) or a variable the text sets to a
  // value it does not fix (`read -r c; $c f`, `c=$(cat cmd); $c f`); not one of the environment's
  // (`$EDITOR f`, judged below).
  const alone = words[0]?.type === "command_name" ? words[0].firstNamedChild : words[0];
  const split = alone?.type === "command_substitution" || (variable !== undefined && ["simple_expansion", "expansion"].includes(alone?.type ?? "") && setInText(variable, rootOf(words[0] as Node).text));
  if (alone && ["simple_expansion", "expansion", "command_substitution"].includes(alone.type) && (words.length === 1 || split)) return add(here, UNKNOWABLE);
  // `$SHELL -c 'script'`, `"$BASH" -c …`: a shell's script.
  const script = staticWord(words[2], here);
  if (variable !== undefined && /SH$|SHELL/i.test(variable) && staticWord(words[1], here) === "-c" && script !== undefined) {
    nested.push({ script, cwd: here.cwd });
    return;
  }
  // A command the text does not name (`"$c" f`, `${tool} f`) could be one that writes its arguments: each is judged as written.
  for (const word of words.slice(1)) for (const value of wordValues(word, here) ?? []) add(here, value);
}

/**
 * Python modules run as commands whose command has another name: `-m build` is pypa/build's
 * pyproject-build (`build` alone names a package's script), `-m PyInstaller` pyinstaller, `-m yt_dlp`
 * yt-dlp, `-m mypy.stubgen` stubgen.
 */
const MODULE_COMMANDS: Record<string, string> = { build: "pyproject-build", PyInstaller: "pyinstaller", yt_dlp: "yt-dlp", youtube_dl: "youtube-dl", "mypy.stubgen": "stubgen" };

/**
 * The command a file in node_modules is, when a rule reads it: `.bin/NAME`, or a file anywhere in a
 * package (`bin/ng.js`, `lib/tsc.js`, `dist/esm/bin.mjs`) by its name or its package's (a scoped
 * one's name, `@angular/cli`, by the command it installs: PACKAGE_BINS).
 */
function packageCommand(path: string): string | undefined {
  const match = /\/node_modules\/(?:\.bin\/([^/]+)|((?:@[^/]+\/)?[^/]+)\/(?:[^/]+\/)*?([^/]+?)(?:\.[cm]?[jt]s)?)$/.exec(path);
  if (match === null) return undefined;
  const [, bin, pkg, file] = match;
  const named = pkg === undefined ? undefined : (ownEntry(PACKAGE_BINS, pkg) ?? pkg.replace(/^@[^/]+\//, ""));
  return [bin, file, named].find((name) => name !== undefined && !["index", "cli", "bin", "main"].includes(name) && ownEntry(RULES, name) !== undefined);
}

/**
 * Commands with no rule that take a command's name, or a line of text, as data: their arguments
 * are no command they run (`grep -n rm u.ts`, `echo "rm u.ts"`, `man rm`, `pkill -f "node x"`),
 * and MinIO's client, whose `cp` and `rm` are its own (`mc cp dist/x s3/b/`; the other cloud storage
 * clients have rules: shell-data-rules.ts).
 */
const NAMES_COMMANDS = new Set(
  ("echo printf grep egrep fgrep zgrep rg ag ack ugrep git-grep man info tldr help which whereis whatis apropos type compgen complete " +
    "bind declare typeset local export readonly unset set shopt test [ [[ let expr read return exit shift logger notify-send wall " +
    "cat less more most bat batcat head tail wc ls exa eza lsd tree stat file diff colordiff delta cmp comm cut tr nl od hexdump xxd strings " +
    "basename dirname realpath readlink jq gron column look tac rev fold fmt md5sum sha1sum sha224sum sha256sum sha384sum sha512sum " +
    "b2sum cksum sum base64 base32 basenc pgrep pkill kill killall ps pidof pstree lsof fuser du df whoami id date sleep true false : yes " +
    "seq printenv locate plocate mlocate fzf sk tput clear reset history fc jobs fg bg disown wait ulimit umask getopts caller " +
    "mc")
    .split(" "),
);

/**
 * Whether an unknown command runs the line it is given on another machine, whose files no claim
 * here covers: `heroku run rm -rf tmp` (a dyno; not `heroku local:run`, which runs here), fly's
 * `ssh console -C "…"`, `console` and `machine exec` (not its other verbs: `fly mcp wrap -- cmd`
 * runs here), `mosh host -- …` (as `ssh host …` is). Not read as commands run here. Not pdsh or
 * clush, whose exec module runs each host's line here (`pdsh -R exec`), nor a VM or container
 * sharing this machine's files by default (`vagrant ssh -c`, whose /vagrant is the project).
 */
function runsElsewhere(name: string, words: Node[], here: Walk): boolean {
  if (name === "mosh") return true;
  if (name !== "heroku" && name !== "fly" && name !== "flyctl") return false;
  const verbs = words.map((word) => staticWord(word, here)).filter((value) => value === undefined || !value.startsWith("-"));
  const [verb, next] = verbs;
  if (verb === undefined) return false;
  if (name === "heroku") return verbs.every((value) => value !== undefined && !/^local(:|$)/.test(value)); // (`heroku -a web local:run`)
  return verb === "ssh" || verb === "console" || (/^(machine|machines|m)$/.test(verb) && next === "exec");
}

/** The name a command is read by: a program's other name as the program (programAlias), where it is the installed one (a bare name, or a path of the system's), not a script of the project's that happens to be called `editor`. */
function named(name: string, written: string): string {
  return !written.includes("/") || /^\/(usr\/(local\/)?|opt\/homebrew\/)?s?bin\//.test(written) ? programAlias(name) : name;
}

/**
 * The ruby files `rake` loads and where it runs their tasks: `-f`'s (`--rakefile`) from where it
 * runs (`-C`'s directory), else the Rakefile found from there up, in its own directory; with the
 * rakelib/*.rake of that directory. UNKNOWABLE for a file or directory the text does not fix.
 */
function rakeFiles(args: Array<string | undefined>, cwd: string | undefined): { files: string[]; directory: string } | typeof UNKNOWABLE {
  const valueOf = (short: string, long: string): string | undefined | null => {
    for (let at = 0; at < args.length; at++) {
      const arg = args[at];
      if (arg === short || arg === long) return args[at + 1] ?? null;
      if (arg?.startsWith(`${long}=`)) return arg.slice(long.length + 1);
      if (arg?.startsWith(short) && arg.length > short.length && !arg.startsWith("--")) return arg.slice(short.length);
    }
    return undefined;
  };
  const moved = valueOf("-C", "--directory");
  if (moved === null || cwd === undefined) return UNKNOWABLE;
  const start = moved === undefined ? cwd : resolve(cwd, moved);
  const rakelib = (dir: string) => {
    try {
      return readdirSync(join(dir, "rakelib")).filter((entry) => entry.endsWith(".rake")).map((entry) => join(dir, "rakelib", entry));
    } catch {
      return [];
    }
  };
  const given = valueOf("-f", "--rakefile");
  if (given === null) return UNKNOWABLE;
  if (given !== undefined) return { files: [resolve(start, given), ...rakelib(start)], directory: start };
  const found = nearestFile(start, (names) => ["rakefile", "Rakefile", "rakefile.rb", "Rakefile.rb"].find((name) => names.includes(name)));
  return found === undefined ? { files: [], directory: start } : { files: [found, ...rakelib(dirname(found))], directory: dirname(found) };
}

/** make by its names: GNU's (gmake as BSDs install it), and the makes read as GNU make is (bmake, remake, colormake, mingw32-make). */
const MAKES = ["make", "gmake", "bmake", "remake", "colormake", "mingw32-make"];

/** A verb of a package manager or a tool's catalogue: what follows names packages, not a command it runs. */
const PACKAGE_VERBS = /^(install|i|add|remove|uninstall|upgrade|update|search|info|show|list|ls|outdated|download|fetch|get|completion|completions|help)$/;

/** The most command lines read from one unknown command's arguments. */
const COMMANDS_IN_ARGUMENTS = 4;

/**
 * The command lines an unknown command's arguments may hold: from each argument that names a
 * command the hook reads (a rule's, a shell, an interpreter, a wrapper, a function of the script;
 * by its base name, `/bin/rm`) with an operand after it (`bwrap --bind / / rm f`, `nsenter -t 1 -m
 * rm f`; several, as an option's value may name one too: `--chuid git --exec /bin/rm`), and each
 * argument that is a whole line starting with one after a word that says it runs one (RUNS_A_LINE:
 * `sops exec-env f 'rm f'`). Not its first word that is no option, its subcommand (`pass rm "$e"`,
 * `ollama rm m`, `mocha -g rm t.js`), unless written as a path, after
 * `--`, after a word that says a command follows (`--exec make`), or the command one of
 * RUN_THEIR_FIRST runs (`entr rm f`); where a command so plainly follows, also one given no operand
 * and a program run by its path (`bear -- make -j8`, `noti ./x.sh`), and a line given in the
 * option's own word (`--onSuccess='rm f'`). After a package manager's verb among its first two
 * (`brew install make cmake`, `uv pip install black ruff`), only what follows `--` (`pueue add --
 * rm f`).
 */
function commandsInArguments(name: string, words: Node[], here: Walk, walk: Walk): string[] {
  const reads = (word: string | undefined) => {
    if (word === undefined || word === "") return false;
    const command = basename(word);
    return ownEntry(RULES, command) !== undefined || SHELLS.includes(command) || OTHER_SHELLS.includes(command) || interpreterOf(command) !== undefined || ownEntry(WRAPPERS, command) !== undefined || walk.shared.functions.has(word) || [...MAKES, "find", "xargs"].includes(command);
  };
  // Where a command plainly follows: after `--`, after a word that says one does (`--exec`, `-c`,
  // `--onSuccess`), or the first operand of one that runs its first (RUN_THEIR_FIRST). There, a
  // command given only options runs all the same (`bear -- make -j8`: the Makefile's first target;
  // not a shell or an interpreter, which alone reads a terminal), and a program of the project's
  // may be run by its path (`noti ./x.sh`: an executable file there). Elsewhere a word that names
  // a command is data as often as not (`brew info make`, `shellcheck ./x.sh`): read only with an
  // operand after it (`bwrap --bind / / rm f`).
  const plainly = (at: number) => values[at - 1] === "--" || RUNS_A_LINE.test(values[at - 1] ?? "") || (RUN_THEIR_FIRST.has(name) && at === first);
  const needsOperand = (word: string) => {
    const command = basename(word);
    return SHELLS.includes(command) || OTHER_SHELLS.includes(command) || interpreterOf(command) !== undefined;
  };
  const values = words.map((word) => staticWord(word, here));
  const dashdash = values.indexOf("--");
  const operands = values.flatMap((value, at) => (value === undefined || !value.startsWith("-") ? [at] : []));
  const first = operands[0] ?? -1;
  // (Its verb first or second: `brew install`, `uv pip install black ruff`, `gh extension install`.)
  const from = operands.slice(0, 2).some((at) => PACKAGE_VERBS.test(values[at] ?? "")) ? (dashdash === -1 ? words.length : dashdash + 1) : 0;
  const found: string[] = [];
  // Whether a word before this one says a line follows (kept as it goes: a line of 50,000 words is read once).
  let lineSaid = values.slice(0, from).some((before) => RUNS_A_LINE.test(before ?? "") || (name === "entr" && before === "-s"));
  // (One that runs its first operand may be given it as a line: `watchfiles 'python main.py' src`.)
  const firstLine = RUN_THEIR_FIRST.has(name) ? first : -1;
  for (let at = from; at < words.length && found.length < COMMANDS_IN_ARGUMENTS; at++) {
    const value = values[at];
    if (at > from) lineSaid ||= RUNS_A_LINE.test(values[at - 1] ?? "") || (name === "entr" && values[at - 1] === "-s");
    if (value === undefined) continue;
    // (Not after an option that says a command follows: `watcher --exec make`.)
    const subcommand = at === first && !RUN_THEIR_FIRST.has(name) && (dashdash === -1 || dashdash > at) && !value.includes("/") && !RUNS_A_LINE.test(values[at - 1] ?? "");
    // With an operand to run on (`starship init bash --print-full-init`, `zoxide init bash` name a shell, and run none).
    const operandAfter = () => {
      for (let next = at + 1; next < values.length; next++) if (values[next] === undefined || !(values[next] as string).startsWith("-") || /^-[a-z]*c$/.test(values[next] as string)) return true;
      return false;
    };
    const command = reads(value) || (plainly(at) && value.includes("/") && runnable(directoryAt(here.cwd, value)));
    if (!subcommand && command && ((plainly(at) && !needsOperand(value)) || operandAfter())) found.push(words.slice(at).map((each) => each.text).join(" "));
    // `--onSuccess='cmd'`, `--exec=make`: a line given in the option's own word.
    const attached = /^(--?[\w.-]+)=(.+)$/s.exec(value);
    if (attached !== null && RUNS_A_LINE.test(attached[1] as string)) {
      const given = (attached[2] as string).trim();
      const head = given.split(/\s+/)[0];
      if (reads(head) || (head !== undefined && head.includes("/") && runnable(directoryAt(here.cwd, head)))) found.push(given);
    }
    // A line after a word that says it runs one, not a message that reads as one (`say "rm f"`, `mail -s "rm f"`).
    const line = value.trim();
    if ((lineSaid || at === firstLine) && /\s/.test(line) && reads(line.split(/\s+/)[0])) found.push(line);
  }
  return found;
}

/**
 * Commands the hook has no rule for whose first operand is the command they run, not a subcommand
 * of theirs: a watcher (entr), a cache or socket shim (nocache, proxychains, torsocks), a queue
 * (tsp, nq, GNU parallel's sem), a session or crash helper (dbus-launch, catchsegv), a single
 * instance's (run-one), another user's (please), another architecture's (macOS's `arch -x86_64
 * cmd`, `arch -arch x86_64 cmd`: its value read as no command, the command after it is), an
 * environment's or secrets' loader (env-cmd, summon, with-venv), a line editor's (rlwrap), a fake
 * root's (fakechroot), a cluster's job step or batch job (Slurm's srun and salloc, LSF's bsub,
 * ibrun, prun), a VM sharing the home directory (lima, OrbStack's orb), a build's recorder or
 * analyzer (bear, scan-build, intercept-build, compiledb), a notifier or profiler (noti, heaptrack),
 * a compiler farm's (icecc), a secrets injector (vault-env), a profiler (austin), a watcher
 * (watchfiles: its first operand a line), a terminal (xterm, kitty, alacritty, konsole, foot,
 * urxvt: `-e cmd` or the command itself). (start-server-and-test: shell-task-runners.ts.)
 */
const RUN_THEIR_FIRST = new Set(["entr", "nocache", "proxychains", "proxychains4", "torsocks", "tsocks", "tsp", "nq", "sem", "dbus-launch", "catchsegv", "run-one", "run-this-one", "keep-one-running", "please", "arch", "env-cmd", "summon", "with-venv", "rlwrap", "fakechroot", "srun", "lima", "orb", "bear", "scan-build", "intercept-build", "compiledb", "noti", "heaptrack", "icecc", "vault-env", "bsub", "salloc", "ibrun", "prun", "austin", "watchfiles", "xterm", "kitty", "alacritty", "konsole", "foot", "urxvt"]);

/**
 * A word before a command line an unknown command runs: an option that gives one (`-c`, `--exec`),
 * a hook's (`tsc-watch --onSuccess 'cmd'`, `--on-change`, `air --build.cmd make`, `sbatch --wrap
 * 'cmd'`), or a verb that executes one (`exec-env`).
 */
const RUNS_A_LINE = /^(-c|--(command|cmd|exec|execute|run|shell|sh|wrap|on[-A-Z][\w-]*|[\w.-]*[.-]cmd)(=.*)?|([\w-]*[-:])?exec(-[\w-]*)?)$/;

/**
 * Whether a word is wholly a part the shell puts in (`"$script"`, `${1}`, `"${f:-x.py}"`,
 * `$(ls *.py | head -1)`), not a path with a part of it unfixed, nor an installed program looked up
 * by name (`$(which tsc)`, `$(command -v pip)`, `$(yarn bin)`).
 */
function wholeUnfixed(text: string): boolean {
  const word = /^"(.*)"$/s.exec(text)?.[1] ?? text;
  if (/^\$(\w+|[0-9@*#?!$-]|\{[^}]*\})$/.test(word)) return true;
  const inner = /^\$\((.*)\)$/s.exec(word)?.[1] ?? /^`(.*)`$/s.exec(word)?.[1];
  return inner !== undefined && !/^\s*(which|command\s+-v|type\s+-[pP]|whereis|(yarn|npm|pnpm)\s+(bin|root))\b/.test(inner);
}

/** Whether a script sets the variable: an assignment (`c=…`, `export c=…`), `read`, `mapfile`, `printf -v`, a `for` loop's. */
function setInText(name: string, text: string): boolean {
  return new RegExp(`(^|[\\s;&|(])${name}\\+?=|\\b(read|mapfile|readarray)\\b[^;&|\\n]*\\s${name}(?=[\\s;&|)]|$)|\\bprintf\\s+-v\\s*${name}\\b|\\b(for|select)\\s+${name}\\b`, "m").test(text);
}

/** A reserved word that opens a compound command (the grammar may join `{ {` into one word). */
const COMPOUND = /^(\{|if|for|while|until|case|select|function)(\s|$)/;

/**
 * `! { rm f; }`, `time if …; then rm f; fi`, `! ! for …`, `coproc N { …; }`: bash reads a compound
 * command after `!`, `time` or `coproc`; the grammar, a command named `{`, `if`, `for`… with the
 * rest of the compound as other commands (`then rm f`, `}`). When `words[at]` is such a word, the
 * compound's text (to its closing word, compoundEnd) is read again as a script of its own, which
 * the grammar reads as bash does. What it does to the place of `shell` (the walk it runs in) the
 * walk there did not see: after one that names `cd`, `pushd` or `popd`, the place is unknown.
 */
function compoundRead(words: Node[], at: number, walk: Walk, nested: Nested[], shell: Walk = walk): boolean {
  const word = words[at];
  const plain = word?.type === "command_name" ? word.firstNamedChild : word; // (unquoted: `"if"` is a command's name)
  if (word === undefined || plain?.type !== "word" || !COMPOUND.test(word.text)) return false;
  const root = rootOf(word);
  const rest = root.text.slice(word.startIndex - root.startIndex);
  const script = rest.slice(0, compoundEnd(rest));
  nested.push({ script, cwd: walk.cwd });
  if (/(^|[\s;&|({\\])(cd|pushd|popd)(?=[\s;&|)}]|$)/.test(script)) shell.cwd = undefined;
  return true;
}

/** Words that open and close the compound commands COMPOUND opens. */
const CLOSERS: Record<string, { opens: RegExp; closes: string }> = {
  "{": { opens: /^\{$/, closes: "}" },
  if: { opens: /^if$/, closes: "fi" },
  case: { opens: /^case$/, closes: "esac" },
  for: { opens: /^(for|while|until|select)$/, closes: "done" },
  function: { opens: /^\{$/, closes: "}" },
};

/**
 * Where the compound command `text` starts with ends: after the word that closes its opening
 * word, counting those nested in it (quotes skipped, each `$(…)`'s and `${…}`'s text taken as it
 * comes); the whole text where no such word is found (then the rest of the script is read twice).
 */
function compoundEnd(text: string): number {
  const first = /^\S+/.exec(text)?.[0] ?? "";
  const kind = first.startsWith("{") ? "{" : /^(while|until|select)$/.test(first) ? "for" : first;
  const { opens, closes } = CLOSERS[kind] ?? { opens: /^$/, closes: "" };
  let depth = 0;
  const words = /'[^']*'|"(?:\\[\s\S]|[^"\\])*"|\\[\s\S]|\$[({]|[^\s;&|()'"\\]+|[\s\S]/g;
  for (let match = words.exec(text); match !== null; match = words.exec(text)) {
    const token = match[0];
    if (opens.test(token) || (kind === "{" && token === "${")) depth++;
    else if (token === closes || (kind === "{" && token.startsWith("}") && token !== closes && /^}+$/.test(token))) {
      depth -= token.length > 1 && kind === "{" ? token.length : 1;
      if (depth <= 0) return match.index + token.length;
    }
  }
  return text.length;
}

function rootOf(node: Node): Node {
  return node.tree.rootNode;
}


/** Whether a loop's body may set its variable itself: `f=…`, `f+=…`, `read f`, `mapfile f`, `printf -v f`, `let f=…`, an inner `for f`, `select f`, `getopts … f`. */
function setsVariable(name: string, body: string): boolean {
  return new RegExp(`(^|[^\\w])(${name}\\+?=|(read|mapfile|readarray)\\b[^;&|\\n]*\\b${name}\\b|printf\\s+-v\\s*${name}\\b|(for|select)\\s+${name}\\b|getopts\\s+\\S+\\s+${name}\\b)`).test(body);
}

/**
 * `rm 2>/dev/null u.ts`, `find . 2>/dev/null -delete`: the grammar reads the words after a
 * redirection's target as more targets of it; bash, as the command's arguments (in order, after
 * those before the redirection).
 */
function wordsInRedirections(command: Node): Node[] {
  const statement = statementOf(command);
  // (After a heredoc's start the grammar nests them in it: `rm <<EOF 2>/dev/null u.ts`.)
  const redirections = [...command.namedChildren, ...(statement?.namedChildren ?? [])]
    .flatMap((child) => (child.type === "heredoc_redirect" ? child.namedChildren : [child]))
    .filter((child) => child.type === "file_redirect");
  return redirections.flatMap((redirection) => {
    const pipe = pipedOn(redirection);
    return redirection.childrenForFieldName("destination").slice(1).filter((word) => pipe === undefined || word.startIndex < pipe.startIndex);
  });
}

/** In a redirection nested in a heredoc's start, a `|` the grammar leaves an error (`cat <<EOF 2>&1 | tee f`): the command piped to follows it. */
function pipedOn(redirection: Node): Node | undefined {
  // (also inside its target's word: `2>&1|tee f` is a concatenation of `1`, the error and `tee`)
  for (const child of redirection.namedChildren) {
    if (child.type === "ERROR" && /^\|&?$/.test(child.text.trim())) return child;
    const inner = child.type === "concatenation" ? pipedOn(child) : undefined;
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** The command and process substitutions within a node's words (not those nested in them: visiting one reads its own). */
function substitutionsIn(node: Node): Node[] {
  return node.namedChildren.flatMap((child) => (child.type === "command_substitution" || child.type === "process_substitution" || hidesSubstitution(child) ? [child] : substitutionsIn(child)));
}

/**
 * mapfile's `-C` callback (`-C cb`, `-Ccb`, in a cluster `-tC cb`): undefined where there is none,
 * null where the text does not fix it (a variable).
 */
function mapfileCallback(args: Array<string | undefined>): string | null | undefined {
  let callback: string | null | undefined;
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined || arg === "--" || !arg.startsWith("-") || arg === "-") break; // (a word the text does not fix: the array's name)
    for (let index = 1; index < arg.length; index++) {
      const option = arg[index] as string;
      if (!"dnOsucC".includes(option)) continue;
      const value = index + 1 < arg.length ? arg.slice(index + 1) : args[++at];
      if (option === "C") callback = value ?? null; // `-C "$cb"`: a callback the text does not fix
      break;
    }
  }
  return callback;
}

/** `${x:-`rm f`}`, `${x/`rm f`/}`, `${x:-<(rm f)}`: an expansion whose operand the grammar leaves a word or a pattern though it holds a substitution bash runs (visit reads it). */
function hidesSubstitution(node: Node): boolean {
  return node.type === "expansion" && /`|[<>]\(/.test(operandOf(node));
}

/** The text of an expansion's operand, after its name and operator (`${x:-…}`, `${x/…/…}`), as written; "" where it has none. */
function operandOf(node: Node): string {
  const children = node.children;
  const name = children.findIndex((child) => child.type === "variable_name" || child.type === "special_variable_name" || child.type === "subscript");
  const from = children[name + 2];
  const end = children.at(-1);
  if (name === -1 || from === undefined || end === undefined || end.type !== "}" || from.startIndex >= end.startIndex) return "";
  return node.text.slice(from.startIndex - node.startIndex, end.startIndex - node.startIndex);
}

/**
 * `LESSSECURE=1 less f`: less in its secure mode, set by the command's own words (not a value the
 * shell may not have: an inherited one, an export), where nothing turns its features back on
 * (LESSSECURE_ALLOW, less 633): no `v` (the editor), `!` or `|` (a shell command), `s` (save),
 * `:e`, log files or lesskey files: no typed key writes a file.
 */
function lessSecure(node: Node, environment: Environment): boolean {
  const own = node.namedChildren.some((child) => child.type === "variable_assignment" && child.childForFieldName("name")?.text === "LESSSECURE" && /^(1|'1'|"1")$/.test(child.childForFieldName("value")?.text ?? ""));
  return own && !Object.hasOwn(environment, "LESSSECURE_ALLOW") && environment.LESSSECURE === "1";
}

