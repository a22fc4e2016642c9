// What every tool handler gets besides its arguments: who it acts for, the settings the server
// was started with, and a signal that fires when the client cancels the call or goes away.
import type { CommonOptions } from "../protocol/context.js";

export interface Call {
  /** The holder for this call: its own actor if it names one (src/mcp/identity.ts); `argument` names it in an error. */
  holder(actor: string | undefined, argument?: string): string;
  /** --dir, --ttl, the environment and the working directory of the server. */
  common: CommonOptions;
  signal: AbortSignal;
}
