#!/usr/bin/env bash
# The browser and runtime layers, in order: wasm-bindgen tests (Node, then headless Chromium),
# Deno, a Vite build in Chromium, Playwright e2e on the demo. Assumes setup.sh and build.sh ran.
# Runs every layer even after a failure, then exits non-zero if any failed. Times are reported,
# never asserted. Every Chromium runs headless with the ARCHITECTURE.md flags and a fresh profile
# under target/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f pkg/web/toolnexus_bg.wasm ]; then
  echo "pkg/web is missing: run 'bash scripts/build.sh' first" >&2
  exit 2
fi

failed=()
layer() { # layer <title> <command...>: runs one layer, records a failure, keeps going
  local title=$1 start=$SECONDS
  shift
  printf '\n=== %s ===\n$ %s\n' "$title" "$*"
  if "$@"; then
    printf -- '--- %s: ok (%ss)\n' "$title" "$((SECONDS - start))"
  else
    printf -- '--- %s: FAILED (%ss)\n' "$title" "$((SECONDS - start))"
    failed+=("$title")
  fi
}

# wasm-bindgen-test-runner picks Chromium through WASM_BINDGEN_USE_BROWSER + CHROMEDRIVER and
# reads extra capabilities (binary, flags, profile) from WASM_BINDGEN_TEST_WEBDRIVER_JSON.
mkdir -p target/chromium target/wasm-bindgen-test
profile=$(mktemp -d "$PWD/target/chromium/wbt-profile-XXXXXX")
trap 'rm -rf "$profile"' EXIT
webdriver_json=$PWD/target/wasm-bindgen-test/webdriver.json
cat > "$webdriver_json" <<EOF
{ "goog:chromeOptions": { "binary": "/usr/bin/chromium", "args": [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--user-data-dir=$profile" ] } }
EOF

layer "wasm-bindgen tests in Node (tests/wasm.rs)" \
  env -u WASM_BINDGEN_USE_BROWSER cargo test --target wasm32-unknown-unknown --test wasm
layer "wasm-bindgen tests in headless Chromium (tests/wasm.rs)" \
  env WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER=/usr/bin/chromedriver \
  WASM_BINDGEN_TEST_WEBDRIVER_JSON="$webdriver_json" \
  cargo test --target wasm32-unknown-unknown --test wasm
layer "Deno: the packed package in a Deno project (tests/deno)" \
  bash tests/deno/run.sh
layer "Vite: production build with no plugins, in Chromium (tests/vite-app)" \
  bash tests/vite-app/run.sh
layer "Playwright e2e: scripts/serve.mjs + www/ in Chromium (tests/e2e)" \
  node --test tests/e2e/

if [ ${#failed[@]} -gt 0 ]; then
  printf '\nfailed layers:\n' && printf '  - %s\n' "${failed[@]}"
  exit 1
fi
printf '\nall browser and runtime layers passed (screenshots in target/e2e/)\n'
