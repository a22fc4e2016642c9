// Writes through another MCP server's tools. Both clients name such a tool mcp__<server>__<tool>
// (Claude Code, `mcp__plugin_<plugin>_<server>__<tool>` for a plugin's), and a session can write
// as well through one as through its own editor: a filesystem server's write_file, edit_file or
// move_file, a code server's replace_symbol_body or create_text_file, an IDE's
// replace_text_in_file, a shell server's start_process or execute_command. No schema says which
// tool writes, so the hook reads the tool's name and its arguments:
// - a tool whose name says it changes something (WRITING_WORDS: write, edit, create, move, delete,
//   replace, insert, patch, ...) writes each path its arguments name under a key that names a
//   file (PATH_KEY: path, file_path, relative_path, pathInProject, source, destination, paths, a
//   `file://` URI too; a file's name as a key there, `files: { "src/u.ts": "…" }`), relative ones
//   from the project, repository or working directory the call
//   names (BASE_KEY: projectPath, repo_path, cwd, ...; written itself only where the call names
//   nothing else), else from where the session works; a git tool that changes the working tree
//   (git_checkout, git_pull, git_merge, ...) writes the whole repository, as `git checkout` does in
//   the shell; a tool given a remote repository (`owner` and `repo`, GitLab's `project_id`) writes
//   there, not here; a patch text it is given (`apply_patch { patch }`: Codex's format or a unified
//   diff) writes the files it names; a rename of a symbol or a refactoring (serena's rename_symbol,
//   JetBrains' rename_refactoring) any file of the project, which may refer to it;
// - a tool that runs a command (RUNNING_WORDS: execute, run, start, shell, terminal, ...) given one
//   as `command`, `cmd` or `command_line` (or as an `argv` array, or a `command` with its `args`)
//   writes what that command writes, read as a Bash call is, from its `cwd` (or `workdir`,
//   `directory`, ...) where it names one; the command's later input (a process it
//   starts may be given more through another tool) is read as typed at a terminal: any file;
// - a tool that types into a process or terminal already running (interact_with_process { pid,
//   input }, send_keys { keys }, write_to_terminal { text }) writes what its text does, read as a
//   Bash call from where the call says, else from a place unknown; text bash would not read (a
//   REPL's line), any file (hook.ts).
// A tool that names neither (read_file, search, create_issue on a remote service) is not judged:
// what it changes, if anything, is not a file the hook can name.
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { diffPaths } from "./diff-paths.js";
import { GLOB_MARK, patchPaths } from "./payload.js";
import { repositoryRootOf } from "../targets/broad-target.js";
import { shellQuote } from "../os/shell-quote.js";

/** What a tool call writes: paths (absolute) and a shell command with where it runs. */
export interface McpWrites {
  paths: string[];
  /** Those of the paths judged but not claimed: a diff's names read with their `a/` or `b/` kept. */
  checkOnly?: string[];
  /**
   * `cwd` undefined: a place unknown (a terminal's or a process's, which the call does not say);
   * `typed`: typed into a process already running, which may not be a shell.
   */
  command?: { text: string; cwd: string | undefined; typed?: boolean };
}

/** Words in a tool's name that say it changes what it names. */
const WRITING_WORDS = new Set([
  "write", "writes", "edit", "edits", "create", "move", "rename", "delete", "remove", "rm", "mv", "cp", "replace", "insert",
  "patch", "apply", "update", "save", "append", "prepend", "mkdir", "copy", "overwrite", "modify", "truncate", "unlink",
  "touch", "restore", "revert", "undo", "format", "reformat", "rewrite", "refactor", "generate", "download", "extract", "unzip",
  // A browser's screenshot or page snapshot, saved where its `filename` or `path` says (Playwright's browser_take_screenshot).
  "screenshot", "screenshots", "snapshot",
  // A file's copy or link (MOVING_WORDS).
  "duplicate", "clone", "symlink",
]);

