// The commands that write the files they are given (RULES), looked up by the walk (shell-walk.ts)
// by name, after any wrapper: rm, tee, touch, truncate, cp, mv, ln and install (with the backups
// they keep), sed -i, perl -i, dd of=, patch, apply_patch, sort -o, uniq, history -w,
// rsync, gawk -i inplace; and,
// from their own files, tar, unzip, 7z and the compressors (shell-archive-rules.ts), curl and wget
// (shell-download-rules.ts), git (shell-git-rules.ts), formatters and package managers
// (shell-tool-rules.ts), compilers (shell-build-rules.ts), bundlers (shell-bundler-rules.ts),
// stylesheet compilers (shell-stylesheet-rules.ts), openssl and ssh's key tools (shell-key-rules.ts),
// chmod, chown, chattr and the like (shell-metadata-rules.ts), and more build tools, test runners
// and packagers (shell-more-tools.ts). Each is read by its declared options.
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { isDirectory } from "../targets/target.js";
import { GLOB_MARK, patchPaths, UNKNOWN_MARK } from "./payload.js";
import { BUILD_RULES } from "./shell-build-rules.js";
import { BUNDLER_RULES } from "./shell-bundler-rules.js";
import { FILE_RULES } from "./shell-file-rules.js";
import { CODEGEN_RULES } from "./shell-codegen-rules.js";
import { PROJECT_TOOL_BINS, PROJECT_TOOL_RULES } from "./shell-project-tools.js";
import { METADATA_RULES } from "./shell-metadata-rules.js";
import { arRule, brotliRule, compressed, dpkgDebRule, lz4Rule, ptarRule, sevenZip, TAR, tarWrites, unzipRule, uudecodeRule, XZ_FILES, zipRule } from "./shell-archive-rules.js";
import { curlRule, wgetRule } from "./shell-download-rules.js";
import { ghWrites, gitTraceFiles, gitWrites } from "./shell-git-rules.js";
import { TOOL_RULES } from "./shell-tool-rules.js";
import { FORMATTER_RULES } from "./shell-formatters-more.js";
import { PROFILER_RULES } from "./shell-profiler-rules.js";
import { REPORT_RULES } from "./shell-report-rules.js";
import { DATA_RULES } from "./shell-data-rules.js";
import { CONVERTER_RULES } from "./shell-converter-rules.js";
import { COMPILED_RULES } from "./shell-compiled-rules.js";
import { SITE_RULES } from "./shell-site-rules.js";
import { LOCK_RULES } from "./shell-lock-rules.js";
import { DOTNET_RULES } from "./shell-dotnet-rules.js";
import { PUB_MIX_RULES } from "./shell-pub-mix-rules.js";
import { CODEMOD_RULES } from "./shell-codemod-rules.js";
import { STYLESHEET_RULES } from "./shell-stylesheet-rules.js";
import { KEY_RULES } from "./shell-key-rules.js";
import { MORE_TOOL_BINS, MORE_TOOL_RULES } from "./shell-more-tools.js";
import { ownEntry, readOptions, type Syntax, valuedLong } from "./shell-options.js";
import { diffPaths, globOf, optionFiles, placeOf, type Rule, type RuleInput, variable } from "./shell-rule.js";
import { PERL, SUDO } from "./shell-runners.js";
import { anyIn, anyUnder, directoryAt, HOLE, judgedPath, landing, outputs, readText, shellQuoted, TEMP, UNKNOWABLE, within, writtenBefore } from "./shell-words.js";
import { awkProgramWrites, edScriptWrites, exScriptWrites, scriptOf, sedScriptWrites } from "./shell-editor-scripts.js";

/** rename (perl's or util-linux's): each file it is given and, its new name computed, any file beside it. */
const RENAME: Rule = { syntax: { short: "e:" }, writes: (input) => input.values(input.reading.operands).filter((file) => !/^(s|y|tr)([^\w\s]).*\2/.test(file)).flatMap((file) => [file, anyIn(dirname(file))]) };

/**
 * cp, mv, ln, install: `SRC… DEST`, `-t DIR SRC…`; into a directory, each source lands under its own
 * name. `copiesTree` says which sources are copied whole trees (a directory, with cp's -r): what
 * lands from one is anything under where it lands, as its `**` glob, so a claim on a file or a
 * glob there meets it even where nothing is there yet (`cp -r tpl src/gen` makes src/gen).
 */
function copyTargets(input: RuleInput, copiesTree: (source: string) => boolean = () => false): string[] {
  const { args, reading, walk } = input;
  const { operands } = reading;
  const targetDirectory = reading.has("t");
  const sources = targetDirectory ? operands : operands.slice(0, -1);
  const last = operands[operands.length - 1];
  if (!targetDirectory && last === undefined) return [];
  const destination = targetDirectory ? reading.value("t") : args[last as number];
  if (destination === undefined) {
    if (!targetDirectory && input.text(last as number)?.startsWith(TEMP)) return []; // cp f "$TMPDIR/x": into temp space
    // -t "$d", or a last operand the text does not fix (cp f "$d"): each source lands under its
    // name (with --parents, its path) in a directory that could be anywhere. Without -t, "$d" may
    // be a file instead, of any name (`cp tpl.ts "$target"`): any file; "$d/b.ts" is the file b.ts
    // in a place unknown.
    const named = targetDirectory || input.text(last as number)?.endsWith("/") ? [] : input.values([last as number]); // `"$d/"`: a directory
    const parents = (source: string) => (source.startsWith("\0") ? landing(undefined, source) : UNKNOWN_MARK + source.replace(/^\/+/, ""));
    return [...named, ...input.values(sources).map((source) => (reading.has("parents") ? parents(source) : landing(undefined, source)))];
  }
  // cp --parents src/a.ts dst writes dst/src/a.ts: the directory (it must exist) stands for what lands under it.
  if (reading.has("parents")) return [destination];
  const intoDirectory = targetDirectory || (!reading.has("T") && (sources.length > 1 || isDirectory(within(walk.cwd, destination))));
  const from = input.values(sources);
  if (!intoDirectory) return [from.some(copiesTree) ? anyUnder(destination) : destination];
  const landed = from.map((source) => (copiesTree(source) ? anyUnder(landing(destination, source)) : landing(destination, source)));
  return landed.length > 0 ? landed : [destination];
}

/**
 * A source that is a directory here (a path the text fixes), or one the command made before it
 * (`mkdir t && cp -r t dst`; with -p, each directory above too): moved or copied, a tree lands.
 */
const directorySource = (input: RuleInput) => (source: string) => {
  if (source.startsWith(GLOB_MARK) || source.startsWith(UNKNOWN_MARK)) return false;
  const path = within(input.walk.cwd, source);
  return isDirectory(path) || [...(input.walk.shared.directories ?? [])].some((made) => made === path || made.startsWith(`${path}/`));
};

/** scp -r: anything but a file here may be a directory (another host's is not looked at). */
function isFileHere(path: string | undefined): boolean {
  try {
    return path !== undefined && statSync(path).isFile();
  } catch {
    return false;
  }
}

/** cp -r: a directory here, or a source whose place the text does not fix (`"$T"`, another host's), which may be one. */
const recursiveSource = (input: RuleInput) => (source: string) => source.startsWith(UNKNOWN_MARK) || directorySource(input)(source);

const operandsOf = (syntax: Syntax = {}): Rule => ({ syntax, writes: (input) => input.values(input.reading.operands) });

/**
 * gpg's commands that take no value, by their long names (`-d`, `-k` and the rest by their letters):
 * listed so that an abbreviation stands for its command (`--verif`, `--decrypt-f`), and so that
 * gpg given none of them is known to be guessing what to do.
 */
const GPG_COMMANDS = `verify verify-files multifile list-public-keys list-signatures list-sigs check-signatures
  check-sigs locate-keys locate-external-keys list-config list-gcrypt-config show-keys fingerprint list-packets card-edit card-status
  change-pin delete-keys delete-secret-keys delete-secret-and-public-key export send-keys export-secret-keys export-secret-subkeys
  export-ssh-key import fast-import receive-keys recv-keys refresh-keys search-keys fetch-keys update-trustdb check-trustdb
  export-ownertrust import-ownertrust rebuild-keydb-caches print-md print-mds gen-random gen-prime enarmor enarmour dearmor dearmour
  generate-key gen-key full-generate-key full-gen-key generate-revocation gen-revoke generate-designated-revocation desig-revoke
  edit-key sign-key lsign-key quick-generate-key quick-gen-key quick-add-uid quick-revoke-uid quick-set-expire quick-set-primary-uid
  quick-add-key quick-sign-key quick-lsign-key quick-revoke-sig passwd change-passphrase tofu-policy store decrypt-files
  encrypt-files version help warranty dump-options`;

