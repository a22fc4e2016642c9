// `claims hook install|verify|print-config` run where CLAIMS_DIR (or XDG_STATE_HOME) names the
// claims directory: the hook runs in the agent's environment, which may not have it, so setup says
// how to pin the directory with --dir, without changing the command it writes.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, readJson, sandbox, type Sandbox } from "./helpers.js";

type Context = { box: Sandbox; shared: string };
const Install = suite<Context>("claims hook install: the claims directory the hook checks");
Install.before.each((context) => {
  context.box = sandbox();
  context.shared = join(context.box.root, "shared claims");
});
Install.after.each((context) => context.box.cleanup());

/** Runs claims in the sandbox's project, HOME in the sandbox and no codex on PATH. */
function run(box: Sandbox, args: string[], env: Record<string, string> = {}) {
  return claims(args, { cwd: box.project, env: { HOME: box.root, PATH: box.root, ...env } });
}

const notes = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("claims: note:"));
const claudeSettings = (box: Sandbox) => readJson(join(box.root, ".claude", "settings.json")) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
const commandOf = (box: Sandbox) => claudeSettings(box).hooks.PreToolUse?.[0]?.hooks[0]?.command as string;

Install("should note on stderr the directory CLAIMS_DIR names and the command that pins it, when no --dir is given", ({ box, shared }) => {
  const result = run(box, ["hook", "install", "claude"], { CLAIMS_DIR: shared });
  assert.is(result.code, 0, result.stderr);
  const [note, ...more] = notes(result.stderr);
  assert.equal(more, []);
  assert.ok(note?.includes(`CLAIMS_DIR is ${shared} here, but the claims hook command has no --dir`), note);
  assert.ok(note?.endsWith(`to pin it, run claims hook install claude --dir '${shared}'`), note);
  assert.not.match(result.stdout, /CLAIMS_DIR/);
});

Install("should write the same command with CLAIMS_DIR as without it", ({ box, shared }) => {
  run(box, ["hook", "install", "claude", "--fail-closed"]);
  const plain = claudeSettings(box);
  run(box, ["hook", "install", "claude", "--fail-closed"], { CLAIMS_DIR: shared });
  assert.equal(claudeSettings(box), plain);
  assert.not.match(commandOf(box), /--dir/);
});

Install("should carry the note in the JSON report's warnings, ok and exit code unchanged", ({ box, shared }) => {
  const result = run(box, ["hook", "install", "claude", "--json"], { CLAIMS_DIR: shared });
  assert.is(result.code, 0);
  const report = JSON.parse(result.stdout);
  assert.is(report.ok, true);
  assert.is(report.warnings.length, 1);
  assert.ok(report.warnings[0].includes(`claims hook install claude --dir '${shared}'`));
  assert.equal(notes(result.stderr), []);
});

Install("should keep the other options and --project in the command that pins the directory", ({ box, shared }) => {
  const result = run(box, ["hook", "install", "claude", "--project", "--no-auto-take", "--claim-ttl", "600"], { CLAIMS_DIR: shared });
  assert.is(result.code, 0, result.stderr);
  assert.ok(notes(result.stderr)[0]?.endsWith(`run claims hook install claude --no-auto-take --claim-ttl 600 --dir '${shared}' --project`), result.stderr);
});

Install("should name the misspelt word: an unknown action before a known agent, or an unknown agent", ({ box }) => {
  const action = run(box, ["hook", "instal", "claude"]);
  assert.is(action.code, 2);
  assert.is(action.stderr, "claims: Unknown hook action \"instal\"; use claims hook print-config|install|verify|uninstall claude.\n");
  const agent = run(box, ["hook", "install", "claud"]);
  assert.is(agent.code, 2);
  assert.match(agent.stderr, 'Unknown agent "claud"');
  const swapped = run(box, ["hook", "claude", "install", "--project"]);
  assert.equal([swapped.code, swapped.stderr], [2, "claims: claims hook claude runs as claude's hook and takes no other word (got \"install\"); to install it, run claims hook install claude.\n"]);
  assert.is(existsSync(join(box.project, ".claude")), false, "nothing installed");
  const none = run(box, ["hook", "install"]);
  assert.is(none.code, 2);
  assert.is(none.stderr, "claims: claims hook install needs an agent: claims hook install claude|codex.\n");
});

