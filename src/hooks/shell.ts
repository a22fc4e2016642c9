// The files a shell command will write, read from its syntax tree (tree-sitter's bash grammar, the
// same parser family the symbol claims use), not from a regex: redirections (`>`, `>>`, `&>`,
// `<>`), and the arguments of the commands that write the files they name (sed -i, perl -i, tee,
// cp, mv, rm, truncate, touch, dd of=, ln, install, patch, tar, unzip, git checkout/restore/rm/mv/apply,
// apply_patch), the work tree that git's branch, reset, stash and merge commands rewrite, what find's
// -delete and -exec reach, through `sudo`/`env`/`timeout`-style wrappers, `bash -c '…'`, `eval '…'`,
// `xargs`, and `cd` before them. Each command's options are read as getopt reads them, from one declaration
// of the ones that take a value (Syntax, readOptions): `cp -at dst f` copies into dst, `sort -uo out` writes out.
//
// Only what the text itself says. A written word built from a variable, a command substitution or
// arithmetic is judged by the part the text fixes (judgedPath: `"$d/u.ts"` is a u.ts in a place
// unknown, as after an unknown `cd`; `"out-$n.ts"` any out-*.ts there), unless it is in temp space
// ($TMPDIR, mktemp); so is a write whose directory such a word decides (`cp -t "$d" f`, `git -C
// "$d"`). Where the text cannot name what is written at all (`curl … | sh`, `eval "$x"`, `curl -K`),
// it could be any file. What a script or program on disk writes from inside (`bash build.sh`,
// `python gen.py`, `npm run fmt`, `make`) is not read. docs/HOOKS.md lists both sides.
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import type Parser from "web-tree-sitter";
import { exists, isDirectory } from "../targets/target.js";
import { GLOB_MARK, patchPaths, UNKNOWN_MARK } from "./payload.js";

type Node = Parser.SyntaxNode;

