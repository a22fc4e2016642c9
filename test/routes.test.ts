// A monorepo whose package has a `.claims` of its own: every verb takes, judges and gives back a
// target in the claims directory the `.claims` nearest it names (docs/PROTOCOL.md 1a), whatever
// the caller's cwd, so a shell at the root, a shell in the package, an agent's hook, the git guard
// and the MCP tools all meet on one claim. Real processes throughout.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BIN, claims, cleanEnv, sandbox, type Sandbox } from "./helpers.js";

interface Repo {
  box: Sandbox;
  root: string;
  pkg: string;
  rootStore: string;
  pkgStore: string;
  env: Record<string, string>;
}

const test = suite<{ repo: Repo }>("targets under a .claims of their own");

test.before.each((context) => {
  const box = sandbox();
  const root = box.project;
  const pkg = join(root, "packages", "a");
  mkdirSync(join(pkg, "src"), { recursive: true });
  mkdirSync(join(root, "packages", "b"), { recursive: true });
  writeFileSync(join(root, ".claims"), JSON.stringify({ dir: "../store-root" }));
  writeFileSync(join(pkg, ".claims"), JSON.stringify({ dir: "../../../store-a" }));
  writeFileSync(join(pkg, "src", "f.ts"), "export const f = 1;\n");
  writeFileSync(join(root, "README.md"), "");
  context.repo = { box, root, pkg, rootStore: join(box.root, "store-root"), pkgStore: join(box.root, "store-a"), env: { HOME: box.root } };
});
test.after.each(({ repo }) => repo.box.cleanup());

const claimFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".json") && !name.startsWith(".")) : []);

test("should meet a package's claims from a session pinning CLAIMS_DIR: its take, check and hook write are refused, status shows them", ({ repo }) => {
  // One session without CLAIMS_DIR claims where the package's .claims sends it; another, with it
  // set (a shell profile one agent's launcher did not read), must not be granted the same file.
  const { root, pkg, env, pkgStore, box } = repo;
  const file = join(pkg, "src", "f.ts");
  assert.is(claims(["take", file, "--holder", "A", "--purpose", "rounding"], { cwd: root, env }).code, 0);
  assert.equal(claimFiles(pkgStore).length, 1);
  const pinned = { ...env, CLAIMS_DIR: join(box.root, "pinned") };
  const taken = claims(["take", file, "--holder", "B"], { cwd: root, env: pinned });
  assert.is(taken.code, 3, taken.stdout + taken.stderr);
  assert.match(taken.stdout, /held by A for "rounding"/);
  assert.is(claims(["check", file, "--holder", "B"], { cwd: root, env: pinned }).code, 3);
  // status from the pinned session shows it where it is; a name held there is another's namespace, not this one's.
  assert.is(claims(["take", "name:deploy", "--holder", "A"], { cwd: root, env }).code, 0);
  const shown = JSON.parse(claims(["status", file, "deploy", "--json"], { cwd: root, env: pinned }).stdout);
  assert.equal(shown.claims.map((claim: { holder: string; claims_dir?: string }) => [claim.holder, claim.claims_dir]), [["A", pkgStore]], JSON.stringify(shown));
  assert.equal(shown.free, ["deploy"]);
  const answer = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s9", cwd: root, hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: file, content: "x" } }),
    env: cleanEnv(pinned),
    encoding: "utf8",
  });
  assert.is(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision, "deny", answer.stdout + answer.stderr);
  // A tree written whole reaches the package's directory below it, as an unpinned session's write does.
  const tree = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s9", cwd: root, hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "t2", tool_input: { command: "rm -rf packages" } }),
    env: cleanEnv(pinned),
    encoding: "utf8",
  });
  assert.is(JSON.parse(tree.stdout).hookSpecificOutput.permissionDecision, "deny", tree.stdout + tree.stderr);
  assert.match(tree.stdout, /held by A for \\"rounding\\"/);
  assert.equal(claimFiles(join(box.root, "pinned")), [], "nothing claimed in the pinned directory");
});

test("should meet a claim in the default directory from a session pinning --dir or CLAIMS_DIR, and pass over a .claims it cannot read", ({ repo }) => {
  const { env, box } = repo;
  const plain = join(box.root, "plain");
  mkdirSync(join(plain, "pkg"), { recursive: true });
  mkdirSync(join(plain, "other"));
  writeFileSync(join(plain, "x.ts"), "");
  assert.is(claims(["take", "x.ts", "--holder", "A"], { cwd: plain, env }).code, 0, "in the default directory: no .claims above");
  const pinned = { ...env, CLAIMS_DIR: join(box.root, "pinned") };
  assert.is(claims(["take", "x.ts", "--holder", "B"], { cwd: plain, env: pinned }).code, 3, "CLAIMS_DIR");
  assert.is(claims(["take", "x.ts", "--holder", "B", "--dir", join(box.root, "pinned")], { cwd: plain, env }).code, 3, "--dir");
  assert.is(claims(["take", "x.ts#f", "--holder", "B", "--creating"], { cwd: plain, env: pinned }).code, 3, "a symbol of it");
  // Another package's .claims that cannot be read is no reason to refuse a pinned take here: it only looks there.
  writeFileSync(join(plain, "other", ".claims"), "{bad");
  const taken = claims(["take", "pkg/", "--holder", "B"], { cwd: plain, env: pinned });
  assert.is(taken.code, 0, taken.stderr);
});

test("should meet the claim of a session pinning CLAIMS_DIR from one that does not: its take, check and hook write are refused, and status shows it", ({ repo }) => {
  // The pinned take leaves a pointer to its directory where the package's .claims sends its file,
  // and in the default directory for a file with no .claims above (docs/PROTOCOL.md 1a).
  const { root, pkg, env, pkgStore, box } = repo;
  const pinned = { ...env, CLAIMS_DIR: join(box.root, "pinned") };
  const plain = join(box.root, "plain");
  mkdirSync(plain);
  writeFileSync(join(plain, "x.ts"), "");
  const file = join(pkg, "src", "f.ts");
  const held = claims(["take", file, join(plain, "x.ts"), "--holder", "A", "--purpose", "pinned work"], { cwd: root, env: pinned });
  assert.is(held.code, 0, held.stdout + held.stderr);
  assert.equal(claimFiles(pkgStore), [], "claimed in the pinned directory, not the package's");
  assert.equal(readdirSync(join(pkgStore, ".pinned")).length, 1, "a pointer where the package's sessions claim");
  for (const [cwd, target] of [[pkg, "src/f.ts"], [plain, "x.ts"], [root, "packages/"]] as const) {
    const taken = claims(["take", target, "--holder", "B"], { cwd, env });
    assert.is(taken.code, 3, `take ${target}: ${taken.stdout}${taken.stderr}`);
    assert.match(taken.stdout, /held by A for "pinned work"/);
    assert.is(claims(["check", target, "--holder", "B"], { cwd, env }).code, 3, `check ${target}`);
  }
  for (const path of [file, join(plain, "x.ts")]) {
    const answer = spawnSync(process.execPath, [BIN, "hook", "claude"], {
      input: JSON.stringify({ session_id: "s9", cwd: root, hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "t1", tool_input: { command: `echo x > ${path}` } }),
      env: cleanEnv(env),
      encoding: "utf8",
    });
    const { permissionDecision, permissionDecisionReason } = JSON.parse(answer.stdout).hookSpecificOutput;
    assert.is(permissionDecision, "deny", answer.stdout + answer.stderr);
    // A handover from here would queue where no grant of it is ever made: the agent is told to wait instead.
    assert.not.match(permissionDecisionReason, /claims handover/);
    assert.ok(permissionDecisionReason.includes(`the claim is in the claims directory ${pinned.CLAIMS_DIR}, where a queue from here cannot wait for it`), permissionDecisionReason);
    assert.match(permissionDecisionReason, /--wait 120/);
  }
  // status names the holder there, and where, as take and check refuse it.
  const shown = claims(["status", "src/f.ts", "x.ts", "--json"], { cwd: pkg, env });
  assert.equal(JSON.parse(shown.stdout).claims.map((claim: { target: string; holder: string; claims_dir: string }) => [claim.target, claim.holder, claim.claims_dir]), [[file, "A", pinned.CLAIMS_DIR]], shown.stdout);
  assert.equal(JSON.parse(shown.stdout).free, [join(pkg, "x.ts")]);
  const human = claims(["status", file], { cwd: root, env }).stdout;
  assert.ok(human.includes(`A  heartbeat`) && human.includes(`(in the claims directory ${pinned.CLAIMS_DIR}, where a queue from here cannot wait for it)`), human);
  // A name the pinned session holds is its directory's alone: free here, as a take here would be granted it.
  assert.is(claims(["take", "name:deploy", "--holder", "A"], { cwd: root, env: pinned }).code, 0);
  assert.equal(JSON.parse(claims(["status", "deploy", "--json"], { cwd: root, env }).stdout).free, ["deploy"]);
  // Plain status where a take of that file is refused lists the path claim there too (not its names), with its directory.
  const all = JSON.parse(claims(["status", "--json"], { cwd: plain, env }).stdout);
  assert.equal(all.claims.map((claim: { target: string; holder: string; claims_dir: string }) => [claim.target, claim.holder, claim.claims_dir]).sort(), [[join(plain, "x.ts"), "A", pinned.CLAIMS_DIR], [file, "A", pinned.CLAIMS_DIR]].sort(), JSON.stringify(all));
  // Another pinned session, with a directory of its own, meets it through the same pointers.
  assert.is(claims(["take", "x.ts", "--holder", "C"], { cwd: plain, env: { ...env, CLAIMS_DIR: join(box.root, "pinned-c") } }).code, 3);
  // Released, the file is free for the others; the pointer stays, and leads to no claim.
  assert.is(claims(["release", "--holder", "A"], { cwd: root, env: pinned }).code, 0);
  assert.is(claims(["take", "src/f.ts", "--holder", "B"], { cwd: pkg, env }).code, 0);
});

