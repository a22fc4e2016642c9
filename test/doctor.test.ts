import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { claims, ROOT, sandbox, type Sandbox } from "./helpers.js";

const Doctor = suite<{ box: Sandbox }>("claims doctor");
Doctor.before.each((context) => {
  context.box = sandbox();
});
Doctor.after.each((context) => context.box.cleanup());

Doctor("should pass every check on a healthy directory, racing real processes, and clean up", ({ box }) => {
  const result = claims(["doctor", "--dir", box.dir, "--json"]);
  assert.is(result.code, 0, result.stdout);
  const body = JSON.parse(result.stdout);
  assert.is(body.trusted, true);
  const byName = Object.fromEntries(body.checks.map((check: { check: string; status: string; detail: string }) => [check.check, check]));
  for (const name of ["permissions", "link(2)", "rename(2)", "race on a free target", "race on a stale claim", "read-back", "clock", "log", "debris", "pinned"]) {
    assert.is(byName[name]?.status, "ok", `${name}: ${byName[name]?.detail}`);
  }
  assert.match(byName["race on a free target"].detail, /1 won, 7 refused/);
  assert.match(byName["race on a stale claim"].detail, /1 won, 7 refused/);
  const left = readdirSync(box.dir).filter((name) => name !== ".takes" && name !== "log.jsonl");
  assert.equal(left, [], "doctor leaves no claim, marker, counter or debris behind");
  const logged = JSON.parse(claims(["log", "--dir", box.dir, "--json"]).stdout).entries;
  assert.equal(logged, [], "nor entries in the record: its races are nobody's work");
});

Doctor("should warn, using the default claims directory, that a HOME other than the login home claims apart from the sessions with it", ({ box }) => {
  const home = join(box.root, "sandbox-home");
  mkdirSync(home);
  const login = readFileSync("/etc/passwd", "utf8").split("\n").map((line) => line.split(":")).find((fields) => fields[2] === String(process.getuid?.()))?.[5] as string;
  const checked = (args: string[], env: Record<string, string> = {}) => JSON.parse(claims(["doctor", ...args, "--json"], { cwd: box.project, env: { HOME: home, ...env } }).stdout).checks.find((entry: { check: string }) => entry.check === "home");
  const warned = checked([]);
  assert.is(warned?.status, "warn", JSON.stringify(warned));
  assert.is(warned.detail, `HOME is ${home}, not the login home ${login}: sessions with the login HOME claim in ${join(login, ".local", "state", "claims")} and this one in ${join(home, ".local", "state", "claims")}, and neither sees the other's claims; set one CLAIMS_DIR for both, or one HOME`);
  assert.is(checked([], { XDG_STATE_HOME: join(box.root, "state") })?.status, "warn", "a moved default meets the others in HOME's directory: HOME still counts");
  assert.is(checked(["--dir", box.dir]), undefined, "a pinned directory is where the sessions meet: HOME does not count");
  assert.is(checked([], { CLAIMS_DIR: box.dir }), undefined);
});

Doctor("should warn when many pinned claims directories point here, each a look for every take, check and hook write, and say what to do", ({ box }) => {
  // Pointers in the documented format (docs/PROTOCOL.md 1a): `.pinned/<the directory, percent-encoded>`.
  mkdirSync(join(box.dir, ".pinned"), { recursive: true });
  const pin = (name: string) => {
    const pinned = join(box.root, name);
    mkdirSync(pinned, { recursive: true });
    writeFileSync(join(box.dir, ".pinned", encodeURIComponent(pinned)), `${JSON.stringify({ dir: pinned })}\n`);
  };
  pin("pinned-0");
  const one = JSON.parse(claims(["doctor", "--dir", box.dir, "--json"]).stdout);
  const few = one.checks.find((entry: { check: string }) => entry.check === "pinned");
  assert.is(few?.status, "ok", few?.detail);
  assert.match(few?.detail, /^1 claims directory pinned with --dir or CLAIMS_DIR points here/);
  for (let n = 1; n <= 11; n++) pin(`pinned-${n}`);
  writeFileSync(join(box.dir, ".pinned", encodeURIComponent(join(box.root, "gone"))), "{}\n"); // a directory gone: a stat, not a look
  const result = claims(["doctor", "--dir", box.dir]);
  assert.is(result.code, 0, "a warning, not a failure: the guard holds");
  assert.match(result.stdout, /warn  pinned: 12 claims directories pinned with --dir or CLAIMS_DIR point here, and are looked in by every take, check and hook write of a path here, each a directory listing: remove those no session uses any more \(sweep then drops their pointers from .*\.pinned\), or have every session pin one directory, or none/);
  assert.is(readdirSync(join(box.dir, ".pinned")).length, 13, "doctor leaves the pointers as they are");
});

