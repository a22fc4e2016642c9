// Where claims live, who is holding, and the default TTL. Resolution order (README, Settings; docs/PROTOCOL.md 1):
// flag, then environment, then the nearest `.claims` config up from cwd, then the default.
import { accessSync, constants, existsSync, lstatSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { DEFAULT_TTL_SECONDS, MAX_TTL_SECONDS } from "./claim.js";
import { BadInputError, ConfigError } from "../os/errors.js";
import { optionName } from "../os/option-names.js";
import { CONTROL, INVISIBLE, showInvisible } from "../os/printable.js";
import { os } from "../os/lazy-os.js";
import { realOf } from "../os/files.js";
import { sudoUserHome } from "../os/sudo.js";
import { lookupTable, remembered } from "../os/lookups.js";
import { foldPath } from "../targets/caseless.js";
import { processStartTime, readProcessStat, sessionLeader } from "../os/process-identity.js";

/** Environment variables, as process.env holds them (spelled out so the library's types need no @types/node). */
export type Environment = Record<string, string | undefined>;

export interface SettingsInput {
  dir?: string;
  ttl?: string | number;
  cwd?: string;
  env?: Environment;
  /** Where to look up the `.claims` for the TTL and group sharing, when not from cwd: a target's own (routes.ts). */
  configAt?: string;
}

export interface Settings {
  dir: string;
  /** The TTL the caller's new claims get (and its queued interests). */
  ttl: number;
  /**
   * The TTL by which claims that carry no `ttl` of their own (and unreadable claim files) are
   * judged: never shorter than the protocol's 1800 s, so one session's short --ttl or CLAIMS_TTL
   * cannot make everybody else's fresh claims stale.
   */
  judgeTtl: number;
  /** True when the TTL came from a flag, the environment or a config, so a take records it in the claim. */
  ttlExplicit: boolean;
  /** The config says the claims directory is shared by a group: group-writable directory and files. */
  groupShared: boolean;
  configPath?: string;
  cwd: string;
  home: string;
}

interface ConfigFile {
  path: string;
  dir?: string;
  ttl?: number;
  shared_group?: boolean;
}

const CONFIG_KEYS = new Set(["dir", "ttl", "shared_group"]);

export function resolveSettings(input: SettingsInput = {}): Settings {
  const env = input.env ?? process.env;
  // Folded where the file system ignores case (src/targets/caseless.ts), as canonical targets are:
  // directories are compared with them, and with each other, as strings.
  const cwd = foldPath(resolve(input.cwd ?? process.cwd()));
  const given = homeOf(env);
  const home = isAbsolute(given) ? foldPath(given) : given;
  const config = findConfig(input.configAt ?? cwd);

  let dir: string;
  if (input.dir !== undefined) dir = resolveDirSetting(input.dir, cwd, home, optionName("dir"));
  else if (env.CLAIMS_DIR) dir = resolveDirSetting(absoluteFromEnvironment(env.CLAIMS_DIR), cwd, home, "CLAIMS_DIR");
  else if (config?.dir !== undefined) dir = fromConfig(config, () => resolveDirSetting(config.dir as string, dirname(config.path), home, `"dir" in ${config.path}`));
  else {
    dir = defaultClaimsDir(env, home);
    // (homeOf found no absolute home at all: the default would be another directory in every working directory.)
    if (!isAbsolute(dir)) throw new BadInputError(`HOME is ${given === "" ? "empty" : `relative (${JSON.stringify(given)})`} and this account has no absolute home, so the default claims directory would be another in every working directory; set HOME to an absolute path, or name the claims directory with CLAIMS_DIR.`);
  }

  let ttl = DEFAULT_TTL_SECONDS;
  let ttlExplicit = true;
  if (input.ttl !== undefined) ttl = parseTtl(input.ttl, optionName("ttl"));
  else if (env.CLAIMS_TTL) ttl = parseTtl(env.CLAIMS_TTL, "CLAIMS_TTL");
  else if (config?.ttl !== undefined) ttl = fromConfig(config, () => parseTtl(config.ttl as number, `"ttl" in ${config.path}`));
  else ttlExplicit = false;

  const judgeTtl = Math.max(DEFAULT_TTL_SECONDS, ttl);
  const settings: Settings = { dir: foldPath(dir), ttl, judgeTtl, ttlExplicit, groupShared: config?.shared_group === true, cwd, home };
  if (config) settings.configPath = config.path;
  return settings;
}

/** A setting read from a config file: a value it cannot take is that file's error (ConfigError). */
function fromConfig<Value>(config: ConfigFile, read: () => Value): Value {
  try {
    return read();
  } catch (error) {
    throw error instanceof BadInputError ? new ConfigError(config.path, error.message) : error;
  }
}

/**
 * The home `~` and the default claims directory are read from: HOME where it is absolute; where it
 * is empty or relative (`HOME=`, `HOME=h`), which names no one place (a relative one would give each
 * working directory a claims directory of its own, and two sessions in two directories would both
 * be granted one file), the account's own home, as where HOME is unset; else HOME as given, which
 * resolveSettings refuses for the default directory.
 */
export function homeOf(env: Environment): string {
  const given = env.HOME ?? os().homedir();
  if (isAbsolute(given)) return given;
  try {
    const own = os().userInfo().homedir;
    return isAbsolute(own) ? own : given;
  } catch {
    return given; // (no entry for this uid)
  }
}

/** The claims directory where neither --dir, CLAIMS_DIR nor a .claims "dir" names one: $XDG_STATE_HOME/claims (when absolute), else ~/.local/state/claims. */
export function defaultClaimsDir(env: Environment, home: string): string {
  const state = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(home, ".local", "state");
  return join(state, "claims");
}

/**
 * Where the sessions of this user that have no XDG_STATE_HOME claim by default
 * (`~/.local/state/claims`), when `dir` is the default claims directory and XDG_STATE_HOME moves it
 * elsewhere; undefined otherwise. Two sessions of one user, one with XDG_STATE_HOME (a login
 * profile, an IDE) and one without (an agent started elsewhere), would each claim a file in its
 * own default directory and both be granted: so the one with it looks in this one too, read-only,
 * and its take first leaves a pointer to its own there (src/protocol/pinned.ts), as a session
 * pinning CLAIMS_DIR does; the one without meets its claims through that pointer.
 */
export function unmovedDefault(dir: string, env: Environment): string | undefined {
  if (!env.XDG_STATE_HOME || !isAbsolute(env.XDG_STATE_HOME) || !isDefaultClaimsDir(dir, env)) return undefined;
  const unmoved = unmovedDefaultOf(env);
  if (unmoved === undefined || unmoved === dir) return undefined;
  // The same directory spelled another way (through a symlink, made or not yet): not moved.
  if (realOf(unmoved) === realOf(dir)) return undefined;
  // One that cannot be made where none is yet (a home that is not there, or not this user's to
  // write): no session of this user claims there.
  return existsSync(unmoved) || creatable(unmoved) ? unmoved : undefined;
}

/** `~/.local/state/claims` of this user (the invoking user's under sudo), whatever XDG_STATE_HOME says; undefined for a relative HOME, which names no one place. */
function unmovedDefaultOf(env: Environment): string | undefined {
  const given = sudoUserHome() ?? homeOf(env);
  return isAbsolute(given) ? foldPath(defaultClaimsDir({}, given)) : undefined;
}

/** Whether the nearest directory above `path` that exists may be written by this process (so `path` may be made). */
function creatable(path: string): boolean {
  for (let at = dirname(path); ; at = dirname(at)) {
    try {
      if (!statSync(at).isDirectory()) return false;
      accessSync(at, constants.W_OK | constants.X_OK);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || at === dirname(at)) return false;
    }
  }
}

