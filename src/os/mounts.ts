// The mount table of this process's mount namespace, as the kernel lists it in
// /proc/self/mountinfo (proc(5)): which file system shows which of its directories where.
import { readFileSync } from "node:fs";
import { monotonicMs } from "./lease.js";

export interface Mount {
  /** The mount's id (field 1), and the id of the mount it is mounted on (field 2). */
  id: string;
  parent: string;
  /** The file system's device, `major:minor` (field 3): two mounts of one file system share it. */
  device: string;
  /** The directory of that file system the mount shows (field 4): `/`, or a bind mount's source. */
  root: string;
  /** Where it is shown (field 5). */
  point: string;
  /** The file system's type and source (after ` - `), and the mount's and the file system's options. */
  type: string;
  source: string;
  options: string;
}

/** A table read less than this long ago is read again: a call sees the mounts of its own moment, as a short process does. */
const FRESH_MS = 1000;
let cached: { mounts: Mount[] | undefined; at: number } | undefined;

/**
 * The mounts, or undefined when /proc cannot be read: read at most once a second (a take looks in
 * several claims directories, each asking; a long-lived MCP server reads again for a later call).
 * Spaces, tabs, newlines and backslashes in the paths are octal escapes there (`\040`).
 */
export function readMounts(): Mount[] | undefined {
  const now = monotonicMs(); // not performance.now(): its first touch loads perf_hooks (about 1.4 ms of a take)
  if (cached !== undefined && now - cached.at < FRESH_MS) return cached.mounts;
  let text: string | undefined;
  try {
    text = readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    text = undefined;
  }
  const mounts = text === undefined ? undefined : parseMounts(text);
  cached = { mounts, at: now };
  return mounts;
}

export function parseMounts(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split("\n")) {
    // Optional fields (`shared:1`) lie between the sixth and the ` - ` before the type.
    const [left, right = ""] = line.split(" - ");
    const fields = (left ?? "").split(" ");
    if (fields.length < 5) continue;
    const [type = "", source = "", superOptions = ""] = right.split(" ");
    mounts.push({
      id: fields[0] as string,
      parent: fields[1] as string,
      device: fields[2] as string,
      root: unescapeOctal(fields[3] as string),
      point: unescapeOctal(fields[4] as string),
      type,
      source: unescapeOctal(source),
      options: `${fields[5] ?? ""},${superOptions}`,
    });
  }
  return mounts;
}

function unescapeOctal(field: string): string {
  return field.includes("\\") ? field.replace(/\\([0-7]{3})/g, (_, code: string) => String.fromCharCode(Number.parseInt(code, 8))) : field;
}
