//! toolnexus for browsers and JavaScript runtimes: a pure Rust [`core`] and, on wasm32, the
//! wasm-bindgen glue in `js` that exposes it to JavaScript.

pub mod core;
pub mod heap;

#[cfg(target_arch = "wasm32")]
pub mod js;
