// `claims hook install|verify claude|codex`: a setup that ends with a hook that runs, and a check
// that says why one would not. Merging keeps every other setting and hook; a claims hook already
// there (an older command line, a moved binary) is replaced, not doubled.
//
// Codex runs a hook from hooks.json only once it is trusted: a hash per hook in config.toml that
// Codex computes. We do not compute it: `codex app-server` (the interface Codex's own TUI uses)
// lists each hook with its current hash and trust, and writes the trust, so a change in Codex's
// hashing cannot leave a hook silently untrusted here.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, delimiter, dirname, isAbsolute, join } from "node:path";
import { BadInputError } from "../os/errors.js";
import { realOrSelf } from "../os/files.js";
import { hookCommand, hookEntries, hookEvents, type HookCommandOptions } from "./config.js";
import { directoryNotes, shellWords } from "./directory-note.js";

type Agent = "claude" | "codex";
type Env = Record<string, string | undefined>;

export interface SetupOptions extends HookCommandOptions {
  agent: Agent;
  /** The claims binary the hook runs (this one). */
  binary: string;
  /** Claude Code: the project's .claude/settings.json under this directory instead of the user's settings. */
  project?: string;
  /** The codex binary that trusts and lists hooks; else `codex` on PATH. */
  codex?: string;
  env?: Env;
}

export interface SetupReport {
  agent: Agent;
  file: string;
  /** The hook is set up and will run. */
  ok: boolean;
  /** What was done, and what is left for the user (each one line). */
  notes: string[];
  problems: string[];
  /**
   * Set up, but the hook may check another claims directory than this environment's (each one
   * line; a note, so `ok` is unaffected). Present only when there is one.
   */
  warnings?: string[];
}

/** A handler that runs `claims hook <agent>`, whatever binary path or options it has. */
function isClaimsHook(command: unknown, agent: Agent): boolean {
  return typeof command === "string" && new RegExp(`claims(\\.js)?'?\\s+hook\\s+${agent}(\\s|$)`).test(command);
}

function settingsFile(options: SetupOptions): string {
  const env = options.env ?? process.env;
  const home = env.HOME || homedir();
  if (options.agent === "codex") return join(env.CODEX_HOME || join(home, ".codex"), "hooks.json");
  if (options.project !== undefined) return join(options.project, ".claude", "settings.json");
  return join(env.CLAUDE_CONFIG_DIR || join(home, ".claude"), "settings.json");
}

/**
 * How a sentence about a settings file that cannot be used ends, by who is reading it: install
 * stopped before writing, so it says nothing was changed; verify never changes anything, so it says
 * what to do next instead.
 */
type Reader = "install" | "verify";
const NEXT_STEP: Record<Reader, { fix: string; permissions: string; moveAway: string }> = {
  install: { fix: "fix it first, nothing was changed.", permissions: "fix its permissions first, nothing was changed.", moveAway: "move it away first, nothing was changed." },
  verify: { fix: "fix it, then verify again", permissions: "fix its permissions, then verify again", moveAway: "move it away, then install the hook" },
};

function readJsonObject(file: string, agent: Agent, reader: Reader): Record<string, unknown> {
  const next = NEXT_STEP[reader];
  if (!existsSync(file)) return {};
  let value: unknown;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BadInputError(code === "EISDIR" ? `${file} is a directory, where ${AGENT_NAMES[agent]} keeps its settings file; ${next.moveAway}` : `Cannot read ${file} (${code}); ${next.permissions}`);
  }
  try {
    value = JSON.parse(text);
  } catch (error) {
    // JSON.parse quotes the start of the text, line breaks and all: one line of it.
    throw new BadInputError(`${file} is not valid JSON (${(error as Error).message.replace(/\s*\n\s*/g, " ")}); ${next.fix}`);
  }
  if (!isObject(value)) throw new BadInputError(`${file} holds ${found(value)} where ${AGENT_NAMES[agent]} expects a JSON object of settings ({"hooks": {...}}); ${next.fix}`);
  return value;
}

type Group = { matcher?: string; hooks?: Array<{ command?: unknown }> };

const AGENT_NAMES: Record<Agent, string> = { claude: "Claude Code", codex: "Codex" };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** What a settings value is, for a message: its JSON type, and a short value where it has one. */
function found(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  const text = JSON.stringify(value);
  const shown = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  return `${typeof value === "string" ? "a string" : typeof value === "number" ? "a number" : "a boolean"} (${shown})`;
}

