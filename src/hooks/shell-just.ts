// just (a command runner: `just test`, `just fmt`), read as what it runs: the recipes of the
// justfile it finds (`justfile`, `Justfile` or `.justfile` from where it runs up, or `-f`'s), the
// ones named (else the first, or the one marked `[default]`), after the recipes each depends on,
// each line as the shell runs it (`@` and `-` taken off), in the justfile's directory (`[no-cd]` or
// `set no-cd`: where just runs; `set working-directory` or `[working-directory: 'x']`: there). A
// `{{…}}` is the value of a variable set to a plain string (or on the command line: `just x=1`,
// `--set x 1`), else a part the text does not fix (a recipe's parameter too, whatever variable it
// shadows). A recipe with a `#!` line or `[script]` runs as a script of that program: a shell's is
// read as a script, another language's as that interpreter given it inline. A recipe for another
// system (`[windows]`) is not this one's. A variable set by a backtick runs its command whenever
// just reads the justfile; `--command` runs its command there. An `import 'file'` is read as part
// of the justfile. A module's recipe (`just name::recipe`: not read), an import the hook cannot
// read, a recipe it cannot find, or `set shell` to something other than a POSIX shell: any file.
// `--fmt` writes the justfile, `--init` makes one.
import { dirname, join } from "node:path";
import { readOptions, type Syntax, valuedLong } from "./shell-options.js";
import type { Nested } from "./shell-runners.js";
import { directoryAt, nearestFile, readText, shellQuoted, UNKNOWABLE, type Walk } from "./shell-words.js";

/** The options that take the next word as their value, whatever it reads as. */
const VALUED = new Set(["-f", "-d", "--justfile", "--working-directory", "--dotenv-filename", "--dotenv-path", "--shell", "--shell-arg", "--color", "--command-color", "--list-heading", "--list-prefix", "--chooser", "--timestamp-format", "--alias-style", "--show", "--completions"]);

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
    check: "",
    init: "",
    edit: "",
    choose: "",
    completions: ":",
    groups: "",
  },
};

interface Recipe {
  name: string;
  /** The recipes it depends on, each with its arguments (`(compile target 'x')`: expressions, a quoted string or a name). */
  dependencies: Array<{ name: string; expressions: string[] }>;
  lines: string[];
  noCd: boolean;
  /** `[working-directory: 'x']`: where it runs, relative to the justfile's directory; null where the text does not fix it. */
  workingDirectory?: string | null;
  /** Its parameters: `{{name}}` in it is the argument given (else the default), never a variable of that name. */
  parameters: Array<{ name: string; variadic: boolean; fallback?: string }>;
  /** `[script]` or `[script('python3')]`: its body runs as a script of this program. */
  script?: string;
}

/** The justfile's settings that move where recipes run. */
interface Settings {
  noCd: boolean;
  /** `set working-directory := 'x'`; null where the text does not fix it. */
  workingDirectory?: string | null;
  /** `set script-interpreter := ['python3']`: the program of a bare `[script]` (else sh). */
  scriptInterpreter?: string;
}

/** The systems whose recipes run here (`[linux]`, `[unix]`, …): a recipe marked for others only is not this one's. */
const HERE_SYSTEMS: Record<string, string[]> = { linux: ["linux", "unix"], darwin: ["macos", "unix"], freebsd: ["freebsd", "unix"], openbsd: ["openbsd", "unix"], netbsd: ["netbsd", "unix"], win32: ["windows"] };
const SYSTEMS = ["linux", "macos", "unix", "windows", "freebsd", "openbsd", "netbsd", "dragonfly", "android"];

/**
 * What `just` runs, as scripts for the walk; the files it writes itself (`found`); UNKNOWABLE where
 * the text or the justfile does not say. `wordText`: a word of argv's with a HOLE where the text does
 * not fix it (readOptions: `just -f"$f" build` is a justfile unknown).
 */
