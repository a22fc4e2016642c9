// take --wait: queue behind whoever is in the way, then block until every target is granted or the
// time runs out. No busy loop: the process sleeps on directory change events (src/watch.ts, with a
// slow poll as fallback) and looks again only when something changed. Looking is read-only; the
// take lock is taken only when the picture changed (a release, a grant, a claim gone stale) or the
// queued interests need a heartbeat. Timing out or being interrupted leaves nothing behind.
import { claimFileOf, giveBack, holds } from "./acquire.js";
import type { Mode } from "./claim.js";
import type { TakeOptions, TakeResult } from "./commands/take.js";
import { findConflicts } from "./conflicts.js";
import { queueAhead } from "./grant.js";
import { refreshNow, type Context } from "./protocol.js";
import { dequeue, queueFileName, readQueue } from "./queue.js";
import { isClaimFileName } from "./store.js";
import type { Target } from "./target.js";
import { waitForChanges } from "./watch.js";

export interface WaitJob {
  targets: Target[];
  mode: Mode;
  holder: string;
  options: TakeOptions;
  context: Context;
  step: () => TakeResult;
}

export async function waitUntilGranted(job: WaitJob): Promise<TakeResult> {
  const { context, options, targets } = job;
  const store = context.store;
  const heldBefore = new Set(targets.filter((target) => holdsTarget(job, target)).map((target) => target.canonical));
  const started = Date.now();
  const deadline = started + (options.wait as number) * 1000;
  // Queued interests and claims granted meanwhile need a heartbeat while we wait for the rest.
  const refreshEvery = Math.min(60_000, (context.settings.ttl * 1000) / 4);
  let lastStep = Date.now();
  let result = store.withTakeLock(job.step);
  if (complete(result)) return result;

  let lastLook = signature(look(job));
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), Math.max(0, deadline - Date.now()));
  const abort = () => stop.abort();
  options.signal?.addEventListener("abort", abort);
  const progress = options.onWaiting && setInterval(() => options.onWaiting?.(result.refused, Date.now() - started), 1000);
  try {
    await waitForChanges(
      store.dir,
      () => {
        refreshNow(context);
        const blockers = look(job);
        const now = signature(blockers);
        if (blockers.length > 0 && now === lastLook && Date.now() - lastStep < refreshEvery) return false;
        lastLook = now;
        lastStep = Date.now();
        result = store.withTakeLock(job.step);
        return complete(result);
      },
      stop.signal,
      (name) => !/^(\.lock-|\.tmp-|log)/.test(name),
    );
  } finally {
    clearTimeout(timer);
    if (progress) clearInterval(progress);
    options.signal?.removeEventListener("abort", abort);
  }
  if (complete(result)) return result;

  // Out of time (or interrupted): all or nothing, so withdraw the interests and give back what the wait got.
  refreshNow(context);
  return store.withTakeLock(() => {
    if (targets.every((target) => holdsTarget(job, target))) return job.step();
    for (const interest of readQueue(context)) {
      const mine = targets.some((target) => interest.fileName === queueFileName(target.canonical, job.holder));
      if (mine) dequeue(interest, context);
    }
    for (const target of targets) {
      if (heldBefore.has(target.canonical)) continue;
      const read = store.read(claimFileOf({ target: target.canonical, holder: job.holder, mode: job.mode }));
      if (read.state === "claim" && read.claim.holder === job.holder) giveBack(read.claim, context);
    }
    return { holder: job.holder, granted: [], refused: result.refused, timed_out: true };
  });
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
