// Dart's and Flutter's commands beyond pub and the formatters shell-tool-rules.ts reads, and Elixir's
// mix tasks beyond deps and format: code generators that write beside the sources (build_runner,
// `flutter gen-l10n`, `flutterfire configure`, `mix phx.gen.*`, `mix ecto.gen.migration`), new
// projects (`flutter create`, `dart create`, `mix new`, `mix phx.new`) and builds (`flutter build`,
// `dart compile`, `mix compile`, `test`, `release`). A package's root is the nearest directory from
// where the command runs up with its manifest (pubspec.yaml, mix.exs); what a generator writes
// where its configuration says is anything under that root.
import { join } from "node:path";
import { readOptions, type Syntax, valuedLong } from "./shell-options.js";
import { globOf, lineOf, optionFiles, type Rule, type RuleInput, type RunLine } from "./shell-rule.js";
import { asksHelp, atRoot, projectRoot, projectRoots, pubWrites, TOOL_RULES, withMore } from "./shell-tool-rules.js";
import { anyUnder, directoryAt, readText, UNKNOWABLE } from "./shell-words.js";

/** The Dart package a command works on: from `-C`'s (`--directory`) directory, else from where it runs, up to the nearest pubspec.yaml. */
const pubRoot = (input: RuleInput) => projectRoot(input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd, ["pubspec.yaml"]);

/**
 * `dart run build_runner build|watch|serve|test` (and `clean`, which deletes what they made): the
 * generated files beside the package's sources (`*.g.dart`, `*.freezed.dart`…) and its cache in
 * .dart_tool/: anything under the package. `words`: the package run and its command.
 */
function buildRunner(input: RuleInput, words: number[]): string[] {
  const [runner, command] = words;
  if (input.args[runner ?? -1] !== "build_runner" || command === undefined) return [];
  const name = input.args[command];
  return name === undefined || ["build", "watch", "serve", "test", "clean"].includes(name) ? [anyUnder(pubRoot(input))] : [];
}

/** `dart pub run x`, `flutter pub run x` (and `flutter packages pub run x`, `pub` passed through): the package run, build_runner's writes. */
function pubRun(input: RuleInput, rest: number[]): string[] {
  const words = input.args[rest[0] ?? -1] === "pub" ? rest.slice(1) : rest;
  return input.args[words[0] ?? -1] === "run" ? buildRunner(input, words.slice(1)) : [];
}

/** `flutter packages …`, the older name of `flutter pub`: what pub's commands write, and what a package it runs does. */
function flutterPackages(input: RuleInput, rest: number[]): string[] {
  const words = input.args[rest[0] ?? -1] === "pub" ? rest.slice(1) : rest;
  return [...pubWrites(input, words), ...pubRun(input, words)];
}

/** The options after a subcommand (or the word at `after`), read by its own syntax (the tool's declares too few: `create -t app DIR`). */
const optionsOf = (input: RuleInput, syntax: Syntax, after = input.reading.operands[0] ?? input.args.length) => readOptions(input.args, { ...syntax, exact: true }, after + 1, input.text);

/** `flutter create DIR` (`dart create DIR`): the project it makes there, anything under it (`.`: the one here). `--list-samples FILE` writes that file alone. */
function created(syntax: Syntax): (input: RuleInput) => string[] {
  return (input) => {
    const reading = optionsOf(input, syntax);
    if (reading.has("list-samples")) return optionFiles(input, ["list-samples"], reading);
    const directory = reading.operands[0];
    return directory === undefined ? [] : [anyUnder(directoryAt(input.walk.cwd, input.args[directory]))];
  };
}

const FLUTTER_CREATE: Syntax = { short: "t:s:i:a:", long: { template: "t", sample: "s", "ios-language": "i", "android-language": "a", ...valuedLong("org project-name description platforms list-samples") } };
const DART_CREATE: Syntax = { short: "t:", long: { template: "t" } };

