// log: the record of every state change, oldest first, filtered by target, holder and time.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { BadInputError } from "../os/errors.js";
import { optionName } from "../os/option-names.js";
import { LOG_FILE, logFiles, readLogFile, type LogEntry } from "../protocol/log.js";
import { waitForChanges } from "../os/watch.js";
import { openContext, parseTargets, type CommonOptions, type Context } from "../protocol/context.js";
import { looksLikePath, parseTarget, pathItWillBe } from "../targets/target.js";
import { shapeOf } from "../targets/overlap.js";
import { routesOf } from "../protocol/routes.js";
import { parseTimestamp } from "../os/time.js";
import { asOneVerb } from "../os/lookups.js";
import { checkOptionTypes } from "./option-types.js";

export interface LogOptions extends Omit<CommonOptions, "holder"> {
  /** Only entries about this target (canonicalized like any target). */
  target?: string;
  /** Only entries by or about this holder. */
  holder?: string;
  /** Only entries at or after this time: an ISO timestamp, or an age like 30s, 10m, 2h, 7d. */
  since?: string;
}

export interface LogResult {
  entries: LogEntry[];
  /** Lines of the log that are no entry (damaged, or another program's): skipped, the rest read. */
  skipped_lines?: number;
  /** Set when the claims directory does not exist (a mistyped --dir, or nothing taken there yet): nothing was recorded there. */
  directory_missing?: true;
  /** With directory_missing: that directory. */
  dir?: string;
}

export interface LogFilter {
  matches(entry: LogEntry): boolean;
}

export function logFilter(options: LogOptions, nowMs: number, targets?: ReadonlySet<string>): LogFilter {
  const sinceMs = options.since === undefined ? undefined : parseSince(options.since, nowMs);
  return {
    matches: (entry) =>
      (targets === undefined || targets.has(entry.target)) &&
      (options.holder === undefined || entry.holder === options.holder || entry.other === options.holder) &&
      (sinceMs === undefined || (parseTimestamp(entry.at) ?? 0) >= sinceMs),
  };
}

export function log(options: LogOptions = {}): LogResult {
  checkOptionTypes("log", options);
  return asOneVerb(() => logNow(options));
}

/**
 * The targets whose entries `claims log <target>` shows: the one the argument names, and what it
 * may have been recorded as when it was there. The record outlives the files it names, and a log
 * is read most after one is gone: a word that reads like a path (`gen.txt`, `build`) is also the
 * file or directory it names, or named (as check and status answer for it), and a path not there
 * now is the file or the directory that was.
 */
function targetsAsked(input: string, context: Context): Set<string> {
  const target = parseTargets([input], context)[0];
  if (target === undefined) return new Set();
  const forms = new Set([target.canonical]);
  if (looksLikePath(target)) forms.add(parseTarget(pathItWillBe(target.canonical).path, { cwd: context.settings.cwd, home: context.settings.home }).canonical);
  for (const form of [...forms]) {
    const { kind } = shapeOf(form);
    if (kind === "path") forms.add(`${form}/`);
    else if (kind === "directory" && form !== "/") forms.add(form.replace(/\/$/, ""));
  }
  return forms;
}

/**
 * Where a target's changes were recorded: the claims directories its claims live in (docs/PROTOCOL.md
 * 1a: a package's own, which a `.claims` beside it names; for a directory, also those of the
 * packages below), as every other verb acts on it there. The caller's own for a name, or when
 * `--dir` or CLAIMS_DIR pins one directory. The first is the target's own.
 */
function logDirsOf(options: LogOptions, own: string): string[] {
  if (options.target === undefined) return [own];
  const routes = routesOf([options.target], options);
  if (routes === undefined) return [own];
  const dirs = [...routes.dirs].sort(([, a], [, b]) => Number((b.homeOf ?? []).length > 0) - Number((a.homeOf ?? []).length > 0)).map(([dir]) => dir);
  return dirs.length > 0 ? dirs : [own];
}

