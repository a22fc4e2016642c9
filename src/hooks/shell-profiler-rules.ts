// Profilers' own output files, beside the program they run (shell-program-runs.ts reads that one):
// pyinstrument's and austin's -o, scalene's profile, kernprof's stats, memray's results and
// reports, py-spy's recording, 0x's flamegraph and its data, Clinic.js's; and pm2's own files (its
// logs, pid file and written configuration, its dump). Each as its options, or its defaults, say;
// a default named by a pid or a time is a glob of its pattern where it is written.
import { basename, dirname, join } from "node:path";
import { readOptions, type Syntax, valuedLong } from "./shell-options.js";
import { globOf, optionFiles, type Rule, type RuleInput, variable } from "./shell-rule.js";
import { anyUnder, directoryAt, UNKNOWABLE } from "./shell-words.js";

/** pyinstrument's options (optparse's, before the program): `-o`/`--outfile` is the file it writes; `-m` and `-c` end them. */
const PYINSTRUMENT: Syntax = {
  short: "o:r:p:i:m:c:",
  long: { outfile: "o", renderer: "r", "render-option": "p", interval: "i", ...valuedLong("load load-prev show show-regex hide hide-regex async_mode") },
  ordered: true,
  last: "mc",
};

/** scalene's options (argparse's, names only whole): --outfile, and those that say it writes no profile of its own. */
const SCALENE: Syntax = {
  long: {
    ...valuedLong("outfile column-width profile-interval profile-only profile-exclude cpu-percent-threshold cpu-sampling-rate allocation-sampling-window malloc-threshold program-path pid"),
    cli: "",
    viewer: "",
    version: "",
    help: "",
  },
  exact: true,
};

/** kernprof's options, before the script (`-m` and `-c` are flags: its operand is then the module or the code). */
const KERNPROF: Syntax = { short: "o:s:u:p:i:", long: { outfile: "o", setup: "s", unit: "u", "prof-mod": "p", "output-interval": "i", "line-by-line": "l", config: ":", help: "h", version: "V" }, ordered: true };

/** memray's subcommands' options that take a value (`run -o out`, `run --live-port 9001`, `flamegraph --temporary-allocation-threshold 5`). */
const MEMRAY: Syntax = { short: "o:p:", long: { output: "o", "live-port": "p", live: "", "live-remote": "", json: "", help: "h", ...valuedLong("temporary-allocation-threshold max-memory-records duration method") } };

/** py-spy's options that take a value (`record -o out --pid 12 -f speedscope`). */
const PY_SPY: Syntax = { short: "p:o:f:d:r:", long: { pid: "p", output: "o", format: "f", duration: "d", rate: "r", help: "h" }, exact: true };

/** austin's options that take a value, before the command it runs. */
const AUSTIN: Syntax = { short: "i:o:p:t:x:w:", long: { interval: "i", output: "o", pid: "p", timeout: "t", exposure: "x", where: "w", help: "?", version: "V", usage: "" }, ordered: true };

/** 0x's options (minimist's, up to the program; `-o` is --open, a flag): its output directory and page, and the line `-P` runs. */
const ZERO_X: Syntax = {
  short: "D:F:P:",
  long: { "output-dir": "D", "output-html": "F", "on-port": "P", help: "h", version: "v", ...valuedLong("working-dir name title collect-delay visualize-only visualize-cpu-profile") },
  ordered: true,
  exact: true,
};

/** Clinic.js's options that take a value (subarg's, exact names). */
const CLINIC: Syntax = { long: { help: "h", version: "v", ...valuedLong("dest name visualize-only sample-interval on-port stop-delay path autocannon") }, exact: true };

/**
 * pm2's options (commander's, anywhere before `--`, long ones only whole: `--watch` is no
 * --watch-delay): `-l`/`--log` takes the next word when it gives one, as commander reads an
 * optional value; `--watch` and `--web` one in their own word. (What it starts is read with them
 * too: shell-program-runs.ts.)
 */
