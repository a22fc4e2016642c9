// The tools a pre-commit hook runs over the files a commit stages: lint-staged, pre-commit and lefthook.
//
// lint-staged (most often run by a pre-commit hook: `npx lint-staged`), read as what it runs: the
// commands its config gives each pattern, with the staged files the pattern matches as their
// arguments (`"*.ts": "prettier --write"` is `prettier --write a.ts b.ts`), for the walk to judge
// as it judges them typed. As lint-staged does it: each file goes to the nearest config above it
// (package.json's "lint-staged", .lintstagedrc in JSON or YAML, tracked anywhere in the repository
// or above where it runs), a pattern without a slash matches a name at any depth, commands run in
// the config's directory. The files are the ones staged now, and where the command stages more
// before the commit (`git add -A && git commit`, `git commit -a`) every changed or new file too. A
// config in JavaScript or TypeScript, a command given as a function, a YAML file the hook cannot
// read: every such file under it could be written. With --hide-unstaged, every file with unstaged
// changes is written twice (stashed, then put back).
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { createRequire } from "node:module";
import { picomatch } from "../targets/picomatch.js";
import { guessedArguments, type Reading, readOptions, type Syntax } from "./shell-options.js";
import type { Nested } from "./shell-runners.js";
import { anyUnder, readText, shellQuoted as quote, UNKNOWABLE, type Walk } from "./shell-words.js";
import { readYaml, type YamlValue } from "./yaml-lite.js";

const OPTIONS: Syntax = { short: "c:p:", long: { config: "c", cwd: ":", concurrent: "p", diff: ":", "diff-filter": ":", "max-arg-length": ":" } };

const CONFIG_FILES = [
  "package.json",
  "package.yaml",
  "package.yml",
  ".lintstagedrc",
  ".lintstagedrc.json",
  ".lintstagedrc.yaml",
  ".lintstagedrc.yml",
  ".lintstagedrc.mjs",
  ".lintstagedrc.mts",
  ".lintstagedrc.js",
  ".lintstagedrc.ts",
  ".lintstagedrc.cjs",
  ".lintstagedrc.cts",
  "lint-staged.config.mjs",
  "lint-staged.config.mts",
  "lint-staged.config.js",
  "lint-staged.config.ts",
  "lint-staged.config.cjs",
  "lint-staged.config.cts",
];

/** A config read: each pattern's commands (undefined: a function, or a config the hook cannot read). */
type Config = Map<string, string[] | undefined> | undefined;

/** A command that stages more than is staged now, before lint-staged or pre-commit runs in the commit's hook. */
const STAGES_MORE = /\bgit\b[^;&|\n]*\s(add|stage)\b|\bgit\b[^;&|\n]*\scommit\b[^;&|\n]*\s(-[a-zA-Z]*a[a-zA-Z]*|--all)(?![\w-])/;

/**
 * What `lint-staged` runs, as scripts for the walk, with the files it would give them; the paths
 * written where a config cannot be read (`found`). UNKNOWABLE where the place is not fixed.
 */
