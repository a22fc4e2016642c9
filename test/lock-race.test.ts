// The take lock under contention between real processes that come and go: at no moment may two
// of them be inside. Each worker marks "inside" by creating a sentinel file exclusively; a failed
// creation means someone else is inside too. Workers exit right after their last release, which
// is exactly when a waiter can misjudge a finished owner as a dead one.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ROOT, sandbox, type Sandbox } from "./helpers.js";

const WORKER = `
import { appendFileSync, closeSync, openSync, unlinkSync } from "node:fs";
const [storeUrl, dir, sentinel, violations, rounds] = process.argv.slice(2);
const { Store } = await import(storeUrl);
const store = new Store(dir);
store.ensure();
for (let i = 0; i < Number(rounds); i++) {
  store.withTakeLock(() => {
    let fd;
    try {
      fd = openSync(sentinel, "wx");
    } catch {
      appendFileSync(violations, process.pid + "\\n");
      return;
    }
    closeSync(fd);
    for (let k = 0; k < 2000; k++);
    unlinkSync(sentinel);
  });
}
`;

const Contention = suite<{ box: Sandbox }>("the take lock between processes");
Contention.before.each((context) => {
  context.box = sandbox();
});
Contention.after.each((context) => context.box.cleanup());

Contention("should never let two of 24 processes be inside at once", async ({ box }) => {
  const worker = join(box.root, "worker.mjs");
  writeFileSync(worker, WORKER);
  const sentinel = join(box.root, "inside");
  const violations = join(box.root, "violations");
  const storeUrl = pathToFileURL(join(ROOT, "dist", "protocol", "store.js")).href;
  const codes = await Promise.all(
    Array.from(
      { length: 24 },
      () =>
        new Promise<number>((resolve) => {
          const child = spawn(process.execPath, [worker, storeUrl, box.dir, sentinel, violations, "80"], { stdio: "ignore" });
          child.on("close", (code) => resolve(code ?? -1));
        }),
    ),
  );
  assert.equal(codes.filter((code) => code !== 0), [], "every worker finished");
  const seen = existsSync(violations) ? readFileSync(violations, "utf8").trim().split("\n").length : 0;
  assert.is(seen, 0, `${seen} times two processes were inside the take lock together`);
});

Contention.run();
