// Writes make, git and cd make where the text alone hides them: a makefile's `$(shell …)` and
// `$(file …)` run as make reads it, and what the command line and environment give make
// (`-e`, MAKEFLAGS, `--eval`, MAKEFILES, a SHELL of the makefile's own); the shell commands git
// runs from its config and environment (`-c core.fsmonitor=…`, GIT_SSH_COMMAND, `ext::`); and a
// `..` the kernel takes after a symlink (`cd -P`, `set -P`, `git -C`, `make -C`). Another session
// holds u.ts; session s2 runs each command through the Claude hook of the real CLI.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { bash, file, heldBox } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Hidden = suite<Context>("claims hook: writes make, git and cd hide");
Hidden.before.each((context) => {
  context.box = heldBox();
});
Hidden.after.each((context) => context.box.cleanup());

/** A box where sub/v.ts is held too, and L is a symlink to sub/deep: `L/..` is sub to the kernel, the project to a logical cd. */
function linked(box: Sandbox): void {
  mkdirSync(join(box.project, "sub", "deep"), { recursive: true });
  writeFileSync(join(box.project, "sub", "v.ts"), "export const v = 1;\n");
  symlinkSync("sub/deep", join(box.project, "L"));
  claims(["take", join(box.project, "sub", "v.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
}

Hidden("should take `..` after a symlink physically where the shell or the tool does", ({ box }) => {
  linked(box);
  file(box, "sub/Makefile", "all:\n\trm -f v.ts\n");
  for (const command of [
    "cd -P L/.. && rm v.ts",
    "cd -P L && cd .. && echo x > v.ts",
    "cd -L -P L/.. && rm v.ts",
    "set -P; cd L/..; rm v.ts",
    "set -o physical; cd L; cd ..; rm v.ts",
    "cd L && cd -P .. && rm v.ts",
    "git -C L/.. rm -q v.ts",
    "make -s -C L/..",
    "make -C L -C .. -s",
    'cd L && sh -c "cd -P .. && rm v.ts"',
  ]) {
    assert.is(bash(box, command), "deny", command);
  }
  // Logically, `L/..` is the project, where v.ts is no held file; nor does `cd -P` into a plain directory change anything.
  assert.is(bash(box, "cd L/.. && rm v.ts"), undefined, "a logical cd");
  assert.is(bash(box, "cd -P sub && rm -f w.ts"), undefined, "cd -P where no symlink is");
  assert.is(bash(box, "cd -L -P sub/deep && cd .. && rm -f w.ts"), undefined);
});

Hidden.run();
