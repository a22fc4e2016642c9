// The history checker: from every worker's record of what it was told and when, and from the
// store and the log at the end, finds any violation of the guard.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseClaim } from "../../src/protocol/claim.js";
import { logFiles } from "../../src/protocol/log.js";
import { overlaps, shapeOf } from "../../src/targets/overlap.js";

interface Event {
  holder: string;
  op: string;
  t0: number;
  t1: number;
  targets?: string[];
  granted?: Array<{ target: string; taken_at: string; heartbeat_at: string; action: string; token?: number }>;
  /** fence: a check --token of `target` under `token` let the write through. */
  target?: string;
  token?: number;
  allowed?: boolean;
  renewed?: string[];
  released?: string[];
  lost?: string[];
  unreadable?: number;
  error?: string;
}

interface Interval {
  holder: string;
  target: string;
  /** When the take that granted it began: its token was issued after this. */
  began: number;
  start: number;
  end: number;
}

export interface Verdict {
  operations: number;
  intervals: number;
  violations: string[];
}

/**
 * A holder holds a target, by what it was told, from the end of the take that granted it (or the
 * beat that renewed it after it went stale) until it asked to release it, was told it lost it, or
 * its heartbeat (the earliest the beat could have written, whole seconds) plus the TTL passed.
 */
