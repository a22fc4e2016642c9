// take: every target, or none (or, with --partial, what is free). Overlap checks and creation run
// under the take lock, so two takes of overlapping targets never both succeed. Each claim is
// created by link(2) and read back before success is reported.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { acquire, claimFileOf, dropOtherMode, giveBack, howLanded, ownInOtherMode, stampClocks, type Request, type StampClocks } from "../protocol/acquire.js";
import type { Claim, Mode } from "../protocol/claim.js";
import { rememberLinks, symlinksSeen, type Link, walkCutShortNote } from "../protocol/aliases.js";
import { tooBroad } from "../targets/broad-target.js";
import { findConflictsWithLinks, refusalOf } from "../protocol/conflicts.js";
import { BadInputError, BusyError, ClaimsError, DeadlockError } from "../os/errors.js";
import { shellQuoteShown } from "../os/shell-quote.js";
import { optionName, switchOn } from "../os/option-names.js";
import { findCycle, grantQueued, noteOf, notesFor, queueAhead, type Note } from "../protocol/grant.js";
import { checkKey, remember, replay } from "../protocol/idempotency.js";
import { holderOf, judge, openContext, ownFreshness, parseTargets, record, refreshNow, type Context, type Holding } from "../protocol/context.js";
import { claimedAsName, claimedAsPath, dequeue, enqueue, QUEUE_PREFIX, readQueue, type QueueEntry, type QueuedInterest } from "../protocol/queue.js";
import { isClaimFileName } from "../protocol/store.js";
import { pruneUnresolved } from "../protocol/unresolved.js";
import { lookAtLinks, onInterrupt, settleRaceThroughLinks, waitOutLinks } from "./take-links.js";
import { giveBackGrants } from "./take-undo.js";
import { claimFileName, isDirectory, looksLikePath, parseTarget, pathItWillBe, type Target } from "../targets/target.js";
import { shapeOf } from "../targets/overlap.js";
import { ownIdentity } from "../os/process-identity.js";
import { ageInSeconds, parseTimestamp } from "../os/time.js";
import { holderOverride, resolveSettings } from "../protocol/settings.js";
import { walkGlob } from "../targets/glob-walk.js";
import { isFile, pinned, refuseCutShort, unsearchedNote, mergeResults, settingsOf, oneDirectory, oneDirectoryEach, rememberElsewhere, routesOf, type Routes } from "../protocol/routes.js";
import { hiddenFrom, unpointedNote } from "../protocol/pinned.js";
import { randomHex } from "../os/hash.js";
import { heldThroughMount, heldThroughMove, markerOf, toldHeld } from "../protocol/held.js";

export { MAX_WAIT_SECONDS } from "./take-types.js";

export type { GrantedClaim } from "../protocol/acquire.js";

export type { QueuedPlace, TakeOptions, TakenClaim, TakeResult } from "./take-types.js";
import { MAX_WAIT_SECONDS, type QueuedPlace, type TakeOptions, type TakenClaim, type TakeResult } from "./take-types.js";
import { asOneVerb, freshLookups } from "../os/lookups.js";
import { outsideHeldLocks } from "../os/lease.js";
import { checkOptionTypes } from "./option-types.js";

export const MAX_PURPOSE_LENGTH = 1000;

