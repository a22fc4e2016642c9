// Debris: what crashed writers leave in the claims directory (temp files, locks of claim versions
// that no longer exist, expired idempotency records, unread grant notices, held markers of claims
// long gone), found for `sweep` to remove and `doctor` to count. Each kind is debris only once
// nobody can act on it any more, so removing it races no live session.
import { bootTag, readSnapshot, removeQuietly, TEMP_PREFIX } from "../os/files.js";
import { isAlive, ownIdentity } from "../os/process-identity.js";
import { claimFileName, sharedClaimFileName } from "../targets/target.js";
import { IDEMPOTENCY_PREFIX, IDEMPOTENCY_TTL_MS, isExpiredRecord } from "./idempotency.js";
import { LOCK_PREFIX, readLockRecord, versionOf } from "./lock.js";
import { HELD_PREFIX, isClaimFileName, NOTICE_PREFIX, TAKES_FILE, type Store } from "./store.js";

export interface Debris {
  file: string;
  kind: "temp" | "lock" | "idempotency" | "notice" | "marker";
}

/** Temp files live for milliseconds; one this old is debris. */
const TEMP_DEBRIS_AGE_MS = 60_000;

/**
 * Temp files of dead or long-gone writers, locks of claim versions that no longer exist, expired
 * idempotency keys, and grant notices nobody read for 7 days.
 */
export function findDebris(store: Store, nowMs: number): Debris[] {
  const found: Debris[] = [];
  for (const name of store.names()) {
    if (name.startsWith(TEMP_PREFIX) && isDeadTemp(store, name, nowMs)) found.push({ file: name, kind: "temp" });
    if (name.startsWith(LOCK_PREFIX) && isDeadLock(store, name, nowMs)) found.push({ file: name, kind: "lock" });
    if (name.startsWith(IDEMPOTENCY_PREFIX) && isExpiredRecord(store.path(name), nowMs)) found.push({ file: name, kind: "idempotency" });
    if (name.startsWith(NOTICE_PREFIX) && isOld(store, name, nowMs, IDEMPOTENCY_TTL_MS)) found.push({ file: name, kind: "notice" });
    if (name.startsWith(HELD_PREFIX) && isOld(store, name, nowMs, IDEMPOTENCY_TTL_MS) && !markerStillHeld(store, name)) {
      found.push({ file: name, kind: "marker" });
    }
  }
  return found;
}

/**
 * Locks a crashed owner left on the *current* version of a file cannot just be removed (the
 * chain must have no gaps, src/protocol/lock.ts). They are retired instead: the file is
 * rewritten, same content, under its lock (walking past the dead ones), which gives it a new
 * version and makes the dead locks plain debris. Returns how many files were rewritten.
 */
export function retireDeadLocks(store: Store): number {
  const files = new Set<string>();
  for (const name of store.names()) {
    if (!name.startsWith(LOCK_PREFIX)) continue;
    const record = readLockRecord(store.path(name));
    if (!record || isAlive(record)) continue;
    if (versionOf(readSnapshot(store.path(record.claim))) === record.version) files.add(record.claim);
  }
  let retired = 0;
  for (const file of files) {
    if (file === TAKES_FILE) {
      store.withTakeLock(() => undefined);
      retired += 1;
      continue;
    }
    if (!isClaimFileName(file)) continue;
    const read = store.read(file);
    if (read.state !== "claim") continue;
    if (store.change(file, read.version, (current) => (current.state === "claim" ? "retire" : "keep")) === "done") retired += 1;
  }
  return retired;
}

export function removeDebris(store: Store, debris: Debris): boolean {
  return removeQuietly(store.path(debris.file));
}

/** A held marker whose holder still holds the claim it names is not debris, however old. */
function markerStillHeld(store: Store, name: string): boolean {
  const snapshot = readSnapshot(store.path(name));
  if (snapshot.kind !== "file") return false;
  try {
    const marker = JSON.parse(snapshot.bytes.toString("utf8")) as { target: string; holder: string; mode?: string };
    const fileName = marker.mode === "shared" ? sharedClaimFileName(marker.target, marker.holder) : claimFileName(marker.target);
    const read = store.read(fileName);
    return read.state === "claim" && read.claim.holder === marker.holder;
  } catch {
    return false;
  }
}

function isOld(store: Store, name: string, nowMs: number, ageMs: number): boolean {
  const snapshot = readSnapshot(store.path(name));
  return snapshot.kind !== "missing" && nowMs - snapshot.mtimeMs > ageMs;
}

/**
 * A temp file is debris once it is a minute old, or at once when its writer (pid, pid namespace
 * and machine boot in its name, tempName) is provably gone. A pid from another namespace or
 * another machine proves nothing here, nor one in a name without the boot (an older writer's, or a
 * script's named otherwise than docs/PROTOCOL.md section 10 names them): a sweep on one machine must
 * not take the temp file of a take still running on another that shares the directory.
 */
function isDeadTemp(store: Store, name: string, nowMs: number): boolean {
  if (isOld(store, name, nowMs, TEMP_DEBRIS_AGE_MS)) return true;
  const parts = name.slice(TEMP_PREFIX.length).split("-");
  if (parts.length !== 4) return false;
  const [pid, namespace, boot] = parts;
  const self = ownIdentity();
  const ownNamespace = self.ns?.replace(/\D/g, "");
  const ownBoot = bootTag(self.boot);
  return ownNamespace !== undefined && namespace === ownNamespace && ownBoot !== "0" && boot === ownBoot && /^\d+$/.test(pid as string) && !isAlive({ pid: Number(pid) });
}

/**
 * A lock is debris once the claim version it guards is gone: nobody can act on that version
 * any more (whoever wins the lock re-reads and backs off). A dead owner's lock on the *current*
 * version stays, because the contenders' chain of locks for that version must have no gaps.
 */
function isDeadLock(store: Store, name: string, nowMs: number): boolean {
  const snapshot = readSnapshot(store.path(name));
  if (snapshot.kind === "missing") return false;
  const record = readLockRecord(store.path(name));
  if (!record) return nowMs - snapshot.mtimeMs > TEMP_DEBRIS_AGE_MS;
  if (!isClaimFileName(record.claim) && record.claim !== TAKES_FILE) return true;
  return versionOf(readSnapshot(store.path(record.claim))) !== record.version;
}
