// Programs in languages the hook does not read (Java, Lua, Tcl, R, Julia, …), run from their
// source. The hook reads a python, node, ruby, perl or php program an agent may just have written
// for the files it names (shell-program-runs.ts); a helper in another language it cannot read could
// write any file, so it is judged as writing anything. The project's own programs, tracked by git
// (or ignored) even when changed since, are not: they are what its developers edit and run (`go
// run .`), and would be refused whenever any claim is held (program-files.ts notTrackedByProject).
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { notTrackedByProject } from "./program-files.js";

/**
 * Each runner: the names of its program files, and the subcommand that runs one where it takes
 * subcommands (`go run`; `dart run x.dart` or `dart x.dart`, never `dart format x.dart`).
 */
const RUNNERS: Record<string, { files: RegExp; sub?: RegExp; subOrFile?: RegExp }> = {
  java: { files: /\.java$/ }, // source-file mode: `java Fix.java`
  jshell: { files: /\.(java|jsh)$/ },
  go: { files: /\.go$/, sub: /^run$/ },
  lua: { files: /\.lua$/ },
  luajit: { files: /\.lua$/ },
  tclsh: { files: /\.tcl$/ },
  wish: { files: /\.tcl$/ },
  Rscript: { files: /\.[Rr]$/ },
  julia: { files: /\.jl$/ },
  swift: { files: /\.swift$/, subOrFile: /^run$/ },
  kotlin: { files: /\.kts$/ },
  kotlinc: { files: /\.kts$/ },
  groovy: { files: /\.groovy$/ },
  scala: { files: /\.(scala|sc)$/, subOrFile: /^run$/ },
  "scala-cli": { files: /\.(scala|sc)$/, subOrFile: /^run$/ },
  elixir: { files: /\.exs?$/ },
  runghc: { files: /\.l?hs$/ },
  runhaskell: { files: /\.l?hs$/ },
  ocaml: { files: /\.ml$/ },
  guile: { files: /\.scm$/ },
  racket: { files: /\.rkt$/ },
  sbcl: { files: /\.(lisp|cl)$/ },
  dart: { files: /\.dart$/, subOrFile: /^run$/ },
  crystal: { files: /\.cr$/, subOrFile: /^(run|i|interactive)$/ }, // (`crystal eval CODE`: the crystal rule's)
  dotnet: { files: /\.fsx$/, sub: /^fsi$/ }, // an F# script
  zig: { files: /\.zig$/, sub: /^run$/ },
  nim: { files: /\.nims?$/, sub: /^(r|run|e)$/ }, // `nim r x.nim` compiles and runs it; `nim e x.nims` runs NimScript
  stack: { files: /\.l?hs$/, sub: /^(runghc|runhaskell|script)$/ }, // `stack script x.hs`
  cabal: { files: /\.l?hs$/, sub: /^run$/ }, // `cabal run x.hs`: a script (an executable's name is no file)
  expect: { files: /\.(exp|tcl)$/ }, // Tcl that spawns commands (`expect -f`, `-c`: INLINE)
  bb: { files: /\.(clj|cljc|bb)$/ }, // babashka
  clojure: { files: /\.(clj|cljc)$/ },
  clj: { files: /\.(clj|cljc)$/ },
  raku: { files: /\.(raku|rakumod|p6|pl6)$/ },
  perl6: { files: /\.(raku|p6|pl6)$/ },
  escript: { files: /\.(erl|escript)$/ },
  swipl: { files: /\.(pl|pro|prolog)$/ },
  octave: { files: /\.m$/ },
  "octave-cli": { files: /\.m$/ },
  coffee: { files: /\.(coffee|litcoffee)$/ },
};

/** `lua5.4`: the runner's own name. */
function runnerOf(name: string): (typeof RUNNERS)[string] | undefined {
  const bare = basename(name);
  const unversioned = bare.replace(/[\d.]+$/, "");
  return Object.hasOwn(RUNNERS, bare) ? RUNNERS[bare] : unversioned !== "" && Object.hasOwn(RUNNERS, unversioned) ? RUNNERS[unversioned] : undefined;
}

/** Whether the word names one of these runners. */
export function isUnreadRunner(name: string): boolean {
  return runnerOf(name) !== undefined;
}

/**
 * Whether this call of a runner runs a program file an agent may have written: one not there yet
 * (the command writes it first: `cat > Fix.java <<EOF … EOF; java Fix.java`), or there and not the
 * project's own. Its operands of the language's names count, and for `go run` the `.go` files of each
 * package directory it is given (of this one, given none). A word the text does not fix (`lua
 * "$f"`), or a place it does not fix, could be any such file.
 */
