//! An agent as a uniform `Tool` (SPEC §7D, `source: "agent"`; the reference's `asTool`), and a
//! one-shot run of an agent on a runtime (its `run`). The tool takes `{prompt}`, runs the agent
//! on a fresh runtime and returns only its final text, with `{agent, turns, totalTokens}`; when
//! something inside the run asks and nothing there answers, the tool suspends with that request
//! and its retry with the Answer resumes the parked run.

use std::cell::RefCell;
use std::rc::Rc;

use super::close::CloseOptions;
use super::data::{HandleState, TaskResult, TaskStatus};
use super::runtime::{AgentRuntime, WaitOptions};
use crate::core::host::LocalBoxFuture;
use crate::core::json::record::Record;
use crate::core::json::value::{Map, Value};
use crate::core::spec::{SpecError, ToolSpec};
use crate::core::tool::{Context, Tool};
use crate::core::types::{pending, Request, ToolResult};

/// Runs agent `name` once on `rt` with `prompt`: spawned under the root, woken, waited for,
/// and closed with its subtree after, unless the run is pending (then it stays parked for a
/// resume).
/// A refused spawn or wake is an `error` or `incomplete` result, never a panic.
pub async fn run_once(rt: &AgentRuntime, name: &str, prompt: &str) -> TaskResult {
    let h = match rt.spawn(rt.root(), name, None) {
        Ok(h) => h,
        Err(e) => return TaskResult::settled(e.0, TaskStatus::Error, 0, 0),
    };
    if rt.wake(h, Some(prompt)).is_err() {
        // The refusal settled the handle's result (a budget stop names its limit).
        return rt.wait(h, WaitOptions::default()).await;
    }
    let result = rt.wait(h, WaitOptions::default()).await;
    if result.status != TaskStatus::Pending {
        rt.close(h, CloseOptions::default()).await;
    }
    result
}

/// The request a pending run of `rt` halted on, as its inner tool's own (same id, kind, prompt,
/// url, data), with `data.path` naming the whole chain down to the handle whose tool asked and
/// `data.haltedCall` that call (`{handle, tool, args}`, [`AgentRuntime::halted_call`]): what
/// the host answering it (a client's `waitFor`, its stream's `pending` event) needs to show
/// "researcher → `fetch_page({url})`". A request no handle halted on is given as it is.
///
/// ```no_run
/// # use toolnexus::core::agents::as_tool::escalated;
/// # fn rt() -> toolnexus::core::agents::runtime::AgentRuntime { unimplemented!() }
/// # fn asked() -> toolnexus::core::types::Request { unimplemented!() }
/// let shown = escalated(&rt(), &asked());
/// // shown.data: {"url": …, "path": ["root", "lead.1", "researcher.1"],
/// //              "haltedCall": {"handle": "root/lead.1/researcher.1", "tool": "fetch_page", "args": {…}}}
/// ```
pub fn escalated(rt: &AgentRuntime, request: &Request) -> Request {
    let Some(halted) = rt.halted_call(&request.id) else {
        return request.clone();
    };
    let mut out = request.clone();
    let mut data = out.data.take().unwrap_or_default();
    let path = halted
        .handle
        .split('/')
        .map(|s| Value::String(s.to_owned()));
    data.insert("path".into(), Value::Array(path.collect()));
    data.insert("haltedCall".into(), halted.to_json_value());
    out.data = Some(data);
    out
}

/// Makes the runtime each call of an [`AgentTool`] runs on.
pub type RuntimeFactory = Rc<dyn Fn() -> AgentRuntime>;

/// An agent as a tool: `name` is the agent's, `description` its `does`.
///
/// ```no_run
/// # use toolnexus::core::agents::as_tool::{AgentTool, RuntimeFactory};
/// # fn make() -> toolnexus::core::agents::runtime::AgentRuntime { unimplemented!() }
/// let factory: RuntimeFactory = std::rc::Rc::new(make);
/// let tool = AgentTool::new("explore", "read-only research", factory).unwrap();
/// # use toolnexus::core::tool::Tool;
/// assert_eq!(tool.spec().source, "agent");
/// ```
pub struct AgentTool {
    spec: ToolSpec,
    runtime: RuntimeFactory,
    /// Runs parked on a request, by its id, until the call is retried with the Answer.
    parked: Rc<RefCell<Vec<(String, AgentRuntime)>>>,
}

impl AgentTool {
    /// The tool for agent `name`; each call runs on a fresh runtime from `runtime`.
    pub fn new(name: &str, does: &str, runtime: RuntimeFactory) -> Result<AgentTool, SpecError> {
        let schema = crate::json_value!({
            "type": "object",
            "properties": {"prompt": {"type": "string", "description": "The task for this agent"}},
            "required": ["prompt"]
        });
        Ok(AgentTool {
            spec: ToolSpec::new(name, does, schema, "agent")?,
            runtime,
            parked: Rc::default(),
        })
    }
}

impl Tool for AgentTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    /// A suspension inside the agent's run is the tool's own (SPEC §10): the run parks and the
    /// tool returns the inner request; the call retried with the Answer resumes that run
    /// ([`AgentRuntime::resume`]) instead of starting another.
    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        let name = self.spec.name.clone();
        let parked = self.parked.clone();
        let resumed = ctx.answer.map(|answer| {
            let mut runs = parked.borrow_mut();
            let at = runs.iter().position(|(id, _)| *id == answer.id);
            (answer, at.map(|i| runs.remove(i).1))
        });
        let fresh = resumed.is_none().then(|| (self.runtime)());
        Box::pin(async move {
            let (rt, r) = match (resumed, fresh) {
                (Some((answer, Some(rt))), _) => {
                    let r = match rt.resume(answer.to_json_value()).await {
                        Ok(r) => r,
                        Err(e) => TaskResult::settled(e.to_string(), TaskStatus::Error, 0, 0),
                    };
                    (rt, r)
                }
                (Some((answer, None)), _) => {
                    return ToolResult::error(format!(
                        "no run of agent \"{name}\" waits on request \"{}\" (it ended, or ran in another process)",
                        answer.id
                    ))
                }
                (None, Some(rt)) => {
                    let prompt = match args.get("prompt") {
                        Some(Value::String(s)) => s.clone(),
                        Some(other) => other.to_string(),
                        None => "undefined".to_owned(),
                    };
                    let r = run_once(&rt, &name, &prompt).await;
                    (rt, r)
                }
                (None, None) => return ToolResult::error("no runtime"),
            };
            if let (TaskStatus::Pending, Some(request)) = (r.status, &r.pending) {
                let request = escalated(&rt, request);
                parked.borrow_mut().push((request.id.clone(), rt));
                return pending(request);
            }
            if rt.state(rt.root()) != HandleState::Closed {
                rt.close(rt.root(), CloseOptions::default()).await;
            }
            let mut metadata = Map::new();
            metadata.insert("agent".into(), Value::String(name));
            metadata.insert("turns".into(), Value::from(r.turns));
            metadata.insert("totalTokens".into(), Value::from(r.total_tokens));
            ToolResult {
                output: r.text,
                is_error: r.is_error,
                metadata: Some(metadata),
                parts: None,
            }
        })
    }
}
