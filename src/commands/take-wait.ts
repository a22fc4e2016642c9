// take --wait: queue behind whoever is in the way, then block until every target is granted or the
// time runs out. No busy loop: the process sleeps on directory change events (src/os/watch.ts, with
// a slow poll as fallback) and looks again only when something changed. Looking is read-only; the
// take lock is taken only when the picture changed (a release, a grant, a claim gone stale) or the
// queued interests need a heartbeat. Timing out or being interrupted leaves nothing behind.
import { claimFileOf, giveBack, holds } from "../protocol/acquire.js";
import { consumeNotices, grantQueued, noteOf } from "../protocol/grant.js";
import type { Mode } from "../protocol/claim.js";
import type { TakenClaim, TakeOptions, TakeResult } from "./take-types.js";
import { findConflicts } from "../protocol/conflicts.js";
import { queueAhead } from "../protocol/grant.js";
import { record, refreshNow, type Context, type Holding } from "../protocol/context.js";
import { dequeue, queueFileName, readQueue, refreshInterest, type QueueEntry } from "../protocol/queue.js";
import { grantOf } from "../protocol/held.js";
import { isClaimFileName, NOTICE_PREFIX } from "../protocol/store.js";
import type { Target } from "../targets/target.js";
import { ageInSeconds, parseTimestamp } from "../os/time.js";
import { waitForChanges } from "../os/watch.js";

export interface WaitJob {
  targets: Target[];
  mode: Mode;
  holder: string;
  options: TakeOptions;
  context: Context;
  /** One locked attempt; `first` says whether its refusals are new (logged) or the same wait looking again. */
  step: (first: boolean) => TakeResult;
}

export async function waitUntilGranted(job: WaitJob): Promise<TakeResult> {
  const { context, options, targets } = job;
  const store = context.store;
  const heldBefore = new Set(targets.filter((target) => holdsTarget(job, target)).map((target) => target.canonical));
  // Interests the holder had queued before this wait (a handover note) keep their place, and are as
  // they were, whatever happens to the wait.
  const queuedBefore = new Map(readQueue(context).filter(({ entry }) => entry.holder === job.holder).map(({ fileName, entry }) => [fileName, entry]));
  const started = Date.now();
  const noticedBefore = new Set(store.names().filter((name) => name.startsWith(NOTICE_PREFIX)));
  const deadline = started + (options.wait as number) * 1000;
  // Queued interests and claims granted meanwhile need a heartbeat while we wait for the rest.
  const refreshEvery = Math.min(60_000, (context.settings.ttl * 1000) / 4);
  let lastStep = Date.now();
  let result = store.withTakeLock(() => job.step(true));
  if (complete(result)) return finished(job, result, heldBefore, noticedBefore);

  let lastLook = signature(look(job));
  let failure: unknown;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), Math.max(0, deadline - Date.now()));
  const abort = () => stop.abort();
  options.signal?.addEventListener("abort", abort);
  if (options.signal?.aborted) stop.abort(); // interrupted before we listened
  options.onWaiting?.(result.refused, 0); // at once: an agent reading stderr learns who is in the way before a second passes
  const progress = options.onWaiting && setInterval(() => options.onWaiting?.(result.refused, Date.now() - started), 1000);
  try {
    await waitForChanges(
      store.dir,
      () => {
        try {
          refreshNow(context);
          const blockers = look(job);
          const now = signature(blockers);
          if (blockers.length > 0 && now === lastLook && Date.now() - lastStep < refreshEvery) return false;
          lastLook = now;
          lastStep = Date.now();
          result = store.withTakeLock(() => job.step(false));
          return complete(result);
        } catch (error) {
          failure = error; // finish the wait, clean up below, then report it
          return true;
        }
      },
      stop.signal,
      (name) => !/^(\.lock-|\.tmp-|log)/.test(name),
    );
  } finally {
    clearTimeout(timer);
    if (progress) clearInterval(progress);
    options.signal?.removeEventListener("abort", abort);
  }
  if (failure === undefined && complete(result)) return finished(job, result, heldBefore, noticedBefore);

  // Out of time, interrupted, or failed: all or nothing, so withdraw the interests this wait
  // queued and give back what it got; the queue then gets whatever that frees.
  refreshNow(context);
  const interrupted = options.signal?.aborted === true && Date.now() < deadline;
  const ended = store.withTakeLock((): TakeResult => {
    if (failure === undefined && targets.every((target) => holdsTarget(job, target))) {
      // Holding every claim file is not enough: one granted while this process was stopped may
      // have gone stale and been overlapped since. Only a complete last step is a success; any
      // other ends the wait like a timeout, giving back what it got and whatever this step queued.
      const last = job.step(false);
      if (complete(last)) return finished(job, last, heldBefore, noticedBefore);
      result = last;
    }
    for (const interest of readQueue(context)) {
      const ours = targets.some((target) => interest.fileName === queueFileName(target.canonical, job.holder));
      if (!ours) continue;
      const before = queuedBefore.get(interest.fileName);
      if (before === undefined) {
        dequeue(interest, context);
        record(context, { event: "dequeue", target: interest.entry.target, holder: job.holder });
      } else if (!sameNote(before, interest.entry)) {
        // The wait's purpose, TTL or mode do not outlive it: the note is as it was (its heartbeat renewed).
        refreshInterest({ fileName: interest.fileName, entry: before }, context);
      }
    }
    // Granted meanwhile where the holder was queued before the wait (a handover note): the note's
    // grant, not the wait's, so it stays, with its notice for status to tell once.
    const grantedByNote: string[] = [];
    for (const target of targets) {
      if (heldBefore.has(target.canonical)) continue;
      const read = store.read(claimFileOf({ target: target.canonical, holder: job.holder, mode: job.mode }));
      if (read.state !== "claim" || read.claim.holder !== job.holder) continue;
      if (queuedBefore.has(queueFileName(target.canonical, job.holder))) {
        grantedByNote.push(target.canonical);
        continue;
      }
      // One that another call told the holder it holds meanwhile (a subagent's take of it) stays: its caller holds it.
      if (options.grant !== undefined && grantOf(job.holder, target.canonical, context) !== options.grant) continue;
      giveBack(read.claim, context); // and its held marker
      record(context, { event: "release", target: target.canonical, holder: job.holder });
    }
    // (A notice left unread from a grant before the wait stays for status, as on success.)
    const fresh = store.names().filter((name) => !noticedBefore.has(name));
    consumeNotices(job.holder, context, fresh, new Set(targets.map((target) => target.canonical).filter((target) => !grantedByNote.includes(target))));
    grantQueued(context);
    // The ages as of now: the last look may be from when the wait began.
    const refused = result.refused.map((holding) => ({ ...holding, heartbeat_age_seconds: ageInSeconds(context.nowMs - (parseTimestamp(holding.heartbeat_at) as number)) }));
    // Where the holder stays queued from before the wait, and in what place (one the queue was granted meanwhile is not).
    const queue = readQueue(context);
    const kept = queue
      .filter((interest) => queuedBefore.has(interest.fileName) && targets.some((target) => interest.fileName === queueFileName(target.canonical, job.holder)))
      .map(({ entry }) => ({ ...noteOf(entry), position: queueAhead(entry.target, entry.mode === "shared" ? "shared" : "exclusive", job.holder, queue).length + 1 }));
    const warnings = grantedByNote.map((target) => `${target} was granted to you meanwhile from your place queued before the wait, and stays yours (status --mine shows it); release it if you no longer need it`);
    return { holder: job.holder, granted: [], refused, ...(kept.length > 0 && { queued: kept }), ...(warnings.length > 0 && { warnings, granted_from_queue: grantedByNote }), ...(interrupted ? { interrupted: true as const } : { timed_out: true as const }) };
  });
  if (failure !== undefined) throw failure;
  return ended;
}

