// Static site and documentation builders (Hugo, Jekyll, Eleventy, Docusaurus, VitePress, mdBook,
// Zola, Gatsby, Astro's build), infrastructure renderers (helm template, create and pull, kustomize),
// build systems that keep their own trees (meson, bazel), data versioning (dvc), databases'
// dumps and files (mongodump, mongoexport, redis-cli --rdb, duckdb) and other version control
// systems' working copies (svn, hg): each as the files or directories it writes here.
import { join } from "node:path";
import { valuedLong } from "./shell-options.js";
import { flagValues, globOf, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { LOCK_RULES } from "./shell-lock-rules.js";
import { asksHelp, bySubcommand, inProject, operandFiles, projectRoot, wholeProject, withMore } from "./shell-tool-rules.js";
import { anyUnder, directoryAt, UNKNOWABLE } from "./shell-words.js";


/** A directory an option names (`key`), else `fallback` under the project, as anything under it. */
const outputDirectory =
  (key: string, fallback: string, markers: string[]) =>
  (input: RuleInput): string[] =>
    input.reading.has(key) ? optionFiles(input, [key]).map((path) => (path.startsWith("\0") ? path : anyUnder(directoryAt(input.walk.cwd, path)))) : inProject(fallback, markers)(input);


/** A new directory named by the operand at `index` of the subcommand's rest (else where it runs). */
const named = (index: number) => (input: RuleInput, rest: number[]) => [anyUnder(directoryAt(input.walk.cwd, rest.length > index ? input.args[rest[index] as number] : "."))];

const HUGO = ["hugo.toml", "hugo.yaml", "hugo.json", "config.toml", "config.yaml"];
const JEKYLL = ["_config.yml", "_config.yaml", "Gemfile"];
const DOCUSAURUS = ["docusaurus.config.js", "docusaurus.config.ts", "package.json"];
const BAZEL = ["MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel"];

/** The bazel-* links bazel makes at the workspace's root. */
const bazelLinks = (input: RuleInput) => {
  const root = projectRoot(input.walk.cwd, BAZEL);
  return [root === undefined ? UNKNOWABLE : globOf(join(root, "bazel-*"))];
};

/** The working copies a command changes: each path operand's (`svn revert /elsewhere/f`), else the one where it runs. */
const workingCopies = (marker: string) => (input: RuleInput, rest: number[]) => {
  const paths = input.values(rest).filter((path) => !path.startsWith("\0") && !/^[a-z][\w+.-]*:\/\//i.test(path) && (path.includes("/") || path === "."));
  const roots = paths.flatMap((path) => [directoryAt(input.walk.cwd, path) ?? UNKNOWABLE, anyUnder(projectRoot(directoryAt(input.walk.cwd, path), [marker]))]);
  return [...new Set([...wholeProject([marker])(input), ...roots])];
};

/** A new working copy's directory: the last operand when there are two, else the repository's last path part. */
const checkoutDirectory = (input: RuleInput, rest: number[]) => [anyUnder(directoryAt(input.walk.cwd, rest.length > 1 ? input.args[rest.at(-1) as number] : (input.args[rest[0] ?? -1] ?? "").replace(/\/+$/, "").split("/").pop()))];

/** hugo (its build, the default): public/ (`-d`), resources/ and .hugo_build.lock; `new` a content file or site; `server` renders to memory unless `--renderToDisk`. */
const hugo: Rule = {
  syntax: { short: "d:s:c:b:e:t:h", long: { destination: "d", source: "s", contentDir: "c", baseURL: "b", environment: "e", theme: "t", ...valuedLong("cacheDir config configDir layoutDir themesDir") } },
  writes: (input) => {
    const [sub, second, third] = input.reading.operands.map((at) => input.args[at]);
    if (asksHelp(input) || input.reading.has("h") || ["version", "env", "config", "list", "help", "completion"].includes(sub ?? "") || (sub === "mod" && second === "graph")) return [];
    // `new site DIR` (also `new project`, `new theme`): that directory; `new` content, `mod`, `convert`: the site's sources.
    if (sub === "new" && ["site", "project", "theme"].includes(second ?? "") && third !== undefined) return [anyUnder(directoryAt(input.walk.cwd, third))];
    if (sub === "new" || sub === "mod" || sub === "convert") return wholeProject(HUGO)(input);
    if ((sub === "server" || sub === "serve") && !input.args.some((arg) => arg === "--renderToDisk" || arg === "--renderToDisk=true")) return [];
    // (`-s DIR`: the site is there, and its outputs with it.)
    const site = input.reading.has("s") ? directoryAt(input.walk.cwd, input.reading.value("s")) : input.walk.cwd;
    const root = projectRoot(site, HUGO);
    if (input.reading.has("d")) return [...optionFiles(input, ["d"]).map((path) => (path.startsWith("\0") ? path : anyUnder(directoryAt(site, path)))), anyUnder(root === undefined ? undefined : join(root, "resources")), root === undefined ? UNKNOWABLE : join(root, ".hugo_build.lock")];
    return [anyUnder(root === undefined ? undefined : join(root, "public")), anyUnder(root === undefined ? undefined : join(root, "resources")), root === undefined ? UNKNOWABLE : join(root, ".hugo_build.lock")];
  },
};

/** mongodump: `--out`'s directory (dump/ where it runs), or `--archive=`'s file; mongoexport `--out`'s file. */
function mongodump(input: RuleInput): string[] {
  if (input.args.some((arg) => arg === "--archive" || arg === "--help" || arg === "--version")) return []; // to stdout, or only printing
  const archive = input.args.flatMap((arg) => (arg?.startsWith("--archive=") ? [arg.slice("--archive=".length)] : []));
  if (archive.length > 0) return archive.map((path) => directoryAt(input.walk.cwd, path) ?? UNKNOWABLE);
  if (input.reading.has("o")) return optionFiles(input, ["o"]).filter((path) => path !== "-").map((path) => (path.startsWith("\0") ? path : anyUnder(directoryAt(input.walk.cwd, path))));
  return [anyUnder(directoryAt(input.walk.cwd, "dump"))];
}

/**
 * duckdb: its database file (the first operand; not `-readonly`), and what its SQL (`-c`, `-s`)
 * writes elsewhere: `COPY … TO 'f'`, `EXPORT DATABASE 'd'`, an `ATTACH`ed database: any file.
 */
function duckdb(input: RuleInput): string[] {
  const { args } = input;
  const database = args.findIndex((arg, at) => arg === undefined || (!arg.startsWith("-") && !["-c", "-s", "-cmd", "-init", "-separator", "-newline", "-nullvalue"].includes(args[at - 1] ?? "")));
  const written = database === -1 || args.includes("-readonly") || args[database] === ":memory:" ? [] : input.values([database]);
  // Its SQL: `-c`'s, `-s`'s, `-cmd`'s, the operand after the database, its input; and the dot-commands that write or run (`.output`, `.shell`, `.read`).
  const sql = [...args.flatMap((arg, at) => (["-c", "-s", "-cmd"].includes(args[at - 1] ?? "") || (database !== -1 && at > database && !(arg ?? "").startsWith("-") && !["-c", "-s", "-cmd"].includes(args[at - 1] ?? "")) ? [arg ?? "\u0001"] : [])), input.stdin ?? ""];
  if (sql.some((text) => text.includes("\u0001") || /\b(copy|export|attach|install|load)\b/i.test(text) || /(^|\n|;)\s*\.(output|once|shell|system|read|import|save|backup|log|excel|cd)\b/.test(text)) || input.fed) written.push(UNKNOWABLE);
  return written;
}

/**
 * svn's and hg's options that run a command (`--diff-cmd`, `--diff3-cmd`, `--editor-cmd`; hg's
 * `--config hooks.…`, a `--config alias.…=!…` shell alias, an extension loaded from a file, and
 * the programs of ui.editor, ui.merge, merge-tools, ui.ssh, pager.pager and email.method): any
 * file, besides what the command writes. `-R DIR`, `--cwd DIR`: the working copy is there.
 */
function withCommandOptions(rule: Rule): Rule {
  return {
    ...rule,
    writes: (input) => {
      const runs = input.args.some((arg, at) => /^--(diff3?-cmd|editor-cmd)(=|$)/.test(arg ?? "") || (/^--config(=|$)/.test(arg ?? "") && /^(hooks\.|alias\.[^=]*=\s*!|extensions\.[^=]*=\s*[^!\s]|(ui\.(editor|merge|ssh)|pager\.pager|email\.method)\s*=(?!\s*(internal)?:|\s*(true|cat|:)\s*$)|merge-tools\.)/.test((arg?.includes("=") && arg.startsWith("--config=") ? arg.slice(9) : input.args[at + 1]) ?? "")));
      // (Where `-R`/`--repository` or `--cwd` points, the working copy's commands write there.)
      const place = input.reading.value("R") ?? input.reading.value("cwd");
      const moved = place === undefined ? input : { ...input, walk: { ...input.walk, cwd: directoryAt(input.walk.cwd, place) } };
      return [...rule.writes(moved), ...(runs ? [UNKNOWABLE] : [])];
    },
  };
}

export const SITE_RULES: Record<string, Rule> = {
  hugo,
  // jekyll build (and serve, which builds first): _site/ (`-d`) and .jekyll-cache/; `new` a site.
  jekyll: bySubcommand({ short: "d:s:", long: { destination: "d", source: "s", ...valuedLong("config baseurl") } }, {
    ...Object.fromEntries(["build", "b", "serve", "s", "server"].map((sub) => [sub, (input: RuleInput) => [...outputDirectory("d", "_site", JEKYLL)(input), ...inProject(".jekyll-cache", JEKYLL)(input)]])),
    new: named(0),
  }),
  // Eleventy: _site/ (`--output`).
  eleventy: { syntax: { long: valuedLong("output input config formats pathprefix") }, writes: (input) => (asksHelp(input) || input.args.includes("--version") || input.args.includes("--dryrun") ? [] : outputDirectory("output", "_site", ["package.json"])(input)) },
  // Docusaurus: build/ (`--out-dir`), .docusaurus/; `write-translations`, `write-heading-ids`, `swizzle`, `docs:version`: the site's sources.
  docusaurus: bySubcommand({ long: valuedLong("out-dir config locale") }, {
    build: (input) => [...outputDirectory("out-dir", "build", DOCUSAURUS)(input), ...inProject(".docusaurus", DOCUSAURUS)(input)],
    start: inProject(".docusaurus", DOCUSAURUS),
    ...Object.fromEntries(["write-translations", "write-heading-ids", "swizzle", "clear", "docs:version"].map((sub) => [sub, wholeProject(DOCUSAURUS)])),
  }),
  // VitePress build [DIR]: DIR/.vitepress/dist (`--outDir`) and its cache; init: the project.
  vitepress: bySubcommand({ long: valuedLong("outDir base") }, {
    build: (input, rest) => {
      const root = directoryAt(input.walk.cwd, rest.length > 0 ? input.args[rest[0] as number] : ".");
      return input.reading.has("outDir") ? optionFiles(input, ["outDir"]).map((path) => anyUnder(directoryAt(root, path))) : [anyUnder(root === undefined ? undefined : join(root, ".vitepress"))];
    },
    init: (input) => [anyUnder(input.walk.cwd)],
  }),
  // mdBook: book/ (`-d`); init: the book's sources.
  mdbook: bySubcommand({ short: "d:", long: { "dest-dir": "d" } }, { build: outputDirectory("d", "book", ["book.toml"]), init: named(0), serve: outputDirectory("d", "book", ["book.toml"]), watch: outputDirectory("d", "book", ["book.toml"]), clean: outputDirectory("d", "book", ["book.toml"]) }),
  // Zola: public/ (`-o`); init a new site.
  zola: bySubcommand({ short: "o:r:", long: { "output-dir": "o", root: "r" } }, { build: outputDirectory("o", "public", ["config.toml", "zola.toml"]), init: named(0) }),
  // Gatsby: public/ and .cache/; new a site.
  gatsby: bySubcommand({}, { build: wholeProject(["gatsby-config.js", "gatsby-config.ts", "package.json"]), develop: wholeProject(["gatsby-config.js", "gatsby-config.ts", "package.json"]), clean: wholeProject(["gatsby-config.js", "gatsby-config.ts", "package.json"]), new: named(0) }),
  // helm template --output-dir, create NAME, pull --untar (`-d`), plus its dependency and package commands (shell-lock-rules.ts).
  // (`--post-renderer prog`: a program its install, upgrade and template run: read in turn.)
  helm: {
    runsLines: (input) => flagValues(input.args, ["post-renderer"], input.text),
    ...withMore(LOCK_RULES.helm as Rule, {
      template: (input) => input.args.flatMap((arg, at) => (arg === "--output-dir" ? [anyUnder(directoryAt(input.walk.cwd, input.args[at + 1]))] : arg?.startsWith("--output-dir=") ? [anyUnder(directoryAt(input.walk.cwd, arg.slice(13)))] : [])),
      create: named(0),
      pull: (input) => {
        const valueOf = (...names: string[]) => {
          const at = input.args.findIndex((arg) => names.includes(arg ?? "") || names.some((name) => arg?.startsWith(`${name}=`)));
          const arg = input.args[at];
          return at === -1 ? undefined : arg !== undefined && arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : (input.args[at + 1] ?? "\u0001");
        };
        const place = directoryAt(input.walk.cwd, valueOf("-d", "--destination") ?? ".");
        const untar = valueOf("--untardir");
        return [input.args.some((arg) => arg === "--untar" || arg === "--untar=true") ? anyUnder(untar === undefined ? place : directoryAt(place, untar)) : globOf(join(place ?? "/", "*.tgz"))];
      },
    }),
  },
  // kustomize build -o (`--output`); create and edit: kustomization.yaml where it runs (or `--resources`' directory given).
  kustomize: bySubcommand({ short: "o:", long: { output: "o" } }, {
    build: (input) => optionFiles(input, ["o"]).map((path) => (path.startsWith("\0") || /\.ya?ml$/.test(path) ? path : anyUnder(directoryAt(input.walk.cwd, path)))),
    create: (input) => [join(input.walk.cwd ?? "/", "kustomization.yaml")],
    edit: (input) => [globOf(join(input.walk.cwd ?? "/", "kustomization.y*ml")), globOf(join(input.walk.cwd ?? "/", "Kustomization"))],
    init: (input) => [join(input.walk.cwd ?? "/", "kustomization.yaml")],
    // localize TARGET [DEST]: DEST (else a directory named after the target, here).
    localize: (input, rest) => [anyUnder(directoryAt(input.walk.cwd, rest.length > 1 ? input.args[rest[1] as number] : `localized-${(input.args[rest[0] ?? -1] ?? ".").replace(/\/+$/, "").split("/").pop()}`))],
  }),
  // meson setup BUILDDIR (and `meson BUILDDIR`), compile/test/install -C DIR: that directory; init: the project; rewrite: meson.build.
  // (`devenv CMD`, `subprojects foreach CMD`: the command it runs, read as one.)
  meson: {
    runsArguments: true,
    syntax: { short: "C:", long: valuedLong("prefix buildtype backend native-file cross-file") },
    writes: (input) => {
      const [sub, first] = input.reading.operands.map((at) => input.args[at]);
      if (asksHelp(input) || input.args.includes("-h") || sub === undefined || ["introspect", "help", "env2mfile"].includes(sub) || input.args.includes("--version")) return [];
      // (`test --wrapper CMD` runs each test under a command of its own.)
      if (sub === "test" && input.args.some((arg) => arg === "--wrapper" || arg?.startsWith("--wrapper="))) return [UNKNOWABLE];
      if (["init", "rewrite", "format", "fmt", "wrap", "subprojects"].includes(sub)) return wholeProject(["meson.build"])(input);
      // (configure with no option only prints the build directory's settings.)
      if (sub === "configure") return input.args.some((arg) => arg?.startsWith("-D")) ? [anyUnder(directoryAt(input.walk.cwd, first ?? "."))] : [];
      if (["compile", "test", "install", "dist", "devenv"].includes(sub)) return [anyUnder(input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd)];
      // setup BUILDDIR, and `meson BUILDDIR` (setup's old form).
      return [anyUnder(directoryAt(input.walk.cwd, sub === "setup" ? (first ?? ".") : sub))];
    },
  },
  // bazel (bazelisk): build and test make the bazel-* links at the workspace's root (their outputs
  // live in the output base, outside it); run and mod tidy may change anything in the workspace.
  ...Object.fromEntries(["bazel", "bazelisk"].map((name) => [name, bySubcommand({}, {
    build: bazelLinks,
    test: bazelLinks,
    coverage: bazelLinks,
    clean: bazelLinks,
    run: wholeProject(BAZEL),
    mod: wholeProject(BAZEL),
  })])),
  // dvc: the commands that fetch, check out, add or reproduce data write the data files and their .dvc files: anything in the project.
  // (`dvc run CMD`, `stage add … CMD`: the command it runs, read as one; `get`, `get-url`, `import`: `-o`'s or the operand after the source too.)
  dvc: {
    ...bySubcommand({ short: "o:", long: { out: "o" } }, {
      ...Object.fromEntries(["pull", "checkout", "co", "repro", "add", "fetch", "commit", "move", "remove", "init", "run", "exp", "stage", "update", "unprotect", "gc", "destroy"].map((sub) => [sub, wholeProject([".dvc", ".git"])])),
      ...Object.fromEntries(["get", "get-url", "import", "import-url"].map((sub) => [sub, (input: RuleInput, rest: number[]) => [...wholeProject([".dvc", ".git"])(input), ...(input.reading.has("o") ? optionFiles(input, ["o"]) : operandFiles(input, rest.slice(sub.endsWith("-url") ? 1 : 2, sub.endsWith("-url") ? 2 : 3), []))]])),
    }),
    runsArguments: true,
  },
  mongodump: { syntax: { short: "o:", long: { out: "o", ...valuedLong("uri host port username password db collection query authenticationDatabase") } }, writes: mongodump },
  mongoexport: { syntax: { short: "o:", long: { out: "o", ...valuedLong("uri host port username password db collection query fields type authenticationDatabase") } }, writes: (input) => optionFiles(input, ["o"]) },
  // redis-cli --rdb FILE (and --functions-rdb): the snapshot it saves here.
  "redis-cli": { syntax: { short: "h:p:a:n:u:", long: valuedLong("rdb functions-rdb user pass") }, writes: (input) => optionFiles(input, ["rdb", "functions-rdb"]) },
  duckdb: { syntax: {}, writes: duckdb },
  // svn and hg: the commands that change the working copy (any file of it), or make a new one.
  svn: withCommandOptions(bySubcommand({ short: "r:m:F:", long: { revision: "r", message: "m", file: "F", ...valuedLong("username password config-dir depth diff-cmd diff3-cmd editor-cmd changelist accept") } }, {
    ...Object.fromEntries(["update", "up", "switch", "sw", "revert", "merge", "resolve", "resolved", "cleanup", "patch", "delete", "del", "remove", "rm", "move", "mv", "rename", "ren", "copy", "cp", "mkdir", "upgrade", "propset", "ps", "lock", "unlock", "changelist"].map((sub) => [sub, workingCopies(".svn")])),
    ...Object.fromEntries(["checkout", "co", "export"].map((sub) => [sub, checkoutDirectory])),
  })),
  hg: withCommandOptions(bySubcommand({ short: "R:r:", long: { repository: "R", rev: "r", ...valuedLong("cwd config") } }, {
    ...Object.fromEntries(["update", "up", "checkout", "co", "revert", "merge", "rebase", "strip", "histedit", "import", "backout", "graft", "shelve", "unshelve", "rm", "remove", "mv", "move", "rename", "cp", "copy", "purge", "resolve", "uncommit", "amend", "evolve", "fix"].map((sub) => [sub, wholeProject([".hg"])])),
    pull: (input) => (input.args.includes("-u") || input.args.includes("--update") || input.args.includes("--rebase") ? wholeProject([".hg"])(input) : []),
    clone: checkoutDirectory,
  })),
};
