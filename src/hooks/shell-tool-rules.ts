// Developer tools that rewrite the files they are given, or the project files they own, when the
// text says so: formatters and fixers (prettier --write, eslint --fix, black, ruff format, gofmt -w,
// rustfmt, clang-format -i, …), and package managers that rewrite their manifest and lock file
// (npm install x, cargo add, go mod tidy, …). A directory operand stands for everything under it;
// none, for where the tool starts (cwd, or the project root it finds). A glob the tool expands
// itself (`prettier --write "src/**/*.ts"`) is checked as a glob. Long options are read by whole
// name only (Syntax.exact): these tools take no abbreviations, and `--fix` is not `--fix-type`.
// What a tool's configuration adds (`fix = true` in ruff's) is not read.
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";
import { notTrackedByProject } from "./program-files.js";
import { setByCommand } from "./shell-key-rules.js";
import { goBuild } from "./shell-build-rules.js";
import { UNKNOWN_MARK } from "./payload.js";
import { guessedArguments, type Reading, readOptions, type Syntax, valuedLong } from "./shell-options.js";
import type { Nested } from "./shell-runners.js";
import { flagValues, globOf, lineAfter, lineOf, loadedFiles, optionFiles, type Rule, type RuleInput, type RunLine } from "./shell-rule.js";
import { isGlobText } from "../targets/overlap.js";
import { ancestorsHolding, anyIn, anyUnder, configIn, directoryAt, outputs, readText, shellQuoted, UNKNOWABLE, within } from "./shell-words.js";

/** The operands at `indexes` as the tool reads them: a quoted glob is a glob; none is `otherwise`. */
export function operandFiles(input: RuleInput, indexes: number[], otherwise: string[] = ["."]): string[] {
  const paths = input.values(indexes).map((path) => (!path.startsWith("\0") && isGlobText(path) ? globOf(path) : path));
  return indexes.length > 0 ? paths.filter((path) => path !== "-") : otherwise;
}

/**
 * A formatter or fixer: writes its operands (or `otherwise` with none) when `writes` says the
 * options ask it to, and the files `outputs` options name in any case (`eslint -o report.txt`).
 */
export function formatter(syntax: Syntax, writes: (has: (...keys: string[]) => boolean) => boolean, otherwise: string[] = ["."], outputs: string[] = []): Rule {
  return {
    syntax: { ...syntax, exact: true },
    writes: (input) => (asksHelp(input) ? [] : [...optionFiles(input, outputs), ...(writes(input.reading.has) ? operandFiles(input, input.reading.operands, otherwise) : [])]),
  };
}

/** `--help` among a tool's options (not after `--`): it prints its help and stops, writing nothing (`dart format --help`). */
export function asksHelp(input: RuleInput): boolean {
  return input.reading.has("--help");
}

/** Anything under the project: the nearest directory up holding one of `markers` (else where it runs). */
export const wholeProject = (markers: string[]) => (input: RuleInput): string[] => [anyUnder(projectRoot(input.walk.cwd, markers))];

/** Anything under a directory of the project (`name` under the nearest directory up holding one of `markers`, else where it runs). */
export const inProject =
  (name: string, markers: string[]) =>
  (input: RuleInput): string[] => {
    const root = projectRoot(input.walk.cwd, markers);
    return [anyUnder(root === undefined ? undefined : join(root, name))];
  };

/** The nearest directory from cwd up that holds one of `names` (a project's root), else cwd; undefined where cwd is unknown. */
export function projectRoot(cwd: string | undefined, names: string[]): string | undefined {
  return projectRoots(cwd, names)[0];
}

/**
 * Every directory from cwd up that holds one of `names`, nearest first (else cwd alone): a
 * workspace member's and the workspace's, whose lock file a member's install rewrites. Empty where
 * cwd is unknown.
 */
export function projectRoots(cwd: string | undefined, names: string[]): string[] {
  if (cwd === undefined) return [];
  const roots = ancestorsHolding(cwd, names);
  return roots.length > 0 ? roots : [cwd];
}

/** Lock files (and the like) at every root from cwd up: names in a place unknown where cwd is (`--prefix "$d"`, a cd the text does not fix). */
export function atRoots(cwd: string | undefined, manifests: string[], names: string[]): string[] {
  const roots = projectRoots(cwd, manifests);
  return roots.length === 0 ? names.map((name) => UNKNOWN_MARK + name) : roots.flatMap((root) => names.map((name) => join(root, name)));
}

/** Files of the project root (names in a place unknown where the root is). */
export function atRoot(root: string | undefined, names: string[]): string[] {
  return names.map((name) => (root === undefined ? UNKNOWN_MARK + name : join(root, name)));
}

/**
 * A subcommand tool (`ruff format`, `cargo fmt`): the first operand picks what its options mean
 * (after cargo's `+nightly`, which picks a toolchain).
 */
export function bySubcommand(syntax: Syntax, rules: Record<string, (input: RuleInput, rest: number[]) => string[]>): Rule {
  return {
    syntax: { ...syntax, exact: true },
    writes: (input) => {
      const [first, ...rest] = input.reading.operands.filter((at) => !input.args[at]?.startsWith("+"));
      const sub = first === undefined ? "" : (input.args[first] ?? "");
      return Object.hasOwn(rules, sub) && !asksHelp(input) ? (rules[sub] as (input: RuleInput, rest: number[]) => string[])(input, rest) : [];
    },
  };
}

/**
 * A rule of this file, with what more the subcommands `more` names write (its first operand, past
 * cargo's `+toolchain`, picks one); `--help` writes nothing: for the files that read more of a
 * tool's subcommands than this one (shell-lock-rules.ts, shell-dotnet-rules.ts, shell-pub-mix-rules.ts).
 */
export function withMore(rule: Rule, more: Record<string, (input: RuleInput, rest: number[]) => string[]>): Rule {
  return {
    ...rule, // (what else it runs: runsArguments, runsProgram, runsLines)
    writes: (input) => {
      const [first, ...rest] = input.reading.operands.filter((at) => !input.args[at]?.startsWith("+"));
      const sub = first === undefined ? "" : (input.args[first] ?? "");
      const extra = Object.hasOwn(more, sub) && !asksHelp(input) && !input.reading.has("h") ? (more[sub] as (input: RuleInput, rest: number[]) => string[])(input, rest) : [];
      return [...rule.writes(input), ...extra];
    },
  };
}

export const JS_MANIFEST = ["package.json"];

/** Each JavaScript package manager's lock files (yarn's Plug'n'Play files among them). */
export const JS_LOCKS: Record<string, string[]> = {
  npm: ["package-lock.json", "npm-shrinkwrap.json"],
  pnpm: ["pnpm-lock.yaml"],
  yarn: ["yarn.lock", ".pnp.cjs", ".pnp.loader.mjs"],
  bun: ["bun.lock", "bun.lockb"],
};

/** Each JavaScript package manager's own subcommands that rewrite the project (not a package's command to run). */
const PACKAGE_COMMANDS: Record<string, { install: string[]; change: string[]; other: string[] }> = {
  npm: {
    install: ["install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "it", "cit", "sit", "ic", "install-test", "install-clean", "install-ci-test", "ci", "clean-install", "dedupe", "ddp", "prune", "rebuild"],
    change: ["add", "uninstall", "un", "unlink", "remove", "rm", "r", "update", "up", "upgrade", "udpate", "version", "pkg", "init", "audit"],
    other: ["link", "ln", "patch", "shrinkwrap"],
  },
  pnpm: { install: ["install", "i", "dedupe", "prune", "import", "rebuild"], change: ["add", "remove", "rm", "uninstall", "un", "update", "up", "upgrade", "version", "pkg", "init", "audit"], other: ["link", "ln", "unlink", "patch", "patch-commit", "patch-remove"] },
  yarn: { install: ["", "install", "dedupe"], change: ["add", "remove", "up", "upgrade", "upgrade-interactive", "version", "init"], other: ["link", "unlink", "patch", "patch-commit", "workspace", "workspaces", "set", "policies"] },
  bun: { install: ["install", "i"], change: ["add", "a", "remove", "rm", "update", "init"], other: ["link", "unlink", "patch", "patch-commit"] },
};

/** The subcommands a package manager runs as its own, never as a package's command (`pnpm rm x` removes a package, `yarn patch x` is no patch(1)). */
export function packageCommands(manager: string): string[] {
  const commands = Object.hasOwn(PACKAGE_COMMANDS, manager) ? PACKAGE_COMMANDS[manager] : undefined;
  return commands === undefined ? [] : [...commands.install, ...commands.change, ...commands.other];
}

/** The subcommands after which a package manager runs the project's own install scripts (`postinstall`, `prepare`). */
export function installCommands(manager: string): string[] {
  const commands = Object.hasOwn(PACKAGE_COMMANDS, manager) ? PACKAGE_COMMANDS[manager] : undefined;
  return commands === undefined ? [] : [...commands.install, ...commands.change.filter((sub) => !["version", "pkg", "init", "audit"].includes(sub))];
}

/**
 * Each manager's options: `C` where it runs, `w`/`F` a workspace member named (npm's `-w`,
 * pnpm's `--filter`), `W` the workspace's root (pnpm's `-w`), `g` the machine's packages.
 */
const PACKAGE_OPTIONS: Record<string, Syntax> = {
  npm: { short: "C:w:", long: { prefix: "C", workspace: "w", registry: ":", tag: ":", global: "g", location: ":", loglevel: ":", "dry-run": "", help: "h" } },
  pnpm: { short: "C:F:w", long: { dir: "C", filter: "F", "workspace-root": "w", registry: ":", global: "g", "dry-run": "", help: "h" } },
  yarn: { long: { cwd: "C", registry: ":", global: "g", help: "h" }, short: "C:" },
  bun: { long: { cwd: "C", filter: "F", registry: ":", global: "g", "dry-run": "", help: "h" }, short: "C:F:" },
};

/**
 * What a JavaScript package manager rewrites: the manifest (when packages are named), its lock file,
 * node_modules; `own`: what its other commands write (`npm shrinkwrap`, `yarn set version`).
 */
function javascriptPackages(manager: string, own: Record<string, (input: RuleInput, rest: number[]) => string[]> = {}): Rule {
  const { install, change } = PACKAGE_COMMANDS[manager] as { install: string[]; change: string[] };
  const lock = JS_LOCKS[manager] as string[];
  const reads = (input: RuleInput, sub: string, rest: number[]) => {
    const operand = input.args[rest[0] ?? -1];
    if (input.reading.has("h", "dry-run")) return true;
    if (sub === "audit") return operand !== "fix" && !input.reading.has("--fix");
    // npm's and pnpm's print the version; yarn's asks for one (classic) or needs one, then writes it.
    if (sub === "version") return operand === undefined && manager !== "yarn";
    if (sub === "pkg") return !["set", "delete", "fix"].includes(operand ?? "");
    return false;
  };
  return bySubcommand(
    PACKAGE_OPTIONS[manager] as Syntax,
    Object.fromEntries([
      ...install.map((sub) => [sub, (input: RuleInput, rest: number[]) => (reads(input, sub, rest) ? [] : packageWrites(input, manager, lock, rest.length > 0))] as const),
      ...change.map((sub) => [sub, (input: RuleInput, rest: number[]) => (reads(input, sub, rest) ? [] : sub === "pkg" ? pkgWrites(input, manager, lock) : packageWrites(input, manager, lock, true, sub === "init"))] as const),
      ...Object.entries(own).map(([sub, writes]) => [sub, (input: RuleInput, rest: number[]) => (input.reading.has("h") ? [] : writes(input, rest))] as const),
    ]),
  );
}

/** npm pack's tarball (`name-version.tgz`): `--pack-destination`'s directory, or where it runs; none with `--dry-run`. */
function packWrites(input: RuleInput): string[] {
  if (input.args.includes("--dry-run")) return [];
  const at = input.args.indexOf("--pack-destination");
  const given = input.args.find((arg) => arg?.startsWith("--pack-destination=") === true)?.slice("--pack-destination=".length);
  const place = given !== undefined ? directoryAt(input.walk.cwd, given) : at !== -1 ? directoryAt(input.walk.cwd, input.args[at + 1]) : input.walk.cwd;
  return [place === undefined ? UNKNOWABLE : globOf(join(place, "*.tgz"))];
}

/**
 * `bun build`: its `--outfile` (a file), anything under its `--outdir`; with neither it prints the
 * bundle, but `--compile` writes the executable here, named after the entry.
 */
function bunBuild(input: RuleInput): string[] {
  const found: string[] = [];
  for (let at = 0; at < input.args.length; at++) {
    const arg = input.args[at];
    if (arg === undefined) continue;
    const name = /^--(outfile|outdir)(=|$)/.exec(arg)?.[1];
    if (name === undefined) continue;
    const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : input.args[++at];
    const path = value === undefined ? undefined : directoryAt(input.walk.cwd, value);
    found.push(name === "outdir" ? anyUnder(path) : (path ?? UNKNOWABLE));
  }
  if (found.length === 0 && input.args.includes("--compile")) found.push(anyIn(input.walk.cwd));
  return found;
}

/**
 * What an install by `manager` writes where a command of another tool runs it (`corepack use
 * pnpm@9`, `expo install x`): the manifest too when `manifest`, the lock files at every root up,
 * node_modules.
 */
export function installWrites(input: RuleInput, manager: string, manifest: boolean): string[] {
  return packageWrites(input, manager, JS_LOCKS[manager] ?? [], manifest);
}

/** `npm shrinkwrap`: package-lock.json made into npm-shrinkwrap.json (or a new one made): both lock files, no install. */
const npmShrinkwrap = (input: RuleInput) => packageWrites(input, "npm", JS_LOCKS.npm as string[], false).filter((path) => (JS_LOCKS.npm as string[]).some((name) => path.endsWith(name)));

/**
 * `yarn set version x` (berry): the release it pins, in package.json's packageManager, in
 * .yarn/releases/ and .yarnrc.yml's yarnPath; classic's `yarn policies set-version x`: .yarnrc and
 * .yarn/releases/. At the project's root: the nearest directory up with a yarn.lock, else a manifest.
 */
function yarnSetVersion(input: RuleInput, rest: number[]): string[] {
  const action = input.args[rest[0] ?? -1];
  const sub = input.args[input.reading.operands[0] ?? -1];
  if ((sub === "set" && action !== "version") || (sub === "policies" && action !== "set-version")) return [];
  const here = input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd;
  const root = (here === undefined ? undefined : ancestorsHolding(here, ["yarn.lock"])[0]) ?? projectRoot(here, JS_MANIFEST);
  const releases = anyUnder(root === undefined ? undefined : join(root, ".yarn", "releases"));
  return sub === "set" ? [...atRoot(root, [".yarnrc.yml", "package.json"]), releases] : [...atRoot(root, [".yarnrc"]), releases];
}

/**
 * The manifest where it runs (`-C`/`--prefix`/`--cwd`'s directory, else cwd up to the nearest),
 * when packages are named or changed; and at every root from there up (a workspace's too), the
 * lock file and node_modules. A workspace member named (`-w a`, `yarn workspace a`) is a
 * package.json in a place unknown.
 */
function packageWrites(input: RuleInput, manager: string, lock: string[], manifest: boolean, initializing = false): string[] {
  const { reading, walk } = input;
  if (reading.has("g") || reading.value("location") === "global") return []; // the machine's, not the project's
  const here = reading.has("C") ? directoryAt(walk.cwd, reading.value("C")) : walk.cwd;
  // pnpm -w: the workspace's root, the outermost directory with a manifest.
  const start = manager === "pnpm" && reading.has("w") ? projectRoots(here, JS_MANIFEST).at(-1) : here;
  // The directory named (`npm --prefix d`, `-C d`) or `init`'s is the project's, its manifest made
  // there if need be; the roots above it too, as a walk up from it finds them.
  const named = start !== undefined && (initializing || (reading.has("C") && manager === "npm"));
  const roots = named ? [...new Set([start, ...projectRoots(start, JS_MANIFEST)])] : projectRoots(start, JS_MANIFEST);
  const member = (manager === "npm" && reading.has("w")) || reading.has("F");
  // (A manifest not there yet is made by an install in the directory named.)
  const manifests = !manifest && !named ? [] : [...(member ? [`${UNKNOWN_MARK}package.json`] : []), ...atRoot(roots[0], JS_MANIFEST)];
  const modules = roots.length === 0 ? [`${UNKNOWN_MARK}node_modules/**`] : roots.map((root) => anyUnder(join(root, "node_modules")));
  const locks = named ? roots.flatMap((root) => lock.map((name) => join(root, name))) : atRoots(start, JS_MANIFEST, lock);
  return [...manifests, ...locks, ...modules];
}

/** `npm pkg set`, `delete`, `fix`: the manifest alone (no install runs); with `--workspaces`, every member's too. */
function pkgWrites(input: RuleInput, manager: string, lock: string[]): string[] {
  const manifests = packageWrites(input, manager, lock, true).filter((path) => path.endsWith("package.json"));
  return input.args.some((arg) => arg === "--workspaces" || arg === "-ws" || arg === "--ws" || arg === "--recursive" || arg === "-r") ? [...manifests, `${UNKNOWN_MARK}package.json`] : manifests;
}

const PRETTIER: Syntax = {
  short: "cwlu",
  long: {
    write: "w",
    check: "c",
    "list-different": "l",
    ...valuedLong(`config ignore-path plugin parser log-level loglevel cache-location cache-strategy stdin-filepath config-precedence end-of-line
      print-width tab-width trailing-comma arrow-parens prose-wrap quote-props html-whitespace-sensitivity embedded-language-formatting
      experimental-operator-position object-wrap cursor-offset range-start range-end plugin-search-dir`),
  },
};

const ESLINT: Syntax = {
  short: "c:f:o:",
  long: {
    config: "c",
    format: "f",
    "output-file": "o",
    ...valuedLong(`ext rule parser ignore-path ignore-pattern resolve-plugins-relative-to max-warnings cache-location cache-strategy plugin env
      global parser-options rulesdir fix-type stdin-filename report-unused-disable-directives-severity flag concurrency`),
  },
};

const BLACK: Syntax = {
  short: "l:t:c:W:S",
  long: { "line-length": "l", "target-version": "t", code: "c", workers: "W", ...valuedLong("config include exclude extend-exclude force-exclude stdin-filename python-cell-magics required-version enable-unstable-feature") },
};

const RUFF: Syntax = {
  short: "o:e",
  long: {
    "output-file": "o",
    ...valuedLong(`config line-length target-version select ignore extend-select extend-ignore per-file-ignores extend-per-file-ignores fixable
      unfixable extend-fixable exclude extend-exclude output-format cache-dir stdin-filename range dummy-variable-rgx`),
  },
};

/**
 * Whether ruff's configuration says `fix = true`: `--config`'s file, else the nearest `.ruff.toml`,
 * `ruff.toml` or pyproject.toml with a `[tool.ruff]` table up from where it runs (a place unknown:
 * it may).
 */
function ruffFixes(cwd: string | undefined, config: string | undefined): boolean {
  // A file's answer: undefined where it is not ruff's (no file; a pyproject.toml without [tool.ruff]).
  const fixes = (path: string, table: string | undefined): boolean | undefined => {
    const text = readText(path);
    if (text === undefined) return undefined;
    let inside = table === undefined; // ruff.toml: its top-level keys, up to the first table
    let seen = inside;
    for (const line of text.split(/\r?\n/)) {
      const header = /^\s*\[([^\]]+)\]\s*$/.exec(line)?.[1]?.trim();
      if (header !== undefined) {
        inside = header === table;
        seen ||= inside;
      } else if (inside && /^\s*fix\s*=\s*true\b/.test(line)) return true;
    }
    return seen ? false : undefined;
  };
  if (config !== undefined && !config.includes("=")) {
    const path = directoryAt(cwd, config);
    return path === undefined || (fixes(path, config.endsWith("pyproject.toml") ? "tool.ruff" : undefined) ?? false);
  }
  if (cwd === undefined) return true;
  for (const directory of ancestorsHolding(cwd, [".ruff.toml", "ruff.toml", "pyproject.toml"])) {
    for (const [name, table] of [[".ruff.toml", undefined], ["ruff.toml", undefined], ["pyproject.toml", "tool.ruff"]] as const) {
      const found = fixes(join(directory, name), table);
      if (found !== undefined) return found;
    }
  }
  return false;
}

