// Commands that run other commands, and what they run: wrappers that run the rest of their line
// after their own options (`sudo -u x cmd`, `env A=1 cmd`, `timeout 5 cmd`: WRAPPERS), shells and
// interpreters that read a program from an argument, a heredoc or a pipe, xargs, the tools whose
// output, run by eval, only sets variables (`eval "$(ssh-agent -s)"`), and find, whose `-exec` runs
// a command on what it finds and whose `-delete` removes it. A script the text gives is handed back
// as Nested, for the walk (shell-walk.ts) to read in turn.
import { basename } from "node:path";
import type Parser from "web-tree-sitter";
import { exists, isDirectory } from "../targets/target.js";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { ownEntry, type Syntax, valuedLong } from "./shell-options.js";
import { add, anyUnder, type Positional, UNKNOWABLE, type Walk, within, wordValues } from "./shell-words.js";

type Node = Parser.SyntaxNode;

/** `bash -c '…'`: a script to read in turn, from the directory it starts in. */
export interface Nested {
  script: string;
  cwd: string | undefined;
  /** Variables that stand for known values in it (Walk.bound): `{}` of `find -exec`. */
  bound?: Map<string, string[]>;
  /** The arguments it is run with, as `$1`, `$2`, `"$@"`: a script's or a function's (Positional). */
  positional?: Positional;
  /**
   * It runs in a container (`docker run -v "$PWD":/src img cmd`): its paths are the container's,
   * and only those under a mount reach a file here, at the mount's source (shell-launchers.ts).
   */
  mounts?: Array<{ container: string; host: string | undefined; unknown?: true }>;
  /**
   * It runs on another machine (`ssh host 'cmd'`): only an absolute path it writes may be a file
   * here (a filesystem both mount); one relative to the remote home, or unknown, is the remote's.
   */
  remote?: boolean;
  /** Its input is this terminal (ssh's remote command, given no input of its own): a program there that reads typed commands reads them from here. */
  terminal?: boolean;
  /** The input its commands with none of their own read (Walk.shellInput), the caller's when it ran (`f < x.py`, `echo | ./x.sh`); undefined, none. Not given, the walk's. */
  input?: string | null;
}

/** A Nested.input in a key of what was read (JSON writes undefined as null). */
export function inputKey(input: string | null | undefined): 0 | 1 | [string] {
  return input === undefined ? 0 : input === null ? 1 : [input];
}

/** sudo's options, which sudoedit shares. */
export const SUDO: Syntax = {
  short: "a:C:c:D:g:h:p:R:r:T:t:U:u:",
  long: { "auth-type": "a", "close-from": "C", "login-class": "c", chdir: "D", edit: "e", group: "g", host: ":", prompt: "p", chroot: "R", role: "r", "command-timeout": "T", type: "t", "other-user": "U", user: "u" },
};

/** uv's and uvx's options that take a value (uv run's and uv's own). */
const UV_VALUED = `project package with-requirements with-editable extra group only-group no-group env-file from index default-index index-url
  extra-index-url find-links color cache-dir exclude-newer config-file python-preference`;

/** conda run (mamba's, micromamba's): in an environment, from `--cwd`. */
const CONDA_RUN = { syntax: { short: "n:p:", long: { name: "n", prefix: "p", cwd: ":" } }, chdir: "cwd", subcommands: ["run"] };

/**
 * Wrappers that run the command after their own options (`sudo -u x cmd`, `env A=1 cmd`, `timeout
 * 5 cmd`), read up to the first operand: `positional` operands of their own, then the command.
 * `chdir`: the option that makes the command run elsewhere; `writes`: options whose value is a file
 * the wrapper writes itself (`time -o out`); `edits`: the option that makes the operands files to
 * edit instead of a command (`sudo -e f`); `split`: the option whose value is a command line
 * (`env -S 'cmd args'`); `transcript`: its first operand is a file it writes (this name without
 * one), its options are read anywhere, and without `call` it runs a shell on the terminal (script).
 */
export const WRAPPERS: Record<
  string,
  {
    syntax: Syntax;
    positional?: number;
    /** Its own operands are files it opens for writing, creating them (`setlock file cmd`). */
    opens?: boolean;
    /**
     * Its own operand is a file it creates only where none is, and never writes (`flock FILE cmd`):
     * a write while it is missing (createdIfMissing). Alone, with nothing to run, it is a
     * descriptor's number (`flock -n 9`), no file.
     */
    creates?: boolean;
    chdir?: string;
    writes?: string[];
    edits?: string;
    split?: string;
    call?: string;
    /** The option whose value is a python module it runs as `python3 -m` does (`uv run -m pkg.mod`). */
    module?: string;
    subcommands?: string[];
    /** Of its subcommands, those whose operands are a shell line it runs (`bun exec 'rm f && ls'`: Bun's shell). */
    lines?: string[];
    /** A flag, before or after its subcommand, that makes the command a shell line (`pnpm -c exec 'rm f && ls'`). */
    lineFlag?: string;
    /** Of its subcommands, those that run their one operand as a shell line when it holds a space (Yarn 2+'s `yarn exec 'rm f && ls'`). */
    spacedLine?: string[];
    /** Its own operands run up to `--`, and the command after it (`mise x node@20 -- node -e …`); without one, only `call` runs anything. */
    dashdash?: boolean;
    /** With dashdash, and no `--`: the command is its operand of this index (`stack exec rm f`: 0; `aws-vault exec prof rm f`: 1). */
    commandOperand?: number;
    bins?: boolean;
    elsewhere?: string[];
    transcript?: string;
    /** Its own commands, judged by its rule (`corepack use pnpm@9`: shell-lock-rules.ts), never a command it runs. */
    own?: string[];
  }