/**
 * What a Flutter build regenerates in the package, whatever it targets: build/, .dart_tool/, the
 * pub resolution it runs first (pubspec.lock, .flutter-plugins*), and each platform's files Flutter
 * keeps (the plugin registrants, local.properties, ios/Flutter/, macos/Flutter/, linux/flutter/,
 * windows/flutter/). Globs where a name ends in `*`.
 */
const FLUTTER_GENERATED = [
  "build/**",
  ".dart_tool/**",
  "pubspec.lock",
  ".flutter-plugins",
  ".flutter-plugins-dependencies",
  "android/local.properties",
  "android/app/src/main/java/io/flutter/plugins/**",
  "ios/Flutter/**",
  "ios/Runner/GeneratedPluginRegistrant.*",
  "macos/Flutter/**",
  "linux/flutter/**",
  "windows/flutter/**",
];

/** The platform directory a build target's own tool works in (Gradle; CocoaPods, which rewrites the Xcode project too): anything under it. */
const FLUTTER_PLATFORMS: Record<string, string> = { apk: "android", appbundle: "android", aar: "android", ios: "ios", ipa: "ios", "ios-framework": "ios", macos: "macos", "macos-framework": "macos" };

/** `flutter build TARGET`: what every build regenerates, the target platform's directory, and `-o`'s (`--output`, `--output-dir`) directory. */
function flutterBuild(input: RuleInput, rest: number[]): string[] {
  const root = pubRoot(input);
  if (rest[0] === undefined) return []; // `flutter build` alone prints its targets
  if (root === undefined) return [UNKNOWABLE];
  const target = input.args[rest[0]];
  const reading = optionsOf(input, { short: "o:t:", long: { output: "o", target: "t", ...valuedLong("output-dir flavor target-platform build-name build-number dart-define dart-define-from-file") } });
  const platform = target !== undefined && Object.hasOwn(FLUTTER_PLATFORMS, target) ? (FLUTTER_PLATFORMS[target] as string) : "";
  return [
    ...FLUTTER_GENERATED.map((name) => (name.endsWith("*") ? globOf(join(root, name)) : join(root, name))),
    ...(target === undefined ? [anyUnder(root)] : platform !== "" ? [anyUnder(join(root, platform))] : []),
    ...["o", "output-dir"].flatMap((key) => reading.values(key).map((value) => anyUnder(directoryAt(input.walk.cwd, value)))),
  ];
}

/** `dart compile KIND`'s options (dart2js's for `js`: `--out`). */
const DART_COMPILE: Syntax = { short: "o:D:p:S:E:O", long: { output: "o", out: "o", define: "D", packages: "p", "save-debugging-info": "S", "extra-compiler-option": "E", ...valuedLong("verbosity target-os depfile shared-memory") } };

/** The extension of what each kind of `dart compile` writes beside its entry point when `-o` names no file. */
const COMPILED: Record<string, string> = { exe: "exe", "aot-snapshot": "aot", "jit-snapshot": "jit", kernel: "dill", wasm: "wasm" };

/**
 * `dart compile exe|aot-snapshot|jit-snapshot|kernel|wasm ENTRY`: `-o`'s file, else the entry point's
 * name with the kind's extension beside it (bin/main.exe); wasm its .mjs loader and the .unopt.wasm
 * it optimizes from too; `-S`'s debugging information and `--depfile`'s file. `js` hands its
 * options to dart2js: `-o`'s (`--out`) file, else out.js here, each with its .map and .deps.
 */
function dartCompile(input: RuleInput, rest: number[]): string[] {
  const kind = input.args[rest[0] ?? -1];
  if (kind === undefined || (kind !== "js" && !Object.hasOwn(COMPILED, kind))) return [];
  const reading = optionsOf(input, DART_COMPILE, rest[0]);
  const extra = optionFiles(input, ["S", "depfile"], reading);
  if (kind === "js") {
    const outputs = reading.has("o") ? optionFiles(input, ["o"], reading) : atRoot(input.walk.cwd, ["out.js"]);
    return [...outputs.flatMap((path) => (path.startsWith("\0") ? [path] : [path, globOf(`${path}.*`)])), ...extra];
  }
  const entry = reading.operands[0];
  // (An entry point the text does not fix at all (`"$f"`) is any file; `"$d/main.dart"` main.exe in a place unknown.)
  const beside = (path: string) => (path === UNKNOWABLE ? path : `${path.replace(/\.dart$/, "")}.${COMPILED[kind] as string}`);
  const given = reading.has("o") ? optionFiles(input, ["o"], reading) : entry === undefined ? [] : input.values([entry]).map(beside);
  if (kind !== "wasm") return [...given, ...extra];
  return [...given.flatMap((path) => (path === UNKNOWABLE ? [path] : [path, path.replace(/\.wasm$/, ".mjs"), path.replace(/\.wasm$/, ".unopt.wasm")])), ...extra];
}

