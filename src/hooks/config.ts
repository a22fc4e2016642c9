// The exact settings snippets `claims hook print-config <agent>` prints, pointing at this very
// binary so they work whatever PATH the agent's hooks run with.
import { realpathSync } from "node:fs";
import { shellQuote } from "../os/shell-quote.js";
import { HOOK_FLAGS } from "./flags.js";

/** The options of `claims hook` that belong in the hook's own command line, keyed as in HOOK_FLAGS. */
export interface HookCommandOptions {
  autoTake?: boolean;
  failClosed?: boolean;
  subagentHolders?: boolean;
  /** Seconds. */
  claimTtl?: number;
  /** Absolute. */
  dir?: string;
}

/** The words after `hook <agent>` in the hook's command line (unquoted). */
export function hookArguments(options: HookCommandOptions): string[] {
  const args: string[] = [];
  if (options.autoTake === false) args.push(HOOK_FLAGS.autoTake.long);
  if (options.failClosed) args.push(HOOK_FLAGS.failClosed.long);
  if (options.subagentHolders) args.push(HOOK_FLAGS.subagentHolders.long);
  if (options.claimTtl !== undefined) args.push(HOOK_FLAGS.claimTtl.long, String(options.claimTtl));
  if (options.dir !== undefined) args.push(HOOK_FLAGS.dir.long, options.dir); // absolute: the hook runs in the agent's cwd
  return args;
}

export function hookCommand(agent: string, binary: string, options: HookCommandOptions): string {
  return [process.execPath, realpathSync(binary), "hook", agent, ...hookArguments(options)].map(shellQuote).join(" ");
}

/**
 * Claude Code's tools that write: its editors, the shell (MultiEdit is gone from current clients),
 * and every MCP server's tools, which the hook reads by name and arguments (src/hooks/mcp-tools.ts).
 * A matcher with `|` is a regular expression to Claude Code: `mcp__.*` matches every MCP tool.
 */
const CLAUDE_MATCHER = "Write|Edit|NotebookEdit|Bash|mcp__.*";
/** Codex's: apply_patch, the shell (a patch or a write can come through either; hooks call the shell Bash), and every MCP server's tools. */
const CODEX_MATCHER = "apply_patch|Bash|mcp__.*";

/** The events each agent's hook is registered for, with the matcher of each (none: every occurrence). */
export function hookEvents(agent: "claude" | "codex"): Record<string, string | undefined> {
  if (agent === "claude") {
    return {
      PreToolUse: CLAUDE_MATCHER,
      PostToolUse: CLAUDE_MATCHER,
      PostToolUseFailure: CLAUDE_MATCHER,
      PermissionDenied: CLAUDE_MATCHER,
      PermissionRequest: CLAUDE_MATCHER,
      UserPromptSubmit: undefined,
      Stop: undefined,
      SubagentStop: undefined,
      SessionStart: undefined,
      SessionEnd: undefined,
    };
  }
  return { PreToolUse: CODEX_MATCHER, PostToolUse: CODEX_MATCHER, Stop: undefined, SubagentStop: undefined, SessionEnd: undefined };
}

/** How long the agent waits for the hook (seconds): it answers well within, a slow parse included (shell.ts). */
export const HOOK_TIMEOUT_SECONDS = 10;

/**
 * The `hooks` object to merge into the agent's settings. With `failClosed`, Claude Code's
 * PreToolUse hook also carries `onFailure: "block"` (Claude Code 2.1.295 and later): a hook that
 * cannot start, outlasts its timeout or crashes then blocks the tool call, where by default the
 * call goes ahead unjudged, as the hook's own `--fail-closed` denies where the claims directory
 * cannot be used.
 */
export function hookEntries(agent: "claude" | "codex", run: string, options: Pick<HookCommandOptions, "failClosed"> = {}): Record<string, Array<Record<string, unknown>>> {
  const hooks: Record<string, Array<Record<string, unknown>>> = {};
  for (const [event, matcher] of Object.entries(hookEvents(agent))) {
    // Codex gives SessionEnd 3 seconds at most (and warns about more); releasing takes milliseconds.
    const timeout = agent === "codex" && event === "SessionEnd" ? 3 : HOOK_TIMEOUT_SECONDS;
    const blocks = agent === "claude" && event === "PreToolUse" && options.failClosed === true;
    hooks[event] = [{ ...(matcher !== undefined && { matcher }), hooks: [{ type: "command", command: run, timeout, ...(blocks && { onFailure: "block" }) }] }];
  }
  return hooks;
}

/**
 * The snippet: `json` is valid JSON, to merge into the agent's settings (or pipe to jq); `notes`
 * say where it goes and what can be added (printed on stderr, so the JSON stays clean).
 */
export function hookConfig(agent: "claude" | "codex", binary: string, options: HookCommandOptions = {}): { json: string; notes: string } {
  const json = `${JSON.stringify({ hooks: hookEntries(agent, hookCommand(agent, binary, options), options) }, null, 2)}\n`;
  if (agent === "claude") {
    return {
      json,
      notes: `claims: claims hook install claude merges this into ~/.claude/settings.json (--project: .claude/settings.json here); or merge it by hand.
claims: options: --no-auto-take, --fail-closed, --subagent-holders, --claim-ttl SECONDS or --dir PATH go into the command.
claims: check the setup with claims hook verify claude.
`,
    };
  }
  return {
    json,
    notes: `claims: claims hook install codex merges this into ~/.codex/hooks.json and trusts it; or merge it by hand.
claims: Codex runs a hook only once it is trusted: after merging by hand, start codex, type /hooks and trust each claims hook.
claims: options: --no-auto-take, --fail-closed, --subagent-holders, --claim-ttl SECONDS or --dir PATH go into the command.
claims: check the setup with claims hook verify codex (it reads Codex's own account of the hooks and their trust).
`,
  };
}