> = {
  sudo: { syntax: SUDO, chdir: "D", edits: "e" },
  doas: { syntax: { short: "a:C:u:" } },
  env: { syntax: { short: "C:S:u:", long: { chdir: "C", "split-string": "S", unset: "u" } }, chdir: "C", split: "S" },
  nice: { syntax: { short: "n:", long: { adjustment: "n" } } },
  nohup: { syntax: {} },
  // `! ! rm f`: bash reads each `!` as the reserved word; the grammar reads a second one as a command's name.
  "!": { syntax: {} },
  time: { syntax: { short: "f:o:", long: { format: "f", output: "o" } }, writes: ["o"] },
  command: { syntax: {} },
  exec: { syntax: { short: "a:" } },
  builtin: { syntax: {} },
  stdbuf: { syntax: { short: "e:i:o:", long: { error: "e", input: "i", output: "o" } } },
  timeout: { syntax: { short: "k:s:", long: { "kill-after": "k", signal: "s" } }, positional: 1 },
  // Homebrew's name for GNU timeout on macOS.
  gtimeout: { syntax: { short: "k:s:", long: { "kill-after": "k", signal: "s" } }, positional: 1 },
  // A bandwidth shaper (`trickle -d 100 cmd`; -P a library it preloads).
  trickle: { syntax: { short: "d:u:w:t:l:n:L:P:sVvh" } },
  ionice: { syntax: { short: "c:n:p:P:u:", long: { class: "c", classdata: "n", pid: "p", pgid: "P", uid: "u" } } },
  chronic: { syntax: {} },
  coproc: { syntax: {} },
  // util-linux and the like: a new session, a lock held (`flock FILE cmd`, `flock FILE -c 'cmd'`;
  // util-linux's flock.c opens FILE with O_RDONLY|O_CREAT, so a FILE not there is made, empty),
  // another scheduling policy (`chrt -b 0 cmd`) or CPU set (`taskset -c 0 cmd`: -c is a flag there),
  // new namespaces (`unshare -r cmd`; -w runs it elsewhere, -R under another root), fake root (its
  // -s state file written), busybox's applets (`busybox rm f`). (su and runuser, another user's
  // shell: shell-wrapper-readers.ts.)
  setsid: { syntax: {} },
  flock: {
    syntax: { short: "c:E:w:", long: { command: "c", "conflict-exit-code": "E", wait: "w", timeout: "w", shared: "", exclusive: "", unlock: "", nonblock: "", close: "", "no-fork": "", verbose: "" } },
    positional: 1,
    call: "c",
    creates: true,
  },
  chrt: { syntax: { short: "D:P:T:", long: { "sched-deadline": "D", "sched-period": "P", "sched-runtime": "T" } }, positional: 1 },
  taskset: { syntax: {}, positional: 1 },
  unshare: {
    syntax: { short: "G:R:S:w:", long: { setgid: "G", root: "R", setuid: "S", wd: "w", ...valuedLong("propagation setgroups map-user map-group map-users map-groups load-interp") } },
    chdir: "w",
    elsewhere: ["R"],
  },
  fakeroot: { syntax: { short: "b:i:l:s:", long: { "fd-base": "b", lib: "l", faked: ":" } }, writes: ["s"] },
  busybox: { syntax: {} },
  toybox: { syntax: {} },
  // More of the same kind: capabilities (`setpriv`), limits (`prlimit --nofile=100 cmd`), another personality (`setarch x86_64 cmd`,
  // `linux64`), a fake clock (`faketime '2020-01-01' cmd`), a session bus or agent for the command
  // (`dbus-run-session`, `ssh-agent cmd`), a checker (`valgrind`), another root (`chroot / cmd`).
  setpriv: { syntax: { long: valuedLong("reuid regid groups securebits pdeathsig inh-caps ambient-caps bounding-set selinux-label apparmor-profile landlock-access landlock-rule") } },
  prlimit: { syntax: { short: "p:o:", long: { pid: "p", output: "o" } } },
  setarch: { syntax: {}, positional: 1 },
  linux64: { syntax: {} },
  linux32: { syntax: {} },
  faketime: { syntax: { short: "m:f:" }, positional: 1 },
  "dbus-run-session": { syntax: { long: valuedLong("config-file dbus-daemon") } },
  "ssh-agent": { syntax: { short: "a:E:P:t:" } },
  valgrind: { syntax: { ordered: true } },
  chroot: { syntax: { long: valuedLong("userspec groups") }, positional: 1 },
  // Placement and power: NUMA nodes (`numactl -N 0 cmd`; with `--file f` it sets f's policy, creating
  // and sizing f, and runs nothing), control groups (`cgexec -g cpu:grp cmd`), a sleep inhibitor
  // (`systemd-inhibit --why x cmd`, macOS's `caffeinate -i cmd`), a Flatpak's host or sandbox
  // (`flatpak-spawn --host cmd`: its options only as `--name=value`, `--directory=` where it runs),
  // and runit's chpst (`chpst -u user cmd`: -l and -L open a lock file, creating it; -/ runs it
  // under another root, from its top; -C from a directory).
  numactl: {
    syntax: {
      short: "c:C:f:i:I:L:m:M:N:o:p:P:S:w:",
      long: {
        physcpubind: "C", cpunodebind: "N", cpubind: "c", file: "f", interleave: "i", "weighted-interleave": "w", shmid: "I", length: "L", membind: "m",
        shmmode: "M", offset: "o", preferred: "p", "preferred-many": "P", shm: "S", all: "a", balancing: "b", localalloc: "l", show: "s", hardware: "H",
        strict: "t", dump: "d", "dump-nodes": "D", huge: "u", touch: "T", verify: "V",
      },
    },
    writes: ["f"],
  },
  cgexec: { syntax: { short: "g:", long: { sticky: "s", help: "h" } } },
  "systemd-inhibit": { syntax: { long: valuedLong("what who why mode") } },
  caffeinate: { syntax: { short: "t:w:" } },
  "flatpak-spawn": { syntax: { long: { directory: "::", env: "::", "unset-env": "::", "forward-fd": "::", "env-fd": "::", "app-path": "::", "usr-path": "::" } }, chdir: "directory" },
  chpst: { syntax: { short: "b:c:C:d:e:f:l:L:m:n:o:p:r:t:u:U:/:" }, chdir: "C", writes: ["l", "L"], elsewhere: ["/"] },
  // What chpst does, as daemontools' programs (and runit's chpst, by these names) do it alone:
  // `setlock [-nNxX] file cmd` (the file opened for writing, created if missing), `softlimit -m n
  // cmd`, `envdir dir cmd`, `envuidgid user cmd`, `setuidgid user cmd`, `pgrphack cmd`, `fghack cmd`.
  setlock: { syntax: {}, positional: 1, opens: true },
  softlimit: { syntax: { short: "a:c:d:f:l:m:o:p:r:s:t:" } },
  envdir: { syntax: {}, positional: 1 },
  envuidgid: { syntax: {}, positional: 1 },
  setuidgid: { syntax: {}, positional: 1 },
  pgrphack: { syntax: {} },
  fghack: { syntax: {} },
  // More that run the command after them: as root (`pkexec`), under a pty (`unbuffer`), a virtual
  // display (`xvfb-run -a`), a password fed to ssh (`sshpass -p pw ssh …`), a detached terminal
  // (`screen -dmS name cmd`: read by its launcher, shell-launchers.ts), and environment managers (`bundle exec`, `conda run -n env`, `mise exec --`, `op run --`, `doppler
  // run --`, `direnv exec DIR`, `nix-shell --run 'cmd'`).
  pkexec: { syntax: { long: valuedLong("user") } },
  unbuffer: { syntax: {} },
  "xvfb-run": { syntax: { short: "e:f:n:p:s:w:", long: { "error-file": "e", "auth-file": "f", "server-num": "n", "xauth-protocol": "p", "server-args": "s", wait: "w" } }, writes: ["e"] },
  sshpass: { syntax: { short: "d:e::f:p:P:" } },
  bundle: { syntax: {}, subcommands: ["exec"] },
  // `go tool goimports -w .`: a tool go.mod's `tool` lines name (Go 1.24), run as that command.
  go: { syntax: { short: "C:" }, chdir: "C", subcommands: ["tool"] },
  conda: CONDA_RUN,
  mamba: CONDA_RUN,
  micromamba: CONDA_RUN,
  mise: { syntax: { short: "c:C:E:j:", long: { command: "c", cd: "C", env: "E", jobs: "j" } }, chdir: "C", call: "c", subcommands: ["exec", "x"], dashdash: true },
  op: { syntax: { long: valuedLong("env-file account") }, subcommands: ["run"] },
  doppler: { syntax: { short: "p:c:", long: { project: "p", config: "c", command: ":" } }, subcommands: ["run"], call: "command" },
  direnv: { syntax: {}, subcommands: ["exec"], positional: 1 },
  nodemon: { syntax: { short: "d:e:i:w:x:", long: { delay: "d", ext: "e", ignore: "i", watch: "w", exec: "x", ...valuedLong("signal config") } }, call: "x" },
  "nix-shell": { syntax: { short: "p:I:A:R:", long: { run: "R", command: "R", packages: "p", attr: "A", ...valuedLong("arg argstr expr") } }, call: "R" },
  // And more of them: fsync turned off (`eatmydata cmd`), another user in a container (`gosu user
  // cmd`, `su-exec user cmd`), systemd's sudo (`run0 -D dir cmd`), an init (`tini -- cmd`), a CPU
  // limit (`cpulimit -l 50 -- cmd`), a command run only on input (`ifne cmd`), and environments
  // (`dotenvx run -- cmd`, `devbox run cmd`, `scl enable coll -- cmd`).
  eatmydata: { syntax: {} },
  gosu: { syntax: {}, positional: 1 },
  "su-exec": { syntax: {}, positional: 1 },
  run0: { syntax: { short: "u:g:D:", long: { user: "u", group: "g", chdir: "D", ...valuedLong("nice setenv unit property description slice background machine") } }, chdir: "D" },
  tini: { syntax: { short: "p:e:" } },
  // Other container inits and privilege droppers: podman's catatonit, s6's with-contenv and
  // s6-setuidgid (a user first).
  catatonit: { syntax: { short: "gpPv" } },
  "with-contenv": { syntax: {} },
  "s6-setuidgid": { syntax: {}, positional: 1 },
  // An init for containers (`dumb-init rm f`: -r rewrites a signal); a daemon made of a command
  // (`daemonize -c dir -o out.log /bin/rm f`: -c its directory, -o/-e its output files, -p/-l its pid and lock files).
  "dumb-init": { syntax: { short: "cr:vV", long: { "single-child": "c", rewrite: "r", verbose: "v", version: "V" } } },
  daemonize: { syntax: { short: "ac:e:E:l:o:p:u:v" }, chdir: "c", writes: ["e", "o", "p", "l"] },
  // Build tools' and secret managers' runners: the command after `--` (`stack exec -- rm f`,
  // `cabal exec -- …`, `dune exec -- …`, `opam exec -- …`, `aws-vault exec profile -- …`,
  // `infisical run -- …`) or, where they take one without it, their operand commandOperand names
  // (`stack exec rm f`, `aws-vault exec profile rm f`); another root for the command (`proot -r
  // rootfs cmd`: a place unknown).
  stack: { syntax: { long: valuedLong("stack-yaml work-dir resolver") }, subcommands: ["exec"], dashdash: true, commandOperand: 0 },
  cabal: { syntax: { long: valuedLong("project-file builddir") }, subcommands: ["exec"], dashdash: true, commandOperand: 0 },
  dune: { syntax: { long: valuedLong("root build-dir profile") }, subcommands: ["exec"], dashdash: true, commandOperand: 0 },
  opam: { syntax: { long: valuedLong("switch root") }, subcommands: ["exec"], dashdash: true, commandOperand: 0 },
  "aws-vault": { syntax: { long: valuedLong("backend duration region mfa-token") }, subcommands: ["exec"], dashdash: true, commandOperand: 1 },
  infisical: { syntax: { long: valuedLong("env projectId path token domain command") }, subcommands: ["run"], dashdash: true, call: "command" },
  proot: { syntax: { short: "r:b:m:w:q:k:", long: { rootfs: "r", bind: "b", mount: "m", cwd: "w", qemu: "q", "kernel-release": "k" } }, chdir: "w", elsewhere: ["r"] },
  cpulimit: { syntax: { short: "l:p:e:c:", long: { limit: "l", pid: "p", exe: "e", cpu: "c" } } },
  ifne: { syntax: {} },
  dotenvx: { syntax: { short: "f:e:", long: { "env-file": "f", env: "e", ...valuedLong("convention env-keys-file ops-off") } }, subcommands: ["run"], dashdash: true },
  devbox: { syntax: { short: "c:", long: { config: "c", ...valuedLong("environment env-file") } }, subcommands: ["run"] },
  scl: { syntax: {}, subcommands: ["enable"], dashdash: true },
  // Tracers: the command they run, and the file -o names.
  strace: {
    syntax: { short: "a:b:e:E:I:o:O:p:P:s:S:u:U:X:", long: { output: "o", attach: "p", user: "u", env: "E", "string-limit": "s", "summary-sort-by": "S", trace: "::", signal: "::" } },
    writes: ["o"],
  },
  ltrace: { syntax: { short: "a:A:D:e:F:l:L:n:o:p:s:u:x:", long: { output: "o", library: "l" } }, writes: ["o"] },
  // script: its typescript (the first operand, else `typescript`) and the logs its options name;
  // with -c it runs that command, without, an interactive shell whose commands the text does not
  // give. Options and the file in any order (getopt permutes).
  script: {
    syntax: {
      short: "B:c:E:I:m:O:T:t::",
      long: { "log-io": "B", command: "c", echo: "E", "log-in": "I", "logging-format": "m", "log-out": "O", "log-timing": "T", timing: "t", "output-limit": ":", help: "h", version: "V" },
    },
    writes: ["B", "I", "O", "T", "t"],
    call: "c",
    transcript: "typescript",
  },
  // Package runners: `npx prettier --write f`, `npm exec -- eslint --fix`, `pnpm dlx`, `uv run black .`
  // run the command named (a package name like `prettier@3` or `@biomejs/biome` as its command);
  // `call`: the option whose value is a command line (`npx -c 'cmd'`). With `subcommands`, only
  // those run a command; anything else is the tool's own (`npm install`: shell-tool-rules.ts), and
  // with `bins`, also a command it does not have (`yarn prettier`). `elsewhere`: options that run
  // the command in workspace packages' directories.
  npx: {
    // `--no`, `--yes`: flags (not an abbreviation of --node-options, which would take the command as its value).
    syntax: { short: "p:c:w:y", long: { package: "p", call: "c", workspace: "w", workspaces: "", ws: "", no: "", yes: "y", "no-install": "", ...valuedLong("registry cache userconfig prefix node-options script-shell loglevel") } },
    call: "c",
    elsewhere: ["w", "workspaces", "ws"],
  },
  bunx: { syntax: { short: "p:", long: { package: "p" } } },
  // pnpm's older name for `pnpm dlx`.
  pnpx: { syntax: { short: "p:c:", long: { package: "p", "shell-mode": "c" } }, call: "c" },
  uvx: { syntax: { short: "p:w:", long: { python: "p", with: "w", ...valuedLong(UV_VALUED) } } },
  // `corepack pnpm add x` runs pnpm; `corepack use pnpm@9` and the like are its own.
  corepack: { syntax: {}, own: ["use", "up", "enable", "disable", "install", "pack", "prepare", "hydrate", "--help", "-h"] },
  // What package.json scripts put before a command: `cross-env A=1 cmd`, `dotenv -e .env -- cmd`,
  // `shx rm -rf dist` (shx runs its portable rm, cp, mv, sed -i…).
  "cross-env": { syntax: {} },
  dotenv: { syntax: { short: "e:v:p:c::" } },
  shx: { syntax: {} },
  // Compiler caches run the compiler after them.
  ccache: { syntax: {} },
  sccache: { syntax: {} },
  distcc: { syntax: {} },
  pipx: { syntax: { long: valuedLong("spec python index-url pip-args") }, subcommands: ["run"] },
  npm: {
    syntax: { short: "c:w:y", long: { call: "c", workspace: "w", workspaces: "", ws: "", no: "", yes: "y", package: ":", prefix: ":", ...valuedLong("registry cache userconfig node-options script-shell loglevel") } },
    call: "c",
    subcommands: ["exec", "x"],
    elsewhere: ["w", "workspaces", "ws"],
  },
  pnpm: {
    // (`-c`, `--shell-mode`: the command is a shell line, `pnpm -r -c exec 'rm f && ls'`, `pnpm dlx -c 'x | y'`.)
    syntax: { short: "C:cF:rw", long: { dir: "C", filter: "F", package: ":", recursive: "r", "workspace-root": "w", "shell-mode": "c" } },
    chdir: "C",
    lineFlag: "c",
    subcommands: ["exec", "dlx", "run"],
    bins: true,
    elsewhere: ["F", "r", "w"],
  },
  yarn: { syntax: { short: "p:", long: { package: "p", cwd: ":" } }, chdir: "cwd", subcommands: ["dlx", "exec", "run"], spacedLine: ["exec"], bins: true },
  bun: { syntax: { short: "p:F:", long: { package: "p", cwd: ":", filter: "F" } }, chdir: "cwd", subcommands: ["x", "run", "exec"], lines: ["exec"], bins: true, elsewhere: ["F"] },
  uv: { syntax: { short: "p:w:m:", long: { python: "p", directory: ":", with: "w", module: "m", ...valuedLong(UV_VALUED) } }, chdir: "directory", subcommands: ["run"], module: "m" },
  poetry: { syntax: { short: "C:P:", long: { directory: "C", project: "P" } }, chdir: "C", subcommands: ["run"] },
  pipenv: { syntax: {}, subcommands: ["run"] },
  pdm: { syntax: {}, subcommands: ["run"] },
  hatch: { syntax: {}, subcommands: ["run"] },
  rye: { syntax: {}, subcommands: ["run"] },
  // Version managers that run a command with a version of their own: `pyenv exec python -c …`,
  // `volta run node -e …`, `fnm exec --using=20 -- node`, `asdf exec node`.
  pyenv: { syntax: {}, subcommands: ["exec"] },
  rbenv: { syntax: {}, subcommands: ["exec"] },
  nodenv: { syntax: {}, subcommands: ["exec"] },
  goenv: { syntax: {}, subcommands: ["exec"] },
  plenv: { syntax: {}, subcommands: ["exec"] },
  jenv: { syntax: {}, subcommands: ["exec"] },
  asdf: { syntax: {}, subcommands: ["exec"] },
  volta: { syntax: { long: valuedLong("node npm pnpm yarn") }, subcommands: ["run"] },
  fnm: { syntax: { long: valuedLong("using") }, subcommands: ["exec"] },
  pixi: { syntax: { short: "e:", long: { environment: "e", ...valuedLong("manifest-path spec channel platform") } }, subcommands: ["run", "exec"] },
};

