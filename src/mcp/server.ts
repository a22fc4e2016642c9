// `claims mcp`: an MCP server over stdio, started by the agent's client, one per connection. No
// daemon and no state of its own: every tool call runs a command on the claims directory, as the
// CLI does, so two servers (two clients) and the CLI on one directory see each other at once. It
// serves until the client closes stdin or signals it; a wait in progress is then withdrawn, so a
// client that goes away mid-wait leaves nothing queued behind it.
import { setMaxListeners } from "node:events";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { BadInputError } from "../os/errors.js";
import type { CommonOptions } from "../protocol/context.js";
import { holderOverride, resolveHolder, resolveSettings, type Environment } from "../protocol/settings.js";
import type { Call } from "./call.js";
import { Identity } from "./identity.js";
import { answer, failure, type ToolResult } from "./results.js";
import { jsonSchemaOf, violationOf } from "./schemas.js";
import { TOOLS, type Tool } from "./tools.js";
import { answerBadParamsInOneSentence, protocolErrorAnswer, readRequestsWithTheirIds } from "./wire.js";
import { asOneVerb } from "../os/lookups.js";

export interface McpOptions {
  dir?: string;
  holder?: string;
  ttl?: string;
  version: string;
  env?: Environment;
  cwd?: string;
}

const INSTRUCTIONS = `claims keeps coding agents on one machine from overwriting each other. Call claim (or file_reservation_paths) on a path BEFORE you edit it; a refusal names the holder and their intent: reconcile from it, or queue (queue: true) and keep working, and never edit a path you were refused. Claim again to renew on long tasks; release when done. get_status shows what you were granted while you waited.`;

const SIGNALS = [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const;

/** How often a call that asked for progress is told it still runs. */
const PROGRESS_MS = 2000;

/** Serves until the client goes away; resolves once every call in progress has finished and cleaned up. */
export async function serveMcp(options: McpOptions): Promise<void> {
  const env = options.env ?? process.env;
  const common: CommonOptions = { env, cwd: options.cwd ?? process.cwd() };
  if (options.dir !== undefined) common.dir = options.dir;
  if (options.ttl !== undefined) common.ttl = options.ttl;
  // A bad --dir, --ttl, --holder or .claims config is exit 2 at start, not an error in every call.
  const settings = resolveSettings(common);
  if (options.holder !== undefined) resolveHolder(options.holder, env);
  // CLAIMS_HOLDER inherited from the terminal that started the client names every session started
  // there alike: said at start, and in the answer of every call it stood in for, as the CLI says it.
  const override = holderOverride(options.holder, env);
  if (override !== undefined) process.stderr.write(`claims mcp: note: ${override}\n`);

  const server = new Server({ name: "claims", version: options.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const transport = new StdioServerTransport();
  const identity = new Identity(options.holder, env, () => server.getClientVersion()?.name, settings.dir);
  const closing = new AbortController();
  // One listener per call in flight: a dozen waits at once are not a leak to warn about on stderr.
  setMaxListeners(0, closing.signal);
  const inFlight = new Set<Promise<ToolResult>>();
  // The calls in flight that answer at once (all but a claim's wait): each call runs after those
  // that came before it, so that what a call answers never contradicts an earlier one still to be
  // answered (get_status listing a path as held that the claim before it then gives back, its
  // client having closed stdin). A wait runs beside the others once it has looked first (taken
  // what is free and queued for the rest), so a get_status after it sees it queued.
  const ordered = new Set<Promise<unknown>>();

  let listed: unknown[] | undefined; // the schemas do not change while the server runs
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (listed ??= TOOLS.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: jsonSchemaOf(tool.input), annotations: tool.annotations }))),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS.find((candidate) => candidate.name === request.params.name);
    if (!tool) {
      // Not McpError, whose message starts "MCP error -32602: ", which the client's McpError says again.
      const message = `Unknown tool ${JSON.stringify(request.params.name)}; the tools are ${TOOLS.map((known) => known.name).join(", ")}.`;
      throw Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
    }
    // Aborted when the server closes or the client cancels this call. (AbortSignal.any needs Node 20.3.)
    const stop = new AbortController();
    const abort = () => stop.abort();
    if (closing.signal.aborted || extra.signal.aborted) abort();
    closing.signal.addEventListener("abort", abort);
    extra.signal.addEventListener("abort", abort);
    const meta = request.params._meta;
    let looked!: () => void;
    const firstLook = new Promise<void>((resolve) => (looked = resolve));
    let overridden = false;
    const holder = (actor: string | undefined, argument?: string) => {
      if (actor === undefined && override !== undefined) overridden = true;
      return identity.holderFor(actor, argument, meta);
    };
    const call: Call = { holder, common, signal: stop.signal, looked: () => looked() };
    const before = [...ordered];
    const waits = tool.name === "claim" && typeof request.params.arguments?.wait === "number" && request.params.arguments.wait > 0;
    // One call, one verb: its lookups are made afresh and remembered while it runs (src/os/lookups.ts).
    const running = Promise.allSettled(before).then(async () => {
      const result = await asOneVerb(() => callTool(tool, request.params.arguments ?? {}, call));
      return overridden && override !== undefined ? withWarning(result, override) : result;
    });
    inFlight.add(running);
    const settled = waits ? Promise.race([firstLook, running.catch(() => {})]) : running.catch(() => {});
    ordered.add(settled);
    void settled.then(() => ordered.delete(settled));
    // A call that asked for progress (`_meta.progressToken`) hears every PROGRESS_MS that it still
    // runs (a `claim` with `wait`), so a client that resets its timeout on progress (the SDK's
    // `resetTimeoutOnProgress`) can wait past its own timeout, 60 s in the SDK.
    const token = meta?.progressToken;
    let ticks = 0;
    const progress = token === undefined ? undefined : setInterval(() => void extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: ++ticks, message: "still running (waiting for the claim to free)" } }).catch(() => {}), PROGRESS_MS);
    try {
      return await running;
    } finally {
      if (progress !== undefined) clearInterval(progress);
      inFlight.delete(running);
      closing.signal.removeEventListener("abort", abort);
      extra.signal.removeEventListener("abort", abort);
    }
  });
  // The SDK reports a line that is not JSON, or not JSON-RPC, only to onerror; JSON-RPC asks for
  // an error response (src/mcp/wire.ts). The line is dropped, and the server reads on.
  server.onerror = (error) => {
    const answer = protocolErrorAnswer(error);
    if (answer) {
      transport.send(answer).catch(() => {});
    } else if (/^ReadBuffer exceeded maximum size/.test(error.message)) {
      // The SDK's transport drops a connection whose message outgrows its buffer (10 MiB): say why.
      process.stderr.write(`claims mcp: a message from the client was larger than the ${Math.round(STDIO_DEFAULT_MAX_BUFFER_SIZE / 1048576)} MiB one message may be, so the connection is closed; send fewer paths per call.\n`);
    } else if (env.CLAIMS_DEBUG === "1") {
      process.stderr.write(`claims mcp: ${error.stack ?? error.message}\n`);
    }
  };

  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  let stopping = false;
  const stop = async (exitCode?: number) => {
    if (stopping) return;
    stopping = true;
    closing.abort(); // waits withdraw their queued interests and give back what they got
    await Promise.allSettled([...inFlight]);
    // Their answers (each saying it kept nothing) are sent by the SDK a few promise steps after
    // the tool returns; closing first would drop them, and a client reading stdout after closing
    // stdin (a pipeline) would never learn what became of its calls. One turn of the event loop
    // runs those steps: the transport writes stdout then and there.
    await new Promise((resolve) => setImmediate(resolve));
    await server.close().catch(() => {});
    process.stdin.destroy();
    if (exitCode !== undefined) {
      process.exitCode = exitCode;
      // After a signal, nothing is left to flush; should a handle we do not own keep the process
      // up, it still ends (unref: this timer alone keeps nothing alive).
      setTimeout(() => process.exit(), 1000).unref();
    }
    finished();
  };
  process.stdin.once("end", () => void stop());
  process.stdin.once("close", () => void stop());
  process.stdout.on("error", () => void stop()); // EPIPE: the client is gone
  for (const [name, code] of SIGNALS) process.once(name, () => void stop(code));
  answerBadParamsInOneSentence(server);
  readRequestsWithTheirIds(transport);
  await server.connect(transport);
  await done;
}

