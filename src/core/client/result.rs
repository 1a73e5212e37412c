//! What a run returns: plain data, `JSON.stringify`-round-trippable.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::core::types::Request;
use crate::core::wire::Usage;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    /// The final text (the pending prompt when halted).
    pub text: String,
    /// The whole transcript, in the dialect's shape.
    pub messages: Vec<Value>,
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

/// A [`RunResult`] as three JSON texts: `head` (every field but `messages` and `toolCalls`, in
/// the result's own key order), `messages` and `tool_calls`. The JS glue parses `head` at once
/// and the two lists only when they are read: most callers read `text` and `status`, and the
/// transcript is the largest part of a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultJson {
    /// `{text, toolCallCount, turns, usage, model, status, pending?, limit?, saveError?}`.
    pub head: String,
    /// The `messages` array.
    pub messages: String,
    /// The `toolCalls` array.
    pub tool_calls: String,
}

/// The fields of [`RunResult`] other than its two lists, borrowed.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Head<'a> {
    text: &'a str,
    tool_call_count: usize,
    turns: u32,
    usage: &'a Usage,
    model: &'a str,
    status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pending: Option<&'a Request>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    save_error: Option<&'a str>,
}

impl RunResult {
    /// The result split into [`ResultJson`]; merged again, the three are exactly the result's
    /// own JSON (the tests of `tests/result_json.rs` hold this for every optional field).
    ///
    /// ```
    /// # use toolnexus::core::client::result::{RunResult, Status};
    /// # use toolnexus::core::wire::Usage;
    /// let result = RunResult { text: "hi".into(), messages: vec![], tool_calls: vec![],
    ///     tool_call_count: 0, turns: 1, usage: Usage::default(), model: "m".into(),
    ///     status: Status::Done, pending: None, limit: None, save_error: None };
    /// let json = result.to_json_parts();
    /// assert_eq!(json.messages, "[]");
    /// assert!(json.head.starts_with(r#"{"text":"hi","toolCallCount":0"#));
    /// ```
    pub fn to_json_parts(&self) -> ResultJson {
        let head = Head {
            text: &self.text,
            tool_call_count: self.tool_call_count,
            turns: self.turns,
            usage: &self.usage,
            model: &self.model,
            status: self.status,
            pending: self.pending.as_ref(),
            limit: self.limit.as_deref(),
            save_error: self.save_error.as_deref(),
        };
        ResultJson {
            head: to_text(&head, "{}"),
            messages: to_text(&self.messages, "[]"),
            tool_calls: to_text(&self.tool_calls, "[]"),
        }
    }
}

/// JSON text of plain data (whose serialization cannot fail); `fallback` if it ever did.
fn to_text<T: Serialize + ?Sized>(value: &T, fallback: &str) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| fallback.to_owned())
}
