// Build tools, test runners and packagers that write their own places in the project
// (shell-more-tools.ts, cargo's subcommands in shell-tool-rules.ts, stringer in
// shell-codegen-rules.ts): read by the Claude hook from a shell command as the files and
// directories they write. Another session holds u.ts; session s2 runs them.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Sandbox } from "./helpers.js";
import { allows, denies, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const More = suite<Context>("claims hook: Rust, JVM, test reports, Go generators, Solidity and app packagers");
More.before.each((context) => {
  context.box = heldBox();
});
More.after.each((context) => context.box.cleanup());

/** Each command run in a directory of the project, and what it writes there. */
async function check(box: Sandbox, dir: string, cases: Array<[string, string[]]>): Promise<void> {
  for (const [command, expected] of cases) assert.equal(await writes(box, `cd ${dir} && ${command}`), [...expected].sort(), `${dir}: ${command}`);
}

More("should read cargo's clippy, nextest, llvm-cov, tarpaulin and install, cross and trunk as their build directories and reports", async ({ box }) => {
  file(box, "rs/Cargo.toml", '[package]\nname = "x"\n');
  const build = ["glob:rs/target/**", "rs/Cargo.lock"];
  await check(box, "rs", [
    ["cargo clippy", build],
    ["cargo clippy --all-targets -- -D warnings", build],
    ["cargo clippy --fix --allow-dirty", [...build, "glob:rs/**"]],
    ["cargo +nightly clippy --fix", [...build, "glob:rs/**"]],
    ["cargo clippy --help", []],
    ["cargo nextest run", build],
    ["cargo nextest archive --archive-file tests.tar.zst", [...build, "rs/tests.tar.zst"]],
    ["cargo llvm-cov --lcov --output-path lcov.info", [...build, "rs/lcov.info"]],
    ["cargo llvm-cov --output-path cov.txt", [...build, "rs/cov.txt"]],
    ["cargo llvm-cov --html", build],
    ["cargo llvm-cov --html --output-dir cov", [...build, "glob:rs/cov/**"]],
    ["cargo llvm-cov show-env", []],
    ["cargo tarpaulin --out Html", [...build, "rs/tarpaulin-report.html"]],
    ["cargo tarpaulin --out Xml Lcov --output-dir cov", [...build, "rs/cov/cobertura.xml", "rs/cov/lcov.info"]],
    ["cargo tarpaulin --out=Json", [...build, "rs/tarpaulin-report.json"]],
    ["cargo tarpaulin --out Stdout", build],
    ["cross build --target aarch64-unknown-linux-gnu", build],
    ["cross test", build],
    ["cross --version", []],
    ["trunk build", ["glob:rs/dist/**", ...build]],
    ["trunk build --release --dist www", ["glob:rs/www/**", ...build]],
    ["trunk clean", ["glob:rs/dist/**"]],
    ["trunk --help", []],
    ["cargo install --path .", ["glob:rs/target/**"]],
    ["cargo install --path . --root inst", ["glob:rs/target/**", "glob:rs/inst/**"]],
    ["cargo install ripgrep", []],
    ["cargo --version", []],
  ]);
  // cross runs cargo's build, and so a build script an agent may have written (new, outside a repository): any file.
  file(box, "rb/Cargo.toml", '[package]\nname = "x"\n');
  file(box, "rb/build.rs", 'fn main() { std::fs::write("../u.ts", "x").unwrap(); }\n');
  await check(box, "rb", [["cross build", ["glob:rb/target/**", "rb/Cargo.lock", "unknown:."]]]);
  // A Trunk.toml with its own dist, or hooks it runs: anything in the project; tarpaulin.toml may name reports: any file at the root.
  file(box, "web/Cargo.toml", '[package]\nname = "w"\n');
  file(box, "web/Trunk.toml", '[[hooks]]\nstage = "build"\ncommand = "sh"\n');
  file(box, "web/tarpaulin.toml", "[report]\nout = [\"Html\"]\n");
  await check(box, "web", [
    ["trunk build", ["glob:web/**"]],
    ["cargo tarpaulin", ["glob:web/target/**", "web/Cargo.lock", "glob:web/*"]],
  ]);
});

More("should read sbt, Leiningen and gradle's lock options as their build directories, or the whole build where sources are rewritten", async ({ box }) => {
  file(box, "sc/build.sbt", 'scalaVersion := "3.3.1"\n');
  const build = ["glob:sc/**/target/**", "glob:sc/.bsp/**", "sc/project/build.properties"];
  await check(box, "sc", [
    ["sbt compile", build],
    ["sbt test", build],
    ["sbt package", build],
    ["sbt assembly", build],
    ["sbt clean", build],
    ["sbt clean compile", build],
    ['sbt ";clean;compile"', build],
    ["sbt -sbt-version 1.9.9 scalafmtCheckAll", build],
    ["sbt scalafmt", ["glob:sc/**"]],
    ["sbt scalafmtAll", ["glob:sc/**"]],
    ["sbt scalafmtSbt", ["glob:sc/**"]],
    ['sbt "scalafmtOnly src/main/scala/A.scala"', ["glob:sc/**"]],
    ['sbt "Test/scalafmt"', ["glob:sc/**"]],
    ["sbt scalafixAll", ["glob:sc/**"]],
    ['sbt "$task"', ["glob:sc/**"]],
    ["sbt new scala/scala3.g8", ["glob:sc/**"]],
    ["sbt --version", []],
    ["sbt --help", []],
  ]);
  // project/build.properties that is there is left as it is.
  file(box, "sc/project/build.properties", "sbt.version=1.9.9\n");
  await check(box, "sc", [["sbt compile", ["glob:sc/**/target/**", "glob:sc/.bsp/**"]]]);
  file(box, "clj/project.clj", '(defproject x "0.1.0")\n');
  await check(box, "clj", [
    ["lein uberjar", ["glob:clj/target/**"]],
    ["lein jar", ["glob:clj/target/**"]],
    ["lein compile", ["glob:clj/target/**"]],
    ["lein do clean, uberjar", ["glob:clj/target/**"]],
    ["lein with-profile +dev test", ["glob:clj/target/**"]],
    ["lein pom", ["glob:clj/target/**", "clj/pom.xml"]],
    ["lein release :patch", ["glob:clj/**"]],
    ["lein version", []],
    ["lein help", []],
    ["lein deps :tree", []],
    // (lein's shell plugin runs a command: read as one.)
    ["lein shell rm notes.txt", ["clj/notes.txt"]],
    ["lein do clean, shell rm notes.txt", ["clj/notes.txt", "glob:clj/target/**"]],
  ]);
  file(box, "gr/settings.gradle", "rootProject.name = 'x'\n");
  await check(box, "gr", [
    ["./gradlew dependencies --write-locks", ["glob:gr/**"]],
    ["gradle dependencies --write-locks", ["glob:gr/**"]],
    ["./gradlew build --update-locks org.x:y", ["glob:gr/**", "glob:gr/**/build/**", "glob:gr/.gradle/**"]],
    ["./gradlew --write-verification-metadata sha256 help", ["glob:gr/**"]],
    ["./gradlew dependencies", []],
    ["gradle tasks", []],
  ]);
});

More("should read test runners' report options, screenshots and snapshots as what they write", async ({ box }) => {
  file(box, "package.json", '{ "name": "x" }\n');
  const cases: Array<[string, string[]]> = [
    ["rspec --out r.txt", ["r.txt"]],
    ["rspec -o r.txt", ["r.txt"]],
    ["rspec -f j -o r.json -f p", ["r.json"]],
    ["bundle exec rspec --format RspecJunitFormatter --out rspec.xml", ["rspec.xml"]],
    ["rspec --deprecation-out dep.txt", ["dep.txt"]],
    ["rspec --init", [".rspec", "spec/spec_helper.rb"]],
    ["rspec", []],
    ["rspec --help", []],
    ["phpunit --log-junit junit.xml", ["junit.xml"]],
    ["phpunit --coverage-html cov", ["glob:cov/**"]],
    ["phpunit --coverage-clover clover.xml --coverage-text", ["clover.xml"]],
    ["phpunit --coverage-text=coverage.txt", ["coverage.txt"]],
    ["vendor/bin/phpunit --log-junit j.xml --testdox-html t.html", ["j.xml", "t.html"]],
    ["./vendor/bin/phpunit --coverage-clover build/clover.xml", ["build/clover.xml"]],
    ["phpunit --generate-configuration", ["phpunit.xml"]],
    ["phpunit --migrate-configuration", ["glob:phpunit.xml*"]],
    ["phpunit", []],
    ["phpunit --version", []],
    ["gotestsum --junitfile j.xml --jsonfile t.json", ["j.xml", "t.json"]],
    ["gotestsum --junitfile=j.xml -- ./... -count=1", ["j.xml"]],
    ['gotestsum --jsonfile="$f"', ["unknown:."]],
    ["gotestsum --post-run-command 'notify-send done' ./...", ["unknown:."]],
    ["gotestsum --raw-command -- go test -json ./...", ["unknown:."]],
    ["gotestsum --format testname", []],
    ["mocha --reporter-option output=r.xml", ["r.xml"]],
    ["mocha --reporter-options output=r.xml,foo=1", ["r.xml"]],
    ["mocha -R mocha-junit-reporter", ["test-results.xml"]],
    ["mocha -R mocha-junit-reporter -O mochaFile=out/r.xml", ["out/r.xml"]],
    ["mocha -R mochawesome", ["glob:mochawesome-report/**"]],
    ["npx mocha --reporter-option output=r.xml", ["r.xml"]],
    ["mocha", []],
    ["npx cypress run", ["glob:cypress/**"]],
    ["npx cypress run --spec cypress/e2e/a.cy.js", ["glob:cypress/**"]],
    ["npx cypress run --config screenshotsFolder=shots", ["glob:**"]],
    ["npx cypress open", ["glob:**"]],
    ["npx cypress verify", []],
    ["npx backstop reference", ["glob:backstop_data/**"]],
    ["npx backstop test", ["glob:backstop_data/**"]],
    ["npx backstop init", ["backstop.json", "glob:backstop_data/**"]],
    ["npx backstop openReport", []],
    ["npx tap --snapshot", ["glob:tap-snapshots/**"]],
    ["npx tap -S test/a.js", ["glob:tap-snapshots/**"]],
    ["TAP_SNAPSHOT=1 npx tap", ["glob:tap-snapshots/**"]],
    ["npx tap", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
  // A Cypress configuration that moves its folders: anything in the project.
  file(box, "cypress.config.js", "module.exports = { e2e: {}, screenshotsFolder: 'shots' };\n");
  assert.equal(await writes(box, "npx cypress run"), ["glob:**"]);
});

More("should read stringer without -output as the file it names after the first type, in the package's directory", async ({ box }) => {
  file(box, "go.mod", "module example.com/m\n\ngo 1.22\n");
  file(box, "pills/pill.go", "package pills\n\ntype Pill int\n");
  const cases: Array<[string, string[]]> = [
    ["stringer -type=Color", ["color_string.go"]],
    ["stringer -type=Color,Shade", ["color_string.go"]],
    ["stringer -type Pill ./pills", ["pills/pill_string.go"]],
    ["stringer -type=Pill pills/pill.go", ["pills/pill_string.go"]],
    ["stringer -linecomment -type=HTTPCode", ["httpcode_string.go"]],
    ["stringer -type=Color -output x.go", ["x.go"]],
    ['stringer -type="$T"', ["glob:*_string.go"]],
    ["go run golang.org/x/tools/cmd/stringer -type=Pill", ["pill_string.go"]],
    ["go run golang.org/x/tools/cmd/stringer@latest -type=Pill ./pills", ["pills/pill_string.go"]],
    ["go tool stringer -type=Pill", ["pill_string.go"]],
    ["stringer --help", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), [...expected].sort(), command);
});

More("should read Foundry, Hardhat and solc as their compiled outputs, forge fmt as the project's sources", async ({ box }) => {
  file(box, "sol/foundry.toml", "[profile.default]\nsrc = \"src\"\n");
  const built = ["glob:sol/out/**", "glob:sol/cache/**"];
  await check(box, "sol", [
    ["forge build", built],
    ["forge build -o artifacts", ["glob:sol/artifacts/**", "glob:sol/cache/**"]],
    ["forge test -vvv --match-test testX", built],
    ["forge snapshot", [...built, "sol/.gas-snapshot"]],
    ["forge snapshot --check", built],
    ["forge coverage --report lcov", [...built, "sol/lcov.info"]],
    ["forge script script/Deploy.s.sol", [...built, "glob:sol/broadcast/**"]],
    ["forge clean", built],
    ["forge fmt", ["glob:sol/**"]],
    ["forge fmt src/A.sol", ["sol/src/A.sol"]],
    ["forge fmt --check", []],
    ["forge fmt --help", []],
    ["forge init", ["glob:sol/**"]],
    ["forge init vault", ["glob:sol/vault/**"]],
    ["forge install", ["glob:sol/lib/**", "sol/.gitmodules", "sol/foundry.lock"]],
    ["forge install foundry-rs/forge-std", ["glob:sol/lib/**", "sol/.gitmodules", "sol/foundry.lock"]],
    ["forge --version", []],
    ["solc --bin -o out A.sol", ["glob:sol/out/**"]],
    ["solc --abi --output-dir=abi A.sol", ["glob:sol/abi/**"]],
    ["solc --bin A.sol", []],
    ["solc --version", []],
  ]);
  // foundry.toml's own `out`: anything in the project.
  file(box, "sol2/foundry.toml", '[profile.default]\nout = "build"\n');
  await check(box, "sol2", [["forge build", ["glob:sol2/**"]]]);
  file(box, "hh/package.json", '{ "name": "h" }\n');
  file(box, "hh/hardhat.config.js", 'module.exports = { solidity: "0.8.24" };\n');
  const compiled = ["glob:hh/artifacts/**", "glob:hh/cache/**", "glob:hh/typechain-types/**"];
  await check(box, "hh", [
    ["npx hardhat compile", compiled],
    ["npx hardhat test", compiled],
    ["npx hardhat --network sepolia run scripts/deploy.js", compiled],
    ["npx hardhat coverage", [...compiled, "glob:hh/coverage/**", "hh/coverage.json"]],
    ["npx hardhat --version", []],
    ["npx hardhat", []],
  ]);
  // With no configuration, `npx hardhat` is its project wizard.
  file(box, "hh2/package.json", '{ "name": "h2" }\n');
  await check(box, "hh2", [["npx hardhat", ["glob:hh2/**"]]]);
});

More("should read app packagers as the project they write, vsce as its .vsix and patch-package as its patches", async ({ box }) => {
  file(box, "app/package.json", '{ "name": "app", "version": "1.0.0" }\n');
  await check(box, "app", [
    ["npx cap sync", ["glob:app/**"]],
    ["npx cap copy ios", ["glob:app/**"]],
    ["npx cap add android", ["glob:app/**"]],
    ["npx cap update", ["glob:app/**"]],
    ["npx @capacitor/cli sync", ["glob:app/**"]],
    ["npx cap doctor", []],
    ["npx cap --help", []],
    ["npx tauri build", ["glob:app/**"]],
    ["npx tauri init", ["glob:app/**"]],
    ["yarn tauri build", ["glob:app/**"]],
    ["npx tauri info", []],
    ["npx tauri --version", []],
    ["npx electron-builder", ["glob:app/**"]],
    ["npx electron-builder --mac --projectDir desktop", ["glob:app/desktop/**"]],
    ["npx electron-builder --help", []],
    ["npx vsce package", ["glob:app/*.vsix"]],
    ["npx vsce package -o ext.vsix", ["app/ext.vsix"]],
    ["npx vsce package -o out/", ["glob:app/out/*"]],
    ["npx @vscode/vsce package", ["glob:app/*.vsix"]],
    ["npx vsce package minor", ["glob:app/**"]],
    ["npx vsce ls", []],
    ["npx patch-package lodash", ["glob:app/patches/**"]],
    ["npx patch-package --patch-dir fixes lodash", ["glob:app/fixes/**"]],
    ["npx patch-package", ["glob:app/node_modules/**"]],
  ]);
  // A vscode:prepublish script vsce runs first: anything in the project.
  file(box, "ext/package.json", '{ "name": "ext", "scripts": { "vscode:prepublish": "npm run compile" } }\n');
  await check(box, "ext", [["npx vsce package", ["glob:ext/**"]]]);
});

More("should refuse the agent such a command where it writes a file another session holds, named or not, and let the rest by", ({ box }) => {
  file(box, "Cargo.toml", '[package]\nname = "x"\n');
  file(box, "foundry.toml", "[profile.default]\n");
  file(box, "build.sbt", 'scalaVersion := "3.3.1"\n');
  file(box, "package.json", '{ "name": "x" }\n');
  // u.ts is at the project's root: a command that rewrites the whole project writes it without naming it.
  denies(box, ["forge fmt", "cargo clippy --fix", "sbt scalafmtAll", 'sbt "scalafmtOnly u.ts"', "npx cap sync", "npx tauri build", "npx electron-builder", "./gradlew dependencies --write-locks", "forge init"]);
  denies(box, ["rspec --out u.ts", "phpunit --log-junit u.ts", "gotestsum --junitfile u.ts -- ./...", "mocha --reporter-option output=u.ts", "cargo llvm-cov --lcov --output-path u.ts", "npx vsce package -o u.ts"]);
  allows(box, ["forge fmt --check", "cargo clippy", "forge build", "forge --version", "sbt compile", "npx cap doctor", "npx tauri info", "npx cypress run", "cargo tarpaulin --out Html", "npx vsce package", "stringer -type=Color"]);
});

More.run();
