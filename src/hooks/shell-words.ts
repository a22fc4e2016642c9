// A shell word's value, and the path a written word names. The text fixes a word's value when it
// is plain, quoted, `~`, `$PWD`/`$HOME`/`$OLDPWD` where the walk knows them, or a for loop's
// variable over a fixed list (Walk.bound); an unquoted glob is expanded against the files there. A
// part it does not fix (a variable, a substitution, arithmetic) is a HOLE in the value, and the path
// is judged by the rest (judgedPath), except in temp space ($TMPDIR, a mktemp result: TEMP), where
// no session claims anything. Where a path lands: from the walk's directory (add, within), under a
// directory (landing, anyIn, anyUnder), or in a place the text does not fix (UNKNOWN_MARK, UNKNOWABLE).
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type Parser from "web-tree-sitter";
import { picomatch } from "../targets/picomatch.js";
import { fewBraceAlternatives } from "../targets/overlap.js";
import { DOTDOT, exists } from "../targets/target.js";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { isMktemp, UNSET } from "./shell-variables.js";
import { braceExpansion, braceSequence, CLOSE, COMMA, OPEN, restore } from "./shell-braces.js";

type Node = Parser.SyntaxNode;

export type Environment = Record<string, string | undefined>;

export interface Walk {
  /** Where the command runs now; undefined after a `cd` to a place the text does not fix (`cd "$(…)"`). */
  cwd: string | undefined;
  /** Where `cd -` goes back to. */
  previous: string | undefined;
  /** The script turns on `shopt -s nocaseglob`: an unquoted glob matches names in any case. */
  nocaseglob?: boolean;
  /** The script turns on `shopt -s lastpipe`: a pipeline's last command may run in this shell. */
  lastpipe?: boolean;
  /** The script turns on `set -P` (`set -o physical`): where, the walk does not follow, so a `cd` may take `..` physically. */
  physical?: boolean;
  /** A `cd` in the list being read went to a directory not there, and only its `&&` chain depends on it: the place is unknown after the list. */
  shaky?: boolean;
  /** pushd's stack (what was there before the command is unknown). */
  stack: Array<string | undefined>;
  /**
   * The shell's own input, where the script or its caller gives it one (`exec < f`, `f < x.py`):
   * each command with none of its own reads it. "" for none (`exec </dev/null`), null for a stream
   * the walk does not read. A subshell's copy of the walk keeps its own (`(exec <f)` leaves this one's).
   */
  shellInput?: string | null;
  home: string;
  /** The characters an unquoted expansion is split at, once the script sets IFS (`IFS=,`); a HOLE where the text does not fix them. */
  ifs?: string;
  environment: Environment;
  found: Set<string>;
  /** The variables that name temp space in this script (isTemporary). */
  temporary: Set<string>;
  /**
   * Variables whose values the text fixes, read whole where they are a word of their own (`"$f"`):
   * a for loop's over its list (`for f in src/*.ts`), and `{}` in what `find -exec` runs.
   */
  bound?: Map<string, string[]>;
  /** The variables this script sets once, unconditionally (constantVariables). */
  constants?: Set<string>;
  /** The variables this script sets from its arguments (`cmd="$1"`): a command named by one could be anything. */
  fromArguments?: Set<string>;
  /** What every part of one command's walk shares (Shared). */
  shared: Shared;
}

/**
 * What the walks of one command's parts share: the shell functions it defines (name to bodies), the
 * calls of names not defined when they were read (a function from a script sourced before them),
 * the calls already read, and how many more scripts the hook will read for it.
 */
export interface Shared {
  /** The command as the agent gave it (lint-staged asks whether it stages more before a commit). */
  command?: string;
  /** It runs with a terminal (a Codex tty session): what is typed into it later is never judged. */
  terminal?: boolean;
  /** How many programs reading that terminal the walk has met (readsTerminal): ssh asks whether its remote command is one. */
  typed?: number;
  /** Their names, where the walk knows them: a refusal names them (TYPED_AT_TERMINAL in payload.ts). */
  typedPrograms?: Set<string>;
  /** A `git commit` in it stages more than is staged now (paths given, `-a`): its hooks see those too. */
  stagesMore?: boolean;
  /** A `git config` in it may change which hooks git runs (core.hooksPath, an include): those after it are not on disk yet. */
  hooksMoved?: boolean;
  /** The aliases a `git config alias.<name> …` in it saves, by name (undefined: a value the text does not fix): a later `git <name>` runs them. */
  gitAliases?: Map<string, string | undefined>;
  /** How often `git config` wrote each config file it names (`--global`, `-f`): a write of one by anything else may save a command (shell.ts). */
  gitConfigWrites?: Map<string, number>;
  /** Directories it removes whole, themselves too (`git clean -d`): REMOVED_WHOLE in payload.ts. */
  removedWhole?: Set<string>;
  functions: Map<string, FunctionBody[]>;
  /**
   * Calls of names no function had yet, read at the end of the line (a function a script sourced
   * before them defines: the walk reads that script after the line). `serial` counts them in the
   * order made; `declared`: the sourced text named the function (declared), and its `cd` or `exec <
   * f` was applied where it was called.
   */
  pending: Array<{ name: string; cwd: string | undefined; bound: Map<string, string[]> | undefined; positional: Positional; input?: string | null; serial: number; declared: boolean }>;
  /** How many calls were made pending so far (the next one's serial). */
  pendingMade?: number;
  /** The serial of the pending call whose function is being read (at the end of the line). */
  pendingRead?: number;
  /** Functions the text of a script sourced so far defines, by name, before the walk reads it (shell-state.ts functionsIn). */
  declared?: Map<string, Array<{ body: string }>>;
  read: Set<string>;
  budget: number;
  /** The aliases the command defines, each with its text (also read as a function; see shell-walk's `alias`). */
  aliases?: Map<string, string>;
  /** What a package manager writes (its manifest, lock files): not a script of its own. */
  managed: Set<string>;
  /** What each glob matched, listed once for the command (staticWord and wordValues both ask). */
  globs?: Map<string, string[]>;
  /** Directories the command makes (`mkdir t`, a tree copied to t): a later `cp -r t dst` copies a tree, as of a directory on disk. */
  directories?: Set<string>;
  /** Links the command makes (`ln -s u.ts l`), to where each leads: a later write through one writes there. */
  links?: Map<string, string>;
  /** Links the command being read makes: in `links` from the next command on. */
  newLinks?: Array<[string, string]>;
  /** How often each path was written, and how often as a link the command makes (shell-links.ts). */
  writes?: Map<string, number>;
  linkings?: Map<string, number>;
  /** How often each path was added as only a program's text names it (add's `judged`). */
  judged?: Map<string, number>;
  /** Files the command writes whole from text it gives (`cat > f <<'EOF'`), and how many times: a program read from one later reads that text (program-files.ts). */
  texts?: Map<string, { text: string; writes: number }>;
  /** Large heredoc bodies set aside before a parse, by the line that stands for each (shell-heredocs.ts). */
  heredocs?: Map<string, string>;
  /** When the hook stops parsing (Date.now() milliseconds): a script not parsed by then could write any file. */
  deadline?: number;
  /** When the walk stops reading the trees it parsed: what is left unread by then could write any file. */
  walkDeadline?: number;
  /** How much text the grammar may still be given (shell-walk.ts parse): what is past it could write any file. */
  textLeft?: number;
  /** How many syntax-tree nodes the walk may still read: what is past it could write any file. */
  nodesLeft?: number;
  /**
   * The scripts the script being visited runs, read after it (its `bash -c`, its functions'
   * calls, the scripts it runs): walkScript's `nested`, while it visits its own tree.
   */
  laterReads?: unknown[];
  /** How many of those the command being read found handed back before it (its own run as it runs); undefined outside a command (a statement's `< f`): all of them so far. */
  laterReadsBefore?: number;
  /**
   * Paths writtenBefore found unwritten while some of those were still unread: each with the
   * list, and how many of it came before (`bash -c "cp a.py x.py"; python3 x.py` read x.py as on
   * disk). Where one of those writes it, what was read is not what runs (walkScript).
   */
  unwrittenAsked?: Array<{ path: string; reads: unknown[]; before: number }>;
}

