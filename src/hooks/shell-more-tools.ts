// Build tools, test runners and packagers whose outputs are their own places in the project, not
// paths on their command line: sbt and Leiningen (target/), trunk (dist/), test runners' reports,
// screenshots and snapshots (rspec, phpunit, gotestsum, mocha, cypress, BackstopJS, tap), Foundry's
// forge, Hardhat and solc, and app packagers (Capacitor, Tauri, electron-builder, vsce,
// patch-package). Where a tool's configuration may move what it writes, or it runs the project's
// own hooks or scripts, the whole project stands for it. (cargo's subcommands: shell-tool-rules.ts.)
import { dirname, join } from "node:path";
import { valuedLong } from "./shell-options.js";
import { given } from "./shell-project-tools.js";
import { createdIfMissing, globOf, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { atRoot, bySubcommand, cargoBuildFrom, JS_MANIFEST, operandFiles, projectRoot } from "./shell-tool-rules.js";
import { anyIn, anyUnder, configIn, directoryAt, readText, UNKNOWABLE } from "./shell-words.js";

/** A directory under a root the text may not fix, as anything under it. */
const under = (root: string | undefined, ...names: string[]): string => anyUnder(root === undefined ? undefined : join(root, ...names));

/** Directories an option names, each as anything under it (a path in a place unknown keeps its mark). */
const directories = (input: RuleInput, key: string): string[] => optionFiles(input, [key]).map((path) => (path.startsWith("\0") ? path : anyUnder(path)));

/** Whether the first of `names` in `directory` has text that `pattern` finds (a configuration that moves a tool's outputs). */
const configured = (directory: string | undefined, names: string[], pattern: RegExp): boolean => pattern.test(readText(configIn(directory, names) ?? "") ?? "");

/** sbt's launcher options that take a value (`-sbt-version 1.9.9`, `--java-home DIR`); its other words are commands. */
const SBT_VALUED = /^--?(sbt-version|sbt-jar|sbt-dir|sbt-boot|sbt-launch-dir|sbt-launch-repo|ivy|java-home|mem|jvm-debug)$/;

/** sbt's commands that rewrite sources: scalafmt (not its Check forms), scalafix (not --check), javafmt, sbt-header's headerCreate. */
const SBT_REWRITES = /(^|[\s;/+~])(scalafmt(All|Sbt|Only)?|scalafix(All)?|javafmt(All)?|headerCreate(All)?)(?![\w-])/;

/**
 * sbt: loading the build compiles project/ into project/target, writes .bsp/sbt.json and, where it
 * is missing, project/build.properties; its tasks write each project's target/. A command that
 * rewrites sources, one the text does not fix, commands given on its input, or `new` (a template
 * where it runs): anything under the build. `--version` and `--help` only print.
 */
function sbt(input: RuleInput): string[] {
  if (given(input, "--help", "-h", "-help", "--version", "-version", "-V", "--numeric-version", "--script-version")) return [];
  const root = projectRoot(input.walk.cwd, ["build.sbt"]);
  const commands: Array<string | undefined> = [];
  for (let at = 0; at < input.args.length; at++) {
    const arg = input.args[at];
    if (arg !== undefined && SBT_VALUED.test(arg)) at++;
    else if (arg === undefined || !arg.startsWith("-")) commands.push(arg);
  }
  if (commands.some((command) => command === "new" || command?.startsWith("new ") === true)) return [anyUnder(input.walk.cwd)];
  if (commands.includes(undefined) || input.stdin !== undefined || input.fed === true) return [anyUnder(root)];
  const rewrites = commands.some((command) => SBT_REWRITES.test(command as string) && !/\s--check\b/.test(command as string));
  const build = root === undefined ? [UNKNOWABLE] : [globOf(join(root, "**", "target", "**")), under(root, ".bsp"), ...createdIfMissing(root, join(root, "project", "build.properties"))];
  return rewrites ? [anyUnder(root)] : build;
}

/** Leiningen's tasks that compile or package into target/ (and `clean`, which empties it). */
const LEIN_BUILDS = new Set(["uberjar", "jar", "compile", "javac", "install", "deploy", "test", "run", "check", "clean", "repl", "pom"]);

/**
 * lein: its build tasks write target/ (`pom` pom.xml too), among them the ones `do`, `with-profile`
 * and `trampoline` run; project.clj's `:target-path` or `:compile-path` may move it, and `release`
 * and `change` rewrite project.clj: anything in the project then.
 */
function lein(input: RuleInput): string[] {
  const root = projectRoot(input.walk.cwd, ["project.clj"]);
  const tasks = input.args.filter((arg) => arg === undefined || !arg.startsWith("-")).map((arg) => arg?.replace(/,$/, ""));
  if (tasks[0] === "help" || tasks[0] === "version" || given(input, "-h", "--help", "-v", "--version")) return [];
  if (tasks.some((task) => task === undefined || task === "release" || task === "change")) return [anyUnder(root)];
  if (!tasks.some((task) => LEIN_BUILDS.has(task as string))) return [];
  if (configured(root, ["project.clj"], /:(target|compile)-path\b/)) return [anyUnder(root)];
  return [under(root, "target"), ...(tasks.includes("pom") ? atRoot(root, ["pom.xml"]) : [])];
}

/**
 * trunk build, serve and watch: `--dist`'s directory, else dist/ beside Trunk.toml (one with its own
 * `dist`, or hooks it runs: anything there), and the crate's cargo build; `clean` empties the
 * directory (with `--cargo`, cargo's target too).
 */
function trunk(input: RuleInput, rest: number[], clean = false): string[] {
  const target = rest.length > 0 ? input.values(rest.slice(0, 1))[0] : undefined;
  const file = target === undefined || target.startsWith("\0") ? undefined : directoryAt(input.walk.cwd, target);
  const root = file === undefined ? projectRoot(input.walk.cwd, ["Trunk.toml"]) : dirname(file);
  const dist = input.reading.has("d") ? directories(input, "d") : [under(root, "dist")];
  if (configured(root, ["Trunk.toml"], /^\s*(dist\s*=|\[\[hooks\]\])/m)) return [anyUnder(root)];
  return clean && !input.reading.has("--cargo") ? dist : [...dist, ...cargoBuildFrom(input, root)];
}

/** rspec: `--out`'s (`-o`) files, `--deprecation-out`'s; `--init` its .rspec and spec/spec_helper.rb where none are. */
const RSPEC: Rule = {
  syntax: { short: "o:f:r:I:e:E:t:P:O:", long: { out: "o", format: "f", require: "r", example: "e", "example-matches": "E", tag: "t", pattern: "P", options: "O", ...valuedLong("deprecation-out default-path exclude-pattern seed order failure-exit-code error-exit-code") }, exact: true },
  writes: (input) => [
    ...optionFiles(input, ["o", "deprecation-out"]),
    ...(input.reading.has("--init") ? atRoot(input.walk.cwd, [".rspec", "spec/spec_helper.rb"]).flatMap((path) => createdIfMissing(input.walk.cwd, path)) : []),
  ],
};

/** phpunit's options that name a report file, and those that name a report directory. */
const PHPUNIT_FILES = ["log-junit", "log-teamcity", "log-events-text", "log-events-verbose-text", "testdox-html", "testdox-text", "testdox-xml", "coverage-clover", "coverage-cobertura", "coverage-crap4j", "coverage-php", "coverage-text"];
const PHPUNIT_DIRECTORIES = ["coverage-html", "coverage-xml"];

/**
 * phpunit (vendor/bin/phpunit): its report files and directories; `--generate-configuration` a
 * phpunit.xml where it runs, `--migrate-configuration` its configuration (`-c`'s, else phpunit.xml
 * or .dist where it runs) and the backup beside it. (`--coverage-text` alone prints.)
 */
const PHPUNIT: Rule = {
  syntax: { short: "c:", long: { configuration: "c", "coverage-text": "::", ...valuedLong([...PHPUNIT_FILES.filter((key) => key !== "coverage-text"), ...PHPUNIT_DIRECTORIES, "bootstrap", "filter", "group", "exclude-group", "testsuite", "cache-directory", "include-path", "order-by", "random-order-seed", "columns", "test-suffix"].join(" ")) }, exact: true },
  writes: (input) => {
    const here = input.walk.cwd;
    const migrated = input.reading.has("c") ? optionFiles(input, ["c"]).flatMap((path) => [path, globOf(`${path}.*`)]) : [here === undefined ? UNKNOWABLE : globOf(join(here, "phpunit.xml*"))];
    return [
      ...optionFiles(input, PHPUNIT_FILES),
      ...PHPUNIT_DIRECTORIES.flatMap((key) => directories(input, key)),
      ...(input.reading.has("--generate-configuration") ? atRoot(here, ["phpunit.xml"]) : []),
      ...(input.reading.has("--migrate-configuration") ? migrated : []),
    ];
  },
};

/** gotestsum's options that name a report file. */
const GOTESTSUM_REPORT = /^--(junitfile|jsonfile|jsonfile-timing-events)(=|$)/;

/**
 * gotestsum's report files (`--junitfile`, `--jsonfile`, `--jsonfile-timing-events`), from its own
 * words (before `--`, after which go test's are: shell-wrappers.ts); a value the text does not fix: any file.
 */
export function gotestsumReports(args: Array<string | undefined>, cwd: string | undefined, text: (at: number) => string | undefined): string[] {
  const found: string[] = [];
  // (`--raw-command` and `--post-run-command` run a command of their own: any file.)
  if (args.some((arg, at) => at < (args.indexOf("--") === -1 ? args.length : args.indexOf("--")) && /^--(raw-command|post-run-command)(=|$)/.test(arg ?? ""))) found.push(UNKNOWABLE);
  for (let at = 0; at < args.length && args[at] !== "--"; at++) {
    const arg = args[at];
    if (arg === undefined && GOTESTSUM_REPORT.test(text(at) ?? "")) found.push(UNKNOWABLE); // `--junitfile="$f"`
    const option = GOTESTSUM_REPORT.exec(arg ?? "");
    if (option === null || (option[2] === "" && at + 1 >= args.length)) continue;
    const value = option[2] === "=" ? (arg as string).slice(option[0].length) : args[++at];
    if (value === undefined) found.push(UNKNOWABLE);
    else if (value !== "") found.push(directoryAt(cwd, value) ?? UNKNOWABLE);
  }
  return found;
}

/**
 * mocha: a reporter's output its options name (`--reporter-option output=FILE`, `-O
 * mochaFile=FILE`, several `k=v` pairs joined by commas); mocha-junit-reporter's default
 * test-results.xml (MOCHA_FILE's) and mochawesome's mochawesome-report/ where it runs. Options the
 * text does not fix: any file.
 */
function mocha(input: RuleInput): string[] {
  const pairs = input.reading.values("O");
  if (pairs.some((pair) => pair === undefined)) return [UNKNOWABLE];
  const options = new Map<string, string>();
  for (const pair of pairs.flatMap((each) => (each as string).split(","))) {
    const [, key, value] = /^([^=]+)=(.*)$/.exec(pair) ?? [];
    if (key !== undefined) options.set(key, value as string);
  }
  const named = ["output", "mochaFile", "reportDir"].flatMap((key) => (options.has(key) ? [key === "reportDir" ? anyUnder(directoryAt(input.walk.cwd, options.get(key))) : (directoryAt(input.walk.cwd, options.get(key)) ?? UNKNOWABLE)] : []));
  const reporter = input.reading.value("R");
  const file = input.walk.environment.MOCHA_FILE;
  const defaults = reporter === "mocha-junit-reporter" && !options.has("mochaFile") ? [directoryAt(input.walk.cwd, file ?? "test-results.xml") ?? UNKNOWABLE] : reporter === "mochawesome" && !options.has("reportDir") ? [under(input.walk.cwd, "mochawesome-report")] : [];
  return [...named, ...defaults];
}

/** Cypress's configuration files, and its keys that move what a run writes. */
const CYPRESS_CONFIGS = ["cypress.config.ts", "cypress.config.js", "cypress.config.mjs", "cypress.config.cjs", "cypress.json"];
const CYPRESS_MOVES = /\b(screenshotsFolder|videosFolder|downloadsFolder|reporterOptions|mochaFile)\b/;

/**
 * cypress run: screenshots, videos and downloads under the project's cypress/; a configuration
 * (`--config`, or its file, `-C`'s or the project's) that moves them or names reports: anything in
 * the project. `open` scaffolds the configuration and support files too: anything in the project.
 */
function cypress(input: RuleInput, open: boolean): string[] {
  const start = input.reading.has("P") ? directoryAt(input.walk.cwd, input.reading.value("P")) : input.walk.cwd;
  const root = projectRoot(start, [...CYPRESS_CONFIGS, ...JS_MANIFEST]);
  const file = input.reading.has("C") ? optionFiles(input, ["C"])[0] : configIn(root, CYPRESS_CONFIGS);
  const moved = input.reading.has("c", "o") || CYPRESS_MOVES.test(readText(file ?? "") ?? "");
  return [open || moved ? anyUnder(root) : under(root, "cypress")];
}

/** BackstopJS: its bitmaps and reports in backstop_data/ where it runs (a configuration with its own `paths`: anything there); `init` writes backstop.json too. */
function backstop(input: RuleInput, init: boolean): string[] {
  const config = input.reading.has("config") ? optionFiles(input, ["config"])[0] : configIn(input.walk.cwd, ["backstop.json", "backstop.js"]);
  if (/\bpaths\b/.test(readText(config ?? "") ?? "")) return [anyUnder(input.walk.cwd)];
  return [under(input.walk.cwd, "backstop_data"), ...(init ? atRoot(input.walk.cwd, ["backstop.json"]) : [])];
}

/** node-tap: `--snapshot` (`-S`, TAP_SNAPSHOT=1) writes tap-snapshots/ at the project's root; `--output-file` (`-o`) and `--output-dir` (`-d`) their reports. */
const TAP: Rule = {
  syntax: { short: "o:d:R:j:t:", long: { "output-file": "o", "output-dir": "d", reporter: "R", jobs: "j", timeout: "t", snapshot: "S" }, exact: true },
  writes: (input) => {
    const snapshots = input.reading.has("S") || input.walk.environment.TAP_SNAPSHOT === "1" ? [under(projectRoot(input.walk.cwd, JS_MANIFEST), "tap-snapshots")] : [];
    return [...snapshots, ...optionFiles(input, ["o"]), ...directories(input, "d")];
  },
};

/** Foundry's project root: `--root`'s directory, else the nearest with a foundry.toml. */
const foundryRoot = (input: RuleInput) => (input.reading.has("root") ? directoryAt(input.walk.cwd, input.reading.value("root")) : projectRoot(input.walk.cwd, ["foundry.toml"]));

/** Whether foundry.toml (or FOUNDRY_ variables) moves forge's outputs or libraries elsewhere: `out`, `cache_path`, `broadcast`, `libs`. */
const foundryMoves = (input: RuleInput, root: string | undefined) => configured(root, ["foundry.toml"], /^\s*(out|cache_path|broadcast|libs)\s*=/m) || Object.keys(input.walk.environment).some((name) => /^(FOUNDRY|DAPP)_(OUT|CACHE_PATH|BROADCAST|LIBS)$/.test(name));

/** forge's compiled outputs: out/ (`-o`'s) and cache/ (`--cache-path`'s), with `more` of the project's places (a name ending in `/` a directory); anything in it where foundry.toml moves them. */
function forgeOutputs(input: RuleInput, ...more: string[]): string[] {
  const root = foundryRoot(input);
  if (foundryMoves(input, root)) return [anyUnder(root)];
  const out = input.reading.has("o") ? directories(input, "o") : [under(root, "out")];
  const cache = input.reading.has("cache-path") ? directories(input, "cache-path") : [under(root, "cache")];
  return [...out, ...cache, ...more.map((name) => (name.endsWith("/") ? under(root, name) : atRoot(root, [name])[0] as string))];
}

/** forge's dependencies: lib/ (submodules), .gitmodules and foundry.lock at the root. */
const forgeDependencies = (input: RuleInput) => {
  const root = foundryRoot(input);
  return foundryMoves(input, root) ? [anyUnder(root)] : [under(root, "lib"), ...atRoot(root, [".gitmodules", "foundry.lock"])];
};

const FORGE = bySubcommand({ short: "o:C:", long: { out: "o", contracts: "C", ...valuedLong("root cache-path config-path lib-paths remappings use evm-version match-test match-contract match-path fork-url snap report report-file bindings-path") } }, {
  ...Object.fromEntries(["build", "b", "compile", "test", "t", "create", "inspect", "clean", "verify-contract"].map((sub) => [sub, (input: RuleInput) => forgeOutputs(input)])),
  // snapshot: .gas-snapshot (`--snap`'s; not with --check or --diff); coverage: lcov.info with `--report lcov` (`--report-file`'s); script: broadcast/ (dry runs too).
  snapshot: (input) => (input.reading.has("--check", "--diff") ? forgeOutputs(input) : [...forgeOutputs(input), ...(input.reading.has("snap") ? optionFiles(input, ["snap"]) : atRoot(foundryRoot(input), [".gas-snapshot"]))]),
  coverage: (input) => [...forgeOutputs(input), ...(input.reading.has("report-file") ? optionFiles(input, ["report-file"]) : input.reading.values("report").includes("lcov") ? atRoot(foundryRoot(input), ["lcov.info"]) : [])],
  script: (input) => forgeOutputs(input, "broadcast/"),
  bind: (input) => [...forgeOutputs(input), ...directories(input, "bindings-path")],
  doc: (input) => [...(input.reading.has("o") ? directories(input, "o") : [under(foundryRoot(input), "docs")]), ...(input.reading.has("--build") ? forgeOutputs(input) : [])],
  flatten: (input) => optionFiles(input, ["o"]),
  // fmt rewrites the files it is given, else the project's sources: anything in it (not --check, nor --raw, which prints).
  fmt: (input, rest) => (input.reading.has("--check", "--raw") ? [] : rest.length > 0 ? operandFiles(input, rest) : [anyUnder(foundryRoot(input))]),
  init: (input, rest) => [anyUnder(rest.length > 0 ? directoryAt(input.walk.cwd, input.values(rest.slice(0, 1))[0]) : input.walk.cwd)],
  ...Object.fromEntries(["install", "i", "update", "u", "remove", "rm"].map((sub) => [sub, forgeDependencies])),
  config: (input) => (input.reading.has("--fix") ? atRoot(foundryRoot(input), ["foundry.toml"]) : []),
});

const HARDHAT_CONFIGS = ["hardhat.config.ts", "hardhat.config.js", "hardhat.config.cjs", "hardhat.config.mjs", "hardhat.config.cts"];

/**
 * Hardhat's compiled outputs (artifacts/, cache/, typechain-types/ at its configuration's root,
 * `--config`'s directory), with `more` places (a name ending in `/` a directory); anything in the project where its configuration
 * sets `paths`, and with no configuration (its project wizard).
 */
function hardhatOutputs(input: RuleInput, ...more: string[]): string[] {
  const config = input.reading.has("config") ? optionFiles(input, ["config"])[0] : undefined;
  const root = input.reading.has("config") ? (config === undefined || config.startsWith("\0") ? undefined : dirname(config)) : projectRoot(input.walk.cwd, HARDHAT_CONFIGS);
  const text = readText(config ?? configIn(root, HARDHAT_CONFIGS) ?? "");
  if (text === undefined || /\bpaths\s*:/.test(text)) return [anyUnder(root)];
  return ["artifacts/", "cache/", "typechain-types/", ...more].map((name) => (name.endsWith("/") ? under(root, name) : (atRoot(root, [name])[0] as string)));
}

const HARDHAT = bySubcommand({ long: valuedLong("network config max-memory tsconfig") }, {
  ...Object.fromEntries(["compile", "build", "test", "run", "node", "console", "typechain", "clean", "verify", "check"].map((sub) => [sub, (input: RuleInput) => hardhatOutputs(input)])),
  coverage: (input) => hardhatOutputs(input, "coverage/", "coverage.json"),
  ignition: (input) => hardhatOutputs(input, "ignition/"),
  init: (input) => [anyUnder(input.walk.cwd)],
  "": (input) => (input.reading.has("--version", "--help") || configIn(projectRoot(input.walk.cwd, HARDHAT_CONFIGS), HARDHAT_CONFIGS) !== undefined ? [] : [anyUnder(input.walk.cwd)]),
});

/** Anything in the project (the nearest directory up with one of `markers`), for subcommands not among `reads`; `--help` and `--version` print. */
const projectUnless =
  (reads: string[], markers: string[]): Rule["writes"] =>
  (input) => {
    const sub = input.args[input.reading.operands[0] ?? -1];
    if (input.reading.has("--help", "h", "--version", "V") || (sub !== undefined && reads.includes(sub)) || (sub === undefined && input.reading.operands.length === 0)) return [];
    return [anyUnder(projectRoot(input.walk.cwd, markers))];
  };

/** vsce package (and publish, which packages first): `-o`'s file (a directory: a .vsix in it), else NAME-VERSION.vsix where it runs; anything there with a `vscode:prepublish` script it runs, or a version it bumps. */
function vsce(input: RuleInput, rest: number[], publish: boolean): string[] {
  const here = input.walk.cwd;
  const manifest = readText(here === undefined ? "" : join(here, "package.json")) ?? "";
  if (here === undefined || rest.length > 0 || /"vscode:prepublish"\s*:/.test(manifest)) return [anyUnder(here)];
  if (publish) return [];
  if (!input.reading.has("o")) return [globOf(join(here, "*.vsix"))];
  return optionFiles(input, ["o"]).map((path) => (path.startsWith("\0") || path.endsWith(".vsix") ? path : anyIn(path)));
}

/** patch-package PKG…: the patch files in `--patch-dir` (patches/ at the project's root); alone (or `--reverse`), it applies them to node_modules. */
const PATCH_PACKAGE: Rule = {
  syntax: { long: valuedLong("patch-dir include exclude append rebase"), exact: true },
  writes: (input) => {
    if (given(input, "--help", "--version")) return [];
    const root = projectRoot(input.walk.cwd, JS_MANIFEST);
    if (input.reading.operands.length === 0 || input.reading.has("--reverse")) return [under(root, "node_modules")];
    return [input.reading.has("patch-dir") ? anyUnder(directoryAt(root, input.reading.value("patch-dir"))) : under(root, "patches")];
  },
};

export const MORE_TOOL_RULES: Record<string, Rule> = {
  sbt: { syntax: {}, writes: sbt },
  // (`lein shell CMD`, `lein do …, shell CMD`: the command it runs, read as one.)
  lein: { syntax: {}, writes: lein, runsArguments: true },
  trunk: bySubcommand({ short: "d:", long: { dist: "d", ...valuedLong("config public-url port address") } }, { build: (input, rest) => trunk(input, rest), serve: (input, rest) => trunk(input, rest), watch: (input, rest) => trunk(input, rest), clean: (input, rest) => trunk(input, rest, true) }),
  rspec: RSPEC,
  phpunit: PHPUNIT,
  gotestsum: { syntax: {}, writes: (input) => gotestsumReports(input.args, input.walk.cwd, input.text) },
  mocha: { syntax: { short: "R:O:g:f:t:s:r:j:n:u:", long: { reporter: "R", "reporter-option": "O", "reporter-options": "O", grep: "g", fgrep: "f", timeout: "t", slow: "s", require: "r", jobs: "j", "node-option": "n", ui: "u", ...valuedLong("config package extension ignore spec file") }, exact: true }, writes: mocha },
  cypress: bySubcommand({ short: "P:c:C:o:s:b:e:r:k:p:t:", long: { project: "P", config: "c", "config-file": "C", "reporter-options": "o", spec: "s", browser: "b", env: "e", reporter: "r", key: "k", port: "p", tag: "t", ...valuedLong("ci-build-id group auto-cancel-after-failures") } }, { run: (input) => cypress(input, false), open: (input) => cypress(input, true) }),
  backstop: bySubcommand({ long: valuedLong("config filter") }, { reference: (input) => backstop(input, false), test: (input) => backstop(input, false), approve: (input) => backstop(input, false), init: (input) => backstop(input, true) }),
  tap: TAP,
  forge: FORGE,
  // (`hardhat run scripts/deploy.ts`: the script, read as tsx reads it.)
  hardhat: { ...HARDHAT, runsProgram: { after: ["run"], interpreter: "tsx" } },
  // solc -o DIR (--output-dir): the files it writes there; without, it prints.
  solc: { syntax: { short: "o:", long: { "output-dir": "o", ...valuedLong("base-path include-path allow-paths evm-version libraries optimize-runs combined-json standard-json import-ast") }, exact: true }, writes: (input) => directories(input, "o") },
  // Capacitor's sync, copy, add, update (and run and build, which sync first) write ios/, android/ and the web assets: anything in the project.
  cap: { syntax: {}, writes: projectUnless(["open", "doctor", "ls", "list", "config", "telemetry", "help"], ["capacitor.config.ts", "capacitor.config.json", "capacitor.config.js", ...JS_MANIFEST]) },
  // Tauri's build, dev, init, icon, android, ios and the rest write src-tauri/ and the frontend's build: anything in the project.
  tauri: { syntax: {}, writes: projectUnless(["info", "help", "completions", "inspect"], ["src-tauri", ...JS_MANIFEST]) },
  // electron-builder: dist/ or the output its configuration names, and install-app-deps node_modules: anything in the project.
  "electron-builder": {
    syntax: { short: "c:p:", long: { config: "c", publish: "p", projectDir: ":", project: ":" }, exact: true },
    writes: (input) => {
      if (given(input, "--help", "-h", "--version")) return [];
      const place = input.reading.has("projectDir") ? "projectDir" : input.reading.has("project") ? "project" : undefined;
      return [anyUnder(place === undefined ? projectRoot(input.walk.cwd, JS_MANIFEST) : directoryAt(input.walk.cwd, input.reading.value(place)))];
    },
  },
  vsce: bySubcommand({ short: "o:", long: { out: "o", ...valuedLong("pat target githubBranch gitlabBranch baseContentUrl baseImagesUrl packagePath") } }, { package: (input, rest) => vsce(input, rest, false), publish: (input, rest) => vsce(input, rest, true) }),
  "patch-package": PATCH_PACKAGE,
};

/** Their packages' names, as npx runs them (`npx @capacitor/cli sync`). */
export const MORE_TOOL_BINS: Record<string, string> = { "@capacitor/cli": "cap", "@tauri-apps/cli": "tauri", "@vscode/vsce": "vsce" };
