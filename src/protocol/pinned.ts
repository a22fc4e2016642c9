// Pointers to the directories of sessions that pin one (docs/PROTOCOL.md 1a). A session pinning
// `--dir` or CLAIMS_DIR claims a file there, where a session that does not pin one never looks:
// it claims where the `.claims` nearest the file sends it, or in the default directory. So a
// pinned take of a path target first leaves `.pinned/<its directory, encoded>` in each claims
// directory it looks in read-only (where unpinned sessions claim that path), and every take,
// check, hook write, beat and queue grant that judges a path in a claims directory judges it in
// the directories its pointers name too. Written before the claim, read by the others after
// theirs, so of two racing takes at least one sees the other (src/commands/take-links.ts).
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readdirSync, renameSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { fsyncDirectory, listedIfThere, ownAsDirectory, readSnapshot, removeQuietly, removeSetAside, touchWhenOld, writeTempFile } from "../os/files.js";
import { sha256Hex } from "../os/hash.js";
import { type Environment, type Settings, unmovedDefault } from "./settings.js";
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
 * What a take or beat says where it could leave no pointer to its directory in `dir`: the
 * sessions claiming there will not meet its claims. `moved`: the variable that moves its default
 * directory (XDG_STATE_HOME), for one that pins none.
 */
export function unpointedNote(dir: string, moved?: string): string {
  return moved === undefined
    ? `no pointer to this claims directory could be left in ${dir} (it could not be written), so sessions claiming there without --dir or CLAIMS_DIR will not see this claim; pin one directory for every session, or for none`
    : `no pointer to this claims directory could be left in ${dir} (it could not be written), so sessions claiming there without ${moved} will not see this claim; give every session the same ${moved}, or none`;
}

/** A pointer this old whose directory is gone is debris to sweep; a pinned take keeps its own younger than that (touchWhenOld). */
export const POINTER_DEBRIS_AGE_MS = 7 * 24 * 3600 * 1000;

/**
 * Leaves a pointer to `pinnedDir` in the claims directory `there` (made if missing, with the
 * settings of the `.claims` that names it), durably, unless one is there already (touched when a
 * day old, so sweep never takes it for debris; one that cannot be read is written again). False
 * when it could not (a directory this user may not write): sessions claiming there will not see
 * this session's claims, which the caller says.
 */
