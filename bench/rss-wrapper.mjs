// Peak-RSS fallback for machines without GNU time (/usr/bin/time -f %M): runs the CLI in this
// process and, at exit, writes process.resourceUsage().maxRSS (KiB) to the file named first.
// The wrapper adds one small ESM module to what it measures.
//
//   node bench/rss-wrapper.mjs <out file> <script> [args...]      (script "-" = nothing, like node -e 0)
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [out, script, ...args] = process.argv.slice(2);
process.on("exit", () => writeFileSync(out, `${process.resourceUsage().maxRSS}\n`));
if (script !== "-") {
  process.argv = [process.argv[0], resolve(script), ...args];
  await import(pathToFileURL(resolve(script)).href);
}
