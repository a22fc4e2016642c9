// Users and groups by number, as the system's name service knows them (getent: /etc/passwd,
// /etc/group, LDAP, …), for sentences that name them.
import { spawnSync } from "node:child_process";

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
