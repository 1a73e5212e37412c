//! Streamed replies: each dialect's stream events are folded into the response a non-streamed
//! call would have returned, which the dialect's own `parse` then reads, so a streamed turn and
//! a plain one produce the same [`Reply`]. A stream that ends before its terminal event, or that
//! carries an error event, is an error, never a partial reply.

use crate::core::json::value::{Map, Value};

use super::openai::provider_error;
use super::openai_chunk::{self, Chunk};
use super::sse::SseEvent;
use super::{Dialect, Reply, WireError};

/// Folds one streamed reply.
pub trait Assembler {
    /// Reads one event; returns the text delta it carried, if any.
    fn feed(&mut self, event: &SseEvent) -> Result<Option<String>, WireError>;
    /// The reply, once the stream has ended.
    fn finish(&mut self, dialect: &dyn Dialect) -> Result<Reply, WireError>;
}

fn parse_data(data: &str) -> Result<Value, WireError> {
    crate::core::json::parse::from_str(data)
        .map_err(|e| WireError::NotJson(format!("a stream event: {e}")))
}

/// OpenAI chunks: `choices[0].delta.content`, `delta.tool_calls[]` assembled by `index`,
/// `usage` (with `stream_options.include_usage`), ended by `[DONE]` or a `finish_reason`.
#[derive(Default)]
pub struct OpenAiAssembler {
    text: String,
    calls: ByIndex<(String, String, String)>,
    usage: Option<Value>,
    ended: bool,
}

impl OpenAiAssembler {
    /// [`Assembler::feed`] without the fast path: every chunk parsed into a `Value` (what the
    /// fast path leaves to it, and what `tests/stream_chunk_fast.rs` compares it with).
    pub fn feed_slowly(&mut self, event: &SseEvent) -> Result<Option<String>, WireError> {
        if event.data.trim() == "[DONE]" {
            self.ended = true;
            return Ok(None);
        }
        let chunk = parse_data(&event.data)?;
        if let Some(message) = provider_error(&chunk) {
            return Err(WireError::Provider(message));
        }
        if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
            self.usage = Some(usage.clone());
        }
        let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) else {
            return Ok(None);
        };
        if choice.get("finish_reason").is_some_and(|f| !f.is_null()) {
            self.ended = true;
        }
        let delta = choice.get("delta");
        for (position, call) in delta
            .and_then(|d| d.get("tool_calls"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let index = call
                .get("index")
                .and_then(Value::as_u64)
                .unwrap_or(position as u64);
            let Some(slot) = self.calls.entry_or(index, Default::default) else {
                continue;
            };
            if let Some(id) = call.get("id").and_then(Value::as_str) {
                slot.0 = id.to_owned();
            }
            let function = call.get("function");
            if let Some(name) = function.and_then(|f| f.get("name")).and_then(Value::as_str) {
                slot.1.push_str(name);
            }
            if let Some(args) = function
                .and_then(|f| f.get("arguments"))
                .and_then(Value::as_str)
            {
                slot.2.push_str(args);
            }
        }
        match delta.and_then(|d| d.get("content")).and_then(Value::as_str) {
            Some(text) if !text.is_empty() => {
                self.text.push_str(text);
                Ok(Some(text.to_owned()))
            }
            _ => Ok(None),
        }
    }

    /// Folds a chunk the fast path read, as `feed_slowly` folds the same chunk.
    fn apply(&mut self, chunk: Chunk) -> Option<String> {
        if chunk.finish {
            self.ended = true;
        }
        for (position, piece) in chunk.calls.into_iter().enumerate() {
            let index = piece.index.unwrap_or(position as u64);
            let Some(slot) = self.calls.entry_or(index, Default::default) else {
                continue;
            };
            if let Some(id) = piece.id {
                slot.0 = id;
            }
            if let Some(name) = piece.name {
                slot.1.push_str(&name);
            }
            if let Some(arguments) = piece.arguments {
                slot.2.push_str(&arguments);
            }
        }
        let text = chunk.content.filter(|text| !text.is_empty())?;
        self.text.push_str(&text);
        Some(text)
    }
}

