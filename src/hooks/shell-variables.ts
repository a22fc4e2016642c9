// What a script does with its variables, read from its syntax tree before the walk (shell-walk.ts)
// reads its commands: the ones that name temp space (`t=$(mktemp)`), the ones it sets from its
// arguments (`cmd="$1"`), the ones it sets once at the top (`d=src/gen`, bound to their value from
// there on), and whether code may set a variable at all (maySet, namesSet: a binding the caller
// gives does not hold in code that sets the name itself).
import { parentOf } from "./shell-tree.js";
import type Parser from "web-tree-sitter";

type Node = Parser.SyntaxNode;

/**
 * The variables that name the claims directory (`rm -rf "$XDG_STATE_HOME"`, `rm -f
 * $CLAIMS_DIR/*.json`), with the values the command's shell inherits: the agent's environment, which
 * is the hook's (and from which the hook finds the claims directory itself). Bound as a variable the
 * text sets once is (Walk.bound): not in a script that may set one itself, any way it can (`X=… cmd`,
 * `read`, `export`, a loop), nor after code that may (`source f`), nor on another machine or in a
 * container. One the hook's environment does not have is left unknown: the shell may have its own.
 */
export const INHERITED = ["CLAIMS_DIR", "XDG_STATE_HOME"];

/**
 * What one of INHERITED the hook's environment does not have is bound to: unset in the shell as far
 * as the hook knows, which takes the claims directory from the same environment. Its value stays
 * unknown, a place the text does not fix (the shell might set it on its own), but a default it is
 * given (`${XDG_STATE_HOME:-$HOME/.local/state}`) is its value.
 */
export const UNSET = "\0unknown:.";

/** `$(mktemp …)`: a command substitution that runs mktemp alone. */
export function isMktemp(node: Node): boolean {
  const inner = node.type === "string" && node.namedChildren.length === 1 ? (node.namedChildren[0] as Node) : node;
  if (inner.type !== "command_substitution" || inner.namedChildren.length !== 1) return false;
  const command = inner.namedChildren[0] as Node;
  return command.type === "command" && command.childForFieldName("name")?.text === "mktemp";
}

/**
 * The runner's own files a GitHub Actions step appends to (`echo "x=1" >> "$GITHUB_OUTPUT"`): in
 * the runner's temp space, never a project's file.
 */
const RUNNER_FILES = ["GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STATE", "GITHUB_STEP_SUMMARY"];

/** TMPDIR, the runner's files, and the variables a script sets only to `$(mktemp …)`: none set otherwise (another assignment, a loop, read). */
export function temporaryVariables(root: Node): Set<string> {
  const temporary = new Set<string>(["TMPDIR", ...RUNNER_FILES]);
  const other = new Set<string>();
  for (const assignment of root.descendantsOfType("variable_assignment")) {
    const name = assignment.childForFieldName("name")?.text;
    const value = assignment.childForFieldName("value");
    if (name !== undefined) (value && isMktemp(value) && name !== "TMPDIR" && !RUNNER_FILES.includes(name) ? temporary : other).add(name);
  }
  for (const name of setOtherwise(root)) other.add(name);
  for (const name of other) temporary.delete(name);
  return temporary;
}

