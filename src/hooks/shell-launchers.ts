// Programs that run a command line given in a form of their own, read here as the walk reads any
// script (shell-walk.ts): `watch 'cmd'` and `watchexec` (their words joined, run by a shell), a
// debugger's program and its shell escapes (`gdb --args cmd`, `gdb -ex 'shell cmd'`, `lldb --
// cmd`), capsh's bash (`capsh -- -c 'cmd'`), `systemd-run`, tmux's commands and typed keys, `at`'s
// job, hyperfine's and GNU parallel's commands; ssh's remote command (`ssh host 'cmd'`, or a
// heredoc's lines), of which only an absolute path can be a file here (a filesystem both machines
// mount); and a container's command (`docker run -v "$PWD":/src img cmd`), whose writes reach files
// here only under the directories it mounts.
import { statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type Parser from "web-tree-sitter";
import { picomatch } from "../targets/picomatch.js";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { guessedArguments, ownEntry, type Reading, readOptions, type Syntax, valuedLong } from "./shell-options.js";
import { add, anyUnder, directoryAt, HOLE, printedBy, readsTerminal, readText, shellQuoted, staticWord, UNKNOWABLE, type Walk, wordValue, writtenBefore } from "./shell-words.js";
import { INPUT, type Nested } from "./shell-runners.js";
import { configText } from "./shell-preloads.js";
import { inputRedirected, parentOf } from "./shell-tree.js";
import { readYaml, type YamlValue } from "./yaml-lite.js";

type Node = Parser.SyntaxNode;

export interface Launch {
  name: string;
  args: Array<string | undefined>;
  words: Node[];
  here: Walk;
  stdin: string | undefined;
  piped: boolean;
  /** It is given input of its own: a heredoc, a pipe, a redirection. */
  input: boolean;
  nested: Nested[];
  /** The command itself, where the walk has one (the pipe before it: crontab's). */
  node?: Node;
}

const READERS: Record<string, (launch: Launch) => void> = {
  watch,
  gdb,
  lldb,
  capsh,
  ssh,
  docker: containerRun,
  podman: containerRun,
  nerdctl: containerRun,
  // Compose v1's own command: `docker compose`'s options and subcommands.
  "docker-compose": composeRun,
  "podman-compose": composeRun,
  "systemd-run": systemdRun,
  tmux,
  screen,
  at,
  batch: at,
  crontab,
  watchexec,
  hyperfine,
  parallel,
};

/** Whether the command is one of these, read here (what it runs handed back as nested, or judged). */
export function launches(launch: Launch): boolean {
  const read = ownEntry(READERS, launch.name);
  read?.(launch);
  return read !== undefined;
}

/** Words as a line the shell reads again: their values joined by spaces (watch, ssh), any unknown one makes it unknown. */
export function joined({ args, here, nested }: Launch, from: number, cwd: string | undefined): void {
  const rest = args.slice(from);
  if (rest.length === 0) return;
  if (rest.every((arg): arg is string => arg !== undefined)) nested.push({ script: rest.join(" "), cwd });
  else add(here, UNKNOWABLE);
}

/** A word of the launcher's as written, with a HOLE where the text does not fix it (readOptions). */
function launchText(launch: Launch): (at: number) => string | undefined {
  return (at) => wordValue(launch.words[at], launch.here);
}

/**
 * The rest of the words as a command of their own (`gdb --args cmd a b`), as written. One the text
 * does not name (`systemd-run "$cmd"`, `gdb --args "$c" f`) could write any file, as a wrapper's
 * (`sudo "$cmd"`) could.
 */
export function command({ args, words, here, nested }: Launch, from: number, prefix: string[] = []): void {
  if (prefix.length === 0 && from < words.length && args[from] === undefined) return add(here, UNKNOWABLE);
  if (from < words.length) nested.push({ script: [...prefix, ...words.slice(from).map((word) => word.text)].join(" "), cwd: here.cwd });
}

const WATCH: Syntax = {
  short: "n:q:s:d::",
  long: { interval: "n", equexit: "q", shotsdir: "s", differences: "d", exec: "x", beep: "b", color: "c", "no-color": "C", errexit: "e", chgexit: "g", precise: "p", "no-rerun": "r", "no-title": "t", "no-wrap": "w" },
  ordered: true,
};

/** watch [options] cmd…: `sh -c` of its words joined, or with -x the words as a command. */
function watch(launch: Launch): void {
  const reading = readOptions(launch.args, WATCH, 0, launchText(launch));
  if (reading.has("x")) command(launch, reading.end);
  else joined(launch, reading.end, launch.here.cwd);
}

/** A debugger's command that writes: a file it dumps or saves, a log, a script language, a script file. */
const DEBUGGER_WRITES =
  /^\s*(dump|append|save|gcore|generate-core-file|tsave|record\s+save|set\s+logging|python|py|python-interactive|pi|guile|gu|source|compile|script|command\s+(script|source)|process\s+save-core|log\s+enable|memory\s+read\b.*(-o|--outfile))\b/;

/** A debugger command that runs a shell command line: `shell cmd`, `!cmd`, `platform shell cmd`, `pipe … | cmd`. */
const DEBUGGER_SHELL = /^\s*(?:(?:platform\s+)?shell\b|!|pipe\b|\|)/;

/**
 * A debugger's command line: what it runs in a shell (`shell rm f`, `!rm f`, `pipe bt | tee f`,
 * the program's arguments to `run`, which a shell reads: `run > out`), what it writes, and where
 * `cd` takes it (the cwd it returns). `text`: the word as written, for a value the text does not fix.
 */
function debuggerCommand({ here, nested }: Launch, line: string | undefined, text: string, cwd: string | undefined): string | undefined {
  if (line === undefined) {
    // `-ex "attach $PID"` reads; `-ex "shell $cmd"` could run anything, and so could `-ex "$cmd"`:
    // a command the text does not name (`shell rm f`, `dump …`).
    const bare = text.replace(/^["']/, "");
    if (DEBUGGER_SHELL.test(bare) || DEBUGGER_WRITES.test(bare) || /^\s*(cd|run|r|start)\b/.test(bare) || /^\s*[$`]/.test(bare)) add(here, UNKNOWABLE);
    return cwd;
  }
  const shell = /^\s*(?:(?:platform\s+)?shell\b|!)(.*)$/s.exec(line);
  if (shell) nested.push({ script: shell[1] as string, cwd });
  const pipe = /^\s*(?:pipe\b|\|)(.*)$/s.exec(line);
  if (pipe) {
    const bar = (pipe[1] as string).indexOf("|");
    if (/^\s*-d\b/.test(pipe[1] as string) || bar === -1) add(here, UNKNOWABLE);
    else nested.push({ script: (pipe[1] as string).slice(bar + 1), cwd });
  }
  const run = /^\s*(?:run|r|start|starti)\s+(.*)$/s.exec(line);
  if (run) nested.push({ script: `: ${run[1]}`, cwd });
  if (DEBUGGER_WRITES.test(line)) add(here, UNKNOWABLE);
  const cd = /^\s*cd\s+(.+?)\s*$/s.exec(line);
  return cd ? directoryAt(cwd, cd[1]) : cwd;
}

/** gdb's options that take a value, by either dash count; those that give it commands; those that give it a script of commands. */
const GDB_VALUED = /^--?(ex|iex|eval-command|init-eval-command|x|ix|command|init-command|p|pid|c|core|cd|d|directory|s|symbols|e|exec|se|b|l|i|interpreter|data-directory|D|tty|t)$/;
const GDB_COMMAND = /^--?(ex|iex|eval-command|init-eval-command)$/;
const GDB_SCRIPT = /^--?(x|ix|command|init-command)$/;

/** gdb [options] [--args cmd args…]: -ex commands, -x script files, `--cd`, and the program --args runs. */
function gdb(launch: Launch): void {
  const { args } = launch;
  let cwd = launch.here.cwd;
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    // `-ex="$x"`, `--command="$f"`: commands, or a script of them, the text does not fix.
    if (arg === undefined) {
      const option = /^--?[\w-]+(?==)/.exec(launch.words[at]?.text ?? "")?.[0];
      if (option !== undefined && (GDB_COMMAND.test(option) || GDB_SCRIPT.test(option))) add(launch.here, UNKNOWABLE);
      continue;
    }
    if (arg === "--args" || arg === "-args") return command({ ...launch, here: { ...launch.here, cwd } }, at + 1);
    const [option, attached] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (!GDB_VALUED.test(option)) continue;
    const index = attached === undefined ? at + 1 : at;
    const value = attached ?? args[++at];
    if (GDB_COMMAND.test(option)) cwd = debuggerCommand(launch, value, launch.words[index]?.text ?? "", cwd);
    else if (GDB_SCRIPT.test(option)) add(launch.here, UNKNOWABLE);
    else if (/^--?cd$/.test(option)) cwd = directoryAt(cwd, value);
  }
}

const LLDB_VALUED = /^--?(o|O|k|K|s|S|a|A|f|c|p|n|l|L|one-line|one-line-before-file|one-line-on-crash|source|source-before-file|source-on-crash|arch|file|core|attach-pid|attach-name|script-language|repl-language|debug|source-quietly)$/;
const LLDB_COMMAND = /^--?(o|O|k|one-line|one-line-before-file|one-line-on-crash)$/;
const LLDB_SCRIPT = /^--?(s|S|K|source|source-before-file|source-on-crash)$/;

/** lldb [options] [program] [-- cmd args…]: -o commands, -s script files, and the program after `--` when none came before. */
function lldb(launch: Launch): void {
  const { args } = launch;
  let cwd = launch.here.cwd;
  let program = false;
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined) continue;
    if (arg === "--") return program ? undefined : command({ ...launch, here: { ...launch.here, cwd } }, at + 1);
    if (!arg.startsWith("-")) {
      program = true;
      continue;
    }
    if (!LLDB_VALUED.test(arg)) continue;
    const value = args[++at];
    if (LLDB_COMMAND.test(arg)) cwd = debuggerCommand(launch, value, launch.words[at]?.text ?? "", cwd);
    else if (LLDB_SCRIPT.test(arg)) add(launch.here, UNKNOWABLE);
  }
}

/** capsh [options] -- args…: bash (or --shell's program) run with those arguments; `==` runs capsh again on the rest. */
function capsh(launch: Launch): void {
  const { args } = launch;
  let shell = "/bin/bash";
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg === undefined) continue;
    if (arg.startsWith("--shell=")) shell = arg.slice("--shell=".length);
    if (arg === "--") return command(launch, at + 1, [shell]);
    if (arg === "==") return command(launch, at + 1, ["capsh"]);
  }
}

const SSH: Syntax = { short: "B:b:c:D:E:e:F:I:i:J:L:l:m:O:o:P:p:Q:R:S:W:w:", ordered: true };

/** The command line an ssh `-o` option runs here (`ProxyCommand=…`, `LocalCommand=…`, `KnownHostsCommand=…`); scp's and sftp's too (sshOption). */
function sshLocalCommand(option: string): string | undefined {
  return /^\s*(?:ProxyCommand|LocalCommand|KnownHostsCommand)\s*[=\s]\s*(.*)$/is.exec(option)?.[1];
}

/**
 * The files an ssh `-o` option (scp's and sftp's too) writes here: UserKnownHostsFile's, where a
 * host key met for the first time is added; ControlPath's socket, made by a master (`master`: -M,
 * or a ControlMaster other than no); a LocalForward's socket (`/path:…`; StreamLocalBindUnlink
 * removes a file there first). A library it loads (PKCS11Provider, SecurityKeyProvider; not
 * `none`, nor the security keys' `internal`), whose code runs as this user (in ssh, or in the
 * helper ssh starts for it), and an option the text does not fix, which may be any of them: any file.
 */
function sshOptionWrites(option: string | undefined, master: boolean, here: Walk): void {
  if (option === undefined) return add(here, UNKNOWABLE);
  const entry = /^\s*(\w+)\s*(?:=\s*|\s+)(.*)$/s.exec(option);
  const key = entry?.[1]?.toLowerCase();
  // Its words as ssh splits a value: at white space, a double-quoted one whole, the quotes dropped.
  const values = [...(entry?.[2] ?? "").matchAll(/"([^"]*)"|(\S+)/g)].map((word) => word[1] ?? (word[2] as string));
  if (key === "userknownhostsfile") for (const file of values) sshFile(file, here);
  else if (key === "controlpath" && master) sshFile(values[0] ?? "", here);
  else if (key === "localforward") forwardSocket(values[0], here);
  else if ((key === "pkcs11provider" || key === "securitykeyprovider") && !/^(none|internal)$/i.test(values[0] ?? "")) add(here, UNKNOWABLE);
}

/** An ssh `-o` option (scp's and sftp's too): the files it writes here, and the command it runs here. */
export function sshOption(option: string | undefined, master: boolean, here: Walk, nested: Nested[]): void {
  sshOptionWrites(option, master, here);
  const local = option === undefined ? undefined : sshLocalCommand(option);
  if (local !== undefined) nested.push({ script: local, cwd: here.cwd });
}

/** Whether ssh's options make it a control master: -M, or `-o ControlMaster=yes|auto|ask|autoask`. */
export function sshMaster(options: (string | undefined)[], flagged: boolean): boolean {
  return flagged || options.some((option) => option === undefined || /^\s*ControlMaster\s*(?:=\s*|\s+)(?!no\s*$)/i.test(option));
}

/** A local socket a `-L` forward (or LocalForward) makes: its first field, where it is a path. */
function forwardSocket(spec: string | undefined, here: Walk): void {
  if (spec === undefined) return add(here, UNKNOWABLE);
  // A field in brackets is taken whole (`[::1]:8080:…`, an address; `[./s.sock]:…`, a path).
  const first = spec.startsWith("[") ? (/^\[([^\]]*)\]/.exec(spec)?.[1] ?? "") : (spec.split(":")[0] as string);
  if (first.includes("/")) sshFile(first, here);
}

/**
 * A file an ssh option names, as ssh reads it: `~/` its home, `%` tokens (`%h`, `%C`) a name the
 * text does not give in a directory it does (a glob), `${VAR}` any file; `none` no file.
 */
function sshFile(file: string, here: Walk): void {
  if (file === "" || file.toLowerCase() === "none") return;
  if (file.includes("${")) return add(here, UNKNOWABLE);
  const path = file.startsWith("~/") ? join(here.home, file.slice(2)) : file;
  if (!/%[^%]/.test(path.replace(/%%/g, ""))) return add(here, path.replace(/%%/g, "%"));
  add(here, GLOB_MARK + path.replace(/%%|%./g, (token) => (token === "%%" ? "%" : "*")));
}

/**
 * The commands an ssh config file names (ssh's, scp's or sftp's `-F FILE`), read as `-o`'s are:
 * ProxyCommand, LocalCommand and KnownHostsCommand run here, as does `Match exec "cmd"`;
 * RemoteCommand on the host. Each is read whatever Host or Match block holds it. A file the hook
 * cannot read (a name the text does not fix, one not there, one the command writes first), or one
 * that includes others: any file; so is one naming a library to load, as `-o`'s does
 * (sshOptionWrites). `-F none` reads no file.
 */
export function sshConfigRuns(file: string | undefined, here: Walk, nested: Nested[], master = false): void {
  if (file === "none") return;
  const path = directoryAt(here.cwd, file);
  const text = path === undefined || writtenBefore(here, path) ? undefined : readText(path);
  if (text === undefined) return add(here, UNKNOWABLE);
  const lines = text.split(/\r?\n/);
  // Its files written here, as -o's are (sshOptionWrites): a ControlMaster anywhere in it may make this run a master.
  const mastered = sshMaster(lines, master);
  for (const raw of lines) {
    const entry = /^\s*(\w+)(?:\s*=\s*|\s+)(.*)$/.exec(raw);
    if (!entry) continue;
    const keyword = (entry[1] as string).toLowerCase();
    const value = (entry[2] as string).trimEnd();
    sshOptionWrites(raw, mastered, here);
    if (["proxycommand", "localcommand", "knownhostscommand"].includes(keyword)) nested.push({ script: value, cwd: here.cwd });
    else if (keyword === "remotecommand") nested.push({ script: value, cwd: undefined, remote: true });
    else if (keyword === "include") return add(here, UNKNOWABLE);
    else if (keyword === "match") {
      // Its criteria are words, a quoted one whole (`exec "test -f x"`); `exec`'s (or `!exec`'s) is a command line.
      const words = [...value.matchAll(/"((?:[^"\\]|\\.)*)"|([^\s"]+)|"/g)];
      if (words.some((word) => word[1] === undefined && word[2] === undefined)) return add(here, UNKNOWABLE); // a quote left open
      for (const [at, word] of words.entries()) {
        if (!/^!?exec$/i.test(word[2] ?? "")) continue;
        const command = words[at + 1];
        if (command === undefined) return add(here, UNKNOWABLE);
        nested.push({ script: command[1]?.replace(/\\(.)/g, "$1") ?? (command[2] as string), cwd: here.cwd });
      }
    }
  }
}

/**
 * ssh [options] host [options] [cmd…]: the command's words joined (or, with none, a heredoc's
 * lines), run by the remote user's shell from their home: an absolute path it writes is judged as
 * here, since the claims may sit on a filesystem both machines mount; a relative one, or one the
 * text does not give (a pipe), is the remote's. A command its options run here (`-o
 * ProxyCommand=…`, `LocalCommand=…`, or in `-F`'s config: sshConfigRuns) is read as here; `-E log`
 * is written here; `-I`'s PKCS#11 library (not `none`) is loaded, its code run as this user: any
 * file, as `-o PKCS11Provider=` is (sshOptionWrites).
 */
function ssh(launch: Launch): void {
  const { args, here, nested } = launch;
  const before = readOptions(args, SSH, 0, launchText(launch));
  const after = before.end < args.length ? readOptions(args, SSH, before.end + 1, launchText(launch)) : undefined;
  const readings = after === undefined ? [before] : [before, after];
  const master = sshMaster(readings.flatMap((reading) => reading.values("o")), readings.some((reading) => reading.has("M")));
  for (const reading of readings) {
    for (const log of reading.values("E")) add(here, log ?? UNKNOWABLE);
    if (reading.values("I").some((library) => library !== "none")) add(here, UNKNOWABLE);
    for (const config of reading.values("F")) sshConfigRuns(config, here, nested, master);
    for (const socket of master ? reading.values("S") : []) {
      if (socket === undefined) add(here, UNKNOWABLE);
      else sshFile(socket, here);
    }
    for (const forward of reading.values("L")) forwardSocket(forward, here);
    for (const option of reading.values("o")) {
      sshOption(option, master, here, nested);
      const remote = option === undefined ? undefined : /^\s*RemoteCommand\s*[=\s]\s*(.*)$/is.exec(option);
      if (remote) nested.push({ script: remote[1] as string, cwd: undefined, remote: true });
    }
  }
  if (after === undefined || before.has("N", "s", "W", "V", "G", "Q") || after.has("N", "s", "W", "V", "G", "Q")) return; // no host, no command, a subsystem, a forward, queries
  const rest = args.slice(after.end);
  // A login shell there, given a terminal: what is typed into it runs there (the host may be this one).
  // (Not with -T, no terminal asked for there: `ssh -T git@github.com`, the usual check of a key.)
  // With a command, its input is this terminal unless ssh is given one (or -n, -f): a program there reading it takes what is typed here (`ssh host tmux`).
  const terminal = here.shared.terminal === true && !launch.input && !before.has("n", "f") && !after.has("n", "f");
  if (rest.length === 0 && terminal && !before.has("T") && !after.has("T")) readsTerminal(here);
  if (rest.length > 0) {
    if (rest.every((arg): arg is string => arg !== undefined)) nested.push({ script: rest.join(" "), cwd: undefined, remote: true, terminal });
  } else if (launch.stdin !== undefined) nested.push({ script: launch.stdin, cwd: undefined, remote: true });
}

/**
 * What a build, `save` or `export` writes here: `build -o DIR` (`--output`, `type=local,dest=DIR`)
 * everything under DIR, `type=tar,dest=f.tar` (or `oci`, `docker`) that file; its `--iidfile`,
 * `--metadata-file` and a `--cache-to type=local,dest=DIR`; `save -o f.tar` and `export -o f.tar`
 * (`image save`, `container export`, `buildx build`, `builder build`, `buildx bake`). `-` is stdout.
 */
function containerOutputs(args: Array<string | undefined>, at: number): string[] {
  let sub = at;
  if (["image", "buildx", "builder"].includes(args[sub] ?? "")) sub++;
  const verb = args[sub];
  const build = verb === "build" || verb === "b" || verb === "bake";
  if (!build && verb !== "save" && verb !== "export") return [];
  const written: string[] = [];
  const valuesOf = (names: string[]) =>
    args.flatMap((arg, index) => {
      if (index <= sub || arg === undefined) return names.some((name) => args[index - 1] === name) && index > sub + 1 ? [undefined] : [];
      const long = names.find((name) => name.startsWith("--") && arg.startsWith(`${name}=`));
      if (long !== undefined) return [arg.slice(long.length + 1)];
      const short = names.find((name) => !name.startsWith("--") && arg.startsWith(name) && arg.length > name.length);
      if (short !== undefined) return [arg.slice(short.length).replace(/^=/, "")];
      return names.includes(args[index - 1] ?? "") && index > sub + 1 ? [arg] : [];
    });
  for (const value of valuesOf(["-o", "--output"])) {
    if (value === undefined) written.push(UNKNOWABLE);
    else if (value === "-") continue;
    else if (!build) written.push(value);
    else if (!value.includes("=")) written.push(anyUnder(value));
    else {
      const fields = Object.fromEntries(value.split(",").map((field) => [field.split("=")[0] ?? "", field.slice(field.indexOf("=") + 1)]));
      const dest = fields.dest;
      const type = fields.type ?? "local";
      if (dest === undefined || dest === "-") continue; // an image pushed or loaded: nothing here
      written.push(type === "local" ? anyUnder(dest) : dest);
    }
  }
  if (build) {
    for (const value of valuesOf(["--iidfile", "--metadata-file"])) written.push(value ?? UNKNOWABLE);
    for (const value of valuesOf(["--cache-to"])) {
      if (value === undefined) written.push(UNKNOWABLE);
      else if (/(^|,)type=local(,|$)/.test(value)) {
        const dest = /(?:^|,)dest=([^,]*)/.exec(value)?.[1];
        written.push(dest === undefined ? UNKNOWABLE : anyUnder(dest));
      }
    }
  }
  return written;
}

/** docker's (podman's, nerdctl's) own options before its subcommand. */
const CONTAINER_TOOL: Syntax = { short: "c:H:l:", long: { context: "c", host: "H", "log-level": "l", ...valuedLong("config tlscacert tlscert tlskey") }, ordered: true };

/** `run`'s options that take a value; any other is a flag. Options end at the image. */
const CONTAINER_RUN: Syntax = {
  short: "a:c:e:h:l:m:p:u:v:w:",
  long: {
    ...valuedLong(`add-host annotation blkio-weight cap-add cap-drop cgroup-parent cgroupns cidfile cpu-period cpu-quota cpus cpuset-cpus
      cpuset-mems device dns dns-option dns-search domainname entrypoint env-file expose gpus group-add health-cmd health-interval
      health-retries health-start-period health-timeout ip ip6 ipc isolation label-file link log-driver log-opt mac-address
      memory-reservation memory-swap mount name network network-alias pid pids-limit platform pull restart runtime security-opt
      shm-size stop-signal stop-timeout storage-opt sysctl tmpfs ulimit userns uts volume-driver volumes-from detach-keys memory-swappiness
      oom-score-adj kernel-memory cpu-rt-period cpu-rt-runtime device-cgroup-rule device-read-bps device-write-bps device-read-iops
      device-write-iops blkio-weight-device pod arch os variant secret requires systemd tz umask uidmap gidmap subuidname subgidname
      passwd-entry group-entry hostuser personality preserve-fds rdt-class chrootdirs decryption-key conmon-pidfile pidfile init-path
      image-volume sdnotify seccomp-policy timeout`),
    attach: "a",
    "cpu-shares": "c",
    env: "e",
    hostname: "h",
    label: "l",
    memory: "m",
    publish: "p",
    user: "u",
    volume: "v",
    workdir: "w",
  },
  ordered: true,
};

type Mount = { container: string; host: string | undefined; unknown?: true };

/** The mounts of a container the text and the files do not tell: whatever its command writes may be any file here. */
const UNKNOWN_MOUNTS: Mount = { container: "/", host: undefined, unknown: true };

/**
 * docker run [options] image [cmd…]: the command, run by the image's entrypoint (taken to run it, as
 * the language images' do), read as a script whose paths are the container's: a write under a
 * bind mount that is not read-only (`-v src:/src`, `--mount type=bind,source=…,target=…`) is a
 * write of the mount's source here, and anything else stays in the container. No command: the
 * image's own, anything under each such mount. `--cidfile` is written here.
 */
function containerRun(launch: Launch): void {
  const { args, here } = launch;
  const tool = readOptions(args, CONTAINER_TOOL, 0, launchText(launch));
  let at = tool.end;
  if (args[at] === "container") at++;
  // `docker compose [options] cp`: a service's container, copied from as docker cp does.
  if (args[at] === "compose") {
    const project = readOptions(args, COMPOSE, at + 1, launchText(launch));
    at = project.end;
    if (args[at] === "exec" || args[at] === "run") return composeService(launch, project, at);
  }
  if (args[at] === "cp") return containerCopy(args.slice(at + 1), here);
  for (const file of containerOutputs(args, at)) add(here, file);
  if (args[at] !== "run") return; // exec, build, ps…: commands of a container made elsewhere, or none
  const reading = readOptions(args, CONTAINER_RUN, at + 1, launchText(launch));
  for (const file of [...reading.values("cidfile"), ...reading.values("pidfile"), ...reading.values("conmon-pidfile")]) add(here, file ?? UNKNOWABLE);
  if (reading.has("volumes-from")) add(here, UNKNOWABLE); // another container's mounts: places the text does not give
  const mounts: Mount[] = [];
  for (const { value, at: index, text } of reading.occurrences("v")) {
    const mount = volume(value ?? unfixedSource(index === undefined ? text?.replaceAll(HOLE, "$x") : launch.words[index]?.text), here);
    if (mount) mounts.push(mount);
  }
  for (const value of reading.values("mount")) {
    const mount = bindMount(value, here);
    if (mount) mounts.push(mount);
  }
  if (mounts.length === 0) return;
  const entrypoint = reading.value("entrypoint");
  const image = reading.end;
  if (image + 1 >= args.length && entrypoint === undefined) {
    for (const { host } of mounts) add(here, host === undefined ? UNKNOWABLE : anyUnder(host));
    return;
  }
  const words = launch.words.slice(image + 1).map((word) => word.text);
  // A workdir under a mount is its source here (`-v "$PWD":/app -w /app`: a package's scripts are read from it).
  const workdir = reading.value("w");
  launch.nested.push({ script: [...(entrypoint === undefined ? [] : [entrypoint]), ...words].join(" "), cwd: workdir?.startsWith("/") ? onHost(workdir, mounts, true)[0] ?? workdir : undefined, mounts });
}

/** `docker compose`'s own options before its subcommand. */
const COMPOSE: Syntax = {
  short: "f:p:H:c:",
  long: {
    file: "f",
    "project-name": "p",
    host: "H",
    context: "c",
    // docker compose's, Compose v1's (docker-compose), and podman-compose's.
    ...valuedLong(`project-directory env-file profile ansi parallel progress log-level tlscacert tlscert tlskey in-pod pod-args podman-path
      podman-args podman-pull-args podman-push-args podman-build-args podman-inspect-args podman-run-args podman-start-args podman-stop-args
      podman-rm-args podman-volume-args`),
  },
  ordered: true,
};

/** `docker compose exec` and `run`'s options that take a value; any other is a flag. Options end at the service. */
const COMPOSE_SERVICE: Syntax = {
  short: "e:l:p:u:v:w:",
  long: { env: "e", label: "l", publish: "p", user: "u", volume: "v", workdir: "w", ...valuedLong("entrypoint name index cap-add cap-drop pull env-from-file") },
  ordered: true,
};

/** The file names `docker compose` looks for, in its order, and the override it merges with the one found. */
const COMPOSE_FILES = ["compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"];

/**
 * `docker compose exec SERVICE cmd…` and `docker compose run SERVICE [cmd…]`: the command runs in
 * the service's container, with the bind mounts its compose file gives it (`volumes:`, short or
 * long syntax; not read-only ones nor named volumes) and run's own `-v`; read with the container's
 * paths as `docker run`'s command is, from its `-w`, else the service's `working_dir`. Run with no
 * command runs the service's `command:`, else the image's (anything under each mount). Where the
 * mounts are not known (composeDefinition: a compose file it cannot read or the command writes
 * first, a service it does not define or the text does not fix), whatever the command writes could
 * be any file here; what it writes nothing with (`exec db psql`) is nothing.
 */
function composeService(launch: Launch, project: Reading, at: number): void {
  const { args, here } = launch;
  const reading = readOptions(args, COMPOSE_SERVICE, at + 1, launchText(launch));
  const service = args[reading.end];
  if (service === undefined && reading.end >= args.length) return; // no service: compose refuses
  // A service the text does not fix (`exec "$s" …`) is one whose mounts are not known.
  const defined = service === undefined ? undefined : composeDefinition(project, service, here);
  if (defined === "none") return; // no compose file to be found: compose runs nothing
  // Mounts not known: a path the command writes could be any file here (onHost).
  const mounts: Mount[] = defined === undefined ? [UNKNOWN_MOUNTS] : [...defined.mounts];
  if (args[at] === "run") {
    for (const { value, at: index, text } of reading.occurrences("v")) {
      const mount = volume(value ?? unfixedSource(index === undefined ? text?.replaceAll(HOLE, "$x") : launch.words[index]?.text), here);
      if (mount) mounts.push(mount);
    }
  }
  if (mounts.length === 0) return;
  // The command's words as written (`sh -c 'rm /app/u.ts'`): read as a script, as docker run's are.
  const rest = launch.words.slice(reading.end + 1).map((word) => word.text);
  const entrypoint = args[at] === "run" ? (reading.has("entrypoint") ? reading.value("entrypoint") : defined?.entrypoint) : undefined;
  const command = rest.length > 0 ? rest.join(" ") : args[at] === "run" ? defined?.command : undefined;
  // No command (the image's own runs), or an entrypoint the text does not fix: anything under each mount.
  if ((command === undefined && entrypoint === undefined) || (reading.has("entrypoint") && entrypoint === undefined)) {
    if (args[at] === "run") for (const mount of mounts) add(here, mount.host === undefined ? UNKNOWABLE : anyUnder(mount.host));
    return;
  }
  const workdir = reading.value("w") ?? defined?.workdir;
  const script = [...(entrypoint === undefined ? [] : [entrypoint]), ...(command === undefined ? [] : [command])].join(" ");
  launch.nested.push({ script, cwd: workdir?.startsWith("/") ? onHost(workdir, mounts, true)[0] ?? workdir : undefined, mounts });
}

interface ComposeService {
  mounts: Mount[];
  workdir: string | undefined;
  command: string | undefined;
  entrypoint: string | undefined;
}

/**
 * What the project's compose files say of a service, merged in their order; undefined where they
 * cannot be read; "none" where no file is there to be found (`COMPOSE_FILE` set outside the
 * command aside, compose then refuses).
 */
function composeDefinition(project: Reading, name: string, here: Walk): ComposeService | undefined | "none" {
  // COMPOSE_FILE set by the command (`COMPOSE_FILE=a.yml:b.yml docker compose …`) names the files as -f does.
  const variable = here.environment.COMPOSE_FILE;
  const given = project.has("f") ? project.values("f") : variable !== undefined ? variable.split(here.environment.COMPOSE_PATH_SEPARATOR ?? ":") : [];
  if (given.some((file) => file === undefined || file === "-" || file.includes(HOLE))) return undefined;
  const projectDirectory = project.value("project-directory");
  if (project.has("project-directory") && projectDirectory === undefined) return undefined;
  let files: string[];
  if (given.length > 0) files = given.map((file) => directoryAt(here.cwd, file)).filter((file): file is string => file !== undefined);
  else {
    const start = projectDirectory === undefined ? here.cwd : directoryAt(here.cwd, projectDirectory);
    if (start === undefined) return undefined;
    const found = composeFileAbove(start, here);
    if (found === undefined) return "none";
    // A COMPOSE_FILE in the project's .env names other files.
    if (/^\s*(export\s+)?COMPOSE_FILE\s*=/m.test(readText(join(dirname(found), ".env")) ?? "")) return undefined;
    const override = ["compose.override.yaml", "compose.override.yml", "docker-compose.override.yaml", "docker-compose.override.yml"].map((name) => join(dirname(found), name)).find((path) => isFile(path) || writtenBefore(here, path));
    files = [found, ...(override === undefined ? [] : [override])];
  }
  if (files.length !== Math.max(given.length, 1) && given.length > 0) return undefined;
  const first = files[0];
  if (first === undefined) return undefined;
  // Relative sources are relative to the project directory: --project-directory, else the first file's.
  const base = projectDirectory === undefined ? dirname(first) : directoryAt(here.cwd, projectDirectory);
  if (base === undefined) return undefined;
  const merged: ComposeService = { mounts: [], workdir: undefined, command: undefined, entrypoint: undefined };
  let defined = false;
  for (const file of files) {
    if (writtenBefore(here, file)) return undefined;
    const text = readText(file);
    const document = text === undefined ? undefined : readYaml(text);
    if (!isMapping(document)) return undefined;
    const services = document.services;
    if (services === undefined) continue;
    if (!isMapping(services)) return undefined;
    const service = services[name];
    if (service === undefined) continue;
    if (!isMapping(service) || service.extends !== undefined || service.volumes_from !== undefined) return undefined;
    defined = true;
    const volumes = service.volumes ?? [];
    if (!Array.isArray(volumes)) return undefined;
    for (const entry of volumes) {
      const mount = composeVolume(entry, base, here);
      if (mount === false) return undefined;
      if (mount !== undefined) merged.mounts.push(mount);
    }
    if (typeof service.working_dir === "string") merged.workdir = service.working_dir;
    for (const key of ["command", "entrypoint"] as const) {
      const value = service[key];
      if (value === undefined) continue;
      const line = typeof value === "string" ? value : Array.isArray(value) && value.every((word) => typeof word === "string") ? (value as string[]).map(shellQuoted).join(" ") : undefined;
      if (line === undefined) return undefined;
      merged[key] = line;
    }
  }
  return defined ? merged : undefined;
}

/** The compose file `docker compose` finds from a directory: there, else in the nearest directory above holding one (or one the command writes first). */
function composeFileAbove(start: string | undefined, here: Walk): string | undefined {
  for (let directory = start; directory !== undefined; directory = dirname(directory) === directory ? undefined : dirname(directory)) {
    for (const name of COMPOSE_FILES) if (isFile(join(directory, name)) || writtenBefore(here, join(directory, name))) return join(directory, name);
  }
  return undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * A service's `volumes:` entry: `SRC:DST[:MODE]` or `{type: bind, source, target, read_only}`. A
 * bind mount that is not read-only, its relative source under the project directory; undefined for
 * a named volume or a read-only one; false for one this reader cannot read (a variable other than
 * PWD in it: the service's mounts are then not known).
 */
function composeVolume(entry: YamlValue, base: string, here: Walk): Mount | undefined | false {
  let source: string | undefined;
  let target: string | undefined;
  let readOnly = false;
  if (typeof entry === "string") {
    // A variable in it (`${SRC:-..}:/app`, `.:${APP}`): where it binds, the text does not say (PWD aside).
    const spelled = entry.replace(/^\$\{PWD\}|^\$PWD(?![\w])/, here.cwd ?? "$");
    if (spelled.includes("$")) return false;
    const parts = spelled.split(":");
    if (parts.length === 1) return undefined; // an anonymous volume
    [source, target] = parts as [string, string];
    readOnly = (parts[2] ?? "").split(",").some((option) => option === "ro" || option === "readonly");
  } else if (isMapping(entry)) {
    if (entry.type !== "bind") return entry.type === undefined || typeof entry.type === "string" ? undefined : false;
    source = typeof entry.source === "string" ? entry.source : undefined;
    target = typeof entry.target === "string" ? entry.target : undefined;
    readOnly = entry.read_only === "true";
  } else return false;
  if (source === undefined || target === undefined || !target.startsWith("/")) return false;
  if (readOnly) return undefined;
  source = source.replace(/^\$\{PWD\}|^\$PWD(?![\w])/, here.cwd ?? "$");
  if (source.includes("$") || target.includes("$")) return false;
  if (!/^[/.~]/.test(source)) return undefined; // a named volume
  return { container: bare(target), host: hostPath(source, here, base) };
}

function isMapping(value: YamlValue | undefined): value is { [key: string]: YamlValue } {
  return value !== undefined && typeof value === "object" && !Array.isArray(value);
}

/** `docker-compose …` (`podman-compose …`), read as `docker compose …`. */
function composeRun(launch: Launch): void {
  containerRun({ ...launch, args: ["compose", ...launch.args], words: [launch.words[0] as Node, ...launch.words] });
}

/**
 * `docker cp CONTAINER:SRC DEST`: what it copies out lands here, as cp would put it (into DEST when
 * it is a directory, else at DEST), a file or a tree (SRC may be a directory there: anything under
 * where it lands; `SRC/.`, its contents into DEST). A copy into the container writes nothing here.
 */
function containerCopy(args: Array<string | undefined>, here: Walk): void {
  const operands = args.filter((arg) => arg === undefined || !/^-[aLq]+$|^--(archive|follow-link|quiet)$/.test(arg));
  const [source, destination] = operands;
  // A path in the container is `name:path` (a path here has no colon before its first slash).
  const container = (arg: string | undefined) => arg !== undefined && /^[^/.][^/:]*:/.test(arg);
  if (operands.length !== 2 || destination === "-" || container(destination) || (source !== undefined && !container(source))) return;
  const place = destination === undefined ? undefined : directoryAt(here.cwd, destination);
  if (place === undefined || destination === undefined) return add(here, UNKNOWABLE);
  if (source === undefined) return add(here, anyUnder(place)); // "$c:/app/x": a name the text does not give
  const inside = source.slice(source.indexOf(":") + 1);
  let directory = destination.endsWith("/");
  try {
    directory ||= statSync(place).isDirectory();
  } catch {
    // not there yet: made by the copy
  }
  const landed = directory && !/(^|\/)\.\/?$/.test(inside) ? join(place, basename(inside.replace(/\/+$/, "")) || ".") : place;
  add(here, landed);
  add(here, anyUnder(landed));
}

/** `"$d":/src[:ro]`, a source the text does not fix before a target it does: `\0:/src[:ro]`. */
function unfixedSource(text: string | undefined): string | undefined {
  const target = text === undefined ? undefined : /^["']?[$`][^:]*:(\/[\w./-]*)(:[\w,]+)?["']?$/.exec(text);
  return target ? `\0:${target[1]}${target[2] ?? ""}` : undefined;
}

/** `-v SRC:DST[:opts]`: a bind mount of SRC (a path, not a named volume), unless read-only. */
function volume(value: string | undefined, here: Walk): Mount | undefined {
  if (value === undefined) return { container: "/", host: undefined }; // "$v": anything, anywhere
  const [source = "", target, options = ""] = value.split(":");
  if (target === undefined || !target.startsWith("/") || options.split(",").includes("ro") || options.split(",").includes("readonly")) return undefined;
  if (source === "\0") return { container: bare(target), host: undefined };
  if (!/^[/.~]/.test(source)) return undefined; // a named volume: the container engine's, not a file here
  return { container: bare(target), host: hostPath(source, here) };
}

/** `--mount type=bind,source=…,target=…[,readonly]`. */
function bindMount(value: string | undefined, here: Walk): Mount | undefined {
  if (value === undefined) return { container: "/", host: undefined };
  const fields = new Map(value.split(",").map((field) => [field.slice(0, field.indexOf("=") === -1 ? field.length : field.indexOf("=")), field.slice(field.indexOf("=") + 1)]));
  if ((fields.get("type") ?? "volume") !== "bind" || fields.has("ro") || fields.has("readonly") && fields.get("readonly") !== "false") return undefined;
  const source = fields.get("source") ?? fields.get("src");
  const target = fields.get("target") ?? fields.get("destination") ?? fields.get("dst");
  if (source === undefined || target === undefined || !target.startsWith("/")) return undefined;
  return { container: bare(target), host: hostPath(source, here) };
}

function hostPath(source: string, here: Walk, base = here.cwd): string | undefined {
  if (source.startsWith("~")) return here.home.startsWith("/") ? bare(join(here.home, source.slice(1))) : undefined; // (a HOME the script set to a place unknown)
  if (source.startsWith("/")) return bare(source);
  return base === undefined ? undefined : bare(join(base, source));
}

/** A mount's path without a trailing slash (`-v ./:/app/`): mounts are compared by their paths. */
function bare(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") || "/" : path;
}

/**
 * Where a path a container's command writes is here: under a mount, at its source (one whose
 * source the text does not fix, by its name there); above one (`rm -rf /`, a glob over `/`), all
 * of it; elsewhere, nowhere here. A path in a place in the container the text does not fix: by its
 * name under each mount's source. One already here (under a source, from a workdir taken there)
 * stays; `containerOnly`: a container path only (the workdir itself).
 */
export function onHost(path: string, mounts: Mount[], containerOnly = false): string[] {
  if (mounts.some((mount) => mount.unknown)) return containerOnly ? [] : [UNKNOWABLE];
  const found: string[] = [];
  if (path.startsWith(UNKNOWN_MARK)) {
    // A place in the container the text does not fix: under some mount, as far as this host goes.
    const rest = path.slice(UNKNOWN_MARK.length);
    for (const { host } of mounts) found.push(host === undefined ? path : rest === "." ? anyUnder(host) : GLOB_MARK + join(host, "**", rest));
    return found;
  }
  const glob = path.startsWith(GLOB_MARK);
  const bare = glob ? path.slice(GLOB_MARK.length) : path;
  const base = glob ? picomatch.scan(bare).base || "/" : bare;
  for (const { container, host } of mounts) {
    // Already a path here: from a workdir taken to its mount's source.
    if (!containerOnly && host !== undefined && (base === host || base.startsWith(`${host}/`))) {
      found.push(path);
      continue;
    }
    const under = `${container.replace(/\/$/, "")}/`;
    if (bare === container || bare.startsWith(under)) {
      const rest = bare.slice(under.length);
      found.push(host === undefined ? (rest === "" ? UNKNOWABLE : UNKNOWN_MARK + rest) : glob ? GLOB_MARK + join(host, rest) : rest === "" ? host : join(host, rest));
    } else if (container.startsWith(base === "/" ? "/" : `${base}/`)) found.push(host === undefined ? UNKNOWABLE : anyUnder(host));
  }
  return found;
}

const SYSTEMD_RUN: Syntax = {
  short: "E:H:M:p:u:",
  long: {
    ...valuedLong(`description slice unit property uid gid nice setenv on-active on-boot on-startup on-unit-active on-unit-inactive on-calendar working-directory
      service-type timer-property path-property socket-property job-mode background`),
    "same-dir": "d",
    host: "H",
    machine: "M",
    scope: "",
    user: "",
  },
  ordered: true,
};

/** systemd-run [options] cmd…: in a transient unit, from `/` (or home) unless `--same-dir`, `--scope` or `--working-directory`; on another host or machine, not here. */
function systemdRun(launch: Launch): void {
  const reading = readOptions(launch.args, SYSTEMD_RUN, 0, launchText(launch));
  if (reading.has("H", "M")) return;
  const cwd = reading.has("d", "scope") ? launch.here.cwd : reading.has("working-directory") ? directoryAt(launch.here.cwd, reading.value("working-directory")) : undefined;
  command({ ...launch, here: { ...launch.here, cwd } }, reading.end);
}

/** tmux commands that run other tmux commands: from a file, a string, a hook, a key or a prompt. */
const TMUX_RUNS_COMMANDS = new Set(["source-file", "source", "if-shell", "if", "set-hook", "bind-key", "bind", "confirm-before", "confirm", "command-prompt", "display-menu", "menu"]);

/** tmux's own options, and each command's options that take a value (the rest are flags). */
const TMUX: Syntax = { short: "c:f:L:S:T:", ordered: true };
const TMUX_COMMANDS: Record<string, string> = {
  "new-session": "c:e:F:f:n:s:t:x:y:",
  new: "c:e:F:f:n:s:t:x:y:",
  "new-window": "c:e:F:n:t:",
  neww: "c:e:F:n:t:",
  "split-window": "c:e:F:l:t:",
  splitw: "c:e:F:l:t:",
  "respawn-pane": "c:e:t:",
  respawnp: "c:e:t:",
  "respawn-window": "c:e:t:",
  respawnw: "c:e:t:",
  "run-shell": "c:d:t:",
  run: "c:d:t:",
  "display-popup": "b:c:d:e:h:s:S:t:T:w:x:y:",
  popup: "b:c:d:e:h:s:S:t:T:w:x:y:",
  "send-keys": "c:N:t:",
  send: "c:N:t:",
  // What a pane prints, piped to a shell command (`pipe-pane -o 'cat >> log'`).
  "pipe-pane": "t:",
  pipep: "t:",
};

/**
 * tmux [-c cmd] [command [options] [shell-command]] [\; command …]: the shell command a new session,
 * window, pane, popup or run-shell runs (from `-c`'s directory, else here), and the keys send-keys
 * types (Enter a new line).
 */
function tmux(launch: Launch): void {
  const text = launchText(launch);
  const global = readOptions(launch.args, TMUX, 0, text);
  tmuxCommands(launch, launch.args, global, text);
  // A word that may be an option the text does not name (`tmux -"$x" new …`): read as each it may be,
  // each command line once (a walk reads so many scripts: shell-walk.ts).
  const before = launch.nested.length;
  for (const guess of guessedArguments(launch.args, TMUX, global, text)) tmuxCommands(launch, guess.args, readOptions(guess.args, TMUX, 0, guess.text), guess.text);
  const seen = new Set(launch.nested.slice(0, before).map((run) => `${run.cwd}\0${run.script}`));
  const guessed = launch.nested.splice(before).filter((run) => !seen.has(`${run.cwd}\0${run.script}`) && seen.add(`${run.cwd}\0${run.script}`));
  launch.nested.push(...guessed);
}

/** tmux's commands, from its arguments (`args`, their text `text`) read by its options (`global`). */
function tmuxCommands(launch: Launch, args: Array<string | undefined>, global: Reading, text: (at: number) => string | undefined): void {
  const { here, nested } = launch;
  // A config file of its own (`-f x.conf`), whose commands may run shell commands: not read.
  if (global.values("f").some((file) => file !== "/dev/null")) add(here, UNKNOWABLE);
  const shell = global.value("c");
  if (global.has("c")) nested.push({ script: shell ?? ":", cwd: here.cwd });
  if (global.has("c") && shell === undefined) add(here, UNKNOWABLE);
  let at = global.end;
  while (at < args.length) {
    const name = args[at] ?? "";
    let end = at + 1;
    while (end < args.length && args[end] !== ";" && !(args[end] ?? "").endsWith("\\;")) end++;
    const flags = TMUX_COMMANDS[name];
    // Commands that run tmux commands the hook does not read, from a file or a string of their own
    // (`source-file x.conf`, `if-shell 'test' 'run-shell …'`, `set-hook`, `bind-key`), which may run shell commands.
    if (TMUX_RUNS_COMMANDS.has(name)) add(here, UNKNOWABLE);
    if (flags !== undefined) {
      const part = args.slice(at + 1, end);
      const reading = readOptions(part, { short: flags, ordered: true }, 0, (index) => text(at + 1 + index));
      const rest = part.slice(reading.end);
      // A new session starts here; a pane keys are typed into, or a new window, is taken to be in the project too (its own cwd is not in the text).
      const cwd = reading.has("c") ? directoryAt(here.cwd, reading.value("c")) : here.cwd;
      if (rest.some((word) => word === undefined)) add(here, UNKNOWABLE);
      else if (name === "send-keys" || name === "send") {
        const typed = (rest as string[]).map((key) => (/^(Enter|C-m|KPEnter)$/.test(key) ? "\n" : /^([CMS]-\S|Escape|Tab|Space|BSpace|Up|Down|Left|Right|Home|End|F\d+)$/.test(key) ? " " : key)).join(reading.has("l") ? "" : " ");
        nested.push({ script: typed, cwd });
      } else if (rest.length > 0) nested.push({ script: rest.join(" "), cwd });
    }
    at = end + 1;
  }
}

/** screen's options that take a value; -r, -x, -R and -d may be followed by a session's name. */
const SCREEN: Syntax = { short: "c:e:h:p:S:T:t:" };
/** screen -X commands that write nothing here: sessions, windows and their display. */
const SCREEN_QUIET = /^(quit|detach|pow_detach|kill|select|next|prev|other|title|windows|info|number|clear|redisplay|lockscreen|width|height|fit|focus|only|remove|split|resize|colon|help|license|version|time|echo|msgwait|msgminwait|sessionname|displays|dinfo|stuffc?)$/;

/**
 * screen [options] [cmd…]: a window running cmd (with none, a shell: shell-terminal.ts); `-L
 * -Logfile f` writes f. With `-X`, a command sent to a running session instead (after its `-S`,
 * `-r` or `-x` name): `stuff TEXT` types TEXT into its window, whose shell runs it (`\n`, `\r`, `^M`
 * an Enter, as tmux send-keys); `screen cmd…` and `exec cmd…` run cmd there; `hardcopy`, `writebuf`
 * and `logfile` write their file; `eval`, `at`, `source`, `paste` and any other command may do
 * anything, as may keys bound or registers pasted.
 */
function screen(launch: Launch): void {
  const { args, here, nested } = launch;
  const logfile = args.indexOf("-Logfile");
  if (logfile !== -1) add(here, args[logfile + 1] ?? UNKNOWABLE);
  const sent = args.indexOf("-X");
  if (sent === -1) {
    if (args.some((arg) => arg !== undefined && /^-[a-zA-Z]*[rxRD]/.test(arg) && !/m/.test(arg))) return; // attaches: a shell typed into (shell-terminal.ts)
    const kept = [...args.keys()].filter((at) => args[at] !== "-Logfile" && args[at - 1] !== "-Logfile");
    const text = launchText(launch);
    const reading = readOptions(kept.map((at) => args[at]), { ...SCREEN, ordered: true }, 0, (index) => text(kept[index] as number));
    // Its startup file (`-c ./rc`, else SCREENRC's): the commands it runs as it starts.
    if (reading.has("c") || Object.hasOwn(here.environment, "SCREENRC")) screenRc(reading.has("c") ? reading.value("c") : here.environment.SCREENRC, launch);
    // (A word that may be an option the text does not name, `screen -"$x" cmd`, ends the options: the command, a word the text does not fix, is any.)
    const rest = kept.slice(reading.end).map((at) => args[at]);
    if (rest.length > 0) joined({ ...launch, args: rest }, 0, here.cwd);
    return;
  }
  const command = args[sent + 1];
  const rest = args.slice(sent + 2);
  if (command === undefined) return add(here, UNKNOWABLE);
  if (command === "screen" || command === "exec") return joined({ ...launch, args: rest }, 0, here.cwd);
  if (command === "stuff") {
    if (rest.some((word) => word === undefined)) return add(here, UNKNOWABLE);
    nested.push({ script: (rest as string[]).join(" ").replace(/\\[nr]|\^[MJ]/g, "\n"), cwd: here.cwd });
    return;
  }
  if (/^(hardcopy|writebuf|logfile)$/.test(command)) {
    // hardcopy [-h] [file], writebuf [file], logfile file: their file here, else one of screen's names.
    const file = rest.filter((word) => word !== "-h")[0];
    return add(here, file === undefined ? (command === "writebuf" ? "/tmp/screen-exchange" : UNKNOWABLE) : file);
  }
  if (!SCREEN_QUIET.test(command)) add(here, UNKNOWABLE);
}

/**
 * What a screenrc has screen do as it starts: `screen [options] [n] cmd …` and `exec [fdpat] cmd …`
 * run cmd (read in turn); a setting of how it looks or behaves (SCREENRC_SETTINGS) does nothing
 * here; any other command (`source`, `shell`, `setenv`, `backtick`, `stuff`, `logfile`, `chdir`) may
 * run or write anything, as may a file the text does not fix or the command writes in a way it
 * does not give. None there: screen starts without it.
 */
function screenRc(file: string | undefined, launch: Launch): void {
  const { here, nested } = launch;
  const path = file === "" ? undefined : directoryAt(here.cwd, file);
  if (file === "") return;
  const text = path === undefined ? UNKNOWABLE : configText(path, here);
  if (text === UNKNOWABLE) return add(here, UNKNOWABLE);
  if (text === undefined) return;
  for (const line of text.split("\n")) {
    const words = line.trim().split(/\s+/).filter((word) => word !== "");
    const [command, ...rest] = words;
    if (command === undefined || command.startsWith("#")) continue;
    if (/\\$/.test(line)) return add(here, UNKNOWABLE); // a command continued on the next line
    if (command === "screen") {
      const reading = readOptions(rest, { ...SCREEN, ordered: true }, 0, (at) => rest[at]);
      const from = /^\d+$/.test(rest[reading.end] ?? "") ? reading.end + 1 : reading.end;
      if (from < rest.length) nested.push({ script: rest.slice(from).join(" "), cwd: here.cwd });
    } else if (command === "exec") {
      const from = /^[.!:|]+$/.test(rest[0] ?? "") ? 1 : 0;
      if (from < rest.length) nested.push({ script: rest.slice(from).join(" "), cwd: here.cwd });
    } else if (!SCREENRC_SETTINGS.test(command)) return add(here, UNKNOWABLE);
  }
}

/** screenrc commands that set how screen looks or takes keys, and run and write nothing. */
const SCREENRC_SETTINGS =
  /^(startup_message|defscrollback|scrollback|hardstatus|caption|termcapinfo|termcap|terminfo|term|vbell|vbell_msg|vbellwait|bell_msg|activity|escape|defescape|altscreen|autodetach|defutf8|utf8|defencoding|encoding|cjkwidth|shelltitle|msgwait|msgminwait|attrcolor|defbce|bce|defflow|flow|defnonblock|nonblock|nethack|sorendition|rendition|silencewait|defmonitor|monitor|defsilence|silence|truecolor|mousetrack|defmousetrack|focusminsize|defwrap|wrap|defc1|c1|defgr|gr|defkanji|kanji|defobuflimit|obuflimit|deflogin|login|ignorecase|verbose|allpartial|partial|defhstatus|hstatus|title|select|split|focus|resize|only|remove|fit|number|width|height|maxwin|defmode|defautonuke|autonuke|bind|bindkey|unbindall|markkeys|crlf|windowlist|sessionname|compacthist|defdynamictitle|dynamictitle|zombie|defzombie|pow_detach_msg|defslowpaste|slowpaste|breaktype|defbreaktype|digraph|time|echo|sleep|clear|redisplay)$/;

/** at [-f file] time / batch: the job (a heredoc's lines, or the file) runs later, from here. */
function at(launch: Launch): void {
  const { args, here, nested } = launch;
  const reading = readOptions(args, { short: "f:q:t:" }, 0, launchText(launch));
  if (reading.has("l", "r", "d", "c", "V")) return; // lists, removes or shows jobs
  if (reading.has("f")) {
    const file = reading.value("f");
    // (One the command writes first: the text it gives, else any file; not what the disk held before.)
    const path = directoryAt(here.cwd, file);
    const text = path === undefined ? undefined : configText(path, here);
    if (text === undefined || text === UNKNOWABLE) add(here, UNKNOWABLE);
    else nested.push({ script: text, cwd: here.cwd });
  } else if (launch.stdin !== undefined && !launch.stdin.includes(HOLE)) nested.push({ script: launch.stdin, cwd: here.cwd });
  else add(here, UNKNOWABLE); // from a pipe, a file or the terminal; or a job with a part the text does not fix (`at now <<< "$job"`), which sh reads again
}

/**
 * crontab FILE, `crontab -` (or no file: its input): the table it installs, whose jobs cron runs
 * later from the user's home; each job's command read as a line run there (a `%` ends the command:
 * what follows is its input). A table from a pipe, the terminal or a file the hook cannot read: any
 * file. `-l`, `-r`, `-n`, `-T` install nothing; `-e` is an editor's (shell-editors.ts).
 */
function crontab(launch: Launch): void {
  const { args, here, nested } = launch;
  const reading = readOptions(args, { short: "u:s:c:" }, 0, launchText(launch));
  if (reading.has("l", "r", "e", "n", "T", "V", "h")) return;
  const operand = reading.operands[0];
  const file = operand === undefined ? "-" : args[operand];
  let table: string | undefined;
  if (file === "-" || file === "/dev/stdin") {
    table = launch.stdin !== undefined && !launch.stdin.includes(HOLE) ? launch.stdin : launch.piped && launch.node !== undefined ? pipedCronTable(launch.node, here, reading.has("u") ? (reading.value("u") ?? "\0unfixed") : undefined) : undefined;
  }
  else {
    // (One the command writes first, by text it gives: that text.)
    const path = file === undefined ? undefined : directoryAt(here.cwd, file);
    const text = path === undefined ? undefined : configText(path, here);
    table = text === UNKNOWABLE ? undefined : text;
  }
  if (table === undefined) return add(here, UNKNOWABLE);
  // (Another user's table, `-u bob`: its jobs run from that user's home, a place unknown here.)
  const home = here.home.startsWith("/") && !reading.has("u") ? here.home : undefined;
  for (const line of table.split("\n")) {
    const job = cronJob(line);
    if (job === UNKNOWABLE) add(here, UNKNOWABLE);
    else if (job !== undefined) nested.push({ script: job, cwd: home });
  }
}

/**
 * The jobs a pipe adds to the table crontab installs, where the text gives them: the user's table
 * again with lines echoed after it (`(crontab -l; echo "JOB") | crontab -`, also in `{ …; }`, with
 * `2>/dev/null` or `|| true`), or the table filtered (`crontab -l | grep -v JOB | crontab -`),
 * which adds none. The table's own jobs ran before and run as before: not this command's. What
 * each echo or printf gives is read, whether or not it reaches the pipe. Undefined for any other
 * input (a file's, a program's output, a variable's value): the caller's any file.
 */
function pipedCronTable(node: Node, here: Walk, user: string | undefined): string | undefined {
  let at = node;
  for (let up = parentOf(at); up?.type === "redirected_statement"; up = parentOf(at)) at = up;
  // (Its input redirected, `crontab - < f`: that, not the pipe, is what it reads.)
  if (inputRedirected(node)) return undefined;
  return parentOf(at)?.type === "pipeline" ? cronInput(at.previousNamedSibling, here, user, 0) : undefined;
}

/** What a pipe gives crontab from `node`, for the table of `user` (`-u`, undefined for the caller's own); undefined where the text does not give it. */
function cronInput(node: Node | null, here: Walk, user: string | undefined, depth: number): string | undefined {
  if (node === null || depth > 16) return undefined;
  if (node.type === "subshell" || node.type === "compound_statement" || node.type === "list") {
    let text = "";
    for (const child of node.namedChildren) {
      if (child.type === "comment") continue;
      const part = cronInput(child, here, user, depth + 1);
      if (part === undefined) return undefined;
      text += part;
    }
    return text;
  }
  if (node.type === "redirected_statement") return cronInput(node.childForFieldName("body"), here, user, depth + 1);
  if (node.type !== "command") return undefined;
  const name = staticWord(node.childForFieldName("name"), here);
  const args = node.childrenForFieldName("argument").map((word) => staticWord(word, here));
  // (A function of the script's own by one of these names runs what it holds.)
  if (name === undefined || here.shared.functions.has(name) || args.some((arg) => arg === undefined) || node.namedChildren.some((child) => child.type === "variable_assignment")) return undefined;
  const words = args as string[];
  // The table installed again: its jobs ran before and run as before. Another user's listed into
  // this one's (`crontab -l | crontab -u bob -`) are new there.
  if (name === "crontab") return (user === undefined ? words.length === 1 && words[0] === "-l" : words.length === 3 && words[0] === "-u" && words[1] === user && words[2] === "-l") ? "" : undefined;
  if (name === "true" || name === ":") return "";
  if (name === "echo" || name === "printf") return printedBy(name, words);
  // Lines of its input, whole and unchanged, from the pipe before it: grep with its one pattern
  // (no file of its own to read, no -o's parts, no -n's or -c's prefixes), sort and uniq alone.
  const patterns = words.filter((word, at) => !word.startsWith("-") && words[at - 1] !== "-e");
  const filters = (name === "grep" || name === "egrep" || name === "fgrep") && words.every((word, at) => !word.startsWith("-") || /^-[vixwEFP]+$/.test(word) || (word === "-e" && at < words.length - 1)) && patterns.length === (words.includes("-e") ? 0 : 1);
  if ((filters || ((name === "sort" || name === "uniq") && words.length === 0)) && parentOf(node)?.type === "pipeline") return cronInput(node.previousNamedSibling, here, user, depth + 1);
  return undefined;
}

/** A crontab line's command (before its first unescaped `%`), undefined for a comment, a blank or a variable's line; one it cannot take apart, or a SHELL, BASH_ENV or ENV it sets: UNKNOWABLE. */
function cronJob(line: string): string | typeof UNKNOWABLE | undefined {
  const trimmed = line.trim();
  // A table's SHELL (or BASH_ENV, ENV) changes what runs each job: a program the hook does not read.
  if (/^(SHELL|BASH_ENV|ENV)\s*=/.test(trimmed)) return UNKNOWABLE;
  if (trimmed === "" || trimmed.startsWith("#") || /^[A-Za-z_]\w*\s*=/.test(trimmed)) return undefined;
  const fields = /^(?:@\w+|(?:\S+\s+){4}\S+)\s+(.*)$/.exec(trimmed);
  if (fields === null) return UNKNOWABLE;
  const command = (fields[1] as string).split(/(?<!\\)%/)[0] as string;
  return command.replace(/\\%/g, "%");
}

const WATCHEXEC: Syntax = {
  short: "d:e:E:f:F:i:I:s:w:W:",
  long: { debounce: "d", exts: "e", env: "E", filter: "f", "filter-file": "F", ignore: "i", "ignore-file": "I", signal: "s", watch: "w", "watch-non-recursive": "W", ...valuedLong("shell workdir on-busy-update delay-run poll emit-events-to project-origin wrap-process stop-signal stop-timeout timeout") },
  ordered: true,
};

/** watchexec [options] [--] cmd…: its words joined and run by a shell (`--shell=none`, `-n`: as a command), from `--workdir`. */
function watchexec(launch: Launch): void {
  const reading = readOptions(launch.args, WATCHEXEC, 0, launchText(launch));
  const here = reading.has("workdir") ? { ...launch.here, cwd: directoryAt(launch.here.cwd, reading.value("workdir")) } : launch.here;
  if (reading.has("n") || reading.value("shell") === "none") command({ ...launch, here }, reading.end);
  else joined({ ...launch, here }, reading.end, here.cwd);
}

const HYPERFINE: Syntax = {
  short: "c:D:L:m:M:n:p:P:r:s:S:u:w:",
  long: { cleanup: "c", "parameter-step-size": "D", "parameter-list": "L", "min-runs": "m", "max-runs": "M", "command-name": "n", prepare: "p", "parameter-scan": "P", runs: "r", setup: "s", shell: "S", "time-unit": "u", warmup: "w", ...valuedLong("conclude export-json export-csv export-markdown export-asciidoc export-orgmode output style sort input reference") },
};

/** hyperfine [options] cmd…: each command, and each --prepare, --setup, --cleanup, --conclude, run by a shell; the exports it writes. */
function hyperfine(launch: Launch): void {
  const { args, here, nested } = launch;
  const reading = readOptions(args, HYPERFINE, 0, launchText(launch));
  for (const key of ["export-json", "export-csv", "export-markdown", "export-asciidoc", "export-orgmode"]) for (const file of reading.values(key)) add(here, file ?? UNKNOWABLE);
  // (An output the text does not fix may be a file: any file.)
  for (const output of reading.values("output")) if (output === undefined || !["null", "pipe", "inherit"].includes(output)) add(here, output ?? UNKNOWABLE);
  const lines = [...reading.operands.map((index) => args[index]), ...["p", "s", "c", "conclude"].flatMap((key) => reading.values(key))];
  for (const line of lines) {
    if (line === undefined) add(here, UNKNOWABLE);
    else nested.push({ script: line, cwd: here.cwd });
  }
}

const PARALLEL: Syntax = {
  short: "a:C:d:E:I:j:L:l:n:N:S:",
  long: { "arg-file": "a", colsep: "C", delimiter: "d", jobs: "j", "max-args": "n", sshlogin: "S", ...valuedLong("joblog results res tmpdir workdir wd env halt delay timeout memfree load retries sshloginfile basefile return transfer-file termseq") },
  ordered: true,
};

/**
 * GNU parallel [options] cmd ::: args: the command with an argument the text does not fix (in place of
 * `{}`), as xargs runs it, its words joined and run by a shell (a word the text does not fix: any
 * file); with no command, each argument is a command line. `--joblog` and
 * `--results` write here; `-S` runs on other machines.
 */
function parallel(launch: Launch): void {
  const { args, here, nested } = launch;
  const reading = readOptions(args, PARALLEL, 0, launchText(launch));
  for (const file of reading.values("joblog")) add(here, file ?? UNKNOWABLE);
  for (const directory of [...reading.values("results"), ...reading.values("res")]) add(here, directory === undefined ? UNKNOWABLE : anyUnder(directory));
  if (reading.has("S", "sshloginfile")) return;
  const separator = args.findIndex((arg, index) => index >= reading.end && arg !== undefined && /^:::[+:]?$|^::::\+?$/.test(arg));
  const end = separator === -1 ? args.length : separator;
  if (end > reading.end) {
    // `parallel gzip ::: a.log b.log`: the command once per argument the text gives; from its input, one it does not.
    const given = separator === -1 ? undefined : args.slice(end + 1).filter((arg) => !/^:::/.test(arg ?? ""));
    const inputs = given !== undefined && given.every((arg): arg is string => arg !== undefined) && args[end] === ":::" ? given.map(shellQuoted) : [INPUT];
    // Its words joined, each `{}` the argument (else the argument after them), run by a shell: one
    // the text does not fix could hold any command line (`parallel "$cmd" ::: f`).
    const command = args.slice(reading.end, end);
    if (!command.every((arg): arg is string => arg !== undefined)) return add(here, UNKNOWABLE);
    const placed = command.some((arg) => arg.includes("{}"));
    for (const input of inputs) {
      const line = command.map((arg) => arg.replaceAll("{}", input));
      nested.push({ script: (placed ? line : [...line, input]).join(" "), cwd: here.cwd });
    }
    return;
  }
  if (separator === -1) return add(here, UNKNOWABLE); // command lines read from its input
  for (const line of args.slice(end + 1).filter((arg) => !/^:::/.test(arg ?? ""))) {
    if (line === undefined) add(here, UNKNOWABLE);
    else nested.push({ script: line, cwd: here.cwd });
  }
}
