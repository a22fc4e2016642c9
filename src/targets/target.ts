// Targets and their claim file names.
//
// A target is a name (`shared-config`) or a file path. Paths are canonical: absolute, with
// symlinks resolved through the longest existing prefix, and names folded where the file system
// ignores case (src/targets/caseless.ts), so every spelling of one file (relative, `./`, absolute,
// through a symlinked directory, in another case) is one target and one claim file.
import { lstatSync, readlinkSync, statSync, type Stats } from "node:fs";
import { isAbsolute, join } from "node:path";
import { picomatch } from "./picomatch.js";
import { deviceOf, foldName, isCaselessDirectory, nameIn, rootDevice } from "./caseless.js";
import { BadInputError } from "../os/errors.js";
import { sha256Hex } from "../os/hash.js";
import { keep, lookupTable, recalled, remembered } from "../os/lookups.js";
import { escapeLiteral, expandBraces, isGlobText, lastUnescaped, shapeOf, unescapeLiteral, type TargetShape } from "./overlap.js";
import { bracesBalance, bracketFoldedApart, bracketsClose, ESCAPED_LETTER, literalGroups, misreadRange, negatedBrackets, POSIX_CLASS, STARS, STARS_IN_GROUP, starsInsideSegment, unclaimableGlob } from "./glob-syntax.js";

export type { TargetKind } from "./overlap.js";

export interface Target extends TargetShape {
  /** The claim file name inside the claims directory (exclusive claims; shared ones add the holder). */
  fileName: string;
  /** Written as `name:…`: a name on purpose, even if it reads like a file. */
  named?: true;
}

/** The prefix that makes an argument a name even when it reads like a file (`name:gen.txt`). */
export const NAME_PREFIX = "name:";

/** Targets are labels, not documents: 1024 bytes is far beyond any real name or path. */
export const MAX_TARGET_BYTES = 1024;
const CONTROL = /[\u0000-\u001f\u007f]/;
const GLOB = /[*?[\]{}]/;
const SYMBOL = /^[A-Za-z_$][\w$]*$/;

export interface TargetContext {
  cwd: string;
  home: string;
}

/**
 * A name that reads like a path and was not written as `name:…`: like a file (`gen.txt`, or a file
 * projects name without an extension: `Makefile`, `LICENSE`) or like a directory builds and tools
 * make or projects have (`build`, `dist`, `node_modules`, `src`); nothing of that name exists here
 * (a word naming an entry in the current directory is that path already). take refuses the
 * ambiguity (a name would protect nothing of the file or directory, and stop meaning it once that
 * is created: the word is a path then); check and status, when nobody claims the name, answer for
 * the path it will be (fileStandIn, pathItWillBe).
 */
export function looksLikePath(target: Target): boolean {
  return target.kind === "name" && target.named !== true && (/\.[A-Za-z0-9]{1,8}$/.test(target.canonical) || FILE_NAMES.has(target.canonical) || DIRECTORY_NAMES.has(target.canonical));
}

/**
 * What a word that looksLikePath will be once created, as an argument naming it: `./build/` for a
 * directory's word (the directory it will be), `./gen.txt` for any other (the file).
 */
export function pathItWillBe(word: string): { path: string; what: "file" | "directory" } {
  return DIRECTORY_NAMES.has(word) ? { path: `./${word}/`, what: "directory" } : { path: `./${word}`, what: "file" };
}

/** Files projects name without an extension: as words, they read like the file as much as `gen.txt` does. */
const FILE_NAMES = new Set(
  `Makefile makefile GNUmakefile Dockerfile Containerfile Vagrantfile Jenkinsfile Gemfile Rakefile Procfile Brewfile
  Justfile justfile Caddyfile Earthfile Tiltfile Podfile Fastfile Snakefile Pipfile Guardfile Berksfile Capfile
  LICENSE LICENCE COPYING NOTICE AUTHORS CONTRIBUTORS CHANGELOG CHANGES HISTORY README INSTALL TODO VERSION
  MAINTAINERS CODEOWNERS OWNERS BUILD WORKSPACE configure`.split(/\s+/),
);

/**
 * Directories as words (README "Targets"): the ones builds, package managers and test tools make in
 * a project (output, dependencies, caches, reports), and the ones projects commonly lay their own
 * files out in. Each is far more often a directory than a lock's name, and a claim of the name
 * would protect nothing written there: the agent hooks judge `build/out.js` as a path, which a
 * name never meets. Words that name an activity or an area as often as a directory (`deploy`,
 * `release`, `migrations`, `config`, `api`, `app`, `frontend`, `infra`) are left names, as locks
 * are written (`shared-config`, `db-migrations`). A word starting with `.` (`.next`, `.cache`,
 * `.venv`) is a path already.
 */
