// Archive and compression tools. tar, unzip and 7z extract what the archive holds, which the text
// does not name: anything under the directory they extract to; they write the archive they create
// (and tar and 7z remove what they archive when asked). gzip, bzip2, xz and compress replace each
// file they are given with its compressed or decompressed twin; lz4 and brotli write the twin
// beside it; uudecode writes the file its input names. ar, ptar and dpkg-deb extract where they are
// told, or write the archive they make. The commands tar and zip run from their options (`-I`,
// `--checkpoint-action=exec=`, `--rsh-command`, zip's `-TT`) are read as scripts (archiveCommandRuns).
import { type Reading, readOptions, shortTakes, type Syntax, valuedLong } from "./shell-options.js";
import { basename, join } from "node:path";
import { exists, isDirectory } from "../targets/target.js";
import { optionFiles, placeOf, type Rule, type RuleInput } from "./shell-rule.js";
import { INPUT, type Nested, STDIN } from "./shell-runners.js";
import { anyIn, anyUnder, directoryAt, HOLE, readText, shellQuoted, UNKNOWABLE, within, writtenBefore } from "./shell-words.js";

/** gzip's, bzip2's and xz's long options; their letters that take a value differ (gzip's -M is a flag, xz's a limit). */
const COMPRESSING: Record<string, string> = {
  suffix: "S",
  stdout: "c",
  "to-stdout": "c",
  test: "t",
  list: "l",
  decompress: "d",
  uncompress: "d",
  check: "C",
  format: "F",
  memlimit: "M",
  threads: "T",
  ...valuedLong("memlimit-compress memlimit-decompress block-size block-list filters"),
};

/** xz's --files[=F] and --files0[=F]: the files to compress, named in F or on stdin. */
export const XZ_FILES: Record<string, string> = { files: "::", files0: "::" };

/** GNU tar's options; its modes are letters (`-x`, `-c`, `-t`) and their long names. */
export const TAR: Syntax = {
  short: "b:C:f:F:g:H:I:K:L:N:T:V:X:",
  long: {
    extract: "x",
    get: "x",
    create: "c",
    append: "r",
    update: "u",
    catenate: "A",
    concatenate: "A",
    list: "t",
    diff: "d",
    compare: "d",
    delete: "",
    file: "f",
    directory: "C",
    "to-stdout": "O",
    "remove-files": "",
    "absolute-names": "P",
    insecure: "P", // bsdtar's name for it
    "listed-incremental": "g",
    "files-from": "T",
    "exclude-from": "X",
    "blocking-factor": "b",
    "info-script": "F",
    "new-volume-script": "F",
    format: "H",
    "use-compress-program": "I",
    "starting-file": "K",
    "tape-length": "L",
    newer: "N",
    "after-date": "N",
    label: "V",
    backup: "::",
    checkpoint: "::",
    occurrence: "::",
    "atime-preserve": "::",
    "force-local": "",
    ...valuedLong(`to-command index-file exclude owner group mode mtime transform xform strip-components suffix newer-mtime record-size
      rmt-command rsh-command volno-file quoting-style sort warning checkpoint-action owner-map group-map hole-detection`),
  },
};

/** tar's arguments read by its syntax (`list`, as read), and where each of the reading's stands in the command's own; `text`: the command's own words' text. */
function tarReading(args: Array<string | undefined>, text: (at: number) => string | undefined): { reading: Reading; origin: (at: number) => number; list: Array<string | undefined> } {
  // `tar xzf a.tgz`: a first word without a dash is a cluster of letters whose values follow it, in order.
  const first = args[0];
  if (first === undefined || !/^[A-Za-z]+$/.test(first)) return { reading: readOptions(args, TAR, 0, text), origin: (at) => at, list: args };
  const rewritten: Array<string | undefined> = [];
  const from: number[] = [];
  let next = 1;
  for (const letter of first) {
    rewritten.push(`-${letter}`);
    from.push(0);
    if (shortTakes(TAR, letter) === 1) {
      rewritten.push(args[next]);
      from.push(next++);
    }
  }
  for (let at = next; at < args.length; at++) {
    rewritten.push(args[at]);
    from.push(at);
  }
  return { reading: readOptions(rewritten, TAR, 0, (at) => text(from[at] as number)), origin: (at) => from[at] as number, list: rewritten };
}

/** tar's modes: given none, it does nothing. */
const TAR_MODES = ["x", "c", "t", "r", "u", "A", "d", "delete", "test-label"];

