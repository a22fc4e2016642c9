// Typed domain errors. Core throws them; src/cli/main.ts maps each to its exit code and one
// sentence, in exactly one place. Anything else that escapes is a bug (exit 1).

export type ErrorCode = "BAD_INPUT" | "IDEMPOTENCY_KEY_CONFLICT" | "REFUSED" | "DEADLOCK" | "LOST" | "TIMEOUT" | "QUEUED" | "INTERNAL";

export const EXIT_CODES: Record<ErrorCode, number> = {
  INTERNAL: 1,
  BAD_INPUT: 2,
  IDEMPOTENCY_KEY_CONFLICT: 2,
  REFUSED: 3,
  DEADLOCK: 3,
  LOST: 4,
  TIMEOUT: 5,
  QUEUED: 6,
};

export class ClaimsError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = "ClaimsError";
    this.code = code;
  }
  get exitCode(): number {
    return EXIT_CODES[this.code];
  }
}

/** Usage errors, invalid targets, invalid TTLs, a missing holder, an unusable claims directory. */
export class BadInputError extends ClaimsError {
  constructor(message: string) {
    super("BAD_INPUT", message);
    this.name = "BadInputError";
  }
}

/** A `.claims` configuration file that cannot be used: `path` names it, so a hook can let its repair through. */
export class ConfigError extends BadInputError {
  readonly path: string;
  constructor(path: string, message: string) {
    super(message);
    this.name = "ConfigError";
    this.path = path;
  }
}

/** The claims directory stayed busy for longer than a mutation should ever take. */
export class BusyError extends ClaimsError {
  constructor(message: string) {
    super("INTERNAL", message);
    this.name = "BusyError";
  }
}

/** The claims directory's network filesystem kept failing (ESTALE, EIO, a dropped connection) after bounded retries. */
export class NetworkFilesystemError extends ClaimsError {
  constructor(message: string) {
    super("INTERNAL", message);
    this.name = "NetworkFilesystemError";
  }
}

/** Waiting would close a cycle in the waits-for graph: refused at once instead of hanging forever. */
export class DeadlockError extends ClaimsError {
  readonly cycle: string[];
  readonly refused: unknown[];
  constructor(cycle: string[], refused: unknown[]) {
    super(
      "DEADLOCK",
      `Waiting would deadlock: ${cycle.join(" waits for ")}. Nothing was queued; release what you hold that the others wait for, or give up this take.`,
    );
    this.name = "DeadlockError";
    this.cycle = cycle;
    this.refused = refused;
  }
}