Doctor("should refuse to trust a world-writable directory, saying why, with a non-zero exit", ({ box }) => {
  mkdirSync(box.dir);
  chmodSync(box.dir, 0o777);
  const result = claims(["doctor", "--dir", box.dir]);
  assert.is(result.code, 2);
  assert.match(result.stdout, /FAIL  permissions: .* is world-writable/);
  assert.match(result.stdout, /the guard cannot be trusted on .*: permissions failed/);
});

Doctor("should fail the log check when log.jsonl is a directory or a symbolic link, where every change's record is lost, saying what to do", ({ box }) => {
  mkdirSync(join(box.dir, "log.jsonl"), { recursive: true });
  writeFileSync(join(box.dir, "log.jsonl", "kept"), "mine\n");
  const result = claims(["doctor", "--dir", box.dir]);
  assert.is(result.code, 2, result.stdout);
  const log = join(box.dir, "log.jsonl");
  assert.match(result.stdout, `FAIL  log: ${log} is a directory, so no change is recorded there (claims log misses them): move it out of the claims directory, and the next change starts a new log\n`);
  assert.match(result.stdout, /the guard cannot be trusted on .*: log failed/);
  assert.is(readFileSync(join(log, "kept"), "utf8"), "mine\n", "doctor leaves it as it was");
  rmSync(log, { recursive: true });
  writeFileSync(join(box.root, "elsewhere.jsonl"), "");
  symlinkSync(join(box.root, "elsewhere.jsonl"), log);
  const linked = JSON.parse(claims(["doctor", "--dir", box.dir, "--json"]).stdout);
  const check = linked.checks.find((entry: { check: string }) => entry.check === "log");
  assert.is(check?.status, "fail");
  assert.match(check?.detail, /log\.jsonl is a symbolic link \(never appended through\), so no change is recorded there/);
});

Doctor("should say a --via that is not the same directory is wrong, instead of blaming the guard", ({ box }) => {
  const missing = join(box.root, "no-such-mount");
  const absent = claims(["doctor", "--dir", box.dir, "--via", missing]);
  assert.is(absent.code, 2);
  assert.match(absent.stderr, /--via .*no-such-mount is not a directory; give the same claims directory as another mount shows it/);
  assert.not.ok(existsSync(missing), "nothing was created there");
  const other = join(box.root, "another-directory");
  mkdirSync(other);
  const result = claims(["doctor", "--dir", box.dir, "--via", other, "--json"]);
  assert.is(result.code, 2, result.stdout);
  const byName = Object.fromEntries(JSON.parse(result.stdout).checks.map((check: { check: string; status: string; detail: string }) => [check.check, check]));
  assert.is(byName["same directory through --via"]?.status, "fail");
  assert.match(byName["same directory through --via"].detail, /did not appear in .*another-directory within 2 s/);
  assert.match(byName["race on a free target"].detail, /^8 processes took one free target: 1 won, 7 refused/, "the races ran through this directory only");
  assert.equal(readdirSync(other), [], "nothing was written through --via");
});

const permissionsOf = (stdout: string) => JSON.parse(stdout).checks.find((check: { check: string }) => check.check === "permissions") as { status: string; detail: string };
const sharedConfig = (box: Sandbox) => writeFileSync(join(box.project, ".claims"), JSON.stringify({ dir: "../store", shared_group: true }));
const asRoot = process.getuid?.() === 0;
const NOGROUP = 65534; // a group root is not in, which root may still give a directory
const nogroupName = spawnSync("getent", ["group", String(NOGROUP)], { encoding: "utf8" }).stdout?.split(":")[0];

Doctor("should make a group-shared claims directory of the group of the directory it is made in, so the team's other users can use it", ({ box }) => {
  if (!asRoot || !nogroupName) return; // needs a group to give that the creator's own is not: root may give any
  chownSync(box.root, -1, NOGROUP); // the team's directory, without the setgid bit that would hand its group down
  chmodSync(box.root, 0o770);
  sharedConfig(box);
  const taken = claims(["take", "name:x", "--holder", "a"], { cwd: box.project });
  assert.is(taken.code, 0, taken.stderr);
  const made = statSync(box.dir);
  assert.is(made.gid, NOGROUP, "the group of the directory it was made in, not the creator's own");
  assert.is((made.mode & 0o7777).toString(8), "2770");
  assert.is(statSync(join(box.dir, "x.json")).gid, NOGROUP, "and so every file in it");
  const doctor = claims(["doctor", "--holder", "a", "--json"], { cwd: box.project });
  assert.is(doctor.code, 0, doctor.stdout);
  assert.equal(permissionsOf(doctor.stdout), { check: "permissions", status: "ok", detail: `${box.dir} is 2770, shared with the group ${nogroupName}` });
});

