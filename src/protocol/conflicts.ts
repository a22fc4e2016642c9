// Who stands in the way of a take: every fresh claim of another holder whose target overlaps,
// unless both are shared. Candidates are found from claim file names alone (the name encodes
// the target), so only claims that can overlap are read, however many the directory holds.
import { lstatSync, type Stats } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { picomatch } from "../targets/picomatch.js";
import { modeOf, type Mode } from "./claim.js";
import { fewBraceAlternatives, globMatches, matcher, overlaps, shapeOf, type TargetShape } from "../targets/overlap.js";
import type { Context, Holding } from "./context.js";
import { holdingOf, othersFreshness, unreadableHolding, unreadableStale } from "./context.js";
import type { ClaimRead } from "./store.js";
import { everyGlobReach, linkConflicts, type Link } from "./aliases.js";
import { inNotSearched, NOT_SEARCHED, walkTree } from "../os/walk-tree.js";
import { foldName, isCaselessDirectory } from "../targets/caseless.js";
import { boundAliases } from "../targets/bind-mounts.js";
import { readMounts, type Mount } from "../os/mounts.js";
import { claimFileName, partsOfFileName, percentEncode } from "../targets/target.js";
import { movedClaims, whereNow } from "./unresolved.js";

/**
 * The claim files whose targets overlap `target`, read. Decided from the file names; a name
 * shortened with a hash is read for its target, and if it cannot be read, its readable prefix
 * decides, conservatively.
 */
export function overlappingClaims(target: TargetShape, context: Context, fileNames: string[]): Array<{ fileName: string; named: string; read: ClaimRead }> {
  return overlappingFiles(target, fileNames, (fileName) => {
    const read = context.store.read(fileName);
    if (read.state === "missing") return undefined;
    return { read, ...(read.state === "claim" && { target: read.claim.target }) };
  });
}

/**
 * The overlap rule as it is decided from names (docs/PROTOCOL.md 5a), for claim files and for
 * anything named as they are (the token counters): the files among `fileNames` whose target
 * overlaps `target`, each read once with `read` (undefined: the file is gone). The name encodes
 * the target; a name shortened with a hash goes by the target its file says (`read`'s `target`),
 * and when that is unknown, by its readable prefix, conservatively. `named`: the target, or the
 * prefix and `…`.
 */
export function overlappingFiles<Read>(
  target: TargetShape,
  fileNames: string[],
  read: (fileName: string) => { read: Read; target?: string } | undefined,
): Array<{ fileName: string; named: string; read: Read }> {
  const found: Array<{ fileName: string; named: string; read: Read }> = [];
  const mayOverlap = encodedFilter(target);
  for (const fileName of fileNames) {
    if (!mayOverlap(fileName)) continue;
    const parts = partsOfFileName(fileName);
    if (parts.target !== undefined && !overlaps(target, shapeOf(parts.target))) continue;
    const got = read(fileName);
    if (got === undefined) continue;
    let named = parts.target ?? got.target;
    if (named === undefined) {
      // A name shortened with a hash whose file says nothing (unreadable): its readable prefix is
      // all there is, and the name filter's region test on it already said "maybe", which must
      // stand (a glob's target, /p/D/**, is no prefix of /p/D/xxx… nor the other way round). A name
      // target only ever meets names, which are compared whole.
      const prefix = parts.prefix ?? "";
      if (target.kind === "name" && !(target.canonical.startsWith(prefix) || prefix.startsWith(target.canonical))) continue;
      named = `${prefix}…`;
    } else if (parts.target === undefined && !overlaps(target, shapeOf(named))) continue;
    found.push({ fileName, named, read: got.read });
  }
  return found;
}

/**
 * A cheap test on the encoded file name, before decoding it: percent-encoding is a prefix code, so
 * "one path is a prefix of the other" can be read off the encoded names directly. A name claim
 * never overlaps a path-like target (and vice versa); any other claim overlaps only if its region
 * and the target's are prefix-related. Both regions are cut before their first glob or symbol
 * character (regionBeforeSpecial), on both sides alike, so the test never depends on which of
 * two claims was taken first. A name shortened with a hash is tested by its readable prefix
 * (regionOfPrefix), so counters and claims of long targets elsewhere are not read. Only ever errs
 * towards "maybe"; test/overlap.test.ts checks it against the overlap rules.
 */
