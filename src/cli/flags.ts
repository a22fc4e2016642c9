// One declaration of each verb: its arguments, its description and its flags. Commander's wiring
// (declareVerb, src/cli/shared.ts), the fast path's parsing (src/cli/fast.ts) and the types of
// the parsed flags (VerbFlags) are all made from it. The hook's flags live in src/hooks/flags.ts,
// which writes them into agents' settings; library errors spell options by commander's rule
// (src/os/option-names.ts).
import { HOOK_FLAGS } from "../hooks/flags.js";

export interface Flag {
  /** Its key in the parsed flags is commander's name for it: `--dry-run` is `dryRun`, `--no-auto-take` is `autoTake`. */
  readonly long: `--${string}`;
  readonly short?: `-${string}`;
  /** The placeholder of a flag that takes a value; a flag without one is a switch. */
  readonly value?: `<${string}>`;
  readonly help: string;
  readonly default?: string;
  /** The fast path reads it, in the verbs it runs (take, beat, release, check, hook claude|codex). */
  readonly fast?: boolean;
  /** Accepted but left out of --help: a flag that does nothing any more, kept for command lines older releases wrote. */
  readonly hidden?: boolean;
  /** Given twice with two values is bad input (the same value twice is accepted): which was meant cannot be known, where commander would keep the last. */
  readonly once?: boolean;
}

export interface Verb {
  /** Commander's argument syntax: `<targets...>` is required, `[targets...]` optional. */
  readonly args: string;
  readonly description: string;
  /** In the order --help lists them. */
  readonly flags: Readonly<Record<string, Flag>>;
}

/**
 * Whether a valued flag's value is a flag (`--holder --json`): one of the verb's (or help), or, for
 * a holder, directory or receiver, any word spelled as a flag (`--holder --dry-run`). A slip both
 * parsers refuse: the claim would be held by "--json", or made in ./--json.
 */
export function flagAsValue(flags: Verb["flags"], flag: Flag, word: string): boolean {
  if (word === "-h" || word === "--help" || (Object.values(flags) as Flag[]).some((each) => each.long === word || each.short === word)) return true;
  return ["--holder", "--dir", "--to"].includes(flag.long) && /^--?[A-Za-z][\w-]*$/.test(word);
}

/** Parsed flags as both parsers hand them over: a string for a flag with a value, else a boolean. */
export type FlagValues<Flags extends Verb["flags"]> = { [Key in keyof Flags]?: Flags[Key] extends { value: string } ? string : boolean };

const DIR = {
  long: "--dir",
  value: "<path>",
  help: "claims directory (CLAIMS_DIR, .claims \"dir\", default $XDG_STATE_HOME/claims or ~/.local/state/claims)",
  fast: true,
  // Once: `--dir a ... --dir b` would take in b alone, where the sessions claiming in a never look,
  // so both could hold the target; or release, beat and report on claims nobody meant.
  once: true,
} as const;
// Once: `--holder a ... --holder b` (a wrapper adding one, a command pasted twice) would act for
// b alone, taking, releasing or reporting lost another session's claims without a word.
const HOLDER = { long: "--holder", value: "<id>", help: "who is holding (CLAIMS_HOLDER, default: the agent's session id or this terminal)", fast: true, once: true } as const;
// Once: a lease shorter than the one meant may be taken over while its holder still works.
// A reader's TTL judges another holder's claim only where it is longer than that claim's own: a
// short one never makes everybody else's claims stale (docs/PROTOCOL.md 5), so `sweep --ttl 60`
// sweeps nothing fresher than the claims' own TTLs.
const TTL = { long: "--ttl", value: "<seconds>", help: "the TTL other holders' claims are judged by where it is longer than their own (a shorter one never makes a claim stale sooner; CLAIMS_TTL, .claims \"ttl\", default 1800)", fast: true, once: true } as const;
const JSON_OUTPUT = { long: "--json", help: "print one JSON document on stdout", fast: true } as const;

/** The settings and output flags of the verbs that work on claims. */
const COMMON = { dir: DIR, holder: HOLDER, ttl: TTL, json: JSON_OUTPUT } as const;

export type CommonFlags = FlagValues<typeof COMMON>;

