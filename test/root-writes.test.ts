// root in another user's claims directory (an agent run with sudo, or as root in a container
// whose project a user of the host shares; a sweep from root's crontab): what it writes there is
// that user's, as if the user had written it. Made root's, mode 0600, a claim of root's agent was
// unreadable to the user's sessions, so it counted as held for the longest TTL a claim may carry
// (30 days) whatever its own said, and no sweep of theirs could remove it; root's sweep refused.
// Real users, made as root.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, iso, sandbox, systemUser, writeClaimFile, type Sandbox } from "./helpers.js";

const ROOT = process.getuid?.() === 0;

type Context = { box: Sandbox; x: { uid: number; gid: number } };
const RootWrites = suite<Context>("root writing in another user's claims directory");
RootWrites.before.each((context) => {
  context.box = sandbox();
  if (!ROOT) return;
  context.x = systemUser("claimsx");
  chmodSync(context.box.root, 0o755);
  chownSync(context.box.project, context.x.uid, context.x.gid);
  mkdirSync(join(context.box.root, "home-x"));
  chownSync(join(context.box.root, "home-x"), context.x.uid, context.x.gid);
});
RootWrites.after.each((context) => context.box.cleanup());

/** `claims <args>` as claimsx, in the project. */
function asUser(box: Sandbox, ...args: string[]) {
  const result = spawnSync("runuser", ["-u", "claimsx", "--", process.execPath, BIN, ...args, "--json"], { cwd: box.project, env: { PATH: process.env.PATH, HOME: join(box.root, "home-x") }, encoding: "utf8" });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** `claims <args>` as root, in the project. */
const asRoot = (box: Sandbox, ...args: string[]) => claims([...args, "--json"], { cwd: box.project });

/** Every entry under `dir` whose owner is not `uid`, with its owner. */
function notOwnedBy(dir: string, uid: number): string[] {
  const wrong: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.uid !== uid) wrong.push(`${name} (uid ${stat.uid})`);
    if (stat.isDirectory()) wrong.push(...notOwnedBy(path, uid).map((inner) => `${name}/${inner}`));
  }
  return wrong;
}

RootWrites("should list a claims directory a user may read but not write, where a stale claim has a waiter the listing cannot grant it to", ({ box, x }) => {
  if (!ROOT) return; // a user root's writes do not bypass permissions for
  mkdirSync(box.dir, { mode: 0o700 });
  chownSync(box.dir, x.uid, x.gid); // the user's own claims directory
  assert.is(asUser(box, "take", "name:cfg", "--dir", box.dir, "--holder", "a", "--ttl", "60").code, 0);
  assert.is(asUser(box, "handover", "name:cfg", "--dir", box.dir, "--holder", "waiter").code, 6);
  const file = join(box.dir, "cfg.json");
  const claim = JSON.parse(readFileSync(file, "utf8"));
  writeClaimFile(box.dir, "cfg.json", { ...claim, heartbeat_at: "2020-01-01T00:00:00Z" }); // gone stale, nobody has called since (the file stays the user's)
  chmodSync(box.dir, 0o500); // the user's own, made read-only
  const listed = asUser(box, "status", "--dir", box.dir);
  assert.is(listed.code, 0, listed.stderr);
  const body = JSON.parse(listed.stdout);
  assert.equal(body.claims.map((entry: { target: string; stale: boolean }) => [entry.target, entry.stale]), [["cfg", true]]);
  assert.equal(body.queued.map((entry: { holder: string }) => entry.holder), ["waiter"], "the waiter is still queued: granted by the next call that can write");
});

RootWrites("should leave what root's take, beat and release write in a user's owner-only claims directory that user's, so the user's sessions read its claims", ({ box, x }) => {
  if (!ROOT) return; // only root writes as another user
  mkdirSync(box.dir, { mode: 0o700 });
  chownSync(box.dir, x.uid, x.gid); // the user's own claims directory, owner-only
  // A path not there yet (an .unresolved entry), a name, and the user's own claim beside them.
  assert.is(asUser(box, "take", "./mine.ts", "--dir", box.dir, "--holder", "me").code, 0);
  const taken = asRoot(box, "take", "./later/conf.ts", "name:nginx", "--dir", box.dir, "--holder", "root-agent", "--purpose", "fix nginx", "--ttl", "600");
  assert.is(taken.code, 0, taken.stderr);
  assert.is(asRoot(box, "beat", "--dir", box.dir, "--holder", "root-agent").code, 0);
  assert.equal(notOwnedBy(box.dir, x.uid), [], "everything in the claims directory is the user's");
  // The user's sessions read root's claims: refused, naming the holder and purpose, not an unreadable file.
  const refused = asUser(box, "take", "name:nginx", "--dir", box.dir, "--holder", "me");
  assert.is(refused.code, 3, refused.stderr);
  assert.equal(JSON.parse(refused.stdout).refused.map((held: { holder: string; purpose: string }) => [held.holder, held.purpose]), [["root-agent", "fix nginx"]]);
  const status = JSON.parse(asUser(box, "status", "--dir", box.dir).stdout);
  assert.equal(status.unreadable, [], "no claim unreadable to the user");
  assert.is(status.claims.length, 3);
  // root releases; the user takes what it freed.
  assert.is(asRoot(box, "release", "--dir", box.dir, "--holder", "root-agent").code, 0);
  assert.equal(notOwnedBy(box.dir, x.uid), [], "still the user's after the release");
  assert.is(asUser(box, "take", "name:nginx", "./later/conf.ts", "--dir", box.dir, "--holder", "me").code, 0);
});

