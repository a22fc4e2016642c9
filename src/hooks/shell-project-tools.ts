// Tools agents run on a whole project that rewrite its files by their own configuration, not by
// the paths on their command line: release and version tools (they bump manifests and version
// files, write changelogs and commit, which runs the git hooks: any file, unless only a dry run),
// framework generators and fixers (Angular's and Nest's generators, `next lint --fix`, astro, nuxi,
// SvelteKit, codemods: anything in the project), Go's generators (templ, mockery, swag, wire, gci),
// database migrations' generators (a new file in the project, or the schema file diesel rewrites),
// message catalogs (pybabel, lingui, formatjs), and a few more (tofu fmt, terragrunt hclfmt,
// wasm-pack, mkdocs, sphinx-build, goreleaser).
import { join } from "node:path";
import { valuedLong } from "./shell-options.js";
import { flagValues, globOf, inputProgram, lineAfter, lineOf, optionFiles, type Rule, type RuleInput, type RunLine } from "./shell-rule.js";
import { bySubcommand, JS_MANIFEST, newProject, operandFiles, projectRoot, pythonBuild, TOOL_RULES, wholeProject } from "./shell-tool-rules.js";
import { setByCommand } from "./shell-key-rules.js";
import { anyUnder, directoryAt, shellQuoted, UNKNOWABLE } from "./shell-words.js";

/** Whether any of these flags was given (`--dry-run`, `-d`), as written or with a value (`--dry-run=true`); also for tools whose single-dash long flags (`-dry`) the option reader would split. */
export const given = (input: RuleInput, ...flags: string[]) => input.args.some((arg) => arg !== undefined && flags.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));

/** Anything in the project (a JavaScript one's by default): wholeProject. */
const project = (markers: string[] = JS_MANIFEST) => wholeProject(markers);

/** A release tool: any file, unless one of `dry` says it only shows what it would do. */
const release = (...dry: string[]): Rule => ({ syntax: {}, writes: (input) => (given(input, "--help", "-h", "--version", ...dry) ? [] : [UNKNOWABLE]) });

/** A file at the project's root (the nearest directory up holding one of `markers`, else where it runs). */
const atProject =
  (name: string, markers: string[] = JS_MANIFEST) =>
  (input: RuleInput): string[] => {
    const root = projectRoot(input.walk.cwd, markers);
    return [root === undefined ? UNKNOWABLE : join(root, name)];
  };

/** A version manager's `local X`: its pin file where it runs; with no version it prints the pin. */
const pinHere = (file: string) => (input: RuleInput, rest: number[]) => (rest.length === 0 ? [] : input.walk.cwd === undefined ? [UNKNOWABLE] : [join(input.walk.cwd, file)]);

/** A jj, Graphite or git-town command that moves the work tree to another revision or rewrites it: any file of the repository. */
const workTree = (markers: string[]) => (input: RuleInput) => [anyUnder(projectRoot(input.walk.cwd, markers))];

/** TypeORM's generators: a new migration, entity or subscriber in the project. */
const TYPEORM: Rule = { syntax: {}, writes: (input) => (/^(migration:(generate|create)|entity:create|subscriber:create|init)$/.test(input.args[0] ?? "") ? project()(input) : []) };

const GO = ["go.mod"];
const CARGO = ["Cargo.toml"];

/**
 * jj's config given on its line (`--config KEY=VALUE`, `--config-toml TOML`, `--config-file F`)
 * that could run a program: a pager, an editor, a diff or merge tool, a fix tool's command, a
 * signing program, an alias (which runs `util exec`); a file's (not read), or one the text does not fix.
 */
