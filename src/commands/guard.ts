// guard: a git hook that refuses a commit (or push) touching a path another holder's fresh
// exclusive claim covers. `install` puts prepare-commit-msg and pre-applypatch (and pre-push) hooks
// where git reads them, chaining what was there; `uninstall` puts it back; `check` is what the hooks run.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { findConflicts } from "../protocol/conflicts.js";
import { BadInputError } from "../os/errors.js";
import { changedLines, contentAt, git, hooksDirectory, pushedChanges, repositoryRoot, stagedPaths } from "../os/git.js";
import { escapeLiteral, shapeOf } from "../targets/overlap.js";
import { canonicalPath, claimFileName, type Target } from "../targets/target.js";
import { holderOf, openContext, parseTargets, type CommonOptions, type Context, type Holding } from "../protocol/context.js";
import { pinned, routesOf, unpinnedHomes } from "../protocol/routes.js";
import { pinnedDirsFor } from "../protocol/pinned.js";
import { claimsDirOfConfig } from "../protocol/settings.js";
import { shellQuote } from "../os/shell-quote.js";
import { isClaimFileName } from "../protocol/store.js";
import { asOneVerb } from "../os/lookups.js";

const MARKER = "# claims guard:";
const CHAINED = ".claims-chained";
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export type GitHook = "pre-commit" | "pre-merge-commit" | "prepare-commit-msg" | "pre-applypatch" | "pre-push";
export const GIT_HOOKS: readonly GitHook[] = ["prepare-commit-msg", "pre-applypatch", "pre-commit", "pre-merge-commit", "pre-push"];

/**
 * The hooks `install` writes. prepare-commit-msg is the one hook git runs, and lets refuse, for
 * every commit it makes: `git commit` (with --no-verify too, which skips pre-commit), `git merge`,
 * and `cherry-pick`, `revert` and `rebase`, which run neither pre-commit nor pre-merge-commit.
 * `git am` commits through none of them but runs pre-applypatch with the patch in the index.
 */
const COMMIT_HOOKS = ["prepare-commit-msg", "pre-applypatch"] as const;
/** What earlier versions installed: replaced by COMMIT_HOOKS when installing again. */
const RETIRED_HOOKS = ["pre-commit", "pre-merge-commit"] as const;

export interface InstallResult {
  hooks_dir: string;
  installed: GitHook[];
  /** Hooks that were there before and now run first, from `<hook>.claims-chained`. */
  chained: GitHook[];
  /** This guard's hooks of an earlier version, removed (and what they chained put back). */
  retired: GitHook[];
}

export function install(options: { cwd?: string; prePush?: boolean; binary: string; force?: boolean }): InstallResult {
  const root = repositoryRoot(options.cwd ?? process.cwd());
  const dir = hooksDirectory(root);
  const inside = relative(root, dir);
  if (!options.force && !inside.startsWith("..") && !isAbsolute(inside) && inside.split(sep)[0] !== ".git") {
    // core.hooksPath at a folder of the working tree (.githooks, husky): its hooks are committed
    // or generated, and ours carries this machine's node and claims paths.
    throw new BadInputError(
      `git reads hooks from ${dir}, inside the repository (core.hooksPath): installing there would change files the repository shares, with this machine's paths in them. Add this line to your own prepare-commit-msg hook instead: npx --no claims guard check --hook prepare-commit-msg (pre-applypatch: --hook pre-applypatch; pre-push: --hook pre-push, with git's input); or pass --force to install there anyway.`,
    );
  }
  mkdirSync(dir, { recursive: true });
  const result: InstallResult = { hooks_dir: dir, installed: [], chained: [], retired: [] };
  const names = options.prePush ? [...COMMIT_HOOKS, "pre-push" as const] : COMMIT_HOOKS;
  const foreign = (path: string) => existsSync(path) && !readFileSync(path, "utf8").includes(MARKER);
  // Whatever stops the install is found before anything changes: the hooks there stay as they were.
  for (const name of names) {
    const path = join(dir, name);
    if (foreign(path) && existsSync(path + CHAINED)) {
      throw new BadInputError(`${path}${CHAINED} already exists; move it away (or run claims guard uninstall) before installing again.`);
    }
  }
  for (const name of RETIRED_HOOKS) if (removeOwn(dir, name)) result.retired.push(name);
  for (const name of names) {
    const path = join(dir, name);
    if (foreign(path)) {
      renameSync(path, path + CHAINED);
      result.chained.push(name);
    }
    writeFileSync(path, script(name, options.binary));
    chmodSync(path, 0o755);
    result.installed.push(name);
  }
  return result;
}

