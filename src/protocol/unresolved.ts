// Paths claimed before they were there. A path target is canonical by where its existing part
// leads when it is taken (docs/PROTOCOL.md 2): `later/f.txt`, taken while `later` does not exist,
// is claimed by that text. Should `later` then appear as a symlink to `real` (or a directory on the
// way be replaced by one), the file has a second spelling, `real/f.txt`, whose claim file is
// another: by names alone, a take of it would be granted beside the first, two holders of one file.
//
// So a claim whose place (the file, the directory, a glob's static base, a symbol's file) did not
// wholly exist as written when it was taken leaves an entry in `.unresolved/`, named as its claim
// file, made under the take lock before the claim is written. Every take, check and hook write
// resolves those few places again, and a claim whose place leads elsewhere now covers where it
// leads too: in the way of another holder there, and its own holder's under either spelling. A
// claim on a path that existed when taken is not looked at again (every take would have to resolve
// every claim): see docs/PROTOCOL.md 5a, "Paths not there when claimed".
import { closeSync, constants, existsSync, lstatSync, openSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "./context.js";
import type { ClaimRead } from "./store.js";
import { fsyncDirectory, listedIfThere, ownAsDirectory, readSnapshot, removeQuietly, touchWhenOld } from "../os/files.js";
import { BadInputError } from "../os/errors.js";
import { escapeLiteral, shapeOf, type TargetShape } from "../targets/overlap.js";
import { leadTable, partsOfFileName, resolvedNow } from "../targets/target.js";
import { lookupTable, remembered } from "../os/lookups.js";

export const UNRESOLVED_DIRECTORY = ".unresolved";

/** A claim whose place leads elsewhere now than its target says. */
export interface Moved {
  fileName: string;
  /** The claim's target, as it was taken (its file's name). */
  target: string;
  read: ClaimRead;
  /** The same claim where its place leads now. */
  now: TargetShape;
}

/** What a target's claim stands on: a file, a directory (without its `/`), a glob's static base, a symbol's file. */
function placeOf(shape: TargetShape): string {
  return shape.kind === "directory" && shape.path !== "/" ? shape.path.slice(0, -1) : shape.path;
}

/**
 * Where `place` leads now (src/targets/target.ts, resolvedNow); undefined for nowhere (a loop of
 * links). `remember`: as the verb found it already, inside the take lock (false: asked anew).
 */
function leadsNow(place: string, remember = true): string | undefined {
  try {
    return resolvedNow(place, remember);
  } catch (error) {
    if (error instanceof BadInputError) return undefined;
    throw error;
  }
}

function there(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/**
 * The target re-spelled where its place leads now; undefined when it leads where its text says
 * (or nowhere). `parents`: where directories led, remembered across one listing's entries.
 */
export function whereNow(shape: TargetShape, parents?: Map<string, string | undefined>): TargetShape | undefined {
  if (shape.kind === "name") return undefined;
  const place = placeOf(shape);
  let now: string | undefined;
  const cut = place.lastIndexOf("/");
  if (parents !== undefined && cut > 0) {
    // Entries share directories: each is resolved once, and a place whose directory leads where it
    // says, and which is no symlink itself, leads where it says.
    const parent = place.slice(0, cut);
    if (!parents.has(parent)) parents.set(parent, leadsNow(parent));
    let link = false;
    try {
      link = parents.get(parent) === parent && lstatSync(place, { throwIfNoEntry: false })?.isSymbolicLink() === true;
    } catch {
      link = true; // could not be asked: resolved whole
    }
    now = parents.get(parent) === parent && !link ? place : leadsNow(place);
  } else now = leadsNow(place);
  if (now === undefined || now === place) return undefined;
  const spelled = now === "/" ? "" : escapeLiteral(now);
  switch (shape.kind) {
    case "directory":
      return shapeOf(`${spelled}/`);
    case "symbol":
      return shapeOf(`${spelled}#${shape.symbol}`);
    case "glob": {
      const base = place === "/" ? "" : escapeLiteral(place);
      if (!shape.canonical.startsWith(`${base}/`)) return undefined;
      return shapeOf(`${spelled}${shape.canonical.slice(base.length)}`);
    }
    default:
      return shapeOf(now === "/" ? "/" : spelled);
  }
}

/**
 * Leaves the entry of a claim about to be written on `target` (its file `claimFile`) when the
 * target's place does not wholly exist as written (or leads elsewhere already: a symlink made
 * while the take waited for its take lock). Call under the take lock, before the claim is written,
 * so that a take or check that sees the claim sees its entry. Durable as the claim is: the entry's
 * directory is fsynced when the entry is made.
 */
export function rememberUnresolved(target: string, claimFile: string, context: Context): void {
  const shape = shapeOf(target);
  if (shape.kind === "name") return;
  const place = placeOf(shape);
  // Asked anew, not as the take's look found it moments ago: a symlink made since on the path of a
  // place not there then must not make it look there as written (its claim would go unseen).
  if (leadsNow(place, false) === place && there(place)) return;
  const entry = join(context.store.dir, UNRESOLVED_DIRECTORY, claimFile);
  if (existsSync(entry)) {
    touchUnresolved(claimFile, context); // taken anew (taken over, granted): kept young as by a renewal
    return;
  }
  const directory = context.store.subdirectory(UNRESOLVED_DIRECTORY);
  try {
    // Empty: the name is the record. O_EXCL + O_NOFOLLOW: never through something already there.
    const made = openSync(entry, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, context.store.fileMode);
    ownAsDirectory(made, directory);
    closeSync(made);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  LISTED.delete(directory);
  // The entry is durable before its claim is linked; `.unresolved` itself, made in the claims
  // directory before the claim's link, is made durable by the fsync that follows that link.
  fsyncDirectory(directory);
}

/**
 * The claims with an entry whose place leads elsewhere now, each read. The names decide which:
 * only those that moved are read. `gone`: also the entries kept after their claim file is gone
 * (read `missing`; leftoverUnresolved), whose tokens still count (src/protocol/fencing.ts).
 */
export function movedClaims(context: Context, gone = false): Moved[] {
  const directory = join(context.store.dir, UNRESOLVED_DIRECTORY);
  const names = remembered(LISTED, directory, () => listedIfThere(directory));
  if (names.length === 0) return [];
  const parents = new Map<string, string | undefined>();
  const moved: Moved[] = [];
  for (const fileName of names) {
    if (!fileName.endsWith(".json") || fileName.startsWith(".")) continue; // a claim file's name (Store's isClaimFileName)
    let target = remembered(TARGET_OF, fileName, () => partsOfFileName(fileName).target);
    let read: ClaimRead | undefined;
    if (target === undefined) {
      // A name shortened with a hash: its file says the target.
      read = context.store.read(fileName);
      if (read.state !== "claim") continue;
      target = read.claim.target;
    }
    const now = movedTo(target, parents);
    if (now === undefined) continue;
    read ??= context.store.read(fileName);
    if (read.state === "missing" && !gone) continue;
    if (read.state === "claim" && read.claim.target !== target) continue;
    moved.push({ fileName, target, read, now });
  }
  return moved;
}

/**
 * A claim renewed (a beat, a re-take) keeps its entry young, as its held marker: stamped anew once
 * a day old. An entry whose claim is gone is kept 7 days by its mtime while its path leads
 * elsewhere, for the tokens it relates (leftoverUnresolved); by the age of its first write, the
 * entry of a claim held and beaten for over a week went at once with its claim, and a take where
 * its path leads was issued a token at or below the lapsed holder's. Under the take lock, where
 * entries are pruned.
 */
export function touchUnresolved(claimFile: string, context: Context): void {
  const path = join(context.store.dir, UNRESOLVED_DIRECTORY, claimFile);
  try {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (stats?.isFile()) touchWhenOld(path, stats.mtimeMs);
  } catch {
    // best effort: the entry stays as it was
  }
}

/**
 * Where each entry's target leads now, remembered while the verb runs (src/os/lookups.ts) and
 * forgotten whenever the take lock is won (forgetWhereLed), as resolvedNow's answers are: a take or
 * hook judging many targets resolved every entry once per target (500 targets beside 2,000
 * entries: 3.6 s, where 0.4 s without them). Only where it leads: the claims are read each time.
 */
const MOVED_TO = leadTable<TargetShape | undefined>();
/** The entries, listed once while the verb runs; forgotten as resolvedNow's are, and as an entry is made or removed here. */
const LISTED = leadTable<string[]>();
/** An entry's target, from its name (partsOfFileName), remembered alike. */
const TARGET_OF = lookupTable<string | undefined>();

function movedTo(target: string, parents: Map<string, string | undefined>): TargetShape | undefined {
  return remembered(MOVED_TO, target, () => whereNow(shapeOf(target), parents));
}

/** How long an entry is kept after its claim is gone, while its place leads elsewhere (leftoverUnresolved). */
export const UNRESOLVED_KEPT_MS = 7 * 24 * 3600_000;

/**
 * The entries whose claim file is gone (`claimFiles`: every claim file, listed under the take lock,
 * where every claim and entry is made), to be removed by the caller with removeUnresolved. But one
 * whose place leads elsewhere now is kept until 7 days after it was made or last stamped (touchUnresolved): the tokens issued on its
 * claim's target and on where it leads still count against each other (a holder that lapsed is
 * fenced by a take made where it leads after its claim was swept or released, docs/PROTOCOL.md 4a).
 */
export function leftoverUnresolved(context: Context, claimFiles: ReadonlySet<string> = new Set(context.store.claimFileNames())): string[] {
  const directory = join(context.store.dir, UNRESOLVED_DIRECTORY);
  const parents = new Map<string, string | undefined>();
  return listedIfThere(directory).filter((name) => {
    if (claimFiles.has(name)) return false;
    const target = name.endsWith(".json") && !name.startsWith(".") ? partsOfFileName(name).target : undefined;
    if (target === undefined || whereNow(shapeOf(target), parents) === undefined) return true;
    const made = readSnapshot(join(directory, name));
    return made.kind !== "file" || context.nowMs - made.mtimeMs > UNRESOLVED_KEPT_MS;
  });
}

export function removeUnresolved(name: string, context: Context): boolean {
  LISTED.delete(join(context.store.dir, UNRESOLVED_DIRECTORY));
  return removeQuietly(join(context.store.dir, UNRESOLVED_DIRECTORY, name));
}

/**
 * Removes the leftover entries (leftoverUnresolved), and `.unresolved/` itself once empty, so that
 * a directory with no such claim costs a look one access(2). Call under the take lock, where every
 * entry is made. The names removed.
 */
export function pruneUnresolved(context: Context, claimFiles?: ReadonlySet<string>): string[] {
  const directory = join(context.store.dir, UNRESOLVED_DIRECTORY);
  if (!existsSync(directory)) return [];
  const removed = leftoverUnresolved(context, claimFiles).filter((name) => removeUnresolved(name, context));
  if (listedIfThere(directory).length === 0) {
    try {
      rmdirSync(directory);
    } catch {
      // made again, or not ours to remove: it stays
    }
  }
  return removed;
}
