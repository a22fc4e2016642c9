// What the claims directory lives on, and that filesystem's clock.
//
// On a local disk the filesystem's clock is the kernel's, and nothing here costs more than one
// statfs(2) unless a claim looks stale: then it is read (a process may run on a clock of its own,
// under libfaketime, and must not take over a fresh claim by it). On a network filesystem (NFS, SMB, Ceph, a FUSE one such as sshfs or GlusterFS)
// the clients' clocks may disagree by minutes, and heartbeats written by one are judged by
// another. So every verb there reads the filesystem's own clock once: it creates a probe file and
// reads back the mtime the server stamped on it, and uses that clock for every stamp it writes and
// every age it judges (docs/PROTOCOL.md, "Across machines"), the way clock-skew-immune lock tools
// compare server mtimes only.
import { closeSync, constants, existsSync, fstatSync, openSync, realpathSync, statfsSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { crashPoint } from "./crash.js";
import { tempName } from "./files.js";
import { readMounts, type Mount } from "./mounts.js";
import { os } from "./lazy-os.js";

export interface Filesystem {
  /** The kernel's name for it: "ext4", "nfs", "fuse.sshfs", ... */
  type: string;
  /** Shared with other machines, or possibly so: its clock and caches are not this machine's. */
  network: boolean;
  /** The mount point and its source, for FUSE and network filesystems (from /proc/self/mountinfo). */
  mountPoint?: string;
  source?: string;
}

// statfs(2) f_type magic numbers (linux/magic.h) of filesystems another machine can share.
const NETWORK_MAGIC: Record<number, string> = {
  0x6969: "nfs",
  0x517b: "smb",
  0xff534d42: "cifs",
  0xfe534d42: "smb2",
  0x00c36400: "ceph",
  0x5346414f: "afs",
  0x6b414653: "afs",
  0x7461636f: "ocfs2",
  0x01161970: "gfs2",
  0x73757245: "coda",
  0x01021997: "9p",
  0x0bd00bd0: "lustre",
  0x65735546: "fuse", // virtiofs too (Lima, devcontainers): a host's folder, on the host's clock
  0x786f4256: "vboxsf", // VirtualBox's shared folders
  0x47504653: "gpfs",
};
const LOCAL_MAGIC: Record<number, string> = {
  0xef53: "ext4",
  0x58465342: "xfs",
  0x9123683e: "btrfs",
  0x01021994: "tmpfs",
  0x794c7630: "overlay",
  0x2fc12fc1: "zfs",
  0xf2f52010: "f2fs",
};

const cache = new Map<string, Filesystem>();

/** The filesystem of `dir` (or of its nearest existing parent). Never throws. */
export function filesystemOf(dir: string): Filesystem {
  const known = cache.get(dir);
  if (known) return known;
  let found: Filesystem = { type: "unknown", network: false };
  for (let path = dir; ; path = join(path, "..")) {
    try {
      const type = Number(statfsSync(path).type) >>> 0;
      const network = NETWORK_MAGIC[type];
      found = network ? { type: network, network: true, ...mountOf(path) } : { type: LOCAL_MAGIC[type] ?? `0x${type.toString(16)}`, network: false };
      if (network) {
        const mounted = found.mountPoint !== undefined ? mountTypeOf(found.mountPoint) : undefined;
        if (mounted) found.type = mounted;
      }
      break;
    } catch {
      if (path === "/" || path === join(path, "..")) break;
    }
  }
  cache.set(dir, found);
  return found;
}

/** "fuse.sshfs at /mnt/x (from host:/path)", for messages. */
export function describeFilesystem(dir: string): string {
  const fs = filesystemOf(dir);
  if (!fs.network) return fs.type;
  return `${fs.type}${fs.mountPoint ? ` at ${fs.mountPoint}` : ""}${fs.source ? ` from ${fs.source}` : ""}`;
}

/** The mount that holds `path`: the longest mount point above it. */
export function mountOf(path: string): { mountPoint?: string; source?: string; options?: string } {
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // judged by the path as given
  }
  let best: Mount | undefined;
  for (const mount of readMounts() ?? []) {
    const inside = real === mount.point || real.startsWith(mount.point.endsWith("/") ? mount.point : `${mount.point}/`);
    if (inside && (!best || mount.point.length >= best.point.length)) best = mount;
  }
  return best ? { mountPoint: best.point, source: best.source, options: best.options } : {};
}

function mountTypeOf(mountPoint: string): string | undefined {
  let best: Mount | undefined;
  for (const mount of readMounts() ?? []) if (mount.point === mountPoint) best = mount;
  return best?.type;
}

