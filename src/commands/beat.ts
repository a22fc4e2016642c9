// beat: renew heartbeat_at of the named claims, or of all the caller's claims; report every claim
// the caller no longer holds as lost.
import { linksOf } from "../protocol/aliases.js";
import { findConflicts, findConflictsWithLinks, refusalOf } from "../protocol/conflicts.js";
import { DEFAULT_TTL_SECONDS, type Claim } from "../protocol/claim.js";
import { fencedOff, nextToken, reissuedToken, tokenFileName } from "../protocol/fencing.js";
import { BusyError } from "../os/errors.js";
import { withLockPatience } from "../protocol/lock.js";
import { grantQueued } from "../protocol/grant.js";
import { forgetHeld, heldMarkers, namedOrAllMine, toldHeld, touchHeld } from "../protocol/held.js";
import { touchUnresolved } from "../protocol/unresolved.js";
import { shapeOf } from "../targets/overlap.js";
import { holderOf, judge, namedDirectoryMissing, openContext, ownFreshness, record, refreshNow, type CommonOptions, type Context, type Holding } from "../protocol/context.js";
import { leaveMovedPointers, unpointedNote } from "../protocol/pinned.js";
import { unmovedDefault } from "../protocol/settings.js";
import { QUEUE_PREFIX, readQueue, refreshInterest } from "../protocol/queue.js";
import { formatTimestamp, parseTimestamp } from "../os/time.js";
import { inTheirDirectories, pinned } from "../protocol/routes.js";
import { leavePinnedPointers, linkedContexts, lookThroughLinks } from "../protocol/linked.js";
import { giveBack, howLanded, stampClocks } from "../protocol/acquire.js";
import { asOneVerb } from "../os/lookups.js";
import { checkOptionTypes } from "./option-types.js";

export interface BeatOptions extends CommonOptions {
  /** Targets to renew; none means every claim the holder has (and had: lost ones are reported). */
  targets?: string[];
  /** The fencing token of the caller's holding: a claim carrying a newer one is a later holding, and one whose region another holder took since is fenced: lost to this one. */
  token?: number;
  /**
   * Rewrite only heartbeats at least this old, or a tenth of the claim's TTL if that is less;
   * younger ones are left as they are and not listed. For the agent hooks, which beat on every
   * edit: a heartbeat seconds old needs no write. Every claim is still checked, so a lost one is
   * reported all the same.
   */
  renewAfterMs?: number;
  /**
   * The caller's own grant id (TakeOptions.grant): a marker carrying it keeps it when the beat tells
   * the holder it holds the claim (toldHeld); another call's goes. For the agent hooks, whose
   * give-backs go by the grant id of their auto-takes.
   */
  grant?: string;
}

export interface LostClaim {
  target: string;
  /** Who holds it, or a claim overlapping it, now; absent when nobody does. */
  now_held_by?: Holding;
  /** With --token: the claim is held under a newer token (a later holding), so this one is fenced off. */
  newer_token?: number;
  /** When the newer token was issued on an overlapping target (another holder wrote there meanwhile): that target. */
  newer_token_target?: string;
  /** With --token: the claim carries this other, older token: the one given was never this holding's. */
  current_token?: number;
}

export interface BeatResult {
  holder: string;
  renewed: string[];
  /** Renewed, but the heartbeat had already gone stale: nobody took it meanwhile, but someone could have. */
  was_stale: string[];
  /** Claims the caller no longer holds: taken over, swept, or never taken. */
  lost: string[];
  /** For each lost target, who is in the way now. */
  lost_to: LostClaim[];
  /** Targets of the caller's queued interests, kept alive by this beat. */
  waiting: string[];
  /**
   * Stale claims renewed under a new fencing token: another holder was issued a newer one on an
   * overlapping target while they were stale, so the old token no longer fences that holder's
   * writes. Writes that pass --token must pass the new one.
   */
  new_tokens: Array<{ target: string; token: number; previous_token: number }>;
  /** Notes for the caller: a pinned beat that could leave no pointer to its directory where the sessions that do not pin one claim (as its take says). */
  warnings?: string[];
  /** Set when nothing was held because the claims directory named (--dir, CLAIMS_DIR, .claims) does not exist: a mistyped path, perhaps. */
  directory_missing?: true;
  /** With directory_missing: that directory. */
  dir?: string;
}

export function beat(options: BeatOptions): BeatResult {
  checkOptionTypes("beat", options);
  return asOneVerb(() => beatNow(options));
}

function beatNow(options: BeatOptions): BeatResult {
  // Named targets are renewed where their claims live; without targets, also in every other
  // claims directory the holder took in from here (src/protocol/routes.ts).
  // A session pinning its own directory (--dir, CLAIMS_DIR) is told apart before the targets are
  // routed, which names the directory each is beaten in.
  const sessionPinned = options.sessionPinned ?? pinned(options);
  return inTheirDirectories(options, (routed) => beatIn(routed, sessionPinned), "touch");
}

