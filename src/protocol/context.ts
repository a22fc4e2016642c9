// What a claim means to the caller: free, theirs, held by someone else, or stale. Every verb
// judges a claim file the same way, here.
import { existsSync } from "node:fs";
import { BusyError } from "../os/errors.js";
import { DEFAULT_TTL_SECONDS, freshnessOf, MAX_TTL_SECONDS, modeOf, type Claim, type Freshness, type MtimeClock } from "./claim.js";
import { appendLog, type LogEntry } from "./log.js";
import { ageInSeconds, formatTimestampRoundedDown, parseTimestamp } from "../os/time.js";
import { isDefaultClaimsDir, resolveHolder, resolveSettings, type Environment, type Settings } from "./settings.js";
import { Store, type ClaimRead } from "./store.js";
import { filesystemOf, readFilesystemClock } from "../os/filesystem.js";
import { shapeOf, type TargetKind } from "../targets/overlap.js";
import { parseTarget, targetOfFileName, type Target } from "../targets/target.js";

/** Options every verb accepts. Tests pass `dir` and `now`; the CLI passes flags and the environment. */
export interface CommonOptions {
  /** The claims directory; otherwise --dir / CLAIMS_DIR / `.claims` / XDG resolution. */
  dir?: string;
  /**
   * Whether the session pins one claims directory (--dir, CLAIMS_DIR, a library caller's `dir`),
   * as it is taken to when `dir` or CLAIMS_DIR is set; false where a caller passes `dir` only to act
   * where it routed a target (the agent hooks, an MCP renewal). Only a pinned session's take leaves
   * pointers to its directory (src/protocol/pinned.ts).
   */
  sessionPinned?: boolean;
  holder?: string;
  /** Default TTL in seconds for claims taken (and for judging claims that carry no ttl). */
  ttl?: string | number;
  cwd?: string;
  env?: Environment;
  /** The current time in milliseconds since the epoch. */
  now?: number;
  /** Where the `.claims` giving the TTL and group sharing is looked up, when not from cwd (a target routed to its own claims directory). */
  configAt?: string;
}

export interface Context {
  settings: Settings;
  store: Store;
  nowMs: number;
  /** False when the caller fixed the time (tests); then `now` never moves. */
  realTime: boolean;
  /**
   * The claims directory's filesystem clock minus this process's (src/os/filesystem.ts), once read:
   * at once on a network filesystem, and on a local one when something first looks stale, or fresh
   * only by an mtime far ahead (readClock). `nowMs` is then on the filesystem's clock, so every
   * machine and process judges, and stamps from then on, by one clock. Undefined until read, on a
   * local filesystem where this process's clock agrees with it, and with a fixed `now`.
   */
  clockOffsetMs?: number;
  /** When the filesystem's clock was last read, on this process's clock (readClock reads it again a second later). */
  clockReadAt?: number;
  /** How far this process's clock read ahead of the filesystem's, within the tolerance that leaves it uncorrected (ClockReading.aheadMs): staleness waits that much longer. */
  clockAheadMs?: number;
  /** How `nowMs` stands to the files' mtimes (src/protocol/claim.ts): on one clock on a local filesystem or a network one whose clock was read; measured once read. */
  clock: MtimeClock;
  /** The caller's environment (CommonOptions.env, else this process's): where a grant from the queue looks in other claims directories. */
  env?: Environment;
}

/**
 * Reads the clock again, after waiting for a lock: a claim written with the time from before the
 * wait would be born older than it is (and, with a short TTL, born stale).
 */
export function refreshNow(context: Context): void {
  if (context.realTime) context.nowMs = Date.now() + (context.clockOffsetMs ?? 0);
}

/**
 * A give-back's judgement of held markers, under the take lock, where every call tells a holder
 * it holds a claim. When that lock's owner seems stopped (busy past its limit), `work` runs without
 * it: no other call can tell the holder anything meanwhile, and given up on, the grants would stay
 * held by nobody who knows for their TTL. Answers the error it worked past, if it did.
 */
