// Wiring of `claims mcp`. The server, the MCP SDK and zod load only when it runs: the bundle keeps
// them in dist/mcp.cjs (scripts/bundle.mjs), so no other verb reads or compiles a byte of them.
import { statSync } from "node:fs";
import type { Command } from "commander";
import { BadInputError } from "../os/errors.js";
import { declareVerb, readVersion } from "./shared.js";
import type { VerbFlags } from "./flags.js";
import { absoluteDirOption, resolveHolder, resolveSettings } from "../protocol/settings.js";
import { notADirectory } from "../protocol/store.js";

export function registerMcpVerb(program: Command): void {
  declareVerb(program, "mcp")
    .action(async (flags: VerbFlags<"mcp">) => {
      // Bad settings are exit 2 here, before the server loads: its bundle has its own error classes.
      absoluteDirOption(flags.dir, "claims mcp");
      const { dir } = resolveSettings({ ...(flags.dir !== undefined && { dir: flags.dir }), ...(flags.ttl !== undefined && { ttl: flags.ttl }) });
      // A file where the claims directory should be would fail every call: at start instead (one that does not exist yet is made on first use).
      // So would a path no file system takes (a name past its limit, a loop of symbolic links).
      let stats;
      try {
        stats = statSync(dir, { throwIfNoEntry: false });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const why = code === "ENAMETOOLONG" ? "a name in its path is longer than the file system allows" : code === "ELOOP" ? "its path goes round in symbolic links" : undefined;
        if (why !== undefined) throw new BadInputError(`Cannot reach the claims directory ${dir}: ${why} (${code}); fix it or choose another with --dir or CLAIMS_DIR.`);
      }
      if (stats !== undefined && !stats.isDirectory()) throw new BadInputError(notADirectory(dir));
      // A CLAIMS_HOLDER no call could act as, too.
      if (flags.holder !== undefined || process.env.CLAIMS_HOLDER) resolveHolder(flags.holder);
      const { serveMcp } = await import("../mcp/server.js");
      await serveMcp({
        version: readVersion(),
        ...(flags.dir !== undefined && { dir: flags.dir }),
        ...(flags.holder !== undefined && { holder: flags.holder }),
        ...(flags.ttl !== undefined && { ttl: flags.ttl }),
      });
    });
}
