// The shell commands git runs from settings the command itself gives it: `-c key=value` (clone's
// own too) and `--config-env`, GIT_CONFIG_PARAMETERS and GIT_CONFIG_COUNT's pairs, and the
// variables that name a command (GIT_SSH_COMMAND, GIT_PAGER, GIT_EXTERNAL_DIFF, …): core.fsmonitor
// (run by status, diff, add…), core.sshCommand, core.pager, credential.helper (`!cmd`),
// diff.external, filter.*.clean and .smudge, and the others below; the command an `ext::` URL
// names; and the commands a subcommand's own options name (`fetch --upload-pack=…`, `push
// --receive-pack=…`, `archive --exec=…`, `grep -O…`, `difftool -x …`). Each is read as a script
// wherever the invocation sets it, whether or not this subcommand runs it (the editor is read where
// it runs: shell-editors.ts; aliases and hooks: shell-git-rules.ts). A setting that includes
// another config file, or one whose command the text does not fix, could write any file; so could
// the hooks a template or hooks path given to `git clone` or `git init` brings (givenHooksMayRun),
// and a directory of programs `--exec-path` or GIT_EXEC_PATH gives (execPathRuns). A setting `git
// config` saves is read where it is saved, as run there (configuredCommands): git's config files
// are not read when a later command runs.
import { readdirSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, join } from "node:path";
import { exists } from "../targets/target.js";
import { runnableHook } from "./git-hooks.js";
import { UNKNOWN_MARK } from "./payload.js";
import { readOptions, type Syntax } from "./shell-options.js";
import { editorRun } from "./shell-editors.js";
import { INPUT, type Nested } from "./shell-runners.js";
import { directoryAt, HOLE, physicalDirectoryAt, shellQuoted, UNKNOWABLE, type Walk, workTreeOf, writtenBefore } from "./shell-words.js";

/** The settings whose value is a command line git runs (through the shell; a program's path for `*.path`). */
const COMMAND_KEY =
  /^(core\.(fsmonitor|sshcommand|pager|askpass|gitproxy|alternaterefscommand)|credential\.(.+\.)?helper|diff\.external|diff\..+\.(command|textconv)|merge\..+\.driver|filter\..+\.(clean|smudge|process)|pager\..+|gpg\.(.+\.)?program|gpg\.ssh\.defaultkeycommand|(difftool|mergetool|man|browser)\..+\.(cmd|path)|interactive\.difffilter|sendemail\.(.+\.)?(sendmailcmd|smtpserver|tocmd|cccmd|headercmd)|remote\..+\.(uploadpack|receivepack)|uploadpack\.packobjectshook|submodule\..+\.update|trailer\..+\.(cmd|command)|imap\.tunnel|instaweb\.httpd)$/i;

/** Settings that make git read another config file, which could set any of them. */
const INCLUDE_KEY = /^include(if\..+)?\.path$/i;

