// What a program in another language, given inline (`python3 -c '…'`, `node -e '…'`, a heredoc to
// `python3 -`), may write: it is not read as code, but every string in it that reads as a file's
// path, and every word in such a string (`os.system("rm u.ts")`), is judged as written, and so is
// each path-like argument the program is given (`sys.argv`, `process.argv`, `@ARGV`). Strings are
// read with their escapes decoded (`"u.t\x73"`) and joined where they stand side by side (`"u." +
// "ts"`). In a program that may change files at all (WRITES), a path joined onto something the text
// does not fix (`__dirname + "/u.ts"`, `os.path.join(d, "u.ts")`, `f"{d}/u.ts"`) is judged by its
// name too, as a path after a `cd` the hook cannot follow; `f"{n}.ts"` and `glob("*.ts")` as globs
// here; and a plain name (`rmtree("src")`) when something of that name is here (bareNames, which
// the walk checks). One that changes a file whose name it computes from a listing, a command's
// output or its input (`for f in os.listdir(): os.remove(f)`) may change any file under where it
// runs. Reading a held file that way is refused too: the text cannot tell `open('a.ts')` from
// `open('a.ts', 'w')` at any depth a hook can afford, and refusing is safe. A program in a file
// (`python3 fix.py`) is read so when an agent may have written it (program-files.ts).
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { HOLE, judgedPath, TEMP } from "./shell-words.js";
import { builtNames, EVALUATES, namesFromElsewhere } from "./program-names.js";
import { pastReading } from "./program-files.js";

