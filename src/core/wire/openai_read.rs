//! The fast path of [`OpenAi::parse`](super::openai::OpenAi): a Chat Completions response read
//! with [`json_scan`](crate::core::json::scan), without a `crate::core::json::value::Value`, its message
//! copied into the transcript as canonical text. It takes the shapes providers send (string or
//! null content, tool calls with string ids and string arguments, integer usage) and gives
//! `None` for anything else, so the slow path, which reads every shape and words every error,
//! decides those; `tests/wire_fast.rs` checks the two agree.

use super::openai::{arguments_text, tool_call_id};
use super::{Reply, ToolCall, Usage};
use crate::core::json::scan::Reader;
use crate::core::message::Message;

/// The reply in `text`, or `None` to leave it to the slow path.
pub fn read(text: &str) -> Option<Reply> {
    let mut reader = Reader::new(text);
    let mut message: Option<Read> = None;
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
                        message = Some(read_message(r)?);
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
    let Read {
        text,
        content,
        tool_calls,
    } = message?;
    Some(Reply {
        text: content,
        tool_calls,
        usage: usage.unwrap_or_default(),
        // A provider's reply holds no §1B parts: a request need not look for them in it.
        assistant: Message::without_parts(String::from_utf8(text).ok()?),
    })
}

/// The assistant message read in one pass: its canonical text for the transcript, and what
/// the loop needs of it.
struct Read {
    text: Vec<u8>,
    content: String,
    tool_calls: Vec<ToolCall>,
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

/// The message object, copied as canonical text while its content (a string or `null`) and
/// its tool calls are taken out; a repeated key is refused by the copy before it is read twice.
fn read_message(r: &mut Reader<'_>) -> Option<Read> {
    let mut text = Vec::with_capacity(256);
    let mut content = String::new();
    let mut calls = Vec::new();
    r.canonical_object_with(&mut text, &mut |r, key, out| match key {
        "content" => {
            if !r.canonical_null(out)? {
                content = r.canonical_string(out)?.into_owned();
            }
            Some(true)
        }
        "tool_calls" => {
            if !r.canonical_null(out)? {
                out.push(b'[');
                r.array(|r, index| {
                    if index > 0 {
                        out.push(b',');
                    }
                    calls.push(read_call(r, index, out)?);
                    Some(())
                })?;
                out.push(b']');
            }
            Some(true)
        }
        _ => Some(false),
    })?;
    Some(Read {
        text,
        content,
        tool_calls: calls,
    })
}

/// One tool call, copied to `out`: `{id?, function?: {name?, arguments?}}`, strings or `null`.
fn read_call(r: &mut Reader<'_>, index: usize, out: &mut Vec<u8>) -> Option<ToolCall> {
    let mut id = None;
    let (mut name, mut arguments) = (None, None);
    // A string or `null`, copied; the string kept in `slot`.
    let string_or_null = |r: &mut Reader<'_>, out: &mut Vec<u8>, slot: &mut Option<String>| {
        if !r.canonical_null(out)? {
            *slot = Some(r.canonical_string(out)?.into_owned());
        }
        Some(true)
    };
    r.canonical_object_with(out, &mut |r, key, out| match key {
        "id" => string_or_null(r, out, &mut id),
        "function" => {
            if !r.canonical_null(out)? {
                r.canonical_object_with(out, &mut |r, key, out| match key {
                    "name" => string_or_null(r, out, &mut name),
                    "arguments" => string_or_null(r, out, &mut arguments),
                    _ => Some(false),
                })?;
            }
            Some(true)
        }
        _ => Some(false),
    })?;
    Some(ToolCall {
        id: tool_call_id(id, index),
        name: name.unwrap_or_default(),
        args: match arguments {
            Some(text) => arguments_text(&text),
            None => Ok(crate::core::json::value::Value::Object(Default::default())),
        },
    })
}
