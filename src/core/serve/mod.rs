//! Serving a toolkit to other programs (SPEC §7B, §7C) as one fetch-style handler: the
//! protocols live here, pure, and the glue turns a WHATWG `Request` into a [`http::Inbound`]
//! and the [`http::Outbound`] back into a `Response`, so the same handler mounts on Node,
//! Deno, a Worker or a page's Service Worker.
//!
//! Today the MCP profile ([`mcp`]); the A2A routes join [`http::route`] later.

#[cfg(feature = "full")]
pub mod accept;
#[cfg(feature = "full")]
pub mod elicit;
#[cfg(feature = "full")]
pub mod http;
#[cfg(feature = "full")]
pub mod mcp;
pub mod profile;
