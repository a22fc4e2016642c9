// The other tools of the first reference system (release, get_status), and check and handover,
// which it does not have. Each runs the CLI's own command and only translates arguments and results.
import { ClaimsError } from "../os/errors.js";
import { check } from "../commands/check.js";
import { handover } from "../commands/handover.js";
import { randomHex } from "../os/hash.js";
import { release } from "../commands/release.js";
import { status } from "../commands/status.js";
import { openContext } from "../protocol/context.js";
import { ABANDONED, givenBackIfAbandoned, type Call } from "./call.js";
import { claimAnswer, heldByOther, withoutCreatingNote } from "./claim.js";
import { holderInfo } from "./holdings.js";
import { lazyContext, pathsToCheck, pathToJudge, pathToQueue } from "./paths.js";
import { answer, expiryOf, type ToolResult } from "./results.js";
import type { CheckInput, GetStatusInput, HandoverInput, ReleaseInput } from "./schemas.js";

export async function releaseTool(input: ReleaseInput, call: Call): Promise<ToolResult> {
  const holder = call.holder(input.actor);
  if (input.paths !== undefined && input.paths.length === 0) {
    return answer({ actor: holder, released: [], expired: [], withdrawn: [], handedTo: [] });
  }
  const all = input.paths === undefined;
  // A bare word naming nothing is the path it will be, or the name a claim carries (src/mcp/paths.ts).
  const here = lazyContext(call.common);
  const result = release({ ...call.common, holder, ...(input.paths && { targets: input.paths.map((path) => pathToJudge(path, here)) }) });
  // Everything of yours: a claim you were granted and that is gone or another's now has expired;
  // one you never held was never yours to expire.
  const never = new Set(result.never_held ?? []);
  const expired = [...result.lost.filter((target) => !never.has(target)), ...(all ? result.not_held : [])];
  const shaped: Record<string, unknown> = {
    actor: holder,
    released: result.released,
    expired,
    withdrawn: result.withdrawn,
    handedTo: result.handed_to.map((handed) => ({ path: handed.target, actor: handed.holder })),
  };
  // Released too: handed over to you (or granted from your queue) while the release ran.
  if (result.received) shaped.received = result.received.map((claim) => ({ path: claim.target, ...(claim.handed_by !== undefined && { handedBy: claim.handed_by }) }));
  const notHeld = all ? [] : [...result.not_held, ...never];
  if (notHeld.length > 0) shaped.notHeld = notHeld;
  // A path released in another spelling than claimed (a file of a glob you hold) leaves the claim
  // meant held, blocking others: what you still hold, as the CLI's release says.
  if (notHeld.length > 0 && result.still_held?.length) shaped.stillHeld = result.still_held;
  const nowHeld = result.lost_to.filter((lost) => lost.now_held_by).map((lost) => ({ path: lost.target, holder: lost.now_held_by?.holder, holderIntent: lost.now_held_by?.purpose }));
  if (nowHeld.length > 0) shaped.nowHeldBy = nowHeld;
  return answer(shaped);
}