export function judgedUnderTakeLock(context: Context, work: () => void): BusyError | undefined {
  try {
    context.store.withTakeLock(() => {
      refreshNow(context);
      work();
    });
    return undefined;
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
    work();
    return error;
  }
}

export function openContext(options: CommonOptions): Context {
  const settingsInput: Parameters<typeof resolveSettings>[0] = {};
  if (options.dir !== undefined) settingsInput.dir = options.dir;
  if (options.ttl !== undefined) settingsInput.ttl = options.ttl;
  if (options.cwd !== undefined) settingsInput.cwd = options.cwd;
  if (options.env !== undefined) settingsInput.env = options.env;
  if (options.configAt !== undefined) settingsInput.configAt = options.configAt;
  const settings = resolveSettings(settingsInput);
  const store = new Store(settings.dir, { groupShared: settings.groupShared });
  const context: Context = { settings, store, nowMs: options.now ?? Date.now(), realTime: options.now === undefined, clock: { onClock: false, measured: false }, ...(options.env !== undefined && { env: options.env }) };
  if (context.realTime) {
    const clock = readFilesystemClock(settings.dir, () => store.fileMode);
    if (clock.measured) {
      context.clockOffsetMs = clock.offsetMs;
      context.clockReadAt = context.nowMs;
      context.nowMs += clock.offsetMs;
      if (clock.aheadMs !== undefined) context.clockAheadMs = clock.aheadMs;
    }
    context.clock = { onClock: clock.measured || !filesystemOf(settings.dir).network, measured: clock.measured };
  }
  return context;
}

/**
 * Whether the claims directory a beat or release found nothing to act on does not exist, where it
 * was named (--dir, CLAIMS_DIR, a .claims "dir", a package's) and so may be mistyped: the caller
 * is told rather than answered "nothing to do" from a directory nobody uses. Asked only when
 * nothing was found, so a call that finds its claims pays nothing; and the default directory,
 * untouched until a first take, is no typo: a hook's release at the end of a session that took
 * nothing stays quiet, and looks at nothing more.
 */
export function namedDirectoryMissing(context: Context, env: Environment): boolean {
  return !isDefaultClaimsDir(context.settings.dir, env) && !existsSync(context.settings.dir);
}

/** Appends to the record (best effort; see src/protocol/log.ts). */
export function record(context: Context, entry: Omit<LogEntry, "at" | "pid">): void {
  appendLog(context.store.dir, context.nowMs, entry, context.store.fileMode);
}

export function holderOf(options: CommonOptions): string {
  return resolveHolder(options.holder, options.env ?? process.env);
}

/**
 * For verbs that work without a holder (check, status): none where none is given or derived, but
 * one given (`--holder ""`, a CLAIMS_HOLDER with a control character) is checked as take checks it.
 */
export function holderIfAny(options: CommonOptions): string | undefined {
  if (options.holder !== undefined || (options.env ?? process.env).CLAIMS_HOLDER) return holderOf(options);
  try {
    return holderOf(options);
  } catch {
    return undefined;
  }
}

/** `literal`: the inputs are files' paths exactly as written on disk (hooks, the git guard), never globs or symbols. */
export function parseTargets(inputs: string[], context: Context, literal = false): Target[] {
  const seen = new Map<string, Target>();
  for (const input of inputs) {
    const target = parseTarget(input, { cwd: context.settings.cwd, home: context.settings.home }, literal);
    seen.set(target.fileName, target);
  }
  return [...seen.values()].sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
}

