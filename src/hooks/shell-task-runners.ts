// The tools package.json scripts use to run other scripts and commands, read as what they run:
// `run-s`, `run-p` and `npm-run-all` (each operand a script's name or a glob over the names:
// `build:*`), `concurrently` (each operand a command line; `npm:x` is `npm run x`), and
// start-server-and-test (a server's and the tests' commands around a URL). The wrappers among
// them (`cross-env`, `dotenv`, `shx`) are in shell-runners.ts, rimraf in shell-rules.ts.
import { nearestPackage, packageScripts } from "./package-scripts.js";
import { readOptions, type Syntax, valuedLong } from "./shell-options.js";
import type { Nested } from "./shell-runners.js";
import { UNKNOWABLE } from "./shell-words.js";

/** start-server-and-test and its aliases, and its option. */
const START_SERVER_AND_TEST = ["start-server-and-test", "start-test", "server-test"];
const START_TEST: Syntax = { long: valuedLong("expect expected") };

export const TASK_RUNNERS = ["run-s", "run-p", "npm-run-all", "concurrently", ...START_SERVER_AND_TEST];

/** npm-run-all's flags (`-p`, `-s`, `-c`, `-l`…) take nothing: only these long options take a value. */
const RUN_ALL: Syntax = { long: valuedLong("npm-path max-parallel") };
const CONCURRENTLY: Syntax = { short: "n:c:p:k:s:l:t:", long: valuedLong("names name-separator prefix prefix-colors prefix-length timestamp-format success kill-others-on-fail restart-tries restart-after max-processes passthrough-arguments default-input-target handle-input raw hide group timings") };

/** What a task runner runs, as scripts for the walk; UNKNOWABLE where an operand is not fixed. `text`: each argument's text, with a HOLE where the text does not fix it. */
export function taskRuns(runner: string, args: Array<string | undefined>, text: (at: number) => string | undefined, cwd: string | undefined): Nested[] | typeof UNKNOWABLE {
  if (START_SERVER_AND_TEST.includes(runner)) return serverAndTestRuns(args, text, cwd);
  const reading = readOptions(args, runner === "concurrently" ? CONCURRENTLY : RUN_ALL, 0, text);
  const operands = reading.operands.map((at) => args[at]);
  if (operands.some((operand) => operand === undefined)) return UNKNOWABLE;
  if (runner === "concurrently") {
    // `npm:build:*`, `yarn:lint`: a package manager's run of that script (or scripts).
    return (operands as string[]).map((line) => {
      const script = /^(npm|yarn|pnpm|bun):(.+)$/.exec(line);
      return { script: script ? `${script[1]} run ${script[2]}` : line, cwd };
    });
  }
  // Script names and globs over them (`*` stops at `:`, `**` does not), from the nearest package.json.
  if (cwd === undefined) return UNKNOWABLE;
  const directory = nearestPackage(cwd);
  if (directory === undefined) return [];
  const names = Object.keys(packageScripts(directory));
  const runs: Nested[] = [];
  for (const pattern of operands as string[]) {
    const [glob = "", ...rest] = pattern.split(/\s+/); // `"build -- --watch"`: a name and its arguments
    const matched = namesMatching(glob, names);
    if (matched === undefined) return UNKNOWABLE;
    runs.push(...matched.map((name) => ({ script: ["npm", "run", name, ...(rest.length > 0 ? ["--", ...rest] : [])].join(" "), cwd: directory })));
  }
  return runs;
}

/**
 * start-server-and-test (`start-test`, `server-test`): `[start] URL [test]`, or `start URL start2
 * URL2 test`, each command a script of package.json where it runs (`start-test gen 3000 test`: `npm
 * run gen`, `npm run test`), else a command line (`start-test 'node x.js' :3000 'npm t'`); with no
 * command before the first URL, `start`, none after the last, `test`.
 */
function serverAndTestRuns(args: Array<string | undefined>, text: (at: number) => string | undefined, cwd: string | undefined): Nested[] | typeof UNKNOWABLE {
  const reading = readOptions(args, START_TEST, 0, text);
  const operands = reading.operands.map((at) => args[at]);
  if (operands.length === 0) return []; // (`--help`: it stops there)
  if (operands.some((operand) => operand === undefined)) return UNKNOWABLE;
  // (A URL, a port, `:3000`, `http-get://…`, or several with `|`: what it waits for.)
  const url = (word: string) => word.split("|").every((part) => /^([a-z][\w+.-]*:\/\/|:?\d)/i.test(part));
  const words = operands as string[];
  const commands = [...(url(words[0] as string) ? ["start"] : []), ...words.filter((word) => !url(word)), ...(url(words.at(-1) as string) ? ["test"] : [])];
  const scripts = cwd === undefined ? {} : packageScripts(cwd);
  return commands.flatMap((command) => {
    if (Object.hasOwn(scripts, command)) return [{ script: `npm run ${command}`, cwd }];
    // (Where it runs unknown: the script of that name, or the line.)
    return cwd === undefined && !/\s/.test(command) ? [{ script: `npm run ${command}`, cwd }, { script: command, cwd }] : [{ script: command, cwd }];
  });
}

/**
 * The task names a glob over them matches, as npm-run-all and mise read one (`*` stops at `:`, `**`
 * does not, `?` one character); undefined for a glob with more than two `*` or braces, or a name
 * past 200 characters, whose matching could take the hook's whole time (a regular expression of
 * many `[^:]*` backtracks).
 */
export function namesMatching(glob: string, names: string[]): string[] | undefined {
  if (!/[*?[\]{}]/.test(glob)) return names.filter((name) => name === glob);
  if ((glob.match(/\*/g) ?? []).length > 2 || /[[\]{}]/.test(glob) || names.some((name) => name.length > 200)) return undefined;
  const match = new RegExp(`^${glob.replace(/[.+^${}()|\\]/g, "\\$&").replaceAll("**", "\u0000").replaceAll("*", "[^:]*").replaceAll("\u0000", ".*").replaceAll("?", ".")}$`);
  return names.filter((name) => match.test(name));
}
