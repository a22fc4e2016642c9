// Converters, generators and small file tools an agent runs that write where their options or
// operands say: certificates (mkcert), encryption (age), diagrams (mermaid-cli, PlantUML), PDF
// tools (qpdf, pdftotext, pdftoppm), re-encoding in place (recode), copy and delete packages
// (cpy, ncp, cpx, copyfiles, del), in-place fixers (typos -w, buildifier, rpl), binary
// optimizers (wasm-opt, upx), stub generators (stubgen), virtual environments (virtualenv),
// notebooks (jupytext, papermill), data tools' outputs (scrapy, dbt, sqlacodegen, liquibase) and
// git-filter-repo by its own name.
import { basename, dirname, join } from "node:path";
import { type Syntax, valuedLong } from "./shell-options.js";
import { globOf, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { given } from "./shell-project-tools.js";
import { executedNotebooks, operandFiles, projectRoot } from "./shell-tool-rules.js";
import { anyUnder, directoryAt, shellQuoted, UNKNOWABLE } from "./shell-words.js";
import { isDirectory } from "../targets/target.js";


/** A directory an operand or option names, as anything under it. */
const tree = (input: RuleInput, path: string | undefined) => anyUnder(directoryAt(input.walk.cwd, path));

/** The operands' values as directories, each anything under it (a path the text does not fix kept as it is). */
const trees = (input: RuleInput, indexes: number[]) => input.values(indexes).map((path) => (path.startsWith("\0") ? path : anyUnder(directoryAt(input.walk.cwd, path))));

/**
 * mkcert NAME…: NAME.pem and NAME-key.pem where it runs (`NAME+N` with more than one; `.p12` with
 * `-pkcs12`), or `-cert-file`'s, `-key-file`'s and `-p12-file`'s; `-install`, `-uninstall` and
 * `-CAROOT` touch only its CA and the system's stores.
 */
function mkcert(input: RuleInput): string[] {
  const valued = ["-cert-file", "-key-file", "-p12-file"];
  const files = input.args.flatMap((arg, at) => (valued.includes(arg ?? "") ? input.values([at + 1]) : []));
  const names = input.args.filter((arg, at) => arg === undefined || (!arg.startsWith("-") && !valued.includes(input.args[at - 1] ?? "")));
  if (names.length === 0 || given(input, "-CAROOT", "-help", "--help")) return files;
  const here = (pattern: string) => (input.walk.cwd === undefined ? UNKNOWABLE : globOf(join(input.walk.cwd, pattern)));
  return [...files, here("*.pem"), ...(given(input, "-pkcs12") ? [here("*.p12")] : [])];
}

/** mermaid-cli's mmdc: `-o`'s file (`--output`), else beside its input (`-i`) as an .svg. */
function mmdc(input: RuleInput): string[] {
  // (A Markdown output: its diagrams too, as `out-1.svg` and so on beside it.)
  if (input.reading.has("o")) return optionFiles(input, ["o"]).flatMap((path) => (/\.md$/i.test(path) ? [path, globOf(`${path.replace(/\.md$/i, "")}-*`)] : [path]));
  return optionFiles(input, ["i"]).map((path) => (path.startsWith("\0") ? path : `${path}.svg`));
}

/** PlantUML: beside each diagram, its name with the format's extension; with `-o DIR` (`-output`), in DIR relative to each diagram. */
function plantuml(input: RuleInput): string[] {
  const { args } = input;
  const output = args.findIndex((arg) => arg === "-o" || arg === "-output");
  const valued = new Set(["-o", "-output", "-config", "-charset", "-D", "-P", "-S", "-I", "-x", "-filename"]);
  const diagrams = args.flatMap((arg, at) => (arg !== undefined && !arg.startsWith("-") && !valued.has(args[at - 1] ?? "") ? input.values([at]) : []));
  if (given(input, "-help", "-h", "-version", "-checkonly", "-syntax", "-pipe", "-p")) return [];
  return diagrams.flatMap((path) => {
    if (path.startsWith("\0")) return [path];
    // (A directory: every diagram in it, each beside itself.)
    if (path.endsWith("/") || isDirectory(directoryAt(input.walk.cwd, path) ?? "")) return [anyUnder(directoryAt(input.walk.cwd, path))];
    const place = directoryAt(input.walk.cwd, dirname(path));
    if (output !== -1) return [anyUnder(directoryAt(place, args[output + 1]))];
    return [globOf(join(place ?? "/", `${basename(path).replace(/\.[^.]*$/, "")}.*`))];
  });
}

/** qpdf IN OUT: OUT (`--replace-input`: IN, and its `.~qpdf-orig` backup); `--split-pages`: OUT's numbered pieces. */
function qpdf(input: RuleInput): string[] {
  if (given(input, "--check", "--show-npages", "--json", "--requires-password", "--is-encrypted", "--help", "--version")) return [];
  if (given(input, "--replace-input")) {
    const source = input.args.findIndex((arg) => arg === undefined || !arg.startsWith("-"));
    return source === -1 ? [] : input.values([source]).flatMap((path) => (path.startsWith("\0") ? [path] : [path, `${path}.~qpdf-orig`]));
  }
  // Its output is its last word, whatever its page, overlay and encryption options take before it.
  const last = input.args.length - 1;
  const out = last >= 0 && !(input.args[last] ?? "").startsWith("-") ? input.values([last]) : [];
  return given(input, "--split-pages") ? out.map((path) => (path.startsWith("\0") ? path : globOf(join(dirname(path), `${basename(path).replace(/\.pdf$/i, "")}*`)))) : out;
}

/** poppler's options that take a value, each a word of one dash (`-enc UTF-8`, `-scale-to 1024`). */
const POPPLER_VALUED = new Set(["-f", "-l", "-r", "-x", "-y", "-W", "-H", "-enc", "-opw", "-upw", "-eol", "-fixed", "-resolution", "-scale-to", "-scale-to-x", "-scale-to-y", "-jpegopt", "-sep", "-cropbox", "-thinlinemode", "-aaVector", "-aa", "-freetype", "-colorprofile", "-displayprofile", "-defaultgrayprofile", "-defaultrgbprofile", "-defaultcmykprofile", "-tiffcompression"]);

/** A poppler tool's operands: the words that are no option and no value of one. */
const popplerOperands = (input: RuleInput) => input.args.flatMap((arg, at) => (arg !== undefined && (!arg.startsWith("-") || arg === "-") && !POPPLER_VALUED.has(input.args[at - 1] ?? "") ? [at] : []));

/** pdftotext IN [OUT]: OUT, else IN's name with .txt (`-` is stdout); pdftoppm IN PREFIX: PREFIX's numbered images. */
function pdftotext(input: RuleInput): string[] {
  const [source, target] = popplerOperands(input);
  if (target !== undefined) return input.values([target]).filter((path) => path !== "-");
  return input.values(source === undefined ? [] : [source]).map((path) => (path.startsWith("\0") ? path : `${path.replace(/\.pdf$/i, "")}.txt`));
}

/** `cpy SRC… DEST`, `ncp SRC DEST`, `cpx GLOB DEST`, `copyfiles SRC… DEST`: anything under DEST (its last operand). */
const copier = (syntax: Syntax): Rule => ({
  syntax,
  writes: (input) => (input.reading.operands.length < 2 || given(input, "--help", "-h") ? [] : trees(input, input.reading.operands.slice(-1))),
});

/**
 * jupytext: `--to FMT NB` the notebook in another format beside it (or `-o`'s file), `--sync`,
 * `--set-formats` and `--update` the notebook and its paired files: any file of its name beside it.
 * Not `--test`, `--diff`, `--paired-paths`, or `-o -` (stdout).
 */
function jupytext(input: RuleInput): string[] {
  const { reading } = input;
  if (reading.has("--test", "--test-strict", "--diff", "d", "--paired-paths", "p", "--help", "h", "--version")) return [];
  if (reading.has("o")) return optionFiles(input, ["o"]);
  return input.values(reading.operands).map((path) => (path.startsWith("\0") ? path : globOf(join(dirname(path), `${basename(path).replace(/\.[^.]*$/, "")}.*`))));
}

/** The nearest directory up holding dbt_project.yml (else where it runs), as anything under it. */
const dbtProject = (input: RuleInput) => [anyUnder(projectRoot(input.walk.cwd, ["dbt_project.yml"]))];

export const CONVERTER_RULES: Record<string, Rule> = {
  // (`--execute` runs the notebooks' code: executedNotebooks; `--pipe CMD` and `--check CMD` run a shell command, given the notebook's text: read in turn.)
  jupytext: {
    syntax: { short: "o:t:dp", long: { output: "o", to: "t", diff: "d", "paired-paths": "p", ...valuedLong("from format-options opt set-formats pipe check pipe-fmt check-fmt") } },
    writes: (input) => [...jupytext(input), ...(input.reading.has("--execute") && !given(input, "--help", "-h", "--version") ? executedNotebooks(input, input.reading.operands) : [])],
    runsLines: (input) => [...input.reading.values("pipe"), ...input.reading.values("check")],
  },
  // papermill IN OUT: the executed notebook (`-` is stdout). (`-p NAME VALUE` takes two words: its value is no operand.)
  papermill: {
    syntax: { short: "p:r:y:f:b:k:", long: { parameters: "p", parameters_raw: "r", parameters_yaml: "y", parameters_file: "f", parameters_base64: "b", kernel: "k", ...valuedLong("cwd language engine execution-timeout start-timeout log-level") } },
    // (And the input notebook's code runs: executedNotebooks.)
    writes: (input) => {
      const notebooks = input.reading.operands.filter((at) => !["-p", "--parameters", "-r", "--parameters_raw"].includes(input.args[at - 2] ?? ""));
      return given(input, "--help", "--help-notebook") ? [] : [...operandFiles(input, notebooks.slice(1, 2), []), ...executedNotebooks(input, notebooks.slice(0, 1))];
    },
  },
  // scrapy: `crawl`/`runspider` `-o`/`-O` feed files; `startproject NAME [DIR]`, `genspider` (the project's spiders).
  // (`runspider x.py` runs the file's spider, read as `python3 x.py`; `shell URL -c CODE`, as `python3 -c CODE`.)
  scrapy: {
    syntax: { short: "o:O:a:s:t:c:", long: { output: "o", "overwrite-output": "O", ...valuedLong("logfile loglevel pidfile spider") } },
    runsLines: (input) => {
      const [sub, file] = input.reading.operands;
      if (sub === undefined) return [];
      if (input.args[sub] === "runspider" && file !== undefined) return [input.args[file] === undefined ? undefined : `python3 ${shellQuoted(input.args[file] as string)}`];
      return input.args[sub] === "shell" ? input.reading.values("c").map((code) => (code === undefined ? undefined : `python3 -c ${shellQuoted(code)}`)) : [];
    },
    writes: (input) => {
      const [sub, name, place] = input.reading.operands.map((at) => input.args[at]);
      const feeds = [...optionFiles(input, ["o", "O", "logfile", "pidfile"])].map((path) => path.replace(/:[a-z]+$/, ""));
      if (sub === "startproject") return [...feeds, tree(input, place ?? name)];
      if (sub === "genspider") return [...feeds, anyUnder(projectRoot(input.walk.cwd, ["scrapy.cfg"]))];
      return feeds;
    },
  },
  // dbt: target/, logs/, dbt_packages/ in the project (anything under it); not `debug`, `ls`/`list`, `--help`, `--version`.
  dbt: { syntax: {}, writes: (input) => (/^(debug|ls|list|--help|-h|--version)?$/.test(input.args.find((arg) => arg === undefined || !arg.startsWith("-") || /^--(help|version)$/.test(arg)) ?? "") ? [] : dbtProject(input)) },
  // sqlacodegen --outfile FILE (stdout without it).
  sqlacodegen: { syntax: { long: valuedLong("outfile generator tables schemas options engine-arg") }, writes: (input) => optionFiles(input, ["outfile"]) },
  // liquibase's changelog writers: `--changelog-file`'s (`--changelogFile`) file, for generateChangeLog, diffChangeLog and snapshot's `--output-file`.
  liquibase: { syntax: { long: valuedLong("changelog-file changelogFile output-file outputFile url username password defaults-file") }, writes: (input) => (input.args.some((arg) => /^(generate-?change-?log|diff-?change-?log|generateChangeLog|diffChangeLog)$/i.test(arg ?? "")) ? optionFiles(input, ["changelog-file", "changelogFile"]) : optionFiles(input, ["output-file", "outputFile"])) },
  mkcert: { syntax: {}, writes: mkcert },
  // age and age-keygen: `-o`'s file (`--output`); without it, stdout.
  age: { syntax: { short: "o:r:R:i:", long: { output: "o", recipient: "r", "recipients-file": "R", identity: "i" } }, writes: (input) => optionFiles(input, ["o"]) },
  "age-keygen": { syntax: { short: "o:", long: { output: "o" } }, writes: (input) => optionFiles(input, ["o"]) },
  mmdc: { syntax: { short: "i:o:c:C:t:w:H:b:p:e:s:", long: { input: "i", output: "o", configFile: "c", cssFile: "C", theme: "t", width: "w", height: "H", backgroundColor: "b", puppeteerConfigFile: "p", outputFormat: "e", scale: "s" } }, writes: mmdc },
  plantuml: { syntax: {}, writes: plantuml },
  qpdf: { syntax: {}, writes: qpdf },
  pdftotext: { syntax: {}, writes: pdftotext },
  pdftoppm: { syntax: {}, writes: (input) => input.values(popplerOperands(input).slice(1, 2)).map((path) => (path.startsWith("\0") ? path : globOf(`${path}*`))) },
  // recode REQUEST FILE…: each file rewritten in its new encoding (none: a filter of stdin).
  recode: { syntax: { long: valuedLong("header") }, writes: (input) => operandFiles(input, input.reading.operands.slice(1), []) },
  cpy: copier({ long: valuedLong("cwd rename concurrency") }),
  ncp: copier({ long: valuedLong("limit filter transform") }),
  // (cpx's `-c` runs a command on each file it copies: read as one.)
  cpx: { ...copier({ short: "c:t:", long: { command: "c", transform: "t" } }), runsArguments: true },
  copyfiles: copier({ short: "u:e:", long: { up: "u", exclude: "e" } }),
  // del-cli (`del`, `del-cli`): what its patterns name, a directory with all under it (not `--dry-run`).
  "del-cli": { syntax: { long: { "dry-run": "d" } }, writes: (input) => {
      // (A pattern with `!` keeps what it names.)
      const patterns = input.reading.operands.filter((at) => !(input.args[at] ?? "").startsWith("!"));
      return input.reading.has("d") ? [] : [...operandFiles(input, patterns, []), ...trees(input, patterns)];
    },
  },
  // typos -w (`--write-changes`): the files it is given, else anything under where it runs.
  typos: { syntax: { short: "wc:", long: { "write-changes": "w", config: "c", ...valuedLong("exclude type format") } }, writes: (input) => (!input.reading.has("w") ? [] : input.reading.operands.length > 0 ? [...operandFiles(input, input.reading.operands, []), ...trees(input, input.reading.operands)] : [tree(input, ".")]) },
  // buildifier rewrites its files in place (its default `-mode=fix`; not check, diff or print); `-r` their directories' BUILD files.
  buildifier: {
    syntax: {},
    writes: (input) => {
      if (input.args.some((arg, at) => /^--?mode=(check|diff|print_if_changed)$/.test(arg ?? "") || (/^--?mode$/.test(arg ?? "") && /^(check|diff|print_if_changed)$/.test(input.args[at + 1] ?? ""))) || given(input, "-d", "--help", "-help", "--version", "-version")) return [];
      const files = input.args.flatMap((arg, at) => (arg !== undefined && !arg.startsWith("-") && !/^--?(mode|lint|warnings|type|path|tables|add_tables|config)$/.test(input.args[at - 1] ?? "") ? [at] : []));
      if (!given(input, "-r", "--r")) return operandFiles(input, files, []);
      return files.length > 0 ? trees(input, files) : [tree(input, ".")];
    },
  },
  // rpl OLD NEW FILE…: each file (`-R`: anything under each directory).
  rpl: { syntax: { short: "Rx:", long: { recursive: "R", extension: "x" } }, writes: (input) => (input.reading.has("R") ? trees(input, input.reading.operands.slice(2)) : operandFiles(input, input.reading.operands.slice(2), [])) },
  // wasm-opt -o FILE; upx rewrites each file in place (or `-o`'s).
  "wasm-opt": { syntax: { short: "o:", long: { output: "o" } }, writes: (input) => optionFiles(input, ["o"]) },
  upx: { syntax: { short: "o:", long: { output: "o" } }, writes: (input) => (given(input, "-t", "-l", "--test", "--list", "-V", "--version", "-h", "--help") ? [] : input.reading.has("o") ? optionFiles(input, ["o"]) : operandFiles(input, input.reading.operands, [])) },
  // mypy's stubgen: its .pyi files in `-o`'s directory (`out/` by default).
  stubgen: { syntax: { short: "o:p:m:", long: { output: "o", package: "p", module: "m", ...valuedLong("search-path python-executable") } }, writes: (input) => (given(input, "--help", "-h", "--version") ? [] : [tree(input, input.reading.has("o") ? input.reading.value("o") : "out")]) },
  // virtualenv DIR: anything under DIR.
  virtualenv: { syntax: { short: "p:", long: { python: "p", ...valuedLong("prompt activators seeder extra-search-dir app-data discovery creator") } }, writes: (input) => trees(input, input.reading.operands.slice(0, 1)) },
  // git-filter-repo by its own name: as `git filter-repo`, any file of the repository (not `--analyze`, `--dry-run`).
  "git-filter-repo": { syntax: {}, writes: (input) => (given(input, "--analyze", "--dry-run", "--help", "-h", "--version") ? [] : [anyUnder(projectRoot(input.walk.cwd, [".git"]))]) },
};
CONVERTER_RULES.del = CONVERTER_RULES["del-cli"] as Rule;
