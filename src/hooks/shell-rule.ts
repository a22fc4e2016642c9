// What a command's rule is (Rule): its options, declared once (Syntax), and the paths it writes,
// computed from its arguments as they read (RuleInput). With what several rules read alike: the
// files options name (optionFiles), the directory an option names (placeOf), the paths a diff names
// (diffPaths, in diff-paths.ts), a variable of the command's environment, a path written as a glob, a file made only
// where none is (createdIfMissing).
import { existsSync } from "node:fs";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import type { Reading, Syntax } from "./shell-options.js";
import { directoryAt, type Environment, judgedPath, outputs, type Walk, within } from "./shell-words.js";

export { diffPaths } from "./diff-paths.js";

export interface Rule {
  /** Its options, declared once: both their values and which arguments are operands come from reading them. */
  syntax: Syntax;
  writes: (input: RuleInput) => string[];
  /** Its arguments may also hold a command it runs here (`sops exec-env f 'cmd'`, `yt-dlp --exec 'cmd'`): read as an unknown command's are. */
  runsArguments?: true;
  /** It runs a program file of the project, the first operand after one of `after` (`hardhat run scripts/x.ts`): read as `interpreter FILE …` is. */
  runsProgram?: { after: string[]; interpreter: string };
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
