// sweep: remove stale claims and the debris of crashed writers. Safe beside live sessions (and
// from cron): each removal re-checks the claim under its lock, so a beat that lands first wins.
import { ALIASES_DIRECTORY, leftoverMarkers, removeMarker } from "../protocol/aliases.js";
import { sweepPointers } from "../protocol/pinned.js";
import { sweepElsewhere } from "../protocol/routes.js";
import { leftoverUnresolved, pruneUnresolved, UNRESOLVED_DIRECTORY } from "../protocol/unresolved.js";
import { findDebris, removeDebris, retireDeadLocks } from "../protocol/debris.js";
import { grantQueued, previewGrants } from "../protocol/grant.js";
import { displayTarget, judge, openContext, readClock, refreshNow, type CommonOptions, type Holding } from "../protocol/context.js";
import { logWriter } from "../protocol/log.js";
import { HOOK_FILE_DEBRIS_AGE_MS, isHookFileName, isLiveClientRecord } from "../protocol/hook-files.js";
import { QUEUE_PREFIX } from "../protocol/queue.js";
import { existsSync } from "node:fs";
import { readSnapshot, removeQuietly } from "../os/files.js";
import { asOneVerb } from "../os/lookups.js";
import { checkOptionTypes } from "./option-types.js";

export interface SweepOptions extends CommonOptions {
  /** Report what would be removed, remove nothing. */
  dryRun?: boolean;
}

export interface SweepResult {
  /** The claims directory swept. */
  dir: string;
  /** It does not exist: nothing to sweep there (a typo in a cron line's --dir looks like this). */
  directory_missing?: true;
  dry_run: boolean;
  /** Targets whose stale (or long-unreadable) claim files were removed. */
  removed: string[];
  /** Leftover temp files and locks of crashed writers, and agent hooks' files of clients that died mid-turn. */
  debris: string[];
  /** Entries sweep will not touch, with why (a directory where a claim file belongs). */
  skipped: Array<{ file: string; reason: string }>;
  /** Targets granted to queued waiters once their claims were swept (with --dry-run: those that would be). */
  granted: Array<{ target: string; holder: string }>;
}

export function sweep(options: SweepOptions = {}): SweepResult {
  checkOptionTypes("sweep", options);
  return asOneVerb(() => sweepNow(options));
}

function sweepNow(options: SweepOptions = {}): SweepResult {
  const context = openContext(options);
  const dryRun = options.dryRun === true;
  const result: SweepResult = { dir: context.settings.dir, dry_run: dryRun, removed: [], debris: [], skipped: [], granted: [] };
  if (!existsSync(context.settings.dir)) return { ...result, directory_missing: true };
  context.store.refuseForeignFiles();
  context.store.deferDirectorySync = !dryRun;
  // Every age below (claims, debris, pointers) is judged on the filesystem's clock, read at once:
  // a sweep from a cron job on a clock of its own must not remove what is fresh.
  readClock(context);
  // Each removal's line is appended right after it, through one open log (src/protocol/log.ts).
  const log = logWriter(context.store.dir, context.store.fileMode);
  const swept = new Map<string, Holding>(); // target → the stale claim removed: a waiter granted it took it over
  try {
    for (const { fileName, read } of context.store.list()) {
      const target = displayTarget(fileName, read);
      // No holder: sweep removes nobody's fresh claim, its own included.
      const judgement = judge(read, target, undefined, context);
      if (judgement.state === "blocked") result.skipped.push({ file: fileName, reason: judgement.reason });
      if (judgement.state !== "stale") continue;
      if (dryRun) result.removed.push(target);
      else if (context.store.change(fileName, judgement.version, () => "remove") === "done") {
        result.removed.push(target);
        swept.set(target, judgement.holding);
        log.append(context.nowMs, { event: "sweep", target, holder: judgement.holding.holder, purpose: judgement.holding.purpose });
      }
    }
  } finally {
    log.close();
  }
  // One directory fsync makes every removal above durable (a crash before it only leaves stale claims to sweep again).
  context.store.deferDirectorySync = false;
  if (!dryRun && result.removed.length > 0) context.store.syncDirectory();
  // Stale claims just removed, and targets found free, go to the queue; dead waiters are dropped.
  const queued = context.store.names().some((name) => name.startsWith(QUEUE_PREFIX));
  if (queued && dryRun) result.granted = previewGrants(context);
  else if (queued) {
    result.granted = context.store
      .withTakeLock(() => {
        refreshNow(context);
        return grantQueued(context, swept);
      })
      .map((grant) => ({ target: grant.target, holder: grant.holder }));
  }
  if (!dryRun) retireDeadLocks(context.store);
  // Symlink markers of globs released or swept (src/protocol/aliases.ts); judged under the take
  // lock, where a glob take writes its markers before its claim.
  if (leftoverMarkers(context).length > 0) {
    const leftovers = dryRun ? leftoverMarkers(context) : context.store.withTakeLock(() => leftoverMarkers(context).filter((name) => removeMarker(name, context)));
    result.debris.push(...leftovers.map((name) => `${ALIASES_DIRECTORY}/${name}`));
  }
  // Entries of claims taken before their path was there, whose claim is gone (src/protocol/unresolved.ts);
  // judged under the take lock, where a take writes an entry before its claim.
  if (leftoverUnresolved(context).length > 0) {
    const leftovers = dryRun ? leftoverUnresolved(context) : context.store.withTakeLock(() => pruneUnresolved(context));
    result.debris.push(...leftovers.map((name) => `${UNRESOLVED_DIRECTORY}/${name}`));
  }
  // Pointers to other claims directories unused for 7 days, where their holder holds nothing any more (src/protocol/routes.ts).
  result.debris.push(...sweepElsewhere(context.store.dir, dryRun, context.nowMs));
  // Pointers to pinned directories gone and untouched for 7 days (src/protocol/pinned.ts); never one to a directory that is there.
  result.debris.push(...sweepPointers(context.store.dir, dryRun, context.nowMs));
  // After the claims, so locks of the versions just removed (or retired) count as debris too.
  for (const debris of findDebris(context.store, context.nowMs)) {
    if (dryRun || removeDebris(context.store, debris)) result.debris.push(debris.file);
  }
  // The hooks' files of a client that died before its Stop or SessionEnd: each lives a turn, so
  // one a day old is nobody's. A live hook only creates and removes them, so removing one races
  // nothing. A client's record of its sessions lives as long as the client: kept while it runs here.
  for (const name of context.store.names().filter(isHookFileName)) {
    const file = readSnapshot(context.store.path(name));
    if (file.kind !== "file" || context.nowMs - file.mtimeMs <= HOOK_FILE_DEBRIS_AGE_MS) continue;
    if (isLiveClientRecord(context.store.dir, name)) continue;
    if (dryRun || removeQuietly(context.store.path(name))) result.debris.push(name);
  }
  return result;
}
