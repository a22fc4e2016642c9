// Programs that take commands typed at a terminal. Codex can run a command with a terminal
// (`exec_command` with `tty: true`) and type into it later (`write_stdin`), and nothing typed
// reaches a hook: `tmux`, then `echo x > held.ts` typed into its shell, or `vim`, then
// `:e held.ts`, write what no command text names. So such a program, given nothing else to do (no
// script, no query, no input of its own), is judged as writing anything (shell-walk.ts), as a shell
// reading its commands from the terminal is. Codex's hook payload does not say whether the call
// asked for a terminal (0.171.0 gives `{"command": …}` alone), so every Codex shell call is read
// as if it had one; Claude Code's Bash never has one: there, words alone decide.
import { basename } from "node:path";
import { type Reading, readOptions, type Syntax } from "./shell-options.js";

type Args = Array<string | undefined>;
/** An argument's text, with a HOLE where the text does not fix it (shell-options.ts). */
type Text = (at: number) => string | undefined;
const has = (args: Args, ...options: string[]) => args.some((arg) => arg !== undefined && options.includes(arg));
const operands = (args: Args) => args.filter((arg) => arg === undefined || !arg.startsWith("-"));

/** tmux: a session attached (new, attach, or no command at all), not one made detached (`-d`), a query or send-keys. */
function tmuxAttaches(args: Args): boolean {
  if (has(args, "-V")) return false;
  let at = 0;
  while (at < args.length && (args[at] ?? "").startsWith("-")) at += /^-[cLSfT]$/.test(args[at] ?? "") ? 2 : 1;
  if (has(args.slice(0, at), "-c")) return false; // runs a shell command and exits (the walk reads it)
  const command = args[at];
  if (command === undefined || /^(attach-session|attach|a|at|attac|switch-client|switchc)$/.test(command)) return true; // attach's -d detaches the others
  // A new session attaches unless made detached; with -A, it attaches to one of that name if there is one.
  return /^(new-session|new)$/.test(command) && (!has(args.slice(at + 1), "-d") || has(args.slice(at + 1), "-A"));
}

/** Where git's subcommand is, past git's own options (`-C dir`, `-c key=value`, `--git-dir dir`). */
export function gitSubcommandAt(args: Args): number {
  let at = 0;
  while (at < args.length && (args[at] ?? "").startsWith("-")) at += /^(-C|-c|--git-dir|--work-tree|--namespace|--config-env)$/.test(args[at] ?? "") ? 2 : 1;
  return at;
}

