//! What a session needs from a transport (streamable HTTP or stdio), and the errors both give.

use crate::core::json::value::Value;
use std::rc::Rc;

use super::jsonrpc::{self, Incoming, RpcError};
use crate::core::host::{LocalBoxFuture, Signal};

/// Why an exchange with a server failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum McpError {
    /// The server answered with an HTTP error status.
    #[error("HTTP {status}{}", if .body.is_empty() { String::new() } else { format!(": {}", .body) })]
    Status {
        /// The status.
        status: u16,
        /// The start of the body.
        body: String,
    },
    /// The server no longer knows our session (HTTP 404 with a session id).
    #[error("the MCP session expired (HTTP 404)")]
    SessionExpired,
    /// The network failed, or the process could not be reached.
    #[error("{0}")]
    Transport(String),
    /// The server sent something that is not MCP.
    #[error("{0}")]
    Protocol(String),
    /// The server answered with a JSON-RPC error.
    #[error("MCP error {}: {}", .0.code, .0.message)]
    Rpc(RpcError),
    /// A phase ran past its budget.
    #[error("timed out after {} ms during {phase}", crate::core::jsfmt::number(*.ms))]
    Timeout {
        /// The phase (`initialize`, `tools/list`, `tools/call`, …).
        phase: String,
        /// The budget.
        ms: f64,
    },
    /// The caller's signal fired.
    #[error("aborted{}", if .0.is_empty() { String::new() } else { format!(": {}", .0) })]
    Aborted(String),
    /// The server asks for (more) authorization: HTTP 401, or 403 `insufficient_scope`, with
    /// its `WWW-Authenticate` value; the session runs OAuth and sends the request again.
    #[error("HTTP {status}: the server asks for authorization")]
    Unauthorized {
        /// 401 or 403.
        status: u16,
        /// The `WWW-Authenticate` header value (empty when absent).
        challenge: String,
    },
    /// OAuth could not give a token; the reason (never a secret).
    #[error("authorization failed: {0}")]
    Auth(String),
    /// The sign-in waits for the host (no `waitFor`): its §10 Request.
    #[error(
        "waiting for the sign-in at the authorization server (a pending authorization request)"
    )]
    AuthPending(Box<crate::core::types::Request>),
}

/// Answers the requests a server sends us in the middle of ours (`elicitation/create`,
/// `ping`). Its result becomes the JSON-RPC response the transport sends back.
pub trait ServerRequests {
    /// Answers one request.
    fn answer(
        &self,
        method: &str,
        params: &Value,
    ) -> LocalBoxFuture<'static, Result<Value, RpcError>>;

    /// Takes one notification (`notifications/progress`, `notifications/tools/list_changed`,
    /// …); the default ignores it.
    fn notified(&self, _method: &str, _params: &Value) {}
}

/// Answers nothing but `ping`.
pub struct NoServerRequests;

impl ServerRequests for NoServerRequests {
    fn answer(
        &self,
        method: &str,
        _params: &Value,
    ) -> LocalBoxFuture<'static, Result<Value, RpcError>> {
        let outcome = basic_answer(method);
        Box::pin(async move { outcome })
    }
}

/// `ping` gets `{}`; every other method is unknown.
pub fn basic_answer(method: &str) -> Result<Value, RpcError> {
    if method == "ping" {
        return Ok(Value::Object(crate::core::json::value::Map::new()));
    }
    Err(RpcError {
        code: jsonrpc::METHOD_NOT_FOUND,
        message: format!("Method not found: {method}"),
    })
}

/// One way of talking to a server.
pub trait Transport {
    /// Sends request `message` (whose id is `id`) and resolves with its `result`, answering
    /// the server's own requests through `handler` meanwhile. `signal` aborts it.
    fn request(
        &self,
        id: u64,
        message: Value,
        handler: Rc<dyn ServerRequests>,
        signal: Option<Signal>,
    ) -> LocalBoxFuture<'static, Result<Value, McpError>>;
    /// [`request`](Self::request) with extra HTTP headers (`Mcp-Param-*`); a transport
    /// without headers ignores them.
    fn request_headed(
        &self,
        id: u64,
        message: Value,
        _headers: Vec<(String, String)>,
        handler: Rc<dyn ServerRequests>,
        signal: Option<Signal>,
    ) -> LocalBoxFuture<'static, Result<Value, McpError>> {
        self.request(id, message, handler, signal)
    }
    /// Whether this transport may probe for the stateless 2026-07-28 protocol (HTTP).
    fn speaks_modern(&self) -> bool {
        false
    }
    /// What identifies the server and the authorization context, for caching its lists;
    /// `None` to cache nothing.
    fn cache_key(&self) -> Option<String> {
        None
    }
    /// Sends a notification.
    fn notify(&self, message: Value) -> LocalBoxFuture<'static, Result<(), McpError>>;
    /// Remembers the negotiated protocol version (HTTP sends it as a header).
    fn set_protocol_version(&self, _version: &str) {}
    /// Opens what carries the server's own messages outside of our requests (HTTP: the
    /// standalone GET event stream, when the server allows one; under 2026-07-28 the stream
    /// that answers `subscription`, a `subscriptions/listen` request), routed to `handler`
    /// until [`reset`](Self::reset) or [`close`](Self::close). Resolves once it is open or
    /// refused.
    fn listen(
        &self,
        _handler: Rc<dyn ServerRequests>,
        _subscription: Option<Value>,
    ) -> LocalBoxFuture<'static, ()> {
        Box::pin(async {})
    }
    /// Forgets the session, so the next `initialize` starts a new one.
    fn reset(&self) {}
    /// Ends the session and releases the connection or process.
    fn close(&self) -> LocalBoxFuture<'static, ()>;
}

/// What to do with one message that arrived while waiting for the response to `ours`.
pub enum Step {
    /// It is our response.
    Done(Result<Value, McpError>),
    /// A server request: answer it, then keep waiting.
    Answer {
        /// Its id.
        id: Value,
        /// The method.
        method: String,
        /// The params.
        params: Value,
    },
    /// A notification, for the handler's `notified`.
    Notify {
        /// The method.
        method: String,
        /// The params.
        params: Value,
    },
    /// Nothing to do (someone else's response, an unreadable message).
    Skip,
}

/// Sorts one incoming message for a request waiting on id `ours`.
pub fn step(message: Value, ours: u64) -> Step {
    match jsonrpc::classify(message) {
        Incoming::Response { id, outcome } if id.is_null() || jsonrpc::same_id(&id, ours) => {
            Step::Done(outcome.map_err(McpError::Rpc))
        }
        Incoming::Request { id, method, params } => Step::Answer { id, method, params },
        Incoming::Notification { method, params } => Step::Notify { method, params },
        _ => Step::Skip,
    }
}

/// The JSON-RPC response to a server request, from the handler's outcome.
pub fn reply(id: Value, outcome: Result<Value, RpcError>) -> Value {
    match outcome {
        Ok(result) => jsonrpc::result_response(id, result),
        Err(error) => jsonrpc::error_response(id, &error),
    }
}
