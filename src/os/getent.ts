// Users and groups by number, as the system's name service knows them (getent: /etc/passwd,
// /etc/group, LDAP, …), for sentences that name them.
import { statSync } from "node:fs";
import { createRequire } from "node:module";

/** node:child_process, loaded only when a name is looked up: the hook's bundle reaches this file, and loading it costs every hook call ~1.7 ms. */
function spawnSync(...args: Parameters<typeof import("node:child_process").spawnSync>): ReturnType<typeof import("node:child_process").spawnSync> {
  return (createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process")).spawnSync(...args);
}

/** One line of getent's answer for `key` in `database` (group, passwd), split at its colons; undefined where there is none (or no getent). */
export function getent(database: "group" | "passwd", key: number): string[] | undefined {
  const answer = spawnSync("getent", [database, String(key)], { encoding: "utf8", timeout: 5_000 });
  if (answer.status !== 0 || typeof answer.stdout !== "string") return undefined;
  const line = answer.stdout.split("\n")[0] ?? "";
  return line === "" ? undefined : line.split(":");
}

/** The user name of `uid`, or `uid <n>` where the system knows none. */
export function userName(uid: number): string {
  return getent("passwd", uid)?.[0] || `uid ${uid}`;
}

/**
 * The owner's name when this process is root and `dir` is another user's owner-only directory
 * (not group-shared: 2770): what root writes there is root's, mode 0600, and that user's sessions
 * cannot read it (a claim granted to their waiter included). Undefined otherwise, or when `dir`
 * cannot be looked at.
 */
export function ownerRootWouldLockOut(dir: string): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    return undefined;
  }
  if (stat.uid === 0 || (stat.mode & 0o2070) === 0o2070) return undefined;
  return userName(stat.uid);
}
