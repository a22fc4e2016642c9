// The names of the agent hooks' dot-files in the claims directory (written by src/hooks/state.ts,
// listed in docs/PROTOCOL.md section 1). They are declared here, below the hooks and the commands,
// so that sweep can find the ones a client left behind without importing the hooks.

/** What a PreToolUse claimed for one tool call: `.hook-pending-<scope>-<call>.json`. */
export const HOOK_PENDING_PREFIX = ".hook-pending-";
/** A call of the turn wrote what a claim covers: `.hook-written-<scope>-<target hash>`. */
export const HOOK_WRITTEN_PREFIX = ".hook-written-";
/** A pending call failed, was refused, or had its permission prompt shown: `.hook-asked-<scope>-<call hash>`. */
export const HOOK_ASKED_PREFIX = ".hook-asked-";
/** A `/clear` in progress in one client process: `.hook-cleared-<process>.json`. */
export const HOOK_CLEARED_PREFIX = ".hook-cleared-";

export const HOOK_FILE_PREFIXES = [HOOK_PENDING_PREFIX, HOOK_WRITTEN_PREFIX, HOOK_ASKED_PREFIX, HOOK_CLEARED_PREFIX] as const;

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
