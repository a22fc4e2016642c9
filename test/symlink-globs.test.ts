// A glob that matches a symlink covers the file the link leads to: `node_modules/.bin/*` and
// `node_modules/typescript/bin/tsc` are one file through `.bin/tsc`, so never two holders.
import { linkSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { beat } from "../src/commands/beat.js";
import { check } from "../src/commands/check.js";
import { release } from "../src/commands/release.js";
import { sweep } from "../src/commands/sweep.js";
import { plain, renderBeat } from "../src/cli/render.js";
import { take } from "../src/commands/take.js";
import { claims, sandbox, type Sandbox } from "./helpers.js";

const Links = suite<{ box: Sandbox; run: (args: string[]) => ReturnType<typeof claims> }>("globs matching symlinks");
Links.before.each((context) => {
  const box = sandbox();
  context.box = box;
  mkdirSync(join(box.project, "node_modules", ".bin"), { recursive: true });
  mkdirSync(join(box.project, "node_modules", "typescript", "bin"), { recursive: true });
  writeFileSync(join(box.project, "node_modules", "typescript", "bin", "tsc"), "#!/usr/bin/env node\n");
  symlinkSync("../typescript/bin/tsc", join(box.project, "node_modules", ".bin", "tsc"));
  context.run = (args) => claims([...args, "--dir", box.dir], { cwd: box.project });
});
Links.after.each((context) => context.box.cleanup());

Links("should refuse the real file to another holder of a glob matching a link to it, in take and check", ({ run }) => {
  assert.is(run(["take", "node_modules/.bin/*", "--holder", "a", "--purpose", "relink"]).code, 0);
  const refused = run(["take", "node_modules/typescript/bin/tsc", "--holder", "b", "--json"]);
  assert.is(refused.code, 3);
  const holding = JSON.parse(refused.stdout).refused[0];
  assert.is(holding.holder, "a");
  assert.match(holding.held_target, /node_modules\/\.bin\/\*$/);
  assert.match(holding.overlap, /through the symlink .*node_modules\/\.bin\/tsc/);
  assert.is(run(["check", "node_modules/typescript/bin/tsc", "--holder", "b"]).code, 3);
  assert.is(run(["check", "node_modules/.bin/tsc", "--holder", "b"]).code, 3, "the link's own spelling too");
  assert.is(run(["check", "node_modules/typescript/bin/tsc", "--holder", "a"]).code, 0, "the glob's holder may write");
});

Links("should report a stale glob lost, not renew it, once another holder took the file a link of it leads to", async ({ box }) => {
  const opts = { dir: box.dir, cwd: box.project };
  const T0 = Date.parse("2026-08-14T21:02:11Z");
  await take({ ...opts, holder: "a", targets: ["node_modules/.bin/*"], ttl: 1, now: T0 });
  const other = await take({ ...opts, holder: "b", targets: ["node_modules/typescript/bin/tsc"], now: T0 + 5000 });
  assert.is(other.granted.length, 1, "the glob went stale: the file is free");
  const beaten = beat({ ...opts, holder: "a", targets: ["node_modules/.bin/*"], now: T0 + 6000 });
  assert.is(beaten.renewed.length, 0);
  assert.is(beaten.lost.length, 1);
  assert.is(beaten.lost_to[0]?.now_held_by?.holder, "b");
});

Links("should name the claim a stale glob lost to as a take of the glob is refused by it: the glob, the real file, the link", async ({ box }) => {
  const opts = { dir: box.dir, cwd: box.project };
  const T0 = Date.parse("2026-08-14T21:02:11Z");
  await take({ ...opts, holder: "a", targets: ["node_modules/.bin/*"], ttl: 1, now: T0 });
  await take({ ...opts, holder: "b", targets: ["node_modules/typescript/bin/tsc"], purpose: "pin tsc", now: T0 + 5000 });
  const refused = await take({ ...opts, holder: "c", targets: ["node_modules/.bin/*"], now: T0 + 6000 });
  const glob = `${box.project}/node_modules/.bin/*`;
  assert.equal(refused.refused[0], {
    target: glob,
    holder: "b",
    purpose: "pin tsc",
    heartbeat_at: "2026-08-14T21:02:16Z",
    heartbeat_age_seconds: 1,
    held_target: `${box.project}/node_modules/typescript/bin/tsc`,
    overlap: `through the symlink ${box.project}/node_modules/.bin/tsc`,
  });
  const beaten = beat({ ...opts, holder: "a", targets: ["node_modules/.bin/*"], now: T0 + 6000 });
  assert.equal(beaten.lost_to, [{ target: glob, now_held_by: refused.refused[0] }]);
  assert.match(renderBeat(beaten, plain).join("\n"), /^LOST .*node_modules\/\.bin\/\*: overlaps the claim on .*node_modules\/typescript\/bin\/tsc, held by b for "pin tsc" \(heartbeat .* ago\); through the symlink .*node_modules\/\.bin\/tsc/);
});

Links("should renew a stale glob whose link was removed, though another holder took the file the link led to", async ({ box }) => {
  const opts = { dir: box.dir, cwd: box.project };
  const T0 = Date.parse("2026-08-14T21:02:11Z");
  await take({ ...opts, holder: "a", targets: ["node_modules/.bin/*"], ttl: 1, now: T0 });
  rmSync(join(box.project, "node_modules", ".bin", "tsc"));
  assert.is((await take({ ...opts, holder: "b", targets: ["node_modules/typescript/bin/tsc"], now: T0 + 1000 })).granted.length, 1, "a removed link leads nowhere");
  const beaten = beat({ ...opts, holder: "a", targets: ["node_modules/.bin/*"], now: T0 + 6000 });
  assert.equal([beaten.renewed, beaten.was_stale, beaten.lost], [[`${box.project}/node_modules/.bin/*`], [`${box.project}/node_modules/.bin/*`], []]);
  const retaken = await take({ ...opts, holder: "a", targets: ["node_modules/.bin/*"], now: T0 + 6000 });
  assert.is(retaken.refused.length, 0, "as a take of the glob would be granted");
});

Links("should fence a lapsed glob once another holder took the file a link of it leads to, and count each other's tokens both ways", async ({ box }) => {
  const opts = { dir: box.dir, cwd: box.project };
  const T0 = Date.parse("2026-08-14T21:02:11Z");
  const real = `${box.project}/node_modules/typescript/bin/tsc`;
  const before = await take({ ...opts, holder: "c", targets: ["node_modules/typescript/bin/tsc"], now: T0 });
  release({ ...opts, holder: "c", now: T0 });
  const glob = await take({ ...opts, holder: "a", targets: ["node_modules/.bin/*"], ttl: 1, now: T0 });
  const token = glob.granted[0]?.token as number;
  assert.ok(token > (before.granted[0]?.token as number), "above the tokens of what its links lead to");
  const file = await take({ ...opts, holder: "b", targets: ["node_modules/typescript/bin/tsc"], now: T0 + 5000 });
  const newer = file.granted[0]?.token as number;
  assert.ok(newer > token, "above the tokens of a glob whose link leads to it");
  release({ ...opts, holder: "b", now: T0 + 5000 });
  const fenced = check({ ...opts, holder: "a", targets: ["node_modules/.bin/*"], token, now: T0 + 6000 }).fenced;
  assert.equal(fenced, [{ target: `${box.project}/node_modules/.bin/*`, token, current_token: newer, newer_token_target: real }]);
  assert.equal(beat({ ...opts, holder: "a", targets: ["node_modules/.bin/*"], token, now: T0 + 6000 }).lost_to[0]?.newer_token_target, real);
  assert.equal(check({ ...opts, holder: "b", targets: ["node_modules/typescript/bin/tsc"], token: newer, now: T0 + 6000 }).fenced.length, 1, "b released it");
});

Links("should refuse a glob matching a link to a file another holder claimed", ({ run }) => {
  assert.is(run(["take", "node_modules/typescript/bin/tsc", "--holder", "b"]).code, 0);
  const refused = run(["take", "node_modules/.bin/*", "--holder", "a"]);
  assert.is(refused.code, 3);
  assert.match(refused.stdout + refused.stderr, /through the symlink/);
});

Links("should answer check and status of a glob matching a link to a file another holder claimed as a take of the glob is answered", ({ box, run }) => {
  assert.is(run(["take", "node_modules/typescript/bin/tsc", "--holder", "b", "--purpose", "pin tsc"]).code, 0);
  // (A script's `claims check 'node_modules/.bin/*' && sed -i … node_modules/.bin/*` writes b's file through the link.)
  const checked = run(["check", "node_modules/.bin/*", "--holder", "a", "--json"]);
  assert.is(checked.code, 3);
  const holding = JSON.parse(checked.stdout).refused[0];
  assert.is(holding.holder, "b");
  assert.match(holding.held_target, /node_modules\/typescript\/bin\/tsc$/);
  assert.match(holding.overlap, /through the symlink .*node_modules\/\.bin\/tsc/);
  // A link to a directory the glob reaches into, and the glob's holder's own check.
  symlinkSync("typescript", join(box.project, "node_modules", "ts"));
  assert.is(run(["check", "node_modules/t[s]/bin/tsc", "--holder", "a"]).code, 3);
  assert.is(run(["check", "node_modules/.bin/*", "--holder", "b"]).code, 0, "b's own file");
  const status = JSON.parse(run(["status", "node_modules/.bin/*", "--json"]).stdout);
  assert.equal(status.free, []);
  assert.equal(status.claims.map((claim: { holder: string }) => claim.holder), ["b"]);
});

Links("should say where the search for a glob's symlinks stopped short: a link past it is neither covered nor checked", ({ box, run }) => {
  const deep = join(box.project, "deep", ...Array.from({ length: 13 }, (_, at) => `d${at}`));
  mkdirSync(deep, { recursive: true });
  symlinkSync(join(box.project, "node_modules", "typescript", "bin", "tsc"), join(deep, "tsc"));
  // (With nothing else claimed there is nothing to miss yet: no note.)
  assert.not.match(run(["check", "deep/**", "--holder", "b"]).stderr, /search for symlinks/);
  assert.is(run(["take", "node_modules/typescript/bin/tsc", "--holder", "b"]).code, 0);
  const taken = run(["take", "deep/**", "--holder", "a", "--json"]);
  assert.is(taken.code, 0);
  const note = /search for symlinks .*deep\/\*\* matches stopped at 12 levels of directories or 20,000 entries/;
  assert.ok(JSON.parse(taken.stdout).warnings.some((warning: string) => note.test(warning)), taken.stdout);
  assert.match(run(["check", "deep/**", "--holder", "c"]).stderr, note);
  assert.not.match(run(["check", "node_modules/.bin/**", "--holder", "c"]).stderr, note, "a walk that saw everything says nothing");
});

Links("should refuse another name of the file a glob's symlink leads to (a hard link), and a tree holding one, in either order", ({ box, run }) => {
  // links/sl -> ../other/hl.ts; other/hl.ts and real/a.ts are one file. links/pkg -> ../store/pkg, whose lib/i.js is p2/i.js too (a package store's layout).
  for (const dir of ["real", "other", "links", "store/pkg/lib", "p2"]) mkdirSync(join(box.project, dir), { recursive: true });
  writeFileSync(join(box.project, "real", "a.ts"), "export function f() {}\n");
  linkSync(join(box.project, "real", "a.ts"), join(box.project, "other", "hl.ts"));
  symlinkSync("../other/hl.ts", join(box.project, "links", "sl"));
  writeFileSync(join(box.project, "store", "pkg", "lib", "i.js"), "module.exports = 1;\n");
  linkSync(join(box.project, "store", "pkg", "lib", "i.js"), join(box.project, "p2", "i.js"));
  symlinkSync("../store/pkg", join(box.project, "links", "pkg"));
  assert.is(run(["take", "links/*", "--holder", "a"]).code, 0);
  for (const target of ["real/a.ts", "real/a.ts#f", "real/", "real/*.ts", "p2/", "p2/i.js"]) {
    const refused = run(["take", target, "--holder", "b", "--json"]);
    assert.is(refused.code, 3, `${target}: ${refused.stdout}${refused.stderr}`);
    assert.match(JSON.parse(refused.stdout).refused[0].overlap, /hard link/);
  }
  assert.is(run(["check", "real/a.ts", "--holder", "b"]).code, 3);
  assert.is(run(["check", "real/a.ts", "--holder", "a"]).code, 0, "the glob's holder may write");
  // The other order: the file first, then the glob.
  assert.is(run(["release", "--holder", "a"]).code, 0);
  assert.is(run(["take", "real/a.ts", "--holder", "b"]).code, 0);
  assert.is(run(["take", "links/*", "--holder", "a"]).code, 3);
});

Links("should free the real file once the glob is released", ({ run }) => {
  assert.is(run(["take", "node_modules/.bin/*", "--holder", "a"]).code, 0);
  assert.is(run(["release", "--holder", "a"]).code, 0);
  assert.is(run(["take", "node_modules/typescript/bin/tsc", "--holder", "b"]).code, 0);
});

Links("should stop covering a file once the link to it is gone, keep the marker for fencing while the glob is held, and let sweep clear it once no claim is left", ({ box, run }) => {
  assert.is(run(["take", "node_modules/.bin/*", "--holder", "a"]).code, 0);
  rmSync(join(box.project, "node_modules", ".bin", "tsc"));
  assert.is(run(["check", "node_modules/typescript/bin/tsc", "--holder", "b"]).code, 0, "a removed link leads nowhere");
  assert.equal(readdirSync(join(box.dir, ".aliases")).length, 1);
  const kept = JSON.parse(run(["sweep", "--json"]).stdout);
  assert.equal(kept.debris, [], "a held glob's marker whose link is gone stays: the glob's token still stands for the file (PROTOCOL 4a)");
  assert.is(run(["release", "--holder", "a"]).code, 0);
  assert.equal(JSON.parse(run(["sweep", "--json"]).stdout).debris.length, 1, "no claim is left that it could fence");
  assert.equal(readdirSync(join(box.dir, ".aliases")), []);
  symlinkSync("../typescript/bin/tsc", join(box.project, "node_modules", ".bin", "tsc"));
  assert.is(run(["take", "node_modules/.bin/*", "--holder", "a"]).code, 0, "a take looks again");
  assert.is(run(["check", "node_modules/typescript/bin/tsc", "--holder", "b"]).code, 3);
  assert.equal(JSON.parse(run(["sweep", "--json"]).stdout).debris, [], "a held glob's marker stays");
  assert.is(run(["release", "--holder", "a"]).code, 0);
  assert.equal(JSON.parse(run(["sweep", "--json"]).stdout).debris.length, 1, "a released glob's marker goes");
  assert.equal(readdirSync(join(box.dir, ".aliases")), []);
});

Links("should claim a glob whose tree holds a link back to a directory above it, covering through it only what the glob matches", ({ box, run }) => {
  mkdirSync(join(box.project, "src", "sub"), { recursive: true });
  writeFileSync(join(box.project, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(join(box.project, "src", "sub", "b.ts"), "export const b = 1;\n");
  symlinkSync(".", join(box.project, "src", "loop"));
  symlinkSync("..", join(box.project, "src", "sub", "up"));
  assert.is(run(["take", "src/**/*.ts", "--holder", "a"]).code, 0);
  // Through src/loop or src/sub/up the glob matches src/**/*.ts again: the files it matches itself.
  // Each was taken for a link to all of src/, and the glob refused every write there to others.
  assert.is(run(["check", "src/notes.md", "src/sub/notes.md", "--holder", "b"]).code, 0);
  assert.is(run(["take", "src/notes.md", "--holder", "b"]).code, 0);
  assert.is(run(["check", "src/a.ts", "--holder", "b"]).code, 3);
  assert.is(run(["check", "src/loop/loop/sub/b.ts", "--holder", "b"]).code, 3, "a file the glob matches, spelt through the loop");
  assert.is(run(["check", "src/new.ts", "--holder", "b"]).code, 3);
});

Links("should still cover what a glob reaches through a link only by that link", ({ box, run }) => {
  mkdirSync(join(box.project, "src"), { recursive: true });
  mkdirSync(join(box.project, "lib"), { recursive: true });
  writeFileSync(join(box.project, "lib", "x.ts"), "export const x = 1;\n");
  symlinkSync("../lib", join(box.project, "src", "lib"));
  symlinkSync(".", join(box.project, "src", "loop"));
  assert.is(run(["take", "src/*/x.ts", "--holder", "a"]).code, 0);
  assert.is(run(["check", "lib/x.ts", "--holder", "b"]).code, 3, "src/lib/x.ts is lib/x.ts");
  // src/loop/x.ts is src/x.ts, which src/*/x.ts does not match itself: the link to src/ still covers it.
  assert.is(run(["check", "src/x.ts", "--holder", "b"]).code, 3);
});

Links("should claim a glob whose tree holds links that lead nowhere but to each other, and judge a link become one as leading nowhere", ({ box, run }) => {
  mkdirSync(join(box.project, "src"), { recursive: true });
  mkdirSync(join(box.project, "lib"), { recursive: true });
  writeFileSync(join(box.project, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(join(box.project, "lib", "x.ts"), "export const x = 1;\n");
  symlinkSync("loop2", join(box.project, "src", "loop1"));
  symlinkSync("loop1", join(box.project, "src", "loop2"));
  symlinkSync("self.ts", join(box.project, "src", "self.ts"));
  symlinkSync("../lib", join(box.project, "src", "lib"));
  // Each take of a glob over src/ failed: "Path …/src/loop1 runs into a symlink loop" (exit 2).
  const taken = run(["take", "src/**", "--holder", "a"]);
  assert.is(taken.code, 0, taken.stderr);
  assert.is(run(["check", "src/a.ts", "--holder", "b"]).code, 3);
  assert.is(run(["check", "lib/x.ts", "--holder", "b"]).code, 3, "through src/lib");
  // The link the glob covered lib/ through now leads nowhere: it covers nothing, and asks fail no more.
  rmSync(join(box.project, "src", "lib"));
  symlinkSync("lib", join(box.project, "src", "lib"));
  const checked = run(["check", "lib/x.ts", "--holder", "b"]);
  assert.is(checked.code, 0, checked.stderr);
  assert.is(run(["take", "lib/", "--holder", "b"]).code, 0);
});

Links.run();

// Fencing through a glob's symlinks (docs/PROTOCOL.md 4a, 5a): a take of a glob that matched a link
// to a file was a holding of that file, whatever happens to the link or the glob afterwards, so the
// file's tokens and the glob's count against each other, on both sides alike, up to where the
// glob's coverage of the file ended; and a glob never covers a file under a token below the file's.
const Fenced = suite<{ box: Sandbox; opts: { dir: string; cwd: string; env: NodeJS.ProcessEnv }; real: string; glob: string }>("fencing through a glob's symlinks");
Fenced.before.each((context) => {
  const box = sandbox();
  context.box = box;
  context.opts = { dir: box.dir, cwd: box.project, env: {} };
  mkdirSync(join(box.project, "node_modules", ".bin"), { recursive: true });
  mkdirSync(join(box.project, "node_modules", "typescript", "bin"), { recursive: true });
  writeFileSync(join(box.project, "node_modules", "typescript", "bin", "tsc"), "#!/usr/bin/env node\n");
  symlinkSync("../typescript/bin/tsc", join(box.project, "node_modules", ".bin", "tsc"));
  context.real = `${box.project}/node_modules/typescript/bin/tsc`;
  context.glob = `${box.project}/node_modules/.bin/*`;
});
Fenced.after.each((context) => context.box.cleanup());

const T = Date.parse("2026-08-14T21:02:11Z");
const FILE = "node_modules/typescript/bin/tsc";
const GLOB = "node_modules/.bin/*";

Fenced("should let the glob's holder check the file its link leads to with the glob's token, and not once the link is gone", async ({ box, opts, real }) => {
  const token = (await take({ ...opts, holder: "a", targets: [GLOB], now: T })).granted[0]?.token as number;
  assert.equal(check({ ...opts, holder: "a", targets: [FILE], token, now: T + 1000 }).fenced, [], "the glob covers the file through its link");
  assert.equal(check({ ...opts, targets: [FILE], token, now: T + 1000 }).fenced, [], "for a downstream writer too");
  assert.is(check({ ...opts, holder: "a", targets: [FILE], token: token + 1, now: T + 1000 }).fenced.length, 1, "not another token");
  assert.is(check({ ...opts, holder: "z", targets: [FILE], token, now: T + 1000 }).fenced.length, 1, "not another holder");
  rmSync(join(box.project, "node_modules", ".bin", "tsc"));
  assert.equal(check({ ...opts, holder: "a", targets: [FILE], token, now: T + 1000 }).fenced, [{ target: real, token }], "a removed link covers nothing");
});

Fenced("should fence the file's lapsed holder once a glob reached the file through a link, even after the link was removed", async ({ box, opts, real, glob }) => {
  const held = await take({ ...opts, holder: "b", targets: [FILE], ttl: 1, now: T });
  const old = held.granted[0]?.token as number;
  // b pauses past its TTL; a takes the glob, whose link leads to the file, and writes it through the link.
  const globbed = await take({ ...opts, holder: "a", targets: [GLOB], now: T + 5000 });
  const newer = globbed.granted[0]?.token as number;
  assert.ok(newer > old);
  rmSync(join(box.project, "node_modules", ".bin", "tsc"));
  assert.is(check({ ...opts, holder: "c", targets: [FILE], now: T + 6000 }).refused.length, 0, "a removed link covers nothing: the file is free to take");
  assert.equal(check({ ...opts, holder: "b", targets: [FILE], token: old, now: T + 6000 }).fenced, [{ target: real, token: old, current_token: newer, newer_token_target: glob }]);
  const cli = claims(["check", FILE, "--token", String(old), "--holder", "b", "--dir", box.dir], { cwd: box.project });
  assert.is(cli.code, 4, cli.stdout + cli.stderr);
  const beaten = beat({ ...opts, holder: "b", targets: [FILE], token: old, now: T + 6000 });
  assert.equal([beaten.renewed, beaten.lost_to], [[], [{ target: real, newer_token: newer, newer_token_target: glob }]]);
  assert.equal(release({ ...opts, holder: "b", targets: [FILE], token: old, now: T + 6000 }).released, [], "nor released with it");
  // A take of the file counts the glob as it is checked against it: its token is above the glob's.
  const next = await take({ ...opts, holder: "c", targets: [FILE], now: T + 6000 });
  assert.ok((next.granted[0]?.token as number) > newer, "above the token of a glob whose link led to it");
  assert.equal(check({ ...opts, holder: "c", targets: [FILE], token: next.granted[0]?.token as number, now: T + 6000 }).fenced, [], "so it is not fenced by that glob");
});

Fenced("should fence the file's lapsed holder through a re-pointed link as through a removed one", async ({ box, opts, real, glob }) => {
  writeFileSync(join(box.project, "node_modules", "typescript", "bin", "tsserver"), "");
  const old = (await take({ ...opts, holder: "b", targets: [FILE], ttl: 1, now: T })).granted[0]?.token as number;
  const newer = (await take({ ...opts, holder: "a", targets: [GLOB], now: T + 5000 })).granted[0]?.token as number;
  rmSync(join(box.project, "node_modules", ".bin", "tsc"));
  symlinkSync("../typescript/bin/tsserver", join(box.project, "node_modules", ".bin", "tsc"));
  assert.equal(check({ ...opts, holder: "b", targets: [FILE], token: old, now: T + 6000 }).fenced, [{ target: real, token: old, current_token: newer, newer_token_target: glob }]);
});

Fenced("should fence the file's lapsed holder through a link of a shared glob: the shared glob's token is above the file's", async ({ opts, real, glob }) => {
  for (const holder of ["c", "d"]) {
    await take({ ...opts, holder, targets: [FILE], now: T });
    release({ ...opts, holder, now: T });
  }
  const old = (await take({ ...opts, holder: "b", targets: [FILE], ttl: 1, now: T })).granted[0]?.token as number;
  assert.is(old, 3);
  const shared = await take({ ...opts, holder: "a", targets: [GLOB], shared: true, now: T + 5000 });
  const newer = shared.granted[0]?.token as number;
  assert.ok(newer > old, `the shared glob's token ${newer} is above the file's ${old}`);
  assert.equal(check({ ...opts, holder: "b", targets: [FILE], token: old, now: T + 6000 }).fenced, [{ target: real, token: old, current_token: newer, newer_token_target: glob }]);
});

Fenced("should keep fencing through a released glob's link after sweep while a claim on the file is left, and sweep the marker after", async ({ box, opts, real, glob }) => {
  const old = (await take({ ...opts, holder: "b", targets: [FILE], ttl: 1, now: T })).granted[0]?.token as number;
  const newer = (await take({ ...opts, holder: "a", targets: [GLOB], now: T + 5000 })).granted[0]?.token as number;
  release({ ...opts, holder: "a", now: T + 5000 });
  assert.equal(check({ ...opts, holder: "b", targets: [FILE], token: old, now: T + 5000 }).fenced, [{ target: real, token: old, current_token: newer, newer_token_target: glob }], "the released glob's marker fences b");
  // b's beat without a token renews its lapsed claim (nobody is in its way now), under a new token
  // above the glob's (section 4a); its old token must still be fenced.
  const beaten = beat({ ...opts, holder: "b", targets: [FILE], now: T + 6000 });
  assert.equal(beaten.was_stale, [real]);
  const renewed = beaten.new_tokens[0]?.token as number;
  assert.ok(renewed > newer, `b's new token ${renewed} is above the glob's ${newer}`);
  assert.equal(sweep({ ...opts, now: T + 6000 }).debris, [], "the marker can still fence b");
  assert.equal(check({ ...opts, holder: "b", targets: [FILE], token: old, now: T + 6000 }).fenced, [{ target: real, token: old, current_token: renewed }]);
  assert.equal(check({ ...opts, holder: "b", targets: [FILE], token: renewed, now: T + 6000 }).fenced, []);
  release({ ...opts, holder: "b", now: T + 6000 });
  assert.equal(sweep({ ...opts, now: T + 6000 }).debris.filter((file) => file.startsWith(".aliases/")).length, 1, "no claim is left that it could fence");
  assert.equal(readdirSync(join(box.dir, ".aliases")), []);
});

Fenced("should keep a lapsed glob fenced by a take of the file through its link once removed and swept, should the link come back", async ({ box, opts, glob, real }) => {
  const token = (await take({ ...opts, holder: "a", targets: [GLOB], ttl: 1, now: T })).granted[0]?.token as number;
  const other = await take({ ...opts, holder: "b", targets: [FILE], now: T + 5000 });
  const newer = other.granted[0]?.token as number;
  assert.ok(newer > token);
  release({ ...opts, holder: "b", now: T + 5000 });
  const link = join(box.project, "node_modules", ".bin", "tsc");
  rmSync(link);
  assert.equal(check({ ...opts, holder: "a", targets: [GLOB], token, now: T + 5000 }).fenced, [{ target: glob, token, current_token: newer, newer_token_target: real }], "the link is gone, its marker still counts");
  const beaten = beat({ ...opts, holder: "a", targets: [GLOB], now: T + 5000 });
  assert.equal(beaten.was_stale, [glob], "without a token: nobody is in its way");
  const renewed = beaten.new_tokens[0]?.token as number;
  assert.ok(renewed > newer, "renewed under a token above the one issued on the file meanwhile (section 4a)");
  sweep({ ...opts, now: T + 6000 });
  symlinkSync("../typescript/bin/tsc", link); // npm relinks .bin: the glob writes the file again
  assert.equal(check({ ...opts, holder: "a", targets: [GLOB], token, now: T + 6000 }).fenced, [{ target: glob, token, current_token: renewed }]);
  assert.equal(beat({ ...opts, holder: "a", targets: [GLOB], token, now: T + 6000 }).lost_to, [{ target: glob, newer_token: renewed }]);
  assert.equal(check({ ...opts, holder: "a", targets: [GLOB], token: renewed, now: T + 6000 }).fenced, [], "the new token is good");
  // Its old token through the link is fenced for the file as well: b's newer token stands between.
  assert.is(check({ ...opts, holder: "a", targets: [FILE], token, now: T + 6000 }).fenced.length, 1);
});

Fenced("should fence neither a glob holder that never lapsed nor the file's holder when the file was taken after the glob's link was removed", async ({ box, opts, glob }) => {
  const token = (await take({ ...opts, holder: "a", targets: [GLOB], now: T })).granted[0]?.token as number;
  const link = join(box.project, "node_modules", ".bin", "tsc");
  rmSync(link);
  const other = await take({ ...opts, holder: "b", targets: [FILE], now: T + 1000 });
  assert.equal(other.refused, [], "a removed link covers nothing");
  const newer = other.granted[0]?.token as number;
  assert.ok(newer > token, "the take of the file counts the glob's tokens");
  assert.equal(check({ ...opts, holder: "b", targets: [FILE], token: newer, now: T + 1000 }).fenced, []);
  assert.equal(check({ ...opts, holder: "a", targets: [GLOB], token, now: T + 1000 }).fenced, [], "the glob's coverage of the file ended before that take");
  assert.equal(beat({ ...opts, holder: "a", targets: [GLOB], token, now: T + 1000 }).renewed, [glob]);
  symlinkSync("../typescript/bin/tsc", link);
  assert.equal(check({ ...opts, holder: "c", targets: [FILE], now: T + 1000 }).refused.map((holding) => holding.holder), ["b"], "the link back does not make the glob cover the file again");
  // A later holding of the glob that does not reach the file does not fence the file's holder either.
  release({ ...opts, holder: "a", now: T + 1000 });
  rmSync(link);
  const later = (await take({ ...opts, holder: "c", targets: [GLOB], now: T + 1000 })).granted[0]?.token as number;
  assert.equal(check({ ...opts, holder: "b", targets: [FILE], token: newer, now: T + 1000 }).fenced, []);
  assert.equal(check({ ...opts, holder: "c", targets: [GLOB], token: later, now: T + 1000 }).fenced, []);
});

Fenced("should not let a re-take cover, under the token it keeps, the file a re-pointed link now leads to where a newer token was issued", async ({ box, opts }) => {
  const other = `${box.project}/node_modules/typescript/bin/tsserver`;
  writeFileSync(other, "");
  const token = (await take({ ...opts, holder: "a", targets: [GLOB], now: T })).granted[0]?.token as number;
  for (const holder of ["c", "d"]) {
    await take({ ...opts, holder, targets: [other], now: T });
    release({ ...opts, holder, now: T });
  }
  const old = (await take({ ...opts, holder: "b", targets: [other], ttl: 1, now: T })).granted[0]?.token as number;
  assert.ok(old > token);
  const link = join(box.project, "node_modules", ".bin", "tsc");
  rmSync(link);
  symlinkSync("../typescript/bin/tsserver", link);
  // b lapses; a takes its glob again, which looks again: the link leads to b's file now.
  const retaken = await take({ ...opts, holder: "a", targets: [GLOB], now: T + 5000 });
  assert.equal([retaken.refused, retaken.granted[0]?.token], [[], token], "a re-take keeps its token");
  // Covering the file under that token would let b's stale write, checked against it, land after a's.
  assert.equal(check({ ...opts, holder: "c", targets: [other], now: T + 5000 }).refused, [], "the glob does not cover the file");
  assert.is(check({ ...opts, holder: "c", targets: [FILE], now: T + 5000 }).refused.length, 0, "nor the one the link left");
  // a's writes through the link are writes of that file, which a claims for itself (as its hook would), fencing b.
  assert.ok(((await take({ ...opts, holder: "a", targets: [other], now: T + 5000 })).granted[0]?.token as number) > old);
  assert.is(check({ ...opts, holder: "b", targets: [other], token: old, now: T + 5000 }).fenced.length, 1);
  release({ ...opts, holder: "a", now: T + 5000 });
  const fresh = await take({ ...opts, holder: "a", targets: [GLOB], now: T + 5000 });
  assert.ok((fresh.granted[0]?.token as number) > old, "a new holding of the glob gets a token above the file's");
  assert.equal(check({ ...opts, holder: "c", targets: [other], now: T + 5000 }).refused.map((holding) => holding.holder), ["a"], "and covers it");
});

Fenced("should not let a link that comes back make the glob cover again, under its token, a file taken while it was gone", async ({ box, opts, glob }) => {
  const token = (await take({ ...opts, holder: "a", targets: [GLOB], now: T })).granted[0]?.token as number;
  const link = join(box.project, "node_modules", ".bin", "tsc");
  rmSync(link);
  const newer = (await take({ ...opts, holder: "b", targets: [FILE], ttl: 1, now: T })).granted[0]?.token as number;
  assert.ok(newer > token);
  symlinkSync("../typescript/bin/tsc", link); // npm relinks .bin/
  // b lapses. Were the glob to cover the file again, a would hold it under a token below b's, and b's stale write would pass.
  assert.equal(check({ ...opts, holder: "c", targets: [FILE], now: T + 5000 }).refused, [], "the glob does not cover the file again");
  assert.equal(beat({ ...opts, holder: "a", targets: [GLOB], now: T + 5000 }).renewed, [glob]);
  const retaken = await take({ ...opts, holder: "a", targets: [GLOB], now: T + 5000 });
  assert.equal(retaken.granted[0]?.token, token);
  assert.equal(check({ ...opts, holder: "c", targets: [FILE], now: T + 5000 }).refused, [], "nor does a re-take under that token");
});

Fenced.run();
