// hook: the mechanical refusal where writes happen. An agent runs `claims hook <agent>` with its
// hook event on stdin; before a write the answer is allow (silently) or deny (with who holds the
// file, why, and how to queue a handover); after a write the session's claims are renewed; when
// the session (or turn, or subagent) ends they are released and handed to whoever queued.
import { isAbsolute, relative } from "node:path";
import { ClaimsError } from "../errors.js";
import { CLAUDE_WRITE_TOOLS, parsePayload, patchPaths, replacedTexts, stringField, type HookPayload } from "../hooks/payload.js";
import { decideWrite, HOOK_RENEW_AFTER_MS } from "../hooks/write-guard.js";
import type { CommonOptions, Holding } from "../protocol.js";
import { describeHolding } from "../render.js";
import { beat } from "./beat.js";
import { release } from "./release.js";

export type Agent = "claude" | "codex";

export interface HookOptions extends Omit<CommonOptions, "holder" | "cwd"> {
  agent: Agent;
  /** The hook event as the agent sent it on stdin. */
  input: string;
  /** Claim a free file for the session before it writes (default true). */
  autoTake?: boolean;
  /** Deny instead of allow when the claims directory cannot be used. */
  failClosed?: boolean;
  /** Count a subagent as its parent session instead of a holder of its own. */
  mergeSubagents?: boolean;
}

export interface HookAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const PASS: HookAnswer = { exitCode: 0, stdout: "", stderr: "" };

export async function hook(options: HookOptions): Promise<HookAnswer> {
  const payload = parsePayload(options.input);
  const sessionId = stringField(payload, "session_id");
  if (!payload || !sessionId) return PASS; // malformed, empty, or not an agent event: not ours to judge
  const event = stringField(payload, "hook_event_name") ?? "";
  const agentId = stringField(payload, "agent_id");
  // The same id the CLI derives from CLAUDE_CODE_SESSION_ID in the agent's shell; a subagent is a holder of its own.
  const holder = `${options.agent}-${sessionId}${agentId && !options.mergeSubagents ? `/${agentId}` : ""}`;
  const cwd = stringField(payload, "cwd") ?? process.cwd();
  const common = { ...options, holder, cwd };
  try {
    if (event === "PreToolUse") return await beforeWrite(options, payload, common);
    if (event === "PostToolUse") {
      if (writtenFiles(options.agent, payload).length > 0) beat({ ...common, renewAfterMs: HOOK_RENEW_AFTER_MS });
      return PASS;
    }
    if (event === "SessionEnd" || event === "Stop" || event === "SubagentStop") {
      const released = release(common);
      const handed = released.handed_to.map((grant) => `${grant.target} to ${grant.holder}`);
      return { ...PASS, stderr: handed.length > 0 ? `claims: handed ${handed.join(", ")}\n` : "" };
    }
    return PASS;
  } catch (error) {
    return unreachable(options, error, event === "PreToolUse");
  }
}

async function beforeWrite(options: HookOptions, payload: HookPayload, common: CommonOptions & { holder: string; cwd: string }): Promise<HookAnswer> {
  const files = writtenFiles(options.agent, payload);
  if (files.length === 0) return PASS; // a tool that does not write
  const toolName = stringField(payload, "tool_name") ?? "";
  const olds = options.agent === "claude" ? replacedTexts(toolName, payload.tool_input) : undefined;
  const news = toolName === "Edit" ? [stringField(payload.tool_input, "new_string") ?? ""] : editsNew(payload.tool_input);
  const decision = await decideWrite({
    ...common,
    files,
    ...(olds && { edits: olds.map((old, index) => ({ old, new: news[index] ?? "" })) }),
    autoTake: options.autoTake !== false,
    purpose: `editing with ${options.agent === "claude" ? "Claude Code" : "Codex"} (claimed by its hook)`,
  });
  if (decision.allow) return PASS;
  return deny(options.agent, refusalText(decision.blocking, common.cwd));
}

/** The files a tool call writes, absolute. */
function writtenFiles(agent: Agent, payload: HookPayload): string[] {
  const toolName = stringField(payload, "tool_name") ?? "";
  if (agent === "claude") {
    const field = CLAUDE_WRITE_TOOLS[toolName];
    const file = field && stringField(payload.tool_input, field);
    return file ? [file] : [];
  }
  // Codex sends apply_patch with the patch text in tool_input.command (openai/codex#18391). A
  // patch can also come through the shell: `apply_patch <<'EOF'` in a Bash call, or a command given
  // as an argument array. Another command is left alone even if its text quotes patch headers
  // (a grep for them, a fixture written with cat): it writes no patch.
  const input = payload.tool_input;
  if (toolName === "apply_patch") {
    const patch = commandText(input, "command") ?? stringField(input, "patch") ?? stringField(input, "input");
    return patch ? patchPaths(patch) : [];
  }
  const command = commandText(input, "command");
  return command && /(^|[\s;&|(])apply_patch(\s|$)/.test(command) && command.includes("*** Begin Patch") ? patchPaths(command) : [];
}

/** A command as one text: a string as it is, an argument array joined by newlines. */
function commandText(record: unknown, key: string): string | undefined {
  const value = typeof record === "object" && record !== null ? (record as Record<string, unknown>)[key] : undefined;
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((part) => typeof part === "string")) return value.join("\n");
  return undefined;
}

function editsNew(toolInput: unknown): string[] {
  const edits = (toolInput as { edits?: unknown })?.edits;
  return Array.isArray(edits) ? edits.map((edit) => stringField(edit, "new_string") ?? "") : [];
}

/** A reason the agent can act on: who holds what, for what, and the command that queues a handover. */
export function refusalText(blocking: Holding[], cwd: string): string {
  const lines = blocking.map((holding) => `- ${display(holding.target, cwd)}: ${describeHolding(holding)}`);
  const target = blocking[0] ? display(blocking[0].target, cwd) : "";
  return [
    "This file is claimed by another session (claims: one mechanical refusal instead of overwriting each other's work).",
    ...lines,
    `Do not write it now. Reconcile from their purpose, work on something else, or queue a handover so it comes to you in order when it frees: claims handover ${JSON.stringify(target)} --purpose "<what you will do>" (then claims status --mine shows when it is yours).`,
  ].join("\n");
}

function display(target: string, cwd: string): string {
  if (!isAbsolute(target)) return target;
  const rel = relative(cwd, target);
  return rel && !rel.startsWith("..") ? rel : target;
}

/** Claude Code reads a JSON decision on stdout; Codex blocks on exit code 2 with the reason on stderr. */
function deny(agent: Agent, reason: string): HookAnswer {
  if (agent === "codex") return { exitCode: 2, stdout: "", stderr: `${reason}\n` };
  const output = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } };
  return { exitCode: 0, stdout: `${JSON.stringify(output)}\n`, stderr: "" };
}

/** Fail open by default (a broken claims directory must not stop all work), or closed when asked; always one line on stderr. */
function unreachable(options: HookOptions, error: unknown, writing: boolean): HookAnswer {
  const why = error instanceof ClaimsError ? error.message : `unexpected error: ${(error as Error)?.message ?? String(error)}`;
  if (writing && options.failClosed) {
    const denied = deny(options.agent, `claims could not check this write, and the hook is set to fail closed: ${why}`);
    return { ...denied, stderr: `${denied.stderr}claims: ${why}\n` };
  }
  return { ...PASS, stderr: `claims: ${why} (the hook let the call through: fail-open)\n` };
}
