// Fencing tokens (Chubby's sequencer, Kleppmann's fencing token): every take and takeover of a
// target gets a number that strictly increases per target, whoever holds it, across releases. A
// holder that was paused past its TTL and lost its claim still carries its old token, so a
// downstream writer (or `claims check --token`) can reject it.
//
// A token fences every write its claim covered, not just its own target: a lapsed `D/` must not
// write again after another holder took `D/a.js` meanwhile. So a new token is one more than the
// highest issued on any overlapping target (the overlapping ones are found from the counter
// files' names, as claims are), and each holder's latest token on a target is kept apart from the
// others': that is enough to tell, for any holder, whether someone else was issued a newer token
// on an overlapping target.
//
// The counters of a target are `.token-<claim file name without .json>+<holder tag>`, one per
// holder that was ever issued a token on it, each holding the claim that carried the holder's
// latest token there (an older writer's `.token-<stem>` without a tag holds one line
// `<last> <holder tag> <highest issued to any other holder>`, or the number alone, and is still
// read). A token is issued only under the take lock (so two takes never get the same number), and
// its counter is the claim's own durable write: the claim's fsynced temp file is renamed to the
// counter name and then linked to the claim name, so a crash can skip a number but never reuse
// one, and the claim needs no second file and no second fsync (docs/PROTOCOL.md section 4a).
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { endCoverage, linksTakenWith, markersRecordedFor, movedMarkers } from "./aliases.js";
import type { Claim } from "./claim.js";
import { boundAliasesOf, movedAliasesOf, overlappingFiles, sharesFile } from "./conflicts.js";
import { readSnapshot } from "../os/files.js";
import { shapeOf, type TargetShape } from "../targets/overlap.js";
import type { Context } from "./context.js";
import { TOKEN_PREFIX } from "./store.js";
import { claimFileName, holderTag, partsOfFileName } from "../targets/target.js";


function counterStem(target: string): string {
  return `${TOKEN_PREFIX}${claimFileName(target).slice(0, -".json".length)}`;
}

/** The counter file of `holder` on `target`: where its claim is renamed when a token is issued. */
export function tokenFileName(target: string, holder: string): string {
  return `${counterStem(target)}+${holderTag(holder)}`;
}

/** Every counter file of the target itself, of any holder and format. */
export function tokenFilesOf(target: string, names: string[]): string[] {
  const stem = counterStem(target);
  return names.filter((name) => name === stem || (name.startsWith(`${stem}+`) && !name.slice(stem.length + 1).includes("+")));
}

/** A token issued on a target, and the holder tag it went to (undefined: unknown, so someone else). */
interface Issued {
  token: number;
  tag?: string;
  /** Issued with a shared claim (known only from a counter that is a claim). */
  shared?: boolean;
}

const TAG = /^[0-9a-f]{16}$/;

function positive(value: unknown): number {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isSafeInteger(number) && number > 0 ? number : 0;
}

/**
 * What one counter file says was issued: a claim (`token`, holder from the name) or an older
 * writer's line; and, for a claim, its target, when that gives back the counter's name (a name
 * shortened with a hash does not spell it). Undefined when the file is gone.
 */
function readCounter(fileName: string, context: Context): { issued: Issued[]; target?: string } | undefined {
  const snapshot = readSnapshot(join(context.store.dir, fileName));
  if (snapshot.kind === "missing") return undefined;
  if (snapshot.kind !== "file") return damaged(snapshot.mtimeMs);
  const text = snapshot.bytes.toString("utf8").trim();
  if (text.startsWith("{")) {
    const plus = fileName.lastIndexOf("+");
    const tag = plus === -1 ? undefined : fileName.slice(plus + 1);
    try {
      const claim = JSON.parse(text) as { token?: unknown; target?: unknown; mode?: unknown };
      const issued = [{ token: positive(claim.token), ...(tag !== undefined && TAG.test(tag) && { tag }), ...(claim.mode === "shared" && { shared: true }) }];
      const target = typeof claim.target === "string" && tokenFilesOf(claim.target, [fileName]).length === 1 ? claim.target : undefined;
      return { issued, ...(target !== undefined && { target }) };
    } catch {
      return damaged(snapshot.mtimeMs);
    }
  }
  const [last, tag, other] = text.split(/\s+/);
  if (positive(last) === 0) return damaged(snapshot.mtimeMs);
  return { issued: [{ token: positive(last), ...(tag !== undefined && TAG.test(tag) && { tag }) }, { token: positive(other) }] };
}

