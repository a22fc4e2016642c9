// Pointers to the directories of sessions that pin one (docs/PROTOCOL.md 1a). A session pinning
// `--dir` or CLAIMS_DIR claims a file there, where a session that does not pin one never looks:
// it claims where the `.claims` nearest the file sends it, or in the default directory. So a
// pinned take of a path target first leaves `.pinned/<hash>` naming its directory in each claims
// directory it looks in read-only (where unpinned sessions claim that path), and every take,
// check, hook write, beat and queue grant that judges a path in a claims directory judges it in
// the directories its pointers name too. Written before the claim, read by the others after
// theirs, so of two racing takes at least one sees the other (src/commands/take-links.ts).
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync } from "node:fs";
import { basename, join } from "node:path";
import { fsyncDirectory, readSnapshot, removeQuietly, writeTempFile } from "../os/files.js";
import { sha256Hex } from "../os/hash.js";
import type { Settings } from "./settings.js";
import { Store } from "./store.js";

/**
 * One pointer per pinned directory that claimed a path routed here: `.pinned/<that directory,
 * percent-encoded>`, so that a reader needs no more than the listing and a `stat` of each (a
 * directory whose name would be too long: `.pinned/~<hash>`, holding `{"dir": …}`).
 */
export const PINNED_DIRECTORY = ".pinned";

const MAX_NAME = 200;

function pointerName(pinnedDir: string): string {
  const encoded = encodeURIComponent(pinnedDir);
  return encoded.length <= MAX_NAME ? encoded : `~${sha256Hex(pinnedDir).slice(0, 32)}`;
}

/**
 * Leaves a pointer to `pinnedDir` in the claims directory `there` (made if missing, with the
 * settings of the `.claims` that names it), durably, unless one is there already. False when it
 * could not (a directory this user may not write): sessions claiming there will not see this
 * session's claims, which the caller says.
 */
export function leavePointer(there: Pick<Settings, "dir" | "groupShared">, pinnedDir: string): boolean {
  const directory = join(there.dir, PINNED_DIRECTORY);
  const path = join(directory, pointerName(pinnedDir));
  if (existsSync(path)) return true; // the common case: one stat
  try {
    const store = new Store(there.dir, { groupShared: there.groupShared });
    store.ensure();
    try {
      mkdirSync(directory, { mode: there.groupShared ? 0o2770 : 0o700 });
      if (there.groupShared) chmodSync(directory, 0o2770); // as the claims directory itself: the umask must not narrow it
      fsyncDirectory(there.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const temp = writeTempFile(directory, `${JSON.stringify({ dir: pinnedDir })}\n`, store.fileMode);
    try {
      renameSync(temp, path);
    } catch (error) {
      removeQuietly(temp);
      throw error;
    }
    fsyncDirectory(directory);
    return true;
  } catch {
    return false;
  }
}

/** The pinned directories the pointers in claims directory `dir` name that exist: none (one failed call) where none was left. */
export function pinnedDirsIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, PINNED_DIRECTORY));
  } catch {
    return [];
  }
  const dirs: string[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue; // a temp file being written
    const pinnedDir = pointedDir(join(dir, PINNED_DIRECTORY, name));
    if (pinnedDir !== undefined && pinnedDir !== dir && existsSync(pinnedDir)) dirs.push(pinnedDir);
  }
  return dirs;
}

/** The directory a pointer names; undefined for a temp file, debris or one unreadable. */
function pointedDir(path: string): string | undefined {
  const name = basename(path);
  if (!name.startsWith("~")) {
    try {
      const dir = decodeURIComponent(name);
      return dir.startsWith("/") ? dir : undefined;
    } catch {
      return undefined;
    }
  }
  const snapshot = readSnapshot(path);
  if (snapshot.kind !== "file") return undefined;
  try {
    const pointer = JSON.parse(snapshot.bytes.toString("utf8")) as { dir?: unknown };
    return typeof pointer.dir === "string" && pointer.dir.startsWith("/") ? pointer.dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * For sweep: the pointers in `dir` whose pinned directory is gone, removed (listed only, with
 * `dryRun`). One whose directory appears while it is removed (a pinned take making it) is put
 * back at once; a pointer to a directory that exists is never removed, whatever its age.
 */
export function sweepPointers(dir: string, dryRun: boolean): string[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, PINNED_DIRECTORY));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const path = join(dir, PINNED_DIRECTORY, name);
    const pinnedDir = pointedDir(path);
    if (pinnedDir === undefined || existsSync(pinnedDir)) continue;
    if (!dryRun) {
      if (!removeQuietly(path)) continue;
      if (existsSync(pinnedDir)) {
        leavePointer({ dir, groupShared: false }, pinnedDir); // its file mode follows the directory's (Store.fileMode)
        continue;
      }
    }
    removed.push(`${PINNED_DIRECTORY}/${name}`);
  }
  return removed;
}
