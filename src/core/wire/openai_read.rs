//! The fast path of [`OpenAi::parse`](super::openai::OpenAi): a Chat Completions response read
//! with [`json_scan`](crate::core::json_scan), without a `serde_json::Value`, its message
//! copied into the transcript as canonical text. It takes the shapes providers send (string or
//! null content, tool calls with string ids and string arguments, integer usage) and gives
//! `None` for anything else, so the slow path, which reads every shape and words every error,
//! decides those; `tests/wire_fast.rs` checks the two agree.

use super::openai::{arguments_text, tool_call_id};
use super::{Reply, ToolCall, Usage};
use crate::core::json_scan::Reader;
use crate::core::message::Message;

/// The reply in `text`, or `None` to leave it to the slow path.
pub fn read(text: &str) -> Option<Reply> {
    let mut reader = Reader::new(text);
    let mut message: Option<Vec<u8>> = None;
    let mut usage: Option<Usage> = None;
    let (mut choices_seen, mut error_seen) = (false, false);
    reader.object(|r, key| match key {
        "choices" if !choices_seen => {
            choices_seen = true;
            r.array(|r, index| {
                if index > 0 {
                    return r.skip();
                }
                r.object(|r, key| match key {
                    "message" if message.is_none() => {
                        let mut out = Vec::with_capacity(256);
                        r.canonical(&mut out)?;
                        message = Some(out);
                        Some(())
                    }
                    "message" => None,
                    _ => r.skip(),
                })
            })
        }
        "usage" if usage.is_none() => {
            usage = Some(read_usage(r)?);
            Some(())
        }
        // A provider error (or a repeated key) is the slow path's to report.
        "error" if !error_seen => {
            error_seen = true;
            r.null()?.then_some(())
        }
        "choices" | "usage" | "error" => None,
        _ => r.skip(),
    })?;
    reader.finish()?;
    let message = String::from_utf8(message?).ok()?;
    if !message.starts_with('{') {
        return None;
    }
    let (content, tool_calls) = read_message(&message)?;
    Some(Reply {
        text: content,
        tool_calls,
        usage: usage.unwrap_or_default(),
        assistant: Message::from_canonical(message),
    })
}

/// `usage`: `null`, or an object of non-negative integer (or `null`) counts.
fn read_usage(r: &mut Reader<'_>) -> Option<Usage> {
    if r.null()? {
        return Some(Usage::default());
    }
    let mut counts: [Option<Option<u64>>; 3] = [None; 3];
    r.object(|r, key| {
        let slot = match key {
            "prompt_tokens" => counts.get_mut(0),
            "completion_tokens" => counts.get_mut(1),
            "total_tokens" => counts.get_mut(2),
            _ => return r.skip(),
        }?;
        if slot.is_some() {
            return None;
        }
        *slot = Some(if r.null()? { None } else { Some(r.u64()?) });
        Some(())
    })?;
    let [prompt, completion, total] = counts.map(Option::flatten);
    let (prompt, completion) = (prompt.unwrap_or(0), completion.unwrap_or(0));
    Some(Usage {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: total.unwrap_or_else(|| prompt.saturating_add(completion)),
    })
}

/// The content text and the tool calls of a message in canonical text (so no key repeats).
fn read_message(message: &str) -> Option<(String, Vec<ToolCall>)> {
    let mut content = String::new();
    let mut calls = Vec::new();
    let mut reader = Reader::new(message);
    reader.object(|r, key| match key {
        "content" if r.null()? => Some(()),
        "content" => {
            content = r.string()?.into_owned();
            Some(())
        }
        "tool_calls" if r.null()? => Some(()),
        "tool_calls" => r.array(|r, index| {
            calls.push(read_call(r, index)?);
            Some(())
        }),
        _ => r.skip(),
    })?;
    Some((content, calls))
}

/// One tool call: `{id?, function?: {name?, arguments?}}`, strings or `null`.
fn read_call(r: &mut Reader<'_>, index: usize) -> Option<ToolCall> {
    let mut id = None;
    let (mut name, mut arguments) = (None, None);
    r.object(|r, key| match key {
        "id" if r.null()? => Some(()),
        "id" => {
            id = Some(r.string()?);
            Some(())
        }
        "function" if r.null()? => Some(()),
        "function" => r.object(|r, key| match key {
            "name" if r.null()? => Some(()),
            "name" => {
                name = Some(r.string()?);
                Some(())
            }
            "arguments" if r.null()? => Some(()),
            "arguments" => {
                arguments = Some(r.string()?);
                Some(())
            }
            _ => r.skip(),
        }),
        _ => r.skip(),
    })?;
    Some(ToolCall {
        id: tool_call_id(id.as_deref(), index),
        name: name.map(Into::into).unwrap_or_default(),
        args: match arguments {
            Some(text) => arguments_text(&text),
            None => Ok(serde_json::Value::Object(Default::default())),
        },
    })
}
