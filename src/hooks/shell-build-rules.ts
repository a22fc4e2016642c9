// Compilers that write what their options name, or a file of their own naming: cc, gcc, clang,
// c++, g++, clang++, c99, c89 (`-o out`; `-c` or `-S` a .o or .s of each source here; else a.out; `-MF`'s
// dependency file), rustc (`-o`, `--out-dir`, else the crate's name here), `go build` (`-o`, else
// the package's name here), tsc (`--outDir`, `--outFile`, `--declarationDir`, `--init`; with no
// files, tsconfig.json's, else the .js beside each source) and javac (`-d`, else the .class beside
// each source), cpp (`-o`, or its second operand), ninja (build.ninja's commands: any file).
import { basename, dirname, extname, isAbsolute, join, resolve } from "node:path";
import { isDirectory } from "../targets/target.js";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { flagValues, globOf, lineOf, type Rule, type RuleInput } from "./shell-rule.js";
import { ancestorsHolding, anyIn, anyUnder, directoryAt, jsonWithComments, judgedPath, outputs, readText, UNKNOWABLE, within } from "./shell-words.js";

/** The C compilers' options that take the next argument as their value (`-o out`, `-MF deps`). */
const CC_VALUED = new Set(["-o", "-MF", "-MT", "-MQ", "-I", "-L", "-l", "-D", "-U", "-x", "-include", "-imacros", "-isystem", "-idirafter", "-iprefix", "-iquote", "-isysroot", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-T", "-u", "-z", "-aux-info", "-arch", "-target"]);

const stem = (path: string) => basename(path, extname(path));

/** A file named `name` beside a source: in the source's directory, with the source's mark when it has one (a glob, a place unknown). */
function beside(source: string, name: string): string {
  const mark = [GLOB_MARK, UNKNOWN_MARK].find((prefix) => source.startsWith(prefix)) ?? "";
  return mark + join(dirname(source.slice(mark.length)), name);
}

/** What a C or C++ compiler writes; `preprocessor`: cpp's, which prints unless given `-o` or a second operand (`cpp in out`). */
function compiler(input: RuleInput, preprocessor = false): string[] {
  const { args } = input;
  const out: string[] = [];
  const sources: number[] = [];
  const operands: number[] = [];
  let mode: "link" | "c" | "S" | "E" = preprocessor ? "E" : "link";
  let output: number | string | string[] | undefined;
  let dependencies = false;
  let temps = false;
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    // `-o"$out"`, `--output="$f"`, `-MF"$d/x.d"`: the option, its value judged by what the text fixes (shell-options.ts).
    const unfixed = arg === undefined ? /^(-o|--output=|-MF)([^]*)$/.exec(input.text(at) ?? "") : null;
    if (unfixed !== null) {
      const path = outputs([judgedPath(unfixed[2] as string)]);
      if (unfixed[1] === "-MF") out.push(...path);
      else output = path;
      continue;
    }
    if (arg === undefined || !arg.startsWith("-") || arg === "-") {
      operands.push(at);
      if (arg !== "-") sources.push(at);
      continue;
    }
    if (arg === "-c" || arg === "-S" || arg === "-E") mode = arg.slice(1) as "c" | "S" | "E";
    if (arg === "-o" || arg === "--output") output = at + 1;
    else if (arg.startsWith("--output=")) output = arg.slice(9);
    else if (arg.startsWith("-o")) output = arg.slice(2);
    if (arg === "-MF") out.push(...input.values([at + 1]));
    else if (arg.startsWith("-MF")) out.push(arg.slice(3));
    if (arg === "-MD" || arg === "-MMD") dependencies = true;
    if (arg === "-save-temps" || arg === "--save-temps") temps = true;
    if (/^(--version|--help|-v|-dumpversion|-dumpmachine|-dumpspecs|-print-.*|--print-.*|-###)$/.test(arg)) return []; // prints, compiles nothing
    if (CC_VALUED.has(arg) || arg === "--output") at++;
  }
  if (preprocessor && output === undefined && operands[1] !== undefined) {
    output = operands[1];
    sources.splice(sources.indexOf(operands[1]), 1);
  }
  const objects = (() => {
    if (typeof output === "string") return [output];
    if (Array.isArray(output)) return output;
    if (output !== undefined) return input.values([output]);
    if (mode === "E") return [];
    if (mode === "link") return ["a.out"];
    // Each source's object (or assembly) file lands here, under its own name.
    return input.values(sources).map((source) => beside("", `${stem(source)}.${mode === "c" ? "o" : "s"}`));
  })();
  // -MD, -MMD without -MF: a .d beside each output (a.o's a.d), or each source's here when linking.
  const sourced = input.values(sources);
  const made = dependencies && out.length === 0 ? (mode === "link" && output === undefined ? sourced.map((source) => `${stem(source)}.d`) : objects.map((object) => beside(object, `${stem(object)}.d`))) : [];
  // -save-temps: each source's preprocessed and assembly files, here.
  const kept = temps ? sourced.flatMap((source) => [`${stem(source)}.i`, `${stem(source)}.ii`, `${stem(source)}.s`]) : [];
  return [...out, ...objects, ...made, ...kept];
}

/** A C compiler by any of its names: versioned (`gcc-12`, `clang-18`) or a cross compiler's (`arm-none-eabi-gcc`). */
export const COMPILER_NAME = /^(?:[\w.]+-)*(?:cc|gcc|g\+\+|c\+\+|clang|clang\+\+)(?:-[\d.]+)?$/;

/** rustc: `-o`, `--out-dir`, else the crate named after its source, here. */
function rustc(input: RuleInput): string[] {
  const { args } = input;
  const sources: number[] = [];
  let crate: string | undefined;
  for (let at = 0; at < args.length; at++) {
    const arg = args[at] ?? "";
    if (arg === "-o") return input.values([at + 1]);
    if (arg.startsWith("-o") && !arg.startsWith("--")) return [arg.slice(2)];
    if (arg === "--out-dir") return [anyIn(directoryAt(input.walk.cwd, args[at + 1]))];
    if (arg.startsWith("--out-dir=")) return [anyIn(directoryAt(input.walk.cwd, arg.slice(10)))];
    if (arg === "--crate-name" && args[at + 1] !== undefined) crate = args[at + 1];
    if (arg.startsWith("--crate-name=")) crate = arg.slice(13);
    if (/^(-[CLlWAFDc]|--(cfg|crate-type|crate-name|edition|emit|extern|target|cap-lints|explain|print|codegen|sysroot|error-format|json|color|remap-path-prefix|check-cfg))$/.test(arg)) at++;
    else if (!arg.startsWith("-")) sources.push(at);
  }
  return input.values(sources).flatMap((source) => [crate ?? stem(source), globOf(`lib${crate ?? stem(source)}.*`)]);
}

/** `go build`: `-o` (a directory takes the binaries), else the binary of the one package named (or here), here; `./...` writes none. */
export function goBuild(input: RuleInput): string[] {
  const { args } = input;
  // `go -C dir build`: from there.
  const base = input.reading.has("C") ? directoryAt(input.walk.cwd, input.reading.value("C")) : input.walk.cwd;
  const here = (path: string) => (isAbsolute(path) ? path : base === undefined ? UNKNOWN_MARK + path : resolve(base, path));
  const operands: number[] = [];
  for (let at = args.indexOf("build") + 1; at < args.length; at++) {
    const arg = args[at] ?? "";
    if (arg === "-o" || arg.startsWith("-o=")) {
      const value = arg === "-o" ? args[at + 1] : arg.slice(3);
      if (value === undefined) return input.values([at + 1]);
      return [value.endsWith("/") || isDirectory(here(value)) ? anyIn(base === undefined && !isAbsolute(value) ? undefined : here(value)) : here(value)];
    }
    if (/^-(C|p|tags|ldflags|gcflags|asmflags|mod|modfile|overlay|pgo|pkgdir|toolexec|buildmode|compiler|installsuffix|exec)$/.test(arg)) at++;
    else if (!arg.startsWith("-")) operands.push(at);
  }
  const named = operands.map((at) => args[at]);
  if (named.some((name) => name === undefined || name.includes("..."))) return [];
  if (named.length === 0 || named[0] === ".") return base === undefined ? [] : [here(packageName(base))];
  const first = named[0] as string;
  return [here(first.endsWith(".go") ? stem(first) : basename(first))];
}

/** The binary go names after a package's directory: at a module's root, the module path's last element (`example.com/tool/v2`: tool). */
function packageName(directory: string): string {
  // No go.mod here: a package inside a module, named after its directory.
  const module = /^module\s+"?([^\s"]+)"?/m.exec(readText(join(directory, "go.mod")) ?? "")?.[1];
  const parts = module?.split("/") ?? [];
  if (parts.length > 1 && /^v\d+$/.test(parts.at(-1) as string)) parts.pop(); // example.com/tool/v2: tool
  return parts.at(-1) ?? basename(directory);
}

/** tsc's options that take a value; every other option is a flag (`--strict`, `--declarationMap`), with an optional `true`/`false` after it. */
const TSC_VALUED = new Set(
  `outDir outFile out declarationDir rootDir rootDirs project p target t module m lib jsx moduleResolution baseUrl types typeRoots tsBuildInfoFile
  locale newLine sourceRoot mapRoot charset reactNamespace jsxFactory jsxFragmentFactory jsxImportSource moduleDetection maxNodeModuleJsDependencyDepth
  importsNotUsedAsValues generateCpuProfile generateTrace ignoreDeprecations customConditions moduleSuffixes watchFile watchDirectory fallbackPolling
  excludeDirectories excludeFiles plugins paths`
    .split(/\s+/)
    .filter(Boolean),
);

/** The output extensions of a TypeScript (or JavaScript) source: .ts a .js, .mts a .mjs, .cts a .cjs, with their maps and declarations. */
function emitted(source: string): string[] {
  const extension = extname(source);
  const js = extension === ".mts" ? ".mjs" : extension === ".cts" ? ".cjs" : extension === ".tsx" ? ".jsx" : ".js";
  const declaration = extension === ".mts" ? ".d.mts" : extension === ".cts" ? ".d.cts" : ".d.ts";
  const name = stem(source);
  const out = [js, `${js}.map`, declaration, `${declaration}.map`].map((suffix) => beside(source, `${name}${suffix}`));
  return extension === ".tsx" ? [...out, beside(source, `${name}.js`), beside(source, `${name}.js.map`)] : out;
}

interface Project {
  outDir?: string;
  outFile?: string;
  declarationDir?: string;
  tsBuildInfoFile?: string;
  noEmit?: boolean;
  /** The configs of the projects it references (built first by `tsc -b`). */
  references: string[];
}

/** A tsconfig.json's compiler options, with those of the configs it `extends` (relative ones), each path from its own file. */
function compilerOptions(config: string, depth = 0, leaf = config): Project | undefined {
  const text = readText(config)?.replace(/^\uFEFF/, "");
  if (text === undefined) return undefined;
  let parsed: { extends?: unknown; compilerOptions?: Record<string, unknown>; references?: unknown };
  try {
    // JSON with comments and trailing commas, as tsc reads it.
    parsed = JSON.parse(jsonWithComments(text));
  } catch {
    return undefined;
  }
  const base = typeof parsed.extends === "string" && parsed.extends.startsWith(".") && depth < 5 ? compilerOptions(resolve(dirname(config), parsed.extends.endsWith(".json") ? parsed.extends : `${parsed.extends}.json`), depth + 1, leaf) : undefined;
  const own = parsed.compilerOptions ?? {};
  // TypeScript 5.5's `${configDir}`: the directory of the config being built, wherever the option is written.
  const path = (key: string) => (typeof own[key] === "string" ? { [key]: resolve(dirname(config), (own[key] as string).replaceAll("${configDir}", dirname(leaf))) } : {});
  const references = Array.isArray(parsed.references)
    ? parsed.references.flatMap((reference: unknown) => {
        const at = (reference as { path?: unknown } | null)?.path;
        if (typeof at !== "string") return [];
        const target = resolve(dirname(config), at);
        return [target.endsWith(".json") ? target : join(target, "tsconfig.json")];
      })
    : [];
  return {
    ...base,
    ...path("outDir"),
    ...path("outFile"),
    ...path("declarationDir"),
    ...path("tsBuildInfoFile"),
    ...(typeof own.noEmit === "boolean" ? { noEmit: own.noEmit } : {}),
    references, // not inherited through `extends`, as tsc reads them
  };
}

function tsc(input: RuleInput): string[] {
  const { args, walk } = input;
  const options = new Map<string, string | undefined>();
  const operands: number[] = [];
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    // A word the text does not fix that starts as an option (`--outDir="$d"`, `-"$x"`): that option
    // with its value unknown, or, where the text does not fix its name, any option: any file.
    const unfixed = arg === undefined ? input.text(at) : undefined;
    if (unfixed !== undefined && /^-/.test(unfixed)) {
      const named = /^--?([A-Za-z][\w-]*)=/.exec(unfixed)?.[1];
      if (named === undefined) return [UNKNOWABLE];
      options.set(named, undefined);
      continue;
    }
    if (arg === undefined || !arg.startsWith("-")) {
      operands.push(at);
      continue;
    }
    const [name = "", attached] = arg.replace(/^--?/, "").split(/=(.*)/s);
    if (attached !== undefined) options.set(name, attached);
    else if (TSC_VALUED.has(name)) options.set(name, args[++at]);
    else {
      const next = args[at + 1];
      options.set(name, next === "false" || next === "true" ? next : "true");
      if (next === "false" || next === "true") at++;
    }
  }
  const on = (name: string) => options.get(name) === "true";
  const build = on("build") || on("b");
  // (In build mode -v is --verbose, not --version.)
  if (on("version") || (on("v") && !build) || on("help") || on("h") || on("all") || on("showConfig")) return [];
  if (on("init")) return ["tsconfig.json"];
  if (on("noEmit")) return [];
  const given = (name: string) => (options.has(name) ? [directoryAt(walk.cwd, options.get(name))] : []);
  const outputs = [...given("outDir").map(anyUnder), ...given("declarationDir").map(anyUnder), ...[...given("outFile"), ...given("out")].map((file) => file ?? anyIn(undefined))];
  const buildInfo = given("tsBuildInfoFile").map((file) => file ?? anyIn(undefined));
  // Where the command line places the JavaScript itself (a --declarationDir alone does not).
  const placed = options.has("outDir") || options.has("outFile") || options.has("out");
  if (operands.length > 0 && !build) {
    // Files named: no tsconfig.json is read; each source's output lands beside it, or in --outDir.
    if (outputs.length > 0) return [...outputs, ...buildInfo];
    return [...input.values(operands).flatMap(emitted), ...buildInfo];
  }
  // A project: -p's (a directory or a config file), each of -b's, else the nearest tsconfig.json up from here.
  // (null: one given that the text does not fix, `-p "$p"`: a config anywhere, any file.)
  const projects = build && operands.length > 0 ? operands.map((at) => args[at] ?? null) : options.has("p") || options.has("project") ? [options.get("p") ?? options.get("project") ?? null] : [undefined];
  const seen = new Set<string>();
  return projects.flatMap((project) => {
    if (project === null) return [UNKNOWABLE];
    const place = project === undefined ? walk.cwd : directoryAt(walk.cwd, project);
    if (place === undefined) return [anyUnder(undefined)];
    const config = project !== undefined && project.endsWith(".json") ? place : project !== undefined ? join(place, "tsconfig.json") : join(ancestorsHolding(place, ["tsconfig.json"])[0] ?? place, "tsconfig.json");
    return projectWrites(config, outputs, build, seen, placed);
  }).concat(buildInfo);
}

