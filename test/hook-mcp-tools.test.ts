// Writes through another MCP server's tools (mcp__<server>__<tool>): a filesystem server's
// write_file, edit_file and move_file, a code server's, an IDE's, a shell server's command, read by
// the tool's name and arguments (src/hooks/mcp-tools.ts). Another session holds u.ts; session s2
// calls each tool through the Claude hook of the real CLI. The real clients are driven by
// test/agents/clients.e2e.ts (Claude Code) and test/mcp/codex-mcp.e2e.ts (Codex).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { event, heldBox } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Tools = suite<Context>("claims hook: other MCP servers' tools");
Tools.before.each((context) => {
  context.box = heldBox();
});
Tools.after.each((context) => context.box.cleanup());

/** The hook's answer to a tool call: "deny", or undefined for a silent allow. */
function call(box: Sandbox, tool: string, input: Record<string, unknown>): string | undefined {
  const result = event(box, { hook_event_name: "PreToolUse", tool_name: tool, tool_input: input });
  assert.is(result.code, 0, result.stderr);
  return result.stdout.trim() ? JSON.parse(result.stdout).hookSpecificOutput.permissionDecision : undefined;
}

Tools("should deny a tool whose name says it writes, on a held file its arguments name, however they name it", ({ box }) => {
  const held = join(box.project, "u.ts");
  const cases: Array<[string, Record<string, unknown>]> = [
    ["mcp__filesystem__write_file", { path: held, content: "x" }],
    ["mcp__filesystem__write_file", { path: "u.ts", content: "x" }], // from where the session works
    ["mcp__filesystem__edit_file", { path: "./u.ts", edits: [{ oldText: "a", newText: "b" }] }],
    ["mcp__filesystem__move_file", { source: "u.ts", destination: "v.ts" }],
    ["mcp__filesystem__move_file", { source: "v.ts", destination: "u.ts" }],
    ["mcp__filesystem__create_directory", { path: box.project }], // a directory above it
    ["mcp__serena__replace_symbol_body", { name_path: "u", relative_path: "u.ts", body: "x" }],
    ["mcp__jetbrains__replace_text_in_file", { pathInProject: "u.ts", oldText: "a", newText: "b" }],
    ["mcp__desktop-commander__edit_block", { file_path: held, old_string: "a", new_string: "b" }],
    ["mcp__fs__writeFile", { uri: `file://${held}` }],
    ["mcp__fs__delete_files", { paths: ["a.ts", "u.ts"] }],
    ["mcp__plugin_tools_fs__save", { target: { file: "u.ts" } }],
  ];
  for (const [tool, input] of cases) assert.is(call(box, tool, input), "deny", `${tool} ${JSON.stringify(input)}`);
});

Tools("should read a command a tool runs as a Bash call, from the directory it names", ({ box }) => {
  assert.is(call(box, "mcp__desktop-commander__start_process", { command: "echo x > u.ts", timeout_ms: 1000 }), "deny");
  assert.is(call(box, "mcp__serena__execute_shell_command", { command: "rm u.ts", cwd: box.project }), "deny");
  assert.is(call(box, "mcp__shell__run_command", { command: ["sed", "-i", "s/a/b/", "u.ts"] }), "deny");
  assert.is(call(box, "mcp__serena__execute_shell_command", { command: "rm u.ts", cwd: box.root }), undefined, "another directory's u.ts");
  assert.is(call(box, "mcp__desktop-commander__start_process", { command: "ls", timeout_ms: 1000 }), undefined);
  assert.is(call(box, "mcp__desktop-commander__start_process", { command: "python3 -i" }), "deny", "what is typed into it later may write anything");
});

