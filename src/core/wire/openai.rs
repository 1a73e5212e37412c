//! The OpenAI Chat Completions dialect: `POST {baseUrl}/chat/completions`.
//!
//! The system prompt travels as the first message; tool calls come back in
//! `choices[0].message.tool_calls` with JSON-string arguments.

use crate::core::json::build::AsJson;
use crate::core::json::value::{Map, Value};

use super::{openai_read, Dialect, Reply, ToolCall, Usage, WireError};
use crate::core::adapters::openai_text;
use crate::core::message::Message;
use crate::core::spec::ToolSpec;
use crate::core::types::ToolResult;

/// The OpenAI-compatible wire format (OpenAI, OpenRouter, most local servers).
///
/// ```
/// # use toolnexus::core::wire::{openai::OpenAi, Dialect};
/// assert_eq!(OpenAi.endpoint("http://x/v1/"), "http://x/v1/chat/completions");
/// let reply = OpenAi.parse(r#"{"choices":[{"message":{"role":"assistant","content":"hi"}}]}"#).unwrap();
/// assert_eq!(reply.text, "hi");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenAi;

impl Dialect for OpenAi {
    /// `base_url` without trailing slashes, plus `/chat/completions`.
    fn endpoint(&self, base_url: &str) -> String {
        format!("{}/chat/completions", base_url.trim_end_matches('/'))
    }

    /// `Authorization: Bearer <key>` (only with a non-empty key), then the content type.
    fn auth_headers(&self, api_key: Option<&str>) -> Vec<(String, String)> {
        let mut headers = Vec::with_capacity(2);
        if let Some(key) = api_key.filter(|k| !k.is_empty()) {
            headers.push(("Authorization".to_string(), format!("Bearer {key}")));
        }
        headers.push(("Content-Type".to_string(), "application/json".to_string()));
        headers
    }

    fn name(&self) -> &'static str {
        "openai"
    }

    /// `[{type: "function", function: {name, description, parameters}}]`.
    fn tools(&self, specs: &[&ToolSpec]) -> String {
        openai_text(specs.iter().copied())
    }

    /// History plus the prompt; without history, the system message (when non-empty) first.
    fn start(&self, system: &str, history: Vec<Message>, user: Message) -> Vec<Message> {
        let mut messages = history;
        if messages.is_empty() && !system.is_empty() {
            messages.push(Message::role_content("system", system));
        }
        messages.push(user);
        messages
    }

    /// `{model, messages, tools?, tool_choice?, stream?, stream_options?}`; `system` is unused
    /// because it already sits in `messages`.
    fn body(
        &self,
        model: &str,
        _system: &str,
        has_tools: bool,
        stream: bool,
    ) -> Map<String, Value> {
        let mut body = Map::new();
        body.insert("model".into(), crate::json_value!(model));
        body.insert("messages".into(), Value::Null);
        if has_tools {
            body.insert("tools".into(), Value::Null);
            body.insert("tool_choice".into(), crate::json_value!("auto"));
        }
        if stream {
            body.insert("stream".into(), crate::json_value!(true));
            body.insert(
                "stream_options".into(),
                crate::json_value!({"include_usage": true}),
            );
        }
        body
    }

    /// Reads `choices[0].message`, its tool calls and `usage` (without a `Value` when
    /// [`openai_read`] takes the text).
    fn parse(&self, text: &str) -> Result<Reply, WireError> {
        match openai_read::read(text) {
            Some(reply) => Ok(reply),
            None => self.parse_slowly(text),
        }
    }

    fn assembler(&self) -> Box<dyn super::stream::Assembler> {
        Box::new(super::stream::OpenAiAssembler::default())
    }

    /// One `{role: "tool", tool_call_id, content}` message per result.
    fn calls_of(&self, message: &Value) -> Option<Vec<ToolCall>> {
        if message.get("role").and_then(Value::as_str) != Some("assistant") {
            return None;
        }
        let calls = message.get("tool_calls").and_then(Value::as_array)?;
        (!calls.is_empty()).then(|| calls.iter().enumerate().map(tool_call).collect())
    }

    fn results_in(&self, after: &[Message]) -> Vec<(String, ToolResult)> {
        after
            .iter()
            .take_while(|m| m.role() == Some("tool"))
            .map(|m| {
                let m = m.value();
                let id = m
                    .get("tool_call_id")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let output = content_text(m.get("content"));
                (id.to_owned(), ToolResult::ok(output))
            })
            .collect()
    }

    fn append_tool_results(&self, results: &[(String, ToolResult)], transcript: &mut Vec<Message>) {
        let entries = results.iter();
        transcript.extend(entries.map(|(id, result)| match &result.parts {
            // A result's parts ride beside its text, mapped when a request is written
            // (wire::parts); without them the message is the text alone, as always.
            Some(parts) if !parts.is_empty() => {
                let mut message = Map::new();
                message.insert("role".into(), Value::String("tool".into()));
                message.insert("tool_call_id".into(), Value::String(id.clone()));
                message.insert("content".into(), Value::String(result.output.clone()));
                let parts = parts.iter().map(AsJson::as_json).collect();
                message.insert("parts".into(), Value::Array(parts));
                Message::from_value(Value::Object(message))
            }
            _ => Message::tool_result(id, &result.output),
        }));
    }
}

