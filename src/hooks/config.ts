// The exact settings snippets `claims hook print-config <agent>` prints, pointing at this very
// binary so they work whatever PATH the agent's hooks run with.
import { realpathSync } from "node:fs";
import { shellQuote } from "../render.js";

/** The options of `claims hook` that belong in the hook's own command line. */
export interface HookCommandOptions {
  autoTake?: boolean;
  failClosed?: boolean;
  mergeSubagents?: boolean;
  /** Absolute. */
  dir?: string;
}

function command(agent: string, binary: string, options: HookCommandOptions): string {
  const args = [process.execPath, realpathSync(binary), "hook", agent];
  if (options.autoTake === false) args.push("--no-auto-take");
  if (options.failClosed) args.push("--fail-closed");
  if (options.mergeSubagents && agent === "claude") args.push("--merge-subagents");
  if (options.dir !== undefined) args.push("--dir", options.dir); // absolute: the hook runs in the agent's cwd
  return args.map(shellQuote).join(" ");
}

/**
 * The snippet: `json` is valid JSON, to merge into the agent's settings (or pipe to jq); `notes`
 * say where it goes and what can be added (printed on stderr, so the JSON stays clean).
 */
export function hookConfig(agent: "claude" | "codex", binary: string, options: HookCommandOptions = {}): { json: string; notes: string } {
  const run = command(agent, binary, options);
  const entry = (matcher?: string) => ({ ...(matcher !== undefined && { matcher }), hooks: [{ type: "command", command: run, timeout: 10 }] });
  if (agent === "claude") {
    const writers = "Write|Edit|MultiEdit|NotebookEdit";
    const hooks = { hooks: { PreToolUse: [entry(writers)], PostToolUse: [entry(writers)], SubagentStop: [entry()], SessionEnd: [entry()] } };
    return {
      json: `${JSON.stringify(hooks, null, 2)}\n`,
      notes: `claims: merge this into ~/.claude/settings.json (every project) or .claude/settings.json (one project).
claims: options: claims hook print-config claude --no-auto-take, --fail-closed, --merge-subagents or --dir PATH puts them in the command.
claims: to release claims at the end of every turn instead of the session, add the same entry under "Stop".
`,
    };
  }
  const hooks = { hooks: { PreToolUse: [entry("apply_patch")], PostToolUse: [entry("apply_patch")], Stop: [entry()] } };
  return {
    json: `${JSON.stringify(hooks, null, 2)}\n`,
    notes: `claims: merge this into ~/.codex/hooks.json.
claims: options: claims hook print-config codex --no-auto-take, --fail-closed or --dir PATH puts them in the command.
claims: Codex's Stop ends a turn: claims are released then, and taken again at the next write.
claims: a patch run through the shell is guarded too if the matchers are "apply_patch|Bash" (one claims call per shell command).
`,
  };
}