function jjConfigRuns(input: RuleInput): boolean {
  const { args } = input;
  for (let at = 0; at < args.length; at++) {
    const arg = args[at] ?? input.text(at) ?? "";
    if (arg === "--") break;
    const option = /^--(config|config-toml|config-file)(=|$)/.exec(arg);
    if (option === null) continue;
    const value = option[2] === "=" ? (args[at] === undefined ? undefined : arg.slice(arg.indexOf("=") + 1)) : args[++at];
    if (value === undefined || option[1] === "config-file") return true;
    // (`--config KEY=VALUE` by its key, `user.name=Designer` is no signing; `--config-toml` by its keys' words anywhere.)
    const keys = option[1] === "config" ? value.split("=")[0] ?? "" : value;
    if (/(^|[^a-z])(pager|editor|diff-editor|merge-editor|tools?|command|program|backend|formatter|aliases|alias|hooks?|sign|signing|ssh|exec)([^a-z]|$)/i.test(keys)) return true;
  }
  return false;
}

export const PROJECT_TOOL_RULES: Record<string, Rule> = {
  // JavaScript's release tools; lerna's version and publish, auto's shipit and the like.
  "standard-version": release("--dry-run"),
  "commit-and-tag-version": release("--dry-run"),
  "release-it": release("--dry-run", "-d", "--release-version", "--changelog", "--only-version"),
  "semantic-release": release("--dry-run", "-d", "--noop"),
  bumpp: release("--dry-run"),
  np: release("--preview"),
  changelogen: { syntax: {}, writes: (input) => (given(input, "--bump", "--release", "--output", "-o") ? [UNKNOWABLE] : []) },
  lerna: bySubcommand({}, { version: () => [UNKNOWABLE], publish: () => [UNKNOWABLE] }),
  auto: bySubcommand({}, { shipit: () => [UNKNOWABLE], version: () => [UNKNOWABLE], changelog: (input) => (given(input, "--dry-run", "-d") ? [] : [UNKNOWABLE]), release: () => [UNKNOWABLE] }),
  "conventional-changelog": { syntax: { short: "i:o:p:", long: { infile: "i", outfile: "o", preset: "p" } }, writes: (input) => (input.reading.has("o") ? optionFiles(input, ["o"]) : input.reading.has("s") || given(input, "--same-file") ? optionFiles(input, ["i"]) : []) },
  // Python's and Rust's: commitizen, bump-my-version (and bumpversion, bump2version), towncrier, release-plz.
  cz: bySubcommand({}, { bump: (input) => (given(input, "--dry-run", "--get-next") ? [] : [UNKNOWABLE]), changelog: (input) => (given(input, "--dry-run") ? [] : [UNKNOWABLE]) }),
  "bump-my-version": bySubcommand({}, { bump: (input) => (given(input, "--dry-run", "-n") ? [] : [UNKNOWABLE]), replace: (input) => (given(input, "--dry-run", "-n") ? [] : [UNKNOWABLE]) }),
  bumpversion: release("--dry-run", "-n", "--list"),
  bump2version: release("--dry-run", "-n", "--list"),
  towncrier: bySubcommand({}, { build: (input) => (given(input, "--draft") ? [] : [UNKNOWABLE]), create: (input) => project(["pyproject.toml", "towncrier.toml"])(input) }),
  "release-plz": bySubcommand({}, { update: () => [UNKNOWABLE], release: () => [UNKNOWABLE] }),
  "git-cliff": { syntax: { short: "o:p:", long: { output: "o", prepend: "p", ...valuedLong("config workdir repository include-path exclude-path tag with-commit body") } }, writes: (input) => optionFiles(input, ["o", "p"]) },
  // Frameworks' generators and fixers, which rewrite the project's sources and configuration.
  ng: bySubcommand({}, {
    generate: project(["angular.json"]),
    g: project(["angular.json"]),
    add: project(["angular.json"]),
    update: (input) => (input.reading.operands.length > 1 ? project(["angular.json"])(input) : []),
    lint: (input) => (given(input, "--fix") ? project(["angular.json"])(input) : []),
    new: (input, rest) => [anyUnder(directoryAt(input.walk.cwd, input.args[rest[0] ?? -1]))],
  }),
  nest: bySubcommand({}, { generate: project(["nest-cli.json", "package.json"]), g: project(["nest-cli.json", "package.json"]), add: project(["nest-cli.json", "package.json"]), new: (input, rest) => [anyUnder(directoryAt(input.walk.cwd, input.args[rest[0] ?? -1]))] }),
  "vue-cli-service": bySubcommand({}, { lint: (input) => (given(input, "--no-fix") ? [] : project()(input)) }),
  astro: bySubcommand({}, { add: project(), sync: project() }),
  "svelte-kit": bySubcommand({}, { sync: project() }),
  nuxi: bySubcommand({}, { prepare: project(), generate: project(), add: project(), module: project(), upgrade: project() }),
  sv: bySubcommand({}, { migrate: project(), add: project() }),
  codemod: { syntax: {}, writes: (input) => (given(input, "--dry", "--dry-run", "--help", "-h") ? [] : project()(input)) },
  "tailwindcss-upgrade": { syntax: {}, writes: project() },
  "ts-migrate": bySubcommand({}, { migrate: project(), init: project(), rename: project(), reignore: project() }),
  wrangler: bySubcommand({}, { types: project(["wrangler.toml", "wrangler.json", "wrangler.jsonc", "package.json"]) }),
  tsr: bySubcommand({}, { generate: project() }),
  convex: bySubcommand({}, { codegen: project(), dev: project() }),
  orval: { syntax: {}, writes: project() },
  "openapi-ts": { syntax: { short: "o:i:c:f:", long: { output: "o", input: "i", client: "c", file: "f" } }, writes: (input) => (input.reading.has("o") ? optionFiles(input, ["o"]).map((path) => (path.startsWith("\0") ? path : anyUnder(path))) : project()(input)) },
  typedoc: { syntax: {}, writes: project() },
  // Redocly's bundle and build-docs (-o's file; build-docs' default redoc-static.html), svgr's --out-dir.
  redocly: bySubcommand({ short: "o:d:", long: { output: "o", outDir: "d", ...valuedLong("config ext") } }, {
    split: (input) => optionFiles(input, ["d"]).map((path) => (path.startsWith("\0") ? path : anyUnder(path))), bundle: (input) => optionFiles(input, ["o"]), join: (input) => (input.reading.has("o") ? optionFiles(input, ["o"]) : [join(input.walk.cwd ?? "/", "openapi.yaml")]), "build-docs": (input) => (input.reading.has("o") ? optionFiles(input, ["o"]) : input.walk.cwd === undefined ? [UNKNOWABLE] : [join(input.walk.cwd, "redoc-static.html")]) }),
  svgr: { syntax: { short: "d:", long: { "out-dir": "d", ...valuedLong("config-file ext filename-case icon jsx-runtime template index-template") } }, writes: (input) => optionFiles(input, ["d"]).map((path) => (path.startsWith("\0") ? path : anyUnder(path))) },
  "api-extractor": bySubcommand({}, { run: project() }),
  // Rush: its commands run the projects' scripts and installs (any file); rushx a script of the project here.
  rush: { syntax: {}, writes: (input) => (/^(list|check|scan|-h|--help|-v|--version)?$/.test(input.args[0] ?? "") ? [] : [UNKNOWABLE]) },
  rushx: { syntax: {}, writes: (input) => (input.args.length === 0 || given(input, "-h", "--help") ? [] : [UNKNOWABLE]) },
  // Go's generators: templ's _templ.go files, mockery's mocks, swag's docs/, wire's wire_gen.go, gci's rewrites.
  templ: bySubcommand({}, { generate: project(GO), fmt: project(GO) }),
  mockery: { syntax: {}, writes: (input) => (given(input, "--help", "--version", "--dry-run") ? [] : project(GO)(input)) },
  swag: bySubcommand({}, { init: project(GO), fmt: project(GO) }),
  wire: { syntax: {}, writes: (input) => (input.args[0] === "check" || input.args[0] === "show" || input.args[0] === "diff" ? [] : project(GO)(input)) },
  gci: bySubcommand({}, { write: (input, rest) => operandFiles(input, rest) }),
  // gqlgen (`generate`, the default, and `init`) rewrites its generated code and the resolvers' files, which hold hand-written code; ent's generate its schema's code.
  gqlgen: { syntax: {}, writes: (input) => (["version", "help", "-h", "--help"].includes(input.args[0] ?? "") ? [] : project(GO)(input)) },
  ent: bySubcommand({}, { generate: project(GO), new: project(GO), init: project(GO) }),
  // Database migrations: a new file in the project (or diesel's schema file, which its config names).
  diesel: bySubcommand({}, { migration: project(CARGO), setup: project(CARGO), database: project(CARGO) }),
  "sea-orm-cli": bySubcommand({}, { generate: project(CARGO), migrate: project(CARGO) }),
  typeorm: TYPEORM,
  // (typeorm's entry points that run the project's TypeScript data source.)
  "typeorm-ts-node-commonjs": TYPEORM,
  "typeorm-ts-node-esm": TYPEORM,
  knex: { syntax: {}, writes: (input) => (/^(migrate:make|seed:make|init)$/.test(input.args.find((arg) => arg !== undefined && !arg.startsWith("-")) ?? "") ? project()(input) : []) },
  "sequelize-cli": { syntax: {}, writes: sequelize },
  sequelize: { syntax: {}, writes: sequelize },
  "mikro-orm": { syntax: {}, writes: (input) => (/^(migration:create|migration:generate|schema:fresh|generate-entities)$/.test(input.args[0] ?? "") ? project()(input) : []) },
  supabase: bySubcommand({}, { migration: (input, rest) => (["new", "squash", "fetch"].includes(input.args[rest[0] ?? -1] ?? "") ? project(["supabase"])(input) : []), init: project(["package.json"]), db: (input, rest) => (input.args[rest[0] ?? -1] === "diff" && given(input, "-f", "--file") ? project(["supabase"])(input) : input.args[rest[0] ?? -1] === "pull" ? project(["supabase"])(input) : []) }),
  sqlx: bySubcommand({}, { migrate: (input, rest) => (input.args[rest[0] ?? -1] === "add" ? project(CARGO)(input) : []) }),
  goose: { syntax: {}, writes: (input) => (input.args.includes("create") || input.args.includes("fix") ? project(GO)(input) : []) },
  migrate: { syntax: {}, writes: (input) => (input.args.includes("create") ? project(GO)(input) : []) },
  atlas: bySubcommand({}, { migrate: (input, rest) => (["diff", "new", "hash", "edit"].includes(input.args[rest[0] ?? -1] ?? "") ? project(["atlas.hcl", "go.mod", "package.json"])(input) : []) }),
  // Message catalogs: pybabel's extract (-o) and update/compile (-d), lingui's, formatjs's, i18next-parser's.
  pybabel: { syntax: { short: "o:d:i:", long: { output: "o", "output-file": "o", "output-dir": "d", directory: "d", "input-file": "i" } }, writes: (input) => [...optionFiles(input, ["o"]), ...optionFiles(input, ["d"]).map((path) => (path.startsWith("\0") ? path : anyUnder(path)))] },
  lingui: bySubcommand({}, { extract: project(), compile: project(), "extract-template": project() }),
  formatjs: bySubcommand({ long: valuedLong("out-file out-dir") }, { extract: (input) => optionFiles(input, ["out-file"]), compile: (input) => optionFiles(input, ["out-file"]), "compile-folder": (input) => project()(input) }),
  "i18next-parser": { syntax: {}, writes: project() },
  i18next: { syntax: {}, writes: project() },
  // And more: OpenTofu's fmt as terraform's; terragrunt's hclfmt; wasm-pack's pkg/; mkdocs' site/;
  // sphinx-build's output directory; goreleaser's dist/.
  tofu: TOOL_RULES.terraform as Rule,
  terragrunt: { syntax: {}, writes: (input) => (input.args.some((arg) => arg === "hclfmt" || arg === "hcl") && !given(input, "--check", "--terragrunt-check") ? [anyUnder(terragruntDirectory(input))] : []), runsLines: terragruntRuns },
  "wasm-pack": bySubcommand({ short: "d:", long: { "out-dir": "d", ...valuedLong("target scope out-name mode") } }, { build: (input) => [anyUnder(projectRoot(input.walk.cwd, CARGO) === undefined ? undefined : join(projectRoot(input.walk.cwd, CARGO) as string, "pkg")), ...optionFiles(input, ["d"]).map((path) => (path.startsWith("\0") ? path : anyUnder(path)))] }),
  mkdocs: bySubcommand({ short: "d:f:", long: { "site-dir": "d", "config-file": "f" } }, { build: (input) => (input.reading.has("d") ? optionFiles(input, ["d"]).map((path) => (path.startsWith("\0") ? path : anyUnder(path))) : [anyUnder(projectRoot(input.walk.cwd, ["mkdocs.yml", "mkdocs.yaml"]) === undefined ? undefined : join(projectRoot(input.walk.cwd, ["mkdocs.yml", "mkdocs.yaml"]) as string, "site"))]), "gh-deploy": project(["mkdocs.yml", "mkdocs.yaml"]) }),
  "sphinx-build": { syntax: { short: "b:c:d:D:A:t:j:w:M:" }, writes: (input) => operandFiles(input, input.reading.operands.slice(1), []).map((path) => (path.startsWith("\0") ? path : anyUnder(path))) },
  goreleaser: { syntax: {}, writes: (input) => (input.args[0] === "check" || given(input, "--help", "-h") ? [] : project(GO)(input)) },
  // Manifests' writers: volta pin, fixpack and prettier-package-json --write (package.json), manypkg fix (every manifest of the workspace).
  volta: bySubcommand({}, { pin: atProject("package.json") }),
  fixpack: { syntax: {}, writes: (input) => (given(input, "--help", "-h") ? [] : input.reading.operands.length > 0 ? operandFiles(input, input.reading.operands) : atProject("package.json")(input)) },
  "prettier-package-json": { syntax: { long: { write: "w" } }, writes: (input) => (input.reading.has("w") ? (input.reading.operands.length > 0 ? operandFiles(input, input.reading.operands) : atProject("package.json")(input)) : []) },
  // (`manypkg exec cmd` runs cmd in every package: a place the text does not name.)
  manypkg: { ...bySubcommand({}, { fix: project(), upgrade: project() }), runsLines: (input) => lineAfter(input, ["exec"]).map((line) => (line === undefined ? undefined : { script: line, cwd: undefined })) },
  // Version managers' pins: pyenv, rbenv and nodenv `local X`, asdf `set`/`local` (.tool-versions where they run).
  pyenv: bySubcommand({}, { local: pinHere(".python-version") }),
  rbenv: bySubcommand({}, { local: pinHere(".ruby-version") }),
  nodenv: bySubcommand({}, { local: pinHere(".node-version") }),
  asdf: bySubcommand({}, { set: pinHere(".tool-versions"), local: pinHere(".tool-versions") }),
  // jj's and Graphite's commands that move the work tree to another revision, or rewrite the one
  // it shows (not those that only record, name, push or list: `jj describe`, `commit`, `bookmark`,
  // `git push`, `op log`; `gt submit`, `track`, `rename`).
  // (`jj util exec -- cmd` runs cmd: read in turn; config given on the line that names a program or
  // an alias, or a config file, could run anything: jjConfigRuns.)
  jj: {
    runsLines: (input) => [...lineAfter(input, ["util", "exec"]), ...(jjConfigRuns(input) ? [undefined] : [])],
    ...bySubcommand({}, {
      ...Object.fromEntries(["restore", "edit", "new", "checkout", "co", "abandon", "rebase", "squash", "unsquash", "split", "undo", "backout", "revert", "resolve", "absorb", "diffedit", "next", "prev", "fix", "parallelize"].map((sub) => [sub, workTree([".jj", ".git"])])),
      op: (input, rest) => (["restore", "undo", "revert"].includes(input.args[rest[0] ?? -1] ?? "") ? workTree([".jj", ".git"])(input) : []),
      workspace: (input, rest) => (["update-stale"].includes(input.args[rest[0] ?? -1] ?? "") ? workTree([".jj", ".git"])(input) : []),
    }),
  },
  // Python packages' builds (`python -m build` runs pyproject-build): dist/ (or the output option's
  // directory), build/ and *.egg-info; pyinstaller's dist/, build/ and spec file; maturin's wheels
  // (target/wheels, `-o`) and, for develop, the extension built into the project.
  "pyproject-build": { syntax: { short: "o:C:", long: { outdir: "o", "config-setting": "C", sdist: "s", wheel: "w", ...valuedLong("installer") } }, writes: (input) => (given(input, "--help", "-h", "--version", "-V") ? [] : pythonBuild(input, "o", input.reading.operands[0] === undefined ? input.walk.cwd : directoryAt(input.walk.cwd, input.values(input.reading.operands.slice(0, 1))[0]))) },
  // (hatch's `run` and `env run` run a command: read as an unknown command's arguments are, Rule.runsArguments.)
  hatch: { ...bySubcommand({}, { build: (input, rest) => (given(input, "--help", "-h") ? [] : rest.length > 0 && !input.args[rest[0] as number]?.startsWith("-") ? [anyUnder(directoryAt(input.walk.cwd, input.args[rest[0] as number])), ...pythonBuild(input, undefined, input.walk.cwd).slice(1)] : pythonBuild(input, undefined, input.walk.cwd)), clean: (input) => pythonBuild(input, undefined, input.walk.cwd), new: (input) => newProject(input, true) }), runsArguments: true },
  flit: bySubcommand({}, { build: (input) => pythonBuild(input, undefined, input.walk.cwd) }),
  pyinstaller: {
    syntax: { short: "n:p:i:", long: { name: "n", paths: "p", icon: "i", ...valuedLong("distpath workpath specpath add-data add-binary hidden-import collect-all collect-data collect-submodules additional-hooks-dir runtime-hook exclude-module key upx-dir log-level splash target-architecture codesign-identity osx-entitlements-file version-file manifest") } },
    writes: (input) => {
      if (given(input, "--help", "-h", "--version", "-v")) return [];
      const here = (key: string, fallback: string) => anyUnder(input.reading.has(key) ? directoryAt(input.walk.cwd, input.reading.value(key)) : input.walk.cwd === undefined ? undefined : join(input.walk.cwd, fallback));
      const scripts = input.values(input.reading.operands);
      // Given a .spec, it builds from it; given scripts, it writes NAME.spec first (`--specpath`'s directory, else here).
      const spec = scripts.every((path) => path.endsWith(".spec")) ? [] : [input.reading.has("specpath") ? anyUnder(directoryAt(input.walk.cwd, input.reading.value("specpath"))) : input.walk.cwd === undefined ? UNKNOWABLE : globOf(join(input.walk.cwd, "*.spec"))];
      return [here("distpath", "dist"), here("workpath", "build"), ...spec];
    },
  },
  maturin: bySubcommand({ short: "o:m:", long: { out: "o", "manifest-path": "m" } }, {
    build: (input) => (input.reading.has("o") ? optionFiles(input, ["o"]).map((path) => (path.startsWith("\0") ? path : anyUnder(path))) : [anyUnder(projectRoot(input.walk.cwd, CARGO) === undefined ? undefined : join(projectRoot(input.walk.cwd, CARGO) as string, "target"))]),
    develop: project(["pyproject.toml", ...CARGO]),
    sdist: (input) => (input.reading.has("o") ? optionFiles(input, ["o"]).map((path) => (path.startsWith("\0") ? path : anyUnder(path))) : [anyUnder(projectRoot(input.walk.cwd, CARGO) === undefined ? undefined : join(projectRoot(input.walk.cwd, CARGO) as string, "target"))]),
    new: (input, rest) => [anyUnder(directoryAt(input.walk.cwd, input.args[rest.at(-1) ?? -1]))],
    init: project(["pyproject.toml", ...CARGO]),
  }),
  // Flask-Migrate's `flask db …`: migrations/ and the revision files in it (and a SQLite database the app uses): anything in the project; not its listings.
  // (`upgrade --sql` and `downgrade --sql` print the SQL instead.)
  // (`flask shell` given Python on its input, `< x.py`, `<<EOF`: read as `python3 -`.)
  flask: {
    ...bySubcommand({ short: "A:e:", long: { app: "A", "env-file": "e" } }, { db: (input, rest) => (/^(current|history|heads|branches|show|check)$/.test(input.args[rest[0] ?? -1] ?? "") || given(input, "--help", "--sql") ? [] : project(["pyproject.toml", "setup.py", "requirements.txt", "app.py", "wsgi.py"])(input)) }),
    runsLines: (input) => (input.args[input.reading.operands[0] ?? -1] === "shell" ? inputProgram(input, "python3") : []),
  },
  // More generators of code in the project: API clients, route trees, GraphQL artifacts, content
  // layers, types from a CMS or a contract's ABI, sitemaps, import organizers; anything under the
  // project (not their help).
  ...Object.fromEntries(["swagger-typescript-api", "kubb", "next-sitemap", "contentlayer", "contentlayer2", "velite", "tsoa", "organize-imports-cli", "typechain", "openapi-typescript-codegen", "openapi-zod-client", "ts-to-zod", "tsc-alias", "dts-bundle-generator", "ts-json-schema-generator", "graphql-schema-typescript", "replace-in-file"].map((name) => [name, { syntax: {}, writes: (input: RuleInput) => (given(input, "--help", "-h", "--version", "-v", "--dry-run", "--dry") ? [] : project()(input)) }])),
  // relay-compiler (not `--validate`, which only checks).
  "relay-compiler": { syntax: {}, writes: (input) => (given(input, "--help", "-h", "--version", "--validate") ? [] : project()(input)) },
  // (`payload run src/seed.ts` and `sanity exec scripts/migrate.ts` run a script: read as tsx reads it.)
  payload: { ...bySubcommand({}, { "generate:types": project(), "generate:importmap": project(), "generate:db-schema": project(), "migrate:create": project() }), runsProgram: { after: ["run"], interpreter: "tsx" } },
  sanity: { ...bySubcommand({}, { typegen: project(["sanity.config.ts", "sanity.config.js", "sanity.cli.ts", "package.json"]), schema: (input, rest) => (input.args[rest[0] ?? -1] === "extract" ? project(["sanity.config.ts", "sanity.config.js", "package.json"])(input) : []) }), runsProgram: { after: ["exec"], interpreter: "tsx" } },
  apollo: bySubcommand({}, { "client:codegen": project(), "service:download": project() }),
  // JavaScript's migration tools' new migration files: anything under the project.
  "node-pg-migrate": bySubcommand({}, { create: project() }),
  "db-migrate": bySubcommand({}, { create: project() }),
  // pretty-quick formats the files changed since the base branch (`--staged`: the staged ones): any
  // file of the repository (not `--check`). (lint-staged is read as what it runs: shell-commit-tools.ts.)
  "pretty-quick": { syntax: {}, writes: (input) => (given(input, "--help", "--check") ? [] : workTree([".git"])(input)) },
  gt: bySubcommand({}, Object.fromEntries(["checkout", "co", "sync", "restack", "get", "up", "down", "top", "bottom", "move", "fold", "split", "delete", "undo", "pop", "continue", "abort", "reorder"].map((sub) => [sub, workTree([".git"])]))),
};

