// What the verbs most often called do once their arguments are known: shared by the commander
// wiring (src/cli/main.ts) and the fast path that skips commander for hot calls (src/cli/fast.ts).
import { existsSync, readFileSync } from "node:fs";
import { BadInputError, EXIT_CODES } from "../os/errors.js";
import { common, output, ownBinary, ownRealBinary } from "./shared.js";
import type { VerbFlags } from "./flags.js";
import { HOOK_FLAGS } from "../hooks/flags.js";
import { isTerminal, writeErr, writeOut } from "../os/stdio.js";
import { shellQuoteShown } from "../os/shell-quote.js";
import { MAX_WAIT_SECONDS } from "../commands/take-types.js";
import { refusePaddedDigits } from "../protocol/settings.js";
// The renderers by name, not import("./render.js"): each hot verb's bundle (src/cli/hot.ts) then
// holds its own renderer alone, not every verb's (a check's bundle is 12 KB smaller).
import { renderBeat, renderCheck, renderRelease, renderTake, renderWaiting, renderWaitingChange, sameSession } from "./render.js";

/** `--wait <seconds>`: whole seconds as typed; take() itself checks the range, so a library caller gets the same answer. */
function parseWait(text: string): number {
  refusePaddedDigits(text, "--wait"); // plain digits, as --ttl
  if (!/^\d+$/.test(text)) throw new BadInputError(`--wait must be whole seconds from 0 to ${MAX_WAIT_SECONDS}, e.g. --wait 120; got ${JSON.stringify(text)}.`);
  return Number(text);
}

/**
 * `--token <n>`: a positive whole number, or bad input. A token is one holding's, so `targets`
 * (of a verb that may go without) must name it: beat or release of everything with one token would
 * answer every other holding LOST or NOT YOURS.
 */
export function tokenOf(flags: { token?: string }, named?: { verb: string; targets: string[] }): { token?: number } {
  if (flags.token === undefined) return {};
  if (!/^\d+$/.test(flags.token) || Number(flags.token) < 1) {
    throw new BadInputError(`--token must be a fencing token: a positive whole number, as take printed; got ${JSON.stringify(flags.token)}.`);
  }
  if (!Number.isSafeInteger(Number(flags.token))) {
    throw new BadInputError(`--token ${flags.token} is larger than any fencing token can be (at most ${Number.MAX_SAFE_INTEGER}); pass the token take printed.`);
  }
  if (named !== undefined && named.targets.length === 0) {
    throw new BadInputError(`--token is the fencing token of one holding, and ${named.verb} without targets acts on all of yours: name its target (claims ${named.verb} TARGET --token ${flags.token}).`);
  }
  return { token: Number(flags.token) };
}

/**
 * `claims take shared-config "align the lint rule"`: the purpose given without --purpose would be
 * claimed as a second target, a name with spaces that protects nothing, and the target meant would
 * carry no purpose. Among several targets, with no --purpose, a bare word with a space that names no
 * file here is refused, saying both spellings (`name:` claims it as a name all the same).
 */
