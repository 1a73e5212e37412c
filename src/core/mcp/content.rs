//! A `tools/call` result as a `ToolResult` (SPEC §0.4, §1B): `isError` → an error with the
//! joined text; `structuredContent` → its JSON text; otherwise the text entries joined with
//! `\n`, then the text of embedded resources. Images, audio, resource links and embedded
//! binary resources become content parts (`parts`) on every branch, their base64 passed
//! through as the server sent it; a result of parts only says what they are in `output`.

use crate::core::json::value::{Map, Value};
use crate::core::parts::{describe, ContentPart};
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
/// let shot = to_tool_result(&toolnexus::json!({"content": [{"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="}]}), "docs");
/// assert_eq!(shot.output, "image (image/png, 8 bytes)");
/// assert_eq!(shot.parts.unwrap()[0].data.as_deref(), Some("iVBORw0KGgo="));
/// ```
pub fn to_tool_result(result: &Value, server: &str) -> ToolResult {
    let content = result.get("content");
    let items: &[Value] = content.and_then(Value::as_array).map_or(&[], Vec::as_slice);
    let mut metadata = Map::new();
    metadata.insert("server".into(), Value::String(server.to_owned()));
    let parts: Vec<ContentPart> = items.iter().filter_map(part_of).collect();
    let (output, is_error) = if result.get("isError") == Some(&Value::Bool(true)) {
        (error_text(items), true)
    } else {
        match result.get("structuredContent") {
            Some(structured) if !structured.is_null() => (jsfmt::stringify(structured), false),
            _ => {
                let text = joined(items);
                match text.is_empty() {
                    true => (
                        parts
                            .iter()
                            .map(describe)
                            .collect::<Vec<_>>()
                            .join_with("\n"),
                        false,
                    ),
                    false => (text, false),
                }
            }
        }
    };
    ToolResult {
        output,
        is_error,
        metadata: Some(metadata),
        parts: (!parts.is_empty()).then_some(parts),
    }
}

/// The part an entry is: an image or audio clip as its data, a resource link as a file by
/// URL, an embedded binary resource as a file's data. Text goes to `output` instead.
fn part_of(item: &Value) -> Option<ContentPart> {
    let part = |kind: &str,
                mime: Option<&str>,
                data: Option<&str>,
                url: Option<&str>,
                name: Option<&str>| ContentPart {
        kind: kind.to_owned(),
        text: None,
        mime_type: Some(mime.unwrap_or("application/octet-stream").to_owned()),
        data: data.map(str::to_owned),
        url: url.map(str::to_owned),
        name: name.map(str::to_owned),
    };
    match field(item, "type")? {
        kind @ ("image" | "audio") => {
            let (data, mime) = (item.get("data")?.as_str()?, item.get("mimeType")?.as_str()?);
            Some(part(kind, Some(mime), Some(data), None, None))
        }
        "resource_link" => {
            let uri = field(item, "uri")?;
            Some(part(
                "file",
                field(item, "mimeType"),
                None,
                Some(uri),
                field(item, "name"),
            ))
        }
        "resource" => {
            let resource = item.get("resource")?;
            let blob = resource.get("blob")?.as_str()?;
            Some(part(
                "file",
                field(resource, "mimeType"),
                Some(blob),
                None,
                field(resource, "uri"),
            ))
        }
        _ => None,
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

/// The text entries joined with `\n`, then the text of embedded resources (text the server
/// meant the model to read, not an attachment).
fn joined(items: &[Value]) -> String {
    let embedded = items.iter().filter_map(|item| match field(item, "type") {
        Some("resource") => item
            .get("resource")?
            .get("text")?
            .as_str()
            .map(str::to_owned),
        // An entry of a type no part or text takes is named, never dropped silently.
        Some("text" | "image" | "audio" | "resource_link") => None,
        other => Some(format!("[{} content]", other.unwrap_or("unknown"))),
    });
    let texts = items.iter().filter_map(text_of).map(str::to_owned);
    texts.chain(embedded).collect::<Vec<_>>().join_with("\n")
}

fn field<'a>(item: &'a Value, key: &str) -> Option<&'a str> {
    item.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}
