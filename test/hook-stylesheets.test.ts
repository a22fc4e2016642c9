// Stylesheet compilers, read by the Claude hook from a shell command: sass (and dart-sass,
// node-sass), lessc, stylus, tailwindcss and postcss write the CSS their operands or options name,
// or one beside each source, and print it otherwise. Another session holds u.ts and the stylesheets
// below; session s2 runs the command.
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claims, type Sandbox } from "./helpers.js";
import { bash, file, heldBox, writes } from "./hook-shell-helpers.js";

type Context = { box: Sandbox };
const Styles = suite<Context>("claims hook: stylesheets a compiler writes");
Styles.before.each((context) => {
  const box = heldBox();
  context.box = box;
  file(box, "styles/app.scss", "@use 'vars';\na { color: vars.$c; }\n");
  file(box, "styles/_vars.scss", "$c: red;\n");
  file(box, "styles/pages/home.scss", "h1 { margin: 0; }\n");
  file(box, "less/app.less", "@c: red;\na { color: @c; }\n");
  file(box, "styl/app.styl", "a\n  color red\n");
  file(box, "css/in.css", "@tailwind base;\n");
  file(box, "tailwind.config.js", "module.exports = {};\n");
  // Held by another session: built stylesheets (none there yet but styl/app.css), an input postcss
  // rewrites in place, and the configs tailwindcss init makes.
  for (const path of ["dist/app.css", "public/css/home.css", "styl/app.css", "css/in.css", "tailwind.config.ts", "postcss.config.js", "tailwind.config.js"]) {
    claims(["take", join(box.project, path), "--dir", box.dir, "--holder", "other", "--purpose", "restyling"]);
  }
  file(box, "styl/app.css", "a { color: red; }\n");
});
Styles.after.each((context) => context.box.cleanup());

/** The hook's answer to each command: `expected` ("deny", or undefined for an allow). */
function answers(box: Sandbox, commands: string[], expected: "deny" | undefined): void {
  for (const command of commands) assert.is(bash(box, command), expected, command);
}

Styles("should read sass, dart-sass and node-sass as the CSS and source map they write, and sass printing to stdout as no write", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["sass styles/app.scss dist/app.css", ["dist/app.css", "dist/app.css.map"]],
    ["sass styles/app.scss", []], // no output: printed
    ["sass styles/app.scss:dist/app.css styles/pages:public/css", ["dist/app.css", "dist/app.css.map", "glob:public/css/**/*.css", "glob:public/css/**/*.css.map"]],
    ["sass styles/pages", ["glob:styles/pages/**/*.css", "glob:styles/pages/**/*.css.map"]], // a directory alone: in place
    ["sass --no-source-map styles/app.scss dist/app.css", ["dist/app.css"]],
    ["sass --embed-source-map --style=compressed styles/app.scss dist/app.css", ["dist/app.css"]],
    ["sass --watch styles/app.scss dist/app.css", ["dist/app.css", "dist/app.css.map"]], // watching still writes
    ["sass --update -I node_modules styles:dist", ["glob:dist/**/*.css", "glob:dist/**/*.css.map"]],
    ["echo 'a{}' | sass --stdin dist/app.css", ["dist/app.css", "dist/app.css.map"]], // --stdin: its operand is the output
    ["echo 'a{}' | sass --stdin", []],
    ["sass --help", []],
    ["dart-sass styles/app.scss dist/app.css", ["dist/app.css", "dist/app.css.map"]],
    ["npx sass@1 styles/app.scss dist/app.css", ["dist/app.css", "dist/app.css.map"]],
    ['sass styles/app.scss "$OUT/app.css"', ["unknown:app.css"]],
    ["node-sass styles/app.scss dist/app.css", ["dist/app.css"]],
    ["node-sass styles/app.scss -o dist --source-map true", ["dist/app.css", "dist/app.css.map"]],
    ["node-sass styles -o public/css", ["glob:public/css/**/*.css"]], // a directory's sources, mirrored
    ["node-sass --output-style compressed styles/app.scss", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  answers(
    box,
    [
      "sass styles/app.scss dist/app.css",
      "sass styles/app.scss:dist/app.css",
      "sass styles/pages:public/css",
      "sass --watch styles/app.scss dist/app.css",
      "sass --update styles:dist",
      "echo 'a{}' | sass --stdin dist/app.css",
      "dart-sass styles/app.scss dist/app.css",
      "npx sass styles/app.scss dist/app.css",
      "node-sass styles/app.scss dist/app.css",
      "node-sass styles/app.scss -o dist",
    ],
    "deny",
  );
  answers(box, ["sass styles/app.scss", "sass --style=compressed styles/app.scss > /tmp/app.css", "sass styles/app.scss build/app.css", "echo 'a{}' | sass --stdin", "node-sass styles/app.scss", "sass --version"], undefined);
});

