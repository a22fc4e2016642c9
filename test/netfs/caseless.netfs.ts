// A case-insensitive file system (macOS's and Windows' default, here over FUSE): `Proj/A.ts`,
// `proj/a.ts` and `PROJ/a.TS` are one file, so they are one target. Two sessions whose shells
// reached the project in two cases (`cd ~/Projects/app`, `cd ~/projects/App`) must refuse each
// other, through take, check, the hook and a shell command. On a file system that keeps case
// apart, two cases stay two files (test/take-cli.test.ts).
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv } from "../helpers.js";
import { connect } from "../mcp/connect.js";
import { missingPrerequisite, startCaseless } from "./servers.js";
import { run, type Machine } from "./machines.js";

interface Context {
  fs: { mount: string; stop(): void };
  dir: string;
  /** A home of the test's own: its pinned takes leave pointers in the default claims directory, which an earlier test's must not share (their claims are on the same paths). */
  home: string;
}

const test = suite<Context>("claims on a case-insensitive file system");
const missing = missingPrerequisite();
if (missing) {
  console.log(`\n  SKIPPED: the caseless suite needs root and /dev/fuse on Linux (${missing}).\n`);
  test.skip("should take one file in two cases once", () => undefined);
} else {
  test.before(async (context) => {
    context.fs = await startCaseless();
  });
  test.after((context) => context.fs?.stop());
  test.before.each((context) => {
    rmSync(join(context.fs.mount, "Proj"), { recursive: true, force: true });
    mkdirSync(join(context.fs.mount, "Proj", "Src"), { recursive: true });
    writeFileSync(join(context.fs.mount, "Proj", "Src", "Button.tsx"), "export const Button = 1;\n");
    const suffix = Math.random().toString(36).slice(2);
    context.dir = join(context.fs.mount, "..", `store-${suffix}`);
    context.home = join(context.fs.mount, "..", `home-${suffix}`);
  });

  const as = (context: Context, holder: string, cwd: string, ...args: string[]) => claims([...args, "--dir", context.dir, "--holder", holder], { cwd: join(context.fs.mount, cwd), env: { HOME: context.home } });

  test("should refuse a file to a second holder who names it in another case, and a directory above it", (context) => {
    assert.is(as(context, "a", "Proj", "take", "Src/Button.tsx", "--purpose", "restyle").code, 0);
    const other = as(context, "b", "proj", "take", "src/button.TSX");
    assert.is(other.code, 3, other.stdout + other.stderr);
    assert.match(other.stdout, /held by a .*restyle/);
    assert.is(as(context, "c", "PROJ", "take", "SRC/").code, 3);
    assert.is(as(context, "d", "proj", "check", "src/BUTTON.tsx").code, 3, "a write in another case is refused");
    assert.is(as(context, "a", "proj", "release", "SRC/button.tsx").code, 0, "the holder releases it in any case");
    assert.is(as(context, "b", "proj", "take", "src/button.TSX").code, 0);
  });

  test("should refuse a file not created yet, and a glob, in another case", (context) => {
    assert.is(as(context, "a", "Proj", "take", "Src/New.ts").code, 0);
    assert.is(as(context, "b", "proj", "take", "src/new.TS").code, 3);
    assert.is(as(context, "g", "PROJ", "take", "Lib/*.TS").code, 0);
    mkdirSync(join(context.fs.mount, "proj", "lib"));
    assert.is(as(context, "h", "Proj", "check", "LIB/x.ts").code, 3, "a file the glob matches, in another case");
    assert.is(as(context, "h", "Proj", "check", "LIB/x.js").code, 0, "one it does not match");
  });

  test("should refuse a glob whose bracket, folded, would miss a file it matches as written", (context) => {
    // Folded, [A-z] is [a-z] (no `_`), [Z-a] is [z-a] (nothing), [^A-Z] is [^a-z] (no `a`): each was
    // granted, and a write of a file its text matches let through.
    for (const glob of ["Src/[A-z]oo.ts", "Src/[Z-a]q.ts", "Src/[^A-Z]x.ts", "Src/[!a-z]x.ts"]) {
      const refused = as(context, "a", "Proj", "take", glob);
      assert.is(refused.code, 2, `${glob}: ${refused.stdout}`);
      assert.match(refused.stderr, /ignores case, where a glob is matched in lower case, and \[.*\] in lower case leaves out characters it matches as written/);
    }
    assert.is(as(context, "b", "proj", "check", "src/_oo.ts").code, 0, "nothing was taken");
    assert.is(as(context, "a", "Proj", "take", "Src/[A-Z]*.TS").code, 0, "a range of capitals folds to the small letters");
    assert.is(as(context, "b", "proj", "check", "src/zed.ts").code, 3);
    assert.is(as(context, "c", "Proj", "take", "Src/[^0-9]x.ts").code, 3, "a negation of no letter folds as it is, and meets the glob");
  });

  test("should refuse a glob whose bracket inside !( ), folded, would leave out a file it matches as written", (context) => {
    // Folded, !([A-Z]*).ts is !([a-z]*).ts, which leaves out every name that starts with a letter:
    // it was granted, and a write of foo.ts (which the glob as written matches) let through.
    for (const glob of ["Src/!([A-Z]*).ts", "Src/!([a-z]*).ts", "Src/!([A-Z]*)/**"]) {
      const refused = as(context, "a", "Proj", "take", glob);
      assert.is(refused.code, 2, `${glob}: ${refused.stdout}`);
      assert.match(refused.stderr, /ignores case, where a glob is matched in lower case, and \[.-.\] in lower case .* or inside !\( \) matches characters it does not/);
    }
    assert.is(as(context, "b", "proj", "check", "src/foo.ts").code, 0, "nothing was taken");
    assert.is(as(context, "a", "Proj", "take", "Src/!([a-zA-Z]*).ts").code, 0, "letters in both cases fold as they are");
    assert.is(as(context, "b", "proj", "check", "src/1.ts").code, 3);
    assert.is(as(context, "a", "Proj", "take", "Src/!(X)/**").code, 0, "a name left out is one directory in any case");
    assert.is(as(context, "b", "proj", "check", "src/lib/a.ts").code, 3);
    assert.is(as(context, "b", "proj", "check", "src/x/a.ts").code, 0);
  });

  test("should reserve over MCP inside a project_key named in another case, and refuse the file to a claim in a third", async (context) => {
    const server = await connect({ cwd: join(context.fs.mount, "proj"), args: ["--dir", context.dir], env: { HOME: context.home } });
    try {
      const reserved = await server.call("file_reservation_paths", { project_key: join(context.fs.mount, "PROJ"), agent_name: "BlueLake", paths: ["Src/Button.tsx", "src/*.TS"], reason: "restyle" });
      assert.not.ok(reserved.isError, reserved.text);
      assert.equal(reserved.value.granted.map((grant: { path_pattern: string }) => grant.path_pattern).sort(), ["src/*.ts", "src/button.tsx"]);
      const claimed = await server.call("claim", { paths: [join(context.fs.mount, "Proj", "SRC", "BUTTON.TSX")], actor: "GreenCastle" });
      assert.is(claimed.value.granted, false, claimed.text);
      assert.match(claimed.text, /BlueLake/);
    } finally {
      await server.close();
    }
    assert.is(as(context, "c", "Proj", "check", "Src/util.ts").code, 3, "the glob in another case covers it");
  });

  test("should fold alike however the path is spelled: a new file in an empty directory, a name with ß", (context) => {
    mkdirSync(join(context.fs.mount, "proj", "newdir"));
    assert.is(as(context, "a", "proj", "take", "newdir/Index.ts").code, 0);
    assert.is(as(context, "b", "proj", "take", "newdir/index.ts").code, 3, "the same file once it is created");
    writeFileSync(join(context.fs.mount, "proj", "newdir", "Index.ts"), "");
    assert.is(as(context, "z", "proj", "check", "newdir/INDEX.ts").code, 3);
    assert.is(as(context, "a", "proj", "release", "newdir/Index.ts").code, 0);
    mkdirSync(join(context.fs.mount, "Weiß", "Proj"), { recursive: true });
    writeFileSync(join(context.fs.mount, "Weiß", "Proj", "A.ts"), "");
    assert.is(as(context, "a", "Weiß/Proj", "take", "A.ts").code, 0);
    assert.is(as(context, "b", "weiß/proj", "take", "./a.ts").code, 3);
    assert.is(as(context, "c", "WEIß/PROJ", "check", "./A.TS").code, 3);
  });

  test("should fold names without an ASCII letter, met first on the file system", (context) => {
    // A fresh process meets the Cyrillic names before any other on this file system, and no other is there.
    for (const name of readdirSync(context.fs.mount)) rmSync(join(context.fs.mount, name), { recursive: true, force: true });
    mkdirSync(join(context.fs.mount, "Документы", "Проект", "src"), { recursive: true });
    writeFileSync(join(context.fs.mount, "Документы", "Проект", "src", "a.ts"), "");
    assert.is(as(context, "a", "Документы/Проект", "take", "src/a.ts").code, 0);
    assert.is(as(context, "b", "документы/проект", "take", "src/a.ts").code, 3);
    assert.is(as(context, "c", "ДОКУМЕНТЫ/ПРОЕКТ", "check", "SRC/A.TS").code, 3);
  });

  test("should keep one claims directory for a .claims \"dir\" whatever case the session's directory is spelled in", (context) => {
    writeFileSync(join(context.fs.mount, "Proj", ".claims"), JSON.stringify({ dir: ".store" }));
    const inside = (holder: string, cwd: string, ...args: string[]) => claims([...args, "--holder", holder], { cwd: join(context.fs.mount, cwd), env: { HOME: join(context.fs.mount, "..") } });
    const taken = inside("a", "Proj", "take", "Src/Button.tsx", "shared-config");
    assert.is(taken.code, 0, taken.stdout + taken.stderr);
    assert.not.match(taken.stderr, /claimed in/, "no note of another claims directory: it is this one");
    assert.is(inside("b", "proj", "take", "SRC/button.tsx").code, 3);
    const beat = inside("a", "PROJ", "beat", "--json");
    assert.is(JSON.parse(beat.stdout).renewed.length, 2, beat.stdout);
    assert.is(inside("a", "Proj", "release").code, 0);
  });

  test("should ask for --force to take the home directory named in another case", (context) => {
    mkdirSync(join(context.fs.mount, "Home", "code"), { recursive: true });
    const result = claims(["take", join(context.fs.mount, "home") + "/", "--dir", context.dir, "--holder", "a"], { cwd: join(context.fs.mount, "Home", "code"), env: { HOME: join(context.fs.mount, "Home") } });
    assert.is(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /home directory/);
  });

  test("should deny an agent's edit and shell write of a file held under another case", (context) => {
    assert.is(as(context, "a", "Proj", "take", "Src/Button.tsx").code, 0);
    const hook = (toolName: string, toolInput: object) =>
      spawnSync(process.execPath, [BIN, "hook", "claude"], {
        input: JSON.stringify({ session_id: "s2", cwd: join(context.fs.mount, "PROJ"), hook_event_name: "PreToolUse", tool_name: toolName, tool_input: toolInput }),
        env: cleanEnv({ CLAIMS_DIR: context.dir, HOME: context.home }),
        encoding: "utf8",
      });
    for (const result of [
      hook("Edit", { file_path: join(context.fs.mount, "proj", "src", "button.tsx"), old_string: "1", new_string: "2" }),
      hook("Bash", { command: "echo 2 > SRC/BUTTON.TSX" }),
      hook("Bash", { command: 'cd "$(git rev-parse --show-toplevel)/Src" && rm Button.tsx' }),
    ]) {
      assert.is(result.status, 0, result.stderr);
      assert.is(JSON.parse(result.stdout).hookSpecificOutput?.permissionDecision, "deny", result.stdout);
    }
  });

  test("should refuse a file through a bind mount of a directory on it, the mount table naming it in its own case", async (context) => {
    // `mount --bind …/Proj bound`: the table's root is `/Proj`, where targets below the mount say `proj`.
    const bound = join(context.fs.mount, "..", `bound-${Math.random().toString(36).slice(2)}`);
    mkdirSync(bound);
    const machine: Machine = {
      name: "a session seeing the bind mount",
      wrap: (command) => ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", 'mount --bind "$0" "$1" && shift && exec "$@"', join(context.fs.mount, "Proj"), bound, ...command],
    };
    const take = (holder: string, path: string) => run(machine, ["take", path, "--dir", context.dir, "--holder", holder], { HOME: context.home });
    assert.is((await take("a", join(context.fs.mount, "Proj", "Src", "Button.tsx"))).code, 0);
    const other = await take("b", join(bound, "Src", "Button.tsx"));
    assert.is(other.code, 3, `granted through the bind mount: ${other.stdout}${other.stderr}`);
    assert.is((await take("b", join(bound, "Src", "New.tsx"))).code, 0);
    assert.is((await take("a", join(context.fs.mount, "PROJ", "src", "new.tsx"))).code, 3, "and the other way round");
    rmSync(bound, { recursive: true, force: true });
  });

  test("should judge a claim whose file a name in another case shares by the claim's own TTL, not the reader's", (context) => {
    // On a claims directory that ignores case, `Deploy.json` is also `deploy.json`: a take of the
    // name `deploy` reads the claim of `Deploy`. Judged as an unreadable file by its mtime against
    // the reader's TTL, a claim with a longer TTL, beaten 31 minutes ago, was taken over fresh.
    const store = join(context.fs.mount, `names-${Math.random().toString(36).slice(2)}`);
    const on = (holder: string, ...args: string[]) => claims([...args, "--dir", store, "--holder", holder], { cwd: context.fs.mount, env: { HOME: context.home } });
    assert.is(on("a", "take", "name:Deploy", "--ttl", "7200", "--purpose", "release train").code, 0);
    const [file] = readdirSync(store).filter((name) => name.endsWith(".json"));
    const path = join(store, file);
    const before = new Date(Date.now() - 31 * 60 * 1000);
    writeFileSync(path, readFileSync(path, "utf8").replace(/"heartbeat_at": *"[^"]*"/, `"heartbeat_at": "${before.toISOString().replace(/\.\d+Z$/, "Z")}"`));
    utimesSync(path, before, before);
    const refused = on("b", "take", "name:deploy");
    assert.is(refused.code, 3, refused.stdout + refused.stderr);
    assert.match(readFileSync(path, "utf8"), /"holder": *"a"/, "a's claim is still there");
    assert.is(on("a", "beat", "name:Deploy").code, 0, "and a still holds it");
    rmSync(store, { recursive: true, force: true });
  });

  test("should refuse a file in another case where the file system numbers inodes per name looked up (exFAT through FUSE)", async (context) => {
    const other = await startCaseless({ lookupInodes: true });
    try {
      mkdirSync(join(other.mount, "Usb", "Src"), { recursive: true });
      writeFileSync(join(other.mount, "Usb", "Src", "Button.ts"), "export const Button = 1;\n");
      const on = (holder: string, ...args: string[]) => claims([...args, "--dir", context.dir, "--holder", holder], { cwd: other.mount, env: { HOME: context.home } });
      assert.is(on("a", "take", "Usb/Src/Button.ts").code, 0);
      const refused = on("b", "take", "usb/src/button.ts");
      assert.is(refused.code, 3, refused.stdout + refused.stderr);
      assert.is(on("c", "take", "USB/SRC/").code, 3);
      assert.is(on("d", "check", "usb/SRC/BUTTON.TS").code, 3);
    } finally {
      other.stop();
    }
  });
}
test.run();
