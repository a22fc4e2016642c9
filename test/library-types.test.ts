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

Types.run();
