// A library caller's options are checked for their types before anything is written: the CLI and
// the MCP server pass the types each verb declares, but a JavaScript caller may not, and a purpose
// of 5 or a `now` of "soon" went into a claim file no reader could parse (unreadable, so in every
// session's way until it was older than the TTL), and `targets: "name:x"` was read one character
// at a time, releasing the claim on `x`.
import { BadInputError } from "../os/errors.js";

type Kind = "string" | "boolean" | "number" | "strings" | "ttl" | "function" | "signal" | "agent" | "environment";

const KINDS: Record<string, Kind> = {
  dir: "string",
  holder: "string",
  cwd: "string",
  configAt: "string",
  purpose: "string",
  idempotencyKey: "string",
  to: "string",
  target: "string",
  since: "string",
  via: "string",
  binary: "string",
  input: "string",
  agent: "agent",
  targets: "strings",
  ttl: "ttl",
  now: "number",
  startedAt: "number",
  token: "number",
  wait: "number",
  renewAfterMs: "number",
  claimTtl: "number",
  shared: "boolean",
  partial: "boolean",
  creating: "boolean",
  force: "boolean",
  queue: "boolean",
  mine: "boolean",
  dryRun: "boolean",
  sessionPinned: "boolean",
  autoTake: "boolean",
  failClosed: "boolean",
  subagentHolders: "boolean",
  onWaiting: "function",
  signal: "signal",
  env: "environment",
};

const EXPECTED: Record<Kind, string> = {
  string: "a string",
  boolean: "true or false",
  number: "a finite number",
  strings: 'a list of strings, e.g. ["shared-config"]',
  ttl: "whole seconds, as a number or a string of digits",
  function: "a function",
  signal: "an AbortSignal",
  agent: '"claude" or "codex"',
  environment: 'an object of variables and their string values, e.g. { CLAIMS_HOLDER: "session-a" }',
};

/** The options a verb cannot go without: missing, the call would fail on them with a TypeError, or act on nothing. */
const REQUIRED: Record<string, string[]> = {
  take: ["targets"],
  check: ["targets"],
  handover: ["target"],
  hook: ["agent", "input"],
};

function fits(kind: Kind, value: unknown): boolean {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "strings":
      return Array.isArray(value) && value.every((entry) => typeof entry === "string");
    case "ttl":
      return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
    case "function":
      return typeof value === "function";
    case "signal":
      return typeof value === "object" && value !== null && typeof (value as { aborted?: unknown }).aborted === "boolean";
    case "agent":
      return value === "claude" || value === "codex";
    case "environment":
      return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => entry === undefined || typeof entry === "string");
  }
}

function shown(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (typeof value === "bigint") return `${value}n`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Throws BadInputError, naming the verb and the option, for an option whose value is not of the type the verb declares, or one it requires not given. Undefined means not given. */
export function checkOptionTypes(verb: string, options: unknown): void {
  const required = REQUIRED[verb] ?? [];
  if (options === undefined && required.length === 0) return;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new BadInputError(`${verb}: the options must be an object, e.g. { holder: "session-a" }; got ${shown(options)}.`);
  }
  for (const key of required) {
    const kind = KINDS[key] as Kind;
    if ((options as Record<string, unknown>)[key] === undefined) throw new BadInputError(`${verb}: ${key} is required: ${EXPECTED[kind]}.`);
  }
  for (const [key, value] of Object.entries(options)) {
    const kind = KINDS[key];
    if (kind === undefined || value === undefined || fits(kind, value)) continue;
    throw new BadInputError(`${verb}: ${key} must be ${EXPECTED[kind]}; got ${shown(value)}.`);
  }
}
