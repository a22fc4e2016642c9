// status: what is claimed, by whom, for what, and whether it is still fresh. Needs no holder
// unless --mine is given.
import { copyOfClaim, type Claim } from "../protocol/claim.js";
import { displayTarget, holderIfAny, holderOf, kindOf, openContext, othersFreshness, ownFreshness, parseTargets, refreshNow, unreadableStale, type CommonOptions } from "../protocol/context.js";
import { consumeNotices, grantQueued, meets, noteOf, notesFor, type Grant, type Note } from "../protocol/grant.js";
import { QUEUE_PREFIX, readQueue } from "../protocol/queue.js";
import { isClaimFileName, type ClaimRead } from "../protocol/store.js";
import { existsSync } from "node:fs";
import { BadInputError } from "../os/errors.js";
import { resolve } from "node:path";
import { foldPath } from "../targets/caseless.js";
import { boundAliasesOf, movedOver, overlappingClaims } from "../protocol/conflicts.js";
import { symlinksMatched } from "../protocol/aliases.js";
import { ageInSeconds, formatTimestampRoundedDown } from "../os/time.js";
import type { TargetShape } from "../targets/overlap.js";
import { fileStandIn, NAME_PREFIX, standInPath, type TargetKind } from "../targets/target.js";
import { claimsDirOfPackage, heldElsewhere, isWithin, mergeResults, notOkEverywhere, packagesAround, pinned, routesOf, unpinnedHomes } from "../protocol/routes.js";
import { namesSharedWith, pinnedDirsFor, pinnedDirsIn } from "../protocol/pinned.js";
import { unmovedDefault } from "../protocol/settings.js";
import { asOneVerb } from "../os/lookups.js";
import { checkOptionTypes } from "./option-types.js";

export interface StatusOptions extends CommonOptions {
  /** Only these targets; none means every claim in the directory. */
  targets?: string[];
  /** Only the caller's own claims (needs a holder). */
  mine?: boolean;
}

export interface ClaimStatus extends Claim {
  kind: TargetKind;
  stale: boolean;
  heartbeat_age_seconds: number;
  /** The TTL this claim is judged by: its own `ttl`, else the default. */
  ttl_seconds: number;
  /** The heartbeat lies in the future: the writer's clock is ahead. Counted as fresh. */
  clock_skew: boolean;
  /** Present when a holder is known: whether the claim is the caller's. */
  mine?: boolean;
  /** Who is queued behind this claim, in order. */
  queue: Note[];
  /**
   * The claims directory it lives in, when not the one asked: a session pinning a directory of its
   * own made it there, or (--mine) the caller made it there from here, where beat and release reach it.
   */
  claims_dir?: string;
  /** Listed from a repository's root: the package whose `.claims` names `claims_dir`, where the sessions working in it claim. */
  package?: string;
}

export interface UnreadableStatus {
  file: string;
  target: string;
  reason: string;
  modified_at: string;
  /** Judged by the file's mtime against the default TTL: once stale it may be taken over or swept. */
  stale: boolean;
  /** Another program's file, not a claim (`package.json` in a project given as the claims directory): never taken over or swept. */
  foreign?: true;
  /** A directory stands where the claim file belongs: never swept (what is in it is nobody's to remove), removed by hand. */
  directory?: true;
}

export interface StatusResult {
  dir: string;
  claims: ClaimStatus[];
  unreadable: UnreadableStatus[];
  /** Named targets that no claim covers. */
  free: string[];
  /** Live queued interests (handover notes), in order (with --mine: the caller's, with the claims directory of each queued in another; for named targets: those overlapping one). */
  queued: Array<Note & { claims_dir?: string; package?: string }>;
  /** Targets granted to the caller from the queue since it last looked: shown once. */
  granted_while_waiting: Grant[];
  /** The claims directory does not exist (yet): nothing is claimed there. A typo in CLAIMS_DIR looks like this. */
  directory_missing?: true;
}

export function status(options: StatusOptions = {}): StatusResult {
  checkOptionTypes("status", options);
  return asOneVerb(() => statusNow(options));
}

