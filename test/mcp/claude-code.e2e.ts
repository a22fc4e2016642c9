// `claims mcp` in the real Claude Code client (the pinned dev dependency), against the mock model
// server on 127.0.0.1 (test/agents/mock-model.ts), configured as docs/MCP.md says: the scripted
// "model" calls the claim tool on a path another session holds, and the refusal, with the holder
// and their intent, reaches the model as the tool's result. Slow (it starts a client):
// `npm run test:mcp-e2e`, not `npm test`.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startMockModel } from "../agents/mock-model.js";
import { BIN, ROOT } from "../helpers.js";

const CLAUDE = join(ROOT, "node_modules", ".bin", "claude");

interface Box {
  root: string;
  home: string;
  project: string;
  dir: string;
}

const E2E = suite<{ b: Box }>("claims mcp in the real Claude Code");
E2E.before.each((context) => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "claims-mcp-e2e-")));
  context.b = { root, home: join(root, "home"), project: join(root, "project"), dir: join(root, "claims") };
  mkdirSync(context.b.home);
  mkdirSync(context.b.project);
});
E2E.after.each(({ b }) => rmSync(b.root, { recursive: true, force: true }));

function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

E2E("should call claim through claims mcp and be refused on a path another session holds, with the holder's intent", async ({ b }) => {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: b.home, CLAIMS_DIR: b.dir };
  const held = join(b.project, "schema.ts");
  writeFileSync(held, "export const schema = 1;\n");
  const taken = spawnSync(process.execPath, [BIN, "take", held, "--holder", "session-a", "--purpose", "rename the user id"], { cwd: b.project, env, encoding: "utf8" });
  assert.is(taken.status, 0, taken.stderr);

  const free = join(b.project, "free.ts");
  writeFileSync(free, "export const free = 1;\n");
  const mock = await startMockModel({
    main: [
      { tool: "mcp__claims__claim", input: { paths: [held], intent: "add a field" } },
      // The session's shell and its MCP server are one holder: what the shell took, claim renews.
      { tool: "Bash", input: { command: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} take ${JSON.stringify(free)} --json`, description: "claim free.ts" } },
      { tool: "mcp__claims__claim", input: { paths: [free] } },
    ],
  });
  const config = { mcpServers: { claims: { type: "stdio", command: process.execPath, args: [BIN, "mcp"], env: { CLAIMS_DIR: b.dir, HOME: b.home } } } };
  const result = await run(
    CLAUDE,
    ["-p", "[script:main] add a field to schema.ts", "--mcp-config", JSON.stringify(config), "--strict-mcp-config", "--allowedTools", "mcp__claims__claim", "Bash"],
    b.project,
    { ...env, ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: "sk-ant-mock", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_AUTOUPDATER: "1", ENABLE_TOOL_SEARCH: "false" },
  );
  await mock.close();
  assert.is(result.code, 0, result.output);

  // The model was offered the tool, with its schema, under the name Claude Code gives MCP tools.
  const offered = mock.requests.flatMap((request) => ((request.body.tools as Array<{ name: string; input_schema?: { required?: string[] } }> | undefined) ?? []));
  const claimTool = offered.find((tool) => tool.name === "mcp__claims__claim");
  assert.ok(claimTool, `tools offered: ${[...new Set(offered.map((tool) => tool.name))].join(", ")}`);
  assert.equal(claimTool?.input_schema?.required, ["paths"]);

  // The refusal reached the model, naming the holder and their intent.
  const [answer, shell, again] = mock.toolResults();
  assert.ok(answer && shell && again, `three tool results went back to the model: ${mock.toolResults().join("\n---\n")}`);
  const parsed = JSON.parse(answer as string);
  assert.is(parsed.granted, false);
  assert.match(parsed.actor, /^claude-[0-9a-f-]{36}$/, "the holder derived from the session, as the hooks and the shell derive it");
  assert.equal([parsed.results[0].holder, parsed.results[0].holderIntent], ["session-a", "rename the user id"]);
  assert.match(parsed.message, /^REFUSED .*schema\.ts: held by session-a for "rename the user id"/);

  assert.is(JSON.parse(shell as string).holder, parsed.actor, "the shell's holder");
  const renewed = JSON.parse(again as string);
  assert.equal([renewed.actor, renewed.results[0].granted, renewed.results[0].renewed], [parsed.actor, true, true]);

  // Nothing was taken for the refused session, and the holder's claim is untouched.
  const status = JSON.parse(spawnSync(process.execPath, [BIN, "status", "--json"], { cwd: b.project, env, encoding: "utf8" }).stdout);
  assert.equal(status.claims.map((claim: { target: string; holder: string }) => [claim.target, claim.holder]).sort(), [[free, parsed.actor], [held, "session-a"]]);
  assert.equal(readdirSync(b.dir).filter((name) => name.startsWith(".queue-")), []);
});

E2E.run();
