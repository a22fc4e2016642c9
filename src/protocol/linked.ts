// Claims in the way through a hard link in other packages' claims directories (docs/PROTOCOL.md 5a):
// a file with more than one name may be claimed under another name where another package's
// sessions claim, and a directory or glob may hold such a name. Looked at read-only, by take (before
// and after its grant), by a beat that makes a stale claim fresh again, and by a queued grant.
import { existsSync } from "node:fs";
import type { Mode } from "./claim.js";
import { findConflicts } from "./conflicts.js";
import { openContext, type CommonOptions, type Holding } from "./context.js";
import { packagesAround, packagesOfLinked, pinned } from "./routes.js";
import { resolveSettings } from "./settings.js";
import type { TargetShape } from "../targets/overlap.js";

export interface LinkedLook {
  /** The other claims directories looked in (some may not exist yet: a racing take may make them). */
  dirs: string[];
  /** The claims in the way there, each with its directory. */
  found: Array<{ dir: string; holding: Holding }>;
}

/**
 * The other packages' claims directories where a claim in the way of `target` through a link may
 * be, but `own` (where the target is claimed), and what is in the way there. Nothing when one claims
 * directory is pinned for every session (`--dir`, `CLAIMS_DIR`), or for a plain file with one name.
 */
export function lookThroughLinks(target: TargetShape, own: ReadonlySet<string>, mode: Mode, holder: string | undefined, options: CommonOptions): LinkedLook {
  const look: LinkedLook = { dirs: [], found: [] };
  if (target.kind === "name" || pinned(options)) return look;
  const whole = target.kind === "directory" || target.kind === "glob";
  const packages = whole ? packagesAround(target.path.replace(/(.)\/$/, "$1")) : packagesOfLinked(target.path);
  const env = options.env ?? process.env;
  for (const dir of new Set(packages.map((at) => resolveSettings({ cwd: at, env }).dir))) {
    if (own.has(dir)) continue;
    look.dirs.push(dir);
    if (!existsSync(dir)) continue;
    const context = openContext({ ...options, dir });
    for (const holding of findConflicts(target, mode, holder, context, context.store.claimFileNames())) look.found.push({ dir, holding });
  }
  return look;
}
