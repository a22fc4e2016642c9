// Timestamps on disk are UTC ISO-8601 ending in `Z`. Writers write whole seconds; readers also
// accept fractions (a claim written by a shell script with `date -u +%FT%TZ` or by another tool).

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * A stamp that starts or renews a lease: a claim's `taken_at` and `heartbeat_at`, a queued
 * interest's, a grant's. Whole seconds, rounded UP. Staleness is `now - heartbeat_at > ttl`, so a
 * heartbeat rounded down would cut up to a second off every lease (with a TTL of 1 s, another
 * holder could take over a few milliseconds after the grant); rounded up, a lease lasts at least
 * its TTL and less than a second more, and a fresh stamp lies up to a second in the future.
 */
export function formatTimestamp(ms: number): string {
  return formatUtcSeconds(Math.ceil(ms / 1000));
}

/** A stamp of something that already happened (a log line, a file's mtime shown): whole seconds, rounded down. */
export function formatTimestampRoundedDown(ms: number): string {
  return formatUtcSeconds(Math.floor(ms / 1000));
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * `YYYY-MM-DDTHH:MM:SSZ` from seconds since the epoch, computed here (the civil-from-days
 * algorithm of Howard Hinnant's date library) because the first `Date#toISOString` of a process
 * makes V8 load the local time zone (`/etc/localtime` and a readlink per path component), which a
 * UTC stamp never needs. Years 0 to 9999, as every stamp here is.
 */
export function formatUtcSeconds(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const inDay = seconds - days * 86_400;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const time = `${two(Math.floor(inDay / 3600))}:${two(Math.floor((inDay % 3600) / 60))}:${two(inDay % 60)}`;
  return `${String(year).padStart(4, "0")}-${two(month)}-${two(day)}T${time}Z`;
}

/** Milliseconds since the epoch, or undefined when the text is not a UTC ISO-8601 timestamp. */
export function parseTimestamp(text: unknown): number | undefined {
  if (typeof text !== "string" || !TIMESTAMP.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Whether a stamp lies in the future by more than a writer's rounding up explains: clock skew. A
 * stamp less than a second ahead is what every fresh claim carries (formatTimestamp).
 */
export function isAheadOfClock(ageMs: number): boolean {
  return ageMs <= -1000;
}

/**
 * Whole seconds since a stamp, for output: 0 for one up to a second ahead (rounded up by its
 * writer, not skewed), negative only for a stamp further in the future.
 */
export function ageInSeconds(ageMs: number): number {
  return Math.trunc(ageMs / 1000) || 0;
}

/** A short human age: "12s", "4m", "2h 5m", "3d 4h". Negative ages (clock skew) read "in the future". */
export function formatAge(ms: number): string {
  if (ms < 0) return `${formatAge(-ms)} in the future`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d ${h % 24}h` : `${d}d`;
}
