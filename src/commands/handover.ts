// handover: leave a note for a target someone else holds and be granted it, in order, when it
// frees (the same queued interest as `take --queue`); or, with `to`, hand your own claim directly
// to another holder.
import { existsSync } from "node:fs";
import { BadInputError, ClaimsError } from "../os/errors.js";
import { optionName } from "../os/option-names.js";
import { grantQueued, writeNotice } from "../protocol/grant.js";
import { dequeue, queueFileName, readQueue } from "../protocol/queue.js";
import { holderOf, judge, openContext, parseTargets, record, refreshNow, type CommonOptions, type Context, type Holding } from "../protocol/context.js";
import { howLanded, stampClocks, type StampClocks } from "../protocol/acquire.js";
import type { Claim } from "../protocol/claim.js";
import { fencedOff, nextToken, tokenFileName, type Fenced } from "../protocol/fencing.js";
import { forgetHeld, ownForm, rememberHeld } from "../protocol/held.js";
import { forPurpose } from "../protocol/describe.js";
import { formatTimestamp } from "../os/time.js";
import { claimFileName, looksLikePath, pathItWillBe, sharedClaimFileName, type Target } from "../targets/target.js";
import { shapeOf } from "../targets/overlap.js";
import { findConflictsWithLinks, refusalOf } from "../protocol/conflicts.js";
import { linksOf } from "../protocol/aliases.js";
import { linkedContexts, lookThroughLinks } from "../protocol/linked.js";
import { take, type TakeResult } from "./take.js";
import { oneDirectory, rememberElsewhere, routesOf, settingsOf } from "../protocol/routes.js";
import { checkHolder } from "../protocol/settings.js";
import { shellQuoteShown } from "../os/shell-quote.js";
import { asOneVerb } from "../os/lookups.js";
import { checkOptionTypes } from "./option-types.js";

export interface HandoverOptions extends CommonOptions {
  target: string;
  purpose?: string;
  /** Without `to`: allow file#symbol for a symbol not in its file yet (one its holder is adding), as take's. */
  creating?: boolean;
  /** Hand your claim directly to this holder instead of queueing. */
  to?: string;
  /** With `to`: the fencing token of your holding; refused (LOST) if the claim carries a newer one, or another holder took anything it covered since. */
  token?: number;
  /** Without `to`: the take's grant id (TakeOptions.grant), for a caller that may give back a free target taken at once. */
  grant?: string;
  /** Without `to`: see TakeOptions.standing. */
  standing?: { stand?: () => void };
}

export interface TransferResult {
  holder: string;
  target: string;
  /** The new holder. */
  to: string;
  /** The purpose given; else the new holder's, when it queued for the target; else the previous holder's. */
  purpose: string;
  /** The fencing token of the new holding: the one the new holder's --token must name. */
  token: number;
}

export function handover(options: HandoverOptions): Promise<TakeResult | TransferResult> {
  return asOneVerb(() => handoverNow(options));
}

async function handoverNow(options: HandoverOptions): Promise<TakeResult | TransferResult> {
  checkOptionTypes("handover", options);
  if (options.to === undefined) {
    if (options.token !== undefined) throw new BadInputError(`${optionName("token")} goes with ${optionName("to")}: it names the holding you hand over; add ${optionName("to")} HOLDER, or drop it to queue behind the holder.`);
    return take({ ...options, targets: [options.target], queue: true });
  }
  // Handed over where the target's claims live (src/protocol/routes.ts); the new holder's beat and release without targets reach it from here.
  const routes = routesOf([options.target], options);
  if (!routes) return transfer(options, options.to);
  const dir = oneDirectory(routes, "hand over");
  const result = transfer({ ...options, dir, ...settingsOf(routes, dir) }, options.to);
  if (dir !== routes.own.dir) rememberElsewhere(routes.own, result.to, dir);
  return result;
}

