// Wiring of `claims mcp`. The server, the MCP SDK and zod load only when it runs: the bundle keeps
// them in dist/mcp.cjs (scripts/bundle.mjs), so no other verb reads or compiles a byte of them.
import type { Command } from "commander";
import { readVersion, type GlobalFlags } from "./shared.js";
import { resolveHolder, resolveSettings } from "../protocol/settings.js";

export function registerMcpVerb(program: Command): void {
  program
    .command("mcp")
    .description("run an MCP server over stdio for an agent's client: claim, release, get_status, check, handover and the file_reservation_* tools, on the same claims directory")
    .option("--dir <path>", "claims directory (CLAIMS_DIR, .claims \"dir\", default $XDG_STATE_HOME/claims or ~/.local/state/claims)")
    .option("--holder <id>", "the holder of calls that name no actor (CLAIMS_HOLDER, else the agent session's id, else one per connection)")
    .option("--ttl <seconds>", "TTL of claims taken (CLAIMS_TTL, .claims \"ttl\", default 1800)")
    .addHelpText(
      "after",
      `
Examples:
  $ claude mcp add --scope user claims -- claims mcp          # Claude Code, every project
  $ claims mcp --dir /mnt/shared/claims                       # as the client's config starts it
See docs/MCP.md for Codex and Cursor, the tools and the identity rule.`,
    )
    .action(async (flags: Omit<GlobalFlags, "json">) => {
      // Bad settings are exit 2 here, before the server loads: its bundle has its own error classes.
      resolveSettings({ ...(flags.dir !== undefined && { dir: flags.dir }), ...(flags.ttl !== undefined && { ttl: flags.ttl }) });
      if (flags.holder !== undefined) resolveHolder(flags.holder);
      const { serveMcp } = await import("../mcp/server.js");
      await serveMcp({
        version: readVersion(),
        ...(flags.dir !== undefined && { dir: flags.dir }),
        ...(flags.holder !== undefined && { holder: flags.holder }),
        ...(flags.ttl !== undefined && { ttl: flags.ttl }),
      });
    });
}
