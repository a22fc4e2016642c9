// What a command's rule is (Rule): its options, declared once (Syntax), and the paths it writes,
// computed from its arguments as they read (RuleInput). With what several rules read alike: the
// files options name (optionFiles), the directory an option names (placeOf), the paths a diff names
// (diffPaths), a variable of the command's environment, a path written as a glob, a file made only
// where none is (createdIfMissing).
import { existsSync } from "node:fs";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import type { Reading, Syntax } from "./shell-options.js";
import { directoryAt, type Environment, judgedPath, outputs, type Walk, within } from "./shell-words.js";

export interface Rule {
  /** Its options, declared once: both their values and which arguments are operands come from reading them. */
  syntax: Syntax;
  writes: (input: RuleInput) => string[];
}

export interface RuleInput {
  args: Array<string | undefined>;
  /** The arguments read by the rule's syntax. */
  reading: Reading;
  /** The (glob-expanded) values of the arguments at those indexes (all of them when none are given). */
  values: (indexes?: number[]) => string[];
  stdin: string | undefined;
  /** Its input is a pipe or a file the text does not give (stdin undefined, yet something is read). */
  fed?: boolean;
  walk: Walk;
  /** An argument's value with a HOLE where the text does not fix it (`of="$d/x"`). */
  text: (index: number) => string | undefined;
}

/**
 * The files options name (`sort -o out`, `curl -D h`): each value the text fixes, and where it does
 * not (`-o "$d/x"`, `-o"$d/x"`), its word or attached text judged as a written path; never `-`
 * (stdout). `origin`: where an argument of the reading stands in the command's own (tar's
 * old-style options are read rewritten).
 */
export function optionFiles(input: RuleInput, keys: string[], reading = input.reading, origin = (at: number) => at): string[] {
  return keys.flatMap((key) =>
    reading.occurrences(key).flatMap(({ value, at, text }) => (value !== undefined ? outputs([value]) : text !== undefined ? outputs([judgedPath(text)]) : at === undefined ? [] : input.values([origin(at)]))),
  );
}

/** Where an option that names a directory puts what follows it (patch -d, curl --output-dir, wget -P): cwd when it is not given. */
export function placeOf(reading: Reading, key: string, cwd: string | undefined): string | undefined {
  return reading.has(key) ? directoryAt(cwd, reading.value(key)) : cwd;
}

/** Paths a unified diff writes: `+++ ` and `--- ` names (not /dev/null), `diff --git a/x b/y`, less `strip` leading components. */
export function diffPaths(text: string, strip: number): string[] {
  const paths = new Set<string>();
  const stripped = (path: string) => path.split("/").slice(strip).join("/");
  for (const line of text.split(/\r?\n/)) {
    let match = /^(?:\+\+\+|---) ("(?:\\.|[^"\\])*"|[^\t\n]+?)(?:\t.*)?$/.exec(line);
    if (match?.[1] && match[1] !== "/dev/null") {
      const path = stripped(unquoted(match[1].trim()));
      if (path) paths.add(path);
      continue;
    }
    // `diff --git a/x b/y`, each side C-quoted where its name needs it (`"a/caf\303\251.md"`), or with spaces.
    match = /^diff --git ("(?:\\.|[^"\\])*"|a\/.*?) ("(?:\\.|[^"\\])*"|b\/.*)$/.exec(line);
    if (match?.[1] && match[2]) {
      const partsStrip = Math.max(strip - 1, 0);
      for (const side of [match[1], match[2]]) paths.add(unquoted(side).replace(/^[ab]\//, "").split("/").slice(partsStrip).join("/"));
      continue;
    }
    // A rename or copy with no content change has no ---/+++ lines: its names are here, from the top.
    match = /^(?:rename|copy) (?:from|to) (.+)$/.exec(line);
    if (match?.[1]) paths.add(unquoted(match[1]));
  }
  return [...paths];
}

/** A name as git writes it in a diff: C-quoted (`"caf\303\251.md"`, `"a\"b"`, `"a\tb"`) where it must be, else as it is. */
function unquoted(name: string): string {
  if (!(name.length >= 2 && name.startsWith('"') && name.endsWith('"'))) return name;
  const bytes: number[] = [];
  const escapes: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };
  const body = name.slice(1, -1);
  for (let at = 0; at < body.length; at++) {
    const char = body[at] as string;
    if (char !== "\\") {
      bytes.push(...Buffer.from(char, "utf8"));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(at + 1))?.[0];
    if (octal !== undefined) {
      bytes.push(Number.parseInt(octal, 8));
      at += 3;
    } else {
      const next = body[at + 1] ?? "";
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      at += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** A variable of the command's environment: undefined when the text sets it to a value it does not fix. */
export const variable = (environment: Environment, name: string, otherwise: string | undefined): string | undefined =>
  Object.hasOwn(environment, name) ? environment[name] : otherwise;

/** A path written as a glob: checked against the claims, never claimed (a path already in an unknown place keeps its mark). */
export const globOf = (path: string): string => (path.startsWith(UNKNOWN_MARK) || path.startsWith(GLOB_MARK) ? path : GLOB_MARK + path);

/**
 * A file a command creates only where none is, leaving one that is there as it was (`flock FILE
 * cmd` opens FILE with O_CREAT and no O_TRUNC; `tailwindcss init` skips a config it finds): the path
 * while nothing is there, else nothing. A symlink to nowhere is missing (open(2) creates what it
 * leads to: existsSync follows it); a path the text does not fix, or in a place unknown, may be.
 */
export function createdIfMissing(cwd: string | undefined, path: string): string[] {
  const absolute = within(cwd, path);
  return absolute.startsWith(GLOB_MARK) || absolute.startsWith(UNKNOWN_MARK) || !existsSync(absolute) ? [path] : [];
}
