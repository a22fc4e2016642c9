// The files a shell command will write, read from its syntax tree (tree-sitter's bash grammar, the
// same parser family the symbol claims use), not from a regex: redirections (`>`, `>>`, `&>`,
// `<>`), and the arguments of the commands that write the files they name (sed -i, perl -i, tee,
// cp, mv, rm, truncate, touch, dd of=, ln, install, patch, git checkout/restore/rm/mv/apply,
// apply_patch), through `sudo`/`env`/`timeout`-style wrappers, `bash -c '…'`, and `cd` before them.
//
// Only what the text itself says: a word built from a variable, a command substitution or
// arithmetic is unknown and skipped, and so is whatever a script or program writes from inside
// (`bash build.sh`, `eval`, `npm run fmt`, `git reset --hard`). docs/HOOKS.md lists both sides.
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, isAbsolute, join, resolve } from "node:path";
import type Parser from "web-tree-sitter";
import { exists, isDirectory } from "../targets/target.js";
import { GLOB_MARK, patchPaths, UNKNOWN_MARK } from "./payload.js";

type Node = Parser.SyntaxNode;

/** A command that writes through the names it is given, or a redirection: worth parsing. Anything else is read-only to us. */
const WRITING_COMMAND =
  /(^|[\s;&|(`'"/\\])(sed|perl|tee|cp|mv|rm|rmdir|unlink|shred|truncate|touch|dd|ln|install|patch|apply_patch|bash|sh|zsh|dash|coproc|rsync|gzip|gunzip|bzip2|bunzip2|xz|unxz)([\s;&|)`'"]|$)/;
/** git, sort, curl, wget, awk only with what makes them write: loading the parser costs 40-50 ms. */
const WRITING_USE = /\bgit\b[^;&|\n]*\s(checkout|restore|rm|mv|apply)\b|\b(sort|curl|wget|awk|gawk)\b[^;&|\n]*\s(-[a-zA-Z]*[oOi]|--output|--include|--in-place)/;
/** `2>&1`, `>&2`, `>/dev/null`: redirections that write no file. */
const HARMLESS_REDIRECTION = /\d*(>>?|&>>?|>\|)\s*\/dev\/null(?![\w./-])|\d*>&\s*(\d+|-)(?![\w./-])/g;

export function mayWrite(command: string): boolean {
  return command.replace(HARMLESS_REDIRECTION, "").includes(">") || WRITING_COMMAND.test(command) || WRITING_USE.test(command);
}

/** Absolute paths the command writes (an existing directory stands for everything under it). */
export async function shellWrites(command: string, cwd: string, home: string): Promise<string[]> {
  if (!mayWrite(command)) return [];
  const found = new Set<string>();
  await walkScript(command, { cwd, previous: undefined, stack: [], home, found }, 0);
  return [...found];
}

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

function add(walk: Walk, path: string): void {
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

/** Wrappers that run the command after their own options: `sudo -u x cmd`, `env A=1 cmd`, `timeout 5 cmd`. */
const WRAPPERS: Record<string, { valued: string[]; positional: number }> = {
  sudo: { valued: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"], positional: 0 },
  doas: { valued: ["-u", "-C"], positional: 0 },
  env: { valued: ["-u", "-C", "-S", "--unset", "--chdir"], positional: 0 },
  nice: { valued: ["-n", "--adjustment"], positional: 0 },
  nohup: { valued: [], positional: 0 },
  time: { valued: ["-f", "-o"], positional: 0 },
  command: { valued: [], positional: 0 },
  exec: { valued: ["-a"], positional: 0 },
  builtin: { valued: [], positional: 0 },
  stdbuf: { valued: ["-i", "-o", "-e"], positional: 0 },
  timeout: { valued: ["-s", "-k", "--signal", "--kill-after"], positional: 1 },
  ionice: { valued: ["-c", "-n", "-p"], positional: 0 },
  chronic: { valued: [], positional: 0 },
  coproc: { valued: [], positional: 0 },
};

function command(node: Node, walk: Walk, nested: Nested[], stdin: string | undefined): void {
  // Redirections written inside the command node (`echo hi > f` parses so in some positions).
  for (const child of node.namedChildren) if (child.type === "file_redirect") redirect(child, walk);
  for (const child of node.namedChildren) if (child.type === "command_substitution" || child.type === "process_substitution") visit(child, walk, nested);
  const nameNode = node.childForFieldName("name");
  const words = [nameNode, ...node.childrenForFieldName("argument")].filter((word): word is Node => word !== null);
  let argv: Array<string | undefined> = words.map((word) => staticWord(word, walk));
  // Wrappers first: what they run is the command.
  let here = walk;
  for (let guard = 0; guard < 5; guard++) {
    const wrapperName = basename(argv[0] ?? "");
    const wrapper = WRAPPERS[wrapperName];
    if (!wrapper) break;
    let index = 1;
    let positional = wrapper.positional;
    while (index < argv.length) {
      const arg = argv[index];
      if (arg === undefined) return;
      if (arg === "--") {
        index++;
        break;
      }
      // `env -C dir`, `env --chdir=dir`, `sudo -D dir`: the command runs there.
      const chdir = (wrapperName === "env" || wrapperName === "sudo") && /^(-C|-D|--chdir)(=|$)|^-C./.test(arg);
      if (chdir) {
        const to = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : /^-C./.test(arg) ? arg.slice(2) : argv[index + 1];
        here = { ...here, cwd: to === undefined ? undefined : isAbsolute(to) ? to : here.cwd === undefined ? undefined : resolve(here.cwd, to) };
        index += arg.includes("=") || /^-C./.test(arg) ? 1 : 2;
        continue;
      }
      if (arg.startsWith("-")) index += wrapper.valued.includes(arg) ? 2 : 1;
      else if (/^[A-Za-z_]\w*=/.test(arg)) index++;
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
    const c = args.findIndex((arg) => arg !== undefined && /^-[a-z]*c[a-z]*$/.test(arg));
    const script = c === -1 ? undefined : args[c + 1];
    if (script !== undefined) nested.push({ script, cwd: here.cwd });
    else if (c === -1 && stdin !== undefined && args.every((arg) => arg !== undefined && arg.startsWith("-"))) nested.push({ script: stdin, cwd: here.cwd });
    return;
  }
  if (rule) for (const path of rule({ args, indexes: operandIndexes, values, stdin, walk: here })) add(here, path);
}

/** Where `cd`, `pushd` and `popd` leave the walk: a directory the text fixes, or unknown. */
function changeDirectory(name: string, args: Array<string | undefined>, walk: Walk): void {
  const operands = args.filter((arg) => arg === undefined || !/^-[LPe@n]+$/.test(arg));
  const to = operands[0];
  const from = walk.cwd;
  const at = (path: string | undefined) => (path === undefined ? undefined : isAbsolute(path) ? resolve(path) : from === undefined ? undefined : resolve(from, path));
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

interface RuleInput {
  args: Array<string | undefined>;
  /** Indexes of the operands: arguments that are not options, nor the values of the options named. */
  indexes: typeof operandIndexes;
  /** The (glob-expanded) values of the arguments at those indexes. */
  values: (indexes?: number[]) => string[];
  stdin: string | undefined;
  walk: Walk;
}

function operandIndexes(args: Array<string | undefined>, valued: string[] = []): number[] {
  const out: number[] = [];
  let ended = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (!ended && arg === "--") {
      ended = true;
      continue;
    }
    if (!ended && arg !== undefined && arg.startsWith("-") && arg !== "-") {
      if (valued.includes(arg)) index++;
      continue;
    }
    out.push(index);
  }
  return out;
}

/** `--name=value` or `--name value` / `-x value` / `-xvalue`. */
function optionValue(args: Array<string | undefined>, short: string | undefined, long: string | undefined): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === undefined) continue;
    if (arg === "--") break;
    if (long && arg.startsWith(`${long}=`)) return arg.slice(long.length + 1);
    if ((short && arg === short) || (long && arg === long)) return args[index + 1];
    if (short && arg.startsWith(short) && !arg.startsWith("--") && arg.length > short.length) return arg.slice(short.length);
  }
  return undefined;
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

/** A path from a directory, or the path as written where the directory is unknown (add() then marks it). */
function within(cwd: string | undefined, path: string): string {
  return cwd === undefined ? path : resolve(cwd, path);
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
function copyTargets(input: RuleInput, valued: string[]): string[] {
  const { args, walk } = input;
  const target = optionValue(args, "-t", "--target-directory");
  const operands = input.indexes(args, [...valued, "-t", "--target-directory"]);
  const sources = target !== undefined ? operands : operands.slice(0, -1);
  const destination = target ?? (operands.length > 0 ? args[operands[operands.length - 1] as number] : undefined);
  if (destination === undefined) return [];
  const noTargetDirectory = args.includes("-T") || args.includes("--no-target-directory");
  const intoDirectory = target !== undefined || (!noTargetDirectory && (sources.length > 1 || isDirectory(within(walk.cwd, destination))));
  if (!intoDirectory) return [destination];
  const names = input.values(sources).map((source) => basename(source));
  return names.length > 0 ? names.map((name) => join(destination, name)) : [destination];
}

type Rule = (input: RuleInput) => string[];

const plainOperands =
  (valued: string[] = []): Rule =>
  (input) =>
    input.values(input.indexes(input.args, valued));

const RULES: Record<string, Rule> = {
  rm: plainOperands(),
  rmdir: plainOperands(),
  unlink: plainOperands(),
  shred: plainOperands(["-n", "-s", "--iterations", "--size", "--random-source"]),
  touch: plainOperands(["-r", "-d", "-t", "--reference", "--date"]),
  truncate: plainOperands(["-s", "-r", "--size", "--reference"]),
  tee: plainOperands(),
  mkdir: () => [], // creates, but writes no file anyone claims
  cp: (input) => copyTargets(input, ["-S", "--suffix"]),
  install: (input) => (input.args.includes("-d") ? [] : copyTargets(input, ["-m", "-o", "-g", "-S", "--mode", "--owner", "--group", "--suffix"])),
  ln: (input) => {
    const operands = input.indexes(input.args, ["-S", "-t", "--suffix", "--target-directory"]);
    if (operands.length === 1 && optionValue(input.args, "-t", "--target-directory") === undefined) {
      return [basename(input.args[operands[0] as number] ?? "")].filter(Boolean);
    }
    return copyTargets(input, ["-S", "--suffix"]);
  },
  mv: (input) => {
    const valued = ["-S", "--suffix", "-t", "--target-directory"];
    const operands = input.indexes(input.args, valued);
    const target = optionValue(input.args, "-t", "--target-directory");
    const sources = target !== undefined ? operands : operands.slice(0, -1);
    return [...input.values(sources), ...copyTargets(input, ["-S", "--suffix"])];
  },
  sed: (input) => {
    const { args } = input;
    const inPlace = args.some((arg) => arg !== undefined && (/^-[a-zA-Z]*i/.test(arg) && !arg.startsWith("--") ? true : arg.startsWith("--in-place")));
    if (!inPlace) return [];
    const scripted = args.some((arg) => arg === "-e" || arg === "-f" || arg === "--expression" || arg === "--file" || (arg !== undefined && /^--(expression|file)=/.test(arg)));
    const operands = input.indexes(args, ["-e", "-f", "--expression", "--file", "-l", "--line-length"]);
    return input.values(scripted ? operands : operands.slice(1));
  },
  perl: (input) => {
    const { args } = input;
    const inPlace = args.some((arg) => arg !== undefined && /^-[a-zA-Z]*i/.test(arg) && !arg.startsWith("--"));
    if (!inPlace) return [];
    const scripted = args.some((arg) => arg !== undefined && /^-[a-zA-Z]*[eE]$/.test(arg));
    const operands = input.indexes(args, ["-e", "-E", "-I", "-M", "-m"]).filter((index) => {
      const previous = args[index - 1];
      return !(previous !== undefined && /^-[a-zA-Z]*[eE]$/.test(previous)); // the script after -pie
    });
    return input.values(scripted ? operands : operands.slice(1));
  },
  dd: (input) => input.args.flatMap((arg) => (arg?.startsWith("of=") ? [arg.slice(3)] : [])),
  patch: (input) => {
    const { args, walk } = input;
    const directory = optionValue(args, "-d", "--directory");
    const base = directory === undefined ? walk.cwd : within(walk.cwd, directory);
    const output = optionValue(args, "-o", "--output");
    const operands = input.indexes(args, ["-i", "-p", "-d", "-o", "-r", "-B", "-D", "-F", "-V", "-Y", "-z", "--input", "--strip", "--directory", "--output", "--reject-file"]);
    const written: string[] = output !== undefined && output !== "-" ? [output] : [];
    if (operands.length > 0) return [...written, ...input.values(operands.slice(0, 1)).map((file) => within(base, file))];
    const from = optionValue(args, "-i", "--input");
    const text = from !== undefined ? readText(within(walk.cwd, from)) : input.stdin;
    if (text === undefined) return written;
    const strip = optionValue(args, "-p", "--strip");
    const paths = strip === undefined ? diffPaths(text, 0).flatMap((path) => [path, path.replace(/^[ab]\//, "")]) : diffPaths(text, Number(strip));
    return [...written, ...[...new Set(paths)].map((path) => within(base, path))];
  },
  apply_patch: (input) => {
    const text = input.stdin ?? input.args.find((arg) => arg?.includes("*** Begin Patch"));
    return text ? patchPaths(text) : [];
  },
  git: (input) => gitWrites(input),
  sort: (input) => [clusteredValue(input.args, "o", "--output")].filter((path): path is string => path !== undefined), // sort -uo out in
  curl: (input) => [clusteredValue(input.args, "o", "--output")].filter((path): path is string => path !== undefined && path !== "-"),
  wget: (input) => [clusteredValue(input.args, "O", "--output-document")].filter((path): path is string => path !== undefined && path !== "-"),
  rsync: (input) => {
    const operands = input.indexes(input.args, ["-e", "--rsh", "-f", "--filter", "--exclude", "--include", "-T", "--temp-dir", "--partial-dir", "--log-file"]);
    const destination = operands.length > 1 ? input.args[operands[operands.length - 1] as number] : undefined;
    if (destination === undefined || /^[^/]*:/.test(destination)) return []; // host:path is another machine's
    if (!destination.endsWith("/") && !isDirectory(within(input.walk.cwd, destination))) return [destination];
    return input.values(operands.slice(0, -1)).map((source) => join(destination, basename(source)));
  },
  gzip: compressed(false),
  bzip2: compressed(false),
  xz: compressed(false),
  gunzip: compressed(true),
  bunzip2: compressed(true),
  unxz: compressed(true),
  awk: (input) => awkInPlace(input),
  gawk: (input) => awkInPlace(input),
};

/** curl -so file, -o file, -ofile, --output file: a short option that takes a value may end a cluster of flags. */
function clusteredValue(args: Array<string | undefined>, letter: string, long: string): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === undefined) continue;
    if (arg === "--") break;
    if (arg.startsWith(`${long}=`)) return arg.slice(long.length + 1);
    if (arg === long) return args[index + 1];
    const at = arg.startsWith("--") ? -1 : arg.indexOf(letter);
    if (arg.startsWith("-") && at > 0 && /^-[a-zA-Z]+/.test(arg.slice(0, at + 1))) return at === arg.length - 1 ? args[index + 1] : arg.slice(at + 1);
  }
  return undefined;
}

/** gzip f replaces f with f.gz; gunzip f.gz writes f. Not with -c, -t, -l (stdout, test, list). */
function compressed(decompressing: boolean): Rule {
  return (input) => {
    const { args } = input;
    if (args.some((arg) => arg !== undefined && (/^-[a-zA-Z]*[ctl]/.test(arg) && !arg.startsWith("--") ? true : ["--stdout", "--to-stdout", "--test", "--list"].includes(arg)))) return [];
    const unpack = decompressing || args.some((arg) => arg === "--decompress" || (arg !== undefined && /^-[a-zA-Z]*d/.test(arg) && !arg.startsWith("--")));
    const files = input.values(input.indexes(args, ["-S", "--suffix"]));
    return unpack ? files.flatMap((file) => [file, file.replace(/\.[^./]+$/, "")]) : files;
  };
}

/** gawk -i inplace (or --include=inplace): the files after the program are rewritten. */
function awkInPlace(input: RuleInput): string[] {
  const { args } = input;
  const inPlace = args.some((arg, index) => (arg === "-i" || arg === "--include") ? /^inplace(\.awk)?$/.test(args[index + 1] ?? "") : arg !== undefined && /^(-i|--include=)inplace(\.awk)?$/.test(arg));
  if (!inPlace) return [];
  const valued = ["-f", "-v", "-F", "-i", "-e", "-l", "--file", "--assign", "--field-separator", "--include", "--source", "--load"];
  const scripted = args.some((arg) => arg === "-f" || arg === "-e" || arg === "--file" || arg === "--source");
  const operands = input.indexes(args, valued).filter((index) => !/^[A-Za-z_]\w*=/.test(args[index] ?? ""));
  return input.values(scripted ? operands : operands.slice(1));
}

/** The git subcommands that write named files of the working tree. */
function gitWrites(input: RuleInput): string[] {
  const { args, walk } = input;
  let index = 0;
  let cwd = walk.cwd;
  while (index < args.length && args[index]?.startsWith("-")) {
    const option = args[index] as string;
    if (option === "-C") cwd = within(cwd, args[index + 1] ?? ".");
    index += ["-C", "-c", "--git-dir", "--work-tree", "--namespace"].includes(option) ? 2 : 1;
  }
  const sub = args[index];
  const rest = args.slice(index + 1);
  const at = (paths: string[]) => paths.map((path) => (isAbsolute(path) ? path : within(cwd, path)));
  const sub_input: RuleInput = { ...input, args: rest, values: (indexes) => input.values(indexes?.map((i) => i + index + 1) ?? rest.map((_, i) => i + index + 1)) };
  switch (sub) {
    case "checkout": {
      const dashes = rest.indexOf("--");
      if (dashes !== -1) return at(sub_input.values(rest.map((_, i) => i).filter((i) => i > dashes)));
      if (rest.some((arg) => arg !== undefined && /^(-[bB]|--orphan|--detach)$/.test(arg))) return [];
      // `git checkout f`, `git checkout HEAD f`, `git checkout .`: an operand that names a file or
      // directory there is a path (git reads it so when no branch has that name); a branch is not.
      // Where the directory is unknown, every operand counts.
      const operands = operandIndexes(rest, ["-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"]);
      const paths = operands.filter((i) => cwd === undefined || exists(within(cwd, rest[i] ?? "")));
      return at(sub_input.values(paths));
    }
    case "restore": {
      const staged = rest.some((arg) => arg === "--staged" || arg === "-S");
      const worktree = rest.some((arg) => arg === "--worktree" || arg === "-W");
      if (staged && !worktree) return [];
      return at(sub_input.values(operandIndexes(rest, ["-s", "--source", "--pathspec-from-file"])));
    }
    case "rm":
      return rest.includes("--cached") ? [] : at(sub_input.values(operandIndexes(rest, ["--pathspec-from-file"])));
    case "mv":
      return at(sub_input.values(operandIndexes(rest)));
    case "apply": {
      if (rest.includes("--cached") || rest.includes("--stat") || rest.includes("--check") || rest.includes("--numstat") || rest.includes("--summary")) return [];
      const strip = optionValue(rest, "-p", undefined);
      const directory = optionValue(rest, undefined, "--directory");
      const files = sub_input.values(operandIndexes(rest, ["-p", "-C", "--exclude", "--include", "--directory", "--whitespace"]));
      const texts = files.length > 0 ? files.map((file) => readText(within(walk.cwd, file))) : [input.stdin];
      const root = directory === undefined ? cwd : within(cwd, directory);
      return texts.flatMap((text) => (text === undefined ? [] : diffPaths(text, strip === undefined ? 1 : Number(strip)).map((path) => within(root, path))));
    }
    default:
      return [];
  }
}
