// Commands that make or fill files named from their options and operands, beside the ones of
// shell-rules.ts: `shuf -o out`, `sdiff -o merged`, `split FILE PREFIX` and `csplit -f PREFIX` (the
// pieces, x* and xx* by default), `mkfifo f`, `mknod f p`, `link old new`, `mktemp name.XXXXXX`
// in the project (each random name: the template as a glob); and gettext's tools, Perl's pod
// converters, ptx -G, cscope's cross-reference, gzexe, and the others below.
import { join } from "node:path";
import { valuedLong } from "./shell-options.js";
import { globOf, lineOf, optionFiles, placeOf, type Rule, type RuleInput, variable } from "./shell-rule.js";
import { setByCommand } from "./shell-key-rules.js";
import { anyUnder, directoryAt, readText, UNKNOWABLE } from "./shell-words.js";

/** The pieces a command names from a prefix (`u.` → `u.*`). */
const pieces = (prefix: string | undefined): string[] => (prefix === undefined ? [] : [globOf(`${prefix}*`)]);

/**
 * mktemp's file, its X's as a glob (`tmp.*` with no template): in `-p`'s or `--tmpdir=`'s directory,
 * else beside the template, or in $TMPDIR with no template, `-t` or `--tmpdir` alone (temp space,
 * unless the command's environment sets TMPDIR: `TMPDIR=$PWD mktemp`). Not a `-d` directory, nor `-u`'s none.
 */
function mktempWrites(input: RuleInput): string[] {
  const { reading } = input;
  if (reading.has("u", "d")) return [];
  const [template] = reading.operands;
  const given = reading.value("p") ?? reading.value("tmpdir");
  if (given === undefined && reading.has("p")) return []; // a place the text does not fix
  const inTemp = template === undefined || reading.has("t") || (reading.has("tmpdir") && reading.value("tmpdir") === undefined);
  const place = given ?? (inTemp ? variable(input.walk.environment, "TMPDIR", undefined) : undefined);
  if (inTemp && place === undefined) return [];
  const [name] = template === undefined ? ["tmp.XXXXXXXXXX"] : input.values([template]);
  if (name === undefined) return [];
  const glob = `${name.replace(/X{3,}$/, "*")}${reading.value("suffix") ?? ""}`;
  return [globOf(place === undefined ? glob : join(place, glob))];
}

/**
 * psql's meta-commands that write a file or run a command (`\o f`, `\w f`, `\g f`, `\copy … to 'f'`, `\! cmd`, `\s f`),
 * or read a file's lines as their input (`\i f`, `\ir f`, `\include f`, `\include_relative f`): a script, as `-f`'s.
 */
const PSQL_WRITES = /\\(o|out|w|write|g|gx|copy|!|s|i|ir|include|include_relative)(\s|$)/;

/**
 * psql's output and log files (`-o f`, `-L f`), and any file where a command it is given, on
 * `-c` or its input, holds a meta-command that writes or runs one (`-c '\o f'`); its `-f` script is
 * not read (any file where the text does not fix it either), nor is input the text does not give
 * (`psql < q.sql`, `psql <<< "$q"`), which it reads with no `-c`, nor a PSQLRC the command sets.
 */
function psqlWrites(input: RuleInput): string[] {
  const commands = [...input.reading.occurrences("c").map(({ value }) => value), ...(input.stdin === undefined ? [] : [input.stdin])];
  // A PSQLRC the command sets (not /dev/null) is a startup file of meta-commands it reads, with -c too (not with -X).
  const startup = setByCommand(input.walk.environment, "PSQLRC") && input.walk.environment.PSQLRC !== "/dev/null" && !input.reading.has("X");
  const runs = commands.some((text) => text === undefined || PSQL_WRITES.test(text)) || input.reading.has("f") || (input.fed === true && !input.reading.has("c")) || startup;
  return [...optionFiles(input, ["o", "L"]), ...(runs ? [UNKNOWABLE] : [])];
}