/** bash/sh -c SCRIPT: options end at the first operand; `-o`/`+o` take a name. */
export const SHELL: Syntax = { short: "o:O:", long: { rcfile: ":", "init-file": ":" }, ordered: true, plus: true };

/** Shells whose `-c` script and script files are read as bash reads them (the POSIX family: ash is Alpine's sh). */
export const SHELLS = ["bash", "sh", "zsh", "dash", "ksh", "ash", "mksh", "lksh", "oksh", "pdksh", "yash", "posh", "rbash"];

/** A program's own name for stdin: `-`, /dev/stdin, descriptor 0. */
export const STDIN = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/** perl's switches, for its -i rule and as an interpreter: `-I dir` takes its directory attached or as the next word (perl.c), the rest only attached. */
export const PERL: Syntax = { short: "e:E:i::I:M::m::", ordered: true };

/** bun's options that take a value, as the next word too (`bun --cwd d -e …`, `-c bunfig.toml`): never taken for the program. */
const BUN = {
  syntax: {
    short: "e:p:r:F:d:l:c:",
    long: {
      eval: "e", print: "p", preload: "r", require: "r", filter: "F", define: "d", loader: "l", config: "c", help: "h", version: "v",
      ...valuedLong(`import cwd elide-lines shell watch-kill-signal cpu-prof-name cpu-prof-dir cpu-prof-interval heap-prof-name heap-prof-dir heap-prof-interval
        install port conditions fetch-preconnect max-http-header-size dns-result-order redirect-warnings disable-warning title unhandled-rejections console-depth
        user-agent cron-title cron-period main-fields extension-order tsconfig-override drop feature jsx-factory jsx-fragment jsx-import-source jsx-runtime env-file`),
    },
    ordered: true,
    exact: true, // `--watch` is a flag, no start of --watch-kill-signal
  },
  inline: ["e", "p", "h", "v"],
};

