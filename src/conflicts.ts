// Who stands in the way of a take: every fresh claim of another holder whose target overlaps,
// unless both are shared. Candidates are found from claim file names alone (the name encodes
// the target), so only claims that can overlap are read, however many the directory holds.
import { freshnessOf, modeOf, type Mode } from "./claim.js";
import { overlaps, shapeOf, type TargetShape } from "./overlap.js";
import type { Context, Holding } from "./protocol.js";
import { holdingOf, unreadableHolding } from "./protocol.js";
import { partsOfFileName } from "./target.js";

export function findConflicts(
  target: TargetShape,
  mode: Mode,
  holder: string | undefined,
  context: Context,
  fileNames: string[],
): Holding[] {
  const conflicts: Holding[] = [];
  for (const fileName of fileNames) {
    const named = partsOfFileName(fileName).target;
    if (named !== undefined && !overlaps(target, shapeOf(named))) continue;
    const read = context.store.read(fileName);
    if (read.state === "missing") continue;
    if (read.state === "unreadable") {
      // Nobody knows whose it is or what mode: held until its mtime is older than the TTL.
      if (named === undefined || context.nowMs - read.mtimeMs > context.settings.ttl * 1000) continue;
      conflicts.push(withTarget(unreadableHolding(named, read, context), target.canonical));
      continue;
    }
    const { claim } = read;
    if (holder !== undefined && claim.holder === holder) continue;
    if (named === undefined && !overlaps(target, shapeOf(claim.target))) continue;
    if (mode === "shared" && modeOf(claim) === "shared") continue;
    if (freshnessOf(claim, context.nowMs, context.settings.ttl).stale) continue;
    conflicts.push(withTarget(holdingOf(claim, context), target.canonical));
  }
  return conflicts;
}

/** A refusal names the target asked for; when the claim in the way is on another target, that one too. */
function withTarget(holding: Holding, requested: string): Holding {
  if (holding.target === requested) return holding;
  return { ...holding, target: requested, held_target: holding.target };
}
