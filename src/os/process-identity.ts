// Who is running, and is that process still alive? Used for the per-claim mutex
// (src/protocol/lock.ts): a mutex is broken only when its owner is provably dead, never because it
// is old, since an old owner may merely be paused and would wake to finish its write.
//
// On Linux a pid is paired with its start time (field 22 of /proc/<pid>/stat) and the boot id, so
// a reused pid is not mistaken for the original owner. Elsewhere we fall back to `kill(pid, 0)`.
//
// A pid means something only on the kernel that issued it. The boot id (random per boot) names
// that kernel: an owner with another boot id runs on another machine sharing the claims directory
// over a network filesystem, or ran here before a reboot, and nothing here can tell which, or
// look its process up. Such an owner is "elsewhere": never judged dead from here
// (src/protocol/lock.ts waits out a lease for it instead). An owner of another pid namespace on
// this kernel (a sandbox) is looked up in that namespace (inOtherNamespace). The machine id and host name are
// recorded for the messages only: cloned machines and containers often share /etc/machine-id, so it
// decides nothing.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { os } from "./lazy-os.js";
import { readMounts } from "./mounts.js";

export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks since boot (Linux), when known. */
  start?: number;
  /** /proc/sys/kernel/random/boot_id (Linux), when known. */
  boot?: string;
  /** The pid namespace (`readlink /proc/self/ns/pid`), when known: a pid means nothing outside it. */
  ns?: string;
  /**
   * The time namespace (`readlink /proc/self/ns/time`, Linux 5.6 and later), when known: /proc
   * shows a process's start time shifted by the boot offset of the namespace of whoever reads it,
   * so one read in another time namespace cannot be compared with it.
   */
  tns?: string;
  /**
   * The boot-time offset of that time namespace in nanoseconds (`boottime` in
   * /proc/self/timens_offsets), written outside the initial one, whose offset is 0: with it, a
   * start time read in one time namespace is put on another's clock (startOnOwnClock).
   */
  tboot?: string;
  /** /etc/machine-id, when known: which machine, for messages. */
  machine?: string;
  /** The host name, for messages. */
  host?: string;
}

/** Where an owner runs, as far as this process can tell. */
export type Liveness = "alive" | "dead" | "elsewhere";

/** The fields of /proc/<pid>/stat (proc(5)) that claims reads; a number the line lacks is NaN. */
export interface ProcessStat {
  /** Field 2, the command name (comm, at most 15 bytes), without its parentheses. */
  name: string;
  /** Field 3: R, S, D, ...; Z (zombie) and X (dead) have exited. */
  state: string;
  /** Field 4, the parent's pid. */
  ppid: number;
  /** Field 6, the session id: the pid of the session leader. */
  session: number;
  /** Field 22, the start time in clock ticks since boot. */
  start: number;
}

/** One read of /proc/<pid>/stat; undefined where there is none (not Linux, an exited process, hidepid). */
export function readProcessStat(pid: number | "self"): ProcessStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  return parseProcessStat(text);
}

/** A /proc/<pid>/stat line: `pid (comm) state ppid pgrp session tty_nr ... starttime ...`. */
export function parseProcessStat(text: string): ProcessStat {
  // The command name (field 2) is in parentheses and is whatever the process chose (prctl,
  // the executable's name), so it may itself contain spaces or parentheses: `1234 (a) b) S 1 ...`.
  // Field 1 is a number, so the first "(" opens the name; nothing after the name can hold a ")",
  // so the last ")" closes it, and the fields after it split on spaces. They start at field 3.
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  const field = (number: number) => Number(fields[number - 3]);
  return {
    name: text.slice(text.indexOf("(") + 1, close),
    state: fields[0] ?? "",
    ppid: field(4),
    session: field(6),
    start: field(22),
  };
}

/** Field 22 (starttime) of a running process. A zombie (state Z or X) has exited. */
export function processStartTime(pid: number | "self"): number | undefined {
  const stat = readProcessStat(pid);
  if (!stat || isExited(stat)) return undefined;
  return Number.isFinite(stat.start) ? stat.start : undefined;
}

