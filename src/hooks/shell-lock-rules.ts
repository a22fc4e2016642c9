// Package managers and version pinners beyond the ones shell-tool-rules.ts reads, each writing its
// lock file and manifest (and where it installs) in the project it finds: corepack's own commands,
// deno's dependency commands and the ones that run a program (and its fmt and lint), nix flakes' flake.lock, helm's chart archives and
// dependencies, pipenv's and pdm's lock files, expo install; and, beside shell-tool-rules.ts's own
// reading of them, cargo's commands that resolve dependencies (Cargo.lock) and npm's that run its
// editor (any file). `--help` writes nothing.
import { dirname, join } from "node:path";
import { exists, isDirectory } from "../targets/target.js";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { interpreterByExtension } from "./program-files.js";
import { MISE_RULE } from "./shell-mise.js";
import { readOptions, valuedLong } from "./shell-options.js";
import { optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { asksHelp, atRoot, atRoots, bySubcommand, installWrites, JS_MANIFEST, operandFiles, projectRoot, pythonBuild, TOOL_RULES, withMore } from "./shell-tool-rules.js";
import { anyIn, anyUnder, directoryAt, readText, UNKNOWABLE, within } from "./shell-words.js";

/** The JavaScript package managers corepack runs, by their shims' names. */
const COREPACK_SHIMS: Record<string, string[]> = { yarn: ["yarn", "yarnpkg"], pnpm: ["pnpm", "pnpx"], npm: ["npm", "npx"] };

/** The package manager a `name@version` (or a package.json's packageManager) names; undefined for none of them. */
const managerOf = (spec: string | undefined) => {
  const name = spec?.replace(/@.*$/, "");
  return name !== undefined && Object.hasOwn(COREPACK_SHIMS, name) ? name : undefined;
};

/** Every JavaScript package manager's install, where a command's manager is not known from its text. */
const anyInstall = (input: RuleInput, manifest: boolean) => [...new Set(Object.keys(COREPACK_SHIMS).concat("bun").flatMap((manager) => installWrites(input, manager, manifest)))];

/**
 * corepack's own commands (`corepack pnpm …` runs pnpm: shell-runners.ts): `use x@v` sets
 * package.json's packageManager and installs with it; `up` does so with the manager packageManager
 * names; `enable`/`disable` make or remove the shims in `--install-directory` (else beside corepack
 * itself, outside the project); `pack`/`prepare` with `-o`/`--output=` write a tarball (else, as
 * `install`, corepack's cache).
 */
const corepack: Rule = {
  syntax: { long: { "install-directory": ":", output: "::", help: "h" }, exact: true },
  writes: (input) => {
    const { args, reading } = input;
    const [first, ...rest] = reading.operands;
    const sub = args[first ?? -1];
    if (reading.has("h")) return [];
    if (sub === "use") {
      const manager = managerOf(args[rest[0] ?? -1]);
      return manager === undefined ? anyInstall(input, true) : installWrites(input, manager, true);
    }
    if (sub === "up") {
      const root = projectRoot(input.walk.cwd, JS_MANIFEST);
      const field = /"packageManager"\s*:\s*"([^"]*)"/.exec((root === undefined ? undefined : readText(join(root, "package.json"))) ?? "")?.[1];
      const manager = managerOf(field);
      return manager === undefined ? anyInstall(input, true) : installWrites(input, manager, true);
    }
    if (sub === "enable" || sub === "disable") {
      if (!reading.has("install-directory")) return [];
      const directory = directoryAt(input.walk.cwd, reading.value("install-directory"));
      const names = rest.length > 0 ? input.values(rest) : ["yarn", "pnpm"];
      return names.flatMap((name) => (COREPACK_SHIMS[name] ?? []).map((shim) => (directory === undefined ? UNKNOWN_MARK + shim : join(directory, shim))));
    }
    if ((sub === "pack" || sub === "prepare") && (reading.has("output") || args.includes("-o"))) return [within(input.walk.cwd, reading.value("output") ?? "corepack.tgz")];
    return [];
  },
};

const DENO_CONFIGS = ["deno.json", "deno.jsonc", "package.json"];

