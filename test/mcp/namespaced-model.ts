// Codex offers a server's MCP tools to the model as one namespace (`mcp__claims`, holding `claim`,
// `release`, ...), and runs a function call only when it names both: `{ namespace: "mcp__claims",
// name: "claim" }`; a flat `mcp__claims__claim` is an "unsupported call". The shared mock model
// (test/agents/mock-model.ts) names a call with one string, so this proxy on 127.0.0.1, in front
// of it, splits `mcp__<server>__<tool>` in what the model answers. Everything else passes as is.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Proxy {
  /** `http://127.0.0.1:<port>`, standing in for the mock's url. */
  url: string;
  close(): Promise<void>;
}

export async function namespaceMcpCalls(target: string): Promise<Proxy> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      fetch(`${target}${request.url ?? ""}`, { method: request.method ?? "GET", headers: { "content-type": request.headers["content-type"] ?? "application/json" }, ...(body.length > 0 && { body }) })
        .then(async (answer) => {
          // The mock answers each request whole (its SSE stream ends at once), so it is read whole.
          const text = (await answer.text()).replace(/"name":"(mcp__[a-z0-9_-]+?)__([^"]+)"/g, '"namespace":"$1","name":"$2"');
          response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
          response.end(text);
        })
        .catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