export function uninstall(options: { cwd?: string }): { hooks_dir: string; removed: GitHook[]; restored: GitHook[] } {
  const root = repositoryRoot(options.cwd ?? process.cwd());
  const dir = hooksDirectory(root);
  const result = { hooks_dir: dir, removed: [] as GitHook[], restored: [] as GitHook[] };
  for (const name of GIT_HOOKS) {
    const removed = removeOwn(dir, name);
    if (removed) result.removed.push(name);
    if (removed === "restored") result.restored.push(name);
  }
  return result;
}

/** Removes this guard's hook `name` from `dir`, putting back the hook it chained: false if it was not ours (or not there). */
function removeOwn(dir: string, name: GitHook): false | "removed" | "restored" {
  const path = join(dir, name);
  if (!existsSync(path) || !readFileSync(path, "utf8").includes(MARKER)) return false;
  rmSync(path);
  if (!existsSync(path + CHAINED)) return "removed";
  renameSync(path + CHAINED, path);
  return "restored";
}

/** The hook script: the chained hook first (with the same stdin), then the check, with this node and this binary. */
function script(name: GitHook, binary: string): string {
  const check = [process.execPath, binary, "guard", "check", "--hook", name].map(shellQuote).join(" ");
  const header = `#!/bin/sh
${MARKER} installed by \`claims guard install\`; \`claims guard uninstall\` puts back what was here.
chained="$(dirname "$0")/${name}${CHAINED}"
`;
  // node or claims gone since the install (uninstalled, the clone moved, another node version):
  // one sentence saying so and what to do, not node's stack, and CLAIMS_GUARD=off or warn still
  // gets past, as with the check itself (prepare-commit-msg runs under --no-verify too).
  const gone = `if [ ! -x ${shellQuote(process.execPath)} ] || [ ! -f ${shellQuote(binary)} ]; then
  case "$(printf '%s' "$CLAIMS_GUARD" | tr -d ' \\t' | tr 'A-Z' 'a-z')" in
    off|warn) echo "claims guard: not checked: "${shellQuote(binary)}" or "${shellQuote(process.execPath)}" is not there any more." >&2; exit 0 ;;
  esac
  echo "claims guard: cannot check this: "${shellQuote(binary)}" or the node that runs it, "${shellQuote(process.execPath)}", is not there any more; run claims guard install again in this repository (or claims guard uninstall), or CLAIMS_GUARD=off before the git command to skip the check." >&2
  exit 1
fi
`;
  if (name !== "pre-push") return `${header}if [ -x "$chained" ]; then "$chained" "$@" || exit $?; fi\n${gone}exec ${check}\n`;
  return `${header}refs=$(cat)
if [ -x "$chained" ]; then printf '%s\\n' "$refs" | "$chained" "$@" || exit $?; fi
${gone}printf '%s\\n' "$refs" | ${check}
`;
}

export interface GuardOptions extends CommonOptions {
  hook: GitHook;
  /** pre-push: the refs git passes on stdin. */
  refs?: string;
}

export interface GuardResult {
  hook: GitHook;
  mode: "enforce" | "warn" | "off";
  holder?: string;
  checked: string[];
  refused: Holding[];
  /** No claim covers any checked path. */
  nothing_claimed: boolean;
}

/**
 * For each changed path, the claims directories the `.claims` nearest it names in each of `views`
 * (the commit's content and its base: the index and HEAD, or a push's tip and the commit before
 * it), beside the work tree's, which routes it already: a package's `.claims` removed, moved aside
 * or given another "dir" in the same change is where its sessions claimed the path.
 */
function configHomes(root: string, paths: string[], views: string[], env: CommonOptions["env"]): Array<[string, string]> {
  const above = (path: string) => {
    const dirs: string[] = [];
    for (let at = dirname(path); at.startsWith(root); at = dirname(at)) {
      dirs.push(at);
      if (at === root) break;
    }
    return dirs;
  };
  const relativeConfig = (at: string) => (at === root ? ".claims" : `${at.slice(root.length + 1)}/.claims`);
  const homes: Array<[string, string]> = [];
  for (const view of views) {
    // Every `.claims` that view has, from one listing (no paths on the command line, which a big
    // change would overflow); then the text of each one nearest a changed path.
    if (view === "HEAD" && spawnSync("git", ["rev-parse", "--verify", "-q", "HEAD"], { cwd: root }).status !== 0) continue; // no commit yet
    const listed = view === "" ? git(["ls-files", "-z"], root) : git(["ls-tree", "-r", "-z", "--name-only", view], root);
    const present = new Set(listed.split("\0").filter((name) => name === ".claims" || name.endsWith("/.claims")));
    const named = new Map<string, string | null>();
    const homeOf = (config: string) => {
      if (!named.has(config)) {
        const text = contentAt(root, join(root, config), view);
        let dir: string | null = null;
        try {
          dir = text === undefined ? null : claimsDirOfConfig(text, join(root, config), env);
        } catch {
          dir = null; // unreadable there: names no directory
        }
        named.set(config, dir);
      }
      return named.get(config) as string | null;
    };
    for (const path of paths) {
      const nearest = above(path).map(relativeConfig).find((config) => present.has(config));
      const home = nearest === undefined ? null : homeOf(nearest);
      if (home !== null) homes.push([path, home]);
    }
  }
  return homes;
}

