// Stylesheet compilers, which write the CSS (and source map) their operands or options name, or one
// beside each source: sass (Dart Sass, also as dart-sass; `in out`, `in:out`, `dir:out`, a directory
// alone in place), node-sass (`in out`, `-o dir`), lessc (`in out`), stylus (beside each source, or
// `-o`), tailwindcss (`-o`, `init`'s config) and postcss (`-o`, `-d`, `-r` its inputs). One that
// prints its CSS (`sass in.scss`, `lessc in.less`, `postcss in.css`) writes nothing. Each is read
// as its own command-line parser reads it; what each relies on is cited where it is read.
import { basename, dirname, extname, join } from "node:path";
import { isDirectory } from "../targets/target.js";
import { UNKNOWN_MARK } from "./payload.js";
import { type Syntax, valuedLong } from "./shell-options.js";
import { createdIfMissing, globOf, loadedFiles, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { asksHelp, operandFiles } from "./shell-tool-rules.js";
import { anyIn, anyUnder, directoryAt, HOLE, judgedPath, outputs, UNKNOWABLE, within } from "./shell-words.js";

/** A CSS file a compiler writes, and the source map beside it (`out.css.map`) when it writes one. */
const withMap = (file: string, map: boolean): string[] => (map && !file.startsWith("\0") ? [file, `${file}.map`] : [file]);

/** What a compiler writes under a directory: every `.css` there at any depth, and their maps. */
const cssUnder = (directory: string | undefined, map: boolean): string[] =>
  directory === undefined ? [UNKNOWABLE] : [globOf(join(directory, "**", "*.css")), ...(map ? [globOf(join(directory, "**", "*.css.map"))] : [])];

/**
 * Dart Sass (sass-lang.com/documentation/cli/dart-sass, and `sass --help` of 1.108): `sass in
 * [out]` compiles one file to out, or prints it without one (also with `--stdin`, whose one
 * operand is the output); `sass in:out dir:outdir …` (many-to-many: a directory's non-partial
 * sources to the same names under outdir), and a directory alone compiles in place. `--update` and
 * `--watch` write the same files. Beside each CSS file, its `.css.map` unless `--no-source-map` or
 * `--embed-source-map`. Options are Dart's args package's: whole names, values with `=` or apart.
 */
function sass(input: RuleInput): string[] {
  const { reading, walk } = input;
  if (reading.has("h", "version", "i")) return [];
  const map = !reading.has("no-source-map", "embed-source-map");
  // An operand as written, with a HOLE where the text does not fix it; the path it names, judged by what the text fixes.
  const texts = reading.operands.map((at) => input.args[at] ?? input.text(at));
  const path = (text: string) => outputs([judgedPath(text)]).map((judged) => within(walk.cwd, judged));
  const directory = (text: string) => !text.includes(HOLE) && isDirectory(within(walk.cwd, text));
  if (texts.some((text) => text === undefined || text.includes(":"))) {
    return texts.flatMap((text) => {
      if (text === undefined) return [UNKNOWABLE];
      const colon = text.indexOf(":");
      if (colon === -1) return directory(text) ? cssUnder(directoryAt(walk.cwd, text), map) : [];
      const [source, output] = [text.slice(0, colon), text.slice(colon + 1)];
      if (source === "" || output === "") return []; // sass stops at it
      // A directory's sources land under the output as a tree; one the text does not fix may be either.
      if (source.includes(HOLE) || output.includes(HOLE)) return path(output).flatMap((target) => [...withMap(target, map), ...(target.startsWith("\0") ? [] : cssUnder(target, map))]);
      return directory(source) ? cssUnder(directoryAt(walk.cwd, output), map) : path(output).flatMap((target) => withMap(target, map));
    });
  }
  const output = reading.has("stdin") ? texts[0] : texts[1];
  if (output !== undefined) return path(output).flatMap((target) => withMap(target, map));
  // One operand: a file is printed; a directory is compiled in place; one the text does not fix may be either.
  const only = texts[0];
  if (only === undefined || reading.has("stdin")) return [];
  if (only.includes(HOLE)) return /\.(scss|sass|css)$/.test(only) ? [] : [UNKNOWABLE];
  return directory(only) ? cssUnder(directoryAt(walk.cwd, only), map) : [];
}

const SASS: Syntax = {
  short: "I:p:s:",
  long: {
    "load-path": "I",
    "pkg-importer": "p",
    style: "s",
    ...valuedLong("source-map-urls fatal-deprecation silence-deprecation future-deprecation"),
    stdin: "",
    "no-source-map": "",
    "embed-source-map": "",
    interactive: "i",
    watch: "w",
    help: "h",
    version: "",
  },
  exact: true,
};

/**
 * node-sass (its bin/node-sass, read with meow): `node-sass in out`, or `-o dir` (a file's
 * `dir/name.css`; a directory's sources mirrored under dir), else it prints. `--source-map true`
 * writes `out.css.map`, `--source-map FILE` that file (a directory: the map in it). minimist takes
 * a value for any option it is not told is a flag.
 */
function nodeSass(input: RuleInput): string[] {
  const { reading, walk } = input;
  if (reading.has("h", "v")) return [];
  const [source, destination] = reading.operands;
  const sourcePath = source === undefined ? undefined : input.values([source])[0];
  const named = reading.value("o");
  let written: string[] = [];
  if (destination !== undefined) written = input.values([destination]).map((path) => within(walk.cwd, path));
  else if (reading.has("o") && sourcePath !== undefined) {
    // -o's directory: a directory's sources mirrored under it (one the text does not fix may be one), a file's `name.css` in it.
    if (named === undefined) written = [UNKNOWABLE];
    else if (sourcePath.startsWith("\0") || isDirectory(within(walk.cwd, sourcePath))) written = cssUnder(directoryAt(walk.cwd, named), false);
    else written = [within(walk.cwd, join(named, `${basename(sourcePath, extname(sourcePath))}.css`))];
  }
  if (!reading.has("source-map") || written.length === 0) return written;
  const map = reading.value("source-map");
  if (map === undefined) return [...written, UNKNOWABLE];
  if (map === "true") return written.flatMap((path) => (path.startsWith("\0") ? [path, `${UNKNOWN_MARK}*.css.map`] : [path, `${path}.map`]));
  const place = within(walk.cwd, map);
  return [...written, map.endsWith(".map") || !isDirectory(place) ? place : anyIn(place)];
}

const NODE_SASS: Syntax = {
  short: "o:",
  long: { output: "o", help: "h", version: "v", ...valuedLong("source-map functions importer include-path indent-type indent-width linefeed output-style precision source-map-root") },
  exact: true,
};

/**
 * lessc (less's bin/lessc): `lessc in [out]` writes out, else prints; `--source-map` writes
 * `out.map` beside it, `--source-map=F` F (even when printing); `-M`/`--depends` and `-l`/`--lint`
 * write no CSS. Its options are whole words matched by `^--?([a-z][0-9a-z-]*)(?:=(.*))?$`, their
 * values only after `=` (`-ru=all` is one option), and `-Ipath` an include path.
 */
function lessc(input: RuleInput): string[] {
  const options = new Map<string, string | undefined>();
  const files: number[] = [];
  for (const [at, arg] of input.args.entries()) {
    const option = arg === undefined || /^-I./.test(arg) ? undefined : /^--?([a-z][0-9a-z-]*)(?:=(.*))?$/is.exec(arg);
    if (option) options.set(option[1] as string, option[2]);
    else if (arg === undefined || !/^-I./.test(arg)) files.push(at);
  }
  const has = (...names: string[]) => names.some((name) => options.has(name));
  if (has("h", "help", "v", "version", "l", "lint")) return [];
  const destination = files[1] === undefined ? undefined : input.values([files[1]])[0];
  const css = destination === undefined || has("M", "depends") ? [] : [within(input.walk.cwd, destination)];
  const inline = has("source-map-inline", "source-map-map-inline");
  const named = options.get("source-map");
  const map = !has("source-map") || inline ? [] : named !== undefined && named !== "" ? [within(input.walk.cwd, named)] : css.map((path) => `${path}.map`);
  return [...css, ...map];
}

/** stylus's options that take the next word as their value (its bin/stylus reads each word whole). */
const STYLUS_VALUED = ["-u", "--use", "--with", "-o", "--out", "-I", "--include", "-P", "--prefix", "--sourcemap-root", "--sourcemap-base", "--import", "--ext", "help"];

/**
 * stylus (its bin/stylus): each file it is given compiles to `name.css` beside it (a directory:
 * each `.styl` in it), or in `-o`/`--out`'s directory (`-o out.css` with one file: that file;
 * `--ext`'s extension instead of `.css`); `-m`/`--sourcemap` writes `name.css.map` with each (not
 * `--sourcemap-inline`), even with `-p`/`--print`, which prints the CSS instead. With no file it
 * reads stdin and prints, or with `-w` compiles each `.styl` where it runs. `-C`/`--css` converts
 * CSS to Stylus: to its second file, else `name.styl` beside the first, else it prints. `-D`,
 * `-i`, `-h`, `-V` and `help` write nothing.
 */
function stylus(input: RuleInput): string[] {
  const { args, walk } = input;
  const flags = new Set<string>();
  const values = new Map<string, string | undefined>();
  const files: number[] = [];
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg !== undefined && STYLUS_VALUED.includes(arg)) values.set(arg.replace(/^--?/, ""), args[++at]);
    else if (arg !== undefined && arg.startsWith("-") && arg !== "-") flags.add(arg.replace(/^--?/, ""));
    else files.push(at);
  }
  const given = (...names: string[]) => names.some((name) => flags.has(name) || values.has(name));
  if (given("h", "help", "V", "version", "i", "interactive", "repl", "D", "deps")) return [];
  const paths = input.values(files);
  if (given("C", "css")) return paths.length >= 2 ? [within(walk.cwd, paths[1] as string)] : paths.length === 1 ? [within(walk.cwd, (paths[0] as string).replace(/(\.[^./]*)?$/, ".styl"))] : [];
  const map = given("m", "sourcemap") && !given("sourcemap-inline");
  const css = !given("p", "print");
  const ext = values.get("ext") ?? ".css";
  const out = values.has("o") || values.has("out") ? (values.get("o") ?? values.get("out")) : "";
  if ((values.has("o") || values.has("out")) && out === undefined) return [UNKNOWABLE];
  // One file to a `.css` named by `-o`; else `-o` is a directory (of a `.css` name's, with several files).
  const single = paths.length === 1 && out !== "" && extname(out as string) === ".css";
  const outDirectory = out === "" ? undefined : directoryAt(walk.cwd, extname(out as string) === ".css" ? dirname(out as string) : (out as string));
  const written = (name: string, directory: string | undefined) => [
    ...(css ? [directory === undefined ? UNKNOWN_MARK + name : join(directory, name)] : []),
    ...(map ? [directory === undefined ? `${UNKNOWN_MARK}${name}.map` : join(directory, `${name}.map`)] : []),
  ];
  if (paths.length === 0) return given("w", "watch") ? written(`*${ext}`, outDirectory ?? walk.cwd).map(globOf) : [];
  if (single) return withMap(within(walk.cwd, out as string), map).filter((_, index) => css || index > 0);
  return paths.flatMap((path) => {
    if (path.startsWith("\0")) return written(`*${ext}`, outDirectory).map((found) => (found.startsWith("\0") ? found : globOf(found)));
    const place = within(walk.cwd, path);
    if (isDirectory(place)) return written(`*${ext}`, outDirectory ?? place).map(globOf);
    return written(`${basename(path, extname(path))}${ext}`, outDirectory ?? dirname(place));
  });
}

