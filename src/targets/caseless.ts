// Names in case-insensitive directories. On macOS's and Windows' default file systems (and a share
// mounted from one), `src/Button.tsx`, `SRC/button.tsx` and a session whose shell did `cd ~/projects`
// where another did `cd ~/Projects` all name one file, so they must be one target and one claim
// file. A name looked up in such a directory is therefore folded (Unicode NFC, then lower case)
// in a canonical path; elsewhere it is kept as written, since there two spellings are two files.
// Folding is per file system (its device): one lookup with the case of an existing name changed
// tells whether that file system matches names without regard to case (same file, same inode), and
// the answer is kept for the process. A folded path still leads to the same file, so everything
// that opens or lists it works unchanged.
import { lstatSync, opendirSync, type Stats } from "node:fs";

const caselessDevices = new Map<number, boolean>();

/** A name (or a path below a directory that ignores case) as a canonical path spells it there. */
export function foldName(name: string): string {
  return name.normalize("NFC").toLowerCase();
}

/** `name` as it appears in a canonical path, when looked up in `dir` (on device `device`); `stats`: the entry's, when it exists. */
export function nameIn(dir: string, device: number, name: string, stats: Stats | undefined): string {
  const folded = foldName(name);
  if (folded === name) return name;
  let caseless = caselessDevices.get(device);
  if (caseless === undefined) {
    caseless = stats ? sameEntryOtherCase(dir, name, stats) : probeDirectory(dir);
    if (caseless !== undefined) caselessDevices.set(device, caseless);
  }
  return caseless ? folded : name;
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
  const caseless = probeDirectory(dir);
  if (caseless !== undefined) caselessDevices.set(stats.dev, caseless);
  return caseless === true;
}

/** The name with its case changed reaches the same entry (undefined: the name has no case to change). */
function sameEntryOtherCase(dir: string, name: string, stats: Stats): boolean | undefined {
  const upper = name.toUpperCase();
  const other = upper !== name ? upper : name.toLowerCase();
  if (other === name) return undefined;
  try {
    const found = lstatSync(`${dir}/${other}`);
    return found.ino === stats.ino && found.dev === stats.dev;
  } catch {
    return false;
  }
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
      if (entry.name.toUpperCase() === entry.name.toLowerCase()) continue;
      try {
        return sameEntryOtherCase(dir, entry.name, lstatSync(`${dir}/${entry.name}`));
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