export const VERBS = {
  take: {
    args: "<targets...>",
    description: "take every target, or none; re-taking your own claim renews it",
    flags: {
      ...COMMON,
      ttl: { ...TTL, help: "seconds without a heartbeat before the claims this take makes are stale; others' claims are judged by it where it is longer than their own (CLAIMS_TTL, .claims \"ttl\", default 1800)" },
      purpose: { short: "-p", long: "--purpose", value: "<text>", help: "why you are taking it: shown to every session this refuses", fast: true },
      shared: { long: "--shared", help: "a shared claim: coexists with other shared claims, conflicts with exclusive ones" },
      partial: { long: "--partial", help: "take what is free and report the rest (exit 3 if anything was refused)" },
      creating: { long: "--creating", help: "allow file#symbol for a symbol you are about to add" },
      force: { long: "--force", help: "take a target that covers /, a home directory or a whole repository" },
      // Once: a retry under the other key would take afresh, or replay another call's answer.
      idempotencyKey: { long: "--idempotency-key", value: "<key>", help: "a retry with the same key and arguments returns the first result (kept 7 days)", once: true },
      wait: { long: "--wait", value: "<seconds>", help: "when refused, queue and wait up to this long for every target (exit 5 on timeout)", once: true },
      queue: { long: "--queue", help: "when refused, take nothing, queue for what is refused and return at once (exit 6); granted in order as it frees" },
    },
  },
  handover: {
    args: "<target>",
    description: "queue a handover note for a target someone holds (exit 6), or hand your own claim --to another holder",
    flags: {
      ...COMMON,
      purpose: { short: "-p", long: "--purpose", value: "<text>", help: "what you will do with it: the note the holder and the next holders see" },
      creating: { long: "--creating", help: "allow file#symbol for a symbol not in its file yet (one its holder is adding)" },
      // Once: a claim handed to the wrong holder is not undone.
      to: { long: "--to", value: "<holder>", help: "hand your claim directly to this holder (exit 4 if you do not hold it)", once: true },
      token: { long: "--token", value: "<n>", help: "with --to: the fencing token of your holding (exit 4 if the claim carries a newer one, or another holder took anything it covered since)", once: true },
    },
  },
  beat: {
    args: "[targets...]",
    description: "renew the heartbeat of the named claims, or of all yours",
    flags: {
      ...COMMON,
      ttl: { ...TTL, help: "the TTL this beat judges others' claims by (CLAIMS_TTL, default 1800); a claim keeps the TTL it was taken with: take it again with --ttl to change that" },
      token: { long: "--token", value: "<n>", help: "the fencing token of your holding: LOST if the claim carries a newer one, or another holder took anything it covered since", fast: true, once: true },
    },
  },
  release: {
    args: "[targets...]",
    description: "release the named claims, or all yours; another holder's claim is left untouched",
    flags: {
      ...COMMON,
      token: { long: "--token", value: "<n>", help: "the fencing token of your holding: a claim carrying a newer one, or whose region another holder took since, is left alone (LOST)", fast: true, once: true },
    },
  },
  status: {
    args: "[targets...]",
    description:
      "list claims: target, holder, purpose, heartbeat age, fresh or stale, who is queued behind each; for named targets, the claims covering them and only those queued for something of theirs",
    flags: { ...COMMON, mine: { long: "--mine", help: "only your own claims" } },
  },
  check: {
    args: "<targets...>",
    description: "exit 0 when you may write every target (free or yours), 3 when another holder's fresh claim covers one or another holder is queued for it ahead of you",
    flags: { ...COMMON, token: { long: "--token", value: "<n>", help: "also exit 4 unless the claim on each target still carries this fencing token", fast: true, once: true } },
  },
  sweep: {
    args: "",
    description: "remove stale claims, debris of crashed writers, and agent hooks' files a day old (of clients that died mid-turn); safe beside live sessions",
    flags: {
      ...COMMON,
      holder: { ...HOLDER, help: "accepted as by every claim verb, and ignored: sweep acts for nobody, and removes only stale claims, yours too" },
      dryRun: { long: "--dry-run", help: "show what would be removed and granted to the queue; change nothing" },
    },
  },
  doctor: {
    args: "",
    description:
      "verify the guard on this claims directory: exclusive create, one winner per race, read-back, clock, permissions, debris; on a network filesystem its caches and locks across machines",
    flags: {
      ...COMMON,
      holder: { ...HOLDER, help: "accepted as by every claim verb, and ignored: doctor's test claims have holders of their own" },
      via: { long: "--via", value: "<dir>", help: "the same claims directory through another mount: check that each sees the other's claims and locks at once", once: true },
    },
  },
  hook: {
    args: "<agent|install|verify|uninstall|print-config> [agent]",
    description: "run as an agent's hook (claude, codex): the event JSON on stdin; or install | verify | uninstall | print-config <agent>",
    flags: HOOK_FLAGS,
  },
  guard: {
    args: "<action>",
    description: "git guard: install | uninstall the prepare-commit-msg and pre-applypatch (and --pre-push) hooks; check is what the hooks run",
    flags: {
      prePush: { long: "--pre-push", help: "install: also a pre-push hook, checking the commits no remote has yet" },
      force: { long: "--force", help: "install: even into a hooks folder inside the repository (core.hooksPath at .githooks, husky)" },
      hook: { long: "--hook", value: "<name>", help: "check: prepare-commit-msg, pre-applypatch, pre-commit or pre-merge-commit (the staged paths), or pre-push (refs on stdin)", default: "pre-commit" },
      dir: DIR,
      holder: { ...HOLDER, help: "who is committing (CLAIMS_HOLDER, default: the agent's session id or this terminal)" },
      json: JSON_OUTPUT,
    },
  },
  log: {
    args: "[target]",
    description: "show the record of every state change (take, refusal, release, grant, sweep, ...), oldest first",
    flags: {
      holder: { ...HOLDER, help: "only entries by or about this holder" },
      since: { long: "--since", value: "<time>", help: "only entries since a UTC time (2026-08-14T21:02:11Z, or a date: 2026-08-14) or an age (30s, 10m, 2h, 7d)" },
      follow: {
        long: "--follow",
        help: "print the entries so far, then new ones as they come, until interrupted or until the reader has gone (noticed at the next entry, as tail -f does)",
      },
      dir: DIR,
      json: { ...JSON_OUTPUT, help: "print one JSON document on stdout (with --follow: one JSON line per entry)" },
    },
  },
  mcp: {
    args: "",
    description:
      "run an MCP server over stdio for an agent's client: claim, release, get_status, check, handover and the file_reservation_* tools, on the same claims directory",
    flags: {
      dir: DIR,
      holder: { ...HOLDER, help: "the holder of calls that name no actor (CLAIMS_HOLDER, else the agent session's id, else one per connection)" },
      ttl: { ...TTL, help: "TTL of claims taken (CLAIMS_TTL, .claims \"ttl\", default 1800)" },
    },
  },
} as const satisfies Record<string, Verb>;

export type VerbName = keyof typeof VERBS;

/** A verb's parsed flags: `VerbFlags<"take">["idempotencyKey"]` is a string; a key no flag has is a compile error. */
export type VerbFlags<Name extends VerbName> = FlagValues<(typeof VERBS)[Name]["flags"]>;
