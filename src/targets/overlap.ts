// Which targets overlap. The kind of a target is a pure function of its canonical string, so
// overlaps can be decided from claim file names alone (src/protocol/store.ts), without reading the
// files.
//
//   name         shared-config          anything not starting with `/`
//   directory    /p/src/                ends with `/`; everything under it
//   symbol       /p/utils.js#formatPrice  `#` in the last segment; one top-level declaration
//   glob         /p/src/**/*.ts         glob characters (picomatch semantics, dotfiles included)
//   path         /p/src/a.ts            any other absolute path
//
// In a canonical path, a character of a file or directory name that glob or symbol syntax would
// read (`* ? [ ] { } ( ) " # \`) is escaped with a backslash (`/p/app/\[id\]/page.tsx`), as
// picomatch reads it: a literal name never turns into a pattern, and `path` holds the real path.
import { picomatch } from "./picomatch.js";
import { unclaimableGlob } from "./glob-syntax.js";

export type TargetKind = "name" | "path" | "directory" | "glob" | "symbol";

export interface TargetShape {
  kind: TargetKind;
  canonical: string;
  /** path: the file; directory: the directory with its trailing `/`; symbol: its file; glob: the static base directory. */
  path: string;
  symbol?: string;
}

const MAGIC = /[*?[\]{}()!+@\\"]/;

/**
 * Whether picomatch reads `text` as a glob. A text without any of the characters a glob is made
 * of is not one, and saying so costs no scan: most targets are plain paths (an agent's new file),
 * and picomatch's scanner, run once in a short-lived process, costs tenths of a millisecond.
 */
export function isGlobText(text: string): boolean {
  return MAGIC.test(text) && picomatch.scan(text).isGlob;
}

/** What a literal name escapes in a canonical target: what picomatch or the `#symbol` suffix would read. */
const LITERAL_SPECIAL = /[\\*?[\]{}()"#]/g;

/** A real path as it appears in a canonical target: its special characters escaped. */
export function escapeLiteral(path: string): string {
  return path.replace(LITERAL_SPECIAL, "\\$&");
}

/** The real path a canonical path (or a glob's static base) spells: escapes removed. */
export function unescapeLiteral(text: string): string {
  return text.includes("\\") ? text.replace(/\\(.)/gs, "$1") : text;
}

/** The index of the last `char` in `text` at or after `from` that no backslash escapes, or -1. */
export function lastUnescaped(text: string, char: string, from: number): number {
  let found = -1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === char) found = i;
  }
  return found;
}

export function shapeOf(canonical: string): TargetShape {
  if (!canonical.startsWith("/")) return { kind: "name", canonical, path: canonical };
  if (canonical.endsWith("/")) return { kind: "directory", canonical, path: unescapeLiteral(canonical) };
  const hash = lastUnescaped(canonical, "#", canonical.lastIndexOf("/"));
  if (hash !== -1) return { kind: "symbol", canonical, path: unescapeLiteral(canonical.slice(0, hash)), symbol: canonical.slice(hash + 1) };
  if (MAGIC.test(canonical)) {
    const scanned = picomatch.scan(canonical);
    if (scanned.isGlob) return { kind: "glob", canonical, path: unescapeLiteral(scanned.base) || "/" };
  }
  return { kind: "path", canonical, path: unescapeLiteral(canonical) };
}

/**
 * True when a claim on `a` and a claim on `b` cover at least one common thing (in either
 * direction). A path covers the file and, should it ever become a directory, everything under it,
 * so it covers the same region as the directory of that name; a symbol covers part of its file.
 */
