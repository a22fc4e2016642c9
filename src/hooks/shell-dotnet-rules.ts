// .NET's commands beyond the builds shell-tool-rules.ts reads (every bin/ and obj/, `dotnet add`,
// `dotnet format`): `dotnet new` (what a template makes, and where), `dotnet sln add`/`remove` (the
// solution file), Entity Framework's `dotnet ef` (migrations and scaffolded code, in the project),
// local `dotnet tool install` (the tool manifest), and the places a build's, a pack's or a test
// run's options send their output to (`-o`, `--results-directory`, a logger's TestResults/).
// Options are read as System.CommandLine reads them: `-o dir`, `--output dir`, `--output=dir` and
// `--output:dir`, never a cluster (`-bl`, `-p:x=y` and the like are msbuild's switches, one word each).
import { dirname, join } from "node:path";
import { exists } from "../targets/target.js";
import { globOf, type Rule, type RuleInput } from "./shell-rule.js";
import { atRoot, TOOL_RULES, withMore } from "./shell-tool-rules.js";
import { ancestorsHolding, anyIn, anyUnder, directoryAt, HOLE, UNKNOWABLE } from "./shell-words.js";

interface DotnetOptions {
  /** The words that are neither an option nor the value of one that takes a value. */
  operands: number[];
  has: (...names: string[]) => boolean;
  /** Each value the options named are given, in order: undefined where the text does not fix it. */
  values: (...names: string[]) => Array<string | undefined>;
}

/** A subcommand's options, from the word after it: `valued` take a value, attached or the next word; `--` ends them (`dotnet run -- -o x` is the program's). */
function dotnetOptions(input: RuleInput, valued: string[]): DotnetOptions {
  const given: Array<{ name: string; value: string | undefined }> = [];
  const operands: number[] = [];
  // The subcommand is the first operand (withMore picked it).
  for (let at = (input.reading.operands[0] ?? input.args.length) + 1; at < input.args.length; at++) {
    // A word the text does not fix is read by what it fixes (`--output="$d"`: the option, its value unknown).
    const word = input.args[at] ?? input.text(at) ?? HOLE;
    if (word === "--") break;
    if (!word.startsWith("-") || word === "-") {
      operands.push(at);
      continue;
    }
    const [name = "", attached] = word.split(/[=:](.*)/s);
    if (valued.includes(name) && attached === undefined) given.push({ name, value: input.args[++at] });
    else given.push({ name, value: attached === undefined || attached.includes(HOLE) || input.args[at] === undefined ? undefined : attached });
  }
  const named = (names: string[]) => given.filter((option) => names.includes(option.name));
  return { operands, has: (...names) => named(names).length > 0, values: (...names) => named(names).map((option) => option.value) };
}

const HELP = ["-h", "--help", "-?"];

/** The solutions in a directory: a .sln or a .slnx (.NET 9's XML format). */
const solutionsIn = (directory: string | undefined) => (directory === undefined ? [UNKNOWABLE] : [globOf(join(directory, "*.sln")), globOf(join(directory, "*.slnx"))]);

/** Templates that make one file of a fixed name where they write (`-o`'s directory, else here). */
const FILE_TEMPLATES: Record<string, string> = {
  gitignore: ".gitignore",
  editorconfig: ".editorconfig",
  globaljson: "global.json",
  "global.json": "global.json",
  nugetconfig: "nuget.config",
  webconfig: "web.config",
  "tool-manifest": ".config/dotnet-tools.json",
  buildprops: "Directory.Build.props",
  buildtargets: "Directory.Build.targets",
  packagesprops: "Directory.Packages.props",
};

/** Item templates: files named after `-n` in the directory they write to (a class, a page, a component), no directory of their own. */
const ITEM_TEMPLATES = new Set(["class", "interface", "enum", "record", "struct", "apicontroller", "mvccontroller", "razorcomponent", "page", "view", "viewimports", "viewstart", "proto"]);

/** The SDK's project templates, which make their project in a directory named after `-n` when no `-o` is given. */
const PROJECT_TEMPLATES = new Set(
  `console classlib web webapi webapiaot webapp razor mvc blazor blazorwasm blazorserver worker grpc razorclasslib xunit xunit3 nunit mstest
  nunit-playwright mstest-playwright wpf wpflib wpfcustomcontrollib wpfusercontrollib winforms winformslib winformscontrollib maui mauilib angular react`.split(/\s+/),
);

/** `dotnet new`'s own commands that manage or list templates: nothing of the project's (`create` names the template after it). */
const TEMPLATE_COMMANDS = new Set(["list", "search", "install", "uninstall", "update", "details"]);

/**
 * `dotnet new TEMPLATE [-n NAME] [-o DIR]`: what the template makes, under `-o`'s directory, else
 * under ./NAME for a project template given `-n`, else here: anything under it. A file template
 * (`gitignore`, `tool-manifest`, `sln`…) its one file there; an item template (`class`, `page`…)
 * files directly in it. A template it does not know may be either: anything under here.
 */
