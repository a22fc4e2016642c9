// Output without Node's stdout and stderr streams. process.stdout is a getter that builds a stream
// the first time it is touched (for a pipe, a net.Socket, loading the net and stream modules with
// it): about 3.5 ms of a call whose whole output is a line or two, and every agent hook pays it
// (docs/BENCHMARKS.md). Node writes to pipes and files synchronously anyway, so writing the bytes
// with writeSync is what the stream would have done, minus the stream.
import { fstatSync, writeSync } from "node:fs";

type OutFd = 1 | 2;

/** Descriptors that went through the stream once: later writes must queue behind what it holds. */
const streamed = new Set<OutFd>();

const streamOf = (fd: OutFd): NodeJS.WriteStream => (fd === 1 ? process.stdout : process.stderr);

/** Descriptors whose reader is gone (EPIPE) or that cannot be written at all. */
const gone = new Set<OutFd>();

/**
 * Writes all of `text` to standard output (1) or standard error (2). False when the output has
 * nowhere to go (the reader is gone, the descriptor is closed): the verb's answer is still its
 * exit code, and a verb that would go on printing forever (log --follow) stops.
 */
export function write(fd: OutFd, text: string): boolean {
  if (gone.has(fd)) return false;
  if (text === "") return true;
  if (streamed.has(fd)) {
    streamOf(fd).write(text);
    return true;
  }
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EAGAIN") {
      gone.add(fd);
      return false;
    }
    // A non-blocking pipe that is full (the reader is slow): the stream waits for it to drain and
    // keeps the process alive until it has. Should the reader go away meanwhile, the stream's
    // error marks the output gone instead of crashing the process.
    streamed.add(fd);
    streamOf(fd).on("error", () => gone.add(fd));
    streamOf(fd).write(bytes.subarray(done));
  }
  return true;
}

/**
 * Whether every byte written so far is with the kernel: true unless a full pipe sent some of it to
 * Node's stream, which writes the rest as the reader drains it and must be let finish.
 */
export const allWritten = (): boolean => streamed.size === 0;

export const writeOut = (text: string): boolean => write(1, text);
export const writeErr = (text: string): boolean => write(2, text);

/**
 * Whether the descriptor is a terminal. Only a character device can be one, and that is decided
 * by fstat without building the stream. /dev/null is a character device too, and where scripts
 * and git hooks send a call's output (`>/dev/null`): on Linux its major number, 1 (the memory
 * devices: null, zero, full, random), is never a terminal's, so it is answered without the stream
 * (about 2 ms: a SyncWriteStream loads node:stream). Any other character device is asked the
 * stream's isTTY (for a terminal, where a person reads, the stream's cost does not matter).
 */
export function isTerminal(fd: 0 | OutFd): boolean {
  try {
    const stat = fstatSync(fd);
    if (!stat.isCharacterDevice()) return false;
    if (process.platform === "linux" && majorOf(stat.rdev) === MEMORY_DEVICES) return false;
  } catch {
    return false;
  }
  return (fd === 0 ? process.stdin : streamOf(fd)).isTTY === true;
}

const MEMORY_DEVICES = 1;

/** The major number of a Linux device number (glibc's gnu_dev_major). */
const majorOf = (rdev: number): number => ((rdev >>> 8) & 0xfff) | (Math.floor(rdev / 2 ** 32) & ~0xfff);
