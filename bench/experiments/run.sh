#!/usr/bin/env bash
# The scratch experiments behind the suggestions in docs/BENCHMARKS.md. Nothing in the repository
# is changed: src/ is copied to $EXP (default /tmp/claims-exp), variants are built and measured
# there, interleaved, then $EXP is left for inspection (rm -rf it when done).
#
#   bash bench/experiments/run.sh                  # both parts, a few minutes
#   PART=startup bash bench/experiments/run.sh     # or PART=scale; RUNS=15 SCALE_RUNS=7 SWEEP_RUNS=3
#
# Start-up variants (built from the same src/): the tsc output as shipped; one esbuild bundle
# (ESM, CommonJS); the CommonJS bundle with a V8 code cache; a bundle whose entry skips commander
# for the hot calls (fast-entry.mjs), with and without the code cache; a Node startup snapshot.
# Scale variants: src/ with glob-prefilter.patch and with sweep-one-fsync.patch applied, or
# reverted where src/ already has them (both went into commit 7e66b7e).
# esbuild is the one tsx already brings into node_modules (it is not a devDependency of its own).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
EXP=${EXP:-/tmp/claims-exp}
PART=${PART:-all}
ESBUILD=$ROOT/node_modules/.bin/esbuild

rm -rf "$EXP"
mkdir -p "$EXP"
variant() { # name [patch]: a copy of src/ built with tsc; with a patch, the copy with the patch
  # applied, or, once src/ already has it (it was committed), the copy with it reverted.
  mkdir -p "$EXP/$1"
  cp -r "$ROOT/src" "$ROOT/bin" "$ROOT/package.json" "$ROOT/tsconfig.json" "$ROOT/tsconfig.build.json" "$EXP/$1/"
  ln -s "$ROOT/node_modules" "$EXP/$1/node_modules"
  if [ -n "${2:-}" ]; then
    if (cd "$EXP/$1" && patch -s -p1 --dry-run < "$HERE/$2" >/dev/null 2>&1); then
      (cd "$EXP/$1" && patch -s -p1 < "$HERE/$2") && mv "$EXP/$1" "$EXP/$1-applied" && set -- "$1-applied"
    elif (cd "$EXP/$1" && patch -s -p1 -R --dry-run < "$HERE/$2" >/dev/null 2>&1); then
      (cd "$EXP/$1" && patch -s -p1 -R < "$HERE/$2") && mv "$EXP/$1" "$EXP/$1-reverted" && set -- "$1-reverted"
    else
      echo "$2 neither applies to src/ nor reverts from it; skipped" >&2
      rm -rf "${EXP:?}/$1"
      return
    fi
  fi
  (cd "$EXP/$1" && "$ROOT/node_modules/.bin/tsc" -p tsconfig.build.json)
  VARIANTS+=("$EXP/$1")
}
VARIANTS=()
variant base

if [ "$PART" != "scale" ]; then
  if [ ! -x "$ESBUILD" ]; then
    echo "no esbuild in node_modules; skipping the bundle experiments" >&2
  else
    B=$EXP/base
    EXTERNAL=(--external:web-tree-sitter --external:tree-sitter-wasms --external:fast-glob)
    CJS=(--bundle --platform=node --target=node20 --format=cjs "${EXTERNAL[@]}" --log-level=error
      "--define:import.meta.url=__importMetaUrl"
      "--banner:js=const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;")
    # Bundles sit one level below $B so dist/cli.js's "../package.json" and createRequire still resolve.
    "$ESBUILD" "$B/dist/cli.js" --bundle --platform=node --target=node20 --format=esm "${EXTERNAL[@]}" --log-level=error \
      "--banner:js=import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" \
      --outfile="$B/out-esm/cli.mjs"
    printf 'import { main } from "./cli.mjs";\nmain(process.argv.slice(2));\n' > "$B/out-esm/entry.mjs"
    "$ESBUILD" "$B/dist/cli.js" "${CJS[@]}" --outfile="$B/out-cjs/cli.cjs"
    printf 'require("./cli.cjs").main(process.argv.slice(2));\n' > "$B/out-cjs/entry.cjs"
    cp "$HERE/codecache-bin.cjs" "$B/out-cjs/"
    cp "$HERE/fast-entry.mjs" "$B/fast-entry.mjs"
    "$ESBUILD" "$B/fast-entry.mjs" "${CJS[@]}" --outfile="$B/out-fast/cli.cjs"
    printf 'require("./cli.cjs").main(process.argv.slice(2));\n' > "$B/out-fast/entry.cjs"
    cp "$HERE/codecache-bin.cjs" "$B/out-fast/"
    # A startup snapshot of the CommonJS bundle (node --snapshot-blob; the blob fits one node binary).
    {
      echo 'const __bundle = { exports: {} }; (function (exports, module) {'
      sed "s#require('node:url').pathToFileURL(__filename).href#\"file://$B/out-cjs/cli.cjs\"#" "$B/out-cjs/cli.cjs"
      echo '})(__bundle.exports, __bundle);'
      echo 'require("node:v8").startupSnapshot.setDeserializeMainFunction(() => { __bundle.exports.main(process.argv.slice(1)); });'
    } > "$B/out-cjs/snapshot-entry.cjs"
    node --snapshot-blob "$B/out-cjs/snapshot.blob" --build-snapshot "$B/out-cjs/snapshot-entry.cjs" 2>/dev/null
    ls -l "$B/out-esm/cli.mjs" "$B/out-cjs/cli.cjs" "$B/out-fast/cli.cjs" "$B/out-cjs/snapshot.blob" | awk '{print $5, $9}'
    echo
    node "$HERE/compare.mjs" "${RUNS:-15}" \
      "shipped (tsc, ESM, 40 files)|$B/bin/claims.js" \
      "ESM bundle|$B/out-esm/entry.mjs" \
      "CJS bundle|$B/out-cjs/entry.cjs" \
      "CJS bundle + code cache|$B/out-cjs/codecache-bin.cjs" \
      "no commander, CJS bundle|$B/out-fast/entry.cjs" \
      "no commander + code cache|$B/out-fast/codecache-bin.cjs" \
      "snapshot of CJS bundle|--snapshot-blob $B/out-cjs/snapshot.blob" \
      "shipped with --jitless|--jitless $B/bin/claims.js" \
      "shipped with --max-lazy|--max-lazy $B/bin/claims.js"
    echo
  fi
fi

if [ "$PART" != "startup" ]; then
  variant glob glob-prefilter.patch
  variant sweep sweep-one-fsync.patch
  node "$HERE/scale-compare.mjs" "${SCALE_RUNS:-7}" "${SWEEP_RUNS:-3}" "${VARIANTS[@]}"
fi
