import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { asOneVerb, freshLookups } from "../src/os/lookups.js";
import { hasConfigFile } from "../src/protocol/settings.js";
import { exists, isDirectory } from "../src/targets/target.js";

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

Lookups("should look again after a wait, for a look the verb made before its first await", async () => {
  // A verb that awaits hands its first steps' answers to the event loop: they too must be forgotten before it waits.
  const dir = mkdtempSync(join(tmpdir(), "claims-lookups-"));
  await new Promise((resolve) => setImmediate(resolve)); // an earlier verb's forgetting, still due, is done
  try {
    const seen = await asOneVerb(async () => {
      const before = hasConfigFile(dir);
      await new Promise<void>((resolve) => {
        const watcher = watch(dir, () => {
          watcher.close();
          resolve();
        });
        spawn("sh", ["-c", `sleep 0.3; echo '{}' > '${join(dir, ".claims")}'`], { stdio: "ignore" });
      });
      return { before, after: hasConfigFile(dir) };
    });
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

Lookups("should answer whether a path exists or is a directory once in a verb, and afresh after a fresh look", () => {
  const dir = mkdtempSync(join(tmpdir(), "claims-lookups-"));
  try {
    const path = join(dir, "made");
    const seen = asOneVerb(() => {
      const before = [exists(path), isDirectory(path)];
      mkdirSync(path);
      const kept = [exists(path), isDirectory(path)];
      freshLookups(); // as a take's look after its grant, or a lock it waited for
      return { before, kept, after: [exists(path), isDirectory(path)] };
    });
    assert.equal(seen, { before: [false, false], kept: [false, false], after: [true, true] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Lookups("should not keep a path it could not ask about as an answer", () => {
  // A symlink loop (ELOOP) stands for any error that is not "nothing there": EACCES, EIO, ESTALE.
  const dir = mkdtempSync(join(tmpdir(), "claims-lookups-"));
  try {
    const [a, b] = [join(dir, "a"), join(dir, "b")];
    symlinkSync(b, a);
    symlinkSync(a, b);
    const seen = asOneVerb(() => {
      const looping = isDirectory(a);
      unlinkSync(b);
      mkdirSync(b);
      return [looping, isDirectory(a)];
    });
    assert.equal(seen, [false, true]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Lookups.run();
