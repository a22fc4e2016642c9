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
import { join } from "node:path";
import { linksTakenWith, markersReaching } from "./aliases.js";
import type { Claim } from "./claim.js";
import { overlappingFiles } from "./conflicts.js";
import { readSnapshot } from "../os/files.js";
import { shapeOf, type TargetShape } from "../targets/overlap.js";
import type { Context } from "./context.js";
import { TOKEN_PREFIX } from "./store.js";
import { claimFileName, holderTag } from "../targets/target.js";


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
  if (snapshot.kind !== "file") return { issued: [] };
  const text = snapshot.bytes.toString("utf8").trim();
  if (text.startsWith("{")) {
    const plus = fileName.lastIndexOf("+");
    const tag = plus === -1 ? undefined : fileName.slice(plus + 1);
    try {
      const claim = JSON.parse(text) as { token?: unknown; target?: unknown };
      const issued = [{ token: positive(claim.token), ...(tag !== undefined && TAG.test(tag) && { tag }) }];
      const target = typeof claim.target === "string" && tokenFilesOf(claim.target, [fileName]).length === 1 ? claim.target : undefined;
      return { issued, ...(target !== undefined && { target }) };
    } catch {
      return { issued: [] };
    }
  }
  const [last, tag, other] = text.split(/\s+/);
  return { issued: [{ token: positive(last), ...(tag !== undefined && TAG.test(tag) && { tag }) }, { token: positive(other) }] };
}

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
 * glob whose marker reaches a target overlaps it. A glob's links count here even once removed
 * (linksTakenWith, not linksOf): a token stands for what its holding covered when it was issued;
 * a shared take's links too (its markers name its own claim file), or its token would not be
 * above the tokens where they lead.
 */
function overlappingCounters(target: TargetShape, context: Context): Counter[] {
  const names = context.store.counterNames();
  const counterOf = new Map(names.map((name) => [`${name.slice(TOKEN_PREFIX.length)}.json`, name]));
  const found = new Map<string, Counter>();
  const links = target.kind === "glob" ? linksTakenWith(target.canonical, context) : [];
  for (const reached of [target, ...links.map((link) => link.real)]) {
    const overlapping = overlappingFiles(reached, [...counterOf.keys()], (asClaim) => {
      const fileName = counterOf.get(asClaim) as string;
      const read = readCounter(fileName, context);
      return read && { read: { fileName, issued: read.issued }, ...(read.target !== undefined && { target: read.target }) };
    });
    for (const { named, read } of overlapping) found.set(read.fileName, { ...read, target: named });
    for (const marker of markersReaching(reached, context)) {
      for (const fileName of tokenFilesOf(marker.glob, names)) {
        const read = found.has(fileName) ? undefined : readCounter(fileName, context);
        if (read) found.set(fileName, { fileName, target: marker.glob, issued: read.issued });
      }
    }
  }
  return [...found.values()];
}

/**
 * The next token for the target: above every token issued on it or on any overlapping target, and
 * above `atLeast`. Writes nothing: the caller's claim, carrying it, becomes the counter
 * `tokenFileName(target, holder)` as it is written (Store.create, Store.change). Call under the take lock.
 */
export function nextToken(target: string, context: Context, atLeast = 0): number {
  let highest = atLeast;
  for (const counter of overlappingCounters(shapeOf(target), context)) {
    for (const issued of counter.issued) highest = Math.max(highest, issued.token);
  }
  return highest + 1;
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
 */
export function newerTokenOfOther(target: TargetShape, holder: string, token: number, context: Context): NewerToken | undefined {
  const tag = holderTag(holder);
  let newest: NewerToken | undefined;
  for (const counter of overlappingCounters(target, context)) {
    for (const issued of counter.issued) {
      if (issued.tag === tag || issued.token <= token) continue;
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
 * claim is fenced on its own target only.
 */
export function fencedOff(claim: Claim, holder: string, token: number | undefined, context: Context): Fenced | undefined {
  if (token === undefined) return undefined;
  if ((claim.token ?? 0) > token) return { newer_token: claim.token as number };
  if (claim.token !== undefined && claim.token !== token) return { current_token: claim.token };
  if (claim.mode === "shared") return undefined;
  const newer = newerTokenOfOther(shapeOf(claim.target), holder, token, context);
  if (!newer) return undefined;
  return { newer_token: newer.token, ...(newer.target !== claim.target && { newer_token_target: newer.target }) };
}
