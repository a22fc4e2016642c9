// A hook runs in the agent's environment, not in the shell that installed it: a CLAIMS_DIR (or an
// XDG_STATE_HOME) set here may be missing there, and the hook then claims in another claims
// directory. It meets this user's claims made here, through the pointers their takes leave in the
// user's default directory (docs/PROTOCOL.md 1, 1a), but not other users' (a shared directory), and
// a queue in one directory cannot wait for a claim in the other. Setup and verify say so, with the
// command that pins the directory (--dir in the hook's command line).
import { realOrSelf } from "../os/files.js";
import { shellQuote } from "../os/shell-quote.js";
import { defaultClaimsDir, homeOf, resolveSettings } from "../protocol/settings.js";

type Agent = "claude" | "codex";
type Env = Record<string, string | undefined>;

/** What of the setup options the note needs (src/hooks/install.ts SetupOptions has them). */
interface NoteOptions {
  agent: Agent;
  env?: Env;
  project?: string;
  codex?: string;
}

const AGENT_NAMES: Record<Agent, string> = { claude: "Claude Code", codex: "Codex" };

/**
 * The claims directory this environment names through CLAIMS_DIR or XDG_STATE_HOME, when it is not
 * the one an environment without them uses.
 */
function environmentDirectory(env: Env): { dir: string; variable: "CLAIMS_DIR" | "XDG_STATE_HOME" } | undefined {
  const home = homeOf(env);
  let named: { dir: string; variable: "CLAIMS_DIR" | "XDG_STATE_HOME" };
  if (env.CLAIMS_DIR) {
    try {
      named = { dir: resolveSettings({ env }).dir, variable: "CLAIMS_DIR" };
    } catch {
      return undefined; // a CLAIMS_DIR no verb accepts: every verb that uses it says so
    }
  } else if (env.XDG_STATE_HOME) named = { dir: defaultClaimsDir(env, home), variable: "XDG_STATE_HOME" };
  else return undefined;
  return realOrSelf(named.dir) === realOrSelf(defaultClaimsDir({}, home)) ? undefined : named;
}

/**
 * One note for each hook command that would check another claims directory than this environment
 * names. The hook runs in the agent's environment, which need not have CLAIMS_DIR or XDG_STATE_HOME
 * (an agent started from a desktop launcher or another shell); then it claims in another directory,
 * lets through writes to files other users claim here, and its handovers cannot queue for the claims
 * made here. A .claims file needs no note: the hook finds it from the session's cwd. Only --dir in
 * the command pins the directory.
 */
export function directoryNotes(verb: "install" | "print-config", options: NoteOptions, commands: string[]): string[] {
  const named = environmentDirectory(options.env ?? process.env);
  if (!named) return [];
  const here = named.variable === "CLAIMS_DIR" ? `CLAIMS_DIR is ${named.dir} here` : `XDG_STATE_HOME makes the claims directory ${named.dir} here`;
  const notes = new Set<string>();
  for (const command of commands) {
    const words = shellWords(command);
    const at = words.findIndex((word, index) => word === "hook" && words[index + 1] === options.agent);
    const args = at === -1 ? [] : words.slice(at + 2);
    const flag = args.findIndex((word) => word === "--dir" || word.startsWith("--dir="));
    const dir = flag === -1 ? undefined : args[flag] === "--dir" ? args[flag + 1] : (args[flag] as string).slice("--dir=".length);
    if (dir !== undefined && realOrSelf(dir) === realOrSelf(named.dir)) continue;
    const kept = flag === -1 ? args : args.filter((_, index) => index !== flag && !(args[flag] === "--dir" && index === flag + 1));
    const pin = ["claims", "hook", verb, options.agent, ...kept, "--dir", named.dir, ...(options.project !== undefined ? ["--project"] : []), ...(options.codex !== undefined ? ["--codex", options.codex] : [])]
      .map(shellQuote)
      .join(" ");
    notes.add(
      dir === undefined
        ? `${here}, but the claims hook command has no --dir: it runs in ${AGENT_NAMES[options.agent]}'s environment, and where that has no ${named.variable} it claims in another directory (a .claims "dir" found from the session's cwd, else ~/.local/state/claims), and lets through writes to files other users claim in ${named.dir} (this user's claims there it meets, through the pointers their takes leave), and its handovers cannot queue for any claim there; to pin it, run ${pin}`
        : `the claims hook checks ${dir} (its --dir), but ${here}: it lets through writes to files other users claim in ${named.dir} (this user's claims there it meets, through the pointers their takes leave), and its handovers cannot queue for any claim there; if that is the directory to use, run ${pin}`,
    );
  }
  return [...notes];
}

/** A hook command's words, as shellQuote quotes them. */
export function shellWords(command: string): string[] {
  return [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((match) => (match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : (match[2] as string)));
}
