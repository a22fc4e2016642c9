// Symlinks under a glob. A glob is matched on its spelled text, under its resolved static base, but
// a file it matches may be a symlink to a file elsewhere (`node_modules/.bin/tsc` ->
// `../typescript/bin/tsc`): writing through the link writes the other file. So a glob also covers
// the real paths of the symlinks it matches when it is taken:
//
// - the take refuses when another holder's fresh claim covers one of those real paths, and
// - for every such link it leaves an alias marker in `.aliases/`, named by the real path, so a
//   later take or check of the real path finds the glob claim from names alone, as it finds claims.
//
// A marker is a hint that points at the glob's claim file: in the way of a take or check it counts
// only while that claim exists and still names the glob, the marker covers, and the link still
// leads to the real path; the claim's holder, freshness and mode decide, as for any claim. A
// symlink created after the take is not covered, not even by a re-take, which keeps its token
// (claim the real file, or its directory, or take the glob afresh).
//
// A marker is also the record, for fencing tokens (src/protocol/fencing.ts), that the glob's
// holdings reached the real path: the glob's tokens and the real path's count against each other
// through it, whatever becomes of the link or the glob. A coverage that ended (`ended`: the link
// was gone or led elsewhere when a token was issued on the glob or where it led) relates only the
// tokens issued until then, so a later holding on either side is not fenced by the other. Sweep
// removes a marker once no claim on anything overlapping its glob or its real path is left.
import { join } from "node:path";
import { modeOf, type Claim, type Mode } from "./claim.js";
import { listedIfThere, readSnapshot, removeQuietly, replaceFile } from "../os/files.js";
import { sha256Hex } from "../os/hash.js";
import { WALK_LIMITS, walkGlob } from "../targets/glob-walk.js";
import { matcher, overlaps, reachesNothingMoreThrough, shapeOf, type TargetShape } from "../targets/overlap.js";
import { BadInputError } from "../os/errors.js";
import { holdingOf, othersFreshness, type Context, type Holding } from "./context.js";
import type { ClaimRead } from "./store.js";
import { canonicalPath, partsOfFileName, percentEncode, parseTarget } from "../targets/target.js";

export const ALIASES_DIRECTORY = ".aliases";

/** A symlink a glob matches, and the real target it leads to. */
export interface Link {
  /** The link as the glob spells it. */
  link: string;
  /** The real file or directory, as a target. */
  real: TargetShape;
}

/**
 * The symlinks among the existing entries the glob matches (or can reach through, for a link to a
 * directory) whose real path the glob does not match itself, found by the bounded walk of
 * src/targets/glob-walk.ts.
 */
export function symlinksMatched(glob: TargetShape, home: string): Link[] {
  return symlinksSeen(glob, home).links;
}

/**
 * symlinksMatched, and whether the walk saw everything the glob can reach (false: stopped at its
 * depth or entry limit, so a symlink past it is not among them; docs/PROTOCOL.md 5a).
 */
export function symlinksSeen(glob: TargetShape, home: string): { links: Link[]; complete: boolean } {
  const matches = matcher(glob.canonical);
  const links: Link[] = [];
  const complete = walkGlob(glob, ({ path, entry }) => {
    if (!entry.isSymbolicLink()) return;
    const real = realPathOf(path);
    // A link in a loop of links leads nowhere: nothing is written through it (the kernel says ELOOP).
    if (real === undefined || real === path || matches(real)) return;
    // A link back to a directory above it (`src/loop -> .`) leads to what the glob matches itself.
    if (reachesNothingMoreThrough(glob.canonical, path, real)) return;
    links.push({ link: path, real: parseTarget(real, { cwd: "/", home }, true) });
  });
  return { links, complete };
}

/** What a take or check of a glob says when its walk for symlinks stopped short (symlinksSeen). */
export function walkCutShortNote(glob: string): string {
  return `the search for symlinks ${glob} matches stopped at ${WALK_LIMITS}: what a symlink past that leads to is neither covered nor checked (claim such files by their own paths)`;
}

export interface Marker {
  /** The glob's claim file. */
  claim: string;
  glob: string;
  link: string;
  real: string;
  /**
   * Set when the glob's coverage of the real path through this link ended: the highest tokens
   * issued on (or overlapping) the real path and on the glob then. The marker covers nothing, and
   * relates for fencing only the tokens up to these.
   */
  ended?: { real: number; glob: number };
}

/**
 * Leaves a marker per link the take covers, so a take or check of the real path finds the glob
 * claim. A take that issues the glob a token (the claim file does not hold the glob with one yet)
 * covers every link it matched: its token will be above every token where they lead
 * (src/protocol/fencing.ts counts the markers). A take that finds the glob already held with a
 * token (a re-take, which keeps it, or a takeover of a stale claim) covers no link its holding did
 * not cover already: that token may be below one issued where a new link leads, and covering the
 * file under it would let the file's lapsed holder write after the glob. Its writes through such a
 * link are writes of the file, which need a claim of their own (the hooks take one). Nor does it
 * cover again a link whose coverage ended. Call under the take lock, before the take writes its
 * claim.
 */