function encodedFilter(target: TargetShape): (fileName: string) => boolean {
  if (target.kind === "name") {
    const own = claimFileName(target.canonical).slice(0, -".json".length);
    return (fileName) => stemOf(fileName) === own || fileName.includes("%~");
  }
  const ours = regionBeforeSpecial(percentEncode(target.canonical));
  return (fileName) => {
    const stem = stemOf(fileName);
    if (!stem.startsWith("%2F")) return false; // a name
    const hashed = stem.indexOf("%~");
    // A glob with a | (a claim no take makes: src/targets/glob-syntax.ts) may reach anywhere: read.
    if (stem.includes("%7C") && SPECIAL.test(stem)) return true;
    const theirs = hashed === -1 ? regionBeforeSpecial(stem) : regionOfPrefix(stem.slice(0, hashed));
    return theirs.startsWith(ours) || ours.startsWith(theirs);
  };
}

/**
 * For a name shortened with a hash, which keeps only a readable prefix of the encoded target: a
 * path that the region of every target with that prefix starts with (the prefix's own region when
 * it has a special character; else the prefix up to its last `/`, as what follows may hold one).
 */
function regionOfPrefix(prefix: string): string {
  if (SPECIAL.test(prefix)) return regionBeforeSpecial(prefix);
  return prefix.slice(0, Math.max(0, prefix.lastIndexOf("%2F")));
}

/** Encoded: * ? [ ] { } ( ) ! + @ \ " (glob syntax, as picomatch reads it) and # (a symbol). */
const SPECIAL = /%2A|%3F|%5B|%5D|%7B|%7D|%28|%29|%21|%2B|%40|%5C|%22|%23/;

/**
 * An encoded canonical path up to the last `/` before its first special character, or without
 * its trailing `/` if it has none: a path no narrower than everything its claim can cover.
 */
function regionBeforeSpecial(encoded: string): string {
  const special = encoded.search(SPECIAL);
  if (special === -1) return encoded.endsWith("%2F") ? encoded.slice(0, -3) : encoded;
  return encoded.slice(0, Math.max(0, encoded.lastIndexOf("%2F", special)));
}

/**
 * Whether one claim file read stands in the way of `holder` taking in `mode`, and as what holding.
 * An unreadable file counts as held (nobody knows whose it is or what mode) until its mtime is
 * older than the TTL; a claim of the holder's own, a shared claim for a shared taker and a stale
 * claim do not. The one rule every search for conflicts applies (`named`: the target, from the
 * file name where the file cannot be read).
 */
export function inTheWay(named: string, read: ClaimRead, mode: Mode, holder: string | undefined, context: Context): Holding | undefined {
  if (read.state === "missing") return undefined;
  // Another program's file where a claim file would be is no claim: a take of that name is bad input (judge), whatever its age.
  if (read.state === "unreadable") return read.foreign || unreadableStale(read, context) ? undefined : unreadableHolding(named, read, context);
  const { claim } = read;
  if (holder !== undefined && claim.holder === holder) return undefined;
  if (mode === "shared" && modeOf(claim) === "shared") return undefined;
  if (othersFreshness(claim, read.mtimeMs, context).stale) return undefined;
  return holdingOf(claim, context);
}

/** A claim file name without `.json` and without a shared claim's `+<holder tag>`. */
function stemOf(fileName: string): string {
  const stem = fileName.slice(0, -".json".length);
  const plus = stem.lastIndexOf("+");
  return plus === -1 ? stem : stem.slice(0, plus);
}