function beatIn(options: BeatOptions, sessionPinned: boolean): BeatResult {
  const context = openContext(options);
  const holder = holderOf(options);
  const result: BeatResult = { holder, renewed: [], was_stale: [], lost: [], lost_to: [], waiting: [], new_tokens: [] };
  let any = false;
  // A named target the caller only waits for (queued, never granted): its place is renewed below,
  // and it is not a claim lost.
  let waitsOnly: Set<string> | undefined;
  const onlyWaitsFor = (target: string) => {
    if (waitsOnly === undefined) {
      const names = context.store.names();
      const held = new Set(heldMarkers(holder, context, names).map((marker) => marker.target));
      waitsOnly = new Set(names.some((name) => name.startsWith(QUEUE_PREFIX)) ? readQueue(context, names).filter((interest) => interest.entry.holder === holder && !held.has(interest.entry.target)).map((interest) => interest.entry.target) : []);
    }
    return waitsOnly.has(target);
  };
  for (const { fileName, target } of namedOrAllMine(options.targets, holder, context)) {
    any = true;
    const outcome = renew(fileName, target, holder, context, options);
    if (outcome === "young") continue;
    if (typeof outcome === "object" && "token" in outcome) {
      result.renewed.push(target);
      result.was_stale.push(target);
      result.new_tokens.push({ target, token: outcome.token, previous_token: outcome.previous_token });
      record(context, { event: "renew", target, holder });
      continue;
    }
    if (outcome === "renewed" || outcome === "was_stale") {
      result.renewed.push(target);
      if (outcome === "was_stale") {
        // A fresh heartbeat is no event; a stale claim made fresh again is (anyone could have moved in meanwhile).
        result.was_stale.push(target);
        record(context, { event: "renew", target, holder });
      }
      continue;
    }
    if (options.targets !== undefined && options.targets.length > 0 && outcome.current_token === undefined && outcome.newer_token === undefined && onlyWaitsFor(target)) continue;
    // Never a log of its own in a directory never used for claims that holds other files (--dir . in a project).
    if (result.lost.length === 0) context.store.refuseForeignFiles();
    result.lost.push(target);
    result.lost_to.push(outcome);
    // Fenced by --token, the claim is still the holder's (under another token): its marker stays, so
    // that a later beat still reports it lost once another takes it; a token that was never this
    // holding's lost nothing.
    if (outcome.current_token !== undefined) continue;
    if (outcome.newer_token === undefined) forgetHeld(holder, target, context);
    record(context, { event: "lost", target, holder, ...(outcome.now_held_by && { other: outcome.now_held_by.holder }) });
  }
  if (context.store.names().some((name) => name.startsWith(QUEUE_PREFIX))) {
    // A waiter's beat keeps its queued interests alive; and any target found free goes to the queue.
    context.store.withTakeLock(() => {
      refreshNow(context);
      for (const interest of readQueue(context, undefined, true)) {
        if (interest.entry.holder !== holder) continue;
        refreshInterest(interest, context);
        result.waiting.push(interest.entry.target);
      }
      grantQueued(context);
    });
  }
  // Held in the default directory XDG_STATE_HOME moves: the sessions without it meet these claims
  // through a pointer in theirs (src/protocol/pinned.ts), which a take leaves; one missing (the
  // claim taken by a version that left none, or none saying it is a moved default's, which the
  // names need) is left now. A stat and a read where it is there.
  const unmoved = any ? unmovedDefault(context.store.dir, options.env ?? process.env) : undefined;
  if (unmoved !== undefined) leaveMovedPointers(unmoved, context.store.dir);
  // Pinned, the pointers its takes leave where the sessions that do not pin one claim each target
  // (src/protocol/linked.ts, leavePinnedPointers); left again on each claim the beat rewrote (so
  // once a minute at most from the agent hooks), where one is missing.
  if (sessionPinned) {
    const unpointed = new Set(result.renewed.flatMap((target) => leavePinnedPointers(shapeOf(target), context.store.dir, options)));
    if (unpointed.size > 0) result.warnings = [...unpointed].map((dir) => unpointedNote(dir));
  }
  if (result.renewed.length === 0 && result.waiting.length === 0 && namedDirectoryMissing(context, options.env ?? process.env)) {
    result.directory_missing = true;
    result.dir = context.settings.dir;
  }
  return result;
}

/**
 * The beat's settings without the claims directory it acts in (routed there, or pinned by the
 * caller): the other packages' directories are looked in unless CLAIMS_DIR pins one for all.
 */
