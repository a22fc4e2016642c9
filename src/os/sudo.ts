// root through sudo claims where the user who ran sudo claims. sudo resets the environment (HOME
// is root's, XDG_STATE_HOME and CLAIMS_DIR are dropped), so `sudo claims take /etc/hosts` claimed
// in root's own default claims directory, which none of that user's sessions look in: each side
// was granted the file. The user's default claims directory is used instead (what root writes
// there is made that user's: src/os/files.ts, ownAsDirectory). Only for the CLI and `claims mcp`,
// not the library, whose caller passes the environment it means.
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { getent } from "./getent.js";

/**
 * Where this process is root started by sudo from another user (SUDO_UID) and XDG_STATE_HOME names
 * no place, sets it to that user's (`<home>/.local/state`), so the default claims directory is
 * theirs. Also with CLAIMS_DIR kept (`sudo --preserve-env=CLAIMS_DIR`): a pinned take judges a
 * path, and leaves its pointer, where the sessions that pin none claim it (docs/PROTOCOL.md 1a),
 * which is the user's default directory, not root's; judged in root's, the pinned take and the
 * user's sessions were each granted the other's file. Left as it is when that user's home cannot
 * be found. An XDG_STATE_HOME kept through sudo is that user's too: what it moves is measured
 * against their `~/.local/state/claims`, not root's (unmovedDefault).
 */
export function claimAsSudoUser(env: NodeJS.ProcessEnv = process.env): void {
  if (process.getuid?.() !== 0) return;
  const uid = env.SUDO_UID;
  if (uid === undefined || !/^[1-9]\d*$/.test(uid)) return;
  const home = homeOf(uid);
  if (home === undefined) return;
  invokingHome = home;
  // (A relative one names no place, and the default ignores it, as an unset one: that user's too, not root's.)
  if (!env.XDG_STATE_HOME || !isAbsolute(env.XDG_STATE_HOME)) env.XDG_STATE_HOME = join(home, ".local", "state");
}

/**
 * The home directory of the user root was started by sudo from, once claimAsSudoUser found it:
 * the one an XDG_STATE_HOME is measured against (src/protocol/settings.ts, unmovedDefault), not
 * root's own.
 */
let invokingHome: string | undefined;

export function sudoUserHome(): string | undefined {
  return invokingHome;
}

/** The home directory of `uid`: /etc/passwd's line, else the name service's (LDAP users). */
export function homeOf(uid: string): string | undefined {
  let passwd = "";
  try {
    passwd = readFileSync("/etc/passwd", "utf8");
  } catch {
    // the name service below
  }
  const fields = passwd.split("\n").map((line) => line.split(":")).find((entry) => entry[2] === uid) ?? getent("passwd", Number(uid));
  const home = fields?.[5];
  return home !== undefined && isAbsolute(home) && home !== "/" ? home : undefined;
}