/** Each program, by whether a call of it, with these arguments and no input of its own (or, for git, with some), takes commands typed at its terminal. */
const TYPED: Record<string, (args: Args, input: boolean, text: Text) => boolean> = {};
const always = () => true;
const unless = (...options: string[]) => (args: Args) => !has(args, ...options);
// (Not `sg`, ast-grep's command as often as the group's; not `mc`, MinIO's client as often as the file manager.)
for (const name of ["byobu", "zellij", "dtach", "abduco", "expect", "login", "newgrp", "mosh", "telnet", "rlogin", "ranger", "nnn", "lf", "vifm", "yazi", "less", "more", "most", "pg"]) TYPED[name] = always;
// A user's, root's or another root's shell: asked by shell-wrappers.ts only when these run no command.
for (const name of ["doas", "chroot", "unshare", "nsenter", "systemd-nspawn"]) TYPED[name] = always;
/** su's and runuser's options (util-linux's getopt takes them anywhere before `--`): read by shell-wrapper-readers.ts too. */
export const SU: Syntax = {
  short: "c:C:g:G:s:u:w:",
  long: { command: "c", "session-command": "C", group: "g", "supp-group": "G", shell: "s", user: "u", "whitelist-environment": "w", login: "l", fast: "f", "preserve-environment": "p", pty: "P", help: "h", version: "V" },
};
// su and runuser: the user's shell, when given no command line, no command (`runuser -u`), nothing
// for the shell after the user (`su`, `su - root`) and no input of its own.
TYPED.su = (args, input, text) => {
  const reading = readOptions(args, SU, 0, text);
  const operands = reading.operands.filter((at, index) => index > 0 || args[at] !== "-");
  return !input && !reading.has("c", "C", "u", "h", "V") && operands.length <= 1;
};
TYPED.runuser = TYPED.su;
TYPED.sudo = unless("-l", "--list", "-v", "--validate", "-k", "--reset-timestamp", "-K", "--remove-timestamp", "-V", "--version", "-h", "--help");
const subcommand = (pattern: RegExp) => (args: Args) => pattern.test(args.find((arg) => arg === undefined || !arg.startsWith("-")) ?? "");
TYPED.machinectl = subcommand(/^(shell|login)$/);
TYPED.toolbox = subcommand(/^(enter|run)$/);
TYPED.distrobox = subcommand(/^(enter)$/);
TYPED.tmux = tmuxAttaches;
TYPED.screen = unless("-d", "-D", "-ls", "-list", "-X", "-Q", "-v", "-h", "--help", "-wipe", "-dm", "-dmS", "-Dm", "-DmS");
for (const name of ["vi", "vim", "nvim", "view", "vimdiff", "gvim", "ex", "ed", "emacs", "emacsclient", "nano", "pico", "micro", "joe", "jed", "mcedit", "kak", "hx", "helix", "ne"]) {
  TYPED[name] = unless("--version", "--help", "-h", "--batch", "-batch", "--headless", "--script");
}
// (Not man or info: their pager's `!cmd` is a way, but `man ls | head` is how agents read them;
// nor git's pager: Codex runs its terminal sessions with PAGER and GIT_PAGER set to cat.)
TYPED.gdb = unless("-batch", "--batch", "--version", "--help");
TYPED.lldb = unless("-b", "--batch", "--version", "--help");
// Python's debuggers as commands (pdb3, ipdb3, pudb3; and `python3 -m pdb`: interpreterConsole),
// Ruby's (`rdbg x.rb`, not `rdbg --open`, which waits for a debugger to connect; `byebug x.rb`).
for (const name of ["pdb", "ipdb", "pudb", "byebug"]) TYPED[name] = unless("-h", "--help", "--version", "-v");
TYPED.rdbg = unless("-O", "--open", "-h", "--help", "--version", "-v");
// git's own prompts (`add -p`, `-i`, `checkout -p`, `am -i`: a key, and `e` runs its editor),
// which read their answers from its input when given some, and the tools mergetool and difftool
// run (vimdiff, unless configured otherwise). The editors git runs are read as commands
// (shell-editors.ts). Not `clean -i`, whose prompt only picks what clean removes.
TYPED.git = (args, input) => {
  const at = gitSubcommandAt(args);
  const sub = args[at];
  const dashdash = args.indexOf("--", at);
  const own = args.slice(at + 1, dashdash === -1 ? undefined : dashdash);
  if (sub === "mergetool") return !has(own, "--tool-help", "-h");
  if (sub === "difftool") return !has(own, "--tool-help", "-h", "-x", "--extcmd") && !own.some((arg) => arg?.startsWith("--extcmd="));
  if (input) return false;
  if (sub === "add") return has(own, "-p", "--patch", "-i", "--interactive");
  if (sub === "am") return has(own, "-i", "--interactive");
  return /^(checkout|reset|restore|stash|commit)$/.test(sub ?? "") && has(own, "-p", "--patch", ...(sub === "commit" ? ["--interactive"] : []));
};
// Clients whose prompt takes commands that write here (`get f`, `lcd`, `!cmd`): sftp without a
// batch file, ftp, lftp without -c or -f, ncftp, smbclient without -c.
TYPED.sftp = (args) => !args.some((arg) => arg?.startsWith("-b"));
TYPED.ftp = always;
TYPED.ncftp = always;
TYPED.lftp = unless("-c", "-f", "-v", "--version", "-h", "--help");
TYPED.smbclient = unless("-c", "--command", "-L", "--list", "-V", "--version", "--help");
// Terminal interfaces that run an editor or a shell command at a key: lazygit; tig (`e` opens the
// file in the editor, `:!cmd` runs one; fed a pipe, it pages it and still reads keys from the
// terminal); ncdu (`d` deletes, `b` opens a shell); w3m and lynx (`!`; not `-dump`); mutt.
TYPED.lazygit = unless("-v", "--version", "-h", "--help", "-c", "--config", "-cd", "--print-config-dir");
TYPED.tig = unless("-v", "--version", "-h", "--help");
TYPED.ncdu = unless("-o", "-v", "-V", "--version", "-h", "--help");
TYPED.w3m = unless("-dump", "-dump_source", "-dump_head", "-version", "-help");
TYPED.lynx = unless("-dump", "-source", "-version", "-help");
TYPED.mutt = unless("-v", "-h", "-Q", "-A", "-D");
TYPED.neomutt = TYPED.mutt;
// Ruby's pry with no file to run (its -e runs before the prompt), and the frameworks' consoles
// (Django's and Laravel's, run by their interpreter: interpreterConsole).
TYPED.pry = (args) => {
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined || !arg.startsWith("-")) return false; // a file: run, then it exits
    if (["-v", "--version", "-h", "--help"].includes(arg)) return false;
    if (["-e", "--exec", "-r", "--require", "-I", "-c", "--context"].includes(arg)) at++;
  }
  return true;
};
TYPED.rails = subcommand(/^(console|c|dbconsole|db)$/);
TYPED.flask = subcommand(/^shell$/);
// Database consoles: a query or a file given (sqlite3 db 'select …', psql -c, mysql -e) runs and exits.
TYPED.sqlite3 = (args) => operands(args).length < 2 && !has(args, "-version", "-help", "--version", "--help");
TYPED.duckdb = (args) => operands(args).length < 2 && !has(args, "-c", "-f", "-s", "--version", "--help");
TYPED.psql = unless("-c", "--command", "-f", "--file", "-l", "--list", "-V", "--version", "--help");
TYPED.mysql = unless("-e", "--execute", "-V", "--version", "--help");
TYPED.mariadb = TYPED.mysql;
TYPED["redis-cli"] = (args) => operands(args).length === 0 && !has(args, "--version", "--help", "-v");
TYPED.mongosh = unless("--eval", "-f", "--file", "--version", "--help");
TYPED.mongo = TYPED.mongosh;
// Language consoles the shell reader does not know as interpreters (those it does, python, node,
// ruby, perl, php and their shells, read the terminal when given no program: shell-runners.ts):
// typed code runs when they are given no file or expression.
const languageConsole = (args: Args) => operands(args).length === 0 && !has(args, "-e", "-c", "-x", "--eval", "--execute", "--version", "-version", "--help", "-help", "-v", "-h");
for (const name of ["lua", "luajit", "tclsh", "wish", "R", "julia", "erl", "ocaml", "utop", "guile", "racket", "sbcl", "clisp", "scala", "jshell", "kotlinc", "swift", "deno", "octave", "gnuplot"]) {
  TYPED[name] = languageConsole;
}
// Those that run what they are given, then the prompt: `iex -S mix`, `iex x.exs`, `ghci x.hs`.
TYPED.iex = unless("-v", "--version", "-h", "--help");
TYPED.ghci = unless("-e", "--version", "--numeric-version", "--help");
TYPED.deno = (args) => languageConsole(args) || operands(args)[0] === "repl"; // `deno repl` (its --eval runs first, then the prompt)

