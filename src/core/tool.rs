//! The uniform `Tool` (SPEC §1): a spec the model sees, and an async `execute`.

use crate::core::json::value::Value;
use std::rc::Rc;

use super::host::{LocalBoxFuture, Signal};
use super::spec::ToolSpec;
use super::types::{Answer, Request, ToolResult};

/// What a tool receives beside its arguments (SPEC §1 `Context`).
///
/// ```
/// # use toolnexus::core::tool::Context;
/// let ctx = Context::default();
/// assert!(ctx.answer.is_none());
/// ```
#[derive(Clone, Default)]
pub struct Context {
    /// Fires when the caller gives up (run aborted, deadline passed).
    pub signal: Option<Signal>,
    /// The caller's time budget for this call, in milliseconds.
    pub timeout_ms: Option<f64>,
    /// Present only on the retry after `waitFor` resolved a suspension (SPEC §10).
    pub answer: Option<Answer>,
    /// With `answer`: the suspension it answers (the `Request` the tool's `pending` result
    /// carried, possibly read back from a durable halt), so a tool that keeps its state in the
    /// request's `data` (a remote A2A task's id) can continue where it stopped.
    pub request: Option<Request>,
}

/// One tool, whatever its source. `execute` never fails: a failure is an error [`ToolResult`].
///
/// ```
/// use toolnexus::{core::json::value::Value, json};
/// use toolnexus::core::{host::LocalBoxFuture, spec::ToolSpec, tool::{Context, Tool}, types::ToolResult};
/// struct Echo(ToolSpec);
/// impl Tool for Echo {
///     fn spec(&self) -> &ToolSpec { &self.0 }
///     fn execute(&self, args: Value, _ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
///         Box::pin(async move { ToolResult::ok(args.to_string()) })
///     }
/// }
/// let echo = Echo(ToolSpec::new("echo", "", json!({"type": "object"}), "native").unwrap());
/// assert_eq!(echo.spec().name, "echo");
/// ```
pub trait Tool {
    /// Name, description, input schema and source.
    fn spec(&self) -> &ToolSpec;
    /// Runs the tool with already-validated arguments.
    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult>;
    /// [`execute`](Self::execute) with borrowed arguments, for a caller that keeps them. The
    /// default copies them; a tool that only reads them (a JS tool writes them out as text)
    /// says so by overriding this, and is never given a copy.
    fn execute_ref(&self, args: &Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        self.execute(args.clone(), ctx)
    }
}

/// A shared tool.
pub type SharedTool = Rc<dyn Tool>;