/** Field 6 (session id) of this process: the pid of its session leader, usually the terminal's shell. */
export function sessionLeader(): number | undefined {
  const value = readProcessStat("self")?.session ?? Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function isExited(stat: ProcessStat): boolean {
  return stat.state === "Z" || stat.state === "X";
}

let cachedBootId: string | null | undefined;
function bootId(): string | undefined {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    } catch {
      cachedBootId = null;
    }
  }
  return cachedBootId ?? undefined;
}

let cachedSelf: ProcessIdentity | undefined;
export function ownIdentity(): ProcessIdentity {
  if (!cachedSelf) {
    cachedSelf = { pid: process.pid };
    const start = processStartTime("self");
    const boot = bootId();
    const ns = pidNamespace();
    const tns = timeNamespace();
    if (start !== undefined) cachedSelf.start = start;
    if (boot !== undefined) cachedSelf.boot = boot;
    if (ns !== undefined) cachedSelf.ns = ns;
    if (tns !== undefined) cachedSelf.tns = tns;
    const tboot = tns === undefined || tns === INITIAL_TIME_NAMESPACE ? undefined : bootTimeOffset();
    if (tboot !== undefined) cachedSelf.tboot = tboot;
  }
  return cachedSelf;
}

let cachedMachineSelf: ProcessIdentity | undefined;
/** The owner identity plus the machine's names: what a lock record carries. */
export function ownMachineIdentity(): ProcessIdentity {
  if (!cachedMachineSelf) {
    cachedMachineSelf = { ...ownIdentity() };
    const machine = machineId();
    if (machine !== undefined) cachedMachineSelf.machine = machine;
    const host = hostName();
    if (host !== undefined) cachedMachineSelf.host = host; // no name: the boot id still decides
  }
  return cachedMachineSelf;
}

/**
 * The machine's name, as gethostname(2) answers it. Linux shows the same name (its UTS
 * namespace's) in /proc; reading it there spares every take and release loading node:os.
 */
function hostName(): string | undefined {
  if (process.platform === "linux") {
    try {
      const name = readFileSync("/proc/sys/kernel/hostname", "utf8").trim();
      if (name !== "") return name;
    } catch {
      // no /proc: ask Node
    }
  }
  try {
    return os().hostname();
  } catch {
    return undefined;
  }
}

let cachedMachineId: string | null | undefined;
function machineId(): string | undefined {
  if (cachedMachineId === undefined) {
    cachedMachineId = null;
    for (const path of ["/etc/machine-id", "/var/lib/dbus/machine-id"]) {
      try {
        const text = readFileSync(path, "utf8").trim();
        if (text !== "") {
          cachedMachineId = text;
          break;
        }
      } catch {
        // try the next
      }
    }
  }
  return cachedMachineId ?? undefined;
}

function pidNamespace(): string | undefined {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return undefined;
  }
}

function timeNamespace(): string | undefined {
  try {
    return readlinkSync("/proc/self/ns/time");
  } catch {
    return undefined; // a kernel before 5.6: no time namespaces, one clock for all
  }
}

/** The initial time namespace's inode (PROC_TIME_INIT_INO), whose offsets are 0. */
const INITIAL_TIME_NAMESPACE = "time:[4026531834]";

/** This process's time namespace's boot-time offset in nanoseconds, as a decimal; undefined where it cannot be read. */
function bootTimeOffset(): string | undefined {
  try {
    const [, seconds, nanoseconds] = /^boottime\s+(-?\d+)\s+(\d+)$/m.exec(readFileSync("/proc/self/timens_offsets", "utf8")) ?? [];
    if (seconds === undefined || nanoseconds === undefined) return undefined;
    return String(BigInt(seconds) * 1_000_000_000n + BigInt(nanoseconds));
  } catch {
    return undefined;
  }
}

