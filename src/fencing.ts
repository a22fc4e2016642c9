// Fencing tokens (Chubby's sequencer, Kleppmann's fencing token): every take and takeover of a
// target gets a number that strictly increases per target, whoever holds it, across releases. A
// holder that was paused past its TTL and lost its claim still carries its old token, so a
// downstream writer (or `claims check --token`) can reject it.
//
// A token fences every write its claim covered, not just its own target: a lapsed `D/` must not
// write again after another holder took `D/a.js` meanwhile. So a new token is one more than the
// highest issued on any overlapping target (the overlapping ones are found from the counter
// files' names, as claims are), and each counter remembers the highest token issued on its target
// to a holder other than its last one: that is enough to tell, for any holder, whether someone
// else was issued a newer token on an overlapping target.
//
// The counter of a target lives in `.token-<claim file name without .json>`, holding
// `<last token> <holder tag of its holder> <highest token issued to any other holder>` (a file
// with the number alone, from an older writer, counts as issued to someone else). It is advanced
// only under the take lock (so two takes never get the same number), and is written and fsynced
// before the claim that carries it, so a crash can skip a number but never reuse one.
import { join } from "node:path";
import { crashPoint } from "./crash.js";
import { readSnapshot, replaceFile } from "./files.js";
import { markersOf, markersReaching } from "./aliases.js";
import { overlaps, shapeOf, type TargetShape } from "./overlap.js";
import type { Context } from "./protocol.js";
import { claimFileName, holderTag, partsOfFileName } from "./target.js";

export const TOKEN_PREFIX = ".token-";

export function tokenFileName(target: string): string {
  return `${TOKEN_PREFIX}${claimFileName(target).slice(0, -".json".length)}`;
}

interface Counter {
  last: number;
  /** The holder tag the last token went to; undefined when unknown (an older writer's file). */
  lastTag?: string;
  /** The highest token issued to a holder other than `lastTag`. */
  other: number;
}

function readCounter(fileName: string, context: Context): Counter {
  const snapshot = readSnapshot(join(context.store.dir, fileName));
  if (snapshot.kind !== "file") return { last: 0, other: 0 };
  const [last, tag, other] = snapshot.bytes.toString("utf8").trim().split(/\s+/);
  const number = (text: string | undefined) => {
    const value = Number(text);
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  };
  const counter: Counter = { last: number(last), other: number(other) };
  if (tag !== undefined && /^[0-9a-f]{16}$/.test(tag)) counter.lastTag = tag;
  return counter;
}

/** The highest token of this counter issued to anyone but `tag`. */
function issuedToOthers(counter: Counter, tag: string | undefined): number {
  return tag !== undefined && counter.lastTag === tag ? counter.other : counter.last;
}

/**
 * The counter files of targets overlapping `target` (its own included), decided from their names
 * as claims are; a name shortened with a hash counts when its readable prefix is related.
 */
function overlappingCounters(target: TargetShape, context: Context): Array<{ fileName: string; target: string }> {
  const found: Array<{ fileName: string; target: string }> = [];
  // A glob that reached this target through a symlink (src/aliases.ts) counts as overlapping it,
  // and a glob's own links make what they lead to overlap it.
  for (const marker of markersReaching(target, context)) found.push({ fileName: tokenFileName(marker.glob), target: marker.glob });
  if (target.kind === "glob") {
    for (const marker of markersOf(claimFileName(target.canonical), context)) {
      found.push(...overlappingCounters(shapeOf(marker.real), context).filter((counter) => counter.target !== target.canonical));
    }
  }
  for (const name of context.store.names()) {
    if (!name.startsWith(TOKEN_PREFIX)) continue;
    const parts = partsOfFileName(`${name.slice(TOKEN_PREFIX.length)}.json`);
    if (parts.target !== undefined) {
      if (parts.target === target.canonical || overlaps(target, shapeOf(parts.target))) found.push({ fileName: name, target: parts.target });
    } else {
      const prefix = parts.prefix ?? "";
      if (target.canonical.startsWith(prefix) || prefix.startsWith(target.canonical)) found.push({ fileName: name, target: `${prefix}…` });
    }
  }
  return found;
}

/** The last token issued for the target itself (0 when none). */
export function lastToken(target: string, context: Context): number {
  return readCounter(tokenFileName(target), context).last;
}

/**
 * Issues the next token for the target to `holder`: above every token issued on it or on any
 * overlapping target, and above `atLeast`. Call under the take lock.
 */
export function nextToken(target: string, holder: string, context: Context, atLeast = 0): number {
  let highest = atLeast;
  for (const counter of overlappingCounters(shapeOf(target), context)) highest = Math.max(highest, readCounter(counter.fileName, context).last);
  const own = readCounter(tokenFileName(target), context);
  const token = Math.max(highest, own.last) + 1;
  const tag = holderTag(holder);
  const other = own.lastTag === tag ? own.other : Math.max(own.other, own.last);
  replaceFile(context.store.dir, join(context.store.dir, tokenFileName(target)), `${token} ${tag} ${other}\n`, context.store.fileMode);
  crashPoint("token-issued");
  return token;
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
    const issued = issuedToOthers(readCounter(counter.fileName, context), tag);
    if (issued > token && (newest === undefined || issued > newest.token)) newest = { target: counter.target, token: issued };
  }
  return newest;
}