export function overlaps(a: TargetShape, b: TargetShape): boolean {
  if (a.kind === "name" || b.kind === "name") return a.kind === b.kind && a.canonical === b.canonical;
  // A glob these rules cannot compare segment by segment (a claim written by another tool: take
  // refuses one, src/targets/glob-syntax.ts) stands for the whole directory of its static base.
  if (a.kind === "glob" && unclaimableGlob(a.canonical)) return overlaps(baseDirectory(a), b);
  if (b.kind === "glob" && unclaimableGlob(b.canonical)) return overlaps(a, baseDirectory(b));
  if (a.kind === "glob" && b.kind === "glob") return globsMayIntersect(a.canonical, b.canonical);
  if (a.kind === "glob") return globCovers(a.canonical, b);
  if (b.kind === "glob") return globCovers(b.canonical, a);
  if (a.kind === "symbol" && b.kind === "symbol") return a.path === b.path && a.symbol === b.symbol;
  if (a.kind === "symbol") return covers(regionOf(b), a.path);
  if (b.kind === "symbol") return covers(regionOf(a), b.path);
  return covers(regionOf(a), regionOf(b)) || covers(regionOf(b), regionOf(a));
}

function baseDirectory(glob: TargetShape): TargetShape {
  // A | outside parentheses makes each side a whole pattern of its own, anywhere: all of `/`.
  const whole = unclaimableGlob(glob.canonical)?.includes("|") ? "/" : glob.path;
  const path = whole.endsWith("/") ? whole : `${whole}/`;
  return { kind: "directory", canonical: escapeLiteral(path), path };
}

/**
 * True when a claim on `outer` covers all of `inner`: the same target, a directory above it, a
 * glob matching its file, or the file of a symbol. (For fencing: a claim's token may stand for a
 * write to what the claim covers.)
 */
export function claimCovers(outer: TargetShape, inner: TargetShape): boolean {
  if (outer.canonical === inner.canonical) return true;
  if (outer.kind === "name" || inner.kind === "name") return false;
  if (outer.kind === "directory") return inner.kind === "glob" ? covers(regionOf(outer), inner.path) : inner.path.startsWith(outer.path);
  if (outer.kind === "path") return inner.kind === "symbol" && inner.path === outer.path;
  if (outer.kind === "glob") return (inner.kind === "path" || inner.kind === "symbol") && matcher(outer.canonical)(inner.path);
  return false;
}

/** The path at the top of what a path or directory claim covers (`/p/src` for `/p/src/`, "" for `/`). */
function regionOf(shape: TargetShape): string {
  return shape.kind === "directory" ? shape.path.slice(0, -1) : shape.path;
}

/** `path` is `top` or lies under it. */
function covers(top: string, path: string): boolean {
  return path === top || path.startsWith(`${top}/`);
}

/**
 * A glob against a file (path or symbol) is a plain match: treating the file as a future directory
 * here would make every `**` glob collide with every file claim beside it. But a glob whose every
 * match lies under a path P (its static base is P or below it: `P/*.ts`) can only ever match what
 * P's claim covers once P is a directory, where a write under it is refused to the glob's holder;
 * so they conflict. Against a directory, the glob conflicts if it can match the directory or
 * anything under it.
 */
function globCovers(glob: string, other: TargetShape): boolean {
  if (other.kind === "directory") return globReachesInto(glob, other.path);
  if (literalPrefixAllows(glob, other.path) && matcher(glob)(other.path)) return true;
  if (other.kind !== "path") return false;
  const under = (pattern: string) => pattern.startsWith(`${other.canonical}/`) && covers(other.path, shapeOf(pattern).path);
  if (!hasBraces(glob)) return under(glob);
  // `{newpkg,lib}/*.ts`: each alternative on its own; past a few dozen, by static bases (conservative).
  const alternatives = expandBraces(glob, 64);
  return alternatives === undefined ? basesRelated(glob, `${other.canonical}/`) : alternatives.some(under);
}

/**
 * A glob's brace alternatives written out (`a/{b,c{d,e}}/*.ts`: `a/b/*.ts`, `a/cd/*.ts`,
 * `a/ce/*.ts`); a brace without a comma (a range, `{1..3}`) is kept. Undefined past `limit`.
 */
