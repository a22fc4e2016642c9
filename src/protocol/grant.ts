// In-order grants, with no daemon: whichever process frees a target or observes it free (release,
// take, status, sweep, beat) calls grantQueued under the take lock, and the earliest live queued
// interest whose target can be granted gets its claim, written for the waiter, exactly once.
import { renameSync } from "node:fs";
import { join } from "node:path";
import { acquire, claimFileOf, dropOtherMode, giveBack } from "./acquire.js";
import { rememberLinks, symlinksMatched, type Link } from "./aliases.js";
import type { Mode } from "./claim.js";
import { boundAliasesOf, findConflicts, findConflictsWithLinks } from "./conflicts.js";
import { crashPoint } from "../os/crash.js";
import { ClaimsError } from "../os/errors.js";
import { readSnapshot, removeQuietly, replaceFile, tempName } from "../os/files.js";
import { randomHex } from "../os/hash.js";
import { lookThroughLinks } from "./linked.js";
import { overlaps, shapeOf } from "../targets/overlap.js";
import { record, type CommonOptions, type Context, type Holding } from "./context.js";
import { dequeue, readQueue, type QueueEntry, type QueuedInterest } from "./queue.js";
import { isClaimFileName, NOTICE_PREFIX } from "./store.js";
import { holderTag } from "../targets/target.js";
import { formatTimestamp, parseTimestamp } from "../os/time.js";


/** A handover note: who waits for a target, since when, and what for. */
export interface Note {
  target: string;
  holder: string;
  purpose: string;
  queued_at: string;
}

export interface Grant {
  target: string;
  holder: string;
  purpose: string;
  granted_at: string;
  /** Whose stale claim the grant replaced, if any. */
  previous?: string;
  /** That stale claim's purpose and last heartbeat, where the grant read it (a sweep's removal did not keep them). */
  previous_purpose?: string;
  previous_heartbeat_at?: string;
  /** Who handed the claim over (handover --to): the holder gave it, nothing went stale. */
  handed_by?: string;
  /** Who is queued behind the new holder on overlapping targets. */
  notes: Note[];
}

function modeOf(entry: QueueEntry): Mode {
  return entry.mode === "shared" ? "shared" : "exclusive";
}

function conflicting(a: QueueEntry, b: { target: string; mode?: string | undefined }): boolean {
  return meets(a.target, b.target) && !(a.mode === "shared" && b.mode === "shared");
}

/** Whether two targets overlap, by name or under another mount point of one file system (a bind mount, docs/PROTOCOL.md 5a). */
export function meets(a: string, b: string): boolean {
  const [one, other] = [shapeOf(a), shapeOf(b)];
  return overlaps(one, other) || boundAliasesOf(one).some((alias) => overlaps(alias, other));
}

export function noteOf(entry: QueueEntry): Note {
  return { target: entry.target, holder: entry.holder, purpose: entry.purpose, queued_at: entry.queued_at };
}

/** Live interests of others on targets overlapping `target`, in order: the notes that reach its holder. */
export function notesFor(target: string, holder: string, queue: QueuedInterest[]): Note[] {
  return queue
    .filter(({ entry }) => entry.holder !== holder && meets(entry.target, target))
    .map(({ entry }) => noteOf(entry));
}

/**
 * The queued interests that go before a take of `target` by `holder`: other waiters on overlapping
 * targets, except those that arrived after the holder's own interest in an overlapping target.
 */
export function queueAhead(target: string, mode: Mode, holder: string, queue: QueuedInterest[]): QueuedInterest[] {
  const request = { target, mode: mode === "shared" ? "shared" : undefined };
  const own = queue.find(({ entry }) => entry.holder === holder && meets(entry.target, target));
  return queue.filter(
    ({ entry }) => entry.holder !== holder && conflicting(entry, request) && (own === undefined || entry.seq < own.entry.seq),
  );
}

/**
 * Grants every queued interest that can be granted now, earliest first. Call under the take lock.
 * `swept`: targets whose stale claim a sweep removed just before, and whose they were (a grant of
 * one took it over).
 */
