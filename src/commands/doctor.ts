// doctor: verifies the guard on the configured claims directory as it is, with real processes:
// exclusive create and atomic rename work on this filesystem, racing takers get exactly one
// winner (for a free and for a stale claim), read-back works, the clock agrees with the
// filesystem, nothing is world-writable, the record can be appended to, no debris is pending. It
// cleans up after itself.
// On a network filesystem it also checks the mount's caches, that a take waits for a lock of a
// process on another machine, and, given the same directory through another mount (`via`), that
// a claim is seen through it at once and a lock held through one path holds off the other; the
// racers then run through both paths (src/commands/doctor-network.ts).
import { spawn } from "node:child_process";
import { getent } from "../os/getent.js";
import { homeOf } from "../os/sudo.js";
import { defaultClaimsDir, type Settings } from "../protocol/settings.js";
import { foldPath } from "../targets/caseless.js";
import { existsSync, linkSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { basename, dirname, join, resolve } from "node:path";
import { realpathSync } from "node:fs";
import { findDebris } from "../protocol/debris.js";
import { tokenFilesOf } from "../protocol/fencing.js";
import { removeQuietly, sleepSync, writeTempFile } from "../os/files.js";
import { readFilesystemClock } from "../os/filesystem.js";
import { check } from "./check.js";
import { checkAcrossMounts, checkFilesystem, checkOtherMachineLock } from "./doctor-network.js";
import { BadInputError } from "../os/errors.js";
import { optionName } from "../os/option-names.js";
import { doctorScratchName, logProblem } from "../protocol/log.js";
import { openContext, type CommonOptions } from "../protocol/context.js";
import { PINNED_DIRECTORY, pinnedDirsIn } from "../protocol/pinned.js";
import { claimFileName, isDirectory } from "../targets/target.js";
import { formatTimestamp } from "../os/time.js";
import { release } from "./release.js";
import { take } from "./take.js";
import type { DoctorCheck } from "./doctor-network.js";
import { asOneVerb } from "../os/lookups.js";
import { checkOptionTypes } from "./option-types.js";

export type { DoctorCheck };

export interface DoctorResult {
  dir: string;
  checks: DoctorCheck[];
  /** False when any check failed: the guard cannot be trusted on this directory. */
  trusted: boolean;
}

const RACERS = 8;

/** Whether two paths are one name of one directory (symlinks resolved; a bind mount is another name). */
function sameName(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return a === b;
  }
}

/**
 * More pinned claims directories pointing here than this, and doctor warns: each one that exists
 * costs every take, check and hook write judged here a look in it (its listing, and the claims on
 * the path's region read; docs/PROTOCOL.md 1a), about 0.1 ms apiece in process on the machine of
 * docs/BENCHMARKS.md, and nothing else tells the user.
 */
const MANY_PINNED = 10;

/** The pointers to pinned claims directories that still exist, and what each costs. */
function pinnedCheck(dir: string): [DoctorCheck["status"], string] {
  const pinned = pinnedDirsIn(dir);
  if (pinned.length === 0) return ["ok", "no claims directory pinned with --dir or CLAIMS_DIR points here"];
  const which = pinned.length === 1 ? "1 claims directory pinned with --dir or CLAIMS_DIR points here, and is" : `${pinned.length} claims directories pinned with --dir or CLAIMS_DIR point here, and are`;
  const looked = `${which} looked in by every take, check and hook write of a path here`;
  if (pinned.length <= MANY_PINNED) return ["ok", looked];
  return ["warn", `${looked}, each a directory listing: remove those no session uses any more (sweep then drops their pointers from ${join(dir, PINNED_DIRECTORY)}), or have every session pin one directory, or none`];
}

/**
 * A claims directory the config says the group shares: usable by the group (2770), and of a group
 * others are in. Made by one user without a setgid parent, it had that user's own group, where the
 * user-private-group scheme of most Linux distributions leaves nobody else: the other users of the
 * team were refused it (EACCES) while every check here passed for its owner.
 */
