// Where a file binds a name anew in its module's scope (not a function's or a block's own): what
// changes what a held symbol is beside its declaration (`f = …` in an `if`, `[f] = …`, `export { g
// as f }`, Python's `from m import f`, a `def f` in a `try`, `f = …` in a JavaScript, Go, C, C++ or
// Rust function that declares no `f` of its own, C++'s `::f = …` anywhere). Counted on the syntax
// tree symbols.ts parses, and read from line starts too (lineRebindings), before and after an edit
// or a commit.
import type Parser from "web-tree-sitter";
import { blockLocals, boundNames, DECLARED_NAMES, enterFunction, enterPython, fileScopeNames, type Place, pushChildren, scopeOf, type Wanted } from "./binding-scopes.js";

/**
 * Counts, for each name in `counts`, the bindings of the module's scope anywhere in the file, nested
 * in blocks too (`if c:` / `try:` / `{ … }`): assignments and updates of the name (`foo = …`, `foo
 * += 1`, `foo++`, `[foo] = …`, `({ a: foo } = …)`, `foo, x = …`, `(foo := 3)`, `del foo`), a `for
 * foo in`/`for (foo of …)` target, a `var foo` or (sloppy JavaScript hoists it) a `function foo` in
 * a block, a Python `def`, `class`, `type` or `case` capture, a Ruby `def` (`alias`,
 * `alias_method`, `undef`) outside classes and modules, Python's imports (`import foo`, `from m import foo`,
 * `… as foo`), `exports.foo = …`, `exports["foo"] = …`, `module.exports = { foo: … }`,
 * `Object.assign(module.exports, { foo: … })`, `Object.defineProperty(exports, "foo", …)`; in a Python
 * function, a name it declares `global`; in a JavaScript, Go, C, C++ or Rust function (a method, a
 * closure, a lambda), an assignment of a name that neither it nor a function or block around it
 * declares (Rust's `unsafe { FOO += 1 }` of a `static mut FOO`); C++'s `::foo = …` and `::foo++`,
 * whatever is declared around them. With `texts`, the text of each binding counted (the
 * assignment, the `def` with its decorators, a loop's target, an exported key's entry), after the
 * definitions it stands in (placeOf): an edit of one of them (`foo = 2` in a function made `foo =
 * 3`), or its move into another function, changes the name as adding one does.
 */
