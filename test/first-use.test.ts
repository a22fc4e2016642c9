// What a new user reads, from the real CLI: every sentence says what is so.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, ROOT, sandbox, type Sandbox } from "./helpers.js";

type Context = { box: Sandbox };
const Reads = suite<Context>("what a new user reads");
Reads.before.each((context) => {
  context.box = sandbox();
});
Reads.after.each((context) => context.box.cleanup());

const as = (box: Sandbox, holder: string, ...args: string[]) => claims([...args, "--dir", box.dir, "--holder", holder], { cwd: box.project });

Reads("should not say the directory has no claims when only you have none (status --mine)", ({ box }) => {
  assert.is(as(box, "a", "take", "x").code, 0);
  const mine = as(box, "b", "status", "--mine");
  assert.is(mine.code, 0);
  assert.match(mine.stdout, /^you hold no claims and wait for none in .*\(claims status lists everyone's\)$/m);
  assert.not.match(mine.stdout, /^no claims in/m);
});

Reads("should say a refused directory contains the claimed file, and a refused file is covered by the claimed directory", ({ box }) => {
  mkdirSync(join(box.project, "D"));
  writeFileSync(join(box.project, "D", "a.js"), "");
  assert.is(as(box, "a", "take", "D/a.js", "--purpose", "fix a").code, 0);
  const directory = as(box, "b", "take", "D/");
  assert.is(directory.code, 3);
  assert.match(directory.stdout, /REFUSED \/.*\/D\/: the claim on \/.*\/D\/a\.js inside it is held by a for "fix a"/);
  assert.is(as(box, "a", "release").code, 0);
  assert.is(as(box, "a", "take", "D/", "--purpose", "move D").code, 0);
  const file = as(box, "b", "take", "D/a.js");
  assert.match(file.stdout, /REFUSED \/.*\/D\/a\.js: covered by the claim on \/.*\/D\/, held by a for "move D"/);
});

Reads("should name the claims directories a refusal met elsewhere once each, and not suggest a queue that cannot wait there", ({ box }) => {
  mkdirSync(join(box.project, "D"));
  writeFileSync(join(box.project, "D", "a.py"), "");
  const dirs = ["d1", "d2", "d3"].map((name) => join(box.root, name));
  for (const dir of dirs) assert.is(claims(["take", "D/", "--dir", dir, "--holder", "h4", "--purpose", "fix"], { cwd: box.project }).code, 0);
  // (Each directory's copy beaten apart: one a while ago, as on a loaded machine where each take takes seconds.)
  const older = join(dirs[1] as string, readdirSync(dirs[1] as string).find((name) => name.endsWith(".json") && !name.startsWith(".")) as string);
  const at = new Date(Date.now() - 20_000);
  writeFileSync(older, readFileSync(older, "utf8").replace(/"heartbeat_at": "[^"]+"/, `"heartbeat_at": "${at.toISOString().replace(/\.\d+Z$/, "Z")}"`));
  utimesSync(older, at, at);
  const refused = claims(["take", "D/", "D/a.py", "--dir", join(box.root, "mine"), "--holder", "b", "--queue", "--purpose", "later"], { cwd: box.project });
  assert.is(refused.code, 3, refused.stdout);
  const lines = refused.stdout.trim().split("\n");
  assert.equal(lines.filter((line) => line.startsWith("REFUSED")).length, 2, "one line for each target, not one for each directory");
  assert.match(lines[0] as string, /^REFUSED .*\/D\/: held by h4 for "fix" \(heartbeat \d+s ago\) \(in 3 claims directories\)$/);
  assert.ok(lines.at(-1)?.startsWith(`Nothing was taken. The claims in the way are in the claims directories ${dirs.join(", ")} (`), refused.stdout);
  assert.ok(lines.at(-1)?.includes("where a queue here cannot wait for them"), refused.stdout);
  assert.not.match(refused.stdout, /--queue/);
});

Reads("should answer handover --to before any claims directory exists as not yours (exit 4), not as a directory removed mid-call", ({ box }) => {
  const fresh = join(box.root, "fresh-claims");
  const result = claims(["handover", "shared-config", "--to", "session-b7", "--holder", "a", "--dir", fresh], { cwd: box.project });
  assert.is(result.code, 4, result.stderr);
  assert.is(result.stderr, "claims: You do not hold shared-config: nobody does; take it with claims take shared-config.\n");
  assert.is(claims(["take", "shared-config", "--holder", "a", "--dir", fresh], { cwd: box.project }).code, 0, "the directory is made by the first take, as before");
});

Reads("should tell the receiver of handover --to that it was handed the claim, with its token, not that it took over a stale one", ({ box }) => {
  assert.is(as(box, "b", "take", "x", "--purpose", "mine").code, 0);
  const handed = as(box, "b", "handover", "x", "--to", "c");
  assert.is(handed.code, 0, handed.stderr);
  const token = /^handed x to c \(token (\d+)\)$/m.exec(handed.stdout)?.[1];
  assert.ok(token, handed.stdout);
  const seen = as(box, "c", "status", "--mine");
  assert.match(seen.stdout, /^handed to you: x at \S+ by b$/m);
  assert.not.match(seen.stdout, /stale|while you waited/);
  assert.is(as(box, "c", "release", "x", "--token", token as string).code, 0, "the token shown is the holding's");
});

Reads("should give the receiver of handover --to its own queued purpose, unless one is given", ({ box }) => {
  assert.is(as(box, "b", "take", "x", "--purpose", "mine").code, 0);
  assert.is(as(box, "c", "handover", "x", "--purpose", "third").code, 6);
  assert.match(as(box, "b", "handover", "x", "--to", "c", "--json").stdout, /"purpose": "third"/);
  assert.is(as(box, "c", "handover", "x", "--to", "b", "--purpose", "back to you", "--json").code, 0);
  assert.match(as(box, "c", "status", "x", "--json").stdout, /"purpose": "back to you"/);
});

Reads("should say a shared claim cannot be handed over with --to, not that nobody holds it", ({ box }) => {
  assert.is(as(box, "a", "take", "x", "--shared").code, 0);
  const handed = as(box, "a", "handover", "x", "--to", "b");
  assert.is(handed.code, 2);
  assert.match(handed.stderr, /Your claim on x is shared, and --to hands over an exclusive one; release yours and let b take it/);
  assert.is(as(box, "a", "status", "x", "--json").stdout.includes('"holder": "a"'), true, "still held");
});

Reads("should refuse handover --token without --to instead of ignoring it", ({ box }) => {
  assert.is(as(box, "a", "take", "x").code, 0);
  const queued = as(box, "b", "handover", "x", "--token", "1");
  assert.is(queued.code, 2);
  assert.match(queued.stderr, /--token goes with --to/);
  assert.equal(JSON.parse(as(box, "b", "status", "--json").stdout).queued, [], "nothing was queued");
});

Reads("should refuse handover --to yourself, which would only fence off your own writes", ({ box }) => {
  const taken = JSON.parse(as(box, "a", "take", "x", "--json").stdout);
  const self = as(box, "a", "handover", "x", "--to", "a");
  assert.is(self.code, 2);
  assert.match(self.stderr, /--to a names you, the holder/);
  const after = JSON.parse(as(box, "a", "status", "x", "--json").stdout);
  assert.is(after.claims[0].token, taken.granted[0].token, "the fencing token did not move");
});

Reads("should name the default claims directory in every --dir help, log's too", () => {
  for (const verb of ["take", "handover", "beat", "release", "status", "check", "sweep", "doctor", "log", "guard", "hook"]) {
    const help = claims([verb, "--help"]);
    assert.match(help.stdout.replace(/\s+/g, " "), /--dir <path> .*~\/\.local\/state\/claims/, verb);
  }
});

Reads("should list in the README's JSON section every key take may answer with", () => {
  const source = readFileSync(join(ROOT, "src", "commands", "take-types.ts"), "utf8");
  const body = /export interface TakeResult \{([\s\S]*?)\n\}/.exec(source)?.[1] ?? "";
  const keys = [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((match) => match[1] as string);
  assert.ok(keys.includes("interrupted"), keys.join(" "));
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const json = readme.slice(readme.indexOf("### JSON"), readme.indexOf("## Exit codes"));
  for (const key of keys) assert.match(json, new RegExp(`"${key}"`), key);
});

Reads("should say an existing claims directory it cannot reach is unreachable, not that it cannot create it", ({ box }) => {
  if (process.getuid?.() !== 0) return; // needs root to run as nobody, where permissions apply
  chownSync(box.root, 65534, 65534);
  chmodSync(box.root, 0o755);
  const locked = join(box.root, "locked");
  mkdirSync(join(locked, "store"), { recursive: true });
  chmodSync(locked, 0o700); // root's: nobody cannot look inside
  const result = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, BIN, "take", "x", "--holder", "a", "--dir", join(locked, "store")], {
    cwd: box.root,
    env: cleanEnv(),
    encoding: "utf8",
  });
  assert.is(result.status, 2, result.stderr);
  assert.match(result.stderr, /Cannot reach the claims directory .*\/locked\/store: permission denied/);
});

Reads("should refuse a project directory given as the claims directory, rather than sweep or overwrite its package.json", ({ box }) => {
  // --dir . typed in a project, as if it named the project: its package.json reads as the claim of
  // the name "package", unreadable, so sweep removed it once older than the TTL and a take of
  // that name replaced it.
  const manifest = `${JSON.stringify({ name: "app", version: "1.0.0" })}\n`;
  writeFileSync(join(box.project, "package.json"), manifest);
  mkdirSync(join(box.project, "src"));
  const old = new Date(Date.now() - 2 * 24 * 3600 * 1000);
  utimesSync(join(box.project, "package.json"), old, old);
  chmodSync(box.project, 0o700);
  const inProject = (...args: string[]) => claims([...args, "--dir", "."], { cwd: box.project, env: { CLAIMS_HOLDER: "a" } });
  for (const args of [["sweep"], ["sweep", "--dry-run"], ["take", "name:package"], ["take", "name:other"], ["status"], ["status", "name:package"]]) {
    const run = inProject(...args);
    assert.is(run.code, 2, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
    assert.is(run.stderr, `claims: The claims directory ${box.project} already holds other files (package.json, src): sweep would remove a .json file there as an unreadable claim, and a take could overwrite one; give claims a directory of their own, new or empty, with --dir, CLAIMS_DIR or "dir" in .claims.\n`);
  }
  assert.is(readFileSync(join(box.project, "package.json"), "utf8"), manifest);
  assert.equal(readdirSync(box.project).sort(), ["package.json", "src"]);
  writeFileSync(join(box.root, ".claims"), `{ "dir": "project" }`);
  const byConfig = claims(["take", "name:package"], { cwd: box.root, env: { CLAIMS_HOLDER: "a" } });
  assert.is(byConfig.code, 2, byConfig.stdout);
  assert.is(readFileSync(join(box.project, "package.json"), "utf8"), manifest);
  assert.is(inProject("doctor").code, 2);
  // A directory of its own is used as before, whatever it holds once claims are in it.
  assert.is(as(box, "a", "take", "name:package").code, 0);
  writeFileSync(join(box.dir, "notes.txt"), "");
  assert.is(as(box, "b", "take", "name:other").code, 0);
  assert.is(as(box, "b", "sweep").code, 0);
});

Reads("should not let a release or a queued handover first mark a project directory as a claims directory, opening its package.json to sweep", ({ box }) => {
  // The take lock's file is what says a directory is used for claims: made by a release or a
  // handover that found none, it let the next sweep remove package.json as a stale unreadable claim.
  const manifest = `${JSON.stringify({ name: "app", version: "1.0.0" })}\n`;
  writeFileSync(join(box.project, "package.json"), manifest);
  const old = new Date(Date.now() - 2 * 24 * 3600 * 1000);
  utimesSync(join(box.project, "package.json"), old, old);
  chmodSync(box.project, 0o700);
  const inProject = (...args: string[]) => claims([...args, "--dir", "."], { cwd: box.project, env: { CLAIMS_HOLDER: "a" } });
  for (const args of [["release", "name:package"], ["handover", "name:package"], ["beat", "name:package"], ["beat", "name:other"]]) {
    const run = inProject(...args);
    assert.is(run.code, 2, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
    assert.match(run.stderr, `The claims directory ${box.project} already holds other files (package.json)`);
    assert.equal(readdirSync(box.project), ["package.json"], args.join(" "));
  }
  assert.is(inProject("sweep").code, 2);
  assert.is(readFileSync(join(box.project, "package.json"), "utf8"), manifest);
});

Reads("should never take over or sweep another program's .json file that came into a claims directory after its first take", ({ box }) => {
  // A new project (only .git) passes the first use's check; its package.json and a data file made
  // later read as the unreadable claims of the names package and data, once older than the TTL.
  mkdirSync(join(box.project, ".git"));
  chmodSync(box.project, 0o700);
  const inProject = (holder: string, ...args: string[]) => claims([...args, "--dir", "."], { cwd: box.project, env: { CLAIMS_HOLDER: holder } });
  assert.is(inProject("a", "take", "name:x").code, 0);
  const manifest = `${JSON.stringify({ name: "app", version: "1.0.0" })}\n`;
  const files: Record<string, string> = {
    "package.json": manifest,
    "data.json": "not json\n",
    "list.json": "[1, 2]\n",
    // JSON with comments (tsc --init's), NDJSON, an object naming a target but no holder: no claim either.
    "tsconfig.json": '{\n  // emit\n  "compilerOptions": { "strict": true },\n}\n',
    "events.json": '{"a":1}\n{"a":2}\n',
    "build.json": '{"target":"es2019"}\n',
  };
  // Fresh, the name is bad input at once, not a refusal to wait out (sweep never removes it).
  writeFileSync(join(box.project, "package.json"), manifest);
  const fresh = inProject("b", "take", "name:package", "--wait", "30");
  assert.is(fresh.code, 2, fresh.stdout + fresh.stderr);
  assert.is(inProject("b", "handover", "name:package").code, 2);
  const old = new Date(Date.now() - 2 * 24 * 3600 * 1000);
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(box.project, name), text);
    utimesSync(join(box.project, name), old, old);
  }
  for (const name of ["package", "data", "list", "tsconfig", "events", "build"]) {
    const taken = inProject("b", "take", `name:${name}`);
    assert.is(taken.code, 2, `${name}: ${taken.stdout}${taken.stderr}`);
    assert.match(taken.stderr, `claims: Cannot take ${name}: ${join(box.project, `${name}.json`)} is another program's file, not a claim (never overwritten or removed); a claims directory is for claims only: move that file out of it`);
  }
  const swept = inProject("b", "sweep", "--json");
  assert.is(swept.code, 0, swept.stderr);
  assert.equal(JSON.parse(swept.stdout).removed, []);
  for (const [name, text] of Object.entries(files)) assert.is(readFileSync(join(box.project, name), "utf8"), text, name);
  assert.match(inProject("b", "status").stdout, /^package\s+unreadable\s+package\.json: another program's file, not a claim; modified \S+ \(never taken over or swept: move it out of the claims directory\)$/m);
  // What a crash can leave of a claim is still the directory's own: swept once older than the TTL.
  writeFileSync(join(box.project, "torn.json"), '{"target": "torn", "hol');
  writeFileSync(join(box.project, "zeros.json"), Buffer.alloc(64));
  for (const name of ["torn.json", "zeros.json"]) utimesSync(join(box.project, name), old, old);
  assert.equal(JSON.parse(inProject("b", "sweep", "--json").stdout).removed.sort(), ["torn", "zeros"]);
});

Reads.run();