/**
 * Whether `dir` (as resolveSettings gives it) is the default claims directory of `env`: the one
 * directory whose missing parents are made with it (src/protocol/store.ts, ensure), and the one
 * whose absence is no typo (namedDirectoryMissing).
 */
export function isDefaultClaimsDir(dir: string, env: Environment): boolean {
  const given = homeOf(env);
  // Spelled as given first: where the file system keeps case apart (the common case), folding
  // changes nothing, and this answers without a look at the disk.
  if (defaultClaimsDir(env, given) === dir) return true;
  const home = isAbsolute(given) ? foldPath(given) : given;
  return foldPath(defaultClaimsDir(env, home)) === dir;
}

/**
 * CLAIMS_DIR is inherited by every process of a session, whatever directory each runs in: a
 * relative one would give each working directory a claims directory of its own, and two sessions
 * in two directories would both be granted one file. So it must be absolute (or `~/…`), as the
 * XDG base directory variables must; a `.claims` "dir" names one place and may be relative, and so
 * may `--dir` of a verb run once (not of the hook or `claims mcp`: absoluteDirOption).
 */
function absoluteFromEnvironment(value: string): string {
  if (!isRelativeSetting(value)) return value;
  throw new BadInputError(`CLAIMS_DIR is a relative path (${JSON.stringify(value)}), which would name another claims directory in every working directory; set it to an absolute path.`);
}

