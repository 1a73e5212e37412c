//! MCP 2026-07-28, the stateless revision: no `initialize` and no session; every request
//! carries its protocol version, the client's capabilities and its identity in `_meta`, and the
//! client learns the server's era by probing with `server/discover`. A recognised modern answer
//! (a `DiscoverResult`, or an `UnsupportedProtocolVersionError` naming 2026-07-28) keeps the
//! client modern; anything else a legacy server would say sends it back to `initialize`.

use crate::core::json::value::{Map, Value};
use crate::core::text::JoinWith;

use super::transport::McpError;

/// The stateless protocol version this client speaks.
pub const MODERN_VERSION: &str = "2026-07-28";

/// `UnsupportedProtocolVersionError`.
pub const UNSUPPORTED_VERSION: i64 = -32022;
/// `HeaderMismatch`: a header the server needs is missing or differs from the body.
pub const HEADER_MISMATCH: i64 = -32020;
/// `MissingRequiredClientCapabilityError`.
pub const MISSING_CAPABILITY: i64 = -32021;

const PROTOCOL_KEY: &str = "io.modelcontextprotocol/protocolVersion";
const INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
const CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";

/// The client's name and version, as `initialize` and `_meta` send them.
pub fn client_info() -> Value {
    crate::json_value!({"name": "toolnexus-wasm", "version": env!("CARGO_PKG_VERSION")})
}

/// The capabilities a modern request declares: elicitation in both modes, always, since a
/// multi-round-trip input is answered later (through `waitFor`, or after a durable halt).
pub fn capabilities() -> Value {
    crate::json_value!({"elicitation": {"form": {}, "url": {}}})
}

/// Puts the per-request metadata into `params._meta` (keeping what is there).
///
/// ```
/// # use toolnexus::core::mcp::modern::with_meta;
/// let params = with_meta(toolnexus::json!({"name": "x", "_meta": {"progressToken": 1}}));
/// assert_eq!(params["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
/// assert_eq!(params["_meta"]["progressToken"], 1);
/// ```
pub fn with_meta(mut params: Value) -> Value {
    if !params.is_object() {
        params = Value::Object(Map::new());
    }
    if let Some(map) = params.as_object_mut() {
        if !matches!(map.get("_meta"), Some(Value::Object(_))) {
            map.insert("_meta".into(), Value::Object(Map::new()));
        }
        if let Some(Value::Object(meta)) = map.get_mut("_meta") {
            meta.insert(PROTOCOL_KEY.into(), Value::from(MODERN_VERSION));
            meta.insert(INFO_KEY.into(), client_info());
            meta.insert(CAPABILITIES_KEY.into(), capabilities());
        }
    }
    params
}

/// What a `server/discover` probe says about the server.
#[derive(Debug, PartialEq)]
pub enum Era {
    /// It speaks 2026-07-28; these are its capabilities.
    Modern(Value),
    /// It asked us to retry with 2026-07-28 (it rejected the version we sent).
    Retry,
    /// It is a legacy server (or says only legacy versions): use `initialize`.
    Legacy,
    /// It cannot be used (an error no fallback would fix).
    Failed(McpError),
}

/// Reads the answer to a `server/discover` probe (sent with 2026-07-28 in `_meta` and headers).
///
/// ```
/// # use toolnexus::core::mcp::{modern::{era_of, Era}, transport::McpError};
/// let found = era_of(Ok(toolnexus::json!({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}})));
/// assert_eq!(found, Era::Modern(toolnexus::json!({"tools": {}})));
/// let legacy = McpError::Status { status: 400, body: "Bad Request: Server not initialized".into() };
/// assert_eq!(era_of(Err(legacy)), Era::Legacy);
/// ```
pub fn era_of(outcome: Result<Value, McpError>) -> Era {
    match outcome {
        // Only a `DiscoverResult` (it names its versions) is modern: a legacy server may
        // answer any method it does not know with an empty result.
        Ok(result) => match result.get("supportedVersions").and_then(Value::as_array) {
            Some(versions) if versions.iter().any(|v| v.as_str() == Some(MODERN_VERSION)) => {
                Era::Modern(
                    result
                        .get("capabilities")
                        .cloned()
                        .unwrap_or(Value::Object(Map::new())),
                )
            }
            Some(versions) => by_versions(versions),
            None => Era::Legacy,
        },
        Err(McpError::Status { status, body }) => match rpc_error(&body) {
            Some((UNSUPPORTED_VERSION, data)) => match data
                .get("supported")
                .and_then(Value::as_array)
            {
                Some(versions) if versions.iter().any(|v| v.as_str() == Some(MODERN_VERSION)) => {
                    Era::Retry
                }
                Some(versions) => by_versions(versions),
                None => Era::Legacy,
            },
            Some((HEADER_MISMATCH | MISSING_CAPABILITY, _)) => {
                Era::Failed(McpError::Status { status, body })
            }
            _ if status == 401 || status == 403 || status >= 500 => {
                Era::Failed(McpError::Status { status, body })
            }
            _ => Era::Legacy,
        },
        Err(McpError::Rpc(error)) if error.code == UNSUPPORTED_VERSION => Era::Retry,
        Err(
            error @ (McpError::Timeout { .. }
            | McpError::Aborted(_)
            | McpError::Auth(_)
            | McpError::AuthPending(_)),
        ) => Era::Failed(error),
        // A method-not-found, a network error a preflight may cause, anything else: legacy.
        Err(_) => Era::Legacy,
    }
}

/// A server that names only other versions: legacy when one is ours, else a clear failure.
fn by_versions(versions: &[Value]) -> Era {
    let names: Vec<&str> = versions.iter().filter_map(Value::as_str).collect();
    if names
        .iter()
        .any(|v| super::session::SUPPORTED_VERSIONS.contains(v))
    {
        return Era::Legacy;
    }
    Era::Failed(McpError::Protocol(format!(
        "the server speaks MCP protocol versions {}, none of which this client speaks ({MODERN_VERSION}, {})",
        names.join_with(", "),
        super::session::SUPPORTED_VERSIONS.join_with(", ")
    )))
}

/// The `code` and `data` of a JSON-RPC error body, if `body` is one.
fn rpc_error(body: &str) -> Option<(i64, Value)> {
    let parsed = crate::core::json::parse::from_str(body).ok()?;
    let error = parsed.get("error")?;
    let code = error.get("code")?.as_i64()?;
    Some((code, error.get("data").cloned().unwrap_or(Value::Null)))
}
