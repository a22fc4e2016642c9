// JavaScript bundlers and transpilers, which write where their options or configuration say, else
// to a directory of their own: esbuild (`--outfile`, `--outdir`), rollup (`-o`, `-d`, or the
// `output` of its config), vite build (`--outDir`, else `build.outDir`, else dist/), tsup
// (`-d`, else `outDir`, else dist/), webpack (`-o`, else `output.path`, else dist/), parcel
// (`--dist-dir`, else dist/), babel and swc (`-o`, `-d`), next build (`distDir`, else .next/).
// A configuration is a program: what it sets with a string (or `path.resolve(__dirname, "x",
// "y")`) is read; a value it computes is what its expression names (its path-like strings, the
// package.json fields it reads: `pkg.main`) and the tool's own directory (dist/), not anything in
// the project, which would refuse every build beside another session.
import { dirname, join, resolve } from "node:path";
import { type Syntax, valuedLong } from "./shell-options.js";
import { optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { anyUnder, configIn, directoryAt, readText, within } from "./shell-words.js";

/** A file a bundler writes, its source map, and for a script the stylesheet its imports make (`a.js.map`, `a.css`). */
function outputFile(file: string): string[] {
  if (file.startsWith("\0") || file === "-") return file === "-" ? [] : [file];
  return [file, `${file}.map`, ...(/\.[cm]?js$/.test(file) ? [file.replace(/\.[cm]?js$/, ".css")] : [])];
}

/**
 * Where a key of a configuration's text points, each time it is set: a path (relative to `base`),
 * or, for a value it computes, what the expression names: its strings that read as paths
 * (`fileURLToPath(new URL("./build", import.meta.url))`, `prod ? "build" : "out"`) and the
 * package.json fields it reads (`pkg.main`), marked COMPUTED (the tool's own directory is added).
 */
const COMPUTED = Symbol("computed");

function configValues(text: string, key: string, base: string): Array<string | typeof COMPUTED> {
  const found: Array<string | typeof COMPUTED> = [];
  const manifest = () => {
    try {
      return JSON.parse(readText(join(base, "package.json")) ?? "{}") as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const setting = new RegExp(String.raw`(?<![\w$.])(["']?)${key}\1\s*:\s*`, "g");
  for (let match = setting.exec(text); match !== null; match = setting.exec(text)) {
    const value = text.slice(match.index + match[0].length, match.index + match[0].length + 400);
    const literal = /^(["'`])([^"'`$\n\\]*)\1/.exec(value)?.[2];
    // path.resolve(__dirname, "dist", "js"), path.join(…): its strings joined.
    const call = /^(?:path\.)?(?:resolve|join)\(\s*__dirname\s*((?:,\s*(["'])[^"'\n\\]*\2\s*)+)\)/.exec(value)?.[1];
    const parts = call === undefined ? undefined : [...call.matchAll(/(["'])([^"'\n\\]*)\1/g)].map((part) => part[2] as string);
    if (literal !== undefined || parts !== undefined) {
      found.push(literal !== undefined ? resolve(base, literal) : resolve(base, ...(parts as string[])));
      continue;
    }
    // The expression, up to the end of the setting (a comma or a closing brace at its own depth).
    let depth = 0;
    let end = 0;
    for (; end < value.length; end++) {
      const char = value[end] as string;
      if ("([{".includes(char)) depth++;
      else if (")]}".includes(char) && --depth < 0) break;
      else if (char === "," && depth === 0) break;
    }
    const expression = value.slice(0, end);
    for (const [, , string] of expression.matchAll(/(["'`])([^"'`$\n\\]+)\1/g)) if (/^\.{0,2}\/?[\w.-]+(\/[\w.-]+)*\/?$/.test(string as string) && !/^(utf-?8|production|development)$/i.test(string as string)) found.push(resolve(base, string as string));
    for (const [, field] of expression.matchAll(/\b(?:pkg|packageJson|manifest|pkgJson)\.(\w+)/g)) {
      const named = manifest()[field as string];
      if (typeof named === "string") found.push(resolve(base, named));
    }
    found.push(COMPUTED);
  }
  return found;
}

/** The text inside the braces or brackets that open right after `key:` (`output: {…}`), each occurrence. */
function blocksOf(text: string, key: string): string[] {
  const blocks: string[] = [];
  const opening = new RegExp(String.raw`(?<![\w$.])(["']?)${key}\1\s*:\s*[[{]`, "g");
  for (let match = opening.exec(text); match !== null; match = opening.exec(text)) {
    let depth = 0;
    let at = match.index + match[0].length - 1;
    for (; at < text.length; at++) {
      const char = text[at];
      if (char === "{" || char === "[") depth++;
      else if ((char === "}" || char === "]") && --depth === 0) break;
    }
    blocks.push(text.slice(match.index + match[0].length, at));
  }
  return blocks;
}

const configNames = (stem: string) => ["js", "mjs", "cjs", "ts", "mts", "cts"].map((extension) => `${stem}.config.${extension}`);

/**
 * The directories a configuration sends output to under `keys` (each set in `blocks`' text when
 * named, else anywhere), else `otherwise`; a computed one, anything under `project`. A config the
 * text does not fix, or one named that cannot be read, could send it anywhere.
 */
function configured(config: string | undefined, named: boolean, keys: string[], base: (config: string) => string, project: string | undefined, otherwise: Array<string | undefined>, block?: string): string[] {
  const fallback = otherwise.map((path) => path ?? anyUnder(undefined));
  if (config === undefined) return named ? [anyUnder(undefined)] : fallback;
  const text = readText(config);
  if (text === undefined) return named ? [anyUnder(undefined)] : fallback;
  const scopes = block === undefined ? [text] : blocksOf(text, block);
  const values = scopes.flatMap((scope) => keys.flatMap((key) => configValues(scope, key, base(config))));
  if (values.length === 0) return fallback;
  // A computed value: the tool's own directory (dist/ where it has none of its own).
  const computed = otherwise.length > 0 ? fallback : [anyUnder(project === undefined ? undefined : join(project, "dist"))];
  return values.flatMap((value) => (value === COMPUTED ? computed : [value]));
}

/** esbuild: `--outfile=F` (and what lands beside it), `--outdir=D`, `--metafile=F`; else it prints the bundle. */
function esbuild(input: RuleInput): string[] {
  const { reading, walk } = input;
  if (reading.has("--version", "--help", "h")) return [];
  return [
    ...optionFiles(input, ["outfile"]).flatMap(outputFile),
    ...(reading.has("outdir") ? [anyUnder(directoryAt(walk.cwd, reading.value("outdir")))] : []),
    ...optionFiles(input, ["metafile"]),
  ];
}

/** rollup: `-o`/`--file`, `-d`/`--dir`; with `-c`, its config's `output` (`file`, `dir`); else it prints the bundle. */
function rollup(input: RuleInput): string[] {
  const { reading, walk, args } = input;
  if (reading.has("v", "h")) return [];
  const given = [...optionFiles(input, ["o"]).flatMap(outputFile), ...reading.values("d").map((directory) => anyUnder(directoryAt(walk.cwd, directory)))];
  if (given.length > 0 || !reading.has("c")) return given;
  // `-c` takes its file only as the next word that names one (`-c rollup.build.mjs`); else rollup.config.*.
  const at = args.findIndex((arg) => arg === "-c" || arg === "--config");
  const next = at === -1 ? undefined : args[at + 1];
  const attached = reading.value("c");
  const named = attached ?? (next !== undefined && /\.[cm]?[jt]s$/.test(next) ? next : undefined);
  const config = named !== undefined ? within(walk.cwd, named) : configIn(walk.cwd, configNames("rollup"));
  const unsure = named !== undefined || walk.cwd === undefined;
  const from = () => walk.cwd ?? "/";
  return [
    ...configured(config, unsure, ["file"], from, walk.cwd, [], "output").flatMap(outputFile),
    ...configured(config, unsure, ["dir"], from, walk.cwd, [], "output").map((path) => (path.startsWith("\0") ? path : anyUnder(path))),
  ];
}

/** vite build [root]: `--outDir`, else the config's `outDir` (from the root), else dist/ there. */
function vite(input: RuleInput): string[] {
  const { reading, walk, args } = input;
  const [sub, rootAt] = reading.operands;
  if (sub === undefined || args[sub] !== "build") return [];
  const root = rootAt === undefined ? walk.cwd : directoryAt(walk.cwd, args[rootAt]);
  if (reading.has("outDir")) return [anyUnder(directoryAt(root, reading.value("outDir")))];
  const named = reading.has("c");
  const config = named ? (reading.value("c") === undefined ? undefined : within(walk.cwd, reading.value("c") as string)) : configIn(root, configNames("vite"));
  const dist = root === undefined ? undefined : join(root, "dist");
  return configured(config, named || root === undefined, ["outDir"], () => root ?? "/", root, [dist]).map((path) => (path.startsWith("\0") ? path : anyUnder(path)));
}

/** tsup: `-d`/`--out-dir`, else the config's `outDir`, else dist/. */
function tsup(input: RuleInput): string[] {
  const { reading, walk } = input;
  if (reading.has("v", "h")) return [];
  if (reading.has("d")) return [anyUnder(directoryAt(walk.cwd, reading.value("d")))];
  const named = reading.has("config");
  const config = reading.has("--no-config") ? undefined : named ? (reading.value("config") === undefined ? undefined : within(walk.cwd, reading.value("config") as string)) : configIn(walk.cwd, [...configNames("tsup"), "tsup.config.json"]);
  const dist = walk.cwd === undefined ? undefined : join(walk.cwd, "dist");
  return configured(config, named || walk.cwd === undefined, ["outDir"], () => walk.cwd ?? "/", walk.cwd, [dist]).map((path) => (path.startsWith("\0") ? path : anyUnder(path)));
}

/** webpack [build|bundle|watch]: `-o`/`--output-path`, else the config's `output.path`, else dist/. */
function webpack(input: RuleInput): string[] {
  const { reading, walk, args } = input;
  const sub = reading.operands.map((at) => args[at]).find((word) => word !== undefined && !/[./]/.test(word));
  if (sub !== undefined && !["build", "bundle", "b", "watch", "w"].includes(sub)) return []; // serve, info, configtest, …
  if (reading.has("v", "h")) return [];
  if (reading.has("o")) return [anyUnder(directoryAt(walk.cwd, reading.value("o")))];
  const named = reading.has("c");
  const config = named ? (reading.value("c") === undefined ? undefined : within(walk.cwd, reading.value("c") as string)) : configIn(walk.cwd, ["webpack.config.js", "webpack.config.cjs", "webpack.config.mjs", "webpack.config.ts"]);
  const dist = walk.cwd === undefined ? undefined : join(walk.cwd, "dist");
  return configured(config, named || walk.cwd === undefined, ["path"], (file) => dirname(file), walk.cwd, [dist], "output").map((path) => (path.startsWith("\0") ? path : anyUnder(path)));
}

/** parcel [serve|watch|build]: `--dist-dir`, else dist/ (its cache, .parcel-cache, aside). */
function parcel(input: RuleInput): string[] {
  const { reading, walk } = input;
  if (reading.has("V", "h")) return [];
  return [anyUnder(reading.has("dist-dir") ? directoryAt(walk.cwd, reading.value("dist-dir")) : walk.cwd === undefined ? undefined : join(walk.cwd, "dist"))];
}

/** babel, swc: `-o`/`--out-file` (and its map), `-d`/`--out-dir`; else they print. */
function transpiler(input: RuleInput): string[] {
  const { reading, walk } = input;
  return [...optionFiles(input, ["o"]).flatMap(outputFile), ...reading.values("d").map((directory) => anyUnder(directoryAt(walk.cwd, directory)))];
}

/** next build [dir]: the config's `distDir`, else .next/ there; `next export`, out/ too. */
function next(input: RuleInput): string[] {
  const { reading, walk, args } = input;
  const [sub, dirAt] = reading.operands;
  const action = sub === undefined ? "" : args[sub];
  // next lint --fix: eslint's fixes over the project's sources (its pages, app, components, lib, src, or --dir's).
  if (action === "lint") return args.includes("--fix") ? [anyUnder(dirAt === undefined ? walk.cwd : directoryAt(walk.cwd, args[dirAt]))] : [];
  if (action !== "build" && action !== "export") return [];
  const project = dirAt === undefined ? walk.cwd : directoryAt(walk.cwd, args[dirAt]);
  const config = configIn(project, ["next.config.js", "next.config.mjs", "next.config.ts", "next.config.cjs"]);
  const built = configured(config, project === undefined, ["distDir"], () => project ?? "/", project, [project === undefined ? undefined : join(project, ".next")]);
  const exported = action === "export" ? [reading.has("o") ? directoryAt(walk.cwd, reading.value("o")) : project === undefined ? undefined : join(project, "out")] : [];
  return [...built.map((path) => (path.startsWith("\0") ? path : anyUnder(path))), ...exported.map(anyUnder)];
}

const exact = (syntax: Syntax): Syntax => ({ ...syntax, exact: true });
const TRANSPILER: Syntax = exact({ short: "o:d:", long: { "out-file": "o", "out-dir": "d", ...valuedLong("config-file extensions ignore only env-name root-mode source-maps source-file-name source-root plugins presets config-json cwd-mode out-file-extension") } });

export const BUNDLER_RULES: Record<string, Rule> = {
  esbuild: { syntax: exact({ long: { ...valuedLong("outfile outdir metafile"), version: "", help: "" } }), writes: esbuild },
  rollup: { syntax: exact({ short: "o:d:c::vhw", long: { file: "o", dir: "d", config: "c", version: "v", help: "h", watch: "w", ...valuedLong("format name input plugin environment external globals") } }), writes: rollup },
  vite: { syntax: exact({ short: "c:m:l:", long: { config: "c", mode: "m", logLevel: "l", ...valuedLong("outDir base assetsDir assetsInlineLimit sourcemap minify manifest ssrManifest ssr emptyOutDir target filter") } }), writes: vite },
  // (`--onSuccess CMD`: a command run after each build, read in turn.)
  tsup: {
    syntax: exact({ short: "d:vh", long: { "out-dir": "d", version: "v", help: "h", ...valuedLong("config format target env name tsconfig external entry loader platform sourcemap define inject onSuccess") } }),
    writes: tsup,
    runsLines: (input) => (input.reading.has("v", "h") ? [] : input.reading.values("onSuccess")),
  },
  webpack: { syntax: exact({ short: "c:o:m:e:vh", long: { config: "c", "output-path": "o", mode: "m", entry: "e", version: "v", help: "h", ...valuedLong("config-name env node-env target devtool name") } }), writes: webpack },
  "webpack-cli": { syntax: exact({ short: "c:o:m:e:vh", long: { config: "c", "output-path": "o", mode: "m", entry: "e", version: "v", help: "h", ...valuedLong("config-name env node-env target devtool name") } }), writes: webpack },
  parcel: { syntax: exact({ short: "p:Vh", long: { port: "p", version: "V", help: "h", ...valuedLong("dist-dir cache-dir public-url target config host cert key log-level reporter") } }), writes: parcel },
  babel: { syntax: TRANSPILER, writes: transpiler },
  swc: { syntax: TRANSPILER, writes: transpiler },
  next: { syntax: exact({ short: "o:p:", long: { outdir: "o", port: "p" } }), writes: next },
};
