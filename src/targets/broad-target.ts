// A claim on `/`, a home directory or a whole repository is granted like any other, and from then
// on refuses every write of every other session under it: almost always a slip (`claims take ..`,
// a `~` too many) rather than a plan. take asks for --force before taking one.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { shapeOf, unescapeLiteral } from "./overlap.js";
import { canonicalPath, type Target } from "./target.js";

/** Why `target` covers too much to take without --force, or undefined when it does not. */
export function tooBroad(target: Target, context: { cwd: string; home: string }): string | undefined {
  const shape = shapeOf(target.canonical);
  let directory: string;
  if (shape.kind === "directory") directory = shape.path;
  else if (shape.kind === "glob" && everythingUnder(target.canonical, shape.path)) directory = shape.path;
  else return undefined;
  const within = directory.replace(/\/?$/, "/");
  // As canonical targets spell them: symlinks resolved, folded where the file system ignores case.
  const home = canonicalPath(context.home, context.cwd).replace(/\/?$/, "/");
  const repository = repositoryRootOf(canonicalPath(context.cwd, "/"));
  // A glob is not the directory it reaches into: it covers it.
  const glob = shape.kind === "glob";
  if (within === "/") return glob ? `${target.canonical} covers the whole filesystem` : `${target.canonical} is the filesystem root`;
  if (home.startsWith(within)) return `${target.canonical} ${glob ? "covers" : home === within ? "is" : "contains"} your home directory`;
  if (existsSync(join(directory, ".git"))) return glob ? `${target.canonical} covers the whole repository ${directory.replace(/\/$/, "")}` : `${target.canonical} is the root of a whole repository`;
  if (repository && `${repository}/`.startsWith(within)) return `${target.canonical} ${glob ? "covers" : "contains"} the whole repository ${repository}`;
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
function repositoryRootOf(start: string): string | undefined {
  for (let directory = start; ; directory = dirname(directory)) {
    if (existsSync(join(directory, ".git"))) return directory;
    if (dirname(directory) === directory) return undefined;
  }
}
