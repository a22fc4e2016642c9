// take: every target, or none. Each claim is created by link(2) and read back before success.
import { newClaim, type Claim } from "../claim.js";
import { BadInputError, BusyError } from "../errors.js";
import { holderOf, judge, kindOf, openContext, parseTargets, type CommonOptions, type Context, type Holding } from "../protocol.js";
import { formatTimestamp } from "../time.js";
import type { Target } from "../target.js";

export interface TakeOptions extends CommonOptions {
  targets: string[];
  /** Why: shown to every session this claim refuses. A re-take without a purpose keeps the old one. */
  purpose?: string;
}

export interface GrantedClaim extends Claim {
  kind: "name" | "path";
  /** taken: it was free; retaken: it was already yours (heartbeat renewed, taken_at kept); took_over: it was stale. */
  action: "taken" | "retaken" | "took_over";
  /** For took_over: whose stale claim was replaced. */
  previous?: Holding;
}

export interface TakeResult {
  holder: string;
  granted: GrantedClaim[];
  refused: Holding[];
}

const MAX_ATTEMPTS = 50;

export function take(options: TakeOptions): TakeResult {
  if (options.targets.length === 0) throw new BadInputError("take needs at least one target, e.g. claims take shared-config.");
  if (options.purpose !== undefined && options.purpose.length > 1000) {
    throw new BadInputError(`The purpose is ${options.purpose.length} characters long; keep it under 1000.`);
  }
  const context = openContext(options);
  const holder = holderOf(options);
  const targets = parseTargets(options.targets, context);
  context.store.ensure();

  // Look before taking anything, so every refusal is reported and a refused take leaves no trace.
  const refused: Holding[] = [];
  for (const target of targets) {
    const judgement = judge(context.store.read(target.fileName), target.canonical, holder, context);
    if (judgement.state === "blocked") throw new BadInputError(`Cannot take ${target.canonical}: ${judgement.reason}.`);
    if (judgement.state === "held") refused.push(judgement.holding);
  }
  if (refused.length > 0) return { holder, granted: [], refused };

  const granted: Array<{ target: Target; claim: GrantedClaim }> = [];
  for (const target of targets) {
    const outcome = takeOne(target, holder, options.purpose, context);
    if ("action" in outcome) {
      granted.push({ target, claim: outcome });
      continue;
    }
    // Someone got in between the look and the take: all or nothing, so give back what this call took.
    for (const { target, claim } of granted) if (claim.action !== "retaken") giveBack(target, claim, context);
    return { holder, granted: [], refused: [outcome] };
  }
  return { holder, granted: granted.map((entry) => entry.claim), refused: [] };
}

function takeOne(target: Target, holder: string, purpose: string | undefined, context: Context): GrantedClaim | Holding {
  const { store, settings, nowMs } = context;
  const ttl = settings.ttlExplicit ? settings.ttl : undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const judgement = judge(store.read(target.fileName), target.canonical, holder, context);
    switch (judgement.state) {
      case "blocked":
        throw new BadInputError(`Cannot take ${target.canonical}: ${judgement.reason}.`);
      case "held":
        return judgement.holding;
      case "free": {
        const claim = newClaim(target.canonical, holder, purpose ?? "", nowMs, ttl);
        if (store.create(target.fileName, claim) && confirmed(target, claim, context)) {
          return { ...claim, kind: kindOf(claim.target), action: "taken" };
        }
        break;
      }
      case "mine": {
        const renewed: Claim = { ...judgement.claim, heartbeat_at: formatTimestamp(nowMs) };
        if (purpose !== undefined) renewed.purpose = purpose;
        if (ttl !== undefined) renewed.ttl = ttl;
        if (store.change(target.fileName, judgement.version, () => ({ replace: renewed })) === "done" && confirmed(target, renewed, context)) {
          return { ...renewed, kind: kindOf(renewed.target), action: "retaken" };
        }
        break;
      }
      case "stale": {
        const claim = newClaim(target.canonical, holder, purpose ?? "", nowMs, ttl);
        if (store.change(target.fileName, judgement.version, () => ({ replace: claim })) === "done" && confirmed(target, claim, context)) {
          return { ...claim, kind: kindOf(claim.target), action: "took_over", previous: judgement.holding };
        }
        break;
      }
    }
  }
  throw new BusyError(`The claim of ${target.canonical} kept changing under ${MAX_ATTEMPTS} attempts; retry.`);
}

/** Read-back: success is reported only once the claim on disk carries our holder and taken_at. */
function confirmed(target: Target, claim: Claim, context: Context): boolean {
  const read = context.store.read(target.fileName);
  return read.state === "claim" && read.claim.holder === claim.holder && read.claim.taken_at === claim.taken_at;
}

/** Removes a claim this call created, if it is still exactly ours. */
function giveBack(target: Target, claim: Claim, context: Context): void {
  const read = context.store.read(target.fileName);
  if (read.state !== "claim" || read.claim.holder !== claim.holder || read.claim.taken_at !== claim.taken_at) return;
  context.store.change(target.fileName, read.version, () => "remove");
}
