// One torture worker: a random sequence of take / beat / release / sweep / queue / pause over a
// few overlapping targets, through the built library, recording every operation with its result
// and when it started and was acknowledged (one JSON line each).
import { appendFileSync } from "node:fs";
import { seeded } from "./seeded.mjs";

const [dist, dir, cwd, holder, seedText, opsText, ttlText, out] = process.argv.slice(2);
const { take, beat, release, sweep, status, check } = await import(`${dist}/index.js`);
const ttl = Number(ttlText);
const { random, pick } = seeded(seedText);
// Besides the plain kinds: a directory named with glob characters (app/[id]) and a file in it, a
// path against its `/**` glob, and a glob matching a symlink to f.ts (links/f.ts -> ../f.ts).
const TARGETS = [
  "n1", "n2", `${cwd}/f.ts`, `${cwd}/`, `${cwd}/*.ts`, `${cwd}/f.ts#a`, `${cwd}/f.ts#b`,
  `${cwd}/app/[id]`, `${cwd}/app/[id]/page.tsx`, `${cwd}/pkg`, `${cwd}/pkg/**`, `${cwd}/links/*`,
];
/** Tokens this worker was granted, to check with (fencing across overlapping targets). */
const tokens = [];
const options = { dir, cwd, holder, env: {}, ttl };
const log = (entry) => appendFileSync(out, `${JSON.stringify({ holder, ...entry })}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

for (let i = 0; i < Number(opsText); i++) {
  const op = pick(["take", "take", "take", "beat", "beat", "release", "sweep", "queue", "pause", "status", "fence"]);
  const t0 = Date.now();
  try {
    if (op === "take" || op === "queue") {
      const targets = [pick(TARGETS), ...(random() < 0.3 ? [pick(TARGETS)] : [])];
      const result = await take({ ...options, targets, ...(op === "queue" && { queue: true }) });
      for (const { target, token } of result.granted) tokens.push({ target, token });
      log({ op, t0, t1: Date.now(), targets, granted: result.granted.map(({ target, taken_at, heartbeat_at, action, token }) => ({ target, taken_at, heartbeat_at, action, token })), refused: result.refused.length });
    } else if (op === "beat") {
      const result = beat(options);
      log({ op, t0, t1: Date.now(), renewed: result.renewed, lost: result.lost });
    } else if (op === "release") {
      const result = release(options);
      log({ op, t0, t1: Date.now(), released: result.released, lost: result.lost });
    } else if (op === "fence") {
      // A downstream writer asks whether a write under one of our tokens may still go through.
      if (tokens.length === 0) continue;
      const { target, token } = pick(tokens);
      const result = check({ ...options, targets: [target], token });
      log({ op, t0, t1: Date.now(), target, token, allowed: result.fenced.length === 0 && result.refused.length === 0 });
    } else if (op === "sweep") {
      const result = sweep({ dir, cwd, env: {}, ttl });
      log({ op, t0, t1: Date.now(), removed: result.removed });
    } else if (op === "status") {
      const result = status({ dir, cwd, env: {}, ttl });
      log({ op, t0, t1: Date.now(), unreadable: result.unreadable.length });
    } else {
      // A stall: sometimes long enough for this worker's claims to go stale and be taken over.
      await sleep(Math.floor(random() * ttl * 1500));
      log({ op, t0, t1: Date.now() });
    }
  } catch (error) {
    // Refusing a queue that would deadlock is an answer (exit 3), not a failure.
    if (error?.code === "DEADLOCK") log({ op, t0, t1: Date.now(), deadlock: true });
    else log({ op, t0, t1: Date.now(), error: String(error?.message ?? error) });
  }
}
