// The JSON-RPC wire as the SDK leaves it, made to answer every request in one sentence: a line that
// is not a message, a request whose params the SDK's schemas refuse, a message too large to read.
// Each request that names an id gets its answer under that id; JSON-RPC allows id null only where
// the id cannot be read.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { ErrorCode, JSONRPCMessageSchema, JSONRPCRequestSchema, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";

interface Issue {
  code?: string;
  path?: PropertyKey[];
  message?: string;
  expected?: string;
  /** For a union: each alternative's own issues. */
  errors?: Issue[][];
}

/** A message the SDK refuses, answered here: `id` null where the message names none. */
class RefusedMessage extends Error {
  constructor(
    readonly id: RequestId | null,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads the client's lines as the SDK's own buffer does (one JSON-RPC message a line, at most
 * 10 MiB unread), but a request its schema refuses is a RefusedMessage naming the request's id,
 * where the SDK's buffer throws the schema's error alone and the id is lost with the line.
 */
class LineBuffer {
  private buffer: Buffer | undefined;

  append(chunk: Buffer): void {
    const size = (this.buffer?.length ?? 0) + chunk.length;
    if (size > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      this.clear();
      // The SDK's words: its transport closes the connection on this error, and onerror says why.
      throw new Error(`ReadBuffer exceeded maximum size of ${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes`);
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  readMessage(): JSONRPCMessage | null {
    const end = this.buffer?.indexOf("\n") ?? -1;
    if (this.buffer === undefined || end === -1) return null;
    const line = this.buffer.toString("utf8", 0, end).replace(/\r$/, "");
    this.buffer = this.buffer.subarray(end + 1);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new RefusedMessage(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    throw refusalOf(value);
  }

  clear(): void {
    this.buffer = undefined;
  }
}

/** Why a line that is JSON is no message: Invalid params or Invalid Request, under its id where it has one. */
function refusalOf(value: unknown): RefusedMessage {
  const message = value as { id?: unknown; method?: unknown };
  const id = typeof message?.id === "string" || Number.isSafeInteger(message?.id) ? (message.id as RequestId) : undefined;
  // A malformed response (`result`, `error`) names an id of the server's requests, not the client's: not under it.
  if (id === undefined || (message !== null && typeof message === "object" && ("result" in message || "error" in message))) {
    return new RefusedMessage(null, ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message");
  }
  // Under the id it names, so a client waiting on that id hears why.
  if (typeof message.method !== "string") {
    return new RefusedMessage(id, ErrorCode.InvalidRequest, "Invalid Request: the message names no method (method is not a string); send a JSON-RPC 2.0 request.");
  }
  const issue = (JSONRPCRequestSchema.safeParse(value).error?.issues[0] ?? undefined) as Issue | undefined;
  if (issue?.path?.[0] === "params") return new RefusedMessage(id, ErrorCode.InvalidParams, invalidParams(message.method, issue, value));
  const where = issue?.path?.length ? issue.path.join(".") : "the message";
  return new RefusedMessage(id, ErrorCode.InvalidRequest, `Invalid Request: ${where} is wrong (${issue?.message ?? "not a JSON-RPC 2.0 request"}); send a JSON-RPC 2.0 request.`);
}

/** What a tools/call whose params are not `{"name": "<tool>", "arguments"?: {…}}` is told, by the field at fault. */
const TOOL_CALL_FAULTS: Record<string, string> = {
  params: "has no params object",
  "params.name": "names no tool (params.name is not a string)",
  "params.arguments": "has arguments that are not an object",
};

/** One sentence for a request whose params the schema refuses, from the schema's first issue. */
function invalidParams(method: string, issue: Issue | undefined, request: unknown): string {
  const where = issue?.path?.length ? issue.path.join(".") : "params";
  const fault = method === "tools/call" ? TOOL_CALL_FAULTS[where] : undefined;
  if (fault !== undefined) return `Invalid params: the tools/call request ${fault}; send {"name": "<tool>", "arguments": {…}}.`;
  return `Invalid params: in the ${method} request, ${where} is wrong (${describeIssue(issue, request)}); send it as the MCP specification describes.`;
}

/** The schema's words for an issue; for a union (a progressToken), every alternative it would take. */
function describeIssue(issue: Issue | undefined, request: unknown): string {
  if (issue === undefined) return "not as the schema says";
  const alternatives = issue.code === "invalid_union" ? (issue.errors ?? []).map((branch) => branch[0]?.expected).filter((expected) => expected !== undefined) : [];
  if (alternatives.length === 0) return issue.message ?? "not as the schema says";
  const value = (issue.path ?? []).reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key], request);
  const received = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  return `Invalid input: expected ${alternatives.map((expected) => (expected === "int" ? "whole number" : expected)).join(" or ")}, received ${received}`;
}

/**
 * The SDK checks a request's params against its method's schema before the handler runs, and
 * answers one that fails (a tools/list `cursor` that is not a string, a tools/call without a tool's
 * name) with Internal error (-32603) or a dump of every schema issue. Each handler (the SDK's own,
 * initialize and ping, and ours) is wrapped so that it is Invalid params (-32602) and one sentence.
 * The handlers live in a field the SDK's types keep private; where it is not there, its answers stand.
 */
export function answerBadParamsInOneSentence(server: Server): void {
  type Handler = (request: unknown, extra: unknown) => Promise<unknown>;
  const handlers = (server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, handle] of handlers as Map<string, Handler>) {
    handlers.set(method, async (request: unknown, extra: unknown) => {
      try {
        return await handle(request, extra);
      } catch (error) {
        if (!(error instanceof Error) || !isSchemaError(error)) throw error;
        const issue = (error as { issues?: Issue[] }).issues?.[0];
        throw Object.assign(new Error(invalidParams(method, issue, request)), { code: ErrorCode.InvalidParams });
      }
    });
  }
}

/**
 * Reads the transport's input with a LineBuffer, so that a request the SDK's schema refuses is
 * answered under its own id. The buffer lives in a field the SDK's types keep private; where it is
 * not there, the SDK's own stands, and such a request is answered with id null (onProtocolError).
 */
export function readRequestsWithTheirIds(transport: object): void {
  const fields = transport as { _readBuffer?: unknown };
  if (fields._readBuffer !== undefined) fields._readBuffer = new LineBuffer();
}

/**
 * The answer the client is owed for an error the SDK reports only to onerror (a line that is not
 * JSON, or not a message), or undefined for any other error.
 */
export function protocolErrorAnswer(error: Error): JSONRPCMessage | undefined {
  const refused = error instanceof RefusedMessage ? error
    : error instanceof SyntaxError ? new RefusedMessage(null, ErrorCode.ParseError, `Parse error: ${error.message}`)
    : isSchemaError(error) ? new RefusedMessage(null, ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message")
    : undefined;
  if (refused === undefined) return undefined;
  return { jsonrpc: "2.0", id: refused.id, error: { code: refused.code, message: refused.message } } as unknown as JSONRPCMessage;
}

function isSchemaError(error: Error): boolean {
  return error.name === "ZodError" || Array.isArray((error as { issues?: unknown }).issues);
}