/** A directory setting relative to where it is read: neither absolute nor `~`, `~/…` (an empty one is refused as empty elsewhere). */
function isRelativeSetting(value: string): boolean {
  return value.trim() !== "" && !isAbsolute(value) && value !== "~" && !value.startsWith("~/");
}

/** A relative (or mistyped) `--dir` where one command line runs in many directories: a setup error, not a passing one. */
export class RelativeDirError extends BadInputError {}

/**
 * `--dir` of a command started in many directories with one command line (an agent's hook, `claims
 * mcp`): relative, it would name another claims directory in each, as a relative CLAIMS_DIR would.
 * One whose parent does not exist either is taken for a typo, as the verbs take their --dir
 * (src/cli/shared.ts): made with its parents, it would hold claims no other session looks at.
 */
export function absoluteDirOption(value: string | undefined, command: string): void {
  if (value === undefined) return;
  if (isRelativeSetting(value)) {
    throw new RelativeDirError(`--dir of ${command} is a relative path (${JSON.stringify(value)}): ${command} runs in each session's own directory, where it would name another claims directory; give an absolute path.`);
  }
  const typo = isAbsolute(value) ? mistypedDir(value) : undefined;
  if (typo !== undefined) throw new RelativeDirError(`--dir of ${command} (${value}) ${typo}`);
}

/**
 * What is wrong with a --dir typed on a command line (`dir`, absolute) that does not exist, nor does
 * its parent: taken for a typo (--dir /tmp/claim/store for /tmp/claims/store), since made with its
 * parents it would hold claims no other session looks at. Undefined for one that may be made.
 * CLAIMS_DIR and a .claims "dir" are set once and deliberately (a project's .claims may name a
 * directory in a cache not made yet): only the flag is held to this.
 */
export function mistypedDir(dir: string): string | undefined {
  if (existsSync(dir) || existsSync(dirname(dir))) return undefined;
  return `does not exist, nor does its parent ${dirname(dir)} (a mistyped path?); fix the path, or create ${dirname(dir)} first if it is meant.`;
}

/** A directory setting: relative to `base`, with `~` for the home directory (as a shell would have expanded it). */
function resolveDirSetting(value: string, base: string, home: string, source: string): string {
  if (value.trim() === "") throw new BadInputError(`${source} is empty; give the path of the claims directory.`);
  if (value.includes("\0")) throw new BadInputError(`${source} contains a NUL byte; give a plain directory path.`);
  if (value === "~" || value.startsWith("~/")) return join(home, value.slice(1));
  return resolve(base, value);
}

/**
 * Whole seconds from 1 to 30 days, as plain digits. Anything else is bad input: a TTL that silently
 * became 0 or NaN would make every claim stale, and one spelled " 10" or "010" is a slip (a quoted
 * space, a padded number; some readers take a leading 0 as octal) better named than guessed at.
 */
export function parseTtl(value: string | number, source: string): number {
  const text = String(value);
  const seconds = Number(text);
  if (/^[1-9]\d*$/.test(text) && seconds <= MAX_TTL_SECONDS) return seconds;
  if (seconds >= 1 && seconds <= MAX_TTL_SECONDS) refusePaddedDigits(text, source);
  throw new BadInputError(`${source} must be whole seconds from 1 to ${MAX_TTL_SECONDS} (30 days); got ${JSON.stringify(text)}.`);
}

/** A number of seconds typed with spaces around it or a leading zero (`" 10"`, `010`): bad input naming the plain spelling (`--ttl`, `--wait`). */
export function refusePaddedDigits(text: string, source: string): void {
  if (/^\s*\d+\s*$/.test(text) && !/^(0|[1-9]\d*)$/.test(text)) {
    throw new BadInputError(`${source} must be plain digits, without spaces or leading zeros (${Number(text)} for ${Number(text)} seconds); got ${JSON.stringify(text)}.`);
  }
}

/**
 * Whether a directory holds a `.claims` file (a symlink followed; a directory of that name is not a
 * config), as long as a verb runs (src/os/lookups.ts). A symlink leading nowhere counts, to be
 * refused as a config that cannot be read: skipped, this tree's claims would go to another claims
 * directory than those of the sessions where it leads to the file (a checkout whose shared config
 * is missing), and each side could be granted one file.
 */
export function hasConfigFile(directory: string): boolean {
  return remembered(CONFIG_FILES, directory, () => {
    try {
      const path = join(directory, ".claims");
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (stat === undefined || stat.isFile()) return stat !== undefined;
      if (!stat.isSymbolicLink()) return false;
      const led = statSync(path, { throwIfNoEntry: false });
      return led === undefined || led.isFile();
    } catch {
      return false; // unreadable (EACCES, ENOTDIR): none here
    }
  });
}

