// Human output for each verb. Commands return plain objects; this turns them into lines. Colour
// only on a TTY without NO_COLOR, and chalk is loaded only then (styleFor in src/cli/shared.ts).
import { join } from "node:path";
import type { BeatResult, LostClaim } from "../commands/beat.js";
import type { CheckResult } from "../commands/check.js";
import type { DoctorResult } from "../commands/doctor.js";
import type { GuardResult, InstallResult } from "../commands/guard.js";
import type { TransferResult } from "../commands/handover.js";
import type { ReleaseResult } from "../commands/release.js";
import type { ClaimStatus, StatusResult } from "../commands/status.js";
import type { SweepResult } from "../commands/sweep.js";
import type { TakenClaim, TakeResult } from "../commands/take.js";
import type { LogEntry } from "../protocol/log.js";
import type { Holding } from "../protocol/context.js";
import { formatAge } from "../os/time.js";
import { printable } from "../os/printable.js";
import { shellQuoteShown } from "../os/shell-quote.js";
import { describeHolding, forPurpose, quoted } from "../protocol/describe.js";
import { looksLikePath, NAME_PREFIX, parseTarget } from "../targets/target.js";
import { shapeOf } from "../targets/overlap.js";
import { dirname } from "node:path";

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

export const plain: Style = { bold: (t) => t, dim: (t) => t, red: (t) => t, green: (t) => t, yellow: (t) => t };

/**
 * The flags a command suggested to the caller repeats, as given (`--dir`, `--holder`, `--ttl`,
 * `--shared`; `dir` alone for a command that takes no more): without them it would act in another
 * claims directory or for another holder (the environment carries over by itself). Each with a
 * leading space, or "".
 */
export interface Repeat {
  all: string;
  dir: string;
}
const NOTHING: Repeat = { all: "", dir: "" };

export function sameSession(flags: { dir?: string; holder?: string; ttl?: string; shared?: boolean }): Repeat {
  const dir = flags.dir !== undefined ? ` --dir ${shellQuoteShown(flags.dir)}` : "";
  const holder = flags.holder !== undefined ? ` --holder ${shellQuoteShown(flags.holder)}` : "";
  const ttl = flags.ttl !== undefined ? ` --ttl ${shellQuoteShown(flags.ttl)}` : "";
  return { all: `${dir}${holder}${ttl}${flags.shared ? " --shared" : ""}`, dir };
}