/** Who stands in the way, as every refusal and lost report names it. */
export interface Holding {
  target: string;
  holder: string;
  purpose: string;
  heartbeat_at: string;
  /** Seconds since that heartbeat (0 up to a second ahead, as its writer rounds up; negative: further in the future). */
  heartbeat_age_seconds: number;
  /**
   * The claim's own TTL in seconds, where it has one (read with its heartbeat, so that when it goes
   * stale is known as of this refusal, and a replay of the refusal says the same).
   */
  ttl?: number;
  /** Set when the claim file could not be read: why. Such a file is held until its mtime is older than the TTL. */
  unreadable?: string;
  /** With unreadable: the path of that file, so the one who is refused can look at it in its claims directory. */
  file?: string;
  /** The target of the claim in the way, when it is not the target asked for (a directory above it, a glob, …). */
  held_target?: string;
  /** Set when the claim in the way is shared (it refuses exclusive takes only). */
  shared?: true;
  /** For two globs: a file both match, or why they may. */
  overlap?: string;
  /** Not a claim but an earlier queued interest: the queue outranks direct takers. */
  queued?: true;
  /**
   * The claims directory the claim in the way lives in, when not the one the call acts in (another
   * name of the file, a hard link, claimed in another package's): a queue here cannot wait for it.
   */
  claims_dir?: string;
}

export function holdingOf(claim: Claim, context: Context): Holding {
  const ageMs = context.nowMs - (parseTimestamp(claim.heartbeat_at) as number);
  const holding: Holding = {
    target: claim.target,
    holder: claim.holder,
    purpose: claim.purpose,
    heartbeat_at: claim.heartbeat_at,
    heartbeat_age_seconds: ageInSeconds(ageMs),
  };
  if (claim.ttl !== undefined) holding.ttl = claim.ttl;
  if (modeOf(claim) === "shared") holding.shared = true;
  return holding;
}

export function unreadableHolding(target: string, read: { reason: string; mtimeMs: number; path: string; denied?: true; misplaced?: Claim }, context: Context): Holding {
  return {
    target,
    holder: "unknown",
    purpose: `unreadable claim file: ${read.reason}`,
    heartbeat_at: formatTimestampRoundedDown(read.mtimeMs),
    heartbeat_age_seconds: ageInSeconds(context.nowMs - read.mtimeMs),
    // Held as long as the longest TTL a claim may carry (unreadableStale).
    ...(read.denied && { ttl: MAX_TTL_SECONDS }),
    unreadable: read.reason,
    file: read.path,
  };
}

export type Judgement =
  | { state: "free" }
  | { state: "mine"; claim: Claim; version: string; stale: boolean }
  | { state: "held"; holding: Holding; version: string }
  | { state: "stale"; holding: Holding; version: string }
  | { state: "blocked"; reason: string };

/**
 * The staleness rule applied to one read. A claim file that does not parse is treated as held by
 * someone unknown until its mtime is older than the TTL: it may be a claim written by a newer or
 * foreign tool, and refusing is the safe answer; after the TTL nobody is maintaining it.
 */
export function judge(read: ClaimRead, target: string, holder: string | undefined, context: Context): Judgement {
  if (read.state === "missing") return { state: "free" };
  if (read.state === "unreadable") {
    if (read.directory) {
      return { state: "blocked", reason: `a directory stands where the claim file of ${target} belongs; remove it by hand` };
    }
    // Another program's file where the claim file belongs: never taken over or swept, whatever its age.
    if (read.foreign) {
      return { state: "blocked", reason: `${read.path} is another program's file, not a claim (never overwritten or removed); a claims directory is for claims only: move that file out of it, or give claims a directory of their own (--dir, CLAIMS_DIR or "dir" in .claims)` };
    }
    const unread = read;
    return {
      state: unreadableStale(read, context) ? "stale" : "held",
      holding: unreadableHolding(target, read, context),
      get version() {
        return unread.version;
      },
    };
  }
  const { claim } = read;
  const parsed = read; // its version is a getter (src/os/files.ts): passed on unasked
  if (holder !== undefined && claim.holder === holder) {
    return {
      state: "mine",
      claim,
      stale: ownFreshness(claim, read.mtimeMs, context).stale,
      get version() {
        return parsed.version;
      },
    };
  }
  return {
    state: othersFreshness(claim, read.mtimeMs, context).stale ? "stale" : "held",
    holding: holdingOf(claim, context),
    get version() {
      return parsed.version;
    },
  };
}

