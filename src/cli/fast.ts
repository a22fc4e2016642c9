// The hot calls without commander: `hook claude|codex`, and plain `take`, `beat`, `release` and
// `check` with only the common flags. Every agent hook runs one of these per write, and loading
// commander is a measurable share of their start-up (docs/BENCHMARKS.md). Anything else (help,
// another flag, `--x=y`, a typo) falls through to the full CLI, which parses and reports it.
import { runBeat, runCheck, runHook, runRelease, runTake, type HookFlags } from "./actions.js";

const VALUED: Record<string, string> = { "--dir": "dir", "--holder": "holder", "--ttl": "ttl", "--purpose": "purpose", "-p": "purpose", "--token": "token" };
const OWN: Record<string, string[]> = { take: ["purpose"], beat: ["token"], release: ["token"], check: ["token"] };
const COMMON = ["dir", "holder", "ttl"];

/** Runs the call and returns true, or returns false without doing anything. */
export async function runFast(argv: string[]): Promise<boolean> {
  const [verb, ...rest] = argv;
  if (verb === "hook") return runFastHook(rest);
  const own = verb === undefined ? undefined : OWN[verb];
  if (!own) return false;
  const targets: string[] = [];
  const flags: Record<string, string | boolean> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (!arg.startsWith("-")) {
      targets.push(arg);
      continue;
    }
    if (arg === "--json") {
      flags.json = true;
      continue;
    }
    const name = VALUED[arg];
    if (!name || !(COMMON.includes(name) || own.includes(name)) || i + 1 >= rest.length || name in flags) return false;
    flags[name] = rest[++i] as string;
  }
  if ((verb === "take" || verb === "check") && targets.length === 0) return false; // let commander say what is missing
  const run = { take: runTake, beat: runBeat, release: runRelease, check: runCheck }[verb as "take" | "beat" | "release" | "check"];
  await run(targets, flags);
  return true;
}

async function runFastHook(rest: string[]): Promise<boolean> {
  const [agent, ...args] = rest;
  if (agent !== "claude" && agent !== "codex") return false;
  const flags: HookFlags = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--no-auto-take") flags.autoTake = false;
    else if (arg === "--fail-closed") flags.failClosed = true;
    else if (arg === "--merge-subagents") continue; // accepted from older settings: it is the default now
    else if (arg === "--subagent-holders") flags.subagentHolders = true;
    else if (arg === "--claim-ttl" && i + 1 < args.length) flags.claimTtl = args[++i] as string;
    else if (arg === "--dir" && i + 1 < args.length) flags.dir = args[++i] as string;
    else return false;
  }
  await runHook(agent, undefined, flags);
  return true;
}
