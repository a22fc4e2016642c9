// One file under two mount points. `mount --bind /srv/app /home/me/app`, a btrfs subvolume shown
// both where it is mounted and under the file system's top, an NFS export mounted twice on one
// superblock: the same files under two paths, each with one link, so neither realpath nor a hard
// link's inode test relates them. The mount table does: both mounts name one device, and the directory of that
// file system each shows (docs/PROTOCOL.md 5a, "Bind mounts").
import type { Mount as MountLine } from "../os/mounts.js";
import { escapeLiteral, shapeOf, type TargetShape } from "./overlap.js";
import { picomatch } from "./picomatch.js";

/** What this rule reads of a mount: which file system, which of its directories, where, on which mount. */
export type Mount = Pick<MountLine, "id" | "parent" | "device" | "root" | "point">;

/** At most this many other names for one target: a tree showing a file system mounted in hundreds of places is judged by its first. */
const MOST = 64;

/**
 * The targets that name what `target` names through other mount points of the same file system:
 * the same file, directory or glob under each mount that shows the place it is in, and, for a
 * target that can hold a tree (a path, a directory, a glob's base), each mount point elsewhere
 * that shows part of that tree, as a directory. Empty when no file system is mounted twice (the
 * table read once per call: a few lines on most machines) or the table cannot be read. A mount
 * hidden under a later one still counts: that errs towards a conflict. `samePlace`: only the same
 * file, directory or glob under other mount points, not the parts of a tree shown elsewhere (what
 * a holder may have claimed the target itself by: ownForm in src/protocol/held.ts).
 */
export function boundAliases(target: TargetShape, mounts: readonly Mount[] | undefined, samePlace = false): TargetShape[] {
  if (mounts === undefined || target.kind === "name") return [];
  const index = indexOf(mounts);
  if (index.twice.size === 0) return [];
  const region = target.kind === "directory" && target.path !== "/" ? target.path.slice(0, -1) : target.path;
  const holdsTree = target.kind !== "symbol" && !samePlace;
  const found = new Map<string, TargetShape>();
  const add = (shape: TargetShape) => {
    if (shape.canonical !== target.canonical && found.size < MOST) found.set(shape.canonical, shape);
  };
  // The target's own place, shown under another mount point too.
  const holding = mountHolding(region, index);
  if (holding !== undefined && index.twice.has(holding.device)) {
    const inside = joinBelow(holding.root, below(region, holding.point) as string);
    for (const other of index.twice.get(holding.device) as Mount[]) {
      if (other === holding) continue;
      const rest = below(inside, other.root);
      if (rest !== undefined) add(renamed(target, joinBelow(other.point, rest)));
      else if (holdsTree && below(other.root, inside) !== undefined) add(directory(other.point));
    }
  }
  // A mount inside the target's tree, whose file system is shown elsewhere too.
  if (holdsTree) {
    for (const shown of index.twice.values()) {
      for (const inner of shown) {
        if (inner.point === region || below(inner.point, region) === undefined) continue;
        for (const other of shown) {
          if (other === inner || below(other.point, region) !== undefined) continue;
          const rest = below(inner.root, other.root);
          if (rest !== undefined) add(directory(joinBelow(other.point, rest)));
          else if (below(other.root, inner.root) !== undefined) add(directory(other.point));
        }
      }
    }
  }
  return [...found.values()];
}

interface MountIndex {
  /** The mounts of each file system mounted more than once. */
  twice: Map<string, Mount[]>;
  /** The mounts mounted on each mount, by its id. */
  children: Map<string, Mount[]>;
  root: Mount | undefined;
}

const INDEXES = new WeakMap<readonly Mount[], MountIndex>();

function indexOf(mounts: readonly Mount[]): MountIndex {
  const known = INDEXES.get(mounts);
  if (known) return known;
  const byDevice = new Map<string, Mount[]>();
  const children = new Map<string, Mount[]>();
  const ids = new Set(mounts.map((mount) => mount.id));
  for (const mount of mounts) {
    byDevice.set(mount.device, [...(byDevice.get(mount.device) ?? []), mount]);
    if (mount.parent !== mount.id) children.set(mount.parent, [...(children.get(mount.parent) ?? []), mount]);
  }
  const twice = new Map([...byDevice].filter(([, shown]) => shown.length > 1));
  // The namespace's root: mounted on no mount the table lists.
  const root = mounts.find((mount) => mount.point === "/" && !ids.has(mount.parent)) ?? mounts.find((mount) => mount.point === "/");
  const index = { twice, children, root };
  INDEXES.set(mounts, index);
  return index;
}

/**
 * The mount a path is in, as the kernel resolves it: from the root mount, the mount met first
 * along the path at each step (the shortest mount point under it: a mount made later on a
 * shorter point hides one deeper, `mount --bind src x/a` over an earlier `x/a/b`), and over one
 * point the mount on top (mounted on the one it covers, whatever order the table lists them in:
 * `mount --move` keeps their ids). By ids, not the table's order.
 */
function mountHolding(path: string, index: MountIndex): Mount | undefined {
  let current = index.root;
  for (let depth = 0; current !== undefined && depth < 4096; depth++) {
    const at: Mount = current;
    let next: Mount | undefined;
    for (const child of index.children.get(at.id) ?? []) {
      if (below(path, child.point) === undefined || below(child.point, at.point) === undefined) continue;
      if (next === undefined || child.point.length <= next.point.length) next = child;
    }
    if (next === undefined) return at;
    current = next;
  }
  return current;
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
