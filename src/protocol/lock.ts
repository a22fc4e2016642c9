// The per-claim mutex: who may change one version of one claim file.
//
// Beat, release, stale takeover and sweep all read a claim, decide, and then replace or remove
// it. Two of them acting on the same reading would each believe they won (two holders after a
// double takeover, a beat silently undone by a sweep). So every change of an existing claim first
// wins a lock named after the claim file *and the exact version it read*, by link(2): creating a
// name that already exists fails with EEXIST, so among any number of contenders exactly one
// creates it. The winner re-reads the claim, acts only if it is still that version, and removes
// its lock.
//
// Why not proper-lockfile: it breaks a lock it judges stale by mtime with rmdir + mkdir, and two
// contenders that both judged it stale can both "win" (moxystudio/node-proper-lockfile#121), which
// is exactly the double takeover this protocol must rule out. A time-based judgement is also wrong
// for a paused owner, which would wake and finish its write after the lock was broken.
//
// A lock is broken only when its owner process is dead (src/os/process-identity.ts), and breaking
// it is itself decided by link(2): the contenders race for the next lock in the chain
// (`.lock-<key>-1`, `-2`, ...), so a crashed owner never wedges a claim and still only one process
// acts. A contender passes over a lock only if, after judging its owner dead, the lock is still the
// same file (inode, mtime, bytes): an owner that finished and exited in between left no lock, or a
// new owner's. Locks of a version that no longer exists are debris: whoever wins one re-reads, sees
// a different version and backs off; `sweep` removes them.
//
// An owner on another machine (another boot id: the claims directory is on a network filesystem)
// cannot be looked up. Its lock is waited for until the contender has seen that very lock file
// unchanged for a lease (src/os/lease.ts), on the contender's own clock; live owners stop writing
// well before that. Only then is it passed over, by the same race for the next lock.
import { renameSync } from "node:fs";
import { join } from "node:path";
import { crashPoint } from "../os/crash.js";
import { freshLookups } from "../os/lookups.js";
import { BusyError } from "../os/errors.js";
import { linkExclusive, overwriteInPlace, readSnapshot, removeQuietly, sleepSync, writeTempFile, type Snapshot } from "../os/files.js";
import { randomHex, sha256Hex } from "../os/hash.js";
import { assertWithinLease, beginHold, endHold, HOLD_LIMIT_MS, LOCK_LEASE_MS, monotonicMs } from "../os/lease.js";
import { livenessOf, ownMachineIdentity, type ProcessIdentity } from "../os/process-identity.js";

export const LOCK_PREFIX = ".lock-";

export interface LockRecord extends ProcessIdentity {
  claim: string;
  version: string;
  /** Makes every owner record unique, so a lock file is never mistaken for an earlier one at its name. */
  nonce?: string;
}

/**
 * How long a wait for another's lock may last before it gives up with BusyError, where that is
 * shorter than the usual limits (a live owner's HOLD_LIMIT_MS, a lease for one elsewhere): set by
 * withLockPatience for a call that has something better to do than wait (a hook's renewal of a
 * claim with time to spare, src/commands/beat.ts).
 */
let patienceMs: number | undefined;

/** Runs `work` with every wait for another's lock cut at `ms` (BusyError, nothing changed). */
export function withLockPatience<T>(ms: number, work: () => T): T {
  const before = patienceMs;
  patienceMs = ms;
  try {
    return work();
  } finally {
    patienceMs = before;
  }
}

export function lockName(claimFile: string, version: string, generation: number): string {
  const key = sha256Hex(`${claimFile}\n${version}`).slice(0, 32);
  return `${LOCK_PREFIX}${key}-${generation}`;
}

/** Reads a lock's owner record without following links or blocking on a fifo planted at its name. */
export function readLockRecord(path: string): LockRecord | undefined {
  const snapshot = readSnapshot(path);
  return snapshot.kind === "file" ? parseLockRecord(snapshot.bytes) : undefined;
}