function refusePurposeAsTarget(targets: string[], flags: VerbFlags<"take">): void {
  if (targets.length < 2 || flags.purpose !== undefined) return;
  const word = targets.find((target) => /[ \t]/.test(target) && !/[/#*?[\]{}]|^(?:name|glob):|^[.~]/.test(target) && !existsSync(target));
  if (word === undefined) return;
  const rest = targets.filter((target) => target !== word).map(shellQuoteShown);
  throw new BadInputError(
    `The target ${shellQuoteShown(word)} has spaces and names no file here, so it reads like a purpose: give it with --purpose (claims take ${rest.join(" ")} --purpose ${shellQuoteShown(word)}), or write ${shellQuoteShown(`name:${word}`)} to claim a name with spaces.`,
  );
}

export async function runTake(targets: string[], flags: VerbFlags<"take">): Promise<void> {
  refusePurposeAsTarget(targets, flags);
  const { take } = await import("../commands/take.js");
  // A waiting take is interrupted through this signal (it leaves nothing behind, src/commands/take-wait.ts);
  // any other take notes a signal itself, and gives back what it wrote before the signal ends it
  // (src/commands/take.ts). Interrupted, it exits as a shell reports a process killed by that
  // signal: 128 + its number.
  let signal: AbortSignal | undefined;
  let interruptedCode = 130;
  if (flags.wait !== undefined) {
    const stop = new AbortController();
    for (const [name, code] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]] as const) {
      process.once(name, () => {
        interruptedCode = code;
        stop.abort();
      });
    }
    signal = stop.signal;
  }
  const tty = !flags.json && isTerminal(2);
  const result = await take({
    ...common(flags),
    startedAt: Date.now() - process.uptime() * 1000, // the call began when this process did
    targets,
    shared: flags.shared === true,
    partial: flags.partial === true,
    creating: flags.creating === true,
    force: flags.force === true,
    queue: flags.queue === true,
    ...(signal && { signal }),
    ...(flags.wait !== undefined && { wait: parseWait(flags.wait) }),
    // --wait: on a terminal, one progress line rewritten in place; elsewhere (an agent, a log) the
    // WAITING lines --queue prints, on stderr, at the start and whenever who is in the way changes.
    ...(flags.wait !== undefined && {
      onWaiting: tty ? (refused, waitedMs) => writeErr(`\r\x1b[K${renderWaiting(refused, waitedMs)}`) : renderWaitingChange((lines) => writeErr(lines)),
    }),
    ...(flags.idempotencyKey !== undefined && { idempotencyKey: flags.idempotencyKey }),
    ...(flags.purpose !== undefined && { purpose: flags.purpose }),
  });
  if (tty && flags.wait !== undefined) writeErr("\r\x1b[K");
  for (const warning of result.warnings ?? []) writeErr(`claims: note: ${warning}\n`);
  if (!flags.json) {
    for (const glob of result.unmatched_globs ?? []) {
      writeErr(`claims: note: ${glob} matches no file yet; the claim covers matching files once they are created (check the pattern if you meant existing ones)\n`);
    }
  }
  const code = result.no_longer_held
    ? EXIT_CODES.LOST
    : result.timed_out
      ? EXIT_CODES.TIMEOUT
      : (result.queued ?? []).length > 0
        ? EXIT_CODES.QUEUED
        : result.refused.length > 0
          ? EXIT_CODES.REFUSED
          : 0;
  await output(flags, result, result.interrupted ? interruptedCode : code, async (style) => renderTake(result, style, targets, sameSession(flags)));
}

/** beat or release in a claims directory named but not there: most likely a mistyped path. */
function missingDirectoryNote(dir: string | undefined): string {
  return `claims: note: the claims directory ${dir} does not exist, so nothing is held there; check the path given by --dir, CLAIMS_DIR or .claims\n`;
}

export async function runBeat(targets: string[], flags: VerbFlags<"beat">): Promise<void> {
  const { beat } = await import("../commands/beat.js");
  const result = beat({ ...common(flags), targets, ...tokenOf(flags, { verb: "beat", targets }) });
  if (result.directory_missing) writeErr(missingDirectoryNote(result.dir));
  for (const warning of result.warnings ?? []) writeErr(`claims: note: ${warning}\n`);
  await output(flags, result, result.lost.length > 0 ? EXIT_CODES.LOST : 0, async (style) => {
    return renderBeat(result, style, sameSession(flags));
  });
}

export async function runRelease(targets: string[], flags: VerbFlags<"release">): Promise<void> {
  const { release } = await import("../commands/release.js");
  const result = release({ ...common(flags), targets, ...tokenOf(flags, { verb: "release", targets }) });
  if (result.directory_missing) writeErr(missingDirectoryNote(result.dir));
  for (const warning of result.warnings ?? []) writeErr(`claims: note: ${warning}\n`);
  await output(flags, result, result.lost.length > 0 ? EXIT_CODES.LOST : 0, async (style) => {
    return renderRelease(result, style, sameSession(flags));
  });
}

export async function runCheck(targets: string[], flags: VerbFlags<"check">): Promise<void> {
  const { check } = await import("../commands/check.js");
  const result = check({ ...common(flags), targets, ...tokenOf(flags) });
  if (result.holder === undefined && !flags.json) {
    writeErr("claims: note: no holder set (--holder or CLAIMS_HOLDER), so every fresh claim counts as another's\n");
  }
  if (result.directory_missing) writeErr(`claims: note: the claims directory ${result.dir} does not exist yet; nothing is claimed there\n`);
  for (const warning of result.warnings ?? []) writeErr(`claims: note: ${warning}\n`);
  const code = result.fenced.length > 0 ? EXIT_CODES.LOST : result.refused.length > 0 ? EXIT_CODES.REFUSED : 0;
  await output(flags, result, code, async (style) => renderCheck(result, style));
}