/** `asked`: the targets as the user typed them, for the command the refusal suggests; `repeat`: the flags it repeats (sameSession). */
export function renderTake(result: TakeResult, style: Style, asked: string[] = [], repeat: Repeat = NOTHING): string[] {
  const lines: string[] = [];
  if (result.idempotent_replay) lines.push(style.dim("(the first result of this idempotency key: nothing was done again)"));
  for (const target of result.no_longer_held ?? []) {
    lines.push(`${style.red(style.bold("LOST"))} ${printable(target)}: granted by the first take, but no longer yours (lapsed, taken over, swept or released); take it again without --idempotency-key, or with a new key (this one replays this answer)`);
  }
  const gone = new Set(result.no_longer_held ?? []);
  for (const claim of result.granted.filter((granted) => !gone.has(granted.target))) {
    const token = typeof claim.token === "number" ? style.dim(` (token ${claim.token})`) : "";
    if (claim.action === "taken" && claim.previous_mode !== undefined) {
      // A switch between shared and exclusive of your own claim: a new claim in the other mode, said as such.
      const now = claim.previous_mode === "shared" ? "exclusive" : "shared";
      lines.push(`${style.green("granted")} ${printable(claim.target)}${token} ${style.dim(`(already yours, ${claim.previous_mode}; now ${now})`)}${purposeChange(claim)}${ttlChange(claim)}`);
    } else if (claim.action === "taken") lines.push(`${style.green("granted")} ${printable(claim.target)}${token}`);
    if (claim.action === "retaken") lines.push(`${style.green("renewed")} ${printable(claim.target)}${token} ${style.dim("(already yours; taken_at kept)")}${purposeChange(claim)}${ttlChange(claim)}`);
    if (claim.action === "took_over" && claim.previous) {
      lines.push(`${style.yellow("took over")} ${printable(claim.target)}${token} from a stale claim: ${describeHolding(claim.previous, true)}`);
    }
  }
  if (result.granted.length > gone.size) {
    lines.push(style.dim(`holder ${printable(result.holder)}: beat every writing turn (claims beat), release at the end (claims release)`));
  }
  for (const note of result.notes ?? []) lines.push(`${style.yellow("note")} ${printable(note.holder)} is queued for ${printable(note.target)} since ${note.queued_at}: ${quoted(note.purpose)}`);
  const word = result.interrupted ? "INTERRUPTED" : result.timed_out ? "TIMEOUT" : result.queued?.length ? "WAITING" : "REFUSED";
  // The same claim met in several claims directories (one holder's in each of them) is one line,
  // saying so: by all but its heartbeat's age (each directory's copy was taken or renewed apart), the freshest shown.
  const refusals = new Map<string, { line: string; age: number; times: number }>();
  for (const holding of result.refused) {
    const line = `${style.red(style.bold(word))} ${printable(holding.target)}: ${describeHolding(holding)}`;
    const key = `${printable(holding.target)}\0${describeHolding({ ...holding, heartbeat_age_seconds: 0 })}`;
    const age = holding.heartbeat_age_seconds ?? 0;
    const seen = refusals.get(key);
    if (seen === undefined) refusals.set(key, { line, age, times: 1 });
    else refusals.set(key, { ...(age < seen.age ? { line, age } : seen), times: seen.times + 1 });
  }
  for (const { line, times } of refusals.values()) lines.push(times > 1 ? `${line} (in ${times} claims directories)` : line);
  for (const place of result.queued ?? []) {
    lines.push(`${style.yellow("queued")} ${printable(place.target)} at position ${place.position}: you are granted it in order when it frees (claims status --mine --holder ${shellQuoteShown(result.holder)}${repeat.dir} shows it)`);
  }
  const queuedOnly = (result.queued?.length ?? 0) > 0 && result.granted.length === 0 && !result.timed_out && !result.interrupted;
  if (queuedOnly && asked.length > (result.queued?.length ?? 0)) {
    // --queue is all or nothing too: the free targets were left free, and the caller should know it.
    lines.push(`Nothing else was taken: take is all or nothing (--partial --queue takes what is free now). Once granted, take the rest with it: claims take ${asked.map(shellQuoteShown).join(" ")}${repeat.all}`);
  }
  // (What a place queued before the wait was granted meanwhile stays the holder's: said in the warnings.)
  const nothing = result.granted_from_queue?.length ? "Nothing else" : "Nothing";
  // A wait that ends refused takes nothing, but a place queued before it (a handover note) stays.
  const stillQueued = (result.timed_out || result.interrupted) && (result.queued?.length ?? 0) > 0;
  if (stillQueued) {
    const why = result.interrupted ? "the wait was interrupted" : "the wait ran out";
    lines.push(`Nothing was taken: ${why}. Your place queued before it (above) stays as it was; claims release ${[...new Set(result.queued?.map((place) => asArgument(place.target)))].join(" ")}${repeat.all} withdraws it.`);
  } else if (result.interrupted) {
    lines.push(`${nothing} was kept: the wait was interrupted, and its queued interests withdrawn.`);
  } else if (result.timed_out) {
    const targets = (asked.length > 0 ? asked.map(shellQuoteShown) : [...new Set(result.refused.map((holding) => holding.target))].map(asArgument)).join(" ");
    const away = [...new Set(result.refused.map((holding) => holding.claims_dir))];
    // A claim in the way in another claims directory: no queue here waits for it (a --queue would answer REFUSED).
    if (away.length === 1 && away[0] !== undefined) lines.push(`${nothing} was kept: the wait ran out. The claim in the way is in the claims directory ${printable(away[0])}, where a queue here cannot wait for it: reconcile with the holder from their purpose, or take it again once they release it (claims status --dir ${shellQuoteShown(away[0])} shows it).`);
    else if (away.length > 1 && away.every((dir) => dir !== undefined)) lines.push(`${nothing} was kept: the wait ran out. ${inOtherDirectories(away as string[])}`);
    else lines.push(`${nothing} was kept: the wait ran out. Queue instead to be granted it later, in order: claims take ${targets}${repeat.all} --queue --purpose "..."`);
  } else if (result.refused.length > 0 && !result.queued?.length) {
    const retry = result.granted.length > 0 ? [...new Set(result.refused.map((holding) => holding.target))].map(asArgument) : asked.map(shellQuoteShown);
    const targets = retry.join(" ");
    const start = result.granted.length > 0 ? "The rest was not taken" : "Nothing was taken";
    const elsewhere = [...new Set(result.refused.map((holding) => holding.claims_dir))];
    if (elsewhere.length === 1 && elsewhere[0] !== undefined) {
      // A queue here would never be granted it: the claim in the way is in another directory's queue.
      // A name is met there only as the default directory of this user's sessions with another XDG_STATE_HOME (or none).
      const names = result.refused.every((holding) => shapeOf(holding.target).kind === "name");
      const why = names
        ? "the default directory of this user's sessions with another XDG_STATE_HOME, or none, whose names are this one's"
        : "of another name of the file, made before a .claims nearer to it appeared, where a session not pinning --dir or CLAIMS_DIR claims it, one a session pinned, or the default directory of a session with another XDG_STATE_HOME";
      lines.push(`${start}. The claim in the way is in the claims directory ${printable(elsewhere[0])} (${why}), where a queue here cannot wait for it: reconcile with the holder from their purpose, or take it again once they release it (claims status --dir ${shellQuoteShown(elsewhere[0])} shows it).`);
    } else if (elsewhere.length > 1 && elsewhere.every((dir) => dir !== undefined)) {
      lines.push(`${start}. ${inOtherDirectories(elsewhere as string[])}`);
    } else if (result.refused.every((holding) => holding.unreadable)) {
      // No holder and no purpose to reconcile with: only the file itself is in the way. Its claims
      // directory named in the commands, which may not be the one a bare claims status reads (a
      // --dir given, a package's own directory a path was claimed in).
      const dirs = [...new Set(result.refused.flatMap((holding) => (holding.file === undefined ? [] : [dirname(holding.file)])))];
      const dir = dirs.length === 1 ? ` --dir ${shellQuoteShown(dirs[0] as string)}` : repeat.dir;
      const [files, it] = result.refused.length === 1 ? ["the file", "it"] : ["the files", "them"];
      lines.push(`${start}. Look at ${files} (claims status${dir} lists ${it}), or let claims sweep${dir} remove ${it} once older than the TTL; a queued take gets ${it} then: claims take ${targets}${repeat.all} --queue --purpose "..."`);
    } else {
      lines.push(`${start}. Reconcile with the holder from their purpose, or queue a handover to get it in order when it frees: claims take ${targets}${repeat.all} --queue --purpose "..."`);
    }
  }
  return lines;
}

