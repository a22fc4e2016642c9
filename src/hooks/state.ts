// What the hooks remember between one event and the next, as small dot-files in the claims
// directory (dot-files are never claims, docs/PROTOCOL.md). `<scope>` is one agent of a session
// (scopeOf), `<call>` a hash of a tool call's id, `<target>` a hash of a claim's target:
//
// - `.hook-pending-<scope>-<call>.json`: the claims a PreToolUse took for one tool call. The
//   client confirms the call ran with PostToolUse; a call refused after the hook allowed it (by the
//   permission system or the user, or a failed edit) never does, and its claims are given back at
//   the end of the turn (not at its PostToolUseFailure: a parallel call may be writing the file).
// - `.hook-written-<scope>-<target>`: a call of the turn wrote what this claim covers (its
//   PostToolUse came): no pending call gives the target back any more, whichever call took it.
// - `.hook-asked-<scope>-<call>`: a pending call failed or was refused (markUnfinished), or its
//   permission prompt was shown. A call the user refuses there ends the turn with no event at all
//   (Claude Code 2.1.332 sends PermissionRequest, then nothing: no Stop), nor does a turn the user
//   interrupts, so such a call is given back at the user's next prompt. Removed with the call's
//   pending record.
// - `.hook-cleared-<process>.json`: `/clear` ended a session inside a client process that goes on
//   with a new session id; the next session started there by `/clear` inherits the claims.
//
// Parallel tool calls of one session run their hooks as processes of their own, at the same time.
// So no file is ever read, changed and written back: a record or marker is created whole, read,
// and removed, and each fact about a call or a target is a file of its own. (A rewrite of another
// call's record could land after that call's PostToolUse removed it, and bring it back: its
// targets, written, would be given back at Stop.) The written and asked markers of a scope are
// removed at the end of its turn, after the give-back, and at session end.
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { processStartTime, readProcessStat } from "../os/process-identity.js";
import { HOOK_ASKED_PREFIX as ASKED_PREFIX, HOOK_CLEARED_PREFIX as CLEARED_PREFIX, HOOK_PENDING_PREFIX as PENDING_PREFIX, HOOK_WRITTEN_PREFIX as WRITTEN_PREFIX, createHookFile, hookHash, readHookRecord, writeHookRecord } from "../protocol/hook-files.js";

/** A /clear hand-off older than this is not picked up: the SessionStart that follows comes within seconds. */
const CLEARED_MAX_AGE_MS = 10 * 60_000;

/** One agent (a session's main agent, or one subagent) within a session: the scope of a turn's pending calls. */
export function scopeOf(holder: string, agentId: string | undefined): string {
  return hookHash(`${holder}\0${agentId ?? ""}`);
}

export interface PendingCall {
  holder: string;
  tool_use_id: string;
  /** Claimed for this call only (not held before it). */
  targets: string[];
  /** The tool and the files it writes: a permission prompt names the call by these alone (it has no tool_use_id). */
  tool_name?: string;
  files?: string[];
  /** The permission prompt was shown for this call, and it has not run since: its asked marker exists (not stored in the record). */
  asked?: boolean;
}

const pendingPath = (dir: string, scope: string, call: string) => join(dir, `${PENDING_PREFIX}${scope}-${call}.json`);
const askedPath = (dir: string, scope: string, call: string) => join(dir, `${ASKED_PREFIX}${scope}-${call}`);
const writtenPath = (dir: string, scope: string, target: string) => join(dir, `${WRITTEN_PREFIX}${scope}-${hookHash(target)}`);

export function recordPending(dir: string, scope: string, call: PendingCall): void {
  const { asked: _, ...record } = call;
  // A claims directory not made yet holds no claim of this call's (with --no-auto-take, none was
  // taken): nothing to give back, and the record is only the shell's paths for its PostToolUse.
  if (call.targets.length === 0 && !existsSync(dir)) return;
  writeHookRecord(pendingPath(dir, scope, hookHash(call.tool_use_id)), record);
}