/**
 * A counter that cannot be read (torn by hand, a directory at its name) says nothing of what was
 * issued: it counts as having issued up to the time it was last written, in milliseconds since the
 * epoch, above any count a sequence reaches, so the next token jumps and is never one issued
 * before. A fixed number, not the clock: a count that grew by itself would fence off every holder
 * issued a token after it.
 */
const damaged = (mtimeMs: number) => ({ issued: [{ token: Math.max(1, Math.floor(mtimeMs)) }] });

/** A counter file of a target overlapping the one asked about: that target (or a shortened name's prefix and `…`), and what it says was issued. */
interface Counter {
  fileName: string;
  target: string;
  issued: Issued[];
}

/**
 * The counter files of targets overlapping `target` (its own included), found by the rule claims
 * are found by: overlappingFiles on their names (a counter is named as its target's claim file,
 * behind `.token-`), and the symlinks of docs/PROTOCOL.md 5a, as a take asks
 * findConflictsWithLinks: a glob also reaches the real paths of the links its takes matched, and a
 * glob whose marker reaches a target overlaps it.
 *
 * Through a symlink both sides count every marker a take of the glob left, exclusive or shared,
 * even once its link is removed or re-pointed or the glob released (linksTakenWith and
 * markersRecordedFor, not linksOf and markersReaching): a token stands for what its holding
 * covered, and a glob may have written the file through a link since removed. Where the coverage
 * ended (the marker's `ended`), only the tokens issued until then count, on each side: a take of
 * the file once the link is gone, and a later holding of the glob that does not reach the file, do
 * not fence each other. Tokens are issued and checked through this one function, so a new token is
 * above every token it will be checked against.
 */
function overlappingCounters(target: TargetShape, context: Context, issuing = false): Counter[] {
  const names = context.store.counterNames();
  const counterOf = new Map(names.map((name) => [`${name.slice(TOKEN_PREFIX.length)}.json`, name]));
  // Each counter once, with the highest token it counts up to by any way it was reached.
  const found = new Map<string, { target: string; issued: Issued[]; upTo: number }>();
  const add = (fileName: string, target: string, upTo: number, read: () => Issued[] | undefined) => {
    const known = found.get(fileName);
    if (known) {
      known.upTo = Math.max(known.upTo, upTo);
      return;
    }
    const issued = read();
    if (issued) found.set(fileName, { target, issued, upTo });
  };
  const reaches = [{ reached: target, upTo: Number.POSITIVE_INFINITY }];
  if (target.kind === "glob") for (const { real, until } of linksTakenWith(target.canonical, context)) reaches.push({ reached: real, upTo: until });
  // The same place under another mount point (a bind mount): one file, one sequence.
  for (const alias of boundAliasesOf(target)) reaches.push({ reached: alias, upTo: Number.POSITIVE_INFINITY });
  // A path claimed before it was there, and where it leads now (src/protocol/unresolved.ts): one place, one sequence.
  for (const alias of movedAliasesOf(target, context)) reaches.push({ reached: alias, upTo: Number.POSITIVE_INFINITY });
  for (const { reached, upTo } of reaches) {
    if (issuing) {
      // Before the token: the highest tokens on each side, up to which the marker relates them.
      for (const { name, marker } of movedMarkers(reached, context)) {
        endCoverage(name, marker, { real: highestTokenOn(shapeOf(marker.real), context), glob: highestTokenOfGlob(marker.glob, context) }, context);
      }
    }
    const overlapping = overlappingFiles(reached, [...counterOf.keys()], (asClaim) => {
      const fileName = counterOf.get(asClaim) as string;
      const read = readCounter(fileName, context);
      return read && { read: { fileName, issued: read.issued }, ...(read.target !== undefined && { target: read.target }) };
    });
    for (const { named, read } of overlapping) add(read.fileName, named, upTo, () => read.issued);
    for (const marker of markersRecordedFor(reached, context)) {
      const globUpTo = Math.min(upTo, marker.ended?.glob ?? Number.POSITIVE_INFINITY);
      for (const fileName of tokenFilesOf(marker.glob, names)) add(fileName, marker.glob, globUpTo, () => readCounter(fileName, context)?.issued);
    }
  }
  // Another name of the same file (a hard link), or a tree holding one: one file, one sequence.
  if (mayShareFile(target)) {
    for (const [asClaim, fileName] of counterOf) {
      if (found.has(fileName)) continue;
      const named = partsOfFileName(asClaim).target ?? readCounter(fileName, context)?.target;
      const other = named === undefined ? undefined : shapeOf(named);
      // Two trees are not walked for each other's counters (every counter of every tree, at every token): files on one side.
      if (other === undefined || other.kind === "name" || (isTree(target) && isTree(other)) || !sharesFile(target, other, context)) continue;
      add(fileName, named as string, Number.POSITIVE_INFINITY, () => readCounter(fileName, context)?.issued);
    }
  }
  return [...found.entries()].map(([fileName, { target, issued, upTo }]) => ({ fileName, target, issued: issued.filter((one) => one.token <= upTo) }));
}

