//! A remote task that waits on us (`input-required`) as a SPEC §10 suspension, and the answer
//! sent back. The agent's question becomes the `Request` of a `pending` result (kind `input`,
//! its status message as the prompt, `data` naming the agent and the task), so the local
//! `waitFor` answers it in the page or a durable halt keeps it; the retry that carries the
//! `Answer` sends it to the same task (`SendMessage` with its `taskId`) as a text part and a
//! data part `{answer}`.
//!
//! A peer that is a toolnexus agent puts its own `Request` in the status message as a data
//! part `{pending: Request}`: its kind, url, `expiresAt` and `data.schema` are kept, and the
//! answer sent back carries that request's id (the peer checks it).

use crate::core::json::record::Record;
use crate::core::json::value::{Map, Value};

use super::card::Dialect;
use super::wire::{quoted, status_text};
use crate::core::types::{Answer, Request};

/// The `data` keys of a local request that name the remote task.
const AGENT: &str = "agent";
const TASK_ID: &str = "taskId";
const CONTEXT_ID: &str = "contextId";
const REMOTE: &str = "request";

/// The remote task a retry continues: its id, its context, and the peer's own request.
#[derive(Debug, Clone, PartialEq)]
pub struct Continuation {
    /// The remote task's id.
    pub task_id: String,
    /// The remote task's context, when it had one.
    pub context_id: Option<String>,
    /// The id the answer echoes: the peer's own request's, else the local request's.
    pub answer_id: String,
}

/// The peer's own `Request`, when its status message carries one (a data part
/// `{pending: Request}`, in either dialect's part shape).
///
/// ```
/// # use toolnexus::core::a2a::input::remote_request;
/// let task = toolnexus::json!({"status": {"state": "input-required", "message": {"role": "agent", "parts": [
///     {"kind": "text", "text": "Pick a color?"},
///     {"kind": "data", "data": {"pending": {"id": "r1", "kind": "question", "prompt": "Pick a color?"}}}]}}});
/// assert_eq!(remote_request(&task).unwrap().id, "r1");
/// assert!(remote_request(&toolnexus::json!({"status": {"state": "input-required"}})).is_none());
/// ```
pub fn remote_request(task: &Value) -> Option<Request> {
    let parts = task
        .get("status")?
        .get("message")?
        .get("parts")?
        .as_array()?;
    parts.iter().find_map(|part| {
        let kind = part.get("kind").and_then(Value::as_str);
        if !matches!(kind, None | Some("data")) {
            return None;
        }
        let pending = part.get("data")?.get("pending")?;
        Request::from_json(pending.clone()).ok()
    })
}

/// The local `Request` for a remote task in `input-required`: a fresh `id`, the peer's kind
/// (else `input`), the status message's text as the prompt (else the peer's prompt, else a
/// sentence naming the task), and `data` `{agent, taskId, contextId?, request?, schema?}`.
///
/// ```
/// # use toolnexus::core::a2a::input::input_request;
/// let task = toolnexus::json!({"id": "t1", "contextId": "c1", "status": {"state": "input-required",
///     "message": {"role": "agent", "parts": [{"text": "Which file?"}]}}});
/// let r = input_request("reviewer", &task, "local-1");
/// assert_eq!((r.kind.as_str(), r.prompt.as_str()), ("input", "Which file?"));
/// assert_eq!(toolnexus::core::json::text::to_text(&toolnexus::core::json::value::Value::Object(r.data.unwrap())),
///     r#"{"agent":"reviewer","taskId":"t1","contextId":"c1"}"#);
/// ```
pub fn input_request(agent: &str, task: &Value, id: &str) -> Request {
    let task_id = task.get("id").and_then(Value::as_str).unwrap_or("");
    let remote = remote_request(task);
    let mut prompt = status_text(task);
    if prompt.is_empty() {
        prompt = match &remote {
            Some(r) => r.prompt.clone(),
            None => format!("A2A agent {agent} needs input for task {task_id}"),
        };
    }
    let mut data = Map::new();
    data.insert(AGENT.into(), Value::from(agent));
    data.insert(TASK_ID.into(), Value::from(task_id));
    if let Some(context) = task.get("contextId").and_then(Value::as_str) {
        if !context.is_empty() {
            data.insert(CONTEXT_ID.into(), Value::from(context));
        }
    }
    let (kind, url, expires_at) = match &remote {
        Some(r) => {
            if let Some(schema) = r.data.as_ref().and_then(|d| d.get("schema")) {
                data.insert("schema".into(), schema.clone());
            }
            data.insert(REMOTE.into(), r.to_json_value());
            (r.kind.clone(), r.url.clone(), r.expires_at.clone())
        }
        None => ("input".to_owned(), None, None),
    };
    Request {
        id: id.to_owned(),
        kind,
        prompt,
        url,
        data: Some(data),
        expires_at,
    }
}

