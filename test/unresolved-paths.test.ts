// Paths claimed before they were there (docs/PROTOCOL.md 5a, "Paths not there when claimed"):
// `later/f.txt` claimed while `later` does not exist, and `later` made a symlink to `real` since,
// is the file `real/f.txt`: never two holders of it, and its holder keeps it under either spelling.
// Real processes throughout (the CLI, the hook), and for the races, a take stopped at an exact step.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, entries, iso, readJson, sandbox, untilStopped, type Sandbox } from "./helpers.js";
import { claimFileName } from "../src/targets/target.js";

type Run = (args: string[], holder?: string) => ReturnType<typeof claims>;
const Paths = suite<{ box: Sandbox; run: Run }>("paths claimed before they were there");
Paths.before.each((context) => {
  const box = sandbox();
  context.box = box;
  mkdirSync(join(box.project, "real"));
  mkdirSync(join(box.project, "other"));
  context.run = (args, holder) => claims([...args, "--dir", box.dir, ...(holder === undefined ? [] : ["--holder", holder])], { cwd: box.project });
});
Paths.after.each((context) => context.box.cleanup());

const refusal = (result: ReturnType<typeof claims>) => JSON.parse(result.stdout).refused as Array<{ holder: string; purpose: string; held_target?: string; overlap?: string }>;

Paths("should refuse the file under its real path to another holder once a symlink made since leads the claimed path there", ({ box, run }) => {
  assert.is(run(["take", "later/f.txt", "--purpose", "write f"], "A").code, 0);
  symlinkSync("real", join(box.project, "later"));
  const refused = run(["take", "real/f.txt", "--purpose", "b", "--json"], "B");
  assert.is(refused.code, 3, refused.stdout + refused.stderr);
  const [holding] = refusal(refused);
  assert.is(holding?.holder, "A");
  assert.is(holding?.purpose, "write f");
  assert.is(holding?.held_target, join(box.project, "later", "f.txt"));
  assert.match(holding?.overlap ?? "", /leads to .*\/real\/f\.txt now/);
  assert.is(run(["check", "real/f.txt"], "B").code, 3);
  assert.is(run(["check", "later/f.txt"], "B").code, 3, "the claimed spelling leads there too");
  assert.is(run(["check", "real/f.txt"]).code, 3, "a check without a holder");
  assert.is(run(["check", "real/f.txt"], "A").code, 0, "its holder may write it");
  // The other order, the link there first: one canonical target, refused as ever.
  assert.is(run(["take", "real/g.txt", "--purpose", "g"], "B").code, 0);
  assert.is(run(["take", "later/g.txt"], "A").code, 3);
  const status = JSON.parse(run(["status", "--json"]).stdout);
  assert.equal(status.claims.map((claim: { holder: string }) => claim.holder).sort(), ["A", "B"]);
  assert.is(readdirSync(box.dir).filter((name) => name.endsWith(".json") && !name.startsWith(".")).length, 2, "no claim of B's on f.txt");
});

Paths("should hold two claims taken on both spellings before the link in a stand-off: each holder refused the file, never two writers", ({ box, run }) => {
  assert.is(run(["take", "later/f.txt", "--purpose", "a"], "A").code, 0);
  assert.is(run(["take", "real/f.txt", "--purpose", "b"], "B").code, 0, "no link yet: two files");
  symlinkSync("real", join(box.project, "later"));
  for (const [holder, other] of [["A", "B"], ["B", "A"]]) {
    for (const path of ["later/f.txt", "real/f.txt"]) {
      const checked = run(["check", path, "--json"], holder);
      assert.is(checked.code, 3, `${holder} may not write ${path}: ${checked.stdout}`);
      assert.ok(refusal(checked).some((holding) => holding.holder === other), `${holder} is told of ${other}'s claim on ${path}: ${checked.stdout}`);
    }
  }
  const shown = JSON.parse(run(["status", "real/f.txt", "--json"]).stdout).claims.map((claim: { holder: string }) => claim.holder).sort();
  assert.equal(shown, ["A", "B"], "status of either spelling shows both");
  assert.is(run(["release", "later/f.txt"], "A").code, 0);
  assert.is(run(["check", "later/f.txt"], "B").code, 0, "once one releases, the other writes");
});