/** Claims in the way in several other claims directories (directories other sessions pinned): no queue here waits for them. */
function inOtherDirectories(dirs: string[]): string {
  return `The claims in the way are in the claims directories ${dirs.map(printable).join(", ")} (ones other sessions pinned, or of other names of the file), where a queue here cannot wait for them: reconcile with the holders from their purpose, or take it again once they release them (claims status --dir ${shellQuoteShown(dirs[0] as string)} shows the first).`;
}

/** A re-take that replaced the purpose every refusal shows says so, with the old and the new. */
function purposeChange(claim: TakenClaim): string {
  const before = claim.previous_purpose;
  if (before === undefined) return "";
  if (before === "") return `; purpose set to ${quoted(claim.purpose)}`;
  if (claim.purpose === "") return `; purpose cleared (it was ${quoted(before)})`;
  return `; purpose changed from ${quoted(before)} to ${quoted(claim.purpose)}`;
}

/** A re-take whose --ttl replaced the claim's TTL says so. */
function ttlChange(claim: TakenClaim): string {
  if (claim.previous_ttl === undefined || claim.ttl === undefined) return "";
  // In seconds, as --ttl takes it: a rounded age would say 1m for 100 s.
  return claim.previous_ttl === null ? `; TTL set to ${claim.ttl}s` : `; TTL changed from ${claim.previous_ttl}s to ${claim.ttl}s`;
}

