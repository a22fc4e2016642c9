// Error messages name the option the caller gave: `--holder` to someone at the command line,
// `holder` to a program calling the library, whose options object has no `--holder`. The CLI says
// which it is once, at start-up (src/cli/main.ts); anything else is spoken to as a library caller.
// The spelling comes from the key by the rule commander names its options by (`--idempotency-key`
// is `idempotencyKey`), so no second table of spellings can drift from the flags the CLI declares
// (src/cli/flags.ts; test/cli/flags.test.ts checks each name here is one of them).

/** The options that library messages name. */
export type OptionName = "dir" | "holder" | "purpose" | "ttl" | "wait" | "queue" | "partial" | "force" | "creating" | "idempotencyKey" | "to" | "since" | "token" | "via";

let commandLine = false;

/** Called by the CLI before it runs a verb: from then on, messages name its flags. */
export function speakToCommandLine(): void {
  commandLine = true;
}

/** The command line's spelling of an option: `idempotencyKey` is `--idempotency-key`. */
export function flagSpelling(option: string): string {
  return `--${option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** How the caller spelled this option: `--idempotency-key` on the command line, `idempotencyKey` in code. */
export function optionName(option: OptionName): string {
  return commandLine ? flagSpelling(option) : option;
}

/** How to turn a switch on: `--force` on the command line, `force: true` in code. */
export function switchOn(option: "force" | "creating"): string {
  return commandLine ? flagSpelling(option) : `${option}: true`;
}
