// The few git questions the guard asks, through the git binary (as a hook would).
import { spawnSync } from "node:child_process";
import { isAbsolute, join, resolve } from "node:path";
import { BadInputError } from "./errors.js";

export function git(args: string[], cwd: string, input?: string): string {
  const result = spawnSync("git", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...(input !== undefined && { input }) });
  if (result.error) throw new BadInputError(`Cannot run git (${(result.error as NodeJS.ErrnoException).code}); the guard needs git on PATH.`);
  if (result.status !== 0) throw new BadInputError(`git ${args[0]} failed: ${result.stderr.trim().split("\n")[0] ?? ""}`);
  return result.stdout;
}

export function repositoryRoot(cwd: string): string {
  try {
    return git(["rev-parse", "--show-toplevel"], cwd).trim();
  } catch {
    // Inside a repository's git directory (.git, a bare repository) there is a repository, but no work tree to guard.
    const inside = spawnSync("git", ["rev-parse", "--is-inside-git-dir", "--is-bare-repository"], { cwd, encoding: "utf8" });
    const [gitDir, bare] = inside.status === 0 ? inside.stdout.trim().split("\n") : [];
    if (bare === "true") throw new BadInputError(`${cwd} is a bare repository, with no work tree whose commits could be guarded; run claims guard in a clone of it (or a worktree).`);
    if (gitDir === "true") throw new BadInputError(`${cwd} is inside the git directory of a repository; run claims guard from its work tree (cd to the repository's top).`);
    throw new BadInputError(`${cwd} is not inside a git repository; run claims guard from the repository (or worktree) it should guard.`);
  }
}

/** The hooks directory git actually reads: honours core.hooksPath, and works from a linked worktree. */
export function hooksDirectory(root: string): string {
  const path = git(["rev-parse", "--git-path", "hooks"], root).trim();
  return isAbsolute(path) ? path : resolve(root, path);
}

/** Paths from `--name-status -z` output; both names of a rename or copy. */
function namesFromStatus(output: string): string[] {
  const fields = output.split("\0").filter((field) => field !== "");
  const paths: string[] = [];
  for (let i = 0; i < fields.length; ) {
    const status = fields[i++] as string;
    const count = /^[RC]/.test(status) ? 2 : 1;
    for (let k = 0; k < count && i < fields.length; k++) paths.push(fields[i++] as string);
  }
  return paths;
}

export function stagedPaths(root: string): string[] {
  // A submodule's new commit too, whatever `ignore` .gitmodules or the config set for it.
  return [...new Set(namesFromStatus(git(["diff", "--cached", "--name-status", "-M", "-z", "--ignore-submodules=none"], root)))].map((path) => join(root, path));
}

export interface PushedChange {
  /** The oldest unpushed commit's parent (or undefined for a root commit) and the pushed tip. */
  from?: string;
  to: string;
  paths: string[];
}

const ZERO = /^0+$/;

/** For each pushed ref (pre-push stdin), the commits no remote has yet and the paths they touch. */
export function pushedChanges(root: string, refs: string): PushedChange[] {
  const changes: PushedChange[] = [];
  for (const line of refs.split("\n")) {
    if (line.trim() === "") continue;
    const [, localSha, , remoteSha] = line.trim().split(/\s+/);
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(localSha ?? "") || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(remoteSha ?? "")) {
      throw new BadInputError(`pre-push input ${JSON.stringify(line.slice(0, 200))} is not a line as git gives it (<local ref> <local sha> <remote ref> <remote sha>); run claims guard check --hook pre-push as git's pre-push hook, or feed it such lines.`);
    }
    if (ZERO.test(localSha as string)) continue; // a deleted ref pushes no content
    // Not what the remote has already: its branches as fetched, and the commit git says the ref
    // is at there (a push by URL, or to a remote never fetched, has no remote-tracking branch:
    // without it, every commit of the history counted as pushed).
    const has = !ZERO.test(remoteSha as string) && spawnSync("git", ["cat-file", "-e", `${remoteSha}^{commit}`], { cwd: root }).status === 0;
    const commits = git(["rev-list", localSha as string, "--not", "--remotes", ...(has ? [remoteSha as string] : [])], root).split("\n").filter(Boolean);
    if (commits.length === 0) continue;
    const paths = new Set<string>();
    for (const commit of commits) {
      // A merge against each parent (-m: without it a merge lists nothing, and the branch it brings in may be on a remote already).
      for (const path of namesFromStatus(git(["diff-tree", "--no-commit-id", "--name-status", "-r", "-m", "-M", "-z", "--root", "--ignore-submodules=none", commit], root))) {
        paths.add(join(root, path));
      }
    }
    const oldest = commits[commits.length - 1] as string;
    const parents = git(["rev-list", "--parents", "-n", "1", oldest], root).trim().split(" ").slice(1);
    changes.push({ ...(parents[0] && { from: parents[0] }), to: localSha, paths: [...paths] });
  }
  return changes;
}

/** 1-based line ranges of `file` (new side) that a diff changes; a pure deletion marks the line where it was. */
export function changedLines(root: string, file: string, from: string | "--cached", to?: string): Array<[number, number]> {
  const range = from === "--cached" ? ["--cached"] : to ? [from, to] : [from];
  // :(literal): a file's name with glob characters is that file, not a pathspec pattern.
  const diff = git(["diff", "-U0", "--no-color", ...range, "--", `:(literal)${file}`], root);
  const ranges: Array<[number, number]> = [];
  for (const match of diff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    ranges.push([Math.max(1, start), Math.max(1, start + Math.max(count, 1) - 1)]);
  }
  return ranges;
}

/** The content of `file` as staged (`:path`) or at a commit; undefined when it is not there (deleted). */
export function contentAt(root: string, file: string, at: string): string | undefined {
  const relative = file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
  const result = spawnSync("git", ["show", `${at}:${relative}`], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return result.status === 0 ? result.stdout : undefined;
}
