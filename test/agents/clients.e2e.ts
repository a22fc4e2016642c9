// The real Claude Code and Codex command-line clients (pinned dev dependencies), driven end to end
// against the mock model server on 127.0.0.1, with the hooks set up as docs/HOOKS.md says.
// Slow (each case starts a client): `npm run test:agents`, not `npm test`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { baseEnv, BIN, box, claims, CLAUDE, CODEX, logged, REFUSED, ROOT, run, type Box } from "./harness.js";
import { startMockModel, type Step } from "./mock-model.js";

// ---------------------------------------------------------------- Claude Code

/** Claude Code's settings, as far as the hooks go. */
type Settings = { hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>> };

/** `install`: the options of `claims hook install claude`; `settings`: a change to the settings it wrote, before the client starts. */
async function claude(b: Box, scripts: Record<string, Step[]>, prompt: string | string[], args: string[] = [], setup: { install?: string[]; settings?: (settings: Settings) => void; env?: Record<string, string> } = {}) {
  const install = claims(b, ["hook", "install", "claude", "--project", ...(setup.install ?? [])]);
  assert.is(install.code, 0, install.stdout + install.stderr);
  if (setup.settings) {
    const file = join(b.project, ".claude", "settings.json");
    const settings = JSON.parse(readFileSync(file, "utf8")) as Settings;
    setup.settings(settings);
    writeFileSync(file, JSON.stringify(settings, null, 2));
  }
  const mock = await startMockModel(scripts);
  const env = baseEnv(b, { ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: "sk-ant-mock", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_AUTOUPDATER: "1", ...setup.env });
  const turns = Array.isArray(prompt) ? prompt : undefined;
  const result = await run(
    CLAUDE,
    turns
      ? ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", ...args]
      : ["-p", prompt as string, ...args],
    { cwd: b.project, env, ...(turns && { input: turns.map((text) => JSON.stringify({ type: "user", message: { role: "user", content: text } })).join("\n") + "\n" }) },
  );
  await mock.close();
  return { ...result, results: mock.toolResults(), every: mock.everyToolResult() };
}

const Claude = suite<{ b: Box }>("claims hook in the real Claude Code");
Claude.before.each((context) => {
  context.b = box();
});
Claude.after.each(({ b }) => rmSync(b.root, { recursive: true, force: true }));

Claude("should deny an Edit of a claimed file with the reason reaching the model, and claim and release a free file", async ({ b }) => {
  const taken = join(b.project, "taken.ts");
  const free = join(b.project, "free.ts");
  writeFileSync(taken, "export const a = 1;\n");
  writeFileSync(free, "export const b = 1;\n");
  claims(b, ["take", taken, "--holder", "someone-else", "--purpose", "their work"]);
  const { code, results } = await claude(
    b,
    {
      main: [
        { tool: "Edit", input: { file_path: taken, old_string: "1", new_string: "2" } },
        { tool: "Edit", input: { file_path: free, old_string: "1", new_string: "2" } },
      ],
    },
    "[script:main] edit both",
    ["--permission-mode", "acceptEdits"],
  );
  assert.is(code, 0);
  assert.match(results[0] ?? "", REFUSED);
  assert.is(readFileSync(taken, "utf8"), "export const a = 1;\n", "the claimed file is unchanged");
  assert.is(readFileSync(free, "utf8"), "export const b = 2;\n");
  const log = logged(b);
  const session = log.find(([event, target]) => event === "take" && target === free)?.[2];
  assert.ok(session?.startsWith("claude-"), "the free file was claimed for the session");
  assert.ok(log.some(([event, target, holder]) => event === "release" && target === free && holder === session), "and released at session end");
});

