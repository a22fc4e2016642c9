// The one place errors become exit codes, for both bundles (src/cli/hot.ts, src/cli/main.ts):
// domain errors and usage errors are one sentence, anything else is a bug.
import { ClaimsError, EXIT_CODES } from "../os/errors.js";
import { printableLines } from "../os/printable.js";
import { writeErr, writeOut } from "../os/stdio.js";

export function fail(error: unknown, json: boolean, verbName?: string): void {
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
    // `claims handover cfg "bump the preset"`: the second word is a purpose without its flag.
    if (verbName === "handover" && error.code === "commander.excessArguments") message = `${text.charAt(0).toUpperCase()}${text.slice(1)}: handover queues for one target, and a purpose goes with --purpose (claims handover TARGET --purpose "...").`;
    // `claims --holder A take x`: the verbs' options follow the verb.
    if (verbName === undefined && error.code === "commander.unknownOption") message = `${text.charAt(0).toUpperCase()}${text.slice(1)} before the verb; options follow it, as in claims take x --holder A (run claims --help for the verbs).`;
  } else if (error instanceof ClaimsError) {
    code = error.code;
    exitCode = error.exitCode;
    message = error.message;
  } else if ((error as NodeJS.ErrnoException)?.syscall === "uv_cwd") {
    // process.cwd() of a directory removed under the shell.
    code = "BAD_INPUT";
    exitCode = EXIT_CODES.BAD_INPUT;
    message = "The current directory no longer exists; cd to a directory that does and run the command again.";
  } else {
    code = "INTERNAL";
    exitCode = EXIT_CODES.INTERNAL;
    message = `Internal error: ${(error as Error)?.message ?? String(error)}. This is a bug; rerun with CLAIMS_DEBUG=1 for the stack.`;
    if (process.env.CLAIMS_DEBUG === "1") writeErr(`${(error as Error)?.stack ?? error}\n`);
  }
  if (json) writeOut(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`);
  // A target, holder or path in the sentence may carry a character that hides itself or turns the
  // line around (src/os/printable.ts): shown escaped on the terminal, exact in --json.
  writeErr(`claims: ${printableLines(message)}\n`);
  process.exitCode = exitCode;
}

/** Commander's errors carry a `commander.*` code; told apart without loading commander. */
function isCommanderError(error: unknown): error is Error & { code: string } {
  return typeof (error as { code?: unknown })?.code === "string" && (error as { code: string }).code.startsWith("commander.");
}
