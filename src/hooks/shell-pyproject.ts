// The task runners of Python projects that keep their tasks in pyproject.toml: `pdm run NAME`
// (`[tool.pdm.scripts]`), `hatch run NAME` (`[tool.hatch.envs.default.scripts]`, or ENV's for
// `hatch run ENV:NAME`), `poe NAME` (`[tool.poe.tasks]`). A task written as a string, a list of
// strings, or a table with `cmd` or `shell` (also as a section of its own) is read as the command
// line it runs, from the project's directory; one written another way (a `call`, a `composite` of
// other tasks, `ref`, `script`) could run anything: any file. A name that is no task pdm and hatch
// run as a command (read as their runner's, shell-runners.ts); poe refuses.
import { dirname } from "node:path";
import type { Nested } from "./shell-runners.js";
import { nearestFile, readText, shellQuoted, UNKNOWABLE } from "./shell-words.js";

/** What `pdm run`, `hatch run` or `poe` given these words runs; undefined where it is not one of them running a task. */
export function pyprojectRuns(runner: string, args: Array<string | undefined>, cwd: string | undefined): Nested[] | typeof UNKNOWABLE | undefined {
  let at = 0;
  if (runner === "pdm" || runner === "hatch") {
    // Their options before `run`, and run's own before the task (`pdm run -v fmt`).
    while (at < args.length && args[at]?.startsWith("-")) at++;
    // `hatch fmt`: ruff's fixes and formatting over the project (not with --check); `hatch version
    // minor`: a bump of the version file its config names, read here as any file.
    if (runner === "hatch" && args[at] === "fmt") {
      if (cwd === undefined) return UNKNOWABLE;
      if (args.includes("--check")) return [];
      const root = nearestFile(cwd, (names) => (names.includes("pyproject.toml") ? "pyproject.toml" : names.includes("hatch.toml") ? "hatch.toml" : undefined));
      const directory = root === undefined ? cwd : dirname(root);
      return [{ script: "ruff check --fix .", cwd: directory }, { script: "ruff format .", cwd: directory }];
    }
    if (runner === "hatch" && args[at] === "version") return args.slice(at + 1).some((arg) => arg === undefined || !arg.startsWith("-")) ? UNKNOWABLE : [];
    if (args[at] !== "run") return undefined;
    at++;
  }
  while (at < args.length && args[at]?.startsWith("-")) at++;
  if (at >= args.length) return undefined;
  const word = args[at];
  if (word === undefined || cwd === undefined) return UNKNOWABLE;
  const manifest = nearestFile(cwd, (names) => (names.includes("pyproject.toml") ? "pyproject.toml" : undefined));
  const text = manifest === undefined ? undefined : readText(manifest);
  // The words after the name, passed on as written (one the text does not fix: a part unknown).
  const rest = args.slice(at + 1).map((arg) => (arg === undefined ? '"$__task_argument"' : shellQuoted(arg)));
  const [env, name] = runner === "hatch" && word.includes(":") ? (word.split(":", 2) as [string, string]) : ["default", word];
  const section = runner === "pdm" ? "tool.pdm.scripts" : runner === "poe" ? "tool.poe.tasks" : `tool.hatch.envs.${env}.scripts`;
  const task = text === undefined ? undefined : taskOf(text, section, name);
  if (task === "unread") return UNKNOWABLE;
  const directory = manifest === undefined ? cwd : dirname(manifest);
  // No task of that name: pdm and hatch run it as a command, read as their runner's (shell-runners.ts).
  if (task === undefined) return runner === "poe" ? [] : undefined;
  return task.map((line, index) => ({ script: index === task.length - 1 ? [line, ...rest].join(" ") : line, cwd: directory }));
}

/** A task's command lines, from `[section] name = …` or `[section.name]`; "unread" for a form not read, undefined for none of that name. */
function taskOf(text: string, section: string, name: string): string[] | "unread" | undefined {
  const lines = text.split(/\r?\n/);
  let current = "";
  const table = new Map<string, string>();
  let found: string[] | "unread" | undefined;
  for (const line of lines) {
    const header = /^\s*\[([^\]]+)\]\s*(#.*)?$/.exec(line);
    if (header) {
      current = (header[1] as string).trim().replace(/\s*\.\s*/g, ".").replace(/"/g, "");
      continue;
    }
    const pair = /^\s*("?)([\w.:-]+)\1\s*=\s*(.*?)\s*$/.exec(line);
    if (!pair) continue;
    const [, , key, value] = pair as unknown as [string, string, string, string];
    if (current === section && key === name) found = valueOf(value);
    if (current === `${section}.${name}`) table.set(key, value);
  }
  if (found !== undefined) return found;
  if (table.size === 0) return undefined;
  const line = table.get("cmd") ?? table.get("shell");
  return line === undefined ? "unread" : valueOf(line);
}

/** A TOML value as command lines: a string, a list of strings, an inline table's `cmd` or `shell`. */
function valueOf(value: string): string[] | "unread" {
  const single = /^"((?:[^"\\]|\\.)*)"\s*(#.*)?$/.exec(value) ?? /^'([^']*)'\s*(#.*)?$/.exec(value);
  if (single) return [(single[1] as string).replace(/\\(["\\])/g, "$1")];
  const list = /^\[(.*)\]\s*(#.*)?$/.exec(value);
  if (list) {
    const items = [...(list[1] as string).matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((match) => (match[1] ?? match[2] ?? "").replace(/\\(["\\])/g, "$1"));
    return items.length > 0 ? items : "unread";
  }
  const inline = /^\{.*\b(cmd|shell)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*'|\[[^\]]*\])/.exec(value);
  if (inline && !/\b(call|composite|ref|script|sequence)\s*=/.test(value)) return valueOf(inline[2] as string);
  return "unread";
}

export const PYPROJECT_RUNNERS = ["pdm", "hatch", "poe"];
