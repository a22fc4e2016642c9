// The files a shell command will write, read from its syntax tree (tree-sitter's bash grammar, the
// same parser family the symbol claims use), not from a regex: redirections (`>`, `>>`, `&>`,
// `<>`), and the arguments of the commands that write the files they name (sed -i, perl -i, tee,
// cp, mv, rm, truncate, touch, dd of=, ln, install, patch, git checkout/restore/rm/mv/apply,
// apply_patch), through `sudo`/`env`/`timeout`-style wrappers, `bash -c '…'`, and `cd` before them.
// Each command's options are read as getopt reads them, from one declaration of the ones that take
// a value (Syntax, readOptions): `cp -at dst f` copies into dst, `sort -uo out` writes out.
//
// Only what the text itself says: a word built from a variable, a command substitution or
// arithmetic is unknown and skipped, and so is whatever a script or program writes from inside
// (`bash build.sh`, `eval`, `npm run fmt`, `git reset --hard`). Where such a word decides the
// directory of a write (`cp -t "$d" f`, `git -C "$d"`), the write is in a place unknown, as after
// an unknown `cd`; where the text cannot name what is written at all (`curl … | sh`, `curl -K`),
// it could be any file. docs/HOOKS.md lists both sides.
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type Parser from "web-tree-sitter";
import { exists, isDirectory } from "../targets/target.js";
import { GLOB_MARK, patchPaths, UNKNOWN_MARK } from "./payload.js";

type Node = Parser.SyntaxNode;