test("should meet the claims of a session with another XDG_STATE_HOME, both ways: take, check, hook write refused, status shows it", ({ repo }) => {
  // Two sessions of one user, one with XDG_STATE_HOME and one without, each claim a file with no
  // .claims above in its own default directory: the one with it points to its directory from the
  // other's, and looks there too (docs/PROTOCOL.md 1a).
  const { env, box, pkg, pkgStore } = repo;
  const moved = { ...env, XDG_STATE_HOME: join(box.root, "state-x") };
  const movedStore = join(box.root, "state-x", "claims");
  const defaultStore = join(box.root, ".local", "state", "claims");
  const plain = join(box.root, "plain");
  mkdirSync(plain);
  const file = join(plain, "x.ts");
  writeFileSync(file, "");
  const write = (environment: Record<string, string>) => {
    const answer = spawnSync(process.execPath, [BIN, "hook", "claude"], {
      input: JSON.stringify({ session_id: "s9", cwd: plain, hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: file, content: "x" } }),
      env: cleanEnv(environment),
      encoding: "utf8",
    });
    return JSON.parse(answer.stdout || "{}").hookSpecificOutput?.permissionDecision ?? `allowed ${answer.stderr}`;
  };
  for (const [holds, other, holdsStore] of [[moved, env, movedStore], [env, moved, defaultStore]] as const) {
    const taken = claims(["take", "x.ts", "--holder", "A", "--purpose", "first"], { cwd: plain, env: holds });
    assert.is(taken.code, 0, taken.stdout + taken.stderr);
    assert.equal(claimFiles(holdsStore), [`${encodeURIComponent(file)}.json`], "claimed in its own default directory");
    const refused = claims(["take", "x.ts", "--holder", "B"], { cwd: plain, env: other });
    assert.is(refused.code, 3, refused.stdout + refused.stderr);
    assert.match(refused.stdout, /held by A for "first"/);
    assert.is(claims(["check", "x.ts", "--holder", "B"], { cwd: plain, env: other }).code, 3, "check");
    assert.is(write(other), "deny", "the hook of the other session");
    const shown = JSON.parse(claims(["status", "x.ts", "--json"], { cwd: plain, env: other }).stdout);
    assert.equal(shown.claims.map((claim: { holder: string; claims_dir?: string }) => [claim.holder, claim.claims_dir]), [["A", holdsStore]], "status shows it, where it is");
    // A third, with an XDG_STATE_HOME of its own, meets it as well.
    assert.is(claims(["take", "x.ts", "--holder", "C"], { cwd: plain, env: { ...env, XDG_STATE_HOME: join(box.root, "state-y") } }).code, 3, "a third default directory");
    assert.is(claims(["release", "--holder", "A"], { cwd: plain, env: holds }).code, 0);
  }
  assert.equal(readdirSync(join(defaultStore, ".pinned")).sort(), [join(box.root, "state-x", "claims"), join(box.root, "state-y", "claims")].map(encodeURIComponent).sort());
  assert.is(claims(["take", "x.ts", "--holder", "B"], { cwd: plain, env: moved }).code, 0, "free once released");
  // A package with a .claims of its own is claimed where it says, whatever XDG_STATE_HOME is, and no pointer is left there.
  assert.is(claims(["take", "src/f.ts", "--holder", "D"], { cwd: pkg, env: moved }).code, 0);
  assert.equal(claimFiles(pkgStore), [`${encodeURIComponent(join(pkg, "src", "f.ts"))}.json`]);
  assert.not.ok(existsSync(join(pkgStore, ".pinned")));
});

test("should leave on a beat the pointer to a default directory XDG_STATE_HOME moves that no take left, none to itself, and say so where it cannot leave one", ({ repo }) => {
  const { env, box } = repo;
  const moved = { ...env, XDG_STATE_HOME: join(box.root, "state-x") };
  const defaultStore = join(box.root, ".local", "state", "claims");
  const plain = join(box.root, "plain");
  mkdirSync(plain);
  for (const name of ["x.ts", "y.ts", "z.ts"]) writeFileSync(join(plain, name), "");
  // Taken by a version that left no pointer (removed here): the holder's next beat leaves it.
  assert.is(claims(["take", "x.ts", "--holder", "A"], { cwd: plain, env: moved }).code, 0);
  rmSync(join(defaultStore, ".pinned"), { recursive: true });
  assert.is(claims(["beat", "--holder", "A"], { cwd: plain, env: moved }).code, 0);
  assert.equal(readdirSync(join(defaultStore, ".pinned")), [encodeURIComponent(join(box.root, "state-x", "claims"))]);
  assert.is(claims(["take", "x.ts", "--holder", "B"], { cwd: plain, env }).code, 3, "met through it");
  // XDG_STATE_HOME that is ~/.local/state through a symlink, its claims directory not made yet: one directory, no pointer to itself.
  const home = join(box.root, "home-2");
  mkdirSync(join(home, ".local"), { recursive: true });
  mkdirSync(join(box.root, "real-state"));
  symlinkSync(join(box.root, "real-state"), join(home, ".local", "state"));
  assert.is(claims(["take", "y.ts", "--holder", "C"], { cwd: plain, env: { HOME: home, XDG_STATE_HOME: join(box.root, "real-state") } }).code, 0);
  assert.not.ok(existsSync(join(box.root, "real-state", "claims", ".pinned")), "no pointer from a directory to itself");
  // Where the pointer cannot be left (a file in its way), the take says who will not see its claim.
  rmSync(join(defaultStore, ".pinned"), { recursive: true });
  writeFileSync(join(defaultStore, ".pinned"), "");
  const unpointed = claims(["take", "z.ts", "--holder", "D"], { cwd: plain, env: moved });
  assert.is(unpointed.code, 0, unpointed.stderr);
  assert.match(unpointed.stderr, /sessions claiming there without XDG_STATE_HOME will not see this claim; give every session the same XDG_STATE_HOME, or none/);
  // A user whose home cannot be made (nobody's /nonexistent): no session of theirs claims there, nothing to say.
  if (process.getuid?.() === 0) {
    const open = join(box.root, "open");
    mkdirSync(join(open, "state"), { recursive: true });
    writeFileSync(join(open, "w.ts"), "");
    chmodSync(box.root, 0o755);
    for (const dir of [open, join(open, "state")]) chmodSync(dir, 0o777);
    const nobody = spawnSync("runuser", ["-u", "nobody", "--", process.execPath, BIN, "take", "w.ts", "--holder", "E"], { cwd: open, env: { PATH: process.env.PATH, HOME: "/nonexistent", XDG_STATE_HOME: join(open, "state") }, encoding: "utf8" });
    assert.is(nobody.status, 0, nobody.stderr);
    assert.is(nobody.stderr, "");
  }
});

