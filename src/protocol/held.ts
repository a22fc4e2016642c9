// What each holder was granted, so `beat` and `release` without targets can report a claim the
// holder lost (taken over when stale, swept) instead of silently not seeing it: the claim files
// alone only show what a holder still has. One small marker per holder and target,
// `.held-<holder tag>-<target hash>`, created when a claim is granted and removed when it is
// released or reported lost. Markers are independent files, so they need no lock; they never
// decide who holds what (the claim files do), they only remember what to ask about.
import { lstatSync, renameSync } from "node:fs";
import { join } from "node:path";
import type { Mode } from "./claim.js";
import { readSnapshot, removeQuietly, tempName, touchWhenOld, writeTempFile } from "../os/files.js";
import { sha256Hex } from "../os/hash.js";
import { claimsOf, judge, parseTargets, refreshNow, type Context } from "./context.js";
import { HELD_PREFIX } from "./store.js";
import { withLockPatience } from "./lock.js";
import { BusyError } from "../os/errors.js";
import { boundAliasesOf } from "./conflicts.js";
import { movedClaims } from "./unresolved.js";
import { shapeOf } from "../targets/overlap.js";
import { claimFileName, holderTag, looksLikePath, parseTarget, pathItWillBe, sharedClaimFileName, type Target } from "../targets/target.js";


export interface HeldMarker {
  target: string;
  holder: string;
  mode: Mode;
  /**
   * The take call that granted the claim (TakeOptions.grant), until another call tells the holder
   * it holds it (a re-take, a replay of an idempotency key, a beat). A take whose answer reaches
   * nobody gives back only what its own grant id still marks (giveBackGrants).
   */
  grant?: string;
}

function markerName(holder: string, target: string): string {
  return `${HELD_PREFIX}${holderTag(holder)}-${sha256Hex(target).slice(0, 24)}`;
}

export function rememberHeld(marker: HeldMarker, context: Context): void {
  try {
    // Written whole by rename; not fsynced: a marker lost in a machine crash only costs a report.
    // A new temp file (never through a link put at its name), the directory owner's when root writes it.
    const temp = writeTempFile(context.store.dir, `${JSON.stringify(marker)}\n`, context.store.fileMode, false);
    renameSync(temp, join(context.store.dir, markerName(marker.holder, marker.target)));
  } catch {
    // best effort: the claim itself is what counts
  }
}

/**
 * For a release on a full disk: the holder's marker of the target, moved to a temp name of this
 * process, for the claim lock to overwrite with its owner record (src/protocol/lock.ts). The
 * release forgets the marker anyway. Undefined when there is none.
 */
export function spareMarker(holder: string, target: string, context: Context): string | undefined {
  const spare = join(context.store.dir, tempName());
  try {
    renameSync(join(context.store.dir, markerName(holder, target)), spare);
    return spare;
  } catch {
    return undefined;
  }
}

/** The holder's marker of the target, as written; undefined for none (or one not this holder's). */
export function markerOf(holder: string, target: string, context: Context): HeldMarker | undefined {
  const snapshot = readSnapshot(join(context.store.dir, markerName(holder, target)));
  if (snapshot.kind !== "file") return undefined;
  try {
    const marker = JSON.parse(snapshot.bytes.toString("utf8")) as HeldMarker;
    return marker.holder === holder && marker.target === target ? marker : undefined;
  } catch {
    return undefined;
  }
}

/** The grant id the holder's marker of the target carries (HeldMarker.grant); undefined for none, or no marker. */
export function grantOf(holder: string, target: string, context: Context): string | undefined {
  const grant = markerOf(holder, target, context)?.grant;
  return typeof grant === "string" ? grant : undefined;
}

/**
 * The holder was told it holds the target, in `marker.mode`, by a call (`own`: its grant id, if it
 * has one) other than the one whose grant id the marker carries: the marker is written again
 * without it, so that a give-back of that call leaves the claim alone. And in that mode: a take
 * switching the claim to shared that stands only later keeps the exclusive claim another call told
 * the holder it holds meanwhile (switchedOnceStanding, src/commands/take.ts). Under the take lock,
 * where every such call tells it. A marker that says this already is only read.
 */
export function toldHeld(marker: HeldMarker, context: Context, own?: string): void {
  const found = markerOf(marker.holder, marker.target, context);
  if (found === undefined) return;
  const pending = typeof found.grant === "string" ? found.grant : undefined;
  const kept = pending !== undefined && pending === own;
  if ((pending === undefined || kept) && found.mode === marker.mode) return;
  rememberHeld({ target: marker.target, holder: marker.holder, mode: marker.mode, ...(kept && { grant: pending }) }, context);
}

