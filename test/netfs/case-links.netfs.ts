// Whether a file system ignores case is asked of the first name a process meets on it. On one that
// keeps case apart, two hard links whose names differ only in case (`Ab`, `aB`) look, by lookup
// alone, like one entry found in either case: a process meeting them first would fold every name
// there, and one meeting another name first would not, making one file two targets. The directory
// listing both spellings tells them apart. A tmpfs of its own, so these are the first names met on it.
import { spawnSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims } from "../helpers.js";

const test = suite("hard links differing only in case, on a file system that keeps case apart");
const root = process.platform === "linux" && process.getuid?.() === 0;
if (!root) {
  console.log("\n  SKIPPED: mounting a tmpfs needs root on Linux.\n");
  test.skip("should give one file one target whichever name a process meets first", () => undefined);
} else {
  test("should give one file one target whichever name a process meets first", () => {
    const box = mkdtempSync(join(tmpdir(), "claims-case-links-"));
    const mount = join(box, "mnt");
    mkdirSync(mount);
    const mounted = spawnSync("mount", ["-t", "tmpfs", "tmpfs", mount], { encoding: "utf8" });
    assert.is(mounted.status, 0, mounted.stderr);
    try {
      mkdirSync(join(mount, "zz"));
      writeFileSync(join(mount, "Ab"), "x\n");
      linkSync(join(mount, "Ab"), join(mount, "aB"));
      const dir = join(box, "store");
      // The first from outside (the first name it meets there is Ab), the second from inside zz.
      const first = claims(["take", join(mount, "Ab"), "--dir", dir, "--holder", "P1"], { cwd: box });
      assert.is(first.code, 0, first.stdout + first.stderr);
      assert.match(first.stdout, /granted .*\/mnt\/Ab /, "kept as written: the file system keeps case apart");
      const second = claims(["take", join(mount, "Ab"), "--dir", dir, "--holder", "P2"], { cwd: join(mount, "zz") });
      assert.is(second.code, 3, second.stdout + second.stderr);
      assert.match(second.stdout, /held by P1/);
    } finally {
      spawnSync("umount", [mount]);
      rmSync(box, { recursive: true, force: true });
    }
  });
}

test.run();
