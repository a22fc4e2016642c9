// The claim tool: `claims take` with the first reference system's arguments, and its answer per
// path asked for (handover without `to` answers the same way). The command does the work, so a
// tool call and a `claims take` on one directory are the same act.
import { check } from "../commands/check.js";
import { take, type TakeResult } from "../commands/take.js";
import { BadInputError } from "../os/errors.js";
import { randomHex } from "../os/hash.js";
import { switchOn } from "../os/option-names.js";
import { openContext, type Context, type Holding } from "../protocol/context.js";
import { parseTarget, type TargetKind } from "../targets/target.js";
import { ABANDONED, givenBackIfAbandoned, type Call } from "./call.js";
import { expiryOfClaim, holderInfo, type HolderInfo } from "./holdings.js";
import { lazyContext, pathToClaim } from "./paths.js";
import { answer, asPathArgument, failure, type FlagNames, type ToolResult } from "./results.js";
import type { ClaimInput } from "./schemas.js";

/** A wait blocks one tool call; an agent that wants longer calls again (and keeps its place meanwhile). */
const MAX_WAIT_PER_CALL = 120;

/**
 * The library's option names in the commands' messages, as these tools name them (most are the
 * same): a purpose is their intent (reason in file_reservation_paths), and they renew a claim by
 * claiming it again.
 */
export const CLAIM_FLAGS: FlagNames = { "pass force: true": "run claims take --force in a shell", "purpose is ": "intent is ", "beat renews your own claim": "claiming it again renews your own claim" };

export interface TargetResult extends Partial<HolderInfo> {
  /** The path as given. */
  path: string;
  /** Its canonical form, as every claim, status and refusal names it. */
  target: string;
  /** What it is: a path (a file), a directory, a glob, a symbol, or a name (written `name:…`). */
  kind?: TargetKind;
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
  // A bare word naming nothing here is the path it will be, with creating (src/mcp/paths.ts).
  let targets: string[] = input.paths;
  const grant = randomHex(8); // this call's grants, should the client give up on it (givenBackIfAbandoned)
  const standing: { stand?: () => void } = {};
  try {
    const here = lazyContext(call.common);
    targets = input.paths.map((path) => pathToClaim(path, input.creating === true, here, heldByOther(holder, call)));
    result = await take({
      ...call.common,
      holder,
      targets,
      creating: input.creating === true,
      queue: input.queue === true,
      signal: call.signal,
      grant,
      standing,
      ...(input.intent !== undefined && { purpose: input.intent }),
      ...(wait !== undefined && { wait, onWaiting: (_refused: unknown, waitedMs: number) => waitedMs === 0 && call.looked?.() }),
    });
  } catch (error) {
    if (!(error instanceof BadInputError)) throw error;
    // Which path is at fault, and the nearest name for a missing symbol, per target as the reference answers.
    const refused = failure(error, CLAIM_FLAGS);
    const results = await diagnose(input.paths, input.creating === true, call, holder);
    // Each path read alone was good: the take's own sentence is about the one it names (a file not
    // there without `creating`), or about the call as a whole (the claims directory) when it names none.
    if (results.every((entry) => entry.reason === NOT_TAKEN)) {
      const sentence = refused.content[0]?.text as string;
      // Named as a whole path (`a.ts` is not named by a sentence about `a.ts.bak`).
      const named = results.filter((entry) => new RegExp(`${entry.target.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w./-])`).test(sentence));
      for (const entry of named.length > 0 ? named : results) entry.reason = sentence;
    }
    refused.structuredContent = { ...refused.structuredContent, actor: holder, results };
    return refused;
  }
  if (await givenBackIfAbandoned(result, call, call.common, { targets, grant, standing })) return answer({ actor: holder, granted: false, results: [], interrupted: true, message: ABANDONED });
  // Here `creating` also makes a bare word naming nothing the path it will be: where it did, the
  // take's note that it changed nothing (it knows of symbols only) is not so.
  if (input.creating === true && input.paths.some((path, index) => targets[index] !== path)) result = withoutCreatingNote(result);
  return answer(claimAnswer(input.paths, result, openContext(call.common), targets));
}

/** A take's result without its note that `creating` changed nothing: where a tool's `creating` made a bare word the path it will be, it did. */
export function withoutCreatingNote(result: TakeResult): TakeResult {
  if (result.warnings === undefined) return result;
  const { warnings: all, ...rest } = result;
  const warnings = all.filter((warning) => !warning.startsWith(`${switchOn("creating")} changed nothing`));
  return warnings.length > 0 ? { ...rest, warnings } : rest;
}

/**
 * A take's result, per path asked for, with one sentence saying what happened and what to do next.
 * `taken`: what was taken for each path, where the tool read one otherwise than the CLI would (a
 * bare word, src/mcp/paths.ts).
 */
