// The hot calls without commander: `hook claude|codex`, and plain `take`, `beat`, `release` and
// `check` with only the flags marked `fast` in their declaration (src/cli/flags.ts). Every agent
// hook runs one of these per write, and loading commander is a measurable share of their start-up
// (docs/BENCHMARKS.md). Anything else (help, another flag, `--x=y`, `--`, a typo) falls through to
// the full CLI, which parses and reports it.
//
// A loop and not node:util's parseArgs: parseArgs also takes `--dir=x`, `-pfoo` and `--`, and
// refuses a value that starts with a dash, where commander takes it; keeping exactly the shapes
// this path has always taken would mean filtering its tokens afterwards, more code than the loop.
import { runAgentHook, runBeat, runCheck, runRelease, runTake } from "./actions.js";
import { flagAsValue, VERBS, type Flag, type FlagValues, type Verb } from "./flags.js";

/** Runs the call and returns true, or returns false without doing anything. */
export async function runFast(argv: string[]): Promise<boolean> {
  const [verb, ...args] = argv;
  if (verb === "take") return fastTake(args);
  if (verb === "beat") return fastBeat(args);
  if (verb === "release") return fastRelease(args);
  if (verb === "check") return fastCheck(args);
  if (verb === "hook") return runFastHook(args);
  return false;
}

// Each verb's fast path alone, given the arguments after the verb: the entry of that verb's own
// bundle (src/cli/hot.ts) names one, and the bundle holds its code and no other verb's.
export const fastTake = (args: string[]): Promise<boolean> => runTargets(VERBS.take, args, runTake);
export const fastBeat = (args: string[]): Promise<boolean> => runTargets(VERBS.beat, args, runBeat);
export const fastRelease = (args: string[]): Promise<boolean> => runTargets(VERBS.release, args, runRelease);
export const fastCheck = (args: string[]): Promise<boolean> => runTargets(VERBS.check, args, runCheck);
export const fastHook = (args: string[]): Promise<boolean> => runFastHook(args);

async function runTargets<Flags extends Verb["flags"]>(
  verb: { args: string; flags: Flags },
  args: string[],
  run: (targets: string[], flags: FlagValues<Flags>) => Promise<void>,
): Promise<boolean> {
  const read = readFast(verb.flags, args, false);
  if (!read) return false;
  if (verb.args.startsWith("<") && read.positionals.length === 0) return false; // let commander say what is missing
  await run(read.positionals, read.values);
  return true;
}

async function runFastHook(args: string[]): Promise<boolean> {
  const [agent, ...rest] = args;
  if (agent !== "claude" && agent !== "codex") return false;
  // A hook's settings may repeat a valued flag (last wins, as in commander); it names no other argument.
  const read = readFast(VERBS.hook.flags, rest, true);
  if (!read || read.positionals.length > 0) return false;
  await runAgentHook(agent, read.values);
  return true;
}

/**
 * The arguments read with the verb's fast flags only, or undefined for anything else: another
 * flag, a flag without its value, and (unless lastWins) a valued flag given twice.
 */
export function readFast<Flags extends Verb["flags"]>(flags: Flags, args: string[], lastWins: boolean): { positionals: string[]; values: FlagValues<Flags> } | undefined {
  const positionals: string[] = [];
  const values: Record<string, string | boolean> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    const found = Object.entries(flags).find(([, flag]: [string, Flag]) => flag.fast === true && (flag.long === arg || flag.short === arg));
    if (!found) return undefined;
    const [key, flag] = found;
    if (flag.value === undefined) {
      values[key] = !flag.long.startsWith("--no-"); // as commander: --no-auto-take sets autoTake to false
      continue;
    }
    // (A value that is one of the flags, `--holder --json`: commander's path says what is wrong.)
    if (i + 1 >= args.length || (!lastWins && key in values) || flagAsValue(flags, flag, args[i + 1] as string)) return undefined;
    values[key] = args[++i] as string;
  }
  return { positionals, values: values as FlagValues<Flags> };
}
