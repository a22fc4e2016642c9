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

/** Names from anywhere: a command's output, the program's input, the environment. */
const READS =
  /\b(?:check_output|getoutput|getstatusoutput|popen|Popen|run|execSync|spawnSync|execFileSync|readline|readlines|input)\s*\(|\bsubprocess\b|\bsys\.stdin\b|\bprocess\.stdin\b|<STDIN>|<>|\bARGF\b|\$stdin\b|\bSTDIN\b|\bopen\s*\(\s*0\b|readFileSync\s*\(\s*0\b|\/dev\/stdin|\benviron\b|process\.env|\bENV\[/;

/** A program that reaches above where it runs, or to a place it computes: its listing may name files anywhere. */
const REACHES = /\.\.|\bpardir\b|expanduser|homedir|\bhome\s*\(|\bchdir\b|\.parent\b|\bdirname\s*\(|\bcwd\s*\(\s*\)\s*\.\s*parent|["'`]~|["'`]\//;

/** Functions that change the file they are given (called, or passed as a value: `map(os.remove, …)`). */
const CHANGE_FUNCTION =
  /(?<![\w$.])(?:os\.(?:remove|unlink|rename|replace|rmdir|removedirs|truncate|chmod|link|symlink|utime)|shutil\.(?:rmtree|move|copy|copy2|copyfile|copytree|chown)|(?:fs\.)?(?:promises\.)?(?:unlink|unlinkSync|rm|rmSync|rmdir|rmdirSync|rename|renameSync|truncate|truncateSync|writeFile|writeFileSync|appendFile|appendFileSync|copyFile|copyFileSync|cp|cpSync|symlink|symlinkSync|link|linkSync|utimes|utimesSync|chmod|chmodSync|createWriteStream)|File\.(?:write|delete|unlink|rename|truncate|symlink|link|chmod)|FileUtils\.\w+|IO\.write|Bun\.write|Deno\.(?:write\w*|remove\w*|rename\w*|truncate\w*|copyFile\w*|create\w*))(?![\w$])/g;

/** Methods that change the file their object names (`p.unlink()`, `Path(f).write_text("")`). */
const CHANGE_METHOD = /\.\s*(?:unlink|rename|touch|write_text|write_bytes|rmdir|symlink_to|hardlink_to|chmod)\s*\(/g;

/** Calls that open a file, writing where their mode says so. */
const OPEN = /(?<![\w$.])(?:(?:File|IO|os|fs)\.)?(?:open|openSync|fopen|sysopen)(?![\w$])/g;

/** An open mode that writes: python's and node's `"w"`, `"a"`, `"x"`, `"r+"`, the O_ flags, perl's `>`, `>>`, `+<`. */
const WRITING_MODE = /^\s*(?:\w+\s*[=:]\s*)?(?:["'](?:[wax]|r\+|\+?[<>]|>>)|[\w.|\s]*O_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND))/;

/**
 * Where a program changes files by names it does not give: "here" (under where it runs), "anywhere"
 * (the names may lie above or elsewhere), or undefined (it does not, as far as its text tells).
 */
export function namesFromElsewhere(program: string): "here" | "anywhere" | undefined {
  const lists = LISTS.test(program);
  const reads = READS.test(program);
  if (!lists && !reads) return undefined;
  const code = blankStrings(program);
  if (!changesComputedName(code, program)) return undefined;
  return reads || REACHES.test(program) ? "anywhere" : "here";
}

/** Functions given two names, both changed (the source removed or read, the target written): rename, move, copy, link. */
const TWO_NAMES = /(?:rename|renameSync|replace|move|copy|copy2|copyfile|copytree|cp|cpSync|copyFile|copyFileSync|link|linkSync|symlink|symlinkSync)$/;

/** Whether a call in the blanked code changes a file whose name is computed (`program`: the text as written, offsets alike). */
function changesComputedName(code: string, program: string): boolean {
  for (const match of code.matchAll(CHANGE_FUNCTION)) {
    const end = (match.index as number) + match[0].length;
    // A bare name (`rename`, `link`) is a call only with parentheses, or perl's space form on a
    // variable (`unlink $f`); a module's (`os.remove`, `FileUtils.rm f`) is one in any form.
    const known = /[.]|Sync$/.test(match[0]);
    if (!known && !/^\s*(?:\(|[ \t]+[$@])/.test(code.slice(end, end + 40))) continue;
    const spans = argumentsAt(code, end);
    // Passed as a value (`map(os.remove, names)`): the names are whatever it is mapped over.
    if (spans === undefined) return true;
    const args = spans.map(([from, to]) => code.slice(from, to));
    const names = match[0].startsWith("FileUtils.") ? args : TWO_NAMES.test(match[0]) ? args.slice(0, 2) : args.slice(0, 1);
    if (names.some(computed)) return true;
  }
  for (const match of code.matchAll(CHANGE_METHOD)) {
    const receiver = code.slice(Math.max(0, (match.index as number) - 200), match.index as number);
    // The object is the name: computed, unless a quoted string or a Path of one.
    if (!/(?:Path\s*\(\s*["'`]\s*["'`]\s*\)|["'`]\s*["'`])\s*$/.test(receiver)) return true;
  }
  for (const match of code.matchAll(OPEN)) {
    const spans = argumentsAt(code, (match.index as number) + match[0].length);
    if (spans === undefined || spans.length < 2) continue; // no mode: read
    const args = spans.map(([from, to]) => code.slice(from, to));
    const written = spans.map(([from, to]) => program.slice(from, to));
    const mode = written.findIndex((arg, index) => index > 0 && WRITING_MODE.test(arg));
    if (mode === -1) continue;
    // Perl's `open(F, ">", $name)` and `open(F, ">$name")`: the names after the handle; elsewhere the first argument.
    const perl = mode === 1 && /^\s*(?:my\s+)?[$\w]+\s*$/.test(args[0] as string) && /^\s*["'](?:\+?[<>]|>>)/.test(written[1] as string);
    if ((perl ? args.slice(1) : args.slice(0, 1)).some(computed)) return true;
  }
  // Perl's `unlink` of `$_` or of a list, without parentheses.
  return /(?<![\w$.])unlink\b(?!\s*\()/.test(code);
}

/** An argument with anything but blanked strings, numbers and punctuation in it: a name the program computes. */
function computed(arg: string): boolean {
  return /[A-Za-z_$@]/.test(arg.replace(/\b\d\w*\b/g, ""));
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
