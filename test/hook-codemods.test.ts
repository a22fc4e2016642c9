// Codemods and project tools, read by the Claude hook from a shell command: ast-grep -U, jscodeshift,
// comby -i and knip --fix rewrite the project's sources in place; husky and changesets write files of
// their own into it. Another session holds u.ts; session s2 runs the command.
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Codemods = suite<Context>("claims hook: codemods and project tools a shell command runs");
Codemods.before.each((context) => {
  context.box = heldBox();
  file(context.box, "package.json", "{}\n");
  file(context.box, "src/a.ts", "export const a = 1;\n");
});
Codemods.after.each((context) => context.box.cleanup());

/** What each command writes, relative to the project (its root: "."). */
async function expectWrites(box: Sandbox, cases: Array<[string, string[]]>): Promise<void> {
  for (const [command, expected] of cases) assert.equal((await writes(box, command)).map((path) => (path === box.project ? "." : path)), expected, command);
}

/** The hook's answer to each command: `expected` ("deny", or undefined for an allow). */
function answers(box: Sandbox, commands: string[], expected: "deny" | undefined): void {
  for (const command of commands) assert.is(bash(box, command), expected, command);
}

Codemods("should read ast-grep -U, jscodeshift and comby -i as the files they rewrite, and their searches and dry runs as writing nothing", async ({ box }) => {
  await expectWrites(box, [
    ["ast-grep run -p 'foo($A)' -r 'bar($A)' -U src", ["src"]],
    ["ast-grep -p 'foo($A)' -r 'bar($A)' --update-all", ["."]], // run is its default command; no path: where it runs
    ["sg scan -U", ["."]],
    ["sg scan -r rules/no-foo.yml --update-all src/a.ts", ["src/a.ts"]],
    ["npx ast-grep scan -i src", ["src"]],
    ["ast-grep run -p 'foo($A)' -r 'bar($A)' src", []], // prints the rewrite
    ["sg scan --json=stream src", []],
    ["ast-grep run -U --help", []],
    ["jscodeshift -t codemod.js src", ["src"]],
    ["npx jscodeshift -t codemod.js u.ts src/a.ts", ["src/a.ts", "u.ts"]],
    ["jscodeshift -t codemod.js 'src/**/*.ts'", ["glob:src/**/*.ts"]],
    ["jscodeshift --stdin -t codemod.js <<'EOF'\nsrc/a.ts\nEOF", ["src/a.ts"]],
    ["find src -name '*.ts' | jscodeshift --stdin -t codemod.js", ["unknown:."]],
    ["jscodeshift -d -t codemod.js src", []],
    ["jscodeshift --dry --print -t codemod.js src", []],
    ["jscodeshift --help", []],
    ["comby 'foo(:[x])' 'bar(:[x])' .ts -i", ["glob:**/*.ts"]],
    ["comby 'foo(:[x])' 'bar(:[x])' -in-place", ["glob:**"]],
    ["comby 'foo(:[x])' 'bar(:[x])' .ts -d src -i", ["glob:src/**/*.ts"]],
    ["comby 'foo(:[x])' 'bar(:[x])' u.ts -i", ["glob:**/u.ts"]], // each file whose path ends so
    ["comby -templates rules -i .ts", ["glob:**/*.ts"]],
    ["comby 'foo(:[x])' 'bar(:[x])' .ts", []], // prints a diff
    ["comby 'foo(:[x])' 'bar(:[x])' .ts -i -stdin", []],
  ]);
  answers(box, ["ast-grep -p 'foo($A)' -r 'bar($A)' -U u.ts", "sg scan -U", "npx jscodeshift -t codemod.js u.ts", "comby 'a' 'b' .ts -i"], "deny");
  answers(box, ["ast-grep run -p 'foo($A)' u.ts", "sg scan -U src", "jscodeshift --dry -t codemod.js u.ts", "comby 'a' 'b' .ts", "comby 'a' 'b' .go -i"], undefined);
});

Codemods("should read ast-grep new as any file under the project its sgconfig.yml roots, else where it runs", async ({ box }) => {
  file(box, "lint/sgconfig.yml", "ruleDirs:\n  - rules\n");
  file(box, "lint/src/x.ts", "export const x = 1;\n");
  await expectWrites(box, [
    ["ast-grep new", ["glob:**"]], // a project scaffolded where it runs
    ["ast-grep new rule no-foo -l ts -y", ["glob:**"]],
    ["cd lint/src && sg new rule no-foo --lang ts --yes", ["glob:lint/**"]], // its rule, test and util directories
    ["ast-grep new test no-foo -c lint/sgconfig.yml", ["glob:lint/**"]],
    ["ast-grep new --help", []],
    ["ast-grep new rule -h", []],
  ]);
  answers(box, ["ast-grep new rule no-foo -l ts -y", "sg new util is-foo -l ts", "npx ast-grep new project"], "deny");
  answers(box, ["cd lint && ast-grep new rule no-foo -l ts -y", "ast-grep new --help"], undefined);
});

Codemods("should read knip --fix as anything under the project, and --fix-type dependencies as its manifests", async ({ box }) => {
  await expectWrites(box, [
    ["knip --fix", ["glob:**"]],
    ["npx knip --fix --allow-remove-files", ["glob:**"]],
    ["knip --fix-type exports,types", ["glob:**"]],
    ["knip --directory src --fix", ["glob:src/**"]],
    ["knip --fix-type dependencies", ["glob:**/package.json", "pnpm-workspace.yaml"]],
    ["knip", []],
    ["knip --production", []],
    ["knip --fix --help", []],
  ]);
  answers(box, ["npx knip --fix", "pnpm knip --fix-type exports"], "deny");
  answers(box, ["npx knip", "knip --fix-type dependencies"], undefined);
});

Codemods("should read husky's init and install as its directory (and package.json), and changeset version as the packages' manifests and changelogs", async ({ box }) => {
  file(box, ".changeset/config.json", "{}\n");
  file(box, "packages/a/package.json", '{"name":"a","version":"1.0.0"}\n');
  await expectWrites(box, [
    ["npx husky init", ["glob:.husky/**", "package.json"]],
    ["husky", ["glob:.husky/_/**"]],
    ["husky install", ["glob:.husky/_/**"]], // v8's
    ["husky install .config/husky", ["glob:.config/husky/_/**"]],
    ["husky add .husky/pre-commit 'npm test'", [".husky/pre-commit"]],
    ["husky uninstall", []],
    ["npx changeset version", ["glob:**/CHANGELOG.md", "glob:**/package.json", "glob:.changeset/**"]],
    ["cd packages/a && changeset version", ["glob:**/CHANGELOG.md", "glob:**/package.json", "glob:.changeset/**"]], // from the root
    ["changeset", ["glob:.changeset/**"]], // add, its default
    ["changeset add --empty", ["glob:.changeset/**"]],
    ["changeset pre enter next", ["glob:.changeset/**"]],
    ["changeset status --output=status.json", ["status.json"]],
    ["changeset status", []],
    ["changeset publish", []],
    ["changeset version --help", []],
  ]);
  claims(["take", join(box.project, "packages/a/package.json"), "--dir", box.dir, "--holder", "other", "--purpose", "release"]);
  claims(["take", join(box.project, ".husky/pre-commit"), "--dir", box.dir, "--holder", "other", "--purpose", "hooks"]);
  answers(box, ["npx changeset version", "pnpm changeset version", "npx husky init"], "deny");
  answers(box, ["npx changeset status", "npx husky", "changeset publish"], undefined);
});

Codemods.run();