/**
 * deno's commands that run, serve, test, bench, type-check or compile a program (and `deno x.ts`,
 * which runs it): with a configuration they record what it imports in deno.lock, as `deno cache`
 * does ("Deno creates and updates it automatically whenever a deno.json (or package.json) is
 * present": docs.deno.com, Lock dependencies with deno.lock). What follows the program of `run`,
 * `serve` and `compile` is the program's own (`deno run x.ts --no-lock`: its argument, not deno's).
 */
const DENO_RUNS = ["run", "serve", "test", "bench", "check", "compile"];
const DENO_ONE_PROGRAM = ["run", "serve", "compile"];

/**
 * deno add, remove, install, cache and `outdated --update`, and the commands that run a program
 * (DENO_RUNS): the configuration they change (add, remove, outdated: deno.json or deno.jsonc, and
 * package.json where there is one; a new deno.json where neither is), deno.lock (`--lock=`'s, or
 * the configuration's `"lock": "f"` or `{ "path": "f" }`; at every root up, a workspace's too; not
 * with `--no-lock` or `"lock": false`, nor frozen, `--frozen` or `{ "frozen": true }`, unless
 * `--frozen=false`, where a lock file out of date is an error; none without a configuration,
 * unless `--lock=`) and node_modules where the project uses one (a package.json, `nodeModulesDir`,
 * `--node-modules-dir`; a program run installs there only with `"auto"`). The project is
 * `-c`/`--config`'s (one not there stops deno), else the nearest directory up with a config.
 * `install -g` is the machine's. `test --coverage[=DIR]` and `--junit-path` write their reports;
 * `compile` its executable (`-o`'s, else named after the program, as deno's infer_name_from_url
 * names it).
 */
function denoPackages(sub: string, bare = false) {
  return (given: RuleInput, operands: number[]): string[] => {
    // `run`, `serve`, `compile` (and `deno x.ts`): deno's options end at the program.
    const start = bare ? 0 : (given.reading.operands[0] ?? given.args.length) + 1;
    const input = DENO_ONE_PROGRAM.includes(sub) ? { ...given, reading: readOptions(given.args, { ...DENO.syntax, ordered: true }, start, given.text) } : given;
    const { reading, walk } = input;
    const rest = DENO_ONE_PROGRAM.includes(sub) ? reading.operands : operands;
    const runs = DENO_RUNS.includes(sub);
    const changes = sub === "add" || sub === "remove" || sub === "outdated" || (sub === "install" && !reading.has("g", "e") && rest.length > 0);
    if (sub === "outdated" && !reading.has("u")) return [];
    if (sub === "install" && reading.has("g")) return reading.has("root") ? [anyIn(directoryAt(walk.cwd, join(reading.value("root") ?? "", "bin")))] : [];
    const frozenFlag = reading.has("frozen") && reading.value("frozen") !== "false";
    if (frozenFlag && changes) return []; // the lock file would be out of date: an error
    const own = [...(sub === "compile" ? denoExecutable(input, rest[0]) : []), ...(sub === "test" ? denoReports(input) : [])];
    const config = reading.has("c") ? directoryAt(walk.cwd, reading.value("c")) : undefined;
    if (reading.has("c") && config === undefined) return [UNKNOWABLE, ...own];
    if (config !== undefined && !exists(config)) return own; // deno cannot load it: it stops there
    const root = config !== undefined ? dirname(config) : projectRoot(walk.cwd, DENO_CONFIGS);
    if (root === undefined) return [UNKNOWABLE, ...own];
    // With no configuration, no lock file either (unless `--lock=`): only add makes a deno.json.
    if (!changes && config === undefined && reading.value("lock") === undefined && !DENO_CONFIGS.some((name) => exists(join(root, name)))) return own;
    const configs = config !== undefined ? [config] : ["deno.jsonc", "deno.json"].map((name) => join(root, name)).filter((path) => exists(path)).slice(0, 1);
    const manifest = exists(join(root, "package.json")) ? [join(root, "package.json")] : [];
    const settings = configs.map((path) => readText(path) ?? "").join("\n");
    // The configuration's lock setting: `"lock": false`, `"lock": "deps.lock"`, `"lock": { "path": …, "frozen": true }`.
    const setting = /"lock"\s*:\s*(false|true|"[^"]*"|\{[^}]*\})/.exec(settings)?.[1];
    const frozen = reading.has("frozen") ? frozenFlag : /"frozen"\s*:\s*true/.test(setting ?? "");
    if (frozen && changes) return own;
    const path = /^"([^"]*)"$/.exec(setting ?? "")?.[1] ?? /"path"\s*:\s*"([^"]*)"/.exec(setting ?? "")?.[1];
    const lock =
      reading.has("no-lock") || frozen || (setting === "false" && !reading.has("lock"))
        ? []
        : reading.value("lock") !== undefined
          ? [within(walk.cwd, reading.value("lock") as string)]
          : path !== undefined && configs[0] !== undefined
            ? [join(dirname(configs[0]), path)]
            : config !== undefined
              ? [join(root, "deno.lock")]
              : atRoots(root, DENO_CONFIGS, ["deno.lock"]);
    const modes = runs ? /"nodeModulesDir"\s*:\s*("auto"|true)/ : /"nodeModulesDir"\s*:\s*("auto"|"manual"|true)/;
    const mode = reading.value("node-modules-dir");
    const modules = reading.has("node-modules-dir") ? !(runs ? /^(none|false|manual)$/ : /^(none|false)$/).test(mode ?? "") : (!runs && manifest.length > 0) || modes.test(settings);
    const changed = changes ? (configs.length + manifest.length > 0 ? [...configs, ...manifest] : [join(root, "deno.json")]) : [];
    return [...changed, ...lock, ...(modules && !reading.has("--lockfile-only") ? [anyUnder(join(root, "node_modules"))] : []), ...own];
  };
}

