// What a function, class or block declares for itself, so that assigning the name there binds
// its own and not the module's (bindings.ts counts the module's): JavaScript's and TypeScript's
// parameters, `var`s, `let`s and functions, Go's parameters and `:=`, C's and C++'s parameters and
// block declarations, Rust's parameters and `let`s, Python's `global`s. Where the grammar does not
// say, a name counts as the module's: a refusal too many, not one too few.
import type Parser from "web-tree-sitter";

/**
 * Python's scopes: a function's, class's or lambda's body binds names of its own, but for those it
 * declares `global`. (C's and C++'s function_definition share the type: scopeOf tells them apart.)
 */
const PYTHON_SCOPES = new Set(["function_definition", "class_definition", "lambda"]);

/**
 * JavaScript's, TypeScript's and Go's functions, classes and namespaces: what they declare is
 * theirs, but assigning a name they do not declare (`function g() { f = 1 }`, Go's `F = 1` in a
 * func) assigns the module's, as the language looks a name up outward.
 */
const FUNCTIONS = new Set([
  "function_declaration",
  "generator_function_declaration",
  "function_expression",
  "function",
  "generator_function",
  "arrow_function",
  "method_definition",
  "class_declaration",
  "abstract_class_declaration",
  "class",
  "internal_module", // a TypeScript namespace: its `var x` is the namespace's
  "module",
  "method_declaration", // Go's
  "func_literal",
  "function_item", // Rust's: a `static mut` assigned in one (`unsafe { FOO = 2 }`) is the file's
  "closure_expression",
]);

/** Declarations that bind their name where they stand (the others' names are their own or a member's). */
export const DECLARED_NAMES = new Set(["function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration", "internal_module", "module", "function_definition", "class_definition"]);

/**
 * Where a node is. At the module's level; in a JavaScript or Go function or class ("function"),
 * where a declaration binds the function's name, not the module's, and an assignment binds the
 * module's unless shadowed; or in a Python function or class, where only the names it declares
 * `global` are the module's.
 */
export type Within = "module" | "function" | { globals: ReadonlySet<string> };

/** A node still to be read, with what the scopes around it make of a name. */
export interface Place {
  node: Parser.SyntaxNode;
  /**
   * The names declared for themselves by the blocks and functions around the node (`{ let x; x =
   * 1 }`, `for (const x of …)`, a parameter, a `var x` in the function, Go's `x := …` above it):
   * assigning those binds theirs, not the module's.
   */
  shadowed: ReadonlySet<string>;
  within: Within;
}

/**
 * The names whose bindings are counted: only they need be known as shadowed, and a node whose text
 * mentions none of them binds none of them (every binding spells the name), so is not read.
 */
export interface Wanted {
  has(name: string): boolean;
  mentionedIn(node: Parser.SyntaxNode): boolean;
}

/**
 * `shadowed` and those of `names` that are counted. Every local kept instead, a generated function
 * of 20,000 `x := …` lines held a set per statement of up to 20,000 names, and ran out of memory.
 */
function widened(shadowed: ReadonlySet<string>, names: string[], wanted: Wanted): ReadonlySet<string> {
  const more = names.filter((name) => wanted.has(name) && !shadowed.has(name));
  return more.length === 0 ? shadowed : new Set([...shadowed, ...more]);
}

/**
 * Pushes a node's children. In a function, a Go, C, C++ or Rust declaration (`x := …`, `var x`,
 * `for x := …`'s clause, `int x = 1;`, `for (int x = 0; …)`, `let x = 1;`) shadows its name for
 * the statements after it, not before: `F = 1` above `F := 2` assigns the package's F. One in a
 * preprocessor branch (`#ifdef T` … `int x;`) does not for the `#elif` or `#else` beside it, which
 * read what stands above the `#if`. A loop's or `if let`'s names (`shadowed`, blockLocals') are its
 * body's alone: the scrutinee, the range and the `else` are read with `outer`'s.
 */
export function pushChildren(stack: Place[], node: Parser.SyntaxNode, shadowed: ReadonlySet<string>, within: Within, wanted: Wanted, outer = shadowed): void {
  const body = patternBody(node);
  let running = body ? outer : shadowed;
  for (const child of node.namedChildren) {
    if (/^preproc_(else|elif|elifdef)$/.test(child.type)) running = shadowed;
    stack.push({ node: child, shadowed: body?.equals(child) ? shadowed : running, within });
    if (within === "function") running = widened(running, declaredAhead(child), wanted);
  }
}

/** The child that alone sees the names a loop or an `if let` binds: Rust's `if let`'s consequence, a `while let`'s, a `for`'s or C++'s `for (x : …)`'s body. */
function patternBody(node: Parser.SyntaxNode): Parser.SyntaxNode | null {
  if (node.type === "if_expression") return node.childForFieldName("consequence");
  return /^(while_expression|for_expression|for_range_loop)$/.test(node.type) ? node.childForFieldName("body") : null;
}