impl Assembler for OpenAiAssembler {
    fn feed(&mut self, event: &SseEvent) -> Result<Option<String>, WireError> {
        match openai_chunk::read(&event.data) {
            Some(chunk) => Ok(self.apply(chunk)),
            None => self.feed_slowly(event),
        }
    }

    fn finish(&mut self, dialect: &dyn Dialect) -> Result<Reply, WireError> {
        if !self.ended {
            return Err(WireError::Truncated("its [DONE] line"));
        }
        let mut message = Map::new();
        message.insert("role".into(), crate::json_value!("assistant"));
        if self.calls.is_empty() {
            message.insert("content".into(), crate::json_value!(self.text));
        } else {
            let content = if self.text.is_empty() {
                Value::Null
            } else {
                crate::json_value!(self.text)
            };
            message.insert("content".into(), content);
            let calls: Vec<Value> = self
                .calls
                .values()
                .map(|(id, name, args)| crate::json_value!({"id": id, "type": "function", "function": {"name": name, "arguments": args}}))
                .collect();
            message.insert("tool_calls".into(), Value::Array(calls));
        }
        let usage = self.usage.take().unwrap_or_else(|| crate::json_value!({}));
        let response =
            crate::json_value!({"choices": [{"message": Value::Object(message)}], "usage": usage});
        dialect.parse(&crate::core::json::text::to_text(&response))
    }
}

/// Anthropic events: `message_start`, `content_block_start/delta/stop` (`text_delta`,
/// `input_json_delta`), `message_delta` (usage, stop reason), `message_stop`, `error`.
#[derive(Default)]
pub struct AnthropicAssembler {
    blocks: ByIndex<(Value, String)>,
    input_tokens: u64,
    output_tokens: u64,
    ended: bool,
}

impl Assembler for AnthropicAssembler {
    /// Every event parsed into a `Value`: the Anthropic dialect has one reader (a fast one
    /// that skipped the `Value` won no benchmark scenario by 10 %).
    fn feed(&mut self, event: &SseEvent) -> Result<Option<String>, WireError> {
        self.fold(event)
    }

    fn finish(&mut self, dialect: &dyn Dialect) -> Result<Reply, WireError> {
        if !self.ended {
            return Err(WireError::Truncated("its message_stop event"));
        }
        let content: Vec<Value> = std::mem::take(&mut self.blocks)
            .into_values()
            .map(|(mut block, partial_json)| {
                if block.get("type").and_then(Value::as_str) == Some("tool_use") {
                    let input = if partial_json.trim().is_empty() {
                        crate::json_value!({})
                    } else {
                        crate::core::json::parse::from_str(&partial_json)
                            .unwrap_or(Value::String(partial_json))
                    };
                    if let Some(map) = block.as_object_mut() {
                        map.insert("input".into(), input);
                    }
                }
                block
            })
            .collect();
        let usage = crate::json_value!({"input_tokens": self.input_tokens, "output_tokens": self.output_tokens});
        dialect.parse(&crate::core::json::text::to_text(
            &crate::json_value!({"content": content, "usage": usage}),
        ))
    }
}

impl AnthropicAssembler {
    fn delta(&mut self, index: u64, delta: Option<&Value>) -> Option<String> {
        let (block, partial_json) = self.blocks.entry_or(index, empty_block)?;
        match delta.and_then(|d| d.get("type")).and_then(Value::as_str) {
            Some("text_delta") => {
                let text = delta.and_then(|d| d.get("text")).and_then(Value::as_str)?;
                append_text(block, text);
                (!text.is_empty()).then(|| text.to_owned())
            }
            Some("input_json_delta") => {
                let part = delta
                    .and_then(|d| d.get("partial_json"))
                    .and_then(Value::as_str)?;
                partial_json.push_str(part);
                None
            }
            _ => None,
        }
    }

