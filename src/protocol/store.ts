// The claims directory: one claim file per target, plus short-lived temp files and locks whose
// names start with `.` and never end in `.json`, so they are never mistaken for claims.
import { accessSync, chmodSync, chownSync, constants, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync, utimesSync } from "node:fs";
import { dirname, join } from "node:path";
import { modeOf, parseClaim, serializeClaim, type Claim } from "./claim.js";
import { BadInputError, ClaimsError, NetworkFilesystemError } from "../os/errors.js";
import { crashPoint } from "../os/crash.js";
import {
  errorCode,
  fsyncDirectory,
  isTransient,
  linkExclusive,
  ownAsDirectory,
  readSnapshot,
  removeQuietly,
  replaceFile,
  withTransientRetries,
  writeTempFile,
  type Snapshot,
} from "../os/files.js";
import { describeFilesystem } from "../os/filesystem.js";
import { randomHex } from "../os/hash.js";
import { assertWithinLease } from "../os/lease.js";
import { lockName, versionOf, withClaimLock } from "./lock.js";
import { claimFileName, forgetWhereLed, sharedClaimFileName } from "../targets/target.js";

export type ClaimRead =
  | { state: "missing" }
  | { state: "claim"; claim: Claim; version: string; mtimeMs: number }
  | {
      state: "unreadable";
      reason: string;
      version: string;
      mtimeMs: number;
      directory: boolean;
      /** The file's path, for the message that points at it. */
      path: string;
      /** Unreadable to this user only by its permissions: a claim, perhaps, with a TTL longer than the reader's (unreadableStale). */
      denied?: true;
      /** A claim that parses but names another target than its file name says (unreadableStale). */
      misplaced?: Claim;
      /** Bytes no claim's writer makes, even torn (`package.json`, text): another program's file, never removed or overwritten (foreignBytes). */
      foreign?: true;
    };

/** `retire`: write the same claim again in other bytes, which gives it a new version (retireDeadLocks). */
export type Change = { replace: Claim; /** A fencing token's counter file the new claim also becomes (src/protocol/fencing.ts). */ counter?: string } | "remove" | "keep" | "retire";

/**
 * The take lock file. Every take holds the claim lock of its current version while it looks for
 * overlapping claims and creates its own, so overlap checks and creation are one atomic step
 * across processes (section 6 of docs/PROTOCOL.md). It is rewritten only when a dead owner's lock
 * had to be passed over, which makes those dead locks debris.
 */
export const TAKES_FILE = ".takes";

/** Grant notices: a waiter learns from `status` that it was granted a target while it waited (src/protocol/grant.ts). */
export const NOTICE_PREFIX = ".granted-";

/** Fencing token counters (src/protocol/fencing.ts): created only under the take lock. */
export const TOKEN_PREFIX = ".token-";

/** Held markers (src/protocol/held.ts): what a holder was granted, so a lost claim can be reported. */
export const HELD_PREFIX = ".held-";

export function isClaimFileName(name: string): boolean {
  return name.endsWith(".json") && !name.startsWith(".");
}

const TAKES_CONTENT = `${JSON.stringify({ about: "the take lock of this claims directory; see docs/PROTOCOL.md" })}\n`;
/**
 * Versions are the bytes' hash (src/os/files.ts), so a rewrite of `.takes` that must give it a new
 * version writes new bytes.
 */
function rewrittenTakesContent(): string {
  return `${JSON.stringify({ about: "the take lock of this claims directory; see docs/PROTOCOL.md", rewritten: randomHex(8) })}\n`;
}

/** The sentence for a claims directory that is a file. */
export const notADirectory = (dir: string) => `The claims directory ${dir} is not a directory; point --dir or CLAIMS_DIR at a directory.`;

export class Store {
  readonly dir: string;
  private readonly groupShared: boolean;
  private readonly directoryMode: number;
  /** The directory is 2770 already: made shared by a session whose config says so (fileMode). */
  private sharedDirectory?: boolean;

  constructor(dir: string, options: { groupShared?: boolean } = {}) {
    this.dir = dir;
    this.groupShared = options.groupShared === true;
    this.directoryMode = options.groupShared ? 0o2770 : 0o700;
  }