RootWrites("should let the user's sweep remove a stale claim root's agent left in the user's claims directory, by its own TTL", ({ box, x }) => {
  if (!ROOT) return;
  mkdirSync(box.dir, { mode: 0o700 });
  chownSync(box.dir, x.uid, x.gid);
  assert.is(asRoot(box, "take", "name:nginx", "--dir", box.dir, "--holder", "root-agent", "--ttl", "600").code, 0);
  // root's agent died an hour ago (its claim's heartbeat and file say so).
  const file = join(box.dir, "nginx.json");
  const old = Date.now() - 3600_000;
  const claim = JSON.parse(readFileSync(file, "utf8"));
  writeFileSync(file, `${JSON.stringify({ ...claim, taken_at: iso(old), heartbeat_at: iso(old) })}\n`);
  utimesSync(file, new Date(old), new Date(old));
  const swept = asUser(box, "sweep", "--dir", box.dir);
  assert.is(swept.code, 0, swept.stderr);
  assert.equal(JSON.parse(swept.stdout).removed, ["nginx"], "stale by its own TTL of 10 minutes, not held for 30 days");
  assert.is(asUser(box, "take", "name:nginx", "--dir", box.dir, "--holder", "me").code, 0);
});

RootWrites("should make a claims directory root makes in a user's project that user's", ({ box, x }) => {
  if (!ROOT) return;
  // The project's own claims directory, named by its .claims, first used by root's agent.
  writeFileSync(join(box.project, ".claims"), `${JSON.stringify({ dir: ".claims-state" })}\n`);
  chownSync(join(box.project, ".claims"), x.uid, x.gid);
  const taken = asRoot(box, "take", "./app.ts", "--holder", "root-agent");
  assert.is(taken.code, 0, taken.stderr);
  const dir = join(box.project, ".claims-state");
  assert.is(lstatSync(dir).uid, x.uid, "the claims directory is the user's");
  assert.equal(notOwnedBy(dir, x.uid), [], "and all in it");
  const refused = asUser(box, "take", "./app.ts", "--holder", "me");
  assert.is(refused.code, 3, `the user's session is refused by root's claim, which it reads: ${refused.stdout}${refused.stderr}`);
  assert.is(asUser(box, "take", "./other.ts", "--holder", "me").code, 0, "and claims beside it");
});

