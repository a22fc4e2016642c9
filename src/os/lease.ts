// How long a lock may be held, when its contenders may run on other machines.
//
// A lock owner on another machine (another boot id) cannot be looked up: its pid means nothing
// here. So a contender that finds such an owner's lock waits, on its own monotonic clock, until it
// has seen that very lock file unchanged for LOCK_LEASE_MS, and then treats the owner as crashed
// (src/protocol/lock.ts). Counting on the contender's own clock, from when it first saw the lock,
// needs no agreement between clocks (Kubernetes' leader election observes lease records the same
// way).
//
// That is safe only if a live owner never writes after a waiter's lease ran out. So an owner that
// has held a lock for a while renews it before its next write: it replaces its lock file with a
// new owner record (a new version, so every waiter starts counting again), at most every
// RENEW_AFTER_MS. And it stops before any write when its lock went more than HOLD_LIMIT_MS without
// renewal (the process was paused, or the filesystem hung): a BusyError, nothing changed. That
// leaves LOCK_LEASE_MS - HOLD_LIMIT_MS for the one write it may have started just before. A
// process paused inside that last write for longer (SIGSTOP, a frozen VM) can still land it after
// the lease; no lock without the filesystem's help can rule that out, and fencing tokens
// (docs/PROTOCOL.md section 4a) are the answer for writes that must be fenced.
import { BusyError } from "./errors.js";

/** A mutation takes milliseconds; a live owner holding a lock this long without renewing it is stopped or wedged. */
export const HOLD_LIMIT_MS = 10_000;
/** How long a lock of an owner on another machine holds off others after they first see it unchanged. */
export const LOCK_LEASE_MS = 30_000;
/** An owner renews its lock before a write once it has held it (or last renewed it) this long. */
const RENEW_AFTER_MS = 3_000;

interface Hold {
  /** monotonicMs() when the lock was won or last renewed. */
  since: number;
  /** Replaces the lock file with a new owner record; throws when it cannot. */
  renew: () => void;
}

/**
 * A monotonic clock in milliseconds. Not performance.now(): the first touch of the global
 * `performance` loads perf_hooks and seven internal modules into a call that takes one lock.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** The locks this process holds now, innermost last. */
const holds: Hold[] = [];

export function beginHold(renew: () => void): void {
  holds.push({ since: monotonicMs(), renew });
}

export function endHold(): void {
  holds.pop();
}

/**
 * Runs `work` as if no lock were held around it, for writes that a lock of their own protects: a
 * take giving back the claims it wrote, each under that claim's lock, after its take lock went past
 * HOLD_LIMIT_MS (the process was stopped). The take lock guards new grants; nothing given back
 * needs it, and it must not keep the claims held for their TTL.
 */
export function outsideHeldLocks<T>(work: () => T): T {
  const outer = holds.splice(0);
  try {
    return work();
  } finally {
    holds.unshift(...outer);
  }
}

/**
 * Called before every write that a lock protects. Renews a lock held for a while; throws when one
 * went longer than HOLD_LIMIT_MS without renewal, since a contender on another machine may pass
 * over it soon, and writing now could put two writers inside.
 */
export function assertWithinLease(): void {
  for (const hold of holds) {
    const now = monotonicMs();
    const held = now - hold.since;
    if (held > HOLD_LIMIT_MS) {
      throw new BusyError(
        `This call held a lock of the claims directory for ${(held / 1000).toFixed(1)} s without renewing it, longer than the ${HOLD_LIMIT_MS / 1000} s a lock may be held while other machines may be waiting; it stopped before writing anything more. Retry; if it recurs, the claims directory's filesystem is too slow or this machine too loaded.`,
      );
    }
    if (held > RENEW_AFTER_MS) {
      try {
        hold.renew();
        hold.since = now; // before the renewal landed: no waiter saw the new record earlier
      } catch {
        // not renewed (a full disk): the limit above still stops this owner in time
      }
    }
  }
}