export function runsUnreadProgram(name: string, args: Array<string | undefined>, cwd: string | undefined, written: (path: string) => boolean = () => false): boolean {
  const runner = runnerOf(name);
  if (runner === undefined) return false;
  let words = args;
  if (runner.sub !== undefined || runner.subOrFile !== undefined) {
    // The first word that is not an option (nor `-C dir`'s value) is the subcommand, or the program.
    let at = 0;
    while (at < words.length && words[at] !== undefined && (words[at] as string).startsWith("-")) {
      if (words[at] === "-C") {
        // `go -C dir run .`: from that directory.
        const dir = words[at + 1];
        cwd = dir === undefined || cwd === undefined ? undefined : resolve(cwd, dir);
        at += 2;
      } else at++;
    }
    const first = words[at];
    if (first === undefined) return at < words.length; // a subcommand the text does not fix
    if (runner.sub !== undefined && !runner.sub.test(first)) return false;
    if (runner.subOrFile !== undefined && !runner.subOrFile.test(first) && !runner.files.test(first)) return false; // `dart format x.dart`
    if (runner.sub !== undefined || runner.subOrFile?.test(first)) words = words.slice(at + 1);
  }
  const operands = words.filter((word) => word === undefined || !word.startsWith("-"));
  if (operands.some((word) => word === undefined)) return true;
  if (cwd === undefined) return (operands as string[]).some((word) => runner.files.test(word) || runner === RUNNERS.go);
  const files: string[] = [];
  for (const word of operands as string[]) {
    if (runner.files.test(word)) files.push(resolve(cwd, word));
    else if (runner === RUNNERS.go && isDirectory(resolve(cwd, word))) files.push(...sourcesIn(resolve(cwd, word), runner.files));
  }
  // `go run` alone: the package here (a module path, `golang.org/x/tools/cmd/stringer@latest`, is no file here).
  if (runner === RUNNERS.go && operands.length === 0) files.push(...sourcesIn(cwd, runner.files));
  // (One the line writes first, the project's own too: what runs is not what git has.)
  return files.some((file) => !existsSync(file) || written(file)) || notTrackedByProject(files).length > 0;
}

/**
 * `cargo build`, `run`, `test` (and `check`, `bench`, their one-letter forms): a crate's build
 * script (`build.rs`) runs at every build (clippy's and doc's too), and `run` and `test` run its
 * programs, Rust the hook does not read. Where one an agent may have written is among them
 * (`build.rs`, `src/*.rs`, `src/bin/*.rs`, `tests/*.rs`, `examples/*.rs` of the crate around where
 * it runs, or `--manifest-path`'s; one the command writes first; not the project's own), it could
 * write any file, as `go run` of one could. (A workspace's members are judged from inside them.)
 */
