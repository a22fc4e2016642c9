// Commands that would remove, move or rewrite a whole claims directory, and with it other sessions'
// claims, named as the agent's shell would read them (its variables, another holder's directory),
// judged by the Claude hook through the real CLI, the claims in the way taken by real processes.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, iso, sandbox, writeClaimFile, type Sandbox } from "./helpers.js";

const Wipe = suite<{ box: Sandbox }>("claims hook: writes that would wipe a claims directory");
Wipe.before.each((context) => {
  context.box = sandbox();
});
Wipe.after.each((context) => context.box.cleanup());

/** Another session's claim on the project's a.ts, taken by a real process in the default claims directory of XDG_STATE_HOME `state`. */
function heldByOther(box: Sandbox) {
  const state = join(box.root, "state");
  const env = { XDG_STATE_HOME: state };
  writeFileSync(join(box.project, "a.ts"), "");
  assert.is(claims(["take", join(box.project, "a.ts"), "--holder", "other", "--purpose", "the parser"], { env }).code, 0);
  return { state, dir: join(state, "claims"), env };
}

Wipe("should read $XDG_STATE_HOME and $CLAIMS_DIR in a command as the agent's shell inherits them from the environment the hook shares, unless the command sets them", ({ box }) => {
  const { dir, env } = heldByOther(box);
  assert.ok(existsSync(join(dir, `${encodeURIComponent(join(box.project, "a.ts"))}.json`)));
  const hook = (command: string, environment: Record<string, string> = env) => {
    const input = JSON.stringify({ session_id: "s2", cwd: box.project, tool_use_id: "t1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
    const result = spawnSync(process.execPath, [BIN, "hook", "claude"], { input, cwd: box.project, env: cleanEnv(environment), encoding: "utf8" });
    return result.stdout.trim() ? JSON.parse(result.stdout).hookSpecificOutput : undefined;
  };
  const wipes = [
    `rm -rf "$XDG_STATE_HOME"`,
    `rm -rf $XDG_STATE_HOME/claims`,
    `rm -rf "\${XDG_STATE_HOME}/claims"`,
    `rm -f $XDG_STATE_HOME/claims/*.json`,
    `rm -rf "\${XDG_STATE_HOME:-$HOME/.local/state}/claims"`,
    `cd "$XDG_STATE_HOME" && rm -rf claims`,
    `mv "$XDG_STATE_HOME" ${box.root}/old-state`,
    `bash -c 'rm -rf "$XDG_STATE_HOME"'`,
    `x=1; rm -rf "$XDG_STATE_HOME/claims"`,
  ];
  for (const command of wipes) {
    const answer = hook(command);
    assert.is(answer?.permissionDecision, "deny", command);
    assert.match(answer.permissionDecisionReason, new RegExp(`(holds|is in) the claims directory ${dir}`), command);
  }
  assert.is(hook(`rm -rf "$CLAIMS_DIR"`, { CLAIMS_DIR: dir })?.permissionDecision, "deny", "CLAIMS_DIR");
  assert.is(hook(`rm -rf $CLAIMS_DIR/*`, { CLAIMS_DIR: dir })?.permissionDecision, "deny", "CLAIMS_DIR's files");
  // Set by the command before: another directory, not this one (nor a false refusal of it).
  for (const command of [`XDG_STATE_HOME=$PWD/tmp; rm -rf "$XDG_STATE_HOME"`, `for XDG_STATE_HOME in tmp; do rm -rf "$XDG_STATE_HOME/claims"; done`]) assert.is(hook(command), undefined, command);
  // Set in a way the walk does not follow (export in a chain, read): not the hook's value,
  // but a place ending in claims that may be this claims directory.
  for (const command of [`export XDG_STATE_HOME=$PWD/tmp && rm -rf $XDG_STATE_HOME/claims`, `read -r XDG_STATE_HOME < f.txt; rm -rf "$XDG_STATE_HOME/claims"`]) {
    assert.match(hook(command)?.permissionDecisionReason ?? "", /writes a place that ends in claims, where the text does not fix the rest/, command);
  }
  assert.is(hook(`rm -rf node_modules dist`), undefined, "everyday removals");
  assert.ok(existsSync(join(dir, `${encodeURIComponent(join(box.project, "a.ts"))}.json`)), "nothing was run");
});

Wipe("should read dirname, realpath, readlink -f and cd && pwd of $XDG_STATE_HOME or $CLAIMS_DIR as the place they print, and deny a write of a place not fixed at all, where only a name is claimed", ({ box }) => {
  // A claim on a name covers no file: a write the hook cannot place was let through beside it.
  const state = join(box.root, "state");
  const env = { XDG_STATE_HOME: state };
  assert.is(claims(["take", "name:deploy", "--holder", "other", "--purpose", "the deploy"], { env }).code, 0);
  const dir = join(state, "claims");
  assert.ok(existsSync(dir));
  for (const [command, environment] of [
    [`rm -rf "$(dirname "$XDG_STATE_HOME")"`, env],
    ["rm -rf `dirname $XDG_STATE_HOME`", env],
    [`rm -rf "$(dirname "$(dirname "$XDG_STATE_HOME/claims/x.json")")"`, env],
    [`mv "$(dirname -- "$XDG_STATE_HOME/claims")" ${box.root}/old`, env],
    [`rm -rf "$(realpath "$XDG_STATE_HOME")"`, env],
    [`rm -rf "$(readlink -f "$XDG_STATE_HOME" 2>/dev/null)"`, env],
    [`rm -rf "$(cd "$XDG_STATE_HOME/.." && pwd)"`, env],
    [`rm -rf "$(dirname "$CLAIMS_DIR")"`, { ...env, CLAIMS_DIR: dir }],
  ] as const) {
    const answer = hook(box, command, [], environment);
    assert.is(answer?.permissionDecision, "deny", command);
    assert.match(answer.permissionDecisionReason, `holds the claims directory ${dir}, where other sessions hold claims`, command);
  }
  // Beside it; `$(pwd)` is where the command runs (the project), not a place the text leaves open.
  for (const command of [`rm -rf "$(dirname "$XDG_STATE_HOME")/cache"`, `rm -rf "$(dirname "$XDG_STATE_HOME")"/*.log`, `rm -rf "$(dirname "$XDG_STATE_HOME/logs/x")"`, `out=$(pwd)/build; rm -rf "$out"`, 'rm -rf "`pwd -P`/dist"']) assert.is(hook(box, command, ["--no-auto-take"], env), undefined, command);
  // A place the text does not fix at all may be any claims directory: no claim on a file is in its
  // way, but the claims on names there are.
  for (const command of [`rm -rf "$D"`, `rm -rf "$(dirname "$D")"`, `mv "$(cat where.txt)" ${box.root}/old`, `echo x > "$f"`]) {
    const answer = hook(box, command, [], env);
    assert.is(answer?.permissionDecision, "deny", command);
    assert.match(answer.permissionDecisionReason, `a place its text does not fix at all: it may be the claims directory ${dir}, a tree holding it or a file in it, where other sessions hold claims`, command);
    assert.match(answer.permissionDecisionReason, "Run it with the places it writes spelled out", command);
  }
  // What the refused call took for its other writes is given back.
  assert.is(hook(box, `echo x > b.ts; rm -rf "$D"`, [], env)?.permissionDecision, "deny");
  assert.not.match(claims(["status", "--json"], { env }).stdout, "claude-s2", "b.ts given back");
  assert.ok(existsSync(dir), "nothing was run");
  assert.is(claims(["release", "name:deploy", "--holder", "other"], { env }).code, 0);
  assert.is(hook(box, `rm -rf "$D"`, ["--no-auto-take"], env), undefined, "released: nothing of anyone's is dropped");
  assert.is(hook(box, `echo x > "$f"`, [], env), undefined, "released: nothing of anyone's is dropped");
  // A crashed session's claim left stale until a sweep is in nobody's way: such writes pass beside it.
  const old = iso(Date.now() - 7200_000);
  writeClaimFile(dir, "deploy.json", { target: "deploy", holder: "gone", purpose: "the deploy", taken_at: old, heartbeat_at: old });
  assert.is(hook(box, `echo x > "$f"`, [], env), undefined, "a stale claim refuses nothing");
});

/** The Claude hook's answer to a Bash call of session s2 in the project, with these hook options and environment. */
function hook(box: Sandbox, command: string, options: string[], environment: Record<string, string>) {
  const input = JSON.stringify({ session_id: "s2", cwd: box.project, tool_use_id: "t1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
  const result = spawnSync(process.execPath, [BIN, "hook", "claude", ...options], { input, cwd: box.project, env: cleanEnv(environment), encoding: "utf8" });
  return result.stdout.trim() ? JSON.parse(result.stdout).hookSpecificOutput : undefined;
}

Wipe("should read ${XDG_STATE_HOME:-$HOME/.local/state} as its default where the hook's environment has no XDG_STATE_HOME, as the claims commands do", ({ box }) => {
  const home = join(box.root, "home");
  const state = join(home, ".local", "state");
  mkdirSync(state, { recursive: true });
  const env = { HOME: home };
  writeFileSync(join(box.project, "a.ts"), "");
  assert.is(claims(["take", join(box.project, "a.ts"), "--holder", "other", "--purpose", "the parser"], { env }).code, 0);
  assert.ok(existsSync(join(state, "claims", `${encodeURIComponent(join(box.project, "a.ts"))}.json`)));
  for (const command of [`rm -rf "\${XDG_STATE_HOME:-$HOME/.local/state}"`, `rm -rf \${XDG_STATE_HOME:-~/.local/state}/claims`, `mv "\${XDG_STATE_HOME-\${HOME}/.local/state}" ${box.root}/old`]) {
    const answer = hook(box, command, [], env);
    assert.is(answer?.permissionDecision, "deny", command);
    assert.match(answer.permissionDecisionReason, `the claims directory ${join(state, "claims")}`, command);
  }
  for (const command of [`XDG_STATE_HOME=$PWD/tmp; rm -rf "\${XDG_STATE_HOME:-$HOME/.local/state}"`]) assert.is(hook(box, command, [], env), undefined, command);
});

Wipe("should deny a pinned session a write of a tree holding the default claims directory, where sessions without the pin claim", ({ box }) => {
  const { state, env } = heldByOther(box);
  const pin = join(box.root, "pinned");
  for (const [options, environment, how] of [[["--dir", pin], env, "--dir"], [[], { ...env, CLAIMS_DIR: pin }, "CLAIMS_DIR"]] as const) {
    for (const command of [`rm -rf ${state}`, `mv ${state} ${state}.old`, `chmod -R 000 ${state}`, `rm -rf ${box.root}/st*`]) {
      const answer = hook(box, command, [...options], environment);
      assert.is(answer?.permissionDecision, "deny", `${how}: ${command}`);
      assert.match(answer.permissionDecisionReason, `holds the claims directory ${join(state, "claims")}, where other sessions hold claims`, `${how}: ${command}`);
    }
    assert.is(hook(box, `rm -rf ${box.root}/*.txt node_modules`, [...options], environment), undefined, `${how}: beside it`);
  }
  assert.is(claims(["release", join(box.project, "a.ts"), "--holder", "other"], { env }).code, 0);
  assert.is(hook(box, `rm -rf ${state}`, ["--dir", pin], env), undefined, "no other session's claims there");
});

Wipe("should deny a write of a tree outside the project holding a claims directory known only by its take lock, or one another project's .claims names", ({ box }) => {
  const env = { XDG_STATE_HOME: join(box.root, "state") };
  const shared = join(box.root, "srv");
  const team = join(shared, "team", "claims");
  mkdirSync(join(shared, "team"), { recursive: true });
  assert.is(claims(["take", "name:release", "--dir", team, "--holder", "other", "--purpose", "the release"], { env }).code, 0);
  const other = join(box.root, "other-project");
  mkdirSync(other);
  writeFileSync(join(other, ".claims"), JSON.stringify({ dir: "../srv/other-claims" }));
  writeFileSync(join(other, "b.ts"), "");
  assert.is(claims(["take", "b.ts", "--holder", "someone", "--purpose", "the lexer"], { cwd: other, env }).code, 0);
  assert.ok(existsSync(join(shared, "other-claims", `${encodeURIComponent(join(other, "b.ts"))}.json`)));
  mkdirSync(join(shared, "logs"));
  for (const [command, dir] of [
    [`rm -rf ${shared}`, "(team/claims|other-claims)"],
    [`rm -rf ${join(shared, "team")}`, "team/claims"],
    [`mv ${join(shared, "team")} ${join(box.root, "old")}`, "team/claims"],
    [`find ${shared} -delete`, "(team/claims|other-claims)"],
    [`chmod -R go-rwx ${shared}`, "(team/claims|other-claims)"],
    [`rm -rf ${shared}/t*`, "team/claims"],
  ]) {
    const answer = hook(box, command, [], env);
    assert.is(answer?.permissionDecision, "deny", command);
    assert.match(answer.permissionDecisionReason, new RegExp(`holds the claims directory ${shared}/${dir}, where other sessions hold claims`), command);
  }
  for (const command of [`rm -rf ${join(shared, "logs")}`, `rm -rf ${shared}/*.log`, "rm -rf node_modules dist", "mkdir -p build && rm -rf build"]) assert.is(hook(box, command, [], env), undefined, command);
  assert.is(claims(["release", "name:release", "--dir", team, "--holder", "other"], { env }).code, 0);
  assert.is(claims(["release", "b.ts", "--holder", "someone"], { cwd: other, env }).code, 0);
  assert.is(hook(box, `rm -rf ${shared}`, [], env), undefined, "released: nothing of anyone's is dropped");
});

Wipe("should deny a removal or move of a tree inside the project holding a claims directory known only by its take lock (rm -rf tmp, git clean -d), and leave whole-project writes alone", ({ box }) => {
  const env = { XDG_STATE_HOME: join(box.root, "state") };
  mkdirSync(join(box.project, "tmp", "cache"), { recursive: true });
  mkdirSync(join(box.project, "src"));
  writeFileSync(join(box.project, "src", "a.ts"), "");
  // The other sessions claim in tmp/claims by --dir; this one, elsewhere.
  assert.is(claims(["take", "name:release", "--dir", "tmp/claims", "--holder", "other", "--purpose", "the release"], { cwd: box.project, env }).code, 0);
  const store = join(box.project, "tmp", "claims");
  for (const repository of [false, true]) {
    if (repository) spawnSync("git", ["init", "-q", box.project]);
    for (const command of ["rm -rf tmp", "mv tmp old", "rm -rf ./tmp/", "rm -rf t*", "cd tmp && cd .. && rm -r tmp", `find ${box.project}/tmp -delete`]) {
      const answer = hook(box, command, [], env);
      assert.is(answer?.permissionDecision, "deny", `${repository ? "in a repository" : "no repository"}: ${command}`);
      assert.match(answer.permissionDecisionReason, `holds the claims directory ${store}, where other sessions hold claims`, command);
    }
    // Beside it, and writes read as the whole project (they leave an untracked directory alone).
    for (const command of ["rm -rf tmp/cache", "rm -rf src", "prettier --write ."]) assert.is(hook(box, command, ["--no-auto-take"], env), undefined, `${repository}: ${command}`);
  }
  for (const command of ["git checkout .", "git stash", "git clean -fdx -e tmp", "git clean -fx"]) assert.is(hook(box, command, ["--no-auto-take"], env), undefined, command);
  // Untracked, removed whole by git clean -d: named as the trees it removes.
  for (const command of ["git clean -fdx", "git clean -fd", "git clean -fd tmp", "git clean -fdq", "git -C tmp/.. clean -f -d"]) {
    const answer = hook(box, command, [], env);
    assert.is(answer?.permissionDecision, "deny", command);
    assert.match(answer.permissionDecisionReason, `holds the claims directory ${store}, where other sessions hold claims`, command);
    assert.match(answer.permissionDecisionReason, "git clean -e tmp leaves it", command);
  }
  assert.is(claims(["release", "name:release", "--dir", store, "--holder", "other"], { env }).code, 0);
  assert.is(hook(box, "rm -rf tmp", ["--no-auto-take"], env), undefined, "released: nothing of anyone's is dropped");
});

Wipe("should let a write of a package whole through where the package's own .claims names a claims directory inside it (prettier --write packages/app)", ({ box }) => {
  const env = { XDG_STATE_HOME: join(box.root, "state") };
  const app = join(box.project, "packages", "app");
  mkdirSync(join(app, "src"), { recursive: true });
  writeFileSync(join(app, ".claims"), JSON.stringify({ dir: ".claims-state" }));
  writeFileSync(join(box.project, ".gitignore"), ".claims-state/\n");
  spawnSync("git", ["init", "-q", box.project]);
  // Another session of the package claims a name in the package's claims directory, nothing under src.
  assert.is(claims(["take", "name:deploy", "--holder", "other", "--purpose", "the deploy"], { cwd: app, env }).code, 0);
  assert.ok(existsSync(join(app, ".claims-state", "deploy.json")));
  for (const command of ["npx prettier --write packages/app", "npx eslint --fix packages/app", "git checkout packages/app", "git restore packages/app", "cd packages/app && npx prettier --write .", "git stash push -- packages/app"]) {
    assert.is(hook(box, command, ["--no-auto-take"], env), undefined, command);
  }
  // What removes the package's claims directory whole is refused: git clean -d lists it.
  const cleaned = hook(box, "git clean -fdx packages/app", ["--no-auto-take"], env);
  assert.is(cleaned?.permissionDecision, "deny", "git clean -fdx packages/app");
  assert.ok(existsSync(join(app, ".claims-state", "deploy.json")), "nothing was run");
});

Wipe("should deny git clean -d removing a claims directory inside the project itself while other sessions hold claims there, and let it through with only the session's own", ({ box }) => {
  const env = { XDG_STATE_HOME: join(box.root, "state") };
  spawnSync("git", ["init", "-q", box.project]);
  writeFileSync(join(box.project, ".claims"), JSON.stringify({ dir: ".claims-state" }));
  writeFileSync(join(box.project, ".gitignore"), ".claims-state\n");
  writeFileSync(join(box.project, "a.ts"), "");
  const store = join(box.project, ".claims-state");
  assert.is(claims(["take", "a.ts", "--holder", "claude-s2", "--purpose", "the parser"], { cwd: box.project, env }).code, 0);
  for (const command of ["git clean -fdx", "git clean -fdX"]) assert.is(hook(box, command, ["--no-auto-take"], env), undefined, `only its own: ${command}`);
  assert.is(claims(["take", "name:release", "--holder", "other", "--purpose", "the release"], { cwd: box.project, env }).code, 0);
  for (const command of ["git clean -fdx", "git clean -fdX"]) {
    const answer = hook(box, command, ["--no-auto-take"], env);
    assert.is(answer?.permissionDecision, "deny", command);
    assert.match(answer.permissionDecisionReason, `${store} is the claims directory ${store}, where other sessions hold claims`, command);
  }
  for (const command of ["git clean -fx", "git clean -fdx -e .claims-state", "git clean -ndx", "git clean -idx"]) assert.is(hook(box, command, ["--no-auto-take"], env), undefined, command);
  assert.ok(existsSync(store), "nothing was run");
});

Wipe("should find a claims directory below the entries a glob matches outside the project, however many entries beside them it does not match", ({ box }) => {
  // The directories the glob cannot reach are not listed: 2,100 of them beside it used up the
  // search's 2,000 before the one holding the claims directory was reached, and the write went through.
  const env = { XDG_STATE_HOME: join(box.root, "state") };
  const scratch = join(box.root, "scratch");
  for (let i = 0; i < 2100; i++) mkdirSync(join(scratch, `d${String(i).padStart(4, "0")}`), { recursive: true });
  const store = join(scratch, "x-run", "claims");
  mkdirSync(join(scratch, "x-run"));
  assert.is(claims(["take", "name:deploy", "--dir", store, "--holder", "other", "--purpose", "the deploy"], { env }).code, 0);
  // (The run's id unknown: read as the glob x-*.)
  const answer = hook(box, `rm -rf "${scratch}/x-$RUN_ID"`, [], env);
  assert.is(answer?.permissionDecision, "deny");
  assert.match(answer.permissionDecisionReason, `holds the claims directory ${store}, where other sessions hold claims`);
  assert.is(hook(box, `rm -rf "${scratch}/d00$RUN_ID"`, [], env), undefined, "beside it");
});

Wipe("should deny a change of mode, owner or attributes that may lock every session out of a claims directory or one leading to it, and allow one that leaves its owner in", ({ box }) => {
  const { state, dir, env } = heldByOther(box);
  const denied = [`chmod 000 ${state}`, `chmod -w ${dir}`, `chmod u-x "$XDG_STATE_HOME"`, `chmod a=r ${dir}`, `chown nobody ${dir}`, `chattr +i ${dir}`, `setfacl -m u::--- ${state}`, `chmod "$MODE" ${dir}`];
  for (const command of denied) {
    const answer = hook(box, command, [], env);
    assert.is(answer?.permissionDecision, "deny", command);
    assert.match(answer.permissionDecisionReason, new RegExp(`is in the claims directory ${dir}`), command);
  }
  for (const command of [`chmod 700 ${state}`, `chmod go-w ${box.root}`, `chmod u+rwx,go= ${dir}`, `chgrp staff ${state}`, `setfacl -m u:nobody:rwx ${state}`, `chmod 000 ${box.project}/sub`, `mkdir -p sub && chmod 755 sub`]) {
    assert.is(hook(box, command, ["--no-auto-take"], env), undefined, command);
  }
});

Wipe("should deny a session whose XDG_STATE_HOME moves the default claims directory a write that may wipe the default directory of the sessions without it", ({ box }) => {
  const env = { HOME: box.root };
  writeFileSync(join(box.project, "a.ts"), "");
  assert.is(claims(["take", join(box.project, "a.ts"), "--holder", "other", "--purpose", "the parser"], { env }).code, 0);
  for (const command of ['rm -rf "$D/claims"', "rm -rf ~/.local/state"]) {
    const input = JSON.stringify({ session_id: "s2", cwd: box.project, tool_use_id: "t1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } });
    const result = spawnSync(process.execPath, [BIN, "hook", "claude"], { input, cwd: box.project, env: cleanEnv({ ...env, XDG_STATE_HOME: join(box.root, "state-2") }), encoding: "utf8" });
    assert.is(result.stdout.trim() && JSON.parse(result.stdout).hookSpecificOutput.permissionDecision, "deny", `${command}: ${result.stdout}${result.stderr}`);
  }
});

Wipe("should deny a write of a place the text does not fix that may be, or hold, a claims directory with other sessions' claims (rm -rf \"$D/claims\"), and allow one that cannot", ({ box }) => {
  const { state, env } = heldByOther(box);
  for (const command of [`rm -rf "$D/claims"`, `rm -rf "$D/state/claims"`, `mv "$D/state" ${box.root}/old`, `rm -rf "$D"/cl*`, `rm -rf "\${XDG_STATE_HOME:=$HOME/x}/claims"`]) {
    const answer = hook(box, command, [], env);
    assert.is(answer?.permissionDecision, "deny", command);
    assert.match(answer.permissionDecisionReason, `it may be, or hold, the claims directory ${join(state, "claims")}`, command);
  }
  for (const command of [`rm -rf "$D/build"`, `rm -rf "$D/state/cache"`, `rm -f "$D/x.ts"`]) assert.is(hook(box, command, ["--no-auto-take"], env), undefined, command);
  // With only the session's own claims there, its own affair.
  assert.is(claims(["release", "--holder", "other"], { env }).code, 0);
  assert.is(hook(box, `rm -rf "$D/claims"`, ["--no-auto-take"], env), undefined, "no other session's claims");
});

Wipe.run();