function groupCheck(dir: string): [DoctorCheck["status"], string] {
  const stat = statSync(dir);
  const mode = (stat.mode & 0o7777).toString(8);
  if ((stat.mode & 0o2070) !== 0o2070) {
    return ["warn", `the config says shared_group, but ${dir} is ${mode}: the other members of its group cannot take or release there; run chmod 2770 ${dir} (and chmod 660 on the files in it)`];
  }
  const group = getent("group", stat.gid);
  const owner = getent("passwd", stat.uid);
  const members = (group?.[3] ?? "").split(",").filter((name) => name !== "" && name !== owner?.[0]);
  if (group && owner && group[0] === owner[0] && owner[3] === String(stat.gid) && members.length === 0) {
    return ["warn", `${dir} is ${mode}, shared with the group ${group[0]}, the private group of its owner ${owner[0]}, which no other user is in: the other users of the team are refused it; run chgrp -R <the team's group> ${dir}`];
  }
  // Every directory above must let the group through (search, x): a team directory under an
  // owner-only home (0700, or 0750 of the owner's own group) is shared with nobody.
  for (let above = dirname(dir); ; above = dirname(above)) {
    let up;
    try {
      up = statSync(above);
    } catch {
      break; // cannot look: the checks above found the directory usable
    }
    const through = (up.mode & 0o001) !== 0 || (up.gid === stat.gid && (up.mode & 0o010) !== 0);
    if (!through) {
      const name = getent("group", up.gid)?.[0] ?? String(up.gid);
      return ["warn", `${dir} is ${mode}, shared with the group ${group?.[0] ?? stat.gid}, but ${above} above it (${(up.mode & 0o7777).toString(8)}, group ${name}) does not let that group through, so its other members cannot reach it; run chmod o+x ${above}, or chgrp ${group?.[0] ?? stat.gid} ${above} and chmod g+x ${above}, or move the claims directory where the team can reach it`];
    }
    if (dirname(above) === above) break;
  }
  return ["ok", `${dir} is ${mode}, shared with the group ${group?.[0] ?? stat.gid}`];
}

export interface DoctorOptions extends CommonOptions {
  /** The claims CLI its racing processes run; by default this package's own bin/claims.js. */
  binary?: string;
  /** The same claims directory through another path (another mount of the network filesystem). */
  via?: string;
}

/**
 * This package's bin/claims.js, found from this module: dist/commands/ for the library, dist/ for
 * the CLI's bundle.
 */
