//! The agent loop (SPEC §8, §10): model call → tool calls → results → next turn, with hooks,
//! suspension through `waitFor` or a durable halt, and conversation memory.

pub mod call;
pub mod config;
pub mod error;
pub mod hooks;
pub mod prompt;
pub mod relay;
pub mod request_cache;
pub mod result;
pub mod resume;
pub mod run;
pub mod store;
pub mod suspend;
pub mod telemetry;
pub mod tools;
#[cfg(feature = "full")]
pub mod translate;
pub mod turn;
