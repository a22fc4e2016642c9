// mise's tasks: `mise run NAME` (`mise r`, `mise tasks run`, `mise watch`/`w`, several joined by
// `:::`, and `mise NAME` for a task no mise command is named like), read as the command lines they
// run. Tasks are defined in the config files of the directory mise runs in and of each directory
// above it (mise.toml, .mise.toml, mise/config.toml, .mise/config.toml, .config/mise.toml,
// .config/mise/config.toml, .rtx.toml, each with its .local and env variants, and
// .config/mise/conf.d/*.toml), and the global ones (~/.config/mise/config.toml, conf.d): `[tasks.NAME]` with `run` (a string, several lines or a
// list; `{ task = "x" }` in a list runs that task), `file` (a script), `depends`, `dir`, `shell`,
// `alias`; `[tasks] NAME = "…"` or `NAME = { run = "…" }`. A file task is an executable in
// mise-tasks/, .mise-tasks/, mise/tasks/, .mise/tasks/ or .config/mise/tasks/ (`a:b` is `a/b`), run
// as the program it is. A task's extra words go on its last line; a template (`{{arg(name="x")}}`)
// is a part the text does not fix, but `{{config_root}}` and `{{cwd}}`. Where a task is defined in a
// way not read (a config this reader cannot read, `task_config.includes`, a task that names none
// found), whatever it runs could write any file: UNKNOWABLE.
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { valuedLong, type Syntax } from "./shell-options.js";
import type { Rule, RuleInput } from "./shell-rule.js";
import type { Nested } from "./shell-runners.js";
import { namesMatching } from "./shell-task-runners.js";
import { bySubcommand } from "./shell-tool-rules.js";
import { directoryAt, readText, shellQuoted, UNKNOWABLE } from "./shell-words.js";
import { readToml, type TomlValue } from "./toml-lite.js";

/** mise's own commands and their aliases: `mise NAME` runs a task only where NAME is none of these. */
const COMMANDS = new Set(
  (
    "activate alias a asdf backends backend b bin-paths cache completion config cfg deactivate direnv doctor dr en env e exec x fmt generate gen " +
    "global g hook-env hook-not-found implode install i install-into latest link ln local l ls list ls-remote mcp outdated plugins p prune registry " +
    "reshim run r search self-update set settings shell sh sync tasks t test-tool tool tool-stub trust uninstall unset unuse rm remove upgrade up use u lock edit " +
    "usage version v watch w where which help"
  ).split(" "),
);

/** The options of mise and of `mise run` that take a value (`-C dir`, `--jobs 4`). */
const VALUED = /^(-[CEjot]|--(cd|env|jobs|output|tool|timeout|shell|log-level))$/;

/** Each name's definitions, nearest first: all are read (which one mise runs depends on files and MISE_ENV, a local or env file overriding the others). */
type Tasks = Map<string, Array<{ task: TomlValue; root: string }>>;

/**
 * What `mise` given these words runs as its tasks; undefined where it runs none (another of its
 * commands, read elsewhere), UNKNOWABLE where what it runs is not known.
 */