/**
 * `deno compile`'s executable: `-o`'s file (a directory, `dist/`: one named there), else named
 * after the program where deno runs: its file's stem, its directory's name for a `main`, `mod`,
 * `index` or `cli`, a version after `@` dropped (deno's infer_name_from_url).
 */
function denoExecutable(input: RuleInput, program: number | undefined): string[] {
  const { reading, walk } = input;
  const output = reading.value("o");
  if (reading.has("o") && output === undefined) return [UNKNOWABLE];
  if (output !== undefined && !output.endsWith("/") && !isDirectory(within(walk.cwd, output))) return [within(walk.cwd, output)];
  const place = output === undefined ? walk.cwd : directoryAt(walk.cwd, output);
  const source = program === undefined ? undefined : input.args[program]?.replace(/^(jsr|npm|https?|file):\/*/, "").replace(/[?#].*$/, "");
  const parts = (source ?? "").split("/").filter(Boolean);
  let name = parts.at(-1)?.replace(/\.[^.]*$/, "");
  if (name !== undefined && /^(main|mod|index|cli)$/.test(name) && parts.length > 1) name = parts.at(-2);
  name = name?.replace(/(?<=.)@.*$/, "");
  return [name === undefined || name === "" ? anyIn(place) : place === undefined ? UNKNOWN_MARK + name : join(place, name)];
}

/** `deno test --coverage[=DIR]` (coverage/ by default) and `--junit-path=F`: the reports it writes. */
function denoReports(input: RuleInput): string[] {
  const { reading, walk } = input;
  const coverage = reading.has("coverage") ? [anyUnder(directoryAt(walk.cwd, reading.value("coverage") ?? "coverage"))] : [];
  return [...coverage, ...optionFiles(input, ["junit-path"]).map((path) => within(walk.cwd, path))];
}

const DENO = bySubcommand(
  {
    short: "c:L:n:o:",
    long: {
      config: "c",
      "log-level": "L",
      name: "n",
      output: "o",
      global: "g",
      entrypoint: "e",
      update: "u",
      lock: "::",
      frozen: "::",
      "no-lock": "",
      "node-modules-dir": "::",
      coverage: "::",
      ...valuedLong("ext ignore root import-map cert location seed preload require conditions filter reporter junit-path target include exclude icon port host"),
    },
  },
  {
    fmt: (input, rest) => (input.reading.has("--check") ? [] : operandFiles(input, rest)),
    lint: (input, rest) => (input.reading.has("--fix") ? operandFiles(input, rest) : []),
    ...Object.fromEntries(["add", "remove", "install", "cache", "outdated", ...DENO_RUNS].map((sub) => [sub, denoPackages(sub)])),
  },
);

/** deno: its commands (DENO), and a program run without `run` (`deno x.ts`), as `deno run x.ts`. */
const deno: Rule = {
  syntax: DENO.syntax,
  writes: (input) => {
    const first = input.reading.operands[0];
    const word = first === undefined ? undefined : input.args[first];
    // `deno test … -- -u` (`--update`): its snapshot files, `__snapshots__/` anywhere under where it runs.
    const dashes = input.args.indexOf("--");
    const updates = word === "test" && dashes !== -1 && input.args.slice(dashes + 1).some((arg) => arg === "-u" || arg === "--update");
    const snapshots = updates ? [input.walk.cwd === undefined ? UNKNOWABLE : `${GLOB_MARK}${join(input.walk.cwd, "**", "__snapshots__", "**")}`] : [];
    if (word === undefined || interpreterByExtension(word) === undefined || asksHelp(input)) return [...DENO.writes(input), ...snapshots];
    return denoPackages("run", true)(input, [first as number]);
  },
};

/** nix's options that take a value, and those that take two (`--override-input a b`). */
const NIX_VALUED = /^(--(extra-)?experimental-features|--store|--eval-store|-I|--include|--log-format|--update-input|--inputs-from|--reference-lock-file|--output-lock-file|--flake|--commit-lock-file-summary|-j|--max-jobs|--cores|-t|--template)$/;
const NIX_PAIRS = /^--(option|override-input|override-flake|arg|argstr|arg-from-file)$/;

/**
 * `nix flake update` and `nix flake lock`: the flake.lock beside the flake.nix of the flake they
 * are given (lock: its operand; update: `--flake`, or Nix 2.18's operand, a path; Nix 2.19's
 * operands are input names), by default where nix runs, looked for from there up; a flake
 * elsewhere (`github:…`, a registry name) is none of the project's. `--output-lock-file`'s file
 * instead; `--no-write-lock-file` writes none. `nix flake init` and `nix flake new DIR` copy a
 * template's files (`-t`'s, else the default one) where nix runs, or into DIR: any file under it.
 */
const nix: Rule = {
  syntax: {},
  writes: (input) => {
    const { args } = input;
    const operands: number[] = [];
    const values = new Map<string, string | undefined>();
    for (let at = 0; at < args.length; at++) {
      const arg = args[at];
      if (arg !== undefined && NIX_PAIRS.test(arg)) at += 2;
      else if (arg !== undefined && NIX_VALUED.test(arg)) values.set(arg, args[++at]);
      else if (arg !== undefined && arg.startsWith("--") && arg.includes("=")) values.set(arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1));
      else if (arg === undefined || !arg.startsWith("-")) operands.push(at);
    }
    const [flake, sub, ...rest] = operands.map((at) => args[at]);
    if (flake !== "flake" || args.includes("--help")) return [];
    if (sub === "init") return [anyUnder(input.walk.cwd)];
    if (sub === "new") return operands.length > 2 ? [anyUnder(directoryAt(input.walk.cwd, rest[0]))] : [];
    if ((sub !== "update" && sub !== "lock") || args.includes("--no-write-lock-file")) return [];
    if (values.has("--output-lock-file")) return [directoryAt(input.walk.cwd, values.get("--output-lock-file")) ?? UNKNOWABLE];
    const isPath = (ref: string | undefined) => ref === undefined || /^(\.|\/|path:|git\+file:|file:)/.test(ref);
    const ref = values.has("--flake") ? values.get("--flake") : sub === "lock" ? (rest[0] ?? ".") : (rest.find(isPath) ?? ".");
    if (ref === undefined) return [UNKNOWN_MARK + "flake.lock"];
    if (!isPath(ref)) return [];
    const [path, query] = ref.replace(/^(path:|git\+file:\/\/|file:\/\/|git\+file:|file:)/, "").split("?") as [string, string | undefined];
    const inside = /(?:^|&)dir=([^&]*)/.exec(query ?? "")?.[1];
    const directory = directoryAt(input.walk.cwd, inside === undefined ? path || "." : join(path || ".", decodeURIComponent(inside)));
    return atRoot(projectRoot(directory, ["flake.nix"]), ["flake.lock"]);
  },
};

/**
 * `helm dependency update` (`dep up`) and `build`: the chart's lock file (Chart.lock, or
 * requirements.lock beside an apiVersion v1 chart's requirements.yaml) and the archives in its
 * charts/; build, from a lock file that is there, charts/ alone. The chart is the operand, else
 * where helm runs.
 */
function helmDependency(input: RuleInput, rest: number[]): string[] {
  const action = input.args[rest[0] ?? -1];
  if (action !== "update" && action !== "up" && action !== "build") return [];
  return chartDependencies(rest.length > 1 ? directoryAt(input.walk.cwd, input.args[rest[1] as number]) : input.walk.cwd, action === "build");
}

/** A chart's lock file and the archives in its charts/, as `helm dependency update` writes them (build: from a lock file that is there, charts/ alone). */
function chartDependencies(chart: string | undefined, build: boolean): string[] {
  if (chart === undefined) return [UNKNOWN_MARK + "Chart.lock", UNKNOWN_MARK + "charts/**"];
  const lock = join(chart, exists(join(chart, "requirements.yaml")) ? "requirements.lock" : "Chart.lock");
  return [...(build && exists(lock) ? [] : [lock]), anyUnder(join(chart, "charts"))];
}

/**
 * `helm package [chart…]`: each chart's archive, `name-version.tgz` (the name its Chart.yaml gives,
 * the version `--version`'s or its own: any), in `-d`/`--destination` or where helm runs; with
 * `-u`/`--dependency-update`, each chart's dependencies first, as `helm dependency update` writes them.
 */
function helmPackage(input: RuleInput, rest: number[]): string[] {
  const { args, reading, walk } = input;
  const charts = rest.length > 0 ? rest.map((at) => directoryAt(walk.cwd, args[at])) : [walk.cwd];
  const destination = directoryAt(walk.cwd, reading.has("d") ? reading.value("d") : ".");
  const version = reading.value("version");
  const archive = (chart: string | undefined) => {
    const name = chart === undefined ? undefined : /^name:\s*["']?([^\s"'#]+)/m.exec(readText(join(chart, "Chart.yaml")) ?? "")?.[1];
    const file = name === undefined ? "*.tgz" : `${name}-${version ?? "*"}.tgz`;
    return destination === undefined ? UNKNOWN_MARK + file : file.includes("*") ? GLOB_MARK + join(destination, file) : join(destination, file);
  };
  return [...charts.map(archive), ...(reading.has("u") ? charts.flatMap((chart) => chartDependencies(chart, false)) : [])];
}

const helmRules: Record<string, (input: RuleInput, rest: number[]) => string[]> = {
  ...Object.fromEntries(["dependency", "dep", "dependencies"].map((sub) => [sub, helmDependency])),
  package: helmPackage,
};
const helm: Rule = bySubcommand(
  {
    short: "n:d:h", // -h: helm's help, as --help
    long: {
      namespace: "n",
      destination: "d",
      "dependency-update": "u",
      ...valuedLong(`keyring repository-config repository-cache registry-config kube-context kubeconfig kube-apiserver kube-as-user kube-as-group kube-ca-file kube-token
        kube-tls-server-name burst-limit qps content-cache app-version version key passphrase-file username password cert-file key-file ca-file`),
    },
  },
  Object.fromEntries(Object.entries(helmRules).map(([sub, rule]) => [sub, (input: RuleInput, rest: number[]) => (input.reading.has("h") ? [] : rule(input, rest))])),
);

/**
 * pipenv: Pipfile.lock for what locks (lock, install, update, upgrade, uninstall), and the Pipfile
 * for what changes it (packages named, `-r`/`-e`, upgrade, uninstall; install where there is none
 * yet, which makes one). The project: PIPENV_PIPFILE's, else the nearest Pipfile up. Installing
 * from the lock file (`install --deploy`, `--ignore-pipfile`, `sync`), `update --outdated` and
 * `--dry-run` write neither (the virtualenv is outside the project unless asked for).
 */
function pipenvWrites(sub: string) {
  return (input: RuleInput, rest: number[]): string[] => {
    const { reading, walk } = input;
    if (reading.has("--dry-run", "--outdated", "--deploy", "--ignore-pipfile", "--all")) return [];
    const given = walk.environment.PIPENV_PIPFILE;
    const file = given !== undefined && given !== "" ? directoryAt(walk.cwd, given) : undefined;
    const found = walk.cwd === undefined ? undefined : ancestorsOf(walk.cwd, "Pipfile");
    const pipfile = file ?? found ?? (walk.cwd === undefined ? undefined : join(walk.cwd, "Pipfile"));
    if (pipfile === undefined) return [UNKNOWN_MARK + "Pipfile.lock"];
    const changes = sub === "upgrade" || sub === "uninstall" || (sub === "install" && (rest.length > 0 || reading.has("r", "e") || (file === undefined && found === undefined)));
    return [...(changes ? [pipfile] : []), `${pipfile}.lock`];
  };
}

/** The nearest `name` from `directory` up, as a path; undefined where there is none. */
function ancestorsOf(directory: string, name: string): string | undefined {
  for (let at = directory; ; at = dirname(at)) {
    if (exists(join(at, name))) return join(at, name);
    if (at === dirname(at)) return undefined;
  }
}

const pipenv: Rule = bySubcommand(
  { short: "r:e:c:", long: { requirements: "r", editable: "e", constraint: "c", ...valuedLong("python pypi-mirror categories extra-pip-args") } },
  Object.fromEntries(["lock", "install", "update", "upgrade", "uninstall"].map((sub) => [sub, pipenvWrites(sub)])),
);

/**
 * pdm: pdm.lock (`-L`/`--lockfile`'s, PDM_LOCKFILE's) for lock, add, remove, update and install,
 * pyproject.toml for add, remove and `update --unconstrained`, in the project `-p`/`--project`
 * names, else the nearest pyproject.toml up. A check (`lock --check`, `--dry-run`, `update
 * --outdated`) and `install --frozen-lockfile` (which installs without relocking) write neither.
 */
function pdmWrites(sub: string) {
  return (input: RuleInput): string[] => {
    const { reading, walk } = input;
    if (reading.has("--check", "--dry-run", "--outdated") || (sub === "install" && reading.has("--frozen-lockfile"))) return [];
    const root = projectRoot(reading.has("p") ? directoryAt(walk.cwd, reading.value("p")) : walk.cwd, ["pyproject.toml"]);
    const manifest = sub === "add" || sub === "remove" || (sub === "update" && reading.has("u"));
    const named = reading.has("L") ? reading.value("L") : walk.environment.PDM_LOCKFILE;
    const lock = reading.has("--frozen-lockfile") ? [] : named !== undefined && named !== "" ? [within(walk.cwd, named)] : reading.has("L") ? [UNKNOWN_MARK + "pdm.lock"] : atRoot(root, ["pdm.lock"]);
    return [...(manifest ? atRoot(root, ["pyproject.toml"]) : []), ...lock];
  };
}

const pdm: Rule = bySubcommand(
  { short: "p:L:G:", long: { project: "p", lockfile: "L", group: "G", unconstrained: "u", ...valuedLong("python strategy exclude-newer platform implementation override venv") } },
  {
    ...Object.fromEntries(["lock", "add", "remove", "update", "install"].map((sub) => [sub, pdmWrites(sub)])),
    // `pdm build`: dist/ (`-d`/`--dest`'s), and build/ and *.egg-info beside the sources.
    build: (input) => {
      // (`-d`/`--dest` is build's own: add's and install's `-d` is `--dev`.)
      const dest = input.args.findIndex((arg) => arg === "-d" || arg === "--dest");
      const start = input.reading.has("p") ? directoryAt(input.walk.cwd, input.reading.value("p")) : input.walk.cwd;
      const built = pythonBuild(input, undefined, start);
      return dest === -1 ? built : [anyUnder(directoryAt(input.walk.cwd, input.args[dest + 1])), ...built.slice(1)];
    },
  },
);

/** The lock files expo's install finds, nearest first, and the manager each says it runs (else npm). */
const EXPO_MANAGERS: Array<[string, string]> = [["bun.lockb", "bun"], ["bun.lock", "bun"], ["pnpm-lock.yaml", "pnpm"], ["yarn.lock", "yarn"]];

/**
 * `expo install x` (and `--fix`): the packages it installs with the project's package manager
 * (`--npm`, `--yarn`, `--pnpm`, `--bun`, else the one whose lock file is at the project's root):
 * the manifest, that manager's lock file, node_modules. `--check` only reports.
 */
function expoInstall(input: RuleInput): string[] {
  if (input.reading.has("--check")) return [];
  const forced = ["npm", "yarn", "pnpm", "bun"].find((manager) => input.reading.has(`--${manager}`));
  const root = projectRoot(input.walk.cwd, JS_MANIFEST);
  const found = root === undefined ? undefined : EXPO_MANAGERS.find(([lock]) => exists(join(root, lock)))?.[1];
  return root === undefined && forced === undefined ? anyInstall(input, true) : installWrites(input, forced ?? found ?? "npm", true);
}

/** Where cargo starts: the directory of `--manifest-path`'s Cargo.toml, else cwd. */
const cargoStart = (input: RuleInput) => {
  if (!input.reading.has("manifest-path")) return input.walk.cwd;
  const manifest = input.reading.value("manifest-path"); // undefined: a path the text does not fix
  return manifest === undefined ? undefined : directoryAt(input.walk.cwd, dirname(manifest));
};

/**
 * cargo's commands that resolve the dependencies without building: `metadata` (not `--no-deps`),
 * `tree`, `fetch` and `vendor` write Cargo.lock where it is missing or stale (not with `--locked`
 * or `--frozen`, which stop there instead); `vendor` fills its directory too (`vendor`, or the one
 * it is given, where cargo starts).
 */
const cargoLock = (input: RuleInput) => (input.args.some((arg) => arg === "--locked" || arg === "--frozen") ? [] : atRoots(cargoStart(input), ["Cargo.toml"], ["Cargo.lock"]));
const CARGO_RESOLVES: Record<string, (input: RuleInput, rest: number[]) => string[]> = {
  // cargo-sort sorts the manifest's dependencies in place (not --check; -w every member's too),
  // cargo-machete --fix removes unused ones, cargo-release --execute bumps, commits and publishes.
  sort: (input) => (input.args.includes("--check") || input.args.includes("-c") ? [] : input.args.some((arg) => arg === "-w" || arg === "--workspace") ? [globUnder(cargoStart(input), "Cargo.toml")] : atRoot(projectRoot(cargoStart(input), ["Cargo.toml"]), ["Cargo.toml"])),
  machete: (input) => (input.args.includes("--fix") ? [globUnder(cargoStart(input), "Cargo.toml")] : []),
  release: (input) => (input.args.some((arg) => arg === "--execute" || arg === "-x") ? [UNKNOWABLE] : []),
  // sqlx-cli's `cargo sqlx prepare` writes the offline query data, .sqlx/ at the package's root (--workspace: the workspace's); `migrate add` a new migration in the project.
  sqlx: (input, rest) => (input.args[rest[0] ?? -1] === "migrate" && input.args[rest[1] ?? -1] === "add" ? [anyUnder(projectRoot(cargoStart(input), ["Cargo.toml"]))] : input.args[rest[0] ?? -1] === "prepare" && !input.args.includes("--check") ? [anyUnder(projectRoot(cargoStart(input), ["Cargo.toml"]) === undefined ? undefined : join(projectRoot(cargoStart(input), ["Cargo.toml"]) as string, ".sqlx")), ...(input.args.includes("--workspace") ? [globUnder(cargoStart(input), ".sqlx/**")] : [])] : []),
  metadata: (input) => (input.args.includes("--no-deps") ? [] : cargoLock(input)),
  tree: cargoLock,
  fetch: cargoLock,
  vendor: (input, rest) => {
    const [place] = rest.length === 0 ? ["vendor"] : input.values(rest.slice(0, 1));
    return [...cargoLock(input), anyUnder(place === undefined || place.startsWith("\0") ? undefined : directoryAt(cargoStart(input), place))];
  },
};

/**
 * `npm config edit` (`npm c edit`) and `npm edit PKG`: npm runs its editor (`--editor`,
 * npm_config_editor, EDITOR, VISUAL or an .npmrc's `editor`) through a shell, a command line this
 * rule does not read, on an npmrc or a package's directory (and `edit` rebuilds the package): any file.
 */
const NPM_EDITS: Record<string, (input: RuleInput, rest: number[]) => string[]> = {
  config: (input, rest) => npmConfigWrites("npm", input, rest),
  // `npm set k v` and `npm delete k` (npm's short forms of config set and delete).
  set: (input, rest) => npmConfigWrites("npm", input, [-1, ...rest], "set"),
  c: (input, rest) => npmConfigWrites("npm", input, rest),
  edit: () => [UNKNOWABLE],
};

/**
 * `npm config set|delete KEY…` (also `c`, `rm`, `fix`) rewrites an npmrc: the project's `.npmrc`
 * (at the nearest package's root) with `--location=project` (`-L project`), the user's
 * (`NPM_CONFIG_USERCONFIG`, else `~/.npmrc`) by default; pnpm's, the project's with `--location
 * project` (its default is a file of its own in the user's configuration directory, not judged);
 * a global one (`-g`, `--location=global`) lies outside the project, not judged. `edit`: any file.
 */
function npmConfigWrites(manager: "npm" | "pnpm", input: RuleInput, rest: number[], alias?: string): string[] {
  const action = alias ?? input.args[rest[0] ?? -1];
  if (action === "edit") return manager === "npm" ? [UNKNOWABLE] : [];
  if (!["set", "delete", "rm", "fix"].includes(action ?? "")) return [];
  let location: string | undefined = input.args.some((arg) => arg === "-g" || arg === "--global") ? "global" : manager === "npm" ? "user" : "global";
  input.args.forEach((arg, at) => {
    if (arg === "--location" || arg === "-L") location = input.args[at + 1] ?? "\0";
    else if (arg?.startsWith("--location=")) location = arg.slice("--location=".length);
  });
  if (location === "\0" || input.args.some((arg, at) => arg === undefined && (input.args[at - 1] === "--location" || input.args[at - 1] === "-L"))) return [UNKNOWABLE];
  if (location === "project") return atRoot(projectRoot(input.walk.cwd, JS_MANIFEST), [".npmrc"]);
  if (location !== "user") return [];
  const option = input.args.findIndex((arg) => arg === "--userconfig" || arg?.startsWith("--userconfig=") === true);
  const given = option !== -1 ? (input.args[option]?.startsWith("--userconfig=") ? (input.args[option] as string).slice("--userconfig=".length) : (input.args[option + 1] ?? "\0")) : (input.walk.environment.NPM_CONFIG_USERCONFIG ?? input.walk.environment.npm_config_userconfig);
  if (given === "\0") return [UNKNOWABLE];
  if (given !== undefined) return [directoryAt(input.walk.cwd, given) ?? UNKNOWABLE];
  return input.walk.home.startsWith("/") ? [join(input.walk.home, ".npmrc")] : [UNKNOWABLE];
}

/** Every file of that name under a directory (`**\/Cargo.toml`), or any file where the directory is unknown. */
function globUnder(directory: string | undefined, name: string): string {
  return directory === undefined ? UNKNOWABLE : `${GLOB_MARK}${join(directory, "**", name)}`;
}

export const LOCK_RULES: Record<string, Rule> = {
  cargo: withMore(TOOL_RULES.cargo as Rule, CARGO_RESOLVES),
  npm: withMore(TOOL_RULES.npm as Rule, NPM_EDITS),
  pnpm: withMore(TOOL_RULES.pnpm as Rule, { config: (input, rest) => npmConfigWrites("pnpm", input, rest), c: (input, rest) => npmConfigWrites("pnpm", input, rest) }),
  corepack,
  deno,
  nix,
  helm,
  pipenv,
  pdm,
  // expo prebuild generates the native projects (android/, ios/) and rewrites app config and package.json.
  expo: bySubcommand({}, { install: expoInstall, prebuild: (input) => [anyUnder(projectRoot(input.walk.cwd, JS_MANIFEST))] }),
  // react-scripts test hands its options to jest: -u (--updateSnapshot) rewrites the project's snapshots and inline ones in its tests.
  "react-scripts": bySubcommand({}, { test: (input) => (input.args.some((arg) => arg === "-u" || arg === "--updateSnapshot" || arg === "--updateSnapshot=true") ? ["**/__snapshots__/**", "**/*.{test,spec}.*", "**/__tests__/**"].map((glob) => (input.walk.cwd === undefined ? UNKNOWABLE : `${GLOB_MARK}${join(projectRoot(input.walk.cwd, JS_MANIFEST) ?? input.walk.cwd, glob)}`)) : []) }),
  // dune promote writes the corrections its last run left into the sources: anything in the project (dune-project's directory).
  // mise use, set, fmt and the like rewrite its config (shell-mise.ts).
  mise: MISE_RULE,
  dune: bySubcommand({}, { promote: (input) => [anyUnder(projectRoot(input.walk.cwd, ["dune-project"]))] }),
};