Tools("should read a call's paths from the project or repository it names, which it does not write whole, and a git tool by its verb", ({ box }) => {
  // JetBrains' tools all take projectPath: read as a write of the whole project, every edit was refused while anyone held a file in it.
  assert.is(call(box, "mcp__jetbrains__replace_text_in_file", { pathInProject: "a.ts", oldText: "a", newText: "b", projectPath: box.project }), undefined);
  assert.is(call(box, "mcp__jetbrains__replace_text_in_file", { pathInProject: "u.ts", oldText: "a", newText: "b", projectPath: box.project }), "deny");
  assert.is(call(box, "mcp__jetbrains__replace_text_in_file", { pathInProject: "u.ts", oldText: "a", newText: "b", projectPath: box.root }), undefined, "another project's u.ts");
  assert.is(call(box, "mcp__jetbrains__reformat_file", { path: "u.ts", projectPath: box.project }), "deny");
  assert.is(call(box, "mcp__x__write_file", { workdir: box.project, filename: "u.ts", content: "x" }), "deny");
  assert.is(call(box, "mcp__x__extract_archive", { archive_path: "a.zip", directory: box.project }), "deny", "a plain directory is written, not only the base of the archive's path");
  assert.is(call(box, "mcp__tmux__create_session", { name: "dev", working_directory: box.project }), "deny", "naming nothing else, the place it works is what it writes");
  // The git server's tools: a checkout rewrites the tree, a new branch or the index does not.
  assert.is(call(box, "mcp__git__git_checkout", { repo_path: box.project, branch_name: "main" }), "deny");
  assert.is(call(box, "mcp__git__git_pull", { path: box.project }), "deny");
  mkdirSync(join(box.root, "other"));
  assert.is(call(box, "mcp__git__git_checkout", { path: join(box.root, "other"), branch: "main" }), undefined, "another repository");
  assert.is(call(box, "mcp__git__git_reset", { path: box.project, mode: "hard" }), "deny");
  assert.is(call(box, "mcp__git__git_reset", { repo_path: box.project }), undefined, "unstages only");
  assert.is(call(box, "mcp__git__git_create_branch", { repo_path: box.project, branch_name: "x" }), undefined);
  assert.is(call(box, "mcp__git__git_add", { repo_path: box.project, files: ["u.ts"] }), undefined);
  // A remote repository's u.ts, a dry run, a symbol's name path: no file here written.
  assert.is(call(box, "mcp__github__create_or_update_file", { owner: "o", repo: "r", path: "u.ts", content: "x", message: "m", branch: "main" }), undefined);
  assert.is(call(box, "mcp__filesystem__edit_file", { path: "u.ts", edits: [{ oldText: "a", newText: "b" }], dryRun: true }), undefined);
  assert.is(call(box, "mcp__serena__insert_after_symbol", { name_path: "Shape/area", relative_path: "a.ts", body: "x" }), undefined);
  assert.is(call(box, "mcp__x__create_file", { file_path: "b.ts", file_content: "export const b = 1;" }), undefined);
  const claimed = (JSON.parse(claims(["status", "--json", "--dir", box.dir]).stdout).claims as Array<{ target: string; holder: string }>).filter((claim) => claim.holder === "claude-s2").map((claim) => claim.target).sort();
  assert.equal(claimed, [join(box.project, "a.ts"), join(box.project, "b.ts"), join(box.root, "u.ts")], "claimed: the files written, not the remote u.ts, Shape/area or the file's content");
});

Tools("should read a command given as command_line, as argv or as a program with its args", ({ box }) => {
  assert.is(call(box, "mcp__commands__run_process", { command_line: "echo x > u.ts", mode: "shell" }), "deny");
  assert.is(call(box, "mcp__commands__run_process", { argv: ["rm", "u.ts"], mode: "executable" }), "deny");
  assert.is(call(box, "mcp__shell__execute", { command: "rm", args: ["u.ts"] }), "deny");
  assert.is(call(box, "mcp__shell__run_command", { command: "rm u.ts", working_dir: box.project }), "deny");
  assert.is(call(box, "mcp__shell__run_command", { command: "rm u.ts", working_dir: box.root }), undefined, "another directory's u.ts");
  assert.is(call(box, "mcp__shell__shell_execute", { command: ["rm", "u.ts"], directory: box.root }), undefined, "mcp-shell-server's directory is where it runs");
  assert.is(call(box, "mcp__shell__shell_execute", { command: ["rm", "u.ts"], directory: box.project }), "deny");
});

Tools("should say, refusing a process started to be typed into, how a tool types into it, not only Codex's way", ({ box }) => {
  const result = event(box, { hook_event_name: "PreToolUse", tool_name: "mcp__desktop-commander__start_process", tool_input: { command: "python3 -i" } });
  const reason: string = JSON.parse(result.stdout).hookSpecificOutput.permissionDecisionReason;
  assert.match(reason, "The command starts python3, which takes commands typed at a terminal: the agent may type into it later (Codex's write_stdin, an MCP server's tool such as desktop-commander's interact_with_process)");
  assert.match(reason, "edit with the agent's own editor (apply_patch, Edit)");
});

