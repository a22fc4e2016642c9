// The real Claude Code where a session's claims outlive one tool call: a write the permission
// system or the user refuses (its claim must not stay), and /clear (the claims must follow the new
// session id, and no one else). /clear and the permission prompt exist only in the interactive
// client, so those cases run it on a pseudo-terminal (./terminal.ts) and type as a person would.
// One suite, run against each Claude Code the docs name (claude-sessions.e2e.ts, claude-older.e2e.ts).
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { baseEnv, BIN, box, claims, run, type Box } from "./harness.js";
import { startMockModel, type MockModel, type Step } from "./mock-model.js";
import { hasTerminal, startTerminal, waitFor, type Terminal } from "./terminal.js";

// Long enough to be an API key Claude Code asks about; approved in its config below.
const API_KEY = "sk-ant-mock-key-0123456789abcdefghij";

interface Client {
  env: Record<string, string>;
  mock: MockModel;
  /** The hook events Claude Code sent, as an observer hook beside the claims hook saw them. */
  events(): Array<Record<string, string>>;
}

/**
 * The claims hook installed as docs/HOOKS.md says, a config in which a first run asks nothing
 * (onboarding done, the key approved, the project trusted), and an observer hook, given on the
 * command line with --settings, that leaves each event it sees in a file of its own.
 */
