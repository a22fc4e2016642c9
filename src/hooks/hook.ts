// hook: the mechanical refusal where writes happen. An agent runs `claims hook <agent>` with its
// hook event on stdin; before a write (an edit, a patch, or a shell command that writes) the answer
// is allow (silently) or deny (with who holds the file, why, and how to queue a handover); after a
// write the claims covering what it wrote are renewed; a call that never ran gives its claims back;
// when the session ends they are released and handed to whoever queued (after /clear, to the new
// session of the same client).
import { basename, dirname, isAbsolute, relative, resolve } from "node:path";
import { foldPath } from "../targets/caseless.js";
import { BadInputError, ClaimsError, ConfigError } from "../os/errors.js";
import { os } from "../os/lazy-os.js";
import { realOf } from "../os/files.js";
import { CHECK_ONLY, CLAUDE_WRITE_TOOLS, codexPatchElsewhere, GLOB_MARK, parsePayload, patchPaths, REMOVED_WHOLE, replacedTexts, stringField, TYPED_AT_TERMINAL, TYPED_ELSEWHERE, UNKNOWN_MARK, type HookPayload } from "./payload.js";
import { clearMarks, clientProcess, markAsked, markUnfinished, markWritten, recordCleared, recordPending, scopeOf, takeCleared, takePending, unwritten } from "./state.js";
import { decideWrite, renewWritten, type Partly, type WriteDecision } from "./write-guard.js";
import { openContext, othersFreshness, unreadableStale, type CommonOptions, type Holding } from "../protocol/context.js";
import { describeHolding, describeUnknownPlace } from "../protocol/describe.js";
import { isGlobText } from "../targets/overlap.js";
import { isDirectory } from "../targets/target.js";
import { checkOptionTypes } from "../commands/option-types.js";
import { repositoryRootOf } from "../targets/broad-target.js";
import { claimsDirAbove, claimsDirsElsewhere, claimsDirsKnown, claimsDirsUnder, isWithin, kernelPath, linkedDirsElsewhere, namedByConfigIn, packageConfigsWritten } from "./claims-directories.js";
import { pinnedDirsFor } from "../protocol/pinned.js";
import { Store } from "../protocol/store.js";
import { picomatch } from "../targets/picomatch.js";
import { recordClientSession } from "../protocol/hook-files.js";
import { shellQuote } from "../os/shell-quote.js";
import { printable } from "../os/printable.js";
import { absoluteDirOption, RelativeDirError, resolveHolder, resolveSettings, type Settings } from "../protocol/settings.js";
import { oneDirectory, pinned, pointedFrom, rememberElsewhere, routesOf, searchStopped, unpinnedEnvironment } from "../protocol/routes.js";
import { release } from "../commands/release.js";
import { statusOfDirectory } from "../commands/status.js";
import { take } from "../commands/take.js";
import { asOneVerb } from "../os/lookups.js";
import { mcpToolWrites } from "./mcp-tools.js";

export type Agent = "claude" | "codex";

export interface HookOptions extends Omit<CommonOptions, "holder" | "cwd"> {
  agent: Agent;
  /** The hook event as the agent sent it on stdin. */
  input: string;
  /** Claim a free file for the session before it writes (default true). */
  autoTake?: boolean;
  /** Deny instead of allow when the claims directory cannot be used. */
  failClosed?: boolean;
  /**
   * Make each subagent a holder of its own (`<agent>-<session>/<agent_id>`). Off by default: a
   * subagent's shell sees only its session's id, so the CLI run there acts as the session, and
   * the hook does the same so that both agree.
   */
  subagentHolders?: boolean;
  /** TTL (seconds) of the claims the hook takes: an auto-claim nobody writes through lapses after it. */
  claimTtl?: number;
}

export interface HookAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const PASS: HookAnswer = { exitCode: 0, stdout: "", stderr: "" };

interface Session extends CommonOptions {
  holder: string;
  cwd: string;
  /** Pending calls are scoped to one agent of the session: the main agent or one subagent. */
  scope: string;
}

export function hook(options: HookOptions): Promise<HookAnswer> {
  return asOneVerb(() => hookNow(options));
}