function statusNow(options: StatusOptions = {}): StatusResult {
  // Named targets are looked up where their claims live; the caller's own claims (--mine) also in
  // every other claims directory it took in from here (src/protocol/routes.ts).
  const named = options.targets ?? [];
  // Also where take and check look for them (another name of the file's package, a directory above
  // a `.claims` that appeared since, this user's other default directories for a name): claims met
  // there are shown with their directory, where a queue from here cannot wait for them.
  const routes = named.length > 0 ? routesOf(named, options, { linked: true }) : undefined;
  if (routes) {
    const parts = [...routes.dirs].flatMap(([dir, { targets, homeOf = [] }]) => {
      const home = targets.filter((target) => homeOf.includes(target));
      const looked = targets.filter((target) => !home.includes(target));
      return [
        ...(home.length > 0 ? [{ targets: home, home: true, result: statusOfDirectory({ ...options, dir, targets: home }) }] : []),
        ...(looked.length > 0 && existsSync(dir) ? [{ targets: looked, home: false, result: inDirectory(statusOfDirectory({ ...options, dir, targets: looked }, { lookOnly: true })) }] : []),
      ];
    });
    const homes = parts.filter(({ home }) => home).map(({ result }) => result);
    const { directory_missing: _missing, ...merged } = { ...mergeResults(parts.map(({ result }) => result)), dir: routes.own.dir };
    // One claim made in two directories (a directory above a package with its own `.claims` is claimed in each) is shown once.
    merged.claims = merged.claims.filter((claim, index) => merged.claims.findIndex((other) => other.target === claim.target && other.holder === claim.holder) === index);
    // Nothing claimed where the targets' claims live: named by that directory, when it is one.
    const missing = homes.length > 0 && homes.every((result) => result.directory_missing) ? { directory_missing: true as const, ...(homes.length === 1 && { dir: homes[0]?.dir as string }) } : {};
    const claimed = notOkEverywhere(routes, parts.map(({ targets, result }) => ({ targets, ok: result.free })));
    // A word that reads like a path and is claimed as a name in one directory is that name in them all (as check answers).
    for (const claim of merged.claims) if (claim.kind === "name") claimed.add(standInPath(claim.target, routes.own) ?? claim.target);
    return heldInPinned({ ...merged, ...missing, free: [...new Set(merged.free)].filter((target) => !claimed.has(target)) }, [...routes.dirs].map(([dir, { targets }]) => [dir, targets]), options);
  }
  const result = statusOfDirectory(options);
  // Pinned (`--dir`, CLAIMS_DIR), also where the sessions that do not pin one claim them, as a take here looks.
  if (named.length > 0 && !options.mine) return heldInPinned(result, [[result.dir, named]], options, pinned(options) ? unpinnedHomes(named, options.cwd ?? process.cwd(), options.env ?? process.env) : []);
  if (!options.mine && named.length === 0) return withOtherDefaults(withPackagesBelow(withPinnedPaths(result, options), options), options);
  if (named.length > 0) return result;
  // The caller's own claims made from here in other claims directories: where beat and release
  // without targets reach them (src/protocol/routes.ts), each shown with its directory.
  const elsewhere = heldElsewhere(options, holderOf(options)).map(({ dir }) => inDirectory(statusOfDirectory({ ...options, dir })));
  return elsewhere.length === 0 ? result : { ...mergeResults([result, ...elsewhere]), dir: result.dir };
}

/**
 * Everyone's claims from a repository or package root: also those in the claims directories that
 * packages under it name in `.claims` of their own (a monorepo's), where the sessions working there
 * claim their files; each shown with its directory and the package. Only inside a repository or a
 * package (packagesAround): `claims status` in a home directory does not walk it.
 */
