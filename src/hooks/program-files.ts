// Programs in other languages run from a file (`python3 fix.py`, `node gen.js`, `./fix.py` with a
// python shebang) are read as an inline program is (shell-programs.ts) when the file is one an
// agent may just have written: git does not track it, or its text differs from what git has;
// outside a repository, one changed in the last day. One the command itself writes first from text
// it gives (`cat > /tmp/fix.py <<'EOF' … EOF; python3 /tmp/fix.py`) is the walk's to judge
// (shell-program-runs.ts). A file the project keeps as git has it (a build script, an ignored build
// output) or an installed package's is not read: the inline rules would judge most build scripts
// as writing anything, and an agent does not write them. This file is loaded by the look before
// the parser (shell.ts) as well as by the walk, so it imports nothing of the walk's.
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, readSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";

/**
 * A program longer than this, or with a line longer than LINE_LIMIT (minified code, data), is not
 * read: what it writes is judged unknown. The strings of a line are found by patterns whose cost
 * grows with the square of the line's length on hostile text (quotes left open); these keep a
 * program's reading under about a second. They hold for a program given inline (`python3 - <<EOF`,
 * `node -e '…'`) as for one in a file (shell-programs.ts): a reading that outlasts the agent's hook
 * timeout lets the command run unjudged.
 */
const PROGRAM_LIMIT = 256 * 1024;
const LINE_LIMIT = 2000;

/** Whether a program's text is past what the hook reads (PROGRAM_LIMIT, LINE_LIMIT): it could write any file. */
export function pastReading(text: string): boolean {
  return text.length > PROGRAM_LIMIT || text.split("\n").some((line) => line.length > LINE_LIMIT);
}

/** Opened without blocking: a FIFO (which would wait for a writer) is seen for what it is. */
const READ_NONBLOCKING = constants.O_RDONLY | constants.O_NONBLOCK;

/** Outside a repository, a file changed this recently may be one an agent wrote. */
const RECENT_MS = 24 * 60 * 60 * 1000;

/**
 * A program file on disk (an absolute path): its text when it is to be read; undefined when not
 * (none there, not a regular file, a binary, one the project keeps); "unreadable" when it is to be
 * read but cannot be (a FIFO, over PROGRAM_LIMIT or LINE_LIMIT, an error), so it could write any
 * file. One the command itself writes first is the walk's to judge (programText in
 * shell-program-runs.ts).
 */
export function programOnDisk(path: string): { text: string } | "unreadable" | undefined {
  let fd: number;
  try {
    fd = openSync(path, READ_NONBLOCKING);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" ? undefined : "unreadable";
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isFIFO()) return "unreadable";
    // A kernel's file can say it is a regular one and block a read all the same (/proc/kmsg).
    if (!stats.isFile() || /^\/(proc|sys)\//.test(realpathSync(path))) return undefined;
    const head = Buffer.alloc(Math.min(4096, stats.size));
    readSync(fd, head, 0, head.length, 0);
    if (head.includes(0)) return undefined; // a binary (a .pyc, a compiled program)
    if (keptByProject(path, stats.mtimeMs)) return undefined;
    if (stats.size > PROGRAM_LIMIT) return "unreadable";
    const text = readFileSync(fd, "utf8");
    return pastReading(text) ? "unreadable" : { text };
  } catch {
    return "unreadable";
  } finally {
    closeSync(fd);
  }
}

/** The interpreter of a program file by its extension (`uv run fix.py`: python3). */
const INTERPRETER_OF_EXTENSION: Record<string, string> = { py: "python3", js: "node", mjs: "node", cjs: "node", ts: "tsx", mts: "tsx", cts: "tsx", rb: "ruby", pl: "perl", php: "php" };

/** The interpreter of a program file by its extension, if it is one (`fix.py`: python3). */
export function interpreterByExtension(path: string): string | undefined {
  const extension = /\.(\w+)$/.exec(path)?.[1] ?? "";
  return Object.hasOwn(INTERPRETER_OF_EXTENSION, extension) ? INTERPRETER_OF_EXTENSION[extension] : undefined;
}

