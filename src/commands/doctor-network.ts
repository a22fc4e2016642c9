// doctor's checks for a claims directory on a network filesystem: which filesystem, whether its
// mount (or volume) keeps the caches that would hide a claim another machine just took, and, given
// a second path to the same directory (`--via`, another mount), whether a take through one is seen
// through the other at once and whether a lock held through one holds off the other.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, unlinkSync } from "node:fs";
import { isAbsolute, join, normalize } from "node:path";
import { linkExclusive, readSnapshot, removeQuietly, sleepSync, writeTempFile } from "../os/files.js";
import { filesystemOf, mountOf, type Filesystem } from "../os/filesystem.js";
import { randomHex } from "../os/hash.js";
import { lockName, versionOf } from "../protocol/lock.js";
import { ownMachineIdentity } from "../os/process-identity.js";
import { TAKES_FILE, type Store } from "../protocol/store.js";
import { claimFileName } from "../targets/target.js";

/** One line of doctor's report (declared here, where the network checks make most of them; doctor.ts re-exports it). */
export interface DoctorCheck {
  check: string;
  status: "ok" | "warn" | "fail";
  detail: string;
}

type Add = (check: string, status: DoctorCheck["status"], detail: string) => void;

/** The filesystem and its cache settings. Returns the filesystem. */
export function checkFilesystem(dir: string, add: Add): Filesystem {
  const fs = filesystemOf(dir);
  if (!fs.network) {
    add("filesystem", "ok", `${fs.type}: a local filesystem, one machine`);
    return fs;
  }
  const where = `${fs.type}${fs.mountPoint ? ` at ${fs.mountPoint}` : ""}${fs.source ? ` from ${fs.source}` : ""}`;
  add("filesystem", "ok", `${where}: a network filesystem; locks of other machines are waited out by a 30 s lease, and every verb uses the filesystem's clock`);
  const problems = cacheProblems(fs);
  if (problems === undefined) {
    add("caches", "warn", `claims was not tested on ${fs.type}; check with --via <the same directory through another mount> that a take through one is seen through the other at once`);
  } else if (problems.length > 0) {
    add("caches", "fail", `a claim another machine takes can stay invisible here (check and the hooks would allow a write): ${problems.join("; ")}`);
  } else {
    add("caches", "ok", `${fs.type} is mounted without the caches that would hide another machine's claim`);
  }
  return fs;
}

/** What is wrong with the mount's caches, [] for nothing, undefined for a filesystem not known here. */
function cacheProblems(fs: Filesystem): string[] | undefined {
  const options = new Set((mountOf(fs.mountPoint ?? "/").options ?? "").split(","));
  if (fs.type === "fuse.sshfs") {
    const args = sshfsArguments(fs.mountPoint ?? "");
    if (args === undefined) return ["the sshfs process of this mount was not found here, so its options are unknown; mount it with -o dir_cache=no"];
    return args.includes("dir_cache=no") ? [] : ["sshfs keeps a directory cache for 20 s; remount with -o dir_cache=no"];
  }
  if (fs.type === "nfs" || fs.type === "nfs4") {
    const problems: string[] = [];
    if (!options.has("lookupcache=none")) problems.push("NFS caches lookups (a new claim file can stay unseen); mount with lookupcache=none");
    if (!options.has("noac") && !options.has("actimeo=0")) problems.push("NFS caches attributes; mount with actimeo=0 (or noac)");
    return problems;
  }
  if (fs.type === "fuse.glusterfs") return glusterProblems(fs.source ?? "");
  return undefined;
}

/** The argument words of the sshfs process serving `mountPoint`, if it runs on this machine. */
function sshfsArguments(mountPoint: string): string[] | undefined {
  // Mounted as `sshfs host:dir mnt`, the process names its mount point as it was typed, relative
  // to a directory it has left (it runs from / once in the background): one ending the mount
  // point's path is taken when it is the only sshfs process that could serve it.
  const relative: string[][] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let words: string[];
    try {
      words = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue;
    }
    if (!(words[0] ?? "").endsWith("sshfs")) continue;
    if (words.includes(mountPoint)) return words.flatMap((word) => word.split(","));
    const endsIt = (word: string) => {
      const path = normalize(word).replace(/\/+$/, "");
      return word !== "" && !isAbsolute(word) && !word.startsWith("-") && !word.includes(":") && path !== "." && !path.startsWith("..") && mountPoint.endsWith(`/${path}`);
    };
    if (words.slice(1).some(endsIt)) relative.push(words);
  }
  return relative.length === 1 ? (relative[0] as string[]).flatMap((word) => word.split(",")) : undefined;
}

/** GlusterFS volume options that must be off (or on) for claims, as `gluster volume get` reads them. */
const GLUSTER_REQUIRED: Array<[string, string, string]> = [
  ["features.ctime", "off", "mtimes come from each client's clock, so the filesystem has no clock of its own"],
  ["performance.stat-prefetch", "off", "clients cache file metadata"],
  ["performance.quick-read", "off", "clients cache small files' content"],
  ["performance.io-cache", "off", "clients cache files' content"],
  ["performance.write-behind", "off", "clients hold writes back and answer before the server has them"],
  ["performance.readdir-ahead", "off", "clients cache directory listings"],
  ["performance.nl-cache", "off", "clients cache that a name does not exist"],
  ["performance.open-behind", "off", "opens are deferred, and closes fail with ESTALE"],
];