/**
 * `hooks` as the agents define it: an object of events, each an array of groups, each group an
 * object with an optional string `matcher` and an array of handler objects. Anything else is the
 * user's to fix, named by file and key with what was found and what was expected: nothing is
 * rewritten.
 */
function checkHooksShape(file: string, settings: Record<string, unknown>, agent: Agent, reader: Reader): void {
  const expects = (key: string, value: unknown, expected: string) =>
    new BadInputError(`${file}: "${key}" is ${found(value)}, but ${AGENT_NAMES[agent]} expects ${expected} there; ${NEXT_STEP[reader].fix}`);
  const handlers = 'an array of handler objects ([{"type": "command", "command": "..."}])';
  if (settings.hooks === undefined) return;
  if (!isObject(settings.hooks)) throw expects("hooks", settings.hooks, 'an object of events ({"PreToolUse": [...], ...})');
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) throw expects(`hooks.${event}`, groups, `an array of matcher groups ([{"matcher": "...", "hooks": [...]}])`);
    for (const [index, group] of groups.entries()) {
      const at = `hooks.${event}[${index}]`;
      if (!isObject(group)) throw expects(at, group, `a matcher group object ({"matcher": "...", "hooks": [...]})`);
      if (group.matcher !== undefined && typeof group.matcher !== "string") throw expects(`${at}.matcher`, group.matcher, 'a string of tool names ("Write|Edit")');
      if (group.hooks === undefined) continue;
      if (!Array.isArray(group.hooks)) throw expects(`${at}.hooks`, group.hooks, handlers);
      for (const [which, handler] of group.hooks.entries()) {
        if (!isObject(handler)) throw expects(`${at}.hooks[${which}]`, handler, 'a handler object ({"type": "command", "command": "..."})');
      }
    }
  }
}

export async function installHook(options: SetupOptions): Promise<SetupReport> {
  const file = settingsFile(options);
  const settings = readJsonObject(file, options.agent, "install");
  checkHooksShape(file, settings, options.agent, "install");
  const hooks = (typeof settings.hooks === "object" && settings.hooks !== null ? settings.hooks : {}) as Record<string, Group[]>;
  // Every older claims hook goes, from every event (an event we no longer register included).
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept = groups
      .map((group) => ({ ...group, hooks: (group.hooks ?? []).filter((handler) => !isClaimsHook(handler.command, options.agent)) }))
      .filter((group) => group.hooks.length > 0);
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  const run = hookCommand(options.agent, options.binary, options);
  for (const [event, groups] of Object.entries(hookEntries(options.agent, run, options))) hooks[event] = [...(hooks[event] ?? []), ...(groups as Group[])];
  settings.hooks = hooks;
  makeDirectory(dirname(file));
  writeSettings(file, settings);
  const notes = [`wrote the claims hook into ${file} (other settings and hooks kept)`];
  if (options.agent === "claude") {
    const report = await verifyHook(options);
    // A project's .claude/settings.json is usually committed; the command names this machine's paths.
    const shared = options.project !== undefined && basename(file) === "settings.json"
      ? [`${file} is usually committed with the project, and the hook's command names this machine's paths (${run}); on a machine without them the hook does not run and nothing is refused: there, install it with claims hook install claude (your own ~/.claude/settings.json)`]
      : [];
    return { ...report, notes: [...notes, ...report.notes], ...withWarnings([...(report.warnings ?? []), ...shared]) };
  }
  const codex = findCodex(options);
  if (!codex) {
    return {
      agent: "codex",
      file,
      ok: false,
      notes,
      ...withWarnings(directoryNotes("install", options, [run])),
      problems: [
        "codex was not found on PATH, so the hooks are not trusted yet and Codex will skip them: run claims hook install codex --codex /path/to/codex, or start codex, type /hooks and trust each claims hook.",
      ],
    };
  }
  const trusted = await trustCodexHooks(codex, file, run, options.env ?? process.env);
  notes.push(trusted > 0 ? `trusted ${trusted} claims hook(s) through ${codex} app-server (Codex records it in its config.toml)` : "the claims hooks were already trusted");
  const report = await verifyHook(options);
  return { ...report, notes: [...notes, ...report.notes] };
}

/**
 * `claims hook uninstall claude|codex`: takes every claims hook of that agent out of the file
 * install writes, and nothing else; a group or event left empty goes with it. A file that is not
 * the agent's shape is left as it is (exit 2), as for install.
 */