/** Those that read their commands from their input when given some (a heredoc, a pipe), not from the terminal. */
const FROM_INPUT = new Set(["expect", "ed", "ex", "pdb", "ipdb", "rdbg", "byebug", "sftp", "ftp", "ncftp", "lftp", "smbclient", "mutt", "neomutt", "pry", "rails", "flask", "sqlite3", "duckdb", "psql", "mysql", "mariadb", "redis-cli", "mongosh", "mongo", "lua", "luajit", "tclsh", "wish", "R", "julia", "ghci", "erl", "iex", "ocaml", "utop", "guile", "racket", "sbcl", "clisp", "scala", "jshell", "kotlinc", "swift", "deno", "octave", "gnuplot"]);

/** `lua5.4`, `python3.12`: the program's own name. */
const unversioned = (name: string) => name.replace(/[\d.]+$/, "") || name;

function ruleOf(name: string): ((args: Args, input: boolean, text: Text) => boolean) | undefined {
  const bare = basename(name);
  return Object.hasOwn(TYPED, bare) ? TYPED[bare] : Object.hasOwn(TYPED, unversioned(bare)) ? TYPED[unversioned(bare)] : undefined;
}

/**
 * Whether a program of this name, run with a terminal with these arguments, may run commands typed
 * into it later. `input`: it is given input of its own (a heredoc, a pipe), which a console reads
 * its commands from instead (an editor or a pager still reads keys from the terminal). `text`: each
 * argument's text, with a HOLE where the text does not fix it (`su -c"$c"` runs a command).
 */