/**
 * Of the targets the caller judged the holder's own (claims read as its, fresh) without the take
 * lock, those it may not let a write through on before it tells the holder it holds them under the
 * take lock (toldHeldNow): a marker carrying another call's pending grant id (other than `own`), whose
 * give-back could remove the claim once the write is let through; no marker (a take holding the take
 * lock may be between linking the claim and writing its marker); or any, while the take lock is
 * taken. Read-only: the take lock's name looked for, and one marker read per target. Read after the
 * claims: a take that linked one of them and writes its marker later holds the take lock until then.
 */
export function untoldHeld(targets: string[], holder: string, context: Context, own?: string): string[] {
  if (targets.length === 0) return [];
  if (context.store.takeLockTaken()) return targets;
  return targets.filter((target) => {
    const marker = markerOf(holder, target, context);
    return marker === undefined || (typeof marker.grant === "string" && marker.grant !== own);
  });
}

/**
 * Under the take lock, where every grant and give-back is made: each of the targets that is still
 * the holder's fresh claim (its exclusive file, else its own shared one) is told held (toldHeld,
 * leaving `own`), a claim with no marker getting one, so that no give-back of another call removes
 * it; answers those that are not (given back, lapsed, taken meanwhile). For the agent hooks, which
 * must answer within the agent's timeout: the take lock is waited for `patienceMs` at most. Held
 * longer (its owner stopped), the markers are written without it, each before its claim is read
 * again: a give-back stops waiting for such a lock too (release), and one that read the marker
 * before this write and removes the claim after that read is not kept out.
 */
export function toldHeldNow(targets: string[], holder: string, context: Context, own?: string, patienceMs?: number): string[] {
  if (targets.length === 0) return [];
  const tell = (locked: boolean) =>
    targets.filter((target) => {
      for (const fileName of [claimFileName(target), sharedClaimFileName(target, holder)]) {
        const read = () => judge(context.store.read(fileName), target, holder, context);
        const judgement = read();
        if (judgement.state !== "mine" || judgement.stale) continue;
        const marker: HeldMarker = { target, holder, mode: judgement.claim.mode === "shared" ? "shared" : "exclusive" };
        if (markerOf(holder, target, context) === undefined) rememberHeld(marker, context);
        else toldHeld(marker, context, own);
        if (locked) return false;
        const again = read();
        if (again.state === "mine" && !again.stale) return false;
      }
      return true;
    });
  const locked = () =>
    context.store.withTakeLock(() => {
      refreshNow(context);
      return tell(true);
    });
  try {
    return patienceMs === undefined ? locked() : withLockPatience(patienceMs, locked);
  } catch (error) {
    if (!(error instanceof BusyError)) throw error;
    return tell(false);
  }
}

/**
 * A claim renewed (a beat, a re-take) keeps its marker young: stamped anew once a day old, as a
 * pointer is. Sweep removes a marker older than 7 days whose holder no longer holds its claim; by
 * the age of its first write, a claim held and renewed for over a week that lapsed once and was
 * taken over lost its marker to the next sweep, and the holder's beat without targets no longer
 * reported it lost. Under the take lock, where markers are written.
 */
export function touchHeld(holder: string, target: string, context: Context): void {
  const path = join(context.store.dir, markerName(holder, target));
  try {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (stats?.isFile()) touchWhenOld(path, stats.mtimeMs);
  } catch {
    // best effort, as the marker itself
  }
}

export function forgetHeld(holder: string, target: string, context: Context): void {
  removeQuietly(join(context.store.dir, markerName(holder, target)));
}

/** The targets the holder was granted and has not released (nor been told it lost). */
export function heldMarkers(holder: string, context: Context, names: string[] = context.store.names()): HeldMarker[] {
  const prefix = `${HELD_PREFIX}${holderTag(holder)}-`;
  const markers: HeldMarker[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const snapshot = readSnapshot(join(context.store.dir, name));
    if (snapshot.kind !== "file") continue;
    try {
      const marker = JSON.parse(snapshot.bytes.toString("utf8")) as HeldMarker;
      if (marker.holder === holder && typeof marker.target === "string") markers.push(marker);
    } catch {
      // not ours
    }
  }
  return markers;
}

/**
 * The form of a target the holder holds it under, where that is not the form given: a path claimed
 * before it was made a directory (or a directory claimed before it was removed) is named now in
 * the other form; a word that reads like a path (`gen.txt`, `build`), with no name claim of the
 * holder's, is the path it claimed (`./gen.txt`, `./build/`), as check and status read that word (fileStandIn); a path
 * under one mount point of a tree mounted twice is the same place under the other it was claimed
 * by (docs/PROTOCOL.md 5a). Undefined when the holder holds none of them.
 */
