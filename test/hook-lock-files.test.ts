// Lock files and manifests, read by the Claude hook from a shell command: the package managers and
// version pinners beyond npm, pnpm, yarn, bun, cargo and go mod (corepack, yarn set version, npm
// shrinkwrap, deno, nix flakes, helm, pipenv, pdm, go work, expo install, uv and poetry export).
// Another session holds u.ts and, in each test, the lock file; session s2 runs the command.
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Locks = suite<Context>("claims hook: lock files and manifests a shell command rewrites");
Locks.before.each((context) => {
  context.box = heldBox();
});
Locks.after.each((context) => context.box.cleanup());

/** What `command` writes, run from `dir` of the project. */
const at = (box: Sandbox, dir: string, command: string) => writes(box, `cd ${dir} && ${command}`);

/** Another session takes each of `paths` (of the project). */
function held(box: Sandbox, paths: string[]): void {
  for (const path of paths) claims(["take", join(box.project, path), "--dir", box.dir, "--holder", "other", "--purpose", "bumping deps"]);
}

/** The hook's answer to each command: `expected` ("deny", or undefined for an allow). */
function answers(box: Sandbox, commands: string[], expected: "deny" | undefined): void {
  for (const command of commands) assert.is(bash(box, command), expected, command);
}

Locks("should read corepack use and up as the manifest and the named manager's install, enable as its shims, pack -o as the tarball", async ({ box }) => {
  file(box, "js/package.json", '{"packageManager":"pnpm@9.0.0"}\n');
  file(box, "yj/package.json", "{}\n");
  const cases: Array<[string, string, string[]]> = [
    ["js", "corepack use pnpm@9", ["glob:js/node_modules/**", "js/package.json", "js/pnpm-lock.yaml"]],
    ["yj", "corepack use yarn@4.1.0", ["glob:yj/node_modules/**", "yj/.pnp.cjs", "yj/.pnp.loader.mjs", "yj/package.json", "yj/yarn.lock"]],
    ["js", "corepack up", ["glob:js/node_modules/**", "js/package.json", "js/pnpm-lock.yaml"]], // the manager packageManager names
    ["js", "corepack enable --install-directory bin", ["js/bin/pnpm", "js/bin/pnpx", "js/bin/yarn", "js/bin/yarnpkg"]],
    ["js", "corepack enable npm --install-directory=bin", ["js/bin/npm", "js/bin/npx"]],
    ["js", "corepack enable", []], // the shims go beside corepack itself, outside the project
    ["js", "corepack pack -o", ["js/corepack.tgz"]],
    ["js", "corepack prepare pnpm@9 --output=dist/pm.tgz", ["js/dist/pm.tgz"]],
    ["js", "corepack prepare pnpm@9 --activate", []], // corepack's cache
    ["js", "corepack install", []], // corepack's cache
    ["js", "corepack use --help", []],
    ["js", "corepack pnpm add x", ["glob:js/node_modules/**", "js/package.json", "js/pnpm-lock.yaml"]], // still a package manager run through it
    ["yj", "yarn set version 4.1.0", ["glob:yj/.yarn/releases/**", "yj/.yarnrc.yml", "yj/package.json"]],
    ["yj", "yarn set version --help", []],
    ["yj", "yarn policies set-version 1.22.22", ["glob:yj/.yarn/releases/**", "yj/.yarnrc"]],
  ];
  for (const [dir, command, expected] of cases) assert.equal(await at(box, dir, command), expected, command);
  held(box, ["js/package.json", "yj/.yarnrc.yml"]);
  answers(box, ["cd js && corepack use pnpm@9", "cd js && corepack up", "cd yj && yarn set version stable", "cd yj && npx yarn set version 4.1.0"], "deny");
  answers(box, ["cd js && corepack enable", "cd js && corepack install", "cd yj && yarn set version --help"], undefined);
});

