// The names of the agent hooks' dot-files in the claims directory (written by src/hooks/state.ts,
// listed in docs/PROTOCOL.md section 1). They are declared here, below the hooks and the commands,
// so that sweep can find the ones a client left behind without importing the hooks; and the record
// of a session `/clear` replaced, which the hooks write and `claims mcp` reads, lives here too.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../os/hash.js";

/** What a PreToolUse claimed for one tool call: `.hook-pending-<scope>-<call>.json`. */
export const HOOK_PENDING_PREFIX = ".hook-pending-";
/** A call of the turn wrote what a claim covers: `.hook-written-<scope>-<target hash>`. */
export const HOOK_WRITTEN_PREFIX = ".hook-written-";
/** A pending call failed, was refused, or had its permission prompt shown: `.hook-asked-<scope>-<call hash>`. */
export const HOOK_ASKED_PREFIX = ".hook-asked-";
/** A `/clear` in progress in one client process: `.hook-cleared-<process>.json`. */
export const HOOK_CLEARED_PREFIX = ".hook-cleared-";

/** The session `/clear` started in place of another: `.hook-succeeded-<hash of the old holder>.json`. */
export const HOOK_SUCCEEDED_PREFIX = ".hook-succeeded-";

export const HOOK_FILE_PREFIXES = [HOOK_PENDING_PREFIX, HOOK_WRITTEN_PREFIX, HOOK_ASKED_PREFIX, HOOK_CLEARED_PREFIX, HOOK_SUCCEEDED_PREFIX] as const;

/**
 * A hook file lives for one turn (a /clear hand-off, seconds). One older than a day was left by a
 * client that died before its Stop or SessionEnd, and sweep removes it: nobody will read it, and
 * it decides nothing about who holds what. The day leaves room for a turn that runs for hours.
 */
export const HOOK_FILE_DEBRIS_AGE_MS = 24 * 60 * 60_000;

/** An entry of the claims directory the hooks wrote (their temp files, `<name>.<pid>.tmp`, included). */
export function isHookFileName(name: string): boolean {
  return HOOK_FILE_PREFIXES.some((prefix) => name.startsWith(prefix));
}

// src/os/hash.ts, not node:crypto: its load would cost every hook call about 2.5 ms.
/** The short hash that names a hook file after a holder, a scope, a call or a process. */
export const hookHash = (text: string): string => sha256Hex(text).slice(0, 20);

/** Writes a hook record whole (a temp file renamed over it): a reader sees it all or not at all. */
export function writeHookRecord(path: string, value: unknown): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value)}\n`);
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

const succeededFile = (dir: string, previous: string) => join(dir, `${HOOK_SUCCEEDED_PREFIX}${hookHash(previous)}.json`);

/**
 * `/clear` goes on in the same client process as a new session, to which the hooks carry the old
 * session's claims. A server the client started before it (`claims mcp`, whose holder came from
 * CLAUDE_CODE_SESSION_ID in its environment, which does not change) learns the new holder here.
 */
export function recordSuccessor(dir: string, previous: string, holder: string): void {
  writeHookRecord(succeededFile(dir, previous), { previous, holder });
}

/** The holder of the session `/clear` started in place of `previous`'s, if the hooks recorded one. */
export function successorOf(dir: string, previous: string): string | undefined {
  const record = readHookRecord<{ previous?: unknown; holder?: unknown }>(succeededFile(dir, previous));
  return record?.previous === previous && typeof record.holder === "string" && record.holder !== "" ? record.holder : undefined;
}