export function renderWaiting(refused: Holding[], waitedMs: number): string {
  const first = refused[0];
  const who = first ? `${printable(first.target)}: ${first.queued ? `queued behind ${printable(first.holder)}` : `held by ${printable(first.holder)}`}` : "the queue";
  const more = refused.length > 1 ? ` (+${refused.length - 1} more)` : "";
  return `waiting ${formatAge(waitedMs)} for ${who}${more}; Ctrl-C to give up`;
}

/**
 * A `--wait` callback that writes the WAITING lines (as `--queue` prints them) only when who is in
 * the way changed since the last call: heartbeat ages alone are not news.
 */
export function renderWaitingChange(write: (text: string) => void): (refused: Holding[]) => void {
  let last: string | undefined;
  return (refused) => {
    const now = refused.map((holding) => `${holding.target}\n${holding.holder}\n${holding.held_target ?? ""}\n${holding.queued ? "queued" : ""}`).sort().join("\n\n");
    if (now === last) return;
    last = now;
    write(refused.map((holding) => `WAITING ${printable(holding.target)}: ${describeHolding(holding)}\n`).join(""));
  };
}

export function renderTransfer(result: TransferResult): string[] {
  return [`handed ${printable(result.target)} to ${printable(result.to)} (token ${result.token})`];
}

/**
 * A claim's target as an argument that names it again, quoted for a shell: a name that would read
 * as a path, or as a file not created yet (gen.txt), goes behind name:.
 */
function asArgument(target: string): string {
  if (target.startsWith("/")) return shellQuoteShown(target);
  let same = false;
  try {
    const parsed = parseTarget(target, { cwd: process.cwd(), home: process.env.HOME ?? "" });
    same = parsed.kind === "name" && parsed.canonical === target && !looksLikePath(parsed);
  } catch {
    same = false;
  }
  return shellQuoteShown(same ? target : `${NAME_PREFIX}${target}`);
}

function describeLost(lost: LostClaim, repeat: Repeat): string {
  if (lost.newer_token_target !== undefined) {
    return `another holder was issued token ${lost.newer_token} on ${printable(lost.newer_token_target)}, which overlaps it, after yours: yours is fenced off`;
  }
  if (lost.newer_token !== undefined) return `the claim now carries token ${lost.newer_token}, newer than yours: a later holding; yours is fenced off`;
  if (lost.current_token !== undefined) return `the claim carries token ${lost.current_token}, not the one given: that token was never this holding's`;
  return lost.now_held_by
    ? describeHolding(lost.now_held_by)
    : `nobody holds it (released or swept); take it again with: claims take ${asArgument(lost.target)}${repeat.all}`;
}

export function renderBeat(result: BeatResult, style: Style, repeat: Repeat = NOTHING): string[] {
  const lines = result.renewed.map((target) => {
    const reissued = result.new_tokens.find((renewed) => renewed.target === target);
    if (reissued) {
      return `${style.yellow("renewed")} ${printable(target)} ${style.dim(`(it had gone stale, and another holder was issued a newer token on what it covers meanwhile: check what they wrote; your token is now ${reissued.token}, not ${reissued.previous_token})`)}`;
    }
    return result.was_stale.includes(target)
      ? `${style.yellow("renewed")} ${printable(target)} ${style.dim("(it had gone stale: check nobody else wrote meanwhile)")}`
      : `${style.green("renewed")} ${printable(target)}`;
  });
  for (const lost of result.lost_to) lines.push(`${style.red(style.bold("LOST"))} ${printable(lost.target)}: ${describeLost(lost, repeat)}`);
  for (const target of result.waiting) lines.push(`${style.green("renewed")} your place in the queue for ${printable(target)}`);
  if (lines.length === 0) lines.push(`${printable(result.holder)} holds no claims; nothing to renew`);
  return lines;
}

