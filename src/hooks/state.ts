// What the hooks remember between one event and the next, as small dot-files in the claims
// directory (dot-files are never claims, docs/PROTOCOL.md):
//
// - `.hook-pending-<session>-<call>.json`: the claims a PreToolUse took for one tool call. The
//   client confirms the call ran with PostToolUse; a call refused after the hook allowed it (by the
//   permission system or the user, or a failed edit) never does, and its claims are given back at
//   PostToolUseFailure / PermissionDenied, or at the end of the turn at the latest. A call the
//   user refuses at the permission prompt ends the turn with no event at all (Claude Code 2.1.332
//   sends PermissionRequest, then nothing: no Stop), so such a call is marked when its prompt is
//   shown and given back at the user's next prompt.
// - `.hook-cleared-<process>.json`: `/clear` ended a session inside a client process that goes on
//   with a new session id; the next session started there by `/clear` inherits the claims.
//
// One file per call, so parallel tool calls of one session never rewrite each other's record.
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../os/hash.js";
import { processStartTime, readProcessStat } from "../os/process-identity.js";

const PENDING_PREFIX = ".hook-pending-";
const CLEARED_PREFIX = ".hook-cleared-";
/** A /clear hand-off older than this is not picked up: the SessionStart that follows comes within seconds. */
const CLEARED_MAX_AGE_MS = 10 * 60_000;

// src/os/hash.ts, not node:crypto: its load would cost every hook call about 2.5 ms.
const short = (text: string) => sha256Hex(text).slice(0, 20);

/** One agent (a session's main agent, or one subagent) within a session: the scope of a turn's pending calls. */
export function scopeOf(holder: string, agentId: string | undefined): string {
  return short(`${holder}\0${agentId ?? ""}`);
}

function writeWhole(path: string, value: unknown): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value)}\n`);
  renameSync(temp, path);
}

function readRecord<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return undefined;
  }
}

export interface PendingCall {
  holder: string;
  tool_use_id: string;
  /** Claimed for this call only (not held before it). */
  targets: string[];
  /** The tool and the files it writes: a permission prompt names the call by these alone (it has no tool_use_id). */
  tool_name?: string;
  files?: string[];
  /** The permission prompt was shown for this call, and it has not run since. */
  asked?: boolean;
}

export function recordPending(dir: string, scope: string, call: PendingCall): void {
  writeWhole(join(dir, `${PENDING_PREFIX}${scope}-${short(call.tool_use_id)}.json`), call);
}

/** The pending records of one call, or of every call of the scope, with their paths. */
function pendingOf(dir: string, scope: string, toolUseId?: string): Array<{ path: string; call: PendingCall | undefined }> {
  if (toolUseId !== undefined) {
    // One call's record has a name of its own: read it, not the whole claims directory.
    const path = join(dir, `${PENDING_PREFIX}${scope}-${short(toolUseId)}.json`);
    return [{ path, call: readRecord<PendingCall>(path) }]; // a missing one is not there to remove (rmSync force)
  }
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const prefix = `${PENDING_PREFIX}${scope}-`;
  return names
    .filter((name) => name.startsWith(prefix) && name.endsWith(".json"))
    .map((name) => ({ path: join(dir, name), call: readRecord<PendingCall>(join(dir, name)) }));
}

/** Removes and returns the pending record of one call, or of every call of the scope (those `which` picks). */
export function takePending(dir: string, scope: string, toolUseId?: string, which: (call: PendingCall) => boolean = () => true): PendingCall[] {
  const found: PendingCall[] = [];
  for (const { path, call } of pendingOf(dir, scope, toolUseId)) {
    if (call && !which(call)) continue;
    rmSync(path, { force: true });
    if (call && Array.isArray(call.targets)) found.push(call);
  }
  return found;
}

/**
 * A call wrote these claims' targets: no pending call gives them back any more, whichever call
 * took them (two edits of one file in a turn: the first may fail after the second wrote).
 */
export function dropFromPending(dir: string, scope: string, targets: string[]): void {
  if (targets.length === 0) return;
  for (const { path, call } of pendingOf(dir, scope)) {
    if (!call || !Array.isArray(call.targets) || !call.targets.some((target) => targets.includes(target))) continue;
    writeWhole(path, { ...call, targets: call.targets.filter((target) => !targets.includes(target)) });
  }
}

/** A permission prompt is shown for the scope's pending calls of this tool on these files. */
export function markAsked(dir: string, scope: string, toolName: string, files: string[]): void {
  const same = (a: string[] | undefined) => a !== undefined && a.length === files.length && a.every((file, index) => file === files[index]);
  for (const { path, call } of pendingOf(dir, scope)) {
    if (call && !call.asked && call.tool_name === toolName && same(call.files)) writeWhole(path, { ...call, asked: true });
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
  writeWhole(join(dir, `${CLEARED_PREFIX}${short(client)}.json`), { holder, client });
}

/** The holder whose session `/clear` ended in this very client process, once. */
export function takeCleared(dir: string, client: string, nowMs: number): string | undefined {
  const path = join(dir, `${CLEARED_PREFIX}${short(client)}.json`);
  const record = readRecord<{ holder?: unknown; client?: unknown }>(path);
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