  /**
   * 0660 where the caller's config or the directory itself says the group shares it, else 0600:
   * a claims directory made 2770 by the sessions whose `.claims` says `shared_group` stays usable
   * by every member when a session with another config writes in it (a target routed there).
   */
  get fileMode(): number {
    if (this.groupShared) return 0o660;
    if (this.sharedDirectory === undefined) {
      try {
        this.sharedDirectory = (statSync(this.dir).mode & 0o2070) === 0o2070;
      } catch {
        this.sharedDirectory = false;
      }
    }
    return this.sharedDirectory ? 0o660 : 0o600;
  }

  /**
   * A directory of the protocol's inside this one (`.aliases`, `.unresolved`, `.elsewhere`), made
   * if missing: shared with the group as its files are (fileMode), 2770 whatever the umask, else
   * owner-only. Answers its path.
   */
  subdirectory(name: string): string {
    const path = join(this.dir, name);
    const shared = this.fileMode === 0o660;
    try {
      mkdirSync(path, { mode: shared ? 0o2770 : 0o700 });
      if (shared) chmodSync(path, 0o2770); // as the claims directory itself: the umask must not narrow it
      ownAsDirectory(path, this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    return path;
  }

  /**
   * Creates the directory on first use (owner-only unless group-shared) and checks it is usable:
   * writable, and (unless `trustAnyMode`, for doctor, which reports it itself) not world-writable.
   */
  ensure(options: { trustAnyMode?: boolean } = {}): void {
    // One level at a time rather than mkdir({ recursive: true }), which spins forever under /proc
    // (mkdir answers ENOENT there for a parent that exists).
    const missing: string[] = [];
    let ancestorGid: number | undefined;
    for (let path = this.dir; ; path = dirname(path)) {
      try {
        const stats = statSync(path);
        if (path === this.dir && stats.isDirectory()) this.sharedDirectory = (stats.mode & 0o2070) === 0o2070;
        if (stats.isDirectory()) {
          ancestorGid = stats.gid;
          break;
        }
        throw new BadInputError(
          path === this.dir
            ? notADirectory(this.dir)
            : `The claims directory ${this.dir} cannot be made: ${path} is a file in its way; point --dir or CLAIMS_DIR elsewhere.`,
        );
      } catch (error) {
        if (error instanceof BadInputError) throw error;
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "ENOENT") throw this.ioError(error, "reach"); // it may exist: we cannot even look (EACCES on the way)
        missing.unshift(path);
        if (dirname(path) === path) break;
      }
    }
    for (const path of missing) {
      try {
        mkdirSync(path, { mode: this.directoryMode });
        ownAsDirectory(path, dirname(path)); // root's in a user's tree: that user's, as the user would have made it
        if (this.directoryMode !== 0o700) this.takeTeamGroup(path, ancestorGid);
        if (path === this.dir && this.directoryMode !== 0o700) chmodSync(path, this.directoryMode);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EEXIST" && this.isDirectory(path)) continue; // created by someone else meanwhile
        if (code === "ENOENT") {
          throw new BadInputError(`Cannot create the claims directory ${this.dir}: the file system refuses it; choose another with --dir or CLAIMS_DIR.`);
        }
        throw this.ioError(error, "create");
      }
    }
    try {
      if (!options.trustAnyMode) this.refuseWorldWritable();
      accessSync(this.dir, constants.W_OK | constants.X_OK);
    } catch (error) {
      if (error instanceof BadInputError) throw error;
      throw this.ioError(error, "write to");
    }
    this.refuseForeignFiles();
  }

  /**
   * A group-shared directory just made takes the group of the directory it was made in (where the
   * creator may give it that group: a member of it, or root), as a setgid parent would give it:
   * made with the creator's own group, often a group of that user alone, it would be shared with
   * nobody, and the team's other users would be refused it (EACCES) while doctor found it fine.
   */
  private takeTeamGroup(path: string, gid: number | undefined): void {
    if (gid === undefined) return;
    try {
      const made = statSync(path);
      if (made.gid === gid) return;
      const mayGive = process.getuid?.() === 0 || (process.getgroups?.() ?? []).includes(gid);
      if (!mayGive) return;
      chownSync(path, -1, gid);
      chmodSync(path, made.mode & 0o7777); // a change of group may drop the setgid bit
    } catch {
      // best effort: the directory stays the creator's group, as mkdir made it (doctor says so)
    }
  }

  /**
   * A directory first used for claims (no `.takes` yet: every take and the shell recipe of
   * docs/PROTOCOL.md section 10 make it) must hold nothing but claims and their bookkeeping: a
   * project or home directory given as `--dir .` or `"dir": "."` holds `package.json`, which sweep
   * would remove as an unreadable claim once it is older than the TTL, and a take of the name
   * `package` would overwrite. Entries starting with `.` are the protocol's own (or left alone by
   * it), and `lost+found` is a mount's; anything else that is no claim is refused, naming it.
   */
  refuseForeignFiles(): void {
    if (existsSync(this.path(TAKES_FILE))) return;
    const foreign: string[] = [];
    for (const name of this.names().sort()) {
      if (name.startsWith(".") || name === "lost+found" || name === "log.jsonl" || /^log-.*\.jsonl$/.test(name)) continue;
      if (isClaimFileName(name) && !this.foreignJson(name)) continue;
      foreign.push(name);
    }
    if (foreign.length === 0) return;
    const shown = foreign.length > 3 ? `${foreign.slice(0, 3).join(", ")} and ${foreign.length - 3} more` : foreign.join(", ");
    throw new BadInputError(
      `The claims directory ${this.dir} already holds other files (${shown}): sweep would remove a .json file there as an unreadable claim, and a take could overwrite one; give claims a directory of their own, new or empty, with --dir, CLAIMS_DIR or "dir" in .claims.`,
    );
  }

  /**
   * Anyone on the machine can forge or remove claims in a world-writable directory, so a claim
   * taken there guards nothing: refused, as `claims doctor` fails it. The sticky bit does not
   * help: others could still create claims on free targets, and stale takeovers would fail.
   */
  private refuseWorldWritable(): void {
    const stat = statSync(this.dir);
    if ((stat.mode & 0o002) === 0) return;
    const mode = (stat.mode & 0o7777).toString(8);
    const uid = process.getuid?.();
    const why = `The claims directory ${this.dir} is world-writable (mode ${mode})`;
    const risk = "anyone on the machine can forge or remove claims in it";
    if (uid !== undefined && stat.uid !== uid) {
      throw new BadInputError(`${why} and owned by another user (uid ${stat.uid}): ${risk}; choose another with --dir or CLAIMS_DIR.`);
    }
    throw new BadInputError(`${why}: ${risk}; run chmod o-w ${this.dir} (to share it, use a group and "shared_group": true in .claims), or choose another with --dir or CLAIMS_DIR.`);
  }

  /** A `.json` file that is no claim and no claim's debris either (foreignBytes). */
  private foreignJson(name: string): boolean {
    const read = this.read(name);
    return read.state === "unreadable" && read.foreign === true;
  }

  /** Makes removals done with `deferDirectorySync` durable, with one fsync of the directory. */
  syncDirectory(): void {
    this.io("write to", () => fsyncDirectory(this.dir));
  }

  private isDirectory(path: string): boolean {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false; // removed again meanwhile: the caller reports it
    }
  }