/** What node (and tsx, bun) try after a name it is given without its extension. */
const NODE_EXTENSIONS = ["js", "mjs", "cjs", "ts", "mts", "cts"];

/**
 * The file a program path names as its interpreter finds it: the file itself; for node and the
 * runtimes like it, the name with an extension added (`node gen`: gen.js), a directory's
 * package.json `main` or index file (`node .`); for python, a directory's `__main__.py`.
 * Undefined: none there.
 */
export function resolveProgram(path: string, family: "node" | "python" | "other"): string | undefined {
  const kind = kindOf(path);
  if (kind === "file") return path;
  if (family === "python") return kind === "directory" && kindOf(join(path, "__main__.py")) === "file" ? join(path, "__main__.py") : undefined;
  if (family !== "node") return undefined;
  if (kind === "directory") {
    const main = packageMain(path);
    const inside = [...(main === undefined ? [] : [resolve(path, main), ...NODE_EXTENSIONS.map((extension) => `${resolve(path, main)}.${extension}`)]), ...NODE_EXTENSIONS.map((extension) => join(path, `index.${extension}`))];
    return inside.find((candidate) => kindOf(candidate) === "file");
  }
  return NODE_EXTENSIONS.map((extension) => `${path}.${extension}`).find((candidate) => kindOf(candidate) === "file");
}

/**
 * Every file a word after such a command could name, for the look before the parser loads
 * (shell.ts): as node or python would find it, or as a python module (`-m a.b`: a/b.py).
 */
export function programCandidates(word: string, cwd: string): string[] {
  const path = resolve(cwd, word);
  const found = [path, resolveProgram(path, "node"), resolveProgram(path, "python"), ...(/^\w+(\.\w+)*$/.test(word) ? [resolve(cwd, ...word.split(".")) + ".py", join(resolve(cwd, ...word.split(".")), "__main__.py")] : [])];
  return [...new Set(found.filter((candidate): candidate is string => candidate !== undefined))];
}

function kindOf(path: string): "file" | "directory" | "other" | undefined {
  try {
    const stats = statSync(path);
    return stats.isFile() ? "file" : stats.isDirectory() ? "directory" : "other";
  } catch {
    return undefined;
  }
}