export function moduleBindings(root: Parser.SyntaxNode, counts: Map<string, number>, deadline = Infinity, texts?: Map<string, string[]>): void {
  const wanted = wantedIn(root.text, root.startIndex, counts);
  const stack: Place[] = [];
  pushChildren(stack, root, new Set(), "module", wanted);
  for (let steps = 0; stack.length > 0; steps++) {
    // Past the caller's time (a file of megabytes that spells the name in every function): not
    // counted, which its caller takes as any symbol changed, rather than outlast the agent's wait.
    if ((steps & 1023) === 1023 && Date.now() > deadline) throw new BindingsTimeout();
    const { node, shadowed: outer, within } = stack.pop() as Place;
    if (!wanted.mentionedIn(node)) continue;
    // A declaration in a function is the function's; an assignment there is the module's unless shadowed.
    const countIn = (shadowed: ReadonlySet<string>, names: string[], declares = false, site = node) => {
      for (const name of names) {
        if (!counts.has(name)) continue;
        const theModules = typeof within === "object" ? within.globals.has(name) : !shadowed.has(name) && !(declares && within === "function");
        if (!theModules) continue;
        counts.set(name, (counts.get(name) as number) + 1);
        if (texts && !texts.has(name)) texts.set(name, []);
        texts?.get(name)?.push(`${placeOf(site)}\u0001${site.text}`);
      }
    };
    const scope = scopeOf(node);
    if (scope !== undefined) {
      // Its own name is bound where it stands (`if c:` then `def f`); its body is read on its scope's terms (binding-scopes.ts).
      // A Python def's or class's decorators are the parent decorated_definition's: changing one (`@cache` made `@evil`) changes what it binds.
      if (DECLARED_NAMES.has(node.type)) countIn(outer, [node.childForFieldName("name")?.text ?? ""], true, node.parent?.type === "decorated_definition" ? node.parent : node);
      if (scope === "python") enterPython(stack, node, outer, within, wanted);
      if (scope === "function") enterFunction(stack, node, outer, within, wanted);
      continue;
    }
    const shadowed = blockLocals(node, outer, wanted);
    const count = (names: string[], declares = false, site = node) => countIn(shadowed, names, declares, site);
    const left = /assignment|for_|range_clause/.test(node.type) ? node.childForFieldName("left") : null;
    switch (node.type) {
      case "assignment":
      case "augmented_assignment":
      case "assignment_expression":
      case "augmented_assignment_expression":
      case "assignment_statement": // Go's `F = …`, `F, err = …`, `F += 1`
      case "compound_assignment_expr": // Rust's `F += 1`
        if (left) count(boundNames(left));
        countIn(NOTHING_SHADOWED, fileScopeNames(left));
        if (left && /^(module\.exports|exports)$/.test(left.text) && node.type === "assignment_expression") for (const [key, entry] of objectKeys(node.childForFieldName("right"))) count([key], false, entry);
        break;
      case "for_statement":
      case "for_in_statement":
        // `for (const x of …)` and `for (let x in …)` declare x for the loop alone; `var` and a bare name bind the module's.
        if (left && !/^(const|let)$/.test(node.childForFieldName("kind")?.text ?? "")) count(boundNames(left), false, left);
        break;
      case "range_clause": // Go's `for F = range …` assigns F; `for F := range …` declares the loop's own
        if (!node.children.some((child) => child.type === ":=")) count(boundNames(left));
        break;
      case "named_expression":
        count(boundNames(node.childForFieldName("name")));
        break;
      case "update_expression":
        count(boundNames(node.childForFieldName("argument")));
        countIn(NOTHING_SHADOWED, fileScopeNames(node.childForFieldName("argument")));
        break;
      case "inc_statement": // Go's `F++`
      case "dec_statement":
        count(boundNames(node.namedChildren[0] ?? null));
        break;
      case "delete_statement":
        for (const child of node.namedChildren) count(boundNames(child));
        break;
      case "as_pattern": // `with open(p) as foo:`, `except E as foo:`
        count(boundNames(node.childForFieldName("alias")?.namedChildren[0] ?? node.childForFieldName("alias")));
        break;
      case "case_clause": // Python's `case foo:`, `case [foo, *rest]:`, `case P() as foo:` capture into foo
        for (const child of node.namedChildren) if (child.type === "case_pattern") count(capturedNames(child), false, child);
        break;
      case "type_alias_statement": // Python's `type foo = …`
        count(boundNames(node.namedChildren[0]?.namedChildren[0] ?? null));
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
        if (node.parent?.type !== "program") for (const child of node.namedChildren) if (child.type === "variable_declarator") count(boundNames(child.childForFieldName("name")), true);
        break;
      // Ruby: a `def` outside a class or module, in an `if` or a block too (or in another method),
      // defines the top level's method; so do `alias foo bar` and `alias_method :foo, :bar`.
      case "method":
      case "singleton_method":
      case "alias":
        count([node.childForFieldName("name")?.text ?? ""], true);
        break;
      case "call_expression": {
        // `Object.assign(module.exports, { foo: … })`, `Object.defineProperty(exports, "foo", …)`
        // (as TypeScript compiles a re-export): what importers get as foo, as `exports.foo = …` is.
        const callee = node.childForFieldName("function")?.text;
        const args = node.childForFieldName("arguments")?.namedChildren ?? [];
        if (args[0] === undefined || !/^(module\.exports|exports)$/.test(args[0].text)) break;
        if (callee === "Object.assign") for (const arg of args.slice(1)) for (const [key, entry] of objectKeys(arg)) count([key], false, entry);
        if (callee === "Object.defineProperty" && args[1]?.type === "string") count([args[1].text.slice(1, -1)], false, args[1]);
        break;
      }
      case "undef": // Ruby's `undef foo, :bar`: the top level's method foo is gone
        for (const child of node.namedChildren) count([child.text.replace(/^:/, "")], true);
        break;
      case "call":
        if (/^(alias_method|define_method)$/.test(node.childForFieldName("method")?.text ?? "")) {
          const first = node.childForFieldName("arguments")?.namedChildren[0];
          if (first?.type === "simple_symbol") count([first.text.slice(1)], true);
          if (first?.type === "string") count([first.namedChildren.map((part) => part.text).join("")], true);
        }
        break;
    }
    pushChildren(stack, node, shadowed, within, wanted, outer);
  }
}