impl OpenAi {
    /// [`Dialect::parse`] without its fast path ([`openai_read`]): the reader of every
    /// shape, through a `Value`, and the one that words every error. `parse` gives
    /// the same result for every text (`tests/wire_fast.rs`).
    ///
    /// ```
    /// # use toolnexus::core::wire::{openai::OpenAi, Dialect};
    /// let text = r#"{"choices":[{"message":{"role":"assistant","content":"hi"}}]}"#;
    /// assert_eq!(OpenAi.parse_slowly(text), OpenAi.parse(text));
    /// ```
    pub fn parse_slowly(&self, text: &str) -> Result<Reply, WireError> {
        let mut body: Value = crate::core::json::parse::from_str(text)
            .map_err(|e| WireError::NotJson(e.to_string()))?;
        if let Some(message) = provider_error(&body) {
            return Err(WireError::Provider(message));
        }
        let usage = usage(body.get("usage"));
        let message = body
            .get_mut("choices")
            .and_then(Value::as_array_mut)
            .and_then(|choices| choices.first_mut())
            .and_then(|choice| choice.get_mut("message"))
            .filter(|m| m.is_object())
            .map(Value::take)
            .ok_or(WireError::Missing("choices[0].message"))?;
        let tool_calls = message
            .get("tool_calls")
            .and_then(Value::as_array)
            .map(|calls| calls.iter().enumerate().map(tool_call).collect())
            .unwrap_or_default();
        Ok(Reply {
            text: content_text(message.get("content")),
            tool_calls,
            usage,
            assistant: Message::from_value(message),
        })
    }
}

/// The message of a top-level, non-null `error`: its `message`, the string itself, or the JSON.
pub(super) fn provider_error(body: &Value) -> Option<String> {
    match body.get("error")? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        err => Some(match err.get("message").and_then(Value::as_str) {
            Some(m) => m.to_string(),
            None => crate::core::json::text::to_text(err),
        }),
    }
}

/// A token count: non-negative integers as they are, other numbers floored (negative → 0);
/// `None` when absent or not a number.
pub(super) fn count(v: Option<&Value>) -> Option<u64> {
    let n = v?.as_number()?;
    if let Some(u) = n.as_u64() {
        return Some(u);
    }
    if n.is_i64() {
        return Some(0);
    }
    // `as` saturates; NaN cannot occur in a parsed JSON number.
    n.as_f64()
        .map(|f| if f > 0.0 { f.floor() as u64 } else { 0 })
}

/// A string id, or `call_<index>` when it is missing or empty.
pub(super) fn call_id(v: Option<&Value>, index: usize) -> String {
    match v {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => format!("call_{index}"),
    }
}

/// The id of a call given as a string (or not at all): itself, or `call_<index>` when it is
/// missing or empty, as [`call_id`] reads it.
pub(super) fn tool_call_id(id: Option<String>, index: usize) -> String {
    match id {
        Some(s) if !s.is_empty() => s,
        _ => format!("call_{index}"),
    }
}

fn usage(raw: Option<&Value>) -> Usage {
    let prompt = count(raw.and_then(|u| u.get("prompt_tokens"))).unwrap_or(0);
    let completion = count(raw.and_then(|u| u.get("completion_tokens"))).unwrap_or(0);
    let total = count(raw.and_then(|u| u.get("total_tokens")))
        .unwrap_or_else(|| prompt.saturating_add(completion));
    Usage {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: total,
    }
}

/// A string content, the joined `text` parts of a parts array, or "".
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    }
}

pub(super) fn tool_call((index, raw): (usize, &Value)) -> ToolCall {
    let function = raw.get("function");
    ToolCall {
        id: call_id(raw.get("id"), index),
        name: function
            .and_then(|f| f.get("name"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        args: arguments(function.and_then(|f| f.get("arguments"))),
    }
}

/// Arguments given as a JSON string, parsed ("" → `{}`).
pub(super) fn arguments_text(s: &str) -> Result<Value, String> {
    if s.trim().is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    crate::core::json::parse::from_str(s).map_err(|e| format!("not valid JSON: {e}"))
}

/// JSON-string arguments parsed ("" → `{}`); an already-parsed value is kept as it is.
pub(super) fn arguments(raw: Option<&Value>) -> Result<Value, String> {
    match raw {
        None | Some(Value::Null) => Ok(Value::Object(Map::new())),
        Some(Value::String(s)) => arguments_text(s),
        Some(other) => Ok(other.clone()),
    }
}
