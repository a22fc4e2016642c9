// Acquiring one claim file for a holder: create it when free, renew it when it is already theirs,
// take it over when stale; each change under the claim's lock, each success read back. Used by
// take and by queue grants, always under the take lock.
import { DEFAULT_TTL_SECONDS, newClaim, type Claim, type Mode } from "./claim.js";
import { BadInputError, BusyError } from "../os/errors.js";
import { nextToken, reissuedToken, tokenFileName } from "./fencing.js";
import { forgetHeld, rememberHeld, toldHeld, touchHeld } from "./held.js";
import { judge, kindOf, ownFreshness, refreshNow, type Context, type Holding } from "./context.js";
import { claimFileName, sharedClaimFileName, type TargetKind } from "../targets/target.js";
import { formatTimestamp } from "../os/time.js";
import { monotonicMs } from "../os/lease.js";
import type { ClaimRead } from "./store.js";
import { rememberUnresolved, touchUnresolved } from "./unresolved.js";

export interface GrantedClaim extends Claim {
  kind: TargetKind;
  /** taken: it was free; retaken: it was already yours (heartbeat renewed, taken_at kept); took_over: it was stale. */
  action: "taken" | "retaken" | "took_over";
  /** For took_over: whose stale claim was replaced. */
  previous?: Holding;
}

export interface Request {
  target: string;
  holder: string;
  mode: Mode;
  /** Undefined keeps the purpose of a claim being renewed (and is "" for a new one). */
  purpose?: string;
  /** An explicit TTL to record in the claim; undefined writes none (or keeps the one there). */
  ttl?: number;
  /**
   * The taken_at of the holder's own fresh claim on the target in the other mode, which this one
   * replaces (dropOtherMode): the holding goes on in the new mode, as a re-take's does.
   */
  takenAt?: string;
  /** The take call's grant id, written in the held marker (HeldMarker.grant); none for a grant from the queue. */
  grant?: string;
  /** A token issued for a new claim is above this one (issued on the target in another claims directory: TakeOptions.tokenFloors). */
  tokenAbove?: number;
}

const MAX_ATTEMPTS = 50;

export function claimFileOf(request: Pick<Request, "target" | "holder" | "mode">): string {
  return request.mode === "shared" ? sharedClaimFileName(request.target, request.holder) : claimFileName(request.target);
}

/** Whether the holder already holds its claim on the target, in this mode. */
export function holds(request: Pick<Request, "target" | "holder" | "mode">, context: Context): boolean {
  const read = context.store.read(claimFileOf(request));
  return read.state === "claim" && read.claim.holder === request.holder;
}