function ownBinary(): string {
  for (const relative of ["../../bin/claims.js", "../bin/claims.js"]) {
    const path = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new BadInputError("doctor cannot find the claims CLI beside this library; pass binary, the path of bin/claims.js.");
}

export function doctor(input: DoctorOptions): Promise<DoctorResult> {
  return asOneVerb(() => doctorNow(input));
}

async function doctorNow(input: DoctorOptions): Promise<DoctorResult> {
  checkOptionTypes("doctor", input);
  const options = { ...input, binary: input.binary ?? ownBinary() };
  if (options.via !== undefined && options.via.trim() === "") {
    throw new BadInputError(`${optionName("via")} is empty; give the same claims directory as another mount shows it (e.g. /mnt/other/claims).`);
  }
  if (options.via !== undefined && !isDirectory(options.via)) {
    // Checked before anything is written: a take through a --via that does not exist would create it.
    throw new BadInputError(`${optionName("via")} ${options.via} is not a directory; give the same claims directory as another mount shows it (e.g. /mnt/other/claims).`);
  }
  const context = openContext(options);
  const { store } = context;
  if (options.via !== undefined && sameName(resolve(context.settings.cwd, options.via), store.dir)) {
    // Through one name every check would pass for the name, proving nothing about another mount.
    throw new BadInputError(`${optionName("via")} ${options.via} is the claims directory itself (${store.dir}); give it as another mount shows it (e.g. /mnt/other/claims), or leave --via out.`);
  }
  const checks: DoctorCheck[] = [];
  const add = (check: string, status: DoctorCheck["status"], detail: string) => checks.push({ check, status, detail });
  const scratch = doctorScratchName(); // kept out of the log (src/protocol/log.ts)

  try {
    store.ensure({ trustAnyMode: true }); // the permissions check below says what is wrong with the mode
  } catch (error) {
    add("directory", "fail", (error as Error).message);
    return { dir: store.dir, checks, trusted: false };
  }
  const mode = statSync(store.dir).mode & 0o777;
  if (mode & 0o002) {
    // take refuses such a directory, so the races and the read-back below could not run.
    add("permissions", "fail", `${store.dir} is world-writable (${mode.toString(8)}): anyone on the machine can forge or remove claims, and take refuses it`);
    return { dir: store.dir, checks, trusted: false };
  } else if (mode & 0o020 && !context.settings.groupShared) add("permissions", "warn", `${store.dir} is group-writable (${mode.toString(8)}) but the config does not say shared_group`);
  else if (context.settings.groupShared) {
    const [status, detail] = groupCheck(store.dir);
    add("permissions", status, detail);
  } else add("permissions", "ok", `${store.dir} is ${mode.toString(8)}`);
  const filesystem = checkFilesystem(store.dir, add);

  const a = writeTempFile(store.dir, "a\n", store.fileMode);
  const b = writeTempFile(store.dir, "b\n", store.fileMode);
  const linked = join(store.dir, `.tmp-doctor-${scratch}`);
  try {
    linkSync(a, linked);
    let exclusive = false;
    try {
      linkSync(b, linked);
    } catch (error) {
      exclusive = (error as NodeJS.ErrnoException).code === "EEXIST";
    }
    add("link(2)", exclusive ? "ok" : "fail", exclusive ? "creating an existing name fails with EEXIST: exactly one creator wins" : "a second link over an existing name did not fail with EEXIST");
    renameSync(b, linked);
    const replaced = readFileSync(linked, "utf8") === "b\n";
    add("rename(2)", replaced ? "ok" : "fail", replaced ? "a rename replaces the file whole" : "a rename did not replace the file");
  } catch (error) {
    add("link(2)", "fail", `this filesystem does not support link(2) or rename(2) as needed (${(error as NodeJS.ErrnoException).code})`);
  } finally {
    for (const path of [a, b, linked]) removeQuietly(path);
  }

  // A --via that is another directory, not this one through another mount, would make every race
  // through both look like two winners: say that instead, and race through this directory only.
  const via = options.via !== undefined && showsTheSameFiles(store.dir, options.via, store.fileMode) ? options.via : undefined;
  if (options.via !== undefined && via === undefined) {
    add("same directory through --via", "fail", `a file created in ${store.dir} did not appear in ${options.via} within 2 s: it is another directory, or its mount caches directory entries; the checks through it were not run`);
  }
  const dirs = [store.dir, ...(via !== undefined ? [via] : [])];
  const through = dirs.length > 1 ? ` through ${dirs.join(" and ")}` : "";
  const raceCheck = (name: string, what: string, result: RaceResult) =>
    add(
      name,
      result.winners === 1 && result.failed === 0 ? "ok" : "fail",
      `${RACERS} processes took ${what}${through}: ${result.winners} won, ${result.refused} refused${result.failed ? `, ${result.failed} failed (exit ${result.failedCodes.join(", ")})` : ""}`,
    );
  const free = await race(options, `${scratch}-free`, dirs);
  raceCheck("race on a free target", "one free target", free);
  const staleTarget = `${scratch}-stale`;
  const old = formatTimestamp(context.nowMs - 2 * 24 * 3600 * 1000);
  const staleClaim = `${JSON.stringify({ target: staleTarget, holder: "claims-doctor-ghost", purpose: "", taken_at: old, heartbeat_at: old })}\n`;
  const temp = writeTempFile(store.dir, staleClaim, store.fileMode);
  renameSync(temp, join(store.dir, claimFileName(staleTarget)));
  // On a network filesystem a claim whose file was written within its TTL is never taken over.
  const twoDaysAgo = (context.nowMs - 2 * 24 * 3600 * 1000) / 1000;
  utimesSync(join(store.dir, claimFileName(staleTarget)), twoDaysAgo, twoDaysAgo);
  const stale = await race(options, staleTarget, dirs);
  raceCheck("race on a stale claim", "over one stale claim", stale);

  const readBack = await take({ ...options, targets: [`${scratch}-read`], holder: "claims-doctor", purpose: "claims doctor read-back" });
  const onDisk = readBack.granted[0] ? JSON.parse(readFileSync(join(store.dir, claimFileName(`${scratch}-read`)), "utf8")) : undefined;
  const readOk = onDisk?.holder === "claims-doctor" && onDisk?.taken_at === readBack.granted[0]?.taken_at;
  add("read-back", readOk ? "ok" : "fail", readOk ? "a claim reads back with its holder and taken_at" : "a claim did not read back as written");
  release({ ...options, holder: "claims-doctor", targets: [`${scratch}-read`] });

  if (filesystem.network) {
    // Every verb here stamps and judges by the filesystem's clock, so a skewed clock is corrected.
    const clock = readFilesystemClock(store.dir, store.fileMode);
    const skew = Math.abs(clock.offsetMs) / 1000;
    if (!clock.measured) add("clock", "fail", "the filesystem's clock could not be read (a probe file could not be created)");
    else if (skew === 0) add("clock", "ok", "this clock agrees with the filesystem's (within 1.5 s)");
    else add("clock", "warn", `this clock is ${skew.toFixed(1)} s ${clock.offsetMs > 0 ? "behind" : "ahead of"} the filesystem's; claims stamps and judges by the filesystem's clock here, but fix this clock (NTP)`);
    await checkOtherMachineLock(store, options.binary, `${scratch}-remote`, add);
    if (via !== undefined) {
      await checkAcrossMounts(store, via, options.binary, scratch, add, async (target) => {
        const taken = await take({ ...options, targets: [target], holder: "claims-doctor", purpose: "claims doctor visibility" });
        const seen = check({ ...options, dir: via, holder: "claims-doctor-other", targets: [target] });
        release({ ...options, holder: "claims-doctor", targets: [target] });
        return { taken: taken.granted.length === 1, seen: seen.refused.length === 1 };
      });
    }
  } else {
    const probe = writeTempFile(store.dir, "clock\n", store.fileMode);
    const skewMs = statSync(probe).mtimeMs - Date.now();
    unlinkSync(probe);
    const skew = Math.abs(skewMs) / 1000;
    add("clock", skew > 60 ? "fail" : skew > 2 ? "warn" : "ok", `this clock and the filesystem's timestamps differ by ${skew.toFixed(1)} s`);
  }

  // Clean up: the scratch targets' token counters are the only trace left.
  const names = store.names();
  for (const suffix of ["free", "stale", "read", "remote", "seen", "lock"]) {
    for (const name of tokenFilesOf(`${scratch}-${suffix}`, names)) removeQuietly(join(store.dir, name));
  }
  // Appends to the record are best effort and say nothing when they fail (src/protocol/log.ts): here is where to hear of it.
  const logIssue = logProblem(store.dir);
  add("log", logIssue === undefined ? "ok" : "fail", logIssue ?? "changes are appended to log.jsonl");
  const debris = findDebris(store, Date.now());
  add("debris", debris.length > 0 ? "warn" : "ok", debris.length > 0 ? `${debris.length} leftover files of crashed writers; run claims sweep` : "none pending");
  add("pinned", ...pinnedCheck(store.dir));
  const home = homeCheck(options, context.settings);
  if (home) add("home", ...home);
  return { dir: store.dir, checks, trusted: checks.every((check) => check.status !== "fail") };
}

/**
 * The default claims directory follows HOME (docs/PROTOCOL.md 1): a session whose HOME is not its
 * user's login home claims apart from the sessions that have it. Judged only where the default
 * directory is the one in use (no --dir, CLAIMS_DIR or config "dir") and not under sudo, whose
 * invoking user's directory is used instead.
 */
function homeCheck(options: DoctorOptions, settings: Settings): [DoctorCheck["status"], string] | undefined {
  const env = options.env ?? process.env;
  const uid = process.getuid?.();
  if (uid === undefined || (uid === 0 && env.SUDO_UID !== undefined)) return undefined;
  if (foldPath(defaultClaimsDir(env, settings.home)) !== settings.dir) return undefined;
  const login = homeOf(String(uid));
  if (login === undefined) return undefined;
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  if (real(login) === real(settings.home)) return ["ok", `HOME is the login home ${login}`];
  return [
    "warn",
    `HOME is ${settings.home}, not the login home ${login}: sessions with the login HOME claim in ${join(login, ".local", "state", "claims")} and this one in ${settings.dir}, and neither sees the other's claims; set one CLAIMS_DIR for both, or one HOME`,
  ];
}

interface RaceResult {
  winners: number;
  refused: number;
  /** Racers that neither won nor were refused: a crash is a failure too. */
  failed: number;
  failedCodes: number[];
}

/** Several real processes take one target at once, through each path in turn; each racer releases what it won. */
async function race(options: DoctorOptions & { binary: string }, target: string, dirs: string[]): Promise<RaceResult> {
  const run = (args: string[], dir: string) =>
    new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [options.binary, ...args, "--dir", dir], { stdio: "ignore", cwd: options.cwd ?? process.cwd(), env: options.env ?? process.env });
      child.on("close", (code) => resolve(code ?? -1));
      child.on("error", () => resolve(-1));
    });
  const dirOf = (i: number) => dirs[i % dirs.length] as string;
  const codes = await Promise.all(Array.from({ length: RACERS }, (_, i) => run(["take", target, "--holder", `claims-doctor-${i}`], dirOf(i))));
  const winner = codes.indexOf(0);
  if (winner !== -1) await run(["release", target, "--holder", `claims-doctor-${winner}`], dirOf(winner));
  const failedCodes = codes.filter((code) => code !== 0 && code !== 3);
  return { winners: codes.filter((code) => code === 0).length, refused: codes.filter((code) => code === 3).length, failed: failedCodes.length, failedCodes };
}

/** Whether a file created in `dir` shows in `via` (at once, or within 2 s for a mount's caches). */
function showsTheSameFiles(dir: string, via: string, mode: number): boolean {
  const probe = writeTempFile(dir, "doctor --via probe\n", mode, false);
  try {
    const name = basename(probe);
    for (const deadline = Date.now() + 2000; ; sleepSync(50)) {
      if (existsSync(join(via, name))) return true;
      if (Date.now() > deadline) return false;
    }
  } finally {
    removeQuietly(probe);
  }
}
