// One file under two mount points. `mount --bind /srv/app /home/me/app`, a btrfs subvolume shown
// both where it is mounted and under the file system's top, an NFS export mounted twice: the
// same files under two paths, each with one link, so neither realpath nor a hard link's inode
// test relates them. The mount table does: both mounts name one device, and the directory of that
// file system each shows (docs/PROTOCOL.md 5a, "Bind mounts").
import type { Mount } from "../os/mounts.js";
import { escapeLiteral, shapeOf, type TargetShape } from "./overlap.js";
import { picomatch } from "./picomatch.js";

/** At most this many other names for one target: a tree showing a file system mounted in hundreds of places is judged by its first. */
const MOST = 64;

/**
 * The targets that name what `target` names through other mount points of the same file system:
 * the same file, directory or glob under each mount that shows the place it is in, and, for a
 * target that can hold a tree (a path, a directory, a glob's base), each mount point elsewhere
 * that shows part of that tree, as a directory. Empty when no file system is mounted twice (the
 * table read once per call: a few lines on most machines) or the table cannot be read. A mount
 * hidden under a later one still counts: that errs towards a conflict.
 */
export function boundAliases(target: TargetShape, mounts: readonly Mount[] | undefined): TargetShape[] {
  if (mounts === undefined || target.kind === "name") return [];
  const twice = devicesMountedTwice(mounts);
  if (twice.size === 0) return [];
  const region = target.kind === "directory" && target.path !== "/" ? target.path.slice(0, -1) : target.path;
  const holdsTree = target.kind !== "symbol";
  const found = new Map<string, TargetShape>();
  const add = (shape: TargetShape) => {
    if (shape.canonical !== target.canonical && found.size < MOST) found.set(shape.canonical, shape);
  };
  // The target's own place, shown under another mount point too.
  const holding = mountHolding(region, mounts);
  if (holding !== undefined && twice.has(holding.device)) {
    const inside = joinBelow(holding.root, below(region, holding.point) as string);
    for (const other of mounts) {
      if (other === holding || other.device !== holding.device) continue;
      const rest = below(inside, other.root);
      if (rest !== undefined) add(renamed(target, joinBelow(other.point, rest)));
      else if (holdsTree && below(other.root, inside) !== undefined) add(directory(other.point));
    }
  }
  // A mount inside the target's tree, whose file system is shown elsewhere too.
  if (holdsTree) {
    for (const inner of mounts) {
      if (!twice.has(inner.device) || inner.point === region || below(inner.point, region) === undefined) continue;
      for (const other of mounts) {
        if (other === inner || other.device !== inner.device || below(other.point, region) !== undefined) continue;
        const rest = below(inner.root, other.root);
        if (rest !== undefined) add(directory(joinBelow(other.point, rest)));
        else if (below(other.root, inner.root) !== undefined) add(directory(other.point));
      }
    }
  }
  return [...found.values()];
}

function devicesMountedTwice(mounts: readonly Mount[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const { device } of mounts) (seen.has(device) ? twice : seen).add(device);
  return twice;
}

/** The mount a path is in: the one at the longest point above it (or at it), the later of two at one point. */
function mountHolding(path: string, mounts: readonly Mount[]): Mount | undefined {
  let found: Mount | undefined;
  for (const mount of mounts) {
    if (below(path, mount.point) !== undefined && (found === undefined || mount.point.length >= found.point.length)) found = mount;
  }
  return found;
}

/** What follows `directory` in `path` ("" for the directory itself, else from a `/`); undefined when `path` is not in it. */
function below(path: string, directory: string): string | undefined {
  if (directory === "/") return path === "/" ? "" : path;
  if (path === directory) return "";
  return path.startsWith(`${directory}/`) ? path.slice(directory.length) : undefined;
}

function joinBelow(directory: string, rest: string): string {
  if (rest === "") return directory;
  return directory === "/" ? rest : directory + rest;
}

function directory(path: string): TargetShape {
  return shapeOf(path === "/" ? "/" : `${escapeLiteral(path)}/`);
}

/** `target` with its path (its file, its directory, a glob's base) moved to `path`. */
function renamed(target: TargetShape, path: string): TargetShape {
  if (target.kind === "directory") return directory(path);
  if (target.kind === "symbol") return shapeOf(`${escapeLiteral(path)}#${target.symbol}`);
  if (target.kind === "glob") {
    const pattern = target.canonical.slice(picomatch.scan(target.canonical).base.length).replace(/^\//, "");
    return shapeOf(`${path === "/" ? "" : escapeLiteral(path)}/${pattern}`);
  }
  return shapeOf(escapeLiteral(path));
}
