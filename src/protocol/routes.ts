// Which claims directory a target's claim lives in (docs/PROTOCOL.md 1a). A `.claims` file nearer
// the target than the caller's directory (a monorepo package with one of its own, a sibling
// project) names the directory where the sessions working beside the file claim it, and the hooks
// judge a write there; a claim made in the caller's own directory would not meet theirs. So a
// verb's targets go to the directory the `.claims` nearest each names (with none above it, the
// default: one directory per target, whoever asks), and the caller's own directory keeps a
// pointer (`.elsewhere/…`) so that beat and release without targets reach them.
import { existsSync, lstatSync, readdirSync, renameSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { foldPath } from "../targets/caseless.js";
import { lookupTable, remembered } from "../os/lookups.js";
import { BadInputError } from "../os/errors.js";
import { readSnapshot, removeQuietly, removeSetAside, touchWhenOld, writeTempFile } from "../os/files.js";
import { sha256Hex } from "../os/hash.js";
import { inNotSearched, NOT_SEARCHED, walkTree } from "../os/walk-tree.js";
import { picomatch } from "../targets/picomatch.js";
import { type Environment, hasConfigFile, resolveSettings, type Settings, unmovedDefault } from "./settings.js";
import { HELD_PREFIX, Store } from "./store.js";
import { namesSharedWith } from "./pinned.js";
import { claimFileName, isDirectory, parseTarget, holderTag, sharedClaimFileName } from "../targets/target.js";
import { holderOf, type CommonOptions } from "./context.js";

/** Pointers to the other claims directories a holder took in (routesOf), one file each: `.elsewhere/<holder tag>-<directory hash>`. */
export const ELSEWHERE_DIRECTORY = ".elsewhere";

/** Pointers unused this long are debris to `sweep` (a routed take rewrites one, a beat through it touches it). */
export const ELSEWHERE_DEBRIS_AGE_MS = 7 * 24 * 3600 * 1000;

export const isWithin = (path: string, directory: string) => path === directory || path.startsWith(directory.endsWith("/") ? directory : `${directory}/`);

/** Whether --dir or CLAIMS_DIR pins one claims directory for every target: no routing, nothing looked for elsewhere. */
export function pinned(options: { dir?: string; env?: Environment }): boolean {
  return options.dir !== undefined || Boolean((options.env ?? process.env).CLAIMS_DIR);
}

/**
 * Whether a `.claims` file may stand between `directory` and where the caller runs: false when
 * `directory` is `cwd` or under it with none in between, so the caller's own settings hold for it.
 */
export function configBetween(directory: string, cwd: string): boolean {
  if (!isWithin(directory, cwd)) return true;
  for (let at = directory; at !== cwd && at !== dirname(at); at = dirname(at)) if (existsSync(join(at, ".claims"))) return true;
  return false;
}

/**
 * The `.claims` files under a directory (not its own), node_modules, .git, .venv and __pycache__
 * aside, 16 levels and 20,000 directories at most (a folder of many files is one listing; about half
 * a second at most here): a monorepo's packages with claims directories of their own.
 */
export function configsUnder(directory: string, depth = CONFIG_SEARCH_DEPTH): string[] & { truncated?: boolean; unsearched?: boolean } {
  if (inNotSearched(directory)) return [];
  const found: string[] & { truncated?: boolean; unsearched?: boolean } = [];
  const walked = walkTree(directory, { directories: CONFIG_SEARCH_DIRECTORIES, depth: Math.min(depth, CONFIG_SEARCH_DEPTH), skip: NOT_SEARCHED }, (entry, at) => {
    // A `.claims` that is a symlink to a config file counts as the file (findConfig follows it).
    if (entry.name === ".claims" && at !== directory && (entry.isFile() || (entry.isSymbolicLink() && isFile(join(at, entry.name))))) found.push(join(at, entry.name));
  });
  // Cut short (a glob's reach aside: `*.md` matches nothing deeper) where packages claim in
  // directories of their own, one found or a `.claims` above: one further down may be missed. In a
  // tree with none seen, one is unlikely (`unsearched`: said, not refused).
  const cut = walked === "cut" || (walked === "deep" && depth >= CONFIG_SEARCH_DEPTH);
  if (cut && (found.length > 0 || packagesAbove(directory).length > 1)) found.truncated = true;
  else if (cut) found.unsearched = true;
  return found;
}

/**
 * How deep below its static base a glob can match: its pattern's segments, less one, without `**`
 * or braces (which may hold a `/`); as deep as the search goes otherwise.
 */
export function globReach(canonical: string): number {
  const pattern = picomatch.scan(canonical).glob;
  return /\*\*|[{}]/.test(pattern) ? CONFIG_SEARCH_DEPTH : pattern.split("/").length - 1;
}

/**
 * Where a file with more than one name may have another, claimed in another package's claims
 * directory (docs/PROTOCOL.md 5a): the outermost directory above it that holds a `.claims` or is a
 * git repository's, and every directory under it with a `.claims` (those directories' claims
 * directories, and the top's, are where its other names would be claimed). None for a file with
 * one name. A name outside that tree is not looked for.
 */
export function packagesOfLinked(path: string): string[] {
  let stats;
  try {
    stats = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return [];
  }
  return stats !== undefined && stats.isFile() && stats.nlink > 1 ? packagesAround(dirname(path)) : [];
}

/**
 * The packages of the tree a directory is in (packagesOfLinked): the outermost directory above it
 * holding a `.claims` or a git repository, and every directory under that with a `.claims`.
 */
export function packagesAround(directory: string): string[] {
  let top: string | undefined;
  for (let at = directory; ; at = dirname(at)) {
    if (hasConfigFile(at) || existsSync(join(at, ".git"))) top = at;
    if (at === dirname(at)) break;
  }
  if (top === undefined) return [];
  // Once per tree while a verb runs (a hook or a take judging several linked files walks it once);
  // not for longer: `claims mcp` runs for hours, and a package given a `.claims` since must be seen.
  const below = remembered(CONFIGS_BELOW, top, () => configsUnder(top as string).map(dirname));
  return [top, ...below];
}

const CONFIGS_BELOW = lookupTable<string[]>();

/**
 * Where a path's claims may have been made before the `.claims` nearest it appeared (a package given
 * one while sessions hold files in it, or one written to move a file's claims elsewhere): every
 * directory above `place` (itself included) that holds a `.claims`, and `/`, whose settings are the
 * default claims directory's. A take, check or hook write looks in their claims directories too,
 * read-only (src/protocol/linked.ts).
 */
export function packagesAbove(place: string): string[] {
  const found: string[] = [];
  for (let at = place; at !== dirname(at); at = dirname(at)) if (hasConfigFile(at)) found.push(at);
  found.push("/");
  return found;
}

/**
 * The environment without CLAIMS_DIR: where the sessions that do not pin one directory claim (a
 * package's `.claims`, else the default), which a session pinning one must look in too.
 */
export function unpinnedEnvironment(env: Environment): Environment {
  if (!env.CLAIMS_DIR) return env;
  const { CLAIMS_DIR: _pinned, ...rest } = env;
  return rest;
}

/**
 * Where the sessions that do not pin a claims directory claim each target, and look for it
 * (routesOf, judging, without `--dir` or CLAIMS_DIR); none where a `.claims` on the way cannot be
 * read. `literal`: files' paths as written on disk (routesOf).
 */
export function unpinnedHomes(inputs: string[], cwd: string, env: Environment, literal = false): Array<[string, string[]]> {
  const unpinned = { cwd, env: unpinnedEnvironment(env) };
  try {
    const routes = routesOf(inputs, unpinned, { literal, linked: true });
    return routes ? [...routes.dirs].map(([dir, { targets }]) => [dir, targets]) : [[resolveSettings(unpinned).dir, inputs]];
  } catch (error) {
    if (error instanceof BadInputError) return [];
    throw error;
  }
}

/** A package's settings, as a session working there without CLAIMS_DIR has them; undefined for one whose `.claims` cannot be read (no directory is known to look in). */
export function settingsOfPackage(at: string, env: Environment): Settings | undefined {
  try {
    return resolveSettings({ cwd: at, env: unpinnedEnvironment(env) });
  } catch (error) {
    if (error instanceof BadInputError) return undefined;
    throw error;
  }
}

/** The claims directory a package's settings name (settingsOfPackage). */
export function claimsDirOfPackage(at: string, env: Environment): string | undefined {
  return settingsOfPackage(at, env)?.dir;
}

/**
 * The claims directories the settings of `packages` name, once each; none for one whose `.claims`
 * cannot be read. With the default directory XDG_STATE_HOME moves, the one it moves from too
 * (unmovedDefault): the sessions without XDG_STATE_HOME claim there.
 */
export function claimsDirsOf(packages: string[], env: Environment): string[] {
  return withUnmovedDefault(packages.flatMap((at) => claimsDirOfPackage(at, env) ?? []), env);
}

/** `dirs`, once each, and after the default directory XDG_STATE_HOME moves the one it moves from (unmovedDefault). */
export function withUnmovedDefault(dirs: string[], env: Environment): string[] {
  const all = new Set<string>();
  for (const dir of dirs) {
    all.add(dir);
    const unmoved = unmovedDefault(dir, env);
    if (unmoved !== undefined) all.add(unmoved);
  }
  return [...all];
}

/** The claims directories of every `.claims` above `place` and the default (packagesAbove). */
export function claimsDirsAbove(place: string, env: Environment): string[] {
  return claimsDirsOf(packagesAbove(place), env);
}

/**
 * Where a target's claims are routed from: a directory or glob's own directory (a path that is a
 * directory counts as one), else the file's; the nearest one that exists.
 */
function placeOf(target: { kind: string; path: string }): { whole: boolean; place: string; missing: boolean } {
  const whole = target.kind === "directory" || target.kind === "glob" || (target.kind === "path" && isDirectory(target.path));
  let place = whole ? target.path.replace(/(.)\/$/, "$1") : dirname(target.path);
  // A directory not made yet (or a glob's base): nothing is under it, no package's `.claims` either.
  const missing = !existsSync(place);
  while (!existsSync(place) && place !== dirname(place)) place = dirname(place);
  return { whole, place, missing };
}

/** How many directories configsUnder lists at most, and how many levels below its directory. */
export const CONFIG_SEARCH_DIRECTORIES = 20_000;
export const CONFIG_SEARCH_DEPTH = 16;

/** A regular file (a symlink followed). */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface Routes {
  /** The caller's own claims directory (its cwd's `.claims`, or the default). */
  own: Settings;
  /**
   * Each claims directory the targets go to, with the targets (as given) and the `.claims` that
   * names it; `judgeOnly`, for a judging verb, where no target is claimed but a claim in its way
   * may be (another name of a file, a claim from before the `.claims` nearest it appeared);
   * `homeOf`, of those targets, the ones whose claims live there (the rest are only looked for).
   */
  dirs: Map<string, { targets: string[]; config?: string; judgeOnly?: boolean; homeOf?: string[] }>;
  /** Directory or glob targets whose tree was too big to search whole for the `.claims` below (configsUnder). */
  cut?: string[];
  /** The same, in a tree where no `.claims` was seen: noted, not refused. */
  unsearched?: string[];
}

/**
 * Where each target's claim lives: the claims directory a session working beside the target would
 * use (its nearest `.claims`, else the default), looked up from the target when a `.claims` may
 * stand between it and the caller's cwd (or it is outside it), else the caller's own; names in the
 * caller's own; for a directory or glob, also the directory every `.claims` under it names (the
 * sessions working there claim there). `literal`: the inputs are files' paths as written on disk, never globs or
 * symbols (parseTarget). `linked`, for a verb that judges (check, the guard): a file with more than
 * one name also goes to the claims directory of every package its other names may be in
 * (packagesOfLinked), where a claim on one of them would be. Undefined when --dir or CLAIMS_DIR
 * pins one directory for everything, or when every target goes to the caller's own.
 */
export function routesOf(inputs: string[], options: CommonOptions, { literal = false, linked = false } = {}): Routes | undefined {
  const env = options.env ?? process.env;
  if (pinned(options)) return undefined;
  const cwd = foldPath(resolve(options.cwd ?? process.cwd()));
  const own = resolveSettings({ cwd, env, ...(options.ttl !== undefined && { ttl: options.ttl }) });
  const dirs: Routes["dirs"] = new Map();
  const add = (dir: string, input: string, config?: string, judgeOnly = false) => {
    const entry = dirs.get(dir) ?? { targets: [], ...(config !== undefined && { config }), ...(judgeOnly && { judgeOnly }) };
    if (!judgeOnly) delete entry.judgeOnly;
    if (!entry.targets.includes(input)) entry.targets.push(input);
    if (!judgeOnly && !(entry.homeOf ??= []).includes(input)) entry.homeOf.push(input);
    dirs.set(dir, entry);
  };
  let cut: string[] | undefined;
  let unsearched: string[] | undefined;
  const settingsAt = new Map<string, Settings>();
  const betweenAt = new Map<string, boolean>();
  const at = (directory: string) => settingsAt.get(directory) ?? (settingsAt.set(directory, resolveSettings({ cwd: directory, env })), settingsAt.get(directory) as Settings);
  for (const input of inputs) {
    const target = parseTarget(input, { cwd, home: own.home }, literal);
    if (target.kind === "name") {
      add(own.dir, input);
      // A verb that judges also looks where this user's sessions with another XDG_STATE_HOME (or none) claim names.
      if (linked) for (const dir of namesSharedWith(own.dir, env)) add(dir, input, undefined, true);
      continue;
    }
    const { whole, place, missing } = placeOf(target);
    // The directory a session working beside the target uses: its nearest `.claims`, else the
    // default (the same for every caller, wherever it runs; as the hooks judge it).
    let between = betweenAt.get(place);
    if (between === undefined) betweenAt.set(place, (between = configBetween(place, cwd)));
    const nearest = between ? at(place) : own;
    add(nearest.dir, input, nearest.configPath);
    // A verb that judges also looks where the target's claims may have been made before the `.claims` nearest it appeared.
    if (linked) {
      for (const above of packagesAbove(place)) {
        const dir = claimsDirOfPackage(above, env);
        if (dir === undefined) continue;
        add(dir, input, at(above).configPath, true);
        const unmoved = unmovedDefault(dir, env);
        if (unmoved !== undefined) add(unmoved, input, undefined, true);
      }
    }
    if (!whole) {
      if (linked) for (const other of packagesOfLinked(target.path)) add(at(other).dir, input, at(other).configPath, true);
      continue;
    }
    // The packages below the existing directory above it are not below the target.
    if (missing) continue;
    const below = configsUnder(place, target.kind === "glob" ? globReach(target.canonical) : CONFIG_SEARCH_DEPTH);
    for (const config of below) add(at(dirname(config)).dir, input, config);
    if (below.truncated) (cut ??= []).push(input);
    if (below.unsearched) (unsearched ??= []).push(input);
  }
  const limits = { ...(cut !== undefined && { cut }), ...(unsearched !== undefined && { unsearched }) };
  if (dirs.size === 1 && dirs.has(own.dir) && cut === undefined && unsearched === undefined) return undefined;
  return { own, dirs, ...limits };
}

/**
 * The settings of a claims directory a target is routed to, as the sessions beside the target have
 * them: the TTL and group sharing of the `.claims` that names it (of none, for the default
 * directory: no `.claims` is above its targets, nor above `/`). The caller's own, for its own.
 */
export function settingsOf(routes: Routes, dir: string): { configAt?: string } {
  if (dir === routes.own.dir) return {};
  const config = routes.dirs.get(dir)?.config;
  return { configAt: config === undefined ? "/" : dirname(config) };
}

/** The search below `directories` for packages' `.claims`, said as stopped at its limits (`The …` to start a sentence). */
export function searchStopped(directories: string[], start = false): string {
  return `${start ? "The" : "the"} search below ${directories.join(", ")} for packages with a .claims of their own stopped at its limits (${CONFIG_SEARCH_DIRECTORIES.toLocaleString("en-US")} directories, ${CONFIG_SEARCH_DEPTH} levels)`;
}

/**
 * Bad input when the search for packages below a directory or glob target was cut short where
 * packages claim in directories of their own: one further down may have one, where a claim in it
 * would not be met (nor would it be judged there). `verb`: what the caller should do narrower
 * ("claim", "check").
 */
export function refuseCutShort(routes: Routes | undefined, verb: string): void {
  if (routes?.cut === undefined) return;
  throw new BadInputError(`${searchStopped(routes.cut, true)}, so a claim in one further down could be missed; ${verb} narrower targets, or have every session use one claims directory (--dir, CLAIMS_DIR).`);
}

/** The note for a search cut short where no `.claims` was seen (none when nothing was cut). */
export function unsearchedNote(routes: Routes | undefined): string[] {
  return routes?.unsearched ? [`${searchStopped(routes.unsearched)} and found none; one further down would not be looked in`] : [];
}

const named = (dir: string, config?: string) => (config ? `${dir} (named by ${config})` : dir);

/**
 * Bad input when one target reaches into two claims directories (a directory holding a package
 * with its own): a claim in one would not stop the sessions claiming in the other.
 */
export function oneDirectoryEach(routes: Routes, verb: string): void {
  const first = new Map<string, [string, string | undefined]>();
  for (const [dir, { targets, config }] of routes.dirs) {
    for (const target of targets) {
      const other = first.get(target);
      if (other === undefined) {
        first.set(target, [dir, config]);
        continue;
      }
      throw new BadInputError(
        `${target} reaches into two claims directories, ${named(...other)} and ${named(dir, config)}, and a claim in one does not stop the sessions claiming in the other: ${verb} the parts in separate calls (one per package), or pin one claims directory for every session with --dir or CLAIMS_DIR.`,
      );
    }
  }
}

/**
 * The one claims directory a take (or handover) acts in, for targets that all go to one other
 * directory; bad input when they go to several, since one take is atomic in one directory only.
 */
export function oneDirectory(routes: Routes, verb: string): string {
  oneDirectoryEach(routes, verb);
  const [[dir, { targets, config }], ...rest] = [...routes.dirs] as Array<[string, { targets: string[]; config?: string }]>;
  if (rest.length === 0) return dir;
  const [other, { targets: others, config: otherConfig }] = rest[0] as [string, { targets: string[]; config?: string }];
  throw new BadInputError(`${targets[0]} and ${others[0]} are claimed in two claims directories, ${named(dir, config)} and ${named(other, otherConfig)}: ${verb} them in separate calls.`);
}

function pointerName(holder: string, dir: string): string {
  return `${holderTag(holder)}-${sha256Hex(dir).slice(0, 24)}`;
}

/** Notes in the caller's own directory that the holder took in `dir`, so beat and release without targets reach it. Best effort. */
export function rememberElsewhere(own: Settings, holder: string, dir: string): void {
  try {
    const store = new Store(own.dir, { groupShared: own.groupShared });
    store.ensure();
    // Shared by its config, or 2770 already (made so by sessions whose config says so), as its files are.
    const directory = store.subdirectory(ELSEWHERE_DIRECTORY);
    const temp = writeTempFile(directory, `${JSON.stringify({ holder, dir })}\n`, store.fileMode, false);
    renameSync(temp, join(directory, pointerName(holder, dir)));
  } catch {
    // best effort: the claim itself is what counts; the holder can still name its targets
  }
}

/** The pointers in a claims directory: file name, holder and directory (unreadable ones with neither). */
export function pointersIn(ownDir: string): Array<{ name: string; holder?: string; dir?: string; mtimeMs: number }> {
  let names: string[];
  try {
    names = readdirSync(join(ownDir, ELSEWHERE_DIRECTORY));
  } catch {
    return []; // none made here: one failed call, the common case
  }
  return names.map((name) => {
    const snapshot = readSnapshot(join(ownDir, ELSEWHERE_DIRECTORY, name));
    const mtimeMs = snapshot.kind === "missing" ? 0 : snapshot.mtimeMs;
    try {
      const pointer = snapshot.kind === "file" ? (JSON.parse(snapshot.bytes.toString("utf8")) as { holder?: unknown; dir?: unknown }) : {};
      return typeof pointer.holder === "string" && typeof pointer.dir === "string" ? { name, holder: pointer.holder, dir: pointer.dir, mtimeMs } : { name, mtimeMs };
    } catch {
      return { name, mtimeMs };
    }
  });
}

/**
 * The pointers sweep removes (`.elsewhere/<name>` each): unused for 7 days, and naming a directory
 * where their holder has no held marker left. A claim with a TTL longer than that (up to 30 days)
 * is still held there by a holder that has not beaten for a week: without its pointer, the
 * holder's beat and release without targets no longer reached it, so it was neither renewed nor
 * reported lost, and a release of everything left it held for the rest of its TTL. Renamed aside
 * before it is judged, and put back when it was written again meanwhile (a take there: its marker
 * is written before the pointer) or a marker is there, as sweep does with `.pinned/` pointers.
 */
export function sweepElsewhere(ownDir: string, dryRun: boolean, nowMs: number): string[] {
  const swept: string[] = [];
  for (const pointer of pointersIn(ownDir)) {
    if (nowMs - pointer.mtimeMs <= ELSEWHERE_DEBRIS_AGE_MS) continue;
    const path = join(ownDir, ELSEWHERE_DIRECTORY, pointer.name);
    const unused = (at: string) => {
      const read = pointerAt(at, pointer.name);
      if (read === undefined) return false; // gone meanwhile
      if (nowMs - read.mtimeMs <= ELSEWHERE_DEBRIS_AGE_MS) return false;
      return read.holder === undefined || read.dir === undefined || !holdsMarkersIn(read.dir, read.holder);
    };
    if (!unused(path)) continue;
    if (dryRun || pointer.name.startsWith(".")) {
      if (dryRun || removeQuietly(path)) swept.push(`${ELSEWHERE_DIRECTORY}/${pointer.name}`);
      continue;
    }
    if (!removeSetAside(path, join(ownDir, ELSEWHERE_DIRECTORY, `.swept-${pointer.name}`), unused)) continue;
    swept.push(`${ELSEWHERE_DIRECTORY}/${pointer.name}`);
  }
  return swept;
}

function pointerAt(path: string, name: string): { holder?: string; dir?: string; mtimeMs: number } | undefined {
  const snapshot = readSnapshot(path);
  if (snapshot.kind === "missing") return undefined;
  try {
    const pointer = snapshot.kind === "file" ? (JSON.parse(snapshot.bytes.toString("utf8")) as { holder?: unknown; dir?: unknown }) : {};
    if (typeof pointer.holder === "string" && typeof pointer.dir === "string" && name.startsWith(`${holderTag(pointer.holder)}-`)) return { holder: pointer.holder, dir: pointer.dir, mtimeMs: snapshot.mtimeMs };
  } catch {
    // not a pointer: debris
  }
  return { mtimeMs: snapshot.mtimeMs };
}

/** Whether the holder has a held marker in the claims directory `dir` (a claim granted it there, not released or reported lost). */
function holdsMarkersIn(dir: string, holder: string): boolean {
  const prefix = `${HELD_PREFIX}${holderTag(holder)}-`;
  try {
    return readdirSync(dir).some((name) => name.startsWith(prefix));
  } catch (error) {
    // Gone: nothing held there. Unreadable now (a mount away, permissions): kept, as it may be.
    return (error as NodeJS.ErrnoException).code !== "ENOENT" && (error as NodeJS.ErrnoException).code !== "ENOTDIR";
  }
}

/**
 * The other claims directories the holder took in from the directory a verb runs in (that still
 * exist), each with `touch` (a beat through the pointer keeps it from being swept as unused) and
 * `forget` (a release of everything there is done with it).
 */
export function pointedFrom(options: CommonOptions, holder: string): Array<{ dir: string; touch: () => void; forget: () => void }> {
  const settings = ownSettings(options);
  const prefix = `${holderTag(holder)}-`;
  return pointersIn(settings.dir)
    .filter((pointer) => pointer.name.startsWith(prefix) && pointer.holder === holder && pointer.dir !== undefined && pointer.dir !== settings.dir && existsSync(pointer.dir))
    .map((pointer) => {
      const path = join(settings.dir, ELSEWHERE_DIRECTORY, pointer.name);
      return {
        dir: pointer.dir as string,
        touch: () => touchWhenOld(path, pointer.mtimeMs),
        forget: () => removeQuietly(path),
      };
    });
}

/**
 * A verb over a holder's claims (beat, release) where they live: named targets each in its
 * directory; none named, in the caller's own and every other directory the holder's pointers name,
 * each pointer then touched (a beat) or forgotten (a release of everything there).
 */
export function inTheirDirectories<Options extends CommonOptions & { targets?: string[] }, Result extends { holder: string }>(
  options: Options,
  run: (options: Options) => Result,
  afterwards: "touch" | "forget",
): Result {
  const named = options.targets ?? [];
  const routes = named.length > 0 ? routesOf(named, options) : undefined;
  if (named.length > 0) {
    const moved = heldWhereMade(named, routes, options);
    if (moved) return mergeResults([...moved].map(([dir, targets]) => run({ ...options, dir, targets, ...(routes?.dirs.has(dir) ? settingsOf(routes, dir) : {}) })));
  }
  if (routes) return mergeResults([...routes.dirs].map(([dir, { targets }]) => run({ ...options, dir, targets, ...settingsOf(routes, dir) })));
  const results = [run(options)];
  if (named.length === 0) {
    const holder = (results[0] as Result).holder;
    for (const { dir, pointer } of heldElsewhere(options, holder)) {
      results.push(run({ ...options, dir }));
      pointer?.[afterwards]();
      // A claim handed over to the holder there (or granted it) once its release was done there is
      // the holder's, and its pointer, which the handover may have written again just before it was
      // forgotten, is kept: the claim's held marker is written before the pointer, and read after.
      if (pointer !== undefined && afterwards === "forget" && holdsAnyIn(dir, holder)) rememberElsewhere(ownSettings(options), holder, dir);
    }
  }
  return mergeResults(results);
}

/**
 * The other claims directories a holder's claims made from here live in, which beat, release and
 * `status --mine` without targets act in besides the caller's own: each one the holder's pointers
 * name (with the pointer, to touch or forget), then each directory of a `.claims` above the
 * current one (and the default) where the holder has held markers: where it took from here before
 * that `.claims` appeared, or from above it (claimsDirsAbove).
 */
export function heldElsewhere(options: CommonOptions, holder: string): Array<{ dir: string; pointer?: { touch: () => void; forget: () => void } }> {
  const found: Array<{ dir: string; pointer?: { touch: () => void; forget: () => void } }> = pointedFrom(options, holder).map((pointer) => ({ dir: pointer.dir, pointer }));
  const done = new Set([ownSettings(options).dir, ...found.map(({ dir }) => dir)]);
  for (const dir of pinned(options) ? [] : claimsDirsAbove(foldPath(resolve(options.cwd ?? process.cwd())), options.env ?? process.env)) {
    if (!done.has(dir) && existsSync(dir) && holdsAnyIn(dir, holder)) found.push({ dir });
  }
  return found;
}

/** The settings of the directory a verb runs in, as given (--dir, cwd, environment). */
function ownSettings(options: CommonOptions): Settings {
  return resolveSettings({ ...(options.dir !== undefined && { dir: options.dir }), ...(options.cwd !== undefined && { cwd: options.cwd }), env: options.env ?? process.env });
}


/**
 * Named targets the holder holds only in a claims directory they are no longer routed to (a
 * `.claims` appeared nearer them since they were taken, docs/PROTOCOL.md 1a), moved there: a beat
 * or release acts on the claim where it is. Undefined when none is.
 */
function heldWhereMade(named: string[], routes: Routes | undefined, options: CommonOptions): Map<string, string[]> | undefined {
  if (pinned(options)) return undefined;
  const env = options.env ?? process.env;
  const cwd = foldPath(resolve(options.cwd ?? process.cwd()));
  const own = routes?.own ?? resolveSettings({ cwd, env });
  const placed = new Map<string, string[]>(routes ? [...routes.dirs].map(([dir, { targets }]) => [dir, [...targets]]) : [[own.dir, [...named]]]);
  let holder: string | undefined;
  let moved = false;
  for (const [dir, targets] of [...placed]) {
    for (const input of [...targets]) {
      let target;
      try {
        target = parseTarget(input, { cwd, home: own.home });
      } catch {
        continue; // bad input: the verb says so
      }
      if (target.kind === "name") continue;
      holder ??= holderOf(options);
      if (holdsIn(dir, target.canonical, holder)) continue;
      const there = claimsDirsAbove(placeOf(target).place, env).find((other) => other !== dir && holdsIn(other, target.canonical, holder as string));
      if (there === undefined) continue;
      targets.splice(targets.indexOf(input), 1);
      placed.set(there, [...(placed.get(there) ?? []), input]);
      moved = true;
    }
  }
  if (!moved) return undefined;
  for (const [dir, targets] of placed) if (targets.length === 0) placed.delete(dir);
  return placed;
}

/** Whether `holder` holds a claim (exclusive or shared) on `canonical` in the claims directory `dir`. */
export function holdsIn(dir: string, canonical: string, holder: string): boolean {
  if (!existsSync(dir)) return false;
  const store = new Store(dir);
  return [claimFileName(canonical), sharedClaimFileName(canonical, holder)].some((name) => {
    const read = store.read(name);
    return read.state === "claim" && read.claim.holder === holder;
  });
}

/** Whether `holder` holds any claim in `dir` (its held markers say so, without reading every claim). */
function holdsAnyIn(dir: string, holder: string): boolean {
  const prefix = `${HELD_PREFIX}${holderTag(holder)}-`;
  try {
    return readdirSync(dir).some((name) => name.startsWith(prefix));
  } catch {
    return false;
  }
}

/**
 * Of the targets a read-only verb judged per directory, the canonical ones some directory did not
 * find `ok` (allowed, free): a directory reaching two claims directories is ok only where each says so.
 */
export function notOkEverywhere(routes: Routes, parts: Array<{ targets: string[]; ok: string[] }>): Set<string> {
  const missed = new Set<string>();
  for (const { targets, ok } of parts) {
    for (const input of targets) {
      const canonical = parseTarget(input, { cwd: routes.own.cwd, home: routes.own.home }).canonical;
      if (!ok.includes(canonical)) missed.add(canonical);
    }
  }
  return missed;
}

/** One result of a verb run in several claims directories: their lists joined, the rest as the first said it. */
export function mergeResults<Result extends object>(results: Result[]): Result {
  const merged = { ...results[0] } as Record<string, unknown>;
  for (const result of results.slice(1)) {
    for (const [key, value] of Object.entries(result)) {
      const before = merged[key];
      if (Array.isArray(value)) merged[key] = Array.isArray(before) ? [...before, ...value] : value;
      else if (before === undefined) merged[key] = value;
    }
  }
  return merged as Result;
}