const CONFIG_FILES = lookupTable<boolean>();

/** The nearest `.claims` file up from cwd (a directory of that name is skipped, it is not a config). */
function findConfig(cwd: string): ConfigFile | undefined {
  let at = resolve(cwd);
  for (;;) {
    if (hasConfigFile(at)) return readConfig(join(at, ".claims"));
    const parent = dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
}

function readConfig(path: string): ConfigFile {
  try {
    return parseConfig(path);
  } catch (error) {
    throw error instanceof BadInputError ? new ConfigError(path, error.message) : error;
  }
}

function readlinkOrSelf(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return path;
  }
}

function parseConfig(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new BadInputError(`Config ${path} is a symlink to ${readlinkOrSelf(path)}, which is not there; restore that file, or remove the link (every session where it leads to the file claims in the directory it names).`);
    throw new BadInputError(`Cannot read config ${path} (${code}); fix its permissions or remove it.`);
  }
  return parseConfigText(text, path);
}

/**
 * The claims directory a `.claims` config's text names, as if it were at `path` (the git guard
 * reads one a change deletes from the commit before it): its "dir", else the default.
 */
export function claimsDirOfConfig(text: string, path: string, env: Environment = process.env): string {
  const home = homeOf(env);
  const config = (() => {
    try {
      return parseConfigText(text, path);
    } catch (error) {
      throw error instanceof BadInputError ? new ConfigError(path, error.message) : error;
    }
  })();
  return config.dir === undefined ? defaultClaimsDir(env, home) : fromConfig(config, () => resolveDirSetting(config.dir as string, dirname(path), home, `"dir" in ${path}`));
}

