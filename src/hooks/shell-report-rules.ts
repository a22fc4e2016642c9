// Tools that write reports, coverage data, packages and renderings where their options (or their
// defaults) say: coverage.py, c8 and nyc, lcov and genhtml, linters' and type checkers' report
// files, graphviz's dot, sphinx-apidoc, pg_restore. Each as the files or
// directories it writes; the command a coverage wrapper runs (`c8 npm test`) and pylint's
// --init-hook code, read in turn (Rule.runsLines).
import { basename, dirname, join } from "node:path";
import { valuedLong } from "./shell-options.js";
import { globOf, lineOf, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { bySubcommand } from "./shell-tool-rules.js";
import { anyUnder, directoryAt, shellQuoted, UNKNOWABLE } from "./shell-words.js";

/** A directory's path where it runs (`--report-dir`'s, else `fallback`), as anything under it. */
const directoryOption = (input: RuleInput, key: string, fallback: string): string => anyUnder(directoryAt(input.walk.cwd, input.reading.has(key) ? input.reading.value(key) : fallback));

/** A file where it runs, named by `key`'s option, else `fallback`. */
const fileOption = (input: RuleInput, key: string, fallback: string): string[] => (input.reading.has(key) ? optionFiles(input, [key]) : [input.walk.cwd === undefined ? UNKNOWABLE : join(input.walk.cwd, fallback)]);

/** coverage.py's data file: `--data-file`, else COVERAGE_FILE, else `.coverage` where it runs. */
const coverageData = (input: RuleInput): string[] => {
  if (input.reading.has("data-file")) return optionFiles(input, ["data-file"]);
  const name = input.walk.environment.COVERAGE_FILE || ".coverage";
  return [input.walk.cwd === undefined ? UNKNOWABLE : join(input.walk.cwd, name)];
};

const COVERAGE = { short: "o:d:", long: { ...valuedLong("data-file rcfile include omit"), directory: "d" }, exact: true };

/** The command c8 or nyc runs: its words from its first operand on, unless that is one of its own commands (`c8 report`). */
function coverageCommand(input: RuleInput, own: string[]): Array<string | undefined> {
  const first = input.reading.operands[0];
  return first === undefined || own.includes(input.args[first] ?? "") ? [] : [lineOf(input.args, first)];
}

/** Python that only imports sys and adds to its import path (pylint's `--init-hook` as it is mostly given). */
const PATH_SETUP = /^(\s*(import\s+(sys|os(\.path)?)(\s*,\s*(sys|os(\.path)?))*|sys\.path\.(append|insert)\([^;\n()]*(\([^;\n()]*\)[^;\n()]*)*\))\s*(;|\n|$))+$/;

export const REPORT_RULES: Record<string, Rule> = {
  // coverage run/combine/erase: its data file; xml/json/lcov: their report (-o, else coverage.xml…); html: htmlcov/ (-d).
  coverage: bySubcommand(COVERAGE, {
    run: coverageData,
    combine: coverageData,
    erase: coverageData,
    xml: (input) => fileOption(input, "o", "coverage.xml"),
    json: (input) => fileOption(input, "o", "coverage.json"),
    lcov: (input) => fileOption(input, "o", "coverage.lcov"),
    html: (input) => [directoryOption(input, "d", "htmlcov")],
  }),
  // c8 and nyc run a command and write its coverage: c8's coverage/ (--report-dir, -o) and its temp
  // directory in it; nyc's .nyc_output/ (--temp-dir) and, reporting, coverage/ (--report-dir).
  // (And the command after their options runs, read in turn: `c8 npm test`, `nyc node x.js`; not
  // their own commands, which report on coverage already written: coverageCommand.)
  c8: {
    syntax: { short: "o:r:x:n:e:", long: { "reports-dir": "o", "report-dir": "o", reporter: "r", exclude: "x", include: "n", extension: "e", ...valuedLong("temp-directory src lines functions branches statements config merge-async-timeout") } },
    writes: (input) => [directoryOption(input, "o", "coverage"), ...(input.reading.has("temp-directory") ? [directoryOption(input, "temp-directory", "coverage/tmp")] : [])],
    runsLines: (input) => coverageCommand(input, ["report", "check-coverage"]),
  },
  nyc: {
    syntax: { short: "r:t:x:n:e:i:", long: { reporter: "r", "report-dir": ":", "temp-dir": "t", "temp-directory": "t", exclude: "x", include: "n", extension: "e", require: "i", ...valuedLong("cwd lines functions branches statements nycrc-path cache-dir") } },
    writes: (input) => [directoryOption(input, "t", ".nyc_output"), directoryOption(input, "report-dir", "coverage")],
    runsLines: (input) => coverageCommand(input, ["report", "check-coverage", "instrument", "merge"]),
  },
  // lcov -o (its tracefile); genhtml -o (its directory).
  lcov: { syntax: { short: "o:d:b:a:r:e:t:", long: { "output-file": "o", directory: "d", "base-directory": "b", "add-tracefile": "a", remove: "r", extract: "e", "test-name": "t" } }, writes: (input) => optionFiles(input, ["o"]) },
  genhtml: { syntax: { short: "o:t:p:", long: { "output-directory": "o", title: "t", prefix: "p" } }, writes: (input) => (input.reading.has("o") ? [directoryOption(input, "o", ".")] : [anyUnder(input.walk.cwd)]) },
  // Linters' and type checkers' report files.
  flake8: { syntax: { long: valuedLong("output-file format config max-line-length select ignore extend-ignore exclude") }, writes: (input) => optionFiles(input, ["output-file"]) },
  // (`--init-hook CODE`: Python it runs first, read as `python3 -c CODE`; not the usual import
  // path's setup, `import sys; sys.path.append('src')`, whose path is no file written.)
  pylint: {
    syntax: { long: valuedLong("output output-format rcfile disable enable jobs init-hook") },
    writes: (input) => optionFiles(input, ["output"]),
    runsLines: (input) => input.reading.values("init-hook").flatMap((code) => (code === undefined ? [undefined] : PATH_SETUP.test(code) ? [] : [`python3 -c ${shellQuoted(code)}`])),
  },
  mypy: {
    syntax: { long: valuedLong("junit-xml html-report txt-report xml-report linecount-report any-exprs-report cobertura-xml-report lineprecision-report config-file python-version cache-dir") },
    writes: (input) => [...optionFiles(input, ["junit-xml"]), ...["html-report", "txt-report", "xml-report", "linecount-report", "any-exprs-report", "cobertura-xml-report", "lineprecision-report"].flatMap((key) => (input.reading.has(key) ? [directoryOption(input, key, ".")] : []))],
  },
  bandit: { syntax: { short: "o:f:c:", long: { output: "o", format: "f", configfile: "c" } }, writes: (input) => optionFiles(input, ["o"]) },
  // graphviz's dot (and its layouts) -o, or -O beside each input (`g.dot.png`).
  ...Object.fromEntries(["dot", "neato", "twopi", "circo", "fdp", "sfdp"].map((name) => [name, { syntax: { short: "o:T:K:G:N:E:", long: {} }, writes: graphviz }])),
  // sphinx-apidoc -o DIR: the .rst files it writes there.
  "sphinx-apidoc": { syntax: { short: "o:d:", long: { "output-dir": "o", maxdepth: "d" } }, writes: (input) => (input.reading.has("o") ? [directoryOption(input, "o", ".")] : []) },
  // pg_restore -f FILE: the script it writes instead of restoring.
  pg_restore: { syntax: { short: "f:d:h:p:U:j:L:n:t:", long: { file: "f", dbname: "d", host: "h", port: "p", username: "U", jobs: "j", "use-list": "L", schema: "n", table: "t" } }, writes: (input) => optionFiles(input, ["f"]).filter((path) => path !== "-") },
};

/** dot -o FILE (each -o names the next output), or -O: each input's name with the format's extension. */
function graphviz(input: RuleInput): string[] {
  if (!input.args.includes("-O")) return optionFiles(input, ["o"]);
  const inputs = input.values(input.reading.operands);
  return inputs.map((path) => (path.startsWith("\0") ? path : globOf(join(dirname(path), `${basename(path)}.*`))));
}