async function hookNow(options: HookOptions): Promise<HookAnswer> {
  checkOptionTypes("hook", options);
  const payload = parsePayload(options.input);
  const sessionId = stringField(payload, "session_id");
  if (!payload || !sessionId) return PASS; // malformed, empty, or not an agent event: not ours to judge
  const event = stringField(payload, "hook_event_name") ?? "";
  const agentId = stringField(payload, "agent_id");
  // The id the CLI derives in the agent's own shell (CLAUDE_CODE_SESSION_ID, CODEX_SESSION_ID).
  const holder = sessionHolder(options, sessionId, agentId);
  // Folded where the file system ignores case, as the paths it is compared with (src/targets/caseless.ts).
  const given = stringField(payload, "cwd") ?? process.cwd();
  const cwd = isAbsolute(given) ? foldPath(given) : given;
  const session: Session = { ...options, holder, cwd, scope: scopeOf(holder, agentId) };
  // The claims directory, resolved once per event, and only by an event that needs it.
  let resolved: Settings | undefined;
  const settings = () => {
    if (resolved === undefined) absoluteDirOption(session.dir, `claims hook ${options.agent}`);
    return (resolved ??= resolveSettings({ cwd, ...(session.dir !== undefined && { dir: session.dir }), ...(session.ttl !== undefined && { ttl: session.ttl }), ...(session.env !== undefined && { env: session.env }) }));
  };
  const claimsDir = () => settings().dir;
  // The verbs act in the session's own directory: the hook itself finds where else a file is
  // claimed (claimsDirsElsewhere), so they must not route a target on their own.
  const here = () => ({ ...session, dir: claimsDir() });
  try {
    if (event === "PreToolUse") return await beforeWrite(options, payload, session, settings);
    const shellFailed = event === "PostToolUseFailure" && runsCommand(stringField(payload, "tool_name"), payload.tool_input);
    if (event === "PostToolUse" || shellFailed) {
      // The call ran (a failed shell command ran too, and may have written half): what it writes
      // is the session's, and no other pending call of the turn gives it back.
      const call = stringField(payload, "tool_use_id");
      const record = call ? takePending(claimsDir(), session.scope, call)[0] : undefined;
      // What the PreToolUse read from the command, so the shell is not parsed twice.
      const files = Array.isArray(record?.files) ? record.files : await writtenFiles(options.agent, payload, cwd);
      if (files.length > 0) markWritten(claimsDir(), session.scope, renewWritten({ ...here(), files, grant: hookGrant(session.scope) }).covering);
      return PASS;
    }
    if (event === "PostToolUseFailure" || event === "PermissionDenied") {
      // A failed or refused Edit or Write changed nothing; its claims go back with the turn's other
      // unfinished calls, not now: a parallel call may be writing the same file (markUnfinished).
      const call = stringField(payload, "tool_use_id");
      if (call) markUnfinished(claimsDir(), session.scope, call);
      return PASS;
    }
    if (event === "PermissionRequest") {
      // The user is asked. Refusing ends the turn with no further event (no Stop), so the call is
      // marked, to be given back at the next prompt. Not a shell call: the user may type the next
      // prompt while an approved command still runs, and its claims must hold until it ends.
      const toolName = stringField(payload, "tool_name") ?? "";
      const files = runsCommand(toolName, payload.tool_input) ? [] : await writtenFiles(options.agent, payload, cwd);
      if (files.length > 0) markAsked(claimsDir(), session.scope, toolName, files);
      return PASS;
    }
    if (event === "UserPromptSubmit") {
      // A new prompt: a permission prompt shown earlier was answered, and a call still pending
      // after it was refused (an approved edit runs at once and reaches PostToolUse); a call that
      // failed before the user interrupted the turn (no Stop then) goes back too.
      giveBack(here(), claimsDir(), takePending(claimsDir(), session.scope, undefined, (call) => call.asked === true));
      return PASS;
    }
    // A subagent of its own with no agent_id to say which: the main session's claims are not its to release.
    if (event === "SubagentStop" && options.subagentHolders && !agentId) return PASS;
    if (event === "Stop" || (event === "SubagentStop" && !options.subagentHolders)) {
      // The turn is over: a call the hook claimed for that never ran (refused by the permission
      // system or the user) gives its claims back, but nothing a call of the turn wrote.
      giveBack(here(), claimsDir(), takePending(claimsDir(), session.scope));
      clearMarks(claimsDir(), session.scope);
      return PASS;
    }
    if (event === "SessionEnd" && stringField(payload, "reason") === "clear") {
      // /clear: the same client goes on as a new session, which takes these claims over.
      const client = clientProcess(process.env);
      giveBack(here(), claimsDir(), takePending(claimsDir(), session.scope));
      clearMarks(claimsDir(), session.scope);
      if (client) {
        recordCleared(claimsDir(), client, holder);
        return PASS;
      }
    }
    if (event === "SessionStart") return sessionStarted(session, settings(), stringField(payload, "source"));
    if (event === "SessionEnd" || event === "SubagentStop") {
      takePending(claimsDir(), session.scope);
      clearMarks(claimsDir(), session.scope);
      // Also in every other claims directory the session claimed in (their pointers, src/protocol/routes.ts).
      const released = release(here());
      const handed = released.handed_to.map((grant) => `${grant.target} to ${grant.holder}`);
      return { ...PASS, stderr: handed.length > 0 ? `claims: handed ${handed.join(", ")}\n` : "" };
    }
    return PASS;
  } catch (error) {
    if (error instanceof ConfigError && event === "PreToolUse") return brokenConfig(options, payload, cwd, error);
    // The hook's own command line is wrong for every session, for good: refused, not let through
    // (as a claims directory that cannot be reached for a while is), so it is seen and fixed.
    if (error instanceof RelativeDirError && event === "PreToolUse") return deny(options.agent, `claims cannot check this write: ${error.message}`);
    return unreachable(options, error, event === "PreToolUse");
  }
}

/**
 * A `.claims` configuration that cannot be read stops every check under it, and any session can
 * write one: letting writes through (fail-open) would let one bad edit of it switch the claims off.
 * So each write is denied, naming the file, except a write of that file itself, its repair.
 */
async function brokenConfig(options: HookOptions, payload: HookPayload, cwd: string, error: ConfigError): Promise<HookAnswer> {
  let files: string[];
  try {
    files = await writtenFiles(options.agent, payload, cwd);
  } catch {
    files = [error.path, cwd]; // what it writes is unknown: not only the repair
  }
  if (files.length === 0) return PASS;
  if (files.every((file) => realOf(resolve(cwd, file)) === realOf(error.path))) return { ...PASS, stderr: `claims: ${error.message} (the hook let this write of it through, to repair it)\n` };
  return deny(options.agent, `claims cannot check this write: ${error.message} Until then every write is refused but one of ${error.path} itself.`);
}

function sessionHolder(options: HookOptions, sessionId: string, agentId: string | undefined): string {
  return `${options.agent}-${sessionId}${agentId && options.subagentHolders ? `/${agentId}` : ""}`;
}

const isShell = (toolName: string | undefined) => toolName === "Bash" || toolName === "shell" || toolName === "local_shell" || toolName === "exec_command";

