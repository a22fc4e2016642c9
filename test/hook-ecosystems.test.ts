// .NET's templates, solutions, EF migrations, local tools and output directories
// (shell-dotnet-rules.ts); Dart's and Flutter's generators, new projects and builds, and Elixir mix's
// generators, new projects and compiling tasks (shell-pub-mix-rules.ts): read by the Claude hook
// from a shell command as the files they write here. Another session holds u.ts; session s2 runs
// them.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Ecosystems = suite<Context>("claims hook: .NET, Dart and Flutter, Elixir mix");
Ecosystems.before.each((context) => {
  context.box = heldBox();
});
Ecosystems.after.each((context) => context.box.cleanup());

/** Every build's bin/ and obj/, as shell-tool-rules.ts reads `dotnet build` here. */
const BUILT = ["glob:**/bin/**", "glob:**/obj/**"];

Ecosystems("should read dotnet new, sln, ef, tool and the output options of builds and test runs as what they write, and their listing forms as no write", async ({ box }) => {
  file(box, "App.csproj", "<Project/>\n");
  file(box, "App.sln", "\n");
  const cases: Array<[string, string[]]> = [
    // dotnet new: -o's directory, else ./NAME for a project template given -n, else here.
    ["dotnet new console -o app", ["glob:app/**"]],
    ["dotnet new create console -o app", ["glob:app/**"]],
    ["dotnet new console -n Api", ["glob:Api/**"]],
    ["dotnet new console", ["glob:**"]],
    ["dotnet new classlib -n Lib -o src/Lib", ["glob:src/Lib/**"]],
    ["dotnet new webapi --framework net8.0 --output:svc", ["glob:svc/**"]],
    ["dotnet new mytemplate -n X", ["glob:**"]], // a template it does not know may write files here: anything under here
    ['dotnet new console -o "$d"', ["unknown:."]],
    ["dotnet new gitignore", [".gitignore"]],
    ["dotnet new editorconfig -o src", ["src/.editorconfig"]],
    ["dotnet new sln", ["glob:*.sln", "glob:*.slnx"]],
    ["dotnet new sln -n All", ["All.sln", "All.slnx"]],
    ["dotnet new tool-manifest", [".config/dotnet-tools.json"]],
    ["dotnet new class -n Customer -o Models", ["glob:Models/*"]],
    ["dotnet new", []],
    ["dotnet new list", []],
    ["dotnet new --list", []],
    ["dotnet new search web", []],
    ["dotnet new install Contoso.Templates", []],
    ["dotnet new uninstall Contoso.Templates", []],
    ["dotnet new console --help", []],
    ["dotnet new console -h", []],
    ["dotnet new console --dry-run", []],
    // dotnet sln: the solution given, else the one here.
    ["dotnet sln add src/Lib/Lib.csproj", ["glob:*.sln", "glob:*.slnx"]],
    ["dotnet sln App.sln remove src/Lib/Lib.csproj", ["App.sln"]],
    ["dotnet solution add src/Lib/Lib.csproj", ["glob:*.sln", "glob:*.slnx"]],
    ["dotnet sln App.sln migrate", ["App.slnx"]],
    ["dotnet sln list", []],
    ["dotnet sln App.sln list", []],
    // dotnet ef: anything under the project (-p's, else here), and a directory an option names outside it.
    ["dotnet ef migrations add Init", ["glob:**"]],
    ["dotnet ef migrations add Init -p src/Data/Data.csproj -o Db/Migrations", ["glob:src/Data/**"]],
    ["dotnet ef migrations remove --project src/Data", ["glob:src/Data/**"]],
    ["dotnet ef dbcontext scaffold 'Data Source=app.db' Microsoft.EntityFrameworkCore.Sqlite -p src/Data -o Models --context-dir ../Ctx", ["glob:src/Ctx/**", "glob:src/Data/**"]],
    ["dotnet ef dbcontext optimize -o Compiled", ["glob:**"]],
    ["dotnet ef migrations script -o migrate.sql", ["migrate.sql"]],
    ["dotnet ef migrations script", []],
    ["dotnet ef migrations bundle", ["efbundle", "efbundle.exe"]],
    ["dotnet ef migrations list", []],
    ["dotnet ef migrations has-pending-model-changes", []],
    ["dotnet ef dbcontext info", []],
    ["dotnet ef --help", []],
    ["dotnet ef migrations add Init --help", []],
    // dotnet tool: the local manifest, made here when none is found up.
    ["dotnet tool install dotnet-ef", [".config/dotnet-tools.json"]],
    ["dotnet tool install -g dotnet-ef", []],
    ["dotnet tool install --tool-path tools dotnet-ef", []],
    ["dotnet tool update --tool-manifest cfg/tools.json dotnet-ef", ["cfg/tools.json"]],
    ["dotnet tool restore", []],
    ["dotnet tool list", []],
    // Output directories and a test run's results, besides every bin/ and obj/.
    ["dotnet build -o out", [...BUILT, "glob:out/**"]],
    ["dotnet publish -c Release --output:pub", [...BUILT, "glob:pub/**"]],
    ["dotnet pack -o nupkgs", [...BUILT, "glob:nupkgs/**"]],
    ["dotnet build -bl", [...BUILT, "msbuild.binlog"]],
    ["dotnet build -bl:logs/b.binlog", [...BUILT, "logs/b.binlog"]],
    ["dotnet test --diag diag.log", [...BUILT, "diag.log"]],
    ["dotnet test --logger trx", [...BUILT, "glob:**/TestResults/**"]],
    ['dotnet test --logger "trx;LogFileName=r.trx" --results-directory tr', [...BUILT, "glob:tr/**"]],
    ["dotnet test --collect 'XPlat Code Coverage'", [...BUILT, "glob:**/TestResults/**"]],
    ["dotnet test", BUILT],
    ["dotnet test --logger console", BUILT],
    ["dotnet build -p:Configuration=Release -bl", [...BUILT, "msbuild.binlog"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
  // The nearest manifest from where it runs up.
  file(box, "svc/dotnet-tools.json", "{}\n");
  file(box, "svc/api/Api.csproj", "<Project/>\n");
  assert.equal(await writes(box, "cd svc/api && dotnet tool uninstall dotnet-ef"), ["svc/dotnet-tools.json"]);
});

/** What a Flutter build regenerates in the package app/ whatever its target, with `more`. */
const flutterBuilt = (more: string[]) =>
  [
    "glob:app/build/**",
    "glob:app/.dart_tool/**",
    "app/pubspec.lock",
    "app/.flutter-plugins",
    "app/.flutter-plugins-dependencies",
    "app/android/local.properties",
    "glob:app/android/app/src/main/java/io/flutter/plugins/**",
    "glob:app/ios/Flutter/**",
    "glob:app/ios/Runner/GeneratedPluginRegistrant.*",
    "glob:app/macos/Flutter/**",
    "glob:app/linux/flutter/**",
    "glob:app/windows/flutter/**",
    ...more,
  ].sort();

Ecosystems("should read Dart's and Flutter's generators, new projects and builds as what they write, and their usage forms as no write", async ({ box }) => {
  file(box, "app/pubspec.yaml", "name: app\n");
  file(box, "app/lib/main.dart", "void main() {}\n");
  const cases: Array<[string, string[]]> = [
    // build_runner: generated files beside the sources, anywhere in the package (the nearest pubspec.yaml's directory).
    ["cd app/lib && dart run build_runner build --delete-conflicting-outputs", ["glob:app/**"]],
    ["cd app && dart run build_runner watch", ["glob:app/**"]],
    ["cd app && dart pub run build_runner build", ["glob:app/**"]],
    ["cd app && flutter pub run build_runner build", ["glob:app/**"]],
    ["cd app && flutter packages pub run build_runner build", ["glob:app/**"]],
    ["cd app && dart run build_runner", []],
    ["cd app && dart run build_runner doctor", []],
    ["cd app && flutter packages get", ["app/pubspec.lock", "glob:app/.dart_tool/**"]],
    // New projects.
    ["flutter create my_app", ["glob:my_app/**"]],
    ["flutter create --org com.example -t app my_app", ["glob:my_app/**"]],
    ["cd app && flutter create .", ["glob:app/**"]],
    ["flutter create --list-samples samples.json", ["samples.json"]],
    ["flutter create --help", []],
    ["dart create -t console cli", ["glob:cli/**"]],
    ["cd app && flutter gen-l10n", ["glob:app/**"]],
    // flutter build: what every build regenerates, and the target platform's own directory.
    ["cd app && flutter build apk --release", flutterBuilt(["glob:app/android/**"])],
    ["cd app && flutter build ipa", flutterBuilt(["glob:app/ios/**"])],
    ["cd app && flutter build web -o ../site", flutterBuilt(["glob:site/**"])],
    ["cd app && flutter build linux", flutterBuilt([])],
    ["cd app && flutter build constructor", flutterBuilt([])], // a target of no platform directory, whatever its name
    ["cd app && flutter build", []],
    ["cd app && flutter build apk --help", []],
    // dart compile: -o's file, else beside the entry point; js (dart2js) out.js here.
    ["dart compile exe bin/main.dart", ["bin/main.exe"]],
    ["dart compile exe bin/main.dart -o bin/app", ["bin/app"]],
    ["dart compile aot-snapshot bin/main.dart -S debug.info", ["bin/main.aot", "debug.info"]],
    ["dart compile kernel -D mode=x bin/main.dart", ["bin/main.dill"]],
    ["dart compile jit-snapshot bin/main.dart", ["bin/main.jit"]],
    ["dart compile js web/main.dart", ["glob:out.js.*", "out.js"]],
    ["dart compile js -O2 -o web/main.dart.js web/main.dart", ["glob:web/main.dart.js.*", "web/main.dart.js"]],
    ["dart compile wasm web/main.dart", ["web/main.mjs", "web/main.unopt.wasm", "web/main.wasm"]],
    ['dart compile exe "$d/main.dart"', ["unknown:main.exe"]],
    ["dart compile exe --help", []],
    // flutterfire configure: its options file, firebase.json, the platforms' files: anything under the package.
    ["cd app && flutterfire configure --project demo", ["glob:app/**"]],
    ["cd app && flutterfire configure -o lib/gen/firebase_options.dart", ["app/lib/gen/firebase_options.dart", "glob:app/**"]],
    ["flutterfire --help", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
});

Ecosystems("should read mix's generators, new projects and compiling tasks as what they write, umbrella apps at the umbrella's root, and help as no write", async ({ box }) => {
  file(box, "shop/mix.exs", "defmodule Shop.MixProject do end\n");
  file(box, "shop/apps/web/mix.exs", "defmodule Web.MixProject do end\n");
  const cases: Array<[string, string[]]> = [
    ["cd shop && mix ecto.gen.migration add_users", ["glob:shop/**/priv/**", "glob:shop/_build/**"]],
    ["cd shop && mix ecto.gen.migration add_users --migrations-path priv/repo/extra --no-compile", ["glob:shop/priv/repo/extra/**"]],
    ["cd shop && mix phx.gen.html Accounts User users name:string", ["glob:shop/**"]],
    ["cd shop/apps/web && mix phx.gen.live Catalog Product products", ["glob:shop/**"]], // its context goes to a sibling app
    ["cd shop && mix phx.gen.secret", []],
    ["mix phx.new hello", ["glob:hello/**"]],
    ["mix phx.new hello --umbrella", ["glob:hello_umbrella/**"]],
    ["mix phx.new --version", []],
    ["mix new --module Foo foo", ["glob:foo/**"]],
    ["cd shop && mix compile", ["glob:shop/_build/**"]],
    ["cd shop/apps/web && mix compile", ["glob:shop/_build/**", "glob:shop/apps/web/_build/**"]],
    ["cd shop && mix deps.compile", ["glob:shop/_build/**"]],
    ["cd shop && mix test", ["glob:shop/_build/**"]],
    ["cd shop && mix test --cover", ["glob:shop/_build/**", "glob:shop/cover/**"]],
    ["cd shop && mix release --path ../rel", ["glob:rel/**", "glob:shop/_build/**"]],
    ["cd shop && MIX_BUILD_PATH=../b mix compile", ["glob:b/**"]],
    ["cd shop && mix deps.get", ["glob:shop/deps/**", "shop/mix.lock"]],
    ["cd shop/apps/web && mix deps.get", ["glob:shop/apps/web/deps/**", "glob:shop/deps/**", "shop/apps/web/mix.lock", "shop/mix.lock"]],
    ["cd shop && mix help", []],
    ["cd shop && mix help compile", []],
    ["cd shop && mix run priv/seeds.exs", ["unknown:."]],
    ["cd shop && mix do deps.get, compile", ["unknown:."]],
    ["cd shop && mix docs", ["glob:shop/**"]],
    ["cd shop && mix phx.digest", ["glob:shop/**"]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
});

Ecosystems("should refuse the agent a template, generator or migration that writes where the held file is without naming it, and let listings and builds elsewhere by", ({ box }) => {
  file(box, "App.csproj", "<Project/>\n");
  file(box, "pubspec.yaml", "name: app\n");
  file(box, "mix.exs", "defmodule App.MixProject do end\n");
  denies(box, ["dotnet new console -o .", "dotnet new console --force", "dotnet ef migrations add Init", "dotnet ef dbcontext scaffold 'Data Source=a.db' Microsoft.EntityFrameworkCore.Sqlite"]);
  denies(box, ["dart run build_runner build", "flutter pub run build_runner watch", "flutter create .", "flutter gen-l10n", "flutterfire configure"]);
  denies(box, ["mix phx.gen.context Accounts User users", "mix new .", "mix ecto.gen.migration add_users --migrations-path ."]);
  allows(box, ["dotnet new list", "dotnet new console -o app", "dotnet ef migrations list", "dotnet tool restore", "dotnet test --logger trx", "dotnet sln list", "dotnet build -o out"]);
  allows(box, ["flutter build apk", "dart compile exe bin/main.dart", "dart run build_runner --help", "mix compile", "mix test", "mix help"]);
});

Ecosystems.run();