export async function getStatusTool(input: GetStatusInput, call: Call): Promise<ToolResult> {
  const holder = call.holder(input.actor);
  const here = status({ ...call.common, holder });
  // And the caller's own in the other claims directories its paths live in (a package's own
  // `.claims`): what it claimed, queued for, or was granted there, as status --mine shows them. This
  // directory's listing alone never showed a grant there, which the agent then held unknowing.
  // (Where that look fails, this directory's answer stands, its grants already told: said in a warning.)
  let mine: ReturnType<typeof status> = { ...here, claims: [], queued: [], granted_while_waiting: [] };
  const warnings: string[] = [];
  try {
    mine = status({ ...call.common, holder, mine: true });
  } catch (error) {
    if (!(error instanceof ClaimsError)) throw error;
    warnings.push(`Your claims in other claims directories could not be listed: ${error.message}`);
  }
  const apart = (entry: { claims_dir?: string }) => entry.claims_dir !== undefined && entry.claims_dir !== here.dir;
  // Those a package below this directory holds are listed here already (status from a root).
  const key = (entry: { target: string; holder: string; claims_dir?: string }) => `${entry.claims_dir ?? here.dir}\0${entry.target}\0${entry.holder}`;
  const listed = new Set([...here.claims, ...here.queued].map(key));
  const added = <T extends { target: string; holder: string; claims_dir?: string }>(entries: T[]) => entries.filter((entry) => apart(entry) && !listed.has(key(entry)));
  const result = {
    ...here,
    claims: [...here.claims, ...added(mine.claims)],
    queued: [...here.queued, ...added(mine.queued)],
    granted_while_waiting: [...here.granted_while_waiting, ...mine.granted_while_waiting],
  };
  const live = result.claims.filter((claim) => !claim.stale);
  return answer({
    actor: holder,
    dir: result.dir,
    claims: live.map((claim) => ({
      ...(claim.claims_dir !== undefined && claim.claims_dir !== result.dir && { claimsDir: claim.claims_dir }),
      path: claim.target,
      kind: claim.kind,
      holder: claim.holder,
      intent: claim.purpose,
      mine: claim.mine === true,
      ...(claim.mode === "shared" && { shared: true }),
      takenAt: claim.taken_at,
      heartbeatAt: claim.heartbeat_at,
      expiresAt: expiryOf(claim.heartbeat_at, claim.ttl_seconds),
      ...(typeof claim.token === "number" && { token: claim.token }),
      queue: claim.queue.map((note) => ({ actor: note.holder, intent: note.purpose, queuedAt: note.queued_at })),
    })),
    staleClaims: result.claims.length - live.length,
    queued: result.queued.filter((note) => note.holder === holder).map((note) => ({ path: note.target, intent: note.purpose, queuedAt: note.queued_at, ...(apart(note) && { claimsDir: note.claims_dir }) })),
    grantedWhileWaiting: result.granted_while_waiting.map((grant) => ({
      path: grant.target,
      intent: grant.purpose,
      grantedAt: grant.granted_at,
      ...(grant.previous !== undefined && { reclaimedFrom: grant.previous }),
      ...(grant.handed_by !== undefined && { handedBy: grant.handed_by }),
    })),
    ...(warnings.length > 0 && { warnings }),
  });
}

export async function checkTool(input: CheckInput, call: Call): Promise<ToolResult> {
  const holder = call.holder(input.actor);
  const here = lazyContext(call.common);
  const result = check({ ...call.common, holder, targets: input.paths.flatMap((path) => pathsToCheck(path, here)) });
  const context = here();
  const shaped: Record<string, unknown> = {
    actor: holder,
    mayWrite: result.refused.length === 0,
    allowed: result.allowed,
    refused: result.refused.map((holding) => ({ path: holding.target, ...holderInfo(holding, context) })),
  };
  if (result.warnings?.length) shaped.warnings = result.warnings;
  return answer(shaped);
}

export async function handoverTool(input: HandoverInput, call: Call): Promise<ToolResult> {
  const holder = call.holder(input.actor);
  // Without `to`, a free target is granted: a bare word read as a name must not be while another holds its path.
  const here = lazyContext(call.common);
  const target = input.to === undefined ? pathToQueue(input.path, input.creating === true, here, heldByOther(holder, call)) : pathToJudge(input.path, here);
  const grant = randomHex(8); // this call's grant of a free path, should the client give up on it (givenBackIfAbandoned)
  const standing: { stand?: () => void } = {};
  const result = await handover({
    ...call.common,
    holder,
    target,
    grant,
    standing,
    ...(input.intent !== undefined && { purpose: input.intent }),
    ...(input.creating === true && { creating: true }),
    ...(input.to !== undefined && { to: input.to }),
  });
  if ("to" in result) {
    // The new holding's fencing token, as the CLI prints it: the one the new holder's writes carry.
    return answer({ actor: holder, path: input.path, target: result.target, to: result.to, intent: result.purpose, token: result.token, message: `Handed ${result.target} to ${result.to}: it is theirs now, and no longer yours (their token ${result.token}).` });
  }
  // A free path is granted at once, as a claim's is: given back when the client gave up on the call.
  if (await givenBackIfAbandoned(result, call, call.common, { targets: [target], grant, standing })) return answer({ actor: holder, granted: false, results: [], interrupted: true, message: ABANDONED });
  // `creating` made a bare word the path it will be: the take's note that it changed nothing (it knows of symbols only) is not so.
  const shown = input.creating === true && target !== input.path ? withoutCreatingNote(result) : result;
  return answer(claimAnswer([input.path], shown, openContext(call.common), [target]));
}