export function takesTypedCommands(name: string, args: Args, text: Text, input = false, lessSecure = false): boolean {
  const bare = basename(name);
  // less's keys that write (`v` runs the editor, `!` a shell command, `s` saves), off in its secure mode.
  if (bare === "less" && lessSecure) return false;
  if (input && (FROM_INPUT.has(bare) || FROM_INPUT.has(unversioned(bare)))) return false;
  // Vim in Ex mode (`vim -es f <<EOF`) reads its commands from its input too (shell-rules.ts reads them).
  if (input && /^(vi|vim|nvim)$/.test(bare) && has(args, "-e", "-E", "-es", "-Es", "-s")) return false;
  return ruleOf(name)?.(args, input, text) ?? false;
}

/**
 * Python's modules that, run with `-m`, take typed commands: its debuggers (as their commands do)
 * and consoles (`-m code`, `-m asyncio`; IPython's and the other shells' with no file to run,
 * sqlite3's with no query).
 * Each but pudb, drawn on the terminal, reads its commands from its input when given some.
 */
const fileOrConsole = (args: Args) => has(args, "-i") || (operands(args).length === 0 && !has(args, "-c", "-m", "-h", "--help", "-V", "--version"));
const MODULES: Record<string, (args: Args) => boolean> = {
  pdb: unless("-h", "--help"), ipdb: unless("-h", "--help"), pudb: unless("-h", "--help"), code: always, asyncio: always, IPython: fileOrConsole, ptpython: fileOrConsole, bpython: fileOrConsole,
  sqlite3: (args) => operands(args).length < 2 && !has(args, "-h", "--help", "-v", "--version"), // with no query (Python's own SQL console)
};

/** Whether `python -m <module>` is one of Python's debuggers or consoles (judged by interpreterConsole, not as a command of that name). */
export const isConsoleModule = (module: string) => Object.hasOwn(MODULES, module);

/** perl -d x.pl, perl -de1, -dt: the debugger (not `-d:NYTProf`, a module in its place: a profiler, a tracer). */
function perlDebugs(args: Args): boolean {
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined || arg === "-" || arg === "--" || !arg.startsWith("-")) return false; // the program: perl's switches are before it
    for (let letter = 1; letter < arg.length; letter++) {
      if (arg[letter] === "d") return !/^t?:/.test(arg.slice(letter + 1));
      if ("eE".includes(arg[letter] as string) && letter === arg.length - 1) at++; // -e 'code': the next word is its value
      if ("0CDeEFiIlmMx".includes(arg[letter] as string)) break; // the rest of the cluster is its value
    }
  }
  return false;
}

/**
 * An interpreter (shell-runners.ts), with these arguments as its syntax reads them, running its
 * debugger or a console of its own, which takes commands typed at the terminal: `python3 -m pdb
 * x.py`, `-m code`; `perl -d x.pl`, `perl -de1`; `node inspect x.js` (not `node --inspect`, whose
 * debugger is a client that connects: another command); `ruby -r debug x.rb`; `bun repl`; Django's
 * `python3 manage.py shell` (not `-c`), Laravel's `php artisan tinker`. "input": it reads its
 * commands from its input when given some, else from the terminal; "terminal": from the terminal
 * whatever its input (perl5db opens /dev/tty; pudb draws on it); undefined: neither.
 */
export function interpreterConsole(name: string, args: Args, reading: Reading): "input" | "terminal" | undefined {
  const bare = unversioned(basename(name));
  const operand = (at: number) => (reading.operands[at] === undefined ? undefined : args[reading.operands[at] as number]);
  if (bare === "python" || bare === "pypy") {
    const module = reading.has("m") ? reading.value("m") : undefined;
    if (module !== undefined) return isConsoleModule(module) && (MODULES[module] as (args: Args) => boolean)(args.slice(reading.end)) ? (module === "pudb" ? "terminal" : "input") : undefined;
    return basename(operand(0) ?? "") === "manage.py" && /^(shell|dbshell|shell_plus)$/.test(operand(1) ?? "") && !has(args, "-c", "--command") ? "input" : undefined;
  }
  if (bare === "perl") return perlDebugs(args) ? "terminal" : undefined;
  if (bare === "node" || bare === "nodejs") return operand(0) === "inspect" ? "input" : undefined;
  if (bare === "bun") return operand(0) === "repl" ? "input" : undefined;
  if (bare === "php") return basename(operand(0) ?? "") === "artisan" && operand(1) === "tinker" ? "input" : undefined;
  return bare === "ruby" && reading.values("r").some((value) => value === "debug" || value === "debug/start") ? "input" : undefined;
}

