// Top-level declarations of a source file, found with a real parser (tree-sitter grammars compiled
// to WebAssembly), so `file#name` claims bind to something that exists. Loaded only when a symbol
// target is used: plain takes never pay for it.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type Parser from "web-tree-sitter";
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
 * The top-level declarations of `file`: functions, classes and other method-bearing types,
 * interfaces, type aliases, enums, top-level variables. With `parsed.bindings` asked for (names,
 * to count), how often the file's module scope binds each anew (moduleBindings).
 */
export async function listSymbols(file: string, source: string, parsed: { hasError?: boolean; bindings?: Map<string, number> } = {}): Promise<SymbolInfo[]> {
  const grammar = grammarOf(file);
  if (!grammar) throw new BadInputError(`${file} has no grammar for symbol claims; claim the whole file instead.`);
  const parser = await parserFor(grammar);
  const tree = parser.parse(source);
  // The grammar recovers from errors, so a declaration may still be listed that the language would
  // not read any more (after an unclosed comment or string): the caller is told there were some.
  parsed.hasError = tree.rootNode.hasError;
  const found: SymbolInfo[] = [];
  for (const node of tree.rootNode.namedChildren) collect(node, node, found);
  if (parsed.bindings) moduleBindings(tree.rootNode, parsed.bindings);
  tree.delete();
  parser.delete();
  return found;
}

/** Nodes whose names are their own (a function's, a class's, a lambda's): bindings inside them are not the module's. */
const SCOPES = new Set([
  "function_definition",
  "class_definition",
  "lambda",
  "function_declaration",
  "generator_function_declaration",
  "function_expression",
  "function",
  "generator_function",
  "arrow_function",
  "method_definition",
  "class_declaration",
  "class",
  "class_body",
  "list_comprehension",
  "set_comprehension",
  "dictionary_comprehension",
  "generator_expression",
  "internal_module", // a TypeScript namespace: its `var x` is the namespace's
  "module",
]);

/**
 * Counts, for each name in `counts`, the bindings of the module's scope anywhere outside functions
 * and classes, nested in blocks too (`if c:` / `try:` / `{ … }`): assignments and updates of the
 * name (`foo = …`, `foo += 1`, `foo++`, `[foo] = …`, `({ a: foo } = …)`, `foo, x = …`, `(foo := 3)`,
 * `del foo`), a `for foo in`/`for (foo of …)` target, a `var foo` in a block, Python's imports
 * (`import foo`, `from m import foo`, `… as foo`), `exports.foo = …`, `exports["foo"] = …` and
 * `module.exports = { foo: … }`.
 */
function moduleBindings(root: Parser.SyntaxNode, counts: Map<string, number>): void {
  // Each node with the names a block around it declares for itself (`{ let x; x = 1 }`, `for
  // (const x of …)`): assigning those binds the block's, not the module's.
  const stack: Array<{ node: Parser.SyntaxNode; shadowed: ReadonlySet<string> }> = root.namedChildren.map((node) => ({ node, shadowed: new Set() }));
  while (stack.length > 0) {
    const { node, shadowed: outer } = stack.pop() as { node: Parser.SyntaxNode; shadowed: ReadonlySet<string> };
    if (SCOPES.has(node.type)) continue;
    const shadowed = blockLocals(node, outer);
    const count = (names: string[]) => {
      for (const name of names) if (counts.has(name) && !shadowed.has(name)) counts.set(name, (counts.get(name) as number) + 1);
    };
    const left = node.childForFieldName("left");
    switch (node.type) {
      case "assignment":
      case "augmented_assignment":
      case "assignment_expression":
      case "augmented_assignment_expression":
        if (left) count(boundNames(left));
        if (left && /^(module\.exports|exports)$/.test(left.text) && node.type === "assignment_expression") count(objectKeys(node.childForFieldName("right")));
        break;
      case "for_statement":
      case "for_in_statement":
        // `for (const x of …)` and `for (let x in …)` declare x for the loop alone; `var` and a bare name bind the module's.
        if (left && !/^(const|let)$/.test(node.childForFieldName("kind")?.text ?? "")) count(boundNames(left));
        break;
      case "named_expression":
        count(boundNames(node.childForFieldName("name")));
        break;
      case "update_expression":
        count(boundNames(node.childForFieldName("argument")));
        break;
      case "delete_statement":
        for (const child of node.namedChildren) count(boundNames(child));
        break;
      case "as_pattern": // `with open(p) as foo:`, `except E as foo:`, `case X as foo:`
        count(boundNames(node.childForFieldName("alias")?.namedChildren[0] ?? node.childForFieldName("alias")));
        break;
      case "import_statement": // Python's `import foo`, `import a.b as foo`, `from m import foo`, anywhere in the module
      case "import_from_statement":
        for (const child of node.namedChildren) {
          if (child.startIndex === node.childForFieldName("module_name")?.startIndex) continue; // `from m`: m is read, not bound
          if (child.type === "aliased_import") count(boundNames(child.childForFieldName("alias")));
          else if (child.type === "dotted_name") count([(node.type === "import_statement" ? child.namedChildren[0] : child.namedChildren.at(-1))?.text ?? ""]);
        }
        break;
      case "export_specifier": // `export { g as foo }`: what importers get as foo
        if (node.childForFieldName("alias")) count(boundNames(node.childForFieldName("alias")));
        break;
      case "namespace_export": // `export * as foo from "m"`
        count(node.namedChildren.filter((child) => child.type === "identifier").map((child) => child.text));
        break;
      case "variable_declaration": // `var`: the function's scope, here the module's, from any block
        if (node.parent?.type !== "program") for (const child of node.namedChildren) if (child.type === "variable_declarator") count(boundNames(child.childForFieldName("name")));
        break;
    }
    for (const child of node.namedChildren) stack.push({ node: child, shadowed });
  }
}