export function ownForm(parsed: Target, holder: string, context: Context): string | undefined {
  const isMine = (canonical: string) => holds(claimFileName(canonical), holder, context) || holds(sharedClaimFileName(canonical, holder), holder, context);
  const other = otherForm(parsed.canonical, parsed.kind);
  const asFile = looksLikePath(parsed) ? parseTarget(pathItWillBe(parsed.canonical).path, context.settings).canonical : undefined;
  return [parsed.canonical, ...(other ? [other] : []), ...(asFile ? [asFile] : [])].find(isMine) ?? heldThroughMount(parsed, holder, context) ?? heldThroughMove(parsed, holder, context);
}

/**
 * The target the holder claimed a place by before its path was there, where that target leads to
 * `parsed` now (`later/f.txt`, claimed before `later` was made a symlink to `real`, for
 * `real/f.txt`; src/protocol/unresolved.ts), and the holder holds no claim by the name given. A
 * take, beat, release, handover or hook write by either spelling acts on that claim. `covering`:
 * also a directory claim whose place leads to one above `parsed` (for the hooks' writes).
 */
export function heldThroughMove(parsed: Pick<Target, "canonical" | "kind">, holder: string, context: Context, covering = false): string | undefined {
  if (parsed.kind === "name") return undefined;
  const moved = movedClaims(context);
  if (moved.length === 0) return undefined;
  const mine = moved.filter(({ read }) => read.state === "claim" && read.claim.holder === holder);
  if (mine.length === 0) return undefined;
  const isMine = (canonical: string) => holds(claimFileName(canonical), holder, context) || holds(sharedClaimFileName(canonical, holder), holder, context);
  if (isMine(parsed.canonical)) return undefined;
  const same = mine.find(({ now }) => now.canonical === parsed.canonical);
  if (same !== undefined || !covering) return same?.target;
  // As the hooks read the session's own claims: a directory covers what is under it (a glob or a symbol: the file is claimed itself).
  return mine.find(({ now }) => now.kind === "directory" && parsed.canonical.startsWith(now.canonical))?.target;
}

/**
 * The name the holder claimed a place by under another mount point of its file system (a bind
 * mount, docs/PROTOCOL.md 5a), where it holds no claim by the name given: the same file, directory
 * or glob, not a tree that holds it. A take, beat, release or handover by either name acts on that claim.
 */
export function heldThroughMount(parsed: Pick<Target, "canonical" | "kind">, holder: string, context: Context): string | undefined {
  if (parsed.kind === "name") return undefined;
  // The mount table first: where no file system is mounted twice (most machines), no claim file is read.
  const aliases = boundAliasesOf(shapeOf(parsed.canonical), true);
  if (aliases.length === 0) return undefined;
  const isMine = (canonical: string) => holds(claimFileName(canonical), holder, context) || holds(sharedClaimFileName(canonical, holder), holder, context);
  return isMine(parsed.canonical) ? undefined : aliases.map((alias) => alias.canonical).find(isMine);
}

/**
 * The named targets, or when none are named every claim the holder has: what beat and release act
 * on. A named target may be held by the caller exclusively or shared (its own shared file).
 */
export function namedOrAllMine(
  inputs: string[] | undefined,
  holder: string,
  context: Context,
): Array<{ fileName: string; target: string }> {
  if (!inputs || inputs.length === 0) {
    // Everything the holder has, and everything it was granted and has not heard it lost.
    const work = claimsOf(holder, context).map(({ fileName, claim }) => ({ fileName, target: claim.target }));
    for (const marker of heldMarkers(holder, context)) {
      const fileName = marker.mode === "shared" ? sharedClaimFileName(marker.target, holder) : claimFileName(marker.target);
      if (!work.some((entry) => entry.fileName === fileName)) work.push({ fileName, target: marker.target });
    }
    return work;
  }
  const work: Array<{ fileName: string; target: string }> = [];
  const isMine = (fileName: string) => holds(fileName, holder, context);
  for (const parsed of parseTargets(inputs, context)) {
    const taken = ownForm(parsed, holder, context);
    const target = taken === undefined || taken === parsed.canonical ? { canonical: parsed.canonical, fileName: parsed.fileName } : { canonical: taken, fileName: claimFileName(taken) };
    const shared = sharedClaimFileName(target.canonical, holder);
    const sharedIsMine = isMine(shared);
    if (sharedIsMine) work.push({ fileName: shared, target: target.canonical });
    if (!sharedIsMine || isMine(target.fileName)) work.push({ fileName: target.fileName, target: target.canonical });
  }
  return work;
}

/** Whether the claim file holds a claim of the holder's. */
function holds(fileName: string, holder: string, context: Context): boolean {
  const read = context.store.read(fileName);
  return read.state === "claim" && read.claim.holder === holder;
}

/** `/p/x/` for the path `/p/x`, and the other way round; nothing for other kinds or `/`. */
function otherForm(canonical: string, kind: string): string | undefined {
  if (kind === "directory") return canonical === "/" ? undefined : canonical.slice(0, -1);
  return kind === "path" ? `${canonical}/` : undefined;
}