/** The boot-time offset of an identity's time namespace, as a BigInt; undefined where it did not say. */
function offsetOf(identity: ProcessIdentity): bigint | undefined {
  if (identity.tns === INITIAL_TIME_NAMESPACE) return 0n;
  try {
    return identity.tboot === undefined ? undefined : BigInt(identity.tboot);
  } catch {
    return undefined; // not a number: the record says nothing usable
  }
}

/**
 * The owner's start time on the clock /proc shows this process (ticks since boot), or undefined
 * where that cannot be known. /proc shows a process's start time shifted by the boot offset of the
 * reader's time namespace (fs/proc/array.c: timens_add_boottime_ns), so an owner of another time
 * namespace (`unshare -T`, some sandboxes) recorded it shifted by its own offset: the difference of
 * the two offsets, in clock ticks (USER_HZ, 100 on every architecture Node runs on), moves it onto
 * ours. `slack`: how many ticks a start time so moved may be off (the offsets need not be whole
 * ticks, and each side rounds down). An owner that did not say (an earlier version's record, or
 * one whose offset could not be read) is compared as it always was where its namespace is ours,
 * and not at all where it is another.
 */
function startOnOwnClock(owner: ProcessIdentity & { start: number }): { start: number; slack: number } | undefined {
  const self = ownIdentity();
  if (owner.tns === undefined || self.tns === undefined || owner.tns === self.tns) return { start: owner.start, slack: 0 };
  const theirs = offsetOf(owner);
  const ours = offsetOf(self);
  if (theirs === undefined || ours === undefined) return undefined;
  return { start: owner.start + Number((ours - theirs) / 10_000_000n), slack: 1 };
}

/** Whether a process that started at `start` (ticks, on this process's clock) is the owner. */
function startsAsOwner(owner: ProcessIdentity & { start: number }, start: number): boolean | undefined {
  if (typeof owner.start !== "number") return false; // a record's garbled start time matches no process (as it never did)
  const moved = startOnOwnClock(owner);
  return moved === undefined ? undefined : Math.abs(start - moved.start) <= moved.slack;
}

/**
 * Whether the owner may still be running. When in doubt the answer is yes (a lock is then waited
 * for, never broken): with `hidepid` another user's process is invisible in /proc but answers
 * kill(0) with EPERM. An owner in another pid namespace is looked up there (inOtherNamespace).
 */
export function isAlive(owner: ProcessIdentity): boolean {
  return livenessOf(owner) !== "dead";
}

/**
 * "elsewhere" for an owner on another kernel (another boot id): another machine, or this one
 * before a reboot. Only a lease on the filesystem can free what it holds (src/protocol/lock.ts).
 */
export function livenessOf(owner: ProcessIdentity): Liveness {
  if (!Number.isInteger(owner.pid) || owner.pid <= 0) return "dead";
  const self = ownIdentity();
  if (owner.boot !== undefined && self.boot !== undefined && owner.boot !== self.boot) return "elsewhere";
  if (owner.ns !== undefined && self.ns !== undefined && owner.ns !== self.ns) return inOtherNamespace(owner as ProcessIdentity & { ns: string }, self.ns);
  // A sandbox of its own pid namespace made without a /proc of its own (`unshare -p -f`, bwrap
  // without --proc): /proc/<pid> there is another process, of the namespace /proc was mounted for.
  // The owner is looked up by the pid it has in ours (NSpid), as one of another namespace is.
  if (self.ns !== undefined && !procIsOwn()) return inOtherNamespace({ ...owner, ns: self.ns }, procNamespace(), true);
  return isAliveHere(owner) ? "alive" : "dead";
}

let cachedProcIsOwn: boolean | undefined;
/** Whether /proc shows this process's own pid namespace: `/proc/self` is our pid there. */
function procIsOwn(): boolean {
  if (cachedProcIsOwn === undefined) {
    try {
      cachedProcIsOwn = readlinkSync("/proc/self") === String(process.pid);
    } catch {
      cachedProcIsOwn = true; // no /proc: kill(0) alone, as elsewhere
    }
  }
  return cachedProcIsOwn;
}

