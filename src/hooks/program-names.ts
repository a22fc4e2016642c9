// Whether a program given inline (`python3 -c`, `node -e`, `perl -e`, `ruby -e`, `deno eval`)
// changes files whose names its text does not give: names it lists from a directory, or reads from
// a command's output or its input, passed to a call that changes a file (`[os.remove(f) for f in
// os.listdir()]`). The hook then judges it as writing any file under where it runs, or any file at
// all where the names may lie elsewhere (src/hooks/shell-programs.ts). Read by pattern, not parsed:
// strings are blanked first, so a word in a string (`"copy" in f`) is no call, and a call counts
// only where a name it is given is computed (a variable, an interpolated string, the object of a
// method), not a quoted one, which the string paths already judge.
import { HOLE, TEMP } from "./shell-words.js";

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
  if (runsComputedCode(blankStrings(program), program)) return "anywhere";
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
function runsComputedCode(code: string, program: string): boolean {
  const literal = literalNames(code);
  const commands = /\bchild_process\b|\brequire\s*\(/.test(code);
  for (const match of code.matchAll(EVALS)) {
    const name = /^[\w$.]+/.exec(match[0])?.[0] ?? "";
    if (name === "exec" && commands) continue;
    const [first] = argumentsAt(code, (match.index as number) + name.length) ?? [];
    if (first === undefined) continue;
    // One quoted program, or a variable set to one, is text the hook reads; anything else (a join of pieces too) is not.
    const arg = code.slice(first[0], first[1]).trim();
    // A quoted program with a part the shell puts in that the text does not fix (`eval('$x')`):
    // code the hook cannot read. (The blanked code keeps the program's offsets.)
    const given = program.slice(first[0], first[1]);
    if (given.includes(HOLE) || given.includes(TEMP)) return true;
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

/**
 * The names the write calls of the blanked code are given (`program`: the text as written, offsets
 * alike): each argument that names what a call changes, as [from, to] offsets, or the object a
 * method changes, as the text before it (`receiver`); "value" where a changing function is passed as
 * a value (`map(os.remove, names)`), whose names are whatever it is mapped over.
 */
function* writtenNames(code: string, program: string): Generator<[number, number] | { receiver: string; at: number; open?: true } | "value"> {
  const aliased = aliasedChanges(program);
  const functionCalls = aliased === undefined ? [...code.matchAll(CHANGE_FUNCTION)] : [...code.matchAll(CHANGE_FUNCTION), ...code.matchAll(aliased)];
  for (const match of functionCalls) {
    const name = match[0].replace(/^\)\./, "");
    const spans = argumentsAt(code, (match.index as number) + match[0].length);
    if (spans === undefined) {
      yield "value";
      continue;
    }
    const called = name.slice(name.lastIndexOf(".") + 1); // `fs.unlinkSync` is unlinkSync, no link
    yield* name.startsWith("FileUtils.") ? spans : MOVES.test(called) ? spans.slice(0, 2) : COPIES.test(called) ? spans.slice(1, 2) : spans.slice(0, 1);
  }
  const pathMethods = pathObjectChanges(code);
  for (const match of pathMethods === undefined ? code.matchAll(CHANGE_METHOD) : [...code.matchAll(CHANGE_METHOD), ...code.matchAll(pathMethods)]) {
    yield { receiver: code.slice(Math.max(0, (match.index as number) - 200), match.index as number), at: match.index as number };
  }
  for (const match of code.matchAll(OPEN)) {
    const method = code[(match.index as number) - 1] === "." && !/(?:File|IO|io|os|fs|codecs)\.$/.test(code.slice(0, match.index));
    const spans = argumentsAt(code, (match.index as number) + match[0].length);
    if (spans === undefined || (!method && spans.length < 2)) continue; // no mode: read
    const args = spans.map(([from, to]) => code.slice(from, to));
    const written = spans.map(([from, to]) => program.slice(from, to));
    // `p.open("w")`: the mode first, the name the object.
    if (method) {
      if (WRITING_MODE.test(written[0] ?? "")) yield { receiver: code.slice(Math.max(0, (match.index as number) - 200), match.index as number), at: (match.index as number) - 1, open: true };
      continue;
    }
    const mode = written.findIndex((arg, index) => index > 0 && WRITING_MODE.test(arg));
    if (mode === -1) continue;
    // Perl's `open(F, ">", $name)` and `open(F, ">$name")`: the names after the handle; elsewhere the first argument.
    const perl = mode === 1 && /^\s*(?:my\s+)?[$\w]+\s*$/.test(args[0] as string) && /^\s*["'](?:\+?[<>]|>>)/.test(written[1] as string);
    yield* perl ? spans.slice(1) : spans.slice(0, 1);
  }
}

/** Whether a call in the blanked code changes a file whose name is computed (`program`: the text as written, offsets alike). */
function changesComputedName(code: string, program: string): boolean {
  const literal = literalNames(code);
  const isComputed = (arg: string) => computed(arg, literal);
  for (const name of writtenNames(code, program)) {
    if (name === "value") return true;
    if (Array.isArray(name)) {
      if (isComputed(code.slice(name[0], name[1]))) return true;
      continue;
    }
    // The object is the name: computed, unless a quoted string, a Path of one, or a variable set to one.
    const { receiver } = name;
    if (name.open === true) {
      if (!/["'`]\s*["'`]\s*\)?\s*$/.test(receiver)) return true;
      continue;
    }
    const object = /[$]?[A-Za-z_]\w*\s*$/.exec(receiver)?.[0].trim();
    if (!/(?:Path(?:name\.new)?\s*\(\s*["'`]\s*["'`]\s*\)|["'`]\s*["'`])\s*$/.test(receiver) && !(object !== undefined && literal.has(object) && !/\.\s*[$]?\w+\s*$/.test(receiver))) return true;
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

/**
 * What a program's write calls name where they build the name by an expression the string reading
 * does not follow (`Path("u").with_suffix(".ts")`, `"".join(["u", ".ts"])`, `"u.t" + chr(115)`,
 * `String.fromCharCode(117) + ".ts"`, perl's `join(".", "u", "ts")`), with no listing or input
 * behind it (namesFromElsewhere): any file under where it runs ("here"), or anywhere where the
 * program reaches above it; a stem built so with an extension given (`stem + ".ts"`), any such file
 * here (`*.ts`, as `f"{n}.ts"`). A name the text gives (a string, strings side by side, a variable
 * set to one), one passed through a variable, a parameter or a loop (its strings are judged where
 * they stand), a program argument, and a path joined onto a place (`os.path.join(d, "u.ts")`, `d +
 * "/u.ts"`: that name in a place unknown) are read as before.
 */
export function builtNames(program: string): { place?: "here" | "anywhere"; globs: string[] } {
  const code = blankStrings(program);
  const literal = literalNames(code);
  // Variables set to a name so built (`n = "u.t" + chr(115)`), one step.
  const built = new Map<string, Verdict>();
  for (const match of code.matchAll(/(?:\b(?:const|let|var|my)\s+)?([$]?[A-Za-z_]\w*)\s*=(?![=>])\s*([^;\n]{0,300})/g)) {
    const from = (match.index as number) + match[0].length - (match[2] as string).length;
    const verdict = nameVerdict(code, program, from, from + (match[2] as string).length, literal, new Map());
    if (verdict !== "given") built.set(match[1] as string, verdict);
  }
  const globs = new Set<string>();
  let unknown = false;
  for (const name of writtenNames(code, program)) {
    if (name === "value") continue; // (a listing's, judged by namesFromElsewhere)
    const [from, to] = Array.isArray(name) ? name : [expressionStart(code, name.at), name.at];
    const verdict = nameVerdict(code, program, from, to, literal, built);
    if (verdict === "built") unknown = true;
    else if (verdict !== "given") globs.add(verdict.glob);
  }
  return { ...(unknown ? { place: REACHES.test(program) ? ("anywhere" as const) : ("here" as const) } : {}), globs: [...globs] };
}

type Verdict = "given" | "built" | { glob: string };

/** The path-joining calls a name may be built with and still be read by its last part. */
const JOINS = /^\s*(?:os\.path\.(?:join|abspath|normpath|realpath)|path\.(?:join|resolve|normalize)|File\.(?:join|expand_path)|(?:pathlib\.)?Path|Pathname\.new|catfile|File::Spec->catfile)\s*\(/;

/** How a name expression (code[from, to], the blanked text; the same span of `program` as written) names what it changes. */
function nameVerdict(code: string, program: string, from: number, to: number, literal: Set<string>, built: Map<string, Verdict>, depth = 0): Verdict {
  while (from < to && /\s/.test(code[from] as string)) from++;
  while (to > from && /\s/.test(code[to - 1] as string)) to--;
  const text = code.slice(from, to);
  if (text === "" || depth > 8) return "given";
  // In parentheses (`(Path(d) / "u.ts").write_text(…)`): what is inside.
  if (text.startsWith("(") && closes(text)) return nameVerdict(code, program, from + 1, to - 1, literal, built, depth + 1);
  // A program argument: judged as its arguments are.
  if (/^(?:sys\.argv|process\.argv|\$ARGV|ARGV|Deno\.args|Bun\.argv)\s*\[[^\]]*\]$|^shift(?:\s*\(\s*\))?$|^\$_$/.test(text)) return "given";
  // A string, or an interpolated one (its text read by the string reading), a literal place.
  if (/^(["'`])\s*\1$|^X\s*$/.test(text) || text.replace(LITERAL_PLACE, "").trim() === "") return "given";
  // A quote-like string, ruby's `%q(u.ts)`, `%Q{…}`, `%(…)`, perl's `q(…)`, `qq{…}`, that interpolates
  // nothing: a string, which the string reading reads (blankStrings leaves them as written).
  const quoteLike = program.slice(from, to).trim();
  if (/^(?:%[qQ]?|qq?\s*)(?:\([^()]*\)|\[[^[\]]*\]|\{[^{}]*\}|<[^<>]*>|([^\w\s()[\]{}<>])(?:(?!\1)[^\n])*\1)$/.test(quoteLike) && !/#\{|[$@]/.test(quoteLike)) return "given";
  // A variable, an attribute or an element of one (`out`, `args.out`, `paths[0]`): what it was set to, if built here.
  if (/^(?:my\s+)?[$@]?[A-Za-z_][\w.]*(?:\s*\[[^\]()]*\])*$/.test(text)) {
    const set = built.get(text.replace(/^my\s+/, ""));
    return set ?? "given";
  }
  // Pieces joined by `+`, perl's ` . `, pathlib's `/`: the last names the file.
  const pieces = topLevelSplit(code, from, to, /\+|\s\.\s|\//y);
  if (pieces.length > 1) {
    const literalPiece = ([a, b]: [number, number]) => /^\s*(["'`])\s*\1\s*$/.test(code.slice(a, b));
    if (pieces.every(literalPiece)) return "given"; // strings side by side: read joined
    const last = pieces[pieces.length - 1] as [number, number];
    const lastText = program.slice(last[0], last[1]).trim().slice(1, -1);
    if (literalPiece(last)) {
      if (/^\.\w+$/.test(lastText)) return { glob: `*${lastText}` }; // a stem and its extension
      // A path joined onto a place (`d + "/u.ts"`, `Path(d) / "u.ts"`): that name in a place unknown, as read.
      if (/^[/\\]?[\w@~+-][\w@.~+,=/-]*$/.test(lastText) && (/^[/\\]/.test(lastText) || code.slice(last[0] - 2, last[0]).includes("/"))) return "given";
      return "built";
    }
    const verdicts = pieces.map(([a, b]) => nameVerdict(code, program, a, b, literal, built, depth + 1));
    return verdicts.every((verdict) => verdict === "given") ? "given" : "built";
  }
  // A path joined by a call (`os.path.join(d, "u.ts")`, `Path(d, n)`): each part as read.
  const join = JOINS.exec(text);
  const spans = join === null ? undefined : argumentsAt(code, from + join[0].length - 1);
  // (The call is the whole expression: not `Path("u").with_suffix(".ts")`.)
  if (spans !== undefined && spans.length > 0 && (spans[spans.length - 1] as [number, number])[1] === to - 1) {
    // (The parts before it are the place, which the string reading takes as unknown: `os.path.dirname(__file__)`.)
    const [a, b] = spans[spans.length - 1] as [number, number];
    return nameVerdict(code, program, a, b, literal, built, depth + 1);
  }
  // A path object's own joins and spellings of the same path (`base.joinpath("u.ts")`, `p.resolve()`): the part they add, or the object.
  const tail = /\.\s*(joinpath|resolve|absolute|expanduser)\s*\(/g;
  let last: RegExpExecArray | null = null;
  for (let match = tail.exec(text); match !== null; match = tail.exec(text)) last = match;
  if (last !== null) {
    const spans = argumentsAt(code, from + last.index + last[0].length - 1);
    if (spans !== undefined && (spans[spans.length - 1] as [number, number])[1] === to - 1) {
      const [a, b] = last[1] === "joinpath" ? (spans[spans.length - 1] as [number, number]) : [from, from + last.index];
      if (expressionStart(code, from + last.index) <= from) return nameVerdict(code, program, a, b, literal, built, depth + 1);
    }
  }
  // Anything else builds it: a call, a method of a string or of a call (`chr(115)`, `"".join(…)`, `.with_suffix(".ts")`).
  return "built";
}

/** Whether the parenthesis a text starts with is the one it ends with. */
function closes(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i === text.length - 1;
  }
  return false;
}

/** The spans of code[from, to] between the separators at its top level (not in brackets). */
function topLevelSplit(code: string, from: number, to: number, separator: RegExp): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < to; i++) {
    const char = code[i] as string;
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") depth--;
    else if (depth === 0) {
      separator.lastIndex = i;
      const match = separator.exec(code);
      if (match !== null && i + match[0].length <= to) {
        spans.push([start, i]);
        start = i + match[0].length;
        i = start - 1;
      }
    }
  }
  spans.push([start, to]);
  return spans.filter(([a, b]) => code.slice(a, b).trim() !== "");
}

/** Where the expression that ends at `end` starts (a method's object: `Path("u").with_suffix(".ts")`, `p`, `"u.ts"`). */
function expressionStart(code: string, end: number): number {
  let at = end;
  for (;;) {
    while (at > 0 && /[ \t]/.test(code[at - 1] as string)) at--;
    const char = code[at - 1];
    if (char === ")" || char === "]" || char === "}") {
      const open = char === ")" ? "(" : char === "]" ? "[" : "{";
      let depth = 0;
      for (at--; at >= 0; at--) {
        if (code[at] === char) depth++;
        else if (code[at] === open && --depth === 0) break;
      }
      if (at < 0) return 0;
    } else if (char === '"' || char === "'" || char === "`") {
      const open = code.lastIndexOf(char, at - 2);
      if (open === -1) return at;
      at = open;
    } else if (char !== undefined && /[\w$.]/.test(char)) {
      while (at > 0 && /[\w$.]/.test(code[at - 1] as string)) at--;
    } else return at;
    if (at <= 0 || end - at > 300) return Math.max(0, at);
  }
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
