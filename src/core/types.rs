//! The contract's data types (SPEC §0, §1, §10): `ToolResult`, `Request`, `Answer`, and
//! `sanitize`. Their JSON keys are fixed across every toolnexus port.

use crate::core::value::{Map, Value};
use serde::Deserialize;
#[cfg(not(target_arch = "wasm32"))]
use serde::Serialize;

use crate::core::json_read::{Kind, Record};

/// What a tool hands back to the model.
///
/// ```
/// use toolnexus::core::types::ToolResult;
/// let r = ToolResult::ok("42");
/// assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"output":"42","isError":false}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Serialize))]
pub struct ToolResult {
    /// Text handed back to the model.
    pub output: String,
    /// Whether the tool failed (or suspended: see [`pending`]).
    #[serde(rename = "isError")]
    pub is_error: bool,
    /// Free-form extra data; `metadata.pending` marks a suspension.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
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
            output: output.into(),
            is_error: true,
            metadata: None,
        }
    }
}

/// An out-of-band question a suspended tool asks the host (SPEC §10).
///
/// ```
/// # use toolnexus::core::types::Request;
/// let r: Request = serde_json::from_str(r#"{"id":"1","kind":"approval","prompt":"Send?"}"#).unwrap();
/// assert_eq!(r.kind, "approval");
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Serialize))]
pub struct Request {
    /// Unique per suspension; the correlation key an [`Answer`] echoes.
    pub id: String,
    /// `"authorization" | "approval" | "input" | "question" | …` (open vocabulary).
    pub kind: String,
    /// What is being asked, in human words.
    pub prompt: String,
    /// Present when the action happens at a link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Kind-specific extra data (for example `data.schema`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Map<String, Value>>,
    /// RFC 3339 instant after which the request is stale.
    #[serde(rename = "expiresAt", default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
}

/// The host's resolution of a [`Request`].
///
/// ```
/// # use toolnexus::core::types::Answer;
/// let a: Answer = serde_json::from_str(r#"{"id":"1","ok":false,"reason":"declined"}"#).unwrap();
/// assert!(!a.ok);
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Serialize))]
pub struct Answer {
    /// Echoes `Request.id`.
    pub id: String,
    /// Satisfied, versus declined / cancelled / expired.
    pub ok: bool,
    /// Kind-specific payload (for example the value entered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Map<String, Value>>,
    /// Advisory reason when `ok` is false: `"declined" | "cancelled" | "expired"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl ToolResult {
    /// Reads a `ToolResult` from JSON, with serde's error texts (see [`crate::core::json_read`]).
    ///
    /// ```
    /// # use toolnexus::core::types::ToolResult;
    /// let r = ToolResult::from_json(toolnexus::json!({"output": "3", "isError": false})).unwrap();
    /// assert_eq!(r, ToolResult::ok("3"));
    /// ```
    pub fn from_json(value: Value) -> Result<ToolResult, String> {
        let mut r = Record::of(value, "struct ToolResult")?.check(|key| match key {
            "output" => Some(Kind::String),
            "isError" => Some(Kind::Bool),
            "metadata" => Some(Kind::OptionalMap),
            _ => None,
        })?;
        let (output, is_error) = (r.string("output")?, r.boolean("isError")?);
        Ok(ToolResult {
            output,
            is_error,
            metadata: r.optional_map("metadata")?,
        })
    }
}

impl Request {
    /// Reads a `Request` from JSON, with serde's error texts (see [`crate::core::json_read`]).
    ///
    /// ```
    /// # use toolnexus::core::types::Request;
    /// let bad = Request::from_json(toolnexus::json!({"id": "1", "kind": "approval"}));
    /// assert_eq!(bad.unwrap_err(), "missing field `prompt`");
    /// ```
    pub fn from_json(value: Value) -> Result<Request, String> {
        let mut r = Record::of(value, "struct Request")?.check(|key| match key {
            "id" | "kind" | "prompt" => Some(Kind::String),
            "url" | "expiresAt" => Some(Kind::OptionalString),
            "data" => Some(Kind::OptionalMap),
            _ => None,
        })?;
        let (id, kind, prompt) = (r.string("id")?, r.string("kind")?, r.string("prompt")?);
        Ok(Request {
            id,
            kind,
            prompt,
            url: r.optional_string("url")?,
            data: r.optional_map("data")?,
            expires_at: r.optional_string("expiresAt")?,
        })
    }
}

impl Answer {
    /// Reads an `Answer` from JSON, with serde's error texts (see [`crate::core::json_read`]).
    ///
    /// ```
    /// # use toolnexus::core::types::Answer;
    /// let a = Answer::from_json(toolnexus::json!({"id": "1", "ok": true, "data": null})).unwrap();
    /// assert!(a.ok && a.data.is_none());
    /// ```
    pub fn from_json(value: Value) -> Result<Answer, String> {
        let mut r = Record::of(value, "struct Answer")?.check(|key| match key {
            "id" => Some(Kind::String),
            "ok" => Some(Kind::Bool),
            "data" => Some(Kind::OptionalMap),
            "reason" => Some(Kind::OptionalString),
            _ => None,
        })?;
        let (id, ok) = (r.string("id")?, r.boolean("ok")?);
        Ok(Answer {
            id,
            ok,
            data: r.optional_map("data")?,
            reason: r.optional_string("reason")?,
        })
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
    metadata.insert("pending".to_owned(), request_to_value(&request));
    ToolResult {
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

fn request_to_value(request: &Request) -> Value {
    let mut map = Map::new();
    map.insert("id".into(), Value::String(request.id.clone()));
    map.insert("kind".into(), Value::String(request.kind.clone()));
    map.insert("prompt".into(), Value::String(request.prompt.clone()));
    if let Some(url) = &request.url {
        map.insert("url".into(), Value::String(url.clone()));
    }
    if let Some(data) = &request.data {
        map.insert("data".into(), Value::Object(data.clone()));
    }
    if let Some(expires_at) = &request.expires_at {
        map.insert("expiresAt".into(), Value::String(expires_at.clone()));
    }
    Value::Object(map)
}
