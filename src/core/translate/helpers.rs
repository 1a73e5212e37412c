//! The reference port's pure helpers of single-turn translation (SPEC §11), on JSON data: each
//! behaves as the export of the same name does on any input, JavaScript's truthiness and
//! `String(...)` included (arrays count as objects, as `typeof` says).

use crate::core::jsfmt::{string_of, stringify};
use crate::core::json::value::{Map, Value};
use crate::core::parts::{encode, from_block, make, media_type, placeholder, ContentPart};

use super::TranslatedToolCall;

/// JavaScript's truthiness of a JSON value.
fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// `typeof value === "object" && value !== null` (arrays included).
fn is_object(value: &Value) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}

/// `String(value ?? "")`: a missing or `null` value is the empty string.
fn string_or_empty(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(other) => string_of(other),
    }
}

/// An OpenAI `content` as text: a string as it is, a parts array as its parts' `text` strings
/// joined (other parts count as ""), anything else "".
///
/// ```
/// # use toolnexus::core::translate::helpers::content_text;
/// use toolnexus::json;
/// assert_eq!(content_text(&json!([{"type": "text", "text": "a "}, {"type": "image_url"}, {"text": "b"}])), "a b");
/// assert_eq!(content_text(&json!(null)), "");
/// ```
pub fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => {
            // Loops rather than iterator adapters here and below: each adapter chain is its own
            // copy of the iterator code in the wasm module.
            let mut text = String::new();
            for part in parts {
                if let Some(piece) = part.get("text").and_then(Value::as_str) {
                    text.push_str(piece);
                }
            }
            text
        }
        _ => String::new(),
    }
}

/// Tool-call arguments as an object: an object (or array) as it is, JSON text of one parsed,
/// anything else (malformed text included) `{}`.
///
/// ```
/// # use toolnexus::core::translate::helpers::args_object;
/// use toolnexus::json;
/// assert_eq!(args_object(&json!(r#"{"a":1}"#)), json!({"a": 1}));
/// assert_eq!(args_object(&json!("not json")), json!({}));
/// assert_eq!(args_object(&json!({"b": 2})), json!({"b": 2}));
/// ```
pub fn args_object(args: &Value) -> Value {
    match args {
        Value::Array(_) | Value::Object(_) => args.clone(),
        Value::String(text) if !crate::core::jsfmt::trim(text).is_empty() => {
            match crate::core::json::parse::from_str(text) {
                Ok(parsed) if is_object(&parsed) => parsed,
                _ => Value::Object(Map::new()),
            }
        }
        _ => Value::Object(Map::new()),
    }
}

/// Tool-call arguments as the JSON text OpenAI sends: a string as it is, an object (or array)
/// written as `JSON.stringify` does, anything else `"{}"`.
///
/// ```
/// # use toolnexus::core::translate::helpers::args_string;
/// use toolnexus::json;
/// assert_eq!(args_string(&json!({"city": "Madurai"})), r#"{"city":"Madurai"}"#);
/// assert_eq!(args_string(&json!("{}")), "{}");
/// assert_eq!(args_string(&json!(5)), "{}");
/// ```
pub fn args_string(args: &Value) -> String {
    match args {
        Value::String(s) => s.clone(),
        Value::Array(_) | Value::Object(_) => stringify(args),
        _ => "{}".to_owned(),
    }
}

/// The `tool_calls` of an OpenAI assistant message, arguments as JSON text; an entry without a
/// (truthy) `function` is skipped.
///
/// ```
/// # use toolnexus::core::translate::helpers::tool_calls_of;
/// use toolnexus::json;
/// let calls = tool_calls_of(&json!({"tool_calls": [{"id": "c1", "function": {"name": "f", "arguments": {"a": 1}}}, {"id": "x"}]}));
/// assert_eq!(calls.len(), 1);
/// assert_eq!(calls[0].arguments, r#"{"a":1}"#);
/// ```
pub fn tool_calls_of(message: &Value) -> Vec<TranslatedToolCall> {
    let Some(raw) = message.get("tool_calls").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut calls = Vec::new();
    for call in raw {
        let Some(function) = call.get("function").filter(|f| truthy(f)) else {
            continue;
        };
        calls.push(TranslatedToolCall {
            id: string_or_empty(call.get("id")),
            name: string_or_empty(function.get("name")),
            arguments: args_string(function.get("arguments").unwrap_or(&Value::Null)),
        });
    }
    calls
}

