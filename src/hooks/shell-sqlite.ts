// What sqlite3 writes besides its database (shell-rules.ts judges that): the files its dot-commands
// name (`.output f`, `.once f`, `.save f`, `.backup f`, `.clone f`, `.open f`, `.log f`), the
// commands they run (`.shell cmd`, `.system cmd`, `.output '|cmd'`, `.import '|cmd' t`), and the
// files its SQL writes (`writefile('f', …)`, `ATTACH 'f'`, `VACUUM INTO 'f'`, `zipfile('f')`), read
// from its arguments after the database, `-cmd`'s, and its input where the text gives it (a heredoc,
// a here-string). Input the text does not give (a pipe, a file given with `<`, `.read f`, `-init f`),
// an extension loaded, `.cd`, an archive, `edit()`: SQL that could write any file.
import { UNKNOWABLE } from "./shell-words.js";

/** sqlite3's options that take a value, and how many words each takes. */
const VALUED: Record<string, number> = { cmd: 1, init: 1, separator: 1, newline: 1, nullvalue: 1, mmap: 1, maxsize: 1, vfs: 1, escape: 1, nonce: 1, lookaside: 2, pagecache: 2, heap: 2 };

/** Dot-commands that write the file they are given (its last word), or run it as a command after `|`. */
const FILE_COMMANDS = ["output", "once", "log", "trace", "iotrace", "save", "backup", "clone", "open"];

/** Dot-commands whose effect the hook does not follow: another directory, code loaded, an archive unpacked, a file's commands run. */
const UNFOLLOWED = ["cd", "load", "archive", "ar", "read"];

/** Words dot-commands take that name no file. */
const NO_FILE = /^(off|on|stdout|stderr)$/i;

/**
 * What sqlite3 writes through its SQL and dot-commands: `paths` to judge (UNKNOWABLE: any file),
 * `scripts` its dot-commands run in a shell. `input`: whether it is given input (a pipe or a
 * redirection); `stdin`: its text where the text fixes it (a heredoc or a here-string).
 */
export function sqliteWrites(args: Array<string | undefined>, input: boolean, stdin: string | undefined): { paths: string[]; scripts: string[] } {
  const paths: string[] = [];
  const scripts: string[] = [];
  const texts: string[] = [];
  let database = false;
  let operands = 0;
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined) {
      if (database) paths.push(UNKNOWABLE); // SQL the text does not fix (the database's own rule judges that one)
      database = true;
      continue;
    }
    const option = /^--?([A-Za-z][\w-]*)$/.exec(arg)?.[1];
    if (option !== undefined && !database) {
      if (/^A/.test(option)) paths.push(UNKNOWABLE); // -A …: an archive command
      if (option === "init") paths.push(UNKNOWABLE); // commands read from a file
      const takes = VALUED[option] ?? 0;
      for (let value = 1; value <= takes; value++) {
        const given = args[at + value];
        if (option === "cmd") given === undefined ? paths.push(UNKNOWABLE) : texts.push(given);
      }
      at += takes;
      continue;
    }
    if (!database) {
      database = true;
      continue;
    }
    operands++;
    texts.push(arg);
  }
  // With SQL among its arguments it runs them and exits; without, it reads its input.
  if (operands === 0 && input) {
    if (stdin === undefined) paths.push(UNKNOWABLE);
    else texts.push(stdin);
  }
  for (const text of texts) read(text, paths, scripts);
  return { paths: [...new Set(paths)], scripts };
}

function read(text: string, paths: string[], scripts: string[]): void {
  const sql: string[] = [];
  for (const line of text.split("\n")) {
    const dot = /^\s*\.(\S+)\s*(.*)$/.exec(line);
    if (dot === null) {
      sql.push(line);
      continue;
    }
    const typed = (dot[1] as string).toLowerCase();
    const rest = dot[2] as string;
    // sqlite3 takes the start of a dot-command's name for it (`.out f`, `.sh cmd`): each it may be.
    const may = (name: string) => name.startsWith(typed);
    const words = dotWords(rest);
    // A word after `|` is a command it runs (`.output '|cmd'`, `.import '|cmd' t`, `.read '|cmd'`).
    const piped = words.find((word) => word.startsWith("|"));
    if (piped !== undefined) scripts.push(/['"]$/.test(rest.slice(0, rest.indexOf("|"))) ? piped.slice(1) : rest.slice(rest.indexOf("|") + 1));
    if (["shell", "system"].some(may)) scripts.push(rest);
    if (UNFOLLOWED.some(may)) paths.push(UNKNOWABLE);
    if (FILE_COMMANDS.some(may) && piped === undefined) {
      const named = words.filter((word) => !word.startsWith("-") && !NO_FILE.test(word));
      const file = named.at(-1);
      if (file !== undefined && file !== "" && file !== ":memory:") paths.push(file);
    }
  }
  readSql(sql.join("\n"), paths);
}

/** A dot-command's words as sqlite3 splits them: on blanks, `'…'` and `"…"` quoted. */
function dotWords(text: string): string[] {
  return [...text.matchAll(/'([^']*)'?|"((?:\\.|[^"\\])*)"?|(\S+)/g)].map((match) => match[1] ?? (match[2] === undefined ? (match[3] as string) : match[2].replace(/\\(.)/g, "$1")));
}

/** A quoted SQL string: `'…'` with `''` for a quote. */
const SQL_STRING = String.raw`'((?:[^']|'')*)'`;

/** SQL that writes a file: `writefile('f', …)`, `ATTACH [DATABASE] 'f'`, `VACUUM [schema] INTO 'f'`, `zipfile('f')`; each with something other than a string there, any file. */
const WRITES_FILE = new RegExp(String.raw`\b(?:writefile\s*\(|attach\s+(?:database\s+)?|vacuum\s+(?:\w+\s+)?into\s+|zipfile\s*\()\s*(?:${SQL_STRING})?`, "gi");

function readSql(sql: string, paths: string[]): void {
  // A program it runs or loads: `edit()` runs an editor, `load_extension()` loads code.
  if (/\b(edit|load_extension)\s*\(/i.test(sql)) paths.push(UNKNOWABLE);
  for (const match of sql.matchAll(WRITES_FILE)) {
    const file = match[1]?.replace(/''/g, "'");
    if (file === undefined) paths.push(UNKNOWABLE);
    else if (file !== "" && file !== ":memory:" && !/^file:/i.test(file)) paths.push(file);
    else if (/^file:/i.test(file)) paths.push(UNKNOWABLE); // a URI: where it points, not read here
  }
}
