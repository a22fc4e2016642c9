// Which claims directory a written file belongs to, as the hook sees it: the one the `.claims`
// nearest the file names (a monorepo package with its own), found where the kernel takes the path,
// and for a tree written whole, every `.claims` under it. And the claims directory itself, which
// only the claims commands change (isWithin).
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { claimsDirOfConfig, defaultClaimsDir, type Environment, homeOf, resolveSettings } from "../protocol/settings.js";
import { TAKES_FILE } from "../protocol/store.js";
import { pinnedDirsIn } from "../protocol/pinned.js";
import { CONFIG_SEARCH_DEPTH, claimsDirsAbove, configBetween, configsUnder, globReach, isFile, isWithin, packagesOfLinked, pinned, unpinnedEnvironment, withUnmovedDefault } from "../protocol/routes.js";
import { inNotSearched, NOT_SEARCHED, walkTree } from "../os/walk-tree.js";
import { picomatch } from "../targets/picomatch.js";
import { canonicalPath, isDirectory } from "../targets/target.js";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";

/**
 * The claims directories, other than `own`, that the `.claims` configuration nearest each written
 * file names, with the files under each. None when --dir or CLAIMS_DIR pins one directory for all.
 * `cut`: the directories whose search below for `.claims` files stopped at its limits (a tree
 * written whole there may reach a package not found).
 */
export function claimsDirsElsewhere(
  files: string[],
  session: Session,
  own: string,
  kernelOf: (path: string) => string = (path) => kernelPath(path, session.cwd),
): Map<string, string[]> & { cut?: string[] } {
  const { elsewhere, note } = directories(session, own);
  if (pinned(session)) return elsewhere;
  const found: Map<string, string[]> & { cut?: string[] } = elsewhere;
  const under = new Map<string, string[]>();
  const configs = (at: string, depth = CONFIG_SEARCH_DEPTH) => {
    const key = `${depth} ${at}`;
    if (!under.has(key)) {
      const below = configsUnder(at, depth);
      if (below.truncated && !(found.cut ?? []).includes(at)) (found.cut ??= []).push(at);
      under.set(key, below);
    }
    return under.get(key) as string[];
  };
  for (const file of files) {
    if (file.startsWith(UNKNOWN_MARK)) {
      // A place unknown could be in any package below: judged in each one's directory too.
      for (const config of configs(session.cwd)) note(dirname(config), file);
      continue;
    }
    const glob = file.startsWith(GLOB_MARK);
    // Where the kernel takes it (`link/../x.ts`); a directory written whole (`rm -rf pkg`) from itself.
    const path = kernelOf(glob ? picomatch.scan(file.slice(GLOB_MARK.length)).base || "/" : file);
    let at = isDirectory(path) ? path : dirname(path);
    while (!existsSync(at) && at !== dirname(at)) at = dirname(at);
    const written = glob ? file : path;
    if (configBetween(at, session.cwd)) note(at, written);
    // A tree written whole (`git checkout .`, `rm -rf pkg`) reaches every `.claims` under it.
    if (glob || isDirectory(path)) for (const config of configs(at, glob ? globReach(file.slice(GLOB_MARK.length)) : CONFIG_SEARCH_DEPTH)) note(dirname(config), written);
  }
  return found;
}

/**
 * The claims directories, other than `own`, where a claim on another name of a written file with
 * more than one may be (packagesOfLinked), or on the file itself from before the `.claims` nearest
 * it appeared (packagesAbove), with the files: to judge the write in, never to claim it in.
 */
export function linkedDirsElsewhere(files: string[], session: Session, own: string, kernelOf: (path: string) => string): Map<string, string[]> {
  // Also for a session pinning one directory: the sessions that do not claim here where the
  // `.claims` nearest a file sends them, and this session's write must meet their claims.
  const { elsewhere, note, noteDir } = directories(session, own);
  const env = session.env ?? process.env;
  for (const file of files) {
    // A place unknown (`cp -t "$d" f`): judged by its tail where claims from here may have been made.
    if (file.startsWith(UNKNOWN_MARK)) {
      for (const dir of claimsDirsAbove(session.cwd, env)) noteDir(dir, file);
      continue;
    }
    const glob = file.startsWith(GLOB_MARK);
    const path = kernelOf(glob ? picomatch.scan(file.slice(GLOB_MARK.length)).base || "/" : file);
    const written = glob ? file : path;
    // A `.claims` above that cannot be read names no directory to look in (its own package's writes say so).
    for (const dir of claimsDirsAbove(isDirectory(path) ? path : dirname(path), env)) noteDir(dir, written);
    if (!glob) for (const other of packagesOfLinked(path)) note(other, path);
  }
  return elsewhere;
}

