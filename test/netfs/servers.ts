// Real network filesystems for the netfs suite, set up from Debian packages by the tests
// themselves: sshfs (SFTP over ssh to an sshd on 127.0.0.1) and GlusterFS (a one-node volume,
// glusterd and its brick bound to 127.0.0.1). Each is mounted twice, so two "clients" see one
// directory through two separate caches, as two machines would. Everything started here is
// stopped by `stop()`; nothing listens on anything but 127.0.0.1.
//
// Run by hand to experiment: `node --import tsx test/netfs/servers.ts sshfs|gluster` mounts and
// waits for Ctrl-C.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface NetworkMounts {
  kind: "sshfs" | "gluster";
  /** The shared directory through the first and the second mount. */
  a: string;
  b: string;
  /** Where the mount points live (not on the network filesystem). */
  root: string;
  /** Mounts one more client of the same directory at `at`, in this mount namespace. */
  mountAnother(at: string, options?: string[]): void;
  /** GlusterFS only: sets a volume option. */
  setVolumeOption?(key: string, value: string): void;
  stop(): void;
}

export function missingPrerequisite(): string | undefined {
  if (process.platform !== "linux") return "not Linux";
  if (process.getuid?.() !== 0) return "not root";
  if (!existsSync("/dev/fuse")) return "no /dev/fuse";
  return undefined;
}

const PACKAGES: Record<string, string> = {
  sshfs: "sshfs",
  sshd: "openssh-server",
  "ssh-keygen": "openssh-client",
  glusterd: "glusterfs-server",
  "mount.glusterfs": "glusterfs-client",
  faketime: "faketime",
};

/** Installs the Debian packages that provide the given programs, once, when one is missing. */
export function installPrograms(programs: string[]): void {
  const missing = programs.filter((program) => !has(program));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((program) => PACKAGES[program] as string))];
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const install = () => spawnSync("apt-get", ["install", "-y", "-q", ...packages], { env, stdio: "ignore" }).status;
  if (install() !== 0) {
    spawnSync("apt-get", ["update", "-q"], { env, stdio: "ignore" });
    if (install() !== 0) throw new Error(`apt-get install ${packages.join(" ")} failed`);
  }
}