  /** Turns an environment failure (permissions, a full disk, a file in the way) into one clear sentence. */
  ioError(error: unknown, doing: string): Error {
    const code = errorCode(error);
    if (isTransient(error) || code === "EREMOTEIO" || code === "EHOSTDOWN" || code === "EHOSTUNREACH" || code === "ENETDOWN" || code === "ENETUNREACH") {
      // A network filesystem that kept failing after the retries: not a bug of ours, and not
      // something the user typed. One sentence, naming the filesystem, exit 1.
      const mapped = new NetworkFilesystemError(
        `Cannot ${doing} the claims directory ${this.dir}: its filesystem (${describeFilesystem(this.dir)}) kept failing with ${code}; check the mount and the network, then retry.`,
      );
      mapped.cause = error;
      return mapped;
    }
    if (error instanceof ClaimsError) return error;
    const why: Record<string, string> = {
      EACCES: "permission denied",
      EPERM: "operation not permitted",
      EROFS: "read-only file system",
      ENOSPC: "no space left on device",
      EDQUOT: "disk quota exceeded",
      ENOTDIR: "a file is in the way of a directory",
      EEXIST: "a file is in the way of the directory",
      ENAMETOOLONG: "a name in its path is longer than the file system allows",
      ELOOP: "its path goes round in symbolic links",
    };
    if (code === "ENOENT") {
      // Every path the store writes is in the claims directory, and the store's own temp files
      // live until it removes them, so a missing one means the directory itself went away mid-call.
      return new BadInputError(
        `Cannot ${doing} the claims directory ${this.dir}: it was removed while this call was using it (ENOENT); run the command again, and leave the directory in place while sessions use it.`,
      );
    }
    if (code && why[code]) {
      const mapped = new BadInputError(
        `Cannot ${doing} the claims directory ${this.dir}: ${why[code]} (${code}); fix it or choose another with --dir or CLAIMS_DIR.`,
      );
      mapped.cause = error;
      return mapped;
    }
    return error as Error;
  }