/**
 * Tailwind CSS's CLI (v3's `tailwindcss --help`; v4's @tailwindcss/cli, its build command's
 * options): `-o`/`--output` (from `--cwd`'s directory, v4), else it prints (also `-o -`); v4's
 * `--map` writes the source map beside it (`--map=F`: F). v3's `init [file]` makes the config
 * (`tailwind.config.js`, `.ts` with `--ts`) and with `-p`/`--postcss` `postcss.config.js`, each
 * only where none is there (its init skips one that exists).
 */
function tailwind(input: RuleInput): string[] {
  const { reading, walk, args } = input;
  if (asksHelp(input) || reading.has("h")) return [];
  const [first, second] = reading.operands;
  if (first !== undefined && args[first] === "init") {
    const config = second === undefined ? `tailwind.config.${reading.has("ts") ? "ts" : "js"}` : input.values([second])[0];
    return [...(config === undefined ? [] : createdIfMissing(walk.cwd, config)), ...(reading.has("p", "postcss") ? createdIfMissing(walk.cwd, "postcss.config.js") : [])].map((path) => within(walk.cwd, path));
  }
  const base = reading.has("cwd") ? directoryAt(walk.cwd, reading.value("cwd")) : walk.cwd;
  const written = optionFiles(input, ["o"]).map((path) => within(base, path));
  if (!reading.has("map") || written.length === 0) return written;
  const map = reading.value("map");
  return [...written, ...(map === undefined || map === "true" ? written.map((path) => (path.startsWith("\0") ? path : `${path}.map`)) : map === "false" ? [] : [within(base, map)])];
}