export function lintStagedRuns(args: Array<string | undefined>, text: (at: number) => string | undefined, here: Walk, found: (path: string) => void): Nested[] | typeof UNKNOWABLE {
  const reading = readOptions(args, OPTIONS, 0, text);
  if (reading.has("h", "V") || args.includes("--help") || args.includes("--version")) return [];
  // A word that may be an option the text does not name (`-"$x"`, `--c"$x"`) may be --config or --cwd with any value.
  if (guessedArguments(args, OPTIONS, reading, text).some((guess) => unfixedValue(readOptions(guess.args, OPTIONS, 0, guess.text), "c", "cwd"))) return UNKNOWABLE;
  const cwd = reading.has("cwd") ? (reading.value("cwd") === undefined || here.cwd === undefined ? undefined : resolve(here.cwd, reading.value("cwd") as string)) : here.cwd;
  if (cwd === undefined) return UNKNOWABLE;
  const repository = repositoryAt(cwd);
  if (repository === undefined) return []; // outside a repository lint-staged fails
  const { top, git, list } = repository;
  // Staged now (as lint-staged asks: added, copied, modified, renamed); with a custom --diff, or
  // where the command stages more first, whatever is changed or new too.
  const files = staged(repository, reading.has("diff") || here.shared.stagesMore === true || STAGES_MORE.test(here.shared.command ?? ""));
  if (files.size === 0) return []; // "No staged files found": nothing runs, nothing is set aside
  // --hide-unstaged stashes every unstaged change while the tasks run, and puts it back after; by
  // default, those of the files that are partly staged (`git checkout --force` of each, whatever
  // the tasks do), unless --no-stash or --no-hide-partially-staged.
  const unstaged = list(git(["-C", top, "diff", "--name-only", "-z", "--no-ext-diff"]));
  if (args.includes("--hide-unstaged")) for (const file of unstaged) found(file);
  else if (!args.includes("--no-stash") && !args.includes("--no-hide-partially-staged")) for (const file of unstaged) if (files.has(file)) found(file);
  // Each file's config: the one --config names, else the nearest above it.
  const given = reading.has("c") ? reading.value("c") : undefined;
  if (reading.has("c") && given === undefined) return UNKNOWABLE;
  const configs = new Map<string, Config>(); // by directory
  if (given !== undefined) {
    const config = readConfig(resolve(cwd, given));
    if (config === null) return []; // no such config: lint-staged stops there
    configs.set(cwd, config);
  } else {
    // Tracked or not (but not ignored), anywhere in the repository; and above where it runs.
    // (Not inside node_modules, which a repository without a .gitignore does not ignore.)
    const listed = list(git(["-C", top, "ls-files", "-z", "-c", "-o", "--exclude-standard", "--", ...CONFIG_FILES.map((name) => `:(glob)**/${name}`)])).filter((path) => !path.includes("/node_modules/"));
    const candidates = [...listed, ...CONFIG_FILES.map((name) => join(cwd, name))];
    for (let at = dirname(cwd); at !== dirname(at) && `${at}/`.startsWith(`${top}/`); at = dirname(at)) candidates.push(...CONFIG_FILES.map((name) => join(at, name)));
    // In the order lint-staged prefers them in one directory: the first that holds a config.
    for (const name of CONFIG_FILES) {
      for (const path of candidates) {
        if (basename(path) !== name || configs.has(dirname(path))) continue;
        const config = readConfig(path);
        if (config !== null) configs.set(dirname(path), config);
      }
    }
  }
  const runs: Nested[] = [];
  const byConfig = new Map<string, string[]>();
  for (const file of files) {
    const owner = given !== undefined ? cwd : [...configs.keys()].filter((directory) => file.startsWith(`${directory}/`)).sort((a, b) => b.length - a.length)[0];
    if (owner === undefined) continue;
    const owned = byConfig.get(owner);
    if (owned === undefined) byConfig.set(owner, [file]);
    else owned.push(file);
  }
  for (const [directory, owned] of byConfig) {
    const config = configs.get(directory);
    if (config === undefined) {
      for (const file of owned) found(file);
      continue;
    }
    for (const [pattern, commands] of config) {
      // (lint-staged reads `*.{ts}` as `*.ts`: a brace of one alternative is its text.)
      const glob = pattern.replace(/\{([^{},]*)\}/g, (brace, inner: string) => (inner.includes("..") ? brace : inner));
      const matches = picomatch(glob, { dot: true, matchBase: !glob.includes("/") });
      const matched = owned.filter((file) => {
        const path = relative(directory, file);
        return (glob.startsWith("../") || !path.startsWith("..")) && matches(path);
      });
      if (matched.length === 0) continue;
      if (commands === undefined) {
        for (const file of matched) found(file);
        continue;
      }
      for (const command of commands) runs.push({ script: `${command} ${matched.map(quote).join(" ")}`, cwd: /^git(\s|$)/.test(command) ? top : directory, bound: new Map() });
    }
  }
  return runs;
}

/**
 * `pre-commit` (the framework: pre-commit.com), run by the git hook it installs or by hand: the files
 * its hooks may fix, which are every file it gives them (its config's `files` and `types` not read),
 * and every file with unstaged changes, which it stashes while they run and puts back after. `run`
 * (and the hook's `hook-impl`) gives the staged files, and where the command stages more first every
 * changed or new file; `--files` those; `--all-files` every file of the repository, as does a range
 * (`--from-ref`); `autoupdate` writes the config. UNKNOWABLE where the place is not fixed.
 */