/// An OpenAI `messages` array as Anthropic messages plus the hoisted system prompt: assistant
/// `tool_calls` become `tool_use` blocks (arguments parsed), `tool` / `function` results become
/// `tool_result` blocks, consecutive ones merged into one user turn, `system` / `developer`
/// messages are hoisted (joined by a blank line), content arrays are flattened to text.
/// Non-objects and empty turns are left out.
///
/// ```
/// # use toolnexus::core::translate::helpers::openai_messages_to_anthropic;
/// use toolnexus::json;
/// let (messages, system) = openai_messages_to_anthropic(&json!([
///     {"role": "system", "content": "Be terse."},
///     {"role": "user", "content": "hi"},
/// ]));
/// assert_eq!(system, "Be terse.");
/// assert_eq!(messages, vec![json!({"role": "user", "content": "hi"})]);
/// ```
pub fn openai_messages_to_anthropic(messages: &Value) -> (Vec<Value>, String) {
    let mut out: Vec<Value> = Vec::new();
    let mut system = String::new();
    let mut results: Vec<Value> = Vec::new();
    let flush = |out: &mut Vec<Value>, results: &mut Vec<Value>| {
        if !results.is_empty() {
            out.push(turn("user", Value::Array(std::mem::take(results))));
        }
    };
    let none = Vec::new();
    for m in messages.as_array().unwrap_or(&none) {
        if !is_object(m) {
            continue;
        }
        let content = m.get("content").unwrap_or(&Value::Null);
        match m.get("role").and_then(Value::as_str) {
            Some("system" | "developer") => {
                flush(&mut out, &mut results);
                let text = content_text(content);
                if !text.is_empty() {
                    if !system.is_empty() {
                        system.push_str("\n\n");
                    }
                    system.push_str(&text);
                }
            }
            Some("tool" | "function") => {
                let mut block = Map::new();
                block.insert("type".into(), Value::String("tool_result".into()));
                let text = Value::String(content_text(content));
                let media = media_blocks(content);
                // A result's parts go inside its tool_result, after its text (§8A).
                block.insert(
                    "content".into(),
                    match media.is_empty() {
                        true => text,
                        false => Value::Array(
                            [crate::json_value!({"type": "text", "text": text})]
                                .into_iter()
                                .chain(media)
                                .collect(),
                        ),
                    },
                );
                if let Some(id) = m.get("tool_call_id").filter(|id| truthy(id)) {
                    block.insert("tool_use_id".into(), Value::String(string_of(id)));
                }
                results.push(Value::Object(block));
            }
            Some("assistant") => {
                flush(&mut out, &mut results);
                let mut blocks = Vec::new();
                let text = content_text(content);
                if !text.is_empty() {
                    blocks.push(crate::json_value!({"type": "text", "text": text}));
                }
                for call in tool_calls_of(m) {
                    let input = args_object(&Value::String(call.arguments));
                    blocks.push(crate::json_value!({
                        "type": "tool_use", "id": call.id, "name": call.name, "input": input
                    }));
                }
                // An empty assistant turn would be refused.
                if !blocks.is_empty() {
                    out.push(turn("assistant", Value::Array(blocks)));
                }
            }
            _ => {
                flush(&mut out, &mut results);
                let text = content_text(content);
                if let (Some(blocks), false) =
                    (content.as_array(), media_blocks(content).is_empty())
                {
                    // Content parts: the text parts joined first, then every other block in
                    // order, a part as its Anthropic block.
                    let lead = (!text.is_empty())
                        .then(|| crate::json_value!({"type": "text", "text": text}));
                    let rest = blocks.iter().filter_map(|b| match part_of(b) {
                        Some(part) if part.kind == "text" => None,
                        Some(part) => Some(anthropic_part(&part)),
                        None if b.get("type").and_then(Value::as_str) == Some("text") => None,
                        None => Some(b.clone()),
                    });
                    out.push(turn(
                        "user",
                        Value::Array(lead.into_iter().chain(rest).collect()),
                    ));
                } else if !text.is_empty() {
                    out.push(turn("user", Value::String(text)));
                } else if content.as_array().is_some_and(|parts| !parts.is_empty()) {
                    out.push(turn("user", content.clone()));
                }
            }
        }
    }
    flush(&mut out, &mut results);
    (out, system)
}