/** The shell, or another MCP server's tool that runs a command (`start_process`): a call that may run on, and write half, whatever its outcome. */
const runsCommand = (toolName: string | undefined, input: unknown) => isShell(toolName) || (toolName !== undefined && mcpToolWrites(toolName, input, "/", undefined)?.command !== undefined);

/**
 * The grant id of the hook's takes for one agent of a session (TakeOptions.grant): a claim the hook
 * took goes back (giveBack) only while its held marker still carries it, not once another call of
 * the holder was told it holds it (a `claims take` in the agent's shell, another agent's hook that
 * let a write through on it, a beat). One per agent, not per call: the calls of one agent's turn
 * share its claims, and its written markers say which of them a call of the turn wrote.
 */
function hookGrant(scope: string): string {
  return `hook-${scope}`;
}

/** What these calls took goes back, except what a call of the turn wrote (whichever call took it), and what another call was told it holds since. */
function giveBack(session: Session, dir: string, calls: Array<{ targets: string[] }>): void {
  const targets = unwritten(dir, session.scope, calls.flatMap((call) => call.targets));
  if (targets.length > 0) release({ ...session, targets, grant: hookGrant(session.scope) });
}

/**
 * A session starts in this client process: a new one, one `/resume` or `/clear` went on to, or one
 * compaction continues. The process's record of its sessions says which it runs now, for the
 * `claims mcp` server it started (src/mcp/identity.ts); after `/clear`, the new session also takes
 * over the claims of the session it ended.
 */
async function sessionStarted(session: Session, own: Settings, source: string | undefined): Promise<HookAnswer> {
  const client = clientProcess(process.env);
  if (!client) return PASS; // no process to tell apart (no /proc): nothing to record, and no /clear to follow
  const context = openContext({ ...session, dir: own.dir });
  const previous = source === "clear" ? takeCleared(context.settings.dir, client, context.nowMs) : undefined;
  try {
    // Made here if need be: a server's first claim may come before any claims directory exists.
    context.store.ensure();
    recordClientSession(context.settings.dir, client, session.holder, previous);
  } catch {
    // a server that does not learn it keeps the session it started with; the claims below still move
  }
  if (!previous || previous === session.holder) return PASS;
  return carryOver(session, own, previous);
}

/** The claims of the session `/clear` ended in this client process become the new session's. */
async function carryOver(session: Session, own: Settings, previous: string): Promise<HookAnswer> {
  const moved: string[] = [];
  // In the session's own claims directory and each other one it claimed in, where each claim is.
  for (const dir of [own.dir, ...pointedFrom({ ...session, dir: own.dir }, previous).map((pointer) => pointer.dir)]) {
    const held = statusOfDirectory({ ...session, dir, holder: previous, mine: true }).claims.filter((claim) => !claim.stale && !claim.shared);
    for (const claim of held) {
      // Released and taken at once: a session queued for it would have been served at the old
      // session's end anyway, and is served now.
      const released = release({ ...session, dir, holder: previous, targets: [claim.target] });
      if (released.handed_to.length > 0) continue;
      const taken = await take({ ...session, dir, sessionPinned: pinned(session), targets: [claim.target], purpose: claim.purpose, ...(claim.ttl !== undefined && { ttl: claim.ttl }) });
      moved.push(...taken.granted.map((granted) => granted.target));
      if (dir !== own.dir && taken.granted.length > 0) rememberElsewhere(own, session.holder, dir);
    }
  }
  return { ...PASS, stderr: moved.length > 0 ? `claims: carried ${moved.length} claim(s) over from ${previous}\n` : "" };
}

/** Linux's longest path a system call takes. */
const PATH_MAX = 4096;

