#!/usr/bin/env node
// The CLI lives in src/cli.ts; `npm ci` builds it into one file, dist/cli.cjs (the `prepare` script).
import { createRequire } from "node:module";

createRequire(import.meta.url)("../dist/cli.cjs").main(process.argv.slice(2));
