// The tools' input schemas (zod): what tools/list advertises as JSON Schema and what every call is
// checked against before it reaches a command. The names, types and defaults are the reference
// systems' own (docs/MCP.md), so a prompt or script written for them works unchanged. Every
// violation reads as one sentence naming the argument, as the CLI's usage errors do.
import * as z from "zod";
import { MAX_TTL_SECONDS } from "../protocol/claim.js";

/** The `error` of one argument: what it must be, and what it got (or that it is missing). */
function expecting(name: string, expected: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? `${name} is required: ${expected}` : `${name} must be ${expected}; got ${shown(issue.input)}`);
}

/** A value as a sentence shows it: a string says it is one (`"60"` for a number reads as a valid value), a number as written. */
function shown(value: unknown): string {
  return typeof value === "string" ? `the string ${JSON.stringify(value)}` : (JSON.stringify(value) ?? String(value));
}

const text = (name: string, description: string) => z.string({ error: expecting(name, "a string") }).describe(description);
const flag = (name: string, description: string) => z.boolean({ error: expecting(name, "true or false") }).describe(description);
/**
 * A call's paths are taken one after another under the take lock, which every other take then
 * waits for (a few milliseconds each, more on a loaded machine): thousands in one call would hold
 * every session up, and a cancellation is only read once the take ends.
 */
export const MAX_PATHS_PER_CALL = 1000;
const pathList = (name: string, description: string, atLeastOne: boolean) => {
  const expected = `a list of paths, e.g. ["src/config.ts", "docs/"]`;
  const list = z
    .array(z.string({ error: expecting(`every entry of ${name}`, "a path string") }).min(1, { error: `an entry of ${name} is empty; give a path` }), {
      error: expecting(name, expected),
    })
    .max(MAX_PATHS_PER_CALL, { error: (issue: { input?: unknown }) => `${name} holds ${Array.isArray(issue.input) ? issue.input.length : "too many"} paths, more than the ${MAX_PATHS_PER_CALL} one call may name; claim their directory (dir/) or a glob instead, or split the call` });
  return (atLeastOne ? list.min(1, { error: `${name} is empty: give at least one path, e.g. ["src/config.ts"]` }) : list).describe(description);
};
/** Whole seconds in the TTL range, with the CLI's own sentence for a bad TTL. */
const seconds = (name: string, fallback: number, description: string) => {
  const error = (issue: { input?: unknown }) => `${name} must be whole seconds from 1 to ${MAX_TTL_SECONDS} (30 days); got ${shown(issue.input)}`;
  return z.number({ error }).int({ error }).min(1, { error }).max(MAX_TTL_SECONDS, { error }).default(fallback).describe(description);
};
const reservationIds = z
  .array(z.number({ error: expecting("every entry of file_reservation_ids", "a reservation id (a whole number)") }).int(), {
    error: expecting("file_reservation_ids", "a list of reservation ids, as file_reservation_paths returned them"),
  })
  .describe("Reservation ids, as file_reservation_paths returned them.");

const ACTOR =
  "actor id to act as. Derived when omitted: CLAIMS_HOLDER, else the agent session's own id (the one its claims hooks and shell use), else one per connection from the client name (e.g. claude-code-4711-3fa2c81d09e4). Pass an explicit id (your role or task name) when several subagents share one server, or to keep one id across restarts.";

export const claimInput = z.object({
  paths: pathList(
    "paths",
    "What to reserve: a file path (absolute, or relative to the server's working directory; a bare word such as build is a path there too, and one not there yet needs creating: true), a directory with a trailing slash (convex/_generated/), a glob, or path#symbol (utils.js#formatPrice) for one top-level declaration. A name that is no path: name:deploy-lock.",
    true,
  ),
  intent: text("intent", "A short why for this claim, e.g. the ticket or task: shown to every actor it refuses, so they can reconcile from it.").optional(),
  creating: flag(
    "creating",
    "Allow what you are ABOUT TO CREATE: path#symbol for a symbol not yet in its file, and a bare word (build, gen.txt) for a file or directory not yet in the server's working directory, claimed as the path it will be (./build/, ./gen.txt). Without it, a symbol missing from the file is denied with the nearest names, and such a word is denied naming both readings.",
  ).optional(),
  wait: z
    .number({ error: expecting("wait", "seconds to wait, from 0 (at most 120 per call)") })
    .min(0, { error: (issue) => `wait must be seconds from 0 (at most 120 per call); got ${shown(issue.input)}` })
    .describe(
      "Seconds to BLOCK while another actor's claim is in the way, queued so you are granted it in order when it frees. Returns as soon as everything is granted. Capped at 120 per call: call again to keep waiting. Denials waiting cannot fix (a bad path, a missing symbol) return at once.",
    )
    .optional(),
  queue: flag(
    "queue",
    "The ASYNC alternative to wait: if refused, register interest and return at once; you are granted the target in order when it frees, and get_status shows it once under grantedWhileWaiting. Keep working meanwhile.",
  ).optional(),
  actor: text("actor", ACTOR).optional(),
});

