// Wiring of `claims mcp`. The server, the MCP SDK and zod load only when it runs: the bundle keeps
// them in dist/mcp.cjs (scripts/bundle.mjs), so no other verb reads or compiles a byte of them.
import type { Command } from "commander";
import { declareVerb, readVersion } from "./shared.js";
import type { VerbFlags } from "./flags.js";
import { resolveHolder, resolveSettings } from "../protocol/settings.js";

export function registerMcpVerb(program: Command): void {
  declareVerb(program, "mcp")
    .action(async (flags: VerbFlags<"mcp">) => {
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
