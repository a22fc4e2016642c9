// The refusal sentence, in one place: the CLI, the agent hooks and the MCP tools all name the
// holder, the purpose, the heartbeat's age and how the claim in the way stands to the target asked
// for in these words (error strings are a tested contract).
import { claimCovers, shapeOf } from "../targets/overlap.js";
import { formatAge } from "../os/time.js";
import type { Holding } from "./context.js";

/** A purpose as it is quoted in messages. */
export function quoted(purpose: string): string {
  return purpose === "" ? "(no purpose given)" : JSON.stringify(purpose);
}

function heartbeat(holding: Holding): string {
  return `heartbeat ${formatAge(holding.heartbeat_age_seconds * 1000)}${holding.heartbeat_age_seconds >= 0 ? " ago" : ""}`;
}

/** The refusal sentence: holder, purpose, heartbeat age. */
export function describeHolding(holding: Holding): string {
  if (holding.unreadable) {
    return `its claim file cannot be read (${holding.unreadable}); it counts as held until it is older than the TTL (modified ${formatAge(holding.heartbeat_age_seconds * 1000)} ago)`;
  }
  if (holding.queued) {
    const on = holding.held_target ? ` (for ${holding.held_target})` : "";
    return `${holding.holder} is queued ahead of you${on} for ${quoted(holding.purpose)}: the queue goes first`;
  }
  const claim = holding.held_target ? `${whereHeld(holding.target, holding.held_target, holding.shared === true)} ` : holding.shared ? "shared and " : "";
  const overlap = holding.overlap ? `; ${holding.overlap}` : "";
  return `${claim}held by ${holding.holder} for ${quoted(holding.purpose)} (${heartbeat(holding)})${overlap}`;
}

/**
 * How the claim in the way stands to the target asked for: above it (`D/` for `D/a.js`), inside
 * it (`D/a.js` when `D/` was asked for, a symbol of the file), or beside it (two globs).
 */
function whereHeld(target: string, heldTarget: string, shared: boolean): string {
  const [asked, held] = [shapeOf(target), shapeOf(heldTarget)];
  const claim = `${shared ? "shared " : ""}claim on ${heldTarget}`;
  if (claimCovers(held, asked)) return `covered by the ${claim},`;
  if (claimCovers(asked, held)) return `the ${claim} inside it is`;
  return `overlaps the ${claim},`;
}