const GO: Syntax = { short: "C:", long: valuedLong("modfile") };

/** The build flags of go's that take a value as the next word (`-o out`, `-exec cmd`). */
const GO_VALUED = /^--?(C|o|p|exec|toolexec|vettool|mod|modfile|overlay|pgo|tags|ldflags|gcflags|asmflags|gccgoflags|buildmode|buildvcs|compiler|installsuffix|pkgdir|coverpkg|covermode|coverprofile|cpu|run|skip|bench|count|timeout|parallel)$/;

const CARGO: Syntax = { short: "p:Z:", long: { package: "p", ...valuedLong("manifest-path config color target-dir path root output-path output-dir archive-file") } };

/**
 * The commands `cargo watch` runs at each change: `-x CMD` (`--exec`) cargo's CMD, `-s CMD`
 * (`--shell`) a shell line, and what follows `--` (cargo-watch's own; bacon and the like have rules
 * of their own or none).
 */
function cargoWatchLines(input: RuleInput): Array<string | undefined> {
  const { args } = input;
  const watch = input.reading.operands[0];
  if (watch === undefined || args[watch] !== "watch") return [];
  const lines: Array<string | undefined> = [];
  for (let at = watch + 1; at < args.length; at++) {
    const arg = args[at];
    if (arg === "--") return at + 1 < args.length ? [...lines, lineOf(args, at + 1)] : lines;
    const option = arg === undefined ? /^(-[xs]|--exec|--shell)=/.exec(input.text(at) ?? "")?.[1] : /^(-[xs]|--exec|--shell)(=|$)/.exec(arg)?.[1];
    if (option === undefined) continue;
    const value = arg === undefined ? undefined : arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++at];
    lines.push(value === undefined ? undefined : option === "-x" || option === "--exec" ? `cargo ${value}` : value);
  }
  return lines;
}

/** Where cargo starts: the directory of `--manifest-path`'s Cargo.toml, else cwd. */
const cargoStart = (input: RuleInput) => {
  if (!input.reading.has("manifest-path")) return input.walk.cwd;
  const manifest = input.reading.value("manifest-path"); // undefined: a path the text does not fix
  return manifest === undefined ? undefined : directoryAt(input.walk.cwd, dirname(manifest));
};
/** cargo add, remove: the package's Cargo.toml (a member `-p` names: one in a place unknown) and the lock file at every root up. */
const cargoManifest = (input: RuleInput) => [
  ...(input.reading.has("p") ? [`${UNKNOWN_MARK}Cargo.toml`] : []),
  ...atRoot(projectRoot(cargoStart(input), ["Cargo.toml"]), ["Cargo.toml"]),
  ...atRoots(cargoStart(input), ["Cargo.toml"], ["Cargo.lock"]),
];

/** cargo's build commands: the target directory (`--target-dir`, CARGO_TARGET_DIR, else the workspace's `target/`) and the lock file, which a build writes when it is missing or stale. */
const cargoBuild = (input: RuleInput) => cargoBuildFrom(input, cargoStart(input));

/** A cargo build of the workspace around `start` (trunk's, `cargo install --path`'s). */
export const cargoBuildFrom = (input: RuleInput, start: string | undefined) => {
  const root = projectRoots(start, ["Cargo.toml"]).at(-1);
  const given = input.reading.has("target-dir") ? input.reading.value("target-dir") : input.walk.environment.CARGO_TARGET_DIR;
  const target = input.reading.has("target-dir") || input.walk.environment.CARGO_TARGET_DIR !== undefined ? directoryAt(input.walk.cwd, given) : root === undefined ? undefined : join(root, "target");
  // Snapshot tests told to update (insta's INSTA_UPDATE=always|new|unseen, expect-test's UPDATE_EXPECT=1) rewrite snapshots and the sources holding inline ones.
  const insta = input.walk.environment.INSTA_UPDATE;
  const updates = (insta !== undefined && insta !== "no" && insta !== "auto") || (input.walk.environment.UPDATE_EXPECT ?? "") !== "";
  return [anyUnder(target), ...atRoots(start, ["Cargo.toml"], ["Cargo.lock"]), ...(updates ? [anyUnder(root)] : [])];
};

/**
 * cargo-llvm-cov: it builds into the target directory (its `llvm-cov-target/`, and `--html`'s
 * report in `llvm-cov/`), and writes `--output-path`'s file and anything under `--output-dir`;
 * `show-env` only prints.
 */
const cargoLlvmCov = (input: RuleInput, rest: number[]) => {
  if (input.args[rest[0] ?? -1] === "show-env") return [];
  return [...cargoBuild(input), ...optionFiles(input, ["output-path"]), ...optionFiles(input, ["output-dir"]).map((path) => (path.startsWith("\0") ? path : anyUnder(path)))];
};

/** cargo-tarpaulin's report files by `--out`'s formats (`Stdout` none). */
const TARPAULIN_REPORTS: Record<string, string> = { html: "tarpaulin-report.html", xml: "cobertura.xml", lcov: "lcov.info", json: "tarpaulin-report.json" };

/**
 * cargo-tarpaulin: its build in the target directory, and each `--out` (`-o`) format's report in
 * `--output-dir`, else the project's root; `--out` takes several formats (`--out Html Lcov`). A
 * format the text does not fix, or a tarpaulin.toml that may name others: any file there.
 */
const cargoTarpaulin = (input: RuleInput) => {
  const root = projectRoot(cargoStart(input), ["Cargo.toml"]);
  const place = input.reading.has("output-dir") ? directoryAt(input.walk.cwd, input.reading.value("output-dir")) : root;
  const formats: Array<string | undefined> = [];
  input.args.forEach((arg, at) => {
    if (arg?.startsWith("--out=") === true) formats.push(arg.slice("--out=".length));
    if (arg !== "--out" && arg !== "-o") return;
    for (let next = at + 1; next < input.args.length && !(input.args[next] ?? "").startsWith("-"); next++) formats.push(input.args[next]);
  });
  const configured = configIn(root, ["tarpaulin.toml", ".tarpaulin.toml"]) !== undefined;
  const reports = formats.flatMap((format) => (format === undefined ? [anyIn(place)] : format.toLowerCase() === "stdout" ? [] : Object.hasOwn(TARPAULIN_REPORTS, format.toLowerCase()) ? atRoot(place, [TARPAULIN_REPORTS[format.toLowerCase()] as string]) : [anyIn(place)]));
  return [...cargoBuild(input), ...reports, ...(configured ? [anyIn(place)] : [])];
};

/**
 * `cargo install --path DIR`: the build goes to that package's workspace's `target/` (cargo's
 * default with --path; from the registry or git it builds in a temporary directory), or
 * `--target-dir`'s; the installed binaries go under `--root`'s directory (else ~/.cargo, outside the project).
 */
const cargoInstall = (input: RuleInput) => {
  const root = input.reading.has("root") ? [anyUnder(directoryAt(input.walk.cwd, input.reading.value("root")))] : [];
  if (input.reading.has("path")) return [...cargoBuildFrom(input, directoryAt(input.walk.cwd, input.reading.value("path"))).filter((path) => !path.endsWith("Cargo.lock")), ...root];
  return [...(input.reading.has("target-dir") ? [anyUnder(directoryAt(input.walk.cwd, input.reading.value("target-dir")))] : []), ...root];
};

/** `cargo insta accept|review|test --accept|--review` (cargo-insta): snapshots and the sources holding inline ones, anywhere in the workspace. */
const cargoInsta = (input: RuleInput, rest: number[]) => {
  const action = input.args[rest[0] ?? -1] ?? "";
  const accepts = action === "accept" || action === "review" || (action === "test" && input.args.some((arg) => arg === "--accept" || arg === "--review" || arg?.startsWith("--unreferenced=delete") === true));
  return accepts ? [anyUnder(projectRoots(cargoStart(input), ["Cargo.toml"]).at(-1))] : [];
};

/**
 * The build tools of other languages, each writing its own places in the project (its root: the
 * nearest directory with its manifest, else where it runs): maven's and gradle's build
 * directories, composer's vendor/ and lock file, bundler's lock file, tox's and nox's
 * environments, dotnet's bin/ and obj/, pip's editable install, the lock files of pub, CocoaPods, swift
 * package and mix (cmake's build directory: shell-rules.ts; dotnet's templates, EF and tools:
 * shell-dotnet-rules.ts; Flutter's and mix's generators and builds: shell-pub-mix-rules.ts).
 */
