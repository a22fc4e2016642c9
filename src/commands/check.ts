// check: may I write these targets? 0 when no other holder's fresh claim covers any of them (a
// directory above, a glob, a symbol in the file, the file itself), 3 when one does. For shell
// scripts and git hooks: `claims check "$f" || exit $?`.
import { globClaimsReaching, symlinksSeen, walkCutShortNote } from "../protocol/aliases.js";
import { findConflicts, overlappingClaims, refusalOf } from "../protocol/conflicts.js";
import { claimCovers, shapeOf, type TargetShape } from "../targets/overlap.js";
import { newerTokenOfOtherIn } from "../protocol/fencing.js";
import { queueAhead } from "../protocol/grant.js";
import { claimedAsPath, QUEUE_PREFIX, readQueue, type QueuedInterest } from "../protocol/queue.js";
import { holderIfAny, openContext, ownFreshness, parseTargets, type CommonOptions, type Context, type Holding } from "../protocol/context.js";
import { canonicalPath, claimFileName, fileStandIn, holderTag, MAX_TARGET_BYTES, looksLikePath, parseTarget, partsOfFileName, pathItWillBe, standInPath } from "../targets/target.js";
import { notOkEverywhere, pinned, refuseCutShort, unsearchedNote, routesOf } from "../protocol/routes.js";
import { linkedContexts, lookThroughLinks } from "../protocol/linked.js";
import { pinnedDirsFor } from "../protocol/pinned.js";
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { BadInputError } from "../os/errors.js";
import { resolveSettings } from "../protocol/settings.js";
import { asOneVerb } from "../os/lookups.js";
import { checkOptionTypes } from "./option-types.js";

export interface CheckOptions extends CommonOptions {
  targets: string[];
  /** A fencing token: allowed only while the claim on each target carries exactly this token. */
  token?: number;
}

export interface Fenced {
  target: string;
  token: number;
  /** The token the claim on the target carries now, or the newer one issued on `newer_token_target`. */
  current_token?: number;
  /** Another holder was issued `current_token` on this target, which overlaps the one checked. */
  newer_token_target?: string;
  /** A claim covering the target carries the token, but it is this holder's, not the caller's. */
  carried_by?: string;
}

export interface CheckResult {
  dir: string;
  /** Undefined when no holder could be resolved: then every fresh claim counts as another's. */
  holder?: string;
  /** The claims directory does not exist (yet): nothing is claimed there. A typo in CLAIMS_DIR looks like this. */
  directory_missing?: true;
  allowed: string[];
  refused: Holding[];
  /**
   * With a token: targets no claim carrying the token covers any more (gone, or a later holding),
   * or where another holder was issued a newer token on an overlapping target since.
   */
  fenced: Fenced[];
  /** Notes about the targets as given, e.g. a file-looking word no claim names, checked as the file it will be. */
  warnings?: string[];
}

export function check(options: CheckOptions): CheckResult {
  checkOptionTypes("check", options);
  return asOneVerb(() => checkNow(options));
}

function checkNow(options: CheckOptions): CheckResult {
  const notes: string[] = [];
  // (Settings read again only where a path may be too long: most checks never pay for it.)
  const here = options.cwd ?? process.cwd();
  // (As written too: `..` shortens the text resolve makes, not the path parseTarget measures.)
  const long = options.targets.some((input) => Buffer.byteLength(input) > MAX_TARGET_BYTES || Buffer.byteLength(resolve(here, input)) > MAX_TARGET_BYTES);
  const settings = long ? resolveSettings({ ...(options.cwd !== undefined && { cwd: options.cwd }), ...(options.env !== undefined && { env: options.env }) }) : undefined;
  const result = checkRouted(settings === undefined ? options : { ...options, targets: options.targets.map((input) => withinLength(input, settings.cwd, settings.home, notes)) });
  return notes.length === 0 ? result : { ...result, warnings: [...notes, ...(result.warnings ?? [])] };
}

