// What a command's rule is (Rule): its options, declared once (Syntax), and the paths it writes,
// computed from its arguments as they read (RuleInput). With what several rules read alike: the
// files options name (optionFiles), the directory an option names (placeOf), the paths a diff names
// (diffPaths, in diff-paths.ts), a variable of the command's environment, a path written as a glob, a file made only
// where none is (createdIfMissing).
import { existsSync } from "node:fs";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import type { Reading, Syntax } from "./shell-options.js";
import { directoryAt, type Environment, judgedPath, outputs, shellQuoted, type Walk, within } from "./shell-words.js";

export { diffPaths } from "./diff-paths.js";

export interface Rule {
  /** Its options, declared once: both their values and which arguments are operands come from reading them. */
  syntax: Syntax;
  writes: (input: RuleInput) => string[];
  /** Its arguments may also hold a command it runs here (`sops exec-env f 'cmd'`, `yt-dlp --exec 'cmd'`): read as an unknown command's are. */
  runsArguments?: true;
  /**
   * It runs a program file of the project, the first operand after one of `after` (`hardhat run
   * scripts/x.ts`): read as `interpreter FILE …` is. With `code`, an operand that is no file there is
   * code, read as `interpreter CODE-OPTION CODE` (`rails runner 'User.delete_all'`: `ruby -e …`);
   * `valued`: the verb's options that take a value (`rails runner -e production x.rb`).
   */
  runsProgram?: { after: string[]; interpreter: string; code?: string; valued?: string[] };
  /**
   * The command lines it runs, read in turn where it runs (`go test -exec 'x'`, `cargo watch -s
   * 'x'`, `terragrunt exec -- x`): undefined for one the text does not fix (any file); one that runs
   * in another directory with it (`npm explore pkg -- x`: node_modules/pkg; undefined, a place unknown).
   */
  runsLines?: (input: RuleInput) => Array<string | RunLine | undefined>;
}

/** A command line a tool runs in another directory than its own (undefined: a place the text does not name). */
export interface RunLine {
  script: string;
  cwd: string | undefined;
}

/** A command line given `text` on its input, as a quoted heredoc (its end a word no line of the text is). */
export function withInput(line: string, text: string): string {
  let end = "CLAIMS_STDIN";
  while (text.split("\n").includes(end)) end += "_";
  return `${line} <<'${end}'\n${text}${text.endsWith("\n") ? "" : "\n"}${end}\n`;
}

/**
 * The program a console reads on its input (`rails console < x.rb`, `echo 'code' | flask shell`,
 * `django-admin shell <<EOF`): read as `interpreter -` given that text; undefined (any file) for
 * input the text does not give (a pipe from a program, a file it cannot read); none without input.
 */
export function inputProgram(input: RuleInput, interpreter: string): Array<string | undefined> {
  if (input.stdin !== undefined) return [withInput(`${interpreter} -`, input.stdin)];
  return input.fed === true ? [undefined] : [];
}

/**
 * The code files a tool loads through options (`eslint -f ./fmt.js`, `rubocop -r ./x.rb`, `prettier
 * --plugin=./p.mjs`), as their interpreter runs them (a file the project keeps is not read); a
 * package's or a built-in's name (`-f stylish`, `-r rubocop-rails`, `@scope/plugin`) is none; a
 * value the text does not fix, any file.
 */
export function loadedFiles(names: string[], interpreter: string): (input: RuleInput) => Array<string | undefined> {
  return (input) =>
    flagValues(input.args, names, input.text).flatMap((value) => (value === undefined ? [undefined] : /^(\.{1,2}\/|\/|~\/)|\.([cm]?[jt]sx?|rb)$/.test(value) ? [`${interpreter} ${shellQuoted(value)}`] : []));
}

/** The arguments from `from` on, as a command line (undefined where the text does not fix one). */
export function lineOf(args: Array<string | undefined>, from: number): string | undefined {
  const words = args.slice(from);
  return words.length === 0 || words.some((word) => word === undefined) ? undefined : (words as string[]).map(shellQuoted).join(" ");
}

/**
 * The command line a subcommand runs (`terragrunt exec -- cmd`, `jj util exec -- cmd`, `composer
 * exec bin args`): what follows its `--`, else its first operand on; none when the command is not
 * that subcommand.
 */
export function lineAfter(input: RuleInput, verbs: string[]): Array<string | undefined> {
  const { args, reading } = input;
  const named = reading.operands.slice(0, verbs.length);
  if (named.length < verbs.length || named.some((at, index) => args[at] !== verbs[index])) return [];
  const from = (named.at(-1) as number) + 1;
  const dashdash = args.indexOf("--", from);
  const start = dashdash !== -1 ? dashdash + 1 : args.findIndex((arg, at) => at >= from && (arg === undefined || !arg.startsWith("-")));
  return start === -1 || start >= args.length ? [] : [lineOf(args, start)];
}

/**
 * The values of a Go-style option (`-exec x`, `--exec=x`, `-exec=x`) among the arguments: each
 * value, undefined where the text does not fix it.
 */
export function flagValues(args: Array<string | undefined>, names: string[], text: (at: number) => string | undefined = () => undefined): Array<string | undefined> {
  const found: Array<string | undefined> = [];
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    // (`-exec="$x"`: an option the text names, with a value it does not fix.)
    if (arg === undefined && names.includes(/^--?([\w-]+)=/.exec(text(at) ?? "")?.[1] ?? "")) found.push(undefined);
    if (arg === undefined) continue;
    if (arg === "--") break;
    const name = /^--?([\w-]+)(=|$)/.exec(arg);
    if (name === null || !names.includes(name[1] as string)) continue;
    if (name[2] === "=") found.push(arg.slice(arg.indexOf("=") + 1));
    else if (at + 1 < args.length) {
      found.push(args[at + 1]);
      at++;
    } // (one with no value after it: the tool refuses it)
  }
  return found;
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
