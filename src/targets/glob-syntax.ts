// What a glob target may be written as. picomatch reads more than a claim can compare: a claim's
// overlaps are decided segment by segment (src/targets/overlap.ts), so a pattern that can match a
// `/` inside one segment, or an alternative of the whole pattern, is refused at take time rather
// than compared wrongly. And a parenthesised name, which picomatch reads as a group matching the
// name without its parentheses, is the directory of that name (Next.js route groups, `(auth)`).
import { picomatch } from "./picomatch.js";

/** Every `{` of a glob is closed by a `}` after it (escaped ones aside): picomatch would read a lone one literally. */
export function bracesBalance(glob: string): boolean {
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (char === "\\") i++;
    else if (char === "{") depth++;
    else if (char === "}" && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * The first brace group of a glob with a `..` that picomatch does not read as the shell's range, or
 * undefined. picomatch reads `{a..e}` as the class `[a-e]`, as the shell does, but only a range
 * between two single characters: `{1..12}` as `[1-12]` (1 or 2, not 7), `{01..03}` as the text
 * itself, `{a..e..2}` and `{x,1..3}` as classes of their own, so a claim on `shard-{1..12}.json` did
 * not cover shard-7.json.
 */
export function misreadRange(glob: string): string | undefined {
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === "\\") {
      i++;
      continue;
    }
    if (glob[i] !== "{") continue;
    // The group's own text, each group inside it written {} (looked at on its own when reached):
    // `{1..12,{a,b}}` is a range among alternatives too, which picomatch reads as matching nothing.
    let own = "{";
    let depth = 1;
    let at = i + 1;
    for (; at < glob.length && depth > 0; at++) {
      const char = glob[at] as string;
      if (char === "\\") {
        if (depth === 1) own += glob.slice(at, at + 2);
        at++;
      } else if (char === "{") {
        if (++depth === 2) own += "{}";
      } else if (char === "}") {
        if (--depth === 0) own += "}";
      } else if (depth === 1) own += char;
    }
    if (depth > 0) continue;
    if (own.includes("..") && !/^\{[^\\,]\.\.[^\\,]\}$/u.test(own)) return glob.slice(i, at);
  }
  return undefined;
}

/** Every `[` of a glob has a `]` after it (escaped ones aside): picomatch would read a lone one literally. */
export function bracketsClose(glob: string): boolean {
  let open = false;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (char === "\\") i++;
    else if (char === "[") open = true;
    else if (char === "]") open = false;
  }
  return !open;
}

/**
 * `[!…]` as the shell and git read it, anything but: picomatch reads a `!` opening a bracket as one
 * of the characters (`[!a]` would match `!` or `a`, and leave `b` unclaimed). Spelt `[^…]`.
 */
export function negatedBrackets(glob: string): string {
  let out = "";
  let open = false;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === "\\") {
      out += char + (glob[i + 1] ?? "");
      i++;
    } else if (char === "[" && !open) {
      open = true;
      out += glob[i + 1] === "!" ? "[^" : "[";
      if (glob[i + 1] === "!") i++;
    } else {
      if (char === "]") open = false;
      out += char;
    }
  }
  return out;
}

/** The characters that make `(` an extglob (`@(a|b)`, `!(x)`, `*(x)`, `+(x)`, `?(x)`). */
const EXTGLOB = new Set(["@", "!", "*", "+", "?"]);
/** What a route group's name may hold: no pattern character, no `/`. */
const PLAIN_GROUP = /^[^|()*?[\]{}\\/]+$/;

/**
 * `app/(marketing)/**` with its parenthesised names escaped (`app/\(marketing\)/**`): picomatch
 * would read `(marketing)` as a group matching `marketing`, a directory nobody meant, and leave the
 * files in `(marketing)` unclaimed. A group with alternatives (`(a|b)`) or after an extglob
 * character (`@(a)`) stays a pattern.
 */
export function literalGroups(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === "\\") {
      out += glob.slice(i, i + 2);
      i++;
      continue;
    }
    if (char === "(" && !EXTGLOB.has(glob[i - 1] ?? "")) {
      const close = glob.indexOf(")", i);
      const name = close === -1 ? "" : glob.slice(i + 1, close);
      if (PLAIN_GROUP.test(name)) {
        out += `\\(${name}\\)`;
        i = close;
        continue;
      }
    }
    out += char;
  }
  return out;
}