const PROJECT_TOOLS: Record<string, Rule> = {
  // mvn (and ./mvnw) <goals>: every module's target/ (help, validate and the like only print).
  // (`exec:exec -Dexec.executable=prog -Dexec.args='…'`: the program it runs, read in turn: mavenExec.)
  mvn: { syntax: { short: "f:s:P:D:pl:", long: valuedLong("file settings activate-profiles projects define threads log-file") }, writes: (input) => mavenWrites(input), runsLines: mavenExec },
  mvnw: { syntax: { short: "f:s:P:D:pl:", long: valuedLong("file settings activate-profiles projects define threads log-file") }, writes: (input) => mavenWrites(input), runsLines: mavenExec },
  // gradle (and ./gradlew) <tasks>: every project's build/ and the root's .gradle/ (help, tasks and the like only print).
  // (`-I x.gradle`, `--init-script`: Groovy or Kotlin it runs first, which the hook does not read: unreadPrograms.)
  gradle: { syntax: { short: "p:b:c:x:I:", long: { "init-script": "I", ...valuedLong("project-dir build-file settings-file exclude-task console warning-mode update-locks write-verification-metadata") } }, writes: (input) => [...gradleWrites(input), ...unreadPrograms(input.walk.cwd, input.reading.values("I"))] },
  gradlew: { syntax: { short: "p:b:c:x:I:", long: { "init-script": "I", ...valuedLong("project-dir build-file settings-file exclude-task console warning-mode update-locks write-verification-metadata") } }, writes: (input) => [...gradleWrites(input), ...unreadPrograms(input.walk.cwd, input.reading.values("I"))] },
  // (`composer exec bin args` runs a package's command, vendor/bin/bin: read as that command.)
  composer: {
    // (From `-d dir`, `--working-dir=dir`.)
    runsLines: (input) => lineAfter(input, ["exec"]).map((line) => (line === undefined || !input.reading.has("d") ? line : { script: line, cwd: directoryAt(input.walk.cwd, input.reading.value("d")) })),
    ...bySubcommand(
      { short: "d:", long: { "working-dir": "d", ...valuedLong("format") } },
      Object.fromEntries(
        ["install", "i", "update", "u", "upgrade", "require", "r", "remove", "rm", "reinstall", "dump-autoload", "dumpautoload", "dump", "bump"].map((sub) => [
          sub,
          (input: RuleInput) => {
            if (input.args.includes("--dry-run")) return [];
            const root = projectRoot(input.reading.has("d") ? directoryAt(input.walk.cwd, input.reading.value("d")) : input.walk.cwd, ["composer.json"]);
            const manifest = ["require", "r", "remove", "rm", "bump"].includes(sub) || input.args.includes("--bump-after-update") ? ["composer.json"] : [];
            return [...atRoot(root, [...manifest, "composer.lock"]), anyUnder(root === undefined ? undefined : join(root, "vendor"))];
          },
        ]).concat([["normalize", (input: RuleInput) => (input.args.includes("--dry-run") ? [] : atRoot(projectRoot(input.reading.has("d") ? directoryAt(input.walk.cwd, input.reading.value("d")) : input.walk.cwd, ["composer.json"]), ["composer.json", "composer.lock"]))]]),
      ),
    ),
  },
  bundle: bySubcommand(
    { long: valuedLong("gemfile path jobs retry without with group") },
    Object.fromEntries(
      ["install", "update", "add", "remove", "lock", "binstubs"].map((sub) => [
        sub,
        (input: RuleInput) => {
          const gemfile = input.reading.has("gemfile") ? directoryAt(input.walk.cwd, input.reading.value("gemfile")) : undefined;
          const root = gemfile !== undefined ? dirname(gemfile) : input.reading.has("gemfile") ? undefined : projectRoot(input.walk.cwd, ["Gemfile", "gems.rb"]);
          if (sub === "binstubs") return [anyUnder(root === undefined ? undefined : join(root, "bin"))];
          return [...atRoot(root, ["add", "remove"].includes(sub) ? ["Gemfile", "Gemfile.lock"] : ["Gemfile.lock"]), ...(input.reading.has("path") ? [anyUnder(directoryAt(input.walk.cwd, input.reading.value("path")))] : [])];
        },
      ]),
    ),
  ),
  // (`tox exec -e py -- cmd` runs cmd in the environment: read in turn; `-x testenv.commands=…`
  // (`--override`), commands its configuration is not read for: any file.)
  tox: {
    syntax: { short: "e:c:x:", long: { override: "x", ...valuedLong("conf workdir root installpkg") } },
    runsLines: (input) => [...lineAfter(input, ["exec"]), ...(input.reading.values("x").some((setting) => setting === undefined || /^[^=]*command/.test(setting)) ? [undefined] : [])],
    writes: (input) => (input.args.some((arg) => ["-l", "--listenvs", "-a", "--listenvs-all", "--help", "-h", "--version", "--showconfig"].includes(arg ?? "")) ? [] : [anyUnder(input.reading.has("workdir") ? directoryAt(input.walk.cwd, input.reading.value("workdir")) : pythonRoot(input.walk.cwd, ".tox"))]),
  },
  nox: { syntax: { short: "s:f:k:t:", long: valuedLong("sessions noxfile keywords tags envdir python") }, writes: (input) => (input.args.some((arg) => ["-l", "--list", "--list-sessions", "--help", "-h", "--version"].includes(arg ?? "")) ? [] : [anyUnder(input.reading.has("envdir") ? directoryAt(input.walk.cwd, input.reading.value("envdir")) : pythonRoot(input.walk.cwd, ".nox"))]) },
  dotnet: bySubcommand(
    { long: {} },
    {
      ...Object.fromEntries(
        ["build", "test", "run", "publish", "pack", "restore", "clean", "watch", "add", "remove"].map((sub) => [
          sub,
          (input: RuleInput) => {
            const root = input.walk.cwd; // (the project or solution there)
            if (root === undefined) return [UNKNOWABLE];
            const projects = readdirNames(root).filter((name) => /\.(csproj|fsproj|vbproj)$/.test(name)).map((name) => join(root, name));
            // `dotnet add package x` rewrites the project file; the rest build into bin/ and obj/ of each project.
            if (sub === "add" || sub === "remove") return projects.length > 0 ? projects : [globOf(join(root, "*.*proj"))];
            return [globOf(join(root, "**", "bin", "**")), globOf(join(root, "**", "obj", "**"))];
          },
        ]),
      ),
      format: dotnetFormat,
    },
  ),
  // pip install -e PATH (an editable install): its metadata (*.egg-info) and build/ beside the project's sources.
  pip: pipRule(),
  pip3: pipRule(),
  // CocoaPods: Podfile.lock and Pods/ beside the Podfile.
  pod: bySubcommand(
    { long: valuedLong("project-directory") },
    Object.fromEntries(
      ["install", "update", "deintegrate"].map((sub) => [
        sub,
        (input: RuleInput) => {
          const root = projectRoot(input.reading.has("project-directory") ? directoryAt(input.walk.cwd, input.reading.value("project-directory")) : input.walk.cwd, ["Podfile"]);
          return [...atRoot(root, ["Podfile.lock"]), anyUnder(root === undefined ? undefined : join(root, "Pods"))];
        },
      ]),
    ),
  ),
  // flutter pub get, upgrade, add…: pubspec.lock (and pubspec.yaml for what changes it), .dart_tool/.
  flutter: bySubcommand({ short: "C:", long: { directory: "C" } }, { pub: pubWrites }),
  // swift package update, resolve: Package.resolved (add-dependency, add-target, add-product: Package.swift too).
  swift: bySubcommand({ long: valuedLong("package-path scratch-path") }, {
    // `swift format` (Swift 6's toolchain) is swift-format.
    format: (input) => swiftFormat(input, readOptions(input.args, { ...SWIFT_FORMAT, exact: true }, input.args.indexOf("format") + 1, input.text)),
    package: (input, rest) => {
      const action = input.args[rest[0] ?? -1] ?? "";
      if (!["update", "resolve", "add-dependency", "add-target", "add-product"].includes(action)) return [];
      const root = projectRoot(input.reading.has("package-path") ? directoryAt(input.walk.cwd, input.reading.value("package-path")) : input.walk.cwd, ["Package.swift"]);
      return atRoot(root, action.startsWith("add-") ? ["Package.swift", "Package.resolved"] : ["Package.resolved"]);
    },
  }),
};

/**
 * `dotnet format [whitespace|style|analyzers] [PROJECT|SOLUTION|FOLDER]`: the sources of the
 * project or solution it is given (of the one where it runs, with none): anything under its
 * directory; `--report`'s JSON report (a directory's format-report.json). `--verify-no-changes`
 * rewrites nothing. Its options take a value as `--x v`, `--x=v` or `--x:v`; `--include`,
 * `--exclude` and `--diagnostics` every word up to the next option.
 */
function dotnetFormat(input: RuleInput): string[] {
  const { args, walk } = input;
  const operands: number[] = [];
  let report: { value?: string; at?: number } | undefined;
  let verify = false;
  let at = args.indexOf("format") + 1;
  if (["whitespace", "style", "analyzers"].includes(args[at] ?? "")) at++;
  for (; at > 0 && at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined || !arg.startsWith("-")) {
      operands.push(at);
      continue;
    }
    const [name = "", attached] = arg.split(/[=:](.*)/s);
    if (["-h", "--help", "-?"].includes(name)) return [];
    if (name === "--verify-no-changes") verify = true;
    else if (name === "--report") report = attached !== undefined ? { value: attached } : { at: ++at };
    else if (["--severity", "--verbosity", "-v", "--binarylog"].includes(name) && attached === undefined) at++;
    else if (["--include", "--exclude", "--diagnostics", "--exclude-diagnostics"].includes(name) && attached === undefined) {
      while (at + 1 < args.length && !args[at + 1]?.startsWith("-")) at++;
    }
  }
  const reported = report === undefined ? [] : (report.value !== undefined ? [report.value] : input.values([report.at as number])).map((path) => (path.endsWith(".json") ? path : join(path, "format-report.json")));
  if (verify) return reported;
  const place = operands[0] === undefined ? walk.cwd : directoryAt(walk.cwd, args[operands[0]]);
  const project = place !== undefined && /\.(sln|slnx|slnf|csproj|fsproj|vbproj)$/.test(place) ? dirname(place) : place;
  return [anyUnder(project), ...reported];
}

/** swift-format's options (`swift-format format` and `lint`, and Swift 6's `swift format`). */
const SWIFT_FORMAT: Syntax = { short: "irps", long: { "in-place": "i", recursive: "r", parallel: "p", strict: "s", ...valuedLong("configuration assume-filename offsets lines enable-experimental-feature") } };

/**
 * swift-format [format] -i FILES: rewrites the files (a directory with `-r`: everything under it),
 * which it otherwise prints; `lint` and `dump-configuration` only read.
 */
function swiftFormat(input: RuleInput, reading: Reading): string[] {
  const [first, ...others] = reading.operands;
  const sub = first === undefined ? undefined : input.args[first];
  if (!reading.has("i") || reading.has("--help", "h") || ["lint", "dump-configuration", "help"].includes(sub ?? "")) return [];
  return operandFiles(input, sub === "format" ? others : reading.operands, []);
}

/** `dart pub` and `flutter pub`: get, upgrade, downgrade, add, remove rewrite pubspec.lock (add, remove and `upgrade --major-versions` pubspec.yaml too) and .dart_tool/. */
export function pubWrites(input: RuleInput, rest: number[]): string[] {
  const action = input.args[rest[0] ?? -1] ?? "";
  if (!["get", "upgrade", "downgrade", "add", "remove"].includes(action) || input.args.includes("--dry-run") || input.args.includes("-n")) return [];
  const root = projectRoot(input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd, ["pubspec.yaml"]);
  const manifest = ["add", "remove"].includes(action) || input.args.includes("--major-versions") ? ["pubspec.yaml"] : [];
  return [...atRoot(root, [...manifest, "pubspec.lock"]), anyUnder(root === undefined ? undefined : join(root, ".dart_tool"))];
}

/**
 * shadcn (`npx shadcn@latest add button`, `init`): what components.json sends it to: the
 * components, ui, lib and hooks aliases' directories (`@/` through tsconfig's or jsconfig's
 * `paths`, else the project's root), the Tailwind CSS file and config it edits, and the manifest,
 * lock files and node_modules of the dependencies it installs; `init` writes components.json too.
 * Without a components.json, `add` asks to make one: anything under the project.
 */
function shadcnWrites(input: RuleInput, init: boolean): string[] {
  const { reading, walk } = input;
  const cwd = reading.has("c") ? directoryAt(walk.cwd, reading.value("c")) : walk.cwd;
  const root = projectRoot(cwd, JS_MANIFEST);
  if (root === undefined) return [UNKNOWABLE];
  const installs = [join(root, "package.json"), ...["package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock", "bun.lockb"].map((name) => join(root, name)), anyUnder(join(root, "node_modules"))];
  const config = readText(join(root, "components.json"));
  if (config === undefined) return [anyUnder(root)];
  let parsed: { aliases?: Record<string, unknown>; tailwind?: { css?: unknown; config?: unknown } };
  try {
    parsed = JSON.parse(config) as typeof parsed;
  } catch {
    return [anyUnder(root)];
  }
  // `@/x` through the paths the project's tsconfig.json or jsconfig.json gives `@/*` (`./src/*`), else from the root.
  const paths = readText(join(root, "tsconfig.json")) ?? readText(join(root, "jsconfig.json")) ?? "";
  const at = /"@\/\*"\s*:\s*\[\s*"(?:\.\/)?([^"*]*)\*"/.exec(paths)?.[1] ?? "";
  const resolveAlias = (alias: unknown) => (typeof alias !== "string" ? undefined : alias.startsWith("@/") ? join(root, at, alias.slice(2)) : alias.startsWith("~/") ? join(root, at, alias.slice(2)) : directoryAt(root, alias));
  const aliases = ["components", "ui", "lib", "hooks", "utils"].map((key) => parsed.aliases?.[key]).filter((alias) => alias !== undefined);
  const places = aliases.map((alias) => {
    const place = resolveAlias(alias);
    // utils names a module (`@/lib/utils`): its file, by any extension.
    return place === undefined ? UNKNOWABLE : alias === parsed.aliases?.utils ? globOf(`${place}.*`) : anyUnder(place);
  });
  const tailwind = [parsed.tailwind?.css, parsed.tailwind?.config].flatMap((file) => (typeof file === "string" && file !== "" ? [join(root, file)] : []));
  const given = reading.has("p") ? [anyUnder(directoryAt(cwd, reading.value("p")))] : []; // `--path`: where the components go instead
  return [...(init ? [join(root, "components.json")] : []), ...given, ...(places.length > 0 ? places : [anyUnder(join(root, at, "components"))]), ...tailwind, ...installs];
}

function pipRule(): Rule {
  return bySubcommand({ short: "e:r:c:t:w:d:", long: { editable: "e", requirement: "r", constraint: "c", target: "t", "wheel-dir": "w", dest: "d", ...valuedLong("prefix root src index-url extra-index-url find-links python report log") } }, {
    // pip wheel's wheels (-w, else where it runs) and pip download's files (-d, else where it runs).
    wheel: (input) => [input.reading.has("w") ? anyUnder(directoryAt(input.walk.cwd, input.reading.value("w"))) : input.walk.cwd === undefined ? UNKNOWABLE : globOf(join(input.walk.cwd, "*.whl"))],
    download: (input) => [input.reading.has("d") ? anyUnder(directoryAt(input.walk.cwd, input.reading.value("d"))) : anyIn(input.walk.cwd)],
    install: (input) => {
      const { reading, walk } = input;
      const editable = reading.occurrences("e").map(({ value }) => value);
      // `-t`, `--prefix`, `--root`: the place it installs into; `--report` and `--log`: their files.
      const target = ["t", "prefix", "root"].flatMap((key) => (reading.has(key) ? [anyUnder(directoryAt(walk.cwd, reading.value(key)))] : []));
      return [
        ...optionFiles(input, ["report", "log"]).filter((path) => path !== "-"),
        ...target,
        ...editable.flatMap((value) => {
          if (value !== undefined && /^(git\+|https?:|svn\+|hg\+|bzr\+)/.test(value)) return [anyUnder(reading.has("src") ? directoryAt(walk.cwd, reading.value("src")) : walk.cwd === undefined ? undefined : join(walk.cwd, "src"))];
          const at = value === undefined ? undefined : directoryAt(walk.cwd, value.replace(/\[.*\]$/, ""));
          return at === undefined ? [UNKNOWABLE] : [globOf(join(at, "**", "*.egg-info", "**")), anyUnder(join(at, "build"))];
        }),
      ];
    },
  });
}

function mavenWrites(input: RuleInput): string[] {
  const goals = input.reading.operands.map((at) => input.args[at]);
  if (goals.length === 0 || goals.every((goal) => goal !== undefined && /^(help:|validate$|dependency:tree|dependency:list|versions:display)/.test(goal))) return [];
  const root = input.reading.has("f") ? mavenBase(input) : projectRoots(input.walk.cwd, ["pom.xml"]).at(-1);
  // (versions:set and the release plugin rewrite the poms themselves; formatters, sorters and
  // OpenRewrite the sources, by prefix or by their full coordinates: `com.diffplug.spotless:spotless-maven-plugin:apply`.)
  const poms = goals.some((goal) => goal === undefined || /^(versions:|release:|tidy:|rewrite:run|sortpom:)|:(apply|format|sort|fix)$/.test(goal)) ? [anyUnder(root)] : [];
  return [root === undefined ? UNKNOWABLE : globOf(join(root, "**", "target", "**")), ...poms];
}

/** The project's directory, `-f`'s (a pom file's directory, or the directory it names), else where mvn runs; undefined where the text does not fix it. */
function mavenBase(input: RuleInput): string | undefined {
  if (!input.reading.has("f")) return input.walk.cwd;
  const file = directoryAt(input.walk.cwd, input.reading.value("f"));
  return file === undefined ? undefined : file.endsWith(".xml") ? dirname(file) : file;
}

/**
 * The program exec-maven-plugin's `exec:exec` goal runs, given on the command line
 * (`-Dexec.executable=prog`, with `-Dexec.args` and `-Dexec.workingdir`): read as a command line
 * there, in the project's directory unless told (`mvn -f sub/pom.xml …` runs it in sub; one the
 * text does not fix: any file). One its pom configures is not read, as other tools'
 * configurations are not.
 */
function mavenExec(input: RuleInput): Array<string | RunLine | undefined> {
  const goals = input.reading.operands.map((at) => input.args[at]);
  if (!goals.some((goal) => goal === undefined || /^(org\.codehaus\.mojo:)?exec(-maven-plugin)?(:[^:]+)?:exec$/.test(goal))) return [];
  const defined = [...input.reading.values("D"), ...input.reading.values("define")];
  if (defined.some((definition) => definition === undefined)) return [undefined];
  const property = (name: string) => (defined as string[]).filter((definition) => definition.startsWith(`${name}=`)).at(-1)?.slice(name.length + 1);
  const executable = property("exec.executable");
  if (executable === undefined) return [];
  const line = [shellQuoted(executable), ...(property("exec.args") === undefined ? [] : [property("exec.args") as string])].join(" ");
  const directory = property("exec.workingdir");
  const base = mavenBase(input);
  return [{ script: line, cwd: directory === undefined ? base : directoryAt(base, directory) }];
}

