//! The A2A wire subset (SPEC §7A): one JSON-RPC 2.0 request per HTTP POST (`SendMessage`,
//! `GetTask`), and reading the Task that comes back. Both the reference's shapes (`state:
//! "completed"`, parts `{kind: "text", text}`, `role: "agent"`) and A2A 1.0's (`state:
//! "TASK_STATE_COMPLETED"`, parts `{text}`, `role: "ROLE_AGENT"`, a result wrapped as
//! `{task}` or `{message}`) are read; states are reported in the reference's words.

use crate::core::json::value::Value;
use futures_util::future::{select, Either};
use std::rc::Rc;

use super::card::Dialect;
use crate::core::host::{
    Clock, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture, Signal,
};
use crate::core::text::JoinWith;

/// How much of a body goes into a message.
const BODY_LIMIT: usize = 500;

/// Why one JSON-RPC call produced no result.
#[derive(Debug, Clone, PartialEq)]
pub enum CallError {
    /// The caller's signal fired.
    Aborted,
    /// The time allowed for the call passed.
    TimedOut,
    /// Anything else, as the text the tool reports (`HTTP 500: …`, the JSON-RPC error's
    /// message, an unreachable agent).
    Failed(String),
}

/// Where and how one agent is called.
#[derive(Clone)]
pub struct Endpoint {
    /// The transport.
    pub http: Rc<dyn Http>,
    /// The JSON-RPC URL.
    pub url: Rc<str>,
    /// The wire shape.
    pub dialect: Dialect,
}

/// The headers of a request: ours first, the host's after (a later one wins on a name).
pub fn request_headers(
    dialect: Dialect,
    json_body: bool,
    host: &[(String, String)],
) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    if json_body {
        headers.push(("content-type".to_owned(), "application/json".to_owned()));
    }
    headers.push(("accept".to_owned(), "application/json".to_owned()));
    if dialect == Dialect::V1 {
        headers.push(("a2a-version".to_owned(), "1.0".to_owned()));
    }
    headers.extend(host.iter().cloned());
    headers
}

/// The `params` of `SendMessage` for `task`, as JSON text (non-blocking: the Task comes back
/// at once).
///
/// ```
/// # use toolnexus::core::a2a::{card::Dialect, wire::send_params};
/// assert_eq!(send_params(Dialect::Reference, "review", "m1"),
///     r#"{"message":{"role":"user","messageId":"m1","parts":[{"kind":"text","text":"review"}]},"configuration":{"blocking":false}}"#);
/// assert_eq!(send_params(Dialect::V1, "say \"hi\"", "m1"),
///     r#"{"message":{"role":"ROLE_USER","messageId":"m1","parts":[{"text":"say \"hi\""}]},"configuration":{"returnImmediately":true}}"#);
/// ```
pub fn send_params(dialect: Dialect, task: &str, message_id: &str) -> String {
    let (role, kind, configuration) = match dialect {
        Dialect::Reference => ("user", r#""kind":"text","#, r#"{"blocking":false}"#),
        Dialect::V1 => ("ROLE_USER", "", r#"{"returnImmediately":true}"#),
    };
    format!(
        r#"{{"message":{{"role":"{role}","messageId":{},"parts":[{{{kind}"text":{}}}]}},"configuration":{configuration}}}"#,
        quoted(message_id),
        quoted(task)
    )
}

/// `text` as a JSON string.
pub fn quoted(text: &str) -> String {
    crate::core::json::text::to_text(&Value::from(text))
}

/// POSTs `{"jsonrpc":"2.0","id":id,"method":method,"params":params}` (`params` JSON text) and
/// returns its `result` (`null` when absent), within `ms` and until `signal` fires.
#[allow(clippy::too_many_arguments)]
pub async fn call(
    endpoint: &Endpoint,
    headers: &[(String, String)],
    clock: &Rc<dyn Clock>,
    id: &str,
    method: &str,
    params: &str,
    ms: f64,
    signal: Option<&Signal>,
) -> Result<Value, CallError> {
    if signal.is_some_and(|s| s.is_aborted()) {
        return Err(CallError::Aborted);
    }
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":{},"method":"{method}","params":{params}}}"#,
        quoted(id)
    );
    let own_headers = request_headers(endpoint.dialect, true, headers);
    let header_names: Vec<String> = own_headers
        .iter()
        .map(|(n, _)| n.to_ascii_lowercase())
        .collect();
    let request = HttpRequest {
        method: "POST".into(),
        url: endpoint.url.clone(),
        headers: own_headers.into(),
        body: Some(body),
        splice: None,
        signal: signal.cloned(),
    };
    let sent = fetch(&*endpoint.http, &request);
    let stop: LocalBoxFuture<'static, ()> = match signal {
        Some(signal) => signal.wait(),
        None => Box::pin(std::future::pending()),
    };
    let response = match select(sent, select(clock.sleep(ms.max(0.0)), stop)).await {
        Either::Left((Ok(response), _)) => response,
        Either::Left((Err(HttpError::Aborted(_)), _)) => return Err(CallError::Aborted),
        Either::Left((Err(HttpError::Network(why) | HttpError::Refused(why)), _)) => {
            return Err(CallError::Failed(unreachable(
                method,
                &endpoint.url,
                &why,
                &header_names,
            )))
        }
        Either::Right((Either::Left(_), _)) => return Err(CallError::TimedOut),
        Either::Right((Either::Right(_), _)) => return Err(CallError::Aborted),
    };
    if !(200..300).contains(&response.status) {
        return Err(CallError::Failed(format!(
            "HTTP {}: {}",
            response.status,
            clip(&response.body)
        )));
    }
    read_result(method, &response.body).map_err(CallError::Failed)
}