/**
 * How fresh another holder's claim (or a queued interest) is, by the staleness rule
 * (docs/PROTOCOL.md 5): stale when its heartbeat is older than its TTL and its file's mtime is too.
 * The mtime is the filesystem's stamp, which no process's clock skews: a heartbeat that reads stale
 * in a file written within the TTL was stamped by a clock running behind, and taking it over would
 * rob a live holder. Judged on the filesystem's clock (onFilesystemClock).
 */
export function othersFreshness(claim: Pick<Claim, "heartbeat_at" | "ttl">, mtimeMs: number, context: Context): Freshness {
  return onFilesystemClock(context, () => freshnessOf(claim, context.nowMs, context.settings.judgeTtl, mtimeMs, context.clock));
}

/**
 * Whether an unreadable claim file has gone stale: by its mtime alone, on the filesystem's clock (as
 * othersFreshness), against the reader's TTL. One unreadable to this user only by its permissions
 * (a 0600 claim of another user in a group-shared directory) may be a live claim whose own `ttl` is
 * longer, beaten by its holder all along: judged by the reader's TTL, it was taken over while that
 * holder still beat it. It is held until its file is older than the longest TTL a claim may carry
 * (MAX_TTL_SECONDS); its holder's own sweep, or root's, which read it, judge it by its TTL.
 */
export function unreadableStale(read: { mtimeMs: number; denied?: true; misplaced?: Claim }, context: Context): boolean {
  const { mtimeMs } = read;
  const heartbeat = formatTimestampRoundedDown(mtimeMs);
  const ttl = read.denied ? MAX_TTL_SECONDS : context.settings.judgeTtl;
  const stale = onFilesystemClock(context, () => freshnessOf({ heartbeat_at: heartbeat }, context.nowMs, ttl, mtimeMs, context.clock)).stale;
  // A claim under another target's file name (on a claims directory that ignores case, `Deploy.json`
  // is also `deploy.json`) is a live claim all the same: held while its own heartbeat and TTL say so
  // too. By its mtime against the reader's TTL alone, a claim with a longer TTL was taken over fresh.
  return stale && (read.misplaced === undefined || othersFreshness(read.misplaced, mtimeMs, context).stale);
}

/**
 * A judgement made again on the filesystem's clock where it hung on this process's: before
 * answering stale by it (a process running ahead, under libfaketime, or a script's fixed clock,
 * would find every claim stale), or fresh only by an mtime far ahead of it (a copy's, or this
 * clock behind), the filesystem's clock is read (readClock).
 */
function onFilesystemClock(context: Context, judged: () => Freshness, others = true): Freshness {
  // Judged by the time now, never by a time read before the file was: a step can stall for seconds
  // after it read the clock (waiting out another's claim lock while it grants the queue, or
  // descheduled). A claim renewed meanwhile then had a heartbeat and an mtime more than a TTL ahead
  // of that time, as a copied file's are, was judged stale, and was taken over while fresh.
  refreshNow(context);
  const freshness = judged();
  if (!freshness.stale && !freshness.mtimeAhead) return freshness;
  const again = readClock(context) ? judged() : freshness;
  // A clock ahead of the filesystem's by less than the tolerance is not moved onto it (its stamps
  // may be whole seconds: a second's noise): it finds another's claim stale no sooner for running
  // ahead. Not its own: a holder that found its claim fresh a moment longer than the others did
  // would renew one they took over (the safe side is the other way, which it errs on already).
  const ahead = others ? (context.clockAheadMs ?? 0) : 0;
  if (!again.stale || ahead <= 0) return again;
  context.nowMs -= ahead;
  try {
    return judged();
  } finally {
    context.nowMs += ahead;
  }
}

/** The filesystem's clock is read again once this process's has moved this far (a clock running fast, libfaketime's `x10`). */
const CLOCK_REREAD_MS = 1000;

