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
  crystal: { files: /\.cr$/, subOrFile: /^run$/ },
  zig: { files: /\.zig$/, sub: /^run$/ },
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
export function runsUnreadProgram(name: string, args: Array<string | undefined>, cwd: string | undefined): boolean {
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
  return files.some((file) => !existsSync(file)) || notTrackedByProject(files).length > 0;
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
