// Low-level file primitives for the claims directory. Everything here is synchronous: a verb is a
// short process and does a handful of small writes, so async buys nothing but start-up cost.
//
// Why not write-file-atomic for replacement: it resolves the destination with realpath() first so
// it can preserve symlinks, which means a claim file planted as a symlink would redirect our write
// to wherever the link points, outside the claims directory. Renaming a temp file over the claim
// name replaces the link itself. It also never fsyncs the directory, which the rename needs to
// survive a crash. So the primitive is spelled out here: temp file, fsync, rename, fsync directory.
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { crashPoint } from "./crash.js";
import { BusyError } from "./errors.js";
import { os } from "./lazy-os.js";
import { randomHex, sha256Hex } from "./hash.js";
import { assertWithinLease } from "./lease.js";
import { lookupTable, remembered } from "./lookups.js";
import { ownIdentity } from "./process-identity.js";

export const TEMP_PREFIX = ".tmp-";
/** A claim file is bigger than this only if something other than a claims writer put it there. */
export const MAX_CLAIM_BYTES = 64 * 1024;

/**
 * `.tmp-<pid>-<pid namespace>-<boot>-<random>`: the writer's pid, pid namespace and machine boot
 * (bootTag) let sweep remove the temp file of a crashed writer at once (src/protocol/debris.ts),
 * and never a live one in another namespace or on another machine: every Linux host numbers its
 * first pid namespace alike, so on a shared network filesystem the namespace alone would match a
 * live writer's elsewhere.
 */
export function tempName(): string {
  const self = ownIdentity();
  return `${TEMP_PREFIX}${process.pid}-${self.ns?.replace(/\D/g, "") || "0"}-${bootTag(self.boot)}-${randomHex(12)}`;
}

/** A machine boot's tag in a temp file's name: the boot id's first 8 hex digits, or "0" where it cannot be read. */
export function bootTag(boot: string | undefined): string {
  const tag = (boot ?? "").replace(/[^0-9a-f]/gi, "").slice(0, 8).toLowerCase();
  return tag.length === 8 ? tag : "0";
}

/** Whether this process started as root (one that gives root up later only tries to give files away, and fails quietly). */
const RUNS_AS_ROOT = process.getuid?.() === 0;
/** The owner of a directory root writes in, where it is another user's (src/os/lookups.ts). */
const DIRECTORY_OWNERS = lookupTable<{ uid: number; gid: number } | undefined>();

/**
 * What root makes in a directory another user owns (a file by descriptor or path, a directory by
 * path) is made that user's, in the directory's group: made root's, mode 0600 or 0700, it would be
 * unreadable to that user's sessions (a claim of root's agent they could neither read, sweep nor
 * judge by its TTL, held for the longest TTL a claim may carry), as if that user had made it.
 * Only what root just made is given away: a file of root's with one name (a hard link the
 * directory's owner put at the name, to a file of root's elsewhere, has two), or a directory,
 * opened without following a symlink put in its place: the user must never be handed a file of
 * root's outside the directory. Best effort: a filesystem that does not let root give files away
 * (NFS's root_squash) keeps them as it made them. Nothing for anyone but root.
 */