/** A command that writes through the names it is given, or a redirection: worth parsing. Anything else is read-only to us. */
const WRITING_COMMAND =
  /(^|[\s;&|(`'"/\\])(sed|perl|tee|cp|mv|rm|rmdir|unlink|shred|truncate|touch|dd|ln|install|patch|apply_patch|bash|sh|zsh|dash|ksh|coproc|rsync|gzip|gunzip|bzip2|bunzip2|xz|unxz|wget|sudoedit|tar|unzip|7z|7za|7zr|7zz|xargs|eval|source)([\s;&|)`'"]|$)/;
/**
 * git with a subcommand that writes the work tree, find with an action that writes (`-delete`,
 * `-exec`, `-fprint`); sort, curl, awk, time, sudo and env only with what makes them write (`-o`, `-O`, `-K`, `-i`,
 * `-c`, `-D`, `-a` in a cluster of short options, or the start of a long option that names an
 * output; sudo's `-e`, env's `-S`); an interpreter reading a pipe or `<(…)`, and the `.` command:
 * loading the parser costs 40-50 ms.
 */
const WRITING_USE =
  /\|[^;&|\n]*\b(python[\d.]*|pypy3?|node(js)?|ruby|php)\b|\b(python[\d.]*|pypy3?|node(js)?|ruby|php)\b[^;&|\n]*<\(|(^|[;&|({\n])\s*\.\s+\S|\bgit\b[^;&|\n]*\s(checkout|switch|restore|reset|stash|clean|rm|mv|apply|merge|pull|rebase|cherry-pick|revert|am)\b|\bfind\b[^;&|\n]*\s-(delete|exec|execdir|ok|okdir|fprint0?|fprintf|fls)\b|\b(sort|curl|awk|gawk|time)\b[^;&|\n]*\s(-[a-zA-Z]*[oOKicDa]|--(o|in|du|coo|tr|std|et|li|ap|re|con))|\bsudo\b[^;&|\n]*\s(-[a-zA-Z]*e|--ed)|\benv\b[^;&|\n]*\s(-[a-zA-Z]*S|--sp)/;
/** `2>&1`, `>&2`, `>/dev/null`: redirections that write no file. */
const HARMLESS_REDIRECTION = /\d*(>>?|&>>?|>\|)\s*\/dev\/null(?![\w./-])|\d*>&\s*(\d+|-)(?![\w./-])/g;

export function mayWrite(command: string): boolean {
  return command.replace(HARMLESS_REDIRECTION, "").includes(">") || WRITING_COMMAND.test(command) || WRITING_USE.test(command);
}

/**
 * Absolute paths the command writes (an existing directory stands for everything under it). The
 * environment is the one the command inherits, for the variables that name what a tool writes
 * (SIMPLE_BACKUP_SUFFIX, VERSION_CONTROL).
 */
export async function shellWrites(command: string, cwd: string, home: string, environment: Environment = process.env): Promise<string[]> {
  if (!mayWrite(command)) return [];
  const found = new Set<string>();
  await walkScript(command, { cwd, previous: undefined, stack: [], home, environment, found, temporary: new Set() }, 0);
  return [...found];
}

type Environment = Record<string, string | undefined>;

/** `bash -c '…'`: a script to read in turn, from the directory it starts in. */
interface Nested {
  script: string;
  cwd: string | undefined;
  /** Variables that stand for known values in it (Walk.bound): `{}` of `find -exec`. */
  bound?: Map<string, string[]>;
}

interface Walk {
  /** Where the command runs now; undefined after a `cd` to a place the text does not fix (`cd "$(…)"`). */
  cwd: string | undefined;
  /** Where `cd -` goes back to. */
  previous: string | undefined;
  /** pushd's stack (what was there before the command is unknown). */
  stack: Array<string | undefined>;
  home: string;
  environment: Environment;
  found: Set<string>;
  /** The variables that name temp space in this script (isTemporary). */
  temporary: Set<string>;
  /**
   * Variables whose values the text fixes, read whole where they are a word of their own (`"$f"`):
   * a for loop's over its list (`for f in src/*.ts`), and `{}` in what `find -exec` runs.
   */
  bound?: Map<string, string[]>;
}

async function walkScript(script: string, walk: Walk, depth: number): Promise<void> {
  if (depth > 3) return; // bash -c 'bash -c …': deep enough
  // The grammar loads as symbols' do (src/targets/symbols.ts), with the CLI's baseline-only
  // compilation.
  const { parserFor } = await import("../targets/symbols.js");
  const parser = await parserFor("bash");
  const tree = parser.parse(script);
  try {
    const nested: Nested[] = [];
    walk.temporary = temporaryVariables(tree.rootNode);
    visit(tree.rootNode, walk, nested);
    for (const inner of nested) {
      await walkScript(inner.script, { ...walk, cwd: inner.cwd, previous: undefined, stack: [], bound: inner.bound ?? walk.bound }, depth + 1);
    }
  } finally {
    tree.delete();
    parser.delete(); // its memory is WebAssembly's: a library caller serving many calls would keep every one
  }
}

/**
 * In source order, so a `cd` applies to what follows it; a subshell's `cd` ends with the subshell.
 * `piped`: the node reads a pipe (`curl … | python3`), whose contents the text does not give.
 */
function visit(node: Node, walk: Walk, nested: Nested[], piped = false): void {
  if (node.type === "subshell" || node.type === "command_substitution" || node.type === "process_substitution") {
    const inner = { ...walk, stack: [...walk.stack] };
    for (const child of node.namedChildren) visit(child, inner, nested);
    return;
  }
  if (node.type === "file_redirect") return redirect(node, walk);
  if (node.type === "redirected_statement") {
    const body = node.childForFieldName("body");
    const stdin = stdinOf(node, walk);
    for (const child of node.namedChildren) {
      if (child === body || child.id === body?.id) {
        if (child.type === "command") command(child, walk, nested, stdin, piped && stdin === undefined);
        else visit(child, walk, nested);
      } else visit(child, walk, nested);
    }
    return;
  }
  if (node.type === "heredoc_redirect") {
    // `cat <<EOF | tee f`: the pipeline after the heredoc's start is a command of its own.
    for (const child of node.namedChildren) if (child.type !== "heredoc_body") visit(child, walk, nested);
    return;
  }
  if (node.type === "for_statement") return forLoop(node, walk, nested);
  if (node.type === "command") return command(node, walk, nested, undefined, piped);
  if (node.type === "pipeline") {
    node.namedChildren.forEach((child, index) => visit(child, walk, nested, index > 0));
    return;
  }
  for (const child of node.namedChildren) visit(child, walk, nested);
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
  let values: string[] | undefined = list.length > 0 && name !== undefined && !new RegExp(`(^|[^\\w])(${name}=|read\\b[^;&|\\n]*\\b${name}\\b)`).test(body?.text ?? "") ? [] : undefined;
  for (const word of list) {
    const got = values && wordValues(word, walk);
    values = got === undefined || got.some((value) => value.startsWith(UNKNOWN_MARK)) ? undefined : [...(values ?? []), ...got];
    if (values === undefined) break;
  }
  for (const word of list) visit(word, walk, nested); // a substitution in the list runs too
  const outer = walk.bound;
  if (name !== undefined) {
    walk.bound = new Map(outer);
    if (values !== undefined) walk.bound.set(name, values);
    else walk.bound.delete(name);
  }
  try {
    if (body) visit(body, walk, nested);
  } finally {
    walk.bound = outer;
  }
}

/** What a command reads on stdin, when the statement gives it literally: a heredoc's text or a `< file`. */
function stdinOf(statement: Node, walk: Walk): string | undefined {
  for (const child of statement.namedChildren) {
    if (child.type === "heredoc_redirect") {
      const body = child.namedChildren.find((part) => part.type === "heredoc_body");
      if (body) return body.text;
    }
    if (child.type === "herestring_redirect") return staticWord(child.namedChildren[0], walk);
    if (child.type === "file_redirect" && child.children.some((part) => part.type === "<")) {
      const file = staticWord(child.childForFieldName("destination"), walk);
      if (file && (walk.cwd !== undefined || isAbsolute(file))) return readText(resolve(walk.cwd ?? "/", file));
    }
  }
  return undefined;
}

const DEVICES = /^\/(dev\/(null|zero|tty|stdout|stderr|stdin|fd\/\d+)|proc\/self\/fd\/\d+)$/;

function redirect(node: Node, walk: Walk): void {
  const destination = node.childForFieldName("destination");
  if (!destination || destination.type === "number") return;
  // The operator is the text between the descriptor and the destination: the grammar leaves
  // `1<>file` an ERROR node there.
  const descriptor = node.childForFieldName("descriptor");
  const operator = node.text.slice((descriptor ? descriptor.endIndex : node.startIndex) - node.startIndex, destination.startIndex - node.startIndex).trim();
  if (![">", ">>", ">|", "&>", "&>>", "<>", ">&"].includes(operator)) return; // `<` reads; `>&2` duplicates
  const value = wordValue(destination, walk);
  const path = value === undefined ? undefined : judgedPath(value);
  if (path !== undefined && path !== "-") add(walk, path);
}

/**
 * A write the text names nowhere (`curl -K opts`, a shell reading its program from a pipe): judged
 * as a relative path after a cd the hook cannot follow whose name could be anything, so any claim
 * of another session is in its way.
 */
const UNKNOWABLE = `${UNKNOWN_MARK}.`;

/** A name the text does not give, written into a directory (`curl -O "$url"`): any file there. */
const anyIn = (directory: string | undefined): string => (directory === undefined ? UNKNOWABLE : `${GLOB_MARK}${join(directory, "*")}`);

/** Files the text does not name, written anywhere under a directory (wget -r, tar x): checked as its `**` glob. */
const anyUnder = (directory: string | undefined): string => (directory === undefined ? UNKNOWABLE : `${GLOB_MARK}${join(directory, "**")}`);

/**
 * Where a source lands under its own name in a directory (cp, mv, ln, install, rsync). A source the
 * text does not fix lands as its judged path names it: `"$d/a.ts"` as a.ts, `"out-$n"` as any
 * out-*; one whose name is unknown (`"$f"`) as anything under the directory (`cp -r` puts a tree there).
 */
function landing(directory: string | undefined, source: string): string {
  const glob = source.startsWith(GLOB_MARK);
  const bare = glob ? source.slice(GLOB_MARK.length) : source.startsWith(UNKNOWN_MARK) ? source.slice(UNKNOWN_MARK.length) : source;
  const name = basename(bare);
  if (source === UNKNOWABLE || name === "**") return anyUnder(directory);
  if (directory === undefined) return UNKNOWN_MARK + name;
  return glob ? `${GLOB_MARK}${join(directory, name)}` : join(directory, name);
}

function add(walk: Walk, path: string): void {
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
    walk.found.add(GLOB_MARK + (isAbsolute(bare) ? bare : join(walk.cwd as string, bare)));
    return;
  }
  const absolute = resolve(walk.cwd ?? "/", path);
  if (!DEVICES.test(absolute)) walk.found.add(absolute);
}

/** Stands, in a word's value, for a part the text does not fix: a variable, a substitution, arithmetic. */
const HOLE = "\u0001";
/** Starts a word's value whose first part is temp space: `$TMPDIR`, a mktemp result. */
const TEMP = "\u0002";

/** A word's value when the text fixes it: quotes removed, `~` expanded, a glob expanded against the files there. */
function staticWord(node: Node | null | undefined, walk: Walk): string | undefined {
  // A loop's variable over a list of one plain value is that value (Walk.bound).
  const bound = node ? walk.bound?.get(BOUND_WORD.exec(node.text)?.[1] ?? "") : undefined;
  if (bound?.length === 1 && !(bound[0] as string).startsWith(GLOB_MARK) && !(bound[0] as string).startsWith(UNKNOWN_MARK)) return bound[0];
  const value = wordValue(node, walk);
  return value === undefined || value.includes(HOLE) || value.includes(TEMP) ? undefined : value;
}

/** A word's value, with a HOLE for each part the text does not fix (and TEMP for a first part in temp space). */
function wordValue(node: Node | null | undefined, walk: Walk): string | undefined {
  if (!node) return undefined;
  if (node.type === "command_name") return wordValue(node.namedChildren[0], walk);
  const parts = node.type === "concatenation" ? node.namedChildren : [node];
  let value = "";
  const unknown = (part: Node, before: string) => (value + before === "" && isTemporary(part, walk) ? TEMP : HOLE);
  for (const part of parts) {
    if (part.type === "word" || part.type === "number") value += part.text.replace(/\\(.)/g, "$1");
    else if (part.type === "raw_string") value += part.text.slice(1, -1);
    else if (part.type === "simple_expansion" || part.type === "expansion") value += knownVariable(part, walk) ?? unknown(part, "");
    else if (part.type === "string") {
      // "$PWD/x", "$HOME/x": the variables the hook knows are put in; any other is a hole.
      let text = "";
      let at = part.startIndex + 1;
      for (const child of part.namedChildren) {
        if (child.type === "string_content") continue;
        const known = child.type === "simple_expansion" || child.type === "expansion" ? knownVariable(child, walk) : undefined;
        text += part.text.slice(at - part.startIndex, child.startIndex - part.startIndex).replace(/\\([$`"\\\n])/g, "$1");
        text += known ?? unknown(child, text);
        at = child.endIndex;
      }
      value += text + part.text.slice(at - part.startIndex, -1).replace(/\\([$`"\\\n])/g, "$1");
    } else value += unknown(part, ""); // a substitution, $'…', arithmetic: not known before it runs
  }
  if (value === "~" || value.startsWith("~/")) value = walk.home + value.slice(1);
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

/** `$(mktemp …)`: a command substitution that runs mktemp alone. */
function isMktemp(node: Node): boolean {
  const inner = node.type === "string" && node.namedChildren.length === 1 ? (node.namedChildren[0] as Node) : node;
  if (inner.type !== "command_substitution" || inner.namedChildren.length !== 1) return false;
  const command = inner.namedChildren[0] as Node;
  return command.type === "command" && command.childForFieldName("name")?.text === "mktemp";
}

/** TMPDIR, and the variables a script sets only to `$(mktemp …)`: none set otherwise (another assignment, a loop, read). */
function temporaryVariables(root: Node): Set<string> {
  const temporary = new Set<string>(["TMPDIR"]);
  const other = new Set<string>();
  for (const assignment of root.descendantsOfType("variable_assignment")) {
    const name = assignment.childForFieldName("name")?.text;
    const value = assignment.childForFieldName("value");
    if (name !== undefined) (value && isMktemp(value) && name !== "TMPDIR" ? temporary : other).add(name);
  }
  for (const loop of root.descendantsOfType("for_statement")) other.add(loop.childForFieldName("variable")?.text ?? "");
  for (const command of root.descendantsOfType("command")) {
    if (!/^(read|mapfile|readarray|getopts|printf|declare|typeset|local|export|unset)$/.test(command.childForFieldName("name")?.text ?? "")) continue;
    for (const argument of command.childrenForFieldName("argument")) other.add(argument.text);
  }
  for (const name of other) temporary.delete(name);
  return temporary;
}

/**
 * The path a written word names where the text does not fix all of it. In temp space: none.
 * Where an expansion is in a directory (`"$d/u.ts"`, `"$(pwd)/u.ts"`): the fixed tail after it, in
 * a place unknown. Where one is in the name (`"out-$n.ts"`): any file of that shape in the
 * directory, when that is fixed; a name that starts with one (`"$f"`, `"dir/$f"`) may hold a path
 * itself: anything under the directory, and with none fixed, any file.
 */
function judgedPath(value: string): string | undefined {
  if (value.startsWith(TEMP)) return undefined;
  const holes = value.replaceAll(TEMP, HOLE);
  if (!holes.includes(HOLE)) return value;
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

/** `$PWD`, `${PWD}`, `$HOME`, `$OLDPWD` where the walk knows them. */
function knownVariable(node: Node, walk: Walk): string | undefined {
  const name = /^\$\{?(\w+)\}?$/.exec(node.text)?.[1];
  if (name === "PWD") return walk.cwd;
  if (name === "HOME") return walk.home;
  if (name === "OLDPWD") return walk.previous;
  return undefined;
}

/** A word that is one variable and nothing else: `$f`, `${f}`, `"$f"`, `"${f}"`. */
const BOUND_WORD = /^"?\$\{?(\w+)\}?"?$/;

/** A word's values: a static word, or what an unquoted glob matches (bash keeps the word when nothing does). */
function wordValues(node: Node, walk: Walk): string[] | undefined {
  const bound = walk.bound?.get(BOUND_WORD.exec(node.text)?.[1] ?? "");
  if (bound !== undefined) return bound;
  const value = wordValue(node, walk);
  if (value === undefined) return undefined;
  if (value.includes(HOLE) || value.includes(TEMP)) return outputs([judgedPath(value)]); // "$d/u.ts": judged by what the text fixes
  const unquotedGlob = (node.type === "word" || node.type === "concatenation") && /(^|[^\\])[*?[]/.test(node.text) && !/['"]/.test(node.text);
  if (!unquotedGlob) return [value];
  // `**` walks a whole tree (`/**` the whole machine): not expanded, but checked as a glob against
  // the claims, which costs no directory reads. Without globstar bash reads it as `*`: a superset.
  if (value.includes("**")) return [`${GLOB_MARK}${value}`];
  const require = createRequire(import.meta.url);
  const fastGlob = require("fast-glob") as typeof import("fast-glob");
  // An unreadable directory is passed over, as bash does, not a reason to judge nothing.
  let matches: string[] = [];
  try {
    if (walk.cwd === undefined && !isAbsolute(value)) return [value];
    matches = fastGlob.sync(value, { cwd: walk.cwd ?? "/", onlyFiles: false, dot: false, absolute: true, suppressErrors: true });
  } catch {
    matches = [];
  }
  return matches.length > 0 ? matches : [value];
}

/** sudo's options, which sudoedit shares. */
const SUDO: Syntax = {
  short: "a:C:c:D:g:h:p:R:r:T:t:U:u:",
  long: { "auth-type": "a", "close-from": "C", "login-class": "c", chdir: "D", edit: "e", group: "g", host: ":", prompt: "p", chroot: "R", role: "r", "command-timeout": "T", type: "t", "other-user": "U", user: "u" },
};

/**
 * Wrappers that run the command after their own options (`sudo -u x cmd`, `env A=1 cmd`, `timeout
 * 5 cmd`), read up to the first operand: `positional` operands of their own, then the command.
 * `chdir`: the option that makes the command run elsewhere; `writes`: options whose value is a file
 * the wrapper writes itself (`time -o out`); `edits`: the option that makes the operands files to
 * edit instead of a command (`sudo -e f`); `split`: the option whose value is a command line
 * (`env -S 'cmd args'`).
 */
const WRAPPERS: Record<string, { syntax: Syntax; positional?: number; chdir?: string; writes?: string[]; edits?: string; split?: string }> = {
  sudo: { syntax: SUDO, chdir: "D", edits: "e" },
  doas: { syntax: { short: "a:C:u:" } },
  env: { syntax: { short: "C:S:u:", long: { chdir: "C", "split-string": "S", unset: "u" } }, chdir: "C", split: "S" },
  nice: { syntax: { short: "n:", long: { adjustment: "n" } } },
  nohup: { syntax: {} },
  time: { syntax: { short: "f:o:", long: { format: "f", output: "o" } }, writes: ["o"] },
  command: { syntax: {} },
  exec: { syntax: { short: "a:" } },
  builtin: { syntax: {} },
  stdbuf: { syntax: { short: "e:i:o:", long: { error: "e", input: "i", output: "o" } } },
  timeout: { syntax: { short: "k:s:", long: { "kill-after": "k", signal: "s" } }, positional: 1 },
  ionice: { syntax: { short: "c:n:p:P:u:", long: { class: "c", classdata: "n", pid: "p", pgid: "P", uid: "u" } } },
  chronic: { syntax: {} },
  coproc: { syntax: {} },
};

/** bash/sh -c SCRIPT: options end at the first operand; `-o`/`+o` take a name. */
const SHELL: Syntax = { short: "o:O:", long: { rcfile: ":", "init-file": ":" }, ordered: true, plus: true };

const SHELLS = ["bash", "sh", "zsh", "dash", "ksh"];

/** A program's own name for stdin: `-`, /dev/stdin, descriptor 0. */
const STDIN = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/** perl's switches, for its -i rule and as an interpreter. */
const PERL: Syntax = { short: "e:E:i::I::M::m::", ordered: true };

/**
 * Interpreters that read their program from stdin when given no script (or `-`, /dev/stdin), each
 * with its options and those that give it something else to run or do (`-c`, `-e`, `-m`, `--version`).
 */
const INTERPRETERS: Record<string, { syntax: Syntax; inline: string[] }> = {
  python: { syntax: { short: "c:m:W:X:", long: { "check-hash-based-pycs": ":", help: "h", version: "V" }, ordered: true }, inline: ["c", "m", "h", "V"] },
  node: {
    syntax: {
      short: "e:p:r:C:",
      long: { eval: "e", print: "p", require: "r", conditions: "C", check: "c", help: "h", version: "v", test: "", ...valuedLong("import loader experimental-loader input-type env-file title") },
      ordered: true,
    },
    inline: ["e", "p", "c", "h", "v", "test"],
  },
  perl: { syntax: PERL, inline: ["e", "E", "v", "V"] },
  ruby: { syntax: { short: "C:e:E:F:I:r:0::i::K::T::W::x::", long: { help: "h", version: "", ...valuedLong("encoding enable disable") }, ordered: true }, inline: ["e", "v", "h", "version"] },
  php: { syntax: { short: "B:c:d:E:f:F:r:R:S:t:z:", ordered: true }, inline: ["r", "f", "R", "F", "B", "E", "S", "a", "h", "i", "l", "m", "s", "v", "w"] },
};

/** python3.12 and pypy3 are python; nodejs is node. */
const interpreterOf = (name: string) => INTERPRETERS[name.replace(/^(python|pypy)[\d.]*$/, "python").replace(/^nodejs$/, "node")];

/** xargs' options: its command follows them. */
const XARGS: Syntax = {
  short: "a:d:E:e::I:i::L:l::n:P:s:",
  long: { "arg-file": "a", delimiter: "d", eof: "e", replace: "i", "max-lines": "l", "max-args": "n", "max-procs": "P", "max-chars": "s", "process-slot-var": ":" },
  ordered: true,
};

/** The word that stands, in the command xargs runs, for the arguments it reads. */
const INPUT = '"$XARGS_INPUT"';

const ASSIGNMENT = /^([A-Za-z_]\w*)=(.*)$/s;

function command(node: Node, walk: Walk, nested: Nested[], stdin: string | undefined, piped: boolean): void {
  // Redirections written inside the command node (`echo hi > f` parses so in some positions).
  for (const child of node.namedChildren) if (child.type === "file_redirect") redirect(child, walk);
  for (const child of node.namedChildren) if (child.type === "command_substitution" || child.type === "process_substitution") visit(child, walk, nested);
  const nameNode = node.childForFieldName("name");
  const words = [nameNode, ...node.childrenForFieldName("argument")].filter((word): word is Node => word !== null);
  let argv: Array<string | undefined> = words.map((word) => staticWord(word, walk));
  // `SIMPLE_BACKUP_SUFFIX=.bak cp -b a b`: the command's own variables (one the text does not fix is unknown).
  const environment: Environment = { ...walk.environment };
  for (const child of node.namedChildren) {
    if (child.type !== "variable_assignment") continue;
    const name = child.childForFieldName("name")?.text;
    const value = child.childForFieldName("value");
    if (name !== undefined) environment[name] = value ? staticWord(value, walk) : "";
  }
  // Wrappers first: what they run is the command.
  let here: Walk = { ...walk, environment };
  for (let guard = 0; guard < 5; guard++) {
    const wrapper = WRAPPERS[basename(argv[0] ?? "")];
    if (!wrapper) break;
    let index = 1;
    let positional = wrapper.positional ?? 0;
    for (;;) {
      const reading = readOptions(argv, { ...wrapper.syntax, ordered: true }, index);
      // `env -C dir`, `env -iC dir`, `env --chdir=dir`, `sudo -D dir`: the command runs there.
      if (wrapper.chdir !== undefined && reading.has(wrapper.chdir)) here = { ...here, cwd: directoryAt(here.cwd, reading.value(wrapper.chdir)) };
      for (const { value, at } of (wrapper.writes ?? []).flatMap((key) => reading.occurrences(key))) {
        const paths = value !== undefined ? outputs([value]) : at === undefined ? [] : (wordValues(words[at] as Node, here) ?? []);
        for (const path of paths) add(here, path);
      }
      if (wrapper.edits !== undefined && reading.has(wrapper.edits)) {
        // sudo -e f g (sudoedit): each operand is a file it writes back.
        for (const at of reading.operands) for (const path of wordValues(words[at] as Node, here) ?? []) add(here, path);
        return;
      }
      if (wrapper.split !== undefined && reading.has(wrapper.split)) {
        // env -S 'cmd args' rest: the string is split into words and the rest follows. Read as a
        // shell line of env's (so `-S 'A=1 cmd'` and `-S '-C dir cmd'` keep their meaning): a
        // redirection in it, which env passes on as a word, is judged a write, never the reverse.
        const line = reading.value(wrapper.split);
        if (line !== undefined) nested.push({ script: ["env", line, ...words.slice(reading.end).map((word) => word.text)].join(" "), cwd: here.cwd });
        else add(here, UNKNOWABLE); // env -S "$cmd": a command line the text does not give
        return;
      }
      index = reading.end;
      const arg = argv[index];
      if (arg === undefined) return;
      const assignment = ASSIGNMENT.exec(arg);
      if (assignment) here = { ...here, environment: { ...here.environment, [assignment[1] as string]: assignment[2] } };
      if (arg === "-" || assignment) index++; // `env - A=1 cmd`: `-` is env's -i
      else if (positional > 0) {
        positional--;
        index++;
      } else break;
    }
    argv = argv.slice(index);
    words.splice(0, index);
  }
  const name = basename(argv[0] ?? "");
  if (!name) return;
  const args = argv.slice(1);
  const argWords = words.slice(1);
  const values = (from: number[] | undefined = undefined) => {
    const out: string[] = [];
    args.forEach((_, index) => {
      if (from && !from.includes(index)) return;
      const word = argWords[index];
      const found = word && wordValues(word, here);
      if (found) out.push(...found);
    });
    return out;
  };
  const rule = RULES[name];
  if (name === "cd" || name === "pushd" || name === "popd") return changeDirectory(name, args, walk);
  // `bash <(curl …)`, `. <(cmd)`: a program read from a pipe the text does not give.
  const piping = (at: number | undefined) => at !== undefined && argWords[at]?.type === "process_substitution";
  if (SHELLS.includes(name)) {
    const reading = readOptions(args, SHELL);
    const first = reading.operands[0];
    if (reading.has("c")) {
      const script = first === undefined ? undefined : args[first];
      if (script !== undefined) nested.push({ script, cwd: here.cwd });
      else if (first !== undefined) add(here, UNKNOWABLE); // bash -c "$(curl …)"
    } else if (first === undefined || STDIN.test(args[first] ?? "") || reading.has("s")) {
      // The program comes on stdin: a heredoc or a file the hook reads is read in turn; a pipe
      // (`curl … | sh`), or a file it cannot read, runs commands it cannot see.
      if (stdin !== undefined) nested.push({ script: stdin, cwd: here.cwd });
      else if (!reading.has("n", "--version", "--help")) add(here, UNKNOWABLE);
    } else if (piping(first)) add(here, UNKNOWABLE);
    return;
  }
  if (name === "source" || name === ".") {
    // As `bash file` (a script on disk is not read): a process substitution, or stdin.
    if (piping(0)) add(here, UNKNOWABLE);
    else if (STDIN.test(args[0] ?? "") && args[0] !== "-") {
      if (stdin !== undefined) nested.push({ script: stdin, cwd: here.cwd });
      else add(here, UNKNOWABLE);
    }
    return;
  }
  if (name === "eval") {
    // eval 'rm f' is read as its line; eval "$x", eval "$(tool init)": code the text does not give,
    // unless the tool is one that prints variable settings and functions for a shell (ENVIRONMENT_SETUP).
    if (args.every((arg) => arg !== undefined)) nested.push({ script: args.join(" "), cwd: here.cwd });
    else if (!argWords.every((word, index) => args[index] !== undefined || printsEnvironment(word))) add(here, UNKNOWABLE);
    return;
  }
  if (name === "xargs") {
    // The command runs with arguments read from xargs' input: read as that command with an operand
    // the text does not fix (or, with -I, with that operand in place of each word holding the
    // replacement). A shell or interpreter it runs is code the hook cannot see with those arguments.
    const reading = readOptions(args, XARGS);
    const inner = args[reading.end];
    if (reading.end >= args.length) return; // echo
    if (inner === undefined || SHELLS.includes(basename(inner)) || interpreterOf(basename(inner)) || ["eval", "source", "."].includes(basename(inner))) {
      add(here, UNKNOWABLE);
      return;
    }
    const replace = reading.has("I") ? reading.value("I") : reading.has("i") ? (reading.value("i") ?? "{}") : undefined;
    const texts = argWords.slice(reading.end).map((word) => word.text);
    const line = replace === undefined ? [...texts, INPUT] : texts.map((text) => (text.includes(replace) ? INPUT : text));
    nested.push({ script: line.join(" "), cwd: here.cwd });
    return;
  }
  if (name === "find") return findCommand(args, argWords, here, nested);
  const interpreter = interpreterOf(name);
  if (interpreter) {
    // `curl … | python3`, `| node -`, `ruby <(curl …)`: a program the text does not give. A script
    // file, a heredoc, `-c '…'`, are read by the program alone, as before: not judged.
    const reading = readOptions(args, interpreter.syntax);
    const program = reading.operands[0];
    if (!reading.has(...interpreter.inline) && ((piped && (program === undefined || STDIN.test(args[program] ?? ""))) || piping(program))) add(here, UNKNOWABLE);
  }
  const text = (index: number) => wordValue(argWords[index], here);
  if (rule) for (const path of rule.writes({ args, reading: readOptions(args, rule.syntax), values, stdin, walk: here, text })) add(here, path);
}

/**
 * Tools whose output is meant for `eval` and only sets variables and defines functions for the shell
 * (`eval "$(ssh-agent -s)"`, `eval "$(pyenv init -)"`, `eval "$(brew shellenv)"`): no file is
 * written by running it. direnv is not one: its output runs the project's .envrc.
 */
const ENVIRONMENT_SETUP =
  /^(ssh-agent( -[sckD]+)*|keychain( [-\w=.]+)*|(pyenv|rbenv|nodenv|goenv|jenv|plenv) init( -| --path| -- ?\w+| \w+)*|pyenv virtualenv-init -|(\/[\w./-]+\/)?brew shellenv( \w+)?|(conda|micromamba|mamba) shell\.\w+ hook|dircolors( -[bcp])*( [\w./~-]+)?|opam env( --?[\w=-]+)*|fnm env( --?[\w=-]+)*|mise (activate|env)( --?[\w=-]+| \w+)*|zoxide init \w+( --?[\w=-]+)*|starship init \w+( --print-full-init)?)$/;

/** A word that is `"$(tool …)"` or `$(tool …)` of one of ENVIRONMENT_SETUP's tools and nothing else. */
function printsEnvironment(word: Node): boolean {
  const inner = word.type === "string" && word.namedChildren.length === 1 ? word.namedChildren[0] : word;
  if (inner?.type !== "command_substitution" || word.text.replace(/^"|"$/g, "") !== inner.text) return false;
  const code = inner.text.replace(/^(\$\(|`)|(\)|`)$/g, "").trim().replace(/\s+/g, " ");
  return ENVIRONMENT_SETUP.test(code);
}

/** The variable that stands for `{}` in the command `find -exec` runs (Walk.bound). */
const FOUND = "__claims_find_files";

/** find's tests and actions that take a value (`-newerXY` too); `-fprintf` takes the file, then a format. */
const FIND_VALUED = new Set(
  `-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -lname -ilname -type -xtype -user -group -uid -gid
  -perm -size -links -inum -samefile -newer -anewer -cnewer -amin -atime -cmin -ctime -mmin -mtime -used -maxdepth -mindepth
  -fstype -context -printf -files0-from -fprint -fprint0 -fls -fprintf`.split(/\s+/),
);

/**
 * find: `-delete` removes what it finds under each starting point (read as `rm -r` of it); `-fprint`,
 * `-fprint0`, `-fprintf` and `-fls` write their file; `-exec`, `-execdir`, `-ok` and `-okdir` run a
 * command, read in turn with each `{}` standing for any file under the starting points (a starting
 * point that is a file, for itself). `-execdir` runs it in each file's directory: a place the text
 * does not fix. The tests are not read: `-name '*.ts'` narrows what is found, but a claim anywhere
 * under the starting point is judged as if found.
 */
function findCommand(args: Array<string | undefined>, words: Node[], here: Walk, nested: Nested[]): void {
  let index = 0;
  // -H, -L, -P, -O3, -D debugopts: before the starting points.
  while (index < args.length && /^-([HLP]|O\d*|D)$/.test(args[index] ?? "")) index += args[index] === "-D" ? 2 : 1;
  const starts: string[] = [];
  for (; index < args.length; index++) {
    const arg = args[index];
    if (arg !== undefined && ((arg.startsWith("-") && arg.length > 1) || ["(", ")", "!", ","].includes(arg))) break;
    starts.push(...(wordValues(words[index] as Node, here) ?? [UNKNOWABLE]));
  }
  // Where each starting point is: unknown, a file standing for itself, or a directory for everything under it.
  const roots = (starts.length > 0 ? starts : ["."]).map((start) => within(here.cwd, start));
  const found = roots.map((root) => (root.startsWith(UNKNOWN_MARK) ? UNKNOWABLE : root.startsWith(GLOB_MARK) || isDirectory(root) || !exists(root) ? anyUnder(root.replace(GLOB_MARK, "")) : root));
  for (; index < args.length; index++) {
    const arg = args[index] ?? "";
    if (arg === "-delete") for (const root of roots) add(here, root.startsWith(UNKNOWN_MARK) ? UNKNOWABLE : root);
    else if (["-fprint", "-fprint0", "-fls", "-fprintf"].includes(arg)) {
      for (const path of words[index + 1] === undefined ? [] : (wordValues(words[index + 1] as Node, here) ?? [])) add(here, path);
    } else if (["-exec", "-execdir", "-ok", "-okdir"].includes(arg)) {
      // The command's words up to `;`, or to `+` right after a `{}`. A `{}` inside a word is a name
      // unknown (`{}.bak`), or, in a shell's script (`sh -c 'sed -i … {}'`), the files found.
      const line: string[] = [];
      const shell = SHELLS.includes(basename(args[index + 1] ?? ""));
      let end = index + 1;
      for (; end < args.length; end++) {
        const value = args[end];
        if (value === ";" || (value === "+" && args[end - 1] === "{}")) break;
        const word = words[end] as Node;
        if (value === "{}") line.push(`"$${FOUND}"`);
        else if (value?.includes("{}") && shell) line.push(`'${value.replaceAll("'", "'\\''").replaceAll("{}", `"$${FOUND}"`)}'`);
        else if (value?.includes("{}")) line.push(`"${value.replace(/[\\"$`]/g, "\\$&").replaceAll("{}", `\${${FOUND}}`)}"`);
        else line.push(word.text);
      }
      if (line.length > 0) nested.push({ script: line.join(" "), cwd: arg.endsWith("dir") ? undefined : here.cwd, bound: new Map([[FOUND, found]]) });
      index = end;
      continue;
    }
    if (FIND_VALUED.has(arg) || /^-newer[aBcmt][aBcmt]$/.test(arg)) index += arg === "-fprintf" ? 2 : 1;
  }
}

/** Where `cd`, `pushd` and `popd` leave the walk: a directory the text fixes, or unknown. */
function changeDirectory(name: string, args: Array<string | undefined>, walk: Walk): void {
  const operands = args.filter((arg) => arg === undefined || !/^-[LPe@n]+$/.test(arg));
  const to = operands[0];
  const from = walk.cwd;
  const at = (path: string | undefined) => directoryAt(from, path);
  if (name === "popd") {
    walk.cwd = walk.stack.length > 0 ? walk.stack.pop() : undefined;
  } else if (name === "pushd") {
    walk.stack.push(from);
    walk.cwd = to === undefined || /^[+-]\d+$/.test(to) ? undefined : at(to);
  } else if (operands.length === 0) {
    walk.cwd = walk.home;
  } else if (to === "-") {
    walk.cwd = walk.previous;
  } else {
    walk.cwd = at(to);
  }
  walk.previous = from;
}

/**
 * How a command takes its options, as getopt reads them. `short` is getopt's optstring: a letter
 * followed by `:` takes a value, the rest of its cluster or else the next argument (`-t dst`,
 * `-tdst`, `-at dst`: in a cluster, letters are flags up to the first that takes a value); by `::`,
 * only the rest of its cluster (`sed -i.bak`, `sed -ni`); any other letter, listed or not, is a
 * flag. `long` names long options, each by the letter it stands for or, for one with no letter, `:`
 * (takes a value: `--name=value` or `--name value`), `::` (only as `--name=value`) or `` (a flag).
 * An unambiguous start of a listed name stands for it (`--target dst`), as with getopt_long.
 */
interface Syntax {
  short?: string;
  long?: Record<string, string>;
  /** Options end at the first operand (sudo, env, bash, perl, awk), where GNU tools take them anywhere. */
  ordered?: boolean;
  /** `+o name`, `+x`: bash's options that turn a setting off. */
  plus?: boolean;
}

/** A command's arguments read by its syntax: its options' values and its operands, from one scan. */
interface Reading {
  /** Indexes of the operands: the arguments that are neither options nor an option's value. */
  operands: number[];
  /** Where the options end: the first operand (after `--`), where a wrapper's command starts. */
  end: number;
  /** Whether one of these options is given (an option is named by its letter, or by its long name when it has none). */
  has: (...keys: string[]) => boolean;
  /** The value of the option's last occurrence: undefined when it is not given or the text does not fix its value. */
  value: (key: string) => string | undefined;
  /** The values of each of its occurrences, in order. */
  values: (key: string) => Array<string | undefined>;
  /** Each occurrence's value and, when it is an argument of its own, that argument's index. */
  occurrences: (key: string) => Array<{ value: string | undefined; at: number | undefined }>;
}

/** 0: a flag; 1: takes a value, attached or the next argument; 2: takes one only attached. */
type Takes = 0 | 1 | 2;

function shortTakes(syntax: Syntax, letter: string): Takes {
  const short = syntax.short ?? "";
  const at = letter === ":" ? -1 : short.indexOf(letter);
  if (at === -1 || short[at + 1] !== ":") return 0;
  return short[at + 2] === ":" ? 2 : 1;
}

/** The long option a name (or an unambiguous start of one) stands for, or undefined for one not listed. */
function longOption(syntax: Syntax, name: string): { key: string; takes: Takes } | undefined {
  const table = syntax.long ?? {};
  const names = Object.hasOwn(table, name) ? [name] : name === "" ? [] : Object.keys(table).filter((known) => known.startsWith(name));
  const found = new Map<string, Takes>();
  for (const known of names) {
    const spec = table[known] as string;
    if (spec !== "" && spec !== ":" && spec !== "::") found.set(spec, shortTakes(syntax, spec));
    else found.set(known, spec === ":" ? 1 : spec === "::" ? 2 : 0);
  }
  const [only, ...more] = [...found];
  return only === undefined || more.length > 0 ? undefined : { key: only[0], takes: only[1] };
}

/**
 * The one reading of options every rule and wrapper uses. `--` ends the options; a lone `-` is an
 * operand; a word the text does not fix is an operand, or the value of the option before it.
 */
function readOptions(args: Array<string | undefined>, syntax: Syntax, start = 0): Reading {
  const given: Array<{ key: string; value: string | undefined; at?: number }> = [];
  const operands: number[] = [];
  let end = args.length;
  let ended = false;
  for (let index = start; index < args.length; index++) {
    const arg = args[index];
    const option = !ended && arg !== undefined && arg.length > 1 && (arg.startsWith("-") || (syntax.plus === true && arg.startsWith("+")));
    if (!option || arg === "--") {
      if (syntax.ordered) {
        end = option ? index + 1 : index;
        for (let rest = end; rest < args.length; rest++) operands.push(rest);
        break;
      }
      if (option) ended = true;
      else operands.push(index);
      continue;
    }
    if (arg.startsWith("--")) {
      const equals = arg.indexOf("=");
      const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
      const attached = equals === -1 ? undefined : arg.slice(equals + 1);
      const known = longOption(syntax, name);
      if (known?.takes === 1 && attached === undefined) given.push({ key: known.key, value: args[++index], at: index });
      else given.push({ key: known?.key ?? `--${name}`, value: attached }); // one not listed: no rule asks for it
      continue;
    }
    for (let at = 1; at < arg.length; at++) {
      const letter = arg[at] as string;
      const takes = shortTakes(syntax, letter);
      if (takes === 0) {
        given.push({ key: letter, value: undefined });
        continue;
      }
      const rest = arg.slice(at + 1);
      given.push(rest !== "" || takes === 2 ? { key: letter, value: rest === "" ? undefined : rest } : { key: letter, value: args[++index], at: index });
      break;
    }
  }
  const occurrences = (key: string) => given.filter((option) => option.key === key).map(({ value, at }) => ({ value, at }));
  const values = (key: string) => occurrences(key).map((option) => option.value);
  return {
    occurrences,
    operands,
    end,
    has: (...keys) => given.some((option) => keys.includes(option.key)),
    value: (key) => values(key).pop(),
    values,
  };
}

interface RuleInput {
  args: Array<string | undefined>;
  /** The arguments read by the rule's syntax. */
  reading: Reading;
  /** The (glob-expanded) values of the arguments at those indexes (all of them when none are given). */
  values: (indexes?: number[]) => string[];
  stdin: string | undefined;
  walk: Walk;
  /** An argument's value with a HOLE where the text does not fix it (`of="$d/x"`). */
  text: (index: number) => string | undefined;
}

/**
 * The files options name (`sort -o out`, `curl -D h`): each value the text fixes, and where it does
 * not (`-o "$d/x"`), its word judged as a written path; never `-` (stdout). `origin`: where an
 * argument of the reading stands in the command's own (tar's old-style options are read rewritten).
 */
function optionFiles(input: RuleInput, keys: string[], reading = input.reading, origin = (at: number) => at): string[] {
  return keys.flatMap((key) => reading.occurrences(key).flatMap(({ value, at }) => (value !== undefined ? outputs([value]) : at === undefined ? [] : input.values([origin(at)]))));
}

/** Paths a unified diff writes: `+++ ` and `--- ` names (not /dev/null), `diff --git a/x b/y`, less `strip` leading components. */
function diffPaths(text: string, strip: number): string[] {
  const paths = new Set<string>();
  const stripped = (path: string) => path.split("/").slice(strip).join("/");
  for (const line of text.split(/\r?\n/)) {
    let match = /^(?:\+\+\+|---) ([^\t\n]+?)(?:\t.*)?$/.exec(line);
    if (match?.[1] && match[1] !== "/dev/null") {
      const path = stripped(match[1].trim());
      if (path) paths.add(path);
      continue;
    }
    match = /^diff --git a\/(\S+) b\/(\S+)$/.exec(line);
    if (match?.[1] && match[2]) {
      const partsStrip = Math.max(strip - 1, 0);
      for (const side of [match[1], match[2]]) paths.add(side.split("/").slice(partsStrip).join("/"));
    }
  }
  return [...paths];
}

/**
 * A path from a directory. Where the directory is unknown (after a cd the hook cannot follow, or an
 * option naming it from a variable: `cp -t "$d"`, `patch -d "$d"`, `git -C "$d"`), a relative path
 * is marked so, and judged by its name's tail: never as the harmless file of that name here.
 */
function within(cwd: string | undefined, path: string): string {
  if (path.startsWith(UNKNOWN_MARK)) return path;
  if (path.startsWith(GLOB_MARK)) {
    const bare = path.slice(GLOB_MARK.length);
    return cwd === undefined && !isAbsolute(bare) ? UNKNOWN_MARK + bare : GLOB_MARK + (cwd === undefined ? bare : resolve(cwd, bare));
  }
  return isAbsolute(path) ? resolve(path) : cwd === undefined ? UNKNOWN_MARK + path : resolve(cwd, path);
}

/** Where an option that names a directory puts what follows it (patch -d, curl --output-dir, wget -P): cwd when it is not given. */
function placeOf(reading: Reading, key: string, cwd: string | undefined): string | undefined {
  return reading.has(key) ? directoryAt(cwd, reading.value(key)) : cwd;
}

/** Where a directory is when the command runs from cwd: undefined when the text does not fix it. */
function directoryAt(cwd: string | undefined, path: string | undefined): string | undefined {
  return path === undefined ? undefined : isAbsolute(path) ? resolve(path) : cwd === undefined ? undefined : resolve(cwd, path);
}

function readText(path: string): string | undefined {
  if (!isAbsolute(path)) return undefined; // relative to a directory the text does not fix
  try {
    return statSync(path).size < 16 * 1024 * 1024 ? readFileSync(path, "utf8") : undefined;
  } catch {
    return undefined;
  }
}


/** cp, mv, ln, install: `SRC… DEST`, `-t DIR SRC…`; into a directory, each source lands under its own name. */
function copyTargets(input: RuleInput): string[] {
  const { args, reading, walk } = input;
  const { operands } = reading;
  const targetDirectory = reading.has("t");
  const sources = targetDirectory ? operands : operands.slice(0, -1);
  const last = operands[operands.length - 1];
  if (!targetDirectory && last === undefined) return [];
  const destination = targetDirectory ? reading.value("t") : args[last as number];
  if (destination === undefined) {
    if (!targetDirectory && input.text(last as number)?.startsWith(TEMP)) return []; // cp f "$TMPDIR/x": into temp space
    // -t "$d", or a last operand the text does not fix (cp f "$d"): each source lands under its
    // name (with --parents, its path) in a directory that could be anywhere. ("$d" may be a file
    // instead, of any name: it is judged as the directory it most often is; "$d/b.ts" as the file
    // b.ts too.)
    const named = targetDirectory ? [] : input.values([last as number]).filter((path) => path !== UNKNOWABLE);
    const parents = (source: string) => (source.startsWith("\0") ? landing(undefined, source) : UNKNOWN_MARK + source.replace(/^\/+/, ""));
    return [...named, ...input.values(sources).map((source) => (reading.has("parents") ? parents(source) : landing(undefined, source)))];
  }
  // cp --parents src/a.ts dst writes dst/src/a.ts: the directory (it must exist) stands for what lands under it.
  if (reading.has("parents")) return [destination];
  const intoDirectory = targetDirectory || (!reading.has("T") && (sources.length > 1 || isDirectory(within(walk.cwd, destination))));
  if (!intoDirectory) return [destination];
  const landed = input.values(sources).map((source) => landing(destination, source));
  return landed.length > 0 ? landed : [destination];
}

interface Rule {
  /** Its options, declared once: both their values and which arguments are operands come from reading them. */
  syntax: Syntax;
  writes: (input: RuleInput) => string[];
}

const operandsOf = (syntax: Syntax = {}): Rule => ({ syntax, writes: (input) => input.values(input.reading.operands) });

/** cp, mv, ln and install's -b (--backup[=CONTROL]), -S SUFFIX, -t DIR and -T, with each one's own. */
const copying = (short = "", long: Record<string, string> = {}): Syntax => ({
  short: `bS:t:T${short}`,
  long: { backup: "b", suffix: "S", "target-directory": "t", "no-target-directory": "T", ...long },
});

/** A variable of the command's environment: undefined when the text sets it to a value it does not fix. */
const variable = (environment: Environment, name: string, otherwise: string | undefined): string | undefined =>
  Object.hasOwn(environment, name) ? environment[name] : otherwise;

/** A path written as a glob: checked against the claims, never claimed (a path already in an unknown place keeps its mark). */
const globOf = (path: string): string => (path.startsWith(UNKNOWN_MARK) || path.startsWith(GLOB_MARK) ? path : GLOB_MARK + path);

/**
 * The backups GNU tools keep of the files they replace, by the version control asked for (else
 * VERSION_CONTROL, else `existing`): simple `f~` (or the suffix), numbered `f.~N~`, or, for
 * `existing`, numbered where a numbered backup is already there: either. A suffix the text does not
 * fix could be anything after the name.
 */
function backupNames(files: string[], control: string | undefined, suffix: string | undefined): string[] {
  const kind = control ?? "existing";
  const is = (...names: string[]) => kind !== "" && names.some((name) => name.startsWith(kind));
  if (is("none", "off")) return [];
  const simple = (file: string) => (suffix === undefined ? globOf(`${file}*`) : `${file}${suffix}`);
  const numbered = (file: string) => globOf(`${file}.~*~`);
  return files.flatMap((file) => (is("numbered", "t") ? [numbered(file)] : is("simple", "never") ? [simple(file)] : [simple(file), numbered(file)]));
}

/** cp, mv, ln and install with -b, --backup or -S: each file they replace is kept beside it, `dst~` (-S, SIMPLE_BACKUP_SUFFIX). */
function withBackups(input: RuleInput, files: string[]): string[] {
  const { reading, walk } = input;
  if (!reading.has("b", "S")) return files;
  const suffix = reading.has("S") ? reading.value("S") : variable(walk.environment, "SIMPLE_BACKUP_SUFFIX", "~");
  return [...files, ...backupNames(files, reading.value("b") ?? variable(walk.environment, "VERSION_CONTROL", undefined), suffix)];
}

/** Long options with no letter that take a value, named in one string. */
function valuedLong(names: string): Record<string, string> {
  return Object.fromEntries(names.trim().split(/\s+/).map((name) => [name, ":"]));
}

/** Written paths among option values: not `-` (stdout) nor one the text does not fix. */
const outputs = (paths: Array<string | undefined>): string[] => paths.filter((path): path is string => path !== undefined && path !== "-");

/** gzip's, bzip2's and xz's long options; their letters that take a value differ (gzip's -M is a flag, xz's a limit). */
const COMPRESSING: Record<string, string> = {
  suffix: "S",
  stdout: "c",
  "to-stdout": "c",
  test: "t",
  list: "l",
  decompress: "d",
  uncompress: "d",
  check: "C",
  format: "F",
  memlimit: "M",
  threads: "T",
  ...valuedLong("memlimit-compress memlimit-decompress block-size block-list filters"),
};

/** xz's --files[=F] and --files0[=F]: the files to compress, named in F or on stdin. */
const XZ_FILES: Record<string, string> = { files: "::", files0: "::" };

/** GNU tar's options; its modes are letters (`-x`, `-c`, `-t`) and their long names. */
const TAR: Syntax = {
  short: "b:C:f:F:g:H:I:K:L:N:T:V:X:",
  long: {
    extract: "x",
    get: "x",
    create: "c",
    append: "r",
    update: "u",
    catenate: "A",
    concatenate: "A",
    list: "t",
    diff: "d",
    compare: "d",
    delete: "",
    file: "f",
    directory: "C",
    "to-stdout": "O",
    "remove-files": "",
    "listed-incremental": "g",
    "files-from": "T",
    "exclude-from": "X",
    "blocking-factor": "b",
    "info-script": "F",
    "new-volume-script": "F",
    format: "H",
    "use-compress-program": "I",
    "starting-file": "K",
    "tape-length": "L",
    newer: "N",
    "after-date": "N",
    label: "V",
    backup: "::",
    checkpoint: "::",
    occurrence: "::",
    "atime-preserve": "::",
    ...valuedLong(`to-command index-file exclude owner group mode mtime transform xform strip-components suffix newer-mtime record-size
      rmt-command rsh-command volno-file quoting-style sort warning checkpoint-action owner-map group-map hole-detection`),
  },
};

const RULES: Record<string, Rule> = {
  rm: operandsOf(),
  rmdir: operandsOf(),
  unlink: operandsOf(),
  shred: operandsOf({ short: "n:s:", long: { iterations: "n", size: "s", "random-source": ":" } }),
  touch: operandsOf({ short: "d:r:t:", long: { date: "d", reference: "r", time: ":" } }),
  truncate: operandsOf({ short: "r:s:", long: { reference: "r", size: "s" } }),
  tee: operandsOf(),
  mkdir: { syntax: {}, writes: () => [] }, // creates, but writes no file anyone claims
  cp: { syntax: copying("", { sparse: ":", "no-preserve": ":", parents: "" }), writes: (input) => withBackups(input, copyTargets(input)) },
  install: {
    syntax: copying("dg:m:o:", { directory: "d", group: "g", mode: "m", owner: "o", "strip-program": ":" }),
    writes: (input) => (input.reading.has("d") ? [] : withBackups(input, copyTargets(input))),
  },
  ln: {
    syntax: copying(),
    writes: (input) => {
      const { operands } = input.reading;
      if (operands.length === 1 && !input.reading.has("t")) return withBackups(input, input.values(operands).map((target) => landing(".", target)));
      return withBackups(input, copyTargets(input));
    },
  },
  mv: {
    syntax: copying(),
    writes: (input) => {
      const { operands } = input.reading;
      return [...input.values(input.reading.has("t") ? operands : operands.slice(0, -1)), ...withBackups(input, copyTargets(input))];
    },
  },
  sudoedit: operandsOf(SUDO),
  sed: {
    // -i takes a suffix only attached: `sed -ie s/a/b/ f` keeps f's backup as fe, and s/a/b/ is the script.
    syntax: { short: "e:f:l:i::", long: { expression: "e", file: "f", "line-length": "l", "in-place": "i" } },
    writes: (input) => {
      const { reading } = input;
      if (!reading.has("i")) return [];
      return input.values(reading.has("e", "f") ? reading.operands : reading.operands.slice(1));
    },
  },
  perl: {
    // Perl's own reading: switches end at the script or first file; -i's extension and -I/-M/-m's
    // values are attached only. `perl -pie s/a/b/ f` is -i with extension "e".
    syntax: PERL,
    writes: (input) => {
      const { reading } = input;
      if (!reading.has("i")) return [];
      return input.values(reading.has("e", "E") ? reading.operands : reading.operands.slice(1));
    },
  },
  dd: { syntax: {}, writes: (input) => input.args.flatMap((_, index) => (input.text(index)?.startsWith("of=") ? outputs([judgedPath(input.text(index)?.slice(3) ?? "")]) : [])) },
  patch: {
    syntax: {
      short: "B:d:D:F:g:i:o:p:r:V:x:Y:z:",
      long: {
        prefix: "B",
        directory: "d",
        ifdef: "D",
        fuzz: "F",
        get: "g",
        input: "i",
        output: "o",
        strip: "p",
        "reject-file": "r",
        "version-control": "V",
        debug: "x",
        "basename-prefix": "Y",
        suffix: "z",
        "quoting-style": ":",
        "reject-format": ":",
        "read-only": ":",
        merge: "::",
        backup: "b",
        "backup-if-mismatch": "",
        "no-backup-if-mismatch": "",
      },
    },
    writes: (input) => {
      const { reading, walk } = input;
      // -d: patch changes to that directory before it opens anything, the -i, -o and -r files too.
      const base = placeOf(reading, "d", walk.cwd);
      const output = reading.value("o");
      const { operands } = reading;
      let patched: string[] = [];
      if (operands.length > 0) patched = input.values(operands.slice(0, 1));
      else {
        const from = reading.value("i");
        const text = reading.has("i") ? (from === undefined ? undefined : readText(within(base, from))) : input.stdin;
        const strip = reading.value("p");
        if (text !== undefined) patched = [...new Set(strip === undefined ? diffPaths(text, 0).flatMap((path) => [path, path.replace(/^[ab]\//, "")]) : diffPaths(text, Number(strip)))];
      }
      // Beside what it writes, the hunks it could not apply (f.rej, or -r's file; -r - keeps none),
      // and, unless -o, the original when a hunk applied only with an offset or fuzz (or always, -b).
      const results = output === undefined || output === "-" ? patched : [output];
      const rejects = reading.has("r") ? optionFiles(input, ["r"]) : results.map((file) => `${file}.rej`);
      const originals = reading.has("o") || (reading.has("no-backup-if-mismatch") && !reading.has("b")) ? [] : patchBackups(input, patched);
      return [...optionFiles(input, ["o"]), ...patched, ...rejects, ...originals].map((path) => within(base, path));
    },
  },
  apply_patch: {
    syntax: {},
    writes: (input) => {
      const text = input.stdin ?? input.args.find((arg) => arg?.includes("*** Begin Patch"));
      return text ? patchPaths(text) : [];
    },
  },
  git: { syntax: {}, writes: (input) => gitWrites(input) },
  sort: {
    syntax: {
      short: "k:o:S:t:T:y:",
      long: {
        key: "k",
        output: "o",
        "buffer-size": "S",
        "field-separator": "t",
        "temporary-directory": "T",
        "batch-size": ":",
        "compress-program": ":",
        "files0-from": ":",
        parallel: ":",
        "random-source": ":",
        sort: ":",
        check: "::",
      },
    },
    writes: (input) => optionFiles(input, ["o"]), // sort -uo out in
  },
  curl: {
    // Every curl option with a value has its letter here, so that none hides an -o after it.
    syntax: {
      short: "A:b:c:C:d:D:e:E:F:H:K:m:o:P:Q:r:t:T:u:U:w:x:X:y:Y:z:",
      long: {
        output: "o",
        "output-dir": ":",
        "remote-name": "O",
        "remote-name-all": "",
        config: "K",
        globoff: "g",
        url: ":",
        "dump-header": "D",
        "cookie-jar": "c",
        trace: ":",
        "trace-ascii": ":",
        stderr: ":",
        "etag-save": ":",
        libcurl: ":",
        ...valuedLong(`data-ascii data-binary data-raw data-urlencode json form-string connect-timeout max-time retry retry-delay
          retry-max-time cacert capath cert-type key key-type pass resolve connect-to proto proto-redir limit-rate max-filesize
          interface noproxy proxy-user oauth2-bearer aws-sigv4 request-target variable expect100-timeout max-redirs unix-socket
          abstract-unix-socket dns-servers happy-eyeballs-timeout-ms keepalive-time speed-limit speed-time`),
      },
    },
    writes: (input) => {
      const { args, reading, walk } = input;
      const directory = placeOf(reading, "output-dir", walk.cwd); // where -o's and -O's relative names land
      const into = (file: string) => (!reading.has("output-dir") ? [file] : isAbsolute(file) ? [file, within(directory, file.slice(1))] : [within(directory, file)]);
      const files = optionFiles(input, ["o"]).flatMap(into);
      // -O (--remote-name-all): the URL's last path segment, without query or fragment. -J asks the
      // server for a name, but curl creates that file only where none exists, and uses the URL's otherwise.
      const urls = [...reading.operands.map((at) => args[at]), ...reading.values("url")];
      const remote = !reading.has("O", "remote-name-all")
        ? []
        : urls.flatMap((url) => {
            if (url === undefined) return [anyIn(directory)];
            const name = urlName(url, false);
            // curl's URL globbing (`file[1-3].txt`, `{a,b}.txt`) fetches several: any name of that shape.
            return name === "" ? [] : /[[{]/.test(name) && !reading.has("g") ? [within(directory, GLOB_MARK + name.replace(/\[[^\]]*\]|\{[^}]*\}/g, "*"))] : into(name);
          });
      // -K: a config file can name any output (a `-` reads it from stdin).
      const config = reading.has("K") ? [UNKNOWABLE] : [];
      return [...files, ...remote, ...config, ...optionFiles(input, ["D", "c", "trace", "trace-ascii", "stderr", "etag-save", "libcurl"])];
    },
  },
  wget: {
    syntax: {
      short: "a:A:B:D:e:i:I:l:n:o:O:P:Q:R:t:T:U:w:X:",
      long: {
        "output-document": "O",
        "output-file": "o",
        "append-output": "a",
        "directory-prefix": "P",
        execute: "e",
        "input-file": "i",
        recursive: "r",
        mirror: "m",
        "page-requisites": "p",
        "force-directories": "x",
        spider: "",
        "content-disposition": "",
        "trust-server-names": "",
        "convert-links": "k",
        "backup-converted": "K",
        "no-warc-compression": "",
        "warc-cdx": "",
        config: ":",
        "rejected-log": ":",
        "save-cookies": ":",
        ...valuedLong(`header user password http-user http-password proxy-user proxy-password ftp-user ftp-password post-data post-file
          body-data body-file method referer load-cookies default-page restrict-file-names bind-address limit-rate certificate
          certificate-type private-key private-key-type ca-certificate ca-directory crl-file pinnedpubkey random-file egd-file ciphers
          secure-protocol hsts-file dns-timeout connect-timeout read-timeout waitretry retry-on-http-error report-speed progress
          start-pos prefer-family local-encoding remote-encoding use-askpass cut-dirs compression max-redirect backups
          accept-regex reject-regex regex-type exclude-domains follow-tags ignore-tags warc-file warc-header warc-max-size
          warc-dedup warc-tempdir`),
      },
    },
    writes: (input) => {
      const { args, reading, walk } = input;
      // The document, the log, and the WARC archive: F.warc.gz (F.warc uncompressed; F-NNNNN.warc.gz
      // and F-meta.warc.gz when split by size; F.cdx with --warc-cdx).
      const warc = optionFiles(input, ["warc-file"]).flatMap((file) => [
        `${file}.warc${reading.has("no-warc-compression") ? "" : ".gz"}`,
        ...(reading.has("warc-max-size") ? [globOf(`${file}-*.warc*`)] : []),
        ...(reading.has("warc-cdx") ? [`${file}.cdx`] : []),
      ]);
      const logs = [...optionFiles(input, ["O", "o", "a", "rejected-log", "save-cookies"]), ...warc];
      // A wgetrc command (-e) can set any output; the common ones that set none (robots=off) do not.
      if (reading.has("config") || !reading.values("e").every(setsNoOutput)) return [...logs, UNKNOWABLE];
      if (reading.has("O", "spider")) return logs;
      // Without -O, each URL's last path segment (index.html for none), in -P's directory.
      const directory = placeOf(reading, "P", walk.cwd);
      // Recursion, -x's host directories, -i's list of URLs, a name the server gives: files under it that the text does not name.
      if (reading.has("r", "m", "p", "x", "i", "content-disposition", "trust-server-names")) return [...logs, anyUnder(directory)];
      const files = reading.operands.map((at) => args[at]).map((url) => (url === undefined ? anyIn(directory) : within(directory, urlName(url, true) || "index.html")));
      // -K keeps each file it converts as f.orig; --backups=N rotates the one it replaces to f.1…f.N.
      const kept = files.flatMap((file) => [...(reading.has("K") ? [`${file}.orig`] : []), ...(reading.has("backups") ? [globOf(`${file}.[0-9]*`)] : [])]);
      return [...logs, ...files, ...kept];
    },
  },
  rsync: {
    syntax: {
      short: "B:e:f:M:T:@:",
      long: {
        "block-size": "B",
        rsh: "e",
        filter: "f",
        "remote-option": "M",
        "temp-dir": "T",
        "modify-window": "@",
        backup: "b",
        ...valuedLong(`address backup-dir bwlimit cc checksum-choice checksum-seed chmod chown compare-dest compress-choice
          compress-level config contimeout copy-as copy-dest debug dparam early-input exclude exclude-from files-from groupmap iconv
          include include-from info link-dest log-file log-file-format max-alloc max-delete max-size min-size only-write-batch
          out-format outbuf partial-dir password-file port protocol read-batch rsync-path skip-compress sockopts stderr stop-after
          stop-at suffix time-limit timeout usermap write-batch zc zl`),
      },
    },
    writes: (input) => {
      const { reading } = input;
      const logs = optionFiles(input, ["log-file", "write-batch", "only-write-batch"]);
      const batches = outputs([...reading.values("write-batch"), ...reading.values("only-write-batch")]).map((file) => `${file}.sh`);
      const { operands } = reading;
      if (operands.length < 2) return [...logs, ...batches];
      const destination = input.args[operands[operands.length - 1] as number];
      const sources = input.values(operands.slice(0, -1));
      // `rsync src/ dst` copies what is in src, `rsync src dst` src itself.
      const landed = (place: string | undefined) => sources.map((source) => (source.endsWith("/") ? (place ?? UNKNOWABLE) : landing(place, source)));
      const written = (files: string[], root: string | undefined) => [...files, ...rsyncBackups(input, files, root), ...logs, ...batches];
      if (destination === undefined) return written(landed(undefined), undefined); // "$d"/: a directory that could be anywhere
      if (/^[^/]*:/.test(destination)) return [...logs, ...batches]; // host:path is another machine's
      if (!destination.endsWith("/") && !isDirectory(within(input.walk.cwd, destination)) && sources.every((source) => !source.endsWith("/"))) return written([destination], dirname(destination));
      return written(landed(destination), destination);
    },
  },
  gzip: compressed(false, "b:S:"),
  bzip2: compressed(false),
  xz: compressed(false, "C:F:M:S:T:", XZ_FILES),
  gunzip: compressed(true, "b:S:"),
  bunzip2: compressed(true),
  unxz: compressed(true, "C:F:M:S:T:", XZ_FILES),
  awk: awkInPlace(),
  gawk: awkInPlace(),
  tar: { syntax: TAR, writes: (input) => tarWrites(input) },
  unzip: {
    // -x's names follow it: operands to us, which no rule reads.
    syntax: { short: "d:I:O:P:" },
    writes: (input) => {
      const { reading, walk } = input;
      // -l, -t, -v, -z, -Z list or test; -p and -c extract to stdout.
      if (reading.has("l", "t", "v", "z", "Z", "p", "c")) return [];
      return [anyUnder(placeOf(reading, "d", walk.cwd))]; // what the archive holds, under -d's directory
    },
  },
  "7z": sevenZip(),
  "7za": sevenZip(),
  "7zr": sevenZip(),
  "7zz": sevenZip(),
};

/**
 * tar x writes what the archive holds, which the text does not name: anything under -C's directory
 * (or here). tar c, r, u, A and --delete write the -f archive (and -g's snapshot; --remove-files
 * removes what they archive); t and d only read.
 */
function tarWrites(input: RuleInput): string[] {
  const { args, walk } = input;
  // `tar xzf a.tgz`: a first word without a dash is a cluster of letters whose values follow it, in order.
  let list = args;
  let origin = (at: number) => at;
  const first = args[0];
  if (first !== undefined && /^[A-Za-z]+$/.test(first)) {
    const rewritten: Array<string | undefined> = [];
    const from: number[] = [];
    let next = 1;
    for (const letter of first) {
      rewritten.push(`-${letter}`);
      from.push(0);
      if (shortTakes(TAR, letter) === 1) {
        rewritten.push(args[next]);
        from.push(next++);
      }
    }
    for (let at = next; at < args.length; at++) {
      rewritten.push(args[at]);
      from.push(at);
    }
    list = rewritten;
    origin = (at) => from[at] as number;
  }
  const reading = readOptions(list, TAR);
  const index = optionFiles(input, ["index-file"], reading, origin);
  if (reading.has("x")) {
    if (reading.has("O")) return index;
    if (reading.has("to-command")) return [...index, UNKNOWABLE]; // each file is fed to a command
    const places = reading.has("C") ? reading.values("C").map((directory) => directoryAt(walk.cwd, directory)) : [walk.cwd];
    return [...index, ...places.map(anyUnder)];
  }
  if (!reading.has("c", "r", "u", "A", "delete")) return index;
  // The archive is opened from where tar starts; -C moves only the names after it.
  const removed = !reading.has("remove-files") ? [] : reading.has("C") ? [UNKNOWABLE] : input.values(reading.operands.map(origin));
  return [...index, ...optionFiles(input, ["f"], reading, origin), ...(reading.has("c") ? optionFiles(input, ["g"], reading, origin) : []), ...removed];
}

/**
 * 7z COMMAND ARCHIVE FILES… -SWITCHES: x and e extract what the archive holds under -o's directory
 * (-so: to stdout); a, u, d and rn write the archive (`out` gets `.7z` when it has no extension;
 * -sdel removes the files it adds); l, t, h, i, b read. Each switch is a word: -o{dir}, -so, -mx=9.
 */
function sevenZip(): Rule {
  return {
    syntax: { short: "a::b::i::m::o::p::r::s::t::u::v::w::x::" },
    writes: (input) => {
      const { args, reading, walk } = input;
      const [command, archive, ...files] = reading.operands;
      const verb = command === undefined ? undefined : args[command];
      const switches = (key: string) => reading.values(key);
      if (verb === "x" || verb === "e") return switches("s").includes("o") ? [] : [anyUnder(placeOf(reading, "o", walk.cwd))];
      if (!["a", "u", "d", "rn"].includes(verb ?? "") || archive === undefined) return [];
      const named = input.values([archive]).flatMap((path) => (path.startsWith("\0") || /\.[^./]+$/.test(path) ? [path] : [path, `${path}.7z`]));
      return [...named, ...(switches("s").includes("del") ? input.values(files) : [])];
    },
  };
}

/**
 * rsync -b (--backup, or --backup-dir, which implies it) keeps each file it replaces: beside it as
 * `f~` (--suffix), or with --backup-dir=DIR (relative to the destination directory, `root`) at the
 * same place under DIR, suffix none unless given. A whole directory's contents keep theirs under it,
 * or anywhere under DIR.
 */
function rsyncBackups(input: RuleInput, files: string[], root: string | undefined): string[] {
  const { reading } = input;
  if (!reading.has("b", "backup-dir")) return [];
  const backupDirectory = reading.has("backup-dir") ? reading.value("backup-dir") : undefined;
  const suffix = reading.has("suffix") ? reading.value("suffix") : reading.has("backup-dir") ? "" : "~";
  const named = (file: string) => (suffix === undefined ? globOf(`${file}*`) : `${file}${suffix}`);
  if (!reading.has("backup-dir")) return files.filter((file) => file !== root && file !== UNKNOWABLE).map(named);
  const base = backupDirectory === undefined ? undefined : directoryAt(root === undefined ? undefined : resolve(input.walk.cwd ?? "/", root), backupDirectory);
  return files.map((file) => {
    if (file === root || file.startsWith(GLOB_MARK) || file === UNKNOWABLE) return anyUnder(base);
    const name = file.startsWith(UNKNOWN_MARK) || root === undefined ? basename(file) : relative(root, file);
    return base === undefined ? UNKNOWN_MARK + named(name) : named(join(base, name));
  });
}

/** The originals patch keeps: `f.orig` (-z, SIMPLE_BACKUP_SUFFIX, -V), or named with -B's prefix to the path or -Y's to the name. */
function patchBackups(input: RuleInput, files: string[]): string[] {
  const { reading, walk } = input;
  const suffix = reading.has("z") ? reading.value("z") : variable(walk.environment, "SIMPLE_BACKUP_SUFFIX", ".orig");
  if (reading.has("B", "Y")) {
    const prefix = reading.has("B") ? reading.value("B") : reading.value("Y");
    if (prefix === undefined || suffix === undefined) return [UNKNOWABLE]; // a prefix the text does not fix could put it anywhere
    const after = reading.has("z") ? suffix : "";
    return files.map((file) => (reading.has("B") ? `${prefix}${file}${after}` : join(dirname(file), `${prefix}${basename(file)}${after}`)));
  }
  const control = reading.value("V") ?? variable(walk.environment, "PATCH_VERSION_CONTROL", variable(walk.environment, "VERSION_CONTROL", undefined));
  return backupNames(files, control, suffix);
}

/**
 * wgetrc settings (`wget -e key=value`) that name no file and move none: how to fetch, not where
 * to write. wget reads a key without case, `_` or `-` (user_agent, useragent).
 */
const WGETRC_NO_OUTPUT = new Set(
  `robots useragent timeout readtimeout connecttimeout dnstimeout tries wait waitretry randomwait checkcertificate httpsonly
   verbose quiet serverresponse showprogress progress httpproxy httpsproxy ftpproxy noproxy useproxy inet4only inet6only
   preferfamily maxredirect header compression cache cookies limitrate retryconnrefused`.split(/\s+/),
);

function setsNoOutput(command: string | undefined): boolean {
  const equals = command?.indexOf("=") ?? -1;
  if (command === undefined || equals === -1) return false;
  return WGETRC_NO_OUTPUT.has(command.slice(0, equals).trim().toLowerCase().replace(/[-_]/g, ""));
}

/** The last segment of a URL's path (curl drops the query, wget keeps it); "" where it has none. */
function urlName(url: string, keepQuery: boolean): string {
  const rest = url.replace(/#.*$/s, "").replace(/^([A-Za-z][\w+.-]*:\/\/)?[^/?]*/, "");
  const query = rest.indexOf("?");
  const path = query === -1 ? rest : rest.slice(0, query);
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name === "" || !keepQuery || query === -1 ? name : name + rest.slice(query);
}

/** gzip f replaces f with f.gz; gunzip f.gz writes f. Not with -c, -t, -l (stdout, test, list). */
function compressed(decompressing: boolean, short = "", long: Record<string, string> = {}): Rule {
  return {
    syntax: { short, long: { ...COMPRESSING, ...long } },
    writes: (input) => {
      const { reading } = input;
      if (reading.has("c", "t", "l")) return [];
      // xz --files=F, --files0: the names come from F (or stdin), which the text does not give.
      if (reading.has("files", "files0")) return [...input.values(reading.operands), UNKNOWABLE];
      const files = input.values(reading.operands);
      return decompressing || reading.has("d") ? files.flatMap((file) => [file, file.replace(/\.[^./]+$/, "")]) : files;
    },
  };
}

/** gawk -i inplace (or --include=inplace): the files after the program are rewritten. */
function awkInPlace(): Rule {
  return {
    syntax: {
      short: "d::D::e:E:f:F:i:l:L::o::p::v:W:Z:",
      long: { source: "e", exec: "E", file: "f", "field-separator": "F", include: "i", load: "l", assign: "v", "dump-variables": "d", debug: "D", lint: "L", "pretty-print": "o", profile: "p" },
      ordered: true,
    },
    writes: (input) => {
      const { args, reading } = input;
      if (!reading.values("i").some((value) => /^inplace(\.awk)?$/.test(value ?? ""))) return [];
      const operands = reading.operands.filter((index) => !/^[A-Za-z_]\w*=/.test(args[index] ?? ""));
      return input.values(reading.has("f", "e", "E") ? operands : operands.slice(1));
    },
  };
}

/** The options of the git subcommands that write files of the working tree. */
const GIT: Record<string, Syntax> = {
  checkout: { short: "b:B:", long: { orphan: ":", detach: "", conflict: ":", "pathspec-from-file": ":" } },
  switch: { short: "c:C:", long: { create: "c", "force-create": "C", orphan: ":", detach: "", conflict: ":" } },
  reset: { long: { hard: "", merge: "", keep: "", "pathspec-from-file": ":" } },
  stash: { short: "m:", long: { message: "m", "pathspec-from-file": ":" } },
  clean: { short: "ne:", long: { "dry-run": "n", exclude: "e" } },
  merge: { short: "m:s:X:F:", long: { message: "m", strategy: "s", "strategy-option": "X", file: "F", "into-name": ":", quit: "" } },
  pull: { short: "s:X:", long: { strategy: "s", "strategy-option": "X", "upload-pack": ":", depth: ":", "shallow-since": ":", "shallow-exclude": ":", "dry-run": "" } },
  rebase: { short: "s:X:x:", long: { strategy: "s", "strategy-option": "X", exec: "x", onto: ":", quit: "", "edit-todo": "", "show-current-patch": "" } },
  "cherry-pick": { short: "m:X:", long: { mainline: "m", "strategy-option": "X", strategy: ":", quit: "" } },
  revert: { short: "m:X:", long: { mainline: "m", "strategy-option": "X", strategy: ":", quit: "" } },
  am: { short: "C:p:", long: { directory: ":", exclude: ":", include: ":", "patch-format": ":", quit: "", "show-current-patch": "" } },
  restore: { short: "s:SW", long: { source: "s", staged: "S", worktree: "W", conflict: ":", "pathspec-from-file": ":" } },
  rm: { long: { cached: "", "pathspec-from-file": ":" } },
  mv: {},
  apply: {
    short: "p:C:",
    long: { directory: ":", exclude: ":", include: ":", whitespace: ":", "build-fake-ancestor": ":", cached: "", stat: "", numstat: "", summary: "", check: "", apply: "", reject: "" },
  },
};

/**
 * The top of the work tree git acts on from cwd: `--work-tree`'s, else `GIT_WORK_TREE`'s, else the
 * nearest directory up from cwd that holds `.git`; unknown (undefined) where cwd is; none ("") outside a repository.
 */
function workTreeOf(cwd: string | undefined, given: string | undefined, environment: Environment): string | undefined {
  if (given !== undefined) return given;
  const fromEnvironment = environment.GIT_WORK_TREE;
  if (fromEnvironment !== undefined && fromEnvironment !== "") return directoryAt(cwd, fromEnvironment);
  if (cwd === undefined) return undefined;
  for (let directory = cwd; ; directory = dirname(directory)) {
    if (exists(join(directory, ".git"))) return directory;
    if (directory === dirname(directory)) return "";
  }
}

/**
 * The git subcommands that write files of the working tree: named files (checkout -- f, restore,
 * rm, mv, apply), and any tracked or untracked file of the work tree (checkout <branch>, switch,
 * reset --hard, stash, merge, pull, rebase, cherry-pick, revert, am), checked as everything under
 * its top; `clean` removes untracked files from cwd down, or under the paths it is given.
 */
function gitWrites(input: RuleInput): string[] {
  const { args, walk } = input;
  let index = 0;
  let cwd = walk.cwd;
  let workTree: string | undefined;
  let treeGiven = false;
  while (index < args.length && args[index]?.startsWith("-")) {
    const option = args[index] as string;
    // -C "$d", or -C after a cd it cannot follow: unknown, never the hook's own directory.
    if (option === "-C") cwd = directoryAt(cwd, args[index + 1]);
    if (option === "--work-tree" || option.startsWith("--work-tree=")) {
      // Paths are read from where git runs inside the work tree, or from its top when it runs outside.
      const tree = directoryAt(cwd, option.includes("=") ? option.slice(option.indexOf("=") + 1) : args[index + 1]);
      cwd = tree !== undefined && cwd !== undefined && `${cwd}/`.startsWith(`${tree}/`) ? cwd : tree;
      workTree = tree;
      treeGiven = true;
    }
    index += ["-C", "-c", "--git-dir", "--work-tree", "--namespace"].includes(option) ? 2 : 1;
  }
  const sub = args[index];
  const syntax = sub === undefined || !Object.hasOwn(GIT, sub) ? undefined : GIT[sub];
  if (syntax === undefined) return [];
  const rest = args.slice(index + 1);
  const reading = readOptions(rest, syntax);
  // Every file of the work tree: a tree unknown is any file at all; outside a repository git writes nothing.
  const wholeTree = (): string[] => {
    const top = treeGiven ? workTree : workTreeOf(cwd, undefined, walk.environment);
    return top === "" ? [] : [anyUnder(top)];
  };
  // A path the text does not fix (`git checkout "$x"`) is still one of the work tree's: git refuses any other.
  const at = (paths: string[]) => paths.flatMap((path) => (path === UNKNOWABLE ? wholeTree() : [isAbsolute(path) ? path : within(cwd, path)]));
  const values = (indexes: number[]) => input.values(indexes.map((i) => i + index + 1));
  const dashes = rest.indexOf("--");
  const afterDashes = dashes === -1 ? [] : rest.map((_, i) => i).filter((i) => i > dashes);
  if (rest.some((arg) => arg === "-h" || arg === "--help")) return [];
  switch (sub) {
    case "checkout": {
      if (dashes !== -1) return at(values(afterDashes));
      if (reading.has("pathspec-from-file")) return wholeTree();
      const operands = reading.operands;
      // `git checkout -b new`, `--detach`: the files stay as they are; with a start point they change to it.
      if (reading.has("b", "B", "orphan", "detach")) return operands.length === 0 ? [] : wholeTree();
      // `git checkout f`, `git checkout HEAD f`, `git checkout .`: an operand that names a file or
      // directory there is a path (git reads it so when no branch has that name); a branch is not.
      // Where the directory is unknown, every operand counts.
      const paths = operands.filter((i) => cwd === undefined || exists(within(cwd, rest[i] ?? "")));
      if (paths.length > 0) return at(values(paths));
      // `git checkout main`: every file that differs between the branches (or, for a name that is
      // neither, a file of that name restored from the index); `git checkout main new.ts`: a file
      // not here yet. Both are within the work tree.
      return operands.length === 0 ? [] : wholeTree();
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
      if ((action === "push" || action === "save") && dashes !== -1) return at(values(afterDashes));
      if (action === "push" && reading.operands.length > 1) return at(values(reading.operands.slice(1)));
      return wholeTree();
    }
    case "clean": {
      if (reading.has("n")) return [];
      // Untracked files from where it runs down, or under the paths given.
      const paths = dashes !== -1 ? afterDashes : reading.operands;
      return paths.length > 0 ? at(values(paths)) : [anyUnder(cwd)];
    }
    case "merge":
    case "pull":
    case "rebase":
    case "cherry-pick":
    case "revert":
    case "am":
      return reading.has("quit", "edit-todo", "show-current-patch", "dry-run") ? [] : wholeTree();
    case "restore":
      if (reading.has("S") && !reading.has("W")) return [];
      return at(values(reading.operands));
    case "rm":
      return reading.has("cached") ? [] : at(values(reading.operands));
    case "mv":
      return at(values(reading.operands));
    case "apply": {
      // --stat, --numstat, --summary and --check turn applying off, unless --apply turns it back on.
      if (reading.has("cached") || (reading.has("stat", "numstat", "summary", "check") && !reading.has("apply"))) return [];
      const strip = reading.value("p");
      const files = values(reading.operands);
      const texts = files.length > 0 ? files.map((file) => readText(within(cwd, file))) : [input.stdin];
      const root = placeOf(reading, "directory", cwd);
      const paths = texts.flatMap((text) => (text === undefined ? [] : diffPaths(text, strip === undefined ? 1 : Number(strip))));
      // --reject: the hunks that do not apply are left beside each file, in f.rej.
      return [...paths, ...(reading.has("reject") ? paths.map((path) => `${path}.rej`) : [])].map((path) => within(root, path));
    }
    default:
      return [];
  }
}
