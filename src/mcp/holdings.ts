// Who stands in the way, in the reference systems' words: holder, holderIntent, holderExpiresAt.
// A refusal carries the holder's heartbeat and the claim's own TTL, if it has one: together, when
// the claim goes stale unless renewed.
import { freshnessOf, type Claim } from "../protocol/claim.js";
import type { Context, Holding } from "../protocol/context.js";
import { describeHolding } from "../protocol/describe.js";
import { expiryOf } from "./results.js";

export interface HolderInfo {
  holder: string;
  holderIntent: string;
  /** When the holder's claim goes stale unless renewed (absent for an actor queued ahead). */
  holderExpiresAt?: string;
  /** The claim in the way, when it is not the path asked about (a directory above it, a glob). */
  heldTarget?: string;
  /** The holder's claim is shared: it refuses exclusive claims only. */
  holderShared?: true;
  /** The one in the way is not a holder but an actor queued ahead: the queue goes first. */
  queuedAhead?: true;
  /** The CLI's refusal sentence: holder, intent, heartbeat age. */
  reason: string;
}

export function holderInfo(holding: Holding, context: Context): HolderInfo {
  const info: HolderInfo = { holder: holding.holder, holderIntent: holding.purpose, reason: describeHolding(holding) };
  const expiry = expiryOfHolding(holding, context);
  if (expiry !== undefined) info.holderExpiresAt = expiry;
  if (holding.held_target !== undefined) info.heldTarget = holding.held_target;
  if (holding.shared) info.holderShared = true;
  if (holding.queued) info.queuedAhead = true;
  return info;
}

function expiryOfHolding(holding: Holding, context: Context): string | undefined {
  if (holding.queued) return undefined;
  // An unreadable claim file: by the reader's TTL, or, unreadable only by its permissions, by the longest a claim may carry (Holding.ttl).
  if (holding.unreadable) return expiryOf(holding.heartbeat_at, holding.ttl ?? context.settings.judgeTtl);
  // The TTL read with the heartbeat, not the claim's now: a replay of an idempotency key answers
  // the refusal as it was given, after the holder renewed with another TTL or released.
  return expiryOf(holding.heartbeat_at, holding.ttl ?? context.settings.judgeTtl);
}

/** When one's own claim goes stale unless renewed. */
export function expiryOfClaim(claim: Claim, context: Context): string {
  return expiryOf(claim.heartbeat_at, freshnessOf(claim, context.nowMs, context.settings.judgeTtl, context.nowMs).ttl);
}