/**
 * tar's options whose value, where the text does not fix it, still names nothing tar writes or
 * runs: a pattern, a name, a number, a date, a file it only reads (`--exclude="$p"`, `-T"$list"`).
 */
const TAR_INERT_VALUES = ["b", "H", "K", "L", "N", "T", "V", "X", "exclude", "owner", "group", "mode", "mtime", "transform", "xform", "strip-components", "newer-mtime", "record-size", "quoting-style", "sort", "warning", "owner-map", "group-map", "hole-detection", "occurrence", "atime-preserve", "checkpoint"];

/**
 * Whether a word of tar's that the text does not fix may be an option, and so any option at all:
 * `-x` with `-C /` (extracting anywhere), `-I cmd`, `--index-file=f`, `--to-command=cmd`. Such is
 * the first word, options whether old-style letters or dashed (`tar "$opt" -f a.tar`, `tar $opts
 * …`, `tar -$x f a.tar`); a later one read as an operand whose text starts with a dash and does not
 * fix the rest (`-"$x"`, `--"$long"`, `-I"$cmd"`, `-C"$d"`, `--file="$f"`), but for an option whose
 * value alone is unfixed and names nothing written (TAR_INERT_VALUES: `--exclude="$p"`); and any
 * operand the text does not fix where it gives tar no mode (`tar -f a.tar "$m"`), for then that
 * word must give one. Not a word after `--`, nor an option's value (`tar tf "$f"`), nor, where the
 * text fixes the mode, a word whose text does not start with a dash (`tar -czf out.tgz "$dir"`):
 * read as the operand it stands as, as every command's is (shell-options.ts).
 */
function unfixedTarOption(args: Array<string | undefined>, text: (at: number) => string | undefined): boolean {
  if (args.length > 0 && args[0] === undefined) return true;
  const { reading, origin, list } = tarReading(args, text);
  const moded = reading.has(...TAR_MODES);
  return reading.operands.some((at) => {
    if (list[at] !== undefined || (moded && !dashedUnfixed(text(origin(at)) ?? HOLE))) return false;
    // After `--`, an operand whatever it holds: read with a flag in its place, it is one still.
    return !readOptions(list.map((arg, index) => (index === at ? "-v" : arg)), TAR, 0, (index) => text(origin(index))).operands.includes(at);
  });
}

/** A word of tar's, a HOLE where the text does not fix it, that starts as an option and may be one that writes or runs (unfixedTarOption). */
function dashedUnfixed(word: string): boolean {
  if (!word.startsWith("-")) return false;
  const long = /^--([^=\u0001]+)=/.exec(word);
  if (long !== null) return !readOptions([`--${long[1]}=`], TAR, 0, () => undefined).has(...TAR_INERT_VALUES); // (one word, which the text fixes)
  const letter = word[1] as string;
  return !(shortTakes(TAR, letter) === 1 && TAR_INERT_VALUES.includes(letter));
}

/**
 * The commands tar and zip run through the shell, which their options name, as scripts run where
 * they run: tar's compressor (`-I`, `--use-compress-program`, in any mode), a checkpoint's
 * `--checkpoint-action=exec=…` (a listing's too), the volume script (`-F`, `--info-script`) and
 * the remote shell (`--rsh-command`, `--rmt-command`: remoteShellRun); zip's test command (`-TT`,
 * `--unzip-command`, given the archive, or in place of `{}`). UNKNOWABLE where the text does not
 * fix one, or, for tar, may give one in a word it does not fix (unfixedTarOption).
 */
