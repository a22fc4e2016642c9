// A bounded walk of the existing entries a glob can reach: from the glob's static base, into only
// the directories the glob can reach into (picomatch, no brace expansion), at most 12 levels deep
// and 20,000 entries, so a glob over a huge tree never stalls a call. Used to find the symlinks a
// glob matches (src/protocol/aliases.ts) and whether it matches anything yet (src/commands/take.ts).
import { readdirSync, type Dirent } from "node:fs";
import { globReachesInto, matcher, type TargetShape } from "./overlap.js";
import { foldName, isCaselessDirectory } from "./caseless.js";

const MAX_DEPTH = 12;
const MAX_ENTRIES = 20_000;
/** The walk's limits, as a note says them. */
export const WALK_LIMITS = `${MAX_DEPTH} levels of directories or ${MAX_ENTRIES.toLocaleString("en-US")} entries`;

/** What the walk saw of one entry: its path, whether the glob matches it, and the entry itself. */
export interface GlobEntry {
  path: string;
  matched: boolean;
  entry: Dirent;
}

/**
 * Calls `visit` for each entry under the glob's base that the glob matches or can reach into, in
 * directory order; `visit` returns true to stop. Returns whether the walk saw everything it could
 * reach (false: stopped by `visit`, the depth or the entry budget). A directory that cannot be read
 * has nothing to see; a symlink is not followed.
 */
export function walkGlob(glob: TargetShape, visit: (seen: GlobEntry) => boolean | void): boolean {
  const matches = matcher(glob.canonical);
  // Below a directory that ignores case the glob is folded (src/targets/caseless.ts): so are the names it meets.
  const caseless = isCaselessDirectory(glob.path.replace(/(.)\/$/, "$1"));
  let budget = MAX_ENTRIES;
  let complete = true;
  const walk = (directory: string, depth: number): boolean => {
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return false; // missing or unreadable: nothing there
    }
    for (const entry of entries) {
      if (--budget < 0) {
        complete = false;
        return true;
      }
      const name = caseless ? foldName(entry.name) : entry.name;
      const path = directory === "/" ? `/${name}` : `${directory}/${name}`;
      const matched = matches(path);
      const reaches = globReachesInto(glob.canonical, `${path}/`);
      if ((matched || reaches) && visit({ path, matched, entry })) {
        complete = false;
        return true;
      }
      if (!entry.isDirectory() || !reaches) continue;
      if (depth >= MAX_DEPTH) complete = false;
      else if (walk(path, depth + 1)) return true;
    }
    return false;
  };
  walk(glob.path.replace(/(.)\/$/, "$1"), 0);
  return complete;
}