Tools("should read the files a patch tool's text names, Codex's format or a unified diff, from where the call works", ({ box }) => {
  const codex = "*** Begin Patch\n*** Update File: u.ts\n@@\n-export const u = 1;\n+export const u = 2;\n*** End Patch\n";
  const unified = "--- a/u.ts\n+++ b/u.ts\n@@ -1 +1 @@\n-export const u = 1;\n+export const u = 2;\n";
  assert.is(call(box, "mcp__jetbrains__apply_patch", { patch: codex }), "deny");
  assert.is(call(box, "mcp__jetbrains__apply_patch", { patch: unified, projectPath: box.project }), "deny");
  assert.is(call(box, "mcp__x__apply_diff", { diff: "--- u.ts\n+++ u.ts\n@@ -1 +1 @@\n-a\n+b\n" }), "deny", "without a/ and b/");
  assert.is(call(box, "mcp__x__apply_patch", { input: "*** Begin Patch\n*** Add File: v.ts\n+x\n*** Move to: u.ts\n*** End Patch" }), "deny", "a patch tool's text under any key");
  assert.is(call(box, "mcp__x__apply_patch", { edits: [{ patch_text: codex.replace("Update", "Delete") }] }), "deny");
  assert.is(call(box, "mcp__jetbrains__apply_patch", { patch: unified, projectPath: box.root }), undefined, "another project's u.ts");
  assert.is(call(box, "mcp__jetbrains__apply_patch", { patch: unified.replaceAll("u.ts", "p.ts") }), undefined);
  // A removed SQL comment (`-- x`) in Codex's patch is not a name.
  assert.is(call(box, "mcp__x__apply_patch", { patch: "*** Begin Patch\n*** Update File: q.sql\n@@\n--- u.ts\n*** End Patch" }), undefined);
  assert.is(call(box, "mcp__x__get_diff", { diff: unified }), undefined, "a tool that does not say it writes");
  assert.is(call(box, "mcp__filesystem__write_file", { path: "fix.md", content: unified }), undefined, "a file's text that holds a diff");
  const claimed = (JSON.parse(claims(["status", "--json", "--dir", box.dir]).stdout).claims as Array<{ target: string; holder: string }>).filter((claim) => claim.holder === "claude-s2").map((claim) => claim.target).sort();
  assert.equal(claimed, [join(box.project, "fix.md"), join(box.project, "p.ts"), join(box.project, "q.sql"), join(box.root, "u.ts")], "not a/p.ts nor b/p.ts, which a diff's names may also be read as");
});

Tools("should read a rename of a symbol as writing any file of the project, which may refer to it", ({ box }) => {
  assert.is(call(box, "mcp__serena__rename_symbol", { name_path: "u", relative_path: "a.ts", new_name: "v" }), "deny");
  assert.is(call(box, "mcp__jetbrains__rename_refactoring", { pathInProject: "a.ts", symbolName: "u", newName: "v", projectPath: box.project }), "deny");
  assert.is(call(box, "mcp__lsp__rename", { filePath: "a.ts", line: 3, character: 5, newName: "v" }), "deny");
  assert.is(call(box, "mcp__ide__refactor_extract_method", { file: "a.ts", startLine: 1, endLine: 2 }), "deny");
  mkdirSync(join(box.root, "other"));
  assert.is(call(box, "mcp__jetbrains__rename_refactoring", { pathInProject: "a.ts", symbolName: "u", newName: "v", projectPath: join(box.root, "other") }), undefined, "another project");
  // A file's rename, and the tools that only read symbols: their files alone, or none.
  assert.is(call(box, "mcp__x__rename_file", { old_path: "a.ts", new_path: "b.ts" }), undefined);
  assert.is(call(box, "mcp__serena__find_symbol", { name_path: "u", relative_path: "u.ts" }), undefined);
  assert.is(call(box, "mcp__serena__find_referencing_symbols", { name_path: "u", relative_path: "u.ts" }), undefined);
  const claimed = (JSON.parse(claims(["status", "--json", "--dir", box.dir]).stdout).claims as Array<{ target: string; holder: string }>).filter((claim) => claim.holder === "claude-s2").map((claim) => claim.target).sort();
  assert.equal(claimed, [join(box.root, "other/a.ts"), join(box.project, "a.ts"), join(box.project, "b.ts")], "the file named, not the whole project");
});

