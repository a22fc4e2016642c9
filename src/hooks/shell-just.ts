// just (a command runner: `just test`, `just fmt`), read as what it runs: the recipes of the
// justfile it finds (`justfile`, `Justfile` or `.justfile` from where it runs up, or `-f`'s), the
// ones named (else the first, or the one marked `[default]`), after the recipes each depends on,
// each line as the shell runs it (`@` and `-` taken off), in the justfile's directory (`[no-cd]`:
// where just runs). A `{{…}}` is the value of a variable set to a plain string, else a part the
// text does not fix. A recipe with a `#!` line runs as a script of that program: a shell's is read
// as a script, another language's as that interpreter given it inline. A justfile that imports
// others or declares modules, a recipe the hook cannot find, or `set shell` to something other
// than a POSIX shell: any file. `--fmt` writes the justfile, `--init` makes one.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { readOptions, type Syntax, valuedLong } from "./shell-options.js";
import type { Nested } from "./shell-runners.js";
import { directoryAt, readText, UNKNOWABLE, type Walk } from "./shell-words.js";

const OPTIONS: Syntax = {
  short: "f:d:lnhV",
  long: {
    justfile: "f",
    "working-directory": "d",
    list: "l",
    "dry-run": "n",
    help: "h",
    version: "V",
    ...valuedLong("set dotenv-filename dotenv-path shell shell-arg color command-color list-heading list-prefix chooser timestamp-format alias-style"),
    summary: "",
    show: ":",
    evaluate: "",
    variables: "",
    dump: "",
    fmt: "",
    init: "",
    edit: "",
    choose: "",
    completions: ":",
    groups: "",
  },
};

interface Recipe {
  name: string;
  dependencies: string[];
  lines: string[];
  noCd: boolean;
}

/** What `just` runs, as scripts for the walk; the files it writes itself (`found`); UNKNOWABLE where the text or the justfile does not say. */
export function justRuns(args: Array<string | undefined>, here: Walk, found: (path: string) => void): Nested[] | typeof UNKNOWABLE {
  const reading = readOptions(args, OPTIONS);
  if (reading.has("l", "n", "h", "V", "summary", "show", "evaluate", "variables", "dump", "completions", "groups")) return [];
  const start = reading.has("d") ? directoryAt(here.cwd, reading.value("d")) : here.cwd;
  if (reading.has("f") && reading.value("f") === undefined) return UNKNOWABLE;
  const file = reading.has("f") ? directoryAt(here.cwd, reading.value("f")) : start === undefined ? undefined : findJustfile(start);
  if (reading.has("init")) {
    if (start === undefined) return UNKNOWABLE;
    found(file ?? join(start, "justfile"));
    return [];
  }
  if (file === undefined) return start === undefined ? UNKNOWABLE : []; // no justfile: just fails
  if (reading.has("fmt")) {
    found(file);
    return [];
  }
  if (reading.has("edit", "choose")) return UNKNOWABLE; // an editor, or recipes chosen at the terminal
  const text = readText(file);
  if (text === undefined) return UNKNOWABLE;
  const parsed = parseJustfile(text);
  if (parsed === undefined) return UNKNOWABLE;
  const { recipes, values, first } = parsed;
  // The words after the options: recipe names, each followed by its arguments (unknown values).
  const words = reading.operands.map((at) => args[at]);
  const named: string[] = [];
  for (const word of words) {
    if (word === undefined) {
      if (named.length === 0) return UNKNOWABLE; // a recipe the text does not name
      continue;
    }
    if (word.includes("=") && named.length === 0) continue; // `just x=1 build` sets a variable
    if (recipes.has(word)) named.push(word);
    else if (named.length === 0) return UNKNOWABLE; // a recipe the hook cannot find (a module's `a::b`, an alias)
  }
  if (named.length === 0 && first !== undefined) named.push(first);
  const order: Recipe[] = [];
  const visit = (name: string, depth: number): boolean => {
    const recipe = recipes.get(name);
    if (recipe === undefined || depth > 32) return false;
    if (order.includes(recipe)) return true;
    for (const dependency of recipe.dependencies) if (!visit(dependency, depth + 1)) return false;
    order.push(recipe);
    return true;
  };
  for (const name of named) if (!visit(name, 0)) return UNKNOWABLE;
  const directory = dirname(file);
  return order.map((recipe) => ({ script: recipeScript(recipe, values), cwd: recipe.noCd ? start : reading.has("d") ? start : directory, bound: new Map() }));
}