function checkRouted(options: CheckOptions): CheckResult {
  // Each target is judged in the claims directory where its claims live (src/protocol/routes.ts).
  const routes = routesOf(options.targets, options, { linked: true });
  refuseCutShort(routes, "check");
  const unsearched = unsearchedNote(routes);
  if (!routes || (routes.dirs.size === 1 && routes.dirs.has(routes.own.dir))) {
    const result = checkIn(options);
    if (!routes && pinned(options)) metElsewhere(result, options);
    else metInPinned(result, [[result.dir, options.targets]], options);
    return unsearched.length === 0 ? result : { ...result, warnings: [...(result.warnings ?? []), ...unsearched] };
  }
  // A token is fenced by where its claim lives: a directory a target is only looked for in (another
  // package's, one above) holds no claim carrying it, and would fence every fresh holding.
  const { token: _token, ...untokened } = options;
  // The targets whose claims live in a directory are judged there apart from those only looked for
  // there (claims from before a nearer `.claims`, another name's, another default directory's),
  // whose refusals say where they are: no queue from here waits for them.
  const parts = [...routes.dirs].flatMap(([dir, { targets, judgeOnly, homeOf = [] }]) => {
    const home = targets.filter((target) => homeOf.includes(target));
    const looked = targets.filter((target) => !home.includes(target));
    return [
      ...(home.length > 0 ? [{ dir, targets: home, judgeOnly, apart: false, result: checkIn({ ...options, dir, targets: home }) }] : []),
      ...(looked.length > 0 ? [{ dir, targets: looked, judgeOnly, apart: true, result: checkIn({ ...untokened, dir, targets: looked }) }] : []),
    ];
  });
  const notEverywhere = notOkEverywhere(routes, parts.map(({ targets, result }) => ({ targets, ok: result.allowed })));
  const merged: CheckResult = { dir: routes.own.dir, allowed: [], refused: [], fenced: [] };
  for (const { dir, apart, result } of parts) {
    if (result.holder !== undefined) merged.holder = result.holder;
    if (apart) result.refused = result.refused.map((holding) => ({ ...holding, claims_dir: dir }));
    merged.allowed.push(...result.allowed.filter((target) => !notEverywhere.has(target) && !merged.allowed.includes(target)));
    // One claim made in two directories (a directory above a package with its own `.claims`) is one refusal.
    const seen = (holding: Holding) => merged.refused.some((other) => other.target === holding.target && other.holder === holding.holder && other.held_target === holding.held_target);
    merged.refused.push(...result.refused.filter((holding) => !seen(holding)));
    merged.fenced.push(...result.fenced);
    if (result.warnings) (merged.warnings ??= []).push(...result.warnings);
  }
  // Nothing claimed where the targets' claims live (other directories were only looked in): named
  // by that directory, when it is one.
  const homes = parts.filter(({ judgeOnly }) => !judgeOnly);
  if (homes.every(({ result }) => result.directory_missing)) {
    merged.directory_missing = true;
    if (homes.length === 1) merged.dir = homes[0]?.result.dir as string;
  }
  // A word that reads like a path and is claimed as a name in one directory is that name in them
  // all: not also the file it will be where no claim there names it (fileStandIn, per directory).
  for (const word of new Set(merged.refused.filter((holding) => shapeOf(holding.target).kind === "name").map((holding) => holding.target))) {
    const standIn = standInPath(word, routes.own);
    merged.allowed = merged.allowed.filter((target) => target !== standIn);
    merged.warnings = merged.warnings?.filter((warning) => !warning.startsWith(`no claim names ${word} and `));
    if (merged.warnings?.length === 0) delete merged.warnings;
  }
  metInPinned(merged, [...routes.dirs].map(([dir, { targets }]) => [dir, targets]), options);
  if (unsearched.length > 0) (merged.warnings ??= []).push(...unsearched);
  if (merged.warnings) merged.warnings = [...new Set(merged.warnings)]; // one note per target, however many directories it was judged in
  return merged;
}

/**
 * One directory pinned (`--dir`, `CLAIMS_DIR`): the claims that sessions not pinning it made where
 * a package's `.claims` sends them (or on another name of the file) are in the way too, read-only
 * (lookThroughLinks), as a take here would meet them.
 */
