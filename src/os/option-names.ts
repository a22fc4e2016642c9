// Error messages name the option the caller gave: `--holder` to someone at the command line,
// `holder` to a program calling the library, whose options object has no `--holder`. The CLI says
// which it is once, at start-up (src/cli.ts); anything else is spoken to as a library caller.
const FLAGS = {
  dir: "--dir",
  holder: "--holder",
  ttl: "--ttl",
  wait: "--wait",
  queue: "--queue",
  force: "--force",
  creating: "--creating",
  idempotencyKey: "--idempotency-key",
  to: "--to",
  since: "--since",
} as const;

export type OptionName = keyof typeof FLAGS;

let commandLine = false;

/** Called by the CLI before it runs a verb: from then on, messages name its flags. */
export function speakToCommandLine(): void {
  commandLine = true;
}

/** How the caller spelled this option: `--idempotency-key` on the command line, `idempotencyKey` in code. */
export function optionName(option: OptionName): string {
  return commandLine ? FLAGS[option] : option;
}

/** How to turn a switch on: `--force` on the command line, `force: true` in code. */
export function switchOn(option: "force" | "creating"): string {
  return commandLine ? FLAGS[option] : `${option}: true`;
}