function gradleWrites(input: RuleInput): string[] {
  const tasks = input.reading.operands.map((at) => input.args[at]);
  const root = input.reading.has("p") ? directoryAt(input.walk.cwd, input.reading.value("p")) : projectRoots(input.walk.cwd, ["settings.gradle", "settings.gradle.kts", "build.gradle", "build.gradle.kts"]).at(-1);
  // --write-locks and --update-locks write the dependency lock files (gradle.lockfile in each
  // project, or where the build script says), --write-verification-metadata
  // gradle/verification-metadata.xml: anything in the build, with any task, `dependencies` too.
  const locks = input.reading.has("--write-locks", "update-locks", "write-verification-metadata") ? [anyUnder(root)] : [];
  if (tasks.length === 0 || tasks.every((task) => task !== undefined && /^(help|tasks|projects|properties|dependencies|--version)$/.test(task))) return locks;
  // (spotlessApply, spotlessJavaApply, formatKotlin and the like format the sources themselves; a
  // `checkFormat` only checks.)
  const sources = tasks.some((task) => task === undefined || /(^|:)(spotless\w*Apply|\w*[Ff]ormat|format\w*|rewriteRun|licenseFormat\w*)$/.test(task) && !/(^|:)(check|verify|lint)\w*$/i.test(task)) ? [anyUnder(root)] : [];
  return root === undefined ? [UNKNOWABLE] : [globOf(join(root, "**", "build", "**")), anyUnder(join(root, ".gradle")), ...sources, ...locks];
}

/** A Python project's root (tox.ini, noxfile.py, pyproject.toml, setup.py or setup.cfg, from where it runs up) with `name` under it. */
function pythonRoot(cwd: string | undefined, name: string): string | undefined {
  const root = projectRoot(cwd, ["tox.ini", "noxfile.py", "pyproject.toml", "setup.py", "setup.cfg"]);
  return root === undefined ? undefined : join(root, name);
}

/** The names in a directory (none where it cannot be read or is unknown). */
function readdirNames(directory: string | undefined): string[] {
  if (directory === undefined) return [];
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}

/**
 * A Go-style formatter (gofmt, goimports, shfmt, terraform fmt): flags are whole words after one
 * or two dashes (`-ci` is one flag, not `-c -i`), `valued` ones take the next argument unless
 * written `-flag=value`. Writes its operands (or `otherwise`) when `writes` says so.
 */
function goFormatter(valued: string[], writes: (flags: Set<string>) => boolean, otherwise: (input: RuleInput) => string[] = () => []): Rule {
  return {
    syntax: { ordered: true },
    writes: (input) => {
      const { flags, operands } = goFlags(input.args, valued);
      if (!writes(flags)) return [];
      return operands.length > 0 ? operandFiles(input, operands) : otherwise(input);
    },
  };
}

/**
 * Go-style flags (also LLVM's and google-java-format's): the flags given (`-x=false` as `no-x`),
 * each valued one's values (attached, or the next argument's index), and the operands; after
 * `--`, the operands, or (`compiler`) another program's arguments, none of them ours.
 */
function goFlags(args: Array<string | undefined>, valued: string[], compiler = false): { flags: Set<string>; values: Map<string, Array<{ value?: string; at?: number }>>; operands: number[] } {
  const flags = new Set<string>();
  const values = new Map<string, Array<{ value?: string; at?: number }>>();
  const operands: number[] = [];
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg === "--") {
      if (!compiler) for (let rest = at + 1; rest < args.length; rest++) operands.push(rest);
      break;
    }
    if (arg === undefined || !arg.startsWith("-") || arg === "-") {
      operands.push(at);
      continue;
    }
    const [flag = "", value] = arg.replace(/^--?/, "").split(/=(.*)/s);
    flags.add(value === "false" ? `no-${flag}` : flag);
    if (!valued.includes(flag)) continue;
    values.set(flag, [...(values.get(flag) ?? []), value === undefined ? { at: ++at } : { value }]);
  }
  return { flags, values, operands };
}

/**
 * clang-tidy -fix (`-fix-errors`, `-fix-notes`) FILES: the files, and the headers they include
 * wherever those are (since LLVM 22 its `-header-filter` is `.*`: every header not the system's;
 * `-header-filter=` with nothing, none); `-export-fixes`' YAML file and `-store-check-profile`'s
 * profiles in any case. After `--`, the compiler's arguments.
 */
function clangTidy(): Rule {
  const valued = ["checks", "config", "config-file", "export-fixes", "extra-arg", "extra-arg-before", "format-style", "header-filter", "exclude-header-filter", "line-filter", "load", "p", "store-check-profile", "vfsoverlay", "warnings-as-errors"];
  return {
    syntax: { ordered: true },
    writes: (input) => {
      const { flags, values, operands } = goFlags(input.args, valued, true);
      if (["help", "version", "list-checks", "dump-config", "verify-config", "explain-config"].some((flag) => flags.has(flag))) return [];
      const given = (flag: string) => (values.get(flag) ?? []).flatMap(({ value, at }) => (value !== undefined ? outputs([value]) : at === undefined ? [] : input.values([at])));
      const reports = [...given("export-fixes"), ...given("store-check-profile").map((directory) => anyUnder(directory))];
      if (!["fix", "fix-errors", "fix-notes"].some((flag) => flags.has(flag))) return reports;
      const filter = values.get("header-filter")?.at(-1);
      const headers = filter?.value === "" ? [] : ["h", "hh", "hpp", "hxx"].map((extension) => `${UNKNOWN_MARK}*.${extension}`);
      return [...operandFiles(input, operands, []), ...headers, ...reports];
    },
  };
}

/** phpcbf's arguments that take the words after them (`--runtime-set key value`), and those that make it do something else. */
const PHPCS_TAKES: Record<string, number> = { "--runtime-set": 2, "--config-set": 2, "--config-delete": 1, "-d": 1 };

/**
 * phpcbf FILES fixes them in place (none: the files its phpcs.xml names, or everything where it
 * runs); with `--suffix=S`, each fixed file is written beside it with S. Its options take values
 * attached (`--standard=PSR12`); `--config-set`, `-i`, `-e`, `--version`, `-h` print or change its
 * own configuration.
 */
function phpcbf(input: RuleInput): string[] {
  const { args } = input;
  const operands: number[] = [];
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined || !arg.startsWith("-") || arg === "-") operands.push(at);
    else if (["--config-set", "--config-delete", "--config-show", "-i", "-e", "--version", "-h", "--help", "-?"].includes(arg)) return [];
    else if (Object.hasOwn(PHPCS_TAKES, arg)) at += PHPCS_TAKES[arg] as number;
    else if (arg === "--") {
      for (let rest = at + 1; rest < args.length; rest++) operands.push(rest);
      break;
    }
  }
  const suffix = args.filter((arg) => arg?.startsWith("--suffix=")).at(-1)?.slice("--suffix=".length);
  const files = operandFiles(input, operands);
  return suffix === undefined || suffix === "" ? files : files.map((file) => (file.startsWith("\0") || isDirectoryPath(within(input.walk.cwd, file)) ? file : `${file}${suffix}`));
}

/** npm-check-updates: `-u` rewrites the manifest's versions (with `--deep` or `--workspaces`, every manifest below). */
const NCU: Rule = {
  syntax: { short: "uwgc:f:x:t:p:", long: { upgrade: "u", workspace: "w", global: "g", ...valuedLong("packageFile cwd filter reject target packageManager pre format install registry configFilePath configFileName cacheFile doctorInstall doctorTest"), workspaces: "", deep: "", doctor: "" } },
  // (`--doctor` installs and tests each upgrade: `--doctorInstall`'s and `--doctorTest`'s commands, else npm's install and test, read in turn where it runs.)
  runsLines: ({ reading }) => (reading.has("doctor") ? [...(reading.has("doctorInstall") ? reading.values("doctorInstall") : ["npm install"]), ...(reading.has("doctorTest") ? reading.values("doctorTest") : ["npm test"])] : []),
  writes: ({ reading, walk }) => {
    if (!reading.has("u") || reading.has("g")) return [];
    const cwd = reading.has("cwd") ? directoryAt(walk.cwd, reading.value("cwd")) : walk.cwd;
    if (reading.has("deep", "workspaces", "w")) return [cwd === undefined ? `${UNKNOWN_MARK}package.json` : globOf(join(cwd, "**", "package.json"))];
    if (reading.has("packageFile")) {
      // (A glob, `--packageFile 'packages/*/package.json'`: each file it matches.)
      const file = directoryAt(cwd, reading.value("packageFile"));
      return [file === undefined ? `${UNKNOWN_MARK}package.json` : isGlobText(file) ? globOf(file) : file];
    }
    return atRoot(cwd, JS_MANIFEST);
  },
};

/**
 * jest and vitest: `-u` rewrites snapshots, in `__snapshots__` and inline in the test files
 * themselves (`toMatchInlineSnapshot`), anywhere in the project; coverage (`--coverage`, or on in
 * its config: jest's `collectCoverage: true`, vitest's `coverage: { enabled: true }`) writes its
 * report under coverage/ (jest's `--coverageDirectory` or `coverageDirectory`, vitest's
 * `--coverage.reportsDirectory` or `reportsDirectory`, relative to the project); `--outputFile`
 * (and vitest's `--outputFile.json=`) its file. The project is `--root`/`--rootDir`'s, else the
 * directory of `--config`'s file, else the nearest package. A flag `=false` is off. (A first run
 * writes new snapshots too, which no option says: not judged.)
 */
