// Claims in the way in other claims directories than the target's own (docs/PROTOCOL.md 5a, 1a): a
// file with more than one name may be claimed under another name where another package's sessions
// claim, and a directory or glob may hold such a name; and a target may have been claimed before
// the `.claims` nearest it appeared, where an outer `.claims` or the default sends it; and a session
// pinning a directory of its own claims there. Looked at read-only, by take (before and after its
// grant), by check when pinned, by a beat that makes a stale claim fresh again, and by a queued grant.
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type { Mode } from "./claim.js";
import { findConflicts } from "./conflicts.js";
import { highestTokenOn } from "./fencing.js";
import { openContext, type CommonOptions, type Context, type Holding } from "./context.js";
import { claimsDirOfPackage, claimsDirsOf, holdsIn, packagesAbove, packagesAround, packagesOfLinked, pinned, settingsOfPackage, withUnmovedDefault } from "./routes.js";
import { leaveMovedPointers, leavePointer, namesSharedWith, pinnedDirsIn } from "./pinned.js";
import { type Environment, resolveSettings, type Settings, unmovedDefault } from "./settings.js";
import type { TargetShape } from "../targets/overlap.js";

export interface LinkedLook {
  /** The other claims directories looked in (some may not exist yet: a racing take may make them). */
  dirs: string[];
  /** The claims in the way there, each with its directory. */
  found: Array<{ dir: string; holding: Holding }>;
  /** With `pointTo`: the directories where no pointer to it could be left (this user may not write there). */
  unpointed?: string[];
  /** With `pointTo`: the directories where the pointer to it is. */
  leftIn?: string[];
  /** With `tokens`: the highest fencing token issued on the target, or anything overlapping it, in the directories looked in. */
  highestToken?: number;
}

/**
 * The other packages' claims directories where a claim in the way of `target` through a link may
 * be, but `own` (where the target is claimed), and what is in the way there. Looked in also when
 * this session pins one directory (`--dir`, `CLAIMS_DIR`): sessions that do not pin it claim a
 * package's files where its `.claims` sends them, and a pinned session must meet those claims.
 * `pointTo`, for a pinned take: its directory, left as a pointer in each of those directories
 * first (src/protocol/pinned.ts), so that their sessions meet its claim in turn; for a take in the
 * default directory XDG_STATE_HOME moves, left in the one it moves from (unmovedDefault). In every
 * directory looked in or claimed in, the directories its pointers name are looked in too.
 */
export function lookThroughLinks(
  target: TargetShape,
  own: ReadonlySet<string>,
  mode: Mode,
  holder: string | undefined,
  options: CommonOptions,
  { pointTo, pointers, tokens = false }: { pointTo?: string; pointers?: Map<string, string[]>; tokens?: boolean } = {},
): LinkedLook {
  const look: LinkedLook = { dirs: [], found: [] };
  if (target.kind === "name") return lookForName(target, own, mode, holder, options, { point: pointTo !== undefined, tokens }, look);
  const whole = target.kind === "directory" || target.kind === "glob";
  const place = whole ? target.path.replace(/(.)\/$/, "$1") : dirname(target.path);
  const env = options.env ?? process.env;
  // A session pinning its own directory looks here only as a courtesy to the sessions that do not:
  // a `.claims` it cannot read, or a claims directory it may not list, is passed over as before it
  // looked (an unpinned session, whose claims live there, is stopped by them as ever).
  const courtesy = pinned(options);
  const packages = whole ? packagesAround(place) : packagesOfLinked(target.path);
  const packageDirs = courtesy ? packages.flatMap((at) => claimsDirOfPackage(at, env) ?? []) : packages.map((at) => resolveSettings({ cwd: at, env }).dir);
  // And where the target's own claims may have been made before the `.claims` nearest it appeared.
  const above = packagesAbove(place);
  const dirs = withUnmovedDefault([...packageDirs, ...claimsDirsOf(above, env)], env);
  // Pinned, in every directory the sessions that do not pin one claim this target; and where
  // XDG_STATE_HOME moves the default directory, in the one it moves from (unmovedDefault).
  if (pointTo !== undefined) leavePointers(pointTo, courtesy ? new Set([...packages, ...above]) : [], env, look);
  // A session pinning a directory of its own claims there, and points to it from these (above).
  const pointed = new Set([...own, ...dirs].flatMap((dir) => pinnedDirsIn(dir, pointers)));
  for (const dir of new Set([...dirs, ...pointed])) {
    if (own.has(dir)) continue;
    look.dirs.push(dir);
    if (!existsSync(dir)) continue;
    let holdings: Holding[];
    try {
      const context = openContext({ ...options, dir });
      holdings = findConflicts(target, mode, holder, context, context.store.claimFileNames());
      if (tokens) look.highestToken = Math.max(look.highestToken ?? 0, highestTokenOn(target, context));
    } catch (error) {
      // A pinned directory this user may not read is passed over as a pinned session passes over theirs.
      if (courtesy || (pointed.has(dir) && !dirs.includes(dir))) continue;
      throw error;
    }
    for (const holding of holdings) {
      // A claim made in both (a directory above a package with its own `.claims` is claimed in each)
      // is in the way where the target is claimed too, where a queue can wait for it: said there.
      if (![...own].some((ownDir) => holdsIn(ownDir, holding.held_target ?? holding.target, holding.holder))) look.found.push({ dir, holding });
    }
  }
  return look;
}

/**
 * Leaves a pointer to `pointTo` in the claims directory of each package in `packages` (where the
 * sessions that do not pin one claim what is in them), in the one XDG_STATE_HOME moves each of
 * those from, and in the one it moves `pointTo` from; noted in `look` (leftIn, unpointed).
 */