/**
 * flutterfire's `configure` (and `reconfigure`, `install`, `update`): lib/firebase_options.dart (or
 * `-o`'s file), firebase.json, each platform's service files and the Gradle and Xcode projects it
 * adds them to, the plugins it adds to pubspec.yaml: anything under the package, and `-o`'s file.
 */
const FLUTTERFIRE: Rule = {
  syntax: { short: "o:p:a:i:m:w:t:e:", long: { out: "o", project: "p", "android-package-name": "a", "ios-bundle-id": "i", "macos-bundle-id": "m", "web-app-id": "w", token: "t", account: "e", ...valuedLong("platforms ios-build-config ios-out macos-out android-out service-account") }, exact: true },
  writes: (input) => {
    const sub = input.args[input.reading.operands[0] ?? -1];
    if (input.reading.has("--help", "h", "--version", "v") || !["configure", "reconfigure", "install", "update"].includes(sub ?? "")) return [];
    return [anyUnder(pubRoot(input)), ...optionFiles(input, ["o"])];
  },
};

/** The directories a mix project builds in: every mix.exs from where it runs up (an umbrella's apps build into its root's), outermost last. */
const mixRoots = (input: RuleInput) => projectRoots(input.walk.cwd, ["mix.exs"]);

/**
 * Where mix compiles the project and its dependencies: MIX_BUILD_PATH's directory, else under
 * MIX_BUILD_ROOT's, else _build/ at each project root from where it runs up (an umbrella's apps
 * build into its root's).
 */
function mixBuild(input: RuleInput): string[] {
  const { environment } = input.walk;
  for (const name of ["MIX_BUILD_PATH", "MIX_BUILD_ROOT"]) if (Object.hasOwn(environment, name)) return [anyUnder(directoryAt(input.walk.cwd, environment[name]))];
  const roots = mixRoots(input);
  return roots.length === 0 ? [UNKNOWABLE] : roots.map((root) => anyUnder(join(root, "_build")));
}

/** `mix new DIR`, `mix phx.new DIR` (`--umbrella`: DIR_umbrella), `phx.new.web`, `phx.new.ecto`: the project made there, anything under it. */
function mixNew(input: RuleInput): string[] {
  const reading = optionsOf(input, { long: valuedLong("app module database adapter") });
  const directory = reading.operands[0];
  if (directory === undefined) return [];
  const path = input.args[directory];
  const umbrella = input.args[input.reading.operands[0] ?? -1] === "phx.new" && reading.has("--umbrella");
  return [anyUnder(directoryAt(input.walk.cwd, path === undefined ? undefined : umbrella ? `${path}_umbrella` : path))];
}