/** The claim granted, or who holds it (only a writer that ignores the take lock can be in the way here). */
export function acquire(request: Request, context: Context): GrantedClaim | Holding {
  const { store } = context;
  const { target, holder, mode, purpose, ttl, takenAt, grant: grantId, tokenAbove = 0 } = request;
  const marker = { target, holder, mode, ...(grantId !== undefined && { grant: grantId }) };
  const fileName = claimFileOf(request);
  const grant = (claim: Claim, action: GrantedClaim["action"], previous?: Holding): GrantedClaim => ({
    ...claim,
    kind: kindOf(claim.target),
    action,
    ...(previous && { previous }),
  });
  // A path not there as written: its entry before its claim, so whoever sees the claim can tell
  // where it leads once it is there (src/protocol/unresolved.ts).
  rememberUnresolved(target, fileName, context);
  // A grant that landed stale (below): what it was, for the answer once written again fresh.
  let landed: { action: GrantedClaim["action"]; previous?: Holding } | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const since = stampClocks(); // before anything this attempt writes is stamped
    refreshNow(context); // an attempt after one that waited on a claim lock stamps by the time now
    const judgement = judge(store.read(fileName), target, holder, context);
    switch (judgement.state) {
      case "blocked":
        throw new BadInputError(`Cannot take ${target}: ${judgement.reason}.`);
      case "held":
        return judgement.holding;
      case "free": {
        const claim = { ...newClaim(target, holder, purpose ?? "", context.nowMs, ttl, mode), token: nextToken(target, context, tokenAbove) };
        if (takenAt !== undefined) claim.taken_at = takenAt;
        if (store.create(fileName, claim, tokenFileName(target, holder)) && confirmed(fileName, claim, context)) {
          rememberHeld(marker, context);
          if (howLanded(fileName, claim, since, context).state !== "fresh") {
            landed ??= { action: "taken" };
            continue;
          }
          // Taken again after a grant that landed stale and was swept before its read-back: answered as that grant.
          return grant(claim, landed?.action ?? "taken", landed?.previous);
        }
        break;
      }
      case "mine": {
        const renewed: Claim = { ...judgement.claim, heartbeat_at: formatTimestamp(context.nowMs) };
        // A claim from before tokens, or a script's, gets one; a stale one another holder's newer token overlaps, a new one;
        // so does one below a token issued on it in another claims directory (tokenAbove) while it was stale.
        const above = judgement.stale && tokenAbove > (typeof judgement.claim.token === "number" ? judgement.claim.token : 0);
        const reissued = above ? nextToken(target, context, tokenAbove) : judgement.stale ? reissuedToken(judgement.claim, holder, context) : undefined;
        const issuing = typeof renewed.token !== "number" || reissued !== undefined;
        if (issuing) renewed.token = reissued ?? nextToken(target, context, tokenAbove);
        if (purpose !== undefined) renewed.purpose = purpose;
        if (ttl !== undefined) renewed.ttl = ttl;
        const change = () => {
          // Stamped once the claim lock is won: a wait for it must not make the claim born older than it is.
          refreshNow(context);
          renewed.heartbeat_at = formatTimestamp(context.nowMs);
          return issuing ? { replace: renewed, counter: tokenFileName(target, holder) } : { replace: renewed };
        };
        if (store.change(fileName, judgement.version, change) === "done" && confirmed(fileName, renewed, context)) {
          // This call tells the holder it holds the claim: a give-back of another call that granted it
          // must leave it. (A re-take is never given back itself: the id goes, and the next re-take
          // finds nothing to write. The same call again, a wait's next look, leaves its own.)
          toldHeld({ target, holder, mode }, context, grantId);
          touchHeld(holder, target, context);
          touchUnresolved(fileName, context);
          if (howLanded(fileName, renewed, since, context).state !== "fresh") {
            landed ??= { action: "retaken" };
            continue;
          }
          return grant(renewed, landed?.action ?? "retaken", landed?.previous);
        }
        break;
      }
      case "stale": {
        const claim = { ...newClaim(target, holder, purpose ?? "", context.nowMs, ttl, mode), token: nextToken(target, context, Math.max(tokenAbove, staleToken(fileName, context))) };
        const change = () => {
          // Stamped once the claim lock is won (as a re-take's, above).
          refreshNow(context);
          claim.heartbeat_at = formatTimestamp(context.nowMs);
          claim.taken_at = takenAt ?? claim.heartbeat_at;
          return { replace: claim, counter: tokenFileName(target, holder) };
        };
        if (store.change(fileName, judgement.version, change) === "done" && confirmed(fileName, claim, context)) {
          rememberHeld(marker, context);
          if (howLanded(fileName, claim, since, context).state !== "fresh") {
            landed ??= { action: "took_over", previous: judgement.holding };
            continue;
          }
          return grant(claim, "took_over", judgement.holding);
        }
        break;
      }
    }
  }
  throw new BusyError(`The claim of ${target} kept changing under ${MAX_ATTEMPTS} attempts; retry.`);
}

/** The token of the claim being taken over, so the new one is higher even if the counter file was lost. */
function staleToken(fileName: string, context: Context): number {
  const read = context.store.read(fileName);
  return read.state === "claim" && typeof read.claim.token === "number" ? read.claim.token : 0;
}

/**
 * How a claim just written stands. A writer that stalled (stopped, descheduled) between stamping
 * it and its link or rename for longer than its TTL landed it `stale`: it holds nothing (the next
 * take takes it over), and the writer, still under the take lock where nothing could have been
 * taken meanwhile, writes it again with the time now (a take, a beat, a handover). Or it is `gone`,
 * no longer there as written (a sweep removed it as the stale claim it was). Read back only after
 * such a stall (stalledSince); a write that landed sooner is `fresh` unread.
 */