function leavePointers(pointTo: string, packages: Iterable<string>, env: Environment, look: Pick<LinkedLook, "leftIn" | "unpointed">, { unlessLookedIn = false } = {}): void {
  const thereAll = new Map<string, Pick<Settings, "dir" | "groupShared">>();
  for (const at of packages) {
    const there = settingsOfPackage(at, env);
    if (there !== undefined) thereAll.set(there.dir, there);
  }
  const movedFrom = unmovedDefault(pointTo, env);
  for (const dir of [...thereAll.keys()]) {
    const unmoved = unmovedDefault(dir, env);
    if (unmoved !== undefined) thereAll.set(unmoved, { dir: unmoved, groupShared: false });
  }
  if (movedFrom !== undefined) thereAll.set(movedFrom, { dir: movedFrom, groupShared: false });
  // `pointTo` among them: the sessions that do not pin one look there for the target already.
  if (unlessLookedIn && thereAll.has(pointTo)) return;
  thereAll.delete(pointTo);
  for (const there of thereAll.values()) {
    if (there.dir === movedFrom ? leaveMovedPointers(movedFrom, pointTo) : leavePointer(there, pointTo)) (look.leftIn ??= []).push(there.dir);
    else (look.unpointed ??= []).push(there.dir);
  }
}

/**
 * For a beat of a session pinning `pointTo` (`--dir`, CLAIMS_DIR) that rewrote its claim on
 * `target`: the pointers to it that a pinned take of `target` leaves (lookThroughLinks), left
 * again where one is missing (the claim taken by a version that left none, or the directory
 * pointed from removed and made again since): without them the sessions that do not pin one
 * would not meet the claim, and would be granted its target. A stat of each where they are there.
 * A name is its directory's alone: no pointer. Nor from anywhere when `pointTo` is a directory
 * those sessions look in for `target` already: a claim the beat renewed where it was taken without
 * a pin (a package's claims directory its pointers lead it to, beat without targets) is met there
 * as it is, and a pointer to it would send their every take to read it. The directories where
 * none could be left.
 */
export function leavePinnedPointers(target: TargetShape, pointTo: string, options: CommonOptions): string[] {
  if (target.kind === "name") return [];
  const whole = target.kind === "directory" || target.kind === "glob";
  const place = whole ? target.path.replace(/(.)\/$/, "$1") : dirname(target.path);
  // A directory or glob: in the packages above it alone. The packages of its whole tree
  // (packagesAround, a walk of up to 20,000 directories a take makes once) are too many to walk
  // on every beat; a package inside it is pointed from again by the holder's next take.
  const packages = whole ? [] : packagesOfLinked(target.path);
  const look: Pick<LinkedLook, "leftIn" | "unpointed"> = {};
  leavePointers(pointTo, new Set([...packages, ...packagesAbove(place)]), options.env ?? process.env, look, { unlessLookedIn: true });
  return look.unpointed ?? [];
}

/**
 * A name in the other default directories of this user's sessions (namesSharedWith): where
 * XDG_STATE_HOME moves the default directory of the session taking it, a pointer saying so is
 * left first (`point`) in the one it moves from, so that the sessions claiming there meet this
 * take's claim as it meets theirs (settled as for a path: src/commands/take-links.ts).
 */
function lookForName(target: TargetShape, own: ReadonlySet<string>, mode: Mode, holder: string | undefined, options: CommonOptions, { point, tokens }: { point: boolean; tokens: boolean }, look: LinkedLook): LinkedLook {
  const env = options.env ?? process.env;
  for (const ownDir of own) {
    const unmoved = unmovedDefault(ownDir, env);
    if (point && unmoved !== undefined) {
      if (leaveMovedPointers(unmoved, ownDir)) (look.leftIn ??= []).push(unmoved);
      else (look.unpointed ??= []).push(unmoved);
    }
    for (const dir of namesSharedWith(ownDir, env)) {
      if (own.has(dir) || look.dirs.includes(dir)) continue;
      look.dirs.push(dir);
      if (!existsSync(dir)) continue;
      try {
        const context = openContext({ ...options, dir });
        const found = findConflicts(target, mode, holder, context, context.store.claimFileNames());
        if (tokens) look.highestToken = Math.max(look.highestToken ?? 0, highestTokenOn(target, context));
        for (const holding of found) look.found.push({ dir, holding });
      } catch {
        // One this user may not read (a moved default on a mount it cannot reach): passed over, as a
        // pinned directory it may not read is, rather than failing every name's take, check and
        // queued grant here (and the hooks' takes with them).
        continue;
      }
    }
  }
  return look;
}

/**
 * The other claims directories a take of `target` from `dir` would look in (lookThroughLinks) that
 * exist and this user may read, opened: where a fencing token may have been issued meanwhile above
 * the one given (src/protocol/fencing.ts, fencedOff; docs/PROTOCOL.md 4a).
 */
export function linkedContexts(target: TargetShape, dir: string, holder: string | undefined, options: CommonOptions): Context[] {
  const { dir: _dir, ...unpinnedOptions } = options;
  const contexts: Context[] = [];
  for (const other of lookThroughLinks(target, new Set([dir]), "exclusive", holder, unpinnedOptions).dirs) {
    if (!existsSync(other)) continue;
    try {
      contexts.push(openContext({ ...unpinnedOptions, dir: other }));
    } catch {
      // one this user may not read: passed over, as a take passes it over
    }
  }
  return contexts;
}
