// Where a file binds a name anew in its module's scope (not a function's or a block's own): what
// changes what a held symbol is beside its declaration (`f = …` in an `if`, `[f] = …`, `export { g
// as f }`, Python's `from m import f`). Counted on the syntax tree symbols.ts parses, and read
// from line starts too (lineRebindings), before and after an edit or a commit.
import type Parser from "web-tree-sitter";

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
 * (`import foo`, `from m import foo`, `… as foo`), `exports.foo = …`, `exports["foo"] = …`,
 * `module.exports = { foo: … }`, and in a Python function, a name it declares `global`.
 */
export function moduleBindings(root: Parser.SyntaxNode, counts: Map<string, number>): void {
  // Each node with the names a block around it declares for itself (`{ let x; x = 1 }`, `for
  // (const x of …)`): assigning those binds the block's, not the module's.
  const stack: Array<{ node: Parser.SyntaxNode; shadowed: ReadonlySet<string> }> = root.namedChildren.map((node) => ({ node, shadowed: new Set() }));
  while (stack.length > 0) {
    const { node, shadowed: outer } = stack.pop() as { node: Parser.SyntaxNode; shadowed: ReadonlySet<string> };
    if (SCOPES.has(node.type)) {
      // Python's `global f` in a function: its assignments of f bind the module's.
      if (node.type === "function_definition") globalBindings(node, counts);
      continue;
    }
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
 * In a Python function, the bindings of the names it declares `global` (not in functions nested
 * in it, which have their own), counted as the module's.
 */
function globalBindings(fn: Parser.SyntaxNode, counts: Map<string, number>): void {
  const body = fn.childForFieldName("body");
  if (!body) return;
  const inside = (node: Parser.SyntaxNode, visit: (each: Parser.SyntaxNode) => void) => {
    const stack = [...node.namedChildren];
    while (stack.length > 0) {
      const each = stack.pop() as Parser.SyntaxNode;
      if (SCOPES.has(each.type)) continue;
      visit(each);
      stack.push(...each.namedChildren);
    }
  };
  const globals = new Set<string>();
  inside(body, (each) => {
    if (each.type === "global_statement") for (const name of each.namedChildren) if (counts.has(name.text)) globals.add(name.text);
  });
  if (globals.size === 0) return;
  const only = new Map([...globals].map((name) => [name, 0]));
  moduleBindings(body, only);
  for (const [name, more] of only) counts.set(name, (counts.get(name) as number) + more);
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