export const DIRECTORY_NAMES: ReadonlySet<string> = new Set([
  // Made by builds, package managers and tools: output, dependencies, caches, reports, scratch.
  ..."build _build dist out target bin obj coverage htmlcov node_modules bower_components vendor venv __pycache__ Pods DerivedData _site tmp temp logs".split(" "),
  // Laid out by projects: sources, tests, documentation, assets, workspaces.
  ..."src lib include pkg cmd internal test tests spec specs __tests__ __mocks__ e2e fixtures docs doc examples scripts public static assets packages".split(" "),
]);

/**
 * For check and status: a word that reads like a path (looksLikePath) and that no claim names
 * (`claimFileNames` holds neither its claim nor a shared one) is asked about as the path it will
 * be, `./gen.txt` or `./build/`: a script checking before it creates gen.txt or build/ must hear
 * about the claim an agent's hook took there. Otherwise undefined.
 */
export function fileStandIn(target: Target, claimFileNames: string[], context: TargetContext): Target | undefined {
  if (!looksLikePath(target)) return undefined;
  const stem = target.fileName.slice(0, -".json".length);
  if (claimFileNames.some((name) => name === target.fileName || (name.startsWith(`${stem}+`) && name.endsWith(".json")))) return undefined;
  return parseTarget(pathItWillBe(target.canonical).path, context);
}

