// Programs that run a command line given in a form of their own, read here as the walk reads any
// script (shell-walk.ts): `watch 'cmd'` (its words joined, run by sh), a debugger's program and its
// shell escapes (`gdb --args cmd`, `gdb -ex 'shell cmd'`, `lldb -- cmd`), capsh's bash (`capsh --
// -c 'cmd'`), and ssh's remote command (`ssh host 'cmd'`, or a heredoc's lines), run from the remote
// home: where the claims directory sits on a filesystem both machines mount, that is a write here.
// And a container's command (`docker run -v "$PWD":/src img cmd`), whose writes reach files here
// only under the directories it mounts.
import { join } from "node:path";
import type Parser from "web-tree-sitter";
import { picomatch } from "../targets/picomatch.js";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { ownEntry, readOptions, type Syntax, valuedLong } from "./shell-options.js";
import type { Nested } from "./shell-runners.js";
import { add, anyUnder, directoryAt, UNKNOWABLE, type Walk } from "./shell-words.js";

type Node = Parser.SyntaxNode;

export interface Launch {
  name: string;
  args: Array<string | undefined>;
  words: Node[];
  here: Walk;
  stdin: string | undefined;
  piped: boolean;
  nested: Nested[];
}

const READERS: Record<string, (launch: Launch) => void> = { watch, gdb, lldb, capsh, ssh, docker: containerRun, podman: containerRun, nerdctl: containerRun };

/** Whether the command is one of these, read here (what it runs handed back as nested, or judged). */
export function launches(launch: Launch): boolean {
  const read = ownEntry(READERS, launch.name);
  read?.(launch);
  return read !== undefined;
}

/** Words as a line the shell reads again: their values joined by spaces (watch, ssh), any unknown one makes it unknown. */
function joined({ args, here, nested }: Launch, from: number, cwd: string | undefined): void {
  const rest = args.slice(from);
  if (rest.length === 0) return;
  if (rest.every((arg): arg is string => arg !== undefined)) nested.push({ script: rest.join(" "), cwd });
  else add(here, UNKNOWABLE);
}

/** The rest of the words as a command of their own (`gdb --args cmd a b`), as written. */
function command({ words, here, nested }: Launch, from: number, prefix: string[] = []): void {
  if (from < words.length) nested.push({ script: [...prefix, ...words.slice(from).map((word) => word.text)].join(" "), cwd: here.cwd });
}

const WATCH: Syntax = {
  short: "n:q:s:d::",
  long: { interval: "n", equexit: "q", shotsdir: "s", differences: "d", exec: "x", beep: "b", color: "c", "no-color": "C", errexit: "e", chgexit: "g", precise: "p", "no-rerun": "r", "no-title": "t", "no-wrap": "w" },
  ordered: true,
};