export function rememberLinks(glob: string, claimFile: string, links: Link[], context: Context): void {
  if (links.length === 0) return;
  const directory = context.store.subdirectory(ALIASES_DIRECTORY);
  const held = context.store.read(claimFile);
  const issuing = !(held.state === "claim" && held.claim.target === glob && typeof held.claim.token === "number");
  for (const { link, real } of links) {
    const name = `${regionOf(real).slice(0, 150)}+${sha256Hex(`${real.canonical}\n${claimFile}`).slice(0, 16)}`;
    const marker: Marker = { claim: claimFile, glob, link, real: real.canonical };
    if (issuing) {
      writeMarker(name, marker, context);
      continue;
    }
    const known = readMarker(join(directory, name));
    if (known && !known.ended && known.glob === glob) writeMarker(name, marker, context); // still covered: as the link is now
  }
}

/**
 * The markers that cover a real path overlapping `target`: what is in the way of a take or check of
 * the target (linkConflicts). A removed or re-pointed link covers nothing.
 */
function markersReaching(target: TargetShape, context: Context): Marker[] {
  return recordedFor(target, context).flatMap(({ marker }) => (covering(marker) ? [marker] : []));
}

/**
 * Every marker whose real path overlaps `target`, covering or not, the glob held or not: the record
 * that takes of that glob reached the target, which fencing counts (up to `ended`, where set).
 */
export function markersRecordedFor(target: TargetShape, context: Context): Marker[] {
  return recordedFor(target, context).map(({ marker }) => marker);
}

/**
 * The markers whose real path overlaps `target` that still cover it although their link is removed
 * or re-pointed: a token about to be issued there ends their coverage (src/protocol/fencing.ts,
 * endCoverage), so the link coming back does not make the glob cover, under its older token, what
 * the new one was issued for.
 */
export function movedMarkers(target: TargetShape, context: Context): Array<{ name: string; marker: Marker }> {
  return recordedFor(target, context).filter(({ marker }) => !marker.ended && !leadsThere(marker));
}

/** Ends a marker's coverage, recording the highest tokens issued on each side until then. Call under the take lock. */
export function endCoverage(name: string, marker: Marker, ended: { real: number; glob: number }, context: Context): void {
  writeMarker(name, { ...marker, ended }, context);
}

function recordedFor(target: TargetShape, context: Context): Array<{ name: string; marker: Marker }> {
  if (target.kind === "name") return [];
  const ours = regionOf(target);
  return markerNames(context)
    .filter((name) => {
      const theirs = name.slice(0, name.lastIndexOf("+"));
      return theirs.startsWith(ours) || ours.startsWith(theirs);
    })
    .flatMap((name) => {
      const marker = readMarker(join(context.store.dir, ALIASES_DIRECTORY, name));
      return marker && overlaps(target, shapeOf(marker.real)) ? [{ name, marker }] : [];
    });
}

function writeMarker(name: string, marker: Marker, context: Context): void {
  const directory = join(context.store.dir, ALIASES_DIRECTORY);
  replaceFile(directory, join(directory, name), `${JSON.stringify(marker)}\n`, context.store.fileMode);
}

/** The link still exists and resolves to the real path it did. */
function leadsThere(marker: Marker): boolean {
  return realPathOf(marker.link) === shapeOf(marker.real).path.replace(/(.)\/$/, "$1");
}

/** Where a link leads, or undefined when it leads nowhere: into a loop of links, or past a name too long. */
function realPathOf(link: string): string | undefined {
  try {
    return canonicalPath(link, "/");
  } catch (error) {
    if (error instanceof BadInputError) return undefined;
    throw error;
  }
}

/** The marker covers its real path for its glob's claim: its coverage did not end, and the link still leads there. */
function covering(marker: Marker): boolean {
  return !marker.ended && leadsThere(marker);
}

/**
 * Markers that count for nothing any more: unreadable, or with no claim left on anything
 * overlapping their glob or their real path. Such a claim's token may still be fenced through the
 * marker (a lapsed holder of the file by a glob that reached it, or a lapsed glob by a take of the
 * file), even when the link is gone or the glob released; once none is left, every token the
 * marker could weigh against belongs to a claim that is gone, and a later take of either side is
 * a new holding. Call under the take lock (a glob take writes its markers, under that lock, before
 * its claim, and no claim is created without it), and remove them with removeMarker.
 */
export function leftoverMarkers(context: Context): string[] {
  const names = markerNames(context);
  if (names.length === 0) return [];
  // The target of every claim left; undefined: unknown (an unreadable file with a shortened name), which may overlap anything.
  const claimed = context.store.list().map(({ fileName, read }) => {
    const target = read.state === "claim" ? read.claim.target : partsOfFileName(fileName).target;
    return target === undefined ? undefined : shapeOf(target);
  });
  return names.filter((name) => {
    const marker = readMarker(join(context.store.dir, ALIASES_DIRECTORY, name));
    if (!marker) return true;
    const sides = [shapeOf(marker.glob), shapeOf(marker.real)];
    return !claimed.some((target) => target === undefined || sides.some((side) => overlaps(side, target)));
  });
}

