//! OAuth grants without a person, for remote MCP servers (full build only): the client
//! credentials grant (RFC 6749 §4.4) authenticated with a secret or a signed client assertion
//! (`private_key_jwt`, RFC 7523), the JWT bearer grant (RFC 7523) for workload identity
//! federation and for enterprise-managed authorization (an ID token exchanged at the identity
//! provider for an ID-JAG, RFC 8693), and DPoP-bound tokens (RFC 9449). Signing goes through
//! the host's [`sign::Signer`] (WebCrypto in JS): no cryptography is compiled into the module.
//!
//! ```
//! # use toolnexus::core::mcp::m2m::form::TokenRequest;
//! let request = TokenRequest::client_credentials("https://as/token", None, Some("https://rs/mcp"))
//!     .with_assertion("h.c.s");
//! assert_eq!(request.param("client_assertion"), Some("h.c.s"));
//! ```

pub mod config;
pub mod dpop;
pub mod flow;
pub mod form;
pub mod jwt;
pub mod sign;
