// Top-level declarations of a source file, found with a real parser (tree-sitter grammars compiled
// to WebAssembly), so `file#name` claims bind to something that exists. Loaded only when a symbol
// target is used: plain takes never pay for it.
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type Parser from "web-tree-sitter";
import { BindingsTimeout, moduleBindings } from "./bindings.js";
import { BadInputError } from "../os/errors.js";
import { switchOn } from "../os/option-names.js";
import type { TargetShape } from "./overlap.js";

const GRAMMARS: Record<string, string> = {
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".py": "python",
  ".go": "go",
  ".rs": "rust",
  ".java": "java",
  ".rb": "ruby",
  ".c": "c",
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hh": "cpp",
  ".hpp": "cpp",
  ".hxx": "cpp",
};

export interface SymbolInfo {
  name: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
}

export function grammarOf(file: string): string | undefined {
  return GRAMMARS[extname(file).toLowerCase()];
}

let parserModule: Promise<typeof Parser> | undefined;
const languages = new Map<string, Promise<Parser.Language>>();
let tierUp = true;

/**
 * For a process that makes one call and exits (the CLI, so every agent hook): compile grammars
 * with V8's baseline WebAssembly compiler only. Otherwise, once a parse makes a grammar's huge
 * lexer function hot, V8 recompiles it with its optimizing compiler on background threads, and
 * Node waits for that before the process can exit: 0.5 s after a symbol take had written its claim
 * and printed its answer (2-4 s under load), all of it spent from the claim's TTL. One parse gains
 * nothing from the optimized code. Not for the library: a V8 flag holds for the whole process, and
 * a long-lived host parsing many files does gain. (A code cache written after a flag change is
 * rejected; bin/claims.js writes one only when it had none or V8 rejected it, so that costs at
 * most one rewrite, by the next call.)
 */
export function compileGrammarsWithoutTierUp(): void {
  tierUp = false;
}

/** A parser for one tree-sitter grammar of tree-sitter-wasms (`typescript`, `bash`, …), loaded once. */
export async function parserFor(grammar: string): Promise<Parser> {
  // require, not import(): web-tree-sitter is CommonJS, and the CLI runs as a bundle compiled
  // through vm.Script (for its code cache, bin/claims.js), where import() is not available.
  parserModule ??= (async () => {
    const require = createRequire(import.meta.url);
    if (!tierUp) (require("node:v8") as typeof import("node:v8")).setFlagsFromString("--liftoff-only"); // before any grammar compiles
    const ParserClass = require("web-tree-sitter") as typeof Parser;
    await ParserClass.init();
    return ParserClass;
  })();
  const ParserClass = await parserModule;
  let language = languages.get(grammar);
  if (!language) {
    const require = createRequire(import.meta.url);
    const wasms = join(dirname(require.resolve("tree-sitter-wasms/package.json")), "out");
    language = ParserClass.Language.load(grammar === "bash" ? vendoredBash() : join(wasms, `tree-sitter-${grammar}.wasm`));
    languages.set(grammar, language);
  }
  const parser = new ParserClass();
  parser.setLanguage(await language);
  return parser;
}

/**
 * The bash grammar of tree-sitter-bash 0.23.3, kept in vendor/ (vendor/README.md): tree-sitter-wasms'
 * build calls the C library's isalpha, which web-tree-sitter 0.24 does not provide, so parsing a
 * `case` or a `[[ a == b ]]` threw. Found from this module up (src/targets/, dist/targets/, dist/).
 */
function vendoredBash(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, directory = dirname(directory)) {
    const wasm = join(directory, "vendor", "tree-sitter-bash.wasm");
    if (existsSync(wasm)) return wasm;
  }
  throw new Error("vendor/tree-sitter-bash.wasm is missing from this installation of claims; reinstall it.");
}

/**
 * How long one file's parse may take: the hook parses a file before and after an edit within the
 * agent's timeout for it (10 s as installed: src/hooks/config.ts). Some text costs a grammar the
 * square of its length (`/[/[…` takes the typescript grammar 3 s for 10 KB); a megabyte of plain
 * code parses in about a second.
 */
const SYMBOLS_PARSE_MS = 3000;

/**
 * How long one file's parse and the count of its bindings may take together: the hook does both
 * before and after an edit, and must answer within the agent's 10 s.
 */
const SYMBOLS_READ_MS = 4000;

