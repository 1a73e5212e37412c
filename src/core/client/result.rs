//! What a run returns: plain data, `JSON.stringify`-round-trippable.

use crate::core::json::value::{Map, Value};

use crate::core::json;
use crate::core::json::record::Field;
use crate::core::message::Message;
use crate::core::types::Request;
use crate::core::wire::Usage;

crate::word! {
    /// How a run ended.
    pub enum Status as "enum Status" {
        /// The model gave a final answer.
        Done = "done",
        /// A tool suspended and no `waitFor` was set: `pending` holds the request.
        Pending = "pending",
        /// A limit stopped the run: `limit` names it.
        Incomplete = "incomplete",
    }
}

crate::record! {
    /// One tool call of a run, with its outcome.
    pub struct ToolCallRecord as "struct ToolCallRecord" {
        /// The tool's name.
        pub name: String = "name",
        /// The arguments it ran with (after any `beforeTool` rewrite).
        pub args: Value = "args" as "Record<string, unknown>",
        /// Its output.
        pub output: String = "output",
        /// Whether it failed.
        pub is_error: bool = "isError",
        /// Its metadata.
        pub metadata: Option<Map<String, Value>> = "metadata",
    }
}

crate::record! {
    /// What `run` / `ask` resolve to (SPEC §8, §10): plain JSON.
    pub struct RunResult as "struct RunResult" {
        /// The final text (the pending prompt when halted).
        pub text: String = "text",
        /// The whole transcript, in the dialect's shape.
        pub messages: Vec<Message> = "messages",
        /// Every tool call, in order.
        pub tool_calls: Vec<ToolCallRecord> = "toolCalls",
        /// The number of tool calls.
        pub tool_call_count: usize = "toolCallCount",
        /// Model calls made.
        pub turns: u32 = "turns",
        /// Usage summed over the model calls.
        pub usage: Usage = "usage",
        /// The configured model.
        pub model: String = "model",
        /// How the run ended.
        pub status: Status = "status",
        /// Present iff `status` is `"pending"`.
        pub pending: Option<Request> = "pending",
        /// Present iff `status` is `"incomplete"`.
        pub limit: Option<String> = "limit" as r#""maxTurns" | (string & {})"#,
        /// Set when `ask` saved nothing because the store's `save` failed.
        pub save_error: Option<String> = "saveError",
    }
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
            let mut object = json::text::Object::new(&mut out);
            if let Some(pending) = &self.pending {
                pending.write_value(object.key("pending"));
            }
            if let Some(limit) = &self.limit {
                object.str("limit", limit);
            }
            if let Some(save_error) = &self.save_error {
                object.str("saveError", save_error);
            }
            object.end();
            json::text::buffer_text(out)
        });
        ResultJson {
            messages: crate::core::message::items_text(&self.messages),
            tool_calls: {
                let mut out = Vec::with_capacity(64 * self.tool_calls.len() + 2);
                self.tool_calls.write_value(&mut out);
                json::text::buffer_text(out)
            },
            extra,
        }
    }
}
