// tox's environments run the commands its configuration lists (`commands`, `commands_pre`,
// `commands_post` of `[testenv]` and `[testenv:NAME]` in tox.ini): `tox -e fmt` running `black .`
// or `ruff --fix` is how many Python projects format. Each command is read as a line of its own,
// from the environment's `changedir` (else the directory of tox.ini), with `{posargs}` the words
// after `--`, `{toxinidir}` that directory and the environment's own places put in (substitute).
// Another of tox's substitutions is a value the text does not give. A configuration this does not
// read (tox.toml, pyproject.toml's `[tool.tox]`, a tox.ini the command writes first, a reference to
// another section's commands) could run anything: any file.
import { existsSync } from "node:fs";
import { isDirectory } from "../targets/target.js";
import { dirname, join } from "node:path";
import { readOptions, type Syntax, valuedLong } from "./shell-options.js";
import type { Nested } from "./shell-runners.js";
import { directoryAt, nearestFile, readText, UNKNOWABLE } from "./shell-words.js";

const TOX: Syntax = { short: "e:c:m:f:x:", long: { ...valuedLong("conf workdir root installpkg override labels factors"), conf: "c" } };

/** What `tox …` runs, as lines for the walk; UNKNOWABLE where its configuration cannot be read. */
export function toxRuns(args: Array<string | undefined>, text: (at: number) => string | undefined, cwd: string | undefined, written: (path: string) => boolean, toxenv: string | undefined): Nested[] | typeof UNKNOWABLE {
  const reading = readOptions(args, TOX, 0, text);
  // Listing, configuration and help run no environment (before `--`; tox 4's subcommand is its first operand).
  const before = args.indexOf("--") === -1 ? args : args.slice(0, args.indexOf("--"));
  if (before.some((arg) => ["-l", "--listenvs", "-a", "--listenvs-all", "--help", "-h", "--version", "--showconfig"].includes(arg ?? ""))) return [];
  if (["config", "list", "l", "c", "devenv", "de", "quickstart", "q"].includes(args[reading.operands[0] ?? -1] ?? "")) return [];
  if (cwd === undefined) return UNKNOWABLE;
  const given = reading.has("c") ? directoryAt(cwd, reading.value("c")) : undefined;
  if (reading.has("c") && given === undefined) return UNKNOWABLE;
  if (given !== undefined && !given.endsWith(".ini") && !isDirectory(given)) return UNKNOWABLE; // tox.toml, pyproject.toml, setup.cfg: not read
  // The tox.ini tox reads from where it runs: there or in the nearest directory above.
  const config = given === undefined ? nearestFile(cwd, (names) => (names.includes("tox.ini") ? "tox.ini" : undefined)) : given.endsWith(".ini") ? given : join(given, "tox.ini");
  if (config === undefined) return existsSync(join(cwd, "tox.toml")) || /^\[tool\.tox\b/m.test(readText(join(cwd, "pyproject.toml")) ?? "") || /^\[tox:/m.test(readText(join(cwd, "setup.cfg")) ?? "") ? UNKNOWABLE : [];
  if (written(config)) return UNKNOWABLE;
  const source = readText(config);
  if (source === undefined) return UNKNOWABLE;
  const sections = readIni(source);
  const root = dirname(config);
  const dashes = args.indexOf("--");
  const posargs = dashes === -1 ? undefined : args.slice(dashes + 1);
  // The environments asked for (`-e a,b`, `-e ALL`, or TOXENV).
  const named = reading.has("e") ? reading.values("e") : toxenv !== undefined ? [toxenv] : [];
  if (named.some((value) => value === undefined)) return UNKNOWABLE;
  const envs = named.flatMap((value) => (value as string).split(",")).map((name) => name.trim()).filter((name) => name !== "");
  // Else its envlist (`py{311,312}` brace forms: every environment), else every one it defines.
  const defined = [...sections.keys()].filter((name) => name === "testenv" || name.startsWith("testenv:")).map((name) => name.replace(/^testenv:?/, ""));
  const envlist = sections.get("tox")?.get("envlist") ?? sections.get("tox")?.get("env_list");
  const listed = envlist === undefined || /[{}]/.test(envlist) ? undefined : envlist.split(/[\s,]+/).filter((name) => name !== "");
  const chosen = envs.includes("ALL") ? defined : envs.length > 0 ? envs : (listed ?? defined);
  const runs: Nested[] = [];
  for (const env of chosen.length === 0 ? [""] : chosen) {
    const own = sections.get(env === "" ? "testenv" : `testenv:${env}`) ?? new Map<string, string>();
    const base = sections.get("testenv") ?? new Map<string, string>();
    const value = (keys: string[]) => keys.map((key) => own.get(key) ?? base.get(key)).find((found) => found !== undefined);
    const changedir = value(["changedir", "change_dir"]);
    const where = changedir === undefined ? root : directoryAt(root, substitute(changedir.trim(), root, posargs, env));
    for (const key of [["commands_pre"], ["commands"], ["commands_post"]]) {
      const lines = value(key) ?? "";
      // Another section's commands (`{[testenv]commands}`): not read.
      if (/\{\[[^\]]*\][^}]*\}/.test(lines)) return UNKNOWABLE;
      for (const line of lines.split("\n")) {
        // A factor-conditional line (`lint: ruff check .`, `!py27: …`): read whatever its factors.
        const command = substitute(line.trim().replace(/^!?[\w.,-]+:\s+(?=\S)/, "").replace(/^[-!]\s*/, ""), root, posargs, env);
        if (command !== "" && !command.startsWith("#")) runs.push({ script: command, cwd: where });
      }
    }
  }
  return runs;
}