function transfer(options: HandoverOptions, to: string): TransferResult {
  if (to.trim() === "") throw new BadInputError(`${optionName("to")} must name a holder id, e.g. ${optionName("to")} session-b7.`);
  checkHolder(to, optionName("to"));
  const context = openContext(options);
  const holder = holderOf(options);
  const [parsed] = parseTargets([options.target], context);
  if (!parsed) throw new BadInputError("handover needs a target.");
  // `gen.txt` for the file ./gen.txt the holder claimed, as release and beat read it (ownForm).
  const own = ownForm(parsed, holder, context);
  const target: Target = own === undefined || own === parsed.canonical ? parsed : { ...shapeOf(own), fileName: claimFileName(own) };
  // Handing a claim to its own holder would change nothing but the fencing token, fencing off the
  // holder's own writes in flight: a slip (a wrong variable), not a request.
  if (to === holder) throw new BadInputError(`${optionName("to")} ${to} names you, the holder; hand ${target.canonical} to another holder (beat renews your own claim).`);
  // A shared claim is one of several on the target, not the target: it cannot be handed on whole.
  if (context.store.read(sharedClaimFileName(target.canonical, holder)).state === "claim" && context.store.read(target.fileName).state === "missing") {
    throw new BadInputError(`Your claim on ${target.canonical} is shared, and ${optionName("to")} hands over an exclusive one; release yours and let ${to} take it (claims take ${target.canonical} --shared).`);
  }
  // No claims directory yet: nothing is held there, yours included (and its take lock would need one made).
  if (!existsSync(context.store.dir)) throw new NotYoursError(target.canonical, undefined, looksLikePath(target) ? eitherReading(target.canonical) : undefined);
  return context.store.withTakeLock(() => {
    refreshNow(context);
    grantQueued(context); // a claim gone stale belongs to the queue first, not to whoever its holder names
    for (let attempt = 0; attempt < 50; attempt++) {
      const since = stampClocks(); // before the handed claim is stamped
      refreshNow(context); // an attempt after one that lost a race stamps by the time now
      const read = context.store.read(target.fileName);
      const judgement = judge(read, target.canonical, holder, context);
      const holding = judgement.state === "held" || judgement.state === "stale" ? judgement.holding : undefined;
      // `gen.txt` (or `build`) held by nobody: `claims take gen.txt` would ask which was meant, so say both.
      const either = holding === undefined && looksLikePath(target) ? eitherReading(target.canonical) : undefined;
      if (judgement.state !== "mine") throw new NotYoursError(target.canonical, holding, either);
      const now = formatTimestamp(context.nowMs);
      // Unless a purpose is given: the new holder's own, when it queued for the target; else the giver's.
      const waiting = readQueue(context).find((interest) => interest.fileName === queueFileName(target.canonical, to));
      const purpose = options.purpose ?? waiting?.entry.purpose ?? judgement.claim.purpose;
      const fenced = fencedOff(judgement.claim, holder, options.token, context, () => linkedContexts(target, context.store.dir, holder, options));
      if (fenced) throw new NotYoursError(target.canonical, undefined, `You no longer hold ${target.canonical} as that holding: ${whyFenced(fenced, options.token as number)}; only the current holding can hand it over.`);
      // A claim of yours gone stale is held by nobody: something overlapping it may have been taken
      // meanwhile, which handing it on would not look for.
      if (judgement.stale) throw new NotYoursError(target.canonical, undefined, `You no longer hold ${target.canonical}: your claim lapsed (its heartbeat is older than its TTL) and anything overlapping it may have been taken since; take it again (claims take ${target.canonical}) before handing it over.`);
      // Handed on, the claim is another holder's beside everything else that covers what it covers:
      // the giver's own other claims there (`D/` while handing `D/a.ts`, the file of a symbol, its
      // shared claim on the target) would be another holder's fresh claim in the new holder's way,
      // two holders on one file, each refusing the other.
      // And in the other claims directories a take of the target by `to` would look in: the giver's
      // claim there made by its hook where its shell pins CLAIMS_DIR, another name of the file.
      const linked = lookThroughLinks(target, new Set([context.store.dir]), "exclusive", to, options, { tokens: true });
      const inTheWay = [...inTheNewHoldersWay(target, holder, to, context), ...linked.found.map(({ dir, holding }) => ({ ...holding, claims_dir: dir }))];
      if (inTheWay.length > 0) throw new HandoverRefusedError(target.canonical, to, inTheWay);
      // Above the tokens issued on it there too, as a take's (docs/PROTOCOL.md 4a).
      const token = nextToken(target.canonical, context, Math.max(judgement.claim.token ?? 0, linked.highestToken ?? 0));
      const handed = { ...judgement.claim, holder: to, purpose, taken_at: now, heartbeat_at: now, token };
      const change = { replace: handed, counter: tokenFileName(target.canonical, to) };
      if (context.store.change(target.fileName, judgement.version, () => change) !== "done") continue;
      const landed = landedFresh(target.fileName, target.canonical, handed, since, context);
      // The new holder's own queued interest in the target is spent, and it learns of the claim as a waiter would.
      for (const interest of readQueue(context)) {
        if (interest.fileName !== queueFileName(target.canonical, to)) continue;
        dequeue(interest, context);
        record(context, { event: "dequeue", target: target.canonical, holder: to });
      }
      writeNotice({ target: target.canonical, holder: to, purpose, granted_at: landed.taken_at, handed_by: holder, notes: [] }, context);
      forgetHeld(holder, target.canonical, context);
      // As granted to the call that queued H's interest (a wait that gives back what it got gives this back too).
      const grant = waiting?.entry.grant;
      rememberHeld({ target: target.canonical, holder: to, mode: "exclusive", ...(typeof grant === "string" && { grant }) }, context);
      record(context, { event: "transfer", target: target.canonical, holder, other: to, purpose });
      return { holder, target: target.canonical, to, purpose, token };
    }
    throw new ClaimsError("INTERNAL", `The claim of ${target.canonical} kept changing; retry.`);
  });
}

