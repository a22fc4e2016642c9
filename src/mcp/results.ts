// Tool results. An answer is the result object twice: as JSON text for the model (what clients
// show it) and as structuredContent for programs. A failure is `isError` with the one sentence the
// CLI would print for it, the tool's argument names standing where the library names its options.
import { ClaimsError } from "../os/errors.js";
import { formatTimestamp, parseTimestamp } from "../os/time.js";

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function answer(value: object): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value as Record<string, unknown> };
}

/** Option names in the commands' messages (`idempotencyKey`), as a tool's arguments name them (`idempotency_key`). */
export type FlagNames = Record<string, string>;

export function failure(error: unknown, flags: FlagNames = {}): ToolResult {
  let code: string;
  let message: string;
  if (error instanceof ClaimsError) {
    code = error.code;
    message = asTools(Object.entries(flags).reduce((text, [from, to]) => text.split(from).join(to), error.message));
  } else {
    code = "INTERNAL";
    message = `Internal error: ${(error as Error)?.message ?? String(error)}. This is a bug; rerun the server with CLAIMS_DEBUG=1 for the stack.`;
    if (process.env.CLAIMS_DEBUG === "1") process.stderr.write(`${(error as Error)?.stack ?? error}\n`);
  }
  return { content: [{ type: "text", text: message }], structuredContent: { error: { code, message } }, isError: true };
}

/**
 * A command the CLI's sentence suggests (`take it again (claims take src/a.ts)`), as the tool that
 * does it: an agent over MCP may have no shell. `claims take … --force`, which no tool does, stays.
 * A name the CLI writes bare (`claims take cfg`) is `name:cfg` there, where a bare word is a path
 * (src/mcp/paths.ts).
 */
function asTools(message: string): string {
  return message
    .replace(/\bclaims take ((?!-)[^\s(),;]+?) --shared\b/g, (_, target: string) => `file_reservation_paths with paths ["${target}"] and exclusive: false`)
    .replace(/\bclaims take ((?!-)[^\s(),;]+?)(?=\.?(?:[\s(),;]|$))/g, (_, target: string) => `the claim tool with paths ["${asPathArgument(target.replace(/^'(.*)'$/, "$1"))}"]`);
}

/** A target as a tool's path argument names it: a canonical name (no `/`, `.` or `~` first, no prefix) behind `name:`. */
export function asPathArgument(target: string): string {
  return /^[/.~]|^(?:name|glob):/.test(target) ? target : `name:${target}`;
}

/** When a claim goes stale: its last heartbeat plus its TTL. */
export function expiryOf(heartbeatAt: string, ttlSeconds: number): string {
  return formatTimestamp((parseTimestamp(heartbeatAt) as number) + ttlSeconds * 1000);
}