function parseConfigText(text: string, path: string): ConfigFile {
  let value: unknown;
  try {
    value = JSON.parse(stripComments(text));
  } catch (error) {
    throw new BadInputError(`Config ${path} is not valid JSON (${(error as Error).message}); see .claims.example for the format.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new BadInputError(`Config ${path} must be a JSON object; see .claims.example for the format.`);
  }
  const record = value as Record<string, unknown>;
  // Strict: a misspelt key silently ignored would leave claims in the wrong place or with the wrong TTL.
  for (const key of Object.keys(record)) {
    if (!CONFIG_KEYS.has(key)) {
      throw new BadInputError(`Config ${path} has an unknown key "${key}"; the keys are ${[...CONFIG_KEYS].join(", ")}.`);
    }
  }
  const config: ConfigFile = { path };
  if (record.dir !== undefined) {
    if (typeof record.dir !== "string" || record.dir.trim() === "") {
      throw new BadInputError(`"dir" in ${path} must be a non-empty path string.`);
    }
    config.dir = record.dir;
  }
  if (record.ttl !== undefined) {
    if (typeof record.ttl !== "number") throw new BadInputError(`"ttl" in ${path} must be a number of seconds.`);
    config.ttl = record.ttl;
  }
  if (record.shared_group !== undefined) {
    if (typeof record.shared_group !== "boolean") throw new BadInputError(`"shared_group" in ${path} must be true or false.`);
    config.shared_group = record.shared_group;
  }
  return config;
}

/** Drops `//` and `/* *\/` comments outside strings, so `.claims` can explain itself like `.claims.example`. */
function stripComments(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (char === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (char === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
    } else {
      out += char;
    }
  }
  return out;
}

// Holder ids. An agent's own session id wins over the terminal, so two agent sessions started
// from one terminal never share a holder; a terminal id includes its session leader's pid and
// start time, so two terminals (or one terminal reused later) never share one either.
// Claude Code sets CLAUDE_CODE_SESSION_ID in its shell, Codex CODEX_SESSION_ID (the session_id of
// its hook payloads); the hooks name the same holders.
const AGENT_SESSION_VARIABLES: Array<[variable: string, prefix: string]> = [
  ["CLAUDE_CODE_SESSION_ID", "claude"],
  ["CODEX_SESSION_ID", "codex"],
];
const MAX_HOLDER_LENGTH = 200;

export function resolveHolder(flag: string | undefined, env: Environment = process.env): string {
  if (flag !== undefined) return checkHolder(flag, optionName("holder"));
  if (env.CLAIMS_HOLDER) return checkHolder(env.CLAIMS_HOLDER, "CLAIMS_HOLDER");
  const agents = AGENT_SESSION_VARIABLES.filter(([variable]) => env[variable]);
  // One agent started from another's shell inherits both variables: the nearer one is asking.
  if (agents.length > 1 && nearestAgentIsCodex(env)) agents.reverse();
  for (const [variable, prefix] of agents) return checkHolder(`${prefix}-${env[variable]}`, variable);
  const terminal = terminalHolder();
  if (terminal) return terminal;
  // sudo resets the environment: the agent session's id its shell had is not passed on.
  if (env.SUDO_UID !== undefined && process.getuid?.() === 0) {
    throw new BadInputError(
      `No holder id: sudo passes on neither the agent's session id nor CLAIMS_HOLDER; run sudo --preserve-env=CLAUDE_CODE_SESSION_ID,CODEX_SESSION_ID,CLAIMS_HOLDER claims …, or pass ${optionName("holder")} <id>.`,
    );
  }
  throw new BadInputError(
    `No holder id: pass ${optionName("holder")} <id> or set CLAIMS_HOLDER (no agent session id or terminal was found to derive one).`,
  );
}

/**
 * A note when CLAIMS_HOLDER names someone other than the agent session whose shell this is: the
 * session's hooks claim as the session, so its shell and its hooks would be two holders, and every
 * session started where CLAIMS_HOLDER is exported would be one.
 */
export function holderOverride(flag: string | undefined, env: Environment = process.env): string | undefined {
  if (flag !== undefined || !env.CLAIMS_HOLDER || !AGENT_SESSION_VARIABLES.some(([variable]) => env[variable])) return undefined;
  const derived = resolveHolder(undefined, { ...env, CLAIMS_HOLDER: "" });
  const agent = AGENT_SESSION_VARIABLES.some(([variable, prefix]) => env[variable] && derived === `${prefix}-${env[variable]}`);
  if (!agent || derived === env.CLAIMS_HOLDER) return undefined;
  return `CLAIMS_HOLDER=${env.CLAIMS_HOLDER} stands in for this agent session's own holder, ${derived}, which its hooks claim as; unset CLAIMS_HOLDER where agents run (every session that inherits it is one holder), or pass --holder ${derived}`;
}

/** Walks up the process tree: a codex process met before Claude Code's own (CLAUDE_PID) is the nearer agent. Linux only. */
function nearestAgentIsCodex(env: Environment): boolean {
  const claude = Number(env.CLAUDE_PID);
  let pid = process.ppid;
  for (let depth = 0; depth < 32 && pid > 1; depth++) {
    if (pid === claude) return false;
    const stat = readProcessStat(pid);
    if (!stat) return false;
    if (/^codex/.test(stat.name)) return true;
    pid = stat.ppid;
  }
  return false;
}

/** A holder id as every id must be: printable, visible, not too long (`source` names where it came from). */
export function checkHolder(holder: string, source: string): string {
  if (holder.trim() === "" || CONTROL.test(holder) || holder.length > MAX_HOLDER_LENGTH) {
    throw new BadInputError(`${source} must be 1 to ${MAX_HOLDER_LENGTH} printable characters; got ${JSON.stringify(holder)}.`);
  }
  // Bytes that are not UTF-8 reach this process as U+FFFD: two sessions' ids (`\xff`, `\xfe`) would be one holder.
  if (holder.includes("\uFFFD")) {
    throw new BadInputError(`${source} ${JSON.stringify(holder)} has U+FFFD, which stands for bytes that are not UTF-8; use a UTF-8 id.`);
  }
  // An id shown in every refusal and status line: no character that hides itself or turns the text
  // around it (`a\u202eb` would show another holder's name).
  if (INVISIBLE.test(holder)) {
    const code = ((holder.match(INVISIBLE)?.[0] as string).codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
    throw new BadInputError(`${source} ${showInvisible(JSON.stringify(holder))} has an invisible or direction-changing character (U+${code}); use visible characters only.`);
  }
  // No refusal or status line shows a space at either end: " a" would be a holder apart from "a"
  // that reads as "a" everywhere it is named.
  if (holder !== holder.trim()) {
    throw new BadInputError(`${source} ${JSON.stringify(holder)} starts or ends with white space, which no refusal or status line shows; use ${JSON.stringify(holder.trim())}.`);
  }
  return holder;
}

/** `tty-pts-3-4711-88213`: the terminal device, its session leader's pid and start time. Linux only. */
function terminalHolder(): string | undefined {
  for (const fd of [0, 1, 2]) {
    let device: string;
    try {
      device = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (!/^\/dev\/(pts\/\d+|tty\w*)$/.test(device)) continue;
    const leader = sessionLeader();
    if (leader === undefined) return undefined;
    const start = processStartTime(leader);
    return `tty-${device.slice(5).replace("/", "-")}-${leader}${start === undefined ? "" : `-${start}`}`;
  }
  return undefined;
}
