// Shells the hook does not parse: fish, csh and tcsh, nushell, PowerShell, xonsh, elvish. A
// program one of them is given (`-c '…'`, fish's `-C`, a heredoc, a script it can read) that may
// change files is read as a bash command line (what it runs: `npm install`, `echo x > u.ts`), and
// every path-like word of it is judged as written (`Remove-Item u.ts`, `save u.ts`). A
// program that may change files and holds what the hook would have to read in that shell's own
// grammar (a quote or escape inside a word, `$`, `(…)`, `{…}`, a change of directory) could write
// any file; so could one the text does not give (a pipe, the terminal, a script it cannot read,
// PowerShell's base64 `-EncodedCommand`).
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { mayWrite } from "./shell-gate.js";
import { isPathLike, pathsInProgram } from "./shell-programs.js";
import { readText, UNKNOWABLE, within } from "./shell-words.js";

/** Each shell's options: those giving a program inline, those naming a file it writes, those taking a value, and whether `-c` only says the first operand is the program. */
interface Options {
  inline: RegExp;
  /** fish's `-p profile`, `-o debug-output`, elvish's `-log`: a file it writes. */
  writes?: RegExp;
  valued: RegExp;
  /** csh, tcsh and elvish: `-c` is a switch, the first operand the program. */
  operandProgram?: boolean;
  /** PowerShell: `-Command` takes the rest of the line as the program. */
  rest?: boolean;
  /** PowerShell: a program the text cannot read (base64). */
  opaque?: RegExp;
  /** Options that move it (PowerShell's `-WorkingDirectory`): what the program names is in a place unknown. */
  moves?: RegExp;
}

const SHELL_OPTIONS: Record<string, Options> = {
  // `-lc 'ls'`, `-ic`: a cluster ending in c; `-C`/`--init-command` runs before the program.
  fish: { inline: /^(-[a-zA-Z]*[cC]|--command|--init-command)$/, writes: /^(-[a-zA-Z]*[po]|--profile|--profile-startup|--debug-output)$/, valued: /^(-d|--debug|--features|-[a-zA-Z]*[dD])$/ },
  csh: { inline: /^-[a-zA-Z]*c[a-zA-Z]*$/, valued: /^$/, operandProgram: true },
  tcsh: { inline: /^-[a-zA-Z]*c[a-zA-Z]*$/, valued: /^$/, operandProgram: true },
  nu: { inline: /^(-c|--commands|-e|--execute)$/, valued: /^(--config|--env-config|--plugin-config|-I|--include-path|--log-level|--log-target|-t|--threads|--plugins|--testbin|--experimental-options)$/ },
  xonsh: { inline: /^-c$/, valued: /^(--rc|-D|--shell-type|--shell|-st)$/ },
  elvish: { inline: /^-c$/, writes: /^-log$/, valued: /^(-rc|-sock|-db|-deprecation-level)$/, operandProgram: true },
  pwsh: {
    // PowerShell takes any unambiguous start of a parameter's name, in any case.
    inline: /^-(c|co|com|comm|comma|comman|command)$/i,
    valued: /^-(configurationname|config|custompipename|executionpolicy|ex|ep|inputformat|inp|if|outputformat|o|of|settingsfile|windowstyle|w|configurationfile|psconsolefile|wd|wo|workingdirectory)$/i,
    rest: true,
    opaque: /^-(e|ec|en|enc|enco|encod|encode|encoded|encodedc\w*)$/i,
    moves: /^-(wd|wo|workingdirectory)$/i,
  },
};
SHELL_OPTIONS.powershell = SHELL_OPTIONS.pwsh as Options;

export const OTHER_SHELLS = Object.keys(SHELL_OPTIONS);

/**
 * What changes files by name in these shells' programs, beside what the bash reader's gate knows
 * (mayWrite): a redirection, their own commands and aliases (nushell's `save`, PowerShell's
 * `Set-Content`, `ni`, `del`), .NET and Python calls (`WriteAllText`, `open(…)`).
 */
