// The CLI as one CommonJS file (dist/cli.cjs): Node's ES-module loader reading and linking ~40
// files was most of the start-up cost of every `claims` call (docs/BENCHMARKS.md); one bundled
// file loads in a fraction of that. The library keeps the plain tsc output in dist/.
// web-tree-sitter and its grammars stay outside: they load their .wasm files from their own paths.
import { build } from "esbuild";

await build({
  entryPoints: ["src/cli.ts"],
  outfile: "dist/cli.cjs",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["web-tree-sitter", "tree-sitter-wasms"],
  // import.meta.url has no CommonJS equivalent; the bundle's own file URL stands in (same dist/ folder).
  define: { "import.meta.url": "__claimsModuleUrl" },
  banner: { js: 'const __claimsModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: "warning",
});