export const PM2: Syntax = {
  short: "n:i:o:e:p:u:c:l:k:",
  long: {
    name: "n",
    instances: "i",
    output: "o",
    error: "e",
    pid: "p",
    user: "u",
    cron: "c",
    "cron-restart": "c",
    log: "l",
    "kill-timeout": "k",
    write: "w",
    help: "h",
    watch: "::",
    web: "::",
    ...valuedLong(`interpreter interpreter-args node-args log-type log-date-format max-memory-restart cwd env namespace ignore-watch watch-delay
      listen-timeout restart-delay exp-backoff-restart-delay only ext uid gid hp service-name sort parallel max-restarts instance-var stop-exit-codes filter-env name-prefix`),
  },
  exact: true,
};

/** A subcommand's own options, read after it: its reading, and where its arguments stand in the command's (`origin`). */
function subcommandReading(input: RuleInput, syntax: Syntax): { sub: string | undefined; at: number; reading: ReturnType<typeof readOptions>; origin: (at: number) => number } | undefined {
  const first = input.reading.operands[0];
  if (first === undefined) return undefined;
  const reading = readOptions(input.args.slice(first + 1), syntax, 0, (at) => input.text(first + 1 + at));
  return { sub: input.args[first], at: first, reading, origin: (at) => at + first + 1 };
}

/** A file a default names beside another (memray's report beside its results): a glob of `pattern` in that one's directory. */
function besideFile(file: string | undefined, pattern: string): string {
  return file === undefined ? UNKNOWABLE : globOf(join(dirname(file), pattern));
}

/**
 * `memray run -o out x.py` (else memray-x.py.PID.bin where it runs, or beside the script; none
 * with --live or --live-remote), `memray flamegraph r.bin` and `memray table` (-o, else
 * memray-flamegraph-r.html beside the results), `memray transform csv r.bin` (memray-csv-r.csv),
 * `memray stats --json r.bin` (memray-stats-r.json), `memray attach PID -o out`.
 */
function memray(input: RuleInput): string[] {
  const read = subcommandReading(input, { ...MEMRAY, ordered: input.args[input.reading.operands[0] ?? -1] === "run" });
  if (read === undefined || read.reading.has("h")) return [];
  const { sub, reading, origin } = read;
  if (reading.has("o")) return ["run", "flamegraph", "table", "transform", "stats", "attach"].includes(sub ?? "") ? optionFiles(input, ["o"], reading, origin) : [];
  const operand = (index: number) => {
    const at = reading.operands[index];
    return at === undefined ? undefined : input.args[origin(at)];
  };
  if (reading.operands.length === 0) return [];
  switch (sub) {
    case "run": {
      if (reading.has("live", "live-remote")) return [];
      // (`-m mod`, `-c code`: flags, the operand then a module's name or code, no file.)
      const program = reading.has("m", "c") ? undefined : operand(0);
      return [globOf("memray-*.bin"), ...(program !== undefined && program.includes("/") ? [besideFile(program, "memray-*.bin")] : [])];
    }
    case "flamegraph":
    case "table":
      return [besideFile(operand(0), `memray-${sub}-*.html`)];
    case "transform": {
      const format = operand(0);
      return [besideFile(operand(1), `memray-${format ?? "*"}-*`)];
    }
    case "stats":
      return reading.has("json") ? [besideFile(operand(0), "memray-stats-*.json")] : [];
    default:
      return [];
  }
}

/**
 * `py-spy record -o out -- python3 x.py`: its -o; else `NAME-TIME.svg` where it runs (`.json` for
 * `-f speedscope` and `chrometrace`, `.txt` for `raw`), NAME the program's first word as given
 * (`python3`), or the pid it attaches to. `py-spy top` and `dump` print.
 */