Paths("should let the holder beat, re-take, check, show and release its claim by either spelling, and free the file after", ({ box, run }) => {
  assert.is(run(["take", "later/f.txt", "--purpose", "a"], "A").code, 0);
  symlinkSync("real", join(box.project, "later"));
  const beat = run(["beat", "real/f.txt", "--json"], "A");
  assert.is(beat.code, 0, beat.stdout + beat.stderr);
  assert.equal(JSON.parse(beat.stdout).renewed, [join(box.project, "later", "f.txt")]);
  const retake = run(["take", "real/f.txt", "--purpose", "a2", "--json"], "A");
  assert.is(retake.code, 0, retake.stdout + retake.stderr);
  assert.is(JSON.parse(retake.stdout).granted[0].action, "retaken", "the same claim, not a second one");
  assert.is(JSON.parse(retake.stdout).granted[0].target, join(box.project, "later", "f.txt"));
  const shown = JSON.parse(run(["status", "real/f.txt", "--json"]).stdout);
  assert.equal(shown.claims.map((claim: { target: string; holder: string }) => [claim.target, claim.holder]), [[join(box.project, "later", "f.txt"), "A"]]);
  assert.equal(shown.free, []);
  const released = run(["release", "later/f.txt", "--json"], "A");
  assert.is(released.code, 0, released.stdout + released.stderr);
  assert.equal(JSON.parse(released.stdout).released, [join(box.project, "later", "f.txt")]);
  const next = run(["take", "real/f.txt", "--purpose", "b", "--json"], "B");
  assert.is(next.code, 0, "released: free for the next holder");
  assert.is(JSON.parse(next.stdout).granted[0].token, 2, "above A's token on the other spelling, though A's claim is gone");
  assert.is(run(["check", "--token", "1", "later/f.txt"], "A").code, 4, "A's old token is fenced");
  assert.equal(readdirSync(box.dir).filter((name) => name.endsWith(".json") && !name.startsWith(".")), [claimFileName(join(box.project, "real", "f.txt"))]);
});

Paths("should release by the real spelling, and hand over, a claim taken by the path it had before the link", ({ box, run }) => {
  assert.is(run(["take", "later/f.txt", "later/h.txt", "--purpose", "a"], "A").code, 0);
  symlinkSync("real", join(box.project, "later"));
  assert.is(run(["release", "real/f.txt"], "A").code, 0);
  assert.not.ok(existsSync(join(box.dir, claimFileName(join(box.project, "later", "f.txt")))));
  const handed = run(["handover", "real/h.txt", "--to", "C", "--json"], "A");
  assert.is(handed.code, 0, handed.stdout + handed.stderr);
  assert.is(readJson(join(box.dir, claimFileName(join(box.project, "later", "h.txt")))).holder, "C");
  const refused = run(["take", "real/h.txt", "--json"], "B");
  assert.is(refused.code, 3);
  assert.is(refusal(refused)[0]?.holder, "C", "the claim handed over still covers the file");
});

Paths("should refuse what is under a directory claimed before it was there, once it leads elsewhere", ({ box, run }) => {
  assert.is(run(["take", "later/", "--purpose", "new tree"], "A").code, 0);
  assert.is(run(["take", "soon/sub/x", "--purpose", "deep"], "A").code, 0);
  symlinkSync("real", join(box.project, "later"));
  symlinkSync("other", join(box.project, "soon"));
  for (const [target, held] of [["real/x.txt", "later/"], ["real/", "later/"], ["other/sub/x", "soon/sub/x"], ["other/", "soon/sub/x"], ["other/sub/", "soon/sub/x"]] as const) {
    const refused = run(["take", target, "--json"], "B");
    assert.is(refused.code, 3, `${target}: ${refused.stdout}${refused.stderr}`);
    assert.is(refusal(refused)[0]?.held_target, join(box.project, held), target);
  }
  assert.is(run(["take", "other/y.txt"], "B").code, 0, "beside the file, the directory is free");
  assert.is(run(["release", "real/"], "A").code, 0, "the directory is released by where it leads too");
  assert.is(run(["take", "real/x.txt"], "B").code, 0);
});

