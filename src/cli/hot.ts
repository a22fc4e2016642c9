// The entry of dist/hot.cjs, the bundle bin/claims.js loads for the verbs every agent hook runs
// (take, beat, release, check, hook): the fast path of src/cli/fast.ts and nothing else, so
// these calls neither read commander and the other verbs nor deserialize their compiled code
// (docs/BENCHMARKS.md). A call the fast path does not take is left to dist/cli.cjs untouched.
import { fail } from "./fail.js";
import { runFast } from "./fast.js";
import { compileGrammarsWithoutTierUp } from "../targets/symbols.js";
import { speakToCommandLine } from "../os/option-names.js";
import { allWritten } from "../os/stdio.js";

/** True when the call ran here (done or failed); false, having done nothing, for dist/cli.cjs to run it. */
export async function main(argv: string[]): Promise<boolean> {
  speakToCommandLine(); // errors name --holder, not the library's holder
  compileGrammarsWithoutTierUp(); // one call, then exit: see there
  try {
    return await runFast(argv);
  } catch (error) {
    fail(error, argv.includes("--json"));
    return true;
  }
}

/**
 * Whether the process may exit the moment its call ran (bin/claims.js then calls process.exit):
 * its answer and exit code are settled and its output is written, so nothing is left but Node's
 * tearing down of the heap the bundle built, about 2 ms of every call here (docs/BENCHMARKS.md),
 * which exiting skips. Not while a stream still holds output for a slow reader.
 */
export function mayExitNow(): boolean {
  return allWritten();
}