/** What a commit or push changes: the paths, and where their new content is. */
interface Change {
  from: string;
  to?: string;
  revision: string;
  paths: string[];
}

export function guardCheck(options: GuardOptions): Promise<GuardResult> {
  return asOneVerb(() => guardCheckNow(options));
}

async function guardCheckNow(options: GuardOptions): Promise<GuardResult> {
  const env = options.env ?? process.env;
  const mode = guardMode(env.CLAIMS_GUARD);
  const result: GuardResult = { hook: options.hook, mode, checked: [], refused: [], nothing_claimed: true };
  if (mode === "off") return result;
  const root = repositoryRoot(options.cwd ?? process.cwd());
  const context = openContext({ ...options, cwd: root });
  try {
    result.holder = holderOf(options);
  } catch {
    // no holder: every fresh exclusive claim counts as another's
  }
  // What changes, and where its new content is: the index ("") for a commit (the one git is
  // making: a cherry-pick's or a merge's result, a patch `git am` applied), the pushed tip for a push.
  const changes: Change[] =
    options.hook !== "pre-push"
      ? [{ from: "--cached", revision: "", paths: stagedPaths(root) }]
      : pushedChanges(root, options.refs ?? "").map((change) => ({ from: change.from ?? EMPTY_TREE, to: change.to, revision: change.to, paths: change.paths }));
  // Each path is judged in the claims directory where its claims live (src/protocol/routes.ts), and
  // also where the `.claims` nearest it, as the commit and its base have it, says (configHomes).
  const paths = [...new Set(changes.flatMap((change) => change.paths))];
  const routes = routesOf(paths, { ...options, cwd: root }, { literal: true, linked: true });
  const byDir = new Map([...(routes?.dirs ?? [[context.settings.dir, { targets: paths }]])].map(([dir, { targets }]) => [dir, new Set(targets)]));
  if (routes || !pinned(options)) {
    const views = options.hook === "pre-push" ? [...new Set(changes.flatMap((change) => [change.revision, change.from]))] : ["", "HEAD"];
    for (const [path, dir] of configHomes(root, paths, views, options.env)) byDir.set(dir, (byDir.get(dir) ?? new Set()).add(path));
  }
  // Pinned (`--dir`, CLAIMS_DIR): also where the sessions that do not pin one claim each path, read-only.
  const courtesy = new Set<string>();
  for (const [dir, targets] of pinned(options) ? unpinnedHomes(paths, root, env, true) : []) if (!byDir.has(dir)) (courtesy.add(dir), byDir.set(dir, new Set(targets)));
  // And where sessions pinning a directory of their own claimed them, as the pointers say (src/protocol/pinned.ts).
  for (const [dir, only] of pinnedDirsFor([...byDir])) {
    const judged = byDir.get(dir);
    if (judged) for (const path of only) judged.add(path); // judged there already, for paths of its own
    else (courtesy.add(dir), byDir.set(dir, new Set(only)));
  }
  const places = byDir.size === 1 && byDir.has(context.settings.dir) ? [{ context, only: undefined, dir: context.settings.dir }] : [...byDir].map(([dir, only]) => ({ context: openContext({ ...options, cwd: root, dir }), only, dir }));
  for (const { context, only, dir } of places) {
    try {
      // The paths only looked for there (a courtesy; claims from before a nearer `.claims`, another
      // default directory's) apart from those whose claims live there: their queue is not joined from here.
      const homeOf = routes?.dirs.get(dir)?.homeOf ?? [];
      const looked = courtesy.has(dir) ? only : only && routes?.dirs.has(dir) ? new Set([...only].filter((path) => !homeOf.includes(path))) : undefined;
      const home = looked === undefined ? only : new Set([...(only ?? [])].filter((path) => !looked.has(path)));
      if (home === undefined || home.size > 0) await judgeChanges(changes, root, home, context, result);
      if (looked !== undefined && looked.size > 0) await judgeChanges(changes, root, looked, context, result, dir);
    } catch (error) {
      if (!courtesy.has(dir)) throw error; // a directory looked in only as a courtesy that cannot be read is passed over
    }
  }
  return result;
}

