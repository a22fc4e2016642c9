// Programs in languages the hook does not read (Java, Go, Lua, Tcl, R, Julia, …), run from their
// source. The hook reads a python, node, ruby, perl or php program an agent may just have written
// for the files it names (shell-program-runs.ts); one in another language it cannot read could
// write any file, so it is judged as writing anything. One the project keeps as git has it is not
// (program-files.ts keptByProject): a build script is run, not written, by an agent.
import { readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { programOnDisk } from "./program-files.js";

/** Each runner: the names of its program files, and the subcommand that runs one, where it needs one (`go run`). */
const RUNNERS: Record<string, { files: RegExp; sub?: RegExp }> = {
  java: { files: /\.java$/ }, // source-file mode: `java Fix.java`
  jshell: { files: /\.(java|jsh)$/ },
  go: { files: /\.go$/, sub: /^run$/ },
  lua: { files: /\.lua$/ },
  luajit: { files: /\.lua$/ },
  tclsh: { files: /\.tcl$/ },
  wish: { files: /\.tcl$/ },
  Rscript: { files: /\.[Rr]$/ },
  julia: { files: /\.jl$/ },
  swift: { files: /\.swift$/ },
  kotlin: { files: /\.kts$/ },
  kotlinc: { files: /\.kts$/ },
  groovy: { files: /\.groovy$/ },
  scala: { files: /\.(scala|sc)$/ },
  "scala-cli": { files: /\.(scala|sc)$/ },
  elixir: { files: /\.exs?$/ },
  runghc: { files: /\.l?hs$/ },
  runhaskell: { files: /\.l?hs$/ },
  ocaml: { files: /\.ml$/ },
  guile: { files: /\.scm$/ },
  racket: { files: /\.rkt$/ },
  sbcl: { files: /\.(lisp|cl)$/ },
  dart: { files: /\.dart$/ },
  crystal: { files: /\.cr$/ },
  zig: { files: /\.zig$/, sub: /^run$/ },
};

/** `lua5.4`: the runner's own name. */
const runnerOf = (name: string) => {
  const bare = basename(name);
  const unversioned = bare.replace(/[\d.]+$/, "");
  return Object.hasOwn(RUNNERS, bare) ? RUNNERS[bare] : unversioned !== "" && Object.hasOwn(RUNNERS, unversioned) ? RUNNERS[unversioned] : undefined;
};

/** Whether the word names one of these runners. */
export function isUnreadRunner(name: string): boolean {
  return runnerOf(name) !== undefined;
}

/**
 * Whether this call of a runner runs a program file an agent may have written (programOnDisk: not
 * as git has it, or unreadable): its operands of the language's names, and for `go run` the `.go`
 * files of each package directory it is given (of this one, given none). A word the text does not
 * fix (`lua "$f"`) could be any such file.
 */
export function runsUnreadProgram(name: string, args: Array<string | undefined>, cwd: string | undefined): boolean {
  const runner = runnerOf(name);
  if (runner === undefined) return false;
  let words = args;
  if (runner.sub !== undefined) {
    const at = words.findIndex((word) => word === undefined || !word.startsWith("-"));
    if (at === -1 || words[at] === undefined || !runner.sub.test(words[at] as string)) return false;
    words = words.slice(at + 1);
  }
  if (cwd === undefined) return words.some((word) => word === undefined || runner.files.test(word));
  const files: string[] = [];
  let packages = 0;
  for (const word of words) {
    if (word === undefined) return true;
    if (word.startsWith("-") || word === "--") continue;
    if (runner.files.test(word)) files.push(resolve(cwd, word));
    else if (runner === RUNNERS.go && isDirectory(resolve(cwd, word))) {
      packages++;
      files.push(...sourcesIn(resolve(cwd, word), runner.files));
    }
  }
  if (runner === RUNNERS.go && files.length === 0 && packages === 0) files.push(...sourcesIn(cwd, runner.files)); // `go run` alone: the package here
  return files.some((file) => programOnDisk(file) !== undefined);
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
      .map((entry) => join(directory, entry));
  } catch {
    return [];
  }
}
