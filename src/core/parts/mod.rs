//! Content parts (SPEC §1B): images, files and audio beside text, in prompts and tool results.
//! A part is bytes (standard base64 in `data`) or an `https:` URL, never a path, so it survives
//! a stored transcript. Its `mimeType` comes from the caller or the fixed extension table
//! ([`MEDIA_TYPES`]), never from sniffing. [`make`] builds parts at the edge, [`encode`] maps them
//! onto a provider's blocks (§8A).
//!
//! ```
//! use toolnexus::core::parts::{ContentPart, describe};
//! let p = ContentPart::image_data("image/png", "iVBORw0KGgo=");
//! assert!(p.validate().is_ok());
//! assert_eq!(describe(&p), "image (image/png, 8 bytes)");
//! ```

pub mod encode;
pub mod make;

/// The fixed extension table: extension, MIME type, part type. No sniffing, no platform
/// database (it would differ between machines and ports).
pub const MEDIA_TYPES: [(&str, &str, &str); 8] = [
    ("png", "image/png", "image"),
    ("jpg", "image/jpeg", "image"),
    ("jpeg", "image/jpeg", "image"),
    ("gif", "image/gif", "image"),
    ("webp", "image/webp", "image"),
    ("pdf", "application/pdf", "file"),
    ("mp3", "audio/mpeg", "audio"),
    ("wav", "audio/wav", "audio"),
];

/// The MIME type and part type of a file name's extension (any case), from [`MEDIA_TYPES`].
///
/// ```
/// # use toolnexus::core::parts::media_type;
/// assert_eq!(media_type("shot.PNG"), Some(("image/png", "image")));
/// assert_eq!(media_type("notes.txt"), None);
/// ```
pub fn media_type(file_name: &str) -> Option<(&'static str, &'static str)> {
    let (_, ext) = file_name.rsplit_once('.')?;
    if ext.contains('/') {
        return None;
    }
    MEDIA_TYPES
        .iter()
        .find(|(e, _, _)| e.eq_ignore_ascii_case(ext))
        .map(|(_, mime, kind)| (*mime, *kind))
}

crate::record! {
    /// One piece of content (SPEC §1B): text, or an image, file or audio as bytes (`data`,
    /// standard base64) or a URL. The same flat record in every port; `mimeType` is its wire key.
    ///
    /// ```
    /// use toolnexus::core::{json::record::Record, parts::ContentPart};
    /// let p = ContentPart::from_json(toolnexus::json!({"type": "image", "mimeType": "image/png", "url": "https://x.test/a.png"})).unwrap();
    /// assert_eq!(p.to_json_text(), r#"{"type":"image","mimeType":"image/png","url":"https://x.test/a.png"}"#);
    /// ```
    pub struct ContentPart as "struct ContentPart" {
        /// What the part holds.
        pub kind: String = "type" as r#""text" | "image" | "file" | "audio""#,
        /// A text part's text.
        pub text: Option<String> = "text",
        /// The MIME type of an image, file or audio part (`image/png`, `application/pdf`, …).
        pub mime_type: Option<String> = "mimeType",
        /// The bytes, standard base64 (padded, no line breaks); exactly one of `data` and `url`.
        pub data: Option<String> = "data",
        /// Where the bytes are (`https:`), sent to the provider as a URL; never fetched here.
        pub url: Option<String> = "url",
        /// A file name, for providers that show one (a PDF's).
        pub name: Option<String> = "name",
    }
}

/// A part that is not well-formed (code `invalid_part`), or one a provider cannot take
/// (code `unsupported_part`). The message never holds a part's data.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PartError {
    /// Both or neither of `data` and `url`, bad base64, an unknown type or extension, a part
    /// over `maxPartBytes`, a URL that is not `http(s):`.
    #[error("{0}")]
    Invalid(String),
    /// No block of `style` takes this part type (or this MIME type).
    #[error("no \"{style}\" block shape for a {kind} part{}", mime.as_ref().map(|m| format!(" ({m})")).unwrap_or_default())]
    Unsupported {
        /// The part's type.
        kind: String,
        /// Its MIME type.
        mime: Option<String>,
        /// The provider style (`openai`, `anthropic`).
        style: String,
    },
}