const isTree = (shape: TargetShape) => shape.kind === "directory" || shape.kind === "glob";

/** Whether a target may hold a file by a name another target's counter knows it by: a file with more than one link, or a tree. */
function mayShareFile(target: TargetShape): boolean {
  if (isTree(target)) return true;
  if (target.kind !== "path" && target.kind !== "symbol") return false;
  try {
    const stats = lstatSync(target.path, { throwIfNoEntry: false });
    return stats !== undefined && stats.isFile() && stats.nlink > 1;
  } catch {
    return false;
  }
}

/**
 * The next token for the target: above every token issued on it or on any overlapping target, and
 * above `atLeast`. Writes no counter: the caller's claim, carrying it, becomes the counter
 * `tokenFileName(target, holder)` as it is written (Store.create, Store.change). It ends the
 * coverage of a glob whose link to where it reaches no longer leads there (movedMarkers): the
 * link coming back must not make the glob cover, under an older token, what this one was issued
 * for. Call under the take lock.
 */
export function nextToken(target: string, context: Context, atLeast = 0): number {
  let highest = atLeast;
  for (const counter of overlappingCounters(shapeOf(target), context, true)) {
    for (const issued of counter.issued) highest = Math.max(highest, issued.token);
  }
  return highest + 1;
}

/**
 * The highest token issued on the target or anything overlapping it, to anyone, apart from the
 * tokens of the glob `apartFrom` (a glob's own, which it is asked about): 0 when none was.
 */
export function highestTokenOn(target: TargetShape, context: Context, apartFrom?: string): number {
  let highest = 0;
  for (const counter of overlappingCounters(target, context)) {
    if (counter.target === apartFrom) continue;
    for (const issued of counter.issued) highest = Math.max(highest, issued.token);
  }
  return highest;
}

/** The highest token issued on the glob itself, to anyone: 0 when none was. */
export function highestTokenOfGlob(glob: string, context: Context): number {
  let highest = 0;
  for (const fileName of tokenFilesOf(glob, context.store.counterNames())) {
    for (const issued of readCounter(fileName, context)?.issued ?? []) highest = Math.max(highest, issued.token);
  }
  return highest;
}