Locks("should read npm shrinkwrap as both of npm's lock files", async ({ box }) => {
  file(box, "js/package.json", "{}\n");
  assert.equal(await at(box, "js", "npm shrinkwrap"), ["js/npm-shrinkwrap.json", "js/package-lock.json"]);
  assert.equal(await at(box, "js", "npm shrinkwrap --help"), []);
  held(box, ["js/npm-shrinkwrap.json"]);
  answers(box, ["cd js && npm shrinkwrap"], "deny");
  answers(box, ["cd js && npm ls"], undefined);
});

Locks("should read deno add, remove, install, cache and outdated --update as the config, deno.lock and node_modules where one is used", async ({ box }) => {
  file(box, "dn/deno.json", '{"imports":{}}\n');
  file(box, "dn/src/main.ts", "");
  file(box, "dp/package.json", "{}\n");
  file(box, "bare/main.ts", "");
  file(box, "dc/deno.jsonc", '{ "nodeModulesDir": "auto" }\n');
  const cases: Array<[string, string, string[]]> = [
    ["dn", "deno add jsr:@std/path", ["dn/deno.json", "dn/deno.lock"]],
    ["dn/src", "deno remove @std/path", ["dn/deno.json", "dn/deno.lock"]],
    ["dn", "deno install", ["dn/deno.lock"]],
    ["dn", "deno install --entrypoint src/main.ts", ["dn/deno.lock"]],
    ["dn", "deno cache src/main.ts", ["dn/deno.lock"]],
    ["dn", "deno cache --lock=locks/x.lock --lock-write src/main.ts", ["dn/locks/x.lock"]], // Deno 1's form
    ["dn", "deno outdated --update", ["dn/deno.json", "dn/deno.lock"]],
    ["dn", "deno outdated", []],
    ["dn", "deno cache --no-lock src/main.ts", []],
    ["dn", "deno install --frozen", []], // a lock file out of date is an error, not a rewrite; nor is node_modules used here
    ["dn", "deno install -g -n serve jsr:@std/http/file-server", []], // the machine's, not the project's
    ["dn", "deno add --help", []],
    ["bare", "deno cache main.ts", []], // no configuration: no lock file
    ["bare", "deno cache --lock=deno.lock main.ts", ["bare/deno.lock"]],
    ["dp", "deno add npm:chalk", ["dp/deno.lock", "dp/package.json", "glob:dp/node_modules/**"]],
    ["dp", "deno install", ["dp/deno.lock", "glob:dp/node_modules/**"]],
    ["dc", "deno add jsr:@std/path", ["dc/deno.jsonc", "dc/deno.lock", "glob:dc/node_modules/**"]],
    ["dn", "deno add -c ../dc/deno.jsonc jsr:@std/path", ["dc/deno.jsonc", "dc/deno.lock", "glob:dc/node_modules/**"]],
  ];
  for (const [dir, command, expected] of cases) assert.equal(await at(box, dir, command), expected, command);
  held(box, ["dn/deno.lock", "dp/package.json"]);
  answers(box, ["cd dn && deno add jsr:@std/path", "cd dn && deno install", "cd dn && deno cache src/main.ts", "cd dp && deno add npm:chalk"], "deny");
  answers(box, ["cd dn && deno cache --no-lock src/main.ts", "cd dn && deno outdated", "cd dn && deno fmt --check"], undefined);
});

