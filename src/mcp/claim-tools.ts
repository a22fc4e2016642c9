// The tools of the first reference system (claim, release, get_status), plus check and handover,
// which it does not have. Each runs the CLI's own command, so a tool call and a `claims` call on
// one directory are the same act; this file only translates arguments and results.
import { check } from "../commands/check.js";
import { handover } from "../commands/handover.js";
import { release } from "../commands/release.js";
import { status } from "../commands/status.js";
import { take, type TakeResult } from "../commands/take.js";
import { BadInputError } from "../errors.js";
import { openContext, type Context } from "../protocol.js";
import { parseTarget } from "../target.js";
import type { Call } from "./call.js";
import { expiryOfClaim, holderInfo, type HolderInfo } from "./holdings.js";
import { answer, expiryOf, failure, type FlagNames, type ToolResult } from "./results.js";
import type { CheckInput, ClaimInput, GetStatusInput, HandoverInput, ReleaseInput } from "./schemas.js";

/** A wait blocks one tool call; an agent that wants longer calls again (and keeps its place meanwhile). */
export const MAX_WAIT_PER_CALL = 120;

/** The CLI's flags in its messages, as these tools name them. */
export const CLAIM_FLAGS: FlagNames = {
  "--wait": "wait",
  "--queue": "queue",
  "--creating": "creating: true",
  "--purpose": "intent",
  "--holder": "actor",
  "--to": "to",
};

export interface TargetResult extends Partial<HolderInfo> {
  /** The path as given. */
  path: string;
  /** Its canonical form, as every claim, status and refusal names it. */
  target: string;
  granted: boolean;
  /** Yours: when your claim goes stale unless you claim it again (or your hook renews it). */
  expiresAt?: string;
  /** The fencing token of your holding. */
  token?: number;
  /** It was already yours: renewed, taken_at kept. */
  renewed?: true;
  /** Whose stale claim yours replaced. */
  reclaimedFrom?: string;
  /** The nearest declared name, for a symbol the file does not declare. */
  suggestion?: string;
  queued?: true;
  /** 1 = next in line. */
  queuePosition?: number;
  /** More claims in the way besides the first. */
  otherHolders?: HolderInfo[];
}

export async function claimTool(input: ClaimInput, call: Call): Promise<ToolResult> {
  if (input.wait !== undefined && input.queue === true) throw new BadInputError("wait and queue cannot be used together: wait blocks, queue returns at once.");
  const holder = call.holder(input.actor);
  const wait = input.wait === undefined ? undefined : Math.min(MAX_WAIT_PER_CALL, Math.ceil(input.wait));
  let result: TakeResult;
  try {
    result = await take({
      ...call.common,
      holder,
      targets: input.paths,
      creating: input.creating === true,
      queue: input.queue === true,
      signal: call.signal,
      ...(input.intent !== undefined && { purpose: input.intent }),
      ...(wait !== undefined && { wait }),
    });
  } catch (error) {
    if (!(error instanceof BadInputError)) throw error;
    // Which path is at fault, and the nearest name for a missing symbol, per target as the reference answers.
    const refused = failure(error, CLAIM_FLAGS);
    refused.structuredContent = { ...refused.structuredContent, actor: holder, results: await diagnose(input.paths, input.creating === true, call) };
    return refused;
  }
  return answer(claimAnswer(input.paths, result, openContext(call.common)));
}

/** A take's result, per path asked for, with one sentence saying what happened and what to do next. */
export function claimAnswer(paths: string[], result: TakeResult, context: Context): Record<string, unknown> {
  const gone = new Set(result.no_longer_held ?? []);
  const results: TargetResult[] = [];
  for (const path of paths) {
    const target = canonicalOf(path, context);
    if (results.some((entry) => entry.target === target)) continue;
    const claim = result.granted.find((granted) => granted.target === target);
    if (claim && !gone.has(target)) {
      const entry: TargetResult = { path, target, granted: true, expiresAt: expiryOfClaim(claim, context) };
      if (typeof claim.token === "number") entry.token = claim.token;
      if (claim.action === "retaken") entry.renewed = true;
      if (claim.action === "took_over" && claim.previous) entry.reclaimedFrom = claim.previous.holder;
      results.push(entry);
      continue;
    }
    const [first, ...others] = result.refused.filter((holding) => holding.target === target);
    const entry: TargetResult = { path, target, granted: false };
    if (first) Object.assign(entry, holderInfo(first, context));
    else entry.reason = gone.has(target) ? "granted by the first call with this key, but no longer yours" : "not taken: all or nothing, and another path in this call was refused";
    if (others.length > 0) entry.otherHolders = others.map((holding) => holderInfo(holding, context));
    const place = result.queued?.find((queued) => queued.target === target);
    if (place) {
      entry.queued = true;
      entry.queuePosition = place.position;
    }
    results.push(entry);
  }
  const granted = results.every((entry) => entry.granted);
  const shaped: Record<string, unknown> = { actor: result.holder, granted, results, message: sentenceOf(result, results) };
  if (result.timed_out) shaped.timedOut = true;
  if (result.interrupted) shaped.interrupted = true;
  if (result.notes?.length) shaped.notes = result.notes.map((note) => ({ path: note.target, actor: note.holder, intent: note.purpose, queuedAt: note.queued_at }));
  if (result.warnings?.length) shaped.warnings = result.warnings;
  return shaped;
}