/** Variables a script sets other than by `name=value`: a for loop's, `read`'s, `mapfile`'s, `printf -v`'s, `unset`'s, `${x:=y}`… (their words, as written). */
function setOtherwise(root: Node): Set<string> {
  const other = new Set<string>();
  for (const loop of [...root.descendantsOfType("for_statement"), ...root.descendantsOfType("select_statement")]) other.add(loop.childForFieldName("variable")?.text ?? "");
  for (const command of root.descendantsOfType("command")) {
    const name = command.childForFieldName("name")?.text ?? "";
    // `time f=x` sets f as the assignment alone would.
    if (name === "time") for (const argument of command.childrenForFieldName("argument")) other.add(/^([A-Za-z_]\w*)\+?=/.exec(argument.text)?.[1] ?? "");
    if (!/^(read|mapfile|readarray|getopts|printf|declare|typeset|local|export|unset)$/.test(name)) continue;
    for (const argument of command.childrenForFieldName("argument")) {
      // The name as the command reads it: `"f"` is f, `printf -vf` sets f.
      const word = argument.text.replace(/^(["'])(.*)\1$/s, "$2");
      other.add(word);
      const attached = /^-[a-zA-Z]*[va]([A-Za-z_]\w*)$/.exec(word)?.[1];
      if (attached !== undefined) other.add(attached);
    }
  }
  // `unset d`, `declare d`, `local d` have nodes of their own; `${d:=x}` sets d where it is empty.
  for (const node of [...root.descendantsOfType("unset_command"), ...root.descendantsOfType("declaration_command")]) {
    for (const word of node.namedChildren) if (word.type !== "variable_assignment") other.add(word.text); // assignments are counted as such
  }
  for (const match of root.text.matchAll(/\$\{(\w+):?=/g)) other.add(match[1] as string);
  // Arithmetic and `let` may set any name they mention: `((d=2))`, `let d++`.
  // (`((i++))` is a test_command to the grammar.)
  const arithmetic = [
    ...root.descendantsOfType("arithmetic_expansion"),
    ...[...root.descendantsOfType("compound_statement"), ...root.descendantsOfType("test_command")].filter((node) => node.text.startsWith("((")),
    ...root.descendantsOfType("command").filter((node) => node.childForFieldName("name")?.text === "let"),
  ];
  for (const node of arithmetic) for (const match of node.text.matchAll(/[A-Za-z_]\w*/g)) other.add(match[0]);
  return other;
}

/** Code that sets variables whose names it computes (`declare "$n=x"`, `printf -v "$n"`, `read "$n"`, a nameref): any variable, as far as the hook can tell. */
const SETS_COMPUTED_NAMES = /\b(declare|typeset|local|export|readonly|read|printf\s+-v|mapfile|readarray|unset)\b[^\n;|&]*\s"?\$|\b(declare|typeset|local)\s+-\w*n/;

/**
 * Whether code may set a variable of this name (read from its text, for code the walk reads
 * apart: a sourced file, an eval'd line, a function's body): an assignment, `read`, `local`, a
 * loop, arithmetic, `${d:=x}`; or names it computes, or code it runs in turn.
 */
export function maySet(text: string, name: string): boolean {
  if (SETS_COMPUTED_NAMES.test(text) || /\b(eval|source)\b|(^|[;&|({\s])\.\s/.test(text)) return true;
  const n = name.replace(/\W/g, "");
  return new RegExp(`(^|[^\\w$])${n}(\\[[^\\]]*\\])?\\+?=|\\b(read|local|declare|typeset|export|readonly|unset|printf|mapfile|readarray|let|getopts|for|select)\\b[^\\n;]*\\b${n}\\b|\\(\\([^)]*\\b${n}\\b|\\$\\{${n}:?=`).test(text);
}

/** A variable's name without an array subscript (`d[0]=x` sets d). */
const baseName = (name: string): string => name.replace(/\[.*$/s, "");

/** Every variable a script may set, any way it can; undefined for any at all (it computes names it sets). */
export function namesSet(root: Node): Set<string> | undefined {
  if (SETS_COMPUTED_NAMES.test(root.text)) return undefined;
  const names = setOtherwise(root);
  for (const assignment of root.descendantsOfType("variable_assignment")) names.add(baseName(assignment.childForFieldName("name")?.text ?? ""));
  return names;
}

/**
 * The variables a script sets once, unconditionally (`dir=src/gen` at its top level, or `export
 * dir=…`), and no other way: from there on each stands for its value when the text fixes it
 * (shell-walk.ts binds it, in Walk.bound). None in a script that sets names it computes.
 */
export function constantVariables(root: Node): Set<string> {
  if (SETS_COMPUTED_NAMES.test(root.text)) return new Set();
  const count = new Map<string, number>();
  const top = new Set<string>();
  const appended = new Set<string>();
  for (const assignment of root.descendantsOfType("variable_assignment")) {
    const written = assignment.childForFieldName("name")?.text;
    if (written === undefined) continue;
    const name = baseName(written);
    count.set(name, (count.get(name) ?? 0) + 1);
    // Not `d+=…` (it appends to a value from before) nor `d[0]=…`.
    if (written !== name || assignment.text.startsWith(`${written}+=`)) appended.add(name);
    else if (isTopLevel(assignment, root)) top.add(name);
  }
  const other = setOtherwise(root);
  return new Set([...top].filter((name) => count.get(name) === 1 && !other.has(name) && !appended.has(name) && !/^(PWD|OLDPWD|HOME|IFS|TMPDIR)$/.test(name)));
}

/** An assignment that runs whenever the script does: a statement of its own at the top (not in a branch, loop, function or command prefix). */
export function isTopLevel(assignment: Node, root: Node): boolean {
  const parent = parentOf(assignment);
  if (parent === null) return false;
  if (parent.id === root.id) return true;
  return parent.type === "declaration_command" && /^(export|readonly)\b/.test(parent.text) && parentOf(parent)?.id === root.id;
}

/** The variables a script sets from its arguments: `cmd="$1"`, `task=${1:-build}`, `read … <<< "$@"` aside. */
export function argumentVariables(root: Node): Set<string> {
  const found = new Set<string>();
  for (const assignment of root.descendantsOfType("variable_assignment")) {
    const name = assignment.childForFieldName("name")?.text;
    const value = assignment.childForFieldName("value")?.text ?? "";
    if (name !== undefined && /\$(\{?[\d@*])/.test(value)) found.add(name);
  }
  return found;
}
