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
  for (const line of patch.split(/\r?\n/)) {
    const match = /^\s*\*\*\* (?:Add File|Update File|Delete File|Move to): (.+?)\s*$/.exec(line);
    if (match?.[1]) paths.push(match[1]);
  }
  return [...new Set(paths)];
}

/** Marks, in the list of what a shell command writes, a glob checked as a glob rather than expanded (no path starts with NUL). */
export const GLOB_MARK = "\0glob:";

/** Marks a relative path a shell command writes after a `cd` the text does not fix: its directory is unknown. */
export const UNKNOWN_MARK = "\0unknown:";
