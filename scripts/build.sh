#!/usr/bin/env bash
# Release builds of the wasm module, wasm-bindgen for each target the package ships (web:
# browsers, bundlers, Deno and Node ESM; nodejs: Node CommonJS), then wasm-opt -O3. Two builds:
# the full one (pkg/web, pkg/node; the `full` cargo feature) and the lean core
# (pkg/core/web, pkg/core/node; `--no-default-features`), the package's `toolnexus-wasm/core`.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --quiet --release --target wasm32-unknown-unknown --lib
cargo build --quiet --release --target wasm32-unknown-unknown --lib --no-default-features \
  --target-dir target/lean
full=target/wasm32-unknown-unknown/release/toolnexus.wasm
lean=target/lean/wasm32-unknown-unknown/release/toolnexus.wasm

# Built in a staging folder, then swapped in, so a reader of pkg/ never sees a half-built package.
mkdir -p target
stage=$(mktemp -d "$PWD/target/pkg-stage-XXXXXX")
trap 'rm -rf "$stage"' EXIT

# bind <module.wasm> <staging dir>: the web and nodejs glue of one build, optimized.
bind() {
  local wasm=$1 out=$2
  wasm-bindgen --target web --out-dir "$out/web" "$wasm"
  wasm-bindgen --target nodejs --out-dir "$out/node" "$wasm"
  echo '{ "type": "commonjs" }' > "$out/node/package.json"
  # The nodejs target require()s its JS snippets, which are written as ES modules.
  find "$out/node/snippets" -name '*.js' -print0 2>/dev/null | xargs -0 -r node scripts/esm-to-cjs.cjs
  # Long strings go into the module by TextEncoder.encodeInto, not a JavaScript loop.
  node scripts/fast-strings.mjs "$out/web" "$out/node"
  # The glue and shim without comments and whitespace (names kept): 19.7 -> 9.1 KB gzip.
  node scripts/minify-glue.mjs "$out/web" "$out/node"
  # Debian's binaryen is too old for this module; the npm package's wasm-opt is the one to use.
  # -O3, not -Oz: on the `opt-level = "z"` code it costs 0.2 % gzip and runs scenario 1 in
  # 0.97x the time (same-process A/B both orders, bench/README.md "eighth round").
  local f
  for f in "$out/web/toolnexus_bg.wasm" "$out/node/toolnexus_bg.wasm"; do
    node_modules/.bin/wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-reference-types --enable-multivalue --enable-mutable-globals \
      "$f" -o "$f"
  done
}
bind "$full" "$stage/full"
bind "$lean" "$stage/core"

# swap <staged dir> <pkg dir>
swap() {
  local old
  old=$(mktemp -d "$PWD/target/pkg-old-XXXXXX")
  [ -d "$2" ] && mv "$2" "$old/"
  mv "$1" "$2"
  rm -rf "$old"
}
for target in web node; do
  swap "$stage/full/$target" "pkg/$target"
  swap "$stage/core/$target" "pkg/core/$target"
done
# CommonJS entries install the idioms from the CommonJS twin of register.js, made from it.
node scripts/esm-to-cjs.cjs pkg/register.js=pkg/register.cjs
# The lean entry's typings are the main entry's (the same augmentations of the glue beside it).
cp pkg/index.d.ts pkg/core/index.d.ts
printf '[build] pkg/web/toolnexus_bg.wasm: %s bytes; pkg/core/web/toolnexus_bg.wasm: %s bytes\n' \
  "$(stat -c %s pkg/web/toolnexus_bg.wasm)" "$(stat -c %s pkg/core/web/toolnexus_bg.wasm)"
