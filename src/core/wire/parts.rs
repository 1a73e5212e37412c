//! Content parts on the wire (SPEC §8A). The transcript holds §1B parts, the same in both
//! styles; a request maps them onto the provider's blocks at the last moment, so a stored
//! transcript moves between providers unchanged. A part the caller attached (in a user
//! message) that the provider cannot take fails the request before it is sent; one a tool
//! returned becomes its placeholder text instead, since the caller never chose it. Under the
//! `openai` style a `tool` message cannot hold an image, so the non-text parts of the tool
//! results answering one assistant turn move, in call order, into one `user` message right
//! after them; that message exists only in the request, never in the transcript.
//!
//! ```
//! use toolnexus::core::message::Message;
//! use toolnexus::core::wire::parts::for_wire;
//! let plain = [Message::role_content("user", "hi")];
//! assert!(for_wire(&plain, "openai", None, None).unwrap().is_none()); // nothing to map: sent as it is
//! ```

use crate::core::json::value::{Map, Value};
use crate::core::message::Message;
use crate::core::parts::{
    encode, from_block, make, placeholder, ContentPart, OnUnsupported, PartError, PartSummary,
};

/// The messages as `style` takes them, or `None` when none holds a part (the common case,
/// checked on the text without reading it). A part over `limit` decoded bytes, or invalid,
/// fails if attached and is described if a tool's; one the provider has no block for does the
/// same unless `on_unsupported` says otherwise for both.
pub fn for_wire(
    messages: &[Message],
    style: &str,
    limit: Option<usize>,
    on_unsupported: Option<OnUnsupported>,
) -> Result<Option<Vec<Message>>, PartError> {
    if !messages.iter().any(Message::may_hold_parts) {
        return Ok(None);
    }
    let to = Target {
        style,
        limit,
        on_unsupported,
    };
    let mut out = Vec::with_capacity(messages.len() + 1);
    let mut moved: Vec<Value> = Vec::new();
    // The tools the last assistant turn called, by call id, to label the parts that move.
    let mut called: Vec<(String, String)> = Vec::new();
    for message in messages {
        let value = message.value();
        let role = value.get("role").and_then(Value::as_str);
        if role == Some("tool") {
            out.push(tool_message(value, &to, &called, &mut moved)?);
            continue;
        }
        if let Some(Value::Array(calls)) = value.get("tool_calls") {
            called = calls.iter().filter_map(call_name).collect();
        }
        flush(&mut out, &mut moved);
        match value.get("content") {
            Some(Value::Array(content)) if message.may_hold_parts() => {
                let attached = role == Some("user");
                let blocks = content
                    .iter()
                    .map(|block| content_block(block, &to, attached))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut map = value.as_object().cloned().unwrap_or_default();
                map.insert("content".into(), Value::Array(blocks));
                out.push(Message::from_value(Value::Object(map)));
            }
            _ => out.push(message.clone()),
        }
    }
    flush(&mut out, &mut moved);
    Ok(Some(out))
}

/// A part's block in `style`: an attached part that does not fit fails, a tool's becomes
/// its placeholder text (for a part the provider has no block for, `on_unsupported` decides
/// when set).
fn encoded(part: &ContentPart, to: &Target, attached: bool) -> Result<Value, PartError> {
    let checked = part
        .validate()
        .and_then(|()| make::check_limit(part.bytes(), to.limit))
        .and_then(|()| encode::block(part, to.style));
    let fails = |error: &PartError| match (error, to.on_unsupported) {
        (PartError::Unsupported { .. }, Some(choice)) => choice == OnUnsupported::Error,
        _ => attached,
    };
    match checked {
        Ok(block) => Ok(block),
        Err(error) if fails(&error) => Err(error),
        Err(_) => encode::block(&ContentPart::text(placeholder(part)), to.style),
    }
}

/// Where a request goes: the provider style, the largest part it carries, and what a part
/// it has no block for becomes.
struct Target<'a> {
    style: &'a str,
    limit: Option<usize>,
    on_unsupported: Option<OnUnsupported>,
}