Install("should say a directory stands where the settings file goes, exit 2, changing nothing", ({ box }) => {
  mkdirSync(join(box.root, ".claude", "settings.json"), { recursive: true });
  const result = run(box, ["hook", "install", "claude"]);
  assert.is(result.code, 2);
  assert.is(result.stderr, `claims: ${join(box.root, ".claude", "settings.json")} is a directory, where Claude Code keeps its settings file; move it away first, nothing was changed.\n`);
});

Install("should name a settings directory that is a symlink to nowhere (a dotfile manager's), exit 2, instead of crashing", ({ box }) => {
  symlinkSync(join(box.root, "dotfiles", "claude"), join(box.root, ".claude"));
  const result = run(box, ["hook", "install", "claude"]);
  assert.is(result.code, 2, result.stderr);
  assert.is(result.stderr, `claims: ${join(box.root, ".claude")} is a symlink to ${join(box.root, "dotfiles", "claude")}, which does not exist; create ${join(box.root, "dotfiles", "claude")} or remove the link, then install again.\n`);
  mkdirSync(join(box.root, "dotfiles", "claude"), { recursive: true });
  assert.is(run(box, ["hook", "install", "claude"]).code, 0, "and installs once it leads somewhere");
});

Install("should report a hook that is not installed at all as one problem naming every event", ({ box }) => {
  const verify = run(box, ["hook", "verify", "claude", "--json"]);
  assert.is(verify.code, 2);
  const { problems } = JSON.parse(verify.stdout) as { problems: string[] };
  assert.is(problems.length, 1, problems.join("\n"));
  assert.match(problems[0] as string, /^no claims hook for PreToolUse, PostToolUse, .*SessionEnd in .*: run claims hook install claude$/);
  assert.is((problems[0] as string).split(join(box.root, ".claude", "settings.json")).length, 2, "each file named once");
});

Install("should warn that a project's settings file, usually committed, names this machine's paths", ({ box, shared }) => {
  const result = run(box, ["hook", "install", "claude", "--project", "--dir", shared]);
  assert.is(result.code, 0, result.stderr);
  const said = notes(result.stderr);
  assert.is(said.length, 1, result.stderr);
  assert.match(said[0] as string, `${join(box.project, ".claude", "settings.json")} is usually committed`);
  assert.match(said[0] as string, process.execPath);
  assert.match(said[0] as string, "install it with claims hook install claude (your own ~/.claude/settings.json)");
  assert.equal(notes(run(box, ["hook", "install", "claude", "--dir", shared]).stderr), [], "not for the user's own settings");
});

Install("should say nothing of the directory with --dir, or without CLAIMS_DIR", ({ box, shared }) => {
  const pinned = run(box, ["hook", "install", "claude", "--dir", shared, "--json"], { CLAIMS_DIR: shared });
  assert.is(pinned.code, 0);
  assert.is(JSON.parse(pinned.stdout).warnings, undefined);
  assert.ok(commandOf(box).endsWith(`--dir '${shared}'`));
  const bare = run(box, ["hook", "install", "claude"]);
  assert.is(bare.code, 0);
  assert.equal(notes(bare.stderr), []);
  assert.is(bare.stderr, "");
});

Install("should note a default directory that XDG_STATE_HOME moves, and not the usual one", ({ box }) => {
  const moved = run(box, ["hook", "install", "claude"], { XDG_STATE_HOME: join(box.root, "state") });
  assert.ok(notes(moved.stderr)[0]?.includes(`XDG_STATE_HOME makes the claims directory ${join(box.root, "state", "claims")} here`), moved.stderr);
  const usual = run(box, ["hook", "install", "claude"], { XDG_STATE_HOME: join(box.root, ".local", "state") });
  assert.equal(notes(usual.stderr), []);
});

