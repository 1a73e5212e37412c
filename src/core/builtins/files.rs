//! `read` and `write` over the host's filesystem.

use base64ct::{Base64, Encoding as _};

use crate::core::json::value::Value;
use crate::core::parts::{media_type, ContentPart};
use crate::core::text::JoinWith;

use super::args;
use super::tool::{ok_with, Builtin};
use crate::core::fs::SharedFs;
use crate::core::types::ToolResult;

/// `read {path, offset?, limit?}`: a media file (its extension in the §1B table) as a content
/// part; any other file whole, or the line window `offset` (1-based) .. `offset + limit`.
pub fn read(fs: SharedFs) -> Builtin {
    let schema = r#"{
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Path to the file to read"},
            "offset": {"type": "number", "description": "1-based line to start from"},
            "limit": {"type": "number", "description": "Maximum number of lines to read"}
        },
        "required": ["path"],
        "additionalProperties": false
    }"#;
    let description = "Reads a file. An image, PDF or audio file (png, jpg, jpeg, gif, webp, pdf, \
                       mp3, wav) comes back as a content part the model can see; any other file \
                       as its UTF-8 text. Give offset (first line, counting from 1) and/or limit \
                       (number of lines) to get only part of a text file.";
    Builtin::new("read", description, schema, move |args, _ctx| {
        let fs = fs.clone();
        Box::pin(async move {
            let path = args::required(&args, "path")?;
            if let Some((mime, kind)) = media_type(&path) {
                let bytes = fs.read_bytes(&path).await.map_err(|e| e.to_string())?;
                return Ok(media_result(&path, mime, kind, &bytes));
            }
            let content = fs.read(&path).await.map_err(|e| e.to_string())?;
            Ok(ToolResult::ok(window(&content, &args)))
        })
    })
}

/// A media file as a content part (SPEC §1B), its text `<path> (<mimeType>, <bytes> bytes)`
/// as every port writes it, for a model that sees only text.
fn media_result(path: &str, mime: &str, kind: &str, bytes: &[u8]) -> ToolResult {
    let name = path.rsplit('/').next().unwrap_or(path);
    let part = ContentPart {
        kind: kind.to_owned(),
        text: None,
        mime_type: Some(mime.to_owned()),
        data: Some(Base64::encode_string(bytes)),
        url: None,
        name: Some(name.to_owned()),
    };
    ToolResult {
        parts: Some(vec![part]),
        ..ToolResult::ok(format!("{path} ({mime}, {} bytes)", bytes.len()))
    }
}

/// The requested line window of `content` (all of it when neither bound is given).
fn window(content: &str, args: &Value) -> String {
    let (offset, limit) = (args::count(args, "offset"), args::count(args, "limit"));
    if offset.is_none() && limit.is_none() {
        return content.to_owned();
    }
    let lines: Vec<&str> = content.split('\n').collect();
    let start = usize::try_from(offset.unwrap_or(1).max(1) - 1).unwrap_or(0);
    let available = lines.len().saturating_sub(start);
    let take = match limit {
        Some(limit) => usize::try_from(limit.max(0)).unwrap_or(0).min(available),
        None => available,
    };
    let picked: Vec<&str> = lines.iter().skip(start).take(take).copied().collect();
    picked.join_with("\n")
}

/// `write {path, content}`: creates or replaces the file (parent directories too) and says
/// how many bytes it wrote.
pub fn write(fs: SharedFs) -> Builtin {
    let schema = r#"{
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Path to write to"},
            "content": {"type": "string", "description": "Content to write"}
        },
        "required": ["path", "content"],
        "additionalProperties": false
    }"#;
    let description = "Writes text to a file, replacing it if it exists; missing parent \
                       directories are created.";
    Builtin::new("write", description, schema, move |args, _ctx| {
        let fs = fs.clone();
        Box::pin(async move {
            let path = args::required(&args, "path")?;
            let content = args::text(&args, "content");
            fs.write(&path, &content).await.map_err(|e| e.to_string())?;
            let bytes = content.len();
            Ok(ok_with(
                format!("Wrote {bytes} bytes to {path}"),
                crate::json_value!({"bytes": bytes}),
            ))
        })
    })
}
