import { suite } from "uvu";
import * as assert from "uvu/assert";
import { beat } from "../src/commands/beat.js";
import { check } from "../src/commands/check.js";
import { handover } from "../src/commands/handover.js";
import { release } from "../src/commands/release.js";
import { take } from "../src/commands/take.js";
import { ClaimsError } from "../src/errors.js";
import { claims, freshLibraryContext, SECOND, T0, type LibraryContext } from "./helpers.js";

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
});

Tokens.run();
