// fd (fdfind, as Debian names it), find's friendlier cousin: what its `-x`/`--exec` and
// `-X`/`--exec-batch` run on the files it finds, read in turn as find's `-exec` is (shell-runners.ts).
import { basename, join } from "node:path";
import type Parser from "web-tree-sitter";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { readOptions, type Syntax, valuedLong } from "./shell-options.js";
import { type Nested, SHELLS } from "./shell-runners.js";
import { anyUnder, directoryAt, shellQuoted, UNKNOWABLE, type Walk, within, wordValue, wordValues } from "./shell-words.js";

type Node = Parser.SyntaxNode;

/**
 * fd's options that take a value (clap's: long ones by their whole name only), and its exec
 * options, which take the words after them up to a `;`.
 */
const FD: Syntax = {
  short: "c:C:d:e:E:j:o:S:t:x:X:",
  long: {
    color: "c", "base-directory": "C", "max-depth": "d", maxdepth: "d", extension: "e", exclude: "E", threads: "j", owner: "o", size: "S", type: "t", exec: "x", "exec-batch": "X",
    hyperlink: "::", hyper: "::", "strip-cwd-prefix": "::",
    ...valuedLong(`and min-depth mindepth exact-depth changed-within change-newer-than newer changed-after changed-before change-older-than older format batch-size
      ignore-file ignore-file-name max-buffer-time max-results path-separator search-path`),
  },
  exact: true,
};

/** The variables that stand, in the command it runs, for a file found (`{}`, `{//}`, `{.}`) and for a found file's name (`{/}`, `{/.}`). */
const FOUND = "__claims_fd_files";
const NAME = "__claims_fd_names";
const PLACEHOLDER = /\{(?:\/\/|\/\.|\/|\.)?\}/;
const PLACEHOLDERS = new RegExp(PLACEHOLDER.source, "g");
const variableOf = (placeholder: string) => (placeholder === "{/}" || placeholder === "{/.}" ? NAME : FOUND);

/**
 * fd [options] [pattern] [path…] -x cmd… [;]: cmd runs on each file found (-X: once, on all of
 * them), from where fd runs (`-C`/`--base-directory`'s directory). The files found are any under
 * each search path (the operands after the pattern, or `--search-path`'s; none: where it runs):
 * fd's filters (`-e ts`, the pattern, hidden and ignored files) are not read, so a claim anywhere
 * under a search path counts. `{}`, `{//}` and `{.}` stand for such a file, `{/}` and `{/.}` for a
 * name in the directory cmd runs in; a command with none is given the file as its last word.
 */
export function fdCommand(args: Array<string | undefined>, words: Node[], here: Walk, nested: Nested[]): void {
  const commands: Array<{ values: Array<string | undefined>; texts: string[] }> = [];
  const operands: number[] = [];
  const searchPaths: Array<string | undefined> = [];
  let cwd = here.cwd;
  let ended = false;
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    // An option given a value the text does not fix, in the same word (`-x"$cmd"`,
    // `--base-directory="$d"`): that option, its value unknown (readOptions); a command unknown.
    const unfixed = !ended && arg === undefined ? readOptions([undefined], FD, 0, () => wordValue(words[at], here)) : undefined;
    if (unfixed !== undefined && unfixed.operands.length === 0) {
      if (unfixed.has("x", "X")) {
        let end = at + 1;
        while (end < args.length && args[end] !== ";") end++;
        commands.push({ values: [undefined, ...args.slice(at + 1, end)], texts: ['"${__unfixed}"', ...words.slice(at + 1, end).map((word) => word.text)] });
        at = end;
      }
      if (unfixed.has("C")) cwd = undefined;
      if (unfixed.has("search-path")) searchPaths.push(undefined);
      continue;
    }
    if (ended || arg === undefined || arg === "-" || !arg.startsWith("-")) {
      operands.push(at);
      continue;
    }
    if (arg === "--") {
      ended = true;
      continue;
    }
    // This option and the word after it, read alone: whether it takes that word as its value. (The
    // word after it is that value or not, whatever its text; read as options of its own on the next
    // turn, above: so no text for it here.)
    const pair = readOptions(args.slice(at, at + 2), FD, 0, () => undefined);
    const exec = [...pair.occurrences("x"), ...pair.occurrences("X")][0];
    if (exec !== undefined) {
      // The command: its first word attached (`--exec=rm`, `-xrm`) or the next, and the rest up to `;`.
      let end = at + 1;
      while (end < args.length && args[end] !== ";") end++;
      const attached = exec.at === undefined ? [exec.value ?? ""] : [];
      commands.push({ values: [...attached, ...args.slice(at + 1, end)], texts: [...attached.map(shellQuoted), ...words.slice(at + 1, end).map((word) => word.text)] });
      at = end;
      continue;
    }
    if (pair.has("C")) cwd = directoryAt(cwd, pair.value("C"));
    if (pair.has("search-path")) searchPaths.push(pair.value("search-path"));
    if (args.length > at + 1 && !pair.operands.includes(1)) at++; // its value
  }
  // The operands: the pattern, then the search paths; none, where it runs.
  const roots: string[] = searchPaths.map((path) => (path === undefined ? UNKNOWABLE : within(cwd, path)));
  for (const at of operands.slice(1)) roots.push(...(wordValues(words[at] as Node, { ...here, cwd }) ?? [UNKNOWABLE]).map((path) => within(cwd, path)));
  if (roots.length === 0) roots.push(cwd === undefined ? UNKNOWABLE : cwd);
  const found = roots.map((root) => (root.startsWith(UNKNOWN_MARK) ? UNKNOWABLE : anyUnder(root.replace(GLOB_MARK, ""))));
  const names = [cwd === undefined ? UNKNOWABLE : `${GLOB_MARK}${join(cwd, "*")}`];
  for (const { values, texts } of commands) {
    if (values.length === 0) continue;
    const shell = SHELLS.includes(basename(values[0] ?? ""));
    const line = values.map((value, index) => {
      if (value === undefined || !PLACEHOLDER.test(value)) return texts[index] as string;
      if (new RegExp(`^${PLACEHOLDER.source}$`).test(value)) return `"$${variableOf(value)}"`;
      // Inside a word (`{.}.bak`): a name unknown; in a shell's script (`sh -c 'rm {}'`), the files found.
      if (shell) return `'${value.replaceAll("'", "'\\''").replace(PLACEHOLDERS, (placeholder) => `"$${variableOf(placeholder)}"`)}'`;
      return `"${value.replace(/[\\"$`]/g, "\\$&").replace(PLACEHOLDERS, (placeholder) => `\${${variableOf(placeholder)}}`)}"`;
    });
    if (!values.some((value) => value !== undefined && PLACEHOLDER.test(value))) line.push(`"$${FOUND}"`);
    nested.push({ script: line.join(" "), cwd, bound: new Map([[FOUND, found], [NAME, names]]) });
  }
}
