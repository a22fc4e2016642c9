// More formatters, fixers and minifiers that rewrite the files they are given, or write the file
// an option names: those an agent runs in JavaScript, Python, Go, SQL, C and C++, C#, Nix, Ruby,
// PHP and a few other languages' projects, beside the ones of shell-tool-rules.ts. Each writes its
// operands when its options say it rewrites them (or by default, unless they say it only checks),
// with none given where it runs (`.`) or nothing (a formatter of stdin), and its output option's file.
import { type Syntax, valuedLong } from "./shell-options.js";
import { loadedFiles, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { bySubcommand, formatter, operandFiles, projectRoot, TOOL_RULES } from "./shell-tool-rules.js";
import { given } from "./shell-project-tools.js";
import { anyUnder, directoryAt, UNKNOWABLE } from "./shell-words.js";


/** A tool whose first two operands are a pattern and its replacement, and the rest paths (`.` with none): what it writes when `writes` says so. */
const replacer = (syntax: Syntax, writes: (input: RuleInput) => boolean): Rule => ({
  syntax: { ...syntax, exact: true },
  writes: (input) => (writes(input) ? operandFiles(input, input.reading.operands.slice(2)) : []),
});

/** A minifier or bundler writing only the file its output option names (stdout without one). */
const minifier = (short: string, long: Record<string, string>): Rule => formatter({ short, long }, () => false, [], ["o"]);

/** semgrep's report files, each a format's (`--json-output=f`). */
const SEMGREP_OUTPUTS = ["json-output", "sarif-output", "text-output", "junit-xml-output", "gitlab-sast-output", "gitlab-secrets-output", "emacs-output", "vim-output"];

const BEAUTIFY = formatter({ short: "o:f:s:c:t:e:", long: { outfile: "o", file: "f", "indent-size": "s", "indent-char": "c", type: "t", eol: "e", replace: "r", ...valuedLong("config") } }, (has) => has("r"), [], ["o"]);

export const FORMATTER_RULES: Record<string, Rule> = {
  // C and C++: astyle rewrites its files (keeping FILE.orig), uncrustify with --replace or --no-backup; uncrustify -o its output.
  astyle: formatter({ long: valuedLong("options project suffix exclude") }, (has) => !has("--dry-run", "--stdin", "--stdout", "--version", "V", "--help", "h"), []),
  uncrustify: formatter({ short: "c:o:F:l:L:", long: valuedLong("frag assume set prefix suffix") }, (has) => has("--replace", "--no-backup"), [], ["o"]),
  // HTML Tidy -m (-modify) rewrites its files; -o (-output) names its output. Its long options have one dash.
  tidy: {
    syntax: {},
    writes: (input) => {
      // Its output (-o, -output) and its errors file (-f, -file, --error-file).
      const output = input.args.flatMap((arg, at) => (["-o", "-output", "--output", "--output-file", "-f", "-file", "--error-file"].includes(arg ?? "") ? input.values([at + 1]) : []));
      const valued = new Set(["-o", "-output", "--output", "--output-file", "-config", "--config", "-f", "-file", "--error-file", "-language", "--language", "-access", "--accessibility-check"]);
      const files = input.args.flatMap((arg, index) => (arg !== undefined && !arg.startsWith("-") && !valued.has(input.args[index - 1] ?? "") ? [index] : []));
      return [...output, ...(given(input, "-m", "-modify", "--modify") ? operandFiles(input, files, []) : [])];
    },
  },
  // JavaScript: js-beautify -r (and its css and html forms), svgo (in place unless -o), doctoc,
  // markdown-toc -i, lebab --replace, ts-standard, tslint, eslint_d and textlint --fix; the
  // minifiers' -o (terser, uglify-js, csso, clean-css, html-minifier); ncc build's output directory.
  "js-beautify": BEAUTIFY,
  "css-beautify": BEAUTIFY,
  "html-beautify": BEAUTIFY,
  svgo: {
    syntax: { short: "o:f:i:s:p:", long: { output: "o", folder: "f", input: "i", string: "s", precision: "p", ...valuedLong("config datauri indent eol") }, exact: true },
    writes: (input) => {
      const { reading } = input;
      if (reading.has("s", "--show-plugins", "--help", "h", "--version", "v")) return [];
      const outputs = optionFiles(input, ["o"]);
      if (reading.has("o")) return outputs;
      const folders = reading.has("f") ? [anyUnder(directoryAt(input.walk.cwd, reading.value("f")))] : [];
      return [...folders, ...optionFiles(input, ["i"]), ...operandFiles(input, reading.operands, [])];
    },
  },
  doctoc: formatter({ long: valuedLong("title maxlevel entryprefix") }, (has) => !has("--dryrun", "d", "--stdout", "s", "--help", "h"), []),
  "markdown-toc": formatter({ long: valuedLong("append bullets indent") }, (has) => has("i"), []),
  lebab: formatter({ short: "o:t:", long: { "out-file": "o", transform: "t", replace: "" } }, (has) => has("replace"), [], ["o"]),
  "ts-standard": formatter({ long: valuedLong("project env global plugin parser report") }, (has) => has("--fix")),
  tslint: formatter({ short: "c:p:o:t:e:r:", long: { config: "c", project: "p", out: "o", format: "t", exclude: "e", "rules-dir": "r", fix: "" } }, (has) => has("fix"), [], ["o"]),
  ...(TOOL_RULES.eslint && { eslint_d: TOOL_RULES.eslint }),
  textlint: { ...formatter({ short: "f:o:c:", long: { format: "f", "output-file": "o", config: "c", fix: "", ...valuedLong("rulesdir rule preset plugin ignore-path") } }, (has) => has("fix") && !has("--dry-run"), [], ["o"]), runsLines: loadedFiles(["rule", "plugin", "preset"], "node") },
  terser: minifier("o:", { output: "o" }),
  uglifyjs: minifier("o:", { output: "o" }),
  "uglify-js": minifier("o:", { output: "o" }),
  csso: minifier("o:i:", { output: "o", input: "i" }),
  cleancss: minifier("o:O:", { output: "o" }),
  "html-minifier": minifier("o:c:", { output: "o", "config-file": "c" }),
  "html-minifier-terser": minifier("o:c:", { output: "o", "config-file": "c" }),
  ncc: bySubcommand({ short: "o:e:", long: { out: "o", external: "e", ...valuedLong("target stats-out asset-builds license") } }, {
    build: (input) => [anyUnder(directoryAt(input.walk.cwd, input.reading.has("o") ? input.reading.value("o") : "dist"))],
  }),
  // Python: import and syntax fixers that rewrite their files (unless they only check or print).
  "add-trailing-comma": formatter({ long: valuedLong("py36-plus") }, (has) => !has("--help", "h"), []),
  "reorder-python-imports": formatter({ long: valuedLong("application-directories py-version add-import remove-import replace-import") }, (has) => !has("--diff-only"), []),
  pycln: formatter({ short: "cdsq", long: { check: "c", diff: "d", silence: "s", quiet: "q", ...valuedLong("config include exclude extend-exclude skip-imports") } }, (has) => !has("c", "d"), ["."]),
  unimport: formatter({ short: "rcdp", long: { remove: "r", check: "c", diff: "d", permission: "p", ...valuedLong("include exclude config") } }, (has) => has("r", "p"), ["."]),
  flynt: formatter({ short: "l:s", long: { "line-length": "l", string: "s", ...valuedLong("exclude") } }, (has) => !has("--dry-run", "s", "--stdout"), ["."]),
  "blacken-docs": formatter({ short: "l:t:S", long: { "line-length": "l", "target-version": "t" } }, (has) => !has("--check"), []),
  "pyproject-fmt": formatter({ long: valuedLong("indent column-width keep-full-version max-supported-python") }, (has) => !has("--check", "--stdout"), []),
  "toml-sort": formatter({ short: "o:ia", long: { output: "o", "in-place": "i", all: "a" } }, (has) => has("i"), [], ["o"]),
  usort: bySubcommand({}, { format: (input, rest) => operandFiles(input, rest) }),
  ufmt: bySubcommand({}, { format: (input, rest) => operandFiles(input, rest) }),
  darker: formatter({ short: "r:c:W:l:d", long: { revision: "r", config: "c", workers: "W", "line-length": "l", diff: "d", ...valuedLong("target-version formatter") } }, (has) => !has("--check", "d", "--stdout"), ["."]),
  ...(TOOL_RULES.black && { pyink: TOOL_RULES.black, blue: TOOL_RULES.black }),
  ssort: formatter({}, (has) => !has("--check", "--diff"), ["."]),
  // Go: golines -w, gopls format/imports -w (its files), gopls rename -w (any file of the module).
  golines: formatter({ short: "m:t:", long: { "max-len": "m", "tab-len": "t", "write-output": "w", ...valuedLong("base-formatter shorten-comments ignore-generated") } }, (has) => has("w"), []),
  gopls: bySubcommand({}, {
    format: (input, rest) => (input.reading.has("w", "-write") ? operandFiles(input, rest, []) : []),
    imports: (input, rest) => (input.reading.has("w", "-write") ? operandFiles(input, rest, []) : []),
    rename: (input) => (input.reading.has("w", "-write") ? [anyUnder(projectRoot(input.walk.cwd, ["go.mod"]))] : []),
  }),
  // SQL: sqlfluff fix/format, pg_format -i, sql-formatter --fix, sqlfmt (unless it checks).
  sqlfluff: bySubcommand({ long: valuedLong("dialect templater rules exclude-rules config") }, {
    fix: (input, rest) => operandFiles(input, rest),
    format: (input, rest) => operandFiles(input, rest),
  }),
  pg_format: formatter({ short: "o:", long: { output: "o", inplace: "i" } }, (has) => has("i"), [], ["o"]),
  "sql-formatter": formatter({ short: "o:c:l:", long: { output: "o", config: "c", language: "l", fix: "" } }, (has) => has("fix"), [], ["o"]),
  sqlfmt: formatter({ long: valuedLong("line-length exclude encoding") }, (has) => !has("--check", "--diff"), ["."]),
  // C#: csharpier (`csharpier .`, and 1.0's `csharpier format .`), unless it checks (`--check`, `csharpier check .`).
  csharpier: {
    syntax: { long: valuedLong("config-path log-format"), exact: true },
    writes: (input) => {
      const [first, ...rest] = input.reading.operands;
      const sub = input.args[first ?? -1];
      if (input.reading.has("--check", "--help", "h", "--version") || sub === "check") return [];
      return operandFiles(input, sub === "format" ? rest : input.reading.operands);
    },
  },
  // Nix.
  alejandra: formatter({ short: "ce:q", long: { check: "c", exclude: "e", quiet: "q" } }, (has) => !has("c"), ["."]),
  nixfmt: formatter({ short: "cw:", long: { check: "c", width: "w" } }, (has) => !has("c", "--verify"), []),
  "nixpkgs-fmt": formatter({}, (has) => !has("--check"), []),
  // Ruby: rufo, syntax_tree's `stree write`, erb_lint -a.
  rufo: formatter({ short: "c", long: { check: "c", ...valuedLong("filename") } }, (has) => !has("c"), []),
  stree: bySubcommand({ long: valuedLong("plugins print-width") }, { write: (input, rest) => operandFiles(input, rest, []) }),
  erb_lint: formatter({ short: "a", long: { autocorrect: "a", ...valuedLong("config format enable-linters") } }, (has) => has("a"), []),
  erblint: formatter({ short: "a", long: { autocorrect: "a", ...valuedLong("config format enable-linters") } }, (has) => has("a"), []),
  // PHP: rector process (its configured paths with none: the project), unless a dry run.
  // (`process` is its default command: `vendor/bin/rector src` processes src.)
  rector: {
    syntax: { short: "c:n", long: { config: "c", "dry-run": "n", ...valuedLong("autoload-file output-format memory-limit") }, exact: true },
    writes: (input) => {
      const [first, ...rest] = input.reading.operands;
      const command = input.args[first ?? -1];
      if (input.reading.has("n", "--help", "h", "--version", "V") || ["list", "init", "setup-ci", "custom-rule", "worker", "help", "list-rules", "completion", "detect-node"].includes(command ?? "")) return [];
      const paths = command === "process" ? rest : input.reading.operands;
      return paths.length > 0 ? operandFiles(input, paths) : [anyUnder(projectRoot(input.walk.cwd, ["composer.json"]))];
    },
  },
  // Other languages' formatters that rewrite in place when told to.
  ocamlformat: formatter({ short: "o:i", long: { output: "o", inplace: "i" } }, (has) => has("i"), [], ["o"]),
  "elm-format": formatter({ long: { output: "o", yes: "y", ...valuedLong("elm-version") } }, (has) => !has("--validate", "--stdin"), [], ["o"]),
  "stylish-haskell": formatter({ short: "c:i", long: { config: "c", inplace: "i" } }, (has) => has("i"), []),
  "cabal-fmt": formatter({ short: "i", long: { inplace: "i" } }, (has) => has("i"), []),
  hindent: formatter({ long: valuedLong("line-length indent-size style") }, (has) => !has("--validate"), []),
  "purs-tidy": bySubcommand({}, { "format-in-place": (input, rest) => operandFiles(input, rest) }),
  erlfmt: formatter({ short: "wo:", long: { write: "w", output: "o" } }, (has) => has("w"), [], ["o"]),
  gleam: bySubcommand({}, { format: (input, rest) => (input.reading.has("--check", "--stdin") ? [] : operandFiles(input, rest)) }),
  cljfmt: bySubcommand({}, { fix: (input, rest) => operandFiles(input, rest) }),
  "lua-format": formatter({ short: "c:i", long: { config: "c", "in-place": "i" } }, (has) => has("i"), []),
  gersemi: formatter({ short: "il:", long: { "in-place": "i", "line-length": "l" } }, (has) => has("i"), []),
  // latexindent -w (its files), -o FILE, also written `-o=FILE` as its manual does.
  latexindent: {
    syntax: { short: "wo:l:c:", long: { overwrite: "w", outputfile: "o", local: "l", cruft: "c", overwriteIfDifferent: "" }, exact: true },
    writes: (input) => {
      const outputs = optionFiles(input, ["o"]).map((path) => path.replace(/(^|\/)=([^/]*)$/, "$1$2"));
      return [...outputs, ...(input.reading.has("w", "overwriteIfDifferent") ? operandFiles(input, input.reading.operands, []) : [])];
    },
  },
  djlint: formatter({ long: valuedLong("profile extension indent max-line-length configuration include exclude") }, (has) => has("--reformat"), ["."]),
  yamlfmt: {
    syntax: {},
    // (Its flags have one dash and some a value, `-conf f`: a value is judged as written too, a false refusal at worst.)
    writes: (input) => (given(input, "-dry", "--dry", "-lint", "--lint", "-in", "--in", "-version", "--version", "-help", "--help", "-h") ? [] : operandFiles(input, input.reading.operands)),
  },
  // Image optimizers that rewrite their files in place, or write their output option's: optipng
  // (-out), oxipng (--out, --dir), jpegoptim (-d), gifsicle -b (-o), pngquant (--ext .png with
  // --force in place; -o; else FILE-fs8.png beside each), cwebp (-o), exiftool (each file, and its
  // FILE_original backup unless -overwrite_original; -o instead).
  optipng: { syntax: {}, writes: (input) => (given(input, "-simulate") ? [] : given(input, "-out") ? input.values([input.args.indexOf("-out") + 1]) : operandFiles(input, input.reading.operands, [])) },
  oxipng: formatter({ short: "o:O:D:", long: { out: "O", dir: "D", ...valuedLong("opt interlace strip filters") } }, (has) => !has("O", "D", "--pretend", "P", "--stdout"), [], ["O", "D"]),
  jpegoptim: formatter({ short: "d:m:S:T:", long: { dest: "d", max: "m", size: "S", threshold: "T" } }, (has) => !has("d", "n", "--noaction", "--stdout"), [], ["d"]),
  gifsicle: formatter({ short: "o:O::", long: { output: "o", batch: "b" } }, (has) => has("b"), [], ["o"]),
  pngquant: {
    syntax: { short: "o:", long: { output: "o", ...valuedLong("ext quality speed posterize") }, exact: true },
    writes: (input) => {
      if (input.reading.has("o")) return optionFiles(input, ["o"]);
      const ext = input.reading.has("ext") ? input.reading.value("ext") : "-fs8.png";
      const files = input.values(input.reading.operands).filter((path) => path !== "-");
      return files.map((path) => (path.startsWith("\0") ? path : ext === undefined ? UNKNOWABLE : path.replace(/\.png$/i, "") + ext));
    },
  },
  cwebp: { syntax: { short: "o:q:" }, writes: (input) => optionFiles(input, ["o"]) },
  exiftool: {
    syntax: {},
    writes: (input) => {
      const at = input.args.indexOf("-o");
      if (at !== -1) return input.values([at + 1]);
      // Tags written (`-Comment=x`, `-all=`), or a file's tags copied in: the files, and their backups.
      if (!input.args.some((arg) => arg !== undefined && /^-[\w:-]*[+-]?=|^-tagsFromFile$/i.test(arg))) return [];
      const files = operandFiles(input, input.args.flatMap((arg, index) => (arg !== undefined && !arg.startsWith("-") && !/^-(tagsFromFile|[a-zA-Z])$/i.test(input.args[index - 1] ?? "") ? [index] : [])), []);
      return given(input, "-overwrite_original", "-overwrite_original_in_place") ? files : [...files, ...files.map((path) => (path.startsWith("\0") ? path : `${path}_original`))];
    },
  },
  // Search-and-replace tools: semgrep --autofix (its rules' matches under the paths), fastmod and ruplacer --go (under the paths after pattern and replacement).
  semgrep: {
    syntax: { short: "f:e:l:c:o:", long: { config: "c", pattern: "e", lang: "l", output: "o", ...valuedLong(`include exclude severity metrics ${SEMGREP_OUTPUTS.join(" ")}`) } },
    writes: (input) => [...optionFiles(input, ["o", ...SEMGREP_OUTPUTS]), ...(given(input, "--autofix", "-a") && !given(input, "--dryrun", "--dry-run") ? operandFiles(input, input.reading.operands.filter((at) => !["scan", "ci"].includes(input.args[at] ?? ""))) : [])],
  },
  fastmod: replacer({ short: "de:", long: { dir: "d", extensions: "e", ...valuedLong("glob iglob") } }, () => true),
  ruplacer: replacer({ short: "t:T:", long: { type: "t", "type-not": "T", ...valuedLong("glob iglob") } }, (input) => given(input, "--go")),
};