/**
 * Where a binding stands, for its recorded text: the names of the definitions around it, outermost
 * first (`C.m`, Rust's `impl Cart.total`, C's `g`; an unnamed function or block by its type), so
 * that a binding moved from one function into another (or two swapped) is a change, and one that
 * stays where it is while lines around it change is not. A walk up its parents, for the few
 * bindings counted.
 */
function placeOf(site: Parser.SyntaxNode): string {
  const names: string[] = [];
  for (let around = site.parent; around; around = around.parent) {
    if (scopeOf(around) === undefined && !CONTAINERS.has(around.type)) continue;
    let declarator = around.childForFieldName("declarator"); // C's and C++'s `int *g(void)`: g
    while (declarator && declarator.type !== "function_declarator") declarator = declarator.childForFieldName("declarator");
    const implemented = around.type === "impl_item" ? `impl ${around.childForFieldName("type")?.text ?? ""}` : undefined;
    names.push(around.childForFieldName("name")?.text ?? implemented ?? declarator?.childForFieldName("declarator")?.text ?? around.type);
  }
  return names.reverse().join(".");
}

/** Definitions that name where a binding stands besides the scopes scopeOf knows: Ruby's methods, Rust's impls, traits and mods, C++'s namespaces, classes and structs. */
const CONTAINERS = new Set(["method", "singleton_method", "impl_item", "trait_item", "mod_item", "namespace_definition", "class_specifier", "struct_specifier"]);

/** What C++'s `::foo` is read with: the file's foo, whatever a function or block around it declares. */
const NOTHING_SHADOWED: ReadonlySet<string> = new Set();

/** moduleBindings ran past its deadline. */
export class BindingsTimeout extends Error {}

/**
 * The counted names, and whether a node's text mentions one: found by halving among where they
 * occur in the file. Reading every function's body (as a name assigned there may be the module's)
 * took a 1.4 MB file 5 s more, twice for each edit the hook judges; the bodies that never spell a
 * counted name are most of them.
 */
function wantedIn(source: string, offset: number, counts: ReadonlyMap<string, number>): Wanted {
  const mentions: number[] = [];
  // Where the file's own text stands: the root node starts after leading white space or a BOM, and
  // a node's startIndex counts from the file's start, not the root's.
  for (const name of counts.keys()) {
    if (name === "") continue;
    for (let at = source.indexOf(name); at !== -1; at = source.indexOf(name, at + 1)) mentions.push(at + offset);
  }
  mentions.sort((a, b) => a - b);
  return {
    has: (name) => counts.has(name),
    mentionedIn: (node) => {
      let low = 0;
      let high = mentions.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if ((mentions[middle] as number) < node.startIndex) low = middle + 1;
        else high = middle;
      }
      return low < mentions.length && (mentions[low] as number) < node.endIndex;
    },
  };
}

/** A file as listSymbols reads it for the bindings of some names: how often each is bound anew, and the text of each binding. */
export interface BindingsRead {
  hasError?: boolean;
  bindings: Map<string, number>;
  bindingTexts: Map<string, string[]>;
  moduleAttributes?: string;
}

/** An empty reading, asking for the bindings of `names` (listSymbols fills it). */
export function bindingsOf(names: string[]): BindingsRead {
  return { bindings: new Map(names.map((name) => [name, 0])), bindingTexts: new Map() };
}

/**
 * Whether a change of a file, from `before` (read from `was`) to `after` (read from `is`), binds
 * `name` anew in the module's scope or changes a binding of it (`foo = 2` in a function made `foo =
 * 3`): as the syntax tree shows, and as lines read. The agent hooks and the git guard judge an edit
 * of a held symbol by it.
 */
export function reboundBetween(name: string, before: BindingsRead, was: string, after: BindingsRead, is: string): boolean {
  const texts = (read: BindingsRead) => [...(read.bindingTexts.get(name) ?? [])].sort().join("\0");
  return (after.bindings.get(name) ?? 0) > (before.bindings.get(name) ?? 0) || texts(before) !== texts(after) || lineRebindings(is, name) > lineRebindings(was, name) || memberChanges(was, name) !== memberChanges(is, name);
}

/**
 * How often a file binds `name` anew at its top level, read from its lines (what the syntax tree
 * shows is moduleBindings'): an assignment or update starting a line
 * (`name = …`, `exports.name = …`, `name++`, Python's `for name in`), a `def`, `class` or `function`
 * starting one, or an alias in an import or export list (`export { x as name }`, `export * as
 * name`, `import … as name`). A local of the same name, a keyword argument or an object key is
 * indented or mid-line, and no rebinding; so is a `def` in a function, which only the tree tells
 * from one in an `if` (moduleBindings counts that).
 */