export function grantQueued(context: Context, swept?: ReadonlyMap<string, Holding>): Grant[] {
  const names = context.store.names();
  const queue = readQueue(context, names, true);
  if (queue.length === 0) return [];
  let claimFiles = names.filter(isClaimFileName);
  const waiting: QueueEntry[] = [];
  const grants: Grant[] = [];
  const granted = new Set<QueuedInterest>();
  for (const interest of queue) {
    const { entry } = interest;
    const mode = modeOf(entry);
    const shape = shapeOf(entry.target);
    const able = grantable(entry, waiting, context, claimFiles);
    if (able === undefined) {
      waiting.push(entry);
      continue;
    }
    const { links, tokenAbove } = able;
    // Granted as the call that queued it (its grant id): a wait that gives back what it got gives this back too.
    // Its token is above those issued on the target in the other directories looked in, as a take's (docs/PROTOCOL.md 4a).
    const request = { target: entry.target, holder: entry.holder, mode, purpose: entry.purpose, ...(entry.ttl !== undefined && { ttl: entry.ttl }), ...(typeof entry.grant === "string" && { grant: entry.grant }), ...(tokenAbove > 0 && { tokenAbove }) };
    rememberLinks(entry.target, claimFileOf(request), links, context);
    let outcome: ReturnType<typeof acquire>;
    try {
      outcome = acquire(request, context);
    } catch (error) {
      // One target that cannot be granted (a directory standing at its claim name) must not stop
      // every verb; a full disk stops every grant, and the caller says so.
      if (!(error instanceof ClaimsError) || isOutOfSpace(error)) throw error;
      waiting.push(entry);
      continue;
    }
    if (!("action" in outcome)) {
      waiting.push(entry); // a writer that ignores the take lock got there first
      continue;
    }
    // A take of another name in another package's claims directory shares no take lock with this
    // grant: looked at again with the claim in place, and this side yields (src/protocol/linked.ts).
    if (lookThroughLinks(shape, new Set([context.store.dir]), mode, entry.holder, lookOptions(context)).found.length > 0) {
      giveBack(outcome, context);
      waiting.push(entry);
      continue;
    }
    dropOtherMode(request, context);
    crashPoint("grant-acquired");
    dequeue(interest, context);
    granted.add(interest);
    const grant: Grant = {
      target: entry.target,
      holder: entry.holder,
      purpose: entry.purpose,
      granted_at: formatTimestamp(context.nowMs),
      notes: notesFor(entry.target, entry.holder, queue.filter((other) => !granted.has(other))),
    };
    const previous = outcome.previous ?? swept?.get(entry.target);
    if (previous !== undefined) Object.assign(grant, { previous: previous.holder, previous_purpose: previous.purpose, previous_heartbeat_at: previous.heartbeat_at });
    writeNotice(grant, context);
    record(context, { event: "grant", target: entry.target, holder: entry.holder, purpose: entry.purpose, ...(grant.previous && { other: grant.previous }) });
    grants.push(grant);
    claimFiles = context.store.claimFileNames();
  }
  return grants;
}

/** How a grant looks in the other claims directories: with the caller's environment, and its fixed time where it fixed one (tests). */
function lookOptions(context: Context): CommonOptions {
  return { env: context.env ?? process.env, ...(!context.realTime && { now: context.nowMs }) };
}

/**
 * Whether the interest can be granted now: not behind an earlier waiter it conflicts with (`ahead`),
 * and nothing fresh in the way, here or through another name of the file in another package's
 * claims directory (src/protocol/linked.ts: read-only, with this process's environment). The
 * symlinks a glob matches (granted with it, as in a direct take) when it can, and the highest token
 * issued on the target in the other directories looked in; undefined when not.
 */
function grantable(entry: QueueEntry, ahead: QueueEntry[], context: Context, claimFiles: string[]): { links: Link[]; tokenAbove: number } | undefined {
  if (ahead.some((earlier) => earlier.holder !== entry.holder && conflicting(earlier, entry))) return undefined;
  const mode = modeOf(entry);
  const shape = shapeOf(entry.target);
  const links = shape.kind === "glob" ? symlinksMatched(shape, context.settings.home) : [];
  if (findConflictsWithLinks(shape, links, mode, entry.holder, context, claimFiles).length > 0) return undefined;
  const look = lookThroughLinks(shape, new Set([context.store.dir]), mode, entry.holder, lookOptions(context), { tokens: true });
  if (look.found.length > 0) return undefined;
  return { links, tokenAbove: look.highestToken ?? 0 };
}

/**
 * What grantQueued would grant now, writing nothing (`sweep --dry-run`): claims found stale are not
 * in the way (the sweep would remove them), and an interest shown granted is in the way of later
 * ones of other holders, as its claim would be.
 */
