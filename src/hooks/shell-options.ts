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
  /** Each occurrence's value and, when it is an argument of its own, that argument's index. */
  occurrences: (key: string) => Array<{ value: string | undefined; at: number | undefined }>;
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

/**
 * The one reading of options every rule and wrapper uses. `--` ends the options; a lone `-` is an
 * operand; a word the text does not fix is an operand, or the value of the option before it.
 */
export function readOptions(args: Array<string | undefined>, syntax: Syntax, start = 0): Reading {
  const given: Array<{ key: string; value: string | undefined; at?: number }> = [];
  const operands: number[] = [];
  let end = args.length;
  let ended = false;
  for (let index = start; index < args.length; index++) {
    const arg = args[index];
    const option = !ended && arg !== undefined && arg.length > 1 && (arg.startsWith("-") || (syntax.plus === true && arg.startsWith("+")));
    if (!option || arg === "--") {
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
      else given.push({ key: known?.key ?? `--${name}`, value: attached }); // one not listed: no rule asks for it
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
      given.push(rest !== "" || takes === 2 ? { key: letter, value: rest === "" ? undefined : rest } : { key: letter, value: args[++index], at: index });
      if (syntax.last?.includes(letter)) {
        end = index + 1;
        for (let after = end; after < args.length; after++) operands.push(after);
        index = args.length;
      }
      break;
    }
  }
  const occurrences = (key: string) => given.filter((option) => option.key === key).map(({ value, at }) => ({ value, at }));
  const values = (key: string) => occurrences(key).map((option) => option.value);
  return {
    occurrences,
    operands,
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