/// One block of a message's content: a part mapped, a `tool_result` with parts given them
/// after its text, anything else as it is.
fn content_block(block: &Value, to: &Target, attached: bool) -> Result<Value, PartError> {
    if block.get("type").and_then(Value::as_str) == Some("tool_result") {
        if let Some(Value::Array(parts)) = block.get("parts") {
            let mut map = block.as_object().cloned().unwrap_or_default();
            map.remove("parts");
            let text = map
                .get("content")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let mut content = vec![encode::block(&ContentPart::text(text), to.style)?];
            for part in parts.iter().filter_map(from_block) {
                content.push(encoded(&part, to, false)?);
            }
            map.insert("content".into(), Value::Array(content));
            return Ok(Value::Object(map));
        }
        return Ok(block.clone());
    }
    match from_block(block) {
        Some(part) if part.kind != "text" => encoded(&part, to, attached),
        _ => Ok(block.clone()),
    }
}

/// An OpenAI tool call's id and function name.
fn call_name(call: &Value) -> Option<(String, String)> {
    let id = call.get("id")?.as_str()?;
    let name = call.get("function")?.get("name")?.as_str()?;
    Some((id.to_owned(), name.to_owned()))
}

/// A `tool` message without its `parts` (and `name`): its text parts join its content, the
/// others move to the `user` message after the turn's results, labelled with the call (its
/// tool's name from the message, else from the assistant turn that called it).
fn tool_message(
    value: &Value,
    to: &Target,
    called: &[(String, String)],
    moved: &mut Vec<Value>,
) -> Result<Message, PartError> {
    let Some(Value::Array(parts)) = value.get("parts") else {
        return Ok(Message::from_value(value.clone()));
    };
    let mut map: Map<String, Value> = value.as_object().cloned().unwrap_or_default();
    map.remove("parts");
    let name = map.remove("name");
    let parts: Vec<ContentPart> = parts.iter().filter_map(from_block).collect();
    let texts: Vec<&ContentPart> = parts.iter().filter(|p| p.kind == "text").collect();
    if !texts.is_empty() {
        let output = map
            .get("content")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let mut content = vec![encode::block(&ContentPart::text(output), to.style)?];
        for part in texts {
            content.push(encoded(part, to, false)?);
        }
        map.insert("content".into(), Value::Array(content));
    }
    let id = map
        .get("tool_call_id")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let name = name.as_ref().and_then(Value::as_str).or_else(|| {
        called
            .iter()
            .find(|(call, _)| call == id)
            .map(|(_, name)| name.as_str())
    });
    let label = format!("Output of tool {} ({id}):", name.unwrap_or_default());
    for part in parts.iter().filter(|p| p.kind != "text") {
        moved.push(encode::block(&ContentPart::text(label.clone()), to.style)?);
        moved.push(encoded(part, to, false)?);
    }
    Ok(Message::from_value(Value::Object(map)))
}

/// The moved parts, as one `user` message, once the turn's tool messages end.
fn flush(out: &mut Vec<Message>, moved: &mut Vec<Value>) {
    if !moved.is_empty() {
        let mut map = Map::new();
        map.insert("role".into(), Value::String("user".into()));
        map.insert("content".into(), Value::Array(std::mem::take(moved)));
        out.push(Message::from_value(Value::Object(map)));
    }
}

/// Every non-text part a transcript carries (attached, or a tool's), as the `llm` metric
/// event names them: `{type, mimeType, bytes}`, never the bytes (SPEC §9).
///
/// ```
/// use toolnexus::core::message::Message;
/// use toolnexus::core::wire::parts::summaries;
/// let m = Message::from_value(toolnexus::json!({"role": "user", "content": [
///     {"type": "text", "text": "see"}, {"type": "image", "mimeType": "image/png", "data": "AAAA"}]}));
/// assert_eq!(summaries(&[m])[0].bytes, 3);
/// ```
pub fn summaries(messages: &[Message]) -> Vec<PartSummary> {
    let mut found = Vec::new();
    let mut scan = |blocks: Option<&Value>| {
        let parts = blocks
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        let parts = parts.iter().filter_map(from_block);
        found.extend(
            parts
                .filter(|p| p.kind != "text")
                .map(|p| PartSummary::of(&p)),
        );
    };
    for message in messages.iter().filter(|m| m.may_hold_parts()) {
        let value = message.value();
        scan(value.get("parts"));
        scan(value.get("content"));
        let content = value.get("content").and_then(Value::as_array);
        for block in content.map_or(&[][..], Vec::as_slice) {
            if block.get("type").and_then(Value::as_str) == Some("tool_result") {
                scan(block.get("parts"));
            }
        }
    }
    found
}