async function beforeWrite(options: HookOptions, payload: HookPayload, session: Session, settings: () => Settings): Promise<HookAnswer> {
  const claimsDir = () => settings().dir;
  // A path past PATH_MAX (4,096 bytes) no call opens whole, and each check below walks every
  // directory above it (20,000 of them: 21 s, past the agent's wait for the hook, which then lets
  // the call through): a place the text does not fix, as a path the walk cannot name.
  const files = (await writtenFiles(options.agent, payload, session.cwd)).map((file) => (Buffer.byteLength(file) > PATH_MAX ? `${UNKNOWN_MARK}.` : file));
  if (files.length === 0) return PASS; // a tool that does not write
  // A file under a `.claims` that names another claims directory is claimed there by the sessions
  // working beside it: judged there first (claiming nothing), then claimed there too once allowed.
  // Where the kernel takes each path, worked out once for both questions below.
  const kernel = new Map<string, string>();
  const kernelOf = (path: string) => kernel.get(path) ?? (kernel.set(path, kernelPath(path, session.cwd)), kernel.get(path) as string);
  const routed = claimsDirsElsewhere(files, session, claimsDir(), kernelOf);
  if (routed.cut) {
    // A package further down may claim in a directory of its own, which would not be judged.
    return deny(options.agent, `${searchStopped(routed.cut, true)}, so whether one this write may reach claims in a claims directory of its own could not be told; write narrower paths, or have every session use one claims directory (CLAIMS_DIR).`);
  }
  const elsewhere = [...routed];
  // A claims directory is the claims commands' to change: a write there by hand (rm *.json, an edit
  // of a claim file) would drop or forge another session's claim without any of them knowing. Any
  // one: this session's, one another `.claims` names, or one known by its take lock; the path where
  // the kernel takes it (`link/../store/x.json` is in the store when the link leads beside it).
  // As kernelOf spells paths: symlinks resolved, names folded where the file system ignores case.
  const stores = [claimsDir(), ...elsewhere.map(([dir]) => dir)].map((dir) => kernelPath(dir, "/"));
  let repository: string | null | undefined; // looked up only for a tree written whole
  const repositoryRoot = () => (repository ??= repositoryRootOf(kernelOf(session.cwd)) ?? null);
  const inRepository = (dir: string) => repositoryRoot() !== null && isWithin(dir, repositoryRoot() as string);
  // For a tree written whole, the other claims directories the hook knows (claimsDirsKnown), and the
  // ones found below it by their take lock. Not below a write of the whole project (its repository's
  // top, or where the session works or above it inside its repository): writes read so (`git
  // checkout .`, `prettier --write .`, `git clean`) leave an untracked directory alone, and one
  // holding a claims directory is not refused for it anyway; nor below a package written whole
  // (`prettier --write packages/app`, `git checkout packages/app`) for the claims directory its own
  // `.claims` names. A tree inside named on its own (`rm -rf tmp`, `mv tmp old`) is searched:
  // removed or moved, it takes a claims directory along that no `.claims` there names (a `--dir`).
  let known: string[] | undefined;
  const knownStores = () => (known ??= [...new Set([...stores, ...claimsDirsKnown(session, claimsDir()).map((dir) => kernelPath(dir, "/"))])]);
  const project = () => repositoryRoot() ?? kernelOf(session.cwd);
  const wholeProject = (base: string) => isWithin(base, project()) && isWithin(kernelOf(session.cwd), base);
  const storesUnder = (base: string, glob?: string) => (wholeProject(base) ? [] : claimsDirsUnder(base, glob).map((dir) => kernelPath(dir, "/")));
  let unknowable = false;
  for (const file of files) {
    if (file.startsWith(UNKNOWN_MARK)) {
      // A place the text does not fix, but ending as it says (`rm -rf "$d/claims"`, `mv "$x/state" …`):
      // any claims directory it can be, or be above, while others hold claims there. One that could
      // be anything (`rm -rf "$d"`, `rm -rf "$(cmd)"`) could be any of them: judged once the claims
      // on files are (below), which name the files in the way.
      const tail = file.slice(UNKNOWN_MARK.length);
      if (tail === ".") {
        unknowable = true;
        continue;
      }
      const holding = knownStores().find((dir) => endsAbove(tail, dir) && !inRepository(dir) && othersClaimIn(dir, session.holder));
      if (holding !== undefined) {
        return deny(options.agent, `The command writes a place that ends in ${tail}, where the text does not fix the rest (a variable the hook cannot know): it may be, or hold, the claims directory ${holding}, where other sessions hold claims, which only the claims commands change. Name the place without the variable, or write what is beside it; release your own claims with claims release, clear stale ones with claims sweep.`);
      }
      continue;
    }
    const path = kernelOf(file.replace(GLOB_MARK, ""));
    // A directory removed whole, itself too (`git clean -d`'s): a claims directory it is counts as
    // one the tree holds (below), not as a write into it, so only other sessions' claims refuse it.
    const whole = REMOVED_WHOLE.has(file);
    const store = stores.find((dir) => isWithin(path, dir) && !(whole && dir === path)) ?? claimsDirAbove(whole ? dirname(path) : path);
    if (store !== undefined) {
      return deny(options.agent, `${file.replace(GLOB_MARK, "")} is in the claims directory ${store}, which only the claims commands change: release your own claims with claims release, clear stale ones with claims sweep, and leave other sessions' claims to them.`);
    }
    // So is a tree written whole that holds one (rm -rf ~/.local/state, mv or chmod -R of a parent,
    // rm -rf tmp with tmp/claims): every claim in it would go. Where only the session's own are
    // there, that is its own affair. Not one inside the repository the session works in (a
    // `.claims` naming `.claims-state`) for a write of the whole project: project-wide writes read
    // as the whole tree (git checkout ., prettier --write .) leave an untracked or ignored directory
    // alone, and refusing each of them would refuse everyday work.
    const scanned = file.startsWith(GLOB_MARK) ? picomatch.scan(file.slice(GLOB_MARK.length)) : undefined;
    const base = scanned === undefined ? path : kernelOf(scanned.base || "/");
    if (scanned === undefined && !isDirectory(base)) continue; // a file: no tree, and no claims directory in it
    // A claims directory a package's own .claims names inside the tree is left to writes of the
    // package whole (prettier --write packages/app), not to what removes it whole (git clean -d).
    const holds = (dir: string) => (dir !== base || whole) && isWithin(dir, base) && !(inRepository(dir) && (wholeProject(base) || (!whole && namedByConfigIn(dir, base, session.env ?? process.env)))) && (scanned === undefined || reachesDirectory(scanned.glob, base, dir)) && othersClaimIn(dir, session.holder);
    const itself = whole && claimsDirAbove(base) === base ? [base] : [];
    const holding = knownStores().find(holds) ?? [...itself, ...storesUnder(base, scanned?.glob)].find(holds);
    if (holding !== undefined) {
      return deny(options.agent, `${file.replace(GLOB_MARK, "")} ${holding === base ? "is" : "holds"} the claims directory ${holding}, where other sessions hold claims, which only the claims commands change: written whole (removed, moved, its modes changed), their claims would go unseen and their files could be claimed twice. Write what is beside it instead${whole ? ` (git clean -e ${shellQuote(basename(path))} leaves it)` : ""}; release your own claims with claims release, clear stale ones with claims sweep.`);
    }
  }
  const toolName = stringField(payload, "tool_name") ?? "";
  const olds = options.agent === "claude" ? replacedTexts(toolName, payload.tool_input) : undefined;
  const news = toolName === "Edit" ? [stringField(payload.tool_input, "new_string") ?? ""] : editsNew(payload.tool_input);
  const request = {
    ...session,
    dir: claimsDir(), // the verbs act where the hook says: it finds where else a file is claimed itself
    sessionPinned: pinned(session),
    files,
    ...(olds && { edits: olds.map((old, index) => ({ old, new: news[index] ?? "" })) }),
    autoTake: options.autoTake !== false,
    purpose: `editing with ${options.agent === "claude" ? "Claude Code" : "Codex"} (claimed by its hook)`,
    ...(options.claimTtl !== undefined && { claimTtl: options.claimTtl }),
    grant: hookGrant(session.scope),
  };
  // A `.claims` sending its package's claims elsewhere is how every session finds them there:
  // changed or removed while another holds there, their files could be taken twice. Judged as a
  // write of the whole package in that directory (claiming nothing).
  for (const { config, at, dir } of packageConfigsWritten(files, session, kernelOf)) {
    // One naming no directory (`"dir": "/dev/null"`) sends no claims anywhere: none to lose, and
    // the line's other writes are judged on (its error failed the whole line open).
    if (!isDirectory(dir)) continue;
    const blocking = (await decideWrite({ ...request, files: [at], dir, autoTake: false })).blocking;
    if (blocking.length > 0) {
      return deny(options.agent, `${config} sends the claims of the files beside it to ${dir}, where another session holds some: changed or removed now, those claims would go unseen and their files could be claimed twice. ${refusalText(blocking, session.cwd, session.holder, undefined)}`);
    }
  }
  // A file with more than one name: judged too where a claim on another of its names may be.
  const linkedDirs = linkedDirsElsewhere(files, session, claimsDir(), kernelOf);
  if (pinned(session)) {
    // Pinned, a tree written whole is judged too, read-only, where the sessions that do not pin
    // claim its files: the claims directory of every `.claims` under it (as theirs would be).
    const unpinnedSession = { cwd: session.cwd, env: unpinnedEnvironment(session.env ?? process.env) };
    for (const [dir, theirs] of claimsDirsElsewhere(files, unpinnedSession, claimsDir(), kernelOf)) linkedDirs.set(dir, [...new Set([...(linkedDirs.get(dir) ?? []), ...theirs])]);
  }
  // A file's own package directory is among the directories above it (linkedDirsElsewhere) and is
  // judged already as where it is routed: judged twice, its claim was listed twice, the second time
  // as in a directory whose queue a handover from here cannot join, which is wrong for that one.
  const routedTo = new Map(elsewhere.map(([dir, theirs]) => [dir, new Set(theirs)]));
  const linked = [...linkedDirs]
    .map(([dir, theirs]): [string, string[]] => [dir, theirs.filter((file) => !routedTo.get(dir)?.has(file))])
    .filter(([, theirs]) => theirs.length > 0);
  const blockedThere: Holding[] = [];
  // Another session's symbol claims met there: beside them the session claims the symbols its edit touches, not the file.
  const partly: Partly = { files: [], symbols: [] };
  // `apart`: a directory this session does not claim in (another name's, one above, a pinned
  // session's), whose queue a handover from here would not join: its refusals say where they are.
  const judgeThere = async (dir: string, theirs: string[], apart = true) => {
    const there = await decideWrite({ ...request, files: theirs, dir, autoTake: false });
    blockedThere.push(...there.blocking.map((holding) => (apart ? { ...holding, claims_dir: dir } : holding)));
    partly.files.push(...there.partly.files);
    partly.symbols.push(...there.partly.symbols);
  };
  for (const [dir, theirs] of elsewhere) await judgeThere(dir, theirs, false);
  for (const [dir, theirs] of linked) {
    try {
      await judgeThere(dir, theirs);
    } catch (error) {
      // A session pinning its directory looks there as a courtesy (src/protocol/linked.ts): one it may not read is passed over.
      if (!pinned(session)) throw error;
    }
  }
  // Where sessions pinning a directory of their own claimed these files, as the pointers say (src/protocol/pinned.ts).
  for (const [dir, theirs] of pinnedDirsFor([[claimsDir(), files], ...elsewhere, ...linked])) {
    try {
      await judgeThere(dir, theirs);
    } catch {
      // one this user may not read is passed over, as a pinned session passes over theirs
    }
  }
  if (blockedThere.length > 0) return deny(options.agent, refusalText(blockedThere, session.cwd, session.holder, undefined));
  const decision = await decideWrite({ ...request, partly });
  const tookThere: Array<[string, string[]]> = [];
  for (const [dir, theirs] of decision.allow ? elsewhere : []) {
    // Taken there with the settings of the `.claims` naming it (its TTL, group sharing), as its sessions take.
    const placed = theirs.find((file) => !file.startsWith(UNKNOWN_MARK));
    const there = await decideWrite({ ...request, partly: decision.partly, files: theirs, dir, ...(placed !== undefined && { configAt: dirname(kernelOf(placed.replace(GLOB_MARK, ""))) }) });
    blockedThere.push(...there.blocking);
    // Released at the session's end from its own directory (src/protocol/routes.ts).
    if (there.took.length > 0) rememberElsewhere(settings(), session.holder, dir);
    tookThere.push([dir, there.took]);
  }
  if (blockedThere.length > 0) {
    // Taken there in between: what this call claimed for the write it is denied is given back.
    for (const [dir, took] of [[claimsDir(), decision.took] as [string, string[]], ...tookThere]) {
      if (took.length > 0) release({ ...request, dir, targets: took });
    }
    return deny(options.agent, refusalText(blockedThere, session.cwd, session.holder, undefined));
  }
  // A write the text does not place at all ("$f", "$(cmd)", xargs's input) is in the way of every
  // claim of another session (unknownPlaceConflicts): of those on names too, and in the other
  // claims directories the hook knows, as it may be one of them, a tree holding it or a file in it
  // (removed or rewritten, their claims would go unseen). Not one inside the repository, as for a
  // place whose end the text names (above). What this call took is given back, as below.
  // Fresh claims only: a write of any file meets no stale claim, and a crashed session's claims left
  // in the shared directory until a sweep would otherwise refuse every such write meanwhile.
  const unplaced = decision.allow && unknowable ? knownStores().find((dir) => !inRepository(dir) && othersHoldFreshIn(dir, session)) : undefined;
  if (unplaced !== undefined) {
    for (const [dir, took] of [[claimsDir(), decision.took] as [string, string[]], ...tookThere]) {
      if (took.length > 0) release({ ...request, dir, targets: took });
    }
    const typed = [...TYPED_AT_TERMINAL];
    return deny(
      options.agent,
      [
        `The command writes a place its text does not fix at all: it may be the claims directory ${unplaced}, a tree holding it or a file in it, where other sessions hold claims (on names too, which no write of a file meets), which only the claims commands change.`,
        typed.length > 0
          ? describeUnknownPlace(["."], typed)
          : `Such a place is one named only by a variable ("$f") or a command's output ("$(cmd)"), or written by commands the hook cannot read (xargs's input, eval, a shell reading its program from a pipe). Run it with the places it writes spelled out (a literal path, not a variable), and what it runs as commands of their own, which the hook can read: only those are judged.`,
        "Release your own claims with claims release; clear stale ones with claims sweep.",
      ].join("\n"),
    );
  }
  const call = stringField(payload, "tool_use_id");
  // Codex sends PostToolUse for apply_patch but not for every shell call: only what it confirms is tracked.
  const confirmed = options.agent === "claude" || toolName === "apply_patch";
  // A shell call is recorded even when it took nothing: its PostToolUse reads the paths from here.
  if (decision.allow && (decision.took.length > 0 || runsCommand(toolName, payload.tool_input)) && call && confirmed) {
    recordPending(claimsDir(), session.scope, { holder: session.holder, tool_use_id: call, targets: decision.took, tool_name: toolName, files });
  }
  if (decision.allow) return PASS;
  return deny(options.agent, refusalText(decision.blocking, session.cwd, session.holder, decision.unknownPlace));
}