/** sequelize-cli's generators: a new migration, model or seed in the project. */
function sequelize(input: RuleInput): string[] {
  return /^(migration:(generate|create)|model:(generate|create)|seed:(generate|create)|init(:\w+)?)$/.test(input.args[0] ?? "") ? project()(input) : [];
}

/** Their packages' names, as npx runs them (`npx @nestjs/cli g service users`). */
export const PROJECT_TOOL_BINS: Record<string, string> = {
  "@angular/cli": "ng",
  "@kubb/cli": "kubb",
  "@nestjs/cli": "nest",
  "@vue/cli-service": "vue-cli-service",
  "@sveltejs/kit": "svelte-kit",
  "@tailwindcss/upgrade": "tailwindcss-upgrade",
  "@hey-api/openapi-ts": "openapi-ts",
  "@microsoft/api-extractor": "api-extractor",
  "@lingui/cli": "lingui",
  "@formatjs/cli": "formatjs",
  "@mikro-orm/cli": "mikro-orm",
  "@next/codemod": "codemod",
  "@redocly/cli": "redocly",
  "@svgr/cli": "svgr",
  "@release-it/conventional-changelog": "release-it",
  "conventional-changelog-cli": "conventional-changelog",
  commitizen: "cz",
  "python-semantic-release": "semantic-release",
  "@manypkg/cli": "manypkg",
  "@withgraphite/graphite-cli": "gt",
};