Paths("should refuse the file once a directory on its claimed path is replaced by a symlink elsewhere", ({ box, run }) => {
  mkdirSync(join(box.project, "d"));
  assert.is(run(["take", "d/f", "--purpose", "make f"], "A").code, 0);
  renameSync(join(box.project, "d"), join(box.project, "d.old"));
  symlinkSync("other", join(box.project, "d"));
  const refused = run(["take", "other/f", "--json"], "B");
  assert.is(refused.code, 3, refused.stdout + refused.stderr);
  assert.is(refusal(refused)[0]?.holder, "A");
  assert.is(run(["check", "d/f"], "A").code, 0);
});

Paths("should let a stale claim taken before its path was there go: taken over where it leads, and swept with its entry", ({ box, run }) => {
  assert.is(run(["take", "later/f.txt", "--purpose", "a"], "A").code, 0);
  symlinkSync("real", join(box.project, "later"));
  // A's holder stopped beating an hour ago.
  const file = join(box.dir, claimFileName(join(box.project, "later", "f.txt")));
  const hourAgo = Date.now() - 3_600_000;
  const claim = readJson(file);
  writeFileSync(file, `${JSON.stringify({ ...claim, heartbeat_at: iso(Math.floor(hourAgo / 1000) * 1000), taken_at: iso(Math.floor(hourAgo / 1000) * 1000) })}\n`);
  utimesSync(file, new Date(hourAgo), new Date(hourAgo));
  const taken = run(["take", "real/f.txt", "--purpose", "b", "--json"], "B");
  assert.is(taken.code, 0, "a stale claim is in nobody's way");
  assert.is(JSON.parse(taken.stdout).granted[0].token, 2, "above the token of the claim on the other spelling: one file, one sequence");
  assert.is(run(["check", "--token", "1", "later/f.txt"], "A").code, 4, "A's lapsed token is fenced");
  const beat = run(["beat", "later/f.txt", "--json"], "A");
  assert.is(beat.code, 4, "A lost it: B holds the file it leads to");
  const entry = `.unresolved/${claimFileName(join(box.project, "later", "f.txt"))}`;
  const swept = JSON.parse(run(["sweep", "--json"]).stdout);
  assert.equal(swept.removed, [join(box.project, "later", "f.txt")]);
  assert.not.ok(swept.debris.includes(entry), "kept a while: the tokens of both spellings still count against each other");
  assert.is(run(["check", "real/f.txt"], "B").code, 0);
  const weekAgo = (Date.now() - 8 * 24 * 3600_000) / 1000;
  utimesSync(join(box.dir, entry), weekAgo, weekAgo);
  assert.ok(JSON.parse(run(["sweep", "--json"]).stdout).debris.includes(entry), "then swept");
});

Paths("should relate the tokens of both spellings after the claim is gone though it was held, and beaten, for over a week", ({ box, run }) => {
  assert.is(run(["take", "later/f.txt", "--purpose", "a"], "A").code, 0);
  symlinkSync("real", join(box.project, "later"));
  // Its entry was made 8 days ago, when A took the claim it has beaten every turn since.
  const entry = join(box.dir, ".unresolved", claimFileName(join(box.project, "later", "f.txt")));
  const eightDaysAgo = (Date.now() - 8 * 24 * 3600_000) / 1000;
  utimesSync(entry, eightDaysAgo, eightDaysAgo);
  assert.is(run(["beat", "later/f.txt"], "A").code, 0);
  assert.is(run(["release", "later/f.txt"], "A").code, 0);
  const taken = run(["take", "real/f.txt", "--purpose", "b", "--json"], "B");
  assert.is(taken.code, 0, taken.stdout + taken.stderr);
  assert.is(JSON.parse(taken.stdout).granted[0].token, 2, "above A's token on the other spelling: its entry was kept young by A's beats");
  assert.is(run(["check", "--token", "1", "later/f.txt"], "A").code, 4, "A's old token is fenced");
});