export function preCommitWrites(args: Array<string | undefined>, text: (at: number) => string | undefined, here: Walk): string[] | typeof UNKNOWABLE {
  const reading = readOptions(args, PRE_COMMIT, 0, text);
  const sub = reading.operands.length === 0 ? "run" : args[reading.operands[0] as number];
  if (sub !== "run" && sub !== "hook-impl" && sub !== "try-repo" && sub !== "autoupdate" && sub !== "migrate-config") return [];
  if (here.cwd === undefined) return UNKNOWABLE;
  const repository = repositoryAt(here.cwd);
  if (repository === undefined) return [];
  // A config the text does not fix (`-c"$c"`, `-c "$c"`, or a word that may be -c: `-"$x"`): hooks
  // of its own, any command, which may write any file.
  const readings = [reading, ...guessedArguments(args, PRE_COMMIT, reading, text).map((guess) => readOptions(guess.args, PRE_COMMIT, 0, guess.text))];
  if (readings.some((each) => unfixedValue(each, "c"))) return UNKNOWABLE;
  // Files given in a word the text does not fix (`--files="$f"`): any file its hooks may fix.
  if (reading.occurrences("files").some(({ value, text }) => value === undefined && text !== undefined)) return UNKNOWABLE;
  const config = reading.has("c") ? reading.value("c") : ".pre-commit-config.yaml";
  if (sub === "autoupdate" || sub === "migrate-config") return config === undefined ? UNKNOWABLE : [resolve(repository.top, config)];
  const unstaged = repository.list(repository.git(["-C", repository.top, "diff", "--name-only", "-z", "--no-ext-diff"]));
  if (reading.has("a", "from-ref", "source", "to-ref", "origin")) return [anyUnder(repository.top), ...unstaged];
  if (args.some((arg) => arg === "--files" || arg?.startsWith("--files="))) {
    // `--files a b`: every word after it up to the next option (a hook's id goes before it: `run
    // black --files a.py`); `--files=a.py`: that one.
    const files: Array<string | undefined> = [];
    for (const [given, arg] of args.entries()) {
      if (arg?.startsWith("--files=")) files.push(arg.slice("--files=".length));
      if (arg === "--files") for (let at = given + 1; at < args.length && !args[at]?.startsWith("-"); at++) files.push(args[at]);
    }
    if (files.includes(undefined)) return UNKNOWABLE;
    return [...(files as string[]).map((file) => resolve(here.cwd as string, file)), ...unstaged];
  }
  // A hook of another stage than the commit's (pre-push): the files of the commits no remote has yet.
  const type = reading.value("hook-type") ?? reading.value("hook-stage");
  if (sub === "hook-impl" && type !== undefined && !["pre-commit", "pre-merge-commit", "prepare-commit-msg", "commit-msg"].includes(type)) {
    const pushed = repository.git(["-C", repository.top, "log", "--name-only", "--format=", "-z", "HEAD", "--not", "--remotes"]);
    return pushed === undefined ? [anyUnder(repository.top)] : [...repository.list(pushed.replace(/\n/g, "\0")), ...unstaged];
  }
  return [...staged(repository, here.shared.stagesMore === true || STAGES_MORE.test(here.shared.command ?? "")), ...unstaged];
}

/** Whether one of these options is given a value the text does not fix. */
function unfixedValue(reading: Reading, ...keys: string[]): boolean {
  return keys.some((key) => reading.occurrences(key).some(({ value }) => value === undefined));
}

const PRE_COMMIT: Syntax = { short: "c:a", long: { config: "c", "all-files": "a", files: ":", "from-ref": ":", "to-ref": ":", source: ":", origin: ":", "hook-stage": ":", "hook-type": ":", "hook-dir": ":", "commit-msg-filename": ":", "remote-name": ":", "remote-url": ":", "local-branch": ":", "remote-branch": ":", color: ":", "show-diff-on-failure": "", verbose: "" } };

interface Repository {
  top: string;
  git(args: string[]): string | undefined;
  /** git's `-z` list of paths, as absolute paths. */
  list(output: string | undefined): string[];
}

/** The repository around a directory, asked of git; undefined outside one. */
function repositoryAt(cwd: string): Repository | undefined {
  const git = (gitArgs: string[]): string | undefined => {
    const { spawnSync } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
    const result = spawnSync("git", gitArgs, { cwd, encoding: "utf8", timeout: 5000, maxBuffer: 64 * 1024 * 1024 });
    return result.status === 0 ? result.stdout : undefined;
  };
  const top = git(["rev-parse", "--show-toplevel"])?.trim();
  if (top === undefined || top === "") return undefined;
  return { top, git, list: (output) => (output ?? "").split("\0").filter((name) => name !== "").map((name) => join(top, name)) };
}

/** The files staged now (added, copied, modified, renamed); with `more`, every changed or new file git does not ignore too. */
function staged({ top, git, list }: Repository, more: boolean): Set<string> {
  const files = new Set(list(git(["-C", top, "diff", "--cached", "--name-only", "-z", "--diff-filter=ACMR"])));
  if (more) for (const file of list(git(["-C", top, "ls-files", "-z", "-m", "-o", "--exclude-standard"]))) files.add(file);
  return files;
}