/**
 * mysql's client commands that write a file or run a command, in their long form at a line's or
 * statement's start (`system cmd`, `tee f`, `pager cmd`, `source f`: commands from a file, `edit`)
 * or short anywhere (`\! cmd`, `\T f`, `\. f`, `\P cmd`, `\e`); and `INTO OUTFILE`/`DUMPFILE`,
 * which a server on this machine writes.
 */
const MYSQL_WRITES = /(^|[;\n])\s*(system|tee|pager|source|edit)\b|\\[!T.Pe]|\binto\s+(outfile|dumpfile)\b/i;

/**
 * mysql's (mariadb's) `--tee` file, and any file where a command it is given, on `-e` or its
 * input, holds one of MYSQL_WRITES, or the text does not fix it (`mysql -e "$sql"`, `mysql <
 * q.sql`, which it reads with no `-e`).
 */
function mysqlWrites(input: RuleInput): string[] {
  const commands = [...input.reading.values("e"), ...(input.stdin === undefined ? [] : [input.stdin])];
  const runs = commands.some((text) => text === undefined || MYSQL_WRITES.test(text)) || (input.fed === true && !input.reading.has("e"));
  return [...optionFiles(input, ["tee"]), ...(runs ? [UNKNOWABLE] : [])];
}

/** The pager mysql pipes its results to, a command line: `--pager=cmd`, or bare `--pager`, PAGER's. */
function mysqlPager(input: RuleInput): Array<string | undefined> {
  const pager = variable(input.walk.environment, "PAGER", undefined);
  return input.reading.occurrences("pager").flatMap(({ value, text }) => (value !== undefined ? [value] : text !== undefined ? [undefined] : pager === undefined ? [] : [pager]));
}

/** mysql's options that take a value (its password only attached: `-psecret`). */
const MYSQL = { short: "e:u:h:P:D:S:p::", long: { execute: "e", user: "u", host: "h", port: "P", database: "D", socket: "S", password: "p", tee: ":", pager: "::", "init-command": ":", "defaults-file": ":", "defaults-extra-file": ":" } };

/** An assembler's or linker's output: `-o f`, else a.out where it runs. */
const objectFile = (input: RuleInput): string[] => (input.reading.has("o") ? optionFiles(input, ["o"]) : input.walk.cwd === undefined ? [UNKNOWABLE] : [join(input.walk.cwd, "a.out")]);

/**
 * The words of a command line no option takes, the options' values aside: each word after an
 * option that is none of `flags` is taken for its value (ffmpeg's `-c:v libx264`, ImageMagick's
 * `-resize 50%`).
 */
function plainOperands(input: RuleInput, flags: string[]): number[] {
  const { args } = input;
  return args.flatMap((arg, at) => {
    if (arg === undefined) return input.text(at)?.startsWith("-") ? [] : [at];
    if (arg.startsWith("-")) return [];
    const before = args[at - 1];
    return before !== undefined && before.startsWith("-") && before !== "-" && !flags.includes(before) ? [] : [at];
  });
}

/** ffmpeg's options that take no value. */
const FFMPEG_FLAGS = ["-y", "-n", "-hide_banner", "-nostdin", "-stats", "-nostats", "-shortest", "-re", "-an", "-vn", "-sn", "-dn", "-benchmark", "-ignore_unknown", "-copyts", "-xerror"];

/** ffmpeg's options that name a file it writes (its stats, a playlist's segments, a segment list). */
const FFMPEG_FILE_OPTIONS = ["-vstats_file", "-hls_segment_filename", "-segment_list", "-hls_fmp4_init_filename", "-sdp_file"];

/**
 * ffmpeg's outputs: each word no option takes, but what `-i` names (the inputs); a numbered name
 * (`out/a%03d.png`, an image sequence or a playlist's segments) as the glob of the names it makes;
 * `-f tee`'s outputs (`[f=mp4]a.mp4|[f=null]-`) each; the files its options name; `-passlogfile`'s
 * logs (PREFIX-0.log…), and `-report`'s log where it runs.
 */