/** A package's `main`, where its package.json gives one. */
function packageMain(directory: string): string | undefined {
  try {
    const main = (JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { main?: unknown }).main;
    return typeof main === "string" ? main : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the project keeps the file as it is: git tracks it with the same text in the index and
 * in HEAD (no change, staged or not), or ignores it (a build's output); an installed package's file
 * (under node_modules, site-packages, dist-packages); outside a work tree, one last changed over a
 * day ago. Where git cannot say (not installed, a broken repository, a file too large to compare),
 * it may be an agent's. A symlink is kept when what it leads to is.
 */
function keptByProject(path: string, mtimeMs: number): boolean {
  const real = realpathSync(path);
  if (INSTALLED.test(real)) return true;
  if (real !== path) return keptByProject(real, mtimeMs); // a link: what it leads to is the program
  if (!insideWorkTree(dirname(path))) return Date.now() - mtimeMs > RECENT_MS;
  const known = KEPT_SEEN.get(path);
  if (known !== undefined) return known;
  const kept = keptInIndex(path);
  KEPT_SEEN.set(path, kept);
  return kept;
}

/** keptByProject for a file in a work tree: git has it with the same text in the index and in HEAD, or ignores it. */
function keptInIndex(path: string): boolean {
  // Plumbing only, with the pathspec read literally (`:x.py` is a file) and fsmonitor off: `git
  // status` would run the repository's core.fsmonitor and its clean filters, code a command the
  // user has not approved yet could plant. The file's text is hashed here, with no filter.
  const { spawnSync } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
  const environment = gitEnvironment();
  const git = (...args: string[]) =>
    spawnSync("git", ["--literal-pathspecs", "-c", "core.fsmonitor=false", ...args, "--", basename(path)], { cwd: dirname(path), env: { ...environment, GIT_OPTIONAL_LOCKS: "0" }, encoding: "utf8", timeout: 5000 });
  const staged = git("ls-files", "-z", "--stage");
  if (staged.status !== 0 || staged.error) return false;
  if (staged.stdout === "") {
    const ignored = git("ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory");
    return ignored.status === 0 && ignored.stdout !== "";
  }
  const indexed = /^\d+ ([0-9a-f]{40}|[0-9a-f]{64}) 0\t/.exec(staged.stdout)?.[1];
  const committed = /^\d+ blob ([0-9a-f]{40}|[0-9a-f]{64})\t/.exec(git("ls-tree", "-z", "HEAD").stdout)?.[1];
  if (indexed === undefined || indexed !== committed) return false; // added, staged, in conflict
  return blobId(path, indexed.length === 64 ? "sha256" : "sha1") === indexed;
}

/**
 * Of these files, those that are not the project's own programs, changed since or not: git has
 * neither in its index nor ignores them, and they are not an installed package's; outside a work
 * tree, those changed in the last day. A program the project keeps is worked on and run by its
 * developers (`go run .` after an edit); a new file beside it is a helper an agent may just have
 * written (shell-unread-programs.ts). Asked of git once per directory (a package's files together).
 */
export function notTrackedByProject(paths: string[]): string[] {
  const byDirectory = new Map<string, string[]>();
  const found: string[] = [];
  for (const path of paths) {
    let real: string;
    let mtimeMs: number;
    try {
      real = realpathSync(path);
      mtimeMs = statSync(real).mtimeMs;
    } catch {
      found.push(path);
      continue;
    }
    if (INSTALLED.test(real)) continue;
    const known = TRACKED_SEEN.get(real);
    if (known !== undefined) {
      if (!known) found.push(path);
      continue;
    }
    if (!insideWorkTree(dirname(real))) {
      if (Date.now() - mtimeMs <= RECENT_MS) found.push(path);
      continue;
    }
    (byDirectory.get(dirname(real)) ?? byDirectory.set(dirname(real), []).get(dirname(real)))?.push(basename(real));
  }
  const { spawnSync } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
  const environment = gitEnvironment();
  for (const [directory, names] of byDirectory) {
    const git = (...args: string[]) =>
      spawnSync("git", ["--literal-pathspecs", "-c", "core.fsmonitor=false", "ls-files", "-z", ...args, "--", ...names], { cwd: directory, env: { ...environment, GIT_OPTIONAL_LOCKS: "0" }, encoding: "utf8", timeout: 5000 });
    const listed = (result: ReturnType<typeof git>) => (result.error || result.status !== 0 ? undefined : new Set(result.stdout.split("\0").filter((name) => name !== "")));
    const cached = listed(git("--cached"));
    const ignored = listed(git("--others", "--ignored", "--exclude-standard"));
    for (const name of names) {
      const own = cached !== undefined && (cached.has(name) || ignored?.has(name) === true);
      if (cached !== undefined) TRACKED_SEEN.set(join(directory, name), own);
      if (!own) found.push(join(directory, name));
    }
  }
  return found;
}

/**
 * What git answered of each file (by its real path) since the command being read was given: a
 * line that runs one program many times (a loop, a function called again) asks git once. What git
 * could not answer is asked again.
 */
const TRACKED_SEEN = new Map<string, boolean>();
/** What keptByProject learned from git of each file in a work tree, the same way. */
const KEPT_SEEN = new Map<string, boolean>();

/** A new command is read: what git answered for the last one may have changed since (shell.ts). */
export function forgetTracked(): void {
  TRACKED_SEEN.clear();
  KEPT_SEEN.clear();
}

/** The environment git runs in: the hook's own GIT_DIR or GIT_INDEX_FILE would point it at another repository. */
function gitEnvironment(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR|NAMESPACE|CEILING_DIRECTORIES|CONFIG_PARAMETERS|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+)$/.test(key)));
}

