// A command's options read as getopt reads them, from one declaration of the ones that take a value
// (Syntax): clusters (`-at dst`), attached values (`-tdst`, `sed -i.bak`), long options and their
// unambiguous starts (`--target dst`), `--`, options anywhere or only before the first operand.
// Every rule and wrapper reads its arguments through readOptions, so an option's value is never
// taken for an operand: `cp -at dst f` copies into dst, `sort -uo out` writes out.

/**
 * How a command takes its options, as getopt reads them. `short` is getopt's optstring: a letter
 * followed by `:` takes a value, the rest of its cluster or else the next argument (`-t dst`,
 * `-tdst`, `-at dst`: in a cluster, letters are flags up to the first that takes a value); by `::`,
 * only the rest of its cluster (`sed -i.bak`, `sed -ni`); any other letter, listed or not, is a
 * flag. `long` names long options, each by the letter it stands for or, for one with no letter, `:`
 * (takes a value: `--name=value` or `--name value`), `::` (only as `--name=value`) or `` (a flag).
 * An unambiguous start of a listed name stands for it (`--target dst`), as with getopt_long.
 */
export interface Syntax {
  short?: string;
  long?: Record<string, string>;
  /** Options end at the first operand (sudo, env, bash, perl, awk), where GNU tools take them anywhere. */
  ordered?: boolean;
  /** `+o name`, `+x`: bash's options that turn a setting off. */
  plus?: boolean;
  /** Long options only by their whole name, never an abbreviation (click, clap, optionator: `--fix` is not `--fix-type`). */
  exact?: boolean;
  /** Letters whose value ends the options: what follows is the program's (python's `-c CODE` and `-m MODULE`). */
  last?: string;
}

/** A command's arguments read by its syntax: its options' values and its operands, from one scan. */
export interface Reading {
  /** Indexes of the operands: the arguments that are neither options nor an option's value. */
  operands: number[];
  /** Where the options end: the first operand (after `--`), where a wrapper's command starts. */
  end: number;
  /** Whether one of these options is given (an option is named by its letter, or by its long name when it has none). */
  has: (...keys: string[]) => boolean;
  /** The value of the option's last occurrence: undefined when it is not given or the text does not fix its value. */
  value: (key: string) => string | undefined;
  /** The values of each of its occurrences, in order. */
  values: (key: string) => Array<string | undefined>;
  /**
   * Each occurrence's value and, when it is an argument of its own, that argument's index; and, for
   * a value attached in a word the text does not fix (`-o"$d/x"`, `--output="$x"`), its text, with a
   * HOLE where the text does not fix it (its value is then undefined).
   */
  occurrences: (key: string) => Array<{ value: string | undefined; at: number | undefined; text?: string }>;
  /**
   * Indexes of the words read as operands that the text does not fix whole and that, by their dash,
   * may be options it does not name (`-"$x"`, `sort -u"$x"`, `--output"$x"`): what each may be,
   * optionGuesses says.
   */
  unnamed: number[];
}

/** 0: a flag; 1: takes a value, attached or the next argument; 2: takes one only attached. */
type Takes = 0 | 1 | 2;

export function shortTakes(syntax: Syntax, letter: string): Takes {
  const short = syntax.short ?? "";
  const at = letter === ":" ? -1 : short.indexOf(letter);
  if (at === -1 || short[at + 1] !== ":") return 0;
  return short[at + 2] === ":" ? 2 : 1;
}

/** The long option a name (or an unambiguous start of one) stands for, or undefined for one not listed. */
function longOption(syntax: Syntax, name: string): { key: string; takes: Takes } | undefined {
  const table = syntax.long ?? {};
  const names = Object.hasOwn(table, name) ? [name] : name === "" || syntax.exact === true ? [] : Object.keys(table).filter((known) => known.startsWith(name));
  const found = new Map<string, Takes>();
  for (const known of names) {
    const spec = table[known] as string;
    if (spec !== "" && spec !== ":" && spec !== "::") found.set(spec, shortTakes(syntax, spec));
    else found.set(known, spec === ":" ? 1 : spec === "::" ? 2 : 0);
  }
  const [only, ...more] = [...found];
  return only === undefined || more.length > 0 ? undefined : { key: only[0], takes: only[1] };
}

