import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { take } from "../src/commands/take.js";
import { BadInputError } from "../src/os/errors.js";
import { BindingsTimeout, bindingsOf, memberChanges, moduleBindings, reboundBetween } from "../src/targets/bindings.js";
import { checkSymbol, grammarOf, listSymbols, parserFor } from "../src/targets/symbols.js";
import { parseTarget } from "../src/targets/target.js";
import { BIN, cleanEnv, sandbox, T0, type Sandbox } from "./helpers.js";

const Languages = suite("top-level symbols per language");
const samples: Array<[string, string, string[]]> = [
  ["a.js", "function formatPrice(x) {}\nconst a = 1, b = () => 2;\nclass Cart { total() {} }\nexport function exported() {}\nexport const c = 3;\nconst { z } = q;", ["formatPrice", "a", "b", "Cart", "exported", "c"]],
  ["a.jsx", "export function App() { return <div className='x'/> }", ["App"]],
  ["a.ts", "interface Props { a: string }\ntype Alias = string;\nenum Color { Red }\nexport class K { m() {} }\nabstract class Abs {}\ndeclare function g(): void;", ["Props", "Alias", "Color", "K", "Abs", "g"]],
  ["a.tsx", "export function App() { return <div/> }\nconst Comp = () => <span/>;", ["App", "Comp"]],
  ["a.py", "def format_price(x):\n  pass\nclass Cart:\n  def total(self): pass\nMAX = 3\n@decorator\ndef decorated(): pass", ["format_price", "Cart", "MAX", "decorated"]],
  ["a.go", "package main\nfunc Format() {}\nfunc (c *Cart) Total() {}\ntype Cart struct {}\nvar X = 1\nconst Y = 2", ["Format", "Total", "Cart", "X", "Y"]],
  ["a.rs", "fn format() {}\nstruct Cart {}\nenum E { A }\ntrait T {}\nimpl Cart { fn total(&self) {} }\nconst C: i32 = 1;\ntype A = i32;", ["format", "Cart", "E", "T", "C", "A"]],
  ["A.java", "package x;\npublic class Cart { void total() {} }\ninterface I {}\nenum E { A }\nrecord R(int a) {}", ["Cart", "I", "E", "R"]],
  ["a.rb", "def format_price(x)\nend\nclass Cart\n  def total; end\nend\nmodule M\nend\nCONST = 1", ["format_price", "Cart", "M", "CONST"]],
  ["a.c", "int format(int x) { return x; }\nstruct Cart { int a; };\ntypedef int myint;\nint global = 1;\nint *ptrfn(void) { return 0; }", ["format", "Cart", "myint", "global", "ptrfn"]],
  ["a.cpp", "int format(int x) { return x; }\nclass Cart { void total(); };\nnamespace ns { void f(); }\ntemplate<typename T> T maxof(T a, T b) { return a; }", ["format", "Cart", "ns", "maxof"]],
];
for (const [file, source, expected] of samples) {
  Languages(`should find the top-level declarations of ${file}, and no nested ones`, async () => {
    const names = (await listSymbols(file, source)).map((symbol) => symbol.name);
    assert.equal(names, expected);
  });
}
Languages("should give each symbol the lines of its declaration", async () => {
  const symbols = await listSymbols("a.py", "import os\n\ndef first():\n    return 1\n\n\ndef second():\n    return 2\n");
  assert.equal(symbols, [
    { name: "first", startLine: 3, endLine: 4 },
    { name: "second", startLine: 7, endLine: 8 },
  ]);
});
Languages.run();

const Bindings = suite("names a file binds anew in its module's scope");

/** Whether adding `added` below `base` binds `name` anew in the module's scope, as the hooks and the guard count it. */
async function rebinds(file: string, name: string, base: string, added: string): Promise<boolean> {
  const count = async (source: string) => {
    const parsed = { bindings: new Map([[name, 0]]) };
    await listSymbols(file, source, parsed);
    return parsed.bindings.get(name) as number;
  };
  return (await count(`${base}\n${added}\n`)) > (await count(base));
}

