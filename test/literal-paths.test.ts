// Names with glob characters (Next.js `app/[id]`, `app/(group)`), and a path against the glob
// `path/**`, through the real CLI and the Claude Code hook: one file, one holder.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, iso, sandbox, writeClaimFile, type Sandbox } from "./helpers.js";
import { claimFileName } from "../src/targets/target.js";

const Routes = suite<{ box: Sandbox; run: (args: string[]) => ReturnType<typeof claims> }>("directories and files named with glob characters");
Routes.before.each((context) => {
  const box = sandbox();
  context.box = box;
  mkdirSync(join(box.project, "app", "[id]"), { recursive: true });
  mkdirSync(join(box.project, "app", "(group)"), { recursive: true });
  writeFileSync(join(box.project, "app", "[id]", "page.tsx"), "export default function Page() {\n  return null;\n}\nexport function helper() {}\n");
  writeFileSync(join(box.project, "app", "(group)", "layout.tsx"), "");
  context.run = (args) => claims([...args, "--dir", box.dir], { cwd: box.project });
});
Routes.after.each((context) => context.box.cleanup());

Routes("should refuse another holder a file inside app/[id] claimed without the slash", ({ run }) => {
  const taken = run(["take", "app/[id]", "--holder", "a", "--json"]);
  assert.is(taken.code, 0, taken.stderr);
  assert.is(JSON.parse(taken.stdout).granted[0].kind, "directory");
  assert.is(run(["check", "app/[id]/page.tsx", "--holder", "b"]).code, 3);
  assert.is(run(["take", "app/[id]/page.tsx", "--holder", "b"]).code, 3);
  assert.is(run(["take", "app/[id]/page.tsx#Page", "--holder", "b"]).code, 3);
  assert.is(run(["check", "app/[id]/page.tsx", "--holder", "a"]).code, 0);
});

Routes("should refuse another holder a file inside app/(group)", ({ run }) => {
  assert.is(run(["take", "app/(group)", "--holder", "a"]).code, 0);
  assert.is(run(["check", "app/(group)/layout.tsx", "--holder", "b"]).code, 3);
});

Routes("should read app/(group)/** as the files in the directory (group), existing or not, and app/[id]/*.tsx as those in app/[id]", ({ box, run }) => {
  const group = run(["take", "app/(group)/**", "--holder", "a", "--json"]);
  assert.is(group.code, 0, group.stderr);
  assert.is(JSON.parse(group.stdout).granted[0].target, `${box.project}/app/\\(group\\)/**`);
  assert.is(run(["take", "app/(group)/layout.tsx", "--holder", "b"]).code, 3);
  assert.is(run(["check", "app/(group)/layout.tsx", "--holder", "b"]).code, 3);
  assert.is(run(["take", "app/(group)/layout.tsx#Layout", "--holder", "b"]).code, 2, "no such symbol, but never granted");
  assert.is(run(["take", "app/group/layout.tsx", "--holder", "b"]).code, 0, "a directory named group is another");
  // Not created yet: a parenthesised name without | is a route group all the same.
  assert.is(run(["take", "app/(auth)/*.tsx", "--holder", "a"]).code, 0);
  assert.is(run(["take", "app/(auth)/login/../page.tsx", "--holder", "b"]).code, 3);
  assert.is(run(["check", "app/(auth)/page.tsx", "--holder", "b"]).code, 3);
  // A leading segment naming an existing directory is that directory, not a class of characters.
  mkdirSync(join(box.project, "app", "i"));
  const id = run(["take", "app/[id]/*.tsx", "--holder", "c", "--json"]);
  assert.is(id.code, 0, id.stderr);
  assert.is(JSON.parse(id.stdout).granted[0].target, `${box.project}/app/\\[id\\]/*.tsx`);
  assert.is(run(["check", "app/[id]/page.tsx", "--holder", "d"]).code, 3);
  assert.is(run(["take", "app/i/page.tsx", "--holder", "d"]).code, 0);
  // Extglobs and groups with alternatives stay patterns.
  const alternatives = run(["take", "lib/@(a|b)/*.ts", "--holder", "e", "--json"]);
  assert.is(JSON.parse(alternatives.stdout).granted[0].target, `${box.project}/lib/@(a|b)/*.ts`);
  assert.is(run(["take", "lib/a/x.ts", "--holder", "f"]).code, 3);
});