/**
 * The names a statement in a function declares for what follows it: Go's `x, y := …`, `var x, y`,
 * `const x`, a `for` clause's `i := 0`, `for k := range`; C's and C++'s `int x, *y = 0;` (a `for`'s
 * too), not an `extern int x;`, which names the file's; Rust's `let (x, y) = …`.
 */
function declaredAhead(node: Parser.SyntaxNode): string[] {
  switch (node.type) {
    case "declaration":
      if (node.namedChildren.some((child) => child.type === "storage_class_specifier" && child.text === "extern")) return [];
      return node.childrenForFieldName("declarator").flatMap(declaratorNames);
    case "let_declaration":
      return boundNames(node.childForFieldName("pattern"));
    case "short_var_declaration":
      return boundNames(node.childForFieldName("left"));
    case "var_declaration":
    case "const_declaration":
      return node.namedChildren.flatMap((spec) => spec.namedChildren.filter((child) => child.type === "identifier").map((child) => child.text));
    case "for_clause":
      return declaredAhead(node.childForFieldName("initializer") ?? node);
    case "range_clause":
    case "receive_statement": // a select's `case x := <-ch:`
      return node.children.some((child) => child.type === ":=") ? boundNames(node.childForFieldName("left")) : [];
    default:
      return [];
  }
}

/**
 * What kind of scope a node opens: "python" (its body binds its own names, but the `global` ones),
 * "function" (JavaScript's, Go's, C's, C++'s, Rust's: it declares its own, and assigns the
 * module's), "closed" (Ruby's class and module bodies: their `def`s are theirs), or none. Grammars
 * share some types: a Ruby lambda's body is a block (its `def` defines the top level's method), a
 * JavaScript class's a class_body, a TypeScript module's a statement_block, a C function's and a
 * C++ lambda's a compound_statement (a Python function's is a block, a Java lambda's a block or an
 * expression).
 */
export function scopeOf(node: Parser.SyntaxNode): "python" | "function" | "closed" | undefined {
  const body = () => node.childForFieldName("body")?.type ?? "";
  if (/^(function_definition|lambda_expression)$/.test(node.type) && body() === "compound_statement") return "function";
  if (node.type === "lambda") return /^(block|do_block)$/.test(body()) ? undefined : "python";
  // Ruby's `class Object` reopens the class whose methods the top level's `def`s are: its `def foo` is the top level's foo.
  if (node.type === "class" && /^(::)?Object$/.test(node.childForFieldName("name")?.text ?? "") && body() !== "class_body") return undefined;
  if (node.type === "class" || node.type === "module") return /^(class_body|statement_block)$/.test(body()) ? "function" : "closed";
  if (node.type === "singleton_class") return "closed";
  if (PYTHON_SCOPES.has(node.type)) return "python";
  return FUNCTIONS.has(node.type) ? "function" : undefined;
}

/**
 * A Python function, class or lambda: its body binds the module's names it declares `global` (as
 * the module does, `def` and `class` too), nothing else; its parameters' defaults, decorators and
 * bases are evaluated where it stands.
 */
export function enterPython(stack: Place[], node: Parser.SyntaxNode, outer: ReadonlySet<string>, within: Within, wanted: Wanted): void {
  const body = node.childForFieldName("body");
  for (const child of node.namedChildren) {
    if (body?.equals(child)) stack.push({ node: child, shadowed: new Set(), within: { globals: pythonGlobals(child, wanted) } });
    else stack.push({ node: child, shadowed: outer, within });
  }
}

/** The names a Python function's or class's body declares `global` (not in functions nested in it, which have their own). */
function pythonGlobals(body: Parser.SyntaxNode, wanted: Wanted): ReadonlySet<string> {
  const globals = new Set<string>();
  const stack = [...body.namedChildren];
  while (stack.length > 0) {
    const each = stack.pop() as Parser.SyntaxNode;
    if (PYTHON_SCOPES.has(each.type) || !wanted.mentionedIn(each)) continue;
    if (each.type === "global_statement") for (const name of each.namedChildren) globals.add(name.text);
    stack.push(...each.namedChildren);
  }
  return globals;
}

/**
 * A JavaScript, Go, C, C++ or Rust function (or a class, whose methods are functions): its
 * parameters, a named function expression's own name, and in its body the `var`s it hoists and the
 * functions it declares are its own; its `let`, `const`, Go's `:=`, C's declarations and Rust's
 * `let` are its blocks' (blockLocals, pushChildren). A parameter's default sees the parameters, not
 * the body's `var`s. A Rust `fn` in a function sees none of the function's names.
 */
