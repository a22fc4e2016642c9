// Users and groups by number, as the system's name service knows them (getent: /etc/passwd,
// /etc/group, LDAP, …), for sentences that name them.
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
