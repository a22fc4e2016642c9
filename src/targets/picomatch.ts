// picomatch, loaded on its first use. Most calls meet no glob (a plain path, a directory), and
// evaluating picomatch's modules is a tenth of a millisecond of every call's start-up otherwise
// (docs/BENCHMARKS.md). In the CLI's bundle, esbuild turns the `require` below into its own
// lazily evaluated copy of picomatch; in the library (ES modules, no `require`) Node loads it.
import { createRequire } from "node:module";
import type Picomatch from "picomatch";

let loaded: typeof Picomatch | undefined;

function load(): typeof Picomatch {
  loaded ??= (typeof require === "function" ? require("picomatch") : createRequire(import.meta.url)("picomatch")) as typeof Picomatch;
  return loaded;
}

/** picomatch(glob, options) and picomatch.scan(input), as the package exports them. */
export const picomatch = Object.assign((glob: string, options?: Picomatch.PicomatchOptions) => load()(glob, options), {
  // scanToEnd: past the first glob character too (picomatch's scan reads it; its types do not list it).
  scan: (input: string, options?: Picomatch.PicomatchOptions & { scanToEnd?: boolean }) => load().scan(input, options),
});
