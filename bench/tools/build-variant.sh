#!/usr/bin/env bash
# Builds a variant of the package from a commit (default HEAD) into target/bench-variants/<name>/,
# laid out like pkg/ (one module, at the opt-level given, for web/ and for Node's node-esm/ and
# node/), so the bench can measure a build setting or an older commit:
#   bash bench/tools/build-variant.sh <name> <cargo opt-level> "<wasm-opt flags>" [<commit>]
#   TOOLNEXUS_PKG=target/bench-variants/<name> node bench/run.mjs --only=ref --contenders=toolnexus
# e.g. "baseline z -O3" (what scripts/build.sh does), "o3 3 -O3", "names z '-O3 -g'" (keeps the
# name section so a CPU profile names the wasm functions). FEATURES=bench-core adds cargo
# features (bench-core: the `__benchCoreLoop` export of tools/core-split.mjs). Touches nothing
# outside target/.
set -euo pipefail
cd "$(dirname "$0")/../.."
name=$1 level=$2 wopt=$3 rev=${4:-HEAD}
work=target/bench-variants
src=$work/src
mkdir -p "$work"
rm -rf "$src" && mkdir -p "$src"
paths=(src Cargo.toml Cargo.lock pkg)
if git cat-file -e "$rev:benches" 2>/dev/null; then paths+=(benches); fi # Cargo.toml names them
if git cat-file -e "$rev:src/ts" 2>/dev/null; then paths+=(scripts/bundle-entry.mjs); fi # writes its entries
git archive "$rev" "${paths[@]}" | tar -x -C "$src"
# git archive dates files at their commit; a build of a later commit made sooner after a build
# of another one would look up to date to cargo. Now-dated files always rebuild.
find "$src" -type f -exec touch {} +
(cd "$src" && CARGO_TARGET_DIR="$PWD/../cargo" CARGO_PROFILE_RELEASE_OPT_LEVEL="$level" \
  cargo build --quiet --release --target wasm32-unknown-unknown --lib ${FEATURES:+--features "$FEATURES"})
out=$work/$name
rm -rf "$out" && mkdir -p "$out"
# A revision before the facade kept its entries in pkg/; since, the build writes them (below).
find "$src/pkg" -maxdepth 1 \( -name "*.js" -o -name "*.mjs" -o -name package.json \) -exec cp {} "$out"/ \;
# The plain-JavaScript modules the entries import (the stores since the twelfth round, httpTool,
# createInProcessClient, the error class, defineTool's Standard Schema half, tool/collectTools,
# agents...) are built from src/js/*.js, not kept in pkg/: every one the commit has, as it is
# (the wasm-bindgen snippets, shim*.js, belong to the glue).
for path in "$src"/src/js/*.js; do
  case "$(basename "$path")" in shim*.js) ;; *) cp "$path" "$out/" ;; esac
done
wasm-bindgen --target web --out-dir "$out/web" "$work/cargo/wasm32-unknown-unknown/release/toolnexus.wasm"
# The glue as the commit's build.sh leaves it (before fast-strings.mjs existed: as generated).
if git cat-file -e "$rev:scripts/fast-strings.mjs" 2>/dev/null; then
  git show "$rev:scripts/fast-strings.mjs" > "$work/fast-strings.mjs"
  node "$work/fast-strings.mjs" "$out/web"
fi
# shellcheck disable=SC2086
node_modules/.bin/wasm-opt $wopt --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-reference-types --enable-multivalue --enable-mutable-globals \
  "$out/web/toolnexus_bg.wasm" -o "$out/web/toolnexus_bg.wasm"
# Node's ESM entry, since the package has a speed build for Node, reads node-esm/'s glue and
# node/'s module: here both are the variant's one build (the web glue is that glue).
# Since the fourteenth round the browser entry is a bundle built from src/js/entries/.
if [ -f "$src/src/js/entries/web.js" ] && [ ! -d "$src/src/ts" ]; then
  git show "$rev:scripts/bundle-entry.mjs" > "$work/bundle-entry.mjs" # that revision's own
  node "$work/bundle-entry.mjs" "$src/src/js/entries/web.js" "$out/index.js"
fi
mkdir -p "$out/node-esm" "$out/node"
cp -r "$out/web/toolnexus.js" "$out/web/snippets" "$out/node-esm/"
cp "$out/web/toolnexus_bg.wasm" "$out/node/"
# Since the TypeScript facade (src/ts/), the revision's own bundle-entry.mjs writes every entry.
if [ -d "$src/src/ts" ]; then node "$src/scripts/bundle-entry.mjs" "$out" web node; fi
printf '[variant %s] %s, opt-level=%s, wasm-opt %s: %s bytes\n' "$name" "$(git rev-parse --short "$rev")" "$level" "$wopt" "$(stat -c %s "$out/web/toolnexus_bg.wasm")"
