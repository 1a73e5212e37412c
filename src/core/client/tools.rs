//! One tool call of a turn: `beforeTool`, the toolkit, the suspension rule, `afterTool`.

use crate::core::json::value::{Map, Value};
use std::rc::Rc;

use super::error::RunError;
use super::hooks::{CallInfo, Hooks, ToolOverride, WaitFor};
use super::suspend;
use super::telemetry::{RunEvents, Telemetry};
use super::turn::Settled;
use crate::core::host::{Clock, Signal};
use crate::core::tool::Context;
use crate::core::toolkit::Toolkit;
use crate::core::types::{pending_of, Request, ToolResult};
use crate::core::wire::ToolCall;

/// What the tools of a run share.
pub struct ToolEnv {
    /// Where calls are routed.
    pub toolkit: Rc<Toolkit>,
    /// Lifecycle hooks.
    pub hooks: Rc<dyn Hooks>,
    /// The host's resolver of suspensions, when it has one.
    pub wait_for: Option<Rc<dyn WaitFor>>,
    /// For `expiresAt` checks.
    pub clock: Rc<dyn Clock>,
    /// The run's signal, passed to every tool as `ctx.signal`.
    pub signal: Option<Signal>,
    /// Metric events.
    pub telemetry: Rc<Telemetry>,
    /// A streamed run's events (`pending` is emitted before `waitFor` runs).
    pub events: Option<Rc<dyn RunEvents>>,
}

impl ToolEnv {
    /// Emits the `tool` metric event; a suspension is `isError: false, pending: true`.
    pub fn tool_metric(&self, name: &str, result: &ToolResult, start_ms: f64) {
        let tool = self.toolkit.get(name);
        let source = tool.as_ref().map_or("custom", |t| t.spec().source.as_str());
        let pending = pending_of(result).is_some();
        let ms = self.clock.now_ms() - start_ms;
        self.telemetry
            .tool(name, source, result.is_error && !pending, pending, ms);
    }
}

/// How one call ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A result for the model.
    Done {
        /// The arguments the tool ran with.
        args: Value,
        /// Its result.
        result: ToolResult,
    },
    /// The tool suspended and there is no `waitFor`: the run halts on it.
    Halted {
        /// The arguments the tool ran with.
        args: Value,
        /// What it asks.
        request: Request,
        /// The placeholder result recorded in the transcript.
        placeholder: ToolResult,
    },
}

/// Runs one call through the hooks, the toolkit and the suspension rule; gives back its id
/// and name with its outcome.
pub async fn run_call(env: &ToolEnv, call: ToolCall, turn: u32) -> Settled {
    let info = CallInfo {
        name: call.name,
        id: call.id,
        turn,
    };
    let outcome = call_outcome(env, &info, call.args).await?;
    Ok((info.id, info.name, outcome))
}

/// [`run_call`]'s outcome, the call's id and name borrowed (they go back to the turn).
async fn call_outcome(
    env: &ToolEnv,
    info: &CallInfo,
    args: Result<Value, String>,
) -> Result<Outcome, RunError> {
    let args = match args {
        Ok(args) => args,
        Err(why) => {
            let message = format!("Invalid arguments for tool \"{}\": {why}", info.name);
            let args = Value::Object(Map::new());
            let result = ToolResult::error(message);
            env.tool_metric(&info.name, &result, env.clock.now_ms());
            return Ok(Outcome::Done { args, result });
        }
    };
    let hook = |message| RunError::Hook {
        hook: "beforeTool",
        message,
    };
    let start = env.clock.now_ms();
    let before = if env.hooks.has_before_tool() {
        env.hooks.before_tool(info, &args).await.map_err(hook)?
    } else {
        ToolOverride::default()
    };
    let args = before.args.unwrap_or(args);
    let (result, ran) = match before.result {
        Some(result) => (result, false),
        None => {
            let ctx = Context {
                signal: env.signal.clone(),
                ..Context::default()
            };
            (env.toolkit.execute_ref(&info.name, &args, ctx).await, true)
        }
    };
    if let Some(request) = pending_of(&result) {
        env.tool_metric(&info.name, &result, start);
        // Boxed: a suspension is rare, and its future would make every call's future larger.
        return Box::pin(suspend::resolve(env, info, args, request)).await;
    }
    let result = if ran {
        after_tool(env, info, &args, result).await?
    } else {
        result
    };
    env.tool_metric(&info.name, &result, start);
    Ok(Outcome::Done { args, result })
}

/// `afterTool`: may replace a (non-suspended) result.
pub async fn after_tool(
    env: &ToolEnv,
    info: &CallInfo,
    args: &Value,
    result: ToolResult,
) -> Result<ToolResult, RunError> {
    if !env.hooks.has_after_tool() {
        return Ok(result);
    }
    let replaced = env
        .hooks
        .after_tool(info, args, &result)
        .await
        .map_err(|message| RunError::Hook {
            hook: "afterTool",
            message,
        })?;
    Ok(replaced.unwrap_or(result))
}
