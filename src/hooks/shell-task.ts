// Task (go-task: `task build`, `task test`), read as what it runs: the tasks of the Taskfile it
// finds (Taskfile.yml and its other names, from where it runs up, or `-t`'s; `-d`'s directory),
// the ones named (else `default`), after the tasks each depends on (`deps`), each command of
// `cmds` (a `task:` item runs that task; `defer:` items too) in a shell of its own, in the
// Taskfile's directory or the task's `dir` (relative to it). A `{{.VAR}}` is the value of a
// variable set to a plain string in the Taskfile (global or the task's) or on the command line
// (`task build OUT=x`); `{{.TASKFILE_DIR}}`, `{{.ROOT_DIR}}`, `{{.USER_WORKING_DIR}}` are those
// places; anything else is a part the text does not fix. A dynamic variable (`sh: cmd`) runs its
// command. A Taskfile the hook cannot read (YAML beyond yaml-lite.ts, `includes` when the task
// named is not in the file itself), `--global` or `--watch`: any file.
// `--init` makes a Taskfile; `--list`, `--summary`, `--dry` run nothing.
import { dirname, join } from "node:path";
import { readOptions, type Syntax } from "./shell-options.js";
import type { Nested } from "./shell-runners.js";
import { directoryAt, nearestFile, readText, UNKNOWABLE, type Walk } from "./shell-words.js";
import { readYaml, type YamlValue } from "./yaml-lite.js";

const OPTIONS: Syntax = {
  short: "d:t:laiwfpsvxo:cC:I:nygh",
  long: {
    dir: "d",
    taskfile: "t",
    list: "l",
    "list-all": "a",
    init: "i",
    watch: "w",
    force: "f",
    parallel: "p",
    silent: "s",
    verbose: "v",
    "exit-code": "x",
    output: "o",
    color: "c",
    concurrency: "C",
    interval: "I",
    dry: "n",
    yes: "y",
    global: "g",
    summary: "",
    status: "",
    json: "",
    help: "h",
    version: "",
    "output-group-begin": ":",
    "output-group-end": ":",
  },
};

const NAMES = ["Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml", "Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml"];

type Mapping = { [key: string]: YamlValue };
const isMapping = (value: YamlValue | undefined): value is Mapping => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * What `task` runs, as scripts for the walk; the files it writes itself (`found`); UNKNOWABLE where
 * the text or the Taskfile does not say. `wordText`: a word's with a HOLE where the text does not fix it
 * (readOptions: `task -t"$f" build` is a Taskfile unknown).
 */