/// Sends `request` and reads its whole body. Through `open_with_headers`, so a transport whose
/// dropped requests abort (the platform's) ends a request given up on at a timeout instead of
/// leaving it open.
pub fn fetch(
    http: &dyn Http,
    request: &HttpRequest,
) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
    let opened = http.open_with_headers(request);
    Box::pin(async move {
        let mut response = opened.await?;
        let status = response.status;
        if let Some(body) = response.body.take_whole() {
            return Ok(HttpResponse {
                status,
                retry_after: None,
                body,
            });
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = response.body.next_chunk().await {
            bytes.extend_from_slice(&chunk?);
        }
        Ok(HttpResponse {
            status,
            retry_after: None,
            body: crate::core::text::from_utf8_lossy(&bytes),
        })
    })
}

/// A request that got no response: the runtime's reason, and what a browser hides behind the
/// same error (a refused CORS preflight), naming the headers the agent has to allow.
///
/// ```
/// # use toolnexus::core::a2a::wire::unreachable;
/// let names = ["content-type".to_string(), "authorization".to_string()];
/// assert_eq!(unreachable("GetTask", "http://a/", "fetch failed (ECONNREFUSED)", &names),
///     "A2A GetTask: could not reach http://a/: fetch failed (ECONNREFUSED). From a browser page \
///      a refused CORS preflight fails the same way: the agent must allow this origin, POST and \
///      the request headers content-type, authorization");
/// ```
pub fn unreachable(method: &str, url: &str, why: &str, header_names: &[String]) -> String {
    format!(
        "A2A {method}: could not reach {url}: {why}. From a browser page a refused CORS preflight \
         fails the same way: the agent must allow this origin, POST and the request headers {}",
        header_names.join_with(", ")
    )
}

/// The `result` of a JSON-RPC response text; its `error` (message, else `JSON-RPC error
/// <code>`) or a body that is not JSON is the error text.
///
/// ```
/// # use toolnexus::core::a2a::wire::read_result;
/// assert_eq!(read_result("GetTask", r#"{"jsonrpc":"2.0","id":"1","error":{"code":-32001,"message":"Task not found"}}"#),
///     Err("Task not found".to_string()));
/// assert_eq!(read_result("GetTask", r#"{"jsonrpc":"2.0","id":"1","error":{"code":-32001}}"#),
///     Err("JSON-RPC error -32001".to_string()));
/// assert!(read_result("GetTask", r#"{"result":{"id":"t1"}}"#).is_ok());
/// ```
pub fn read_result(method: &str, body: &str) -> Result<Value, String> {
    let parsed: Value = crate::core::json::parse::from_str(body).map_err(|_| {
        format!(
            "A2A {method}: the response is not JSON-RPC: {}",
            clip(body.trim())
        )
    })?;
    if let Some(error) = parsed.get("error").filter(|e| !e.is_null()) {
        if let Some(message) = error.get("message").and_then(Value::as_str) {
            return Err(message.to_owned());
        }
        let code = error
            .get("code")
            .map(crate::core::jsfmt::string_of)
            .unwrap_or_default();
        return Err(format!("JSON-RPC error {code}").trim().to_owned());
    }
    if !parsed.is_object() {
        return Err(format!(
            "A2A {method}: the response is not JSON-RPC: {}",
            clip(body.trim())
        ));
    }
    Ok(parsed.get("result").cloned().unwrap_or(Value::Null))
}

/// What a `SendMessage` or `GetTask` result holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A Task (the reference's bare Task, or A2A 1.0's `{task}`).
    Task(Value),
    /// A direct reply without a task (A2A 1.0's `{message}`): the answer itself.
    Message(Value),
}

/// Reads a result as a Task or a direct message; `None` when it is neither.
///
/// ```
/// # use toolnexus::core::a2a::wire::{reply_of, Reply};
/// let bare = toolnexus::json!({"id": "t1", "status": {"state": "submitted"}});
/// assert_eq!(reply_of(bare.clone()), Some(Reply::Task(bare.clone())));
/// assert_eq!(reply_of(toolnexus::json!({"task": bare.clone()})), Some(Reply::Task(bare)));
/// assert_eq!(reply_of(toolnexus::json!("nope")), None);
/// ```
pub fn reply_of(result: Value) -> Option<Reply> {
    let Value::Object(mut map) = result else {
        return None;
    };
    if let Some(task) = map.remove("task").filter(Value::is_object) {
        return Some(Reply::Task(task));
    }
    if let Some(message) = map.remove("message").filter(Value::is_object) {
        if map.get("status").is_none() {
            return Some(Reply::Message(message));
        }
        map.insert("message".into(), message);
    }
    let has_id = map.get("id").and_then(Value::as_str).is_some();
    (has_id || map.get("status").is_some()).then(|| Reply::Task(Value::Object(map)))
}

