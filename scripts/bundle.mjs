// The CLI as one CommonJS file (dist/cli.cjs): Node's ES-module loader reading and linking ~40
// files was most of the start-up cost of every `claims` call (docs/BENCHMARKS.md); one bundled
// file loads in a fraction of that. The library keeps the plain tsc output in dist/.
// web-tree-sitter and its grammars stay outside: they load their .wasm files from their own paths.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { build } from "esbuild";

// tsc writes over dist/ in place and never removes what it no longer emits: a source file moved or
// deleted would leave its old output behind, still importable, and a test or script naming the old
// path would pass here and fail on a clean clone. So what has no source any more goes. dist/ is
// never emptied first: a CLI an agent's hook runs from this checkout stays there throughout.
function pruneStale(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      pruneStale(path);
      if (readdirSync(path).length === 0) rmdirSync(path);
      continue;
    }
    const compiled = /^(.*)\.(js|d\.ts)(\.map)?$/.exec(relative("dist", path));
    if (compiled && !existsSync(join("src", `${compiled[1]}.ts`))) rmSync(path);
  }
}
pruneStale("dist");

const common = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["web-tree-sitter", "tree-sitter-wasms"],
  // import.meta.url has no CommonJS equivalent; the bundle's own file URL stands in (same dist/ folder).
  // Made when first asked for: pathToFileURL costs 0.2 ms of every call, and the hot calls never ask.
  define: { "import.meta.url": "__claimsModule.url" },
  banner: { js: 'const __claimsModule = { get url() { return (this.known ??= require("node:url").pathToFileURL(__filename).href); } };' },
  logLevel: "warning",
  // Minified: with a code cache, V8 no longer parses the source, but every call still reads the
  // bundle and decodes it into a string (about 1 ms per 100 KB here). Minifying took the hot bundle
  // (then one for all the hot verbs) from 405 to 207 KB and a check from 14.8 to 12.6 ms above
  // `node -e 0` (docs/BENCHMARKS.md).
  // Error names are set in code (src/os/errors.ts), never taken from a class's name. The library
  // (dist/**/*.js, tsc's output) is not minified.
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: true,
};
// `claims mcp` (the server, the MCP SDK, zod) is a bundle of its own, dist/mcp.cjs, that the CLI
// requires only for that verb: in dist/cli.cjs it would make every hot call read and hash a file
// several times larger. require, not import(): the CLI runs through vm.Script (bin/claims.js).
const mcpApart = {
  name: "mcp-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/mcp\/server\.js$/ }, () => ({ path: "mcp", namespace: "mcp-apart" }));
    build.onLoad({ filter: /.*/, namespace: "mcp-apart" }, () => ({ contents: 'module.exports = require("./mcp.cjs");', loader: "js" }));
    build.onResolve({ filter: /^\.\/mcp\.cjs$/ }, () => ({ path: "./mcp.cjs", external: true }));
  },
};
// The shell reader's walk and command rules (src/hooks/shell-walk.ts and what it imports) are one
// more, dist/shell.cjs, required only for a shell command that may write (src/hooks/shell.ts's
// gate): in the hot bundles they made every take, check and release read some 50 KB more.
const shellApart = {
  name: "shell-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\/shell-walk\.js$/ }, () => ({ path: "shell", namespace: "shell-apart" }));
    build.onLoad({ filter: /.*/, namespace: "shell-apart" }, () => ({ contents: 'module.exports = require("./shell.cjs");', loader: "js" }));
    build.onResolve({ filter: /^\.\/shell\.cjs$/ }, () => ({ path: "./shell.cjs", external: true }));
  },
};
// node:module's createRequire, in a bundle, is the bundle's own require: bin/claims.js makes it for
// the bundle's file in dist/, where every import.meta.url of the bundle points (define, above), so
// it resolves alike. The sources ask for createRequire because the library runs as ES modules,
// which have no require; in a bundle, loading node:module for it cost every call about 0.15 ms
// (Node builds an ES-module facade of a built-in module the first time user code requires it).
const ownRequire = {
  name: "own-require",
  setup(build) {
    build.onResolve({ filter: /^node:module$/ }, () => ({ path: "module", namespace: "own-require" }));
    build.onLoad({ filter: /.*/, namespace: "own-require" }, () => ({ contents: "export const createRequire = () => require;", loader: "js" }));
  },
};
await build({ ...common, entryPoints: ["src/cli/main.ts"], outfile: "dist/cli.cjs", plugins: [mcpApart, shellApart, ownRequire] });
// The verbs every agent hook runs, without commander, one bundle each (src/cli/hot.ts): bin/claims.js
// loads dist/hot-<verb>.cjs for them, and dist/cli.cjs only for a call it does not take. A verb's
// entry names its own fast path alone, so the bundle leaves out what only the other verbs use (a
// check's is half the size of one bundle of all five).
// The source files bundled into each, listed in dist/hot-inputs.json (minified, a bundle names
// none): test/layers.test.ts checks that commander and the other verbs stay out.
const HOT = { take: "fastTake", beat: "fastBeat", release: "fastRelease", check: "fastCheck", hook: "fastHook" };
const hotInputs = {};
for (const [verb, fast] of Object.entries(HOT)) {
  const outfile = `dist/hot-${verb}.cjs`;
  const contents = `import { hotMain } from "./hot.js";\nimport { ${fast} } from "./fast.js";\nexport const main = hotMain(${JSON.stringify(verb)}, ${fast});\nexport { mayExitNow } from "./hot.js";\n`;
  const hot = await build({ ...common, stdin: { contents, resolveDir: "src/cli", sourcefile: `hot-${verb}.ts`, loader: "ts" }, outfile, plugins: [mcpApart, shellApart, ownRequire], metafile: true });
  hotInputs[verb] = Object.keys(hot.metafile.outputs[outfile].inputs).filter((input) => input.startsWith("src/") || input.startsWith("node_modules/")).sort();
}
writeFileSync("dist/hot-inputs.json", `${JSON.stringify(hotInputs, null, 1)}\n`);
// The one bundle of all five that came before (a checkout built then): nothing loads it now.
for (const name of ["hot.cjs", "hot.cjs.inputs.json"]) rmSync(join("dist", name), { force: true });
await build({ ...common, entryPoints: ["src/mcp/server.ts"], outfile: "dist/mcp.cjs", plugins: [shellApart, ownRequire] });
await build({ ...common, entryPoints: ["src/hooks/shell-walk.ts"], outfile: "dist/shell.cjs", plugins: [ownRequire] });