Bindings("should count a def, class or function declared in a block, and a case capture, as binding the module's name", async () => {
  const py = "def foo():\n    return 1\n";
  for (const added of [
    "try:\n    import fast\nexcept ImportError:\n    def foo():\n        return 666",
    "if True:\n    class foo:\n        pass",
    "match 1:\n    case foo:\n        pass",
    "match [1]:\n    case [1, *foo]:\n        pass",
    "match {}:\n    case {'k': foo}:\n        pass",
    "match 1:\n    case int() as foo:\n        pass",
    "def other():\n    global foo\n    def foo():\n        return 666",
  ]) {
    assert.ok(await rebinds("m.py", "foo", py, added), added);
  }
  // Sloppy JavaScript (CommonJS) hoists a function declared in a block to the module's scope.
  assert.ok(await rebinds("m.js", "foo", "function foo() {\n  return 1;\n}\n", "{\n  function foo() { return 666; }\n}"));
  // Ruby: a def outside a class or module defines the top level's method, wherever it stands.
  for (const added of ["if true\n  def foo\n    666\n  end\nend", "[1].each do\n  def foo; 666; end\nend", "l = lambda { def foo; 666; end }", "l = -> { def foo; 666; end }", "l = -> do\n  def foo; 666; end\nend", "alias foo bar"]) {
    assert.ok(await rebinds("m.rb", "foo", "def foo\n  1\nend\n", added), added);
  }
});

Bindings("should not count a function's own def, a class's method or a name a case pattern only reads", async () => {
  const py = "def foo():\n    return 1\n";
  for (const added of ["def other():\n    def foo():\n        return 2\n    return foo", "class C:\n    def foo(self):\n        return 2", "match 1:\n    case foo():\n        pass", "match 1:\n    case m.foo:\n        pass"]) {
    assert.not.ok(await rebinds("m.py", "foo", py, added), added);
  }
  assert.not.ok(await rebinds("m.js", "foo", "function foo() {}\n", "{\n  class foo {}\n}"), "a class declared in a block is the block's");
  assert.not.ok(await rebinds("m.rb", "foo", "def foo\n  1\nend\n", "class C\n  def foo\n    2\n  end\nend"));
});