const CHANGES = /(^|[^\w-])(rm|mv|cp|ln|touch|truncate|tee|chmod|chown|install|rmdir|unlink|sed|perl|dd|patch|save|del|erase|rd|ri|mi|cpi|sc|ac|clc|ni|rni|(remove|move|copy|rename|new|set|add|clear|out)-\w+|write\w*|delete\w*|remove\w*|move\w*|copy\w*|create\w*|append\w*)\b|\bopen\s*\(|>/i;
/** A change of directory, in any of these shells: what follows is in a place the text does not fix. */
const MOVES = /(^|[\s;&|({])(cd|pushd|popd|prevd|nextd|chdir|set-location|sl|push-location|pop-location|os\.chdir)\b/i;

export interface OtherShellRun {
  /** Paths judged as written (relative ones from the shell's directory). */
  paths: string[];
  /** Plain names a program that changes files gives: written if something of that name is here. */
  names: string[];
  /** Programs read as bash command lines, in the shell's directory. */
  scripts: string[];
  /** Programs read as bash command lines in a directory the text does not fix (PowerShell's -WorkingDirectory). */
  elsewhere?: string[];
}

/**
 * What a run of one of OTHER_SHELLS may write. `args` are its arguments, undefined where the text
 * does not fix a word (`-c "$(cat x)"`); `stdin` a heredoc's text; `piped` whether a pipe feeds it.
 */
export function otherShellWrites(name: string, args: Array<string | undefined>, input: { stdin?: string; piped: boolean; cwd?: string }): OtherShellRun {
  const options = SHELL_OPTIONS[name] as Options;
  const programs: Array<string | undefined> = [];
  const paths: string[] = [];
  const names: string[] = [];
  const scripts: string[] = [];
  const elsewhere: string[] = [];
  let script: string | undefined | null = null; // null: none given
  let moved = false;
  let inlineSwitch = false;
  let at = 0;
  for (; at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined) {
      if (programs.length === 0 && !inlineSwitch) script = undefined; // `fish "$f"`: a script the text does not name
      break;
    }
    if (arg === "--") {
      at++;
      break;
    }
    if (/^(-h|--help|-v|-V|--version|-version|-help)$/i.test(arg)) return { paths: [], names: [], scripts: [] };
    if (options.opaque?.test(arg)) return { paths: [UNKNOWABLE], names: [], scripts: [] };
    const attached = /^(--[\w-]+)=(.*)$/s.exec(arg);
    if (attached && options.inline.test(attached[1] as string)) {
      programs.push(attached[2]);
      continue;
    }
    if (options.inline.test(arg)) {
      if (options.operandProgram) inlineSwitch = true;
      else if (options.rest) {
        programs.push(args.slice(at + 1).some((word) => word === undefined) ? undefined : args.slice(at + 1).join(" "));
        at = args.length;
        break;
      } else programs.push(args[++at]);
      continue;
    }
    if (attached && options.writes?.test(attached[1] as string)) {
      paths.push(attached[2] as string);
      continue;
    }
    if (options.writes?.test(arg)) {
      const file = args[++at];
      paths.push(file ?? UNKNOWABLE);
      continue;
    }
    if (options.valued.test(arg)) {
      if (options.moves?.test(arg)) moved = true;
      at++;
      continue;
    }
    if (arg.startsWith("-") && arg !== "-") continue;
    break;
  }
  const operands = args.slice(at);
  if (inlineSwitch) programs.push(...(operands.length > 0 ? [operands.shift()] : []));
  else if (programs.length === 0 && script === null && operands.length > 0) script = operands.shift() as string;
  const judge = (program: string | undefined) => {
    if (program === undefined) return void paths.push(UNKNOWABLE); // `-c "$(curl …)"`
    const found = programPaths(program, name);
    if (found === UNKNOWABLE) return void paths.push(UNKNOWABLE);
    if (moved) {
      // PowerShell's -WorkingDirectory: what the program names is in a place the text does not fix.
      paths.push(...found.paths.map((path) => (path.startsWith(UNKNOWN_MARK) || path.startsWith(GLOB_MARK) || path.startsWith("/") ? path : UNKNOWN_MARK + path.replace(/^(\.\/)+/, ""))));
      elsewhere.push(...found.scripts);
      return;
    }
    paths.push(...found.paths);
    names.push(...found.names);
    scripts.push(...found.scripts);
  };
  for (const program of programs) judge(program);
  if (programs.length > 0) {
    // The arguments after the program are its own (`$argv`, `$args`): judged where they read as paths.
    for (const operand of operands) if (operand !== undefined && isPathLike(operand)) paths.push(operand);
    return { paths, names, scripts, ...(elsewhere.length > 0 && { elsewhere }) };
  }
  if (script === undefined) return { paths: [...paths, UNKNOWABLE], names, scripts, ...(elsewhere.length > 0 && { elsewhere }) };
  if (script !== null && script !== "-" && script !== "/dev/stdin") {
    // A script it can read is read as its program would be; one it cannot could write anything.
    const text = input.cwd === undefined && !script.startsWith("/") ? undefined : readText(within(input.cwd, script));
    judge(text);
    for (const operand of operands) if (operand !== undefined && isPathLike(operand)) paths.push(operand);
    return { paths, names, scripts, ...(elsewhere.length > 0 && { elsewhere }) };
  }
  // The program comes on stdin: a heredoc is read; a pipe or the terminal runs what the text does not give.
  if (input.stdin !== undefined && !input.piped) judge(input.stdin);
  else paths.push(UNKNOWABLE);
  return { paths, names, scripts, ...(elsewhere.length > 0 && { elsewhere }) };
}

/** A word a shell reads as it stands, or wholly in quotes with nothing to expand inside. */
const PLAIN_WORD = /^([^$(){}\\'"`]*|'[^'\\]*'|"[^"$`\\(){}]*")$/;

/**
 * What a program of one of these shells may write. A program that changes nothing (no redirection,
 * no command that writes) writes nothing; one that may change files is read as a bash command line
 * (what it runs) and word by word, or,
 * where reading it needs its own grammar (a word with a quote, escape, `$`, `(` or `{` in it) or
 * it changes directory, as one that could write any file.
 */
function programPaths(given: string, name: string): OtherShellRun | typeof UNKNOWABLE {
  // PowerShell's escape is the backtick: its backslash separates a path's names (`.\u.ts`).
  const program = name === "pwsh" || name === "powershell" ? given.replaceAll("\\", "/") : given;
  const changes = CHANGES.test(program) || mayWrite(program);
  // Nothing a bash reading would find written either (the gate's answer), and no call of their own that writes.
  if (!changes) return { paths: [], names: [], scripts: [] };
  const words = program.split(/[\s;&|<>,]+/).filter((word) => word !== "");
  if (MOVES.test(program) || words.some((word) => !PLAIN_WORD.test(word))) return UNKNOWABLE;
  const paths = new Set(pathsInProgram(program));
  const names = new Set<string>();
  for (const quoted of words) {
    const word = quoted.replace(/^(['"])(.*)\1$/s, "$2");
    if (word === "" || word.startsWith("-")) continue;
    if (/[*?[]/.test(word)) {
      if (isPathLike(word.replace(/[*?[\]]/g, "x"))) paths.add(GLOB_MARK + word);
      continue;
    }
    if (isPathLike(word)) paths.add(word);
    else if (/^[\w.-]+$/.test(word) && word !== "." && word !== "..") names.add(word);
  }
  return { paths: [...paths], names: [...names], scripts: [program] };
}