export function miseRuns(args: Array<string | undefined>, cwd: string | undefined, environment: Record<string, string | undefined>): Nested[] | typeof UNKNOWABLE | undefined {
  let at = 0;
  let where = cwd;
  const options = () => {
    while (at < args.length && args[at]?.startsWith("-") && args[at] !== "--" && args[at] !== ":::") {
      const option = args[at] as string;
      const value = VALUED.test(option) ? args[at + 1] : /^(-C|--cd=)/.test(option) && option.length > 2 ? option.replace(/^(-C|--cd=)/, "") : undefined;
      if (/^(-C|--cd)/.test(option)) {
        if (value === undefined || where === undefined) where = undefined;
        else where = resolve(where, value);
      }
      at += VALUED.test(option) ? 2 : 1;
    }
  };
  options();
  const command = args[at];
  if (command === undefined) return at < args.length ? UNKNOWABLE : undefined;
  if (command === "tasks" || command === "t") {
    if (args[at + 1] !== "run" && args[at + 1] !== "r") return undefined;
    at += 2;
  } else if (["run", "r", "watch", "w"].includes(command)) at += 1;
  else if (COMMANDS.has(command) || command.startsWith("-")) return undefined;
  // `mise NAME`: a task of that name, else mise's error.
  if (where === undefined) return UNKNOWABLE;
  const tasks = tasksAt(where, environment);
  if (tasks === UNKNOWABLE) return UNKNOWABLE;
  if (!["run", "r", "watch", "w", "tasks", "t"].includes(command) && !tasks.has(command)) return undefined;
  options();
  if (at >= args.length) return UNKNOWABLE; // `mise run` alone asks which task to run
  const runs: Nested[] = [];
  // Each task with its words, up to `:::` (the next task) or the end.
  while (at < args.length) {
    options();
    const name = args[at];
    if (name === undefined) return UNKNOWABLE;
    at += 1;
    const words: Array<string | undefined> = [];
    while (at < args.length && args[at] !== ":::") words.push(args[at++]);
    at += 1; // past `:::`
    const rest = words.filter((word, index) => !(index === 0 && word === "--")).map((word) => (word === undefined ? '"$__task_argument"' : shellQuoted(word)));
    const ran = runTask(name, rest, tasks, where, new Set());
    if (ran === UNKNOWABLE) return UNKNOWABLE;
    runs.push(...ran);
  }
  return runs;
}

/** The command lines of a task (its dependencies' first), by name, alias or glob over the names. */
function runTask(pattern: string, rest: string[], tasks: Tasks, cwd: string, seen: Set<string>): Nested[] | typeof UNKNOWABLE {
  const names = /[*?[]/.test(pattern) ? namesMatching(pattern, [...tasks.keys()]) : [pattern];
  if (names === undefined) return UNKNOWABLE;
  const runs: Nested[] = [];
  for (const name of names) {
    if (seen.has(name)) continue; // a cycle, or a dependency met twice: run once
    if (seen.size > 64) return UNKNOWABLE;
    seen.add(name);
    const found = tasks.get(name);
    if (found === undefined) return UNKNOWABLE; // in no file read: defined where this reader does not look
    for (const { task, root } of found) {
      const ran = linesOf(task, root, rest, tasks, cwd, seen);
      if (ran === UNKNOWABLE) return UNKNOWABLE;
      runs.push(...ran);
    }
  }
  return runs;
}

function linesOf(task: TomlValue, root: string, rest: string[], tasks: Tasks, cwd: string, seen: Set<string>): Nested[] | typeof UNKNOWABLE {
  if (typeof task === "string" || Array.isArray(task)) return linesOf({ run: task }, root, rest, tasks, cwd, seen);
  if (task.file !== undefined && typeof task.file !== "string") return UNKNOWABLE;
  const runs: Nested[] = [];
  const dependencies = (value: TomlValue | undefined): boolean => {
    for (const dependency of listOf(value)) {
      if (dependency === undefined) return false;
      const [name = "", ...words] = dependency.split(/\s+/).filter((word) => word !== "");
      const ran = runTask(name, words, tasks, cwd, seen);
      if (ran === UNKNOWABLE) return false;
      runs.push(...ran);
    }
    return true;
  };
  if (!dependencies(task.depends)) return UNKNOWABLE;
  const directory = task.dir === undefined ? root : typeof task.dir === "string" ? fill(task.dir, root, cwd) : undefined;
  if (directory === undefined || directory.includes("$__mise_template")) return UNKNOWABLE;
  const at = resolve(root, directory);
  const lines: string[] = [];
  if (typeof task.file === "string") lines.push(shellQuoted(resolve(root, fill(task.file, root, cwd))));
  for (const line of task.run === undefined ? [] : Array.isArray(task.run) ? task.run : [task.run]) {
    if (typeof line === "string") lines.push(fill(line, root, cwd));
    else if (typeof line === "object" && !Array.isArray(line) && typeof line.task === "string") {
      const ran = runTask(line.task, [], tasks, cwd, seen);
      if (ran === UNKNOWABLE) return UNKNOWABLE;
      runs.push(...ran);
    } else return UNKNOWABLE;
  }
  if (task.run === undefined && task.file === undefined && listOf(task.depends).length === 0 && listOf(task.depends_post).length === 0) return UNKNOWABLE;
  // Another interpreter than a shell (`shell = "node -e"`) is given each line as its code.
  const shell = task.shell;
  if (shell !== undefined && typeof shell !== "string") return UNKNOWABLE;
  const viaShell = shell === undefined || /^\s*(\/\S+\/)?(ba|da|z|k)?sh\s+-[a-z]*c\s*$/.test(shell);
  lines.forEach((line, index) => {
    const words = index === lines.length - 1 ? [line, ...rest] : [line];
    runs.push({ script: viaShell ? words.join(" ") : `${shell} ${shellQuoted(words.join(" "))}`, cwd: at });
  });
  // And those it runs after itself.
  return dependencies(task.depends_post) ? runs : UNKNOWABLE;
}

/** `{{config_root}}` and `{{cwd}}` as they are; any other template a value the text does not fix. */
function fill(text: string, root: string, cwd: string): string {
  return text.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (_, inner: string) => (inner === "config_root" ? root : inner === "cwd" ? cwd : '"$__mise_template"'));
}