export function enterFunction(stack: Place[], node: Parser.SyntaxNode, outer: ReadonlySet<string>, within: Within, wanted: Wanted): void {
  const lists = ["parameters", "parameter", "receiver", "result"].flatMap((field) => node.childForFieldName(field) ?? []);
  const parameters = [...lists, ...declaredParameters(node)].flatMap(parameterNames);
  if (/^(function_expression|function|generator_function)$/.test(node.type)) parameters.push(node.childForFieldName("name")?.text ?? "");
  const withParameters = widened(node.type === "function_item" ? new Set() : outer, parameters, wanted);
  const body = node.childForFieldName("body");
  const inBody = widened(withParameters, body?.type === "statement_block" ? hoistedNames(body, wanted) : [], wanted);
  for (const child of node.namedChildren) {
    if (body?.equals(child)) stack.push({ node: child, shadowed: inBody, within: "function" });
    else if (lists.some((list) => list.equals(child))) stack.push({ node: child, shadowed: withParameters, within: "function" });
    else stack.push({ node: child, shadowed: outer, within });
  }
}

/**
 * The names a parameter list binds: JavaScript's (`a`, `{ b }`, `c = 1`, `...d`, TypeScript's `e:
 * T`), Go's (`a, b int`, `c ...int`), C's and C++'s (`int *a`, `int (*f)(void)`, `int &b = 1`),
 * Rust's (`mut a: i32`, `(b, c): (i32, i32)`, a closure's `|d, e: i32|`).
 */
function parameterNames(list: Parser.SyntaxNode): string[] {
  if (list.type === "identifier") return [list.text]; // an arrow function's one parameter, `x => …`
  return list.namedChildren.flatMap((parameter) => {
    const declarator = parameter.childForFieldName("declarator");
    if (declarator) return declaratorNames(declarator); // C's and C++'s
    if (/^(parameter_declaration|variadic_parameter_declaration)$/.test(parameter.type)) return parameter.namedChildren.filter((child) => child.type === "identifier").map((child) => child.text);
    if (/^(required_parameter|optional_parameter|parameter)$/.test(parameter.type)) return boundNames(parameter.childForFieldName("pattern"));
    return boundNames(parameter);
  });
}

/**
 * A C or C++ function's parameter list, or a C++ lambda's: in the function declarator next to its
 * name (`int (*f(int a))(int b)` takes `a`; `b` is the returned function's).
 */
function declaredParameters(node: Parser.SyntaxNode): Parser.SyntaxNode[] {
  let list: Parser.SyntaxNode | null = null;
  for (let current = node.childForFieldName("declarator"); current; current = innerDeclarator(current)) {
    if (/^(abstract_)?function_declarator$/.test(current.type)) list = current.childForFieldName("parameters");
  }
  return list ? [list] : [];
}

/** The declarator a C or C++ declarator wraps: `*x`'s, `x[3]`'s, `(x)`'s, `&x`'s, `x = 1`'s. */
function innerDeclarator(node: Parser.SyntaxNode): Parser.SyntaxNode | null {
  return node.childForFieldName("declarator") ?? (/_declarator$/.test(node.type) ? (node.namedChildren.find((child) => /_declarator$|^identifier$/.test(child.type)) ?? null) : null);
}

/**
 * The names a C or C++ declarator declares: `x`, `*x`, `x[3]`, `(*x)(void)`, `&x`, `x = 1`, `[x,
 * y]`. Not a function's (`int x(void);` in a block names the file's function): none.
 */
function declaratorNames(declarator: Parser.SyntaxNode): string[] {
  for (let current: Parser.SyntaxNode | null = declarator; current; current = innerDeclarator(current)) {
    if (/^(identifier|field_identifier)$/.test(current.type)) return [current.text];
    if (current.type === "structured_binding_declarator") return current.namedChildren.filter((child) => child.type === "identifier").map((child) => child.text);
    if (current.type === "function_declarator" && current.childForFieldName("declarator")?.type !== "parenthesized_declarator") return [];
  }
  return [];
}

/** C++'s `::x`: the file's x, whatever a function or block around it declares. */
export function fileScopeNames(target: Parser.SyntaxNode | null): string[] {
  if (target?.type !== "qualified_identifier" || target.childForFieldName("scope") || !target.text.startsWith("::")) return [];
  const name = target.childForFieldName("name");
  return name?.type === "identifier" ? [name.text] : [];
}

/**
 * The names a JavaScript function body declares for the whole function: `var`s anywhere in it
 * (`for (var x …)` too) and the functions it declares at its top. A function declared in a block
 * of it is that block's in strict code, so it is not counted here: an assignment beside it is
 * then taken as the module's, a refusal too many rather than one too few.
 */