export function findConflicts(
  target: TargetShape,
  mode: Mode,
  holder: string | undefined,
  context: Context,
  fileNames: string[],
): Holding[] {
  const conflicts = conflictsByName(target, mode, holder, context, fileNames);
  // What the target names under another mount point of the same file system (a bind mount) is
  // the target itself: a claim in the way there is in the way here.
  for (const alias of boundAliasesOf(target)) {
    for (const holding of conflictsByName(alias, mode, holder, context, fileNames)) {
      const heldTarget = holding.held_target ?? holding.target;
      if (conflicts.some((known) => known.holder === holding.holder && (known.held_target ?? known.target) === heldTarget)) continue;
      const through = alias.canonical === heldTarget ? "the same place under another mount point (a bind mount)" : `through ${alias.canonical}, the same place under another mount point (a bind mount)`;
      conflicts.push({ ...holding, target: target.canonical, held_target: heldTarget, overlap: holding.overlap === undefined ? through : `${through}: ${holding.overlap}` });
    }
  }
  // A path claimed before it was there, whose place leads here now (src/protocol/unresolved.ts);
  // and, under the take lock (a take, a grant, a beat reviving a claim), the target itself where it
  // leads now: read while its place was not there, a symlink made since (while the take stood
  // before its take lock) may lead it to a claim. (A check or hook judges what it just read.)
  const known = (holding: Holding) => conflicts.some((each) => each.holder === holding.holder && (each.held_target ?? each.target) === (holding.held_target ?? holding.target));
  const now = context.store.insideTakeLock ? whereNow(target) : undefined;
  if (now !== undefined) {
    for (const holding of conflictsByName(now, mode, holder, context, fileNames)) {
      const heldTarget = holding.held_target ?? holding.target;
      if (known(holding)) continue;
      const through = `${target.canonical} leads to ${now.canonical} now`;
      conflicts.push({ ...holding, target: target.canonical, held_target: heldTarget, overlap: holding.overlap === undefined ? through : `${through}: ${holding.overlap}` });
    }
  }
  for (const moved of movedOver(target, context)) {
    const inWay = inTheWay(moved.target, moved.read, mode, holder, context);
    if (!inWay) continue;
    const holding = { ...withTarget(inWay, target.canonical), overlap: `${moved.target} leads to ${moved.now.canonical} now (claimed before its path existed)` };
    if (!known(holding)) conflicts.push(holding);
  }
  return conflicts;
}

/**
 * The claims taken before their path was there whose place leads to something overlapping `target`
 * now, where their own target does not overlap it (those are found by name): each covers where it
 * leads as well (src/protocol/unresolved.ts).
 */
export function movedOver(target: TargetShape, context: Context): Array<{ fileName: string; target: string; read: ClaimRead; now: TargetShape }> {
  if (target.kind === "name") return [];
  return movedClaims(context).filter((moved) => overlaps(target, moved.now) && !overlaps(target, shapeOf(moved.target)));
}

/**
 * The other spellings `target` has through claims taken before their path was there: a claim's own
 * target for a target overlapping where it leads now, and where it leads for a target overlapping
 * the claim's own. For fencing tokens (src/protocol/fencing.ts): one place, one sequence, also for
 * a while after the claim is gone (leftoverUnresolved).
 */
export function movedAliasesOf(target: TargetShape, context: Context): TargetShape[] {
  if (target.kind === "name") return [];
  const aliases: TargetShape[] = [];
  for (const moved of movedClaims(context, true)) {
    const own = shapeOf(moved.target);
    const [here, there] = [overlaps(target, own), overlaps(target, moved.now)];
    if (there && !here) aliases.push(own);
    else if (here && !there) aliases.push(moved.now);
  }
  return aliases;
}

/** The claims in the way of a target by the names its claims go by: its own, a glob's symlinks to it, another name of its file (a hard link). */
function conflictsByName(target: TargetShape, mode: Mode, holder: string | undefined, context: Context, fileNames: string[]): Holding[] {
  const conflicts: Holding[] = [];
  for (const { named, read } of overlappingClaims(target, context, fileNames)) {
    const inWay = inTheWay(named, read, mode, holder, context);
    if (!inWay) continue;
    const holding = withTarget(inWay, target.canonical);
    if (read.state === "claim" && target.kind === "glob" && shapeOf(read.claim.target).kind === "glob") holding.overlap = explainGlobs(target.canonical, read.claim.target);
    conflicts.push(holding);
  }
  // A glob claim that matched a symlink to this target when it was taken (src/protocol/aliases.ts);
  // a claim on another name of the same file (a hard link).
  for (const holding of [...linkConflicts(target, mode, holder, context), ...hardLinkConflicts(target, mode, holder, context, fileNames)]) {
    if (!conflicts.some((known) => known.holder === holding.holder && known.held_target === holding.held_target)) conflicts.push(holding);
  }
  return conflicts;
}

