#!/usr/bin/env bash
# The core must never import a JS crate: it is pure Rust, testable natively.
set -euo pipefail
cd "$(dirname "$0")/.."
if hits=$(grep -rnE '\b(wasm_bindgen|js_sys|web_sys|gloo)\b' src/core); then
  echo "src/core imports JS crates:"; echo "$hits"; exit 1
fi
echo "core purity: src/core has no wasm_bindgen / js_sys / web_sys / gloo"