function pySpy(input: RuleInput): string[] {
  const read = subcommandReading(input, PY_SPY);
  if (read === undefined || read.sub !== "record" || read.reading.has("h")) return [];
  const { reading, origin } = read;
  if (reading.has("o")) return optionFiles(input, ["o"], reading, origin);
  const format = reading.has("f") ? reading.value("f") : "flamegraph";
  const extension = format === undefined ? "*" : format === "raw" ? "txt" : format === "speedscope" || format === "chrometrace" ? "json" : "svg";
  // The program's first word (after `--`, or its first operand), else the pid it attaches to.
  const dashdash = input.args.indexOf("--", read.at + 1);
  const first = dashdash !== -1 ? dashdash + 1 : reading.operands[0] === undefined ? undefined : origin(reading.operands[0]);
  const program = first === undefined || first >= input.args.length ? undefined : (input.args[first] ?? "*");
  const names = program !== undefined ? [program, basename(program)] : reading.has("p") ? [reading.value("p") ?? "*"] : ["unknown"];
  return [...new Set(names)].map((name) => globOf(`${name}-*.${extension}`));
}

/**
 * `kernprof -l x.py`: -o's file, else x.py.lprof where it runs (x.py.prof without -l); for a
 * module or code (`-m`, `-c`) whose name it takes otherwise, any *.lprof (*.prof) there.
 */
function kernprof(input: RuleInput): string[] {
  const { reading, args } = input;
  if (reading.has("h", "V")) return [];
  if (reading.has("o")) return optionFiles(input, ["o"]);
  const script = reading.operands[0];
  if (script === undefined) return [];
  const extension = reading.has("l") ? "lprof" : "prof";
  const file = args[script];
  return reading.has("m", "c") || file === undefined ? [globOf(`*.${extension}`)] : [`${basename(file)}.${extension}`];
}

/**
 * scalene: --outfile's file; and, unless told `--cli`, the profile.json and profile.html it writes
 * where it runs for its web view (when it finds a browser, which the hook cannot tell).
 */
function scalene(input: RuleInput): string[] {
  const { reading } = input;
  if (reading.has("viewer", "version", "help", "--help", "h") || reading.operands.length === 0) return [];
  return [...optionFiles(input, ["outfile"]), ...(reading.has("cli") ? [] : ["profile.json", "profile.html"])];
}

/**
 * 0x: its output directory (-D, a template of `{pid}`, `{timestamp}`, `{name}`, `{cwd}`; else
 * PID.0x), its page (-F, else NAME.html in that directory), the v8 log it writes first
 * (isolate-…-v8.log), all from --working-dir (else where it runs); `--visualize-only DIR` and
 * `--visualize-cpu-profile FILE`, the page in DIR or beside FILE.
 */
function zeroX(input: RuleInput): string[] {
  const { reading } = input;
  if (reading.has("h", "v") || input.args.length === 0) return [];
  const working = reading.has("working-dir") ? reading.value("working-dir") : ".";
  if (working === undefined) return [UNKNOWABLE];
  const name = reading.has("name") ? reading.value("name") : "flamegraph";
  const at = (path: string | undefined) => (path === undefined ? UNKNOWABLE : path.startsWith("/") ? path : join(working, path));
  // (A template's parts the text cannot know, a glob's `*`.)
  const filled = (template: string | undefined, outputDir = "*") => template?.replace(/\{cwd\}/g, working).replace(/\{outputDir\}/g, outputDir).replace(/\{(pid|timestamp)\}/g, "*").replace(/\{name\}/g, name ?? "*");
  const glob = (path: string) => (path.includes("*") ? globOf(path) : path);
  const html = reading.has("F") ? reading.value("F") : undefined;
  const page = (outputDir: string) => (name === "-" || html === "-" ? [] : [glob(at(html === undefined ? join(outputDir, `${name ?? "*"}.html`) : filled(html, outputDir)))]);
  if (reading.has("visualize-only")) {
    const folder = reading.value("visualize-only");
    return folder === undefined ? [UNKNOWABLE] : [anyUnder(at(folder)), ...page(folder)];
  }
  if (reading.has("visualize-cpu-profile")) {
    const file = reading.value("visualize-cpu-profile");
    return file === undefined ? [UNKNOWABLE] : page(dirname(file));
  }
  const outputDir = filled(reading.has("D") ? reading.value("D") : "{pid}.0x");
  if (outputDir === undefined) return [UNKNOWABLE];
  return [anyUnder(at(outputDir)), ...page(outputDir), globOf(at("isolate-*-v8.log"))];
}