export function expandBraces(glob: string, limit: number): string[] | undefined {
  let open = -1;
  let depth = 0;
  const commas: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (char === "\\") i++;
    else if (char === "{") {
      if (depth === 0) open = i;
      depth++;
    } else if (char === "}" && depth > 0) {
      depth--;
      if (depth > 0) continue;
      if (commas.length === 0) {
        open = -1;
        continue; // no alternatives: a range or a literal brace pair, left to picomatch
      }
      const parts = [glob.slice(open + 1, commas[0])];
      for (let c = 0; c < commas.length; c++) parts.push(glob.slice((commas[c] as number) + 1, commas[c + 1] ?? i));
      const [head, tail] = [glob.slice(0, open), glob.slice(i + 1)];
      const out: string[] = [];
      for (const part of parts) {
        const expanded = expandBraces(`${head}${part}${tail}`, limit - out.length);
        if (expanded === undefined || out.length + expanded.length > limit) return undefined;
        out.push(...expanded);
      }
      return out;
    } else if (char === "," && depth === 1) commas.push(i);
  }
  return [glob];
}

/**
 * Whether fast-glob may be given a glob's braces to expand: it writes out every alternative and
 * range and looks each up, so a range past 2^53, or 22 groups of two, held the process until it
 * died (a hook's call let through, a take holding its take lock for minutes). Not past 64
 * alternatives, nor with a range.
 */
export function fewBraceAlternatives(glob: string): boolean {
  return expandBraces(glob, 64) !== undefined && !/\{[^{}]*\.\.[^{}]*\}/.test(glob);
}

/**
 * Every path a glob matches starts with the glob's text up to the last `/` before its first magic
 * character, or is that text without its `/` (picomatch: `P/**` matches `P` itself), so a path
 * without that prefix is decided without compiling the glob: a store of thousands of glob claims
 * costs string comparisons, not thousands of picomatch compilations.
 */
function literalPrefixAllows(glob: string, path: string): boolean {
  const magic = glob.search(MAGIC);
  if (magic === -1) return true;
  const slash = glob.lastIndexOf("/", magic);
  return slash <= 0 || `${path}/`.startsWith(glob.slice(0, slash + 1));
}

/** Whether a glob (canonical) matches a real path. */
export function globMatches(glob: string, path: string): boolean {
  return literalPrefixAllows(glob, path) && matcher(glob)(path);
}

const matchers = new Map<string, (path: string) => boolean>();

/**
 * picomatch's matcher of a glob; for one these rules cannot compare (a claim written by another
 * tool or an older version), what overlaps reads it as: everything under the directory of its
 * static base, never handed to picomatch (`*(**)/a.ts` backtracks for tens of seconds on a deep path).
 */
export function matcher(pattern: string): (path: string) => boolean {
  let match = matchers.get(pattern);
  if (!match) {
    const whole = unclaimableGlob(pattern) === undefined ? undefined : baseDirectory(shapeOf(pattern)).path;
    // nonegate: a segment compared on its own (`!*`, from `src/!*/**`) is not "anything but", as
    // picomatch reads a leading ! when the whole pattern starts with it; a canonical glob never does.
    match = whole === undefined ? picomatch(pattern, { dot: true, nonegate: true }) : (path: string) => path.startsWith(whole) || `${path}/` === whole;
    matchers.set(pattern, match);
  }
  return match;
}