/** A clock this far off the filesystem's is corrected; closer, the difference is measurement noise. */
const CLOCK_TOLERANCE_MS = 1500;

export interface ClockReading {
  /** The filesystem's clock minus this process's, in ms (0 when unmeasured, or within the tolerance). */
  offsetMs: number;
  /** False when no probe was made (a local filesystem, unless `evenLocal`) or it could not be made. */
  measured: boolean;
  /**
   * How far this process's clock read ahead of the filesystem's where that is within the tolerance,
   * so not corrected: a claim is found stale no sooner for it (src/protocol/context.ts), or a
   * clock 1.4 s ahead takes over a claim in the last 1.4 s of its lease.
   */
  aheadMs?: number;
}

/**
 * Reads the filesystem's clock: creates a probe file, reads the mtime the filesystem stamped on
 * it, removes it. The stamp may be whole seconds (sshfs) and is taken somewhere between our two
 * readings of the local clock, so the offset is taken from the middle of both windows.
 *
 * `mode`: the probe file's, asked only when a probe is made (a store's file mode may cost a stat).
 * `evenLocal`: read a local filesystem's clock too (the kernel's, which a process's own clock may
 * not be: libfaketime), by a probe in the temp directory where `dir` is not writable; otherwise
 * only a network filesystem's is read.
 */
export function readFilesystemClock(dir: string, mode: number | (() => number), evenLocal = false): ClockReading {
  const network = filesystemOf(dir).network;
  if (!evenLocal && !network) return { offsetMs: 0, measured: false };
  // A local filesystem is stamped by the kernel's clock, which is this process's unless something
  // stands between them: then the probe reads the kernel's (a file made and removed); otherwise
  // this process's clock is the kernel's, read so without one.
  if (!network && onKernelClock()) {
    crashPoint("clock-probed"); // (read: the kernel's clock, as a probe would have)
    return { offsetMs: 0, measured: true };
  }
  const reading = probeClock(dir, mode);
  if (reading.measured || network) return reading;
  // A local claims directory this process may not write (mounted read-only into a sandbox): every
  // local filesystem is stamped by the one kernel clock, so a probe in the temp directory reads it.
  const temp = os().tmpdir();
  return filesystemOf(temp).network ? reading : probeClock(temp, 0o600);
}

let preloadFile: boolean | undefined;

/**
 * Whether this process reads the kernel's real-time clock, the one a local filesystem stamps files
 * by: nothing preloaded into it that could answer for the kernel (libfaketime, by LD_PRELOAD,
 * DYLD_INSERT_LIBRARIES or /etc/ld.so.preload) and Date.now its own, not replaced (a module
 * preloaded with `--require`, fake timers). Linux's time namespaces move the monotonic and boot
 * clocks, never the real-time one.
 */
export function onKernelClock(env: Record<string, string | undefined> = process.env): boolean {
  if (env.LD_PRELOAD || env.DYLD_INSERT_LIBRARIES || !/\[native code\]/.test(Function.prototype.toString.call(Date.now))) return false;
  preloadFile ??= existsSync("/etc/ld.so.preload");
  return !preloadFile;
}

function probeClock(dir: string, mode: number | (() => number)): ClockReading {
  // Named as every temp file is (pid, pid namespace, boot): one a writer killed before its unlink
  // left is debris a sweep removes at once.
  const path = join(dir, tempName());
  let fd: number;
  const before = Date.now();
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, typeof mode === "number" ? mode : mode());
  } catch {
    return { offsetMs: 0, measured: false }; // the verb itself reports what is wrong with the directory
  }
  try {
    crashPoint("clock-probed");
    const after = Date.now();
    const stat = fstatSync(fd, { bigint: true });
    const stampMs = Number(stat.mtimeNs / 1_000_000n);
    const wholeSeconds = stat.mtimeNs % 1_000_000_000n === 0n;
    const stampMiddle = wholeSeconds ? stampMs + 500 : stampMs;
    const offsetMs = Math.round(stampMiddle - (before + after) / 2);
    if (Math.abs(offsetMs) >= CLOCK_TOLERANCE_MS) return { offsetMs, measured: true };
    return { offsetMs: 0, measured: true, ...(offsetMs < 0 && { aheadMs: -offsetMs }) };
  } catch {
    return { offsetMs: 0, measured: false };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // only a probe
    }
    try {
      unlinkSync(path);
    } catch {
      // sweep removes it
    }
  }
}