/// A task's state in the reference's words: `TASK_STATE_INPUT_REQUIRED` reads
/// `input-required`; `None` when the task has none.
///
/// ```
/// # use toolnexus::core::a2a::wire::state_of;
/// assert_eq!(state_of(&toolnexus::json!({"status": {"state": "TASK_STATE_INPUT_REQUIRED"}})).as_deref(), Some("input-required"));
/// assert_eq!(state_of(&toolnexus::json!({"status": {"state": "completed"}})).as_deref(), Some("completed"));
/// ```
pub fn state_of(task: &Value) -> Option<String> {
    let state = task.get("status")?.get("state")?.as_str()?;
    let plain = state.strip_prefix("TASK_STATE_").unwrap_or(state);
    Some(plain.to_ascii_lowercase().replace('_', "-"))
}

/// Whether polling stops at `state`: the reference's terminal states, A2A 1.0's `rejected`,
/// and the interrupted ones (`input-required`, `auth-required`), which wait on us.
pub fn stops_at(state: &str) -> bool {
    matches!(
        state,
        "completed" | "failed" | "canceled" | "rejected" | "input-required" | "auth-required"
    )
}

/// The text of a message's text parts, joined by `\n`.
pub fn message_text(message: &Value) -> String {
    let Some(Value::Array(parts)) = message.get("parts") else {
        return String::new();
    };
    text_parts(parts).collect::<Vec<_>>().join_with("\n")
}

fn text_parts(parts: &[Value]) -> impl Iterator<Item = &str> {
    parts.iter().filter_map(|part| {
        let kind = part.get("kind").and_then(Value::as_str);
        match kind {
            None | Some("text") => part.get("text").and_then(Value::as_str),
            Some(_) => None,
        }
    })
}

/// A completed task's output: every text part across `artifacts[].parts[]` joined by `\n`;
/// without any, the last agent message of `history` that has text.
///
/// ```
/// # use toolnexus::core::a2a::wire::task_output;
/// let task = toolnexus::json!({"artifacts": [{"parts": [{"kind": "text", "text": "A"}, {"kind": "data"}]},
///     {"parts": [{"text": "B"}]}]});
/// assert_eq!(task_output(&task), "A\nB");
/// let history = toolnexus::json!({"history": [{"role": "agent", "parts": [{"text": "old"}]},
///     {"role": "ROLE_AGENT", "parts": [{"text": "new"}]}, {"role": "user", "parts": [{"text": "q"}]}]});
/// assert_eq!(task_output(&history), "new");
/// ```
pub fn task_output(task: &Value) -> String {
    let mut texts: Vec<&str> = Vec::new();
    if let Some(Value::Array(artifacts)) = task.get("artifacts") {
        for artifact in artifacts {
            if let Some(Value::Array(parts)) = artifact.get("parts") {
                texts.extend(text_parts(parts));
            }
        }
    }
    if !texts.is_empty() {
        return texts.join_with("\n");
    }
    let Some(Value::Array(history)) = task.get("history") else {
        return String::new();
    };
    history
        .iter()
        .rev()
        .filter(|m| {
            matches!(
                m.get("role").and_then(Value::as_str),
                Some("agent" | "ROLE_AGENT")
            )
        })
        .map(message_text)
        .find(|text| !text.is_empty())
        .unwrap_or_default()
}

/// The text of a task's `status.message` (empty when it has none).
pub fn status_text(task: &Value) -> String {
    task.get("status")
        .and_then(|s| s.get("message"))
        .map(message_text)
        .unwrap_or_default()
}

/// At most [`BODY_LIMIT`] characters.
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(BODY_LIMIT) {
        Some((at, _)) => format!("{}…", text.get(..at).unwrap_or(text)),
        None => text.to_owned(),
    }
}

/// A version 4 UUID (`8-4-4-4-12` hex digits) from 16 random bytes.
///
/// ```
/// # use toolnexus::core::a2a::wire::uuid_v4;
/// assert_eq!(uuid_v4([0xff; 16]), "ffffffff-ffff-4fff-bfff-ffffffffffff");
/// ```
pub fn uuid_v4(bytes: [u8; 16]) -> String {
    let mut out = String::with_capacity(36);
    for (i, b) in bytes.into_iter().enumerate() {
        let b = match i {
            6 => (b & 0x0f) | 0x40,
            8 => (b & 0x3f) | 0x80,
            _ => b,
        };
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push(hex_digit(b >> 4));
        out.push(hex_digit(b & 0x0f));
    }
    out
}

fn hex_digit(n: u8) -> char {
    char::from_digit(u32::from(n), 16).unwrap_or('0')
}