Routes("should refuse globs whose pattern matches across a / or is an alternative of the whole pattern, and leave the claims as they were", ({ box, run }) => {
  mkdirSync(join(box.project, "x", "y"), { recursive: true });
  assert.is(run(["take", "x/", "--holder", "a"]).code, 0);
  const onDisk = () => readdirSync(box.dir).map((name) => [name, readFileSync(join(box.dir, name), "utf8")]);
  const before = onDisk();
  for (const [glob, why] of [
    ["x[/]y/*.ts", /has a \[ \] that can match a \//],
    ["glob:x[.-0]y/*.ts", /has a \[ \] that can match a \//],
    ["glob:x[[:punct:]]y/*.ts", /has a \[ \] that can match a \//],
    ["glob:x[\\x2f]y/*.ts", /has a \[ \] that can match a \//],
    ["glob:*/x\\/y/*.ts", /has an escaped \//],
    ["@(x/y)/z.ts", /has a \/ inside \( \)/],
    ["x/+(y/w|v)/*.ts", /has a \/ inside \( \)/],
    ["x/y|z/*.ts", /has a \| outside parentheses/],
    ["*.md|x/y/*.ts", /has a \| outside parentheses/],
  ] as const) {
    const refused = run(["take", glob, "--holder", "b"]);
    assert.is(refused.code, 2, glob);
    assert.match(refused.stderr, why);
    assert.match(refused.stderr, /write the alternatives in braces/);
    assert.not.match(refused.stderr, /\n\s+at /, "no stack");
  }
  // Three stars, also after glob: (which reads the text as picomatch does): picomatch then matches across a /.
  const stars = run(["take", "glob:x/***/y.ts", "--holder", "b"]);
  assert.is(stars.code, 2, stars.stdout);
  assert.match(stars.stderr, /has three stars or more in a row, which picomatch reads as one \* while reading each \. after as any character, a \/ included; write \*\* to reach into subdirectories, or \* for one\./);
  assert.equal(onDisk(), before, "nothing written, nothing lost");
  assert.is(run(["take", "{x/y,z}/*.ts", "--holder", "b"]).code, 3, "the braces spelling meets x/");
  // Such a claim written by a script (take refuses to make one) stands for its base directory.
  assert.is(run(["release", "x/", "--holder", "a"]).code, 0);
  const now = iso(Date.now());
  for (const [glob, other] of [[`${box.project}/x[/]y/*.ts`, "x/"], [`${box.project}/lib/a|/elsewhere/*.ts`, "/elsewhere/b.ts"]] as const) {
    writeClaimFile(box.dir, claimFileName(glob), { target: glob, holder: "script", purpose: "by hand", taken_at: now, heartbeat_at: now });
    assert.is(run(["take", other, "--holder", "b"]).code, 3, `${glob} against ${other}`);
    assert.is(run(["check", other === "x/" ? "x/y/z.ts" : other, "--holder", "b"]).code, 3, `${glob} against a write`);
  }
});

Routes("should claim a symbol of a file in app/[id], and refuse a take of the whole file", ({ run }) => {
  const symbol = run(["take", "app/[id]/page.tsx#helper", "--holder", "a", "--json"]);
  assert.is(symbol.code, 0, symbol.stderr);
  assert.is(JSON.parse(symbol.stdout).granted[0].kind, "symbol");
  assert.is(run(["take", "app/[id]/page.tsx", "--holder", "b"]).code, 3);
  assert.is(run(["take", "app/[id]", "--holder", "b"]).code, 3);
});

Routes("should explain a glob ending in / that names no directory, and accept the escaped directory", ({ run }) => {
  const refused = run(["take", "app/[slug]/", "--holder", "a"]);
  assert.is(refused.code, 2);
  assert.match(refused.stderr, /glob ending in \/ and no such directory exists/);
  assert.is(run(["take", "app/\\[slug\\]/", "--holder", "a"]).code, 0);
  assert.is(run(["take", "app/\\[slug\\]/page.tsx", "--holder", "b"]).code, 3);
});

Routes("should refuse P/** to another holder of the path P, and of a file F or F#symbol", ({ box, run }) => {
  assert.is(run(["take", "./newpkg", "--holder", "a"]).code, 0);
  assert.is(run(["take", "newpkg/**", "--holder", "b"]).code, 3);
  writeFileSync(join(box.project, "F.ts"), "export const x = 1;\n");
  assert.is(run(["take", "F.ts#x", "--holder", "a"]).code, 0);
  assert.is(run(["take", "F.ts/**", "--holder", "b"]).code, 3);
  assert.is(run(["take", "glob:app/[id]", "--holder", "c"]).code, 0, "glob: still claims the pattern");
});

Routes("should deny a second session's hook write to a new file under app/[new] the first session wrote", ({ box }) => {
  mkdirSync(join(box.project, "app", "[new]"));
  const file = join(box.project, "app", "[new]", "page.tsx");
  const write = (session: string) =>
    spawnSync(process.execPath, [BIN, "hook", "claude"], {
      input: JSON.stringify({
        session_id: session,
        transcript_path: "/tmp/t.jsonl",
        cwd: box.project,
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: { file_path: file, content: "x" },
      }),
      env: cleanEnv({ CLAIMS_DIR: box.dir }),
      encoding: "utf8",
    });
  const first = write("s1");
  assert.is(first.status, 0);
  assert.is(first.stdout, "");
  const second = write("s2");
  assert.match(JSON.parse(second.stdout).hookSpecificOutput.permissionDecision, /deny/);
  const status = claims(["status", "--json", "--dir", box.dir], { cwd: box.project });
  assert.is(JSON.parse(status.stdout).claims[0].target, `${box.project}/app/\\[new\\]/page.tsx`);
});

Routes.run();