/** The pid namespace /proc was mounted for: its pid 1's. Undefined where that cannot be read. */
function procNamespace(): string | undefined {
  try {
    return readlinkSync("/proc/1/ns/pid");
  } catch {
    return undefined;
  }
}

/** The initial pid namespace's inode (PROC_PID_INIT_INO): a process in it sees every process of the machine. */
const INITIAL_PID_NAMESPACE = "pid:[4026531836]";

/**
 * An owner in another pid namespace (a sandbox or container sharing the claims directory): looked
 * up among the processes of that namespace this one sees, by the pid it has there (the last of
 * NSpid in /proc/<pid>/status). Found: alive (its start time is not compared: a time namespace
 * shifts it). Dead only where this process sees every process, each of them readable: in the
 * initial pid namespace, /proc without `hidepid`, no entry it could not read (another user's, a
 * kernel without NSpid): the sandbox is gone, or the owner in it. Otherwise elsewhere, as an owner
 * on another machine: its lock holds for a lease.
 */
function inOtherNamespace(owner: ProcessIdentity & { ns: string }, seen: string | undefined, sameClock = false): Liveness {
  // A lock waited for asks again every few milliseconds: /proc is read once a second per owner.
  const key = `${owner.ns} ${owner.pid} ${owner.start}`;
  const known = lookedUp.get(key);
  if (known !== undefined && Date.now() - known.at < 1000) return known.liveness;
  const liveness = lookUpInNamespace(owner, seen, sameClock);
  lookedUp.set(key, { liveness, at: Date.now() });
  return liveness;
}

const lookedUp = new Map<string, { liveness: Liveness; at: number }>();

/**
 * `seen`: the pid namespace whose processes /proc lists. `sameClock`: the owner is of this
 * process's own namespace, so its start time is on the clock /proc shows ours on, and a process
 * with its pid that started at another time is not it (a pid used again).
 */
function lookUpInNamespace(owner: ProcessIdentity & { ns: string }, seen: string | undefined, sameClock: boolean): Liveness {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return "alive"; // no /proc: in doubt
  }
  let unread = false;
  for (const pid of pids) {
    try {
      if (readlinkSync(`/proc/${pid}/ns/pid`) !== owner.ns) continue;
      const nspid = /^NSpid:(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]?.trim().split(/\s+/);
      if (nspid === undefined) unread = true; // a kernel without NSpid cannot tell
      else if (Number(nspid.at(-1)) === owner.pid) {
        if (!sameClock || owner.start === undefined) return "alive";
        const start = processStartTime(Number(pid));
        if (start === undefined ? isZombie(Number(pid)) !== true : startsAsOwner({ ...owner, start: owner.start }, start) !== false) return "alive";
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") unread = true; // not ours to read: it may be the one
    }
  }
  return seen === INITIAL_PID_NAMESPACE && !unread && !procHidesProcesses() ? "dead" : "elsewhere";
}

/** Whether /proc is mounted with `hidepid` (other users' processes not listed at all). */
function procHidesProcesses(): boolean {
  const mounts = readMounts();
  return mounts === undefined || mounts.some((mount) => mount.point === "/proc" && /(^|,)hidepid=(?!0\b|off\b)/.test(mount.options));
}

function isAliveHere(owner: ProcessIdentity): boolean {
  if (!signalable(owner.pid)) return false;
  if (owner.start === undefined) return true;
  // Its pid is there, but the start times cannot be compared (another time namespace's, whose
  // offset the record does not give): it may be the owner (a pid used again is then waited for,
  // never passed over), unless it has exited (a zombie).
  if (startOnOwnClock({ ...owner, start: owner.start }) === undefined) return isZombie(owner.pid) !== true;
  const start = processStartTime(owner.pid);
  if (start !== undefined) return startsAsOwner({ ...owner, start: owner.start }, start) === true;
  // No start time: a zombie (it has exited), or /proc hides it (hidepid): then it exists, and we
  // cannot tell whether it is the same process.
  return isZombie(owner.pid) !== true;
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isZombie(pid: number): boolean | undefined {
  const stat = readProcessStat(pid);
  return stat ? isExited(stat) : undefined;
}