/** What a git tool (git_checkout, gitPull) does that rewrites the working tree; `reset` only where it is asked to be hard. */
const TREE_VERBS = new Set(["checkout", "switch", "pull", "merge", "rebase", "cherry", "revert", "restore", "stash", "clean", "apply", "am", "reset"]);

/** Words in a tool's name that say it runs a command. */
const RUNNING_WORDS = new Set(["execute", "exec", "run", "start", "shell", "terminal", "bash", "sh", "command", "cmd", "process", "spawn", "launch", "interact", "send"]);

/** Words in a tool's name that say it types into something already running, and what that is (`send_keys`, `write_to_terminal`, `interact_with_process`). */
const TYPING_WORDS = new Set(["send", "write", "type", "input", "interact", "enter", "paste", "press", "execute", "exec", "run"]);
const TYPED_INTO_WORDS = new Set(["process", "terminal", "pane", "tty", "pty", "stdin", "keys", "console", "repl", "tmux"]);

/** Keys (compared as PATH_KEY's) that name a process or terminal already running, which a tool running a command types it into (tmux's `execute_command { paneId }`). */
const RUNNING_KEY = /^(pid|processid|pane|paneid|terminal|terminalid|tty|window|windowid)$/;

/** Keys whose text a tool types into a process or terminal (`input`, `keys`, `text`), where no `command` is given. */
const TYPED_KEYS = ["input", "keys", "text", "data", "chars", "characters", "line", "lines", "stdin", "keystrokes", "content"];

/** Key names a terminal reads as the end of a line (tmux's send-keys `Enter`, `C-m`). */
const ENTER = /^(enter|c-m|c-j|kpenter|return|\\n|\\r)$/i;

/** Argument keys that name a file or directory (compared lowercased, without `_` or `-`). */
const PATH_KEY = /(path|paths|file|files|filename|filenames|dir|dirs|directory|directories|folder|source|sources|src|destination|destinations|dest|target|targets|uri|uris|location|output|out)$/;

/**
 * Keys (compared as PATH_KEY's) that give where a tool works, not what it writes: JetBrains' `projectPath` (on
 * every one of its tools), the git server's `repo_path`, a working directory. Relative paths are from there.
 */
const BASE_KEY = /^((project|repo|repository|workspace|root|working|work)(path|dir|directory|folder|root)|cwd)$/;

/** Keys that PATH_KEY would read as a file but that name none: serena's symbol `name_path`, a file's key, id, hash or content. */
const NOT_PATH_KEY = /^(namepath|file(key|id|ids|hash|content|contents|text|type|size|mode|encoding|format|data|body))$/;

/** Words in a tool's name that say it moves, renames or copies a file. */
const MOVING_WORDS = new Set(["move", "rename", "mv", "copy", "cp", "duplicate", "clone", "symlink"]);

/** Keys (compared as PATH_KEY's) of such a tool that name a file its other keys do not: `new_name`, `from`, `to`, `dst`. */
const MOVED_KEY = /^(from|to|dst|(new|old)(file)?name)$/;

/** Keys (compared as PATH_KEY's) whose text is a patch: apply_patch { patch }, apply_diff { diff }, { patch_text }. */
const PATCH_KEY = /(patch|patches|diff|diffs)(text|content)?$/;

/** A patch's first line: Codex's `*** Begin Patch`, or a unified diff's `--- `, `+++ ` or `diff --git`. */
const PATCH_MARK = /^(\s*\*\*\* Begin Patch|(---|\+\+\+) \S|diff --git )/m;

/**
 * Keys (compared as PATH_KEY's) that name a symbol or a place in a file, not a file: serena's
 * `name_path`, JetBrains' `symbolName`, a language server's `line` and `character`.
 */
const SYMBOL_KEY = /symbol|^(namepath|line|column|col|character|position|offset|row)$/;

