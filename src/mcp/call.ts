// What every tool handler gets besides its arguments: who it acts for, the settings the server
// was started with, and a signal that fires when the client cancels the call or goes away.
import { take, type TakeResult } from "../commands/take.js";
import { giveBackGrants } from "../commands/take-undo.js";
import type { CommonOptions } from "../protocol/context.js";

export interface Call {
  /** The holder for this call: its own actor if it names one (src/mcp/identity.ts); `argument` names it in an error. */
  holder(actor: string | undefined, argument?: string): string;
  /** --dir, --ttl, the environment and the working directory of the server. */
  common: CommonOptions;
  signal: AbortSignal;
  /** A claim's wait has made its first look (taken what is free, queued for the rest): the calls after it may run. */
  looked?: () => void;
}

/** What a call the client gave up on answers, should the answer still reach anyone. */
export const ABANDONED = "The call was cancelled: nothing it took was kept.";

/**
 * Whether the client gave up on a take while it ran (cancelled the call, closed the connection),
 * having given back what the take newly granted: the client never sees the answer, and an actor
 * that does not know it holds a path never releases it, so every other session would be refused
 * it for a TTL. A take runs to its end once started (it holds the take lock; all or nothing), so
 * the call yields once after it, for a cancellation or a closed stdin that arrived meanwhile to be
 * read. A renewed claim was the actor's before the call: it stays. A wait gives back by itself
 * (`interrupted`). The take's idempotency key (`asked`) is forgotten where the take recorded it: its
 * answer reached nobody, and a client's retry with the key after a timeout must take afresh, not
 * replay grants given back. Its grant id (`asked.grant`, given to the take) gives back only what no
 * other call (the client's retry, a hook's take) was told the actor holds since. A switch between
 * shared and exclusive the take made is completed here (`asked.standing`, given to the take), once
 * the grants are kept: given back, the actor's claim in the old mode was never removed.
 */
export async function givenBackIfAbandoned(result: TakeResult, call: Call, options: CommonOptions, asked?: { targets: string[]; idempotencyKey?: string; grant?: string; standing?: { stand?: () => void } }): Promise<boolean> {
  await new Promise((resolve) => setImmediate(resolve));
  if (!call.signal.aborted || result.interrupted) {
    asked?.standing?.stand?.(); // kept: the switch between shared and exclusive it made is complete now
    return false;
  }
  // A replay of a key's first answer took nothing: its grants are that answer's, told to a client already.
  if (result.idempotent_replay) return true;
  await giveBackGrants(result, options, take, asked);
  return true;
}