/** The pending records of one call, or of every call of the scope, by the hash of the call's id. */
function pendingOf(dir: string, scope: string, toolUseId?: string): Array<{ call: string; record: PendingCall | undefined }> {
  let calls: string[];
  if (toolUseId !== undefined) {
    // One call's record has a name of its own: read it, not the whole claims directory.
    calls = [hookHash(toolUseId)]; // a missing one is not there to remove (rmSync force)
  } else {
    const prefix = `${PENDING_PREFIX}${scope}-`;
    calls = namesIn(dir)
      .filter((name) => name.startsWith(prefix) && name.endsWith(".json"))
      .map((name) => name.slice(prefix.length, -".json".length));
  }
  return calls.map((call) => ({ call, record: readHookRecord<PendingCall>(pendingPath(dir, scope, call)) }));
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Removes and returns the pending record of one call, or of every call of the scope (those `which`
 * picks), with the call's asked marker.
 */
export function takePending(dir: string, scope: string, toolUseId?: string, which: (call: PendingCall) => boolean = () => true): PendingCall[] {
  const found: PendingCall[] = [];
  for (const { call, record } of pendingOf(dir, scope, toolUseId)) {
    const asked = existsSync(askedPath(dir, scope, call));
    if (record && !which({ ...record, asked })) continue;
    rmSync(pendingPath(dir, scope, call), { force: true });
    rmSync(askedPath(dir, scope, call), { force: true });
    if (record && Array.isArray(record.targets)) found.push({ ...record, asked });
  }
  return found;
}

/**
 * A call wrote these claims' targets: no pending call gives them back any more, whichever call
 * took them (two edits of one file in a turn: the first may fail after the second wrote). A
 * marker per target, created and never rewritten, so no other call's record is touched.
 */
export function markWritten(dir: string, scope: string, targets: string[]): void {
  for (const target of targets) createHookFile(writtenPath(dir, scope, target), `${JSON.stringify(target)}\n`);
}

/** Of these targets taken for pending calls, those no call of the scope has written: the ones to give back. */
export function unwritten(dir: string, scope: string, targets: string[]): string[] {
  return targets.filter((target) => !existsSync(writtenPath(dir, scope, target)));
}

/** A permission prompt is shown for the scope's pending calls of this tool on these files. */
export function markAsked(dir: string, scope: string, toolName: string, files: string[]): void {
  const same = (a: string[] | undefined) => a !== undefined && a.length === files.length && a.every((file, index) => file === files[index]);
  for (const { call, record } of pendingOf(dir, scope)) {
    // The record is only read: a call that ran meanwhile leaves at most a stray marker, which
    // gives nothing back (its record is gone) and goes at the end of the turn.
    if (record && record.tool_name === toolName && same(record.files)) createHookFile(askedPath(dir, scope, call), "");
  }
}

/**
 * A call that failed or was refused changed nothing, but its claims are not given back yet: a
 * parallel call of the turn that found them already the session's may be writing the same file
 * now. Marked like a call whose prompt was shown, it goes back with the turn's other unfinished
 * calls, at the end of the turn or at the next prompt (an interrupted turn has no Stop), and never
 * what a call wrote meanwhile.
 */
export function markUnfinished(dir: string, scope: string, toolUseId: string): void {
  const call = hookHash(toolUseId);
  if (existsSync(pendingPath(dir, scope, call))) createHookFile(askedPath(dir, scope, call), "");
}

/** The end of a scope's turn (after its pending calls were given back): its written and asked markers go. */
export function clearMarks(dir: string, scope: string): void {
  const prefixes = [`${WRITTEN_PREFIX}${scope}-`, `${ASKED_PREFIX}${scope}-`];
  for (const name of namesIn(dir)) {
    if (prefixes.some((prefix) => name.startsWith(prefix))) rmSync(join(dir, name), { force: true });
  }
}

/**
 * The client process the hook runs under, as an id that a reused pid cannot repeat: Claude Code
 * sets CLAUDE_PID for its hooks (2.1.332 does; 2.1.197 does not). Otherwise the client is the
 * hook's parent, or, where the client ran the hook's command through a shell that did not exec
 * it, the shell's parent: each hook gets a shell of its own, so the shell would make the
 * SessionEnd and the SessionStart of one /clear look like two clients. Where /proc has no parent
 * to read, the hook's parent stands.
 */
export function clientProcess(env: Record<string, string | undefined>): string | undefined {
  let pid = Number(env.CLAUDE_PID);
  if (!pid) {
    pid = process.ppid;
    const parent = readProcessStat(pid);
    if (parent && SHELLS.has(parent.name) && parent.ppid > 1) pid = parent.ppid;
  }
  const start = processStartTime(pid);
  return start === undefined ? undefined : `${pid}-${start}`;
}

const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ash", "ksh"]);

export function recordCleared(dir: string, client: string, holder: string): void {
  writeHookRecord(join(dir, `${CLEARED_PREFIX}${hookHash(client)}.json`), { holder, client });
}

/** The holder whose session `/clear` ended in this very client process, once. */
export function takeCleared(dir: string, client: string, nowMs: number): string | undefined {
  const path = join(dir, `${CLEARED_PREFIX}${hookHash(client)}.json`);
  const record = readHookRecord<{ holder?: unknown; client?: unknown }>(path);
  if (!record) return undefined;
  let fresh = false;
  try {
    fresh = nowMs - statSync(path).mtimeMs < CLEARED_MAX_AGE_MS;
  } catch {
    return undefined;
  }
  rmSync(path, { force: true });
  return fresh && record.client === client && typeof record.holder === "string" ? record.holder : undefined;
}
