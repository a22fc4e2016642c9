// Timestamps on disk are UTC ISO-8601 ending in `Z`. Writers write whole seconds; readers also
// accept fractions (a claim written by a shell script with `date -u +%FT%TZ` or by another tool).

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export function formatTimestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** Milliseconds since the epoch, or undefined when the text is not a UTC ISO-8601 timestamp. */
export function parseTimestamp(text: unknown): number | undefined {
  if (typeof text !== "string" || !TIMESTAMP.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
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
