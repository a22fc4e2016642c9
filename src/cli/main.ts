// Commander wiring only: declare the verbs (src/cli/flags.ts), call a command, render, set the exit code.
// Commands and chalk are imported when a verb runs, so every call loads only what it needs.
import { BadInputError, EXIT_CODES } from "../os/errors.js";
import { fail } from "./fail.js";
import { common, declareVerb, output, ownRealBinary, readVersion } from "./shared.js";
import type { VerbFlags } from "./flags.js";
import { registerToolVerbs } from "./tools.js";
import { registerMcpVerb } from "./mcp.js";
import { runBeat, runCheck, runRelease, runTake, tokenOf } from "./actions.js";
import { compileGrammarsWithoutTierUp } from "../targets/symbols.js";
import { speakToCommandLine } from "../os/option-names.js";
import { claimAsSudoUser } from "../os/sudo.js";
import { writeErr, writeOut } from "../os/stdio.js";


export async function main(argv: string[]): Promise<void> {
  const json = argv.includes("--json");
  speakToCommandLine(); // errors name --holder, not the library's holder
  claimAsSudoUser(); // `sudo claims …` claims where the user who ran sudo does
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
    // Help and version through src/os/stdio.ts too: a reader that has gone (claims --help | head -1)
    // ends the output instead of crashing the process with EPIPE.
    .configureOutput({ outputError: () => {}, writeOut: (text) => void writeOut(text), writeErr: (text) => void writeErr(text) })
    .showSuggestionAfterError(true)
    .addHelpText(
      "after",
      `
Exit codes: 0 done, 1 internal error, 2 bad input, 3 REFUSED (held by another, or a deadlock),
4 LOST / not yours, 5 TIMEOUT (--wait ran out), 6 QUEUED (--queue, handover).
Settings: --dir / CLAIMS_DIR, --holder / CLAIMS_HOLDER, --ttl / CLAIMS_TTL, or a .claims config file.

Examples:
  $ claims take shared-config --purpose "align the lint rule"   # before the first write
  $ claims beat                                                # every writing turn
  $ claims release                                             # at the end
  $ claims status                                              # who holds what, and why

Run claims <verb> --help for a verb's flags and examples; docs/PROTOCOL.md has the file format.`,
    );

  declareVerb(program, "take").action(runTake);
  declareVerb(program, "handover")
    .action(async (target: string, flags: VerbFlags<"handover">) => {
      const { handover } = await import("../commands/handover.js");
      const { renderTake, renderTransfer, sameSession } = await import("./render.js");
      const result = await handover({
        ...common(flags),
        target,
        ...(flags.purpose !== undefined && { purpose: flags.purpose }),
        ...(flags.creating === true && { creating: true }),
        ...(flags.to !== undefined && { to: flags.to }),
        ...tokenOf(flags),
      });
      if ("to" in result) return output(flags, result, 0, async () => renderTransfer(result));
      const code = (result.queued ?? []).length > 0 ? EXIT_CODES.QUEUED : result.refused.length > 0 ? EXIT_CODES.REFUSED : 0;
      return output(flags, result, code, async (style) => renderTake(result, style, [target], sameSession(flags)));
    });
  declareVerb(program, "beat").action(runBeat);
  declareVerb(program, "release").action(runRelease);
  declareVerb(program, "status")
    .action(async (targets: string[], flags: VerbFlags<"status">) => {
      const { status } = await import("../commands/status.js");
      const result = status({ ...common(flags), targets, mine: flags.mine === true });
      if (result.directory_missing) writeErr(`claims: note: the claims directory ${result.dir} does not exist yet; nothing is claimed there\n`);
      await output(flags, result, 0, async (style) => (await import("./render.js")).renderStatus(result, style, flags.mine === true));
    });
  declareVerb(program, "check").action(runCheck);
  declareVerb(program, "sweep")
    .action(async (flags: VerbFlags<"sweep">) => {
      const { sweep } = await import("../commands/sweep.js");
      const result = sweep({ ...common(flags), dryRun: flags.dryRun === true });
      if (result.directory_missing) writeErr(`claims: note: the claims directory ${result.dir} does not exist; nothing to sweep there\n`);
      await output(flags, result, 0, async (style) => (await import("./render.js")).renderSweep(result, style));
    });
  declareVerb(program, "doctor")
    .action(async (flags: VerbFlags<"doctor">) => {
      const { doctor } = await import("../commands/doctor.js");
      const { renderDoctor } = await import("./render.js");
      const result = await doctor({ ...common(flags), binary: ownRealBinary(), ...(flags.via !== undefined && { via: flags.via }) });
      // A directory the guard cannot be trusted on is refused as every verb refuses an unusable one (exit 2), not a bug (exit 1).
      await output(flags, result, result.trusted ? 0 : EXIT_CODES.BAD_INPUT, async (style) => renderDoctor(result, style));
    });

  registerToolVerbs(program);
  registerMcpVerb(program);

  try {
    if (argv.length === 0) {
      // The whole of `claims --help` (its exit codes, settings and examples too), on stderr: no
      // verb is a usage error (exit 2), as `git` with none is one, and a script piping it gets nothing on stdout.
      program.outputHelp({ error: true });
      process.exitCode = EXIT_CODES.BAD_INPUT;
      return;
    }
    // Commander's `help <unknown>` shows the main help and exits 0: a typo would pass unnoticed.
    const [first, asked] = argv;
    if (first === "help" && asked !== undefined && !asked.startsWith("-") && !program.commands.some((command) => command.name() === asked)) {
      throw new BadInputError(`Unknown command '${asked}'; run claims --help for the verbs.`);
    }
    // Commander suggests a verb by edit distance, in which `TAKE` is far from `take` (caps lock on).
    const folded = first === undefined || first.startsWith("-") ? undefined : program.commands.find((command) => command.name() !== first && command.name() === first.toLowerCase());
    if (folded !== undefined) throw new BadInputError(`Unknown command '${first}' (Did you mean ${folded.name()}?); run claims --help for usage.`);
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    const named = program.commands.find((command) => command.name() === argv[0]);
    fail(error, json, named?.name());
  }
}