Install("should note it for codex too, even when codex is not there to trust the hooks", ({ box, shared }) => {
  const result = run(box, ["hook", "install", "codex", "--json"], { CLAIMS_DIR: shared });
  assert.is(result.code, 2); // no codex on PATH: a problem, not the note
  const report = JSON.parse(result.stdout);
  assert.ok(report.warnings[0].includes(`claims hook install codex --dir '${shared}'`));
  assert.not.match(JSON.stringify(readJson(join(box.root, ".codex", "hooks.json"))), /--dir/);
});

Install("should note it for print-config on stderr, the JSON on stdout unchanged", ({ box, shared }) => {
  const plain = run(box, ["hook", "print-config", "claude"]);
  const result = run(box, ["hook", "print-config", "claude"], { CLAIMS_DIR: shared });
  assert.is(result.stdout, plain.stdout);
  assert.equal(notes(plain.stderr), []);
  assert.ok(notes(result.stderr)[0]?.endsWith(`run claims hook print-config claude --dir '${shared}'`), result.stderr);
});

Install("should make Claude Code block a call its PreToolUse hook fails to answer with --fail-closed, and only then", ({ box }) => {
  type Handler = { command: string; onFailure?: string };
  const handlers = (json: string) => Object.entries(JSON.parse(json).hooks as Record<string, Array<{ hooks: Handler[] }>>).map(([event, groups]) => [event, groups[0]?.hooks[0]?.onFailure]);
  const closed = handlers(run(box, ["hook", "print-config", "claude", "--fail-closed"]).stdout);
  assert.equal(closed.filter(([, onFailure]) => onFailure !== undefined), [["PreToolUse", "block"]]);
  assert.ok(closed.length > 1);
  assert.equal(handlers(run(box, ["hook", "print-config", "claude"]).stdout).filter(([, onFailure]) => onFailure !== undefined), []);
  assert.equal(handlers(run(box, ["hook", "print-config", "codex", "--fail-closed"]).stdout).filter(([, onFailure]) => onFailure !== undefined), [], "Codex has no such key");
  // Installed, and gone again when reinstalled without it.
  assert.is(run(box, ["hook", "install", "claude", "--fail-closed"]).code, 0);
  assert.is((claudeSettings(box).hooks.PreToolUse?.[0]?.hooks[0] as Handler).onFailure, "block");
  assert.is(run(box, ["hook", "install", "claude"]).code, 0);
  assert.is((claudeSettings(box).hooks.PreToolUse?.[0]?.hooks[0] as Handler).onFailure, undefined);
  assert.is(claudeSettings(box).hooks.PreToolUse?.length, 1, "one claims hook, not two");
});

Install("should note on verify a CLAIMS_DIR the installed hook does not pin, or pins to another directory, exit code unchanged", ({ box, shared }) => {
  run(box, ["hook", "install", "claude"]);
  const unpinned = run(box, ["hook", "verify", "claude"], { CLAIMS_DIR: shared });
  assert.is(unpinned.code, 0);
  assert.ok(notes(unpinned.stderr)[0]?.includes("the claims hook command has no --dir"), unpinned.stderr);
  const other = join(box.root, "other");
  run(box, ["hook", "install", "claude", "--fail-closed", "--dir", other]);
  const elsewhere = run(box, ["hook", "verify", "claude", "--json"], { CLAIMS_DIR: shared });
  assert.is(elsewhere.code, 0);
  const [warning] = JSON.parse(elsewhere.stdout).warnings;
  assert.ok(warning.startsWith(`the claims hook checks ${other} (its --dir), but CLAIMS_DIR is ${shared} here`), warning);
  assert.ok(warning.endsWith(`run claims hook install claude --fail-closed --dir '${shared}'`), warning);
  const same = run(box, ["hook", "verify", "claude"], { CLAIMS_DIR: other });
  assert.is(same.code, 0);
  assert.equal(notes(same.stderr), []);
});