export function claimAnswer(paths: string[], result: TakeResult, context: Context, taken: string[] = paths): Record<string, unknown> {
  const gone = new Set(result.no_longer_held ?? []);
  const results: TargetResult[] = [];
  for (const [index, path] of paths.entries()) {
    const { canonical: target, kind } = parsed(taken[index] ?? path, context);
    if (results.some((entry) => entry.target === target)) continue;
    const claim = result.granted.find((granted) => granted.target === target);
    if (claim && !gone.has(target)) {
      const entry: TargetResult = { path, target, kind, granted: true, expiresAt: expiryOfClaim(claim, context) };
      if (typeof claim.token === "number") entry.token = claim.token;
      if (claim.action === "retaken") entry.renewed = true;
      if (claim.action === "took_over" && claim.previous) entry.reclaimedFrom = claim.previous.holder;
      results.push(entry);
      continue;
    }
    const [first, ...others] = result.refused.filter((holding) => holding.target === target);
    const entry: TargetResult = { path, target, kind, granted: false };
    if (first) Object.assign(entry, holderInfo(first, context));
    else entry.reason = gone.has(target) ? "granted by the first call with this key, but no longer yours: claim it again without the key, or with a new one (this key replays this answer)" : "not taken: all or nothing, and another path in this call was refused";
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
  if ((result.interrupted || result.timed_out) && result.queued?.length) {
    const places = results.filter((entry) => entry.queued).map((entry) => `${entry.target} at position ${entry.queuePosition}`);
    return `${result.interrupted ? "The wait was cancelled" : `TIMEOUT: ${first?.target} is still held`}; nothing was taken, but your place queued before the wait stays as it was (${places.join(", ")}): you are granted it in order when it frees, with no further call; call release to withdraw it.`;
  }
  if (result.interrupted) return "The wait was cancelled: nothing was kept, and its queued interest withdrawn.";
  const nothing = result.granted_from_queue?.length ? `nothing else was kept (${result.granted_from_queue.join(", ")} was granted to you from your place queued before the wait, and stays yours)` : "nothing was kept";
  if (result.timed_out) return `TIMEOUT: ${first?.target} is still held; ${nothing}. Call claim again with wait to keep waiting, or with queue: true to be granted it in order when it frees.`;
  if (result.queued?.length) {
    const places = results.filter((entry) => entry.queued).map((entry) => `${entry.target} at position ${entry.queuePosition}`);
    const left = results.filter((entry) => !entry.granted && !entry.queued).map((entry) => asPathArgument(entry.target));
    const rest = left.length > 0 ? ` Nothing else was taken (all or nothing): once granted, claim ${left.join(", ")} with it.` : "";
    return `QUEUED ${places.join(", ")}: you are granted it in order when it frees, with no further call; get_status shows it once under grantedWhileWaiting. Keep working meanwhile.${rest}`;
  }
  if (first) {
    // A claim in another claims directory (a pinned session's, another name's): no queue here waits for it.
    const apart = result.refused.find((holding) => holding.claims_dir !== undefined)?.claims_dir;
    if (apart !== undefined) return `REFUSED ${first.target}: ${first.reason}. Nothing was taken. The claim is in the claims directory ${apart}, where a queue here cannot wait for it: reconcile with the holder from holderIntent, or call claim again with wait: seconds (block until it frees).`;
    return `REFUSED ${first.target}: ${first.reason}. Nothing was taken. Reconcile with the holder from holderIntent, or call claim again with queue: true (granted in order when it frees) or wait: seconds (block until then).`;
  }
  return "Granted. Claim the same paths again before expiresAt to renew (claims hooks renew as you write), and call release when done.";
}

const NOT_TAKEN = "not taken: another path in this call is bad input";

/** A claim of another holder (or a queued interest ahead) that a take of `path` would meet: read-only, as `check` judges. */
export function heldByOther(holder: string, call: Call): (path: string) => Holding | undefined {
  return (path) => check({ ...call.common, holder, targets: [path] }).refused[0];
}

/** After bad input: the sentence for each path at fault, and the nearest name for a missing symbol. */
async function diagnose(paths: string[], creating: boolean, call: Call, holder: string): Promise<TargetResult[]> {
  const context = openContext(call.common);
  const results: TargetResult[] = [];
  const known = new Map<string, string[]>();
  for (const path of paths) {
    const entry: TargetResult = { path, target: path, granted: false, reason: NOT_TAKEN };
    try {
      const target = parseTarget(pathToClaim(path, creating, () => context, heldByOther(holder, call)), { cwd: context.settings.cwd, home: context.settings.home });
      entry.target = target.canonical;
      if (target.kind === "symbol") {
        const { checkSymbol } = await import("../targets/symbols.js");
        await checkSymbol(target, creating, known);
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

function parsed(path: string, context: Context): { canonical: string; kind: TargetKind } {
  const { canonical, kind } = parseTarget(path, { cwd: context.settings.cwd, home: context.settings.home });
  return { canonical, kind };
}
