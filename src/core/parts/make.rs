//! Parts made at the edge, from what a caller holds: bytes, a `data:` URL or an `http(s):` URL
//! (the JavaScript side adds `Blob`s and, in Node and Deno, paths). Bytes are base64-encoded
//! here, once, and checked against the `maxPartBytes` limit in decoded bytes.
//!
//! ```
//! use toolnexus::core::parts::make::{from_bytes, Options};
//! let p = from_bytes("image", &[137, 80, 78, 71], &Options { mime_type: Some("image/png"), ..Options::default() }).unwrap();
//! assert_eq!(p.data.as_deref(), Some("iVBORw=="));
//! ```

use base64ct::{Base64, Encoding as _};

use super::{decoded_len, invalid, media_type, ContentPart, PartError};

/// What a constructor may be told beside its source.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options<'a> {
    /// The MIME type; else the extension table's for the source's name or URL.
    pub mime_type: Option<&'a str>,
    /// The part's `name` (a file name); else the source's own, when it has one.
    pub name: Option<&'a str>,
    /// The largest part, in decoded bytes; `None` for no limit.
    pub max_part_bytes: Option<usize>,
}

/// A part of type `kind` holding `bytes`; `file_name` (a `File`'s, a path's last segment)
/// gives the name and, without an explicit `mime_type`, the MIME type through the table.
pub fn from_named_bytes(
    kind: &str,
    bytes: &[u8],
    file_name: Option<&str>,
    options: &Options,
) -> Result<ContentPart, PartError> {
    let mut part = from_named_size(kind, bytes.len(), file_name, options)?;
    part.data = Some(Base64::encode_string(bytes));
    Ok(part)
}

/// What [`from_named_bytes`] makes of `size` bytes, checked, but without its `data`: for a
/// host that base64-encodes the bytes itself (a platform encoder), so they never cross into
/// the module.
///
/// ```
/// use toolnexus::core::parts::make::{from_named_size, Options};
/// let p = from_named_size("image", 4, Some("a.png"), &Options::default()).unwrap();
/// assert_eq!((p.mime_type.as_deref(), p.data, p.name.as_deref()), (Some("image/png"), None, Some("a.png")));
/// ```
pub fn from_named_size(
    kind: &str,
    size: usize,
    file_name: Option<&str>,
    options: &Options,
) -> Result<ContentPart, PartError> {
    let mime = match (options.mime_type, file_name) {
        (Some(mime), _) if !mime.is_empty() => mime.to_owned(),
        (_, Some(file)) => mime_of(file)?.to_owned(),
        _ => {
            return Err(invalid(
                "a mimeType is required when building a part from bytes",
            ))
        }
    };
    check_limit(size, options.max_part_bytes)?;
    Ok(part(
        kind,
        mime,
        None,
        None,
        options.name.or(file_name).map(str::to_owned),
    ))
}

/// A part of type `kind` holding `bytes` (its `mimeType` must be given).
pub fn from_bytes(kind: &str, bytes: &[u8], options: &Options) -> Result<ContentPart, PartError> {
    from_named_bytes(kind, bytes, None, options)
}

/// A part of type `kind` from a string source: a `data:<mime>;base64,<data>` URL (kept as its
/// bytes) or an `http(s):` URL (kept as a URL; its MIME type from the table when not given).
/// Anything else is refused here; a path is the host's to read.
///
/// ```
/// use toolnexus::core::parts::make::{from_string, Options};
/// let p = from_string("image", "https://x.test/shot.png", &Options::default()).unwrap();
/// assert_eq!(p.mime_type.as_deref(), Some("image/png"));
/// ```
pub fn from_string(kind: &str, source: &str, options: &Options) -> Result<ContentPart, PartError> {
    let name = options.name.map(str::to_owned);
    if let Some(rest) = source.strip_prefix("data:") {
        let (head, payload) = rest
            .split_once(',')
            .filter(|(head, payload)| head.ends_with(";base64") && !payload.is_empty())
            .ok_or_else(|| invalid("only base64 data: URLs are supported"))?;
        let mime = head.split(';').next().unwrap_or_default();
        if mime.is_empty() {
            return Err(invalid("data: URL carries no mime type"));
        }
        check_base64(kind, payload)?;
        check_limit(decoded_len(payload), options.max_part_bytes)?;
        let mime = options.mime_type.filter(|m| !m.is_empty()).unwrap_or(mime);
        return Ok(part(
            kind,
            mime.to_owned(),
            Some(payload.to_owned()),
            None,
            name,
        ));
    }
    check_url(kind, source)?;
    let mime = match options.mime_type.filter(|m| !m.is_empty()) {
        Some(mime) => mime,
        None => media_type(url_path(source))
            .map(|(mime, _)| mime)
            .ok_or_else(|| {
                invalid(
                    "a mimeType is required for a URL whose extension is not in the media table",
                )
            })?,
    };
    Ok(part(
        kind,
        mime.to_owned(),
        None,
        Some(source.to_owned()),
        name,
    ))
}

/// Refuses a `data` that is not standard base64 (padded, no line breaks or spaces).
pub(crate) fn check_base64(kind: &str, data: &str) -> Result<(), PartError> {
    let body = data.trim_end_matches('=');
    let well_formed = data.len() % 4 == 0
        && data.len() - body.len() <= 2
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
    if well_formed {
        Ok(())
    } else {
        Err(invalid(format!(
            "a {kind} part's data is not standard base64"
        )))
    }
}

/// Refuses a URL that is not `http:` or `https:` (`file:`, `javascript:`, a path).
pub(crate) fn check_url(kind: &str, url: &str) -> Result<(), PartError> {
    let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
    let slashes = url
        .split_once(':')
        .is_some_and(|(_, rest)| rest.starts_with("//"));
    match scheme.as_deref() {
        Some("https" | "http") if slashes => Ok(()),
        _ => Err(invalid(format!(
            "a {kind} part's url must be an http: or https: URL, got {}",
            scheme.map_or_else(|| "no scheme".to_owned(), |s| format!("a {s}: URL"))
        ))),
    }
}

/// The limit, in decoded bytes.
pub(crate) fn check_limit(size: usize, limit: Option<usize>) -> Result<(), PartError> {
    match limit {
        Some(limit) if size > limit => Err(invalid(format!(
            "content part is {size} decoded bytes, over the maxPartBytes limit of {limit}"
        ))),
        _ => Ok(()),
    }
}

/// The MIME type of a file name's extension, or the error that asks for one.
fn mime_of(file_name: &str) -> Result<&'static str, PartError> {
    media_type(file_name).map(|(mime, _)| mime).ok_or_else(|| {
        invalid(match file_name.rsplit_once('.') {
            Some((_, ext)) if !ext.is_empty() && !ext.contains('/') => {
                format!("unknown file extension \".{ext}\" — pass an explicit mimeType")
            }
            _ => "file has no extension — pass an explicit mimeType".to_owned(),
        })
    })
}

/// A URL's path, without its query and fragment.
fn url_path(url: &str) -> &str {
    url.split(['?', '#']).next().unwrap_or(url)
}

fn part(
    kind: &str,
    mime: String,
    data: Option<String>,
    url: Option<String>,
    name: Option<String>,
) -> ContentPart {
    ContentPart {
        kind: kind.to_owned(),
        text: None,
        mime_type: Some(mime),
        data,
        url,
        name,
    }
}
