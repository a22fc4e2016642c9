// The names of the agent hooks' dot-files in the claims directory (written by src/hooks/state.ts,
// listed in docs/PROTOCOL.md section 1). They are declared here, below the hooks and the commands,
// so that sweep can find the ones a client left behind without importing the hooks; and the record
// of a client process's sessions, which the hooks write and `claims mcp` reads, lives here too.
import { closeSync, constants, openSync, readFileSync, renameSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { ownAsDirectory, writeAll } from "../os/files.js";
import { sha256Hex } from "../os/hash.js";
import { processStartTime } from "../os/process-identity.js";

/** What a PreToolUse claimed for one tool call: `.hook-pending-<scope>-<call>.json`. */
export const HOOK_PENDING_PREFIX = ".hook-pending-";
/** A call of the turn wrote what a claim covers: `.hook-written-<scope>-<target hash>`. */
export const HOOK_WRITTEN_PREFIX = ".hook-written-";
/** A pending call failed, was refused, or had its permission prompt shown: `.hook-asked-<scope>-<call hash>`. */
export const HOOK_ASKED_PREFIX = ".hook-asked-";
/** A `/clear` in progress in one client process: `.hook-cleared-<process>.json`. */
export const HOOK_CLEARED_PREFIX = ".hook-cleared-";

/** The sessions one client process has run, the current one last: `.hook-client-<hash of the process>.json`. */
export const HOOK_CLIENT_PREFIX = ".hook-client-";
/** Written by an earlier version (the session a `/clear` started in place of a holder): nobody reads it, sweep removes it. */
const HOOK_SUCCEEDED_PREFIX = ".hook-succeeded-";

export const HOOK_FILE_PREFIXES = [HOOK_PENDING_PREFIX, HOOK_WRITTEN_PREFIX, HOOK_ASKED_PREFIX, HOOK_CLEARED_PREFIX, HOOK_CLIENT_PREFIX, HOOK_SUCCEEDED_PREFIX] as const;

/**
 * A hook file lives for one turn (a /clear hand-off, seconds), a client's record of its sessions
 * as long as the client. One older than a day was left by a client that died before its Stop or
 * SessionEnd (a record of sessions: whose client no longer runs here), and sweep removes it: nobody
 * will read it, and it decides nothing about who holds what. The day leaves room for a turn that
 * runs for hours.
 */
export const HOOK_FILE_DEBRIS_AGE_MS = 24 * 60 * 60_000;

/** An entry of the claims directory the hooks wrote (their temp files, `<name>.<pid>.tmp`, included). */
export function isHookFileName(name: string): boolean {
  return HOOK_FILE_PREFIXES.some((prefix) => name.startsWith(prefix));
}

// src/os/hash.ts, not node:crypto: its load would cost every hook call about 2.5 ms.
/** The short hash that names a hook file after a holder, a scope, a call or a process. */
export const hookHash = (text: string): string => sha256Hex(text).slice(0, 20);

/**
 * Creates a hook file that is not there yet, with `content`, and answers false when something is
 * there already. O_EXCL: never through a symlink (or into a file) that another user of a shared
 * claims directory put at the name, which would have the hook write wherever it points.
 */
export function createHookFile(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    ownAsDirectory(fd, dirname(path));
    writeAll(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Writes a hook record whole (a temp file renamed over it): a reader sees it all or not at all. */
export function writeHookRecord(path: string, value: unknown): void {
  const temp = `${path}.${process.pid}.tmp`;
  const content = `${JSON.stringify(value)}\n`;
  if (!createHookFile(temp, content)) {
    unlinkSync(temp); // left by a hook killed with this pid, or put there by someone else: not written through
    if (!createHookFile(temp, content)) throw new Error(`${temp} came back at once`);
  }
  renameSync(temp, path);
}

/** A hook record, or undefined when it is not there or not JSON. */
export function readHookRecord<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** How many of a client process's sessions its record keeps: a session's `/clear`s and `/resume`s. */
const CLIENT_SESSIONS_KEPT = 100;

/** The sessions one client process (`<pid>-<start time>`, src/hooks/state.ts clientProcess) has run: `holder` now. */
export interface ClientSessions {
  client: string;
  holder: string;
  sessions: string[];
}

const clientFile = (dir: string, client: string) => join(dir, `${HOOK_CLIENT_PREFIX}${hookHash(client)}.json`);

/**
 * The client process now runs the session of `holder` (after `previous`, when the hooks know the
 * session a `/clear` ended): written at each SessionStart. `/clear` and `/resume` go on in the same
 * client as another session id, but a server the client started before (`claims mcp`, whose holder
 * came from CLAUDE_CODE_SESSION_ID in its environment, which does not change) learns it here.
 */
export function recordClientSession(dir: string, client: string, holder: string, previous?: string): void {
  const before = clientSessions(dir, client)?.sessions ?? [];
  const sessions = [...before, ...(previous === undefined ? [] : [previous]), holder].filter((session, index, all) => all.lastIndexOf(session) === index);
  writeHookRecord(clientFile(dir, client), { client, holder, sessions: sessions.slice(-CLIENT_SESSIONS_KEPT) });
}

/** The record of a client process's sessions, if its hooks wrote one. */
export function clientSessions(dir: string, client: string): ClientSessions | undefined {
  const record = readHookRecord<Partial<Record<keyof ClientSessions, unknown>>>(clientFile(dir, client));
  if (record?.client !== client || typeof record.holder !== "string" || record.holder === "" || !Array.isArray(record.sessions)) return undefined;
  return { client, holder: record.holder, sessions: record.sessions.filter((session): session is string => typeof session === "string") };
}

/**
 * Whether the file `name` is a client process's record of its sessions and that process still
 * runs on this machine: sweep keeps it however old, as its `claims mcp` server may yet ask.
 */
export function isLiveClientRecord(dir: string, name: string): boolean {
  if (!name.startsWith(HOOK_CLIENT_PREFIX) || !name.endsWith(".json")) return false;
  const client = readHookRecord<{ client?: unknown }>(join(dir, name))?.client;
  const match = typeof client === "string" ? /^(\d+)-(\d+)$/.exec(client) : null;
  return match !== null && processStartTime(Number(match[1])) === Number(match[2]);
}