/** node's options that take a value, which it (or V8) also takes as the next word (`--inspect-port 9229 x.js`). */
const NODE_VALUED = `import loader experimental-loader input-type env-file env-file-if-exists title inspect-port debug-port cpu-prof-dir cpu-prof-name cpu-prof-interval
  heap-prof-dir heap-prof-name heap-prof-interval diagnostic-dir disable-warning dns-result-order experimental-policy policy-integrity heapsnapshot-near-heap-limit
  heapsnapshot-signal icu-data-dir inspect-publish-uid max-http-header-size openssl-config redirect-warnings report-dir report-directory report-filename report-signal
  secure-heap secure-heap-min snapshot-blob test-concurrency test-name-pattern test-reporter test-reporter-destination test-shard test-skip-pattern test-timeout
  tls-cipher-list tls-keylog trace-event-categories trace-event-file-pattern unhandled-rejections use-largepages watch-path experimental-config-file localstorage-file
  experimental-sea-config experimental-default-type disable-proto allow-fs-read allow-fs-write stack-trace-limit max-old-space-size max-semi-space-size stack-size`;

/**
 * Interpreters that read their program from stdin when given no script (or `-`, /dev/stdin), each
 * with its options and those that give it something else to run or do (`-c`, `-e`, `-m`, `--version`).
 */
