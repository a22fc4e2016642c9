// The mount table of this process's mount namespace, as the kernel lists it in
// /proc/self/mountinfo (proc(5)): which file system shows which of its directories where.
import { readFileSync } from "node:fs";

export interface Mount {
  /** The file system's device, `major:minor` (field 3): two mounts of one file system share it. */
  device: string;
  /** The directory of that file system the mount shows (field 4): `/`, or a bind mount's source. */
  root: string;
  /** Where it is shown (field 5). */
  point: string;
}

/**
 * The mounts in the kernel's order (a mount listed later over the same point hides the earlier),
 * or undefined when /proc cannot be read. Spaces, tabs, newlines and backslashes in the paths are
 * octal escapes there (`\040`).
 */
export function readMounts(): Mount[] | undefined {
  let text: string;
  try {
    text = readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return undefined;
  }
  const mounts: Mount[] = [];
  for (const line of text.split("\n")) {
    const fields = line.split(" ");
    if (fields.length < 5) continue;
    mounts.push({ device: fields[2] as string, root: unescapeOctal(fields[3] as string), point: unescapeOctal(fields[4] as string) });
  }
  return mounts;
}

function unescapeOctal(field: string): string {
  return field.includes("\\") ? field.replace(/\\([0-7]{3})/g, (_, code: string) => String.fromCharCode(Number.parseInt(code, 8))) : field;
}
