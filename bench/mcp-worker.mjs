// Tool-call latency inside a running `claims mcp` server, run by bench/run.mjs in a fresh child
// process: what an MCP user pays per call, start-up aside (the client starts the server once).
//
//   node bench/mcp-worker.mjs <bin/claims.js> <dist/index.js URL> <scratch dir> <project dir> <pairs> [pinned|setup]
//
// pinned (the default): the server runs `claims mcp --dir <scratch>/server` and the library takes in
// <scratch>/library. setup: as docs/MCP.md sets it up, `claims mcp` without --dir, so it claims in
// the default claims directory (here that of a HOME of its own, <scratch>/server-home), and the
// library likewise in <scratch>/library-home's; a take that pins a directory also looks
// in the default one and looks again after its grant (docs/PROTOCOL.md 1a), which this one does not.
//
// Starts the server with the SDK's stdio client and warms it up. Then, one at a time and
// interleaved: claim + release of one free path through the server (two JSON-RPC round trips, the
// claim's fsyncs included); the same take + release through the library in this process, on
// another directory (what the server cannot avoid); a ping round trip (the transport's floor); and
// the floor of a claim + release here: two ping round trips around the bare file operations a take
// and a release cannot avoid with the same durability (bench/lib-worker.mjs floor), in one timing.
// A tool call costs the client more than a ping (its arguments, its result checked against the
// tool's output schema), so that floor is below what any server could answer in.
// Prints one JSON line: { pairs: [ms...], library: [ms...], ping: [ms...], floor: [ms...] }.
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, indexUrl, dir, project, pairsText, mode = "pinned"] = process.argv.slice(2);
if (mode !== "pinned" && mode !== "setup") throw new Error(`unknown mode ${mode}: pinned or setup`);
const pinned = mode === "pinned";
const count = Number(pairsText);
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("CLAIMS_") && key !== "CLAUDE_CODE_SESSION_ID" && key !== "XDG_STATE_HOME"));
// A HOME, not an XDG_STATE_HOME, of its own: one that moves the default directory also judges HOME's (docs/PROTOCOL.md 1).
if (!pinned) env.HOME = join(dir, "server-home");
const where = pinned ? ["--dir", join(dir, "server")] : [];
const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "mcp", ...where, "--holder", "bench-mcp"], cwd: project, env, stderr: "inherit" });
const client = new Client({ name: "bench", version: "1.0.0" });
await client.connect(transport);
const { take, release } = await import(indexUrl);
const library = pinned
  ? { dir: join(dir, "library"), holder: "bench-lib", cwd: project, env: {} }
  : { holder: "bench-lib", cwd: project, env: { HOME: join(dir, "library-home") } };
if (pinned) mkdirSync(library.dir, { recursive: true, mode: 0o700 });

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

const bareDir = join(dir, "bare");
mkdirSync(bareDir, { recursive: true, mode: 0o700 });
const bareDirectory = openSync(bareDir, "r");
const bareBody = Buffer.from(`${JSON.stringify({ target: "floor", holder: "bench-mcp", purpose: "bench", taken_at: "2026-01-01T00:00:00Z", heartbeat_at: "2026-01-01T00:00:00Z" }, null, 2)}\n`);
/** The floor: a ping, the bare take's file operations, a ping, the bare release's. */
const floor = async () => {
  await client.ping();
  const temp = join(bareDir, `.tmp-${process.pid}-floor`);
  const claim = join(bareDir, "floor.json");
  const fd = openSync(temp, "wx", 0o600);
  writeSync(fd, bareBody);
  fsyncSync(fd);
  closeSync(fd);
  linkSync(temp, claim);
  unlinkSync(temp);
  fsyncSync(bareDirectory);
  await client.ping();
  unlinkSync(claim);
  fsyncSync(bareDirectory);
};

for (let i = 0; i < 30; i++) await viaServer(), await viaLibrary(), await floor(); // warm-up: JIT, page cache, directory entries
const samples = { pairs: [], library: [], ping: [], floor: [] };
for (let i = 0; i < count; i++) {
  samples.pairs.push(await timed(viaServer));
  samples.library.push(await timed(viaLibrary));
  samples.ping.push(await timed(() => client.ping()));
  samples.floor.push(await timed(floor));
}
closeSync(bareDirectory);
await client.close();
process.stdout.write(`${JSON.stringify(samples)}\n`);
