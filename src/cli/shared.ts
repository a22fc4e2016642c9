// What every verb's wiring shares: its declaration to commander, JSON-or-human output, colour, examples.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { flagAsValue, VERBS, type CommonFlags, type Flag, type VerbName } from "./flags.js";
import { plain, type Style } from "./render.js";
import { isTerminal, writeOut } from "../os/stdio.js";
import { BadInputError } from "../os/errors.js";
import { homeOf, mistypedDir } from "../protocol/settings.js";

export const EXAMPLES: Record<VerbName, string> = {
  take: `
Examples:
  $ claims take shared-config --purpose "align the lint rule with the new preset"
  $ claims take ../sibling/package.json ~/notes/memory.md --purpose "bump the shared dependency"
  $ claims take src/ --purpose "regenerate the API client"          # a directory and all below it
  $ claims take 'src/**/*.test.ts' --shared                         # a glob, shared with other sharers
  $ claims take utils.js#formatPrice --purpose "fix rounding"       # one top-level symbol
  $ claims take a.ts b.ts c.ts --partial                            # what is free; the rest is reported
  $ claims take shared-config --wait 120                            # block until free (exit 5 on timeout)
  $ claims take shared-config --queue -p "bump the preset"          # get in line, keep working (exit 6)
  $ claims take shared-config --json || echo "refused (exit 3): see who holds it"`,
  handover: `
Examples:
  $ claims handover shared-config --purpose "bump the preset after the lint fix"   # exit 6: queued
  $ claims status --mine                      # later: shows "granted while you waited"
  $ claims handover shared-config --to session-b7                                  # give your claim away`,
  beat: `
Examples:
  $ claims beat                  # renew every claim you hold
  $ claims beat shared-config`,
  release: `
Examples:
  $ claims release               # release every claim you hold
  $ claims release shared-config`,
  status: `
Examples:
  $ claims status
  $ claims status --mine --json
  $ claims status shared-config ./src/config.ts`,
  check: `
Examples:
  $ claims check src/config.ts || exit $?   # 3: refused, 2: bad input
  $ git diff --name-only -z | xargs -0 -r claims check   # from the repository root; xargs exits 123 if refused`,
  hook: `
Examples:
  $ claims hook install claude                         # merge into ~/.claude/settings.json
  $ claims hook install codex                          # merge into ~/.codex/hooks.json and trust it
  $ claims hook verify codex                           # missing, untrusted, or a binary that is gone?
  $ claims hook uninstall claude                       # take the claims hook out again, other hooks kept
  $ claims hook print-config claude                    # the settings snippet (JSON) to merge
  $ claims hook print-config codex --fail-closed > hooks.json
  # what the hook answers for an edit of /p/a.ts; --no-auto-take: it only checks, and leaves no claim behind
  $ echo '{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/p","tool_name":"Edit","tool_input":{"file_path":"/p/a.ts","old_string":"x","new_string":"y"}}' | claims hook claude --no-auto-take
See docs/HOOKS.md.`,
  guard: `
Examples:
  $ claims guard install --pre-push      # in the repository (or worktree) to guard
  $ git commit                           # refused while another session holds a staged path
  $ git cherry-pick 1a2b3c4              # so is a merge, revert, rebase or am (and --no-verify)
  $ CLAIMS_GUARD=warn git commit         # print, but allow; CLAIMS_GUARD=off skips the check
  $ claims guard uninstall               # puts back the hooks that were there`,
  log: `
Examples:
  $ claims log                                   # everything, oldest first
  $ claims log shared-config --since 2h
  $ claims log --holder session-b7 --json
  $ claims log --follow                          # watch live; Ctrl-C to stop
  $ claims log --follow --since 1m --json | jq -c 'select(.event == "grant")'
Times are when each change happened, rounded down to the second. A claim's taken_at and heartbeat_at
(and a grant's time in status) are rounded up, so that a lease lasts its whole TTL: they may read one
second later than the log line of the same take. See docs/PROTOCOL.md, section 8b.`,
  doctor: `
Examples:
  $ claims doctor                                # the directory every session uses here
  $ claims doctor --dir /mnt/shared/claims --json  # before trusting another file system`,
  sweep: `
Examples:
  $ claims sweep --dry-run
  # from cron, beside live sessions; cron's PATH is /usr/bin:/bin, so give node and claims in full:
  */10 * * * * /usr/local/bin/node /usr/local/lib/node_modules/claims/bin/claims.js sweep --json >/dev/null`,
  mcp: `
Examples:
  $ claude mcp add --scope user claims -- claims mcp          # Claude Code, every project
  $ claims mcp --dir /mnt/shared/claims                       # as the client's config starts it
See docs/MCP.md for Codex and Cursor, the tools and the identity rule.`,
};