  path(fileName: string): string {
    return join(this.dir, fileName);
  }

  read(fileName: string): ClaimRead {
    const path = this.path(fileName);
    return interpret(readSnapshot(path), fileName, path);
  }

  /**
   * Creates the claim only if no claim file exists: the whole claim goes to a temp file, is
   * fsynced, then link(2)ed to the claim name. link fails with EEXIST when the name is taken, so
   * exactly one of any number of concurrent creators wins, and the claim appears whole or not at
   * all (open with O_EXCL and then write would let a reader see it empty or half-written).
   *
   * With `counter` (a new fencing token's counter file, src/protocol/fencing.ts) the fsynced temp
   * file is first renamed to the counter name, which issues the token, and the claim is a second
   * link of that file: a crash after the rename skips the token, and one directory fsync makes both
   * durable.
   */
  create(fileName: string, claim: Claim, counter?: string): boolean {
    return this.io("write to", () => {
      const content = serializeClaim(claim);
      const temp = writeTempFile(this.dir, content, this.fileMode);
      let source = temp;
      try {
        if (counter !== undefined) {
          assertWithinLease();
          renameSync(temp, this.path(counter));
          this.noteCounter(counter);
          source = this.path(counter);
          crashPoint("token-issued");
        }
        crashPoint("before-link");
        assertWithinLease();
        if (!linkExclusive(source, this.path(fileName), content)) return false;
        crashPoint("after-link");
      } finally {
        if (source === temp) removeQuietly(temp);
      }
      fsyncDirectory(this.dir);
      return true;
    });
  }

  /**
   * The token counter names while this process holds the take lock: counters are created only
   * under it, so the first listing made inside, plus the counters this process creates, is exact,
   * and a take in a directory of 10,000 claims lists it once instead of once per token.
   */
  private counters: Set<string> | undefined;
  private holdingTakeLock = false;

  /** Whether this process runs work under this directory's take lock now (withTakeLock). */
  get insideTakeLock(): boolean {
    return this.holdingTakeLock;
  }

  /** The names of every fencing token counter (see `counters`). */
  counterNames(): string[] {
    if (this.counters) return [...this.counters];
    return this.names().filter((name) => name.startsWith(TOKEN_PREFIX));
  }

  private noteCounter(counter: string | undefined): void {
    if (counter !== undefined) this.counters?.add(counter);
  }

  /** Set by sweep: removals skip their directory fsync, and sweep fsyncs the directory once at the end. */
  deferDirectorySync = false;