/** The last reading of each claims directory's clock in this process, and when (by this process's clock). */
const clockReadings = new Map<string, { at: number; clock: ReturnType<typeof readFilesystemClock> }>();

/**
 * Reads the filesystem's clock (a probe file, no fsync: paid only by a call that finds something
 * stale, and at most once a second of its own clock) and moves `nowMs` onto it; true when it was
 * read (judge again). On a local filesystem it is the kernel's clock, which a process's may not be.
 */
export function readClock(context: Context): boolean {
  if (!context.realTime) return false;
  const processNow = Date.now();
  if (context.clockReadAt !== undefined && Math.abs(processNow - context.clockReadAt) < CLOCK_REREAD_MS) return false;
  context.clockReadAt = processNow;
  // Read by another context of this process within the second (a hook call opens one to judge the
  // write, another to renew the session's claim; claims mcp one per call): that reading.
  const dir = context.settings.dir;
  const recent = clockReadings.get(dir);
  const clock = recent !== undefined && Math.abs(processNow - recent.at) < CLOCK_REREAD_MS ? recent.clock : readFilesystemClock(dir, () => context.store.fileMode, true);
  if (clock !== recent?.clock) clockReadings.set(dir, { at: processNow, clock });
  if (!clock.measured) return false;
  context.clock = { onClock: true, measured: true };
  context.clockAheadMs = clock.aheadMs;
  if (clock.offsetMs !== (context.clockOffsetMs ?? 0)) {
    context.clockOffsetMs = clock.offsetMs;
    context.nowMs = Date.now() + clock.offsetMs;
  }
  return true;
}

/**
 * How fresh the caller's own claim is, for deciding whether it lapsed: one without a `ttl` of its
 * own by the shortest TTL any reader judges such a claim by (the default; a longer CLAIMS_TTL or
 * `--ttl` only ever lengthens a reader's), so a holder whose TTL is set longer never renews as
 * fresh a claim every other session may already have found stale and built over (docs/PROTOCOL.md 5).
 * On the filesystem's clock, read first (once a second at most), as the others judge it; by its
 * heartbeat alone where that clock cannot be read.
 */
export function ownFreshness(claim: Claim, mtimeMs: number, context: Context, marginMs = 0): Freshness {
  // The heartbeat need not be this process's stamp: a grant from the queue and a handover are
  // stamped by the process that made them. By a clock of its own running behind (libfaketime), a
  // claim so stamped looks fresh, or a heartbeat in the future, long after the others found it
  // stale and took what it covers, and a beat renewed it as fresh, looking for nothing in its way.
  // So the filesystem's clock is read before the holder judges its own claim (a probe, at most once
  // a second of this process's clock: readClock), and the claim is judged on it as the others do.
  if (!context.clock.measured) readClock(context);
  // The mtime counts only once the clock was read: against a clock behind, an mtime would keep the
  // holder's claim fresh to it after the others, on the filesystem's clock, found it stale.
  const clock = () => ({ onClock: context.clock.measured, measured: context.clock.measured });
  return onFilesystemClock(context, () => freshnessOf(claim, context.nowMs + marginMs, DEFAULT_TTL_SECONDS, mtimeMs, clock()), false);
}

export function kindOf(canonicalTarget: string): TargetKind {
  return shapeOf(canonicalTarget).kind;
}

/** The claims the holder has, by scanning the directory. */
export function claimsOf(holder: string, context: Context): Array<{ fileName: string; claim: Claim }> {
  const mine: Array<{ fileName: string; claim: Claim }> = [];
  for (const { fileName, read } of context.store.list()) {
    if (read.state === "claim" && read.claim.holder === holder) mine.push({ fileName, claim: read.claim });
  }
  return mine;
}

export function displayTarget(fileName: string, read: ClaimRead): string {
  return read.state === "claim" ? read.claim.target : targetOfFileName(fileName);
}
