// Shared test fixtures: a fresh temp directory per test, a fixed clock, and a way to run the
// real CLI as a user would (spawned, with a controlled environment).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const BIN = join(ROOT, "bin", "claims.js");

/** A fixed clock: 2026-08-14T21:02:11Z. */
export const T0 = Date.parse("2026-08-14T21:02:11Z");
export const SECOND = 1000;

/** A user of the group `claimsteam`, made if need be (another run may be making it at once): for tests run as root. */
export function systemUser(name: string): { uid: number; gid: number } {
  const group = "claimsteam";
  if (spawnSync("getent", ["group", group]).status !== 0) spawnSync("groupadd", [group]);
  if (spawnSync("getent", ["passwd", name]).status !== 0) spawnSync("useradd", ["-M", "-N", "-g", group, "-s", "/bin/sh", name]);
  const id = (flag: string) => Number(spawnSync("id", [flag, name], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
}

export interface Sandbox {
  /** The claims directory (not created yet). */
  dir: string;
  /** A project directory to use as cwd. */
  project: string;
  root: string;
  cleanup(): void;
}

export function sandbox(): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "claims-test-")));
  const project = join(root, "project");
  spawnSync("mkdir", ["-p", project]);
  LEFT.add(root);
  const cleanup = () => {
    rmSync(root, { recursive: true, force: true });
    LEFT.delete(root);
  };
  return { root, dir: join(root, "store"), project, cleanup };
}

// A test that fails before its cleanup leaves its sandbox: removed when the test process exits.
const LEFT = new Set<string>();
process.on("exit", () => {
  rmSync(TEST_HOME, { recursive: true, force: true });
  for (const root of LEFT) {
    try {
      rmSync(root, { recursive: true, force: true });
    } catch {
      // a directory a test made unreadable: left to the system's temp cleaning
    }
  }
});

/**
 * A home of the test run's own, for every call that names none: a pinned take of a path leaves a
 * pointer in the default claims directory (docs/PROTOCOL.md 1a), which must not be the real one's.
 * In-process library calls read process.env, so it is set there too.
 */
const TEST_HOME = realpathSync(mkdtempSync(join(tmpdir(), "claims-home-")));
process.env.HOME = TEST_HOME;
delete process.env.XDG_STATE_HOME;

/** Environment for spawned CLIs: nothing inherited that could pick a holder or directory. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: TEST_HOME };
  return { ...env, ...extra };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs bin/claims.js synchronously, stdin closed, no TTY. */
export function claims(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): RunResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cleanEnv(options.env),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** `claims <args> --dir <the box's claims directory> --holder <holder> --json`, run in the box's project. */
export function claimsIn(box: Sandbox, holder: string, ...args: string[]): RunResult {
  return claims([...args, "--dir", box.dir, "--holder", holder, "--json"], { cwd: box.project });
}

/** Starts bin/claims.js without waiting; resolves when it exits. For races between real processes. */
export function claimsAsync(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: cleanEnv(options.env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
  });
}

export function readJson(path: string): any {
  return JSON.parse(readFileSync(path, "utf8"));
}

/**
 * Writes a claim file by hand, as a shell script or another tool would, when its heartbeat says:
 * a heartbeat in the past gets that mtime, as the file of a holder that stopped beating then has
 * (a claim is stale only when its file is old too, docs/PROTOCOL.md 5). `fresh: true` keeps the
 * mtime of now, as a writer whose clock runs behind would leave it.
 */
export function writeClaimFile(dir: string, fileName: string, claim: object, options: { fresh?: boolean } = {}): void {
  spawnSync("mkdir", ["-p", dir]);
  const path = join(dir, fileName);
  writeFileSync(path, `${JSON.stringify(claim)}\n`);
  const heartbeat = Date.parse((claim as { heartbeat_at?: string }).heartbeat_at ?? "");
  if (!options.fresh && heartbeat < Date.now()) utimesSync(path, new Date(heartbeat), new Date(heartbeat));
}

export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

/** The entries of a claims directory, sorted, without its bookkeeping: the take lock file, the log, held markers, token counters, entries of paths not there when claimed. */
export function entries(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name !== ".takes" && name !== ".unresolved" && !name.startsWith(".held-") && !name.startsWith(".token-") && !/^log(-.+)?\.jsonl$/.test(name))
    .sort();
}

/** Per-test state for calling the library: a fresh sandbox, and the options that point into it. */
export interface LibraryContext {
  box: Sandbox;
  opts: { dir: string; cwd: string; env: NodeJS.ProcessEnv };
}

/** A uvu suite's before.each: fresh sandbox, no environment (no holder or directory leaks in). */
export function freshLibraryContext(context: LibraryContext): void {
  context.box = sandbox();
  context.opts = { dir: context.box.dir, cwd: context.box.project, env: {} };
}

/**
 * A CLI call in `box` as `holder` (--json), started to stop itself at the CLAIMS_STOP_AT step
 * `stop` (src/os/crash.ts): its process, its exit (code or signal) and its stdout so far.
 */
export function startedToStop(box: Sandbox, holder: string, args: string[], stop: string) {
  const child = spawn(process.execPath, [BIN, ...args, "--dir", box.dir, "--holder", holder, "--json"], { cwd: box.project, env: cleanEnv({ CLAIMS_STOP_AT: stop }) });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(`${code ?? ""}${signal ?? ""}`)));
  return { child, exited, stdout: () => stdout };
}

/** Resolves once `child` has a temp file in `dir`: it waits for the take lock (its owner record). */
export async function untilWaitingForLock(dir: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (readdirSync(dir).some((name) => name.startsWith(`.tmp-${child.pid}-`))) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the take never waited for the take lock");
}

/**
 * Resolves once `child` has stopped itself (SIGSTOP at a CLAIMS_STOP_AT step: state T in /proc).
 * Killed, and the error passed on, when it cannot be looked at (it exited first).
 */
export async function untilStopped(child: ChildProcess): Promise<void> {
  try {
    while (!/^\d+ \(.*\) T /.test(readFileSync(`/proc/${child.pid}/stat`, "utf8"))) await new Promise((resolve) => setTimeout(resolve, 20));
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
}