Tools("should read text typed into a running process or terminal as a shell line from a place unknown, or, where it is none, as writing any file", ({ box }) => {
  assert.is(call(box, "mcp__desktop-commander__interact_with_process", { pid: 12, input: "rm u.ts" }), "deny");
  assert.is(call(box, "mcp__desktop-commander__interact_with_process", { pid: 12, input: 'os.remove("u.ts")' }), "deny", "a REPL's line: any file");
  assert.is(call(box, "mcp__tmux__send_keys", { session: "dev", keys: "rm -f u.ts" }), "deny");
  assert.is(call(box, "mcp__tmux__send-keys", { paneId: "%1", keys: ["echo x > u.ts", "Enter"] }), "deny");
  assert.is(call(box, "mcp__terminal__write_to_terminal", { text: "rm u.ts" }), "deny");
  assert.is(call(box, "mcp__tmux__send_keys", { session: "dev", keys: "python3" }), "deny", "a program then typed into");
  assert.is(call(box, "mcp__terminal__write_to_terminal", { text: "rm u.ts", cwd: box.root }), undefined, "another directory's u.ts");
  assert.is(call(box, "mcp__desktop-commander__interact_with_process", { pid: 12, input: "ls -la" }), undefined);
  assert.is(call(box, "mcp__tmux__send_keys", { session: "dev", keys: "C-c" }), undefined);
  assert.is(call(box, "mcp__tmux__execute-command", { paneId: "%1", command: "git status" }), undefined);
  assert.is(call(box, "mcp__desktop-commander__read_process_output", { pid: 12 }), undefined);
  assert.is(call(box, "mcp__slack__send_message", { channel: "dev", text: "rm u.ts" }), undefined, "no process or terminal");
  assert.is(call(box, "mcp__playwright__browser_type", { element: "box", ref: "e1", text: "rm u.ts" }), undefined, "typed into a page");
});

Tools("should read a file's name given as a key, its text the value, under a key that names files or as a file:// URI", ({ box }) => {
  const held = join(box.project, "u.ts");
  assert.is(call(box, "mcp__x__write_files", { files: { "a.ts": "x", "u.ts": "export const u = 2;" } }), "deny");
  assert.is(call(box, "mcp__x__create_files", { files: { [held]: "x" } }), "deny");
  assert.is(call(box, "mcp__x__write_files", { files: { "./u.ts": { content: "x", mode: "0644" } } }), "deny");
  assert.is(call(box, "mcp__lsp__apply_workspace_edit", { edit: { changes: { [`file://${held}`]: [{ newText: "x" }] } } }), "deny");
  assert.is(call(box, "mcp__x__write_files", { files: { "src/b.ts": "x", Makefile: "all:\n" } }), undefined);
  assert.is(call(box, "mcp__x__write_files", { files: [{ path: "c.ts", content: "u.ts" }] }), undefined, "a file's text, under an argument's key");
  assert.is(call(box, "mcp__x__read_files", { files: { "u.ts": "utf8" } }), undefined, "a tool that does not say it writes");
  const claimed = (JSON.parse(claims(["status", "--json", "--dir", box.dir]).stdout).claims as Array<{ target: string; holder: string }>).filter((claim) => claim.holder === "claude-s2").map((claim) => claim.target).sort();
  assert.equal(claimed, [join(box.project, "Makefile"), join(box.project, "c.ts"), join(box.project, "src/b.ts")], "the files named, not their text, mode or encoding");
});

Tools("should read a browser's screenshot, snapshot or PDF as a write of the file it is saved to", ({ box }) => {
  assert.is(call(box, "mcp__playwright__browser_take_screenshot", { type: "png", filename: "u.ts" }), "deny");
  assert.is(call(box, "mcp__playwright__browser_snapshot", { filename: "u.ts" }), "deny");
  assert.is(call(box, "mcp__playwright__browser_pdf_save", { filename: "u.ts" }), "deny");
  assert.is(call(box, "mcp__puppeteer__puppeteer_screenshot", { name: "home", path: join(box.project, "u.ts") }), "deny");
  assert.is(call(box, "mcp__playwright__browser_take_screenshot", { element: "header", ref: "e1" }), undefined, "kept, not saved");
  assert.is(call(box, "mcp__playwright__browser_snapshot", {}), undefined);
  assert.is(call(box, "mcp__playwright__browser_take_screenshot", { filename: "shot.png" }), undefined);
  assert.is(call(box, "mcp__playwright__browser_navigate", { url: "file:///tmp/u.ts" }), undefined);
});