const INTERPRETERS: Record<string, { syntax: Syntax; inline: string[]; interactive?: string[] }> = {
  python: { syntax: { short: "c:m:W:X:", long: { "check-hash-based-pycs": ":", help: "h", version: "V" }, ordered: true, last: "cm" }, inline: ["c", "m", "h", "V"], interactive: ["i"] },
  node: {
    syntax: {
      short: "e:p:r:C:",
      long: { eval: "e", print: "p", require: "r", conditions: "C", check: "c", help: "h", version: "v", test: "", ...valuedLong(NODE_VALUED) },
      ordered: true,
      exact: true, // node takes no abbreviation: `--watch`, `--heap-prof` are flags
    },
    inline: ["e", "p", "c", "h", "v", "test"],
    interactive: ["i", "--interactive"],
  },
  // Runtimes that run TypeScript too, with node's -e and -p.
  bun: BUN,
  // tsx takes node's options (and --tsconfig); ts-node its own that take a value (-P tsconfig.json, -O '{…}').
  tsx: {
    syntax: { short: "e:p:r:C:", long: { eval: "e", print: "p", require: "r", conditions: "C", help: "h", version: "v", ...valuedLong(`${NODE_VALUED} tsconfig`) }, ordered: true, exact: true },
    inline: ["e", "p", "h", "v"],
    interactive: ["i"],
  },
  "ts-node": {
    syntax: {
      short: "e:p:r:C:P:O:I:D:",
      long: { eval: "e", print: "p", require: "r", compiler: "C", project: "P", "compiler-options": "O", ignore: "I", "ignore-diagnostics": "D", help: "h", version: "v", ...valuedLong("cwd dir scope-dir") },
      ordered: true,
      exact: true,
    },
    inline: ["e", "p", "h", "v"],
    interactive: ["i"],
  },
  perl: { syntax: PERL, inline: ["e", "E", "v", "V"] },
  ruby: {
    syntax: { short: "C:e:E:F:I:r:0::i::K::T::W::x::", long: { help: "h", version: "", ...valuedLong("encoding external-encoding internal-encoding enable disable dump backtrace-limit crash-report parser") }, ordered: true },
    inline: ["e", "v", "h", "version"],
  },
  php: {
    syntax: {
      short: "B:c:d:E:f:F:r:R:S:t:z:",
      long: {
        "php-ini": "c", define: "d", file: "f", run: "r", "process-begin": "B", "process-code": "R", "process-file": "F", "process-end": "E", "zend-extension": "z",
        "no-php-ini": "n", interactive: "a", help: "h", info: "i", "syntax-check": "l", modules: "m", version: "v", "no-header": "q", "hide-args": "H", ini: "",
        ...valuedLong("rf rc re rz ri"),
      },
      ordered: true,
    },
    inline: ["r", "f", "R", "F", "B", "E", "S", "a", "h", "i", "l", "m", "s", "v", "w", "rf", "rc", "re", "rz", "ri", "ini"],
    interactive: ["a"],
  },
  // Shells of their own for these languages: a program only when given one.
  irb: { syntax: { ordered: true }, inline: ["v", "h", "--version", "--help"] },
  ipython: { syntax: { short: "c:m:", ordered: true }, inline: ["c", "m", "h", "V", "--version", "--help"] },
  bpython: { syntax: { ordered: true }, inline: ["h", "V", "--version", "--help"] },
  ptpython: { syntax: { ordered: true }, inline: ["h", "--version", "--help"] },
};