/**
 * A file with more than one name (`ln a.ts b.ts`, a package store's links) is one file under each:
 * a claim on another of its names is in the way as a claim on this one would be (a whole file and
 * any symbol of it; two symbols when they are the same), and so is a directory or glob claim that
 * holds or matches another name of it. Looked for only when the target's file has more than one
 * link, so a plain file costs one lstat; then every claimed file is compared by device and inode,
 * and the tree of every claimed directory or glob in the way walked (linkedUnder). A directory or
 * glob target is a file's other name for each file with links it holds or matches (hardLinksUnder):
 * against a claimed file in the way with more than one link, and against a claimed tree in the way
 * that holds another name of one of them.
 */
function hardLinkConflicts(target: TargetShape, mode: Mode, holder: string | undefined, context: Context, fileNames: string[]): Holding[] {
  if (target.kind === "directory" || target.kind === "glob") return hardLinksUnder(target, mode, holder, context, fileNames);
  if (target.kind !== "path" && target.kind !== "symbol") return [];
  const file = statOf(target.path);
  if (!file?.isFile() || file.nlink < 2) return [];
  const inode = `${file.dev}:${file.ino}`;
  const found: Holding[] = [];
  for (const fileName of fileNames) {
    const named = partsOfFileName(fileName).target;
    if (named === undefined || named === target.canonical) continue;
    const shape = shapeOf(named);
    if (shape.kind === "path" || shape.kind === "symbol") {
      if (shape.path === target.path || (target.kind === "symbol" && shape.kind === "symbol" && shape.symbol !== target.symbol)) continue;
      const other = statOf(shape.path);
      if (other === undefined || other.ino !== file.ino || other.dev !== file.dev) continue;
    } else if (shape.kind === "directory" ? target.path.startsWith(shape.path) : shape.kind !== "glob" || globMatches(named, target.path)) continue;
    const inWay = inTheWay(named, context.store.read(fileName), mode, holder, context);
    // A tree is walked only for a claim that is in the way, once per call.
    if (inWay && (shape.kind === "directory" || shape.kind === "glob") && !linkedHeldBy(shape, context).has(inode)) continue;
    if (inWay) found.push({ ...withTarget(inWay, target.canonical), overlap: `the same file as ${shape.kind === "path" || shape.kind === "symbol" ? named : `one ${shape.kind === "glob" ? "matched by" : "under"} ${named}`} (a hard link)` });
  }
  // A glob claim that matched a symlink to another name of the file, or to a directory holding one
  // (`links/*` with links/sl -> ../other/hl.ts, hl.ts a hard link of this file): it covers that name.
  for (const { marker, read } of everyGlobReach(context)) {
    const real = shapeOf(marker.real);
    const other =
      real.kind === "directory"
        ? (linkedUnder(real.path.replace(/(.)\/$/, "$1"), context).get(inode) ?? []).find((path) => path !== target.path)
        : (real.kind === "path" || real.kind === "symbol") && real.path !== target.path && sameInode(statOf(real.path), file)
          ? real.path
          : undefined;
    if (other === undefined) continue;
    const inWay = inTheWay(marker.glob, read, mode, holder, context);
    if (inWay && !found.some((known) => known.holder === inWay.holder && known.held_target === inWay.target)) {
      found.push({ ...withTarget(inWay, target.canonical), overlap: `the same file as ${other}, which ${marker.glob} covers through the symlink ${marker.link} (a hard link)` });
    }
  }
  return found;
}

function sameInode(a: Stats | undefined, b: Stats): boolean {
  return a !== undefined && a.isFile() && a.ino === b.ino && a.dev === b.dev;
}

/**
 * A directory or glob target holding (matching) another name of a claimed file in the way, or of a
 * file that a directory or glob claim in the way holds (matches) under another name (hardLinkConflicts).
 * Trees are walked only for claims in the way, and the claim's tree only when the target's own
 * holds a file with more than one link.
 */
