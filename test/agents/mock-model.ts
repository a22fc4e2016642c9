// A stand-in for the model APIs of Claude Code (Anthropic Messages) and Codex (OpenAI Responses)
// on 127.0.0.1, so the real clients can be driven end to end without a network or an account.
// It plays scripts: each conversation names its script with a marker in its first user message
// (`[script:NAME]`), and the script's steps are the tool calls the "model" makes in order; the
// step to play is the number of tool results since that message, so the server keeps no state
// between requests. Past the last step it answers with plain text and the turn
// ends. Requests without a known marker (titles, summaries, quota probes) get a short text.
//
// Every request is recorded, so a test can read what reached the model (a refusal's reason in a
// tool result, for one).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One model turn: a tool call (name and input as the client's API spells them), or a final text. */
export type Step = { tool: string; input: Record<string, unknown> | string } | { text: string };

export interface RecordedRequest {
  path: string;
  body: Record<string, unknown>;
}

export interface MockModel {
  /** `http://127.0.0.1:<port>`: Claude Code's ANTHROPIC_BASE_URL; Codex's provider base_url is this plus `/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** The tool results (Anthropic tool_result, OpenAI function/custom tool outputs) of the longest conversation sent, in order. */
  toolResults(): string[];
  /** Every tool result of every conversation (a subagent's are in its own), repeated as each request repeats them. */
  everyToolResult(): string[];
  close(): Promise<void>;
}

export async function startMockModel(scripts: Record<string, Step[]>): Promise<MockModel> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    readBody(request)
      .then((text) => {
        let body: Record<string, unknown> = {};
        try {
          body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        } catch {
          // not JSON: answered generically below
        }
        const path = (request.url ?? "").split("?")[0] ?? "";
        requests.push({ path, body });
        if (path.endsWith("/messages/count_tokens")) return json(response, { input_tokens: 10 });
        if (path.endsWith("/messages")) return anthropic(response, body, scripts);
        if (path.endsWith("/responses")) return openai(response, body, scripts);
        if (path.endsWith("/models")) return json(response, { data: [], object: "list" });
        return json(response, {});
      })
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    // Each request carries the whole conversation so far: the longest one has every result once.
    toolResults: () => requests.map((recorded) => toolResultsOf(recorded.body)).reduce((longest, results) => (results.length > longest.length ? results : longest), []),
    everyToolResult: () => requests.flatMap((recorded) => toolResultsOf(recorded.body)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function json(response: ServerResponse, value: unknown): void {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
}

/** All the text of a value, however nested (message contents are strings or arrays of blocks). */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(textOf).join("\n");
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    return ["text", "content", "input_text", "output"].map((key) => textOf(record[key])).join("\n");
  }
  return "";
}

/**
 * The script the conversation's latest prompt asked for (the last user message naming one), and
 * where it starts: the step to play counts the tool results after it, so a second prompt in the
 * same conversation starts its own script from the top.
 */
function scriptOf(messages: unknown[], scripts: Record<string, Step[]>): { steps: Step[]; from: number } | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const record = messages[index] as Record<string, unknown>;
    if (record.role !== "user") continue;
    const names = [...textOf(record.content).matchAll(/\[script:([\w-]+)\]/g)].map((match) => match[1] as string);
    const steps = names.map((name) => scripts[name]).find((found) => found !== undefined);
    if (steps) return { steps, from: index };
  }
  return undefined;
}

function toolResultsOf(body: Record<string, unknown>): string[] {
  const results: string[] = [];
  for (const message of (body.messages as unknown[] | undefined) ?? []) {
    const content = (message as { content?: unknown }).content;
    if (!Array.isArray(content)) continue;
    for (const block of content) if ((block as { type?: string }).type === "tool_result") results.push(textOf((block as { content?: unknown }).content));
  }
  for (const item of (body.input as unknown[] | undefined) ?? []) {
    const type = (item as { type?: string }).type;
    if (type === "function_call_output" || type === "custom_tool_call_output") results.push(textOf((item as { output?: unknown }).output));
  }
  return results;
}

function sse(response: ServerResponse, events: Array<[string, unknown]>): void {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const [event, data] of events) response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  response.end();
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_mock${Date.now().toString(36)}${(counter++).toString(36)}`;

function anthropic(response: ServerResponse, body: Record<string, unknown>, scripts: Record<string, Step[]>): void {
  const messages = (body.messages as unknown[] | undefined) ?? [];
  const script = scriptOf(messages, scripts);
  const done = messages.slice(script?.from ?? 0).flatMap((message, index) => {
    const content = (message as { content?: unknown }).content;
    if (!Array.isArray(content)) return [];
    // A prompt typed after a refused call comes in the same message as that call's result, after it.
    const from = index === 0 ? Math.max(0, content.findIndex((block) => /\[script:[\w-]+\]/.test(textOf(block)))) : 0;
    return content.slice(from).filter((block) => (block as { type?: string }).type === "tool_result");
  }).length;
  const step: Step = script?.steps[done] ?? { text: "done" };
  const model = typeof body.model === "string" ? body.model : "mock";
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = { id: nextId("msg"), type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage };
  if (body.stream !== true) {
    const content = "tool" in step ? [{ type: "tool_use", id: nextId("toolu"), name: step.tool, input: step.input }] : [{ type: "text", text: step.text }];
    return json(response, { ...message, content, stop_reason: "tool" in step ? "tool_use" : "end_turn" });
  }
  const block =
    "tool" in step
      ? [
          ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: nextId("toolu"), name: step.tool, input: {} } }],
          ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(step.input) } }],
        ]
      : [
          ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
          ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: step.text } }],
        ];
  sse(response, [
    ["message_start", { type: "message_start", message }],
    ...(block as Array<[string, unknown]>),
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: "tool" in step ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 5 } }],
    ["message_stop", { type: "message_stop" }],
  ]);
}

function openai(response: ServerResponse, body: Record<string, unknown>, scripts: Record<string, Step[]>): void {
  const input = (body.input as unknown[] | undefined) ?? [];
  const script = scriptOf(input, scripts);
  const done = input.slice(script?.from ?? 0).filter((item) => ["function_call_output", "custom_tool_call_output"].includes((item as { type?: string }).type ?? "")).length;
  const step: Step = script?.steps[done] ?? { text: "done" };
  const id = nextId("resp");
  let item: Record<string, unknown>;
  if (!("tool" in step)) {
    item = { type: "message", id: nextId("msg"), role: "assistant", status: "completed", content: [{ type: "output_text", text: step.text, annotations: [] }] };
  } else if (typeof step.input === "string") {
    // A freeform tool (Codex's apply_patch): its input is the raw text.
    item = { type: "custom_tool_call", id: nextId("ctc"), call_id: nextId("call"), name: step.tool, input: step.input, status: "completed" };
  } else {
    item = { type: "function_call", id: nextId("fc"), call_id: nextId("call"), name: step.tool, arguments: JSON.stringify(step.input), status: "completed" };
  }
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  sse(response, [
    ["response.created", { type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } }],
    ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
    ["response.completed", { type: "response.completed", response: { id, object: "response", status: "completed", output: [item], usage } }],
  ]);
}