function unpinned(options: BeatOptions): BeatOptions {
  const { dir: _dir, ...rest } = options;
  return rest;
}

/**
 * A target nobody holds by its name (or whose file is blocked): lost. Another's claim may cover it
 * (a directory above it taken over): named, so the caller is not told to take what it would be refused.
 */
function lostHere(state: "free" | "blocked", target: string, holder: string, context: Context): LostClaim {
  const [covering] = state === "free" ? findConflicts(shapeOf(target), "exclusive", holder, context, context.store.claimFileNames()) : [];
  return covering === undefined ? { target } : { target, now_held_by: covering };
}

/** A stale claim renewed under a new token (BeatResult.new_tokens). */
type Reissued = { token: number; previous_token: number };

function renew(fileName: string, target: string, holder: string, context: Context, options: BeatOptions): "renewed" | "was_stale" | "young" | Reissued | LostClaim {
  const { token, renewAfterMs } = options;
  const judgement = judge(context.store.read(fileName), target, holder, context);
  if (judgement.state === "free" || judgement.state === "blocked") return lostHere(judgement.state, target, holder, context);
  if (judgement.state === "held" || judgement.state === "stale") return { target, now_held_by: judgement.holding };
  const fenced = fencedOff(judgement.claim, holder, token, context, () => linkedContexts(shapeOf(target), context.store.dir, holder, unpinned(options)));
  if (fenced) return { target, ...fenced };
  if (!judgement.stale && renewAfterMs !== undefined && isYoung(judgement.claim, context.nowMs, renewAfterMs)) return "young";
  // A hook's renewal of a claim with half its TTL or more to go does not wait out a take lock
  // someone holds (a stopped take, a crashed machine's for a lease): the agent's tool call would
  // outlast the hook's timeout. It is left as it is, to be renewed by a later call.
  if (!judgement.stale && renewAfterMs !== undefined && hasTimeToSpare(judgement.claim, context.nowMs)) {
    try {
      return withLockPatience(HOOK_LOCK_PATIENCE_MS, () => renewUnderLock(fileName, target, holder, context, options, false));
    } catch (error) {
      if (error instanceof BusyError) return "young";
      throw error;
    }
  }
  // Written under the take lock, judged again there: a take judges the claims in its way under it
  // too, so none can find this claim stale between the judgement and the write. Written without
  // it, a beat that stalled after finding its claim fresh (a paused process, a slow disk) landed
  // after the claim lapsed and a take had built over it; a check after the write caught that,
  // but not once the beat died or timed out before it, and the next beat found the claim fresh.
  return renewUnderLock(fileName, target, holder, context, options, judgement.stale);
}

/** How long a hook's renewal of a claim with time to spare waits for the take lock (hasTimeToSpare). */
const HOOK_LOCK_PATIENCE_MS = 1000;

/** A heartbeat less than half the claim's TTL old. */
function hasTimeToSpare(claim: Claim, nowMs: number): boolean {
  const ageMs = nowMs - (parseTimestamp(claim.heartbeat_at) as number);
  return ageMs < ((claim.ttl ?? DEFAULT_TTL_SECONDS) * 1000) / 2;
}

/** A heartbeat younger than `renewAfterMs` or a tenth of the claim's TTL (BeatOptions.renewAfterMs): left as it is. */
export function isYoung(claim: Claim, nowMs: number, renewAfterMs: number): boolean {
  const ageMs = nowMs - (parseTimestamp(claim.heartbeat_at) as number);
  const ttlMs = (claim.ttl ?? DEFAULT_TTL_SECONDS) * 1000;
  // Heartbeats are rounded up to the second, so one written this second may lie up to 1 s ahead.
  return ageMs > -1000 && ageMs < Math.min(renewAfterMs, ttlMs / 10);
}

/** A second's margin: heartbeats are written rounded up to the second, and clocks differ a little. */
const LAPSE_MARGIN_MS = 1000;

/** Whether `claim`, as it was read, was stale (or within a second of it) by now. */
function lapsedBy(claim: Claim, mtimeMs: number, context: Context): boolean {
  refreshNow(context);
  return ownFreshness(claim, mtimeMs, context, LAPSE_MARGIN_MS).stale;
}

/**
 * The caller's claim renewed under the take lock, judged again there. Gone stale, anyone could
 * have moved in meanwhile: the queue gets it first (a stale claim is a freed target), and a fresh
 * claim of another holder on an overlapping target means it is lost, even though its file still
 * names the caller. `lookedStale`: it was stale when looked at before the lock (the queue is served
 * at once; otherwise once it is found stale under the lock).
 */
