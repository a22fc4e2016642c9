// One worker of the handover torture: random takes (exclusive and shared, several targets at once),
// queues, waits, beats, releases, sweeps, stalls and handovers of its own claims to the others, over
// overlapping targets (a directory, a glob, a file, its symbols, a file beside it).
import { seeded } from "./seeded.mjs";

const [dist, dir, cwd, holder, seedText, opsText, ttlText, holdersText] = process.argv.slice(2);
const { take, beat, release, sweep, status, handover } = await import(`${dist}/index.js`);
const ttl = Number(ttlText);
const others = holdersText.split(",").filter((other) => other !== holder);
const { random, pick } = seeded(seedText);
const TARGETS = [`${cwd}/D/`, `${cwd}/D/*.ts`, `${cwd}/D/a.ts`, `${cwd}/D/a.ts#foo`, `${cwd}/D/a.ts#bar`, `${cwd}/D/b.ts`, `${cwd}/E/`, `${cwd}/E/c.ts`];
const options = { dir, cwd, holder, env: {}, ttl };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const ANSWERS = ["DEADLOCK", "LOST", "REFUSED", "BAD_INPUT", "TIMEOUT"];

for (let i = 0; i < Number(opsText); i++) {
  const op = pick(["take", "take", "shared", "queue", "wait", "beat", "release", "releaseOne", "sweep", "pause", "handover", "handover", "handover"]);
  try {
    if (op === "take" || op === "shared" || op === "queue") {
      const targets = [pick(TARGETS), ...(random() < 0.7 ? [pick(TARGETS)] : [])];
      await take({ ...options, targets, ...(op === "shared" && { shared: true }), ...(op === "queue" && { queue: true }), ...(random() < 0.2 && { partial: true }) });
    } else if (op === "wait") await take({ ...options, targets: [pick(TARGETS)], wait: 1 });
    else if (op === "beat") beat(options);
    else if (op === "release") release(options);
    else if (op === "releaseOne") release({ ...options, targets: [pick(TARGETS)] });
    else if (op === "sweep") sweep({ dir, cwd, env: {}, ttl });
    else if (op === "handover") {
      // Mostly a claim of its own, as a session hands on what it holds.
      const mine = status({ dir, cwd, env: {}, ttl, holder }).claims.filter((claim) => claim.holder === holder && claim.mode !== "shared").map((claim) => claim.target);
      await handover({ ...options, target: mine.length > 0 && random() < 0.85 ? pick(mine) : pick(TARGETS), to: pick(others) });
    } else await sleep(Math.floor(random() * ttl * 1500));
  } catch (error) {
    if (!ANSWERS.includes(error?.code)) {
      console.error(`${holder} ${op}: ${error?.code ?? ""} ${String(error?.message ?? error)}`);
      process.exitCode = 1;
    }
  }
}
