// Builds of compiled languages beyond C's, Rust's, Go's and .NET's (shell-compiled-rules.ts):
// Swift, Zig, dune, stack, cabal, ghc, Nim, swiftc, Emscripten, kotlinc, Crystal, Elm, MSBuild,
// conan and vcpkg, read by the Claude hook from a shell command as what they build and where.
// Another session holds u.ts; session s2 runs them.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Compiled = suite<Context>("claims hook: compiled languages' builds");
Compiled.before.each((context) => {
  context.box = heldBox();
});
Compiled.after.each((context) => context.box.cleanup());

Compiled("should read each build as its output option's file, its build directory in the project, or what it makes beside its source", async ({ box }) => {
  for (const name of ["Package.swift", "build.zig", "dune-project", "stack.yaml", "cabal.project", "elm.json", "vcpkg.json"]) file(box, name, "\n");
  const cases: Array<[string, string[]]> = [
    ["swift build", ["glob:.build/**"]],
    ["swift test --scratch-path /tmp/scratch", ["glob:/tmp/scratch/**"]],
    ["swift package init --type executable", ["glob:**"]],
    ["swift --version", []],
    ["zig build", ["glob:**"]],
    ["zig build-exe src/main.zig -femit-bin=bin/app", ["bin/app"]],
    ["zig build-exe src/main.zig", ["main", "main.exe", "main.o", "main.pdb"]],
    ["zig cc -o app main.c", ["app"]],
    ["dune build", ["glob:_build/**"]],
    ["dune fmt", ["glob:**"]],
    ["stack build", ["glob:.stack-work/**"]],
    ["cabal build", ["glob:dist-newstyle/**"]],
    ["cabal freeze", ["glob:**"]],
    ["ghc Main.hs", ["Main", "Main.dyn_hi", "Main.dyn_o", "Main.exe", "Main.hi", "Main.o"]],
    ["ghc --version", []],
    ["nim c -o:app main.nim", ["app"]],
    ["nim c src/main.nim", ["src/main", "src/main.exe", "src/main.js"]],
    ["swiftc main.swift -o app", ["app"]],
    ["emcc main.c -o web/out.js", ["web/out.data", "web/out.html", "web/out.js", "web/out.wasm", "web/out.worker.js"]],
    ["emcc main.c", ["glob:a.out.*"]],
    ["kotlinc A.kt -d a.jar", ["a.jar"]],
    ["kotlinc A.kt -d classes", ["glob:classes/**"]],
    ["crystal build src/main.cr", ["main"]],
    ["elm make src/Main.elm --output=main.js", ["glob:elm-stuff/**", "main.js"]],
    ["msbuild App.sln", ["glob:**/bin/**", "glob:**/obj/**"]],
    ["conan install . --output-folder=build --build=missing", ["glob:build/**"]],
    ["vcpkg install", ["glob:vcpkg_installed/**"]],
    ["dune test --auto-promote", ["glob:**"]],
    ["zig cc -c foo.c", ["foo.o"]],
    ["msbuild App.sln /p:OutputPath=out/", ["glob:**/bin/**", "glob:**/obj/**", "glob:out/**"]],
    ["cabal new-build", ["glob:dist-newstyle/**"]],
    ["kotlinc Main.kt", ["glob:**/*.class"]],
    ["conan install . -of build", ["glob:build/**"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
});

Compiled("should refuse a build that may write the held file, and let one that writes only its build directory by", ({ box }) => {
  for (const name of ["Package.swift", "build.zig", "dune-project"]) file(box, name, "\n");
  denies(box, ["zig build", "dune fmt", "swift package init", "ghc -o u.ts Main.hs"]);
  allows(box, ["swift build", "dune build", "ghc --version"]);
});

Compiled.run();