async function callTool(tool: Tool, args: unknown, call: Call): Promise<ToolResult> {
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) return failure(new BadInputError(`${tool.name}: ${violationOf(parsed.error)}`));
  let result: ToolResult;
  try {
    result = await tool.run(parsed.data, call);
  } catch (error) {
    return failure(error, tool.flags);
  }
  return withUnknownArguments(tool, args, result);
}

/**
 * An argument the tool does not have (`purpose` for `intent`, `ttl`) is dropped by the schema, so
 * the call ran without it: the answer says so in its `warnings`, rather than let the caller believe
 * its claim carries a purpose or a TTL it never got.
 */
function withUnknownArguments(tool: Tool, args: unknown, result: ToolResult): ToolResult {
  const shape = (tool.input as { shape?: Record<string, unknown> }).shape;
  if (shape === undefined || result.isError || !result.structuredContent || typeof args !== "object" || args === null) return result;
  const known = Object.keys(shape);
  const unknown = Object.keys(args).filter((key) => !known.includes(key));
  if (unknown.length === 0) return result;
  const names = unknown.map((key) => JSON.stringify(key)).join(", ");
  const warning = `${tool.name} has no argument ${names}, so ${unknown.length === 1 ? "it was" : "they were"} ignored; its arguments are ${known.join(", ")}.`;
  return withWarning(result, warning);
}

/** An answer with one more of its `warnings` (an error stays as it is). */
function withWarning(result: ToolResult, warning: string): ToolResult {
  if (result.isError || !result.structuredContent) return result;
  const previous = result.structuredContent.warnings;
  return answer({ ...result.structuredContent, warnings: [...(Array.isArray(previous) ? previous : []), warning] });
}
