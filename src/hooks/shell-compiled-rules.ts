// Builds of compiled languages beyond C's, Rust's, Go's and .NET's: where Swift, Zig, OCaml's
// dune, Haskell's stack, cabal and ghc, Nim, Kotlin, Crystal, Elm, Emscripten, MSBuild, conan and
// vcpkg put what they build. Each as its output option's file or directory, else its build
// directory in the project (anything under it), or beside its source.
import { basename, dirname, join } from "node:path";
import { valuedLong } from "./shell-options.js";
import { globOf, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { LOCK_RULES } from "./shell-lock-rules.js";
import { asksHelp, bySubcommand, inProject, TOOL_RULES, wholeProject, withMore } from "./shell-tool-rules.js";
import { anyUnder, directoryAt, UNKNOWABLE } from "./shell-words.js";


/** A new project in the directory given (else where it runs). */
const newHere = (input: RuleInput, rest: number[]) => [anyUnder(directoryAt(input.walk.cwd, rest.length > 0 ? input.args[rest.at(-1) as number] : "."))];

/** What a compiler makes of a source: its name without its extension, with each of `suffixes` (`Main`, `Main.o`, `Main.hi`; not the source itself). */
const made = (path: string, place: string, suffixes: string[]) => suffixes.map((suffix) => join(place, `${basename(path).replace(/\.[^.]*$/, "")}${suffix}`));

/** Beside each source, what the compiler makes of it (`suffixes`). */
function besideSource(input: RuleInput, sources: number[], suffixes: string[]): string[] {
  return input.values(sources).flatMap((path) => (path.startsWith("\0") ? [path] : made(path, directoryAt(input.walk.cwd, dirname(path)) ?? "/", suffixes)));
}

/** Where it runs, what a compiler makes of its first source by default (`main`, `main.o`, `main.exe`). */
function hereNamed(input: RuleInput, sources: number[], suffixes = ["", ".o", ".exe", ".pdb"]): string[] {
  if (input.walk.cwd === undefined) return [UNKNOWABLE];
  return input.values(sources.slice(0, 1)).flatMap((path) => (path.startsWith("\0") ? [path] : made(path, input.walk.cwd as string, suffixes)));
}

/** A value given `-o:FILE`, `--out:FILE`, `--outdir:DIR` (Nim's and the like's attached form). */
function attached(input: RuleInput, names: string[]): string[] {
  return input.args.flatMap((arg) => {
    const name = names.find((each) => arg?.startsWith(`${each}:`) || arg?.startsWith(`${each}=`));
    return name === undefined || arg === undefined ? [] : [arg.slice(name.length + 1)];
  });
}

const SWIFT = ["Package.swift"];
const ZIG = ["build.zig"];
const DUNE = ["dune-project"];
const STACK = ["stack.yaml"];

export const COMPILED_RULES: Record<string, Rule> = {
  // swift build, test, run: .build/ (or `--scratch-path`'s); `package init` a new package where it runs; `package clean`/`reset` .build/.
  swift: withMore(TOOL_RULES.swift as Rule, {
    ...Object.fromEntries(["build", "test", "run"].map((sub) => [sub, (input: RuleInput) => (input.reading.has("scratch-path") ? [anyUnder(directoryAt(input.walk.cwd, input.reading.value("scratch-path")))] : inProject(".build", SWIFT)(input))])),
    package: (input, rest) => {
      const action = input.args[rest[0] ?? -1];
      if (action === "init") return [anyUnder(input.reading.has("package-path") ? directoryAt(input.walk.cwd, input.reading.value("package-path")) : input.walk.cwd)];
      return action === "clean" || action === "reset" ? inProject(".build", SWIFT)(input) : [];
    },
  }),
  // zig build: zig-out/ (or `-p`/`--prefix`'s) and the caches under build.zig's directory; init: here;
  // build-exe/-lib/-obj and test: `-femit-bin=`'s file, else beside where it runs; cc and c++: `-o`'s, else a.out.
  zig: withMore(TOOL_RULES.zig as Rule, {
    // (Its build.zig's steps may write anything in the project: generated sources, zig-out/, the caches.)
    build: (input) => {
      const prefix = input.args.findIndex((arg) => arg === "-p" || arg === "--prefix");
      return [...wholeProject(ZIG)(input), ...(prefix === -1 ? [] : [anyUnder(directoryAt(input.walk.cwd, input.args[prefix + 1]))])];
    },
    init: (input) => [anyUnder(input.walk.cwd)],
    ...Object.fromEntries(["build-exe", "build-lib", "build-obj", "test"].map((sub) => [sub, (input: RuleInput, rest: number[]) => {
      const emitted = attached(input, ["-femit-bin"]);
      return emitted.length > 0 ? emitted : hereNamed(input, rest.filter((at) => (input.args[at] ?? "").endsWith(".zig")));
    }])),
    cc: (input) => compilerOutput(input),
    "c++": (input) => compilerOutput(input),
  }),
  // dune build, test, exec, fmt: _build/ (fmt promotes its formatting into the sources: anything in the project).
  dune: withMore(LOCK_RULES.dune as Rule, {
    build: (input) => (input.args.some((arg) => arg === "@fmt" || arg === "--auto-promote") ? wholeProject(DUNE)(input) : inProject("_build", DUNE)(input)),
    test: (input) => (input.args.includes("--auto-promote") ? wholeProject(DUNE)(input) : inProject("_build", DUNE)(input)),
    exec: inProject("_build", DUNE),
    fmt: wholeProject(DUNE),
    init: newHere,
  }),
  // stack: .stack-work/ in the project (init and new write stack.yaml or a new project); cabal: dist-newstyle/.
  stack: bySubcommand({ long: valuedLong("stack-yaml work-dir resolver") }, {
    ...Object.fromEntries(["build", "test", "bench", "install", "run", "exec", "haddock", "clean", "setup"].map((sub) => [sub, inProject(".stack-work", STACK)])),
    init: wholeProject(["stack.yaml", "package.yaml"]),
    new: (input, rest) => [anyUnder(directoryAt(input.walk.cwd, input.args[rest[0] ?? -1]))],
  }),
  cabal: bySubcommand({ long: valuedLong("project-file builddir") }, {
    ...Object.fromEntries(["build", "v2-build", "new-build", "test", "v2-test", "new-test", "bench", "run", "v2-run", "new-run", "install", "v2-install", "new-install", "haddock", "repl", "clean"].map((sub) => [sub, (input: RuleInput) => (input.reading.has("builddir") ? [anyUnder(directoryAt(input.walk.cwd, input.reading.value("builddir")))] : inProject("dist-newstyle", ["cabal.project"])(input))])),
    // (configure and freeze write cabal.project.local and cabal.project.freeze at the project's root.)
    configure: wholeProject(["cabal.project"]),
    freeze: wholeProject(["cabal.project"]),
    init: (input) => [anyUnder(input.walk.cwd)],
  }),
  // ghc: `-o`'s file, else beside each source (`Main`, `Main.o`, `Main.hi`); `-outputdir`, `-odir`, `-hidir` their directories.
  ghc: {
    syntax: { short: "o:", long: {} },
    writes: (input) => {
      if (input.args.some((arg) => /^--(help|version|numeric-version|info|supported-extensions)$/.test(arg ?? ""))) return [];
      const dirs = input.args.flatMap((arg, at) => (/^-(outputdir|odir|hidir|stubdir|dumpdir)$/.test(arg ?? "") ? [anyUnder(directoryAt(input.walk.cwd, input.args[at + 1]))] : []));
      const sources = input.reading.operands.filter((at) => /\.(l?hs)$/.test(input.args[at] ?? "") && !/^-(outputdir|odir|hidir|stubdir|dumpdir)$/.test(input.args[at - 1] ?? ""));
      return [...optionFiles(input, ["o"]), ...dirs, ...besideSource(input, sources, ["", ".o", ".hi", ".dyn_o", ".dyn_hi", ".exe"])];
    },
  },
  // nim c|cpp|js|compile: `-o:`/`--out:`'s file, `--outdir:`'s directory, else beside the source.
  nim: bySubcommand({}, Object.fromEntries(["c", "cc", "cpp", "compile", "js", "objc"].map((sub) => [sub, (input: RuleInput, rest: number[]) => {
    const out = attached(input, ["-o", "--out"]);
    const outdir = attached(input, ["--outdir"]).map((dir) => anyUnder(directoryAt(input.walk.cwd, dir)));
    return out.length > 0 || outdir.length > 0 ? [...out, ...outdir] : besideSource(input, rest.slice(0, 1), ["", ".exe", ".js"]);
  }]))),
  // swiftc: `-o`'s file, else the first source's name where it runs.
  swiftc: { syntax: { short: "o:I:L:l:F:", long: valuedLong("module-name sdk target emit-module-path") }, writes: (input) => (input.reading.has("o") ? optionFiles(input, ["o"]) : hereNamed(input, input.reading.operands)) },
  // Emscripten: `-o`'s file and its .wasm, .js and .data beside it, else a.out.js and a.out.wasm.
  emcc: { syntax: { short: "o:s:I:L:l:D:", long: {} }, writes: emscripten },
  "em++": { syntax: { short: "o:s:I:L:l:D:", long: {} }, writes: emscripten },
  // kotlinc -d DIR|JAR.
  // (Without -d, its class files where it runs.)
  kotlinc: { syntax: { short: "d:", long: {} }, writes: (input) => (input.reading.has("d") ? optionFiles(input, ["d"]).flatMap((path) => (path.startsWith("\0") || path.endsWith(".jar") ? [path] : [anyUnder(directoryAt(input.walk.cwd, path))])) : input.args.some((arg) => arg === "-version" || arg === "-help" || arg === "-h") || input.reading.operands.length === 0 ? [] : [input.walk.cwd === undefined ? UNKNOWABLE : globOf(join(input.walk.cwd, "**", "*.class"))]) },
  // crystal build: `-o`'s file, else the source's name where it runs; `init app|lib NAME` its directory;
  // `eval CODE` (or its input) runs code the hook does not read: any file.
  crystal: bySubcommand({ short: "o:", long: { output: "o" } }, {
    eval: () => [UNKNOWABLE],
    build: (input, rest) => (input.reading.has("o") ? optionFiles(input, ["o"]) : input.values(rest.slice(0, 1)).map((path) => (path.startsWith("\0") ? path : join(input.walk.cwd ?? "/", basename(path).replace(/\.cr$/, ""))))),
    init: (input, rest) => [anyUnder(directoryAt(input.walk.cwd, input.args[rest.at(-1) ?? -1]))],
  }),
  // elm make: `--output=`'s file (index.html by default) and elm-stuff/ in the project.
  elm: bySubcommand({}, {
    make: (input) => [...(input.args.some((arg) => arg?.startsWith("--output=")) ? attached(input, ["--output"]).filter((path) => path !== "/dev/null") : [join(input.walk.cwd ?? "/", "index.html")]), ...inProject("elm-stuff", ["elm.json"])(input)],
    init: (input) => [anyUnder(input.walk.cwd)],
    install: (input) => [...wholeProject(["elm.json"])(input)],
  }),
  // msbuild: every project's bin/ and obj/ under where it runs (`-p:OutDir=`'s too).
  msbuild: { syntax: {}, writes: (input) => (input.args.some((arg) => /^[-/](\?|h|help|version|ver)$/i.test(arg ?? "")) ? [] : input.walk.cwd === undefined ? [UNKNOWABLE] : [globOf(join(input.walk.cwd, "**", "bin", "**")), globOf(join(input.walk.cwd, "**", "obj", "**")), ...attached(input, ["-p:OutDir", "/p:OutDir", "-property:OutDir", "/property:OutDir", "-p:OutputPath", "/p:OutputPath", "-property:OutputPath", "/property:OutputPath"]).map((dir) => anyUnder(directoryAt(input.walk.cwd, dir)))]) },
  // conan install: `--output-folder`'s (`-of`) directory, else anything where it runs (its generators' files); vcpkg install: vcpkg_installed/ (manifest mode), new and add: vcpkg.json.
  conan: bySubcommand({ long: valuedLong("output-folder of build profile settings options") }, {
    // (`-of DIR`, one word of two letters, as `--output-folder`.)
    install: (input) => [anyUnder(directoryAt(input.walk.cwd, input.reading.value("output-folder") ?? (input.args.includes("-of") ? input.args[input.args.indexOf("-of") + 1] : undefined) ?? "."))],
    build: (input) => [anyUnder(input.walk.cwd)],
    new: (input) => [anyUnder(input.walk.cwd)],
  }),
  vcpkg: bySubcommand({ long: valuedLong("x-install-root triplet overlay-ports") }, {
    install: (input) => (input.reading.has("x-install-root") ? [anyUnder(directoryAt(input.walk.cwd, input.reading.value("x-install-root")))] : inProject("vcpkg_installed", ["vcpkg.json"])(input)),
    new: (input) => [join(input.walk.cwd ?? "/", "vcpkg.json"), join(input.walk.cwd ?? "/", "vcpkg-configuration.json")],
    add: wholeProject(["vcpkg.json"]),
  }),
};

/** A C compiler's output run through another tool (`zig cc`): `-o`'s file, else a.out where it runs. */
function compilerOutput(input: RuleInput): string[] {
  const out = input.args.flatMap((arg, at) => (arg === "-o" ? input.values([at + 1]) : arg?.startsWith("-o") && arg.length > 2 ? [arg.slice(2)] : []));
  if (asksHelp(input) || input.args.some((arg) => arg === "-E" || arg === "-fsyntax-only")) return out;
  // (`-c` alone: each source's object file where it runs.)
  const sources = input.args.flatMap((arg, at) => (arg !== undefined && /\.(c|cc|cpp|cxx|m|s|S)$/.test(arg) ? [at] : []));
  if (out.length === 0 && input.args.includes("-c")) return sources.flatMap((at) => hereNamed(input, [at], [".o"]));
  return out.length > 0 ? out : [join(input.walk.cwd ?? "/", "a.out")];
}

/** emcc and em++: `-o`'s file and, beside it, its .wasm, .js and .data; else a.out.js and a.out.wasm here. */
function emscripten(input: RuleInput): string[] {
  if (input.args.some((arg) => arg === "--version" || arg === "--help" || arg === "-E")) return [];
  // (`-c` alone: each source's object file where it runs.)
  if (!input.reading.has("o") && input.args.includes("-c")) return input.reading.operands.flatMap((at) => hereNamed(input, [at], [".o"]));
  if (!input.reading.has("o")) return input.walk.cwd === undefined ? [UNKNOWABLE] : [globOf(join(input.walk.cwd, "a.out.*"))];
  return optionFiles(input, ["o"]).flatMap((path) => (path.startsWith("\0") ? [path] : [path, ...made(path, dirname(path), [".wasm", ".js", ".data", ".html", ".worker.js"])]));
}
