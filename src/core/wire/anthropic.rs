//! The Anthropic Messages dialect: `POST {baseUrl}/v1/messages`.
//!
//! The system prompt is a top-level `system` field; the reply is a `content` array of `text`
//! and `tool_use` blocks, and tool results go back as one user turn of `tool_result` blocks.

use crate::core::json::value::{Map, Value};

use super::openai::{call_id, count, provider_error};
use super::{Dialect, Reply, ToolCall, Usage, WireError};
use crate::core::adapters::anthropic_text;
use crate::core::json;
use crate::core::json::record::Record;
use crate::core::message::Message;
use crate::core::spec::ToolSpec;
use crate::core::types::ToolResult;

/// The protocol version sent in `anthropic-version`.
const VERSION: &str = "2023-06-01";

/// The `max_tokens` every request carries.
const MAX_TOKENS: u64 = 4096;

/// The Anthropic Messages wire format.
///
/// ```
/// # use toolnexus::core::wire::{anthropic::Anthropic, Dialect};
/// assert_eq!(Anthropic.endpoint("https://api.anthropic.com"), "https://api.anthropic.com/v1/messages");
/// let reply = Anthropic.parse(r#"{"content":[{"type":"text","text":"hi"}]}"#).unwrap();
/// assert_eq!(reply.text, "hi");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Anthropic;

impl Dialect for Anthropic {
    fn name(&self) -> &'static str {
        "anthropic"
    }

    /// `base_url` without trailing slashes, plus `/messages` after a `/v1`, else `/v1/messages`.
    fn endpoint(&self, base_url: &str) -> String {
        let base = base_url.trim_end_matches('/');
        if base.ends_with("/v1") {
            format!("{base}/messages")
        } else {
            format!("{base}/v1/messages")
        }
    }

    /// `x-api-key` (only with a non-empty key), `anthropic-version`, then the content type.
    fn auth_headers(&self, api_key: Option<&str>) -> Vec<(String, String)> {
        let mut headers = Vec::with_capacity(3);
        if let Some(key) = api_key.filter(|k| !k.is_empty()) {
            headers.push(("x-api-key".to_string(), key.to_string()));
        }
        headers.push(("anthropic-version".to_string(), VERSION.to_string()));
        headers.push(("Content-Type".to_string(), "application/json".to_string()));
        headers
    }

    /// `[{name, description, input_schema}]`.
    fn tools(&self, specs: &[&ToolSpec]) -> String {
        anthropic_text(specs.iter().copied())
    }

    /// History plus the prompt; the system prompt never enters the messages.
    fn start(&self, _system: &str, history: Vec<Message>, user: Message) -> Vec<Message> {
        let mut messages = history;
        messages.push(user);
        messages
    }

    /// `{model, max_tokens: 4096, system, messages, tools?, stream?}`; `system` is always
    /// present, even when empty.
    fn body(&self, model: &str, system: &str, has_tools: bool, stream: bool) -> Map<String, Value> {
        let mut body = Map::new();
        body.insert("model".into(), crate::json_value!(model));
        body.insert("max_tokens".into(), crate::json_value!(MAX_TOKENS));
        body.insert("system".into(), crate::json_value!(system));
        body.insert("messages".into(), Value::Null);
        if has_tools {
            body.insert("tools".into(), Value::Null);
        }
        if stream {
            body.insert("stream".into(), crate::json_value!(true));
        }
        body
    }

    /// Reads the `content` blocks and `usage` (through a `Value`: the Anthropic dialect has one
    /// reader, a fast one that skipped the `Value` won no benchmark scenario by 10 %).
    fn parse(&self, text: &str) -> Result<Reply, WireError> {
        read_reply(text)
    }

    fn assembler(&self) -> Box<dyn super::stream::Assembler> {
        Box::new(super::stream::AnthropicAssembler::default())
    }

    /// One user turn holding a `tool_result` block per result; nothing for no results.
    fn calls_of(&self, message: &Value) -> Option<Vec<ToolCall>> {
        if message.get("role").and_then(Value::as_str) != Some("assistant") {
            return None;
        }
        let blocks = message.get("content").and_then(Value::as_array)?;
        let calls: Vec<ToolCall> = blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
            .enumerate()
            .map(|(index, block)| tool_use(block, index))
            .collect();
        (!calls.is_empty()).then_some(calls)
    }

    fn results_in(&self, after: &[Message]) -> Vec<(String, ToolResult)> {
        let Some(turn) = after.first().filter(|m| m.role() == Some("user")) else {
            return Vec::new();
        };
        let turn = turn.value();
        let blocks = turn
            .get("content")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
            .map(|b| {
                let id = b
                    .get("tool_use_id")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let output = match b.get("content") {
                    Some(Value::String(text)) => text.clone(),
                    Some(other) => crate::core::json::text::to_text(other),
                    None => String::new(),
                };
                let is_error = b.get("is_error").and_then(Value::as_bool).unwrap_or(false);
                let result = ToolResult {
                    parts: None,
                    output,
                    is_error,
                    metadata: None,
                };
                (id.to_owned(), result)
            })
            .collect()
    }

    fn append_tool_results(&self, results: &[(String, ToolResult)], transcript: &mut Vec<Message>) {
        if !results.is_empty() {
            transcript.push(tool_results_message(results));
        }
    }
}