/** In a word's text, a part the text does not fix (shell-words.ts: HOLE, and TEMP for temp space). */
const UNFIXED = /[\u0001\u0002]/;

/**
 * A word the text does not fix (its text, with a HOLE for each part it does not fix) that is, by
 * what it fixes, an option given a value it does not (`-o"$x"`, `-uo"$d/x"`, `--output="$x"`,
 * `--out="$x"`): that text, read as the option with its value unknown. Not a word whose unfixed part
 * may be the option itself or the letters before it (`-"$x"`, `-u"$x"`, `--"$name"=x`,
 * `--output"$x"`), nor one without a dash (`"$x"`): those are operands, as a filename far more often is.
 */
function optionWithUnfixedValue(word: string | undefined, syntax: Syntax): string | undefined {
  if (word === undefined || !word.startsWith("-") || word === "-" || word.startsWith("---")) return undefined;
  if (word.startsWith("--")) {
    const equals = word.indexOf("=");
    if (equals === -1 || UNFIXED.test(word.slice(0, equals))) return undefined;
    return (longOption(syntax, word.slice(2, equals))?.takes ?? 0) === 0 ? undefined : word;
  }
  for (let at = 1; at < word.length; at++) {
    const letter = word[at] as string;
    if (UNFIXED.test(letter)) return undefined;
    if (shortTakes(syntax, letter) !== 0) return word;
  }
  return undefined;
}

/**
 * A word read as an operand, by its text (`-"$x"`, `-u"$x"`, `--output"$x"`, `--"$name"=x`), that
 * may be an option whose letters or name the text does not fix: one that starts with a dash, not
 * one that is an option given a value the text does not fix (optionWithUnfixedValue).
 */
function mayBeUnnamedOption(word: string | undefined): boolean {
  if (word === undefined || !/^-[^-]|^--[^-]/.test(word)) return false;
  const hole = word.search(UNFIXED);
  return hole !== -1 && !word.slice(0, hole).includes("=");
}

/** The letters an option may be, besides its syntax's: any letter or digit. */
const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/**
 * What a word whose option letters or name the text does not fix may be (Reading.unnamed), as
 * words: each option of the syntax its fixed start allows, a flag as itself, one that takes a value
 * given one the text does not fix in the same word (`-o` HOLE: any file, where it names one) or the
 * next argument (`sort -"$x" a` may be `sort -o a`). `arg`: the word, where the guess fixes it;
 * `text`: its text. An unlisted long option no rule asks for is none of them.
 */
export function optionGuesses(word: string, syntax: Syntax): Array<{ arg: string | undefined; text: string }> {
  const hole = word.search(UNFIXED);
  const start = word.slice(0, hole);
  const guesses: Array<{ arg: string | undefined; text: string }> = [];
  const guess = (option: string, takes: Takes, glue: string) => {
    guesses.push({ arg: option, text: option });
    if (takes !== 0) guesses.push({ arg: undefined, text: `${option}${glue}\u0001` });
  };
  if (start === "-" || start.startsWith("--")) {
    const name = start.slice(2);
    for (const long of Object.keys(syntax.long ?? {})) if (long.startsWith(name)) guess(`--${long}`, longOption({ ...syntax, exact: true }, long)?.takes ?? 0, "=");
  }
  if (!start.startsWith("--")) for (const letter of new Set([...LETTERS, ...(syntax.short ?? "").replaceAll(":", "")])) guess(`${start}${letter}`, shortTakes(syntax, letter), "");
  return guesses;
}

/**
 * The arguments as they would be were a word that may be an option the text does not name
 * (Reading.unnamed) each option it may be (optionGuesses): the word and its text, for each guess.
 * None for a syntax that declares no option: its rule reads its options itself (git, tsc), and
 * would take a guessed flag for what it is not.
 */
export function guessedArguments(args: Array<string | undefined>, syntax: Syntax, reading: Reading, text: (at: number) => string | undefined): Array<{ args: Array<string | undefined>; text: (at: number) => string | undefined }> {
  if ((syntax.short ?? "") === "" && Object.keys(syntax.long ?? {}).length === 0) return [];
  return reading.unnamed.flatMap((at) =>
    optionGuesses(text(at) as string, syntax).map((guess) => ({ args: args.map((arg, index) => (index === at ? guess.arg : arg)), text: (index: number) => (index === at ? guess.text : text(index)) })),
  );
}

