//! The `task` tool (SPEC §7D model surface): spawn → wake → wait → close fused, for a parent to
//! delegate to a member of its team. The child runs on a fresh transcript; the parent gets
//! exactly one tool result with the child's final text and `{agent, turns, totalTokens}`. A
//! re-invoked call with the same agent and prompt reattaches to the existing child, never a
//! second spawn.

use crate::core::json::value::{Map, Value};
use crate::core::text::JoinWith;

use super::close::CloseOptions;
use super::data::{HandleState, TaskResult, TaskStatus};
use super::node::OneShot;
use super::runtime::{pending_result, AgentRuntime, Handle, WaitOptions};
use crate::core::host::LocalBoxFuture;
use crate::core::spec::ToolSpec;
use crate::core::tool::{Context, Tool};
use crate::core::types::{pending, Answer, ToolResult};

/// The `task` tool of one parent handle.
pub struct TaskTool {
    rt: AgentRuntime,
    parent: Handle,
    /// The parent's team, sorted.
    team: Vec<String>,
    spec: ToolSpec,
}

impl TaskTool {
    /// The tool advertising `team` (sorted by name, each with what it does).
    pub fn new(rt: AgentRuntime, parent: Handle, team: &[String]) -> TaskTool {
        let mut team = team.to_vec();
        team.sort_unstable();
        let advertised: Vec<String> = team
            .iter()
            .map(|n| match rt.0.registry.get(n) {
                Some(agent) => format!("{n}: {}", agent.def.does),
                None => n.clone(),
            })
            .collect();
        let description = format!(
            "Delegate a subtask to an isolated subagent (it runs on a fresh transcript and returns only its final answer). Available agents — {}",
            advertised.join_with("; ")
        );
        let schema = crate::json_value!({
            "type": "object",
            "properties": {
                "agent": {"type": "string", "description": "Team agent to delegate to"},
                "prompt": {"type": "string", "description": "The subtask prompt"}
            },
            "required": ["agent", "prompt"]
        });
        // A fixed name and schema, known valid: built as the built-ins build theirs, with no
        // check that could only fail by a typo here (and would then panic the module).
        let spec = ToolSpec {
            name: "task".to_owned(),
            description,
            input_schema: schema.into(),
            source: "native".to_owned(),
        };
        TaskTool {
            rt,
            parent,
            team,
            spec,
        }
    }
}

/// An argument as JavaScript's `String(x)` reads it, for the strings a schema guarantees.
fn text_arg(args: &Value, key: &str) -> String {
    match args.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => "undefined".to_owned(),
    }
}

impl Tool for TaskTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        let answer = ctx.answer;
        let (rt, parent, team) = (self.rt.clone(), self.parent, self.team.clone());
        Box::pin(async move {
            let name = text_arg(&args, "agent");
            let prompt = text_arg(&args, "prompt");
            if !team.contains(&name) {
                let available = if team.is_empty() {
                    "none".to_owned()
                } else {
                    team.join_with(", ")
                };
                return ToolResult::error(format!(
                    "agent \"{name}\" is not in this agent's team (available: {available})"
                ));
            }
            let key = format!("{name}:{prompt}");
            let (child, result) = match rt.reattach(parent, &key) {
                Some(existing) => {
                    let r = rt.reattached_result(parent, existing, answer).await;
                    (existing, r)
                }
                None => {
                    let child = match rt.spawn(parent, &name, None) {
                        Ok(child) => child,
                        Err(e) => return ToolResult::error(e.0),
                    };
                    rt.0.tree.borrow_mut()[child.0].task_key = Some(key);
                    if let Err(e) = rt.wake(child, Some(&prompt)) {
                        return ToolResult::error(e.0);
                    }
                    let waited = rt.wait(
                        child,
                        WaitOptions {
                            timeout_ms: None,
                            by: Some(parent),
                        },
                    );
                    (child, waited.await)
                }
            };
            if let (TaskStatus::Pending, Some(request)) = (result.status, &result.pending) {
                // A suspending agent is a suspending tool: §10 unchanged, path stamped.
                return pending(request.clone());
            }
            if rt.state(child) != HandleState::Closed {
                rt.close(child, CloseOptions::default()).await;
            }
            task_output(&name, result)
        })
    }
}

impl AgentRuntime {
    /// The parent's child spawned by `task` with this key, if any.
    fn reattach(&self, parent: Handle, key: &str) -> Option<Handle> {
        let tree = self.0.tree.borrow();
        tree[parent.0]
            .children
            .iter()
            .copied()
            .find(|&c| tree[c].task_key.as_deref() == Some(key))
            .map(|c| self.handle(c))
    }

    /// What a reattached child answers: its pending request (or, when the retried call carries
    /// the Answer to it, the child resumed inline with it), its running turn's result, or its
    /// recorded result.
    async fn reattached_result(
        &self,
        parent: Handle,
        child: Handle,
        answer: Option<Answer>,
    ) -> TaskResult {
        let line = {
            let tree = self.0.tree.borrow();
            let node = &tree[child.0];
            format!(
                "{}: task replay → REATTACH to {} (state {})",
                tree[parent.0].id,
                node.id,
                node.state.as_str()
            )
        };
        self.t(line);
        let state = self.state(child);
        match state {
            HandleState::Suspended => {
                let request = self.0.tree.borrow()[child.0].pending.clone();
                match (request, answer) {
                    (Some(request), Some(answer)) if answer.id == request.id => {
                        let shot = OneShot { request, answer };
                        self.resume_suspended(child, Some(shot), true).await
                    }
                    _ => pending_result(&self.0.tree.borrow()[child.0]),
                }
            }
            HandleState::Running => {
                self.wait(
                    child,
                    WaitOptions {
                        timeout_ms: None,
                        by: Some(parent),
                    },
                )
                .await
            }
            _ => {
                let tree = self.0.tree.borrow();
                let node = &tree[child.0];
                node.last_result.clone().unwrap_or_else(|| {
                    TaskResult::settled(
                        format!("no recorded result for {}", node.id),
                        TaskStatus::Error,
                        node.turns_total,
                        node.usage_total,
                    )
                })
            }
        }
    }
}

/// The parent's tool result for a settled child.
fn task_output(agent: &str, r: TaskResult) -> ToolResult {
    let output = if r.status == TaskStatus::Done {
        r.text
    } else {
        format!("[{}] {}", r.status.as_str(), r.text)
    };
    let mut metadata = Map::new();
    metadata.insert("agent".into(), Value::String(agent.into()));
    metadata.insert("turns".into(), Value::from(r.turns));
    metadata.insert("totalTokens".into(), Value::from(r.total_tokens));
    ToolResult {
        output,
        is_error: r.is_error,
        metadata: Some(metadata),
        parts: None,
    }
}