/** A command that writes through the names it is given, or a redirection: worth parsing. Anything else is read-only to us. */
const WRITING_COMMAND =
  /(^|[\s;&|(`'"/\\])(sed|perl|tee|cp|mv|rm|rmdir|unlink|shred|truncate|touch|dd|ln|install|patch|apply_patch|bash|sh|zsh|dash|coproc|rsync|gzip|gunzip|bzip2|bunzip2|xz|unxz|wget|sudoedit)([\s;&|)`'"]|$)/;
/**
 * git, sort, curl, awk, time, sudo and env only with what makes them write (`-o`, `-O`, `-K`, `-i`,
 * `-c`, `-D`, `-a` in a cluster of short options, or the start of a long option that names an
 * output; sudo's `-e`, env's `-S`): loading the parser costs 40-50 ms.
 */
const WRITING_USE =
  /\bgit\b[^;&|\n]*\s(checkout|restore|rm|mv|apply)\b|\b(sort|curl|awk|gawk|time)\b[^;&|\n]*\s(-[a-zA-Z]*[oOKicDa]|--(o|in|du|coo|tr|std|et|li|ap|re|con))|\bsudo\b[^;&|\n]*\s(-[a-zA-Z]*e|--ed)|\benv\b[^;&|\n]*\s(-[a-zA-Z]*S|--sp)/;
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
  await walkScript(command, { cwd, previous: undefined, stack: [], home, environment, found }, 0);
  return [...found];
}

type Environment = Record<string, string | undefined>;

/** `bash -c '…'`: a script to read in turn, from the directory it starts in. */
interface Nested {
  script: string;
  cwd: string | undefined;
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
    visit(tree.rootNode, walk, nested);
    for (const inner of nested) await walkScript(inner.script, { ...walk, cwd: inner.cwd, previous: undefined, stack: [] }, depth + 1);
  } finally {
    tree.delete();
    parser.delete(); // its memory is WebAssembly's: a library caller serving many calls would keep every one
  }
}

/** In source order, so a `cd` applies to what follows it; a subshell's `cd` ends with the subshell. */
function visit(node: Node, walk: Walk, nested: Nested[]): void {
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
        if (child.type === "command") command(child, walk, nested, stdin);
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
  if (node.type === "command") return command(node, walk, nested, undefined);
  for (const child of node.namedChildren) visit(child, walk, nested);
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
  const path = staticWord(destination, walk);
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

/** A word's value when the text fixes it: quotes removed, `~` expanded, a glob expanded against the files there. */
function staticWord(node: Node | null | undefined, walk: Walk): string | undefined {
  if (!node) return undefined;
  if (node.type === "command_name") return staticWord(node.namedChildren[0], walk);
  const parts = node.type === "concatenation" ? node.namedChildren : [node];
  let value = "";
  for (const part of parts) {
    if (part.type === "word" || part.type === "number") value += part.text.replace(/\\(.)/g, "$1");
    else if (part.type === "raw_string") value += part.text.slice(1, -1);
    else if (part.type === "simple_expansion" || part.type === "expansion") {
      const known = knownVariable(part, walk);
      if (known === undefined) return undefined;
      value += known;
    } else if (part.type === "string") {
      // "$PWD/x", "$HOME/x": the variables the hook knows are put in; any other makes the word unknown.
      let text = "";
      let at = part.startIndex + 1;
      for (const child of part.namedChildren) {
        if (child.type === "string_content") continue;
        const known = child.type === "simple_expansion" || child.type === "expansion" ? knownVariable(child, walk) : undefined;
        if (known === undefined) return undefined;
        text += part.text.slice(at - part.startIndex, child.startIndex - part.startIndex).replace(/\\([$`"\\\n])/g, "$1") + known;
        at = child.endIndex;
      }
      value += text + part.text.slice(at - part.startIndex, -1).replace(/\\([$`"\\\n])/g, "$1");
    } else return undefined; // a variable, a substitution, $'…', arithmetic: not known before it runs
  }
  if (value === "~" || value.startsWith("~/")) value = walk.home + value.slice(1);
  return value;
}

/** `$PWD`, `${PWD}`, `$HOME`, `$OLDPWD` where the walk knows them. */
function knownVariable(node: Node, walk: Walk): string | undefined {
  const name = /^\$\{?(\w+)\}?$/.exec(node.text)?.[1];
  if (name === "PWD") return walk.cwd;
  if (name === "HOME") return walk.home;
  if (name === "OLDPWD") return walk.previous;
  return undefined;
}

/** A word's values: a static word, or what an unquoted glob matches (bash keeps the word when nothing does). */
function wordValues(node: Node, walk: Walk): string[] | undefined {
  const value = staticWord(node, walk);
  if (value === undefined) return undefined;
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

const ASSIGNMENT = /^([A-Za-z_]\w*)=(.*)$/s;

function command(node: Node, walk: Walk, nested: Nested[], stdin: string | undefined): void {
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
      for (const path of outputs((wrapper.writes ?? []).flatMap((key) => reading.values(key)))) add(here, path);
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
  if (["bash", "sh", "zsh", "dash"].includes(name)) {
    const reading = readOptions(args, SHELL);
    const first = reading.operands[0];
    if (reading.has("c")) {
      const script = first === undefined ? undefined : args[first];
      if (script !== undefined) nested.push({ script, cwd: here.cwd });
    } else if (first === undefined || args[first] === "-" || reading.has("s")) {
      // The program comes on stdin: a heredoc or a file the hook reads is read in turn; a pipe
      // (`curl … | sh`), or a file it cannot read, runs commands it cannot see.
      if (stdin !== undefined) nested.push({ script: stdin, cwd: here.cwd });
      else if (!reading.has("n", "--version", "--help")) add(here, UNKNOWABLE);
    }
    return;
  }
  if (rule) for (const path of rule.writes({ args, reading: readOptions(args, rule.syntax), values, stdin, walk: here })) add(here, path);
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
  const given: Array<{ key: string; value: string | undefined }> = [];
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
      if (known?.takes === 1 && attached === undefined) given.push({ key: known.key, value: args[++index] });
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
      given.push({ key: letter, value: rest !== "" ? rest : takes === 1 ? args[++index] : undefined });
      break;
    }
  }
  const values = (key: string) => given.filter((option) => option.key === key).map((option) => option.value);
  return {
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
    // -t "$d", or a last operand the text does not fix (cp f "$d"): each source lands under its
    // name (with --parents, its path) in a directory that could be anywhere. ("$d" may be a file
    // instead, of any name: it is judged as the directory it most often is.)
    return input.values(sources).map((source) => UNKNOWN_MARK + (reading.has("parents") ? source.replace(/^\/+/, "") : basename(source)));
  }
  // cp --parents src/a.ts dst writes dst/src/a.ts: the directory (it must exist) stands for what lands under it.
  if (reading.has("parents")) return [destination];
  const intoDirectory = targetDirectory || (!reading.has("T") && (sources.length > 1 || isDirectory(within(walk.cwd, destination))));
  if (!intoDirectory) return [destination];
  const names = input.values(sources).map((source) => basename(source));
  return names.length > 0 ? names.map((name) => join(destination, name)) : [destination];
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
const globOf = (path: string): string => (path.startsWith(UNKNOWN_MARK) ? path : GLOB_MARK + path);

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
const valuedLong = (names: string): Record<string, string> => Object.fromEntries(names.trim().split(/\s+/).map((name) => [name, ":"]));

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
      if (operands.length === 1 && !input.reading.has("t")) return withBackups(input, [basename(input.args[operands[0] as number] ?? "")].filter(Boolean));
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
    syntax: { short: "e:E:i::I::M::m::", ordered: true },
    writes: (input) => {
      const { reading } = input;
      if (!reading.has("i")) return [];
      return input.values(reading.has("e", "E") ? reading.operands : reading.operands.slice(1));
    },
  },
  dd: { syntax: {}, writes: (input) => input.args.flatMap((arg) => (arg?.startsWith("of=") ? [arg.slice(3)] : [])) },
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
      const rejects = reading.has("r") ? outputs([reading.value("r")]) : results.map((file) => `${file}.rej`);
      const originals = reading.has("o") || (reading.has("no-backup-if-mismatch") && !reading.has("b")) ? [] : patchBackups(input, patched);
      return [...outputs([output]), ...patched, ...rejects, ...originals].map((path) => within(base, path));
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
    writes: (input) => [input.reading.value("o")].filter((path): path is string => path !== undefined), // sort -uo out in
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
      const files = outputs(reading.values("o")).flatMap(into);
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
      return [...files, ...remote, ...config, ...outputs(["D", "c", "trace", "trace-ascii", "stderr", "etag-save", "libcurl"].flatMap((key) => reading.values(key)))];
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
      const logs = outputs(["O", "o", "a", "rejected-log", "save-cookies"].flatMap((key) => reading.values(key))); // the document, and the log
      // A wgetrc command (-e) can set any output; the common ones that set none (robots=off) do not.
      if (reading.has("config") || !reading.values("e").every(setsNoOutput)) return [...logs, UNKNOWABLE];
      if (reading.has("O", "spider")) return logs;
      // Without -O, each URL's last path segment (index.html for none), in -P's directory.
      const directory = placeOf(reading, "P", walk.cwd);
      // Recursion, -x's host directories, -i's list of URLs, a name the server gives: files under it that the text does not name.
      if (reading.has("r", "m", "p", "x", "i", "content-disposition", "trust-server-names")) return [...logs, directory === undefined ? UNKNOWABLE : `${GLOB_MARK}${join(directory, "**")}`];
      return [...logs, ...reading.operands.map((at) => args[at]).map((url) => (url === undefined ? anyIn(directory) : within(directory, urlName(url, true) || "index.html")))];
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
        ...valuedLong(`address backup-dir bwlimit cc checksum-choice checksum-seed chmod chown compare-dest compress-choice
          compress-level config contimeout copy-as copy-dest debug dparam early-input exclude exclude-from files-from groupmap iconv
          include include-from info link-dest log-file log-file-format max-alloc max-delete max-size min-size only-write-batch
          out-format outbuf partial-dir password-file port protocol read-batch rsync-path skip-compress sockopts stderr stop-after
          stop-at suffix time-limit timeout usermap write-batch zc zl`),
      },
    },
    writes: (input) => {
      const { reading } = input;
      const logs = outputs(["log-file", "write-batch", "only-write-batch"].flatMap((key) => reading.values(key)));
      const batches = outputs([...reading.values("write-batch"), ...reading.values("only-write-batch")]).map((file) => `${file}.sh`);
      const { operands } = reading;
      if (operands.length < 2) return [...logs, ...batches];
      const destination = input.args[operands[operands.length - 1] as number];
      const sources = input.values(operands.slice(0, -1));
      // `rsync src/ dst` copies what is in src, `rsync src dst` src itself.
      const landing = (place: string | undefined) => sources.map((source) => (source.endsWith("/") ? (place ?? UNKNOWABLE) : place === undefined ? UNKNOWN_MARK + basename(source) : join(place, basename(source))));
      if (destination === undefined) return [...landing(undefined), ...logs, ...batches]; // "$d"/: a directory that could be anywhere
      if (/^[^/]*:/.test(destination)) return [...logs, ...batches]; // host:path is another machine's
      if (!destination.endsWith("/") && !isDirectory(within(input.walk.cwd, destination)) && sources.every((source) => !source.endsWith("/"))) return [destination, ...logs, ...batches];
      return [...landing(destination), ...logs, ...batches];
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
};

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

/** The options of the git subcommands that write named files of the working tree. */
const GIT: Record<string, Syntax> = {
  checkout: { short: "b:B:", long: { orphan: ":", detach: "", conflict: ":", "pathspec-from-file": ":" } },
  restore: { short: "s:SW", long: { source: "s", staged: "S", worktree: "W", conflict: ":", "pathspec-from-file": ":" } },
  rm: { long: { cached: "", "pathspec-from-file": ":" } },
  mv: {},
  apply: {
    short: "p:C:",
    long: { directory: ":", exclude: ":", include: ":", whitespace: ":", "build-fake-ancestor": ":", cached: "", stat: "", numstat: "", summary: "", check: "", apply: "", reject: "" },
  },
};

/** The git subcommands that write named files of the working tree. */
function gitWrites(input: RuleInput): string[] {
  const { args, walk } = input;
  let index = 0;
  let cwd = walk.cwd;
  while (index < args.length && args[index]?.startsWith("-")) {
    const option = args[index] as string;
    // -C "$d", or -C after a cd it cannot follow: unknown, never the hook's own directory.
    if (option === "-C") cwd = directoryAt(cwd, args[index + 1]);
    if (option === "--work-tree" || option.startsWith("--work-tree=")) {
      // Paths are read from where git runs inside the work tree, or from its top when it runs outside.
      const tree = directoryAt(cwd, option.includes("=") ? option.slice(option.indexOf("=") + 1) : args[index + 1]);
      cwd = tree !== undefined && cwd !== undefined && `${cwd}/`.startsWith(`${tree}/`) ? cwd : tree;
    }
    index += ["-C", "-c", "--git-dir", "--work-tree", "--namespace"].includes(option) ? 2 : 1;
  }
  const sub = args[index];
  const syntax = sub === undefined || !Object.hasOwn(GIT, sub) ? undefined : GIT[sub];
  if (syntax === undefined) return [];
  const rest = args.slice(index + 1);
  const reading = readOptions(rest, syntax);
  const at = (paths: string[]) => paths.map((path) => (isAbsolute(path) ? path : within(cwd, path)));
  const values = (indexes: number[]) => input.values(indexes.map((i) => i + index + 1));
  switch (sub) {
    case "checkout": {
      const dashes = rest.indexOf("--");
      if (dashes !== -1) return at(values(rest.map((_, i) => i).filter((i) => i > dashes)));
      if (reading.has("b", "B", "orphan", "detach")) return [];
      // `git checkout f`, `git checkout HEAD f`, `git checkout .`: an operand that names a file or
      // directory there is a path (git reads it so when no branch has that name); a branch is not.
      // Where the directory is unknown, every operand counts.
      return at(values(reading.operands.filter((i) => cwd === undefined || exists(within(cwd, rest[i] ?? "")))));
    }
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
