// What take is asked and what it answers, apart from take.ts so that take-wait.ts (which take
// loads only for --wait) can name them without the two files importing each other.
import type { GrantedClaim } from "../protocol/acquire.js";
import type { CommonOptions, Holding } from "../protocol/context.js";
import type { Note } from "../protocol/grant.js";

/** A wait longer than this is better done with --queue. */
export const MAX_WAIT_SECONDS = 3600;

export interface TakeOptions extends CommonOptions {
  targets: string[];
  /** Why: shown to every session this claim refuses. A re-take without a purpose keeps the old one. */
  purpose?: string;
  /** Shared claims coexist with each other and conflict with exclusive ones (the default). */
  shared?: boolean;
  /** Take what is free and report the rest, instead of all or nothing. */
  partial?: boolean;
  /** Allow `file#symbol` for a symbol about to be added; otherwise a symbol the file lacks is bad input. */
  creating?: boolean;
  /** Take a target that covers `/`, a home directory or a whole repository (otherwise bad input). */
  force?: boolean;
  /** A retry with the same key and arguments returns the first result (for 7 days) instead of acting again. */
  idempotencyKey?: string;
  /** When refused, queue an interest in every target and return at once; each is granted in order as it frees. */
  queue?: boolean;
  /** When refused, queue and wait up to this many seconds for every target (see take-wait.ts). */
  wait?: number;
  /** Called while waiting, about once a second, with what is still in the way. */
  onWaiting?: (refused: Holding[], waitedMs: number) => void;
  /** Stops a wait early (Ctrl-C): nothing is left behind. */
  signal?: AbortSignal;
  /**
   * When the call began, in milliseconds since the epoch, if earlier than this function was called
   * (the CLI passes its process start). Only for the warning about a TTL shorter than the call.
   */
  startedAt?: number;
  /**
   * Names this call's grants in the holder's held markers (made up when not given). A caller that
   * may give back what the take granted, its answer having reached nobody (giveBackGrants), passes
   * one and gives it back with it: only what no other call was told the holder holds since goes.
   */
  grant?: string;
  /**
   * For a caller that may yet give back what the take granted (an MCP call its client may cancel):
   * the take leaves the holder's claims in the other mode of the targets it switched between shared
   * and exclusive in place, and sets `stand`, which removes them, for the caller to call once it
   * keeps the grants. Until then the holder holds both, and nobody can share what it held exclusively.
   */
  standing?: { stand?: () => void };
  /**
   * Per target (canonical), the highest fencing token issued on it, or anything overlapping it, in
   * the other claims directories the take looked in (src/commands/take-links.ts): a token issued
   * here is above it, so tokens keep increasing per target across a pinned directory, the default
   * one XDG_STATE_HOME moves and the one it moves from, and another package's (docs/PROTOCOL.md 4a).
   */
  tokenFloors?: ReadonlyMap<string, number>;
}

/** A claim take granted; a re-take that changed the purpose or the TTL also names the one it replaced. */
export interface TakenClaim extends GrantedClaim {
  /** action "retaken", or a mode switch (previous_mode): the purpose the claim had before this take replaced it. */
  previous_purpose?: string;
  /** action "retaken", or a mode switch (previous_mode): the TTL (seconds) the claim had before this take's --ttl replaced it; null: it had none of its own. */
  previous_ttl?: number | null;
  /**
   * The mode of the holder's own claim on the target this take replaced (shared ↔ exclusive): the
   * holding goes on in the new mode. Its purpose and TTL, where this take changed them, are in
   * previous_purpose and previous_ttl.
   */
  previous_mode?: "shared" | "exclusive";
}

export interface TakeResult {
  holder: string;
  granted: TakenClaim[];
  refused: Holding[];
  /** The caller's interests now waiting in the queue (with --queue / --wait), with their place. */
  queued?: QueuedPlace[];
  /** Handover notes: who is queued on the granted targets, since when and what for. */
  notes?: Note[];
  /** --wait ran out while still refused; nothing was kept. */
  timed_out?: true;
  /** A --wait that ended refused: targets granted meanwhile from a place the holder had queued before it (a handover note), which stay the holder's. */
  granted_from_queue?: string[];
  /** --wait was interrupted (Ctrl-C, SIGTERM) while still refused; nothing was kept. */
  interrupted?: true;
  /** Set when this is the stored first result of an idempotency key. */
  idempotent_replay?: true;
  /** On a replay: targets the first take granted that the caller no longer holds (taken over, swept, released). */
  no_longer_held?: string[];
  /** Notes about the call: one that took longer than the TTL it asked for. */
  warnings?: string[];
  /** Globs granted that match no existing file yet (allowed: the claim covers files created later; but check the pattern). */
  unmatched_globs?: string[];
}

export interface QueuedPlace extends Note {
  /** 1 = next in line for this target. */
  position: number;
}
