// The library's types are for any TypeScript project, including one without @types/node: its
// public declarations must not name Node's globals (NodeJS.ProcessEnv, Buffer, ...).
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ROOT, sandbox, type Sandbox } from "./helpers.js";

const Types = suite<{ box: Sandbox }>("the library's types");
Types.before.each((context) => {
  context.box = sandbox();
});
Types.after.each((context) => context.box.cleanup());

Types("should type-check in a project without @types/node", ({ box }) => {
  const app = join(box.root, "consumer");
  mkdirSync(join(app, "node_modules"), { recursive: true });
  symlinkSync(ROOT, join(app, "node_modules", "claims"));
  writeFileSync(join(app, "package.json"), '{ "type": "module" }\n');
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, types: [], noEmit: true, skipLibCheck: false }, files: ["use.ts"] }),
  );
  writeFileSync(
    join(app, "use.ts"),
    `import { beat, check, release, status, take, BadInputError } from "claims";
const options = { dir: "/tmp/nowhere", holder: "a", env: { CLAIMS_TTL: "600" } };
const taken: number = (await take({ ...options, targets: ["x"] })).granted.length;
const refused: number = check({ ...options, targets: ["x"] }).refused.length;
beat(options);
release({ ...options, targets: ["x"] });
const listed: number = status(options).claims.length;
export const all = [taken, refused, listed, BadInputError];
`,
  );
  const result = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", app], { encoding: "utf8" });
  assert.is(result.status, 0, result.stdout + result.stderr);
});

Types("should refuse options of the wrong type from a JavaScript caller before writing a claim no reader can parse", ({ box }) => {
  const result = runAttempts(
    box,
    "take, release, status",
    `await take({ targets: ["name:x"], holder: "a", dir });
await attempt("purpose", () => take({ targets: ["name:p"], holder: "a", dir, purpose: 5 }));
await attempt("now", () => take({ targets: ["name:n"], holder: "a", dir, now: "soon" }));
await attempt("targets", () => release({ targets: "name:x", holder: "a", dir }));
await attempt("env", () => take({ targets: ["name:e"], holder: "a", dir, env: "CLAIMS_TTL=60" }));
out.push("files: " + readdirSync(dir).filter((name) => name.endsWith(".json")).sort().join(" "));
out.push("held: " + status({ dir }).claims.map((claim) => claim.target).join(" "));
`,
  );
  assert.is(result.status, 0, result.stderr);
  assert.is(
    result.stdout,
    [
      "purpose: BadInputError take: purpose must be a string; got 5.",
      'now: BadInputError take: now must be a finite number; got "soon".',
      'targets: BadInputError release: targets must be a list of strings, e.g. ["shared-config"]; got "name:x".',
      'env: BadInputError take: env must be an object of variables and their string values, e.g. { CLAIMS_HOLDER: "session-a" }; got "CLAIMS_TTL=60".',
      "files: x.json",
      "held: x",
      "",
    ].join("\n"),
  );
});

Types("should refuse a call missing an option its verb cannot go without, or a hook call of the wrong types, with BadInputError", ({ box }) => {
  const result = runAttempts(
    box,
    "check, handover, hook, take",
    `await attempt("take", () => take({ holder: "a", dir }));
await attempt("take()", () => take());
await attempt("check", () => check({ holder: "a", dir }));
await attempt("handover", () => handover({ holder: "a", dir }));
await attempt("hook", () => hook({ agent: "claude", dir }));
await attempt("hook agent", () => hook({ agent: 5, input: "{}", dir }));
await attempt("hook input", () => hook({ agent: "claude", input: 5, dir }));
await attempt("ttl", () => take({ targets: ["name:x"], holder: "a", dir, ttl: 600n }));
`,
  );
  assert.is(result.status, 0, result.stderr);
  assert.is(
    result.stdout,
    [
      'take: BadInputError take: targets is required: a list of strings, e.g. ["shared-config"].',
      'take(): BadInputError take: the options must be an object, e.g. { holder: "session-a" }; got undefined.',
      'check: BadInputError check: targets is required: a list of strings, e.g. ["shared-config"].',
      "handover: BadInputError handover: target is required: a string.",
      "hook: BadInputError hook: input is required: a string.",
      'hook agent: BadInputError hook: agent must be "claude" or "codex"; got 5.',
      "hook input: BadInputError hook: input must be a string; got 5.",
      "ttl: BadInputError take: ttl must be whole seconds, as a number or a string of digits; got 600n.",
      "",
    ].join("\n"),
  );
});

/**
 * Runs `body` as a JavaScript caller of the built library (the named exports, BadInputError and
 * node:fs's readdirSync), with `dir` (the sandbox's claims directory), `out` and `attempt(label, call)`, which notes each
 * call's outcome in `out`; prints `out`, a line each.
 */
function runAttempts(box: Sandbox, names: string, body: string) {
  const script = join(box.root, "use.mjs");
  writeFileSync(
    script,
    `import { readdirSync } from "node:fs";
import { ${names}, BadInputError } from ${JSON.stringify(join(ROOT, "dist", "index.js"))};
const dir = ${JSON.stringify(box.dir)};
const out = [];
const attempt = async (label, call) => {
  try {
    await call();
    out.push(label + ": ok");
  } catch (error) {
    out.push(label + ": " + (error instanceof BadInputError ? "BadInputError " : "other ") + error.message);
  }
};
${body}console.log(out.join("\\n"));
`,
  );
  return spawnSync(process.execPath, [script], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: box.root } });
}

Types.run();
