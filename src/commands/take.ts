// take: every target, or none (or, with --partial, what is free). Overlap checks and creation run
// under the take lock, so two takes of overlapping targets never both succeed. Each claim is
// created by link(2) and read back before success is reported.
import { acquire, dropOtherMode, giveBack, type GrantedClaim } from "../acquire.js";
import type { Mode } from "../claim.js";
import { findConflicts } from "../conflicts.js";
import { BadInputError } from "../errors.js";
import { checkKey, remember, replay } from "../idempotency.js";
import { holderOf, openContext, parseTargets, record, type CommonOptions, type Context, type Holding } from "../protocol.js";
import type { Target } from "../target.js";

export type { GrantedClaim } from "../acquire.js";

export interface TakeOptions extends CommonOptions {
  targets: string[];
  /** Why: shown to every session this claim refuses. A re-take without a purpose keeps the old one. */
  purpose?: string;
  /** Shared claims coexist with each other and conflict with exclusive ones (the default). */
  shared?: boolean;
  /** Take what is free and report the rest, instead of all or nothing. */
  partial?: boolean;
  /** Allow `file#symbol` for a symbol about to be added; otherwise a symbol the file lacks is bad input. */
  creating?: boolean;
  /** A retry with the same key and arguments returns the first result (for 7 days) instead of acting again. */
  idempotencyKey?: string;
}

export interface TakeResult {
  holder: string;
  granted: GrantedClaim[];
  refused: Holding[];
  /** Set when this is the stored first result of an idempotency key. */
  idempotent_replay?: true;
}

export const MAX_PURPOSE_LENGTH = 1000;

export async function take(options: TakeOptions): Promise<TakeResult> {
  if (options.targets.length === 0) throw new BadInputError("take needs at least one target, e.g. claims take shared-config.");
  if (options.purpose !== undefined && options.purpose.length > MAX_PURPOSE_LENGTH) {
    throw new BadInputError(`The purpose is ${options.purpose.length} characters long; keep it under ${MAX_PURPOSE_LENGTH}.`);
  }
  if (options.idempotencyKey !== undefined) checkKey(options.idempotencyKey);
  const context = openContext(options);
  const holder = holderOf(options);
  const targets = parseTargets(options.targets, context);
  const mode: Mode = options.shared ? "shared" : "exclusive";
  const symbols = targets.filter((target) => target.kind === "symbol");
  if (symbols.length > 0) {
    const { checkSymbol } = await import("../symbols.js"); // the parser loads only for symbol targets
    for (const target of symbols) await checkSymbol(target.path, target.symbol as string, options.creating === true);
  }
  context.store.ensure();

  const key = options.idempotencyKey;
  if (key === undefined) return context.store.withTakeLock(() => recorded(takeLocked(targets, mode, holder, options, context), context));
  const args = JSON.stringify({
    targets: targets.map((target) => target.canonical),
    purpose: options.purpose ?? null,
    mode,
    partial: options.partial === true,
    creating: options.creating === true,
    ttl: context.settings.ttlExplicit ? context.settings.ttl : null,
  });
  return context.store.withTakeLock(() => {
    const first = replay<TakeResult>(context.store, holder, key, args, context.nowMs);
    if (first) return { ...first, idempotent_replay: true };
    const result = recorded(takeLocked(targets, mode, holder, options, context), context);
    remember(context.store, holder, key, args, context.nowMs, result);
    return result;
  });
}

function takeLocked(targets: Target[], mode: Mode, holder: string, options: TakeOptions, context: Context): TakeResult {
  // Look at everything first, so every refusal is reported and a refused take leaves no trace.
  const fileNames = context.store.claimFileNames();
  const refused: Holding[] = [];
  const free: Target[] = [];
  for (const target of targets) {
    const conflicts = findConflicts(target, mode, holder, context, fileNames);
    if (conflicts.length > 0) refused.push(...conflicts);
    else free.push(target);
  }
  if (refused.length > 0 && !options.partial) return { holder, granted: [], refused };

  const granted: GrantedClaim[] = [];
  const ttl = context.settings.ttlExplicit ? context.settings.ttl : undefined;
  for (const target of free) {
    const request = { target: target.canonical, holder, mode, ttl, ...(options.purpose !== undefined && { purpose: options.purpose }) };
    const outcome = acquire(request, context);
    if ("action" in outcome) {
      granted.push(outcome);
      dropOtherMode(request, context);
      continue;
    }
    // A writer that does not use the take lock got in between: report it like any refusal.
    refused.push(outcome);
    if (options.partial) continue;
    for (const claim of granted) if (claim.action !== "retaken") giveBack(claim, context);
    return { holder, granted: [], refused };
  }
  return { holder, granted, refused };
}

function recorded(result: TakeResult, context: Context): TakeResult {
  const events = { taken: "take", retaken: "retake", took_over: "takeover" } as const;
  for (const claim of result.granted) {
    const entry = { event: events[claim.action], target: claim.target, holder: claim.holder, purpose: claim.purpose };
    record(context, claim.previous ? { ...entry, other: claim.previous.holder } : entry);
  }
  for (const refusal of result.refused) {
    record(context, { event: "refused", target: refusal.target, holder: result.holder, other: refusal.holder, purpose: refusal.purpose });
  }
  return result;
}

