// Queued interests (handover notes): a session refused a target registers who, when and what for
// behind the holder, and is granted the target in order when it frees (src/protocol/grant.ts). One
// file per target and waiter, `.queue-<encoded target>+<holder tag>`, written whole by rename.
// Every change to the queue happens under the take lock, so order and grants are decided one at a
// time.
import { join } from "node:path";
import { isValidTtl, type Mode } from "./claim.js";
import { readSnapshot, removeQuietly, replaceFile } from "../os/files.js";
import { isAlive, type ProcessIdentity } from "../os/process-identity.js";
import { othersFreshness, type Context } from "./context.js";
import { claimFileName, holderTag, parseTarget, pathItWillBe } from "../targets/target.js";
import { formatTimestamp, parseTimestamp } from "../os/time.js";

export const QUEUE_PREFIX = ".queue-";

export interface QueueEntry {
  target: string;
  holder: string;
  purpose: string;
  queued_at: string;
  heartbeat_at: string;
  /** Order of arrival: grants go to the lowest live `seq` whose target can be granted. */
  seq: number;
  ttl?: number;
  mode?: "shared";
  /** A waiting process (`take --wait`): its interest dies with it, instead of living out its TTL. */
  waiter?: ProcessIdentity;
  /** The grant id of the take call that queued it last (TakeOptions.grant): its grant is that call's, should it give back what it got. */
  grant?: string;
}

export interface QueuedInterest {
  fileName: string;
  entry: QueueEntry;
}

export function queueFileName(target: string, holder: string): string {
  return `${QUEUE_PREFIX}${claimFileName(target).slice(0, -".json".length)}+${holderTag(holder)}`;
}

function parseEntry(text: string): QueueEntry | undefined {
  try {
    const value = JSON.parse(text) as QueueEntry;
    const valid =
      typeof value.target === "string" &&
      typeof value.holder === "string" &&
      typeof value.purpose === "string" &&
      typeof value.seq === "number" &&
      parseTimestamp(value.queued_at) !== undefined &&
      parseTimestamp(value.heartbeat_at) !== undefined &&
      (value.ttl === undefined || isValidTtl(value.ttl));
    return valid ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A queued interest lives while its waiter does and it is not stale as a claim would be
 * (docs/PROTOCOL.md 5: its heartbeat and its file's mtime older than its TTL, on the filesystem's
 * clock), so a process on a clock of its own neither drops a live waiter's place nor keeps a dead one's.
 */
export function isLive(entry: QueueEntry, mtimeMs: number, context: Context): boolean {
  if (entry.waiter && !isAlive(entry.waiter)) return false;
  return !othersFreshness(entry, mtimeMs, context).stale;
}

/**
 * Every queued interest, in order of arrival. With `prune` (only under the take lock), entries of
 * waiters that stopped beating, and files that do not parse, are removed on the way.
 */
export function readQueue(context: Context, names: string[] = context.store.names(), prune = false): QueuedInterest[] {
  const queue: QueuedInterest[] = [];
  for (const fileName of names) {
    if (!fileName.startsWith(QUEUE_PREFIX)) continue;
    const path = join(context.store.dir, fileName);
    const snapshot = readSnapshot(path);
    if (snapshot.kind === "missing") continue;
    const entry = snapshot.kind === "file" ? parseEntry(snapshot.bytes.toString("utf8")) : undefined;
    if (entry && snapshot.kind === "file" && isLive(entry, snapshot.mtimeMs, context)) queue.push({ fileName, entry });
    else if (prune) removeQuietly(path);
  }
  return queue.sort((a, b) => a.entry.seq - b.entry.seq || (a.entry.queued_at < b.entry.queued_at ? -1 : 1));
}

export interface Enqueue {
  target: string;
  holder: string;
  /** Undefined keeps the purpose of an interest already queued ("" for a new one). */
  purpose?: string;
  waiter?: ProcessIdentity;
  mode: Mode;
  ttl?: number;
  grant?: string;
}

/**
 * Adds the holder's interest in the target to the queue (and to `queue`), or refreshes an existing
 * one in place, keeping its place. Under the take lock.
 */
export function enqueue(request: Enqueue, queue: QueuedInterest[], context: Context): QueuedInterest {
  const fileName = queueFileName(request.target, request.holder);
  const existing = queue.find((interest) => interest.fileName === fileName);
  const now = formatTimestamp(context.nowMs);
  const purpose = request.purpose ?? existing?.entry.purpose ?? "";
  if (existing && existing.entry.purpose === purpose && existing.entry.heartbeat_at === now && existing.entry.grant === request.grant) return existing;
  const entry: QueueEntry = existing
    ? { ...existing.entry, purpose, heartbeat_at: now }
    : {
        target: request.target,
        holder: request.holder,
        purpose,
        queued_at: now,
        heartbeat_at: now,
        seq: Math.max(0, ...queue.map((interest) => interest.entry.seq)) + 1,
      };
  if (request.ttl !== undefined) entry.ttl = request.ttl;
  if (request.mode === "shared") entry.mode = "shared";
  else delete entry.mode;
  if (!existing && request.waiter) entry.waiter = request.waiter;
  if (request.grant !== undefined) entry.grant = request.grant;
  else delete entry.grant;
  replaceFile(context.store.dir, join(context.store.dir, fileName), `${JSON.stringify(entry, null, 2)}\n`, context.store.fileMode);
  const interest = { fileName, entry };
  if (existing) queue[queue.indexOf(existing)] = interest;
  else queue.push(interest);
  return interest;
}

export function dequeue(interest: QueuedInterest, context: Context): void {
  removeQuietly(join(context.store.dir, interest.fileName));
}

/** A waiter's beat: its queued interests live on for another TTL. Under the take lock. */
export function refreshInterest(interest: QueuedInterest, context: Context): void {
  const entry = { ...interest.entry, heartbeat_at: formatTimestamp(context.nowMs) };
  replaceFile(context.store.dir, join(context.store.dir, interest.fileName), `${JSON.stringify(entry, null, 2)}\n`, context.store.fileMode);
}

/** Whether a claim (exclusive or shared) or a queued interest in the claims directory names `word` as a name. */
export function claimedAsName(word: string, context: Context): boolean {
  const stem = claimFileName(word).slice(0, -".json".length);
  return context.store.names().some((name) => name === `${stem}.json` || (name.startsWith(`${stem}+`) && name.endsWith(".json")) || name.startsWith(`${QUEUE_PREFIX}${stem}+`));
}

/**
 * Whether another holder's fresh claim, or a queued interest, names the path a bare word will be
 * (`notes`: ./notes, as an MCP `claim` of the word with `creating` takes it; docs/MCP.md): the
 * word is then that path as much as a name. (The caller's own claim, or a stale one, is no other
 * session's belief that it holds "notes".)
 */
export function claimedAsPath(word: string, holder: string | undefined, context: Context): boolean {
  try {
    const path = parseTarget(pathItWillBe(word).path, { cwd: context.settings.cwd, home: context.settings.home }).fileName;
    const stem = path.slice(0, -".json".length);
    // (A directory it cannot list is said by the take's own first use of it, in its own words.)
    return context.store.names().some((name) => {
      if (name.startsWith(`${QUEUE_PREFIX}${stem}+`)) return true;
      if (name !== `${stem}.json` && !(name.startsWith(`${stem}+`) && name.endsWith(".json"))) return false;
      const read = context.store.read(name);
      return read.state === "claim" && read.claim.holder !== holder && !othersFreshness(read.claim, read.mtimeMs, context).stale;
    });
  } catch {
    return false; // a word no file could be named (too long for the file system)
  }
}