function segments(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

/** Braces may hide a `/` (`{a,b/c}`), so a glob with braces is compared by its static base only: conservative. */
function hasBraces(glob: string): boolean {
  // To the end: scan stops at the first glob character otherwise, and `*/{a,b/c}` has braces after it.
  return picomatch.scan(glob, { scanToEnd: true }).isBrace;
}

function basesRelated(a: string, b: string): boolean {
  const baseA = `${picomatch.scan(a).base.replace(/\/+$/, "")}/`;
  const baseB = `${picomatch.scan(b).base.replace(/\/+$/, "")}/`;
  return baseA.startsWith(baseB) || baseB.startsWith(baseA);
}

/** Can the glob match `directory` (which ends with `/`) itself or some path under it? */
export function globReachesInto(glob: string, directory: string): boolean {
  if (hasBraces(glob)) return basesRelated(glob, directory);
  const pattern = segments(glob);
  const dir = segments(directory);
  const memo = new Map<number, boolean>();
  const reach = (i: number, j: number): boolean => {
    if (j === dir.length) return true; // the glob goes on below the directory, or names the directory itself
    if (i === pattern.length) return false; // the glob stops above it: it names an ancestor path only
    const key = i * (dir.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const segment = pattern[i] as string;
    const result =
      segment === "**"
        ? reach(i + 1, j) || reach(i, j + 1)
        : segmentMatches(segment, dir[j] as string) && reach(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return reach(0, 0);
}

/**
 * Whether a glob matches, under a symlink `link` to `real`, only paths whose real path (`real/rest`) it
 * matches itself: a link back to a directory above it (`src/loop -> .` under `src/**`), or
 * to one the glob reaches into as it reaches into the link, adds nothing to what it covers. Decided
 * by the positions in the glob's segments each path can leave it at; a glob with braces is not.
 */
export function reachesNothingMoreThrough(glob: string, link: string, real: string): boolean {
  if (hasBraces(glob) || unclaimableGlob(glob) !== undefined) return false;
  const pattern = segments(glob);
  const direct = positionsAfter(pattern, segments(real));
  for (const position of positionsAfter(pattern, segments(link))) if (!direct.has(position)) return false;
  return true;
}

/** The positions in a glob's segments at which what follows may match the rest of a path under `path`. */
function positionsAfter(pattern: string[], path: string[]): Set<number> {
  const withEmpty = (positions: Set<number>) => {
    for (const position of positions) if (pattern[position] === "**") positions.add(position + 1); // ** may stand for no segment
    return positions;
  };
  let at = withEmpty(new Set([0]));
  for (const name of path) {
    const next = new Set<number>();
    for (const position of at) {
      const segment = pattern[position];
      if (segment === "**") next.add(position);
      else if (segment !== undefined && segmentMatches(segment, name)) next.add(position + 1);
    }
    at = withEmpty(next);
  }
  return at;
}

/**
 * Could one path match both globs, now or once it is created? Decided per path segment: literal
 * segments must be equal or match the other's pattern; two patterns are compatible unless their
 * literal prefixes or suffixes rule it out (`*.ts` vs `*.py`); `**` absorbs any number of segments.
 * This errs towards "yes": a false conflict is acceptable, a missed one is not.
 */
export function globsMayIntersect(a: string, b: string): boolean {
  if (hasBraces(a) || hasBraces(b)) return basesRelated(a, b);
  return segmentsMayIntersect(segments(a), segments(b));
}

/**
 * Whether segment `at` can drop out of what a glob matches: one that can match nothing (`?(x)`,
 * `*(b)`, `!(a)`) right after a `**` and at the end or before another `**`. picomatch matches
 * `src/b` by `src/b/**` + `/?(x)`, and by `src/b/**` + `/?(x)/**`, which a comparison by segment
 * count missed (a take of `src/*` was granted beside them).
 */
function mayVanish(parts: string[], at: number): boolean {
  const part = parts[at] as string;
  return parts[at - 1] === "**" && (at === parts.length - 1 || parts[at + 1] === "**") && isMagic(part) && matcher(`/x/${part}`)("/x/");
}

function segmentsMayIntersect(left: string[], right: string[]): boolean {
  const memo = new Map<number, boolean>();
  const compatible = (i: number, j: number): boolean => {
    const key = i * (right.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === left.length && j === right.length) result = true;
    else if (i < left.length && mayVanish(left, i) && compatible(i + 1, j)) result = true;
    else if (j < right.length && mayVanish(right, j) && compatible(i, j + 1)) result = true;
    else if (i < left.length && left[i] === "**") result = compatible(i + 1, j) || (j < right.length && compatible(i, j + 1));
    else if (j < right.length && right[j] === "**") result = compatible(i, j + 1) || (i < left.length && compatible(i + 1, j));
    else if (i === left.length || j === right.length) result = false;
    else result = segmentsCompatible(left[i] as string, right[j] as string) && compatible(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return compatible(0, 0);
}

/**
 * A segment with a character picomatch reads as syntax. An escaped name (`\(group\)`, a Next.js
 * route group's directory) is none: it is compared as the name it spells, so two globs in two route
 * groups do not meet.
 */
function isMagic(segment: string): boolean {
  if (!MAGIC.test(segment)) return false;
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] === "\\" && i === segment.length - 1) return true; // escaping the `/` after it: no name, compared as a pattern
    if (segment[i] === "\\") i++;
    else if (MAGIC.test(segment[i] as string)) return true;
  }
  return false;
}

/** Whether a glob segment matches a name (as on disk: unescaped). */
function segmentMatches(pattern: string, name: string): boolean {
  return isMagic(pattern) ? matcher(pattern)(name) : unescapeLiteral(pattern) === name;
}

function segmentsCompatible(a: string, b: string): boolean {
  if (!isMagic(a)) return segmentMatches(b, unescapeLiteral(a));
  if (!isMagic(b)) return segmentMatches(a, unescapeLiteral(b));
  // A pattern that matches a few names only (`[a].ts`): each asked of the other, exactly.
  const namesOfA = namesMatched(a);
  if (namesOfA !== undefined) return namesOfA.some((name) => segmentMatches(b, name));
  const namesOfB = namesMatched(b);
  if (namesOfB !== undefined) return namesOfB.some((name) => segmentMatches(a, name));
  const prefixA = a.slice(0, a.search(MAGIC));
  const prefixB = b.slice(0, b.search(MAGIC));
  const suffixA = a.slice(lastMagic(a) + 1);
  const suffixB = b.slice(lastMagic(b) + 1);
  return (prefixA.startsWith(prefixB) || prefixB.startsWith(prefixA)) && (suffixA.endsWith(suffixB) || suffixB.endsWith(suffixA));
}

/** What a bracket of a few named characters may hold: no range, negation, escape, class or `/`. */
const LISTED_CHARACTERS = /^[\x20-\x7e]+$/;
const NOT_LISTED = /[-^\\[\]/]/;

/**
 * Every name a segment matches when its only syntax is brackets listing characters (`[a].ts`,
 * `x[ab]`, `[.]`), or undefined (any other syntax, or past 64 names). picomatch reads such a
 * bracket as one of its characters or, when it holds no character a regular expression reads
 * (`[a]`, `[!a]`; not `[.]`), as its own text too: `[a].ts` matches `a.ts` and `[a].ts`. The
 * names are those written out, as picomatch matches them.
 */
function namesMatched(segment: string): string[] | undefined {
  let names = [""];
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i] as string;
    let choices: string[];
    if (char === "\\") {
      const next = segment[i + 1] ?? "";
      if (!/^[\x20-\x7e]$/.test(next) || /[A-Za-z0-9]/.test(next)) return undefined; // `\d` is a regular expression's class
      choices = [next];
      i++;
    } else if (char === "[") {
      const close = segment.indexOf("]", i + 1);
      const listed = close === -1 ? "" : segment.slice(i + 1, close);
      if (!LISTED_CHARACTERS.test(listed) || NOT_LISTED.test(listed)) return undefined;
      choices = [...new Set(listed), `[${listed}]`];
      i = close;
    } else if (MAGIC.test(char)) return undefined;
    else choices = [char];
    names = names.flatMap((name) => choices.map((choice) => name + choice));
    if (names.length > 64) return undefined;
  }
  return names.filter((name) => matcher(segment)(name));
}

function lastMagic(segment: string): number {
  for (let i = segment.length - 1; i >= 0; i--) if (MAGIC.test(segment[i] as string)) return i;
  return -1;
}
