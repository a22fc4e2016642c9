// Undoing a take whose answer reaches nobody: a CLI take interrupted (Ctrl-C, SIGTERM) while it
// wrote its claims, an MCP call its client cancelled or abandoned. A holder that was never told it
// holds a path never releases it, and every other session would be refused it for a TTL.
import { openContext, type CommonOptions } from "../protocol/context.js";
import { forget } from "../protocol/idempotency.js";
import { routesOf } from "../protocol/routes.js";
import { inputOf } from "../targets/target.js";
import { release } from "./release.js";
import { giveBack, holds } from "../protocol/acquire.js";
import { grantOf } from "../protocol/held.js";
import { judgedUnderTakeLock } from "../protocol/context.js";
import type { TakenClaim } from "./take-types.js";
import type { TakeOptions, TakeResult } from "./take-types.js";

/**
 * Gives back what `result` granted: a claim the take made goes; one it switched between shared
 * and exclusive was the holder's before, in the other mode, and goes back to that mode (kept as it
 * is where that is refused); one it only renewed stays. The take's idempotency key (`asked`) is
 * forgotten where it was recorded: a retry with it must take afresh, not replay grants given back.
 * `take` is the library's (passed in: src/commands/take.ts uses this too).
 */
export async function giveBackGrants(
  result: TakeResult,
  given: CommonOptions,
  take: (options: TakeOptions) => Promise<TakeResult>,
  asked?: { targets: string[]; idempotencyKey?: string; grant?: string },
): Promise<void> {
  // Where the take acted, and nothing of how: a key, --queue or --partial spread into the restoring
  // take below would replay or refuse it (and the catch would hide that the switch stayed).
  const options: CommonOptions = {
    ...(given.dir !== undefined && { dir: given.dir }),
    ...(given.sessionPinned !== undefined && { sessionPinned: given.sessionPinned }),
    ...(given.ttl !== undefined && { ttl: given.ttl }),
    ...(given.cwd !== undefined && { cwd: given.cwd }),
    ...(given.env !== undefined && { env: given.env }),
    ...(given.configAt !== undefined && { configAt: given.configAt }),
  };
  const key = asked?.idempotencyKey;
  if (asked !== undefined && key !== undefined) {
    const dirs = new Set([openContext(options).store.dir, ...(routesOf(asked.targets, options)?.dirs.keys() ?? [])]);
    for (const dir of dirs) forget({ dir }, result.holder, key);
  }
  const switched = result.granted.filter((claim) => claim.previous_mode !== undefined);
  const fresh = result.granted.filter((claim) => claim.previous_mode === undefined && (claim.action === "taken" || claim.action === "took_over")).map((claim) => inputOf(claim.target));
  // And the interests it queued (--queue with --partial): a grant from the queue later would go to nobody who knows.
  const queued = (result.queued ?? []).map((place) => inputOf(place.target)).filter((target) => !fresh.includes(target));
  // What it granted goes only while no other call was told the holder holds it since (a subagent's
  // take of the same file, the caller's retry with the key): with the take's grant id, under the
  // take lock where every such call tells it (release's `grant`). So does a claim granted from the
  // queue for an interest it queued, which carries its grant id too (QueueEntry.grant).
  const grant = asked?.grant;
  const back = [...fresh, ...queued];
  if (back.length > 0) release({ ...options, holder: result.holder, targets: back, ...(grant !== undefined && { grant }) });
  // A claim it switched goes back to the holder's claim in the old mode, which the take left in
  // place (a take's switch completes once it stands): under the take lock, where every call tells
  // the holder what it holds, the new-mode claim is given back only while its held marker still
  // carries this take's grant id. One another call told the holder it holds since (a beat, a
  // subagent's re-take, an agent hook letting a write through on it) stays, and the holder keeps
  // both. A re-take in the old mode here told the holder it holds that mode, and the switch back
  // removed the claim the other call was told of.
  const restore = grant === undefined ? switched : giveBackSwitched(switched, grant, options, asked?.targets ?? []);
  for (const claim of restore) {
    const ttl = claim.previous_ttl === undefined ? claim.ttl : claim.previous_ttl ?? undefined;
    try {
      await take({
        ...options,
        holder: result.holder,
        targets: [inputOf(claim.target)],
        shared: claim.previous_mode === "shared",
        purpose: claim.previous_purpose ?? claim.purpose,
        ...(ttl !== undefined && { ttl }),
        creating: true,
        force: true,
      });
    } catch {
      // kept in the mode the take asked for: the holder still holds the path
    }
  }
}

/**
 * Of the claims a take switched, under the take lock of each claims directory it may have written
 * in: those whose held marker still carries its grant id and whose claim in the old mode the holder
 * still holds are given back here (the new-mode claim removed, the marker naming the old mode); one
 * another call told the holder it holds since is kept. Returns those whose old-mode claim is gone,
 * to be taken again in that mode (the switch back, as before).
 */
function giveBackSwitched(switched: TakenClaim[], grant: string, options: CommonOptions, targets: string[]): TakenClaim[] {
  if (switched.length === 0) return [];
  const left = new Set(switched);
  const dirs = new Set([openContext(options).store.dir, ...(routesOf(targets, options)?.dirs.keys() ?? [])]);
  for (const dir of dirs) {
    const context = openContext({ ...options, dir });
    const back = () => {
      for (const claim of [...left]) {
        const mode = claim.mode === "shared" ? "shared" : "exclusive";
        if (!holds({ target: claim.target, holder: claim.holder, mode }, context)) continue; // not in this directory
        left.delete(claim);
        if (grantOf(claim.holder, claim.target, context) !== grant) continue; // told held since: it stays
        const old = mode === "shared" ? "exclusive" : "shared";
        if (!holds({ target: claim.target, holder: claim.holder, mode: old }, context)) {
          left.add(claim); // the old-mode claim is gone: taken again below
          continue;
        }
        giveBack(claim, context);
      }
    };
    judgedUnderTakeLock(context, back);
  }
  return [...left];
}