/**
 * The names bound for a block alone, added to those of the blocks around it: a block's own `let`,
 * `const` and class declarations, a `for (const x …)` or `for (let x …)` loop's variable.
 */
function blockLocals(node: Parser.SyntaxNode, outer: ReadonlySet<string>): ReadonlySet<string> {
  const own: string[] = [];
  if (node.type === "statement_block" || node.type === "switch_body") {
    for (const child of node.namedChildren) {
      if (child.type === "lexical_declaration") for (const declarator of child.namedChildren) if (declarator.type === "variable_declarator") own.push(...boundNames(declarator.childForFieldName("name")));
      if (child.type === "class_declaration") own.push(child.childForFieldName("name")?.text ?? "");
    }
  }
  if ((node.type === "for_in_statement" && /^(const|let)$/.test(node.childForFieldName("kind")?.text ?? "")) || (node.type === "for_statement" && node.childForFieldName("initializer")?.type === "lexical_declaration")) {
    const declared = node.type === "for_in_statement" ? node.childForFieldName("left") : node.childForFieldName("initializer");
    own.push(...(declared?.type === "lexical_declaration" ? declared.namedChildren.flatMap((declarator) => boundNames(declarator.childForFieldName("name"))) : boundNames(declared)));
  }
  return own.length === 0 ? outer : new Set([...outer, ...own]);
}

/**
 * How often a file binds `name` anew at its top level, read from its lines (what the syntax tree
 * shows is moduleBindings'): an assignment or update starting a line
 * (`name = …`, `exports.name = …`, `name++`, Python's `for name in`), or an alias in an import or
 * export list (`export { x as name }`, `export * as name`, `import … as name`). A local of the same
 * name, a keyword argument or an object key is indented or mid-line, and no rebinding.
 */
export function lineRebindings(text: string, name: string): number {
  const word = name.replace(/\$/g, "\\$");
  const end = "(?![\\w$])";
  const pattern = new RegExp(
    [
      `^(?:(?:module\\.)?exports\\.)?${word}\\s*(?:(?:[-+*/%&|^]|\\*\\*|<<|>>>?|&&|\\|\\||\\?\\?|:)?=(?![=>])|\\+\\+|--)`,
      `^for\\s+${word}\\s+in\\b`,
      `\\bexport\\s*\\{[^}]*\\bas\\s+${word}${end}`,
      `\\bexport\\s*\\*\\s*as\\s+${word}${end}`,
      `^\\s*(?:import|from)\\b[^\\n;]*\\bas\\s+${word}${end}`,
    ].join("|"),
    "gm",
  );
  return text.match(pattern)?.length ?? 0;
}

/** The names a binding's target binds: a name, each name in a pattern, an `exports` member's. */
function boundNames(target: Parser.SyntaxNode | null): string[] {
  if (!target) return [];
  switch (target.type) {
    case "identifier":
    case "shorthand_property_identifier_pattern":
      return [target.text];
    case "pair_pattern":
      return boundNames(target.childForFieldName("value"));
    case "assignment_pattern":
    case "object_assignment_pattern":
      return boundNames(target.childForFieldName("left"));
    case "member_expression":
    case "attribute": {
      const object = target.childForFieldName("object");
      const property = target.childForFieldName("property") ?? target.childForFieldName("attribute");
      return object && property && /^(module\.exports|exports)$/.test(object.text) ? [property.text] : [];
    }
    case "subscript_expression": {
      const object = target.childForFieldName("object");
      const index = target.childForFieldName("index");
      return object && index?.type === "string" && /^(module\.exports|exports)$/.test(object.text) ? [index.text.slice(1, -1)] : [];
    }
    default:
      return /pattern|pattern_list|expression_list|parenthesized|tuple|list_splat|rest|spread|^list$|array/.test(target.type) ? target.namedChildren.flatMap(boundNames) : [];
  }
}

/** The keys of an object literal (`{ foo: bar, baz }`): what `module.exports = …` exports. */
function objectKeys(node: Parser.SyntaxNode | null): string[] {
  if (node?.type !== "object") return [];
  return node.namedChildren.flatMap((child) => {
    if (child.type === "shorthand_property_identifier") return [child.text];
    const key = child.type === "pair" ? child.childForFieldName("key") : null;
    return key ? [key.type === "string" ? key.text.slice(1, -1) : key.text] : [];
  });
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
 * full, canonical, as every other answer names it: two files may share a base name.
 */
export async function checkSymbol(target: Pick<TargetShape, "canonical" | "path" | "symbol">, creating: boolean): Promise<void> {
  const { canonical, path: file } = target;
  const symbol = target.symbol as string;
  const shownFile = canonical.slice(0, canonical.length - symbol.length - 1); // the file as canonical (escaped) text
  const grammar = grammarOf(file);
  if (!grammar && !existsSync(file)) {
    throw new BadInputError(`Target ${canonical} reads as the symbol ${symbol} of the file ${shownFile}, which does not exist; for a name, leave out the #.`);
  }
  if (!grammar) throw new BadInputError(`Target ${canonical} names a symbol, but ${shownFile} has no grammar for symbol claims; claim the whole file instead.`);
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (error) {
    if (creating && (error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw new BadInputError(
      `Cannot read ${shownFile} to find the symbol ${symbol} (${(error as NodeJS.ErrnoException).code}); claim the whole file, or pass ${switchOn("creating")} for a symbol you are about to add.`,
    );
  }
  const names = [...new Set((await listSymbols(file, source)).map((info) => info.name))];
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
