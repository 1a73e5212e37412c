//! The wasm-bindgen glue: each file adapts one exported area of the core to JavaScript.
//! Decoding and encoding of values happens only in [`convert`].

#[cfg(feature = "full")]
pub mod a2a;
pub mod aborting_fetch;
#[cfg(feature = "full")]
pub mod agents_host;
#[cfg(feature = "full")]
pub mod agents_options;
#[cfg(feature = "full")]
pub mod agents_runtime;
#[cfg(feature = "bench-core")]
pub mod bench_core;
#[cfg(feature = "full")]
pub mod builtins;
pub mod callbacks;
pub mod client;
pub mod client_build;
pub mod client_options;
pub mod convert;
#[cfg(feature = "full")]
pub mod exec;
#[cfg(feature = "full")]
pub mod fs;
#[cfg(feature = "full")]
pub mod home;
pub mod host;
pub mod http;
#[cfg(feature = "full")]
pub mod mcp;
#[cfg(feature = "full")]
pub mod mcp_auth;
#[cfg(feature = "full")]
pub mod mcp_deno;
#[cfg(feature = "full")]
pub mod mcp_http;
#[cfg(feature = "full")]
pub mod mcp_process;
#[cfg(feature = "full")]
pub mod mcp_sign;
#[cfg(feature = "full")]
pub mod memfs;
pub mod outcome;
#[cfg(feature = "full")]
pub mod parts;
pub mod promise;
pub mod run_context;
pub mod run_result;
pub mod run_signal;
pub mod run_stream;
#[cfg(feature = "full")]
pub mod serve;
#[cfg(feature = "full")]
pub mod skills;
pub mod slot;
pub mod store;
pub mod tool;
pub mod tool_result;
pub mod toolkit;
#[cfg(not(feature = "full"))]
pub mod toolkit_lean;
#[cfg(feature = "full")]
pub mod toolkit_sources;
#[cfg(feature = "full")]
pub mod translate;
pub mod types;
pub mod typings;

use wasm_bindgen::prelude::*;

/// Runs once when the module is instantiated: makes a Rust panic, should one ever slip
/// through, visible in the console (`console.error` with its message and place) instead of
/// an opaque `unreachable`.
#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = format!("toolnexus-wasm: a bug in the module (please report it): {info}");
        web_sys::console::error_1(&message.into());
    }));
}
