// Frameworks' and code generators' own commands, which write source files of the project: Django's
// `manage.py` (makemigrations, migrate, startapp), Rails' generators and migrations, alembic's
// revisions, protoc's and buf's generated code, sqlc's, drizzle-kit's migrations, the OpenAPI
// generators' outputs, Storybook's setup, pytest's reports. Each writes where its options or its
// config file say, else its own default places; a config the hook cannot read, or an option's value
// the text does not fix, is any file.
import { dirname, isAbsolute, join } from "node:path";
import { valuedLong } from "./shell-options.js";
import { flagValues, globOf, inputProgram, loadedFiles, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { atRoot, bySubcommand, operandFiles, projectRoot } from "./shell-tool-rules.js";
import { anyUnder, configIn, directoryAt, readText, shellQuoted, UNKNOWABLE, within } from "./shell-words.js";
import { isDirectory } from "../targets/target.js";
import { readYaml, type YamlValue } from "./yaml-lite.js";

/**
 * Django (`python manage.py …`, `./manage.py …`, `django-admin …`; the project is where manage.py
 * is): makemigrations and squashmigrations write every app's migrations/, migrate the SQLite
 * databases in the project, startapp its app's directory (or the one given), startproject its
 * project's, dumpdata `-o`'s file.
 */
const DJANGO: Rule = {
  ...bySubcommand({ short: "o:v:c:i:", long: { output: "o", command: "c", interface: "i", ...valuedLong("settings pythonpath verbosity database format indent") } }, {
    makemigrations: (input) => (input.args.includes("--check") || input.args.includes("--dry-run") ? [] : [migrations(input)]),
    squashmigrations: (input) => [migrations(input)],
    migrate: (input) => (input.args.includes("--plan") || input.args.includes("--check") ? [] : [djangoRoot(input) === undefined ? UNKNOWABLE : globOf(join(djangoRoot(input) as string, "**", "*.sqlite3"))]),
    startapp: (input, rest) => startWrites(input, rest),
    startproject: (input, rest) => startWrites(input, rest),
    // collectstatic copies every app's static files into STATIC_ROOT, which the settings name: anything in the project.
    collectstatic: (input) => (input.args.includes("--dry-run") || input.args.includes("-n") ? [] : [anyUnder(djangoRoot(input))]),
    // makemessages and compilemessages: the message catalogs of every locale/ in the project.
    makemessages: (input) => [djangoRoot(input) === undefined ? UNKNOWABLE : globOf(join(djangoRoot(input) as string, "**", "locale", "**"))],
    compilemessages: (input) => [djangoRoot(input) === undefined ? UNKNOWABLE : globOf(join(djangoRoot(input) as string, "**", "locale", "**"))],
    dumpdata: (input) => (input.reading.has("o") ? [directoryAt(input.walk.cwd, input.reading.value("o")) ?? UNKNOWABLE] : []),
  }),
  // `shell -c CODE` (`--command`): Python, read as `python3 -c CODE`; without it, the Python on its input (`shell < x.py`, `shell <<EOF`).
  // `dbshell`: the database's client, given SQL on its input or its own arguments after `--`
  // (psql's `\!`, sqlite3's `.shell`, mysql's `system` run commands): any file.
  runsLines: (input) => {
    const sub = input.reading.operands[0];
    if (sub !== undefined && input.args[sub] === "dbshell") return input.stdin !== undefined || input.fed === true || input.args.indexOf("--", sub) !== -1 ? [undefined] : [];
    if (sub === undefined || input.args[sub] !== "shell") return [];
    if (input.reading.has("c")) return input.reading.values("c").map((code) => (code === undefined ? undefined : `python3 -c ${shellQuoted(code)}`));
    return inputProgram(input, "python3");
  },
};

function djangoRoot(input: RuleInput): string | undefined {
  return projectRoot(input.walk.cwd, ["manage.py"]);
}

function migrations(input: RuleInput): string {
  const root = djangoRoot(input);
  return root === undefined ? UNKNOWABLE : globOf(join(root, "**", "migrations", "**"));
}

/** startapp NAME [DIR], startproject NAME [DIR]: DIR, else NAME where it runs. */
function startWrites(input: RuleInput, rest: number[]): string[] {
  const [name, place] = rest.map((at) => input.args[at]);
  if (place !== undefined || rest.length > 1) return [anyUnder(directoryAt(input.walk.cwd, place))];
  return [anyUnder(directoryAt(input.walk.cwd, name))];
}

/**
 * Rails (`rails`, `bin/rails`, `bundle exec rails`): generate (g) and destroy (d) write the app's
 * sources, tests, migrations, routes and locales; the db: tasks its schema and SQLite databases;
 * new its application's directory.
 */
const RAILS: Rule = {
  syntax: {},
  writes: (input) => {
    const sub = input.args[0];
    if (sub === undefined) return [];
    if (sub === "new") return [anyUnder(railsApp(input))];
    const root = projectRoot(input.walk.cwd, ["Gemfile", "config.ru"]);
    const under = (name: string) => anyUnder(root === undefined ? undefined : join(root, name));
    if (["generate", "g", "destroy", "d"].includes(sub)) return [under("app"), under("db"), under("test"), under("spec"), under("lib"), ...atRoot(root, ["config/routes.rb"]), under("config/locales")];
    // credentials:edit runs an editor on the credentials file: any file.
    if (/^(credentials|secrets|encrypted):edit$/.test(sub)) return [UNKNOWABLE];
    if (/^db:(migrate|rollback|schema:load|setup|reset|prepare|create|drop|seed|seed:replant)$/.test(sub)) return [under("db"), under("storage")];
    return [];
  },
  // `rails runner CODE` (`r`): Ruby in the application, read as `ruby -e CODE`; `rails runner x.rb`, as `ruby x.rb`.
  runsProgram: { after: ["runner", "r"], interpreter: "ruby", code: "-e", valued: ["-e", "--environment"] },
  // `rails console` (`c`) given Ruby on its input (`< x.rb`, `echo 'code' | rails c`), read as
  // `ruby -`; an application template (`new APP -m x.rb`, in APP; `app:template LOCATION=x.rb`),
  // as `ruby x.rb` (one at a URL: any file).
  runsLines: (input) => {
    const sub = input.args[0];
    if (sub === "console" || sub === "c") return inputProgram(input, "ruby");
    // `rails dbconsole` (`db`) given SQL on its input: the database's client runs it (psql's `\!` runs a command): any file.
    if (sub === "dbconsole" || sub === "db") return input.stdin !== undefined || input.fed === true ? [undefined] : [];
    const cwd = input.walk.cwd;
    const template = (location: string | undefined, where: string | undefined) => {
      if (location === undefined || /^[a-z][\w+.-]*:\/\//i.test(location) || (cwd === undefined && !isAbsolute(location))) return undefined;
      return where === cwd ? `ruby ${shellQuoted(location)}` : { script: `ruby ${shellQuoted(within(cwd, location))}`, cwd: where };
    };
    if (sub === "new") return flagValues(input.args, ["m", "template"], input.text).map((location) => template(location, railsApp(input)));
    if (sub === "app:template") {
      const given = input.args.find((arg) => arg === undefined || arg.startsWith("LOCATION="));
      return given !== undefined || Object.hasOwn(input.walk.environment, "LOCATION") ? [template(given === undefined ? input.walk.environment.LOCATION : given.slice("LOCATION=".length), cwd)] : [];
    }
    return [];
  },
};

/** The options of `rails new` that take a value as the next word (`-m x.rb`, `-d postgresql`). */
const RAILS_NEW_VALUED = /^(-[mdjcar]|--(template|database|javascript|css|asset-pipeline|ruby|rc|name))$/;

/** The directory `rails new APP` makes: its first operand, past its options' values. */
function railsApp(input: RuleInput): string | undefined {
  const app = input.args.findIndex((arg, at) => at > 0 && (arg === undefined || !arg.startsWith("-")) && !RAILS_NEW_VALUED.test(input.args[at - 1] ?? ""));
  return directoryAt(input.walk.cwd, app === -1 ? undefined : input.args[app]);
}

/** alembic revision (autogenerate or not): a new file in the versions directory alembic.ini's `script_location` names; init DIR: DIR and alembic.ini. */
const ALEMBIC: Rule = bySubcommand({ short: "c:n:x:", long: { config: "c", name: "n", ...valuedLong("raiseerr") } }, {
  revision: (input) => [alembicVersions(input)],
  merge: (input) => [alembicVersions(input)],
  init: (input, rest) => {
    const directory = directoryAt(input.walk.cwd, input.args[rest[0] ?? -1]);
    return [anyUnder(directory), ...atRoot(input.walk.cwd, ["alembic.ini"])];
  },
});

function alembicVersions(input: RuleInput): string {
  const ini = input.reading.has("c") ? directoryAt(input.walk.cwd, input.reading.value("c")) : input.walk.cwd === undefined ? undefined : join(input.walk.cwd, "alembic.ini");
  const text = ini === undefined ? undefined : readText(ini);
  if (ini === undefined || text === undefined) return UNKNOWABLE;
  const location = /^\s*script_location\s*=\s*(.+?)\s*$/m.exec(text)?.[1]?.replace(/%\(here\)s/g, dirname(ini));
  const versions = /^\s*version_locations\s*=\s*(.+?)\s*$/m.exec(text)?.[1];
  if (location === undefined || /[%$]/.test(location) || (versions !== undefined && /[%$]/.test(versions.replace(/%\(here\)s/g, "")))) return UNKNOWABLE;
  return anyUnder(versions !== undefined ? directoryAt(dirname(ini), versions.replace(/%\(here\)s/g, dirname(ini)).split(/[\s,]+/)[0]) : directoryAt(dirname(ini), join(location, "versions")));
}

/** protoc: each `--X_out=[opts:]DIR` (and `--X_out DIR`) plugin's output directory, and `-o`/`--descriptor_set_out`'s file. */
const PROTOC: Rule = {
  syntax: {},
  writes: (input) => {
    const places: string[] = [];
    for (const [at, arg] of input.args.entries()) {
      if (arg === undefined) continue;
      const out = /^--([\w-]+)_out(?:=(.*))?$/.exec(arg);
      const descriptor = /^(?:--descriptor_set_out|-o)(?:=?(.+))?$/.exec(arg);
      if (out) {
        const value = out[2] ?? input.args[at + 1];
        // (`--go_out=plugins=grpc:gen`: the directory after the options' colon; a zip or jar is a file.)
        places.push(value === undefined ? UNKNOWABLE : anyUnder(directoryAt(input.walk.cwd, value.replace(/^[^:]*:(?!\/\/)/, ""))));
      } else if (descriptor) {
        const value = descriptor[1] ?? input.args[at + 1];
        places.push(value === undefined ? UNKNOWABLE : (directoryAt(input.walk.cwd, value) ?? UNKNOWABLE));
      }
    }
    return places;
  },
};

/**
 * The values of `keys` (`out`) anywhere in a YAML config, each a directory relative to `at`;
 * undefined where the file cannot be read, or names none (the generator writes where the hook
 * cannot see).
 */
function outsOf(file: string | undefined, at: string | undefined, keys = ["out"]): string[] | undefined {
  const text = file === undefined ? undefined : readText(file);
  const document = text === undefined ? undefined : readYaml(text);
  if (document === undefined || at === undefined) return undefined;
  const found: string[] = [];
  const walk = (value: YamlValue) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object") for (const [key, inner] of Object.entries(value)) (keys.includes(key) && typeof inner === "string" ? found.push(anyUnder(directoryAt(at, inner))) : walk(inner));
  };
  walk(document);
  return found.length === 0 ? undefined : found;
}

/**
 * buf generate: each plugin's `out` in buf.gen.yaml (`--template`'s file), or `-o`'s directory they
 * are under; buf format: its input (a directory, here with none) with `-w`, and `-o`'s file or directory.
 */
const BUF: Rule = bySubcommand({ short: "o:wd", long: { output: "o", write: "w", diff: "d", ...valuedLong("template path exclude-path config error-format") } }, {
  format: (input, rest) => [...optionFiles(input, ["o"]), ...(input.reading.has("w") ? operandFiles(input, rest) : [])],
  generate: (input) => {
    const template = input.reading.has("template") ? directoryAt(input.walk.cwd, input.reading.value("template")) : configIn(input.walk.cwd, ["buf.gen.yaml", "buf.gen.yml"]);
    const base = input.reading.has("o") ? directoryAt(input.walk.cwd, input.reading.value("o")) : input.walk.cwd;
    return outsOf(template, base) ?? [UNKNOWABLE];
  },
});

/** sqlc generate: each `out` in sqlc.yaml (version 1: each package's `path`; sqlc.json: any file), relative to it. */
const SQLC: Rule = bySubcommand({ short: "f:", long: { file: "f" } }, {
  generate: (input) => {
    const file = input.reading.has("f") ? directoryAt(input.walk.cwd, input.reading.value("f")) : configIn(input.walk.cwd, ["sqlc.yaml", "sqlc.yml"]);
    return outsOf(file, file === undefined ? undefined : dirname(file), ["out", "path"]) ?? [UNKNOWABLE];
  },
});

/**
 * drizzle-kit generate (and introspect/pull, which write the schema there too): the `out`
 * directory drizzle.config names (a string literal; else `drizzle/`); `--out` overrides it.
 */
const DRIZZLE: Rule = bySubcommand({ long: valuedLong("config out dialect schema name") }, Object.fromEntries(["generate", "introspect", "pull", "up", "drop"].map((sub) => [sub, (input: RuleInput) => drizzleOut(input)])));

function drizzleOut(input: RuleInput): string[] {
  const cwd = input.walk.cwd;
  if (input.reading.has("out")) return [anyUnder(directoryAt(cwd, input.reading.value("out")))];
  const config = input.reading.has("config") ? directoryAt(cwd, input.reading.value("config")) : configIn(cwd, ["drizzle.config.ts", "drizzle.config.js", "drizzle.config.mjs", "drizzle.config.cjs", "drizzle.config.mts", "drizzle.config.json"]);
  const text = config === undefined ? undefined : readText(config);
  const root = config === undefined ? cwd : dirname(config);
  if (text === undefined) return [anyUnder(root === undefined ? undefined : join(root, "drizzle"))];
  const out = /\bout"?\s*:\s*["'`]([^"'`$]+)["'`]/.exec(text)?.[1];
  if (out === undefined && /\bout"?\s*:/.test(text)) return [UNKNOWABLE];
  return [anyUnder(directoryAt(root, out ?? "drizzle"))];
}

/** openapi-typescript SPEC -o FILE; openapi-generator(-cli) generate -o DIR: what they name. */
const OPENAPI_TYPESCRIPT: Rule = { syntax: { short: "o:", long: { output: "o", ...valuedLong("redocly enum-values alphabetize") } }, writes: (input) => (input.reading.has("o") ? [directoryAt(input.walk.cwd, input.reading.value("o")) ?? UNKNOWABLE] : []) };
const OPENAPI_GENERATOR: Rule = bySubcommand({ short: "i:g:o:c:t:", long: { "input-spec": "i", "generator-name": "g", output: "o", config: "c", "template-dir": "t" } }, {
  generate: (input) => [anyUnder(input.reading.has("o") ? directoryAt(input.walk.cwd, input.reading.value("o")) : input.walk.cwd)],
});

/** storybook init (also `npx storybook@latest init`): .storybook/, the example stories, and what it installs. */
const STORYBOOK: Rule = bySubcommand({ long: valuedLong("type package-manager builder") }, {
  init: (input) => {
    const root = projectRoot(input.walk.cwd, ["package.json"]);
    const under = (name: string) => anyUnder(root === undefined ? undefined : join(root, name));
    return [under(".storybook"), under("src/stories"), under("stories"), ...atRoot(root, ["package.json", "package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock"]), under("node_modules")];
  },
});

/**
 * pytest's reports: `--junitxml`/`--junit-xml`, `--html` (pytest-html), `--resultlog`, the
 * coverage reports `--cov-report=html:DIR`/`xml:FILE`/`json:FILE`/`lcov:FILE` (and .coverage with
 * `--cov`), `--basetemp`'s directory, and snapshots `--snapshot-update` (syrupy) rewrites
 * (`__snapshots__/` anywhere under where it runs). Its own .pytest_cache/ is not judged.
 */
const PYTEST: Rule = {
  syntax: { long: valuedLong("junitxml junit-xml html resultlog cov cov-report cov-config basetemp rootdir confcutdir") },
  writes: (input) => {
    const { reading, walk, args } = input;
    const cwd = walk.cwd;
    const files = (key: string) => reading.values(key).map((value) => (value === undefined ? UNKNOWABLE : (directoryAt(cwd, value) ?? UNKNOWABLE)));
    const reports = reading.values("cov-report").flatMap((value) => {
      if (value === undefined) return [UNKNOWABLE];
      const [kind, place] = value.split(":", 2) as [string, string | undefined];
      if (place === undefined) return kind === "html" ? [anyUnder(directoryAt(cwd, "htmlcov"))] : kind === "term" || kind === "term-missing" ? [] : [directoryAt(cwd, `coverage.${kind === "lcov" ? "lcov" : kind}`) ?? UNKNOWABLE];
      return kind === "html" ? [anyUnder(directoryAt(cwd, place))] : [directoryAt(cwd, place) ?? UNKNOWABLE];
    });
    const coverage = reading.has("cov") || args.some((arg) => arg === "--cov") ? [directoryAt(cwd, ".coverage") ?? UNKNOWABLE] : [];
    const basetemp = reading.has("basetemp") ? [anyUnder(directoryAt(cwd, reading.value("basetemp")))] : [];
    const snapshots = args.includes("--snapshot-update") ? [cwd === undefined ? UNKNOWABLE : globOf(join(cwd, "**", "__snapshots__", "**"))] : [];
    // inline-snapshot's `--inline-snapshot=fix|create|update|trim` rewrites the test files; pytest-regressions' `--force-regen`/`--regen-all` their data files: anything under where it runs.
    if (args.some((arg) => arg === "--force-regen" || arg === "--regen-all" || (arg !== undefined && /^--inline-snapshot=(?!disable|review|report|short-report)/.test(arg)))) snapshots.push(anyUnder(cwd));
    return [...files("junitxml"), ...files("junit-xml"), ...files("html"), ...files("resultlog"), ...reports, ...coverage, ...basetemp, ...snapshots];
  },
};

/** The file a Go-style flag names (`-output=f`, `-output f`, `--output=f`), judged where the command runs; one the text does not fix: any file. */
function goFlagFiles(input: RuleInput, name: string): string[] {
  const found: string[] = [];
  input.args.forEach((arg, at) => {
    const inline = arg === undefined ? undefined : new RegExp(`^--?${name}=(.*)$`).exec(arg);
    const value = inline ? inline[1] : arg === `-${name}` || arg === `--${name}` ? (at + 1 < input.args.length ? (input.args[at + 1] ?? null) : undefined) : undefined;
    if (arg === undefined && new RegExp(`^["']?--?${name}=`).test(input.text(at) ?? "")) found.push(UNKNOWABLE);
    else if (value === null) found.push(UNKNOWABLE);
    else if (value !== undefined && value !== "") found.push(directoryAt(input.walk.cwd, value) ?? UNKNOWABLE);
  });
  return found;
}

/** stringer's flags that take a value (`-type Color` or `-type=Color`); its other words are the package: one directory, or its files. */
const STRINGER_VALUED = /^--?(type|output|trimprefix|tags)$/;

/**
 * stringer: `-output`'s file, else `<type>_string.go`, the first `-type`'s name lower-cased, in the
 * package's directory (its directory operand, or its files', else where it runs); a type the text
 * does not fix, any `_string.go` there.
 */
function stringer(input: RuleInput): string[] {
  if (input.args.some((arg) => arg !== undefined && /^--?output(=|$)/.test(arg))) return goFlagFiles(input, "output");
  let types: string | null | undefined = null; // null: none given; undefined: one the text does not fix
  const operands: Array<string | undefined> = [];
  for (let at = 0; at < input.args.length; at++) {
    const arg = input.args[at];
    const inline = arg === undefined ? undefined : /^--?type=(.*)$/.exec(arg)?.[1];
    if (inline !== undefined) types = inline;
    else if (arg === "-type" || arg === "--type") types = input.args[++at];
    else if (arg === undefined && /^["']?--?type=/.test(input.text(at) ?? "")) types = undefined;
    else if (arg !== undefined && STRINGER_VALUED.test(arg)) at++;
    else if (arg === undefined || !arg.startsWith("-")) operands.push(arg);
  }
  if (types === null) return []; // stringer stops: -type is required
  const first = operands[0];
  const directory = first === undefined ? (operands.length > 0 ? undefined : input.walk.cwd) : directoryAt(input.walk.cwd, first.endsWith(".go") ? dirname(first) : first);
  if (directory === undefined) return [UNKNOWABLE];
  return [types === undefined ? globOf(join(directory, "*_string.go")) : join(directory, `${(types.split(",")[0] as string).toLowerCase()}_string.go`)];
}

/**
 * graphql-codegen (`gql-gen`): the outputs its config's `generates` keys name (a key ending in `/`,
 * or a preset's directory, anything under it), from `-c`/`--config`'s file, else codegen.yml,
 * codegen.yaml, codegen.json, codegen.ts or codegen.js where it runs. A config whose outputs this
 * does not find (computed keys, another format): any file.
 */
const GRAPHQL_CODEGEN: Rule = {
  runsLines: loadedFiles(["r", "require"], "node"), // (`-r ./setup.js`: loaded first)
  syntax: { short: "c:p:", long: { config: "c", project: "p", ...valuedLong("require overwrite errors-only profile") } },
  writes: (input) => {
    const { reading, walk } = input;
    if (input.args.some((arg) => arg === "--help" || arg === "-h" || arg === "--version" || arg === "init" || arg === "--check")) return [];
    const cwd = walk.cwd;
    const config = reading.has("c") ? directoryAt(cwd, reading.value("c")) : cwd === undefined ? undefined : ["codegen.yml", "codegen.yaml", "codegen.json", "codegen.ts", "codegen.js", "codegen.cjs", "codegen.mjs"].map((name) => join(cwd, name)).find((path) => readText(path) !== undefined);
    if (config === undefined) return reading.has("c") || cwd === undefined ? [UNKNOWABLE] : [];
    const text = readText(config);
    if (text === undefined) return [UNKNOWABLE];
    let keys: string[] | undefined;
    if (/\.ya?ml$/.test(config)) {
      const document = readYaml(text);
      const generates = document !== undefined && typeof document === "object" && !Array.isArray(document) ? document.generates : undefined;
      keys = generates !== undefined && typeof generates === "object" && !Array.isArray(generates) ? Object.keys(generates) : undefined;
    } else if (config.endsWith(".json")) {
      try {
        const generates = (JSON.parse(text) as { generates?: unknown }).generates;
        keys = generates !== null && typeof generates === "object" ? Object.keys(generates as object) : undefined;
      } catch {
        keys = undefined;
      }
    } else {
      // A config in code: the string keys of its `generates: { … }` object, where each is written out.
      const block = /\bgenerates\s*:\s*\{([\s\S]*)$/.exec(text)?.[1];
      const found = block === undefined ? [] : [...block.matchAll(/(?:^|[{,\n])\s*(["'`])([^"'`$\n]+)\1\s*:\s*\{/g)].map((match) => match[2] as string);
      keys = found.length > 0 && !/\[\s*[\w`]/.test(block ?? "") ? found : undefined;
    }
    if (keys === undefined || keys.length === 0) return [UNKNOWABLE];
    const base = dirname(config);
    return keys.map((key) => (key.endsWith("/") ? anyUnder(directoryAt(base, key)) : (directoryAt(base, key) ?? UNKNOWABLE)));
  },
};

const TWO_TO_THREE: Rule = {
  syntax: { short: "wWnf:x:j:o:p", long: { write: "w", "write-unchanged-files": "W", nobackups: "n", fix: "f", nofix: "x", processes: "j", "output-dir": "o", "print-function": "p", ...valuedLong("add-suffix") } },
  writes: (input) => {
    const { reading, walk } = input;
    if (!reading.has("w") && !reading.has("W")) return [];
    if (reading.has("o")) return [anyUnder(directoryAt(walk.cwd, reading.value("o")))];
    const files = operandFiles(input, reading.operands);
    // (A directory: its python files, each with its .bak.)
    return [...files.map((file) => (isDirectory(file) ? globOf(join(file, "**", "*.py")) : file)), ...(reading.has("n") ? [] : files.map((file) => (isDirectory(file) ? globOf(join(file, "**", "*.py.bak")) : `${file}.bak`)))];
  },
};

/** Every package.json of the workspace around cwd (from the outermost package up), not node_modules' own. */
function manifestsUnder(cwd: string | undefined): string[] {
  const root = projectRoot(cwd, ["package.json"]);
  return [root === undefined ? UNKNOWABLE : globOf(join(root, "**", "package.json"))];
}

export const CODEGEN_RULES: Record<string, Rule> = {
  pytest: PYTEST,
  "py.test": PYTEST,
  "manage.py": DJANGO,
  "django-admin": DJANGO,
  rails: RAILS,
  alembic: ALEMBIC,
  protoc: PROTOC,
  // `python -m grpc_tools.protoc --python_out=. a.proto`: grpcio-tools' protoc, run as that module.
  "grpc_tools.protoc": PROTOC,
  buf: BUF,
  sqlc: SQLC,
  "drizzle-kit": DRIZZLE,
  "openapi-typescript": OPENAPI_TYPESCRIPT,
  "openapi-generator": OPENAPI_GENERATOR,
  "openapi-generator-cli": OPENAPI_GENERATOR,
  // swagger-codegen (v2's `-l`, v3's `-l`/`--lang`): its generate as openapi-generator's.
  "swagger-codegen": OPENAPI_GENERATOR,
  "swagger-codegen-cli": OPENAPI_GENERATOR,
  "swagger-codegen3": OPENAPI_GENERATOR,
  storybook: STORYBOOK,
  // Generators and formatters that write the file an option names: quicktype -o, json-schema-to-typescript's json2ts -o, xmllint --output.
  quicktype: { syntax: { short: "o:l:s:t:", long: { out: "o", lang: "l", "src-lang": "s", "top-level": "t", ...valuedLong("src src-urls additional-schema") } }, writes: (input) => optionFiles(input, ["o"]) },
  json2ts: { syntax: { short: "i:o:c:", long: { input: "i", output: "o", cwd: "c", ...valuedLong("bannerComment style") } }, writes: (input) => (input.reading.has("o") ? optionFiles(input, ["o"]) : input.reading.operands.length > 1 ? operandFiles(input, input.reading.operands.slice(1)) : []) },
  xmllint: { syntax: { short: "o:", long: { output: "o", ...valuedLong("path load-trace dtdvalid dtdvalidfpi relaxng schema schematron encoding pattern xpath maxmem") } }, writes: (input) => optionFiles(input, ["o"]) },
  // Go's and protobuf's generators and schema-to-code tools, each writing the file (or directory) an option names.
  mockgen: { syntax: {}, writes: (input) => goFlagFiles(input, "destination") },
  stringer: { syntax: {}, writes: stringer },
  "oapi-codegen": { syntax: { short: "o:", long: { o: "o", ...valuedLong("config package generate include-tags exclude-tags templates import-mapping") } }, writes: (input) => optionFiles(input, ["o"]) },
  "kysely-codegen": { syntax: { long: valuedLong("out-file dialect url env-file camel-case include-pattern exclude-pattern") }, writes: (input) => optionFiles(input, ["out-file"]) },
  "datamodel-codegen": { syntax: { long: valuedLong("output input input-file-type output-model-type class-name base-class") }, writes: (input) => optionFiles(input, ["output"]) },
  pbjs: { syntax: { short: "o:t:w:p:", long: { out: "o", target: "t", wrap: "w", path: "p" } }, writes: (input) => optionFiles(input, ["o"]) },
  pbts: { syntax: { short: "o:n:", long: { out: "o", name: "n" } }, writes: (input) => optionFiles(input, ["o"]) },
  // 2to3 (`python3 -m lib2to3`) -w rewrites the files it is given (anything under a directory), keeping a .bak beside each unless -n; -o writes them there instead.
  "2to3": TWO_TO_THREE,
  lib2to3: TWO_TO_THREE,
  // Manifest writers: syncpack's fixing commands every package.json of the workspace, taze -w the manifests it checks (-r: every one below), json -I the files -f names.
  syncpack: { syntax: { long: valuedLong("config source filter types") }, writes: (input) => (["fix-mismatches", "format", "set-semver-ranges", "update", "fix", "prompt"].includes(input.args[input.reading.operands[0] ?? -1] ?? "") ? manifestsUnder(input.walk.cwd) : []) },
  taze: { syntax: { short: "wrC:", long: { write: "w", recursive: "r", cwd: "C" } }, writes: (input) => (input.reading.has("w") ? (input.reading.has("r") ? manifestsUnder(input.walk.cwd) : atRoot(projectRoot(input.walk.cwd, ["package.json"]), ["package.json"])) : []) },
  json: { syntax: { short: "If:", long: { "in-place": "I", file: "f" } }, writes: (input) => (input.reading.has("I") ? optionFiles(input, ["f"]) : []) },
  "graphql-codegen": GRAPHQL_CODEGEN,
  "gql-gen": GRAPHQL_CODEGEN,
  "graphql-code-generator": GRAPHQL_CODEGEN,
};