export function previewGrants(context: Context): Array<{ target: string; holder: string }> {
  const names = context.store.names();
  const claimFiles = names.filter(isClaimFileName);
  const ahead: QueueEntry[] = [];
  const grants: Array<{ target: string; holder: string }> = [];
  for (const { entry } of readQueue(context, names)) {
    if (grantable(entry, ahead, context, claimFiles) !== undefined) grants.push({ target: entry.target, holder: entry.holder });
    ahead.push(entry); // waiting, or granted: in the way of later interests of other holders either way
  }
  return grants;
}

function isOutOfSpace(error: ClaimsError): boolean {
  const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}

/** The waiter learns of its grant from `status`, exactly once (consumeNotices). */
export function writeNotice(grant: Grant, context: Context): void {
  const name = `${NOTICE_PREFIX}${holderTag(grant.holder)}-${randomHex(16)}`;
  replaceFile(context.store.dir, join(context.store.dir, name), `${JSON.stringify(grant)}\n`, context.store.fileMode);
}

/**
 * The holder's grant notices, each handed to exactly one caller: a notice is first renamed to a
 * name of this process's own (rename succeeds for one of any number of concurrent callers), then
 * read and removed.
 */
export function consumeNotices(holder: string, context: Context, names: string[] = context.store.names(), only?: Set<string>): Grant[] {
  const prefix = `${NOTICE_PREFIX}${holderTag(holder)}-`;
  const grants: Grant[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    if (only && !noticeTargetIn(join(context.store.dir, name), only)) continue;
    const mine = join(context.store.dir, tempName());
    try {
      renameSync(join(context.store.dir, name), mine);
    } catch {
      continue; // someone else took it
    }
    const snapshot = readSnapshot(mine);
    removeQuietly(mine);
    if (snapshot.kind !== "file") continue;
    try {
      const grant = JSON.parse(snapshot.bytes.toString("utf8")) as Grant;
      if (grant.holder === holder && parseTimestamp(grant.granted_at) !== undefined) grants.push(grant);
    } catch {
      // not a notice we wrote
    }
  }
  return grants.sort((a, b) => (a.granted_at < b.granted_at ? -1 : 1));
}

/** The targets the holder's grant notices name, read without consuming them: what was handed or granted to it and not yet told. */
export function noticedTargets(holder: string, context: Context, names: string[] = context.store.names()): Set<string> {
  const prefix = `${NOTICE_PREFIX}${holderTag(holder)}-`;
  const targets = new Set<string>();
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const snapshot = readSnapshot(join(context.store.dir, name));
    if (snapshot.kind !== "file") continue;
    try {
      targets.add((JSON.parse(snapshot.bytes.toString("utf8")) as Grant).target);
    } catch {
      // not a notice
    }
  }
  return targets;
}

function noticeTargetIn(path: string, targets: Set<string>): boolean {
  const snapshot = readSnapshot(path);
  if (snapshot.kind !== "file") return false;
  try {
    return targets.has((JSON.parse(snapshot.bytes.toString("utf8")) as Grant).target);
  } catch {
    return false;
  }
}

/**
 * Waits-for cycles: `waiter` about to wait for `blockers`. Each queued waiter waits for the holders
 * of fresh claims in its way and for the waiters queued ahead of it. Returns the cycle (waiter
 * first, back to the waiter) if waiting would close one, so the caller can refuse at once.
 */
export function findCycle(waiter: string, blockers: Holding[], context: Context, queue: QueuedInterest[]): string[] | undefined {
  const claimFiles = context.store.claimFileNames();
  const edges = new Map<string, Set<string>>();
  const waitsFor = (holder: string): Set<string> => {
    let next = edges.get(holder);
    if (next) return next;
    next = new Set<string>();
    edges.set(holder, next);
    for (const { entry } of queue) {
      if (entry.holder !== holder) continue;
      for (const conflict of findConflicts(shapeOf(entry.target), modeOf(entry), holder, context, claimFiles)) next.add(conflict.holder);
      for (const ahead of queueAhead(entry.target, modeOf(entry), holder, queue)) next.add(ahead.entry.holder);
    }
    return next;
  };
  const start = [...new Set(blockers.map((blocker) => blocker.holder))];
  const seen = new Set<string>();
  const walk = (holder: string, path: string[]): string[] | undefined => {
    if (holder === waiter) return [...path, holder];
    if (seen.has(holder)) return undefined;
    seen.add(holder);
    for (const next of waitsFor(holder)) {
      const cycle = walk(next, [...path, holder]);
      if (cycle) return cycle;
    }
    return undefined;
  };
  for (const blocker of start) {
    const cycle = walk(blocker, [waiter]);
    if (cycle) return cycle;
  }
  return undefined;
}