  /**
   * Changes the claim under its lock if it is still the version that was read. `decide` sees the
   * current state and returns the change; `changed` means someone else changed it first. `spare`
   * lets a removal take the claim lock on a full disk (SpareFile in src/protocol/lock.ts, spelled
   * out here so the library's declarations stay clear of the file primitives, whose types name
   * Buffer).
   */
  change(fileName: string, version: string, decide: (current: ClaimRead) => Change, spare?: () => string | undefined): "done" | "changed" {
    return this.io("write to", () => {
      const result = withClaimLock(this.dir, fileName, version, this.fileMode, (snapshot) => {
        const change = decide(interpret(snapshot, fileName, this.path(fileName)));
        if (change === "remove") {
          crashPoint("before-unlink");
          assertWithinLease();
          unlinkSync(this.path(fileName));
          if (!this.deferDirectorySync) fsyncDirectory(this.dir);
        } else if (change === "retire") {
          if (snapshot.kind === "file") {
            replaceFile(this.dir, this.path(fileName), otherBytes(snapshot.bytes), this.fileMode);
            // Its mtime is part of its age (a claim is stale only when its file is old too): kept.
            keepMtime(this.path(fileName), snapshot.mtimeMs);
          }
        } else if (change !== "keep") {
          this.noteCounter(change.counter);
          replaceFile(this.dir, this.path(fileName), serializeClaim(change.replace), this.fileMode, change.counter && this.path(change.counter));
        }
      }, spare);
      return result.outcome;
    });
  }

  /**
   * Whether the take lock on `.takes` as it is now is taken, or was by an owner that died holding
   * it (its first link, `.lock-<key>-1`, is there while anyone holds a later one: section 6);
   * read-only. No `.takes` (nor a version of it) counts as taken: nothing can be told of it.
   * Whoever holds the take lock may be between linking a claim and writing its held marker.
   */
  takeLockTaken(): boolean {
    const version = versionOf(readSnapshot(this.path(TAKES_FILE)));
    if (version === undefined) return true;
    return lstatSync(this.path(lockName(TAKES_FILE, version, 1)), { throwIfNoEntry: false }) !== undefined;
  }

  /** Runs `work` while holding the take lock. Takes of any targets are serialized by it; nothing else is. */
  withTakeLock<T>(work: () => T): T {
    return this.io("write to", () => {
      for (;;) {
        const path = this.path(TAKES_FILE);
        let snapshot = readSnapshot(path);
        if (snapshot.kind === "missing") {
          // Made here, it marks the directory as used for claims: not one holding other files (a
          // release or a queued handover in `--dir .` would otherwise open it to sweep and take).
          this.refuseForeignFiles();
          // Its bytes only name a version to lock; a crash that loses them leaves a file as good.
          const temp = writeTempFile(this.dir, TAKES_CONTENT, this.fileMode, false);
          try {
            linkExclusive(temp, path, TAKES_CONTENT);
          } finally {
            removeQuietly(temp);
          }
          snapshot = readSnapshot(path);
        }
        const version = versionOf(snapshot);
        if (version === undefined) continue;
        const result = withClaimLock(this.dir, TAKES_FILE, version, this.fileMode, (_current, generation) => {
          this.holdingTakeLock = true;
          // Where paths claimed before they were there lead is asked again in here (src/protocol/unresolved.ts).
          forgetWhereLed();
          let value: T;
          try {
            value = work();
          } finally {
            this.holdingTakeLock = false;
            this.counters = undefined;
          }
          // Dead owners' locks were passed over: give .takes a new version *before* letting go,
          // so the dead locks become debris and no later taker can walk the old chain into a lock
          // while someone on the new version is inside. Rewriting it any earlier would let a
          // taker on the new version in while this work still runs.
          if (generation > 1) replaceFile(this.dir, path, rewrittenTakesContent(), this.fileMode);
          return value;
        });
        if (result.outcome === "changed") continue;
        return result.value;
      }
    });
  }

  /** The names of every claim file, without reading them. A missing directory holds no claims. */
  claimFileNames(): string[] {
    return this.names().filter(isClaimFileName);
  }

  /** Every claim file in the directory, read. A missing directory holds no claims. */
  list(): Array<{ fileName: string; read: ClaimRead }> {
    return this.names()
      .filter(isClaimFileName)
      .sort()
      .map((fileName) => ({ fileName, read: this.read(fileName) }))
      .filter((entry) => entry.read.state !== "missing");
  }

  /** Every entry of the directory (claims, queue, bookkeeping); none when it does not exist. */
  names(): string[] {
    try {
      const names = withTransientRetries(() => readdirSync(this.dir));
      if (this.holdingTakeLock && this.counters === undefined) this.counters = new Set(names.filter((name) => name.startsWith(TOKEN_PREFIX)));
      return names;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      if ((error as NodeJS.ErrnoException).code === "ENOTDIR") {
        throw new BadInputError(notADirectory(this.dir));
      }
      throw this.ioError(error, "read");
    }
  }

