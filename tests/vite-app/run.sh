#!/usr/bin/env bash
# Vite layer: pack pkg/, install the tarball into tests/vite-app, `vite build` it with no config
# file and no plugins, then load dist/ in headless Chromium (app.test.mjs).
set -euo pipefail
cd "$(dirname "$0")/../.."
app=tests/vite-app
work=target/vite-app
rm -rf "$work" "$app/dist" "$app/node_modules" && mkdir -p "$work"

tgz=$(npm pack ./pkg --pack-destination "$work" --silent | tail -n 1)
mv "$work/$tgz" "$work/toolnexus-wasm.tgz" # the stable name tests/vite-app/package.json points at
(cd "$app" && npm install --no-audit --no-fund --no-package-lock --loglevel=error)

echo "[vite] $tgz -> $app/node_modules; vite build $app (no config, no plugins)"
node_modules/.bin/vite build "$app" --logLevel warn
ls "$app"/dist/assets

echo "[vite] serving $app/dist in Chromium: node --test $app/app.test.mjs"
node --test "$app/app.test.mjs"