Locks("should read deno run, serve, test, bench, check and compile (and deno x.ts) as deno.lock where there is a configuration, and compile's executable", async ({ box }) => {
  file(box, "dn/deno.json", '{"imports":{}}\n');
  file(box, "dn/src/main.ts", "");
  file(box, "dn/tool/main.ts", "");
  file(box, "dp/package.json", "{}\n");
  file(box, "dp/main.ts", "");
  file(box, "da/deno.json", '{ "nodeModulesDir": "auto" }\n');
  file(box, "da/main.ts", "");
  file(box, "off/deno.json", '{ "lock": false }\n');
  file(box, "off/main.ts", "");
  file(box, "fz/deno.jsonc", '{ "lock": { "frozen": true } }\n');
  file(box, "fz/main.ts", "");
  file(box, "moved/deno.json", '{ "lock": { "path": "locks/deps.lock" } }\n');
  file(box, "moved/main.ts", "");
  file(box, "bare/main.ts", "");
  const cases: Array<[string, string, string[]]> = [
    ["dn", "deno run src/main.ts", ["dn/deno.lock"]], // Deno 2 writes it by default
    ["dn/src", "deno run -A --config ../deno.json main.ts", ["dn/deno.lock"]],
    ["dn", "deno src/main.ts", ["dn/deno.lock"]], // runs it, as deno run
    ["dn", "deno serve --port 8000 src/main.ts", ["dn/deno.lock"]],
    ["dn", "deno test", ["dn/deno.lock"]],
    ["dn", "deno test --coverage=cov --junit-path=report.xml src", ["dn/deno.lock", "dn/report.xml", "glob:dn/cov/**"]],
    ["dn", "deno bench src/main.ts", ["dn/deno.lock"]],
    ["dn", "deno check src/main.ts", ["dn/deno.lock"]],
    ["dn", "deno compile -o bin/app src/main.ts", ["dn/bin/app", "dn/deno.lock"]],
    ["dn/src", "deno compile -A ../tool/main.ts", ["dn/deno.lock", "dn/src/tool"]], // named after its directory, as deno names a main.ts
    ["dn", "deno run --lock=locks/run.lock src/main.ts", ["dn/locks/run.lock"]],
    ["dn", "deno install --frozen=false", ["dn/deno.lock"]], // frozen turned off: it updates the lock file
    ["dn", "deno run src/main.ts --no-lock", ["dn/deno.lock"]], // after the program: the program's argument
    ["dp", "deno run main.ts", ["dp/deno.lock"]], // a package.json is a configuration too; node_modules only as installed
    ["da", "deno run main.ts", ["da/deno.lock", "glob:da/node_modules/**"]], // nodeModulesDir "auto": a run installs there
    ["moved", "deno run main.ts", ["moved/locks/deps.lock"]],
    ["dn", "deno run --no-lock src/main.ts", []],
    ["dn", "deno run --frozen src/main.ts", []], // a lock file out of date is an error
    ["dn", "deno test --frozen=true", []],
    ["off", "deno run main.ts", []], // "lock": false
    ["fz", "deno run main.ts", []], // frozen in its configuration
    ["fz", "deno add jsr:@std/path", []],
    ["bare", "deno run main.ts", []], // no configuration: no lock file
    ["bare", "deno compile main.ts", ["bare/main"]],
    ["dn", "deno run --help", []],
    ["dn", "deno lint src", []],
  ];
  for (const [dir, command, expected] of cases) assert.equal(await at(box, dir, command), expected, command);
  held(box, ["dn/deno.lock", "dp/deno.lock", "da/node_modules/x/index.js"]);
  answers(box, ["cd dn && deno run src/main.ts", "cd dn && deno run -A src/main.ts --port 8000", "cd dn && deno test -A", "cd dn && deno check src/main.ts", "cd dn && deno bench", "cd dn && deno compile src/main.ts", "cd dn && deno src/main.ts", "cd dn/src && deno serve main.ts", "cd dp && deno run main.ts", "cd dn && deno install --frozen=false"], "deny");
  answers(box, ["cd dn && deno run --no-lock src/main.ts", "cd dn && deno run --frozen src/main.ts", "cd dn && deno run --lock=other.lock src/main.ts", "cd off && deno run main.ts", "cd bare && deno run main.ts", "cd dn && deno fmt --check", "cd da && deno run --node-modules-dir=none --no-lock main.ts"], undefined);
});