export async function uninstallHook(options: SetupOptions): Promise<SetupReport> {
  const file = settingsFile(options);
  const notes: string[] = [];
  const warnings: string[] = [];
  const { removed, moved } = existsSync(file) ? removeClaimsHooks(file, options.agent) : { removed: [], moved: [] };
  if (removed.length === 0) notes.push(`no claims hook in ${file}; nothing to do`);
  else notes.push(`removed the claims hook from ${file} (${removed.join(", ")}; other settings and hooks kept)`);
  if (options.agent === "codex" && moved.length > 0) {
    // Codex keys a hook's trust by its place in the file: one that moved up is untrusted until trusted again.
    notes.push(`other hooks of ${moved.join(", ")} moved up a place, where Codex no longer trusts them: if codex skips one, trust it again under /hooks`);
  }
  // Claude Code reads hooks from the user's and the project's files alike: one left elsewhere still runs.
  if (options.agent === "claude") {
    for (const other of claudeFiles(options)) {
      if (realOrSelf(other) === realOrSelf(file) || !existsSync(other)) continue;
      let settings: Record<string, unknown>;
      try {
        settings = readJsonObject(other, "claude", "verify");
      } catch {
        continue;
      }
      const groups = isObject(settings.hooks) ? Object.values(settings.hooks) : [];
      const left = groups.some((list) => Array.isArray(list) && list.some((group: Group) => isObject(group) && Array.isArray(group.hooks) && group.hooks.some((handler) => isClaimsHook(handler?.command, "claude"))));
      if (left) warnings.push(`a claims hook is still in ${other}, and Claude Code runs it: ${basename(other) === "settings.json" ? `run claims hook uninstall claude --project in ${dirname(dirname(other))}` : "remove it there"}`);
    }
  }
  return { agent: options.agent, file, ok: true, notes, problems: [], ...withWarnings(warnings) };
}

/**
 * Removes the agent's claims hooks from `file`, written back only when one was there. Returns the
 * events they were in, and those where a hook that stays came after a removed one (it moved up).
 */
