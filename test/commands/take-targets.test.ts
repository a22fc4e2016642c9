import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { check } from "../../src/commands/check.js";
import { release } from "../../src/commands/release.js";
import { status } from "../../src/commands/status.js";
import { take } from "../../src/commands/take.js";
import { entries, iso, sandbox, SECOND, T0, type Sandbox } from "../helpers.js";

type Context = { box: Sandbox; as: (holder: string, targets: string[], extra?: object) => ReturnType<typeof take> };
const Targets = suite<Context>("take: kinds of target and their overlaps");
Targets.before.each((context) => {
  context.box = sandbox();
  mkdirSync(join(context.box.project, "src", "api"), { recursive: true });
  writeFileSync(join(context.box.project, "src", "a.ts"), "export function formatPrice() {}\nexport function formatDate() {}\nexport function main() {}\n");
  writeFileSync(join(context.box.project, "src", "api", "b.ts"), "");
  context.as = (holder, targets, extra = {}) =>
    take({ dir: context.box.dir, cwd: context.box.project, env: {}, holder, targets, now: T0, ...extra });
});
Targets.after.each((context) => context.box.cleanup());

Targets("should refuse a file under a claimed directory, naming the directory claim", async ({ box, as }) => {
  await as("a", ["src/"], { purpose: "regenerate" });
  const result = await as("b", ["src/api/b.ts"]);
  assert.is(result.refused.length, 1);
  assert.is(result.refused[0]?.target, join(box.project, "src", "api", "b.ts"));
  assert.is(result.refused[0]?.held_target, join(box.project, "src") + "/");
  assert.is(result.refused[0]?.purpose, "regenerate");
});

Targets("should refuse a directory above a claimed file", async ({ as }) => {
  await as("a", ["src/api/b.ts"]);
  assert.is((await as("b", ["src/"])).refused.length, 1);
  assert.is((await as("b", ["src"])).refused.length, 1, "an existing directory is a directory target without the slash too");
});

Targets("should not let a directory conflict with a sibling that shares its prefix", async ({ box, as }) => {
  mkdirSync(join(box.project, "srcx"));
  await as("a", ["src/"]);
  assert.is((await as("b", ["srcx/a.ts"])).granted.length, 1);
  assert.is((await as("b", ["srcx/"])).granted.length, 1);
});

Targets("should refuse files and directories a glob matches, and let others through", async ({ as }) => {
  await as("a", ["src/**/*.ts"]);
  assert.is((await as("b", ["src/api/b.ts"])).refused.length, 1);
  assert.is((await as("b", ["src/api/"])).refused.length, 1);
  assert.is((await as("b", ["src/not-yet-written.ts"])).refused.length, 1);
  assert.is((await as("b", ["src/readme.md"])).granted.length, 1);
});

Targets("should grant a glob that matches no file yet, and name it among unmatched_globs so the caller can check the pattern", async ({ box, as }) => {
  const none = await as("a", ["src/**/*.py", "gen/*.ts", "src/a.ts"]);
  assert.equal(none.granted.map((claim) => claim.kind), ["glob", "glob", "path"]);
  assert.equal(none.unmatched_globs?.sort(), [join(box.project, "gen/*.ts"), join(box.project, "src/**/*.py")], "a base that does not exist matches nothing either");
  const some = await as("a", ["src/**/b.ts", "src/*"]);
  assert.is(some.granted.length, 2);
  assert.is(some.unmatched_globs, undefined, "a glob matching a file below its base, or a directory, is not unmatched");
});

Targets("should refuse a glob that could match a claimed file, even one not created yet", async ({ as }) => {
  await as("a", ["src/new/thing.ts"]);
  assert.is((await as("b", ["src/**/*.ts"])).refused.length, 1);
  assert.is((await as("b", ["src/**/*.py"])).granted.length, 1);
});

Targets("should decide glob against glob for existing and future files", async ({ box, as }) => {
  await as("a", ["src/api/*.ts"]);
  const existing = await as("b", ["src/**/*.ts"]);
  assert.is(existing.refused[0]?.overlap, `both match ${join(box.project, "src", "api", "b.ts")}`);
  assert.is((await as("b", ["gen/**/*.ts"])).granted.length, 1, "different trees");
  await as("a", ["future/**/*.ts"]);
  const future = await as("b", ["future/x/*.ts"]);
  assert.match(future.refused[0]?.overlap ?? "", /a path created later could/);
  assert.is((await as("b", ["future/**/*.go"])).granted.length, 1, "no path ends in both .ts and .go");
});

Targets("should let different symbols of one file coexist and refuse the same symbol or the whole file", async ({ as }) => {
  await as("a", ["src/a.ts#formatPrice"]);
  assert.is((await as("b", ["src/a.ts#formatDate"])).granted.length, 1);
  assert.is((await as("c", ["src/a.ts#formatPrice"])).refused.length, 1);
  assert.is((await as("c", ["src/a.ts"])).refused.length, 2, "the whole file collides with both symbols");
  assert.is((await as("c", ["src/"])).refused.length, 2);
});

Targets("should let shared claims coexist and refuse an exclusive one", async ({ as }) => {
  await as("a", ["src/a.ts"], { shared: true, purpose: "reading" });
  assert.is((await as("b", ["src/a.ts"], { shared: true })).granted.length, 1);
  const exclusive = await as("c", ["src/a.ts"]);
  assert.is(exclusive.refused.length, 2);
  assert.ok(exclusive.refused.every((refusal) => refusal.shared === true));
  await as("d", ["src/api/"]);
  assert.is((await as("e", ["src/api/b.ts"], { shared: true })).refused.length, 1, "shared conflicts with an exclusive claim above");
});

