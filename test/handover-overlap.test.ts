// handover --to between real processes: the handed claim becomes another holder's beside every
// other claim that overlaps it. The giver's own other claims there (a directory above the file, the
// file of a symbol, a symbol in the file) would then be another holder's fresh claim in the new
// holder's way: two holders on one file. Such a handover is refused, and nothing changes.
import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, readJson, sandbox, type Sandbox } from "./helpers.js";
import { claimFileName, sharedClaimFileName } from "../src/targets/target.js";

type Context = { box: Sandbox };
const Handover = suite<Context>("handover beside the giver's other claims");
Handover.before.each((context) => {
  context.box = sandbox();
  mkdirSync(join(context.box.project, "D"));
  writeFileSync(join(context.box.project, "D", "a.ts"), "export function foo() {}\nexport function bar() {}\n");
});
Handover.after.each((context) => context.box.cleanup());

const as = (box: Sandbox, holder: string, ...args: string[]) => claims([...args, "--dir", box.dir, "--holder", holder], { cwd: box.project });

/** No two holders' fresh exclusive claims overlap: what `check` of the file says to each holder. */
function writableBy(box: Sandbox, holder: string, target: string): boolean {
  return as(box, holder, "check", target).code === 0;
}

Handover("should refuse to hand a file over while the giver's directory claim covers it", ({ box }) => {
  assert.is(as(box, "a", "take", "D/").code, 0);
  assert.is(as(box, "a", "take", "D/a.ts").code, 0);
  const handed = as(box, "a", "handover", "D/a.ts", "--to", "h", "--json");
  assert.is(handed.code, 3, handed.stdout + handed.stderr);
  assert.is(JSON.parse(handed.stdout).error.code, "REFUSED");
  assert.match(handed.stdout, /D\/ \(a\)/);
  assert.is(readJson(join(box.dir, claimFileName(`${box.project}/D/a.ts`))).holder, "a", "nothing was handed");
  assert.ok(writableBy(box, "a", "D/a.ts"), "the giver still holds the file");
  // Once the directory is released, the file goes to h, who can then write it.
  assert.is(as(box, "a", "release", "D/").code, 0);
  assert.is(as(box, "a", "handover", "D/a.ts", "--to", "h").code, 0);
  assert.ok(writableBy(box, "h", "D/a.ts"));
  assert.not.ok(writableBy(box, "a", "D/a.ts"));
});

Handover("should refuse to hand a directory over while the giver holds a file in it", ({ box }) => {
  assert.is(as(box, "a", "take", "D/", "D/a.ts").code, 0);
  assert.is(as(box, "a", "handover", "D/", "--to", "h").code, 3);
  assert.ok(writableBy(box, "a", "D/a.ts"));
  assert.not.ok(writableBy(box, "h", "D/a.ts"));
});

Handover("should refuse to hand a symbol over while the giver holds its whole file, and the file while it holds a symbol", ({ box }) => {
  assert.is(as(box, "a", "take", "D/a.ts#foo", "D/a.ts").code, 0);
  assert.is(as(box, "a", "handover", "D/a.ts#foo", "--to", "h").code, 3);
  assert.is(as(box, "a", "handover", "D/a.ts", "--to", "h").code, 3);
  const status = JSON.parse(as(box, "a", "status", "--json").stdout);
  assert.equal(status.claims.map((claim: { holder: string }) => claim.holder), ["a", "a"]);
});

Handover("should refuse to hand an exclusive claim over while the giver also holds the target shared", ({ box }) => {
  assert.is(as(box, "a", "take", "D/a.ts", "--shared").code, 0);
  // Another take of the giver made exclusive beside it (as a subagent's re-take keeps both, PROTOCOL take step 6).
  writeFileSync(join(box.dir, claimFileName(`${box.project}/D/a.ts`)), JSON.stringify({ ...readJson(join(box.dir, sharedClaimFileName(`${box.project}/D/a.ts`, "a"))), mode: undefined }));
  const handed = as(box, "a", "handover", "D/a.ts", "--to", "h");
  assert.is(handed.code, 3, handed.stdout + handed.stderr);
});

Handover("should refuse to hand a file over while the giver holds another name of it (a hard link)", ({ box }) => {
  linkSync(join(box.project, "D", "a.ts"), join(box.project, "D", "b.ts"));
  assert.is(as(box, "a", "take", "D/a.ts", "D/b.ts").code, 0);
  const handed = as(box, "a", "handover", "D/a.ts", "--to", "h");
  assert.is(handed.code, 3, handed.stdout + handed.stderr);
  assert.match(handed.stderr, /D\/b\.ts \(a\)/);
});

Handover("should refuse to hand a directory over in a pinned claims directory while the giver's hook holds a file in it where sessions not pinning one claim", ({ box }) => {
  // The giver's shell pins CLAIMS_DIR; its hook does not, and claimed D/a.ts in the default directory.
  const env = { HOME: box.root };
  assert.is(claims(["take", "D/a.ts", "--holder", "a"], { cwd: box.project, env }).code, 0);
  const pinned = { ...env, CLAIMS_DIR: box.dir };
  assert.is(claims(["take", "D/", "--holder", "a"], { cwd: box.project, env: pinned }).code, 0);
  const handed = claims(["handover", "D/", "--to", "h", "--holder", "a"], { cwd: box.project, env: pinned });
  assert.is(handed.code, 3, handed.stdout + handed.stderr);
  assert.match(handed.stderr, /D\/a\.ts \(a, in the claims directory /);
});

Handover("should still hand a claim over beside the giver's claims that do not overlap it, and the new holder's own", ({ box }) => {
  writeFileSync(join(box.project, "D", "b.ts"), "x\n");
  assert.is(as(box, "a", "take", "D/a.ts", "D/b.ts").code, 0);
  assert.is(as(box, "h", "take", "D/a.ts#bar", "--creating").code, 3, "a holds the whole file");
  assert.is(as(box, "a", "handover", "D/a.ts", "--to", "h").code, 0);
  assert.is(as(box, "h", "take", "D/a.ts#bar").code, 0, "h's own symbol beside its file");
  assert.ok(writableBy(box, "h", "D/a.ts"));
  assert.ok(writableBy(box, "a", "D/b.ts"));
});

Handover.run();