function hardLinksUnder(target: TargetShape, mode: Mode, holder: string | undefined, context: Context, fileNames: string[]): Holding[] {
  const found: Holding[] = [];
  for (const fileName of fileNames) {
    const named = partsOfFileName(fileName).target;
    if (named === undefined) continue;
    const shape = shapeOf(named);
    if (shape.kind === "name") continue;
    const whole = shape.kind === "directory" || shape.kind === "glob";
    // A tree that meets the target's by name is in the way already (findConflicts).
    if (whole && overlaps(target, shape)) continue;
    const file = whole ? undefined : statOf(shape.path);
    if (!whole && (!file?.isFile() || file.nlink < 2)) continue;
    const inWay = inTheWay(named, context.store.read(fileName), mode, holder, context);
    if (!inWay) continue;
    const overlap = file ? sameFileAs(file, shape.path, linkedHeldBy(target, context), named) : treesShareFile(target, shape, named, context);
    if (overlap !== undefined) found.push({ ...withTarget(inWay, target.canonical), overlap });
  }
  // And what a glob claim covers through a symlink it matched: a file, or a directory, another name
  // of which the target holds (a claim on the place itself is met by name: linkConflicts).
  for (const { marker, read } of everyGlobReach(context)) {
    const real = shapeOf(marker.real);
    if (real.kind === "name" || real.kind === "glob" || overlaps(target, real)) continue;
    const file = real.kind === "directory" ? undefined : statOf(real.path);
    if (real.kind !== "directory" && (!file?.isFile() || file.nlink < 2)) continue;
    const inWay = inTheWay(marker.glob, read, mode, holder, context);
    if (!inWay || found.some((known) => known.holder === inWay.holder && known.held_target === inWay.target)) continue;
    const through = `${marker.glob}, through the symlink ${marker.link}`;
    const overlap = file ? sameFileAs(file, real.path, linkedHeldBy(target, context), through) : treesShareFile(target, real, through, context);
    if (overlap !== undefined) found.push({ ...withTarget(inWay, target.canonical), overlap });
  }
  return found;
}

/**
 * Whether two targets hold one file under two names (a hard link), as hardLinkConflicts judges a
 * claim in the way: a file and another name of it, a file and a tree holding (matching) another
 * name of it, two trees sharing one. For fencing (src/protocol/fencing.ts): a token on one is
 * above every token on the other. A file with one link costs one lstat; trees are walked only
 * where a file with more than one link is on the other side, or both sides are trees.
 */
export function sharesFile(target: TargetShape, other: TargetShape, context: Context): boolean {
  const fileKind = (shape: TargetShape) => shape.kind === "path" || shape.kind === "symbol";
  const treeKind = (shape: TargetShape) => shape.kind === "directory" || shape.kind === "glob";
  if (fileKind(target) && fileKind(other)) {
    if (target.path === other.path) return false;
    const [mine, theirs] = [statOf(target.path), statOf(other.path)];
    return mine !== undefined && theirs !== undefined && mine.isFile() && mine.nlink > 1 && mine.dev === theirs.dev && mine.ino === theirs.ino;
  }
  if (fileKind(target) !== fileKind(other) && (treeKind(target) || treeKind(other))) {
    const [file, tree] = fileKind(target) ? [target, other] : [other, target];
    const stats = statOf(file.path);
    return stats !== undefined && stats.isFile() && stats.nlink > 1 && sameFileAs(stats, file.path, linkedHeldBy(tree, context), file.canonical) !== undefined;
  }
  return treeKind(target) && treeKind(other) && !overlaps(target, other) && treesShareFile(target, other, other.canonical, context) !== undefined;
}

/** How a tree holds another name of a claimed file, said for a refusal; undefined when it does not. */
function sameFileAs(file: Stats, path: string, mine: Map<string, string[]>, named: string): string | undefined {
  const other = (mine.get(`${file.dev}:${file.ino}`) ?? []).find((each) => each !== path);
  return other === undefined ? undefined : `${other} is the same file as ${named} (a hard link)`;
}