/**
 * The `.claims` files a call writes (edits, replaces, moves or removes) that send their package's
 * claims to a claims directory other than the one the package would fall back to without them:
 * each with its package directory and that claims directory. Changed or removed while another
 * holder holds there, those claims would go unseen (no take looks there any more) and their files
 * could be taken twice. One that cannot be read names no directory (its repair is let through).
 */
export function packageConfigsWritten(files: string[], session: Session, kernelOf: (path: string) => string): Array<{ config: string; at: string; dir: string }> {
  const env = session.env ?? process.env;
  const configs = new Set<string>();
  for (const file of files) {
    if (file.startsWith(UNKNOWN_MARK)) continue;
    if (!file.startsWith(GLOB_MARK)) {
      // By its own name too: a `.claims` that is a symlink to a config file is that config.
      for (const path of [kernelOf(file), join(kernelOf(dirname(file)), basename(file))]) {
        if (basename(path) === ".claims" && isFile(path)) configs.add(path);
      }
      continue;
    }
    // A glob (`rm */.claims`): the configs under its base that it matches, spelt as it is.
    const pattern = file.slice(GLOB_MARK.length).replace(/(?<=.)\/+$/, ""); // (`a*/`: its entries)
    if (!picomatch(pattern.slice(pattern.lastIndexOf("/") + 1) || "/", { dot: true })(".claims")) continue; // `rm src/*.ts`: no walk
    const base = picomatch.scan(pattern).base || "/";
    const real = kernelOf(base);
    const matches = picomatch(pattern, { dot: true });
    for (const config of [join(real, ".claims"), ...configsUnder(real, globReach(pattern))]) {
      if (isFile(config) && matches(join(base, config.slice(real.length)))) configs.add(config);
    }
  }
  const written: Array<{ config: string; at: string; dir: string }> = [];
  for (const config of configs) {
    const at = dirname(config);
    let dir: string;
    try {
      dir = claimsDirOfConfig(readFileSync(config, "utf8"), config, env);
    } catch {
      continue;
    }
    let without: string | undefined;
    try {
      without = resolveSettings({ cwd: dirname(at), env }).dir;
    } catch {
      without = undefined; // a broken config above: where the package's claims would go is not known
    }
    if (dir !== without && existsSync(dir)) written.push({ config, at, dir });
  }
  return written;
}

type Session = { cwd: string; dir?: string; env?: Environment };

/** Files by claims directory (other than `own`), noted by the directory whose settings name it. */
function directories(session: Session, own: string): { elsewhere: Map<string, string[]>; note: (at: string, file: string) => void; noteDir: (dir: string, file: string) => void } {
  const elsewhere = new Map<string, string[]>();
  const byDirectory = new Map<string, string>();
  const noteDir = (dir: string, file: string) => {
    if (dir !== own && !(elsewhere.get(dir) ?? []).includes(file)) elsewhere.set(dir, [...(elsewhere.get(dir) ?? []), file]);
  };
  const note = (at: string, file: string) => {
    let dir = byDirectory.get(at);
    // Where the sessions working there claim without CLAIMS_DIR: a pinned session looks there too.
    if (dir === undefined) byDirectory.set(at, (dir = resolveSettings({ cwd: at, env: unpinnedEnvironment(session.env ?? process.env) }).dir));
    noteDir(dir, file);
  };
  return { elsewhere, note, noteDir };
}

/**
 * The claims directories other sessions may claim in that the hook knows without a search, beside
 * the session's own and the ones its writes are routed to: the default one (where sessions without
 * a pin or a `.claims` claim; and the one XDG_STATE_HOME moves it from), the one a session here
 * would use without its pin, and the pinned directories the pointers in those name
 * (src/protocol/pinned.ts). For a tree written whole, which would drop the claims of any it holds.
 * A listing of `.pinned` in each: no more.
 */