function withPackagesBelow(result: StatusResult, options: StatusOptions): StatusResult {
  if (pinned(options)) return result;
  const env = options.env ?? process.env;
  const cwd = foldPath(resolve(options.cwd ?? process.cwd()));
  const parts: StatusResult[] = [];
  const done = new Set([result.dir]);
  for (const at of packagesAround(cwd)) {
    if (at === cwd || !isWithin(at, cwd)) continue;
    const dir = claimsDirOfPackage(at, env);
    if (dir === undefined || done.has(dir) || !existsSync(dir)) continue;
    done.add(dir);
    const there = inDirectory(statusOfDirectory({ ...options, dir }, { lookOnly: true }));
    parts.push({ ...there, claims: there.claims.map((claim) => ({ ...claim, package: at })), queued: there.queued.map((note) => ({ ...note, package: at })) });
  }
  return parts.length === 0 ? result : { ...mergeResults([result, ...parts]), dir: result.dir, granted_while_waiting: result.granted_while_waiting };
}

/**
 * Everyone's claims, from the default directory: also those in this user's other default
 * directories, wherever XDG_STATE_HOME moves them (src/protocol/pinned.ts, namesSharedWith), which
 * refuse a take here as their own would; each shown with its directory.
 */
function withOtherDefaults(result: StatusResult, options: StatusOptions): StatusResult {
  const parts: StatusResult[] = [];
  for (const dir of namesSharedWith(result.dir, options.env ?? process.env)) {
    if (!existsSync(dir)) continue;
    try {
      parts.push(inDirectory(statusOfDirectory({ ...options, dir }, { lookOnly: true })));
    } catch {
      // one this user may not read: as take passes it over
    }
  }
  return parts.length === 0 ? result : { ...mergeResults([result, ...parts]), dir: result.dir, granted_while_waiting: result.granted_while_waiting };
}

/**
 * Everyone's claims here, and the path claims of the sessions pinning a directory of their own
 * (`--dir`, CLAIMS_DIR) that the pointers here name (docs/PROTOCOL.md 1a): a take here is refused
 * by them, so `claims status` shows them, each with its directory. Their names are their
 * directory's own, which nobody here meets: left out. One this user may not read is passed over.
 */
function withPinnedPaths(result: StatusResult, options: StatusOptions): StatusResult {
  if (pinned(options)) return result;
  const parts: StatusResult[] = [];
  for (const dir of pinnedDirsIn(result.dir)) {
    try {
      const there = inDirectory(statusOfDirectory({ ...options, dir }, { lookOnly: true }));
      parts.push({ ...there, claims: there.claims.filter((claim) => claim.kind !== "name"), queued: there.queued.filter((note) => kindOf(note.target) !== "name"), unreadable: [], free: [] });
    } catch {
      // one this user may not read: as take passes it over
    }
  }
  return parts.length === 0 ? result : { ...mergeResults([result, ...parts]), dir: result.dir, granted_while_waiting: result.granted_while_waiting };
}

/** A directory's status with each claim and queued interest naming that directory (`claims_dir`). */
function inDirectory(result: StatusResult): StatusResult {
  const dir = result.dir;
  return { ...result, claims: result.claims.map((claim) => ({ ...claim, claims_dir: dir })), queued: result.queued.map((note) => ({ ...note, claims_dir: dir })) };
}

/**
 * Named targets free where they were asked that a session pinning a directory of its own holds
 * there, as the pointers in the directories asked say (src/protocol/pinned.ts), or that a session
 * without this one's XDG_STATE_HOME holds in its default directory, or (`unpinnedThere`, for a
 * pinned one) the sessions that pin none hold where they claim: shown as held, with
 * that directory, as take, check and the hooks refuse them. Looked at only: nothing granted or
 * read once there. One this user may not read is passed over.
 */