Locks("should read nix flake update and lock as the flake's flake.lock", async ({ box }) => {
  file(box, "nx/flake.nix", "{ outputs = _: {}; }\n");
  file(box, "nx/sub/x.nix", "{}\n");
  const cases: Array<[string, string, string[]]> = [
    ["nx", "nix flake update", ["nx/flake.lock"]],
    ["nx/sub", "nix flake lock", ["nx/flake.lock"]], // the flake.nix from there up
    ["nx", "nix flake update nixpkgs", ["nx/flake.lock"]], // an input's name
    [".", "nix flake update --flake ./nx", ["nx/flake.lock"]],
    [".", "nix flake lock path:./nx", ["nx/flake.lock"]],
    [".", "nix --extra-experimental-features 'nix-command flakes' flake lock ./nx --update-input nixpkgs", ["nx/flake.lock"]],
    ["nx", "nix flake lock --output-lock-file other.lock", ["nx/other.lock"]],
    ["nx", "nix flake lock github:NixOS/nixpkgs", []], // a flake elsewhere
    ["nx", "nix flake lock --no-write-lock-file", []],
    ["nx", "nix flake metadata", []],
    ["nx", "nix flake update --help", []],
  ];
  for (const [dir, command, expected] of cases) assert.equal(await at(box, dir, command), expected, command);
  held(box, ["nx/flake.lock"]);
  answers(box, ["cd nx && nix flake update", "nix flake lock ./nx"], "deny");
  answers(box, ["cd nx && nix flake show", "cd nx && nix build"], undefined);
});

Locks("should read nix flake init and new as any file under the directory the template fills", async ({ box }) => {
  file(box, "nx/notes.md", "# nx\n");
  const cases: Array<[string, string, string[]]> = [
    ["nx", "nix flake init", ["glob:nx/**"]],
    ["nx", "nix flake init -t templates#rust", ["glob:nx/**"]],
    [".", "nix flake new fresh", ["glob:fresh/**"]],
    [".", "nix flake new -t github:nix-community/templates#go ./fresh", ["glob:fresh/**"]],
    [".", "nix --extra-experimental-features 'nix-command flakes' flake new --template templates#python fresh", ["glob:fresh/**"]],
    ["nx", "nix flake init --help", []],
    ["nx", "nix flake show", []],
  ];
  for (const [dir, command, expected] of cases) assert.equal(await at(box, dir, command), expected, command);
  answers(box, ["nix flake init", "nix flake init -t templates#rust", "nix flake new ."], "deny");
  answers(box, ["nix flake new fresh", "cd nx && nix flake init", "nix flake init --help"], undefined);
});

Locks("should read helm dependency update and build as the chart's lock file and charts/", async ({ box }) => {
  file(box, "ch/Chart.yaml", "apiVersion: v2\nname: ch\n");
  file(box, "built/Chart.yaml", "apiVersion: v2\nname: built\n");
  file(box, "built/Chart.lock", "dependencies: []\n");
  file(box, "v1/Chart.yaml", "apiVersion: v1\nname: v1\n");
  file(box, "v1/requirements.yaml", "dependencies: []\n");
  const cases: Array<[string, string, string[]]> = [
    [".", "helm dependency update ch", ["ch/Chart.lock", "glob:ch/charts/**"]],
    ["ch", "helm dep up", ["ch/Chart.lock", "glob:ch/charts/**"]],
    [".", "helm dependencies update --skip-refresh ./ch", ["ch/Chart.lock", "glob:ch/charts/**"]],
    [".", "helm -n apps dependency build built", ["glob:built/charts/**"]], // from its lock file
    [".", "helm dependency build ch", ["ch/Chart.lock", "glob:ch/charts/**"]], // none yet: as update
    [".", "helm dependency update v1", ["glob:v1/charts/**", "v1/requirements.lock"]],
    [".", "helm dependency list ch", []],
    [".", "helm dependency update --help", []],
    [".", "helm dependency update -h", []],
  ];
  for (const [dir, command, expected] of cases) assert.equal(await at(box, dir, command), expected, command);
  held(box, ["ch/Chart.lock"]);
  answers(box, ["helm dependency update ch", "cd ch && helm dep up"], "deny");
  answers(box, ["helm dependency list ch", "helm template ch"], undefined);
});

