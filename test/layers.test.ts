// The folders under src/ are the layers (docs/ARCHITECTURE.md), and imports point one way: down.
// Every import counts, `import type` and `import()` included: a type circle still ties two files
// together for a reader, and a dynamic import is still a dependency.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { suite } from "uvu";
import * as assert from "uvu/assert";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(ROOT, "src");
/** The verbs bin/claims.js runs from a bundle of their own, dist/hot-<verb>.cjs (scripts/bundle.mjs). */
const HOT_VERBS = ["take", "beat", "release", "check", "hook"];

/** Higher imports lower, never the reverse; folders of one rank do not import each other. */
const RANK: Record<string, number> = { "index.ts": 8, cli: 7, mcp: 6, hooks: 6, commands: 5, protocol: 3, targets: 2, os: 1 };

interface Edge {
  from: string;
  to: string;
  line: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.[cm]?tsx?$/.test(name) ? [path] : [];
  });
}

function importsOf(file: string): Edge[] {
  const text = readFileSync(file, "utf8");
  const { importedFiles } = ts.preProcessFile(text, true, true);
  // preProcessFile does not report `export * as name from "…"`; read those from the text.
  const namespaceExports = [...text.matchAll(/export\s*\*\s*as\s+\w+\s+from\s*(["'])(.+?)\1/g)].map((match) => ({ fileName: match[2] as string, pos: match.index as number }));
  return [...importedFiles, ...namespaceExports]
    .filter((imported) => imported.fileName.startsWith("."))
    .map((imported) => {
      const target = resolve(dirname(file), imported.fileName).replace(/\.([cm]?)js$/, ".$1ts");
      const line = text.slice(0, imported.pos).split("\n").length;
      return { from: relative(SRC, file), to: relative(SRC, target), line };
    });
}

const layerOf = (path: string): string => (path.includes("/") ? (path.split("/")[0] as string) : path);

/** Strongly connected components with more than one file (Tarjan). */
function circles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const other of next.get(node) ?? []) {
      if (!index.has(other)) {
        visit(other);
        low.set(node, Math.min(low.get(node) as number, low.get(other) as number));
      } else if (onStack.has(other)) low.set(node, Math.min(low.get(node) as number, index.get(other) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

const edges = sourceFiles(SRC).flatMap(importsOf);

const layers = suite("the layers of src/");

layers("should read some imports (a check that sees none proves nothing)", () => {
  assert.ok(edges.length > 200, `only ${edges.length} imports found`);
  assert.ok(edges.some((edge) => edge.from === "commands/take.ts" && edge.to === "protocol/acquire.ts"));
});

layers("should resolve every relative import to a file under src/", () => {
  const missing = edges.filter((edge) => !existsSync(join(SRC, edge.to)) || edge.to.startsWith(".."));
  assert.equal(missing.map((edge) => `${edge.from}:${edge.line} -> ${edge.to}`), []);
});

layers("should place every file in a known layer", () => {
  const unknown = sourceFiles(SRC).map((file) => relative(SRC, file)).filter((path) => RANK[layerOf(path)] === undefined);
  assert.equal(unknown, []);
});

layers("should import only downward: cli > mcp, hooks > commands > protocol > targets > os", () => {
  const upward = edges.filter((edge) => {
    const [from, to] = [layerOf(edge.from), layerOf(edge.to)];
    return from !== to && (RANK[to] as number) >= (RANK[from] as number);
  });
  assert.equal(upward.map((edge) => `${edge.from}:${edge.line} imports ${edge.to}`), []);
});

layers("should have no import circles, not even of types", () => {
  assert.equal(circles(edges), []);
});

layers("should keep commander and chalk out of the protocol, targets and os layers", () => {
  const offenders = sourceFiles(SRC)
    .filter((file) => ["protocol", "targets", "os"].includes(layerOf(relative(SRC, file))))
    .filter((file) => /from "(commander|chalk)"|(import|require)\("(commander|chalk)"\)/.test(readFileSync(file, "utf8")))
    .map((file) => relative(SRC, file));
  assert.equal(offenders, []);
});

layers("should keep the MCP server out of the CLI bundles that every hook call loads", () => {
  const cli = readFileSync(join(ROOT, "dist", "cli.cjs"), "utf8");
  assert.ok(existsSync(join(ROOT, "dist", "mcp.cjs")), "dist/mcp.cjs was not built");
  assert.not.match(cli, "@modelcontextprotocol");
  assert.match(cli, 'require("./mcp.cjs")');
  for (const verb of HOT_VERBS) assert.not.match(readFileSync(join(ROOT, "dist", `hot-${verb}.cjs`), "utf8"), "@modelcontextprotocol", verb);
});

layers("should keep commander and the other verbs out of each hot verb's bundle", () => {
  // The build lists the source files it bundled into each dist/hot-<verb>.cjs (minified, a bundle names none).
  const inputs = JSON.parse(readFileSync(join(ROOT, "dist", "hot-inputs.json"), "utf8")) as Record<string, string[]>;
  assert.equal(Object.keys(inputs).sort(), [...HOT_VERBS].sort());
  const own: Record<string, string> = { take: "src/commands/take.ts", beat: "src/commands/beat.ts", release: "src/commands/release.ts", check: "src/commands/check.ts", hook: "src/hooks/hook.ts" };
  for (const verb of HOT_VERBS) {
    const bundled = inputs[verb] as string[];
    assert.ok(bundled.includes(own[verb] as string), `dist/hot-${verb}.cjs lacks ${own[verb]}`);
    for (const absent of ["node_modules/commander/", "src/commands/sweep.ts", "src/commands/doctor.ts", "src/cli/main.ts"]) {
      assert.not.ok(bundled.some((input) => input.startsWith(absent)), `dist/hot-${verb}.cjs holds ${absent}`);
    }
  }
  // The hook's bundle holds the hook, not its setup (install, verify, print-config run through dist/cli.cjs).
  for (const absent of ["src/hooks/install.ts", "src/hooks/directory-note.ts"]) assert.not.ok((inputs.hook as string[]).includes(absent), `dist/hot-hook.cjs holds ${absent}`);
  // A check, the call a hook makes most, reads no other verb's code: not take's, not the hook's.
  for (const absent of ["src/commands/take.ts", "src/commands/release.ts", "src/hooks/hook.ts", "src/hooks/install.ts"]) {
    assert.not.ok((inputs.check as string[]).includes(absent), `dist/hot-check.cjs holds ${absent}`);
  }
});

layers("should build every bundle in ASCII alone, so that Node reads it as a one-byte string", () => {
  // One character above U+007F anywhere (a regex literal esbuild leaves as written) makes Node
  // decode the whole file as a two-byte string and V8 hash and check twice the bytes against the
  // code cache: about 3 ms more of every call here (docs/BENCHMARKS.md). Spell such characters as
  // escapes in src/.
  for (const name of [...HOT_VERBS.map((verb) => `hot-${verb}.cjs`), "cli.cjs", "shell.cjs", "mcp.cjs"]) {
    const text = readFileSync(join(ROOT, "dist", name), "latin1");
    const at = text.search(/[^\x00-\x7f]/);
    assert.is(at, -1, `dist/${name} has a byte above 0x7f at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 60), at + 20))}`);
  }
});

layers.run();
