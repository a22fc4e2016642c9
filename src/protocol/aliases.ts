// Symlinks under a glob. A glob is matched on its spelled text, under its resolved static base, but
// a file it matches may be a symlink to a file elsewhere (`node_modules/.bin/tsc` ->
// `../typescript/bin/tsc`): writing through the link writes the other file. So a glob also covers
// the real paths of the symlinks it matches when it is taken:
//
// - the take refuses when another holder's fresh claim covers one of those real paths, and
// - for every such link it leaves an alias marker in `.aliases/`, named by the real path, so a
//   later take or check of the real path finds the glob claim from names alone, as it finds claims.
//
// A marker is a hint that points at the glob's claim file: it counts only while that claim exists
// and still names the glob; the claim's holder, freshness and mode decide, as for any claim. A
// symlink created after the take is not covered (claim the real file, or its directory).
import { chmodSync, mkdirSync, readdirSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { picomatch } from "../targets/picomatch.js";
import { freshnessOf, modeOf, type Mode } from "./claim.js";
import { readSnapshot, removeQuietly, replaceFile } from "../os/files.js";
import { sha256Hex } from "../os/hash.js";
import { globReachesInto, overlaps, shapeOf, type TargetShape } from "../targets/overlap.js";
import { holdingOf, type Context, type Holding } from "./context.js";
import { canonicalPath, percentEncode, parseTarget } from "../targets/target.js";

export const ALIASES_DIRECTORY = ".aliases";

/** A symlink a glob matches, and the real target it leads to. */
export interface Link {
  /** The link as the glob spells it. */
  link: string;
  /** The real file or directory, as a target. */
  real: TargetShape;
}

/** How far the search for links goes: a glob over a huge tree must not stall a take. */
const MAX_DEPTH = 12;
const MAX_ENTRIES = 20_000;

/**
 * The symlinks among the existing entries the glob matches (or can reach through, for a link to a
 * directory) whose real path the glob does not match itself. A walk from the glob's base that
 * enters only directories the glob can reach into, matched with picomatch (no brace expansion),
 * at most 12 levels deep and 20,000 entries.
 */
export function symlinksMatched(glob: TargetShape, home: string): Link[] {
  const matches = picomatch(glob.canonical, { dot: true });
  const links: Link[] = [];
  let budget = MAX_ENTRIES;
  const walk = (directory: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return; // unreadable or gone: no links we can see
    }
    for (const entry of entries) {
      if (--budget < 0) return;
      const path = directory === "/" ? `/${entry.name}` : `${directory}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        if (!matches(path) && !globReachesInto(glob.canonical, `${path}/`)) continue;
        const real = canonicalPath(path, "/");
        if (real === path || matches(real)) continue;
        links.push({ link: path, real: parseTarget(real, { cwd: "/", home }, true) });
      } else if (entry.isDirectory() && depth < MAX_DEPTH && globReachesInto(glob.canonical, `${path}/`)) {
        walk(path, depth + 1);
      }
    }
  };
  walk(glob.path.replace(/(.)\/$/, "$1"), 0);
  return links;
}

export interface Marker {
  /** The glob's claim file. */
  claim: string;
  glob: string;
  link: string;
  real: string;
}

/** Leaves a marker per link, so a take or check of the real path finds the glob claim. Call under the take lock. */
export function rememberLinks(glob: string, claimFile: string, links: Link[], context: Context): void {
  if (links.length === 0) return;
  const directory = join(context.store.dir, ALIASES_DIRECTORY);
  const groupShared = (context.store.fileMode & 0o070) !== 0;
  try {
    mkdirSync(directory, { mode: groupShared ? 0o2770 : 0o700 });
    if (groupShared) chmodSync(directory, 0o2770); // as the claims directory itself: the umask must not narrow it
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  for (const { link, real } of links) {
    const marker: Marker = { claim: claimFile, glob, link, real: real.canonical };
    const name = `${regionOf(real).slice(0, 150)}+${sha256Hex(`${real.canonical}\n${claimFile}`).slice(0, 16)}`;
    replaceFile(directory, join(directory, name), `${JSON.stringify(marker)}\n`, context.store.fileMode);
  }
}

/**
 * The markers whose real path overlaps `target`: found by name (a prefix of the encoded real path
 * on either side; a shortened name errs towards reading), then read.
 */
export function markersReaching(target: TargetShape, context: Context): Marker[] {
  if (target.kind === "name") return [];
  const ours = regionOf(target);
  return markerNames(context)
    .filter((name) => {
      const theirs = name.slice(0, name.lastIndexOf("+"));
      return theirs.startsWith(ours) || ours.startsWith(theirs);
    })
    .flatMap((name) => {
      const marker = readMarker(join(context.store.dir, ALIASES_DIRECTORY, name));
      return marker && overlaps(target, shapeOf(marker.real)) && stillLeadsThere(marker) ? [marker] : [];
    });
}

/** The link still exists and resolves to the real path it did: a removed or re-pointed link covers nothing. */
function stillLeadsThere(marker: Marker): boolean {
  return canonicalPath(marker.link, "/") === shapeOf(marker.real).path.replace(/(.)\/$/, "$1");
}

/**
 * Markers that count for nothing any more: their glob's claim file is gone or names another target,
 * or their link no longer leads where it did. Call under the take lock (a glob take writes its
 * markers, under that lock, before its claim), and remove them with removeMarker.
 */
export function leftoverMarkers(context: Context): string[] {
  return markerNames(context).filter((name) => {
    const marker = readMarker(join(context.store.dir, ALIASES_DIRECTORY, name));
    if (!marker) return true;
    const read = context.store.read(marker.claim);
    return read.state !== "claim" || read.claim.target !== marker.glob || !stillLeadsThere(marker);
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
 * The symlinks a glob's claim matched when it was taken, read back from the markers that take left;
 * only those that still lead where they did: a removed or re-pointed link covers nothing, as
 * markersReaching says to a take or check of the real file.
 */
export function linksOf(claimFile: string, glob: string, context: Context): Link[] {
  return markersOf(claimFile, context)
    .filter((marker) => marker.glob === glob && stillLeadsThere(marker))
    .map(linkOf);
}

/**
 * Every symlink the takes of a glob matched, exclusive or shared (each has its own claim file), as
 * their markers recorded it, whether or not it still leads there: what the glob's tokens fenced
 * (src/protocol/fencing.ts), as a token stands for every write its holding covered when it was
 * issued.
 */
export function linksTakenWith(glob: string, context: Context): Link[] {
  return markerNames(context).flatMap((name) => {
    const marker = readMarker(join(context.store.dir, ALIASES_DIRECTORY, name));
    return marker && marker.glob === glob ? [linkOf(marker)] : [];
  });
}

function linkOf({ link, real }: Marker): Link {
  return { link, real: shapeOf(real) };
}

function markerNames(context: Context): string[] {
  try {
    return readdirSync(join(context.store.dir, ALIASES_DIRECTORY));
  } catch {
    return []; // no glob ever matched a symlink here
  }
}

/** Fresh glob claims of other holders that reach `target` through a symlink they matched when taken. */
export function linkConflicts(target: TargetShape, mode: Mode, holder: string | undefined, context: Context): Holding[] {
  const conflicts: Holding[] = [];
  for (const marker of markersReaching(target, context)) {
    const read = context.store.read(marker.claim);
    if (read.state !== "claim" || read.claim.target !== marker.glob) continue; // released: the marker is a leftover
    const { claim } = read;
    if (holder !== undefined && claim.holder === holder) continue;
    if (mode === "shared" && modeOf(claim) === "shared") continue;
    if (freshnessOf(claim, context.nowMs, context.settings.judgeTtl, read.mtimeMs, context.clockOffsetMs !== undefined).stale) continue;
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
    return typeof marker.claim === "string" && typeof marker.real === "string" && typeof marker.glob === "string" ? marker : undefined;
  } catch {
    return undefined;
  }
}
