// An MCP client on `claims mcp`: the real server (bin/claims.js, built) as a child process over
// stdio, driven by the SDK's own client, as Claude Code, Codex or Cursor would start it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, cleanEnv } from "../helpers.js";

export interface Connection {
  client: Client;
  transport: StdioClientTransport;
  /** Calls a tool; returns its structured result and whether it is an error result. */
  call(name: string, args?: Record<string, unknown>): Promise<{ value: any; isError: boolean; text: string }>;
  close(): Promise<void>;
}

export async function connect(options: { cwd: string; env?: Record<string, string>; args?: string[]; name?: string }): Promise<Connection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", ...(options.args ?? [])],
    cwd: options.cwd,
    env: cleanEnv(options.env) as Record<string, string>,
    stderr: "pipe",
  });
  const client = new Client({ name: options.name ?? "test-client", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    transport,
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as { structuredContent?: unknown; isError?: boolean; content: Array<{ type: string; text?: string }> };
      return { value: result.structuredContent, isError: result.isError === true, text: result.content[0]?.text ?? "" };
    },
    close: () => client.close(),
  };
}