export function lineRebindings(text: string, name: string): number {
  const word = name.replace(/\$/g, "\\$");
  const end = "(?![\\w$])";
  const pattern = new RegExp(
    [
      `^(?:(?:module\\.)?exports\\.)?${word}\\s*(?:(?:[-+*/%&|^]|\\*\\*|<<|>>>?|&&|\\|\\||\\?\\?|:)?=(?![=>])|\\+\\+|--)`,
      `^for\\s+${word}\\s+in\\b`,
      `^(?:export\\s+(?:default\\s+)?)?(?:async\\s+)?(?:(?:def|class)\\s+|function(?:\\s*\\*\\s*|\\s+))${word}${end}`,
      `\\bexport\\s*\\{[^}]*\\bas\\s+${word}${end}`,
      `\\bexport\\s*\\*\\s*as\\s+${word}${end}`,
      `^\\s*(?:import|from)\\b[^\\n;]*\\bas\\s+${word}${end}`,
    ].join("|"),
    "gm",
  );
  return text.match(pattern)?.length ?? 0;
}

/**
 * An assignment's target: a name, dotted or subscripted (`x`, `self.y`, `d["k"]`). Bounded, as are
 * the chains of them memberChanges reads: a minified file's one line holds thousands of places a
 * patch may start, and each is read from there.
 */
const TARGET = String.raw`[\w$.]{1,80}(?:\[[^\]\n]{0,80}\]){0,3}`;

/**
 * A type annotation before an assigned value (`Foo.a: dict[str, int] | None = …`): names,
 * brackets, quotes, commas, dots and bars, no call or comparison (a dict keyed by an enum's
 * member, `Color.RED: make(bold=True),`, is no annotation), and the `=` after it spaced, as PEP 8
 * and every formatter write it.
 */
const ANNOTATION = String.raw`[\w$.[\]|"' ,]{1,80}?`;

/**
 * The lines that change what the held name's object is from outside its declaration, read from
 * line starts (a module's statement; for a capitalized name, a function's too, which patches it
 * when it runs, and one after `;`, `{`, `:` or `=>`): an attribute or item of it
 * set or deleted (`Foo.bar = …`, `Foo.prototype.x = …`, `foo.__code__ = …`, `Foo["x"] += 1`,
 * `del Foo.bar`), `setattr(Foo, …)`, `Object.assign(Foo.prototype, …)`,
 * `Object.defineProperty(Foo, …)`, Ruby's `Foo.define_method`, `Foo.class_eval`, `Foo.include`,
 * `Foo.prepend`. One added, removed or changed changes the symbol as an edit of its lines does.
 */
export function memberChanges(text: string, name: string): string {
  if (!text.includes(name)) return "";
  const word = name.replace(/\$/g, "\\$");
  // From a line's start; and, for a name written as a class's or a constant's (`Foo`, `ALLOWED`), from
  // an indented line, after `;`, `{`, `:` or `=>` too: a patch made in a function runs when it is called
  // (`def setup():\n    Foo.a = …`, `def setup(): Foo.a = …`, `beforeEach(() => Foo.a = 1)`). A
  // lowercase name there is more often a parameter or local of that name (`def f(config): config.x = 1`).
  const anywhere = /^[A-Z]/.test(name);
  const pattern = new RegExp(
    [
      // Foo.a = …, Foo.a += …, Foo["a"]++; also as one of a chain (`x = Foo.a = 1`), annotated
      // (`Foo.a: int = 1`), or one target of several (`Foo.a, Foo.b = 1, 2`, `[x, Foo.a] = …`: with
      // spaces around the `=`, as a keyword argument on a call's next line, `x, Foo.a, y=2)`, has none).
      // What these add is read within a line (spaces and tabs, not `\s`): a run of blank lines read
      // every way a `\s*` and a `\s+` may share it took seconds.
      `(?:(?:export[ \\t]+)?(?:const|let|var)[ \\t]+)?(?:${TARGET}[ \\t]*=(?![=>])[ \\t]*){0,3}(?:[[(][ \\t]*)?(?:${TARGET}[ \\t]*,[ \\t]*){0,3}${word}(?:\\s*(?:\\.\\s*[\\w$]+|\\[[^\\]\\n]*\\]))+(?:\\s*(?:(?:[-+*/%&|^@]|\\*\\*|\\/\\/|<<|>>>?|&&|\\|\\||\\?\\?)?=(?![=>])|\\+\\+|--)|[ \\t]*:[ \\t]*${ANNOTATION}[ \\t]=[ \\t]|(?:[ \\t]*,[ \\t]*${TARGET}){0,3}(?:[ \\t]*[\\])][ \\t]+|[ \\t]+)=[ \\t])`,
      `del\\s+${word}\\s*[.[]`,
      `(?:setattr|delattr)\\s*\\(\\s*${word}(?![\\w$])`,
      `Object\\s*\\.\\s*(?:assign|defineProperty|defineProperties|setPrototypeOf)\\s*\\(\\s*${word}(?![\\w$])`,
      `${word}\\s*\\.\\s*(?:(?:send|public_send|__send__)\\s*\\(?\\s*:)?(?:define_method|remove_method|undef_method|alias_method|class_eval|module_eval|class_exec|module_exec|instance_eval|include|prepend|extend)(?![\\w?!])`,
    ]
      .map((start) => `${anywhere ? "(?:^[ \\t]*|(?:[;{:]|=>)[ \\t]*)" : "^"}${start}[^\\n]*`)
      .join("|"),
    "gm",
  );
  return (text.match(pattern) ?? []).join("\n");
}