/**
 * The handed claim as it stands once written fresh. A handover that stalled (stopped, descheduled)
 * between stamping the handed claim and its rename for longer than its TTL landed it stale: it
 * handed nothing, and the take waiting for the lock would take over what the new holder was just
 * told it holds. Still under the take lock, where nothing could have been taken meanwhile, such a
 * claim is written again with the time now. One no longer there as written (a sweep removed it as
 * the stale claim it was) is held by nobody: the handover fails, LOST. Only after a stall
 * (stalledSince): a write that landed within half its TTL cannot have landed stale.
 */
function landedFresh(fileName: string, target: string, handed: Claim, since: StampClocks, context: Context): Claim {
  let written = handed;
  for (let attempt = 0; attempt < 50; attempt++) {
    const landing = howLanded(fileName, written, since, context);
    if (landing.state === "fresh") return written;
    if (landing.state === "gone") {
      throw new NotYoursError(
        target,
        undefined,
        `Handing ${target} to ${written.holder} stalled past the claim's TTL before the handed claim was written, and it was removed meanwhile as stale: neither you nor ${written.holder} holds ${target}; take it again (claims take ${shellQuoteShown(target)}).`,
      );
    }
    const { read } = landing;
    const stamping = stampClocks(); // before it is stamped again
    refreshNow(context);
    const now = formatTimestamp(context.nowMs);
    const again: Claim = { ...read.claim, taken_at: now, heartbeat_at: now };
    if (context.store.change(fileName, read.version, () => ({ replace: again })) === "done") [written, since] = [again, stamping];
  }
  throw new ClaimsError("INTERNAL", `The claim of ${target} kept changing; retry.`);
}

/**
 * The fresh claims that would stand in the way of `to` holding the target exclusively, as a take of
 * it by `to` would find them (through a glob's symlinks too), but the claim being handed itself.
 */
function inTheNewHoldersWay(target: Target, giver: string, to: string, context: Context): Holding[] {
  const links = linksOf(target.fileName, target.canonical, context);
  return findConflictsWithLinks(target, links, "exclusive", to, context, context.store.claimFileNames())
    .map((conflict) => refusalOf(target.canonical, conflict))
    .filter((holding) => !(holding.holder === giver && holding.shared !== true && holding.unreadable === undefined && (holding.held_target ?? holding.target) === target.canonical));
}

/** Exit 3: the new holder would be refused the target by another claim covering it (the giver's own, most often). */
export class HandoverRefusedError extends ClaimsError {
  readonly refused: Holding[];
  constructor(target: string, to: string, refused: Holding[]) {
    const named = refused.map((holding) => `${holding.held_target ?? holding.target} (${holding.holder}${holding.shared ? ", shared" : ""}${holding.claims_dir !== undefined ? `, in the claims directory ${holding.claims_dir}` : ""})`);
    super(
      "REFUSED",
      `Cannot hand ${target} to ${to}: the claim${named.length === 1 ? "" : "s"} on ${named.join(", ")} ${named.length === 1 ? "overlaps" : "overlap"} it and would refuse ${to} every write there; nothing was handed. Hand over or release ${named.length === 1 ? "that claim" : "those claims"} first.`,
    );
    this.refused = refused;
  }
}

/** For a word that reads like a path: the two takes that work, the path it will be and the name. */
function eitherReading(word: string): string {
  const { path, what } = pathItWillBe(word);
  return `You do not hold ${word}: nobody does; take it with claims take ${shellQuoteShown(path)} (the ${what}) or claims take ${shellQuoteShown(`name:${word}`)} (the name).`;
}

function whyFenced(fenced: Fenced, token: number): string {
  if ("current_token" in fenced) return `the claim carries token ${fenced.current_token}, not ${token}`;
  if (fenced.newer_token_target !== undefined) return `another holder was issued token ${fenced.newer_token} on ${fenced.newer_token_target}, which overlaps it, after yours (${token})`;
  return `your token ${token} is older than the claim's ${fenced.newer_token}`;
}

/** Exit 4: handing over a claim the caller does not hold. */
export class NotYoursError extends ClaimsError {
  readonly now_held_by: Holding | undefined;
  /** `why`: the whole message, where the caller's claim is there but no longer a holding (fenced off, lapsed). */
  constructor(target: string, holding: Holding | undefined, why?: string) {
    super(
      "LOST",
      why !== undefined
        ? why
        : holding
          ? `You do not hold ${target}: ${holding.holder} does, ${forPurpose(holding.purpose)}; only the holder can hand it over.`
          : `You do not hold ${target}: nobody does; take it with claims take ${shellQuoteShown(target)}.`,
    );
    this.now_held_by = holding;
  }
}
