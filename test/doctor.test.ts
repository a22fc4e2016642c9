import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
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
  assert.is(result.code, 1);
  assert.match(result.stdout, /FAIL  permissions: .* is world-writable/);
  assert.match(result.stdout, /the guard cannot be trusted on .*: permissions failed/);
});

Doctor("should fail the log check when log.jsonl is a directory or a symbolic link, where every change's record is lost, saying what to do", ({ box }) => {
  mkdirSync(join(box.dir, "log.jsonl"), { recursive: true });
  writeFileSync(join(box.dir, "log.jsonl", "kept"), "mine\n");
  const result = claims(["doctor", "--dir", box.dir]);
  assert.is(result.code, 1, result.stdout);
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
  assert.is(result.code, 1, result.stdout);
  const byName = Object.fromEntries(JSON.parse(result.stdout).checks.map((check: { check: string; status: string; detail: string }) => [check.check, check]));
  assert.is(byName["same directory through --via"]?.status, "fail");
  assert.match(byName["same directory through --via"].detail, /did not appear in .*another-directory within 2 s/);
  assert.match(byName["race on a free target"].detail, /^8 processes took one free target: 1 won, 7 refused/, "the races ran through this directory only");
  assert.equal(readdirSync(other), [], "nothing was written through --via");
});

Doctor("should work from the library as the README shows it, with no binary given, and leave no claim", async ({ box }) => {
  const { doctor, status } = await import(pathToFileURL(join(ROOT, "dist", "index.js")).href);
  const result = await doctor({ dir: box.dir, env: {} });
  assert.ok(result.trusted, JSON.stringify(result.checks.filter((check: { ok: boolean }) => !check.ok)));
  assert.equal(status({ dir: box.dir, env: {} }).claims, []);
});

Doctor.run();
