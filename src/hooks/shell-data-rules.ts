// Editors of data files run from the command line (xmlstarlet ed -L, Miller, dasel put, sops,
// ansible-vault), xsltproc's output, downloaders (yt-dlp) and cloud storage clients copying to
// this machine (rclone, gsutil, gcloud storage, az storage, azcopy, s3cmd): each as the files or
// directories it writes here. A remote path (`remote:dir`, `gs://b/k`, a URL) is no file here.
import { join } from "node:path";
import { valuedLong } from "./shell-options.js";
import { globOf, optionFiles, type Rule, type RuleInput } from "./shell-rule.js";
import { localDestination } from "./shell-file-rules.js";
import { operandFiles } from "./shell-tool-rules.js";
import { anyIn, anyUnder, directoryAt, readText, UNKNOWABLE } from "./shell-words.js";

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
 * where it runs; and a DSL expression that redirects its output (`tee > $a.".csv", $*`, `emit >`,
 * `print >`) or runs a command (`system`, `exec`): files the text does not name.
 */
function miller(input: RuleInput): string[] {
  const { args } = input;
  const verb = args.findIndex((arg) => arg === undefined || !arg.startsWith("-"));
  const written: string[] = [];
  if (args.some((arg, at) => at >= verb && verb !== -1 && (arg === undefined ? /\b(system|exec)\b|>/.test(input.text(at) ?? "") : /\b(system|exec)\s*\(|\b(tee|emit[1pf]?|print|printn|dump|edump)\s*>/.test(arg)))) written.push(UNKNOWABLE);
  args.forEach((arg, at) => {
    if (at < verb || verb === -1 || (at > verb && args[at - 1] !== "then")) return;
    if (arg === "tee") {
      const file = args.findIndex((each, after) => after > at && (each === undefined || !each.startsWith("-")));
      if (file !== -1) written.push(...input.values([file]));
    }
    if (arg === "split") written.push(anyIn(input.walk.cwd));
  });
  if (!args.slice(0, verb === -1 ? args.length : verb).includes("-I")) return written;
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
  const written = optionFiles(input, ["o"]).map((path) => (path.endsWith("/") ? anyUnder(directoryAt(input.walk.cwd, path)) : path));
  if (reading.has("--nowrite")) return written;
  // (`--param NAME VALUE` takes two words: its value is no operand.)
  const stylesheet = reading.operands.find((at) => !["--param", "--stringparam"].includes(input.args[at - 2] ?? ""));
  const path = stylesheet === undefined ? undefined : input.values([stylesheet])[0];
  const text = path === undefined || path.startsWith("\0") || /^[a-z]+:\/\//i.test(path) ? undefined : readText(directoryAt(input.walk.cwd, path) ?? "");
  if (text !== undefined && !/:(document|write)\b/.test(text)) return written;
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
 * yt-dlp (youtube-dl): its downloads in `-P`'s directory (`-P home:dir`), else where it runs, by
 * `-o`'s template (`type:template` too): a literal name that file and its temporary and merged
 * forms (`v.mp4.part`, `v.*`); a template with fields anything under its fixed directory part; the
 * default, one level where it runs. Its `--download-archive` and `--cookies` files (written back).
 */
function ytDlp(input: RuleInput): string[] {
  const { reading } = input;
  if (reading.has("s", "--skip-download", "g", "j", "J", "F", "--version", "--help")) return [];
  const pathValue = reading.value("P");
  const place = reading.has("P") ? directoryAt(input.walk.cwd, pathValue === undefined ? undefined : pathValue.replace(/^(home|temp):/, "")) : input.walk.cwd;
  const written = [...optionFiles(input, ["download-archive", "cookies"])];
  if (reading.has("P") && pathValue === undefined) return [...written, UNKNOWABLE];
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

/** rclone's subcommands, as what each writes: its destination (a tree, or one file), its source too (moved), or both (bisync). */
const RCLONE: Record<string, { tree: boolean; written: "last" | "first" | "second" | "both" | "each" }> = {
  copy: { tree: true, written: "last" },
  sync: { tree: true, written: "last" },
  copyto: { tree: true, written: "last" },
  move: { tree: true, written: "both" },
  moveto: { tree: true, written: "both" },
  bisync: { tree: true, written: "both" },
  copyurl: { tree: false, written: "second" },
  rcat: { tree: false, written: "first" },
  mkdir: { tree: false, written: "first" },
  touch: { tree: false, written: "first" },
  deletefile: { tree: false, written: "first" },
  delete: { tree: true, written: "first" },
  purge: { tree: true, written: "first" },
  rmdir: { tree: false, written: "first" },
  rmdirs: { tree: true, written: "first" },
  dedupe: { tree: true, written: "each" },
  extract: { tree: true, written: "last" },
};

/** rclone's options that take a value (any other is read as a flag, and its value as an operand: judged as a path). */
const RCLONE_SYNTAX = {
  short: "",
  long: valuedLong(
    `config log-file log-level backup-dir suffix transfers checkers bwlimit include exclude filter filter-from include-from exclude-from files-from
    max-age min-age max-size min-size max-depth max-transfer max-duration retries low-level-retries timeout contimeout stats order-by tpslimit
    multi-thread-streams compare-dest copy-dest user-agent cutoff-mode header header-download header-upload combined differ error match
    missing-on-dst missing-on-src cache-dir temp-dir password-command dump`,
  ),
};

/** rclone: the local paths its subcommand writes (a `remote:path` is none), its `--log-file`, `--backup-dir` and check's report files. */
function rclone(input: RuleInput): string[] {
  const [sub, ...rest] = input.reading.operands;
  const command = RCLONE[input.args[sub ?? -1] ?? ""];
  const written = [...optionFiles(input, ["log-file", "combined", "differ", "error", "match", "missing-on-dst", "missing-on-src"])];
  for (const { value, at } of input.reading.occurrences("backup-dir")) {
    if (at !== undefined) written.push(...localDestination(input, at, true));
    else if (value === undefined) written.push(UNKNOWABLE);
    else if (!/^[^/]*:/.test(value)) written.push(anyUnder(directoryAt(input.walk.cwd, value)));
  }
  if (command === undefined || rest.length === 0) return written;
  const pick = { last: rest.slice(-1), first: rest.slice(0, 1), second: rest.slice(1, 2), both: rest, each: rest }[command.written];
  return [...written, ...pick.flatMap((at) => localDestination(input, at, command.tree))];
}

/** gsutil's own options and its commands' that take a value (`-h header`, `-o section:opt`, cp's `-L manifest`, rsync's `-x pattern`). */
const GSUTIL_SYNTAX = { short: "h:o:u:a:L:s:z:j:x:y:i:", long: {} };

/** `gsutil cp|mv|rsync SRC… DEST`: a local destination (a tree with -r, rsync, several sources, or a `/`); mv's local sources (removed); cp's `-L` manifest. */
function gsutil(input: RuleInput): string[] {
  const [sub, ...rest] = input.reading.operands;
  const command = input.args[sub ?? -1];
  if (command !== "cp" && command !== "mv" && command !== "rsync") return [];
  const written = optionFiles(input, ["L"]);
  if (rest.length < 2) return written;
  const tree = command === "rsync" || input.reading.has("r", "R") || rest.length > 2;
  written.push(...localDestination(input, rest.at(-1), tree));
  if (command === "mv") written.push(...rest.slice(0, -1).flatMap((at) => localDestination(input, at, true)));
  return written;
}

/** `gcloud storage cp|mv|rsync SRC… DEST` (also under `alpha` and `beta`): as gsutil's, and `--manifest-path`'s file. */
function gcloudStorage(input: RuleInput): string[] {
  const operands = input.reading.operands.filter((at) => !["alpha", "beta"].includes(input.args[at] ?? ""));
  const [group, sub, ...rest] = operands;
  const command = input.args[sub ?? -1];
  if (input.args[group ?? -1] !== "storage" || (command !== "cp" && command !== "mv" && command !== "rsync")) return [];
  const written = optionFiles(input, ["manifest-path"]);
  if (rest.length < 2) return written;
  const tree = command === "rsync" || input.reading.has("r", "R", "recursive") || rest.length > 2;
  written.push(...localDestination(input, rest.at(-1), tree));
  if (command === "mv") written.push(...rest.slice(0, -1).flatMap((at) => localDestination(input, at, true)));
  return written;
}

const GCLOUD_SYNTAX = { short: "x:", long: valuedLong("project account configuration billing-project impersonate-service-account verbosity format flatten manifest-path content-type cache-control storage-class predefined-acl encryption-key decryption-keys additional-headers custom-metadata exclude") };

/**
 * `az storage blob download -f FILE` (`--file`), `az storage file download --dest PATH`,
 * `az storage fs file download -d PATH`, a `download-batch`'s `-d` directory, and `az storage copy -d`
 * when it is local: what lands here.
 */
function azStorage(input: RuleInput): string[] {
  const { args } = input;
  // (Its options' values are read as operands too: its group and verb are the first words.)
  const words = input.reading.operands.map((at) => args[at]);
  if (words[0] !== "storage") return [];
  const verb = words[1] === "copy" ? "copy" : words.slice(2, 4).find((word) => word === "download" || word === "download-batch");
  const valueOf = (...names: string[]) => args.flatMap((arg, at) => (names.includes(arg ?? "") ? [at + 1] : []));
  const local = (at: number, tree: boolean) => localDestination(input, at, tree);
  if (verb === "download") return [...valueOf("-f", "--file", "--dest", "--destination", "-d")].flatMap((at) => local(at, false));
  if (verb === "download-batch" || verb === "copy") return valueOf("-d", "--destination", "--destination-path").flatMap((at) => local(at, true));
  return [];
}

/** `azcopy copy|cp|sync SRC DEST`: a local destination, a tree; `remove` a local path. */
function azcopy(input: RuleInput): string[] {
  const [sub, ...rest] = input.reading.operands;
  const command = input.args[sub ?? -1];
  if (command === "copy" || command === "cp" || command === "sync") return localDestination(input, rest.at(-1), true);
  if (command === "remove" || command === "rm") return rest.flatMap((at) => localDestination(input, at, true));
  return [];
}

/** `s3cmd get s3://b/k [DEST]` (where it runs without DEST) and `s3cmd sync SRC DEST`: a local destination. */
function s3cmd(input: RuleInput): string[] {
  const [sub, ...rest] = input.reading.operands;
  const command = input.args[sub ?? -1];
  if (command === "get") return rest.length > 1 ? localDestination(input, rest.at(-1), input.reading.has("r", "recursive") || rest.length > 2) : [input.walk.cwd === undefined ? UNKNOWABLE : globOf(join(input.walk.cwd, "*"))];
  if (command === "sync" && rest.length >= 2) return localDestination(input, rest.at(-1), true);
  return [];
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
  "ansible-vault": { syntax: { short: "n:", long: { name: "n", ...valuedLong("output vault-id vault-password-file vault-pass-file new-vault-id new-vault-password-file encrypt-vault-id stdin-name") } }, writes: ansibleVault },
  "yt-dlp": {
    syntax: { short: "o:P:f:a:u:p:S:sgjJF", long: { output: "o", paths: "P", format: "f", "batch-file": "a", username: "u", password: "p", "format-sort": "S", simulate: "s", "get-url": "g", "dump-json": "j", "dump-single-json": "J", "list-formats": "F", ...valuedLong("download-archive cookies merge-output-format remux-video recode-video config-location ffmpeg-location exec proxy limit-rate retries") } },
    writes: ytDlp,
    runsArguments: true, // --exec
  },
  rclone: { syntax: RCLONE_SYNTAX, writes: rclone },
  gsutil: { syntax: GSUTIL_SYNTAX, writes: gsutil },
  gcloud: { syntax: GCLOUD_SYNTAX, writes: gcloudStorage },
  az: { syntax: {}, writes: azStorage },
  azcopy: { syntax: {}, writes: azcopy },
  s3cmd: { syntax: { short: "c:", long: valuedLong("config exclude include") }, writes: s3cmd },
};
DATA_RULES["youtube-dl"] = DATA_RULES["yt-dlp"] as Rule;