/// A Messages API response: its text blocks joined, its `tool_use` blocks as calls, its usage,
/// and the assistant message for the transcript.
fn read_reply(text: &str) -> Result<Reply, WireError> {
    let body: Value =
        crate::core::json::parse::from_str(text).map_err(|e| WireError::NotJson(e.to_string()))?;
    let is_error_type = body.get("type").and_then(Value::as_str) == Some("error");
    if let Some(message) = provider_error(&body) {
        return Err(WireError::Provider(message));
    }
    if is_error_type {
        return Err(WireError::Provider(crate::core::json::text::to_text(&body)));
    }
    let content = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or(WireError::Missing("content"))?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in content {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(block.get("text").and_then(Value::as_str).unwrap_or("")),
            Some("tool_use") => tool_calls.push(tool_use(block, tool_calls.len())),
            _ => {}
        }
    }
    let mut assistant = Map::new();
    assistant.insert("role".into(), crate::json_value!("assistant"));
    assistant.insert("content".into(), Value::Array(content.clone()));
    Ok(Reply {
        text,
        tool_calls,
        usage: usage(body.get("usage")),
        assistant: Message::from_value(Value::Object(assistant)),
    })
}

/// `{role: "user", content: [{type: "tool_result", tool_use_id, content, is_error}, …]}`,
/// written straight as text (what `json!` of the same message would write).
fn tool_results_message(results: &[(String, ToolResult)]) -> Message {
    let size: usize = results
        .iter()
        .map(|(id, r)| id.len() + r.output.len() + 80)
        .sum();
    let mut out = Vec::with_capacity(size + 32);
    out.extend_from_slice(br#"{"role":"user","content":["#);
    for (i, (id, result)) in results.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(br#"{"type":"tool_result","tool_use_id":"#);
        json::text::write_str(&mut out, id);
        out.extend_from_slice(br#","content":"#);
        json::text::write_str(&mut out, &result.output);
        out.extend_from_slice(if result.is_error {
            br#","is_error":true"#
        } else {
            br#","is_error":false"#
        });
        // A result's parts ride in its block, mapped when a request is written (wire::parts).
        if let Some(parts) = result.parts.as_ref().filter(|p| !p.is_empty()) {
            out.extend_from_slice(br#","parts":["#);
            for (j, part) in parts.iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                part.write_json(&mut out);
            }
            out.push(b']');
        }
        out.push(b'}');
    }
    out.extend_from_slice(b"]}");
    Message::from_canonical(String::from_utf8(out).unwrap_or_default())
}

/// A `tool_use` block as a call; `index` counts the reply's tool calls (for a missing id).
fn tool_use(block: &Value, index: usize) -> ToolCall {
    ToolCall {
        id: call_id(block.get("id"), index),
        name: block
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        args: match block.get("input") {
            None | Some(Value::Null) => Ok(Value::Object(Map::new())),
            Some(input) => Ok(input.clone()),
        },
    }
}

fn usage(raw: Option<&Value>) -> Usage {
    let input = count(raw.and_then(|u| u.get("input_tokens"))).unwrap_or(0);
    let output = count(raw.and_then(|u| u.get("output_tokens"))).unwrap_or(0);
    Usage {
        prompt_tokens: input,
        completion_tokens: output,
        total_tokens: input.saturating_add(output),
    }
}
