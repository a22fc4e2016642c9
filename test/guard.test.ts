// The git guard end to end: a real repository, real `git commit` and `git push`.
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, ROOT, sandbox, type Sandbox } from "./helpers.js";

type Context = { box: Sandbox; repo: string; git: (args: string[], env?: Record<string, string>, cwd?: string) => { code: number; out: string } };
const Guard = suite<Context>("claims guard with real git");
Guard.before.each((context) => {
  context.box = sandbox();
  context.repo = context.box.project;
  context.git = (args, env = {}, cwd = context.repo) => {
    const result = spawnSync("git", args, {
      cwd,
      env: cleanEnv({ CLAIMS_DIR: context.box.dir, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t", ...env }),
      encoding: "utf8",
    });
    return { code: result.status ?? -1, out: `${result.stdout}${result.stderr}` };
  };
  context.git(["init", "-q", "-b", "main"]);
  writeFileSync(join(context.repo, "a.ts"), "export function f() {\n  return 1;\n}\n\nexport function g() {\n  return 2;\n}\n");
  writeFileSync(join(context.repo, "b.txt"), "b\n");
  context.git(["add", "."]);
  context.git(["commit", "-qm", "init"]);
});
Guard.after.each((context) => context.box.cleanup());

const install = (context: Context, ...args: string[]) => claims(["guard", "install", ...args, "--dir", context.box.dir], { cwd: context.repo });
/** A bare repository beside it as origin, main pushed there. */
const withRemote = ({ git, box }: Context) => {
  const remote = join(box.root, "remote.git");
  spawnSync("git", ["init", "-q", "--bare", remote]);
  git(["remote", "add", "origin", remote]);
  git(["push", "-q", "origin", "main"]);
};
const hold = (context: Context, target: string, holder = "other", purpose = "rewriting it") =>
  claims(["take", target, "--dir", context.box.dir, "--holder", holder, "--purpose", purpose], { cwd: context.repo });

Guard("should refuse a commit touching another holder's claim, naming path, holder and purpose, and allow it once released", (context) => {
  const { git, repo } = context;
  assert.is(install(context).code, 0);
  hold(context, "b.txt");
  writeFileSync(join(repo, "b.txt"), "changed\n");
  git(["add", "b.txt"]);
  const refused = git(["commit", "-qm", "touch b"], { CLAIMS_HOLDER: "me" });
  assert.is.not(refused.code, 0);
  assert.match(refused.out, /b\.txt: held by other for "rewriting it"/);
  assert.match(refused.out, `(claims handover ${join(repo, "b.txt")} --purpose "...")`);
  claims(["release", "b.txt", "--dir", context.box.dir, "--holder", "other"], { cwd: repo });
  assert.is(git(["commit", "-qm", "touch b"], { CLAIMS_HOLDER: "me" }).code, 0);
});

Guard("should say, run with no holder, that your own claim counts as another's and how to commit as its holder", (context) => {
  const { git, repo } = context;
  install(context);
  hold(context, "b.txt", "session-a");
  writeFileSync(join(repo, "b.txt"), "changed\n");
  git(["add", "b.txt"]);
  const nobody = git(["commit", "-qm", "touch b"]);
  assert.is.not(nobody.code, 0);
  assert.match(nobody.out, "No holder is set for this git command (CLAIMS_HOLDER, or an agent's session), so every claim counts as another's: if it is yours, run it as its holder (CLAIMS_HOLDER=session-a git …).\n");
  const other = git(["commit", "-qm", "touch b"], { CLAIMS_HOLDER: "me" });
  assert.is.not(other.code, 0);
  assert.not.match(other.out, "No holder is set");
  assert.is(git(["commit", "-qm", "touch b"], { CLAIMS_HOLDER: "session-a" }).code, 0);
});

Guard("should check both names of a rename", (context) => {
  const { git } = context;
  install(context);
  hold(context, "./renamed.txt"); // not there yet: ./ makes it a path, not a name
  git(["mv", "b.txt", "renamed.txt"]);
  assert.is.not(git(["commit", "-qm", "rename"], { CLAIMS_HOLDER: "me" }).code, 0);
});

Guard("should allow the committer's own claims, shared claims of others, and untouched symbols", (context) => {
  const { git, repo } = context;
  install(context);
  hold(context, "b.txt", "me");
  claims(["take", "a.ts#f", "--dir", context.box.dir, "--holder", "other"], { cwd: repo });
  writeFileSync(join(repo, "b.txt"), "mine\n");
  writeFileSync(join(repo, "a.ts"), readFileSync(join(repo, "a.ts"), "utf8").replace("return 2", "return 3"));
  git(["add", "."]);
  assert.is(git(["commit", "-qm", "g only"], { CLAIMS_HOLDER: "me" }).code, 0);
  writeFileSync(join(repo, "a.ts"), readFileSync(join(repo, "a.ts"), "utf8").replace("return 1", "return 5"));
  git(["add", "."]);
  const touching = git(["commit", "-qm", "f"], { CLAIMS_HOLDER: "me" });
  assert.is.not(touching.code, 0);
  assert.match(touching.out, /a\.ts#f/);
});

Guard("should refuse a commit that declares a held symbol a second time or binds it anew, wherever the lines are", (context) => {
  const { git, repo } = context;
  install(context);
  claims(["take", "a.ts#f", "--dir", context.box.dir, "--holder", "other"], { cwd: repo });
  const original = readFileSync(join(repo, "a.ts"), "utf8");
  for (const added of ["\nexport function f() {\n  return 9;\n}\n", "\nif (globalThis.x) {\n  f = () => 9;\n}\n", "\nexport { g as f };\n", "\nexport function h() {\n  f = () => 9;\n}\n"]) {
    writeFileSync(join(repo, "a.ts"), original + added);
    git(["add", "a.ts"]);
    assert.is.not(git(["commit", "-qm", "below g"], { CLAIMS_HOLDER: "me" }).code, 0, added);
  }
  writeFileSync(join(repo, "a.ts"), `${original}\nexport const h = 1;\n`);
  git(["add", "a.ts"]);
  assert.is(git(["commit", "-qm", "h"], { CLAIMS_HOLDER: "me" }).code, 0, "a new name below is no change of f");
  // A binding of f in a function that is there already: a change of it changes f, a line beside it does not.
  writeFileSync(join(repo, "a.ts"), `${original}\nexport function k() {\n  f = () => 9;\n  return 0;\n}\n`);
  git(["add", "a.ts"]);
  assert.is(git(["commit", "-qm", "k"], { CLAIMS_HOLDER: "other" }).code, 0, "f's holder");
  const withK = readFileSync(join(repo, "a.ts"), "utf8");
  writeFileSync(join(repo, "a.ts"), withK.replace("() => 9", "() => 8"));
  git(["add", "a.ts"]);
  assert.is.not(git(["commit", "-qm", "k changes f"], { CLAIMS_HOLDER: "me" }).code, 0);
  writeFileSync(join(repo, "a.ts"), withK.replace("return 0", "return 7"));
  git(["add", "a.ts"]);
  assert.is(git(["commit", "-qm", "k"], { CLAIMS_HOLDER: "me" }).code, 0, "a line beside it");
});

Guard("should refuse a commit that binds a held symbol under another spelling of its name, through a Python star import, by a name computed when it runs, or changes it from outside", (context) => {
  const { git, repo } = context;
  install(context);
  writeFileSync(join(repo, "m.py"), "import os\n\n\ndef foo():\n    return 1\n\n\ndef bar():\n    return 2\n");
  git(["add", "m.py"]);
  git(["commit", "-qm", "m"]);
  claims(["take", "a.ts#f", "m.py#foo", "--dir", context.box.dir, "--holder", "other"], { cwd: repo });
  const commits = (file: string, text: string) => {
    const original = readFileSync(join(repo, file), "utf8");
    writeFileSync(join(repo, file), original + text);
    git(["add", file]);
    const code = git(["commit", "-qm", "below"], { CLAIMS_HOLDER: "me" }).code;
    writeFileSync(join(repo, file), original);
    git(["add", file]);
    return code === 0;
  };
  assert.not.ok(commits("a.ts", "\nexport function \\u0066() {\n  return 9;\n}\n"), "function \\u0066");
  assert.not.ok(commits("m.py", "\n\ndef \uff46oo():\n    return 666\n"), "def ｆoo");
  assert.not.ok(commits("m.py", "\n\nfrom fast import *\n"), "from fast import *");
  assert.not.ok(commits("m.py", '\n\nglobals()["fo" + "o"] = bar\n'), "globals()[…] = bar");
  assert.not.ok(commits("m.py", '\n\nexec("foo = bar")\n'), "exec");
  assert.not.ok(commits("m.py", "\n\nfoo.__code__ = bar.__code__\n"), "foo's code replaced from outside it");
  assert.ok(commits("m.py", "\n\ndef baz():\n    return '\u00e9t\u00e9'\n"), "a new function beside them");
});

Guard("should warn and allow with CLAIMS_GUARD=warn (once), skip with off, and not be bypassed by --no-verify", (context) => {
  const { git, repo } = context;
  install(context);
  hold(context, "b.txt");
  for (const [env, note] of [
    [{ CLAIMS_GUARD: "warn" }, /^claims guard: would refuse[^]*$/],
    [{ CLAIMS_GUARD: "off" }, /^$/],
  ] as const) {
    writeFileSync(join(repo, "b.txt"), `${Math.random()}\n`);
    git(["add", "b.txt"]);
    const result = git(["commit", "-qm", "x"], { CLAIMS_HOLDER: "me", ...env });
    assert.is(result.code, 0, result.out);
    assert.match(result.out.trim(), note);
    assert.is(result.out.split("would refuse").length, note.source === "^$" ? 1 : 2, "one warning, not one per hook");
  }
  // --no-verify skips pre-commit, not prepare-commit-msg: the habit of getting past a hook does not get past a claim.
  writeFileSync(join(repo, "b.txt"), "no-verify\n");
  git(["add", "b.txt"]);
  const skipped = git(["commit", "-qm", "x", "--no-verify"], { CLAIMS_HOLDER: "me" });
  assert.is.not(skipped.code, 0, skipped.out);
  assert.match(skipped.out, /b\.txt: held by other[^]*CLAIMS_GUARD=warn/);
});

Guard("should refuse the commits cherry-pick, revert, rebase and am make of a claimed file, which run no pre-commit", (context) => {
  const { git, repo, box } = context;
  git(["checkout", "-qb", "side"]);
  writeFileSync(join(repo, "b.txt"), "from side\n");
  git(["commit", "-qam", "side edits b"]);
  const side = git(["rev-parse", "HEAD"]).out.trim();
  spawnSync("git", ["format-patch", "-q", "-1", side, "-o", join(box.root, "patches")], { cwd: repo });
  git(["checkout", "-q", "main"]);
  writeFileSync(join(repo, "a.ts"), "// main\n");
  git(["commit", "-qam", "main edits a"]);
  install(context);
  hold(context, "b.txt");
  const me = { CLAIMS_HOLDER: "me" };
  const head = () => git(["rev-parse", "HEAD"]).out.trim();
  const before = head();
  const picked = git(["cherry-pick", side], me);
  assert.is.not(picked.code, 0, picked.out);
  assert.match(picked.out, /b\.txt: held by other for "rewriting it"/);
  assert.is(head(), before, "no commit made");
  git(["cherry-pick", "--abort"]);
  const applied = git(["am", "-q", join(box.root, "patches", readdirSync(join(box.root, "patches"))[0])], me);
  assert.is.not(applied.code, 0, applied.out);
  assert.match(applied.out, /b\.txt: held by other/);
  assert.is(head(), before);
  git(["am", "--abort"]);
  const rebased = git(["rebase", "-q", "main", "side"], me);
  assert.is.not(rebased.code, 0, rebased.out);
  assert.match(rebased.out, /b\.txt: held by other/);
  git(["rebase", "--abort"]);
  git(["checkout", "-q", "main"]);
  // What the guard lets through, it lets through: the same pick once the claim is the committer's own.
  claims(["release", "b.txt", "--dir", box.dir, "--holder", "other"], { cwd: repo });
  hold(context, "b.txt", "me");
  assert.is(git(["cherry-pick", side], me).code, 0);
  claims(["release", "b.txt", "--dir", box.dir, "--holder", "me"], { cwd: repo });
  hold(context, "b.txt");
  const reverted = git(["revert", "--no-edit", "HEAD"], me);
  assert.is.not(reverted.code, 0, reverted.out);
  assert.match(reverted.out, /b\.txt: held by other/);
});

Guard("should say nothing when nothing is wrong: no claim applies, or only the committer's own", (context) => {
  const { git, repo } = context;
  install(context);
  writeFileSync(join(repo, "b.txt"), "free\n");
  git(["add", "b.txt"]);
  const free = git(["commit", "-qm", "free"], { CLAIMS_HOLDER: "me" });
  assert.is(free.code, 0);
  assert.is(free.out, "");
  hold(context, "b.txt", "me");
  writeFileSync(join(repo, "b.txt"), "mine\n");
  git(["add", "b.txt"]);
  const mine = git(["commit", "-qm", "mine"], { CLAIMS_HOLDER: "me" });
  assert.is(mine.code, 0);
  assert.is(mine.out, "");
});

Guard("should take staged names with #, a tab or a newline as the files they are, in a commit and a push", (context) => {
  const { git, repo } = context;
  const names = ["a#b.ts", "tab\there.txt", "new\nline.txt", "[id].tsx"];
  withRemote(context);
  install(context, "--pre-push");
  for (const env of [{}, { CLAIMS_GUARD: "warn" }] as Array<Record<string, string>>) {
    for (const name of names) writeFileSync(join(repo, name), `${JSON.stringify(env)}\n`);
    git(["add", "."]);
    const free = git(["commit", "-qm", "odd names"], { CLAIMS_HOLDER: "me", ...env });
    assert.is(free.code, 0, free.out);
    assert.is(free.out, "", "no claims: nothing to say");
  }
  assert.is(git(["push", "-q", "origin", "main"], { CLAIMS_HOLDER: "me" }).code, 0);
  hold(context, "*"); // every file at the top of the repository
  for (const name of names) writeFileSync(join(repo, name), "y\n");
  git(["add", "."]);
  const refused = git(["commit", "-qm", "under a claim"], { CLAIMS_HOLDER: "me" });
  assert.is.not(refused.code, 0);
  // One line per path, its control characters shown escaped.
  assert.match(refused.out, /^ {2}\/.*\/tab\\there\.txt: covered by the claim on .*, held by other/m);
  assert.match(refused.out, /^ {2}\/.*\/new\\nline\.txt: covered by/m);
  assert.match(refused.out, /^ {2}\/.*\/a\\#b\.ts: covered by/m);
  const warned = git(["commit", "-qm", "under a claim"], { CLAIMS_HOLDER: "me", CLAIMS_GUARD: "warn" });
  assert.is(warned.code, 0);
  assert.match(warned.out, /would refuse[\s\S]*tab\\there\.txt/);
  const pushed = git(["push", "-q", "origin", "main"], { CLAIMS_HOLDER: "me" });
  assert.is.not(pushed.code, 0);
  assert.match(pushed.out, /new\\nline\.txt: covered by/);
});

Guard("should refuse to guess an unknown CLAIMS_GUARD value and say which are accepted; OFF in capitals is off", (context) => {
  const { git, repo } = context;
  install(context);
  hold(context, "b.txt");
  writeFileSync(join(repo, "b.txt"), "changed\n");
  git(["add", "b.txt"]);
  const bogus = git(["commit", "-qm", "x"], { CLAIMS_HOLDER: "me", CLAIMS_GUARD: "bogus" });
  assert.is.not(bogus.code, 0);
  assert.match(bogus.out, /CLAIMS_GUARD="bogus" .*on \(the default\), warn .* or off/);
  assert.not.match(bogus.out, /held by other/);
  const off = git(["commit", "-qm", "x"], { CLAIMS_HOLDER: "me", CLAIMS_GUARD: "OFF" });
  assert.is(off.code, 0, off.out);
  assert.is(off.out, "");
});

Guard("should keep an existing hook in the chain and put it back on uninstall", (context) => {
  const { git, repo } = context;
  const hook = join(repo, ".git", "hooks", "prepare-commit-msg");
  writeFileSync(hook, "#!/bin/sh\necho chained-hook-ran\nexit 0\n");
  chmodSync(hook, 0o755);
  install(context);
  writeFileSync(join(repo, "b.txt"), "x\n");
  git(["add", "b.txt"]);
  assert.match(git(["commit", "-qm", "x"], { CLAIMS_HOLDER: "me" }).out, /chained-hook-ran/);
  writeFileSync(hook + ".claims-chained", "#!/bin/sh\necho failing\nexit 1\n");
  writeFileSync(join(repo, "b.txt"), "y\n");
  git(["add", "b.txt"]);
  assert.is.not(git(["commit", "-qm", "y"], { CLAIMS_HOLDER: "me" }).code, 0, "a failing chained hook still stops the commit");
  writeFileSync(hook + ".claims-chained", "#!/bin/sh\necho original\n");
  assert.is(claims(["guard", "uninstall"], { cwd: repo }).code, 0);
  assert.is(readFileSync(hook, "utf8"), "#!/bin/sh\necho original\n");
  assert.not.ok(existsSync(hook + ".claims-chained"));
});

Guard("should install where git reads hooks: core.hooksPath, and from a linked worktree", (context) => {
  const { git, repo, box } = context;
  git(["config", "core.hooksPath", join(box.root, "my-hooks")]);
  assert.is(install(context).code, 0);
  assert.ok(existsSync(join(box.root, "my-hooks", "prepare-commit-msg")));
  git(["config", "--unset", "core.hooksPath"]);
  const worktree = join(box.root, "wt");
  git(["worktree", "add", "-q", worktree]);
  assert.is(claims(["guard", "install", "--dir", box.dir], { cwd: worktree }).code, 0);
  assert.ok(existsSync(join(repo, ".git", "hooks", "prepare-commit-msg")));
  hold(context, join(worktree, "b.txt"));
  writeFileSync(join(worktree, "b.txt"), "wt\n");
  git(["add", "b.txt"], {}, worktree);
  assert.is.not(git(["commit", "-qm", "wt"], { CLAIMS_HOLDER: "me" }, worktree).code, 0);
});

Guard("should say a bare repository or a git directory has no work tree to guard, rather than no repository", (context) => {
  const { box, repo } = context;
  const bare = join(box.root, "server.git");
  spawnSync("git", ["init", "-q", "--bare", bare]);
  const cases: Array<[string, RegExp]> = [
    [bare, /^claims: .*server\.git is a bare repository, with no work tree whose commits could be guarded; run claims guard in a clone of it \(or a worktree\)\.\n$/],
    [join(repo, ".git", "hooks"), /^claims: .*\.git\/hooks is inside the git directory of a repository; run claims guard from its work tree \(cd to the repository's top\)\.\n$/],
    [box.root, /^claims: .* is not inside a git repository; run claims guard from the repository \(or worktree\) it should guard\.\n$/],
  ];
  for (const [cwd, message] of cases) {
    const result = claims(["guard", "install", "--dir", box.dir], { cwd });
    assert.is(result.code, 2, cwd);
    assert.match(result.stderr, message);
  }
  assert.equal(readdirSync(join(bare, "hooks")).filter((name) => !name.endsWith(".sample")), [], "nothing installed there");
});

Guard("should judge a push by URL by the commits the remote does not have, not the whole history", (context) => {
  const { git, box, repo } = context;
  assert.is(install(context, "--pre-push").code, 0);
  const remote = join(box.root, "by-url.git");
  spawnSync("git", ["init", "-q", "--bare", remote]);
  assert.is(git(["push", "-q", remote, "main"]).code, 0, "b.txt pushed, with no remote-tracking branch: a push by URL");
  writeFileSync(join(repo, "c.txt"), "c\n");
  git(["add", "c.txt"]);
  git(["commit", "-qm", "c"], { CLAIMS_HOLDER: "me" });
  hold(context, "b.txt"); // claimed after the remote got the commit that made it
  const pushed = git(["push", "-q", remote, "main"], { CLAIMS_HOLDER: "me" });
  assert.is(pushed.code, 0, pushed.out);
  writeFileSync(join(repo, "b.txt"), "changed\n");
  git(["commit", "-qam", "b"], { CLAIMS_HOLDER: "me", CLAIMS_GUARD: "off" });
  const refused = git(["push", "-q", remote, "main"], { CLAIMS_HOLDER: "me" });
  assert.is.not(refused.code, 0);
  assert.match(refused.out, /b\.txt: held by other for "rewriting it"/);
});

Guard("should say in one sentence, not node's stack, that the claims it runs is gone, and still let CLAIMS_GUARD=off past", (context) => {
  const { git, repo, box } = context;
  // An install from a copy of claims (a clone, a global install) that is then removed.
  const copy = join(box.root, "old-install");
  for (const part of ["bin", "dist", "package.json"]) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  const installed = spawnSync(process.execPath, [join(copy, "bin", "claims.js"), "guard", "install", "--pre-push", "--dir", box.dir], { cwd: repo, env: cleanEnv(), encoding: "utf8" });
  assert.is(installed.status, 0, installed.stderr);
  rmSync(copy, { recursive: true, force: true });
  writeFileSync(join(repo, "b.txt"), "changed\n");
  git(["add", "b.txt"]);
  const refused = git(["commit", "-qm", "touch b"], { CLAIMS_HOLDER: "me" });
  assert.is(refused.code, 1);
  assert.is(
    refused.out,
    `claims guard: cannot check this: ${join(copy, "bin", "claims.js")} or the node that runs it, ${process.execPath}, is not there any more; run claims guard install again in this repository (or claims guard uninstall), or CLAIMS_GUARD=off before the git command to skip the check.\n`,
  );
  const past = git(["commit", "-qm", "touch b"], { CLAIMS_HOLDER: "me", CLAIMS_GUARD: "Off" });
  assert.is(past.code, 0, past.out);
  assert.match(past.out, /^claims guard: not checked: .*old-install\/bin\/claims\.js or .* is not there any more\.\n$/);
  assert.is(install(context).code, 0, "installed again from where claims is now");
  assert.is(git(["commit", "--allow-empty", "-qm", "again"], { CLAIMS_HOLDER: "me" }).code, 0);
});

Guard("should leave a hooks folder inside the repository (core.hooksPath = .githooks) alone unless --force", (context) => {
  const { git, repo } = context;
  mkdirSync(join(repo, ".githooks"));
  writeFileSync(join(repo, ".githooks", "prepare-commit-msg"), "#!/bin/sh\nnpm run lint\n");
  chmodSync(join(repo, ".githooks", "prepare-commit-msg"), 0o755);
  git(["add", ".githooks"]);
  git(["commit", "-qm", "shared hooks"]);
  git(["config", "core.hooksPath", ".githooks"]);
  const refused = install(context);
  assert.is(refused.code, 2);
  assert.match(refused.stderr, /inside the repository \(core\.hooksPath\).*npx --no claims guard check --hook prepare-commit-msg.*--force/, "npx --no: never a package of that name fetched from the registry");
  assert.is(git(["status", "--porcelain"]).out, "", "no tracked file changed, nothing added");
  assert.is(install(context, "--force").code, 0);
  assert.match(readFileSync(join(repo, ".githooks", "prepare-commit-msg"), "utf8"), /claims guard/);
});

Guard("should replace the pre-commit and pre-merge-commit hooks an earlier install wrote, putting back what they chained", (context) => {
  const { git, repo } = context;
  const hooks = join(repo, ".git", "hooks");
  // As an earlier version left them: its pre-commit chaining the user's, its own pre-merge-commit.
  const earlier = (name: string) => `#!/bin/sh\n# claims guard: installed by \`claims guard install\`\nexec false ${name}\n`;
  writeFileSync(join(hooks, "pre-commit"), earlier("pre-commit"));
  writeFileSync(join(hooks, "pre-commit.claims-chained"), "#!/bin/sh\necho users-own-hook\n");
  writeFileSync(join(hooks, "pre-merge-commit"), earlier("pre-merge-commit"));
  for (const name of ["pre-commit", "pre-commit.claims-chained", "pre-merge-commit"]) chmodSync(join(hooks, name), 0o755);
  // An install that cannot finish (a chained hook's name taken) changes nothing: the earlier guard stays.
  writeFileSync(join(hooks, "prepare-commit-msg"), "#!/bin/sh\nexit 0\n");
  writeFileSync(join(hooks, "prepare-commit-msg.claims-chained"), "#!/bin/sh\nexit 0\n");
  assert.is(install(context).code, 2);
  assert.is(readFileSync(join(hooks, "pre-commit"), "utf8"), earlier("pre-commit"));
  rmSync(join(hooks, "prepare-commit-msg.claims-chained"));
  const installed = install(context);
  assert.is(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /removed this guard's earlier pre-commit and pre-merge-commit/);
  assert.is(readFileSync(join(hooks, "pre-commit"), "utf8"), "#!/bin/sh\necho users-own-hook\n");
  assert.not.ok(existsSync(join(hooks, "pre-merge-commit")));
  writeFileSync(join(repo, "b.txt"), "x\n");
  git(["add", "b.txt"]);
  const committed = git(["commit", "-qm", "x"], { CLAIMS_HOLDER: "me" });
  assert.is(committed.code, 0, committed.out);
  assert.match(committed.out, /users-own-hook/);
});

Guard("should refuse a push of commits no remote has that touch a claimed path", (context) => {
  const { git, repo, box } = context;
  withRemote(context);
  install(context, "--pre-push");
  writeFileSync(join(repo, "b.txt"), "pushed\n");
  git(["add", "b.txt"]);
  git(["commit", "-qm", "b"], { CLAIMS_GUARD: "off" });
  hold(context, "b.txt");
  const refused = git(["push", "-q", "origin", "main"], { CLAIMS_HOLDER: "me" });
  assert.is.not(refused.code, 0);
  assert.match(refused.out, /git push --no-verify/);
  claims(["release", "b.txt", "--dir", box.dir, "--holder", "other"], { cwd: repo });
  assert.is(git(["push", "-q", "origin", "main"], { CLAIMS_HOLDER: "me" }).code, 0);
});

Guard("should judge a staged file at its own name when the work tree has swapped it for a link, in a commit and a push", (context) => {
  const { git, repo, box } = context;
  withRemote(context);
  install(context, "--pre-push");
  hold(context, "b.txt");
  writeFileSync(join(repo, "b.txt"), "their file, my edit\n");
  git(["add", "b.txt"]);
  // The index holds the edit of b.txt; the work tree's b.txt now leads to a file nobody claims.
  renameSync(join(repo, "b.txt"), join(box.root, "b.keep"));
  symlinkSync("a.ts", join(repo, "b.txt"));
  assert.is.not(git(["commit", "-qm", "edit b"], { CLAIMS_HOLDER: "me" }).code, 0, "the commit");
  git(["commit", "-qm", "edit b"], { CLAIMS_GUARD: "off" });
  assert.is.not(git(["push", "-q", "origin", "main"], { CLAIMS_HOLDER: "me" }).code, 0, "the push");
});

Guard("should refuse a merge bringing in a change of a claimed file, at the merge and at the push, and a submodule set to be ignored", (context) => {
  const { git, repo, box } = context;
  withRemote(context);
  git(["checkout", "-qb", "side"]);
  writeFileSync(join(repo, "b.txt"), "from side\n");
  git(["commit", "-qam", "side edits b"]);
  git(["push", "-q", "origin", "side"]); // on a remote already: the push of the merge alone brings it
  git(["checkout", "-q", "main"]);
  writeFileSync(join(repo, "a.ts"), "// main\n");
  git(["commit", "-qam", "main edits a"]);
  install(context, "--pre-push");
  hold(context, "b.txt");
  const merged = git(["merge", "-q", "--no-edit", "side"], { CLAIMS_HOLDER: "me" });
  assert.is.not(merged.code, 0, "git merge runs pre-merge-commit, not pre-commit");
  assert.match(merged.out, /b\.txt: held by other/);
  assert.match(merged.out, /CLAIMS_GUARD=warn/);
  assert.is.not(git(["commit", "-qm", "merged", "--no-verify"], { CLAIMS_HOLDER: "me" }).code, 0, "concluding the merge by hand, past pre-commit");
  git(["commit", "-qm", "merged"], { CLAIMS_GUARD: "off" });
  assert.is.not(git(["push", "-q", "origin", "main"], { CLAIMS_HOLDER: "me" }).code, 0, "the merge commit, against its first parent");
  // A submodule whose .gitmodules says ignore = all still shows its new commit to the guard.
  const lib = join(box.root, "lib");
  spawnSync("git", ["init", "-q", lib]);
  spawnSync("git", ["-C", lib, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "v1"]);
  git(["-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib"]);
  git(["config", "-f", ".gitmodules", "submodule.vendor/lib.ignore", "all"]);
  git(["add", ".gitmodules"]);
  git(["commit", "-qm", "sub"], { CLAIMS_GUARD: "off" });
  hold(context, "vendor/");
  spawnSync("git", ["-C", join(repo, "vendor", "lib"), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "v2"]);
  git(["add", "vendor/lib"]);
  assert.is.not(git(["commit", "-qm", "bump"], { CLAIMS_HOLDER: "me" }).code, 0, "the submodule's bump");
});

Guard("should judge a path where its package's .claims sent it even when the commit removes it, moves it aside or points it elsewhere", (context) => {
  const { git, repo, box } = context;
  mkdirSync(join(repo, "pkg"));
  const config = join(repo, "pkg", ".claims");
  writeFileSync(config, JSON.stringify({ dir: join(box.root, "pkg-claims") }));
  writeFileSync(join(repo, "pkg", "f.ts"), "export const x = 1;\n");
  git(["add", "pkg"]);
  git(["commit", "-qm", "pkg"]);
  install(context);
  const env = { HOME: box.root };
  assert.is(claims(["take", "f.ts", "--holder", "other", "--purpose", "theirs"], { cwd: join(repo, "pkg"), env }).code, 0);
  const commit = () => spawnSync("git", ["commit", "-qm", "x"], { cwd: repo, env: cleanEnv({ ...env, CLAIMS_HOLDER: "me", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" }), encoding: "utf8" });
  writeFileSync(join(repo, "pkg", "f.ts"), "export const x = 2;\n");
  git(["add", "pkg/f.ts"]);
  git(["rm", "-q", "--cached", "pkg/.claims"]);
  assert.is.not(commit().status, 0, "removed in the same commit");
  git(["add", "pkg/.claims"]);
  renameSync(config, join(box.root, "aside"));
  assert.is.not(commit().status, 0, "moved aside in the work tree alone");
  renameSync(join(box.root, "aside"), config);
  writeFileSync(config, JSON.stringify({ dir: join(box.root, "elsewhere") }));
  git(["add", "pkg/.claims"]);
  assert.is.not(commit().status, 0, "pointed at another directory in the same commit");
});

Guard("should refuse a commit of a file claimed where sessions not pinning CLAIMS_DIR claim, and one a session pinning its own directory claimed", (context) => {
  const { git, repo, box } = context;
  assert.is(install(context).code, 0);
  const home = { HOME: box.root };
  // This commit pins CLAIMS_DIR (box.dir); the holder claimed b.txt in the default directory.
  assert.is(claims(["take", "b.txt", "--holder", "other", "--purpose", "unpinned"], { cwd: repo, env: home }).code, 0);
  writeFileSync(join(repo, "b.txt"), "changed\n");
  git(["add", "b.txt"]);
  const pinnedCommit = git(["commit", "-qm", "touch b"], { ...home, CLAIMS_HOLDER: "me" });
  assert.is.not(pinnedCommit.code, 0, pinnedCommit.out);
  assert.match(pinnedCommit.out, /b\.txt: held by other for "unpinned"/);
  assert.is(claims(["release", "b.txt", "--holder", "other"], { cwd: repo, env: home }).code, 0);
  // The other way round: this commit pins nothing; the holder pinned a directory of its own.
  assert.is(claims(["take", "b.txt", "--holder", "other", "--purpose", "pinned"], { cwd: repo, env: { ...home, CLAIMS_DIR: join(box.root, "own") } }).code, 0);
  const unpinnedCommit = git(["commit", "-qm", "touch b"], { ...home, CLAIMS_DIR: "", CLAIMS_HOLDER: "me" });
  assert.is.not(unpinnedCommit.code, 0, unpinnedCommit.out);
  assert.match(unpinnedCommit.out, /b\.txt: held by other for "pinned"/);
  // A handover from here would queue where no grant of it is made: the guard says so.
  assert.ok(unpinnedCommit.out.includes(`the claim is in the claims directory ${join(box.root, "own")}, where a queue from here cannot wait for it`), unpinnedCommit.out);
  assert.not.match(unpinnedCommit.out, /claims handover/);
});

Guard("should say what it expects when pre-push input is not git's, exit 2 and refusing the push", (context) => {
  const run = spawnSync(process.execPath, [BIN, "guard", "check", "--hook", "pre-push", "--dir", context.box.dir], { cwd: context.repo, input: "line of junk\n", env: cleanEnv(), encoding: "utf8" });
  assert.is(run.status, 2);
  assert.match(run.stderr, /^claims: pre-push input "line of junk" is not a line as git gives it \(<local ref> <local sha> <remote ref> <remote sha>\)[^\n]*\.\n$/);
});

Guard("should say what to do outside a repository", ({ box }) => {
  mkdirSync(join(box.root, "plain"));
  const result = claims(["guard", "install"], { cwd: join(box.root, "plain") });
  assert.is(result.code, 2);
  assert.match(result.stderr, /not inside a git repository/);
});

Guard.run();