/**
 * What building one project writes: its outDir (or, without one, every emitted kind of file beside
 * its sources), declarationDir, outFile, build info; with `-b`, its references' too. `outputs`:
 * the command line's, beside the config's own (`--declarationDir types` leaves the JavaScript in
 * the config's outDir; one the command line overrides is kept too, a superset). `placed`: the
 * command line says where the JavaScript goes, so none is emitted beside the sources.
 */
function projectWrites(config: string, outputs: string[], build: boolean, seen: Set<string>, placed = false): string[] {
  if (seen.has(config) || seen.size > 50) return [];
  seen.add(config);
  const settings = compilerOptions(config);
  if (settings === undefined) return outputs;
  const referenced = build ? settings.references.flatMap((reference) => projectWrites(reference, [], build, seen)) : [];
  if (settings.noEmit === true && outputs.length === 0) return referenced;
  const written = [settings.outDir, settings.declarationDir].filter((directory): directory is string => directory !== undefined).map(anyUnder);
  if (settings.outFile) written.push(settings.outFile);
  if (settings.tsBuildInfoFile) written.push(settings.tsBuildInfoFile);
  const root = dirname(config);
  if (placed || settings.outDir !== undefined || settings.outFile !== undefined) return [...outputs, ...written, globOf(join(root, "*.tsbuildinfo")), ...referenced];
  // No outDir: beside each source under the project.
  return [...outputs, ...written, ...["js", "jsx", "mjs", "cjs", "map", "d.ts", "d.mts", "d.cts", "tsbuildinfo"].map((extension) => globOf(join(root, "**", `*.${extension}`))), ...referenced];
}