/** watch [options] cmd…: `sh -c` of its words joined, or with -x the words as a command. */
function watch(launch: Launch): void {
  const reading = readOptions(launch.args, WATCH);
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
    // `-ex "attach $PID"` reads; `-ex "shell $cmd"` could run anything.
    const bare = text.replace(/^["']/, "");
    if (DEBUGGER_SHELL.test(bare) || DEBUGGER_WRITES.test(bare) || /^\s*(cd|run|r|start)\b/.test(bare)) add(here, UNKNOWABLE);
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
    if (arg === undefined) continue;
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

/**
 * ssh [options] host [options] [cmd…]: the command's words joined (or, with none, a heredoc's
 * lines), run by the remote user's shell from their home: an absolute path it writes is judged as
 * here, since the claims may sit on a filesystem both machines mount; a relative one, or one the
 * text does not give (a pipe), is the remote's. A command its options run here (`-o
 * ProxyCommand=…`, `LocalCommand=…`) is read as here; `-E log` is written here.
 */
function ssh(launch: Launch): void {
  const { args, here, nested } = launch;
  const before = readOptions(args, SSH);
  const after = before.end < args.length ? readOptions(args, SSH, before.end + 1) : undefined;
  for (const reading of after === undefined ? [before] : [before, after]) {
    for (const log of reading.values("E")) add(here, log ?? UNKNOWABLE);
    for (const option of reading.values("o")) {
      const local = option === undefined ? undefined : /^\s*(ProxyCommand|LocalCommand|KnownHostsCommand)\s*[=\s]\s*(.*)$/is.exec(option);
      if (local) nested.push({ script: local[2] as string, cwd: here.cwd });
      const remote = option === undefined ? undefined : /^\s*RemoteCommand\s*[=\s]\s*(.*)$/is.exec(option);
      if (remote) nested.push({ script: remote[1] as string, cwd: undefined, remote: true });
    }
  }
  if (after === undefined || before.has("N", "s", "W", "V", "G", "Q") || after.has("N", "s", "W", "V", "G", "Q")) return; // no host, no command, a subsystem, a forward, queries
  const rest = args.slice(after.end);
  if (rest.length > 0) {
    if (rest.every((arg): arg is string => arg !== undefined)) nested.push({ script: rest.join(" "), cwd: undefined, remote: true });
  } else if (launch.stdin !== undefined) nested.push({ script: launch.stdin, cwd: undefined, remote: true });
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
      shm-size stop-signal stop-timeout storage-opt sysctl tmpfs ulimit userns uts volume-driver volumes-from`),
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

type Mount = { container: string; host: string | undefined };

/**
 * docker run [options] image [cmd…]: the command, run by the image's entrypoint (taken to run it, as
 * the language images' do), read as a script whose paths are the container's: a write under a
 * bind mount that is not read-only (`-v src:/src`, `--mount type=bind,source=…,target=…`) is a
 * write of the mount's source here, and anything else stays in the container. No command: the
 * image's own, anything under each such mount. `--cidfile` is written here.
 */
function containerRun(launch: Launch): void {
  const { args, here } = launch;
  const tool = readOptions(args, CONTAINER_TOOL);
  let at = tool.end;
  if (args[at] === "container") at++;
  if (args[at] !== "run") return; // exec, build, ps…: commands of a container made elsewhere, or none
  const reading = readOptions(args, CONTAINER_RUN, at + 1);
  for (const file of reading.values("cidfile")) add(here, file ?? UNKNOWABLE);
  if (reading.has("volumes-from")) add(here, UNKNOWABLE); // another container's mounts: places the text does not give
  const mounts: Mount[] = [];
  for (const { value, at: index } of reading.occurrences("v")) {
    const mount = volume(value ?? unfixedSource(index === undefined ? undefined : launch.words[index]?.text), here);
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
  const workdir = reading.value("w");
  launch.nested.push({ script: [...(entrypoint === undefined ? [] : [entrypoint]), ...words].join(" "), cwd: workdir?.startsWith("/") ? workdir : undefined, mounts });
}

/** `"$d":/src[:ro]`, a source the text does not fix before a target it does: `\0:/src[:ro]`. */
function unfixedSource(text: string | undefined): string | undefined {
  const target = text === undefined ? undefined : /^["']?\$[^:]*:(\/[\w./-]*)(:[\w,]+)?["']?$/.exec(text);
  return target ? `\0:${target[1]}${target[2] ?? ""}` : undefined;
}

/** `-v SRC:DST[:opts]`: a bind mount of SRC (a path, not a named volume), unless read-only. */
function volume(value: string | undefined, here: Walk): Mount | undefined {
  if (value === undefined) return { container: "/", host: undefined }; // "$v": anything, anywhere
  const [source = "", target, options = ""] = value.split(":");
  if (target === undefined || !target.startsWith("/") || options.split(",").includes("ro") || options.split(",").includes("readonly")) return undefined;
  if (source === "\0") return { container: target, host: undefined };
  if (!/^[/.~]/.test(source)) return undefined; // a named volume: the container engine's, not a file here
  return { container: target, host: hostPath(source, here) };
}

/** `--mount type=bind,source=…,target=…[,readonly]`. */
function bindMount(value: string | undefined, here: Walk): Mount | undefined {
  if (value === undefined) return { container: "/", host: undefined };
  const fields = new Map(value.split(",").map((field) => [field.slice(0, field.indexOf("=") === -1 ? field.length : field.indexOf("=")), field.slice(field.indexOf("=") + 1)]));
  if ((fields.get("type") ?? "volume") !== "bind" || fields.has("ro") || fields.has("readonly") && fields.get("readonly") !== "false") return undefined;
  const source = fields.get("source") ?? fields.get("src");
  const target = fields.get("target") ?? fields.get("destination") ?? fields.get("dst");
  if (source === undefined || target === undefined || !target.startsWith("/")) return undefined;
  return { container: target, host: hostPath(source, here) };
}

function hostPath(source: string, here: Walk): string | undefined {
  if (source.startsWith("~")) return join(here.home, source.slice(1));
  if (source.startsWith("/")) return source;
  return here.cwd === undefined ? undefined : join(here.cwd, source);
}

/**
 * Where a path a container's command writes is here: under a mount, at its source (one whose
 * source the text does not fix, by its name there); above one (`rm -rf /`, a glob over `/`), all
 * of it; elsewhere, nowhere here. A path in a place the text does not fix is judged by its name, as anywhere.
 */
export function onHost(path: string, mounts: Mount[]): string[] {
  if (path.startsWith(UNKNOWN_MARK)) return [path];
  const glob = path.startsWith(GLOB_MARK);
  const bare = glob ? path.slice(GLOB_MARK.length) : path;
  const base = glob ? picomatch.scan(bare).base || "/" : bare;
  const found: string[] = [];
  for (const { container, host } of mounts) {
    const under = `${container.replace(/\/$/, "")}/`;
    if (bare === container || bare.startsWith(under)) {
      const rest = bare.slice(under.length);
      found.push(host === undefined ? (rest === "" ? UNKNOWABLE : UNKNOWN_MARK + rest) : glob ? GLOB_MARK + join(host, rest) : rest === "" ? host : join(host, rest));
    } else if (container.startsWith(base === "/" ? "/" : `${base}/`)) found.push(host === undefined ? UNKNOWABLE : anyUnder(host));
  }
  return found;
}