/**
 * The names a Python `case` pattern captures: a bare name (`case foo:`, in a list, a mapping's
 * value, a keyword's), `*rest`, `**rest`, `… as foo`. A dotted name (`case Color.RED:`) is read, and
 * so is a class pattern's class (`case Point(x=0):`).
 */
function capturedNames(pattern: Parser.SyntaxNode): string[] {
  const names: string[] = [];
  const stack = [pattern];
  while (stack.length > 0) {
    const each = stack.pop() as Parser.SyntaxNode;
    if (each.type === "dotted_name") {
      if (each.namedChildCount === 1 && each.parent?.type !== "class_pattern") names.push(each.text);
      continue;
    }
    if (each.type === "identifier" && /^(splat_pattern|as_pattern)$/.test(each.parent?.type ?? "")) names.push(each.text);
    stack.push(...each.namedChildren);
  }
  return names;
}

/** The keys of an object literal (`{ foo: bar, baz }`), each with its entry: what `module.exports = …` exports. */
function objectKeys(node: Parser.SyntaxNode | null): Array<[string, Parser.SyntaxNode]> {
  if (node?.type !== "object") return [];
  return node.namedChildren.flatMap((child): Array<[string, Parser.SyntaxNode]> => {
    if (child.type === "shorthand_property_identifier") return [[child.text, child]];
    if (child.type === "method_definition") return child.childForFieldName("name") ? [[child.childForFieldName("name")?.text ?? "", child]] : [];
    const key = child.type === "pair" ? child.childForFieldName("key") : null;
    return key ? [[key.type === "string" ? key.text.slice(1, -1) : key.text, child]] : [];
  });
}

/**
 * How many times more `text` spells `name` once read as some languages read identifiers than as
 * written: with `\u0066` or `\u{66}` escapes decoded (JavaScript and TypeScript read one in an
 * identifier as the letter, Java anywhere in the source) and in NFKC (Python reads identifiers so:
 * the fullwidth U+FF46 is `f`). The grammars list such a declaration under its spelling, never under
 * the name, so a text with one (a string spelling it counts too) is read as binding the name.
 */