Styles("should read lessc and stylus as the CSS they write, and their printing, linting and dependency lists as none", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["lessc less/app.less dist/app.css", ["dist/app.css"]],
    ["lessc less/app.less", []], // printed
    ["lessc --source-map less/app.less dist/app.css", ["dist/app.css", "dist/app.css.map"]],
    ["lessc --source-map=maps/app.map less/app.less", ["maps/app.map"]], // written even when the CSS is printed
    ["lessc -ru=all --include-path=less less/app.less dist/app.css", ["dist/app.css"]], // `-ru=all` is one option
    ["lessc --lint less/app.less dist/app.css", []],
    ["lessc -M less/app.less dist/app.css", []], // its dependencies, printed
    ["stylus styl/app.styl", ["styl/app.css"]], // beside its source
    ["stylus -m styl", ["glob:styl/*.css", "glob:styl/*.css.map"]],
    ["stylus -o dist styl/app.styl", ["dist/app.css"]],
    ["stylus --out dist/app.css -c styl/app.styl", ["dist/app.css"]],
    ["stylus --ext .min.css -o dist styl/app.styl", ["dist/app.min.css"]],
    ["stylus -p styl/app.styl", []], // printed
    ["stylus < styl/app.styl", []],
    ["stylus --css css/in.css", ["css/in.styl"]], // CSS to Stylus, beside it
    ["stylus --deps styl/app.styl", []],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  answers(box, ["lessc less/app.less dist/app.css", "npx lessc --source-map less/app.less dist/app.css", "stylus styl/app.styl", "stylus -o dist styl/app.styl", "stylus --out dist styl", "cd styl && stylus app.styl"], "deny");
  answers(box, ["lessc less/app.less", "lessc less/app.less build/app.css", "lessc --lint less/app.less dist/app.css", "lessc -M less/app.less dist/app.css", "stylus -p styl/app.styl", "stylus < styl/app.styl", "stylus -o build styl/app.styl"], undefined);
});

Styles("should read tailwindcss (also run as @tailwindcss/cli) as its -o file and init's configs where none is, and postcss as -o, -d and -r", async ({ box }) => {
  const cases: Array<[string, string[]]> = [
    ["tailwindcss -i css/in.css -o dist/app.css --minify", ["dist/app.css"]],
    ["npx tailwindcss -i ./css/in.css -o ./dist/app.css --watch", ["dist/app.css"]],
    ["npx @tailwindcss/cli -i css/in.css --output=dist/app.css --map", ["dist/app.css", "dist/app.css.map"]],
    ["pnpm dlx @tailwindcss/cli@4 --cwd dist -o app.css", ["dist/app.css"]], // from --cwd's directory
    ["tailwindcss -i css/in.css", []], // printed
    ["tailwindcss -i css/in.css -o -", []],
    ["tailwindcss init", []], // tailwind.config.js is there: init leaves it
    ["tailwindcss init --ts -p", ["postcss.config.js", "tailwind.config.ts"]],
    ["tailwindcss init --help", []],
    ["postcss css/in.css -o dist/app.css", ["dist/app.css"]],
    ["postcss css/in.css -o dist/app.css -m", ["dist/app.css", "dist/app.css.map"]],
    ["postcss 'css/**/*.css' --base css -d dist", ["glob:dist/**"]],
    ["postcss -u autoprefixer -r css/in.css", ["css/in.css"]], // -u's words are plugins; -r rewrites its inputs
    ["npx postcss-cli css/in.css -o dist/app.css", ["dist/app.css"]],
    ["postcss css/in.css", []], // printed
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command);
  answers(
    box,
    [
      "tailwindcss -i css/in.css -o dist/app.css",
      "npx tailwindcss -o dist/app.css --minify",
      "npx @tailwindcss/cli -i css/in.css -o dist/app.css",
      "bunx @tailwindcss/cli@4.1 -i css/in.css -o dist/app.css",
      "tailwindcss init --ts",
      "npx tailwindcss init -p",
      "postcss css/in.css -o dist/app.css",
      "postcss css/in.css --dir dist",
      "postcss --replace css/in.css",
      "npx postcss-cli css/in.css -o dist/app.css",
    ],
    "deny",
  );
  answers(box, ["tailwindcss -i css/in.css", "npx @tailwindcss/cli -i css/in.css -o build/app.css", "tailwindcss init", "postcss css/in.css", "postcss css/in.css -o build/app.css", "postcss --help"], undefined);
});

Styles.run();