function glusterProblems(source: string): string[] {
  const volume = source.split(":/")[1];
  if (!volume) return ["the volume of this mount is unknown"];
  const got = spawnSync("gluster", ["--mode=script", "volume", "get", volume, "all"], { encoding: "utf8", timeout: 10_000 });
  if (got.status !== 0) {
    return [`its volume options could not be read here (no gluster command or no access); make sure ${GLUSTER_REQUIRED.map(([key, value]) => `${key} ${value}`).join(", ")}`];
  }
  const values = new Map<string, string>();
  for (const line of got.stdout.split("\n")) {
    const [key, value] = line.trim().split(/\s+/);
    if (key && value) values.set(key, value);
  }
  return GLUSTER_REQUIRED.filter(([key, value]) => values.get(key) !== undefined && values.get(key) !== value).map(
    ([key, value, why]) => `${why}: gluster volume set ${volume} ${key} ${value}`,
  );
}

/**
 * Through two paths to one directory: a claim taken through `dir` is seen at once through `via`,
 * and a take through `via` waits for a lock held through `dir`.
 */
export async function checkAcrossMounts(
  store: Store,
  via: string,
  binary: string,
  scratch: string,
  add: Add,
  takeAndCheck: (target: string) => Promise<{ taken: boolean; seen: boolean }>,
): Promise<void> {
  const seen = await takeAndCheck(`${scratch}-seen`);
  add(
    "seen through the other mount",
    seen.taken && seen.seen ? "ok" : "fail",
    seen.taken && seen.seen
      ? `a claim taken through ${store.dir} was seen at once through ${via}`
      : `a claim taken through ${store.dir} was not seen at once through ${via}: check and the hooks there would allow a write`,
  );
  const held = await holdLockWhileTaking(store, via, binary, `${scratch}-lock`, 2000);
  add(
    "lock across mounts",
    !held.passedThrough && held.code === 0 ? "ok" : "fail",
    held.code !== 0
      ? `a take through ${via} failed (exit ${held.code}) around a take lock held through ${store.dir}`
      : `a take through ${via} ${held.passedThrough ? "went through" : "waited for"} the take lock held through ${store.dir}`,
  );
}

/**
 * Plants a take lock as a live owner on another machine would leave it (another boot id), and
 * checks that a take here waits for it instead of passing over it; then removes it.
 */
export async function checkOtherMachineLock(store: Store, binary: string, target: string, add: Add): Promise<void> {
  const version = versionOf(readSnapshot(join(store.dir, TAKES_FILE)));
  if (version === undefined) return;
  const record = { claim: TAKES_FILE, version, ...ownMachineIdentity(), boot: `doctor-${randomHex(16)}`, host: "another machine", nonce: randomHex(8) };
  const content = `${JSON.stringify(record)}\n`;
  const temp = writeTempFile(store.dir, content, store.fileMode, false);
  const lock = join(store.dir, lockName(TAKES_FILE, version, 1));
  if (!linkExclusive(temp, lock, content)) {
    removeQuietly(temp);
    add("lock of another machine", "warn", "the take lock was busy; not checked");
    return;
  }
  removeQuietly(temp);
  const child = runTake(binary, store.dir, target);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const waiting = child.exited === undefined;
  try {
    unlinkSync(lock);
  } catch {
    // passed over and removed: reported below
  }
  const code = await child.done;
  add(
    "lock of another machine",
    waiting && code === 0 ? "ok" : "fail",
    waiting ? "a take waited for a take lock of a process on another machine (another boot id) instead of passing over it" : "a take passed over a take lock of a process on another machine (another boot id)",
  );
}

function runTake(binary: string, dir: string, target: string): { done: Promise<number>; exited?: number } {
  const handle: { done: Promise<number>; exited?: number } = { done: Promise.resolve(-1) };
  handle.done = new Promise((resolve) => {
    const child = spawn(process.execPath, [binary, "take", target, "--holder", "claims-doctor", "--dir", dir], { stdio: "ignore" });
    child.on("close", (code) => {
      handle.exited = code ?? -1;
      spawnSync(process.execPath, [binary, "release", target, "--holder", "claims-doctor", "--dir", dir], { stdio: "ignore" });
      resolve(code ?? -1);
    });
    child.on("error", () => resolve(-1));
  });
  return handle;
}

async function holdLockWhileTaking(store: Store, via: string, binary: string, target: string, holdMs: number): Promise<{ passedThrough: boolean; code: number }> {
  // Hold the take lock through our path, start a taker through the other, and watch (through the
  // other path) for its claim: it must not appear while we hold the lock. The hold blocks this
  // process, so the watching is done here, synchronously; the taker's exit is read afterwards.
  const claim = join(via, claimFileName(target));
  let passedThrough = false;
  let child: { done: Promise<number> } | undefined;
  store.withTakeLock(() => {
    child = runTake(binary, via, target);
    for (let waited = 0; waited < holdMs; waited += 100) {
      sleepSync(100);
      if (readSnapshot(claim).kind !== "missing") passedThrough = true;
    }
  });
  return { passedThrough, code: child ? await child.done : -1 };
}