function testRunner(tool: "jest" | "vitest", syntax: Syntax): Rule {
  return {
    syntax,
    writes: (input) => {
      const { reading, args, walk } = input;
      const cwd = walk.cwd;
      const rootKey = tool === "jest" ? "rootDir" : "r";
      const configGiven = reading.has("c") ? directoryAt(cwd, reading.value("c")) : undefined;
      const root = reading.has(rootKey) ? directoryAt(cwd, reading.value(rootKey)) : reading.has("c") ? (configGiven === undefined ? undefined : dirname(configGiven)) : projectRoot(cwd, JS_MANIFEST);
      const under = (glob: string) => (root === undefined ? `${UNKNOWN_MARK}${glob}` : globOf(join(root, glob)));
      // The last of `--x` and `--x=false` wins.
      const flag = (names: string[]) => {
        let on: boolean | undefined;
        for (const arg of args) {
          for (const name of names) {
            if (arg === `--${name}`) on = true;
            else if (arg?.startsWith(`--${name}=`)) on = !/^(false|0)$/.test(arg.slice(name.length + 3));
          }
        }
        return on;
      };
      const config = configGiven ?? configIn(root, TEST_CONFIGS[tool]);
      const text = config === undefined ? "" : (readText(config) ?? "");
      const manifest = tool === "jest" && root !== undefined ? (/"jest"\s*:\s*\{[\s\S]*$/.exec(readText(join(root, "package.json")) ?? "")?.[0] ?? "") : "";
      const configured = tool === "jest" ? /\bcollectCoverage"?\s*:\s*(?!false\b)/.test(text + manifest) : /\bcoverage\s*:\s*\{[^}]*\benabled\s*:\s*(?!false\b)/.test(text);
      const coverage = flag(tool === "jest" ? ["coverage", "collectCoverage"] : ["coverage", "coverage.enabled"]) ?? configured;
      const update = flag(tool === "jest" ? ["updateSnapshot"] : ["update"]) ?? reading.has("u");
      // (vitest's `--coverage.reportsDirectory=out`, or with a space, `--coverage.reportsDirectory out`.)
      const spaced = args.indexOf("--coverage.reportsDirectory");
      const reportsGiven = tool === "jest" ? reading.value("coverageDirectory") : spaced !== -1 ? args[spaced + 1] : args.find((arg) => arg?.startsWith("--coverage.reportsDirectory="))?.slice("--coverage.reportsDirectory=".length);
      const reportsKey = tool === "jest" ? "coverageDirectory" : "reportsDirectory";
      const reportsSet = new RegExp(String.raw`\b${reportsKey}"?\s*:`).test(text + manifest);
      const reportsLiteral = new RegExp(String.raw`\b${reportsKey}"?\s*:\s*["'\x60]([^"'\x60$]+)["'\x60]`).exec(text + manifest)?.[1];
      const reports = reportsGiven !== undefined ? directoryAt(root, reportsGiven.replace(/^<rootDir>\/?/, "")) : reportsSet ? (reportsLiteral === undefined ? undefined : directoryAt(root, reportsLiteral.replace(/^<rootDir>\/?/, ""))) : root === undefined ? undefined : join(root, "coverage");
      const perReporter = args.flatMap((arg) => (arg !== undefined && /^--outputFile\.[\w-]+=./.test(arg) ? outputs([directoryAt(cwd, arg.slice(arg.indexOf("=") + 1)) ?? UNKNOWABLE]) : []));
      return [
        ...optionFiles(input, ["outputFile"]),
        ...perReporter,
        ...(update ? [under("**/__snapshots__/**"), under("**/*.{test,spec}.*"), under("**/__tests__/**"), ...configuredTests(text + manifest, under, root)] : []),
        ...(coverage ? [reports === undefined ? UNKNOWABLE : anyUnder(reports)] : []),
      ];
    },
  };
}

/**
 * The test files a config names besides the default ones (vitest's `include`, jest's `testMatch`),
 * whose inline snapshots `-u` rewrites: each glob its array gives as a literal; anything in the
 * project where the array holds something else, or jest's `testRegex` is set.
 */
function configuredTests(text: string, under: (glob: string) => string, root: string | undefined): string[] {
  if (/\btestRegex"?\s*:/.test(text)) return [anyUnder(root)];
  const globs: string[] = [];
  // Given otherwise than as an array written out (`include: dirs.map(…)`): anything.
  if (/\b(?:include|testMatch)"?\s*:\s*(?!\[)\S/.test(text)) return [anyUnder(root)];
  for (const [, items] of text.matchAll(/\b(?:include|testMatch)"?\s*:\s*\[([^\]]*)\]/g)) {
    const literals = [...(items as string).matchAll(/(["'\x60])((?:(?!\1)[^\\$])*)\1/g)].map((match) => match[2] as string);
    const rest = (items as string).replace(/(["'\x60])((?:(?!\1)[^\\$])*)\1/g, "").replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "");
    if (/[^\s,]/.test(rest)) return [anyUnder(root)];
    globs.push(...literals.map((glob) => under(glob.replace(/^<rootDir>\/?/, "").replace(/^\.\//, "").replace(/^!/, ""))));
  }
  return globs;
}

/** Globs under the nearest package's root (from where the command runs): snapshot files a test runner rewrites. */
function snapshotFiles(cwd: string | undefined, globs: string[]): string[] {
  const root = projectRoot(cwd, JS_MANIFEST);
  return globs.map((glob) => (root === undefined ? `${UNKNOWN_MARK}${glob}` : globOf(join(root, glob))));
}

/** bun's rule, and `bun test -u` (`--update-snapshots`): its snapshots rewritten, in `__snapshots__` and inline in the test files. */
function withSnapshotUpdate(rule: Rule): Rule {
  return {
    syntax: rule.syntax,
    writes: (input) => {
      const [first] = input.reading.operands;
      const updates = input.args[first ?? -1] === "test" && input.args.some((arg) => arg === "--update-snapshots" || (arg !== undefined && /^-[a-zA-Z]*u[a-zA-Z]*$/.test(arg)));
      return [...rule.writes(input), ...(updates ? snapshotFiles(input.walk.cwd, ["**/__snapshots__/**", "**/*.{test,spec}.*", "**/*_{test,spec}.*"]) : [])];
    },
  };
}

/** ormolu and fourmolu: `-i` (or `--mode inplace`) rewrites the files given. */
function haskellFormatter(): Rule {
  return { syntax: { short: "im:o:", long: { mode: "m", "ghc-opt": "o", ...valuedLong("start-line end-line stdin-input-file config") } }, writes: (input) => (input.reading.has("i") || input.reading.value("m") === "inplace" ? operandFiles(input, input.reading.operands, []) : []) };
}

/** ruff's format and check; ruff before 0.5 took check's paths with no subcommand (`ruff --fix .`, `ruff . --fix`): read as check. */
function ruffRule(): Rule {
  const check = (input: RuleInput, rest: number[]) => [
    ...optionFiles(input, ["o"]),
    // `fix = true` in its configuration fixes as `--fix` does, unless `--no-fix`.
    ...(input.reading.has("--fix", "--fix-only", "--add-noqa") || (!input.reading.has("--no-fix") && ruffFixes(input.walk.cwd, input.reading.value("config"))) ? operandFiles(input, rest) : []),
  ];
  const rule = bySubcommand(RUFF, { format: (input, rest) => (input.reading.has("--check", "--diff") ? [] : operandFiles(input, rest)), check });
  const SUBCOMMANDS = ["check", "format", "rule", "config", "linter", "clean", "version", "help", "server", "analyze", "generate-shell-completion"];
  return {
    syntax: rule.syntax,
    writes: (input) => {
      const operands = input.reading.operands;
      const first = input.args[operands[0] ?? -1];
      if (first !== undefined && SUBCOMMANDS.includes(first)) return rule.writes(input);
      if (operands.length === 0 && !input.reading.has("--fix", "--fix-only", "--add-noqa")) return [];
      return asksHelp(input) ? [] : check(input, operands);
    },
  };
}

/** The config file jest or vitest reads in a project's root, by its usual names. */
const TEST_CONFIGS = {
  jest: ["jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs", "jest.config.json"],
  vitest: ["vitest.config.ts", "vitest.config.mts", "vitest.config.js", "vitest.config.mjs", "vitest.config.cts", "vitest.config.cjs", "vite.config.ts", "vite.config.mts", "vite.config.js", "vite.config.mjs"],
};

/**
 * The Prisma schema a `prisma` command reads: `--schema`'s; its config file's `schema`
 * (prismaConfig); package.json's `prisma.schema`; else prisma/schema.prisma or schema.prisma where
 * it runs, or at its package's root (each that exists; the root's prisma/schema.prisma when none
 * does). A folder of `.prisma` files stands for each of them. Its project's root, the generators'
 * `output` directories (relative to the file naming them) and the migrations directory.
 */
function prismaSchema(input: RuleInput): { files: string[]; directory: string | undefined; outputs: string[]; migrations: string } {
  const cwd = input.walk.cwd;
  const root = projectRoot(cwd, JS_MANIFEST);
  const config = prismaConfig(input);
  let schemas: string[] | undefined;
  if (input.reading.has("schema")) schemas = [directoryAt(cwd, input.reading.value("schema"))].flatMap((path) => path ?? []);
  else if (config === UNKNOWABLE || config?.schema === UNKNOWABLE) schemas = undefined;
  else if (config?.schema !== undefined) schemas = [config.schema];
  else if (root !== undefined || cwd !== undefined) {
    const configured = root === undefined ? undefined : /"prisma"\s*:\s*\{[^}]*"schema"\s*:\s*"([^"]+)"/.exec(readText(join(root, "package.json")) ?? "")?.[1];
    if (configured !== undefined && root !== undefined) schemas = [join(root, configured)];
    else {
      const places = [...new Set([cwd, root].flatMap((place) => place ?? []))];
      const candidates = places.flatMap((place) => [join(place, "prisma", "schema.prisma"), join(place, "schema.prisma"), join(place, "prisma", "schema")]);
      schemas = candidates.filter((path) => readText(path) !== undefined || isDirectoryPath(path));
      if (schemas.length === 0) schemas = [join((root ?? cwd) as string, "prisma", "schema.prisma")];
    }
  }
  const unknownMigrations = config === UNKNOWABLE || config?.migrations === UNKNOWABLE;
  if (schemas === undefined || schemas.length === 0) return { files: [`${UNKNOWN_MARK}schema.prisma`], directory: undefined, outputs: [UNKNOWABLE], migrations: UNKNOWABLE };
  const files: string[] = [];
  const outputs = new Set<string>();
  for (const schema of schemas) {
    const folder = isDirectoryPath(schema);
    files.push(folder ? globOf(join(schema, "**", "*.prisma")) : schema);
    // The schema's text, or each file's of a schema folder (prisma/schema/*.prisma).
    const texts = folder ? prismaFiles(schema).map((file) => ({ text: readText(file) ?? "", at: dirname(file) })) : [{ text: readText(schema) ?? "", at: dirname(schema) }];
    // A generator's output (`output = "../src/generated"`, relative to its file); one from env() is a place the text does not fix.
    for (const { text, at } of texts) {
      for (const match of text.matchAll(/^\s*output\s*=\s*(.+?)\s*$/gm)) {
        const quoted = /^"([^"]+)"\s*(\/\/.*)?$/.exec(match[1] as string)?.[1];
        outputs.add(quoted === undefined ? UNKNOWABLE : anyUnder(directoryAt(at, quoted)));
      }
    }
  }
  if (root !== undefined) outputs.add(anyUnder(join(root, "node_modules", ".prisma")));
  const first = schemas[0] as string;
  const directory = isDirectoryPath(first) ? first : dirname(first);
  const migrations = unknownMigrations ? UNKNOWABLE : typeof config?.migrations === "string" ? anyUnder(config.migrations) : anyUnder(join(directory, "migrations"));
  return { files, directory, outputs: [...outputs], migrations };
}

/** A Prisma config file's settings (paths relative to its directory), where a literal gives them; UNKNOWABLE where one is set otherwise. */
interface PrismaConfig {
  schema?: string;
  migrations?: string;
  seed?: string;
}

/**
 * The Prisma config file of a `prisma` command (Prisma 6.x and 7): `--config`'s, else
 * prisma.config.ts (.mts, .cts, .js, .mjs, .cjs) or .config/prisma.ts where it runs. A program:
 * read for `schema: "…"`, `migrations: { path: "…", seed: "…" }` as string literals; a key set any
 * other way (`path.join(…)`, a variable) is a place the text does not fix. Undefined without one.
 */
function prismaConfig(input: Pick<RuleInput, "reading" | "walk">): PrismaConfig | typeof UNKNOWABLE | undefined {
  const cwd = input.walk.cwd;
  const given = input.reading.has("config") ? input.reading.value("config") : undefined;
  if (input.reading.has("config") && given === undefined) return UNKNOWABLE;
  if (cwd === undefined) return given === undefined ? undefined : UNKNOWABLE;
  const names = ["prisma.config.ts", "prisma.config.mts", "prisma.config.cts", "prisma.config.js", "prisma.config.mjs", "prisma.config.cjs", ...["ts", "mts", "cts", "js", "mjs", "cjs"].map((extension) => `.config/prisma.${extension}`)];
  const file = given !== undefined ? directoryAt(cwd, given) : configIn(cwd, names);
  if (file === undefined) return undefined;
  const text = readText(file);
  if (text === undefined) return given === undefined ? undefined : UNKNOWABLE;
  const at = dirname(file);
  const literal = (key: string, within = text): string | typeof UNKNOWABLE | undefined => {
    if (!new RegExp(String.raw`\b${key}\s*:`).test(within)) return undefined;
    const value = new RegExp(String.raw`\b${key}\s*:\s*(?:"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)'|\x60([^\x60$\\]*)\x60)\s*[,}\n]`).exec(within);
    return value === null ? UNKNOWABLE : ((value[1] ?? value[2] ?? value[3]) as string).replace(/\\(.)/g, "$1");
  };
  const path = (value: string | typeof UNKNOWABLE | undefined) => (value === undefined || value === UNKNOWABLE ? value : (directoryAt(at, value) ?? UNKNOWABLE));
  const migrationsBlock = /\bmigrations\s*:\s*\{([^}]*)\}/.exec(text)?.[1];
  const config: PrismaConfig = {};
  const schema = path(literal("schema"));
  if (schema !== undefined) config.schema = schema;
  const migrations = /\bmigrations\s*:/.test(text) && migrationsBlock === undefined ? UNKNOWABLE : path(migrationsBlock === undefined ? undefined : literal("path", migrationsBlock));
  if (migrations !== undefined) config.migrations = migrations;
  const seed = migrationsBlock === undefined ? undefined : literal("seed", migrationsBlock);
  if (seed !== undefined) config.seed = seed;
  return config;
}

/**
 * `prisma db seed` runs a command of the project's: its config's `migrations.seed`, else
 * package.json's `prisma.seed` (run where that file is); so do `migrate reset` and `migrate dev`
 * (which may reset the database), unless `--skip-seed`. Undefined for any other prisma command
 * or none set; UNKNOWABLE where the config sets it in a way its text does not fix.
 */
export function prismaSeedRun(args: Array<string | undefined>, text: (at: number) => string | undefined, cwd: string | undefined): Nested | typeof UNKNOWABLE | undefined {
  const syntax = { ...PRISMA, exact: true };
  const reading = readOptions(args, syntax, 0, text);
  const [db, seed] = reading.operands.map((at) => args[at]);
  if (!(db === "db" && seed === "seed") && !(db === "migrate" && (seed === "reset" || seed === "dev") && !reading.has("skip-seed"))) return undefined;
  // A word that may be an option the text does not name (`--config"$c"`, `-"$x"`) may be --config with any value.
  if (guessedArguments(args, syntax, reading, text).some((guess) => readOptions(guess.args, syntax, 0, guess.text).occurrences("config").some(({ value }) => value === undefined))) return UNKNOWABLE;
  const config = prismaConfig({ reading, walk: { cwd } as RuleInput["walk"] });
  if (config === UNKNOWABLE || config?.seed === UNKNOWABLE) return UNKNOWABLE;
  if (config?.seed !== undefined) return { script: config.seed, cwd };
  const root = projectRoot(cwd, JS_MANIFEST);
  if (root === undefined) return undefined;
  const seedText = /"prisma"\s*:\s*\{[^}]*"seed"\s*:\s*"((?:\\.|[^"\\])*)"/.exec(readText(join(root, "package.json")) ?? "")?.[1];
  return seedText === undefined ? undefined : { script: JSON.parse(`"${seedText}"`) as string, cwd: root };
}

/** The `.prisma` files of a schema folder, at any depth. */
function prismaFiles(folder: string): string[] {
  try {
    return (readdirSync(folder, { recursive: true }) as string[]).filter((name) => name.endsWith(".prisma")).map((name) => join(folder, name));
  } catch {
    return [];
  }
}

function isDirectoryPath(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const PRISMA: Syntax = { long: { check: "", print: "", ...valuedLong("schema config name generator url from-url to-url from-schema-datamodel to-schema-datamodel from-migrations to-migrations shadow-database-url script file"), "skip-generate": "", "skip-seed": "", "create-only": "", force: "" } };

const NBSTRIPOUT: Syntax = {
  short: "tfs",
  long: { textconv: "t", force: "f", "dry-run": "", verify: "", install: "", uninstall: "", "is-installed": "", status: "", ...valuedLong("extra-keys keep-metadata-keys drop-tagged-cells mode python attributes max-size") },
};

/**
 * nbstripout FILES strips each notebook's outputs in place (none: stdin to stdout); not with
 * `-t`/`--textconv` (prints), `--dry-run`, `--verify`. `--install` and `--uninstall` change git's
 * config, and the attributes file `--attributes` names.
 */
function nbstripout(input: RuleInput): string[] {
  const { reading } = input;
  if (reading.has("t", "dry-run", "verify", "is-installed", "status", "--version", "h") || asksHelp(input)) return [];
  if (reading.has("install", "uninstall")) return optionFiles(input, ["attributes"]);
  return operandFiles(input, reading.operands, []);
}

/** jupyter nbconvert's options (traitlets'): `--to x` or `--to=x`; `--Class.trait=value`. */
const NBCONVERT: Syntax = { long: valuedLong("to output output-dir template template-file writer post reader log-level config nbformat theme") };

/** The extension of what nbconvert writes, by `--to`; a script's is its language's. */
const NBCONVERT_EXTENSIONS: Record<string, string> = { html: ".html", slides: ".slides.html", markdown: ".md", rst: ".rst", latex: ".tex", pdf: ".pdf", webpdf: ".pdf", qtpdf: ".pdf", qtpng: ".png", asciidoc: ".asciidoc" };

/**
 * jupyter nbconvert NOTEBOOKS: `--inplace` (or `--clear-output`) rewrites each notebook; else it
 * writes each converted (`--to`, html by default) beside it or in `--output-dir`, named by
 * `--output` or the notebook's name: `a.html`, `a.nbconvert.ipynb` for a notebook, a script by the
 * extension its notebook gives its language (else any), with the images some formats extract under
 * `a_files/`. `--stdout` prints.
 */
function nbconvert(input: RuleInput, notebooks: number[]): string[] {
  const { reading, walk } = input;
  if (reading.has("--help", "--generate-config", "--show-config", "--show-config-json")) return [];
  // `--execute` runs each notebook's code first (as `jupyter execute` does).
  const ran = reading.has("--execute") || input.args.some((arg) => arg === undefined || /^--ExecutePreprocessor\.enabled=(True|true|1)$/.test(arg)) ? executedNotebooks(input, notebooks) : [];
  if (reading.has("--stdout")) return ran;
  const files = [...operandFiles(input, notebooks, []), ...ran];
  if (reading.has("--inplace", "--clear-output")) return files;
  const to = reading.value("to") ?? (reading.has("to") ? undefined : "html");
  const output = reading.value("output");
  if (to === undefined || (reading.has("output") && output === undefined)) return [UNKNOWABLE];
  return files.flatMap((file) => {
    if (file === UNKNOWABLE) return [UNKNOWABLE];
    const mark = /^\0(glob|unknown):/.exec(file)?.[0] ?? "";
    const plain = file.slice(mark.length);
    const directory = reading.has("output-dir") ? (reading.value("output-dir") ?? UNKNOWABLE) : dirname(plain);
    if (directory === UNKNOWABLE) return [UNKNOWABLE];
    const base = output === undefined ? basename(plain).replace(/\.ipynb$/, "") : output.replace(/\.[^./]*$/, "");
    const language = to === "script" && mark === "" ? /"file_extension"\s*:\s*"(\.[\w+-]+)"/.exec(readText(within(walk.cwd, plain)) ?? "")?.[1] : undefined;
    const extension = to === "notebook" ? (output === undefined ? ".nbconvert.ipynb" : ".ipynb") : (NBCONVERT_EXTENSIONS[to] ?? language);
    const made = join(directory, extension === undefined ? `${base}.*` : `${base}${extension}`);
    const extracted = ["markdown", "rst", "latex", "asciidoc"].includes(to) ? [join(directory, `${base}_files`, "**")] : [];
    return [made, ...extracted].map((path) => (mark === UNKNOWN_MARK ? UNKNOWN_MARK + path : mark !== "" || path.includes("*") ? globOf(path) : path));
  }).concat(ran);
}

/**
 * What running notebooks' code writes (`jupyter execute`, `nbconvert --execute`, papermill): its
 * Python, shell escapes and magics, which the hook does not read: any file, for one an agent may
 * have written (not there yet, or not the project's own: program-files.ts), or one the text does
 * not fix; nothing for the project's own notebooks, as for its other programs.
 */
export function executedNotebooks(input: RuleInput, notebooks: number[]): string[] {
  return unreadPrograms(input.walk.cwd, notebooks.map((at) => input.args[at]).filter((path) => path !== "-"));
}

/**
 * Program files a tool runs in a language the hook does not read (gradle's init scripts, notebooks'
 * code): any file where one may be an agent's (not the project's own: program-files.ts), or
 * the text does not fix it; nothing for the project's own.
 */
export function unreadPrograms(cwd: string | undefined, paths: Array<string | undefined>): string[] {
  if (paths.length === 0) return [];
  if (paths.some((path) => path === undefined || isGlobText(path)) || cwd === undefined) return [UNKNOWABLE];
  return notTrackedByProject(paths.map((path) => within(cwd, path as string))).length > 0 ? [UNKNOWABLE] : [];
}

/** pip-compile's options (pip-tools), as click reads them. */
const PIP_COMPILE: Syntax = {
  short: "o:i:f:P:c:",
  long: { "output-file": "o", "index-url": "i", "find-links": "f", "upgrade-package": "P", constraint: "c", "dry-run": "n", ...valuedLong("extra-index-url cache-dir pip-args resolver extra annotation-style cert client-cert trusted-host unsafe-package build-deps-for config newline max-rounds") },
};

export const TOOL_RULES: Record<string, Rule> = {
  // prisma format and db pull rewrite the schema; generate writes the generators' outputs;
  // migrate dev and reset write migrations (and generate); init makes the schema and .env.
  prisma: bySubcommand(PRISMA, {
    // (`format --check` and `db pull --print` only print.)
    format: (input) => (input.reading.has("check") ? [] : prismaSchema(input).files),
    generate: (input) => prismaSchema(input).outputs,
    introspect: (input) => prismaSchema(input).files,
    db: (input, rest) => {
      const sub = input.args[rest[0] ?? -1];
      if (sub === "pull") return input.reading.has("print") ? [] : prismaSchema(input).files;
      return sub === "push" && !input.reading.has("skip-generate") ? prismaSchema(input).outputs : [];
    },
    migrate: (input, rest) => {
      const sub = input.args[rest[0] ?? -1];
      if (sub !== "dev" && sub !== "reset") return [];
      const { migrations, outputs } = prismaSchema(input);
      return [migrations, ...(input.reading.has("skip-generate", "create-only") ? [] : outputs)];
    },
    init: (input) => {
      const root = projectRoot(input.walk.cwd, JS_MANIFEST);
      return root === undefined ? [UNKNOWABLE] : [anyUnder(join(root, "prisma")), join(root, ".env"), join(root, ".gitignore"), join(root, "prisma.config.ts")];
    },
  }),
  vitest: testRunner("vitest", { short: "uc:r:t:", long: { update: "u", config: "c", root: "r", testNamePattern: "t", outputFile: ":", coverage: "", ...valuedLong("dir project reporter environment pool shard") } }),
  jest: testRunner("jest", { short: "uc:t:", long: { updateSnapshot: "u", config: "c", testNamePattern: "t", outputFile: ":", coverage: "", collectCoverage: "coverage", ...valuedLong("rootDir roots testPathPattern selectProjects reporters maxWorkers shard coverageDirectory") } }),
  ncu: NCU,
  "npm-check-updates": NCU,
  // sort-package-json [files…]: package.json where it runs by default; --check only reads.
  "sort-package-json": { syntax: { short: "cqi:", long: { check: "c", quiet: "q", ignore: "i", stdin: "" } }, writes: (input) => (input.reading.has("c", "stdin") ? [] : operandFiles(input, input.reading.operands, ["package.json"])) },
  // (And the code files their options load: a plugin, a formatter, a library: loadedFiles.)
  prettier: { ...formatter(PRETTIER, (has) => has("w"), []), runsLines: loadedFiles(["plugin"], "node") },
  eslint: { ...formatter(ESLINT, (has) => has("--fix"), ["."], ["o"]), runsLines: loadedFiles(["f", "format"], "node") },
  stylelint: { ...formatter({ short: "c:f:o:", long: { config: "c", formatter: "f", "output-file": "o", ...valuedLong("config-basedir ignore-path ignore-pattern custom-syntax custom-formatter max-warnings cache-location stdin-filename") } }, (has) => has("--fix"), [], ["o"]), runsLines: loadedFiles(["custom-formatter", "custom-syntax"], "node") },
  black: formatter(BLACK, (has) => !has("--check", "--diff", "c"), []),
  isort: formatter({ short: "cdl:p:o:", long: { "check-only": "c", check: "c", diff: "d", stdout: "d", "line-length": "l", project: "p", thirdparty: "o", ...valuedLong("settings-path sp settings-file settings profile src skip skip-glob filter-files ext") } }, (has) => !has("c", "d"), []),
  autopep8: formatter({ short: "ij:", long: { "in-place": "i", jobs: "j", ...valuedLong("select ignore max-line-length indent-size line-range global-config exclude") } }, (has) => has("i"), []),
  yapf: formatter({ short: "il:e:p", long: { "in-place": "i", lines: "l", exclude: "e", ...valuedLong("style") } }, (has) => has("i"), []),
  autoflake: formatter({ short: "icrsj:", long: { "in-place": "i", check: "c", recursive: "r", stdout: "s", jobs: "j", "check-diff": "", ...valuedLong("exclude imports config stdin-display-name") } }, (has) => has("i") && !has("c", "check-diff", "s")),
  // pyupgrade FILES rewrites them in place, always.
  pyupgrade: formatter({ long: {} }, (has) => !has("h")),
  mdformat: formatter({ long: valuedLong("wrap end-of-line exclude extensions codeformatters") }, (has) => !has("--check", "h", "--version")),
  nbstripout: { syntax: { ...NBSTRIPOUT, exact: true }, writes: nbstripout },
  // (`jupyter execute NB…` runs them; `--inplace` saves each with its outputs.)
  jupyter: bySubcommand(NBCONVERT, { nbconvert: (input, rest) => nbconvert(input, rest), execute: (input, rest) => [...executedNotebooks(input, rest), ...(input.reading.has("--inplace") ? operandFiles(input, rest, []) : [])] }),
  "jupyter-nbconvert": { syntax: { ...NBCONVERT, exact: true }, writes: (input) => nbconvert(input, input.reading.operands) },
  nbconvert: { syntax: { ...NBCONVERT, exact: true }, writes: (input) => nbconvert(input, input.reading.operands) }, // python -m nbconvert
  ruff: ruffRule(),
  gofmt: goFormatter(["r", "cpuprofile"], (flags) => flags.has("w")),
  goimports: goFormatter(["local", "srcdir", "cpuprofile", "memprofile", "trace"], (flags) => flags.has("w")),
  gofumpt: goFormatter(["lang", "modpath", "cpuprofile"], (flags) => flags.has("w")),
  go: {
    ...bySubcommand(GO, {
      // go fmt ./... rewrites every package under .; `go fmt` the package here. `go -C dir` runs there.
      fmt: (input, rest) => goPackageFiles(input, rest),
      // go fix rewrites its packages as go fmt does (`-diff` prints the changes instead).
      fix: goFix,
      mod: (input, rest) => {
        const action = input.args[rest[0] ?? -1] ?? "";
        const cwd = input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd;
        const root = projectRoot(cwd, ["go.mod"]);
        if (!["tidy", "edit", "init", "vendor"].includes(action)) return [];
        if (action === "edit" && input.args.some((arg) => arg === "-json" || arg === "-print")) return [];
        return [...atRoot(root, ["go.mod", "go.sum"]), ...(action === "vendor" ? [anyUnder(root === undefined ? undefined : join(root, "vendor"))] : [])];
      },
      build: goBuild,
      // go generate runs the `//go:generate` commands of each package's files: programs that write
      // what their own logic names, mostly beside the package: anything under each (`-n` prints only).
      generate: (input) => {
        if (input.args.includes("-n")) return [];
        const cwd = input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd;
        const packages: string[] = [];
        for (let at = input.args.indexOf("generate") + 1; at < input.args.length; at++) {
          const arg = input.args[at];
          if (arg === "-run" || arg === "-skip" || arg === "-tags") at++; // a value of its own
          else if (arg === undefined || !arg.startsWith("-")) packages.push(...input.values([at]).filter((pattern) => !pattern.endsWith(".go")));
        }
        return packages.length === 0 ? [anyUnder(cwd)] : packages.map((pattern) => anyUnder(directoryAt(cwd, pattern.replace(/\/?\.\.\.$/, "") || ".")));
      },
      get: (input) => atRoot(projectRoot(input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd, ["go.mod"]), ["go.mod", "go.sum"]),
      test: goTestUpdate,
      work: goWork,
    }),
    // The programs its builds and tests run through (`-toolexec 'cmd'`, `go test -exec cmd`, `go vet
    // -vettool=prog`): read in turn. Not the test binary's arguments (after `-args`), nor the
    // program's (`go run . -exec x`: after its package).
    runsLines: (input) => {
      const { args } = input;
      let end = args.findIndex((arg) => arg === "-args" || arg === "--args");
      if (end === -1) end = args.length;
      const sub = input.reading.operands[0];
      if (sub !== undefined && args[sub] === "run") {
        for (let at = sub + 1; at < end; at++) {
          const arg = args[at];
          if (arg !== undefined && !arg.startsWith("-")) end = at;
          else if (arg !== undefined && GO_VALUED.test(arg)) at++;
        }
      }
      // (From `-C dir`; and GOFLAGS the command sets, `GOFLAGS=-exec=./x.sh go test`, as the flags it holds.)
      const place = input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd;
      const environment = input.walk.environment;
      const goflags = setByCommand(environment, "GOFLAGS") ? (environment.GOFLAGS === undefined ? [undefined] : flagValues(environment.GOFLAGS.trim().split(/\s+/), ["toolexec", "exec", "vettool"])) : [];
      return [...flagValues(args.slice(0, end), ["toolexec", "exec", "vettool"], input.text), ...goflags].map((line) => (line === undefined || place === input.walk.cwd ? line : { script: line, cwd: place }));
    },
  },
  // rustfmt formats the modules a file declares too (`mod util;`: util.rs, util/mod.rs, a `#[path]`
  // beside it), unless told to skip them: every .rs file under each file's directory.
  rustfmt: {
    syntax: { long: valuedLong("edition config-path config emit color style-edition"), exact: true },
    writes: (input) => {
      if (input.reading.has("--check")) return [];
      const files = operandFiles(input, input.reading.operands, []);
      const skip = input.reading.has("--skip-children") || input.reading.values("config").some((value) => /(^|,)\s*skip_children\s*=\s*true\b/.test(value ?? ""));
      return skip ? files : [...files, ...files.map((file) => (file.startsWith("\0") ? UNKNOWN_MARK + "*.rs" : globOf(join(dirname(file), "**", "*.rs"))))];
    },
  },
  // cargo fmt, fix and clippy --fix rewrite the workspace's sources: everything under its outermost
  // root. clippy builds as check does (into target/), with --fix or without.
  cargo: {
    ...bySubcommand(CARGO, {
      fmt: (input) => (input.args.includes("--check") ? [] : [anyUnder(projectRoots(cargoStart(input), ["Cargo.toml"]).at(-1))]),
      fix: (input) => [anyUnder(projectRoots(cargoStart(input), ["Cargo.toml"]).at(-1))],
      clippy: (input) => (input.args.some((arg) => arg === "--version" || arg === "-V" || arg === "-h") ? [] : [...cargoBuild(input), ...(input.args.includes("--fix") ? [anyUnder(projectRoots(cargoStart(input), ["Cargo.toml"]).at(-1))] : [])]),
      // cargo-nextest builds the tests into target/ (its reports go there too); `archive` writes `--archive-file`'s file.
      nextest: (input, rest) => (["run", "r", "list", "archive"].includes(input.args[rest[0] ?? -1] ?? "") ? [...cargoBuild(input), ...optionFiles(input, ["archive-file"])] : []),
      "llvm-cov": cargoLlvmCov,
      tarpaulin: cargoTarpaulin,
      install: cargoInstall,
      add: cargoManifest,
      remove: cargoManifest,
      // cargo-edit's: rm, upgrade (the manifests' requirements), set-version (the packages' versions).
      rm: cargoManifest,
      upgrade: (input) => (input.args.includes("--dry-run") ? [] : cargoManifest(input)),
      "set-version": (input) => (input.args.includes("--dry-run") ? [] : cargoManifest(input)),
      insta: cargoInsta,
      update: (input) => atRoots(cargoStart(input), ["Cargo.toml"], ["Cargo.lock"]),
      "generate-lockfile": (input) => atRoots(cargoStart(input), ["Cargo.toml"], ["Cargo.lock"]),
      ...Object.fromEntries(["build", "b", "check", "c", "test", "t", "run", "r", "bench", "doc", "d", "clean", "rustc", "rustdoc"].map((sub) => [sub, cargoBuild])),
      // cargo new <path>: the package it makes there; cargo init [path]: its manifest, lock, sources and .gitignore.
      new: (input, rest) => [anyUnder(directoryAt(input.walk.cwd, input.args[rest[0] ?? -1]))],
      init: (input, rest) => {
        const at = rest.length === 0 ? input.walk.cwd : directoryAt(input.walk.cwd, input.args[rest[0] as number]);
        return atRoot(at, ["Cargo.toml", "Cargo.lock", ".gitignore", "src/main.rs", "src/lib.rs"]);
      },
    }),
    // (And a program a `--config` setting runs: a runner, a compiler or its wrapper, a linker: any file.)
    // (So do the variables that name them, set by the command: `RUSTC_WRAPPER=./w.sh cargo build`, read as that program.)
    runsLines: (input) => [
      ...cargoWatchLines(input),
      ...(input.reading.values("config").some((setting) => setting === undefined || /(runner|rustc|rustdoc|linker|wrapper)\s*=/.test(setting)) ? [undefined] : []),
      ...Object.keys(input.walk.environment).filter((name) => /^(RUSTC|RUSTC_WRAPPER|RUSTC_WORKSPACE_WRAPPER|RUSTDOC|CARGO_BUILD_RUSTC(_WRAPPER|_WORKSPACE_WRAPPER)?|CARGO_TARGET_\w+_(RUNNER|LINKER))$/.test(name) && setByCommand(input.walk.environment, name)).map((name) => input.walk.environment[name]),
    ],
  },
  ...PROJECT_TOOLS,
  shadcn: bySubcommand({ short: "c:p:", long: { cwd: "c", path: "p", ...valuedLong("style base-color src-dir") } }, { add: (input) => shadcnWrites(input, false), init: (input) => shadcnWrites(input, true), create: (input) => shadcnWrites(input, true) }),
  "shadcn-ui": bySubcommand({ short: "c:p:", long: { cwd: "c", path: "p", ...valuedLong("style base-color") } }, { add: (input) => shadcnWrites(input, false), init: (input) => shadcnWrites(input, true) }),
  "clang-tidy": clangTidy(),
  // google-java-format -i (-r, --replace) FILES, not -n/--dry-run; @FILE names more files, which the text does not give.
  "google-java-format": {
    syntax: { ordered: true },
    writes: (input) => {
      const { flags, operands } = goFlags(input.args, ["lines", "line", "offset", "length", "assume-filename"]);
      if (!["i", "r", "replace"].some((flag) => flags.has(flag)) || ["n", "dry-run", "h", "help", "v", "version"].some((flag) => flags.has(flag))) return [];
      const listed = operands.filter((at) => input.args[at]?.startsWith("@"));
      return [...operandFiles(input, operands.filter((at) => !listed.includes(at)), []), ...(listed.length > 0 ? [UNKNOWABLE] : [])];
    },
  },
  "clang-format": goFormatter(["style", "assume-filename", "lines", "offset", "length", "cursor", "fallback-style", "files"], (flags) => flags.has("i")),
  shfmt: goFormatter(["i", "indent", "ln", "language-dialect", "filename", "apply-ignore"], (flags) => flags.has("w") || flags.has("write")),
  terraform: terraformFmt(),
  biome: bySubcommand(
    { long: valuedLong("config-path max-diagnostics log-level log-kind diagnostic-level stdin-file-path") },
    Object.fromEntries(["format", "check", "lint"].map((sub) => [sub, (input: RuleInput, rest: number[]) => (input.reading.has("--write", "--apply", "--apply-unsafe", "--fix") ? operandFiles(input, rest) : [])])),
  ),
  dprint: bySubcommand({ long: valuedLong("config plugins excludes") }, { fmt: (input, rest) => operandFiles(input, rest) }),
  // Rome, biome's former name.
  rome: bySubcommand(
    { long: valuedLong("config-path max-diagnostics log-level log-kind diagnostic-level stdin-file-path") },
    Object.fromEntries(["format", "check", "lint"].map((sub) => [sub, (input: RuleInput, rest: number[]) => (input.reading.has("--write", "--apply", "--apply-unsafe", "--fix") ? operandFiles(input, rest) : [])])),
  ),
  // More formatters that rewrite the files they are given in place: docformatter -i, perltidy -b (-o: its output), cmake-format -i,
  // ormolu and fourmolu -i (--mode inplace), swiftlint --fix (autocorrect), ktfmt and scalafmt (unless they only check).
  docformatter: formatter({ short: "ir", long: { "in-place": "i", recursive: "r", ...valuedLong("config wrap-summaries wrap-descriptions exclude range docstring-length") } }, (has) => has("i"), []),
  perltidy: formatter({ short: "bo:pro:", long: { backup: "b", "backup-and-modify-in-place": "b", outfile: "o" } }, (has) => has("b"), [], ["o"]),
  "cmake-format": formatter({ short: "io:c:", long: { "in-place": "i", "outfile-path": "o", "config-files": "c" } }, (has) => has("i"), [], ["o"]),
  ormolu: haskellFormatter(),
  fourmolu: haskellFormatter(),
  // treefmt formats the whole project its treefmt.toml is in (--fail-on-change and --ci too: they write first).
  treefmt: { syntax: { long: valuedLong("config-file tree-root tree-root-file walk formatters excludes") }, writes: (input) => (input.args.some((arg) => ["--help", "-h", "--version", "-V", "--init", "-i", "--stdin"].includes(arg ?? "")) ? [] : [anyUnder(projectRoot(input.walk.cwd, ["treefmt.toml", ".treefmt.toml"]))]) },
  swiftlint: {
    syntax: { long: valuedLong("config path reporter") },
    writes: (input) => (input.args.some((arg) => arg === "--fix" || arg === "--autocorrect" || arg === "autocorrect") ? operandFiles(input, input.reading.operands.filter((at) => !["lint", "autocorrect", "analyze"].includes(input.args[at] ?? "")), ["."]) : []),
  },
  ktfmt: formatter({ long: valuedLong("style") }, (has) => !has("--dry-run", "-n", "--set-exit-if-changed", "--stdin-name"), []),
  scalafmt: formatter({ short: "c:f:", long: { config: "c", files: "f", ...valuedLong("exclude mode") } }, (has) => !has("--test", "--check", "--list", "-l", "--stdout", "--diff"), ["."]),
  rubocop: { ...formatter({ short: "aAc:f:o:", long: { autocorrect: "a", "autocorrect-all": "A", config: "c", format: "f", out: "o", ...valuedLong("only except require") } }, (has) => has("a", "A", "--auto-correct", "--auto-correct-all", "--fix-layout", "x"), ["."], ["o"]), runsLines: loadedFiles(["r", "require"], "ruby") },
  mix: bySubcommand({}, {
    format: (input, rest) => (input.reading.has("--check-formatted", "--dry-run") ? [] : operandFiles(input, rest)),
    // mix deps.get, deps.update: mix.lock and deps/ beside mix.exs, at every root up (an umbrella's apps lock and fetch into its root's); deps.unlock the lock alone.
    ...Object.fromEntries(["deps.get", "deps.update", "deps.unlock"].map((sub) => [sub, (input: RuleInput) => {
      const roots = projectRoots(input.walk.cwd, ["mix.exs"]);
      const deps = roots.length === 0 ? [anyUnder(undefined)] : roots.map((root) => anyUnder(join(root, "deps")));
      return [...atRoots(input.walk.cwd, ["mix.exs"], ["mix.lock"]), ...(sub === "deps.unlock" ? [] : deps)];
    }])),
  }),
  // More linters and formatters that rewrite what they check when told to (or by default).
  oxlint: formatter({ short: "c:A:W:D:f:", long: { config: "c", allow: "A", warn: "W", deny: "D", format: "f", ...valuedLong("tsconfig ignore-path ignore-pattern max-warnings threads") } }, (has) => has("--fix", "--fix-suggestions", "--fix-dangerously")),
  standard: formatter({ long: valuedLong("env global plugin parser") }, (has) => has("--fix")),
  // standardrb --fix (--fix-unsafely; RuboCop's own -a, -A): its files, everything where it runs with none; RuboCop's --out file.
  standardrb: formatter({ short: "aAxc:f:o:", long: { autocorrect: "a", "autocorrect-all": "A", "fix-layout": "x", config: "c", format: "f", out: "o", fix: "", "fix-unsafely": "", "no-fix": "", ...valuedLong("only except require") } }, (has) => has("fix", "fix-unsafely", "a", "A", "x") && !has("no-fix"), ["."], ["o"]),
  // stylua FILES (a directory: its Lua files), not --check.
  stylua: formatter({ short: "cf:g:s", long: { check: "c", "config-path": "f", glob: "g", ...valuedLong("stdin-filepath num-threads output-format color column-width line-endings indent-type indent-width quote-style call-parentheses collapse-simple-statement syntax space-after-function-names block-newline-gaps") } }, (has) => !has("c", "h", "V", "--version")),
  phpcbf: { syntax: {}, writes: phpcbf },
  xo: formatter({ long: valuedLong("env global plugin parser extension ignore space prettier reporter cwd") }, (has) => has("--fix")),
  markdownlint: { ...formatter({ short: "fc:i:o:p:r:", long: { fix: "f", config: "c", ignore: "i", output: "o", "ignore-path": "p", rules: "r", ...valuedLong("configPointer enable disable") } }, (has) => has("f"), [], ["o"]), runsLines: loadedFiles(["r", "rules"], "node") },
  "markdownlint-cli2": formatter({ long: valuedLong("config format") }, (has) => has("--fix"), []),
  codespell: formatter({ short: "D:I:L:S:x:i:r:A:B:C:e:", long: { "write-changes": "w", dictionary: "D", "ignore-words": "I", "ignore-words-list": "L", skip: "S", "exclude-file": "x", interactive: "i", regex: "r", ...valuedLong("builtin ignore-regex ignore-multiline-regex uri-regex uri-ignore-words-list config toml") } }, (has) => has("w")),
  swiftformat: formatter({ long: valuedLong("config swiftversion languagemode exclude unexclude rules enable disable cache output baseconfig filelist stdinpath reporter report") }, (has) => !has("--lint", "--dryrun"), [], ["output"]),
  ktlint: formatter({ short: "F", long: { format: "F", ...valuedLong("reporter relative editorconfig baseline log-level ruleset") } }, (has) => has("F")),
  pint: formatter({ long: valuedLong("config preset format output-to-file output-format cache-file") }, (has) => !has("--test", "--bail", "--version", "V", "--help", "h")), // with no paths, the whole project; --version, --help print
  "php-cs-fixer": bySubcommand({ long: valuedLong("config rules path-mode using-cache cache-file format allow-risky show-progress sequential") }, { fix: (input, rest) => (input.reading.has("--dry-run") ? [] : operandFiles(input, rest)) }),
  // golangci-lint run --fix (and v2's fmt, unless --diff): each package pattern's directory, `./...` everything under it.
  "golangci-lint": bySubcommand({ short: "c:", long: { config: "c", ...valuedLong("timeout out-format output-format enable disable enable-only build-tags skip-dirs skip-files exclude presets concurrency new-from-rev new-from-patch path-prefix") } }, {
    run: (input, rest) => (input.reading.has("--fix") ? goPackages(input, rest) : []),
    fmt: (input, rest) => (input.reading.has("--diff", "d", "--stdin") ? [] : goPackages(input, rest)),
  }),
  // dart format (unless its output goes elsewhere: `-o none`, `show`, `json`) and dart fix --apply.
  dart: bySubcommand({ short: "o:l:C:", long: { output: "o", "line-length": "l", directory: "C", ...valuedLong("language-version indent enable-experiment code") } }, {
    pub: pubWrites,
    format: (input, rest) => (input.reading.has("o") && input.reading.value("o") !== "write" ? [] : operandFiles(input, rest)),
    fix: (input, rest) => (input.reading.has("--apply") ? operandFiles(input, rest) : []),
  }),
  "swift-format": { syntax: { ...SWIFT_FORMAT, exact: true }, writes: (input) => swiftFormat(input, input.reading) },
  // zig fmt FILES (a directory: every .zig file under it), not --check or --stdin.
  zig: bySubcommand({ long: valuedLong("exclude color") }, { fmt: (input, rest) => (input.reading.has("--check", "--stdin") ? [] : operandFiles(input, rest, [])) }),
  // taplo fmt (format) FILES; with none, the TOML files its config includes, else every one under
  // where it runs. Not --check (--diff prints the changes and writes them all the same).
  taplo: bySubcommand({ short: "c:o:", long: { config: "c", option: "o", ...valuedLong("cache-path stdin-filepath colors") } }, {
    fmt: (input, rest) => (input.reading.has("--check") ? [] : operandFiles(input, rest)),
    format: (input, rest) => (input.reading.has("--check") ? [] : operandFiles(input, rest)),
  }),
  // tflint --fix: the module's files where it runs (--chdir's), with --recursive every module under it.
  tflint: {
    syntax: { short: "c:f:", long: { config: "c", format: "f", fix: "", recursive: "", ...valuedLong("chdir filter var-file var module call-module-type only enable-rule disable-rule enable-plugin minimum-failure-severity color max-workers") }, exact: true },
    writes: (input) => {
      if (!input.reading.has("fix") || asksHelp(input)) return [];
      const place = input.reading.has("chdir") ? directoryAt(input.walk.cwd, input.reading.value("chdir")) : input.walk.cwd;
      return [input.reading.has("recursive") ? anyUnder(place) : anyIn(place)];
    },
  },
  npm: javascriptPackages("npm", { shrinkwrap: npmShrinkwrap, pack: packWrites, "set-script": (input) => atRoot(projectRoot(input.walk.cwd, JS_MANIFEST), JS_MANIFEST) }),
  pnpm: javascriptPackages("pnpm"),
  // (yarn constraints --fix rewrites the workspaces' manifests: anything under the project.)
  yarn: javascriptPackages("yarn", { set: yarnSetVersion, policies: yarnSetVersion, constraints: (input) => (input.args.includes("--fix") ? [anyUnder(projectRoots(input.walk.cwd, JS_MANIFEST).at(-1))] : []) }),
  bun: withSnapshotUpdate(javascriptPackages("bun", { build: bunBuild })),
  // ava -u (--update-snapshots): its snapshot files, beside the tests or in their snapshots/ directories.
  ava: {
    syntax: { short: "um:c:", long: { "update-snapshots": "u", match: "m", concurrency: "c", ...valuedLong("config node-arguments timeout") } },
    writes: (input) => (input.reading.has("u") ? snapshotFiles(input.walk.cwd, ["**/snapshots/**", "**/__snapshots__/**", "**/*.snap", "**/*.snap.md"]) : []),
  },
  poetry: withPoetryBuild(
    pythonProject(
      { short: "C:P:o:f:E:", long: { directory: "C", project: "P", output: "o", format: "f", extras: "E", ...valuedLong("with without only") } },
      { add: true, remove: true, lock: false, update: false, install: false, init: true, export: "export", version: "version" },
      "poetry.lock",
    ),
  ),
  uv: withUvPipCompile(
    pythonProject(
      { short: "p:C:P:o:", long: { directory: "C", project: "P", python: "p", "output-file": "o", "out-dir": "o", ...valuedLong("format package extra group only-group no-group python-version") } },
      { add: true, remove: true, lock: false, sync: false, init: true, export: "export", version: "version" },
      "uv.lock",
    ),
  ),
  "pip-compile": { syntax: { ...PIP_COMPILE, exact: true }, writes: (input) => pipCompile(input, input.reading.operands) },
  piptools: bySubcommand(PIP_COMPILE, { compile: pipCompile }),
  // playwright test -u / --update-snapshots (not `=none`): the snapshots beside its tests, and the
  // aria snapshots it writes into the tests themselves; where its config puts them the text does
  // not say: anything under where it runs (and under a config's directory elsewhere).
  playwright: bySubcommand({ short: "c:g:j:u::", long: { config: "c", grep: "g", workers: "j", "update-snapshots": "u", ...valuedLong("grep-invert project reporter retries repeat-each timeout output shard global-timeout trace tsconfig update-source-method max-failures") } }, {
    test: (input) => {
      const { reading, walk } = input;
      const config = reading.has("c") ? directoryAt(walk.cwd, reading.value("c")) : walk.cwd;
      const place = config !== undefined && /\.[cm]?[jt]s$/.test(config) ? dirname(config) : config;
      // Every run empties and fills its output directory: `--output`'s, else test-results/ beside
      // its config (one its config names elsewhere: not read). (`--list` runs nothing.)
      if (reading.has("--list")) return [];
      const output = reading.has("output") ? anyUnder(directoryAt(walk.cwd, reading.value("output"))) : anyUnder(place === undefined ? undefined : join(place, "test-results"));
      if (!reading.has("u") || reading.value("u") === "none") return [output];
      return [...new Set([anyUnder(walk.cwd), anyUnder(place), output])];
    },
  }),
};

/** uv, with `uv pip compile -o FILE`, `uv build` and `uv venv` read before its project commands. */
function withUvPipCompile(rule: Rule): Rule {
  return { syntax: rule.syntax, writes: (input) => uvPipCompile(input) ?? uvPythonPin(input) ?? (input.args[input.reading.operands[0] ?? -1] === "build" && !asksHelp(input) ? pythonBuild(input, "o", sourceOf(input, input.reading.operands[1])) : uvVenv(input) ?? rule.writes(input)) };
}

/** `uv venv [DIR]`: anything under DIR (.venv where it runs by default). Undefined for any other uv command. */
function uvVenv(input: RuleInput): string[] | undefined {
  const [first, second] = input.reading.operands;
  if (input.args[first ?? -1] !== "venv") return undefined;
  return asksHelp(input) ? [] : [anyUnder(directoryAt(sourceOf(input, undefined), second === undefined ? ".venv" : input.args[second]))];
}

/** poetry, with `poetry build` (`-o`/`--output`: its directory) and `poetry new` read before its project commands. */
function withPoetryBuild(rule: Rule): Rule {
  return { syntax: rule.syntax, writes: (input) => (input.args[input.reading.operands[0] ?? -1] === "build" && !asksHelp(input) ? pythonBuild(input, "o", sourceOf(input, undefined)) : input.args[input.reading.operands[0] ?? -1] === "new" ? newProject(input, false) : rule.writes(input)) };
}

/**
 * `poetry new DIR`, `hatch new NAME [DIR]`: anything under the project's new directory (hatch's
 * NAME made a directory's name: `My Proj` is my-proj); `hatch new --init`: pyproject.toml here.
 */
export function newProject(input: RuleInput, normalized = false): string[] {
  const [, name, place] = input.reading.operands;
  if (asksHelp(input)) return [];
  if (input.args.includes("--init")) return [input.walk.cwd === undefined ? UNKNOWABLE : join(input.walk.cwd, "pyproject.toml")];
  if (name === undefined) return [];
  const given = input.args[place ?? name];
  const directory = normalized && place === undefined && given !== undefined ? given.toLowerCase().replace(/[\s_.]+/g, "-") : given;
  return [anyUnder(directoryAt(input.walk.cwd, directory)), ...(directory !== given ? [anyUnder(directoryAt(input.walk.cwd, given))] : [])];
}

/** Where a uv or poetry command works: the source directory given, else `--project`'s or `--directory`'s, else where it runs. */
function sourceOf(input: RuleInput, source: number | undefined): string | undefined {
  if (source !== undefined) return directoryAt(input.walk.cwd, input.values([source])[0]);
  const place = input.reading.has("P") ? "P" : input.reading.has("C") ? "C" : undefined;
  return place === undefined ? input.walk.cwd : directoryAt(input.walk.cwd, input.reading.value(place));
}

/**
 * What building a Python package writes: its archives in the output option's directory, else
 * dist/ in the project (the nearest directory up holding pyproject.toml, setup.py or setup.cfg,
 * from the source directory given or where it runs); and, as setuptools builds, build/ and
 * *.egg-info beside the sources (python -m build, uv build, poetry build, hatch build, pdm build, flit build).
 */
export function pythonBuild(input: RuleInput, output: string | undefined, start: string | undefined): string[] {
  const root = projectRoot(start, ["pyproject.toml", "setup.py", "setup.cfg"]);
  if (root === undefined) return [UNKNOWABLE];
  const out = output !== undefined && input.reading.has(output) ? optionFiles(input, [output]).map((path) => (path.startsWith("\0") ? path : anyUnder(directoryAt(input.walk.cwd, path)))) : [anyUnder(join(root, "dist"))];
  return [...out, anyUnder(join(root, "build")), globOf(join(root, "*.egg-info", "**")), globOf(join(root, "src", "*.egg-info", "**"))];
}

/** `uv python pin 3.12`: .python-version where it runs (or `--directory`'s); alone it prints the pin. Undefined for any other uv command. */
function uvPythonPin(input: RuleInput): string[] | undefined {
  const [first, second, third] = input.reading.operands;
  if (input.args[first ?? -1] !== "python" || input.args[second ?? -1] !== "pin") return undefined;
  // (`--rm` removes the pin; `--global` pins in uv's own config directory.)
  if (third === undefined && !input.reading.has("--rm")) return [];
  const cwd = input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd;
  const { XDG_CONFIG_HOME, HOME } = input.walk.environment;
  const config = XDG_CONFIG_HOME ? join(XDG_CONFIG_HOME, "uv") : HOME ? join(HOME, ".config", "uv") : undefined;
  return [input.reading.has("--global") ? (config === undefined ? UNKNOWABLE : join(config, ".python-version")) : within(cwd, ".python-version")];
}

/**
 * `go work`: `init` makes go.work where it runs; `use` and `edit` (not `-json`, `-print`) rewrite
 * the workspace's go.work (GOWORK's, else the nearest up); `sync` writes the workspace's build
 * list back to each module it uses (their go.mod and go.sum) and go.work, go.work.sum; `vendor`
 * its vendor/ (or `-o`'s directory).
 */
function goWork(input: RuleInput, rest: number[]): string[] {
  const { args, walk } = input;
  const action = args[rest[0] ?? -1] ?? "";
  const cwd = input.reading.has("C") ? directoryAt(walk.cwd, input.reading.value("C")) : walk.cwd;
  if (action === "init") return atRoot(cwd, ["go.work"]);
  if (!["use", "edit", "sync", "vendor"].includes(action) || (action === "edit" && args.some((arg) => arg === "-json" || arg === "-print"))) return [];
  const named = walk.environment.GOWORK;
  const file = named !== undefined && !["", "off", "auto"].includes(named) ? directoryAt(cwd, named) : cwd === undefined ? undefined : join(ancestorsHolding(cwd, ["go.work"])[0] ?? cwd, "go.work");
  if (file === undefined) return [UNKNOWN_MARK + "go.work"];
  if (action === "vendor") {
    const output = args.indexOf("-o");
    return [anyUnder(output === -1 ? join(dirname(file), "vendor") : directoryAt(cwd, args[output + 1]))];
  }
  if (action !== "sync") return [file];
  const modules = workModules(file);
  const each = modules === undefined ? [globOf(join(dirname(file), "**", "go.mod")), globOf(join(dirname(file), "**", "go.sum"))] : modules.flatMap((module) => [join(module, "go.mod"), join(module, "go.sum")]);
  return [file, `${file}.sum`, ...each];
}

/** The module directories a go.work's `use` directives name (`use ./a`, `use ( ./a "./b" )`); undefined where it cannot be read. */
function workModules(file: string): string[] | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  const uses: string[] = [];
  let block = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\/\/.*$/, "").trim();
    if (block) {
      if (line === ")") block = false;
      else if (line !== "") uses.push(line);
      continue;
    }
    const use = /^use\s*(\(|\S.*)$/.exec(line)?.[1];
    if (use === "(") block = true;
    else if (use !== undefined) uses.push(use);
  }
  return uses.flatMap((use) => directoryAt(dirname(file), use.replace(/^"(.*)"$/, "$1")) ?? []);
}

/** Go package patterns (golangci-lint): `./...` everything under its directory, a directory its files; none, everything under where it runs. */
function goPackages(input: RuleInput, rest: number[], cwd = input.walk.cwd): string[] {
  if (rest.length === 0) return [anyUnder(cwd)];
  return input.values(rest).map((pattern) => (pattern.endsWith("/...") || pattern === "..." ? anyUnder(directoryAt(cwd, pattern.slice(0, -3) || ".")) : (directoryAt(cwd, pattern) ?? pattern)));
}

/** The files of the Go packages `go fmt` and `go fix` are given (`./...`: everything under its directory); none, the package where it runs (`go -C dir`: there). */
function goPackageFiles(input: RuleInput, packages: number[]): string[] {
  const cwd = input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd;
  return packages.length === 0 ? [anyIn(cwd)] : input.values(packages).map((pattern) => (pattern.endsWith("/...") ? anyUnder(directoryAt(cwd, pattern.slice(0, -4) || ".")) : (directoryAt(cwd, pattern) ?? pattern)));
}

/**
 * `go fix [-fix list] [build flags] [packages]`: the packages' files, as go fmt's are read; with
 * `-diff` (Go 1.26's go fix) it prints the changes and writes nothing. Its flags are Go's: whole
 * words, the valued ones (`-fix`, `-tags`, `-fixtool`) taking the next argument unless written `-flag=value`.
 */
function goFix(input: RuleInput): string[] {
  const { args } = input;
  const packages: number[] = [];
  for (let at = args.indexOf("fix") + 1; at > 0 && at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined) packages.push(at);
    else if (/^--?diff(=(true|1))?$/.test(arg)) return [];
    else if (/^--?(fix|fixtool)$/.test(arg) || GO_TEST_VALUED.test(arg)) at++;
    else if (!arg.startsWith("-")) packages.push(at);
  }
  return goPackageFiles(input, packages);
}

/** go test's flags that take a value as the next argument (its build flags among them). */
const GO_TEST_VALUED = /^--?(run|skip|bench|benchtime|count|cpu|parallel|timeout|tags|coverprofile|covermode|coverpkg|cpuprofile|memprofile|memprofilerate|blockprofile|blockprofilerate|mutexprofile|mutexprofilefraction|trace|outputdir|o|exec|p|ldflags|gcflags|asmflags|mod|modfile|overlay|pgo|pkgdir|toolexec|buildmode|compiler|installsuffix|fuzz|fuzztime|fuzzminimizetime|list|shuffle|vet|C)$/;

/**
 * `go test -update ./...` (also after `-args`, `-update-golden` and the like): by common
 * convention a test's own flag that rewrites its golden files (testdata/ beside the test, mostly):
 * anything under each package's directory, as golangci-lint's patterns are read; none, everything
 * under where it runs. `-update=false` asks for nothing.
 */
function goTestUpdate(input: RuleInput): string[] {
  const { args } = input;
  const cwd = input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd;
  const packages: number[] = [];
  let update = false;
  let binary = false; // after -args: the test binary's own
  // Its profiles (-coverprofile, -cpuprofile…, in -outputdir's directory when given) and -c's -o binary.
  const files: Array<{ flag: string; at?: number; value?: string }> = [];
  for (let at = args.indexOf("test") + 1; at > 0 && at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined) {
      if (!binary) packages.push(at);
      continue;
    }
    const flag = /^--?(?:test\.)?update[\w-]*(?:=(.*))?$/.exec(arg);
    const file = binary ? null : /^--?(coverprofile|cpuprofile|memprofile|blockprofile|mutexprofile|trace|o|outputdir)(?:=(.*))?$/.exec(arg);
    if (flag !== null) update ||= !/^(false|0|f|F|FALSE|False)$/.test(flag[1] ?? "");
    else if (file !== null) {
      if (file[2] !== undefined) files.push({ flag: file[1] as string, value: file[2] });
      else files.push({ flag: file[1] as string, at: ++at });
    } else if (arg === "-args" || arg === "--args") binary = true;
    else if (!binary && GO_TEST_VALUED.test(arg)) at++;
    else if (!binary && !arg.startsWith("-")) packages.push(at);
  }
  const valueOf = (file: { at?: number; value?: string }) => (file.value !== undefined ? file.value : file.at === undefined ? undefined : args[file.at]);
  const outputdir = files.find((file) => file.flag === "outputdir");
  const profilesAt = outputdir === undefined ? cwd : directoryAt(cwd, valueOf(outputdir));
  const written = files
    .filter((file) => file.flag !== "outputdir")
    .map((file) => {
      const value = valueOf(file);
      const place = file.flag === "o" ? cwd : profilesAt;
      return value === undefined || place === undefined ? UNKNOWABLE : isAbsolute(value) ? value : join(place, value);
    });
  return [...written, ...(update ? goPackages(input, packages, cwd) : [])];
}

/**
 * pip-compile (pip-tools; `python -m piptools compile`): the pinned requirements it writes, named by
 * `-o`/`--output-file` (`-` is stdout), else beside its one source: `requirements.in` makes
 * requirements.txt, setup.py, setup.cfg or pyproject.toml a requirements.txt in their directory;
 * none, requirements.txt where it runs. `-n`/`--dry-run` writes nothing.
 */
function pipCompile(input: RuleInput, sources: number[]): string[] {
  if (input.reading.has("n") || asksHelp(input)) return [];
  if (input.reading.has("o")) return optionFiles(input, ["o"]);
  const first = sources[0];
  if (first === undefined) return ["requirements.txt"];
  const source = input.args[first];
  if (source === undefined) return [UNKNOWABLE];
  if (source === "-") return []; // stdin with no -o: an error
  if (["setup.py", "setup.cfg", "pyproject.toml"].includes(source.replace(/^.*\//, ""))) return [join(dirname(source), "requirements.txt")];
  return [(source.includes(".") ? source.slice(0, source.lastIndexOf(".")) : source) + ".txt"];
}

/** `uv pip compile … -o FILE`: that file (with no -o it prints); where `uv --directory` runs it. */
const UV_PIP_COMPILE: Syntax = { short: "o:c:b:P:p:C:", long: { "output-file": "o", constraint: "c", "build-constraint": "b", "upgrade-package": "P", python: "p", "config-setting": "C", ...valuedLong("directory project extra index-url extra-index-url find-links index default-index python-version python-platform annotation-style custom-compile-command resolution prerelease fork-strategy exclude-newer cache-dir config-file override group") } };
function uvPipCompile(input: RuleInput): string[] | undefined {
  const pip = input.args.indexOf("pip");
  if (pip === -1 || input.args[pip + 1] !== "compile") return undefined;
  const reading = readOptions(input.args, UV_PIP_COMPILE, pip + 2, input.text);
  const before = readOptions(input.args.slice(0, pip), { long: valuedLong("directory project") }, 0, input.text);
  const cwd = before.has("directory") ? directoryAt(input.walk.cwd, before.value("directory")) : input.walk.cwd;
  return optionFiles(input, ["o"], reading).map((path) => within(cwd, path));
}

/**
 * poetry, uv: the lock file at every root up from where it runs (`--directory`/`--project`'s,
 * else cwd), and pyproject.toml for the subcommands that change it (`manifest`). A check
 * (`lock --check`, `sync --locked`/`--frozen`) writes nothing. `export` writes the file
 * `-o`/`--output`/`--output-file` names (else it prints), relative to `--directory`, where both
 * run; uv's relocks first, as its sync does (poetry's refuses a stale lock file instead).
 */
function pythonProject(syntax: Syntax, subcommands: Record<string, boolean | "export" | "version">, lock: string): Rule {
  const writes = (manifest: boolean) => (input: RuleInput) => {
    if (input.reading.has("--check", "--locked", "--frozen", "--dry-run")) return [];
    const place = input.reading.has("P") ? "P" : input.reading.has("C") ? "C" : undefined;
    const start = place === undefined ? input.walk.cwd : directoryAt(input.walk.cwd, input.reading.value(place));
    return [...(manifest ? atRoot(projectRoot(start, ["pyproject.toml"]), ["pyproject.toml"]) : []), ...atRoots(start, ["pyproject.toml"], [lock])];
  };
  const exports = (input: RuleInput) => {
    const cwd = input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd;
    return [...optionFiles(input, ["o"]).map((path) => within(cwd, path)), ...(lock === "uv.lock" ? writes(false)(input) : [])];
  };
  // `poetry version patch`, `uv version 1.2.0` or `--bump minor`: the project's version rewritten in its manifest; alone, or `--short`, printed.
  const version = (input: RuleInput, rest: number[]) => {
    if (rest.length === 0 && !input.args.some((arg) => arg === "--bump" || arg?.startsWith("--bump=") === true)) return [];
    if (input.reading.has("--dry-run")) return [];
    const place = input.reading.has("P") ? "P" : input.reading.has("C") ? "C" : undefined;
    const start = place === undefined ? input.walk.cwd : directoryAt(input.walk.cwd, input.reading.value(place));
    // (uv relocks after it, unless --frozen or --locked; poetry's leaves the lock file alone.)
    const relocks = lock === "uv.lock" && !input.reading.has("--frozen", "--locked");
    return [...atRoot(projectRoot(start, ["pyproject.toml"]), ["pyproject.toml"]), ...(relocks ? atRoots(start, ["pyproject.toml"], [lock]) : [])];
  };
  return bySubcommand(syntax, Object.fromEntries(Object.entries(subcommands).map(([sub, manifest]) => [sub, manifest === "export" ? exports : manifest === "version" ? version : writes(manifest)])));
}

/** terraform (`-chdir=dir` before its subcommand runs it there): fmt (Go-style flags) the files here, with -recursive everything under, or the operands; init, apply, plan -out and the like their own files. */
function terraformFmt(): Rule {
  const fmt = goFormatter(["var"], (flags) => !flags.has("check") && !flags.has("no-write"), (input) => [input.args.includes("-recursive") ? "." : anyIn(input.walk.cwd)]);
  return {
    syntax: { ordered: true },
    writes: (input) => {
      let at = 0;
      let cwd = input.walk.cwd;
      for (; at < input.args.length && input.args[at]?.startsWith("-"); at++) {
        const arg = input.args[at] as string;
        if (arg.startsWith("-chdir=")) cwd = directoryAt(cwd, arg.slice("-chdir=".length));
      }
      const sub = input.args[at];
      // init: the providers and modules it fetches (.terraform/) and their lock file; apply,
      // destroy, import, refresh and state changes: the local state (a remote backend's is elsewhere:
      // terraform.tfstate here is written only by the local one, judged all the same); plan -out.
      if (sub === "init" || sub === "get") return cwd === undefined ? [UNKNOWABLE] : [anyUnder(join(cwd, ".terraform")), join(cwd, ".terraform.lock.hcl")];
      if (sub === "providers" && input.args[at + 1] === "lock") return cwd === undefined ? [UNKNOWABLE] : [join(cwd, ".terraform.lock.hcl")];
      if (sub !== undefined && ["apply", "destroy", "import", "refresh", "taint", "untaint"].includes(sub) || (sub === "state" && ["mv", "rm", "push", "replace-provider"].includes(input.args[at + 1] ?? ""))) {
        return cwd === undefined ? [UNKNOWABLE] : [join(cwd, "terraform.tfstate"), join(cwd, "terraform.tfstate.backup"), anyUnder(join(cwd, "terraform.tfstate.d"))];
      }
      if (sub === "plan") {
        const out = input.args.slice(at + 1).find((arg) => arg?.startsWith("-out="));
        return out === undefined ? [] : [directoryAt(cwd, out.slice("-out=".length)) ?? UNKNOWABLE];
      }
      if (sub !== "fmt") return [];
      const shifted: RuleInput = { ...input, args: input.args.slice(at + 1), values: (indexes) => input.values(indexes?.map((index) => index + at + 1)), walk: { ...input.walk, cwd } };
      return fmt.writes(shifted).map((path) => (path.startsWith("\0") || isAbsolute(path) ? path : within(cwd, path)));
    },
  };
}
