//! The HTTP face of the served profiles: an [`Inbound`] exchange (what the glue read off a
//! WHATWG `Request`) routed to an [`Outbound`] one (what it writes into a `Response`). MCP is
//! mounted at `POST /mcp` as a stateless streamable-HTTP server (MCP 2025-11-25, "Streamable
//! HTTP"): a request is answered with JSON or a one-event stream as its `Accept` prefers, a
//! notification with `202`, `GET` (no server-initiated stream) and `DELETE` (no sessions)
//! with `405`; every other path is `404`.

use super::accept::{choose, Answer};
use super::elicit::Asker;
use super::mcp::{
    error_text, Handled, McpServer, OnCallEvent, INVALID_REQUEST, PROTOCOL_VERSIONS,
    PROTOCOL_VERSIONS_TEXT,
};
use crate::core::host::Signal;
use crate::core::json::value::Value;
use std::rc::Rc;

/// Where the MCP profile is mounted.
pub const MCP_PATH: &str = "/mcp";
/// The largest body read as a message (the official SDK's limit too): 4 MiB.
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// One request as the handler sees it.
#[derive(Debug, Clone, Default)]
pub struct Inbound {
    /// `GET`, `POST`, … (any case).
    pub method: String,
    /// The URL's path, without its query.
    pub path: String,
    /// The `Accept` header.
    pub accept: Option<String>,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// The `MCP-Protocol-Version` header.
    pub protocol_version: Option<String>,
    /// The body as text (read only for a `POST`).
    pub body: String,
}

/// The answer: a status, its headers, a body.
#[derive(Debug, Clone, PartialEq)]
pub struct Outbound {
    /// The HTTP status.
    pub status: u16,
    /// Headers, as `(name, value)`.
    pub headers: Vec<(&'static str, String)>,
    /// The body (empty for `202` and `405`).
    pub body: String,
}

impl Outbound {
    fn text(status: u16, body: &str) -> Self {
        Outbound {
            status,
            headers: vec![("content-type", "text/plain; charset=utf-8".into())],
            body: body.into(),
        }
    }

    fn json(status: u16, body: String) -> Self {
        Outbound {
            status,
            headers: vec![("content-type", "application/json".into())],
            body,
        }
    }

    /// A transport-level refusal: the status, with a JSON-RPC error (id `null`) as the body.
    fn refused(status: u16, message: &str) -> Self {
        Self::json(status, error_text(&Value::Null, INVALID_REQUEST, message))
    }
}

/// Whether `inbound` is addressed to the MCP profile (`/mcp`, any method).
pub fn is_mcp(inbound: &Inbound) -> bool {
    inbound.path == MCP_PATH
}

/// Answers one exchange: `mcp` serves `/mcp` when the profile is on; everything else is
/// `404`. Returns the `onCall` event of a `tools/call`, for the host to report.
///
/// ```
/// # use toolnexus::core::serve::http::{route, Inbound};
/// let out = futures_executor::block_on(route(None, Inbound { method: "GET".into(), path: "/".into(), ..Default::default() }, None));
/// assert_eq!(out.0.status, 404);
/// ```
pub async fn route(
    mcp: Option<&McpServer>,
    inbound: Inbound,
    signal: Option<Signal>,
) -> (Outbound, Option<OnCallEvent>) {
    route_asking(mcp, inbound, signal, None).await
}

/// [`route`] where the client can be asked (`asker`: it declared elicitation and the response
/// can stream): a tool's suspension becomes an `elicitation/create` the host sends it.
pub async fn route_asking(
    mcp: Option<&McpServer>,
    inbound: Inbound,
    signal: Option<Signal>,
    asker: Option<Rc<dyn Asker>>,
) -> (Outbound, Option<OnCallEvent>) {
    match mcp {
        Some(server) if is_mcp(&inbound) => serve_mcp(server, inbound, signal, asker).await,
        _ => (Outbound::text(404, "not found"), None),
    }
}

async fn serve_mcp(
    server: &McpServer,
    inbound: Inbound,
    signal: Option<Signal>,
    asker: Option<Rc<dyn Asker>>,
) -> (Outbound, Option<OnCallEvent>) {
    if !inbound.method.eq_ignore_ascii_case("POST") {
        let out = Outbound {
            status: 405,
            headers: vec![("allow", "POST".into())],
            body: String::new(),
        };
        return (out, None);
    }
    if let Some(refusal) = refusal(&inbound) {
        return (refusal, None);
    }
    let Some(answer) = choose(inbound.accept.as_deref()) else {
        let why = "Not Acceptable: the client must accept application/json or text/event-stream";
        return (Outbound::refused(406, why), None);
    };
    let Handled { reply, call } = server
        .handle_text_asking(&inbound.body, signal, asker)
        .await;
    let out = match reply {
        None => Outbound {
            status: 202,
            headers: Vec::new(),
            body: String::new(),
        },
        // A message that could not be read at all is the client's fault: 400, as JSON.
        Some(text) if unreadable(&text) => Outbound::json(400, text),
        Some(text) => match answer {
            Answer::Json => Outbound::json(200, text),
            Answer::EventStream => Outbound {
                status: 200,
                headers: vec![
                    ("content-type", "text/event-stream".into()),
                    ("cache-control", "no-cache".into()),
                ],
                body: format!("event: message\ndata: {text}\n\n"),
            },
        },
    };
    (out, call)
}

/// What is wrong with a `POST` before its body is read: a body that is not JSON by its
/// `Content-Type` (which also keeps a page's no-preflight `text/plain` form posts out), one
/// over [`MAX_BODY_BYTES`], or a protocol version this server does not speak.
fn refusal(inbound: &Inbound) -> Option<Outbound> {
    let media = inbound.content_type.as_deref().unwrap_or_default();
    let media = media.split(';').next().unwrap_or_default().trim();
    if !media.eq_ignore_ascii_case("application/json") {
        let why = "Unsupported Media Type: Content-Type must be application/json";
        return Some(Outbound::refused(415, why));
    }
    if inbound.body.len() > MAX_BODY_BYTES {
        let why = format!("Payload Too Large: a message is at most {MAX_BODY_BYTES} bytes");
        return Some(Outbound::refused(413, &why));
    }
    match inbound.protocol_version.as_deref() {
        Some(v) if !PROTOCOL_VERSIONS.contains(&v) => {
            let why = format!(
                "Bad Request: unsupported MCP-Protocol-Version \"{v}\" (supported: {PROTOCOL_VERSIONS_TEXT})"
            );
            Some(Outbound::refused(400, &why))
        }
        _ => None,
    }
}

/// Whether a reply is the answer to a message that was not JSON or not a request (id `null`).
fn unreadable(reply: &str) -> bool {
    reply.starts_with(r#"{"jsonrpc":"2.0","id":null,"error":"#)
}