function logNow(options: LogOptions = {}): LogResult {
  const context = openContext(options);
  const target = options.target === undefined ? undefined : targetsAsked(options.target, context);
  const filter = logFilter(options, context.nowMs, target);
  const dirs = logDirsOf(options, context.store.dir);
  if (dirs.length !== 1 || dirs[0] !== context.store.dir) {
    // Read where the target's claims live; merged oldest first (each directory's record is in order).
    const there = dirs.filter((dir) => existsSync(dir));
    const parts = there.map((dir) => logNow({ ...options, dir, target: undefined, env: { ...(options.env ?? process.env), CLAIMS_DIR: "" } }));
    const entries = parts
      .flatMap((part) => part.entries)
      .filter((entry) => filter.matches(entry))
      .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    if (entries.length === 0 && there.length === 0) return { entries, directory_missing: true, dir: dirs[0] as string };
    const skipped = parts.reduce((sum, part) => sum + (part.skipped_lines ?? 0), 0);
    return { entries, ...(skipped > 0 && { skipped_lines: skipped }) };
  }
  const entries: LogEntry[] = [];
  let skipped = 0;
  // Listed through the store, so an unreadable directory is an error naming it, not "no entries".
  for (const file of logFiles(context.store.dir, context.store.names())) {
    let read: ReturnType<typeof readLogFile>;
    try {
      read = readLogFile(file, 0, "throw");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "an error";
      if (code === "EISDIR") throw new BadInputError(`The log ${file} is a directory, not a file; move it out of the claims directory (claims writes the log there).`);
      throw new BadInputError(`Cannot read the log ${file} (${code}); fix its permissions, or run claims log as a user who may read the claims directory.`);
    }
    entries.push(...read.entries.filter((entry) => filter.matches(entry)));
    skipped += read.skipped ?? 0;
  }
  // "no entries" from a directory that is not there is said to be that, as status says it.
  if (entries.length === 0 && !existsSync(context.store.dir)) return { entries, directory_missing: true, dir: context.store.dir };
  return { entries, ...(skipped > 0 && { skipped_lines: skipped }) };
}

/**
 * Prints new entries as they are appended, until `signal` aborts: watches the directory, with a
 * polling fallback for filesystems whose watch events are unreliable. Follows rotation.
 */
export async function followLog(options: LogOptions, onEntry: (entry: LogEntry) => void, signal: AbortSignal): Promise<void> {
  const context = openContext(options);
  const target = options.target === undefined ? undefined : targetsAsked(options.target, context);
  const filter = logFilter({ ...options, since: undefined }, context.nowMs, target);
  // The target's own claims directory, where its changes are appended (logDirsOf).
  const dir = logDirsOf(options, context.store.dir)[0] as string;
  const path = join(dir, LOG_FILE);
  let offset = sizeOf(path);
  let inode = inodeOf(path);
  const emit = (entries: LogEntry[]) => {
    for (const entry of entries) if (filter.matches(entry)) onEntry(entry);
  };
  const drain = () => {
    const current = inodeOf(path);
    if (current !== inode) {
      // Rotated: finish the old file (renamed to log-<time>-….jsonl, same inode), then start the new one.
      const rotated = logFiles(dir).find((file) => file !== path && inodeOf(file) === inode);
      if (rotated) emit(readLogFile(rotated, offset).entries);
      inode = current;
      offset = 0;
    }
    const { entries, end } = readLogFile(path, offset);
    offset = end;
    emit(entries);
  };
  await waitForChanges(dir, drain, signal);
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

function parseSince(text: string, nowMs: number): number {
  const age = /^(\d+)([smhd])$/.exec(text.trim());
  if (age) {
    const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[age[2] as "s" | "m" | "h" | "d"];
    return nowMs - Number(age[1]) * unit;
  }
  // A UTC time as the log prints it, or shorter: a date alone is its midnight, a time without seconds its minute.
  const time = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?)?Z?$/.exec(text.trim());
  const at = time ? parseTimestamp(`${time[1]}T${time[2] ?? "00:00"}${time[3] ?? ":00"}Z`) : undefined;
  // Date.parse rolls 2026-02-30 over into March: a day the month does not have is refused.
  if (at === undefined || new Date(at).toISOString().slice(0, 10) !== time?.[1]) {
    throw new BadInputError(`${optionName("since")} ${JSON.stringify(text)} is neither an age like 10m, 2h, 7d nor a UTC time like 2026-08-14T21:02:11Z (or a date, 2026-08-14).`);
  }
  return at;
}
