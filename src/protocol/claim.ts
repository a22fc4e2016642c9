// The claim file format: five required fields, plus optional fields that later features add
// (`ttl` today). Unknown fields are kept when a claim is rewritten, so a newer writer's state
// survives a beat by an older one.
import { formatTimestamp, isAheadOfClock, parseTimestamp } from "../os/time.js";

export const DEFAULT_TTL_SECONDS = 1800;
export const MAX_TTL_SECONDS = 30 * 24 * 3600;

export interface Claim {
  target: string;
  holder: string;
  purpose: string;
  taken_at: string;
  heartbeat_at: string;
  /** Seconds after the last heartbeat at which the claim goes stale; absent means the reader's default TTL. */
  ttl?: number;
  /** "shared": coexists with other shared claims, conflicts with exclusive ones. Absent means exclusive. */
  mode?: "shared" | "exclusive";
  /** The fencing token of this holding: strictly increasing per target (src/protocol/fencing.ts). */
  token?: number;
  [extra: string]: unknown;
}

export type ParsedClaim = { ok: true; claim: Claim } | { ok: false; reason: string };

export type Mode = "shared" | "exclusive";

export function newClaim(target: string, holder: string, purpose: string, nowMs: number, ttl?: number, mode: Mode = "exclusive"): Claim {
  const at = formatTimestamp(nowMs);
  const claim: Claim = { target, holder, purpose, taken_at: at, heartbeat_at: at };
  if (ttl !== undefined) claim.ttl = ttl;
  if (mode === "shared") claim.mode = "shared";
  return claim;
}

/**
 * A plain copy of a parsed claim, for output: Object.assign, which V8 runs several times faster than
 * a spread of an object JSON.parse made (status copies 10,000). A claim file that names a
 * "__proto__" field keeps it as a field, as a spread does; Object.assign would make it the copy's
 * prototype, and its fields (mode, mine, stale) would show through as the claim's own.
 */
export function copyOfClaim(claim: Claim): Claim {
  return Object.prototype.hasOwnProperty.call(claim, "__proto__") ? { ...claim } : Object.assign({}, claim);
}

export function modeOf(claim: Claim): Mode {
  return claim.mode === "shared" ? "shared" : "exclusive";
}

export function serializeClaim(claim: Claim): string {
  return `${JSON.stringify(claim, null, 2)}\n`;
}

/** Parses and validates claim bytes. Never throws: a bad claim is a handled state, not a crash. */
export function parseClaim(text: string): ParsedClaim {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: text.length === 0 ? "the file is empty" : "the file is not valid JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, reason: "the file is not a JSON object" };
  }
  const record = value as Record<string, unknown>;
  for (const field of ["target", "holder"] as const) {
    if (typeof record[field] !== "string" || record[field] === "") {
      return { ok: false, reason: `field "${field}" is missing or not a non-empty string` };
    }
  }
  if (typeof record.purpose !== "string") return { ok: false, reason: 'field "purpose" is missing or not a string' };
  for (const field of ["taken_at", "heartbeat_at"] as const) {
    if (parseTimestamp(record[field]) === undefined) {
      return { ok: false, reason: `field "${field}" is not a UTC ISO-8601 timestamp ending in Z` };
    }
  }
  if (record.ttl !== undefined && !isValidTtl(record.ttl)) {
    return { ok: false, reason: `field "ttl" is not whole seconds from 1 to ${MAX_TTL_SECONDS}` };
  }
  if (record.token !== undefined && !(Number.isSafeInteger(record.token) && (record.token as number) > 0)) {
    return { ok: false, reason: 'field "token" is not a positive whole number' };
  }
  if (record.mode !== undefined && record.mode !== "shared" && record.mode !== "exclusive") {
    return { ok: false, reason: 'field "mode" is neither "shared" nor "exclusive"' };
  }
  return { ok: true, claim: record as Claim };
}

export function isValidTtl(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_TTL_SECONDS;
}

export interface Freshness {
  /** Heartbeat older than the TTL: anyone may take the claim over. */
  stale: boolean;
  /** Milliseconds since the last heartbeat; negative when the heartbeat is in the future. */
  ageMs: number;
  /** The heartbeat lies a second or more in the future (clock skew; less is its writer rounding up). It counts as fresh. */
  skewed: boolean;
  ttl: number;
  /** Fresh only for a file's mtime more than a TTL ahead of a clock not read: reading it may change the answer. */
  mtimeAhead: boolean;
}

/** How `now` stands to the files' mtimes: on no common clock, on the kernel's (a local disk, unmeasured), or on a clock just read. */
export interface MtimeClock {
  /** `now` and the mtimes are on one clock: a claim is stale only when its file is old too. */
  onClock: boolean;
  /** That clock was read by a probe (not merely this process's, which may be skewed): an mtime far ahead of it is a copy's. */
  measured: boolean;
}

/**
 * The staleness rule: stale when now - heartbeat_at > ttl seconds, the claim's own ttl first. A
 * heartbeat in the future is clock skew and counts as fresh, unless it lies more than a TTL ahead:
 * no clock is that wrong for long, and such a claim would otherwise block its target for as long
 * as the bad clock said. Then the file's mtime stands in for the heartbeat.
 *
 * `clock.onClock`: `now` and the file's mtime come from one clock, the filesystem's (the real
 * time; src/os/filesystem.ts). Then a claim is stale only when its file, too, was last written more
 * than a TTL ago: a heartbeat that looks stale in a file written within the TTL was stamped by a
 * skewed clock (a script, an older client, libfaketime), and taking it over would rob a live
 * holder. Off where the caller fixed `now` (tests), and on a network filesystem whose clock could
 * not be read. `clock.measured`: an mtime more than a TTL ahead of a clock just read was not
 * stamped as its file was written (a copy that kept a far clock's times: tar, rsync -a, cp -p) and
 * says nothing of age; ahead of this process's own clock, it may be this clock that is behind.
 * `mtimeAhead` says the answer hung on such an mtime, for a caller that can read the clock.
 */
export function freshnessOf(claim: Pick<Claim, "heartbeat_at" | "ttl">, nowMs: number, defaultTtl: number, mtimeMs: number, clock: MtimeClock = { onClock: false, measured: false }): Freshness {
  const ttl = claim.ttl ?? defaultTtl;
  const ageMs = nowMs - (parseTimestamp(claim.heartbeat_at) as number);
  const mtimeAhead = clock.onClock && mtimeMs - nowMs > ttl * 1000;
  const fileAged = nowMs - mtimeMs > ttl * 1000 || (mtimeAhead && clock.measured);
  const stale = ageMs < -ttl * 1000 ? fileAged : ageMs > ttl * 1000 && (!clock.onClock || fileAged);
  const hungOnMtime = !stale && !clock.measured && mtimeAhead && Math.abs(ageMs) > ttl * 1000;
  return { stale, ageMs, skewed: isAheadOfClock(ageMs), ttl, mtimeAhead: hungOnMtime };
}
