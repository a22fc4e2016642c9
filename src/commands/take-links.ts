// take, for a target whose claims may be in the way in other claims directories than its own: a
// file's other names in other packages' (a hard link; docs/PROTOCOL.md 5a), and the directories of
// the other `.claims` above it, where it may have been claimed before the nearest appeared (1a).
// What is in the way there, looked at before the grant and again after it, since two takes in two
// claims directories share no take lock; and how a take that lost such a race gives back what it
// made, and one that may still win it gives back too, waits holding nothing, and takes again.
import { lstatSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { holderOf, judgedUnderTakeLock, openContext, type Holding } from "../protocol/context.js";
import { grantOf } from "../protocol/held.js";
import { amend, forget } from "../protocol/idempotency.js";
import { realOrSelf } from "../os/files.js";
import { crashPoint } from "../os/crash.js";
import { waitForChanges } from "../os/watch.js";
import { freshLookups } from "../os/lookups.js";
import { lookThroughLinks } from "../protocol/linked.js";
import { claimsDirsOf, packagesAbove, pinned, type Routes } from "../protocol/routes.js";
import { pinnedDirsIn } from "../protocol/pinned.js";
import { homeOf, resolveSettings, type Settings, unmovedDefault } from "../protocol/settings.js";
import { foldPath } from "../targets/caseless.js";
import { canonicalPath, GLOB_PREFIX, isDirectory, isPathLike, NAME_PREFIX, parseTarget, type Target } from "../targets/target.js";
import { release } from "./release.js";
import { giveBack } from "../protocol/acquire.js";
import { MAX_WAIT_SECONDS, type TakeOptions, type TakeResult } from "./take-types.js";

/** A claim in the way through a link: the target asked for, and the claims directories of both sides. */
interface LinkedRefusal {
  input: string;
  holding: Holding;
  /** Where this take claims the target, and where the claim in the way lives. */
  ownDir: string;
  dir: string;
}

/**
 * The claims in the way of a file through its other names in other packages' claims directories
 * (packagesOfLinked), of a directory or glob through a claimed file there with a name inside it
 * (packagesAround), and of any path target in the directories of the other `.claims` above it
 * (packagesAbove): each such directory judged read-only, also where this session pins one
 * directory (sessions that do not claim a package's files where its `.claims` sends them).
 * `looked` names the targets (input to canonical) that had another claims directory to look in;
 * `unpointed` and `leftIn`, for a pinned take, the directories where it could leave no pointer, and
 * those where it left one (lookThroughLinks); `floors`, per target (canonical), the highest fencing
 * token issued there on it or anything overlapping it (TakeOptions.tokenFloors), with `tokens`.
 */
export function lookAtLinks(options: TakeOptions, routes: Routes | undefined, { tokens = false } = {}): { found: LinkedRefusal[]; looked: Map<string, string>; unpointed: Set<string>; leftIn: Set<string>; floors: Map<string, number> } {
  const env = options.env ?? process.env;
  const found: LinkedRefusal[] = [];
  const looked = new Map<string, string>();
  const unpointed = new Set<string>();
  const leftIn = new Set<string>();
  const floors = new Map<string, number>();
  const pointers = new Map<string, string[]>(); // each directory's pointers listed once for this look
  const cwd = foldPath(resolve(options.cwd ?? process.cwd()));
  let own: Settings | undefined;
  const lookFor = (input: string, target: Target, routed: Set<string>, pointing: boolean) => {
    const ownDir = [...routed][0] as string;
    const look = lookThroughLinks(target, routed, options.shared ? "shared" : "exclusive", holderOf(options), options, {
      ...(pointing && { pointTo: ownDir }),
      pointers,
      tokens,
    });
    if ((look.highestToken ?? 0) > (floors.get(target.canonical) ?? 0)) floors.set(target.canonical, look.highestToken as number);
    for (const dir of look.unpointed ?? []) unpointed.add(dir);
    for (const dir of look.leftIn ?? []) leftIn.add(dir);
    // A directory not there yet may be made by a take racing this one: looked at again after the grant.
    if (look.dirs.length > 0) looked.set(input, target.canonical);
    for (const { dir, holding } of look.found) found.push({ input, holding: { ...holding, claims_dir: dir }, ownDir, dir });
  };
  for (const input of options.targets) {
    if (input.startsWith(NAME_PREFIX) || (!input.startsWith(GLOB_PREFIX) && !isPathLike(input, cwd))) {
      // A name, claimed in the session's own directory: looked for in the other default directories
      // of this user's sessions (src/protocol/pinned.ts, namesSharedWith), where XDG_STATE_HOME
      // moves this one after a pointer saying so is left in the one it moves from.
      own ??= routes?.own ?? resolveSettings({ cwd, env, ...(options.dir !== undefined && { dir: options.dir }) });
      let target: Target;
      try {
        target = parseTarget(input, { cwd, home: own.home });
      } catch {
        continue; // bad input: the take itself says so
      }
      if (target.kind === "name") lookFor(input, target, new Set([own.dir]), unmovedDefault(own.dir, env) !== undefined);
      continue;
    }
    // A plain file with one name and no `.claims` above it (nearly every target), whose claims can
    // only be in the default directory, costs a stat per directory above it; one with a `.claims`
    // above, the settings of each; a directory or glob, a look at the packages' claims directories
    // for a claimed file with another name in it.
    const path = resolve(cwd, input.replace(/#[^/]*$/, "").replace(/^~(?=\/|$)/, homeOf(env)));
    const whole = /[*?[{]|\/$/.test(input) || isDirectory(path);
    const plain = !whole && !hasOtherNames(path);
    const above = plain ? packagesAbove(realDirectory(dirname(path))) : [];
    const aboveDirs = plain ? claimsDirsOf(above, env) : [];
    // Where a session pinning a directory of its own claimed this file, its pointers say (src/protocol/pinned.ts).
    const nonePinned = plain && aboveDirs.every((dir) => pinnedDirsIn(dir, pointers).length === 0);
    // Pinned (`--dir`, CLAIMS_DIR), the default directory is another's even with no `.claims` above;
    // so is the one XDG_STATE_HOME moves the default from (two directories for `/`).
    if (plain && above.length === 1 && aboveDirs.length === 1 && !pinned(options) && nonePinned) continue;
    own ??= routes?.own ?? resolveSettings({ cwd, env, ...(options.dir !== undefined && { dir: options.dir }) });
    const routed = new Set([...(routes?.dirs ?? [])].flatMap(([dir, { targets }]) => (targets.includes(input) ? [dir] : [])));
    if (routed.size === 0) routed.add(own.dir);
    if (plain && aboveDirs.every((dir) => routed.has(dir)) && nonePinned) continue;
    let target: Target;
    try {
      target = parseTarget(input, { cwd, home: own.home });
    } catch {
      continue; // bad input: the take itself says so
    }
    if (target.kind === "name") continue;
    // A pinned take first leaves pointers to its directory where the sessions that do not pin one
    // claim this target, so that they meet its claim as it meets theirs (src/protocol/pinned.ts);
    // a take in the default directory XDG_STATE_HOME moves, where the sessions without it claim.
    lookFor(input, target, routed, (options.sessionPinned ?? pinned(options)) || unmovedDefault([...routed][0] as string, env) !== undefined);
  }
  return { found, looked, unpointed, leftIn, floors };
}

/**
 * take --wait with a claim in the way in another claims directory: no queue there can be joined
 * from here (its grants are made there), so the wait looks again, read-only, whenever that
 * directory changes (and every half second) until nothing there is in the way or the time is up.
 * The take then goes on with the seconds left; a timeout or an interrupt meanwhile answers as one
 * in the take's own directory does (the options were checked first: refuseBadOptions). With
 * --partial, the rest is taken at once.
 */
export async function waitOutLinks(options: TakeOptions, routes: Routes | undefined, first: ReturnType<typeof lookAtLinks>): Promise<{ looked: ReturnType<typeof lookAtLinks>; options: TakeOptions; ended?: TakeResult }> {
  const seconds = options.wait;
  if (seconds === undefined || !Number.isInteger(seconds) || seconds <= 0 || seconds > MAX_WAIT_SECONDS || options.partial) return { looked: first, options };
  const started = Date.now();
  const deadline = started + seconds * 1000;
  let looked = first;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), seconds * 1000);
  const abort = () => stop.abort();
  options.signal?.addEventListener("abort", abort);
  if (options.signal?.aborted) stop.abort();
  const refused = () => looked.found.map(({ holding }) => holding);
  options.onWaiting?.(refused(), 0);
  const progress = options.onWaiting && setInterval(() => options.onWaiting?.(refused(), Date.now() - started), 1000);
  try {
    await waitForChanges((looked.found[0] as LinkedRefusal).dir, () => (looked = lookAtLinks(options, routes, { tokens: true })).found.length === 0, stop.signal);
  } finally {
    clearTimeout(timer);
    if (progress) clearInterval(progress);
    options.signal?.removeEventListener("abort", abort);
  }
  if (looked.found.length === 0) return { looked, options: { ...options, wait: Math.max(0, Math.floor((deadline - Date.now()) / 1000)) } };
  const interrupted = options.signal?.aborted === true && Date.now() < deadline;
  return { looked, options, ended: { holder: holderOf(options), granted: [], refused: refused(), ...(interrupted ? { interrupted: true as const } : { timed_out: true as const }) } };
}

/** A directory with the symlinks above it resolved, where it need not exist yet (`lnk/new/` is `real/new/`). */
function realDirectory(directory: string): string {
  try {
    return canonicalPath(directory, "/");
  } catch {
    return directory; // a loop or a name too long: the take itself says so
  }
}

/** How long the first of two takes racing through a link waits for the other to back off. */
const RACE_SETTLE_MS = 3000;

/**
 * Two takes of one file's names in two claims directories share no take lock, so both may find
 * nothing in the way before either claim exists, and both be granted. So each looks again after
 * its grant, as each of two writers of a flag does after raising it: a claim in the way now is one
 * made since the first look. A take that sees one backs off (gives its claims back and answers
 * REFUSED), except the one whose claims directory sorts first of the two: it gives its claims back
 * too, waits holding nothing until nothing is in the way (or the time is up), and then takes again
 * (`takeAgain`, the take as asked, with its grant id), looking again after that grant as after the
 * first. A take keeps its grant only after seeing nothing in the way with its own claim in place,
 * so two racing takes are never both granted; and one killed while it waits leaves nothing beside
 * the other's grant. One that finds a claim still there when the time is up was not in a race it
 * could win, and answers REFUSED.
 */
export async function settleRaceThroughLinks(
  options: TakeOptions,
  routes: Routes | undefined,
  looked: Map<string, string>,
  taken: TakeResult,
  interrupt: Interrupt,
  takeAgain: () => Promise<TakeResult>,
): Promise<TakeResult> {
  const deadline = Date.now() + RACE_SETTLE_MS;
  for (;;) {
    const granted = new Set(taken.granted.map((claim) => claim.target));
    const inputs = [...looked].flatMap(([input, canonical]) => (granted.has(canonical) ? [input] : []));
    if (inputs.length === 0) return taken;
    if (interrupt.signal !== undefined) return interrupted(options, routes, taken, looked, interrupt);
    freshLookups(); // (a look again is a new look: src/os/lookups.ts)
    const { found } = lookAtLinks({ ...options, targets: inputs }, routes);
    if (found.length === 0) return taken;
    const first = found.every(({ ownDir, dir }) => realOrSelf(ownDir) < realOrSelf(dir));
    if (!first || Date.now() >= deadline) return backOff(options, routes, taken, found, looked);
    // Waited out holding nothing: a claim kept through the wait would stay beside the other's
    // grant, refusing its holder, were this process killed meanwhile. Its record says REFUSED
    // until the take is made again (a retry with its key then replays that, and holds nothing).
    const back = backOff(options, routes, taken, found, looked);
    crashPoint("race-waiting");
    const still = await outOfTheWay(options, routes, inputs, deadline, interrupt);
    if (interrupt.signal !== undefined) return interrupted(options, routes, back, looked, interrupt);
    if (still.length > 0) return backOff(options, routes, { ...back, refused: taken.refused }, still, looked);
    // Taken again as a fresh take, its key's record made anew by it; then looked at again, as
    // after the first grant, with what that look would have found for a target new to it (take.ts).
    for (const dir of madeIn(options, routes)) if (options.idempotencyKey !== undefined) forget({ dir }, taken.holder, options.idempotencyKey);
    const again = await takeAgain();
    taken = withFirstAnswers(again, back, options, routes);
    const unlooked = taken.granted.length === 0 ? [] : options.targets.filter((input) => !looked.has(input));
    if (unlooked.length > 0) looked = new Map([...looked, ...lookAtLinks({ ...options, targets: unlooked }, routes).looked]);
  }
}

/**
 * Waits, reading only, until no claim in another claims directory is in the way of `inputs`, the
 * time is up, or a signal is noted; the claims still in the way then.
 */
async function outOfTheWay(options: TakeOptions, routes: Routes | undefined, inputs: string[], deadline: number, interrupt: Interrupt): Promise<LinkedRefusal[]> {
  for (;;) {
    await new Promise((resume) => setTimeout(resume, 20));
    freshLookups();
    const { found } = lookAtLinks({ ...options, targets: inputs }, routes);
    if (found.length === 0 || interrupt.signal !== undefined || Date.now() >= deadline) return found;
  }
}

/** A race waited out, interrupted: everything the take still holds goes back, and the signal ends the process as it would have. */
function interrupted(options: TakeOptions, routes: Routes | undefined, taken: TakeResult, looked: Map<string, string>, interrupt: Interrupt): TakeResult {
  const result = { ...backOff({ ...options, partial: false }, routes, taken, [], looked), interrupted: true as const };
  interrupt.done();
  return result;
}

/**
 * The answer of a take made again after a race waited out: with --partial, a target the first
 * grant kept through the wait is renewed by the second, and answered as the first grant was (taken,
 * not retaken: the caller was told of neither). Its key's record says so too.
 */
function withFirstAnswers(again: TakeResult, back: TakeResult, options: TakeOptions, routes: Routes | undefined): TakeResult {
  const kept = new Map(back.granted.map((claim) => [claim.target, claim]));
  if (kept.size === 0 || again.idempotent_replay) return again;
  const granted = again.granted.map((claim) => {
    const first = kept.get(claim.target);
    return first === undefined ? claim : { ...claim, action: first.action, ...(first.previous && { previous: first.previous }) };
  });
  const result = { ...again, granted };
  if (options.idempotencyKey !== undefined) {
    for (const dir of madeIn(options, routes)) amend(openContext({ ...options, dir }).store, result.holder, options.idempotencyKey, result);
  }
  return result;
}

/** The claims directories a take's claims were made in: given back and answered for there. */
function madeIn(options: TakeOptions, routes: Routes | undefined): string[] {
  // Routed again, a target could go elsewhere (a `.claims` came or went meanwhile).
  return routes === undefined ? [openContext(options).store.dir] : [...routes.dirs.keys()];
}

export interface Interrupt {
  signal: NodeJS.Signals | undefined;
  done(): void;
}

/**
 * Notes SIGINT, SIGTERM and SIGHUP (or the caller's abort signal) while a take waits out a race;
 * `done` stops listening and, when this was the process's only listener for the signal noted, lets
 * the signal end the process as it would have (after the claims were given back).
 */
export function onInterrupt(abort: AbortSignal | undefined): Interrupt {
  const state: Interrupt = { signal: abort?.aborted ? "SIGINT" : undefined, done: () => undefined };
  const names = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const listeners = names.map((name) => [name, () => (state.signal = name)] as const);
  const aborted = () => (state.signal ??= "SIGINT");
  abort?.addEventListener("abort", aborted);
  for (const [name, listener] of listeners) process.on(name, listener);
  state.done = () => {
    state.done = () => undefined;
    abort?.removeEventListener("abort", aborted);
    for (const [name, listener] of listeners) process.off(name, listener);
    const noted = state.signal;
    if (noted !== undefined && abort === undefined && process.listenerCount(noted) === 0) process.kill(process.pid, noted);
  };
  return state;
}

/**
 * Gives back the claims a race through a link lost: every claim this take made (all of them, or
 * with --partial those through the link), never one the holder had before it (a re-take) unless
 * it is one the race was for. Its idempotency record then holds the answer given.
 */
function backOff(options: TakeOptions, routes: Routes | undefined, taken: TakeResult, found: LinkedRefusal[], looked: Map<string, string>): TakeResult {
  const lostTargets = new Set(found.map(({ input }) => looked.get(input)));
  const lost = taken.granted.filter((claim) => lostTargets.has(claim.target) || (!options.partial && claim.action !== "retaken"));
  const gone = new Set(lost.map((claim) => claim.target));
  // Given back where they were made.
  const made = madeIn(options, routes);
  // A claim switched between shared and exclusive goes alone: the holder's claim in the old mode,
  // which the take has not removed yet (it stands only now), is still the holder's.
  // The targets raced for go whoever was told of them since (the race is lost for them all); the
  // others, given back as all or nothing, only while no other call told the holder it holds them
  // (a subagent's take of the same file meanwhile: release's grant id, TakeOptions.grant).
  const plain = lost.filter((claim) => claim.previous_mode === undefined).map((claim) => claim.target);
  const { grant, ...asked } = options;
  const raced = plain.filter((target) => lostTargets.has(target));
  const rest = plain.filter((target) => !lostTargets.has(target));
  for (const dir of raced.length > 0 ? made : []) release({ ...asked, dir, targets: raced });
  for (const dir of rest.length > 0 ? made : []) release({ ...asked, dir, targets: rest, ...(grant !== undefined && { grant }) });
  // So do the claims it switched (the holder keeps its claim in the old mode beside one given back
  // or kept): under the take lock, where every call tells it, one another call told the holder it
  // holds in the new mode since (its marker no longer carries this take's grant id) stays.
  const switched = lost.filter((claim) => claim.previous_mode !== undefined);
  for (const dir of switched.length > 0 ? made : []) {
    const context = openContext({ ...options, dir });
    const back = () => {
      for (const claim of switched) {
        if (!lostTargets.has(claim.target) && grant !== undefined && grantOf(claim.holder, claim.target, context) !== grant) continue;
        giveBack(claim, context);
      }
    };
    judgedUnderTakeLock(context, back);
  }
  const kept = options.partial ? taken.granted.filter((claim) => !gone.has(claim.target)) : [];
  const notes = taken.notes?.filter((note) => kept.some((claim) => claim.target === note.target));
  const unmatched = taken.unmatched_globs?.filter((glob) => !gone.has(glob));
  // "claimed in <dir>" is said of a grant: none is left to say it of.
  const warnings = kept.length > 0 ? taken.warnings : taken.warnings?.filter((warning) => !warning.startsWith("claimed in "));
  const result: TakeResult = {
    holder: taken.holder,
    granted: kept,
    refused: [...taken.refused, ...found.map(({ holding }) => holding)],
    ...(taken.queued && { queued: taken.queued }),
    ...(notes?.length && { notes }),
    ...(unmatched?.length && { unmatched_globs: unmatched }),
    ...(warnings?.length && { warnings }),
  };
  if (options.idempotencyKey !== undefined) {
    for (const dir of made) amend(openContext({ ...options, dir }).store, taken.holder, options.idempotencyKey, result);
  }
  return result;
}

function hasOtherNames(path: string): boolean {
  try {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    return stats !== undefined && stats.isFile() && stats.nlink > 1;
  } catch {
    return false;
  }
}
