// Developer tools that rewrite the files they are given, or the project files they own, when the
// text says so: formatters and fixers (prettier --write, eslint --fix, black, ruff format, gofmt -w,
// rustfmt, clang-format -i, …), and package managers that rewrite their manifest and lock file
// (npm install x, cargo add, go mod tidy, …). A directory operand stands for everything under it;
// none, for where the tool starts (cwd, or the project root it finds). A glob the tool expands
// itself (`prettier --write "src/**/*.ts"`) is checked as a glob. Long options are read by whole
// name only (Syntax.exact): these tools take no abbreviations, and `--fix` is not `--fix-type`.
// What a tool's configuration adds (`fix = true` in ruff's) is not read.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Syntax, valuedLong } from "./shell-options.js";
import { globOf, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { anyIn, anyUnder } from "./shell-words.js";

/** Glob characters a tool expands itself in a quoted operand. */
const GLOB = /[*?[\]{}]/;

/** The operands at `indexes` as the tool reads them: a quoted glob is a glob; none is `otherwise`. */
function operandFiles(input: RuleInput, indexes: number[], otherwise: string[] = ["."]): string[] {
  const paths = input.values(indexes).map((path) => (GLOB.test(path) && !path.startsWith("\0") ? globOf(path) : path));
  return indexes.length > 0 ? paths.filter((path) => path !== "-") : otherwise;
}

/**
 * A formatter or fixer: writes its operands (or `otherwise` with none) when `writes` says the
 * options ask it to, and the files `outputs` options name in any case (`eslint -o report.txt`).
 */
function formatter(syntax: Syntax, writes: (has: (...keys: string[]) => boolean) => boolean, otherwise: string[] = ["."], outputs: string[] = []): Rule {
  return {
    syntax: { ...syntax, exact: true },
    writes: (input) => [...optionFiles(input, outputs), ...(writes(input.reading.has) ? operandFiles(input, input.reading.operands, otherwise) : [])],
  };
}

/** The nearest directory from cwd up that holds one of `names` (a project's root), else cwd; undefined where cwd is unknown. */
function projectRoot(cwd: string | undefined, names: string[]): string | undefined {
  if (cwd === undefined) return undefined;
  for (let directory = cwd; ; directory = dirname(directory)) {
    if (names.some((name) => existsSync(join(directory, name)))) return directory;
    if (directory === dirname(directory)) return cwd;
  }
}

/** Files of the project root (relative names where the root is unknown: judged by name, in a place unknown). */
function atRoot(root: string | undefined, names: string[]): string[] {
  return names.map((name) => (root === undefined ? name : join(root, name)));
}

/** A subcommand tool (`ruff format`, `cargo fmt`): the first operand picks what its options mean. */
function bySubcommand(syntax: Syntax, rules: Record<string, (input: RuleInput, rest: number[]) => string[]>): Rule {
  return {
    syntax: { ...syntax, exact: true },
    writes: (input) => {
      const [first, ...rest] = input.reading.operands;
      const sub = first === undefined ? "" : (input.args[first] ?? "");
      return Object.hasOwn(rules, sub) ? (rules[sub] as (input: RuleInput, rest: number[]) => string[])(input, rest) : [];
    },
  };
}

const JS_MANIFEST = ["package.json"];
/** What a JavaScript package manager rewrites: the manifest (when packages are named), its lock file, node_modules. */
function javascriptPackages(lock: string[], install: string[], change: string[]): Rule {
  return bySubcommand(
    { short: "C:w:", long: { prefix: "C", workspace: "w", filter: ":", dir: "C", cwd: ":", registry: ":", tag: ":", global: "g", location: ":" } },
    Object.fromEntries([
      ...install.map((sub) => [sub, (input: RuleInput) => packageWrites(input, lock, false)] as const),
      ...change.map((sub) => [sub, (input: RuleInput) => packageWrites(input, lock, true)] as const),
    ]),
  );
}

function packageWrites(input: RuleInput, lock: string[], manifest: boolean): string[] {
  if (input.reading.has("g") || input.reading.value("location") === "global") return []; // the machine's, not the project's
  const root = projectRoot(input.walk.cwd, JS_MANIFEST);
  // Named packages (`npm install x`) go into the manifest; node_modules is rewritten either way.
  const files = atRoot(root, [...(manifest || input.reading.operands.length > 1 ? JS_MANIFEST : []), ...lock]);
  return [...files, root === undefined ? "node_modules/**" : anyUnder(join(root, "node_modules"))];
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

const GO: Syntax = { long: valuedLong("C modfile") };

const CARGO: Syntax = { short: "p:Z:", long: { package: "p", ...valuedLong("manifest-path config color target-dir") } };

export const TOOL_RULES: Record<string, Rule> = {
  prettier: formatter(PRETTIER, (has) => has("w"), []),
  eslint: formatter(ESLINT, (has) => has("--fix"), ["."], ["o"]),
  stylelint: formatter({ short: "c:f:o:", long: { config: "c", formatter: "f", "output-file": "o", ...valuedLong("config-basedir ignore-path ignore-pattern custom-syntax custom-formatter max-warnings cache-location stdin-filename") } }, (has) => has("--fix"), [], ["o"]),
  black: formatter(BLACK, (has) => !has("--check", "--diff", "c"), []),
  isort: formatter({ short: "cdl:p:o:", long: { "check-only": "c", check: "c", diff: "d", stdout: "d", "line-length": "l", project: "p", thirdparty: "o", ...valuedLong("settings-path sp settings-file settings profile src skip skip-glob filter-files ext") } }, (has) => !has("c", "d"), []),
  autopep8: formatter({ short: "ij:", long: { "in-place": "i", jobs: "j", ...valuedLong("select ignore max-line-length indent-size line-range global-config exclude") } }, (has) => has("i"), []),
  yapf: formatter({ short: "il:e:p", long: { "in-place": "i", lines: "l", exclude: "e", ...valuedLong("style") } }, (has) => has("i"), []),
  ruff: bySubcommand(RUFF, {
    format: (input, rest) => (input.reading.has("--check", "--diff") ? [] : operandFiles(input, rest)),
    check: (input, rest) => [...optionFiles(input, ["o"]), ...(input.reading.has("--fix", "--fix-only", "--add-noqa") ? operandFiles(input, rest) : [])],
  }),
  gofmt: formatter({ short: "wr:", long: {} }, (has) => has("w"), []),
  goimports: formatter({ short: "wl", long: valuedLong("local srcdir") }, (has) => has("w"), []),
  go: bySubcommand(GO, {
    // go fmt ./... rewrites every package under .; `go fmt` the package here.
    fmt: (input, rest) => (rest.length === 0 ? [anyIn(input.walk.cwd)] : input.values(rest).map((pattern) => (pattern.endsWith("/...") ? anyUnder(pattern.slice(0, -4)) : pattern))),
    mod: (input, rest) => (["tidy", "edit", "init", "vendor"].includes(input.args[rest[0] ?? -1] ?? "") ? atRoot(projectRoot(input.walk.cwd, ["go.mod"]), ["go.mod", "go.sum"]) : []),
    get: (input) => atRoot(projectRoot(input.walk.cwd, ["go.mod"]), ["go.mod", "go.sum"]),
  }),
  rustfmt: formatter({ long: valuedLong("edition config-path config emit color style-edition") }, (has) => !has("--check"), []),
  cargo: bySubcommand(CARGO, {
    fmt: (input) => (input.args.includes("--check") ? [] : [anyUnder(projectRoot(input.walk.cwd, ["Cargo.toml"]))]),
    fix: (input) => [anyUnder(projectRoot(input.walk.cwd, ["Cargo.toml"]))],
    clippy: (input) => (input.args.includes("--fix") ? [anyUnder(projectRoot(input.walk.cwd, ["Cargo.toml"]))] : []),
    add: (input) => atRoot(projectRoot(input.walk.cwd, ["Cargo.toml"]), ["Cargo.toml", "Cargo.lock"]),
    remove: (input) => atRoot(projectRoot(input.walk.cwd, ["Cargo.toml"]), ["Cargo.toml", "Cargo.lock"]),
    update: (input) => atRoot(projectRoot(input.walk.cwd, ["Cargo.toml"]), ["Cargo.lock"]),
  }),
  "clang-format": formatter({ short: "i", long: valuedLong("style assume-filename lines offset length cursor fallback-style files") }, (has) => has("i"), []),
  shfmt: formatter({ short: "wi:l", long: { write: "w", indent: "i", ...valuedLong("ln language-dialect filename") } }, (has) => has("w"), []),
  terraform: bySubcommand({}, { fmt: (input, rest) => (input.args.some((arg) => arg === "-check" || arg === "-write=false") ? [] : operandFiles(input, rest.filter((at) => !input.args[at]?.startsWith("-")), [input.args.includes("-recursive") ? "." : anyIn(input.walk.cwd)])) }),
  biome: bySubcommand(
    { long: valuedLong("config-path max-diagnostics log-level log-kind diagnostic-level stdin-file-path") },
    Object.fromEntries(["format", "check", "lint"].map((sub) => [sub, (input: RuleInput, rest: number[]) => (input.reading.has("--write", "--apply", "--apply-unsafe", "--fix") ? operandFiles(input, rest) : [])])),
  ),
  dprint: bySubcommand({ long: valuedLong("config plugins excludes") }, { fmt: (input, rest) => operandFiles(input, rest) }),
  deno: bySubcommand({ long: valuedLong("config ext ignore") }, {
    fmt: (input, rest) => (input.reading.has("--check") ? [] : operandFiles(input, rest)),
    lint: (input, rest) => (input.reading.has("--fix") ? operandFiles(input, rest) : []),
  }),
  rubocop: formatter({ short: "aAc:f:o:", long: { autocorrect: "a", "autocorrect-all": "A", config: "c", format: "f", out: "o", ...valuedLong("only except require") } }, (has) => has("a", "A", "--auto-correct", "--auto-correct-all", "--fix-layout", "x"), ["."], ["o"]),
  mix: bySubcommand({}, { format: (input, rest) => (input.reading.has("--check-formatted", "--dry-run") ? [] : operandFiles(input, rest)) }),
  npm: javascriptPackages(["package-lock.json", "npm-shrinkwrap.json"], ["install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "ci", "dedupe", "ddp", "prune"], ["add", "uninstall", "un", "unlink", "remove", "rm", "r", "update", "up", "upgrade", "udpate", "version", "pkg", "init"]),
  pnpm: javascriptPackages(["pnpm-lock.yaml"], ["install", "i", "dedupe", "prune", "import"], ["add", "remove", "rm", "uninstall", "un", "update", "up", "upgrade", "init"]),
  yarn: javascriptPackages(["yarn.lock", ".pnp.cjs", ".pnp.loader.mjs"], ["", "install", "dedupe"], ["add", "remove", "up", "upgrade", "upgrade-interactive", "init"]),
  bun: javascriptPackages(["bun.lock", "bun.lockb"], ["install", "i"], ["add", "a", "remove", "rm", "update", "init"]),
  poetry: bySubcommand({ short: "C:P:", long: { directory: "C", project: "P" } }, Object.fromEntries(["add", "remove", "lock", "update", "install", "init"].map((sub) => [sub, (input: RuleInput) => atRoot(projectRoot(input.walk.cwd, ["pyproject.toml"]), ["pyproject.toml", "poetry.lock"])]))),
  uv: bySubcommand({ long: valuedLong("directory project python") }, Object.fromEntries(["add", "remove", "lock", "sync", "init"].map((sub) => [sub, (input: RuleInput) => atRoot(projectRoot(input.walk.cwd, ["pyproject.toml"]), ["pyproject.toml", "uv.lock"])]))),
};
