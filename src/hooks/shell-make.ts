// A Makefile's recipes, as the shell lines make runs (`make`, `gmake`, and `$(MAKE)` in a recipe),
// handed back to the walk (shell-walk.ts) to read in turn: the recipes of the goals named (else
// the first target) and of the prerequisites they need, by an explicit rule or a pattern rule
// (`%.o: %.c`), and `$(shell …)` wherever it stands. The variables the files and the command line
// set are put in (else the environment's, else make's own: CC, RM, MAKE); an automatic variable is
// the rule's target or prerequisites (`$@`, `$<`, `$^`); whatever else make computes
// (`$(wildcard …)`, `$*`) is a variable the text does not fix, and a recipe whose command it computes
// (`$(call …)`) could write anything. Target-specific variables, `.ONESHELL`, `.DEFAULT_GOAL`,
// `.RECIPEPREFIX`, `CURDIR` are read; conditionals on both sides; `include`d makefiles too (from
// where make runs). A goal no rule makes, in files that generate rules (`$(eval …)`) or include
// what the hook cannot read, could write anything. With `-n` only the lines make runs anyway
// (`+`, `$(MAKE)`, itself with `-n`); `-v`, `-h` run nothing, `-q` only what runs as make reads
// the files. `--eval`'s text, MAKEFILES' files and MAKEFLAGS' words are read too; a SHELL of the
// makefile's own could write anything. Where no recipe is read for
// a target, make's built-in rules are taken to make it: an object from its source, a program from
// its objects.
import { dirname, join, resolve } from "node:path";
import { exists } from "../targets/target.js";
import { readOptions, type Syntax } from "./shell-options.js";
import type { Nested } from "./shell-runners.js";
import { scriptFile } from "./shell-scripts.js";
import { type Environment, globFiles, physicalDirectoryAt, shellQuoted, UNKNOWABLE } from "./shell-words.js";

const MAKE: Syntax = {
  short: "C:f:I:o:W:l::j::O::E:",
  long: {
    directory: "C",
    file: "f",
    makefile: "f",
    "include-dir": "I",
    "old-file": "o",
    "assume-old": "o",
    "what-if": "W",
    "new-file": "W",
    "assume-new": "W",
    "load-average": "l",
    jobs: "j",
    "just-print": "n",
    "dry-run": "n",
    recon: "n",
    question: "q",
    eval: "E",
    "environment-overrides": "e",
    "output-sync": "O",
    debug: "",
    version: "v",
    help: "h",
  },
};

/** Variables make has of its own, when neither the files, the command line nor the environment set them. */
const BUILTIN: Record<string, string> = { MAKE: "make", CC: "cc", CXX: "g++", CPP: "cc -E", AR: "ar", AS: "as", LD: "ld", RM: "rm -f", SHELL: "/bin/sh", LEX: "lex", YACC: "yacc" };

/** A part of a recipe make computes and the text does not fix: a shell variable no one sets. */
const HOLE = "${__make_computed}";

interface MakeRule {
  targets: string[];
  prerequisites: string;
  recipes: string[];
  /** A static pattern rule's target pattern (`objs: %.o: %.c`). */
  pattern?: string;
}

interface Makefile {
  variables: Map<string, string>;
  rules: MakeRule[];
  /** `$(shell …)` outside recipes: run while make reads the file. */
  shells: string[];
  /** Target-specific variables (`t: V = x`), by target. */
  targetVariables: Map<string, Array<[string, string]>>;
  /** Rules may come from what the hook does not read: `$(eval …)`, an include it could not name or read. */
  incomplete: boolean;
  oneShell: boolean;
  recipePrefix: string;
  /** Where make runs: includes are found from here; `CURDIR`. */
  directory: string;
  /** How many conditionals (`ifeq`, `ifdef`, …) the line being read is inside. */
  conditionalDepth?: number;
  /** `-e`: a variable the environment has wins over the makefiles' (not over an `override`). */
  environmentOverrides?: boolean;
}