/** The variables naming a command line git runs through the shell (GIT_SSH: a program's path). */
const COMMAND_VARIABLES = ["GIT_SSH_COMMAND", "GIT_PAGER", "PAGER", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND"];

/**
 * The options of git's subcommands that name a command git runs through the shell, with words of
 * its own put after it (the repository, the files, the patch: INPUT): upload-pack and receive-pack
 * (and their old name, --exec), archive's --exec (run for --remote), grep's pager (-O, only
 * attached: without one, the configured pager), difftool's --extcmd (given the two files),
 * instaweb's web server (given its config) and send-email's commands. Only these are declared: another option's value is never taken for one of
 * these, and one of these is at worst read where git would take it for another's value.
 */
const COMMAND_OPTIONS: Record<string, Syntax> = {
  "ls-remote": { long: { "upload-pack": ":", exec: ":" } },
  fetch: { long: { "upload-pack": ":" } },
  pull: { long: { "upload-pack": ":" } },
  clone: { short: "u:", long: { "upload-pack": "u" } },
  "fetch-pack": { long: { "upload-pack": ":", exec: ":" } },
  push: { long: { "receive-pack": ":", exec: ":" } },
  "send-pack": { long: { "receive-pack": ":", exec: ":" } },
  archive: { long: { exec: ":" } },
  grep: { short: "O::", long: { "open-files-in-pager": "O" } },
  difftool: { short: "x:", long: { extcmd: "x" } },
  instaweb: { short: "d:", long: { httpd: "d" } },
  "send-email": { long: { "sendmail-cmd": ":", "to-cmd": ":", "cc-cmd": ":", "header-cmd": ":" } },
};

/**
 * clone's options that take a value (shell-git-rules.ts reads what it writes by them): its `-c
 * key=value` settings are the new repository's, which the clone itself already runs by (a
 * `filter.<driver>.smudge` runs as it checks the files out).
 */
export const CLONE: Syntax = {
  short: "o:b:u:c:j:lsqvn",
  long: { origin: "o", branch: "b", "upload-pack": "u", config: "c", jobs: "j", reference: ":", "reference-if-able": ":", "separate-git-dir": ":", depth: ":", "shallow-since": ":", "shallow-exclude": ":", "server-option": ":", filter: ":", template: ":", "bundle-uri": ":", "ref-format": ":", bare: "", mirror: "" },
};

/** config's options (shell-git-rules.ts reads which file it writes by them). */
export const CONFIG: Syntax = {
  short: "f:el",
  long: { file: "f", global: "", system: "", local: "", worktree: "", blob: ":", type: ":", default: ":", comment: ":", edit: "e", list: "l", get: "", "get-all": "", "get-regexp": "", "get-urlmatch": "", "get-color": "", "get-colorbool": "", unset: "", "unset-all": "", add: "", "replace-all": "", "rename-section": "", "remove-section": "" },
};

/** init's options that take a value. */
export const INIT: Syntax = { short: "qb:", long: { bare: "", "initial-branch": "b", "separate-git-dir": ":", template: ":", "object-format": ":", "ref-format": ":", shared: "::" } };

/** A value that switches a setting on or off rather than naming a command (`core.fsmonitor=true`, `pager.log=false`). */
const SWITCH = /^(true|false|yes|no|on|off|1|0|)$/i;

/**
 * The commands this git invocation's own settings and environment name, as scripts to read, run
 * where git runs (and from the work tree's top, where git runs many of them); UNKNOWABLE where one
 * is not fixed by the text or a config file is included.
 */
export function gitCommandRuns(args: Array<string | undefined>, text: (at: number) => string | undefined, walk: Walk): Nested[] | typeof UNKNOWABLE {
  const given = givenSettings(args, walk);
  if (given === UNKNOWABLE) return UNKNOWABLE;
  const { settings, environment, cwd, index } = given;
  if (args[index] === "clone") {
    for (const value of readOptions(args.slice(index + 1), CLONE, 0, (at) => text(at + index + 1)).values("c")) {
      if (value === undefined) return UNKNOWABLE;
      settings.push(split(value));
    }
  }
  if (args[index] === "clone" || args[index] === "init") {
    // (`git -c "$x" clone`: a setting the text does not fix, which may be a template's.)
    if (args.slice(0, index).some((arg, at) => arg === "-c" && args[at + 1] === undefined) || givenHooksMayRun(args.slice(index), (at) => text(at + index), settings, environment, cwd, walk)) return UNKNOWABLE;
  }
  const scripts: string[] = [];
  const named = optionCommands(args.slice(index), (at) => text(at + index));
  if (named === UNKNOWABLE) return UNKNOWABLE;
  scripts.push(...named);
  // `git config core.fsmonitor ./w.sh`: the command a setting it saves names, run by a later git command.
  const configured = args[index] === "config" ? configuredCommands(args.slice(index + 1), (at) => text(at + index + 1)) : [];
  if (configured === UNKNOWABLE) return UNKNOWABLE;
  scripts.push(...configured);
  for (const [key, value] of settings) {
    if (INCLUDE_KEY.test(key) || /ext::/i.test(key) || (value !== undefined && /ext::/i.test(value))) return UNKNOWABLE; // (a URL rewritten to an `ext::` command)
    if (!COMMAND_KEY.test(key)) continue;
    if (value === undefined) return UNKNOWABLE;
    const script = commandOf(key.toLowerCase(), value);
    if (script !== undefined) scripts.push(script);
  }
  // `--exec-path=DIR`, GIT_EXEC_PATH=DIR: git runs its own commands that are programs from there,
  // and puts it first on the PATH of every program it starts (hooks, the pager).
  for (const path of [...given.execPaths, ...(Object.hasOwn(environment, "GIT_EXEC_PATH") ? [environment.GIT_EXEC_PATH] : [])]) if (execPathRuns(path, cwd, walk)) return UNKNOWABLE;
  // A config file the command has git read (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM; not /dev/null,
  // which reads none), or a HOME or XDG_CONFIG_HOME the text does not fix, whose user config is
  // unknown: as an included file, it could set any of these (`GIT_CONFIG_GLOBAL=x.cfg git status`
  // runs its core.fsmonitor).
  for (const name of ["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"]) if (Object.hasOwn(environment, name) && !["", "/dev/null"].includes(environment[name] ?? "?")) return UNKNOWABLE;
  if (["HOME", "XDG_CONFIG_HOME"].some((name) => Object.hasOwn(environment, name) && environment[name] === undefined)) return UNKNOWABLE;
  for (const name of [...COMMAND_VARIABLES, "GIT_SSH"]) {
    if (!Object.hasOwn(environment, name)) continue;
    const value = environment[name];
    if (value === undefined) return UNKNOWABLE;
    if (value.trim() !== "") scripts.push(name === "GIT_SSH" ? shellQuoted(value) : value);
  }
  // `ext::cmd arg…` (a URL to clone, fetch or push): git runs cmd with its arguments, no shell between.
  const extAllowed = settings.some(([key, value]) => /^protocol\.(ext\.)?allow$/i.test(key) && value !== "never") || /(^|:)ext(:|$)/.test(environment.GIT_ALLOW_PROTOCOL ?? "");
  for (const arg of args.slice(index)) {
    if (arg === undefined) {
      if (extAllowed) return UNKNOWABLE; // a URL the text does not fix could be an `ext::` one
      continue;
    }
    if (!arg.startsWith("ext::")) continue;
    const words = extWords(arg.slice(5));
    if (words === undefined) return UNKNOWABLE;
    scripts.push(words.map(shellQuoted).join(" "));
  }
  if (scripts.length === 0) return [];
  const top = cwd === undefined ? undefined : workTreeOf(cwd, undefined, walk.environment);
  const places = [...new Set([cwd, ...(top !== undefined && top !== "" && top !== cwd ? [top] : [])])];
  return places.flatMap((place) => scripts.map((script) => ({ script, cwd: place, bound: new Map() })));
}

/**
 * The settings a git invocation gives itself (`-c key=value`, `--config-env`, GIT_CONFIG_PARAMETERS
 * and GIT_CONFIG_COUNT's pairs; a value undefined where the text does not fix it), the variables
 * the command sets, where git runs after its `-C`, and where its subcommand is; UNKNOWABLE where the
 * text does not fix which settings they are.
 */
export function givenSettings(
  args: Array<string | undefined>,
  walk: Walk,
): { settings: Array<[string, string | undefined]>; environment: Record<string, string | undefined>; cwd: string | undefined; index: number; execPaths: string[] } | typeof UNKNOWABLE {
  // The variables the command sets: what the hook's own environment has already is the user's (an
  // editor's GIT_ASKPASS script), not the agent's to choose.
  const environment = Object.fromEntries(Object.entries(walk.environment).filter(([name, value]) => value !== process.env[name] || !Object.hasOwn(process.env, name)));
  const settings: Array<[string, string | undefined]> = [];
  const execPaths: string[] = [];
  let cwd = walk.cwd;
  let index = 0;
  for (; index < args.length && args[index]?.startsWith("-"); index++) {
    const option = args[index] as string;
    const value = args[index + 1];
    if (option === "-C") cwd = physicalDirectoryAt(cwd, value);
    if (option.startsWith("--exec-path=")) execPaths.push(option.slice("--exec-path=".length));
    if (option === "-c" && value !== undefined) settings.push(split(value));
    if (option === "--config-env" || option.startsWith("--config-env=")) {
      const given = option.includes("=") ? option.slice(option.indexOf("=") + 1) : value;
      if (given === undefined) return UNKNOWABLE;
      const [key, variable] = split(given);
      settings.push([key, variable === undefined ? undefined : walk.environment[variable]]);
    }
    if (["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"].includes(option)) index++;
  }
  // GIT_CONFIG_PARAMETERS (what an outer git's -c gives the git it runs) and GIT_CONFIG_COUNT's pairs.
  if (Object.hasOwn(environment, "GIT_CONFIG_PARAMETERS")) {
    const parameters = configParameters(environment.GIT_CONFIG_PARAMETERS);
    if (parameters === UNKNOWABLE) return UNKNOWABLE;
    settings.push(...parameters);
  }
  if (Object.hasOwn(environment, "GIT_CONFIG_COUNT")) {
    const count = Number(environment.GIT_CONFIG_COUNT);
    if (!Number.isInteger(count) || count < 0 || count > 1000) return UNKNOWABLE;
    for (let at = 0; at < count; at++) {
      const key = environment[`GIT_CONFIG_KEY_${at}`];
      if (key === undefined) return UNKNOWABLE;
      settings.push([key, environment[`GIT_CONFIG_VALUE_${at}`]]);
    }
  }
  return { settings, environment, cwd, index, execPaths };
}

/** git's own directory of programs (`git --exec-path`), asked once. */
let ownExecPath: string | undefined;

/**
 * Whether git, given DIR as its exec path (`--exec-path=DIR`, GIT_EXEC_PATH), may run a program
 * from it the hook cannot read: a path the text does not fix, one the command writes under first,
 * one that holds a program (not git's own directory); relative, from where git runs and from the
 * work tree's top (where git moves to for many commands). Empty, the default: none.
 */
function execPathRuns(path: string | undefined, cwd: string | undefined, walk: Walk): boolean {
  if (path === undefined) return true;
  if (path === "") return false;
  const top = cwd === undefined ? undefined : workTreeOf(cwd, undefined, walk.environment);
  const places = isAbsolute(path) ? [path] : [cwd, ...(top !== undefined && top !== "" ? [top] : [])].map((place) => directoryAt(place, path));
  if (ownExecPath === undefined) {
    const { spawnSync } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
    const { GIT_EXEC_PATH: _, ...environment } = process.env;
    ownExecPath = spawnSync("git", ["--exec-path"], { encoding: "utf8", env: environment, timeout: 5000 }).stdout?.trim() ?? "";
  }
  return places.some((directory) => {
    if (directory === undefined || [...walk.found].some((written) => written === directory || written.startsWith(`${directory}/`) || written.startsWith(UNKNOWN_MARK))) return true;
    if (ownExecPath !== "" && realOf(directory) === realOf(ownExecPath as string)) return false;
    try {
      return readdirSync(directory).some((name) => runnableHook(join(directory, name)));
    } catch (error) {
      return (error as NodeJS.ErrnoException).code !== "ENOENT" && (error as NodeJS.ErrnoException).code !== "ENOTDIR";
    }
  });
}

/** A path with its links followed, or itself where it is not there. */
function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Whether a repository `git init` or `git clone` makes gets hooks the command gives it, which the
 * clone runs (post-checkout, as it checks the files out) and later commands run: git copies the
 * template directory (`--template`, GIT_TEMPLATE_DIR, `init.templateDir`; the user's own config
 * and environment aside) into the new repository, its hooks and its config too, and a clone runs
 * the hooks of a `core.hooksPath` its settings give. Judged as any file: a directory the text does
 * not fix, one the command writes first, a template holding a hook (not git's `*.sample` ones) or a
 * config (which may name commands or hooks of its own), a hooks path holding a hook, or a relative
 * one (the clone's work tree's, which the clone fills). A template not there copies nothing.
 */
function givenHooksMayRun(rest: Array<string | undefined>, text: (at: number) => string | undefined, settings: Array<[string, string | undefined]>, environment: Record<string, string | undefined>, cwd: string | undefined, walk: Walk): boolean {
  const reading = readOptions(rest, rest[0] === "clone" ? CLONE : INIT, 1, text);
  // Config files the command chooses (HOME's .gitconfig, GIT_CONFIG_GLOBAL, XDG_CONFIG_HOME's
  // git/config) are unread: any may name a template or a hooks path, so any may run a hook.
  if (["HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG"].some((name) => Object.hasOwn(environment, name))) return true;
  const configured = (key: string) => settings.filter(([name]) => name.toLowerCase() === key).map(([, value]) => value);
  // (A config path's `~/` is the home directory, as git reads one; an option's or a variable's is a name like any.)
  const home = (value: string | undefined) => (value?.startsWith("~/") ? (walk.home.startsWith("/") ? join(walk.home, value.slice(2)) : undefined) : value);
  const templates = [...reading.values("template"), ...(Object.hasOwn(environment, "GIT_TEMPLATE_DIR") ? [environment.GIT_TEMPLATE_DIR] : []), ...configured("init.templatedir").map(home)];
  const hookPaths = rest[0] === "clone" ? configured("core.hookspath").map(home) : [];
  // (A file the command writes there first, or a glob or name unknown that may be one of these.)
  const changed = (directory: string, files: string[]) => [...walk.found].some((path) => !path.startsWith("\0") && (path === directory || path.startsWith(`${directory}/`))) || files.some((file) => writtenBefore(walk, join(directory, file)));
  const hooksIn = (directory: string) => {
    try {
      return readdirSync(directory).some((name) => !name.endsWith(".sample"));
    } catch (error) {
      return (error as NodeJS.ErrnoException).code !== "ENOENT" && (error as NodeJS.ErrnoException).code !== "ENOTDIR";
    }
  };
  for (const template of templates) {
    if (template === "") continue; // (`--template=`: none copied)
    const directory = directoryAt(cwd, template);
    if (directory === undefined || changed(directory, ["hooks/post-checkout", "config"]) || hooksIn(join(directory, "hooks")) || exists(join(directory, "config"))) return true;
  }
  for (const path of hookPaths) {
    if (path === undefined || !isAbsolute(path)) return true;
    const directory = directoryAt(cwd, path) as string;
    if (changed(directory, ["post-checkout"]) || hooksIn(directory)) return true;
  }
  return false;
}

/**
 * What a `git config` invocation saves (its words after `config`): the setting it gives a value
 * (`key value`, `--add`, `--replace-all`, git 2.46's `set`), its key and value undefined where the
 * text does not fix them, with the key's text (a HOLE where it does not fix it); or, with
 * `section`, the name a section is renamed to (`--rename-section old new`). Undefined for one that
 * reads, unsets, removes or edits.
 */
export function configWrite(rest: Array<string | undefined>, text: (at: number) => string | undefined): { name: string | undefined; text: string | undefined; value: string | undefined; section: boolean } | undefined {
  const reading = readOptions(rest, CONFIG, 0, text);
  const operand = (n: number) => reading.operands[n];
  const first = operand(0) === undefined ? undefined : rest[operand(0) as number];
  const verb = first !== undefined && /^(set|unset|edit|rename-section|remove-section|get|list)$/.test(first) ? first : undefined;
  if (reading.has("l", "e", "get", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool", "unset", "unset-all", "remove-section") || (verb !== undefined && verb !== "set" && verb !== "rename-section")) return undefined;
  const from = verb === undefined ? 0 : 1;
  const section = reading.has("rename-section") || verb === "rename-section";
  const keyAt = operand(from + (section ? 1 : 0));
  const valueAt = operand(from + 1);
  if (keyAt === undefined || (!section && valueAt === undefined)) return undefined;
  return { name: rest[keyAt], text: rest[keyAt] ?? text(keyAt), value: section ? undefined : rest[valueAt as number], section };
}

/** The sections whose settings may name a command git runs, another config file or a file git writes: COMMAND_KEY's, INCLUDE_KEY's, `url.*` (an `ext::` URL), `alias.*`, the editors, trace2's targets. */
const COMMAND_SECTIONS = ["core", "credential", "diff", "merge", "filter", "pager", "gpg", "difftool", "mergetool", "man", "browser", "interactive", "sendemail", "remote", "uploadpack", "submodule", "trailer", "include", "includeif", "url", "protocol", "alias", "sequence", "trace2", "imap", "instaweb"];

/** Whether a key the text does not fix whole (its text, with a HOLE where it does not) may be one of those sections' (`"core.$k"`, `"$k"`; not `"user.$k"`). */
function mayNameCommand(key: string | undefined): boolean {
  if (key === undefined) return true;
  const hole = key.search(/[\u0001\u0002]/);
  const fixed = (hole === -1 ? key : key.slice(0, hole)).toLowerCase();
  const dot = fixed.indexOf(".");
  return dot === -1 ? COMMAND_SECTIONS.some((section) => section.startsWith(fixed)) : COMMAND_SECTIONS.includes(fixed.slice(0, dot));
}

/**
 * The command a setting `git config` saves names, read as run where it is saved (any later git
 * command, in any session, may run it: `git config core.fsmonitor ./w.sh && git status`, `git
 * config core.pager 'rm f; less'`), as a `-c` setting's is; an editor (`core.editor`,
 * `sequence.editor`) given a file in temp space. UNKNOWABLE for an include (the file it names could
 * set any of them), an `ext::` URL, a value the text does not fix of such a key or of an alias
 * (`alias.x "$v"`), a key the text does not fix that may be one (`"core.$k"`), or a section renamed
 * to one of theirs. An alias's `!cmd` is read by the walk (shell-walk.ts); a plain one where it is used.
 */
function configuredCommands(rest: Array<string | undefined>, text: (at: number) => string | undefined): string[] | typeof UNKNOWABLE {
  const write = configWrite(rest, text);
  if (write === undefined) return [];
  const { name, value } = write;
  if (write.section) return mayNameCommand(name === undefined ? write.text : `${name}.`) ? UNKNOWABLE : [];
  if (name === undefined) return mayNameCommand(write.text) ? UNKNOWABLE : [];
  const key = name.toLowerCase();
  if (INCLUDE_KEY.test(key) || /ext::/i.test(key) || (value !== undefined && /ext::/i.test(value))) return UNKNOWABLE; // (a URL rewritten to an `ext::` command)
  const editor = /^(core|sequence)\.editor$/.test(key);
  if (!editor && !key.startsWith("alias.") && !COMMAND_KEY.test(key)) return [];
  if (value === undefined) return UNKNOWABLE;
  if (key.startsWith("alias.")) return [];
  if (editor) return value.trim() === "" ? [] : [editorRun(value)];
  const script = commandOf(key, value);
  return script === undefined ? [] : [script];
}

/** The commands a subcommand's options name (COMMAND_OPTIONS), each with a word the text does not fix after it; UNKNOWABLE for one the text does not fix. */
function optionCommands(words: Array<string | undefined>, text: (at: number) => string | undefined): string[] | typeof UNKNOWABLE {
  const sub = words[0];
  const syntax = sub === undefined || !Object.hasOwn(COMMAND_OPTIONS, sub) ? undefined : COMMAND_OPTIONS[sub];
  if (syntax === undefined) return [];
  const reading = readOptions(words, syntax, 1, text);
  const keys = [...(syntax.short ?? "").replace(/:/g, ""), ...Object.entries(syntax.long ?? {}).flatMap(([name, letter]) => (letter === ":" ? [name] : []))];
  const scripts: string[] = [];
  for (const key of keys) {
    for (const { value, at } of reading.occurrences(key)) {
      // (`-O` alone: the configured pager; a value missing at the end: git stops.)
      if (value === undefined && (at === undefined || at >= words.length)) continue;
      if (value === undefined) return UNKNOWABLE;
      if (value.trim() !== "") scripts.push(`${value} ${INPUT}`);
    }
  }
  return scripts;
}

/**
 * Whether a word the text does not fix whole (`text`, with a HOLE where it does not) gives one of a
 * subcommand's command options its value (`-O"$pager"`, `--upload-pack="$x"`), or could be one (`-"$x"`,
 * `--open-files-in-pager"$p"`).
 */
export function unfixedCommandOption(sub: string | undefined, text: string | undefined): boolean {
  const syntax = sub === undefined || !Object.hasOwn(COMMAND_OPTIONS, sub) ? undefined : COMMAND_OPTIONS[sub];
  if (syntax === undefined || text === undefined || !text.startsWith("-")) return false;
  const fixed = text.includes(HOLE) ? text.slice(0, text.indexOf(HOLE)) : text;
  if (fixed === "-" || fixed === "--") return true;
  if (fixed.startsWith("--")) {
    // (Before an `=`, the name; with none, the rest of the name or `=value` may be in what the text does not fix: `--open-files-in-pager"$p"`.)
    const name = fixed.slice(2).split("=")[0] as string;
    return (fixed.includes("=") || text.includes(HOLE)) && Object.keys(syntax.long ?? {}).some((long) => long.startsWith(name));
  }
  // A cluster, read letter by letter: a command option's letter gives it its value; another's that
  // takes a value ends the cluster (`-e"$x"`: a pattern); past flags alone, the part the text does
  // not fix may start with one (`-n"$x"` may be `-nO'cmd'`).
  const commands = (syntax.short ?? "").replace(/:/g, "");
  if (commands === "") return false;
  for (const letter of fixed.slice(1)) {
    if (commands.includes(letter)) return true;
    if ((CLUSTER_VALUED[sub as string] ?? "").includes(letter)) return false;
  }
  return text.includes(HOLE);
}

/** The other short options of the subcommands with a command option of one letter that take a value, attached or the next word: a cluster ends at one. */
const CLUSTER_VALUED: Record<string, string> = { grep: "efABCm", clone: "objc", difftool: "t", instaweb: "mpb" };

/** `key=value` as git's -c takes it; no `=`: the key alone, true. */
function split(setting: string): [string, string | undefined] {
  const at = setting.indexOf("=");
  return at === -1 ? [setting, "true"] : [setting.slice(0, at), setting.slice(at + 1)];
}

/** A setting's command line, as a script: `!cmd` is cmd; a helper named by its name (and its options) is git's `credential-<name>`, given the action; a switch is none. */
function commandOf(key: string, value: string): string | undefined {
  if (SWITCH.test(value.trim()) && (key === "core.fsmonitor" || key.startsWith("pager."))) return undefined;
  if (key.startsWith("submodule.")) return value.trimStart().startsWith("!") ? value.trimStart().slice(1) : undefined; // (checkout, rebase, merge, none)
  if (value.trimStart().startsWith("!")) return value.trimStart().slice(1);
  // (git runs `git credential-<helper> <action>` through the shell: `store --file=f` is credential-store's own option.)
  if (/^credential\./.test(key) && /^[^\s/]+(\s|$)/.test(value.trim())) return `git credential-${value.trim()} ${INPUT}`;
  if (/\.path$/.test(key)) return shellQuoted(value);
  return value.trim() === "" ? undefined : value;
}

/** GIT_CONFIG_PARAMETERS' pairs (`'key'='value' 'key2'='value2'`, or the older `'key=value'`); UNKNOWABLE where the text does not fix them. */
function configParameters(text: string | undefined): Array<[string, string | undefined]> | typeof UNKNOWABLE {
  if (text === undefined || text.includes("\\'")) return UNKNOWABLE;
  const pairs: Array<[string, string | undefined]> = [];
  const rest = text.replace(/'([^']*)'(?:=('([^']*)'|))?/g, (_, key: string, assigned?: string, value?: string) => {
    pairs.push(assigned === undefined ? split(key) : [key, value ?? ""]);
    return "";
  });
  return rest.trim() === "" ? pairs : UNKNOWABLE;
}

/** The words of an `ext::` command: split at spaces, `% ` a space, `%%` a percent, `%s`/`%S` the service; undefined for what the text does not fix. */
function extWords(command: string): string[] | undefined {
  const words: string[] = [];
  let word = "";
  for (let at = 0; at < command.length; at++) {
    const char = command[at] as string;
    if (char === " ") {
      if (word !== "") words.push(word);
      word = "";
    } else if (char === "%") {
      const next = command[++at];
      if (next === " " || next === "%") word += next;
      else if (next === "s") word += "upload-pack";
      else if (next === "S") word += "git-upload-pack";
      else return undefined; // %G, %V: what git puts in from the request
    } else word += char;
  }
  if (word !== "") words.push(word);
  return words.length === 0 ? undefined : words;
}
