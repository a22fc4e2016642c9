// Fencing tokens (Chubby's sequencer, Kleppmann's fencing token): every take and takeover of a
// target gets a number that strictly increases per target, whoever holds it, across releases. A
// holder that was paused past its TTL and lost its claim still carries its old token, so a
// downstream writer (or `claims check --token`) can reject it.
//
// The counter of a target lives in `.token-<claim file name without .json>`, is advanced only
// under the take lock (so two takes never get the same number), and is written and fsynced before
// the claim that carries it, so a crash can skip a number but never reuse one.
import { join } from "node:path";
import { crashPoint } from "./crash.js";
import { readSnapshot, replaceFile } from "./files.js";
import type { Context } from "./protocol.js";
import { claimFileName } from "./target.js";

export const TOKEN_PREFIX = ".token-";

export function tokenFileName(target: string): string {
  return `${TOKEN_PREFIX}${claimFileName(target).slice(0, -".json".length)}`;
}

/** The last token issued for the target (0 when none). */
export function lastToken(target: string, context: Context): number {
  const snapshot = readSnapshot(join(context.store.dir, tokenFileName(target)));
  if (snapshot.kind !== "file") return 0;
  const value = Number(snapshot.bytes.toString("utf8").trim());
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

/** Issues the next token for the target. Call under the take lock. */
export function nextToken(target: string, context: Context, atLeast = 0): number {
  const token = Math.max(lastToken(target, context), atLeast) + 1;
  replaceFile(context.store.dir, join(context.store.dir, tokenFileName(target)), `${token}\n`, context.store.fileMode);
  crashPoint("token-issued");
  return token;
}
