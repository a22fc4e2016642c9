// Editors of data files run from the command line (xmlstarlet ed -L, Miller, dasel put, sops,
// ansible-vault), xsltproc's output, downloaders (yt-dlp) and cloud storage clients copying to
// this machine (rclone, gsutil, gcloud storage, az storage, azcopy, s3cmd): each as the files or
// directories it writes here. A remote path (`remote:dir`, `gs://b/k`, a URL) is no file here.
import { join } from "node:path";
import { valuedLong } from "./shell-options.js";
import { globOf, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { localDestination } from "./shell-file-rules.js";
import { operandFiles } from "./shell-tool-rules.js";
import { anyIn, anyUnder, directoryAt, readText, runnable, shellQuoted, UNKNOWABLE } from "./shell-words.js";

/** xmlstarlet ed's options and actions that take one value, and those that take two. */
const XML_ONE = new Set(["-N", "-d", "--delete", "-u", "--update", "-v", "--value", "-x", "--expr", "-i", "--insert", "-a", "--append", "-s", "--subnode", "-t", "--type", "-n", "--name", "-r", "--rename"]);
const XML_TWO = new Set(["-m", "--move", "--var"]);

/** `xmlstarlet ed -L …actions… FILE…` (`--inplace`; `xml`): the files it edits in place. Without -L it prints. */
function xmlstarlet(input: RuleInput): string[] {
  const { args } = input;
  let at = 0;
  while ((args[at] ?? "").startsWith("-")) at++;
  if (args[at] !== "ed" && args[at] !== "edit") return [];
  const files: number[] = [];
  let inPlace = false;
  for (at++; at < args.length; at++) {
    const arg = args[at];
    if (arg === "-L" || arg === "--inplace") inPlace = true;
    else if (arg !== undefined && XML_TWO.has(arg)) at += 2;
    else if (arg !== undefined && XML_ONE.has(arg)) at += 1;
    else if (arg === undefined || !arg.startsWith("-")) files.push(at);
  }
  return inPlace ? operandFiles(input, files, []) : [];
}

/**
 * Miller (mlr): `-I` rewrites each file in place (which words are its verbs' arguments and which its
 * files only its verbs' own syntax says: every word that is no option is taken as a file, a verb's
 * name or a field's a file no one claims, and `--from`'s); its `tee` verb's file; `split`'s files
 * (where it runs, or `--prefix`'s); and a DSL expression that redirects its output (`tee >
 * $a.".csv", $*`, `emit >`, `print |`) or runs a command (`system`, `exec`), `tee -p` and
 * `--prepipe`: files the text does not name.
 */
function miller(input: RuleInput): string[] {
  const { args } = input;
  const written: string[] = [];
  const runs = (text: string) => /\b(system|exec)\s*\(|\b(tee|emit[1pf]?|print|printn|eprint|dump|edump)\s*(>|\|)/.test(text);
  if (args.some((arg, at) => (arg === undefined ? /\b(system|exec)\b|>|\|/.test(input.text(at) ?? "") : runs(arg) || /^--prepipex?$/.test(arg)))) written.push(UNKNOWABLE);
  args.forEach((arg, at) => {
    if (arg === "tee" && (at === 0 || args[at - 1] === "then" || !(args[at - 1] ?? "").startsWith("-"))) {
      const options = args.slice(at + 1);
      if (options.includes("-p")) written.push(UNKNOWABLE);
      const file = args.findIndex((each, after) => after > at && (each === undefined || !each.startsWith("-")));
      if (file !== -1) written.push(...input.values([file]));
    }
    if (arg === "split") {
      const prefix = args.indexOf("--prefix", at);
      written.push(prefix === -1 ? anyIn(input.walk.cwd) : input.walk.cwd === undefined ? UNKNOWABLE : globOf(`${directoryAt(input.walk.cwd, args[prefix + 1]) ?? ""}*`));
    }
  });
  // (-I is a main flag: before the verb, which the value of an option such as `--ifs ';'` may hide.)
  if (!args.includes("-I")) return written;
  const verb = args.findIndex((arg, at) => at > args.indexOf("-I") && (arg === undefined || !arg.startsWith("-")) && !/^--(from|ifs|ofs|fs|ips|ops|ps|irs|ors|rs|load|mload|tz|nr-progress-mod|records-per-batch)$/.test(args[at - 1] ?? ""));
  const words = args.flatMap((arg, at) => (at >= verb && verb !== -1 && (arg === undefined || !arg.startsWith("-")) && args[at - 1] !== "--from" ? [at] : []));
  const from = args.flatMap((arg, at) => (arg === "--from" && at + 1 < args.length ? [at + 1] : []));
  return [...written, ...operandFiles(input, [...from, ...words], [])];
}

/** `dasel put|delete -f FILE …`: FILE rewritten, or `-o`'s (`--out`) file instead (`-`, stdout, not a file). */
function dasel(input: RuleInput): string[] {
  const sub = input.args[input.reading.operands[0] ?? -1];
  if (sub !== "put" && sub !== "delete") return [];
  if (input.reading.has("o")) return optionFiles(input, ["o"]).filter((path) => path !== "stdout");
  return optionFiles(input, ["f"]).filter((path) => path !== "stdin");
}

/**
 * xsltproc: `-o FILE` (a directory when it ends in `/`, for what `xsl:document` writes), and, unless
 * `--nowrite`, what the stylesheet writes with an extension element (`exsl:document`,
 * `xsl:document`, `redirect:write`): anything under `--writesubtree`'s directory, else any file.
 */
function xsltproc(input: RuleInput): string[] {
  const { reading } = input;
  if (reading.has("--version", "V", "--help") || reading.operands.length === 0) return [];
  const written = optionFiles(input, ["o"]).map((path) => (path.endsWith("/") ? anyUnder(directoryAt(input.walk.cwd, path)) : path));
  if (reading.has("--nowrite")) return written;
  // (`--param NAME VALUE` takes two words: its value is no operand.)
  const stylesheet = reading.operands.find((at) => !["--param", "--stringparam"].includes(input.args[at - 2] ?? ""));
  const path = stylesheet === undefined ? undefined : input.values([stylesheet])[0];
  const text = path === undefined || path.startsWith("\0") || /^[a-z]+:\/\//i.test(path) ? undefined : readText(directoryAt(input.walk.cwd, path) ?? "");
  // (One that imports or includes another stylesheet: what that one does is not read, any file.)
  if (text !== undefined && !/:(document|write)\b|<xsl:(import|include)\b/.test(text)) return written;
  return [...written, reading.has("writesubtree") ? anyUnder(directoryAt(input.walk.cwd, reading.value("writesubtree"))) : UNKNOWABLE];
}

/** sops's subcommands; `edit`, `set`, `unset` and `updatekeys` rewrite their file, the others only with `-i`. */
const SOPS_COMMANDS = new Set(["encrypt", "decrypt", "edit", "set", "unset", "rotate", "updatekeys", "publish", "keyservice", "exec-env", "exec-file", "groups", "filestatus", "completion", "help", "h"]);

/**
 * sops: `--output FILE`; its file rewritten in place with `-i` (`--in-place`), by `edit`, `set`,
 * `unset`, `updatekeys` and `groups add|delete --file`, and by `sops FILE` alone (its editor, the
 * file encrypted back on exit); not by `-e`, `-d`, `-r` or `--extract` without `-i`, which print.
 */
function sops(input: RuleInput): string[] {
  const { reading } = input;
  const operands = reading.operands;
  const first = input.args[operands[0] ?? -1];
  const sub = first !== undefined && SOPS_COMMANDS.has(first) ? first : undefined;
  const written = optionFiles(input, ["output"]);
  if (sub === "groups") return [...written, ...optionFiles(input, ["f"])];
  const file = sub === undefined ? operands.at(-1) : operands[1];
  if (file === undefined) return written;
  const printsOnly = sub === undefined ? reading.has("e", "d", "r", "extract", "s") : !["edit", "set", "unset", "updatekeys"].includes(sub);
  return printsOnly && !reading.has("i") ? written : [...written, ...operandFiles(input, [file], [])];
}

/** ansible-vault: `create`, `edit` and `rekey` rewrite their files; `encrypt` and `decrypt` too, or write `--output`'s; `encrypt_string` only `--output`'s. */
function ansibleVault(input: RuleInput): string[] {
  const [sub, ...files] = input.reading.operands;
  const action = input.args[sub ?? -1];
  const output = optionFiles(input, ["output"]);
  if (action === "create" || action === "edit" || action === "rekey") return operandFiles(input, files, []);
  if (action === "encrypt" || action === "decrypt") return input.reading.has("output") ? output : operandFiles(input, files, []);
  return action === "encrypt_string" ? output : [];
}

/**
 * The password files ansible-vault is given (`--vault-password-file f`, `--vault-id [label@]f`,
 * the new ones of rekey) that are executable: a program Ansible runs for the password, read as
 * one run by its path. One the text does not fix: any file; `prompt`, or a file that is not
 * executable, is read, not run.
 */
function vaultPasswordPrograms({ reading, walk }: RuleInput): Array<string | undefined> {
  const files = [...reading.values("vault-password-file"), ...reading.values("vault-pass-file"), ...reading.values("new-vault-password-file")];
  const ids = [...reading.values("vault-id"), ...reading.values("new-vault-id")].map((id) => (id === undefined ? undefined : id.slice(id.indexOf("@") + 1)));
  return [...files, ...ids].flatMap((file) => {
    if (file === undefined) return [undefined];
    if (file === "prompt") return [];
    const path = directoryAt(walk.cwd, file); // (an absolute path: a program run by its path)
    if (path === undefined) return [undefined];
    return runnable(path) ? [shellQuoted(path)] : []; // (none there: nothing runs)
  });
}

/**
 * yt-dlp (youtube-dl): its downloads in `-P`'s directory (`-P home:dir`), else where it runs, by
 * `-o`'s template (`type:template` too): a literal name that file and its temporary and merged
 * forms (`v.mp4.part`, `v.*`); a template with fields anything under its fixed directory part; the
 * default, one level where it runs. Its `--download-archive` and `--cookies` files (written back).
 */
function ytDlp(input: RuleInput): string[] {
  const { reading } = input;
  // (What only prints, or simulates: `--print`/`-O` and `-e` imply --simulate. `--skip-download` still writes subtitles, thumbnails, info files.)
  if (reading.has("s", "g", "j", "J", "F", "O", "e", "--get-id", "--get-filename", "--get-thumbnail", "--list-subs", "--list-thumbnails", "--version", "--help") && !reading.has("--no-simulate")) return [];
  const written = [...optionFiles(input, ["download-archive", "cookies"])];
  // A command it runs (`--exec [WHEN:]CMD`, `--netrc-cmd`): read as one too (runsArguments), but its forms vary: any file.
  if (reading.has("exec", "netrc-cmd")) written.push(UNKNOWABLE);
  // Each `-P [TYPE:]DIR` (home, temp, subtitle…): a place it writes.
  const paths = reading.values("P");
  if (paths.some((path) => path === undefined)) return [...written, UNKNOWABLE];
  // (The downloads go to the one of no type, or `home:`; the others, temp's and the like, are written under too.)
  const main = paths.findIndex((path) => !/^[a-z-]+:(?!\/\/)/.test(path as string) || (path as string).startsWith("home:"));
  const places = paths.length === 0 ? [input.walk.cwd] : paths.map((path) => directoryAt(input.walk.cwd, (path as string).replace(/^[a-z-]+:(?!\/\/)/, "")));
  written.push(...places.filter((_, at) => at !== Math.max(main, 0)).map((place) => anyUnder(place)));
  const place = places[Math.max(main, 0)];
  const templates = reading.has("o") ? reading.values("o") : [undefined];
  for (const raw of templates) {
    if (raw === undefined && reading.has("o")) {
      written.push(UNKNOWABLE);
      continue;
    }
    if (raw === "-") continue;
    const template = raw?.replace(/^[a-z_]+:(?!\/)/, "");
    if (template === undefined) {
      written.push(anyIn(place));
      continue;
    }
    const field = template.indexOf("%(");
    const fixed = field === -1 ? template : template.slice(0, field);
    const directory = directoryAt(place, fixed.includes("/") ? fixed.slice(0, fixed.lastIndexOf("/") + 1) : ".");
    if (field !== -1) written.push(anyUnder(directory));
    else {
      const file = directoryAt(place, template);
      if (file !== undefined) written.push(file, globOf(`${file}.*`), globOf(`${file.replace(/\.[^./]*$/, "")}.*`));
      else written.push(UNKNOWABLE);
    }
  }
  return written;
}

/**
 * A copy's destination among its operands (`SRC… DEST`): the last, and, where a word before it is an
 * option the rule does not list (`--buffer-size 16M`, whose value reads as an operand), the ones
 * before it down to one that follows no option: one of them is the destination. Never the first (a
 * source), unless it is the only one (`gsutil cp -I DEST`, sources on stdin).
 */
function destinations(input: RuleInput, operands: number[]): number[] {
  if (operands.length === 1) return operands;
  const picked: number[] = [];
  for (let index = operands.length - 1; index >= 1; index--) {
    const at = operands[index] as number;
    picked.push(at);
    const before = input.args[at - 1] ?? "";
    if (!(before.startsWith("-") && before.length > 1 && !before.includes("="))) break;
  }
  return picked;
}

/** Local destinations (a remote `host:path`, a URL and `-`, stdout, are none). */
const landsHere = (input: RuleInput, indexes: number[], tree: boolean) => indexes.filter((at) => input.args[at] !== "-").flatMap((at) => localDestination(input, at, tree));

/** rclone's subcommands, as what each writes: its destination (a tree, or one file), or the one path it works on; move, moveto and bisync their source too. */
const RCLONE: Record<string, { tree: boolean; written: "destination" | "first" | "both" }> = {
  copy: { tree: true, written: "destination" },
  sync: { tree: true, written: "destination" },
  copyto: { tree: true, written: "destination" },
  copyurl: { tree: false, written: "destination" },
  move: { tree: true, written: "both" },
  moveto: { tree: true, written: "both" },
  bisync: { tree: true, written: "both" },
  rcat: { tree: false, written: "first" },
  mkdir: { tree: false, written: "first" },
  touch: { tree: false, written: "first" },
  deletefile: { tree: false, written: "first" },
  delete: { tree: true, written: "first" },
  purge: { tree: true, written: "first" },
  rmdir: { tree: false, written: "first" },
  rmdirs: { tree: true, written: "first" },
  dedupe: { tree: true, written: "both" },
};

/** rclone's options that take a value (any other is read as a flag, and its value as an operand: judged as a path). */
const RCLONE_SYNTAX = {
  short: "n",
  long: {
    "dry-run": "n",
    ...valuedLong(
      `config log-file log-level backup-dir suffix transfers checkers bwlimit include exclude filter filter-from include-from exclude-from files-from
      max-age min-age max-size min-size max-depth max-transfer max-duration retries low-level-retries timeout contimeout stats order-by tpslimit
      multi-thread-streams compare-dest copy-dest user-agent cutoff-mode header header-download header-upload combined differ error match
      missing-on-dst missing-on-src cache-dir temp-dir password-command dump buffer-size max-delete exclude-if-present retries-sleep output-file`,
    ),
  },
};

/** rclone: the local paths its subcommand writes (a `remote:path` is none), its `--log-file`, `--backup-dir`, check's report files and the hash commands' `--output-file`; nothing with `-n` (`--dry-run`). */
function rclone(input: RuleInput): string[] {
  if (input.reading.has("n")) return [];
  const [sub, ...rest] = input.reading.operands;
  const command = RCLONE[input.args[sub ?? -1] ?? ""];
  const written = [...optionFiles(input, ["log-file", "combined", "differ", "error", "match", "missing-on-dst", "missing-on-src", "output-file"])];
  // (`rclone archive extract SRC DEST`, `archive create SRC DEST`: its destination.)
  if (input.args[sub ?? -1] === "archive" && ["extract", "create"].includes(input.args[rest[0] ?? -1] ?? "")) return [...written, ...landsHere(input, destinations(input, rest.slice(1)), input.args[rest[0] as number] === "extract")];
  for (const { value, at } of input.reading.occurrences("backup-dir")) {
    if (at !== undefined) written.push(...localDestination(input, at, true));
    else if (value === undefined) written.push(UNKNOWABLE);
    else if (!/^[^/]*:/.test(value)) written.push(anyUnder(directoryAt(input.walk.cwd, value)));
  }
  if (command === undefined || rest.length === 0) return written;
  const pick = { destination: destinations(input, rest), first: rest.slice(0, 1), both: rest }[command.written];
  return [...written, ...landsHere(input, pick, command.tree)];
}

/**
 * `gsutil cp|mv|rsync SRC… DEST` and `gcloud storage cp|mv|rsync SRC… DEST`: a local destination
 * (a tree with -r, rsync, several sources, or a `/`); mv's local sources, which it removes.
 */
function cloudCopy(input: RuleInput, command: string | undefined, rest: number[]): string[] {
  if (command !== "cp" && command !== "mv" && command !== "rsync") return [];
  if (rest.length < 2 && !input.reading.has("I")) return [];
  const tree = command === "rsync" || input.reading.has("r", "R", "recursive", "I") || rest.length > 2;
  const destination = destinations(input, rest);
  const moved = command === "mv" ? rest.filter((at) => !destination.includes(at)) : [];
  return [...landsHere(input, destination, tree), ...landsHere(input, moved, true)];
}

/** gsutil's own options and its commands' that take a value (`-h header`, `-o section:opt`, cp's `-L manifest`, rsync's `-x pattern`). */
const GSUTIL_SYNTAX = { short: "h:o:u:a:L:s:z:j:x:y:i:", long: {} };

/** gsutil: cloudCopy's, and cp's `-L` manifest. */
function gsutil(input: RuleInput): string[] {
  const [sub, ...rest] = input.reading.operands;
  const command = input.args[sub ?? -1];
  return command === "cp" || command === "mv" || command === "rsync" ? [...optionFiles(input, ["L"]), ...cloudCopy(input, command, rest)] : [];
}

/**
 * gcloud: `storage cp|mv|rsync` (also under `alpha` and `beta`) as cloudCopy's, and
 * `--manifest-path`'s file; the files other commands write here: `--out-file` (secrets versions
 * access), `--plaintext-file`/`--ciphertext-file` (kms decrypt, encrypt), `iam service-accounts keys
 * create FILE`, `compute scp`'s local destination.
 */
function gcloud(input: RuleInput): string[] {
  const operands = input.reading.operands.filter((at) => !["alpha", "beta"].includes(input.args[at] ?? ""));
  const [group, sub, ...rest] = operands;
  const [first, command] = [input.args[group ?? -1], input.args[sub ?? -1]];
  const written = optionFiles(input, ["out-file", "manifest-path", ...(command === "decrypt" ? ["plaintext-file"] : command === "encrypt" ? ["ciphertext-file"] : [])]);
  if (first === "storage") written.push(...cloudCopy(input, command, rest));
  if (first === "iam" && command === "service-accounts" && input.args[rest[0] ?? -1] === "keys" && input.args[rest[1] ?? -1] === "create") written.push(...operandFiles(input, rest.slice(2, 3), []));
  if (first === "compute" && command === "scp" && rest.length >= 2) written.push(...landsHere(input, destinations(input, rest), input.reading.has("recurse")));
  return written;
}

const GCLOUD_SYNTAX = { short: "x:I", long: { "read-paths-from-stdin": "I", ...valuedLong("project account configuration billing-project impersonate-service-account verbosity format flatten manifest-path content-type cache-control storage-class predefined-acl encryption-key decryption-keys additional-headers custom-metadata exclude out-file plaintext-file ciphertext-file key keyring location iam-account secret zone") } };

/**
 * `az storage blob download -f FILE` (`--file`, `--file=FILE`), `az storage file download --dest
 * PATH`, `az storage fs file download -d PATH` (its `-f` is the file system), a `download-batch`'s
 * `-d` directory, and `az storage copy -d` when it is local: what lands here.
 */
function azStorage(input: RuleInput): string[] {
  const { args } = input;
  // (Its options' values are read as operands too: its group and verb are the first words.)
  const words = input.reading.operands.map((at) => args[at]);
  if (words[0] !== "storage") return [];
  const verb = words[1] === "copy" ? "copy" : words.slice(2, 4).find((word) => word === "download" || word === "download-batch");
  const valueOf = (...names: string[]) =>
    args.flatMap((arg, at) => {
      if (names.includes(arg ?? "")) return localDestination(input, at + 1, verb !== "download");
      const name = names.find((each) => each.startsWith("--") && arg?.startsWith(`${each}=`));
      return name === undefined || arg === undefined ? [] : [directoryAt(input.walk.cwd, arg.slice(name.length + 1)) ?? UNKNOWABLE];
    });
  if (verb === "download") return words[1] === "fs" ? valueOf("-d", "--destination-path") : valueOf("-f", "--file", "--dest", "--destination", "-d");
  if (verb === "download-batch" || verb === "copy") return valueOf("-d", "--destination", "--destination-path");
  return [];
}

/** az: its storage downloads (azStorage); `keyvault secret|certificate|key download -f FILE`; `bicep build`'s `--outfile`, else the .json beside the file (`--stdout`: none). */
function az(input: RuleInput): string[] {
  const words = input.reading.operands.map((at) => input.args[at]);
  const option = (...names: string[]) =>
    input.args.flatMap((arg, at) => {
      if (names.includes(arg ?? "")) return input.values([at + 1]);
      const name = names.find((each) => each.startsWith("--") && arg?.startsWith(`${each}=`));
      return name === undefined || arg === undefined ? [] : [arg.slice(name.length + 1)];
    });
  if (words[0] === "keyvault" && words[2] === "download") return option("-f", "--file");
  if (words[0] === "bicep" && (words[1] === "build" || words[1] === "build-params" || words[1] === "decompile")) {
    if (input.args.includes("--stdout")) return [];
    const out = option("--outfile", "--outdir");
    return out.length > 0 ? out : option("-f", "--file").map((path) => path.replace(/\.(bicep|bicepparam|json)$/, words[1] === "decompile" ? ".bicep" : ".json"));
  }
  return azStorage(input);
}

/** azcopy's options that take a value. */
const AZCOPY_SYNTAX = { long: valuedLong("include-pattern exclude-pattern include-path exclude-path delete-destination overwrite log-level from-to cap-mbps block-size-mb include-after include-before list-of-files put-md5 check-md5 output-type") };

/** `azcopy copy|cp|sync SRC DEST`: a local destination, a tree; `remove` a local path. */
function azcopy(input: RuleInput): string[] {
  const [sub, ...rest] = input.reading.operands;
  const command = input.args[sub ?? -1];
  if (command === "copy" || command === "cp" || command === "sync") return landsHere(input, destinations(input, rest), true);
  if (command === "remove" || command === "rm") return landsHere(input, rest, true);
  return [];
}

/** s3cmd's commands that write here: `get s3://b/k [DEST]` (where it runs without DEST) and `sync SRC DEST`. */
function s3cmd(input: RuleInput): string[] {
  const operands = input.reading.operands;
  const sub = operands.findIndex((at) => input.args[at] === "get" || input.args[at] === "sync");
  if (sub === -1) return [];
  const rest = operands.slice(sub + 1);
  if (input.args[operands[sub] as number] === "get") {
    return rest.length > 1 ? landsHere(input, destinations(input, rest), input.reading.has("r", "recursive") || rest.length > 2) : [input.walk.cwd === undefined ? UNKNOWABLE : globOf(join(input.walk.cwd, "*"))];
  }
  return rest.length >= 2 ? landsHere(input, destinations(input, rest), true) : [];
}

export const DATA_RULES: Record<string, Rule> = {
  xmlstarlet: { syntax: {}, writes: xmlstarlet },
  xml: { syntax: {}, writes: xmlstarlet },
  mlr: { syntax: {}, writes: miller },
  dasel: { syntax: { short: "f:o:r:w:t:v:s:", long: { file: "f", out: "o", read: "r", write: "w", type: "t", value: "v", selector: "s", ...valuedLong("indent") } }, writes: dasel },
  xsltproc: { syntax: { short: "o:", long: { output: "o", ...valuedLong("path maxdepth maxparserdepth encoding writesubtree"), param: ":", stringparam: ":" } }, writes: xsltproc },
  sops: {
    syntax: { short: "edrisk:p:a:f:", long: { encrypt: "e", decrypt: "d", rotate: "r", "in-place": "i", "show-master-keys": "s", kms: "k", pgp: "p", age: "a", file: "f", ...valuedLong("output extract set config input-type output-type encrypted-regex unencrypted-regex encrypted-suffix unencrypted-suffix gcp-kms azure-kv hc-vault-transit shamir-secret-sharing-threshold filename-override indent add-kms add-pgp add-age rm-kms rm-pgp rm-age") } },
    writes: sops,
    runsArguments: true, // exec-env, exec-file
  },
  // (A password file that is executable, Ansible runs for the password: read as a program run by its path.)
  "ansible-vault": { syntax: { short: "n:", long: { name: "n", ...valuedLong("output vault-id vault-password-file vault-pass-file new-vault-id new-vault-password-file encrypt-vault-id stdin-name") } }, writes: ansibleVault, runsLines: vaultPasswordPrograms },
  "yt-dlp": {
    syntax: { short: "o:P:f:a:u:p:S:O:sgjJFe", long: { output: "o", paths: "P", format: "f", "batch-file": "a", username: "u", password: "p", "format-sort": "S", print: "O", simulate: "s", "get-url": "g", "get-title": "e", "dump-json": "j", "dump-single-json": "J", "list-formats": "F", "netrc-cmd": ":", ...valuedLong("download-archive cookies merge-output-format remux-video recode-video config-location ffmpeg-location exec proxy limit-rate retries") } },
    writes: ytDlp,
    runsArguments: true, // --exec
  },
  // (`--password-command CMD`, else RCLONE_PASSWORD_COMMAND: a command it runs for its config's password, read in turn.)
  rclone: {
    syntax: RCLONE_SYNTAX,
    writes: rclone,
    runsLines: ({ reading, walk }) => (reading.has("password-command") ? reading.values("password-command") : Object.hasOwn(walk.environment, "RCLONE_PASSWORD_COMMAND") && walk.environment.RCLONE_PASSWORD_COMMAND !== "" ? [walk.environment.RCLONE_PASSWORD_COMMAND] : []),
  },
  gsutil: { syntax: GSUTIL_SYNTAX, writes: gsutil },
  gcloud: { syntax: GCLOUD_SYNTAX, writes: gcloud },
  az: { syntax: {}, writes: az },
  azcopy: { syntax: AZCOPY_SYNTAX, writes: azcopy },
  s3cmd: { syntax: { short: "c:", long: valuedLong("config exclude include region access_key secret_key host host-bucket storage-class") }, writes: s3cmd },
};
DATA_RULES["youtube-dl"] = DATA_RULES["yt-dlp"] as Rule;