/** Quoted strings: python's triple-quoted ones across lines, '…', "…", `…` (escapes kept out of the way, not decoded). */
const STRING = /(?<triple>"""|''')(?<long>[\s\S]*?)\k<triple>|(?<quote>["'`])(?<text>(?:\\.|(?!\k<quote>)[^\\\n])*)\k<quote>/g;

/**
 * Whether a part the shell puts into a program that the text does not fix (a HOLE, or TEMP: a
 * variable, a substitution) stands in its code rather than in one of its strings: `-c "$x"`,
 * `-c "print(1); $more"`, `-e "open($f)"`. That is code the hook cannot read, so the program may
 * write any file; in a string (`-c "open('$f','w')"`) it is judged as part of a path (stringPaths).
 * A string left open, or a comment, counts as code; so does a Python f-string's `{…}` and a
 * template literal's `${…}` (`-c "print(f'{$x}')"`).
 */
export function unfixedCode(program: string): boolean {
  const unfixed = (text: string) => text.includes(HOLE) || text.includes(TEMP);
  if (!unfixed(program)) return false;
  // In a string, but in the code of one that holds code: a Python f-string's `{…}`, a template literal's `${…}`.
  const inCode = (string: string, at: number) => (string.startsWith("`") || /[fF][rRbB]?$|[rR][fF]$/.test(program.slice(Math.max(0, at - 2), at))) && /\{[^}]*[\u0001\u0002]/.test(string);
  return unfixed(program.replace(STRING, (string: string, ...rest: unknown[]) => (unfixed(string) && inCode(string, rest.find((part) => typeof part === "number") as number) ? HOLE : "")));
}

/** Calls of a program that change files by name: write, remove (ruby's `rm_rf`, rimraf's), move, copy, link (not a stream's `stdout.write`); perl's and ruby's `open` for writing (`">f"`, `">>"`, `"+<"`). */
const FILE_CHANGES =
  /(?<!std(out|err)\.)\b(write\w*|file_put_contents|append\w*|unlink\w*|remove\w*|rm|rm_\w+|rimraf\w*|rmSync|rmtree|rmdir\w*|rename\w*|truncate\w*|copy\w*|cp|cpSync|cp_r|move|mv|mkdir\w*|makedirs|symlink\w*|link\w*|touch|chmod\w*|create\w*)\b|\bopen\s*\([^\n]{0,300}?,\s*['"][wax+]|\bopen\b\s*\(?[^\n]{0,300}?['"]\s*(\+?>|\+<)/;

/** A program that may change files at all: by name, or through a command it runs. */
const WRITES = new RegExp(`${FILE_CHANGES.source}|\\b(system|exec\\w*|spawn\\w*|popen|subprocess)\\b`);

/** A word that names a file: no scheme, with a directory or an extension. */
const PATH_LIKE = /^(?![a-z][\w+.-]*:)[\w@.~+/-][\w@.~+,=/-]*$/i;

/**
 * Calls that remove a tree, or copy one into another, given the directory the program runs in (or
 * the one above) as what they remove or copy into: `rmtree(".")`, `rmSync(process.cwd(), …)`,
 * `copytree("tpl", ".")`; not a path built on it (`os.getcwd() + "/build"`), nor a copy from it.
 */
const TREE_CALLS_HERE = [
  /\b(?:rmtree|rmSync|rmdirSync|rm_r|rm_rf|remove_dir|remove_dir_all|remove_entry_secure|removedirs)\s*\(\s*(?:(['"\x60])(\.{1,2})\/?\1|os\.getcwd\(\)|process\.cwd\(\)|Dir\.pwd\b|(?:pathlib\.)?Path\.cwd\(\))\s*(?=[,)])/g,
  /\b(?:copytree|copy_tree|cpSync|cp_r)\s*\([^(),]*,\s*(?:(['"\x60])(\.{1,2})\/?\1|os\.getcwd\(\)|process\.cwd\(\)|Dir\.pwd\b|(?:pathlib\.)?Path\.cwd\(\))\s*(?=[,)])/g,
  // node's `fs.cp(src, ".", { recursive: true })`, `fs.promises.cp`: a tree when told to be.
  /\bcp\s*\([^(),]*,\s*(?:(['"\x60])(\.{1,2})\/?\1|process\.cwd\(\))\s*,[^)]*\brecursive\b/g,
];

/**
 * Calls that copy or move a file into a directory, given the one the program runs in or the one
 * above: `shutil.copy("gen/u.ts", ".")`, perl's `copy("gen/u.ts", ".")`, `FileUtils.cp(f, Dir.pwd)`.
 * They write the source's name there (`u.ts`); one whose source the text does not give, any file
 * directly there. (A tree copied into it, `copytree`, `cpSync`, writes all of it: TREE_CALLS_HERE.)
 */
const COPY_INTO_HERE =
  /\b(?:copy(?!tree|_tree)\w*|cp|move|mv)\s*\(\s*(?:(['"\x60])([^'"\x60\n]*)\1|[^(),]*)\s*,\s*(?:(['"\x60])(\.{1,2})\/?\3|os\.getcwd\(\)|process\.cwd\(\)|Dir\.pwd\b|(?:pathlib\.)?Path\.cwd\(\))\s*(?=[,)])/g;

/** Whether a word reads as a file's path (`u.ts`, `src/a`, `/p/u.ts`), not a flag, a URL or a plain word. */
export function isPathLike(word: string): boolean {
  return word.length <= 1024 && !word.startsWith("-") && PATH_LIKE.test(word) && (word.includes("/") || /\.\w+$/.test(word)) && word !== "/";
}

/**
 * Perl's and Ruby's quote-like strings (`q(…)`, `qq{…}`, `qw[…]`, `qx(…)`, `%q(…)`, `%w[…]`,
 * `%x(…)`): in operator position (not a hash key `$h{q}`, a method `.q`, a variable `$q`), with
 * brackets or one of the delimiters scripts use on both sides. One left open runs to the end of the
 * program (perl would not run it): looked for again from each later `q(`, lines of `q(q(…` would
 * cost the square of the program's length.
 */
const QUOTE_LIKE = /(?<![\w$@%&.>{:-])(?:qq|qw|qx|q|%[qQwWiIx]?)(?:\s*\(([^)]*)(?:\)|$)|\s*\[([^\]]*)(?:\]|$)|\s*\{([^}]*)(?:\}|$)|\s*<([^>]*)(?:>|$)|([/|!#~^])((?:(?!\5)[^\n])*)\5)/g;

/**
 * The program's quote-like strings written as double-quoted ones, read beside the program as it
 * is: a rewrite that took a variable `q` for a string start could only add paths, never hide one.
 */
function withQuoteLike(program: string): string | undefined {
  if (!/[q%]/.test(program)) return undefined;
  const rewritten = program.replace(QUOTE_LIKE, (whole, ...groups: Array<string | undefined>) => {
    // `%` alone is Ruby's only before a bracket (`%(u.ts)`); before anything else it is an operator.
    if (whole.startsWith("%") && groups[4] !== undefined && !/^%[qQwWiIx]/.test(whole)) return whole;
    const text = groups[0] ?? groups[1] ?? groups[2] ?? groups[3] ?? groups[5] ?? "";
    return `"${text.replace(/["\\]/g, "\\$&")}"`;
  });
  return rewritten === program ? undefined : rewritten;
}

export function pathsInProgram(source: string): string[] {
  // Past what the hook reads (program-files.ts): any file anywhere, as a program that writes by names from its input.
  if (pastReading(source)) return [`${UNKNOWN_MARK}.`];
  return [...new Set(readings(source).flatMap(stringPaths))];
}

/**
 * The texts a program is read as: itself, its quote-like strings rewritten (withQuoteLike), and,
 * where it runs code it holds as text (`exec('os.remove("u.ts")')`, `eval $code`), each of its
 * strings as a program of its own.
 */
function readings(source: string): string[] {
  const rewritten = withQuoteLike(source);
  const texts = rewritten === undefined ? [source] : [source, rewritten];
  for (const text of [...texts]) {
    if (!EVALUATES.test(text)) continue;
    for (const match of text.matchAll(STRING)) {
      const inner = decoded(stringText(match));
      if (/[(\s]/.test(inner)) texts.push(inner);
    }
  }
  return texts;
}

function stringPaths(program: string): string[] {
  const found = new Set<string>();
  const writes = WRITES.test(program);
  // Changes names it lists: any file under where it runs (a directory it names is judged below, as
  // written); names from its input or a command's output, or a listing above it: any file.
  const elsewhere = namesFromElsewhere(program);
  if (elsewhere) found.add(elsewhere === "here" ? `${GLOB_MARK}**` : `${UNKNOWN_MARK}.`);
  // Names its write calls build by an expression the strings do not give (`Path("u").with_suffix(".ts")`,
  // `"".join([…])`, `"u.t" + chr(115)`): any file under where it runs, or anywhere; a stem built so with
  // an extension given (`String.fromCharCode(117) + ".ts"`), any such file here.
  else if (writes) {
    const built = builtNames(program);
    if (built.place !== undefined) found.add(built.place === "here" ? `${GLOB_MARK}**` : `${UNKNOWN_MARK}.`);
    for (const glob of built.globs) found.add(GLOB_MARK + glob);
  }
  // A tree call on where it runs (`shutil.rmtree('.')`, `rmtree(os.getcwd())`, `fs.rmSync(process.cwd(), …)`,
  // `copytree('tpl', '.', dirs_exist_ok=True)`): all of it; on the directory above, any file.
  for (const call of TREE_CALLS_HERE) for (const match of program.matchAll(call)) found.add(match[2] === ".." ? `${UNKNOWN_MARK}.` : `${GLOB_MARK}**`);
  // A copy into where it runs (`shutil.copy("gen/u.ts", ".")`): the source's name there; on the directory above, in a place unknown.
  for (const match of program.matchAll(COPY_INTO_HERE)) {
    const name = match[2] === undefined ? undefined : decoded(match[2]).replace(/\/+$/, "").split("/").pop();
    const written = name === undefined || name === "" || name === "." || name === ".." || name.includes(HOLE) ? undefined : name;
    if (match[4] === "..") found.add(UNKNOWN_MARK + (written ?? "."));
    else found.add(written ?? `${GLOB_MARK}*`);
  }
  const judge = (text: string, joined: boolean) => {
    for (const texts of new Set([text, decoded(text)])) {
      // perl's open(F, ">out"); a shell command in a string (`system("rm u.ts")`): each word.
      for (const word of texts.split(/\s+/)) {
        const path = word.replace(/^(\+?[<>]{1,2}|\|)/, "");
        // A part the shell put in that the text does not fix (`-c "open('$f','w')"`, an unquoted
        // heredoc's `$f`), in a string of one word of a program that writes: judged by what is fixed.
        if (path.includes(HOLE)) {
          const judged = writes && !/\s/.test(texts.trim()) ? judgedPath(path) : undefined;
          if (judged !== undefined) found.add(judged);
          continue;
        }
        // `${d}/u.ts`, `{d}/u.ts`, `%s/u.ts`: what follows a placeholder, in a place unknown; `{n}.ts`: any such file here.
        const after = /^(\$\{[^}]*\}|\{[^}]*\}|%\(?\w*\)?s)+(.*)$/.exec(path)?.[2];
        if (after !== undefined) {
          const rest = after.replace(/^\/+/, "");
          if (writes && /^\.\w+$/.test(after)) found.add(`${GLOB_MARK}*${after}`);
          else if (writes && isPathLike(rest)) found.add(UNKNOWN_MARK + rest);
          continue;
        }
        if (/[*?]/.test(path)) {
          if (writes && isPathLike(path.replace(/[*?]/g, "x"))) found.add(GLOB_MARK + path); // glob("src/*.ts")
          continue;
        }
        if (!isPathLike(path)) continue;
        found.add(path);
        if (joined && writes && !path.startsWith("~")) found.add(UNKNOWN_MARK + path.replace(/^(\.?\/)+/, ""));
      }
    }
  };
  let run = "";
  let end = -1;
  let previous: string | undefined;
  for (const match of program.matchAll(STRING)) {
    const start = match.index as number;
    const text = stringText(match);
    const between = end === -1 ? undefined : program.slice(end, start);
    // Side by side with the string before (`"u." + "ts"`, python's `"u." "ts"`, perl's `.`): one string.
    run = between !== undefined && /^\s*(\+|\.\.?)?\s*$/.test(between) ? run + text : text;
    if (run !== text) judge(run, false);
    // After `+`, `,` or `/` that follow something else (a variable, a call): joined onto a place unknown.
    // (Not after perl's or ruby's open mode, nor with one: `open(my $f, ">", "u.ts")`, `open(F, ">u.ts")` name u.ts itself.)
    const afterMode = previous !== undefined && /^\s*(\+?[<>]{1,2}|\+<|[rwa]\+?b?)\s*$/.test(previous) && /^\s*,\s*$/.test(between ?? "");
    judge(text, run === text && !afterMode && !/^\s*(\+?[<>]{1,2}|\|)/.test(text) && /(\+|,|\/)\s*$/.test(program.slice(Math.max(0, start - 8), start)));
    previous = text;
    end = start + match[0].length;
  }
  return [...found];
}

/**
 * The shell commands a program runs that its text gives whole: a string a shell runs
 * (`os.system("git checkout -- .")`, `subprocess.run("…", shell=True)`, node's `execSync("…")`,
 * `system("…")`, php's `shell_exec`), or a command given as a list of strings
 * (`subprocess.run(["npx", "prettier", "--write", "."])`, `execFileSync("git", ["stash"])`,
 * `spawnSync("rm", ["u.ts"])`, `system("rm", "u.ts")`). The walk reads each as a command
 * (shell-walk.ts). One built from something else is judged as the program's names are. Undefined:
 * a list of words past LIST_READ, a command not read.
 */
export function commandsInProgram(source: string): string[] | undefined {
  if (pastReading(source)) return []; // judged as writing any file (pathsInProgram)
  const lines: string[] = [];
  const node = /child_process|\bexeca\b|\bzx\b/.test(source);
  const LITERAL = String.raw`(?:"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')`;
  const list = (text: string) => [...text.matchAll(new RegExp(LITERAL, "g"))].map((match) => decoded(match[0].slice(1, -1)));
  const calls = node
    ? String.raw`\b(?:execSync|exec|execFileSync|execFile|spawnSync|spawn|execa|execaSync)`
    : String.raw`(?:\bos\.(?:system|popen)|\bsubprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|(?<![\w.])(?:system|shell_exec|passthru|popen|proc_open${/<\?php/.test(source) ? "|exec" : ""})|\bIO\.popen|\bOpen3\.\w+)`;
  // A call's arguments up to its closing parenthesis on the same line or the next few (no nesting
  // read); a list of at most LIST_READ characters (a longer one looked for from each call would cost
  // the square of the program's length): its strings are the program's names all the same.
  const listOf = String.raw`\[[^\]]{0,${LIST_READ}}\]`;
  const pattern = new RegExp(`${calls}\\s*\\(\\s*(${LITERAL}(?:\\s*,\\s*(?:${LITERAL}|${listOf}))*|${listOf})`, "g");
  // A list longer than that: a command the text gives that is not read (undefined: it could write any file).
  const lastClose = source.lastIndexOf("]");
  for (const open of source.matchAll(new RegExp(`${calls}\\s*\\(\\s*(?:${LITERAL}\\s*,\\s*)*\\[`, "g"))) {
    const at = (open.index as number) + open[0].length;
    if (lastClose >= at && !source.slice(at, at + LIST_READ + 1).includes("]")) return undefined;
  }
  for (const match of source.matchAll(pattern)) {
    const args = match[1] as string;
    const shellString = /^["']/.test(args) && !/,/.test(args.replace(new RegExp(LITERAL, "g"), ""));
    if (shellString && !(node && /\b(?:execFile|spawn)/.test(match[0]))) {
      lines.push(decoded((args.match(new RegExp(LITERAL)) as RegExpMatchArray)[0].slice(1, -1)));
      continue;
    }
    // A list: every element a string literal, else nothing the text gives whole.
    const inner = args.replace(/^\[|\]$/g, "");
    const elements = inner.split(/,(?=(?:[^"']|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')*$)/).map((part) => part.trim().replace(/^\[|\]$/g, "")).filter((part) => part !== "");
    const words = elements.flatMap((element) => (element.startsWith("[") ? element.slice(1, -1).split(",").map((part) => part.trim()) : [element])).filter((part) => part !== "");
    if (words.length > 0 && words.every((word) => new RegExp(`^${LITERAL}$`).test(word))) lines.push(words.flatMap(list).map(quotedWord).join(" "));
  }
  return lines;
}

/** The longest list of a command's words read (`subprocess.run([…])`). */
const LIST_READ = 2000;

/** A word quoted for the shell where it needs to be. */
function quotedWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * The plain names a program that changes files by name gives as whole strings (`shutil.rmtree("src")`,
 * `fs.rmSync("dist", …)`): a file or directory of that name if there is one (the walk looks).
 */
export function bareNames(source: string): string[] {
  if (pastReading(source)) return []; // judged as writing any file (pathsInProgram)
  return [...new Set(readings(source).flatMap(stringNames))];
}

/**
 * The plain names a program creates by name, there or not (`open('VERSION', 'w')`,
 * `writeFileSync('LICENSE', t)`, `File.write("Gemfile", x)`, `shutil.copy('a', 'VERSION')`): the
 * first argument of a call that writes a file, the second of one that copies, moves or links to it.
 * (`open('NAME')` may only read it: a file not there yet it cannot read, so judging it written costs nothing.)
 */
export function createdNames(source: string): string[] {
  if (pastReading(source)) return [];
  const names = new Set<string>();
  for (const program of readings(source)) {
    if (!FILE_CHANGES.test(program)) continue;
    for (const match of program.matchAll(STRING)) {
      const text = stringText(match).replace(/^\s*(\+?>>?|\+<)\s*(?=[\w.-]+$)/, "");
      const before = program.slice(Math.max(0, (match.index as number) - 200), match.index);
      // (A whole argument: not the first part of a name the program joins, `"u." + "ts"`.)
      const after = program.slice((match.index as number) + match[0].length);
      const pathObject = PATH_OBJECT.test(before) && PATH_WRITES.test(after);
      const perl = PERL_OPEN_MODE.test(before) || (PERL_OPEN.test(before) && PERL_MODE.test(stringText(match)));
      if (!pathObject && ((!CREATES_FIRST.test(before) && !CREATES_SECOND.test(before) && !perl) || !/^\s*[,)]/.test(after))) continue;
      if (/^[\w.-]+$/.test(text) && !isPathLike(text) && text !== "." && text !== "..") names.add(text);
    }
  }
  return [...names];
}

/** A call whose first argument is the file it writes (python's and perl's and ruby's `open`, node's fs writers, PHP's). */
const CREATES_FIRST = /\b(open|fopen|sysopen|writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|outputFileSync|outputFile|writeJsonSync|writeJson|file_put_contents|write_file|writeTextFileSync|writeTextFile|writeFileStr|File\.(write|open|new)|IO\.write|Bun\.write|touch)\s*\(?\s*$/;

/**
 * perl's open given a handle: with a mode that writes before the name (`open(my $f, ">", "NAME")`),
 * or the mode in the name's string (`open(FH, ">NAME")`: PERL_MODE).
 */
const PERL_OPEN_MODE = /\bopen\s*\(?\s*(my\s+)?\$?\w+\s*,\s*['"]\s*(\+?>>?|\+<)\s*['"]\s*,\s*$/;
const PERL_OPEN = /\bopen\s*\(?\s*(my\s+)?\$?\w+\s*,\s*$/;
const PERL_MODE = /^\s*(\+?>>?|\+<)/;

/** Python's pathlib given the name (`Path('VERSION')`), where what follows writes it: `.write_text`, `.write_bytes`, `.touch`, `.open('w')`. */
const PATH_OBJECT = /\b(Path|PurePath|PosixPath)\s*\(\s*$/;
const PATH_WRITES = /^\s*\)\s*\.\s*(write_text|write_bytes|touch|mkdir|open\s*\(\s*['"][wax])/;

/** A call whose second argument is where it copies, moves or links to. */
const CREATES_SECOND = /\b(copy\w*|copyFileSync|copyFile|cp|cpSync|cp_r|move|mv|rename\w*|link\w*|symlink\w*)\s*\(\s*(['"][^'"\n]*['"]|[\w.$]+)\s*,\s*$/;

function stringNames(program: string): string[] {
  if (!FILE_CHANGES.test(program)) return []; // `subprocess.run(["npm", "test"])`: a command's words, not files
  const names = new Set<string>();
  for (const match of program.matchAll(STRING)) {
    // (perl's and ruby's open with its mode in the string: `">Makefile"`, `"+<notes"`.)
    const text = stringText(match).replace(/^\s*(\+?>>?|\+<)\s*(?=[\w.-]+$)/, "");
    // A name only ever listed or looked at (`os.listdir("src")`, `readdirSync('src')`, `exists("dist")`) is not one it changes.
    if (READ_ONLY_CALL.test(program.slice(Math.max(0, (match.index as number) - 40), match.index))) continue;
    if (/^[\w.-]+$/.test(text) && !isPathLike(text) && text !== "." && text !== "..") names.add(text);
  }
  return [...names];
}

/** Calls that list or look at what they are given and change nothing: a name right after one's `(`. */
const READ_ONLY_CALL = /\b(listdir|scandir|walk|readdirSync|readdir|opendir|opendirSync|iglob|rglob|glob|exists|existsSync|isdir|isfile|getsize|stat|lstat|statSync|lstatSync|children|entries)\s*\(\s*$/;

function stringText(match: RegExpMatchArray): string {
  return (match.groups?.long ?? match.groups?.text ?? "") as string;
}

/** A string's text with the escapes most languages share decoded: `\xNN`, `\uNNNN`, `\u{…}`, octal `\NNN`, `\/`, `\.`. */
function decoded(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|[0-7]{1,3}|.)/g, (escape, code: string) => {
    if (/^(x..|u.{4,})/.test(code)) {
      // `\x`, `\u` with no digits after them are the letters; a code point past U+10FFFF is no character: left as written.
      const point = Number.parseInt(code.replace(/^[xu]\{?|\}$/g, ""), 16);
      return point <= 0x10ffff ? String.fromCodePoint(point) : escape;
    }
    if (/^[0-7]/.test(code)) return String.fromCodePoint(Number.parseInt(code, 8));
    return /[/\\'"` .-]/.test(code) ? code : escape;
  });
}

/**
 * What a perl one-liner's program may not hold for its files to be read, not written: a builtin
 * that writes, runs, opens, loads or evaluates (a string given to one may be built from pieces, so
 * the call itself is what counts), a module's name, `@INC` (a hook in it returns the source of a
 * module perl loads by itself: `binmode STDOUT, ':encoding(…)'`, `$!{…}`), `->` (a method of a class a string names),
 * symbolic references and typeglobs (`${"…"}`, `@$x`, `*x`), caret variables (`$^I` turns on -i),
 * `@ARGV` changed (perl's `<>` opens each name as two-argument open does: `>f` writes f), a
 * filehandle block (`print {…}`), `s///ee`, a `#!` line's switches, and `>`, `&`, backticks and
 * control characters anywhere. In a string or a regex too: a false refusal, never a write missed.
 */
const PERL_MAY_WRITE = new RegExp(
  [
    String.raw`\b(?:open|sysopen|system|exec|qx|readpipe|fork|pipe|kill|syscall|rename|unlink|rmdir|mkdir|chmod|chown|chroot|utime|link|symlink|truncate|syswrite|write|format|do|require|use|no|eval|evalbytes|dump|tie|untie|dbmopen|socket|connect|new|fdopen|goto|sort|ARGVOUT|INC|File|IO|POSIX|CORE)\b`,
    String.raw`(?<!\$)\bARGV\b|\$ARGV\s*[[{]`,
    String.raw`::|\w'[A-Za-z_]|->|[$@%*&]\s*[{$^]|\$#\s*[{$]|\*\s*[A-Za-z_]|\b(?:print|printf|say)\s*\{`,
    String.raw`[^\w\s][msixpodualngcer]*e[msixpodualngcer]*e|#!|[>\x60\x00-\x08\x0b-\x1f\x7f]|(?<!&)&(?!&)`,
  ].join("|"),
);

/** A name perl's `<>` opens as it reads it: a plain path (or `-`, stdin), nothing two-argument open takes for a mode or a command. */
const PERL_PLAIN_NAME = /^(?:-|[^\s<>|&\0-](?:[^<>|&\0]*[^\s<>|&\0])?)$/;

/**
 * `perl -ne 'print if /x/' u.ts`, `perl -pe 's/a/b/' u.ts`: a one-liner that loops over the files
 * it is given (-n, -p) with no -i, no module or debugger (-M, -m, -d, -I, -x, -u), PERL5OPT unset,
 * and a program that can do nothing but read and print (PERL_MAY_WRITE): its files are read, not
 * written. `switches`: the words before the program's operands, as given; `programs`: the -e/-E
 * texts (undefined where the text does not fix one); `files`: each operand's values.
 */
export function perlOnlyReads(switches: Array<string | undefined>, programs: Array<string | undefined>, files: Array<string[] | undefined>, environment: Record<string, string | undefined>): boolean {
  if (environment.PERL5OPT !== undefined && environment.PERL5OPT !== "") return false;
  let loops = false;
  const texts: string[] = [];
  for (let at = 0; at < switches.length; at++) {
    const word = switches[at];
    if (word === undefined) return false;
    if (word === "--") continue;
    // A cluster of harmless switches, ending in -e/-E (its program the next word) or -F (its pattern
    // the rest: perl ends it at a space and reads what follows as more switches, `-F: -i`).
    const cluster = /^-([nplaswtTWXc0-9]*)(?:([eE])(.*)|F(\S*))?$/s.exec(word);
    if (cluster === null) return false;
    if (/[np]/.test(cluster[1] as string)) loops = true;
    if (cluster[4] !== undefined) texts.push(cluster[4]);
    if (cluster[2] !== undefined && cluster[3] === "") at++; // the program, read from `programs`
  }
  if (!loops || programs.length === 0 || programs.some((program) => program === undefined)) return false;
  texts.push(...(programs as string[]));
  if (texts.some((text) => PERL_MAY_WRITE.test(text))) return false;
  return files.every((values) => values !== undefined && values.every((value) => PERL_PLAIN_NAME.test(value)));
}