function dotnetNew(input: RuleInput): string[] {
  const { args, walk } = input;
  const options = dotnetOptions(input, ["-o", "--output", "-n", "--name", "-f", "--framework", "-lang", "--language", "--type", "--project", "-au", "--auth"]);
  if (options.has(...HELP, "--dry-run", "-l", "--list", "--search", "-i", "--install", "-u", "--uninstall", "--update-check", "--update-apply")) return [];
  const first = options.operands[args[options.operands[0] ?? -1] === "create" ? 1 : 0]; // (`dotnet new create console`: .NET 7's explicit form)
  if (first === undefined) return []; // `dotnet new` alone lists the templates
  const template = args[first]; // (undefined: a name the text does not fix)
  if (template !== undefined && TEMPLATE_COMMANDS.has(template)) return [];
  const output = options.has("-o", "--output");
  const where = output ? directoryAt(walk.cwd, options.values("-o", "--output").at(-1)) : walk.cwd;
  const name = options.values("-n", "--name").at(-1);
  if (template !== undefined && Object.hasOwn(FILE_TEMPLATES, template)) return atRoot(where, [FILE_TEMPLATES[template] as string]);
  if (template === "sln" || template === "solution") {
    return name !== undefined ? atRoot(where, [`${name}.sln`, `${name}.slnx`]) : solutionsIn(where);
  }
  if (template !== undefined && ITEM_TEMPLATES.has(template)) return [anyIn(where)];
  if (!output && name !== undefined && template !== undefined && PROJECT_TEMPLATES.has(template)) return [anyUnder(directoryAt(walk.cwd, name))];
  return [anyUnder(where)];
}

/**
 * `dotnet sln [SLN] add|remove …` (`dotnet solution`, .NET 10's name): the solution given (a
 * directory: the one in it), else the one here; `migrate` writes a .slnx beside it. `list` prints.
 */
function dotnetSolution(input: RuleInput): string[] {
  const { args, walk } = input;
  const options = dotnetOptions(input, ["-s", "--solution-folder"]);
  const [first, second] = options.operands;
  if (options.has(...HELP) || first === undefined) return [];
  const actions = ["add", "remove", "list", "migrate"];
  // The solution comes first when the first word is no action (`dotnet sln App.sln add x`); a word
  // the text does not fix is the solution when an action follows it, else the action.
  const named = args[first] === undefined ? actions.includes(args[second ?? -1] ?? "") : !actions.includes(args[first] as string);
  const action = named ? second : first;
  if (action === undefined || !["add", "remove", "migrate", undefined].includes(args[action])) return [];
  const given = named ? directoryAt(walk.cwd, args[first]) : walk.cwd;
  const file = given !== undefined && /\.slnx?$/.test(given) ? given : undefined;
  if (args[action] === "migrate") return file !== undefined ? [file.replace(/\.slnx?$/, ".slnx")] : given === undefined ? [UNKNOWABLE] : [globOf(join(given, "*.slnx"))];
  return file !== undefined ? [file] : solutionsIn(given);
}

/** `dotnet ef`'s options that take a value (`-o` is `--output-dir` for code it generates, `--output` for a file). */
const EF_VALUED = `-p --project -s --startup-project -o --output --output-dir -c --context --context-dir -n --namespace --context-namespace --framework
  --configuration --runtime -r --target-runtime --msbuildprojectextensionspath -t --table --schema --connection --provider`.split(/\s+/);

/**
 * Entity Framework's `dotnet ef` (its options before or after the command): `migrations add` and
 * `remove` write the migration and the model snapshot where the project keeps them (Migrations/,
 * `-o`'s, or beside an existing snapshot), `dbcontext scaffold` and `optimize` the code they
 * generate (`-o`, `--context-dir`, relative to the project): anything under the project (`-p`'s,
 * else here), and a directory such an option names outside it. `migrations script` and `dbcontext
 * script` write `-o`'s file (else they print); `migrations bundle` its executable (`efbundle`
 * here). `list`, `info`, `has-pending-model-changes` only print.
 */