function listOf(value: TomlValue | undefined): Array<string | undefined> {
  if (value === undefined) return [];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.map((item) => (typeof item === "string" ? item : undefined));
  return [undefined];
}

const CONFIGS = [
  ...["mise", ".mise", ".rtx", "mise/config", ".mise/config", ".config/mise", ".config/mise/config"].flatMap((stem) => [`${stem}.toml`, `${stem}.local.toml`]),
];
const TASK_DIRECTORIES = ["mise-tasks", ".mise-tasks", "mise/tasks", ".mise/tasks", ".config/mise/tasks"];

/** Every task defined for a run in `cwd`, each name with all its definitions. UNKNOWABLE where a config cannot be read. */
function tasksAt(cwd: string, environment: Record<string, string | undefined>): Tasks | typeof UNKNOWABLE {
  const tasks: Tasks = new Map();
  const home = environment.HOME;
  const places: Array<{ files: string[]; root: string; taskDirectories: boolean }> = [];
  for (let at = cwd; ; at = dirname(at)) {
    const files = CONFIGS.map((name) => join(at, name));
    // And the env files of each (`mise.dev.toml`, `mise.dev.local.toml`, `mise/config.dev.toml`), conf.d's.
    for (const [directory, pattern] of [
      [at, /^\.?(mise|rtx)\.[\w.-]+\.toml$/],
      [join(at, "mise"), /^config\.[\w.-]+\.toml$/],
      [join(at, ".mise"), /^config\.[\w.-]+\.toml$/],
      [join(at, ".config"), /^mise\.[\w.-]+\.toml$/],
      [join(at, ".config", "mise"), /^config\.[\w.-]+\.toml$/],
      [join(at, ".config", "mise", "conf.d"), /\.toml$/],
    ] as const) {
      try {
        for (const name of readdirSync(directory)) if (pattern.test(name) && !files.includes(join(directory, name))) files.push(join(directory, name));
      } catch {
        // none there
      }
    }
    places.push({ files, root: at, taskDirectories: true });
    if (at === dirname(at)) break;
  }
  const configHome = environment.XDG_CONFIG_HOME && isAbsolute(environment.XDG_CONFIG_HOME) ? environment.XDG_CONFIG_HOME : home !== undefined && isAbsolute(home) ? join(home, ".config") : undefined;
  // Config files named by the environment, which this reader does not follow.
  if (["MISE_CONFIG_DIR", "MISE_GLOBAL_CONFIG_FILE", "MISE_SYSTEM_CONFIG_FILE", "MISE_OVERRIDE_CONFIG_FILENAMES", "MISE_DEFAULT_CONFIG_FILENAME", "MISE_OVERRIDE_TOOL_VERSIONS_FILENAMES"].some((name) => environment[name] !== undefined)) return UNKNOWABLE;
  if (configHome !== undefined) {
    const global = [join(configHome, "mise", "config.toml")];
    try {
      for (const name of readdirSync(join(configHome, "mise", "conf.d"))) if (name.endsWith(".toml")) global.push(join(configHome, "mise", "conf.d", name));
    } catch {
      // none there
    }
    places.push({ files: global, root: home ?? configHome, taskDirectories: false });
  }
  places.push({ files: ["/etc/mise/config.toml"], root: "/", taskDirectories: false });
  for (const { files, root, taskDirectories } of places) {
    for (const file of files) {
      if (!existsSync(file)) continue;
      const text = readText(file);
      const config = text === undefined ? undefined : readToml(text);
      if (config === undefined) return UNKNOWABLE;
      const taskConfig = config.task_config;
      if (taskConfig !== undefined && typeof taskConfig === "object" && !Array.isArray(taskConfig) && taskConfig.includes !== undefined) return UNKNOWABLE;
      const defined = config.tasks;
      if (defined === undefined) continue;
      if (typeof defined !== "object" || Array.isArray(defined)) return UNKNOWABLE;
      for (const [name, task] of Object.entries(defined)) {
        for (const alias of [name, ...(typeof task === "object" && !Array.isArray(task) ? listOf(task.alias) : [])]) {
          if (alias !== undefined) define(tasks, alias, { task, root });
        }
      }
    }
    if (taskDirectories) for (const directory of TASK_DIRECTORIES) if (fileTasks(join(root, directory), "", root, tasks) === UNKNOWABLE) return UNKNOWABLE;
  }
  return tasks;
}

