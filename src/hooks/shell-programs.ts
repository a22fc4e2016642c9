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
// (`python3 gen.py`) is not read (docs/HOOKS.md).
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";

/** Quoted strings: python's triple-quoted ones across lines, '…', "…", `…` (escapes kept out of the way, not decoded). */
const STRING = /(?<triple>"""|''')(?<long>[\s\S]*?)\k<triple>|(?<quote>["'`])(?<text>(?:\\.|(?!\k<quote>)[^\\\n])*)\k<quote>/g;

/** Calls of a program that change files by name: write, remove, move, copy, link (not a stream's `stdout.write`). */
const FILE_CHANGES =
  /(?<!std(out|err)\.)\b(write\w*|append\w*|unlink\w*|remove\w*|rm|rmSync|rmtree|rmdir\w*|rename\w*|truncate\w*|copy\w*|cp|move|mkdir\w*|makedirs|symlink\w*|link\w*|touch|chmod\w*|create\w*)\b|\bopen\s*\([^\n]*?,\s*['"][wax+]/;

/**
 * Where a program can get names its text does not give: a directory listed or a tree walked
 * (`os.listdir()`, `readdirSync`, `Deno.readDir`, perl's `readdir` and `<*.ts>`, Ruby's `Dir[…]` and
 * `Find.find`), or the output of a command it runs (`git ls-files`), or its input.
 */
const NAMES_FROM_ELSEWHERE =
  /\b(listdir|scandir|walk|walkSync|readdir|readdirSync|readDir|readDirSync|opendir|opendirSync|iterdir|i?glob|globSync|rglob|fts_open|check_output|getoutput|popen|execSync|spawnSync|execFileSync|readline|readlines|input|children|entries)\s*\(|\breaddir\b|\bDir\s*(\[|\.\s*(glob|entries|children|each_child|foreach)\b)|\bFind\.find\b|\bFile::Find\b|\bfind\s*\(\s*(\\&|sub\b)|<\*[^>]*>|<STDIN>|\bsys\.stdin\b|\bprocess\.stdin\b|\bARGF\b|\$stdin\b/;

/**
 * Calls that change a file named by their first argument, with that argument's first character
 * (a quote: the name is in the text, judged as the path it reads as): removing, renaming, copying,
 * writing, truncating; a pathlib or Ruby method on a name (`p.unlink()`), perl's `unlink` of `$_`.
 */
const CHANGE_CALL =
  /(?:\b(?:os\.(?:remove|unlink|rename|replace|rmdir|removedirs|truncate|chmod)|shutil\.(?:rmtree|move|copy\w*|chown)|unlinkSync|rmSync|rmdirSync|renameSync|writeFileSync|appendFileSync|copyFileSync|cpSync|truncateSync|writeFile|appendFile|rm|File\.(?:write|delete|unlink|rename|truncate)|FileUtils\.\w+|Deno\.(?:write\w*|remove\w*|rename\w*|truncate\w*|copyFile\w*)|unlink|rename|truncate)|\.(?:unlink|rename|touch|write_text|write_bytes|rmdir))\s*\(\s*(.)/g;

/**
 * `open(name, "w")` and its kin (`open(name, mode="a")`, `fs.openSync(name, "w")`, `os.open(name,
 * os.O_WRONLY)`, perl's `open F, ">", $name`): the name's first character, where the mode writes.
 */
const OPEN_WRITING =
  /\b(?:open|openSync|fopen)\s*\(\s*(.)[^,\n]*,\s*(?:mode\s*=\s*|flags\s*:\s*)?(?:['"][wax+]|[\w.]*O_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND))|\bopen\s*\(?\s*\w+\s*,\s*['"](?:\+?[>]|>>)['"]\s*,\s*(.)/g;

/**
 * Whether the program changes a file whose name it computes (a variable, a call: not a quoted
 * string) from names it lists, runs a command for or reads: then any file under where it runs.
 */
function changesNamesFromElsewhere(program: string): boolean {
  if (!NAMES_FROM_ELSEWHERE.test(program)) return false;
  const computed = (first: string | undefined) => first !== undefined && !`'"\``.includes(first);
  for (const match of program.matchAll(CHANGE_CALL)) if (computed(match[1])) return true;
  for (const match of program.matchAll(OPEN_WRITING)) if (computed(match[1] ?? match[2])) return true;
  return /\bunlink\b(?!\s*\()/.test(program); // perl's unlink of $_, or of a list
}

/** A program that may change files at all: by name, or through a command it runs. */
const WRITES = new RegExp(`${FILE_CHANGES.source}|\\b(system|exec\\w*|spawn\\w*|popen|subprocess)\\b`);

/** A word that names a file: no scheme, with a directory or an extension. */
const PATH_LIKE = /^(?![a-z][\w+.-]*:)[\w@.~+/-][\w@.~+,=/-]*$/i;

/** Whether a word reads as a file's path (`u.ts`, `src/a`, `/p/u.ts`), not a flag, a URL or a plain word. */
export function isPathLike(word: string): boolean {
  return word.length <= 1024 && !word.startsWith("-") && PATH_LIKE.test(word) && (word.includes("/") || /\.\w+$/.test(word)) && word !== "/";
}

/**
 * Perl's and Ruby's quote-like strings (`q(…)`, `qq{…}`, `qw[…]`, `qx(…)`, `%q(…)`, `%w[…]`,
 * `%x(…)`): in operator position (not a hash key `$h{q}`, a method `.q`, a variable `$q`), with
 * brackets or one of the delimiters scripts use on both sides.
 */
const QUOTE_LIKE = /(?<![\w$@%&.>{:-])(?:qq|qw|qx|q|%[qQwWiIx]?)(?:\s*\(([^)]*)\)|\s*\[([^\]]*)\]|\s*\{([^}]*)\}|\s*<([^>]*)>|([/|!#~^])((?:(?!\5)[^\n])*)\5)/g;

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
  const rewritten = withQuoteLike(source);
  return rewritten === undefined ? stringPaths(source) : [...new Set([...stringPaths(source), ...stringPaths(rewritten)])];
}

function stringPaths(program: string): string[] {
  const found = new Set<string>();
  const writes = WRITES.test(program);
  // Changes names it lists: any file under where it runs (a directory it names is judged below, as
  // written); one that reaches above it (`os.walk("..")`, `os.pardir`, `~`, an absolute path), any file.
  if (changesNamesFromElsewhere(program)) found.add(/\.\.|\bpardir\b|expanduser|homedir|['"`]~|['"`]\//.test(program) ? `${UNKNOWN_MARK}.` : `${GLOB_MARK}**`);
  const judge = (text: string, joined: boolean) => {
    for (const texts of new Set([text, decoded(text)])) {
      // perl's open(F, ">out"); a shell command in a string (`system("rm u.ts")`): each word.
      for (const word of texts.split(/\s+/)) {
        const path = word.replace(/^(\+?[<>]{1,2}|\|)/, "");
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
  for (const match of program.matchAll(STRING)) {
    const start = match.index as number;
    const text = stringText(match);
    const between = end === -1 ? undefined : program.slice(end, start);
    // Side by side with the string before (`"u." + "ts"`, python's `"u." "ts"`, perl's `.`): one string.
    run = between !== undefined && /^\s*(\+|\.\.?)?\s*$/.test(between) ? run + text : text;
    if (run !== text) judge(run, false);
    // After `+`, `,` or `/` that follow something else (a variable, a call): joined onto a place unknown.
    judge(text, run === text && /(\+|,|\/)\s*$/.test(program.slice(Math.max(0, start - 8), start)));
    end = start + match[0].length;
  }
  return [...found];
}

/**
 * The plain names a program that changes files by name gives as whole strings (`shutil.rmtree("src")`,
 * `fs.rmSync("dist", …)`): a file or directory of that name if there is one (the walk looks).
 */
export function bareNames(source: string): string[] {
  const rewritten = withQuoteLike(source);
  return rewritten === undefined ? stringNames(source) : [...new Set([...stringNames(source), ...stringNames(rewritten)])];
}

function stringNames(program: string): string[] {
  if (!FILE_CHANGES.test(program)) return []; // `subprocess.run(["npm", "test"])`: a command's words, not files
  const names = new Set<string>();
  for (const match of program.matchAll(STRING)) {
    const text = stringText(match);
    if (/^[\w.-]+$/.test(text) && !isPathLike(text) && text !== "." && text !== "..") names.add(text);
  }
  return [...names];
}

function stringText(match: RegExpMatchArray): string {
  return (match.groups?.long ?? match.groups?.text ?? "") as string;
}

/** A string's text with the escapes most languages share decoded: `\xNN`, `\uNNNN`, `\u{…}`, octal `\NNN`, `\/`, `\.`. */
function decoded(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|[0-7]{1,3}|.)/g, (escape, code: string) => {
    if (/^x|^u/.test(code)) return String.fromCodePoint(Number.parseInt(code.replace(/^[xu]\{?|\}$/g, ""), 16));
    if (/^[0-7]/.test(code)) return String.fromCodePoint(Number.parseInt(code, 8));
    return /[/\\'"` .-]/.test(code) ? code : escape;
  });
}