Doctor("should warn when a directory above a group-shared claims directory does not let its group through, naming it", ({ box }) => {
  if (!asRoot || !nogroupName) return; // needs a group to give that the creator's own is not
  chmodSync(box.root, 0o711);
  const home = join(box.root, "home"); // an owner's home: 750, of the owner's own group
  mkdirSync(home);
  chmodSync(home, 0o750);
  const dir = join(home, "team-claims");
  writeFileSync(join(box.project, ".claims"), JSON.stringify({ dir: "../home/team-claims", shared_group: true }));
  mkdirSync(dir);
  chownSync(dir, -1, NOGROUP);
  chmodSync(dir, 0o2770);
  const closed = claims(["doctor", "--holder", "a", "--json"], { cwd: box.project });
  assert.is(closed.code, 0, "a warning: the guard holds for its owner");
  assert.equal(permissionsOf(closed.stdout), {
    check: "permissions",
    status: "warn",
    detail: `${dir} is 2770, shared with the group ${nogroupName}, but ${home} above it (750, group root) does not let that group through, so its other members cannot reach it; run chmod o+x ${home}, or chgrp ${nogroupName} ${home} and chmod g+x ${home}, or move the claims directory where the team can reach it`,
  });
  chmodSync(home, 0o751);
  const open = claims(["doctor", "--holder", "a", "--json"], { cwd: box.project });
  assert.equal(permissionsOf(open.stdout).status, "ok", permissionsOf(open.stdout).detail);
});

Doctor("should warn when the config says shared_group but the directory's group is its owner's alone, or the group may not use it, saying what to do", ({ box }) => {
  sharedConfig(box);
  mkdirSync(box.dir, { mode: 0o700 }); // made before the config said shared_group
  chmodSync(box.dir, 0o700);
  const closed = claims(["doctor", "--holder", "a", "--json"], { cwd: box.project });
  assert.is(closed.code, 0, "a warning: the guard holds for its owner");
  const narrow = permissionsOf(closed.stdout);
  assert.is(narrow.status, "warn", narrow.detail);
  assert.is(narrow.detail, `the config says shared_group, but ${box.dir} is 700: the other members of its group cannot take or release there; run chmod 2770 ${box.dir} (and chmod 660 on the files in it)`);
  const owner = spawnSync("getent", ["passwd", String(process.getuid?.())], { encoding: "utf8" }).stdout?.split(":") ?? [];
  const group = spawnSync("getent", ["group", String(owner[3])], { encoding: "utf8" }).stdout?.split(":") ?? [];
  if (owner[0] === undefined || group[0] !== owner[0] || (group[3] ?? "").trim() !== "") return; // no user-private group here
  chownSync(box.dir, -1, Number(owner[3]));
  chmodSync(box.dir, 0o2770);
  const own = claims(["doctor", "--holder", "a", "--json"], { cwd: box.project });
  const lonely = permissionsOf(own.stdout);
  assert.is(lonely.status, "warn", lonely.detail);
  assert.is(lonely.detail, `${box.dir} is 2770, shared with the group ${owner[0]}, the private group of its owner ${owner[0]}, which no other user is in: the other users of the team are refused it; run chgrp -R <the team's group> ${box.dir}`);
});

Doctor("should refuse a --via that is empty, given twice, or the claims directory itself, saying what to give instead", ({ box }) => {
  mkdirSync(box.dir);
  const other = join(box.root, "other-mount");
  mkdirSync(other);
  symlinkSync(box.dir, join(box.root, "link-to-store"));
  const cases: Array<[string[], RegExp]> = [
    [["--via", ""], /^claims: --via is empty; give the same claims directory as another mount shows it \(e\.g\. \/mnt\/other\/claims\)\.\n$/],
    [["--via", other, "--via", join(box.root, "x")], /^claims: --via was given twice, as ".*other-mount" and ".*x"; give it once, with the one meant\.\n$/],
    [["--via", box.dir], /^claims: --via .*store is the claims directory itself \(.*store\); give it as another mount shows it \(e\.g\. \/mnt\/other\/claims\), or leave --via out\.\n$/],
    [["--via", join(box.root, "link-to-store")], /^claims: --via .*link-to-store is the claims directory itself/],
  ];
  for (const [args, message] of cases) {
    const result = claims(["doctor", "--dir", box.dir, ...args]);
    assert.is(result.code, 2, `${args.join(" ")}: ${result.stdout}${result.stderr}`);
    assert.match(result.stderr, message);
    assert.is(result.stdout, "", "no check ran");
  }
});

Doctor("should work from the library as the README shows it, with no binary given, and leave no claim", async ({ box }) => {
  const { doctor, status } = await import(pathToFileURL(join(ROOT, "dist", "index.js")).href);
  const result = await doctor({ dir: box.dir, env: {} });
  assert.ok(result.trusted, JSON.stringify(result.checks.filter((check: { ok: boolean }) => !check.ok)));
  assert.equal(status({ dir: box.dir, env: {} }).claims, []);
});

Doctor.run();