/** A function's body, and the script that defined it (its `${BASH_SOURCE[0]}`). */
export interface FunctionBody {
  body: string;
  source?: string;
  /** Made for an alias or `hash -p`, not a function the script defines (which takes a command's name from it). */
  stands?: boolean;
  /** Its definition redirects its input (`f() { …; } < x.py`): at each call its commands read that, a stream the walk does not read. */
  input?: null;
}

/** The values of a script's or function's arguments, one entry a word (undefined where the text does not fix it). */
export type Positional = Array<string[] | undefined>;

/**
 * A write the text names nowhere (`curl -K opts`, a shell reading its program from a pipe): judged
 * as a relative path after a cd the hook cannot follow whose name could be anything, so any claim
 * of another session is in its way.
 */
export const UNKNOWABLE = `${UNKNOWN_MARK}.`;

/** A name the text does not give, written into a directory (`curl -O "$url"`): any file there. */
export const anyIn = (directory: string | undefined): string => (directory === undefined ? UNKNOWABLE : `${GLOB_MARK}${join(directory, "*")}`);

/** Files the text does not name, written anywhere under a directory (wget -r, tar x): checked as its `**` glob. */
export const anyUnder = (directory: string | undefined): string => (directory === undefined ? UNKNOWABLE : `${GLOB_MARK}${join(directory, "**")}`);

/**
 * Where a source lands under its own name in a directory (cp, mv, ln, install, rsync). A source the
 * text does not fix lands as its judged path names it: `"$d/a.ts"` as a.ts, `"out-$n"` as any
 * out-*; one whose name is unknown (`"$f"`) as anything under the directory (`cp -r` puts a tree there).
 */
export function landing(directory: string | undefined, source: string): string {
  const glob = source.startsWith(GLOB_MARK);
  const bare = glob ? source.slice(GLOB_MARK.length) : source.startsWith(UNKNOWN_MARK) ? source.slice(UNKNOWN_MARK.length) : source;
  const name = basename(bare);
  if (source === UNKNOWABLE || name === "**") return anyUnder(directory);
  if (directory === undefined) return UNKNOWN_MARK + name;
  return glob ? `${GLOB_MARK}${join(directory, name)}` : join(directory, name);
}

/** Where a write reaches no file: the null device, a terminal, a descriptor. */
const DEVICES = /^\/(dev\/(null|zero|tty|stdout|stderr|stdin|fd\/\d+)|proc\/self\/fd\/\d+)$/;

/**
 * A program that reads commands from the terminal (given one, what is typed into it later: any
 * file), or from an input the text does not give; counted when there is a terminal, for ssh: a
 * remote command reading this terminal takes what is typed here (shell-launchers.ts).
 */
export function readsTerminal(walk: Walk, program?: string): void {
  add(walk, UNKNOWABLE);
  if (walk.shared.terminal !== true) return;
  walk.shared.typed = (walk.shared.typed ?? 0) + 1;
  if (program !== undefined) (walk.shared.typedPrograms ??= new Set()).add(basename(program));
}

/** `judged`: a path only a program's text names (CHECK_ONLY in payload.ts): counted apart, so one no rule also writes is not claimed. */
export function add(walk: Walk, path: string, judged = false): void {
  // Through /proc: the shell's own cwd (`cd src && echo x > /proc/self/cwd/../u.ts`), not the
  // hook's; another process's cwd or root (throughProc).
  if (!path.startsWith(UNKNOWN_MARK) && !path.startsWith(GLOB_MARK)) {
    const absolute = isAbsolute(path) ? path : walk.cwd === undefined ? undefined : `${walk.cwd}/${path}`;
    if (absolute !== undefined && PROC.test(absolute)) {
      const through = throughProc(absolute, walk.cwd);
      path = "path" in through ? through.path : through.unknown === "" ? UNKNOWABLE : UNKNOWN_MARK + through.unknown;
    }
  }
  if (path.startsWith(UNKNOWN_MARK)) {
    walk.found.add(path); // placed by a rule in a directory the text does not fix (cp -t "$d" f)
    return;
  }
  const glob = path.startsWith(GLOB_MARK);
  const bare = glob ? path.slice(GLOB_MARK.length) : path;
  if (walk.cwd === undefined && !isAbsolute(bare)) {
    // Relative to a directory the text does not fix: checked by its name's tail, never claimed.
    walk.found.add(UNKNOWN_MARK + bare);
    return;
  }
  if (glob) {
    // (A glob's trailing slash, `a*/`, its directories, dropped: any entry it names is judged.)
    const full = (isAbsolute(bare) ? bare : join(walk.cwd as string, bare)).replace(/(?<=.)\/+$/, "");
    // `*/../u.ts` is u.ts (and, after a link, a u.ts elsewhere: the literal word's reading adds
    // that): a glob no more, so a path, as a glob of no pattern breaks its readers.
    walk.found.add(GLOB_CHARACTERS.test(full) ? GLOB_MARK + full : full);
    // A tree written under a directory (`cp -r tpl b`, `git clone url b`: b/**) makes it one, for a later copy of it.
    if (full.endsWith("/**")) (walk.shared.directories ??= new Set()).add(full.slice(0, -"/**".length));
    return;
  }
  // `..` is left for the kernel's reading (write-guard.ts): after a symlink it is not the text's parent.
  const absolute = resolve(walk.cwd ?? "/", path);
  const written = DOTDOT.test(path) ? (isAbsolute(path) ? path : `${walk.cwd}/${path}`) : absolute;
  if (!DEVICES.test(absolute)) walk.found.add(written);
  walk.shared.managed.delete(written); // written again, by a command that changes its text
  (walk.shared.writes ??= new Map()).set(written, (walk.shared.writes.get(written) ?? 0) + 1);
  if (judged) (walk.shared.judged ??= new Map()).set(written, (walk.shared.judged.get(written) ?? 0) + 1);
  throughLinks(walk, written);
  // `..` after a name not there yet (`mkdir -p a/b && ln -s a/b l && echo x > l/../../u.ts`): the
  // command may make it a link first, so where `..` leads is not known; judged by the tail too.
  const climbs = written.lastIndexOf("/../");
  if (climbs !== -1 && !existsSync(written.slice(0, climbs))) walk.found.add(UNKNOWN_MARK + written.slice(climbs + 4));
}

