// Reading agent hook payloads: JSON on stdin, as Claude Code and Codex document them. Anything
// malformed or irrelevant is "pass": the hook must never stand in the way of what it does not guard.

export interface HookPayload {
  session_id?: unknown;
  agent_id?: unknown;
  hook_event_name?: unknown;
  cwd?: unknown;
  tool_name?: unknown;
  tool_input?: unknown;
}

export function parsePayload(text: string): HookPayload | undefined {
  if (text.trim() === "") return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as HookPayload) : undefined;
  } catch {
    return undefined;
  }
}

export function stringField(record: unknown, key: string): string | undefined {
  if (typeof record !== "object" || record === null) return undefined;
  const value = (record as Record<string, unknown>)[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Claude Code's writing tools and where each names its file. */
export const CLAUDE_WRITE_TOOLS: Record<string, "file_path" | "notebook_path"> = {
  Write: "file_path",
  Edit: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};

/** The text an edit replaces, for symbol-level decisions: undefined means "the whole file" (Write, NotebookEdit). */
export function replacedTexts(toolName: string, toolInput: unknown): string[] | undefined {
  if (toolName === "Edit") {
    const old = stringField(toolInput, "old_string");
    return old === undefined ? undefined : [old];
  }
  if (toolName === "MultiEdit") {
    const edits = (toolInput as { edits?: unknown })?.edits;
    if (!Array.isArray(edits)) return undefined;
    const olds = edits.map((edit) => stringField(edit, "old_string"));
    return olds.every((old): old is string => old !== undefined) ? olds : undefined;
  }
  return undefined;
}

/**
 * Every path a Codex `apply_patch` touches: `*** Add File:`, `*** Update File:`, `*** Delete File:`
 * and the new name of `*** Move to:`. Codex trims a header line before reading it, so one indented
 * (`  *** Update File: a.ts`) counts as well.
 */
export function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  // Lines as Codex's parser splits them (Rust's `lines()`: at \n, a \r before it dropped; never at
  // U+2028 or a \r alone), each header trimmed of what Rust calls white space (U+0085 too, which
  // JavaScript's \s is not), the path the rest of the line; `*** Move to:` untrimmed. Read the
  // JavaScript way too: a path either reading names is judged.
  for (const raw of patch.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const header = rustTrim(line);
    const marker = HEADERS.find((each) => header.startsWith(each));
    if (marker !== undefined && header.length > marker.length) paths.push(header.slice(marker.length));
    if (line.startsWith(MOVE_TO) && line.length > MOVE_TO.length) paths.push(line.slice(MOVE_TO.length));
    // Trimmed by trimEnd, not by `\s*$` after a lazy path: a run of spaces inside one would cost the square of its length.
    const path = /^\s*\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/.exec(line)?.[1]?.trimEnd();
    if (path) paths.push(path);
  }
  return [...new Set(paths)];
}

const HEADERS = ["*** Add File: ", "*** Delete File: ", "*** Update File: "];
const MOVE_TO = "*** Move to: ";
/** Rust's White_Space characters, which its `str::trim()` removes. */
const RUST_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/** Rust's `str::trim()`: the White_Space characters at either end gone (walked, not matched: `[…]+$` costs the square of a run inside a line). */
function rustTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && RUST_SPACE.test(text[start] as string)) start++;
  while (end > start && RUST_SPACE.test(text[end - 1] as string)) end--;
  return text.slice(start, end);
}

/**
 * Codex applies `cd DIR && apply_patch <<EOF` itself, not through a shell, taking DIR's text as
 * written: a word's as it is (`~/x` unexpanded), a double-quoted string's literal part (of
 * `"$PWD/x"` it keeps `/x`), a single-quoted one's inside. Where DIR has an expansion, an escape
 * or a leading `~`, the directory it makes of it may not be the shell's: the patch's relative
 * paths are judged as written in a place unknown too (by their tail).
 */
export function codexPatchElsewhere(script: string): string[] {
  const match = /^\s*cd\s+([^\n]+?)\s*&&\s*(?:apply_patch|applypatch)\s*<</.exec(script);
  // Quotes alone are read alike (a literal either way); an expansion, an escape or a leading ~ not.
  if (!match || !/[$\\`]|^~/.test(match[1] as string)) return [];
  return patchPaths(script).filter((path) => !path.startsWith("/")).map((path) => UNKNOWN_MARK + path);
}

/** Marks, in the list of what a shell command writes, a glob checked as a glob rather than expanded (no path starts with NUL). */
export const GLOB_MARK = "\0glob:";

/** Marks a relative path a shell command writes after a `cd` the text does not fix: its directory is unknown. */
export const UNKNOWN_MARK = "\0unknown:";

/**
 * Paths of what a shell command writes that only a program's text names (`open("README.md")` in
 * `python3 fix.py`): judged as written, so another session's claim on one refuses the command, but
 * not claimed for the session, as a file an edit or `sed -i` writes is: most are read, not written.
 * Filled by shellWrites (shell.ts) for the one command a hook process judges.
 */
export const CHECK_ONLY = new Set<string>();

/**
 * The programs a shell command starts that take commands typed at a terminal (shell-terminal.ts:
 * `less`, `vim`, `tmux`), read as writing any file: named in a refusal, so it says why. Filled by
 * shellWrites (shell.ts) for the one command a hook process judges.
 */
export const TYPED_AT_TERMINAL = new Set<string>();

/**
 * Text another MCP server's tool types into a process already running that is no shell line (a
 * REPL's `os.remove("u.ts")`), read as writing any file: named in a refusal, so it says why. Filled
 * by writtenFiles (hook.ts) for the one call a hook process judges.
 */
export const TYPED_ELSEWHERE = new Set<string>();

/**
 * Directories a shell command removes whole, themselves too (the untracked ones `git clean -d`
 * lists): a claims directory that is one is judged as one the tree holds, refused only while
 * another session holds a claim there, not as a write into it. Filled by shellWrites (shell.ts).
 */
export const REMOVED_WHOLE = new Set<string>();
