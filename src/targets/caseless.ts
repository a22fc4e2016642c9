// Names in case-insensitive directories. On macOS's and Windows' default file systems (and a share
// mounted from one), `src/Button.tsx`, `SRC/button.tsx` and a session whose shell did `cd ~/projects`
// where another did `cd ~/Projects` all name one file, so they must be one target and one claim
// file. A name looked up in such a directory is therefore folded (Unicode NFC, then lower case)
// in a canonical path; elsewhere it is kept as written, since there two spellings are two files.
// Folding is per file system (its device): one lookup with the case of an existing name changed
// tells whether that file system matches names without regard to case (same file, same inode), and
// the answer is kept for the process. A folded path still leads to the same file, so everything
// that opens or lists it works unchanged.
import { lstatSync, opendirSync, readdirSync, statSync, type Stats } from "node:fs";

const caselessDevices = new Map<number, boolean>();

/** A name (or a path below a directory that ignores case) as a canonical path spells it there. */
export function foldName(name: string): string {
  // A final sigma is the small sigma wherever it stands: `ΑΣ` lower-cases to `ας`, `ασ` stays.
  // (Spelled as escapes: one character above U+007F in the bundle makes Node decode all of it as a
  // two-byte string, about 1 ms more of every call; scripts/bundle.mjs.)
  return name.normalize("NFC").toLowerCase().replace(/\u03c2/g, "\u03c3");
}

/** `name` as it appears in a canonical path, when looked up in `dir` (on device `device`); `stats`: the entry's, when it exists. */
export function nameIn(dir: string, device: number, name: string, stats: Stats | undefined): string {
  // Asked of the first name met on each device that can tell, folded or not, so that the answer
  // never depends on how the path was spelled.
  let caseless = caselessDevices.get(device);
  if (caseless === undefined && stats !== undefined) caseless = remember(device, sameEntryOtherCase(dir, name, stats));
  const folded = foldName(name);
  if (folded === name) return name;
  if (caseless === undefined) caseless = remember(device, probeDirectory(dir));
  return caseless ? folded : name;
}

function remember(device: number, caseless: boolean | undefined): boolean | undefined {
  if (caseless !== undefined) caselessDevices.set(device, caseless);
  return caseless;
}

/** Each path prefix folded so far, with the device its names are looked up on next (paths share their tops). */
const foldedPrefixes = new Map<string, { folded: string; device: number }>();

/**
 * An absolute path with every name folded where its directory's file system ignores case, its
 * symlinks kept (a working directory, a home directory, a claims directory: compared with canonical
 * targets, as one string per directory). The same path on a file system that keeps case apart.
 */
export function foldPath(path: string): string {
  if (!path.startsWith("/")) return path; // relative (a HOME so set): read from the working directory, as it always was
  let folded = "";
  let device = rootDevice();
  let prefix = "";
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    prefix += `/${part}`;
    const known = foldedPrefixes.get(prefix);
    if (known !== undefined) {
      ({ folded, device } = known);
      continue;
    }
    let stats: Stats | undefined;
    try {
      stats = lstatSync(`${folded}/${part}`, { throwIfNoEntry: false });
    } catch {
      // not there (yet): named as written, on its parent's file system
    }
    folded += `/${part === ".." ? part : nameIn(folded || "/", device, part, stats)}`;
    if (stats !== undefined) device = stats.isSymbolicLink() ? deviceOf(folded, device) : stats.dev;
    // A name not there yet may be made before this process asks again: only what exists is kept.
    if (stats !== undefined) foldedPrefixes.set(prefix, { folded, device });
  }
  return folded || "/";
}

let root: number | undefined;
/** The device of `/`, asked once. */
export function rootDevice(): number {
  return (root ??= deviceOf("/", -1));
}

/** The device `path` is on (symlinks followed), or `otherwise` when it cannot be asked. */
export function deviceOf(path: string, otherwise: number): number {
  try {
    return statSync(path, { throwIfNoEntry: false })?.dev ?? otherwise;
  } catch {
    return otherwise;
  }
}

/** Whether a directory's file system matches names without regard to case (a glob's pattern is folded below it). */
export function isCaselessDirectory(dir: string): boolean {
  let stats: Stats;
  try {
    stats = lstatSync(dir);
  } catch {
    return false;
  }
  const known = caselessDevices.get(stats.dev);
  if (known !== undefined) return known;
  // Its own name in its parent, on the same file system; else one of its entries.
  const parent = dir.slice(0, dir.lastIndexOf("/")) || "/";
  const own = dir !== "/" && deviceOf(parent, -1) === stats.dev ? sameEntryOtherCase(parent, dir.slice(dir.lastIndexOf("/") + 1), stats) : undefined;
  return remember(stats.dev, own ?? probeDirectory(dir)) === true;
}

/**
 * The name with the case of its letters changed reaches the same entry (undefined: it has no letter
 * whose case can be changed and changed back, as `ß` and `ı` cannot). The other spelling listed in
 * the directory beside the name is another entry: a hard link on a file system that keeps case
 * apart, not the same entry looked up without regard to case.
 */
function sameEntryOtherCase(dir: string, name: string, stats: Stats): boolean | undefined {
  const other = otherCase(name);
  if (other === name) return undefined;
  const at = (entry: string) => (dir === "/" ? `/${entry}` : `${dir}/${entry}`);
  let found: Stats | undefined;
  try {
    found = lstatSync(at(other), { throwIfNoEntry: false });
  } catch {
    return false;
  }
  if (found === undefined) return false;
  if (found.dev !== stats.dev) return false;
  if (found.ino !== stats.ino) {
    // Another entry of that spelling, listed beside it; or the same entry on a file system that
    // numbers inodes per lookup (exFAT or FAT through FUSE): then no entry of that spelling is listed.
    try {
      return !readdirSync(dir || "/").includes(other);
    } catch {
      return false;
    }
  }
  // A directory, or a file of one name, found in either case is one entry; only a file with more
  // names may be two entries, hard links, which the listing tells apart.
  if (stats.isDirectory() || stats.nlink === 1) return true;
  try {
    const listed = readdirSync(dir || "/");
    return !(listed.includes(name) && listed.includes(other));
  } catch {
    return true; // cannot be told: as before, one entry
  }
}

/** `name` with the case of each letter changed that comes back unchanged from the other case (`a`, `Д`; not `ß`, `ı`, `ǅ`). */
function otherCase(name: string): string {
  let other = "";
  for (const char of name) {
    const [upper, lower] = [char.toUpperCase(), char.toLowerCase()];
    const flips = upper !== lower && upper.toLowerCase() === lower && lower.toUpperCase() === upper && (char === upper || char === lower);
    other += flips ? (char === upper ? lower : upper) : char;
  }
  return other;
}

/**
 * For a directory where the name looked up does not exist (a file about to be created): asks of
 * one of its first entries whose name has case. Undefined when none has (nothing is kept, nothing
 * folded).
 */
function probeDirectory(dir: string): boolean | undefined {
  let handle;
  try {
    handle = opendirSync(dir || "/");
  } catch {
    return undefined;
  }
  try {
    for (let i = 0; i < 64; i++) {
      const entry = handle.readSync();
      if (entry === null) return undefined;
      if (otherCase(entry.name) === entry.name) continue;
      try {
        return sameEntryOtherCase(dir, entry.name, lstatSync(dir === "/" ? `/${entry.name}` : `${dir}/${entry.name}`));
      } catch {
        continue;
      }
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    try {
      handle.closeSync();
    } catch {
      // closed already
    }
  }
}
