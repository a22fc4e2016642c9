// A claim on `/`, a home directory or a whole repository is granted like any other, and from then
// on refuses every write of every other session under it: almost always a slip (`claims take ..`,
// a `~` too many) rather than a plan. take asks for --force before taking one.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { expandBraces, shapeOf, unescapeLiteral } from "./overlap.js";
import { canonicalPath, type Target } from "./target.js";

/** Why `target` covers too much to take without --force, or undefined when it does not. */
export function tooBroad(target: Target, context: { cwd: string; home: string }): string | undefined {
  const shape = shapeOf(target.canonical);
  if (shape.kind !== "glob") return shape.kind === "directory" ? broadDirectory(target.canonical, shape.path, false, context) : undefined;
  // Each of a brace's alternatives (`{**,x}` is `**` among others); past 64, the glob as written.
  for (const alternative of expandBraces(target.canonical, 64) ?? [target.canonical]) {
    const base = shapeOf(alternative).path;
    const why = everythingUnder(alternative, base) ? broadDirectory(target.canonical, base, true, context) : undefined;
    if (why !== undefined) return why;
  }
  return undefined;
}

/** Why a directory, or a glob covering everything under it, is too broad to take (`canonical`: the target as named). */
function broadDirectory(canonical: string, directory: string, glob: boolean, context: { cwd: string; home: string }): string | undefined {
  const within = directory.replace(/\/?$/, "/");
  // As canonical targets spell them: symlinks resolved, folded where the file system ignores case.
  const home = canonicalPath(context.home, context.cwd).replace(/\/?$/, "/");
  const repository = repositoryRootOf(canonicalPath(context.cwd, "/"));
  // A glob is not the directory it reaches into: it covers it.
  if (within === "/") return glob ? `${canonical} covers the whole filesystem` : `${canonical} is the filesystem root`;
  if (home.startsWith(within)) return `${canonical} ${glob ? "covers" : home === within ? "is" : "contains"} your home directory`;
  if (existsSync(join(directory, ".git"))) return glob ? `${canonical} covers the whole repository ${directory.replace(/\/$/, "")}` : `${canonical} is the root of a whole repository`;
  if (repository && `${repository}/`.startsWith(within)) return `${canonical} ${glob ? "covers" : "contains"} the whole repository ${repository}`;
  return undefined;
}

/**
 * A glob that is its static base followed only by `*` and `**` segments, at least one `**`
 * (`/**`, `/**\/*`, `/*\/**`, `/*\/*\/**`): every path under that directory, or all of it but
 * the files at its top. `../*\/**` from a project is the home directory all the same.
 */
function everythingUnder(glob: string, base: string): boolean {
  const rest = /(\/\*\*?)+$/.exec(glob);
  return rest !== null && rest[0].includes("**") && unescapeLiteral(glob.slice(0, rest.index)) === base.replace(/\/$/, "");
}

/** The nearest directory from `start` up that has a `.git` (a repository or a linked worktree). */
export function repositoryRootOf(start: string): string | undefined {
  for (let directory = start; ; directory = dirname(directory)) {
    if (existsSync(join(directory, ".git"))) return directory;
    if (dirname(directory) === directory) return undefined;
  }
}
