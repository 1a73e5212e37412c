//! SSE bodies for host tests (both dialects, built like real providers send them: text deltas,
//! tool calls split across chunks, usage, terminal events) and a recorder of a streamed run's
//! events.
#![allow(clippy::indexing_slicing)]

use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::{core::json::value::Value, json};

use super::http::Call;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::telemetry::{RunEvents, StreamEvent};

/// `data: <json>\n\n` per chunk, then `data: [DONE]\n\n`.
pub fn openai_sse(chunks: &[Value], done: bool) -> String {
    let mut out: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    if done {
        out.push_str("data: [DONE]\n\n");
    }
    out
}

/// An OpenAI stream: the text in `parts`, or tool calls (each name and arguments split in
/// two), a finish reason, a usage chunk with empty choices, `[DONE]`.
pub fn openai_stream(parts: &[&str], calls: &[Call<'_>], usage: (u64, u64)) -> String {
    let mut chunks = vec![json!({"choices": [{"index": 0, "delta": {"role": "assistant"}}]})];
    for part in parts {
        chunks.push(json!({"choices": [{"index": 0, "delta": {"content": part}}]}));
    }
    for (i, (id, name, args)) in calls.iter().enumerate() {
        let (n1, n2) = name.split_at(name.len() / 2);
        let args = args.to_string();
        let (a1, a2) = args.split_at(args.len() / 2);
        chunks.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": i, "id": id, "type": "function", "function": {"name": n1, "arguments": ""}}]}}]}));
        chunks.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": i, "function": {"name": n2, "arguments": a1}}]}}]}));
        chunks.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": i, "function": {"arguments": a2}}]}}]}));
    }
    let reason = if calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    chunks.push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}));
    let (p, c) = usage;
    chunks.push(json!({"choices": [], "usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}}));
    openai_sse(&chunks, true)
}

/// `event: <type>\ndata: <json>\n\n` per event.
pub fn anthropic_sse(events: &[Value]) -> String {
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap_or("")))
        .collect()
}

/// An Anthropic stream: message_start, a text block with `parts`, a tool_use block per call
/// (its input JSON split in three), a ping, message_delta with the output tokens, message_stop.
pub fn anthropic_stream(parts: &[&str], calls: &[Call<'_>], usage: (u64, u64)) -> String {
    let (input, output) = usage;
    let mut events = vec![
        json!({"type": "message_start", "message": {"id": "msg_s", "type": "message", "role": "assistant",
            "content": [], "usage": {"input_tokens": input, "output_tokens": 1}}}),
        json!({"type": "ping"}),
    ];
    let mut index = 0;
    if !parts.is_empty() {
        events.push(json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}));
        for part in parts {
            events.push(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": part}}));
        }
        events.push(json!({"type": "content_block_stop", "index": 0}));
        index = 1;
    }
    for (id, name, args) in calls {
        events.push(json!({"type": "content_block_start", "index": index,
            "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}));
        let text = args.to_string();
        let third = text.len() / 3;
        for piece in [&text[..third], &text[third..2 * third], &text[2 * third..]] {
            events.push(json!({"type": "content_block_delta", "index": index,
                "delta": {"type": "input_json_delta", "partial_json": piece}}));
        }
        events.push(json!({"type": "content_block_stop", "index": index}));
        index += 1;
    }
    let stop = if calls.is_empty() {
        "end_turn"
    } else {
        "tool_use"
    };
    events.push(json!({"type": "message_delta", "delta": {"stop_reason": stop}, "usage": {"output_tokens": output}}));
    events.push(json!({"type": "message_stop"}));
    anthropic_sse(&events)
}

/// A streamed turn in `style`: text parts, or tool calls.
pub fn stream_of(style: Style, parts: &[&str], calls: &[Call<'_>], usage: (u64, u64)) -> String {
    match style {
        Style::OpenAi => openai_stream(parts, calls, usage),
        Style::Anthropic => anthropic_stream(parts, calls, usage),
    }
}

// ---------------------------------------------------------------------------------------------
// Events

/// Records a streamed run's events (shared, so a fake `waitFor` can look at them).
#[derive(Default)]
pub struct Recorder {
    pub events: RefCell<Vec<StreamEvent>>,
}

impl Recorder {
    pub fn all(&self) -> Vec<StreamEvent> {
        self.events.borrow().clone()
    }

    /// Each event's kind: `text:<delta>`, `tool_call:<name>`, `tool_result:<name>`, `usage`,
    /// `pending:<kind>`, `done`.
    pub fn kinds(&self) -> Vec<String> {
        self.events
            .borrow()
            .iter()
            .map(|e| match e {
                StreamEvent::Text { delta } => format!("text:{delta}"),
                StreamEvent::ToolCall { name, .. } => format!("tool_call:{name}"),
                StreamEvent::ToolResult { name, .. } => format!("tool_result:{name}"),
                StreamEvent::Usage { .. } => "usage".into(),
                StreamEvent::Pending { request } => format!("pending:{}", request.kind),
                StreamEvent::Done { .. } => "done".into(),
            })
            .collect()
    }

    /// The text deltas joined.
    pub fn text(&self) -> String {
        self.events
            .borrow()
            .iter()
            .filter_map(|e| match e {
                StreamEvent::Text { delta } => Some(delta.as_str()),
                _ => None,
            })
            .collect()
    }

    pub fn saw_pending(&self) -> bool {
        self.events
            .borrow()
            .iter()
            .any(|e| matches!(e, StreamEvent::Pending { .. }))
    }
}

/// `RunEvents` over a shared [`Recorder`].
pub struct RecordEvents(pub Rc<Recorder>);

impl RunEvents for RecordEvents {
    fn emit(&self, event: StreamEvent) {
        self.0.events.borrow_mut().push(event);
    }
}
