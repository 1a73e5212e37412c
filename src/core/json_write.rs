//! The JSON text of the contract's records, written field by field with
//! [`json_text::Object`]: exactly what serde_json writes for their `Serialize` derives (the same
//! keys, order, skipped `None`s and number forms; `tests/json_write.rs` checks each against
//! serde_json), without serde's serializer in the wasm module.

use crate::core::client::result::RunResult;
use crate::core::client::telemetry::StreamEvent;
use crate::core::json_text::{buffer_text, Object};
use crate::core::metrics::MetricEvent;
use crate::core::types::{Answer, Request, ToolResult};
use crate::core::wire::Usage;

/// Records that write their own JSON text.
///
/// ```
/// # use toolnexus::core::json_write::ToJsonText;
/// # use toolnexus::core::types::ToolResult;
/// assert_eq!(ToolResult::ok("42").to_json_text(), r#"{"output":"42","isError":false}"#);
/// ```
pub trait ToJsonText {
    /// Appends this record's JSON text to `out`.
    fn write_json(&self, out: &mut Vec<u8>);

    /// This record's JSON text.
    fn to_json_text(&self) -> String {
        let mut out = Vec::with_capacity(128);
        self.write_json(&mut out);
        buffer_text(out)
    }
}

impl ToJsonText for ToolResult {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut object = Object::new(out);
        object.str("output", &self.output);
        object.bool("isError", self.is_error);
        if let Some(metadata) = &self.metadata {
            object.map("metadata", metadata);
        }
        object.end();
    }
}

impl ToJsonText for Request {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut object = Object::new(out);
        object.str("id", &self.id);
        object.str("kind", &self.kind);
        object.str("prompt", &self.prompt);
        if let Some(url) = &self.url {
            object.str("url", url);
        }
        if let Some(data) = &self.data {
            object.map("data", data);
        }
        if let Some(expires_at) = &self.expires_at {
            object.str("expiresAt", expires_at);
        }
        object.end();
    }
}

impl ToJsonText for Answer {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut object = Object::new(out);
        object.str("id", &self.id);
        object.bool("ok", self.ok);
        if let Some(data) = &self.data {
            object.map("data", data);
        }
        if let Some(reason) = &self.reason {
            object.str("reason", reason);
        }
        object.end();
    }
}

impl ToJsonText for Usage {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut object = Object::new(out);
        object.u64("promptTokens", self.prompt_tokens);
        object.u64("completionTokens", self.completion_tokens);
        object.u64("totalTokens", self.total_tokens);
        object.end();
    }
}

impl ToJsonText for RunResult {
    fn write_json(&self, out: &mut Vec<u8>) {
        let parts = self.to_json_parts();
        let mut object = Object::new(out);
        object.str("text", &self.text);
        object.raw("messages", &parts.messages);
        object.raw("toolCalls", &parts.tool_calls);
        object.u64("toolCallCount", self.tool_call_count as u64);
        object.u64("turns", u64::from(self.turns));
        self.usage.write_json(object.key("usage"));
        object.str("model", &self.model);
        object.str("status", self.status.as_str());
        write_extra(&mut object, self);
        object.end();
    }
}

/// The optional fields of a [`RunResult`] (`pending`, `limit`, `saveError`), those set.
pub(crate) fn write_extra(object: &mut Object, result: &RunResult) {
    if let Some(pending) = &result.pending {
        pending.write_json(object.key("pending"));
    }
    if let Some(limit) = &result.limit {
        object.str("limit", limit);
    }
    if let Some(save_error) = &result.save_error {
        object.str("saveError", save_error);
    }
}

impl ToJsonText for MetricEvent {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut object = Object::new(out);
        match self {
            MetricEvent::Llm {
                model,
                status,
                ms,
                prompt_tokens,
                completion_tokens,
            } => {
                object.str("event", "llm");
                object.str("model", model);
                object.str("status", status);
                object.f64("ms", *ms);
                object.u64("promptTokens", *prompt_tokens);
                object.u64("completionTokens", *completion_tokens);
            }
            MetricEvent::Tool {
                tool,
                source,
                is_error,
                pending,
                ms,
            } => {
                object.str("event", "tool");
                object.str("tool", tool);
                object.str("source", source);
                object.bool("isError", *is_error);
                object.bool("pending", *pending);
                object.f64("ms", *ms);
            }
            MetricEvent::Run {
                model,
                turns,
                tool_calls,
                total_tokens,
                ms,
                error,
            } => {
                object.str("event", "run");
                object.str("model", model);
                object.u64("turns", u64::from(*turns));
                object.u64("toolCalls", *tool_calls as u64);
                object.u64("totalTokens", *total_tokens);
                object.f64("ms", *ms);
                if let Some(error) = error {
                    object.str("error", error);
                }
            }
        }
        object.end();
    }
}

impl ToJsonText for StreamEvent {
    fn write_json(&self, out: &mut Vec<u8>) {
        let mut object = Object::new(out);
        match self {
            StreamEvent::Text { delta } => {
                object.str("type", "text");
                object.str("delta", delta);
            }
            StreamEvent::ToolCall { id, name, args } => {
                object.str("type", "tool_call");
                object.str("id", id);
                object.str("name", name);
                object.value("args", args);
            }
            StreamEvent::ToolResult {
                id,
                name,
                output,
                is_error,
            } => {
                object.str("type", "tool_result");
                object.str("id", id);
                object.str("name", name);
                object.str("output", output);
                object.bool("isError", *is_error);
            }
            StreamEvent::Usage { usage } => {
                object.str("type", "usage");
                usage.write_json(object.key("usage"));
            }
            StreamEvent::Pending { request } => {
                object.str("type", "pending");
                request.write_json(object.key("request"));
            }
            StreamEvent::Done { result } => {
                object.str("type", "done");
                result.write_json(object.key("result"));
            }
        }
        object.end();
    }
}

impl crate::core::json_value::AsJson for Usage {
    fn as_json(&self) -> crate::core::value::Value {
        crate::json_value!({
            "promptTokens": self.prompt_tokens,
            "completionTokens": self.completion_tokens,
            "totalTokens": self.total_tokens,
        })
    }
}
