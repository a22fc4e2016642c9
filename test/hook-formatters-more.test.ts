// More formatters, fixers and minifiers an agent runs (shell-formatters-more.ts), and bun build's
// outputs, git clang-format, perltidy's long in-place flag, manifests' and version managers'
// writers, jj, Graphite, git-town and filter-repo, and coverage, reports, packages and renderings:
// read by the Claude hook from a shell command as the files they rewrite or write. Another session
// holds u.ts; session s2 runs them.
import { execFileSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const More = suite<Context>("claims hook: more formatters, fixers and minifiers");
More.before.each((context) => {
  context.box = heldBox();
});
More.after.each((context) => context.box.cleanup());

More("should read each as the files it rewrites, or its output option's, and a check or a print as no write", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    // C and C++.
    ["astyle --style=allman src/c.c", ["src/c.c"]],
    ["astyle --dry-run src/c.c", []],
    ["uncrustify -c cfg --replace --no-backup src/c.c", ["src/c.c"]],
    ["uncrustify -c cfg -f src/c.c -o out.c", ["out.c"]],
    ["tidy -m page.html", ["page.html"]],
    ["tidy -q page.html", []],
    ["tidy -o out.html page.html", ["out.html"]],
    // JavaScript.
    ["npx js-beautify -r src/a.js", ["src/a.js"]],
    ["js-beautify src/a.js -o b.js", ["b.js"]],
    ["npx svgo logo.svg", ["logo.svg"]],
    ["npx svgo logo.svg -o min.svg", ["min.svg"]],
    ["svgo -f icons", ["glob:icons/**"]],
    ["npx doctoc README.md", ["README.md"]],
    ["npx doctoc --dryrun README.md", []],
    ["npx markdown-toc -i README.md", ["README.md"]],
    ["npx markdown-toc README.md", []],
    ["npx terser src/b.js -c -m -o src/a.js", ["src/a.js"]],
    ["npx terser src/b.js -c", []],
    ["uglifyjs src/b.js --output src/a.js", ["src/a.js"]],
    ["npx csso in.css -o out.css", ["out.css"]],
    ["npx ncc build src/index.ts -o out", ["glob:out/**"]],
    ["npx ncc build src/index.ts", ["glob:dist/**"]],
    ["npx tslint --fix src/a.ts", ["src/a.ts"]],
    ["npx textlint --fix docs/a.md", ["docs/a.md"]],
    ["eslint_d --fix src/a.ts", ["src/a.ts"]],
    ["npx lebab --replace src/", ["src"]],
    ["bun build src/b.ts --outfile src/a.ts", ["src/a.ts"]],
    ["bun build src/b.ts --outdir=dist", ["glob:dist/**"]],
    ["bun build src/b.ts", []],
    // Python.
    ["pycln src", ["src"]],
    ["uvx pycln --check src", []],
    ["unimport --remove src/a.py", ["src/a.py"]],
    ["unimport --check src/a.py", []],
    ["flynt src/a.py", ["src/a.py"]],
    ["add-trailing-comma src/a.py", ["src/a.py"]],
    ["reorder-python-imports src/a.py", ["src/a.py"]],
    ["pyproject-fmt pyproject.toml", ["pyproject.toml"]],
    ["pyproject-fmt --check pyproject.toml", []],
    ["toml-sort -i a.toml", ["a.toml"]],
    ["usort format src", ["src"]],
    ["ufmt format src/a.py", ["src/a.py"]],
    ["darker src", ["src"]],
    ["darker --check src", []],
    ["pyink src/a.py", ["src/a.py"]],
    ["blue --check src/a.py", []],
    // Go, SQL, C#, Nix, Ruby, PHP.
    ["golines -w src/a.go", ["src/a.go"]],
    ["golines src/a.go", []],
    ["gopls format -w src/a.go", ["src/a.go"]],
    ["gopls format src/a.go", []],
    ["sqlfluff fix models/a.sql", ["models/a.sql"]],
    ["sqlfluff lint models/a.sql", []],
    ["pg_format -i q.sql", ["q.sql"]],
    ["npx sql-formatter --fix q.sql", ["q.sql"]],
    ["sqlfmt models", ["models"]],
    ["csharpier format src", ["src"]],
    ["csharpier .", ["."]],
    ["csharpier check .", []],
    ["csharpier --check .", []],
    ["alejandra .", ["."]],
    ["nixfmt --check a.nix", []],
    ["nixfmt a.nix", ["a.nix"]],
    ["rufo app.rb", ["app.rb"]],
    ["stree write app.rb", ["app.rb"]],
    ["stree check app.rb", []],
    ["erb_lint -a app.erb", ["app.erb"]],
    ["vendor/bin/rector process src", ["src"]],
    ["vendor/bin/rector process --dry-run src", []],
    ["vendor/bin/rector src", ["src"]], // process is its default command
    ["vendor/bin/rector list", []],
    ["tidy -f errors.txt page.html", ["errors.txt"]],
    ["semgrep --config p.yml --json-output=report.json src", ["report.json"]],
    ["latexindent -o=out.tex a.tex", ["out.tex"]],
    // Other languages.
    ["ocamlformat -i a.ml", ["a.ml"]],
    ["stylish-haskell -i A.hs", ["A.hs"]],
    ["purs-tidy format-in-place src", ["src"]],
    ["erlfmt -w a.erl", ["a.erl"]],
    ["gleam format", ["."]],
    ["gleam format --check", []],
    ["cljfmt fix src", ["src"]],
    ["lua-format -i a.lua", ["a.lua"]],
    ["latexindent -w a.tex", ["a.tex"]],
    ["djlint --reformat templates", ["templates"]],
    ["djlint --lint templates", []],
    ["yamlfmt a.yaml", ["a.yaml"]],
    ["yamlfmt -dry a.yaml", []],
    // Search and replace across files.
    ["semgrep --config p.yml --autofix src", ["src"]],
    ["semgrep --config p.yml src", []],
    ["fastmod foo bar src", ["src"]],
    ["ruplacer foo bar src --go", ["src"]],
    ["ruplacer foo bar src", []],
    ["perltidy --backup-and-modify-in-place a.pl", ["a.pl"]],
    // Image optimizers: in place, or their output option's file.
    ["optipng img/a.png", ["img/a.png"]],
    ["optipng -out b.png a.png", ["b.png"]],
    ["oxipng -o 4 a.png", ["a.png"]],
    ["oxipng --out b.png a.png", ["b.png"]],
    ["jpegoptim a.jpg", ["a.jpg"]],
    ["gifsicle -b a.gif", ["a.gif"]],
    ["gifsicle a.gif -o b.gif", ["b.gif"]],
    ["pngquant --force --ext .png a.png", ["a.png"]],
    ["pngquant a.png", ["a-fs8.png"]],
    ["cwebp a.png -o a.webp", ["a.webp"]],
    ["exiftool -Comment=x a.png", ["a.png", "a.png_original"]],
    ["exiftool -overwrite_original -all= a.jpg", ["a.jpg"]],
    ["exiftool a.png", []],
  ];
  // (`.` is the project itself.)
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected.map((path) => (path === "." ? box.project : path)).sort(), command);
});