function ffmpegWrites(input: RuleInput): string[] {
  const { args } = input;
  const inputs = new Set(args.flatMap((arg, at) => (arg === "-i" ? [at + 1] : [])));
  const options = new Set(args.flatMap((arg, at) => (FFMPEG_FILE_OPTIONS.includes(arg ?? "") || arg === "-passlogfile" ? [at + 1] : [])));
  const tee = args.some((arg, at) => arg === "-f" && args[at + 1] === "tee");
  const numbered = (path: string) => (!path.startsWith("\0") && /%0?\d*d/.test(path) ? globOf(path.replace(/%0?\d*d/g, "*")) : path);
  const outputs = input.values(plainOperands(input, FFMPEG_FLAGS).filter((at) => !inputs.has(at) && !options.has(at)));
  const written = tee ? outputs.flatMap((spec) => spec.split("|").map((part) => part.replace(/^\[[^\]]*\]/, "")).filter((part) => part !== "" && part !== "-")) : outputs;
  const named = args.flatMap((arg, at) => (FFMPEG_FILE_OPTIONS.includes(arg ?? "") ? input.values([at + 1]) : []));
  const passlogs = args.flatMap((arg, at) => (arg === "-passlogfile" ? input.values([at + 1]).map((prefix) => (prefix.startsWith("\0") ? prefix : globOf(`${prefix}-*.log*`))) : []));
  const report = args.includes("-report") ? [input.walk.cwd === undefined ? UNKNOWABLE : globOf(join(input.walk.cwd, "ffmpeg-*.log"))] : [];
  return [...written, ...named, ...passlogs, ...report].map(numbered);
}

/** ImageMagick's `-write FILE` and `+write FILE`: an image written midway, besides its output. */
function imageWrites(input: RuleInput): string[] {
  return input.args.flatMap((arg, at) => (arg === "-write" || arg === "+write" ? input.values([at + 1]) : []));
}

/** mogrify rewrites its files in place, or writes them into `-path DIR` (anything there: `-format` may rename them). */
function mogrifyWrites(input: RuleInput, skip: number): string[] {
  const at = input.args.indexOf("-path");
  if (at !== -1) return [anyUnder(directoryAt(input.walk.cwd, input.args[at + 1]))];
  return input.values(plainOperands(input, []).slice(skip));
}

