// Whether a program given inline (`python3 -c`, `node -e`, `perl -e`, `ruby -e`, `deno eval`)
// changes files whose names its text does not give: names it lists from a directory, or reads from
// a command's output or its input, passed to a call that changes a file (`[os.remove(f) for f in
// os.listdir()]`). The hook then judges it as writing any file under where it runs, or any file at
// all where the names may lie elsewhere (src/hooks/shell-programs.ts). Read by pattern, not parsed:
// strings are blanked first, so a word in a string (`"copy" in f`) is no call, and a call counts
// only where a name it is given is computed (a variable, an interpolated string, the object of a
// method), not a quoted one, which the string paths already judge.

/** Listing a directory or walking a tree: names from under a place the program names (`os.walk("..")`). */
const LISTS =
  /\b(?:listdir|scandir|walk|walkSync|readdir|readdirSync|readDir|readDirSync|opendir|opendirSync|iterdir|i?glob|globSync|rglob|fts_open|children|entries|each_child|foreach)\s*\(|\breaddir\b|\bDir\s*\[|\bFind\.find\b|\bFile::Find\b|\bfind\s*\(\s*(?:\\&|sub\b)|<\*[^>]*>|\bglob\s+["'$]/i;

/** Names from anywhere: a command's output, the program's input, the environment, a file it reads (`json.load(open("cfg"))`). */
const READS =
  /\b(?:check_output|getoutput|getstatusoutput|popen|Popen|run|execSync|spawnSync|execFileSync|readline|readlines|input|readFileSync|readFile|read_text|read_bytes|load|loads|safe_load)\s*\(|\b(?:File|IO)\.(?:read|foreach|binread)\b|\bin\s+open\s*\(|\bopen\s*\([^()]*\)\s*\.\s*read|\bsubprocess\b|\bsys\.stdin\b|\bprocess\.stdin\b|<STDIN>|<>|\bARGF\b|\$stdin\b|\bSTDIN\b|\bopen\s*\(\s*0\b|readFileSync\s*\(\s*0\b|\/dev\/stdin|\benviron\b|process\.env|\bENV\[/;

/** A program that reaches above where it runs, or to a place it computes: its listing may name files anywhere. */
const REACHES = /["'`]\.\.(?:["'`/\\])|\bpardir\b|expanduser|homedir|\bhome\s*\(|\bchdir\b|\.parent\b|\bdirname\s*\(|os\.path\.split|["'`]~|["'`]\/[\w.~-]/;

/**
 * Functions that change the file they are given (called, or passed as a value: `map(os.remove, …)`):
 * a module's, wherever it was reached from (`require("fs").unlinkSync`), and the bare names a
 * program imports (`from shutil import move`, perl's File::Copy), not as a method of something else.
 */
const CHANGE_FUNCTION = new RegExp(
  [
    String.raw`(?:\b(?:os|shutil|fs|fsp|promises)\.|\)\.)?(?:unlinkSync|rmSync|rmdirSync|renameSync|truncateSync|writeFileSync|appendFileSync|copyFileSync|cpSync|symlinkSync|linkSync|utimesSync|chmodSync|writeFile|appendFile|copyFile|createWriteStream|removedirs|rmtree|copytree|copyfile|copy2)(?![\w$])`,
    String.raw`\b(?:os|fs|fsp|promises|shutil)\.(?:remove|unlink|rename|replace|rmdir|truncate|chmod|link|symlink|utime|utimes|rm|cp|move|copy)(?![\w$])`,
    String.raw`\b(?:File|IO|Bun|Deno)\.(?:write\w*|delete|unlink|rename|truncate|symlink|link|chmod|remove\w*|create\w*|copyFile\w*)(?![\w$])`,
    String.raw`\bFileUtils\.\w+(?![\w$])`,
    String.raw`(?<![\w$.])(?:unlink|rename|remove|move|copy|rmtree|rm|cp|mv|truncate|chmod|symlink|link)(?=\s*\(|[ \t]+[$@])`,
  ].join("|"),
  "g",
);

/** Methods that change the file their object names (`p.unlink()`, `Path(f).write_text("")`, `fsp.rm(f)`). */
const CHANGE_METHOD = /\.\s*(?:unlink|rename|touch|write_text|write_bytes|rmdir|symlink_to|hardlink_to|chmod|rm)\s*\(/g;

/** Calls that open a file, writing where their mode says so; a method's (`p.open("w")`) takes the mode first. */
const OPEN = /(?<![\w$])(?:(?:File|IO|io|os|fs|codecs)\.)?(?:open|openSync|fopen|sysopen)(?![\w$])/g;

/** Functions given two names, both changed (the source removed, the target written): rename, move. */
const MOVES = /^(?:rename|renameSync|replace|move|mv)$/;

/** Functions given two names, the second written: copy, link. */
const COPIES = /^(?:copy|copy2|copyfile|copytree|cp|cpSync|copyFile|copyFileSync|link|linkSync|symlink|symlinkSync)$/;

/** An open mode that writes: python's and node's `"w"`, `"a"`, `"x"`, `"r+"`, the O_ flags, perl's `>`, `>>`, `+<`, `+>`. */
const WRITING_MODE = /^\s*(?:(?:mode|flags?)\s*[=:]\s*)?(?:["'][rbt]*[wax+][rwaxbt+]*["']|["'](?:>>?|\+[<>])|[\w.|\s]*O_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND))/;

/** Running a command: with a name computed, a command that changes files (`os.system("rm " + f)`, `subprocess.run(["rm", f])`). */
const RUNS = /(?<![\w$])(?:os\.system|os\.popen|subprocess\.\w+|system|exec|execSync|execFileSync|spawn|spawnSync|Popen|call|check_call|run)\s*\(/g;
const CHANGING_COMMAND = /(?:^|[\s"'`\[(,;|&])(?:rm|mv|cp|ln|tee|truncate|touch|chmod|shred|unlink|install|rsync|dd|sed\s+-i|perl\s+-[a-z]*i)\b|>/;

/**
 * Where a program changes files by names it does not give: "here" (under where it runs), "anywhere"
 * (the names may lie above or elsewhere), or undefined (it does not, as far as its text tells).
 */
export function namesFromElsewhere(program: string): "here" | "anywhere" | undefined {
  // Code the program builds and runs (`exec("os.rem" + "ove(f)")`) may change any file.
  if (runsComputedCode(blankStrings(program))) return "anywhere";
  const extracted = extraction(program);
  if (extracted !== undefined) return extracted;
  const lists = LISTS.test(program);
  const reads = READS.test(program);
  if (!lists && !reads) return undefined;
  const code = blankStrings(program);
  if (!changesComputedName(code, program)) return undefined;
  return reads || REACHES.test(program) ? "anywhere" : "here";
}

/** An archive's library in use: python's zipfile, tarfile and shutil, node's adm-zip, tar, extract-zip, decompress, unzipper. */
const ARCHIVE_LIBRARY = /\b(?:zipfile|tarfile|shutil|ZipFile|TarFile|adm-zip|AdmZip|extract-zip|unzipper)\b|["'`](?:tar|decompress)["'`]/;
/** Calls that unpack an archive: the files they write are the members' names, which the text does not give. */
const EXTRACT_CALL = /(?<![\w$])(?:extractall|extract|extractAllTo|extractAllToAsync|extractEntryTo|unpack_archive|decompress|x)\s*\(/g;

/**
 * Where a program that unpacks an archive writes (`tarfile.open("a.tgz").extractall()`,
 * `shutil.unpack_archive("a.zip", "out")`, `new AdmZip(f).extractAllTo("lib")`): a tar's members
 * may be absolute paths or climb out with `..` (Python before 3.14 lets them; node-tar strips
 * neither in every version), so any file; a zip's stay under its destination: "here", unless that
 * is computed or reaches above.
 */
function extraction(program: string): "here" | "anywhere" | undefined {
  if (!ARCHIVE_LIBRARY.test(program)) return undefined;
  const code = blankStrings(program);
  let found: "here" | "anywhere" | undefined;
  for (const match of code.matchAll(EXTRACT_CALL)) {
    const name = match[0].replace(/\s*\($/, "");
    // `x(`: node-tar's extract, only as a method where tar is loaded (`tar.x(…)`, `require("tar").x(…)`).
    if (name === "x" && !(/[\w)]\s*\.\s*$/.test(code.slice(Math.max(0, (match.index as number) - 8), match.index)) && /["'`]tar["'`]/.test(program))) continue;
    if (/\btar(?:file)?\b|TarFile|unpack_archive/.test(program)) return "anywhere";
    const spans = argumentsAt(code, (match.index as number) + name.length) ?? [];
    const literal = literalNames(code);
    if (spans.some(([from, to]) => computed(code.slice(from, to).replace(/\b(?:path|members|pwd|overwrite|maintainEntryPath|keepOriginalPermission)\s*=/g, ""), literal)) || REACHES.test(program)) return "anywhere";
    found = "here";
  }
  return found;
}

/** Running code: python's `exec`/`eval`/`compile`, javascript's `eval`/`Function`/`vm.run…`, perl's and ruby's string `eval`. */
const EVAL_CALL = String.raw`(?<![\w$.])(?:exec|eval|compile|Function|instance_eval|class_eval|module_eval)\s*\(|\bvm\.\w+\s*\(|(?<![\w$.])eval[ \t]+[$\w"']`;
const EVALS = new RegExp(EVAL_CALL, "g");
/** Whether a program runs code it holds as text (src/hooks/shell-programs.ts then reads its strings as programs too). */
export const EVALUATES = new RegExp(EVAL_CALL);

/**
 * Whether the blanked code runs code whose text it computes (a quoted program is read as the rest
 * of the text is). Node's `exec` runs a command, judged as commands are (RUNS), not code.
 */
function runsComputedCode(code: string): boolean {
  const literal = literalNames(code);
  const commands = /\bchild_process\b|\brequire\s*\(/.test(code);
  for (const match of code.matchAll(EVALS)) {
    const name = /^[\w$.]+/.exec(match[0])?.[0] ?? "";
    if (name === "exec" && commands) continue;
    const [first] = argumentsAt(code, (match.index as number) + name.length) ?? [];
    if (first === undefined) continue;
    // One quoted program, or a variable set to one, is text the hook reads; anything else (a join of pieces too) is not.
    const arg = code.slice(first[0], first[1]).trim();
    if (!/^(?:["'`]\s*["'`]|[$]?[A-Za-z_]\w*)$/.test(arg) || computed(arg, literal)) return true;
  }
  return false;
}

/** A module bound to another name (`import os as o`, `import shutil as sh`, `from os import remove as zap`): its changing calls by that name. */
function aliasedChanges(program: string): RegExp | undefined {
  const modules = [...program.matchAll(/\bimport\s+(?:os|shutil|pathlib)\s+as\s+([A-Za-z_]\w*)/g)].map((match) => match[1] as string);
  const functions = [...program.matchAll(/\bfrom\s+(?:os|shutil)\s+import\s+[^;\n]*?\b(?:remove|unlink|rename|replace|rmdir|removedirs|truncate|rmtree|move|copy|copy2|copyfile|copytree|chmod|link|symlink|utime)\s+as\s+([A-Za-z_]\w*)/g)].map((match) => match[1] as string);
  if (modules.length === 0 && functions.length === 0) return undefined;
  const parts = [
    ...(modules.length > 0 ? [String.raw`\b(?:${modules.join("|")})\.(?:remove|unlink|rename|replace|rmdir|removedirs|truncate|chmod|link|symlink|utime|rmtree|move|copy|copy2|copyfile|copytree)(?![\w$])`] : []),
    ...(functions.length > 0 ? [String.raw`(?<![\w$.])(?:${functions.join("|")})(?![\w$])`] : []),
  ];
  return new RegExp(parts.join("|"), "g");
}

/** Methods of a path object that change its file, where the program makes path objects: ruby's `Pathname` (called without parentheses too), python's `Path.replace`. */
function pathObjectChanges(code: string): RegExp | undefined {
  const ruby = /\bPathname\b/.test(code) ? ["delete", "unlink", "rmtree", "rename", "write", "binwrite", "truncate", "make_link", "make_symlink"] : [];
  const python = /\bPath\b|\bpathlib\b/.test(code) ? ["replace"] : [];
  const methods = [...ruby, ...python];
  return methods.length === 0 ? undefined : new RegExp(String.raw`\.\s*(?:${methods.join("|")})(?![\w$?!])`, "g");
}

/** Whether a call in the blanked code changes a file whose name is computed (`program`: the text as written, offsets alike). */
function changesComputedName(code: string, program: string): boolean {
  const literal = literalNames(code);
  const isComputed = (arg: string) => computed(arg, literal);
  const aliased = aliasedChanges(program);
  const functionCalls = aliased === undefined ? [...code.matchAll(CHANGE_FUNCTION)] : [...code.matchAll(CHANGE_FUNCTION), ...code.matchAll(aliased)];
  for (const match of functionCalls) {
    const name = match[0].replace(/^\)\./, "");
    const spans = argumentsAt(code, (match.index as number) + match[0].length);
    // Passed as a value (`map(os.remove, names)`): the names are whatever it is mapped over.
    if (spans === undefined) return true;
    const args = spans.map(([from, to]) => code.slice(from, to));
    const called = name.slice(name.lastIndexOf(".") + 1); // `fs.unlinkSync` is unlinkSync, no link
    const names = name.startsWith("FileUtils.") ? args : MOVES.test(called) ? args.slice(0, 2) : COPIES.test(called) ? args.slice(1, 2) : args.slice(0, 1);
    if (names.some(isComputed)) return true;
  }
  const pathMethods = pathObjectChanges(code);
  for (const match of pathMethods === undefined ? code.matchAll(CHANGE_METHOD) : [...code.matchAll(CHANGE_METHOD), ...code.matchAll(pathMethods)]) {
    const receiver = code.slice(Math.max(0, (match.index as number) - 200), match.index as number);
    // The object is the name: computed, unless a quoted string, a Path of one, or a variable set to one.
    const object = /[$]?[A-Za-z_]\w*\s*$/.exec(receiver)?.[0].trim();
    if (!/(?:Path(?:name\.new)?\s*\(\s*["'`]\s*["'`]\s*\)|["'`]\s*["'`])\s*$/.test(receiver) && !(object !== undefined && literal.has(object) && !/\.\s*[$]?\w+\s*$/.test(receiver))) return true;
  }
  for (const match of code.matchAll(OPEN)) {
    const method = code[(match.index as number) - 1] === "." && !/(?:File|IO|io|os|fs|codecs)\.$/.test(code.slice(0, match.index));
    const spans = argumentsAt(code, (match.index as number) + match[0].length);
    if (spans === undefined || (!method && spans.length < 2)) continue; // no mode: read
    const args = spans.map(([from, to]) => code.slice(from, to));
    const written = spans.map(([from, to]) => program.slice(from, to));
    // `p.open("w")`: the mode first, the name the object.
    if (method) {
      if (WRITING_MODE.test(written[0] ?? "") && !/["'`]\s*["'`]\s*\)?\s*$/.test(code.slice(Math.max(0, (match.index as number) - 200), match.index as number))) return true;
      continue;
    }
    const mode = written.findIndex((arg, index) => index > 0 && WRITING_MODE.test(arg));
    if (mode === -1) continue;
    // Perl's `open(F, ">", $name)` and `open(F, ">$name")`: the names after the handle; elsewhere the first argument.
    const perl = mode === 1 && /^\s*(?:my\s+)?[$\w]+\s*$/.test(args[0] as string) && /^\s*["'](?:\+?[<>]|>>)/.test(written[1] as string);
    if ((perl ? args.slice(1) : args.slice(0, 1)).some(isComputed)) return true;
  }
  for (const match of code.matchAll(RUNS)) {
    const spans = argumentsAt(code, (match.index as number) + match[0].length - 1) ?? [];
    const args = spans.map(([from, to]) => code.slice(from, to));
    const written = spans.map(([from, to]) => program.slice(from, to)).join(",");
    if (args.some(isComputed) && CHANGING_COMMAND.test(written)) return true;
  }
  // Python's in-place editing (`fileinput.input(files, inplace=True)`), perl's `unlink` of `$_` or a list.
  return /\binplace\s*=\s*(?:True|1)\b/.test(code) || /(?<![\w$.])unlink\b(?!\s*\()/.test(code);
}

/** Pure functions of literal places: a join of quoted names, the working directory (`os.path.join("out", "r.txt")`, `process.cwd()`). */
const LITERAL_PLACE = /\b(?:os\.path\.join|path\.join|path\.resolve|File\.join|(?:pathlib\.)?Path)\s*\((?:\s*(?:["'`]\s*["'`]|os\.getcwd\(\)|process\.cwd\(\)|__dirname|Path\.cwd\(\))\s*,?)*\)|\b(?:os\.getcwd|process\.cwd|Path\.cwd)\(\)|\b__dirname\b/g;

/** The variables a program sets to a literal place and nothing else (`out = "files.txt"`, `const p = path.join("dist", "a.json")`). */
function literalNames(code: string): Set<string> {
  const literal = new Set<string>();
  const assigned = new Map<string, number>();
  for (const match of code.matchAll(/(?:\b(?:const|let|var|my)\s+)?([$]?[A-Za-z_]\w*)\s*=(?!=)\s*([^;\n]{0,300})/g)) {
    const [, name, value] = match as unknown as [string, string, string];
    assigned.set(name, (assigned.get(name) ?? 0) + 1);
    if (!computed(value.replace(/\s*(?:or\s+die.*)?$/, ""), literal)) literal.add(name);
  }
  for (const [name, times] of assigned) if (times > 1) literal.delete(name);
  // Changed in place later (`out += f`, `$out .= $_`), or bound again by a loop or a block
  // (`for out in names`, `foreach my $out`, `|out|`, `(out) =>`): computed after all.
  for (const name of literal) {
    const word = name.replace("$", "\\$");
    const rebound = new RegExp(`(?<![\\w$])${word}\\s*[-+*/.|&]=|\\b(?:for|foreach)\\s*\\(?\\s*(?:const\\s+|let\\s+|var\\s+|my\\s+)?[^;:\\n]{0,80}(?<![\\w$])${word}(?![\\w$])[^;\\n]{0,40}\\b(?:in|of)\\b|\\|[^|]*(?<![\\w$])${word}(?![\\w$])[^|]*\\||(?<![\\w$])${word}\\s*\\)?\\s*=>|foreach\\s+my\\s+${word}(?![\\w$])`);
    if (rebound.test(code)) literal.delete(name);
  }
  return literal;
}

/** An argument with anything but blanked strings, numbers, literal places and punctuation in it: a name the program computes. */
function computed(arg: string, literal: Set<string>): boolean {
  const rest = arg.replace(LITERAL_PLACE, "").replace(/\b\d\w*\b/g, "").replace(/[$]?[A-Za-z_]\w*/g, (word) => (literal.has(word) ? "" : word));
  return /[A-Za-z_$@]/.test(rest);
}

/**
 * Where the top-level arguments of the call whose name ends at `at` lie, as [from, to] offsets: in
 * parentheses, or, for perl and ruby, after a space up to the end of the statement. Undefined where
 * the name is not called (a function passed as a value). Bounded to 400 characters a call.
 */
function argumentsAt(code: string, at: number): Array<[number, number]> | undefined {
  let index = at;
  while (code[index] === " " || code[index] === "\t") index++;
  const parenthesized = code[index] === "(";
  if (!parenthesized && (index === at || /[,)\]};\n=.]/.test(code[index] ?? ";"))) return undefined;
  const spans: Array<[number, number]> = [];
  let depth = 0;
  let from = parenthesized ? index + 1 : index;
  let i = from;
  for (; i < code.length && i < index + 400; i++) {
    const char = code[i] as string;
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && char === ",") {
      spans.push([from, i]);
      from = i + 1;
    } else if (depth === 0 && !parenthesized && (char === ";" || char === "\n")) break;
  }
  spans.push([from, i]);
  return spans;
}

/** Quoted strings of the common languages, python's triple-quoted ones too. */
const STRING = /(?<triple>"""|''')(?<long>[\s\S]*?)\k<triple>|(?<quote>["'`])(?<text>(?:\\.|(?!\k<quote>)[^\\\n])*)\k<quote>/g;

/**
 * The program with each string's text blanked (its length kept, so offsets still meet the text): a
 * string that interpolates (`${f}`, `#{f}`, `f"{f}"`, perl's `"$f"`) becomes a name (`X`), since
 * what it names is computed; any other, an empty quote of the same length.
 */
function blankStrings(program: string): string {
  return program.replace(STRING, (whole, _triple, long: string | undefined, quote: string | undefined, text: string | undefined, offset: number) => {
    const body = long ?? text ?? "";
    const fString = /[fF][rRbB]?$|[rRbB][fF]$/.test(program.slice(Math.max(0, offset - 2), offset)) && body.includes("{");
    const interpolates = /\$\{|#\{/.test(body) || fString || (quote !== "'" && /[$@][\w{]/.test(body));
    const inner = " ".repeat(Math.max(0, whole.length - 2));
    return interpolates ? `X${inner} ` : `${whole[0]}${inner}${whole[whole.length - 1]}`;
  });
}
