// package.json's scripts, read by the shell gate (shell-gate.ts, loaded for every shell command) and
// by the walk (shell-scripts.ts, shell-task-runners.ts). Only node's fs and path: the gate stays light.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The scripts npm runs by their own name: `npm test`, `npm t`, `npm start`. */
export const NPM_SCRIPTS: Record<string, string> = { test: "test", t: "test", tst: "test", start: "start", stop: "stop", restart: "restart" };

/** The directory of the nearest package.json from `start` up, as npm finds its package. */
export function nearestPackage(start: string): string | undefined {
  for (let at = start; ; at = dirname(at)) {
    if (existsSync(join(at, "package.json"))) return at;
    if (at === dirname(at)) return undefined;
  }
}

/** package.json's `scripts`: none where the file cannot be read as JSON (the manager runs nothing then). */
export function packageScripts(directory: string): Record<string, unknown> {
  try {
    const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { scripts?: unknown };
    return typeof manifest.scripts === "object" && manifest.scripts !== null ? (manifest.scripts as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A run of the script `name` runs these of the package's, in order: `pre<name>`, `<name>`, `post<name>`. */
export const aroundScript = (name: string): string[] => [`pre${name}`, name, `post${name}`];