/** The path a word that reads like one stands in for where no claim names it (fileStandIn), canonical; undefined for another word. */
export function standInPath(word: string, context: TargetContext): string | undefined {
  try {
    return looksLikePath(parseTarget(word, context)) ? parseTarget(pathItWillBe(word).path, context).canonical : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `literal`: the input is a file's path exactly as the file system names it (an agent's write, a
 * staged file), never a glob or a symbol, whatever characters it has.
 */
export function parseTarget(given: string, context: TargetContext, literal = false): Target {
  const input = wellFormed(given);
  if (input.trim() === "") throw new BadInputError("A target is empty; give a name like shared-config or a file path.");
  // A literal path names a file that exists with that name (a tab in a staged file's name): check it.
  if (!literal && CONTROL.test(input)) {
    throw new BadInputError(`Target ${JSON.stringify(input)} contains a control character; targets must be printable.`);
  }
  checkLength(input);
  // `take 'a.ts '` (a variable's stray space, a pasted line): a claim on the name "a.ts ", shown
  // as a.ts, would protect nothing. Unless a file of exactly that name is there.
  if (!literal && input.trim() !== input && !input.startsWith(NAME_PREFIX) && lstatSync(isAbsolute(input) ? input : `${context.cwd}/${input}`, { throwIfNoEntry: false }) === undefined) {
    const where = /^\s/.test(input) ? "starts" : "ends";
    throw new BadInputError(`Target ${JSON.stringify(input)} ${where} with a space, which no file here has; write it without (${input.trim()}), or as ${JSON.stringify(`name:${input}`)} for a name that holds one.`);
  }
  // `take file:///tmp/x` (a URL pasted from an editor or a browser): claimed as ./file:/tmp/x, it would
  // protect nothing. Unless a file of that name is there.
  if (!literal && /^file:\/\//i.test(input) && lstatSync(`${context.cwd}/${input}`, { throwIfNoEntry: false }) === undefined) {
    const path = (() => {
      try {
        return decodeURIComponent(new URL(input).pathname);
      } catch {
        return undefined;
      }
    })();
    throw new BadInputError(`Target ${JSON.stringify(input)} is a file URL, not a path; give the path${path === undefined ? "" : ` (${path})`}.`);
  }
  // A byte that is not UTF-8 reaches this process as U+FFFD (node decodes arguments so): `./\xff.txt`
  // would be claimed as another file, `./\uFFFD.txt`, which the write of the real one never meets.
  // Unless the path is there up to its last U+FFFD (a directory really named so). A name with one
  // is left alone: two such names are one, a false conflict at worst.
  if (!literal && input.includes("\uFFFD") && !input.startsWith(NAME_PREFIX) && !thereThroughReplacement(isAbsolute(input) ? input : `${context.cwd}/${input}`)) {
    throw new BadInputError(`Target ${JSON.stringify(input)} has U+FFFD, which stands for bytes that are not UTF-8, and no file here has that name; claim its directory, or rename the file to UTF-8.`);
  }
  if (!literal && input.startsWith(NAME_PREFIX)) {
    const name = input.slice(NAME_PREFIX.length).normalize("NFC");
    if (name.trim() === "" || name.startsWith("/")) {
      throw new BadInputError(`Target ${input} is not a name after ${NAME_PREFIX}; write a word such as name:gen.txt, or drop the prefix for a path.`);
    }
    return { ...shapeOf(name), fileName: claimFileName(name), named: true };
  }
  const canonical = canonicalTarget(input, context, literal);
  checkLength(canonical);
  return { ...shapeOf(canonical), fileName: claimFileName(canonical) };
}

/** Whether the path exists up to the end of the part holding its last U+FFFD. */
function thereThroughReplacement(path: string): boolean {
  const end = path.indexOf("/", path.lastIndexOf("\uFFFD"));
  return lstatSync(end === -1 ? path : path.slice(0, end), { throwIfNoEntry: false }) !== undefined;
}

/**
 * `text` with every lone UTF-16 surrogate (`"\ud800"` in JSON, from a hook payload or an MCP call)
 * made U+FFFD, as Node spells it to the file system: one file, one target, however it was written.
 */
export function wellFormed(text: string): string {
  return LONE_SURROGATE_TEST.test(text) ? text.replace(LONE_SURROGATE, "\ufffd") : text;
}

const LONE_SURROGATE_TEST = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The prefix that makes an argument a glob even when its text names an existing file. */
export const GLOB_PREFIX = "glob:";

/**
 * A text that parses back to the canonical target `canonical` whatever exists on disk now: a glob
 * and a name with their prefixes (a file named like the glob's text, or a word made a file since,
 * would be read instead). A symbol's file named with its `#symbol` is the one case left: a caller
 * compares what it got.
 */
export function inputOf(canonical: string): string {
  const { kind } = shapeOf(canonical);
  return kind === "glob" ? `${GLOB_PREFIX}${canonical}` : kind === "name" ? `${NAME_PREFIX}${canonical}` : canonical;
}

function canonicalTarget(input: string, context: TargetContext, literal: boolean): string {
  if (literal) return canonicalLiteral(expandHome(input, context.home), context.cwd);
  const explicitGlob = input.startsWith(GLOB_PREFIX);
  if (explicitGlob) return canonicalGlob(expandHome(input.slice(GLOB_PREFIX.length), context.home), input, context.cwd, true);
  if (!isPathLike(input, context.cwd)) return input.normalize("NFC");
  const expanded = expandHome(input, context.home);
  // An argument that names an existing file or directory is that file or directory, whatever
  // characters its name has (`app/[id]`, `app/(group)`, `notes#1.md`).
  const written = unescapeLiteral(expanded);
  if (exists(written, context.cwd) && !globPastDots(expanded, written, context.cwd)) return canonicalLiteral(written, context.cwd);
  // And a name with a backslash of its own (`b\s/a.ts` there, no `bs/a.ts`): that file, not one the escape would spell.
  if (written !== expanded && exists(expanded, context.cwd)) return canonicalLiteral(expanded, context.cwd);
  if (expanded.endsWith("/")) {
    if (isGlobText(expanded)) {
      throw new BadInputError(
        `Target ${input} is a glob ending in / and no such directory exists; write the glob as dir/**, or escape the characters of a directory not created yet (app/\\[id\\]/).`,
      );
    }
    return canonicalLiteral(written, context.cwd);
  }
  const hash = lastUnescaped(expanded, "#", expanded.lastIndexOf("/"));
  if (hash !== -1) {
    const written = expanded.slice(0, hash);
    const file = unescapeLiteral(written);
    const symbol = expanded.slice(hash + 1);
    const missing = !exists(file, context.cwd);
    // `src/utils.ts#a#b`: the symbol is after the last #, which leaves a file `src/utils.ts#a`.
    // Said here, in the words typed: the symbol check later knows only the resolved file.
    if (missing && lastUnescaped(written, "#", written.lastIndexOf("/")) !== -1) {
      const typed = input.slice(0, lastUnescaped(input, "#", input.lastIndexOf("/")));
      throw new BadInputError(`Target ${input} has more than one #, and no file ${typed} exists; write file#name with one #, escaping a # of the file's name as \\#.`);
    }
    // A symbol belongs to one file: glob characters in the name of a file that exists are part of
    // its name (app/[id]/page.tsx#Page); in one that does not, they read as a glob (escape them).
    const globOfFiles = missing && isGlobText(written);
    if (file === "" || file.endsWith("/") || globOfFiles || isDirectory(canonicalPath(file, context.cwd))) {
      throw new BadInputError(`Target ${input} puts a #symbol on something that is not one file; write path/to/file.ts#name.`);
    }
    if (!SYMBOL.test(symbol)) {
      throw new BadInputError(`Target ${input} names the symbol ${JSON.stringify(symbol)}, which is not an identifier; write file#name.`);
    }
    return `${escapeLiteral(canonicalPath(file, context.cwd))}#${symbol}`;
  }
  if (isGlobText(expanded)) return canonicalGlob(expanded, input, context.cwd, false);
  return canonicalLiteral(written, context.cwd);
}

/** A real path (no syntax): the file or directory itself, canonical and escaped. */
function canonicalLiteral(path: string, cwd: string): string {
  const resolved = canonicalPath(path, cwd);
  if (resolved === "/") return "/";
  const escaped = escapeLiteral(resolved);
  // A directory that exists is claimed as a directory, with or without the trailing slash.
  return path.endsWith("/") || isDirectory(resolved) ? `${escaped}/` : escaped;
}

/** A glob: its static base resolved like any path (and escaped), the pattern after it kept as written. */
function canonicalGlob(written: string, input: string, cwd: string, explicit: boolean): string {
  // With glob: the text is read exactly as picomatch reads it; without, as a user means it.
  // A path never has an empty segment, so picomatch matches nothing with one: `a/*//b.ts` means
  // `a/*/b.ts`, as `a//b.ts` is `a/b.ts`. (A claim matching nothing would be granted beside anything;
  // and scan reads `.//src/*.ts` as the base `/src`: an absolute glob.)
  const expanded = (explicit ? written : literalGroups(negatedBrackets(written))).replace(/\/{2,}/g, "/");
  const scan = picomatch.scan(expanded);
  if (!scan.isGlob) {
    if (explicit) throw new BadInputError(`Target ${input} has no glob characters after ${GLOB_PREFIX}; drop the prefix to claim the path itself.`);
    return canonicalLiteral(unescapeLiteral(expanded), cwd);
  }
  if (scan.negated) throw new BadInputError(`Target ${input} is a negated glob; claim what you will write, not what you won't.`);
  if (expanded.endsWith("/")) throw new BadInputError(`Target ${input} is a glob ending in /; write the glob as dir/** instead.`);
  const stars = explicit ? undefined : starsInsideSegment(scan.glob);
  if (stars !== undefined) {
    const one = stars.replace(/\*{2,}/g, "*");
    const meant = (segment: string) => `${scan.base === "" ? "" : `${scan.base}/`}${scan.glob.replace(stars, segment)}`;
    const deep = /^\*+$/.test(stars) ? "**" : `**/${one}`;
    throw new BadInputError(`Target ${input} has ** inside a segment, where it matches as * does, within one directory; write ${meant(deep)} to reach into subdirectories, or ${meant(one)} for one.`);
  }
  // In a brace's alternatives too (`{src,../other}/*.ts`): the glob would stand for a place it never matches.
  const alternatives = expandBraces(scan.glob, 256) ?? [scan.glob.replace(/[{},]/g, "/")];
  if (alternatives.some((alternative) => alternative.split("/").some((segment) => segment === "." || segment === ".."))) {
    throw new BadInputError(`Target ${input} has . or .. after its first glob character (a brace's alternatives included); write the glob from its real directory.`);
  }
  if (!bracesBalance(scan.glob)) {
    throw new BadInputError(`Target ${input} has a { without its } (or the other way round); close it, as in src/*.{js,ts}.`);
  }
  if (!bracketsClose(scan.glob)) {
    throw new BadInputError(`Target ${input} has a [ without its ]; close it, as in src/[ab].ts, or write \\[ for a literal [.`);
  }
  // After glob: too: a claim of such a range stands for its whole directory (PROTOCOL 2), as one made elsewhere does.
  const range = misreadRange(scan.glob);
  if (range !== undefined) {
    throw new BadInputError(
      `Target ${input} has the brace range ${range}, which picomatch reads as a range only between two single characters ({1..12} as the class [1-12]: 1 or 2, not 7); write the alternatives out ({1,2,3,…,12}), or a pattern (shard-*.json).`,
    );
  }
  const resolvedBase = canonicalPath(scan.base === "" ? "." : unescapeLiteral(scan.base), cwd);
  const { base, glob } = explicit ? { base: resolvedBase, glob: scan.glob } : existingDirectoriesFirst(resolvedBase, scan.glob);
  // Below a directory that ignores case, the pattern is matched against folded names: fold it too.
  const caseless = isCaselessDirectory(nearestExisting(base));
  const apart = caseless ? bracketFoldedApart(glob, foldName) : undefined;
  if (apart !== undefined) {
    throw new BadInputError(
      `Target ${input} is below a directory that ignores case, where a glob is matched in lower case, and ${apart} in lower case leaves out characters it matches as written, or inside !( ) matches characters it does not; write its letters in lower case, ranges within letters or within digits ([a-z0-9_]), no ^ or ! before letters, and inside !( ) letters in both cases ([a-zA-Z]) or none.`,
    );
  }
  const pattern = caseless ? foldName(glob) : glob;
  const canonical = `${base === "/" ? "" : escapeLiteral(base)}/${pattern}`;
  // The whole text: picomatch reads a | in the static base too (a directory named `y|z`).
  const unclaimable = unclaimableGlob(canonical);
  if (unclaimable === STARS) throw new BadInputError(`Target ${input} ${unclaimable}; write ** to reach into subdirectories, or * for one.`);
  if (unclaimable === STARS_IN_GROUP) throw new BadInputError(`Target ${input} ${unclaimable}; write ** as a whole segment (src/**/*.ts) or * inside the ( ).`);
  if (unclaimable === POSIX_CLASS) throw new BadInputError(`Target ${input} ${unclaimable}; write the range instead, as in [a-zA-Z] for [[:alpha:]] or [0-9] for [[:digit:]].`);
  if (unclaimable === ESCAPED_LETTER) throw new BadInputError(`Target ${input} ${unclaimable}; write the character without the \\ (d for \\d), or a range for a class ([0-9] for \\d).`);
  if (unclaimable) throw new BadInputError(`Target ${input} ${unclaimable}; write the alternatives in braces, as in {x/y,z}/*.ts, or as separate targets.`);
  return canonical;
}

/**
 * An argument naming an existing file is that file, whatever characters its name has; so are the
 * leading segments of a glob that name existing directories (`app/[slug]/*.tsx` with `app/[slug]/`
 * there is the files in that directory, not in `app/s/`, `app/l/`…). A segment with `*`, `?` or a
 * brace stays a pattern.
 */
function existingDirectoriesFirst(base: string, glob: string): { base: string; glob: string } {
  const segments = glob.split("/");
  let at = base;
  let taken = 0;
  for (const segment of segments.slice(0, -1)) {
    if (/[*?{}]/.test(segment)) break;
    const next = canonicalPath(join(at, unescapeLiteral(segment)), "/");
    if (!isDirectory(next)) break;
    at = next;
    taken++;
  }
  return taken === 0 ? { base, glob } : { base: at, glob: segments.slice(taken).join("/") };
}

/** Something (a file, a directory, a dangling symlink) is at `path`, read from `cwd` when relative. */
/**
 * `*.ts/..`, `x/?/..`: a glob's text with `.` or `..` after its first glob character, which exists()
 * finds only by reading the `..` against the text before it (`x/?/..` is `x`); the kernel, which
 * needs each name before a `..` to exist, does not. Read as the glob it is written as (and refused
 * there, PROTOCOL 2), unless that name exists as written.
 */
function globPastDots(expanded: string, written: string, cwd: string): boolean {
  if (!isGlobText(expanded) || !/(^|\/)\.\.?(\/|$)/.test(written)) return false;
  try {
    return lstatSync(isAbsolute(written) ? written : `${cwd}/${written}`, { throwIfNoEntry: false }) === undefined;
  } catch {
    return true;
  }
}

export function exists(path: string, cwd = "/"): boolean {
  const absolute = isAbsolute(path) ? path : join(cwd, path);
  return answered(EXISTING, absolute, () => lstatSync(absolute, { throwIfNoEntry: false }) !== undefined);
}

// exists' and isDirectory's answers, as long as a verb runs (src/os/lookups.ts): parsing a target,
// routing it and judging it ask them of the same path five times in a take, and again in a release.
const EXISTING = lookupTable<boolean>();
const DIRECTORIES = lookupTable<boolean>();

/**
 * `look()`'s answer, remembered in `table` while the verb runs; false when it throws. Nothing
 * there (ENOENT, ENOTDIR) is an answer; any other error (EACCES, EIO, a network file system's
 * ESTALE) is not, and is asked again next time.
 */
function answered(table: Map<string, boolean>, key: string, look: () => boolean): boolean {
  try {
    return remembered(table, key, () => {
      try {
        return look();
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") return false;
        throw error;
      }
    });
  } catch {
    return false;
  }
}

/** `path` or its nearest ancestor that exists. */
function nearestExisting(path: string): string {
  let at = path;
  while (at !== "/" && deviceOf(at, -1) === -1) at = at.slice(0, at.lastIndexOf("/")) || "/";
  return at;
}

export function isDirectory(path: string): boolean {
  return answered(DIRECTORIES, path, () => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true);
}

/** As README and docs/PROTOCOL.md 2 say: a path contains `/`, starts with `.` or `~`, has a `#` or glob characters, or exists in cwd. */
export function isPathLike(input: string, cwd: string): boolean {
  if (input.includes("/") || input.startsWith(".") || input.startsWith("~")) return true;
  if (input.includes("#") || GLOB.test(input)) return true;
  try {
    return lstatSync(join(cwd, input), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

function checkLength(text: string): void {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_TARGET_BYTES) {
    throw new BadInputError(`A target is ${bytes} bytes long; targets are limited to ${MAX_TARGET_BYTES} bytes.`);
  }
}

function expandHome(input: string, home: string): string {
  if (input === "~") return home;
  if (input.startsWith("~/")) return join(home, input.slice(2));
  if (input.startsWith("~")) {
    throw new BadInputError(`Target ${input} uses ~user, which is not supported; write the absolute path (or ./${input} for a file of that name here).`);
  }
  return input;
}

/**
 * The path the kernel would reach: resolved component by component from `cwd`, following every
 * symlink (dangling ones too, to where they point) and applying `..` to what was resolved so far,
 * as the kernel does. Components that do not exist yet are kept as written.
 */
export function canonicalPath(given: string, cwd: string): string {
  return remembered(CANONICAL_PATHS, given.startsWith("/") ? given : `${cwd}\0${given}`, () => resolvePath(given, cwd));
}

/** canonicalPath's answers, as long as a verb runs (src/os/lookups.ts): a take resolves its target's path four times. */
const CANONICAL_PATHS = lookupTable<string>();

/**
 * Where resolvePath stood after each leading part of a path it walked before any symlink or `..`
 * (keyed by that part's text, `/a/b`): the part resolved, and the devices of its directories. A
 * later path under it goes on from there, as long as the verb runs (CANONICAL_PATHS): a take
 * resolves its file and then the file's directory, and each would otherwise lstat every directory
 * above it again.
 */
const WALKED = lookupTable<{ resolved: string; devices: number[] }>();

/**
 * canonicalPath asked of the file system anew, not of what parsing the verb's targets resolved: a
 * symlink made on the path since is followed. For paths claimed before they were there
 * (src/protocol/unresolved.ts). Unless `remember` is false, remembered while the verb runs on
 * without a wait (src/os/lookups.ts: forgotten after a wait for a lock, as after any await), and
 * forgotten whenever the take lock is won (forgetWhereLed): a take judges its target in every
 * claims directory it looks in.
 */
export function resolvedNow(path: string, remember = true): string {
  return remember ? remembered(LEADS, path, () => resolvePath(path, "/", true)) : resolvePath(path, "/", true);
}

const LEADS = lookupTable<string>();

/** Forgets resolvedNow's answers, and those of the tables made by leadTable: every verb, once inside the take lock, asks again (src/protocol/store.ts). */
export function forgetWhereLed(): void {
  LEADS.clear();
  for (const table of LEAD_TABLES) table.clear();
}

const LEAD_TABLES: Array<Map<string, unknown>> = [];

/** A lookup table (src/os/lookups.ts) of answers that depend on where paths lead: forgotten with resolvedNow's (src/protocol/unresolved.ts). */
export function leadTable<Value>(): Map<string, Value> {
  const table = lookupTable<Value>();
  LEAD_TABLES.push(table as Map<string, unknown>);
  return table;
}

function resolvePath(given: string, cwd: string, fresh = false): string {
  const input = wellFormed(given);
  const pending = (isAbsolute(input) ? input : `${cwd}/${input}`).split("/").filter((part) => part !== "" && part !== ".");
  let resolved = "";
  // The device of each directory in `resolved`, `/` first: a name is folded where its directory's
  // file system ignores case (src/targets/caseless.ts). A component not there yet is on its parent's.
  let devices: number[] = [];
  let links = 0;
  // The text walked so far, while every part walked was a plain name (no symlink, no `..`): what
  // WALKED keeps. The longest such part walked before is where this walk begins.
  let walked: string | undefined = "";
  const plain = pending.indexOf("..");
  for (let count = fresh ? 0 : (plain === -1 ? pending.length : plain) - 1; count > 0; count--) {
    const text = `/${pending.slice(0, count).join("/")}`;
    const known = recalled(WALKED, text);
    if (known === undefined) continue;
    ({ resolved } = known);
    devices = [...known.devices];
    walked = text;
    pending.splice(0, count);
    break;
  }
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === "" || part === ".") continue;
    if (part === "..") {
      resolved = resolved.slice(0, resolved.lastIndexOf("/"));
      if (devices.length > 1) devices.pop();
      walked = undefined;
      continue;
    }
    const next = `${resolved}/${part}`;
    let stats: Stats | undefined;
    let link: string | undefined;
    try {
      stats = lstatSync(next, { throwIfNoEntry: false });
      link = stats?.isSymbolicLink() ? readlinkSync(next) : undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENAMETOOLONG") throw new BadInputError(`Path ${input} has a name too long for the file system; claim a real path.`);
      // ENOENT / ENOTDIR: not there (yet); EACCES: we may not look. Keep it as written.
    }
    if (link === undefined) {
      if (devices.length === 0) devices.push(rootDevice());
      const device = devices[devices.length - 1] as number;
      resolved = `${resolved}/${nameIn(resolved || "/", device, part, stats)}`;
      devices.push(stats?.dev ?? device);
      if (walked !== undefined && !fresh) {
        walked = `${walked}/${part}`;
        keep(WALKED, walked, { resolved, devices: [...devices] });
      }
      continue;
    }
    walked = undefined;
    if (++links > 40) throw new BadInputError(`Path ${input} runs into a symlink loop; claim a path that resolves.`);
    pending.unshift(...link.split("/"));
    if (link.startsWith("/")) {
      resolved = "";
      devices.length = 0;
    }
  }
  return resolved === "" ? "/" : resolved;
}

/** A `..` component: after a symlink it is not the text's parent (canonicalPath). */
export const DOTDOT = /(^|\/)\.\.(\/|$)/;

/**
 * The entry a symlink itself occupies, when the last component of `input` is one (undefined
 * otherwise): removing, renaming or replacing the link (`rm`, `mv`, `sed -i`, a patch's delete)
 * changes that entry of its directory, not the file it leads to, so a write there is judged as
 * both. The directories above it are resolved as the kernel resolves them.
 */
export function symlinkEntry(input: string, cwd: string): Target | undefined {
  const raw = (isAbsolute(input) ? input : `${cwd}/${input}`).replace(/\/+$/, "");
  // Most paths are no symlink where the text leads: one lstat says so (a `..` may lead elsewhere).
  if (!DOTDOT.test(raw)) {
    try {
      if (lstatSync(raw, { throwIfNoEntry: false })?.isSymbolicLink() !== true) return undefined;
    } catch {
      return undefined;
    }
  }
  const cut = raw.lastIndexOf("/");
  const name = raw.slice(cut + 1);
  if (name === "" || name === "." || name === "..") return undefined;
  const parent = canonicalPath(raw.slice(0, cut) || "/", cwd);
  let stats: Stats | undefined;
  try {
    stats = lstatSync(parent === "/" ? `/${name}` : `${parent}/${name}`, { throwIfNoEntry: false });
    if (stats?.isSymbolicLink() !== true) return undefined;
  } catch {
    return undefined;
  }
  const folded = nameIn(parent, deviceOf(parent, -1), name, stats);
  const entry = parent === "/" ? `/${folded}` : `${parent}/${folded}`;
  const canonical = escapeLiteral(entry);
  return { ...shapeOf(canonical), fileName: claimFileName(canonical) };
}

// Claim file names: ASCII letters, digits, `-`, `_` and `.` stay as they are (so `shared-config`
// becomes `shared-config.json`); every other byte of the UTF-8 form becomes `%XX`, and a leading
// `.` becomes `%2E`, so no claim file is hidden and `/`, `..` or NUL never reach the filesystem.
// Percent-encoding is injective. Names whose encoding would pass 200 bytes keep a 120-byte
// readable prefix and end in `%~` plus a SHA-256 of the target: `%~` is never produced by the
// encoding, so the two forms cannot collide, and the whole name stays under 255 bytes.
const KEEP = /^[A-Za-z0-9._-]$/;
const MAX_ENCODED = 200;
/** Each ASCII byte's form in a file name (status of 10,000 claims encodes 10,000 targets). */
const ASCII_FORMS = Array.from({ length: 0x80 }, (_, byte) => {
  const char = String.fromCharCode(byte);
  return KEEP.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
});

export function claimFileName(canonical: string): string {
  let encoded = percentEncode(canonical);
  if (encoded.length > MAX_ENCODED) {
    let prefix = encoded.slice(0, 120);
    const cut = prefix.lastIndexOf("%");
    if (cut > prefix.length - 3) prefix = prefix.slice(0, cut);
    encoded = `${prefix}%~${sha256Hex(canonical)}`;
  }
  return `${encoded}.json`;
}

/** Step 1 of the file name: the percent-encoding alone, never shortened. */
export function percentEncode(canonical: string): string {
  // One pass of the regex engine over an ASCII target: in a short process a loop in JavaScript
  // runs before it is compiled, and is five times slower for 10,000 targets.
  if (!ASCII.test(canonical)) return percentEncodeBytes(canonical);
  const encoded = canonical.replace(ENCODED_ASCII, (char) => ASCII_FORMS[char.charCodeAt(0)] as string);
  return encoded.startsWith(".") ? `%2E${encoded.slice(1)}` : encoded;
}
const ASCII = /^[\x00-\x7f]*$/;
const ENCODED_ASCII = /[^A-Za-z0-9._-]/g;

/** percentEncode of a target with characters beyond ASCII: byte by byte of its UTF-8 form. */
function percentEncodeBytes(canonical: string): string {
  let encoded = "";
  for (const byte of Buffer.from(canonical, "utf8")) encoded += byte < 0x80 ? ASCII_FORMS[byte] : `%${byte.toString(16).toUpperCase()}`;
  return encoded.startsWith(".") ? `%2E${encoded.slice(1)}` : encoded;
}

/**
 * A shared claim has one file per holder: the target's file name with `+` and 16 hex digits of
 * the SHA-256 of the holder before `.json`. `+` is never produced by the encoding above.
 */
export function sharedClaimFileName(canonical: string, holder: string): string {
  return `${claimFileName(canonical).slice(0, -".json".length)}+${holderTag(holder)}.json`;
}

export function holderTag(holder: string): string {
  return sha256Hex(holder).slice(0, 16);
}

export interface FileNameParts {
  /** The canonical target, or undefined when the name holds only a hashed prefix of it. */
  target?: string;
  /** For a hashed name: the readable start of the target. */
  prefix?: string;
  /** For shared claims: the holder tag. */
  sharedTag?: string;
}

/** The target a claim file name stands for, read from the name alone. */
export function partsOfFileName(fileName: string): FileNameParts {
  let stem = fileName.slice(0, -".json".length);
  const parts: FileNameParts = {};
  const plus = stem.lastIndexOf("+");
  if (plus !== -1) {
    parts.sharedTag = stem.slice(plus + 1);
    stem = stem.slice(0, plus);
  }
  if (stem.includes("%~")) {
    const prefix = decodePrefix(stem.slice(0, stem.indexOf("%~")));
    if (prefix !== undefined) parts.prefix = prefix;
    return parts;
  }
  const decoded = decodeSafely(stem);
  if (decoded !== undefined) parts.target = decoded;
  return parts;
}

/** Best-effort inverse for display: the target a claim file name stands for. */
export function targetOfFileName(fileName: string): string {
  const parts = partsOfFileName(fileName);
  if (parts.target !== undefined) return parts.target;
  const stem = fileName.slice(0, fileName.indexOf("%~"));
  return `${decodePrefix(stem) ?? stem}…`;
}

/**
 * A shortened name's readable prefix, cut at a byte count that may fall inside a character
 * (`…%C3`): decoded without the bytes of that last character, still a prefix of the target.
 */
function decodePrefix(text: string): string | undefined {
  let cut = text;
  for (let dropped = 0; dropped <= 3; dropped++) {
    const decoded = decodeSafely(cut);
    if (decoded !== undefined) return decoded;
    const shorter = cut.replace(/%[0-9A-Fa-f]{2}$/, "");
    if (shorter === cut) return undefined;
    cut = shorter;
  }
  return undefined;
}

function decodeSafely(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
