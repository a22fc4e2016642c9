// Recipes the docs give for other programs to run, run here as those programs would.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, ROOT, sandbox, type Sandbox } from "./helpers.js";

const Recipes = suite<{ box: Sandbox }>("the recipes in README.md and docs/HOOKS.md");
Recipes.before.each((context) => {
  context.box = sandbox();
});
Recipes.after.each((context) => context.box.cleanup());

/** The command of every crontab line (after the five schedule fields) in a doc's ```crontab blocks. */
function cronCommands(doc: string): string[] {
  const text = readFileSync(join(ROOT, doc), "utf8");
  return [...text.matchAll(/```crontab\n([\s\S]*?)```/g)].flatMap((block) =>
    (block[1] as string)
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.startsWith("#"))
      .map((line) => line.trim().split(/\s+/).slice(5).join(" ")),
  );
}

Recipes("should give cron lines that run under cron's minimal PATH, once their absolute paths are this machine's", ({ box }) => {
  const home = join(box.root, "home");
  mkdirSync(home);
  for (const doc of ["README.md", "docs/HOOKS.md"]) {
    const commands = cronCommands(doc);
    assert.ok(commands.length > 0, `${doc} has a crontab line`);
    for (const command of commands) {
      const [node, script] = command.split(" ");
      assert.ok(node?.startsWith("/") && script?.startsWith("/"), `${doc}: ${command} names node and claims by absolute paths`);
      const local = command.replace(node as string, process.execPath).replace(script as string, BIN);
      // As cron runs it: sh -c, PATH=/usr/bin:/bin, HOME and little else.
      const run = spawnSync("/bin/sh", ["-c", local], { env: { PATH: "/usr/bin:/bin", HOME: home, SHELL: "/bin/sh" }, encoding: "utf8" });
      assert.is(run.status, 0, `${doc}: ${local}: ${run.stderr}`);
    }
  }
});

Recipes("should say the library is ESM only, and be loaded from CommonJS as it says: import() works, require() does not", ({ box }) => {
  assert.match(readFileSync(join(ROOT, "README.md"), "utf8"), /ESM only[\s\S]*await import\("claims"\)/);
  const app = join(box.root, "consumer");
  mkdirSync(join(app, "node_modules"), { recursive: true });
  symlinkSync(ROOT, join(app, "node_modules", "claims"));
  const script = (name: string, text: string) => {
    writeFileSync(join(app, name), text);
    return spawnSync(process.execPath, [join(app, name)], { cwd: app, env: { PATH: process.env.PATH, HOME: box.root }, encoding: "utf8" });
  };
  const dynamic = script("dynamic.cjs", `import("claims").then(async ({ take }) => {
  const result = await take({ dir: ${JSON.stringify(box.dir)}, holder: "cjs", targets: ["x"] });
  console.log(result.granted.length);
});
`);
  assert.is(dynamic.status, 0, dynamic.stderr);
  assert.is(dynamic.stdout.trim(), "1");
  const required = script("required.cjs", `require("claims");\n`);
  assert.is.not(required.status, 0);
  assert.match(required.stderr, /ERR_PACKAGE_PATH_NOT_EXPORTED|ERR_REQUIRE_ESM/);
});

Recipes("should say how long npm test takes, how many files it runs, and where the large torture went", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const said = /runs the whole test suite[^.]*: about [\d,]+ tests\s+in about (\d+) files,[^.]*in \d+ to \d+ minutes/.exec(readme);
  assert.ok(said, "the README says how many tests, in how many files, and how long");
  // The files npm test runs (scripts/test.mjs: test/**/*.test.ts), within a tenth of what it says.
  const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith(".test.ts") ? [entry.name] : []));
  const count = files(join(ROOT, "test")).length;
  assert.ok(Math.abs(count - Number(said[1])) <= count / 10, `the README says about ${said[1]} files; npm test runs ${count}`);
  assert.match(readme, /`npm run torture` runs the large randomized\s+one apart/);
  const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;
  assert.match(scripts.torture, /TORTURE_WORKERS=16 TORTURE_OPS=500 TORTURE_SEEDS=20/);
  assert.match(scripts.test, /node scripts\/test\.mjs$/);
});

Recipes.run();
