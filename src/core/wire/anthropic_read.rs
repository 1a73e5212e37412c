//! The fast path of [`Anthropic::parse`](super::anthropic::Anthropic): a Messages API response
//! read with [`json_scan`](crate::core::json::scan), without a `Value`, its content
//! blocks copied into the transcript as canonical text. It takes what providers send (text and
//! `tool_use` blocks, integer usage, no error) and gives `None` for anything else (an error, a
//! repeated key, odd usage, numbers or text the reader does not vouch for), which the slow path
//! then reads and words; `tests/wire_fast_anthropic.rs` checks the two agree.
//!
//! ```
//! # use toolnexus::core::wire::anthropic_read::read;
//! let text = r#"{"content":[{"type":"text","text":"Hi"}],"usage":{"input_tokens":3,"output_tokens":1}}"#;
//! let reply = read(text).unwrap();
//! assert_eq!((reply.text.as_str(), reply.usage.total_tokens), ("Hi", 4));
//! assert_eq!(reply.assistant.text(), r#"{"role":"assistant","content":[{"type":"text","text":"Hi"}]}"#);
//! ```

use crate::core::json::value::{Map, Value};

use super::{Reply, ToolCall, Usage};
use crate::core::json::scan::{first_time as first, Reader};
use crate::core::message::Message;

/// The reply in `text`, or `None` to leave it to the slow path.
pub fn read(text: &str) -> Option<Reply> {
    let mut reader = Reader::new(text);
    let mut blocks: Option<Blocks> = None;
    let mut usage = Usage::default();
    let mut seen = 0u8;
    reader.object(|r, key| match key {
        "content" => {
            first(&mut seen, 1)?;
            blocks = Some(read_blocks(r)?);
            Some(())
        }
        "usage" => {
            first(&mut seen, 2)?;
            usage = read_usage(r)?;
            Some(())
        }
        // An error body is the slow path's to report.
        "error" => {
            first(&mut seen, 4)?;
            r.null()?.then_some(())
        }
        "type" => {
            first(&mut seen, 8)?;
            if r.peek()? == b'"' {
                (r.string()? != "error").then_some(())
            } else {
                r.skip()
            }
        }
        _ => r.skip(),
    })?;
    reader.finish()?;
    let Blocks {
        copied,
        text,
        tool_calls,
    } = blocks?;
    let mut assistant = String::with_capacity(copied.len() + 32);
    assistant.push_str(r#"{"role":"assistant","content":"#);
    assistant.push_str(&String::from_utf8(copied).ok()?);
    assistant.push('}');
    Some(Reply {
        text,
        tool_calls,
        usage,
        assistant: Message::from_canonical(assistant),
    })
}

/// The content array, copied as canonical text, with its text and tool calls read out.
struct Blocks {
    copied: Vec<u8>,
    text: String,
    tool_calls: Vec<ToolCall>,
}

fn read_blocks(r: &mut Reader<'_>) -> Option<Blocks> {
    let mut out = Vec::with_capacity(256);
    let (mut text, mut tool_calls) = (String::new(), Vec::new());
    out.push(b'[');
    r.array(|r, index| {
        if index > 0 {
            out.push(b',');
        }
        if r.peek()? != b'{' {
            // Not a block: kept in the transcript, read as nothing.
            return r.canonical(&mut out);
        }
        let block = read_block(r, &mut out)?;
        match block.kind.as_deref() {
            Some("text") => text.push_str(block.text.as_deref().unwrap_or("")),
            Some("tool_use") => {
                let id = match block.id {
                    Some(id) if !id.is_empty() => id,
                    _ => format!("call_{}", tool_calls.len()),
                };
                let args = match block.input {
                    None => Ok(Value::Object(Map::new())),
                    Some((from, to)) => {
                        let input = std::str::from_utf8(out.get(from..to)?).ok()?;
                        match crate::core::json::parse::from_str(input).ok()? {
                            Value::Null => Ok(Value::Object(Map::new())),
                            value => Ok(value),
                        }
                    }
                };
                tool_calls.push(ToolCall {
                    id,
                    name: block.name.unwrap_or_default(),
                    args,
                });
            }
            _ => {}
        }
        Some(())
    })?;
    out.push(b']');
    Some(Blocks {
        copied: out,
        text,
        tool_calls,
    })
}

/// What one block holds of what the loop reads; `input` is where its canonical text sits in
/// the copy.
#[derive(Default)]
struct Block {
    kind: Option<String>,
    text: Option<String>,
    id: Option<String>,
    name: Option<String>,
    input: Option<(usize, usize)>,
}

fn read_block(r: &mut Reader<'_>, out: &mut Vec<u8>) -> Option<Block> {
    let mut block = Block::default();
    // A string field: its decoded text kept; anything else copied and not kept.
    let string = |r: &mut Reader<'_>, out: &mut Vec<u8>, slot: &mut Option<String>| {
        if r.peek()? != b'"' {
            return Some(false);
        }
        *slot = Some(r.canonical_string(out)?.into_owned());
        Some(true)
    };
    r.canonical_object_with(out, &mut |r, key, out| match key {
        "type" => string(r, out, &mut block.kind),
        "text" => string(r, out, &mut block.text),
        "name" => string(r, out, &mut block.name),
        "id" => match r.peek()? {
            b'"' => string(r, out, &mut block.id),
            // A numeric id is its digits, as the slow path writes the number.
            b'-' | b'0'..=b'9' => {
                let from = out.len();
                r.canonical(out)?;
                block.id = Some(std::str::from_utf8(out.get(from..)?).ok()?.to_owned());
                Some(true)
            }
            _ => Some(false),
        },
        "input" => {
            let from = out.len();
            r.canonical(out)?;
            block.input = Some((from, out.len()));
            Some(true)
        }
        _ => Some(false),
    })?;
    Some(block)
}

/// `usage`: `null`, or an object of non-negative integer (or `null`) counts.
fn read_usage(r: &mut Reader<'_>) -> Option<Usage> {
    if r.null()? {
        return Some(Usage::default());
    }
    let mut counts: [Option<u64>; 2] = [None; 2];
    let mut seen = 0u8;
    r.object(|r, key| {
        let (at, bit) = match key {
            "input_tokens" => (0, 1),
            "output_tokens" => (1, 2),
            _ => return r.skip(),
        };
        first(&mut seen, bit)?;
        let count = if r.null()? { None } else { Some(r.u64()?) };
        *counts.get_mut(at)? = count;
        Some(())
    })?;
    let [input, output] = counts.map(|c| c.unwrap_or(0));
    Some(Usage {
        prompt_tokens: input,
        completion_tokens: output,
        total_tokens: input.saturating_add(output),
    })
}