function hoistedNames(body: Parser.SyntaxNode, wanted: Wanted): string[] {
  const names = body.namedChildren.filter((child) => /^(function_declaration|generator_function_declaration)$/.test(child.type)).map((child) => child.childForFieldName("name")?.text ?? "");
  const stack = [...body.namedChildren];
  while (stack.length > 0) {
    const each = stack.pop() as Parser.SyntaxNode;
    if (!wanted.mentionedIn(each) || scopeOf(each) !== undefined) continue;
    if (each.type === "variable_declaration") for (const declarator of each.namedChildren) names.push(...boundNames(declarator.childForFieldName("name")));
    if (each.type === "for_in_statement" && each.childForFieldName("kind")?.text === "var") names.push(...boundNames(each.childForFieldName("left")));
    stack.push(...each.namedChildren);
  }
  return names;
}

/**
 * The names bound for a block alone, added to those of the blocks around it: a block's own `let`,
 * `const` and class declarations, a `for (const x …)` or `for (let x …)` loop's variable, a
 * `catch (x)`'s, Go's `switch x := v.(type)`'s; C++'s `for (auto x : …)`'s, `if (int x = …)`'s,
 * `catch (E &x)`'s, and a class's members in its methods; Rust's `for x in`'s, `if let Some(x)`'s,
 * a match arm's. A loop's and an `if let`'s are given to its body alone (pushChildren).
 */
export function blockLocals(node: Parser.SyntaxNode, outer: ReadonlySet<string>, wanted: Wanted): ReadonlySet<string> {
  const own: string[] = [];
  if (node.type === "statement_block" || node.type === "switch_body") {
    // A switch's cases share its body's scope: a `let` under `case 1:` is the whole switch's.
    const statements = node.type === "switch_body" ? node.namedChildren.flatMap((each) => (/^switch_(case|default)$/.test(each.type) ? each.namedChildren : [each])) : node.namedChildren;
    for (const child of statements) {
      if (child.type === "lexical_declaration") for (const declarator of child.namedChildren) if (declarator.type === "variable_declarator") own.push(...boundNames(declarator.childForFieldName("name")));
      if (/^(abstract_)?class_declaration$/.test(child.type)) own.push(child.childForFieldName("name")?.text ?? "");
    }
  }
  if (node.type === "catch_clause") {
    const list = node.childForFieldName("parameters"); // C++'s `catch (const E &x)`
    own.push(...boundNames(node.childForFieldName("parameter")), ...(list ? parameterNames(list) : []));
  }
  if (node.type === "for_range_loop") own.push(...declaratorNames(node.childForFieldName("declarator") ?? node));
  if (/^(if|while|switch)_statement$/.test(node.type) && node.childForFieldName("condition")?.type === "condition_clause") {
    const parts = (node.childForFieldName("condition") as Parser.SyntaxNode).namedChildren.flatMap((part) => (part.type === "init_statement" ? part.namedChildren : [part]));
    for (const part of parts) own.push(...declaredAhead(part));
  }
  if (node.type === "field_declaration_list") {
    for (const child of node.namedChildren) if (child.type === "field_declaration") own.push(...child.childrenForFieldName("declarator").flatMap(declaratorNames));
  }
  if (node.type === "for_expression") own.push(...boundNames(node.childForFieldName("pattern")));
  if (node.type === "match_arm") {
    // Its guard (`Some(x) if …`) adds none: a static mut is read there only in an `unsafe` block, which binds nothing.
    own.push(...(node.childForFieldName("pattern")?.namedChildren ?? []).flatMap(boundNames));
  }
  if (/^(if|while)_expression$/.test(node.type)) {
    const condition = node.childForFieldName("condition");
    for (const each of condition?.type === "let_chain" ? condition.namedChildren : [condition]) if (each?.type === "let_condition") own.push(...boundNames(each.childForFieldName("pattern")));
  }
  if (node.type === "type_switch_statement") own.push(...boundNames(node.childForFieldName("alias")));
  if ((node.type === "for_in_statement" && /^(const|let)$/.test(node.childForFieldName("kind")?.text ?? "")) || (node.type === "for_statement" && node.childForFieldName("initializer")?.type === "lexical_declaration")) {
    const declared = node.type === "for_in_statement" ? node.childForFieldName("left") : node.childForFieldName("initializer");
    own.push(...(declared?.type === "lexical_declaration" ? declared.namedChildren.flatMap((declarator) => boundNames(declarator.childForFieldName("name"))) : boundNames(declared)));
  }
  return widened(outer, own, wanted);
}

/** The names a binding's target binds: a name, each name in a pattern, an `exports` member's. */
export function boundNames(target: Parser.SyntaxNode | null): string[] {
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
