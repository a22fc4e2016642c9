// Shells the hook does not parse: fish, csh and tcsh, nushell, PowerShell, xonsh, elvish. A
// program one of them is given (`-c '…'`, a heredoc, a script it can read) is read as an inline
// program in another language is (shell-programs.ts), and its bare words too, since a shell names
// files unquoted (`fish -c 'echo x > u.ts'`, `pwsh -c 'Remove-Item .\u.ts'`). A program the text
// does not give (a pipe, the terminal, a script that cannot be read, PowerShell's base64
// `-EncodedCommand`) could write any file.
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { bareNames, isPathLike, pathsInProgram } from "./shell-programs.js";
import { readText, UNKNOWABLE, within } from "./shell-words.js";

/** Each shell's options: those giving the program inline, those taking a value, and whether `-c` only says the first operand is the program. */
interface Options {
  inline: RegExp;
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
  fish: { inline: /^(-c|--command)$/, valued: /^(-C|--init-command|-p|--profile|-d|--debug|-o|--debug-output|--features)$/ },
  csh: { inline: /^-[a-zA-Z]*c[a-zA-Z]*$/, valued: /^$/, operandProgram: true },
  tcsh: { inline: /^-[a-zA-Z]*c[a-zA-Z]*$/, valued: /^$/, operandProgram: true },
  nu: { inline: /^(-c|--commands|-e|--execute)$/, valued: /^(--config|--env-config|--plugin-config|-I|--include-path|--log-level|--log-target|-t|--threads|--plugins|--testbin|--experimental-options)$/ },
  xonsh: { inline: /^-c$/, valued: /^(--rc|-D|--shell-type|--shell|-st)$/ },
  elvish: { inline: /^-c$/, valued: /^(-rc|-sock|-db|-log|-deprecation-level)$/, operandProgram: true },
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

/** Calls that change files by name in these shells' programs (a redirection too): a bare name in such a program may be a file. */
const CHANGES = /(^|[\s;&|({])(rm|mv|cp|ln|touch|truncate|tee|chmod|chown|install|rmdir|unlink|sed|perl|dd|patch|save|del|erase|rd|ri|mi|cpi|sc|ac|clc|ni|rni|(remove|move|copy|rename|new|set|add|clear|out)-\w+)\b|>/i;

export interface OtherShellRun {
  /** Paths judged as written (relative ones from the shell's directory). */
  paths: string[];
  /** Plain names a program that changes files gives: written if something of that name is here. */
  names: string[];
}

/**
 * What a run of one of OTHER_SHELLS may write. `args` are its arguments, undefined where the text
 * does not fix a word (`-c "$(cat x)"`); `stdin` a heredoc's text; `piped` whether a pipe feeds it.
 */
export function otherShellWrites(name: string, args: Array<string | undefined>, input: { stdin?: string; piped: boolean; cwd?: string }): OtherShellRun {
  const options = SHELL_OPTIONS[name] as Options;
  const programs: Array<string | undefined> = [];
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
    if (/^(-h|--help|-v|-V|--version|-version|-help)$/i.test(arg)) return { paths: [], names: [] };
    if (options.opaque?.test(arg)) return { paths: [UNKNOWABLE], names: [] };
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
  const paths: string[] = [];
  const names: string[] = [];
  const judge = (program: string | undefined) => {
    if (program === undefined) return void paths.push(UNKNOWABLE); // `-c "$(curl …)"`
    const found = programPaths(program);
    paths.push(...(moved ? found.paths.map((path) => (path.startsWith(UNKNOWN_MARK) || path.startsWith(GLOB_MARK) || path.startsWith("/") ? path : UNKNOWN_MARK + path.replace(/^(\.\/)+/, ""))) : found.paths));
    if (!moved) names.push(...found.names);
  };
  for (const program of programs) judge(program);
  if (programs.length > 0) {
    // The arguments after the program are its own (`$argv`, `$args`): judged where they read as paths.
    for (const operand of operands) if (operand !== undefined && isPathLike(operand)) paths.push(operand);
    return { paths, names };
  }
  if (script === undefined) return { paths: [UNKNOWABLE], names };
  if (script !== null && script !== "-" && script !== "/dev/stdin") {
    // A script it can read is read as its program would be; one it cannot could write anything.
    const text = input.cwd === undefined && !script.startsWith("/") ? undefined : readText(within(input.cwd, script));
    judge(text);
    for (const operand of operands) if (operand !== undefined && isPathLike(operand)) paths.push(operand);
    return { paths, names };
  }
  // The program comes on stdin: a heredoc is read; a pipe or the terminal runs what the text does not give.
  if (input.stdin !== undefined && !input.piped) judge(input.stdin);
  else paths.push(UNKNOWABLE);
  return { paths, names };
}

/** The paths a shell program names: its strings (shell-programs.ts) and its bare words, PowerShell's `.\u.ts` too. */
function programPaths(program: string): OtherShellRun {
  const paths = new Set(pathsInProgram(program));
  const names = new Set(bareNames(program));
  const changes = CHANGES.test(program);
  for (const token of program.split(/[\s;&|(){}<>'"`,]+/)) {
    for (const word of new Set([token, token.replaceAll("\\", "/")])) {
      if (word === "" || word.startsWith("-")) continue;
      // `$HOME/u.ts`, `$env:TEMP/u.ts`: in a place unknown, by its name.
      const variable = /^\$[\w:{}]+\/(.+)$/.exec(word)?.[1];
      if (variable !== undefined) {
        if (isPathLike(variable)) paths.add(UNKNOWN_MARK + variable);
        continue;
      }
      if (/[*?]/.test(word)) {
        if (isPathLike(word.replace(/[*?]/g, "x"))) paths.add(GLOB_MARK + word);
        continue;
      }
      if (isPathLike(word)) paths.add(word);
      else if (changes && /^[\w.-]+$/.test(word) && word !== "." && word !== "..") names.add(word);
    }
  }
  return { paths: [...paths], names: [...names] };
}