/** Through a link the command made before: where it leads (`ln -s u.ts l && echo x > l`; shell-links.ts). */
export function throughLinks(walk: Walk, written: string): void {
  for (const [link, target] of walk.shared.links ?? []) if (written === link || written.startsWith(`${link}/`)) walk.found.add(target + written.slice(link.length));
}

/** Stands, in a word's value, for a part the text does not fix: a variable, a substitution, arithmetic. */
export const HOLE = "\u0001";
/** Starts a word's value whose first part is temp space: `$TMPDIR`, a mktemp result. */
export const TEMP = "\u0002";

/**
 * A word's value when the text fixes it as one word: quotes removed, `~` expanded. An unquoted glob
 * is the one file it matches (bash puts the file in its place), the glob itself when it matches
 * none; one that matches several, or a brace expansion (`{a,b}.ts`), is several words: unknown as one.
 */
export function staticWord(node: Node | null | undefined, walk: Walk): string | undefined {
  // A loop's variable over a list of one plain value is that value (Walk.bound).
  const bound = node ? boundValues(node, walk) : undefined;
  // (Not a value bash would split or expand where it is unquoted: `src/*.ts`, `a b`.)
  if (bound?.length === 1 && !/^\0/.test(bound[0] as string) && !splitOrExpanded(bound[0] as string, walk)) return bound[0];
  const template = wordTemplate(node, walk);
  if (template === undefined || template.includes(HOLE) || template.includes(TEMP)) return undefined;
  const words = braceExpansion(template, HOLE);
  if (words.length !== 1) return undefined;
  if (!node || !isUnquotedGlob(node)) return words[0] as string;
  const value = globCase(words[0] as string, walk);
  const matches = value.includes("**") ? undefined : globMatches(value, walk);
  return matches === undefined ? undefined : matches.length === 0 ? value : matches.length === 1 ? matches[0] : undefined;
}

/** A word's value, with a HOLE for each part the text does not fix (and TEMP for a first part in temp space); braces as written. */
export function wordValue(node: Node | null | undefined, walk: Walk): string | undefined {
  const template = wordTemplate(node, walk);
  return template === undefined ? undefined : restore(template);
}

/**
 * A word of the command with braces bash expands (`cp a.ts{,.bak}` is `cp a.ts a.ts.bak`): the
 * words it becomes, each its own argument; undefined for any other word. Only an unquoted word
 * whose every part the text fixes is split so.
 */