/**
 * Runners of a JavaScript or TypeScript program file other than node, tsx and ts-node, each read
 * as tsx is (node's options and their own, NODE_RUNNER; the program, its arguments): zx,
 * vite-node, jiti, babel-node, swc-node, esno, esr, sucrase-node, tsm; ts-node's other names as ts-node.
 */
const NODE_RUNNERS = /^(zx|vite-node|jiti|babel-node|swc-node|esno|esr|sucrase-node|tsm)$/;

/** Whether the command runs JavaScript: node, bun, tsx, ts-node (and its other names), or one of NODE_RUNNERS. */
export const runsJavaScript = (name: string): boolean => /^(node|bun|tsx|ts-node)/.test(name) || NODE_RUNNERS.test(name);

/**
 * NODE_RUNNERS' options: tsx's, and those of their own that take a value, so that its value is not
 * read as the program (vite-node's `-c config -r root -m mode`, babel-node's `-x .ts --presets p
 * --config-file f`, zx's `--cwd d --shell s --prefix p`).
 */
const NODE_RUNNER = {
  syntax: {
    short: "e:p:r:C:c:m:x:w:",
    long: {
      eval: "e", print: "p", require: "r", conditions: "C", config: "c", root: "r", mode: "m", extensions: "x", help: "h", version: "v",
      ...valuedLong(`${NODE_VALUED} tsconfig presets plugins config-file only ignore cwd shell prefix postfix env ext import`),
    },
    ordered: true,
    exact: true,
  },
  inline: ["e", "p", "h", "v"],
  interactive: ["i"],
};

