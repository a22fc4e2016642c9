// The exact settings snippets `claims hook print-config <agent>` prints, pointing at this very
// binary so they work whatever PATH the agent's hooks run with.
import { realpathSync } from "node:fs";
import { shellQuote } from "../render.js";

function command(agent: string, binary: string): string {
  return [process.execPath, realpathSync(binary), "hook", agent].map(shellQuote).join(" ");
}

export function hookConfig(agent: "claude" | "codex", binary: string): string {
  const run = command(agent, binary);
  if (agent === "claude") {
    const writers = "Write|Edit|MultiEdit|NotebookEdit";
    const hooks = {
      hooks: {
        PreToolUse: [{ matcher: writers, hooks: [{ type: "command", command: run, timeout: 10 }] }],
        PostToolUse: [{ matcher: writers, hooks: [{ type: "command", command: run, timeout: 10 }] }],
        SubagentStop: [{ hooks: [{ type: "command", command: run, timeout: 10 }] }],
        SessionEnd: [{ hooks: [{ type: "command", command: run, timeout: 10 }] }],
      },
    };
    return `// Merge into ~/.claude/settings.json (every project) or .claude/settings.json (one project).
// Options: add --no-auto-take, --fail-closed or --merge-subagents after "hook claude".
// To release claims at the end of every turn instead of the session, add the same entry under "Stop".
${JSON.stringify(hooks, null, 2)}
`;
  }
  const hooks = {
    hooks: {
      PreToolUse: [{ matcher: "apply_patch", hooks: [{ type: "command", command: run, timeout: 10 }] }],
      PostToolUse: [{ matcher: "apply_patch", hooks: [{ type: "command", command: run, timeout: 10 }] }],
      Stop: [{ hooks: [{ type: "command", command: run, timeout: 10 }] }],
    },
  };
  return `// Merge into ~/.codex/hooks.json. Options: add --no-auto-take or --fail-closed after "hook codex".
// Codex's Stop ends a turn: claims are released then, and taken again at the next write.
${JSON.stringify(hooks, null, 2)}
`;
}