/** A recipe's body as a shell script: interpolations put in, or left as a part the text does not fix. */
function recipeScript(recipe: Recipe, values: Map<string, string>): string {
  const lines = recipe.lines.map((line) => line.replace(/\{\{(.*?)\}\}/g, (_, inner: string) => values.get(inner.trim()) ?? "${__just_value}"));
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(lines[0] ?? "");
  if (shebang === null) {
    // Each command (a line, with the lines a trailing `\` continues) runs in a shell of its own:
    // `@` and `-` come off its first line only, and a `cd` in it moves none of the others.
    const commands: string[] = [];
    let continued = false;
    for (const line of lines) {
      if (continued) commands[commands.length - 1] += `\n${line}`;
      else commands.push(line.replace(/^[@-]+/, ""));
      continued = /(^|[^\\])(\\\\)*\\$/.test(line);
    }
    return commands.map((command) => `(\n${command}\n)`).join("\n");
  }
  const program = (shebang[1] as string).endsWith("/env") ? (shebang[2] ?? "") : (shebang[1] as string).split("/").pop() ?? "";
  const body = lines.slice(1).join("\n");
  if (/^(ba|da|k|z)?sh$/.test(program)) return body;
  // Another language's script: given to its interpreter inline, as the walk reads `python3 - <<'EOF'`.
  return `${program} - <<'__CLAIMS_JUST_RECIPE__'\n${body}\n__CLAIMS_JUST_RECIPE__`;
}

/** The justfile's recipes, its string variables and its default recipe; undefined where it imports what the hook does not read. */
function parseJustfile(text: string): { recipes: Map<string, Recipe>; values: Map<string, string>; first: string | undefined } | undefined {
  const recipes = new Map<string, Recipe>();
  const values = new Map<string, string>();
  const aliases = new Map<string, string>();
  let first: string | undefined;
  let current: Recipe | undefined;
  let attributes: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (current !== undefined && /^[ \t]+\S/.test(raw)) {
      current.lines.push(raw.replace(/^[ \t]+/, ""));
      continue;
    }
    if (current !== undefined && raw.trim() === "") continue; // (a blank line inside a recipe)
    current = undefined;
    const line = raw.replace(/\s+#.*$/, "");
    if (line.trim() === "" || line.startsWith("#")) continue;
    const attribute = /^\[(.*)\]\s*$/.exec(line);
    if (attribute) {
      attributes.push(...(attribute[1] as string).split(",").map((name) => name.trim()));
      continue;
    }
    if (/^(import\??\s+['"]|mod\??\s+[A-Za-z_])/.test(line)) return undefined;
    if (/^set\s+shell\b/.test(line) && !/\[\s*["'](sh|bash|zsh|dash|\/bin\/(ba)?sh|\/usr\/bin\/env)["']/.test(line)) return undefined;
    const assignment = /^(?:export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(.*)$/.exec(line);
    if (assignment) {
      const value = /^(['"])([^'"{}`$\\]*)\1$/.exec((assignment[2] as string).trim());
      if (value) values.set(assignment[1] as string, value[2] as string);
      continue;
    }
    const alias = /^alias\s+([A-Za-z_][\w-]*)\s*:=\s*([A-Za-z_][\w-]*)\s*$/.exec(line);
    if (alias) {
      aliases.set(alias[1] as string, alias[2] as string);
      continue;
    }
    // (One pass over the line: no nested repetition, which a long run of blanks made cubic.)
    const header = /^@?([A-Za-z_][\w-]*)([^:]*):(?!=)(.*)$/.exec(line);
    if (header) {
      const name = header[1] as string;
      // Dependencies: names, `(name args)`, and those after `&&` (run after it: read all the same);
      // not the words of a dependency's quoted arguments.
      const rest = (header[3] as string).replace(/'[^']*'|"[^"]*"/g, " ");
      const dependencies = [...rest.matchAll(/(^|[\s(&])([A-Za-z_][\w-]*)/g)].map((match) => match[2] as string).filter((word, index, all) => all.indexOf(word) === index);
      current = { name, dependencies, lines: [], noCd: attributes.includes("no-cd") };
      recipes.set(name, current);
      if (attributes.includes("default") || first === undefined) first = attributes.includes("default") || first === undefined ? name : first;
      attributes = [];
      continue;
    }
    attributes = [];
  }
  for (const [alias, target] of aliases) {
    const recipe = recipes.get(target);
    if (recipe !== undefined && !recipes.has(alias)) recipes.set(alias, recipe);
  }
  return { recipes, values, first };
}

/** The justfile just finds from a directory up (any case of `justfile`, or `.justfile`). */
function findJustfile(start: string): string | undefined {
  for (let at = start; ; at = dirname(at)) {
    let names: string[] = [];
    try {
      names = readdirSync(at);
    } catch {
      // not listable: further up
    }
    const name = names.find((entry) => entry.toLowerCase() === "justfile" || entry.toLowerCase() === ".justfile");
    if (name !== undefined) return join(at, name);
    if (at === dirname(at)) return undefined;
  }
}
