// The hot verbs every agent hook runs (take, beat, release, check, hook), each bundled alone:
// dist/hot-<verb>.cjs, the bundle bin/claims.js loads for that verb, is this file with the verb's
// fast path of src/cli/fast.ts (scripts/bundle.mjs writes the entry: `main` is
// `hotMain("check", fastCheck)`, and so on) and nothing else. So these calls neither read commander
// and the other verbs nor deserialize their compiled code: a check reads a bundle half the size of
// one holding every hot verb, about 2 ms less of every call here (docs/BENCHMARKS.md). A call the
// fast path does not take is left to dist/cli.cjs untouched.
import { fail } from "./fail.js";
import { compileGrammarsWithoutTierUp } from "../targets/symbols.js";
import { speakToCommandLine } from "../os/option-names.js";
import { claimAsSudoUser } from "../os/sudo.js";
import { allWritten } from "../os/stdio.js";

/**
 * The `main` of verb's bundle, running `fast` (src/cli/fast.ts): true when the call ran here (done
 * or failed); false, having done nothing, for dist/cli.cjs to run it.
 */
export function hotMain(verb: string, fast: (args: string[]) => Promise<boolean>): (argv: string[]) => Promise<boolean> {
  return async (argv) => {
    if (argv[0] !== verb) return false;
    speakToCommandLine(); // errors name --holder, not the library's holder
    claimAsSudoUser(); // `sudo claims …` claims where the user who ran sudo does
    compileGrammarsWithoutTierUp(); // one call, then exit: see there
    try {
      return await fast(argv.slice(1));
    } catch (error) {
      fail(error, argv.includes("--json"));
      return true;
    }
  };
}

/**
 * Whether the process may exit the moment its call ran (bin/claims.js then calls process.exit):
 * its answer and exit code are settled and its output is written, so nothing is left but Node's
 * tearing down of the heap the bundle built, about 2 ms of every call here (docs/BENCHMARKS.md),
 * which exiting skips. Not while a stream still holds output for a slow reader, nor while anything
 * else is under way (a timer, a child, an fs request, a socket): Node then exits when it is done,
 * as before. What may be left: the immediate that empties the lookup tables (src/os/lookups.ts)
 * and a terminal's handles, which Node writes synchronously except on Windows.
 */
export function mayExitNow(): boolean {
  if (!allWritten()) return false;
  const pending = typeof process.getActiveResourcesInfo === "function" ? process.getActiveResourcesInfo() : ["unknown"];
  return pending.every((kind) => kind === "Immediate" || (kind === "TTYWrap" && process.platform !== "win32"));
}
