//! A `tools/call` result as a `ToolResult` (SPEC §0.4): `isError` → an error with the joined
//! text; `structuredContent` → its JSON text; otherwise the text parts joined with `\n`. Parts
//! that are not text (images, audio, resources, resource links) are described in place rather
//! than dropped, and the raw content is kept in `metadata.content` for the host.

use crate::core::json::value::{Map, Value};
use crate::core::text::JoinWith;

use crate::core::jsfmt;
use crate::core::types::ToolResult;

/// The error text when an error result carries no text.
pub const NO_ERROR_TEXT: &str = "MCP tool returned an error";

/// Maps one `tools/call` result of `server`.
///
/// ```
/// # use toolnexus::core::mcp::content::to_tool_result;
/// let r = to_tool_result(&toolnexus::json!({"content": [{"type": "text", "text": "hi"}]}), "docs");
/// assert_eq!((r.output.as_str(), r.is_error), ("hi", false));
/// ```
pub fn to_tool_result(result: &Value, server: &str) -> ToolResult {
    let content = result.get("content");
    let items: &[Value] = content.and_then(Value::as_array).map_or(&[], Vec::as_slice);
    let mut metadata = Map::new();
    metadata.insert("server".into(), Value::String(server.to_owned()));
    let has_other = items.iter().any(|item| text_of(item).is_none());
    if has_other {
        metadata.insert("content".into(), Value::Array(items.to_vec()));
    }
    let (output, is_error) = if result.get("isError") == Some(&Value::Bool(true)) {
        (error_text(items), true)
    } else {
        match result.get("structuredContent") {
            Some(structured) if !structured.is_null() => (jsfmt::stringify(structured), false),
            _ => (joined(items), false),
        }
    };
    ToolResult {
        parts: None,
        output,
        is_error,
        metadata: Some(metadata),
    }
}

fn text_of(item: &Value) -> Option<&str> {
    if item.get("type").and_then(Value::as_str) == Some("text") {
        item.get("text").and_then(Value::as_str)
    } else {
        None
    }
}

/// The non-empty text parts joined with a blank line, or [`NO_ERROR_TEXT`].
fn error_text(items: &[Value]) -> String {
    let texts: Vec<&str> = items
        .iter()
        .filter_map(text_of)
        .filter(|t| !jsfmt::trim(t).is_empty())
        .collect();
    if texts.is_empty() {
        NO_ERROR_TEXT.to_owned()
    } else {
        texts.join_with("\n\n")
    }
}

/// Every part in order, text as it is and the rest described, joined with `\n`.
fn joined(items: &[Value]) -> String {
    items
        .iter()
        .map(|item| match text_of(item) {
            Some(text) => text.to_owned(),
            None => describe(item),
        })
        .collect::<Vec<_>>()
        .join_with("\n")
}

fn field<'a>(item: &'a Value, key: &str) -> Option<&'a str> {
    item.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// Decoded size of base64 text.
fn base64_bytes(data: &str) -> usize {
    let len = data.trim_end_matches('=').len();
    len * 3 / 4
}

/// A one-line description of a content part that is not text.
///
/// ```
/// # use toolnexus::core::mcp::content::describe;
/// let part = toolnexus::json!({"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="});
/// assert_eq!(describe(&part), "[image: image/png, 8 bytes]");
/// ```
pub fn describe(item: &Value) -> String {
    let kind = field(item, "type").unwrap_or("unknown");
    match kind {
        "image" | "audio" => {
            let mime = field(item, "mimeType").unwrap_or(kind);
            let size = field(item, "data").map_or(0, base64_bytes);
            format!("[{kind}: {mime}, {size} bytes]")
        }
        "resource" => {
            let resource = item.get("resource").unwrap_or(&Value::Null);
            let uri = field(resource, "uri").unwrap_or("(no uri)");
            if let Some(text) = resource.get("text").and_then(Value::as_str) {
                return format!("[resource: {uri}]\n{text}");
            }
            let mime = field(resource, "mimeType").map_or(String::new(), |m| format!(", {m}"));
            let size = field(resource, "blob").map_or(0, base64_bytes);
            format!("[resource: {uri}{mime}, {size} bytes]")
        }
        "resource_link" => {
            let uri = field(item, "uri").unwrap_or("(no uri)");
            let name = field(item, "name").map_or(String::new(), |n| format!("{n} "));
            let about = field(item, "description").map_or(String::new(), |d| format!(": {d}"));
            format!("[resource link: {name}{uri}{about}]")
        }
        other => format!("[{other} content]"),
    }
}