/** Declares a verb to commander from its declaration in src/cli/flags.ts; the caller adds the action. */
export function declareVerb(program: Command, name: VerbName): Command {
  const { args, description, flags } = VERBS[name];
  const command = program.command(args ? `${name} ${args}` : name).description(description);
  for (const flag of Object.values(flags) as Flag[]) {
    const option = command.createOption(`${flag.short ? `${flag.short}, ` : ""}${flag.long}${flag.value ? ` ${flag.value}` : ""}`, flag.help);
    if (flag.default !== undefined) option.default(flag.default);
    if (flag.value !== undefined) {
      option.argParser((value: string, previous: unknown) => {
        // `--holder --json`: commander takes the next word whatever it is, and the claim would be held by "--json".
        if (flagAsValue(flags, flag, value)) throw new BadInputError(`${flag.long} needs a value, not the flag ${value}; give it one (${flag.long} ${flag.value?.slice(1, -1) ?? "value"}).`);
        if (flag.once && previous !== undefined && previous !== value) {
          throw new BadInputError(`${flag.long} was given twice, as ${JSON.stringify(previous)} and ${JSON.stringify(value)}; give it once, with the one meant.`);
        }
        return value;
      });
    }
    // createOption, not commander's Option: this file is loaded by the fast path, which must not load commander.
    command.addOption(flag.hidden ? option.hideHelp() : option);
  }
  return command.addHelpText("after", EXAMPLES[name]);
}

export function common(flags: Omit<CommonFlags, "json">): { dir?: string; holder?: string; ttl?: string } {
  if (flags.dir !== undefined) refuseMistypedDir(flags.dir);
  return {
    ...(flags.dir !== undefined && { dir: flags.dir }),
    ...(flags.holder !== undefined && { holder: flags.holder }),
    ...(flags.ttl !== undefined && { ttl: flags.ttl }),
  };
}

export async function output(flags: { json?: boolean }, result: object, exitCode: number, human: (style: Style) => Promise<string[]>): Promise<void> {
  if (flags.json) {
    writeOut(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    const lines = await human(await styleFor(1));
    writeOut(`${lines.join("\n")}\n`);
  }
  process.exitCode = exitCode;
}

export async function styleFor(fd: 1 | 2): Promise<Style> {
  if (process.env.NO_COLOR || !isTerminal(fd)) return plain;
  const { default: chalk } = await import("chalk");
  return chalk;
}

/**
 * The package version, from this package's package.json beside dist/: one level up from the bundle
 * (dist/cli.cjs), two from the compiled dist/cli/shared.js or the source. Only one named claims
 * counts, so a bundle copied elsewhere never reports another package's version.
 */
export function readVersion(): string {
  for (const relative of ["../package.json", "../../package.json"]) {
    const file = new URL(relative, import.meta.url);
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version: string };
    if (manifest.name === "claims") return manifest.version;
  }
  throw new Error(`no package.json of claims found beside ${import.meta.url}`);
}

/**
 * This binary's path as Node ran it: `node bin/claims` runs bin/claims.js, but argv keeps the name
 * as typed, and the hooks and the guard this path goes into must name the file.
 */
export function ownBinary(): string {
  const given = process.argv[1] as string;
  return existsSync(given) || !existsSync(`${given}.js`) ? given : `${given}.js`;
}

/** ownBinary with its symlinks resolved (npx's node_modules/.bin/claims is the package's bin/claims.js). */
export function ownRealBinary(): string {
  return realpathSync(ownBinary());
}

/** The verbs' --dir, held to what src/protocol/settings.ts (mistypedDir) says of a typo. */
function refuseMistypedDir(value: string): void {
  const home = homeOf(process.env);
  const dir = value === "~" || value.startsWith("~/") ? join(home, value.slice(1)) : resolve(value);
  if (value.trim() === "" || value.includes("\0")) return; // (settings say what is wrong with these)
  const typo = mistypedDir(dir);
  if (typo !== undefined) throw new BadInputError(`--dir ${dir} ${typo}`);
}
