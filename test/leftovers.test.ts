// Errors and leftovers: a claims directory removed under running calls, a wait resumed after its
// deadline, a release on a full disk, a world-writable directory of another user, and what the
// log and release report. Races and crashes use real processes.
import { rmSync } from "node:fs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claimsAsync, sandbox, type RunResult, type Sandbox } from "./helpers.js";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const Removed = suite<{ box: Sandbox }>("a claims directory removed while calls run");
Removed.before.each((context) => {
  context.box = sandbox();
});
Removed.after.each((context) => context.box.cleanup());

/** Each verb that writes, in turn: takes racing for one target (takeover and lock paths), takes of their own, a queue, beats, releases, sweeps. */
function verbAt(round: number, i: number): string[] {
  const holder = `h${i % 4}`;
  const verbs = [
    ["take", "shared-target", "--ttl", "1"],
    ["take", `own-${round}-${i}`],
    ["take", "shared-target", "--queue"],
    ["beat"],
    ["release"],
    ["sweep"],
    ["status"],
  ];
  return [...(verbs[i % verbs.length] as string[]), "--holder", holder];
}

Removed("should answer every verb with a result or one sentence, never an internal error, while the directory keeps vanishing", async ({ box }) => {
  let removing = true;
  const remover = (async () => {
    while (removing) {
      try {
        rmSync(box.dir, { recursive: true, force: true });
      } catch {
        // files appeared while it was being emptied: the next round gets them
      }
      await pause(50);
    }
  })();
  const results: Array<RunResult & { args: string }> = [];
  try {
    for (let round = 0; round < 10; round++) {
      const batch = Array.from({ length: 14 }, (_, i) => {
        const args = [...verbAt(round, i), "--dir", box.dir];
        return claimsAsync(args, { cwd: box.project }).then((result) => ({ ...result, args: args.join(" ") }));
      });
      results.push(...(await Promise.all(batch)));
    }
  } finally {
    removing = false;
    await remover;
  }
  for (const result of results) {
    assert.ok([0, 2, 3, 4, 6].includes(result.code), `${result.args}: exit ${result.code}\n${result.stderr}`);
    assert.not.match(result.stderr, /Internal error|This is a bug/, result.args);
    assert.not.match(result.stderr, /\n\s+at .+:\d+:\d+/, `${result.args}: a stack trace`);
    if (result.code === 2) assert.match(result.stderr, /^claims: [^\n]+\n$/, `${result.args}: not one sentence`);
  }
});

Removed.run();

