// Agent hooks fed payloads shaped as Claude Code and Codex document them, through the real CLI.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, entries, readJson, sandbox, untilStopped, type Sandbox } from "./helpers.js";

type Context = { box: Sandbox; file: string };
const Claude = suite<Context>("claims hook claude");
Claude.before.each((context) => {
  context.box = sandbox();
  context.file = join(context.box.project, "utils.ts");
  writeFileSync(context.file, "export function formatPrice(x: number) {\n  return x.toFixed(2);\n}\n\nexport function formatDate(d: Date) {\n  return d.toISOString();\n}\n");
});
Claude.after.each((context) => context.box.cleanup());

function hook(box: Sandbox, payload: unknown, agent = "claude", extra: string[] = []) {
  const result = spawnSync(process.execPath, [BIN, "hook", agent, ...extra], {
    input: typeof payload === "string" ? payload : JSON.stringify(payload),
    env: cleanEnv({ CLAIMS_DIR: box.dir }),
    encoding: "utf8",
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const edit = (box: Sandbox, session: string, file: string, old: string, extra: object = {}) => ({
  session_id: session,
  transcript_path: "/tmp/t.jsonl",
  cwd: box.project,
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Edit",
  tool_input: { file_path: file, old_string: old, new_string: "X" },
  tool_use_id: "toolu_01",
  ...extra,
});

const decision = (stdout: string) => (stdout.trim() ? JSON.parse(stdout).hookSpecificOutput : undefined);

/** The Claude hook's answer ("deny", "allow") to an edit by a session of its own that adds `added` on a line after `old` in `file`. */
let editors = 0;
function addedAfter(box: Sandbox, file: string, old: string, added: string): string {
  editors += 1;
  return decision(hook(box, { ...edit(box, `editor-${editors}`, file, old), tool_input: { file_path: file, old_string: old, new_string: `${old}${added}\n` } }).stdout)?.permissionDecision ?? "allow";
}

Claude("should claim a free file for the session and let the write through silently", ({ box, file }) => {
  const result = hook(box, edit(box, "s1", file, "toFixed"));
  assert.is(result.code, 0);
  assert.is(result.stdout, "", "allow is silence: an explicit allow would skip the user's permission prompts");
  assert.is(readJson(join(box.dir, entries(box.dir)[0] as string)).holder, "claude-s1");
});

Claude("should deny another session's write with holder, purpose and the handover command", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "claude-s1", "--purpose", "fix rounding"]);
  const result = hook(box, edit(box, "s2", file, "toFixed"));
  assert.is(result.code, 0);
  const output = decision(result.stdout);
  assert.is(output.hookEventName, "PreToolUse");
  assert.is(output.permissionDecision, "deny");
  assert.match(output.permissionDecisionReason, /held by claude-s1 for "fix rounding"/);
  assert.match(output.permissionDecisionReason, /claims handover utils\.ts --purpose/);
});

Claude("should judge a path written with a lone UTF-16 surrogate as the file it reaches (U+FFFD on disk)", ({ box }) => {
  // JSON can carry "\ud800"; Node spells it U+FFFD to the file system, so it is that directory's file.
  mkdirSync(join(box.project, "d\ufffd"));
  assert.is(claims(["take", "d\ufffd/", "--dir", box.dir, "--holder", "claude-s1", "--purpose", "rename"], { cwd: box.project }).code, 0);
  const write = { ...edit(box, "s2", join(box.project, "d\ud800", "y.ts"), ""), tool_name: "Write", tool_input: { file_path: join(box.project, "d\ud800", "y.ts"), content: "x" } };
  const output = decision(hook(box, write).stdout);
  assert.is(output?.permissionDecision, "deny", "the write into the held directory is refused");
  assert.match(output.permissionDecisionReason, /held by claude-s1 for "rename"/);
});

Claude("should show a file name with a direction-changing character escaped in the refusal's list, the command to run exact", ({ box }) => {
  const file = join(box.project, "a\u202eb.ts");
  writeFileSync(file, "x\n");
  assert.is(claims(["take", file, "--dir", box.dir, "--holder", "claude-s1", "--purpose", "p"]).code, 0);
  const reason = decision(hook(box, { ...edit(box, "s2", file, "x"), tool_name: "Write", tool_input: { file_path: file, content: "y" } }).stdout)?.permissionDecisionReason as string;
  assert.match(reason, /^- a\\u202eb\.ts: held by claude-s1 for "p"/m);
  assert.ok(reason.includes("claims handover 'a\u202eb.ts' --purpose"), reason);
});

Claude("should quote the suggested command for a shell, so a path with $ or a quote does not expand when it is run", ({ box }) => {
  const file = join(box.project, "price $rate's.ts");
  writeFileSync(file, "export const toFixed = 1;\n");
  claims(["take", file, "--dir", box.dir, "--holder", "claude-s1", "--purpose", "fix rounding"]);
  const reason = decision(hook(box, edit(box, "s2", file, "toFixed")).stdout).permissionDecisionReason as string;
  assert.ok(reason.includes(`claims handover 'price $rate'\\''s.ts' --purpose`), reason);
  assert.match(reason, /Your holder id is claude-s2\.$/);
});

Claude("should deny a write under another session's directory claim, and a Write of a new file there", ({ box }) => {
  mkdirSync(join(box.project, "gen"));
  claims(["take", join(box.project, "gen") + "/", "--dir", box.dir, "--holder", "codegen"]);
  const payload = { ...edit(box, "s2", join(box.project, "gen", "new.ts"), ""), tool_name: "Write", tool_input: { file_path: join(box.project, "gen", "new.ts"), content: "x" } };
  assert.is(decision(hook(box, payload).stdout)?.permissionDecision, "deny");
});

