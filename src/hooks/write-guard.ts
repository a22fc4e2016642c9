// The decision an agent hook makes before a write: is another holder's fresh claim in the way (the
// file, a directory above it, a glob, a symbol the edit touches, or a waiter queued for it)? If
// not, the write is the session's: its own covering claims are renewed, or the file is claimed for
// it (auto-take) so the next writer is refused.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { isCaselessDirectory } from "../targets/caseless.js";
import { picomatch } from "../targets/picomatch.js";
import { dirname, resolve } from "node:path";
import { beat, isYoung } from "../commands/beat.js";
import { take } from "../commands/take.js";
import { release } from "../commands/release.js";
import { lookThroughLinks } from "../protocol/linked.js";
import { findConflicts, inTheWay, overlappingClaims } from "../protocol/conflicts.js";
import { queueAhead } from "../protocol/grant.js";
import { heldThroughMount, heldThroughMove, toldHeldNow, untoldHeld } from "../protocol/held.js";
import { shapeOf } from "../targets/overlap.js";
import { judge, openContext, parseTargets, type CommonOptions, type Context, type Holding } from "../protocol/context.js";
import { QUEUE_PREFIX, readQueue } from "../protocol/queue.js";
import { isClaimFileName, type ClaimRead } from "../protocol/store.js";
import { negatedBrackets } from "../targets/glob-syntax.js";
import { DOTDOT, GLOB_PREFIX, MAX_TARGET_BYTES, symlinkEntry, targetOfFileName } from "../targets/target.js";
import { CHECK_ONLY, GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { BadInputError, BusyError } from "../os/errors.js";

export interface WriteRequest extends CommonOptions {
  holder: string;
  /** Absolute paths (or relative to `cwd`) the tool is about to write. */
  files: string[];
  /** For a single-file edit: what it replaces and with what; absent means the whole file. */
  edits?: Array<{ old: string; new: string }>;
  autoTake: boolean;
  purpose: string;
  /** TTL of what the hook claims (seconds): an auto-claim the session stops writing lapses on its own after it. */
  claimTtl?: number;
  /** What the write's judgement in other claims directories found of other sessions' symbol claims (WriteDecision.partly). */
  partly?: Partly;
  /**
   * The grant id of the hook's own takes (TakeOptions.grant), one per agent of a session: the
   * hook's give-backs go by it, and its judgement that a claim is the session's own leaves it.
   */
  grant?: string;
}

/** Files other sessions hold symbols of, and the symbols of them the edit touches: the session claims those, not the file. */
export interface Partly {
  files: string[];
  symbols: string[];
}

export interface WriteDecision {
  allow: boolean;
  /** What is in the way, when not allowed. */
  blocking: Holding[];
  /** Files (or, beside another session's symbol claims, the symbols the edit touches) claimed for the session just now. */
  took: string[];
  /** The session's own claims renewed. */
  renewed: string[];
  /**
   * Paths the command writes relative to a directory the hook cannot know (after `cd "$dir"`),
   * as it wrote them, when a claim they could mean is in the way; `blocking` holds those claims.
   */
  unknownPlace?: { written: string[]; blocking: Holding[] };
  /** Files another session holds symbols of, here or where `request.partly` says, and the symbols the edit touches. */
  partly: Partly;
}

/**
 * The hooks fire on every edit, before and after; a heartbeat younger than this (or than a tenth
 * of the claim's TTL) is not rewritten, so a burst of edits costs reads, not writes and fsyncs.
 */
export const HOOK_RENEW_AFTER_MS = 60_000;

/** How long the hook waits for the take lock to tell the session it holds a claim (toldHeldNow): it must answer within the agent's timeout. */
const HOOK_LOCK_PATIENCE_MS = 1000;

/** The most symbols of files another session holds symbols of that one write claims for its session (a take of 1,000 took 5 s). */
const AUTO_SYMBOLS = 64;

/**
 * The most files one write claims for its session: each is a claim file written durably, and a
 * command writing 3,000 (`rm` of a generated tree, `sed -i` over every source) took 44 s to claim,
 * past the agent's wait for the hook, which then let it run unjudged, or with `--fail-closed`
 * refused it. One writing more is judged against every claim all the same, and claims none.
 */
const AUTO_FILES = 128;

/** How many times a write is judged again when a claim of the session's it judged was gone under the take lock (renewOwn's `lost`). */
const MAX_JUDGEMENTS = 5;

export async function decideWrite(request: WriteRequest, judged = 0): Promise<WriteDecision> {
  const context = openContext(request);
  const decision: WriteDecision = { allow: true, blocking: [], took: [], renewed: [], partly: { files: [], symbols: [] } };
  // Absolute first: a file that does not exist yet must not be mistaken for a name.
  const targets = parseEach(request.files, context);
  const names = existsSync(context.settings.dir) ? context.store.names() : [];
  const claimFiles = names.filter(isClaimFileName);
  const queue = readQueue(context, names);
  // Beside another session's symbol claim (here, or in another claims directory the write was
  // judged in first), the session claims the symbols its edit touches (not the file, which the
  // other's symbol already overlaps), so a second writer of those is refused.
  const written = new Set(targets.map((target) => target.canonical));
  const partlyOthers = new Set<string>(request.partly?.files.filter((file) => written.has(file)));
  const own = new Set<string>();
  const ownReads = new Map<string, ClaimRead>();
  /** Written paths the session holds by their name under another mount point: not claimed again. */
  const heldElsewhere = new Set<string>();
  const symbolsToTake: string[] = (request.partly?.symbols ?? []).filter((symbol) => written.has(symbol.slice(0, symbol.lastIndexOf("#"))));

  for (const target of targets) {
    const conflicts = findConflicts(target, "exclusive", request.holder, context, claimFiles);
    const symbols = conflicts.filter((holding) => isSymbolOf(holding, target.path));
    decision.blocking.push(...conflicts.filter((holding) => !symbols.includes(holding)));
    if (symbols.length > 0) {
      partlyOthers.add(target.canonical);
      const touched = await touchedSymbols(target.path, request.edits, symbols);
      decision.blocking.push(...symbols.filter((holding) => touched.has(shapeOf(holding.held_target as string).symbol as string)));
      for (const name of touched) symbolsToTake.push(`${target.canonical}#${name}`);
    }
    for (const { read } of overlappingClaims(target, context, claimFiles)) {
      if (read.state === "claim" && read.claim.holder === request.holder) own.add(read.claim.target), ownReads.set(read.claim.target, read);
    }
    // The session's claim on the same place under another mount point (a bind mount) is its own too.
    // And a claim of the session's taken before its path was there, which leads here now (src/protocol/unresolved.ts).
    const through = own.has(target.canonical) ? undefined : heldThroughMount(target, request.holder, context) ?? heldThroughMove(target, request.holder, context, true);
    if (through !== undefined) {
      own.add(through);
      heldElsewhere.add(target.canonical);
    }
    // A waiter queued for the file goes first, unless the session already holds it.
    if (!own.has(target.canonical) && through === undefined) {
      for (const { entry } of queueAhead(target.canonical, "exclusive", request.holder, queue)) {
        decision.blocking.push({
          target: target.canonical,
          holder: entry.holder,
          purpose: entry.purpose,
          heartbeat_at: entry.heartbeat_at,
          heartbeat_age_seconds: 0,
          queued: true,
        });
      }
    }
  }
  decision.partly = { files: [...partlyOthers], symbols: [...new Set(symbolsToTake)] };
  const unknown = unknownPlaceConflicts(request.files, request.holder, context, claimFiles);
  // A claim a known path is refused by already says so; the rest are in the way only as what an unknown place could mean.
  const known = new Set(decision.blocking.map((holding) => holding.held_target ?? holding.target));
  const onlyUnknown = unknown.blocking.filter((holding) => !known.has(holding.target));
  decision.blocking.push(...onlyUnknown);
  if (onlyUnknown.length > 0) decision.unknownPlace = { written: unknown.written, blocking: onlyUnknown };
  if (decision.blocking.length > 0) return { ...decision, allow: false };

  const kept = renewOwn(request, own, ownReads, context, names, true);
  if (kept.lost.length > 0) {
    // A claim of the session's, read as such, was gone when told held under the take lock (given
    // back by another call of the holder, lapsed and taken): the write is judged again, afresh.
    if (judged + 1 >= MAX_JUDGEMENTS) throw new BusyError(`The session's claims on ${kept.lost.join(", ")} kept changing while this write was judged; retry.`);
    return decideWrite(request, judged + 1);
  }
  decision.renewed = kept.renewed;
  // A directory the command writes (rm -r, git checkout -- .) is checked above but not claimed whole.
  // What only a program's text names is judged above, not claimed (CHECK_ONLY in payload.ts).
  const claimable = CHECK_ONLY.size === 0 ? undefined : new Set(parseEach(request.files.filter((file) => !CHECK_ONLY.has(file)), context).map((target) => target.fileName));
  const unclaimed = targets.filter(
    (target) =>
      target.kind === "path" &&
      (claimable === undefined || claimable.has(target.fileName)) &&
      ![...own].some((mine) => coversTarget(mine, target.canonical)) &&
      !partlyOthers.has(target.canonical) &&
      !heldElsewhere.has(target.canonical),
  );
  // A name with a control character (a tab, a newline a client left in its path) is checked above
  // but cannot be a claim's target: not claimed, rather than failing the whole call open.
  // An edit touching more symbols, or a command writing more files, than a take claims in time
  // (each a claim file, written durably) claims none of them: it was judged against every claim above all the same.
  const symbolsWanted = symbolsToTake.filter((symbol) => !own.has(symbol));
  const wanted = [...(unclaimed.length > AUTO_FILES ? [] : unclaimed.map((target) => target.canonical)), ...(symbolsWanted.length > AUTO_SYMBOLS ? [] : symbolsWanted)].filter((target) => !/[\u0000-\u001f\u007f]/.test(target));
  if (request.autoTake && wanted.length > 0) {
    const taken = await take({ ...request, targets: wanted, purpose: request.purpose, ...(request.claimTtl !== undefined && { ttl: request.claimTtl }) });
    if (taken.refused.length > 0) return { ...decision, allow: false, blocking: taken.refused };
    // A session in another package may have claimed another name of a file (a hard link) in its
    // claims directory between the look above and this take, which share no take lock: looked at
    // again with the claims in place, and this side yields (src/protocol/linked.ts).
    const own = new Set([context.settings.dir]);
    const raced = taken.granted.flatMap((claim) => lookThroughLinks(shapeOf(claim.target), own, "exclusive", request.holder, { env: request.env ?? process.env }).found);
    if (raced.length > 0) {
      const made = taken.granted.filter((claim) => claim.action !== "retaken").map((claim) => claim.target);
      if (made.length > 0) release({ ...request, targets: made });
      return { ...decision, allow: false, blocking: raced.map(({ holding }) => holding) };
    }
    decision.took = taken.granted.map((claim) => claim.target);
  }
  return decision;
}

/**
 * After a write: renew the session's own claims that cover what it wrote (the file, a directory
 * or glob above it, a symbol of it), and nothing else, so a file touched once is not held for as
 * long as the session keeps writing elsewhere.
 */
export function renewWritten(request: Pick<WriteRequest, "holder" | "files" | "grant"> & CommonOptions): { renewed: string[]; covering: string[] } {
  const context = openContext(request);
  if (!existsSync(context.settings.dir)) return { renewed: [], covering: [] };
  const targets = parseEach(request.files, context);
  const names = context.store.names();
  const claimFiles = names.filter(isClaimFileName);
  const own = new Set<string>();
  const ownReads = new Map<string, ClaimRead>();
  for (const target of targets) {
    const before = own.size;
    for (const { read } of overlappingClaims(target, context, claimFiles)) {
      if (read.state === "claim" && read.claim.holder === request.holder) own.add(read.claim.target), ownReads.set(read.claim.target, read);
    }
    // Written through another mount point of the place the session claimed (a bind mount).
    const through = own.size === before ? heldThroughMount(target, request.holder, context) ?? heldThroughMove(target, request.holder, context, true) : undefined;
    if (through !== undefined) own.add(through);
  }
  return { renewed: renewOwn(request, own, ownReads, context, names).renewed, covering: [...own] };
}

/**
 * The session's own claims renewed as the hooks renew them (HOOK_RENEW_AFTER_MS), by beat; not
 * called when each was read just now as the session's, fresh, with a heartbeat too young to
 * rewrite, and no queued interest is in the directory for beat to keep alive: beat would only read
 * them again (a burst of edits is the common case; beat's reads and code cost a cold call ~3 ms).
 *
 * `tell`, before a write is let through on them: each is told held (a renewal does so under the
 * take lock; one left as it is, by toldHeldNow where another call's grant id may be pending on it,
 * untoldHeld), so that the give-back of another call of the holder that granted it (a `claims take
 * --wait` in the agent's shell that timed out, an interrupted take, a subagent's hook giving back a
 * call that never ran) cannot remove it under the write. `lost`: those no longer the session's.
 */
function renewOwn(
  request: WriteRequest | (Pick<WriteRequest, "holder" | "grant"> & CommonOptions),
  own: Set<string>,
  reads: Map<string, ClaimRead>,
  context: Context,
  names: string[],
  tell = false,
): { renewed: string[]; lost: string[] } {
  if (own.size === 0) return { renewed: [], lost: [] };
  const young = (target: string) => {
    const read = reads.get(target);
    const judgement = read && judge(read, target, request.holder, context);
    return judgement?.state === "mine" && !judgement.stale && isYoung(judgement.claim, context.nowMs, HOOK_RENEW_AFTER_MS);
  };
  const beaten = [...own].every(young) && !names.some((name) => name.startsWith(QUEUE_PREFIX)) ? undefined : beat({ ...request, targets: [...own], renewAfterMs: HOOK_RENEW_AFTER_MS });
  const renewed = beaten?.renewed ?? [];
  if (!tell) return { renewed, lost: [] };
  // A claim lost (taken from the queue or over while stale) lets no write through.
  const lost = beaten?.lost ?? [];
  const untold = [...own].filter((target) => !renewed.includes(target) && !lost.includes(target));
  const gone = toldHeldNow(untoldHeld(untold, request.holder, context, request.grant), request.holder, context, request.grant, HOOK_LOCK_PATIENCE_MS);
  return { renewed, lost: [...lost, ...gone] };
}

/**
 * Each path on its own: one that cannot be a target (over-long, a symlink loop) is skipped, so the
 * rest of the command is still judged. A shell command names whatever it likes, and one odd word
 * must not let through its write to a file another session holds.
 */
function parseEach(files: string[], context: ReturnType<typeof openContext>): ReturnType<typeof parseTargets> {
  const seen = new Map<string, ReturnType<typeof parseTargets>[number]>();
  for (const file of files) {
    if (file.startsWith(UNKNOWN_MARK)) continue; // unknownPlaceConflicts judges these
    try {
      // A shell glob too wide to expand is checked as a glob: conflicts with what it matches, never claimed.
      if (file.startsWith(GLOB_MARK)) {
        for (const target of globTargets(file.slice(GLOB_MARK.length), context)) seen.set(target.fileName, target);
        continue;
      }
      // As the kernel reaches it (`link/../a.ts` is `a.ts` beside where the link leads) and, where
      // a tool may have read `..` as text first, as written; a symlink's own entry as well.
      const { cwd } = context.settings;
      const long = Buffer.byteLength(file) > MAX_TARGET_BYTES;
      // A path spelled longer than a target may be (`a//…//u.ts`, `src/../…`) is where it leads, folded.
      const paths = DOTDOT.test(file) || long ? [...(long ? [] : [file]), resolve(cwd, file)] : [file];
      if (long) paths.push(...realIfThere(resolve(cwd, file)));
      const fitting = paths.filter((path) => Buffer.byteLength(path) <= MAX_TARGET_BYTES);
      // Still too long to be anyone's target: a claim on a directory above it covers it all the same.
      if (fitting.length === 0) fitting.push(`${longestFitting(resolve(cwd, file))}/`);
      const targets = [...parseTargets(fitting, context, true), ...fitting.map((path) => symlinkEntry(path, cwd)).filter((entry) => entry !== undefined)];
      for (const target of targets) seen.set(target.fileName, target);
    } catch {
      // not a path anyone can claim, so not one another session holds either
    }
  }
  return [...seen.values()].sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
}

/**
 * A shell glob as a target; one the overlap rules cannot compare (a POSIX class, `***`, a `/` a
 * bracket can match) as the whole directory it starts in, and one with a `|` outside parentheses
 * as `/`, as such a claim on disk stands (docs/PROTOCOL.md 2): never skipped, which would let its
 * write through.
 */
function globTargets(glob: string, context: ReturnType<typeof openContext>): ReturnType<typeof parseTargets> {
  try {
    // A shell's glob: `[!a]` is bash's negation, which picomatch would read as `!` or `a`.
    return parseTargets([`${GLOB_PREFIX}${negatedBrackets(glob)}`], context);
  } catch (error) {
    if (!(error instanceof BadInputError)) throw error;
    // A directory target: judged, never claimed whole (decideWrite claims paths only).
    const base = picomatch.scan(glob).base;
    return parseTargets([glob.includes("|") ? "/" : `${base === "" ? "." : base}/`.replace(/\/+$/, "/")], context, true);
  }
}

function realIfThere(path: string): string[] {
  try {
    return [realpathSync.native(path)];
  } catch {
    return []; // not there yet, or past what the kernel resolves (ENAMETOOLONG)
  }
}

/** The longest directory above a path that fits in a target. */
function longestFitting(path: string): string {
  let at = dirname(path);
  while (Buffer.byteLength(at) > MAX_TARGET_BYTES - 1 && at !== dirname(at)) at = dirname(at);
  return at;
}

/**
 * A relative path written after a `cd` the hook cannot follow (`cd "$(git rev-parse
 * --show-toplevel)/gen" && rm a.ts`) could be any file of that name. Conservatively, it is in the
 * way of another holder's claim (as any write is: inTheWay) on a file whose path ends with it (or
 * matches it, for a glob), and of one on a directory or glob under the session's cwd. Read only
 * when such a path exists: every claim file is read.
 */
function unknownPlaceConflicts(files: string[], holder: string, context: ReturnType<typeof openContext>, claimFiles: string[]): { written: string[]; blocking: Holding[] } {
  const written = files.filter((file) => file.startsWith(UNKNOWN_MARK)).map((file) => file.slice(UNKNOWN_MARK.length));
  // What follows its last `..` (`src/../u.ts`: u.ts), which is under some directory all the same.
  const tails = written.map((file) => file.split("/").reduce((tail: string[], part) => (part === ".." ? [] : part === "." || part === "" ? tail : [...tail, part]), []).join("/"));
  if (tails.length === 0) return { written, blocking: [] };
  // Claimed paths are folded where the file system ignores case: so is the tail compared with them.
  const nocase = isCaselessDirectory(context.settings.cwd);
  const matchers = tails.map((tail) => (tail === "" || tail === "." ? () => true : picomatch(`**/${tail}`, { dot: true, nocase })));
  const under = context.settings.cwd.endsWith("/") ? context.settings.cwd : `${context.settings.cwd}/`;
  const found: Holding[] = [];
  for (const fileName of claimFiles) {
    const read = context.store.read(fileName);
    const named = read.state === "claim" ? read.claim.target : targetOfFileName(fileName);
    const holding = inTheWay(named, read, "exclusive", holder, context);
    if (!holding) continue;
    const shape = shapeOf(named);
    const hit =
      shape.kind === "path" || shape.kind === "symbol"
        ? matchers.some((matches) => matches(shape.path))
        : (shape.kind === "directory" || shape.kind === "glob") && (shape.path.startsWith(under) || `${shape.path}/`.startsWith(under) || under.startsWith(shape.path));
    if (hit) found.push(holding);
  }
  return { written, blocking: found };
}

function isSymbolOf(holding: Holding, file: string): boolean {
  if (!holding.held_target) return false;
  const shape = shapeOf(holding.held_target);
  return shape.kind === "symbol" && shape.path === file;
}

function coversTarget(claimTarget: string, file: string): boolean {
  const shape = shapeOf(claimTarget);
  if (shape.kind === "path") return claimTarget === file;
  if (shape.kind === "directory") return file.startsWith(claimTarget);
  return false; // a glob or a symbol of the session's: still claim the file itself
}

/** The index of the first item `above` holds for, in a list where it holds from some index on (items.length if none). */
function firstAbove<T>(items: T[], above: (item: T) => boolean): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (above(items[middle] as T)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The claimed symbols an edit touches: those whose declaration lines contain text the edit
 * replaces. A whole-file write touches all of them; replaced text that cannot be found, or a
 * claimed symbol not in the file yet (claimed with --creating) that the new text mentions, counts
 * as touched. The parser loads only here, when another session holds a symbol of this file.
 */
async function touchedSymbols(file: string, edits: WriteRequest["edits"], claimed: Holding[]): Promise<Set<string>> {
  const names = claimed.map((holding) => shapeOf(holding.held_target as string).symbol as string);
  if (!edits) return new Set(names);
  let raw: string;
  try {
    raw = readFileSync(file, "utf8");
  } catch {
    return new Set(names);
  }
  // Claude Code matches an edit against the file with its CRLF line ends read as LF, and writes the
  // file back with one kind of line end. So the edit is found as it finds it, in the text as LF; and
  // in a file with both kinds (or a lone CR), writing it back changes the line ends of lines the
  // edit never named: any claimed symbol may be rewritten. (Found in the raw bytes, `replace_all`
  // of text a held symbol shares with CRLF ends was judged to touch only the other symbols.)
  const lineEnds = raw.includes("\r") ? (/\r(?!\n)|(?<!\r)\n/.test(raw) ? "mixed" : "crlf") : "lf";
  if (lineEnds === "mixed") return new Set(names);
  const source = lineEnds === "crlf" ? raw.replace(/\r\n/g, "\n") : raw;
  const [{ listSymbols }, { bindingsOf, dynamicBindings, reboundBetween, otherSpellings, starImports }] = await Promise.all([import("../targets/symbols.js"), import("../targets/bindings.js")]);
  const before = bindingsOf(names);
  // A file the grammar cannot read in time (symbols.ts): any claimed symbol may be what the edit changes.
  const symbols = await listSymbols(file, source, before).catch(() => undefined);
  if (symbols === undefined) return new Set(names);
  // Each occurrence's lines, and the symbols over them, found by halving: a replace_all on 3,000
  // lines counted each one's line from the top, and looked at every symbol for each.
  const starts = [0];
  for (let at = source.indexOf("\n"); at !== -1; at = source.indexOf("\n", at + 1)) starts.push(at + 1);
  const lineOf = (offset: number) => firstAbove(starts, (start) => start > offset);
  const ordered = [...symbols].sort((a, b) => a.endLine - b.endLine || a.startLine - b.startLine);
  const touched = new Set<string>();
  for (const edit of edits) {
    let at = edit.old === "" ? -1 : source.indexOf(edit.old);
    if (at === -1) return new Set(names);
    for (; at !== -1; at = source.indexOf(edit.old, at + 1)) {
      const first = lineOf(at);
      const last = lineOf(at + edit.old.length);
      // Top-level declarations do not overlap (one may end on the line the next starts on): in order
      // of their last lines, then first lines, their first lines are in order too.
      for (let index = firstAbove(ordered, (symbol) => symbol.endLine >= first); index < ordered.length && (ordered[index] as { startLine: number }).startLine <= last; index++) {
        touched.add((ordered[index] as { name: string }).name);
      }
    }
    for (const name of names) if (!symbols.some((symbol) => symbol.name === name) && edit.new.includes(name)) touched.add(name);
    // A held name spelled as its language also reads it (`\u0066oo`, Python's fullwidth letters): no grammar lists it so.
    for (const name of names) if (otherSpellings(edit.old, name) > 0 || otherSpellings(edit.new, name) > 0) touched.add(name);
  }
  // What the file declares under a held name after the edits, against before: an edit elsewhere
  // that adds a second declaration of it (or one the old text's range did not show) touches it too.
  const after = edits.reduce((text, edit) => (edit.old === "" ? text : text.split(edit.old).join(edit.new)), source);
  const declared = (text: string, list: Awaited<ReturnType<typeof listSymbols>>, name: string) => {
    const lines = text.split("\n");
    return list.filter((symbol) => symbol.name === name).map((symbol) => lines.slice(symbol.startLine - 1, symbol.endLine).join("\n"));
  };
  const parsedAfter = bindingsOf(names);
  const symbolsAfter = await listSymbols(file, after, parsedAfter).catch(() => undefined);
  // Python's `from m import *` binds, where it stands, whatever m exports, a held name too.
  if (/\.py$/i.test(file) && symbolsAfter !== undefined && starImports(source, symbols, names) !== starImports(after, symbolsAfter, names)) return new Set(names);
  // A name bound by one computed when the file runs (`globals()["foo"] = …`, `exports[name] = …`, `eval`): any held name.
  if (dynamicBindings(file, source) !== dynamicBindings(file, after)) return new Set(names);
  // An edit that leaves the file unreadable where it was not (an unclosed comment or string swallows
  // what follows) may have changed any declaration, whatever the recovered parse still lists; one
  // that changes what the whole file is compiled as (Rust's `#![cfg(…)]`), every one.
  if ((parsedAfter.hasError && !before.hasError) || parsedAfter.moduleAttributes !== before.moduleAttributes) return new Set(names);
  // Binding the held name anew in the module's scope (`foo = () => 9`, `if c:` then `foo = 1`,
  // `export { baz as foo }`), or changing such a binding (`foo = 2` in a function made `foo = 3`),
  // changes what it is: as the syntax tree shows, and as lines read.
  for (const name of names) if (reboundBetween(name, before, source, parsedAfter, after)) touched.add(name);
  for (const name of names) {
    if (symbolsAfter === undefined || declared(source, symbols, name).join("\0") !== declared(after, symbolsAfter, name).join("\0")) touched.add(name);
  }
  return touched;
}