/** python3.12 and pypy3 are python; nodejs is node; ts-node-esm is ts-node; zx and the like are tsx with options of their own (NODE_RUNNERS). */
export const interpreterOf = (name: string) =>
  NODE_RUNNERS.test(name) ? NODE_RUNNER : ownEntry(INTERPRETERS, name.replace(/^(python|pypy)[\d.]*$/, "python").replace(/^nodejs$/, "node").replace(/^ts-node-(esm|script|cwd|transpile-only)$/, "ts-node"));

/** xargs' options: its command follows them. */
export const XARGS: Syntax = {
  short: "a:d:E:e::I:i::L:l::n:P:s:",
  long: { "arg-file": "a", delimiter: "d", eof: "e", replace: "i", "max-lines": "l", "max-args": "n", "max-procs": "P", "max-chars": "s", "process-slot-var": ":" },
  ordered: true,
};

/** The word that stands, in the command xargs runs, for the arguments it reads. */
export const INPUT = '"$XARGS_INPUT"';

/**
 * Tools whose output is meant for `eval` and only sets variables and defines functions for the shell
 * (`eval "$(ssh-agent -s)"`, `eval "$(pyenv init -)"`, `eval "$(brew shellenv)"`): no file is
 * written by running it. direnv is not one: its output runs the project's .envrc.
 */
const ENVIRONMENT_SETUP =
  /^(ssh-agent( -[sckD]+)*|keychain( [-\w=.]+)*|(pyenv|rbenv|nodenv|goenv|jenv|plenv) init( -| --path| -- ?\w+| \w+)*|pyenv virtualenv-init -|(\/[\w./-]+\/)?brew shellenv( \w+)?|(conda|micromamba|mamba) shell\.\w+ hook|dircolors( -[bcp])*( [\w./~-]+)?|opam env( --?[\w=-]+)*|fnm env( --?[\w=-]+)*|mise (activate|env)( --?[\w=-]+| \w+)*|zoxide init \w+( --?[\w=-]+)*|starship init \w+( --print-full-init)?)$/;