/**
 * The recipes `make args…` runs from cwd, as one script (each line in a subshell of its own, as
 * make runs them), or UNKNOWABLE. `texts`: the arguments' text, with a HOLE where the text does not
 * fix them (`-j"$(nproc)"`, `CFLAGS="$x"`).
 */
export function makeRecipes(given: Array<string | undefined>, texts: string[], cwd: string | undefined, environment: Environment, written: (path: string) => boolean = () => false): Nested[] | typeof UNKNOWABLE {
  // An option or an assignment the text does not fix is still one: `-j$(nproc)` (read as a job
  // count), `V="$x"` (V a value unknown); `-C"$d"` and `-f"$f"` name what the hook cannot find.
  if (given.some((arg, at) => arg === undefined && /^-(C|f|E|-directory|-file|-makefile|-eval)/.test(texts[at] ?? ""))) return UNKNOWABLE;
  // MAKEFLAGS (GNUMAKEFLAGS, MFLAGS) from the environment: options and `VAR=x` as the command
  // line's, before it (`MAKEFLAGS=OUT=u.ts make`, `MAKEFLAGS=e`: its first word may be letters alone).
  const flags = makeFlags(environment);
  if (flags === UNKNOWABLE) return UNKNOWABLE;
  if (flags.length > 0) return makeRecipes([...flags, ...given], [...flags, ...texts], cwd, { ...environment, MAKEFLAGS: "", GNUMAKEFLAGS: "", MFLAGS: "" }, written);
  const args = given.map((arg, at) => arg ?? (/^[A-Za-z_]\w*=/.test(texts[at] ?? "") ? `${(texts[at] as string).split("=")[0]}=${HOLE}` : undefined));
  const reading = readOptions(args, MAKE, 0, (at) => texts[at]);
  // A word whose option letters the text does not fix (`make -"$x" gen.mk`, `-k"$x"`) may be -f
  // (its makefile the next word) or -C: recipes the hook cannot find.
  if (reading.unnamed.length > 0) return UNKNOWABLE;
  if (reading.has("v", "h")) return []; // prints: reads no makefile, runs no recipe
  // Each -C from the one before, as make chdir()s to it: `..` after a symlink taken physically.
  const directory = reading.values("C").reduce<string | undefined>((from, chdir) => physicalDirectoryAt(from, chdir), cwd);
  if (directory === undefined) return UNKNOWABLE;
  const named = reading.values("f");
  if (named.some((file) => file === undefined || file === "-")) return UNKNOWABLE; // a makefile the text does not give
  const makefile: Makefile = { variables: new Map([["CURDIR", directory]]), rules: [], shells: [], targetVariables: new Map(), incomplete: false, oneShell: false, recipePrefix: "\t", directory, environmentOverrides: reading.has("e") };
  const files = named.length > 0 ? (named as string[]).map((file) => resolve(directory, file)) : [["GNUmakefile", "makefile", "Makefile"].map((name) => join(directory, name)).find((path) => scriptFile(path, true) !== undefined)];
  // A makefile the command writes first (`printf … > Makefile; make`): not the one on disk now.
  if (files.some((file) => file !== undefined && written(file)) || (named.length === 0 && ["GNUmakefile", "makefile", "Makefile"].some((name) => written(join(directory, name))))) return UNKNOWABLE;
  // No makefile: make runs nothing (its built-in rules aside) but what `--eval` gives it (`make -E 'x:=$(shell rm f)'`).
  if (files[0] === undefined && reading.values("E").length === 0) return [];
  const goals: string[] = [];
  for (const at of reading.operands) {
    const arg = args[at];
    if (arg === undefined) return UNKNOWABLE; // `make "$target"`, `make V="$x"`
    const assignment = /^([^=\s:]+)\s*:?=(.*)$/s.exec(arg);
    if (assignment) makefile.variables.set(assignment[1] as string, assignment[2] as string);
    else if (!/^\d+$/.test(arg)) goals.push(arg); // `-j 4`: a job count, not a goal
  }
  const fromCommandLine = new Set([...makefile.variables.keys()].filter((name) => name !== "CURDIR"));
  const dryRun = reading.has("n");
  // A sub-make run by a dry run's `$(MAKE)` line inherits -n.
  if (dryRun && !fromCommandLine.has("MAKE")) makefile.variables.set("MAKE", "make -n");
  // `--eval`'s text, read as a makefile's before the makefiles are (`--eval='x:=$(shell …)'`).
  for (const text of reading.values("E")) if (text === undefined || readMakefileText(text, makefile, fromCommandLine, environment, 0) === UNKNOWABLE) return UNKNOWABLE;
  // MAKEFILES' files, read before the makefiles (one not there is passed, as make does); the default goal is never theirs.
  const before = Object.hasOwn(environment, "MAKEFILES") && environment.MAKEFILES === undefined ? UNKNOWABLE : makefileList(environment.MAKEFILES, directory);
  if (before === UNKNOWABLE || before.some((file) => written(file))) return UNKNOWABLE;
  for (const file of before) if (readMakefile(file, makefile, fromCommandLine, environment, 0) === UNKNOWABLE) return UNKNOWABLE;
  const theirs = makefile.rules.splice(0);
  for (const file of files) if (file !== undefined && readMakefile(file, makefile, fromCommandLine, environment, 0) === UNKNOWABLE) return UNKNOWABLE;
  makefile.rules.push(...theirs);
  // A SHELL (or .SHELLFLAGS) the makefiles or the command line set runs every recipe and `$(shell …)`:
  // a program of their own (`SHELL := ./sh.sh`) could write any file. MAKEFLAGS set in a makefile
  // may give variables or `-e` that make reads again after the makefiles.
  const shells = [makefile.variables.get("SHELL"), ...[...makefile.targetVariables.values()].flatMap((pairs) => pairs.filter(([name]) => name === "SHELL").map(([, value]) => value))];
  if (shells.some((shell) => shell !== undefined && !KNOWN_SHELL.test(shell.trim()) && !KNOWN_SHELL.test(expandText(shell, makefile.variables, environment, {}, 0, { steps: 0 }).trim()))) return UNKNOWABLE;
  const shellFlags = makefile.variables.get(".SHELLFLAGS");
  if (shellFlags !== undefined && !/^(\s*([-+][a-zA-Z]+|[-+]o\s+\w+))*\s*$/.test(expandText(shellFlags, makefile.variables, environment, {}, 0, { steps: 0 }))) return UNKNOWABLE;
  const ownFlags = makefile.variables.get("MAKEFLAGS");
  if (ownFlags !== undefined && /(^|\s)([^-\s]*=|-[a-zA-Z]*e|--(eval|environment-overrides))/.test(ownFlags)) return UNKNOWABLE;
  const work = { steps: 0 };
  const expand = (text: string, automatic: Record<string, string> = {}, variables = makefile.variables) => expandText(text, variables, environment, automatic, 0, work);
  const lines: string[] = makefile.shells.map((shell) => `( ${expand(shell)} )`);
  // `-q` asks, and runs no recipe; what runs as make reads the makefiles runs all the same.
  if (reading.has("q")) return lines.length === 0 ? [] : [{ script: lines.join("\n"), cwd: directory, bound: new Map() }];
  const defaultGoal = makefile.variables.get(".DEFAULT_GOAL");
  const targets = needed(makefile, goals.length > 0 ? goals : defaultGoal ? expand(defaultGoal).split(/\s+/).filter(Boolean) : [], expand);
  if (targets === UNKNOWABLE) return UNKNOWABLE;
  for (const { target, rule, stem } of targets) {
    // The target's own variables (`t: V = x`) over the files'.
    const own = makefile.targetVariables.get(target);
    const variables = own ? new Map([...makefile.variables, ...own.filter(([name]) => !fromCommandLine.has(name))]) : makefile.variables;
    const prerequisites = expand(rule.prerequisites.replaceAll("%", stem ?? "%"), {}, variables).split(/\s+/).filter((word) => word !== "" && word !== "|");
    const automatic = { "@": target, "<": prerequisites[0] ?? "", "^": prerequisites.join(" "), "+": prerequisites.join(" "), "?": prerequisites.join(" "), "*": stem ?? HOLE };
    const recipe: string[] = [];
    for (const text of rule.recipes) {
      const runs = /^[\s@-]*\+/.test(text) || /\$[({]MAKE[)}]/.test(text);
      if (dryRun && !runs) continue;
      // `@`, `-` and `+` before the command, also where a variable puts them (`$(Q)rm`, Q = @).
      const line = expand(text.replace(/^[\s@+-]+/, ""), automatic, variables).trim().replace(/^[\s@+-]+/, "");
      if (line.startsWith(HOLE)) return UNKNOWABLE; // a command make computes: `$(call …)`, `$(CMD)` from a function
      if (line !== "") recipe.push(line);
    }
    if (recipe.length === 0) continue;
    // Each line in a shell of its own, or, with .ONESHELL, the recipe in one.
    if (makefile.oneShell) lines.push(`(\n${recipe.join("\n")}\n)`);
    else lines.push(...recipe.map((line) => `( ${line}\n)`));
  }
  return lines.length === 0 ? [] : [{ script: lines.join("\n"), cwd: directory, bound: new Map() }];
}