RootWrites("should claim, run through sudo, in the default claims directory of the user who ran sudo, as that user's", ({ box }) => {
  if (!ROOT) return;
  // A user whose home is in the sandbox: sudo gives root's HOME and drops XDG_STATE_HOME and CLAIMS_DIR.
  const home = join(box.root, "home-s");
  const s = systemUser("claimssudo");
  mkdirSync(home);
  chownSync(home, s.uid, s.gid);
  spawnSync("usermod", ["-d", home, "claimssudo"]);
  const sudo = { SUDO_UID: String(s.uid), SUDO_GID: String(s.gid), SUDO_USER: "claimssudo", HOME: "/root" };
  const taken = claims(["take", "./hosts", "--holder", "root-agent", "--purpose", "edit hosts", "--json"], { cwd: box.project, env: sudo });
  assert.is(taken.code, 0, taken.stderr);
  const dir = join(home, ".local", "state", "claims");
  assert.equal(notOwnedBy(join(home, ".local"), s.uid), [], "the user's default claims directory, made and written as the user's");
  // The user's own session (its HOME, no XDG_STATE_HOME) is refused by root's claim.
  const mine = spawnSync("runuser", ["-u", "claimssudo", "--", process.execPath, BIN, "take", "./hosts", "--holder", "me", "--json"], { cwd: box.project, env: { PATH: process.env.PATH, HOME: home }, encoding: "utf8" });
  assert.is(mine.status, 3, `${mine.stdout}${mine.stderr}`);
  assert.equal(JSON.parse(mine.stdout).refused.map((held: { holder: string; purpose: string }) => [held.holder, held.purpose]), [["root-agent", "edit hosts"]]);
  // An agent's shell gives sudo its session id, which sudo does not pass on: the error says how.
  const nobody = claims(["take", "./hosts"], { cwd: box.project, env: sudo });
  assert.is(nobody.code, 2, nobody.stdout);
  assert.is(nobody.stderr, "claims: No holder id: sudo passes on neither the agent's session id nor CLAIMS_HOLDER; run sudo --preserve-env=CLAUDE_CODE_SESSION_ID,CODEX_SESSION_ID,CLAIMS_HOLDER claims …, or pass --holder <id>.\n");
  // A claims directory sudo was told to keep (sudo --preserve-env=CLAIMS_DIR) is used as given.
  const pinned = claims(["take", "./other", "--holder", "root-agent", "--json"], { cwd: box.project, env: { ...sudo, CLAIMS_DIR: box.dir } });
  assert.is(pinned.code, 0, pinned.stderr);
  assert.equal(readdirSync(box.dir).filter((name) => name.endsWith(".json")), [`${encodeURIComponent(join(box.project, "other"))}.json`]);
  assert.equal(readdirSync(dir).filter((name) => name.endsWith(".json")), [`${encodeURIComponent(join(box.project, "hosts"))}.json`]);
  // Pinned, it still meets the user's sessions where they claim (docs/PROTOCOL.md 1a): their
  // default directory, not root's. Judged in root's, each side was granted the other's file.
  const pinnedHosts = claims(["take", "./hosts", "--holder", "root-agent-2", "--json"], { cwd: box.project, env: { ...sudo, CLAIMS_DIR: box.dir } });
  assert.is(pinnedHosts.code, 3, `refused by the claim in the user's directory: ${pinnedHosts.stdout}${pinnedHosts.stderr}`);
  chmodSync(box.dir, 0o755); // root's own directory, made 0700: the user's sessions must be let read it (PROTOCOL 1a)
  const theirs = spawnSync("runuser", ["-u", "claimssudo", "--", process.execPath, BIN, "take", "./other", "--holder", "me", "--json"], { cwd: box.project, env: { PATH: process.env.PATH, HOME: home }, encoding: "utf8" });
  assert.is(theirs.status, 3, `the user's session is refused by the pinned claim, through the pointer left in its directory: ${theirs.stdout}${theirs.stderr}`);
  assert.equal(readdirSync(join(dir, ".pinned")), [encodeURIComponent(box.dir)]);
  // An XDG_STATE_HOME sudo was told to keep is the user's: it moves their default directory, so the
  // pointer to it is left in theirs (where their sessions without it claim), not in root's.
  const moved = join(home, "state-x");
  const rootPointer = join("/root", ".local", "state", "claims", ".pinned", encodeURIComponent(join(moved, "claims")));
  const third = claims(["take", "./third", "--holder", "root-agent", "--json"], { cwd: box.project, env: { ...sudo, XDG_STATE_HOME: moved } });
  assert.is(third.code, 0, third.stderr);
  assert.equal(readdirSync(join(dir, ".pinned")).sort(), [encodeURIComponent(box.dir), encodeURIComponent(join(moved, "claims"))].sort());
  assert.not.ok(existsSync(rootPointer), "no pointer in root's own default directory");
  const theirThird = spawnSync("runuser", ["-u", "claimssudo", "--", process.execPath, BIN, "take", "./third", "--holder", "me", "--json"], { cwd: box.project, env: { PATH: process.env.PATH, HOME: home }, encoding: "utf8" });
  assert.is(theirThird.status, 3, `the user's session is refused through that pointer: ${theirThird.stdout}${theirThird.stderr}`);
  // A relative XDG_STATE_HOME kept (which names no place, and the default ignores) is as none: the user's directory, not root's.
  const fourth = claims(["take", "./fourth", "--holder", "root-agent", "--json"], { cwd: box.project, env: { ...sudo, XDG_STATE_HOME: "rel-state" } });
  assert.is(fourth.code, 0, fourth.stderr);
  assert.ok(readdirSync(dir).includes(`${encodeURIComponent(join(box.project, "fourth"))}.json`), "claimed in the user's default directory");
  const theirFourth = spawnSync("runuser", ["-u", "claimssudo", "--", process.execPath, BIN, "take", "./fourth", "--holder", "me", "--json"], { cwd: box.project, env: { PATH: process.env.PATH, HOME: home }, encoding: "utf8" });
  assert.is(theirFourth.status, 3, `the user's session is refused by root's claim: ${theirFourth.stdout}${theirFourth.stderr}`);
});

RootWrites("should give the user nothing root did not make there: a hard link to a file of root's planted as the log stays root's", ({ box, x }) => {
  if (!ROOT) return;
  mkdirSync(box.dir, { mode: 0o700 });
  chownSync(box.dir, x.uid, x.gid);
  // An empty file of root's outside the claims directory, linked in at the log's name (as the
  // directory's owner can, where fs.protected_hardlinks is 0): root's take appends to it.
  const outside = join(box.root, "root-only");
  writeFileSync(outside, "", { mode: 0o600 });
  linkSync(outside, join(box.dir, "log.jsonl"));
  const taken = asRoot(box, "take", "name:nginx", "--dir", box.dir, "--holder", "root-agent");
  assert.is(taken.code, 0, taken.stderr);
  assert.is(lstatSync(outside).uid, 0, "a file with a name outside the claims directory is not given away");
  assert.is(lstatSync(join(box.dir, "nginx.json")).uid, x.uid, "what root made there is still the user's");
});

RootWrites.run();
