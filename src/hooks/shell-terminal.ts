// Programs that take commands typed at a terminal. Codex can run a command with a terminal
// (`exec_command` with `tty: true`) and type into it later (`write_stdin`), and nothing typed
// reaches a hook: `tmux`, then `echo x > held.ts` typed into its shell, or `vim`, then
// `:e held.ts`, write what no command text names. So such a program, given nothing else to do (no
// script, no query, no input of its own), is judged as writing anything (shell-walk.ts), as a shell
// reading its commands from the terminal is. Codex's hook payload does not say whether the call
// asked for a terminal (0.171.0 gives `{"command": …}` alone), so every Codex shell call is read
// as if it had one; Claude Code's Bash never has one: there, words alone decide.
import { basename } from "node:path";

type Args = Array<string | undefined>;
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

/** Each program, by whether a call of it, with these arguments and no input of its own, takes commands typed at its terminal. */
const TYPED: Record<string, (args: Args) => boolean> = {};
const always = () => true;
const unless = (...options: string[]) => (args: Args) => !has(args, ...options);
// (Not `sg`, ast-grep's command as often as the group's; not `mc`, MinIO's client as often as the file manager.)
for (const name of ["byobu", "zellij", "dtach", "abduco", "expect", "login", "newgrp", "mosh", "telnet", "rlogin", "ranger", "nnn", "lf", "vifm", "yazi", "less", "more", "most", "pg"]) TYPED[name] = always;
// A user's, root's or another root's shell: asked by shell-wrappers.ts only when these run no command.
for (const name of ["su", "doas", "runuser", "chroot", "unshare", "nsenter", "systemd-nspawn"]) TYPED[name] = always;
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
// (Not man or info: their pager's `!cmd` is a way, but `man ls | head` is how agents read them.)
TYPED.gdb = unless("-batch", "--batch", "--version", "--help");
TYPED.lldb = unless("-b", "--batch", "--version", "--help");
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
for (const name of ["lua", "luajit", "tclsh", "wish", "R", "julia", "ghci", "erl", "iex", "ocaml", "utop", "guile", "racket", "sbcl", "clisp", "scala", "jshell", "kotlinc", "swift", "deno"]) {
  TYPED[name] = (args) => operands(args).length === 0 && !has(args, "-e", "-c", "-x", "--eval", "--execute", "--version", "-version", "--help", "-help", "-v", "-h");
}

/** Those that read their commands from their input when given some (a heredoc, a pipe), not from the terminal. */
const FROM_INPUT = new Set(["expect", "ed", "ex", "sqlite3", "duckdb", "psql", "mysql", "mariadb", "redis-cli", "mongosh", "mongo", "lua", "luajit", "tclsh", "wish", "R", "julia", "ghci", "erl", "iex", "ocaml", "utop", "guile", "racket", "sbcl", "clisp", "scala", "jshell", "kotlinc", "swift", "deno"]);

/** `lua5.4`, `python3.12`: the program's own name. */
const unversioned = (name: string) => name.replace(/[\d.]+$/, "") || name;

function ruleOf(name: string): ((args: Args) => boolean) | undefined {
  const bare = basename(name);
  return Object.hasOwn(TYPED, bare) ? TYPED[bare] : Object.hasOwn(TYPED, unversioned(bare)) ? TYPED[unversioned(bare)] : undefined;
}

/**
 * Whether a program of this name, run with a terminal with these arguments, may run commands typed
 * into it later. `input`: it is given input of its own (a heredoc, a pipe), which a console reads
 * its commands from instead (an editor or a pager still reads keys from the terminal).
 */
export function takesTypedCommands(name: string, args: Args, input = false): boolean {
  const bare = basename(name);
  if (input && (FROM_INPUT.has(bare) || FROM_INPUT.has(unversioned(bare)))) return false;
  // Vim in Ex mode (`vim -es f <<EOF`) reads its commands from its input too (shell-rules.ts reads them).
  if (input && /^(vi|vim|nvim)$/.test(bare) && has(args, "-e", "-E", "-es", "-Es", "-s")) return false;
  return ruleOf(name)?.(args) ?? false;
}

/**
 * Whether the command's words name such a program anywhere (a cheap look before the parser loads:
 * the walk decides, after wrappers, which words are commands and what they are given).
 */
export function mayTakeTypedCommands(command: string): boolean {
  return command.split(/[\s;&|()<>`$"'{}]+/).some((word) => word !== "" && (ruleOf(word) !== undefined || basename(word) === "ssh")); // ssh: its launcher asks (shell-launchers.ts)
}
