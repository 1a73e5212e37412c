//! Why a run failed. Messages name the status and the endpoint path, never a key or a header
//! value: every message passes through [`redact`].

use crate::core::wire::WireError;

/// A failed run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    /// The endpoint answered with a non-2xx status.
    #[error("LLM {status} from {path}: {body}")]
    Status {
        /// The HTTP status.
        status: u16,
        /// The endpoint path, such as `/v1/chat/completions`.
        path: String,
        /// The response body (truncated).
        body: String,
    },
    /// The request got no response.
    #[error("LLM request to {path} failed: {message}")]
    Network {
        /// The endpoint path.
        path: String,
        /// What the transport said.
        message: String,
    },
    /// The response could not be read.
    #[error("LLM response from {path} could not be read: {source}")]
    BadResponse {
        /// The endpoint path.
        path: String,
        /// What was wrong with it.
        source: WireError,
    },
    /// A hook threw or rejected.
    #[error("{hook} hook failed: {message}")]
    Hook {
        /// `beforeLLM`, `afterLLM`, `beforeTool`, `afterTool` or `bodyTransform`.
        hook: &'static str,
        /// What it threw.
        message: String,
    },
    /// The run's signal fired or its deadline passed.
    #[error("The run was aborted: {0}")]
    Aborted(String),
    /// An in-process model failed.
    #[error("the in-process model failed: {0}")]
    Model(String),
    /// A durable resume was refused: the answer does not match the request, or the history
    /// has no outstanding call for it. Nothing was changed.
    #[error("cannot resume: {0}")]
    InvalidResume(String),
    /// The run was given a history the host keeps (`RunInput::history_host`) that it cannot
    /// use: a hook needs the messages, or the transport cannot put the text in.
    #[error("cannot continue the history: {0}")]
    HostHistory(String),
    /// A content part of the transcript cannot be sent: it is not well-formed, or the
    /// provider has no block for a part the caller attached. Nothing was sent.
    #[error("{0}")]
    Part(#[from] crate::core::parts::PartError),
    /// A retry would have waited past the run's deadline, so the call failed at once.
    #[error(
        "{cause}; a retry would wait {} ms, past the run's deadline (timeoutMs)",
        crate::core::jsfmt::number(*.wait_ms)
    )]
    PastDeadline {
        /// How long the retry would have waited.
        wait_ms: f64,
        /// The failure that would have been retried.
        cause: Box<RunError>,
    },
}

impl RunError {
    /// A stable code for the JS `Error.code`.
    ///
    /// ```
    /// # use toolnexus::core::client::error::RunError;
    /// assert_eq!(RunError::Aborted("x".into()).code(), "aborted");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            RunError::Status { .. } => "http_status",
            RunError::Network { .. } => "network",
            RunError::BadResponse { .. } => "bad_response",
            RunError::Hook { .. } => "hook",
            RunError::Aborted(_) => "aborted",
            RunError::Model(_) => "model",
            RunError::PastDeadline { .. } => "timeout",
            RunError::InvalidResume(_) => "invalid_resume",
            RunError::HostHistory(_) => "invalid_options",
            RunError::Part(e) => e.code(),
        }
    }
}

/// Replaces every occurrence of each secret in `text` with `[redacted]`.
///
/// ```
/// # use toolnexus::core::client::error::redact;
/// assert_eq!(redact("bad key sk-123456", &["sk-123456".into()]), "bad key [redacted]");
/// ```
pub fn redact(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_owned();
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        if crate::core::text::find(&out, secret).is_some() {
            out = crate::core::text::replace(&out, secret, "[redacted]");
        }
    }
    out
}

/// The path part of a URL, for messages (`http://h:1/v1/messages?x` → `/v1/messages`).
///
/// ```
/// # use toolnexus::core::client::error::url_path;
/// assert_eq!(url_path("http://127.0.0.1:8080/v1/chat/completions"), "/v1/chat/completions");
/// ```
pub fn url_path(url: &str) -> String {
    let after_scheme = crate::core::text::split_once(url, "://").map_or(url, |(_, rest)| rest);
    let path = after_scheme
        .find('/')
        .map_or("/", |i| after_scheme.get(i..).unwrap_or("/"));
    path.split(['?', '#']).next().unwrap_or("/").to_owned()
}

/// Keeps at most `max` characters of a response body for an error message.
pub fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!(
            "{}… ({} bytes in all)",
            text.get(..cut).unwrap_or(""),
            text.len()
        ),
        None => text.to_owned(),
    }
}
