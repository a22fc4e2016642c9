// The CLI is compiled with V8 code caches beside its bundles (bin/claims.js, scripts/bundle.mjs):
// dist/cli.cjs.v8cache, and one for each hot verb's bundle, dist/hot-<verb>.cjs. What a user depends on: the caches
// `npm run build` writes are the ones the CLI uses (V8 accepts them, so the first calls do not
// rewrite them), a cache V8 rejects (another Node version, a damaged file) costs nothing but a
// rewrite, and a call a hot bundle hands on (help) leaves no cache of its own behind that would
// hold none of the verb's code. Each case runs a copy of the CLI in a sandbox.
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

const HOT_VERBS = ["take", "beat", "check", "release", "hook"];
const BUNDLES = ["cli.cjs", ...HOT_VERBS.map((verb) => `hot-${verb}.cjs`)];
const CACHES = BUNDLES.map((bundle) => `${bundle}.v8cache`);

/** A copy of the built CLI, with the caches as built, and node_modules reachable. */
function copyOfCli(box: Sandbox): { bin: string; dist: string } {
  const app = join(box.root, "app");
  for (const dir of ["bin", "dist"]) mkdirSync(join(app, dir), { recursive: true });
  for (const file of ["bin/claims.js", "bin/package.json", ...BUNDLES.map((bundle) => `dist/${bundle}`), ...CACHES.map((cache) => `dist/${cache}`), "package.json"]) {
    copyFileSync(join(ROOT, file), join(app, file));
  }
  return { bin: join(app, "bin", "claims.js"), dist: join(app, "dist") };
}

function run(bin: string, args: string[], input?: string) {
  return spawnSync(process.execPath, [bin, ...args], { env: cleanEnv(), encoding: "utf8", ...(input !== undefined && { input }) });
}

Cache("should be written by the build and used unchanged by take, beat, check, release, the hook and status", ({ box }) => {
  for (const cache of CACHES) assert.ok(existsSync(join(ROOT, "dist", cache)), `npm run build wrote no dist/${cache}`);
  const { bin, dist } = copyOfCli(box);
  const built = CACHES.map((cache) => readFileSync(join(dist, cache)));
  const flags = ["--dir", box.dir, "--holder", "a"];
  const path = join(box.project, "a.ts");
  writeFileSync(path, "export const a = 1;\n");
  assert.is(run(bin, ["take", path, ...flags]).status, 0);
  assert.is(run(bin, ["beat", path, ...flags]).status, 0);
  assert.is(run(bin, ["check", path, ...flags]).status, 0);
  assert.is(run(bin, ["status", ...flags]).status, 0);
  assert.is(run(bin, ["release", path, ...flags]).status, 0);
  const event = { session_id: "s1", hook_event_name: "PreToolUse", cwd: box.project, tool_name: "Edit", tool_input: { file_path: path, old_string: "1", new_string: "2" } };
  assert.is(run(bin, ["hook", "claude", "--dir", box.dir], JSON.stringify(event)).status, 0);
  CACHES.forEach((cache, index) => assert.ok(readFileSync(join(dist, cache)).equals(built[index] as Buffer), `the CLI rewrote dist/${cache} as the build wrote it: V8 rejected it`));
});

Cache("should leave a hot verb's cache unwritten by a call it hands on to the full CLI", ({ box }) => {
  const { bin, dist } = copyOfCli(box);
  rmSync(join(dist, "hot-take.cjs.v8cache"));
  const help = run(bin, ["take", "--help"]);
  assert.is(help.status, 0, help.stderr);
  assert.match(help.stdout, /Usage: claims take/);
  assert.not.ok(existsSync(join(dist, "hot-take.cjs.v8cache")), "take --help wrote a take cache holding none of take's code");
  assert.is(run(bin, ["take", "shared-config", "--dir", box.dir, "--holder", "a"]).status, 0);
  assert.ok(existsSync(join(dist, "hot-take.cjs.v8cache")), "the first take wrote no cache");
});

Cache("should answer as usual with a damaged cache, and replace it", ({ box }) => {
  const { bin, dist } = copyOfCli(box);
  const cache = join(dist, "hot-take.cjs.v8cache");
  writeFileSync(cache, "not a code cache");
  const taken = run(bin, ["take", "shared-config", "--dir", box.dir, "--holder", "a"]);
  assert.is(taken.status, 0, taken.stderr);
  assert.match(taken.stdout, /granted shared-config/);
  assert.is.not(readFileSync(cache, "utf8"), "not a code cache");
  const refused = run(bin, ["take", "shared-config", "--dir", box.dir, "--holder", "b"]);
  assert.is(refused.status, 3);
});

Cache("should run a hot verb through the full CLI when its own bundle is missing, and say how to build it when that is missing too", ({ box }) => {
  // A checkout pulled but not built again has the dist/ of its last build: bin/claims.js may ask
  // for a hot bundle that build did not make. dist/cli.cjs runs every verb.
  const { bin, dist } = copyOfCli(box);
  rmSync(join(dist, "hot-take.cjs"));
  const taken = run(bin, ["take", "shared-config", "--dir", box.dir, "--holder", "a"]);
  assert.is(taken.status, 0, taken.stderr);
  assert.match(taken.stdout, /granted shared-config/);
  assert.is(run(bin, ["take", "shared-config", "--dir", box.dir, "--holder", "b"]).status, 3, "and it is the same take: refused to another holder");
  rmSync(join(dist, "cli.cjs"));
  rmSync(box.dir, { recursive: true });
  for (const args of [["take", "shared-config", "--dir", box.dir, "--holder", "a"], ["status", "--dir", box.dir]]) {
    const result = run(bin, args);
    assert.is(result.status, 1);
    assert.match(result.stderr, /^claims: the CLI is not built \(.*cli\.cjs: ENOENT\); run npm ci, or npm run build, in .*\.\n$/);
    assert.not.ok(existsSync(box.dir), "nothing may be written");
  }
});

Cache.run();