/**
 * A patch's `~/x` is `cwd/~/x` to the Codex of today, which takes a path as written; a Codex whose
 * path library expands `~` (as upstream's does) writes `$HOME/x`. Both are judged, either may be
 * the file written; the second is not claimed for the session (CHECK_ONLY), which writes the first.
 */
function homeReading(path: string): string[] {
  const home = process.env.HOME;
  if (!home || !isAbsolute(home) || (path !== "~" && !path.startsWith("~/"))) return [];
  const expanded = `${home}${path.slice(1)}`;
  CHECK_ONLY.add(expanded);
  return [expanded];
}

/**
 * The home a command's `~` and `$HOME` mean, as the agent's shell expands them: HOME as it is set,
 * empty or relative too (`HOME=h`: `~/x` is h/x), else the account's. Not homeOf's, which reads
 * such a HOME as the account's for the claims directory alone.
 */
function shellHome(): string {
  return process.env.HOME ?? os().homedir();
}

/** The files a tool call writes, absolute. */
async function writtenFiles(agent: Agent, payload: HookPayload, cwd: string): Promise<string[]> {
  const toolName = stringField(payload, "tool_name") ?? "";
  const input = payload.tool_input;
  if (agent === "claude" && CLAUDE_WRITE_TOOLS[toolName]) {
    const file = stringField(input, CLAUDE_WRITE_TOOLS[toolName] as string);
    return file ? [file] : [];
  }
  // Codex sends apply_patch with the patch text in tool_input.command (openai/codex#18391).
  if (agent === "codex" && toolName === "apply_patch") {
    const patch = commandText(input, "command") ?? stringField(input, "patch") ?? stringField(input, "input");
    return patch ? patchPaths(patch).flatMap((path) => (isAbsolute(path) ? [path] : [`${cwd}/${path}`, ...homeReading(path)])) : [];
  }
  // The shell (both clients call it Bash in hook payloads): the files the command writes, read
  // from its syntax tree: redirections, sed -i, tee, cp, mv, rm, `apply_patch <<EOF`, …
  if (isShell(toolName)) {
    const command = shellScript(input);
    if (!command) return [];
    const { shellWrites } = await import("./shell.js");
    // A terminal, which the model may type into later (Codex's exec_command with `tty: true`, then
    // write_stdin): Codex's payload does not say whether the call asked for one, so every Codex
    // shell call is read as if it had (src/hooks/shell-terminal.ts).
    const terminal = agent === "codex" || (typeof input === "object" && input !== null && (input as Record<string, unknown>).tty === true);
    const written = await shellWrites(command, cwd, shellHome(), process.env, terminal);
    return agent === "codex" ? [...written, ...codexPatchElsewhere(command)] : written;
  }
  // Another MCP server's tool (mcp__<server>__<tool>): the paths a writing one names, what a command
  // one runs, its later input read as typed at a terminal (src/hooks/mcp-tools.ts).
  const home = shellHome();
  const mcp = mcpToolWrites(toolName, input, cwd, home);
  if (mcp?.command === undefined) {
    for (const path of mcp?.checkOnly ?? []) CHECK_ONLY.add(path);
    return mcp?.paths ?? [];
  }
  const { readsAsShell, shellWrites } = await import("./shell.js");
  // Text typed into a process that may be no shell (a REPL's `os.remove("u.ts")`): read as a shell
  // line where it reads as one, else it may write any file.
  if (mcp.command.typed && !(await readsAsShell(mcp.command.text))) {
    TYPED_ELSEWHERE.add(mcp.command.text);
    return [...mcp.paths, `${UNKNOWN_MARK}.`];
  }
  const ran = await shellWrites(mcp.command.text, mcp.command.cwd, home, process.env, true);
  for (const path of mcp.checkOnly ?? []) CHECK_ONLY.add(path); // (after shellWrites, which starts the set anew)
  return [...mcp.paths, ...ran];
}

