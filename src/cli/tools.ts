// Wiring of the verbs that run inside other tools: agent hooks, the git guard, and the log.
import { readFileSync, realpathSync } from "node:fs";
import type { Command } from "commander";
import { BadInputError } from "../os/errors.js";
import { common, EXAMPLES, output, styleFor, type GlobalFlags } from "./shared.js";
import { plain } from "./render.js";
import { runHook } from "./actions.js";
import { isTerminal, writeErr, writeOut } from "../os/stdio.js";

export function registerToolVerbs(program: Command): void {
  program
    .command("hook <agent> [which]")
    .description("run as an agent's hook (claude, codex): the event JSON on stdin; or install | verify | print-config <agent>")
    .option("--no-auto-take", "do not claim a free file for the session before it writes")
    .option("--fail-closed", "deny writes when the claims directory cannot be used (default: allow, with a note)")
    .option("--subagent-holders", "make each subagent a holder of its own (its shell then needs --holder, as refusals show)")
    .option("--merge-subagents", "(the default now: a subagent counts as its session)")
    .option("--claim-ttl <seconds>", "TTL of the claims the hook takes: one the session stops writing through lapses after it")
    .option("--dir <path>", "claims directory (CLAIMS_DIR, .claims \"dir\" found from the payload's cwd, default $XDG_STATE_HOME/claims or ~/.local/state/claims)")
    .option("--project", "install/verify claude: the project's .claude/settings.json here, not ~/.claude/settings.json")
    .option("--codex <path>", "install/verify codex: the codex binary that trusts and lists hooks (default: codex on PATH)")
    .option("--json", "install/verify: the report as JSON")
    .addHelpText("after", EXAMPLES.hook ?? "")
    .action(runHook);

  program
    .command("guard <action>")
    .description("git guard: install | uninstall the pre-commit (and --pre-push) hook; check is what the hooks run")
    .option("--pre-push", "install: also a pre-push hook, checking the commits no remote has yet")
    .option("--force", "install: even into a hooks folder inside the repository (core.hooksPath at .githooks, husky)")
    .option("--hook <name>", "check: pre-commit (the staged paths, default) or pre-push (refs on stdin)", "pre-commit")
    .option("--dir <path>", "claims directory (CLAIMS_DIR, .claims \"dir\", default $XDG_STATE_HOME/claims or ~/.local/state/claims)")
    .option("--holder <id>", "who is committing (CLAIMS_HOLDER, default: the agent's session id or this terminal)")
    .option("--json", "print one JSON document on stdout")
    .addHelpText("after", EXAMPLES.guard ?? "")
    .action(async (action: string, flags: GlobalFlags & { prePush?: boolean; hook?: string; force?: boolean }) => {
      const guard = await import("../commands/guard.js");
      const render = await import("./render.js");
      if (action === "install") {
        const result = guard.install({ prePush: flags.prePush === true, force: flags.force === true, binary: realpathSync(process.argv[1] as string) });
        return output(flags, result, 0, async () => render.renderInstall(result));
      }
      if (action === "uninstall") {
        const result = guard.uninstall({});
        return output(flags, result, 0, async () => render.renderUninstall(result));
      }
      if (action !== "check") throw new BadInputError(`Unknown guard action ${JSON.stringify(action)}; use install, uninstall or check.`);
      if (flags.hook !== "pre-commit" && flags.hook !== "pre-push") throw new BadInputError(`--hook must be pre-commit or pre-push; got ${JSON.stringify(flags.hook)}.`);
      const refs = flags.hook === "pre-push" && !isTerminal(0) ? readFileSync(0, "utf8") : "";
      const result = await guard.guardCheck({ ...common(flags), hook: flags.hook, refs });
      const refuse = result.refused.length > 0 && result.mode === "enforce";
      if (!flags.json) writeErr(render.renderGuard(result).map((line) => `${line}\n`).join(""));
      else writeOut(`${JSON.stringify(result, null, 2)}\n`);
      process.exitCode = refuse ? 1 : 0;
    });

  program
    .command("log [target]")
    .description("show the record of every state change (take, refusal, release, grant, sweep, ...), oldest first")
    .option("--holder <id>", "only entries by or about this holder")
    .option("--since <time>", "only entries since a UTC time (2026-08-14T21:02:11Z) or an age (30s, 10m, 2h, 7d)")
    .option("--follow", "print the entries so far, then new ones as they come, until interrupted or until the reader has gone (noticed at the next entry, as tail -f does)")
    .option("--dir <path>", "claims directory (CLAIMS_DIR, .claims \"dir\", default $XDG_STATE_HOME/claims or ~/.local/state/claims)")
    .option("--json", "print one JSON document on stdout (with --follow: one JSON line per entry)")
    .addHelpText("after", EXAMPLES.log ?? "")
    .action(async (target: string | undefined, flags: { holder?: string; since?: string; follow?: boolean; dir?: string; json?: boolean }) => {
      const { log, followLog } = await import("../commands/log.js");
      const { renderLogEntry } = await import("./render.js");
      const options = {
        ...(target !== undefined && { target }),
        ...(flags.holder !== undefined && { holder: flags.holder }),
        ...(flags.since !== undefined && { since: flags.since }),
        ...(flags.dir !== undefined && { dir: flags.dir }),
      };
      const result = log(options);
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
