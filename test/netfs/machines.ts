// Processes as if on other machines: a second "machine" is a process with its own mount namespace
// and its own boot id (a file bind-mounted over /proc/sys/kernel/random/boot_id inside that
// namespace only), and optionally its own clock (libfaketime). Races between real `claims`
// processes through the two mounts of one network directory, released together by a barrier.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BIN, cleanEnv, ROOT, type RunResult } from "../helpers.js";

export interface Machine {
  /** Prefix of the command line: runs the rest on this machine. */
  wrap(command: string[]): string[];
  name: string;
}

/** This machine, with an optional clock offset in seconds (negative: behind). */
export function thisMachine(clockOffsetSeconds = 0): Machine {
  return { name: "this machine", wrap: (command) => withClock(command, clockOffsetSeconds) };
}

/** Another machine: its own mount namespace and boot id, and an optional clock offset. */
export function otherMachine(scratch: string, clockOffsetSeconds = 0): Machine {
  const bootFile = join(scratch, `boot-id-${randomUUID()}`);
  writeFileSync(bootFile, `${randomUUID()}\n`);
  return {
    name: "another machine",
    wrap: (command) => [
      "unshare",
      "--mount",
      "--propagation",
      "private",
      "--",
      "sh",
      "-c",
      'mount --bind "$0" /proc/sys/kernel/random/boot_id && exec "$@"',
      bootFile,
      ...withClock(command, clockOffsetSeconds),
    ],
  };
}

function withClock(command: string[], offsetSeconds: number): string[] {
  if (offsetSeconds === 0) return command;
  return ["faketime", "-f", `${offsetSeconds > 0 ? "+" : ""}${offsetSeconds}s`, ...command];
}

const DIST_URL = pathToFileURL(join(ROOT, "dist") + "/").href;

const BARRIER_MODULE = `
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
for (const module of ["cli/main.js", "commands/take.js", "commands/check.js", "commands/release.js"]) {
  try { await import(new URL(module, process.env.RACE_DIST).href); } catch {}
}
const barrier = process.env.RACE_BARRIER;
writeFileSync(join(barrier, "ready-" + process.pid), "");
const cell = new Int32Array(new SharedArrayBuffer(4));
const deadline = Date.now() + 60000;
while (!existsSync(join(barrier, "go")) && Date.now() < deadline) Atomics.wait(cell, 0, 0, 1);
`;

export interface Job {
  machine: Machine;
  args: string[];
  env?: Record<string, string>;
}

/** Runs `claims` on a machine; resolves with its exit code and output, and how long it took. */
export function run(machine: Machine, args: string[], env: Record<string, string> = {}): Promise<RunResult & { ms: number }> {
  const command = machine.wrap([process.execPath, BIN, ...args]);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command[0] as string, command.slice(1), { env: cleanEnv({ FAKETIME_DONT_FAKE_MONOTONIC: "1", ...env }), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr, ms: performance.now() - started }));
  });
}

let races = 0;

/** Starts every job as its own process, lets them all go at once, and waits for all of them. */
export async function race(scratch: string, jobs: Job[]): Promise<RunResult[]> {
  const barrier = join(scratch, `barrier-${++races}`);
  mkdirSync(barrier, { recursive: true });
  const preload = join(scratch, "barrier.mjs");
  if (!existsSync(preload)) writeFileSync(preload, BARRIER_MODULE);
  const env = { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}`, RACE_DIST: DIST_URL, RACE_BARRIER: barrier };
  let exited = 0;
  const running = jobs.map((job) =>
    run(job.machine, job.args, { ...env, ...job.env }).then((result) => {
      exited += 1;
      return result;
    }),
  );
  const deadline = Date.now() + 60_000;
  while (exited === 0 && Date.now() < deadline) {
    if (readdirSync(barrier).filter((name) => name.startsWith("ready-")).length === jobs.length) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  writeFileSync(join(barrier, "go"), "");
  return Promise.all(running);
}

/**
 * A process that holds the take lock of `dir` (through the library, as a take would) for
 * `holdMs`, or until killed when `holdMs` is 0. Resolves once it is inside.
 */
export async function holdTakeLock(machine: Machine, dir: string, scratch: string, holdMs: number): Promise<{ pid: number; done: Promise<number> }> {
  const inside = join(scratch, `inside-${randomUUID()}`);
  const script = `
import { writeFileSync } from "node:fs";
import { Store } from ${JSON.stringify(new URL("protocol/store.js", DIST_URL).href)};
const cell = new Int32Array(new SharedArrayBuffer(4));
new Store(${JSON.stringify(dir)}).withTakeLock(() => {
  writeFileSync(${JSON.stringify(inside)}, String(process.pid));
  Atomics.wait(cell, 0, 0, ${holdMs > 0 ? holdMs : 3_600_000});
});
`;
  const command = machine.wrap([process.execPath, "--input-type=module", "-e", script]);
  const child = spawn(command[0] as string, command.slice(1), { env: cleanEnv(), stdio: "ignore" });
  const done = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? -1)));
  const deadline = Date.now() + 30_000;
  while (!existsSync(inside)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("the lock holder never got inside");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { pid: child.pid as number, done };
}
