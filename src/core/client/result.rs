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
