// Wrappers that run a command after their own options, read by a function each where a WRAPPERS
// entry (shell-runners.ts) cannot say what they do: firejail (options only as `--name=value`, some
// that copy files out of a sandbox or log to one, some that run nothing), shadow's sg (a group,
// then one shell command line; ast-grep's sg is another program), retry (two programs of that
// name: one runs its words, the other evals them), and su and runuser (a user, then its shell's
// arguments; runuser -u, a command). The command is read in turn as if run directly; a word the text
// does not fix where an option or the command stands could be anything: any file.
import { basename } from "node:path";
import { command, joined, type Launch } from "./shell-launchers.js";
import { ownEntry, readOptions, type Syntax } from "./shell-options.js";
import { SU } from "./shell-terminal.js";
import { add, directoryAt, readsTerminal, shellQuoted, UNKNOWABLE, within, wordValue } from "./shell-words.js";

const READERS: Record<string, (launch: Launch) => boolean> = { firejail, sg, retry, su, runuser: su };

/** Whether the command is one of these wrappers, read here (what it runs handed back as nested, or judged). */
export function readsWrapper(launch: Launch): boolean {
  return ownEntry(READERS, launch.name)?.(launch) ?? false;
}

/**
 * With no command, a wrapper starts the user's shell: it runs a heredoc's lines, what a pipe or a
 * redirection feeds it (unknown), or, given a terminal, what is typed into it later (shell-terminal.ts).
 */
function shellOf(launch: Launch, cwd: string | undefined): void {
  const { here, nested } = launch;
  if (launch.stdin !== undefined) nested.push({ script: launch.stdin, cwd });
  else if (launch.input) add(here, UNKNOWABLE);
  else if (here.shared.terminal === true) readsTerminal(here);
}

/** firejail's options that list, print, query or manage sandboxes, or show its help: no command runs. */
const FIREJAIL_ONLY = /^(-\?|--(help|version|list|tree|top|netstats|debug-[\w-]+)|--(shutdown|bandwidth|ls|cat|[\w-]+\.print)=.*)$/;

/**
 * firejail [options] [cmd…]: its options are all `--name[=value]` (and `-c`), up to the first word
 * that is not one or `--`; cmd runs in the sandbox, whose files are this machine's unless an
 * option hides them, so it is read as run here (`--chroot=`: in a place unknown; `--private-cwd`:
 * from home or the directory given). `-c`: the rest is also a command line, as a login shell is
 * given one. `--output=f` and `--output-stderr=f` log to f and rotate it to f.1…f.5; `--trace=f`
 * and `--build=f` write f; `--get=name file` copies the sandbox's file to where it runs, `--put=name
 * src dst` writes dst in the sandbox (a relative one: a place unknown). No command: the user's shell.
 */
function firejail(launch: Launch): boolean {
  const { args, words, here } = launch;
  let cwd = here.cwd;
  let line = false;
  let at = 0;
  for (; at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined) {
      add(here, UNKNOWABLE); // `firejail "$opts" cmd`: an option or the command, unknown
      return true;
    }
    if (arg === "--") {
      at++;
      break;
    }
    if (!arg.startsWith("-")) break;
    if (FIREJAIL_ONLY.test(arg)) return true;
    const equals = arg.indexOf("=");
    const [name, value] = equals === -1 ? [arg, undefined] : [arg.slice(0, equals), arg.slice(equals + 1)];
    if (name === "--get") {
      const file = args[at + 1];
      add(here, file === undefined ? UNKNOWABLE : basename(file));
      return true;
    }
    if (name === "--put") {
      const file = args[at + 2];
      add(here, file === undefined ? UNKNOWABLE : within(undefined, file));
      return true;
    }
    if (name === "--output" || name === "--output-stderr") for (const suffix of ["", ".1", ".2", ".3", ".4", ".5"]) add(here, `${value ?? ""}${suffix}`);
    if ((name === "--trace" || name === "--build") && value !== undefined) add(here, value);
    if (name === "--chroot") cwd = undefined;
    if (name === "--private-cwd") cwd = value === undefined ? (here.home.startsWith("/") ? here.home : undefined) : directoryAt(cwd, value);
    if (name === "-c") line = true;
  }
  if (at >= words.length) {
    shellOf(launch, cwd);
    return true;
  }
  if (args[at] === undefined) add(here, UNKNOWABLE); // `firejail "$cmd" f`: a command the text does not fix
  const inside = { ...launch, here: { ...here, cwd } };
  command(inside, at);
  if (line) joined(inside, at, cwd);
  return true;
}

/** ast-grep's subcommands: `sg run -p …`, `sg scan` are its, not shadow's sg. */
const AST_GREP = /^(run|scan|test|new|lsp|completions|help)$/;

/**
 * sg [-] group [-c] cmd: shadow's sg runs the one command line after the group with /bin/sh -c, as
 * that group (more words are ignored); with none, the user's shell. A first word that is an option
 * or an ast-grep subcommand is ast-grep's sg, a search tool of the same name: not read here.
 */