impl PartError {
    /// The error code a caller sees: `invalid_part` or `unsupported_part`.
    ///
    /// ```
    /// # use toolnexus::core::parts::PartError;
    /// assert_eq!(PartError::Invalid("x".into()).code(), "invalid_part");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            PartError::Invalid(_) => "invalid_part",
            PartError::Unsupported { .. } => "unsupported_part",
        }
    }
}

fn invalid(message: impl Into<String>) -> PartError {
    PartError::Invalid(message.into())
}

impl ContentPart {
    /// A text part.
    ///
    /// ```
    /// # use toolnexus::core::parts::ContentPart;
    /// assert_eq!(ContentPart::text("hi").text.as_deref(), Some("hi"));
    /// ```
    pub fn text(text: impl Into<String>) -> ContentPart {
        ContentPart {
            kind: "text".into(),
            text: Some(text.into()),
            mime_type: None,
            data: None,
            url: None,
            name: None,
        }
    }

    /// An image part from base64 bytes (not checked: see [`validate`](Self::validate)).
    pub fn image_data(mime_type: &str, data: &str) -> ContentPart {
        ContentPart {
            kind: "image".into(),
            text: None,
            mime_type: Some(mime_type.into()),
            data: Some(data.into()),
            url: None,
            name: None,
        }
    }

    /// Checks §1B: a text part has text; an image, file or audio part has a `mimeType` and
    /// exactly one of `data` (valid standard base64) and `url` (`http:` or `https:`).
    ///
    /// ```
    /// # use toolnexus::core::parts::ContentPart;
    /// let mut p = ContentPart::image_data("image/png", "iVBORw0KGgo=");
    /// p.url = Some("https://x.test/a.png".into());
    /// assert_eq!(p.validate().unwrap_err().to_string(), "a image part carries both data and url — exactly one is allowed");
    /// ```
    pub fn validate(&self) -> Result<(), PartError> {
        let kind = self.kind.as_str();
        if kind == "text" {
            return match self.text {
                Some(_) => Ok(()),
                None => Err(invalid("a text part needs text")),
            };
        }
        if !matches!(kind, "image" | "file" | "audio") {
            return Err(invalid(format!("unknown content part type \"{kind}\"")));
        }
        if self.mime_type.as_deref().is_none_or(str::is_empty) {
            return Err(invalid(format!("a {kind} part needs a mimeType")));
        }
        match (&self.data, &self.url) {
            (Some(_), Some(_)) => Err(invalid(format!(
                "a {kind} part carries both data and url — exactly one is allowed"
            ))),
            (None, None) => Err(invalid(format!(
                "a {kind} part carries neither data nor url — exactly one is required"
            ))),
            (Some(data), None) => make::check_base64(kind, data),
            (None, Some(url)) => make::check_url(kind, url),
        }
    }

    /// The decoded size of `data` in bytes (0 for a URL or text part), without decoding it.
    ///
    /// ```
    /// # use toolnexus::core::parts::ContentPart;
    /// assert_eq!(ContentPart::image_data("image/png", "AAAA").bytes(), 3);
    /// ```
    pub fn bytes(&self) -> usize {
        self.data.as_deref().map(decoded_len).unwrap_or(0)
    }
}

/// The part a content block is when it is a §1B part (its `type` a part type and, but for
/// text, a `mimeType`), else `None`: a provider's own block is not one.
///
/// ```
/// # use toolnexus::core::parts::from_block;
/// assert!(from_block(&toolnexus::json!({"type": "image", "mimeType": "image/png", "url": "https://x.test/a.png"})).is_some());
/// assert!(from_block(&toolnexus::json!({"type": "image_url", "image_url": {"url": "https://x.test/a.png"}})).is_none());
/// ```
pub fn from_block(block: &crate::core::json::value::Value) -> Option<ContentPart> {
    use crate::core::json::value::Value;
    let is_part = match block.get("type")?.as_str()? {
        "text" => block.get("text").is_some_and(Value::is_string),
        "image" | "file" | "audio" => block.get("mimeType").is_some_and(Value::is_string),
        _ => false,
    };
    if !is_part {
        return None;
    }
    ContentPart::from_json(block.clone()).ok()
}