Targets("should switch the holder's own claim between shared and exclusive, the holding going on: taken_at, purpose and TTL kept", async ({ box, as }) => {
  await as("a", ["src/a.ts"], { shared: true, purpose: "read the api", ttl: "600" });
  const switched = await as("a", ["src/a.ts"], { now: T0 + 60 * SECOND });
  assert.equal(switched.granted.map((claim) => [claim.mode ?? "exclusive", claim.taken_at, claim.heartbeat_at, claim.purpose, claim.ttl]), [["exclusive", iso(T0), iso(T0 + 60 * SECOND), "read the api", 600]]);
  const claims = status({ dir: box.dir, cwd: box.project, env: {}, now: T0 + 60 * SECOND }).claims;
  assert.equal(claims.map((claim) => [claim.holder, claim.mode ?? "exclusive"]), [["a", "exclusive"]]);
  const given = await as("a", ["src/a.ts"], { shared: true, purpose: "only read", now: T0 + 120 * SECOND });
  assert.equal(given.granted.map((claim) => [claim.mode, claim.taken_at, claim.purpose]), [["shared", iso(T0), "only read"]], "a purpose given replaces it");
  assert.equal(release({ dir: box.dir, cwd: box.project, env: {}, holder: "a", targets: ["src/a.ts"], now: T0 }).released, [
    join(box.project, "src", "a.ts"),
  ]);
  assert.equal(entries(box.dir), []);
});

Targets("should leave nothing behind when one of several overlapping targets is refused", async ({ box, as }) => {
  await as("a", ["src/api/"]);
  const before = entries(box.dir);
  const result = await as("b", ["shared-config", "src/a.ts", "src/api/b.ts", "docs/"]);
  assert.is(result.granted.length, 0);
  assert.is(result.refused.length, 1);
  assert.equal(entries(box.dir), before);
});

Targets("should take what is free and report the rest with --partial", async ({ box, as }) => {
  await as("a", ["src/api/"], { purpose: "codegen" });
  const result = await as("b", ["src/a.ts", "src/api/b.ts"], { partial: true });
  assert.equal(result.granted.map((claim) => claim.target), [join(box.project, "src", "a.ts")]);
  assert.equal(result.refused.map((refusal) => [refusal.target, refusal.holder]), [[join(box.project, "src", "api", "b.ts"), "a"]]);
});

Targets("should ignore overlapping claims that went stale", async ({ box, as }) => {
  await as("a", ["src/"]);
  const later = await take({ dir: box.dir, cwd: box.project, env: {}, holder: "b", targets: ["src/a.ts"], now: T0 + 1801 * SECOND });
  assert.is(later.granted.length, 1);
});

Targets("should make check refuse a file covered by another holder's directory, glob or symbol", async ({ box, as }) => {
  assert.is((await as("a", ["src/api/"])).granted.length, 1);
  assert.is((await as("b", ["lib/*.ts"])).granted.length, 1);
  assert.is((await as("c", ["src/a.ts#main"])).granted.length, 1);
  const opts = { dir: box.dir, cwd: box.project, env: {}, now: T0 };
  assert.equal(check({ ...opts, holder: "z", targets: ["src/api/b.ts"] }).refused.map((r) => r.holder), ["a"]);
  assert.equal(check({ ...opts, holder: "z", targets: ["lib/new.ts"] }).refused.map((r) => r.holder), ["b"]);
  assert.equal(check({ ...opts, holder: "z", targets: ["src/a.ts"] }).refused.map((r) => r.holder), ["c"]);
  assert.equal(check({ ...opts, holder: "a", targets: ["src/api/b.ts"] }).refused, []);
});

Targets("should let a holder sharing a target write it beside other sharers", async ({ box, as }) => {
  await as("a", ["src/a.ts"], { shared: true });
  await as("b", ["src/a.ts"], { shared: true });
  const opts = { dir: box.dir, cwd: box.project, env: {}, now: T0 };
  assert.equal(check({ ...opts, holder: "a", targets: ["src/a.ts"] }).refused, []);
  assert.is(check({ ...opts, holder: "z", targets: ["src/a.ts"] }).refused.length, 2);
});

Targets("should show in status every claim covering a named target", async ({ box, as }) => {
  await as("a", ["src/api/"], { purpose: "codegen" });
  await as("b", ["shared-config"], { shared: true });
  await as("c", ["shared-config"], { shared: true });
  const result = status({ dir: box.dir, cwd: box.project, env: {}, targets: ["src/api/b.ts", "shared-config", "lib/x.ts"], now: T0 });
  assert.equal(result.claims.map((claim) => [claim.target, claim.holder]).sort(), [
    [join(box.project, "src", "api") + "/", "a"],
    ["shared-config", "b"],
    ["shared-config", "c"],
  ]);
  assert.equal(result.free, [join(box.project, "lib", "x.ts")]);
});

Targets("should refuse with exit 2 and write nothing when a directory stands where a claim file belongs", async ({ box, as }) => {
  mkdirSync(join(box.dir, "b.json"), { recursive: true });
  try {
    await as("a", ["a", "b"]);
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, /a directory stands where its claim file belongs/);
  }
  assert.equal(entries(box.dir), ["b.json"]);
});

Targets("should count an unreadable claim with a long hashed name as covering what its readable prefix covers", async ({ box, as }) => {
  const deep = `deep/${"x".repeat(150)}/`;
  mkdirSync(join(box.project, deep), { recursive: true });
  await as("a", [deep]);
  const [file] = entries(box.dir);
  writeFileSync(join(box.dir, file as string), '{\n  "target": "/'); // cut short
  const result = await as("b", [`${deep}inner.ts`]);
  assert.is(result.refused.length, 1);
  assert.is(result.refused[0]?.holder, "unknown");
});

Targets.run();