function dotnetEf(input: RuleInput): string[] {
  const { args, walk } = input;
  const options = dotnetOptions(input, EF_VALUED);
  if (options.has(...HELP)) return [];
  const [group, action] = options.operands.map((at) => args[at]);
  const place = options.has("-p", "--project") ? directoryAt(walk.cwd, options.values("-p", "--project").at(-1)) : walk.cwd;
  const project = place !== undefined && /\.(cs|fs|vb)proj$/.test(place) ? dirname(place) : place;
  const outside = (...names: string[]) =>
    options.values(...names).flatMap((value) => {
      const directory = project === undefined ? undefined : directoryAt(project, value);
      return directory !== undefined && (directory === project || directory.startsWith(`${project}/`)) ? [] : [anyUnder(directory)];
    });
  const file = (otherwise: string[]) => (options.has("-o", "--output") ? options.values("-o", "--output").map((value) => directoryAt(walk.cwd, value) ?? UNKNOWABLE) : otherwise);
  // A command the text does not fix (`dotnet ef migrations "$a" x`) may be any of them.
  if (options.operands.slice(0, 2).some((at) => args[at] === undefined)) return [anyUnder(project), ...file([])];
  if (group === "migrations" && (action === "add" || action === "remove")) return [anyUnder(project), ...outside("-o", "--output-dir")];
  if (group === "dbcontext" && action === "scaffold") return [anyUnder(project), ...outside("-o", "--output-dir", "--context-dir")];
  if (group === "dbcontext" && action === "optimize") return [anyUnder(project), ...outside("-o", "--output-dir")];
  if ((group === "migrations" || group === "dbcontext") && action === "script") return file([]);
  if (group === "migrations" && action === "bundle") return file(atRoot(walk.cwd, ["efbundle", "efbundle.exe"]));
  return [];
}

/** The names of a local tool manifest, in the directories from where dotnet runs up. */
const TOOL_MANIFESTS = [join(".config", "dotnet-tools.json"), "dotnet-tools.json"];

/**
 * `dotnet tool install|update|uninstall` of a local tool (not `-g`/`--global`, not `--tool-path`):
 * the manifest `--tool-manifest` names, else the nearest from here up, else the one it makes here
 * (.config/dotnet-tools.json). `restore` puts the tools in NuGet's cache; `list`, `search` print.
 */
function dotnetTool(input: RuleInput): string[] {
  const { args, walk } = input;
  const options = dotnetOptions(input, ["--tool-manifest", "--tool-path", "--version", "--framework", "-a", "--arch", "--add-source", "--configfile", "-v", "--verbosity"]);
  const action = args[options.operands[0] ?? -1];
  if (options.has(...HELP, "-g", "--global", "--tool-path") || !["install", "update", "uninstall"].includes(action ?? "")) return [];
  if (options.has("--tool-manifest")) return options.values("--tool-manifest").map((value) => directoryAt(walk.cwd, value) ?? UNKNOWABLE);
  if (walk.cwd === undefined) return [UNKNOWABLE];
  const found = ancestorsHolding(walk.cwd, TOOL_MANIFESTS)[0];
  return found === undefined ? [join(walk.cwd, ".config", "dotnet-tools.json")] : TOOL_MANIFESTS.map((name) => join(found, name)).filter((path) => exists(path));
}

/**
 * Where `dotnet build|publish|pack|clean|test` put their output besides each project's bin/ and
 * obj/: `-o`'s (`--output`) directory. And a test run's results: `--results-directory`'s, else
 * each test project's TestResults/, when a logger writes a file (`--logger trx`, not `console`),
 * a collector (`--collect "XPlat Code Coverage"`) or `--blame` does.
 */
function dotnetOutputs(input: RuleInput, sub: string): string[] {
  const { walk } = input;
  const options = dotnetOptions(input, ["-o", "--output", "--results-directory", "-l", "--logger", "--collect", "--diag", "-d", "-s", "--settings", "--filter"]);
  if (options.has(...HELP)) return [];
  const under = (...names: string[]) => options.values(...names).map((value) => anyUnder(directoryAt(walk.cwd, value)));
  // msbuild's binary log (`-bl`, `-bl:FILE`, `/bl`): msbuild.binlog where it runs, or that file; test's `--diag FILE` log.
  const binlog = input.args.flatMap((arg) => {
    const match = /^[-/](bl|binaryLogger)(?::(.+))?$/i.exec(arg ?? "");
    return match === null ? [] : [directoryAt(walk.cwd, (match[2] ?? "msbuild.binlog").replace(/^LogFile=/i, "")) ?? UNKNOWABLE];
  });
  const diag = options.values("--diag", "-d").map((value) => (value === undefined ? UNKNOWABLE : (directoryAt(walk.cwd, value) ?? UNKNOWABLE)));
  if (sub !== "test") return [...under("-o", "--output"), ...binlog];
  const results = options.has("--results-directory") ? under("--results-directory") : [walk.cwd === undefined ? UNKNOWABLE : globOf(join(walk.cwd, "**", "TestResults", "**"))];
  const reported = options.values("-l", "--logger").some((logger) => logger === undefined || !/^console\b/i.test(logger)) || options.has("--collect", "--blame", "--blame-crash", "--blame-hang");
  return [...under("-o", "--output"), ...binlog, ...diag, ...(reported || options.has("--results-directory") ? results : [])];
}

export const DOTNET_RULES: Record<string, Rule> = {
  dotnet: withMore(TOOL_RULES.dotnet as Rule, {
    new: dotnetNew,
    sln: dotnetSolution,
    solution: dotnetSolution,
    ef: dotnetEf,
    tool: dotnetTool,
    ...Object.fromEntries(["build", "publish", "pack", "clean", "test"].map((sub) => [sub, (input: RuleInput) => dotnetOutputs(input, sub)])),
  }),
};
