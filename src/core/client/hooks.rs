//! The host's seams into the loop: lifecycle hooks, the request-body transform, and
//! `waitFor`. Each is optional; `has_*` lets the loop skip the cost of calling an absent one.

use crate::core::json::value::Value;

use crate::core::host::LocalBoxFuture;
use crate::core::message::Message;
use crate::core::types::{Request, ToolResult};

/// What `beforeLLM` may replace for the rest of the run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LlmOverride {
    /// A replacement transcript.
    pub messages: Option<Vec<Value>>,
    /// A replacement tool list (in the dialect's schema).
    pub tools: Option<Value>,
}

/// What `beforeTool` may do: short-circuit with a result, or rewrite the arguments.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolOverride {
    /// Used instead of running the tool (it may itself be a suspension).
    pub result: Option<ToolResult>,
    /// Replacement arguments.
    pub args: Option<Value>,
}

/// A hook's failure message (what it threw); it stops the run.
pub type HookResult<T> = LocalBoxFuture<'static, Result<T, String>>;

/// Where a tool call is in the run.
#[derive(Debug, Clone, PartialEq)]
pub struct CallInfo {
    /// The tool's name.
    pub name: String,
    /// The provider's call id.
    pub id: String,
    /// The zero-based turn.
    pub turn: u32,
}

/// Lifecycle hooks (SPEC §8 Hooks). Every method has a do-nothing default.
///
/// ```
/// # use toolnexus::core::client::hooks::{Hooks, NoHooks};
/// assert!(!NoHooks.has_before_llm());
/// ```
pub trait Hooks {
    /// Whether `before_llm` does anything.
    fn has_before_llm(&self) -> bool {
        false
    }
    /// Before each model call; may replace messages and tools.
    fn before_llm(
        &self,
        _messages: &[Message],
        _tools: &Value,
        _model: &str,
        _turn: u32,
    ) -> HookResult<LlmOverride> {
        Box::pin(async { Ok(LlmOverride::default()) })
    }
    /// Whether `after_llm` does anything.
    fn has_after_llm(&self) -> bool {
        false
    }
    /// After each model call, with the raw response.
    fn after_llm(&self, _response: &Value, _model: &str, _turn: u32) -> HookResult<()> {
        Box::pin(async { Ok(()) })
    }
    /// Whether `before_tool` does anything (when not, the loop never calls it). An
    /// implementation of `before_tool` says `true`.
    fn has_before_tool(&self) -> bool {
        false
    }
    /// Before a tool runs.
    fn before_tool(&self, _call: &CallInfo, _args: &Value) -> HookResult<ToolOverride> {
        Box::pin(async { Ok(ToolOverride::default()) })
    }
    /// Whether `after_tool` does anything (when not, the loop never calls it). An
    /// implementation of `after_tool` says `true`.
    fn has_after_tool(&self) -> bool {
        false
    }
    /// After a tool ran (never on a suspension); may replace the result.
    fn after_tool(
        &self,
        _call: &CallInfo,
        _args: &Value,
        _result: &ToolResult,
    ) -> HookResult<Option<ToolResult>> {
        Box::pin(async { Ok(None) })
    }
    /// Whether `body_transform` does anything (when not, the body is serialized straight from
    /// the transcript, without a copy). An implementation of `body_transform` says `true`.
    fn has_body_transform(&self) -> bool {
        false
    }
    /// The final request body, just before it is sent; returns the body to send.
    fn body_transform(&self, body: Value) -> Result<Value, String> {
        Ok(body)
    }
    /// `onError`: `Some(true)` retries a failed model call, `Some(false)` fails it, `None`
    /// keeps the default (retry what is retryable). A retry is always bounded by `retries`.
    fn on_error(&self, _info: &ErrorInfo) -> Option<bool> {
        None
    }
}

/// A failed model call, as `onError` sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorInfo {
    /// The transport's message, when there was no response.
    pub error: Option<String>,
    /// The HTTP status, when there was one.
    pub status: Option<u16>,
    /// Zero-based attempt.
    pub attempt: u32,
    /// Whether the default policy would retry it (429, 5xx gateway codes, network).
    pub retryable: bool,
}

/// No hooks at all.
pub struct NoHooks;

impl Hooks for NoHooks {}

/// The host slot that resolves a suspension (SPEC §10). It returns the raw answer: the loop
/// checks its shape, its `id` and the request's expiry itself. An `Err` (a throw or a
/// rejection) counts as `{ok: false, reason: "cancelled"}`.
pub trait WaitFor {
    /// Resolves one request.
    fn wait_for(&self, request: &Request) -> LocalBoxFuture<'static, Result<Value, String>>;

    /// Whether this slot answers `request` at all; when it does not, the run halts on it as
    /// if no `waitFor` were set (the agent runtime's interpreters answer only their subtree's
    /// requests). Every host slot answers every request.
    fn interprets(&self, _request: &Request) -> bool {
        true
    }
}