const TAILWIND: Syntax = {
  short: "i:o:c:",
  long: { input: "i", output: "o", config: "c", map: "::", ...valuedLong("content cwd"), postcss: "", ts: "", esm: "", full: "", help: "h" },
  exact: true,
};

/**
 * postcss-cli (its lib/args.js, yargs): `-o`/`--output` its file, `-d`/`--dir` anything under
 * that directory (each input by its name, or mirrored from `--base`), `-r`/`--replace` each input
 * in place (a directory or glob: what it matches); an external map beside each with `-m`/`--map`;
 * else it prints. `-u`/`--use` takes every word after it up to the next option (a yargs array).
 */
function postcss(input: RuleInput): string[] {
  const { reading, walk, args } = input;
  if (asksHelp(input) || reading.has("h", "version")) return [];
  const map = reading.has("m");
  const plugins = new Set<number>();
  for (const [at, arg] of args.entries()) {
    if (arg !== "-u" && arg !== "--use") continue;
    for (let next = at + 1; next < args.length && !(args[next] ?? "").startsWith("-"); next++) plugins.add(next);
  }
  const inputs = reading.operands.filter((at) => !plugins.has(at));
  if (reading.has("o")) return optionFiles(input, ["o"]).flatMap((path) => withMap(within(walk.cwd, path), map));
  if (reading.has("d")) return [anyUnder(directoryAt(walk.cwd, reading.value("d")))];
  if (reading.has("r")) return operandFiles(input, inputs, []).flatMap((path) => withMap(path, map && !path.startsWith("\0") && !isDirectory(within(walk.cwd, path))));
  return [];
}

const POSTCSS: Syntax = {
  short: "o:d:",
  long: { output: "o", dir: "d", replace: "r", use: "u", map: "m", watch: "w", help: "h", version: "", ...valuedLong("env parser stringifier syntax ext base config") },
  exact: true,
};

export const STYLESHEET_RULES: Record<string, Rule> = {
  sass: { syntax: SASS, writes: sass },
  "dart-sass": { syntax: SASS, writes: sass },
  "node-sass": { syntax: NODE_SASS, writes: nodeSass, runsLines: loadedFiles(["importer", "functions"], "node") },
  lessc: { syntax: {}, writes: lessc },
  stylus: { syntax: {}, writes: stylus, runsLines: loadedFiles(["u", "use"], "node") },
  tailwindcss: { syntax: TAILWIND, writes: tailwind },
  postcss: { syntax: POSTCSS, writes: postcss, runsLines: loadedFiles(["u", "use"], "node") },
};