Claude("should let an edit through that touches only symbols nobody else holds", ({ box, file }) => {
  claims(["take", `${file}#formatPrice`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  assert.is(hook(box, edit(box, "s2", file, "toISOString")).stdout, "", "formatDate is free");
  const touching = decision(hook(box, edit(box, "s2", file, "toFixed")).stdout);
  assert.is(touching?.permissionDecision, "deny");
  assert.match(touching.permissionDecisionReason, /formatPrice/);
  const multi = { ...edit(box, "s2", file, ""), tool_name: "MultiEdit", tool_input: { file_path: file, edits: [{ old_string: "toISOString", new_string: "a" }, { old_string: "toFixed", new_string: "b" }] } };
  assert.is(decision(hook(box, multi).stdout)?.permissionDecision, "deny", "one of the edits touches formatPrice");
  const write = { ...edit(box, "s2", file, ""), tool_name: "Write", tool_input: { file_path: file, content: "" } };
  assert.is(decision(hook(box, write).stdout)?.permissionDecision, "deny", "a whole-file write touches every symbol");
});

Claude("should find an edit as Claude Code finds it in a file with CRLF line ends, and take one with both kinds for touching every symbol", ({ box }) => {
  // Claude Code matches old_string with the file's CRLF read as LF, and writes the file back with
  // one kind of line end. Looked for in the raw bytes, text shared by a held symbol with CRLF ends
  // and a free one with LF ends was found in the free one only, and replace_all rewrote both.
  const file = join(box.project, "u.ts");
  const body = (name: string, op: string) => `export function ${name}() {\n  const s = 1;\n  const t = 2;\n  return s ${op} t;\n}\n`;
  const ask = (old: string, extra: object = {}) => decision(hook(box, { ...edit(box, "s2", file, old), tool_input: { file_path: file, old_string: old, new_string: "const s = 5;", ...extra } }).stdout)?.permissionDecision;
  writeFileSync(file, `${body("a", "+")}\n${body("b", "*")}`.replace(/\n/g, "\r\n"));
  assert.is(claims(["take", `${file}#a`, "--dir", box.dir, "--holder", "other", "--purpose", "reworking a"]).code, 0);
  assert.is(ask("return s * t;"), undefined, "all CRLF: an edit of b alone goes through");
  assert.is(ask("return s + t;"), "deny", "all CRLF: an edit of a is refused");
  assert.is(ask("const s = 1;\n  const t = 2;", { replace_all: true }), "deny", "all CRLF: found in a too, as Claude Code finds it");
  writeFileSync(file, `${body("a", "+")}\n${body("b", "*")}`);
  assert.is(ask("return s * t;"), undefined, "all LF: an edit of b alone goes through");
  writeFileSync(file, `${body("a", "+").replace("const s = 1;\n", "const s = 1;\r\n")}\n${body("b", "*")}`);
  assert.is(ask("const s = 1;\n  const t = 2;", { replace_all: true }), "deny", "both kinds: replace_all rewrites a's lines");
  assert.is(ask("return s * t;"), "deny", "both kinds: writing the file back changes a's line end");
});

Claude("should deny an edit elsewhere in the file that declares another session's symbol a second time, and allow one that only calls it", ({ box, file }) => {
  claims(["take", `${file}#formatPrice`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  const change = (replacement: string) => ({ ...edit(box, "s2", file, "toISOString"), tool_input: { file_path: file, old_string: "return d.toISOString();\n}", new_string: replacement } });
  const duplicate = decision(hook(box, change("return d.toISOString();\n}\n\nexport function formatPrice(x: number) {\n  return 666;\n}")).stdout);
  assert.is(duplicate?.permissionDecision, "deny");
  assert.match(duplicate.permissionDecisionReason, /formatPrice/);
  assert.is(hook(box, change("return formatPrice(d.getTime());\n}")).stdout, "", "a call of it is no change to it");
});

Claude("should deny an edit elsewhere that binds another session's symbol anew, or leaves the file unreadable past it", ({ box, file }) => {
  claims(["take", `${file}#formatPrice`, `${file}#formatDate`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  writeFileSync(join(box.project, "more.ts"), "export function first() {\n  return 1;\n}\n\nexport function held() {\n  return 2;\n}\n");
  const more = join(box.project, "more.ts");
  claims(["take", `${more}#held`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  const change = (path: string, old: string, replacement: string) => ({ ...edit(box, "s2", path, old), tool_input: { file_path: path, old_string: old, new_string: replacement } });
  for (const [old, replacement] of [
    ["return 1;", "return 1; /*"], // an unclosed comment swallows held()
    ["return 1;", "return `"], // so does an unclosed template string
  ]) {
    assert.is(decision(hook(box, change(more, old as string, replacement as string)).stdout)?.permissionDecision, "deny", replacement);
  }
  assert.is(hook(box, change(more, "return 1;", "return 10;")).stdout, "", "an edit inside first() alone");
  for (const replacement of ["const held = 3;\n  return held;", "return run({ held: 1 }, (held = 2) => held);"]) {
    assert.is(hook(box, change(more, "return 1;", replacement)).stdout, "", `a local, a key or a parameter of that name: ${replacement}`);
  }
  for (const replacement of [
    "return 1;\n}\nheld = () => 9;",
    "return 1;\n}\nexport { first as held };",
    "return 1;\n}\nif (globalThis.x) {\n  held = () => 9;\n}", // in a block, still the module's
    "return 1;\n}\n[held] = [() => 9];",
    "return 1;\n}\nlet a; held = first",
  ]) {
    assert.is(decision(hook(box, change(more, "return 1;\n}", replacement)).stdout)?.permissionDecision, "deny", replacement);
  }
  for (const local of ["if (globalThis.x) {\n  let held = 2;\n  held += 1;\n}", "for (const held of [1, 2]) console.log(held);", "for (let held = 0; held < 2; held++) {}"]) {
    assert.is(hook(box, change(more, "return 1;\n}", `return 1;\n}\n${local}`)).stdout, "", `a block's own name binds nothing of the module's: ${local}`);
  }
  // Python: a module-level rebinding inside if/try, an import of the name; a function's local is its own.
  const py = join(box.project, "mod.py");
  writeFileSync(py, "def first():\n    return 1\n\ndef held():\n    return 2\n");
  claims(["take", `${py}#held`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  for (const added of ["if True:\n    held = first", "try:\n    from m import held\nexcept ImportError:\n    pass", "(held := first)", "def other():\n    global held\n    held = first"]) {
    assert.is(decision(hook(box, change(py, "    return 1\n", `    return 1\n\n${added}\n`)).stdout)?.permissionDecision, "deny", added);
  }
  assert.is(hook(box, change(py, "    return 1\n", "    held = 3\n    return held\n")).stdout, "", "a local of first()");
});

Claude("should deny an edit that binds another session's symbol by a def in a block or an assignment in a function, and allow a function's own name", ({ box }) => {
  const files: Record<string, string> = {
    "m.py": "def foo():\n    return 1\n\n\ndef bar():\n    return 2\n",
    "m.js": "function foo() {\n  return 1;\n}\n\nfunction bar() {\n  return 2;\n}\nmodule.exports = { foo, bar };\n",
    "m.rb": "def foo\n  1\nend\n\ndef bar\n  2\nend\n",
    "m.go": "package m\n\nvar Foo = 1\n\nfunc Bar() int {\n\treturn 2\n}\n",
    "m.c": "int foo = 1;\n\nint bar(void) {\n  return 2;\n}\n\nvoid reset(void) {\n  foo = 0;\n  bar();\n}\n",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(box.project, name), text);
  claims(["take", ...["m.py#foo", "m.js#foo", "m.rb#foo", "m.go#Foo", "m.c#foo"].map((target) => join(box.project, target)), "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  let session = 0;
  // Each edit from a session of its own, so no claim one of them is granted stands in another's way.
  const ask = (name: string, old: string, replacement: string) => {
    const path = join(box.project, name);
    session += 1;
    return decision(hook(box, { ...edit(box, `b${session}`, path, old), tool_input: { file_path: path, old_string: old, new_string: replacement } }).stdout)?.permissionDecision ?? "allow";
  };
  const below = (name: string, old: string, added: string) => ask(name, old, `${old}\n${added}`);
  for (const added of ["try:\n    import fast\nexcept ImportError:\n    def foo():\n        return 666\n", "if True:\n    class foo:\n        pass\n", "match 1:\n    case foo:\n        pass\n"]) {
    assert.is(below("m.py", "    return 2\n", added), "deny", added);
  }
  assert.is(below("m.py", "    return 2\n", "def baz():\n    def foo():\n        return 666\n    return foo()\n"), "allow", "a function's own def");
  for (const added of ["{\n  function foo() { return 666; }\n}\n", "function baz() {\n  foo = () => 666;\n}\nbaz();\n"]) {
    assert.is(below("m.js", "  return 2;\n}\n", added), "deny", added);
  }
  assert.is(below("m.js", "  return 2;\n}\n", "function baz() {\n  let foo = () => 666;\n  foo = () => 667;\n  return foo();\n}\n"), "allow", "a function's own let");
  assert.is(below("m.rb", "  2\nend\n", "if true\n  def foo\n    666\n  end\nend\n"), "deny");
  assert.is(ask("m.go", "\treturn 2\n", "\tFoo = 666\n\treturn 2\n"), "deny");
  assert.is(ask("m.go", "\treturn 2\n", "\tFoo := 666\n\treturn Foo\n"), "allow", "a local Foo of Bar's");
  assert.is(ask("m.c", "  return 2;\n", "  foo = 666;\n  return 2;\n"), "deny");
  assert.is(ask("m.c", "  return 2;\n", "  int foo = 666;\n  return foo;\n"), "allow", "a local foo of bar's");
  assert.is(ask("m.c", "  foo = 0;\n", "  foo = 666;\n"), "deny", "a change of an assignment of foo in reset()");
  assert.is(ask("m.c", "  bar();\n", "  bar();\n  bar();\n"), "allow", "a line beside it");
});

Claude("should deny an edit that declares another session's symbol under another spelling of its name (a \\u escape, a letter Python folds to it)", ({ box }) => {
  const files: Record<string, string> = {
    "m.js": "function foo() {\n  return 1;\n}\n\nfunction bar() {\n  return 2;\n}\n",
    "m.py": "def foo():\n    return 1\n\n\ndef bar():\n    return 2\n",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(box.project, name), text);
  claims(["take", ...["m.js#foo", "m.py#foo"].map((target) => join(box.project, target)), "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  let session = 0;
  const ask = (name: string, old: string, replacement: string) => {
    const path = join(box.project, name);
    session += 1;
    return decision(hook(box, { ...edit(box, `u${session}`, path, old), tool_input: { file_path: path, old_string: old, new_string: replacement } }).stdout)?.permissionDecision ?? "allow";
  };
  // JavaScript reads `\u0066` in an identifier as `f`; Python reads identifiers in NFKC, `ｆ` as `f`.
  assert.is(ask("m.js", "  return 2;\n}\n", "  return 2;\n}\n\nfunction \\u0066oo() {\n  return 666;\n}\n"), "deny", "function \\u0066oo");
  assert.is(ask("m.js", "  return 2;\n}\n", "  return 2;\n}\nvar f\\u{6f}o = 666;\n"), "deny", "var f\\u{6f}o");
  assert.is(ask("m.py", "    return 2\n", "    return 2\n\n\ndef \uff46oo():\n    return 666\n"), "deny", "def ｆoo");
  assert.is(ask("m.js", "  return 2;\n", "  return 3;\n"), "allow", "an edit of bar alone");
  assert.is(ask("m.py", "    return 2\n", "    return '\u00e9t\u00e9'\n"), "allow", "text beyond ASCII that spells no held name");
});

Claude("should deny an edit that adds or changes a Python star import, which binds whatever the module exports, another session's symbol too", ({ box }) => {
  const py = join(box.project, "m.py");
  writeFileSync(py, "import os\n\n\ndef foo():\n    return 1\n\n\ndef bar():\n    return 2\n");
  claims(["take", `${py}#foo`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  let session = 0;
  const ask = (old: string, replacement: string) => {
    session += 1;
    return decision(hook(box, { ...edit(box, `p${session}`, py, old), tool_input: { file_path: py, old_string: old, new_string: replacement } }).stdout)?.permissionDecision ?? "allow";
  };
  assert.is(ask("    return 2\n", "    return 2\n\n\nfrom fast import *\n"), "deny", "from fast import * below foo rebinds foo if fast has one");
  assert.is(ask("    return 2\n", "    return 2\n\n\ntry:\n    from .fast import *\nexcept ImportError:\n    pass\n"), "deny", "in a try");
  assert.is(ask("    return 2\n", "    return 3\n"), "allow", "an edit of bar alone");
});

Claude("should deny an edit that exports another session's symbol anew through Object.assign or Object.defineProperty on module.exports", ({ box }) => {
  const js = join(box.project, "m.js");
  writeFileSync(js, "function bar() {\n  return 2;\n}\n\nfunction foo() {\n  return 1;\n}\n\nmodule.exports = { bar, foo };\n");
  claims(["take", `${js}#foo`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  const below = (added: string) => addedAfter(box, js, "module.exports = { bar, foo };\n", added);
  assert.is(below("Object.assign(module.exports, { foo: bar });"), "deny");
  assert.is(below("Object.assign(exports, { baz: 1 }, { foo() { return 9; } });"), "deny");
  assert.is(below('Object.defineProperty(exports, "foo", { enumerable: true, get: () => bar });'), "deny");
  assert.is(below("Object.assign(module.exports, { baz: bar });"), "allow", "another name exported");
});

Claude("should deny an edit that undefines another session's Ruby method at the top level or redefines it in class Object, and allow one in a class of its own", ({ box }) => {
  const rb = join(box.project, "m.rb");
  writeFileSync(rb, "def bar\n  2\nend\n\ndef foo\n  1\nend\n\nputs bar\n");
  claims(["take", `${rb}#foo`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  const below = (added: string) => addedAfter(box, rb, "puts bar\n", added);
  assert.is(below("undef foo"), "deny");
  assert.is(below("undef :bar, :foo"), "deny");
  assert.is(below("class Object\n  def foo\n    9\n  end\nend"), "deny", "class Object reopened: its methods are the top level's");
  assert.is(below("class Other\n  def foo\n    9\n  end\n  undef foo\nend"), "allow", "a class's own method");
});

Claude("should deny an edit that binds names by one computed when the file runs (globals()[…], exports[name], eval), which may be another session's symbol", ({ box }) => {
  const py = join(box.project, "m.py");
  const js = join(box.project, "m.js");
  const rb = join(box.project, "m.rb");
  writeFileSync(py, "def foo():\n    return 1\n\n\ndef bar():\n    return 2\n\n\nprint(bar())\n");
  writeFileSync(js, "function foo() {\n  return 1;\n}\n\nfunction bar() {\n  return 2;\n}\n\nmodule.exports = { bar, foo };\n");
  writeFileSync(rb, "def foo\n  1\nend\n\ndef bar\n  2\nend\n\nputs bar\n");
  claims(["take", `${py}#foo`, `${js}#foo`, `${rb}#foo`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  const py_ = (added: string) => addedAfter(box, py, "print(bar())\n", added);
  const js_ = (added: string) => addedAfter(box, js, "module.exports = { bar, foo };\n", added);
  const rb_ = (added: string) => addedAfter(box, rb, "puts bar\n", added);
  for (const added of ['globals()["fo" + "o"] = bar', "vars().update(foo=bar)", 'exec("foo = bar")', 'import sys\nsetattr(sys.modules[__name__], "foo", bar)', "import sys\nsys.modules[__name__].foo = bar"]) {
    assert.is(py_(added), "deny", added);
  }
  for (const added of ['module.exports["fo" + "o"] = bar;', "Object.assign(module.exports, require(\"./fast\"));", 'eval("foo = bar");', "globalThis.foo = bar;", 'tslib.__exportStar(require("./fast"), exports);']) {
    assert.is(js_(added), "deny", added);
  }
  for (const added of ["Object.send(:define_method, :foo) { 9 }", 'eval("def foo; 9; end")', "Object.class_eval { def foo; 9; end }"]) assert.is(rb_(added), "deny", added);
  // Not a binding of the module's names: another object's attribute, a string that only spells exec.
  assert.is(py_("setattr(bar, 'foo', 1)"), "allow");
  assert.is(py_("print('exec(x)' if False else bar.__name__)"), "deny", "a string spelling one is read as one: refusing is safe");
  assert.is(js_('Object.defineProperty(exports, "__esModule", { value: true });'), "allow", "a plain key other than foo");
  assert.is(js_("const self = { x: 1 };\nself.x = 2;"), "allow");
  assert.is(rb_("class Other\n  define_method(:foo) { 9 }\nend"), "allow", "a class's own method");
});

Claude("should deny an edit that sets or deletes an attribute of another session's symbol from outside it (a monkey patch), there or in a function, and allow an instance's", ({ box }) => {
  const py = join(box.project, "c.py");
  const js = join(box.project, "c.js");
  writeFileSync(py, "class Foo:\n    def a(self):\n        return 1\n\n\ndef bar():\n    return 2\n\n\nprint(bar())\n");
  writeFileSync(js, "class Foo {\n  a() {\n    return 1;\n  }\n}\n\nfunction bar() {\n  return 2;\n}\n\nmodule.exports = { Foo, bar };\n");
  claims(["take", `${py}#Foo`, `${py}#bar`, `${js}#Foo`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  const py_ = (added: string) => addedAfter(box, py, "print(bar())\n", added);
  const js_ = (added: string) => addedAfter(box, js, "module.exports = { Foo, bar };\n", added);
  for (const added of ["Foo.a = lambda self: 9", "del Foo.a", "setattr(Foo, 'a', lambda self: 9)", "Foo.__init__.__defaults__ = (9,)"]) assert.is(py_(added), "deny", added);
  for (const added of ["Foo.prototype.a = () => 9;", 'Foo["create"] = () => null;', "Object.assign(Foo.prototype, { a() { return 9; } });"]) assert.is(js_(added), "deny", added);
  // A patch made when a function runs (a test's setup, a plugin's register): the symbol changes all the same.
  for (const added of ["def setup():\n    Foo.a = lambda self: 9", "def teardown():\n    del Foo.a", "class Plugin:\n    def register(self):\n        setattr(Foo, 'a', None)"]) assert.is(py_(added), "deny", added);
  for (const added of ["function setup() {\n  Foo.prototype.a = () => 9;\n}", "function setup() { Foo.prototype.a = () => 9; }", "beforeEach(() => {\n  Object.assign(Foo.prototype, { a: null });\n});"]) assert.is(js_(added), "deny", added);
  assert.is(py_("def setup(): Foo.a = 9"), "deny", "on one line");
  assert.is(js_("beforeEach(() => Foo.prototype.a = null);"), "deny");
  assert.is(py_("def baz():\n    foo = Foo()\n    foo.x = 1"), "allow", "an instance's attribute, in a function");
  // A lowercase name in a function is more often a parameter or local of that name: only a module's statement changes it.
  assert.is(py_("def configure(bar):\n    bar.debug = True"), "allow", "a parameter named as the held function");
  assert.is(py_("bar.debug = True"), "deny");
  assert.is(js_("function baz() {\n  const foo = new Foo();\n  foo.x = 1;\n}"), "allow", "an instance's, in JavaScript");
  assert.is(js_("Foo2.a = 1;"), "allow", "another name");
  for (const added of ["x = Foo.a = lambda self: 9", "Foo.a: object = None", "Foo.a, Foo.b = 1, 2"]) assert.is(py_(added), "deny", added);
  assert.is(js_("[x, Foo.prototype.a] = [1, () => 9];"), "deny");
});

Claude("should renew the session's own claim on each write and release it, handing it on, at session end", ({ box, file }) => {
  hook(box, edit(box, "s1", file, "toFixed"));
  claims(["handover", file, "--dir", box.dir, "--holder", "claude-s2", "--purpose", "after s1"]);
  assert.is(hook(box, edit(box, "s1", file, "toFixed")).stdout, "", "its own claim: renewed, allowed");
  assert.is(hook(box, { ...edit(box, "s1", file, "toFixed"), hook_event_name: "PostToolUse", tool_response: {} }).code, 0);
  const ended = hook(box, { session_id: "s1", cwd: box.project, hook_event_name: "SessionEnd", reason: "exit" });
  assert.is(ended.code, 0);
  assert.match(ended.stderr, /handed .*utils\.ts to claude-s2/);
  assert.is(readJson(join(box.dir, entries(box.dir)[0] as string)).holder, "claude-s2");
});

Claude("should rewrite a heartbeat before and after a write only once it is a minute old (or a tenth of its TTL)", ({ box, file }) => {
  const claimFile = (target: string) => join(box.dir, entries(box.dir).find((name) => readJson(join(box.dir, name)).target === target) as string);
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const other = join(box.project, "other.ts");
  const handWritten = (target: string, heartbeatSecondsAgo: number, ttl?: number) => {
    const claim = { target, holder: "claude-s1", purpose: "p", taken_at: ago(3000), heartbeat_at: ago(heartbeatSecondsAgo), ...(ttl !== undefined && { ttl }) };
    writeFileSync(claimFile(target), `${JSON.stringify(claim, null, 2)}\n`);
    return statSync(claimFile(target)).ino;
  };
  hook(box, edit(box, "s1", file, "toFixed"));
  hook(box, edit(box, "s1", other, ""));
  // Seconds old: an edit and its PostToolUse read the claims but write nothing.
  const young = handWritten(file, 5);
  assert.is(hook(box, edit(box, "s1", file, "toFixed")).stdout, "");
  assert.is(hook(box, { ...edit(box, "s1", file, "toFixed"), hook_event_name: "PostToolUse", tool_response: {} }).code, 0);
  assert.is(statSync(claimFile(file)).ino, young, "a heartbeat 5 s old was rewritten");
  // Two minutes old: renewed before the write; the session's other claim is renewed after it.
  handWritten(file, 120);
  handWritten(other, 120);
  hook(box, edit(box, "s1", file, "toFixed"));
  assert.ok(Date.now() - Date.parse(readJson(claimFile(file)).heartbeat_at) < 30_000, "a heartbeat 2 minutes old was not renewed before the write");
  assert.ok(Date.now() - Date.parse(readJson(claimFile(other)).heartbeat_at) > 60_000, "PreToolUse renews only the claims covering the file");
  hook(box, { ...edit(box, "s1", file, "toFixed"), hook_event_name: "PostToolUse", tool_response: {} });
  assert.ok(Date.now() - Date.parse(readJson(claimFile(other)).heartbeat_at) > 60_000, "PostToolUse renews only what the write touched");
  hook(box, { ...edit(box, "s1", other, ""), hook_event_name: "PostToolUse", tool_response: {} });
  assert.ok(Date.now() - Date.parse(readJson(claimFile(other)).heartbeat_at) < 30_000, "a write of the other file renews its claim");
  // A claim with a TTL of 100 s is renewed after 10 s.
  handWritten(file, 20, 100);
  hook(box, edit(box, "s1", file, "toFixed"));
  assert.ok(Date.now() - Date.parse(readJson(claimFile(file)).heartbeat_at) < 15_000, "a tenth of a short TTL was not respected");
});

Claude("should count a subagent as its session (as its shell does), or as a holder of its own with --subagent-holders", ({ box, file }) => {
  hook(box, edit(box, "s1", file, "toFixed", { agent_id: "sub-7", agent_type: "general-purpose" }));
  assert.is(readJson(join(box.dir, entries(box.dir)[0] as string)).holder, "claude-s1", "the subagent's shell sees only CLAUDE_CODE_SESSION_ID");
  hook(box, { ...edit(box, "s1", file, "toFixed", { agent_id: "sub-7" }), hook_event_name: "PostToolUse", tool_response: {} });
  assert.is(hook(box, { ...edit(box, "s1", file, ""), hook_event_name: "SubagentStop", agent_id: "sub-7" }).code, 0);
  assert.is(entries(box.dir).length, 1, "a subagent's end does not release its session's claims");
  const other = join(box.project, "other.ts");
  hook(box, edit(box, "s9", other, "", { agent_id: "sub-1" }), "claude", ["--subagent-holders"]);
  assert.ok(entries(box.dir).some((name) => readJson(join(box.dir, name)).holder === "claude-s9/sub-1"));
  const parent = decision(hook(box, edit(box, "s9", other, ""), "claude", ["--subagent-holders"]).stdout);
  assert.is(parent?.permissionDecision, "deny");
  assert.match(parent.permissionDecisionReason, /claude-s9\/sub-1 .*\(another subagent of your own session\)/);
  assert.match(parent.permissionDecisionReason, /--holder claude-s9 /, "the shell would not derive the holder: the command names it");
});

Claude("should deny an attribute added above another session's Rust function, or one for the whole file, and allow one above another function", ({ box }) => {
  const lib = join(box.project, "lib.rs");
  writeFileSync(lib, "#![allow(dead_code)]\n\npub fn bar() -> i32 {\n    1\n}\n\n/// Two.\n#[inline]\npub fn foo() -> i32 {\n    2\n}\n");
  assert.is(claims(["take", `${lib}#foo`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]).code, 0);
  const change = (old: string, replacement: string) => ({ ...edit(box, "s2", lib, old), tool_input: { file_path: lib, old_string: old, new_string: replacement } });
  for (const [old, replacement] of [
    ["    1\n}\n", "    1\n}\n\n#[cfg(any())]"], // compiles foo out, from the line above its doc comment
    ["#[inline]\n", "#[inline]\n#[cfg(test)]\n"],
    ["#![allow(dead_code)]\n", "#![allow(dead_code)]\n#![cfg(any())]\n"], // the whole file
    ["#![allow(dead_code)]\n", ""],
  ]) {
    assert.is(decision(hook(box, change(old as string, replacement as string)).stdout)?.permissionDecision, "deny", replacement);
  }
  assert.is(hook(box, change("pub fn bar", "#[must_use]\npub fn bar")).stdout, "", "an attribute of bar is bar's");
});

Claude("should claim the symbol an edit touches beside another session's symbol claim, so a second writer of it is refused", ({ box, file }) => {
  claims(["take", `${file}#formatPrice`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  assert.is(hook(box, edit(box, "s1", file, "toISOString")).stdout, "", "formatDate is free");
  assert.ok(entries(box.dir).some((name) => readJson(join(box.dir, name)).target === `${file}#formatDate`), "the edited symbol is claimed");
  const second = decision(hook(box, edit(box, "s2", file, "toISOString")).stdout);
  assert.is(second?.permissionDecision, "deny");
  assert.match(second.permissionDecisionReason, /formatDate.*held by claude-s1/);
});

Claude("should give back a claim taken for a call that never ran, at the end of the turn", ({ box, file }) => {
  const other = join(box.project, "other.ts");
  const claimed = () => entries(box.dir).filter((name) => !name.startsWith(".")).map((name) => readJson(join(box.dir, name)).target).sort();
  hook(box, edit(box, "s1", file, "toFixed", { tool_use_id: "t1" }));
  hook(box, edit(box, "s1", other, "", { tool_use_id: "t2" }));
  assert.equal(claimed(), [file, other].sort());
  hook(box, { ...edit(box, "s1", file, "toFixed", { tool_use_id: "t1" }), hook_event_name: "PostToolUseFailure", error: "String to replace not found" });
  assert.equal(claimed(), [file, other].sort(), "a failed edit keeps its claim until the turn ends: a parallel call may be writing the file");
  hook(box, { session_id: "s1", cwd: box.project, hook_event_name: "Stop" });
  assert.equal(claimed(), [], "the failed call, and a call refused by the permission system, never reached PostToolUse");
  hook(box, edit(box, "s1", other, "", { tool_use_id: "t3" }));
  hook(box, { ...edit(box, "s1", other, "", { tool_use_id: "t3" }), hook_event_name: "PostToolUse", tool_response: {} });
  hook(box, { session_id: "s1", cwd: box.project, hook_event_name: "Stop" });
  assert.equal(claimed(), [other], "a write that happened keeps its claim past the turn");
});

Claude("should write no mark of a turn through a symlink planted at its name, as another user of a shared claims directory can", async ({ box, file }) => {
  const { hookHash, HOOK_ASKED_PREFIX, HOOK_WRITTEN_PREFIX } = await import("../src/protocol/hook-files.js");
  const { scopeOf } = await import("../src/hooks/state.js");
  const scope = scopeOf("claude-s1", undefined);
  const precious = join(box.root, "precious");
  writeFileSync(precious, "keep\n");
  hook(box, edit(box, "s1", file, "toFixed", { tool_use_id: "t1" }));
  // The holder and the target are in the claim file, which the directory's users read.
  symlinkSync(precious, join(box.dir, `${HOOK_WRITTEN_PREFIX}${scope}-${hookHash(file)}`));
  symlinkSync(precious, join(box.dir, `${HOOK_ASKED_PREFIX}${scope}-${hookHash("t2")}`));
  hook(box, { ...edit(box, "s1", file, "toFixed", { tool_use_id: "t1" }), hook_event_name: "PostToolUse", tool_response: {} });
  hook(box, edit(box, "s1", file, "const", { tool_use_id: "t2" }));
  hook(box, { ...edit(box, "s1", file, "const", { tool_use_id: "t2" }), hook_event_name: "PostToolUseFailure", error: "String to replace not found" });
  assert.is(readFileSync(precious, "utf8"), "keep\n", "the file the link points to is untouched");
});

Claude("should keep a file claimed while a parallel edit of it runs, when the call that took the claim fails", ({ box, file }) => {
  // Claude Code runs a turn's edits of one file at once: t1 takes the claim, t2 finds it the
  // session's own; t1 failing must not give back the file t2 is writing.
  const claimed = () => entries(box.dir).filter((name) => !name.startsWith(".")).map((name) => readJson(join(box.dir, name)).target).sort();
  hook(box, edit(box, "s1", file, "toFixed", { tool_use_id: "t1" }));
  hook(box, edit(box, "s1", file, "const", { tool_use_id: "t2" }));
  hook(box, { ...edit(box, "s1", file, "toFixed", { tool_use_id: "t1" }), hook_event_name: "PostToolUseFailure", error: "String to replace not found" });
  assert.equal(claimed(), [file], "still claimed while t2 writes");
  const other = hook(box, edit(box, "s2", file, "const", { tool_use_id: "u1" }));
  assert.is(decision(other.stdout)?.permissionDecision, "deny", "another session is refused meanwhile");
  hook(box, { ...edit(box, "s1", file, "const", { tool_use_id: "t2" }), hook_event_name: "PostToolUse", tool_response: {} });
  hook(box, { session_id: "s1", cwd: box.project, hook_event_name: "Stop" });
  assert.equal(claimed(), [file], "t2 wrote the file: the claim outlives the turn");
});

Claude("should give back a failed call's claim at the next prompt when the user interrupted the turn (no Stop)", ({ box, file }) => {
  const claimed = () => entries(box.dir).filter((name) => !name.startsWith(".")).map((name) => readJson(join(box.dir, name)).target).sort();
  hook(box, edit(box, "s1", file, "toFixed", { tool_use_id: "t1" }));
  hook(box, { ...edit(box, "s1", file, "toFixed", { tool_use_id: "t1" }), hook_event_name: "PostToolUseFailure", error: "Interrupted by user", is_interrupt: true });
  assert.equal(claimed(), [file]);
  hook(box, { session_id: "s1", cwd: box.project, hook_event_name: "UserPromptSubmit", prompt: "go on" });
  assert.equal(claimed(), [], "given back: the call changed nothing");
});

Claude("should give back, at the next prompt, a claim whose call the user refused at the permission prompt (no Stop follows)", ({ box, file }) => {
  const other = join(box.project, "other.ts");
  const claimed = () => entries(box.dir).filter((name) => !name.startsWith(".")).map((name) => readJson(join(box.dir, name)).target).sort();
  const write = (path: string, id: string) => ({ ...edit(box, "s1", path, "", { tool_use_id: id }), tool_name: "Write", tool_input: { file_path: path, content: "x" } });
  const asked = (path: string) => {
    const { tool_use_id: _, ...request } = write(path, "");
    return { ...request, hook_event_name: "PermissionRequest" };
  };
  hook(box, write(file, "t1"));
  hook(box, asked(file));
  hook(box, write(other, "t2"));
  hook(box, asked(other));
  hook(box, { ...write(other, "t2"), hook_event_name: "PostToolUse", tool_response: {} });
  hook(box, { ...edit(box, "s1", join(box.project, "third.ts"), ""), tool_name: "Write", tool_use_id: "t3" });
  assert.equal(claimed(), [file, other, join(box.project, "third.ts")].sort());
  hook(box, { session_id: "s1", cwd: box.project, hook_event_name: "UserPromptSubmit", prompt: "next" });
  assert.equal(claimed(), [other, join(box.project, "third.ts")].sort(), "the refused call's claim is given back; the approved one and one never asked about stay");
});

Claude("should carry the claims over to the session /clear starts in the same client process, and to no other", ({ box, file }) => {
  const run = (payload: object, pid: number) =>
    spawnSync(process.execPath, [BIN, "hook", "claude"], { input: JSON.stringify(payload), env: cleanEnv({ CLAIMS_DIR: box.dir, CLAUDE_PID: String(pid) }), encoding: "utf8" });
  const holderOf = () => entries(box.dir).filter((name) => !name.startsWith(".")).map((name) => readJson(join(box.dir, name)).holder);
  run(edit(box, "s1", file, "toFixed"), process.pid);
  run({ ...edit(box, "s1", file, "toFixed"), hook_event_name: "PostToolUse", tool_response: {} }, process.pid);
  run({ session_id: "s1", cwd: box.project, hook_event_name: "SessionEnd", reason: "clear" }, process.pid);
  assert.equal(holderOf(), ["claude-s1"], "kept through /clear");
  run({ session_id: "elsewhere", cwd: box.project, hook_event_name: "SessionStart", source: "clear" }, process.ppid);
  assert.equal(holderOf(), ["claude-s1"], "a session of another client process inherits nothing");
  run({ session_id: "s2", cwd: box.project, hook_event_name: "SessionStart", source: "clear" }, process.pid);
  assert.equal(holderOf(), ["claude-s2"], "the new session of the same client holds it");
});

Claude("should carry the claims over /clear without CLAUDE_PID, when each hook runs in a shell of its own under the client", ({ box, file }) => {
  // Claude Code 2.1.197 sets no CLAUDE_PID and runs each hook's command through a shell.
  const run = (payload: object) =>
    spawnSync("sh", ["-c", `'${process.execPath}' '${BIN}' hook claude; true`], { input: JSON.stringify(payload), env: cleanEnv({ CLAIMS_DIR: box.dir }), encoding: "utf8" });
  const holderOf = () => entries(box.dir).filter((name) => !name.startsWith(".")).map((name) => readJson(join(box.dir, name)).holder);
  run(edit(box, "s1", file, "toFixed"));
  run({ ...edit(box, "s1", file, "toFixed"), hook_event_name: "PostToolUse", tool_response: {} });
  run({ session_id: "s1", cwd: box.project, hook_event_name: "SessionEnd", reason: "clear" });
  run({ session_id: "s2", cwd: box.project, hook_event_name: "SessionStart", source: "clear" });
  assert.equal(holderOf(), ["claude-s2"], "the two shells are one client: the test process");
});

Claude("should deny a shell command that writes a claimed file, claim what a free one writes, and never deny a read", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  const bash = (command: string) => decision(hook(box, { ...edit(box, "s1", file, ""), tool_name: "Bash", tool_input: { command } }).stdout);
  for (const command of ["sed -i 's/a/b/' utils.ts", "echo x >> utils.ts", "cd . && tee utils.ts < /dev/null", "rm -f *.ts", "git checkout -- utils.ts", "bash -c 'truncate -s 0 utils.ts'"]) {
    assert.is(bash(command)?.permissionDecision, "deny", command);
  }
  for (const command of ["cat utils.ts", "grep -n 'x > utils.ts' utils.ts", "sed -n 1p utils.ts", "git diff utils.ts", "echo hi > /dev/null"]) {
    assert.is(bash(command), undefined, command);
  }
  assert.is(bash("cp utils.ts copy.ts"), undefined);
  assert.ok(entries(box.dir).some((name) => readJson(join(box.dir, name)).target === join(box.project, "copy.ts")), "the file cp writes is claimed");
});

Claude("should deny a write of a free file another session is queued for ahead, saying it is waited for, not claimed", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  mkdirSync(join(box.project, "D"));
  writeFileSync(join(box.project, "D", "b.ts"), "export const b = 1;\n");
  assert.is(claims(["take", "./D/a.ts", "--dir", box.dir, "--holder", "holder-of-a"], { cwd: box.project }).code, 0);
  assert.is(claims(["take", "./D/", "--queue", "--dir", box.dir, "--holder", "waiter", "--purpose", "rename D"], { cwd: box.project }).code, 6);
  const result = hook(box, { ...edit(box, "s2", join(box.project, "D", "b.ts"), "b"), tool_input: { file_path: join(box.project, "D", "b.ts"), old_string: "b", new_string: "c" } });
  const reason = decision(result.stdout)?.permissionDecisionReason as string;
  assert.is(decision(result.stdout)?.permissionDecision, "deny");
  assert.match(reason, /^This file is waited for by another session, queued ahead of you, \(claims:/);
  assert.match(reason, /waiter is queued ahead of you/);
  // The same answer from claims check (the queue goes first).
  assert.is(claims(["check", join(box.project, "D", "b.ts"), "--dir", box.dir, "--holder", "claude-s2"]).code, 3);
});

Claude("should word a refusal of several files for all of them, with one command that queues for each", ({ box, file }) => {
  writeFileSync(join(box.project, "other.ts"), "export const x = 1;\n");
  claims(["take", file, "other.ts", "--dir", box.dir, "--holder", "claude-s1", "--purpose", "rounding"], { cwd: box.project });
  const result = hook(box, { ...edit(box, "s2", file, ""), tool_name: "Bash", tool_input: { command: "rm utils.ts other.ts" } });
  const reason = decision(result.stdout)?.permissionDecisionReason as string;
  assert.match(reason, /^These 2 files are claimed by another session/);
  assert.match(reason, /- other\.ts: held by claude-s1/);
  assert.match(reason, /- utils\.ts: held by claude-s1/);
  assert.match(reason, /Do not write them now\..*claims take other\.ts utils\.ts --queue --purpose/);
  assert.not.match(reason, /This file|claims handover/);
});

Claude("should say a refusal after a cd it cannot follow was checked against every claim the path could mean, and how to go ahead", ({ box, file }) => {
  mkdirSync(join(box.project, "gen"));
  writeFileSync(join(box.project, "gen", "a.ts"), "");
  claims(["take", join(box.project, "gen", "a.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "codegen"]);
  const bash = (command: string) => decision(hook(box, { ...edit(box, "s1", file, ""), tool_name: "Bash", tool_input: { command } }).stdout)?.permissionDecisionReason as string;
  const reason = bash('cd "$x" && rm a.ts');
  assert.match(reason, /- gen\/a\.ts: held by other for "codegen" \(heartbeat \d+s ago\); it may be what the command writes \(its directory is unknown\)\n/);
  assert.match(
    reason,
    /\nThe command writes the relative path "a\.ts" after a cd \(or pushd, popd\) whose directory cannot be known from the command's text, or under a directory a variable names \("\$d\/a\.ts"\), so it was checked against every claim it could mean/,
  );
  assert.match(reason, /run it again with a path that can be followed \(an absolute path, or after a cd to a literal directory\)/);
  assert.match(reason, /claims handover gen\/a\.ts --purpose/, "the handover is still offered, in case it is that file");
  claims(["take", file, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]);
  assert.not.match(bash("rm utils.ts"), /cannot be known|may be what/, "a path whose place is known is refused without the note");
  const both = bash('rm utils.ts; cd "$x"; rm a.ts utils.ts');
  assert.match(both, /- utils\.ts: held by other for "rounding" \(heartbeat \d+s ago\)\n/, "the claim a known path names is not marked as a guess, nor listed twice");
  assert.is(both.split("- utils.ts:").length, 2);
  assert.match(both, /the relative paths "a\.ts", "utils\.ts" after a cd/);
});

Claude("should match the holder the CLI derives from CODEX_SESSION_ID in Codex's shell", ({ box, file }) => {
  hook(box, { session_id: "cx9", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "apply_patch", tool_input: { command: "*** Begin Patch\n*** Update File: utils.ts\n@@\n-a\n+b\n*** End Patch" } }, "codex");
  const fromShell = spawnSync(process.execPath, [BIN, "release", file, "--dir", box.dir, "--json"], { env: cleanEnv({ CODEX_SESSION_ID: "cx9", CODEX_THREAD_ID: "cx9" }), encoding: "utf8" });
  assert.equal(JSON.parse(fromShell.stdout).released, [file]);
});

Claude("should match the holder the CLI derives from CLAUDE_CODE_SESSION_ID", ({ box, file }) => {
  hook(box, edit(box, "abc", file, "toFixed"));
  const fromShell = spawnSync(process.execPath, [BIN, "release", file, "--dir", box.dir, "--json"], {
    env: cleanEnv({ CLAUDE_CODE_SESSION_ID: "abc" }),
    encoding: "utf8",
  });
  assert.equal(JSON.parse(fromShell.stdout).released, [file]);
});

Claude("should not take with --no-auto-take, and pass malformed, empty or non-writing payloads without touching the store", ({ box, file }) => {
  assert.is(hook(box, edit(box, "s1", file, "toFixed"), "claude", ["--no-auto-take"]).stdout, "");
  for (const payload of ["", "{", "[]", "null", JSON.stringify({ hook_event_name: "PreToolUse" }), JSON.stringify({ ...edit(box, "s1", file, "x"), tool_name: "Read" }), JSON.stringify({ ...edit(box, "s1", file, "x"), tool_name: "Bash", tool_input: { command: `rm -rf ${box.root}` } })]) {
    const result = hook(box, payload);
    assert.is(result.code, 0, payload);
    assert.is(result.stdout, "", payload);
  }
  assert.equal(entries(box.root).includes("store"), false, "the claims directory was never created");
});

Claude("should fail open with a one-line note, or closed with --fail-closed, when the claims directory is unusable", ({ box, file }) => {
  writeFileSync(join(box.root, "not-a-dir"), "");
  const env = { CLAIMS_DIR: join(box.root, "not-a-dir") };
  const run = (extra: string[]) =>
    spawnSync(process.execPath, [BIN, "hook", "claude", ...extra], { input: JSON.stringify(edit(box, "s1", file, "toFixed")), env: cleanEnv(env), encoding: "utf8" });
  const open = run([]);
  assert.is(open.status, 0);
  assert.is(open.stdout, "");
  assert.match(open.stderr, /^claims: .*fail-open\)\n$/);
  const closed = run(["--fail-closed"]);
  assert.is(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecision, "deny");
});

Claude("should refuse every write but the repair while a .claims configuration cannot be read, whatever pins the claims directory", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "other", "--purpose", "prices"]);
  const config = join(box.project, ".claims");
  const write = (path: string) => ({ ...edit(box, "s1", path, "x"), tool_name: "Write", tool_input: { file_path: path, content: "{}" } });
  const shell = (command: string) => ({ ...edit(box, "s1", file, "x"), tool_name: "Bash", tool_input: { command } });
  for (const broken of ['{"nope": 1}', "{}x", '{"ttl": "soon"}']) {
    writeFileSync(config, broken);
    for (const extra of [[], ["--fail-closed"]]) {
      const denied = hook(box, edit(box, "s1", file, "toFixed"), "claude", extra);
      assert.is(decision(denied.stdout)?.permissionDecision, "deny", broken);
      assert.match(decision(denied.stdout).permissionDecisionReason, /claims cannot check this write: .*\.claims.*every write is refused but one of .*\.claims itself/);
      assert.is(decision(hook(box, write(join(box.project, "other.ts")), "claude", extra).stdout)?.permissionDecision, "deny", "a free file too");
      const repair = hook(box, write(config), "claude", extra);
      assert.is(repair.stdout, "", "the repair goes through");
      assert.match(repair.stderr, /let this write of it through/);
      assert.is(hook(box, shell("echo '{}' > .claims"), "claude", extra).stdout, "", "a repair through the shell too");
      assert.is(decision(hook(box, shell("echo '{}' > .claims && rm u.ts"), "claude", extra).stdout)?.permissionDecision, "deny");
      assert.is(hook(box, shell("ls"), "claude", extra).stdout, "", "a command that writes nothing");
    }
  }
});

Claude("should judge and claim a file in the claims directory its own .claims names, whichever directory the session's cwd uses", ({ box }) => {
  const outside = join(box.root, "outside");
  const project = join(box.root, "proj2");
  mkdirSync(outside);
  mkdirSync(project);
  writeFileSync(join(outside, ".claims"), JSON.stringify({ dir: join(box.root, "store-a") }));
  writeFileSync(join(project, ".claims"), JSON.stringify({ dir: join(box.root, "store-b") }));
  writeFileSync(join(project, "f.txt"), "");
  const env = { HOME: box.root };
  assert.is(claims(["take", "f.txt", "--holder", "other", "--purpose", "theirs"], { cwd: project, env }).code, 0);
  const write = (path: string) =>
    spawnSync(process.execPath, [BIN, "hook", "claude"], {
      input: JSON.stringify({ session_id: "s9", cwd: outside, hook_event_name: "PreToolUse", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: path, content: "x" } }),
      env: cleanEnv(env),
      encoding: "utf8",
    });
  assert.match(decision(write(join(project, "f.txt")).stdout)?.permissionDecisionReason ?? "", /held by other for "theirs"/);
  assert.is(write(join(project, "g.txt")).stdout, "", "a free file there is allowed");
  const held = claims(["status", "--json"], { cwd: project, env });
  assert.ok(JSON.parse(held.stdout).claims.some((claim: { target: string; holder: string }) => claim.target === join(project, "g.txt") && claim.holder === "claude-s9"), "and claimed where the sessions beside it look");
});

Claude("should judge a tree written whole, and a path through .., in the claims directory of each .claims under it", ({ box }) => {
  const sub = join(box.project, "packages", "sub");
  mkdirSync(join(sub, "deep"), { recursive: true });
  writeFileSync(join(box.project, ".claims"), JSON.stringify({ dir: join(box.root, "store-r") }));
  writeFileSync(join(sub, ".claims"), JSON.stringify({ dir: join(box.root, "store-s") }));
  writeFileSync(join(sub, "x.ts"), "");
  symlinkSync(join(sub, "deep"), join(box.project, "lnk"));
  const env = { HOME: box.root };
  assert.is(claims(["take", "x.ts", "--holder", "other", "--purpose", "theirs"], { cwd: sub, env }).code, 0);
  const bash = (command: string) =>
    decision(
      spawnSync(process.execPath, [BIN, "hook", "claude"], {
        input: JSON.stringify({ session_id: "s9", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "t1", tool_input: { command } }),
        env: cleanEnv(env),
        encoding: "utf8",
      }).stdout,
    )?.permissionDecision;
  // A flat folder of many files read first hides no package below it.
  mkdirSync(join(box.project, "assets"));
  for (let index = 0; index < 20_001; index++) writeFileSync(join(box.project, "assets", `${index}.png`), "");
  const commands = ["rm -rf packages/sub", "rm -rf packages", "echo x > lnk/../x.ts", "find packages -name '*.ts' -delete", "rm -rf ./*", 'eval "$CMD"', `rm -f ${join(box.root, "store-s")}/*.json`];
  for (const command of commands) assert.is(bash(command), "deny", command);
  assert.is(bash("rm -rf packages/other"), undefined, "a tree with no claim in it");
});

Claude("should deny changing or removing a .claims while another session holds files through the claims directory it names", ({ box }) => {
  const pkg = join(box.project, "pkg");
  mkdirSync(pkg);
  const config = join(pkg, ".claims");
  writeFileSync(config, JSON.stringify({ dir: join(box.root, "store-p") }));
  writeFileSync(join(pkg, "a.ts"), "");
  const env = { HOME: box.root };
  assert.is(claims(["take", "a.ts", "--holder", "other", "--purpose", "theirs"], { cwd: pkg, env }).code, 0);
  const call = (tool_name: string, tool_input: object) =>
    decision(
      spawnSync(process.execPath, [BIN, "hook", "claude"], {
        input: JSON.stringify({ session_id: "s9", cwd: box.project, hook_event_name: "PreToolUse", tool_name, tool_use_id: "t1", tool_input }),
        env: cleanEnv(env),
        encoding: "utf8",
      }).stdout,
    );
  // Without it, a take of pkg/a.ts would go to the default directory and be granted beside theirs.
  for (const command of ["rm pkg/.claims", "mv pkg/.claims pkg/.claims.bak", "rm -f */.claims", "echo '{}' > pkg/.claims"]) {
    const answer = call("Bash", { command });
    assert.is(answer?.permissionDecision, "deny", command);
    assert.match(answer.permissionDecisionReason, /pkg\/\.claims sends the claims of the files beside it to .*store-p.*held by other for "theirs"/s, command);
  }
  assert.is(call("Write", { file_path: config, content: "{}" })?.permissionDecision, "deny", "the editor's write too");
  assert.is(call("Bash", { command: "rm pkg/b.ts" }), undefined, "a free file beside it");
  assert.is(claims(["release", "a.ts", "--holder", "other"], { cwd: pkg, env }).code, 0);
  assert.is(call("Bash", { command: "rm pkg/.claims" }), undefined, "nothing held there: the package's config is free to change");
  // A `.claims` that is a symlink to a config file elsewhere is that config.
  mkdirSync(join(box.project, "conf"));
  writeFileSync(join(box.project, "conf", "pkg.json"), JSON.stringify({ dir: join(box.root, "store-p") }));
  rmSync(config);
  symlinkSync("../conf/pkg.json", config);
  assert.is(claims(["take", "a.ts", "--holder", "other", "--purpose", "theirs"], { cwd: pkg, env }).code, 0);
  for (const command of ["rm pkg/.claims", "echo '{}' > pkg/.claims"]) assert.is(call("Bash", { command })?.permissionDecision, "deny", `through the link: ${command}`);
});

Claude("should allow a shell write without auto-take where the claims directory is not made yet, without failing open", ({ box }) => {
  const result = hook(box, { ...edit(box, "s1", join(box.project, "b.ts"), "x"), tool_name: "Bash", tool_input: { command: "echo x > b.ts" } }, "claude", ["--no-auto-take"]);
  assert.is(result.stdout, "");
  assert.is(result.stderr, "", "judged, not let through by an error");
});

Claude("should judge a command writing more files than a take claims in time against every claim, and claim none of them", ({ box }) => {
  const bash = (command: string) => hook(box, { ...edit(box, "s1", join(box.project, "a.ts"), "x"), tool_name: "Bash", tool_input: { command } });
  const many = Array.from({ length: 129 }, (_, at) => `gen/f${at}.ts`);
  const few = many.slice(0, 128);
  // 129 files: judged, allowed, none claimed (each claim is a durable write; thousands outlast the agent's wait).
  const claimed = () => (existsSync(box.dir) ? entries(box.dir).filter((name) => name.includes("gen")) : []);
  assert.is(bash(`rm -f ${many.join(" ")}`).stdout, "");
  assert.equal(claimed(), []);
  // Still refused where another session holds one of them.
  assert.is(claims(["take", join(box.project, "gen", "f128.ts"), "--dir", box.dir, "--holder", "other", "--purpose", "regenerating"]).code, 0);
  assert.is(decision(bash(`rm -f ${many.join(" ")}`).stdout)?.permissionDecision, "deny");
  // 128: each claimed for the session, as before.
  assert.is(bash(`rm -f ${few.join(" ")}`).stdout, "");
  assert.is(claimed().filter((name) => !name.includes("f128")).length, 128);
});

Claude("should check a path with a control character in it and allow it unclaimed, not fail open", ({ box }) => {
  const path = join(box.project, "notes.md\n");
  const result = hook(box, { ...edit(box, "s1", path, "x"), tool_name: "Write", tool_input: { file_path: path, content: "x" } });
  assert.is(result.stdout, "");
  assert.is(result.stderr, "", "no fail-open note: the call was judged");
});

Claude("should print a settings snippet that runs this binary: JSON on stdout, where it goes on stderr", () => {
  const result = claims(["hook", "print-config", "claude"]);
  assert.is(result.code, 0);
  const json = JSON.parse(result.stdout);
  assert.ok(json.hooks.PreToolUse[0].hooks[0].command.endsWith("claims.js hook claude"));
  assert.is(json.hooks.PreToolUse[0].matcher, "Write|Edit|NotebookEdit|Bash|mcp__.*", "the editors, the shell and every MCP server's tools");
  assert.equal(Object.keys(json.hooks), ["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionDenied", "PermissionRequest", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "SessionEnd"]);
  assert.match(result.stderr, /claims hook install claude merges this into ~\/\.claude\/settings\.json/);
  assert.is(claims(["hook", "print-config", "cursor"]).code, 2);
});

Claude("should put the hook's options into the printed command", ({ box }) => {
  const result = claims(["hook", "print-config", "claude", "--no-auto-take", "--fail-closed", "--dir", "store"], { cwd: box.project });
  const command: string = JSON.parse(result.stdout).hooks.PreToolUse[0].hooks[0].command;
  assert.ok(command.endsWith(`hook claude --no-auto-take --fail-closed --dir ${join(box.project, "store")}`), command);
  const home = JSON.parse(claims(["hook", "print-config", "claude", "--dir", "~/my claims"], { env: { HOME: box.root } }).stdout);
  assert.ok(home.hooks.PreToolUse[0].hooks[0].command.endsWith(`--dir '${join(box.root, "my claims")}'`), home.hooks.PreToolUse[0].hooks[0].command);
  const codex = JSON.parse(claims(["hook", "print-config", "codex", "--no-auto-take"]).stdout);
  assert.ok(codex.hooks.PreToolUse[0].hooks[0].command.endsWith("hook codex --no-auto-take"));
  assert.is(codex.hooks.PreToolUse[0].matcher, "apply_patch|Bash|mcp__.*", "a patch, a write through the shell or through an MCP server's tool reaches the hook");
  assert.ok(codex.hooks.SessionEnd && !codex.hooks.Stop[0].hooks[0].command.includes("release"), "claims are released at session end");
});

Claude("should answer an edit of the session's own file within its timeout while a stopped take holds the take lock", async ({ box, file }) => {
  // The hook renews its own claim once it is no longer young, and a renewal waits for the take lock.
  // A take stopped holding it (Ctrl-Z, a crashed machine's on a network filesystem) made the hook
  // wait 10 s and more, past Claude Code's timeout for it: the call then went through unjudged,
  // or was blocked with --fail-closed. A claim with half its TTL to go is left as it is instead.
  assert.is(claims(["take", file, "--holder", "claude-s2", "--ttl", "20", "--dir", box.dir]).code, 0);
  const heartbeat = readJson(join(box.dir, entries(box.dir)[0] as string)).heartbeat_at;
  await new Promise((resolve) => setTimeout(resolve, 3000)); // no longer young (a tenth of its TTL)
  const stopped = spawn(process.execPath, [BIN, "take", "other", "--holder", "c", "--dir", box.dir], { env: cleanEnv({ CLAIMS_STOP_AT: "lock-won" }), stdio: "ignore" });
  try {
    await untilStopped(stopped);
    // Killed at 8 s, under the 10 s the hook is given (and the 10 s after which a wait for a stopped owner gives up).
    const result = spawnSync(process.execPath, [BIN, "hook", "claude"], { input: JSON.stringify(edit(box, "s2", file, "toFixed")), env: cleanEnv({ CLAIMS_DIR: box.dir }), encoding: "utf8", timeout: 8000 });
    assert.is(result.status, 0, `${result.signal ?? ""} ${result.stdout}${result.stderr}`);
    assert.is(result.stdout, "", "its own file: allowed");
    assert.is(readJson(join(box.dir, entries(box.dir).find((name) => name !== "other.json") as string)).heartbeat_at, heartbeat, "left as it was, to be renewed later");
  } finally {
    stopped.kill("SIGKILL");
  }
});

Claude.run();

const Codex = suite<Context>("claims hook codex");
Codex.before.each((context) => {
  context.box = sandbox();
  context.file = join(context.box.project, "src", "a.ts");
  mkdirSync(join(context.box.project, "src"));
  writeFileSync(context.file, "a\n");
});
Codex.after.each((context) => context.box.cleanup());

const patch = (body: string) => ({
  session_id: "cx1",
  cwd: "",
  hook_event_name: "PreToolUse",
  tool_name: "apply_patch",
  tool_input: { command: `*** Begin Patch\n${body}\n*** End Patch\n` },
});

Codex("should deny a patch touching any path another holds, with exit 2 and the reason on stderr", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "claude-s1", "--purpose", "mine"]);
  const body = "*** Add File: src/new.ts\n+x\n*** Update File: src/b.ts\n*** Move to: src/a.ts\n@@\n-a\n+b";
  const result = hook(box, { ...patch(body), cwd: box.project }, "codex");
  assert.is(result.code, 2);
  assert.match(result.stderr, /src\/a\.ts: held by claude-s1 for "mine"/);
  assert.equal(entries(box.dir).length, 1, "nothing was claimed for the refused patch");
});

Codex("should deny a patch whose file header is indented, which Codex trims and applies", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "claude-s1", "--purpose", "mine"]);
  for (const header of ["  *** Update File: src/a.ts", "\t*** Delete File: src/a.ts", " *** Update File: src/b.ts\n  *** Move to: src/a.ts"]) {
    assert.is(hook(box, { ...patch(`${header}\n@@\n-a\n+b`), cwd: box.project }, "codex").code, 2, header);
    assert.is(hook(box, { ...patch(`${header}\n@@\n-a\n+b`), cwd: box.project, tool_name: "Bash", tool_input: { command: `apply_patch <<'EOF'\n*** Begin Patch\n${header}\n@@\n-a\n+b\n*** End Patch\nEOF\n` } }, "codex").code, 2, `through the shell: ${header}`);
  }
});

Codex("should judge a patch's ~/ path as written in the session's directory and as under HOME: a Codex expanding ~ writes there", ({ box }) => {
  const home = process.env.HOME as string; // the test run's own (test/helpers.ts), the hook's too
  const notes = join(home, `notes-${basename(box.root)}.md`);
  claims(["take", notes, "--creating", "--dir", box.dir, "--holder", "claude-s1", "--purpose", "mine"]);
  const body = `*** Add File: ~/${basename(notes)}\n+x`;
  const result = hook(box, { ...patch(body), cwd: box.project }, "codex");
  assert.is(result.code, 2, result.stderr);
  assert.match(result.stderr, /held by claude-s1 for "mine"/);
  const other = `other-${basename(box.root)}.md`;
  const free = hook(box, { ...patch(`*** Add File: ~/${other}\n+x`), cwd: box.project }, "codex");
  assert.is(free.code, 0, `a free file under either reading: ${free.stderr}`);
  // Claimed for the session: the file it writes as Codex reads the path today, not the other reading.
  assert.equal(JSON.parse(claims(["status", "--dir", box.dir, "--json"]).stdout).claims.map((claim: { target: string }) => claim.target).sort(), [join(box.project, "~", other), notes].sort());
});

Codex("should read a patch's headers as Codex does: Rust's white space trimmed, lines split at newlines alone", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "claude-s1", "--purpose", "mine"]);
  for (const header of ["*** Update File: src/a.ts\u0085", "\u0085*** Delete File: src/a.ts", "*** Update File: q\u2028/../src/a.ts", "*** Update File: q\r/../src/a.ts", "*** Update File: src/b.ts\n*** Move to: src/a.ts\u3000"]) {
    assert.is(hook(box, { ...patch(`${header}\n@@\n-a\n+b`), cwd: box.project }, "codex").code, 2, JSON.stringify(header));
  }
});

Codex("should judge a patch after cd \"$VAR…\" as written in an unknown place too: Codex takes the directory's text without expanding it", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "claude-s1", "--purpose", "mine"]);
  // Codex runs this itself in the quoted text's literal part, the project; the shell would cd to $PWD followed by it.
  const body = "*** Begin Patch\n*** Update File: a.ts\n@@\n-a\n+b\n*** End Patch";
  for (const dir of [`"$PWD${box.project}/src"`, `"$HOME${box.project}/src"`]) {
    const result = hook(box, { session_id: "cx1", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: `cd ${dir} && apply_patch <<'PATCH'\n${body}\nPATCH` } }, "codex");
    assert.is(result.code, 2, dir);
    assert.match(result.stderr, /src\/a\.ts: held by claude-s1/);
  }
  const plain = hook(box, { session_id: "cx1", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: `cd src && apply_patch <<'PATCH'\n${body.replace("a.ts", "c.ts")}\nPATCH` } }, "codex");
  assert.is(plain.code, 0, "a literal directory: its own file alone is judged");
  mkdirSync(join(box.project, "lib"));
  const quoted = hook(box, { session_id: "cx1", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: `cd "${box.project}/lib" && apply_patch <<'PATCH'\n${body}\nPATCH` } }, "codex");
  assert.is(quoted.code, 0, `quotes alone are read alike: lib/a.ts, not any a.ts: ${quoted.stderr}`);
});

Codex("should say on stderr that a shell write after a cd it cannot follow was checked against every claim it could mean", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "claude-s1", "--purpose", "mine"]);
  const result = hook(box, { session_id: "cx1", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: 'cd "$(git rev-parse --show-toplevel)/src" && rm a.ts' } }, "codex");
  assert.is(result.code, 2);
  assert.match(result.stderr, /src\/a\.ts: held by claude-s1 for "mine" \(heartbeat \d+s ago\); it may be what the command writes/);
  assert.match(result.stderr, /"a\.ts" after a cd \(or pushd, popd\) whose directory cannot be known from the command's text/);
});

Codex("should claim every path of an allowed patch for the session", ({ box }) => {
  const body = "*** Add File: src/new.ts\n+x\n*** Delete File: src/old.ts";
  assert.is(hook(box, { ...patch(body), cwd: box.project }, "codex").code, 0);
  const holders = entries(box.dir).map((name) => [readJson(join(box.dir, name)).target, readJson(join(box.dir, name)).holder]);
  assert.equal(holders.sort(), [
    [join(box.project, "src", "new.ts"), "codex-cx1"],
    [join(box.project, "src", "old.ts"), "codex-cx1"],
  ]);
});

Codex("should read a patch run through the shell, as a string or an argument array", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "claude-s1", "--purpose", "mine"]);
  const text = "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** End Patch\nEOF\n";
  for (const command of [text, ["bash", "-lc", text], ["apply_patch", text.split("\n").slice(1, -2).join("\n")]]) {
    const result = hook(box, { session_id: "cx1", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } }, "codex");
    assert.is(result.code, 2, JSON.stringify(command));
    assert.match(result.stderr, /src\/a\.ts: held by claude-s1/);
  }
  const plain = hook(box, { session_id: "cx1", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: ["ls", "-la"] } }, "codex");
  assert.is(plain.code, 0);
});