export function ownAsDirectory(made: number | string, dir: string): void {
  if (!RUNS_AS_ROOT) return;
  let fd: number | undefined;
  try {
    // Looked at once per verb (src/os/lookups.ts): a take makes three files in its claims directory.
    const owner = remembered(DIRECTORY_OWNERS, dir, () => {
      const stat = statSync(dir);
      return stat.uid === 0 ? undefined : { uid: stat.uid, gid: stat.gid };
    });
    if (owner === undefined) return;
    fd = typeof made === "number" ? made : openSync(made, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (stat.uid !== 0 || !(stat.isDirectory() || (stat.isFile() && stat.nlink === 1))) return;
    fchownSync(fd, owner.uid, owner.gid);
  } catch {
    // kept as made (see above)
  } finally {
    if (typeof made === "string" && fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes `content` whole to a new temp file in `dir` and (unless `durable` is false) fsyncs it.
 * Returns the temp file's path. Lock owner records skip the fsync: a lock means nothing after a
 * machine crash (the boot id changes), so it need not survive one.
 */
export function writeTempFile(dir: string, content: string, mode: number, durable = true): string {
  const path = join(dir, tempName());
  // O_EXCL + O_NOFOLLOW: never write through something that was already there.
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    fchmodSync(fd, mode); // the umask must not strip the group bits of a group-shared directory
    ownAsDirectory(fd, dir);
    writeAll(fd, content);
    crashPoint("temp-written");
    if (durable) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    removeQuietly(path);
    throw error;
  }
  closeSync(fd);
  return path;
}

/** Writes the whole of `content` (UTF-8) at `fd`'s offset: write(2) may write less than it is given. */
export function writeAll(fd: number, content: string): void {
  const bytes = Buffer.from(content, "utf8");
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}

/** Makes a link, rename or unlink in `dir` durable. */
export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces `path` atomically: readers see the old content or the new one, never a mix. With
 * `alsoAs`, the same durable file is first renamed there (a fencing token's counter,
 * src/protocol/fencing.ts) and a second link of it replaces `path`: one fsynced file and one
 * directory fsync for both.
 */
export function replaceFile(dir: string, path: string, content: string, mode: number, alsoAs?: string): void {
  const temp = writeTempFile(dir, content, mode);
  let source = temp;
  try {
    if (alsoAs !== undefined) {
      assertWithinLease();
      renameSync(temp, alsoAs);
      crashPoint("token-issued");
      source = join(dir, tempName());
      // A fresh random temp name taken meanwhile: someone else wrote there; say so and let the caller retry.
      if (!linkExclusive(alsoAs, source, content)) throw new BusyError(`The temp file ${source} was created by someone else during this call; run the command again.`);
    }
    crashPoint("before-rename");
    assertWithinLease();
    renameSync(source, path);
  } catch (error) {
    removeQuietly(source);
    throw error;
  }
  crashPoint("after-rename");
  fsyncDirectory(dir);
}

/**
 * Overwrites a regular file's bytes from the start and then cuts it to their length, without
 * truncating it first: a truncate would hand its blocks back, and on a full disk nothing
 * guarantees getting them again. On filesystems that overwrite in place (tmpfs, ext4, xfs) content
 * no longer than the file's first block needs no free space at all.
 */
export function overwriteInPlace(path: string, content: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a regular file`);
    const bytes = Buffer.from(content, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, written);
    ftruncateSync(fd, bytes.length);
  } finally {
    closeSync(fd);
  }
}

/** How stale a pointer's mtime may grow before it is stamped anew (touchWhenOld): sweep takes one unused for 7 days as debris. */
const TOUCH_AFTER_MS = 24 * 3600 * 1000;

/**
 * Keeps a pointer file (`.pinned/`, `.elsewhere/`) young for sweep: once its mtime (`mtimeMs`, as
 * read) lies a day from this process's clock, either way (this clock may be the one off), it is
 * stamped anew by the filesystem. Otherwise nothing is written.
 */
export function touchWhenOld(path: string, mtimeMs: number): void {
  if (Math.abs(Date.now() - mtimeMs) > TOUCH_AFTER_MS) touchByFilesystem(path);
}

/**
 * Gives a small file a fresh mtime stamped by the filesystem, not by this process's clock (which
 * `utimes` would write, and which may be skewed: libfaketime): its bytes and mode written anew and
 * renamed over it. False when it is gone or cannot be rewritten.
 */
function touchByFilesystem(path: string): boolean {
  const snapshot = readSnapshot(path);
  if (snapshot.kind !== "file") return false;
  let temp: string | undefined;
  try {
    temp = writeTempFile(dirname(path), snapshot.bytes.toString("utf8"), lstatSync(path).mode & 0o7777, false);
    renameSync(temp, path);
    return true;
  } catch {
    if (temp !== undefined) removeQuietly(temp);
    return false;
  }
}

export function removeQuietly(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes a file a writer may touch or rewrite while it is judged (a pointer): renamed to `aside`
 * first, judged there by `stillDebris`, and put back where readers look when it no longer is (a
 * file written there meanwhile stays). Answers whether it was removed (not when gone already).
 */
export function removeSetAside(path: string, aside: string, stillDebris: (aside: string) => boolean): boolean {
  try {
    renameSync(path, aside);
  } catch {
    return false; // gone meanwhile
  }
  if (!stillDebris(aside)) {
    try {
      linkSync(aside, path);
    } catch {
      // one was written meanwhile
    }
    removeQuietly(aside);
    return false;
  }
  removeQuietly(aside);
  return true;
}

export type Snapshot =
  | { kind: "missing" }
  | { kind: "file"; bytes: Buffer; version: string; mtimeMs: number }
  | { kind: "other"; what: string; version: string; mtimeMs: number; /** Not readable by this user only by its permissions (EACCES). */ denied?: true };

/**
 * Errors a network filesystem gives for a moment and then not (a file handle gone stale under a
 * concurrent rename or unlink, a FUSE server answering EIO or EPERM while it catches up). A read
 * that met one is simply read again; see withTransientRetries.
 */
const TRANSIENT = new Set(["ESTALE", "EIO", "EAGAIN", "EINTR", "ETIMEDOUT", "ECONNRESET", "ENOTCONN"]);
/** Retries wait 10, 20, 40, ... ms: 2.5 s in all, past the 1 s a FUSE client keeps a name's stale handle by default. */
const TRANSIENT_ATTEMPTS = 9;
function pauseBeforeRetry(attempt: number): void {
  sleepSync(10 * 2 ** (attempt - 1));
}

/**
 * The error's code, also where libuv has no name for the errno: it reports ESTALE (116 on Linux)
 * as "Unknown system error -116".
 */
export function errorCode(error: unknown): string | undefined {
  const { code, errno } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof errno === "number" && (code === undefined || code.startsWith("Unknown system error"))) {
    const name = Object.entries(os().constants.errno).find(([, value]) => value === -errno)?.[0];
    if (name !== undefined) return name;
  }
  return code;
}

export function isTransient(error: unknown): boolean {
  return TRANSIENT.has(errorCode(error) ?? "");
}

/** Runs an idempotent read again (a few times, briefly spaced) while it fails with a transient error. */
export function withTransientRetries<T>(read: () => T): T {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return read();
    } catch (error) {
      if (!isTransient(error) || attempt >= TRANSIENT_ATTEMPTS) throw error;
      pauseBeforeRetry(attempt);
    }
  }
}

/**
 * Reads a directory entry without following symlinks or blocking on a fifo. The version
 * identifies this exact content: a hash of the bytes, and nothing else. Not the inode number or
 * the mtime: every client of a network filesystem must compute the same version for one file,
 * since lock names are made from it (src/protocol/lock.ts), and sshfs numbers inodes per mount and
 * may show a client's cached mtime of the file that was there before. A claim's bytes name its
 * holder and stamps, so when they come back byte for byte, deciding again on them decides the same.
 */
export function readSnapshot(path: string): Snapshot {
  return withTransientRetries(() => readSnapshotOnce(path));
}

function readSnapshotOnce(path: string): Snapshot {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "missing" };
    if (isTransient(error)) throw error;
    if (code === "ELOOP") return describeOther(path, "a symlink");
    if (code === "EACCES") return describeOther(path, "not readable by this user", true);
    if (code === "ENXIO") return describeOther(path, "a socket");
    return describeOther(path, `not readable (${code})`);
  }
  try {
    return readOpened(path, fd);
  } catch (error) {
    // A path-based network filesystem (sshfs) answers fstat or read of a file removed since it was
    // opened with ENOENT: then it is gone, as if open had said so.
    if (errorCode(error) === "ENOENT") return { kind: "missing" };
    throw error;
  } finally {
    closeQuietly(fd);
  }
}

function readOpened(path: string, fd: number): Snapshot {
  const stat = fstatSync(fd, { bigint: true });
  const mtimeMs = Number(stat.mtimeMs);
  if (!stat.isFile()) return describeOther(path, stat.isDirectory() ? "a directory" : "not a regular file");
  if (stat.size > BigInt(MAX_CLAIM_BYTES)) return { kind: "other", what: "larger than 64 KiB", version: `${stat.mtimeNs}-large`, mtimeMs };
  const bytes = readAll(fd, Number(stat.size));
  // Hashed when first asked for: most reads only decide (a check, a hook finding its own fresh
  // claim) and never name the version, and a claim's few blocks of SHA-256 cost tenths of a
  // millisecond in a process that lives for one call.
  let version: string | undefined;
  return {
    kind: "file",
    bytes,
    mtimeMs,
    get version() {
      return (version ??= sha256Hex(bytes).slice(0, 16));
    },
  };
}

/**
 * Closing a file that was only read can fail on a network filesystem (GlusterFS answers ESTALE or
 * ENOENT when the file was removed meanwhile by another client): nothing was written, so nothing
 * is lost, and what was read stands.
 */
function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // see above
  }
}

function describeOther(path: string, what: string, denied = false): Snapshot {
  try {
    const stat = lstatSync(path, { bigint: true });
    return { kind: "other", what, version: `${stat.mtimeNs}-other`, mtimeMs: Number(stat.mtimeMs), ...(denied && { denied }) };
  } catch {
    return { kind: "missing" };
  }
}

/**
 * link(2) that never replaces: true when `to` was created, false when a file already stood there.
 * link is decided by the filesystem (the server, on a network filesystem), so one of any number
 * of concurrent linkers wins. A FUSE filesystem may tell a loser EPERM or EIO instead of EEXIST
 * (sshfs does: SFTP has one generic failure code), and a network filesystem may fail a link it
 * did make: so after any failure but a plain one, the name decides: our own bytes there mean we
 * made it, other bytes mean someone else did, nothing means try again.
 */
export function linkExclusive(from: string, to: string, ours: Buffer | string): boolean {
  for (let attempt = 1; ; attempt += 1) {
    try {
      linkSync(from, to);
      return true;
    } catch (error) {
      const code = errorCode(error);
      if (code === "EEXIST") return false;
      if ((code !== "EPERM" && !isTransient(error)) || attempt >= TRANSIENT_ATTEMPTS) throw error;
      const there = readSnapshot(to);
      if (there.kind === "file") return there.bytes.equals(Buffer.isBuffer(ours) ? ours : Buffer.from(ours, "utf8"));
      if (there.kind === "other") return false;
      pauseBeforeRetry(attempt);
    }
  }
}

/**
 * `size` is what fstat said: the first read asks for one byte more and takes a claim whole,
 * without zero-filling 16 KiB for it. When it returns exactly `size` bytes that is the whole file
 * fstat saw, and no second read is needed to meet the end (status of 10,000 claims makes 10,000
 * fewer system calls); anything else (the file changed size meanwhile) reads on to the end.
 */
function readAll(fd: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(chunks.length === 0 ? size + 1 : 16 * 1024);
    const count = readSync(fd, chunk, 0, chunk.length, null);
    if (count === 0) break;
    chunks.push(chunk.subarray(0, count));
    total += count;
    if (total > MAX_CLAIM_BYTES || (chunks.length === 1 && count === size)) break;
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread for `ms` milliseconds without spinning. */
export function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

/** A path with the directories above it resolved through symlinks, the part not there yet kept as it is (the path itself where none can be resolved). */
export function realOf(path: string): string {
  for (let at = path, rest = ""; ; rest = `/${basename(at)}${rest}`, at = dirname(at)) {
    try {
      return realpathSync.native(at) + rest;
    } catch {
      if (at === dirname(at)) return path;
    }
  }
}

/** The path with its symlinks resolved, or the path as given when it does not resolve (missing, unreadable). */
export function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The names in a directory that may well not be there (a claims directory's `.aliases`, `.pinned`),
 * none when it is not or cannot be listed. Asked first with access(2): a readdir of a missing
 * directory throws, and Node builds the error with its stack (about 6 µs of a short process, and a
 * take of a new file looked for these a dozen times).
 */
export function listedIfThere(path: string): string[] {
  if (!existsSync(path)) return [];
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}