/**
 * Clinic.js: `clinic doctor -- node x.js` (bubbleprof, flame, heapprofiler) writes its data and
 * page in --dest (else .clinic), and doctor its node_trace.N.log where it runs; with
 * `--visualize-only DIR`, DIR.html; `clinic clean` removes what they left in --path (else here).
 */
function clinic(input: RuleInput): string[] {
  const { reading, args } = input;
  const sub = args[reading.operands[0] ?? -1];
  if (reading.has("h", "v")) return [];
  const value = (key: string, otherwise: string) => (reading.has(key) ? reading.value(key) : otherwise);
  if (sub === "clean") {
    const place = value("path", ".");
    return place === undefined ? [UNKNOWABLE] : [anyUnder(join(place, ".clinic")), globOf(join(place, "*.clinic-*")), globOf(join(place, "*.clinic-*/**")), globOf(join(place, "node_trace.*.log"))];
  }
  if (!["doctor", "bubbleprof", "flame", "heapprofiler"].includes(sub ?? "")) return [];
  if (reading.has("visualize-only")) {
    const data = reading.value("visualize-only");
    return [data === undefined ? UNKNOWABLE : `${data.replace(/\/+$/, "")}.html`];
  }
  if (!args.includes("--")) return []; // (nothing to run: its help)
  const dest = value("dest", ".clinic");
  return [dest === undefined ? UNKNOWABLE : anyUnder(directoryAt(input.walk.cwd, dest)), globOf("node_trace.*.log")];
}

/** pm2's home: PM2_HOME, else ~/.pm2 (a place the text does not fix: undefined). */
function pm2Home(input: RuleInput): string | undefined {
  const { environment, home } = input.walk;
  const own = variable(environment, "PM2_HOME", "");
  if (own === undefined) return undefined;
  if (own !== "") return directoryAt(input.walk.cwd, own);
  const user = environment.HOME ?? home;
  return user.startsWith("/") ? join(user, ".pm2") : undefined;
}

/**
 * pm2's own files: what it starts writes its logs and pid file where `-o`, `-e`, `-l FILE`, `--pid`
 * say (from --cwd, else where it runs; a bare `-l`, `/dev/null`, `NULL`: none there), and with
 * `-w` its configuration as NAME-pm2.json there (NAME: -n's, else the script's name without its
 * extension); `pm2 save` (`dump`) writes its dump in its home (with a backup of the last),
 * `cleardump` empties it. (Its daemon's logs, pids and sockets in its home are not told.)
 */