export function leavePointer(there: Pick<Settings, "dir" | "groupShared">, pinnedDir: string, { movedDefault = false } = {}): boolean {
  const directory = join(there.dir, PINNED_DIRECTORY);
  const path = join(directory, pointerName(pinnedDir));
  try {
    const stats = statSync(path); // the common case: one stat
    touchWhenOld(path, stats.mtimeMs);
    // A moved default's pointer says so (one left by a pin, or by an earlier version, is written again).
    if (stats.isFile() && pointedDir(path) === pinnedDir && (!movedDefault || readPointer(path)?.moved_default === true)) {
      shareWithGroup(directory, new Store(there.dir, { groupShared: there.groupShared }));
      return true;
    }
  } catch {
    // not there yet (or touched by sweep meanwhile): written below
  }
  try {
    const store = new Store(there.dir, { groupShared: there.groupShared });
    store.ensure();
    // Shared by its config, or 2770 already (made so by sessions whose config says so): every
    // member must list the pointers, or they would not see this session's claims.
    const shared = store.fileMode === 0o660;
    try {
      mkdirSync(directory, { mode: shared ? 0o2770 : 0o700 });
      if (shared) chmodSync(directory, 0o2770); // as the claims directory itself: the umask must not narrow it
      ownAsDirectory(directory, there.dir);
      fsyncDirectory(there.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      shareWithGroup(directory, store);
    }
    const temp = writeTempFile(directory, `${JSON.stringify({ dir: pinnedDir, ...(movedDefault && { moved_default: true }) })}\n`, store.fileMode);
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

/**
 * Makes `.pinned` 2770 where the claims directory is shared and it is not (made 0700 by an earlier
 * version): the group's other members must list it. Done by every pinned take that finds or writes
 * its pointer there (a stat or two, where the directory is shared); best effort, as only its owner
 * may change its mode.
 */
function shareWithGroup(directory: string, store: Store): void {
  try {
    if (store.fileMode === 0o660 && (statSync(directory).mode & 0o2070) !== 0o2070) chmodSync(directory, 0o2770);
  } catch {
    // not ours to change: its owner's next pointer does
  }
}

/**
 * Whether the other users of a group-shared claims directory `dir` (2770) could not list the pinned
 * directory its pointer names: not theirs by group with `rx`, nor `rx` for all. Their sessions
 * would pass over its claims (a directory they may not read), unseen: the pinned take says so.
 */
export function hiddenFrom(dir: string, pinnedDir: string): boolean {
  try {
    const there = statSync(dir);
    if ((there.mode & 0o2070) !== 0o2070) return false; // one user's: nobody else claims there
    const pinned = statSync(pinnedDir);
    const byGroup = pinned.gid === there.gid && (pinned.mode & 0o050) === 0o050;
    return !byGroup && (pinned.mode & 0o005) !== 0o005;
  } catch {
    return false; // gone meanwhile: nothing to say
  }
}

/**
 * The pinned directories the pointers in claims directory `dir` name that exist: none (one failed
 * call) where none was left. With `memo`, each directory is listed once for the look it belongs to
 * (a take of many targets); a look after a grant brings a memo of its own.
 */
export function pinnedDirsIn(dir: string, memo?: Map<string, string[]>): string[] {
  const known = memo?.get(dir);
  if (known !== undefined) return known;
  const dirs = listPointers(dir);
  memo?.set(dir, dirs);
  return dirs;
}

function listPointers(dir: string): string[] {
  const names = listedIfThere(join(dir, PINNED_DIRECTORY));
  const dirs: string[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue; // a temp file being written, or one sweep set aside
    const pinnedDir = pointedDir(join(dir, PINNED_DIRECTORY, name));
    if (pinnedDir !== undefined && pinnedDir !== dir && existsSync(pinnedDir)) dirs.push(pinnedDir);
  }
  return dirs;
}

/**
 * The directories of sessions pinning one of their own that the pointers in the claims directories
 * judged name, each with the paths judged in the directories pointing to it: their claims on those
 * paths are in the way too, read-only (take looks through lookThroughLinks). A directory judged
 * already for paths of its own (a sibling package's, pinned by a session) is named too, with the
 * paths the others judge: a session pinning it claims any path there.
 */
export function pinnedDirsFor(judged: Array<[string, Iterable<string>]>): Map<string, string[]> {
  const pointed = new Map<string, string[]>();
  const own = new Map<string, Set<string>>();
  for (const [dir, paths] of judged) for (const path of paths) (own.get(dir) ?? own.set(dir, new Set()).get(dir))?.add(path);
  for (const [dir, paths] of judged) {
    for (const other of pinnedDirsIn(dir)) {
      // Judged there already for these very paths (a pinned session's own directory, looked at from one pointing to it): nothing more.
      const more = [...paths].filter((path) => !own.get(other)?.has(path));
      if (own.has(other) && more.length === 0) continue;
      pointed.set(other, [...new Set([...(pointed.get(other) ?? []), ...more])]);
    }
  }
  return pointed;
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
  return readPointer(path)?.dir;
}

/** A pointer's content, `{"dir": …}`, with `"moved_default": true` where a moved default directory left it; undefined when unreadable. */
function readPointer(path: string): { dir: string; moved_default?: true } | undefined {
  const snapshot = readSnapshot(path);
  if (snapshot.kind !== "file") return undefined;
  try {
    const pointer = JSON.parse(snapshot.bytes.toString("utf8")) as { dir?: unknown; moved_default?: unknown };
    if (typeof pointer.dir !== "string" || !pointer.dir.startsWith("/")) return undefined;
    return { dir: pointer.dir, ...(pointer.moved_default === true && { moved_default: true as const }) };
  } catch {
    return undefined;
  }
}

/**
 * The other claims directories whose names are `dir`'s too: the default directories of this
 * user's sessions, wherever XDG_STATE_HOME moves them. A name is claimed in the claims directory
 * of the session that takes it alone (a pinned directory's names are its own, a package's its
 * own), but the default directory is one place to its user however XDG_STATE_HOME is set in each
 * session, and two sessions of one user, one with it and one without, would both be granted
 * `shared-config`. So for `dir` a moved default, the one it moves from (`~/.local/state/claims`)
 * and the other moved ones pointed to from there; for `dir` that one, the moved ones. Known from
 * the disk, not from the caller's environment, so that a process without that XDG_STATE_HOME or
 * HOME acting on either (a sweep from cron, `status --dir`, a queue served by another session)
 * judges as the sessions do: the unmoved one holds a pointer to each moved one saying so
 * (`"moved_default": true`), and each moved one a `.moved-from` naming the unmoved one, both left
 * by leaveMovedPointers before its session's first claim there; before that, the moved session's
 * own XDG_STATE_HOME says it (unmovedDefault). None for any other directory.
 */
export function namesSharedWith(dir: string, env: Environment): string[] {
  const here = movedDefaultsIn(dir);
  const unmoved = here.length > 0 ? dir : (unmovedDefault(dir, env) ?? movedFrom(dir));
  if (unmoved === undefined) return [];
  const dirs = new Set([unmoved, ...(unmoved === dir ? here : movedDefaultsIn(unmoved))]);
  dirs.delete(dir);
  // One this user may not list (a moved default on a mount it cannot reach) is passed over, as a
  // pinned directory it may not read is, rather than failing every name's take, check, status and
  // queued grant here (and the hooks' takes with them); one not made yet holds nothing.
  return [...dirs].filter((other) => !existsSync(other) || readable(other));
}

function readable(dir: string): boolean {
  try {
    accessSync(dir, constants.R_OK | constants.X_OK);
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The moved default directories the pointers in `dir` name: said so by the pointer, or by the `.moved-from` there (a pin's pointer may have been renamed over one's). */
function movedDefaultsIn(dir: string): string[] {
  const dirs: string[] = [];
  for (const name of listedIfThere(join(dir, PINNED_DIRECTORY))) {
    if (name.startsWith(".")) continue; // a temp file being written, or one sweep set aside
    const pointer = readPointer(join(dir, PINNED_DIRECTORY, name));
    if (pointer === undefined || pointer.dir === dir || !existsSync(pointer.dir)) continue;
    if (pointer.moved_default === true || movedFrom(pointer.dir) === dir) dirs.push(pointer.dir);
  }
  return dirs;
}

/** A moved default directory's record of the unmoved one (`~/.local/state/claims` of its user), where one is. */
const MOVED_FROM_FILE = ".moved-from";

function movedFrom(dir: string): string | undefined {
  const snapshot = readSnapshot(join(dir, MOVED_FROM_FILE));
  if (snapshot.kind !== "file") return undefined;
  try {
    const record = JSON.parse(snapshot.bytes.toString("utf8")) as { dir?: unknown };
    return typeof record.dir === "string" && record.dir.startsWith("/") && record.dir !== dir ? record.dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * For a session whose XDG_STATE_HOME moves its default directory `movedDir` away from `unmoved`:
 * the pointer to it in `unmoved` saying it is a moved default, and its `.moved-from` naming
 * `unmoved`, each durably unless there already (namesSharedWith). False when the pointer could
 * not be left (the caller says who will not see its claims).
 */
export function leaveMovedPointers(unmoved: string, movedDir: string): boolean {
  const left = leavePointer({ dir: unmoved, groupShared: false }, movedDir, { movedDefault: true });
  if (movedFrom(movedDir) === unmoved) return left;
  try {
    const store = new Store(movedDir, { groupShared: false });
    store.ensure();
    const temp = writeTempFile(movedDir, `${JSON.stringify({ dir: unmoved })}\n`, store.fileMode);
    try {
      renameSync(temp, join(movedDir, MOVED_FROM_FILE));
    } catch (error) {
      removeQuietly(temp);
      throw error;
    }
    fsyncDirectory(movedDir);
  } catch {
    // The moved directory is this session's own: a take there fails on it, and says so.
  }
  return left;
}

/**
 * For sweep: the pointers in `dir` whose pinned directory is gone and that no pinned take has
 * touched for 7 days, removed (listed only, with `dryRun`). Each is first renamed aside and looked
 * at again there: one a take touched, or whose directory came back, meanwhile is put back at once.
 * A pointer to a directory that exists is never removed, whatever its age.
 */
export function sweepPointers(dir: string, dryRun: boolean, nowMs: number): string[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, PINNED_DIRECTORY));
  } catch {
    return [];
  }
  const gone = (path: string, pinnedDir: string) => {
    try {
      return nowMs - statSync(path).mtimeMs > POINTER_DEBRIS_AGE_MS && !existsSync(pinnedDir);
    } catch {
      return false;
    }
  };
  const removed: string[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const path = join(dir, PINNED_DIRECTORY, name);
    const pinnedDir = pointedDir(path);
    if (pinnedDir === undefined || !gone(path, pinnedDir)) continue;
    // Touched, or its directory made again, before it was set aside: it goes back where readers look.
    if (!dryRun && !removeSetAside(path, join(dir, PINNED_DIRECTORY, `.swept-${name}`), (aside) => gone(aside, pinnedDir))) continue;
    removed.push(`${PINNED_DIRECTORY}/${name}`);
  }
  return removed;
}
