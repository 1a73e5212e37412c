//! The elicitation bridge (SPEC §2): a server's `elicitation/create` in the middle of a
//! `tools/call` becomes one `waitFor(request)`, answered inline. Form mode asks for input
//! (`kind: "input"`, the requested schema in `data.schema`); URL mode asks the user to act at a
//! link (`kind: "authorization"`, `url`). The answer maps back to `accept` (with `answer.data`
//! as the content, and the requested schema's `default` for each field the answer left out,
//! SEP-1034), `decline` (`reason: "declined"`) or `cancel`. Every field shape of the 2025-11-25
//! schema passes through unchanged to the host, the enum shapes of SEP-1330 included (`enum`,
//! `enum` with `enumNames`, `oneOf` of `const`/`title`, and arrays of `items.enum` or
//! `items.anyOf`), and so do their defaults.

use crate::core::json::value::{Map, Value};
use std::cell::Cell;
use std::rc::Rc;

use super::jsonrpc::RpcError;
use super::transport::{basic_answer, ServerRequests};
use crate::core::client::hooks::WaitFor;
use crate::core::host::{Clock, LocalBoxFuture};
use crate::core::types::Request;

thread_local! {
    static SEQUENCE: Cell<u64> = const { Cell::new(0) };
}

/// `elc-<now in base 36>-<sequence>`.
fn next_id(now_ms: f64) -> String {
    let sequence = SEQUENCE.with(|s| {
        let next = s.get().wrapping_add(1);
        s.set(next);
        next
    });
    format!("elc-{}-{sequence}", base36(now_ms.max(0.0) as u64))
}

fn base36(mut n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS.get((n % 36) as usize).copied().unwrap_or(b'0'));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// The `Request` an `elicitation/create` becomes.
///
/// ```
/// # use toolnexus::core::mcp::elicit::to_request;
/// let r = to_request(&toolnexus::json!({"mode": "url", "message": "Sign in", "url": "https://x/login"}), 0.0);
/// assert_eq!((r.kind.as_str(), r.url.as_deref()), ("authorization", Some("https://x/login")));
/// ```
pub fn to_request(params: &Value, now_ms: f64) -> Request {
    let is_url = params.get("mode").and_then(Value::as_str) == Some("url");
    let prompt = match params.get("message") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => crate::core::jsfmt::string_of(other),
    };
    let url = params
        .get("url")
        .and_then(Value::as_str)
        .filter(|u| is_url && !u.is_empty())
        .map(str::to_owned);
    let data = params
        .get("requestedSchema")
        .filter(|s| !is_url && !s.is_null())
        .map(|schema| {
            let mut data = Map::new();
            data.insert("schema".into(), schema.clone());
            data
        });
    Request {
        id: next_id(now_ms),
        kind: if is_url { "authorization" } else { "input" }.into(),
        prompt,
        url,
        data,
        expires_at: None,
    }
}

/// The `ElicitResult` for what `waitFor` gave back. Only an object whose `ok` is `true` (and
/// whose `id`, when it has one, is the request's) accepts; a throw or rejection cancels.
///
/// ```
/// # use toolnexus::core::mcp::elicit::to_result;
/// let answer = toolnexus::json!({"id": "elc-1", "ok": false, "reason": "declined"});
/// assert_eq!(to_result(Ok(answer), "elc-1"), toolnexus::json!({"action": "decline"}));
/// ```
pub fn to_result(answer: Result<Value, String>, request_id: &str) -> Value {
    let Ok(Value::Object(answer)) = answer else {
        return crate::json_value!({"action": "cancel"});
    };
    let id_ok = match answer.get("id") {
        None | Some(Value::Null) => true,
        Some(id) => id.as_str() == Some(request_id),
    };
    if answer.get("ok") == Some(&Value::Bool(true)) && id_ok {
        let content = match answer.get("data") {
            Some(Value::Object(data)) => Value::Object(data.clone()),
            _ => Value::Object(Map::new()),
        };
        return crate::json_value!({"action": "accept", "content": content});
    }
    if id_ok && answer.get("reason").and_then(Value::as_str) == Some("declined") {
        return crate::json_value!({"action": "decline"});
    }
    crate::json_value!({"action": "cancel"})
}

/// An accepting `ElicitResult` with the schema's `default` put in for each field its content
/// left out (SEP-1034); any other result as it is.
///
/// ```
/// # use toolnexus::core::mcp::elicit::with_defaults;
/// let schema = toolnexus::json!({"type": "object", "properties": {
///     "name": {"type": "string", "default": "Ada"}, "age": {"type": "integer", "default": 36}}});
/// let given = toolnexus::json!({"action": "accept", "content": {"age": 7}});
/// assert_eq!(with_defaults(given, &schema), toolnexus::json!({"action": "accept", "content": {"age": 7, "name": "Ada"}}));
/// ```
pub fn with_defaults(mut result: Value, schema: &Value) -> Value {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return result;
    };
    if result.get("action").and_then(Value::as_str) != Some("accept") {
        return result;
    }
    if let Some(Value::Object(content)) = result.get_mut("content") {
        for (name, field) in properties {
            if let Some(default) = field.get("default").filter(|_| !content.contains_key(name)) {
                content.insert(name.clone(), default.clone());
            }
        }
    }
    result
}

/// Answers a server's requests: `elicitation/create` through `waitFor`, `ping`, and "method
/// not found" for the rest.
pub struct Elicitation {
    wait_for: Option<Rc<dyn WaitFor>>,
    clock: Rc<dyn Clock>,
}

impl Elicitation {
    /// Over the toolkit's `waitFor`, when it has one.
    pub fn new(wait_for: Option<Rc<dyn WaitFor>>, clock: Rc<dyn Clock>) -> Self {
        Elicitation { wait_for, clock }
    }

    /// Whether there is a `waitFor` to ask.
    pub fn can_ask(&self) -> bool {
        self.wait_for.is_some()
    }

    /// Asks `waitFor` for `request`; `None` without one.
    pub fn ask(&self, request: &Request) -> Option<LocalBoxFuture<'static, Result<Value, String>>> {
        Some(self.wait_for.as_ref()?.wait_for(request))
    }

    /// The `capabilities` of our `initialize`: elicitation (form and URL) only with a
    /// `waitFor`.
    pub fn capabilities(&self) -> Value {
        match self.wait_for {
            Some(_) => crate::json_value!({"elicitation": {"form": {}, "url": {}}}),
            None => crate::json_value!({}),
        }
    }
}

impl ServerRequests for Elicitation {
    fn answer(
        &self,
        method: &str,
        params: &Value,
    ) -> LocalBoxFuture<'static, Result<Value, RpcError>> {
        let Some(wait_for) = self
            .wait_for
            .clone()
            .filter(|_| method == "elicitation/create")
        else {
            let outcome = basic_answer(method);
            return Box::pin(async move { outcome });
        };
        let request = to_request(params, self.clock.now_ms());
        let waiting = wait_for.wait_for(&request);
        let schema = params
            .get("requestedSchema")
            .cloned()
            .unwrap_or(Value::Null);
        Box::pin(async move {
            Ok(with_defaults(
                to_result(waiting.await, &request.id),
                &schema,
            ))
        })
    }
}