Codex("should leave alone a shell command that only quotes patch headers, and claim only what it writes", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "claude-s1", "--purpose", "mine"]);
  for (const command of [
    ["rg", "-n", "*** Update File: src/a.ts", "docs"],
    "cat > test/fixture.txt <<'EOF'\n*** Begin Patch\n*** Update File: src/a.ts\n*** End Patch\nEOF\n",
    ["rg", "-n", "*** Update File: src/b.ts", "docs"],
  ]) {
    const result = hook(box, { session_id: "cx1", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } }, "codex");
    assert.is(result.code, 0, JSON.stringify(command));
  }
  const holders = entries(box.dir).map((name) => [readJson(join(box.dir, name)).target, readJson(join(box.dir, name)).holder]);
  assert.equal(holders.sort(), [[file, "claude-s1"], [join(box.project, "test", "fixture.txt"), "codex-cx1"]], "the searches took nothing; cat > took its file");
});

Codex("should deny a program that takes commands typed at a terminal, which Codex may give it, and judge it by its words in Claude Code", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "claude-s1", "--purpose", "mine"]);
  // Codex's exec_command can ask for a terminal and type into it later (write_stdin); its hook
  // payload does not say whether this call did.
  const shell = (command: string, agent: "codex" | "claude") => hook(box, { session_id: "cx2", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "t1" }, agent);
  const typed = ["tmux", "tmux new -s work", "tmux attach -d -t work", "tmux new -A -d -s work", "su", "sudo -s", "sudo -u dev -i", "chroot /", "screen", "screen -r work", "ssh localhost", "vim", "nano notes.txt", "less README", "lua", "sqlite3 app.db", "psql", "gdb ./a.out", "machinectl shell",
    // Debuggers and consoles of the interpreters the hook reads.
    "python3 -m pdb x.py", "python -m pdb x.py", "python3 -mipdb x.py", "python3 -m code", "python3 -m IPython", "pdb3 x.py", "perl -d x.pl", "perl -de1", "perl -wd x.pl", "node inspect x.js", "ruby -r debug x.rb", "rdbg x.rb", "byebug x.rb", "bun repl", "deno repl",
    // git's editor and prompts, and the other commands that run an editor (vi when none is named).
    "git commit", "git commit --amend", "git commit -m wip -e", "git commit --squash=HEAD", "git -C . commit -a", "git rebase -i HEAD~2", "git tag -a v1", "git notes add", "git revert HEAD", "git add -p", "git add -e", "git checkout -p", "git stash -p", "git mergetool", "git difftool", "git config -e", "git branch --edit-description", "git merge -e main",
    "crontab -e", "EDITOR=nano crontab -e", "visudo", "vipw", "sudoedit /etc/hosts", "sudo -e /etc/hosts", "kubectl edit deploy/web", "systemctl edit web",
    // Clients, terminal interfaces and consoles: what is typed at their prompt or keys may write here.
    "sftp host", "ftp host", "lftp host", "ncftp host", "smbclient //host/share", "lazygit", "tig", "git log | tig", "ncdu", "w3m https://example.com", "lynx https://example.com", "mutt",
    "pry", "pry -e 1", "rails console", "bin/rails c", "flask shell", "python3 manage.py shell", "php artisan tinker", "iex -S mix", "ghci x.hs", "octave", "gnuplot",
    // ssh's remote command reads this terminal: what is typed runs on a host that may be this one.
    "ssh host tmux", "ssh -t host vim", "ssh host bash", "ssh host python3", "ssh host 'sudo -i'"];
  for (const command of typed) {
    assert.is(shell(command, "codex").code, 2, `codex: ${command}`);
    assert.is(shell(command, "claude").stdout, "", `claude, with no terminal: ${command}`);
  }
  const given = ["tmux new -d -s work", "tmux ls", "sudo ls", "screen -dmS work", "ssh localhost ls", "vim --version", "psql -c 'select 1'", "echo 'select 1' | sqlite3 other.db", "lua -v", "gdb -batch -ex run ./a.out", "ex -s edit.txt <<'EOF'\n%s/a/b/\nwq\nEOF", "ls",
    // Not the interactive ones by name or flags: ast-grep's sg, MinIO's mc, a manual piped, a key checked.
    "sg run -p 'foo($A)'", "mc ls local/bucket", "man ls | head", "ssh -T git@github.com", "sudo -l", "tmux -V", "scala -version", "machinectl status", 'psql -d app <<< "select 1"',
    "python3 -m pdb x.py <<'EOF'\nc\nEOF", "python3 -m IPython x.py", "python3 -m black --check .", "perl -d:NYTProf x.pl", "perl -e 'print 1'", "node --inspect-brk x.js", "node inspect x.js <<'EOF'\ncont\nEOF", "ruby -r json x.rb", "rdbg --open x.rb", "deno run x.ts",
    'git commit -m "$(cat <<\'EOF\'\nwip\nEOF\n)"', "git commit -am wip", "git commit --amend --no-edit", "git commit --fixup=HEAD", "GIT_EDITOR=true git commit", "git -c core.editor=true commit", "GIT_SEQUENCE_EDITOR='sed -i s/^pick/fixup/' git rebase -i HEAD~2", "git tag -a v1 -m v1", "git notes add -m x", "git revert --no-edit HEAD", "printf 'y\\n' | git add -p", "git add .", "git status", "git log -p", "git merge main",
    "crontab -l", "EDITOR=true crontab -e", "visudo -c", "kubectl get pods", "systemctl status web",
    "sftp -b cmds host", "sftp host <<'EOF'\nls\nEOF", "lftp -c 'ls' host", "smbclient //host/share -c ls", "lazygit --version", "tig --version", "ncdu -o du.json", "w3m -dump https://example.com", "lynx -dump https://example.com", "mutt -s hi a@example.com < body.txt",
    "pry x.rb", "rails server", "flask run", "python3 manage.py shell -c 'print(1)'", "python3 manage.py shell <<'EOF'\nprint(1)\nEOF", "php artisan migrate", "iex --version", "ghci -e 1", "octave x.m", "gnuplot plot.gp",
    "ssh host 'tmux new -d -s x'", "ssh -n host bash", "ssh host bash < script.sh", "ssh host sqlite3 app.db < q.sql", "ssh host 'python3 x.py'"];
  // (x.m: an Octave script of the project's, last changed days ago, not one an agent may just have written.)
  writeFileSync(join(box.project, "x.m"), "disp(1)\n");
  const old = new Date(Date.now() - 3 * 24 * 3600 * 1000);
  utimesSync(join(box.project, "x.m"), old, old);
  for (const command of given) assert.is(shell(command, "codex").code, 0, `given what to do: ${command}`);
});