crate::record! {
    /// A part as a metric event names it (SPEC §9): its type, MIME type and decoded size,
    /// never its bytes.
    ///
    /// ```
    /// use toolnexus::core::{json::record::Record, parts::{ContentPart, PartSummary}};
    /// let s = PartSummary::of(&ContentPart::image_data("image/png", "AAAA"));
    /// assert_eq!(s.to_json_text(), r#"{"type":"image","mimeType":"image/png","bytes":3}"#);
    /// ```
    pub struct PartSummary as "struct PartSummary" {
        /// The part's type.
        pub kind: String = "type" as r#""image" | "file" | "audio""#,
        /// Its MIME type.
        pub mime_type: Option<String> = "mimeType",
        /// Its decoded size in bytes (0 for a URL).
        pub bytes: usize = "bytes",
    }
}

impl PartSummary {
    /// The summary of `part`.
    pub fn of(part: &ContentPart) -> Self {
        PartSummary {
            kind: part.kind.clone(),
            mime_type: part.mime_type.clone(),
            bytes: part.bytes(),
        }
    }
}

/// What a request does with a part the provider has no block for (the client's
/// `onUnsupportedPart`): by default an attached part fails and a tool's becomes its
/// placeholder text; a choice here applies to both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnUnsupported {
    /// Fail the request with `unsupported_part` before it is sent.
    Error,
    /// Send the part's placeholder text instead.
    Text,
}

/// The decoded length of standard base64 text, from its length and padding.
///
/// ```
/// # use toolnexus::core::parts::decoded_len;
/// assert_eq!(decoded_len("AAA="), 2);
/// ```
pub fn decoded_len(base64: &str) -> usize {
    let pad = base64.bytes().rev().take(2).filter(|b| *b == b'=').count();
    (base64.len() / 4 * 3).saturating_sub(pad)
}

/// A part in words, where it is described rather than sent (§8A), the same in every port:
/// `<type> (<mimeType>, <bytes> bytes)`.
pub fn describe(part: &ContentPart) -> String {
    format!(
        "{} ({}, {} bytes)",
        part.kind,
        part.mime_type.as_deref().unwrap_or("None"),
        part.bytes()
    )
}

/// What a tool's part becomes when the provider cannot take it (§8A), the same in every port:
/// `[unsupported <type> part (<mimeType>, <bytes> bytes)]`.
///
/// ```
/// # use toolnexus::core::parts::{placeholder, ContentPart};
/// let mut p = ContentPart::image_data("audio/wav", "AAAA");
/// p.kind = "audio".into();
/// assert_eq!(placeholder(&p), "[unsupported audio part (audio/wav, 3 bytes)]");
/// ```
pub fn placeholder(part: &ContentPart) -> String {
    format!(
        "[unsupported {} part ({}, {} bytes)]",
        part.kind,
        part.mime_type.as_deref().unwrap_or("None"),
        part.bytes()
    )
}

/// A part's share of a token estimate (§1B): a quarter of a text's characters (at least 1);
/// for bytes, one token per 750 (at least 85), so a large image is not free to a compactor.
///
/// ```
/// # use toolnexus::core::parts::{estimate_tokens, ContentPart};
/// assert_eq!(estimate_tokens(&ContentPart::text("abcdefgh")), 2);
/// assert_eq!(estimate_tokens(&ContentPart::image_data("image/png", "AAAA")), 85);
/// ```
pub fn estimate_tokens(part: &ContentPart) -> usize {
    match part.kind.as_str() {
        "text" => (part.text.as_deref().unwrap_or("").chars().count() / 4).max(1),
        _ => (part.bytes() / 750).max(85),
    }
}
