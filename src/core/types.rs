//! The contract's data types (SPEC §0, §1, §10): `ToolResult`, `Request`, `Answer`, and
//! `sanitize`. Their JSON keys are fixed across every toolnexus port.

use crate::core::json::record::Record;
use crate::core::json::value::{Map, Value};

crate::record! {
    /// What a tool hands back to the model. `metadata.pending` marks a suspension.
    ///
    /// ```
    /// use toolnexus::core::{json::record::Record, types::ToolResult};
    /// let r = ToolResult::ok("42");
    /// assert_eq!(r.to_json_text(), r#"{"output":"42","isError":false}"#);
    /// ```
    pub struct ToolResult as "struct ToolResult" {
        /// Text handed back to the model.
        pub output: String = "output",
        /// Whether the tool failed (or suspended: see `pending`).
        pub is_error: bool = "isError",
        /// Free-form extra data; `metadata.pending` marks a suspension.
        pub metadata: Option<Map<String, Value>> = "metadata",
        /// Images, files or audio the tool returns beside `output` (SPEC §1B): they reach the
        /// model as blocks where the provider takes them, while text-only consumers
        /// (compaction, estimates, older providers) see `output`. Absent, the result is
        /// byte-identical to one without parts.
        pub parts: Option<Vec<crate::core::parts::ContentPart>> = "parts",
    }
}
impl ToolResult {
    /// A successful result.
    ///
    /// ```
    /// # use toolnexus::core::types::ToolResult;
    /// assert!(!ToolResult::ok("done").is_error);
    /// ```
    pub fn ok(output: impl Into<String>) -> Self {
        ToolResult {
            parts: None,
            output: output.into(),
            is_error: false,
            metadata: None,
        }
    }

    /// A failed result the model can read.
    ///
    /// ```
    /// # use toolnexus::core::types::ToolResult;
    /// assert!(ToolResult::error("no such city").is_error);
    /// ```
    pub fn error(output: impl Into<String>) -> Self {
        ToolResult {
            parts: None,
            output: output.into(),
            is_error: true,
            metadata: None,
        }
    }
}

crate::record! {
    /// An out-of-band question a suspended tool asks the host (SPEC §10). Keys are fixed
    /// across ports.
    ///
    /// ```
    /// use toolnexus::core::{json::record::Record, types::Request};
    /// let r = Request::from_json(toolnexus::json!({"id": "1", "kind": "approval", "prompt": "Send?"})).unwrap();
    /// assert_eq!(r.kind, "approval");
    /// ```
    pub struct Request as "struct Request" {
        /// Unique per suspension; the correlation key an `Answer` echoes.
        pub id: String = "id",
        /// What kind of question (an open vocabulary).
        pub kind: String = "kind"
            as r#""authorization" | "approval" | "input" | "question" | "tool_call" | (string & {})"#,
        /// What is being asked, in human words.
        pub prompt: String = "prompt",
        /// Present when the action happens at a link.
        pub url: Option<String> = "url",
        /// Kind-specific extra data (for example `data.schema`).
        pub data: Option<Map<String, Value>> = "data",
        /// When the request goes stale: an ISO 8601 date-time that `Date.parse` reads
        /// (`"2030-01-02"`, `"2030-01-02T03:04Z"`, a Date's `toISOString()`; without an offset a
        /// date-time is local time, a date alone UTC). An answer after it is declined as
        /// expired; `pending` throws `invalid_request` for any other text.
        pub expires_at: Option<String> = "expiresAt",
    }
}

crate::record! {
    /// The host's resolution of a `Request`.
    ///
    /// ```
    /// use toolnexus::core::{json::record::Record, types::Answer};
    /// let a = Answer::from_json(toolnexus::json!({"id": "1", "ok": false, "reason": "declined"})).unwrap();
    /// assert!(!a.ok);
    /// ```
    pub struct Answer as "struct Answer" {
        /// Echoes `Request.id`.
        pub id: String = "id",
        /// Satisfied, versus declined / cancelled / expired.
        pub ok: bool = "ok",
        /// Kind-specific payload (for example the value entered).
        pub data: Option<Map<String, Value>> = "data",
        /// Advisory reason when `ok` is false.
        pub reason: Option<String> = "reason"
            as r#""declined" | "cancelled" | "expired" | (string & {})"#,
    }
}

/// Replaces every character outside `[a-zA-Z0-9_-]` with `_` (SPEC §0.2).
///
/// ```
/// # use toolnexus::core::types::sanitize;
/// assert_eq!(sanitize("my server.v2"), "my_server_v2");
/// ```
pub fn sanitize(value: &str) -> String {
    value
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Builds a suspension: a [`ToolResult`] with `metadata.pending = request`, `isError: true`, and
/// `output` = the prompt, plus `\n` and the url when one is set.
///
/// ```
/// # use toolnexus::core::types::{pending, Request};
/// let req = Request { id: "p1".into(), kind: "authorization".into(), prompt: "Log in".into(),
///     url: Some("https://x/login".into()), data: None, expires_at: None };
/// let r = pending(req);
/// assert_eq!(r.output, "Log in\nhttps://x/login");
/// assert!(r.is_error);
/// ```
pub fn pending(request: Request) -> ToolResult {
    let output = match &request.url {
        Some(url) => format!("{}\n{}", request.prompt, url),
        None => request.prompt.clone(),
    };
    let mut metadata = Map::new();
    metadata.insert("pending".to_owned(), request.to_json_value());
    ToolResult {
        parts: None,
        output,
        is_error: true,
        metadata: Some(metadata),
    }
}

/// Reads the suspension off a result; `None` for every ordinary result, failures included.
///
/// ```
/// # use toolnexus::core::types::{pending_of, ToolResult};
/// assert!(pending_of(&ToolResult::error("boom")).is_none());
/// ```
pub fn pending_of(result: &ToolResult) -> Option<Request> {
    let value = result.metadata.as_ref()?.get("pending")?;
    request_from_value(value)
}

/// Decodes a `Request` from JSON, or `None` when the value is not one (wrong or missing keys).
pub fn request_from_value(value: &Value) -> Option<Request> {
    Request::from_json(value.clone()).ok()
}
