// `claims mcp` in the real Codex client (the pinned dev dependency), against the mock model server
// on 127.0.0.1 (test/agents/mock-model.ts), with the claims hooks installed as docs/HOOKS.md says
// and the server configured in config.toml as docs/MCP.md says. The question it settles: which
// holder a claim made through MCP gets, and whether Codex's own hook then lets Codex write the file.
// Codex gives its MCP server no session variable, but names the session in each call's `_meta`;
// the server is started through a wrapper that records its environment and what Codex sends, so
// the test pins both. Slow (it starts a client): `npm run test:mcp-e2e`, not `npm test`.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claimFileName } from "../../src/targets/target.js";
import { baseEnv, BIN, box, claims, CODEX, logged, REFUSED, ROOT, run, type Box } from "../agents/harness.js";
import { startMockModel, type Step } from "../agents/mock-model.js";
import { namespaceMcpCalls } from "./namespaced-model.js";

/** Runs `codex exec` once, the scripted model making `steps`, with `claims mcp` (through a recording wrapper) as its MCP server `claims`. */
async function codex(b: Box, steps: Step[], moreServers = "") {
  const codexHome = join(b.home, ".codex");
  const mock = await startMockModel({ main: steps });
  const proxy = await namespaceMcpCalls(mock.url);
  const wrapper = join(b.root, "claims-mcp.sh");
  writeFileSync(wrapper, `#!/bin/sh\nenv > ${b.root}/server-env.txt\ntee ${b.root}/server-stdin.jsonl | ${process.execPath} ${BIN} mcp\n`);
  chmodSync(wrapper, 0o755);
  // Top-level keys before `claims hook install`'s tables. A model Codex does not know: for one it
  // knows to search tools (gpt-5.5), Codex hides MCP tools behind tool_search, which the mock does
  // not play; for this one it offers them to the model directly.
  const config = join(codexHome, "config.toml");
  writeFileSync(
    config,
    `model = "mock"\nmodel_provider = "mock"\n${readFileSync(config, "utf8")}\n` +
      `[model_providers.mock]\nname = "mock"\nbase_url = "${proxy.url}/v1"\nwire_api = "responses"\nenv_key = "MOCK_API_KEY"\n\n` +
      // Codex passes its MCP servers an allow-list of its environment, without CLAIMS_DIR: the
      // setup of docs/MCP.md forwards it, or the server would use another directory than the hooks.
      `[mcp_servers.claims]\ncommand = "${wrapper}"\nenv_vars = ["CLAIMS_DIR", "XDG_STATE_HOME"]\n${moreServers}`,
  );
  const result = await run(CODEX, ["exec", "--skip-git-repo-check", "-s", "danger-full-access", "[script:main] go"], {
    cwd: b.project,
    env: baseEnv(b, { CODEX_HOME: codexHome, MOCK_API_KEY: "x", CLAIMS_E2E_CANARY: "1" }),
  });
  await proxy.close();
  await mock.close();
  const session = /^session id: (\S+)$/m.exec(result.output)?.[1];
  const received = readFileSync(join(b.root, "server-stdin.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
  return { ...result, session, results: mock.toolResults(), serverEnv: readFileSync(join(b.root, "server-env.txt"), "utf8"), received };
}

/** What a tool gave back, as Codex reports it to the model: the output after its header lines. */
const outputOf = (result: string | undefined) => (result ?? "").slice((result ?? "").indexOf("Output:\n") + "Output:\n".length);

const E2E = suite<{ b: Box }>("claims mcp in the real Codex");
E2E.before.each((context) => {
  context.b = box();
  mkdirSync(join(context.b.home, ".codex"));
});
E2E.after.each(({ b }) => rmSync(b.root, { recursive: true, force: true }));

E2E("should claim for codex-<session id>, the holder of Codex's hooks and shell, so Codex's own edit passes and another's claim refuses it", async ({ b }) => {
  const install = claims(b, ["hook", "install", "codex"], { CODEX_HOME: join(b.home, ".codex") });
  assert.is(install.code, 0, install.stdout + install.stderr);
  const mine = join(b.project, "mine.ts");
  const held = join(b.project, "held.ts");
  writeFileSync(mine, "old\n");
  writeFileSync(held, "keep\n");
  claims(b, ["take", held, "--holder", "someone-else", "--purpose", "their work"]);

  const { code, output, session, results, serverEnv, received } = await codex(b, [
    { tool: "mcp__claims__claim", input: { paths: [mine], intent: "rename the id" } },
    { tool: "exec_command", input: { cmd: "echo new > mine.ts" } },
    { tool: "exec_command", input: { cmd: `cat '${join(b.dir, claimFileName(mine))}'` } },
    { tool: "mcp__claims__claim", input: { paths: [held], intent: "add a field" } },
    { tool: "exec_command", input: { cmd: "echo lost > held.ts" } },
  ]);
  assert.is(code, 0, output);
  assert.ok(session, output);
  assert.is(results.length, 5, results.join("\n---\n"));

  // What Codex passes: no session variable in the server's environment (an allow-list of Codex's
  // own: CLAIMS_E2E_CANARY and MOCK_API_KEY were set for Codex and did not reach it), a client name
  // in initialize, and the session in each call's _meta.
  assert.not.match(serverEnv, /^(CODEX_|CLAUDE_CODE_SESSION_ID=|CLAIMS_E2E_CANARY=|MOCK_API_KEY=)/m, serverEnv);
  assert.match(serverEnv, new RegExp(`^CLAIMS_DIR=${b.dir}$`, "m"), "forwarded by env_vars");
  const initialize = received.find((message) => message.method === "initialize");
  assert.is(initialize?.params.clientInfo.name, "codex-mcp-client");
  const call = received.find((message) => message.method === "tools/call");
  assert.is(call?.params._meta["x-codex-turn-metadata"].session_id, session, JSON.stringify(call?.params._meta));

  // The claim acts for the session as the hooks and the shell name it, and the claim file says so.
  const claimed = JSON.parse(outputOf(results[0]));
  assert.equal([claimed.actor, claimed.granted], [`codex-${session}`, true], results[0]);
  assert.is(JSON.parse(outputOf(results[2])).holder, `codex-${session}`, results[2]);
  // So Codex's hook lets Codex write the file it claimed through MCP...
  assert.not.match(results[1] ?? "", REFUSED);
  assert.is(readFileSync(mine, "utf8"), "new\n");
  // ...and releases it when the session ends: one holder for MCP and hooks.
  const log = logged(b);
  assert.ok(log.some(([event, target, holder]) => event === "release" && target === mine && holder === `codex-${session}`), JSON.stringify(log));

  // Another session's claim refuses the MCP claim and, through the hook, the write.
  const refused = JSON.parse(outputOf(results[3]));
  assert.equal([refused.actor, refused.granted, refused.results[0].holder], [`codex-${session}`, false, "someone-else"]);
  assert.match(results[4] ?? "", REFUSED);
  assert.is(readFileSync(held, "utf8"), "keep\n");
});

E2E("should deny another MCP server's write_file on a file another session holds, through Codex's hook", async ({ b }) => {
  const install = claims(b, ["hook", "install", "codex"], { CODEX_HOME: join(b.home, ".codex") });
  assert.is(install.code, 0, install.stdout + install.stderr);
  const held = join(b.project, "held.ts");
  const free = join(b.project, "free.ts");
  writeFileSync(held, "keep\n");
  claims(b, ["take", held, "--holder", "someone-else", "--purpose", "their work"]);
  // A filesystem server that writes whatever it is asked to: only the hook stands in its way.
  const fs = `\n[mcp_servers.fs]\ncommand = "${process.execPath}"\nargs = ["${join(ROOT, "test", "agents", "fs-server.mjs")}"]\n`;
  const { code, output, results } = await codex(
    b,
    [
      { tool: "mcp__fs__write_file", input: { path: held, content: "lost\n" } },
      { tool: "mcp__fs__write_file", input: { path: free, content: "new\n" } },
    ],
    fs,
  );
  assert.is(code, 0, output);
  assert.is(results.length, 2, results.join("\n---\n"));
  assert.match(results[0] ?? "", REFUSED);
  assert.is(readFileSync(held, "utf8"), "keep\n", "the claimed file is unchanged");
  assert.is(readFileSync(free, "utf8"), "new\n", "the free one written through the server");
});

E2E.run();
