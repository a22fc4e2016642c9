// Archive and compression tools. tar, unzip and 7z extract what the archive holds, which the text
// does not name: anything under the directory they extract to; they write the archive they create
// (and tar and 7z remove what they archive when asked). gzip, bzip2 and xz replace each file they
// are given with its compressed or decompressed twin.
import { readOptions, shortTakes, type Syntax, valuedLong } from "./shell-options.js";
import { optionFiles, placeOf, type Rule, type RuleInput } from "./shell-rule.js";
import { anyUnder, directoryAt, UNKNOWABLE } from "./shell-words.js";

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
    ...valuedLong(`to-command index-file exclude owner group mode mtime transform xform strip-components suffix newer-mtime record-size
      rmt-command rsh-command volno-file quoting-style sort warning checkpoint-action owner-map group-map hole-detection`),
  },
};

/**
 * tar x writes what the archive holds, which the text does not name: anything under -C's directory
 * (or here). tar c, r, u, A and --delete write the -f archive (and -g's snapshot; --remove-files
 * removes what they archive); t and d only read.
 */
export function tarWrites(input: RuleInput): string[] {
  const { args, walk } = input;
  // `tar xzf a.tgz`: a first word without a dash is a cluster of letters whose values follow it, in order.
  let list = args;
  let origin = (at: number) => at;
  const first = args[0];
  if (first !== undefined && /^[A-Za-z]+$/.test(first)) {
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
    list = rewritten;
    origin = (at) => from[at] as number;
  }
  const reading = readOptions(list, TAR);
  const index = optionFiles(input, ["index-file"], reading, origin);
  if (reading.has("x")) {
    if (reading.has("O")) return index;
    if (reading.has("to-command")) return [...index, UNKNOWABLE]; // each file is fed to a command
    const places = reading.has("C") ? reading.values("C").map((directory) => directoryAt(walk.cwd, directory)) : [walk.cwd];
    return [...index, ...places.map(anyUnder)];
  }
  if (!reading.has("c", "r", "u", "A", "delete")) return index;
  // The archive is opened from where tar starts; -C moves only the names after it.
  const removed = !reading.has("remove-files") ? [] : reading.has("C") ? [UNKNOWABLE] : input.values(reading.operands.map(origin));
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
