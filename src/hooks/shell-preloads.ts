// Code an interpreter loads from a file before its program, or beside it, named by the command's
// options or by a variable it sets: `ruby -r./w x.rb`, `perl -I. -Mw x.pl`, `php -c php.ini x.php`,
// `php -d auto_prepend_file=w.php`, RUBYOPT's `-r`, PERL5OPT's `-M`, NODE_OPTIONS' `-r ./w.js`
// under another command (`npm test` runs node), a sitecustomize.py on PYTHONPATH, PHPRC's php.ini,
// R's profile. Each such file is handed back to the walk as its interpreter's program (`ruby
// '/p/w.rb'`), read as any program file is (shell-program-runs.ts programText: only one an agent may
// have written, or the command writes first); one in R, which the hook does not read, or one the
// text does not fix, is any file (UNKNOWABLE).
import { existsSync, readdirSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { notTrackedByProject } from "./program-files.js";
import type { Reading } from "./shell-options.js";
import { type LoadPath, preloadedFiles, unfixedCodeOptions } from "./shell-program-runs.js";
import { interpreterOf, type Nested } from "./shell-runners.js";
import { add, readText, shellQuoted, textWrittenBefore, UNKNOWABLE, type Walk, writtenBefore } from "./shell-words.js";

/** What a command loads so: command lines for the walk to read (`ruby '/p/w.rb'`), and whether it loads code the hook cannot read. */
export interface Loaded {
  lines: string[];
  unknown: boolean;
}

const none = (): Loaded => ({ lines: [], unknown: false });

/** A file there, or one the command writes before it runs this. */
function present(path: string, here: Walk): boolean {
  return existsSync(path) || writtenBefore(here, path);
}

/**
 * The words of an options variable (`RUBYOPT='-r./w -I lib'`): split at blanks, as the
 * interpreters split them (no quotes of their own).
 */
function optionWords(value: string | undefined): string[] {
  return (value ?? "").split(/\s+/).filter((word) => word !== "");
}

/** The values a variable's words give an option (`-r./w`, `-r ./w`): for `letter`, each value; a letter at the end with no value, none. */
function valuesOf(words: string[], letter: string): string[] {
  const found: string[] = [];
  for (let at = 0; at < words.length; at++) {
    const word = words[at] as string;
    if (!word.startsWith(`-${letter}`)) continue;
    const attached = word.slice(2);
    if (attached !== "") found.push(attached);
    else if (words[at + 1] !== undefined) found.push(words[++at] as string);
  }
  return found;
}

/** The directories of a path list variable (`RUBYLIB=lib:.`), relative ones from where the command runs; undefined: the text does not fix it. */
function pathList(environment: Record<string, string | undefined>, name: string): Array<string | undefined> {
  if (!Object.hasOwn(environment, name)) return [];
  const value = environment[name];
  if (value === undefined) return [undefined];
  return value.split(":").filter((part) => part !== "");
}

/**
 * The first of these places (directories, from where the command runs) that holds the file: the
 * command line for the walk, or UNKNOWABLE where a place the text does not fix comes first (a
 * value it does not fix, a relative one after a `cd` it cannot follow); undefined: none holds it.
 */
function searched(file: string, places: Array<string | undefined>, interpreter: string, here: Walk): string | undefined {
  for (const place of places) {
    const path = place === undefined ? undefined : isAbsolute(file) ? file : isAbsolute(place) ? resolve(place, file) : here.cwd === undefined ? undefined : resolve(here.cwd, place, file);
    if (path === undefined) return UNKNOWABLE;
    if (present(path, here)) return `${interpreter} ${shellQuoted(path)}`;
  }
  return undefined;
}

/** Adds what searched found to what is loaded. */
function addFound(loaded: Loaded, found: string | undefined): void {
  if (found === UNKNOWABLE) loaded.unknown = true;
  else if (found !== undefined) loaded.lines.push(found);
}

/**
 * ruby's `-r` libraries (`requires`), searched as ruby does: a path (`./w`, `../lib/w`, `/x/w`)
 * from where it runs, with `.rb` added where it has no extension; a name (`json`, `w`) in the
 * load path's directories the command gives (`-I`, RUBYLIB; ruby puts none of its own here), else
 * a library of ruby's. `includes`: those directories, undefined where the text does not fix one.
 */
export function rubyLoads(requires: Array<string | undefined>, includes: Array<string | undefined>, here: Walk): Loaded {
  const loaded = none();
  for (const required of requires) {
    if (required === undefined) {
      loaded.unknown = true; // `-r"$x"`: a library the text does not fix
      continue;
    }
    const file = /\.rb$/.test(required) ? required : `${required}.rb`;
    addFound(loaded, searched(file, /^(\.{1,2}\/|\/)/.test(required) ? ["."] : includes, "ruby", here));
  }
  return loaded;
}

/**
 * perl's `-M`/`-m` modules (`-MFoo::Bar=x`, `-M-w`, `-M'w qw(a)'`) and `-d:Foo`'s Devel::Foo, each
 * searched in @INC as perl does: the `-I` directories the command gives (`includes`: on its line,
 * in PERL5OPT), PERL5LIB's (or PERLLIB's), and where it runs, which perls before 5.26 (and
 * PERL_USE_UNSAFE_INC=1) search last: a module found in none of them is one of perl's own.
 */
export function perlLoads(modules: Array<string | undefined>, includes: Array<string | undefined>, here: Walk): Loaded {
  const loaded = none();
  const library = pathList(here.environment, Object.hasOwn(here.environment, "PERL5LIB") ? "PERL5LIB" : "PERLLIB");
  for (const module of modules) {
    if (module === undefined) {
      loaded.unknown = true; // `-M"$m"`: a module the text does not fix
      continue;
    }
    const name = /^-?\s*([A-Za-z_][\w:']*)/.exec(module)?.[1];
    if (name === undefined) continue;
    const file = `${name.replace(/::|'/g, "/")}.pm`;
    // (Where it runs last, only where the text fixes it: after a `cd` it cannot follow, a module there is perl's own as likely.)
    addFound(loaded, searched(file, [...includes, ...library, ...(here.cwd === undefined ? [] : ["."])], "perl", here));
  }
  return loaded;
}

/**
 * What php runs before or after its program by its configuration: `auto_prepend_file` and
 * `auto_append_file`, given by `-d` (`defines`) or set in a php.ini a `-c` path or PHPRC names (a
 * file, or a directory's php-cli.ini or php.ini), or one in PHP_INI_SCAN_DIR's directories; an
 * extension loaded by its path (`extension=./x.so`, `zend_extension`, `-z`) is code the hook does
 * not read. `ini`: the `-c` paths, undefined where the text does not fix one; `files`: whether php
 * reads its ini files at all (not with `-n`).
 */
export function phpLoads(defines: Array<string | undefined>, ini: Array<string | undefined>, files: boolean, here: Walk): Loaded {
  const loaded = none();
  const cwd = here.cwd;
  const settings: Array<string | undefined> = [...defines];
  const configs: Array<string | undefined> = files ? [...ini] : [];
  if (files && ini.length === 0 && Object.hasOwn(here.environment, "PHPRC")) configs.push(here.environment.PHPRC);
  for (const config of configs) {
    if (config === "") continue;
    const place = config === undefined ? undefined : isAbsolute(config) ? config : cwd === undefined ? undefined : resolve(cwd, config);
    if (place === undefined) {
      loaded.unknown = true;
      continue;
    }
    const text = configText(place, here) ?? configText(join(place, "php-cli.ini"), here) ?? configText(join(place, "php.ini"), here);
    if (text === UNKNOWABLE) loaded.unknown = true;
    else if (text !== undefined) settings.push(...iniSettings(text));
  }
  if (files) {
    for (const directory of pathList(here.environment, "PHP_INI_SCAN_DIR")) {
      if (directory === undefined) {
        loaded.unknown = true;
        continue;
      }
      const place = isAbsolute(directory) ? directory : cwd === undefined ? undefined : resolve(cwd, directory);
      if (place === undefined) {
        loaded.unknown = true;
        continue;
      }
      for (const entry of iniFiles(place)) {
        const text = configText(join(place, entry), here);
        if (text === UNKNOWABLE) loaded.unknown = true;
        else if (text !== undefined) settings.push(...iniSettings(text));
      }
    }
  }
  for (const setting of settings) {
    if (setting === undefined) {
      loaded.unknown = true; // `-d "$x"`: a setting the text does not fix
      continue;
    }
    const match = /^\s*([\w.]+)\s*(?:=\s*(.*?))?\s*$/s.exec(setting);
    if (match === null) continue;
    const key = (match[1] as string).toLowerCase();
    const value = (match[2] ?? "").replace(/^(["'])(.*)\1$/s, "$2");
    if (/^(extension|zend_extension|extension_dir)$/.test(key)) {
      // A library by its path, or from a directory it names: code the hook does not read (a name alone: one of php's own).
      if (key === "extension_dir" || /[/$]/.test(value)) loaded.unknown = true;
      continue;
    }
    if (key !== "auto_prepend_file" && key !== "auto_append_file") continue;
    if (value === "" || value.toLowerCase() === "none") continue;
    if (/[$`]/.test(value)) {
      loaded.unknown = true; // `${HOME}/w.php`: a place the text does not fix
      continue;
    }
    const path = isAbsolute(value) ? value : cwd === undefined ? undefined : resolve(cwd, value);
    if (path === undefined) loaded.unknown = true;
    else if (present(path, here)) loaded.lines.push(`php ${shellQuoted(path)}`);
  }
  return loaded;
}

/** The settings of a php.ini's text, one `key = value` a line, with `;` comments gone. */
function iniSettings(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*;.*$|\s;[^"']*$/, "").trim())
    .filter((line) => /^[\w.]+\s*=/.test(line));
}

/** The `.ini` files of a directory php scans, in its order. */
function iniFiles(directory: string): string[] {
  try {
    return readdirSync(directory)
      .filter((entry) => /\.ini$/.test(entry))
      .sort();
  } catch {
    return [];
  }
}

/** A configuration file's text: the one the command wrote earlier (if once, whole, by text it gives), else the file's; undefined where there is none. */
export function configText(path: string, here: Walk): string | typeof UNKNOWABLE | undefined {
  return writtenBefore(here, path) ? textWrittenBefore(here, path) : readText(path);
}

/**
 * What the variables a command sets have any interpreter it starts load (a package's script, make,
 * a test runner may start one): NODE_OPTIONS' preloads (`-r ./w.js`; not where the command is node
 * itself, whose reading has them: `nodeItself`), RUBYOPT's `-r` (with its `-I` and RUBYLIB),
 * PERL5OPT's `-M`/`-m` (with its `-I`, PERL5LIB), a sitecustomize.py or usercustomize.py in a
 * PYTHONPATH directory (python imports them as it starts), PHPRC's and PHP_INI_SCAN_DIR's php.ini,
 * the files bun's bunfig.toml `preload` lists where bun runs, and R's profile (R_PROFILE_USER,
 * R_PROFILE; R and Rscript also ./.Rprofile): one an agent may have written is any file.
 */
function environmentLoads(name: string, nodeItself: boolean, here: Walk): Loaded {
  const loaded = none();
  const environment = here.environment;
  const merge = (more: Loaded) => {
    loaded.lines.push(...more.lines);
    loaded.unknown ||= more.unknown;
  };
  const cwd = here.cwd;
  if (!nodeItself && environment.NODE_OPTIONS) merge(nodeOptionLoads([environment.NODE_OPTIONS], cwd));
  // bun's config where it runs: the files its `preload` lists (top-level, `[test]`'s, `[run]`'s) run before the program or the tests.
  if (name === "bun" && cwd !== undefined) {
    const config = configText(join(cwd, "bunfig.toml"), here);
    if (config === UNKNOWABLE) loaded.unknown = true;
    else if (config !== undefined) {
      for (const [, list] of config.matchAll(/^[ \t]*preload[ \t]*=[ \t]*(\[[^\]]*\]|"[^"\n]*"|'[^'\n]*')/gm)) {
        for (const [, , preload] of (list as string).matchAll(/(["'])([^"'\n]*)\1/g)) if (/^(\.{1,2})?\//.test(preload as string)) loaded.lines.push(`node ${shellQuoted(resolve(cwd, preload as string))}`);
      }
    }
  }
  if (environment.RUBYOPT) {
    const words = optionWords(environment.RUBYOPT);
    merge(rubyLoads(valuesOf(words, "r"), [...valuesOf(words, "I"), ...pathList(environment, "RUBYLIB")], here));
  }
  if (environment.PERL5OPT) {
    const words = optionWords(environment.PERL5OPT);
    merge(perlLoads([...valuesOf(words, "M"), ...valuesOf(words, "m")], valuesOf(words, "I"), here));
  }
  for (const directory of pathList(environment, "PYTHONPATH")) {
    if (directory === undefined || (cwd === undefined && !isAbsolute(directory))) continue; // (`PYTHONPATH="$PWD/src"`: not read)
    for (const file of ["sitecustomize.py", "usercustomize.py"]) {
      const path = resolve(cwd ?? "/", directory, file);
      if (present(path, here)) loaded.lines.push(`python3 ${shellQuoted(path)}`);
    }
  }
  if (environment.PHPRC || environment.PHP_INI_SCAN_DIR) merge(phpLoads([], [], true, here));
  const profiles = [environment.R_PROFILE_USER, environment.R_PROFILE, ...(/^(R|Rscript)$/.test(name) ? [".Rprofile"] : [])];
  for (const profile of profiles) {
    if (profile === undefined || profile === "") continue;
    const path = isAbsolute(profile) ? profile : cwd === undefined ? undefined : resolve(cwd, profile);
    if (path === undefined) continue;
    if (writtenBefore(here, path) || (existsSync(path) && notTrackedByProject([path]).length > 0)) loaded.unknown = true;
  }
  return loaded;
}

/**
 * What an interpreter's own options have it load before its program (`ruby -r./w`, `perl -I.
 * -Mw`, `perl -d:Trace`, `php -c php.ini`, `php -d auto_prepend_file=w.php`, `php -z ./x.so`),
 * with the load path its variables add (RUBYOPT's and PERL5OPT's `-I`, RUBYLIB, PERL5LIB).
 * `reading`: its options read; `switches`: the words before its program, as given.
 */
export function optionLoads(interpreter: "ruby" | "perl" | "php", reading: Reading, switches: Array<string | undefined>, here: Walk): Loaded {
  const environment = here.environment;
  if (interpreter === "ruby") return rubyLoads(reading.values("r"), [...reading.values("I"), ...valuesOf(optionWords(environment.RUBYOPT), "I"), ...pathList(environment, "RUBYLIB")], here);
  if (interpreter === "perl") {
    // `-d:Foo` (and `-dt:Foo`): the debugger Devel::Foo, a module as -M's.
    const debuggers = switches.flatMap((word) => /^-dt?:([\w:]+)/.exec(word ?? "")?.slice(1, 2) ?? []).map((name) => `Devel::${name}`);
    return perlLoads([...reading.values("M"), ...reading.values("m"), ...debuggers], [...reading.values("I"), ...valuesOf(optionWords(environment.PERL5OPT), "I")], here);
  }
  const loaded = phpLoads(reading.values("d"), reading.values("c"), !reading.has("n"), here);
  if (reading.has("z")) loaded.unknown = true; // a Zend extension: a library the hook does not read
  return loaded;
}

/**
 * The code the variables a command sets have the interpreters it starts load, whatever the command
 * (`NODE_OPTIONS='-r ./w.js' npm test`, `RUBYOPT=-r./w bundle exec rake`, PYTHONPATH's
 * sitecustomize.py), read as the walk reaches each program on its line (`env A=1 npm test`: npm,
 * with A); a value the text does not fix (`NODE_OPTIONS="$x" npm test`), any file.
 */
export function readEnvironmentLoads(program: string, here: Walk, nested: Nested[]): void {
  if (unfixedCodeOptions(here.environment)) add(here, UNKNOWABLE);
  // (node itself reads NODE_OPTIONS' with its own preloads, into its program: shell-walk.ts. Not
  // bun, which also runs a package's scripts: `NODE_OPTIONS=… bun run test`.)
  readLoads(environmentLoads(program, interpreterOf(program) !== undefined && /^(node|nodejs|tsx|ts-node)$/.test(program), here), here, nested);
}

/**
 * What a command loads: each file as its interpreter's program, for the walk to read, once however
 * many commands load it (an exported NODE_OPTIONS is every later command's) until the command
 * writes something; code the hook cannot read, any file.
 */
export function readLoads(loaded: Loaded, here: Walk, nested: Nested[]): void {
  if (loaded.unknown) add(here, UNKNOWABLE);
  for (const line of loaded.lines) {
    // (Again after the command writes anything: it may be the file loaded.)
    let writes = 0;
    for (const count of here.shared.writes?.values() ?? []) writes += count;
    const key = `\0loads ${JSON.stringify([line, here.cwd, writes])}`;
    if (here.shared.read.has(key)) continue;
    here.shared.read.add(key);
    nested.push({ script: line, cwd: here.cwd });
  }
}

/**
 * The directories ruby or perl loads a program's modules from by their names, as the command gives
 * them (`ruby -Ilib x.rb`, RUBYOPT's `-I`, RUBYLIB; perl's `-I`, PERL5OPT's, PERL5LIB, and where it
 * runs, as for -M): those the text fixes, from where it runs.
 */
export function loadPathOf(interpreter: "ruby" | "perl", reading: Reading, here: Walk): LoadPath {
  const environment = here.environment;
  const given =
    interpreter === "ruby"
      ? [...reading.values("I"), ...valuesOf(optionWords(environment.RUBYOPT), "I"), ...pathList(environment, "RUBYLIB")]
      : [...reading.values("I"), ...valuesOf(optionWords(environment.PERL5OPT), "I"), ...pathList(environment, Object.hasOwn(environment, "PERL5LIB") ? "PERL5LIB" : "PERLLIB"), "."];
  const places = given.flatMap((place) => (place === undefined || (here.cwd === undefined && !isAbsolute(place)) ? [] : [resolve(here.cwd ?? "/", place)]));
  return { [interpreter]: places };
}

/**
 * The files node options preload (`-r ./w.js`, `--import`, `--loader`: files, not packages'
 * names), found from `directory`, as node's programs for the walk (`node '/p/w.js'`).
 */
export function nodeOptionLoads(options: string[], directory: string | undefined): Loaded {
  const loaded = none();
  for (const preload of options.flatMap((value) => preloadedFiles(undefined, value))) {
    const path = isAbsolute(preload) ? preload : directory === undefined ? undefined : resolve(directory, preload);
    if (path !== undefined) loaded.lines.push(`node ${shellQuoted(path)}`);
  }
  return loaded;
}