Paths("should judge a hook's writes through the link by the claim taken before it: the holder's own, another session's refused", ({ box, run }) => {
  assert.is(run(["take", "later/f.txt", "--purpose", "write f"], "claude-s1").code, 0);
  symlinkSync("real", join(box.project, "later"));
  const write = (session: string, file: string) =>
    hook(box, { session_id: session, transcript_path: "/tmp/t.jsonl", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: join(box.project, file), content: "x" }, tool_use_id: "toolu_01" });
  const denied = write("s2", "real/f.txt");
  assert.is(denied.code, 0);
  assert.is(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision, "deny");
  assert.match(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecisionReason, /held by claude-s1 for "write f"/);
  for (const file of ["later/f.txt", "real/f.txt"]) {
    const allowed = write("s1", file);
    assert.is(allowed.code, 0);
    assert.is(allowed.stdout, "", `${file}: the session's own claim lets it through`);
  }
  assert.equal(entries(box.dir), [claimFileName(join(box.project, "later", "f.txt"))], "no second claim of the session's on the file");
});

function hook(box: Sandbox, payload: unknown) {
  return claimsWith(["hook", "claude"], JSON.stringify(payload), { CLAIMS_DIR: box.dir });
}

function claimsWith(args: string[], input: string, env: Record<string, string>) {
  const result = spawnSync(process.execPath, [BIN, ...args], { input, env: cleanEnv(env), encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

Paths.run();

const Race = suite<{ box: Sandbox }>("a take of a path not there, racing the symlink that makes it another's");
Race.before.each((context) => {
  context.box = sandbox();
  mkdirSync(join(context.box.project, "real"));
});
Race.after.each((context) => context.box.cleanup());

/** A take started now and stopped once it holds the take lock: it has read its targets, not yet looked. */
async function stoppedTake(box: Sandbox, args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args, "--dir", box.dir, "--json"], { cwd: box.project, env: cleanEnv({ CLAIMS_STOP_AT: "lock-won" }) });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  const done = new Promise<{ code: number | null; stdout: string }>((resolve) => child.on("close", (code) => resolve({ code, stdout })));
  await untilStopped(child);
  return { child, done };
}

Race("should grant one of two takes when the link is made while the take of the path not there waits inside its take lock", async ({ box }) => {
  const first = await stoppedTake(box, ["take", "later/f.txt", "--holder", "A", "--purpose", "a"]);
  symlinkSync("real", join(box.project, "later"));
  first.child.kill("SIGCONT");
  const a = await first.done;
  const b = claims(["take", "real/f.txt", "--holder", "B", "--dir", box.dir, "--json"], { cwd: box.project });
  const granted = [a.code, b.code].filter((code) => code === 0).length;
  assert.is(granted, 1, `A: ${a.code} ${a.stdout} | B: ${b.code} ${b.stdout}${b.stderr}`);
  assert.is(a.code, 0, "A looked first");
  assert.is(b.code, 3);
});

Race("should refuse the take of the path not there when, while it waits inside its take lock, a link leads it to a file another holds", async ({ box }) => {
  assert.is(claims(["take", "real/f.txt", "--holder", "B", "--purpose", "b", "--dir", box.dir], { cwd: box.project }).code, 0);
  const first = await stoppedTake(box, ["take", "later/f.txt", "--holder", "A"]);
  symlinkSync("real", join(box.project, "later"));
  first.child.kill("SIGCONT");
  const a = await first.done;
  assert.is(a.code, 3, a.stdout);
  const [holding] = JSON.parse(a.stdout).refused;
  assert.is(holding.holder, "B");
  assert.match(holding.overlap, /leads to .*\/real\/f\.txt now/);
  assert.equal(readdirSync(box.dir).filter((name) => name.endsWith(".json") && !name.startsWith(".")), [claimFileName(join(box.project, "real", "f.txt"))]);
  assert.is(readJson(join(box.dir, claimFileName(join(box.project, "real", "f.txt")))).holder, "B");
});

Race.run();
