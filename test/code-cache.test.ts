// The CLI is compiled with a V8 code cache beside the bundle (bin/claims.js, scripts/code-cache.cjs).
// What a user depends on: the cache `npm run build` writes is the one the CLI uses (V8 accepts it,
// so it is not rewritten by the first call), and a cache V8 rejects (another Node version, a
// damaged file) costs nothing but a rewrite. Each case runs a copy of the CLI in a sandbox.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { cleanEnv, ROOT, sandbox, type Sandbox } from "./helpers.js";

const Cache = suite<{ box: Sandbox }>("the code cache");
Cache.before.each((context) => {
  context.box = sandbox();
});
Cache.after.each((context) => context.box.cleanup());

/** A copy of the built CLI, with the cache as built, and node_modules reachable. */
function copyOfCli(box: Sandbox): { bin: string; cache: string } {
  const app = join(box.root, "app");
  for (const dir of ["bin", "dist"]) mkdirSync(join(app, dir), { recursive: true });
  for (const file of ["bin/claims.js", "bin/package.json", "dist/cli.cjs", "dist/cli.cjs.v8cache", "package.json"]) copyFileSync(join(ROOT, file), join(app, file));
  return { bin: join(app, "bin", "claims.js"), cache: join(app, "dist", "cli.cjs.v8cache") };
}

function run(bin: string, args: string[], input?: string) {
  return spawnSync(process.execPath, [bin, ...args], { env: cleanEnv(), encoding: "utf8", ...(input !== undefined && { input }) });
}

Cache("should be written by the build and used unchanged by take, check, release and the hook", ({ box }) => {
  assert.ok(existsSync(join(ROOT, "dist", "cli.cjs.v8cache")), "npm run build wrote no dist/cli.cjs.v8cache");
  const { bin, cache } = copyOfCli(box);
  const built = readFileSync(cache);
  const flags = ["--dir", box.dir, "--holder", "a"];
  const path = join(box.project, "a.ts");
  writeFileSync(path, "export const a = 1;\n");
  assert.is(run(bin, ["take", path, ...flags]).status, 0);
  assert.is(run(bin, ["check", path, ...flags]).status, 0);
  assert.is(run(bin, ["release", path, ...flags]).status, 0);
  const event = { session_id: "s1", hook_event_name: "PreToolUse", cwd: box.project, tool_name: "Edit", tool_input: { file_path: path, old_string: "1", new_string: "2" } };
  assert.is(run(bin, ["hook", "claude", "--dir", box.dir], JSON.stringify(event)).status, 0);
  assert.ok(readFileSync(cache).equals(built), "the CLI rewrote the cache the build wrote: V8 rejected it");
});

Cache("should answer as usual with a damaged cache, and replace it", ({ box }) => {
  const { bin, cache } = copyOfCli(box);
  writeFileSync(cache, "not a code cache");
  const taken = run(bin, ["take", "shared-config", "--dir", box.dir, "--holder", "a"]);
  assert.is(taken.status, 0, taken.stderr);
  assert.match(taken.stdout, /granted shared-config/);
  assert.is.not(readFileSync(cache, "utf8"), "not a code cache");
  const refused = run(bin, ["take", "shared-config", "--dir", box.dir, "--holder", "b"]);
  assert.is(refused.status, 3);
});

Cache("should say how to build it when the bundle is missing", ({ box }) => {
  const { bin } = copyOfCli(box);
  rmSync(join(box.root, "app", "dist", "cli.cjs"));
  const result = run(bin, ["take", "shared-config", "--dir", box.dir, "--holder", "a"]);
  assert.is(result.status, 1);
  assert.match(result.stderr, /^claims: the CLI is not built \(.*cli\.cjs: ENOENT\); run npm ci, or npm run build, in .*\.\n$/);
  assert.not.ok(existsSync(box.dir), "nothing may be written");
});

Cache.run();
