// The flags of `claims hook`, declared here and not with the other verbs' (src/cli/flags.ts, which
// wires them from this) because hookCommand writes some of them into the agents' settings, and
// hooks/ may not import cli/. `fast`: the CLI's fast path reads it, so a hook the agent runs with
// it skips commander; that is every flag hookCommand writes, and --merge-subagents from older settings.
// `hidden`: accepted, but --help does not list it (--merge-subagents does nothing: it is the default).
export const HOOK_FLAGS = {
  autoTake: { long: "--no-auto-take", help: "do not claim a free file for the session before it writes", fast: true },
  failClosed: { long: "--fail-closed", help: "deny writes when the claims directory cannot be used (default: allow, with a note)", fast: true },
  subagentHolders: { long: "--subagent-holders", help: "make each subagent a holder of its own (its shell then needs --holder, as refusals show)", fast: true },
  mergeSubagents: { long: "--merge-subagents", help: "(the default now: a subagent counts as its session)", fast: true, hidden: true },
  claimTtl: { long: "--claim-ttl", value: "<seconds>", help: "TTL of the claims the hook takes: one the session stops writing through lapses after it", fast: true },
  dir: {
    long: "--dir",
    value: "<path>",
    help: "claims directory (CLAIMS_DIR, .claims \"dir\" found from the payload's cwd, default $XDG_STATE_HOME/claims or ~/.local/state/claims)",
    fast: true,
  },
  project: { long: "--project", help: "install/verify/uninstall claude: the project's .claude/settings.json here, not ~/.claude/settings.json" },
  codex: { long: "--codex", value: "<path>", help: "install/verify codex: the codex binary that trusts and lists hooks (default: codex on PATH)" },
  json: { long: "--json", help: "install/verify/uninstall: the report as JSON" },
} as const;