/** A local destination (no `host:` or `s3://`), and, as it may be a directory, anything under it. */
export function localDestination(input: RuleInput, at: number | undefined, tree: boolean): string[] {
  if (at === undefined) return [];
  const text = input.text(at) ?? "";
  if (/^[a-z][\w+.-]*:\/\//i.test(text) || /^[^/]*:/.test(text)) return [];
  return input.values([at]).flatMap((path) => (tree || path.endsWith("/") || path.endsWith(".") ? [path, anyUnder(path.startsWith("\0") ? undefined : directoryAt(input.walk.cwd, path))] : [path]));
}

/** httpie's `-o` file, and with `--download` and no `-o`, a file of the URL's name where it runs. */
const httpieRule: Rule = {
  syntax: { short: "o:d", long: { output: "o", download: "d" } },
  writes: (input) => (input.reading.has("o") ? optionFiles(input, ["o"]) : input.reading.has("d") ? [input.walk.cwd === undefined ? UNKNOWABLE : globOf(join(input.walk.cwd, "*"))] : []),
};

/** aws's global options that take a value (`--profile p`): its service is the word after them. */
const AWS_GLOBAL_VALUED = ["--endpoint-url", "--output", "--query", "--profile", "--region", "--color", "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout", "--cli-binary-format"];

/** The options of `aws s3 cp|mv|sync` that take no value. */
const AWS_S3_FLAGS = ["--recursive", "--dryrun", "--quiet", "--delete", "--exact-timestamps", "--size-only", "--follow-symlinks", "--no-follow-symlinks", "--only-show-errors", "--no-progress", "--no-guess-mime-type", "--force-glacier-transfer", "--ignore-glacier-warnings", "--no-sign-request", "--debug", "--no-verify-ssl", "--no-paginate"];

/** pod2text's and pod2man's `IN OUT` pairs: each second operand (not `-`, stdout). */
const podPairs = (input: RuleInput): string[] => input.values(input.reading.operands.filter((_, index) => index % 2 === 1)).filter((path) => path !== "-");

/** gettext's tools' options: `-o`'s file (not `-`), and the ones that take a value. */
const GETTEXT: Record<string, string> = { "output-file": "o", directory: "D", ...valuedLong("files-from width properties-output stringtable-output to-code") };

/** A gettext tool that writes only `-o`'s file (else prints), with its own options. */
const gettextOutput = (short = "", long: Record<string, string> = {}): Rule => ({ syntax: { short: `o:D:f:w:t:${short}`, long: { ...GETTEXT, ...long } }, writes: (input) => optionFiles(input, ["o"]).filter((path) => path !== "-") });

/**
 * gettext's tools: `-o`'s file; msgfmt's `messages.mo` without one (a tree under `-d` for Java's,
 * C#'s and Tcl's catalogs), msginit's `LL.po` (any `.po` here), xgettext's `DOMAIN.po` (`-d`'s, else
 * messages) in `-p`'s directory, `msgmerge -U` the file it updates (and with `--backup` its `~` one); msgexec and
 * msgfilter run a command on each message: any file.
 */
const GETTEXT_RULES: Record<string, Rule> = {
  msgfmt: {
    syntax: { short: "o:D:d:l:r:a:f:", long: { ...GETTEXT, locale: "l", resource: "r", alignment: "a", "check-only": "", "output-dir": "d" } },
    writes: (input) => {
      const { reading } = input;
      if (reading.has("d")) return [...optionFiles(input, ["o"]), anyUnder(directoryAt(input.walk.cwd, reading.value("d")))];
      if (reading.has("o")) return optionFiles(input, ["o"]).filter((path) => path !== "-");
      return ["messages.mo"];
    },
  },
  msgmerge: {
    syntax: { short: "o:D:C:f:w:", long: { ...GETTEXT, compendium: "C", update: "U", backup: "::", suffix: ":" } },
    writes: (input) => {
      const { reading } = input;
      if (!reading.has("U")) return optionFiles(input, ["o"]).filter((path) => path !== "-");
      const backup = !reading.has("backup") || /^(none|off)$/.test(reading.value("backup") ?? "") ? [] : input.values(reading.operands.slice(0, 1)).map((path) => globOf(`${path}~*`));
      return [...input.values(reading.operands.slice(0, 1)), ...backup];
    },
  },
  msginit: {
    syntax: { short: "o:i:l:w:", long: { ...GETTEXT, input: "i", locale: "l" } },
    writes: (input) => (input.reading.has("o") ? optionFiles(input, ["o"]).filter((path) => path !== "-") : [globOf("*.po")]),
  },
  xgettext: {
    syntax: { short: "o:p:d:D:f:k::x:c::L:w:", long: { ...GETTEXT, "default-domain": "d", "output-dir": "p", "exclude-file": "x", keyword: "k", "add-comments": "c", language: "L", ...valuedLong("from-code flag package-name package-version msgid-bugs-address copyright-holder msgstr-prefix msgstr-suffix its") } },
    writes: (input) => {
      const { reading, walk } = input;
      const place = placeOf(reading, "p", walk.cwd);
      const names = reading.has("o") ? optionFiles(input, ["o"]).filter((path) => path !== "-") : [`${reading.value("d") ?? "messages"}.po`];
      return names.map((name) => (reading.has("p") && !name.startsWith("\0") && !name.startsWith("/") ? (place === undefined ? UNKNOWABLE : join(place, name)) : name));
    },
  },
  msgcat: gettextOutput("u:", { "use-first": "" }),
  msguniq: gettextOutput(),
  msgattrib: gettextOutput("", { only_file: ":", "only-file": ":", "ignore-file": ":" }),
  msgconv: gettextOutput(),
  msgen: gettextOutput(),
  msgcomm: gettextOutput(),
  msgunfmt: gettextOutput("d:r:l:", { locale: "l", resource: "r" }),
  msggrep: gettextOutput("N:M:J:K:T:C:X:e:E", { ...valuedLong("location domain msgctxt msgid msgstr comment extracted-comment regexp file") }),
  msgexec: { syntax: {}, writes: () => [UNKNOWABLE] },
  msgfilter: { syntax: {}, writes: () => [UNKNOWABLE] },
};

/** mkfs and its kin: their options differ, so each word no option is, of which the first is the device (or image) they format. */
const formatRule: Rule = { syntax: { short: "t:" }, writes: (input) => input.values(input.reading.operands) };

export const FILE_RULES: Record<string, Rule> = {
  ...GETTEXT_RULES,
  // Perl's pod converters: pod2text's and pod2man's `IN OUT` pairs; pod2html's --outfile, and its
  // cache (pod2htmd.tmp) in --cachedir's directory or here.
  pod2text: { syntax: { short: "i:m:q:w:", long: valuedLong("indent margin quotes width errors encoding") }, writes: podPairs },
  pod2man: { syntax: { short: "c:d:n:q:r:s:", long: valuedLong("center date errors fixed fixedbold fixeditalic fixedbolditalic name quotes release section lquote rquote encoding") }, writes: podPairs },
  pod2html: {
    syntax: { long: valuedLong("infile outfile cachedir css htmldir htmlroot podpath podroot title backlink libpods") },
    writes: (input) => {
      const cache = placeOf(input.reading, "cachedir", input.walk.cwd);
      return [...optionFiles(input, ["outfile"]).filter((path) => path !== "-"), cache === undefined ? UNKNOWABLE : globOf(join(cache, "pod2htm*.tmp"))];
    },
  },
  // ptx -G (--traditional) IN OUT: its second operand (GNU's own form takes every operand as input).
  ptx: {
    syntax: { short: "F:M:S:W:b:g:i:o:w:", long: { traditional: "G", ...valuedLong("flag-truncation macro-name sentence-regexp word-regexp break-file gap-size ignore-file only-file width format") } },
    writes: (input) => (input.reading.has("G") ? input.values(input.reading.operands.slice(1, 2)).filter((path) => path !== "-") : []),
  },
  // cscope's cross-reference: -f's file (cscope.out here without), with -q its .in and .po beside; not with -d, which uses it as it is.
  cscope: {
    syntax: { short: "f:i:I:s:p:F:P:0:1:2:3:4:5:6:7:8:9:" },
    writes: (input) => {
      const { reading } = input;
      if (reading.has("d", "h", "V")) return [];
      const files = reading.has("f") ? optionFiles(input, ["f"]) : ["cscope.out"];
      return files.flatMap((file) => (file.startsWith("\0") || !reading.has("q") ? [file] : [file, `${file}.in`, `${file}.po`]));
    },
  },
  // Database clients and dumps: psql's -o and -L files (and meta-commands: psqlWrites), pg_dump's
  // and pg_dumpall's -f (a directory with -Fd), mysqldump's -r file and --tab directory.
  psql: {
    syntax: { short: "c:d:f:h:L:o:p:U:v:P:F:R:T:", long: { command: "c", dbname: "d", file: "f", host: "h", "log-file": "L", output: "o", port: "p", username: "U", variable: "v", set: "v", pset: "P", "field-separator": "F", "record-separator": "R", "table-attr": "T", "no-psqlrc": "X" } },
    writes: psqlWrites,
  },
  mysql: { syntax: MYSQL, writes: mysqlWrites, runsLines: mysqlPager },
  mariadb: { syntax: MYSQL, writes: mysqlWrites, runsLines: mysqlPager },
  pg_dump: {
    syntax: { short: "f:F:d:h:p:U:n:N:t:T:j:Z:E:", long: { file: "f", format: "F", dbname: "d", host: "h", port: "p", username: "U", schema: "n", "exclude-schema": "N", table: "t", "exclude-table": "T", jobs: "j", compress: "Z", encoding: "E" } },
    writes: (input) => (/^d/.test(input.reading.value("F") ?? "") ? optionFiles(input, ["f"]).map((path) => anyUnder(path.startsWith("\0") ? undefined : directoryAt(input.walk.cwd, path))) : optionFiles(input, ["f"])),
  },
  pg_dumpall: { syntax: { short: "f:d:h:p:U:", long: { file: "f", dbname: "d", host: "h", port: "p", username: "U" } }, writes: (input) => optionFiles(input, ["f"]) },
  mysqldump: {
    syntax: { short: "r:h:u:P:T:S:", long: { "result-file": "r", host: "h", user: "u", port: "P", tab: "T", socket: "S" } },
    writes: (input) => [...optionFiles(input, ["r"]), ...input.reading.values("T").map((dir) => anyUnder(directoryAt(input.walk.cwd, dir)))],
  },
  // An assembler's and a linker's object.
  as: { syntax: { short: "o:I:" }, writes: objectFile },
  ld: { syntax: { short: "o:L:l:T:e:m:z:" }, writes: objectFile },
  // Downloads: aria2c's -o (in -d's directory), else a file of the URL's name there; httpie's -o,
  // and with --download and no -o, a file of the URL's name where it runs.
  aria2c: {
    syntax: { short: "o:d:i:x:s:j:k:", long: { out: "o", dir: "d", "input-file": "i" } },
    writes: (input) => {
      const dir = input.reading.has("d") ? directoryAt(input.walk.cwd, input.reading.value("d")) : input.walk.cwd;
      if (dir === undefined) return [UNKNOWABLE];
      return input.reading.has("o") ? optionFiles(input, ["o"]).map((name) => (name.startsWith("\0") ? name : join(dir, name))) : [globOf(join(dir, "*"))];
    },
  },
  http: httpieRule,
  https: httpieRule,
  // xh (and xhs), httpie's options: `-o`, `--download`.
  xh: httpieRule,
  xhs: httpieRule,
  // jar: `xf a.jar` extracts where it runs (anything under it); `cf`/`uf out.jar …` writes the jar.
  jar: {
    syntax: {},
    writes: (input) => {
      const mode = (input.args[0] ?? "").replace(/^-/, "");
      if (input.args[0] === undefined) return [UNKNOWABLE];
      if (mode.includes("x")) return [anyUnder(input.walk.cwd)];
      return /[cu]/.test(mode) && mode.includes("f") ? input.values([1]) : [];
    },
  },
  // ImageMagick: convert's (and magick's) output is its last word; mogrify rewrites each file.
  convert: { syntax: {}, writes: (input) => [...input.values(plainOperands(input, []).slice(-1)), ...imageWrites(input)] },
  magick: { syntax: {}, writes: (input) => (input.args[0] === "mogrify" ? mogrifyWrites(input, 1) : [...input.values(plainOperands(input, []).slice(-1)), ...imageWrites(input)]) },
  mogrify: { syntax: {}, writes: (input) => mogrifyWrites(input, 0) },
  // montage and composite, as `magick montage`: their last operand is the output.
  montage: { syntax: {}, writes: (input) => [...input.values(plainOperands(input, []).slice(-1)), ...imageWrites(input)] },
  composite: { syntax: {}, writes: (input) => [...input.values(plainOperands(input, []).slice(-1)), ...imageWrites(input)] },
  ffmpeg: { syntax: {}, writes: ffmpegWrites },
  // Copies from a container or a bucket: `kubectl cp pod:/x dst`, `aws s3 cp|mv s3://b/k dst`
  // (a tree with --recursive), `aws s3 sync s3://b dst`: the local destination, and what lands under it.
  kubectl: {
    syntax: {},
    writes: (input) => {
      const { args } = input;
      const cp = args.indexOf("cp");
      if (cp === -1) return [];
      const valued = ["-c", "--container", "-n", "--namespace", "--retries", "--context", "--kubeconfig"];
      const operands = args.flatMap((arg, at) => (at > cp && !(arg ?? input.text(at) ?? "").startsWith("-") && !valued.includes(args[at - 1] ?? "") ? [at] : []));
      return localDestination(input, operands.at(-1), true);
    },
  },
  aws: {
    syntax: {},
    writes: (input) => {
      const { args } = input;
      // Past its global options (`aws --profile p --endpoint-url URL s3 cp …`): the service and its command.
      let start = 0;
      while (start < args.length && (args[start] ?? input.text(start) ?? "").startsWith("--")) start += AWS_GLOBAL_VALUED.includes(args[start] as string) ? 2 : 1;
      const [service, command] = [args[start], args[start + 1]];
      // Its source and destination, the words no option takes (an option not among AWS_S3_FLAGS takes the next word).
      const operands = args.flatMap((arg, at) => (at > start + 1 && !(arg ?? input.text(at) ?? "").startsWith("-") && !((args[at - 1] ?? "").startsWith("--") && !AWS_S3_FLAGS.includes(args[at - 1] as string)) ? [at] : []));
      // `aws s3api get-object --bucket b --key k OUTFILE` (and its torrent's): the file it names.
      if (service === "s3api" && (command === "get-object" || command === "get-object-torrent")) return operands.length > 0 ? input.values(operands.slice(-1)) : [];
      if (service !== "s3" || !["cp", "mv", "sync"].includes(command ?? "")) return [];
      const tree = command === "sync" || args.includes("--recursive");
      // Two, as it takes them; else each that is local may be the destination. mv removes a local source.
      const destinations = operands.length === 2 ? operands.slice(1) : operands;
      const moved = command === "mv" && operands.length === 2 ? localDestination(input, operands[0], tree) : [];
      return [...destinations.flatMap((at) => localDestination(input, at, tree)), ...moved];
    },
  },
  // m4's debug output (`-o`, `--error-output`, `--debugfile=`) and frozen state (`-F`); an input
  // or a definition whose macros run shell commands (`syscmd`, `esyscmd`, `-P`'s `m4_syscmd`), or
  // include other files, or one it cannot read: any file. (`-d` and `--debug` take their flags
  // only attached, `--debugfile` its file only after `=`.)
  m4: {
    syntax: { short: "o:D:U:I:l:t:F:R:L:", long: { "error-output": "o", debugfile: "::", define: "D", undefine: "U", include: "I", debug: "::", arglength: "l", trace: "t", "freeze-state": "F", "reload-state": "R", "nesting-limit": "L", "warn-macro-sequence": "::" } },
    writes: (input) => {
      const written = [...optionFiles(input, ["o", "F"]), ...input.reading.values("debugfile").flatMap((file) => (file === undefined ? [] : [file]))];
      const files = input.reading.operands.length === 0 ? ["-"] : input.values(input.reading.operands);
      const texts = files.map((file) => (file === "-" ? (input.fed ? undefined : (input.stdin ?? "")) : file.startsWith("\0") ? undefined : readText(directoryAt(input.walk.cwd, file) ?? "")));
      texts.push(...input.reading.values("D"));
      if (texts.some((text) => text === undefined || /e?syscmd\b|\bs?include\s*\(/.test(text))) written.push(UNKNOWABLE);
      return written;
    },
  },
  shuf: { syntax: { short: "i:n:o:", long: { "input-range": "i", "head-count": "n", output: "o", "random-source": ":" } }, writes: (input) => optionFiles(input, ["o"]) },
  // (sdiff runs `--diff-program`'s program on its two files; split `--filter`'s command line, for each piece.)
  sdiff: {
    syntax: { short: "I:o:w:", long: { "ignore-matching-lines": "I", output: "o", width: "w", "diff-program": ":", tabsize: ":" } },
    writes: (input) => optionFiles(input, ["o"]),
    runsLines: (input) => input.reading.values("diff-program").map((program) => lineOf([program, ...input.reading.operands.map((at) => input.args[at])], 0)), // given the two files
  },
  split: {
    syntax: { short: "a:b:C:l:n:t:", long: { "suffix-length": "a", bytes: "b", "line-bytes": "C", lines: "l", number: "n", separator: "t", "additional-suffix": ":", filter: ":", "numeric-suffixes": "::", "hex-suffixes": "::" } },
    writes: (input) => (input.reading.has("filter") ? [] : pieces(input.reading.operands[1] === undefined ? "x" : input.values(input.reading.operands.slice(1, 2))[0])),
    runsLines: (input) => input.reading.values("filter"),
  },
  csplit: { syntax: { short: "b:f:n:", long: { "suffix-format": "b", prefix: "f", digits: "n" } }, writes: (input) => pieces(input.reading.has("f") ? optionFiles(input, ["f"])[0] : "xx") },
  // gzexe rewrites each file in place (compressed, or with -d decompressed), keeping the old one as `f~`.
  gzexe: { syntax: {}, writes: (input) => input.values(input.reading.operands).flatMap((path) => (path.startsWith("\0") ? [path] : [path, `${path}~`])) },
  // blkid's cache file (-c; not /dev/null); mkswap and mkfs format the device or image they are given.
  blkid: { syntax: { short: "c:o:s:t:L:U:n:u:O:S:", long: { "cache-file": "c", output: "o", "match-tag": "s", "match-token": "t", label: "L", uuid: "U", "match-types": "n", usages: "u", offset: "O", size: "S" } }, writes: (input) => optionFiles(input, ["c"]).filter((path) => path !== "/dev/null") },
  mkswap: { syntax: { short: "L:U:p:e:o:s:", long: { label: "L", uuid: "U", pagesize: "p", endianness: "e", offset: "o", size: "s", lock: "::" } }, writes: (input) => input.values(input.reading.operands.slice(0, 1)) },
  ...Object.fromEntries(["mkfs", "mke2fs", "mkdosfs", ...["ext2", "ext3", "ext4", "vfat", "fat", "msdos", "exfat", "xfs", "btrfs", "ntfs", "f2fs", "minix"].map((type) => `mkfs.${type}`)].map((name) => [name, formatRule])),
  mkfifo: { syntax: { short: "m:", long: { mode: "m", context: "::" } }, writes: (input) => input.values(input.reading.operands) },
  mknod: { syntax: { short: "m:", long: { mode: "m", context: "::" } }, writes: (input) => input.values(input.reading.operands.slice(0, 1)) },
  link: { syntax: {}, writes: (input) => input.values(input.reading.operands.slice(1, 2)) },
  mktemp: { syntax: { short: "p:", long: { tmpdir: "::", suffix: ":" } }, writes: mktempWrites },
  // Python's modules run as commands (`python3 -m json.tool in out`, `-m venv .venv`): json.tool
  // writes its second operand (the first too, with --sort-keys… in place when they are one file);
  // venv makes everything under its directories.
  "json.tool": { syntax: { long: { indent: ":" } }, writes: (input) => input.values(input.reading.operands.slice(1, 2)) },
  venv: { syntax: { long: { prompt: ":", "upgrade-deps": "", "without-pip": "" } }, writes: (input) => input.values(input.reading.operands).map((path) => anyUnder(path.startsWith("\0") ? undefined : directoryAt(input.walk.cwd, path))) },
  // `-m zipfile -e a.zip dir`: everything under dir (zipfile keeps members inside it); `-c out.zip
  // files`: the archive. `-m tarfile -e a.tar [dir]`: before Python 3.14, and without `--filter
  // data` or `tar`, a member may be an absolute path or climb out with `..`: any file.
  zipfile: {
    syntax: { long: { list: "l", extract: "e", create: "c", test: "t", "metadata-encoding": ":" } },
    writes: (input) => archiveWrites(input, () => true),
  },
  tarfile: {
    syntax: { long: { list: "l", extract: "e", create: "c", test: "t", verbose: "v", filter: ":" } },
    writes: (input) => archiveWrites(input, () => ["data", "tar"].includes(input.reading.value("filter") ?? "")),
  },
};

/** What `python3 -m zipfile` or `-m tarfile` writes: the archive it creates, or what it extracts (under the directory given, where `contained` says members stay there). */
function archiveWrites(input: RuleInput, contained: () => boolean): string[] {
  const { reading } = input;
  if (reading.has("c", "create")) return input.values(reading.operands.slice(0, 1));
  if (!reading.has("e", "extract")) return [];
  if (!contained()) return [UNKNOWABLE];
  const [place] = reading.operands[1] === undefined ? ["."] : input.values(reading.operands.slice(1, 2));
  return [anyUnder(place === undefined || place.startsWith("\0") ? undefined : directoryAt(input.walk.cwd, place))];
}