function heldInPinned(result: StatusResult, judged: Array<[string, string[]]>, options: StatusOptions, unpinnedThere: Array<[string, string[]]> = []): StatusResult {
  if (result.free.length === 0 || options.mine) return result;
  // And where the sessions without this one's XDG_STATE_HOME claim (and the pointers there), as take looks (unmovedDefault).
  const env = options.env ?? process.env;
  const unmoved = new Map<string, string[]>();
  for (const [dir, targets] of unpinnedThere) if (!judged.some(([other]) => other === dir)) unmoved.set(dir, [...targets]);
  for (const [dir, targets] of [...judged, ...unpinnedThere]) {
    const there = unmovedDefault(dir, env);
    if (there !== undefined && !judged.some(([other]) => other === there)) unmoved.set(there, [...new Set([...(unmoved.get(there) ?? []), ...targets])]);
  }
  for (const dir of new Set([...unmoved.keys(), ...pinnedDirsFor([...judged, ...unmoved]).keys()])) {
    if (!existsSync(dir)) continue; // (a default directory nobody has claimed in yet)
    // A name lives in the caller's own directory alone: a take of it looks nowhere else.
    const paths = result.free.filter((target) => kindOf(target) !== "name");
    if (paths.length === 0) break;
    let there: StatusResult;
    try {
      there = statusOfDirectory({ ...options, dir, targets: paths }, { lookOnly: true });
    } catch {
      continue;
    }
    result.claims.push(...there.claims.filter((claim) => !result.claims.some((shown) => shown.target === claim.target && shown.holder === claim.holder)).map((claim) => ({ ...claim, claims_dir: dir })));
    result.free = result.free.filter((target) => kindOf(target) === "name" || there.free.includes(target));
  }
  // A name, where this user's sessions with another XDG_STATE_HOME (or none) claim names (namesSharedWith), as take looks.
  const names = result.free.filter((target) => kindOf(target) === "name");
  const judgedDirs = new Set(judged.map(([dir]) => dir));
  for (const dir of new Set(names.length === 0 ? [] : [...judgedDirs].flatMap((own) => namesSharedWith(own, env)))) {
    if (!existsSync(dir) || judgedDirs.has(dir)) continue;
    let there: StatusResult;
    try {
      there = statusOfDirectory({ ...options, dir, targets: names.map((name) => `${NAME_PREFIX}${name}`) }, { lookOnly: true });
    } catch {
      continue;
    }
    result.claims.push(...there.claims.filter((claim) => !result.claims.some((shown) => shown.target === claim.target && shown.holder === claim.holder)).map((claim) => ({ ...claim, claims_dir: dir })));
    result.free = result.free.filter((target) => kindOf(target) !== "name" || there.free.includes(target));
  }
  return result;
}

/** Whether an error is the claims directory refusing a write (the store's message for EACCES, EPERM, EROFS). */
function unwritable(error: unknown): boolean {
  const code = ((error as { cause?: NodeJS.ErrnoException }).cause ?? (error as NodeJS.ErrnoException)).code;
  return error instanceof BadInputError && (code === "EACCES" || code === "EPERM" || code === "EROFS");
}

/**
 * The status of one claims directory alone, following no pointer to another (status, and the
 * hook's carry-over after /clear). `lookOnly`: another session's directory looked into, where
 * nothing is granted to its queue and no grant notice is read.
 */