    /// Folds one event into the blocks, the usage and the end flag.
    fn fold(&mut self, event: &SseEvent) -> Result<Option<String>, WireError> {
        let data = parse_data(&event.data)?;
        let kind = data
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or(event.event.as_str());
        let index = data.get("index").and_then(Value::as_u64).unwrap_or(0);
        let tokens =
            |v: Option<&Value>, key: &str| v.and_then(|u| u.get(key)).and_then(Value::as_u64);
        match kind {
            "error" => {
                let message = data
                    .get("error")
                    .and_then(|e| e.get("message"))
                    .and_then(Value::as_str);
                return Err(WireError::Provider(message.map_or_else(
                    || crate::core::json::text::to_text(&data),
                    str::to_owned,
                )));
            }
            "message_start" => {
                let usage = data.get("message").and_then(|m| m.get("usage"));
                self.input_tokens = tokens(usage, "input_tokens").unwrap_or(0);
                self.output_tokens = tokens(usage, "output_tokens").unwrap_or(0);
            }
            "content_block_start" => {
                let block = data
                    .get("content_block")
                    .cloned()
                    .unwrap_or_else(|| crate::json_value!({"type": "text", "text": ""}));
                self.blocks.insert(index, (block, String::new()));
            }
            "content_block_delta" => return Ok(self.delta(index, data.get("delta"))),
            "message_delta" => {
                if let Some(out) = tokens(data.get("usage"), "output_tokens") {
                    self.output_tokens = out;
                }
            }
            "message_stop" => self.ended = true,
            _ => {}
        }
        Ok(None)
    }
}

/// A content block a delta arrived for before (or without) its `content_block_start`.
fn empty_block() -> (Value, String) {
    (
        crate::json_value!({"type": "text", "text": ""}),
        String::new(),
    )
}

/// Values in order of their `index`: a stream's tool calls or content blocks, a few, kept in a
/// sorted `Vec` (one `BTreeMap` instantiation less in the module for each).
struct ByIndex<V>(Vec<(u64, V)>);

impl<V> Default for ByIndex<V> {
    fn default() -> Self {
        ByIndex(Vec::new())
    }
}

impl<V> ByIndex<V> {
    fn position(&self, index: u64) -> Result<usize, usize> {
        self.0.binary_search_by_key(&index, |(at, _)| *at)
    }

    /// The value at `index`, made by `make` when there is none (always `Some`).
    fn entry_or(&mut self, index: u64, make: impl FnOnce() -> V) -> Option<&mut V> {
        let at = match self.position(index) {
            Ok(at) => at,
            Err(at) => {
                self.0.insert(at, (index, make()));
                at
            }
        };
        self.0.get_mut(at).map(|(_, value)| value)
    }

    /// Puts `value` at `index`, replacing what was there.
    fn insert(&mut self, index: u64, value: V) {
        match self.position(index) {
            Ok(at) => {
                if let Some(slot) = self.0.get_mut(at) {
                    slot.1 = value;
                }
            }
            Err(at) => self.0.insert(at, (index, value)),
        }
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn values(&self) -> impl Iterator<Item = &V> {
        self.0.iter().map(|(_, value)| value)
    }

    fn into_values(self) -> impl Iterator<Item = V> {
        self.0.into_iter().map(|(_, value)| value)
    }
}

/// Appends a text delta to its block's `text` (a block whose `text` is not a string gets the
/// delta as its text), in place: the text so far is never copied.
fn append_text(block: &mut Value, text: &str) {
    match block.get_mut("text") {
        Some(Value::String(so_far)) => so_far.push_str(text),
        _ => {
            if let Some(map) = block.as_object_mut() {
                map.insert("text".into(), Value::String(text.to_owned()));
            }
        }
    }
}
