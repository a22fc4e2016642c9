import { linkSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { beat } from "../src/commands/beat.js";
import { check } from "../src/commands/check.js";
import { handover } from "../src/commands/handover.js";
import { release } from "../src/commands/release.js";
import { status } from "../src/commands/status.js";
import { take } from "../src/commands/take.js";
import { ClaimsError } from "../src/os/errors.js";
import { claimFileName, holderTag } from "../src/targets/target.js";
import { claims, freshLibraryContext, readJson, SECOND, T0, type LibraryContext } from "./helpers.js";

const Tokens = suite<LibraryContext>("fencing tokens");
Tokens.before.each(freshLibraryContext);
Tokens.after.each((context) => context.box.cleanup());

Tokens("should increase strictly per target across holders, releases, takeovers, grants and transfers", async ({ opts }) => {
  const tokens: number[] = [];
  const took = async (holder: string, now: number, extra: object = {}) => {
    const result = await take({ ...opts, holder, targets: ["x"], now, ...extra });
    if (result.granted[0]) tokens.push(result.granted[0].token as number);
    return result;
  };
  await took("a", T0);
  const retaken = await take({ ...opts, holder: "a", targets: ["x"], now: T0 + SECOND });
  assert.is(retaken.granted[0]?.token, tokens[0], "a re-take is the same holding: same token");
  release({ ...opts, holder: "a", now: T0 + SECOND });
  await took("b", T0 + 2 * SECOND);
  await took("c", T0 + 3600 * SECOND); // stale takeover
  await take({ ...opts, holder: "d", targets: ["x"], queue: true, ttl: 7200, now: T0 + 3600 * SECOND });
  release({ ...opts, holder: "c", now: T0 + 3601 * SECOND }); // granted to d
  const granted = await take({ ...opts, holder: "d", targets: ["x"], now: T0 + 3602 * SECOND });
  tokens.push(granted.granted[0]?.token as number);
  await handover({ ...opts, holder: "d", target: "x", to: "e", now: T0 + 3603 * SECOND });
  const transferred = await take({ ...opts, holder: "e", targets: ["x"], now: T0 + 3604 * SECOND });
  tokens.push(transferred.granted[0]?.token as number);
  assert.equal(tokens, [1, 2, 3, 4, 5]);
  const other = await take({ ...opts, holder: "a", targets: ["y"], now: T0 });
  assert.is(other.granted[0]?.token, 1, "per target");
});

Tokens("should fence off a paused holder's beat, release and handover with exit 4", async ({ opts }) => {
  const first = await take({ ...opts, holder: "a", targets: ["x"], now: T0 });
  const old = first.granted[0]?.token as number;
  // a pauses past its TTL, loses x, and takes it again in another process: a later holding.
  await take({ ...opts, holder: "b", targets: ["x"], now: T0 + 1801 * SECOND });
  release({ ...opts, holder: "b", now: T0 + 1802 * SECOND });
  await take({ ...opts, holder: "a", targets: ["x"], now: T0 + 1803 * SECOND });
  const stale = beat({ ...opts, holder: "a", targets: ["x"], token: old, now: T0 + 1804 * SECOND });
  assert.equal(stale.lost, ["x"]);
  assert.is(stale.lost_to[0]?.newer_token, old + 2);
  assert.equal(release({ ...opts, holder: "a", targets: ["x"], token: old, now: T0 + 1804 * SECOND }).lost, ["x"]);
  try {
    await handover({ ...opts, holder: "a", target: "x", to: "z", token: old, now: T0 + 1804 * SECOND });
    assert.unreachable();
  } catch (error) {
    assert.is((error as ClaimsError).exitCode, 4);
  }
  assert.equal(beat({ ...opts, holder: "a", targets: ["x"], token: old + 2, now: T0 + 1805 * SECOND }).renewed, ["x"]);
});

Tokens("should let check --token reject a writer whose holding is over", async ({ box, opts }) => {
  const first = await take({ ...opts, holder: "a", targets: ["x"], now: T0 });
  const token = first.granted[0]?.token as number;
  assert.equal(check({ ...opts, holder: "a", targets: ["x"], token, now: T0 }).fenced, []);
  release({ ...opts, holder: "a", now: T0 });
  assert.equal(check({ ...opts, targets: ["x"], token, now: T0 }).fenced, [{ target: "x", token }]);
  await take({ ...opts, holder: "b", targets: ["x"], now: T0 });
  const cli = claims(["check", "x", "--token", String(token), "--dir", box.dir, "--holder", "a"]);
  assert.is(cli.code, 4);
  assert.match(cli.stdout, /FENCED x: token 1 is not current \(the claim now carries token 2\)/);
  assert.is(claims(["check", "x", "--token", "abc", "--dir", box.dir]).code, 2);
  // A token on a target nobody ever claimed: no claim carries it, and never did.
  const never = claims(["check", "y", "--token", "1", "--dir", box.dir, "--holder", "a"]);
  assert.is(never.code, 4);
  assert.match(never.stdout, /^FENCED y: token 1 is not current \(no claim covering it carries it\); reject this writer$/m);
});

Tokens("should say whose claim carries a token checked by another holder, not that the claim carries it now", async ({ box, opts }) => {
  const first = await take({ ...opts, holder: "a", targets: ["x"], now: T0 });
  const token = first.granted[0]?.token as number;
  assert.equal(check({ ...opts, holder: "z", targets: ["x"], token, now: T0 }).fenced, [{ target: "x", token, carried_by: "a" }]);
  const cli = claims(["check", "x", "--token", String(token), "--dir", box.dir, "--holder", "z"]);
  assert.is(cli.code, 4);
  assert.match(cli.stdout, /^FENCED x: token 1 is not this holder's \(the claim carrying it is held by a\); reject this writer$/m);
});

Tokens("should leave a claim alone to a release with a token it never carried, and say so once", async ({ box, opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], now: T0 });
  const cli = claims(["release", "x", "--token", "99", "--dir", box.dir, "--holder", "a"]);
  assert.is(cli.code, 4);
  assert.match(cli.stdout, /^NOT YOURS x: the claim carries token 1, not the one given: that token was never this holding's; left untouched$/m);
  assert.is(readJson(join(box.dir, "x.json")).holder, "a");
});

Tokens("should make the claim its own token counter, one per holder, and keep counting from an older writer's counter", async ({ box, opts }) => {
  const first = await take({ ...opts, holder: "a", targets: ["x"], now: T0 });
  const counter = join(box.dir, `.token-x+${holderTag("a")}`);
  assert.is(readFileSync(counter, "utf8"), readFileSync(join(box.dir, "x.json"), "utf8"), "the counter is the claim as it was written");
  assert.is(statSync(join(box.dir, "x.json")).ino, statSync(counter).ino, "one file, two names");
  release({ ...opts, holder: "a", now: T0 });
  assert.is(JSON.parse(readFileSync(counter, "utf8")).token, first.granted[0]?.token, "the counter outlives the release");
  // An older writer's counters: the number alone, and `<last> <holder tag> <highest issued to another>`.
  writeFileSync(join(box.dir, ".token-y"), "7\n");
  assert.is((await take({ ...opts, holder: "a", targets: ["y"], now: T0 })).granted[0]?.token, 8);
  writeFileSync(join(box.dir, ".token-z"), `9 ${holderTag("a")} 4\n`);
  assert.is((await take({ ...opts, holder: "b", targets: ["z"], now: T0 })).granted[0]?.token, 10);
  release({ ...opts, holder: "b", now: T0 });
  assert.equal(check({ ...opts, holder: "a", targets: ["z"], token: 9, now: T0 }).fenced, [{ target: "z", token: 9 }], "b was issued 10 since");
  writeFileSync(join(box.dir, ".token-w"), `9 ${holderTag("a")} 4\n`);
  assert.is(beat({ ...opts, holder: "a", targets: ["w"], token: 5, now: T0 }).lost_to[0]?.newer_token, undefined, "nobody else got a token above 5 on w");
});

Tokens("should never issue a token twice when a counter cannot be read: the next one jumps above any count", async ({ box, opts }) => {
  const first = (await take({ ...opts, holder: "a", targets: ["t1"], now: T0 })).granted[0]?.token as number;
  release({ ...opts, holder: "a", now: T0 });
  const counter = join(box.dir, `.token-t1+${holderTag("a")}`);
  for (const damage of ["{torn", "x 1 2\n", ""]) {
    writeFileSync(counter, damage);
    const next = (await take({ ...opts, holder: "b", targets: ["t1"], now: T0 + SECOND })).granted[0]?.token as number;
    assert.ok(next > first, `${JSON.stringify(damage)}: token ${next} after ${first}`);
    assert.ok(next > 1_000_000_000_000, "above a time in milliseconds, above any count a sequence reached");
    const later = check({ ...opts, holder: "b", targets: ["t1"], token: next, now: T0 + 100 * SECOND });
    assert.equal(later.fenced, [], "b's token stays current: the damaged counter's count does not grow");
    release({ ...opts, holder: "b", now: T0 + SECOND });
    assert.equal(check({ ...opts, holder: "a", targets: ["t1"], token: first, now: T0 + SECOND }).fenced, [{ target: "t1", token: first }], "a's old token is fenced");
  }
});

Tokens("should judge its own claim without a ttl by the default TTL, however long the holder's beat or handover sets it", async ({ box, opts }) => {
  mkdirSync(join(box.project, "D"));
  writeFileSync(join(box.project, "D", "a.js"), "");
  const taken = await take({ ...opts, holder: "A", targets: ["D/"], now: T0 });
  assert.is(readJson(join(opts.dir, claimFileName(taken.granted[0]?.target as string))).ttl, undefined, "a claim with the default TTL carries none");
  // Every reader with the default TTL finds D/ stale after 30 minutes: B takes a file inside it.
  assert.is((await take({ ...opts, holder: "B", targets: ["D/a.js"], now: T0 + 1801 * SECOND })).granted.length, 1);
  const longer = { ...opts, env: { CLAIMS_TTL: "3600" } };
  assert.is(status({ ...longer, holder: "A", mine: true, now: T0 + 1802 * SECOND }).claims[0]?.stale, true, "status says so as beat will");
  try {
    await handover({ ...longer, holder: "A", target: "D/", to: "H", now: T0 + 1802 * SECOND });
    assert.unreachable("handed on a lapsed claim over B's file");
  } catch (error) {
    assert.match((error as Error).message, /your claim lapsed/);
  }
  const beaten = beat({ ...longer, holder: "A", now: T0 + 1802 * SECOND });
  assert.equal(beaten.renewed, [], "not renewed as fresh over B's file");
  assert.is(beaten.lost.length, 1);
});

Tokens("should answer LOST to a beat, release or handover with a token the claim never carried", async ({ box, opts }) => {
  const taken = await take({ ...opts, holder: "a", targets: ["x"], now: T0 });
  const token = taken.granted[0]?.token as number;
  const beaten = beat({ ...opts, holder: "a", targets: ["x"], token: token + 996, now: T0 });
  assert.equal([beaten.renewed, beaten.lost_to[0]?.current_token], [[], token]);
  assert.equal(release({ ...opts, holder: "a", targets: ["x"], token: token + 996, now: T0 }).lost, ["x"]);
  try {
    await handover({ ...opts, holder: "a", target: "x", to: "z", token: token + 996, now: T0 });
    assert.unreachable();
  } catch (error) {
    assert.is((error as ClaimsError).exitCode, 4);
  }
  const cli = claims(["release", "x", "--token", String(token + 996), "--dir", box.dir, "--holder", "a"]);
  assert.is(cli.code, 4);
  assert.match(cli.stdout + cli.stderr, /carries token \d+, not the one given/);
  assert.equal(release({ ...opts, holder: "a", targets: ["x"], token, now: T0 }).released, ["x"], "its own token still works");
});

Tokens("should keep reporting a claim LOST to its holder after a beat or release with a wrong token, and log no loss for a token never carried", async ({ box, opts }) => {
  for (const verb of ["beat", "release"] as const) {
    const start = T0 + (verb === "beat" ? 0 : 10_000 * SECOND);
    const token = (await take({ ...opts, holder: "a", targets: ["x"], now: start })).granted[0]?.token as number;
    const wrong = { ...opts, holder: "a", targets: ["x"], token: token + 996, now: start + SECOND };
    const logged = () => readFileSync(join(box.dir, "log.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const before = logged().length;
    assert.equal((verb === "beat" ? beat(wrong) : release(wrong)).lost, ["x"], `${verb} with a wrong token is fenced`);
    const events = logged().slice(before);
    assert.is(events.filter((event) => event.event === "lost").length, 0, `a token never carried lost nothing: ${JSON.stringify(events)}`);
    // The claim lapses and b takes it over: a's beat without targets says so (exit 4), not "holds no claims".
    await take({ ...opts, holder: "b", targets: ["x"], now: start + 1801 * SECOND });
    const after = beat({ ...opts, holder: "a", now: start + 1802 * SECOND });
    assert.equal([after.lost, after.lost_to[0]?.now_held_by?.holder], [["x"], "b"], `after ${verb} with a wrong token`);
    release({ ...opts, holder: "b", now: start + 1803 * SECOND });
  }
});

Tokens("should issue tokens above those issued in the other claims directories a take looks in: across XDG_STATE_HOME both ways, a stale takeover, a pinned directory", async ({ box }) => {
  // Two sessions of one user, one with XDG_STATE_HOME and one without, claim in two default
  // directories (docs/PROTOCOL.md 1): each counter alone would issue 1, 1, 2, 2…, and a holder
  // paused past its TTL would carry a token above its successor's.
  const home = join(box.root, "home");
  mkdirSync(home);
  const env = { HOME: home };
  const moved = { HOME: home, XDG_STATE_HOME: join(box.root, "state") };
  const file = join(box.project, "x.ts");
  writeFileSync(file, "");
  const tokens: number[][] = [];
  const took = async (holder: string, environment: Record<string, string>, now: number, targets = [file, "shared-config"]) => {
    const result = await take({ cwd: box.project, env: environment, holder, targets, now });
    assert.is(result.refused.length, 0, JSON.stringify(result.refused));
    tokens.push(result.granted.map((claim) => claim.token as number));
  };
  await took("m", moved, T0);
  release({ cwd: box.project, env: moved, holder: "m", now: T0 + SECOND });
  await took("u", env, T0 + 2 * SECOND);
  release({ cwd: box.project, env, holder: "u", now: T0 + 3 * SECOND });
  await took("m", moved, T0 + 4 * SECOND);
  // m stops beating; u finds its claims stale an hour later and takes them in its own directory.
  await took("u", env, T0 + 3600 * SECOND);
  // A session pinning a directory of its own meets the path's tokens through the pointers too.
  release({ cwd: box.project, env, holder: "u", now: T0 + 3601 * SECOND });
  await took("p", { ...env, CLAIMS_DIR: join(box.root, "pinned") }, T0 + 3602 * SECOND, [file]);
  assert.equal(tokens, [[1, 1], [2, 2], [3, 3], [4, 4], [5]]);
  release({ cwd: box.project, env: { ...env, CLAIMS_DIR: join(box.root, "pinned") }, holder: "p", now: T0 + 3603 * SECOND });
  // A queued grant: u2 waits behind u1 where both claim; u1 lapses, m takes the name over in its
  // own directory and releases it; u2's grant there comes above m's token.
  const later = T0 + 7200 * SECOND;
  release({ cwd: box.project, env: moved, holder: "m", now: later }); // its lapsed claim from before
  await took("u1", env, later, ["shared-config"]);
  const queued = await take({ cwd: box.project, env, holder: "u2", targets: ["shared-config"], queue: true, ttl: 7200, now: later + SECOND });
  assert.equal(queued.queued?.map((place) => place.target), ["shared-config"], JSON.stringify(queued));
  await took("m", moved, later + 3600 * SECOND, ["shared-config"]);
  release({ cwd: box.project, env: moved, holder: "m", now: later + 3601 * SECOND });
  beat({ cwd: box.project, env, holder: "u2", now: later + 3602 * SECOND });
  const granted = status({ cwd: box.project, env, holder: "u2", targets: ["shared-config"], now: later + 3603 * SECOND });
  tokens.push(granted.claims.map((claim) => claim.token as number));
  // A beat that makes a stale claim fresh again, when the name was taken and released in the other directory meanwhile: a new token above it.
  const again = later + 20000 * SECOND;
  await took("m", moved, again, ["shared-config"]);
  release({ cwd: box.project, env: moved, holder: "m", now: again + SECOND });
  const renewed = beat({ cwd: box.project, env, holder: "u2", now: again + 2 * SECOND });
  tokens.push(renewed.new_tokens.map((issued) => issued.token));
  assert.equal(tokens.slice(5), [[5], [6], [7], [8], [9]], JSON.stringify(tokens));
  // A lapsed holder's token, once the other directory's session took the name over and let it go:
  // fenced for check, beat and release --token; a re-take of the stale claim gets a new one above.
  const lease = T0 + 40000 * SECOND;
  const first = (await take({ cwd: box.project, env, holder: "u3", targets: ["lease"], now: lease })).granted[0]?.token as number;
  const over = (await take({ cwd: box.project, env: moved, holder: "m", targets: ["lease"], now: lease + 3600 * SECOND })).granted[0]?.token as number;
  assert.ok(over > first, `${over} > ${first}`);
  release({ cwd: box.project, env: moved, holder: "m", now: lease + 3601 * SECOND });
  const asked = { cwd: box.project, env, holder: "u3", targets: ["lease"], token: first, now: lease + 3602 * SECOND };
  assert.equal(check(asked).fenced.map((fenced) => fenced.current_token), [over], "check --token");
  assert.equal(beat(asked).lost, ["lease"], "beat --token");
  assert.equal(release(asked).lost, ["lease"], "release --token");
  const retaken = await take({ cwd: box.project, env, holder: "u3", targets: ["lease"], now: lease + 3603 * SECOND });
  assert.ok((retaken.granted[0]?.token as number) > over, JSON.stringify(retaken.granted));
});

Tokens.run();

const Overlapping = suite<LibraryContext>("fencing across overlapping targets");
Overlapping.before.each((context) => {
  freshLibraryContext(context);
  mkdirSync(join(context.box.project, "D"));
  writeFileSync(join(context.box.project, "D", "a.js"), "");
});
Overlapping.after.each((context) => context.box.cleanup());

Overlapping("should fence a lapsed directory claim once another holder took a file under it, even after that one released", async ({ box, opts }) => {
  const first = await take({ ...opts, holder: "a", targets: ["D/"], ttl: 1, now: T0 });
  const token = first.granted[0]?.token as number;
  const under = await take({ ...opts, holder: "b", targets: ["D/a.js"], now: T0 + 3 * SECOND });
  assert.ok((under.granted[0]?.token as number) > token, "a token on an overlapping target is newer");
  release({ ...opts, holder: "b", now: T0 + 4 * SECOND });
  const checked = check({ ...opts, holder: "a", targets: ["D/"], token, now: T0 + 5 * SECOND });
  assert.equal(checked.fenced, [{ target: `${box.project}/D/`, token, current_token: under.granted[0]?.token as number, newer_token_target: `${box.project}/D/a.js` }]);
  const beaten = beat({ ...opts, holder: "a", targets: ["D/"], token, now: T0 + 5 * SECOND });
  assert.equal(beaten.lost, [`${box.project}/D/`]);
  assert.is(beaten.lost_to[0]?.newer_token_target, `${box.project}/D/a.js`);
  const cli = claims(["check", "D/", "--token", String(token), "--dir", box.dir, "--holder", "a"], { cwd: box.project });
  assert.is(cli.code, 4);
  assert.match(cli.stdout, /FENCED .*D\/: token 1 is not current \(another holder was issued token 2 on .*D\/a\.js, which overlaps it, since\)/);
  assert.is(claims(["beat", "D/", "--token", String(token), "--dir", box.dir, "--holder", "a"], { cwd: box.project }).code, 4);
});

Overlapping("should count one file's tokens across its hard links: a file and another name of it, a directory or glob holding one", async ({ box, opts }) => {
  // y.ts and E/hard.ts are one file: a lapsed holder of either name is fenced once another holder took the other.
  mkdirSync(join(box.project, "E"));
  writeFileSync(join(box.project, "y.ts"), "");
  linkSync(join(box.project, "y.ts"), join(box.project, "E", "hard.ts"));
  const pairs: Array<[string, string]> = [["E/hard.ts", "y.ts"], ["y.ts", "E/hard.ts"], ["E/", "y.ts"], ["y.ts", "E/"], ["E/*.ts", "y.ts"], ["y.ts", "E/*.ts"]];
  let now = T0;
  for (const [first, second] of pairs) {
    const lapsed = await take({ ...opts, holder: "a", targets: [first], ttl: 1, now });
    const token = lapsed.granted[0]?.token as number;
    const taken = await take({ ...opts, holder: "b", targets: [second], now: now + 3 * SECOND });
    assert.ok((taken.granted[0]?.token as number) > token, `${second} after ${first}: a newer token`);
    release({ ...opts, holder: "b", now: now + 4 * SECOND });
    const checked = check({ ...opts, holder: "a", targets: [first], token, now: now + 5 * SECOND });
    assert.is(checked.fenced.length, 1, `${first}'s holder fenced after ${second} was taken`);
    release({ ...opts, holder: "a", now: now + 6 * SECOND });
    now += 10 * SECOND;
  }
});

Overlapping("should leave a lapsed directory claim alone to a release or handover with its token once another holder took a file under it", async ({ box, opts }) => {
  const first = await take({ ...opts, holder: "a", targets: ["D/"], ttl: 1, now: T0 });
  const token = first.granted[0]?.token as number;
  const under = await take({ ...opts, holder: "b", targets: ["D/a.js"], now: T0 + 3 * SECOND });
  const newer = under.granted[0]?.token as number;
  const directory = `${box.project}/D/`;
  const released = release({ ...opts, holder: "a", targets: ["D/"], token, now: T0 + 4 * SECOND });
  assert.equal([released.released, released.lost_to], [[], [{ target: directory, newer_token: newer, newer_token_target: `${box.project}/D/a.js` }]]);
  try {
    await handover({ ...opts, holder: "a", target: "D/", to: "c", token, now: T0 + 4 * SECOND });
    assert.unreachable();
  } catch (error) {
    assert.is((error as ClaimsError).exitCode, 4);
    assert.match((error as ClaimsError).message, /another holder was issued token 2 on .*D\/a\.js, which overlaps it, after yours/);
  }
  assert.is(readJson(join(box.dir, claimFileName(directory))).holder, "a", "neither released nor handed over");
  const cli = claims(["release", "D/", "--token", String(token), "--dir", box.dir, "--holder", "a"], { cwd: box.project });
  assert.is(cli.code, 4);
  assert.match(cli.stdout, /NOT YOURS .*D\/: another holder was issued token 2 on .*D\/a\.js, which overlaps it, after yours: yours is fenced off; left untouched/);
  assert.equal(release({ ...opts, holder: "a", targets: ["D/"], now: T0 + 4 * SECOND }).released, [directory], "without --token it is released");
});

Overlapping("should fence a lapsed glob once another holder took a file it matches whose name is too long to spell in a claim file name", async ({ box, opts }) => {
  const first = await take({ ...opts, holder: "a", targets: ["D/**"], ttl: 1, now: T0 });
  const token = first.granted[0]?.token as number;
  const long = `D/${"x".repeat(230)}.js`;
  assert.match(claimFileName(`${box.project}/${long}`), /%~/, "a name shortened with a hash");
  const under = await take({ ...opts, holder: "b", targets: [`./${long}`], now: T0 + 3 * SECOND });
  const newer = under.granted[0]?.token as number;
  assert.ok(newer > token);
  release({ ...opts, holder: "b", now: T0 + 4 * SECOND });
  const fenced = { target: `${box.project}/D/**`, token, current_token: newer, newer_token_target: `${box.project}/${long}` };
  assert.equal(check({ ...opts, holder: "a", targets: ["D/**"], token, now: T0 + 5 * SECOND }).fenced, [fenced]);
  assert.equal(beat({ ...opts, holder: "a", targets: ["D/**"], token, now: T0 + 5 * SECOND }).lost_to, [{ target: fenced.target, newer_token: newer, newer_token_target: fenced.newer_token_target }]);
  const again = await take({ ...opts, holder: "c", targets: ["D/**"], now: T0 + 6 * SECOND });
  assert.ok((again.granted[0]?.token as number) > newer, "the next token on the glob is above it too");
});

Overlapping("should give a lapsed directory claim made fresh again a new token when another holder took a file under it meanwhile, so that holder's lapsed writes are fenced", async ({ box, opts }) => {
  const directory = `${box.project}/D/`;
  const file = `${box.project}/D/a.js`;
  const first = await take({ ...opts, holder: "a", targets: ["D/"], ttl: 1, now: T0 });
  const old = first.granted[0]?.token as number;
  const under = await take({ ...opts, holder: "b", targets: ["D/a.js"], ttl: 1, now: T0 + 3 * SECOND });
  const theirs = under.granted[0]?.token as number;
  // Both lapse; a beats first and holds D/ again, fresh, covering D/a.js.
  const beaten = beat({ ...opts, holder: "a", targets: ["D/"], now: T0 + 6 * SECOND });
  assert.equal(beaten.renewed, [directory]);
  const renewed = beaten.new_tokens[0]?.token as number;
  assert.equal(beaten.new_tokens, [{ target: directory, token: renewed, previous_token: old }]);
  assert.ok(renewed > theirs, "above the token issued under it meanwhile");
  assert.is(readJson(join(box.dir, claimFileName(directory))).token, renewed, "the claim carries it");
  // b's write under its old token is fenced now: a holds what it covers.
  assert.equal(check({ ...opts, holder: "b", targets: ["D/a.js"], token: theirs, now: T0 + 6 * SECOND }).fenced, [
    { target: file, token: theirs, current_token: renewed, newer_token_target: directory },
  ]);
  const cli = claims(["check", "D/a.js", "--token", String(theirs), "--dir", box.dir, "--holder", "b"], { cwd: box.project });
  assert.is(cli.code, 4, cli.stdout);
  assert.equal(beat({ ...opts, holder: "b", targets: ["D/a.js"], now: T0 + 6 * SECOND }).lost, [file], "and b's claim is lost to a's");
  assert.equal(check({ ...opts, holder: "a", targets: ["D/a.js"], token: renewed, now: T0 + 6 * SECOND }).fenced, [], "a writes under its new token");
  assert.is(check({ ...opts, holder: "a", targets: ["D/a.js"], token: old, now: T0 + 6 * SECOND }).fenced.length, 1, "not its old one");
  const { plain, renderBeat } = await import("../src/cli/render.js");
  assert.match(renderBeat(beaten, plain).join("\n"), new RegExp(`your token is now ${renewed}, not ${old}`));
});

Overlapping("should give a lapsed claim taken again by its holder a new token when another holder took a file under it meanwhile", async ({ box, opts }) => {
  await take({ ...opts, holder: "a", targets: ["D/"], ttl: 1, now: T0 });
  const under = await take({ ...opts, holder: "b", targets: ["D/a.js"], ttl: 1, now: T0 + 3 * SECOND });
  const theirs = under.granted[0]?.token as number;
  const again = await take({ ...opts, holder: "a", targets: ["D/"], now: T0 + 6 * SECOND });
  assert.is(again.granted[0]?.action, "retaken");
  assert.ok((again.granted[0]?.token as number) > theirs);
  assert.is(check({ ...opts, holder: "b", targets: ["D/a.js"], token: theirs, now: T0 + 6 * SECOND }).fenced.length, 1, "b's lapsed write is fenced");
  assert.equal(check({ ...opts, holder: "a", targets: ["D/a.js"], token: again.granted[0]?.token as number, now: T0 + 6 * SECOND }).fenced, []);
  assert.is(readJson(join(box.dir, claimFileName(`${box.project}/D/`))).token, again.granted[0]?.token);
});

Overlapping("should renew a lapsed shared claim under its token when only shared holders took what it covers, and under a new one after an exclusive holder did", async ({ box, opts }) => {
  const first = await take({ ...opts, holder: "a", targets: ["D/"], shared: true, ttl: 1, now: T0 });
  const old = first.granted[0]?.token as number;
  await take({ ...opts, holder: "b", targets: ["D/a.js"], shared: true, ttl: 1, now: T0 + 3 * SECOND });
  const beaten = beat({ ...opts, holder: "a", targets: ["D/"], now: T0 + 6 * SECOND });
  assert.equal([beaten.renewed, beaten.new_tokens], [[`${box.project}/D/`], []], "shared holders coexist: nothing to fence");
  release({ ...opts, holder: "b", now: T0 + 6 * SECOND });
  const exclusive = await take({ ...opts, holder: "c", targets: ["D/a.js"], ttl: 1, now: T0 + 20 * SECOND });
  assert.is(exclusive.granted.length, 1, "a's shared claim went stale again");
  const again = beat({ ...opts, holder: "a", targets: ["D/"], now: T0 + 30 * SECOND });
  assert.ok((again.new_tokens[0]?.token as number) > (exclusive.granted[0]?.token as number), "an exclusive holder wrote under it meanwhile");
  assert.ok((again.new_tokens[0]?.previous_token as number) === old);
});

Overlapping("should fence a lapsed shared claim's token once another holder's exclusive claim was granted inside it, but not for another shared one", async ({ opts }) => {
  const first = await take({ ...opts, holder: "a", targets: ["D/"], shared: true, ttl: 1, now: T0 });
  const token = first.granted[0]?.token as number;
  await take({ ...opts, holder: "s", targets: ["D/b.js"], shared: true, ttl: 60, now: T0 + SECOND });
  assert.equal(check({ ...opts, holder: "a", targets: ["D/a.js"], token, now: T0 + 2 * SECOND }).fenced, [], "a shared neighbour fences nothing");
  await take({ ...opts, holder: "b", targets: ["D/a.js"], ttl: 60, now: T0 + 3 * SECOND });
  release({ ...opts, holder: "b", now: T0 + 4 * SECOND });
  const fenced = check({ ...opts, holder: "a", targets: ["D/a.js"], token, now: T0 + 5 * SECOND });
  assert.is(fenced.fenced.length, 1, "b held and wrote D/a.js after a's claim lapsed");
  const beaten = beat({ ...opts, holder: "a", targets: ["D/"], token, now: T0 + 5 * SECOND });
  assert.is(beaten.lost.length, 1, "the old token is no good for a beat either");
});

Overlapping("should not fence a holder by its own claims inside its region, nor a lapse nobody used", async ({ opts }) => {
  const first = await take({ ...opts, holder: "a", targets: ["D/"], ttl: 1, now: T0 });
  const token = first.granted[0]?.token as number;
  await take({ ...opts, holder: "a", targets: ["D/a.js"], now: T0 + SECOND });
  release({ ...opts, holder: "a", targets: ["D/a.js"], now: T0 + SECOND });
  assert.equal(check({ ...opts, holder: "a", targets: ["D/"], token, now: T0 + 5 * SECOND }).fenced, []);
  const beaten = beat({ ...opts, holder: "a", targets: ["D/"], token, now: T0 + 5 * SECOND });
  assert.equal(beaten.lost, []);
  assert.equal(beaten.new_tokens, [], "its own claims under it are no reason for a new token");
  const handed = await handover({ ...opts, holder: "a", target: "D/", to: "c", token, now: T0 + 5 * SECOND });
  assert.is((handed as { to: string }).to, "c");
  assert.equal(release({ ...opts, holder: "c", targets: ["D/"], token: (handed as { token: number }).token, now: T0 + 5 * SECOND }).released.length, 1);
});

Overlapping("should let the holder of a directory or glob check a file under it with its token", async ({ box, opts }) => {
  const directory = await take({ ...opts, holder: "a", targets: ["D/"], now: T0 });
  const token = directory.granted[0]?.token as number;
  assert.equal(check({ ...opts, holder: "a", targets: ["D/a.js"], token, now: T0 }).fenced, []);
  assert.equal(check({ ...opts, targets: ["D/a.js"], token, now: T0 }).fenced, [], "a downstream writer without a holder");
  assert.equal(check({ ...opts, holder: "a", targets: ["D/a.js"], token: token + 7, now: T0 }).fenced, [{ target: `${box.project}/D/a.js`, token: token + 7 }]);
  release({ ...opts, holder: "a", now: T0 });
  const glob = await take({ ...opts, holder: "b", targets: ["D/*.js"], now: T0 });
  const globToken = glob.granted[0]?.token as number;
  assert.ok(globToken > token);
  assert.equal(check({ ...opts, holder: "b", targets: ["D/a.js"], token: globToken, now: T0 }).fenced, []);
  assert.is(check({ ...opts, holder: "b", targets: ["D/a.ts"], token: globToken, now: T0 }).fenced.length, 1, "a file the glob does not match");
});

Overlapping.run();
