// The second reference system's tools: file_reservation_paths, renew_file_reservations and
// release_file_reservations. A reservation is a claim whose holder is the agent_name, on a path or
// glob inside project_key; it is taken, renewed and released by the CLI's own take and release, so
// a reservation refuses a `claims take` and the agent hooks as any claim does.
import { existsSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import { MAX_TTL_SECONDS, type Claim } from "../protocol/claim.js";
import { release } from "../commands/release.js";
import { take, type GrantedClaim } from "../commands/take.js";
import { BadInputError } from "../os/errors.js";
import { randomHex, sha256Hex } from "../os/hash.js";
import { claimsOf, openContext, type CommonOptions, type Context, type Holding } from "../protocol/context.js";
import { GLOB_PREFIX, NAME_PREFIX, canonicalPath, claimFileName, inputOf, parseTarget } from "../targets/target.js";
import { escapeLiteral } from "../targets/overlap.js";
import { pinned, pointedFrom } from "../protocol/routes.js";
import { forgetHeld, heldMarkers } from "../protocol/held.js";
import { formatTimestamp, parseTimestamp } from "../os/time.js";
import { ABANDONED, givenBackIfAbandoned, type Call } from "./call.js";
import { expiryOfClaim, holderInfo } from "./holdings.js";
import { answer, type FlagNames, type ToolResult } from "./results.js";
import type { ReleaseReservationsInput, RenewReservationsInput, ReservePathsInput } from "./schemas.js";

export const RESERVATION_FLAGS: FlagNames = { idempotencyKey: "idempotency_key", "pass force: true": "run claims take --force in a shell", "purpose is ": "reason is " };

interface Project {
  /** project_key with symlinks resolved: where relative paths are read from. */
  root: string;
  /** The same directory as canonical targets spell it (escaped, folded where case is ignored). */
  canonical: string;
  home: string;
  options: CommonOptions;
}

export async function reservePathsTool(input: ReservePathsInput, call: Call): Promise<ToolResult> {
  const project = projectOf(input.project_key, call);
  const holder = call.holder(input.agent_name, "agent_name");
  const targets = input.paths.map((path) => insideProject(path, project));
  const grant = randomHex(8); // this call's grants, should the client give up on it (givenBackIfAbandoned)
  const standing: { stand?: () => void } = {};
  const result = await take({
    ...project.options,
    holder,
    targets,
    ttl: input.ttl_seconds,
    shared: !input.exclusive,
    partial: true, // a conflicting path is not granted; the others are
    grant,
    standing,
    ...(input.reason !== undefined && { purpose: input.reason }),
    ...(input.idempotency_key !== undefined && { idempotencyKey: input.idempotency_key }),
  });
  if (await givenBackIfAbandoned(result, call, project.options, { targets, grant, standing, ...(input.idempotency_key !== undefined && { idempotencyKey: input.idempotency_key }) })) return answer({ granted: [], conflicts: [], interrupted: true, message: ABANDONED });
  const context = openContext(project.options);
  const gone = new Set(result.no_longer_held ?? []);
  const conflicts = new Map<string, Holding[]>();
  for (const holding of result.refused) conflicts.set(holding.target, [...(conflicts.get(holding.target) ?? []), holding]);
  const shaped: Record<string, unknown> = {
    granted: result.granted.filter((claim) => !gone.has(claim.target)).map((claim) => reservationOf(claim, project, context)),
    conflicts: [...conflicts].map(([target, holdings]) => ({
      path: relativePattern(target, project),
      holders: holdings.map((holding) => holderOf(holding, project, context)),
    })),
  };
  if (result.idempotent_replay) shaped.idempotent_replay = true;
  if (gone.size > 0) shaped.no_longer_held = [...gone].map((target) => relativePattern(target, project));
  if (result.warnings?.length) shaped.warnings = result.warnings;
  return answer(shaped);
}

export async function renewReservationsTool(input: RenewReservationsInput, call: Call): Promise<ToolResult> {
  const project = projectOf(input.project_key, call);
  const holder = call.holder(input.agent_name, "agent_name");
  const renewed: Array<Record<string, unknown>> = [];
  const lost: Array<Record<string, unknown>> = [];
  const contexts = contextsOf(project, holder);
  const selected = contexts.flatMap((context) => selectReservations(holder, input, project, context).map((claim) => [context, claim] as const));
  // A path named that is no longer the agent's (lapsed and taken by another, or released): lost too,
  // with whoever holds it now, not left out of the answer.
  for (const path of input.paths ?? []) {
    const canonical = parseTarget(insideProject(path, project), { cwd: project.root, home: project.home }).canonical;
    if (selected.some(([, claim]) => claim.target === canonical)) continue;
    lost.push({ path_pattern: relativePattern(canonical, project), holders: contexts.flatMap((context) => othersClaim(canonical, holder, project, context)) });
  }
  // Without paths: what the agent was granted in the project and is no longer its own (lapsed and
  // taken, or swept), as release reports it (`expired`); said once, as beat says it. An id named
  // that names none of its reservations now is lost too.
  if (input.paths === undefined && input.file_reservation_ids === undefined) {
    for (const context of contexts) {
      const mine = new Set(claimsOf(holder, context).map(({ claim }) => claim.target));
      for (const marker of heldMarkers(holder, context)) {
        if (mine.has(marker.target) || !(marker.target === project.canonical || marker.target.startsWith(under(project)))) continue;
        lost.push({ path_pattern: relativePattern(marker.target, project), holders: othersClaim(marker.target, holder, project, context) });
        forgetHeld(holder, marker.target, context);
      }
    }
  }
  const found = new Set(selected.map(([, claim]) => reservationIdOf(claim)));
  for (const id of input.file_reservation_ids ?? []) if (!found.has(id)) lost.push({ id, holders: [] });
  for (const [context, claim] of selected) {
    // The new lease runs extend_seconds past the old expiry (past now, if that has gone by): a
    // re-take of one's own claim with that TTL, which renews the heartbeat and keeps taken_at.
    const oldExpiry = expiryOfClaim(claim, context);
    // Whole seconds left, rounded down: the new heartbeat is stamped rounded up to the next second,
    // so rounded up here too, each renewal ran a second longer than asked.
    const leftSeconds = Math.max(0, Math.floor(((parseTimestamp(oldExpiry) as number) - Date.now()) / 1000));
    const ttl = Math.min(MAX_TTL_SECONDS, leftSeconds + input.extend_seconds);
    const result = await take({ ...project.options, dir: context.settings.dir, sessionPinned: pinned(project.options), holder, targets: [inputOf(claim.target)], ttl, shared: claim.mode === "shared", creating: true });
    const [again] = result.granted;
    if (again && again.target !== claim.target) {
      // Read as another target now (a file named like the symbol's text): not the one renewed.
      if (again.action !== "retaken") release({ ...project.options, dir: context.settings.dir, holder, targets: [inputOf(again.target)] });
      lost.push({ path_pattern: relativePattern(claim.target, project), holders: [] });
    } else if (again) {
      // A new token: it had lapsed, and another actor was granted part of it meanwhile (docs/PROTOCOL.md 4a).
      const lapsed = typeof claim.token === "number" && typeof again.token === "number" && again.token !== claim.token;
      renewed.push({ ...reservationOf(again, project, context), old_expires_ts: oldExpiry, new_expires_ts: expiryOfClaim(again, context), ...(lapsed && { lapsed: true }) });
    } else {
      lost.push({ path_pattern: relativePattern(claim.target, project), holders: result.refused.map((holding) => holderOf(holding, project, context)) });
    }
  }
  return answer({ renewed: renewed.length, file_reservations: renewed, ...(lost.length > 0 && { lost }) });
}

/** One holder in the way, as conflicts and lost name them: the reference system's shape (othersClaim's too). */
function holderOf(holding: Holding, project: Project, context: Context): Record<string, unknown> {
  return {
    agent: holding.holder,
    path_pattern: relativePattern(holding.held_target ?? holding.target, project),
    exclusive: holding.shared !== true,
    expires_ts: holderInfo(holding, context).holderExpiresAt ?? null,
    reason: holding.purpose,
    // Not a holder but an agent queued for it ahead (the queue goes first): it holds nothing yet, so no expiry.
    ...(holding.queued === true && { queued: true }),
  };
}

/** Another's claim on the target in this directory, if any, as holderOf names it. */
function othersClaim(target: string, holder: string, project: Project, context: Context): Array<Record<string, unknown>> {
  const read = context.store.read(claimFileName(target));
  if (read.state !== "claim" || read.claim.holder === holder) return [];
  const { claim } = read;
  return [{ agent: claim.holder, path_pattern: relativePattern(target, project), exclusive: claim.mode !== "shared", expires_ts: expiryOfClaim(claim, context), reason: claim.purpose }];
}

export async function releaseReservationsTool(input: ReleaseReservationsInput, call: Call): Promise<ToolResult> {
  const project = projectOf(input.project_key, call);
  const holder = call.holder(input.agent_name, "agent_name");
  let released = 0;
  for (const context of contextsOf(project, holder)) {
    const selected = selectReservations(holder, input, project, context).map((claim) => inputOf(claim.target));
    // release() with no targets releases everything: an empty selection must release nothing.
    if (selected.length > 0) released += release({ ...project.options, dir: context.settings.dir, holder, targets: selected }).released.length;
  }
  return answer({ released, released_at: formatTimestamp(Date.now()) });
}

/** The project's claims directory, and each other one the agent reserved in from it (a package with a `.claims` of its own, src/protocol/routes.ts). */
function contextsOf(project: Project, holder: string): Context[] {
  const own = openContext(project.options);
  return [own, ...pointedFrom({ ...project.options, dir: own.settings.dir }, holder).map(({ dir }) => openContext({ ...project.options, dir }))];
}

/** The agent's claims inside the project, narrowed to the paths and ids named (all of them when neither is). */
function selectReservations(holder: string, input: { paths?: string[] | undefined; file_reservation_ids?: number[] | undefined }, project: Project, context: Context): Claim[] {
  const inProject = claimsOf(holder, context)
    .map(({ claim }) => claim)
    .filter((claim) => claim.target === project.canonical || claim.target.startsWith(under(project)));
  if (input.paths === undefined && input.file_reservation_ids === undefined) return inProject;
  const patterns = new Set((input.paths ?? []).map((path) => parseTarget(insideProject(path, project), { cwd: project.root, home: project.home }).canonical));
  const ids = new Set(input.file_reservation_ids ?? []);
  return inProject.filter((claim) => patterns.has(claim.target) || ids.has(reservationIdOf(claim)));
}

function reservationOf(claim: GrantedClaim | Claim, project: Project, context: Context): Record<string, unknown> {
  return {
    id: reservationIdOf(claim),
    path_pattern: relativePattern(claim.target, project),
    exclusive: claim.mode !== "shared",
    reason: claim.purpose,
    expires_ts: expiryOfClaim(claim, context),
  };
}

/**
 * A reservation's id: a whole number naming one holding (holder, target, taken_at), so it stays
 * the same while the holding is renewed and changes once the target is released and taken again.
 * 48 bits of a hash: a safe integer in JSON.
 */
function reservationIdOf(claim: Pick<Claim, "holder" | "target" | "taken_at">): number {
  return Number.parseInt(sha256Hex(`${claim.holder}\n${claim.target}\n${claim.taken_at}`).slice(0, 12), 16);
}

function projectOf(projectKey: string, call: Call): Project {
  if (!isAbsolute(projectKey)) {
    throw new BadInputError(`project_key must be the absolute path of the repository's primary checkout; got ${JSON.stringify(projectKey)}.`);
  }
  if (!existsSync(projectKey) || !statSync(projectKey).isDirectory()) {
    throw new BadInputError(`project_key ${projectKey} is not a directory; give the absolute path of the repository's primary checkout.`);
  }
  const root = realpathSync(projectKey);
  const options = { ...call.common, cwd: root };
  // As canonical targets spell it (escaped; folded where the file system ignores case), to compare with them.
  return { root, canonical: escapeLiteral(canonicalPath(root, "/")), home: openContext(options).settings.home, options };
}

/**
 * A path relative to the project as a path-like target (`./README.md`, never the name README.md),
 * refused outside it. Read as the CLI reads it: `glob:` makes a glob, `~` is the home directory
 * (outside, unless the project is below it); a name is not a path in the project, so `name:` is
 * refused rather than made the file `./name:x`.
 */
function insideProject(path: string, project: Project): string {
  if (path.startsWith(NAME_PREFIX)) {
    throw new BadInputError(`${path} is a name, not a path inside project_key; reserve names with the claim tool (paths: ["${path}"]).`);
  }
  const glob = path.startsWith(GLOB_PREFIX) ? GLOB_PREFIX : "";
  const rest = path.slice(glob.length);
  const given = `${glob}${isAbsolute(rest) || rest.startsWith("~") ? rest : `./${rest}`}`;
  const canonical = parseTarget(given, { cwd: project.root, home: project.home }).canonical;
  if (canonical !== project.canonical && !canonical.startsWith(under(project))) {
    throw new BadInputError(`${path} is outside project_key ${project.root}; reserve paths inside the repository, relative to it.`);
  }
  return given;
}

/** A target as the project's agents write it: relative to project_key when inside it. */
function relativePattern(target: string, project: Project): string {
  if (target === project.canonical || target === under(project)) return "./";
  if (!target.startsWith(under(project))) return target;
  return relative(project.canonical, target.endsWith(sep) ? target.slice(0, -1) : target) + (target.endsWith(sep) ? "/" : "");
}

/** The project's directory with its one trailing separator (`/` for the root itself). */
function under(project: Project): string {
  return project.canonical.endsWith(sep) ? project.canonical : `${project.canonical}${sep}`;
}
