// Wiring of the verbs that run inside other tools: agent hooks, the git guard, and the log.
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { BadInputError } from "../os/errors.js";
import { common, declareVerb, output, ownRealBinary, styleFor } from "./shared.js";
import type { VerbFlags } from "./flags.js";
import { plain } from "./render.js";
import { runHook } from "./actions.js";
import { isTerminal, writeErr, writeOut } from "../os/stdio.js";

export function registerToolVerbs(program: Command): void {
  declareVerb(program, "hook").action(runHook);

  declareVerb(program, "guard")
    .action(async (action: string, flags: VerbFlags<"guard">) => {
      const guard = await import("../commands/guard.js");
      const render = await import("./render.js");
      if (action === "install") {
        const result = guard.install({ prePush: flags.prePush === true, force: flags.force === true, binary: ownRealBinary() });
        return output(flags, result, 0, async () => render.renderInstall(result));
      }
      if (action === "uninstall") {
        const result = guard.uninstall({});
        return output(flags, result, 0, async () => render.renderUninstall(result));
      }
      if (action !== "check") throw new BadInputError(`Unknown guard action ${JSON.stringify(action)}; use install, uninstall or check.`);
      const hook = guard.GIT_HOOKS.find((name) => name === flags.hook);
      if (hook === undefined) throw new BadInputError(`--hook must be one of ${guard.GIT_HOOKS.join(", ")}; got ${JSON.stringify(flags.hook)}.`);
      const refs = hook === "pre-push" && !isTerminal(0) ? readFileSync(0, "utf8") : "";
      const result = await guard.guardCheck({ ...common(flags), hook, refs });
      const refuse = result.refused.length > 0 && result.mode === "enforce";
      if (!flags.json) writeErr(render.renderGuard(result).map((line) => `${line}\n`).join(""));
      else writeOut(`${JSON.stringify(result, null, 2)}\n`);
      process.exitCode = refuse ? 1 : 0;
    });

  declareVerb(program, "log")
    .action(async (target: string | undefined, flags: VerbFlags<"log">) => {
      const { log, followLog } = await import("../commands/log.js");
      const { renderLogEntry } = await import("./render.js");
      const options = {
        ...(target !== undefined && { target }),
        ...(flags.holder !== undefined && { holder: flags.holder }),
        ...(flags.since !== undefined && { since: flags.since }),
        ...(flags.dir !== undefined && { dir: flags.dir }),
      };
      const result = log(options);
      if (result.directory_missing) writeErr(`claims: note: the claims directory ${result.dir} does not exist (yet); nothing was recorded there\n`);
      if (result.skipped_lines) writeErr(`claims: note: ${result.skipped_lines} line${result.skipped_lines === 1 ? "" : "s"} of the log ${result.skipped_lines === 1 ? "is" : "are"} no entry (damaged, or another program's) and ${result.skipped_lines === 1 ? "was" : "were"} skipped\n`);
      if (!flags.follow) {
        await output(flags, result, 0, async (style) => (result.entries.length ? result.entries.map((entry) => renderLogEntry(entry, style)) : ["no entries"]));
        return;
      }
      const style = flags.json ? plain : await styleFor(1);
      // Following ends on Ctrl-C or SIGTERM, or when the reader has gone (`claims log --follow | grep -m1 …`).
      const stop = new AbortController();
      process.once("SIGINT", () => stop.abort());
      process.once("SIGTERM", () => stop.abort());
      const print = (entry: (typeof result.entries)[number]) => {
        if (!writeOut(`${flags.json ? JSON.stringify(entry) : renderLogEntry(entry, style)}\n`)) stop.abort();
      };
      result.entries.forEach(print);
      if (!stop.signal.aborted) await followLog(options, print, stop.signal);
    });
}