/**
 * gpg: `-o`'s file; without one, `--decrypt-files` writes each file less its `.gpg`, `.pgp`, `.asc` or
 * `.sig`, `--encrypt-files` each `f.gpg` (`f.asc` with `-a`), and `-e`, `-c`, `-s`, `--store` the
 * first file's `.gpg` (`.asc` with `-a`), `--clearsign` and `--enarmor` its `.asc`, `--dearmor` its
 * `.gpg`, `-b` its `.sig` (none given: stdout). Given no command, gpg guesses one: a file it is
 * given is decrypted (or its signed text taken out) beside it, as `--decrypt-files` does (`gpg
 * u.ts.gpg` writes u.ts). With `--use-embedded-filename`, what it decrypts goes to the name the
 * message itself holds: any file; so with an options file the hook does not read (gpgOptionsFile).
 */
const GPG: Rule = {
  syntax: {
    short: "o:r:u:R:f:F:z:N:",
    long: {
      output: "o",
      recipient: "r",
      "local-user": "u",
      "sign-with": "u",
      "hidden-recipient": "R",
      "recipient-file": "f",
      "hidden-recipient-file": "F",
      encrypt: "e",
      symmetric: "c",
      sign: "s",
      "detach-sign": "b",
      decrypt: "d",
      "list-keys": "k",
      "list-secret-keys": "K",
      armor: "a",
      armour: "a",
      "clear-sign": "clearsign",
      clearsign: "",
      "use-embedded-filename": "",
      "no-use-embedded-filename": "",
      batch: "",
      options: ":",
      "no-options": "",
      ...Object.fromEntries(GPG_COMMANDS.trim().split(/\s+/).map((name) => [name, ""])),
      ...valuedLong(`passphrase passphrase-file passphrase-fd pinentry-mode homedir keyring secret-keyring default-key trust-model cipher-algo
        digest-algo compress-algo status-fd status-file logger-fd logger-file command-fd command-file set-filename comment keyserver
        encrypt-to default-recipient s2k-mode s2k-digest-algo s2k-cipher-algo s2k-count compress-level trustdb-name
        import-options export-options list-options verify-options keyserver-options auto-key-locate set-notation sig-notation
        cert-notation sig-policy-url sig-keyserver-url agent-program dirmngr-program display ttyname ttytype lc-ctype lc-messages
        log-file attribute-file attribute-fd primary-keyring exec-path photo-viewer`),
    },
  },
  writes: (input) => [...gpgFiles(input), ...gpgOutput(input)],
};

/** What gpg writes of the data it is given (GPG). */
function gpgOutput(input: RuleInput): string[] {
  const { reading } = input;
  if (gpgOptionsFile(input)) return [UNKNOWABLE];
  if (reading.has("o")) return optionFiles(input, ["o"]).filter((path) => path !== "-");
  const files = input.values(reading.operands);
  const armored = reading.has("a");
  // `--multifile` is no command of its own: `--multifile --decrypt` is `--decrypt-files`, `--multifile --encrypt` `--encrypt-files`.
  const commands = ["e", "c", "s", "b", "d", "k", "K", "clearsign", ...GPG_COMMANDS.trim().split(/\s+/).filter((name) => name !== "multifile")];
  const guessing = !reading.has(...commands);
  const multi = reading.has("multifile");
  // The name the message holds, which the text does not give (gpg.conf's own setting aside: the user's).
  if (reading.has("use-embedded-filename") && (guessing || reading.has("d", "decrypt-files"))) return [UNKNOWABLE];
  // A file the text does not fix (a mark: `"$(cat list)"`, a glob) stands for what it may be, as it is.
  const beside = (file: string) => (file.startsWith("\0") ? [file] : /\.(gpg|pgp|asc|sig)$/.test(file) ? [file.replace(/\.(gpg|pgp|asc|sig)$/, "")] : []);
  if (reading.has("decrypt-files") || (multi && reading.has("d")) || guessing) return files.flatMap(beside);
  if (reading.has("encrypt-files") || (multi && reading.has("e"))) return files.map((file) => (file.startsWith("\0") ? file : `${file}${armored ? ".asc" : ".gpg"}`));
  const [first] = files;
  if (first === undefined) return [];
  if (first.startsWith("\0") && reading.has("clearsign", "b", "e", "c", "s", "store", "enarmor", "enarmour", "dearmor", "dearmour")) return [first];
  if (reading.has("clearsign", "enarmor", "enarmour")) return [`${first}.asc`];
  if (reading.has("dearmor", "dearmour")) return [`${first}.gpg`];
  if (reading.has("b")) return [`${first}${armored ? ".asc" : ".sig"}`];
  return reading.has("e", "c", "s", "store") ? [`${first}${armored ? ".asc" : ".gpg"}`] : [];
}

/** gpg's options naming a file it writes whatever it does: its status, log and attribute output. */
const GPG_FILES = ["status-file", "logger-file", "log-file", "attribute-file"];
/** The keyrings and trust database gpg opens to update (an import, a signature, a trust check): a bare name is in its home. */
const GPG_DATABASES = ["keyring", "primary-keyring", "secret-keyring", "trustdb-name"];
/** The programs gpg starts, or finds on a path it is given: its agent and dirmngr, and a photo viewer. */
const GPG_PROGRAMS = ["agent-program", "dirmngr-program", "exec-path", "photo-viewer"];

/**
 * The files gpg's own options name: `--status-file`, `--logger-file` (`--log-file`; not a
 * `socket://` or `tcp://` one), `--attribute-file`; the keyrings (`--keyring`, `--primary-keyring`,
 * `--secret-keyring`) and trust database (`--trustdb-name`) it may update, a name without a `/` in
 * its home (`--homedir`, GNUPGHOME, ~/.gnupg) as gpg reads it, `~/` the user's. A program it runs
 * (`--agent-program`, `--dirmngr-program`, `--photo-viewer`, or one found on `--exec-path`): any
 * file. And the keyring a new key's parameters name (gpgKeyringsGenerated).
 */