/**
 * Why a glob cannot be claimed, or undefined: a `/` that one segment's pattern can match (`x[/]y`,
 * `x[.-0]y`, `x[[:punct:]]y`, `x\/y`, `@(x/y)`, any POSIX class, `***`), and a `|` outside parentheses, which makes the whole
 * pattern one of two (`x/y|z/*.ts` matches `x/y`, or `z/…` anywhere): the overlap rules, comparing
 * segment by segment, would miss what either matches. And a brace range picomatch misreads
 * (misreadRange): a claim of it, written elsewhere, means what picomatch does not match.
 */
export function unclaimableGlob(pattern: string): string | undefined {
  // Asked of every glob claim a take or check compares against: each pattern read once a process.
  if (!UNCLAIMABLE.has(pattern)) UNCLAIMABLE.set(pattern, whyUnclaimable(pattern));
  return UNCLAIMABLE.get(pattern);
}

const UNCLAIMABLE = new Map<string, string | undefined>();

/** Why a glob with three stars in a row cannot be claimed (unclaimableGlob). */
export const STARS = "has three stars or more in a row, which picomatch reads as one * while reading each . after as any character, a / included";

/** Why a glob with a ** inside ( ) cannot be claimed (unclaimableGlob). */
export const STARS_IN_GROUP = "has a ** inside ( ), which picomatch lets match across a /";

/** Why a glob with a POSIX class (`[[:alpha:]]`) cannot be claimed (unclaimableGlob). */
export const POSIX_CLASS = "has a POSIX class ([[:alpha:]] and the like), with which picomatch reads each . of the pattern as any character, a / included";

/**
 * Why a glob with a `\` before a letter or digit cannot be claimed (unclaimableGlob): picomatch hands
 * it to the regular expression as it is (`\d` any digit, `\w`, `\s`, `\b` a word boundary, `\1`),
 * where the overlap rules, and a reader, take the character itself (`\d` is `d`).
 */
export const ESCAPED_LETTER = "has a \\ before a letter or digit, which picomatch reads as a regular expression's escape (\\d any digit, \\w, \\s, \\b a word boundary), not as the character";

const ESCAPED_CLASS = /^[A-Za-z0-9]$/;

/**
 * Why a glob with a brace range picomatch misreads cannot be claimed (unclaimableGlob, misreadRange):
 * its writer meant the shell's range (`{1..12}`, 1 to 12) where picomatch matches 1 or 2.
 */
export const MISREAD_RANGE = "has a brace range other than one between two single characters, which picomatch does not read as the shell's range ({1..12} as the class [1-12]: 1 or 2, not 7)";

function whyUnclaimable(pattern: string): string | undefined {
  if (pattern.includes("..") && misreadRange(pattern) !== undefined) return MISREAD_RANGE;
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\") {
      if (pattern[i + 1] === "/") return "has an escaped /";
      if (ESCAPED_CLASS.test(pattern[i + 1] ?? "")) return ESCAPED_LETTER;
      i++;
    } else if (char === "[") {
      const close = bracketEnd(pattern, i);
      if (close === -1) continue; // a lone [ is literal (and refused before this, bracketsClose)
      const bracket = pattern.slice(i, close + 1);
      if (bracket.includes("/") || picomatch(bracket, { dot: true })("/")) return "has a [ ] that can match a /";
      // With one, picomatch reads every `.` of the pattern, escaped or not, as any character, `/` included.
      if (/\[:[a-z]+:\]/.test(bracket)) return POSIX_CLASS;
      if (/(^|[^\\])(\\\\)*\\[A-Za-z0-9]/.test(bracket)) return ESCAPED_LETTER;
      i = close;
    } else if (char === "*" && pattern.startsWith("***", i)) {
      return STARS;
    } else if (char === "*" && pattern[i + 1] === "*" && depth > 0) {
      // `@(**)`, `+(**)`, `(**)`: picomatch lets it cross a / (and `*(**)` backtracks for seconds on a
      // deep path), where the overlap rules compare one segment.
      return STARS_IN_GROUP;
    } else if (char === "(") depth++;
    else if (char === ")") depth = Math.max(0, depth - 1);
    else if (char === "/" && depth > 0) return "has a / inside ( )";
    else if (char === "|" && depth === 0) return "has a | outside parentheses, which picomatch reads as an alternative of the whole pattern";
  }
  return undefined;
}

/** The index of the `]` closing the bracket expression opened at `open` (a `[:class:]` inside it kept whole), or -1. */
function bracketEnd(pattern: string, open: number): number {
  for (let i = open + 1; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern.startsWith("[:", i)) {
      const end = pattern.indexOf(":]", i + 2);
      if (end !== -1) i = end + 1;
    } else if (pattern[i] === "]") return i;
  }
  return -1;
}

