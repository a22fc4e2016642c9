// Commander wiring only: declare verbs and flags, call a command, render, set the exit code.
// Commands and chalk are imported when a verb runs, so every call loads only what it needs.
import { realpathSync } from "node:fs";
import { ClaimsError, EXIT_CODES } from "../os/errors.js";
import { common, output, readVersion, verb, type GlobalFlags } from "./shared.js";
import { registerToolVerbs } from "./tools.js";
import { registerMcpVerb } from "./mcp.js";
import { runBeat, runCheck, runRelease, runTake, tokenOf } from "./actions.js";
import { compileGrammarsWithoutTierUp } from "../targets/symbols.js";
import { speakToCommandLine } from "../os/option-names.js";
import { writeErr, writeOut } from "../os/stdio.js";


export async function main(argv: string[]): Promise<void> {
  const json = argv.includes("--json");
  speakToCommandLine(); // errors name --holder, not the library's holder
  compileGrammarsWithoutTierUp(); // one call, then exit: see there
  try {
    const { runFast } = await import("./fast.js");
    if (await runFast(argv)) return;
  } catch (error) {
    fail(error, json);
    return;
  }
  // Everything else: loaded only now, so the hot calls above never pay for it.
  const { Command } = await import("commander");
  const program = new Command("claims")
    .description("Claim a target before writing it, so two agent sessions never overwrite each other.")
    .version(readVersion(), "-V, --version")
    .exitOverride()
    // Help and version through src/stdio.ts too: a reader that has gone (claims --help | head -1)
    // ends the output instead of crashing the process with EPIPE.
    .configureOutput({ outputError: () => {}, writeOut: (text) => void writeOut(text), writeErr: (text) => void writeErr(text) })
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
    .option("--force", "take a target that covers /, a home directory or a whole repository")
    .option("--idempotency-key <key>", "a retry with the same key and arguments returns the first result (kept 7 days)")
    .option("--wait <seconds>", "when refused, queue and wait up to this long for every target (exit 5 on timeout)")
    .option("--queue", "when refused, take nothing, queue for what is refused and return at once (exit 6); granted in order as it frees")
    .action(runTake);
  verb(program, "handover", "<target>", "queue a handover note for a target someone holds (exit 6), or hand your own claim --to another holder")
    .option("-p, --purpose <text>", "what you will do with it: the note the holder and the next holders see")
    .option("--to <holder>", "hand your claim directly to this holder (exit 4 if you do not hold it)")
    .option("--token <n>", "with --to: the fencing token of your holding (exit 4 if the claim carries a newer one)")
    .action(async (target: string, flags: GlobalFlags & { purpose?: string; to?: string; token?: string }) => {
      const { handover } = await import("../commands/handover.js");
      const { renderTake, renderTransfer } = await import("./render.js");
      const result = await handover({
        ...common(flags),
        target,
        ...(flags.purpose !== undefined && { purpose: flags.purpose }),
        ...(flags.to !== undefined && { to: flags.to }),
        ...tokenOf(flags),
      });
      if ("to" in result) return output(flags, result, 0, async () => renderTransfer(result));
      const code = (result.queued ?? []).length > 0 ? EXIT_CODES.QUEUED : result.refused.length > 0 ? EXIT_CODES.REFUSED : 0;
      return output(flags, result, code, async (style) => renderTake(result, style, [target]));
    });
  verb(program, "beat", "[targets...]", "renew the heartbeat of the named claims, or of all yours")
    .option("--token <n>", "the fencing token of your holding: LOST if the claim carries a newer one")
    .action(runBeat);
  verb(program, "release", "[targets...]", "release the named claims, or all yours; another holder's claim is left untouched")
    .option("--token <n>", "the fencing token of your holding: a claim carrying a newer one is left alone (LOST)")
    .action(runRelease);
  verb(program, "status", "[targets...]", "list claims: target, holder, purpose, heartbeat age, fresh or stale")
    .option("--mine", "only your own claims")
    .action(async (targets: string[], flags: GlobalFlags & { mine?: boolean }) => {
      const { status } = await import("../commands/status.js");
      const result = status({ ...common(flags), targets, mine: flags.mine === true });
      if (result.directory_missing) writeErr(`claims: note: the claims directory ${result.dir} does not exist yet; nothing is claimed there\n`);
      await output(flags, result, 0, async (style) => (await import("./render.js")).renderStatus(result, style, flags.mine === true));
    });
  verb(program, "check", "<targets...>", "exit 0 when you may write every target (free or yours), 3 when another holder's fresh claim covers one")
    .option("--token <n>", "also exit 4 unless the claim on each target still carries this fencing token")
    .action(runCheck);
  verb(program, "sweep", "", "remove stale claims and debris of crashed writers; safe beside live sessions")
    .option("--dry-run", "show what would be removed, remove nothing")
    .action(async (flags: GlobalFlags & { dryRun?: boolean }) => {
      const { sweep } = await import("../commands/sweep.js");
      const result = sweep({ ...common(flags), dryRun: flags.dryRun === true });
      await output(flags, result, 0, async (style) => (await import("./render.js")).renderSweep(result, style));
    });

  verb(program, "doctor", "", "verify the guard on this claims directory: exclusive create, one winner per race, read-back, clock, permissions, debris; on a network filesystem its caches and locks across machines")
    .option("--via <dir>", "the same claims directory through another mount: check that each sees the other's claims and locks at once")
    .action(async (flags: GlobalFlags & { via?: string }) => {
      const { doctor } = await import("../commands/doctor.js");
      const { renderDoctor } = await import("./render.js");
      const result = await doctor({ ...common(flags), binary: realpathSync(process.argv[1] as string), ...(flags.via !== undefined && { via: flags.via }) });
      await output(flags, result, result.trusted ? 0 : EXIT_CODES.INTERNAL, async (style) => renderDoctor(result, style));
    });

  registerToolVerbs(program);
  registerMcpVerb(program);

  try {
    if (argv.length === 0) {
      writeErr(program.helpInformation());
      process.exitCode = EXIT_CODES.BAD_INPUT;
      return;
    }
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    const named = program.commands.find((command) => command.name() === argv[0]);
    fail(error, json, named?.name());
  }
}