/// An OpenAI media block of a `content` array as a §1B part: `image_url` (a `data:` URL, or an
/// `http(s):` URL kept as one), `file` (its `file_data` data URL and `filename`) and
/// `input_audio` (`data` and `format`). `None` for any other block; `Some(Err)` names what is
/// wrong with a malformed one (`translate` refuses it as `invalid_request`).
///
/// ```
/// # use toolnexus::core::translate::helpers::openai_media_part;
/// let block = toolnexus::json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}});
/// let part = openai_media_part(&block).unwrap().unwrap();
/// assert_eq!((part.kind.as_str(), part.data.as_deref()), ("image", Some("AAAA")));
/// ```
pub fn openai_media_part(block: &Value) -> Option<Result<ContentPart, String>> {
    let kind = block.get("type")?.as_str()?;
    let field = |key: &str| {
        block
            .get(kind)
            .and_then(|f| f.get(key))
            .and_then(Value::as_str)
    };
    Some(match kind {
        "image_url" => {
            let url = field("url").or_else(|| block.get("image_url").and_then(Value::as_str));
            let Some(url) = url else {
                return Some(Err("an image_url block has no url".to_owned()));
            };
            if url.starts_with("data:") {
                make::from_string("image", url, &make::Options::default())
                    .map_err(|e| e.to_string())
            } else {
                make::check_url("image", url)
                    .map_err(|e| e.to_string())
                    .map(|()| ContentPart {
                        kind: "image".into(),
                        text: None,
                        mime_type: media_type(url.split(['?', '#']).next().unwrap_or(url))
                            .map(|(mime, _)| mime.to_owned()),
                        data: None,
                        url: Some(url.to_owned()),
                        name: None,
                    })
            }
        }
        "file" => match field("file_data") {
            Some(data) if data.starts_with("data:") => {
                let options = make::Options {
                    name: field("filename"),
                    ..Default::default()
                };
                make::from_string("file", data, &options).map_err(|e| e.to_string())
            }
            Some(_) => Err("a file block's file_data must be a base64 data: URL".to_owned()),
            None => Err("a file block has no file_data (a file_id cannot be sent on)".to_owned()),
        },
        "input_audio" => {
            let mime = match field("format") {
                Some("wav") => "audio/wav",
                Some("mp3") => "audio/mpeg",
                _ => {
                    return Some(Err(
                        "an input_audio block's format must be \"wav\" or \"mp3\"".to_owned(),
                    ))
                }
            };
            let data = field("data").unwrap_or_default();
            make::check_base64("audio", data)
                .map_err(|e| e.to_string())
                .map(|()| {
                    let mut part = ContentPart::image_data(mime, data);
                    part.kind = "audio".into();
                    part
                })
        }
        _ => return None,
    })
}

/// A content block as a part: a §1B part, or an OpenAI media block read as one.
fn part_of(block: &Value) -> Option<ContentPart> {
    from_block(block).or_else(|| openai_media_part(block).and_then(Result::ok))
}

/// The Anthropic blocks of the non-text §1B parts in an OpenAI `content` (none for a string or
/// a text-only array).
fn media_blocks(content: &Value) -> Vec<Value> {
    let parts = content
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(part_of);
    parts
        .filter(|p| p.kind != "text")
        .map(|p| anthropic_part(&p))
        .collect()
}

/// A part's Anthropic block; one Anthropic cannot take (audio) becomes its placeholder text.
fn anthropic_part(part: &ContentPart) -> Value {
    encode::block(part, "anthropic")
        .unwrap_or_else(|_| crate::json_value!({"type": "text", "text": placeholder(part)}))
}

/// `{role, content}`.
fn turn(role: &str, content: Value) -> Value {
    let mut message = Map::new();
    message.insert("role".into(), Value::String(role.into()));
    message.insert("content".into(), content);
    Value::Object(message)
}

/// An OpenAI `tools` array as Anthropic declarations `{name, description?, input_schema}` (no
/// `parameters`: `{type: "object", properties: {}}`). An entry without `function` but with a
/// `name` is taken as already Anthropic's and kept; anything else is skipped.
///
/// ```
/// # use toolnexus::core::translate::helpers::openai_tools_to_anthropic;
/// use toolnexus::json;
/// let tools = openai_tools_to_anthropic(&json!([{"type": "function", "function": {"name": "f"}}]));
/// assert_eq!(tools, vec![json!({"name": "f", "input_schema": {"type": "object", "properties": {}}})]);
/// ```
pub fn openai_tools_to_anthropic(tools: &Value) -> Vec<Value> {
    let none = Vec::new();
    let mut out = Vec::new();
    for tool in tools.as_array().unwrap_or(&none) {
        if !is_object(tool) {
            continue;
        }
        let Some(function) = tool.get("function").filter(|f| truthy(f)) else {
            if tool.get("name").is_some_and(truthy) {
                out.push(tool.clone());
            }
            continue;
        };
        let Some(name) = function.get("name").filter(|n| truthy(n)) else {
            continue;
        };
        let mut declaration = Map::new();
        declaration.insert("name".into(), name.clone());
        if let Some(description) = function.get("description").filter(|d| truthy(d)) {
            declaration.insert("description".into(), description.clone());
        }
        let schema = match function.get("parameters") {
            None | Some(Value::Null) => crate::json_value!({"type": "object", "properties": {}}),
            Some(parameters) => parameters.clone(),
        };
        declaration.insert("input_schema".into(), schema);
        out.push(Value::Object(declaration));
    }
    out
}

