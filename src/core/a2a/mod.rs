//! A2A agents, outbound (SPEC §7A): a remote agent's Agent Card is fetched, each advertised
//! skill becomes a tool (source `"a2a"`), and a call is one JSON-RPC `SendMessage` followed by
//! `GetTask` polls until the task stops. Speaks the reference's minimal wire and A2A 1.0 (as
//! the official SDKs do), told apart by the card. A task that stops at `input-required` is a
//! SPEC §10 suspension of the tool, and the retry with the answer continues it (`input.rs`).
//! No streaming, push or auth in the core.
//!
//! ```
//! use toolnexus::core::a2a::config::parse_agents_config;
//! let agents = parse_agents_config(&toolnexus::json!({"rev": {"card": "http://127.0.0.1:9/.well-known/agent-card.json"}})).unwrap();
//! assert_eq!(agents[0].poll_every_ms, 1_000.0);
//! ```

pub mod card;
pub mod config;
pub mod input;
pub mod load;
pub mod tool;
pub mod wire;

pub use load::{agent_tools, load_agents, A2aHost, AgentState, AgentsSource, CardError};