/**
 * How two claimed trees hold one file under two names, said for a refusal; undefined when they do
 * not. Dependencies and caches (NOT_SEARCHED) aside on both sides: a package manager links one
 * stored file into every project's `.venv` or `node_modules`, which no session edits.
 */
function treesShareFile(target: TargetShape, claimed: TargetShape, named: string, context: Context): string | undefined {
  if (inNotSearched(target.path) || inNotSearched(claimed.path)) return undefined;
  // A hard link never crosses a file system: trees on two (or one not there) share no file. (A
  // mount inside either tree is walked all the same.)
  const [mineAt, theirsAt] = [statOf(target.path), statOf(claimed.path)];
  if (mineAt === undefined || theirsAt === undefined || (mineAt.dev !== theirsAt.dev && !hasMountsBelow(target.path, claimed.path))) return undefined;
  const mine = linkedHeldBy(target, context, true);
  if (mine.size === 0) return undefined;
  const theirs = linkedHeldBy(claimed, context, true);
  for (const [inode, paths] of mine) {
    const other = theirs.get(inode)?.find((path) => !paths.includes(path));
    if (other !== undefined) return `${paths[0]} is the same file as ${other}, ${claimed.kind === "glob" ? "matched by" : "under"} ${named} (a hard link)`;
  }
  return undefined;
}

/** The files with more than one link that a directory holds or a glob matches, by `dev:ino` (`apart`: NOT_SEARCHED directories left out). */
function linkedHeldBy(whole: TargetShape, context: Context, apart = false): Map<string, string[]> {
  const under = linkedUnder(whole.path.replace(/(.)\/$/, "$1"), context, apart);
  if (whole.kind === "directory") return under;
  const matched = new Map<string, string[]>();
  for (const [inode, paths] of under) {
    const held = paths.filter((path) => globMatches(whole.canonical, path));
    if (held.length > 0) matched.set(inode, held);
  }
  return matched;
}


/**
 * The files with more than one link under a directory, by `dev:ino`, with their paths, walked
 * once per call (20,000 entries at most: a tree past that is not searched further, rather than
 * refusing every write of a package store's linked files beside it).
 */
function linkedUnder(directory: string, context: Context, apart = false): Map<string, string[]> {
  const walked = (WALKED.get(context) ?? WALKED.set(context, new Map()).get(context)) as Map<string, Map<string, string[]>>;
  const key = `${apart ? "apart" : "all"} ${directory}`;
  const known = walked.get(key);
  if (known) return known;
  const inodes = new Map<string, string[]>();
  walked.set(key, inodes);
  // Paths as canonical targets spell them: folded below a directory that ignores case.
  const caseless = isCaselessDirectory(directory);
  walkTree(directory, { entries: 20_000, ...(apart && { skip: NOT_SEARCHED }) }, (entry, at) => {
    if (!entry.isFile()) return;
    const found = join(at, entry.name);
    const path = caseless ? directory + foldName(found.slice(directory.length)) : found;
    const stats = statOf(path);
    if (stats === undefined || stats.nlink < 2) return;
    const key = `${stats.dev}:${stats.ino}`;
    inodes.set(key, [...(inodes.get(key) ?? []), path]);
  });
  return inodes;
}

const WALKED = new WeakMap<Context, Map<string, Map<string, string[]>>>();

/** Whether a file system is mounted below either directory (or that cannot be told: /proc unread). */
function hasMountsBelow(...directories: string[]): boolean {
  const points = mountPoints();
  if (points === undefined) return true;
  return directories.some((directory) => {
    const below = `${directory.replace(/\/$/, "")}/`;
    return points.some((point) => point.startsWith(below));
  });
}

/**
 * The mount table (read at most once a second: src/os/mounts.ts), with the roots of file systems
 * that ignore case folded, as the paths of canonical targets below their mount points are
 * (a bind of `/Proj` shows what targets name `…/proj`). Undefined when /proc cannot be read.
 */
