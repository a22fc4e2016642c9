// The walk's side of programs in other languages run from files (program-files.ts has the files'
// side): the text a command writes to a file before it runs it (`cat > fix.py <<'EOF' … EOF;
// python3 fix.py`), that text or the file's for the interpreter (shell-walk.ts reads it as an
// inline program), its own modules beside it, and the commands that run a program file without
// naming its interpreter first (`uv run fix.py`, `nvm exec 20 node x.js`, `nvm run x.js`, `deno run
// -A gen.ts`, `nodemon`, `coverage run`, `tsx watch`) or before it (node's preloads).
import { existsSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type Parser from "web-tree-sitter";
import { DOTDOT } from "../targets/target.js";
import { interpreterByExtension, pastReading, programOnDisk, resolveProgram } from "./program-files.js";
import { GLOB_MARK } from "./payload.js";
import { optionValues, PM2 } from "./shell-profiler-rules.js";
import { guessedArguments, ownEntry, readOptions, type Reading, type Syntax, valuedLong } from "./shell-options.js";
import { interpreterOf, type Nested, STDIN, WRAPPERS } from "./shell-runners.js";
import { add, directoryAt, readText, redirectionOperator, shellQuoted, statementOf, staticWord, textWrittenBefore, UNKNOWABLE, type Walk, wordValue, wordValues, writtenBefore } from "./shell-words.js";

type Node = Parser.SyntaxNode;

/**
 * A command that runs a program file without naming its interpreter first: handed back to the walk
 * as the interpreter given the file (true), or not such a command. `known`: the name is a command
 * of the hook's rules or a function of the script, not a file.
 */
/**
 * Restarters, process managers and profilers that run the program file they are given (`ts-node-dev
 * x.ts`, `pm2 start x.js`, `scalene x.py`, `memray run x.py`): read as its interpreter given it.
 */
export const FILE_RUNNERS = /^(ts-node-dev|tsnd|node-dev|supervisor|forever|pm2|0x|scalene|pyinstrument|kernprof|memray)$/;

/** Python's profilers among them, which also run a module (`-m`). */
const PROFILERS = /^(scalene|pyinstrument|kernprof|memray)$/;

export function runsProgramFile(command: { name: string; args: Array<string | undefined>; argv0: string | undefined; words: Node[]; here: Walk; known: boolean }, nested: Nested[]): boolean {
  const { name, args, words, here } = command;
  // (The files python's standard modules write and the programs they run: pythonModuleRuns.)
  if (/^(python|pypy)[\d.]*$/.test(name)) pythonModuleRuns(name, args, words, here, nested);
  // (The diagnostic files node's own options and NODE_OPTIONS' write: nodeOutputs.)
  if (/^(node|nodejs|tsx)$/.test(name)) for (const path of nodeOutputs(args, words, here)) add(here, path);
  const text = (from: number) => words.slice(from).map((word) => word.text);
  // A word as written, with a HOLE where the text does not fix it (shell-options.ts).
  const wordText = (at: number) => wordValue(words[at], here);
  // `uv run fix.py`, `uv run tools/fix.py`: a runner given a program by its file's path. One run by
  // its path alone (`./fix.py`) is read as bash runs it too (by its `#!`, or as a shell script).
  const byName = command.known ? undefined : interpreterByExtension(name);
  if (byName !== undefined) {
    const path = command.argv0 ?? name;
    nested.push({ script: [byName, shellQuoted(path.includes("/") ? path : `./${path}`), ...text(0)].join(" "), cwd: here.cwd });
    return !path.includes("/");
  }
  // Tools that run the program files they are given: nodemon (node's), `coverage run` (python's),
  // FILE_RUNNERS,
  // `tsx watch`, `deno x.ts` (Deno 2 runs a file without `run`). Not pytest: a test file's
  // `tmp_path` writes and fixtures read from data would judge most new tests as writing anything.
  if (name === "nodemon" || (name === "coverage" && args[0] === "run") || FILE_RUNNERS.test(name)) {
    // (Not a file its own options name: `pyinstrument -o out.py x.py` writes out.py.)
    const values = optionValues(name, args, wordText);
    for (const [at, arg] of args.entries()) {
      const interpreter = arg === undefined || arg.startsWith("-") || values.has(at) ? undefined : interpreterByExtension(arg);
      if (interpreter !== undefined) nested.push({ script: [interpreter, (words[at] as Node).text].join(" "), cwd: here.cwd });
    }
    if (name === "pm2") pm2Runs(args, words, here, nested);
    // `pyinstrument -m fix`, `scalene -m fix`, `memray run -m fix`, `kernprof -l -m fix`: the module
    // (its first operand after -m), read as `python3 -m fix` is; `pyinstrument -c CODE`, as `python3 -c CODE`.
    if (PROFILERS.test(name)) {
      const flag = args.findIndex((arg) => arg === "-m" || (arg === "-c" && name !== "scalene"));
      const from = flag === -1 ? -1 : args.findIndex((arg, at) => at > flag && (arg === undefined || !arg.startsWith("-")));
      if (from !== -1 && args[from] === undefined) add(here, UNKNOWABLE);
      else if (from !== -1) nested.push({ script: ["python3", args[flag], ...text(from)].join(" "), cwd: here.cwd });
    }
    // `coverage run -m pkg.mod args`: the module, read as `python3 -m pkg.mod args` is (its first operand after run's options).
    if (name === "coverage") {
      const module = readOptions(args, COVERAGE_RUN, 1, wordText);
      if (module.has("m") && module.operands[0] !== undefined) nested.push({ script: ["python3", "-m", ...text(module.operands[0])].join(" "), cwd: here.cwd });
    }
    return true;
  }
  if (name === "tsx" && args[0] === "watch") {
    nested.push({ script: ["tsx", ...text(1)].join(" "), cwd: here.cwd });
    return true;
  }
  // (`deno -A x.ts`: deno's options before it, as `deno run`'s.)
  // (What deno loads before the program, `--preload ./w.ts`, `--require ./w.js`: each read as a program of its own.)
  const denoPreloads = (reading: Reading) => {
    for (const value of [...reading.values("preload"), ...reading.values("require")]) {
      if (value === undefined) add(here, UNKNOWABLE);
      else if (/^(\.{1,2})?\//.test(value) && (here.cwd !== undefined || isAbsolute(value))) nested.push({ script: `node ${shellQuoted(resolve(here.cwd ?? "/", value))}`, cwd: here.cwd });
    }
  };
  const denoReading = name === "deno" ? readOptions(args, DENO_RUN, 0, wordText) : undefined;
  const denoFile = denoReading?.operands[0];
  if (denoReading !== undefined && denoFile !== undefined && args[denoFile] !== undefined && interpreterByExtension(args[denoFile] as string) !== undefined) {
    denoPreloads(denoReading);
    nested.push({ script: ["node", ...text(denoFile)].join(" "), cwd: here.cwd });
    return true;
  }
  // `nvm exec [version] cmd`, `nvm run [version] x.js` (node given the rest): a version is optional,
  // and `node` or `iojs` is one as well as a command, so both readings are read.
  if (name === "nvm" && (args[0] === "exec" || args[0] === "run")) {
    let at = 1;
    while (/^--(silent|lts)/.test(args[at] ?? "")) at++;
    const version = NVM_VERSION.test(args[at] ?? "");
    const line = (from: number) => [...(args[0] === "run" ? ["node"] : []), ...text(from)].join(" ");
    if (!version || /^(node|iojs)$/.test(args[at] ?? "")) nested.push({ script: line(at), cwd: here.cwd });
    if (version) nested.push({ script: line(at + 1), cwd: here.cwd });
    return true;
  }
  // `deno repl --eval CODE`: read as `deno eval CODE`; `--eval-file=a.ts,b.ts`, each file as `deno run` reads it (a URL's code: any file).
  if (name === "deno" && args[0] === "repl") {
    const reading = readOptions(args.slice(1), DENO_REPL, 0, (at) => wordText(at + 1));
    for (const code of reading.values("eval")) {
      if (code === undefined) add(here, UNKNOWABLE);
      else nested.push({ script: `deno eval ${shellQuoted(code)}`, cwd: here.cwd });
    }
    for (const files of reading.values("eval-file")) {
      for (const file of files === undefined ? [undefined] : files.split(",")) {
        if (file === undefined || /^[a-z][\w+.-]*:/i.test(file)) add(here, UNKNOWABLE);
        else nested.push({ script: `node ${shellQuoted(file)}`, cwd: here.cwd });
      }
    }
    return true;
  }
  // (`deno serve x.ts`: its program, as `deno run x.ts`'s.)
  if (name === "deno" && (args[0] === "run" || args[0] === "serve")) {
    const reading = readOptions(args.slice(1), DENO_RUN, 0, (at) => wordText(at + 1));
    denoPreloads(reading);
    const file = reading.operands[0];
    // (A program on stdin, `deno run -`, is read by stdinProgram.)
    if (file !== undefined && !STDIN.test(args[file + 1] ?? "")) nested.push({ script: ["node", ...text(file + 1)].join(" "), cwd: here.cwd });
    return true;
  }
  return false;
}

/**
 * What pm2 starts besides a program file (read by FILE_RUNNERS' loop): a command by its name, with
 * the words after `--` (`pm2 start npm -- run gen`), a shell script (`pm2 start ./x.sh`: bash's),
 * a program given `--interpreter`, a command line (`pm2 start 'node x.js'`: a shell's). An ecosystem
 * file (`pm2 start ecosystem.config.js`, `pm2 reload apps.json`, `pm2 start` alone its
 * ecosystem.config.js), whose apps' scripts the hook does not read: any file. (`pm2 restart api`:
 * a process it started before, by its name.)
 */
function pm2Runs(args: Array<string | undefined>, words: Node[], here: Walk, nested: Nested[]): void {
  const dashdash = args.indexOf("--");
  const own = dashdash === -1 ? args : args.slice(0, dashdash);
  const reading = readOptions(own, PM2, 0, (at) => wordValue(words[at], here));
  const [verb, ...scripts] = reading.operands;
  const action = verb === undefined ? undefined : args[verb];
  if (action === undefined || !/^(start|restart|reload|startOrRestart|startOrReload|startOrGracefulReload|gracefulReload)$/.test(action)) return;
  const ecosystem = (script: string) => /\.(json|ya?ml|config\.[cm]?js)/.test(script);
  const given = dashdash === -1 ? "" : words.slice(dashdash + 1).map((word) => ` ${word.text}`).join("");
  // (`pm2 start`: the ecosystem.config.js where it runs, if there is one.)
  if (action === "start" && scripts.length === 0 && (here.cwd === undefined || existsSync(join(here.cwd, "ecosystem.config.js")))) add(here, UNKNOWABLE);
  for (const at of scripts) {
    const script = args[at];
    if (script === undefined || script === "-" || ecosystem(script)) {
      add(here, UNKNOWABLE); // (a script the text does not fix; `-`: apps as JSON on its input)
      continue;
    }
    if (action !== "start") continue;
    const interpreter = reading.value("interpreter");
    if (/\s/.test(script)) nested.push({ script: script + given, cwd: here.cwd });
    else if (reading.has("interpreter") && interpreter === undefined) add(here, UNKNOWABLE);
    else if (reading.has("interpreter") && interpreter !== "none") nested.push({ script: `${shellQuoted(interpreter as string)} ${(words[at] as Node).text}${given}`, cwd: here.cwd });
    else if (script.endsWith(".sh")) nested.push({ script: `bash ${(words[at] as Node).text}${given}`, cwd: here.cwd });
    else if (interpreterByExtension(script) === undefined) nested.push({ script: `${(words[at] as Node).text}${given}`, cwd: here.cwd });
  }
}

/**
 * `python3 -m cProfile -o out fix.py`, `-m pickletools -o out x.pickle`, `-m zipapp app -o out`,
 * `-m uu -d in out`, `-m doctest notes.txt`, `-m timeit 'code'`, `-m trace --count fix.py`: a
 * module of python's own, run as a command, that writes a file its options or operands name (or one
 * of its own naming: `app.pyz`, `*.cover`), or that runs a program: a script or module it is given
 * (read as the interpreter given it), code in its arguments (as `-c`'s), a doctest file's examples
 * (as a program on stdin; a `.py` one is imported, read as the program file). The walk judges each
 * written name as a rule's; one the text does not fix, as writing any file.
 */
function pythonModuleRuns(name: string, args: Array<string | undefined>, words: Node[], here: Walk, nested: Nested[]): void {
  const interpreter = interpreterOf(name);
  if (interpreter === undefined) return;
  const text = (at: number) => wordValue(words[at], here);
  const outer = readOptions(args, interpreter.syntax, 0, text);
  moduleRun(name, outer, args, words, here, nested);
  // A word that may be an option the text does not name (`python3 -"$x" cProfile -o f x.py`): -m, the module the next word names.
  for (const guess of guessedArguments(args, interpreter.syntax, outer, text)) {
    const reading = readOptions(guess.args, interpreter.syntax, 0, guess.text);
    if (reading.has("m") && !outer.has("m")) moduleRun(name, reading, guess.args, words, here, nested);
  }
}

/** What the module python runs (`outer`: python's own options, read from `args`) writes and runs (pythonModuleRuns). */
function moduleRun(name: string, outer: Reading, args: Array<string | undefined>, words: Node[], here: Walk, nested: Nested[]): void {
  const module = outer.has("m") ? outer.value("m") : undefined;
  const syntax = module === undefined ? undefined : ownEntry(PYTHON_MODULES, module);
  if (syntax === undefined) return;
  const own = args.slice(outer.end);
  const ownWords = words.slice(outer.end);
  const ownText = (at: number) => wordValue(ownWords[at], here);
  const reading = readOptions(own, syntax, 0, ownText);
  const written = (values: Array<string | undefined>) => {
    for (const value of values) add(here, value === undefined ? UNKNOWABLE : value);
  };
  // A word that may be an option the text does not name (`-m cProfile -"$x" out x.py`): the file
  // each option it may be writes (`-o out`, `-o` with any value: any file).
  const outputs = MODULE_OUTPUTS[module as string] ?? [];
  for (const guess of guessedArguments(own, syntax, reading, ownText)) written(outputs.flatMap((key) => readOptions(guess.args, syntax, 0, guess.text).values(key)));
  const word = (at: number) => (ownWords[at] as Node).text;
  // Words as written, from `at` on (the program's own arguments).
  const rest = (at: number) => ownWords.slice(at).map((node) => node.text);
  const [first] = reading.operands;
  switch (module) {
    case "cProfile":
    case "profile":
    case "trace": {
      written(reading.values("o"));
      if (module === "trace") {
        written(reading.values("f"));
        // Its annotated listings (`.cover`) in --coverdir, or beside each module it ran.
        if (reading.has("c", "r") && !reading.has("R")) for (const directory of reading.has("C") ? reading.values("C") : ["."]) add(here, directory === undefined ? UNKNOWABLE : `${GLOB_MARK}${join(directory, "**", "*.cover")}`);
      }
      // The program it runs: a module (`-m json.tool`, trace's `--module`), or a script file.
      const runsModule = module === "trace" ? reading.has("module") : reading.has("m");
      if (first !== undefined) nested.push({ script: [name, ...(runsModule ? ["-m"] : []), ...rest(first)].join(" "), cwd: here.cwd });
      return;
    }
    case "pickletools":
      return written(reading.values("o"));
    case "zipapp": {
      if (reading.has("info")) return;
      // With no --output, the source's name with the suffix .pyz (pathlib's with_suffix).
      if (reading.has("o")) return written(reading.values("o"));
      const source = first === undefined ? undefined : own[first];
      return written([source === undefined ? undefined : source.replace(/\/+$/, "").replace(/(?<=[^/.][^/]*)\.[^/.]*$|$/, ".pyz")]);
    }
    case "uu": {
      const output = reading.operands[1];
      if (output !== undefined && own[output] !== "-") written([own[output]]);
      return;
    }
    case "doctest":
      for (const at of reading.operands) {
        const file = own[at];
        if (file === undefined) {
          add(here, UNKNOWABLE);
          continue;
        }
        // A module (`x.py`) is imported: its code runs, as the program file's.
        if (/\.py$/.test(file)) {
          nested.push({ script: [name, word(at)].join(" "), cwd: here.cwd });
          continue;
        }
        // A text file: the code of its examples (`>>> …`, `... …`), read as a program given on stdin.
        const path = directoryAt(here.cwd, file);
        const found = path === undefined ? UNKNOWABLE : programText(path, here);
        if (found === UNKNOWABLE) add(here, UNKNOWABLE);
        else if (found !== undefined) nested.push({ script: programOnStdin(name, doctestCode(found.text)), cwd: here.cwd });
      }
      return;
    case "timeit": {
      // Its statements and setup are python code, given as `-c`'s would be.
      const code = [...reading.values("s"), ...reading.operands.map((at) => own[at])];
      if (code.some((text) => text === undefined)) add(here, UNKNOWABLE);
      else if (code.length > 0) nested.push({ script: `${name} -c ${shellQuoted((code as string[]).join("\n"))}`, cwd: here.cwd });
      return;
    }
  }
}

/** The options of those modules that name a file they write. */
const MODULE_OUTPUTS: Record<string, string[]> = { cProfile: ["o"], profile: ["o"], trace: ["o", "f"], pickletools: ["o"], zipapp: ["o"] };

/** How the modules pythonModuleRuns reads take their options. */
const PYTHON_MODULES: Record<string, Syntax> = {
  cProfile: { short: "o:s:", long: { outfile: "o", sort: "s" }, ordered: true },
  profile: { short: "o:s:", long: { outfile: "o", sort: "s" }, ordered: true },
  trace: { short: "f:C:", long: { file: "f", coverdir: "C", count: "c", report: "r", "no-report": "R", module: "", ...valuedLong("ignore-module ignore-dir") }, ordered: true },
  pickletools: { short: "o:l:p:", long: { output: "o", indentlevel: "l", preamble: "p", memo: "m", annotate: "a" } },
  zipapp: { short: "o:p:m:", long: { output: "o", python: "p", main: "m", compress: "c", info: "" } },
  uu: { short: "", long: { decode: "d", text: "t" } },
  doctest: { short: "o:", long: { option: "o", verbose: "v", "fail-fast": "f" } },
  timeit: { short: "n:u:s:r:", long: { number: "n", setup: "s", repeat: "r", unit: "u", time: "t", clock: "c", process: "p", verbose: "v", help: "h" }, ordered: true },
};

/** The code of a doctest file's examples: the lines after its `>>>` and `...` prompts. */
function doctestCode(text: string): string {
  return [...text.matchAll(/^[ \t]*(?:>>>|\.\.\.)(?: |$)(.*)$/gm)].map((match) => match[1]).join("\n");
}

/** A command line running an interpreter on a program given on its input, as a quoted heredoc. */
function programOnStdin(interpreter: string, program: string): string {
  let end = "CLAIMS_PROGRAM";
  while (program.split("\n").includes(end)) end += "_";
  return `${interpreter} - <<'${end}'\n${program}\n${end}\n`;
}

/**
 * The files node writes by its own options, given on its command line or in NODE_OPTIONS (node
 * reads both): `--redirect-warnings=f`, `--test-reporter-destination=f`, `--tls-keylog=f`,
 * `--localstorage-file=f`, `--snapshot-blob f --build-snapshot`; profiles and reports under
 * `--diagnostic-dir` or where it runs, by the name given (`--cpu-prof-name`, `--heap-prof-name`,
 * `--report-filename`; `${pid}` and the like any text) or by node's own (`CPU.*.cpuprofile`,
 * `Heap.*.heapprofile`, `report.*.json`, `Heap.*.heapsnapshot`, `isolate-*.log` of `--prof`, or
 * V8's `--logfile`); trace events by `--trace-event-file-pattern` or `node_trace.*.log`; a test
 * run's snapshots (`--test-update-snapshots`: `*.snapshot` beside its tests); NODE_V8_COVERAGE's
 * `coverage-*.json`; a single executable's blob, named in `--experimental-sea-config`'s file (any
 * file, unread). A value the text does not fix: any file.
 */
function nodeOutputs(args: Array<string | undefined>, words: Node[], here: Walk): string[] {
  const syntax = interpreterOf("node")?.syntax;
  if (syntax === undefined) return [];
  const text = (at: number) => wordValue(words[at], here);
  const given = readOptions(args, syntax, 0, text);
  // A word that may be an option the text does not name (`node --redirect-warnings"$f" x.js`,
  // `node -"$x" x.js`): what node writes given each option it may be, too.
  const guessed = guessedArguments(args, syntax, given, text).map((guess) => readOptions(guess.args, syntax, 0, guess.text));
  const found = new Set([given, ...guessed].flatMap((reading) => nodeOutputsOf(reading, syntax, here)));
  // One of these options with a value the text does not fix (`--cpu-prof-name="$n"`), which the reading takes for an operand.
  if (args.some((arg, at) => arg === undefined && /^["']?--(redirect-warnings|test-reporter-destination|tls-keylog|localstorage-file|logfile|snapshot-blob|diagnostic-dir|(cpu|heap)-prof-(name|dir)|report-(filename|dir|directory)|trace-event-file-pattern)=/.test(words[at]?.text ?? ""))) found.add(UNKNOWABLE);
  return [...found];
}

/** What node writes, its options read so (`given`), and NODE_OPTIONS' (nodeOutputs). */
function nodeOutputsOf(given: Reading, syntax: Syntax, here: Walk): string[] {
  const fromEnvironment = (here.environment.NODE_OPTIONS ?? "").split(/\s+/).filter((word) => word !== "").map((word) => word.replace(/^(['"])(.*)\1$/, "$2"));
  // (NODE_OPTIONS' words are strings, each fixed: no word to give the text of.)
  const inEnvironment = readOptions(fromEnvironment, { ...syntax, ordered: false }, 0, () => undefined);
  const values = (key: string) => [...inEnvironment.values(key), ...given.values(key)];
  const has = (...keys: string[]) => given.has(...keys) || inEnvironment.has(...keys);
  const last = (key: string) => {
    const all = values(key);
    return all.length === 0 ? undefined : { value: all[all.length - 1] };
  };
  const found: string[] = [];
  // A name node gives its placeholders in (`${pid}`, `${rotation}`): any text there.
  const named = (directory: string | undefined, name: string | undefined) => {
    if (directory === undefined || name === undefined) return found.push(UNKNOWABLE);
    const path = join(directory, name);
    found.push(/\$\{[^}]*\}|[*?]/.test(path) ? `${GLOB_MARK}${path.replace(/\$\{[^}]*\}/g, "*")}` : path);
  };
  // A file named as given (relative to where node runs); a profile's or report's name is joined onto its directory, as node joins them.
  const files = (key: string) => {
    for (const value of values(key)) if (value !== "stdout" && value !== "stderr") found.push(value ?? UNKNOWABLE);
  };
  files("redirect-warnings");
  files("test-reporter-destination");
  files("tls-keylog");
  files("localstorage-file");
  files("--logfile");
  // (A directory the text does not fix: undefined, any file where a name is joined onto it.)
  const diagnosticDir = last("diagnostic-dir");
  const diagnostics = diagnosticDir === undefined ? "." : diagnosticDir.value;
  const place = (...keys: string[]) => {
    for (const key of keys) {
      const option = last(key);
      if (option !== undefined) return option.value;
    }
    return diagnostics;
  };
  if (has("--cpu-prof", "cpu-prof-name", "cpu-prof-dir")) named(place("cpu-prof-dir"), last("cpu-prof-name")?.value ?? "CPU.*.cpuprofile");
  if (has("--heap-prof", "heap-prof-name", "heap-prof-dir")) named(place("heap-prof-dir"), last("heap-prof-name")?.value ?? "Heap.*.heapprofile");
  if (has("heapsnapshot-signal", "heapsnapshot-near-heap-limit")) named(diagnostics, "Heap.*.heapsnapshot");
  if (has("--report-on-signal", "--report-uncaught-exception", "--report-on-fatalerror", "report-filename", "report-directory", "report-dir", "report-signal")) {
    const name = last("report-filename")?.value ?? "report.*.json";
    if (name !== "stdout" && name !== "stderr") named(place("report-directory", "report-dir"), name);
  }
  if (has("--prof") && last("--logfile") === undefined) named(".", "isolate-*.log");
  if (has("trace-event-file-pattern", "--trace-events-enabled", "trace-event-categories")) {
    const pattern = last("trace-event-file-pattern");
    if (pattern === undefined) named(".", "node_trace.*.log");
    else if (pattern.value === undefined) found.push(UNKNOWABLE);
    else found.push(/\$\{[^}]*\}/.test(pattern.value) ? `${GLOB_MARK}${pattern.value.replace(/\$\{[^}]*\}/g, "*")}` : pattern.value);
  }
  if (has("--build-snapshot")) named(".", last("snapshot-blob")?.value ?? "snapshot.blob");
  if (has("--test-update-snapshots")) named(".", "**/*.snapshot");
  if (has("experimental-sea-config")) found.push(UNKNOWABLE);
  const coverage = here.environment.NODE_V8_COVERAGE;
  if (coverage !== undefined && coverage !== "") named(coverage, "coverage-*.json");
  return found;
}

/**
 * Variables that have an interpreter load code before its program: options, some of which load
 * code, NODE_OPTIONS (`--require`, `--import`; node is what npm, npx and most of a JS project's
 * tools run), PERL5OPT (`-M`), RUBYOPT (`-r`); php's ini file or directories (PHPRC,
 * PHP_INI_SCAN_DIR: `auto_prepend_file`); and a startup script, BASH_ENV's (which every
 * non-interactive bash runs, a `#!/bin/bash` script's too), ZDOTDIR's .zshenv (every zsh), R's
 * profile (R_PROFILE_USER, R_PROFILE).
 */
const CODE_OPTION_VARIABLES = ["NODE_OPTIONS", "PERL5OPT", "RUBYOPT", "BASH_ENV", "ZDOTDIR", "PHPRC", "PHP_INI_SCAN_DIR", "R_PROFILE_USER", "R_PROFILE"];

/**
 * Whether the command sets one of CODE_OPTION_VARIABLES to a value the text does not fix
 * (`NODE_OPTIONS="$x" npm test`, `read -r o; PERL5OPT=$o perl x.pl`, `BASH_ENV="$f" ./run.sh`):
 * code the hook cannot read, whatever program loads it, so any file.
 */
export function unfixedCodeOptions(environment: Record<string, string | undefined>): boolean {
  return CODE_OPTION_VARIABLES.some((name) => Object.hasOwn(environment, name) && environment[name] === undefined);
}

/**
 * The program files node loads before the program: `-r ./x.js`, `--require`, `--import`,
 * `--loader`, and the same in NODE_OPTIONS (files, not packages' names).
 */
export function preloadedFiles(reading: Reading | undefined, nodeOptions: string | undefined): string[] {
  const given = reading === undefined ? [] : ["r", "import", "loader", "experimental-loader"].flatMap((key) => reading.values(key));
  for (const [, value] of (nodeOptions ?? "").matchAll(/(?:^|\s)(?:-r|--require|--import|--(?:experimental-)?loader)(?:=|\s+)(\S+)/g)) given.push(value);
  return given.filter((value): value is string => value !== undefined && /^(\.{1,2})?\//.test(value.replace(/^['"]|['"]$/g, ""))).map((value) => value.replace(/^['"]|['"]$/g, ""));
}

/**
 * `deno run -A -`, `deno -A -`, `bun run -`, `uv run -` (also after a wrapper: the first of these
 * names on the line): a program read from stdin, as `node -` reads one. The command line for the
 * walk to read in turn, `node -` with the program's arguments and the text stdin gives as a quoted
 * heredoc (none where it gives none); undefined for any other command. `alone`: the command is
 * bun's or uv's, which does nothing else (deno's own rule judges its lock file; a wrapper is read as before).
 * `text`: each word's text, with a HOLE where the text does not fix it.
 */
export function stdinProgram(argv: Array<string | undefined>, words: Node[], text: (at: number) => string | undefined, stdin: string | undefined): { script: string; alone: boolean } | undefined {
  const runner = argv.findIndex((arg) => arg !== undefined && /^(deno|bun|uv)$/.test(basename(arg)));
  // The command itself, or what a wrapper runs (`sudo bun run -`): not a word of another command's (`echo bun run -`).
  if (runner === -1 || (runner > 0 && ownEntry(WRAPPERS, basename(argv[0] ?? "")) === undefined)) return undefined;
  const name = basename(argv[runner] as string);
  const syntax = name === "deno" ? DENO_RUN : name === "bun" ? BUN_RUN : UV_RUN;
  // Its own options, then `run` (deno's optional) and its options, then `-`.
  let first = readOptions(argv, syntax, runner + 1, text).operands[0];
  if (first !== undefined && argv[first] === "run") first = readOptions(argv, syntax, first + 1, text).operands[0];
  else if (name !== "deno") return undefined;
  if (first === undefined || !STDIN.test(argv[first] ?? "")) return undefined;
  const line = ["node", "-", ...words.slice(first + 1).map((word) => word.text)].join(" ");
  // (Only the command itself is done with here: a wrapper's own words are read as before.)
  const alone = name !== "deno" && runner === 0;
  if (stdin === undefined) return { script: line, alone };
  let end = "CLAIMS_STDIN";
  while (stdin.split("\n").includes(end)) end += "_";
  return { script: `${line} <<'${end}'\n${stdin}${stdin.endsWith("\n") ? "" : "\n"}${end}\n`, alone };
}

/** bun's and `bun run`'s options that take a value apart (interpreterOf("bun") has the rest). */
const BUN_RUN: Syntax = { short: "p:F:r:c:d:l:e:", long: valuedLong("cwd filter preload require import config define loader env-file tsconfig-override conditions shell elide-lines"), ordered: true };

/** uv's and `uv run`'s options that take a value apart. */
const UV_RUN: Syntax = {
  short: "p:w:",
  long: valuedLong(`python with directory project package with-requirements with-editable extra group only-group no-group env-file from index default-index index-url
    extra-index-url find-links color cache-dir exclude-newer config-file python-preference`),
  ordered: true,
};

/** What nvm reads as a version: `20`, `v18.2`, `lts/iron`, `node`, `iojs`, an alias it keeps. */
const NVM_VERSION = /^(v?\d[\w.]*|lts\/[\w*-]+|node|iojs|stable|default|system)$/;

/** `deno run`'s options that take a value given apart (`--config deno.json`); the rest are flags or `--allow-read=…`. */
const DENO_RUN: Syntax = {
  short: "c:L:",
  long: valuedLong("config import-map cert location seed log-level ext node-modules-linker min-dep-age inspect-publish-uid preload require conditions"),
  ordered: true,
};

/** `deno repl`'s options: deno run's, and the code and files it evaluates first. */
const DENO_REPL: Syntax = { ...DENO_RUN, long: { ...DENO_RUN.long, ...valuedLong("eval eval-file") } };

/** `coverage run`'s options that take a value apart (`-m` makes its first operand a module). */
const COVERAGE_RUN: Syntax = { long: valuedLong("rcfile source include omit context data-file concurrency debug"), ordered: true };

/**
 * `cat > f <<'EOF' … EOF`, `cat <<'EOF' >> f`, `tee f <<< '…'`, `echo 'print(1)' > f`, `printf …
 * > f`: a file the command writes, or appends to, with text it gives, kept for a program it runs
 * from that file later (programText). An append adds to the text noted before, else to the file's
 * on disk. In an unquoted heredoc, `$` and backticks change what bash writes: not kept (the file is
 * then one the hook cannot read); its `\$`, `` \` ``, `\\` and backslash-newlines are decoded.
 */
export function noteText(command: Node, name: string, args: Array<string | undefined>, stdin: string | undefined, here: Walk): void {
  const parts = [...command.namedChildren, ...(statementOf(command)?.namedChildren ?? [])].flatMap((child) => (child.type === "heredoc_redirect" ? [child, ...child.namedChildren] : [child]));
  let text: string | undefined;
  if (name === "cat" || name === "tee") {
    const heredoc = parts.filter((part) => part.type === "heredoc_redirect").at(-1);
    const quoted = /['"\\]/.test(heredoc?.namedChildren.find((child) => child.type === "heredoc_start")?.text ?? "'");
    text = stdin === undefined || quoted ? stdin : unquotedHeredoc(stdin);
    if (name === "cat" && !args.every((arg) => arg === "-")) return;
  } else if (args.every((arg) => arg !== undefined)) {
    // echo's options (`-n`, `-e`) are no text; printf's format and arguments stand for what it prints, near enough to find paths in.
    const words = args as string[];
    let first = 0;
    while (name === "echo" && /^-[neE]+$/.test(words[first] ?? "")) first++;
    text = `${words.slice(first).join(" ")}${name === "echo" ? "\n" : ""}`;
  }
  if (text === undefined) return;
  const files: Array<{ file: string | undefined; append: boolean }> = [];
  if (name === "tee") {
    if (!args.every((arg) => arg !== undefined && (!arg.startsWith("-") || /^-a$|^--append$/.test(arg)))) return;
    const append = args.some((arg) => arg === "-a" || arg === "--append");
    for (const arg of args) if (!(arg as string).startsWith("-")) files.push({ file: arg, append });
  } else {
    for (const redirection of parts.filter((part) => part.type === "file_redirect")) {
      const descriptor = redirection.childForFieldName("descriptor")?.text;
      const operator = redirectionOperator(redirection);
      if ((descriptor === undefined || descriptor === "1") && [">", ">|", "&>", ">>", "&>>"].includes(operator)) files.push({ file: staticWord(redirection.childForFieldName("destination"), here), append: operator.endsWith(">>") });
    }
  }
  for (const { file, append } of files) {
    if (file === undefined || DOTDOT.test(file) || (here.cwd === undefined && !isAbsolute(file))) continue;
    const path = resolve(here.cwd ?? "/", file);
    const texts = (here.shared.texts ??= new Map());
    const before = texts.get(path);
    // Appended to: the text noted before (whether it still stands is checked where it is run), else the file's as it is.
    const base = !append ? "" : before !== undefined ? before.text : existsSync(path) ? readText(path) : "";
    if (base === undefined) continue; // a file it cannot read: what the program holds is not known
    texts.set(path, { text: base + text, writes: (before?.writes ?? 0) + 1 });
  }
}

/** What bash writes for an unquoted heredoc's body: undefined where it expands `$…` or backticks. */
function unquotedHeredoc(body: string): string | undefined {
  let out = "";
  for (let at = 0; at < body.length; at++) {
    const char = body[at] as string;
    const next = body[at + 1];
    if (char === "\\" && next !== undefined && "$`\\\n".includes(next)) {
      if (next !== "\n") out += next;
      at++;
    } else if (char === "$" || char === "`") return undefined;
    else out += char;
  }
  return out;
}

/**
 * The text of a program file a command runs (program-files.ts), or UNKNOWABLE. One the command
 * writes earlier is the text it gave (noteText), if written once, whole, and by nothing else since;
 * otherwise the text the hook cannot see.
 */
export function programText(path: string | undefined, here: Walk, loadPath: LoadPath = {}): { text: string } | typeof UNKNOWABLE | undefined {
  if (path === undefined) return undefined; // in a place the text does not fix: not read
  const found = fileText(path, here);
  if (found === undefined || found === UNKNOWABLE) return found;
  // The program's own modules beside it (`from helpers import fix`, `require('./lib')`) that an
  // agent may have written too: their text is the program's (a write there is one it makes).
  const modules = moduleTexts(found.text, dirname(path), new Set([path]), here, loadPath);
  return modules === UNKNOWABLE ? UNKNOWABLE : { text: [found.text, ...modules].join("\n") };
}

/**
 * The texts of the modules a program loads from beside it (localModules), and theirs in turn, that
 * are to be read (fileText); UNKNOWABLE where one cannot be, or there are more than MODULES_READ.
 * `read`: the files already read (the program's own). A program given inline or on stdin
 * (`python3 -c 'import w'`, `node -e "require('./w')"`) loads them from where it runs.
 */
export function moduleTexts(program: string, directory: string, read: Set<string>, here: Walk, loadPath: LoadPath = {}): string[] | typeof UNKNOWABLE {
  const texts = [program];
  // python's path goes on with PYTHONPATH's directories (`PYTHONPATH=src python3 x.py` imports src/fix.py).
  const pythonPath = (here.environment.PYTHONPATH ?? "")
    .split(":")
    .filter((place) => place !== "" && (here.cwd !== undefined || isAbsolute(place)))
    .map((place) => resolve(here.cwd ?? "/", place));
  for (let at = 0; at < texts.length; at++) {
    for (const module of localModules(texts[at] as string, directory, { ...loadPath, python: pythonPath }, here.cwd)) {
      // There, or written by the command before it runs the program (`cat > m.py <<'EOF' … EOF; python3 -c 'import m'`).
      if (read.has(module) || !(existsSync(module) || here.found.has(module) || here.shared.texts?.has(module) === true)) continue;
      read.add(module);
      const text = fileText(module, here);
      if (text === UNKNOWABLE) return UNKNOWABLE;
      if (text !== undefined) texts.push(text.text);
      if (texts.length > MODULES_READ) return UNKNOWABLE; // more of its own than the hook reads: it could write anything
    }
  }
  return texts.slice(1);
}

/**
 * The directories a command gives an interpreter to load a program's modules from by their names
 * (shell-preloads.ts loadPathOf): ruby's `require 'w'` and perl's `use W;` from `-I`'s, python's
 * imports from PYTHONPATH's.
 */
export type LoadPath = { python?: string[]; ruby?: string[]; perl?: string[] };

/** At most this many files of one program (it and its own modules) are read. */
const MODULES_READ = 16;

/** A program file's text: the one the command wrote earlier, or the file's on disk when it is to be read (program-files.ts). */
function fileText(path: string, here: Walk): { text: string } | typeof UNKNOWABLE | undefined {
  if (writtenBefore(here, path)) {
    const given = textWrittenBefore(here, path);
    return given === UNKNOWABLE || pastReading(given) ? UNKNOWABLE : { text: given };
  }
  const found = programOnDisk(path);
  return found === "unreadable" ? UNKNOWABLE : found;
}

/**
 * The files a program loads from beside it, by its text: python's `import a.b`, `from .a import
 * x`, `from a import b` (a.py, a/b.py, a/__init__.py beside it, or in a PYTHONPATH directory);
 * node's `require('./x')`, `import … from './x'`, `import('./x')` (with the extensions node and
 * tsx try); ruby's `require_relative`; php's `require`/`include`; perl's `require`/`do` of a file;
 * by a name, from the directories of `loadPath`. Each file it may be, there or not.
 */
function localModules(text: string, directory: string, loadPath: LoadPath = {}, cwd: string = directory): string[] {
  const found: string[] = [];
  const python = (parts: string[]) => {
    if (parts.length > 0) for (const place of [directory, ...(loadPath.python ?? [])]) found.push(join(place, ...parts) + ".py", join(place, ...parts, "__init__.py"));
  };
  // ruby's `require 'w'` and perl's `use Foo::Bar;`, `require Foo::Bar;` by a name, from the load path the command gives.
  if (loadPath.ruby !== undefined && loadPath.ruby.length > 0) {
    for (const [, name] of text.matchAll(/\brequire\s*\(?\s*['"]([\w][\w./-]*)['"]/g)) for (const place of loadPath.ruby) found.push(join(place, /\.rb$/.test(name as string) ? (name as string) : `${name}.rb`));
  }
  if (loadPath.perl !== undefined && loadPath.perl.length > 0) {
    for (const [, name] of text.matchAll(/^[ \t]*(?:use|require)[ \t]+([A-Za-z_][\w:]*)/gm)) for (const place of loadPath.perl) found.push(join(place, `${(name as string).replace(/::/g, "/")}.pm`));
  }
  // A statement of its own: at a line's start, or after `;` or a compound statement's `:` (`import os; import w`, `if x: import w`).
  // (Each part of these patterns starts with a character the one before it cannot take: no
  // backtracking between them, so a long line of dots or spaces reads in linear time.)
  for (const [, from, names] of text.matchAll(/(?:^|[;:"'])[ \t]*from[ \t]+(\.*(?:\w[\w.]*)?)[ \t]+import[ \t]+([\w, \t()*]+)/gm)) {
    // `from a import b`: a, and b when it is a module of a package a.
    const modules = [from as string, ...(names ?? "").split(/[\s,()]+/).filter((name) => /^\w+$/.test(name)).map((name) => `${from}${(from as string).endsWith(".") ? "" : "."}${name}`)];
    for (const module of modules) python(module.replace(/^\.+/, "").split(".").filter((part) => part !== ""));
  }
  for (const [, names] of text.matchAll(/(?:^|[;:"'])[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)[ \t]*(?=$|[;#"'])/gm)) {
    for (const name of (names ?? "").split(/\s*,\s*/).map((part) => part.trim().split(/\s+/)[0] ?? "")) python(name.split(".").filter((part) => /^\w+$/.test(part)));
  }
  // And by a name given as a string: `__import__('w')`, `importlib.import_module('w')`, `runpy.run_module('w')`; `runpy.run_path('w.py')` by its path.
  for (const [, name] of text.matchAll(/\b(?:__import__|import_module|run_module)\s*\(\s*(?:name\s*=\s*)?['"]([\w.]+)['"]/g)) python((name as string).split(".").filter((part) => /^\w+$/.test(part)));
  for (const [, path] of text.matchAll(/\brun_path\s*\(\s*(?:path_name\s*=\s*)?['"]([^'"\n]+)['"]/g)) found.push(resolve(directory, path as string));
  for (const [, relative] of text.matchAll(/(?:\brequire\s*\(|\bimport\s*\(|\bfrom\s+|^\s*import\s+)\s*['"`](\.{1,2}\/[^'"`\n]+)['"`]/gm)) {
    // As node finds it (`./lib`: lib.js, lib/index.js); tsx also takes `./x.js` for x.ts.
    const base = resolve(directory, relative as string);
    for (const path of [resolveProgram(base, "node"), /\.js$/.test(base) ? base.replace(/\.js$/, ".ts") : undefined]) if (path !== undefined) found.push(path);
  }
  for (const [, relative] of text.matchAll(/\brequire_relative\s*\(?\s*['"]([^'"\n]+)['"]/g)) found.push(resolve(directory, /\.rb$/.test(relative as string) ? (relative as string) : `${relative}.rb`));
  for (const [, relative] of text.matchAll(/\b(?:require|include|do)(?:_once)?\s*\(?\s*['"]([^'"\n]+\.(?:php|inc|pl|pm))['"]/g)) found.push(resolve(directory, relative as string));
  // ruby's `load "x.rb"` and `require "./x"` by a path, from where the process runs (not the
  // program's directory); php's `require __DIR__ . "/x.php"` (or `dirname(__FILE__) .`) beside the program.
  for (const [, relative] of text.matchAll(/\b(?:load|require)\s*\(?\s*['"](\.{1,2}\/[^'"\n]+|[^'"\n]+\.rb)['"]/g)) found.push(resolve(cwd, /\.rb$/.test(relative as string) ? (relative as string) : `${relative}.rb`));
  for (const [, relative] of text.matchAll(/\b(?:require|include)(?:_once)?\s*\(?\s*(?:__DIR__|dirname\s*\(\s*__FILE__\s*\))\s*\.\s*['"]\/([^'"\n]+)['"]/g)) found.push(resolve(directory, relative as string));
  return [...new Set(found)];
}

/**
 * The file of a python module run with `-m` from where it runs (python puts that first on its
 * path): `a.b` is a/b/__main__.py where a/b is a package (it has an `__init__.py`: python takes a
 * package before a module of its name), else a/b.py, else a/b/__main__.py.
 */
export function moduleFile(module: string, cwd: string | undefined): string | undefined {
  if (cwd === undefined || !/^\w+(\.\w+)*$/.test(module)) return undefined;
  const parts = module.split(".");
  const file = join(cwd, ...parts) + ".py";
  return !existsSync(join(cwd, ...parts, "__init__.py")) && existsSync(file) ? file : join(cwd, ...parts, "__main__.py");
}

/**
 * The `__init__.py` files python runs importing a module's packages, outermost first: a/__init__.py
 * and a/b/__init__.py for `-m a.b.c`; for a package run by its `__main__.py` (`-m a.b`), its own
 * too. Those that exist, or the command writes first, from where it runs.
 */
export function packageInits(module: string, file: string | undefined, here: Walk): string[] {
  const cwd = here.cwd;
  if (cwd === undefined || !/^\w+(\.\w+)*$/.test(module)) return [];
  const parts = module.split(".");
  const packages = file !== undefined && basename(file) === "__main__.py" ? parts.length : parts.length - 1;
  const found: string[] = [];
  for (let count = 1; count <= packages; count++) {
    const init = join(cwd, ...parts.slice(0, count), "__init__.py");
    // (One the command writes first: read as the text it gives.)
    if (existsSync(init) || writtenBefore(here, init)) found.push(init);
  }
  return found;
}

/** The one path a word stands for (`gen.py`, `"$f"` after `f=gen.py`), or undefined. */
export function onlyValue(word: Node | undefined, here: Walk): string | undefined {
  const values = word === undefined ? undefined : wordValues(word, here);
  return values?.length === 1 && !(values[0] as string).startsWith("\0") ? values[0] : undefined;
}