/**
 * Granted: targets the holder did not hold before the wait were taken by it (or for it, by a
 * grant), not renewed; the grant notices of this wait's grants are spent, since the caller is told
 * right here (one left unread from an earlier grant of a target stays, for status to tell).
 */
function finished(job: WaitJob, result: TakeResult, heldBefore: Set<string>, noticedBefore: Set<string>): TakeResult {
  // This wait's grants' notices: one left unread from an earlier grant of a target stays for status.
  const names = job.context.store.names().filter((name) => !noticedBefore.has(name));
  const notices = consumeNotices(job.holder, job.context, names, new Set(job.targets.map((target) => target.canonical)));
  const granted = result.granted.map((claim): TakenClaim => {
    if (claim.action !== "retaken" || heldBefore.has(claim.target)) return claim;
    // Granted by the queue in place of a stale claim: said from whom, as a take that took it over says it.
    const notice = notices.find((grant) => grant.target === claim.target && grant.previous !== undefined);
    if (notice === undefined) return { ...claim, action: "taken" };
    const at = notice.previous_heartbeat_at;
    const age = at === undefined ? undefined : parseTimestamp(at);
    const previous: Holding = {
      target: claim.target,
      holder: notice.previous as string,
      purpose: notice.previous_purpose ?? "",
      heartbeat_at: at ?? notice.granted_at,
      heartbeat_age_seconds: ageInSeconds(job.context.nowMs - (age ?? (parseTimestamp(notice.granted_at) as number))),
    };
    return { ...claim, action: "took_over", previous };
  });
  return { ...result, granted };
}

/** The same note but for its heartbeat. */
function sameNote(a: QueueEntry, b: QueueEntry): boolean {
  const fields = (entry: QueueEntry) => JSON.stringify(Object.entries({ ...entry, heartbeat_at: "" }).sort(([x], [y]) => (x < y ? -1 : 1)));
  return fields(a) === fields(b);
}

function complete(result: TakeResult): boolean {
  return result.refused.length === 0 && (result.queued ?? []).length === 0;
}

function holdsTarget(job: WaitJob, target: Target): boolean {
  return holds({ target: target.canonical, holder: job.holder, mode: job.mode }, job.context);
}

/** What stands in the way now, read-only: claims in the way, and queued interests ahead of ours. */
function look(job: WaitJob): string[] {
  const { context, holder, mode } = job;
  const names = context.store.names();
  const files = names.filter(isClaimFileName);
  const queue = readQueue(context, names);
  return job.targets.flatMap((target) => {
    if (holdsTarget(job, target)) return [];
    const claims = findConflicts(target, mode, holder, context, files).map((claim) => `${target.canonical} held ${claim.holder} ${claim.held_target ?? ""}`);
    const ahead = queueAhead(target.canonical, mode, holder, queue).map(({ entry }) => `${target.canonical} queued ${entry.holder} ${entry.target}`);
    return [...claims, ...ahead];
  });
}

function signature(blockers: string[]): string {
  return [...blockers].sort().join("\n");
}