Claude("should deny another MCP server's write_file on a claimed file with the reason reaching the model, and claim the free file it writes", async ({ b }) => {
  const taken = join(b.project, "taken.ts");
  const free = join(b.project, "free.ts");
  writeFileSync(taken, "export const a = 1;\n");
  claims(b, ["take", taken, "--holder", "someone-else", "--purpose", "their work"]);
  // A filesystem server that writes whatever it is asked to: only the hook stands in its way.
  const config = { mcpServers: { fs: { type: "stdio", command: process.execPath, args: [join(ROOT, "test", "agents", "fs-server.mjs")] } } };
  const { code, output, results } = await claude(
    b,
    {
      main: [
        { tool: "mcp__fs__write_file", input: { path: taken, content: "export const a = 2;\n" } },
        { tool: "mcp__fs__write_file", input: { path: free, content: "export const b = 2;\n" } },
        { tool: "mcp__fs__read_file", input: { path: taken } },
      ],
    },
    "[script:main] write both",
    ["--mcp-config", JSON.stringify(config), "--strict-mcp-config", "--allowedTools", "mcp__fs__write_file", "mcp__fs__read_file"],
    { env: { ENABLE_TOOL_SEARCH: "false" } },
  );
  assert.is(code, 0, output);
  assert.match(results[0] ?? "", REFUSED);
  assert.match(results[0] ?? "", /someone-else/);
  assert.is(readFileSync(taken, "utf8"), "export const a = 1;\n", "the claimed file is unchanged");
  assert.is(readFileSync(free, "utf8"), "export const b = 2;\n", "the free one written through the server");
  assert.match(results[2] ?? "", /export const a = 1;/, "a read of the claimed file goes through");
  const session = logged(b).find(([event, target]) => event === "take" && target === free)?.[2];
  assert.ok(session?.startsWith("claude-"), "the free file was claimed for the session");
});