Install("should fail verify where CLAIMS_DIR is relative: the hook refuses it and lets every write through", ({ box }) => {
  run(box, ["hook", "install", "claude"]);
  const relative = run(box, ["hook", "verify", "claude", "--json"], { CLAIMS_DIR: "claims-dir" });
  assert.is(relative.code, 2);
  assert.ok((JSON.parse(relative.stdout).problems as string[]).some((problem) => problem.startsWith('CLAIMS_DIR is a relative path ("claims-dir")')), relative.stdout);
  assert.is(run(box, ["hook", "verify", "claude"]).code, 0, "fine without it");
});

Install("should name a settings file with \"disableAllHooks\": true as a problem: Claude Code runs no hook then", ({ box }) => {
  mkdirSync(join(box.project, ".claude"), { recursive: true });
  const local = join(box.project, ".claude", "settings.local.json");
  writeFileSync(local, '{"disableAllHooks": true}');
  const install = run(box, ["hook", "install", "claude"]);
  assert.is(install.code, 2, install.stdout);
  assert.match(install.stdout, `claims: problem: ${local} sets "disableAllHooks": true, so Claude Code runs no hook, the claims hook included: remove it there, then verify again\n`);
  assert.match(install.stdout, "the claude hook will not guard every write");
  writeFileSync(local, '{"disableAllHooks": false}');
  assert.is(run(box, ["hook", "verify", "claude"]).code, 0);
});

Install.run();

const Shape = suite<{ box: Sandbox }>("claims hook install|verify: a settings file of the wrong shape");
Shape.before.each((context) => {
  context.box = sandbox();
});
Shape.after.each((context) => context.box.cleanup());

/** Writes a settings file, runs the command, and asserts that it failed without touching the file or its directory. */
function refusedUnchanged(box: Sandbox, file: string, text: string, args: string[]) {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
  const before = { mtime: statSync(file).mtimeMs, names: readdirSync(join(file, "..")) };
  const result = run(box, args);
  assert.is(readFileSync(file, "utf8"), text, "the file is unchanged");
  assert.is(statSync(file).mtimeMs, before.mtime);
  assert.equal(readdirSync(join(file, "..")), before.names, "no temp file left beside it");
  return result;
}

Shape("should name the file, the key, what it found and what it expected, exit 2, and change nothing", ({ box }) => {
  const file = join(box.root, ".claude", "settings.json");
  const fix = "; fix it first, nothing was changed.";
  const cases: Array<[unknown, string]> = [
    [{ model: "x", hooks: "on" }, `"hooks" is a string ("on"), but Claude Code expects an object of events ({"PreToolUse": [...], ...}) there`],
    [{ hooks: ["PreToolUse"] }, `"hooks" is an array, but Claude Code expects an object of events`],
    [{ hooks: { PreToolUse: { matcher: "Bash", hooks: [] } } }, `"hooks.PreToolUse" is an object, but Claude Code expects an array of matcher groups ([{"matcher": "...", "hooks": [...]}]) there`],
    [{ hooks: { Stop: [null] } }, `"hooks.Stop[0]" is null, but Claude Code expects a matcher group object ({"matcher": "...", "hooks": [...]}) there`],
    [{ hooks: { Stop: [{ hooks: [] }, { hooks: { type: "command" } }] } }, `"hooks.Stop[1].hooks" is an object, but Claude Code expects an array of handler objects ([{"type": "command", "command": "..."}]) there`],
    [{ hooks: { Stop: [{ hooks: [{ type: "command", command: "x" }, "echo hi"] }] } }, `"hooks.Stop[0].hooks[1]" is a string ("echo hi"), but Claude Code expects a handler object ({"type": "command", "command": "..."}) there`],
    [{ hooks: { PreToolUse: [{ matcher: 3, hooks: [] }] } }, `"hooks.PreToolUse[0].matcher" is a number (3), but Claude Code expects a string of tool names ("Write|Edit") there`],
  ];
  for (const [settings, expected] of cases) {
    const result = refusedUnchanged(box, file, `${JSON.stringify(settings)}\n`, ["hook", "install", "claude"]);
    assert.is(result.code, 2, JSON.stringify(settings));
    assert.ok(result.stderr.startsWith(`claims: ${file}: ${expected}`), result.stderr);
    assert.ok(result.stderr.endsWith(`${fix}\n`), result.stderr);
    assert.is(result.stderr.split("\n").length, 2, "one line");
  }
  const whole = refusedUnchanged(box, file, "[1, 2]\n", ["hook", "install", "claude", "--json"]);
  assert.is(whole.code, 2);
  assert.is(JSON.parse(whole.stdout).error.code, "BAD_INPUT");
  assert.is(JSON.parse(whole.stdout).error.message, `${file} holds an array where Claude Code expects a JSON object of settings ({"hooks": {...}})${fix}`);
});