Locks("should read pipenv's and pdm's commands as their lock file, and the manifest for those that change it", async ({ box }) => {
  file(box, "pe/Pipfile", "[packages]\n");
  file(box, "pe/src/app.py", "");
  file(box, "pd/pyproject.toml", "[project]\n");
  const cases: Array<[string, string, string[]]> = [
    ["pe", "pipenv lock", ["pe/Pipfile.lock"]],
    ["pe/src", "pipenv install requests", ["pe/Pipfile", "pe/Pipfile.lock"]],
    ["pe", "pipenv install", ["pe/Pipfile.lock"]],
    ["pe", "pipenv update", ["pe/Pipfile.lock"]],
    ["pe", "pipenv uninstall requests", ["pe/Pipfile", "pe/Pipfile.lock"]],
    ["pe", "pipenv install --deploy", []], // installs what the lock file says
    ["pe", "pipenv sync", []],
    ["pe", "pipenv update --outdated", []],
    ["pe", "pipenv lock --help", []],
    ["pd", "pdm lock", ["pd/pdm.lock"]],
    ["pd", "pdm add requests", ["pd/pdm.lock", "pd/pyproject.toml"]],
    ["pd", "pdm update", ["pd/pdm.lock"]],
    ["pd", "pdm remove requests", ["pd/pdm.lock", "pd/pyproject.toml"]],
    ["pd", "pdm install", ["pd/pdm.lock"]],
    [".", "pdm lock -p pd -L pd/py38.lock", ["pd/py38.lock"]],
    ["pd", "pdm lock --check", []],
    ["pd", "pdm add --dry-run requests", []],
    ["pd", "pdm install --frozen-lockfile", []],
    ["pd", "pdm sync", []],
  ];
  for (const [dir, command, expected] of cases) assert.equal(await at(box, dir, command), expected, command);
  held(box, ["pe/Pipfile.lock", "pd/pdm.lock"]);
  answers(box, ["cd pe && pipenv lock", "cd pe && pipenv install requests", "cd pd && pdm lock", "cd pd && pdm add requests"], "deny");
  answers(box, ["cd pe && pipenv sync", "cd pe && pipenv run pytest", "cd pd && pdm lock --check", "cd pd && pdm sync"], undefined);
});

Locks("should read go work sync, use, init, edit and vendor as go.work and the modules it uses", async ({ box }) => {
  file(box, "gw/go.work", "go 1.22\n\nuse (\n\t./a\n\t./b // the API\n)\n");
  file(box, "gw/a/go.mod", "module example.com/a\n");
  file(box, "gw/b/go.mod", "module example.com/b\n");
  file(box, "gw/c/go.mod", "module example.com/c\n");
  const cases: Array<[string, string, string[]]> = [
    ["gw", "go work sync", ["gw/a/go.mod", "gw/a/go.sum", "gw/b/go.mod", "gw/b/go.sum", "gw/go.work", "gw/go.work.sum"]],
    ["gw/a", "go work use ../c", ["gw/go.work"]],
    ["gw", "go work edit -use ./c", ["gw/go.work"]],
    ["gw", "go work edit -json", []],
    ["gw/c", "go work init .", ["gw/c/go.work"]],
    ["gw", "go work vendor", ["glob:gw/vendor/**"]],
    [".", "go -C gw work sync", ["gw/a/go.mod", "gw/a/go.sum", "gw/b/go.mod", "gw/b/go.sum", "gw/go.work", "gw/go.work.sum"]],
    ["gw", "go work sync --help", []],
  ];
  for (const [dir, command, expected] of cases) assert.equal(await at(box, dir, command), expected, command);
  held(box, ["gw/go.work", "gw/b/go.mod"]);
  answers(box, ["cd gw && go work sync", "cd gw/c && go work use ."], "deny");
  answers(box, ["cd gw && go work edit -json", "cd gw && go list ./..."], undefined);
});

