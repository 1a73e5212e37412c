//! OAuth 2.1 for remote MCP servers (the MCP authorization spec, 2025-11-25, with the
//! 2025-03-26 fallbacks): a server that answers 401 is discovered (`discovery.rs`), the client
//! is identified (`register.rs`), the person signs in through a §10 `authorization`
//! suspension (`flow.rs`: PKCE, state, `iss`), the code is exchanged at the token endpoint
//! (`token.rs`, the one function every grant uses), and the tokens are kept in the host's
//! [`TokenStore`](crate::core::host::TokenStore) (`store.rs`) and refreshed before they
//! expire (`authorizer.rs`).
//!
//! ```
//! use toolnexus::core::mcp::auth::challenge::Challenge;
//! let c = Challenge::parse(r#"Bearer resource_metadata="https://h/.well-known/oauth-protected-resource/mcp""#);
//! assert!(c.resource_metadata.is_some());
//! ```

pub mod authorizer;
pub mod challenge;
pub mod config;
pub mod discovery;
pub mod fetch;
pub mod flow;
pub mod pkce;
pub mod register;
pub mod store;
pub mod token;
pub mod url;

pub use authorizer::{AuthFailure, Authorizer};