export function archiveCommandRuns(program: string, args: Array<string | undefined>, cwd: string | undefined, text: (at: number) => string | undefined): Nested[] | typeof UNKNOWABLE {
  const scripts: Array<string | undefined> = [];
  let places = [cwd];
  if (program === "zip") {
    const { list, origin } = zipArguments(args);
    // (`-TT"$cmd"`: a word the text does not fix, which may name one.)
    if (args.some((arg, at) => arg === undefined && /^(-[A-Za-z]*TT|--u)/.test(text(at) ?? ""))) return UNKNOWABLE;
    for (const value of readOptions(list, ZIP, 0, (at) => text(origin(at))).values("unzip-command")) scripts.push(value === undefined ? undefined : value.includes("{}") ? value.replaceAll("{}", INPUT) : `${value} ${INPUT}`);
  } else {
    const { reading } = tarReading(args, text);
    // (A checkpoint's command runs where tar is at the time: after a -C, there.)
    for (const directory of reading.values("C")) places.push(directoryAt(places.at(-1), directory));
    places = [...new Set(places)];
    scripts.push(...reading.values("I"), ...reading.values("F"));
    for (const action of reading.values("checkpoint-action")) if (action === undefined || action.startsWith("exec=")) scripts.push(action?.slice(5));
    if (unfixedTarOption(args, text)) return UNKNOWABLE;
    if (reading.has("rsh-command", "rmt-command")) scripts.push(remoteShellRun(reading));
  }
  if (scripts.includes(undefined)) return UNKNOWABLE;
  return (scripts as string[]).filter((script) => script.trim() !== "").flatMap((script) => places.map((place) => ({ script, cwd: place })));
}

/**
 * The remote shell tar runs for an archive on another host (`-f host:file`, `user@host:file`; with
 * no -f, or one the text does not fix, a host it does not give; not with `--force-local`):
 * `--rsh-command`'s program, run with no shell between, given the host, `-l user` and
 * `--rmt-command`'s command for that host to run. Read only where one of the two is given (tar's
 * own are the system's rsh and rmt); the line quoted word by word, so the walk reads the program as
 * it is run (`/bin/sh host cmd` runs a file here), and rsh, which runs the command on the host as
 * ssh does, as ssh (an absolute path there may be a file here). undefined for a program or command
 * the text does not fix; an empty line for an archive here, for which tar runs neither.
 */
function remoteShellRun(reading: Reading): string | undefined {
  const shell = reading.has("rsh-command") ? reading.value("rsh-command") : "ssh";
  const rmt = reading.has("rmt-command") ? reading.value("rmt-command") : "/usr/sbin/rmt";
  if (shell === undefined || rmt === undefined) return undefined;
  if (reading.has("force-local")) return "";
  const archive = reading.value("f");
  const remote = archive === undefined ? undefined : /^([^:/]+):/.exec(archive)?.[1];
  if (archive !== undefined && remote === undefined) return "";
  if (remote === undefined) return [shellQuoted(shell), INPUT, shellQuoted(rmt)].join(" ");
  const at = remote.indexOf("@");
  return [shell, remote.slice(at + 1), ...(at === -1 ? [] : ["-l", remote.slice(0, at)]), rmt].map(shellQuoted).join(" ");
}

/**
 * tar x writes what the archive holds, which the text does not name: anything under -C's directory
 * (or here), and with -P anywhere. tar c, r, u, A and --delete write the -f archive (and -g's
 * snapshot; --remove-files removes what they archive, -T's list too); t and d only read.
 */
export function tarWrites(input: RuleInput): string[] {
  const { walk } = input;
  const { reading, origin } = tarReading(input.args, input.text);
  const index = optionFiles(input, ["index-file"], reading, origin);
  if (reading.has("x")) {
    if (reading.has("O")) return index;
    if (reading.has("to-command")) return [...index, UNKNOWABLE]; // each file is fed to a command
    const places = reading.has("C") ? reading.values("C").map((directory) => directoryAt(walk.cwd, directory)) : [walk.cwd];
    // -P (--absolute-names) keeps a member's leading `/` and its `..`: it is written where it points, anywhere.
    return [...index, ...places.map(anyUnder), ...(reading.has("P") ? [UNKNOWABLE] : [])];
  }
  if (!reading.has("c", "r", "u", "A", "delete")) return index;
  // The archive is opened from where tar starts; -C moves only the names after it. The names -T
  // (--files-from) reads from its list, which the hook does not read, are removed too: any file.
  const removed = !reading.has("remove-files") ? [] : reading.has("C", "T") ? [UNKNOWABLE] : input.values(reading.operands.map(origin));
  return [...index, ...optionFiles(input, ["f"], reading, origin), ...(reading.has("c") ? optionFiles(input, ["g"], reading, origin) : []), ...removed];
}

/**
 * 7z COMMAND ARCHIVE FILES… -SWITCHES: x and e extract what the archive holds under -o's directory
 * (-so: to stdout); a, u, d and rn write the archive (`out` gets `.7z` when it has no extension;
 * -sdel removes the files it adds); l, t, h, i, b read. Each switch is a word: -o{dir}, -so, -mx=9.
 */