function parseLockRecord(bytes: Buffer): LockRecord | undefined {
  try {
    const value = JSON.parse(bytes.toString("utf8")) as LockRecord;
    return typeof value.claim === "string" && typeof value.version === "string" && typeof value.pid === "number"
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

export type LockedResult<T> =
  | { outcome: "done"; value: T; /** > 1 when dead owners' locks were passed over. */ generation: number }
  | { outcome: "changed"; current: Snapshot };
// The action gets the generation it won: above 1, dead owners' locks were passed over, and an
// action that leaves the file as it was may want to change its version before letting go, so the
// dead locks become debris (see Store.withTakeLock).

/**
 * A file of the caller's own in the claims directory, moved to a temp name of this process (or
 * undefined when there is none), that the lock may overwrite and remove. See writeOwnerFile.
 */
export type SpareFile = () => string | undefined;

/**
 * Runs `action` with the lock on `version` of `claimFile`, if the claim is still that version once
 * the lock is won. Otherwise returns `changed` with what is there now, for the caller to decide again.
 */
export function withClaimLock<T>(
  dir: string,
  claimFile: string,
  version: string,
  mode: number,
  action: (current: Snapshot, generation: number) => T,
  spare?: SpareFile,
): LockedResult<T> {
  const claimPath = join(dir, claimFile);
  const record: LockRecord = { claim: claimFile, version, ...ownMachineIdentity(), nonce: randomHex(8) };
  const content = `${JSON.stringify(record)}\n`;
  const ownerFile = writeOwnerFile(dir, content, mode, spare);
  try {
    let generation = 1;
    let pause = 2;
    // The lock file judged last, and since when (monotonicMs()): a busy deadline and a lease
    // run per owner, not across successive owners.
    let watched: { version: string; since: number } | undefined;
    for (;;) {
      const lockPath = join(dir, lockName(claimFile, version, generation));
      if (!linkExclusive(ownerFile, lockPath, content)) {
        const judged = readSnapshot(lockPath);
        if (judged.kind === "missing") continue; // its owner just finished: try the same lock again
        if (watched?.version !== judged.version) watched = { version: judged.version, since: monotonicMs() };
        const owner = judged.kind === "file" ? parseLockRecord(judged.bytes) : undefined;
        const liveness = owner ? livenessOf(owner) : "dead";
        const waited = monotonicMs() - watched.since;
        if (owner && (liveness === "alive" || (liveness === "elsewhere" && waited <= LOCK_LEASE_MS))) {
          // Someone is changing this very version right now. If they already did, we are done here.
          const current = readSnapshot(claimPath);
          if (versionOf(current) !== version) return { outcome: "changed", current };
          if (liveness === "alive" && waited > HOLD_LIMIT_MS) {
            throw new BusyError(
              `The claim file ${claimFile} has been locked by process ${owner.pid} for over ${HOLD_LIMIT_MS / 1000} s; that process seems stopped. Resume or kill it, then retry.`,
            );
          }
          if (patienceMs !== undefined && waited > patienceMs) throw new BusyError(`The claim file ${claimFile} is locked by process ${owner.pid}; retry.`);
          // Locks this process holds around this one (the take lock, around a takeover) are renewed
          // while it waits, as before a write: waiting out the lease of a crashed machine's lock
          // here takes longer than HOLD_LIMIT_MS, and an outer lock left unrenewed that long could
          // no longer be written under, failing every take that reached that lock until a sweep.
          // (A pause past the limit still ends here: this process may have been overtaken.)
          assertWithinLease();
          sleepSync(pause);
          freshLookups(); // (what was looked up before a wait is looked up again: src/os/lookups.ts)
          pause = Math.min(pause * 2, 50);
          continue;
        }
        // A dead owner, an owner elsewhere whose lease ran out, or a record nobody could have
        // written whole. Pass over the lock only if it is still the very file we judged: an owner
        // that finished and exited between our read and our liveness check looks dead, but its
        // lock is gone (or already another's), and passing over *that* would put us beside
        // whoever holds it now.
        if (versionOf(readSnapshot(lockPath)) === judged.version) generation += 1;
        continue;
      }
      beginHold(() => renewLock(dir, lockPath, record, mode));
      try {
        crashPoint("lock-won");
        const current = readSnapshot(claimPath);
        if (versionOf(current) !== version) return { outcome: "changed", current };
        return { outcome: "done", value: action(current, generation), generation };
      } finally {
        endHold();
        removeQuietly(lockPath);
      }
    }
  } finally {
    removeQuietly(ownerFile);
  }
}

/**
 * Replaces a held lock's file with a new owner record of the same owner: a new version, so a
 * waiter on another machine starts its lease again (src/os/lease.ts). rename(2) keeps the lock name
 * taken throughout.
 */
function renewLock(dir: string, lockPath: string, record: LockRecord, mode: number): void {
  const temp = writeTempFile(dir, `${JSON.stringify({ ...record, nonce: randomHex(8) })}\n`, mode, false);
  try {
    renameSync(temp, lockPath);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
}

/**
 * The owner record goes to a new temp file. On a full disk that write fails, and a release (which
 * only removes files) would keep a claim held until its TTL. So a caller about to give up a file
 * anyway may offer it as a spare: it already holds a block, and overwriting it in place needs none
 * (src/os/files.ts). The lock is then the same link(2) of a complete owner record as always, so a
 * contender judges it exactly as any other and the one-winner argument is unchanged.
 */
function writeOwnerFile(dir: string, content: string, mode: number, spare: SpareFile | undefined): string {
  try {
    return writeTempFile(dir, content, mode, false);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== "ENOSPC" && code !== "EDQUOT") || spare === undefined) throw error;
    const path = spare();
    if (path === undefined) throw error;
    try {
      overwriteInPlace(path, content);
      return path;
    } catch {
      removeQuietly(path);
      throw error;
    }
  }
}

export function versionOf(snapshot: Snapshot): string | undefined {
  return snapshot.kind === "missing" ? undefined : snapshot.version;
}