Shape("should say so for Codex's hooks.json too, and report it as verify's problem", ({ box }) => {
  const file = join(box.root, ".codex", "hooks.json");
  const install = refusedUnchanged(box, file, '{"hooks": {"PreToolUse": "apply_patch"}}', ["hook", "install", "codex"]);
  assert.is(install.code, 2);
  assert.is(install.stderr, `claims: ${file}: "hooks.PreToolUse" is a string ("apply_patch"), but Codex expects an array of matcher groups ([{"matcher": "...", "hooks": [...]}]) there; fix it first, nothing was changed.\n`);
  const claude = join(box.root, ".claude", "settings.json");
  const verify = refusedUnchanged(box, claude, '{"hooks": 1}', ["hook", "verify", "claude", "--json"]);
  assert.is(verify.code, 2);
  assert.ok(
    JSON.parse(verify.stdout).problems.includes(`${claude}: "hooks" is a number (1), but Claude Code expects an object of events ({"PreToolUse": [...], ...}) there; fix it, then verify again`),
    verify.stdout,
  );
});

Shape("should have verify, which never changes anything, say what to do next, not that nothing was changed", ({ box }) => {
  const claude = join(box.root, ".claude", "settings.json");
  const problemsOf = (text: string) => {
    const verify = refusedUnchanged(box, claude, text, ["hook", "verify", "claude"]);
    assert.is(verify.code, 2);
    assert.not.match(verify.stdout + verify.stderr, /nothing was changed/);
    // The first problem is the file's; the next says no hook was found (none could be read from it).
    return verify.stdout.split("\n").find((line) => line.startsWith("claims: problem: "));
  };
  const notJson = problemsOf("{ not json");
  assert.ok(notJson?.startsWith(`claims: problem: ${claude} is not valid JSON (`) && notJson.endsWith("); fix it, then verify again"), notJson);
  assert.is(problemsOf("[]"), `claims: problem: ${claude} holds an array where Claude Code expects a JSON object of settings ({"hooks": {...}}); fix it, then verify again`);
  rmSync(claude);
  mkdirSync(claude);
  const directory = run(box, ["hook", "verify", "claude"]);
  assert.is(directory.code, 2);
  assert.match(directory.stdout, `claims: problem: ${claude} is a directory, where Claude Code keeps its settings file; move it away, then install the hook\n`);
  assert.equal(readdirSync(claude), [], "verify left it as it was");
});

Shape.run();

const Uninstall = suite<{ box: Sandbox }>("claims hook uninstall: takes out the claims hook and nothing else");
Uninstall.before.each((context) => {
  context.box = sandbox();
});
Uninstall.after.each((context) => context.box.cleanup());