export function goTaskRuns(args: Array<string | undefined>, here: Walk, found: (path: string) => void, wordText: (at: number) => string | undefined = () => undefined): Nested[] | typeof UNKNOWABLE {
  const dashdash = args.indexOf("--");
  const reading = readOptions(dashdash === -1 ? args : args.slice(0, dashdash), OPTIONS, 0, wordText);
  if (reading.has("l", "a", "summary", "status", "h", "version", "n", "json")) return [];
  if (reading.has("g", "w")) return UNKNOWABLE; // the user's own Taskfile; a watch runs again as files change
  const start = reading.has("d") ? directoryAt(here.cwd, reading.value("d")) : here.cwd;
  if (start === undefined) return UNKNOWABLE;
  if (reading.has("i")) {
    found(join(start, "Taskfile.yml"));
    return [];
  }
  const file = reading.has("t") ? directoryAt(start, reading.value("t")) : findTaskfile(start);
  if (file === undefined) return reading.has("t") ? UNKNOWABLE : []; // no Taskfile: task fails
  const text = readText(file);
  const document = text === undefined ? undefined : readYaml(text);
  if (!isMapping(document) || !isMapping(document.tasks)) return UNKNOWABLE;
  const tasks = document.tasks;
  const directory = dirname(file);
  const values = new Map<string, string>([
    ["TASKFILE_DIR", directory],
    ["ROOT_DIR", directory],
    ["USER_WORKING_DIR", here.cwd ?? ""],
  ]);
  if (here.cwd === undefined) values.delete("USER_WORKING_DIR");
  const runs: Nested[] = [];
  // Each dynamic variable's command runs (in the Taskfile's directory).
  const setVariables = (variables: YamlValue | undefined, into: Map<string, string>) => {
    if (!isMapping(variables)) return;
    for (const [name, value] of Object.entries(variables)) {
      if (typeof value === "string" && !/[{}`$\\]/.test(value)) into.set(name, value);
      else into.delete(name);
      if (isMapping(value) && typeof value.sh === "string") runs.push({ script: value.sh, cwd: directory, bound: new Map() });
    }
  };
  setVariables(document.vars, values);
  setVariables(document.env, new Map()); // (an env's `sh:` runs as a var's does)
  // What follows `--` is {{.CLI_ARGS}}.
  const rest = dashdash === -1 ? [] : args.slice(dashdash + 1);
  if (rest.every((word) => word !== undefined)) values.set("CLI_ARGS", (rest as string[]).join(" "));
  // The words after the options: task names, and `NAME=value` variables for all of them.
  const named: string[] = [];
  for (const word of reading.operands.map((at) => args[at])) {
    if (word === undefined) return UNKNOWABLE; // a task the text does not name
    const assignment = /^([A-Za-z_]\w*)=([\s\S]*)$/.exec(word);
    if (assignment) {
      if (/[{}`$\\]/.test(assignment[2] as string)) values.delete(assignment[1] as string);
      else values.set(assignment[1] as string, assignment[2] as string);
      continue;
    }
    named.push(word);
  }
  if (named.length === 0) named.push("default");
  const seen = new Set<string>();
  // A task by its name, one of its `aliases`, or a wildcard name (`build:*`) that matches it.
  const taskNamed = (name: string): string | undefined => {
    if (Object.hasOwn(tasks, name)) return name;
    for (const [key, task] of Object.entries(tasks)) if (isMapping(task) && Array.isArray(task.aliases) && task.aliases.includes(name)) return key;
    return Object.keys(tasks).find((key) => key.includes("*") && new RegExp(`^${key.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`).test(name));
  };
  const visit = (given: string, depth: number): boolean => {
    const name = taskNamed(given) ?? given;
    const task = Object.hasOwn(tasks, name) ? tasks[name] : undefined;
    // Not in the file: an included Taskfile's (not read), else none (task fails, running nothing of it).
    if (task === undefined) return document.includes === undefined;
    if (depth > 32) return false;
    if (seen.has(name)) return true;
    seen.add(name);
    // A task written as its command, or as its list of commands.
    const body: Mapping = typeof task === "string" ? { cmds: [task] } : Array.isArray(task) ? { cmds: task } : isMapping(task) ? task : {};
    const own = new Map(values);
    setVariables(body.vars, own);
    setVariables(body.env, new Map());
    const placed = typeof body.dir === "string" ? directoryAt(directory, fill(body.dir, own, undefined)) : directory;
    for (const dependency of Array.isArray(body.deps) ? body.deps : []) {
      const dependencyName = typeof dependency === "string" ? dependency : isMapping(dependency) && typeof dependency.task === "string" ? dependency.task : undefined;
      if (dependencyName === undefined || !visit(dependencyName, depth + 1)) return false;
    }
    // Its preconditions and status checks are commands it runs too (`sh:` items, or plain ones).
    const checks = [...(Array.isArray(body.preconditions) ? body.preconditions : []), ...(Array.isArray(body.status) ? body.status : [])].map((check) => (isMapping(check) && typeof check.sh === "string" ? check.sh : check));
    const commands = [...checks, ...(typeof body.cmd === "string" ? [body.cmd] : []), ...(Array.isArray(body.cmds) ? body.cmds : [])];
    for (const command of commands) {
      const item = isMapping(command) && command.defer !== undefined ? command.defer : command;
      if (typeof item === "string") runs.push({ script: `(\n${fill(item, own, "${__task_value}")}\n)`, cwd: placed, bound: new Map() });
      else if (isMapping(item) && typeof item.cmd === "string") runs.push({ script: `(\n${fill(item.cmd, own, "${__task_value}")}\n)`, cwd: placed, bound: new Map() });
      else if (isMapping(item) && typeof item.task === "string") {
        if (!visit(item.task, depth + 1)) return false;
      } else return false; // a form not read: `for:` loops and the like
    }
    return true;
  };
  for (const name of named) if (!visit(name, 0)) return UNKNOWABLE;
  return runs;
}

/** A template's `{{.NAME}}` parts put in where the value is known; any other part is `unknown` (undefined: the template is not a place). */
function fill(template: string, values: Map<string, string>, unknown: string | undefined): string | undefined {
  let whole = true;
  const filled = template.replace(/\{\{(.*?)\}\}/g, (_, inner: string) => {
    const name = /^\s*\.([A-Za-z_]\w*)\s*$/.exec(inner)?.[1];
    const value = name === undefined ? undefined : values.get(name);
    if (value === undefined) whole = false;
    return value ?? unknown ?? "";
  });
  return whole || unknown !== undefined ? filled : undefined;
}

/** The Taskfile task finds from a directory up. */
function findTaskfile(start: string): string | undefined {
  return nearestFile(start, (names) => NAMES.find((name) => names.includes(name)));
}