function renewUnderLock(fileName: string, target: string, holder: string, context: Context, options: BeatOptions, lookedStale: boolean): "renewed" | "was_stale" | Reissued | LostClaim {
  return context.store.withTakeLock(() => {
    refreshNow(context);
    let served = lookedStale;
    if (served) grantQueued(context);
    for (let attempt = 0; attempt < 50; attempt++) {
      const since = stampClocks(); // before the renewal below is stamped
      const read = context.store.read(fileName);
      const judgement = judge(read, target, holder, context);
      if (judgement.state === "free" || judgement.state === "blocked") return lostHere(judgement.state, target, holder, context);
      if (judgement.state !== "mine") return { target, now_held_by: judgement.holding };
      const stale = judgement.stale;
      if (stale && !served) {
        // Gone stale while this beat waited for the lock: the queue is served first all the same.
        served = true;
        grantQueued(context);
        continue;
      }
      // The highest token issued on what it covers in the other claims directories a take looks in.
      let elsewhere = 0;
      if (stale) {
        const mode = judgement.claim.mode === "shared" ? "shared" : "exclusive";
        // A glob also covers what the symlinks it matched when taken lead to: a claim taken on such
        // a file while the glob was stale is in its way as much as any other, and is named as a
        // take of the glob would be refused by it (the glob, the real file, the link).
        const links = linksOf(fileName, target, context);
        const [inTheWay] = findConflictsWithLinks(shapeOf(target), links, mode, holder, context, context.store.claimFileNames());
        // And a claim on another name of the file in another package's claims directory (a hard link).
        const look = inTheWay ? undefined : lookThroughLinks(shapeOf(target), new Set([context.store.dir]), mode, holder, unpinned(options), { tokens: true });
        const linked = look?.found[0];
        elsewhere = look?.highestToken ?? 0;
        if (inTheWay || linked) {
          return { target, now_held_by: inTheWay ? refusalOf(target, inTheWay) : (linked?.holding as Holding) };
        }
      }
      const renewed: Claim = { ...judgement.claim, heartbeat_at: formatTimestamp(context.nowMs) };
      // Someone else held what it covers while it was stale: the old token must stop covering (docs/PROTOCOL.md 4a).
      // So too one issued there above its own while it was stale (a take there looks here, and issues above this one).
      const issuedThere = typeof judgement.claim.token === "number" && elsewhere > judgement.claim.token;
      const token = stale ? (issuedThere ? nextToken(target, context, elsewhere) : reissuedToken(judgement.claim, holder, context)) : undefined;
      if (token !== undefined) renewed.token = token;
      const change = token !== undefined ? { replace: renewed, counter: tokenFileName(target, holder) } : { replace: renewed };
      if (context.store.change(fileName, judgement.version, () => change) === "done") {
        // A beat that stalled under the lock (stopped, descheduled) between judging its claim fresh
        // and the rename lands late. No take got in meanwhile (it holds the take lock), but the
        // claim was stale on disk for a while: a check found it free and may have let a write
        // through, so the caller is told it lapsed (was_stale), as a stale claim renewed is. And a
        // renewal stamped more than a TTL before it landed is stale as written: it renewed nothing,
        // and the next take would take over what the caller was told it still holds. It is judged
        // again (as the stale claim it is) and written with the time now; one no longer there as
        // written (swept as the stale claim it was) is judged again too. Only after a stall
        // (stalledSince): a renewal that landed within half its TTL cannot have landed stale.
        if (howLanded(fileName, renewed, since, context).state !== "fresh") {
          served = false;
          continue;
        }
        const lapsedMeanwhile = !stale && read.state === "claim" && ownFreshness(read.claim, read.mtimeMs, context).stale;
        // A take of another name in another package's claims directory shares no take lock with
        // this one: looked at again with the claim fresh, as a take does; this side always yields.
        // So too where the write landed after the claim lapsed, or within a second of it (lapsedBy:
        // the beat stalled under the lock).
        if (stale || (read.state === "claim" && lapsedBy(read.claim, read.mtimeMs, context))) {
          const mode = judgement.claim.mode === "shared" ? "shared" : "exclusive";
          const [raced] = lookThroughLinks(shapeOf(target), new Set([context.store.dir]), mode, holder, unpinned(options)).found;
          if (raced) {
            giveBack(renewed, context);
            return { target, now_held_by: raced.holding };
          }
        }
        // The caller is told it holds the claim: a give-back of the take that granted it must leave it.
        toldHeld({ target, holder, mode: judgement.claim.mode === "shared" ? "shared" : "exclusive" }, context, options.grant);
        touchHeld(holder, target, context);
        touchUnresolved(fileName, context);
        if (token !== undefined) return { token, previous_token: judgement.claim.token as number };
        return stale || lapsedMeanwhile ? "was_stale" : "renewed";
      }
    }
    throw new BusyError(`The claim of ${target} kept changing under 50 attempts; retry.`);
  });
}