  private io<T>(doing: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw this.ioError(error, doing);
    }
  }
}

/** Where a claim lives: one file per target for exclusive claims, one per target and holder for shared ones. */
export function fileNameOf(claim: Claim): string {
  return modeOf(claim) === "shared" ? sharedClaimFileName(claim.target, claim.holder) : claimFileName(claim.target);
}

/**
 * The same JSON in other bytes: compact when it was indented, indented otherwise. Any reader
 * parses both alike, and the new bytes are a new version.
 */
function otherBytes(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  const value: unknown = JSON.parse(text);
  const compact = `${JSON.stringify(value)}\n`;
  return text === compact ? `${JSON.stringify(value, null, 2)}\n` : compact;
}

function interpret(snapshot: Snapshot, fileName: string, path: string): ClaimRead {
  if (snapshot.kind === "missing") return { state: "missing" };
  const read = snapshot; // the version is a getter (readSnapshot): passed on unasked
  const unreadable = (reason: string, directory = false, misplaced?: Claim, foreign = false): ClaimRead => ({
    state: "unreadable",
    reason,
    directory,
    path,
    ...(snapshot.kind === "other" && snapshot.denied && { denied: true as const }),
    ...(misplaced && { misplaced }),
    ...(foreign && { foreign: true as const }),
    get version() {
      return read.version;
    },
    mtimeMs: snapshot.mtimeMs,
  });
  if (snapshot.kind === "other") return unreadable(`the claim file is ${snapshot.what}`, snapshot.what === "a directory");
  const text = snapshot.bytes.toString("utf8");
  const parsed = parseClaim(text);
  if (!parsed.ok) return foreignBytes(text) ? unreadable("another program's file, not a claim", false, undefined, true) : unreadable(parsed.reason);
  // A claim must live under the name its target encodes to; one that does not (a file copied or
  // renamed by hand) would guard a target nobody looks up under that name.
  if (fileNameOf(parsed.claim) !== fileName) {
    const sharedHere = parsed.claim.mode === "shared" && claimFileName(parsed.claim.target) === fileName;
    return unreadable(
      sharedHere ? `it says "mode": "shared", but a shared claim lives in its holder's own file (${fileNameOf(parsed.claim)}), not under the exclusive name` : `its target ${JSON.stringify(parsed.claim.target)} does not belong under this file name`,
      false,
      parsed.claim,
    );
  }
  return {
    state: "claim",
    claim: parsed.claim,
    get version() {
      return read.version;
    },
    mtimeMs: snapshot.mtimeMs,
  };
}

/**
 * A `.json` file no claims writer makes, even cut short by a crash: anything but a JSON object
 * with a target and a holder (`package.json`, `{"target": "es2019"}`, a tsconfig.json
 * with comments, NDJSON, text), unless it is cut short where every writer starts a claim, with its
 * target (or holder) first. A claims directory given as a project's (`--dir .`) after its first
 * take holds such files; taking one over or sweeping it as a stale unreadable claim lost the user's
 * file. Empty or zero-filled bytes (what a file system can leave of a file whose blocks a crash
 * never wrote) and a claim with a bad field are the directory's own, shown and swept as unreadable.
 */
function foreignBytes(text: string): boolean {
  const body = text.replace(/^\0+/, "");
  if (/^[\s\0]*$/.test(body)) return false;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    // Cut short anywhere after its `{`: the rest begins with its first key, or with part of it.
    const rest = body.replace(/^\s*\{\s*/, "");
    return rest.length === body.length || !['"target"', '"holder"'].some((key) => rest.startsWith(key) || key.startsWith(rest));
  }
  return typeof value !== "object" || value === null || Array.isArray(value) || !("target" in value && "holder" in value);
}

/** Sets a file's mtime back to what it was (best effort: a newer mtime only delays its going stale). */
function keepMtime(path: string, mtimeMs: number): void {
  try {
    utimesSync(path, new Date(), new Date(mtimeMs));
  } catch {
    // a fresher mtime errs on the side of the holder
  }
}