Locks("should read expo install as the manifest, the lock file of the project's manager and node_modules", async ({ box }) => {
  file(box, "app/package.json", "{}\n");
  file(box, "app/yarn.lock", "");
  file(box, "np/package.json", "{}\n");
  const cases: Array<[string, string, string[]]> = [
    ["app", "npx expo install expo-camera", ["app/.pnp.cjs", "app/.pnp.loader.mjs", "app/package.json", "app/yarn.lock", "glob:app/node_modules/**"]],
    ["app", "expo install --fix", ["app/.pnp.cjs", "app/.pnp.loader.mjs", "app/package.json", "app/yarn.lock", "glob:app/node_modules/**"]],
    ["np", "npx expo@latest install react-native-svg", ["glob:np/node_modules/**", "np/npm-shrinkwrap.json", "np/package-lock.json", "np/package.json"]],
    ["app", "npx expo install --check", []],
    ["app", "npx expo start", []],
  ];
  for (const [dir, command, expected] of cases) assert.equal(await at(box, dir, command), expected, command);
  held(box, ["app/yarn.lock"]);
  answers(box, ["cd app && npx expo install expo-camera", "cd app && yarn expo install --fix"], "deny");
  answers(box, ["cd app && npx expo install --check", "cd app && npx expo start"], undefined);
});

Locks("should read uv export and poetry export as the file -o names (and uv.lock, which uv export relocks)", async ({ box }) => {
  file(box, "py/pyproject.toml", "[project]\n");
  const cases: Array<[string, string, string[]]> = [
    ["py", "uv export -o requirements.txt", ["py/requirements.txt", "py/uv.lock"]],
    ["py", "uv export --frozen --output-file=req/dev.txt", ["py/req/dev.txt"]],
    [".", "uv --directory py export --frozen -o requirements.txt", ["py/requirements.txt"]],
    ["py", "uv export --locked", []], // prints
    ["py", "poetry export -f requirements.txt -o requirements.txt", ["py/requirements.txt"]],
    ["py", "poetry export --output=constraints.txt --without-hashes", ["py/constraints.txt"]],
    [".", "poetry -C py export -o requirements.txt", ["py/requirements.txt"]], // relative to --directory
    ["py", "poetry export", []], // prints
    ["py", "poetry export --help -o requirements.txt", []],
  ];
  for (const [dir, command, expected] of cases) assert.equal(await at(box, dir, command), expected, command);
  held(box, ["py/requirements.txt"]);
  answers(box, ["cd py && uv export --frozen -o requirements.txt", "cd py && poetry export -o requirements.txt"], "deny");
  answers(box, ["cd py && uv export --frozen -o dev.txt", "cd py && poetry export"], undefined);
});

Locks("should read helm package as the chart's archive, and with -u its dependencies as helm dependency update writes them", async ({ box }) => {
  file(box, "ch/Chart.yaml", "apiVersion: v2\nname: web\nversion: 0.1.0\n");
  const cases: Array<[string, string, string[]]> = [
    [".", "helm package ch", ["glob:web-*.tgz"]], // name-version.tgz, here
    [".", "helm package ch -d dist", ["glob:dist/web-*.tgz"]],
    [".", "helm package --destination=dist ch", ["glob:dist/web-*.tgz"]],
    [".", "helm package -u ch", ["ch/Chart.lock", "glob:ch/charts/**", "glob:web-*.tgz"]],
    ["ch", "helm package --dependency-update --version 1.2.3 .", ["ch/Chart.lock", "ch/web-1.2.3.tgz", "glob:ch/charts/**"]],
    [".", "helm package other", ["glob:*.tgz"]], // no Chart.yaml to name it
    [".", "helm package -u --help", []],
    [".", "helm package -u -h ch", []],
  ];
  for (const [dir, command, expected] of cases) assert.equal(await at(box, dir, command), expected, command);
  held(box, ["ch/Chart.lock"]);
  answers(box, ["helm package -u ch", "cd ch && helm package --dependency-update ."], "deny");
  answers(box, ["helm package ch", "helm package ch -d dist", "helm package -u --help", "helm package -uh ch"], undefined);
});

Locks.run();