Codex("should say why a pager, an editor or a shell on a terminal is refused, and let less through in its secure mode set by the command", ({ box, file }) => {
  claims(["take", file, "--dir", box.dir, "--holder", "claude-s1", "--purpose", "mine"]);
  writeFileSync(join(box.project, "README.md"), "read me\n");
  const shell = (command: string) => hook(box, { session_id: "cx2", cwd: box.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "t1" }, "codex");
  for (const [command, program] of [["less README.md", "less"], ["vim", "vim"], ["cat README.md | less", "less"]]) {
    const refused = shell(command);
    assert.is(refused.code, 2, command);
    assert.match(refused.stderr, `The command starts ${program}, which takes commands typed at a terminal`, command);
    assert.match(refused.stderr, "LESSSECURE=1 less", command);
  }
  // Its keys that write (v, !, |, s) off; not where the shell's own value is unknown or something turns them back on.
  for (const command of ["LESSSECURE=1 less README.md", "LESSSECURE=1 less -R README.md && echo done"]) assert.is(shell(command).code, 0, command);
  for (const command of ["export LESSSECURE=1; less README.md", "LESSSECURE=1 LESSSECURE_ALLOW=edit less README.md", 'LESSSECURE="$S" less README.md', "LESSSECURE=0 less README.md"]) assert.is(shell(command).code, 2, command);
});

Codex.run();
