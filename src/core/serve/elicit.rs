//! A served tool's suspension asked of the MCP client (SPEC §10 over §7C): the tool's
//! `Request` becomes an `elicitation/create` (form mode with `data.schema` as the requested
//! schema, or URL mode for a request with a `url` when the client takes it), the client's
//! `ElicitResult` becomes the `Answer` the tool is run again with. The mirror of the client
//! side's bridge (`crate::core::mcp::elicit`). How the question reaches the client is the
//! transport's: an [`Asker`] (the HTTP handler writes it on the `tools/call` response stream;
//! an SDK transport sends it on its connection).

use crate::core::host::LocalBoxFuture;
use crate::core::json::text::{buffer_text, Object};
use crate::core::json::value::Value;
use crate::core::types::{Answer, Request};

/// The elicitation modes a client declared in `initialize` (`capabilities.elicitation`: an
/// empty object is form mode; the transport reads them, `serve.js` `elicitationModes`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Modes {
    /// Form mode: structured input against a flat schema.
    pub form: bool,
    /// URL mode: the user acts at a link.
    pub url: bool,
}

/// Asks the client one `elicitation/create` (its `params` as JSON text); resolves to the
/// client's `ElicitResult`, or the reason there is none (an error response, a closed stream).
pub trait Asker {
    /// What the client can be asked.
    fn modes(&self) -> Modes;
    /// Sends the request and waits for the client's answer.
    fn ask(&self, params: String) -> LocalBoxFuture<'static, Result<Value, String>>;
}

/// The `params` of the `elicitation/create` for `request`, or `None` when `modes` cannot
/// carry it. A request with a `url` goes in URL mode when the client takes it (its id is the
/// `elicitationId`); anything else in form mode, `data.schema` as the requested schema (an
/// empty object schema when there is none: the user accepts or declines).
///
/// ```
/// # use toolnexus::core::{serve::elicit::{elicitation_params, Modes}, types::Request};
/// let r = Request { id: "r1".into(), kind: "approval".into(), prompt: "Send 25?".into(), url: None, data: None, expires_at: None };
/// let form = Modes { form: true, url: false };
/// assert_eq!(elicitation_params(&r, form).unwrap(),
///     r#"{"mode":"form","message":"Send 25?","requestedSchema":{"type":"object","properties":{}}}"#);
/// assert!(elicitation_params(&r, Modes { form: false, url: true }).is_none());
/// ```
pub fn elicitation_params(request: &Request, modes: Modes) -> Option<String> {
    let mut out = Vec::new();
    let mut params = Object::new(&mut out);
    match &request.url {
        Some(url) if modes.url => {
            params.str("mode", "url");
            params.str("message", &request.prompt);
            params.str("url", url);
            params.str("elicitationId", &request.id);
        }
        _ if modes.form => {
            params.str("mode", "form");
            params.str("message", &prompt_with_url(request));
            let schema = request
                .data
                .as_ref()
                .and_then(|d| d.get("schema"))
                .filter(|s| s.is_object());
            match schema {
                Some(schema) => {
                    crate::core::json::text::write_value(params.key("requestedSchema"), schema)
                }
                None => params.raw("requestedSchema", r#"{"type":"object","properties":{}}"#),
            }
        }
        _ => return None,
    }
    params.end();
    Some(buffer_text(out))
}

/// The prompt, and the link when a form has to carry it.
fn prompt_with_url(request: &Request) -> String {
    match &request.url {
        Some(url) => format!("{}\n{url}", request.prompt),
        None => request.prompt.clone(),
    }
}

/// The `Answer` a client's `ElicitResult` is: `accept` is `ok` with its `content` as `data`;
/// `decline` is declined; `cancel`, anything else, and no result at all are cancelled.
///
/// ```
/// # use toolnexus::core::{json::record::Record, serve::elicit::answer_of};
/// let text = |r| answer_of(r, "r1").to_json_text();
/// assert_eq!(text(Ok(toolnexus::json!({"action": "accept", "content": {"n": 1}}))), r#"{"id":"r1","ok":true,"data":{"n":1}}"#);
/// assert_eq!(text(Ok(toolnexus::json!({"action": "decline"}))), r#"{"id":"r1","ok":false,"reason":"declined"}"#);
/// assert_eq!(text(Err("closed".into())), r#"{"id":"r1","ok":false,"reason":"cancelled"}"#);
/// ```
pub fn answer_of(result: Result<Value, String>, request_id: &str) -> Answer {
    let result = result.unwrap_or(Value::Null);
    let (ok, reason) = match result.get("action").and_then(Value::as_str) {
        Some("accept") => (true, None),
        Some("decline") => (false, Some("declined")),
        _ => (false, Some("cancelled")),
    };
    let data = match result {
        Value::Object(mut map) if ok => match map.remove("content") {
            Some(Value::Object(content)) => Some(content),
            _ => None,
        },
        _ => None,
    };
    Answer {
        id: request_id.to_owned(),
        ok,
        data,
        reason: reason.map(str::to_owned),
    }
}

/// The error text of a suspension no client could be asked: it names the suspension, its
/// prompt, and why.
///
/// ```
/// # use toolnexus::core::{serve::elicit::unanswerable, types::Request};
/// let r = Request { id: "r1".into(), kind: "approval".into(), prompt: "Send 25?".into(), url: None, data: None, expires_at: None };
/// assert!(unanswerable(&r).starts_with("The tool suspended (approval): Send 25?\n"));
/// ```
pub fn unanswerable(request: &Request) -> String {
    format!(
        "The tool suspended ({}): {}\nIt needs an answer, and this MCP client cannot be asked: it \
         did not declare the elicitation capability{} in initialize, or its request does not \
         accept text/event-stream, which carries the question. Nothing was done.",
        request.kind,
        prompt_with_url(request),
        if request.url.is_some() {
            " (form or url mode)"
        } else {
            " (form mode)"
        }
    )
}