/** mix tasks beyond deps and format: the project's code generators, new projects, and the tasks that compile it. */
const MIX_MORE: Record<string, (input: RuleInput, rest: number[]) => string[]> = {
  // ecto.gen.migration: the repo's migrations directory, under priv/ of each app (or `--migrations-path`'s); it compiles the project first.
  "ecto.gen.migration": (input) => {
    const reading = optionsOf(input, { short: "r:", long: { repo: "r", ...valuedLong("migrations-path change") } });
    const root = mixRoots(input).at(-1);
    const migrations = reading.has("migrations-path") ? reading.values("migrations-path").map((value) => anyUnder(directoryAt(input.walk.cwd, value))) : [root === undefined ? UNKNOWABLE : globOf(join(root, "**", "priv", "**"))];
    return [...migrations, ...(reading.has("--no-compile") ? [] : mixBuild(input))];
  },
  "phx.new": mixNew,
  "phx.new.web": mixNew,
  "phx.new.ecto": mixNew,
  new: mixNew,
  // compile, deps.compile, test, release: the build directory; a release also `--path`'s, a test run with coverage cover/.
  compile: mixBuild,
  "deps.compile": mixBuild,
  test: (input) => {
    const root = mixRoots(input)[0];
    return [...mixBuild(input), ...(input.reading.has("--cover", "--export-coverage") ? [anyUnder(root === undefined ? undefined : join(root, "cover"))] : [])];
  },
  release: (input) => {
    const reading = optionsOf(input, { long: valuedLong("path version") });
    return [...mixBuild(input), ...reading.values("path").map((value) => anyUnder(directoryAt(input.walk.cwd, value)))];
  },
  // run (a script or `-e` code of the project's, Elixir the hook does not read), do (tasks it does
  // not split here): any file; escript.build, docs, phx.digest, release.init: anything in the project.
  run: () => [UNKNOWABLE],
  do: () => [UNKNOWABLE],
  ...Object.fromEntries(["escript.build", "docs", "phx.digest", "release.init", "archive.build", "hex.build"].map((task) => [task, (input: RuleInput) => [anyUnder(mixRoots(input).at(-1))]])),
};

/** mix with the tasks above; and `phx.gen.*` (html, live, context, json, auth, release, cert…): the modules, templates, tests and migrations it generates in the app (an umbrella's apps): anything under it. `phx.gen.secret` prints one. */
const MIX = withMore(TOOL_RULES.mix as Rule, MIX_MORE);
const mix: Rule = {
  syntax: MIX.syntax,
  writes: (input) => {
    const task = input.args[input.reading.operands[0] ?? -1] ?? "";
    const generates = task.startsWith("phx.gen.") && task !== "phx.gen.secret" && !asksHelp(input);
    return [...MIX.writes(input), ...(generates ? [anyUnder(mixRoots(input).at(-1))] : [])];
  },
  runsLines: mixCommand,
};

/**
 * `mix cmd [--app APP] [--cd DIR] COMMAND`: the command, read in turn where it runs (`--cd`'s
 * directory; in an umbrella's root, each child app's: a place the text does not name).
 */
function mixCommand(input: RuleInput): Array<string | RunLine | undefined> {
  const { args } = input;
  const task = input.reading.operands[0];
  if (task === undefined || args[task] !== "cmd") return [];
  let at = task + 1;
  let cwd = input.walk.cwd;
  for (; at < args.length && /^--(app|cd)(=|$)/.test(args[at] ?? ""); at += (args[at] as string).includes("=") ? 1 : 2) {
    const value = (args[at] as string).includes("=") ? (args[at] as string).slice((args[at] as string).indexOf("=") + 1) : args[at + 1];
    if ((args[at] as string).startsWith("--cd")) cwd = directoryAt(cwd, value);
  }
  const line = lineOf(args, args[at] === "--" ? at + 1 : at);
  const root = mixRoots(input)[0];
  const umbrella = root !== undefined && root === cwd && /\bapps_path\b/.test(readText(join(root, "mix.exs")) ?? "");
  if (line === undefined) return at < args.length ? [undefined] : [];
  return umbrella ? [{ script: line, cwd: undefined }] : cwd === input.walk.cwd ? [line] : [{ script: line, cwd }];
}

export const PUB_MIX_RULES: Record<string, Rule> = {
  dart: withMore(TOOL_RULES.dart as Rule, { run: buildRunner, pub: pubRun, create: created(DART_CREATE), compile: dartCompile }),
  flutter: withMore(TOOL_RULES.flutter as Rule, { pub: pubRun, packages: flutterPackages, create: created(FLUTTER_CREATE), build: flutterBuild, "gen-l10n": (input) => [anyUnder(pubRoot(input))] }),
  flutterfire: FLUTTERFIRE,
  mix,
};
