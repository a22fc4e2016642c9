// release: give up the named claims, or all of the caller's. Another holder's claim is untouched.
import { existsSync } from "node:fs";
import { BadInputError, BusyError } from "../os/errors.js";
import { holderOf, judge, judgedUnderTakeLock, namedDirectoryMissing, openContext, record, refreshNow, type CommonOptions, type Context } from "../protocol/context.js";
import { holds } from "../protocol/acquire.js";
import { fencedOff } from "../protocol/fencing.js";
import { linkedContexts } from "../protocol/linked.js";
import { shapeOf } from "../targets/overlap.js";
import { consumeNotices, grantQueued, meets, noticedTargets } from "../protocol/grant.js";
import { forgetHeld, grantOf, heldMarkers, namedOrAllMine, spareMarker } from "../protocol/held.js";
import { dequeue, QUEUE_PREFIX, readQueue, type QueuedInterest } from "../protocol/queue.js";
import type { LostClaim } from "./beat.js";
import { inTheirDirectories } from "../protocol/routes.js";
import { NOTICE_PREFIX } from "../protocol/store.js";
import { asOneVerb } from "../os/lookups.js";
import { checkOptionTypes } from "./option-types.js";

export interface ReleaseOptions extends CommonOptions {
  /** Targets to release; none means every claim the holder has. */
  targets?: string[];
  /** The fencing token of the caller's holding: a claim carrying a newer one, or whose region another holder took since, is left alone (LOST). */
  token?: number;
  /**
   * A take's grant id (TakeOptions.grant): release a named target only while the holder's held
   * marker of it still carries this id, judged under the take lock. A take whose answer reached
   * nobody gives back what it granted so; one another call told the holder it holds since (a
   * re-take, a replay of the key, a beat) stays.
   */
  grant?: string;
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
  /**
   * Of the released targets, those that became the caller's while the release ran (handed over to
   * it with `handover --to`, or granted from the queue), released with the rest; `handed_by`: who
   * handed it over. Their grant notices are spent: `status` does not show them again.
   */
  received?: Array<{ target: string; handed_by?: string }>;
  /** Set when the queue could not be served (a full disk), or the release could not look again for claims handed to the caller meanwhile (a take lock whose owner seems stopped). */
  warnings?: string[];
  /** Set when nothing was held because the claims directory named (--dir, CLAIMS_DIR, .claims) does not exist: a mistyped path, perhaps. */
  directory_missing?: true;
  /** With directory_missing: that directory. */
  dir?: string;
}