/** Where installed packages live: their files are no agent's. */
const INSTALLED = /\/(node_modules|site-packages|dist-packages)\//;

/** Files larger than this are not hashed to compare with git's: taken as changed. */
const HASHED_LIMIT = 16 * 1024 * 1024;

/** git's id of a file's text as a blob (`git hash-object --no-filters`). */
function blobId(path: string, algorithm: "sha1" | "sha256"): string | undefined {
  try {
    const bytes = readFileSync(path);
    if (bytes.length > HASHED_LIMIT) return undefined;
    const { createHash } = createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
    return createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
  } catch {
    return undefined;
  }
}

/** Whether a directory is inside a git work tree: a `.git` in it or above it. */
function insideWorkTree(directory: string): boolean {
  for (let at = directory; ; at = dirname(at)) {
    if (existsSync(join(at, ".git"))) return true;
    if (dirname(at) === at) return false;
  }
}

/**
 * Programs installed under a name of their version or build as well as their own, read as that
 * program: `perl5.36.0`, `ruby3.1`, `php8.2`, `vim.basic` (`.tiny`, `.nox`, `.gtk3`), vim run as
 * `view`, `rview` or `rvim`, Debian's `editor` (vim where it is installed; any editor given a file
 * writes it), util-linux's `rename.ul`. (python's and pypy's versions are read as python where
 * their rules are.)
 */
const PROGRAM_ALIASES: Array<[RegExp, string]> = [
  [/^perl5(\.\d+)*$/, "perl"],
  [/^ruby\d+(\.\d+)*$/, "ruby"],
  [/^php\d+(\.\d+)*$/, "php"],
  [/^vim\.(basic|tiny|nox|gtk|gtk3|athena|motif)$|^(r?view|rvim|editor|sensible-editor)$/, "vim"],
  [/^rename\.ul$/, "rename"],
];

/** The program a command name is read as (PROGRAM_ALIASES), else the name itself. */
export function programAlias(name: string): string {
  for (const [pattern, program] of PROGRAM_ALIASES) if (pattern.test(name)) return program;
  return name;
}

/** A command line with each alias in a command's place written as its program, for the gate's patterns (`perl5.36.0 -pi …` as `perl -pi …`). */
export function withProgramAliases(command: string): string {
  // In a command's place: a line's start, after `;`, `&`, `|`, `(`, a backquote, or a wrapper
  // (`sudo`, `env`, `xargs`…) and its options, the name alone or after a directory.
  return command.replace(/((?:^|[;&|(`\n])\s*(?:(?:sudo|env|nice|nohup|time|command|exec|xargs|doas)\s+(?:-\S+\s+)*)*(?:\/\S*\/)?)(perl5(?:\.\d+)*|ruby\d+(?:\.\d+)*|php\d+(?:\.\d+)*|vim\.(?:basic|tiny|nox|gtk3?|athena|motif)|r?view|rvim|editor|sensible-editor|rename\.ul)(?=[\s;&|)`]|$)/g, (_, before: string, name: string) => `${before}${programAlias(name)}`);
}

/** The program a `#!` line runs: `#!/bin/sh` sh, `#!/usr/bin/env -S bash -e` bash. */
export function shebangProgram(line: string): string {
  const words = line.slice(2).trim().split(/\s+/);
  const program = basename(words[0] ?? "");
  if (program !== "env") return program;
  return basename(words.slice(1).find((word) => !word.startsWith("-") && !word.includes("=")) ?? "");
}

/** The interpreter a file's `#!` line names (`#!/usr/bin/env -S python3 -u`: python3), for a file run by its path. */
export function shebangOf(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, READ_NONBLOCKING);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const head = Buffer.alloc(256);
    const line = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString("utf8").split("\n", 1)[0] ?? "";
    return line.startsWith("#!") ? shebangProgram(line) || undefined : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