function metElsewhere(result: CheckResult, options: CheckOptions): void {
  const context = openContext(options);
  for (const target of parseTargets(options.targets, context)) {
    if (!result.allowed.includes(target.canonical)) continue;
    let found = lookThroughLinks(target, new Set([result.dir]), "exclusive", result.holder, options).found;
    // A holder sharing the target writes beside the others sharing it, wherever they claimed (asked only where something is in the way).
    if (found.length > 0 && sharesIn([result.dir], target, result.holder, options)) found = lookThroughLinks(target, new Set([result.dir]), "shared", result.holder, options).found;
    if (found.length === 0) continue;
    result.allowed = result.allowed.filter((allowed) => allowed !== target.canonical);
    result.refused.push(...found.map(({ dir, holding }) => ({ ...holding, claims_dir: dir })));
  }
}

/**
 * The claims that sessions pinning a directory of their own made on these targets, where the
 * pointers in the directories judged send (src/protocol/pinned.ts): in the way too, read-only.
 * One such directory this user may not read is passed over.
 */
function metInPinned(result: CheckResult, judgedFor: Array<[string, string[]]>, options: CheckOptions): void {
  const judged = judgedFor.map(([dir]) => dir);
  for (const dir of pinnedDirsFor(judgedFor).keys()) {
    let found: Holding[];
    try {
      const context = openContext({ ...options, dir });
      const names = context.store.claimFileNames();
      found = result.allowed.flatMap((target) => {
        const conflicts = findConflicts(shapeOf(target), "exclusive", result.holder, context, names);
        // A holder sharing the target writes beside the others sharing it, wherever they claimed
        // (asked only where something is in the way: it lists the directories judged again).
        const beside = conflicts.length > 0 && sharesIn(judged, shapeOf(target), result.holder, options) ? findConflicts(shapeOf(target), "shared", result.holder, context, names) : conflicts;
        return beside.map((holding) => ({ ...holding, claims_dir: dir }));
      });
    } catch {
      continue;
    }
    result.allowed = result.allowed.filter((allowed) => !found.some((holding) => holding.target === allowed));
    result.refused.push(...found);
  }
}

function checkIn(options: CheckOptions): CheckResult {
  const context = openContext(options);
  const holder = holderIfAny(options);
  const result: CheckResult = { dir: context.settings.dir, allowed: [], refused: [], fenced: [] };
  if (holder !== undefined) result.holder = holder;
  const mode = modeOf(context.settings.dir);
  if (mode === undefined) result.directory_missing = true;
  // take refuses such a directory; a check in it answers, but says what the answer is worth.
  else if (mode & 0o002) (result.warnings ??= []).push(`the claims directory ${context.settings.dir} is world-writable: anyone on the machine can forge or remove claims in it, so this answer guarantees nothing (chmod o-w ${context.settings.dir})`);
  const fileNames = context.store.claimFileNames();
  // A waiter queued for a target goes first (a take of it is refused, and so is an agent hook's
  // write): read only where the directory has a queue at all.
  let queue: QueuedInterest[] | undefined;
  const queued = () => (queue ??= context.store.names().some((name) => name.startsWith(QUEUE_PREFIX)) ? readQueue(context) : []);
  for (const named of parseTargets(options.targets, context)) {
    // `claims check gen.txt` before creating gen.txt (or `build` before build/): another session may hold the path it will be.
    const standIn = fileStandIn(named, fileNames, context.settings);
    if (standIn) {
      const { path, what } = pathItWillBe(named.canonical);
      (result.warnings ??= []).push(`no claim names ${named.canonical} and no such ${what} exists here, so it was checked as the ${what} ${path} will be`);
    }
    const target = standIn ?? named;
    // A word that reads like a file or directory and that a claim names (the caller's own name claim,
    // say) is also the path it will be: a write of it needs both free. Not `name:gen.txt`, nor a word like
    // `migrate-db`, which scripts take as a lock (write ./deploy for such a file).
    // (Nor a bare word whose path another holder's fresh claim names: `notes`, which an MCP `claim` with `creating` takes as ./notes.)
    const file = standIn === undefined && (looksLikePath(named) || (named.kind === "name" && named.named !== true && claimedAsPath(named.canonical, holder, context))) ? wordAsPath(named.canonical, context) : undefined;
    const conflicts = [target, ...(file ? [file] : [])].flatMap((each) => findConflicts(each, modeFor(each, holder, fileNames, context), holder, context, fileNames));
    // A glob also reaches what the symlinks it matches lead to, as a take of it does (docs/PROTOCOL.md 5a).
    if (target.kind === "glob") {
      const { links, complete } = symlinksSeen(target, context.settings.home);
      const mode = modeFor(target, holder, fileNames, context);
      for (const { link, real } of links) conflicts.push(...findConflicts(real, mode, holder, context, fileNames).map((holding) => refusalOf(target.canonical, { holding, link })));
      if (!complete && fileNames.some((name) => name !== target.fileName)) (result.warnings ??= []).push(walkCutShortNote(target.canonical));
    }
    if (file && conflicts.some((holding) => holding.target === file.canonical)) {
      const { path, what } = pathItWillBe(named.canonical);
      (result.warnings ??= []).push(`${named.canonical} was also checked as the ${what} ${path} it will be; check name:${named.canonical} to ask about the name alone`);
    }
    if (options.token !== undefined) {
      const fenced = fenceOf(target, options.token, holder, context, fileNames, options);
      if (fenced) {
        result.fenced.push(fenced);
        continue;
      }
    }
    if (conflicts.length === 0 && queued().length > 0 && !(holder !== undefined && holdsFresh(target, holder, fileNames, context))) {
      const mode = modeFor(target, holder, fileNames, context);
      for (const { entry } of queueAhead(target.canonical, mode, holder ?? "", queued())) {
        conflicts.push({ target: target.canonical, holder: entry.holder, purpose: entry.purpose, heartbeat_at: entry.heartbeat_at, heartbeat_age_seconds: 0, queued: true });
      }
    }
    if (conflicts.length > 0) result.refused.push(...conflicts);
    else result.allowed.push(target.canonical);
  }
  return result;
}