function sentenceOf(result: TakeResult, results: TargetResult[]): string {
  const first = results.find((entry) => !entry.granted && entry.holder !== undefined);
  if (result.interrupted) return "The wait was cancelled: nothing was kept, and its queued interest withdrawn.";
  if (result.timed_out) return `TIMEOUT: ${first?.target} is still held; nothing was kept. Call claim again with wait to keep waiting, or with queue: true to be granted it in order when it frees.`;
  if (result.queued?.length) {
    const places = results.filter((entry) => entry.queued).map((entry) => `${entry.target} at position ${entry.queuePosition}`);
    return `QUEUED ${places.join(", ")}: you are granted it in order when it frees, with no further call; get_status shows it once under grantedWhileWaiting. Keep working meanwhile.`;
  }
  if (first) {
    return `REFUSED ${first.target}: ${first.reason}. Nothing was taken. Reconcile with the holder from holderIntent, or call claim again with queue: true (granted in order when it frees) or wait: seconds (block until then).`;
  }
  return "Granted. Claim the same paths again before expiresAt to renew (claims hooks renew as you write), and call release when done.";
}

/** After bad input: the sentence for each path at fault, and the nearest name for a missing symbol. */
async function diagnose(paths: string[], creating: boolean, call: Call): Promise<TargetResult[]> {
  const context = openContext(call.common);
  const results: TargetResult[] = [];
  for (const path of paths) {
    const entry: TargetResult = { path, target: path, granted: false, reason: "not taken: another path in this call is bad input" };
    try {
      const target = parseTarget(path, { cwd: context.settings.cwd, home: context.settings.home });
      entry.target = target.canonical;
      if (target.kind === "symbol") {
        const { checkSymbol } = await import("../symbols.js");
        await checkSymbol(target.path, target.symbol as string, creating);
      }
    } catch (error) {
      if (!(error instanceof BadInputError)) throw error;
      entry.reason = failure(error, CLAIM_FLAGS).content[0]?.text as string;
      const near = /did you mean `([^`]+)`/.exec(error.message);
      if (near) entry.suggestion = near[1] as string;
    }
    results.push(entry);
  }
  return results;
}

function canonicalOf(path: string, context: Context): string {
  return parseTarget(path, { cwd: context.settings.cwd, home: context.settings.home }).canonical;
}

export async function releaseTool(input: ReleaseInput, call: Call): Promise<ToolResult> {
  const holder = call.holder(input.actor);
  if (input.paths !== undefined && input.paths.length === 0) {
    return answer({ actor: holder, released: [], expired: [], withdrawn: [], handedTo: [] });
  }
  const all = input.paths === undefined;
  const result = release({ ...call.common, holder, ...(input.paths && { targets: input.paths }) });
  // Everything of yours: a claim you were granted and that is gone or another's now has expired.
  const expired = [...result.lost, ...(all ? result.not_held : [])];
  const shaped: Record<string, unknown> = {
    actor: holder,
    released: result.released,
    expired,
    withdrawn: result.withdrawn,
    handedTo: result.handed_to.map((handed) => ({ path: handed.target, actor: handed.holder })),
  };
  if (!all && result.not_held.length > 0) shaped.notHeld = result.not_held;
  const nowHeld = result.lost_to.filter((lost) => lost.now_held_by).map((lost) => ({ path: lost.target, holder: lost.now_held_by?.holder, holderIntent: lost.now_held_by?.purpose }));
  if (nowHeld.length > 0) shaped.nowHeldBy = nowHeld;
  return answer(shaped);
}

export async function getStatusTool(input: GetStatusInput, call: Call): Promise<ToolResult> {
  const holder = call.holder(input.actor);
  const result = status({ ...call.common, holder });
  const live = result.claims.filter((claim) => !claim.stale);
  return answer({
    actor: holder,
    dir: result.dir,
    claims: live.map((claim) => ({
      path: claim.target,
      kind: claim.kind,
      holder: claim.holder,
      intent: claim.purpose,
      mine: claim.mine === true,
      ...(claim.mode === "shared" && { shared: true }),
      takenAt: claim.taken_at,
      heartbeatAt: claim.heartbeat_at,
      expiresAt: expiryOf(claim.heartbeat_at, claim.ttl_seconds),
      ...(typeof claim.token === "number" && { token: claim.token }),
      queue: claim.queue.map((note) => ({ actor: note.holder, intent: note.purpose, queuedAt: note.queued_at })),
    })),
    staleClaims: result.claims.length - live.length,
    queued: result.queued.filter((note) => note.holder === holder).map((note) => ({ path: note.target, intent: note.purpose, queuedAt: note.queued_at })),
    grantedWhileWaiting: result.granted_while_waiting.map((grant) => ({
      path: grant.target,
      intent: grant.purpose,
      grantedAt: grant.granted_at,
      ...(grant.previous !== undefined && { reclaimedFrom: grant.previous }),
    })),
  });
}

export async function checkTool(input: CheckInput, call: Call): Promise<ToolResult> {
  const holder = call.holder(input.actor);
  const result = check({ ...call.common, holder, targets: input.paths });
  const context = openContext(call.common);
  const shaped: Record<string, unknown> = {
    actor: holder,
    mayWrite: result.refused.length === 0,
    allowed: result.allowed,
    refused: result.refused.map((holding) => ({ path: holding.target, ...holderInfo(holding, context) })),
  };
  if (result.warnings?.length) shaped.warnings = result.warnings;
  return answer(shaped);
}

export async function handoverTool(input: HandoverInput, call: Call): Promise<ToolResult> {
  const holder = call.holder(input.actor);
  const result = await handover({
    ...call.common,
    holder,
    target: input.path,
    ...(input.intent !== undefined && { purpose: input.intent }),
    ...(input.to !== undefined && { to: input.to }),
  });
  if ("to" in result) {
    return answer({ actor: holder, path: input.path, target: result.target, to: result.to, intent: result.purpose, message: `Handed ${result.target} to ${result.to}: it is theirs now, and no longer yours.` });
  }
  return answer(claimAnswer([input.path], result, openContext(call.common)));
}