export function statusOfDirectory(options: StatusOptions, { lookOnly = false } = {}): StatusResult {
  const context = openContext(options);
  // A project directory given as the claims directory (`--dir .`) is refused as every other verb
  // refuses it, not listed with its package.json as an unreadable claim (a directory only looked
  // into, a package's from a repository's root, is not refused here: the status of the rest stands).
  if (!lookOnly) context.store.refuseForeignFiles();
  // status marks the caller's own claims when it can tell who the caller is, and works without.
  const holder = options.mine ? holderOf(options) : holderIfAny(options);
  const result: StatusResult = { dir: context.settings.dir, claims: [], unreadable: [], free: [], queued: [], granted_while_waiting: [] };
  // Observing a claim gone stale (or a target freed) grants it to the queue: no daemon does it.
  // One listing of the directory serves the whole call (10,000 claims are 10,000 names), made again
  // when grants may have changed it.
  let names = context.store.names();
  if (!lookOnly && names.some((name) => name.startsWith(QUEUE_PREFIX))) {
    try {
      context.store.withTakeLock(() => {
        refreshNow(context);
        grantQueued(context);
      });
    } catch (error) {
      // A directory this process may read but not write (a read-only mount, another user's, mode
      // 500): listed as it is; the next call that can write there grants the queue.
      if (!unwritable(error)) throw error;
    }
    names = context.store.names();
  }
  if (!existsSync(context.settings.dir)) result.directory_missing = true;
  const queue = readQueue(context, names);
  if (holder !== undefined && !lookOnly) {
    result.granted_while_waiting = consumeNotices(holder, context, names);
    // A grant writes its claim before its notice, but a listing of a large directory is no
    // snapshot: one notice taken from it is reason to list again, so its claim is shown beside it.
    if (result.granted_while_waiting.length > 0) names = context.store.names();
  }
  const named = options.targets ?? [];
  const entries: Array<{ fileName: string; target: string; read: ClaimRead }> = [];
  const asked: TargetShape[] = [];
  if (named.length > 0) {
    // Every claim covering a named target: its own (exclusive or shared), a directory above it, a glob, a symbol in it.
    const seen = new Set<string>();
    const claimFiles = names.filter(isClaimFileName);
    for (const given of parseTargets(named, context)) {
      // A word that reads like a file or directory, which nobody claims as a name, is shown as the path it will be, as check answers for it.
      const target = fileStandIn(given, claimFiles, context.settings) ?? given;
      asked.push(target);
      // Also under the other mount points of its file system (a bind mount, docs/PROTOCOL.md 5a).
      const found = [target, ...boundAliasesOf(target)].flatMap((each) => overlappingClaims(each, context, claimFiles));
      // A glob also reaches what the symlinks it matches lead to, as a take of it does (docs/PROTOCOL.md 5a).
      if (target.kind === "glob") for (const { real } of symlinksMatched(target, context.settings.home)) found.push(...overlappingClaims(real, context, claimFiles));
      // And a claim taken before its path was there, whose place leads here now (src/protocol/unresolved.ts).
      for (const moved of movedOver(target, context)) found.push({ fileName: moved.fileName, named: moved.target, read: moved.read });
      if (found.length === 0) result.free.push(target.canonical);
      for (const { fileName, named: covering, read } of found) {
        if (!seen.has(fileName)) entries.push({ fileName, target: covering, read });
        seen.add(fileName);
      }
    }
  }
  // For named targets, only who waits for something overlapping one of them: another target's
  // queue is not what was asked. So also behind a claim that covers a named target (a directory,
  // a glob): its waiters for other files under it wait for something else.
  const asks = (waitedFor: string) => named.length === 0 || asked.some((target) => meets(waitedFor, target.canonical));
  result.queued = queue.filter(({ entry }) => (!options.mine || entry.holder === holder) && asks(entry.target)).map(({ entry }) => noteOf(entry));

  const show = ({ fileName, target, read }: { fileName: string; target: string; read: ClaimRead }): void => {
    if (read.state === "missing") {
      result.free.push(target);
    } else if (read.state === "unreadable") {
      if (options.mine) return;
      result.unreadable.push({
        file: fileName,
        target,
        reason: read.reason,
        modified_at: formatTimestampRoundedDown(read.mtimeMs),
        stale: !read.foreign && unreadableStale(read, context),
        ...(read.foreign && { foreign: true as const }),
        ...(read.directory && { directory: true as const }),
      });
    } else {
      const { claim } = read;
      if (options.mine && claim.holder !== holder) return;
      // The caller's own as beat judges them (a claim without ttl lapses for its holder by the default).
      const own = holder !== undefined && claim.holder === holder;
      const freshness = own ? ownFreshness(claim, read.mtimeMs, context) : othersFreshness(claim, read.mtimeMs, context);
      const entry: ClaimStatus = Object.assign(copyOfClaim(claim), {
        kind: kindOf(claim.target),
        stale: freshness.stale,
        heartbeat_age_seconds: ageInSeconds(freshness.ageMs),
        ttl_seconds: freshness.ttl,
        clock_skew: freshness.skewed,
        queue: notesFor(claim.target, claim.holder, queue).filter((note) => asks(note.target)),
      });
      if (holder !== undefined) entry.mine = claim.holder === holder;
      result.claims.push(entry);
    }
  };
  if (named.length > 0) entries.forEach(show);
  else {
    // Every claim, each shown as soon as it is read: what was read of it is garbage at once, not
    // kept for 10,000 claims until the last is read.
    for (const fileName of names.filter(isClaimFileName).sort()) {
      const read = context.store.read(fileName);
      if (read.state !== "missing") show({ fileName, target: displayTarget(fileName, read), read });
    }
  }
  return result;
}
