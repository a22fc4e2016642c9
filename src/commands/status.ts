// status: what is claimed, by whom, for what, and whether it is still fresh. Needs no holder
// unless --mine is given.
import { freshnessOf, type Claim } from "../claim.js";
import { displayTarget, holderOf, kindOf, openContext, parseTargets, type CommonOptions } from "../protocol.js";
import type { ClaimRead } from "../store.js";
import { formatTimestamp } from "../time.js";
import type { TargetKind } from "../target.js";

export interface StatusOptions extends CommonOptions {
  /** Only these targets; none means every claim in the directory. */
  targets?: string[];
  /** Only the caller's own claims (needs a holder). */
  mine?: boolean;
}

export interface ClaimStatus extends Claim {
  kind: TargetKind;
  stale: boolean;
  heartbeat_age_seconds: number;
  /** The TTL this claim is judged by: its own `ttl`, else the default. */
  ttl_seconds: number;
  /** The heartbeat lies in the future: the writer's clock is ahead. Counted as fresh. */
  clock_skew: boolean;
  /** Present when a holder is known: whether the claim is the caller's. */
  mine?: boolean;
}

export interface UnreadableStatus {
  file: string;
  target: string;
  reason: string;
  modified_at: string;
  /** Judged by the file's mtime against the default TTL: once stale it may be taken over or swept. */
  stale: boolean;
}

export interface StatusResult {
  dir: string;
  claims: ClaimStatus[];
  unreadable: UnreadableStatus[];
  /** Named targets that nobody holds. */
  free: string[];
}

export function status(options: StatusOptions = {}): StatusResult {
  const context = openContext(options);
  const holder = options.mine ? holderOf(options) : tryHolder(options);
  const result: StatusResult = { dir: context.settings.dir, claims: [], unreadable: [], free: [] };
  const named = options.targets ?? [];
  const entries: Array<{ fileName: string; target: string; read: ClaimRead }> =
    named.length > 0
      ? parseTargets(named, context).map((target) => ({
          fileName: target.fileName,
          target: target.canonical,
          read: context.store.read(target.fileName),
        }))
      : context.store.list().map(({ fileName, read }) => ({ fileName, target: displayTarget(fileName, read), read }));

  for (const { fileName, target, read } of entries) {
    if (read.state === "missing") {
      result.free.push(target);
    } else if (read.state === "unreadable") {
      if (options.mine) continue;
      result.unreadable.push({
        file: fileName,
        target,
        reason: read.reason,
        modified_at: formatTimestamp(read.mtimeMs),
        stale: context.nowMs - read.mtimeMs > context.settings.ttl * 1000,
      });
    } else {
      const { claim } = read;
      if (options.mine && claim.holder !== holder) continue;
      const freshness = freshnessOf(claim, context.nowMs, context.settings.ttl);
      const entry: ClaimStatus = {
        ...claim,
        kind: kindOf(claim.target),
        stale: freshness.stale,
        heartbeat_age_seconds: Math.floor(freshness.ageMs / 1000),
        ttl_seconds: freshness.ttl,
        clock_skew: freshness.skewed,
      };
      if (holder !== undefined) entry.mine = claim.holder === holder;
      result.claims.push(entry);
    }
  }
  return result;
}

/** status marks the caller's own claims when it can tell who the caller is, and works without. */
function tryHolder(options: CommonOptions): string | undefined {
  try {
    return holderOf(options);
  } catch {
    return undefined;
  }
}