export function sevenZip(): Rule {
  return {
    syntax: { short: "a::b::i::m::o::p::r::s::t::u::v::w::x::" },
    writes: (input) => {
      const { args, reading, walk } = input;
      const [command, archive, ...files] = reading.operands;
      const verb = command === undefined ? undefined : args[command];
      const switches = (key: string) => reading.values(key);
      if (verb === "x" || verb === "e") return switches("s").includes("o") ? [] : [anyUnder(placeOf(reading, "o", walk.cwd))];
      if (!["a", "u", "d", "rn"].includes(verb ?? "") || archive === undefined) return [];
      const named = input.values([archive]).flatMap((path) => (path.startsWith("\0") || /\.[^./]+$/.test(path) ? [path] : [path, `${path}.7z`]));
      return [...named, ...(switches("s").includes("del") ? input.values(files) : [])];
    },
  };
}

/** zip's options that take a value (its two-letter `-TT` and `-tt`: zipArguments). */
const ZIP: Syntax = {
  short: "b:n:t:i:x:P:O:Z:s:",
  long: { move: "m", "temp-path": "b", suffixes: "n", "from-date": "t", "before-date": ":", include: "i", exclude: "x", password: "P", "output-file": "O", "compression-method": "Z", split: "s", "unzip-command": ":" },
};

/**
 * zip's arguments with its two-letter options that take a value spelled long (`-TT cmd`, `-TTcmd`,
 * `-TT=cmd`, `-qTT cmd` as `--unzip-command`; `-tt` as `--before-date`), and where each of them
 * stands in the command's own.
 */
function zipArguments(args: Array<string | undefined>): { list: Array<string | undefined>; origin: (at: number) => number } {
  const list: Array<string | undefined> = [];
  const from: number[] = [];
  let ended = false;
  for (const [at, arg] of args.entries()) {
    const pair = ended || arg === undefined || arg.startsWith("--") ? null : /^-([A-Za-z]*?)(TT|tt)(.*)$/s.exec(arg);
    if (arg === "--") ended = true;
    if (pair === null) {
      list.push(arg);
      from.push(at);
      continue;
    }
    const [, before = "", two, value = ""] = pair;
    if (before !== "") {
      list.push(`-${before}`);
      from.push(at);
    }
    list.push(`--${two === "TT" ? "unzip-command" : "before-date"}${value === "" ? "" : `=${value.replace(/^=/, "")}`}`);
    from.push(at);
  }
  return { list, origin: (at) => from[at] as number };
}

/** zip ARCHIVE FILES…: the archive (and with -m, the files it takes in, which go), and -O's file. */
export const zipRule: Rule = {
  syntax: ZIP,
  writes: (input) => {
    const { list, origin } = zipArguments(input.args);
    // (With the words' text: `-O"$o"` is -O given a value the text does not fix, not an operand.)
    const reading = readOptions(list, ZIP, 0, (at) => input.text(origin(at)));
    const archive = reading.has("m") ? reading.operands : reading.operands.slice(0, 1);
    return [...input.values(archive.map(origin)), ...optionFiles(input, ["O"], reading, origin)];
  },
};

/** unzip: what the archive holds, under -d's directory; nothing when it lists, tests or extracts to stdout. */
export const unzipRule: Rule = {
  // -x's names follow it: operands to us, which no rule reads.
  syntax: { short: "d:I:O:P:" },
  writes: (input) => {
    const { reading, walk } = input;
    // -l, -t, -v, -z, -Z list or test; -p and -c extract to stdout.
    if (reading.has("l", "t", "v", "z", "Z", "p", "c")) return [];
    return [anyUnder(placeOf(reading, "d", walk.cwd))]; // what the archive holds, under -d's directory
  },
};

/** gzip f replaces f with f.gz (`suffix`, or -S's); gunzip f.gz writes f. Not with -c, -t, -l (stdout, test, list). */
export function compressed(decompressing: boolean, short = "", long: Record<string, string> = {}, suffix = ".gz"): Rule {
  return {
    syntax: { short, long: { ...COMPRESSING, ...long } },
    writes: (input) => {
      const { reading } = input;
      if (reading.has("c", "t", "l")) return [];
      // xz --files=F, --files0: the names come from F (or stdin), which the text does not give.
      if (reading.has("files", "files0")) return [...input.values(reading.operands), UNKNOWABLE];
      const files = input.values(reading.operands);
      if (decompressing || reading.has("d")) return files.flatMap((file) => [file, file.replace(/\.[^./]+$/, "")]);
      const added = short.includes("S:") ? (reading.value("S") ?? suffix) : suffix;
      return files.flatMap((file) => [file, `${file}${added}`]);
    },
  };
}

