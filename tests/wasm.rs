//! wasm-bindgen tests of the JS glue (`toolnexus::js`), run in Node by default and in headless
//! Chromium with `WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER=/usr/bin/chromedriver`:
//!
//! ```sh
//! cargo test --target wasm32-unknown-unknown --test wasm
//! ```
//!
//! On the host this file compiles to an empty test binary.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod convert;
mod host;
mod promise;
mod support;
mod tool;
mod tool_result;
mod toolkit;
