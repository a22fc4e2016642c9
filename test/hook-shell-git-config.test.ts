// What git runs from what a command saves or names for it: a git alias of several words, the
// words after it the command's own. Another session holds u.ts; session s2 runs each command
// through the Claude hook of the real CLI.
import { spawnSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { denies, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Saved = suite<Context>("claims hook: commands git runs from what the command saves or names");
Saved.before.each((context) => {
  context.box = heldBox();
  spawnSync("git", ["init", "-q", context.box.project]);
});
Saved.after.each((context) => context.box.cleanup());

Saved("should read the words after a multi-word alias as the command's own", async ({ box }) => {
  assert.equal(await writes(box, "git -c alias.x='checkout --' x u.ts"), ["u.ts"]);
  assert.equal(await writes(box, "git -c alias.x='checkout -- u.ts' x"), ["u.ts"]);
  denies(box, ["git -c alias.x='checkout -- u.ts' x", "git -c alias.x='restore --staged --worktree' x u.ts"]);
});

Saved.run();