/**
 * lz4 [-d|-z] IN [OUT]: OUT, else IN's twin (`f` makes `f.lz4`; a `.lz4` file, or any with -d or
 * as unlz4, `f` without it), which it writes only where its output is a terminal, and else prints
 * (judged all the same: the hook cannot see where it goes); with -m or -r, each file's twin. --rm
 * removes what it read. Not -c, -t, -l, -b (stdout, test, list, benchmark).
 */
export function lz4Rule(decompressing: boolean): Rule {
  return {
    syntax: { long: { decompress: "d", uncompress: "d", compress: "z", stdout: "c", "to-stdout": "c", test: "t", list: "l", multiple: "m", rm: "", keep: "k", force: "f", help: "h", version: "V", fast: "::" } },
    writes: (input) => {
      const { reading } = input;
      if (reading.has("c", "t", "l", "b", "h", "H", "V")) return [];
      const twin = (file: string) => (decompressing || reading.has("d") || (!reading.has("z") && file.endsWith(".lz4")) ? file.replace(/\.lz4$/, "") : `${file}.lz4`);
      const removed = (files: string[]) => (reading.has("rm") ? files : []);
      if (reading.has("m", "r")) {
        const files = input.values(reading.operands);
        return [...files.map(twin), ...removed(files)];
      }
      const [from, to] = reading.operands;
      if (from === undefined || input.args[from] === "stdin") return to === undefined ? [] : input.values([to]).filter((path) => path !== "stdout");
      const source = input.values([from]);
      return [...(to === undefined ? source.map(twin) : input.values([to]).filter((path) => path !== "stdout")), ...removed(source)];
    },
  };
}

/** brotli FILES: each `f.br` (-S's suffix), -d each without it, or -o's file; -j/--rm removes what it read. Not -c, -t. */
export const brotliRule: Rule = {
  syntax: { short: "o:S:q:w:D:C:", long: { decompress: "d", stdout: "c", test: "t", output: "o", suffix: "S", rm: "j", keep: "k", force: "f", quality: "q", lgwin: "w", dictionary: "D", comment: "C", large_window: ":", help: "h", version: "V" } },
  writes: (input) => {
    const { reading } = input;
    if (reading.has("c", "t", "h", "V")) return [];
    const files = input.values(reading.operands);
    const suffix = reading.has("S") ? reading.value("S") : ".br";
    const made = reading.has("o") ? optionFiles(input, ["o"]) : suffix === undefined ? [UNKNOWABLE] : files.map((file) => (reading.has("d") ? (file.endsWith(suffix) ? file.slice(0, -suffix.length) : file) : `${file}${suffix}`));
    return [...made, ...(reading.has("j") ? files : [])];
  },
};

/**
 * uudecode [FILE…]: the file each encoded text names on its `begin` line (`begin 644 out.bin`,
 * `begin-base64 …`; BSD's writes its base name, unless -s), read from the files given or a heredoc;
 * a text the hook cannot read (a pipe, a file the command writes first, one a variable names)
 * could name any file. `-o` names the file instead; BSD's -p and -r print it.
 */
export const uudecodeRule: Rule = {
  syntax: { short: "o:", long: { "output-file": "o", help: "h", version: "v" } },
  writes: (input) => {
    const { reading, walk } = input;
    if (reading.has("p", "r", "h", "v")) return [];
    if (reading.has("o")) return optionFiles(input, ["o"]).filter((path) => path !== "/dev/stdout");
    const sources = reading.operands.length === 0 ? [undefined] : reading.operands;
    return sources.flatMap((at) => {
      const name = at === undefined ? "-" : input.args[at];
      if (name === undefined) return [UNKNOWABLE];
      let text = STDIN.test(name) ? input.stdin : undefined;
      if (!STDIN.test(name)) {
        const path = within(walk.cwd, name);
        if (path.startsWith("\0") || writtenBefore(walk, path)) return [UNKNOWABLE];
        text = readText(path);
        if (text === undefined && !exists(path)) return []; // no input: it stops
      }
      if (text === undefined) return [UNKNOWABLE];
      return [...text.matchAll(/^begin(?:-base64)?[ \t]+[0-7]+[ \t]+(.+?)[ \t]*$/gm)].flatMap(([, file = ""]) =>
        file === "/dev/stdout" ? [] : reading.has("s") || !file.includes("/") ? [file] : [file, basename(file)],
      );
    });
  },
};

