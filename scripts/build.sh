#!/usr/bin/env bash
# Release build of the wasm module, wasm-bindgen for each target the package ships
# (web: browsers, bundlers, Deno and Node ESM; nodejs: Node CommonJS), then wasm-opt -Oz.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --quiet --release --target wasm32-unknown-unknown --lib
wasm=target/wasm32-unknown-unknown/release/toolnexus.wasm

# Built in a staging folder, then swapped in, so a reader of pkg/ never sees a half-built package.
mkdir -p target
stage=$(mktemp -d "$PWD/target/pkg-stage-XXXXXX")
trap 'rm -rf "$stage"' EXIT
wasm-bindgen --target web --out-dir "$stage/web" "$wasm"
wasm-bindgen --target nodejs --out-dir "$stage/node" "$wasm"
echo '{ "type": "commonjs" }' > "$stage/node/package.json"
# The nodejs target require()s its JS snippets, which are written as ES modules: rewrite each
# `export function f` as a plain function plus `module.exports`.
find "$stage/node/snippets" -name '*.js' -print0 2>/dev/null | xargs -0 -r node -e '
  const fs = require("fs")
  for (const file of process.argv.slice(1)) {
    const text = fs.readFileSync(file, "utf8")
    const names = [...text.matchAll(/^export function (\w+)/gm)].map((m) => m[1])
    if (/^export (?!function )/m.test(text)) throw new Error(file + ": only `export function` is rewritten")
    fs.writeFileSync(file, text.replace(/^export function /gm, "function ") + `\nmodule.exports = { ${names.join(", ")} }\n`)
  }'

# Debian's binaryen is too old for this module; the npm package's wasm-opt is the one to use.
opt=node_modules/.bin/wasm-opt
for f in "$stage/web/toolnexus_bg.wasm" "$stage/node/toolnexus_bg.wasm"; do
  "$opt" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-reference-types --enable-multivalue --enable-mutable-globals "$f" -o "$f"
done
for target in web node; do
  old=$(mktemp -d "$PWD/target/pkg-old-XXXXXX")
  [ -d "pkg/$target" ] && mv "pkg/$target" "$old/"
  mv "$stage/$target" "pkg/$target"
  rm -rf "$old"
done
printf '[build] pkg/web/toolnexus_bg.wasm: %s bytes\n' "$(stat -c %s pkg/web/toolnexus_bg.wasm)"