Bindings("should count an assignment in a JavaScript or Go function as the module's unless a function or block around it declares the name", async () => {
  const js = "function foo() {\n  return 1;\n}\n";
  for (const added of ["function baz() {\n  foo = () => 666;\n}\nbaz();", "const baz = () => (foo = 2);", "class A {\n  m() {\n    foo++;\n  }\n}", "function baz() {\n  return function () {\n    foo = 2;\n  };\n}"]) {
    assert.ok(await rebinds("m.js", "foo", js, added), added);
  }
  for (const added of [
    "function baz() {\n  let foo = 2;\n  foo = 3;\n}",
    "function baz() {\n  foo = 2;\n  var foo;\n}",
    "function baz(foo) {\n  foo = 2;\n}",
    "const baz = ({ a: foo }) => {\n  foo = 2;\n};",
    "function baz() {\n  let foo;\n  return () => {\n    foo = 2;\n  };\n}",
    "try {\n} catch (foo) {\n  foo = 2;\n}",
  ]) {
    assert.not.ok(await rebinds("m.js", "foo", js, added), added);
  }
  assert.not.ok(await rebinds("m.ts", "foo", "export function foo() {}\n", "function baz(foo: number = 2) {\n  foo = 3;\n}"), "a TypeScript parameter");
  const go = "package m\n\nvar Foo = 1\n";
  for (const added of ["func Bar() int {\n\tFoo = 666\n\treturn 2\n}", "func init() {\n\tFoo++\n}", "var f = func() {\n\tx, Foo = 1, 2\n}", "func Bar() {\n\tFoo = 2\n\tFoo := 3\n\t_ = Foo\n}"]) {
    assert.ok(await rebinds("m.go", "Foo", go, added), added);
  }
  for (const added of [
    "func Bar() int {\n\tFoo := 666\n\tFoo = 2\n\treturn Foo\n}",
    "func Bar() {\n\tvar Foo int\n\tFoo = 2\n\t_ = Foo\n}",
    "func Bar(Foo int) {\n\tFoo = 2\n}",
    "func Bar() (Foo int) {\n\tFoo = 2\n\treturn\n}",
    "func Bar(xs []int) {\n\tfor _, Foo := range xs {\n\t\tFoo++\n\t}\n}",
  ]) {
    assert.not.ok(await rebinds("m.go", "Foo", go, added), added);
  }
});
Bindings("should count an assignment in a C or C++ function, and C++'s ::foo anywhere, as the file's unless a function or block around it declares the name", async () => {
  const c = "int foo = 1;\n";
  for (const added of [
    "void g(void) {\n  foo = 2;\n}",
    "void g(int x) {\n  foo += x;\n  foo++;\n}",
    "void g(void) {\n  {\n    int foo = 1;\n  }\n  foo = 2;\n}",
    "void g(void) {\n  foo = 2;\n  int foo;\n}",
    "void g(void) {\n  extern int foo;\n  foo = 2;\n}",
    "void g(void) {\n  for (int foo = 0; foo < 3; foo++) {}\n  foo = 2;\n}",
    "void init(void) {\n#ifdef T\n  int foo = 1;\n  (void)foo;\n#else\n  foo = 1;\n#endif\n}",
    "void init(void) {\n#if A\n  int foo = 1;\n#elif B\n  foo = 1;\n#endif\n}",
    "void init(void) {\n#ifdef T\n  int foo = 1;\n#endif\n  foo = 1;\n}",
  ]) {
    assert.ok(await rebinds("m.c", "foo", c, added), added);
  }
  for (const added of [
    "void g(int foo) {\n  foo = 2;\n}",
    "void g(int *foo, int (*h)(int)) {\n  foo = 0;\n}",
    "void g(void) {\n  static int x, foo = 1;\n  foo++;\n}",
    "void g(void) {\n  for (int foo = 0; foo < 3; foo++) {}\n}",
    "int (*g(int foo))(int b) {\n  foo = 2;\n  return 0;\n}",
  ]) {
    assert.not.ok(await rebinds("m.c", "foo", c, added), added);
  }
  for (const added of [
    "void g() {\n  foo = 2;\n}",
    "void g(std::vector<int> v) {\n  for (auto foo : (foo = 2, v)) {}\n}",
    "void g(int foo) {\n  ::foo = 2;\n  ::foo++;\n}",
    "auto l = [](int x) { foo = x; };",
    "void C::m() {\n  foo = 3;\n}",
    "namespace n {\nvoid g() {\n  foo = 2;\n}\n}",
  ]) {
    assert.ok(await rebinds("m.cpp", "foo", c, added), added);
  }
  for (const added of [
    "void g(int &foo) {\n  foo = 2;\n}",
    "void g() {\n  auto l = [](int foo) { foo = 1; };\n}",
    "void g() {\n  for (auto &foo : xs) foo = 1;\n}",
    "void g() {\n  try {\n  } catch (E &foo) {\n    foo = E();\n  }\n}",
    "void g() {\n  auto [foo, y] = p;\n  foo = 1;\n}",
    "void g() {\n  if (int foo = 1; foo) {\n    foo = 2;\n  }\n}",
    "class C {\n  int foo;\n  void m() { foo = 2; }\n};",
  ]) {
    assert.not.ok(await rebinds("m.cpp", "foo", c, added), added);
  }
});