function define(tasks: Tasks, name: string, definition: { task: TomlValue; root: string }): void {
  const known = tasks.get(name);
  if (known === undefined) tasks.set(name, [definition]);
  else known.push(definition);
}

/**
 * The executables under a task directory, named by their path with `:` (a:b is a/b), with what
 * their `#MISE` (or `# mise`) header lines say they depend on; UNKNOWABLE where one holds TOML task
 * files, or a header this reader does not read (`dir`, a value not a list of names).
 */
function fileTasks(directory: string, prefix: string, root: string, tasks: Tasks, depth = 0): void | typeof UNKNOWABLE {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(directory, name);
    let stats;
    try {
      stats = statSync(path);
    } catch {
      continue;
    }
    if (stats.isDirectory() && depth < 8) {
      if (fileTasks(path, `${prefix}${name}:`, root, tasks, depth + 1) === UNKNOWABLE) return UNKNOWABLE;
    } else if (stats.isFile()) {
      if (name.endsWith(".toml")) return UNKNOWABLE;
      const task: Record<string, TomlValue> = { file: path };
      for (const line of (readText(path) ?? "").split(/\r?\n/).slice(0, 64)) {
        const header = /^(?:#|\/\/|--)\s*(?:MISE|mise|\[MISE\])\s+([\w.]+)\s*=\s*(.*)$/.exec(line);
        if (!header) continue;
        const [, key, value] = header as unknown as [string, string, string];
        if (!["depends", "depends_post", "description", "alias", "sources", "outputs", "hide", "quiet", "wait_for", "env"].includes(key)) return UNKNOWABLE;
        if (key === "depends" || key === "depends_post") {
          const list = readToml(`value = ${value}`)?.value;
          if (list === undefined || (typeof list !== "string" && !Array.isArray(list))) return UNKNOWABLE;
          task[key] = list;
        }
      }
      // `mise run build` runs mise-tasks/build, or build.sh and the like.
      for (const named of new Set([`${prefix}${name}`, `${prefix}${name.replace(/\.[^.]+$/, "")}`])) define(tasks, named, { task, root });
    }
  }
}

