// The tools the server offers: name, description (written for the agent that reads it: when to
// call, what a refusal means, how to reconcile), input schema and handler. Names and arguments
// are the reference systems' own (docs/MCP.md).
import type * as z from "zod";
import type { Call } from "./call.js";
import { CLAIM_FLAGS, claimTool } from "./claim.js";
import { checkTool, getStatusTool, handoverTool, releaseTool } from "./session-tools.js";
import { releaseReservationsTool, renewReservationsTool, RESERVATION_FLAGS, reservePathsTool } from "./reservations.js";
import type { FlagNames, ToolResult } from "./results.js";
import * as schemas from "./schemas.js";

export interface Tool {
  name: string;
  description: string;
  input: z.ZodType;
  /** For clients that show or gate tools: whether a call only reads. */
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
  /** How the CLI's flags in a message are named in this tool's arguments. */
  flags: FlagNames;
  run(input: unknown, call: Call): Promise<ToolResult>;
}

function tool<S extends z.ZodType>(
  name: string,
  input: S,
  readOnly: boolean,
  flags: FlagNames,
  run: (input: z.output<S>, call: Call) => Promise<ToolResult>,
  description: string,
): Tool {
  return {
    name,
    description,
    input,
    annotations: { readOnlyHint: readOnly, destructiveHint: false, idempotentHint: readOnly, openWorldHint: false },
    flags,
    run: (value, call) => run(value as z.output<S>, call),
  };
}

export const TOOLS: Tool[] = [
  tool(
    "claim",
    schemas.claimInput,
    false,
    CLAIM_FLAGS,
    claimTool,
    `Reserve files and symbols BEFORE you edit them, so no other agent on this machine overwrites your work or you theirs. Use a bare path for a whole file, a trailing slash for a whole directory (convex/_generated/, right for codegen output), a glob, or path#symbol (utils.js#formatPrice) for one top-level declaration, so others can edit other parts of the same file. A bare word is a path in the server's working directory. A symbol the file does not declare, or a bare word naming nothing there yet, is an error (pass creating: true for what you are about to create; the symbol's error names the nearest one as a suggestion). Write name:word for a name that is no path. Pass a short intent: an agent you block reconciles from it.
All or nothing: if any path is held by another actor, nothing is taken, and that path's result names the holder, their holderIntent and when their claim expires (holderExpiresAt). That is an answer, not an obstacle: reconcile from their intent (work elsewhere, split the work, ask), or pass queue: true to be granted it in order when it frees while you keep working, or wait: seconds (at most 120 per call) to block until then. Never edit a path you were refused.
Claiming paths you already hold renews them (do it before expiresAt on long tasks); release when done.`,
  ),
  tool(
    "release",
    schemas.releaseInput,
    false,
    CLAIM_FLAGS,
    releaseTool,
    "Release your claims when you are done editing, so waiting agents get them (the first one queued is granted it at once). Omit paths to release every claim of yours; [] releases nothing. Also withdraws your queued interest in those paths. Reports released, and expired: claims of yours that had lapsed (another actor may hold them now; nowHeldBy says who).",
  ),
  tool(
    "get_status",
    schemas.getStatusInput,
    true,
    CLAIM_FLAGS,
    getStatusTool,
    "List the live claims on this machine: path, holder, intent, expiry, and who is queued behind each (mine: true for yours). grantedWhileWaiting lists what you were granted from the queue since you last looked, shown once: you hold those now, so edit them and release when done.",
  ),
  tool(
    "check",
    schemas.checkInput,
    true,
    CLAIM_FLAGS,
    checkTool,
    "Read-only: may you write these paths now? mayWrite is true when every path is free or yours; otherwise refused names each holder, their intent and expiry. An actor queued for a path ahead of you is in the way too (the queue goes first). Takes nothing: claim before you edit.",
  ),
  tool(
    "handover",
    schemas.handoverInput,
    false,
    CLAIM_FLAGS,
    handoverTool,
    "Queue behind the holder of a path with a note of what you will do (intent): when it frees you are granted it, in order, and get_status shows it under grantedWhileWaiting. If it is free you get it at once. With to: hand YOUR claim on path directly to that actor (an error if it is not yours).",
  ),
  tool(
    "file_reservation_paths",
    schemas.reservePathsInput,
    false,
    RESERVATION_FLAGS,
    reservePathsTool,
    "Reserve repository-relative paths or globs before you edit them so other agents know and are refused. Returns {granted, conflicts}; grants include reservation ids and expiry times, while conflicts name the requested path and its holders. A conflicting path is not granted (the others are): do not edit it; reconcile with its holder from their reason. Reserving a path you already hold updates it. Extend with renew_file_reservations and release with release_file_reservations when done.",
  ),
  tool(
    "renew_file_reservations",
    schemas.renewReservationsInput,
    false,
    RESERVATION_FLAGS,
    renewReservationsTool,
    "Extend your reservations in project_key by extend_seconds (all of them, or those named by paths or file_reservation_ids) before they expire. A reservation another agent holds now is reported under lost: it lapsed, so check before writing.",
  ),
  tool(
    "release_file_reservations",
    schemas.releaseReservationsInput,
    false,
    RESERVATION_FLAGS,
    releaseReservationsTool,
    "Release your reservations in project_key when done (all of them, or those named by paths or file_reservation_ids). Returns {released, released_at}.",
  ),
];
