//! One checked tool call: argument shape and schema validation, then the tool raced against
//! the caller's signal and time budget, so a tool that never settles cannot hang its caller.

use crate::core::json::value::{Map, Value};
use futures_util::future::select_all;
use std::rc::Rc;

use super::host::{Clock, LocalBoxFuture};
use super::schema;
use super::spec::json_type;
use super::tool::{Context, SharedTool};
use super::types::ToolResult;

/// Runs `tool` after checking `args` (`null` counts as `{}`) against its input schema.
///
/// ```
/// # use toolnexus::core::toolkit::Toolkit;
/// let kit = Toolkit::default();
/// let out = futures_executor::block_on(kit.execute("nope", toolnexus::json!({}), Default::default()));
/// assert_eq!(out.output, "Unknown tool: nope. Available tools: none");
/// ```
pub fn run_checked(
    tool: SharedTool,
    args: Value,
    ctx: Context,
    clock: Option<Rc<dyn Clock>>,
) -> LocalBoxFuture<'static, ToolResult> {
    let args = match check_args(&tool, args) {
        Ok(args) => args,
        Err(message) => return Box::pin(async move { ToolResult::error(message) }),
    };
    raced(&tool, ctx, clock, |tool, ctx| tool.execute(args, ctx))
}

/// [`run_checked`] with borrowed arguments, for a caller that keeps them (the agent loop
/// records them): the tool gets them through [`Tool::execute_ref`](super::tool::Tool), so a
/// tool that only reads them is never given a copy.
///
/// ```
/// # use toolnexus::core::toolkit::Toolkit;
/// let kit = Toolkit::default();
/// let out = futures_executor::block_on(kit.execute_ref("nope", &toolnexus::json!({}), Default::default()));
/// assert_eq!(out.output, "Unknown tool: nope. Available tools: none");
/// ```
pub fn run_checked_ref(
    tool: SharedTool,
    args: &Value,
    ctx: Context,
    clock: Option<Rc<dyn Clock>>,
) -> LocalBoxFuture<'static, ToolResult> {
    let checked = match args {
        Value::Null => check_args(&tool, Value::Null).map(Some),
        args => check_shape_and_schema(&tool, args).map(|()| None),
    };
    match checked {
        Err(message) => Box::pin(async move { ToolResult::error(message) }),
        // `null` counts as `{}`: the tool gets the (empty, unallocated) object.
        Ok(Some(empty)) => raced(&tool, ctx, clock, |tool, ctx| tool.execute(empty, ctx)),
        Ok(None) => raced(&tool, ctx, clock, |tool, ctx| tool.execute_ref(args, ctx)),
    }
}

/// Starts the call (`call`) raced against the caller's signal and time budget, when it has
/// either; otherwise the tool's own future, with nothing copied. Only the start is generic over
/// `call`: the racing is [`guards`] and [`race`], one copy in the module for every caller.
fn raced(
    tool: &SharedTool,
    ctx: Context,
    clock: Option<Rc<dyn Clock>>,
    call: impl FnOnce(&SharedTool, Context) -> LocalBoxFuture<'static, ToolResult>,
) -> LocalBoxFuture<'static, ToolResult> {
    match guards(tool, &ctx, clock) {
        Guards::None => call(tool, ctx),
        Guards::Aborted(message) => Box::pin(async move { ToolResult::error(message) }),
        Guards::Race(racers) => race(call(tool, ctx), racers),
    }
}

/// What may stop a call before its tool settles.
enum Guards {
    /// Nothing: no signal, no time budget.
    None,
    /// The signal already fired: the call must not start.
    Aborted(String),
    /// The signal's and the timer's futures, each settling to the error it reports.
    Race(Vec<LocalBoxFuture<'static, ToolResult>>),
}

fn guards(tool: &SharedTool, ctx: &Context, clock: Option<Rc<dyn Clock>>) -> Guards {
    let timer = ctx.timeout_ms.zip(clock);
    if ctx.signal.is_none() && timer.is_none() {
        return Guards::None;
    }
    let name = tool.spec().name.clone();
    if let Some(signal) = ctx.signal.as_ref().filter(|s| s.is_aborted()) {
        return Guards::Aborted(aborted_message(&name, &signal.reason()));
    }
    let mut racers: Vec<LocalBoxFuture<'static, ToolResult>> = Vec::with_capacity(3);
    if let Some(signal) = ctx.signal.clone() {
        let name = name.clone();
        racers.push(Box::pin(async move {
            signal.wait().await;
            ToolResult::error(aborted_message(&name, &signal.reason()))
        }));
    }
    if let Some((ms, clock)) = timer {
        racers.push(Box::pin(async move {
            clock.sleep(ms).await;
            ToolResult::error(format!(
                "Tool \"{name}\" timed out after {} ms",
                super::jsfmt::number(ms)
            ))
        }));
    }
    Guards::Race(racers)
}

/// The tool's future raced against `racers`: the first to settle gives the result.
fn race(
    call: LocalBoxFuture<'static, ToolResult>,
    mut racers: Vec<LocalBoxFuture<'static, ToolResult>>,
) -> LocalBoxFuture<'static, ToolResult> {
    racers.insert(0, call);
    Box::pin(async move { select_all(racers).await.0 })
}

fn check_args(tool: &SharedTool, args: Value) -> Result<Value, String> {
    let args = match args {
        Value::Null => Value::Object(Map::new()),
        args => args,
    };
    check_shape_and_schema(tool, &args).map(|()| args)
}

/// Arguments must be an object matching the tool's input schema.
fn check_shape_and_schema(tool: &SharedTool, args: &Value) -> Result<(), String> {
    let spec = tool.spec();
    if !args.is_object() {
        return Err(format!(
            "Invalid arguments for tool \"{}\": arguments must be a JSON object, got {}",
            spec.name,
            json_type(args)
        ));
    }
    let issues = schema::validate(args, &spec.input_schema);
    if issues.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "Invalid arguments for tool \"{}\": {}",
            spec.name,
            schema::describe(&issues)
        ))
    }
}

fn aborted_message(name: &str, reason: &str) -> String {
    if reason.is_empty() {
        format!("Tool \"{name}\" was aborted")
    } else {
        format!("Tool \"{name}\" was aborted: {reason}")
    }
}
