//! An agent as a uniform `Tool` (SPEC §7D, `source: "agent"`; the reference's `asTool`), and a
//! one-shot run of an agent on a runtime (its `run`). The tool takes `{prompt}`, runs the agent
//! on a fresh runtime and returns only its final text, with `{agent, turns, totalTokens}`.

use std::rc::Rc;

use super::close::CloseOptions;
use super::data::{TaskResult, TaskStatus};
use super::runtime::{AgentRuntime, WaitOptions};
use crate::core::host::LocalBoxFuture;
use crate::core::json::value::{Map, Value};
use crate::core::spec::{SpecError, ToolSpec};
use crate::core::tool::{Context, Tool};
use crate::core::types::ToolResult;

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
        })
    }
}

impl Tool for AgentTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, args: Value, _ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        let rt = (self.runtime)();
        let name = self.spec.name.clone();
        Box::pin(async move {
            let prompt = match args.get("prompt") {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => "undefined".to_owned(),
            };
            let r = run_once(&rt, &name, &prompt).await;
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