/** What makes a word path-like (docs/PROTOCOL.md 2): a name written with it after name: reads as a path everywhere else. */
const PATH_LIKE_NAME = /[/#*?[\]{}]|^[.~]/;

export function take(options: TakeOptions): Promise<TakeResult> {
  return asOneVerb(async () => {
    checkOptionTypes("take", options);
    return withUnneededSwitches(await takeNow(options), options);
  });
}

/**
 * --creating or --force where no target needs it: said in the warnings (on stderr), since nothing
 * else would show it did nothing (`claims take shared-config --force`). Not refused, as --token
 * without --to is: these only allow more, so ignoring one takes nothing away from what was asked.
 * Looked at only when one is given; once, though a take in two directories runs take for each.
 */
function withUnneededSwitches(result: TakeResult, options: TakeOptions): TakeResult {
  if (!options.creating && !options.force) return result;
  const settings = resolveSettings({ ...(options.cwd !== undefined && { cwd: options.cwd }), ...(options.env !== undefined && { env: options.env }) });
  const targets = options.targets.flatMap((input) => {
    try {
      return [parseTarget(input, settings)];
    } catch {
      return [];
    }
  });
  const notes: string[] = [];
  if (options.creating && !targets.some((target) => target.kind === "symbol")) {
    notes.push(`${switchOn("creating")} changed nothing: it allows a file#symbol target whose symbol the file does not declare yet, and no target names a symbol`);
  }
  if (options.force && !targets.some((target) => tooBroad(target, settings) !== undefined)) {
    notes.push(`${switchOn("force")} changed nothing: it allows a target covering /, a home directory or a whole repository, and no target does`);
  }
  const fresh = notes.filter((note) => !(result.warnings ?? []).includes(note));
  return fresh.length === 0 ? result : { ...result, warnings: [...(result.warnings ?? []), ...fresh] };
}

async function takeNow(options: TakeOptions): Promise<TakeResult> {
  // Its grants are named in the held markers, so that its give-back (interrupted) takes back only those.
  if (options.grant === undefined) options = { ...options, grant: randomHex(8) };
  if (options.targets.length === 0) throw new BadInputError("take needs at least one target, e.g. claims take shared-config.");
  refuseBadOptions(options);
  // Said before the `.claims` files under a directory target are read (routesOf): a slip like
  // `claims take ~` is told as one, not as a broken config somewhere below it.
  if (!options.force) refuseTooBroadFirst(options);
  // A target a `.claims` nearer to it gives to another claims directory is claimed there, where
  // the sessions beside it claim and the hooks judge (src/protocol/routes.ts).
  const routes = routesOf(options.targets, options);
  refuseCutShort(routes, "claim");
  const unsearched = unsearchedNote(routes);
  // A file with another name in a package whose claims live elsewhere: a claim there on that name
  // is in its way (docs/PROTOCOL.md 5a), looked at read-only. All or nothing, as any refusal.
  let looked = lookAtLinks(options, routes, { tokens: true });
  if (looked.found.length > 0 && options.wait !== undefined) {
    // Waited out read-only there, then taken here with the time left (src/commands/take-links.ts).
    const waited = await waitOutLinks(options, routes, looked);
    if (waited.ended) return waited.ended;
    ({ looked, options } = waited);
  }
  const linked = looked.found;
  if (linked.length > 0 && !options.partial) return { holder: holderOf(options), granted: [], refused: linked.map(({ holding }) => holding) };
  const rest = linked.length > 0 ? options.targets.filter((input) => !linked.some((refusal) => refusal.input === input)) : options.targets;
  if (rest.length === 0) return { holder: holderOf(options), granted: [], refused: linked.map(({ holding }) => holding) };
  // A token issued here is above those issued on the targets in the directories looked in.
  const floors = looked.floors.size === 0 ? {} : { tokenFloors: looked.floors };
  const asked = rest === options.targets && looked.floors.size === 0 ? options : { ...options, ...floors, targets: rest };
  const routed = rest === options.targets ? routes : routesOf(rest, options);
  const elsewhere = routed !== undefined && !(routed.dirs.size === 1 && routed.dirs.has(routed.own.dir));
  // A take that looks again after its grant (settleRaceThroughLinks) gives its claims back when
  // interrupted from its grant on: nobody was told they are held. Listened for from the start when
  // the take itself is short (no --wait, which has its own), so no grant goes unanswered. So does
  // any take without a caller's signal (the CLI's): one of many targets takes a while, and killed
  // by Ctrl-C midway it left those it had written held for their TTL, though it takes all or none.
  // (A caller's signal, claims mcp's, is answered by the caller: src/mcp/call.ts.)
  const listening = options.wait === undefined && (looked.looked.size > 0 || options.signal === undefined);
  let interrupt = listening ? onInterrupt(options.signal) : undefined;
  let yielded = false;
  let taken: TakeResult;
  // The holder's claims in the other mode go once the take stands (switchedOnceStanding): after the
  // look again, and after a signal noted meanwhile gave the grants back.
  if (!elsewhere) switchingOnceStanding.add(asked);
  try {
    const granted = elsewhere ? await takeElsewhere(asked, routed) : await takeHere(asked);
    // What was looked up before the grant is looked up again: the look after it is for what changed meanwhile.
    freshLookups();
    // A target that had nowhere else to look may have somewhere now: a `.claims` made above it since
    // the look sends another take of it elsewhere, which must meet this one (docs/PROTOCOL.md 1a).
    // Each such target, not only when none of the others had (`d/ b/x.ts`: b/x.ts's as well as d/'s).
    const unlooked = granted.granted.length === 0 ? [] : asked.targets.filter((input) => !looked.looked.has(input));
    const settling = unlooked.length === 0 ? looked.looked : new Map([...looked.looked, ...lookAtLinks({ ...asked, targets: unlooked }, routes).looked]);
    if (settling.size > 0 && granted.granted.length > 0) interrupt ??= onInterrupt(options.signal);
    // Taken again after a race waited out, above the tokens issued there meanwhile.
    const again = () => {
      const fresh = lookAtLinks(asked, routes, { tokens: true }).floors;
      const anew = fresh.size === 0 ? asked : { ...asked, tokenFloors: fresh };
      return elsewhere ? takeElsewhere(anew, routed) : takeHere(anew);
    };
    taken = interrupt === undefined || granted.granted.length === 0 ? granted : await settleRaceThroughLinks(asked, routes, settling, granted, interrupt, again);
    if (interrupt !== undefined && options.signal === undefined) {
      // The take ran without yielding: a signal that came meanwhile reaches its listener now.
      await new Promise((resume) => setImmediate(resume));
      yielded = true;
      // What the take granted goes back (a part in another claims directory that noted the signal
      // itself gave back its own: the rest is here). A replay of a key's first answer took nothing,
      // and that answer was told already.
      const given = taken.granted.length > 0 || (taken.queued ?? []).length > 0;
      if (interrupt.signal !== undefined && given && !taken.idempotent_replay) {
        await giveBackGrants(taken, asked, take, asked);
        taken = { holder: taken.holder, granted: [], refused: taken.refused, interrupted: true };
      }
    }
  } finally {
    // A signal that came during a take that failed, or waited on a lock (a synchronous wait), is
    // noted before listening stops, and ends the process as it would have.
    if (interrupt !== undefined && options.signal === undefined && !yielded) await new Promise((resume) => setImmediate(resume));
    interrupt?.done();
  }
  // (A replay of a key's first answer switched nothing now: that take did, or its give-back undid it.)
  if (!elsewhere && !taken.interrupted && !taken.idempotent_replay) {
    const standing = options.standing;
    if (standing === undefined) switchedOnceStanding(taken, asked);
    else {
      // The caller completes the switch once it keeps the grants (a take per claims directory adds its own).
      const before = standing.stand;
      const switched = taken;
      standing.stand = () => {
        before?.();
        switchedOnceStanding(switched, asked);
      };
    }
  }
  const result = linked.length > 0 ? { ...taken, refused: [...taken.refused, ...linked.map(({ holding }) => holding)] } : taken;
  // A pinned take that could leave no pointer where other sessions claim is not seen by them (src/protocol/pinned.ts).
  // One in the default directory XDG_STATE_HOME moves, unpinned, left its pointer only where the sessions without XDG_STATE_HOME claim.
  const moved = (options.sessionPinned ?? pinned(options)) ? undefined : "XDG_STATE_HOME";
  const unseen = result.granted.length === 0 ? [] : [...looked.unpointed].map((dir) => unpointedNote(dir, moved));
  // And one whose pointer leads where that directory's other users may not look (its directory made by this take, looked at now).
  const pinnedDir = result.granted.length === 0 || looked.leftIn.size === 0 ? undefined : openContext(options).settings.dir;
  const hidden = pinnedDir === undefined ? [] : [...looked.leftIn].filter((dir) => hiddenFrom(dir, pinnedDir)).map((dir) => `the claims directory ${dir} is shared by its group, which cannot read ${pinnedDir}: that group's other users, claiming there without --dir or CLAIMS_DIR, will not see this claim (give ${pinnedDir} that group and mode 2770, or pin none)`);
  const notes = [...unsearched, ...unseen, ...hidden];
  return notes.length === 0 ? result : { ...result, warnings: [...(result.warnings ?? []), ...notes] };
}

/**
 * The takes (by their options) whose switch of a claim between shared and exclusive is completed
 * once the take stands (switchedOnceStanding), not by takeStep under the take lock: a take that
 * then gives its grants back (a race through another claims directory lost, a signal) answers that
 * it failed, and a take that fails keeps the holder's claim in the old mode (docs/PROTOCOL.md, take
 * step 6). Dropped under the take lock, that claim was gone: the holder, told its take failed,
 * believed it still held the target exclusively, and another session was granted it.
 */
const switchingOnceStanding = new WeakSet<TakeOptions>();

/**
 * Removes the holder's own claim in the other mode of each target the take switched (dropOtherMode),
 * once it stands. Under the take lock, where every other call of the holder tells it what it holds
 * (toldHeld): an exclusive claim another call told the holder it holds since the grant (a subagent's
 * re-take of it, its marker names the exclusive mode again) stays, beside the shared one. Removed,
 * the holder was told it holds the target exclusively while another session could share it.
 */
function switchedOnceStanding(taken: TakeResult, asked: TakeOptions): void {
  const switched = taken.granted.filter((claim) => claim.previous_mode !== undefined);
  if (switched.length === 0) return;
  const context = openContext(asked);
  try {
    context.store.withTakeLock(() => {
      refreshNow(context);
      for (const claim of switched) {
        const mode = claim.mode === "shared" ? "shared" : "exclusive";
        if (mode === "shared" && markerOf(claim.holder, claim.target, context)?.mode === "exclusive") continue;
        dropOtherMode({ target: claim.target, holder: claim.holder, mode }, context);
      }
    });
  } catch (error) {
    // A take lock whose owner seems stopped: the take stands all the same (its grants are made),
    // and the holder keeps its claims in the old mode too, until it releases the targets.
    if (!(error instanceof BusyError)) throw error;
  }
}

function refuseTooBroad(target: Target, where: { cwd: string; home: string }): void {
  const reason = tooBroad(target, where);
  if (reason) throw new BadInputError(`${reason}: a claim on it would refuse every write of every other session under it. Claim what you will change instead, or pass ${switchOn("force")} if you mean it.`);
}

/** The directory and glob targets (the only ones tooBroad judges), parsed from where the take runs. */
function refuseTooBroadFirst(options: TakeOptions): void {
  const wide = options.targets.filter((input) => /[*?[{]|\/$|^~$|^\.\.?$/.test(input) || (!input.includes("#") && isDirectory(resolve(options.cwd ?? process.cwd(), input))));
  if (wide.length === 0) return;
  const settings = resolveSettings({ ...(options.cwd !== undefined && { cwd: options.cwd }), ...(options.env !== undefined && { env: options.env }) });
  for (const input of wide) {
    let target: Target;
    try {
      target = parseTarget(input, settings);
    } catch {
      continue; // bad input: the take itself says so
    }
    refuseTooBroad(target, settings);
  }
}

/** The options that cannot go together or are out of range: said before anything is looked at or waited for. */
function refuseBadOptions(options: TakeOptions): void {
  if (options.purpose !== undefined && options.purpose.length > MAX_PURPOSE_LENGTH) {
    throw new BadInputError(`${optionName("purpose")} is ${options.purpose.length} characters long; keep it under ${MAX_PURPOSE_LENGTH}.`);
  }
  const [wait, queue] = [optionName("wait"), optionName("queue")];
  if (options.wait !== undefined && options.queue) throw new BadInputError(`${wait} and ${queue} cannot be used together: ${wait} blocks, ${queue} returns at once.`);
  if (options.wait !== undefined && options.partial) {
    throw new BadInputError(`${wait} and ${optionName("partial")} cannot be used together: ${wait} waits until every target is free, ${optionName("partial")} takes what is free now.`);
  }
  if (options.wait !== undefined && options.idempotencyKey !== undefined) {
    throw new BadInputError(`${wait} and ${optionName("idempotencyKey")} cannot be used together: a retried wait simply waits again.`);
  }
  if (options.wait !== undefined && (!Number.isInteger(options.wait) || options.wait < 0 || options.wait > MAX_WAIT_SECONDS)) {
    throw new BadInputError(`${wait} must be whole seconds from 0 to ${MAX_WAIT_SECONDS}; got ${JSON.stringify(String(options.wait))}.`);
  }
  if (options.idempotencyKey !== undefined) checkKey(options.idempotencyKey);
}

async function takeHere(options: TakeOptions): Promise<TakeResult> {
  refuseBadOptions(options);
  let attemptStartedMs = options.startedAt ?? Date.now();
  const context = openContext(options);
  const holder = holderOf(options);
  // The other name of a place the holder claimed under another mount point: a re-take of that claim, by the name it was taken under.
  const targets = parseTargets(options.targets, context).map((target) => {
    // Or a claim of the holder's taken before its path was there, whose place leads here now (src/protocol/unresolved.ts).
    const held = heldThroughMount(target, holder, context) ?? heldThroughMove(target, holder, context);
    return held === undefined ? target : { ...target, ...shapeOf(held), fileName: claimFileName(held) };
  });
  const mode: Mode = options.shared ? "shared" : "exclusive";
  const symbols = targets.filter((target) => target.kind === "symbol");
  if (symbols.length > 0) {
    const { checkSymbol } = await import("../targets/symbols.js"); // the parser loads only for symbol targets
    const known = new Map<string, string[]>();
    for (const target of symbols) await checkSymbol(target, options.creating === true, known);
  }
  // A name that reads as a path when given back (release, status, the commands a refusal suggests) could never be released by it.
  const unreturnable = targets.find((target) => target.kind === "name" && PATH_LIKE_NAME.test(target.canonical));
  if (unreturnable) {
    const word = unreturnable.canonical;
    const suggested = word.replace(/[/#*?[\]{}]+/g, "-").replace(/^[.~]+/, "") || "shared-name";
    throw new BadInputError(`name:${word} would read as a path wherever it is given back (release, status); choose a name without / # * ? [ ] { } that does not start with . or ~, such as ${suggested}.`);
  }
  // A name that reads like a file or directory not there yet protects nothing written there, and
  // would stop meaning it once it is created (the word is a path then): ask which was meant instead
  // of guessing. Unless a claim or queued interest carries the word as a name already (`name:build`,
  // or one made before such words were asked about): the take renews, refuses or queues on that.
  const ambiguous = targets.find((target) => looksLikePath(target) && !claimedAsName(target.canonical, context));
  if (ambiguous) {
    const word = ambiguous.canonical;
    const { path, what } = pathItWillBe(word);
    throw new BadInputError(`${word} reads like a ${what}, but there is no such ${what} here; write ${path} to claim the ${what} it will be, or name:${word} to claim the name.`);
  }
  // So does any bare word naming nothing here whose path another holder's fresh claim names (an MCP
  // `claim` of `notes` with `creating` claims ./notes): granted as a name beside it, two sessions
  // would each think they hold "notes".
  const claimedPath = targets.find((target) => target.kind === "name" && target.named !== true && !looksLikePath(target) && claimedAsPath(target.canonical, holder, context) && !claimedAsName(target.canonical, context));
  if (claimedPath) {
    const word = claimedPath.canonical;
    throw new BadInputError(`${word} names nothing here, but another session's claim names the file it will be; write ./${word} to claim that file, or name:${word} to claim the name.`);
  }
  // `gen/out.js/` where gen/out.js is a file: a directory claim on a file is a typo for the file
  // (it would hold nothing under it). Unless it is claimed so already: the take renews or refuses.
  const onAFile = targets.find((target) => target.kind === "directory" && isFile(target.path.replace(/\/+$/, "")) && context.store.read(target.fileName).state === "missing");
  if (onAFile) {
    const file = onAFile.canonical.replace(/\/+$/, "");
    throw new BadInputError(`${file} is a file, not a directory; claim it without the trailing slash (${file}), or its directory.`);
  }
  for (const target of options.force ? [] : targets) refuseTooBroad(target, context.settings);
  // Symlinks a glob matches lead to files elsewhere: the glob covers those too
  // (src/protocol/aliases.ts).
  const links = new Map<string, Link[]>();
  const cutShort: string[] = [];
  for (const target of targets) {
    if (target.kind !== "glob") continue;
    const { links: found, complete } = symlinksSeen(target, context.settings.home);
    if (found.length > 0) links.set(target.canonical, found);
    // (Said only where some other claim is there to be met through a link: a first glob over a huge tree has nothing to miss yet.)
    if (!complete && context.store.claimFileNames().some((name) => name !== target.fileName)) cutShort.push(target.canonical);
  }
  context.store.ensure();
  const step = (first = true) => {
    if (!first) attemptStartedMs = Date.now(); // a wait looking again: the time it slept is not the call's
    refreshNow(context);
    const { result, queuedNow } = takeStep(targets, mode, holder, options, context, links);
    // A wait looking again records what it got, not the same refusals over and over.
    recorded(first ? result : { ...result, refused: [] }, context, queuedNow);
    return result;
  };

  const withWarnings = (result: TakeResult): TakeResult => {
    const warnings = slowCallWarning(result, attemptStartedMs, context);
    // (Said where the glob was granted: a refusal names what is in the way.)
    const granted = new Set(result.granted.map((claim) => claim.target));
    for (const glob of result.idempotent_replay ? [] : cutShort) if (granted.has(glob)) warnings.push(walkCutShortNote(glob));
    const override = holderOverride(options.holder, options.env ?? process.env);
    if (override !== undefined) warnings.push(override);
    const unmatched = result.idempotent_replay ? [] : unmatchedGlobs(result, targets);
    // A directory not there (`./srcc/`) is claimed as one to be made: said, as a glob that matches nothing is.
    for (const target of result.idempotent_replay ? [] : targets) {
      if (target.kind === "directory" && granted.has(target.canonical) && !existsSync(target.path)) {
        warnings.push(`${target.canonical} does not exist yet; the claim covers what is created there (check the path if you meant an existing directory)`);
      }
    }
    return { ...result, ...(warnings.length > 0 && { warnings }), ...(unmatched.length > 0 && { unmatched_globs: unmatched }) };
  };
  if (options.wait !== undefined) {
    const { waitUntilGranted } = await import("./take-wait.js");
    return withWarnings(await waitUntilGranted({ targets, mode, holder, options, context, step }));
  }
  const key = options.idempotencyKey;
  if (key === undefined) {
    // Refusing is always safe: when another holder's fresh claim is in the way now, say so without
    // the take lock, and without writing anything (the record notes it only where a log exists).
    if (!options.queue && !options.partial) {
      refreshNow(context);
      const early = refusedReadOnly(targets, mode, holder, context, links);
      if (early) return recorded(early, context);
    }
    return withWarnings(context.store.withTakeLock(step));
  }
  const args = JSON.stringify({
    targets: targets.map((target) => target.canonical),
    purpose: options.purpose ?? null,
    mode,
    partial: options.partial === true,
    creating: options.creating === true,
    queue: options.queue === true,
    ttl: context.settings.ttlExplicit ? context.settings.ttl : null,
  });
  return withWarnings(context.store.withTakeLock(() => {
    const first = replay<TakeResult>(context.store, holder, key, args, context.nowMs);
    if (first) return replayed(first, context);
    const result = step();
    remember(context.store, holder, key, args, context.nowMs, result);
    return result;
  }));
}

async function takeElsewhere(options: TakeOptions, routes: Routes): Promise<TakeResult> {
  // --partial takes what is free target by target: in each directory on its own. Otherwise a take
  // is all or nothing, which one directory's take lock can make it only there.
  const plain = options.partial === true && !options.queue && options.wait === undefined;
  if (plain) oneDirectoryEach(routes, "take");
  const dirs = plain ? [...routes.dirs.keys()] : [oneDirectory(routes, "take")];
  const results: TakeResult[] = [];
  for (const dir of dirs) {
    // In the directory the target was routed to: a session pinning nothing still (it leaves no pointer there).
    const part = await take({ ...options, dir, sessionPinned: false, targets: routes.dirs.get(dir)?.targets ?? [], ...settingsOf(routes, dir) });
    results.push(part);
    if (dir === routes.own.dir || (part.granted.length === 0 && (part.queued ?? []).length === 0)) continue;
    rememberElsewhere(routes.own, part.holder, dir);
    const config = routes.dirs.get(dir)?.config;
    const why = config === undefined ? "the default claims directory: no .claims is above the target" : `the claims directory ${config} names`;
    part.warnings = [...(part.warnings ?? []), `claimed in ${dir} (${why}, where the sessions working beside it claim); beat and release without targets reach it from here`];
  }
  return mergeResults(results);
}

/**
 * One attempt, under the take lock: grant the queue first, then look, then take (or queue). The
 * caller records it, with the interests it queued anew (`queuedNow`): after the refusals that
 * queued them.
 */
export function takeStep(
  targets: Target[],
  mode: Mode,
  holder: string,
  options: TakeOptions,
  context: Context,
  links = new Map<string, Link[]>(),
): { result: TakeResult; queuedNow: QueueEntry[] } {
  let names = context.store.names();
  if (names.some((name) => name.startsWith(QUEUE_PREFIX))) {
    grantQueued(context); // a target that freed goes to whoever queued for it first
    names = context.store.names();
  }
  const fileNames = names.filter(isClaimFileName);
  // Entries of claims gone since (src/protocol/unresolved.ts): under the take lock, where entries and claims are made.
  pruneUnresolved(context, new Set(fileNames));
  const queue = readQueue(context, names);
  const queueing = options.queue === true || options.wait !== undefined;

  // Look at everything first, so every refusal is reported and a refused take leaves no trace.
  const { refused, free, ownClaims } = look(targets, mode, holder, context, links, fileNames, queue);
  if (refused.length > 0 && !queueing && !options.partial) return { result: { holder, granted: [], refused }, queuedNow: [] };
  if (refused.length > 0 && queueing) {
    const cycle = findCycle(holder, refused, context, queue);
    if (cycle) throw new DeadlockError(cycle, refused);
  }

  // Take what is free: everything, or with --partial / --wait what is not refused. --queue stays
  // all or nothing: it queues for what is refused and takes nothing now (with --partial, what is
  // free), so the command a refusal suggests does only what it says.
  const takeNow = refused.length === 0 || options.partial === true || options.wait !== undefined;
  const granted: TakenClaim[] = [];
  /** What each granted claim was asked as, and when it was stamped (renewLapsed). */
  const written: Array<{ request: Request; since: StampClocks }> = [];
  const ttl = context.settings.ttlExplicit ? context.settings.ttl : undefined;
  try {
    for (const target of takeNow ? free : []) {
      refreshNow(context); // the lease starts when the claim is written, not when the look began
      // Your own claim in the other mode: the holding goes on in this one (docs/PROTOCOL.md take step 6).
      const other = ownInOtherMode({ target: target.canonical, holder, mode }, context);
      const purpose = options.purpose ?? other?.purpose;
      const request: Request = {
        target: target.canonical,
        holder,
        mode,
        ...((ttl ?? other?.ttl) !== undefined && { ttl: ttl ?? other?.ttl }),
        ...(purpose !== undefined && { purpose }),
        ...(other !== undefined && { takenAt: other.taken_at }),
        ...(options.grant !== undefined && { grant: options.grant }),
        ...(options.tokenFloors?.has(target.canonical) && { tokenAbove: options.tokenFloors.get(target.canonical) }),
      };
      // Markers first: the token the glob gets must be above those of what its links lead to.
      rememberLinks(target.canonical, claimFileOf(request), links.get(target.canonical) ?? [], context);
      const since = stampClocks();
      const outcome = acquire(request, context);
      if ("action" in outcome) {
        // A re-take with another purpose replaces the one every refusal shows, one with another --ttl
        // the claim's lease: say so, not only "renewed".
        // A mode switch likewise, and it names the mode it leaves (an abandoned MCP call goes back to it, src/mcp/call.ts).
        const before = outcome.action === "retaken" ? ownClaims.get(target.canonical) ?? other : other;
        const purposeChanged = before !== undefined && before.purpose !== outcome.purpose;
        const ttlChanged = before !== undefined && before.ttl !== outcome.ttl;
        const previousMode = other === undefined ? undefined : other.mode === "shared" ? "shared" : "exclusive";
        granted.push({
          ...outcome,
          ...(purposeChanged && { previous_purpose: before.purpose }),
          ...(ttlChanged && { previous_ttl: before.ttl ?? null }),
          ...(previousMode !== undefined && { previous_mode: previousMode }),
        });
        written.push({ request, since });
        continue;
      }
      // A writer that does not use the take lock got in between: report it like any refusal.
      refused.push(outcome);
      if (options.partial || queueing) continue;
      giveBackAll(granted, context);
      return { result: { holder, granted: [], refused }, queuedNow: [] };
    }
    renewLapsed(granted, written, context);
  } catch (error) {
    // A claim lock that stayed busy (its owner seems stopped) fails the take: what it took before
    // goes back, or the caller, told the take failed, would hold it unknowing until its TTL.
    const kept = giveBackAll(granted, context);
    // A full disk fails the give-back too (a claim lock is a new file): the caller is told what it
    // still holds, which a bare release would not find (no held marker was written either).
    if (kept.length > 0 && error instanceof ClaimsError) {
      error.message += ` ${kept.length === 1 ? "This claim" : "These claims"} of the take could not be given back and ${kept.length === 1 ? "is" : "are"} still yours: ${kept.join(", ")}; release ${kept.length === 1 ? "it" : "them"} by name (claims release ${kept.map((target) => shellQuoteShown(target.startsWith("/") ? target : `name:${target}`)).join(" ")}) once the claims directory is writable again.`;
    }
    throw error;
  }
  // The holder's claims in the other mode go once the take stands: a take that fails keeps them.
  // A wait still refused does not stand yet: timed out or interrupted, it gives back what it got
  // (take-wait.ts), and the holder must still have what it held before; its last step drops them.
  const stands = refused.length === 0 || options.wait === undefined;
  for (const { request } of stands && !switchingOnceStanding.has(options) ? written : []) dropOtherMode(request, context);
  // The caller's own interests in what it now holds are spent; the notes of others reach it.
  const notes: Note[] = [];
  for (const claim of granted) {
    for (const interest of queue) {
      if (interest.entry.holder === holder && interest.entry.target === claim.target) dequeue(interest, context);
    }
    notes.push(...notesFor(claim.target, holder, queue));
  }
  const result: TakeResult = { holder, granted, refused, ...(notes.length > 0 && { notes }) };
  if (refused.length === 0 || !queueing) return { result, queuedNow: [] };
  const { places, queuedNow } = queueRefused(refused, mode, holder, options, queue, context);
  return { result: { ...result, queued: places }, queuedNow };
}

/**
 * The claims of a take of several targets are written one after another, and a later one may wait
 * for its claim lock (a release or a sweep holding it, for up to HOLD_LIMIT_MS) while an earlier
 * one, written fresh, goes past a short TTL: answered granted, it would be taken over by the next
 * take at once. Each one that may have lapsed since it was stamped (howLanded: only after such a
 * wait) is taken again, still under the take lock where nothing can have been taken over it; one a
 * sweep removed as stale meanwhile is taken anew. Its answer stays the first one (taken, took_over).
 */
function renewLapsed(granted: TakenClaim[], written: Array<{ request: Request; since: StampClocks }>, context: Context): void {
  for (let pass = 0, again = true; again; pass++) {
    if (pass === MAX_RENEWAL_PASSES) throw new BusyError(`The claims of this take kept lapsing while it took the others under ${MAX_RENEWAL_PASSES} attempts; retry with a longer --ttl.`);
    again = false;
    granted.forEach((claim, i) => {
      const { request, since } = written[i]!;
      if (howLanded(claimFileOf(request), claim, since, context).state === "fresh") return;
      const stamped = stampClocks();
      const outcome = acquire(request, context);
      // Only a writer that ignores the take lock can be in the way here, and it is told as any refusal would be.
      if (!("action" in outcome)) throw new BusyError(`The claim of ${request.target} was taken by a writer that does not use the take lock while this take took its other targets; retry.`);
      granted[i] = { ...claim, ...outcome, action: claim.action, ...(claim.previous && { previous: claim.previous }) };
      written[i] = { request, since: stamped };
      again = true;
    });
  }
}

const MAX_RENEWAL_PASSES = 50;

/**
 * Gives back what this take wrote (a re-take's claim was the holder's before it, and stays), each
 * as far as it can, and under its own claim lock only: a take stopped past the take lock's hold
 * limit fails its next write, and its give-back must not fail with it (src/os/lease.ts).
 */
function giveBackAll(granted: TakenClaim[], context: Context): string[] {
  const kept: string[] = [];
  outsideHeldLocks(() => {
    for (const claim of granted) {
      if (claim.action === "retaken") continue;
      try {
        giveBack(claim, context);
      } catch {
        // its claim lock stayed busy too, or the directory is full: the claim lapses with its TTL,
        // as one of a stopped take does, and the caller is told (above)
        kept.push(claim.target);
      }
    }
  });
  return kept;
}

/**
 * Who is in the way of each target, reading only: fresh claims of other holders that overlap it
 * (also through the symlinks a glob matches) and earlier waiters queued on it.
 */
function look(
  targets: Target[],
  mode: Mode,
  holder: string,
  context: Context,
  links: Map<string, Link[]>,
  fileNames: string[],
  queue: QueuedInterest[],
): { refused: Holding[]; free: Target[]; ownClaims: Map<string, Claim> } {
  const refused: Holding[] = [];
  const free: Target[] = [];
  /** The holder's own claims a take would renew, by target: a re-take may change a purpose or a TTL. */
  const ownClaims = new Map<string, Claim>();
  for (const target of targets) {
    const own = context.store.read(claimFileOf({ target: target.canonical, holder, mode }));
    if (own.state === "unreadable" && own.directory) {
      throw new BadInputError(`Cannot take ${target.canonical}: a directory stands where its claim file belongs (${context.store.path(claimFileOf({ target: target.canonical, holder, mode }))}); remove it by hand.`);
    }
    // The queue goes before direct takers, but not before the holder renewing its own claim.
    const renewing = own.state === "claim" && own.claim.holder === holder;
    if (renewing) ownClaims.set(target.canonical, own.claim);
    const ahead = renewing ? [] : queueAhead(target.canonical, mode, holder, queue);
    const blockers = [
      ...findConflictsWithLinks(target, links.get(target.canonical) ?? [], mode, holder, context, fileNames).map((conflict) => refusalOf(target.canonical, conflict)),
      ...ahead.map((interest) => queuedHolding(interest.entry, target.canonical, context)),
    ];
    if (blockers.length > 0) refused.push(...blockers);
    else free.push(target);
  }
  return { refused, free, ownClaims };
}

/**
 * The refusal of a plain take, decided before the take lock, when another holder's fresh claim
 * sits on a target's own claim file (the usual collision: two sessions, one file). Only then is the
 * directory listed, for every refusal to be reported; a take that may succeed lists it once, under
 * the lock. The claim may be released a moment later; the refusal was true when it was read, as it
 * would be under the lock.
 */
function refusedReadOnly(targets: Target[], mode: Mode, holder: string, context: Context, links: Map<string, Link[]>): TakeResult | undefined {
  const inTheWay = targets.some((target) => {
    const judgement = judge(context.store.read(target.fileName), target.canonical, holder, context);
    return judgement.state === "held" && !(mode === "shared" && judgement.holding.shared);
  });
  if (!inTheWay) return undefined;
  const names = context.store.names();
  const fileNames = names.filter(isClaimFileName);
  const queue = names.some((name) => name.startsWith(QUEUE_PREFIX)) ? readQueue(context, names) : [];
  const { refused } = look(targets, mode, holder, context, links, fileNames, queue);
  if (!refused.some((holding) => !holding.queued)) return undefined;
  return { holder, granted: [], refused };
}

/**
 * With --queue or --wait: an interest in every refused target, behind whoever is in the way. Its
 * place in each queue, and for the record the interests that are new (`queuedNow`; a waiter
 * queueing again keeps its place).
 */
function queueRefused(
  refused: Holding[],
  mode: Mode,
  holder: string,
  options: TakeOptions,
  queue: QueuedInterest[],
  context: Context,
): { places: QueuedPlace[]; queuedNow: QueueEntry[] } {
  const ttl = context.settings.ttlExplicit ? context.settings.ttl : undefined;
  const places: QueuedPlace[] = [];
  const queuedNow: QueueEntry[] = [];
  for (const target of new Set(refused.map((holding) => holding.target))) {
    const before = queue.length;
    const interest = enqueue(
      { target, holder, mode, ...(options.purpose !== undefined && { purpose: options.purpose }), ...(ttl !== undefined && { ttl }), ...(options.wait !== undefined && { waiter: ownIdentity() }), ...(options.grant !== undefined && { grant: options.grant }) },
      queue,
      context,
    );
    if (queue.length > before) queuedNow.push(interest.entry);
    places.push({ ...noteOf(interest.entry), position: queueAhead(target, mode, holder, queue).length + 1 });
  }
  return { places, queuedNow };
}

/**
 * The first result again, but never a stale promise: a granted claim that is no longer the
 * caller's (same holder and taken_at on disk), or has lapsed since (stale: anyone may have taken
 * something overlapping it meanwhile), is listed in `no_longer_held`, not in `granted`, and the CLI answers LOST, so
 * a retrying agent does not write over whoever holds it now.
 */
function replayed(first: TakeResult, context: Context): TakeResult {
  const gone = first.granted.filter((claim) => {
    const read = context.store.read(claimFileOf({ target: claim.target, holder: claim.holder, mode: claim.mode === "shared" ? "shared" : "exclusive" }));
    if (read.state !== "claim" || read.claim.holder !== claim.holder || read.claim.taken_at !== claim.taken_at) return true;
    return ownFreshness(read.claim, read.mtimeMs, context).stale;
  });
  // The caller is told again that it holds what is still its own: a give-back of the first call must leave it.
  for (const claim of first.granted) {
    if (!gone.includes(claim)) toldHeld({ target: claim.target, holder: claim.holder, mode: claim.mode === "shared" ? "shared" : "exclusive" }, context);
  }
  // Left out of `granted`, as the MCP tools leave it: a script reading only `granted` must not write on it.
  const result: TakeResult = { ...first, granted: first.granted.filter((claim) => !gone.includes(claim)), idempotent_replay: true };
  if (gone.length > 0) result.no_longer_held = gone.map((claim) => claim.target);
  return result;
}

function queuedHolding(entry: QueueEntry, requested: string, context: Context): Holding {
  const holding: Holding = {
    target: requested,
    holder: entry.holder,
    purpose: entry.purpose,
    heartbeat_at: entry.heartbeat_at,
    heartbeat_age_seconds: ageInSeconds(context.nowMs - (parseTimestamp(entry.heartbeat_at) as number)),
    queued: true,
  };
  if (entry.target !== requested) holding.held_target = entry.target;
  return holding;
}

/**
 * The globs granted that match no existing file or directory yet. That is allowed (a glob claim
 * covers files created later), but it is also what a mistyped pattern looks like, so the CLI says
 * so. Only glob targets are looked at, after the take lock is released, with the bounded walk of
 * src/targets/glob-walk.ts, stopping at the first match; a walk too large to finish counts as a
 * match, so the note is never a guess.
 */
function unmatchedGlobs(result: TakeResult, targets: Target[]): string[] {
  const granted = new Set(result.granted.map((claim) => claim.target));
  return targets.filter((target) => target.kind === "glob" && granted.has(target.canonical) && !globMatchesAny(target)).map((target) => target.canonical);
}

function globMatchesAny(glob: Target): boolean {
  let found = false;
  // (A symlink it matches or reaches into may lead to a file it matches: `srcl*/a.ts` through srclink.)
  const complete = walkGlob(glob, ({ matched, entry }) => (found = matched || entry.isSymbolicLink()));
  return found || !complete;
}

/**
 * The lease starts when a claim is written, near the end of the call; but a call that took longer
 * than the TTL it asked for (a parser loading under load, a long wait for the take lock) says that
 * a beat may take as long, and the claim would go stale before it is renewed. Measured on the real
 * clock only (a caller that fixed `now` gets the same answer every time).
 */
function slowCallWarning(result: TakeResult, startedMs: number, context: Context): string[] {
  if (!context.realTime || result.granted.length === 0 || result.idempotent_replay) return [];
  const tookMs = Date.now() - startedMs;
  const ttl = context.settings.ttl;
  if (tookMs <= ttl * 1000) return [];
  return [`this take took ${(tookMs / 1000).toFixed(1)} s, longer than the TTL of ${ttl} s it asked for: a beat may take as long, so the claim can go stale before it is renewed; ask for a longer --ttl`];
}

/**
 * The record of a take: what it got, what was refused, and then what it queued for, as an
 * interest is queued because its target was refused (handover, take --queue).
 */
function recorded(result: TakeResult, context: Context, queuedNow: QueueEntry[] = []): TakeResult {
  const events = { taken: "take", retaken: "retake", took_over: "takeover" } as const;
  for (const claim of result.granted) {
    const entry = { event: events[claim.action], target: claim.target, holder: claim.holder, purpose: claim.purpose };
    record(context, claim.previous ? { ...entry, other: claim.previous.holder } : entry);
  }
  for (const refusal of result.refused) {
    record(context, { event: "refused", target: refusal.target, holder: result.holder, other: refusal.holder, purpose: refusal.purpose });
  }
  for (const entry of queuedNow) record(context, { event: "queue", target: entry.target, holder: entry.holder, purpose: entry.purpose });
  return result;
}

