// picomatch, loaded on its first use. Most calls meet no glob (a plain path, a directory), and
// evaluating picomatch's modules is a tenth of a millisecond of every call's start-up otherwise
// (docs/BENCHMARKS.md). In the CLI's bundle, esbuild turns the `require` below into its own
// lazily evaluated copy of picomatch; in the library (ES modules, no `require`) Node loads it.
import { createRequire } from "node:module";
import type Picomatch from "picomatch";

let loaded: typeof Picomatch | undefined;

function load(): typeof Picomatch {
  loaded ??= (typeof require === "function" ? require("picomatch") : createRequire(import.meta.url)("picomatch")) as typeof Picomatch;
  return loaded;
}

type ScanOptions = Picomatch.PicomatchOptions & { scanToEnd?: boolean };

/**
 * picomatch(glob, options) and picomatch.scan(input), as the package exports them, but for a
 * mistake of scan's: after a brace group with no alternatives (`{b}`, cookiecutter's `{{name}}`,
 * which picomatch matches as the literal text), an escaped brace (`\{b\}`) or a `[` never closed,
 * scan stops and calls the whole text a path, though a glob character follows (`app/{b}/*.ts`),
 * which picomatch's matcher reads as one. Such a text is a glob, its base the segments before the
 * one holding the first glob character.
 */
export const picomatch = Object.assign((glob: string, options?: Picomatch.PicomatchOptions) => load()(glob, options), {
  // scanToEnd: past the first glob character too (picomatch's scan reads it; its types do not list it).
  scan: (input: string, options?: ScanOptions) => {
    const scanned = load().scan(input, options);
    if (scanned.isGlob) return scanned;
    const rest = input.slice(scanned.start);
    const at = firstGlobCharacter(rest);
    if (at === -1) return scanned;
    const slash = rest.lastIndexOf("/", at);
    return { ...scanned, isGlob: true, base: slash === -1 ? "" : slash === 0 ? "/" : rest.slice(0, slash), glob: rest.slice(slash + 1) };
  },
});

/**
 * Where the first character picomatch matches as a pattern is, unescaped: `*`, `?`, a `[` closed by
 * a `]`, an extglob's `@(`/`!(`/`+(`, or the `{` of a group with alternatives (`{a,b}`, `{1..3}`);
 * -1 for none. As picomatch matches: a `{` or an extglob never closed makes the rest literal; a
 * group with no alternatives is literal text, but a `*` inside it is not.
 */
function firstGlobCharacter(text: string): number {
  for (let at = 0; at < text.length; at++) {
    const character = text[at];
    if (character === "\\") {
      at++;
      continue;
    }
    if (character === "*" || character === "?") return at;
    if (character === "[" && closing(text, at + 2, "]") !== -1) return at;
    if (character === "(" && at > 0 && "@!+".includes(text[at - 1] as string)) return closing(text, at + 1, ")") === -1 ? -1 : at - 1;
    if (character === "{") {
      const close = closing(text, at, "}");
      if (close === -1) return -1;
      if (hasAlternatives(text, at)) return at;
    }
  }
  return -1;
}

/** Where the first unescaped `close` is from `from` on (for `}`, the one closing the group opening at `from`); -1 for none. */
function closing(text: string, from: number, close: string): number {
  let depth = 0;
  for (let at = from; at < text.length; at++) {
    const character = text[at];
    if (character === "\\") at++;
    else if (close === "}" && character === "{") depth++;
    else if (character === close && (close !== "}" || --depth === 0)) return at;
  }
  return -1;
}

/** Whether the brace group opening at `open` has a `,` or `..` of its own before its `}`. */
function hasAlternatives(text: string, open: number): boolean {
  let depth = 0;
  for (let at = open; at < text.length; at++) {
    const character = text[at];
    if (character === "\\") at++;
    else if (character === "{") depth++;
    else if (character === "}" && --depth === 0) return false;
    else if (depth === 1 && (character === "," || (character === "." && text[at + 1] === "."))) return true;
  }
  return false;
}