/** javac: `-d` (classes), `-s` (generated sources), `-h` (headers): anything under each; else each class beside its source. */
function javac(input: RuleInput): string[] {
  const { args, walk } = input;
  const out: string[] = [];
  const sources: number[] = [];
  const files: string[] = [];
  let placed = false;
  for (let at = 0; at < args.length; at++) {
    const arg = args[at] ?? "";
    if (["-d", "-s", "-h", "--directory", "--source-directory", "--header-directory"].includes(arg)) {
      out.push(anyUnder(directoryAt(walk.cwd, args[at + 1])));
      if (arg === "-d" || arg === "--directory") placed = true;
      at++;
    } else if (/^(-cp|-classpath|--class-path|-sourcepath|--source-path|-encoding|-source|--source|-target|--target|--release|-processorpath|--processor-path|-processor|--module|-m|--module-path|-p|-bootclasspath|-extdirs|-endorseddirs|-implicit|-Xlint|-J|-A|--add-modules|--limit-modules|--module-source-path|--upgrade-module-path|--system|--add-exports|--add-reads|--patch-module)$/.test(arg)) at++;
    else if (arg.startsWith("@")) {
      // An argument file: its words are arguments too (`javac @sources.txt`); one not read could name anything.
      const text = readText(within(walk.cwd, arg.slice(1)));
      if (text === undefined) return [anyUnder(undefined)];
      files.push(...text.split(/\s+/).filter((word) => word !== "" && !word.startsWith("-")));
    } else if (!arg.startsWith("-")) sources.push(at);
  }
  if (placed) return out;
  return [...out, ...[...input.values(sources), ...files].flatMap((source) => [beside(source, `${stem(source)}.class`), globOf(beside(source, `${stem(source)}$*.class`))])];
}