export async function runHook(agent: string, which: string | undefined, flags: VerbFlags<"hook">): Promise<void> {
  const agents = ["claude", "codex"] as const;
  const actions = ["print-config", "install", "verify", "uninstall"];
  const setup = actions.includes(agent);
  const name = setup ? which : agent;
  if (!setup && agents.includes(which as (typeof agents)[number])) {
    // `claims hook instal claude`: the agent is right, the action before it is not one.
    throw new BadInputError(`Unknown hook action ${JSON.stringify(agent)}; use claims hook print-config|install|verify|uninstall ${which}.`);
  }
  if (!setup && which !== undefined) {
    // `claims hook claude install`: a hook's command line names no more than its agent.
    const action = actions.includes(which) ? `; to ${which} it, run claims hook ${which} ${agent}` : "";
    throw new BadInputError(`claims hook ${agent} runs as ${agent}'s hook and takes no other word (got ${JSON.stringify(which)})${action}.`);
  }
  if (name === undefined || name === "") throw new BadInputError(`claims hook ${setup ? `${agent} ` : ""}needs an agent: claims hook ${setup ? agent : "print-config|install|verify|uninstall"} claude|codex.`);
  if (!agents.includes(name as (typeof agents)[number])) {
    throw new BadInputError(`Unknown agent ${JSON.stringify(name ?? "")}; use claims hook claude|codex, or claims hook print-config|install|verify|uninstall claude|codex.`);
  }
  if (setup) return runHookSetup(agent, name as "claude" | "codex", flags);
  return runAgentHook(name as "claude" | "codex", flags);
}

/** `claims hook print-config|install|verify|uninstall claude|codex`. */
async function runHookSetup(action: string, name: "claude" | "codex", flags: VerbFlags<"hook">): Promise<void> {
  const { parseTtl, resolveSettings } = await import("../protocol/settings.js");
  const claimTtl = flags.claimTtl === undefined ? undefined : parseTtl(flags.claimTtl, HOOK_FLAGS.claimTtl.long);
  // --dir as every verb resolves it (relative to here, ~ for home), since the hook runs elsewhere.
  const dir = flags.dir === undefined ? undefined : resolveSettings({ dir: flags.dir }).dir;
  const options = {
    ...(flags.autoTake === false && { autoTake: false }),
    ...(flags.failClosed && { failClosed: true }),
    ...(flags.subagentHolders && { subagentHolders: true }),
    ...(claimTtl !== undefined && { claimTtl }),
    ...(dir !== undefined && { dir }),
  };
  if (action === "print-config") {
    const { hookCommand, hookConfig } = await import("../hooks/config.js");
    const { directoryNotes } = await import("../hooks/directory-note.js");
    const snippet = hookConfig(name, ownBinary(), options);
    writeOut(snippet.json);
    writeErr(snippet.notes);
    const command = hookCommand(name, ownBinary(), options);
    for (const note of directoryNotes("print-config", { agent: name }, [command])) writeErr(`claims: note: ${note}\n`);
    return;
  }
  const { installHook, uninstallHook, verifyHook } = await import("../hooks/install.js");
  const run = action === "install" ? installHook : action === "uninstall" ? uninstallHook : verifyHook;
  const report = await run({
    agent: name,
    binary: ownRealBinary(),
    ...options,
    ...(flags.project && { project: process.cwd() }),
    ...(flags.codex !== undefined && { codex: flags.codex }),
  });
  if (flags.json) writeOut(`${JSON.stringify(report, null, 2)}\n`);
  else {
    for (const note of report.notes) writeOut(`claims: ${note}\n`);
    for (const problem of report.problems) writeOut(`claims: problem: ${problem}\n`);
    for (const warning of report.warnings ?? []) writeErr(`claims: note: ${warning}\n`);
    if (action !== "uninstall") writeOut(report.ok ? `claims: the ${name} hook is set up and will run\n` : `claims: the ${name} hook will not guard every write until the problems above are fixed\n`);
  }
  // Not set up as it must be is a problem of configuration, as an unreadable settings file is (exit 2), not a bug (exit 1).
  process.exitCode = report.ok ? 0 : EXIT_CODES.BAD_INPUT;
}

/**
 * `claims hook claude|codex`: the agent's hook, answering the event on stdin. The fast path runs
 * this alone (src/cli/fast.ts), so the hook's own bundle (dist/hot-hook.cjs) holds none of the
 * setup's code.
 */
export async function runAgentHook(name: "claude" | "codex", flags: VerbFlags<"hook">): Promise<void> {
  const { parseTtl } = await import("../protocol/settings.js");
  const claimTtl = flags.claimTtl === undefined ? undefined : parseTtl(flags.claimTtl, HOOK_FLAGS.claimTtl.long);
  const { hook } = await import("../hooks/hook.js");
  const input = isTerminal(0) ? "" : readFileSync(0, "utf8");
  const answer = await hook({
    agent: name,
    input,
    autoTake: flags.autoTake !== false,
    failClosed: flags.failClosed === true,
    subagentHolders: flags.subagentHolders === true,
    ...(claimTtl !== undefined && { claimTtl }),
    ...(flags.dir !== undefined && { dir: flags.dir }),
  });
  writeOut(answer.stdout);
  writeErr(answer.stderr);
  process.exitCode = answer.exitCode;
}