/** The script a shell call runs: a string as it is; an argument array's `-c` script, or its words. */
function shellScript(input: unknown): string | undefined {
  const value = typeof input === "object" && input !== null ? ((input as Record<string, unknown>).command ?? (input as Record<string, unknown>).cmd) : undefined;
  if (typeof value === "string") return value;
  if (!Array.isArray(value) || !value.every((part) => typeof part === "string")) return undefined;
  const c = value.findIndex((part, index) => index > 0 && /^-[a-z]*c$/.test(part as string));
  if (c !== -1) {
    // bash reads options after -c too (`-c -- 'rm f'`, `-c -e 'rm f'`): the script is the first operand.
    let at = c + 1;
    for (; at < value.length && /^[-+]/.test(value[at] as string); at++) {
      if (value[at] === "--" || value[at] === "-") {
        at++;
        break;
      }
      if (/^[-+][oO]$/.test(value[at] as string)) at++; // -o pipefail: an option with its value
    }
    if (at < value.length) return value[at] as string;
  }
  return (value as string[]).map(shellQuote).join(" ");
}

/** A command as one text: a string as it is, an argument array joined by newlines. */
function commandText(record: unknown, key: string): string | undefined {
  const value = typeof record === "object" && record !== null ? (record as Record<string, unknown>)[key] : undefined;
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((part) => typeof part === "string")) return value.join("\n");
  return undefined;
}