export function release(options: ReleaseOptions): ReleaseResult {
  checkOptionTypes("release", options);
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
  const everything = (options.targets ?? []).length === 0;
  // Read before anything is freed: another process may grant the queue the moment a claim is gone.
  // And before the caller's claims are listed: its own interests among them are withdrawn first.
  let namesBefore = context.store.names();
  const waitingBefore = namesBefore.some((name) => name.startsWith(QUEUE_PREFIX)) ? readQueue(context) : [];
  let work = namedOrAllMine(options.targets, holder, context);
  const first = withdrawFirst(holder, work, waitingBefore, options, result, context);
  if (first !== "none") {
    work = namedOrAllMine(options.targets, holder, context);
    namesBefore = context.store.names(); // and the notices of what was granted it meanwhile
  }
  // What the caller was granted and still remembers (src/protocol/held.ts), read at the first
  // named target found another's: one it never held is not one it lost.
  let granted: Set<string> | undefined;
  const wasGranted = (target: string) => (granted ??= new Set(heldMarkers(holder, context).map((marker) => marker.target))).has(target);
  const releaseAll = () => {
    for (const { fileName, target } of work) {
      if (options.grant !== undefined && grantOf(holder, target, context) !== options.grant) continue;
      const outcome = releaseOne(fileName, target, holder, context, options.token, options);
      tell(outcome, target, holder, everything, wasGranted, result, context);
      // Fenced by --token, the claim is left as the holder's: so is its marker (beat's reason).
      if (!isFenced(outcome)) forgetHeld(holder, target, context);
    }
  };
  if (options.grant === undefined) releaseAll();
  else if (existsSync(context.store.dir)) {
    const busy = judgedUnderTakeLock(context, releaseAll);
    if (busy) (result.warnings ??= []).push(`the grants were given back without the take lock: ${busy.message}`);
  }
  // A claim handed to the caller (or granted it from the queue) after its claims were listed, or
  // after a named target was found another's, would outlive the release: looked for again under
  // the take lock, where every handover and grant is made (lookAgain).
  // (Where there is no claims directory, nothing was handed: none is made for the take lock.)
  const again = (everything || result.lost.length > 0 || result.not_held.length > 0) && existsSync(context.store.dir);
  const queued = context.store.names().some((name) => name.startsWith(QUEUE_PREFIX));
  if (first instanceof BusyError) {
    // The take lock is wedged (its owner seems stopped): the claims are released all the same, as
    // before the interests were withdrawn first; serving the queue, or looking again, would wait as long again.
    result.warnings = [
      ...(result.warnings ?? []),
      ...(queued ? [`your queued interests were not withdrawn, nor the queue served: ${first.message}`] : []),
      ...(again ? [`claims handed to you while this release ran were not looked for: ${first.message}`] : []),
    ];
  } else if (again || queued) {
    try {
      context.store.withTakeLock(() => {
        refreshNow(context);
        if (again) lookAgain(work, holder, options, everything, wasGranted, result, context);
        if (context.store.names().some((name) => name.startsWith(QUEUE_PREFIX))) handToQueue(result, holder, work, waitingBefore, options, context);
      });
    } catch (error) {
      if (error instanceof BusyError) {
        // The claims are released; the take lock's owner seems stopped (a handover stopped there
        // may still land: then the caller holds what it hands, and learns of it from status).
        result.warnings = [...(result.warnings ?? []), `claims handed to you while this release ran were not looked for${queued ? ", nor the queue served" : ""}: ${error.message}`];
      } else {
        // Granting the queue needs space to write the waiters' claims, and the next take, status,
        // beat or sweep that finds the targets free grants them. (No take lock can be written on a
        // full disk, nor a claim handed over: there is nothing to look for.)
        const code = outOfSpace(error);
        if (code === undefined) throw error;
        if (queued) result.warnings = [...(result.warnings ?? []), `the queue was not served: the disk is full (${code}); the next verb to find the targets free grants them`];
      }
    }
  }
  // A grant notice of a claim released here (granted from the queue or handed over before the release
  // began) is spent: a status after it would tell the holder it was granted what it let go. Only
  // those: a claim on the same target handed to the holder once it was released is the holder's
  // again, and its notice (a name of its own) is how the holder learns it.
  const noticed = namesBefore.filter((name) => name.startsWith(NOTICE_PREFIX));
  if (result.released.length > 0 && noticed.length > 0) consumeNotices(holder, context, noticed, new Set(result.released));
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
  if (result.warnings?.length === 0) delete result.warnings;
  return result;
}

/** Adds the outcome of releasing a target to the answer. */
function tell(
  outcome: ReturnType<typeof releaseOne>,
  target: string,
  holder: string,
  everything: boolean,
  wasGranted: (target: string) => boolean,
  result: ReleaseResult,
  context: Context,
): void {
  if (outcome === "released") {
    result.released.push(target);
    record(context, { event: "release", target, holder });
  } else if (outcome === "not_held") {
    result.not_held.push(target);
  } else {
    result.lost.push(target);
    result.lost_to.push(outcome);
    if (!everything && !wasGranted(target)) (result.never_held ??= []).push(target);
  }
}