/**
 * The top-level declarations of `file`: functions, classes and other method-bearing types,
 * interfaces, type aliases, enums, top-level variables. With `parsed.bindings` asked for (names,
 * to count), how often the file's module scope binds each anew (moduleBindings, src/targets/bindings.ts),
 * and with `parsed.bindingTexts` asked for too, the text of each of those bindings.
 * A declaration's lines include the attributes above it that the grammar gives as siblings (Rust's
 * `#[cfg(…)]`: what they say, they say of it); `parsed.moduleAttributes` is the text of the
 * attributes that speak for the whole file (Rust's `#![…]`), which a change of changes every symbol.
 */
export async function listSymbols(
  file: string,
  source: string,
  parsed: { hasError?: boolean; bindings?: Map<string, number>; bindingTexts?: Map<string, string[]>; moduleAttributes?: string } = {},
): Promise<SymbolInfo[]> {
  const grammar = grammarOf(file);
  if (!grammar) throw new BadInputError(`${file} has no grammar for symbol claims; claim the whole file instead.`);
  const parser = await parserFor(grammar);
  const deadline = Date.now() + SYMBOLS_READ_MS;
  parser.setTimeoutMicros(SYMBOLS_PARSE_MS * 1000);
  let tree: Parser.Tree;
  try {
    tree = parser.parse(source);
  } catch {
    parser.delete();
    throw new BadInputError(`${file} could not be read for its symbols within ${SYMBOLS_PARSE_MS / 1000} s (${source.length} characters the grammar is slow on); claim the whole file instead.`);
  }
  // The grammar recovers from errors, so a declaration may still be listed that the language would
  // not read any more (after an unclosed comment or string): the caller is told there were some.
  parsed.hasError = tree.rootNode.hasError;
  const found: SymbolInfo[] = [];
  const attributes: string[] = [];
  let attributed: Parser.SyntaxNode | undefined; // the first of the attributes right above the next declaration
  for (const node of tree.rootNode.namedChildren) {
    // (The grammar reads a `#![…]` on the first line as a shebang.)
    if (node.type === "inner_attribute_item" || (node.type === "shebang" && node.text.startsWith("#!["))) attributes.push(node.text);
    if (node.type === "attribute_item") {
      attributed ??= node;
      continue;
    }
    if (node.type === "line_comment" || node.type === "block_comment") continue; // a doc comment between attributes and their item
    const before = found.length;
    collect(node, node, found);
    if (attributed !== undefined) for (const symbol of found.slice(before)) symbol.startLine = attributed.startPosition.row + 1;
    attributed = undefined;
  }
  parsed.moduleAttributes = attributes.join("\n");
  try {
    if (parsed.bindings) moduleBindings(tree.rootNode, parsed.bindings, deadline, parsed.bindingTexts);
  } catch (error) {
    if (!(error instanceof BindingsTimeout)) throw error;
    throw new BadInputError(`${file} could not be read for its symbols within ${SYMBOLS_READ_MS / 1000} s (${source.length} characters); claim the whole file instead.`);
  } finally {
    tree.delete();
    parser.delete();
  }
  return found;
}

/** Wrappers whose inner declaration is the symbol: `export …`, decorators, `declare …`, templates. */
const WRAPPERS = new Set(["export_statement", "decorated_definition", "ambient_declaration", "template_declaration", "expression_statement"]);
/** Nodes that declare one or more names through children (`const a = 1, b = 2`, Go's `var (…)`). */
const DECLARATION_LISTS = new Set([
  "lexical_declaration",
  "variable_declaration",
  "type_declaration",
  "var_declaration",
  "const_declaration",
  "declaration",
]);
const NAMELESS_SCOPES = new Set(["impl_item", "package_clause", "package_declaration", "import_statement", "comment"]);

function collect(node: Parser.SyntaxNode, outer: Parser.SyntaxNode, found: SymbolInfo[]): void {
  if (NAMELESS_SCOPES.has(node.type)) return;
  const add = (name: string | undefined) => {
    if (name && /^[A-Za-z_$][\w$]*$/.test(name)) {
      found.push({ name, startLine: outer.startPosition.row + 1, endLine: outer.endPosition.row + 1 });
    }
  };
  if (WRAPPERS.has(node.type)) {
    for (const child of node.namedChildren) collect(child, outer, found);
    return;
  }
  if (node.type === "assignment") {
    // Python `MAX = 3`, Ruby `CONST = 1`: the left side when it is a plain name.
    const left = node.childForFieldName("left") ?? node.namedChildren[0];
    if (left && /^(identifier|constant)$/.test(left.type)) add(left.text);
    return;
  }
  if (DECLARATION_LISTS.has(node.type)) {
    for (const child of node.namedChildren) {
      if (/declarator|_spec$/.test(child.type)) add(declaredName(child));
    }
    if (node.type === "declaration") return;
  }
  const name = node.childForFieldName("name");
  if (name) add(name.type === "qualified_identifier" ? lastIdentifier(name) : name.text);
  else if (node.childForFieldName("declarator")) add(declaredName(node)); // C and C++ functions, typedefs
}

