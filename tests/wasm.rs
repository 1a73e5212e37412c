//! wasm-bindgen tests of the JS glue (`toolnexus::js`), run in Node by default and in headless
//! Chromium with `WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER=/usr/bin/chromedriver`:
//!
//! ```sh
//! cargo test --target wasm32-unknown-unknown --test wasm
//! ```
//!
//! On the host this file compiles to an empty test binary.
#![cfg(target_arch = "wasm32")]
// A crate root resolves `mod x;` beside itself (tests/x.rs), hence the explicit paths.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

#[path = "wasm/allocator.rs"]
mod allocator;
#[path = "wasm/convert.rs"]
mod convert;
#[path = "wasm/host.rs"]
mod host;
#[path = "wasm/outcome.rs"]
mod outcome;
#[path = "wasm/promise.rs"]
mod promise;
#[path = "wasm/support.rs"]
mod support;
#[path = "wasm/tool.rs"]
mod tool;
#[path = "wasm/tool_result.rs"]
mod tool_result;
#[path = "wasm/toolkit.rs"]
mod toolkit;