/** An attached value: where the text does not fix it, undefined, with its text. */
function attachedValue(value: string): { value: string | undefined; text?: string } {
  return UNFIXED.test(value) ? { value: undefined, text: value } : { value };
}

/**
 * The one reading of options every rule and wrapper uses. `--` ends the options; a lone `-` is an
 * operand; a word the text does not fix is an operand, or the value of the option before it. By
 * the text of the words the text does not fix (`text`, with a HOLE for each part it does not), one
 * that is an option given a value it does not fix (`sort -o"$x"`, `cp --target-directory="$d"`) is
 * read as that option, its value unknown (optionWithUnfixedValue), and one whose option letters it
 * does not fix is noted (Reading.unnamed). `text` is asked of every caller: read without it, such a
 * word was an operand (`tmux -S"$s" new 'cmd'` ran no cmd). `() => undefined` only where that is
 * exact (words the caller made, each fixed), and the call says why.
 */
export function readOptions(args: Array<string | undefined>, syntax: Syntax, start: number, text: (at: number) => string | undefined): Reading {
  const given: Array<{ key: string; value: string | undefined; at?: number; text?: string }> = [];
  const operands: number[] = [];
  const unnamed: number[] = [];
  let end = args.length;
  let ended = false;
  for (let index = start; index < args.length; index++) {
    const arg = args[index] ?? (ended ? undefined : optionWithUnfixedValue(text(index), syntax));
    const option = !ended && arg !== undefined && arg.length > 1 && (arg.startsWith("-") || (syntax.plus === true && arg.startsWith("+")));
    if (!option || arg === "--") {
      if (!option && !ended && args[index] === undefined && mayBeUnnamedOption(text(index))) unnamed.push(index);
      if (syntax.ordered) {
        end = option ? index + 1 : index;
        for (let rest = end; rest < args.length; rest++) operands.push(rest);
        break;
      }
      if (option) ended = true;
      else operands.push(index);
      continue;
    }
    if (arg.startsWith("--")) {
      const equals = arg.indexOf("=");
      const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
      const attached = equals === -1 ? undefined : arg.slice(equals + 1);
      const known = longOption(syntax, name);
      if (known?.takes === 1 && attached === undefined) given.push({ key: known.key, value: args[++index], at: index });
      else given.push({ key: known?.key ?? `--${name}`, ...(attached === undefined ? { value: undefined } : attachedValue(attached)) }); // one not listed: no rule asks for it
      continue;
    }
    for (let at = 1; at < arg.length; at++) {
      const letter = arg[at] as string;
      const takes = shortTakes(syntax, letter);
      if (takes === 0) {
        given.push({ key: letter, value: undefined });
        continue;
      }
      const rest = arg.slice(at + 1);
      given.push(rest !== "" || takes === 2 ? { key: letter, ...(rest === "" ? { value: undefined } : attachedValue(rest)) } : { key: letter, value: args[++index], at: index });
      if (syntax.last?.includes(letter)) {
        end = index + 1;
        for (let after = end; after < args.length; after++) operands.push(after);
        index = args.length;
      }
      break;
    }
  }
  const occurrences = (key: string) => given.filter((option) => option.key === key).map(({ value, at, text }) => (text === undefined ? { value, at } : { value, at, text }));
  const values = (key: string) => occurrences(key).map((option) => option.value);
  return {
    occurrences,
    operands,
    unnamed,
    end,
    has: (...keys) => given.some((option) => keys.includes(option.key)),
    value: (key) => values(key).pop(),
    values,
  };
}

/** Long options with no letter that take a value, named in one string. */
export function valuedLong(names: string): Record<string, string> {
  return Object.fromEntries(names.trim().split(/\s+/).map((name) => [name, ":"]));
}

/** A table's entry for a command name: its own keys only (`constructor` or `toString` is no command of ours). */
export function ownEntry<Entry>(table: Record<string, Entry>, name: string): Entry | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