/**
 * Whether a writing tool changes the references to a symbol, in files it does not name: a
 * refactoring (JetBrains' `rename_refactoring`), a rename given a symbol or a place in a file
 * (serena's `rename_symbol { name_path }`, a language server's `rename { line, character }`), not a
 * file's (`rename_file { path, new_name }`).
 */
function changesReferences(named: string[], record: Record<string, unknown>): boolean {
  if (named.some((word) => word === "refactor" || word === "refactoring" || word === "refactorings")) return true;
  return named.includes("rename") && (named.includes("symbol") || Object.keys(record).some((key) => SYMBOL_KEY.test(plainKey(key))));
}

/** How deep into an argument's objects and arrays paths are looked for (`edits: [{ path }]`). */
const DEPTH = 4;

/** An MCP tool's name, split: undefined for any other tool. */
function mcpTool(toolName: string): string | undefined {
  const match = /^mcp__.+?__(.+)$/.exec(toolName);
  return match?.[1];
}

/** The words of a tool's name: `replace_symbol_body`, `createNewFile`, `edit-block` alike. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

/** Whether a key names a file: `path`, `file_path`, `relativePath`, `pathInProject`, `source`, `destination`. */
function namesFile(key: string): boolean {
  const plain = plainKey(key);
  return !NOT_PATH_KEY.test(plain) && (PATH_KEY.test(plain) || plain.startsWith("path") || plain.startsWith("file"));
}

/** A key as PATH_KEY and BASE_KEY compare it: lowercased, without `_` or `-`. */
function plainKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, "");
}

/** A path as written in an argument, absolute: a `file://` URI as its path, `~/` from HOME, a relative one from `cwd`. */
function absolute(value: string, cwd: string, home: string | undefined): string | undefined {
  if (value === "" || value.length > 4096 || /[\0\n]/.test(value)) return undefined;
  if (/^file:/i.test(value)) {
    try {
      return fileURLToPath(value);
    } catch {
      return undefined;
    }
  }
  if (/^[a-z][\w+.-]*:\/\//i.test(value)) return undefined; // another scheme: not a file here
  if ((value === "~" || value.startsWith("~/")) && home) return resolve(home, value.slice(2));
  return isAbsolute(value) ? resolve(value) : resolve(cwd, value);
}

/** The paths an argument holds under keys that name files, at any depth up to DEPTH. */
function pathsIn(value: unknown, cwd: string, home: string | undefined, named: boolean, depth: number, found: string[]): void {
  if (depth > DEPTH) return;
  if (typeof value === "string") {
    const path = named ? absolute(value, cwd, home) : undefined;
    if (path !== undefined) found.push(path);
  } else if (Array.isArray(value)) {
    for (const item of value) pathsIn(item, cwd, home, named, depth + 1, found);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      // A file's name as a key, its text the value: write_files { files: { "src/u.ts": "…" } }, a
      // workspace edit's { changes: { "file:///…/u.ts": [ … ] } }.
      const path = (named && namesFileAsKey(key)) || /^file:/i.test(key) ? absolute(key, cwd, home) : undefined;
      if (path !== undefined) found.push(path);
      pathsIn(item, cwd, home, path === undefined && namesFile(key), depth + 1, found);
    }
  }
}

/** Whether a key of an object under a key that names files is a file's name, not an argument's (`content`, `old_text`, `file-mode`). */
const namesFileAsKey = (key: string) => !/^[a-z][a-zA-Z0-9_]*$|^[a-z][a-z0-9]*(-[a-z0-9]+)+$/.test(key);

/**
 * The patch texts an argument holds: each text under a key that names a patch, and where the tool's
 * name says it patches (`apply_patch { input }`), each text that reads as one, under any key that
 * does not name a file.
 */
function patchesIn(value: unknown, patching: boolean, named: boolean, depth: number, found: string[]): void {
  if (depth > DEPTH) return;
  if (typeof value === "string") {
    if (named || (patching && PATCH_MARK.test(value))) found.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) patchesIn(item, patching, named, depth + 1, found);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) if (!namesFile(key)) patchesIn(item, patching, PATCH_KEY.test(plainKey(key)), depth + 1, found);
  }
}

