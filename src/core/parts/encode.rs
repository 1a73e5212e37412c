//! The provider block of a part (SPEC §8A), behind a positive list: each (style, part type) has
//! one block shape or a named refusal, and a block of any other type never reaches the wire
//! (a provider answers an unknown block with 200 and drops it).
//!
//! ```
//! use toolnexus::core::parts::{encode::block, ContentPart};
//! let p = ContentPart::image_data("image/png", "AAAA");
//! assert_eq!(block(&p, "anthropic").unwrap(), toolnexus::json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}}));
//! assert_eq!(block(&p, "openai").unwrap(), toolnexus::json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}));
//! ```

use crate::core::json::value::Value;
use crate::json_value as json;

use super::{ContentPart, PartError};

/// The block types each style takes, by part type; a pair not listed is refused.
const ALLOWED: [(&str, &str, &str); 7] = [
    ("openai", "text", "text"),
    ("openai", "image", "image_url"),
    ("openai", "file", "file"),
    ("openai", "audio", "input_audio"),
    ("anthropic", "text", "text"),
    ("anthropic", "image", "image"),
    ("anthropic", "file", "document"),
];

/// OpenAI's `input_audio` format of a MIME type.
fn audio_format(mime: &str) -> Option<&'static str> {
    match mime {
        "audio/mpeg" | "audio/mp3" => Some("mp3"),
        "audio/wav" | "audio/x-wav" => Some("wav"),
        _ => None,
    }
}

/// The block of `part` in `style` (`openai` or `anthropic`), or why there is none.
pub fn block(part: &ContentPart, style: &str) -> Result<Value, PartError> {
    let unsupported = || PartError::Unsupported {
        kind: part.kind.clone(),
        mime: part.mime_type.clone(),
        style: style.to_owned(),
    };
    let allowed = ALLOWED
        .iter()
        .find(|(s, kind, _)| *s == style && *kind == part.kind)
        .map(|(_, _, block)| *block)
        .ok_or_else(unsupported)?;
    let block = match style {
        "openai" => openai(part),
        _ => anthropic(part),
    }
    .ok_or_else(unsupported)?;
    // An encoder that drifted from the list cannot reach the wire.
    if block.get("type").and_then(Value::as_str) != Some(allowed) {
        return Err(unsupported());
    }
    Ok(block)
}

fn data_url(part: &ContentPart, data: &str) -> String {
    format!(
        "data:{};base64,{data}",
        part.mime_type.as_deref().unwrap_or_default()
    )
}

fn openai(part: &ContentPart) -> Option<Value> {
    let text = || part.text.clone().unwrap_or_default();
    Some(match (part.kind.as_str(), &part.data, &part.url) {
        ("text", _, _) => json!({"type": "text", "text": text()}),
        ("image", _, Some(url)) => json!({"type": "image_url", "image_url": {"url": url}}),
        ("image", Some(data), None) => {
            json!({"type": "image_url", "image_url": {"url": data_url(part, data)}})
        }
        // Chat Completions has no URL form of a file, and wants the data URL, not bare base64.
        ("file", Some(data), None) => json!({"type": "file", "file": {
            "filename": part.name.clone().unwrap_or_else(|| "file".into()),
            "file_data": data_url(part, data),
        }}),
        ("audio", Some(data), None) => json!({"type": "input_audio", "input_audio": {
            "data": data,
            "format": audio_format(part.mime_type.as_deref().unwrap_or_default())?,
        }}),
        _ => return None,
    })
}

fn anthropic(part: &ContentPart) -> Option<Value> {
    let block = match part.kind.as_str() {
        "text" => {
            return Some(json!({"type": "text", "text": part.text.clone().unwrap_or_default()}))
        }
        "image" => "image",
        "file" => "document",
        // Anthropic has no audio block.
        _ => return None,
    };
    let source = match (&part.data, &part.url) {
        (_, Some(url)) => json!({"type": "url", "url": url}),
        (Some(data), None) => {
            json!({"type": "base64", "media_type": part.mime_type.clone(), "data": data})
        }
        (None, None) => return None,
    };
    Some(json!({"type": block, "source": source}))
}
