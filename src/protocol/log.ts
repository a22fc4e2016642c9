// The record: every state change appends one JSON line to `log.jsonl` in the claims directory, so
// collisions can be audited after the fact. Appends are single write(2) calls with O_APPEND, which
// never interleave on a local filesystem; a line is bounded so it is one small write. At 1 MiB the
// log is renamed to `log-<time>-<pid>-<random>.jsonl` (a unique name: two rotators never overwrite each
// other) and a new, empty one is made at once (a refusal is noted only in a log that exists); it is never rewritten in place. A broken or missing log never
// blocks a verb: writing it is best effort.
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, statSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { ownAsDirectory } from "../os/files.js";
import { randomHex } from "../os/hash.js";
import { formatTimestampRoundedDown } from "../os/time.js";

export const LOG_FILE = "log.jsonl";
export const ROTATE_BYTES = 1024 * 1024;
const MAX_FIELD = 500;

export type LogEvent =
  | "take"
  | "retake"
  | "renew"
  | "takeover"
  | "refused"
  | "lost"
  | "release"
  | "queue"
  | "dequeue"
  | "grant"
  | "transfer"
  | "sweep";

export interface LogEntry {
  at: string;
  event: LogEvent;
  target: string;
  holder: string;
  purpose?: string;
  /** takeover: whose stale claim; refused: who held it; grant: who freed it; transfer: to whom. */
  other?: string;
  pid: number;
}

/**
 * doctor's scratch targets: its races and read-back test the directory, they are nobody's work,
 * and the twenty entries of every run would bury the real record. They are not recorded.
 */
export function doctorScratchName(): string {
  return `claims-doctor-${randomHex(8)}`;
}
/** Every scratch target doctor takes is its scratch name plus a suffix (-free, -stale, -remote, -lock, …). */
const DOCTOR_SCRATCH = /^claims-doctor-[0-9a-f]{8}-/;

export function appendLog(dir: string, nowMs: number, entry: Omit<LogEntry, "at" | "pid">, mode = 0o600): void {
  const log = logWriter(dir, mode);
  try {
    log.append(nowMs, entry);
  } finally {
    log.close();
  }
}

export interface LogWriter {
  append(nowMs: number, entry: Omit<LogEntry, "at" | "pid">): void;
  close(): void;
}

/**
 * Appends to the log of `dir` through one open file, for a verb that records thousands of changes
 * (sweep of 10,000 claims would otherwise open, stat and close the log 10,000 times). Every line is
 * still its own write(2) with O_APPEND, made right after its change, to the file the log's name
 * leads to: before each line after the first, one lstat of the name says whether it is still the
 * file held open and how large it has grown (with every process's lines), and when another process
 * has rotated or removed it meanwhile, the log is opened again. appendLog is one line of it.
 */
export function logWriter(dir: string, mode = 0o600): LogWriter {
  const path = join(dir, LOG_FILE);
  let fd: number | undefined;
  let held = { dev: 0, ino: 0 };
  let size = 0;
  const close = (): void => {
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch {
      // nothing is lost: every line was written whole already
    }
    fd = undefined;
  };
  /** The log opened for appending, or undefined when it is not a regular file (nothing is written there). */
  const open = (refusal: boolean): number | undefined => {
    // O_NOFOLLOW and O_NONBLOCK: a symlink planted at the log's name must not redirect our append
    // outside the claims directory, and a fifo must not hang a verb. Only a regular file is written.
    // A refusal changed nothing: it is noted in a log that exists, and never creates one.
    const create = refusal ? 0 : constants.O_CREAT;
    const opened = openSync(path, constants.O_WRONLY | constants.O_APPEND | create | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
    try {
      const stat = fstatSync(opened);
      if (!stat.isFile()) {
        closeSync(opened);
        return undefined;
      }
      // open() applies the umask: a group-shared directory's log would come out 0640, and the
      // group's appends would then fail, silently (best effort). Its owner puts the mode right.
      if ((stat.mode & 0o777) !== mode && stat.uid === process.getuid?.()) fchmodSync(opened, mode);
      if (stat.uid === 0 && stat.size === 0) ownAsDirectory(opened, dirname(path)); // made now by root in a user's directory
      held = { dev: stat.dev, ino: stat.ino };
      size = stat.size;
    } catch (error) {
      closeSync(opened);
      throw error;
    }
    return opened;
  };
  return {
    append(nowMs, entry) {
      if (DOCTOR_SCRATCH.test(entry.target)) return;
      try {
        if (fd !== undefined) {
          // Still the log? A rotated log's lines must not grow it past 1 MiB, nor stay unread by `claims log --follow`.
          const there = lstatSync(path, { throwIfNoEntry: false });
          if (there === undefined || there.dev !== held.dev || there.ino !== held.ino) close();
          else size = there.size;
        }
        fd ??= open(entry.event === "refused");
        if (fd === undefined) return;
        const line: LogEntry = { at: formatTimestampRoundedDown(nowMs), ...clip(entry), pid: process.pid };
        size += writeSync(fd, `${JSON.stringify(line)}\n`); // others' appends meanwhile only delay a rotation
        if (size > ROTATE_BYTES) {
          close();
          const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, "");
          renameSync(path, join(dir, `log-${stamp}-${process.pid}-${randomHex(6)}.jsonl`));
          // The new log starts now, empty: a refusal is noted only in a log that exists, and one
          // made before the next change would otherwise be lost to the rotation.
          const fresh = open(false);
          if (fresh !== undefined) closeSync(fresh);
        }
      } catch {
        // The record must never cost a claim: a full disk or an unwritable log is not the caller's problem.
        close();
      }
    },
    close,
  };
}