test("should leave on a pinned session's beat the pointers to its directory that no take left, so the sessions that do not pin one meet its claims", ({ repo }) => {
  const { root, pkg, env, pkgStore, rootStore, box } = repo;
  const pinnedDir = join(box.root, "pinned");
  const pinned = { ...env, CLAIMS_DIR: pinnedDir };
  const defaultStore = join(box.root, ".local", "state", "claims");
  const plain = join(box.root, "plain");
  mkdirSync(plain);
  for (const name of ["x.ts", "y.ts"]) writeFileSync(join(plain, name), "");
  const file = join(pkg, "src", "f.ts");
  const pointers = (store: string) => (existsSync(join(store, ".pinned")) ? readdirSync(join(store, ".pinned")) : []);
  assert.is(claims(["take", file, join(plain, "x.ts"), "--holder", "A", "--purpose", "pinned work"], { cwd: root, env: pinned }).code, 0);
  // Taken by a version that left no pointer, or the directories pointed from removed since (a
  // reset of the default one): the unpinned sessions no longer meet the claims, until the holder's
  // next beat leaves the pointers again.
  for (const store of [pkgStore, rootStore]) rmSync(join(store, ".pinned"), { recursive: true });
  rmSync(defaultStore, { recursive: true });
  assert.is(claims(["take", "src/f.ts", "--holder", "B"], { cwd: pkg, env }).code, 0, "unseen without its pointers: granted twice");
  assert.is(claims(["release", "src/f.ts", "--holder", "B"], { cwd: pkg, env }).code, 0);
  rmSync(defaultStore, { recursive: true, force: true });
  const beaten = claims(["beat", "--holder", "A"], { cwd: root, env: pinned });
  assert.is(beaten.code, 0, beaten.stderr);
  assert.equal(pointers(pkgStore), [encodeURIComponent(pinnedDir)], "where the package's sessions claim");
  assert.equal(pointers(rootStore), [encodeURIComponent(pinnedDir)], "where f.ts was claimed before the package's .claims");
  assert.equal(pointers(defaultStore), [encodeURIComponent(pinnedDir)], "where the others claim x.ts");
  for (const [cwd, target] of [[pkg, "src/f.ts"], [plain, "x.ts"]] as const) {
    const taken = claims(["take", target, "--holder", "B"], { cwd, env });
    assert.is(taken.code, 3, `take ${target}: ${taken.stdout}${taken.stderr}`);
    assert.match(taken.stdout, /held by A for "pinned work"/);
  }
  // The hook of an agent pinned by its --dir renews its claim once it is a minute old, and leaves the pointer then.
  const hook = (file: string) => spawnSync(process.execPath, [BIN, "hook", "claude", "--dir", pinnedDir], {
    input: JSON.stringify({ session_id: "s7", cwd: plain, hook_event_name: "PreToolUse", tool_name: "Edit", tool_use_id: "t1", tool_input: { file_path: file, old_string: "", new_string: "y" } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  const y = join(plain, "y.ts");
  assert.is(hook(y).stdout, "", "claimed by the hook");
  rmSync(defaultStore, { recursive: true });
  const claimFile = join(pinnedDir, readdirSync(pinnedDir).find((name) => name.endsWith(".json") && JSON.parse(readFileSync(join(pinnedDir, name), "utf8")).target === y) as string);
  const old = new Date(Date.now() - 120_000);
  writeFileSync(claimFile, `${JSON.stringify({ ...JSON.parse(readFileSync(claimFile, "utf8")), heartbeat_at: old.toISOString().replace(/\.\d{3}Z$/, "Z") }, null, 2)}\n`);
  utimesSync(claimFile, old, old);
  assert.is(hook(y).stdout, "", "its own claim, renewed");
  assert.equal(pointers(defaultStore), [encodeURIComponent(pinnedDir)]);
  assert.is(claims(["take", "y.ts", "--holder", "B"], { cwd: plain, env }).code, 3, "met through it");
  // Where it cannot leave one (a file in its way), the beat says who will not see its claim, as a take does.
  rmSync(join(defaultStore, ".pinned"), { recursive: true });
  writeFileSync(join(defaultStore, ".pinned"), "");
  const unpointed = claims(["beat", "x.ts", "--holder", "A"], { cwd: plain, env: pinned });
  assert.is(unpointed.code, 0, unpointed.stderr);
  assert.ok(unpointed.stderr.includes(`claims: note: no pointer to this claims directory could be left in ${defaultStore} (it could not be written), so sessions claiming there without --dir or CLAIMS_DIR will not see this claim`), unpointed.stderr);
});

test("should leave no pointer on a pinned session's beat to where it renewed a claim taken without a pin, which the sessions that do not pin one meet there", ({ repo }) => {
  // Taken from the root without a pin: claimed where the package's .claims sends it (store-a), and
  // remembered in the root's own directory (store-root), from where a beat without targets reaches it.
  const { root, pkg, env, pkgStore, rootStore, box } = repo;
  const defaultStore = join(box.root, ".local", "state", "claims");
  const pointers = (store: string) => (existsSync(join(store, ".pinned")) ? readdirSync(join(store, ".pinned")) : []);
  assert.is(claims(["take", join(pkg, "src", "f.ts"), "--holder", "A"], { cwd: root, env }).code, 0);
  assert.equal(claimFiles(pkgStore).length, 1);
  // The same holder pinning the root's own directory: its beat renews the claim in store-a.
  const beaten = claims(["beat", "--holder", "A", "--json"], { cwd: root, env: { ...env, CLAIMS_DIR: rootStore } });
  assert.is(beaten.code, 0, beaten.stderr);
  assert.equal(JSON.parse(beaten.stdout).renewed, [join(pkg, "src", "f.ts")]);
  assert.equal([...pointers(rootStore), ...pointers(defaultStore), ...pointers(pkgStore)], [], "no directory points to store-a, where the claim is met as it is");
  assert.is(claims(["take", "src/f.ts", "--holder", "B"], { cwd: pkg, env }).code, 3, "met there");
});

test("should meet a name held by a session with another XDG_STATE_HOME, both ways: take, check, status, a third, a beat's upgrade of an old pointer; a pinned directory's names stay its own", ({ repo }) => {
  // A name is claimed in the session's own default directory: the one with XDG_STATE_HOME leaves
  // a pointer saying its directory is a moved default where the ones without claim, and each
  // looks in the other's (docs/PROTOCOL.md 1a).
  const { env, box } = repo;
  const moved = { ...env, XDG_STATE_HOME: join(box.root, "state-x") };
  const movedStore = join(box.root, "state-x", "claims");
  const defaultStore = join(box.root, ".local", "state", "claims");
  const plain = join(box.root, "plain");
  mkdirSync(plain);
  for (const [holds, other, holdsStore] of [[moved, env, movedStore], [env, moved, defaultStore]] as const) {
    const taken = claims(["take", "shared-config", "--holder", "A", "--purpose", "first"], { cwd: plain, env: holds });
    assert.is(taken.code, 0, taken.stdout + taken.stderr);
    assert.equal(claimFiles(holdsStore), ["shared-config.json"], "claimed in its own default directory");
    const refused = claims(["take", "shared-config", "--holder", "B"], { cwd: plain, env: other });
    assert.is(refused.code, 3, refused.stdout + refused.stderr);
    assert.match(refused.stdout, /held by A for "first"/);
    assert.match(refused.stdout, new RegExp(`in the claims directory ${holdsStore} \\(the default directory of this user's sessions with another XDG_STATE_HOME, or none, whose names are this one's\\)`));
    assert.is(claims(["check", "shared-config", "--holder", "B"], { cwd: plain, env: other }).code, 3, "check");
    const shown = JSON.parse(claims(["status", "shared-config", "--json"], { cwd: plain, env: other }).stdout);
    assert.equal(shown.claims.map((claim: { holder: string; claims_dir?: string }) => [claim.holder, claim.claims_dir]), [["A", holdsStore]], "status shows it, where it is");
    assert.equal(shown.free, []);
    const listed = JSON.parse(claims(["status", "--json"], { cwd: plain, env: other }).stdout);
    assert.equal(listed.claims.map((claim: { target: string; claims_dir?: string }) => [claim.target, claim.claims_dir]), [["shared-config", holdsStore]], "a bare status lists it, where it is");
    assert.is(claims(["take", "shared-config", "--holder", "C"], { cwd: plain, env: { ...env, XDG_STATE_HOME: join(box.root, "state-y") } }).code, 3, "a third default directory");
    assert.is(claims(["release", "--holder", "A"], { cwd: plain, env: holds }).code, 0);
  }
  const pointer = (dir: string) => JSON.parse(readFileSync(join(defaultStore, ".pinned", encodeURIComponent(dir)), "utf8"));
  assert.equal(pointer(movedStore), { dir: movedStore, moved_default: true });
  // A third one's claim on the name is met from the first two alike, through the pointer it left.
  assert.is(claims(["take", "shared-config", "--holder", "C", "--purpose", "third"], { cwd: plain, env: { ...env, XDG_STATE_HOME: join(box.root, "state-y") } }).code, 0);
  for (const each of [env, moved]) assert.match(claims(["take", "shared-config", "--holder", "B"], { cwd: plain, env: each }).stdout, /held by C for "third"/);
  assert.is(claims(["release", "--holder", "C"], { cwd: plain, env: { ...env, XDG_STATE_HOME: join(box.root, "state-y") } }).code, 0);
  // A pointer left without saying so (by a version that judged paths only): the moved session's next beat says so.
  assert.is(claims(["take", "deploy", "--holder", "A"], { cwd: plain, env: moved }).code, 0);
  writeFileSync(join(defaultStore, ".pinned", encodeURIComponent(movedStore)), `${JSON.stringify({ dir: movedStore })}\n`);
  rmSync(join(movedStore, ".moved-from"), { force: true });
  assert.is(claims(["take", "deploy", "--holder", "B"], { cwd: plain, env }).code, 0, "not known as a moved default: its names unseen");
  assert.is(claims(["release", "--holder", "B"], { cwd: plain, env }).code, 0);
  assert.is(claims(["beat", "--holder", "A"], { cwd: plain, env: moved }).code, 0);
  assert.equal(pointer(movedStore), { dir: movedStore, moved_default: true });
  assert.ok(existsSync(join(movedStore, ".moved-from")));
  assert.is(claims(["take", "deploy", "--holder", "B"], { cwd: plain, env }).code, 3, "met once the beat said so");
  // Known from the disk, not the caller's environment: a queue in the moved directory served by a
  // process without that XDG_STATE_HOME (a sweep from cron with --dir, a status --dir) does not
  // grant a name held in the other, nor does a take there with --dir.
  assert.is(claims(["release", "--holder", "A"], { cwd: plain, env: moved }).code, 0);
  assert.equal(JSON.parse(readFileSync(join(movedStore, ".moved-from"), "utf8")), { dir: defaultStore });
  assert.is(claims(["take", "queued-name", "--holder", "A", "--ttl", "1"], { cwd: plain, env: moved }).code, 0);
  assert.is(claims(["take", "queued-name", "--holder", "D", "--queue", "--ttl", "600"], { cwd: plain, env: moved }).code, 6);
  const aged = join(movedStore, "queued-name.json");
  const old = new Date(Date.now() - 60_000);
  writeFileSync(aged, `${JSON.stringify({ ...JSON.parse(readFileSync(aged, "utf8")), heartbeat_at: old.toISOString().replace(/\.\d+Z$/, "Z") })}\n`);
  utimesSync(aged, old, old);
  assert.is(claims(["take", "queued-name", "--holder", "B", "--purpose", "without"], { cwd: plain, env }).code, 0, "A's claim is stale");
  const cron = { HOME: join(box.root, "elsewhere") };
  for (const args of [["sweep", "--dir", movedStore], ["status", "--dir", movedStore], ["take", "queued-name", "--holder", "Z", "--dir", movedStore]]) {
    const run = claims(args, { cwd: plain, env: cron });
    if (args[0] === "take") assert.match(run.stdout, /held by B for "without"/, run.stdout + run.stderr);
    assert.not.ok(existsSync(aged) && JSON.parse(readFileSync(aged, "utf8")).holder !== "A", `${args.join(" ")}: no second holder (${existsSync(aged) ? readFileSync(aged, "utf8") : "gone"})`);
  }
  assert.is(claims(["check", "queued-name", "--holder", "Z", "--dir", defaultStore], { cwd: plain, env: cron }).code, 3);
  assert.is(claims(["release", "--holder", "B"], { cwd: plain, env }).code, 0);
  // A moved directory that cannot be read (here a file where it should be) is passed over, not an error for every name.
  const broken = join(box.root, "not-a-directory");
  writeFileSync(broken, "");
  writeFileSync(join(defaultStore, ".pinned", encodeURIComponent(broken)), `${JSON.stringify({ dir: broken, moved_default: true })}\n`);
  const past = claims(["take", "other-name", "--holder", "B"], { cwd: plain, env });
  assert.is(past.code, 0, past.stdout + past.stderr);
  for (const verb of ["check", "status"]) assert.is(claims([verb, "other-name", "--holder", "C"], { cwd: plain, env }).code, verb === "check" ? 3 : 0, verb);
  assert.is(claims(["release", "--holder", "B"], { cwd: plain, env }).code, 0);
  // A word that reads like a file, claimed as a name in one of them: that name in both, not also the file it will be.
  assert.is(claims(["take", "name:Makefile", "--holder", "B"], { cwd: plain, env }).code, 0);
  for (const each of [env, moved]) {
    const checked = claims(["check", "Makefile", "--holder", "A", "--json"], { cwd: plain, env: each });
    const answer = JSON.parse(checked.stdout);
    assert.equal([checked.code, answer.allowed, answer.refused.map((held: { target: string }) => held.target), answer.warnings], [3, [], ["Makefile"], undefined], checked.stdout);
    assert.equal(JSON.parse(claims(["status", "Makefile", "--json"], { cwd: plain, env: each }).stdout).free, []);
  }
  // A wait that ran out does not suggest a queue, which cannot wait there.
  const waited = claims(["take", "Makefile", "--holder", "A", "--wait", "1"], { cwd: plain, env: moved });
  assert.is(waited.code, 5, waited.stdout + waited.stderr);
  assert.ok(waited.stdout.includes(`The claim in the way is in the claims directory ${defaultStore}, where a queue here cannot wait for it`) && !waited.stdout.includes("--queue"), waited.stdout);
  assert.is(claims(["release", "--holder", "B"], { cwd: plain, env }).code, 0);
  // A session pinning a directory of its own keeps its names its own: its pointer (a path claimed) says no moved default.
  const pinned = { ...env, CLAIMS_DIR: join(box.root, "pinned") };
  writeFileSync(join(plain, "x.ts"), "");
  assert.is(claims(["take", "x.ts", "name:db", "--holder", "P"], { cwd: plain, env: pinned }).code, 0);
  assert.equal(pointer(join(box.root, "pinned")), { dir: join(box.root, "pinned") });
  for (const each of [env, moved]) assert.is(claims(["take", "db", "--holder", "B"], { cwd: plain, env: each }).code, 0, "the name is the pinned directory's alone");
  assert.is(claims(["take", "x.ts", "--holder", "B"], { cwd: plain, env }).code, 3, "its path claim is met as ever");
});

test("should sweep a pointer to a pinned directory gone and untouched for 7 days, keep the others, and write again one that was damaged", ({ repo }) => {
  const { pkg, env, pkgStore, box } = repo;
  const pointers = () => readdirSync(join(pkgStore, ".pinned")).sort();
  for (const name of ["gone", "recent", "kept"]) {
    const dir = join(box.root, name);
    assert.is(claims(["take", "src/f.ts", "--holder", name], { cwd: pkg, env: { ...env, CLAIMS_DIR: dir } }).code, 0);
    assert.is(claims(["release", "--holder", name], { cwd: pkg, env: { ...env, CLAIMS_DIR: dir } }).code, 0);
  }
  assert.equal(pointers(), ["gone", "kept", "recent"].map((name) => encodeURIComponent(join(box.root, name))).sort());
  const eightDays = new Date(Date.now() - 8 * 24 * 3600_000);
  for (const name of ["gone", "kept"]) utimesSync(join(pkgStore, ".pinned", encodeURIComponent(join(box.root, name))), eightDays, eightDays);
  for (const name of ["gone", "recent"]) rmSync(join(box.root, name), { recursive: true });
  const swept = claims(["sweep", "--json"], { cwd: pkg, env });
  assert.is(swept.code, 0, swept.stderr);
  assert.equal(JSON.parse(swept.stdout).debris.filter((name: string) => name.startsWith(".pinned/")), [`.pinned/${encodeURIComponent(join(box.root, "gone"))}`], swept.stdout);
  assert.equal(pointers(), ["kept", "recent"].map((name) => encodeURIComponent(join(box.root, name))).sort());
  // A pinned take touches its pointer once it is a day old, so a sweep never finds it old.
  const kept = join(pkgStore, ".pinned", encodeURIComponent(join(box.root, "kept")));
  assert.is(claims(["take", "src/f.ts", "--holder", "kept"], { cwd: pkg, env: { ...env, CLAIMS_DIR: join(box.root, "kept") } }).code, 0);
  assert.ok(Date.now() - statSync(kept).mtimeMs < 3600_000, "touched");
  // A pointer too long to be named by its directory holds it; damaged, the next pinned take writes it again.
  const deep = join(box.root, "d".repeat(120), "e".repeat(120));
  mkdirSync(dirname(deep)); // a claims directory named by CLAIMS_DIR is made only inside one that exists
  assert.is(claims(["take", "src/f.ts", "--holder", "deep"], { cwd: pkg, env: { ...env, CLAIMS_DIR: deep } }).code, 3, "kept holds it");
  const long = pointers().find((name) => name.startsWith("~")) as string;
  assert.ok(long, pointers().join(" "));
  writeFileSync(join(pkgStore, ".pinned", long), "");
  assert.is(claims(["release", "--holder", "kept"], { cwd: pkg, env: { ...env, CLAIMS_DIR: join(box.root, "kept") } }).code, 0);
  assert.is(claims(["take", "src/f.ts", "--holder", "deep"], { cwd: pkg, env: { ...env, CLAIMS_DIR: deep } }).code, 0);
  assert.equal(JSON.parse(readFileSync(join(pkgStore, ".pinned", long), "utf8")).dir, deep);
  assert.is(claims(["take", "src/f.ts", "--holder", "B"], { cwd: pkg, env }).code, 3, "met through the pointer written again");
});

test("should make the pointers readable by the group where the claims directory is group-shared, by its config or its mode", ({ repo }) => {
  const { pkg, env, pkgStore, box } = repo;
  // 2770 already (made so by sessions whose config says shared_group), though this package's config does not say it.
  mkdirSync(pkgStore, { mode: 0o700 });
  chmodSync(pkgStore, 0o2770);
  const taken = claims(["take", "src/f.ts", "--holder", "P"], { cwd: pkg, env: { ...env, CLAIMS_DIR: join(box.root, "pinned") } });
  assert.is(taken.code, 0);
  assert.is(statSync(join(pkgStore, ".pinned")).mode & 0o7777, 0o2770);
  for (const name of readdirSync(join(pkgStore, ".pinned"))) assert.is(statSync(join(pkgStore, ".pinned", name)).mode & 0o777, 0o660, name);
  // So are the pointers an unpinned session leaves there to the directories it claimed in from it.
  const rootStore = repo.rootStore;
  mkdirSync(rootStore, { recursive: true, mode: 0o700 }); // made already by the pinned take's pointer
  chmodSync(rootStore, 0o2770);
  assert.is(claims(["take", "packages/a/src/h.ts", "--holder", "R"], { cwd: repo.root, env }).code, 0);
  assert.is(statSync(join(rootStore, ".elsewhere")).mode & 0o7777, 0o2770);
  // The pinned directory itself (0700, made by the take) the group cannot read: said, since its other users would not see the claim.
  assert.ok(taken.stderr.includes(`the claims directory ${pkgStore} is shared by its group, which cannot read ${join(box.root, "pinned")}`), taken.stderr);
  const shared = join(box.root, "pinned-shared");
  mkdirSync(shared, { mode: 0o700 });
  chmodSync(shared, 0o2770);
  const readable = claims(["take", "src/g.ts", "--holder", "Q"], { cwd: pkg, env: { ...env, CLAIMS_DIR: shared } });
  assert.is(readable.code, 0, readable.stderr);
  assert.not.match(readable.stderr, /shared by its group/);
  // A .pinned made 0700 (by an earlier version) in the shared directory is made 2770 by the next pointer written there.
  chmodSync(join(pkgStore, ".pinned"), 0o700);
  assert.is(claims(["take", "src/k.ts", "--holder", "S"], { cwd: pkg, env: { ...env, CLAIMS_DIR: join(box.root, "pinned-third") } }).code, 0);
  assert.is(statSync(join(pkgStore, ".pinned")).mode & 0o7777, 0o2770);
});

test("should leave no pointer from a session that pins nothing: the hook's claims in its own directory and the package's, a take routed there", ({ repo }) => {
  const { root, pkg, env, pkgStore, rootStore, box } = repo;
  assert.is(claims(["take", "packages/a/src/other.ts", "README.md", "--partial", "--holder", "B"], { cwd: root, env }).code, 0);
  const defaultStore = join(box.root, ".local", "state", "claims");
  const answer = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s9", cwd: root, hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: join(pkg, "src", "f.ts"), content: "x" } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  assert.is(answer.status, 0, answer.stderr);
  assert.equal(claimFiles(pkgStore).length, 2, "B's and the hook's, where the package's sessions claim");
  for (const store of [pkgStore, rootStore, defaultStore]) assert.not.ok(existsSync(join(store, ".pinned")), store);
});

test("should let an agent edit another symbol of a file a pinned session holds a symbol of, claiming that symbol, and deny an edit of the held one", ({ repo }) => {
  const { box, env } = repo;
  const plain = join(box.root, "plain");
  mkdirSync(plain);
  const file = join(plain, "a.js");
  writeFileSync(file, "function foo() {}\nfunction bar() {}\n");
  assert.is(claims(["take", "a.js#foo", "--holder", "P"], { cwd: plain, env: { ...env, CLAIMS_DIR: join(box.root, "pinned") } }).code, 0);
  const edit = (session: string, old: string) =>
    spawnSync(process.execPath, [BIN, "hook", "claude"], {
      input: JSON.stringify({ session_id: session, cwd: plain, hook_event_name: "PreToolUse", tool_name: "Edit", tool_use_id: `t-${session}`, tool_input: { file_path: file, old_string: old, new_string: `${old} // edited` } }),
      env: cleanEnv(env),
      encoding: "utf8",
    });
  const other = edit("s1", "function bar() {}");
  assert.is(other.stdout, "", `allowed: ${other.stdout}${other.stderr}`);
  const status = JSON.parse(claims(["status", "--json"], { cwd: plain, env }).stdout);
  // (With the pinned session's symbol, which a take here is refused too: shown with its directory.)
  assert.equal(status.claims.map((claim: { target: string; holder: string }) => `${claim.target} ${claim.holder}`).sort(), [`${file}#bar claude-s1`, `${file}#foo P`]);
  const held = edit("s2", "function foo() {}");
  assert.is(JSON.parse(held.stdout).hookSpecificOutput.permissionDecision, "deny", held.stdout + held.stderr);
});

test("should let a holder sharing a file check a write of it beside a pinned session sharing it too", ({ repo }) => {
  const { pkg, env, box } = repo;
  assert.is(claims(["take", "src/f.ts", "--shared", "--holder", "U"], { cwd: pkg, env }).code, 0);
  const pinned = { ...env, CLAIMS_DIR: join(box.root, "pinned") };
  assert.is(claims(["take", "src/f.ts", "--shared", "--holder", "P"], { cwd: pkg, env: pinned }).code, 0);
  assert.is(claims(["check", "src/f.ts", "--holder", "U"], { cwd: pkg, env }).code, 0, "the unpinned co-holder");
  assert.is(claims(["check", "src/f.ts", "--holder", "P"], { cwd: pkg, env: pinned }).code, 0, "the pinned co-holder");
  assert.is(claims(["check", "src/f.ts", "--holder", "X"], { cwd: pkg, env }).code, 3, "anyone else");
});

test("should take a file in its package's claims directory from the root, and refuse it from the package", ({ repo }) => {
  const { root, pkg, env } = repo;
  mkdirSync(repo.rootStore);
  const before = claims(["check", "packages/a/src/f.ts", "--holder", "C"], { cwd: root, env });
  assert.equal([before.code, before.stderr], [0, `claims: note: the claims directory ${repo.pkgStore} does not exist yet; nothing is claimed there\n`], "the directory it looked in");
  const taken = claims(["take", "packages/a/src/f.ts", "--holder", "A", "--purpose", "root work"], { cwd: root, env });
  assert.is(taken.code, 0, taken.stderr);
  assert.match(taken.stderr, /claimed in .*store-a \(the claims directory .*packages\/a\/\.claims names/);
  assert.is(claimFiles(repo.pkgStore).length, 1, "the claim is where the package's sessions look");
  assert.is(claimFiles(repo.rootStore).length, 0, "and nowhere else");
  const other = claims(["take", "src/f.ts", "--holder", "B", "--purpose", "pkg work"], { cwd: pkg, env });
  assert.is(other.code, 3, "a second holder is refused");
  assert.match(other.stdout, /held by A for "root work"/);
  for (const [cwd, target] of [[root, "packages/a/src/f.ts"], [pkg, "src/f.ts"], [join(root, "packages", "b"), "../a/src/f.ts"]] as const) {
    const checked = claims(["check", target, "--holder", "C"], { cwd, env });
    assert.is(checked.code, 3, `check ${target} from ${cwd}`);
    assert.match(checked.stdout, /held by A/);
    const status = JSON.parse(claims(["status", target, "--json"], { cwd, env }).stdout);
    assert.equal(status.free, [], `status ${target} from ${cwd}`);
    assert.equal(status.claims.map((claim: { holder: string }) => claim.holder), ["A"]);
  }
});

test("should reach a claim taken elsewhere from where it was taken: status --mine, beat and release without targets", ({ repo }) => {
  const { root, env } = repo;
  assert.is(claims(["take", "packages/a/src/f.ts", "--holder", "A"], { cwd: root, env }).code, 0);
  assert.is(claims(["take", "README.md", "--holder", "A"], { cwd: root, env }).code, 0);
  const mine = JSON.parse(claims(["status", "--mine", "--json", "--holder", "A"], { cwd: root, env }).stdout);
  const both = [join(repo.pkg, "src", "f.ts"), join(root, "README.md")].sort();
  assert.equal(mine.claims.map((claim: { target: string }) => claim.target).sort(), both);
  const beat = JSON.parse(claims(["beat", "--json", "--holder", "A"], { cwd: root, env }).stdout);
  assert.equal(beat.renewed.sort(), both);
  assert.equal(beat.lost, []);
  const released = JSON.parse(claims(["release", "--json", "--holder", "A"], { cwd: root, env }).stdout);
  assert.equal(released.released.sort(), both);
  assert.equal(claimFiles(repo.pkgStore), [], "released where it was");
  assert.equal(readdirSync(join(repo.rootStore, ".elsewhere")), [], "and its pointer is gone");
  assert.is(claims(["take", "src/f.ts", "--holder", "B"], { cwd: repo.pkg, env }).code, 0, "free for the package's sessions");
});

test("should list with status --mine in a package claiming in a directory of its own what beat and release reach from there, each with its directory", ({ repo }) => {
  const { root, pkg, env } = repo;
  // Taken from the root, in its claims directory; then a session in the package asks what it holds.
  assert.is(claims(["take", "mx-name", "./b2.txt", "--holder", "MX"], { cwd: root, env }).code, 0);
  assert.is(claims(["take", "lock-of-b", "--holder", "B"], { cwd: root, env }).code, 0);
  assert.is(claims(["take", "lock-of-b", "--queue", "--holder", "MX"], { cwd: root, env }).code, 6);
  assert.is(claims(["take", "src/f.ts", "--holder", "MX"], { cwd: pkg, env }).code, 0);
  const rootDir = JSON.parse(claims(["status", "--json"], { cwd: root, env }).stdout).dir;
  const pkgDir = JSON.parse(claims(["status", "--json"], { cwd: pkg, env }).stdout).dir;
  const mine = JSON.parse(claims(["status", "--mine", "--json", "--holder", "MX"], { cwd: pkg, env }).stdout);
  assert.is(mine.dir, pkgDir);
  const where = (claim: { target: string; claims_dir?: string }) => `${claim.target} in ${claim.claims_dir ?? "here"}`;
  assert.equal(mine.claims.map(where).sort(), [`${join(pkg, "src", "f.ts")} in here`, `${join(root, "b2.txt")} in ${rootDir}`, `mx-name in ${rootDir}`].sort());
  assert.equal(mine.queued.map(where), [`lock-of-b in ${rootDir}`]);
  const human = claims(["status", "--mine", "--holder", "MX"], { cwd: pkg, env }).stdout;
  assert.ok(human.includes(`mx-name  fresh`), human);
  assert.ok(human.split("\n").some((line) => line.startsWith("mx-name ") && line.endsWith(`(in the claims directory ${rootDir})`)), human);
  assert.ok(human.split("\n").some((line) => line.startsWith("lock-of-b ") && line.includes("queued") && line.endsWith(`(in the claims directory ${rootDir})`)), human);
  assert.not.match(human, /you hold no claims/);
  // Everyone's, without --mine: the package's directory alone, as before.
  const everyone = JSON.parse(claims(["status", "--json", "--holder", "MX"], { cwd: pkg, env }).stdout);
  assert.equal(everyone.claims.map(where), [`${join(pkg, "src", "f.ts")} in here`]);
  // What status --mine listed is what beat and release act on from there.
  const listed = mine.claims.map((claim: { target: string }) => claim.target).sort();
  assert.equal(JSON.parse(claims(["beat", "--json", "--holder", "MX"], { cwd: pkg, env }).stdout).renewed.sort(), listed);
  const released = JSON.parse(claims(["release", "--json", "--holder", "MX"], { cwd: pkg, env }).stdout);
  assert.equal([released.released.sort(), released.withdrawn], [listed, ["lock-of-b"]]);
  assert.match(claims(["status", "--mine", "--holder", "MX"], { cwd: pkg, env }).stdout, /^you hold no claims and wait for none in /);
});

test("should take a directory or glob not made yet in one claims directory, however many packages its parent holds", ({ repo }) => {
  const { root, env } = repo;
  const taken = claims(["take", "newdir/", "gen/**/*.ts", "--holder", "A", "--json"], { cwd: root, env });
  assert.is(taken.code, 0, taken.stderr);
  assert.equal(JSON.parse(taken.stdout).granted.map((claim: { target: string }) => claim.target).sort(), [join(root, "gen/**/*.ts"), `${join(root, "newdir")}/`]);
  assert.equal(claimFiles(repo.rootStore).length, 2, "in the claims directory of the .claims nearest them");
  assert.equal(claimFiles(repo.pkgStore), []);
  assert.is(claims(["check", "newdir/x.ts", "--holder", "B"], { cwd: root, env }).code, 3);
  const below = claims(["take", "packages/c/", "--holder", "A"], { cwd: root, env });
  assert.is(below.code, 0, below.stderr);
  assert.is(claims(["take", "packages/", "--holder", "A"], { cwd: root, env }).code, 2, "an existing directory holding a package still reaches into both");
});

test("should refuse one take across two claims directories, and take each part with --partial", ({ repo }) => {
  const { root, env } = repo;
  const across = claims(["take", "packages/", "--holder", "A"], { cwd: root, env });
  assert.is(across.code, 2);
  assert.match(across.stderr, /packages\/ reaches into two claims directories, .*store-root .* and .*store-a .*: take the parts in separate calls/);
  const two = claims(["take", "packages/a/src/f.ts", "./README.md", "--holder", "A"], { cwd: root, env });
  assert.is(two.code, 2);
  assert.match(two.stderr, /are claimed in two claims directories.*take them in separate calls/);
  assert.equal([...claimFiles(repo.rootStore), ...claimFiles(repo.pkgStore)], [], "nothing taken");
  const partial = claims(["take", "packages/a/src/f.ts", "./README.md", "--partial", "--holder", "A", "--json"], { cwd: root, env });
  assert.is(partial.code, 0, partial.stderr);
  assert.is(JSON.parse(partial.stdout).granted.length, 2);
  assert.is(claimFiles(repo.rootStore).length, 1);
  assert.is(claimFiles(repo.pkgStore).length, 1);
  assert.is(claims(["take", "packages/b/", "--holder", "A"], { cwd: root, env }).code, 0, "a directory with no package of its own below");
});

test("should refuse a hook's write in the package of a file taken from the root", ({ repo }) => {
  const { root, pkg, env } = repo;
  assert.is(claims(["take", "packages/a/src/f.ts", "--holder", "A", "--purpose", "root work"], { cwd: root, env }).code, 0);
  const answer = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s9", cwd: pkg, hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: join(pkg, "src", "f.ts"), content: "x" } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  assert.match(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecisionReason, /held by A for "root work"/);
});

test("should list a claim in the package's claims directory once in a hook's refusal, with a handover that queues where it is", ({ repo }) => {
  const { root, pkg, env } = repo;
  assert.is(claims(["take", "src/f.ts", "--holder", "A", "--purpose", "package work"], { cwd: pkg, env }).code, 0);
  // From the root, whose own claims directory is another: the package's is where the file is routed, and among those above it.
  const answer = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s9", cwd: root, hook_event_name: "PreToolUse", tool_name: "Edit", tool_use_id: "t1", tool_input: { file_path: join(pkg, "src", "f.ts"), old_string: "1", new_string: "2" } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  const reason: string = JSON.parse(answer.stdout).hookSpecificOutput.permissionDecisionReason;
  // (A loaded machine may take a second past the take: the age is any.)
  assert.equal(reason.split("\n").filter((line) => line.startsWith("- ")).map((line) => line.replace(/heartbeat \d+s ago/, "heartbeat Ns ago")), ['- packages/a/src/f.ts: held by A for "package work" (heartbeat Ns ago)'], reason);
  assert.not.match(reason, /where a queue from here cannot wait/);
  assert.match(reason, /claims handover packages\/a\/src\/f\.ts --purpose "<what you will do>" --holder claude-s9/);
  // The queue it names is the one A's release grants from.
  assert.is(claims(["handover", "packages/a/src/f.ts", "--purpose", "later", "--holder", "claude-s9"], { cwd: root, env }).code, 6, "queued");
  assert.is(claims(["release", "src/f.ts", "--holder", "A"], { cwd: pkg, env }).code, 0);
  assert.is(claims(["take", "src/f.ts", "--holder", "B"], { cwd: pkg, env }).code, 3, "granted to the session queued from the hook's advice");
});

test("should advise a handover the CLI accepts when a directory written reaches into a package claiming in a directory of its own", ({ repo }) => {
  const { root, pkg, env } = repo;
  assert.is(claims(["take", "src/f.ts", "--holder", "A", "--purpose", "package work"], { cwd: pkg, env }).code, 0);
  const answer = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s9", cwd: root, hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "t1", tool_input: { command: "rm -r packages" } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  const reason: string = JSON.parse(answer.stdout).hookSpecificOutput.permissionDecisionReason;
  // packages/ reaches into the root's claims directory and the package's: no one handover may queue for it whole.
  assert.is(claims(["handover", "packages/", "--holder", "claude-s9"], { cwd: root, env }).code, 2);
  const advised = /when it frees: (claims handover .*?) \(then claims status/.exec(reason)?.[1];
  assert.ok(advised, reason);
  const run = spawnSync("sh", ["-c", advised.replace(/^claims /, `"${process.execPath}" "${BIN}" `)], { cwd: root, env: cleanEnv(env), encoding: "utf8" });
  assert.is(run.status, 6, `${advised}: ${run.stdout}${run.stderr}`);
  assert.is(claims(["release", "src/f.ts", "--holder", "A"], { cwd: pkg, env }).code, 0);
  assert.is(claims(["take", "src/f.ts", "--holder", "B"], { cwd: pkg, env }).code, 3, "granted to the session that queued as advised");
});

test("should release at the session's end what a hook claimed in another claims directory", ({ repo }) => {
  const { root, pkg, env } = repo;
  const hook = (payload: object) =>
    spawnSync(process.execPath, [BIN, "hook", "claude"], { input: JSON.stringify({ session_id: "s9", cwd: root, ...payload }), env: cleanEnv(env), encoding: "utf8" });
  const written = hook({ hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: join(pkg, "src", "f.ts"), content: "x" } });
  assert.is(written.stdout, "", written.stderr);
  assert.is(claims(["take", "src/f.ts", "--holder", "B"], { cwd: pkg, env }).code, 3, "claimed where the package's sessions look");
  hook({ hook_event_name: "SessionEnd", reason: "exit" });
  assert.equal(claimFiles(repo.pkgStore), [], "released there too");
  assert.is(claims(["take", "src/f.ts", "--holder", "B"], { cwd: pkg, env }).code, 0);
});

test("should meet the claim of a session pinning a sibling package's claims directory, where a call judges that directory for its own paths too", ({ repo }) => {
  // Pinned to packages/b's directory, a session takes packages/a's file: its claim is in store-b,
  // its pointer in store-a. A call that judges store-b for b's own files judges a's file there too.
  const { root, pkg, env, box } = repo;
  const b = join(root, "packages", "b");
  writeFileSync(join(b, ".claims"), JSON.stringify({ dir: "../../../store-b" }));
  writeFileSync(join(b, "x.ts"), "");
  const file = join(pkg, "src", "f.ts");
  assert.is(claims(["take", file, "--holder", "P", "--purpose", "pinned work"], { cwd: root, env: { ...env, CLAIMS_DIR: join(box.root, "store-b") } }).code, 0);
  const checked = claims(["check", file, "x.ts", "--holder", "U"], { cwd: b, env });
  assert.is(checked.code, 3, checked.stdout);
  assert.match(checked.stdout, /REFUSED .*f\.ts: held by P for "pinned work"/);
  const status = JSON.parse(claims(["status", file, "x.ts", "--json"], { cwd: b, env }).stdout);
  assert.equal(status.free, [join(b, "x.ts")], "f.ts is not free");
  assert.is(status.claims[0].holder, "P");
  assert.is(claims(["take", file, "x.ts", "--holder", "U"], { cwd: b, env }).code, 3);
  const answer = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s9", cwd: b, hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: file, content: "x" } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  assert.is(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision, "deny", answer.stdout + answer.stderr);
  const git = (...args: string[]) => spawnSync("git", args, { cwd: root, encoding: "utf8", env: cleanEnv(env) });
  git("init", "-q");
  git("add", "packages");
  const guarded = claims(["guard", "check", "--hook", "pre-commit", "--holder", "U"], { cwd: root, env });
  assert.is.not(guarded.code, 0, guarded.stdout + guarded.stderr);
  assert.match(guarded.stdout + guarded.stderr, /held by P/);
});

test("should refuse a commit of a file another session holds in its package's claims directory", ({ repo }) => {
  const { root, pkg, env } = repo;
  const git = (...args: string[]) => spawnSync("git", args, { cwd: root, encoding: "utf8", env: { ...cleanEnv(env), GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  git("init", "-q");
  git("add", ".claims", "README.md");
  git("commit", "-qm", "init");
  assert.is(claims(["take", "src/f.ts", "--holder", "B", "--purpose", "pkg work"], { cwd: pkg, env }).code, 0);
  git("add", "packages/a/src/f.ts");
  const guarded = claims(["guard", "check", "--hook", "pre-commit", "--holder", "C"], { cwd: root, env });
  assert.is.not(guarded.code, 0, guarded.stdout + guarded.stderr);
  assert.match(guarded.stdout + guarded.stderr, /held by B/);
  assert.is(claims(["guard", "check", "--hook", "pre-commit", "--holder", "B"], { cwd: root, env }).code, 0, "its holder commits");
  // Deleting the whole package, its .claims with it: judged where that .claims said, as HEAD has it.
  git("add", "packages/a/.claims");
  git("commit", "-qm", "f");
  git("rm", "-rq", "packages/a");
  assert.not.ok(existsSync(join(pkg, ".claims")), "the package's .claims is gone with it");
  const deleted = claims(["guard", "check", "--hook", "pre-commit", "--holder", "C"], { cwd: root, env });
  assert.is.not(deleted.code, 0, deleted.stdout + deleted.stderr);
  assert.match(deleted.stdout + deleted.stderr, /held by B/);
});

test("should claim a file with no .claims above it in one directory, whichever package's cwd asks", ({ repo }) => {
  const { root, pkg, env } = repo;
  rmSync(join(root, ".claims")); // the packages have one, the root none: its files go to the default
  const fromPackage = claims(["take", "../../README.md", "--holder", "A"], { cwd: pkg, env });
  assert.is(fromPackage.code, 0, fromPackage.stderr);
  const fromRoot = claims(["take", "README.md", "--holder", "B"], { cwd: root, env });
  assert.is(fromRoot.code, 3, "a second holder is refused");
  const answer = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s9", cwd: root, hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: join(root, "README.md"), content: "x" } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  assert.match(answer.stdout, /held by A/, "and so is the hook of a session at the root");
});

test("should meet a claim on a file's other name (a hard link) in another package's claims directory: take, check, the hook, the guard", ({ repo }) => {
  const { root, pkg, env } = repo;
  linkSync(join(pkg, "src", "f.ts"), join(root, "g.ts"));
  assert.is(claims(["take", "src/f.ts", "--holder", "A"], { cwd: pkg, env }).code, 0);
  const taken = claims(["take", "g.ts", "--holder", "B"], { cwd: root, env });
  assert.is(taken.code, 3, taken.stdout);
  assert.match(taken.stdout, /g\.ts: overlaps the claim on .*packages\/a\/src\/f\.ts, held by A .*\(a hard link\)/);
  assert.is(claimFiles(repo.rootStore).length, 0, "nothing taken");
  mkdirSync(join(root, "lib"));
  linkSync(join(pkg, "src", "f.ts"), join(root, "lib", "h.ts"));
  const tree = claims(["take", "lib/", "--holder", "B"], { cwd: root, env });
  assert.is(tree.code, 3, "a directory holding another name of the file");
  assert.match(tree.stdout, /lib\/h\.ts is the same file as .*f\.ts \(a hard link\)/);
  // A directory claim holding one name, and a directory holding the other, in the other package's directory.
  assert.is(claims(["release", "--holder", "A"], { cwd: pkg, env }).code, 0);
  assert.is(claims(["take", "src/", "--holder", "A"], { cwd: pkg, env }).code, 0);
  const trees = claims(["take", "lib/", "--holder", "B"], { cwd: root, env });
  assert.is(trees.code, 3, trees.stdout);
  assert.match(trees.stdout, /lib\/h\.ts is the same file as .*src\/f\.ts, under .*packages\/a\/src\/ \(a hard link\)/);
  assert.is(claims(["release", "--holder", "A"], { cwd: pkg, env }).code, 0);
  assert.is(claims(["take", "src/f.ts", "--holder", "A"], { cwd: pkg, env }).code, 0);
  assert.is(claims(["check", "g.ts", "--holder", "B"], { cwd: root, env }).code, 3);
  assert.is(claims(["check", "src/f.ts", "--holder", "A"], { cwd: pkg, env }).code, 0, "the holder's own");
  const answer = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s7", cwd: root, hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: join(root, "g.ts"), content: "x" } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  assert.match(answer.stdout, /"permissionDecision":\s*"deny"[\s\S]*held by A|held by A[\s\S]*"permissionDecision":\s*"deny"/);
  spawnSync("git", ["init", "-q", "."], { cwd: root });
  spawnSync("git", ["add", "g.ts"], { cwd: root });
  const guard = claims(["guard", "check", "--holder", "B"], { cwd: root, env });
  assert.is(guard.code, 1, guard.stderr);
  assert.match(guard.stderr, /g\.ts: overlaps the claim on .*f\.ts, held by A/);
});

test("should wait with --wait for a claim on a file's other name in another package's directory, and take it once released", async ({ repo }) => {
  const { root, pkg, env } = repo;
  linkSync(join(pkg, "src", "f.ts"), join(root, "g.ts"));
  assert.is(claims(["take", "src/f.ts", "--holder", "A", "--purpose", "theirs"], { cwd: pkg, env }).code, 0);
  const bad = claims(["take", "g.ts", "--holder", "B", "--wait", "30", "--queue"], { cwd: root, env });
  assert.is(bad.code, 2, "options that cannot go together are said at once, not after the wait");
  const timeout = claims(["take", "g.ts", "--holder", "B", "--wait", "1"], { cwd: root, env });
  assert.is(timeout.code, 5, timeout.stdout);
  assert.match(timeout.stdout, /TIMEOUT/, "it waited its second, then said so");
  // A wait that is going on when the claim there is released takes the file here.
  const child = spawn(process.execPath, [BIN, "take", "g.ts", "--holder", "B", "--wait", "60"], { cwd: root, env: cleanEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let [stdout, stderr] = ["", ""];
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolvePromise) => child.on("close", resolvePromise));
  while (!/held by A/.test(stderr) && child.exitCode === null) await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
  assert.match(stderr, /held by A/, "it says who it waits for");
  assert.is(claims(["release", "--holder", "A"], { cwd: pkg, env }).code, 0);
  assert.is(await exited, 0, stdout + stderr);
  assert.match(stdout, /granted .*g\.ts/);
  assert.is(claims(["take", "src/f.ts", "--holder", "A"], { cwd: pkg, env }).code, 3, "and holds it: the other name is refused");
});

test("should meet a claim made before a .claims nearer the file appeared: take, check, the hook, the guard; and a release leaves the file free", ({ repo }) => {
  const { root, pkg, env } = repo;
  const hook = (session: string, cwd: string, file: string) =>
    spawnSync(process.execPath, [BIN, "hook", "claude"], {
      input: JSON.stringify({ session_id: session, cwd, hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: file, content: "x" } }),
      env: cleanEnv(env),
      encoding: "utf8",
    });
  // A package given a .claims while a session holds one of its files (in the root's directory).
  mkdirSync(join(root, "packages", "b", "src"), { recursive: true });
  const file = join(root, "packages", "b", "src", "g.ts");
  writeFileSync(file, "");
  assert.is(claims(["take", "packages/b/src/g.ts", "--holder", "A", "--purpose", "before"], { cwd: root, env }).code, 0);
  writeFileSync(join(root, "packages", "b", ".claims"), JSON.stringify({ dir: "../../../store-b" }));
  const taken = claims(["take", "src/g.ts", "--holder", "B"], { cwd: join(root, "packages", "b"), env });
  assert.is(taken.code, 3, taken.stdout);
  assert.match(taken.stdout, /held by A for "before"/);
  assert.equal(claimFiles(join(repo.box.root, "store-b")), [], "nothing taken where the new .claims points");
  assert.is(claims(["check", "packages/b/src/g.ts", "--holder", "B"], { cwd: root, env }).code, 3);
  const checked = claims(["check", "src/g.ts", "--holder", "B", "--json"], { cwd: join(root, "packages", "b"), env });
  assert.is(checked.code, 3);
  // Said where the claim is: no handover from here queues there.
  assert.equal(JSON.parse(checked.stdout).refused.map((held: { holder: string; claims_dir?: string }) => [held.holder, held.claims_dir]), [["A", repo.rootStore]], checked.stdout);
  // status shows it held, and where, as take and check refuse it; the directory not made yet is the new .claims's.
  const shown = claims(["status", "src/g.ts", "--json"], { cwd: join(root, "packages", "b"), env });
  const status = JSON.parse(shown.stdout);
  assert.equal([status.claims.map((held: { holder: string; claims_dir?: string }) => [held.holder, held.claims_dir]), status.free], [[["A", repo.rootStore]], []], shown.stdout);
  assert.ok(shown.stderr.includes(`the claims directory ${join(repo.box.root, "store-b")} does not exist yet`), shown.stderr);
  // Asked from the root, whose own claims directory is there: the one missing is still the one named.
  const fromRoot = claims(["status", "packages/b/src/g.ts"], { cwd: root, env });
  assert.ok(fromRoot.stdout.includes(`A  heartbeat`) && fromRoot.stderr.includes(`the claims directory ${join(repo.box.root, "store-b")} does not exist yet`), fromRoot.stdout + fromRoot.stderr);
  assert.not.ok(fromRoot.stderr.includes(repo.rootStore), fromRoot.stderr);
  assert.match(hook("s8", join(root, "packages", "b"), file).stdout, /"permissionDecision":\s*"deny"/);
  const unknownPlace = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s8", cwd: join(root, "packages", "b"), hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "t2", tool_input: { command: 'cp x.ts -t "$d/src/g.ts"; echo x > "$d"/src/g.ts' } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  assert.match(unknownPlace.stdout, /"permissionDecision":\s*"deny"/, "a place the command does not fix, judged by its tail there too");
  spawnSync("git", ["init", "-q", "."], { cwd: root });
  spawnSync("git", ["add", "packages/b/src/g.ts"], { cwd: root });
  const guarded = claims(["guard", "check", "--holder", "B"], { cwd: join(root, "packages", "b"), env });
  assert.is(guarded.code, 1);
  assert.ok(guarded.stderr.includes(`the claim is in the claims directory ${repo.rootStore}, where a queue from here cannot wait for it`), guarded.stderr);
  assert.not.match(guarded.stderr, /claims handover/);
  // Beside a file whose claims live in that directory, each refusal still says where it is.
  assert.is(claims(["take", "README.md", "--holder", "A", "--purpose", "readme"], { cwd: root, env }).code, 0);
  const both = claims(["check", "README.md", "packages/b/src/g.ts", "--holder", "B", "--json"], { cwd: root, env });
  assert.equal(JSON.parse(both.stdout).refused.map((held: { purpose: string; claims_dir?: string }) => [held.purpose, held.claims_dir]).sort(), [["before", repo.rootStore], ["readme", undefined]], both.stdout);
  spawnSync("git", ["add", "README.md"], { cwd: root });
  const guardedBoth = claims(["guard", "check", "--holder", "B", "--json"], { cwd: root, env });
  assert.equal(JSON.parse(guardedBoth.stdout).refused.map((held: { purpose: string; claims_dir?: string }) => [held.purpose, held.claims_dir]).sort(), [["before", repo.rootStore], ["readme", undefined]], guardedBoth.stdout);
  assert.is(claims(["release", "README.md", "--holder", "A"], { cwd: root, env }).code, 0);
  spawnSync("git", ["reset", "-q", "README.md"], { cwd: root });
  // A .claims written to send a held file's claims elsewhere does not free it either.
  assert.is(claims(["take", "src/f.ts", "--holder", "A", "--purpose", "pkg work"], { cwd: pkg, env }).code, 0);
  writeFileSync(join(pkg, "src", ".claims"), JSON.stringify({ dir: "../../../../store-evade" }));
  assert.is(claims(["take", "packages/a/src/f.ts", "--holder", "C"], { cwd: root, env }).code, 3);
  assert.is(claims(["check", "packages/a/src/f.ts", "--holder", "C"], { cwd: root, env }).code, 3);
  const s9 = hook("s9", root, join(pkg, "src", "f.ts"));
  assert.match(JSON.parse(s9.stdout).hookSpecificOutput.permissionDecisionReason, /held by A for "pkg work"/);
  assert.equal(claimFiles(join(repo.box.root, "store-evade")), []);
  // Once released where it was made, the file is free under the new .claims.
  assert.is(claims(["release", "--holder", "A"], { cwd: root, env }).code, 0);
  assert.is(claims(["release", "--holder", "A"], { cwd: pkg, env }).code, 0);
  assert.is(claims(["take", "src/g.ts", "--holder", "B"], { cwd: join(root, "packages", "b"), env }).code, 0);
  assert.is(claimFiles(join(repo.box.root, "store-b")).length, 1, "claimed where the new .claims points");
});

test("should beat and release a claim where it was made before a .claims nearer it appeared, named or not", ({ repo }) => {
  const { root, env } = repo;
  const pkgB = join(root, "packages", "b");
  mkdirSync(join(pkgB, "src"), { recursive: true });
  writeFileSync(join(pkgB, "src", "g.ts"), "");
  writeFileSync(join(pkgB, "src", "h.ts"), "");
  assert.is(claims(["take", "src/g.ts", "src/h.ts", "--holder", "A"], { cwd: pkgB, env }).code, 0);
  assert.is(claimFiles(repo.rootStore).length, 2, "made in the root's directory");
  writeFileSync(join(pkgB, ".claims"), JSON.stringify({ dir: "../../../store-b" }));
  const beat = claims(["beat", "src/g.ts", "--holder", "A"], { cwd: pkgB, env });
  assert.is(beat.code, 0, beat.stdout);
  assert.match(beat.stdout, /^renewed .*g\.ts$/m);
  const released = claims(["release", "src/g.ts", "--holder", "A"], { cwd: pkgB, env });
  assert.match(released.stdout, /^released .*g\.ts$/m);
  assert.is(claimFiles(repo.rootStore).length, 1);
  assert.match(claims(["release", "--holder", "A"], { cwd: pkgB, env }).stdout, /^released .*h\.ts$/m, "and without targets");
  assert.equal(claimFiles(repo.rootStore), []);
  assert.is(claims(["take", "src/g.ts", "src/h.ts", "--holder", "B"], { cwd: pkgB, env }).code, 0, "free for the next");
});

test("should refuse a file a hook claimed in both its session's and the package's directories once, with a queue that can wait", ({ repo }) => {
  const { root, pkg, env } = repo;
  const written = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s3", cwd: root, hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: join(pkg, "src", "f.ts"), content: "x" } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  assert.is(written.stdout, "", written.stderr);
  const taken = claims(["take", "src/f.ts", "--holder", "B"], { cwd: pkg, env });
  assert.is(taken.code, 3);
  assert.match(taken.stdout, /queue a handover to get it in order when it frees: claims take src\/f\.ts --holder B --queue/);
  assert.not.match(taken.stdout, /where a queue here cannot wait/);
  const checked = JSON.parse(claims(["check", "packages/a/src/f.ts", "--holder", "B", "--json"], { cwd: root, env }).stdout);
  assert.equal(checked.refused.map((holding: { holder: string }) => holding.holder), ["claude-s3"], "one refusal, however many directories hold it");
  assert.is(claims(["take", "src/f.ts", "--holder", "B", "--queue"], { cwd: pkg, env }).code, 6);
});

test("should claim a routed file from the hook with the settings of the package's .claims", ({ repo }) => {
  const { root, pkg, env } = repo;
  writeFileSync(join(pkg, ".claims"), JSON.stringify({ dir: "../../../store-a", shared_group: true, ttl: 600 }));
  const answer = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s5", cwd: root, hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: join(pkg, "src", "f.ts"), content: "x" } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  assert.is(answer.status, 0, answer.stderr);
  assert.is(statSync(repo.pkgStore).mode & 0o7777, 0o2770, "made as the package's sessions make it");
  const [file] = claimFiles(repo.pkgStore);
  assert.is(statSync(join(repo.pkgStore, file as string)).mode & 0o777, 0o660);
  assert.is(JSON.parse(readFileSync(join(repo.pkgStore, file as string), "utf8")).ttl, 600);
});

test("should meet a hard link between two sibling packages of a git repository with no .claims at its root", ({ repo }) => {
  const { root, pkg, env } = repo;
  rmSync(join(root, ".claims"));
  mkdirSync(join(root, ".git"));
  const other = join(root, "packages", "b");
  writeFileSync(join(other, ".claims"), JSON.stringify({ dir: "../../../store-b" }));
  linkSync(join(pkg, "src", "f.ts"), join(other, "g.ts"));
  assert.is(claims(["take", "src/f.ts", "--holder", "A"], { cwd: pkg, env }).code, 0);
  assert.is(claims(["take", "g.ts", "--holder", "B"], { cwd: other, env }).code, 3);
  assert.is(claims(["check", "g.ts", "--holder", "B"], { cwd: other, env }).code, 3);
});

test("should take a routed target with the settings of the .claims that names its directory: a group-shared one stays shared", ({ repo }) => {
  const { root, pkg, env } = repo;
  writeFileSync(join(pkg, ".claims"), JSON.stringify({ dir: "../../../store-a", shared_group: true, ttl: 600 }));
  assert.is(claims(["take", "packages/a/src/f.ts", "--holder", "A"], { cwd: root, env }).code, 0);
  assert.is(statSync(repo.pkgStore).mode & 0o7777, 0o2770, "made as the package's sessions make it");
  const [file] = claimFiles(repo.pkgStore);
  assert.is(statSync(join(repo.pkgStore, file as string)).mode & 0o777, 0o660);
  assert.is(JSON.parse(readFileSync(join(repo.pkgStore, file as string), "utf8")).ttl, 600, "the package's TTL");
  // A writer whose own config says nothing of a group keeps a shared directory's files shared.
  writeFileSync(join(pkg, ".claims"), JSON.stringify({ dir: "../../../store-a" }));
  assert.is(claims(["take", "src/g.ts", "--holder", "B", "--creating"], { cwd: pkg, env }).code, 0);
  for (const name of claimFiles(repo.pkgStore)) assert.is(statSync(join(repo.pkgStore, name)).mode & 0o777, 0o660, name);
});

test("should find a package's .claims that is a symlink, and refuse to take or check a directory whose search below was cut short", ({ repo }) => {
  const { root, pkg, env } = repo;
  renameSync(join(pkg, ".claims"), join(root, "a.claims"));
  symlinkSync("../../a.claims", join(pkg, ".claims"));
  const across = claims(["take", "packages/", "--holder", "A"], { cwd: root, env });
  assert.is(across.code, 2, "the package is found through its link");
  // A package 17 levels down, with a claim in its own directory: past the search's depth.
  const deep = join(root, "packages", "b", ...Array.from({ length: 16 }, (_, level) => `l${level}`), "pkg");
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(deep, ".claims"), JSON.stringify({ dir: join(repo.root, "store-deep") }));
  assert.is(claims(["take", "./x.ts", "--holder", "B"], { cwd: deep, env }).code, 0);
  const cut = claims(["take", "packages/b/", "--holder", "A"], { cwd: root, env });
  assert.is(cut.code, 2, cut.stdout);
  assert.is(cut.stderr, `claims: The search below packages/b/ for packages with a .claims of their own stopped at its limits (20,000 directories, 16 levels), so a claim in one further down could be missed; claim narrower targets, or have every session use one claims directory (--dir, CLAIMS_DIR).\n`);
  assert.is(claimFiles(repo.rootStore).length, 0, "nothing taken");
  const checked = claims(["check", "packages/b/", "--holder", "A"], { cwd: root, env });
  assert.is(checked.code, 2, checked.stdout);
  assert.match(checked.stderr, /The search below packages\/b\/ for packages .* check narrower targets/);
  // Within the search's depth, the package is found, and the take refused as reaching into two directories.
  assert.is(claims(["take", "packages/b/l0/l1/l2/", "--holder", "A"], { cwd: root, env }).code, 2);
  // And the hook refuses a write of the whole tree, which may reach the package unseen.
  const removal = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s6", cwd: root, hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "t1", tool_input: { command: "rm -rf packages/b" } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  assert.match(removal.stdout, /"permissionDecision":\s*"deny"/, removal.stdout + removal.stderr);
  assert.match(removal.stdout, /The search below .*packages\/b for packages with a \.claims of their own stopped at its limits \(20,000 directories, 16 levels\), so whether one this write may reach claims in a claims directory of its own could not be told/);
  const narrow = spawnSync(process.execPath, [BIN, "hook", "claude"], {
    input: JSON.stringify({ session_id: "s6", cwd: root, hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "t2", tool_input: { command: "rm -rf packages/b/l0/l1/l2/l3/l4/l5/l6/l7/l8/l9/l10" } }),
    env: cleanEnv(env),
    encoding: "utf8",
  });
  // A narrower tree is searched whole: the package is found, and the write refused for B's claim there.
  assert.match(narrow.stdout, /the claim on .*pkg\/x\.ts inside it is held by B/, narrow.stdout);
  assert.not.match(narrow.stdout, /could not be told/);
});

test("should take, check and let the hook write a tree too deep to search whole where no package has a .claims, and never search .venv", () => {
  const box = sandbox();
  try {
    const env = { HOME: box.root };
    const hook = (command: string) =>
      spawnSync(process.execPath, [BIN, "hook", "claude"], {
        input: JSON.stringify({ session_id: "s5", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "t1", tool_input: { command } }),
        env: cleanEnv(env),
        encoding: "utf8",
      }).stdout;
    mkdirSync(join(box.project, "src", ...Array.from({ length: 18 }, (_, level) => `l${level}`)), { recursive: true });
    mkdirSync(join(box.project, ".venv", ...Array.from({ length: 18 }, (_, level) => `v${level}`)), { recursive: true });
    const unseen = claims(["take", "src/", "--holder", "A"], { cwd: box.project, env });
    assert.is(unseen.code, 0, "no .claims seen anywhere: granted");
    assert.match(unseen.stderr, /the search below src\/ for packages with a \.claims of their own stopped at its limits \(20,000 directories, 16 levels\) and found none; one further down would not be looked in/);
    assert.is(claims(["check", "src/", "--holder", "B"], { cwd: box.project, env }).code, 3);
    assert.not.match(hook("rm -rf .venv"), /stopped at its limits/);
    // With a .claims above, a package further down could be missed: refused, except for a glob that cannot reach that deep.
    writeFileSync(join(box.project, ".claims"), JSON.stringify({ dir: join(box.root, "store") }));
    assert.is(claims(["release", "--holder", "A"], { cwd: box.project, env }).code, 0);
    assert.is(claims(["take", "src/", "--holder", "A"], { cwd: box.project, env }).code, 2);
    assert.is(claims(["take", "src/*/*.md", "--holder", "A"], { cwd: box.project, env }).code, 0, "a glob reaching one level down");
    assert.is(claims(["take", "src/**/*.md", "--holder", "C"], { cwd: box.project, env }).code, 2);
    assert.match(hook("rm -rf src"), /stopped at its limits/);
    assert.not.match(hook("rm -rf .venv"), /stopped at its limits/, "nor is .venv searched with one");
  } finally {
    box.cleanup();
  }
});

test("should let check --token pass a fresh holding of a file in a package with a .claims of its own, and fence one that is over", ({ repo }) => {
  // The directories a check only looks in (the root's, the default) hold no claim carrying the
  // token: judged there too, every fresh holding came back fenced (exit 4).
  const { root, pkg, env } = repo;
  const taken = claims(["take", "src/f.ts", "--holder", "A", "--json"], { cwd: pkg, env });
  assert.is(taken.code, 0, taken.stderr);
  const token = String(JSON.parse(taken.stdout).granted[0].token);
  const fresh = claims(["check", "src/f.ts", "--token", token, "--holder", "A", "--json"], { cwd: pkg, env });
  assert.is(fresh.code, 0, fresh.stdout + fresh.stderr);
  assert.equal(JSON.parse(fresh.stdout).fenced, []);
  assert.is(claims(["check", "packages/a/src/f.ts", "--token", token, "--holder", "A"], { cwd: root, env }).code, 0, "from the root too");
  // With a target of the root's own: its directory is home to one and only looked in for the other.
  const readme = claims(["take", "README.md", "--holder", "A", "--json"], { cwd: root, env });
  assert.is(JSON.parse(readme.stdout).granted[0].token, Number(token), "both are the first holding of their target");
  const both = claims(["check", "packages/a/src/f.ts", "README.md", "--token", token, "--holder", "A", "--json"], { cwd: root, env });
  assert.is(both.code, 0, both.stdout + both.stderr);
  assert.is(claims(["release", "README.md", "--holder", "A"], { cwd: root, env }).code, 0);
  assert.is(claims(["release", "src/f.ts", "--holder", "A"], { cwd: pkg, env }).code, 0);
  assert.is(claims(["take", "src/f.ts", "--holder", "B"], { cwd: pkg, env }).code, 0);
  const over = claims(["check", "src/f.ts", "--token", token, "--holder", "A", "--json"], { cwd: pkg, env });
  assert.is(over.code, 4, over.stdout + over.stderr);
  assert.is(JSON.parse(over.stdout).fenced.length, 1, "fenced once, where the claim lives");
});

test("should sweep a pointer unused for 7 days once its holder holds nothing there, and leave a fresh one", ({ repo }) => {
  const { root, env } = repo;
  assert.is(claims(["take", "packages/a/src/f.ts", "--holder", "A"], { cwd: root, env }).code, 0);
  const pointers = join(repo.rootStore, ".elsewhere");
  const [pointer] = readdirSync(pointers);
  assert.ok(pointer, "a pointer was left");
  assert.equal(JSON.parse(claims(["sweep", "--json"], { cwd: root, env }).stdout).debris, [], "a fresh pointer is kept");
  const old = new Date(Date.now() - 8 * 24 * 3600_000);
  spawnSync("touch", ["-d", old.toISOString(), join(pointers, pointer as string)]);
  assert.equal(JSON.parse(claims(["sweep", "--json"], { cwd: root, env }).stdout).debris, [], "an old one is kept while A holds a claim there");
  // Released by name (a release of everything would remove the pointer itself): nothing of A's is left there.
  assert.is(claims(["release", "packages/a/src/f.ts", "--holder", "A"], { cwd: root, env }).code, 0);
  assert.equal(readdirSync(pointers), [pointer]);
  assert.equal(JSON.parse(claims(["sweep", "--json"], { cwd: root, env }).stdout).debris, [`.elsewhere/${pointer}`]);
  assert.equal(readdirSync(pointers), []);
});

test("should keep the pointer to a claim with a TTL longer than a week that its holder has not beaten for one: beat and release without targets still reach it", ({ repo }) => {
  // A TTL of up to 30 days is allowed; a holder beating once every ten days holds its claim all
  // along. Sweeping its pointer after 7 days left the claim out of every beat and release without
  // targets: never renewed nor reported lost, and held for the rest of its TTL after a release of everything.
  const { root, env, pkgStore } = repo;
  assert.is(claims(["take", "packages/a/src/f.ts", "--holder", "A", "--ttl", "2592000"], { cwd: root, env }).code, 0);
  const pointers = join(repo.rootStore, ".elsewhere");
  const [pointer] = readdirSync(pointers);
  const old = new Date(Date.now() - 8 * 24 * 3600_000);
  utimesSync(join(pointers, pointer as string), old, old);
  assert.is(claims(["sweep"], { cwd: root, env }).code, 0);
  const beaten = JSON.parse(claims(["beat", "--holder", "A", "--json"], { cwd: root, env }).stdout);
  assert.equal(beaten.renewed, [join(repo.pkg, "src", "f.ts")], "the beat reaches the claim");
  const released = JSON.parse(claims(["release", "--holder", "A", "--json"], { cwd: root, env }).stdout);
  assert.equal(released.released, [join(repo.pkg, "src", "f.ts")], "and so does the release of everything");
  assert.equal(claimFiles(pkgStore), []);
});

test("should keep a pointer young by the holder's beat once it is a day old, stamped by the filesystem, and not write it on every beat", ({ repo }) => {
  const { root, env } = repo;
  assert.is(claims(["take", "packages/a/src/f.ts", "--holder", "A"], { cwd: root, env }).code, 0);
  const [name] = readdirSync(join(repo.rootStore, ".elsewhere"));
  const pointer = join(repo.rootStore, ".elsewhere", name as string);
  const inode = statSync(pointer).ino;
  assert.is(claims(["beat", "--holder", "A"], { cwd: root, env }).code, 0);
  assert.is(statSync(pointer).ino, inode, "a pointer younger than a day is left as it is");
  const twoDays = new Date(Date.now() - 2 * 24 * 3600_000);
  utimesSync(pointer, twoDays, twoDays);
  assert.is(claims(["beat", "--holder", "A"], { cwd: root, env }).code, 0);
  assert.ok(Date.now() - statSync(pointer).mtimeMs < 60_000, "stamped anew");
  assert.equal(JSON.parse(readFileSync(pointer, "utf8")).holder, "A", "its content kept");
});

test("should list from the repository's root the claims of a package claiming in a directory of its own, each with that directory and the package, and not from beside the repository", ({ repo }) => {
  const { root, pkg, env, pkgStore, box } = repo;
  assert.is(claims(["take", join(pkg, "src", "f.ts"), "--holder", "A", "--purpose", "rounding"], { cwd: pkg, env }).code, 0);
  assert.is(claims(["take", "README.md", "--holder", "B"], { cwd: root, env }).code, 0);
  const listed = JSON.parse(claims(["status", "--json"], { cwd: root, env }).stdout);
  assert.equal(
    listed.claims.map((claim: { target: string; holder: string; claims_dir?: string; package?: string }) => [claim.target, claim.holder, claim.claims_dir, claim.package]),
    [[join(root, "README.md"), "B", undefined, undefined], [join(pkg, "src", "f.ts"), "A", pkgStore, pkg]],
  );
  assert.match(claims(["status"], { cwd: root, env }).stdout, new RegExp(`f\\.ts .* A .*\\(in the claims directory ${pkgStore}, which ${pkg}/\\.claims names\\)`));
  // From inside the package, its own directory; from beside the repository, nothing is walked.
  assert.equal(JSON.parse(claims(["status", "--json"], { cwd: pkg, env }).stdout).claims.map((claim: { holder: string }) => claim.holder), ["A"]);
  mkdirSync(join(box.root, "beside"));
  assert.equal(JSON.parse(claims(["status", "--json"], { cwd: join(box.root, "beside"), env }).stdout).claims, []);
});

test.run();