export function justRuns(argv: Array<string | undefined>, here: Walk, found: (path: string) => void, wordText: (at: number) => string | undefined = () => undefined): Nested[] | typeof UNKNOWABLE {
  // `--set NAME VALUE` takes two words, and `--command` (`-c`) all the words after it: read apart.
  const overrides = new Map<string, string | undefined>();
  let command: Array<string | undefined> | undefined;
  const args: Array<string | undefined> = [];
  const texts: Array<string | undefined> = []; // each of args' text
  for (let at = 0; at < argv.length; at++) {
    const arg = argv[at];
    if (arg === "--") {
      args.push(...argv.slice(at));
      break;
    }
    if (arg === "--set") {
      const name = argv[at + 1];
      if (name === undefined) return UNKNOWABLE;
      overrides.set(name, argv[at + 2]);
      at += 2;
    } else if (arg === "--command" || arg === "-c" || arg?.startsWith("--command=")) {
      command = arg.startsWith("--command=") ? [arg.slice("--command=".length), ...argv.slice(at + 1)] : argv.slice(at + 1);
      break;
    } else if (arg !== undefined && VALUED.has(arg)) {
      // An option and its value (`--shell-arg -c`: a `-c` that is no --command).
      args.push(arg, argv[at + 1]);
      texts[args.length - 2] = wordText(at);
      texts[args.length - 1] = wordText(at + 1);
      at++;
    } else {
      args.push(arg);
      texts[args.length - 1] = wordText(at);
    }
  }
  const reading = readOptions(args, OPTIONS, 0, (at) => texts[at]);
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
    if (!reading.has("check")) found(file); // (`--fmt --check` only says whether it would)
    return [];
  }
  if (reading.has("edit", "choose")) return UNKNOWABLE; // an editor, or recipes chosen at the terminal
  const text = inlineImports(file, 0);
  if (text === undefined) return UNKNOWABLE;
  const parsed = parseJustfile(text);
  if (parsed === undefined) return UNKNOWABLE;
  const { recipes, values, first, settings, backticks } = parsed;
  const directory = dirname(file);
  // Where recipes run unless told otherwise: the justfile's directory, or --working-directory's.
  const base = reading.has("d") ? start : directory;
  const placed = (at: string | null | undefined, from: string | undefined) => (at === null ? undefined : at === undefined ? from : directoryAt(from, at));
  // Each variable set by a backtick runs its command as just reads the justfile, in its directory.
  // (Where `set working-directory` moves them too or not, both are read.)
  const runs: Nested[] = backticks.flatMap((script) => [...new Set([directory, placed(settings.workingDirectory, base)])].map((cwd) => ({ script, cwd, bound: new Map() })));
  if (command !== undefined) {
    if (command.length === 0 || command.some((word) => word === undefined)) return UNKNOWABLE;
    return [...runs, { script: (command as string[]).map(shellQuoted).join(" "), cwd: base, bound: new Map() }];
  }
  // The words after the options: recipe names, each followed by its arguments (unknown values).
  const words = reading.operands.map((at) => args[at]);
  const named: string[] = [];
  // Each recipe named takes as many words as it has parameters (a `*`/`+` one, all the rest).
  const given = new Map<Recipe, Map<string, string | undefined>>();
  let taking: { recipe: Recipe; next: number } | undefined;
  for (const word of words) {
    const parameter = taking?.recipe.parameters[taking.next];
    if (taking !== undefined && parameter !== undefined) {
      const bound = given.get(taking.recipe) as Map<string, string | undefined>;
      bound.set(parameter.name, parameter.variadic && bound.has(parameter.name) ? undefined : word);
      if (!parameter.variadic) taking.next++;
      continue;
    }
    if (word === undefined) {
      if (named.length === 0) return UNKNOWABLE; // a recipe the text does not name
      continue;
    }
    const assignment = /^([A-Za-z_][\w-]*)=([\s\S]*)$/.exec(word);
    if (assignment && named.length === 0) {
      overrides.set(assignment[1] as string, assignment[2]); // `just x=1 build` sets a variable
      continue;
    }
    const recipe = recipes.get(word);
    if (recipe !== undefined) {
      named.push(word);
      if (!given.has(recipe)) given.set(recipe, new Map());
      taking = { recipe, next: 0 };
    } else if (named.length === 0) return UNKNOWABLE; // a recipe the hook cannot find (a module's `a::b`, an alias)
  }
  for (const [name, value] of overrides) {
    if (value === undefined || /[{}`$\\]/.test(value)) values.delete(name);
    else values.set(name, value);
  }
  if (named.length === 0 && first !== undefined) named.push(first);
  // Each recipe runs once for each set of arguments it is given (`(compile 'a') (compile 'b')`: twice).
  const order: Array<{ recipe: Recipe; bound: Map<string, string | undefined> }> = [];
  const ran = new Set<string>();
  const visit = (name: string, bound: Map<string, string | undefined>, depth: number): boolean => {
    const recipe = recipes.get(name);
    if (recipe === undefined || depth > 32) return false;
    const key = JSON.stringify([name, ...bound]);
    if (ran.has(key)) return true;
    ran.add(key);
    for (const { name: dependency, expressions } of recipe.dependencies) {
      // Its arguments, as this recipe has them: a quoted string, a parameter's argument, a variable's value.
      const target = recipes.get(dependency);
      const passed = new Map<string, string | undefined>();
      expressions.forEach((expression, at) => {
        const parameter = target?.parameters[at];
        if (parameter === undefined) return;
        const literal = /^(['"])(.*)\1$/.exec(expression)?.[2];
        const fromParameter = recipe.parameters.find((each) => each.name === expression);
        passed.set(parameter.name, literal ?? (fromParameter !== undefined ? (bound.has(expression) ? bound.get(expression) : fromParameter.fallback) : values.get(expression)));
      });
      if (!visit(dependency, passed, depth + 1)) return false;
    }
    order.push({ recipe, bound });
    return true;
  };
  for (const name of named) {
    const recipe = recipes.get(name);
    if (!visit(name, (recipe === undefined ? undefined : given.get(recipe)) ?? new Map(), 0)) return UNKNOWABLE;
  }
  for (const { recipe, bound } of order) {
    // `[working-directory]` before `[no-cd]` and `set no-cd`, before `set working-directory`.
    const cwd = recipe.workingDirectory !== undefined ? placed(recipe.workingDirectory, base) : recipe.noCd || settings.noCd ? start : placed(settings.workingDirectory, base);
    runs.push({ script: recipeScript(recipe, values, settings, bound), cwd, bound: new Map() });
  }
  return runs;
}

/** A recipe's body as a shell script: interpolations put in, or left as a part the text does not fix. */
function recipeScript(recipe: Recipe, values: Map<string, string>, settings: Settings, given = new Map<string, string | undefined>()): string {
  const value = (name: string) => {
    const parameter = recipe.parameters.find((each) => each.name === name);
    if (parameter === undefined) return values.get(name);
    const argument = given.has(name) ? given.get(name) : parameter.fallback;
    return argument === undefined || /[{}`$\\]/.test(argument) ? undefined : argument;
  };
  // (`{{just_executable()}}`: just itself, running another recipe.)
  const lines = recipe.lines.map((line) => line.replace(/\{\{(.*?)\}\}/g, (_, inner: string) => (/^just_executable\(\s*\)$/.test(inner.trim()) ? "just" : (value(inner.trim()) ?? "${__just_value}"))));
  // `[script('python3')]` is a `#!` line of its own (a bare `[script]`: set script-interpreter's program, else sh).
  if (recipe.script !== undefined) lines.unshift(`#!/usr/bin/env ${recipe.script || settings.scriptInterpreter || "sh"}`);
  // (`#!/usr/bin/env -S python3 -u`: the program after env's options.)
  const shebang = /^#!\s*(\S+)(?:\s+(?:-\S*\s+)*(\S+))?/.exec(lines[0] ?? "");
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
function parseJustfile(text: string): { recipes: Map<string, Recipe>; values: Map<string, string>; first: string | undefined; settings: Settings; backticks: string[] } | undefined {
  const recipes = new Map<string, Recipe>();
  const values = new Map<string, string>();
  const settings: Settings = { noCd: false };
  const backticks: string[] = [];
  const systems = HERE_SYSTEMS[process.platform] ?? [];
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
    // A module's recipes are called as `just name::recipe` or `just name recipe`, which the hook does not find: any file.
    if (/^mod\??\s+[A-Za-z_]/.test(line)) continue;
    if (/^set\s+shell\b/.test(line) && !/\[\s*["'](sh|bash|zsh|dash|\/bin\/(ba)?sh|\/usr\/bin\/env)["']/.test(line)) return undefined;
    const setting = /^set\s+([\w-]+)\s*(?::=\s*(.*))?$/.exec(line);
    if (setting) {
      const [, name, given] = setting as unknown as [string, string, string | undefined];
      if (name === "no-cd") settings.noCd = given === undefined || given.trim() === "true";
      if (name === "working-directory") settings.workingDirectory = stringLiteral(given);
      if (name === "script-interpreter") settings.scriptInterpreter = /^\[\s*(['"])([^'"]+)\1/.exec(given?.trim() ?? "")?.[2];
      continue;
    }
    const assignment = /^(?:export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(.*)$/.exec(line);
    if (assignment) {
      const given = (assignment[2] as string).trim();
      const value = /^(['"])([^'"{}`$\\]*)\1$/.exec(given);
      if (value) values.set(assignment[1] as string, value[2] as string);
      // A backtick's command runs as just evaluates the variable (```…``` spans lines: taken as far as the line).
      for (const match of given.matchAll(/(`{1,3})([^`]+)\1?/g)) backticks.push(match[2] as string);
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
      const dependencies = [...(header[3] as string).matchAll(/\(\s*([A-Za-z_][\w-]*)((?:\s+(?:'[^']*'|"[^"]*"|[^\s()'"]+))*)\s*\)|([A-Za-z_][\w-]*)/g)].map((match) => ({
        name: (match[1] ?? match[3]) as string,
        expressions: match[1] === undefined ? [] : [...(match[2] as string).matchAll(/'[^']*'|"[^"]*"|[^\s'"]+/g)].map((word) => word[0]),
      }));
      // (`[linux]` and `[windows]` recipes of one name: the one for this system.)
      const marked = attributes.filter((attribute) => SYSTEMS.includes(attribute));
      const elsewhere = marked.length > 0 && !marked.some((system) => systems.includes(system));
      const parameters = [...(header[2] as string).matchAll(/(?:^|\s)([+*]?)\$?([A-Za-z_][\w-]*)(?:\s*=\s*('[^']*'|"[^"]*"|`[^`]*`|[^\s'"`]+))?/g)].map((match) => {
        const fallback = /^(['"])([^'"]*)\1$/.exec(match[3] ?? "")?.[2] ?? (match[3] !== undefined && /^[\w./-]+$/.test(match[3]) ? match[3] : undefined);
        return { name: match[2] as string, variadic: match[1] !== "", ...(fallback !== undefined && { fallback }) };
      });
      current = { name, dependencies, lines: [], noCd: attributes.includes("no-cd"), parameters };
      const placed = attributes.find((attribute) => /^working-directory\b/.test(attribute));
      if (placed !== undefined) current.workingDirectory = stringLiteral(/^working-directory\s*(?::\s*(.*)|\((.*)\))$/.exec(placed)?.slice(1).find((part) => part !== undefined));
      const script = attributes.find((attribute) => /^script\b/.test(attribute));
      if (script !== undefined) current.script = /^script\s*\(\s*(['"])([^'"]+)\1/.exec(script)?.[2] ?? "";
      if (elsewhere) {
        attributes = [];
        continue; // its lines are read into a recipe no one runs
      }
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
  return { recipes, values, first, settings, backticks };
}

/** A justfile string literal's text (`'bar'`, `"bar"`); null for any other expression (a place the text does not fix). */
function stringLiteral(given: string | undefined): string | null {
  const literal = /^(['"])([^'"{}`$\\]*)\1$/.exec(given?.trim() ?? "");
  return literal === null ? null : (literal[2] as string);
}

/**
 * A justfile's text with each `import 'path'` (relative to the file naming it; `import?`: when it
 * exists) replaced by that file's text, as just reads them into one justfile whose recipes run
 * where the root one's do. Undefined where a file cannot be read or an import is not a plain path.
 */
function inlineImports(file: string, depth: number): string | undefined {
  const text = readText(file);
  if (text === undefined || depth > 8) return undefined;
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const imported = /^import(\?)?\s+(?:'([^']*)'|"([^"\\{}]*)")\s*(#.*)?$/.exec(line);
    if (imported === null) {
      if (/^import\??\s/.test(line)) return undefined; // a path built some other way
      lines.push(line);
      continue;
    }
    const given = (imported[2] ?? imported[3]) as string;
    const path = directoryAt(dirname(file), given.replace(/^~(?=\/)/, process.env.HOME ?? "~"));
    const inner = path === undefined ? undefined : inlineImports(path, depth + 1);
    if (inner === undefined) {
      if (imported[1] === "?" && path !== undefined && readText(path) === undefined) continue; // optional, and not there
      return undefined;
    }
    lines.push(inner);
  }
  return lines.join("\n");
}

/** The justfile just finds from a directory up (any case of `justfile`, or `.justfile`). */
function findJustfile(start: string): string | undefined {
  return nearestFile(start, (names) => names.find((entry) => entry.toLowerCase() === "justfile" || entry.toLowerCase() === ".justfile"));
}