/** Reads one makefile (and what it includes) into `makefile`. */
function readMakefile(path: string, makefile: Makefile, fromCommandLine: Set<string>, environment: Environment, depth: number): typeof UNKNOWABLE | undefined {
  const script = scriptFile(path, true);
  if (script === UNKNOWABLE) return UNKNOWABLE;
  if (script === undefined) return undefined; // an `-include` of a file not there
  return readMakefileText(script.text, makefile, fromCommandLine, environment, depth);
}

/** Reads a makefile's text (a file's, or `--eval`'s) into `makefile`. */
function readMakefileText(text: string, makefile: Makefile, fromCommandLine: Set<string>, environment: Environment, depth: number): typeof UNKNOWABLE | undefined {
  if (depth > 8) return UNKNOWABLE;
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  let current: MakeRule[] = [];
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index] as string;
    const prefix = makefile.recipePrefix;
    if (line.startsWith(prefix) && current.length > 0) {
      // A recipe line; a `\` at its end continues it, as the shell reads it.
      while (line.endsWith("\\") && index + 1 < lines.length) line = `${line.slice(0, -1)} ${(lines[++index] as string).replace(/^\t/, "")}`;
      for (const rule of current) rule.recipes.push(line.slice(prefix.length));
      continue;
    }
    while (line.endsWith("\\") && index + 1 < lines.length) line = `${line.slice(0, -1)} ${(lines[++index] as string).trim()}`;
    const text = line.replace(/(^|[^\\])#.*$/, "$1").trim();
    if (text === "") continue;
    const define = /^(?:(?:export|override)\s+)*define\s+([^\s:=]+)/.exec(text);
    if (define) {
      const body: string[] = [];
      while (++index < lines.length && !/^\s*endef\b/.test(lines[index] as string)) body.push(lines[index] as string);
      if (!fromCommandLine.has(define[1] as string)) makefile.variables.set(define[1] as string, body.join("\n"));
      current = [];
      continue;
    }
    // Both sides of a conditional are read. A variable given a value inside one when it already has
    // one (`ifeq (…) OUT = a else OUT = b endif`, or set before it) has either: computed, as make
    // decides it.
    const conditional = /^(ifeq|ifneq|ifdef|ifndef|else|endif)\b/.exec(text)?.[1];
    if (conditional !== undefined) {
      if (conditional === "endif") makefile.conditionalDepth = Math.max(0, (makefile.conditionalDepth ?? 0) - 1);
      else if (conditional !== "else") makefile.conditionalDepth = (makefile.conditionalDepth ?? 0) + 1;
      // `else ifeq (…)`: one more branch of the same conditional.
      continue;
    }
    if (/\$[({]eval\s/.test(text)) makefile.incomplete = true; // rules generated as make reads
    const include = /^(-?include|sinclude)\s+(.+)$/.exec(text);
    if (include) {
      // From where make runs; a glob is expanded as make does.
      for (const name of expandText(include[2] as string, makefile.variables, environment, {}, 0, { steps: 0 }).split(/\s+/)) {
        if (name === "") continue;
        const paths = name.includes(HOLE) ? [] : /[*?[]/.test(name) ? globFiles(name, makefile.directory, { braces: false }) : [resolve(makefile.directory, name)];
        if (paths.length === 0 || paths.some((file) => scriptFile(file, true) === undefined)) makefile.incomplete = true;
        for (const file of paths) if (readMakefile(file, makefile, fromCommandLine, environment, depth + 1) === UNKNOWABLE) return UNKNOWABLE;
      }
      continue;
    }
    const assignment = /^(?:(?:export|override|private)\s+)*([^\s:#=?+!]+)\s*(:::=|::=|:=|\?=|\+=|!=|=)\s*(.*)$/s.exec(text);
    if (assignment) {
      const [, name, operator, value] = assignment as unknown as [string, string, string, string];
      current = [];
      if (operator === "!=") makefile.shells.push(value); // `X != cmd`: the shell runs cmd now
      // `X := $(shell …)`, `$(file >f,…)` run now; `X = $(shell …)` where X is used: read either way.
      for (const shell of shellCalls(value)) makefile.shells.push(shell);
      if (name === ".RECIPEPREFIX") makefile.recipePrefix = value === "" ? "\t" : (value[0] as string);
      // (An `override` assignment wins over the command line's: `make X=y` with `override X = …`.)
      if (fromCommandLine.has(name) && !/^(?:(?:export|private)\s+)*override\s/.test(text)) continue;
      // `make -e`: the environment's value wins (`OUT=u.ts make -e`), where no `override` says otherwise.
      if (makefile.environmentOverrides === true && Object.hasOwn(environment, name) && !/^(?:(?:export|private)\s+)*override\s/.test(text)) continue;
      // `:=` expands once, now; `=` each time it is used.
      const now = operator.startsWith(":") ? expandText(value, makefile.variables, environment, {}, 0, { steps: 0 }) : value;
      if (operator === "+=") makefile.variables.set(name, `${makefile.variables.get(name) ?? ""} ${value}`);
      // `?=` sets what neither the makefile nor the environment set (`OUT=x make`, `export OUT=x; make`).
      else if ((makefile.conditionalDepth ?? 0) > 0 && operator !== "?=" && makefile.variables.has(name) && makefile.variables.get(name) !== (operator === "!=" ? HOLE : now)) makefile.variables.set(name, HOLE);
      else if (operator !== "?=" || !(makefile.variables.has(name) || Object.hasOwn(environment, name))) makefile.variables.set(name, operator === "!=" ? HOLE : now);
      continue;
    }
    for (const shell of shellCalls(text)) makefile.shells.push(shell);
    const rule = /^([^:=]+?)\s*::?\s*(.*)$/.exec(text);
    if (!rule) {
      current = [];
      continue; // a line the hook does not read
    }
    const targetVariable = /^\s*(?:(?:export|override|private)\s+)*([^\s:#=;]+)\s*(?::{1,3}=|\?=|\+=|!=|=)\s*(.*)$/.exec(rule[2] as string);
    if (targetVariable) {
      // `t: V = x`: V is x in t's recipe.
      for (const target of (rule[1] as string).split(/\s+/).filter(Boolean)) {
        makefile.targetVariables.set(target, [...(makefile.targetVariables.get(target) ?? []), [targetVariable[1] as string, targetVariable[2] as string]]);
      }
      current = [];
      continue;
    }
    if ((rule[1] as string).trim() === ".ONESHELL") makefile.oneShell = true;
    const [, targets, rest] = rule as unknown as [string, string, string];
    // `t: p ; recipe`, and a static pattern rule `objs: %.o: %.c` (each target's stem is its own).
    const semicolon = rest.indexOf(";");
    const body = semicolon === -1 ? rest : rest.slice(0, semicolon);
    const staticPattern = /^([^:]*%[^:]*):\s*(.*)$/.exec(body);
    current = [
      {
        targets: targets.split(/\s+/).filter(Boolean),
        prerequisites: staticPattern ? (staticPattern[2] as string) : body,
        recipes: semicolon === -1 ? [] : [rest.slice(semicolon + 1)],
        ...(staticPattern ? { pattern: (staticPattern[1] as string).trim() } : {}),
      },
    ];
    makefile.rules.push(...current);
  }
  return undefined;
}

/**
 * The `$(shell …)` calls in a line (outside recipes, make runs them as it reads the file), and its
 * `$(file >f,…)` calls, as the shell command that writes f (`: > f`).
 */
function shellCalls(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\$[({](shell|file)\s/g)) {
    const end = closing(text, match.index + 1);
    if (end === -1) continue;
    const inner = text.slice(match.index + match[0].length, end);
    if (match[1] === "shell") found.push(inner);
    else {
      const written = fileWritten(inner);
      if (written !== undefined) found.push(written);
    }
  }
  return found;
}

/** What make's `$(file >f,text)` (`>>f` appends) does, as a shell command: `: > f`; undefined for `$(file <f)`, which reads. */
function fileWritten(inner: string): string | undefined {
  const op = /^\s*(>>?)\s*([^,]*)/.exec(inner);
  if (op === null) return undefined;
  const name = (op[2] as string).trim();
  return `: ${op[1]} ${name.includes("$") ? `"${name.replaceAll('"', '\\"')}"` : shellQuoted(name)}`;
}

/** The shells whose recipes the hook reads as bash reads them: sh, bash, dash, ksh, zsh (by name, the system's path, through env, or `$(shell which bash)`), with options. */
const KNOWN_SHELL = /^(((\/usr|\/usr\/local|\/opt\/homebrew)?\/bin\/)?(env\s+)?((\/usr|\/usr\/local|\/opt\/homebrew)?\/bin\/)?(sh|bash|dash|ksh|zsh)|\$\((shell\s+)?(which|command\s+-v)\s+(sh|bash|dash|ksh|zsh)\))(\s+[-+][a-zA-Z]+|\s+[-+][oO]\s+\w+)*$/;

/**
 * MAKEFLAGS (else GNUMAKEFLAGS, MFLAGS) of the environment as words of the command line: a first
 * word of letters alone is options (`ks`: `-ks`); `--` before the variables is dropped. Undefined
 * values, or a backslash or quote the split cannot follow, are UNKNOWABLE.
 */
function makeFlags(environment: Environment): string[] | typeof UNKNOWABLE {
  const words: string[] = [];
  for (const name of ["MFLAGS", "GNUMAKEFLAGS", "MAKEFLAGS"]) {
    if (!Object.hasOwn(environment, name)) continue;
    const value = environment[name];
    if (value === undefined || /[\\'"]/.test(value)) return UNKNOWABLE;
    const split = value.trim().split(/\s+/).filter((word) => word !== "" && word !== "--");
    if (split[0] !== undefined && !split[0].startsWith("-") && !split[0].includes("=")) split[0] = `-${split[0]}`;
    words.push(...split);
  }
  return words;
}

/** MAKEFILES' files, from where make runs; ones not there passed, as make passes them. UNKNOWABLE where the text does not fix them. */
function makefileList(value: string | undefined, directory: string): string[] | typeof UNKNOWABLE {
  if (value === undefined) return [];
  if (/[$*?[\\'"]/.test(value)) return UNKNOWABLE;
  return value
    .split(/\s+/)
    .filter((word) => word !== "")
    .map((word) => resolve(directory, word))
    .filter((path) => scriptFile(path, true) !== undefined);
}

/** The index of the bracket closing the one at `open`, or -1. */
function closing(text: string, open: number): number {
  const opener = text[open];
  const closer = opener === "(" ? ")" : "}";
  let depth = 0;
  for (let at = open; at < text.length; at++) {
    if (text[at] === opener) depth++;
    else if (text[at] === closer && --depth === 0) return at;
  }
  return -1;
}

/** A makefile's text with its variables put in, as make expands a recipe before the shell gets it. */
function expandText(text: string, variables: Map<string, string>, environment: Environment, automatic: Record<string, string>, depth: number, work: { steps: number }): string {
  // A chain of variables each naming the next many times grows without end: cut off, as unknown.
  if (depth > 10 || ++work.steps > 20_000) return HOLE;
  let out = "";
  for (let at = 0; at < text.length; at++) {
    const char = text[at] as string;
    if (char !== "$") {
      out += char;
      continue;
    }
    // A value computed by make, kept from an earlier expansion (`X := $(wildcard …)`): still computed, not a variable of that name.
    if (text.startsWith(HOLE, at)) {
      out += HOLE;
      at += HOLE.length - 1;
      continue;
    }
    const next = text[at + 1];
    if (next === undefined) break;
    if (next === "$") {
      out += "$"; // `$$`: a dollar for the shell
      at++;
      continue;
    }
    if (next !== "(" && next !== "{") {
      at++;
      out += Object.hasOwn(automatic, next) ? (automatic[next] as string) : value(next, variables, environment, automatic, depth, work);
      continue;
    }
    const end = closing(text, at + 1);
    if (end === -1) return out + HOLE;
    const inner = text.slice(at + 2, end);
    at = end;
    const call = /^(\S+)\s+([\s\S]*)$/.exec(inner);
    if (call?.[1] === "shell") out += `$(${expandText(call[2] as string, variables, environment, automatic, depth + 1, work)})`;
    // `$(file >f,…)` in a recipe writes f as make expands it.
    else if (call?.[1] === "file" && fileWritten(call[2] as string) !== undefined) out += `$(${expandText(fileWritten(call[2] as string) as string, variables, environment, automatic, depth + 1, work)})`;
    else if (call) out += HOLE; // $(wildcard …), $(patsubst …), $(foreach …): computed by make
    else if (/^[@<^+?*]$/.test(inner)) out += automatic[inner] ?? HOLE; // `$(@)`
    else if (/^[@<^+?*][DF]$/.test(inner)) {
      const whole = automatic[inner[0] as string];
      out += whole === undefined || whole === HOLE ? HOLE : inner[1] === "D" ? dirname(whole) : whole.slice(whole.lastIndexOf("/") + 1);
    } else if (inner.includes(":")) out += HOLE; // $(SRCS:.c=.o)
    else out += value(expandText(inner, variables, environment, automatic, depth + 1, work), variables, environment, automatic, depth, work);
  }
  return out;
}

function value(name: string, variables: Map<string, string>, environment: Environment, automatic: Record<string, string>, depth: number, work: { steps: number }): string {
  if (work.steps > 20_000) return HOLE;
  const set = variables.get(name);
  if (set !== undefined) return expandText(set, variables, environment, automatic, depth + 1, work);
  if (Object.hasOwn(environment, name)) return environment[name] ?? HOLE;
  return Object.hasOwn(BUILTIN, name) ? (BUILTIN[name] as string) : "";
}

/**
 * The targets make would bring up to date for these goals (else the first target), with the rule
 * whose recipe makes each: an explicit rule's, else a pattern rule's whose target pattern matches
 * (with its stem, `$*`). At most 500: a superset of what runs.
 */
function needed(makefile: Makefile, goals: string[], expand: (text: string) => string): Array<{ target: string; rule: MakeRule; stem?: string }> | typeof UNKNOWABLE {
  const explicit = new Map<string, MakeRule[]>();
  const patterns: MakeRule[] = [];
  for (const rule of makefile.rules) {
    for (const raw of rule.targets) {
      for (const target of expand(raw).split(/\s+/).filter(Boolean)) {
        if (target.includes("%")) patterns.push({ ...rule, targets: [target] });
        else explicit.set(target, [...(explicit.get(target) ?? []), rule]);
        // An old-fashioned suffix rule (`.c.o:`, no prerequisites): `%.o: %.c`.
        const suffixes = /^\.([^.%/\s]+)\.([^.%/\s]+)$/.exec(target);
        if (suffixes && expand(rule.prerequisites).trim() === "") patterns.push({ ...rule, targets: [`%.${suffixes[2]}`], prerequisites: `%.${suffixes[1]}` });
      }
    }
  }
  const first = [...explicit.keys()].find((target) => !target.startsWith("."));
  if (goals.length === 0 && first === undefined && makefile.incomplete) return UNKNOWABLE;
  const queue = goals.length > 0 ? [...goals] : first === undefined ? [] : [first];
  const seen = new Set<string>();
  const out: Array<{ target: string; rule: MakeRule; stem?: string }> = [];
  while (queue.length > 0 && seen.size < 500) {
    const target = queue.shift() as string;
    if (seen.has(target)) continue;
    seen.add(target);
    const rules = explicit.get(target) ?? [];
    const found: Array<{ rule: MakeRule; stem?: string }> = rules.map((rule) => {
      const stem = rule.pattern === undefined ? undefined : stemOf(rule.pattern, target);
      return stem === undefined ? { rule } : { rule, stem };
    });
    if (!rules.some((rule) => rule.recipes.length > 0)) {
      for (const rule of patterns) {
        const stem = stemOf(rule.targets[0] as string, target);
        if (stem !== undefined) found.push({ rule, stem });
      }
    }
    // A goal no rule the hook read makes, in files that may make rules it did not read.
    if (found.length === 0 && makefile.incomplete && !existsAt(makefile.directory, target)) return UNKNOWABLE;
    // No recipe read for it: make's built-in rules may make it (`a.o` from `a.c`, `prog` from its
    // objects). Stands as a rule whose recipe writes the target.
    if (!found.some(({ rule }) => rule.recipes.length > 0) && builtIn(makefile.directory, target, found.flatMap(({ rule }) => expand(rule.prerequisites).split(/\s+/)))) {
      out.push({ target, rule: { targets: [target], prerequisites: "", recipes: [`touch ${shellQuoted(target)}`] } });
    }
    // A target no rule makes and no file is: `.DEFAULT`'s recipe, where the makefile gives one.
    const fallback = explicit.get(".DEFAULT")?.find((rule) => rule.recipes.length > 0);
    if (fallback !== undefined && found.length === 0 && !target.startsWith(".") && !existsAt(makefile.directory, target)) out.push({ target, rule: fallback });
    for (const { rule, stem } of found) {
      out.push({ target, rule, ...(stem === undefined ? {} : { stem }) });
      const prerequisites = expand(stem === undefined ? rule.prerequisites : rule.prerequisites.replaceAll("%", stem));
      for (const prerequisite of prerequisites.split(/\s+/)) if (prerequisite !== "" && prerequisite !== "|" && !prerequisite.includes(HOLE)) queue.push(prerequisite);
    }
  }
  return out;
}

/** What `%` stands for when a pattern (`build/%.o`) matches a target, or undefined. */
function stemOf(pattern: string, target: string): string | undefined {
  const [before, after] = pattern.split("%", 2) as [string, string];
  if (!target.startsWith(before) || !target.endsWith(after) || target.length < before.length + after.length) return undefined;
  return target.slice(before.length, target.length - after.length);
}

/** Whether a prerequisite is a file already there (make needs no rule for it). */
function existsAt(directory: string, path: string): boolean {
  return exists(resolve(directory, path));
}
/** Sources make's built-in rules compile to an object of the same name (`a.c` to `a.o`). */
const BUILT_IN_SOURCES = [".c", ".cc", ".cpp", ".cxx", ".C", ".s", ".S", ".f", ".F", ".p", ".y", ".l"];

/**
 * Whether make's built-in rules make a target no recipe the hook read makes: an object whose
 * source is there (`a.o`, `a.c`), or a program whose prerequisites are objects (`prog: prog.o`).
 */
function builtIn(directory: string, target: string, prerequisites: string[]): boolean {
  if (target.endsWith(".o")) return BUILT_IN_SOURCES.some((extension) => existsAt(directory, target.slice(0, -2) + extension));
  return prerequisites.some((prerequisite) => prerequisite.endsWith(".o"));
}