export function claimsDirsKnown(session: Session, own: string): string[] {
  const env = session.env ?? process.env;
  const dirs = new Set([own, defaultClaimsDir(env, homeOf(env))]);
  if (pinned(session)) {
    try {
      dirs.add(resolveSettings({ cwd: session.cwd, env: unpinnedEnvironment(env) }).dir);
    } catch {
      // a `.claims` here that cannot be read names no directory (its own refusal says so)
    }
  }
  // And the one XDG_STATE_HOME moves the default from, where the sessions without it claim.
  for (const dir of withUnmovedDefault([...dirs], env)) dirs.add(dir);
  for (const dir of [...dirs]) for (const other of pinnedDirsIn(dir)) dirs.add(other);
  return [...dirs];
}

/** How far below a tree written whole, outside the session's project, claims directories are looked for: levels, and directories listed. */
const STORE_SEARCH_DEPTH = 8;
const STORE_SEARCH_DIRECTORIES = 2_000;

/**
 * The claims directories under `directory` (not itself), known by the take lock every take leaves
 * in one (a directory a `--dir` or another project's `.claims` names, that nothing here points
 * to): breadth first, node_modules, .git, .venv and __pycache__ aside, STORE_SEARCH_DEPTH levels and
 * STORE_SEARCH_DIRECTORIES directories at most (one past those limits is not found); under a glob
 * written whole (`glob`, its part below `directory`), only what it reaches.
 */
export function claimsDirsUnder(directory: string, glob?: string): string[] {
  const found: string[] = [];
  if (inNotSearched(directory)) return found; // `rm -rf ../other/node_modules`: no claims directory is kept there
  // Below a glob's base, only the directories its segments can match, and everything under those
  // (`rm -rf /tmp/x-*` removes x-run whole, and no other entry of /tmp): the others would use up
  // the directories listed before a matched one is reached. Not for `**` or braces, whose
  // segments cannot be told apart: the whole tree.
  const parts = glob?.split("/").filter((segment) => segment !== ""); // (`a*/`, `a*//b`: no empty segment)
  const segments = parts === undefined || parts.length === 0 || /\*\*|[{}]/.test(glob as string) ? undefined : parts.map((segment) => picomatch(segment, { dot: true }));
  const enter = segments && ((path: string, level: number) => level > segments.length || (segments[level - 1] as (name: string) => boolean)(basename(path)));
  walkTree(directory, { directories: STORE_SEARCH_DIRECTORIES, depth: STORE_SEARCH_DEPTH, skip: NOT_SEARCHED, ...(enter && { enter }) }, (entry, at) => {
    if (entry.name === TAKES_FILE && at !== directory && !entry.isDirectory()) found.push(at);
  });
  return found;
}

/** Where the kernel takes a path (canonicalPath); as the text reads it where it cannot be followed (a symlink loop, a name too long), which no check may stop at. */
export function kernelPath(path: string, cwd: string): string {
  try {
    return canonicalPath(path, cwd);
  } catch {
    return resolve(cwd, path);
  }
}

/** The claims directory a path is in (or is), known by the take lock every take leaves there; undefined for none. */
export function claimsDirAbove(path: string): string | undefined {
  for (let at = path; ; at = dirname(at)) {
    if (existsSync(join(at, TAKES_FILE))) return at;
    if (at === dirname(at)) return undefined;
  }
}

/**
 * Whether a `.claims` in `tree` or below it, on the way down to `dir`, names `dir` (both as the
 * kernel takes them): a package's own claims directory, in the package `tree` holds whole.
 */
export function namedByConfigIn(dir: string, tree: string, env: Environment): boolean {
  for (let at = dirname(dir); isWithin(at, tree); at = dirname(at)) {
    const config = join(at, ".claims");
    try {
      if (isFile(config) && kernelPath(claimsDirOfConfig(readFileSync(config, "utf8"), config, env), "/") === dir) return true;
    } catch {
      // a `.claims` that cannot be read names nothing
    }
    if (at === dirname(at)) return false;
  }
  return false;
}

export { isWithin };