/**
 * A C compiler's code that runs with it: `-wrapper prog,args` runs each of its passes under prog
 * (read as `prog args`); `-fplugin=x.so` (and clang's `-Xclang -load`) loads a library, whose code
 * the text does not show: any file.
 */
const compilerRule: Rule = {
  syntax: {},
  writes: compiler,
  runsLines: (input) => [
    ...flagValues(input.args, ["wrapper"], input.text).map((wrapper) => (wrapper === undefined ? undefined : lineOf(wrapper.split(","), 0))),
    ...input.args.flatMap((arg, at) => (arg === undefined ? (/^-fplugin=/.test(input.text(at) ?? "") ? [undefined] : []) : /^-fplugin=|^-load$/.test(arg) && (arg !== "-load" || input.args[at - 1] === "-Xclang") ? [undefined] : [])),
  ],
};

/** ninja's tools (`-t NAME`) that only print what build.ninja says. */
const NINJA_QUERIES = new Set(["query", "targets", "commands", "graph", "deps", "inputs", "rules", "list", "missingdeps", "compdb", "compdb-targets", "multi-inputs", "browse"]);

/**
 * ninja (and samu, its port): the commands of build.ninja (or `-f`'s file), which are not read,
 * run where `-C` says: any file, as make's recipes are where they are not read. Not where it runs
 * none: `-n`, a tool that only prints, `--version`, `-h`.
 */