Uninstall("should remove every claims hook from the user's settings, keeping the other settings and hooks, and say so", ({ box }) => {
  const file = join(box.root, ".claude", "settings.json");
  const mine = { matcher: "Bash", hooks: [{ type: "command", command: "echo mine" }] };
  const before = { model: "opus", hooks: { PreToolUse: [mine], Stop: [{ hooks: [{ type: "command", command: "echo stop" }] }] } };
  mkdirSync(join(box.root, ".claude"), { recursive: true });
  writeFileSync(file, JSON.stringify(before));
  assert.is(run(box, ["hook", "install", "claude", "--fail-closed"]).code, 0);
  assert.match(readFileSync(file, "utf8"), "hook claude");
  const result = run(box, ["hook", "uninstall", "claude"]);
  assert.is(result.code, 0, result.stderr);
  assert.equal(readJson(file), before, "exactly what was there before install");
  assert.match(result.stdout, `claims: removed the claims hook from ${file} (`);
  const again = run(box, ["hook", "uninstall", "claude"]);
  assert.equal([again.code, again.stdout], [0, `claims: no claims hook in ${file}; nothing to do\n`]);
  assert.equal(readJson(file), before);
  assert.is(run(box, ["hook", "verify", "claude"]).code, 2, "verify finds no hook now");
});

Uninstall("should take out a Codex hooks.json's claims hooks, and an emptied hooks key with them; create no file where there is none", ({ box }) => {
  const file = join(box.root, ".codex", "hooks.json");
  run(box, ["hook", "install", "codex"]);
  assert.match(readFileSync(file, "utf8"), "hook codex");
  const result = run(box, ["hook", "uninstall", "codex", "--json"]);
  assert.is(result.code, 0, result.stderr);
  assert.is(JSON.parse(result.stdout).ok, true);
  assert.equal(readJson(file), {});
  const none = run(box, ["hook", "uninstall", "claude", "--project"]);
  assert.is(none.code, 0, none.stderr);
  assert.is(existsSync(join(box.project, ".claude")), false, "nothing made");
});

Uninstall("should leave a settings file of the wrong shape as it is, exit 2", ({ box }) => {
  const file = join(box.root, ".claude", "settings.json");
  const result = refusedUnchanged(box, file, '{"hooks": {"Stop": "claims hook claude"}}', ["hook", "uninstall", "claude"]);
  assert.is(result.code, 2);
  assert.match(result.stderr, `claims: ${file}: "hooks.Stop" is a string`);
});

Uninstall("should note a claims hook left in the project's settings, which Claude Code still runs", ({ box }) => {
  run(box, ["hook", "install", "claude", "--project"]);
  run(box, ["hook", "install", "claude"]);
  const result = run(box, ["hook", "uninstall", "claude"]);
  assert.is(result.code, 0);
  assert.match(result.stderr, `claims: note: a claims hook is still in ${join(box.project, ".claude", "settings.json")}, and Claude Code runs it: run claims hook uninstall claude --project in ${box.project}\n`);
});

Uninstall("should write through a settings file that is a symlink (a dotfiles repository's), keeping the link and the file's mode", ({ box }) => {
  const real = join(box.root, "dotfiles", "settings.json");
  const link = join(box.root, ".claude", "settings.json");
  mkdirSync(join(box.root, "dotfiles"));
  mkdirSync(join(box.root, ".claude"));
  writeFileSync(real, '{"model": "opus"}', { mode: 0o600 });
  symlinkSync("../dotfiles/settings.json", link);
  for (const action of ["install", "uninstall"]) {
    const result = run(box, ["hook", action, "claude"]);
    assert.is(result.code, 0, result.stderr);
    assert.ok(lstatSync(link).isSymbolicLink(), `${action}: still the link`);
    assert.is(statSync(real).mode & 0o777, 0o600, `${action}: still owner-only`);
    assert.is(readFileSync(real, "utf8").includes("hook claude"), action === "install");
  }
  assert.equal(readJson(real), { model: "opus" });
  rmSync(real);
  const dangling = run(box, ["hook", "install", "claude"]);
  assert.equal([dangling.code, dangling.stderr], [2, `claims: ${link} is a symlink to ../dotfiles/settings.json, which does not exist; create it or remove the link, nothing was changed.\n`]);
  assert.ok(lstatSync(link).isSymbolicLink(), "left as it was");
});

Uninstall.run();
