// Idempotency keys for take: a retry with the same key and the same arguments gets the first
// result back instead of acting again; the same key with other arguments is an error. Records live
// beside the claims as `.idem-<hash>` (never mistaken for claims) and expire after 7 days.
import { join } from "node:path";
import { ClaimsError } from "../os/errors.js";
import { optionName } from "../os/option-names.js";
import { readSnapshot, removeQuietly, replaceFile } from "../os/files.js";
import { sha256Hex } from "../os/hash.js";

export const IDEMPOTENCY_PREFIX = ".idem-";
export const IDEMPOTENCY_TTL_MS = 7 * 24 * 3600 * 1000;
const MAX_KEY_LENGTH = 200;

interface IdempotencyRecord<T> {
  key: string;
  holder: string;
  arguments: string;
  created_at_ms: number;
  result: T;
}

export class IdempotencyConflictError extends ClaimsError {
  constructor(key: string) {
    super(
      "IDEMPOTENCY_KEY_CONFLICT",
      `The idempotency key ${JSON.stringify(key)} was already used with different arguments; use a new key for a different take.`,
    );
  }
}

export function checkKey(key: string): void {
  if (key.trim() === "" || key.length > MAX_KEY_LENGTH || /[\u0000-\u001f\u007f]/.test(key)) {
    throw new ClaimsError("BAD_INPUT", `${optionName("idempotencyKey")} must be 1 to ${MAX_KEY_LENGTH} printable characters.`);
  }
}

/** Where records are kept: the claims directory and the mode of its files (a Store is one). */
export interface RecordDirectory {
  dir: string;
  fileMode: number;
}

function recordPath(store: Pick<RecordDirectory, "dir">, holder: string, key: string): string {
  const hash = sha256Hex(`${holder}\n${key}`).slice(0, 32);
  return join(store.dir, `${IDEMPOTENCY_PREFIX}${hash}`);
}

/** The first result for this key, if the key is live; throws when it was used with other arguments. */
export function replay<T>(store: RecordDirectory, holder: string, key: string, args: string, nowMs: number): T | undefined {
  const snapshot = readSnapshot(recordPath(store, holder, key));
  if (snapshot.kind !== "file") return undefined;
  let record: IdempotencyRecord<T>;
  try {
    record = JSON.parse(snapshot.bytes.toString("utf8")) as IdempotencyRecord<T>;
  } catch {
    return undefined; // not ours to trust: act again and overwrite it
  }
  if (record.key !== key || record.holder !== holder || nowMs - record.created_at_ms > IDEMPOTENCY_TTL_MS) return undefined;
  if (record.arguments !== args) throw new IdempotencyConflictError(key);
  return record.result;
}

export function remember<T>(store: RecordDirectory, holder: string, key: string, args: string, nowMs: number, result: T): void {
  const record: IdempotencyRecord<T> = { key, holder, arguments: args, created_at_ms: nowMs, result };
  replaceFile(store.dir, recordPath(store, holder, key), `${JSON.stringify(record)}\n`, store.fileMode);
}

/**
 * Replaces the result a key's record holds with what the caller was finally answered (a take that
 * gave its grant back after a race: src/commands/take.ts), keeping its arguments and age. Nothing
 * when the key has no record here.
 */
export function amend<T>(store: RecordDirectory, holder: string, key: string, result: T): void {
  const path = recordPath(store, holder, key);
  const snapshot = readSnapshot(path);
  if (snapshot.kind !== "file") return;
  try {
    const record = JSON.parse(snapshot.bytes.toString("utf8")) as IdempotencyRecord<T>;
    if (record.key !== key || record.holder !== holder) return;
    replaceFile(store.dir, path, `${JSON.stringify({ ...record, result })}\n`, store.fileMode);
  } catch {
    // not ours: a retry acts again
  }
}

/** Forgets a key: its take gave back what it took, its answer unread (a cancelled call), so a retry with it acts again. */
export function forget(store: Pick<RecordDirectory, "dir">, holder: string, key: string): void {
  removeQuietly(recordPath(store, holder, key));
}

/** For sweep: a record past its 7 days. */
export function isExpiredRecord(path: string, nowMs: number): boolean {
  const snapshot = readSnapshot(path);
  if (snapshot.kind !== "file") return false;
  try {
    return nowMs - (JSON.parse(snapshot.bytes.toString("utf8")) as IdempotencyRecord<unknown>).created_at_ms > IDEMPOTENCY_TTL_MS;
  } catch {
    return nowMs - snapshot.mtimeMs > IDEMPOTENCY_TTL_MS;
  }
}
