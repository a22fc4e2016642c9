// Commands that make or fill files named from their options and operands, beside the ones of
// shell-rules.ts: `shuf -o out`, `sdiff -o merged`, `split FILE PREFIX` and `csplit -f PREFIX` (the
// pieces, x* and xx* by default), `mkfifo f`, `mknod f p`, `link old new`, `mktemp name.XXXXXX`
// in the project (each random name: the template as a glob).
import { join } from "node:path";
import { globOf, optionFiles, type Rule, type RuleInput, variable } from "./shell-rule.js";
import { anyUnder, directoryAt, UNKNOWABLE } from "./shell-words.js";

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

export const FILE_RULES: Record<string, Rule> = {
  shuf: { syntax: { short: "i:n:o:", long: { "input-range": "i", "head-count": "n", output: "o", "random-source": ":" } }, writes: (input) => optionFiles(input, ["o"]) },
  sdiff: { syntax: { short: "I:o:w:", long: { "ignore-matching-lines": "I", output: "o", width: "w", "diff-program": ":", tabsize: ":" } }, writes: (input) => optionFiles(input, ["o"]) },
  split: {
    syntax: { short: "a:b:C:l:n:t:", long: { "suffix-length": "a", bytes: "b", "line-bytes": "C", lines: "l", number: "n", separator: "t", "additional-suffix": ":", filter: ":", "numeric-suffixes": "::", "hex-suffixes": "::" } },
    writes: (input) => pieces(input.reading.operands[1] === undefined ? "x" : input.values(input.reading.operands.slice(1, 2))[0]),
  },
  csplit: { syntax: { short: "b:f:n:", long: { "suffix-format": "b", prefix: "f", digits: "n" } }, writes: (input) => pieces(input.reading.has("f") ? optionFiles(input, ["f"])[0] : "xx") },
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