Claude("should deny shell writes to a claimed file (find -exec, git stash, a script, a package's script, a helper program, a large heredoc, a commit's pre-commit hook, a Monitor's command too) and a Write into a claimed directory of a file named with #", async ({ b }) => {
  const taken = join(b.project, "taken.txt");
  // A repository where taken.txt has changes: `git stash` would put back the committed text.
  writeFileSync(taken, "committed\n");
  const git = (...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: b.project, encoding: "utf8" });
  git("init", "-q");
  git("add", "taken.txt");
  assert.is(git("commit", "-qm", "first").status, 0);
  writeFileSync(taken, "keep\n");
  mkdirSync(join(b.project, "docs"));
  mkdirSync(join(b.project, "scripts"));
  writeFileSync(join(b.project, "scripts", "fix.sh"), '#!/bin/sh\nsed -i "s/keep/lost/" "$1"\n', { mode: 0o755 });
  writeFileSync(join(b.project, "package.json"), JSON.stringify({ scripts: { fmt: "sed -i s/keep/lost/ taken.txt" } }));
  writeFileSync(join(b.project, ".git", "hooks", "pre-commit"), "#!/bin/sh\nsed -i s/keep/lost/ taken.txt\n", { mode: 0o755 });
  claims(b, ["take", taken, "--holder", "someone-else", "--purpose", "their work"]);
  claims(b, ["take", join(b.project, "docs") + "/", "--holder", "someone-else", "--purpose", "their work"]);
  const { results } = await claude(
    b,
    {
      main: [
        { tool: "Bash", input: { command: "sed -i 's/keep/lost/' taken.txt", description: "edit" } },
        { tool: "Bash", input: { command: "echo lost >> taken.txt", description: "append" } },
        { tool: "Write", input: { file_path: join(b.project, "docs", "notes#1.md"), content: "x\n" } },
        { tool: "Bash", input: { command: "find . -name '*.txt' -exec sed -i 's/keep/lost/' {} +", description: "edit all" } },
        { tool: "Bash", input: { command: "git stash", description: "stash" } },
        { tool: "Bash", input: { command: "cat taken.txt", description: "read" } },
        { tool: "Bash", input: { command: "./scripts/fix.sh taken.txt", description: "script" } },
        { tool: "Bash", input: { command: "npm run fmt", description: "package script" } },
        // A helper program the agent writes, then runs; and one written and run in one command.
        { tool: "Write", input: { file_path: join(b.project, "fix.py"), content: "open('taken.txt', 'w').write('lost')\n" } },
        { tool: "Bash", input: { command: "python3 fix.py", description: "helper" } },
        { tool: "Bash", input: { command: `cat > ${b.root}/fix2.py <<'EOF'\nimport pathlib\npathlib.Path('taken.txt').write_text('lost')\nEOF\npython3 ${b.root}/fix2.py`, description: "helper in one go" } },
        // A file written whole from a heredoc with a 60 KB line: the grammar alone took the hook past its 10 s timeout, and the write went through.
        { tool: "Bash", input: { command: `cat > taken.txt <<'EOF'\n${"x".repeat(60_000)}\nEOF`, description: "big heredoc" } },
        // A command after a heredoc's redirections on its line: the grammar swallowed the rm, and it ran.
        { tool: "Bash", input: { command: "cat <<EOF > notes.txt; rm -f taken.txt\nhello\nEOF", description: "notes, then rm" } },
        // A cd that fails leaves the shell here: the rm was read as one in build/.
        { tool: "Bash", input: { command: "cd build; rm -f taken.txt", description: "clean build" } },
        // A commit whose pre-commit hook rewrites the file (a formatter over the work tree).
        { tool: "Bash", input: { command: "git -c user.name=t -c user.email=t@example.com commit --allow-empty -m wip", description: "commit" } },
        // Monitor runs a shell command of its own (its output lines are events); Claude Code runs
        // the hooks matched to Bash for it, with a Bash payload.
        { tool: "Monitor", input: { description: "watch", timeout_ms: 10_000, command: "sed -i s/keep/lost/ taken.txt; echo done" } },
      ],
    },
    "[script:main] go",
    ["--permission-mode", "acceptEdits", "--allowedTools", "Bash", "Monitor"],
  );
  assert.match(results[0] ?? "", REFUSED, "sed -i");
  assert.match(results[1] ?? "", REFUSED, ">>");
  assert.match(results[2] ?? "", REFUSED, "a # in a file name is part of the name");
  assert.match(results[3] ?? "", REFUSED, "find -exec sed -i");
  assert.match(results[4] ?? "", REFUSED, "git stash");
  assert.match(results[5] ?? "", /^keep/, "a read passes");
  assert.match(results[6] ?? "", REFUSED, "a script run by its path, given the file");
  assert.match(results[7] ?? "", REFUSED, "npm run of a script that writes the file");
  assert.not.match(results[8] ?? "", REFUSED, "the helper itself is written");
  assert.match(results[9] ?? "", REFUSED, "a helper program the agent wrote, run from its file");
  assert.match(results[10] ?? "", REFUSED, "a helper program written and run in one command");
  assert.match(results[11] ?? "", REFUSED, "a file written from a heredoc with a 60 KB line");
  assert.match(results[12] ?? "", REFUSED, "an rm after a heredoc's redirections, on its line");
  assert.match(results[13] ?? "", REFUSED, "an rm after a cd to a directory not there");
  assert.match(results[14] ?? "", REFUSED, "a commit whose pre-commit hook writes the file");
  assert.match(results[15] ?? "", REFUSED, "a Monitor's command");
  assert.is(readFileSync(taken, "utf8"), "keep\n");
  assert.not.ok(existsSync(join(b.project, "docs", "notes#1.md")));
});

Claude("should deny a subagent's write to a file another session claims", async ({ b }) => {
  const taken = join(b.project, "taken.ts");
  writeFileSync(taken, "export const a = 1;\n");
  claims(b, ["take", taken, "--holder", "someone-else", "--purpose", "their work"]);
  const { every } = await claude(
    b,
    {
      main: [{ tool: "Agent", input: { description: "helper", prompt: "[script:sub] edit", subagent_type: "general-purpose", run_in_background: false } }],
      sub: [{ tool: "Write", input: { file_path: taken, content: "overwritten\n" } }],
    },
    "[script:main] delegate",
    ["--permission-mode", "acceptEdits"],
  );
  assert.ok(every.some((text) => REFUSED.test(text)), every.join("\n---\n"));
  assert.is(readFileSync(taken, "utf8"), "export const a = 1;\n");
});