/**
 * The first bracket expression of a glob that `fold` (lower case, for a glob below a directory that
 * ignores case: src/targets/caseless.ts) makes miss a character it matches as written, folded; or
 * undefined. Names there are matched folded, so a bracket must match the fold of every character
 * it matches: `[A-Z]` as `[a-z]` does, but `[A-z]` as `[a-z]` leaves out `_`, `[Z-a]` as `[z-a]`
 * matches nothing, `[^A-Z]` as `[^a-z]` leaves out `a`, and `[^a-z]` leaves out `A`; a brace range
 * (`{A..z}`) is the class picomatch reads it as. Inside a negated extglob, `!( )`, a bracket says
 * what the glob leaves out, so it must also not match, folded, a character it does not match as
 * written: `!([A-Z]*).ts` as `!([a-z]*).ts` would leave out foo.ts. Asked of printable ASCII, of the
 * bracket's own characters in either case, and of what its ranges span (4,096 characters at most).
 */
export function bracketFoldedApart(pattern: string, fold: (text: string) => string): string | undefined {
  // A range between two characters (`{A..z}`) is the class picomatch reads it as (`[A-z]`).
  const glob = pattern.replace(/(?<!\\)\{([^\\,])\.\.([^\\,])\}/gu, (_, from: string, to: string) => `[${[from, to].sort().join("-")}]`);
  // The depths of the open `!(` groups: a bracket there says what the glob leaves out.
  const negations: number[] = [];
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === "\\") {
      i++;
      continue;
    }
    if (glob[i] === "(") {
      if (glob[i - 1] === "!") negations.push(depth);
      depth++;
    } else if (glob[i] === ")" && depth > 0) {
      depth--;
      if (negations[negations.length - 1] === depth) negations.pop();
    }
    if (glob[i] !== "[") continue;
    const close = bracketEnd(glob, i);
    if (close === -1) continue;
    const bracket = glob.slice(i, close + 1);
    i = close;
    // A bracket fold leaves as it is may miss some all the same: `[^a-z]` matches `A`, folded `a`.
    const folded = fold(bracket);
    const written = picomatch(bracket, { dot: true });
    let matches: (text: string) => boolean;
    try {
      matches = picomatch(folded, { dot: true });
    } catch {
      return bracket;
    }
    const asked = new Set<string>();
    for (let code = 0x20; code < 0x7f; code++) asked.add(String.fromCharCode(code));
    const chars = [...bracket];
    for (const [at, char] of chars.entries()) {
      for (const each of [char, char.toUpperCase(), char.toLowerCase()]) asked.add(each);
      const to = chars[at + 2];
      if (chars[at + 1] === "-" && to !== undefined) {
        const [from, end] = [char.codePointAt(0) as number, to.codePointAt(0) as number];
        for (let code = from; code <= end && code - from < 4096; code++) {
          const each = String.fromCodePoint(code);
          for (const variant of [each, each.toUpperCase(), each.toLowerCase()]) asked.add(variant);
        }
      }
    }
    // Inside `!( )` the fold must not match what the bracket did not either: folded, `!([A-Z]*).ts`
    // is `!([a-z]*).ts`, which leaves out foo.ts, a file the glob as written matches.
    const negated = negations.length > 0;
    for (const char of asked) {
      if (char !== "/" && written(char) && !matches(fold(char))) return bracket;
      if (negated && char !== "/" && !written(char) && matches(fold(char))) return bracket;
    }
  }
  return undefined;
}

/**
 * The first segment of a glob's pattern with a `**` that is not a whole segment (`src/**.ts`, where
 * picomatch matches as `*` does, within one directory), or with three stars or more, or undefined. An escaped or bracketed `*`
 * is a character, and a `**` that is a whole alternative in braces or parentheses (`{**,x}/a`) is whole.
 */
export function starsInsideSegment(pattern: string): string | undefined {
  return pattern.split("/").find((segment) => {
    const bare = segment.replace(/\\./g, "_").replace(/\[(?:\[:[a-z]+:\]|[^\]])*\]/g, "_");
    for (const run of bare.matchAll(/\*{2,}/g)) {
      // Three or more: picomatch reads them as one `*`, and every `.` after as any character.
      if (run[0].length > 2) return true;
      const before = bare[(run.index ?? 0) - 1];
      const after = bare[(run.index ?? 0) + run[0].length];
      if (!(before === undefined || "{,(|".includes(before)) || !(after === undefined || "},)|".includes(after))) return true;
    }
    return false;
  });
}