Bindings("should count an assignment of a Rust static mut in a function as the file's unless a function, closure, loop or pattern around it declares the name", async () => {
  const rs = "static mut FOO: i32 = 1;\n";
  for (const added of [
    "fn g() {\n    unsafe { FOO = 2; }\n}",
    "fn g() {\n    unsafe { FOO += 2; }\n}",
    "fn g() {\n    unsafe { FOO = 2; }\n    let FOO = 1;\n}",
    "fn g() {\n    let FOO = 1;\n    fn h() {\n        unsafe { FOO = 2; }\n    }\n}",
    "fn g(x: Option<i32>) {\n    match x {\n        Some(y) if FOO == y => unsafe { FOO -= 1 },\n        _ => {}\n    }\n}",
    "fn g(x: Option<i32>) {\n    if let Some(mut FOO) = x {\n        FOO += 1;\n    } else {\n        unsafe { FOO = 1; }\n    }\n}",
    "fn g(x: Option<i32>) {\n    if let Some(FOO) = unsafe { FOO = 2; x } {}\n}",
    "fn g(x: Option<i32>) {\n    while let Some(FOO) = unsafe { FOO = 2; x } {}\n}",
    "fn g() {\n    for FOO in unsafe { FOO = 2; 0..3 } {}\n}",
  ]) {
    assert.ok(await rebinds("m.rs", "FOO", rs, added), added);
  }
  for (const added of [
    "fn g(mut FOO: i32) {\n    FOO = 2;\n}",
    "fn g() {\n    let mut FOO = 1;\n    FOO += 2;\n}",
    "fn g() {\n    for mut FOO in 0..3 {\n        FOO = 1;\n    }\n}",
    "fn g() {\n    let f = |mut FOO: i32| FOO = 1;\n}",
    "fn g(x: Option<i32>) {\n    if let Some(mut FOO) = x {\n        FOO = 1;\n    }\n}",
  ]) {
    assert.not.ok(await rebinds("m.rs", "FOO", rs, added), added);
  }
});

Bindings("should tell an edit of a binding of the module's name in a function (foo = 2 made foo = 3) from an edit beside it", async () => {
  /** Whether `edited` binds `name` anew or changes a binding of it that `base` has (as the hook and the guard judge it). */
  const changes = async (file: string, name: string, base: string, edited: string) => {
    const read = async (source: string) => {
      const parsed = bindingsOf([name]);
      await listSymbols(file, source, parsed);
      return parsed;
    };
    return reboundBetween(name, await read(base), base, await read(edited), edited);
  };
  const c = "int foo = 1;\n\nvoid g(void) {\n  foo = 2;\n  bar();\n}\n";
  assert.ok(await changes("m.c", "foo", c, c.replace("foo = 2", "foo = 3")));
  assert.ok(await changes("m.c", "foo", c, c.replace("  foo = 2;\n", "")), "a binding taken out");
  assert.not.ok(await changes("m.c", "foo", c, c.replace("bar()", "baz()")), "a line beside it");
  assert.not.ok(await changes("m.c", "foo", c, `void h(void) {}\n${c}`), "moved down");
  const js = "function foo() {}\nfunction bar() {}\nfunction g() {\n  foo = () => 2;\n}\nmodule.exports = { foo, bar };\n";
  assert.ok(await changes("m.js", "foo", js, js.replace("() => 2", "() => 3")));
  assert.ok(await changes("m.js", "foo", js, js.replace("{ foo, bar }", "{ foo: bar, bar }")), "what is exported as foo");
  assert.not.ok(await changes("m.js", "foo", js, js.replace("{ foo, bar }", "{ foo, bar, g }")), "another export on its line");
  const py = "def foo():\n    return 1\n\n\ndef g():\n    global foo\n    foo = 2\n    return 0\n";
  assert.ok(await changes("m.py", "foo", py, py.replace("foo = 2", "foo = 3")));
  assert.not.ok(await changes("m.py", "foo", py, py.replace("return 0", "return 5")));
  const decorated = "def foo():\n    return 1\n\n\nif FAST:\n    @cache_a\n    def foo():\n        return 2\n";
  assert.ok(await changes("m.py", "foo", decorated, decorated.replace("@cache_a", "@evil")), "a decorator of a def foo");
  assert.not.ok(await changes("m.py", "foo", decorated, `import os\n${decorated}`));
  const two = "int foo = 1;\n\nvoid g(void) {\n  foo = 0;\n}\n\nvoid h(void) {\n  foo = 1;\n}\n";
  assert.ok(await changes("m.c", "foo", two, two.replace("foo = 0", "foo = 2").replace("foo = 1;\n}", "foo = 0;\n}").replace("foo = 2", "foo = 1")), "swapped between two functions");
  assert.ok(await changes("m.c", "foo", two, two.replace("  foo = 0;\n", "").replace("  foo = 1;\n", "  foo = 1;\n  foo = 0;\n")), "moved into another function");
  assert.not.ok(await changes("m.c", "foo", two, two.replace("  foo = 0;\n", "  bar();\n  foo = 0;\n")), "a line beside it in its function");
  const methods = "class C:\n    def m(self):\n        global foo\n        foo = 1\n\n    def n(self):\n        global foo\n        foo = 2\n";
  assert.ok(await changes("m.py", "foo", methods, methods.replace("foo = 1", "foo = 3").replace("foo = 2", "foo = 1").replace("foo = 3", "foo = 2")), "swapped between two methods");
});