export function runsUnreadCrate(args: Array<string | undefined>, cwd: string | undefined, written: (path: string) => boolean = () => false): boolean {
  let at = 0;
  while (at < args.length && (args[at]?.startsWith("+") || args[at]?.startsWith("-"))) at++;
  const sub = args[at];
  if (sub === undefined) return at < args.length;
  if (!/^(build|b|check|c|test|t|run|r|bench|clippy|doc|d)$/.test(sub)) return false;
  const manifestAt = args.findIndex((arg) => arg === "--manifest-path" || arg?.startsWith("--manifest-path=") === true);
  const manifest = manifestAt === -1 ? undefined : args[manifestAt]?.startsWith("--manifest-path=") ? (args[manifestAt] as string).slice("--manifest-path=".length) : args[manifestAt + 1];
  if (manifestAt !== -1 && manifest === undefined) return true;
  if (cwd === undefined) return true;
  let root: string | undefined = manifest === undefined ? undefined : resolve(cwd, manifest, "..");
  for (let dir = cwd; root === undefined; dir = resolve(dir, "..")) {
    if (existsSync(resolve(dir, "Cargo.toml"))) root = dir;
    else if (resolve(dir, "..") === dir) return false; // no crate: cargo refuses
  }
  const candidates = [resolve(root, "build.rs"), ...sourcesIn(resolve(root, "src"), /\.rs$/), ...sourcesIn(resolve(root, "src", "bin"), /\.rs$/), ...sourcesIn(resolve(root, "tests"), /\.rs$/), ...sourcesIn(resolve(root, "examples"), /\.rs$/)];
  // One the command writes first (`cp x.rs build.rs && cargo build`) is one an agent wrote.
  if ([resolve(root, "build.rs"), resolve(root, "src", "main.rs"), resolve(root, "src", "lib.rs")].some((file) => written(file))) return true;
  return notTrackedByProject(candidates.filter((file) => existsSync(file))).length > 0;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function sourcesIn(directory: string, files: RegExp): string[] {
  try {
    return readdirSync(directory)
      .filter((entry) => files.test(entry))
      .map((entry) => resolve(directory, entry));
  } catch {
    return [];
  }
}

/**
 * Languages the hook does not read, given their program inline or on their input: the options
 * whose value is code (`Rscript -e`, `lua -e`, `julia -e`, `emacs --eval`), those whose value is a
 * file of it (`R -f`, `julia -L`, `emacs -l`/`--script`, `expect -f`: `files`, judged as a program
 * file is: codeFileRuns), the other options that take a value, and
 * whether, given no program file, it runs what its input gives: `always` (`tclsh <<<'…'`, `echo '…'
 * | lua`, `R < x.R`), only with `-` (`Rscript -`), or never.
 */
/**
 * Functions `emacs -f` calls in batch that write nothing of their own: test and lint runners (what
 * they run is what `-l` loaded, judged as a program file), `kill-emacs`; and the byte compilers,
 * whose `.elc` files the emacs rule names (shell-rules.ts). Any other function (`org-babel-tangle`,
 * `package-refresh-contents`, an export) could write any file.
 */
const EMACS_FUNCTIONS = /^(ert-run-tests-batch(-and-exit)?|buttercup-run(-discover)?|package-lint-batch-and-exit|elisp-lint-files-batch|checkdoc-file|kill-emacs|toggle-debug-on-error|batch-byte-compile|batch-byte-recompile-directory)$/;

const INLINE: Record<string, { code: string[]; functions?: { options: string[]; plain: RegExp }; files?: string[]; valued?: string[]; input: "always" | "dash" | "never"; plain?: RegExp }> = {
  Rscript: { code: ["-e"], valued: ["--default-packages"], input: "dash" },
  R: { code: ["-e"], files: ["-f", "--file"], valued: ["--encoding", "-d", "--debugger"], input: "always" },
  lua: { code: ["-e"], valued: ["-l"], input: "always" },
  luajit: { code: ["-e"], valued: ["-l", "-b", "-j", "-O"], input: "always" },
  tclsh: { code: [], valued: ["-encoding"], input: "always" },
  // expect, Tcl's, which spawns commands (`expect -c 'spawn rm f; expect eof'`).
  expect: { code: ["-c"], files: ["-f"], valued: ["-b"], input: "always" },
  wish: { code: [], valued: ["-encoding", "-display", "-geometry", "-name", "-visual", "-colormap", "-use"], input: "always" },
  julia: { code: ["-e", "--eval", "-E", "--print"], files: ["-L", "--load"], valued: ["-J", "--sysimage", "-t", "--threads", "-p", "--procs", "-C", "--cpu-target", "-O", "--machine-file", "-H", "--home"], input: "always" },
  emacs: { code: ["--eval", "-eval", "--execute", "-execute"], functions: { options: ["-f", "--funcall"], plain: EMACS_FUNCTIONS }, files: ["--script", "-script", "-scriptload", "--load", "-load", "-l"], valued: ["-t", "--terminal", "-d", "--display", "--dir", "--chdir", "-u", "--user", "--init-directory"], input: "never" },
  elixir: { code: ["-e", "--eval"], files: ["-r", "-pr"], valued: ["--erl", "--sname", "--name", "--cookie", "--logger-otp-reports", "--logger-sasl-reports"], input: "never" },
  groovy: { code: ["-e"], valued: ["-cp", "-classpath", "--classpath", "-D"], input: "never" },
  scala: { code: ["-e"], valued: ["-cp", "-classpath"], input: "never" },
  kotlin: { code: ["-e", "-expression"], valued: ["-cp", "-classpath"], input: "never" },
  kotlinc: { code: ["-e", "-expression"], valued: ["-cp", "-classpath", "-d", "-kotlin-home", "-jvm-target", "-module-name", "-language-version", "-api-version", "-jdk-home", "-opt-in", "-P"], input: "never" },
  racket: { code: ["-e", "--eval"], files: ["-f", "--load", "-r", "--require-script"], valued: ["-l", "--lib", "-t", "--require", "-S", "--search"], input: "never" },
  guile: { code: ["-c"], files: ["-l"], valued: ["-L", "-C", "-e", "--listen"], input: "dash" },
  sbcl: { code: ["--eval"], files: ["--load", "--script"], valued: ["--core", "--dynamic-space-size", "--control-stack-size"], input: "always" },
  jshell: { code: [], valued: ["--class-path", "--module-path", "--add-modules", "--startup", "-R", "-J"], input: "always" },
  ocaml: { code: [], valued: ["-I", "-init", "-open", "-ppx"], input: "always" },
  swift: { code: ["-e"], valued: ["-I", "-L", "-l", "-module-name", "-sdk", "-target"], input: "dash" },
  // Erlang's shell (`erl -noshell -eval 'file:write_file(…)' -s init stop`: -s and -run call a module's function).
  erl: { code: ["-eval", "-s", "-run"], valued: ["-sname", "-name", "-setcookie", "-boot", "-config", "-mode", "-args_file", "-pa", "-pz"], input: "always" },
  // macOS's AppleScript (`do shell script "…"`); a notification, dialog or `say` of plain strings alone reads.
  osascript: { code: ["-e"], valued: ["-l", "-s"], input: "always", plain: /^[ \t]*(display[ \t]+(notification|dialog|alert)|say|beep)([ \t]+("[^"\\\n]*"|\d+|[{},]|with|title|subtitle|sound|name|message|buttons|default|button|giving|up|after|icon|note|caution|stop|as|critical|informational|warning|using|voice))*[ \t]*$/i },
  raku: { code: ["-e"], valued: ["-I", "-M", "--target", "--encoding"], input: "always" },
  perl6: { code: ["-e"], valued: ["-I", "-M", "--target", "--encoding"], input: "always" },
  bb: { code: ["-e", "--eval"], files: ["-f", "--file"], valued: ["--classpath", "-cp", "--config", "--deps-root", "-m", "--main", "-x", "--exec"], input: "never" },
  clojure: { code: ["-e", "--eval"], files: ["-i", "--init"], valued: ["-Sdeps", "-Scp", "-Sthreads"], input: "never" },
  clj: { code: ["-e", "--eval"], files: ["-i", "--init"], valued: ["-Sdeps", "-Scp", "-Sthreads"], input: "never" },
  ghc: { code: ["-e"], valued: ["-o", "-i", "-package", "-outputdir"], input: "never" },
  ghci: { code: ["-e"], valued: ["-i", "-package"], input: "always" },
  octave: { code: ["--eval"], valued: ["-p", "--path", "--exec-path", "--image-path", "--info-file", "--info-program", "--doc-cache-file", "--texi-macros-file"], input: "always" },
  // gnuplot's `system("…")`, `!cmd`, and the file `set output` names.
  gnuplot: { code: ["-e"], valued: ["-c"], input: "always" },
  // dc's `!` runs the rest of its line; m4's syscmd and esyscmd run a command.
  dc: { code: ["-e", "--expression"], files: ["-f", "--file"], input: "always" },
  m4: { code: [], valued: ["-D", "--define", "-U", "--undefine", "-I", "--include", "-d", "--debugfile", "-o", "--error-output", "-l", "--arglength", "-t", "--trace", "-F", "--freeze-state", "-R", "--reload-state"], input: "always" },
  janet: { code: ["-e"], valued: ["-l", "-m"], input: "always" },
  fennel: { code: ["-e", "--eval"], valued: ["--add-package-path", "--add-fennel-path"], input: "never" },
  hy: { code: ["-c"], valued: ["-m"], input: "dash" },
  csi: { code: ["-e", "-eval", "-p", "-print", "-P", "-pretty-print"], files: ["-s", "-script", "-ss"], valued: ["-I", "-include-path"], input: "always" },
};

/** `lua5.4`: the language's own entry in INLINE. */
function inlineEntry(name: string): (typeof INLINE)[string] | undefined {
  const bare = basename(name);
  const unversioned = bare.replace(/[\d.]+$/, "");
  return Object.hasOwn(INLINE, bare) ? INLINE[bare] : unversioned !== "" && Object.hasOwn(INLINE, unversioned) ? INLINE[unversioned] : undefined;
}

/**
 * Whether a file of code an option loads (`emacs -l x.el`, `R -f x.R`) could write any file, as a
 * program file of runsUnreadProgram's: one the text does not fix, or a place it does not; one the
 * command writes first; one there that is not the project's own. A name that is no file there is
 * a library the language finds on its own path (`emacs -l ert`), or a file missing: the tool stops.
 */
function codeFileRuns(value: string | undefined, cwd: string | undefined, written: (path: string) => boolean): boolean {
  if (value === undefined || cwd === undefined) return true;
  const path = resolve(cwd, value);
  // (Written first by the line, the project's own file too: what runs is not what git has.)
  if (written(path)) return true;
  return existsSync(path) && notTrackedByProject([path]).length > 0;
}

/** Whether the word names one of the languages INLINE reads the options and input of. */
export function readsUnreadInline(name: string): boolean {
  return inlineEntry(name) !== undefined;
}

/** Code too plain to write anything: no string, substitution or bracket, and none of these names of what writes, runs, opens or loads. */
const MAY_WRITE = /write|remove|delete|unlink|save|sink|rename|copy|move|mkdir|system|exec|open|spawn|shell|eval|source|load|require|library|install|include|using|import|file|dir|setwd|touch|chmod|create|dump|truncate|link|download|socket|process|pipe|assign|parse|call|\b(io|os|cd|rm|cp|mv|sys\w*|run|cmd|put|out|env|get|do|pkg|Pkg)\b/i;

/** Whether code in one of these languages is plainly read-only: short, with none of MAY_WRITE, no quote, `$`, `\`, brackets or redirection. */
function plainCode(code: string): boolean {
  return code.length <= 200 && !/['"`$\\[\]{}<>|&;!@]/.test(code) && !MAY_WRITE.test(code);
}

/**
 * Whether this call of a language the hook does not read runs code the text gives inline or on its
 * input (`Rscript -e '…'`, `julia -e`, `emacs --batch --eval`, `tclsh <<<'…'`, `echo '…' | lua`)
 * that could write any file: all of it but plainly read-only code (`Rscript -e 'cat(1+1)'`). Code
 * the text does not fix, or input it does not give (a pipe from another command, a file), could too.
 * `input`: whether it is given input; `stdin`: that input's text where the text fixes it.
 */
export function runsUnreadInline(name: string, args: Array<string | undefined>, input: boolean, stdin: string | undefined, cwd: string | undefined, written: (path: string) => boolean): boolean {
  const entry = inlineEntry(name);
  if (entry === undefined) return false;
  const bare = basename(name);
  let program: string | undefined | null = null; // null: none given
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined) {
      if (program === null) program = undefined; // the program, or code, the text does not fix
      continue;
    }
    if (arg === "--" || arg === "--args") break;
    // (A whole option first: csi's `-ss` and `-script` are not `-s` with a value.)
    const whole = (option: string) => arg === option || (option.startsWith("--") && arg.startsWith(`${option}=`));
    const given = (option: string) => whole(option) || (!option.startsWith("--") && option.length === 2 && arg.startsWith(option) && !entry.valued?.includes(arg) && ![...(entry.files ?? []), ...entry.code].includes(arg));
    const file = entry.files?.find(whole) ?? entry.files?.find(given);
    if (file !== undefined) {
      if (codeFileRuns(arg === file ? args[++at] : arg.slice(file.length).replace(/^=/, ""), cwd, written)) return true;
      continue;
    }
    // A function it calls by name (`emacs -f f`): one the table knows (a test runner; a compiler,
    // whose outputs the command's rule names), else code the hook does not read.
    const calls = entry.functions?.options.find(whole) ?? entry.functions?.options.find(given);
    if (calls !== undefined && entry.functions !== undefined) {
      const value = arg === calls ? args[++at] : arg.slice(calls.length).replace(/^=/, "");
      if (value === undefined || !entry.functions.plain.test(value)) return true;
      continue;
    }
    const code = entry.code.find(whole) ?? entry.code.find(given);
    if (code !== undefined) {
      const value = arg === code ? args[++at] : arg.slice(code.length).replace(/^=/, "");
      if (value === undefined || !(plainCode(value) || entry.plain?.test(value) === true)) return true;
      continue;
    }
    if (entry.valued?.includes(arg)) {
      at++;
      continue;
    }
    if (arg.startsWith("-") && arg !== "-") continue;
    if (program === null) program = arg;
    if (bare === "R" && arg === "CMD") return args.slice(at + 1, at + 2).some((word) => word === undefined || /^(BATCH|Rscript)$/.test(word)); // `R CMD BATCH x.R`: a program
  }
  // Its program from its input: a heredoc's or here-string's text, else what the text does not give.
  const fromInput = entry.input === "always" ? program === null || program === "-" : entry.input === "dash" && program === "-";
  if (!fromInput || !input) return false;
  return stdin === undefined || !(plainCode(stdin.trim()) || entry.plain?.test(stdin.trim()) === true);
}