export function removeMarker(name: string, context: Context): boolean {
  return removeQuietly(join(context.store.dir, ALIASES_DIRECTORY, name));
}

/** The markers a glob's claim file left (all markers are read: only a glob take with links asks). */
export function markersOf(claimFile: string, context: Context): Marker[] {
  return markerNames(context).flatMap((name) => {
    const marker = readMarker(join(context.store.dir, ALIASES_DIRECTORY, name));
    return marker && marker.claim === claimFile ? [marker] : [];
  });
}

/**
 * The symlinks a glob's claim covers, read back from the markers its takes left: a removed or
 * re-pointed link covers nothing, as markersReaching says to a take or check of the real file.
 */
export function linksOf(claimFile: string, glob: string, context: Context): Link[] {
  return markersOf(claimFile, context)
    .filter((marker) => marker.glob === glob && covering(marker))
    .map(({ link, real }) => ({ link, real: shapeOf(real) }));
}

/**
 * Every symlink takes of a glob matched, exclusive or shared, as their markers recorded it, covering
 * or not, the glob held or not: what the glob's tokens count (src/protocol/fencing.ts), a token
 * standing for every write its holding covered. `until`: the highest token on the real path the
 * glob's holdings covered it for (`ended`), or Infinity while the marker covers. Counted alike from
 * the other side (markersRecordedFor).
 */
export function linksTakenWith(glob: string, context: Context): Array<Link & { until: number }> {
  return markerNames(context).flatMap((name) => {
    const marker = readMarker(join(context.store.dir, ALIASES_DIRECTORY, name));
    return marker && marker.glob === glob ? [{ link: marker.link, real: shapeOf(marker.real), until: marker.ended?.real ?? Number.POSITIVE_INFINITY }] : [];
  });
}

function markerNames(context: Context): string[] {
  return listedIfThere(join(context.store.dir, ALIASES_DIRECTORY)); // none: no glob ever matched a symlink here
}

/** Fresh glob claims of other holders that reach `target` through a symlink they matched when taken. */
/**
 * The glob claims whose markers cover a real path overlapping `target`, each with its marker: what
 * a glob covers through its symlinks (a marker whose claim is gone or names another target is a
 * leftover, and left out).
 */
export function globClaimsReaching(target: TargetShape, context: Context): Array<{ marker: Marker; claim: Claim; mtimeMs: number }> {
  return markersReaching(target, context).flatMap((marker) => {
    const read = context.store.read(marker.claim);
    return read.state === "claim" && read.claim.target === marker.glob ? [{ marker, claim: read.claim, mtimeMs: read.mtimeMs }] : [];
  });
}

/**
 * Every glob claim with the real paths it covers through the symlinks it matched (each covering
 * marker whose claim still names its glob), wherever they lead: a file with more than one name is
 * covered under each (src/protocol/conflicts.ts, hardLinkConflicts). Reads every marker: asked
 * only for a file with more than one link, or a tree holding one.
 */
export function everyGlobReach(context: Context): Array<{ marker: Marker; read: ClaimRead }> {
  return markerNames(context).flatMap((name) => {
    const marker = readMarker(join(context.store.dir, ALIASES_DIRECTORY, name));
    if (marker === undefined || !covering(marker)) return [];
    const read = context.store.read(marker.claim);
    return read.state === "claim" && read.claim.target !== marker.glob ? [] : [{ marker, read }];
  });
}

export function linkConflicts(target: TargetShape, mode: Mode, holder: string | undefined, context: Context): Holding[] {
  const conflicts: Holding[] = [];
  for (const { marker, claim, mtimeMs } of globClaimsReaching(target, context)) {
    if (holder !== undefined && claim.holder === holder) continue;
    if (mode === "shared" && modeOf(claim) === "shared") continue;
    if (othersFreshness(claim, mtimeMs, context).stale) continue;
    conflicts.push({ ...holdingOf(claim, context), target: target.canonical, held_target: claim.target, overlap: `through the symlink ${marker.link}` });
  }
  return conflicts;
}

/** The real path a target covers (a glob: its base), encoded, without a trailing slash. */
function regionOf(target: TargetShape): string {
  return percentEncode(target.path.replace(/\/$/, ""));
}

function readMarker(path: string): Marker | undefined {
  const snapshot = readSnapshot(path);
  if (snapshot.kind !== "file") return undefined;
  try {
    const marker = JSON.parse(snapshot.bytes.toString("utf8")) as Marker;
    if (typeof marker.claim !== "string" || typeof marker.real !== "string" || typeof marker.glob !== "string" || typeof marker.link !== "string") return undefined;
    const { ended } = marker as { ended?: unknown };
    if (ended === undefined) return marker;
    // An ended coverage whose levels cannot be read relates every token: the safe reading.
    const levels = ended as { real?: unknown; glob?: unknown } | null;
    const level = (value: unknown) => (typeof value === "number" && value >= 0 ? value : Number.POSITIVE_INFINITY);
    return { ...marker, ended: { real: level(levels?.real), glob: level(levels?.glob) } };
  } catch {
    return undefined;
  }
}