function editsNew(toolInput: unknown): string[] {
  const edits = (toolInput as { edits?: unknown })?.edits;
  return Array.isArray(edits) ? edits.map((edit) => stringField(edit, "new_string") ?? "") : [];
}

/** A reason the agent can act on: who holds what, for what, and the command that queues a handover. */
export function refusalText(blocking: Holding[], cwd: string, holder?: string, unknownPlace?: WriteDecision["unknownPlace"]): string {
  const maybe = new Set(unknownPlace?.blocking);
  // "." is a write the command's text does not name at all (src/hooks/shell.ts).
  const why = unknownPlace?.written.every((path) => path === ".") ? "what it writes cannot be known" : "its directory is unknown";
  const lines = blocking.map(
    (holding) => `- ${printable(written(holding.target, cwd))}: ${describeHolding(holding)}${relation(holding.holder, holder)}${maybe.has(holding) ? `; it may be what the command writes (${why})` : ""}`,
  );
  // What to queue for: the target written, or, where that is a glob standing for files the command
  // does not name (`git checkout main`, `tar x`, `find -exec`), the claim in its way.
  // So too where a directory written reaches into a package claiming in a claims directory of its
  // own: no one take or handover may span two (routes.ts, oneDirectoryEach).
  // (A directory's reach is worked out once for all the claims in its way: each is a walk of its tree.)
  const spans = new Map<string, boolean>();
  const reachesTwo = (target: string) => target.endsWith("/") && (spans.get(target) ?? spans.set(target, spansDirectories([target], cwd)).get(target) === true);
  const queued = (holding: Holding) => (holding.held_target !== undefined && (isGlobText(holding.target) || reachesTwo(holding.target)) ? holding.held_target : holding.target);
  const queuedFor = [...new Set(blocking.map(queued))];
  const targets = [...new Set(queuedFor.map((target) => display(target, cwd)))];
  const others = new Set(blocking.map((holding) => holding.holder)).size > 1 ? "other sessions" : "another session";
  // The CLI in the agent's shell derives the holder from the same session id; where it would not
  // (no such variable, CLAIMS_HOLDER set, a subagent of its own), the command says who is asking.
  let derived: string | undefined;
  try {
    derived = resolveHolder(undefined, process.env);
  } catch {
    derived = undefined;
  }
  const as = holder !== undefined && derived !== holder ? ` --holder ${shellQuote(holder)}` : "";
  const purpose = `--purpose "<what you will do>"${as}`;
  // handover queues for one target; take --queue for several (it takes nothing until each frees).
  // Quoted for a shell (single quotes where needed): the agent runs this as it reads it, and a
  // path with $ or ` in double quotes would expand.
  // One take --queue acts in one claims directory: targets claimed in several get a handover each.
  const queue =
    targets.length === 1 || spansDirectories(queuedFor, cwd)
      ? targets.map((target) => `claims handover ${shellQuote(target)} ${purpose}`).join("; ")
      : `claims take ${targets.map(shellQuote).join(" ")} --queue ${purpose}`;
  const [what, it] = targets.length === 1 ? ["This file is", "it"] : [`These ${targets.length} files are`, "them"];
  // A claim in another claims directory (a pinned session's, another name's): no queue here waits for it.
  const apart = [...new Set(blocking.flatMap((holding) => holding.claims_dir ?? []))];
  const next =
    apart.length > 0
      ? `Do not write ${it} now. Reconcile from their purpose, or work on something else: the claim is in the claims directory ${apart.map(printable).join(", ")}, where a queue from here cannot wait for it (claims status --dir ${shellQuote(apart[0] as string)} shows it); claims take ${targets.map(shellQuote).join(" ")} --wait 120${as} takes ${it} once free.`
      : `Do not write ${it} now. Reconcile from their purpose, work on something else, or queue a handover so ${targets.length === 1 ? "it comes" : "each comes"} to you in order when it frees: ${queue} (then claims status --mine${as} shows when ${targets.length === 1 ? "it is" : "they are"} yours).`;
  // Only waiters in the way (none holds it): they are queued for it, not holding it.
  const how = blocking.every((holding) => holding.queued === true) ? `waited for by ${others}, queued ahead of you,` : `claimed by ${others}`;
  return [
    `${what} ${how} (claims: one mechanical refusal instead of overwriting each other's work).`,
    ...lines,
    ...(unknownPlace ? [describeUnknownPlace(unknownPlace.written, [...TYPED_AT_TERMINAL], [...TYPED_ELSEWHERE])] : []),
    next,
    ...(holder !== undefined ? [`Your holder id is ${holder}.`] : []),
  ].join("\n");
}