Claude("should answer a command it is slow to judge before its timeout; past a cut timeout, block it with --fail-closed and only then", async ({ b }) => {
  // A command the hook takes seconds to judge (40 KB the grammar is slow on, read until the hook's
  // 5 s parse deadline, then judged as writing any file): with another session's claim anywhere in
  // the directory, the hook's answer is a refusal, so a command that runs was not judged.
  claims(b, ["take", join(b.project, "taken.txt"), "--holder", "someone-else", "--purpose", "their work"]);
  const slow = (file: string) => `touch ${file}; bash -c '${"<".repeat(40_000)}' || true`;
  const go = (file: string) => ({ main: [{ tool: "Bash", input: { command: slow(file), description: "slow" } }] });
  const shortTimeout = (settings: Settings) => {
    for (const group of settings.hooks.PreToolUse ?? []) for (const handler of group.hooks) handler.timeout = 1;
  };
  const judged = await claude(b, go("judged.txt"), "[script:main] go", ["--allowedTools", "Bash"]);
  assert.not.ok(existsSync(join(b.project, "judged.txt")), `the hook answers within its 10 s: ${judged.results.join(" | ")}`);
  assert.match(judged.results[0] ?? "", /someone-else/);
  await claude(b, go("ran.txt"), "[script:main] go", ["--allowedTools", "Bash"], { settings: shortTimeout });
  assert.ok(existsSync(join(b.project, "ran.txt")), "a hook stopped at a 1 s timeout lets the call run, by default");
  const closed = await claude(b, go("blocked.txt"), "[script:main] go", ["--allowedTools", "Bash"], { install: ["--fail-closed"], settings: shortTimeout });
  assert.not.ok(existsSync(join(b.project, "blocked.txt")), "with --fail-closed, Claude Code blocks it");
  assert.match(closed.results[0] ?? "", /timed out; blocking because onFailure is "block"/);
  const settings = JSON.parse(readFileSync(join(b.project, ".claude", "settings.json"), "utf8")) as Settings;
  assert.is(settings.hooks.PostToolUse?.[0]?.hooks[0]?.onFailure, undefined, "only the hook that decides before a write blocks");
});

Claude.run();

// ---------------------------------------------------------------- Codex

async function codex(b: Box, steps: Step[], args: string[] = []) {
  const mock = await startMockModel({ main: steps });
  const codexHome = join(b.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  const config = join(codexHome, "config.toml");
  const previous = existsSync(config) ? readFileSync(config, "utf8") : "";
  writeFileSync(
    config,
    `model = "gpt-5.5"\nmodel_provider = "mock"\n${previous.replace(/^model(_provider)? = .*\n/gm, "")}\n[model_providers.mock]\nname = "mock"\nbase_url = "${mock.url}/v1"\nwire_api = "responses"\nenv_key = "MOCK_API_KEY"\n`,
  );
  const result = await run(CODEX, ["exec", "--skip-git-repo-check", "-s", "danger-full-access", ...args, "[script:main] go"], {
    cwd: b.project,
    env: baseEnv(b, { CODEX_HOME: codexHome, MOCK_API_KEY: "x" }),
  });
  await mock.close();
  writeFileSync(config, previous);
  return { ...result, results: mock.toolResults() };
}

const Codex = suite<{ b: Box }>("claims hook in the real Codex");
Codex.before.each((context) => {
  context.b = box();
});
Codex.after.each(({ b }) => rmSync(b.root, { recursive: true, force: true }));

Codex("should report a pasted, untrusted hook, and install one that Codex trusts and runs", async ({ b }) => {
  const codexHome = join(b.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, "hooks.json"), claims(b, ["hook", "print-config", "codex"]).stdout);
  const pasted = claims(b, ["hook", "verify", "codex"], { CODEX_HOME: codexHome });
  assert.is(pasted.code, 2);
  assert.match(pasted.stdout, /Codex will skip the claims hook .*untrusted/);
  const install = claims(b, ["hook", "install", "codex"], { CODEX_HOME: codexHome });
  assert.is(install.code, 0, install.stdout);
  assert.match(install.stdout, /trusted \d+ claims hook/);
  assert.is(claims(b, ["hook", "verify", "codex"], { CODEX_HOME: codexHome }).code, 0);
});