const ninjaRule: Rule = {
  syntax: { short: "C:d:f:j:k:l:t:w:", long: { version: "", verbose: "v", quiet: "", help: "h" } },
  writes: (input) => {
    const { reading } = input;
    if (reading.has("n", "version", "h")) return [];
    if (reading.has("t") && reading.values("t").every((tool) => tool !== undefined && NINJA_QUERIES.has(tool))) return [];
    return [UNKNOWABLE];
  },
};

export const BUILD_RULES: Record<string, Rule> = {
  cc: compilerRule,
  gcc: compilerRule,
  clang: compilerRule,
  "c++": compilerRule,
  "g++": compilerRule,
  "clang++": compilerRule,
  rustc: { syntax: {}, writes: rustc },
  tsc: { syntax: {}, writes: tsc },
  // Vue's type checker takes tsc's options and writes what tsc would (`--declaration --emitDeclarationOnly`).
  "vue-tsc": { syntax: {}, writes: tsc },
  javac: { syntax: {}, writes: javac },
  ninja: ninjaRule,
  // POSIX's names of the C compiler, and its preprocessor (`cpp in out`, `cpp -o out in`).
  c99: compilerRule,
  c89: compilerRule,
  cpp: { syntax: {}, writes: (input) => compiler(input, true) },
  samu: ninjaRule,
};