/** Where terragrunt runs: `--working-dir`'s directory (`--terragrunt-working-dir`, TG_WORKING_DIR), else here; undefined where the text does not fix it. */
function terragruntDirectory(input: RuleInput): string | undefined {
  const environment = input.walk.environment;
  const named = ["TG_WORKING_DIR", "TERRAGRUNT_WORKING_DIR"].filter((name) => setByCommand(environment, name)).map((name) => environment[name]);
  const values = [...named, ...flagValues(input.args, ["working-dir", "terragrunt-working-dir"], input.text)];
  return values.length === 0 ? input.walk.cwd : values.at(-1) === undefined ? undefined : directoryAt(input.walk.cwd, values.at(-1));
}

/**
 * What terragrunt runs: `exec -- cmd` runs cmd in the unit's directory (after options that take
 * values: `--working-dir d exec -- cmd`), read in turn there; `--tf-path prog` (TG_TF_PATH)
 * runs prog for terraform.
 */
function terragruntRuns(input: RuleInput): Array<string | RunLine | undefined> {
  const { args } = input;
  const dashdash = args.indexOf("--");
  const verb = args.indexOf("exec");
  const lines: Array<string | RunLine | undefined> = [];
  if (verb !== -1 && (dashdash === -1 || verb < dashdash)) {
    const start = dashdash !== -1 ? dashdash + 1 : args.findIndex((arg, at) => at > verb && (arg === undefined || !arg.startsWith("-")));
    const line = start === -1 || start >= args.length ? null : lineOf(args, start);
    if (line !== null) lines.push(line === undefined ? undefined : { script: line, cwd: terragruntDirectory(input) });
  }
  const environment = input.walk.environment;
  const programs = [...["TG_TF_PATH", "TERRAGRUNT_TFPATH"].filter((name) => setByCommand(environment, name)).map((name) => environment[name]), ...flagValues(args, ["tf-path", "terragrunt-tfpath"], input.text)];
  for (const program of programs) if (program !== "terraform" && program !== "tofu") lines.push(program === undefined ? undefined : shellQuoted(program));
  return lines;
}