export function braceWords(node: Node, walk: Walk): Node[] | undefined {
  if (/['"$`]/.test(node.text) || !node.text.includes("{")) return undefined;
  const template = wordTemplate(node, walk);
  if (template === undefined || !template.includes(OPEN) || template.includes(HOLE) || template.includes(TEMP)) return undefined;
  const words = braceExpansion(template, HOLE);
  if (words.length < 2 || words.some((word) => word.includes(HOLE))) return undefined;
  // Each as a plain word of its own, its characters escaped so that none is read as a brace again.
  return words.map((word) => ({ ...node, type: "word", text: word.replace(/[\\{},]/g, "\\$&"), namedChildren: [], children: [], childCount: 0, namedChildCount: 0 }) as unknown as Node);
}

/**
 * A word bash would expand as a glob: an unquoted part of it with a `*`, `?` or `[…]` not escaped
 * (`"$dir"/*.ts` is one; `[` alone, the test command, is none).
 */
function isUnquotedGlob(node: Node): boolean {
  const parts = node.type === "concatenation" ? node.namedChildren : node.type === "word" ? [node] : [];
  // The parser splits `u.t[s]` into `u.t`, `[`, `s`, `]`: the unquoted parts are read together, a quoted one as a gap.
  const unquoted = parts.map((part) => (part.type === "word" ? part.text : "\u0001")).join("");
  // A `[` inside a bracket is left to the last one before its `]`, which matches as well (an escaped
  // one, `[a\[b]`, is the bracket's): looked for from every `[` to the end, a word of `[[[…` would
  // cost the square of its length.
  return /(^|[^\\])([*?]|\[(?:\\.|[^\]\u0001[\\])*\])/.test(unquoted);
}

/**
 * A glob as bash matches it: after `shopt -s nocaseglob`, each letter outside a bracket in either
 * case (`NOTE*` is `[nN][oO][tT][eE]*`), for the files listed and for the claims it is checked against.
 */
function globCase(pattern: string, walk: Walk): string {
  if (walk.nocaseglob !== true) return pattern;
  let out = "";
  let inBracket = false;
  for (let at = 0; at < pattern.length; at++) {
    const character = pattern[at] as string;
    if (character === "\\") {
      out += character + (pattern[at + 1] ?? "");
      at++;
      continue;
    }
    if (character === "[" && !inBracket) inBracket = true;
    else if (character === "]" && inBracket) inBracket = false;
    const [lower, upper] = [character.toLowerCase(), character.toUpperCase()];
    const flips = lower !== upper && lower.length === 1 && upper.length === 1;
    // In a bracket, a letter gets its other case beside it (`[N]` is `[Nn]`; a range is left as written).
    const inRange = pattern[at - 1] === "-" || pattern[at + 1] === "-";
    if (!flips) out += character;
    else if (!inBracket) out += `[${lower}${upper}]`;
    else out += inRange || pattern[at - 1] === "[" && (character === "!" || character === "^") ? character : `${character}${character === lower ? upper : lower}`;
  }
  return out;
}

/**
 * The files an unquoted glob matches from the walk's directory; undefined where that directory is
 * unknown. Listed once per command. Its braces are bash's, written out before (shell-braces.ts):
 * what is left of one was quoted, a brace in a name.
 */
function globMatches(value: string, walk: Walk): string[] | undefined {
  // An unreadable directory is passed over, as bash does, not a reason to judge nothing.
  if (walk.cwd === undefined && !isAbsolute(value)) return undefined;
  const key = `${walk.cwd ?? "/"}\0${value}`;
  walk.shared.globs ??= new Map();
  let matches = walk.shared.globs.get(key);
  if (matches === undefined) walk.shared.globs.set(key, (matches = globFiles(value, walk.cwd ?? "/", { onlyFiles: false, dot: false, braces: false })));
  return matches;
}

/** wordValue, with the word's unquoted braces marked (OPEN, COMMA, CLOSE) for braceExpansion. */
function wordTemplate(node: Node | null | undefined, walk: Walk, alternatives = false): string | undefined {
  if (!node) return undefined;
  if (node.type === "command_name") return wordTemplate(node.namedChildren[0], walk, alternatives);
  // `alternatives` (wordValues): a variable bound to several plain values (a loop's over a list)
  // is each of them, as braces are (`for f in a b; do cp $f.ts $f.bak; done`: a.ts, b.ts…).
  const known = (part: Node) => knownVariable(part, walk) ?? (alternatives ? boundAlternatives(part, walk) : undefined);
  const parts = node.type === "concatenation" ? node.namedChildren : [node];
  let value = "";
  const unknown = (part: Node, before: string) => (value + before === "" && isTemporary(part, walk) ? TEMP : HOLE);
  for (const part of parts) {
    if (part.type === "brace_expression") value += braceSequence(part.text) ?? unknown(part, "");
    else if (part.type === "word") value += part.text.replace(/\\(.)|([{},])/g, (_, escaped: string | undefined, brace: string | undefined) => escaped ?? (brace === "{" ? OPEN : brace === "," ? COMMA : CLOSE));
    else if (part.type === "number") value += part.text;
    else if (part.type === "raw_string") value += part.text.slice(1, -1);
    else if (part.type === "simple_expansion" || part.type === "expansion") value += known(part) ?? unknown(part, "");
    else if (part.type === "string") {
      // "$PWD/x", "$HOME/x": the variables the hook knows are put in; any other is a hole.
      let text = "";
      let at = part.startIndex + 1;
      for (const child of part.namedChildren) {
        if (child.type === "string_content") continue;
        const fixed = child.type === "simple_expansion" || child.type === "expansion" ? known(child) : knownSubstitution(child, walk);
        text += part.text.slice(at - part.startIndex, child.startIndex - part.startIndex).replace(/\\([$`"\\\n])/g, "$1");
        text += fixed ?? unknown(child, text);
        at = child.endIndex;
      }
      value += text + part.text.slice(at - part.startIndex, -1).replace(/\\([$`"\\\n])/g, "$1");
    } else value += knownSubstitution(part, walk) ?? unknown(part, ""); // a substitution, $'…', arithmetic: not known before it runs
  }
  if (value === "~" || value.startsWith("~/")) value = walk.home + value.slice(1);
  // `~+` is $PWD, `~-` is $OLDPWD: the walk's cwd and where `cd -` goes back to.
  else if (value === "~+" || value.startsWith("~+/")) value = (walk.cwd ?? HOLE) + value.slice(2);
  else if (value === "~-" || value.startsWith("~-/")) value = (walk.previous ?? HOLE) + value.slice(2);
  return value;
}

/**
 * `$TMPDIR`, `$(mktemp)`, or a variable the script sets only to a mktemp result: a new name in
 * temp space, where no session claims anything. (Decided so: a claim lives with the project's
 * files, and judging these would refuse every script that writes a scratch file.)
 */
function isTemporary(part: Node, walk: Walk): boolean {
  if (part.type === "command_substitution") return isMktemp(part);
  const name = /^\$\{?(\w+)(?::?[-=][^}]*)?\}?$/s.exec(part.text)?.[1];
  return name !== undefined && walk.temporary.has(name);
}

/**
 * The path a written word names where the text does not fix all of it. In temp space: none.
 * Where an expansion is in a directory (`"$d/u.ts"`, `"$(pwd)/u.ts"`): the fixed tail after it, in
 * a place unknown. Where one is in the name (`"out-$n.ts"`): any file of that shape in the
 * directory, when that is fixed; a name that starts with one (`"$f"`, `"dir/$f"`) may hold a path
 * itself: anything under the directory, and with none fixed, any file.
 */
export function judgedPath(value: string): string | undefined {
  if (value.startsWith(TEMP)) return undefined;
  const holes = value.replaceAll(TEMP, HOLE);
  if (!holes.includes(HOLE)) return value;
  // Another process's root or cwd (`/proc/$PPID/cwd/src/a.ts`): its root is the same tree from `/`;
  // its cwd, a directory the text does not fix.
  const proc = /^\/proc\/[^/]*\/(cwd|root)(?=\/|$)/.exec(holes);
  if (proc?.[0].includes(HOLE)) return judgedPath(proc[1] === "root" ? holes.slice(proc[0].length) || "/" : `${HOLE}${holes.slice(proc[0].length)}`);
  const cut = holes.lastIndexOf("/");
  const directory = cut === -1 ? "" : holes.slice(0, cut + 1);
  const name = holes.slice(cut + 1);
  if (!name.includes(HOLE)) {
    const tail = holes.slice(holes.lastIndexOf(HOLE) + 1);
    const rest = tail.slice(tail.indexOf("/") + 1).replace(/^\/+/, "");
    return rest === "" ? UNKNOWABLE : UNKNOWN_MARK + rest;
  }
  if (name.startsWith(HOLE)) return directory === "" || directory.includes(HOLE) ? UNKNOWABLE : `${GLOB_MARK}${directory}**`;
  // Fixed text with glob characters of its own would be read as a glob: then any name.
  const shape = /[*?[\]{}()!+@\\]/.test(name.replaceAll(HOLE, "")) ? "*" : name.split(HOLE).join("*").replace(/\*+/g, "*");
  return directory.includes(HOLE) ? UNKNOWN_MARK + shape : GLOB_MARK + directory + shape;
}

/**
 * A command substitution whose output the walk knows: the directory of the script being read
 * (`$(dirname "$0")` and its `cd … && pwd` form) and `$(git rev-parse --show-toplevel)`, the top
 * of the work tree around where the command runs (workTreeOf).
 */
function knownSubstitution(node: Node, walk: Walk): string | undefined {
  if (node.type !== "command_substitution") return undefined;
  const text = node.namedChildren.map((child) => child.text).join(" ").trim().replace(/\s+/g, " ");
  // The directory of the script being read: `$(dirname "$0")`, `$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)`.
  if (SCRIPT_DIRECTORY.test(text)) {
    // `$0` is the path as the script was run (`./x.sh`): its directory from where the command is
    // now; `cd` there and `pwd` make it absolute.
    const script = walk.bound?.get(text.includes("BASH_SOURCE") ? "BASH_SOURCE" : "0")?.[0];
    if (script === undefined) return undefined;
    if (!text.includes("pwd") || isAbsolute(script)) return dirname(script);
    return walk.cwd === undefined ? undefined : resolve(walk.cwd, dirname(script));
  }
  const printed = printedPath(node, walk);
  if (printed !== undefined) return printed;
  if (text !== "git rev-parse --show-toplevel" || walk.environment.GIT_DIR !== undefined) return undefined; // GIT_DIR: a repository elsewhere
  const top = workTreeOf(walk.cwd, undefined, walk.environment);
  return top === "" ? undefined : top;
}

/**
 * The path a substitution prints from a word the text fixes, as scripts name a place from another
 * (`$(dirname "$XDG_STATE_HOME")`, `` `dirname $CLAIMS_DIR` ``, `$(realpath "$d")`, `$(readlink -f
 * …)`, `$(cd "$X/.." && pwd)`), so a removal of what it prints is judged by the place itself
 * (a tree holding the claims directory); `$(pwd)` prints where the command runs. dirname only
 * drops the word's last name: where the text fixes that name and not what comes before
 * (`$(dirname "$d/state/claims")`), the value keeps the HOLE (a place ending in state). The
 * others follow the path: a word with a HOLE is unknown. Errors to /dev/null aside, nothing else in
 * the substitution.
 */
function printedPath(node: Node, walk: Walk): string | undefined {
  let inner = node.namedChildren.length === 1 ? (node.namedChildren[0] as Node) : undefined;
  if (inner?.type === "redirected_statement") {
    const redirects = inner.childrenForFieldName("redirect");
    if (!redirects.every((redirect) => redirect.type === "file_redirect" && /^2?>\s*\/dev\/null$/.test(redirect.text))) return undefined;
    inner = inner.childForFieldName("body") ?? undefined;
  }
  if (inner === undefined) return undefined;
  // `cd X && pwd`: X from where the command runs.
  if (inner.type === "list") {
    const [cd, pwd] = inner.namedChildren as [Node | undefined, Node | undefined];
    if (inner.namedChildren.length !== 2 || !/^\s*&&\s*$/.test(inner.text.slice((cd as Node).endIndex - inner.startIndex, (pwd as Node).startIndex - inner.startIndex))) return undefined;
    if (pwd?.type !== "command" || !/^pwd(\s+-[LP])?$/.test(pwd.text.trim())) return undefined;
    const operand = operandOf(cd, "cd", /^-[LP]$/, walk);
    return operand === undefined ? undefined : followed(operand, walk, false);
  }
  const name = inner.type === "command" ? inner.childForFieldName("name")?.text : undefined;
  // `$(pwd)`: where the command runs, as `$PWD` is (`-P` with links followed); not a function of that name.
  if (name === "pwd" && /^pwd(\s+-[LP])?$/.test(inner.text.trim()) && !walk.shared.functions.has("pwd")) return walk.cwd === undefined ? undefined : followed(walk.cwd, walk, inner.text.includes("-P"));
  if (name === "dirname") {
    const operand = operandOf(inner, name, /^$/, walk);
    if (operand === undefined) return undefined;
    const trimmed = operand.replace(/(.)\/+$/, "$1");
    // Where the last name is not fixed, a HOLE may hold slashes itself: what is above it is unknown.
    if (trimmed.slice(trimmed.lastIndexOf("/") + 1).includes(HOLE) || trimmed.includes(TEMP)) return undefined;
    return dirname(trimmed);
  }
  if (name === "realpath") {
    const operand = operandOf(inner, name, /^-[emqPL]+$|^--(canonicalize-(existing|missing)|quiet|physical|logical)$/, walk);
    return operand === undefined ? undefined : followed(operand, walk, true);
  }
  if (name === "readlink") {
    // Only with -f, -e or -m does readlink print a path followed to its end (plain, a link's own text).
    const operand = operandOf(inner, name, /^-[fem][nqsv]*$|^-[nqsv]+[fem]$|^--canonicalize(-existing|-missing)?$/, walk);
    return operand === undefined ? undefined : followed(operand, walk, true);
  }
  return undefined;
}

/** A command's one operand (after options matching `options` and `--`) as a template with HOLEs; undefined for more, or for another option. */
function operandOf(command: Node | undefined, name: string, options: RegExp, walk: Walk): string | undefined {
  if (command?.type !== "command" || command.childForFieldName("name")?.text !== name) return undefined;
  const operands: string[] = [];
  let ended = false;
  for (const argument of command.childrenForFieldName("argument")) {
    if (!ended && argument.text === "--") ended = true;
    else if (!ended && argument.type === "word" && argument.text.startsWith("-") && argument.text !== "-") {
      if (!options.test(argument.text)) return undefined;
    } else {
      const template = wordTemplate(argument, walk);
      // One word as bash passes it: braces that make one, no unquoted glob, no unquoted expansion to split.
      const words = template === undefined ? [] : braceExpansion(template, HOLE);
      if (words.length !== 1 || isUnquotedGlob(argument)) return undefined;
      const value = words[0] as string;
      if (value.includes(HOLE) && argument.type !== "string") return undefined;
      operands.push(value);
    }
  }
  return operands.length === 1 ? operands[0] : undefined;
}

/** Where a path fixed by the text leads from where the command runs (`cd` there then `pwd`, realpath): undefined where a HOLE is in it, or the cwd is unknown. */
function followed(path: string, walk: Walk, real: boolean): string | undefined {
  if (path.includes(HOLE) || path.includes(TEMP) || path === "") return undefined;
  if (!isAbsolute(path) && walk.cwd === undefined) return undefined;
  const resolved = resolve(walk.cwd ?? "/", path);
  if (!real) return resolved;
  try {
    return realpathSync.native(resolved);
  } catch {
    return resolved; // not there (realpath -m): as written
  }
}

/**
 * The top of the work tree git acts on from cwd: `--work-tree`'s, else `GIT_WORK_TREE`'s, else the
 * nearest directory up from cwd that holds `.git`; unknown (undefined) where cwd is; none ("") outside a repository.
 */
export function workTreeOf(cwd: string | undefined, given: string | undefined, environment: Environment): string | undefined {
  if (given !== undefined) return given;
  const fromEnvironment = environment.GIT_WORK_TREE;
  if (fromEnvironment !== undefined && fromEnvironment !== "") return directoryAt(cwd, fromEnvironment);
  return cwd === undefined ? undefined : (ancestorsHolding(cwd, [".git"])[0] ?? "");
}


/** `dirname "$0"`, and `cd` there then `pwd`, in a command substitution, as scripts find their own directory. */
const SCRIPT_DIRECTORY =
  /^(?:cd (?:-P )?(?:-- )?"?\$\( ?)?dirname (?:-- )?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE)"?(?: ?\)"? ?(?:(?:&>|>) ?\/dev\/null ?(?:2>&1 ?)?)?&& pwd(?: -P)?)?$/;

/**
 * `$PWD`, `${PWD}`, `$HOME`, `$OLDPWD` where the walk knows them, and a variable bound to one value;
 * also with a default it does not need (`${XDG_STATE_HOME:-$HOME/.local/state}` where it is set).
 */
/** A variable bound to several plain values, as braceExpansion's alternatives (wordTemplate); undefined for any other. */
function boundAlternatives(node: Node, walk: Walk): string | undefined {
  const name = /^\$\{?(\w+)\}?$/.exec(node.text)?.[1];
  const bound = name === undefined || /^\d\d/.test(name) ? undefined : walk.bound?.get(name);
  if (bound === undefined || bound.length < 2 || bound.length > 64) return undefined;
  if (bound.some((value) => /^\0/.test(value) || /[\u0001-\u0005\u0011-\u0013]/.test(value) || splitOrExpanded(value, walk))) return undefined;
  return `${OPEN}${bound.join(COMMA)}${CLOSE}`;
}

function knownVariable(node: Node, walk: Walk): string | undefined {
  const defaulted = /^\$\{(\w+)(:?)([-=?])(.*)\}$/s.exec(node.text);
  if (defaulted !== null && node.type === "expansion") {
    // Unset as far as the hook knows (UNSET): `${XDG_STATE_HOME:-$HOME/.local/state}` is its default, where that is a plain path from `$HOME` or `~`.
    if (defaulted[3] === "-" && walk.bound?.get(defaulted[1] as string)?.[0] === UNSET) {
      const plain = /^(\$HOME|\$\{HOME\}|~)?((?:\/[\w.@+-]+)*\/?)$/.exec(defaulted[4] as string);
      // (Quoted, `~` is no home: `"${d:-~/x}"` is `~/x`.)
      const quoted = plain?.[1] === "~" && node.parent?.type === "string";
      return plain === null || quoted || (plain[1] !== undefined && !walk.home.startsWith("/")) ? undefined : `${plain[1] === undefined ? "" : walk.home}${plain[2]}`;
    }
    const value = knownVariable({ type: "simple_expansion", text: `$${defaulted[1]}` } as Node, walk);
    // `${d:-x}` is d where it is set and not empty; `${d-x}` where it is set.
    return value === undefined || value.includes(HOLE) || (defaulted[2] === ":" && value === "") ? undefined : value;
  }
  const name = /^\$\{?(\w+)\}?$/.exec(node.text)?.[1];
  // A variable bound to one plain value (set once at the top, a script's `$1`): inside a longer word too.
  const bound = name === undefined || /^\d\d/.test(name) ? undefined : walk.bound?.get(name);
  // (Not a value bash would split or expand where it is unquoted: `src/*.ts`, `a b`.)
  if (bound?.length === 1 && !/^\0/.test(bound[0] as string) && !splitOrExpanded(bound[0] as string, walk)) return bound[0];
  if (name === "PWD") return walk.cwd;
  if (name === "HOME") return walk.home;
  if (name === "OLDPWD") return walk.previous;
  // The shell's own pid, as /proc names it: `/proc/$$/cwd` is the shell's cwd (add).
  if (/^\$\{?(\$|BASHPID)\}?$/.test(node.text)) return "self";
  return undefined;
}

/** A word that is one variable and nothing else: `$f`, `${f}`, `"$f"`, `"${f}"`, `"$@"` (`$10` is `${1}0`). */
const BOUND_WORD = /^"?\$(?:\{(\w+|@)\}|([A-Za-z_]\w*|\d|@))"?$/;

/**
 * What a word that is one bound variable stands for (Walk.bound). Unquoted, bash splits a value
 * at whitespace and expands a glob in it (`for f in "src/*.ts"; do rm $f`): such a value is left
 * unknown.
 */
function boundValues(node: Node, walk: Walk): string[] | undefined {
  const match = BOUND_WORD.exec(node.text);
  const values = walk.bound?.get(match?.[1] ?? match?.[2] ?? "");
  if (values?.[0] === UNSET) return undefined; // a value the text does not fix
  if (values === undefined || node.type === "string") return values;
  return values.some((value) => !value.startsWith(GLOB_MARK) && splitOrExpanded(value, walk)) ? undefined : values;
}

/**
 * A value bash would split or expand as a glob where a variable holding it is unquoted: at
 * whitespace, or at the characters of an IFS the script set (`IFS=,; x=rm,f; $x` runs `rm f`).
 */
function splitOrExpanded(value: string, walk: Walk): boolean {
  if (/[\s*?[]/.test(value)) return true;
  const ifs = walk.ifs;
  return ifs !== undefined && (ifs.includes(HOLE) ? value !== "" : [...ifs].some((character) => value.includes(character)));
}

/** A word's values: each word its braces expand to, a static one, or what an unquoted glob matches (bash keeps the word when nothing does). */
export function wordValues(node: Node, walk: Walk): string[] | undefined {
  // `tee >(wc -l)`: the pipe's name, /dev/fd/N; the commands inside are read where they stand.
  if (node.type === "process_substitution") return ["/dev/fd/63"];
  const bound = boundValues(node, walk);
  if (bound !== undefined) return bound;
  const template = wordTemplate(node, walk, true);
  if (template === undefined) return undefined;
  return braceExpansion(template, HOLE).flatMap((value) => {
    if (value.includes(HOLE) || value.includes(TEMP)) return outputs([judgedPath(value)]); // "$d/u.ts": judged by what the text fixes
    if (!isUnquotedGlob(node)) return [value];
    value = globCase(value, walk);
    // `**` walks a whole tree (`/**` the whole machine): not expanded, but checked as a glob against
    // the claims, which costs no directory reads. Without globstar bash reads it as `*`: a superset.
    if (value.includes("**")) return [`${GLOB_MARK}${value}`];
    const matches = globMatches(value, walk) ?? [];
    // None found: bash passes the word as it is; and judged as a glob too, should fast-glob find
    // nothing where bash finds something (as with a `?` in a directory part: asFastGlobPattern).
    return matches.length > 0 ? matches : [value, `${GLOB_MARK}${value}`];
  });
}

/** What makes a path a glob to picomatch: one with none, normalized from a glob (u.ts from `*` then `..`), is a path. */
const GLOB_CHARACTERS = /[*?[\]{}()!+@\\]/;

/**
 * A path from a directory. Where the directory is unknown (after a cd the hook cannot follow, or an
 * option naming it from a variable: `cp -t "$d"`, `patch -d "$d"`, `git -C "$d"`), a relative path
 * is marked so, and judged by its name's tail: never as the harmless file of that name here.
 */
export function within(cwd: string | undefined, path: string): string {
  if (path.startsWith(UNKNOWN_MARK)) return path;
  if (path.startsWith(GLOB_MARK)) {
    const bare = path.slice(GLOB_MARK.length);
    if (cwd === undefined && !isAbsolute(bare)) return UNKNOWN_MARK + bare;
    // `*/../u.ts` resolves to the file itself, a glob no more: a path.
    const resolved = cwd === undefined ? resolve(bare) : resolve(cwd, bare); // (its trailing slash dropped too)
    return GLOB_CHARACTERS.test(resolved) ? GLOB_MARK + resolved : resolved;
  }
  return isAbsolute(path) ? resolve(path) : cwd === undefined ? UNKNOWN_MARK + path : resolve(cwd, path);
}

/**
 * The directories from `directory` up to / that hold an entry of one of `names` (`.git`,
 * `package.json`), nearest first: a work tree's or a project's root, and the roots around it.
 */
export function ancestorsHolding(directory: string, names: string[]): string[] {
  const found: string[] = [];
  for (let at = directory; ; at = dirname(at)) {
    if (names.some((name) => exists(join(at, name)))) found.push(at);
    if (at === dirname(at)) return found;
  }
}

/** JSON with comments and trailing commas (tsconfig.json, deno.jsonc) as JSON: `//` and block comments outside strings, and a comma before a closing bracket, taken out. */
export function jsonWithComments(text: string): string {
  return text.replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_, string?: string) => string ?? "").replace(/,(\s*[}\]])/g, "$1");
}

/** The first of `names` in `directory` (a tool's configuration file), absolute; undefined where none is there or the directory is unknown. */
export function configIn(directory: string | undefined, names: string[]): string | undefined {
  if (directory === undefined) return undefined;
  return names.map((name) => join(directory, name)).find((file) => readText(file) !== undefined);
}

/**
 * The nearest file from `directory` up to / whose name `pick` chooses from a directory's entries
 * (a justfile in any case, a Taskfile by its names); a directory that cannot be listed is passed.
 */
export function nearestFile(directory: string, pick: (names: string[]) => string | undefined): string | undefined {
  for (let at = directory; ; at = dirname(at)) {
    let names: string[] = [];
    try {
      names = readdirSync(at);
    } catch {
      // not listable: further up
    }
    const name = pick(names);
    if (name !== undefined) return join(at, name);
    if (at === dirname(at)) return undefined;
  }
}

/** Where a directory is when the command runs from cwd: undefined when the text does not fix it. */
export function directoryAt(cwd: string | undefined, path: string | undefined): string | undefined {
  const absolute = path === undefined ? undefined : isAbsolute(path) ? path : cwd === undefined ? undefined : `${cwd}/${path}`;
  if (absolute === undefined) return undefined;
  if (!PROC.test(absolute)) return resolve(absolute);
  const through = throughProc(absolute, cwd); // `cd /proc/1/cwd`: a directory the text does not fix
  return "path" in through ? resolve(through.path) : undefined;
}

/**
 * Where a directory is when a program chdir()s to it from cwd (`make -C`, `git -C`, `cd -P`): the
 * kernel takes `..` physically, from where a symlink before it leads (with `L -> sub/deep`,
 * `L/..` is sub, not cwd), and the program then knows the directory by that path. The path as
 * the kernel reaches it, where it is there; undefined where it is not and a `..` is in it (the
 * chdir fails, or lands where the text cannot tell).
 */
export function physicalDirectoryAt(cwd: string | undefined, path: string | undefined): string | undefined {
  const lexical = directoryAt(cwd, path);
  if (lexical === undefined || path === undefined) return lexical;
  const absolute = isAbsolute(path) ? path : `${cwd}/${path}`;
  if (PROC.test(absolute)) return lexical;
  try {
    return realpathSync.native(absolute);
  } catch {
    return /(^|\/)\.\.(\/|$)/.test(absolute) ? undefined : lexical;
  }
}

/** A path through /proc (or /dev/fd/..) to a process's cwd or root, or into a directory a descriptor is open on. */
const PROC = /^(?:\/proc\/(?:self|thread-self|\d+)(?:\/task\/(?:self|\d+))?|\/dev\/fd\/\.\.)\/(?:cwd|root)(?=\/|$)|^(?:\/proc\/(?:self|thread-self|\d+)(?:\/task\/(?:self|\d+))?\/fd|\/dev\/fd)\/\d+(?=\/)/;

/**
 * Such a path as the kernel takes it, where the text can tell (a directory a descriptor is open on
 * never can): the shell's own cwd (`/proc/self/cwd`,
 * `/proc/$$/cwd`, `/dev/fd/../cwd`, a task of its own) is `cwd`, and any process's root is `/`;
 * another process's cwd (`/proc/1/cwd`, `/proc/$PPID/cwd`: the text cannot tell whose) is a
 * directory it does not fix (`unknown`: the part after it).
 */
function throughProc(path: string, cwd: string | undefined): { path: string } | { unknown: string } {
  const match = PROC.exec(path) as RegExpExecArray;
  const rest = path.slice(match[0].length);
  const tail = rest.replace(/^\/+/, "");
  // A descriptor open on a directory (`exec 3<.; echo x > /proc/self/fd/3/f.ts`): which, the text
  // cannot tell; what is after the last `..` is where in it.
  if (/\/\d+$/.test(match[0])) return { unknown: tail.split("/").reduce<string[]>((after, part) => (part === ".." ? [] : part === "." || part === "" ? after : [...after, part]), []).join("/") };
  if (match[0].endsWith("/root")) return { path: rest || "/" };
  const own = /^\/(?:proc\/(?:self|thread-self)|dev\/fd\/\.\.)(?:\/|$)/.test(match[0]);
  return own && cwd !== undefined ? { path: cwd + rest } : { unknown: tail };
}

/**
 * The text the command wrote to a file earlier on its line, where it gave that text whole and
 * wrote the file once since (a heredoc, `echo`, `printf`: noted in shared.texts); UNKNOWABLE where
 * it wrote it otherwise (`cp`, `sed -i`). For a file writtenBefore.
 */
export function textWrittenBefore(walk: Walk, path: string): string | typeof UNKNOWABLE {
  const given = walk.shared.texts?.get(path);
  if (given === undefined || given.writes !== walk.shared.writes?.get(path)) return UNKNOWABLE;
  askAgainLater(walk, path); // (a script run before it, read after the line, may write it again)
  return given.text;
}

/**
 * Whether the command writes a path before this point (a script it makes and then runs: `cat >
 * x.sh <<EOF … EOF; bash x.sh`): the path itself, a glob over it, a file of its name in a place
 * unknown, or any file. What is on disk now is not what will run.
 */
export function writtenBefore(walk: Walk, path: string): boolean {
  if (writesAny(walk, walk.found, path)) return true;
  askAgainLater(walk, path);
  return false;
}

/**
 * Scripts the line runs before this point are read after it: the path is asked again of what each
 * writes when they are (walkScript). So are the pending calls made before it (Shared.pending): all
 * made so far, or, within one being read, those before it.
 */
function askAgainLater(walk: Walk, path: string): void {
  const reads = walk.shared.laterReads;
  const before = walk.shared.laterReadsBefore ?? reads?.length ?? 0;
  if (reads !== undefined && before > 0) (walk.shared.unwrittenAsked ??= []).push({ path, reads, before });
  const calls = walk.shared.pendingRead ?? walk.shared.pendingMade ?? 0;
  if (calls > 0) (walk.shared.unwrittenAsked ??= []).push({ path, reads: walk.shared.pending, before: calls });
}

/** Whether any of these paths written is the path, or holds it: itself, a glob over it, a file of its name in a place unknown, any file. */
export function writesAny(walk: Walk, found: Iterable<string>, path: string): boolean {
  // (As written: `cd sub && cp x ../y` writes sub/../y, the y asked of after `cd ..`.)
  const asked = resolve(path);
  for (const written of found) {
    if (walk.shared.managed.has(written)) continue;
    if (written === path || written === UNKNOWABLE || (!written.startsWith("\0") && resolve(written) === asked)) return true;
    if (written.startsWith(UNKNOWN_MARK) && (path.endsWith(`/${written.slice(UNKNOWN_MARK.length)}`) || written.slice(UNKNOWN_MARK.length).includes("*"))) return true;
    if (written.startsWith(GLOB_MARK) && picomatch(written.slice(GLOB_MARK.length), { dot: true })(path)) return true;
    if (!written.startsWith("\0") && path.startsWith(`${written}/`)) return true; // a directory written whole
  }
  return false;
}

/** A file's text, for a command that reads it (a patch, a shell's script on stdin): none where it cannot be read. */
export function readText(path: string): string | undefined {
  if (!isAbsolute(path)) return undefined; // relative to a directory the text does not fix
  try {
    const stats = statSync(path);
    // A FIFO would block, and so can a kernel's file that says it is a regular one (/proc/kmsg).
    if (!stats.isFile() || stats.size >= 16 * 1024 * 1024 || /^\/(proc|sys)\//.test(realpathSync(path))) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Written paths among option values: not `-` (stdout) nor one the text does not fix. */
export const outputs = (paths: Array<string | undefined>): string[] => paths.filter((path): path is string => path !== undefined && path !== "-");

/** What glob patterns match from a directory, as absolute paths (fast-glob, loaded on first use); none where it cannot read. */
export function globFiles(patterns: string | string[], cwd: string, options: { onlyFiles?: boolean; dot?: boolean; ignore?: string[]; braces?: boolean } = {}): string[] {
  const require = createRequire(import.meta.url);
  const fastGlob = require("fast-glob") as typeof import("fast-glob");
  // Past 64 brace alternatives, or with a range, braces are matched as themselves: fast-glob held
  // the hook until it died or was timed out (its call let through).
  const { braces: asked, ...rest } = options;
  const braces = asked !== false && [patterns].flat().every(fewBraceAlternatives);
  try {
    const spelled = [patterns].flat().map((pattern) => asFastGlobPattern(pattern, rest.dot === true));
    return fastGlob.sync(spelled, { ...rest, braceExpansion: braces, cwd, absolute: true, suppressErrors: true });
  } catch {
    return [];
  }
}

/**
 * A shell pattern as fast-glob finds what bash finds for it. Each `?` that matches one character is
 * spelled as the class it is, `[!/]` (`[!./]` at a name's start, where `?` matches no leading dot
 * unless `dot`): fast-glob takes a directory part whose only wildcard is a `?` for a plain name
 * (is-glob does not count `?`), starts its walk in a directory of that name and finds nothing
 * (fast-glob issue 380), so `cp q.ts sr?/a.ts`, which bash expands to src/a.ts, was judged to write
 * a file named `sr?/a.ts`. And a POSIX class in a bracket (`[[:alpha:]]`) is spelled as its ASCII
 * ranges: in a directory part (`sr[[:alpha:]]/a.ts`) fast-glob found nothing, and after a dot its
 * matcher dropped what came before (`a.t[[:lower:]]` became the regex `.t[a-z]`: xts, not a.ts).
 * Escaped characters and extglob's `?(…)` are left as they are.
 */
export function asFastGlobPattern(pattern: string, dot: boolean): string {
  if (!pattern.includes("?") && !pattern.includes("[:")) return pattern;
  let out = "";
  for (let at = 0; at < pattern.length; at++) {
    const character = pattern[at] as string;
    if (character === "\\") {
      out += pattern.slice(at, at + 2);
      at++;
    } else if (character === "[") {
      // A bracket expression runs to its `]` (one right after `[`, `[!` or `[^` is a member); none: a `[` of the name.
      let end = at + 1;
      if (pattern[end] === "!" || pattern[end] === "^") end++;
      if (pattern[end] === "]") end++;
      let members = pattern.slice(at, end);
      while (end < pattern.length && pattern[end] !== "]") {
        const posixClass = pattern.startsWith("[:", end) ? pattern.indexOf(":]", end + 2) : -1;
        const ranges = posixClass === -1 ? undefined : POSIX_CLASSES[pattern.slice(end + 2, posixClass)];
        if (posixClass !== -1) {
          members += ranges ?? pattern.slice(end, posixClass + 2);
          end = posixClass + 2;
        } else {
          const length = pattern[end] === "\\" ? 2 : 1;
          members += pattern.slice(end, end + length);
          end += length;
        }
      }
      if (end >= pattern.length) out += "\\[";
      else {
        out += `${members}]`;
        at = end;
      }
    } else if (character === "?" && pattern[at + 1] !== "(") {
      out += !dot && (at === 0 || pattern[at - 1] === "/") ? "[!./]" : "[!/]";
    } else out += character;
  }
  return out;
}

/** The POSIX classes a bracket may hold, as ASCII ranges (the C locale's). */
const POSIX_CLASSES: Record<string, string> = {
  alpha: "a-zA-Z",
  upper: "A-Z",
  lower: "a-z",
  digit: "0-9",
  xdigit: "0-9A-Fa-f",
  alnum: "a-zA-Z0-9",
  word: "a-zA-Z0-9_",
  blank: " \t",
  space: " \t\n\r\f\v",
  punct: "{-~!-/:-@\\[-`", // (no `!` first: `[!` negates)
  graph: "\"-~!",
  print: " -~",
  cntrl: "\x01-\x1f\x7f",
};

/** A value as one shell word, for a line the walk writes itself. */
export const shellQuoted = (value: string): string => `'${value.replaceAll("'", "'\\''")}'`;

/**
 * A redirection's operator: the text between its descriptor and its destination (the grammar
 * leaves `1<>file` an ERROR node there, so the text is read, not the node's children).
 */
export function redirectionOperator(redirection: Parser.SyntaxNode): string {
  const descriptor = redirection.childForFieldName("descriptor");
  const destination = redirection.childForFieldName("destination");
  return redirection.text.slice((descriptor?.endIndex ?? redirection.startIndex) - redirection.startIndex, (destination?.startIndex ?? redirection.endIndex) - redirection.startIndex).trim();
}

/**
 * The redirected statement a command is the body of (`cat > f <<EOF`: the redirections are its), if
 * any: noted by the walk while it reads the command (a node's parent costs the depth of the tree:
 * 20,000 commands in a chain took seconds).
 */
export function statementOf(command: Parser.SyntaxNode): Parser.SyntaxNode | undefined {
  return STATEMENTS.get(command.id);
}
export const STATEMENTS = new Map<number, Parser.SyntaxNode>();

/**
 * What `echo` or `printf` given these words prints, where the words alone say it: echo with no
 * option; printf (after a `--`) with a format holding no conversion but one `%s` (the format again
 * for each argument) and no escape but `\n`, `\t`, `\\`. Undefined for any other.
 */
export function printedBy(name: string, words: string[]): string | undefined {
  if (name === "echo") return words.some((word) => word.startsWith("-")) ? undefined : `${words.join(" ")}\n`;
  if (name !== "printf") return undefined;
  const [format, ...rest] = words[0] === "--" ? words.slice(1) : words;
  if (format === undefined || format.startsWith("-")) return undefined;
  if (/\\[^nt\\]/.test(format)) return undefined;
  const shape = format.replace(/\\([nt\\])/g, (_, letter: string) => (letter === "n" ? "\n" : letter === "t" ? "\t" : "\\"));
  if (!shape.includes("%")) return shape;
  const [before, after, ...more] = shape.split("%s");
  if (more.length > 0 || after === undefined || (before as string).includes("%") || after.includes("%")) return undefined;
  return (rest.length === 0 ? [""] : rest).map((arg) => `${before}${arg}${after}`).join("");
}

/** Whether a path is a file that may be run: executable by someone (none there: no). */
export function runnable(path: string | undefined): boolean {
  if (path === undefined) return false;
  try {
    const stat = statSync(path);
    return stat.isFile() && (stat.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}
