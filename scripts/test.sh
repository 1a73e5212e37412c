#!/usr/bin/env bash
# Runs every test layer in order and says what each one ran. Assumes setup.sh and build.sh ran
# (npm test does both first). Stops at the first failing layer.
set -euo pipefail
cd "$(dirname "$0")/.."

layer() { printf '\n=== %s ===\n' "$*"; }
# A test that hangs (or spins) fails its file after 2 minutes, and a whole layer after 15: a
# hang is a failure, never an overtime CI run.
js_tests() { timeout --kill-after=10 900 node --test --test-timeout=120000 "$@"; }

layer "1/9 static checks: rustfmt, clippy (one run per configuration that can differ), core purity"
cargo fmt --check
# Host: every target with the bench-only feature on (a superset of the default build's code),
# and the lean library (the same crate without `full`).
cargo clippy --quiet --all-targets --features bench-core -- -D warnings
cargo clippy --quiet --lib --no-default-features -- -D warnings
# wasm32: the glue as the full build compiles it (with the bench export) and as the lean one does.
cargo clippy --quiet --target wasm32-unknown-unknown --lib --features bench-core -- -D warnings
cargo clippy --quiet --target wasm32-unknown-unknown --lib --no-default-features -- -D warnings
bash scripts/check-core-purity.sh

layer "2/9 host tests: cargo test (core behaviour, fixtures, property tests; bench-core adds the bench loop's check)"
cargo test --quiet --features bench-core 2>&1 | tee target/host-tests.log | grep -E '^(test result|running)|FAILED|panicked' || true
if grep -qE 'FAILED|error(\[|:)' target/host-tests.log || ! grep -q 'test result: ok' target/host-tests.log; then
  echo "host tests failed"; exit 1
fi

layer "3/9 conformance fixtures (../shared/conformance, skipped when absent)"
js_tests tests/conformance/

layer "4/9 public JS API on the built package: node --test tests/js"
js_tests tests/js/

layer "5/9 types: tsc --noEmit --strict over examples/ and the type tests; the API reference (typedoc)"
node_modules/.bin/tsc -p tests/types/tsconfig.json
# The require() typings, as a CommonJS project (module node16) sees them.
node_modules/.bin/tsc -p tests/types/tsconfig.commonjs.json
# typedoc over the built .d.ts (typedoc.json): any warning fails, so does an export without a
# doc comment or a broken {@link}. Writes docs/api/ (git ignores it).
npm run --silent docs

layer "6-8/9 wasm-bindgen (Node, Chromium), Deno, Vite build in Chromium, Playwright e2e"
bash scripts/test-browser.sh

layer "9/9 bench smoke: every contender's answers in every scenario, checks only, no timing"
# Installs the bench's pinned peers (npm ci --prefix bench) the first time; fails only on a
# wrong answer or a negative control that is not rejected, never on a number.
timeout --kill-after=10 900 node bench/run.mjs --smoke --wait-quiet=0

printf '\nall layers passed\n'