function pm2(input: RuleInput): string[] {
  const { reading, args } = input;
  if (reading.has("h")) return [];
  const [verb, script] = reading.operands;
  const action = verb === undefined ? undefined : args[verb];
  if (action === "save" || action === "dump" || action === "cleardump") {
    const home = pm2Home(input);
    if (home === undefined) return [UNKNOWABLE];
    return [join(home, "dump.pm2"), ...(action === "cleardump" ? [] : [join(home, "dump.pm2.bak")])];
  }
  if (!/^(start|startOrRestart|startOrReload|startOrGracefulReload)$/.test(action ?? "")) return [];
  const cwd = reading.has("cwd") ? directoryAt(input.walk.cwd, reading.value("cwd")) : input.walk.cwd;
  const home = input.walk.environment.HOME ?? input.walk.home;
  const place = (file: string | undefined) => (file === undefined || cwd === undefined ? UNKNOWABLE : file.startsWith("~/") && home.startsWith("/") ? join(home, file.slice(2)) : directoryAt(cwd, file) ?? UNKNOWABLE);
  // (A bare `-l`, or one before an option, logs in pm2's home.)
  const given = ["o", "e", "p", "l"].flatMap((key) => reading.occurrences(key).filter(({ value, at }) => key !== "l" || (value === undefined ? at === undefined || at < args.length : !value.startsWith("-"))));
  const files = given.filter(({ value }) => value !== "NULL" && value !== "/dev/null").map(({ value }) => place(value));
  if (reading.has("w")) {
    const fromScript = script === undefined ? undefined : args[script]?.replace(/^.*\//, "").replace(/(?<=.)\.[^.]*$/, "");
    const name = reading.has("n") ? reading.value("n") : fromScript;
    files.push(cwd === undefined ? UNKNOWABLE : name === undefined ? globOf(join(cwd, "*-pm2.json")) : join(cwd, `${name}-pm2.json`));
  }
  return files;
}

export const PROFILER_RULES: Record<string, Rule> = {
  // (The program each runs, and the module of `-m`: shell-program-runs.ts, FILE_RUNNERS.)
  pyinstrument: { syntax: PYINSTRUMENT, writes: (input) => (input.reading.has("--help", "h", "--version") ? [] : optionFiles(input, ["o"])) },
  scalene: { syntax: SCALENE, writes: scalene },
  kernprof: { syntax: KERNPROF, writes: kernprof },
  memray: { syntax: { long: { help: "h", version: "V" }, ordered: true }, writes: memray },
  // py-spy and austin: the command they run is read as an unknown command's (`py-spy record -o f -- python3 x.py`, `austin -o f python3 x.py`).
  "py-spy": { syntax: PY_SPY, writes: pySpy, runsArguments: true },
  austin: { syntax: AUSTIN, writes: (input) => (input.reading.has("?", "V", "usage") ? [] : optionFiles(input, ["o"])), runsArguments: true },
  // (`0x -P 'autocannon localhost:$PORT' app.js`: the line it runs once the program listens.)
  "0x": { syntax: ZERO_X, writes: zeroX, runsLines: (input) => input.reading.values("P") },
  // (`clinic doctor --on-port 'autocannon …' -- node x.js`: the line it runs once the program
  // listens; the program, read as an unknown command's.)
  clinic: { syntax: CLINIC, writes: clinic, runsArguments: true, runsLines: (input) => input.reading.values("on-port") },
  pm2: { syntax: PM2, writes: pm2 },
};

/**
 * The arguments of a profiler or process manager that are its own options' values (`pyinstrument
 * -o out.py x.py`, `memray run -o out.js x.py`, `pm2 start x.js -l log.ts`): a file it writes, no
 * program it runs (FILE_RUNNERS reads the others with a program's extension as the program).
 */
export function optionValues(name: string, args: Array<string | undefined>, text: (at: number) => string | undefined): Set<number> {
  const rule = Object.hasOwn(PROFILER_RULES, name) ? PROFILER_RULES[name] : undefined;
  if (rule === undefined) return new Set();
  const outer = readOptions(args, rule.syntax, 0, text);
  // memray's and py-spy's options are their subcommand's, read after it.
  const sub = name === "memray" || name === "py-spy" ? outer.operands[0] : undefined;
  const from = sub === undefined ? 0 : sub + 1;
  const syntax = name === "memray" ? { ...MEMRAY, ordered: args[sub ?? -1] === "run" } : name === "py-spy" ? PY_SPY : rule.syntax;
  const reading = sub === undefined ? outer : readOptions(args.slice(from), syntax, 0, (at) => text(from + at));
  const operands = new Set(reading.operands.map((at) => at + from));
  const values = new Set<number>();
  for (let at = from; at < args.length; at++) if (!operands.has(at) && !(args[at] ?? "-").startsWith("-")) values.add(at);
  return values;
}