/** mise's options that take a value, before and after its command. */
const MISE_SYNTAX: Syntax = { short: "C:E:j:e:p:o:t:", long: valuedLong("cd env jobs path output tool file log-level") };

/**
 * mise's commands that rewrite its config: `use`/`u`, `unuse`/`rm`, `set K=V`, `unset`, `fmt`,
 * `config set`, `tasks add` write the config of the directory it runs in (the ones there, else
 * mise.toml); with `-g` the global one (~/.config/mise/config.toml), with `--path`/`--file` that
 * file, with `-e ENV` mise.ENV.toml; `lock` writes mise.lock beside it; `tasks edit` and `edit`
 * run an editor: any file.
 */
export const MISE_RULE: Rule = bySubcommand(MISE_SYNTAX, {
  use: (input) => miseConfigWrites(input),
  u: (input) => miseConfigWrites(input),
  unuse: (input) => miseConfigWrites(input),
  rm: (input) => miseConfigWrites(input),
  remove: (input) => miseConfigWrites(input),
  set: (input, rest) => (rest.some((at) => input.args[at] === undefined || input.args[at]?.includes("=") === true) ? miseConfigWrites(input) : []),
  unset: (input, rest) => (rest.length > 0 ? miseConfigWrites(input) : []),
  fmt: (input) => miseConfigWrites(input, input.args.some((arg) => arg === "-a" || arg === "--all")),
  config: (input, rest) => (["set", "unset", "rm"].includes(input.args[rest[0] ?? -1] ?? "") ? miseConfigWrites(input) : []),
  cfg: (input, rest) => (["set", "unset", "rm"].includes(input.args[rest[0] ?? -1] ?? "") ? miseConfigWrites(input) : []),
  tasks: (input, rest) => (input.args[rest[0] ?? -1] === "add" ? miseConfigWrites(input) : input.args[rest[0] ?? -1] === "edit" ? [UNKNOWABLE] : []),
  edit: () => [UNKNOWABLE],
  lock: (input) => miseConfigWrites(input).map((config) => (config === UNKNOWABLE ? config : join(dirname(config), "mise.lock"))),
});

function miseConfigWrites(input: RuleInput, all = false): string[] {
  const { args, walk } = input;
  const valueOf = (names: string[]) => {
    const at = args.findIndex((arg) => arg !== undefined && names.some((name) => arg === name || arg.startsWith(`${name}=`)));
    if (at === -1) return null;
    const arg = args[at] as string;
    return arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[at + 1];
  };
  const given = valueOf(["--path", "--file", "-p"]);
  if (given !== null) return [directoryAt(walk.cwd, given) ?? UNKNOWABLE];
  let cwd = walk.cwd;
  const moved = valueOf(["-C", "--cd"]);
  if (moved !== null) cwd = moved === undefined ? undefined : directoryAt(cwd, moved);
  if (args.some((arg) => arg === "-g" || arg === "--global")) {
    const configHome = walk.environment.XDG_CONFIG_HOME ?? (walk.home.startsWith("/") ? join(walk.home, ".config") : undefined);
    return [configHome === undefined ? UNKNOWABLE : join(configHome, "mise", "config.toml")];
  }
  if (cwd === undefined) return [UNKNOWABLE];
  const env = valueOf(["-e", "--env"]);
  if (env !== null) return [env === undefined ? UNKNOWABLE : join(cwd, `mise.${env}.toml`)];
  const there = CONFIGS.map((name) => join(cwd as string, name)).filter((path) => existsSync(path));
  if (all) return there.length > 0 ? there : [];
  return there.length > 0 ? there : [join(cwd, "mise.toml")];
}