/** git commit's options that give its message; those that ask for an editor (or its prompt) anyway. */
const MESSAGE_GIVEN = /^(-[a-zA-Z]*[mFC]|--(message|file|reuse-message|no-edit|dry-run|fixup))/;
const EDITED_ANYWAY = /^(-[a-zA-Z]*[ecp]|--(edit|reedit-message|fixup=(amend|reword)|interactive|patch))/;

/**
 * Whether a command's words (one simple command's, quotes gone) are a form that may take typed
 * commands where the program's name alone would send too much to the walk (every `python3 x.py`,
 * `git status`): an interpreter's debugger or console (interpreterConsole), git's prompts and
 * tools (TYPED.git), and the calls that run an editor on a file of their own (shell-editors.ts:
 * git's, `crontab -e`, `visudo`, `kubectl edit`). Read word by word: a regex scanning from each
 * mention to the line's end would cost a long line the square of its length.
 */
function typedForm(words: string[]): boolean {
  const names = words.map((word) => word.slice(word.lastIndexOf("/") + 1));
  const after = (pattern: RegExp) => {
    const at = names.findIndex((name) => pattern.test(name));
    return at === -1 ? undefined : words.slice(at + 1);
  };
  const any = (list: string[] | undefined, pattern: RegExp) => list !== undefined && list.some((word) => pattern.test(word));
  const python = after(/^(python[\d.]*|pypy3?)$/);
  if (python !== undefined && python.some((word, at) => /^-m(pdb|ipdb|pudb|code|asyncio|IPython|ptpython|bpython|sqlite3)$/.test(word === "-m" ? `-m${python[at + 1] ?? ""}` : word))) return true;
  if (any(after(/^perl$/), /^-[a-zA-Z]*d/) || any(after(/^node(js)?$/), /^inspect$/) || any(after(/^bun$/), /^repl$/)) return true;
  const ruby = after(/^ruby$/);
  if (ruby !== undefined && ruby.some((word, at) => /^-rdebug(\/|$)/.test(word) || (word === "-r" && /^debug(\/|$)/.test(ruby[at + 1] ?? "")))) return true;
  if (any(after(/^manage\.py$/), /^(shell|dbshell|shell_plus)$/) || any(after(/^artisan$/), /^tinker$/)) return true;
  const git = after(/^git$/);
  if (git !== undefined) {
    const has = (...subcommands: string[]) => git.some((word) => subcommands.includes(word));
    if (has("commit") && (!any(git, MESSAGE_GIVEN) || any(git, EDITED_ANYWAY))) return true;
    if (has("mergetool", "difftool", "notes", "revert")) return true;
    if (has("tag") && any(git, /^(-[a-zA-Z]*[asue]|--(annotate|sign|local-user|edit))/)) return true;
    if (has("add", "checkout", "reset", "restore", "stash", "am", "rebase", "merge", "pull", "cherry-pick", "config", "branch") && any(git, /^(-[a-zA-Z]*[pie]$|--(patch|interactive|edit|continue))/)) return true;
  }
  if (any(names, /^(visudo|vipw|vigr|sudoedit)$/) || any(after(/^sudo$/), /^(-[a-zA-Z]*e|--edit)/) || any(after(/^crontab$/), /^-e$/)) return true;
  return any(after(/^(kubectl|oc|systemctl)$/), /^edit$/);
}

/** Programs whose name alone is no sign (typedForm reads their forms). */
const BY_FORM = new Set(["git"]);

/**
 * Whether the command's words name such a program anywhere (a cheap look before the parser loads:
 * the walk decides, after wrappers, which words are commands and what they are given).
 */
export function mayTakeTypedCommands(command: string): boolean {
  if (command.replace(/["'\\]/g, "").split(/[;&|\n]/).some((segment) => typedForm(segment.split(/[\s()`{}<>$]+/)))) return true;
  return command.split(/[\s;&|()<>`$"'{}]+/).some((word) => word !== "" && ((ruleOf(word) !== undefined && !BY_FORM.has(basename(word))) || basename(word) === "ssh")); // ssh: its launcher asks (shell-launchers.ts)
}