function sg(launch: Launch): boolean {
  const { args, words, here, nested } = launch;
  const login = args[0] === "-" || args[0] === "-l" ? 1 : 0;
  const group = args[login];
  if (words[login] === undefined || group?.startsWith("-") || (login === 0 && group !== undefined && AST_GREP.test(group))) return false;
  const at = args[login + 1] === "-c" && words.length > login + 2 ? login + 2 : login + 1;
  if (at >= words.length) {
    shellOf(launch, here.cwd);
    return true;
  }
  const line = args[at];
  if (line === undefined) add(here, UNKNOWABLE); // `sg wheel -c "$cmd"`
  else nested.push({ script: line, cwd: here.cwd });
  return true;
}

/**
 * retry's options: minfrin's (Debian's, Homebrew's: `-d 1,2 -t 3 -u success -- cmd`, its words run
 * as a command) and kadwanev's (`-t 3 -s 5 -f 'cleanup' -- cmd`, its words joined and evaled). No
 * letter is a flag in one and takes a value in the other, so one reading serves both.
 */
const RETRY: Syntax = {
  short: "d:f:j:m:s:t:u:w:x:",
  long: { delay: "d", jitter: "j", message: "m", times: "t", until: "u", while: "w", tries: "t", sleep: "s", min: "m", max: "x", fail: "f", help: "h", version: "", verbose: "" },
  ordered: true,
};

/**
 * retry [options] [--] cmd…: the command, read as run and, where a word holds more than one (`retry
 * 'rm f'`), also as the line its words joined make; `-f`'s command line, run when it gives up.
 */
function retry(launch: Launch): boolean {
  const { args, words, here, nested } = launch;
  const reading = readOptions(args, RETRY, 0, (at) => wordValue(words[at], here));
  for (const line of reading.values("f")) {
    if (line === undefined) add(here, UNKNOWABLE);
    else nested.push({ script: line, cwd: here.cwd });
  }
  // (`-v` is minfrin's --version but kadwanev's --verbose, which runs the command: read it.)
  if (reading.has("h", "version") || reading.end >= words.length) return true;
  if (args[reading.end] === undefined) add(here, UNKNOWABLE); // `retry -- "$cmd" f`
  command(launch, reading.end);
  if (words.slice(reading.end).some((word, at) => word.text !== args[reading.end + at])) joined(launch, reading.end, here.cwd);
  return true;
}

/**
 * su [options] [-] [user [arg…]] (util-linux's; runuser's without -u): the user's shell (`-s`'s,
 * else sh) run with `-c`'s command line and the words after the user (`su u -- -c 'cmd'`); with
 * neither, a shell reading its input (a heredoc's lines; a pipe's, any file) or, given a terminal,
 * what is typed into it (shell-terminal.ts). A login shell (`-`, `-l`) starts in the user's home, a
 * place the text does not fix. runuser -u user [--] cmd…: the command itself, from here. getopt
 * takes options anywhere before `--`: a word the text does not fix that starts as one
 * (`--command="$c"`) could be anything.
 */
function su(launch: Launch): boolean {
  const { args, words, here, nested } = launch;
  if (args.some((arg, at) => arg === undefined && /^["']?-/.test(words[at]?.text ?? ""))) {
    add(here, UNKNOWABLE);
    return true;
  }
  // (Each word the text does not fix is a value or an operand here: any that starts as an option is refused above.)
  const text = (at: number) => wordValue(words[at], here);
  const reading = readOptions(args, SU, 0, text);
  if (reading.has("h", "V")) return true;
  // Each -c's (and --session-command's) line as the shell is given it: its word as written, or an attached value quoted.
  const lines = [...reading.occurrences("c"), ...reading.occurrences("C")].map(({ value, at }) => (at === undefined ? shellQuoted(value ?? "") : words[at]?.text)).filter((line): line is string => line !== undefined);
  if (launch.name === "runuser" && reading.has("u")) {
    // (runuser refuses -c with -u: read all the same.)
    for (const line of lines) nested.push({ script: `sh -c ${line}`, cwd: here.cwd });
    const end = readOptions(args, { ...SU, ordered: true }, 0, text).end;
    if (end >= words.length) return true;
    if (args[end] === undefined) add(here, UNKNOWABLE); // `runuser -u x -- "$cmd" f`
    command(launch, end);
    return true;
  }
  const [first] = reading.operands;
  const login = reading.has("l") || (first !== undefined && args[first] === "-");
  const rest = reading.operands.slice(first !== undefined && args[first] === "-" ? 2 : 1).map((at) => words[at]?.text ?? "");
  const cwd = login ? undefined : here.cwd;
  const shell = reading.has("s") ? reading.value("s") : "sh";
  if (lines.length === 0 && rest.length === 0) {
    if (launch.stdin !== undefined) nested.push({ script: launch.stdin, cwd });
    else if (launch.input) add(here, UNKNOWABLE);
    return true;
  }
  if (shell === undefined) {
    add(here, UNKNOWABLE); // `su -s "$sh" -c …`
    return true;
  }
  if (lines.length === 0) nested.push({ script: [shellQuoted(shell), ...rest].join(" "), cwd });
  for (const line of lines) nested.push({ script: [shellQuoted(shell), "-c", line, ...rest].join(" "), cwd });
  return true;
}