/** A config file's patterns and commands: null where the file holds none (no file, a package.json without "lint-staged"). */
function readConfig(path: string): Config | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  const name = basename(path);
  if (/\.(m|c)?(j|t)s$/.test(name)) return undefined; // a program: what it returns is not read
  let value: unknown;
  if (name === "package.json") {
    try {
      value = (JSON.parse(text) as Record<string, unknown>)["lint-staged"];
    } catch {
      return null;
    }
    if (value === undefined) return null;
  } else if (/^package\.ya?ml$/.test(name)) {
    if (!/^lint-staged:/m.test(text)) return null;
    return undefined; // YAML under a key: not read
  } else {
    try {
      value = JSON.parse(text);
    } catch {
      value = simpleYaml(text);
    }
  }
  if (value === undefined || value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const config = new Map<string, string[] | undefined>();
  for (const [pattern, commands] of Object.entries(value as Record<string, unknown>)) {
    if (typeof commands === "string") config.set(pattern, [commands]);
    else if (Array.isArray(commands) && commands.every((command) => typeof command === "string")) config.set(pattern, commands as string[]);
    else config.set(pattern, undefined);
  }
  return config;
}

/**
 * The YAML lint-staged configs are written in: `"*.ts": prettier --write`, or a pattern followed by
 * `- command` lines. Undefined for anything else.
 */
function simpleYaml(text: string): Record<string, string[]> | undefined {
  const config: Record<string, string[]> = {};
  let current: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, "");
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const item = /^\s+-\s+(.+)$/.exec(line);
    if (item && current !== undefined) {
      (config[current] as string[]).push(unquoted(item[1] as string));
      continue;
    }
    const entry = /^(['"]?)(.+?)\1\s*:\s*(.*)$/.exec(line);
    if (!entry || /^\s/.test(line)) return undefined;
    current = entry[2] as string;
    const value = (entry[3] as string).trim();
    // `"*.ts": [prettier --write, "eslint --fix"]`: a list in brackets.
    const list = /^\[(.*)\]$/.exec(value)?.[1];
    config[current] = value === "" ? [] : list !== undefined ? list.split(",").map(unquoted).filter((command) => command !== "") : [unquoted(value)];
  }
  return config;
}