export function renderRelease(result: ReleaseResult, style: Style, repeat: Repeat = NOTHING): string[] {
  const lines = result.released.map((target) => {
    const received = result.received?.find((claim) => claim.target === target);
    if (!received) return `${style.green("released")} ${printable(target)}`;
    const by = received.handed_by !== undefined ? ` by ${printable(received.handed_by)}` : "";
    return `${style.green("released")} ${printable(target)}, handed to you${by} while this release ran`;
  });
  for (const handed of result.handed_to) lines.push(`${style.yellow("handed")} ${printable(handed.target)} to ${printable(handed.holder)}, next in the queue`);
  for (const target of result.withdrawn) lines.push(`withdrew your queued interest in ${printable(target)}`);
  for (const target of result.not_held) lines.push(`${printable(target)} was not held; nothing to do`);
  if (result.still_held) lines.push(`${printable(result.holder)} still holds ${result.still_held.map(printable).join(", ")}: name the one you meant, or release them all with: claims release${repeat.all}`);
  for (const lost of result.lost_to) {
    lines.push(`${style.red(style.bold("NOT YOURS"))} ${printable(lost.target)}: ${describeLost(lost, repeat)}; left untouched`);
  }
  if (lines.length === 0) lines.push(`${printable(result.holder)} holds no claims; nothing to release`);
  return lines;
}

/** `mine`: only the caller's claims were asked for (--mine), so an empty list says nothing of others'. */
export function renderStatus(result: StatusResult, style: Style, mine = false): string[] {
  const lines: string[] = [];
  for (const grant of result.granted_while_waiting) {
    if (grant.handed_by !== undefined) lines.push(`${style.green(style.bold("handed to you"))}: ${printable(grant.target)} at ${grant.granted_at} by ${printable(grant.handed_by)}`);
    else {
      const after = grant.previous ? ` (taken over from ${printable(grant.previous)}, whose claim had gone stale)` : "";
      lines.push(`${style.green(style.bold("granted while you waited"))}: ${printable(grant.target)} at ${grant.granted_at}${after}`);
    }
    for (const note of grant.notes) lines.push(`  ${style.yellow("note")} ${printable(note.holder)} is queued next for ${printable(note.target)}: ${quoted(note.purpose)}`);
  }
  for (const claim of result.claims) {
    const age = `${formatAge(claim.heartbeat_age_seconds * 1000)}${claim.clock_skew ? "" : " ago"}`;
    const state = claim.stale ? style.yellow("stale") : style.green("fresh");
    const lease = claimLease(claim);
    const flags = [claim.kind === "name" || claim.kind === "path" ? "" : claim.kind, claim.mode === "shared" ? "shared" : "", claim.mine ? "yours" : "", claim.clock_skew ? style.yellow("clock skew: heartbeat in the future") : ""]
      .filter(Boolean)
      .join(", ");
    // Another's, in a pinned session's directory: no queue from here waits for it. Yours (--mine): where beat and release reach it from here.
    const where =
      claim.claims_dir === undefined ? ""
      : mine ? `  (in the claims directory ${printable(claim.claims_dir)})`
      : claim.package !== undefined ? `  (in the claims directory ${printable(claim.claims_dir)}, which ${printable(join(claim.package, ".claims"))} names)`
      : `  (in the claims directory ${printable(claim.claims_dir)}, where a queue from here cannot wait for it)`;
    lines.push(`${style.bold(printable(claim.target))}  ${state}${lease}  ${printable(claim.holder)}  heartbeat ${age}  ${quoted(claim.purpose)}${flags ? `  (${flags})` : ""}${where}`);
    // Behind a directory or glob claim, a waiter may want one file under it: say which.
    const wants = (target: string) => (target === claim.target ? "" : ` (wants ${printable(target)})`);
    claim.queue.forEach((note, index) => lines.push(`  ${index + 1}. queued: ${printable(note.holder)} since ${note.queued_at} ${forPurpose(note.purpose)}${wants(note.target)}`));
  }
  for (const entry of result.unreadable) {
    lines.push(`${style.bold(printable(entry.target))}  ${style.red("unreadable")}  ${printable(entry.file)}: ${entry.reason}; modified ${entry.modified_at}${entry.stale ? (entry.directory ? " (stale, but sweep leaves a directory: remove it by hand)" : " (stale: sweep removes it)") : entry.foreign ? " (never taken over or swept: move it out of the claims directory)" : ""}`);
  }
  for (const target of result.free) lines.push(`${style.bold(printable(target))}  ${style.dim("free")}`);
  const shown = new Set(result.claims.flatMap((claim) => claim.queue.map((note) => `${note.holder}\n${note.target}`)));
  for (const note of result.queued.filter((entry) => !shown.has(`${entry.holder}\n${entry.target}`))) {
    const where = note.claims_dir === undefined ? "" : `  (in the claims directory ${printable(note.claims_dir)})`;
    lines.push(`${style.bold(printable(note.target))}  ${style.yellow("queued")}  ${printable(note.holder)} since ${note.queued_at} ${forPurpose(note.purpose)}${where}`);
  }
  if (lines.length === 0) lines.push(mine ? `you hold no claims and wait for none in ${printable(result.dir)} (claims status lists everyone's)` : `no claims in ${printable(result.dir)}`);
  return lines;
}

