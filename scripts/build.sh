#!/usr/bin/env bash
# Release build of the wasm module, wasm-bindgen for each target the package ships
# (web: browsers, bundlers, Deno and Node ESM; nodejs: Node CommonJS), then wasm-opt -Oz.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --quiet --release --target wasm32-unknown-unknown --lib
wasm=target/wasm32-unknown-unknown/release/toolnexus.wasm

rm -rf pkg/web pkg/node
wasm-bindgen --target web --out-dir pkg/web "$wasm"
wasm-bindgen --target nodejs --out-dir pkg/node "$wasm"
echo '{ "type": "commonjs" }' > pkg/node/package.json

# Debian's binaryen is too old for this module; the npm package's wasm-opt is the one to use.
opt=node_modules/.bin/wasm-opt
for f in pkg/web/toolnexus_bg.wasm pkg/node/toolnexus_bg.wasm; do
  "$opt" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-reference-types --enable-multivalue --enable-mutable-globals "$f" -o "$f"
done
printf '[build] pkg/web/toolnexus_bg.wasm: %s bytes\n' "$(stat -c %s pkg/web/toolnexus_bg.wasm)"
