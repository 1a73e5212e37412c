#!/usr/bin/env bash
# Deno smoke test, the way a Deno user installs the package: `npm pack pkg`, install the tarball
# into a fresh project under target/ (package.json + node_modules), then `deno test` there with
# only --allow-read. Deno resolves the bare "toolnexus-wasm" from node_modules through the
# package's `deno` export condition (deno.js, which fetches the speed build's .wasm from a file:
# URL).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
dir=$root/target/deno-smoke
rm -rf "$dir" && mkdir -p "$dir"

tgz=$(npm pack ./pkg --pack-destination "$dir" --silent | tail -n 1)
cd "$dir"
printf '{ "name": "deno-smoke", "private": true, "dependencies": { "toolnexus-wasm": "file:./%s" } }\n' "$tgz" > package.json
npm install --no-audit --no-fund --no-package-lock --loglevel=error
cp "$root/tests/deno/toolkit.test.ts" "$root/tests/deno/mcp.test.ts" "$root/tests/deno/builtins.test.ts" "$root/tests/deno/serve.test.ts" "$root/tests/deno/a2a.test.ts" "$root/tests/deno/a2a-serve.test.ts" "$root/tests/deno/token-store.test.ts" .

echo "[deno] $tgz installed in ${dir#"$root"/}; deno test --allow-read toolkit.test.ts"
DENO_DIR="$dir/.deno" DENO_NO_UPDATE_CHECK=1 NO_COLOR=1 \
  "$root/node_modules/.bin/deno" test --allow-read --no-lock --no-prompt toolkit.test.ts

# MCP needs to start processes and reach a local server: only this file gets those permissions.
echo "[deno] deno test --allow-read --allow-write --allow-run --allow-net --allow-env mcp.test.ts"
TOOLNEXUS_ROOT="$root" TOOLNEXUS_NODE="$(command -v node)" \
  DENO_DIR="$dir/.deno" DENO_NO_UPDATE_CHECK=1 NO_COLOR=1 \
  "$root/node_modules/.bin/deno" test --allow-read --allow-write --allow-run --allow-net --allow-env \
  --no-lock --no-prompt mcp.test.ts

# A2A reaches an agent started with Node (the official SDK's server) over fetch.
echo "[deno] deno test --allow-read --allow-run --allow-net --allow-env a2a.test.ts"
TOOLNEXUS_ROOT="$root" TOOLNEXUS_NODE="$(command -v node)" \
  DENO_DIR="$dir/.deno" DENO_NO_UPDATE_CHECK=1 NO_COLOR=1 \
  "$root/node_modules/.bin/deno" test --allow-read --allow-run --allow-net --allow-env \
  --no-lock --no-prompt a2a.test.ts

# The built-in file tools on Deno's own filesystem write to a temporary directory.
echo "[deno] deno test --allow-read --allow-write builtins.test.ts"
DENO_DIR="$dir/.deno" DENO_NO_UPDATE_CHECK=1 NO_COLOR=1 \
  "$root/node_modules/.bin/deno" test --allow-read --allow-write --no-lock --no-prompt builtins.test.ts

# toolkit.serve listens with Deno.serve on 127.0.0.1 and its own MCP client calls it.
echo "[deno] deno test --allow-read --allow-net serve.test.ts"
DENO_DIR="$dir/.deno" DENO_NO_UPDATE_CHECK=1 NO_COLOR=1 \
  "$root/node_modules/.bin/deno" test --allow-read --allow-net --no-lock --no-prompt serve.test.ts

# toolkit.serve as an A2A agent: a model stub and two servers over one FileTaskStore directory.
echo "[deno] deno test --allow-read --allow-write --allow-net a2a-serve.test.ts"
DENO_DIR="$dir/.deno" DENO_NO_UPDATE_CHECK=1 NO_COLOR=1 \
  "$root/node_modules/.bin/deno" test --allow-read --allow-write --allow-net --no-lock --no-prompt a2a-serve.test.ts

# FileTokenStore writes its private file in a temporary directory.
echo "[deno] deno test --allow-read --allow-write token-store.test.ts"
DENO_DIR="$dir/.deno" DENO_NO_UPDATE_CHECK=1 NO_COLOR=1 \
  "$root/node_modules/.bin/deno" test --allow-read --allow-write --no-lock --no-prompt token-store.test.ts