/** The one place errors become exit codes: domain errors and usage errors are one sentence, anything else is a bug. */
function fail(error: unknown, json: boolean, verbName?: string): void {
  let code: string;
  let message: string;
  let exitCode: number;
  if (isCommanderError(error)) {
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") {
      process.exitCode = 0;
      return;
    }
    code = "BAD_INPUT";
    exitCode = EXIT_CODES.BAD_INPUT;
    const text = error.message.replace(/^error: /, "").replace(/\s*\n\s*/g, " ").replace(/\.?$/, "");
    const help = verbName === undefined ? "claims --help" : `claims ${verbName} --help`;
    message = `${text.charAt(0).toUpperCase()}${text.slice(1)}; run ${help} for usage.`;
  } else if (error instanceof ClaimsError) {
    code = error.code;
    exitCode = error.exitCode;
    message = error.message;
  } else {
    code = "INTERNAL";
    exitCode = EXIT_CODES.INTERNAL;
    message = `Internal error: ${(error as Error)?.message ?? String(error)}. This is a bug; rerun with CLAIMS_DEBUG=1 for the stack.`;
    if (process.env.CLAIMS_DEBUG === "1") writeErr(`${(error as Error)?.stack ?? error}\n`);
  }
  if (json) writeOut(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`);
  writeErr(`claims: ${message}\n`);
  process.exitCode = exitCode;
}

function isCommanderError(error: unknown): error is Error & { code: string } {
  return typeof (error as { code?: unknown })?.code === "string" && (error as { code: string }).code.startsWith("commander.");
}

