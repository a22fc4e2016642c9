// node:os, loaded on first use. Most calls need nothing from it (the home directory is $HOME, the
// host name goes only into lock records, the errno table only into error messages), and loading
// it is a measurable part of a call that is mostly Node's own start-up (docs/BENCHMARKS.md).
import { createRequire } from "node:module";

let loaded: typeof import("node:os") | undefined;

export function os(): typeof import("node:os") {
  loaded ??= createRequire(import.meta.url)("node:os") as typeof import("node:os");
  return loaded;
}
