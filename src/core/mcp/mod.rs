//! The MCP source (SPEC §2): the config, a JSON-RPC client over streamable HTTP (JSON or
//! event-stream responses) and over a child's stdio, per-phase timeouts, isolation of every
//! server, the tools as uniform `Tool`s, and elicitation answered through `waitFor`.
//!
//! ```
//! use toolnexus::core::mcp::config::parse_config;
//! let servers = parse_config(&toolnexus::json!({"mcpServers": {"docs": {"url": "https://x/mcp"}}})).unwrap();
//! assert_eq!(servers[0].name, "docs");
//! ```

pub mod auth;
pub mod config;
pub mod config_json;
pub mod content;
pub mod dispatch;
pub mod elicit;
pub mod http;
mod http_read;
mod http_stream;
pub mod jsonrpc;
pub mod list_cache;
pub mod load;
pub mod m2m;
pub mod modern;
pub mod mrtr;
pub mod param_headers;
pub mod process;
pub mod session;
pub mod stdio;
pub mod tool;
pub mod transport;

pub use http_stream::{DEFAULT_RETRY_MS, MAX_QUIET_RECONNECTS};
pub use load::{inventory, load, McpHost, McpSource, ServerState, Status};