export function howLanded(fileName: string, written: Claim, since: StampClocks, context: Context): { state: "fresh" } | { state: "gone" } | { state: "stale"; read: Extract<ClaimRead, { state: "claim" }> } {
  if (!stalledSince(since, written)) return { state: "fresh" };
  const read = context.store.read(fileName);
  if (read.state !== "claim" || read.claim.holder !== written.holder || read.claim.taken_at !== written.taken_at || read.claim.token !== written.token) return { state: "gone" };
  return ownFreshness(read.claim, read.mtimeMs, context).stale ? { state: "stale", read } : { state: "fresh" };
}

/** This process's two clocks at one moment (stampClocks). */
export interface StampClocks {
  wallMs: number;
  monotonicMs: number;
}

/** Read before a claim is stamped, for stalledSince once it is written. */
export function stampClocks(): StampClocks {
  return { wallMs: Date.now(), monotonicMs: monotonicMs() };
}

/**
 * Whether a claim stamped after `since` and written by now may have landed stale: half its TTL
 * passed meanwhile (the shortest TTL a holder judges it by, docs/PROTOCOL.md 5). Its heartbeat is
 * then at most that old, and it is stale only once its heartbeat is a TTL old, so a write that
 * landed sooner (every one that did not stall) is neither read back nor judged again, and costs
 * no probe of the filesystem's clock. Both clocks are asked: the wall clock keeps counting
 * through a suspend of the machine, the monotonic one through a step of the wall clock (read
 * through process.hrtime: the first touch of `performance` loads perf_hooks, about 1 ms of a take).
 */
function stalledSince(since: StampClocks, written: Claim): boolean {
  const ttlMs = Math.min(written.ttl ?? DEFAULT_TTL_SECONDS, DEFAULT_TTL_SECONDS) * 1000;
  return Math.max(Date.now() - since.wallMs, monotonicMs() - since.monotonicMs) >= ttlMs / 2;
}

/** Read-back: success is reported only once the claim on disk carries our holder and taken_at. */
function confirmed(fileName: string, claim: Claim, context: Context): boolean {
  const read = context.store.read(fileName);
  return read.state === "claim" && read.claim.holder === claim.holder && read.claim.taken_at === claim.taken_at;
}

/**
 * Removes a claim this call created, if it is still exactly ours, and its held marker: the caller
 * is told it was granted nothing, so a later beat or release must not report it lost.
 */
export function giveBack(claim: Claim, context: Context): void {
  const mode: Mode = claim.mode === "shared" ? "shared" : "exclusive";
  // One marker per holder and target, whatever the mode: where the holder still has its claim in the
  // other mode (a mode switch given back), the marker goes back to naming that one.
  const other: Mode = mode === "shared" ? "exclusive" : "shared";
  if (holds({ target: claim.target, holder: claim.holder, mode: other }, context)) rememberHeld({ target: claim.target, holder: claim.holder, mode: other }, context);
  else forgetHeld(claim.holder, claim.target, context);
  const fileName = claimFileOf({ target: claim.target, holder: claim.holder, mode });
  const read = context.store.read(fileName);
  if (read.state !== "claim" || read.claim.holder !== claim.holder || read.claim.taken_at !== claim.taken_at) return;
  context.store.change(fileName, read.version, () => "remove");
}

/**
 * The holder's own fresh claim on the target in the other mode, which a take in this mode replaces
 * (dropOtherMode), keeping its taken_at, and its purpose and TTL unless the take gives its own.
 */
export function ownInOtherMode(request: Pick<Request, "target" | "holder" | "mode">, context: Context): Claim | undefined {
  const read = context.store.read(claimFileOf({ ...request, mode: request.mode === "shared" ? "exclusive" : "shared" }));
  if (read.state !== "claim" || read.claim.holder !== request.holder) return undefined;
  return ownFreshness(read.claim, read.mtimeMs, context).stale ? undefined : read.claim;
}

/** Taking a target in one mode replaces the holder's own claim on it in the other mode. */
export function dropOtherMode(request: Pick<Request, "target" | "holder" | "mode">, context: Context): void {
  const other = claimFileOf({ ...request, mode: request.mode === "shared" ? "exclusive" : "shared" });
  const read = context.store.read(other);
  if (read.state === "claim" && read.claim.holder === request.holder) context.store.change(other, read.version, () => "remove");
}
