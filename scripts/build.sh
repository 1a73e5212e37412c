#!/usr/bin/env bash
# Release builds of the wasm module, bound by wasm-bindgen for each target the package ships,
# then wasm-opt -O3. Two feature sets: the full build (pkg/web, pkg/node, pkg/node-esm; the
# `full` cargo feature) and the lean core (pkg/core/…; `--no-default-features`), the package's
# `toolnexus-wasm/core`. Each is compiled twice: for size (`opt-level = "z"`, the `release`
# profile) for what a browser downloads (web: browsers, bundlers), and for speed
# (`opt-level = 3`, the `release-speed` profile) for Node and Deno, which read the file from
# disk: the nodejs target (CommonJS) and the web target's glue for Node ESM and Deno, sharing
# one .wasm.
set -euo pipefail
cd "$(dirname "$0")/.."

for profile in release release-speed; do
  cargo build --quiet --profile "$profile" --target wasm32-unknown-unknown --lib
  cargo build --quiet --profile "$profile" --target wasm32-unknown-unknown --lib --no-default-features \
    --target-dir target/lean
done
full=target/wasm32-unknown-unknown/release/toolnexus.wasm
lean=target/lean/wasm32-unknown-unknown/release/toolnexus.wasm
full_speed=target/wasm32-unknown-unknown/release-speed/toolnexus.wasm
lean_speed=target/lean/wasm32-unknown-unknown/release-speed/toolnexus.wasm

# Built in a staging folder, then swapped in, so a reader of pkg/ never sees a half-built package.
mkdir -p target
stage=$(mktemp -d "$PWD/target/pkg-stage-XXXXXX")
trap 'rm -rf "$stage"' EXIT

# finish <dir> [wasm-opt flags]: the glue of one wasm-bindgen output made final, its module
# optimized.
finish() {
  local out=$1
  shift
  # Long strings go into the module by TextEncoder.encodeInto, not a JavaScript loop.
  node scripts/fast-strings.mjs "$out"
  # A browser build ($BROWSER, set by bind_web) ships its glue and module as a pair: the names
  # between them lose wasm-bindgen's hashes and paths (-2.2 KiB gzip of the two), and the glue
  # its local names (-1.1 KiB). Node's and Deno's, read from disk, keep theirs.
  [ -z "${BROWSER:-}" ] || node scripts/short-names.mjs "$out"
  # The glue and shim without comments and whitespace: 19.7 -> 9.1 KB gzip.
  node scripts/minify-glue.mjs ${BROWSER:+--mangle} "$out"
  # Debian's binaryen is too old for this module; the npm package's wasm-opt is the one to use.
  # -O3, not -Oz: on the `opt-level = "z"` code it costs 0.2 % gzip and runs scenario 1 in
  # 0.97x the time (same-process A/B both orders, bench/README.md "eighth round").
  [ -f "$out/toolnexus_bg.wasm" ] || return 0
  node_modules/.bin/wasm-opt -O3 "$@" --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-reference-types --enable-multivalue --enable-mutable-globals \
    "$out/toolnexus_bg.wasm" -o "$out/toolnexus_bg.wasm"
}

# bind_web <module.wasm> <staging dir>: the web glue and module (what a browser downloads).
bind_web() {
  wasm-bindgen --target web --out-dir "$2/web" "$1"
  # A browser has no use for the producers and target-features sections. A second -O3 round
  # (finish runs one) takes 0.3 KiB gzip more out of the lean module at the same speed
  # (same-process A/B, both orders twice: geometric mean 1.005).
  BROWSER=1 finish "$2/web" -O3 --strip-producers --strip-target-features
}