/**
 * A path longer than a target may be (a deep generated tree) is no one's target, but a claim on a
 * directory above it covers it: checked as the longest directory above it that fits, as the agent
 * hooks judge such a write (a claim on another file in that directory refuses it too: a false
 * conflict, never a missed one). Globs, names and symbols are judged as given.
 */
function withinLength(input: string, cwd: string, home: string, notes: string[]): string {
  if (/^(name|glob):/.test(input) || input.includes("#") || /[*?[{]/.test(input) || input.startsWith("~")) return input;
  try {
    parseTarget(input, { cwd, home });
    return input;
  } catch (error) {
    // Only a path too long to be a target (as it resolves: through a symlink it may be short).
    if (!(error instanceof BadInputError && /^A target is \d+ bytes long/.test(error.message))) return input;
  }
  // `..` applied as the kernel applies it, after the symlinks before it (read as text, it could cut
  // back to another directory than the kernel reaches).
  const path = input.split("/").includes("..") ? canonicalPath(input, cwd) : resolve(cwd, input);
  // Where the path leads: the longest part of it that exists, through its symlinks, then the rest.
  let existing = path;
  while (!existsSync(existing) && existing !== dirname(existing)) existing = dirname(existing);
  let real: string;
  try {
    real = join(realpathSync(existing), relative(existing, path));
  } catch {
    return input;
  }
  if (Buffer.byteLength(real) <= MAX_TARGET_BYTES) return real;
  let at = dirname(real);
  while (Buffer.byteLength(at) > MAX_TARGET_BYTES - 1 && at !== dirname(at)) at = dirname(at);
  notes.push(`${input.length > 80 ? `${input.slice(0, 77)}...` : input} is longer than a target may be (${MAX_TARGET_BYTES} bytes): checked as the directory ${at}/ above it`);
  return `${at}/`;
}

/** Writing needs exclusive access, unless the caller itself shares the target with others. */
function modeFor(target: TargetShape, holder: string | undefined, fileNames: string[], context: Context): "shared" | "exclusive" {
  return holder !== undefined && holdsShared(target, holder, fileNames, context) ? "shared" : "exclusive";
}

/** The file `./word` (or directory `./word/`, pathItWillBe) in the current directory, when the word can name one there. */
function wordAsPath(word: string, context: Context): TargetShape | undefined {
  try {
    const path = parseTarget(pathItWillBe(word).path, { cwd: context.settings.cwd, home: context.settings.home });
    return path.kind === "path" || path.kind === "directory" ? path : undefined;
  } catch {
    return undefined; // a word no file could be named (too long for the file system)
  }
}

/** Whether the holder holds a fresh shared claim covering the target in one of these directories. */
function sharesIn(dirs: string[], target: TargetShape, holder: string | undefined, options: CheckOptions): boolean {
  if (holder === undefined) return false;
  return dirs.some((dir) => {
    const context = openContext({ ...options, dir });
    return holdsShared(target, holder, context.store.claimFileNames(), context);
  });
}

/** Whether the holder holds a fresh claim covering the target (exclusive or shared). */
function holdsFresh(target: TargetShape, holder: string, fileNames: string[], context: Context): boolean {
  return fileNames.some((fileName) => {
    const read = context.store.read(fileName);
    return read.state === "claim" && read.claim.holder === holder && claimCovers(shapeOf(read.claim.target), target) && !ownFreshness(read.claim, read.mtimeMs, context).stale;
  });
}

function holdsShared(target: TargetShape, holder: string, fileNames: string[], context: Context): boolean {
  const tag = holderTag(holder);
  return fileNames.some((fileName) => {
    if (partsOfFileName(fileName).sharedTag !== tag) return false;
    const read = context.store.read(fileName);
    return (
      read.state === "claim" &&
      read.claim.holder === holder &&
      claimCovers(shapeOf(read.claim.target), target) &&
      !ownFreshness(read.claim, read.mtimeMs, context).stale
    );
  });
}

/**
 * A write under `token` is fenced unless a claim carrying that token covers the target (the claim
 * on the target itself, a directory above it, a glob matching it or a symlink to it, the file of a symbol), and no
 * other holder was issued a newer token on anything overlapping the target since: a lapsed claim
 * whose region another holder took meanwhile must not write again; here, or in the other claims
 * directories a take of it looks in, whose takes issue tokens above this one's (docs/PROTOCOL.md 4a).
 */
function fenceOf(target: TargetShape, token: number, holder: string | undefined, context: Context, fileNames: string[], options: CheckOptions): Fenced | undefined {
  const own = context.store.read(claimFileName(target.canonical));
  const current = own.state === "claim" ? own.claim.token : undefined;
  const covering = [
    ...(own.state === "claim" ? [own.claim] : []),
    ...overlappingClaims(target, context, fileNames).flatMap(({ read }) => (read.state === "claim" ? [read.claim] : [])),
  ].filter((claim) => claimCovers(shapeOf(claim.target), target));
  // A glob's claim also covers what a symlink it matched leads to, while its marker covers it (docs/PROTOCOL.md 5a).
  for (const { marker, claim } of globClaimsReaching(target, context)) if (claimCovers(shapeOf(marker.real), target)) covering.push(claim);
  const carrier = covering.find((claim) => claim.token === token && (holder === undefined || claim.holder === holder));
  if (!carrier) {
    // The token is carried, by another holder's claim: the caller's write is not that holding's.
    const other = covering.find((claim) => claim.token === token);
    if (other) return { target: target.canonical, token, carried_by: other.holder };
    return { target: target.canonical, token, ...(current !== undefined && { current_token: current }) };
  }
  // Shared holders coexist: a shared claim is fenced by a newer exclusive holding of another only.
  const newer = newerTokenOfOtherIn([context, ...linkedContexts(target, context.store.dir, holder, options)], target, carrier.holder, token, carrier.mode === "shared");
  if (!newer) return undefined;
  return { target: target.canonical, token, current_token: newer.token, ...(newer.target !== target.canonical && { newer_token_target: newer.target }) };
}

/** The claims directory's mode, or undefined where it does not exist (yet). */
function modeOf(dir: string): number | undefined {
  try {
    return statSync(dir).mode;
  } catch {
    return undefined;
  }
}