/**
 * Why the changes appendLog records in `dir` would be lost, silently as it must, with what to do; or
 * undefined when they would land (a log that does not exist yet is created by the next change). For
 * doctor: appendLog writes only a regular file, through no symlink, that this user may append to.
 */
export function logProblem(dir: string): string | undefined {
  const path = join(dir, LOG_FILE);
  const lost = "so no change is recorded there (claims log misses them)";
  let kind: string;
  try {
    const stat = lstatSync(path);
    kind = stat.isFile() ? "" : stat.isDirectory() ? "a directory" : stat.isSymbolicLink() ? "a symbolic link (never appended through)" : "not a regular file";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? undefined : `${path} cannot be looked at (${code}), ${lost}: fix the permissions of ${dir}`;
  }
  if (kind !== "") return `${path} is ${kind}, ${lost}: move it out of the claims directory, and the next change starts a new log`;
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK));
  } catch (error) {
    return `${path} cannot be opened for appending (${(error as NodeJS.ErrnoException).code}), ${lost}: give this user write permission on it (chmod or chown)`;
  }
  return undefined;
}

function clip(entry: Omit<LogEntry, "at" | "pid">): Omit<LogEntry, "at" | "pid"> {
  const out = { ...entry };
  if (out.purpose && out.purpose.length > MAX_FIELD) out.purpose = `${out.purpose.slice(0, MAX_FIELD)}…`;
  return out;
}

/** Every log file of the directory, oldest first: the rotated ones by name (their time), then the current one. */
export function logFiles(dir: string, listed?: string[]): string[] {
  let names: string[];
  try {
    names = listed ?? readdirSync(dir);
  } catch {
    return [];
  }
  const rotated = names.filter((name) => /^log-.+\.jsonl$/.test(name)).sort();
  return [...rotated, ...(names.includes(LOG_FILE) ? [LOG_FILE] : [])].map((name) => join(dir, name));
}

/**
 * Parses the lines of one log file, skipping any that are not whole entries. A file that is gone
 * (rotated, swept) has none; one that cannot be read has none either, unless `unreadable` is
 * "throw": then its error is thrown, for a reader that must not mistake it for an empty record.
 */
export function readLogFile(path: string, from = 0, unreadable: "skip" | "throw" = "skip"): { entries: LogEntry[]; end: number; skipped?: number } {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size <= from) return { entries: [], end: size };
    text = readFileSync(path).subarray(from).toString("utf8");
  } catch (error) {
    if (unreadable === "throw" && (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return { entries: [], end: from };
  }
  const complete = text.lastIndexOf("\n") + 1;
  const entries: LogEntry[] = [];
  let skipped = 0;
  for (const line of text.slice(0, complete).split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value = JSON.parse(line) as LogEntry;
      if (typeof value.event === "string" && typeof value.at === "string") entries.push(value);
      else skipped++;
    } catch {
      skipped++; // a foreign or damaged line: skip it, keep the rest (counted: `claims log` says so)
    }
  }
  return { entries, end: from + Buffer.byteLength(text.slice(0, complete)), ...(skipped > 0 && { skipped }) };
}