function removeClaimsHooks(file: string, agent: Agent): { removed: string[]; moved: string[] } {
  const settings = readJsonObject(file, agent, "install");
  checkHooksShape(file, settings, agent, "install");
  const removed: string[] = [];
  const moved: string[] = [];
  if (!isObject(settings.hooks)) return { removed, moved };
  const hooks = settings.hooks as Record<string, Group[]>;
  for (const [event, groups] of Object.entries(hooks)) {
    const kept: Group[] = [];
    let dropped = false;
    let shifted = false;
    for (const group of groups) {
      const handlers = group.hooks ?? [];
      const left = handlers.filter((handler) => !isClaimsHook(handler.command, agent));
      if (left.length < handlers.length) {
        dropped = true;
        if (left.length > 0) shifted = true; // a handler beside a removed one may have moved
      } else if (dropped) shifted = true;
      if (left.length === handlers.length) kept.push(group);
      else if (left.length > 0) kept.push({ ...group, hooks: left });
    }
    if (!dropped) continue;
    removed.push(event);
    if (shifted) moved.push(event);
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (removed.length === 0) return { removed, moved };
  if (Object.keys(hooks).length === 0) delete settings.hooks;
  writeSettings(file, settings);
  return { removed, moved };
}

export async function verifyHook(options: SetupOptions): Promise<SetupReport> {
  const file = settingsFile(options);
  const problems: string[] = [];
  const notes: string[] = [];
  const files = options.agent === "claude" && options.project === undefined ? claudeFiles(options) : [file];
  const found = new Map<string, { matcher?: string; command: string }>();
  const switchedOff: string[] = [];
  for (const path of files) {
    let settings: Record<string, unknown>;
    try {
      settings = readJsonObject(path, options.agent, "verify");
      checkHooksShape(path, settings, options.agent, "verify");
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    // Claude Code's own off switch: set in any of its files, it is taken to win (a false in another may not undo it).
    if (options.agent === "claude" && settings.disableAllHooks === true) switchedOff.push(path);
    for (const [event, groups] of Object.entries((settings.hooks ?? {}) as Record<string, Group[]>)) {
      for (const group of Array.isArray(groups) ? groups : []) {
        for (const handler of group.hooks ?? []) {
          if (isClaimsHook(handler.command, options.agent)) found.set(event, { ...(group.matcher !== undefined && { matcher: group.matcher }), command: handler.command as string });
        }
      }
    }
  }
  for (const path of switchedOff) problems.push(`${path} sets "disableAllHooks": true, so Claude Code runs no hook, the claims hook included: remove it there, then verify again`);
  // The hook runs in the agent's environment, which is this one here: a CLAIMS_DIR no verb accepts
  // makes every write pass unchecked (the hook fails open, saying so where the agent may not show it).
  const claimsDir = (options.env ?? process.env).CLAIMS_DIR;
  if (claimsDir && !isAbsolute(claimsDir) && claimsDir !== "~" && !claimsDir.startsWith("~/")) {
    problems.push(`CLAIMS_DIR is a relative path (${JSON.stringify(claimsDir)}): the hook refuses it and lets every write through; set it to an absolute path`);
  }
  const absent: string[] = [];
  const before = problems.length;
  for (const [event, matcher] of Object.entries(hookEvents(options.agent))) {
    const entry = found.get(event);
    if (!entry) {
      absent.push(event);
      continue;
    }
    const needed = matcher?.split("|") ?? [];
    const has = entry.matcher === undefined || entry.matcher === "" || entry.matcher === "*" ? undefined : entry.matcher.split("|");
    const missing = has ? needed.filter((tool) => !has.includes(tool)) : [];
    if (missing.length > 0) problems.push(`the claims hook for ${event} does not match ${missing.join(", ")}: writes through it pass unchecked; run claims hook install ${options.agent}`);
    for (const path of commandFiles(entry.command)) {
      if (!existsSync(path)) problems.push(`the claims hook for ${event} runs ${path}, which does not exist: run claims hook install ${options.agent} from the claims you use now`);
    }
  }
  // One line for the events with no hook: none at all is one problem, not one per event.
  if (absent.length > 0) problems.splice(before, 0, `no claims hook for ${absent.join(", ")} in ${files.join(" or ")}: run claims hook install ${options.agent}`);
  const warnings = directoryNotes("install", options, [...new Set([...found.values()].map((entry) => entry.command))]);
  if (options.agent === "codex" && found.size > 0) {
    const codex = findCodex(options);
    if (!codex) problems.push("codex was not found on PATH (or --codex), so whether Codex trusts the hooks cannot be checked; an untrusted hook is skipped silently");
    else {
      const listed = await listCodexHooks(codex, options.env ?? process.env);
      const ours = listed.filter((hook) => isClaimsHook(hook.command, "codex"));
      if (ours.length === 0) problems.push(`${codex} lists no claims hook: it reads another CODEX_HOME, or the file is not valid for it`);
      for (const hook of ours) {
        if (hook.trustStatus !== "trusted" && !hook.isManaged) {
          problems.push(`Codex will skip the claims hook ${hook.key}: it is ${hook.trustStatus ?? "not trusted"}; run claims hook install codex (or trust it under /hooks in codex)`);
        }
        if (hook.enabled === false) problems.push(`the claims hook ${hook.key} is disabled in Codex`);
      }
      if (ours.length > 0 && problems.length === 0) notes.push(`${codex} reports every claims hook trusted and enabled`);
    }
  }
  return { agent: options.agent, file, ok: problems.length === 0, notes, problems, ...withWarnings(warnings) };
}

const withWarnings = (warnings: string[]) => (warnings.length > 0 ? { warnings } : {});

function claudeFiles(options: SetupOptions): string[] {
  const cwd = process.cwd();
  return [...new Set([settingsFile(options), join(cwd, ".claude", "settings.json"), join(cwd, ".claude", "settings.local.json")])]; // one file once, when the project is the home directory
}

/**
 * Writes the settings whole (a temporary file renamed over it), where the file really is: a
 * settings file that is a symlink into a dotfiles repository stays that symlink, its target
 * rewritten, and keeps its mode (an owner-only file stays owner-only).
 */
function writeSettings(file: string, settings: Record<string, unknown>): void {
  let target = file;
  let mode: number | undefined;
  if (isSymlink(file)) {
    if (!existsSync(file)) throw new BadInputError(`${file} is a symlink to ${readlinkSync(file)}, which does not exist; create it or remove the link, nothing was changed.`);
    target = realpathSync(file);
  }
  try {
    mode = statSync(target).mode & 0o7777;
  } catch {
    // a new file: the umask's mode
  }
  const temp = `${target}.claims-${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`, mode === undefined ? {} : { mode });
  if (mode !== undefined) chmodSync(temp, mode); // the umask narrowed the mode writeFileSync gave it
  renameSync(temp, target);
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The agent's settings directory, made if missing; one behind a symlink to nowhere (a dotfile manager's) is named, not a crash. */
function makeDirectory(directory: string): void {
  try {
    mkdirSync(directory, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    for (let at = directory; at !== dirname(at); at = dirname(at)) {
      let target: string;
      try {
        target = readlinkSync(at);
      } catch {
        continue; // not a symlink
      }
      if (!existsSync(at)) throw new BadInputError(`${at} is a symlink to ${target}, which does not exist; create ${target} or remove the link, then install again.`);
    }
    throw new BadInputError(`Cannot create ${directory} (${code}); fix the permissions of the directory above it, then install again.`);
  }
}

/** The absolute files a hook command runs (node and the claims script). */
function commandFiles(command: string): string[] {
  return shellWords(command)
    .slice(0, 2)
    .filter((word) => word.startsWith("/"));
}

function findCodex(options: SetupOptions): string | undefined {
  if (options.codex !== undefined) {
    if (!existsSync(options.codex)) throw new BadInputError(`--codex ${options.codex} does not exist; give the path of the codex binary.`);
    return options.codex;
  }
  for (const dir of ((options.env ?? process.env).PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, "codex"))) return join(dir, "codex");
  }
  return undefined;
}