Tools("should read the file a move, rename or copy names by a new name, from or to", ({ box }) => {
  mkdirSync(join(box.project, "src"));
  assert.is(call(box, "mcp__x__rename_file", { path: "a.ts", new_name: "u.ts" }), "deny");
  assert.is(call(box, "mcp__x__rename_file", { file_path: join(box.project, "a.ts"), newName: "u.ts" }), "deny");
  assert.is(call(box, "mcp__x__rename_file", { path: "src/a.ts", new_name: "../u.ts" }), "deny", "beside the file renamed");
  assert.is(call(box, "mcp__x__copy_file", { from: "a.ts", to: "u.ts" }), "deny");
  assert.is(call(box, "mcp__x__move", { from: "u.ts", to: "b.ts" }), "deny");
  assert.is(call(box, "mcp__x__duplicate_file", { path: "a.ts", new_path: "u.ts" }), "deny");
  assert.is(call(box, "mcp__x__rename_file", { path: "a.ts", new_name: "c.ts" }), undefined);
  assert.is(call(box, "mcp__x__replace_in_file", { path: "d.ts", from: "u.ts", to: "v.ts" }), undefined, "a replacement's texts");
  const claimed = (JSON.parse(claims(["status", "--json", "--dir", box.dir]).stdout).claims as Array<{ target: string; holder: string }>).filter((claim) => claim.holder === "claude-s2").map((claim) => claim.target).sort();
  assert.equal(claimed, [join(box.project, "a.ts"), join(box.project, "c.ts"), join(box.project, "d.ts")]);
});

Tools("should read as writing any file a line typed into a process that reads as bash but is no shell line: a REPL's, psql's, SQL", ({ box }) => {
  for (const input of ['File.delete "u.ts"', "\\o u.ts", "COPY t TO '/tmp/x.csv';", "x = 1", "fix.py"]) {
    assert.is(call(box, "mcp__desktop-commander__interact_with_process", { pid: 12, input }), "deny", input);
  }
  for (const input of ["\\ls -la", "python3 -V", "git log -1", "FOO=1 env", "[ -f x ] && echo x"]) {
    assert.is(call(box, "mcp__desktop-commander__interact_with_process", { pid: 12, input }), undefined, input);
  }
  const result = event(box, { hook_event_name: "PreToolUse", tool_name: "mcp__desktop-commander__interact_with_process", tool_input: { pid: 12, input: "x = 1" } });
  const reason: string = JSON.parse(result.stdout).hookSpecificOutput.permissionDecisionReason;
  assert.match(reason, 'The tool types "x = 1" into a process or terminal already running, and that is no shell line');
  assert.not.match(reason, "a file named only by a variable", "not the reason of a shell command's");
});

Tools("should let read-only tools, tools naming no file, a free file and the claims server's own tools through, claiming what a write names", ({ box }) => {
  assert.is(call(box, "mcp__filesystem__read_file", { path: "u.ts" }), undefined);
  assert.is(call(box, "mcp__filesystem__search_files", { path: box.project, pattern: "u" }), undefined);
  assert.is(call(box, "mcp__github__create_issue", { owner: "o", repo: "r", title: "u.ts is held" }), undefined);
  assert.is(call(box, "mcp__claims__claim", { paths: ["u.ts"] }), undefined, "the claims server answers for itself");
  assert.is(call(box, "mcp__claims__release", { paths: ["u.ts"] }), undefined);
  assert.is(call(box, "mcp__fetch__fetch", { url: "https://example.com/u.ts" }), undefined);
  assert.is(call(box, "mcp__filesystem__write_file", { path: "free.ts", content: "x" }), undefined);
  const status = JSON.parse(claims(["status", "--json", "--dir", box.dir]).stdout);
  const free = status.claims.find((claim: { target: string }) => claim.target === join(box.project, "free.ts"));
  assert.is(free?.holder, "claude-s2", "claimed for the session, as an Edit's file is");
});

Tools("should keep past the next prompt what a command tool's call claimed while its permission prompt was open, as a shell call's, and give back a writing tool's", ({ box }) => {
  const claimed = () => (JSON.parse(claims(["status", "--json", "--dir", box.dir]).stdout).claims as Array<{ target: string }>).map((claim) => claim.target).sort();
  const asked = (tool: string, input: Record<string, unknown>, id: string) => {
    event(box, { hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, tool_use_id: id });
    event(box, { hook_event_name: "PermissionRequest", tool_name: tool, tool_input: input, tool_use_id: undefined });
  };
  // A process it starts may run on after the user answered and typed the next prompt: what it writes stays claimed.
  asked("mcp__desktop-commander__start_process", { command: "echo x > run.ts" }, "t1");
  asked("mcp__filesystem__write_file", { path: "w.ts", content: "x" }, "t2");
  assert.equal(claimed(), [join(box.project, "run.ts"), join(box.project, "u.ts"), join(box.project, "w.ts")]);
  event(box, { hook_event_name: "UserPromptSubmit", prompt: "next", tool_use_id: undefined });
  assert.equal(claimed(), [join(box.project, "run.ts"), join(box.project, "u.ts")], "the refused write_file's claim is given back");
});

Tools.run();
