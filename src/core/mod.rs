//! The pure Rust core. Nothing here knows about JavaScript: I/O comes in through the traits in
//! [`host`], so every behaviour runs natively in host tests.

#[cfg(feature = "full")]
pub mod a2a;
pub mod adapters;
pub mod agents;
#[cfg(feature = "bench-core")]
pub mod bench_loop;
pub mod builtin_toggle;
#[cfg(feature = "full")]
pub mod builtins;
pub mod client;
pub mod contract;
pub mod execute;
#[cfg(feature = "full")]
pub mod fs;
pub mod hashed;
#[cfg(feature = "full")]
pub mod home;
pub mod host;
pub mod input_schema;
pub mod jsfmt;
pub mod json;
#[cfg(feature = "full")]
pub mod mcp;
pub mod message;
pub mod metrics;
pub mod names;
pub mod parts;
pub mod relay;
pub mod schema;
pub mod serve;
#[cfg(feature = "full")]
pub mod skills;
pub mod sorting;
pub mod spec;
pub mod text;
pub mod time;
pub mod tool;
pub mod toolkit;
/// Single-turn translate (SPEC §11): in the full build only (`toolnexus-wasm/core` keeps
/// pages that bring their own tools lean; translate is a proxy's feature, ~11 KiB gzip).
#[cfg(feature = "full")]
pub mod translate;
pub mod types;
pub mod wire;