export function otherSpellings(text: string, name: string): number {
  if (!/\\u|[^\x00-\x7f]/.test(text)) return 0;
  const plain = text
    .replace(/\\u+(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4}))/g, (whole, braced: string | undefined, four: string | undefined) => {
      const code = Number.parseInt(braced ?? (four as string), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .normalize("NFKC");
  const word = new RegExp(`(?<![\\p{ID_Continue}$])${name.replace(/\$/g, "\\$")}(?![\\p{ID_Continue}$])`, "gu");
  return (plain.match(word)?.length ?? 0) - (text.match(word)?.length ?? 0);
}

/**
 * A Python file's `from m import *` statements (a comment or string spelling one counted too), each
 * with the held names declared above it (`symbols`, as symbols.ts lists them): such an import
 * binds, where it stands, whatever `m` exports, a held name too, without naming it. One added,
 * removed, changed or moved past a held declaration may change any held name.
 */
export function starImports(text: string, symbols: Array<{ name: string; startLine: number }>, held: string[]): string {
  const found: string[] = [];
  for (const match of text.matchAll(/\bfrom[ \t]+(?:\\\r?\n[ \t]*)?[.\w]+[ \t]+(?:\\\r?\n[ \t]*)?import[ \t]*(?:\\\r?\n[ \t]*)?\*/g)) {
    const line = text.slice(0, match.index).split("\n").length;
    const above = symbols.filter((symbol) => held.includes(symbol.name) && symbol.startLine <= line).map((symbol) => symbol.name);
    found.push(`${above.join(",")}\u0001${match[0]}`);
  }
  return found.join("\n");
}

/**
 * Where a file binds names of its module's scope by a name computed when it runs, per language (by
 * the file's extension): Python's `globals()["foo"] = …` (also `vars()`, `locals()`, their
 * `update`, `setdefault`, `pop`), `exec(…)`, `setattr(sys.modules[__name__], …)` and
 * `sys.modules[__name__].foo = …`; JavaScript's and TypeScript's `exports[name] = …` (a key that is
 * no plain string), `Object.assign(module.exports, other)` (no object literal), an
 * `Object.defineProperty(exports, name, …)` of a name that is no plain string, TypeScript's
 * `__exportStar(…)` (`export *` compiled to CommonJS), `eval(…)`, and a property of `globalThis` or
 * `window` set (a browser script's top-level function is one); Ruby's `eval`, `instance_eval`,
 * `TOPLEVEL_BINDING`, and `define_method`, `remove_method`, `undef_method`, `alias_method`,
 * `class_eval` and the like on `Object` or `Kernel` (the top level's methods are Object's). Each
 * with its line; no grammar lists what they bind, so one added, removed or changed may change
 * any held name (the hook and the git guard compare the list before and after).
 */
export function dynamicBindings(file: string, text: string): string {
  const pattern = DYNAMIC_BINDINGS.find(([extension]) => extension.test(file))?.[1];
  if (pattern === undefined) return "";
  const found: string[] = [];
  for (const match of text.matchAll(pattern)) {
    const start = text.lastIndexOf("\n", match.index) + 1;
    const end = text.indexOf("\n", match.index + match[0].length);
    found.push(text.slice(start, end === -1 ? text.length : end));
  }
  return found.join("\n");
}

const DYNAMIC_BINDINGS: Array<[RegExp, RegExp]> = [
  [
    /\.pyi?$/i,
    /\b(?:globals|vars|locals)\s*\(\s*\)\s*(?:\[|\.\s*(?:update|setdefault|pop|popitem|clear|__setitem__|__delitem__)\b)|(?<![.\w])exec\s*\(|\b(?:setattr|delattr)\s*\(\s*(?:sys\s*\.\s*modules\b|__import__\s*\(|importlib\s*\.\s*import_module\s*\()|\bsys\s*\.\s*modules\s*\[[^\]\n]*\]\s*\.\s*(?:__dict__\b|\w+\s*(?:[-+*/|&^%@]|\/\/|\*\*|<<|>>)?=(?!=))/g,
  ],
  [
    /\.[cm]?[jt]sx?$/i,
    /\b(?:module\s*\.\s*)?exports\s*\[(?!\s*(["'`])[\w$]*\1\s*\])|\bObject\s*\.\s*(?:assign|defineProperty|defineProperties|setPrototypeOf)\s*\(\s*(?:(?:module\s*\.\s*)?exports|globalThis|window)\b(?!\s*,\s*(?:\{|(["'`])[\w$]*\2))|\b__exportStar\s*\(|(?<![.\w$])eval\s*\(|\b(?:globalThis|window)\s*(?:\.\s*[\w$]+|\[[^\]\n]*\])\s*(?:[-+*/|&^%]|\*\*|<<|>>>?|\?\?|\|\||&&)?=(?![=>])/g,
  ],
  [
    /\.rb$/i,
    /\b(?:Object|Kernel|BasicObject)\s*(?:\.|::)\s*(?:(?:send|public_send|__send__)\s*\(?\s*:)?(?:define_method|remove_method|undef_method|alias_method|class_eval|module_eval|class_exec|module_exec|instance_eval|instance_exec)\b|\bTOPLEVEL_BINDING\b|(?<![.\w])(?:eval|instance_eval|instance_exec)\b/g,
  ],
];