export function check(histories: string[], dir: string, ttlSeconds: number, links: Array<[string, string]> = []): Verdict {
  // Two targets overlap by the rules, or through a symlink a glob among them matches.
  const related = (a: string, b: string) =>
    overlaps(shapeOf(a), shapeOf(b)) ||
    links.some(([glob, real]) => (a === glob && overlaps(shapeOf(real), shapeOf(b))) || (b === glob && overlaps(shapeOf(real), shapeOf(a))));
  const events = histories.flatMap((text) => text.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Event));
  events.sort((a, b) => a.t0 - b.t0);
  const ttl = ttlSeconds * 1000;
  const violations: string[] = [];
  const intervals: Interval[] = [];
  const open = new Map<string, { began: number; start: number; heartbeat: number }>();
  const fences: Array<{ holder: string; target: string; token: number; at: number; grantedAt: number }> = [];
  const grantedAt = new Map<string, number>();
  const acknowledged = new Set<string>();
  const close = (holder: string, target: string, end: number) => {
    const key = `${holder}\n${target}`;
    const holding = open.get(key);
    if (!holding) return;
    intervals.push({ holder, target, began: holding.began, start: holding.start, end: Math.min(end, holding.heartbeat + ttl) });
    open.delete(key);
  };
  const expire = (holder: string, now: number) => {
    for (const [key, holding] of open) if (key.startsWith(`${holder}\n`) && now > holding.heartbeat + ttl) close(holder, key.slice(holder.length + 1), now);
  };
  for (const event of events) {
    if (event.error) violations.push(`${event.holder} ${event.op} failed: ${event.error}`);
    if (event.unreadable) violations.push(`${event.holder} saw ${event.unreadable} unreadable claim file(s) at ${event.t0}`);
    expire(event.holder, event.t0);
    for (const claim of event.granted ?? []) {
      acknowledged.add(`${event.holder}\n${claim.target}\n${claim.taken_at}`);
      const key = `${event.holder}\n${claim.target}`;
      const heartbeat = Date.parse(claim.heartbeat_at);
      let holding = open.get(key);
      // Granted anew (not re-taken): its earlier holding had ended, at the latest when its lease
      // ran out; merging the two would lay the earlier one over whoever held the target between.
      if (holding && claim.action !== "retaken") {
        close(event.holder, claim.target, holding.heartbeat + ttl);
        holding = undefined;
      }
      if (holding) holding.heartbeat = heartbeat;
      else open.set(key, { began: event.t0, start: event.t1, heartbeat });
      if (claim.token !== undefined && claim.action !== "retaken") grantedAt.set(`${event.holder}\n${claim.target}\n${claim.token}`, event.t1);
    }
    if (event.op === "fence" && event.allowed) {
      const at = grantedAt.get(`${event.holder}\n${event.target}\n${event.token}`);
      if (at !== undefined) fences.push({ holder: event.holder, target: event.target as string, token: event.token as number, at: event.t0, grantedAt: at });
    }
    for (const target of event.renewed ?? []) {
      const key = `${event.holder}\n${target}`;
      const heartbeat = Math.floor(event.t0 / 1000) * 1000;
      const holding = open.get(key);
      if (holding) holding.heartbeat = heartbeat;
      else open.set(key, { began: event.t0, start: event.t1, heartbeat });
    }
    for (const target of event.lost ?? []) {
      const holding = open.get(`${event.holder}\n${target}`);
      if (holding && event.t1 < holding.heartbeat + ttl - 1000) {
        violations.push(`${event.holder} was told it lost ${target} at ${event.t1}, while its heartbeat ${holding.heartbeat} was still fresh: an acknowledged claim was lost`);
      }
      close(event.holder, target, event.t0);
    }
    for (const target of event.released ?? []) close(event.holder, target, event.t0);
  }
  for (const [key] of open) {
    const [holder, target] = key.split("\n") as [string, string];
    close(holder, target, Number.POSITIVE_INFINITY);
  }
  for (let i = 0; i < intervals.length; i++) {
    for (let j = i + 1; j < intervals.length; j++) {
      const a = intervals[i] as Interval;
      const b = intervals[j] as Interval;
      if (a.holder === b.holder || !(a.start < b.end && b.start < a.end)) continue;
      if (!related(a.target, b.target)) continue;
      violations.push(`${a.holder} held ${a.target} over [${a.start}, ${a.end}] while ${b.holder} held ${b.target} over [${b.start}, ${b.end}]`);
    }
  }
  // A token fences every write its claim covered: once another holder was granted anything
  // overlapping after it (its take began after this token was acknowledged), check --token must
  // not let a write under it through.
  for (const fence of fences) {
    const later = intervals.find((other) => other.holder !== fence.holder && other.began > fence.grantedAt && other.start < fence.at && related(other.target, fence.target));
    if (later) violations.push(`${fence.holder}'s check of ${fence.target} under token ${fence.token} let a write through at ${fence.at}, after ${later.holder} was granted ${later.target} at ${later.start}`);
  }
  // The store at the end: every claim parses, and every claim is one a take acknowledged or the queue granted.
  const grants = grantsInLog(dir, violations);
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".json") || name.startsWith(".")) continue;
    const parsed = parseClaim(readFileSync(join(dir, name), "utf8"));
    if (!parsed.ok) {
      violations.push(`${name} does not parse: ${parsed.reason}`);
      continue;
    }
    const { holder, target, taken_at } = parsed.claim;
    if (!acknowledged.has(`${holder}\n${target}\n${taken_at}`) && !grants.has(`${holder}\n${target}`)) {
      violations.push(`${name} holds ${holder}'s claim taken at ${taken_at}, which no take acknowledged and no grant wrote`);
    }
  }
  return { operations: events.length, intervals: intervals.length, violations };
}

/** Grants from the log; a queue entry granted twice (two grants without a new queueing between) is a violation. */
function grantsInLog(dir: string, violations: string[]): Set<string> {
  const granted = new Set<string>();
  const pending = new Set<string>();
  // The log is renamed aside past 1 MiB, which a run of this size passes: every file, oldest first.
  const text = logFiles(dir).map((path) => readFileSync(path, "utf8")).join("\n");
  for (const line of text.trim().split("\n").filter(Boolean)) {
    const entry = JSON.parse(line) as { event: string; target: string; holder: string };
    const key = `${entry.holder}\n${entry.target}`;
    if (entry.event === "queue") pending.add(key);
    if (entry.event === "grant") {
      if (!pending.has(key) && granted.has(key)) violations.push(`${entry.holder}'s interest in ${entry.target} was granted twice`);
      pending.delete(key);
      granted.add(key);
    }
  }
  return granted;
}
