// Tool-call latency inside a running `claims mcp` server, run by bench/run.mjs in a fresh child
// process: what an MCP user pays per call, start-up aside (the client starts the server once).
//
//   node bench/mcp-worker.mjs <bin/claims.js> <dist/index.js URL> <claims dir> <project dir> <pairs>
//
// Starts the server with the SDK's stdio client and warms it up. Then, one at a time and
// interleaved: claim + release of one free path through the server (two JSON-RPC round trips, the
// claim's fsyncs included); the same take + release through the library in this process, on
// another directory (what the server cannot avoid); and a ping round trip (the transport's floor).
// Prints one JSON line: { pairs: [ms...], library: [ms...], ping: [ms...] }.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, indexUrl, dir, project, pairsText] = process.argv.slice(2);
const count = Number(pairsText);
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("CLAIMS_") && key !== "CLAUDE_CODE_SESSION_ID"));
const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "mcp", "--dir", join(dir, "server"), "--holder", "bench-mcp"], cwd: project, env, stderr: "inherit" });
const client = new Client({ name: "bench", version: "1.0.0" });
await client.connect(transport);
const { take, release } = await import(indexUrl);
mkdirSync(join(dir, "library"), { recursive: true, mode: 0o700 });
const library = { dir: join(dir, "library"), holder: "bench-lib", cwd: project, env: {} };

const target = join(project, "src", "app.ts");
const timed = async (fn) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};
const viaServer = async () => {
  const claimed = await client.callTool({ name: "claim", arguments: { paths: [target], intent: "bench" } });
  const released = await client.callTool({ name: "release", arguments: { paths: [target] } });
  if (claimed.isError || claimed.structuredContent?.granted !== true) throw new Error(`claim was not granted: ${JSON.stringify(claimed)}`);
  if (released.structuredContent?.released?.length !== 1) throw new Error(`release did not release: ${JSON.stringify(released)}`);
};
const viaLibrary = async () => {
  if ((await take({ ...library, targets: [target], purpose: "bench" })).granted.length !== 1) throw new Error("library take was not granted");
  if (release({ ...library, targets: [target] }).released.length !== 1) throw new Error("library release did not release");
};

for (let i = 0; i < 30; i++) await viaServer(), await viaLibrary(); // warm-up: JIT, page cache, directory entries
const samples = { pairs: [], library: [], ping: [] };
for (let i = 0; i < count; i++) {
  samples.pairs.push(await timed(viaServer));
  samples.library.push(await timed(viaLibrary));
  samples.ping.push(await timed(() => client.ping()));
}
await client.close();
process.stdout.write(`${JSON.stringify(samples)}\n`);
