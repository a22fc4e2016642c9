// What code run in this shell leaves for what follows it: the directory (`cd`, `pushd`, `popd`,
// and a `cd` in a sourced file or a called function, which leaves it unknown) and the variables
// bound to values (Walk.bound), which such code may set again (forgetBound).
import { statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { maySet } from "./shell-variables.js";
import { directoryAt, physicalDirectoryAt, readText, type Walk } from "./shell-words.js";

/** Bindings that stand for themselves whatever code runs: a script's own arguments and name. */
export const OWN = /^(\d+|@|BASH_SOURCE)$/;

/**
 * After code that runs in this shell (`source f`, `eval '…'`, a function's body), a bound variable
 * (Walk.bound: set once, a loop's) is bound no more where that code may set it (maySet); where the
 * code is not known (undefined), none is.
 */
export function forgetBound(walk: Walk, text: string | undefined): void {
  const bound = walk.bound;
  if (bound === undefined) return;
  const forgotten = [...bound.keys()].filter((name) => !OWN.test(name) && (text === undefined || maySet(text, name)));
  if (forgotten.length === 0) return;
  walk.bound = new Map(bound);
  for (const name of forgotten) walk.bound.delete(name);
}

/** A `cd`, `pushd`, `popd`, or a script sourced in turn, which may hold one. */
export const CHANGES_DIRECTORY = /(^|[;&|({)]|\b(then|do|else|if|while|until)\b|!)\s*((builtin|command|eval)\s+(--\s+)?['"]?)?(cd|pushd|popd|source|\.)(?=[\s;&|)}'"]|$)/m;

/** A `cd`, `pushd` or `popd` of its own (CHANGES_DIRECTORY without the scripts it sources). */
const MOVES = new RegExp(CHANGES_DIRECTORY.source.replace("|source|\\.)", ")"), "m");
/** Each place CHANGES_DIRECTORY matches, and each `source` or `.` with the word it sources. */
const CHANGES_EACH = new RegExp(CHANGES_DIRECTORY.source, "gm");
const SOURCES_EACH = new RegExp(`${CHANGES_DIRECTORY.source.replace("(cd|pushd|popd|source|\\.)(?=[\\s;&|)}'\"]|$)", "(source|\\.)")}[ \\t]+([^\\s;&|)}]*)`, "gm");

/**
 * Whether a sourced script (its text) may leave the shell in another directory: a `cd`, `pushd` or
 * `popd` outside its functions, or a script it sources in turn that may. One it sources that is
 * not there changes nothing (husky's `. ~/.huskyrc`); one named by a word the text does not fix
 * may do anything.
 */
export function sourcedChangesDirectory(text: string, cwd: string | undefined, home: string, depth = 0): boolean {
  // Quoted text is no command (husky's `echo "… . \"\$(dirname …)/husky.sh\" …"`), but what eval is given.
  const outside = outsideFunctions(text).replace(/(\beval\s+)?("(?:\\[\s\S]|[^"\\])*"|'[^']*')/g, (quoted, evaluated?: string) => (evaluated === undefined ? '""' : quoted));
  if (!CHANGES_DIRECTORY.test(outside)) return false;
  if (MOVES.test(outside) || depth >= 4) return true;
  const sources = [...outside.matchAll(SOURCES_EACH)];
  // Every match a source with a word after it (not `. <(cmd)`, not a `.` at the end of a line).
  if (sources.length !== [...outside.matchAll(CHANGES_EACH)].length) return true;
  for (const match of sources) {
    const path = sourcedPath(match, cwd, home);
    if (path === undefined) return true; // a word the text does not fix; a name bash looks for on PATH first
    let there: boolean;
    try {
      there = statSync(path).isFile();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") continue;
      return true;
    }
    const inner = there ? readText(path) : undefined;
    if (inner === undefined || sourcedChangesDirectory(inner, cwd, home, depth + 1)) return true;
  }
  return false;
}

/**
 * Whether calling function `name` may change the shell's directory: a body that names `cd` (also
 * through `builtin`, `command` or `eval`), or calls a function that does (`g() { f; }`).
 */
export function functionChangesDirectory(name: string, functions: Map<string, Array<{ body: string }>>, seen = new Set<string>()): boolean {
  if (seen.has(name)) return false;
  seen.add(name);
  return (functions.get(name) ?? []).some(({ body }) => {
    if (CHANGES_DIRECTORY.test(body)) return true;
    for (const word of body.match(/[\w.:-]+/g) ?? []) if (word !== name && functions.has(word) && functionChangesDirectory(word, functions, seen)) return true;
    return false;
  });
}

/** An `exec` that gives the shell an input (`exec < f`, `exec 0<f`, `command exec <&3`, a heredoc or here-string), and the word it reads from. */
const EXEC_INPUT = /(?:^|[;&|({)\n]|\b(?:then|do|else)\b)\s*(?:(?:builtin|command)\s+)?exec\b(?:[^;&|\n]|[<>]&|&>)*?(?:^|\s)0?<(?!\()\s*([^\s;&|)}]*)/gm;

/**
 * The input code run in this shell (a sourced script's text, outside its functions; a function's
 * body) leaves it with, where it may give it one (`exec < f`): "" where each such exec reads
 * /dev/null, else null, a stream the walk does not read; undefined where it gives none.
 */
export function shellInputLeft(text: string): string | null | undefined {
  const reads = [...text.matchAll(EXEC_INPUT)].map((match) => match[1]);
  if (reads.length === 0) return undefined;
  return reads.every((word) => word === "/dev/null") ? "" : null;
}

/** The input a call of function `name` may leave the shell with (shellInputLeft), through the functions it calls too. */
export function functionInputLeft(name: string, functions: Map<string, Array<{ body: string }>>, seen = new Set<string>()): string | null | undefined {
  if (seen.has(name)) return undefined;
  seen.add(name);
  let left: string | null | undefined;
  for (const { body } of functions.get(name) ?? []) {
    const inputs = [shellInputLeft(body), ...(body.match(/[\w.:-]+/g) ?? []).filter((word) => word !== name && functions.has(word)).map((word) => functionInputLeft(word, functions, seen))];
    for (const input of inputs) if (input !== undefined) left = left === undefined || left === input ? input : null;
  }
  return left;
}

/** The file a `source` or `.` match of SOURCES_EACH names, where the text fixes it. */
function sourcedPath(match: RegExpMatchArray, cwd: string | undefined, home: string): string | undefined {
  const word = (match.at(-1) as string).replace(/^(['"])([^'"]*)\1$/, "$2");
  if (word === "" || /[$`*?[\\'"]/.test(word)) return undefined;
  return word.startsWith("~/") ? join(home, word.slice(2)) : isAbsolute(word) ? word : word.includes("/") && cwd !== undefined ? resolve(cwd, word) : undefined;
}

/**
 * The functions a sourced script's text defines (functionsIn), and those of the scripts it sources
 * in turn where the text names them (`. ./lib.sh` in a script sourced): the walk reads them after the line.
 */
export function functionsSourced(text: string, cwd: string | undefined, home: string, depth = 0, seen = new Set<string>()): Array<{ name: string; body: string }> {
  const found = functionsIn(text);
  if (depth >= 4) return found;
  const unquoted = text.replace(/("(?:\\[\s\S]|[^"\\])*"|'[^']*')/g, '""');
  for (const match of unquoted.matchAll(SOURCES_EACH)) {
    const path = sourcedPath(match, cwd, home);
    // Each file read once (one that sources itself, modules sourcing each other), and 32 at most.
    if (path === undefined || seen.has(path) || seen.size >= 32) continue;
    seen.add(path);
    const inner = readText(path);
    if (inner !== undefined) found.push(...functionsSourced(inner, cwd, home, depth + 1, seen));
  }
  return found;
}

/**
 * Whether calling function `name`, which a sourced script defines (known by its text), may leave
 * the shell in another directory: a `cd`, `pushd` or `popd` in its body, outside a subshell or a
 * substitution (`project_root() { echo "$(cd … && pwd)"; }` moves nothing), a script it sources
 * that may (sourcedChangesDirectory: a virtual environment's `activate` does not), or a function
 * it calls that may. Stricter than functionChangesDirectory, which a function the line itself
 * defines is judged by: a sourced script is the user's, and its helpers run after most commands.
 */
export function declaredChangesDirectory(name: string, functions: Map<string, Array<{ body: string }>>, cwd: string | undefined, home: string, seen = new Set<string>()): boolean {
  if (seen.has(name)) return false;
  seen.add(name);
  return (functions.get(name) ?? []).some(({ body }) => {
    const own = withoutSubshells(body.replace(/(\beval\s+)?("(?:\\[\s\S]|[^"\\])*"|'[^']*')/g, (quoted, evaluated?: string) => (evaluated === undefined ? '""' : quoted)));
    if (MOVES.test(own) || sourcedChangesDirectory(own, cwd, home)) return true;
    for (const word of own.match(/[\w.:-]+/g) ?? []) if (word !== name && functions.has(word) && declaredChangesDirectory(word, functions, cwd, home, seen)) return true;
    return false;
  });
}

/** Where the bracket at `from` closes (just past its match), counting nested ones; the text's end where it does not. */
function closing(text: string, from: number, open: string, close: string): number {
  let depth = 0;
  for (let at = from; at < text.length; at++) {
    if (text[at] === open) depth++;
    else if (text[at] === close && --depth === 0) return at + 1;
  }
  return text.length;
}

/** A body's text without its subshells and substitutions (`( cd d; make )`, `$(cd d && pwd)`, backquotes), whose `cd` stays in them. */
function withoutSubshells(text: string): string {
  let out = text.replace(/`[^`]*`/g, "");
  for (let guard = 0; guard < 1000; guard++) {
    const start = /\$?\(/.exec(out);
    if (!start) return out;
    out = `${out.slice(0, start.index)} ${out.slice(closing(out, start.index + start[0].length - 1, "(", ")"))}`;
  }
  return out;
}

/**
 * A script's text without its functions' bodies (`name() { … }`, `function name { … }`), which
 * run only when called: a sourced file's `cd` inside a function does not move the shell that sources it.
 */
export function outsideFunctions(text: string): string {
  return scanFunctions(text).outside;
}

/** The functions a script's text defines (`name() { … }`, `function name { … }`), each with its body: read by their text, before the walk reads the script. */
export function functionsIn(text: string): Array<{ name: string; body: string }> {
  return scanFunctions(text).functions;
}

function scanFunctions(text: string): { outside: string; functions: Array<{ name: string; body: string }> } {
  let out = text;
  const functions: Array<{ name: string; body: string }> = [];
  for (let guard = 0; guard < 1000; guard++) {
    const start = /(^|[\s;&|])(function\s+([\w.:-]+)(\s*\(\s*\))?|([\w.:-]+)\s*\(\s*\))\s*\{/m.exec(out);
    if (!start) break;
    const end = closing(out, start.index + start[0].length - 1, "{", "}");
    functions.push({ name: start[3] ?? start[5], body: out.slice(start.index + start[0].length, end - 1) });
    out = out.slice(0, start.index) + out.slice(end);
  }
  return { outside: out, functions };
}

/** What a failing command stops: the rest of its `&&` chain (`cd build && make`), or the script (`cd build || exit`). */
export type Guard = "chain" | "exit";

/**
 * Where `cd`, `pushd` and `popd` leave the walk: a directory the text fixes, or unknown.
 * `guard`: what does not run if the change fails.
 */
export function changeDirectory(name: string, args: Array<string | undefined>, walk: Walk, guard?: Guard): void {
  // Options: cd's -L, -P, -e (bash without extended attributes refuses -@, and stays); pushd's and popd's -n.
  const option = name === "cd" ? /^-[LPe]+$/ : /^-n$/;
  const operands = args.filter((arg) => arg === undefined || (!option.test(arg) && arg !== "--"));
  // Any other option (`cd -@ src`, `cd -x src`): refused by one shell, read by another; where it leaves the shell, the text does not fix.
  if (operands.some((arg) => arg !== undefined && /^-./.test(arg) && !/^[+-]\d+$/.test(arg))) {
    walk.previous = walk.cwd;
    walk.cwd = undefined;
    return;
  }
  const to = operands[0];
  const from = walk.cwd;
  // `cd -P` (the last of -L and -P counts) goes where chdir(2) goes, `..` taken after where a
  // symlink leads, and the shell's PWD is then that physical path; after `set -P`, which the walk
  // does not place, a `cd` whose physical and logical places differ lands in one the text does not fix.
  const mode = name === "cd" ? args.filter((arg) => arg !== undefined && /^-[LPe]+$/.test(arg)).join("").replace(/[^LP]/g, "").slice(-1) : "";
  const at = (path: string | undefined) => {
    if (mode === "P") return physicalDirectoryAt(from, path);
    const lexical = directoryAt(from, path);
    if (walk.physical !== true || mode === "L" || lexical === undefined) return lexical;
    return physicalDirectoryAt(from, path) === lexical ? lexical : undefined;
  };
  // `pushd -n d` puts d on the stack and stays; `popd +1` takes an entry from inside it, `popd -n`
  // the one below the top: each entry's place after it is not known here, nor, after `popd +N`, this one.
  const stays = args.some((arg) => arg !== undefined && /^-[LPe@]*n/.test(arg));
  if ((name === "pushd" || name === "popd") && (stays || args.some((arg) => arg !== undefined && /^[+-]\d+$/.test(arg)))) {
    walk.stack = [...walk.stack.map(() => undefined), undefined];
    if (!stays) walk.cwd = name === "pushd" && to !== undefined && !/^[+-]\d+$/.test(to) ? failing(at(to)) : undefined;
    walk.previous = from;
    return;
  }
  if (name === "popd") {
    walk.cwd = walk.stack.length > 0 ? walk.stack.pop() : undefined;
  } else if (name === "pushd") {
    walk.stack.push(from);
    walk.cwd = to === undefined || /^[+-]\d+$/.test(to) ? undefined : failing(at(to));
  } else if (operands.length === 0) {
    walk.cwd = walk.home.startsWith("/") ? walk.home : undefined; // (a HOME the script set to a place the text does not fix)
  } else if (name === "cd" && operands.length > 1) {
    walk.cwd = undefined; // `cd a b` (or `cd {a,b}`): bash refuses it and stays, zsh swaps a for b in the path
  } else if (to === "-") {
    walk.cwd = walk.previous;
  } else {
    walk.cwd = failing(at(to));
  }
  walk.previous = from;

  // A change to a directory that is not there fails, and the shell stays where it was (`cd build;
  // rm -rf *` empties this one): where what follows runs, the text cannot say, unless a failure
  // stops it: the rest of an `&&` chain is read in the directory, and the place is unknown after
  // the list (walk.shaky). (A directory the command makes first, `mkdir b; cd b`, is not known.)
  function failing(path: string | undefined): string | undefined {
    if (path === undefined || path === from || guard === "exit") return path;
    // Past a directory not there already (`cd a && cd a && …`): unknown, not a path grown without end.
    if (walk.shaky || path.length > 4096) return undefined;
    let there = false;
    try {
      there = statSync(path).isDirectory();
    } catch {
      there = false;
    }
    if (there) return path;
    if (guard === "chain") {
      walk.shaky = true;
      return path;
    }
    return undefined;
  }
}