/**
 * Beside fresh or stale: how long a fresh claim stays fresh unless beaten (" for 29m"); for one
 * already stale, or judged by its file's mtime (a heartbeat in the future), the TTL it is judged
 * by (" (ttl 30m)"). Never the word "stale" on a fresh claim: scripts grep for it.
 */
function claimLease(claim: ClaimStatus): string {
  const left = claim.ttl_seconds - claim.heartbeat_age_seconds;
  if (claim.stale || claim.clock_skew || left < 0) return ` (ttl ${formatAge(claim.ttl_seconds * 1000)})`;
  return ` for ${formatAge(left * 1000)}`;
}

export function renderCheck(result: CheckResult, style: Style): string[] {
  const lines = result.allowed.map((target) => `${style.green("ok")} ${printable(target)}`);
  for (const fenced of result.fenced) {
    if (fenced.carried_by !== undefined) {
      lines.push(`${style.red(style.bold("FENCED"))} ${printable(fenced.target)}: token ${fenced.token} is not this holder's (the claim carrying it is held by ${printable(fenced.carried_by)}); reject this writer`);
      continue;
    }
    const now =
      fenced.newer_token_target !== undefined
        ? `another holder was issued token ${fenced.current_token} on ${printable(fenced.newer_token_target)}, which overlaps it, since`
        : fenced.current_token === undefined
          ? "no claim covering it carries it"
          : `the claim now carries token ${fenced.current_token}`;
    lines.push(`${style.red(style.bold("FENCED"))} ${printable(fenced.target)}: token ${fenced.token} is not current (${now}); reject this writer`);
  }
  for (const holding of result.refused) lines.push(`${style.red(style.bold("REFUSED"))} ${printable(holding.target)}: ${describeHolding(holding)}`);
  return lines;
}

export function renderSweep(result: SweepResult, style: Style): string[] {
  const verb = result.dry_run ? "would remove" : "removed";
  const lines = result.removed.map((target) => `${verb} stale claim ${printable(target)}`);
  for (const file of result.debris) lines.push(style.dim(`${verb} debris ${printable(file)}`));
  for (const skipped of result.skipped) lines.push(`${style.yellow("skipped")} ${printable(skipped.file)}: ${skipped.reason}`);
  for (const granted of result.granted) lines.push(`${result.dry_run ? "would grant" : "granted"} ${printable(granted.target)} to ${printable(granted.holder)}, next in the queue`);
  if (lines.length === 0) lines.push("nothing to sweep");
  return lines;
}

export function renderLogEntry(entry: LogEntry, style: Style): string {
  const other = entry.other ? ` ${style.dim(otherLabel[entry.event] ?? "other")} ${printable(entry.other)}` : "";
  const purpose = entry.purpose ? `  ${quoted(entry.purpose)}` : "";
  return `${style.dim(entry.at)}  ${entry.event.padEnd(8)}  ${printable(entry.target)}  ${printable(entry.holder)}${other}${purpose}`;
}