More("should refuse the agent such a command on a file another session holds, and let prose naming them by", ({ box }) => {
  file(box, "src/b.js", "export const b = 1;\n");
  denies(box, ["npx terser src/b.js -o u.ts", "npx svgo u.ts", "pycln u.ts", "astyle u.ts", "npx js-beautify -r u.ts", "bun build src/b.js --outfile u.ts", "fastmod foo bar ."]);
  allows(box, ["npx terser src/b.js -o out.js", "git commit --allow-empty -m 'tidy the blue terser output'", "pycln --check u.ts"]);
});

More("should read git clang-format as the changed files of the work tree, or those after --, and --diff as no write", async ({ box }) => {
  execFileSync("git", ["init", "-q"], { cwd: box.project });
  assert.equal(await writes(box, "git clang-format"), ["glob:**"]);
  assert.equal(await writes(box, "git clang-format HEAD~1 -- src/c.c"), ["src/c.c"]);
  assert.equal(await writes(box, "git clang-format --diff"), []);
});

More("should read manifests' and version managers' writers as the files they pin, and jj, Graphite, git-town and filter-repo as the work tree", async ({ box }) => {
  file(box, "package.json", '{ "name": "p" }\n');
  file(box, "composer.json", "{}\n");
  const cases: Array<[string, string[]]> = [
    ["volta pin node@20", ["package.json"]],
    ["npx fixpack", ["package.json"]],
    ["npx prettier-package-json --write", ["package.json"]],
    ["npx prettier-package-json", []],
    ["npx @manypkg/cli fix", ["glob:**"]],
    ["yarn constraints --fix", ["glob:**"]],
    ["yarn constraints", []],
    ["npm set-script lint eslint", ["package.json"]],
    ["composer normalize", ["composer.json", "composer.lock"]],
    ["composer normalize --dry-run", []],
    ["composer normalize --diff", ["composer.json", "composer.lock"]], // shows the diff, and writes
    ["pyenv local 3.12", [".python-version"]],
    ["pyenv local", []],
    ["rbenv local 3.3.0", [".ruby-version"]],
    ["nodenv local 20", [".node-version"]],
    ["asdf set nodejs 20.1.0", [".tool-versions"]],
    ["asdf local nodejs 20.1.0", [".tool-versions"]],
    ["uv python pin 3.12", [".python-version"]],
    ["uv python pin", []],
    ["uv python pin --rm", [".python-version"]],
    ["jj new main", ["glob:**"]],
    ["jj restore src/a.ts", ["glob:**"]],
    ["jj log", []],
    ["jj op restore abc", ["glob:**"]],
    ["jj workspace update-stale", ["glob:**"]],
    // What only records, names, pushes or lists writes no file of the work tree.
    ...["jj op log", "jj bookmark create f", "jj workspace list", "jj git push", "jj git fetch", "jj describe -m x", "jj commit -m x"].map((command): [string, string[]] => [command, []]),
    ["gt checkout main", ["glob:**"]],
    ["gt log", []],
    ...["gt submit", "gt track", "gt rename x", "gt create -m x", "gt modify"].map((command): [string, string[]] => [command, []]),
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  execFileSync("git", ["init", "-q"], { cwd: box.project });
  assert.equal(await writes(box, "git filter-repo --path src"), ["glob:**"]);
  assert.equal(await writes(box, "git filter-repo --analyze"), []);
  assert.equal(await writes(box, "git town sync"), ["glob:**"]);
  assert.equal(await writes(box, "git town status"), []);
  denies(box, ["jj new main", "git town sync", "npx @manypkg/cli fix"]);
});

More("should read coverage, reports, packages and renderings where their options or defaults put them", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["go test -coverprofile=out/c.txt ./...", ["out/c.txt"]],
    ["go test ./... -cpuprofile cpu.prof", ["cpu.prof"]],
    ["go test -c -o out/a.test ./pkg", ["out/a.test"]],
    ["go test -outputdir out -memprofile mem.out .", ["out/mem.out"]],
    ["go test ./...", []],
    ["coverage run -m pytest", [".coverage"]],
    ["coverage xml -o out/a.xml", ["out/a.xml"]],
    ["coverage html", ["glob:htmlcov/**"]],
    ["coverage report", []],
    ["npx c8 node t.mjs", ["glob:coverage/**"]],
    ["npx c8 --report-dir out node t.mjs", ["glob:out/**"]],
    ["npx nyc mocha", ["glob:.nyc_output/**", "glob:coverage/**"]],
    ["lcov -c -d . -o out/a.info", ["out/a.info"]],
    ["genhtml -o out a.info", ["glob:out/**"]],
    ["flake8 --output-file=out/a.txt src", ["out/a.txt"]],
    ["pylint --output=out/a.txt src", ["out/a.txt"]],
    ["mypy --junit-xml out/a.xml src", ["out/a.xml"]],
    ["mypy src", []],
    ["dot -Tpng d.dot -o out/a.png", ["out/a.png"]],
    ["dot -Tpng -O d.dot", ["glob:d.dot.*"]],
    ["sphinx-apidoc -o docs/api mypkg", ["glob:docs/api/**"]],
    ["pg_restore -f out/a.sql dump.bin", ["out/a.sql"]],
    ["npm pack", ["glob:*.tgz"]],
    ["npm pack --pack-destination out", ["glob:out/*.tgz"]],
    ["npm pack --dry-run", []],
    ["pip wheel . -w out", ["glob:out/**"]],
    ["pip download -d out x", ["glob:out/**"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  denies(box, ["go test -coverprofile=u.ts ./...", "flake8 --output-file=u.ts src", "dot -Tsvg g.dot -o u.ts", "pg_restore -f u.ts dump.bin"]);
});

More.run();