/** Follows C-style declarators (`*f(void)`, `Cart::total()`) and JS declarators down to the identifier. */
function declaredName(node: Parser.SyntaxNode): string | undefined {
  let current: Parser.SyntaxNode | null = node;
  while (current) {
    if (/^(identifier|field_identifier|type_identifier)$/.test(current.type)) return current.text;
    if (current.type === "qualified_identifier") return lastIdentifier(current);
    current = current.childForFieldName("name") ?? current.childForFieldName("declarator");
  }
  return undefined;
}

function lastIdentifier(node: Parser.SyntaxNode): string | undefined {
  const name = node.childForFieldName("name");
  if (!name) return undefined;
  return name.type === "qualified_identifier" ? lastIdentifier(name) : name.text;
}

/**
 * Denies a claim on a symbol the file does not declare (it would bind nothing), with the nearest
 * names as a suggestion; `creating` allows a symbol about to be added. The target is named in
 * full, canonical, as every other answer names it: two files may share a base name. `known`: the
 * names each file declares, kept across the symbols of one call, so a file is parsed once for
 * all of its symbols (a take of 300 took 300 parses).
 */
export async function checkSymbol(target: Pick<TargetShape, "canonical" | "path" | "symbol">, creating: boolean, known = new Map<string, string[]>()): Promise<void> {
  const { canonical, path: file } = target;
  const symbol = target.symbol as string;
  const shownFile = canonical.slice(0, canonical.length - symbol.length - 1); // the file as canonical (escaped) text
  const grammar = grammarOf(file);
  if (!grammar && !existsSync(file)) {
    throw new BadInputError(`Target ${canonical} reads as the symbol ${symbol} of the file ${shownFile}, which does not exist; for a name, leave out the #.`);
  }
  if (!grammar) throw new BadInputError(`Target ${canonical} names a symbol, but ${shownFile} has no grammar for symbol claims; claim the whole file instead.`);
  let names = known.get(file);
  if (names === undefined) {
    let source: string;
    let fd: number | undefined;
    try {
      // Opened without blocking: a named pipe nobody writes would block the open, and with it every
      // call of the process (a server's, and its signal handlers) for good.
      fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
      if (!fstatSync(fd).isFile()) throw new BadInputError(`Target ${canonical} names a symbol, but ${shownFile} is not a regular file (a pipe, a socket or a device); claim the whole file instead.`);
      source = readFileSync(fd, "utf8");
    } catch (error) {
      if (error instanceof BadInputError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (creating && code === "ENOENT") return;
      // --creating helps a file not there yet (ENOENT); one there that cannot be read stays unread with it.
      const or = code === "ENOENT" ? `, or pass ${switchOn("creating")} for a symbol you are about to add` : ", or make it readable to you";
      throw new BadInputError(`Cannot read ${shownFile} to find the symbol ${symbol} (${code}); claim the whole file${or}.`);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    names = [...new Set((await listSymbols(file, source)).map((info) => info.name))];
    known.set(file, names);
  }
  if (names.includes(symbol) || creating) return;
  const near = nearest(symbol, names);
  const hint = near.length > 0 ? `did you mean ${near.map((name) => `\`${name}\``).join(" or ")}?` : `${declared(names)}; pass ${switchOn("creating")} to claim a symbol you are about to add.`;
  throw new BadInputError(`Target ${canonical} names nothing: the file declares no top-level \`${symbol}\`; ${hint}`);
}

/** With no close match, what the file does declare (the first few, in file order), so the caller can pick one. */
const LISTED_SYMBOLS = 8;

function declared(names: string[]): string {
  if (names.length === 0) return "it declares no top-level symbols at all (claim the whole file instead)";
  const shown = names.slice(0, LISTED_SYMBOLS).map((name) => `\`${name}\``).join(", ");
  const more = names.length > LISTED_SYMBOLS ? ` and ${names.length - LISTED_SYMBOLS} more` : "";
  return `it declares ${shown}${more}`;
}

function nearest(wanted: string, names: string[]): string[] {
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  return names
    .map((name) => ({ name, distance: editDistance(wanted.toLowerCase(), name.toLowerCase()) }))
    .filter((entry) => entry.distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((entry) => entry.name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
