#!/usr/bin/env node
// The CLI lives in src/cli.ts; `npm ci` builds it into dist/ (the `prepare` script).
import { main } from "../dist/cli.js";

main(process.argv.slice(2));