/// The remote task a retry continues, when `request` is one of `agent`'s (its `data` names
/// the agent and a task); `None` for any other request, which starts a new task.
///
/// ```
/// # use toolnexus::core::a2a::input::{continuation, input_request};
/// let task = toolnexus::json!({"id": "t1", "status": {"state": "input-required"}});
/// let request = input_request("reviewer", &task, "local-1");
/// assert_eq!(continuation("reviewer", &request).unwrap().task_id, "t1");
/// assert!(continuation("planner", &request).is_none());
/// ```
pub fn continuation(agent: &str, request: &Request) -> Option<Continuation> {
    let data = request.data.as_ref()?;
    if data.get(AGENT).and_then(Value::as_str) != Some(agent) {
        return None;
    }
    let task_id = data.get(TASK_ID).and_then(Value::as_str)?;
    if task_id.is_empty() {
        return None;
    }
    let answer_id = data
        .get(REMOTE)
        .and_then(|r| r.get("id"))
        .and_then(Value::as_str)
        .unwrap_or(&request.id);
    Some(Continuation {
        task_id: task_id.to_owned(),
        context_id: data
            .get(CONTEXT_ID)
            .and_then(Value::as_str)
            .map(str::to_owned),
        answer_id: answer_id.to_owned(),
    })
}

/// The words of an answer for a peer that reads text: `data.text` when it is a string, else
/// `data` as JSON, else `approved` (only an approving answer is sent).
///
/// ```
/// # use toolnexus::core::{a2a::input::answer_text, json::record::Record, types::Answer};
/// let a = |v| Answer::from_json(v).unwrap();
/// assert_eq!(answer_text(&a(toolnexus::json!({"id": "1", "ok": true, "data": {"text": "main.rs"}}))), "main.rs");
/// assert_eq!(answer_text(&a(toolnexus::json!({"id": "1", "ok": true, "data": {"n": 2}}))), r#"{"n":2}"#);
/// assert_eq!(answer_text(&a(toolnexus::json!({"id": "1", "ok": true}))), "approved");
/// ```
pub fn answer_text(answer: &Answer) -> String {
    match &answer.data {
        Some(data) => match data.get("text") {
            Some(Value::String(text)) => text.clone(),
            _ => crate::core::json::text::to_text(&Value::Object(data.clone())),
        },
        None => "approved".to_owned(),
    }
}

/// The `params` of the `SendMessage` that answers the remote task: the message names the task
/// (and its context), and carries the answer as text and as a data part `{answer: Answer}`
/// whose `id` is the one the peer asked with.
///
/// ```
/// # use toolnexus::core::{a2a::{card::Dialect, input::{followup_params, Continuation}}, json::record::Record, types::Answer};
/// let to = Continuation { task_id: "t1".into(), context_id: None, answer_id: "r1".into() };
/// let answer = Answer::from_json(toolnexus::json!({"id": "local-1", "ok": true, "data": {"text": "main.rs"}})).unwrap();
/// assert_eq!(followup_params(Dialect::Reference, &to, &answer, "m1"),
///     r#"{"message":{"role":"user","messageId":"m1","taskId":"t1","parts":[{"kind":"text","text":"main.rs"},{"kind":"data","data":{"answer":{"id":"r1","ok":true,"data":{"text":"main.rs"}}}}]},"configuration":{"blocking":false}}"#);
/// ```
pub fn followup_params(
    dialect: Dialect,
    to: &Continuation,
    answer: &Answer,
    message_id: &str,
) -> String {
    let (role, text_kind, data_kind, configuration) = match dialect {
        Dialect::Reference => (
            "user",
            r#""kind":"text","#,
            r#""kind":"data","#,
            r#"{"blocking":false}"#,
        ),
        Dialect::V1 => ("ROLE_USER", "", "", r#"{"returnImmediately":true}"#),
    };
    let sent = Answer {
        id: to.answer_id.clone(),
        ..answer.clone()
    };
    let context = match &to.context_id {
        Some(id) => format!(r#","contextId":{}"#, quoted(id)),
        None => String::new(),
    };
    format!(
        r#"{{"message":{{"role":"{role}","messageId":{},"taskId":{}{context},"parts":[{{{text_kind}"text":{}}},{{{data_kind}"data":{{"answer":{}}}}}]}},"configuration":{configuration}}}"#,
        quoted(message_id),
        quoted(&to.task_id),
        quoted(&answer_text(answer)),
        sent.to_json_text()
    )
}
