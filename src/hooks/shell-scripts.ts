// Scripts on disk that a command runs, handed back to the walk (shell-walk.ts) to read in turn, as
// it reads `bash -c '…'`: a shell script given to a shell or run by its path (`bash build.sh`,
// `./build.sh`, `source env.sh`), with its arguments as `$1`, `"$@"`; and a package's script
// (`npm run fmt`, `npm test`, `pnpm lint`, `yarn fmt`, `bun run x`: package.json's `scripts`, with
// the `pre` and `post` scripts run around it), in its package, or in every workspace member for
// `-ws`, `-r`, `--filter`, `yarn workspace a`. A Makefile's recipes come from shell-make.ts.
//
// A script's arguments, and a function call's, stand for their values in it (withPositional);
// each function is read once for each different call (callFunction).
//
// What cannot be read could write any file (UNKNOWABLE): a script in a place the text does not fix,
// one that cannot be read, one over SCRIPT_LIMIT. A program in another language (a shebang naming
// another interpreter) is read as `python3 fix.py` is, when an agent may have written it
// (program-files.ts); a binary is not read.
import { closeSync, fstatSync, openSync, readFileSync, readSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type Parser from "web-tree-sitter";
import { exists } from "../targets/target.js";
import { shebangProgram } from "./program-files.js";
import { aroundScript, nearestPackage, NPM_SCRIPTS, packageScripts } from "./package-scripts.js";
import { ownEntry, readOptions, type Syntax, valuedLong } from "./shell-options.js";
import { RULES } from "./shell-rules.js";
import type { Nested } from "./shell-runners.js";
import { inputKey, SHELLS } from "./shell-runners.js";
import { installCommands, packageCommands } from "./shell-tool-rules.js";
import { add, ancestorsHolding, directoryAt, globFiles, type FunctionBody, jsonWithComments, type Positional, readText, UNKNOWABLE, type Walk, wordValues, writtenBefore } from "./shell-words.js";

/** A script longer than this is not read: what it writes is judged unknown. */
const SCRIPT_LIMIT = 1024 * 1024;

/** What a script file holds for the walk: its text; nothing to read (no file, a program); or UNKNOWABLE. */
export type Script = { text: string } | typeof UNKNOWABLE | undefined;

/**
 * The script at a path (undefined: relative to a place the text does not fix). `given`: a shell is
 * given the file (`bash f`, `source f`), which it reads whatever its first line says; run by its
 * path (`./f`), a file is a shell script with a shell's shebang or none (the shell runs it then).
 */
export function scriptFile(path: string | undefined, given: boolean): Script {
  if (path === undefined) return UNKNOWABLE;
  // The Gradle and Maven wrappers are shell scripts that start the build tool, a program in another
  // language: not read, as their `eval "set -- $(…)"` would be any file.
  if (!given && LAUNCHERS.includes(basename(path))) return undefined;
  try {
    // Only a regular file is opened: a FIFO would block the hook (bash would wait on it; the hook cannot read it ahead).
    const stats = statSync(path);
    if (!stats.isFile()) return stats.isFIFO() ? UNKNOWABLE : undefined;
    // A kernel's file can say it is a regular one and block a read all the same (/proc/kmsg).
    if (/^\/(proc|sys)\//.test(realpathSync(path))) return UNKNOWABLE;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? undefined : UNKNOWABLE;
  }
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? undefined : UNKNOWABLE; // none there: nothing runs
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const head = Buffer.alloc(Math.min(4096, stats.size));
    readSync(fd, head, 0, head.length, 0);
    if (head.includes(0)) return undefined; // a binary program
    const first = head.toString("utf8").split("\n", 1)[0] ?? "";
    if (!given && first.startsWith("#!") && !SHELLS.includes(shebangProgram(first))) return undefined;
    if (stats.size > SCRIPT_LIMIT) return UNKNOWABLE;
    return { text: readFileSync(fd, "utf8") };
  } catch {
    return UNKNOWABLE;
  } finally {
    closeSync(fd);
  }
}

const LAUNCHERS = ["gradlew", "mvnw"];

export const PACKAGE_MANAGERS = ["npm", "pnpm", "yarn", "bun"];

/** npm's names for `run` (the scripts it runs by their own name: NPM_SCRIPTS). */
const NPM_RUN = ["run", "run-script", "rum", "urn"];

/**
 * Each manager's options before its subcommand (npm's anywhere before `--`): `w` a workspace
 * member, `W` every member (npm's `-ws`, pnpm's `-r`, `--filter`), `C` where it runs.
 */
const RUN_OPTIONS: Record<string, Syntax> = {
  npm: {
    short: "w:C:c:",
    long: { workspace: "w", workspaces: "W", ws: "W", prefix: "C", call: "c", ...valuedLong("registry cache userconfig node-options script-shell loglevel tag") },
  },
  pnpm: { short: "C:F:rw", long: { dir: "C", filter: "F", recursive: "r", "workspace-root": "w", ...valuedLong("reporter loglevel") }, ordered: true },
  yarn: { short: "C:", long: { cwd: "C", ...valuedLong("mutex network-timeout") }, ordered: true },
  bun: { short: "F:C:", long: { cwd: "C", filter: "F", ...valuedLong("bunfig config") }, ordered: true },
};

/** A shell npm may be told to run its scripts with that reads them as bash does. */
const KNOWN_SCRIPT_SHELL = /^(\/(usr\/)?(local\/)?bin\/)?(sh|bash|dash|zsh|ksh)$/;

/**
 * Whether npm runs its scripts with code the hook cannot read: a `--script-shell` (or
 * npm_config_script_shell the command sets) that is no known shell or that the text does not fix,
 * or a `--node-options` (npm_config_node_options) the text does not fix, which every node the
 * scripts start loads (`npm test --script-shell="$x"`).
 */
export function npmScriptsUnread(args: Array<string | undefined>, holes: Array<string | undefined>, environment: Record<string, string | undefined>): boolean {
  const dashes = args.indexOf("--");
  const reading = readOptions(dashes === -1 ? args : args.slice(0, dashes), RUN_OPTIONS.npm as Syntax, 0, (at) => holes[at]);
  // (The command's own; the agent's environment, which the hook runs in, is the user's.)
  const variable = (name: string) => Object.entries(environment).find(([key, value]) => key.toLowerCase() === `npm_config_${name}` && (value === undefined || value !== process.env[key]));
  const shell = reading.has("script-shell") ? [reading.value("script-shell")] : variable("script_shell") === undefined ? [] : [variable("script_shell")?.[1]];
  const options = reading.has("node-options") ? [reading.value("node-options")] : variable("node_options") === undefined ? [] : [variable("node_options")?.[1]];
  return shell.some((value) => value === undefined || !KNOWN_SCRIPT_SHELL.test(value)) || options.some((value) => value === undefined);
}

/**
 * The node options npm (or pnpm) gives the node its scripts run, where the text or the project
 * fixes them: npm's `--node-options`, npm_config_node_options, else the project's .npmrc
 * `node-options=` (in the package's directory, where the scripts run; pnpm's too). `directory`: that
 * directory, from which their preloads are found.
 */
export function npmNodeOptions(manager: string, args: Array<string | undefined>, holes: Array<string | undefined>, environment: Record<string, string | undefined>, cwd: string | undefined): { options: string[]; directory: string | undefined } {
  const directory = cwd === undefined ? undefined : (nearestPackage(cwd) ?? cwd);
  if (manager === "npm") {
    const dashes = args.indexOf("--");
    const reading = readOptions(dashes === -1 ? args : args.slice(0, dashes), RUN_OPTIONS.npm as Syntax, 0, (at) => holes[at]);
    const variable = Object.entries(environment).find(([key]) => key.toLowerCase() === "npm_config_node_options")?.[1];
    const given = reading.has("node-options") ? reading.value("node-options") : variable;
    if (given !== undefined) return { options: [given], directory };
  }
  const npmrc = directory === undefined ? undefined : readText(join(directory, ".npmrc"));
  const options = [...(npmrc ?? "").matchAll(/^[ \t]*node-options[ \t]*=[ \t]*(.*?)[ \t]*$/gm)].map((match) => (match[1] as string).replace(/^(["'])(.*)\1$/, "$2"));
  return { options, directory };
}

/** The options that run a script in workspace members, which the hook reads all of. */
const IN_MEMBERS = ["w", "W", "F", "r"];

/** A run a package manager's command asks for: the script's name, what follows it, where, and whether in every member. */
interface Run {
  name: string;
  extra: string[];
  /** `-C dir`, `--prefix dir`, `--cwd dir`: undefined where the text does not fix it. */
  chdir?: string | undefined;
  moved: boolean;
  members: boolean;
  /** Named without `run` (`pnpm fmt`): a script when there is one, else the package's command of that name. */
  bare: boolean;
}

function runOf(manager: string, args: Array<string | undefined>, texts: string[], holes: Array<string | undefined>): Run | typeof UNKNOWABLE | undefined {
  const syntax = RUN_OPTIONS[manager] as Syntax;
  const npm = manager === "npm";
  const dashes = npm ? args.indexOf("--") : -1;
  const text = (at: number) => holes[at];
  const before = readOptions(npm && dashes !== -1 ? args.slice(0, dashes) : args, syntax, 0, text);
  const first = before.operands[0];
  if (first === undefined) return undefined;
  const sub = args[first] ?? "";
  let place = { chdir: before.value("C"), moved: before.has("C"), members: before.has(...IN_MEMBERS) };
  if (manager === "yarn" && (sub === "workspace" || sub === "workspaces")) {
    // `yarn workspace a fmt`, `yarn workspaces foreach -A run fmt`: in members.
    const from = sub === "workspace" ? first + 2 : args.findIndex((arg, at) => at > first && arg === "run");
    if (from <= 0 || from >= args.length) return undefined;
    const inner = runOf("yarn", args.slice(from), texts.slice(from), holes.slice(from));
    return inner === undefined || inner === UNKNOWABLE ? inner : { ...inner, ...place, members: true };
  }
  let name: string | undefined;
  let rest = first + 1; // where the script's own arguments start
  let members = place.members;
  let bare = false;
  if ((npm ? NPM_RUN : ["run"]).includes(sub)) {
    // `pnpm run -r fmt`: the others' options may follow `run` too.
    const after = npm ? undefined : readOptions(args, syntax, first + 1, text);
    if (after?.has(...IN_MEMBERS)) members = true;
    if (after?.has("C")) place = { ...place, chdir: after.value("C"), moved: true }; // `bun run --cwd a x`
    const at = after ? after.operands[0] : before.operands[1];
    if (at === undefined) return undefined; // `npm run`: lists the scripts
    name = args[at];
    if (name === undefined) return UNKNOWABLE; // `npm run "$task"`
    rest = at + 1;
  } else if (npm) {
    if (!Object.hasOwn(NPM_SCRIPTS, sub)) return undefined;
    name = NPM_SCRIPTS[sub];
  } else if ((sub === "test" || (sub === "t" && manager === "pnpm")) && manager !== "bun") name = "test";
  else if (!packageCommands(manager).includes(sub) && !["exec", "dlx", "x", "create", ...(manager === "bun" ? ["test", "build", "pm"] : [])].includes(sub)) {
    name = sub; // `pnpm fmt`: a script by its name, when there is one
    bare = true;
  } else return undefined;
  // What follows the script's name goes to it: npm's operands and what follows `--`, the others' all of it.
  const extra = npm ? [...before.operands.filter((at) => at >= rest).map((at) => texts[at] as string), ...(dashes === -1 ? [] : texts.slice(dashes + 1))] : texts.slice(rest);
  return { name: name as string, extra, ...place, members, bare };
}

/**
 * The package scripts a package manager's command runs, to read in turn: undefined where it runs
 * none (`npm install`, `pnpm exec x`, a name that is no script: the walk reads it as before).
 * `args` and `texts`: the words after the manager's name, as values (undefined where the text does
 * not fix one) and as written; `holes`, their values with a HOLE where the text does not fix them
 * (readOptions: `pnpm -C"$d" fmt` runs in a place unknown).
 */
export function packageRun(manager: string, args: Array<string | undefined>, texts: string[], cwd: string | undefined, written: (path: string) => boolean = () => false, holes: Array<string | undefined> = []): Nested[] | typeof UNKNOWABLE | undefined {
  const run = runOf(manager, args, texts, holes);
  if (run === undefined || run === UNKNOWABLE) return run;
  const start = run.moved ? directoryAt(cwd, run.chdir) : cwd;
  // In a place the text does not fix: scripts it cannot read, unless the name is a command with a
  // rule, read as before (`yarn workspace a prettier --write src`).
  if (start === undefined) return run.bare && ownEntry(RULES, run.name) !== undefined ? undefined : UNKNOWABLE;
  const directory = nearestPackage(start);
  // A package.json the command itself writes first (here or up to the package's): its scripts are not the ones on disk now.
  for (let at = start; ; at = dirname(at)) {
    if (written(join(at, "package.json"))) return UNKNOWABLE;
    if (at === directory || at === dirname(at)) break;
  }
  // pnpm and yarn 1 drop the first `--` after the script's name (`pnpm test -- -u` runs `jest -u`),
  // yarn 2+ and bun may pass it on: the script is read both ways.
  const dashes = manager === "npm" ? -1 : run.extra.indexOf("--");
  const readings = dashes === -1 ? [run.extra] : [run.extra, run.extra.filter((_, at) => at !== dashes)];
  const both = (member: string, required: boolean) => {
    const found = readings.map((extra) => scriptsOf(member, run.name, extra, required));
    return found.every((runs) => runs === undefined) ? undefined : found.flatMap((runs) => runs ?? []);
  };
  const own = directory === undefined ? undefined : both(directory, manager === "npm");
  if (!run.members) return own;
  // Every member of the workspace around it (a `--filter` or `-w` is not narrowed: any member may be the one).
  const members = workspaceMembers(start) ?? [];
  if (members.some((member) => written(join(member, "package.json")))) return UNKNOWABLE;
  const runs = [...(own ?? []), ...members.filter((member) => member !== directory).flatMap((member) => both(member, false) ?? [])];
  // None of that name anywhere: a command of that name (`yarn workspace a prettier`), or nothing.
  return own === undefined && runs.length === 0 ? (ownEntry(RULES, run.name) === undefined ? [] : undefined) : runs;
}

/** turbo's own commands that run no task: they write nothing the hook judges (gen and prune write files: any file). */
const TURBO_OWN = ["login", "logout", "link", "unlink", "daemon", "telemetry", "info", "ls", "query", "scan", "bin", "completion", "docs", "config", "devtools", "boundaries", "help"];

/**
 * `turbo run build lint`, `turbo build`, `turbo watch dev`: each task is the package script of
 * that name in the workspace's root package and in every member, as `pnpm -r run build` runs it
 * (`app#build`: the script build; turbo.json's settings aside). Every word that is no option is
 * taken for a task, an option's value too (`--filter web`): read as a script where one has that
 * name, which only reads more. `turbo gen`, `turbo prune`: files the text does not name.
 */
export function turboRuns(args: Array<string | undefined>, cwd: string | undefined, written: (path: string) => boolean): Nested[] | typeof UNKNOWABLE | undefined {
  const words = args.filter((arg) => arg === undefined || !arg.startsWith("-"));
  const first = words[0];
  if (first === undefined && words.length > 0) return UNKNOWABLE; // `turbo "$task"`
  if (first === undefined || TURBO_OWN.includes(first)) return undefined;
  if (first === "gen" || first === "generate" || first === "prune") return UNKNOWABLE;
  const tasks = first === "run" || first === "watch" ? words.slice(1) : words;
  if (tasks.some((task) => task === undefined)) return UNKNOWABLE;
  return memberScripts((tasks as string[]).map((task) => task.replace(/^.*#/, "")), cwd, written);
}

/**
 * nx's commands that run nothing of the project's: the rest (`nx run app:build`, `run-many`,
 * `affected`, `nx build app`, `exec`, `g`, `migrate`, `format`, `release`) run targets whose
 * executors and commands (project.json, nx.json) the hook does not read: any file.
 */
const NX_READ_ONLY = ["graph", "show", "list", "report", "daemon", "help", "print-affected", "format:check", "view-logs", "login", "logout", "--version", "-v", "--help", "-h"];

/** What `nx …` runs: undefined for a command that runs nothing of the project's, else any file. */
export function nxRuns(args: Array<string | undefined>): typeof UNKNOWABLE | undefined {
  const first = args[0];
  if (args.length === 0 || (first !== undefined && NX_READ_ONLY.includes(first) && !args.some((arg) => arg?.startsWith("--file")))) return undefined;
  return UNKNOWABLE;
}

/** deno's configuration files, as `deno task` looks for the nearest. */
const DENO_CONFIGS = ["deno.json", "deno.jsonc"];

/**
 * `deno task fmt`: deno.json's (or deno.jsonc's) task of that name, a command line (or `{
 * "command": …, "dependencies": [tasks run first] }`), read in the configuration's directory;
 * failing that, package.json's script of that name, as deno falls back to it. `deno task --eval
 * 'cmd'`: the line itself. With `--recursive` or `--filter` (members' tasks), or a configuration
 * the hook cannot read: any file. With no name, deno lists the tasks.
 */
export function denoTaskRuns(args: Array<string | undefined>, text: (at: number) => string | undefined, cwd: string | undefined): Nested[] | typeof UNKNOWABLE | undefined {
  const reading = readOptions(args, { short: "c:f:qr", long: { config: "c", cwd: ":", filter: "f", recursive: "r", quiet: "q", eval: "", ...valuedLong("env-file") }, ordered: true }, 0, text);
  const name = reading.operands[0];
  if (name === undefined) return undefined;
  const task = args[name];
  if (task === undefined || reading.has("r", "f")) return UNKNOWABLE;
  const start = reading.has("cwd") ? directoryAt(cwd, reading.value("cwd")) : cwd;
  if (start === undefined) return UNKNOWABLE;
  const extra = args.slice(name + 1);
  if (extra.some((arg) => arg === undefined)) return UNKNOWABLE;
  if (reading.has("eval")) return [{ script: [task, ...(extra as string[])].join(" "), cwd: start, bound: new Map() }];
  const root = ancestorsHolding(start, DENO_CONFIGS)[0];
  const config = reading.has("c") ? directoryAt(cwd, reading.value("c")) : root === undefined ? undefined : DENO_CONFIGS.map((name) => join(root, name)).find((path) => exists(path));
  if (reading.has("c") && config === undefined) return UNKNOWABLE;
  if (config !== undefined) {
    const text = readText(config);
    if (text === undefined) return UNKNOWABLE;
    let tasks: Record<string, unknown> | undefined;
    try {
      tasks = (JSON.parse(jsonWithComments(text)) as { tasks?: Record<string, unknown> }).tasks;
    } catch {
      return UNKNOWABLE;
    }
    if (tasks !== undefined && Object.hasOwn(tasks, task)) {
      const lines: string[] = [];
      const seen = new Set<string>();
      const collect = (name: string): boolean => {
        if (seen.has(name)) return true;
        seen.add(name);
        const found = tasks?.[name];
        if (typeof found === "string") return lines.push(found) > 0;
        if (typeof found !== "object" || found === null) return false;
        const { command, dependencies } = found as { command?: unknown; dependencies?: unknown };
        if (dependencies !== undefined && (!Array.isArray(dependencies) || !dependencies.every((dependency) => typeof dependency === "string" && collect(dependency)))) return false;
        if (command !== undefined && typeof command !== "string") return false;
        if (typeof command === "string") lines.push(command);
        return true;
      };
      if (!collect(task)) return UNKNOWABLE;
      return lines.map((line, at) => ({ script: at === lines.length - 1 ? [line, ...(extra as string[])].join(" ") : line, cwd: dirname(config), bound: new Map() }));
    }
  }
  const directory = nearestPackage(start);
  return directory === undefined ? [] : (scriptsOf(directory, task, extra as string[], true) ?? []);
}


/** The scripts of these names in the workspace's root package and every member around `start` (the nearest package alone outside one). */
function memberScripts(names: string[], cwd: string | undefined, written: (path: string) => boolean): Nested[] | typeof UNKNOWABLE {
  if (cwd === undefined) return UNKNOWABLE;
  const own = nearestPackage(cwd);
  const members = workspaceMembers(cwd) ?? (own === undefined ? [] : [own]);
  if (members.some((member) => written(join(member, "package.json")))) return UNKNOWABLE;
  return members.flatMap((member) => names.flatMap((name) => scriptsOf(member, name, [], false) ?? []));
}

/** The package's scripts `npm pack` runs, and `npm publish` (docs.npmjs.com, scripts: life cycle operation order); yarn's and pnpm's run some of these. */
const PACK_SCRIPTS = ["prepack", "prepare", "postpack"];
const PUBLISH_SCRIPTS = ["prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"];

/** The project's own scripts an install runs, in order. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"];

/**
 * The package's own install scripts (`postinstall`, `prepare`, …) that `npm install`, `npm ci`,
 * `pnpm add x`, a bare `yarn` and the like run, and its pack and publish scripts (`npm pack`, `npm
 * publish`, also with `--dry-run`), from the nearest package up: none with `--ignore-scripts` or `-g`. (The packages installed run theirs inside node_modules, which the
 * install writes anyway.) UNKNOWABLE for a package in a place the text does not fix (`npm --prefix
 * "$d" install`, `npm install --prefix="$d"`, `holes` as for packageRun): scripts it cannot read.
 */
export function installRuns(manager: string, args: Array<string | undefined>, cwd: string | undefined, holes: Array<string | undefined> = []): Nested[] | typeof UNKNOWABLE {
  const reading = readOptions(args, { ...(RUN_OPTIONS[manager] as Syntax), ordered: false }, 0, (at) => holes[at]);
  const sub = args[reading.operands[0] ?? -1] ?? (manager === "yarn" && reading.operands.length === 0 ? "" : undefined);
  if (args.some((arg) => arg === "--ignore-scripts" || arg === "-g" || arg === "--global")) return [];
  // `npm version patch`: its preversion, version and postversion scripts.
  const version = manager === "npm" && sub === "version" && reading.operands.length > 1;
  // `npm pack`, `npm publish` (with --dry-run too): the package's pack and publish scripts.
  const packs = manager !== "bun" && (sub === "pack" || sub === "publish");
  if (sub === undefined || (!installCommands(manager).includes(sub) && !version && !packs)) return [];
  const start = reading.has("C") ? directoryAt(cwd, reading.value("C")) : cwd;
  if (start === undefined) return UNKNOWABLE; // a package the text does not fix: scripts the hook cannot read
  const directory = nearestPackage(start);
  if (directory === undefined) return [];
  const scripts = packageScripts(directory);
  const lifecycle = version ? ["preversion", "version", "postversion"] : packs ? (sub === "pack" ? PACK_SCRIPTS : PUBLISH_SCRIPTS) : INSTALL_SCRIPTS;
  const runs: Nested[] = lifecycle
    .filter((key) => typeof scripts[key] === "string").map((key) => ({ script: scripts[key] as string, cwd: directory, bound: new Map() }));
  // And between version and postversion it commits the change (in a git repository), running the
  // commit's hooks: none with --no-git-tag-version, and no hooks with --no-commit-hooks.
  const off = (name: string) => args.some((arg) => arg === `--no-${name}` || arg === `--${name}=false`);
  if (version && !off("git-tag-version") && !off("commit-hooks")) runs.splice(runs.length - (typeof scripts.postversion === "string" ? 1 : 0), 0, { script: "git commit -m version", cwd: directory, bound: new Map() });
  return runs;
}

/** A package's scripts of that name with their `pre` and `post` scripts; undefined when it has none of the name. */
function scriptsOf(directory: string, name: string, extra: string[], required: boolean): Nested[] | undefined {
  const scripts = packageScripts(directory);
  if (!Object.hasOwn(scripts, name)) {
    // npm restart without a restart script runs stop and start; start without one runs `node server.js`.
    if (name === "restart") return [...(scriptsOf(directory, "stop", [], false) ?? []), ...(scriptsOf(directory, "start", [], false) ?? [])];
    return required ? [] : undefined; // npm: "Missing script", nothing runs
  }
  return aroundScript(name)
    .filter((key) => Object.hasOwn(scripts, key) && typeof scripts[key] === "string")
    .map((key) => ({ script: key === name ? [scripts[key], ...extra].join(" ") : (scripts[key] as string), cwd: directory, bound: new Map() }));
}

/** The member packages of the workspace around a directory: package.json's `workspaces`, or pnpm-workspace.yaml's `packages`. */
function workspaceMembers(start: string): string[] | undefined {
  for (const root of ancestorsHolding(start, ["package.json", "pnpm-workspace.yaml"])) {
    const patterns = workspacePatterns(root);
    if (patterns === undefined) continue;
    const included = patterns.filter((pattern) => !pattern.startsWith("!")).map((pattern) => `${pattern.replace(/\/+$/, "")}/package.json`);
    const ignore = ["**/node_modules/**", ...patterns.filter((pattern) => pattern.startsWith("!")).map((pattern) => pattern.slice(1))];
    const members = globFiles(included, root, { ignore }).map((path) => dirname(path));
    return [root, ...members.filter((member) => member !== root)];
  }
  return undefined;
}

function workspacePatterns(root: string): string[] | undefined {
  if (exists(join(root, "pnpm-workspace.yaml"))) {
    // The `packages:` list, one `- 'glob'` a line: the only part of the file the hook reads.
    const text = readText(join(root, "pnpm-workspace.yaml")) ?? "";
    const flow = /^packages:\s*\[([^\]]*)\]/m.exec(text)?.[1]; // `packages: ["a/*", "b"]`
    if (flow !== undefined) return flow.split(",").map((entry) => entry.trim().replace(/^['"]|['"]$/g, "")).filter(Boolean);
    const list = /^packages:\s*\n((?:[ \t]*(?:-.*)?\n?|[ \t]*#.*\n?)*)/m.exec(text)?.[1] ?? "";
    return [...list.matchAll(/^[ \t]*-[ \t]*['"]?([^'"#\n]+?)['"]?[ \t]*(?:#.*)?$/gm)].map((match) => match[1] as string);
  }
  try {
    const manifest = JSON.parse(readText(join(root, "package.json")) ?? "") as { workspaces?: unknown };
    const workspaces = manifest.workspaces;
    const list = Array.isArray(workspaces) ? workspaces : (workspaces as { packages?: unknown } | undefined)?.packages;
    return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === "string") : undefined;
  } catch {
    return undefined;
  }
}

/** `$1`, `$2`, `"$@"`: the positional parameters a script or function is run with. */
const POSITIONAL = /^([1-9]\d*|@)$/;

/**
 * The variables a script or function body sees: the caller's, but for its own arguments, which
 * stand for their values unless it can change them (`shift`, `set -- …`) or a word's values are not
 * one each (an unquoted glob, a word the text does not fix: from there on, unknown).
 */
export function withPositional(bound: Map<string, string[]> | undefined, positional: Positional, root: Parser.SyntaxNode): Map<string, string[]> {
  const own = new Map([...(bound ?? [])].filter(([key]) => !POSITIONAL.test(key)));
  if (changesPositional(root)) return own;
  for (const [index, values] of positional.entries()) {
    if (values?.length !== 1) break;
    own.set(String(index + 1), values);
  }
  if (positional.every((values) => values !== undefined)) own.set("@", positional.flat() as string[]);
  return own;
}

function changesPositional(root: Parser.SyntaxNode): boolean {
  return root.descendantsOfType("command").some((command) => {
    const name = command.childForFieldName("name")?.text;
    if (name === "shift") return true;
    if (name !== "set") return false;
    const args = command.childrenForFieldName("argument").map((arg) => arg.text);
    for (let at = 0; at < args.length; at++) {
      const arg = args[at] as string;
      if (arg === "--" || arg === "-" || !/^[-+]/.test(arg)) return true;
      if (/^[-+][a-zA-Z]*o$/.test(arg)) at++; // `set -euo pipefail`: -o takes a name
    }
    return false;
  });
}

/** A script on disk to read in turn (shell-scripts.ts), from where the command runs; one that cannot be read could write anything. */
export function runScript(typed: string | undefined, given: boolean, here: Walk, nested: Nested[], run: Pick<Nested, "bound" | "positional">, sourced = false): Script {
  const path = typed === undefined ? undefined : directoryAt(here.cwd, typed);
  const script = path !== undefined && writtenBefore(here, path) ? UNKNOWABLE : scriptFile(path, given);
  if (script === UNKNOWABLE) add(here, UNKNOWABLE);
  else if (script !== undefined) {
    // `$0` (a script run, not one sourced) and `${BASH_SOURCE}` name the file as it was given
    // (`./x.sh`, from where the command runs): `$(dirname "$0")`.
    const bound = new Map(run.bound ?? here.bound ?? []).set("BASH_SOURCE", [typed as string]);
    if (!sourced) bound.set("0", [typed as string]);
    nested.push({ script: script.text, cwd: here.cwd, ...run, bound });
  }
  return script;
}

/** A function's bodies read with a call's arguments, once for each different call. */
export function callFunction(name: string, bodies: FunctionBody[], call: Omit<Nested, "script">, walk: Walk, nested: Nested[]): void {
  // After a few different calls of one function (`log "step $i"`), one more read with arguments
  // unknown stands for every other: a script's thousand calls do not use up what the hook reads.
  const calls = [...walk.shared.read].filter((key) => key.startsWith(`${JSON.stringify(name)},`)).length;
  const read = calls >= CALLS_READ ? { ...call, positional: [undefined] } : call;
  // (With the bodies known so far: a function defined again after a call is read again at the next.)
  const key = `${JSON.stringify(name)},${JSON.stringify([read.cwd, read.positional, [...(read.bound ?? [])], bodies.length, inputKey(read.input)])}`;
  if (walk.shared.read.has(key)) return;
  walk.shared.read.add(key);
  // Each body with `${BASH_SOURCE[0]}` the file that defined it.
  for (const { body, source, input } of bodies) {
    const bound = new Map(read.bound ?? []);
    if (source === undefined) bound.delete("BASH_SOURCE");
    else bound.set("BASH_SOURCE", [source]);
    // (Its own redirection, applied after the call's: `f() { …; } < x.py`.)
    nested.push({ script: body, ...read, bound, ...(input === null ? { input } : {}) });
  }
}

/** Different calls of one function read with their own arguments, before one read with arguments unknown stands for the rest. */
const CALLS_READ = 4;

/** The values of a command's arguments, as a script or function it runs sees them (`$1`, `"$@"`). */
export function positionalOf(words: Parser.SyntaxNode[], walk: Walk): Positional {
  return words.map((word) => wordValues(word, walk));
}

/** What composer's own commands run of the project's scripts (its events, getcomposer.org/doc/articles/scripts.md). */
const COMPOSER_EVENTS: Record<string, string[]> = {
  install: ["pre-install-cmd", "pre-autoload-dump", "post-autoload-dump", "post-install-cmd"],
  update: ["pre-update-cmd", "pre-autoload-dump", "post-autoload-dump", "post-update-cmd"],
  "dump-autoload": ["pre-autoload-dump", "post-autoload-dump"],
  archive: ["pre-archive-cmd", "post-archive-cmd"],
  status: ["pre-status-cmd", "post-status-cmd"],
};
const COMPOSER_ALIASES: Record<string, string> = { i: "install", u: "update", upgrade: "update", require: "update", r: "update", remove: "update", rm: "update", reinstall: "install", dumpautoload: "dump-autoload", dump: "dump-autoload", "run-script": "run" };
/** composer's own commands: a word none of these, naming a script of composer.json, runs that script. */
const COMPOSER_COMMANDS = new Set(["about", "archive", "audit", "browse", "home", "bump", "check-platform-reqs", "clear-cache", "clearcache", "cc", "config", "create-project", "depends", "why", "diagnose", "dump-autoload", "dumpautoload", "exec", "fund", "global", "help", "init", "install", "i", "licenses", "list", "outdated", "prohibits", "why-not", "reinstall", "remove", "rm", "require", "r", "run-script", "run", "search", "self-update", "selfupdate", "show", "info", "status", "suggests", "update", "u", "upgrade", "validate"]);

/**
 * The project's composer.json scripts a composer command runs: `composer run-script fix` (`run`),
 * `composer fix` (a script is a command of its own name), and the event scripts of install, update,
 * require, remove and dump-autoload (`post-install-cmd`, `post-autoload-dump`…); none with
 * `--no-scripts`. A script is a command line or a list of them: `@name` runs another script,
 * `@composer …` and `@php …` run those, `@putenv` sets a variable; a PHP callback in the project's
 * own namespaces (composer.json's autoload, `App\\Hooks::run`) is PHP the hook does not read: any
 * file; a package's is its vendor code, not read. A composer.json that is not JSON, or a project the
 * text does not place, is any file too; none there, nothing.
 */
export function composerRuns(args: Array<string | undefined>, cwd: string | undefined): Nested[] | typeof UNKNOWABLE {
  if (args.includes("--no-scripts")) return [];
  const reading = readOptions(args, { short: "d:", long: { "working-dir": "d", ...valuedLong("format timeout") }, exact: true }, 0, () => undefined);
  const first = reading.operands[0];
  if (first === undefined) return [];
  const word = args[first];
  if (word === undefined) return UNKNOWABLE;
  // (Its console takes a command by any start of its name no other shares: `composer inst`, `composer upd`.)
  const started = COMPOSER_COMMANDS.has(word) ? [] : [...COMPOSER_COMMANDS].filter((name) => name.startsWith(word) && !Object.hasOwn(COMPOSER_ALIASES, name) && name.length > 2);
  const command = COMPOSER_ALIASES[word] ?? (started.length === 1 ? (COMPOSER_ALIASES[started[0] as string] ?? (started[0] as string)) : word);
  const start = reading.has("d") ? directoryAt(cwd, reading.value("d")) : cwd;
  if (start === undefined) return UNKNOWABLE;
  const root = ancestorsHolding(start, ["composer.json"])[0];
  if (root === undefined) return [];
  const text = readText(join(root, "composer.json"));
  let scripts: Record<string, unknown>;
  let own: string[];
  try {
    const manifest = JSON.parse(text ?? "") as { scripts?: unknown; autoload?: unknown; "autoload-dev"?: unknown };
    scripts = typeof manifest.scripts === "object" && manifest.scripts !== null ? (manifest.scripts as Record<string, unknown>) : {};
    // The project's own namespaces (`App\\`): a callback in one is the project's PHP, perhaps an agent's.
    own = [manifest.autoload, manifest["autoload-dev"]].flatMap((autoload) => ["psr-4", "psr-0"].flatMap((kind) => Object.keys(((autoload as Record<string, unknown> | undefined)?.[kind] as object | undefined) ?? {})));
  } catch {
    return text === undefined ? [] : UNKNOWABLE; // no composer.json there: composer runs nothing of it
  }
  const named = command === "run" ? args[reading.operands[1] ?? -1] : !COMPOSER_COMMANDS.has(word) && (started.length !== 1 || Object.hasOwn(scripts, word)) ? word : undefined;
  if (command === "run" && reading.operands[1] === undefined) return []; // `composer run` alone lists them
  if (command === "run" && named === undefined) return UNKNOWABLE;
  const names = named !== undefined ? [named] : (COMPOSER_EVENTS[command] ?? []);
  // What follows the script's name is given to its command lines (after a `--`).
  const at = named === undefined ? -1 : command === "run" ? (reading.operands[1] as number) : first;
  const extra = at < 0 ? [] : args.slice(at + 1).filter((arg, index) => !(index === 0 && arg === "--"));
  if (extra.some((arg) => arg === undefined)) return UNKNOWABLE;
  const lines: string[] = [];
  const seen = new Set<string>();
  const collect = (name: string): boolean => {
    if (seen.has(name)) return true;
    seen.add(name);
    const value = scripts[name];
    if (value === undefined) return true;
    const entries = typeof value === "string" ? [value] : Array.isArray(value) ? value : undefined;
    if (entries === undefined || !entries.every((entry) => typeof entry === "string")) return false;
    for (const entry of entries as string[]) {
      const line = entry.trim();
      if (line.startsWith("@putenv ")) continue;
      if (/^@(composer|php)\s/.test(line)) lines.push(line.slice(1));
      else if (line.startsWith("@")) {
        if (!collect(line.slice(1).split(/\s/)[0] as string)) return false;
      } else if (/^[\w\\]+::\w+$/.test(line)) {
        // A PHP callback: in the project's own namespaces, PHP the hook does not read (any file); a
        // package's (Laravel's stock `Illuminate\\Foundation\\ComposerScripts::postAutoloadDump`) is its
        // vendor code, as a program installed is.
        const name = line.replace(/^\\/, "");
        if (own.some((prefix) => prefix !== "" && name.startsWith(prefix.replace(/^\\/, "")))) return false;
      } else lines.push(line);
    }
    return true;
  };
  if (!names.every(collect)) return UNKNOWABLE;
  return lines.map((line) => ({ script: extra.length > 0 && named !== undefined ? `${line} ${(extra as string[]).map((arg) => `'${arg.replace(/'/g, "'\\''")}'`).join(" ")}` : line, cwd: root, bound: new Map() }));
}
