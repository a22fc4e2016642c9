// Writes make, git and cd make where the text alone hides them: a makefile's `$(shell …)` and
// `$(file …)` run as make reads it, and what the command line and environment give make
// (`-e`, MAKEFLAGS, `--eval`, MAKEFILES, a SHELL of the makefile's own); the shell commands git
// runs from its config and environment (`-c core.fsmonitor=…`, GIT_SSH_COMMAND, `ext::`); and a
// `..` the kernel takes after a symlink (`cd -P`, `set -P`, `git -C`, `make -C`). Another session
// holds u.ts; session s2 runs each command through the Claude hook of the real CLI.
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

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
    "env -C L/.. rm v.ts", // a wrapper's chdir(2)
    "sudo -D L/.. rm v.ts",
    "yarn --cwd L/.. exec rm v.ts", // a runner that may join it as text: a place unknown
  ]) {
    assert.is(bash(box, command), "deny", command);
  }
  // Logically, `L/..` is the project, where v.ts is no held file; nor does `cd -P` into a plain directory change anything.
  assert.is(bash(box, "cd L/.. && rm v.ts"), undefined, "a logical cd");
  assert.is(bash(box, "env -C sub rm -f w.ts"), undefined, "a wrapper's directory where no symlink is");
  assert.is(bash(box, "cd -P sub && rm -f w.ts"), undefined, "cd -P where no symlink is");
  assert.is(bash(box, "cd -L -P sub/deep && cd .. && rm -f w.ts"), undefined);
});

