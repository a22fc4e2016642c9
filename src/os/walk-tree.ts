// A bounded breadth-first walk of a directory tree, for the checks that must look under a
// directory without letting a huge one stall a hook: the `.claims` files of a monorepo's packages
// (src/hooks/claims-directories.ts) and the other names of a hard-linked file (src/protocol/conflicts.ts).
import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";

/** Directories of dependencies, version control and caches: no package's `.claims` is looked for in them, nor shared files between two claimed trees (hard links a package manager made). */
export const NOT_SEARCHED = ["node_modules", ".git", ".venv", "__pycache__"];

/** Whether `path` is in (or is) one of the NOT_SEARCHED directories. */
export function inNotSearched(path: string): boolean {
  return path.split("/").some((name) => NOT_SEARCHED.includes(name));
}

export interface TreeLimits {
  /** Directories listed at most. */
  directories?: number;
  /** Entries seen at most. */
  entries?: number;
  /** Levels below the start at most. */
  depth?: number;
  /** Directories not gone into (by name). */
  skip?: string[];
  /** Whether to go into a directory, given its path and its level below the start (1 for an entry of the start). */
  enter?: (path: string, level: number) => boolean;
}

/**
 * Calls `visit` with each entry under `directory` and its directory, breadth first, until a limit
 * is reached; unreadable directories are passed over. "complete" when it saw the whole tree (the
 * skipped names aside), "deep" when only the depth limit left directories unlisted, "cut" when the
 * limit on directories or entries stopped it.
 */
export function walkTree(directory: string, limits: TreeLimits, visit: (entry: Dirent, at: string) => void): "complete" | "deep" | "cut" {
  const queue = [{ at: directory, depth: 0 }];
  let seen = 0;
  let complete = true;
  for (let listed = 0; queue.length > 0; listed++) {
    if (listed >= (limits.directories ?? Number.POSITIVE_INFINITY)) return "cut";
    const { at, depth } = queue.shift() as { at: string; depth: number };
    let entries: Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++seen > (limits.entries ?? Number.POSITIVE_INFINITY)) return "cut";
      visit(entry, at);
      if (!entry.isDirectory() || (limits.skip ?? []).includes(entry.name)) continue;
      const path = join(at, entry.name);
      if (limits.enter !== undefined && !limits.enter(path, depth + 1)) continue;
      if (depth < (limits.depth ?? Number.POSITIVE_INFINITY)) queue.push({ at: path, depth: depth + 1 });
      else complete = false;
    }
  }
  return complete ? "complete" : "deep";
}