Bindings("should find a rebinding in a block or a function of a file that starts with blank lines or a byte order mark", async () => {
  // The syntax tree's root starts after them: a name's place in the file is counted from the file's start.
  for (const lead of ["\n", "\n\n   \n", "\ufeff"]) {
    assert.ok(await rebinds("m.py", "foo", `${lead}def foo():\n    return 1\n`, "if True:\n    foo = lambda: 9"), JSON.stringify(lead));
    assert.ok(await rebinds("m.js", "foo", `${lead}export function foo() {}\n`, "if (1) {\n  foo = () => 9;\n}"), JSON.stringify(lead));
    assert.ok(await rebinds("m.js", "foo", `${lead}function foo() {}\n`, "function baz() {\n  foo = () => 9;\n}"), JSON.stringify(lead));
  }
});

Bindings("should stop counting at its deadline rather than outlast the agent's wait, which the hook and the guard take as any symbol changed", async () => {
  // A file that spells the name in every function: each body is walked. Past the deadline, an error, never a partial count.
  const source = `function foo() {}\n${Array.from({ length: 3000 }, (_, index) => `function f${index}(v) {\n  if (v) { v = foo(v, ${index}); }\n}`).join("\n")}\n`;
  const parser = await parserFor(grammarOf("m.js") as string);
  const tree = parser.parse(source);
  try {
    assert.throws(() => moduleBindings(tree.rootNode, new Map([["foo", 0]]), Date.now() - 1), (error: unknown) => error instanceof BindingsTimeout);
    const counted = new Map([["foo", 0]]);
    moduleBindings(tree.rootNode, counted);
    assert.is(counted.get("foo"), 1, "with time enough, counted: its declaration, and the calls bind nothing");
  } finally {
    tree.delete();
    parser.delete();
  }
});

Bindings("should read a let in a switch case and a Go select's receive as the function's own", async () => {
  const js = "function foo() {}\n";
  assert.not.ok(await rebinds("m.js", "foo", js, "function bar(x) {\n  switch (x) {\n    case 1:\n      let foo = 2;\n      foo += 1;\n      return foo;\n  }\n}"));
  assert.ok(await rebinds("m.js", "foo", js, "function bar(x) {\n  switch (x) {\n    case 1:\n      foo = 2;\n  }\n}"), "no let of its own: the module's");
  const go = "package m\n\nvar Foo = 1\n";
  assert.not.ok(await rebinds("m.go", "Foo", go, "func Bar(ch chan int) {\n\tselect {\n\tcase Foo := <-ch:\n\t\tFoo = 3\n\t\t_ = Foo\n\t}\n}"));
  assert.ok(await rebinds("m.go", "Foo", go, "func Bar(ch chan int) {\n\tselect {\n\tcase x := <-ch:\n\t\tFoo = x\n\t}\n}"), "another name received: Foo is the package's");
});