/**
 * ar KEY [--output DIR] [RELPOS] [COUNT] ARCHIVE [MEMBERS…] (`ar rcs lib.a x.o`, `ar x lib.a`, the
 * key with a dash or not): `x` extracts the members named, else every one, into `--output`'s
 * directory or here (with `P`, by their full paths: anywhere under it); `r`, `q`, `d`, `m` and `s`
 * write the archive; `t` and `p` only read it.
 */
export const arRule: Rule = {
  syntax: {},
  writes: (input) => {
    const { args, walk } = input;
    let output: string | undefined;
    let place = walk.cwd;
    let key: string | undefined;
    const rest: number[] = [];
    for (let at = 0; at < args.length; at++) {
      const arg = args[at];
      if (arg === undefined) {
        if (key === undefined) return [UNKNOWABLE]; // a key the text does not fix
        rest.push(at);
      } else if (arg.startsWith("--output")) {
        output = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++at];
        place = output === undefined ? undefined : directoryAt(walk.cwd, output);
      } else if (/^--(plugin|target)$/.test(arg)) at++;
      else if (arg.startsWith("--") || (key !== undefined && /^-X/.test(arg))) continue;
      else if (key === undefined) key = arg.replace(/^-/, "");
      else rest.push(at);
    }
    if (key === undefined) return [];
    const operation = /[dmpqrstx]/.exec(key)?.[0];
    const skip = (/[abi]/.test(key) && (operation === "r" || operation === "m") ? 1 : 0) + (key.includes("N") ? 1 : 0); // a member to place by, a count
    const [archive, ...members] = rest.slice(skip);
    if (operation === "x") {
      if (key.includes("P")) return [anyUnder(place)];
      if (members.length === 0) return [anyIn(place)];
      return input.values(members).map((member) => (place === undefined ? UNKNOWABLE : join(place, basename(member))));
    }
    return /[rqdms]/.test(key) && archive !== undefined ? input.values([archive]) : [];
  },
};

/**
 * ptar (Perl's tar): `-x` extracts what the archive holds here; `-c` writes `-f`'s archive
 * (default.tar without one; not `-f -`, stdout).
 */
export const ptarRule: Rule = {
  syntax: { short: "f:T:" },
  writes: (input) => {
    const { reading, walk } = input;
    if (reading.has("x")) return [anyUnder(walk.cwd)];
    if (!reading.has("c")) return [];
    return reading.has("f") ? optionFiles(input, ["f"]) : ["default.tar"];
  },
};

/**
 * dpkg-deb: `-b DIR [OUT]` writes OUT (a package of its own naming in OUT when it is a directory),
 * else DIR.deb; `-x`, `-X`, `-R ARCHIVE DIR` extract under DIR, `-e ARCHIVE [DIR]` the control files
 * under DIR (DEBIAN); `-c`, `-I`, `-f`, `-W` and the tarfiles only print.
 */
export const dpkgDebRule: Rule = {
  syntax: { short: "Z:z:S:", long: { build: "b", extract: "x", vextract: "X", "raw-extract": "R", control: "e", ...valuedLong("showformat threads-max") } },
  writes: (input) => {
    const { reading, walk } = input;
    const [first, second] = reading.operands;
    const under = (at: number | undefined, otherwise: string | undefined) => {
      const [path] = at === undefined ? [otherwise] : input.values([at]);
      return [anyUnder(path === undefined || path.startsWith("\0") ? undefined : directoryAt(walk.cwd, path))];
    };
    if (reading.has("b")) {
      if (second !== undefined) return input.values([second]).flatMap((out) => (out.startsWith("\0") ? [out] : out.endsWith("/") || isDirectory(within(walk.cwd, out)) ? [anyIn(directoryAt(walk.cwd, out))] : [out]));
      return first === undefined ? [] : input.values([first]).map((directory) => (directory.startsWith("\0") ? UNKNOWABLE : `${directory.replace(/\/+$/, "")}.deb`));
    }
    if (reading.has("x", "X", "R")) return second === undefined ? [] : under(second, undefined);
    if (reading.has("e")) return under(second, "DEBIAN");
    return [];
  },
};