/**
 * What became the caller's while its release ran, released too. A handover to the caller (or a
 * grant to it from the queue) that landed after the release listed its claims (everything), or
 * after it found a named target another's or nobody's, left the caller holding a target it
 * believed released, or another's, refusing everyone until its TTL ran out. Under the take lock,
 * where every handover and grant is made: one that landed before is found here and released (as if
 * it had come before the release), one after is a claim handed to a holder that released, which
 * learns of it from status. Each target released here is `received`, with who handed it over, and
 * its grant notice is spent. Under the take lock; `work`: what the first pass acted on.
 */
function lookAgain(
  work: Array<{ fileName: string; target: string }>,
  holder: string,
  options: ReleaseOptions,
  everything: boolean,
  wasGranted: (target: string) => boolean,
  result: ReleaseResult,
  context: Context,
): void {
  const listed = new Set(work.map(({ fileName, target }) => `${fileName}\n${target}`));
  const received: string[] = [];
  // Only what was handed or granted to the caller (a notice names it): a claim the same holder
  // took itself meanwhile (a subagent sharing the session's holder) is that take's, told granted.
  const noticed = noticedTargets(holder, context);
  for (const { fileName, target } of namedOrAllMine(options.targets, holder, context)) {
    if (!noticed.has(target)) continue;
    const outcome = releaseOne(fileName, target, holder, context, options.token, options);
    if (outcome === "released") {
      // No longer another's, nor nobody's: what the first pass said of it is superseded.
      result.lost = result.lost.filter((lost) => lost !== target);
      result.lost_to = result.lost_to.filter((lost) => lost.target !== target);
      result.not_held = result.not_held.filter((free) => free !== target);
      if (result.never_held) result.never_held = result.never_held.filter((never) => never !== target);
      if (result.never_held?.length === 0) delete result.never_held;
      if (!result.released.includes(target)) result.released.push(target);
      record(context, { event: "release", target, holder });
      received.push(target);
    } else if (!listed.has(`${fileName}\n${target}`) && ![...result.released, ...result.lost, ...result.not_held].includes(target)) {
      tell(outcome, target, holder, everything, wasGranted, result, context);
    }
    if (!isFenced(outcome)) forgetHeld(holder, target, context);
  }
  if (received.length === 0) return;
  // The caller is told here, not by a later status: the newest notice of each wins.
  const handedBy = new Map(consumeNotices(holder, context, undefined, new Set(received)).map((grant) => [grant.target, grant.handed_by]));
  result.received = received.map((target) => {
    const by = handedBy.get(target);
    return by === undefined ? { target } : { target, handed_by: by };
  });
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

/** Withdraws the caller's interests in what it released and serves the queue. Under the take lock. */
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
}

/** A claim left as the holder's because --token named another holding of it. */
function isFenced(outcome: ReturnType<typeof releaseOne>): boolean {
  return typeof outcome === "object" && (outcome.current_token !== undefined || outcome.newer_token !== undefined);
}

function releaseOne(fileName: string, target: string, holder: string, context: Context, token: number | undefined, options: CommonOptions): "released" | "not_held" | LostClaim {
  for (let attempt = 0; attempt < 50; attempt++) {
    const judgement = judge(context.store.read(fileName), target, holder, context);
    if (judgement.state === "free") return "not_held";
    if (judgement.state === "blocked") return { target };
    if (judgement.state === "held" || judgement.state === "stale") return { target, now_held_by: judgement.holding };
    // A later holding, a token that was never this holding's, or a lapse another holder wrote
    // under meanwhile: leave the claim alone, as beat would report it lost.
    const fenced = fencedOff(judgement.claim, holder, token, context, () => linkedContexts(shapeOf(target), context.store.dir, holder, options));
    if (fenced) return { target, ...fenced };
    // On a full disk the claim lock is made from the holder's own marker of the target
    // (src/protocol/lock.ts).
    if (context.store.change(fileName, judgement.version, () => "remove", () => spareMarker(holder, target, context)) === "done") return "released";
  }
  throw new BusyError(`The claim of ${target} kept changing under 50 attempts; retry.`);
}
