// Targets and their claim file names.
//
// A target is a name (`shared-config`) or a file path. Paths are canonical: absolute, with
// symlinks resolved through the longest existing prefix, so every spelling of one file
// (relative, `./`, absolute, through a symlinked directory) is one target and one claim file.
import { createHash } from "node:crypto";
import { lstatSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { BadInputError } from "./errors.js";

export type TargetKind = "name" | "path";

export interface Target {
  kind: TargetKind;
  /** The canonical form: the name itself, or the absolute resolved path. Stored in the claim. */
  canonical: string;
  /** The claim file name inside the claims directory. */
  fileName: string;
}

/** Targets are labels, not documents: 1024 bytes is far beyond any real name or path. */
export const MAX_TARGET_BYTES = 1024;
const CONTROL = /[\u0000-\u001f\u007f]/;
const GLOB = /[*?[\]{}]/;

export interface TargetContext {
  cwd: string;
  home: string;
}

export function parseTarget(input: string, context: TargetContext): Target {
  if (input.trim() === "") throw new BadInputError("A target is empty; give a name like shared-config or a file path.");
  if (CONTROL.test(input)) {
    throw new BadInputError(`Target ${JSON.stringify(input)} contains a control character; targets must be printable.`);
  }
  checkLength(input);
  if (!isPathLike(input, context.cwd)) {
    const canonical = input.normalize("NFC");
    return { kind: "name", canonical, fileName: claimFileName(canonical) };
  }
  if (input.includes("#")) {
    throw new BadInputError(`Symbol targets like ${input} are not supported yet; claim the whole file instead.`);
  }
  if (GLOB.test(input)) {
    throw new BadInputError(`Glob targets like ${input} are not supported yet; claim each file by its path.`);
  }
  if (input.endsWith("/") && input !== "/") {
    throw new BadInputError(
      `Directory targets like ${input} are not supported yet; claim files by path, or the directory without the trailing slash as one path.`,
    );
  }
  const canonical = canonicalPath(expandHome(input, context.home), context.cwd);
  checkLength(canonical);
  return { kind: "path", canonical, fileName: claimFileName(canonical) };
}

/** CONTRACT: a path contains `/`, starts with `.` or `~`, has a `#` or glob characters, or exists in cwd. */
export function isPathLike(input: string, cwd: string): boolean {
  if (input.includes("/") || input.startsWith(".") || input.startsWith("~")) return true;
  if (input.includes("#") || GLOB.test(input)) return true;
  try {
    lstatSync(join(cwd, input));
    return true;
  } catch {
    return false;
  }
}

function checkLength(text: string): void {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_TARGET_BYTES) {
    throw new BadInputError(`A target is ${bytes} bytes long; targets are limited to ${MAX_TARGET_BYTES} bytes.`);
  }
}

function expandHome(input: string, home: string): string {
  if (input === "~") return home;
  if (input.startsWith("~/")) return join(home, input.slice(2));
  if (input.startsWith("~")) {
    throw new BadInputError(`Target ${input} uses ~user, which is not supported; write the absolute path.`);
  }
  return input;
}

/** Absolute, `..` folded, symlinks resolved through the longest prefix that exists. */
export function canonicalPath(input: string, cwd: string): string {
  const absolute = isAbsolute(input) ? resolve(input) : resolve(cwd, input);
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      return join(realpathSync.native(existing), ...missing);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ELOOP") throw new BadInputError(`Path ${input} runs into a symlink loop; claim a path that resolves.`);
      // ENOENT / ENOTDIR: that part does not exist yet; EACCES: we may not look. Keep it as written.
      if (code !== "ENOENT" && code !== "ENOTDIR" && code !== "EACCES") throw error;
      const parent = dirname(existing);
      if (parent === existing) return absolute;
      missing.unshift(basename(existing));
      existing = parent;
    }
  }
}

// Claim file names: ASCII letters, digits, `-`, `_` and `.` stay as they are (so `shared-config`
// becomes `shared-config.json`); every other byte of the UTF-8 form becomes `%XX`, and a leading
// `.` becomes `%2E`, so no claim file is hidden and `/`, `..` or NUL never reach the filesystem.
// Percent-encoding is injective. Names whose encoding would pass 200 bytes keep a 120-byte
// readable prefix and end in `%~` plus a SHA-256 of the target: `%~` is never produced by the
// encoding, so the two forms cannot collide, and the whole name stays under 255 bytes.
const KEEP = /^[A-Za-z0-9._-]$/;
const MAX_ENCODED = 200;

export function claimFileName(canonical: string): string {
  let encoded = "";
  for (const byte of Buffer.from(canonical, "utf8")) {
    const char = String.fromCharCode(byte);
    encoded += byte < 0x80 && KEEP.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  if (encoded.startsWith(".")) encoded = `%2E${encoded.slice(1)}`;
  if (encoded.length > MAX_ENCODED) {
    let prefix = encoded.slice(0, 120);
    const cut = prefix.lastIndexOf("%");
    if (cut > prefix.length - 3) prefix = prefix.slice(0, cut);
    encoded = `${prefix}%~${createHash("sha256").update(canonical).digest("hex")}`;
  }
  return `${encoded}.json`;
}

/** Best-effort inverse for display: the target a claim file name stands for. */
export function targetOfFileName(fileName: string): string {
  const stem = fileName.replace(/\.json$/, "");
  if (stem.includes("%~")) return `${decodeSafely(stem.slice(0, stem.indexOf("%~")))}…`;
  return decodeSafely(stem);
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