/** A word that is `"$(tool …)"` or `$(tool …)` of one of ENVIRONMENT_SETUP's tools and nothing else. */
export function printsEnvironment(word: Node): boolean {
  const inner = word.type === "string" && word.namedChildren.length === 1 ? word.namedChildren[0] : word;
  if (inner?.type !== "command_substitution" || word.text.replace(/^"|"$/g, "") !== inner.text) return false;
  // One simple command and nothing else: `$(pyenv init -\n rm f)` runs two.
  if (inner.namedChildren.length !== 1 || inner.namedChildren[0]?.type !== "command") return false;
  const code = inner.text.replace(/^(\$\(|`)|(\)|`)$/g, "").trim().replace(/\s+/g, " ");
  return ENVIRONMENT_SETUP.test(code);
}

/** The variable that stands for `{}` in the command `find -exec` runs (Walk.bound). */
const FOUND = "__claims_find_files";

/** find's tests and actions that take a value (`-newerXY` too); `-fprintf` takes the file, then a format. */
const FIND_VALUED = new Set(
  `-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -lname -ilname -type -xtype -user -group -uid -gid
  -perm -size -links -inum -samefile -newer -anewer -cnewer -amin -atime -cmin -ctime -mmin -mtime -used -maxdepth -mindepth
  -fstype -context -printf -files0-from -fprint -fprint0 -fls -fprintf`.split(/\s+/),
);

/**
 * find: `-delete` removes what it finds under each starting point (read as `rm -r` of it); `-fprint`,
 * `-fprint0`, `-fprintf` and `-fls` write their file; `-exec`, `-execdir`, `-ok` and `-okdir` run a
 * command, read in turn with each `{}` standing for any file under the starting points (a starting
 * point that is a file, for itself). `-execdir` runs it in each file's directory: a place the text
 * does not fix. The tests are not read: `-name '*.ts'` narrows what is found, but a claim anywhere
 * under the starting point is judged as if found.
 */
export function findCommand(args: Array<string | undefined>, words: Node[], here: Walk, nested: Nested[]): void {
  let index = 0;
  // -H, -L, -P, -O3, -D debugopts: before the starting points.
  while (index < args.length && /^-([HLP]|O\d*|D)$/.test(args[index] ?? "")) index += args[index] === "-D" ? 2 : 1;
  const starts: string[] = [];
  for (; index < args.length; index++) {
    const arg = args[index];
    if (arg !== undefined && ((arg.startsWith("-") && arg.length > 1) || ["(", ")", "!", ","].includes(arg))) break;
    starts.push(...(wordValues(words[index] as Node, here) ?? [UNKNOWABLE]));
  }
  // Where each starting point is: unknown, a file standing for itself, or a directory for everything under it.
  const roots = (starts.length > 0 ? starts : ["."]).map((start) => within(here.cwd, start));
  const found = roots.map((root) => (root.startsWith(UNKNOWN_MARK) ? UNKNOWABLE : root.startsWith(GLOB_MARK) || isDirectory(root) || !exists(root) ? anyUnder(root.replace(GLOB_MARK, "")) : root));
  for (; index < args.length; index++) {
    const arg = args[index] ?? "";
    if (arg === "-delete") for (const root of roots) add(here, root.startsWith(UNKNOWN_MARK) ? UNKNOWABLE : root);
    else if (["-fprint", "-fprint0", "-fls", "-fprintf"].includes(arg)) {
      for (const path of words[index + 1] === undefined ? [] : (wordValues(words[index + 1] as Node, here) ?? [])) add(here, path);
    } else if (["-exec", "-execdir", "-ok", "-okdir"].includes(arg)) {
      // The command's words up to `;`, or to `+` right after a `{}`. A `{}` inside a word is a name
      // unknown (`{}.bak`), or, in a shell's script (`sh -c 'sed -i … {}'`), the files found.
      const line: string[] = [];
      const shell = SHELLS.includes(basename(args[index + 1] ?? ""));
      let end = index + 1;
      for (; end < args.length; end++) {
        const value = args[end];
        if (value === ";" || (value === "+" && args[end - 1] === "{}")) break;
        const word = words[end] as Node;
        if (value === "{}") line.push(`"$${FOUND}"`);
        else if (value?.includes("{}") && shell) line.push(`'${value.replaceAll("'", "'\\''").replaceAll("{}", `"$${FOUND}"`)}'`);
        else if (value?.includes("{}")) line.push(`"${value.replace(/[\\"$`]/g, "\\$&").replaceAll("{}", `\${${FOUND}}`)}"`);
        else line.push(word.text);
      }
      if (line.length > 0) nested.push({ script: line.join(" "), cwd: arg.endsWith("dir") ? undefined : here.cwd, bound: new Map([[FOUND, found]]) });
      index = end;
      continue;
    }
    if (FIND_VALUED.has(arg) || /^-newer[aBcmt][aBcmt]$/.test(arg)) index += arg === "-fprintf" ? 2 : 1;
  }
}
