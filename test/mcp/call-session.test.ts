// The session a tool call names in its `_meta`, as Codex names it (test/mcp/codex-mcp.e2e.ts shows
// the real client sending it), is the holder the session's hooks and shell use; what outranks it
// and what does not count as one.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, sandbox, type Sandbox } from "../helpers.js";
import { connect, type Connection } from "./connect.js";

const codexMeta = (sessionId: unknown) => ({ "x-codex-turn-metadata": { session_id: sessionId, thread_id: "t-1" }, sessionId: "generic" });

async function claimWith(connection: Connection, meta: Record<string, unknown>, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await connection.client.callTool({ name: "claim", arguments: { paths: ["a.ts"], ...args }, _meta: meta })) as { structuredContent?: { actor?: string } };
  return result.structuredContent?.actor ?? "";
}

const Session = suite<{ box: Sandbox; open: Connection[] }>("mcp: the session a call names");
Session.before.each((context) => {
  context.box = sandbox();
  context.open = [];
  writeFileSync(join(context.box.project, "a.ts"), "export const a = 1;\n");
});
Session.after.each(async (context) => {
  await Promise.all(context.open.map((connection) => connection.close().catch(() => {})));
  context.box.cleanup();
});

async function server(context: { box: Sandbox; open: Connection[] }, env: Record<string, string> = {}, name = "codex-mcp-client"): Promise<Connection> {
  const connection = await connect({ cwd: context.box.project, env: { CLAIMS_DIR: context.box.dir, ...env }, name });
  context.open.push(connection);
  return connection;
}

Session("should act for codex-<session_id> of Codex's turn metadata, the holder its shell derives", async (context) => {
  const connection = await server(context);
  assert.is(await claimWith(connection, codexMeta("019a-7f")), "codex-019a-7f");
  const shell = claims(["take", "./a.ts", "--json"], { cwd: context.box.project, env: { CLAIMS_DIR: context.box.dir, CODEX_SESSION_ID: "019a-7f" } });
  assert.is(shell.code, 0, "the session's shell holds what its MCP call took");
  assert.is(JSON.parse(shell.stdout).holder, "codex-019a-7f");
});

Session("should put the call's actor, --holder and CLAIMS_HOLDER before the call's session", async (context) => {
  const connection = await server(context);
  assert.is(await claimWith(connection, codexMeta("019a-7f"), { actor: "reviewer" }), "reviewer");
  const named = await server(context, { CLAIMS_HOLDER: "holder-env" });
  assert.is(await claimWith(named, codexMeta("019a-7f")), "holder-env");
});

Session("should put the call's session before a session variable of the server's environment", async (context) => {
  const connection = await server(context, { CLAUDE_CODE_SESSION_ID: "4f1c" });
  assert.is(await claimWith(connection, codexMeta("019a-7f")), "codex-019a-7f");
  assert.is(await claimWith(connection, {}), "claude-4f1c", "a call that names none");
});

Session("should take no session from a generic sessionId, or an unusable one, and derive one for the connection", async (context) => {
  const connection = await server(context);
  const derived = new RegExp(`^codex-mcp-client-\\d+-[0-9a-f]{12}$`);
  assert.match(await claimWith(connection, { sessionId: "generic" }), derived);
  assert.match(await claimWith(connection, codexMeta("bad\nid")), derived);
  assert.match(await claimWith(connection, codexMeta(42)), derived);
  assert.match(await claimWith(connection, codexMeta("")), derived);
});

Session.run();