/**
 * The files a patch text names, as written in it: Codex's headers (`*** Update File: u.ts`, `***
 * Move to:`), a unified diff's `---` and `+++` names (not /dev/null) and `diff --git` ones. A name
 * with git's `a/` or `b/` is read without it (as git apply and the tools applying git's diffs strip
 * it) and with it (as `patch -p0`), the second judged only (`maybe`).
 */
function patchedFiles(text: string, maybe: Set<string>): string[] {
  // In Codex's, a removed line `-- x` reads `--- x`: not a name.
  if (/^\s*\*\*\* Begin Patch/m.test(text)) return patchPaths(text);
  const named = diffPaths(text, 0);
  for (const path of named) if (/^[ab]\//.test(path)) maybe.add(path);
  return [...new Set([...patchPaths(text), ...named, ...named.map((path) => path.replace(/^[ab]\//, ""))])];
}

/** Words as the shell would need them typed to be read back as they are. */
const quoted = (parts: string[]) => parts.map(shellQuote).join(" ");

const isWords = (value: unknown): value is string[] => Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === "string");

/**
 * The command a tool runs, as one text: a string (`command`, `cmd`, `command_line`), an argument
 * array's words quoted (`command`, `argv`), a program with its `args` (`{ command: "rm", args: ["u.ts"] }`).
 */
function commandOf(input: Record<string, unknown>): string | undefined {
  const value = input.command ?? input.cmd ?? input.command_line ?? input.commandLine ?? input.argv;
  const args = isWords(input.args) ? ` ${quoted(input.args)}` : "";
  if (typeof value === "string") return value + args;
  if (isWords(value)) return quoted(value) + args;
  return undefined;
}

/** The text a tool types into a process or terminal: a `command`, else a string (or keys, one a word) under TYPED_KEYS. */
function typedText(input: Record<string, unknown>): string | undefined {
  const command = commandOf(input);
  if (command !== undefined) return command;
  for (const key of TYPED_KEYS) {
    const value = input[key];
    if (typeof value === "string") return value;
    if (isWords(value)) return value.map((word) => (ENTER.test(word) ? "\n" : word)).join(" ");
  }
  return undefined;
}

/** Whether an argument asks a git reset to rewrite the tree (`mode: "hard"`, `hard: true`), not only the index. */
function resetsTree(input: Record<string, unknown>): boolean {
  return Object.entries(input).some(([key, value]) => (key === "hard" && value === true) || (typeof value === "string" && /^--?(hard|keep|merge)$|^(hard|keep|merge)$/.test(value)));
}

/**
 * What a call of another MCP server's tool writes (undefined: not an MCP tool, or one that names
 * nothing it writes). `cwd`: where the session works, which relative paths are read from.
 */
export function mcpToolWrites(toolName: string, input: unknown, cwd: string, home: string | undefined): McpWrites | undefined {
  const name = mcpTool(toolName);
  if (name === undefined || typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  const record = input as Record<string, unknown>;
  // A remote repository's file (GitHub's create_or_update_file, path "src/u.ts") is not this one.
  if ((typeof record.owner === "string" && typeof record.repo === "string") || record.project_id !== undefined) return undefined;
  const named = words(name);
  // Where the call works (projectPath, repo_path, cwd): the base of its relative paths, not a path it writes.
  const baseKey = Object.keys(record).find((key) => BASE_KEY.test(plainKey(key)) && typeof record[key] === "string" && record[key] !== "");
  const base = baseKey === undefined ? undefined : absolute(record[baseKey] as string, cwd, home);
  const from = base ?? cwd;
  // Text typed into a process or terminal already running (interact_with_process { pid, input },
  // send_keys { keys }, write_to_terminal { text }, tmux's execute_command { paneId, command }): a
  // shell line, or input to a program that is no shell, in a place the call does not say.
  const typed =
    (named.some((word) => TYPING_WORDS.has(word)) && named.some((word) => TYPED_INTO_WORDS.has(word))) ||
    (named.some((word) => RUNNING_WORDS.has(word)) && Object.keys(record).some((key) => RUNNING_KEY.test(plainKey(key))));
  const paths: string[] = [];
  const checkOnly: string[] = [];
  const maybe = new Set<string>();
  if (named[0] === "git") {
    // A git tool is read by its verb: one that rewrites the working tree writes the repository whole (its files
    // named or not); any other (git_add, git_commit, git_create_branch) writes none of them.
    const verb = named.slice(1).find((word) => TREE_VERBS.has(word));
    // The repository: where the call works, or its `path` (cyanheads' and others' git servers name it so).
    const repository = base ?? (typeof record.path === "string" && record.path !== "" ? absolute(record.path, cwd, home) : undefined) ?? cwd;
    if (verb !== undefined && (verb !== "reset" || resetsTree(record))) paths.push(repository);
  } else if (named.some((word) => WRITING_WORDS.has(word)) && record.dryRun !== true && record.dry_run !== true) {
    // (A dry run, the filesystem server's edit_file { dryRun: true }, only shows the change.)
    const rest = Object.fromEntries(Object.entries(record).filter(([key]) => key !== baseKey));
    pathsIn(rest, from, home, false, 0, paths);
    // A file moved, renamed or copied to (or from) a name its key does not say is a file's
    // (rename_file { path, new_name }, copy_file { from, to }): written. A bare new name may be in
    // the file's own directory, or where the call works: both.
    if (named.some((word) => MOVING_WORDS.has(word)) && !changesReferences(named, record)) {
      const dirs = [...new Set(paths.map((path) => dirname(path)))];
      for (const [key, value] of Object.entries(rest)) {
        const plain = plainKey(key);
        if (typeof value !== "string" || !MOVED_KEY.test(plain)) continue;
        for (const place of plain.endsWith("name") ? [from, ...dirs] : [from]) {
          const file = absolute(value, place, home);
          if (file !== undefined) paths.push(file);
        }
      }
    }
    // A patch's files (JetBrains' apply_patch { patch }, a unified diff), from where the call works.
    const patches: string[] = [];
    patchesIn(rest, named.includes("patch") || named.includes("diff"), false, 0, patches);
    for (const text of patches) {
      for (const path of patchedFiles(text, maybe)) {
        const file = absolute(path, from, home);
        if (file === undefined) continue;
        paths.push(file);
        if (maybe.has(path)) checkOnly.push(file);
      }
    }
    // A rename of a symbol changes every file that refers to it, which the call does not name: any
    // file of the project (the one it names, else the repository where the session works).
    if (changesReferences(named, record)) paths.push(`${GLOB_MARK}${join(base ?? repositoryRootOf(cwd) ?? cwd, "**")}`);
    // Where it names nothing else, the place it works is what it writes (create_session { working_directory }).
    // (Not where text is typed: write_to_terminal { text, cwd } runs it there.)
    if (paths.length === 0 && base !== undefined && !typed) paths.push(base);
  }
  const text = typed ? typedText(record) : named.some((word) => RUNNING_WORDS.has(word)) ? commandOf(record) : undefined;
  if (paths.length === 0 && (text === undefined || text.trim() === "")) return undefined;
  // A plain `directory` is where a command runs (mcp-shell-server's), but what a writing tool writes (extract_archive { directory }).
  const given = base ?? (typeof record.directory === "string" && record.directory !== "" ? absolute(record.directory, cwd, home) : undefined);
  const command = text === undefined || text.trim() === "" ? undefined : typed ? { text, cwd: given, typed } : { text, cwd: given ?? cwd };
  return { paths: [...new Set(paths)], ...(checkOnly.length > 0 && { checkOnly }), ...(command !== undefined && { command }) };
}