Codex("should deny patches, through apply_patch or the shell, and shell writes to a claimed file; claim and release a free one", async ({ b }) => {
  const codexHome = join(b.home, ".codex");
  const install = claims(b, ["hook", "install", "codex"], { CODEX_HOME: codexHome });
  assert.is(install.code, 0, install.stdout);
  const taken = join(b.project, "taken.txt");
  writeFileSync(taken, "keep\n");
  writeFileSync(join(b.project, "free.txt"), "old\n");
  claims(b, ["take", taken, "--holder", "someone-else", "--purpose", "their work"]);
  const patch = (file: string, from: string, to: string) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-${from}\n+${to}\n*** End Patch`;
  const { code, results } = await codex(b, [
    { tool: "apply_patch", input: patch("taken.txt", "keep", "lost") },
    { tool: "exec_command", input: { cmd: `apply_patch <<'PATCH'\n${patch("taken.txt", "keep", "lost")}\nPATCH` } },
    { tool: "exec_command", input: { cmd: "echo lost > taken.txt" } },
    { tool: "apply_patch", input: patch("free.txt", "old", "new") },
    { tool: "exec_command", input: { cmd: `${process.execPath} ${BIN} handover taken.txt --purpose next --json` } },
    // An interpreter on a terminal, to be written to later (write_stdin): refused before it starts.
    { tool: "exec_command", input: { cmd: "python3", tty: true, yield_time_ms: 500 } },
    { tool: "apply_patch", input: "*** Begin Patch\n  *** Update File: taken.txt\n@@\n-keep\n+lost\n*** End Patch" },
    // A header Codex trims of U+0085 (Rust's white space), and a cd whose variable Codex does not expand.
    { tool: "apply_patch", input: "*** Begin Patch\n*** Update File: taken.txt\u0085\n@@\n-keep\n+lost\n*** End Patch" },
    { tool: "exec_command", input: { cmd: `cd "$PWD${b.project}" && apply_patch <<'PATCH'\n${patch("taken.txt", "keep", "lost")}\nPATCH` } },
    // A helper program written and run in one command.
    { tool: "exec_command", input: { cmd: "cat > fix.py <<'EOF'\nopen('taken.txt', 'w').write('lost')\nEOF\npython3 fix.py" } },
    // Programs that take commands typed into them, on a terminal: a multiplexer's shell, another
    // user's shell, an editor (`:e taken.txt`), whatever is typed later through write_stdin.
    { tool: "exec_command", input: { cmd: "tmux", tty: true, yield_time_ms: 500 } },
    { tool: "exec_command", input: { cmd: "su", tty: true, yield_time_ms: 500 } },
    { tool: "exec_command", input: { cmd: "vim", tty: true, yield_time_ms: 500 } },
    // An editor asked only for its version takes no typed commands.
    { tool: "exec_command", input: { cmd: "vim --version | head -1" } },
  ]);
  assert.is(code, 0);
  for (const index of [0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12]) assert.match(results[index] ?? "", REFUSED, `call ${index}`);
  assert.not.match(results[13] ?? "", REFUSED, "vim --version");
  assert.is(readFileSync(taken, "utf8"), "keep\n");
  assert.is(readFileSync(join(b.project, "free.txt"), "utf8"), "new\n");
  const log = logged(b);
  const session = log.find(([event, target]) => event === "take" && target === join(b.project, "free.txt"))?.[2];
  assert.ok(session?.startsWith("codex-"), "the free file was claimed for the session");
  assert.ok(log.some(([event, target, holder]) => event === "release" && target === join(b.project, "free.txt") && holder === session), "released at session end");
  assert.ok(log.some(([event, , holder]) => event === "queue" && holder === session), `the handover in Codex's shell queued the same holder: ${results[4]}`);
});

Codex.run();
