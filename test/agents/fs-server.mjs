// A small MCP server of another kind than claims': a filesystem server's write_file and read_file
// (as @modelcontextprotocol/server-filesystem names them), for the end-to-end tests of the hook on
// other servers' tools (clients.e2e.ts). It writes what it is asked to, as such a server does: only
// the claims hook stands between the model and the file.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "fs", version: "1.0.0" });
server.registerTool("write_file", { description: "Write a file", inputSchema: { path: z.string(), content: z.string() } }, ({ path, content }) => {
  writeFileSync(resolve(path), content);
  return { content: [{ type: "text", text: `wrote ${path}` }] };
});
server.registerTool("read_file", { description: "Read a file", inputSchema: { path: z.string() } }, ({ path }) => ({ content: [{ type: "text", text: readFileSync(resolve(path), "utf8") }] }));
await server.connect(new StdioServerTransport());