/**
 * `{posargs}` (`{posargs:default}`), `{toxinidir}`, and the places tox keeps an environment in
 * (`{toxworkdir}` .tox, `{envdir}`, `{envtmpdir}`, `{envlogdir}`, `{envbindir}`, `{envsitepackagesdir}`
 * under it; `{envpython}` its python, `{envname}` its name); any other substitution a value unknown.
 */
function substitute(line: string, root: string, posargs: Array<string | undefined> | undefined, env: string): string {
  const work = join(root, ".tox");
  const envdir = join(work, env === "" ? "py" : env);
  const places: Record<string, string> = { toxinidir: root, tox_root: root, toxworkdir: work, work_dir: work, envdir, env_dir: envdir, envtmpdir: join(envdir, "tmp"), env_tmp_dir: join(envdir, "tmp"), envlogdir: join(envdir, "log"), envbindir: join(envdir, "bin"), env_bin_dir: join(envdir, "bin"), envsitepackagesdir: join(envdir, "lib"), envpython: "python", env_python: "python", envname: env === "" ? "py" : env, env_name: env === "" ? "py" : env };
  return line.replace(/\{([^{}]*)\}/g, (_, inner: string) => {
    if (Object.hasOwn(places, inner)) return places[inner] as string;
    // (Words after `--` the text does not fix: a part unknown, where a command puts them.)
    if (inner === "posargs" || inner.startsWith("posargs:")) return posargs === undefined ? inner.slice("posargs:".length) : posargs.map((arg) => arg ?? '"$TOX_POSARGS"').join(" ");
    return '"$TOX_VALUE"';
  });
}

/** An INI file's sections, each a map of its keys to their values (continuation lines joined by newlines). */
function readIni(source: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | undefined;
  let key: string | undefined;
  for (const line of source.split(/\r?\n/)) {
    if (/^\s*([#;].*)?$/.test(line)) continue;
    const header = /^\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      section = new Map();
      sections.set((header[1] as string).trim(), section);
      key = undefined;
      continue;
    }
    if (/^\s/.test(line) && section !== undefined && key !== undefined) {
      section.set(key, `${section.get(key) ?? ""}\n${line.trim()}`);
      continue;
    }
    const pair = /^([^=]+?)\s*=\s*(.*)$/.exec(line);
    if (pair && section !== undefined) {
      key = (pair[1] as string).trim();
      section.set(key, pair[2] as string);
    }
  }
  return sections;
}
