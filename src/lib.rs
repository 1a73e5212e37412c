//! toolnexus for browsers and JavaScript runtimes: a pure Rust [`core`] and, on wasm32, the
//! wasm-bindgen glue in `js` that exposes it to JavaScript.

// `record!` names the crate `toolnexus` in serde's attribute paths, which must resolve both here
// and in a crate that uses the macro.
extern crate self as toolnexus;

pub mod core;

#[cfg(target_arch = "wasm32")]
pub mod js;

/// The module's allocator: talc over `memory.grow` (why talc: the note beside it in Cargo.toml;
/// `tests/wasm/allocator.rs` checks the memory it takes).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