function mountsOf(): Mount[] | undefined {
  const mounts = readMounts();
  if (mounts === undefined) return undefined;
  let folded = FOLDED.get(mounts);
  if (folded === undefined) {
    const seen = new Map<string, number>();
    for (const { device } of mounts) seen.set(device, (seen.get(device) ?? 0) + 1);
    // Only a file system mounted twice has other names to compare: only its mount points are asked.
    folded = mounts.map((mount) => ((seen.get(mount.device) ?? 0) > 1 && mount.root !== "/" && isCaselessDirectory(mount.point) ? { ...mount, root: foldName(mount.root) } : mount));
    FOLDED.set(mounts, folded);
  }
  return folded;
}

const FOLDED = new WeakMap<Mount[], Mount[]>();

/** What `target` names under the other mount points of its file system (src/targets/bind-mounts.ts), by the mount table of the moment; `samePlace`: only the same place, not parts of its tree. */
export function boundAliasesOf(target: TargetShape, samePlace = false): TargetShape[] {
  return boundAliases(target, mountsOf(), samePlace);
}

function mountPoints(): string[] | undefined {
  return mountsOf()?.map((mount) => mount.point);
}

function statOf(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** A holding in the way, and the glob's symlink it is in the way through, if any. */
export interface Conflict {
  holding: Holding;
  link?: string;
}

/**
 * Who is in the way of `target`, where its symlinks lead included: a glob covers the real files
 * and directories the symlinks it matched lead to (docs/PROTOCOL.md 5a, src/protocol/aliases.ts),
 * so whoever is in the way of one of those is in the glob's way. `links` are the glob's links as
 * the caller knows them: a take or a grant finds them as it takes (symlinksMatched); a beat reads
 * back the ones its take found (linksOf). The conflicts of the target itself come first, each
 * holding as findConflicts names it; a conflict through a link carries the link, and its holding
 * is named for the real target.
 */
export function findConflictsWithLinks(
  target: TargetShape,
  links: readonly Link[],
  mode: Mode,
  holder: string | undefined,
  context: Context,
  fileNames: string[],
): Conflict[] {
  return [
    ...findConflicts(target, mode, holder, context, fileNames).map((holding) => ({ holding })),
    ...links.flatMap(({ link, real }) => findConflicts(real, mode, holder, context, fileNames).map((holding) => ({ holding, link }))),
  ];
}

/**
 * A conflict as a refusal of the glob names it: one through a link names the glob asked for, the
 * claim in the way of the real target (`held_target`) and the link (`overlap`), as a glob's marker
 * does for the real target (linkConflicts).
 */
export function refusalOf(requested: string, { holding, link }: Conflict): Holding {
  if (link === undefined) return holding;
  return { ...holding, target: requested, held_target: holding.held_target ?? holding.target, overlap: `through the symlink ${link}` };
}

/**
 * Two globs conflict when one path can match both (src/targets/overlap.ts decides, conservatively).
 * For the refusal, name a file that exists and matches both when there is one (fast-glob, loaded
 * only here); otherwise say the conflict is about paths not created yet.
 */
function explainGlobs(a: string, b: string): string {
  const require = createRequire(import.meta.url);
  const fastGlob = require("fast-glob") as typeof import("fast-glob");
  const [narrow, wide] = picomatch.scan(a).base.length >= picomatch.scan(b).base.length ? [a, b] : [b, a];
  // Past 64 brace alternatives, or with a range, no example is looked for (30 groups of two held a
  // take and its take lock for minutes), as overlap compares such globs by base.
  if (!fewBraceAlternatives(narrow)) return NO_EXAMPLE;
  const { base, glob } = picomatch.scan(narrow);
  const matchesWide = matcher(wide);
  try {
    const witness = fastGlob
      .sync(glob, { cwd: base || "/", absolute: true, dot: true, onlyFiles: false, followSymbolicLinks: false, suppressErrors: true, deep: 12 })
      .find((path) => matchesWide(path));
    if (witness) return `both match ${witness}`;
  } catch {
    // an unreadable tree only costs the example
  }
  return NO_EXAMPLE;
}

const NO_EXAMPLE = "no existing file matches both, but a path created later could";

/** A refusal names the target asked for; when the claim in the way is on another target, that one too. */
function withTarget(holding: Holding, requested: string): Holding {
  if (holding.target === requested) return holding;
  return { ...holding, target: requested, held_target: holding.target };
}
