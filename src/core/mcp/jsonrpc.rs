//! JSON-RPC 2.0 messages as MCP uses them: building requests, notifications and responses, and
//! telling apart what a server sends back.

use crate::core::json::value::Value;

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The error code (`-32601` method not found, …).
    pub code: i64,
    /// The server's message.
    pub message: String,
}

/// Method not found.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Internal error.
pub const INTERNAL_ERROR: i64 = -32603;

/// One message from the server.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// The answer to one of our requests.
    Response {
        /// The id of the request it answers.
        id: Value,
        /// Its `result`, or its `error`.
        outcome: Result<Value, RpcError>,
    },
    /// A request from the server (`elicitation/create`, `ping`, …) that wants an answer.
    Request {
        /// Its id, echoed in our response.
        id: Value,
        /// The method.
        method: String,
        /// The params (`null` when absent).
        params: Value,
    },
    /// A notification (`notifications/progress`, …): nothing to answer.
    Notification {
        /// The method.
        method: String,
        /// The params (`null` when absent).
        params: Value,
    },
    /// Anything else.
    Invalid,
}

/// A request object.
///
/// ```
/// # use toolnexus::core::mcp::jsonrpc::request;
/// let r = request(1, "tools/list", toolnexus::json!({}));
/// assert_eq!(r.to_string(), r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#);
/// ```
pub fn request(id: u64, method: &str, params: Value) -> Value {
    crate::json_value!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// A notification object (no id, no answer).
pub fn notification(method: &str) -> Value {
    crate::json_value!({"jsonrpc": "2.0", "method": method})
}

/// A success response to a server's request.
pub fn result_response(id: Value, result: Value) -> Value {
    crate::json_value!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// An error response to a server's request.
pub fn error_response(id: Value, error: &RpcError) -> Value {
    crate::json_value!({"jsonrpc": "2.0", "id": id, "error": {"code": error.code, "message": error.message}})
}

/// Classifies one decoded message.
///
/// ```
/// # use toolnexus::core::mcp::jsonrpc::{classify, Incoming};
/// let m = classify(toolnexus::json!({"jsonrpc": "2.0", "id": 3, "result": {}}));
/// assert!(matches!(m, Incoming::Response { .. }));
/// ```
pub fn classify(message: Value) -> Incoming {
    let Value::Object(mut map) = message else {
        return Incoming::Invalid;
    };
    let id = map
        .remove("id")
        .filter(|id| id.is_string() || id.is_number());
    let method = map.get("method").and_then(Value::as_str).map(str::to_owned);
    match (id, method) {
        (Some(id), Some(method)) => Incoming::Request {
            id,
            method,
            params: map.remove("params").unwrap_or(Value::Null),
        },
        (None, Some(method)) => Incoming::Notification {
            method,
            params: map.remove("params").unwrap_or(Value::Null),
        },
        (Some(id), None) => {
            if let Some(result) = map.remove("result") {
                return Incoming::Response {
                    id,
                    outcome: Ok(result),
                };
            }
            match map.remove("error") {
                Some(error) => Incoming::Response {
                    id,
                    outcome: Err(rpc_error(&error)),
                },
                None => Incoming::Invalid,
            }
        }
        (None, None) => match map.get("error") {
            // An error the server could not tie to a request (`id: null`), such as a parse
            // error: surfaced as a response to whoever waits.
            Some(error) => Incoming::Response {
                id: Value::Null,
                outcome: Err(rpc_error(error)),
            },
            None => Incoming::Invalid,
        },
    }
}

fn rpc_error(error: &Value) -> RpcError {
    RpcError {
        code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
        message: error
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("unknown error")
            .to_owned(),
    }
}

/// Whether a response `id` answers our request `ours` (ids are numbers we chose; a server
/// may echo them as strings).
pub fn same_id(id: &Value, ours: u64) -> bool {
    match id {
        Value::Number(n) => n.as_u64() == Some(ours),
        Value::String(s) => s.parse::<u64>().ok() == Some(ours),
        _ => false,
    }
}
