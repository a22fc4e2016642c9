// Crash injection: writers killed with SIGKILL at named steps inside take, beat, release,
// takeover and grant (CLAIMS_CRASH_AT, src/os/crash.ts). After every kill: every claim file parses,
// no acknowledged claim is lost, nothing unacknowledged looks valid, sweep removes all debris, and
// the next writer gets on with it.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { parseClaim } from "../src/protocol/claim.js";
import { release } from "../src/commands/release.js";
import { sweep } from "../src/commands/sweep.js";
import { take } from "../src/commands/take.js";
import type { CrashStep } from "../src/os/crash.js";
import { BIN, cleanEnv, iso, sandbox, writeClaimFile, type Sandbox } from "./helpers.js";

const STEPS: CrashStep[] = ["temp-written", "before-link", "after-link", "lock-won", "before-rename", "after-rename", "before-unlink", "token-issued", "grant-acquired", "clock-probed"];

function run(box: Sandbox, args: string[], crashAt?: CrashStep) {
  const result = spawnSync(process.execPath, [BIN, ...args, "--dir", box.dir, "--json"], {
    cwd: box.project,
    env: cleanEnv(crashAt ? { CLAIMS_CRASH_AT: crashAt } : {}),
    encoding: "utf8",
  });
  return { code: result.status, signal: result.signal, stdout: result.stdout };
}

/** Every claim file parses; returns target -> holder. */
function claimsOnDisk(box: Sandbox): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(box.dir)) {
    if (!name.endsWith(".json") || name.startsWith(".")) continue;
    const parsed = parseClaim(readFileSync(join(box.dir, name), "utf8"));
    assert.ok(parsed.ok, `${name} does not parse after a crash`);
    if (parsed.ok) found.set(parsed.claim.target, parsed.claim.holder);
  }
  return found;
}

function debris(box: Sandbox): string[] {
  return readdirSync(box.dir).filter((name) => name.startsWith(".tmp-") || name.startsWith(".lock-"));
}

const Crash = suite<{ box: Sandbox }>("writers killed at every step");
Crash.before.each((context) => {
  context.box = sandbox();
});
Crash.after.each((context) => context.box.cleanup());

interface Scenario {
  name: string;
  /** Sets the stage; the witness claim taken here is acknowledged and must survive everything. */
  setup: (box: Sandbox) => unknown;
  /** The operation that gets killed. */
  args: string[];
  /** What the target may look like after the kill: the holder before, or after, the operation (undefined: free). */
  allowed: Array<string | undefined>;
}

const lib = (box: Sandbox) => ({ dir: box.dir, cwd: box.project, env: {} });
const stale = (box: Sandbox, holder: string) =>
  writeClaimFile(box.dir, "x.json", { target: "x", holder, purpose: "", taken_at: iso(Date.now() - 7200_000), heartbeat_at: iso(Date.now() - 7200_000) });

const SCENARIOS: Scenario[] = [
  { name: "take of a free target", setup: () => undefined, args: ["take", "x", "--holder", "b"], allowed: [undefined, "b"] },
  { name: "stale takeover", setup: (box) => stale(box, "old"), args: ["take", "x", "--holder", "b"], allowed: ["old", "b"] },
  { name: "beat", setup: (box) => take({ ...lib(box), targets: ["x"], holder: "a" }), args: ["beat", "x", "--holder", "a"], allowed: ["a"] },
  { name: "release", setup: (box) => take({ ...lib(box), targets: ["x"], holder: "a" }), args: ["release", "x", "--holder", "a"], allowed: ["a", undefined] },
  {
    name: "release that grants the queue",
    setup: async (box) => {
      await take({ ...lib(box), targets: ["x"], holder: "a" });
      await take({ ...lib(box), targets: ["x"], holder: "w", queue: true });
    },
    args: ["release", "x", "--holder", "a"],
    allowed: ["a", undefined, "w"],
  },
];

Crash("should leave only whole claims and removable debris, whatever step a writer dies at", async ({ box }) => {
  let kills = 0;
  for (const scenario of SCENARIOS) {
    for (const step of STEPS) {
      box.cleanup();
      const fresh = sandbox();
      Object.assign(box, fresh);
      await take({ ...lib(box), targets: ["witness"], holder: "acknowledged" });
      await scenario.setup(box);
      const killed = run(box, scenario.args, step);
      if (killed.signal === "SIGKILL") kills += 1;
      else assert.is(killed.code === 0 || killed.code === 3 || killed.code === 6, true, `${scenario.name} @ ${step}: exit ${killed.code}`);
      const label = `${scenario.name} killed at ${step}`;
      const after = claimsOnDisk(box);
      assert.is(after.get("witness"), "acknowledged", `${label}: an acknowledged claim was lost`);
      assert.ok(scenario.allowed.includes(after.get("x")), `${label}: x is held by ${after.get("x")}`);
      sweep(lib(box));
      assert.equal(debris(box), [], `${label}: sweep left debris`);
      // The next writer gets on with it: whoever holds x can release it, and then anyone can take it.
      const holder = claimsOnDisk(box).get("x");
      if (holder) assert.equal(release({ ...lib(box), targets: ["x"], holder }).released, ["x"], label);
      const next = await take({ ...lib(box), targets: ["x"], holder: "next" });
      const queuedFirst = next.refused.length > 0 && next.refused.every((refusal) => refusal.holder === "w");
      assert.ok(next.granted.length === 1 || queuedFirst, `${label}: the next take was refused by ${next.refused.map((r) => r.holder)}`);
    }
  }
  console.log(`  crash injection: ${kills} kills survived across ${SCENARIOS.length} operations x ${STEPS.length} steps`);
  assert.ok(kills >= SCENARIOS.length * 3, `too few steps were reached (${kills} kills): the crash points are not where they should be`);
});

Crash.run();