/** `apart`: a claims directory looked in only as a courtesy, whose queue a handover from here would not join: its refusals name it. */
async function judgeChanges(changes: Change[], root: string, only: Set<string> | undefined, context: Context, result: GuardResult, apart?: string): Promise<void> {
  const claimFiles = context.store.names().filter(isClaimFileName);
  for (const change of changes) {
    const paths = only ? change.paths.filter((path) => only.has(path)) : change.paths;
    for (const target of [...parseTargets(paths, context, true), ...paths.flatMap((path) => unfollowed(path, root) ?? [])]) {
      if (!result.checked.includes(target.canonical)) result.checked.push(target.canonical);
      // "shared" mode: only exclusive claims of others stand in a commit's way.
      const conflicts = findConflicts(target, "shared", result.holder, context, claimFiles);
      if (conflicts.length > 0) result.nothing_claimed = false;
      for (const holding of conflicts) {
        const symbol = holding.held_target ? shapeOf(holding.held_target) : undefined;
        if (symbol?.kind === "symbol" && symbol.path === target.path) {
          const touched = await symbolTouched(root, target.path, symbol.symbol as string, change);
          if (!touched) continue;
        }
        result.refused.push(apart === undefined ? holding : { ...holding, claims_dir: apart });
      }
    }
  }
}

/**
 * A changed path that is a symlink in the work tree, as the name itself (its directories resolved,
 * not its last name): what the commit holds is at that name, whatever the work tree's link leads to
 * (a regular file staged, then the file swapped for a link to one nobody claims).
 */
function unfollowed(path: string, root: string): Target | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  const canonical = escapeLiteral(`${canonicalPath(dirname(path), root).replace(/\/$/, "")}/${basename(path)}`);
  return { ...shapeOf(canonical), fileName: claimFileName(canonical) };
}

/**
 * CLAIMS_GUARD: unset, empty or `on` enforces, `warn` prints and allows, `off` skips, in any case.
 * Any other value is a mistake to point out, not to guess at: read as "on" a typo meant to get
 * past would refuse anyway, read as "off" one meant to enforce would let everything through.
 */
function guardMode(value: string | undefined): GuardResult["mode"] {
  const word = (value ?? "").trim().toLowerCase();
  if (word === "" || word === "on") return "enforce";
  if (word === "warn" || word === "off") return word;
  throw new BadInputError(`CLAIMS_GUARD=${JSON.stringify(value)} is not a guard mode; use on (the default), warn (print the refusal and allow) or off (skip the check).`);
}

/** Whether a change touches the lines of `symbol` in the new content (or the symbol is gone: conservatively yes). */
async function symbolTouched(root: string, file: string, symbol: string, change: { from: string; to?: string; revision: string }): Promise<boolean> {
  const content = contentAt(root, file, change.revision);
  if (content === undefined) return true;
  const [{ listSymbols, grammarOf }, { bindingsOf, dynamicBindings, reboundBetween, otherSpellings, starImports }] = await Promise.all([import("../targets/symbols.js"), import("../targets/bindings.js")]);
  if (!grammarOf(file)) return true;
  const after = bindingsOf([symbol]);
  // A file the grammar cannot read in time (symbols.ts): the change may touch the symbol.
  const listed = await listSymbols(file, content, after).catch(() => undefined);
  if (listed === undefined) return true;
  const declarations = listed.filter((info) => info.name === symbol);
  if (declarations.length === 0) return true;
  // Against the file before the change, as the agent hooks judge an edit: a second declaration of
  // the name (the later one is what runs), a new binding of it in the module's scope, or a file
  // left unreadable change it wherever the changed lines are.
  const old = contentAt(root, file, change.from === "--cached" ? "HEAD" : change.from);
  if (old !== undefined) {
    const before = bindingsOf([symbol]);
    const was = ((await listSymbols(file, old, before).catch(() => undefined)) ?? []).filter((info) => info.name === symbol);
    if (was.length !== declarations.length || reboundBetween(symbol, before, old, after, content) || (after.hasError && !before.hasError)) return true;
    // The name spelled as its language also reads it (`\u0066oo`, Python's fullwidth letters), and
    // Python's `from m import *`, which binds it if m exports it: no grammar lists either as the name.
    if (otherSpellings(content, symbol) !== otherSpellings(old, symbol)) return true;
    if (/\.py$/i.test(file) && starImports(old, was, [symbol]) !== starImports(content, declarations, [symbol])) return true;
    // A name bound by one computed when the file runs (`globals()["foo"] = …`, `exports[name] = …`, `eval`).
    if (dynamicBindings(file, old) !== dynamicBindings(file, content)) return true;
  }
  return changedLines(root, file, change.from, change.to).some(([first, last]) => declarations.some((declaration) => first <= declaration.endLine && last >= declaration.startLine));
}
