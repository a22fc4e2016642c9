import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { asOneVerb } from "../src/os/lookups.js";
import { hasConfigFile } from "../src/protocol/settings.js";

// A verb remembers what it looked up (a `.claims` in a directory, a path's symlinks) while it
// runs, and never across a wait: a `take --wait` looks again when its directory changes, and that
// look must see the files as they are then, not as its last timed look saw them.
const Lookups = suite("lookups remembered while a verb runs");

Lookups("should look again after the process waited, when a change another process made wakes it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "claims-lookups-"));
  try {
    const seen = await asOneVerb(
      () =>
        new Promise<{ before: boolean; after: boolean }>((resolve) => {
          let before = true;
          const keep = setTimeout(() => undefined, 10_000); // the verb's own wait, as a take --wait keeps one
          const watcher = watch(dir, () => {
            watcher.close();
            clearTimeout(keep);
            resolve({ before, after: hasConfigFile(dir) });
          });
          // A timed look, then the event loop waits; another process writes the config meanwhile.
          setTimeout(() => {
            before = hasConfigFile(dir);
            spawn("sh", ["-c", `sleep 0.3; echo '{}' > '${join(dir, ".claims")}'`], { stdio: "ignore" });
          }, 20);
        }),
    );
    assert.equal(seen, { before: false, after: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Lookups("should remember within a verb, and not outside one", () => {
  const dir = mkdtempSync(join(tmpdir(), "claims-lookups-"));
  try {
    const within = asOneVerb(() => {
      const first = hasConfigFile(dir);
      writeFileSync(join(dir, ".claims"), "{}");
      return [first, hasConfigFile(dir)];
    });
    assert.equal(within, [false, false], "one verb, one answer");
    assert.is(hasConfigFile(dir), true, "outside a verb, the file as it is");
    assert.is(asOneVerb(() => hasConfigFile(dir)), true, "a new verb starts afresh");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Lookups.run();
