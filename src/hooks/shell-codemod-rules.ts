// Codemods and project tools that rewrite the project's own files in place when told to: ast-grep
// (`sg`) with -U (and `new`, its scaffolding), jscodeshift (unless a dry run), comby -i, knip --fix; and the tools that write
// their own files into it: husky's hooks, changesets' version bumps and changelogs. `--help`
// writes nothing.
import { dirname, isAbsolute, join } from "node:path";
import { UNKNOWN_MARK } from "./payload.js";
import { type Syntax, valuedLong } from "./shell-options.js";
import { globOf, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { bySubcommand, JS_MANIFEST, operandFiles, projectRoot, projectRoots } from "./shell-tool-rules.js";
import { ancestorsHolding, anyUnder, directoryAt, UNKNOWABLE } from "./shell-words.js";

/** ast-grep's options (run's and scan's: `-r` is run's rewrite and scan's rule file, a value either way); `--json=…` and the like take one only attached. */
const AST_GREP: Syntax = {
  short: "p:r:l:c:j:A:B:C:",
  long: {
    pattern: "p",
    rewrite: "r",
    rule: "r",
    lang: "l",
    config: "c",
    threads: "j",
    after: "A",
    before: "B",
    context: "C",
    "update-all": "U",
    interactive: "i",
    help: "h",
    json: "::",
    "debug-query": "::",
    ...valuedLong("selector strictness globs color heading inline-rules filter format report-style max-results"),
  },
};
const AST_GREP_COMMANDS = ["run", "scan", "test", "new", "lsp", "completions", "help"];

/**
 * ast-grep (also `sg`): `run` (its default) and `scan` rewrite the files they search, every
 * operand (none: where it runs), with `-U`/`--update-all` or `-i`/`--interactive` (the edits it
 * asks about); `test -U` rewrites the snapshots of the rules' tests, under the project's
 * sgconfig.yml. `new` writes a rule, test or utility into the directories the project's
 * sgconfig.yml (`-c`'s, else the nearest up) names, or a new project with its sgconfig.yml where it
 * runs: any file under that root. Shadow's `sg group -c cmd` takes neither option.
 */
const astGrep: Rule = {
  syntax: { ...AST_GREP, exact: true },
  writes: (input) => {
    const { args, reading } = input;
    const first = args[reading.operands[0] ?? -1];
    if (first === "new" && !reading.has("h")) {
      const config = reading.has("c") ? directoryAt(input.walk.cwd, reading.value("c")) : undefined;
      return [anyUnder(config !== undefined ? dirname(config) : reading.has("c") ? undefined : projectRoot(input.walk.cwd, ["sgconfig.yml"]))];
    }
    if (!reading.has("U", "i") || reading.has("h", "--stdin")) return [];
    const command = first !== undefined && AST_GREP_COMMANDS.includes(first) ? first : "run";
    if (command === "test") return [anyUnder(projectRoot(input.walk.cwd, ["sgconfig.yml"]))];
    return command === "run" || command === "scan" ? operandFiles(input, command === first ? reading.operands.slice(1) : reading.operands) : [];
  },
};

/**
 * jscodeshift: the files and directories it is given, rewritten by the transform, unless a dry run
 * (`-d`/`--dry`); with `--stdin`, the paths its input lists (a pipe's: any file).
 */
const jscodeshift: Rule = {
  syntax: { short: "t:c:v:", long: { transform: "t", cpus: "c", verbose: "v", dry: "d", help: "h", ...valuedLong("parser extensions ignore-pattern ignore-config parser-config") }, exact: true },
  writes: (input) => {
    if (input.reading.has("d", "h")) return [];
    if (input.reading.has("--stdin")) return input.stdin === undefined ? [UNKNOWABLE] : input.stdin.split(/\r?\n/).filter((line) => line.trim() !== "");
    return operandFiles(input, input.reading.operands, []);
  },
};

/** comby's options that take a value (single-dash long names, OCaml's style). */
const COMBY_VALUED = /^-(d|directory|matcher|m|templates|config|exclude|exclude-dir|extensions|f|rule|timeout|jobs|j|rg|custom-metasyntax|max-depth|bound-count)$/;

/**
 * comby MATCH REWRITE [FILTERS…] with `-i`/`-in-place` (or `-review`, which asks about each):
 * the files under `-d`/`-directory` (else where it runs) whose path ends with a filter (`.go`:
 * every Go file; `main.go`: each file of that name), every file there with none. With `-templates`
 * or `-config`, every operand is a filter. `-stdin` writes to stdout.
 */
const comby: Rule = {
  syntax: { long: {} },
  writes: (input) => {
    const { args } = input;
    const operands: Array<string | undefined> = [];
    let directory: string | undefined = ".";
    let writes = false;
    let templates = false;
    for (let at = 0; at < args.length; at++) {
      const arg = args[at];
      if (arg !== undefined && COMBY_VALUED.test(arg)) {
        if (arg === "-d" || arg === "-directory") directory = args[at + 1];
        if (arg === "-templates" || arg === "-config") templates = true;
        at++;
      } else if (arg === "-i" || arg === "-in-place" || arg === "-review" || arg === "-r") writes = true;
      else if (arg === "-stdin" || arg === "-h" || arg === "-help" || arg === "--help") return [];
      else if (arg === undefined || !arg.startsWith("-")) operands.push(arg);
    }
    if (!writes) return [];
    const root = directoryAt(input.walk.cwd, directory);
    const filters = templates ? operands : operands.slice(2);
    if (filters.length === 0) return [anyUnder(root)];
    return filters.map((filter) => {
      if (filter === undefined || root === undefined) return UNKNOWABLE;
      return isAbsolute(filter) ? filter : globOf(join(root, "**", filter.startsWith(".") && !filter.includes("/") ? `*${filter}` : filter));
    });
  },
};

/**
 * knip `--fix` (or `--fix-type`): unused exports taken out of the project's files, unused
 * dependencies out of its manifests, unused files removed (`--allow-remove-files`): anything under
 * `--directory` (else where it runs); `--fix-type dependencies` (and `catalog`) the manifests alone.
 */
const knip: Rule = {
  syntax: { short: "c:t:W:d:", long: { config: "c", tsConfig: "t", workspace: "W", directory: "d", help: "h", ...valuedLong("fix-type include exclude reporter reporter-options preprocessor preprocessor-options max-issues max-show-issues tags cache-location trace-export trace-file") }, exact: true },
  writes: (input) => {
    const { reading, walk } = input;
    if (!reading.has("--fix", "fix-type") || reading.has("h")) return [];
    const root = reading.has("d") ? directoryAt(walk.cwd, reading.value("d")) : walk.cwd;
    if (root === undefined) return [UNKNOWABLE];
    const types = reading.values("fix-type").flatMap((value) => (value === undefined ? ["?"] : value.split(",")));
    if (types.length > 0 && types.every((type) => type === "dependencies" || type === "catalog")) return [globOf(join(root, "**", "package.json")), join(root, "pnpm-workspace.yaml")];
    return [anyUnder(root)];
  },
};

/**
 * husky: `init` makes .husky/ (its pre-commit hook) and sets package.json's prepare script, where
 * it runs; `husky [dir]` (v9, and v8's `install [dir]`) writes its shims under dir/_/ (dir:
 * .husky); v8's `add`/`set` the hook file named.
 */
const husky: Rule = {
  syntax: { long: { help: "h" } },
  writes: (input) => {
    const { args, walk } = input;
    const [sub, ...rest] = input.reading.operands;
    const command = args[sub ?? -1];
    if (input.reading.has("h")) return [];
    if (command === "init") return [anyUnder(walk.cwd === undefined ? undefined : join(walk.cwd, ".husky")), ...(walk.cwd === undefined ? [UNKNOWN_MARK + "package.json"] : [join(walk.cwd, "package.json")])];
    if (command === "add" || command === "set") return input.values(rest.slice(0, 1));
    if (command === "uninstall") return [];
    // (A directory the text does not fix: undefined, a place unknown.)
    const dir = command === "install" ? (rest.length === 0 ? ".husky" : args[rest[0] as number]) : sub === undefined ? ".husky" : command;
    return [anyUnder(dir === undefined ? undefined : directoryAt(walk.cwd, join(dir, "_")))];
  },
};

/**
 * changesets (`changeset`): `version` bumps the versions of the workspace's packages and their
 * dependents (every package.json), writes their CHANGELOG.md and consumes .changeset/; `add` (its
 * default), `pre` and `init` write in .changeset/; `status --output` its file. At the project's
 * root: the nearest directory up with a .changeset/, else the outermost with a manifest.
 */
function changesetWrites(sub: string) {
  return (input: RuleInput): string[] => {
    const cwd = input.walk.cwd;
    if (sub === "status") return optionFiles(input, ["output"]);
    const root = cwd === undefined ? undefined : (ancestorsHolding(cwd, [".changeset"])[0] ?? projectRoots(cwd, JS_MANIFEST).at(-1));
    if (root === undefined) return [UNKNOWABLE];
    const changesets = anyUnder(join(root, ".changeset"));
    return sub === "version" ? [globOf(join(root, "**", "package.json")), globOf(join(root, "**", "CHANGELOG.md")), changesets] : [changesets];
  };
}

const changeset: Rule = bySubcommand(
  { long: valuedLong("since output otp tag snapshot-prerelease-template") },
  { "": changesetWrites("add"), ...Object.fromEntries(["add", "version", "pre", "init", "status"].map((sub) => [sub, changesetWrites(sub)])) },
);

export const CODEMOD_RULES: Record<string, Rule> = {
  "ast-grep": astGrep,
  sg: astGrep,
  jscodeshift,
  comby,
  knip,
  husky,
  changeset,
};