function unquoted(value: string): string {
  return value.trim().replace(/^(['"])(.*)\1$/, "$2");
}

/** lefthook's configs at the repository's top, in each format it reads: YAML ones are read here, the others make what it runs unknown. */
const LEFTHOOK_CONFIGS = ["", ".", ".config/"].flatMap((place) => ["lefthook", "lefthook-local"].flatMap((name) => ["yml", "yaml", "json", "jsonc", "toml"].map((format) => `${place}${name}.${format}`)));

/**
 * lefthook (`lefthook run HOOK`, as the git hooks it installs run it): the commands and scripts its
 * config (lefthook.yml and its other names, and lefthook-local.yml, at the repository's top) gives
 * that hook, read as what they run: `commands:` (each `run`, from its `root`), `jobs:` (and their
 * groups), `scripts:` (`.lefthook/HOOK/NAME`, by its `runner`). `{staged_files}` is the staged files
 * its `glob` matches (with `--all-files`, `{all_files}`, every tracked one; `--file`/`--files`, those
 * named); `{files}` (its `files:` command's), `{push_files}` and `{0}`-style arguments are parts the
 * text does not fix. A config it cannot read, a `lefthook.toml` or `.json`, `extends`/`remotes`:
 * UNKNOWABLE. The files with unstaged changes are stashed and put back around a pre-commit.
 */
export function lefthookRuns(args: Array<string | undefined>, here: Walk, found: (path: string) => void): Nested[] | typeof UNKNOWABLE {
  if (args[0] === undefined) return UNKNOWABLE;
  if (args[0] !== "run") return []; // install, add, version: its own files, not the project's sources
  const hook = args[1];
  if (hook === undefined || here.cwd === undefined) return UNKNOWABLE;
  const repository = repositoryAt(here.cwd);
  if (repository === undefined) return [];
  const { top } = repository;
  // Another config named by the environment, which this reader does not follow.
  if (here.environment.LEFTHOOK_CONFIG !== undefined && here.environment.LEFTHOOK_CONFIG !== "") return UNKNOWABLE;
  const configs: Record<string, YamlValue>[] = [];
  for (const name of LEFTHOOK_CONFIGS) {
    const path = join(top, name);
    if (!existsSync(path)) continue;
    if (!/\.ya?ml$/.test(name)) return UNKNOWABLE;
    const text = readText(path);
    const config = text === undefined ? undefined : readYaml(text);
    // Settings that send it to commands or scripts elsewhere: not followed.
    if (config === undefined || typeof config !== "object" || Array.isArray(config) || ["extends", "remotes", "remote", "source_dir", "source_dir_local", "rc"].some((key) => Object.hasOwn(config, key))) return UNKNOWABLE;
    configs.push(config);
  }
  const rest = args.slice(2);
  if (rest.includes(undefined)) return UNKNOWABLE;
  const given = (rest as string[]).flatMap((arg, at) => (arg.startsWith("--file=") ? [arg.slice(7)] : arg === "--file" ? [(rest[at + 1] as string | undefined) ?? ""] : arg.startsWith("--files=") ? arg.slice(8).split(",") : []));
  const files = given.length > 0 ? given.map((file) => resolve(here.cwd as string, file)) : [...staged(repository, here.shared.stagesMore === true || STAGES_MORE.test(here.shared.command ?? ""))];
  const all = rest.includes("--all-files") ? repository.list(repository.git(["-C", top, "ls-files", "-z"])) : undefined;
  const runs: Nested[] = [];
  const job = (entry: YamlValue, name: string | undefined, depth: number): boolean => {
    if (typeof entry !== "object" || Array.isArray(entry) || depth > 8) return false;
    const root = typeof entry.root === "string" ? join(top, entry.root) : top;
    const group = entry.group;
    if (group !== undefined) {
      const jobs = typeof group === "object" && !Array.isArray(group) ? group.jobs : undefined;
      return Array.isArray(jobs) && jobs.every((each) => job(each, undefined, depth + 1));
    }
    const glob = typeof entry.glob === "string" ? entry.glob : Array.isArray(entry.glob) ? `{${entry.glob.filter((item) => typeof item === "string").join(",")}}` : undefined;
    const matches = glob === undefined ? () => true : picomatch(glob, { dot: true, matchBase: !glob.includes("/") });
    const pick = (list: string[]) => list.filter((file) => `${file}/`.startsWith(`${root}/`) && matches(relative(top, file))).map((file) => quote(relative(root, file) || "."));
    const script = typeof entry.script === "string" ? entry.script : name;
    if (typeof entry.run === "string") {
      const chosen = pick(all ?? files);
      // A command over files none of which it takes is skipped.
      if (/\{(staged|all)_files\}/.test(entry.run) && chosen.length === 0) return true;
      const line = entry.run
        .replace(/\{staged_files\}|\{all_files\}/g, chosen.join(" "))
        .replace(/\{files\}|\{push_files\}|\{\d+\}|\{lefthook_job_name\}|\{[\w-]+\}/g, '"$__lefthook_value"');
      runs.push({ script: line, cwd: root });
      return true;
    }
    if (script !== undefined && (typeof entry.runner === "string" || "runner" in entry || typeof entry.script === "string")) {
      // From .lefthook/HOOK/ or the local .lefthook-local/HOOK/, whichever holds it (both read where both do).
      const paths = [".lefthook", ".lefthook-local"].map((place) => join(top, place, hook, script)).filter((path) => existsSync(path));
      if (paths.length === 0) return false;
      for (const path of paths) runs.push({ script: `${typeof entry.runner === "string" ? `${entry.runner} ` : ""}${quote(path)}`, cwd: top });
      return true;
    }
    return false;
  };
  for (const config of configs) {
    const section = config[hook];
    if (section === undefined) continue;
    if (typeof section !== "object" || Array.isArray(section)) return UNKNOWABLE;
    for (const [key, value] of Object.entries(section)) {
      if (key === "commands" || key === "scripts") {
        if (typeof value !== "object" || Array.isArray(value)) return UNKNOWABLE;
        for (const [name, entry] of Object.entries(value)) if (!job(key === "scripts" ? { ...(entry as Record<string, YamlValue>), script: name } : entry, name, 0)) return UNKNOWABLE;
      } else if (key === "jobs") {
        if (!Array.isArray(value) || !value.every((entry) => job(entry, undefined, 0))) return UNKNOWABLE;
      }
    }
  }
  // Around a pre-commit, the unstaged changes of the files it runs on are stashed and put back.
  if (hook === "pre-commit" && runs.length > 0) for (const file of repository.list(repository.git(["-C", top, "diff", "--name-only", "-z", "--no-ext-diff"]))) found(file);
  return runs;
}