Hidden("should read what make runs as it reads the makefiles, and what the command line and environment give it", async ({ box }) => {
  const cases: Array<[string, string, Record<string, string>?]> = [
    ["GEN := $(shell echo generated > u.ts)\nall:\n\t@true\n", "make"],
    ["GEN ::= $(shell rm -f u.ts)\nall:\n\t@true\n", "make"],
    ["$(file >u.ts,hello)\nall:\n\t@true\n", "make"],
    ["X := $(file >>u.ts,hello)\nall:\n\t@true\n", "make"],
    ["all:\n\t@echo $(file >u.ts,hello)\n", "make"],
    ["OUT = out.txt\nall:\n\techo hi > $(OUT)\n", "OUT=u.ts make -e"],
    ["OUT = out.txt\nall:\n\techo hi > $(OUT)\n", "make --environment-overrides", { OUT: "u.ts" }],
    ["OUT = out.txt\nall:\n\techo hi > $(OUT)\n", "MAKEFLAGS=OUT=u.ts make"],
    ["OUT = out.txt\nall:\n\techo hi > $(OUT)\n", "OUT=u.ts MAKEFLAGS=e make"],
    ["all:\n\t@true\n", 'make --eval="x:=\\$(shell rm -f u.ts)"'],
    ["all:\n\t@true\n", "make -E 'all: ; rm u.ts' all"],
    ["X := $(shell rm -f u.ts)\nall:\n\t@true\n", "make -q"],
  ];
  for (const [makefile, command, environment] of cases) {
    file(box, "Makefile", makefile);
    assert.is(bash(box, command, {}, environment), "deny", `${command} with ${JSON.stringify(makefile)}`);
    assert.ok((await writes(box, command, environment)).includes("u.ts"), `${command}: u.ts read as written`);
  }
  // MAKEFILES' files are read before the makefile (not for its default goal); a SHELL of the makefile's own could write anything.
  file(box, "Makefile", "all:\n\t@true\n");
  file(box, "inc.mk", "$(shell rm -f u.ts)\nfirst:\n\trm -f w.ts\n");
  assert.is(bash(box, "MAKEFILES=inc.mk make"), "deny", "MAKEFILES");
  assert.equal(await writes(box, "MAKEFILES=inc.mk make"), ["u.ts"], "MAKEFILES' target is not the default goal");
  file(box, "sh.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  file(box, "Makefile", "SHELL := ./sh.sh\nall:\n\t@true\n");
  assert.is(bash(box, "make"), "deny", "SHELL := ./sh.sh");
  file(box, "Makefile", "all: SHELL = ./sh.sh\nall:\n\t@true\n");
  assert.is(bash(box, "make"), "deny", "a target's SHELL");
  file(box, "Makefile", "all:\n\t@true\n");
  assert.is(bash(box, "make SHELL=./sh.sh"), "deny", "SHELL on the command line");
  // Still read as before: the usual shells, flags and assignments.
  file(box, "Makefile", "SHELL := /bin/bash\n.SHELLFLAGS := -eu -o pipefail -c\nREV := $(shell git rev-parse HEAD)\nOUT = out.txt\nall:\n\techo hi > $(OUT)\n");
  assert.equal(await writes(box, "make"), ["out.txt"]);
  assert.equal(await writes(box, "MAKEFLAGS=-j4 make -e", { OUT: "gen.txt" }), ["gen.txt"]);
  assert.equal(await writes(box, "make -e"), ["out.txt"], "-e with no OUT in the environment");
  assert.is(bash(box, "make"), undefined);
  file(box, "Makefile", "SHELL := $(shell which bash)\nall:\n\techo hi > out.txt\n");
  assert.equal(await writes(box, "make"), ["out.txt"], "the system's bash, as which finds it");
});

Hidden("should read the commands git runs from the settings and variables the command gives it", async ({ box }) => {
  spawnSync("git", ["init", "-q", box.project]);
  file(box, "tools/fsm.sh", "#!/bin/sh\nrm -f u.ts\n", 0o755);
  for (const [command, environment] of [
    ['git -c core.fsmonitor="rm -f u.ts #" status', {}],
    ["git -c core.fsmonitor=tools/fsm.sh status", {}],
    ["git --config-env=core.fsmonitor=FSM status", { FSM: "tools/fsm.sh" }],
    ['git -c core.sshCommand="rm -f u.ts #" ls-remote ssh://x/y', {}],
    ['GIT_SSH_COMMAND="rm -f u.ts #" git ls-remote ssh://x/y', {}],
    ["export GIT_SSH=tools/fsm.sh; git fetch origin", {}],
    ["GIT_PAGER=tools/fsm.sh git log", {}],
    ["PAGER=tools/fsm.sh git log", {}],
    ["GIT_EXTERNAL_DIFF=tools/fsm.sh git diff", {}],
    ["git -c diff.external=tools/fsm.sh diff", {}],
    ["git -c core.askPass=tools/fsm.sh push", {}],
    ["git -c credential.helper='!tools/fsm.sh' fetch", {}],
    ["git -c filter.x.clean=tools/fsm.sh add .", {}],
    ["git -c pager.log=tools/fsm.sh log", {}],
    ["GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=tools/fsm.sh git status", {}],
    ["GIT_CONFIG_PARAMETERS=\"'core.fsmonitor'='tools/fsm.sh'\" git status", {}],
    ['git -c protocol.ext.allow=always ls-remote "ext::sh -c rm% -f% u.ts"', {}],
    ['git -c protocol.ext.allow=always clone "$url" x', {}],
    ["git -c include.path=other.cfg status", {}],
    ['git -c core.fsmonitor="$hook" status', {}],
  ] as Array<[string, Record<string, string>]>) {
    assert.is(bash(box, command, {}, environment), "deny", command);
  }
  assert.ok((await writes(box, 'git -c core.fsmonitor="rm -f u.ts #" status')).includes("u.ts"), "read as its script, not as any file");
  // Settings that run nothing, or a helper of git's own: as before.
  for (const command of ["git -c core.fsmonitor=true status", "git -c core.pager=less log", "PAGER=cat git log", "git -c credential.helper=store fetch", "GIT_PAGER= git log"]) {
    assert.is(bash(box, command), undefined, command);
  }
});

Hidden("should read what bash's builtins run from strings: command_not_found_handle, ${x@P}, compgen -C and -F, cd with cdable_vars", async ({ box }) => {
  mkdirSync(join(box.project, "src"));
  // Each wrote u.ts (or src/u.ts) and passed as writing nothing, or only ./d/u.ts.
  assert.equal(await writes(box, "command_not_found_handle() { touch u.ts; }; nosuchcmd"), ["unknown:."], "run for any command not found, wherever");
  assert.equal(await writes(box, `x='$(touch u.ts)'; echo "\${x@P}"`), ["unknown:."], "a prompt expansion runs the value's $(…)");
  assert.equal(await writes(box, `x=hi; echo "\${x@Q} \${x@U}"`), [], "other transformations run nothing");
  assert.equal(await writes(box, "compgen -C 'touch u.ts #' x"), ["u.ts"]);
  assert.equal(await writes(box, "f() { rm v.ts; }; compgen -F f x"), ["v.ts"]);
  assert.equal(await writes(box, "compgen -W 'a b' x; compgen -A file"), []);
  assert.equal(await writes(box, "shopt -s cdable_vars; d=src; cd d && echo x > u.ts"), ["unknown:u.ts"], "cd went to $d, which the walk does not follow");
  assert.equal(await writes(box, "shopt -s cdable_vars; cd src && echo x > u.ts"), ["src/u.ts"], "a directory there is gone to as ever");
  assert.equal(await writes(box, "d=src; cd d && echo x > u.ts"), ["d/u.ts"], "without cdable_vars, cd d fails and the chain stops");
  for (const command of ["command_not_found_handle() { touch u.ts; }; nosuchcmd", "compgen -C 'touch u.ts #' x", `x='$(touch u.ts)'; echo "\${x@P}"`]) assert.is(bash(box, command), "deny", command);
});

Hidden.run();