async function setUp(b: Box, scripts: Record<string, Step[]>): Promise<Client & { settings: string }> {
  const install = claims(b, ["hook", "install", "claude", "--project"]);
  assert.is(install.code, 0, install.stdout + install.stderr);
  writeFileSync(
    join(b.home, ".claude.json"),
    JSON.stringify({
      hasCompletedOnboarding: true,
      theme: "dark",
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      projects: { [b.project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    }),
  );
  const seen = join(b.root, "events");
  const observer = { hooks: [{ type: "command", command: `mkdir -p '${seen}' && cat > '${seen}'/event-$$.json` }] };
  const names = ["SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "Stop"];
  const settings = JSON.stringify({ hooks: Object.fromEntries(names.map((name) => [name, [observer]])) });
  const mock = await startMockModel(scripts);
  const env = baseEnv(b, { ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: API_KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_AUTOUPDATER: "1" });
  const events = () => {
    let files: string[] = [];
    try {
      files = readdirSync(seen);
    } catch {
      return [];
    }
    return files.flatMap((name) => {
      try {
        return [JSON.parse(readFileSync(join(seen, name), "utf8")) as Record<string, string>];
      } catch {
        return []; // still being written
      }
    });
  };
  return { env, mock, events, settings };
}

/** What `claims status` shows: target -> holder. */
function holders(b: Box): Record<string, string> {
  const shown = JSON.parse(claims(b, ["status", "--json"]).stdout) as { claims: Array<{ target: string; holder: string }> };
  return Object.fromEntries(shown.claims.map((claim) => [claim.target, claim.holder]));
}

/** Claude Code (2.1.197 at least) refuses to write a file the conversation has not read, before any hook. */
const read = (file: string): Step => ({ tool: "Read", input: { file_path: file } });

/** The permission mode that asks before an edit: "default" until Claude Code renamed it "manual". */
const askingMode = (claude: string) => (spawnSync(claude, ["--help"], { encoding: "utf8" }).stdout.includes('"manual"') ? "manual" : "default");

/** The session's claims as its own shell shows them, printed into a tool result. */
const statusStep = (): Step => ({ tool: "Bash", input: { command: `${process.execPath} ${BIN} status --json`, description: "show claims" } });
const claimsIn = (result: string | undefined): Array<{ target: string; holder: string }> => {
  const json = /\{[\s\S]*\}/.exec(result ?? "")?.[0];
  return json ? (JSON.parse(json) as { claims: Array<{ target: string; holder: string }> }).claims : [];
};

const isResult = (line: string) => {
  try {
    return (JSON.parse(line) as { type?: unknown }).type === "result";
  } catch {
    return false;
  }
};

/** Claude Code reading prompts as stream-json: each prompt is sent when the previous turn's result is out. */
function turns(claude: string, args: string[], prompts: string[], options: { cwd: string; env: Record<string, string> }): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(claude, args, { ...options, stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    let sent = 0;
    const send = () => {
      const text = prompts[sent++];
      if (text === undefined) return child.stdin.end();
      child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: text } })}\n`);
    };
    child.stdout.on("data", (chunk: Buffer) => {
      const before = output.split("\n").length;
      output += chunk.toString("utf8");
      for (const line of output.split("\n").slice(before - 1, -1)) if (isResult(line)) send();
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
    send();
  });
}

/** Registers and runs the suite against the Claude Code at `claude`. */
export function claudeSessionTests(claude: string, version: string): void {
  const Sessions = suite<{ b: Box; terminals: Terminal[] }>(`claims hook in the real Claude Code ${version}: refused writes and /clear`);
  Sessions.before.each((context) => {
    context.b = box();
    context.terminals = [];
  });
  Sessions.after.each(async ({ b, terminals }) => {
    for (const terminal of terminals) await terminal.close();
    rmSync(b.root, { recursive: true, force: true });
  });

  Sessions("should give back the claim of a Write the permission system refuses (no one to ask in -p), at the end of the turn", async ({ b }) => {
    const file = join(b.project, "refused.txt");
    writeFileSync(file, "before\n");
    const client = await setUp(b, {
      write: [read(file), { tool: "Write", input: { file_path: file, content: "after\n" } }, statusStep()],
      check: [statusStep()],
    });
    // Default permission mode; Bash is allowed so the model can look at the claims. Two turns in one
    // session, the second sent once the first has ended (Stop): a prompt sent earlier would join the
    // running turn, as a message typed while the agent works does.
    const result = await turns(
      claude,
      ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash", "--settings", client.settings],
      ["[script:write] write it", "[script:check] look"],
      { cwd: b.project, env: client.env },
    );
    await client.mock.close();
    const results = client.mock.toolResults();
    assert.is(result.code, 0, result.output.slice(-2000));
    assert.match(results[1] ?? "", /permission[\s\S]*refused\.txt/i, "the model got the refusal");
    assert.is(readFileSync(file, "utf8"), "before\n", "the file is unchanged");
    const session = client.events().find((event) => event.hook_event_name === "PreToolUse")?.session_id;
    assert.ok(session, "the hook saw the Write");
    assert.equal(claimsIn(results[2]).map((claim) => [claim.target, claim.holder]), [[file, `claude-${session}`]], "claimed before the permission decision");
    assert.ok(client.events().some((event) => event.hook_event_name === "Stop" && event.session_id === session), "the first turn ended");
    assert.equal(claimsIn(results[3]), [], "in the next turn of the same session, the claim is gone");
    assert.equal(holders(b), {});
  });

  Sessions("should give back the claim of a Write the user refuses at the permission prompt, at the next prompt", async ({ b, terminals }) => {
    if (!hasTerminal()) return console.log("  skipped: no python3 with pty here, and the permission prompt needs a terminal");
    const file = join(b.project, "refused.txt");
    writeFileSync(file, "before\n");
    const client = await setUp(b, { write: [read(file), { tool: "Write", input: { file_path: file, content: "after\n" } }], check: [statusStep()] });
    const terminal = startTerminal(claude, ["--permission-mode", askingMode(claude), "--allowedTools", "Bash", "--settings", client.settings], { cwd: b.project, env: client.env });
    terminals.push(terminal);
    const seen = (name: string, extra: (event: Record<string, string>) => boolean = () => true) => client.events().find((event) => event.hook_event_name === name && extra(event));
    await waitFor(() => seen("SessionStart"), "the client to start", terminal);
    await waitFor(() => terminal.screen().includes("❯"), "the prompt", terminal);
    await terminal.type("[script:write] write it");
    terminal.press("\r");
    await waitFor(() => /Do you want to (overwrite|create|make)/.test(terminal.screen()), "the permission prompt", terminal);
    const session = seen("PreToolUse", (event) => (event.tool_name as unknown) === "Write")?.session_id as string;
    assert.equal(holders(b), { [file]: `claude-${session}` }, "claimed before the user answers");
    // "3" is "No"; a key pressed while the prompt is still being drawn can be lost, so again if need be.
    for (let attempt = 0; attempt < 5 && !/[Rr]ejected/.test(terminal.screen()); attempt++) {
      await terminal.settle();
      terminal.press("3");
      await waitFor(() => /[Rr]ejected/.test(terminal.screen()), "the refusal on screen", terminal, 10_000).catch(() => undefined);
    }
    await waitFor(() => /[Rr]ejected/.test(terminal.screen()), "the refusal on screen", terminal);
    // Claude Code 2.1.332 sends nothing after the prompt is refused (no Stop, no PostToolUseFailure,
    // no PermissionDenied): the turn is over. The next prompt is the first event that says so.
    await terminal.type("[script:check] look");
    terminal.press("\r");
    await waitFor(() => client.mock.toolResults().length >= 3, "the second turn's status", terminal);
    const results = client.mock.toolResults();
    assert.match(results[1] ?? "", /doesn't want to proceed|rejected/i, "the model got the refusal");
    assert.equal(claimsIn(results[2]), [], "the claim is gone, in the same session, before its end");
    assert.is(readFileSync(file, "utf8"), "before\n", "the file is unchanged");
    await terminal.close();
    await client.mock.close();
  });

  Sessions("should carry the claims over /clear to the new session id, which can write; another session stays refused", async ({ b, terminals }) => {
    if (!hasTerminal()) return console.log("  skipped: no python3 with pty here, and /clear needs the interactive client");
    const file = join(b.project, "kept.txt");
    writeFileSync(file, "zero\n");
    const client = await setUp(b, {
      one: [read(file), { tool: "Write", input: { file_path: file, content: "one\n" } }],
      two: [read(file), { tool: "Write", input: { file_path: file, content: "two\n" } }, statusStep()],
      other: [read(file), { tool: "Edit", input: { file_path: file, old_string: "one", new_string: "lost" } }],
    });
    const terminal = startTerminal(claude, ["--permission-mode", "acceptEdits", "--allowedTools", "Bash", "--settings", client.settings], { cwd: b.project, env: client.env });
    terminals.push(terminal);
    const seen = (name: string, extra: (event: Record<string, string>) => boolean = () => true) => client.events().find((event) => event.hook_event_name === name && extra(event));
    const before = (await waitFor(() => seen("SessionStart"), "the client to start", terminal)).session_id as string;
    await waitFor(() => terminal.screen().includes("❯"), "the prompt", terminal);
    await terminal.type("[script:one] write it");
    terminal.press("\r");
    await waitFor(() => seen("Stop", (event) => event.session_id === before), "the first turn to end", terminal);
    await waitFor(() => holders(b)[file] === `claude-${before}` && readFileSync(file, "utf8") === "one\n", "the first session to hold the file it wrote", terminal);

    await terminal.type("/clear");
    terminal.press("\r");
    assert.ok(await waitFor(() => seen("SessionEnd", (event) => event.reason === "clear"), "SessionEnd with reason clear", terminal));
    const after = (await waitFor(() => seen("SessionStart", (event) => event.source === "clear"), "SessionStart with source clear", terminal)).session_id as string;
    assert.is.not(after, before, "/clear started a new session id");
    await waitFor(() => holders(b)[file] === `claude-${after}`, "the new session to hold the file", terminal);
    assert.equal(holders(b), { [file]: `claude-${after}` }, "held by the new session only: nothing left with the old id");

    // Another session, of another client process, running at the same time: refused, inherits nothing.
    const other = await run(claude, ["-p", "[script:other] edit it", "--permission-mode", "acceptEdits"], { cwd: b.project, env: client.env });
    assert.is(other.code, 0, other.output.slice(-2000));
    const refusal = client.mock.everyToolResult().find((text) => /claimed by another session/.test(text)) ?? "";
    assert.match(refusal, new RegExp(`held by claude-${after}`), "refused, naming the new session");
    assert.is(readFileSync(file, "utf8"), "one\n", "the other session changed nothing");

    await terminal.type("[script:two] write again");
    terminal.press("\r");
    await waitFor(() => seen("Stop", (event) => event.session_id === after), "the second turn to end", terminal);
    assert.is(readFileSync(file, "utf8"), "two\n", "the new session wrote the file");
    const shown = claimsIn(client.mock.toolResults().at(-1));
    assert.equal(shown.map((claim) => [claim.target, claim.holder]), [[file, `claude-${after}`]], "its own shell sees it held by the new session");

    await terminal.close();
    await client.mock.close();
    assert.equal(holders(b), {}, "released when the client ends");
  });

  Sessions("should have claims mcp act for the session /clear started: what it claims there, the session may write", async ({ b, terminals }) => {
    if (!hasTerminal()) return console.log("  skipped: no python3 with pty here, and /clear needs the interactive client");
    const first = join(b.project, "first.txt");
    const second = join(b.project, "second.txt");
    writeFileSync(first, "zero\n");
    writeFileSync(second, "zero\n");
    const client = await setUp(b, {
      one: [{ tool: "mcp__claims__claim", input: { paths: [first], intent: "one" } }],
      two: [{ tool: "mcp__claims__claim", input: { paths: [second], intent: "two" } }, read(second), { tool: "Edit", input: { file_path: second, old_string: "zero", new_string: "two" } }],
    });
    // The server as docs/MCP.md adds it; Claude Code starts it once, with the first session's id in its environment.
    const config = { mcpServers: { claims: { type: "stdio", command: process.execPath, args: [BIN, "mcp"], env: { CLAIMS_DIR: b.dir, HOME: b.home } } } };
    const args = ["--permission-mode", "acceptEdits", "--allowedTools", "Bash", "mcp__claims__claim", "--mcp-config", JSON.stringify(config), "--settings", client.settings];
    const terminal = startTerminal(claude, args, { cwd: b.project, env: { ...client.env, ENABLE_TOOL_SEARCH: "false" } });
    terminals.push(terminal);
    const seen = (name: string, extra: (event: Record<string, string>) => boolean = () => true) => client.events().find((event) => event.hook_event_name === name && extra(event));
    const before = (await waitFor(() => seen("SessionStart"), "the client to start", terminal)).session_id as string;
    await waitFor(() => terminal.screen().includes("❯"), "the prompt", terminal);
    await terminal.type("[script:one] claim it");
    terminal.press("\r");
    await waitFor(() => seen("Stop", (event) => event.session_id === before), "the first turn to end", terminal);
    assert.equal(holders(b), { [first]: `claude-${before}` }, "claimed through the server, as the session");

    await terminal.type("/clear");
    terminal.press("\r");
    const after = (await waitFor(() => seen("SessionStart", (event) => event.source === "clear"), "SessionStart with source clear", terminal)).session_id as string;
    await waitFor(() => holders(b)[first] === `claude-${after}`, "the new session to hold the first file", terminal);
    await terminal.type("[script:two] claim and edit");
    terminal.press("\r");
    await waitFor(() => seen("Stop", (event) => event.session_id === after), "the second turn to end", terminal);
    const results = client.mock.toolResults();
    const claimed = results.filter((result) => /^\{"actor"/.test(result ?? "")).at(-1);
    const edited = results.at(-1);
    assert.is(JSON.parse(claimed ?? "{}").actor, `claude-${after}`, "the server claims for the new session");
    assert.not.match(edited ?? "", /claimed by another session/, "its own claim does not refuse its write");
    assert.is(readFileSync(second, "utf8"), "two\n", "the new session wrote what it claimed");
    assert.equal(holders(b), { [first]: `claude-${after}`, [second]: `claude-${after}` }, "nothing held by the session /clear ended");
    await terminal.close();
    await client.mock.close();
    assert.equal(holders(b), {}, "released when the client ends");
  });

  Sessions.run();
}
