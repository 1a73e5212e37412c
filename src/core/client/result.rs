//! What a run returns: plain data, `JSON.stringify`-round-trippable.

use crate::core::value::{Map, Value};
use serde::Deserialize;
#[cfg(not(target_arch = "wasm32"))]
use serde::Serialize;

use crate::core::json_text;
use crate::core::message::Message;
use crate::core::types::Request;
use crate::core::wire::Usage;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Serialize))]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The model gave a final answer.
    Done,
    /// A tool suspended and no `waitFor` was set: `pending` holds the request.
    Pending,
    /// A limit stopped the run: `limit` names it.
    Incomplete,
}

/// One tool call of the run, with its outcome.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Serialize))]
#[serde(rename_all = "camelCase")]
pub struct ToolCallRecord {
    /// The tool's name.
    pub name: String,
    /// The arguments it ran with (after any `beforeTool` rewrite).
    pub args: Value,
    /// Its output.
    pub output: String,
    /// Whether it failed.
    pub is_error: bool,
    /// Its metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
}

/// The result of `run` / `ask` (SPEC §8, §10).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Serialize))]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    /// The final text (the pending prompt when halted).
    pub text: String,
    /// The whole transcript, in the dialect's shape.
    pub messages: Vec<Message>,
    /// Every tool call, in order.
    pub tool_calls: Vec<ToolCallRecord>,
    /// `tool_calls.len()`.
    pub tool_call_count: usize,
    /// Model calls made.
    pub turns: u32,
    /// Usage summed over the model calls.
    pub usage: Usage,
    /// The configured model.
    pub model: String,
    /// How the run ended.
    pub status: Status,
    /// The suspension, iff `status` is `pending`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Request>,
    /// The limit that stopped the run, iff `status` is `incomplete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
    /// Set when `ask` ran but saving the transcript to the store failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save_error: Option<String>,
}

/// A [`RunResult`] as its two lists' JSON texts and the JSON text of its optional fields, for
/// the JS glue: it hands the other fields over as they are, parses `extra` (when there is one)
/// at once, and parses the lists only when they are read (most callers read `text` and
/// `status`, and the transcript is the largest part of a result).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultJson {
    /// The `messages` array.
    pub messages: String,
    /// The `toolCalls` array.
    pub tool_calls: String,
    /// `{pending?, limit?, saveError?}`, in that order, when any of them is set.
    pub extra: Option<String>,
}

impl RunResult {
    /// The result's [`ResultJson`]. Put back in the result's key order (`text`, `messages`,
    /// `toolCalls`, `toolCallCount`, `turns`, `usage`, `model`, `status`, then `extra`'s), the
    /// parts are exactly the result's own JSON (`tests/result_json.rs`).
    ///
    /// ```
    /// # use toolnexus::core::client::result::{RunResult, Status};
    /// # use toolnexus::core::wire::Usage;
    /// let mut result = RunResult { text: "hi".into(), messages: vec![], tool_calls: vec![],
    ///     tool_call_count: 0, turns: 1, usage: Usage::default(), model: "m".into(),
    ///     status: Status::Done, pending: None, limit: None, save_error: None };
    /// assert_eq!(result.to_json_parts().extra, None);
    /// result.limit = Some("maxTurns".into());
    /// assert_eq!(result.to_json_parts().extra.as_deref(), Some(r#"{"limit":"maxTurns"}"#));
    /// ```
    pub fn to_json_parts(&self) -> ResultJson {
        let has_extra = self.pending.is_some() || self.limit.is_some() || self.save_error.is_some();
        let extra = has_extra.then(|| {
            let mut out = Vec::with_capacity(64);
            let mut object = json_text::Object::new(&mut out);
            crate::core::json_write::write_extra(&mut object, self);
            object.end();
            json_text::buffer_text(out)
        });
        ResultJson {
            messages: crate::core::message::items_text(&self.messages),
            tool_calls: tool_calls_text(&self.tool_calls),
            extra,
        }
    }
}

impl Status {
    /// The status as the result's JSON writes it.
    ///
    /// ```
    /// # use toolnexus::core::client::result::Status;
    /// assert_eq!(Status::Incomplete.as_str(), "incomplete");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Done => "done",
            Status::Pending => "pending",
            Status::Incomplete => "incomplete",
        }
    }
}

/// The JSON text of `records`, exactly serde_json's (the same keys, order and escaping),
/// written without going through `Serialize`.
fn tool_calls_text(records: &[ToolCallRecord]) -> String {
    let mut out = Vec::with_capacity(64 * records.len() + 2);
    out.push(b'[');
    for (i, record) in records.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(br#"{"name":"#);
        json_text::write_str(&mut out, &record.name);
        out.extend_from_slice(br#","args":"#);
        json_text::write_value(&mut out, &record.args);
        out.extend_from_slice(br#","output":"#);
        json_text::write_str(&mut out, &record.output);
        out.extend_from_slice(if record.is_error {
            br#","isError":true"#
        } else {
            br#","isError":false"#
        });
        if let Some(metadata) = &record.metadata {
            out.extend_from_slice(br#","metadata":"#);
            json_text::write_map(&mut out, metadata);
        }
        out.push(b'}');
    }
    out.push(b']');
    // Only whole strings and values went in: always UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| "[]".to_owned())
}