const otherLabel: Partial<Record<LogEntry["event"], string>> = {
  takeover: "from",
  refused: "in the way:", // a holder, or a waiter queued ahead
  lost: "now held by",
  grant: "after",
  transfer: "to",
};

export function renderDoctor(result: DoctorResult, style: Style): string[] {
  const mark = { ok: style.green("ok  "), warn: style.yellow("warn"), fail: style.red(style.bold("FAIL")) };
  const lines = result.checks.map((check) => `${mark[check.status]}  ${check.check}: ${check.detail}`);
  const failed = result.checks.filter((check) => check.status === "fail").map((check) => check.check);
  lines.push(failed.length === 0 ? `the guard can be trusted on ${result.dir}` : `the guard cannot be trusted on ${result.dir}: ${failed.join(", ")} failed`);
  return lines;
}

export function renderInstall(result: InstallResult): string[] {
  const lines = [`installed ${result.installed.join(" and ")} in ${result.hooks_dir}`];
  for (const name of result.chained) lines.push(`the ${name} hook that was there runs first, from ${name}.claims-chained`);
  if (result.retired.length > 0) lines.push(`removed this guard's earlier ${result.retired.join(" and ")} (the hooks installed now check every commit git makes)`);
  return lines;
}

export function renderUninstall(result: { hooks_dir: string; removed: string[]; restored: string[] }): string[] {
  if (result.removed.length === 0) return [`no claims guard hooks in ${result.hooks_dir}; nothing to do`];
  const lines = [`removed ${result.removed.join(" and ")} from ${result.hooks_dir}`];
  for (const name of result.restored) lines.push(`put back the ${name} hook that was there before`);
  return lines;
}

/** What the git hook prints (on stderr, where git shows it). */
export function renderGuard(result: GuardResult): string[] {
  if (result.mode === "off") return [];
  // Silent when nothing is wrong: a hook that talks on every commit teaches people to skip reading it.
  if (result.refused.length === 0) return [];
  const verb = result.mode === "warn" ? "would refuse (CLAIMS_GUARD=warn: allowed)" : "refused";
  const lines = [`claims guard: ${verb}: another session holds what this touches`];
  for (const holding of result.refused) lines.push(`  ${printable(holding.target)}: ${describeHolding(holding)}`);
  // Run from a shell with no holder (a terminal other than the one that took the claim), your own claim is in the way too.
  if (result.holder === undefined) {
    const holders = [...new Set(result.refused.map((holding) => holding.holder))].map(shellQuoteShown);
    lines.push(`No holder is set for this git command (CLAIMS_HOLDER, or an agent's session), so every claim counts as another's: if ${holders.length === 1 ? "it is yours" : "one is yours"}, run it as its holder (CLAIMS_HOLDER=${holders[0]} git …).`);
  }
  if (result.mode === "enforce") {
    // A commit's hook is prepare-commit-msg, which --no-verify does not skip: the guard's own switch gets past it.
    const bypass = result.hook === "pre-push" ? "git push --no-verify, or CLAIMS_GUARD=warn" : "CLAIMS_GUARD=warn before the git command";
    const targets = [...new Set(result.refused.map((holding) => holding.target))].map(asArgument);
    const queue = targets.length === 1 ? `claims handover ${targets[0]} --purpose "..."` : `claims take ${targets.join(" ")} --queue --purpose "..."`;
    // A claim in another claims directory (a pinned session's): no queue from here waits for it.
    const apart = [...new Set(result.refused.flatMap((holding) => holding.claims_dir ?? []))];
    if (apart.length > 0) lines.push(`Reconcile with the holder: the claim is in the claims directory ${apart.map((dir) => printable(dir)).join(", ")}, where a queue from here cannot wait for it (claims take ${targets.join(" ")} --wait 120 takes it once free). To go ahead anyway: ${bypass}.`);
    else lines.push(`Reconcile with the holder, or queue a handover to get it in order when it frees (${queue}). To go ahead anyway: ${bypass}.`);
  }
  return lines;
}
