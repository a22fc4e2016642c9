// Commander wiring only: declare verbs and flags, call a command, render, set the exit code.
// Commands and chalk are imported when a verb runs, so every call loads only what it needs.
import { readFileSync, realpathSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { BadInputError, ClaimsError, EXIT_CODES } from "./errors.js";
import { plain, type Style } from "./render.js";

interface GlobalFlags {
  dir?: string;
  holder?: string;
  ttl?: string;
  json?: boolean;
}

interface TakeFlags {
  purpose?: string;
  shared?: boolean;
  partial?: boolean;
  creating?: boolean;
  idempotencyKey?: string;
  wait?: string;
  queue?: boolean;
}

/** Whole seconds; the range is checked by take itself, so a library caller gets the same answer. */
function parseWait(text: string): number {
  return /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
}

const EXAMPLES: Record<string, string> = {
  take: `
Examples:
  $ claims take shared-config --purpose "align the lint rule with the new preset"
  $ claims take ../sibling/package.json ~/notes/memory.md --purpose "bump the shared dependency"
  $ claims take src/ --purpose "regenerate the API client"          # a directory and all below it
  $ claims take 'src/**/*.test.ts' --shared                         # a glob, shared with other sharers
  $ claims take utils.js#formatPrice --purpose "fix rounding"       # one top-level symbol
  $ claims take a.ts b.ts c.ts --partial                            # what is free; the rest is reported
  $ claims take shared-config --wait 120                             # block until free (exit 5 on timeout)
  $ claims take shared-config --queue -p "bump the preset"          # get in line, keep working (exit 6)
  $ claims take shared-config --json || echo "refused (exit 3): see who holds it"`,
  handover: `
Examples:
  $ claims handover shared-config --purpose "bump the preset after the lint fix"   # exit 6: queued
  $ claims status --mine                      # later: shows "granted while you waited"
  $ claims handover shared-config --to session-b7                                  # give your claim away`,
  beat: `
Examples:
  $ claims beat                  # renew every claim you hold
  $ claims beat shared-config`,
  release: `
Examples:
  $ claims release               # release every claim you hold
  $ claims release shared-config`,
  status: `
Examples:
  $ claims status
  $ claims status --mine --json
  $ claims status shared-config ./src/config.ts`,
  check: `
Examples:
  $ claims check src/config.ts || exit 3
  $ git diff --name-only -z | xargs -0 -r claims check   # from the repository root`,
  hook: `
Examples:
  $ claims hook print-config claude >> /dev/stdout     # the settings snippet to paste
  $ echo '{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/p","tool_name":"Edit","tool_input":{"file_path":"/p/a.ts","old_string":"x","new_string":"y"}}' | claims hook claude
See docs/HOOKS.md.`,
  guard: `
Examples:
  $ claims guard install --pre-push      # in the repository (or worktree) to guard
  $ git commit                           # refused while another session holds a staged path
  $ CLAIMS_GUARD=warn git commit         # print, but allow; CLAIMS_GUARD=off skips the check
  $ git commit --no-verify               # bypass, as git intends
  $ claims guard uninstall               # puts back the hooks that were there`,
  log: `
Examples:
  $ claims log                                   # everything, oldest first
  $ claims log shared-config --since 2h
  $ claims log --holder session-b7 --json
  $ claims log --follow                          # watch live; Ctrl-C to stop`,
  sweep: `
Examples:
  $ claims sweep --dry-run
  */10 * * * * claims sweep --json >/dev/null   # from cron, beside live sessions`,
};

export async function main(argv: string[]): Promise<void> {
  const json = argv.includes("--json");
  const program = new Command("claims")
    .description("Claim a target before writing it, so two agent sessions never overwrite each other.")
    .version(readVersion(), "-V, --version")
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .showSuggestionAfterError(true)
    .addHelpText(
      "after",
      `
Exit codes: 0 done, 1 internal error, 2 bad input, 3 REFUSED (held by another, or a deadlock),
4 LOST / not yours, 5 TIMEOUT (--wait ran out), 6 QUEUED (--queue, handover).
Settings: --dir / CLAIMS_DIR, --holder / CLAIMS_HOLDER, --ttl / CLAIMS_TTL, or a .claims config file.
Run claims <verb> --help for a verb's flags and examples; docs/PROTOCOL.md has the file format.`,
    );

  verb(program, "take", "<targets...>", "take every target, or none; re-taking your own claim renews it")
    .option("-p, --purpose <text>", "why you are taking it: shown to every session this refuses")
    .option("--shared", "a shared claim: coexists with other shared claims, conflicts with exclusive ones")
    .option("--partial", "take what is free and report the rest (exit 3 if anything was refused)")
    .option("--creating", "allow file#symbol for a symbol you are about to add")
    .option("--idempotency-key <key>", "a retry with the same key and arguments returns the first result (kept 7 days)")
    .option("--wait <seconds>", "when refused, queue and wait up to this long for every target (exit 5 on timeout)")
    .option("--queue", "when refused, queue for each target and return at once (exit 6); granted in order as it frees")
    .action(async (targets: string[], flags: GlobalFlags & TakeFlags) => {
      const { take } = await import("./commands/take.js");
      const { renderTake, renderWaiting } = await import("./render.js");
      const stop = new AbortController();
      process.once("SIGINT", () => stop.abort());
      const tty = process.stderr.isTTY && !flags.json;
      const result = await take({
        ...common(flags),
        targets,
        shared: flags.shared === true,
        partial: flags.partial === true,
        creating: flags.creating === true,
        queue: flags.queue === true,
        signal: stop.signal,
        ...(flags.wait !== undefined && { wait: parseWait(flags.wait) }),
        ...(tty && { onWaiting: (refused, waitedMs) => process.stderr.write(`\r\x1b[K${renderWaiting(refused, waitedMs)}`) }),
        ...(flags.idempotencyKey !== undefined && { idempotencyKey: flags.idempotencyKey }),
        ...(flags.purpose !== undefined && { purpose: flags.purpose }),
      });
      if (tty && flags.wait !== undefined) process.stderr.write("\r\x1b[K");
      for (const warning of result.warnings ?? []) process.stderr.write(`claims: note: ${warning}\n`);
      const code = result.no_longer_held
        ? EXIT_CODES.LOST
        : result.timed_out
          ? EXIT_CODES.TIMEOUT
          : (result.queued ?? []).length > 0
            ? EXIT_CODES.QUEUED
            : result.refused.length > 0
              ? EXIT_CODES.REFUSED
              : 0;
      await output(flags, result, stop.signal.aborted ? 130 : code, async (style) => renderTake(result, style, targets));
    });
  verb(program, "handover", "<target>", "queue a handover note for a target someone holds (exit 6), or hand your own claim --to another holder")
    .option("-p, --purpose <text>", "what you will do with it: the note the holder and the next holders see")
    .option("--to <holder>", "hand your claim directly to this holder (exit 4 if you do not hold it)")
    .action(async (target: string, flags: GlobalFlags & { purpose?: string; to?: string }) => {
      const { handover } = await import("./commands/handover.js");
      const { renderTake, renderTransfer } = await import("./render.js");
      const result = await handover({
        ...common(flags),
        target,
        ...(flags.purpose !== undefined && { purpose: flags.purpose }),
        ...(flags.to !== undefined && { to: flags.to }),
      });
      if ("to" in result) return output(flags, result, 0, async () => renderTransfer(result));
      const code = (result.queued ?? []).length > 0 ? EXIT_CODES.QUEUED : result.refused.length > 0 ? EXIT_CODES.REFUSED : 0;
      return output(flags, result, code, async (style) => renderTake(result, style, [target]));
    });
  verb(program, "beat", "[targets...]", "renew the heartbeat of the named claims, or of all yours").action(
    async (targets: string[], flags: GlobalFlags) => {
      const { beat } = await import("./commands/beat.js");
      const result = beat({ ...common(flags), targets });
      await output(flags, result, result.lost.length > 0 ? EXIT_CODES.LOST : 0, async (style) => (await import("./render.js")).renderBeat(result, style));
    },
  );
  verb(program, "release", "[targets...]", "release the named claims, or all yours; another holder's claim is left untouched").action(
    async (targets: string[], flags: GlobalFlags) => {
      const { release } = await import("./commands/release.js");
      const result = release({ ...common(flags), targets });
      await output(flags, result, result.lost.length > 0 ? EXIT_CODES.LOST : 0, async (style) => (await import("./render.js")).renderRelease(result, style));
    },
  );
  verb(program, "status", "[targets...]", "list claims: target, holder, purpose, heartbeat age, fresh or stale")
    .option("--mine", "only your own claims")
    .action(async (targets: string[], flags: GlobalFlags & { mine?: boolean }) => {
      const { status } = await import("./commands/status.js");
      const result = status({ ...common(flags), targets, mine: flags.mine === true });
      if (result.directory_missing) process.stderr.write(`claims: note: the claims directory ${result.dir} does not exist yet; nothing is claimed there\n`);
      await output(flags, result, 0, async (style) => (await import("./render.js")).renderStatus(result, style));
    });
  verb(program, "check", "<targets...>", "exit 0 when you may write every target (free or yours), 3 when another holder's fresh claim covers one").action(
    async (targets: string[], flags: GlobalFlags) => {
      const { check } = await import("./commands/check.js");
      const result = check({ ...common(flags), targets });
      if (result.holder === undefined && !flags.json) {
        process.stderr.write("claims: note: no holder set (--holder or CLAIMS_HOLDER), so every fresh claim counts as another's\n");
      }
      if (result.directory_missing) process.stderr.write(`claims: note: the claims directory ${result.dir} does not exist yet; nothing is claimed there\n`);
      await output(flags, result, result.refused.length > 0 ? EXIT_CODES.REFUSED : 0, async (style) => (await import("./render.js")).renderCheck(result, style));
    },
  );
  verb(program, "sweep", "", "remove stale claims and debris of crashed writers; safe beside live sessions")
    .option("--dry-run", "show what would be removed, remove nothing")
    .action(async (flags: GlobalFlags & { dryRun?: boolean }) => {
      const { sweep } = await import("./commands/sweep.js");
      const result = sweep({ ...common(flags), dryRun: flags.dryRun === true });
      await output(flags, result, 0, async (style) => (await import("./render.js")).renderSweep(result, style));
    });

  program
    .command("hook <agent> [which]")
    .description("run as an agent's hook (claude, codex): the event JSON on stdin; or print-config <agent>")
    .option("--no-auto-take", "do not claim a free file for the session before it writes")
    .option("--fail-closed", "deny writes when the claims directory cannot be used (default: allow, with a note)")
    .option("--merge-subagents", "count a subagent as its parent session")
    .option("--dir <path>", "claims directory (CLAIMS_DIR, .claims \"dir\" found from the payload's cwd)")
    .addHelpText("after", EXAMPLES.hook ?? "")
    .action(async (agent: string, which: string | undefined, flags: { autoTake?: boolean; failClosed?: boolean; mergeSubagents?: boolean; dir?: string }) => {
      const agents = ["claude", "codex"] as const;
      const name = agent === "print-config" ? which : agent;
      if (!agents.includes(name as (typeof agents)[number])) {
        throw new BadInputError(`Unknown agent ${JSON.stringify(name ?? "")}; use claims hook claude, claims hook codex, or claims hook print-config claude|codex.`);
      }
      if (agent === "print-config") {
        const { hookConfig } = await import("./hooks/config.js");
        process.stdout.write(hookConfig(name as "claude" | "codex", process.argv[1] as string));
        return;
      }
      const { hook } = await import("./commands/hook.js");
      const input = process.stdin.isTTY ? "" : readFileSync(0, "utf8");
      const answer = await hook({
        agent: name as "claude" | "codex",
        input,
        autoTake: flags.autoTake !== false,
        failClosed: flags.failClosed === true,
        mergeSubagents: flags.mergeSubagents === true,
        ...(flags.dir !== undefined && { dir: flags.dir }),
      });
      process.stdout.write(answer.stdout);
      process.stderr.write(answer.stderr);
      process.exitCode = answer.exitCode;
    });

  program
    .command("guard <action>")
    .description("git guard: install | uninstall the pre-commit (and --pre-push) hook; check is what the hooks run")
    .option("--pre-push", "install: also a pre-push hook, checking the commits no remote has yet")
    .option("--hook <name>", "check: pre-commit (the staged paths, default) or pre-push (refs on stdin)", "pre-commit")
    .option("--dir <path>", "claims directory (CLAIMS_DIR, .claims \"dir\", default $XDG_STATE_HOME/claims or ~/.local/state/claims)")
    .option("--holder <id>", "who is committing (CLAIMS_HOLDER, default: the agent's session id or this terminal)")
    .option("--json", "print one JSON document on stdout")
    .addHelpText("after", EXAMPLES.guard ?? "")
    .action(async (action: string, flags: GlobalFlags & { prePush?: boolean; hook?: string }) => {
      const guard = await import("./commands/guard.js");
      const render = await import("./render.js");
      if (action === "install") {
        const result = guard.install({ prePush: flags.prePush === true, binary: realpathSync(process.argv[1] as string) });
        return output(flags, result, 0, async () => render.renderInstall(result));
      }
      if (action === "uninstall") {
        const result = guard.uninstall({});
        return output(flags, result, 0, async () => render.renderUninstall(result));
      }
      if (action !== "check") throw new BadInputError(`Unknown guard action ${JSON.stringify(action)}; use install, uninstall or check.`);
      if (flags.hook !== "pre-commit" && flags.hook !== "pre-push") throw new BadInputError(`--hook must be pre-commit or pre-push; got ${JSON.stringify(flags.hook)}.`);
      const refs = flags.hook === "pre-push" && !process.stdin.isTTY ? readFileSync(0, "utf8") : "";
      const result = await guard.guardCheck({ ...common(flags), hook: flags.hook, refs });
      const refuse = result.refused.length > 0 && result.mode === "enforce";
      if (!flags.json) process.stderr.write(render.renderGuard(result).map((line) => `${line}\n`).join(""));
      else process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      process.exitCode = refuse ? 1 : 0;
    });

  program
    .command("log [target]")
    .description("show the record of every state change (take, refusal, release, grant, sweep, ...), oldest first")
    .option("--holder <id>", "only entries by or about this holder")
    .option("--since <time>", "only entries since a UTC time (2026-08-14T21:02:11Z) or an age (30s, 10m, 2h, 7d)")
    .option("--follow", "keep printing new entries until interrupted")
    .option("--dir <path>", "claims directory (CLAIMS_DIR, .claims \"dir\", default $XDG_STATE_HOME/claims)")
    .option("--json", "print one JSON document on stdout (with --follow: one JSON line per entry)")
    .addHelpText("after", EXAMPLES.log ?? "")
    .action(async (target: string | undefined, flags: { holder?: string; since?: string; follow?: boolean; dir?: string; json?: boolean }) => {
      const { log, followLog } = await import("./commands/log.js");
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
      const style = flags.json ? plain : await styleFor(process.stdout);
      const print = (entry: (typeof result.entries)[number]) =>
        process.stdout.write(`${flags.json ? JSON.stringify(entry) : renderLogEntry(entry, style)}\n`);
      result.entries.forEach(print);
      const stop = new AbortController();
      process.once("SIGINT", () => stop.abort());
      process.once("SIGTERM", () => stop.abort());
      await followLog(options, print, stop.signal);
    });

  try {
    if (argv.length === 0) {
      process.stderr.write(program.helpInformation());
      process.exitCode = EXIT_CODES.BAD_INPUT;
      return;
    }
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    fail(error, json);
  }
}

function verb(program: Command, name: string, args: string, description: string): Command {
  return program
    .command(`${name}${args ? ` ${args}` : ""}`)
    .description(description)
    .option("--dir <path>", "claims directory (CLAIMS_DIR, .claims \"dir\", default $XDG_STATE_HOME/claims or ~/.local/state/claims)")
    .option("--holder <id>", "who is holding (CLAIMS_HOLDER, default: the agent's session id or this terminal)")
    .option("--ttl <seconds>", "seconds without a heartbeat before a claim is stale (CLAIMS_TTL, default 1800)")
    .option("--json", "print one JSON document on stdout")
    .addHelpText("after", EXAMPLES[name] ?? "");
}

function common(flags: GlobalFlags): { dir?: string; holder?: string; ttl?: string } {
  return {
    ...(flags.dir !== undefined && { dir: flags.dir }),
    ...(flags.holder !== undefined && { holder: flags.holder }),
    ...(flags.ttl !== undefined && { ttl: flags.ttl }),
  };
}

async function output(flags: GlobalFlags, result: object, exitCode: number, human: (style: Style) => Promise<string[]>): Promise<void> {
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    const lines = await human(await styleFor(process.stdout));
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  process.exitCode = exitCode;
}

async function styleFor(stream: NodeJS.WriteStream): Promise<Style> {
  if (!stream.isTTY || process.env.NO_COLOR) return plain;
  const { default: chalk } = await import("chalk");
  return chalk;
}

/** The one place errors become exit codes: domain errors and usage errors are one sentence, anything else is a bug. */
function fail(error: unknown, json: boolean): void {
  let code: string;
  let message: string;
  let exitCode: number;
  if (error instanceof CommanderError) {
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") {
      process.exitCode = 0;
      return;
    }
    code = "BAD_INPUT";
    exitCode = EXIT_CODES.BAD_INPUT;
    const text = error.message.replace(/^error: /, "").replace(/\s*\n\s*/g, " ").replace(/\.?$/, "");
    message = `${text.charAt(0).toUpperCase()}${text.slice(1)}; run claims --help for usage.`;
  } else if (error instanceof ClaimsError) {
    code = error.code;
    exitCode = error.exitCode;
    message = error.message;
  } else {
    code = "INTERNAL";
    exitCode = EXIT_CODES.INTERNAL;
    message = `Internal error: ${(error as Error)?.message ?? String(error)}. This is a bug; rerun with CLAIMS_DEBUG=1 for the stack.`;
    if (process.env.CLAIMS_DEBUG === "1") process.stderr.write(`${(error as Error)?.stack ?? error}\n`);
  }
  if (json) process.stdout.write(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`);
  process.stderr.write(`claims: ${message}\n`);
  process.exitCode = exitCode;
}

function readVersion(): string {
  return (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
}
