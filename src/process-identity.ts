// Who is running, and is that process still alive? Used for the per-claim mutex (src/lock.ts):
// a mutex is broken only when its owner is provably dead, never because it is old, since an old
// owner may merely be paused and would wake to finish its write.
//
// On Linux a pid is paired with its start time (field 22 of /proc/<pid>/stat) and the boot id, so
// a reused pid or a reboot is not mistaken for the original owner. Elsewhere we fall back to
// `kill(pid, 0)`.
import { readFileSync } from "node:fs";

export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks since boot (Linux), when known. */
  start?: number;
  /** /proc/sys/kernel/random/boot_id (Linux), when known. */
  boot?: string;
}

function readStatFields(pid: number | "self"): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces or parentheses.
  return text.slice(text.lastIndexOf(")") + 2).split(" ");
}

/** Field 22 (starttime) of a running process; fields after the command name start at field 3. A zombie (state Z or X) has exited. */
export function processStartTime(pid: number | "self"): number | undefined {
  const fields = readStatFields(pid);
  if (!fields || fields[0] === "Z" || fields[0] === "X") return undefined;
  const value = Number(fields[22 - 3]);
  return Number.isFinite(value) ? value : undefined;
}

/** Field 6 (session id) of this process: the pid of its session leader, usually the terminal's shell. */
export function sessionLeader(): number | undefined {
  const fields = readStatFields("self");
  const value = fields ? Number(fields[6 - 3]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : undefined;
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
    if (start !== undefined) cachedSelf.start = start;
    if (boot !== undefined) cachedSelf.boot = boot;
  }
  return cachedSelf;
}

export function isAlive(owner: ProcessIdentity): boolean {
  if (!Number.isInteger(owner.pid) || owner.pid <= 0) return false;
  const boot = bootId();
  if (owner.boot !== undefined && boot !== undefined && owner.boot !== boot) return false;
  if (owner.start !== undefined && boot !== undefined) {
    const start = processStartTime(owner.pid);
    return start === owner.start;
  }
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