/// An OpenAI `tool_choice` in Anthropic's shape: `"required"` / `"any"` → `{type: "any"}`,
/// `"none"` → `{type: "none"}`, `{function: {name}}` → `{type: "tool", name}`; `None` for
/// `"auto"` (the provider's default), absence and anything else.
///
/// ```
/// # use toolnexus::core::translate::helpers::openai_tool_choice_to_anthropic;
/// use toolnexus::json;
/// assert_eq!(openai_tool_choice_to_anthropic(&json!("required")), Some(json!({"type": "any"})));
/// assert_eq!(openai_tool_choice_to_anthropic(&json!("auto")), None);
/// ```
pub fn openai_tool_choice_to_anthropic(choice: &Value) -> Option<Value> {
    match choice {
        // Parsed from text: smaller in the module than building each object.
        Value::String(s) => match s.as_str() {
            "required" | "any" => crate::core::json::parse::from_str(r#"{"type":"any"}"#).ok(),
            "none" => crate::core::json::parse::from_str(r#"{"type":"none"}"#).ok(),
            _ => None,
        },
        Value::Array(_) | Value::Object(_) => {
            let name = choice
                .get("function")
                .and_then(|f| f.get("name"))
                .filter(|n| truthy(n))?;
            Some(crate::json_value!({"type": "tool", "name": name.clone()}))
        }
        _ => None,
    }
}

/// The OpenAI finish reason of a turn: `"tool_calls"` whenever it called a tool, else
/// `max_tokens` / `length` → `"length"`, `refusal` / `content_filter` → `"content_filter"`,
/// anything else `"stop"`.
///
/// ```
/// # use toolnexus::core::translate::helpers::finish_reason_for;
/// assert_eq!(finish_reason_for(true, Some("max_tokens")), "tool_calls");
/// assert_eq!(finish_reason_for(false, Some("refusal")), "content_filter");
/// assert_eq!(finish_reason_for(false, None), "stop");
/// ```
pub fn finish_reason_for(has_tool_calls: bool, provider_stop: Option<&str>) -> &'static str {
    if has_tool_calls {
        return "tool_calls";
    }
    match provider_stop {
        Some("max_tokens" | "length") => "length",
        Some("refusal" | "content_filter") => "content_filter",
        _ => "stop",
    }
}

/// Whether a message list holds a `system` or `developer` message.
///
/// ```
/// # use toolnexus::core::translate::helpers::has_system_message;
/// use toolnexus::json;
/// assert!(has_system_message(&json!([{"role": "developer", "content": "x"}])));
/// assert!(!has_system_message(&json!([{"role": "user", "content": "x"}])));
/// ```
pub fn has_system_message(messages: &Value) -> bool {
    messages.as_array().is_some_and(|all| {
        all.iter().any(|m| {
            matches!(
                m.get("role").and_then(Value::as_str),
                Some("system" | "developer")
            )
        })
    })
}

/// A translate result's tool calls as an OpenAI `tool_calls` array: `[{id, type: "function",
/// function: {name, arguments}}]`, each value as it is.
///
/// ```
/// # use toolnexus::core::translate::helpers::tool_calls_json;
/// use toolnexus::json;
/// assert_eq!(
///     tool_calls_json(&json!([{"id": "c", "name": "f", "arguments": "{}"}])),
///     json!([{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]),
/// );
/// ```
pub fn tool_calls_json(tool_calls: &Value) -> Value {
    let none = Vec::new();
    let calls = tool_calls.as_array().unwrap_or(&none);
    let mut out = Vec::with_capacity(calls.len());
    for call in calls {
        let mut function = Map::new();
        copy_field(&mut function, call, "name");
        copy_field(&mut function, call, "arguments");
        let mut entry = Map::new();
        copy_field(&mut entry, call, "id");
        entry.insert("type".into(), Value::String("function".into()));
        entry.insert("function".into(), Value::Object(function));
        out.push(Value::Object(entry));
    }
    Value::Array(out)
}

/// Copies `from[key]` into `map` when it is there (an `undefined` the JSON crossing dropped
/// stays absent).
fn copy_field(map: &mut Map, from: &Value, key: &str) {
    if let Some(value) = from.get(key) {
        map.insert(key.into(), value.clone());
    }
}
