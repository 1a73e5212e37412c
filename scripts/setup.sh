#!/usr/bin/env bash
# Installs everything the build and the tests need. Idempotent: a second run does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[setup] %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen-cli must be exactly the wasm-bindgen version Cargo.lock holds.
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (found: ${have:-none})"
  cargo install wasm-bindgen-cli --version "$want"
fi

# npm packages, reinstalled only when package-lock.json changed.
stamp=node_modules/.setup-stamp
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_sum" ]; then
  say "installing npm packages"
  npm ci --no-audit --no-fund
  echo "$lock_sum" > "$stamp"
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing Debian chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi
say "ready (wasm-bindgen $want, node $(node --version), $(chromium --version 2>/dev/null | head -1))"
