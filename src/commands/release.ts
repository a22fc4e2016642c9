// release: give up the named claims, or all of the caller's. Another holder's claim is untouched.
import { BadInputError, BusyError } from "../os/errors.js";
import { holderOf, judge, namedDirectoryMissing, openContext, record, refreshNow, type CommonOptions, type Context } from "../protocol/context.js";
import { holds } from "../protocol/acquire.js";
import { fencedOff } from "../protocol/fencing.js";
import { grantQueued, meets } from "../protocol/grant.js";
import { forgetHeld, heldMarkers, namedOrAllMine, spareMarker } from "../protocol/held.js";
import { dequeue, QUEUE_PREFIX, readQueue, type QueuedInterest } from "../protocol/queue.js";
import type { LostClaim } from "./beat.js";
import { inTheirDirectories } from "../protocol/routes.js";
import { asOneVerb } from "../os/lookups.js";

export interface ReleaseOptions extends CommonOptions {
  /** Targets to release; none means every claim the holder has. */
  targets?: string[];
  /** The fencing token of the caller's holding: a claim carrying a newer one, or whose region another holder took since, is left alone (LOST). */
  token?: number;
}

export interface ReleaseResult {
  holder: string;
  released: string[];
  /** Nobody held these: nothing to do. */
  not_held: string[];
  /** When some target was not held: the claims the caller does hold in that claims directory (a mistyped target leaves the one meant held). */
  still_held?: string[];
  /** Not the caller's any more (taken over, swept) or held by someone else: left untouched. */
  lost: string[];
  /** For each lost target, who holds it now. */
  lost_to: LostClaim[];
  /** Of the lost targets named, those the caller was never granted (no claim of its ever lapsed there): another holder's all along. */
  never_held?: string[];
  /** Queued interests withdrawn: the caller's own, in the released targets (all of them when none is named). */
  withdrawn: string[];
  /** Who was granted what as a result: the waiters on the released targets and on targets overlapping them (`D/*.js` for `D/`). */
  handed_to: Array<{ target: string; holder: string }>;
  /** Set when the queue could not be served (a full disk): the next verb that finds the targets free grants them. */
  warnings?: string[];
  /** Set when nothing was held because the claims directory named (--dir, CLAIMS_DIR, .claims) does not exist: a mistyped path, perhaps. */
  directory_missing?: true;
  /** With directory_missing: that directory. */
  dir?: string;
}

export function release(options: ReleaseOptions): ReleaseResult {
  return asOneVerb(() => releaseNow(options));
}

function releaseNow(options: ReleaseOptions): ReleaseResult {
  // Named targets are released where their claims live; without targets, also in every other
  // claims directory the holder took in from here, whose pointer then goes (src/protocol/routes.ts).
  return inTheirDirectories(options, releaseIn, "forget");
}

function releaseIn(options: ReleaseOptions): ReleaseResult {
  const context = openContext(options);
  const holder = holderOf(options);
  const result: ReleaseResult = { holder, released: [], not_held: [], lost: [], lost_to: [], withdrawn: [], handed_to: [] };
  // Read before anything is freed: another process may grant the queue the moment a claim is gone.
  // And before the caller's claims are listed: its own interests among them are withdrawn first.
  const waitingBefore = context.store.names().some((name) => name.startsWith(QUEUE_PREFIX)) ? readQueue(context) : [];
  let work = namedOrAllMine(options.targets, holder, context);
  const first = withdrawFirst(holder, work, waitingBefore, options, result, context);
  if (first !== "none") work = namedOrAllMine(options.targets, holder, context);
  // What the caller was granted and still remembers (src/protocol/held.ts), read at the first
  // named target found another's: one it never held is not one it lost.
  let granted: Set<string> | undefined;
  const wasGranted = (target: string) => (granted ??= new Set(heldMarkers(holder, context).map((marker) => marker.target))).has(target);
  for (const { fileName, target } of work) {
    const outcome = releaseOne(fileName, target, holder, context, options.token);
    if (outcome === "released") {
      result.released.push(target);
      record(context, { event: "release", target, holder });
    } else if (outcome === "not_held") {
      result.not_held.push(target);
    } else {
      result.lost.push(target);
      result.lost_to.push(outcome);
      if ((options.targets ?? []).length > 0 && !wasGranted(target)) (result.never_held ??= []).push(target);
    }
    forgetHeld(holder, target, context);
  }
  // A mistyped target is "not held", while the claim meant stays held: say what the holder holds.
  if (result.not_held.length > 0) {
    const held = namedOrAllMine(undefined, holder, context).flatMap(({ fileName, target }) => {
      const read = context.store.read(fileName);
      return read.state === "claim" && read.claim.holder === holder ? [target] : [];
    });
    if (held.length > 0) result.still_held = held;
  }
  if (result.released.length === 0 && result.withdrawn.length === 0 && namedDirectoryMissing(context, options.env ?? process.env)) {
    result.directory_missing = true;
    result.dir = context.settings.dir;
  }
  if (!context.store.names().some((name) => name.startsWith(QUEUE_PREFIX))) return result;
  if (first instanceof BusyError) {
    // The take lock is wedged (its owner seems stopped): the claims are released all the same, as
    // before the interests were withdrawn first; serving the queue would wait as long again.
    result.warnings = [`your queued interests were not withdrawn, nor the queue served: ${first.message}`];
    return result;
  }
  try {
    handToQueue(result, holder, work, waitingBefore, options, context);
  } catch (error) {
    // The claims are released; granting the queue needs space to write the waiters' claims, and
    // the next take, status, beat or sweep that finds the targets free grants them.
    const code = outOfSpace(error);
    if (code === undefined) throw error;
    result.warnings = [`the queue was not served: the disk is full (${code}); the next verb to find the targets free grants them`];
  }
  return result;
}

