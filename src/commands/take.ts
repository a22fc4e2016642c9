// take: every target, or none (or, with --partial, what is free). Overlap checks and creation run
// under the take lock, so two takes of overlapping targets never both succeed. Each claim is
// created by link(2) and read back before success is reported.
import { newClaim, type Claim, type Mode } from "../claim.js";
import { findConflicts } from "../conflicts.js";
import { BadInputError, BusyError } from "../errors.js";
import { checkKey, remember, replay } from "../idempotency.js";
import { holderOf, judge, kindOf, openContext, parseTargets, record, type CommonOptions, type Context, type Holding } from "../protocol.js";
import { sharedClaimFileName, type Target, type TargetKind } from "../target.js";
import { formatTimestamp } from "../time.js";

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

export interface GrantedClaim extends Claim {
  kind: TargetKind;
  /** taken: it was free; retaken: it was already yours (heartbeat renewed, taken_at kept); took_over: it was stale. */
  action: "taken" | "retaken" | "took_over";
  /** For took_over: whose stale claim was replaced. */
  previous?: Holding;
}

export interface TakeResult {
  holder: string;
  granted: GrantedClaim[];
  refused: Holding[];
  /** Set when this is the stored first result of an idempotency key. */
  idempotent_replay?: true;
}

const MAX_ATTEMPTS = 50;
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

  const granted: Array<{ fileName: string; claim: GrantedClaim }> = [];
  for (const target of free) {
    const fileName = mode === "shared" ? sharedClaimFileName(target.canonical, holder) : target.fileName;
    const outcome = takeOne(target, fileName, mode, holder, options.purpose, context);
    if ("action" in outcome) {
      granted.push({ fileName, claim: outcome });
      dropOtherMode(target, mode, holder, context);
      continue;
    }
    // A writer that does not use the take lock got in between: report it like any refusal.
    refused.push(outcome);
    if (options.partial) continue;
    for (const entry of granted) if (entry.claim.action !== "retaken") giveBack(entry.fileName, entry.claim, context);
    return { holder, granted: [], refused };
  }
  return { holder, granted: granted.map((entry) => entry.claim), refused };
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

function takeOne(
  target: Target,
  fileName: string,
  mode: Mode,
  holder: string,
  purpose: string | undefined,
  context: Context,
): GrantedClaim | Holding {
  const { store, settings, nowMs } = context;
  const ttl = settings.ttlExplicit ? settings.ttl : undefined;
  const grant = (claim: Claim, action: GrantedClaim["action"], previous?: Holding): GrantedClaim => ({
    ...claim,
    kind: kindOf(claim.target),
    action,
    ...(previous && { previous }),
  });
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const judgement = judge(store.read(fileName), target.canonical, holder, context);
    switch (judgement.state) {
      case "blocked":
        throw new BadInputError(`Cannot take ${target.canonical}: ${judgement.reason}.`);
      case "held":
        return judgement.holding;
      case "free": {
        const claim = newClaim(target.canonical, holder, purpose ?? "", nowMs, ttl, mode);
        if (store.create(fileName, claim) && confirmed(fileName, claim, context)) return grant(claim, "taken");
        break;
      }
      case "mine": {
        const renewed: Claim = { ...judgement.claim, heartbeat_at: formatTimestamp(nowMs) };
        if (purpose !== undefined) renewed.purpose = purpose;
        if (ttl !== undefined) renewed.ttl = ttl;
        if (store.change(fileName, judgement.version, () => ({ replace: renewed })) === "done" && confirmed(fileName, renewed, context)) {
          return grant(renewed, "retaken");
        }
        break;
      }
      case "stale": {
        const claim = newClaim(target.canonical, holder, purpose ?? "", nowMs, ttl, mode);
        if (store.change(fileName, judgement.version, () => ({ replace: claim })) === "done" && confirmed(fileName, claim, context)) {
          return grant(claim, "took_over", judgement.holding);
        }
        break;
      }
    }
  }
  throw new BusyError(`The claim of ${target.canonical} kept changing under ${MAX_ATTEMPTS} attempts; retry.`);
}

/** Read-back: success is reported only once the claim on disk carries our holder and taken_at. */
function confirmed(fileName: string, claim: Claim, context: Context): boolean {
  const read = context.store.read(fileName);
  return read.state === "claim" && read.claim.holder === claim.holder && read.claim.taken_at === claim.taken_at;
}

/** Removes a claim this call created, if it is still exactly ours. */
function giveBack(fileName: string, claim: Claim, context: Context): void {
  const read = context.store.read(fileName);
  if (read.state !== "claim" || read.claim.holder !== claim.holder || read.claim.taken_at !== claim.taken_at) return;
  context.store.change(fileName, read.version, () => "remove");
}

/** Taking a target in one mode replaces the holder's own claim on it in the other mode. */
function dropOtherMode(target: Target, mode: Mode, holder: string, context: Context): void {
  const other = mode === "shared" ? target.fileName : sharedClaimFileName(target.canonical, holder);
  const read = context.store.read(other);
  if (read.state === "claim" && read.claim.holder === holder) context.store.change(other, read.version, () => "remove");
}