function gpgFiles(input: RuleInput): string[] {
  const { reading, walk } = input;
  if (reading.has(...GPG_PROGRAMS)) return [UNKNOWABLE];
  const logs = optionFiles(input, GPG_FILES).filter((path) => !/^(socket|tcp):\/\//.test(path));
  const databases = GPG_DATABASES.flatMap((key) =>
    reading.occurrences(key).flatMap(({ value, at, text }) => {
      if (value === undefined) return text !== undefined ? outputs([judgedPath(text)]) : at === undefined ? [] : input.values([at]);
      const name = value.replace(/^gnupg-(ring|kbx):/, "");
      if (name.startsWith("~/")) return [join(walk.home, name.slice(2))];
      if (name.includes("/")) return [name];
      const home = gpgHome(input);
      return [home === undefined ? UNKNOWN_MARK + name : join(home, name)];
    }),
  );
  return [...logs, ...databases, ...gpgKeyringsGenerated(input)];
}

/**
 * `gpg --batch --generate-key [PARAMS]`: the keyring a parameter file's `%pubring FILE` (or
 * `%secring`) names, where the new key is written instead of the home's; a parameter file the hook
 * cannot read (a name the text does not fix, one the command writes first, a pipe): any file.
 */
function gpgKeyringsGenerated(input: RuleInput): string[] {
  const { reading, walk } = input;
  if (!reading.has("batch") || !reading.has("generate-key", "gen-key", "full-generate-key", "full-gen-key")) return [];
  const [operand] = reading.operands;
  const name = operand === undefined || input.args[operand] === "-" ? undefined : input.args[operand];
  if (operand !== undefined && name === undefined && input.args[operand] !== "-") return [UNKNOWABLE];
  const path = name === undefined ? undefined : within(walk.cwd, name);
  if (path !== undefined && writtenBefore(walk, path)) return [UNKNOWABLE];
  const text = path === undefined ? input.stdin : readText(path);
  if (text === undefined) return path === undefined && input.fed === true ? [UNKNOWABLE] : [];
  return [...text.matchAll(/^\s*%(?:pubring|secring)\s+(.+?)\s*$/gm)].map((match) => match[1] as string);
}

/** gpg's home: `--homedir`, else GNUPGHOME, else ~/.gnupg; undefined where the text does not fix it. */
function gpgHome(input: RuleInput): string | undefined {
  const { reading, walk } = input;
  if (reading.has("homedir")) return directoryAt(walk.cwd, reading.value("homedir"));
  if (Object.hasOwn(walk.environment, "GNUPGHOME") && walk.environment.GNUPGHOME !== "") return directoryAt(walk.cwd, walk.environment.GNUPGHOME);
  return join(walk.home, ".gnupg");
}

/** The options files gpg reads in its home directory: gpg.conf (and a version's own, gpg.conf-2.2…), and common.conf. */
const GPG_CONF = /^(gpg\.conf|common\.conf)/;

/**
 * Whether gpg reads an options file the command points it to: `--options FILE` (not /dev/null,
 * which `--no-options` stands for), or else the gpg.conf of a home directory the command names
 * (`--homedir DIR`, or a GNUPGHOME it sets) where one is there, or the command may write one
 * first, or where the text does not fix the directory. Such a file takes any long option: `output
 * f` or `use-embedded-filename` (gpg then writes a file the text does not name), a log or status
 * file, the agent program gpg starts: any file, unread (as a TAR_OPTIONS the command sets). A home
 * it names with no such file in it holds no options (`--homedir "$PWD/keys" --import k.asc`). The
 * user's own home (~/.gnupg, or the GNUPGHOME the hook runs with) and its gpg.conf are theirs.
 */
function gpgOptionsFile(input: RuleInput): boolean {
  const { reading, walk } = input;
  // (`--options="$f"`, `--homedir="$d"`: a word the text does not fix whole, read as an operand.)
  if (reading.operands.some((at) => input.args[at] === undefined && /^--(opt|hom)/.test(input.text(at) ?? ""))) return true;
  if (reading.has("options")) return reading.values("options").some((file) => file !== "/dev/null");
  if (reading.has("no-options")) return false;
  const { GNUPGHOME } = walk.environment;
  // (Set to a value the text does not fix: undefined, a home unknown.)
  const set = Object.hasOwn(walk.environment, "GNUPGHOME") && (GNUPGHOME === undefined || (GNUPGHOME !== process.env.GNUPGHOME && GNUPGHOME !== ""));
  if (!reading.has("homedir") && !set) return false;
  const home = directoryAt(walk.cwd, reading.has("homedir") ? reading.value("homedir") : GNUPGHOME);
  if (home === undefined) return true;
  if (["gpg.conf", "gpg.conf-2", "common.conf"].some((name) => writtenBefore(walk, join(home, name)))) return true;
  if ([...walk.found].some((path) => dirname(path) === home && GPG_CONF.test(basename(path)))) return true;
  try {
    return readdirSync(home).some((name) => GPG_CONF.test(name));
  } catch {
    return false; // no directory there: gpg makes it, with no options file in it
  }
}

/** An editor: the files it opens, its operands (not `+line` or `+/pattern`, a place in the next one). */
const editor = (syntax: Syntax): Rule => ({ syntax, writes: (input) => input.values(input.reading.operands.filter((at) => !input.args[at]?.startsWith("+"))) });
/** vi, vim, nvim and ex: the options that take a value (`-c cmd`, `-u vimrc`, `--cmd cmd`). */
const VIM: Syntax = { short: "c:u:U:i:T:w:W:t:S:", long: { ...valuedLong("cmd startuptime"), version: "", help: "h" } };

/**
 * Vim and its kin: the files they open, and what their commands write (exScriptWrites): `-c cmd`,
 * `--cmd cmd`, `+cmd` (not `+N` or `+/pattern`, a place), and in Ex mode (`ex`, `-e`, `-E`) the
 * commands on stdin; Ex mode with none given reads the terminal. A script it sources (`-S`, `-s
 * keys` outside Ex mode, a vimrc of `-u`, Neovim's `-l` Lua script) could write any file; `-w`/`-W`
 * write the keys typed.
 */
const vim = (exMode: boolean, lua = false): Rule => ({
  syntax: VIM,
  writes: (input) => {
    const { args, reading } = input;
    if (reading.has("version", "help", "h")) return []; // it prints and stops
    if (lua && reading.has("l")) return [UNKNOWABLE]; // Neovim's `-l script.lua`: runs the script (Vim's -l, Lisp mode, edits as ever)
    const ex = exMode || reading.has("e", "E");
    const opened = editor(VIM).writes(input);
    const plus = reading.operands.filter((at) => /^\+[^\d/]/.test(args[at] ?? "")).map((at) => (args[at] as string).slice(1));
    const commands = [...reading.values("c"), ...reading.values("cmd"), ...plus];
    const sources = reading.has("S") || (reading.has("s") && !ex) || reading.values("u").some((rc) => !/^(NONE|NORC|DEFAULTS)$/.test(rc ?? ""));
    const quits = commands.some((command) => /(^|\|)\s*(q|qa|qall|quit|quita|quitall|x|xa|xall|xit|wq|wqa|wqall|cq)!?\s*$/.test(command ?? ""));
    const fromStdin = ex && !quits ? (input.stdin ?? null) : undefined;
    if (sources || commands.includes(undefined) || fromStdin === null) return [UNKNOWABLE];
    const scripted = [...commands, ...(fromStdin === undefined ? [] : [fromStdin])].flatMap((command) => exScriptWrites(command as string));
    return [...opened, ...scripted, ...optionFiles(input, ["w", "W"])];
  },
});

/** cp, mv, ln and install's -b (--backup[=CONTROL]), -S SUFFIX, -t DIR and -T, with each one's own. */
const copying = (short = "", long: Record<string, string> = {}): Syntax => ({
  short: `bS:t:T${short}`,
  long: { backup: "b", suffix: "S", "target-directory": "t", "no-target-directory": "T", ...long },
});

/**
 * The backups GNU tools keep of the files they replace, by the version control asked for (else
 * VERSION_CONTROL, else `existing`): simple `f~` (or the suffix), numbered `f.~N~`, or, for
 * `existing`, numbered where a numbered backup is already there: either. A suffix the text does not
 * fix could be anything after the name.
 */
function backupNames(files: string[], control: string | undefined, suffix: string | undefined): string[] {
  const kind = control ?? "existing";
  const is = (...names: string[]) => kind !== "" && names.some((name) => name.startsWith(kind));
  if (is("none", "off")) return [];
  const simple = (file: string) => (suffix === undefined ? globOf(`${file}*`) : `${file}${suffix}`);
  const numbered = (file: string) => globOf(`${file}.~*~`);
  return files.flatMap((file) => (is("numbered", "t") ? [numbered(file)] : is("simple", "never") ? [simple(file)] : [simple(file), numbered(file)]));
}

/** cp, mv, ln and install with -b, --backup or -S: each file they replace is kept beside it, `dst~` (-S, SIMPLE_BACKUP_SUFFIX). */
function withBackups(input: RuleInput, files: string[]): string[] {
  const { reading, walk } = input;
  if (!reading.has("b", "S")) return files;
  const suffix = reading.has("S") ? reading.value("S") : variable(walk.environment, "SIMPLE_BACKUP_SUFFIX", "~");
  return [...files, ...backupNames(files, reading.value("b") ?? variable(walk.environment, "VERSION_CONTROL", undefined), suffix)];
}

/**
 * cmake: a build (`--build dir`) or a configure (`-B dir`, else in the source: `cmake .`) writes
 * anything under its build directory; `cmake -E`, its portable file commands: copy's destination
 * (and, a directory, what lands in it), both names of rename, what rm, remove, remove_directory,
 * touch and touch_nocreate name, the link create_symlink and create_hardlink make, tar's extraction
 * (anything where it runs) or archive; the command chdir, env and time run, and a `-P` script: any file.
 */
function cmakeCommand(input: RuleInput): string[] {
  const { reading, walk } = input;
  if (!reading.has("E")) {
    // `cmake --build dir` builds in its build directory; `cmake -B dir` (else `cmake .`, in the
    // source) configures there. (--help, --version, --install write nothing here.) `-P script`
    // runs a script in cmake's language, which the hook does not read (`file(WRITE …)`): any file.
    if (reading.has("P")) return [UNKNOWABLE];
    if (reading.has("help", "version", "install")) return [];
    if (reading.has("build")) return [anyUnder(directoryAt(walk.cwd, reading.value("build")))];
    if (reading.has("B")) return [anyUnder(directoryAt(walk.cwd, reading.value("B")))];
    return reading.operands.length > 0 || reading.has("S") ? [anyUnder(walk.cwd)] : [];
  }
  const [command, ...rest] = input.reading.operands;
  const operands = rest.filter((at) => !/^-/.test(input.text(at) ?? ""));
  const name = command === undefined ? undefined : input.text(command);
  if (name === undefined) return [];
  if (name.startsWith("copy")) {
    const [destination, sources] = [operands.at(-1), operands.slice(0, -1)];
    if (destination === undefined) return [];
    const into = input.values([destination]);
    return [...into, ...into.flatMap((dir) => input.values(sources).map((source) => join(dir, basename(source))))];
  }
  if (["rename", "rm", "remove", "remove_directory", "touch", "touch_nocreate"].includes(name)) return input.values(operands);
  if (name === "create_symlink" || name === "create_hardlink") return input.values(operands.slice(-1));
  // `tar xf a.tar` extracts where it runs (anything under it); `tar cf out.tar …` writes the archive.
  if (name === "tar") {
    const mode = (rest[0] === undefined ? undefined : input.text(rest[0]))?.replace(/^-/, "") ?? "";
    if (mode.includes("x")) return [anyUnder(walk.cwd)];
    return /[cr]/.test(mode) ? input.values(rest.slice(1, 2)) : [];
  }
  // `chdir dir cmd …`, `env … cmd`, `time cmd`: a command the hook does not take apart here: any file.
  if (name === "chdir" || name === "env" || name === "time") return [UNKNOWABLE];
  return [];
}

/** Codex's `apply_patch <<'PATCH'` (or the patch as its argument): the files its headers name. */
const applyPatch: Rule = {
  syntax: {},
  writes: (input) => {
    const text = input.stdin ?? input.args.find((arg) => arg?.includes("*** Begin Patch"));
    return text ? patchPaths(text) : [];
  },
};

/**
 * The backups `sed -i.bak` and `perl -i.bak` keep: each file with the suffix; or, where the suffix
 * holds a `*`, the suffix with each `*` the file's name as it was given, from where the command runs
 * (`-i 'old/*'` keeps src/x.ts as old/src/x.ts: GNU sed and perl both). A suffix the text does not
 * fix (`-i"$s"`) may hold a `*` itself, and a `/`: the backup is named as judgedPath reads that
 * text, the file's name where a `*` may be (`-i"$s"`: any file).
 */
function inPlaceBackups(input: RuleInput, files: string[]): string[] {
  const [given] = input.reading.occurrences("i").slice(-1);
  const suffix = given?.value ?? given?.text;
  if (suffix === undefined || suffix === "") return [];
  const unfixed = suffix.includes(HOLE);
  return files.flatMap((file) => {
    if (file === UNKNOWABLE) return [];
    // A file in a place unknown (`"$d/x.ts"`) stands in the suffix as that place and its name; a glob, as a glob.
    const glob = file.startsWith(GLOB_MARK);
    const name = file.startsWith(UNKNOWN_MARK) ? `${HOLE}/${file.slice(UNKNOWN_MARK.length)}` : glob ? file.slice(GLOB_MARK.length) : file;
    const named = (text: string) => (text.includes(HOLE) ? outputs([judgedPath(text)]) : [glob ? globOf(text) : text]);
    const appended = named(`${name}${suffix}`);
    if (!suffix.includes("*") && !unfixed) return appended;
    const starred = named(suffix.replaceAll("*", name));
    return suffix.includes("*") ? starred : [...appended, ...starred];
  });
}

/** sed's options (GNU's: `-i` takes its suffix attached, if any). */
const SED: Syntax = { short: "e:f:l:i::", long: { expression: "e", file: "f", "line-length": "l", "in-place": "i" } };

/**
 * BSD sed's (macOS's) `-i EXT`: the word after a `-i` of its own is always the backup's extension,
 * `''` for none (`sed -i '' s/a/b/ f`, `sed -i .bak s/a/b/ f`, `sed -i bak …`, even `sed -i -e
 * s/a/b/ f`, whose backup is `f-e`), where GNU sed reads it as the script, or as its next option.
 * Read so too (the hook cannot tell which sed runs): the files after the script, their backups,
 * and what that script writes; undefined where no fixed word follows such a `-i`.
 */
function bsdSedInPlace(input: RuleInput): { extension: string; written: string[] } | undefined {
  const { args } = input;
  const at = args.findIndex((arg) => arg !== undefined && /^-[nEr]*i$/.test(arg));
  const extension = at === -1 ? undefined : args[at + 1];
  if (extension === undefined) return undefined;
  // The options as BSD sed reads them: the extension word is none of them (`-e` there is an extension).
  const bsdArgs = args.map((arg, index) => (index === at + 1 ? "extension" : arg));
  const reading = readOptions(bsdArgs, SED, 0, input.text);
  const operands = reading.operands.filter((operand) => operand !== at + 1);
  const bsd = { ...input, args: bsdArgs, reading: { ...reading, operands } };
  const scripted = reading.has("e", "f");
  const script = scriptOf(bsd, "e", "f", "\n");
  const scriptWrites = script === undefined ? [UNKNOWABLE] : sedScriptWrites(script);
  // Past `''` and `.ext`, which no GNU script starts with, a word GNU sed takes for its script
  // (`sed -i s/a/b/ x.ts`, the common case) leaves BSD sed a script it cannot read (`x.ts`), and
  // it stops before it writes: that reading only where its script reads as one.
  if (!(extension === "" || extension.startsWith(".")) && scriptWrites.includes(UNKNOWABLE)) return undefined;
  const files = input.values(scripted ? operands : operands.slice(1));
  const backups = extension === "" ? [] : files.map((file) => (file === UNKNOWABLE ? file : `${file}${extension}`));
  return { extension, written: [...files, ...backups, ...scriptWrites] };
}

/** mmv's patterns make names the text does not give (`#1` is what a wildcard matched, `;` any directories): any file, unless it only lists them (-n). */
const MMV: Rule = { syntax: {}, writes: (input) => (input.reading.has("n") ? [] : [UNKNOWABLE]) };

/** Packages whose command has another name, as a package runner runs them (`npx @tailwindcss/cli` is tailwindcss, `npx postcss-cli` postcss). */
export const PACKAGE_BINS: Record<string, string> = { "@tailwindcss/cli": "tailwindcss", "postcss-cli": "postcss", "@graphql-codegen/cli": "graphql-codegen", "@mermaid-js/mermaid-cli": "mmdc", ...PROJECT_TOOL_BINS, ...MORE_TOOL_BINS };

/** The interpreters pandoc runs a filter with, by its file's extension (its own list). */
const PANDOC_INTERPRETERS: Record<string, string> = { ".py": "python3", ".js": "node", ".rb": "ruby", ".pl": "perl", ".php": "php", ".hs": "runhaskell", ".r": "Rscript", ".R": "Rscript", ".lua": "lua" };

export const RULES: Record<string, Rule> = {
  // First: a tool with a rule of its own elsewhere keeps it.
  ...PROJECT_TOOL_RULES,
  ...TOOL_RULES,
  ...FORMATTER_RULES,
  ...REPORT_RULES,
  ...PROFILER_RULES,
  ...DATA_RULES,
  ...CONVERTER_RULES,
  ...MORE_TOOL_RULES,
  ...LOCK_RULES,
  ...DOTNET_RULES,
  ...PUB_MIX_RULES,
  ...COMPILED_RULES,
  ...SITE_RULES,
  ...CODEMOD_RULES,
  ...BUILD_RULES,
  ...BUNDLER_RULES,
  ...METADATA_RULES,
  ...FILE_RULES,
  ...CODEGEN_RULES,
  ...STYLESHEET_RULES,
  ...KEY_RULES,
  rm: operandsOf(),
  rmdir: operandsOf(),
  rimraf: operandsOf({ long: valuedLong("impl") }),
  unlink: operandsOf(),
  shred: operandsOf({ short: "n:s:", long: { iterations: "n", size: "s", "random-source": ":" } }),
  touch: operandsOf({ short: "d:r:t:", long: { date: "d", reference: "r", time: ":" } }),
  truncate: operandsOf({ short: "r:s:", long: { reference: "r", size: "s" } }),
  fallocate: operandsOf({ short: "l:o:", long: { length: "l", offset: "o" } }), // -p punches holes, -z zeroes: the file changes
  cmake: { syntax: { short: "EB:S:G:D:C:U:T:A:P:", long: { build: ":", install: ":", help: "", version: "", ...valuedLong("preset toolchain graphviz log-level") } }, writes: cmakeCommand },
  tee: operandsOf(),
  // mkdir creates, but writes no file anyone claims: what it makes is noted, for a copy or move of it later (directorySource).
  mkdir: {
    syntax: { short: "m:", long: { mode: "m", parents: "p" } },
    writes: (input) => {
      const made = input.values(input.reading.operands).map((value) => within(input.walk.cwd, value));
      for (const path of made) if (!path.startsWith(UNKNOWN_MARK) && !path.startsWith(GLOB_MARK)) (input.walk.shared.directories ??= new Set()).add(path);
      return [];
    },
  },
  cp: {
    syntax: copying("", { sparse: ":", "no-preserve": ":", parents: "", recursive: "r", archive: "a" }),
    writes: (input) => withBackups(input, copyTargets(input, input.reading.has("r", "R", "a") ? recursiveSource(input) : undefined)),
  },
  install: {
    syntax: copying("dg:m:o:", { directory: "d", group: "g", mode: "m", owner: "o", "strip-program": ":" }),
    writes: (input) => (input.reading.has("d") ? [] : withBackups(input, copyTargets(input))),
  },
  ln: {
    syntax: copying(),
    writes: (input) => {
      const { operands } = input.reading;
      if (operands.length === 1 && !input.reading.has("t")) return withBackups(input, input.values(operands).map((target) => landing(".", target)));
      return withBackups(input, copyTargets(input));
    },
  },
  mv: {
    syntax: copying(),
    writes: (input) => {
      const { operands } = input.reading;
      return [...input.values(input.reading.has("t") ? operands : operands.slice(0, -1)), ...withBackups(input, copyTargets(input, directorySource(input)))];
    },
  },
  sudoedit: operandsOf(SUDO),
  // Editors run from a script (`ed -s f <<EOF`, `vim -es -c wq f`, `sponge f`): the files they open,
  // which their commands may write (a `+line` operand is a position, not a file).
  sponge: operandsOf(),
  ed: {
    // ed reads its commands from stdin (a heredoc, `<<< 'w f'`): one it cannot see could write any file.
    syntax: { short: "p:", long: { version: "V", help: "h" } },
    // --version, --help: it prints and stops.
    writes: (input) => (input.reading.has("V", "h") ? [] : [...editor({ short: "p:" }).writes(input), ...(input.stdin === undefined ? [UNKNOWABLE] : edScriptWrites(input.stdin))]),
  },
  ex: vim(true),
  vi: vim(false),
  vim: vim(false),
  nvim: vim(false, true),
  view: vim(false),
  vimdiff: vim(false),
  gvim: vim(false),
  gvimdiff: vim(false),
  rview: vim(false),
  gview: vim(false),
  nano: editor({ short: "o:r:T:Y:X:", long: { operatingdir: "o", fill: "r", tabsize: "T", syntax: "Y", wordchars: "X", ...valuedLong("guidestripe speller") } }),
  emacs: {
    // `--visit f`, `--file f`, `--find-file f` (also with one dash) open f as an operand does.
    syntax: { short: "l:L:f:t:d:", long: { load: "l", directory: "L", funcall: "f", terminal: "t", display: "d", ...valuedLong("eval chdir file find-file visit insert script") } },
    // A function it calls in batch (`-f batch-byte-compile x.el`) writes each file's compiled
    // `.elc`, and `batch-byte-recompile-directory` those under each directory; any other function
    // is code the hook does not read (shell-unread-programs.ts INLINE).
    writes: (input) => {
      const opened = input.values(input.reading.operands.filter((at) => !input.args[at]?.startsWith("+")));
      const called = input.reading.occurrences("f").map(({ value }) => value);
      // (`x.el` to `x.elc`, `x` to `x.elc`; a directory's files each to their own, under it.)
      const compiled = called.includes("batch-byte-compile") ? opened.map((path) => (path === UNKNOWABLE ? path : isDirectory(within(input.walk.cwd, path)) ? anyUnder(path) : path.endsWith(".el") ? `${path}c` : `${path}.elc`)) : [];
      const recompiled = called.includes("batch-byte-recompile-directory") ? opened.map((path) => (path === UNKNOWABLE ? path : anyUnder(path))) : [];
      return [...opened, ...compiled, ...recompiled, ...optionFiles(input, ["file", "find-file", "visit"]), ...input.values(input.args.flatMap((arg, at) => (/^-(visit|file|find-file)$/.test(arg ?? "") ? [at + 1] : [])))];
    },
  },
  sed: {
    // -i takes a suffix only attached: `sed -ie s/a/b/ f` keeps f's backup as fe, and s/a/b/ is the script.
    syntax: SED,
    writes: (input) => {
      const { reading } = input;
      // `sed -i .bak …`: a script GNU sed would not run (`.` is no command of its), so BSD sed's reading alone.
      const bsd = bsdSedInPlace(input);
      if (bsd?.extension.startsWith(".") && !reading.has("e", "f")) return bsd.written;
      const inPlace = !reading.has("i") ? [] : input.values(reading.has("e", "f") ? reading.operands : reading.operands.slice(1));
      inPlace.push(...inPlaceBackups(input, inPlace));
      // And what its script writes (`w f`, `s/a/b/w f`); one it cannot read could write any file.
      const script = scriptOf(input, "e", "f", "\n");
      const gnu = [...inPlace, ...(script === undefined ? [UNKNOWABLE] : sedScriptWrites(script))];
      // (Each file once: a file both readings write is one write, as the walk counts writes against links.)
      return [...gnu, ...(bsd?.written.filter((path) => !gnu.includes(path)) ?? [])];
    },
  },
  perl: {
    // Perl's own reading: switches end at the script or first file; -i's extension and -I/-M/-m's
    // values are attached only. `perl -pie s/a/b/ f` is -i with extension "e".
    syntax: PERL,
    writes: (input) => {
      const { reading } = input;
      const files = input.values(reading.has("e", "E") ? reading.operands : reading.operands.slice(1));
      // Its `<>` (-n, -p, or a program's own) opens each name as two-argument open does: `>f`,
      // `>>f`, `+<f` write f (`>&2` is a descriptor); `cmd|` and `|cmd` run a command.
      const opened = files.flatMap((name) => {
        const mode = /^\s*(>>|\+?>|\+<)\s*(.*?)\s*$/s.exec(name);
        if (mode !== null) return mode[2]?.startsWith("&") || mode[2] === "" ? [] : [mode[2] as string];
        return /^\s*\||\|\s*$/.test(name) ? [UNKNOWABLE] : [];
      });
      if (!reading.has("i")) return opened;
      return [...files, ...inPlaceBackups(input, files), ...opened];
    },
  },
  dd: { syntax: {}, writes: (input) => input.args.flatMap((_, index) => (input.text(index)?.startsWith("of=") ? outputs([judgedPath(input.text(index)?.slice(3) ?? "")]) : [])) },
  patch: {
    syntax: {
      short: "B:d:D:F:g:i:o:p:r:V:x:Y:z:",
      long: {
        prefix: "B",
        directory: "d",
        ifdef: "D",
        fuzz: "F",
        get: "g",
        input: "i",
        output: "o",
        strip: "p",
        "reject-file": "r",
        "version-control": "V",
        debug: "x",
        "basename-prefix": "Y",
        suffix: "z",
        "quoting-style": ":",
        "reject-format": ":",
        "read-only": ":",
        merge: "::",
        backup: "b",
        "backup-if-mismatch": "",
        "no-backup-if-mismatch": "",
        version: "",
        help: "",
      },
    },
    writes: (input) => {
      const { reading, walk } = input;
      // -d: patch changes to that directory before it opens anything, the -i, -o and -r files too.
      const base = placeOf(reading, "d", walk.cwd);
      const output = reading.value("o");
      const { operands } = reading;
      let patched: string[] = [];
      if (operands.length > 0) patched = input.values(operands.slice(0, 1));
      else {
        const from = reading.value("i");
        const text = reading.has("i") ? (from === undefined ? undefined : readText(within(base, from))) : input.stdin;
        const strip = reading.value("p");
        if (text !== undefined) patched = [...new Set(strip === undefined ? diffPaths(text, 0).flatMap((path) => [path, path.replace(/^[ab]\//, "")]) : diffPaths(text, Number(strip)))];
        // A diff the hook cannot read (`cat x.diff | patch`, `curl … | patch`, `-i "$f"`, typed at
        // the terminal) could name any file under where patch works (it refuses absolute names and
        // `..`), as `curl … | sh` could write any file.
        else if (!reading.has("v", "version", "help")) return [anyUnder(base)];
      }
      // Beside what it writes, the hunks it could not apply (f.rej, or -r's file; -r - keeps none),
      // and, unless -o, the original when a hunk applied only with an offset or fuzz (or always, -b).
      const results = output === undefined || output === "-" ? patched : [output];
      const rejects = reading.has("r") ? optionFiles(input, ["r"]) : results.map((file) => `${file}.rej`);
      const originals = reading.has("o") || (reading.has("no-backup-if-mismatch") && !reading.has("b")) ? [] : patchBackups(input, patched);
      return [...optionFiles(input, ["o"]), ...patched, ...rejects, ...originals].map((path) => within(base, path));
    },
  },
  // Codex's shell runs a patch given either name (`applypatch` is its second spelling).
  apply_patch: applyPatch,
  applypatch: applyPatch,
  git: { syntax: {}, writes: (input) => [...gitTraceFiles(input.walk.environment), ...gitWrites(input)] },
  // Git LFS by its own name (`git-lfs pull`), as `git lfs pull`.
  "git-lfs": { syntax: {}, writes: (input) => gitWrites({ ...input, args: ["lfs", ...input.args], values: (at) => input.values(at?.map((i) => i - 1)), text: (i) => input.text(i - 1) }) },
  gh: { syntax: { ordered: true }, writes: ghWrites },
  sort: {
    syntax: {
      short: "k:o:S:t:T:y:",
      long: {
        key: "k",
        output: "o",
        "buffer-size": "S",
        "field-separator": "t",
        "temporary-directory": "T",
        "batch-size": ":",
        "compress-program": ":",
        "files0-from": ":",
        parallel: ":",
        "random-source": ":",
        sort: ":",
        check: "::",
      },
    },
    // sort -uo out in; a --compress-program for its temporary files (run as the input spills to
    // disk) that is no known compressor, or that the text does not fix, could write any file.
    writes: (input) => [...optionFiles(input, ["o"]), ...(input.reading.has("compress-program") && !/^(gzip|pigz|xz|zstd|lz4|lzop|bzip2|pbzip2)$/.test(input.reading.value("compress-program") ?? "") ? [UNKNOWABLE] : [])],
  },
  // uniq IN OUT writes its second operand; history -w/-a FILE writes (appends to) the file named
  // (without one, $HISTFILE). (openssl: shell-key-rules.ts.)
  uniq: {
    syntax: { short: "f:s:w:", long: { "skip-fields": "f", "skip-chars": "s", "check-chars": "w", "all-repeated": "::", group: "::" } },
    writes: (input) => input.values(input.reading.operands.slice(1, 2)),
  },
  history: { syntax: { short: "d:" }, writes: (input) => (input.reading.has("a", "w") ? input.values(input.reading.operands.slice(0, 1)) : []) },
  curl: curlRule,
  wget: wgetRule,
  rsync: {
    syntax: {
      short: "B:e:f:M:T:@:",
      long: {
        "block-size": "B",
        rsh: "e",
        filter: "f",
        "remote-option": "M",
        "temp-dir": "T",
        "modify-window": "@",
        backup: "b",
        "remove-source-files": "",
        ...valuedLong(`address backup-dir bwlimit cc checksum-choice checksum-seed chmod chown compare-dest compress-choice
          compress-level config contimeout copy-as copy-dest debug dparam early-input exclude exclude-from files-from groupmap iconv
          include include-from info link-dest log-file log-file-format max-alloc max-delete max-size min-size only-write-batch
          out-format outbuf partial-dir password-file port protocol read-batch rsync-path skip-compress sockopts stderr stop-after
          stop-at suffix time-limit timeout usermap write-batch zc zl`),
      },
    },
    writes: (input) => {
      const { reading } = input;
      const logs = optionFiles(input, ["log-file", "write-batch", "only-write-batch"]);
      const batches = outputs([...reading.values("write-batch"), ...reading.values("only-write-batch")]).map((file) => `${file}.sh`);
      const { operands } = reading;
      if (operands.length < 2) return [...logs, ...batches];
      const destination = input.args[operands[operands.length - 1] as number];
      const sources = input.values(operands.slice(0, -1)).map(localPart);
      // --remove-source-files: each file sent is removed here (`src/`: what is under src).
      if (reading.has("remove-source-files")) logs.push(...input.values(operands.slice(0, -1)).filter((source) => !REMOTE.test(source)).map((source) => (source.endsWith("/") ? anyUnder(source) : source)));
      // `rsync src/ dst` copies what is in src, `rsync src dst` src itself: a directory, a tree
      // under where it lands, which may not be there yet (so its `**` glob, not the bare path).
      const tree = directorySource(input);
      const landed = (place: string | undefined) =>
        sources.map((source) => {
          if (!source.endsWith("/")) return tree(source) ? anyUnder(landing(place, source)) : landing(place, source);
          // An existing directory is judged as the directory it is; one not there yet, as what it will hold.
          return place === undefined ? UNKNOWABLE : isDirectory(within(input.walk.cwd, place)) ? place : anyUnder(place);
        });
      const written = (files: string[], root: string | undefined) => [...files, ...rsyncBackups(input, files, root), ...logs, ...batches];
      if (REMOTE.test(input.text(operands[operands.length - 1] as number) ?? "")) return [...logs, ...batches]; // "$HOST:/srv/": another machine's
      if (destination === undefined) return written(landed(undefined), undefined); // "$d"/: a directory that could be anywhere
      if (REMOTE.test(destination)) return [...logs, ...batches]; // host:path is another machine's
      if (!destination.endsWith("/") && !isDirectory(within(input.walk.cwd, destination)) && sources.every((source) => !source.endsWith("/") && !tree(source))) return written([destination], dirname(destination));
      return written(landed(destination), destination);
    },
  },
  // scp: into a destination here (not host:path), each source under its name as cp would put it;
  // and any file where it runs a command here (sshRunsHere).
  scp: {
    syntax: { short: "c:D:F:i:J:l:o:P:S:X:" },
    writes: (input) => {
      const runs = sshRunsHere(input, ["S"]);
      const last = input.reading.operands[input.reading.operands.length - 1];
      // `"$HOST:/tmp/"`: a host the text does not fix is still another machine.
      if (last !== undefined && REMOTE.test(input.text(last) ?? "")) return runs;
      const local = { ...input, values: (from = input.args.map((_, at) => at)) => from.flatMap((at) => remoteSource(input, at) ?? input.values([at]).map(localPart)) };
      return [...runs, ...copyTargets(local, input.reading.has("r") ? (source) => !isFileHere(within(input.walk.cwd, source)) : undefined)];
    },
  },
  // sftp: a command it runs here (sshRunsHere, `-D`'s server), the commands of its batch file or
  // its input that write here (`get`, `lmkdir`, `!cmd`: any file), and `sftp host:file`, which
  // fetches the file here under its name.
  sftp: {
    syntax: { short: "B:b:c:D:F:i:J:l:o:P:R:S:s:X:" },
    writes: (input) => {
      const { reading } = input;
      const batch = reading.has("b") ? reading.value("b") : undefined;
      // A batch file the hook cannot read (a name the text does not fix, a pipe, one the command writes first) may hold any.
      if (reading.has("b") && (batch === undefined || (batch === "-" && input.stdin === undefined) || writtenBefore(input.walk, within(input.walk.cwd, batch)))) return [UNKNOWABLE];
      // Its commands on a pipe, or in a file the text does not give (`echo 'get u.ts' | sftp host`): any.
      if ((batch === undefined || batch === "-") && input.fed === true) return [UNKNOWABLE];
      const commands = batch === undefined || batch === "-" ? input.stdin : readText(within(input.walk.cwd, batch));
      if (commands !== undefined && /^\s*[-@]*\s*(get|reget|mget|lmkdir|lcd|lumask|!)/im.test(commands)) return [UNKNOWABLE];
      const fetched = reading.operands.flatMap((at) => {
        const text = input.text(at) ?? "";
        if (!REMOTE.test(text)) return [];
        const part = localPart(text);
        if (part.includes("\u0001")) return [UNKNOWABLE];
        const name = basename(part.replace(GLOB_MARK, ""));
        return part === "." || part.endsWith("/") || name === "" ? [] : [within(input.walk.cwd, part.startsWith(GLOB_MARK) ? GLOB_MARK + name : name)];
      });
      return [...sshRunsHere(input, ["S", "D"]), ...fetched];
    },
  },
  gzip: compressed(false, "b:S:"),
  bzip2: compressed(false, "", {}, ".bz2"),
  xz: compressed(false, "C:F:M:S:T:", XZ_FILES, ".xz"),
  gunzip: compressed(true, "b:S:"),
  bunzip2: compressed(true),
  unxz: compressed(true, "C:F:M:S:T:", XZ_FILES),
  lzma: compressed(false, "C:F:M:S:T:", XZ_FILES, ".lzma"),
  unlzma: compressed(true, "C:F:M:S:T:", XZ_FILES),
  // ar x (what it extracts) and the archives ar and ranlib write; ptar, dpkg-deb.
  ar: arRule,
  ranlib: { syntax: { long: { plugin: ":" } }, writes: (input) => input.values(input.reading.operands) },
  ptar: ptarRule,
  "dpkg-deb": dpkgDebRule,
  awk: awkInPlace(),
  gawk: awkInPlace(),
  mawk: awkInPlace(),
  nawk: awkInPlace(),
  tar: { syntax: TAR, writes: (input) => tarWrites(input) },
  bsdtar: { syntax: TAR, writes: (input) => tarWrites(input) },
  // Moved to the trash, converted in place, renamed (the new names: any file beside each).
  trash: operandsOf(),
  "trash-put": operandsOf(),
  rmtrash: operandsOf(),
  gio: { syntax: {}, writes: (input) => (/^(trash|remove|rm|save|move|mv|copy|cp|rename|set)$/.test(input.args[input.reading.operands[0] as number] ?? "") ? input.values(input.reading.operands.slice(1)) : []) },
  dos2unix: operandsOf(),
  unix2dos: operandsOf(),
  mac2unix: operandsOf(),
  unix2mac: operandsOf(),
  // mmv FROM TO (and mcp, mad, mln): the names its patterns make (`'*.ts' '#1.js'`), or read from its input: any file; -n only lists them.
  mmv: MMV,
  mcp: MMV,
  mad: MMV,
  mln: MMV,
  rename: RENAME,
  // (perl's rename by its other names.)
  prename: RENAME,
  "perl-rename": RENAME,
  "file-rename": RENAME,
  // yq -i EXPR FILES and sd FIND REPLACE FILES rewrite the files in place (not with sd -p, a preview).
  yq: { syntax: { short: "e:I:o:p:", long: { inplace: "i", "in-place": "i", "from-file": ":", "output-format": "o", "input-format": "p", indent: "I", expression: "e" } }, writes: (input) => (input.reading.has("i") ? input.values(input.reading.operands.slice(input.reading.has("from-file", "e") ? 0 : 1)) : []) },
  sd: { syntax: { short: "f:n:", long: { flags: "f", "max-replacements": "n", preview: "p" } }, writes: (input) => (input.reading.has("p") ? [] : input.values(input.reading.operands.slice(2))) },
  // xxd [in [out]] (also -r), iconv -o, gpg -o: the output file.
  xxd: { syntax: { short: "c:g:l:o:s:C::" }, writes: (input) => input.values(input.reading.operands.slice(1, 2)) },
  iconv: { syntax: { short: "f:t:o:", long: { "from-code": "f", "to-code": "t", output: "o" } }, writes: (input) => optionFiles(input, ["o"]) },
  // pandoc -o out; sqlite3 DB (its database, opened for writing); strip and objcopy in place, or
  // -o / the second operand; zip ARCHIVE (shell-archive-rules.ts).
  // (Its filters run: `-F prog` as a program, by its interpreter where its name gives one; `-L f.lua` as Lua.)
  pandoc: {
    syntax: { short: "o:f:r:t:w:F:L:", long: { output: "o", from: "f", read: "r", to: "t", write: "w", filter: "F", "lua-filter": "L" } },
    writes: (input) => optionFiles(input, ["o"]),
    runsLines: (input) => [
      ...input.reading.values("F").map((program) => (program === undefined ? undefined : [ownEntry(PANDOC_INTERPRETERS, /\.\w+$/.exec(program)?.[0] ?? ""), shellQuoted(program)].filter((word) => word !== undefined).join(" "))),
      ...input.reading.values("L").map((script) => (script === undefined ? undefined : `lua ${shellQuoted(script)}`)),
    ],
  },
  sqlite3: { syntax: {}, writes: sqliteDatabase },
  strip: { syntax: { short: "o:F:I:O:R:K:N:" }, writes: (input) => (input.reading.has("o") ? optionFiles(input, ["o"]) : input.values(input.reading.operands)) },
  objcopy: { syntax: { short: "I:O:B:j:R:K:N:L:G:W:b:i:" }, writes: (input) => input.values(input.reading.operands.slice(input.reading.operands.length > 1 ? 1 : 0, 2)) },
  zip: zipRule,
  gpg: GPG,
  gpg2: GPG,
  // gpg-agent: its log file; the programs it starts (pinentry, scdaemon…), and the command it runs with `--daemon cmd`: any file.
  "gpg-agent": {
    syntax: { long: { ...valuedLong("log-file homedir pinentry-program scdaemon-program tpm2daemon-program debug-level options"), daemon: "", server: "", supervised: "" } },
    writes: (input) => {
      const { reading } = input;
      const runs = reading.has("pinentry-program", "scdaemon-program", "tpm2daemon-program", "options") || (reading.has("daemon") && reading.operands.length > 0);
      return [...optionFiles(input, ["log-file"]), ...(runs ? [UNKNOWABLE] : [])];
    },
  },
  // gpgsm, gpg's S/MIME sibling: `-o`, and its status, log and attribute files as gpg's.
  gpgsm: { syntax: { short: "o:", long: { output: "o", ...valuedLong("status-file logger-file log-file homedir keyring options agent-program dirmngr-program") } }, writes: (input) => (input.reading.has("options", "agent-program", "dirmngr-program") ? [UNKNOWABLE] : optionFiles(input, ["o", "status-file", "logger-file", "log-file"])) },
  // gpgv verifies only: `-o`'s file is the signed data it takes out.
  gpgv: { syntax: { short: "o:", long: { output: "o", ...valuedLong("keyring status-fd logger-fd homedir weak-digest") } }, writes: (input) => optionFiles(input, ["o"]) },
  pigz: compressed(false, "b:p:S:"),
  unpigz: compressed(true, "b:p:S:"),
  zstd: zstdRule(false),
  zstdmt: zstdRule(false),
  unzstd: zstdRule(true),
  pzstd: zstdRule(false),
  lz4: lz4Rule(false),
  unlz4: lz4Rule(true),
  brotli: brotliRule,
  compress: compressed(false, "b:", {}, ".Z"),
  uncompress: compressed(true, "b:", {}, ".Z"),
  uudecode: uudecodeRule,
  // cpio -i extracts into here (or -D's directory), -p copies into its operand: anything under it.
  cpio: { syntax: { short: "D:E:F:H:I:M:O:R:", long: { directory: "D", file: "F", format: "H", extract: "i", "pass-through": "p" } }, writes: (input) => (input.reading.has("i") ? [anyUnder(input.reading.has("D") ? input.reading.value("D") : input.walk.cwd)] : input.reading.has("p") ? input.values(input.reading.operands.slice(0, 1)).map((directory) => anyUnder(directory)) : optionFiles(input, ["O", "F"])) },
  unzip: unzipRule,
  "7z": sevenZip(),
  "7za": sevenZip(),
  "7zr": sevenZip(),
  "7zz": sevenZip(),
};
// GNU sed by the name it is installed under beside BSD's (Homebrew's gsed).
RULES.gsed = RULES.sed as Rule;
// cross (cross-rs) runs cargo's commands in a container, with the project mounted: cargo's reading.
RULES.cross = RULES.cargo as Rule;

/** sqlite3's database: its first operand, past the options that take a value (`-cmd`, `-init`, …); none for `:memory:`. */
function sqliteDatabase(input: RuleInput): string[] {
  for (let at = 0; at < input.args.length; at++) {
    const arg = input.args[at];
    if (arg === undefined) return [UNKNOWABLE];
    if (/^--?(lookaside|pagecache|heap)$/.test(arg)) at += 2; // SIZE N
    else if (/^--?(cmd|init|separator|newline|nullvalue|mmap|maxsize|vfs|escape|nonce)$/.test(arg)) at++;
    else if (!arg.startsWith("-")) return arg === ":memory:" ? [] : input.values([at]);
  }
  return [];
}

/** zstd: `-o` out; with --rm the source goes; decompressing (`-d`, unzstd) writes each file without its `.zst`. */
function zstdRule(decompressing: boolean): Rule {
  return {
    syntax: { short: "o:T:p:rD:b::e::", long: { output: "o", threads: "T", processes: "p", rm: "", decompress: "d", stdout: "c", test: "t", list: "l", recursive: "r", dict: "D", ...valuedLong("output-dir-flat output-dir-mirror format") } },
    writes: (input) => {
      const { reading } = input;
      if (reading.has("c", "t", "l", "b")) return []; // (-b: a benchmark, in memory)
      const files = input.values(reading.operands);
      const out = optionFiles(input, ["o"]);
      // Where it puts what it makes: `--output-dir-flat`'s directory, `--output-dir-mirror`'s tree;
      // with -r, beside each file under each directory given. Compressing, `.zst` files there;
      // decompressing (or another --format), any file there.
      const into = (dir: string | undefined, deep: boolean) => (dir === undefined ? UNKNOWABLE : decompressing || reading.has("d") || reading.has("format") ? anyUnder(dir) : `${GLOB_MARK}${join(dir, ...(deep ? ["**"] : []), "*.zst")}`);
      const flat = reading.values("output-dir-flat").map((dir) => into(directoryAt(input.walk.cwd, dir), false));
      const mirror = reading.values("output-dir-mirror").map((dir) => into(directoryAt(input.walk.cwd, dir), true));
      if (flat.length > 0 || mirror.length > 0 || reading.has("r")) return [...out, ...flat, ...mirror, ...(reading.has("r") && flat.length === 0 && mirror.length === 0 ? files.map((file) => (isDirectory(file) ? into(file, true) : file.startsWith("\0") ? file : `${file}.zst`)) : []), ...(reading.has("rm") ? files : [])];
      const made = decompressing || reading.has("d") ? files.map((file) => file.replace(/\.(zst|zstd|tzst)$/, "")) : reading.has("o") ? [] : files.map((file) => `${file}.zst`);
      return [...out, ...made, ...(reading.has("rm") ? files : [])];
    },
  };
}

/**
 * The program scp's and sftp's `-S` names for ssh, sftp's `-D` server: a command line, any file.
 * (Their `-o ProxyCommand=…`, `LocalCommand=…`, `KnownHostsCommand=…` are read by the walk as ssh's
 * are, shell-walk.ts.)
 */
function sshRunsHere(input: RuleInput, programs: string[]): string[] {
  return input.reading.has(...programs) ? [UNKNOWABLE] : [];
}

/** A place on another machine: `host:path`, `user@host:path`, `scp://host/path` (not a judged path's mark, which starts with NUL). */
const REMOTE = /^(scp:\/\/|[^/\0]*:)/;

/** A source's path on its machine (`host:x/u.ts` is x/u.ts there): it lands here under that name; a glob there (`h:'*.ts'`), as a glob. */
function localPart(source: string): string {
  if (!REMOTE.test(source)) return source;
  const part = source.replace(/^scp:\/\/[^/]*\/?|^[^/]*:/, "") || ".";
  return /[*?[{]/.test(part) ? GLOB_MARK + part : part;
}

/** A source on a host the text does not fix (`"$h:app.log"`): its path there, as far as the text gives it; undefined for a source here. */
function remoteSource(input: RuleInput, at: number): string[] | undefined {
  const text = input.text(at);
  if (text === undefined || !text.includes("\u0001") || !REMOTE.test(text)) return undefined;
  const part = text.replace(/^[^/]*:/, "");
  return [part.includes("\u0001") ? UNKNOWABLE : localPart(`h:${part}`)];
}

/**
 * rsync -b (--backup, or --backup-dir, which implies it) keeps each file it replaces: beside it as
 * `f~` (--suffix), or with --backup-dir=DIR (relative to the destination directory, `root`) at the
 * same place under DIR, suffix none unless given. A whole directory's contents keep theirs under it,
 * or anywhere under DIR.
 */
function rsyncBackups(input: RuleInput, files: string[], root: string | undefined): string[] {
  const { reading } = input;
  if (!reading.has("b", "backup-dir")) return [];
  const backupDirectory = reading.has("backup-dir") ? reading.value("backup-dir") : undefined;
  const suffix = reading.has("suffix") ? reading.value("suffix") : reading.has("backup-dir") ? "" : "~";
  const named = (file: string) => (suffix === undefined ? globOf(`${file}*`) : `${file}${suffix}`);
  if (!reading.has("backup-dir")) return files.filter((file) => file !== root && file !== UNKNOWABLE).map(named);
  const base = backupDirectory === undefined ? undefined : directoryAt(root === undefined ? undefined : resolve(input.walk.cwd ?? "/", root), backupDirectory);
  return files.map((file) => {
    if (file === root || file.startsWith(GLOB_MARK) || file === UNKNOWABLE) return anyUnder(base);
    const name = file.startsWith(UNKNOWN_MARK) || root === undefined ? basename(file) : relative(root, file);
    return base === undefined ? UNKNOWN_MARK + named(name) : named(join(base, name));
  });
}

/** The originals patch keeps: `f.orig` (-z, SIMPLE_BACKUP_SUFFIX, -V), or named with -B's prefix to the path or -Y's to the name. */
function patchBackups(input: RuleInput, files: string[]): string[] {
  const { reading, walk } = input;
  const suffix = reading.has("z") ? reading.value("z") : variable(walk.environment, "SIMPLE_BACKUP_SUFFIX", ".orig");
  if (reading.has("B", "Y")) {
    const prefix = reading.has("B") ? reading.value("B") : reading.value("Y");
    if (prefix === undefined || suffix === undefined) return [UNKNOWABLE]; // a prefix the text does not fix could put it anywhere
    const after = reading.has("z") ? suffix : "";
    return files.map((file) => (reading.has("B") ? `${prefix}${file}${after}` : join(dirname(file), `${prefix}${basename(file)}${after}`)));
  }
  const control = reading.value("V") ?? variable(walk.environment, "PATCH_VERSION_CONTROL", variable(walk.environment, "VERSION_CONTROL", undefined));
  return backupNames(files, control, suffix);
}

/** gawk -i inplace (or --include=inplace): the files after the program are rewritten. */
function awkInPlace(): Rule {
  return {
    syntax: {
      short: "d::D::e:E:f:F:i:l:L::o::p::v:W:Z:",
      long: { source: "e", exec: "E", file: "f", "field-separator": "F", include: "i", load: "l", assign: "v", "dump-variables": "d", debug: "D", lint: "L", "pretty-print": "o", profile: "p" },
      ordered: true,
    },
    writes: (input) => {
      const { args, reading } = input;
      const program = reading.has("E") ? undefined : scriptOf(input, "e", "f", "\n");
      const written = program === undefined ? [UNKNOWABLE] : awkProgramWrites(program);
      // The program's own directives load the same: `@include "inplace"` as `-i inplace`, `@load "x"` as `-l x`.
      const directives = (word: string) => (program === undefined ? [] : [...program.matchAll(new RegExp(`@${word}\\s+"([^"\\n]*)"`, "g"))].map((match) => match[1] as string));
      const includes = [...reading.values("i"), ...directives("include")];
      const loads = [...reading.values("l"), ...directives("load")];
      // A library or extension the text does not fix (`-i "$lib"`: inplace as much as any), or one of
      // its own (`-l ./x.so`, `-i helpers`): code the hook does not read.
      if (includes.some((value) => value === undefined || !/^(inplace|assert|bits2str|ctime|getopt|join|ord|quicksort|round|shellquote|strtonum|walkarray)(\.awk)?$/.test(value))) written.push(UNKNOWABLE);
      // (filefuncs chdir()s, rwarray writes arrays to files, inplace's functions rewrite any file, fork runs on: code whose files the text does not give.)
      if (loads.some((value) => value === undefined || !/^(fnmatch|ordchr|readdir|readfile|time|intdiv|revoutput)(\.so)?$/.test(value))) written.push(UNKNOWABLE);
      if (!includes.some((value) => /^inplace(\.awk)?$/.test(value ?? ""))) return written;
      const operands = reading.operands.filter((index) => !/^[A-Za-z_]\w*=/.test(args[index] ?? ""));
      return [...written, ...input.values(reading.has("f", "e", "E") ? operands : operands.slice(1))];
    },
  };
}