function has(program: string): boolean {
  return ["/usr/sbin", "/usr/bin", "/sbin", "/bin"].some((dir) => existsSync(join(dir, program)));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function unmount(path: string): void {
  for (let i = 0; i < 20; i += 1) {
    if (spawnSync("umount", [path], { stdio: "ignore" }).status === 0) return;
    if (spawnSync("mountpoint", ["-q", path]).status !== 0) return;
    spawnSync("sleep", ["0.2"]);
  }
  spawnSync("umount", ["-l", path], { stdio: "ignore" });
}

/**
 * The mount options that make a fresh claim visible to every client at once (docs/RELIABILITY.md,
 * "Across machines"): no directory cache in sshfs, no kernel name or attribute caching.
 */
export const SSHFS_OPTIONS = ["dir_cache=no", "entry_timeout=0", "negative_timeout=0", "attr_timeout=0"];

export async function startSshfs(options: { mountOptions?: string[] } = {}): Promise<NetworkMounts> {
  installPrograms(["sshfs", "sshd", "ssh-keygen", "faketime"]); // faketime: the skewed clocks of machines.ts
  const root = mkdtempSync("/tmp/claims-sshfs-");
  const port = await freePort();
  const served = join(root, "served");
  mkdirSync(served, { mode: 0o700 });
  mkdirSync("/run/sshd", { recursive: true });
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(root, "host_key")]);
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(root, "client_key")]);
  writeFileSync(join(root, "authorized_keys"), readFileSync(join(root, "client_key.pub")), { mode: 0o600 });
  writeFileSync(
    join(root, "sshd_config"),
    [
      `ListenAddress 127.0.0.1:${port}`,
      `HostKey ${join(root, "host_key")}`,
      `AuthorizedKeysFile ${join(root, "authorized_keys")}`,
      "PermitRootLogin prohibit-password",
      "PasswordAuthentication no",
      "UsePAM no",
      `PidFile ${join(root, "sshd.pid")}`,
      "Subsystem sftp internal-sftp",
      "StrictModes no",
      "MaxStartups 100",
      "MaxSessions 100",
      "",
    ].join("\n"),
  );
  const sshd = spawn("/usr/sbin/sshd", ["-D", "-e", "-f", join(root, "sshd_config")], { stdio: "ignore" });
  for (let i = 0; i < 100; i += 1) {
    if (spawnSync("bash", ["-c", `exec 3<>/dev/tcp/127.0.0.1/${port}`], { stdio: "ignore" }).status === 0) break;
    await sleep(50);
  }
  const mountOptions = options.mountOptions ?? SSHFS_OPTIONS;
  const mounted: string[] = [];
  // A relative `at` is mounted as typed from root (`sshfs host:dir mnt`), as users often do.
  const mountAnother = (at: string, extra: string[] = mountOptions) => {
    mkdirSync(resolve(root, at), { recursive: true });
    const args = [
      `root@127.0.0.1:${served}`,
      at,
      "-p",
      String(port),
      "-o",
      [`IdentityFile=${join(root, "client_key")}`, "StrictHostKeyChecking=no", "UserKnownHostsFile=/dev/null", "LogLevel=ERROR", "allow_other", ...extra].join(","),
    ];
    execFileSync("sshfs", args, { stdio: "ignore", cwd: root });
    mounted.push(resolve(root, at));
  };
  const a = join(root, "a");
  const b = join(root, "b");
  try {
    mountAnother(a);
    mountAnother(b);
  } catch (error) {
    sshd.kill();
    throw error;
  }
  return {
    kind: "sshfs",
    a,
    b,
    root,
    mountAnother,
    stop() {
      for (const path of mounted.reverse()) unmount(path);
      stopChild(sshd);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function stopChild(child: ChildProcess): void {
  if (child.exitCode === null) child.kill("SIGTERM");
}

/**
 * The volume options that make a fresh claim visible to every client at once and mtimes come from
 * the server's clock (docs/RELIABILITY.md, "Across machines").
 */
export const GLUSTER_VOLUME_OPTIONS: Array<[string, string]> = [
  ["features.ctime", "off"],
  ["performance.stat-prefetch", "off"],
  ["performance.quick-read", "off"],
  ["performance.io-cache", "off"],
  ["performance.readdir-ahead", "off"],
  ["performance.open-behind", "off"],
  ["performance.write-behind", "off"],
  ["performance.nl-cache", "off"],
];
export const GLUSTER_MOUNT_OPTIONS = ["attribute-timeout=0", "entry-timeout=0", "negative-timeout=0"];

export async function startGluster(options: { volumeOptions?: Array<[string, string]>; mountOptions?: string[] } = {}): Promise<NetworkMounts> {
  installPrograms(["glusterd", "mount.glusterfs", "faketime"]);
  const root = mkdtempSync("/tmp/claims-gluster-");
  const volume = `claims${process.pid}`;
  const brick = join(root, "brick");
  mkdirSync(brick);
  // glusterd listens on 24007; bound to loopback through its own volfile.
  const volfile = join(root, "glusterd.vol");
  writeFileSync(
    volfile,
    [
      "volume management",
      "    type mgmt/glusterd",
      `    option working-directory ${join(root, "glusterd")}`,
      "    option transport-type socket",
      "    option transport.socket.bind-address 127.0.0.1",
      "    option transport.socket.listen-port 24007",
      "    option ping-timeout 0",
      "    option event-threads 1",
      "    option base-port 49152",
      "end-volume",
      "",
    ].join("\n"),
  );
  mkdirSync(join(root, "glusterd"));
  const pidFile = join(root, "glusterd.pid");
  execFileSync("glusterd", ["-f", volfile, "-p", pidFile, "-l", join(root, "glusterd.log")], { stdio: "ignore" });
  const gluster = (...args: string[]) => execFileSync("gluster", ["--mode=script", ...args], { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  for (let i = 0; i < 100; i += 1) {
    try {
      gluster("volume", "list");
      break;
    } catch {
      await sleep(100);
    }
  }
  // gluster refuses 127.0.0.1 as a brick's host by its spelling; this machine's name resolves to
  // loopback here, and the brick process inherits glusterd's bind address (127.0.0.1).
  const host = hostname();
  const stopServers = () => {
    try {
      gluster("volume", "stop", volume, "force");
      gluster("volume", "delete", volume);
    } catch {
      // stopped with glusterd below either way
    }
    // glusterd and the brick process were started for this volume only; stopped by their pids.
    for (const file of [...pidFiles(join(root, "glusterd")), pidFile]) {
      const pid = Number(readFileSync(file, "utf8"));
      try {
        if (pid > 0) process.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  };
  try {
    gluster("volume", "create", volume, `${host}:${brick}`, "force");
    for (const [key, value] of options.volumeOptions ?? GLUSTER_VOLUME_OPTIONS) gluster("volume", "set", volume, key, value);
    gluster("volume", "start", volume);
  } catch (error) {
    stopServers();
    throw error;
  }
  const mountOptions = options.mountOptions ?? GLUSTER_MOUNT_OPTIONS;
  const mounted: string[] = [];
  const mountAnother = (at: string, extra: string[] = mountOptions) => {
    mkdirSync(at, { recursive: true });
    const args = ["-t", "glusterfs", ...(extra.length ? ["-o", extra.join(",")] : []), `${host}:/${volume}`, at];
    for (let i = 0; ; i += 1) {
      if (spawnSync("mount", args, { stdio: "ignore" }).status === 0 && spawnSync("mountpoint", ["-q", at]).status === 0) break;
      if (i > 50) throw new Error(`mount -t glusterfs ${volume} ${at} failed`);
      spawnSync("sleep", ["0.2"]);
    }
    mounted.push(at);
  };
  const top = join(root, "mnt-a");
  const other = join(root, "mnt-b");
  try {
    mountAnother(top);
    mountAnother(other);
    mkdirSync(join(top, "claims"), { mode: 0o700 });
  } catch (error) {
    for (const path of mounted.reverse()) unmount(path);
    stopServers();
    throw error;
  }
  return {
    kind: "gluster",
    a: join(top, "claims"),
    b: join(other, "claims"),
    root,
    mountAnother,
    setVolumeOption: (key, value) => void gluster("volume", "set", volume, key, value),
    stop() {
      for (const path of mounted.reverse()) unmount(path);
      stopServers();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function pidFiles(dir: string): string[] {
  const found = spawnSync("find", [dir, "-name", "*.pid"], { encoding: "utf8" }).stdout ?? "";
  return found.split("\n").filter((line) => line !== "");
}

if (process.argv[1]?.endsWith("servers.ts")) {
  const kind = process.argv[2] === "gluster" ? "gluster" : "sshfs";
  const mounts = kind === "gluster" ? await startGluster() : await startSshfs();
  console.log(JSON.stringify({ a: mounts.a, b: mounts.b }));
  const stop = () => {
    mounts.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  setInterval(() => undefined, 1 << 30);
}

/**
 * A case-insensitive, case-preserving file system (as macOS's and Windows' are by default), from
 * test/netfs/caseless.py over FUSE (python3-fusepy): `mount` names one file as `Src/A.ts` and as
 * `src/a.ts`, with one inode. Stopped (unmounted) by `stop()`.
 */
/** `lookupInodes`: inode numbers made per name looked up (exFAT or FAT through FUSE), not the files' own. */
export async function startCaseless({ lookupInodes = false }: { lookupInodes?: boolean } = {}): Promise<{ mount: string; stop(): void }> {
  if (!existsSync("/usr/lib/python3/dist-packages/fusepy.py")) {
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const install = () => spawnSync("apt-get", ["install", "-y", "-q", "python3-fusepy"], { env, stdio: "ignore" }).status;
    if (install() !== 0) {
      spawnSync("apt-get", ["update", "-q"], { env, stdio: "ignore" });
      if (install() !== 0) throw new Error("apt-get install python3-fusepy failed");
    }
  }
  const root = mkdtempSync("/tmp/claims-caseless-");
  const [source, mount] = [join(root, "source"), join(root, "mount")];
  mkdirSync(source);
  mkdirSync(mount);
  // Debian's python3, where python3-fusepy is installed (not whatever python3 comes first on PATH).
  const server = spawn("/usr/bin/python3", [fileURLToPath(new URL("caseless.py", import.meta.url)), source, mount, ...(lookupInodes ? ["--lookup-inodes"] : [])], { stdio: "ignore" });
  for (let i = 0; i < 100 && spawnSync("mountpoint", ["-q", mount]).status !== 0; i += 1) {
    if (server.exitCode !== null) break;
    await sleep(50);
  }
  if (spawnSync("mountpoint", ["-q", mount]).status !== 0) {
    stopChild(server);
    rmSync(root, { recursive: true, force: true });
    throw new Error("the caseless file system did not mount");
  }
  return {
    mount,
    stop() {
      unmount(mount);
      stopChild(server);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