/** Whether `pattern` (a glob's part below its static `base`) matches `dir` or a directory above it under `base`: writing what it matches whole writes `dir`. */
/** Whether a path ending in `tail` (a pattern of whole names: `claims`, `state/claims`, `x-*`) can be `dir` or a directory above it. */
function endsAbove(tail: string, dir: string): boolean {
  const names = tail.split("/").filter(Boolean).length;
  if (names === 0) return false;
  const matches = picomatch(tail.replace(/^\/+|\/+$/g, ""), { dot: true });
  for (let at = dir; at !== dirname(at); at = dirname(at)) {
    const parts = at.split("/").filter(Boolean);
    if (parts.length >= names && matches(parts.slice(-names).join("/"))) return true;
  }
  return false;
}

function reachesDirectory(pattern: string, base: string, dir: string): boolean {
  const matches = picomatch(pattern, { dot: true });
  for (let at = dir; at !== base && isWithin(at, base); at = dirname(at)) if (matches(relative(base, at))) return true;
  return false;
}

/** Whether the claims directory `dir` holds a claim of a holder other than `holder` (unreadable ones count: whose they are is unknown). */
function othersClaimIn(dir: string, holder: string): boolean {
  const store = new Store(dir);
  for (const name of store.claimFileNames()) {
    const read = store.read(name);
    if (read.state === "missing") continue;
    if (read.state !== "claim" || read.claim.holder !== holder) return true;
  }
  return false;
}

/** Whether another holder has a fresh claim in `dir` (an unreadable claim file counts until it is stale by its mtime). */
function othersHoldFreshIn(dir: string, session: Session): boolean {
  const context = openContext({ ...session, dir });
  for (const name of context.store.claimFileNames()) {
    const read = context.store.read(name);
    if (read.state === "missing") continue;
    if (read.state === "unreadable" ? !unreadableStale(read, context) : read.claim.holder !== session.holder && !othersFreshness(read.claim, read.mtimeMs, context).stale) return true;
  }
  return false;
}

/** Whether one take of `targets` from `cwd` would be refused for reaching into two claims directories. */
function spansDirectories(targets: string[], cwd: string): boolean {
  try {
    const routes = routesOf(targets, { cwd, env: process.env });
    if (routes !== undefined) oneDirectory(routes, "take");
    return false;
  } catch (error) {
    return error instanceof BadInputError;
  }
}

/** A subagent of its own refused by its own session (or a sibling) is told so, not "another session". */
function relation(blocker: string, holder: string | undefined): string {
  if (holder === undefined) return "";
  const session = (id: string) => id.split("/")[0];
  if (session(blocker) !== session(holder) || blocker === holder) return "";
  return blocker.includes("/") ? " (another subagent of your own session)" : " (the main agent of your own session)";
}

/** What the command writes, as a line of the refusal names it: files it cannot name (`git checkout main`, `tar x`) as everything under their directory. */
function written(target: string, cwd: string): string {
  if (!target.endsWith("/**") || isGlobText(target.slice(0, -3))) return display(target, cwd);
  const directory = target.slice(0, -3) || "/";
  return directory === cwd ? "any file here (the command may rewrite files it does not name)" : `any file under ${display(`${directory}/`, cwd)} (the command may rewrite files it does not name)`;
}

function display(target: string, cwd: string): string {
  if (!isAbsolute(target)) return target;
  const rel = relative(cwd, target);
  // A directory keeps its slash: `claims handover src` would name a name, not the directory, where ./src is gone.
  return rel && !rel.startsWith("..") ? `${rel}${target.endsWith("/") ? "/" : ""}` : target;
}

/** Claude Code reads a JSON decision on stdout; Codex blocks on exit code 2 with the reason on stderr. */
function deny(agent: Agent, reason: string): HookAnswer {
  if (agent === "codex") return { exitCode: 2, stdout: "", stderr: `${reason}\n` };
  const output = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } };
  return { exitCode: 0, stdout: `${JSON.stringify(output)}\n`, stderr: "" };
}

/** Fail open by default (a broken claims directory must not stop all work), or closed when asked; always one line on stderr. */
function unreachable(options: HookOptions, error: unknown, writing: boolean): HookAnswer {
  const why = error instanceof ClaimsError ? error.message : `unexpected error: ${(error as Error)?.message ?? String(error)}`;
  if (writing && options.failClosed) {
    const denied = deny(options.agent, `claims could not check this write, and the hook is set to fail closed: ${why}`);
    return { ...denied, stderr: `${denied.stderr}claims: ${why}\n` };
  }
  return { ...PASS, stderr: `claims: ${why} (the hook let the call through: fail-open)\n` };
}
