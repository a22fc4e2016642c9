// Converters, generators and small file tools (shell-converter-rules.ts), httpie's and xh's
// downloads, new environments and projects (uv venv, virtualenv, poetry new, hatch new), git cliff,
// git-filter-repo and gh gist clone: read by the Claude hook from a shell command as the files they
// write. Another session holds u.ts; session s2 runs them.
import { execFileSync } from "node:child_process";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Converters = suite<Context>("claims hook: converters, generators and small file tools");
Converters.before.each((context) => {
  context.box = heldBox();
});
Converters.after.each((context) => context.box.cleanup());

Converters("should read each as the files its options or operands say it writes, and its checks and prints as no write", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["http --download https://example.com/f.txt", ["glob:*"]],
    ["http -o out.json GET https://example.com", ["out.json"]],
    ["xh -o out.json https://example.com", ["out.json"]],
    ["mkcert localhost 127.0.0.1", ["glob:*.pem"]],
    ["mkcert -cert-file certs/dev.pem -key-file certs/dev-key.pem localhost", ["certs/dev-key.pem", "certs/dev.pem", "glob:*.pem"]],
    ["mkcert -install", []],
    ["age -d -o secrets.env secrets.age", ["secrets.env"]],
    ["age -d secrets.age", []],
    ["age-keygen -o key.txt", ["key.txt"]],
    ["npx mmdc -i docs/flow.mmd -o docs/flow.svg", ["docs/flow.svg"]],
    ["mmdc -i docs/flow.mmd", ["docs/flow.mmd.svg"]],
    ["plantuml docs/diagram.puml", ["glob:docs/diagram.*"]],
    ["plantuml -o out docs/diagram.puml", ["glob:docs/out/**"]],
    ["qpdf --linearize in.pdf out.pdf", ["out.pdf"]],
    ["qpdf --check in.pdf", []],
    ["pdftotext in.pdf", ["in.txt"]],
    ["pdftotext in.pdf -", []],
    ["pdftoppm -png in.pdf page", ["glob:page*"]],
    ["recode latin1..utf8 a.txt b.txt", ["a.txt", "b.txt"]],
    ["npx cpy 'src/**' lib", ["glob:lib/**"]],
    ["npx ncp src lib", ["glob:lib/**"]],
    ["npx cpx 'src/**/*.json' dist", ["glob:dist/**"]],
    ["npx copyfiles -u 1 'src/**/*.css' dist", ["glob:dist/**"]],
    ["npx del-cli dist", ["dist", "glob:dist/**"]],
    ["npx del-cli --dry-run dist", []],
    ["typos -w", ["glob:**"]],
    ["typos", []],
    ["buildifier -r .", ["glob:**"]],
    ["buildifier BUILD.bazel", ["BUILD.bazel"]],
    ["buildifier -mode=check BUILD.bazel", []],
    ["rpl foo bar src/a.ts", ["src/a.ts"]],
    ["prename 's/a/b/' x.txt", ["glob:*", "x.txt"]],
    ["wasm-opt -O3 in.wasm -o out.wasm", ["out.wasm"]],
    ["upx app", ["app"]],
    ["upx -t app", []],
    ["stubgen -p mypkg -o stubs", ["glob:stubs/**"]],
    ["stubgen -m mod", ["glob:out/**"]],
    ["uv venv", ["glob:.venv/**"]],
    ["uv venv env2", ["glob:env2/**"]],
    ["virtualenv venv", ["glob:venv/**"]],
    ["poetry new tool", ["glob:tool/**"]],
    ["hatch new tool", ["glob:tool/**"]],
    ["qpdf --empty --pages a.pdf b.pdf -- out.pdf", ["out.pdf"]],
    ["qpdf --encrypt u o 256 -- in.pdf out.pdf", ["out.pdf"]],
    ["qpdf --split-pages in.pdf out.pdf", ["glob:out*"]],
    ["pdftotext -enc UTF-8 in.pdf out.txt", ["out.txt"]],
    ["pdftoppm -scale-to 1024 -png in.pdf pages/p", ["glob:pages/p*"]],
    ["buildifier -mode check BUILD.bazel", []],
    ["npx del-cli 'dist/**' '!dist/keep.js'", ["glob:dist/**", "glob:dist/**/**"]],
    ["stubgen --help", []],
    ["mmdc -i report.md -o out.md", ["glob:out-*", "out.md"]],
    ["npx @mermaid-js/mermaid-cli -i a.mmd -o a.png", ["a.png"]],
    ["npx cpx 'src/**' dist -c 'rm notes.txt'", ["glob:dist/**", "notes.txt"]],
    ["jupytext --sync notebooks/nb.ipynb", ["glob:notebooks/nb.*"]],
    ["jupytext --to py -o - nb.ipynb", []],
    ["jupytext --test --to py nb.ipynb", []],
    ["papermill -p alpha 1 in.ipynb out.ipynb", ["out.ipynb", "unknown:."]], // and in.ipynb's code runs: no notebook of the project's, any file
    ["scrapy crawl quotes -O quotes.json", ["quotes.json"]],
    ["scrapy crawl quotes -o items.csv:csv", ["items.csv"]],
    ["scrapy startproject tutorial", ["glob:tutorial/**"]],
    ["dbt run --select model", ["glob:**"]],
    ["dbt debug", []],
    ["sqlacodegen sqlite:///app.db --outfile models.py", ["models.py"]],
    ["liquibase generateChangeLog --changelog-file=changelog.xml", ["changelog.xml"]],
    ["liquibase update", []],
    ["gh gist clone abc123", ["glob:abc123/**"]],
    ["gh gist clone https://gist.github.com/u/abc123 notes", ["glob:notes/**"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
});

Converters("should read git cliff's changelog and git-filter-repo as git's own commands are read", async ({ box }) => {
  execFileSync("git", ["init", "-q", box.project]);
  assert.equal(await writes(box, "git cliff -o CHANGELOG.md"), ["CHANGELOG.md"]);
  assert.equal(await writes(box, "git cliff --prepend CHANGELOG.md -u"), ["CHANGELOG.md"]);
  assert.equal(await writes(box, "git-filter-repo --path src --force"), ["glob:**"]);
  assert.equal(await writes(box, "git-filter-repo --analyze"), []);
});

Converters("should refuse the agent such a command on a file another session holds, and let its checks by", ({ box }) => {
  denies(box, ["recode latin1..utf8 u.ts", "rpl foo bar u.ts", "typos -w", "npx cpy 'src/**' .", "http -o u.ts GET https://example.com", "upx u.ts"]);
  allows(box, ["typos", "qpdf --check in.pdf", "buildifier -mode=check u.ts", "mkcert -install"]);
});

Converters.run();