// Then the code caches. V8 checks a cache against its source's length only, so a cache left from
// an earlier build of the same length would be taken for this one: every cache goes first.
for (const name of readdirSync("dist")) if (name.endsWith(".v8cache")) rmSync(join("dist", name));
const scratch = mkdtempSync(join(tmpdir(), "claims-code-cache-"));
try {
  const target = join(scratch, "a.ts");
  const claimsDir = join(scratch, "hot-claims"); // code-cache.cjs leaves its hook's claim in scratch/claims
  writeFileSync(target, "export const a = 1;\n");
  writeFileSync(join(scratch, "b.ts"), "export const b = 1;\n");
  const event = { session_id: "build", hook_event_name: "PreToolUse", cwd: scratch, tool_name: "Edit", tool_input: { file_path: target, old_string: "1", new_string: "2" } };
  // Without NODE_OPTIONS: V8 rejects a cache made under other flags (--max-old-space-size, common
  // in CI, is one), and a claims call in an agent hook usually runs without any.
  // A home of each phase's own in the scratch: the calls pin their claims directories, and a pinned
  // take of a path leaves a pointer in the default one (docs/PROTOCOL.md 1a), which must be neither
  // the user's nor the other phase's (whose claims would refuse this one's). A home, not only
  // XDG_STATE_HOME: a take in the default directory it moves points to it from the home's.
  const env = { ...process.env };
  for (const name of ["NODE_OPTIONS", "CLAIMS_DIR", "XDG_STATE_HOME"]) delete env[name];
  const run = (args, input, phase) => spawnSync(process.execPath, args, { input: input ?? "", env: { ...env, HOME: join(scratch, `home-${phase}`) }, stdio: ["pipe", "ignore", "pipe"], encoding: "utf8" });
  // dist/cli.cjs: compiled with the hot calls run once in one process (scripts/code-cache.cjs says why).
  const calls = [run(["scripts/code-cache.cjs", scratch], JSON.stringify(event), "full")];
  // dist/hot-<verb>.cjs: each cache grown by scripts/hot-cache.cjs over the cases a session meets,
  // in the order a session runs the verbs: other sessions hold a name, a directory and a glob; this
  // one takes, renews, checks and releases a file; its hook runs a Bash line writing its file and one
  // writing nothing, then edits a file (taking it, then holding it). The Bash line that loads the
  // shell reader runs first: its garbage collections flush the bytecode a call does not use, and run
  // last they took the Edit's out of the cache. A refusal is left to compile when it comes.
  const flags = ["--dir", claimsDir, "--holder", "build"];
  const other = ["--dir", claimsDir, "--holder", "build-other", "--purpose", "in the way"];
  const elsewhere = join(scratch, "elsewhere");
  const bash = (command) => JSON.stringify({ ...event, tool_name: "Bash", tool_input: { command } });
  const edit = (file) => JSON.stringify({ ...event, tool_input: { ...event.tool_input, file_path: file } });
  const hook = ["hook", "claude", "--dir", claimsDir];
  for (const [args, input] of [
    [["take", "shared-config", ...other]],
    [["take", `${elsewhere}/`, ...other]],
    [["take", join(scratch, "other", "**", "*.md"), ...other]],
    [["take", target, "--purpose", "compile the hot paths", ...flags]],
    [["beat", target, ...flags]],
    [["check", target, ...flags]],
    [["check", join(scratch, "b.ts"), ...flags]],
    [["release", target, ...flags]],
    [hook, bash(`sed -i s/1/2/ ${target}`)],
    [hook, bash("ls -la && git status")],
    [hook, edit(join(scratch, "b.ts"))],
    [hook, edit(join(scratch, "b.ts"))],
  ]) {
    calls.push(run(["scripts/hot-cache.cjs", ...args], input, "hot"));
  }
  const failed = calls.find((call) => call.status !== 0);
  if (failed) console.warn(`bundle: a code cache was not written (${failed.stderr.trim() || `exit ${failed.status}`}); the first claims call of that verb writes it.`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