Bindings("should read a patch of a held name from outside it, in a function only for a capitalized one, and not Ruby's include? query", () => {
  const changed = (text: string, name: string) => memberChanges(text, name) !== "";
  assert.ok(changed("class Other\n  ALLOWED.include(Mod)\nend\n", "ALLOWED"));
  assert.not.ok(changed("ok = xs.select { ALLOWED.include?(_1) }\n", "ALLOWED"), "a query, not a mixin");
  assert.ok(changed("def setup():\n    Foo.a = 1\n", "Foo"));
  assert.ok(changed("def setup(): Foo.a = 1\n", "Foo"));
  assert.not.ok(changed("def configure(config):\n    config.debug = True\n", "config"), "a parameter of that name");
  assert.ok(changed("config.debug = True\n", "config"));
  // One of a chain, annotated, one target of several.
  for (const text of ["x = Foo.a = 1\n", "const y = Foo.a = 1;\n", "Foo.a: int = 1\n", "Foo.a, Foo.b = 1, 2\n", "x, Foo.a = 1, 2\n", "[x, Foo.a] = [1, 2];\n", "def setup():\n    x = Foo.a = 1\n"]) assert.ok(changed(text, "Foo"), text);
  for (const text of ["x = Foo.a\n", "x = Foo.a == 1\n", "    x, Foo.a, y=2)\n", "Foo.a: int\n", "x, Foo.a <= 1\n", "{Foo.a: 1}\n"]) assert.not.ok(changed(text, "Foo"), `${text}: a read, a keyword argument, an annotation alone, a comparison`);
  assert.not.ok(changed("def f(config):\n    x = config.debug = True\n", "config"), "a parameter's, chained");
  // A dict keyed by its members is no annotation; a long run of blank lines or spaces is read in time.
  for (const text of ["STYLES = {\n    Color.RED: make(bold=True),\n}\n", "x = {Color.RED: v for v in xs if v != 0}\n"]) assert.not.ok(changed(text, "Color"), text);
  assert.ok(changed("Color.RED: dict[str, int] | None = {}\n", "Color"));
  assert.ok(changed("export const x = Color.RED = 1;\n", "Color"));
  assert.not.ok(changed(`x = 1\nFoo.a\n${"\n".repeat(100_000)}`, "Foo"));
  assert.not.ok(changed(`;Foo.a${" ".repeat(1000)}`.repeat(2000), "Foo"));
});

Bindings.run();

const Denials = suite<{ box: Sandbox }>("symbol claims that bind nothing");
Denials.before.each((context) => {
  context.box = sandbox();
});
Denials.after.each((context) => context.box.cleanup());

async function denial(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, BadInputError);
    return (error as Error).message;
  }
  assert.unreachable("should have been denied");
  return "";
}

/** The symbol target `typed`, as take parses it in the project directory. */
function symbolTarget(box: Sandbox, typed: string) {
  return parseTarget(typed, { cwd: box.project, home: box.root });
}

Denials("should deny a missing symbol with the nearest existing name", async ({ box }) => {
  const file = join(box.project, "utils.js");
  writeFileSync(file, "export function formatPrice(x) {}\nexport function formatDate(d) {}\n");
  assert.is(
    await denial(checkSymbol(symbolTarget(box, "utils.js#formatPrize"), false)),
    `Target ${file}#formatPrize names nothing: the file declares no top-level \`formatPrize\`; did you mean \`formatPrice\`?`,
  );
  assert.match(await denial(checkSymbol(symbolTarget(box, "utils.js#render"), false)), /pass creating: true/, "worded for the library caller; the CLI says --creating");
});

Denials("should list what the file declares when a missing symbol has no close match, so the caller can pick one", async ({ box }) => {
  const file = join(box.project, "utils.js");
  writeFileSync(file, "export function formatPrice(x) {}\nexport function formatDate(d) {}\nexport const TAX = 0.2;\n");
  assert.is(
    await denial(checkSymbol(symbolTarget(box, "utils.js#render"), false)),
    `Target ${file}#render names nothing: the file declares no top-level \`render\`; it declares \`formatPrice\`, \`formatDate\`, \`TAX\`; pass creating: true to claim a symbol you are about to add.`,
  );
  writeFileSync(file, Array.from({ length: 11 }, (_, i) => `export function f${i}() {}`).join("\n"));
  assert.match(await denial(checkSymbol(symbolTarget(box, "utils.js#render"), false)), /it declares `f0`, `f1`, `f2`, `f3`, `f4`, `f5`, `f6`, `f7` and 3 more; pass creating: true/);
  writeFileSync(file, "// nothing yet\n");
  assert.match(await denial(checkSymbol(symbolTarget(box, "utils.js#render"), false)), /it declares no top-level symbols at all \(claim the whole file instead\); pass creating: true/);
});