export const releaseInput = z.object({
  paths: pathList("paths", "What to release, as claimed. Omitted: every claim of yours. []: nothing.", false).optional(),
  actor: text("actor", ACTOR).optional(),
});

export const getStatusInput = z.object({
  actor: text("actor", ACTOR).optional(),
});

export const checkInput = z.object({
  paths: pathList("paths", "The paths you are about to write.", true),
  actor: text("actor", ACTOR).optional(),
});

export const handoverInput = z.object({
  path: text("path", "The target, as you would claim it."),
  intent: text("intent", "What you will do with it: the note the holder and later waiters see.").optional(),
  creating: flag(
    "creating",
    "Allow what its holder is ABOUT TO CREATE: path#symbol for a symbol not yet in its file, and a bare word for a file not yet in the server's working directory, as the path it will be.",
  ).optional(),
  to: text("to", "Hand YOUR claim on path directly to this actor, instead of queueing behind the holder.").optional(),
  actor: text("actor", ACTOR).optional(),
});

const PROJECT_KEY = "Absolute path of the repository's primary checkout.";
const AGENT_NAME = "Your agent name: the holder of the reservations.";

export const reservePathsInput = z.object({
  project_key: text("project_key", PROJECT_KEY),
  agent_name: text("agent_name", AGENT_NAME),
  paths: pathList("paths", "Repository-relative paths or globs.", true),
  ttl_seconds: seconds("ttl_seconds", 3600, "Seconds, default 3600, at most 2592000 (30 days)."),
  exclusive: flag("exclusive", "Default true. Shared reservations conflict only with exclusive ones.").default(true),
  reason: text("reason", "Shown to agents whose reservation conflicts.").optional(),
  idempotency_key: text(
    "idempotency_key",
    "Nonempty key for this tool and agent. Identical arguments replay with idempotent_replay:true; different arguments fail with IDEMPOTENCY_KEY_CONFLICT. Keys are kept 7 days.",
  ).optional(),
});

export const renewReservationsInput = z.object({
  project_key: text("project_key", PROJECT_KEY),
  agent_name: text("agent_name", AGENT_NAME),
  extend_seconds: seconds("extend_seconds", 1800, "Seconds to add to each reservation's expiry (from now, if it has passed). Default 1800."),
  paths: pathList("paths", "Only the reservations of these patterns, as reserved.", false).optional(),
  file_reservation_ids: reservationIds.optional(),
});

export const releaseReservationsInput = z.object({
  project_key: text("project_key", PROJECT_KEY),
  agent_name: text("agent_name", AGENT_NAME),
  paths: pathList("paths", "Only the reservations of these patterns, as reserved.", false).optional(),
  file_reservation_ids: reservationIds.optional(),
});

export type ClaimInput = z.output<typeof claimInput>;
export type ReleaseInput = z.output<typeof releaseInput>;
export type GetStatusInput = z.output<typeof getStatusInput>;
export type CheckInput = z.output<typeof checkInput>;
export type HandoverInput = z.output<typeof handoverInput>;
export type ReservePathsInput = z.output<typeof reservePathsInput>;
export type RenewReservationsInput = z.output<typeof renewReservationsInput>;
export type ReleaseReservationsInput = z.output<typeof releaseReservationsInput>;

/** The JSON Schema tools/list advertises for an input schema. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  return json;
}

/** A schema violation as one sentence (the first one found). */
export function violationOf(error: z.ZodError): string {
  const first = error.issues[0];
  return `${first?.message ?? "invalid arguments"}.`;
}