interface CodexHook {
  key: string;
  command?: string;
  sourcePath?: string;
  currentHash?: string;
  trustStatus?: string;
  enabled?: boolean;
  isManaged?: boolean;
}

/** A short conversation with `codex app-server` (JSON-RPC, one message a line). */
async function withAppServer<T>(codex: string, env: Env, work: (call: (method: string, params: unknown) => Promise<Record<string, unknown>>) => Promise<T>): Promise<T> {
  const child = spawn(codex, ["app-server"], { env: env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map<number, { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  let buffer = "";
  let next = 0;
  const failAll = (error: Error) => {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  };
  child.on("error", (error) => failAll(new BadInputError(`could not run ${codex} app-server: ${error.message}`)));
  child.on("exit", () => failAll(new BadInputError(`${codex} app-server exited before it answered`)));
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    for (let at = buffer.indexOf("\n"); at !== -1; at = buffer.indexOf("\n")) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      let message: { id?: number; result?: Record<string, unknown>; error?: { message?: string } };
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      const pending = message.id === undefined ? undefined : waiting.get(message.id);
      if (!pending) continue;
      waiting.delete(message.id as number);
      if (message.error) pending.reject(new BadInputError(`${codex} app-server: ${message.error.message ?? "error"}`));
      else pending.resolve(message.result ?? {});
    }
  });
  const call = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  const timer = setTimeout(() => failAll(new BadInputError(`${codex} app-server did not answer within 30 s`)), 30_000);
  try {
    await call("initialize", { clientInfo: { name: "claims", version: "1" } });
    child.stdin.write(`${JSON.stringify({ method: "initialized" })}\n`);
    return await work(call);
  } finally {
    clearTimeout(timer);
    child.stdin.end();
    child.kill();
  }
}

async function listCodexHooks(codex: string, env: Env): Promise<CodexHook[]> {
  return withAppServer(codex, env, async (call) => {
    const result = await call("hooks/list", { cwds: [process.cwd()] });
    return ((result.data as Array<{ hooks?: CodexHook[] }> | undefined) ?? []).flatMap((entry) => entry.hooks ?? []);
  });
}

/** Trusts the claims hooks of `file` whose command is `run`, at the hash Codex reports for each; returns how many. */
async function trustCodexHooks(codex: string, file: string, run: string, env: Env): Promise<number> {
  return withAppServer(codex, env, async (call) => {
    const result = await call("hooks/list", { cwds: [process.cwd()] });
    const hooks = ((result.data as Array<{ hooks?: CodexHook[] }> | undefined) ?? []).flatMap((entry) => entry.hooks ?? []);
    const state: Record<string, { trusted_hash: string }> = {};
    for (const hook of hooks) {
      if (hook.command !== run || !hook.sourcePath || realOrSelf(hook.sourcePath) !== realOrSelf(file) || !hook.currentHash || hook.trustStatus === "trusted") continue;
      state[hook.key] = { trusted_hash: hook.currentHash };
    }
    if (Object.keys(state).length === 0) return 0;
    await call("config/batchWrite", { edits: [{ keyPath: "hooks.state", value: state, mergeStrategy: "upsert" }] });
    return Object.keys(state).length;
  });
}