# bind_node <module.wasm> <staging dir>: the nodejs glue and module, and the web glue of the
# same module for Node ESM (node-esm/, no .wasm of its own: node.mjs reads node/'s).
bind_node() {
  local wasm=$1 out=$2
  wasm-bindgen --target nodejs --out-dir "$out/node" "$wasm"
  echo '{ "type": "commonjs" }' > "$out/node/package.json"
  # The nodejs target require()s its JS snippets, which are written as ES modules.
  find "$out/node/snippets" -name '*.js' -print0 2>/dev/null | xargs -0 -r node scripts/esm-to-cjs.cjs
  wasm-bindgen --target web --out-dir "$out/node-esm" "$wasm"
  # The two targets write the same module; the ESM glue uses node/'s, so it must be the same.
  cmp -s "$out/node/toolnexus_bg.wasm" "$out/node-esm/toolnexus_bg.wasm" || {
    echo "build: wasm-bindgen wrote different modules for --target nodejs and --target web" >&2
    exit 1
  }
  rm "$out/node-esm/toolnexus_bg.wasm" "$out/node-esm/toolnexus_bg.wasm.d.ts"
  # V8 compiles a wasm function on its first call: wasm-opt's inlining of every function with
  # one caller, whatever its size, made the speed build's first answer ~5 ms slower than the
  # size build's (createToolkit and the first run: 20.6 against 16.0 ms, mean of 8 fresh
  # processes); inlined only up to 200 bytes, 15.7 ms, and no difference per run (same-process
  # A/B, both orders: 1.017 and 1/1.014, 1.051 and 1/1.035).
  finish "$out/node" --one-caller-inline-max-function-size=200
  finish "$out/node-esm"
}
bind_web "$full" "$stage/full"
bind_web "$lean" "$stage/core"
bind_node "$full_speed" "$stage/full"
bind_node "$lean_speed" "$stage/core"

# swap <staged dir> <pkg dir>
swap() {
  local old
  old=$(mktemp -d "$PWD/target/pkg-old-XXXXXX")
  [ -d "$2" ] && mv "$2" "$old/"
  mv "$1" "$2"
  rm -rf "$old"
}
mkdir -p pkg/core # a fresh clone has only pkg/'s manifest and README
for target in web node node-esm; do
  swap "$stage/full/$target" "pkg/$target"
  swap "$stage/core/$target" "pkg/core/$target"
done
# The package's API is the TypeScript facade (src/ts/), over the glue: tsc checks it and writes
# its declarations (the glue's own typings import the facade's types), rolldown its entries
# (scripts/bundle-entry.mjs: one per runtime and build, the plain-JS modules of src/js bundled
# in). The two modules a page loads on first use (src/js/browser-stores.js, http-send.js) ship
# minified beside them.
rm -rf target/ts-types # tsc leaves the declarations of a deleted source behind
node_modules/.bin/tsc -p src/ts/tsconfig.json
node scripts/minify-glue.mjs --mangle src/js/browser-stores.js=pkg/browser-stores.js src/js/http-send.js=pkg/http-send.js
node scripts/bundle-entry.mjs pkg
# The declarations, written where the entries are: the facade's (imports of src/js/ become the
# package's own), the plain-JS modules' (src/js/*.d.ts) one folder up from the lean build's.
# (core/instance.ts is the facade's own plumbing, referenced by no declaration.)
types=target/ts-types/ts
rm -f pkg/*.d.ts pkg/*.d.cts pkg/core/*.d.ts pkg/core/*.d.cts
for f in "$types"/*.d.ts; do sed 's#"\.\./js/#"./#g' "$f" > "pkg/${f##*/}"; done
for f in "$types"/core/*.d.ts; do
  [ "${f##*/}" = instance.d.ts ] || sed 's#"\.\./\.\./js/#"../#g' "$f" > "pkg/core/${f##*/}"
done
for f in stores errors define-tool agents agents-tree browser-fs serve serve-exchange a2a-serve idb-task-store token-stores; do sed 's#"\.\./ts/index\.js"#"./index.js"#' "src/js/$f.d.ts" > "pkg/$f.d.ts"; done
# The require() entries' typings: CommonJS twins (.d.cts) of them, importing each other, so a
# CommonJS TypeScript project (module node16) can `require` the package.
for f in pkg/*.d.ts pkg/core/*.d.ts; do
  sed 's#"\(\.\.\{0,1\}/[a-z0-9/-]*\)\.js"#"\1.cjs"#g' "$f" > "${f%.d.ts}.d.cts"
done
for f in pkg/web pkg/core/web pkg/node pkg/core/node; do
  printf '[build] %s/toolnexus_bg.wasm: %s bytes\n' "$f" "$(stat -c %s "$f/toolnexus_bg.wasm")"
done
