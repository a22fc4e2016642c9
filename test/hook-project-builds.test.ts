// Python packages' builds (python -m build, uv, poetry, hatch, pdm, flit, pyinstaller, maturin,
// setup.py), Flask-Migrate, Django's `manage.py shell -c`, Laravel's artisan and Symfony's
// bin/console, pretty-quick, TypeORM's TypeScript entry points, more code generators, JavaScript
// runners other than node and tsx (zx, vite-node, jiti, babel-node…), and a package's command run
// by its file in node_modules: read by the Claude hook from a shell command as the files they
// write. Another session holds u.ts; session s2 runs them.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Builds = suite<Context>("claims hook: package builds, framework consoles, JavaScript runners");
Builds.before.each((context) => {
  context.box = heldBox();
});
Builds.after.each((context) => context.box.cleanup());

/** What building a Python package in the project writes, with its archives in `out`. */
const built = (out = "dist") => [`glob:${out}/**`, "glob:*.egg-info/**", "glob:build/**", "glob:src/*.egg-info/**"];

Builds("should read Python packages' builds as their archives' directory, build/ and *.egg-info, and their help as no write", async ({ box }) => {
  file(box, "pyproject.toml", '[project]\nname = "p"\n');
  file(box, "sub/pyproject.toml", '[project]\nname = "sub"\n');
  const cases: Array<[string, string[]]> = [
    ["python -m build", built()],
    ["python3 -m build --wheel -o wheels .", built("wheels")],
    ["pyproject-build --sdist", built()],
    ["uv build", built()],
    ["uv build --out-dir wheels", built("wheels")],
    ["uv build --help", []],
    ["poetry build", built()],
    ["poetry build --output out", built("out")],
    ["hatch build", built()],
    ["pdm build -d out", built("out")],
    ["flit build", built()],
    ["pyinstaller app.py", ["glob:*.spec", "glob:build/**", "glob:dist/**"]],
    ["pyinstaller app.spec --distpath bin", ["glob:bin/**", "glob:build/**"]],
    ["maturin build -o wheels", ["glob:wheels/**"]],
    ["maturin develop", ["glob:**"]],
    ["flask db migrate -m 'add users'", ["glob:**"]],
    ["flask db history", []],
    ["npx pretty-quick --staged", ["glob:**"]],
    ["npx pretty-quick --check", []],
    ["pdm -p sub build", ["glob:sub/*.egg-info/**", "glob:sub/build/**", "glob:sub/dist/**", "glob:sub/src/*.egg-info/**"]],
    ["uv --directory sub build", ["glob:sub/*.egg-info/**", "glob:sub/build/**", "glob:sub/dist/**", "glob:sub/src/*.egg-info/**"]],
    ["python3 -m PyInstaller app.py", ["glob:*.spec", "glob:build/**", "glob:dist/**"]],
    ["hatch new 'My Proj'", ["glob:My Proj/**", "glob:my-proj/**"]],
    ["hatch new --init", ["pyproject.toml"]],
    ["flask db upgrade --sql", []],
    ["npx relay-compiler --validate", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
});

Builds("should read setup.py's commands, manage.py shell's code and a framework console's commands as what they write", async ({ box }) => {
  file(box, "lib/setup.py", "from setuptools import setup\nsetup(name='lib')\n");
  file(box, "site/manage.py", "import sys\n");
  file(box, "app/artisan", '#!/usr/bin/env php\n<?php\nrequire __DIR__."/vendor/autoload.php";\n', 0o755);
  file(box, "shop/bin/console", "#!/usr/bin/env php\n<?php\n", 0o755);
  const cases: Array<[string, string[]]> = [
    ["python lib/setup.py build_ext --inplace", ["glob:lib/**"]],
    ["cd lib && python3 setup.py sdist bdist_wheel", ["glob:lib/**"]],
    ["python lib/setup.py --version", []],
    ["cd site && python manage.py shell -c \"open('notes.txt', 'w').write('x')\"", ["site/notes.txt"]],
    ["python site/manage.py shell --command=\"import os; os.remove('old.txt')\"", ["site/old.txt"]],
    ["cd app && php artisan make:model Post -mcr", ["glob:app/**"]],
    ["app/artisan key:generate", ["glob:app/**"]],
    ["cd shop && php bin/console make:entity Product", ["glob:shop/**"]],
    ["cd shop && php bin/console debug:router", []],
    ["cd app && php artisan --env testing route:list", []],
    ["cd app && php artisan tinker --execute=\"unlink('x');\"", ["unknown:."]],
  ];
  // (artisan's `require __DIR__."/vendor/autoload.php"` is read as a path it may write: left as it is.)
  for (const [command, expected] of cases) assert.equal((await writes(box, command)).filter((path) => path !== "/vendor/autoload.php"), [...expected].sort(), command);
  assert.equal(await writes(box, "cd app && php artisan route:list"), ["/vendor/autoload.php"], "artisan route:list");
});

Builds("should read a program file run by zx, vite-node, jiti, babel-node, swc-node or ts-node-esm as node reads it", async ({ box }) => {
  file(box, "scripts/gen.mjs", "import { writeFileSync } from 'node:fs';\nwriteFileSync('gen/out.json', '{}');\n");
  file(box, "scripts/gen.ts", "import { writeFileSync } from 'node:fs';\nwriteFileSync('gen/out.json', '{}');\n");
  file(box, "scripts/clean.mjs", "await $`rm -f notes.txt`;\n");
  for (const command of ["npx zx scripts/gen.mjs", "zx --quiet scripts/gen.mjs", "npx vite-node scripts/gen.ts", "npx jiti scripts/gen.ts", "npx babel-node scripts/gen.mjs", "swc-node scripts/gen.ts", "npx ts-node-esm scripts/gen.ts", "esno scripts/gen.ts"]) {
    assert.equal(await writes(box, command), ["gen/out.json"], command);
  }
  assert.equal(await writes(box, "zx scripts/clean.mjs"), ["notes.txt"]);
  // Their own options that take a value are not the program: vite-node's -c, babel-node's -x and --presets.
  for (const command of ["npx vite-node -c vite.config.ts scripts/gen.ts", "npx babel-node -x .ts,.js scripts/gen.mjs", "npx babel-node --presets @babel/preset-env scripts/gen.mjs"]) {
    assert.equal(await writes(box, command), ["gen/out.json"], command);
  }
  assert.equal(await writes(box, "zx --cwd sub scripts/gen.mjs"), ["unknown:."], "run from another directory");
});

Builds("should read the script payload run and sanity exec run, and a Composer bin file run by php, as their commands", async ({ box }) => {
  file(box, "scripts/seed.ts", "import { writeFileSync } from 'node:fs';\nwriteFileSync('seeded.json', '{}');\n");
  file(box, "vendor/bin/phpunit", "<?php\n");
  for (const command of ["npx payload run scripts/seed.ts", "npx sanity exec scripts/seed.ts --with-user-token"]) assert.equal(await writes(box, command), ["seeded.json"], command);
  // (hardhat run writes anything in a project without a config of its own: its script is read the same way, past that.)
  assert.equal(await writes(box, "php vendor/bin/phpunit --log-junit junit.xml"), ["junit.xml"]);
});

Builds("should read a package's command run by its file in node_modules as that command", async ({ box }) => {
  file(box, "tsconfig.json", '{ "compilerOptions": { "outDir": "out" } }\n');
  for (const bin of [".bin/tsc", "typescript/bin/tsc", "typescript/lib/tsc.js", "esbuild/bin/esbuild"]) file(box, `node_modules/${bin}`, "require('./x');\n");
  for (const command of ["node ./node_modules/.bin/tsc", "node node_modules/typescript/bin/tsc", "node node_modules/typescript/lib/tsc.js -p ."]) {
    assert.equal(await writes(box, command), ["glob:*.tsbuildinfo", "glob:out/**"], command);
  }
  assert.equal(await writes(box, "node node_modules/esbuild/bin/esbuild src/index.ts --outfile=dist/a.js"), ["dist/a.css", "dist/a.js", "dist/a.js.map"]);
  // A file deeper in its package, by its package's name (a scoped one by the command it installs).
  file(box, "package.json", "{}\n");
  for (const bin of ["vite/bin/vite.js", "@angular/cli/bin/ng.js", "rimraf/dist/esm/bin.mjs"]) file(box, `node_modules/${bin}`, "x\n");
  assert.equal(await writes(box, "node node_modules/vite/bin/vite.js build"), ["glob:dist/**"]);
  assert.equal(await writes(box, "node node_modules/@angular/cli/bin/ng.js generate component x"), ["glob:**"]);
  assert.equal(await writes(box, "node node_modules/rimraf/dist/esm/bin.mjs old.txt"), ["old.txt"]);
});

Builds("should read more code generators as anything under the project, and their help as no write", async ({ box }) => {
  file(box, "package.json", "{}\n");
  for (const command of ["npx swagger-typescript-api -p api.yaml -o src/api", "npx kubb generate", "npx @kubb/cli generate", "npx relay-compiler", "npx next-sitemap", "npx payload generate:types", "npx sanity typegen generate", "npx apollo client:codegen --target typescript", "npx tsoa spec-and-routes", "npx typechain --target ethers-v6 --out-dir types 'abi/*.json'", "npx node-pg-migrate create add_users", "npx db-migrate create add-users"]) {
    assert.equal(await writes(box, command), ["glob:**"], command);
  }
  assert.equal(await writes(box, "swagger-codegen generate -i api.yaml -l typescript-fetch -o gen"), ["glob:gen/**"]);
  assert.equal(await writes(box, "npx kubb --help"), []);
  assert.equal(await writes(box, "npx node-pg-migrate up"), []);
});

Builds("should refuse the agent such a command where another session holds a file, and let its read-only forms by", ({ box }) => {
  file(box, "pyproject.toml", '[project]\nname = "p"\n');
  file(box, "artisan", "#!/usr/bin/env php\n<?php\n", 0o755);
  file(box, "setup.py", "from setuptools import setup\nsetup(name='p')\n");
  file(box, "scripts/gen.mjs", "import { writeFileSync } from 'node:fs';\nwriteFileSync('u.ts', '');\n");
  denies(box, ["php artisan make:controller UserController", "python setup.py build_ext --inplace", "npx zx scripts/gen.mjs", "npx pretty-quick --staged", "maturin develop"]);
  allows(box, ["php artisan route:list", "python setup.py --version", "python -m build", "uv build", "flask db history"]);
});

Builds.run();