Denials("should name the whole canonical target, not the file's base name, when the symbol is missing", async ({ box }) => {
  for (const dir of ["web", "api"]) {
    mkdirSync(join(box.project, dir));
    writeFileSync(join(box.project, dir, "utils.js"), "export function formatPrice(x) {}\n");
  }
  const message = await denial(take({ dir: box.dir, cwd: box.project, env: {}, holder: "a", targets: ["./api/utils.js#formatPrize"], now: T0 }));
  assert.ok(message.startsWith(`Target ${join(box.project, "api", "utils.js")}#formatPrize names nothing:`), message);
});

Denials("should name a file whose name has glob characters by its canonical, escaped form", async ({ box }) => {
  mkdirSync(join(box.project, "app", "[id]"), { recursive: true });
  writeFileSync(join(box.project, "app", "[id]", "page.tsx"), "export default function Page() {}\n");
  const message = await denial(take({ dir: box.dir, cwd: box.project, env: {}, holder: "a", targets: ["app/[id]/page.tsx#Pag"], now: T0 }));
  assert.ok(message.startsWith(`Target ${join(box.project, "app", "\\[id\\]", "page.tsx")}#Pag names nothing:`), message);
  assert.match(message, /did you mean `Page`\?$/);
});

Denials("should not suggest creating for a file that is there but cannot be read, which creating does not help", async ({ box }) => {
  if (process.getuid?.() !== 0) return; // needs another user to be refused a file: run as root, as CI does
  const file = join(box.project, "locked.js");
  writeFileSync(file, "export function g() {}\n", { mode: 0o600 });
  for (const dir of [box.root, box.project]) chmodSync(dir, 0o755);
  const asNobody = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, "--dir", join(box.root, "nobody-claims"), "--holder", "n"], { cwd: box.project, uid: 65534, gid: 65534, env: cleanEnv(), encoding: "utf8" });
  for (const args of [["take", "./locked.js#g"], ["take", "./locked.js#g2", "--creating"]]) {
    const result = asNobody(args);
    assert.is(result.status, 2, result.stderr);
    assert.is(result.stderr, `claims: Cannot read ${file} to find the symbol ${args[1]?.split("#")[1]} (EACCES); claim the whole file, or make it readable to you.\n`);
  }
});

Denials("should allow a symbol about to be added with --creating", async ({ box }) => {
  const file = join(box.project, "utils.py");
  writeFileSync(file, "def existing():\n    pass\n");
  await checkSymbol(symbolTarget(box, "utils.py#to_be_added"), true);
  const result = await take({ dir: box.dir, cwd: box.project, env: {}, holder: "a", targets: ["utils.py#to_be_added"], creating: true, now: T0 });
  assert.is(result.granted[0]?.kind, "symbol");
});

Denials("should deny a file type without a grammar and say to claim the whole file", async ({ box }) => {
  const file = join(box.project, "notes.md");
  writeFileSync(file, "# notes\n");
  assert.is(
    await denial(checkSymbol(symbolTarget(box, "notes.md#intro"), false)),
    `Target ${file}#intro names a symbol, but ${file} has no grammar for symbol claims; claim the whole file instead.`,
  );
});

Denials("should say that a word with # and no such file reads as a symbol claim", async ({ box }) => {
  const file = join(box.project, "ticket");
  assert.is(
    await denial(checkSymbol(symbolTarget(box, "ticket#close"), false)),
    `Target ${file}#close reads as the symbol close of the file ${file}, which does not exist; for a name, leave out the #.`,
  );
});

Denials("should deny the whole take, writing nothing, when one symbol is missing", async ({ box }) => {
  writeFileSync(join(box.project, "a.ts"), "export function real() {}\n");
  const message = await denial(
    take({ dir: box.dir, cwd: box.project, env: {}, holder: "a", targets: ["shared-config", "a.ts#imaginary"], now: T0 }),
  );
  assert.match(message, /the file declares no top-level `imaginary`/);
  assert.equal(entriesIfAny(box.dir), []);
});

Denials.run();


function entriesIfAny(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}