/**
 * The new token for a holder's own claim made fresh again after it went stale (a beat, a re-take),
 * or undefined to keep its token. While it was stale another holder may have been issued a newer
 * token on an overlapping target (`D/a.js` under a stale `D/`) and lapsed in turn: kept, the old
 * token would leave that holder's writes unfenced beside a fresh holding that covers them, so the
 * renewed claim gets a token above every overlapping one. A claim without a token (a shell
 * script's) stays without. Call under the take lock.
 */
export function reissuedToken(claim: Claim, holder: string, context: Context): number | undefined {
  if (typeof claim.token !== "number") return undefined;
  // A shared holding coexists with other shared ones by design: only an exclusive token issued meanwhile counts.
  const newer = newerTokenOfOther(shapeOf(claim.target), holder, claim.token, context, claim.mode === "shared");
  return newer ? nextToken(claim.target, context, claim.token) : undefined;
}

/** A token newer than the caller's, issued to another holder on an overlapping target. */
export interface NewerToken {
  target: string;
  token: number;
}

/**
 * Whether a write under `token`, by `holder`, on `target` could come after another holder's:
 * a newer token was issued to someone else on the target or on anything overlapping it. Returns
 * the newest such token, or undefined when the token still fences every write it covered.
 * `exclusiveOnly`: tokens issued with shared claims do not count.
 */
export function newerTokenOfOther(target: TargetShape, holder: string, token: number, context: Context, exclusiveOnly = false): NewerToken | undefined {
  const tag = holderTag(holder);
  let newest: NewerToken | undefined;
  for (const counter of overlappingCounters(target, context)) {
    for (const issued of counter.issued) {
      if (issued.tag === tag || issued.token <= token || (exclusiveOnly && issued.shared === true)) continue;
      if (newest === undefined || issued.token > newest.token) newest = { target: counter.target, token: issued.token };
    }
  }
  return newest;
}

/**
 * Why a token no longer names the caller's holding: the claim carries a newer one (a later holding,
 * even under the same holder), or another one it never carried (`current_token`: a typo, another
 * target's), or another holder was issued a newer one on an overlapping target
 * (`newer_token_target`): the holding lapsed and someone wrote where it covered.
 */
export type Fenced = { newer_token: number; newer_token_target?: string } | { current_token: number };

/**
 * Whether `token` is no longer good for the holder's claim, for beat, release and handover --to
 * alike (section 4a): each turns the answer into its own LOST and leaves the claim as it is.
 * Undefined when no token was given, or it still fences every write its claim covered. A claim
 * without a token (a shell script's) is any holding's. Shared holders coexist by design, so a shared
 * claim is fenced by a newer token of another holder's exclusive claim only (one taken over what it
 * covered once it lapsed), never by another shared holder's.
 */
export function fencedOff(claim: Claim, holder: string, token: number | undefined, context: Context, elsewhere: () => Context[] = () => []): Fenced | undefined {
  if (token === undefined) return undefined;
  if ((claim.token ?? 0) > token) return { newer_token: claim.token as number };
  if (claim.token !== undefined && claim.token !== token) return { current_token: claim.token };
  const newer = newerTokenOfOtherIn([context, ...elsewhere()], shapeOf(claim.target), holder, token, claim.mode === "shared");
  if (!newer) return undefined;
  return { newer_token: newer.token, ...(newer.target !== claim.target && { newer_token_target: newer.target }) };
}

/**
 * newerTokenOfOther in each of `contexts`: the claim's own directory and the other claims
 * directories a take of its target looks in (src/protocol/linked.ts, linkedContexts), whose takes
 * issue tokens above this directory's (section 4a). The newest of them.
 */
export function newerTokenOfOtherIn(contexts: Context[], target: TargetShape, holder: string, token: number, exclusiveOnly = false): NewerToken | undefined {
  let newest: NewerToken | undefined;
  for (const context of contexts) {
    const newer = newerTokenOfOther(target, holder, token, context, exclusiveOnly);
    if (newer !== undefined && (newest === undefined || newer.token > newest.token)) newest = newer;
  }
  return newest;
}
