import { suite } from "uvu";
import * as assert from "uvu/assert";
import { formatTimestamp, formatTimestampRoundedDown, formatUtcSeconds } from "../src/os/time.js";

const Stamps = suite("UTC stamps without the time zone");

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(".000Z", "Z");

Stamps("should write what Date#toISOString writes, whole seconds, at the edges of days, months, leap years and eras", () => {
  const edges = ["1970-01-01T00:00:00Z", "1999-12-31T23:59:59Z", "2000-02-29T12:00:00Z", "2000-03-01T00:00:00Z", "2024-02-29T23:59:59Z", "2100-02-28T23:59:59Z", "2100-03-01T00:00:00Z", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z"];
  for (const edge of edges) assert.is(formatUtcSeconds(Date.parse(edge) / 1000), edge);
  let seed = 7;
  for (let i = 0; i < 20_000; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const seconds = Math.floor((seed / 2 ** 31) * 253_402_300_799);
    assert.is(formatUtcSeconds(seconds), iso(seconds));
  }
});

Stamps("should round a lease's stamp up and a past event's down", () => {
  const ms = Date.parse("2026-08-14T21:02:11Z") + 1;
  assert.is(formatTimestamp(ms), "2026-08-14T21:02:12Z");
  assert.is(formatTimestampRoundedDown(ms), "2026-08-14T21:02:11Z");
  assert.is(formatTimestamp(ms - 1), "2026-08-14T21:02:11Z");
});

Stamps.run();
