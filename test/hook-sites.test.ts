// Site and documentation builders, helm and kustomize, meson and bazel, dvc, databases' dumps and
// files, svn and hg (shell-site-rules.ts): read by the Claude hook from a shell command as what
// they write. Another session holds u.ts; session s2 runs them.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Sites = suite<Context>("claims hook: site builders, infrastructure renderers, databases' files, svn and hg");
Sites.before.each((context) => {
  context.box = heldBox();
});
Sites.after.each((context) => context.box.cleanup());

Sites("should read each as its output directory or file, its working copy, and its listings as no write", async ({ box }) => {
  for (const name of ["hugo.toml", "MODULE.bazel", "meson.build", ".svn/wc.db", ".hg/requires"]) file(box, name, "\n");
  const cases: Array<[string, string[]]> = [
    ["hugo --minify", [".hugo_build.lock", "glob:public/**", "glob:resources/**"]],
    ["hugo -d out", [".hugo_build.lock", "glob:out/**", "glob:resources/**"]],
    ["hugo server", []],
    ["jekyll build", ["glob:.jekyll-cache/**", "glob:_site/**"]],
    ["npx eleventy --output=dist", ["glob:dist/**"]],
    ["npx docusaurus build", ["glob:.docusaurus/**", "glob:build/**"]],
    ["npx vitepress build docs", ["glob:docs/.vitepress/**"]],
    ["mdbook build", ["glob:book/**"]],
    ["zola build", ["glob:public/**"]],
    ["helm template rel ./chart --output-dir out", ["glob:out/**"]],
    ["helm create mychart", ["glob:mychart/**"]],
    ["helm pull repo/x --untar -d charts", ["glob:charts/**"]],
    ["kustomize build overlays/prod -o out.yaml", ["out.yaml"]],
    ["kustomize build overlays/prod", []],
    ["meson setup builddir", ["glob:builddir/**"]],
    ["meson compile -C builddir", ["glob:builddir/**"]],
    ["meson configure builddir", []],
    ["bazel build //...", ["glob:bazel-*"]],
    ["bazel run //:gazelle", ["glob:**"]],
    ["dvc pull", ["glob:**"]],
    ["mongodump --out backup", ["glob:backup/**"]],
    ["mongodump", ["glob:dump/**"]],
    ["mongoexport --db d --collection c --out c.json", ["c.json"]],
    ["redis-cli --rdb dump.rdb", ["dump.rdb"]],
    ["duckdb data.db -c 'select 1'", ["data.db"]],
    ["duckdb -readonly data.db", []],
    [`duckdb data.db -c "copy t to 'out.csv'"`, ["data.db", "unknown:."]],
    ["svn update", ["glob:**"]],
    ["svn checkout https://svn.example.com/repo/trunk proj", ["glob:proj/**"]],
    ["svn log", []],
    ["hg update default", ["glob:**"]],
    ["hg clone https://hg.example.com/repo", ["glob:repo/**"]],
    ["hg log", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
});

Sites("should read the commands meson, dvc, svn and hg run, their options that move the working copy, and help as no write", async ({ box }) => {
  for (const name of ["hugo.toml", "meson.build", ".svn/wc.db", ".hg/requires"]) file(box, name, "\n");
  const cases: Array<[string, string[]]> = [
    ["meson devenv -C build rm notes.txt", ["glob:build/**", "notes.txt"]],
    ["meson test --wrapper valgrind", ["unknown:."]],
    ["meson setup -h", []],
    ["dvc run -n clean rm notes.txt", ["glob:**", "notes.txt"]],
    ["dvc get https://example.com/repo data -o out.csv", ["glob:**", "out.csv"]],
    ["svn diff --diff-cmd rm notes.txt", ["unknown:."]],
    ["svn commit --editor-cmd 'rm notes.txt'", ["unknown:."]],
    ["hg --config hooks.pre-status='rm notes.txt' status", ["unknown:."]],
    ["hg -R /tmp/elsewhere update", ["glob:/tmp/elsewhere/**"]],
    ["svn -r 5 update", ["glob:**"]],
    ["svn revert /tmp/elsewhere-wc/f.ts", ["/tmp/elsewhere-wc/f.ts", "glob:**", "glob:/tmp/elsewhere-wc/f.ts/**"]],
    [`duckdb my.db "COPY t TO 'out.csv'"`, ["my.db", "unknown:."]],
    ["duckdb -c '.output out.csv' my.db", ["my.db", "unknown:."]],
    ["helm pull repo/chart --destination=charts", ["glob:charts/*.tgz"]],
    ["helm pull repo/chart --untar --untardir vendor", ["glob:vendor/**"]],
    ["hugo new site blog", ["glob:blog/**"]],
    ["hugo server --renderToDisk=true", [".hugo_build.lock", "glob:public/**", "glob:resources/**"]],
    ["hugo -h", []],
    ["mongodump --version", []],
    ["npx gatsby develop", ["glob:**"]],
    ["kustomize localize . out", ["glob:out/**"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
});

Sites("should refuse the agent such a command where it may write the held file, and let its listings by", ({ box }) => {
  for (const name of [".svn/wc.db", "MODULE.bazel"]) file(box, name, "\n");
  denies(box, ["svn update", "svn revert -R .", "bazel run //:gazelle", "dvc checkout", "duckdb u.ts"]);
  allows(box, ["svn status", "svn log", "bazel build //...", "duckdb -readonly u.ts -c 'select 1'"]);
});

Sites.run();