/**
 * The caller's own queued interests in what it releases (everything, when it names nothing),
 * withdrawn before its claims are released, under the take lock where the queue is granted: one
 * granted after the claims were listed (by another's release, a sweep, a status) left the caller
 * holding a target it was told it released, or lost, until its TTL. One granted before is a claim
 * of the caller's now: the claims are to be listed again, unless there was none ("none"). On a full
 * disk (no take lock can be written) they are withdrawn after the release, as the queue is served.
 * Behind a take lock whose owner seems stopped, the BusyError: the claims are released without.
 */
function withdrawFirst(holder: string, work: Array<{ target: string }>, waiting: QueuedInterest[], options: ReleaseOptions, result: ReleaseResult, context: Context): "none" | "done" | BusyError {
  const named = new Set(work.map((entry) => entry.target));
  const everything = (options.targets ?? []).length === 0;
  if (!waiting.some(({ entry }) => entry.holder === holder && (everything || named.has(entry.target)))) return "none";
  try {
    context.store.withTakeLock(() => withdraw(holder, named, everything, result, context));
  } catch (error) {
    if (error instanceof BusyError) return error;
    if (outOfSpace(error) === undefined) throw error;
  }
  return "done";
}

/** Withdraws the caller's queued interests in the named targets (all of them with `everything`). Under the take lock. */
function withdraw(holder: string, named: Set<string>, everything: boolean, result: ReleaseResult, context: Context): QueuedInterest[] {
  refreshNow(context);
  const waiting = readQueue(context);
  for (const interest of waiting) {
    if (interest.entry.holder !== holder || !(everything || named.has(interest.entry.target))) continue;
    dequeue(interest, context);
    result.withdrawn.push(interest.entry.target);
    record(context, { event: "dequeue", target: interest.entry.target, holder });
  }
  return waiting;
}

function outOfSpace(error: unknown): string | undefined {
  const code = error instanceof BadInputError ? (error.cause as NodeJS.ErrnoException | undefined)?.code : undefined;
  return code === "ENOSPC" || code === "EDQUOT" ? code : undefined;
}

function handToQueue(
  result: ReleaseResult,
  holder: string,
  work: Array<{ target: string }>,
  waitingBefore: QueuedInterest[],
  options: ReleaseOptions,
  context: Context,
): void {
  // Freed targets go to whoever queued first; the releaser's own waiting on them is over.
  const named = new Set(work.map((entry) => entry.target));
  const everything = (options.targets ?? []).length === 0;
  context.store.withTakeLock(() => {
    const waiting = withdraw(holder, named, everything, result, context);
    grantQueued(context);
    // The waiters on targets overlapping a released one (before the release, or since) that hold
    // their target now got it from the queue, whichever process granted it.
    const seen = new Set<string>();
    for (const { fileName, entry } of [...waitingBefore, ...waiting]) {
      if (entry.holder === holder || seen.has(fileName)) continue;
      seen.add(fileName);
      if (!result.released.some((target) => meets(target, entry.target))) continue;
      if (holds({ target: entry.target, holder: entry.holder, mode: entry.mode === "shared" ? "shared" : "exclusive" }, context)) {
        result.handed_to.push({ target: entry.target, holder: entry.holder });
      }
    }
  });
}

function releaseOne(fileName: string, target: string, holder: string, context: Context, token?: number): "released" | "not_held" | LostClaim {
  for (let attempt = 0; attempt < 50; attempt++) {
    const judgement = judge(context.store.read(fileName), target, holder, context);
    if (judgement.state === "free") return "not_held";
    if (judgement.state === "blocked") return { target };
    if (judgement.state === "held" || judgement.state === "stale") return { target, now_held_by: judgement.holding };
    // A later holding, a token that was never this holding's, or a lapse another holder wrote
    // under meanwhile: leave the claim alone, as beat would report it lost.
    const fenced = fencedOff(judgement.claim, holder, token, context);
    if (fenced) return { target, ...fenced };
    // On a full disk the claim lock is made from the holder's own marker of the target
    // (src/protocol/lock.ts).
    if (context.store.change(fileName, judgement.version, () => "remove", () => spareMarker(holder, target, context)) === "done") return "released";
  }
  throw new BusyError(`The claim of ${target} kept changing under 50 attempts; retry.`);
}
