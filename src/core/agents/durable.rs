//! A runtime's state as plain JSON, and a runtime rebuilt from it (SPEC §7D durable resume):
//! the handle table (states, inboxes, budgets used, pending requests, checkpoints, task keys)
//! and the transition trace. Transcripts are not in it: they live in the runtime's one store,
//! which the rebuilt runtime is given again. A saved state is checked before anything is
//! rebuilt: a corrupt one, or one whose agents this registry does not have, is refused.

use std::collections::VecDeque;
use std::rc::Rc;

use super::budget::{Caps, Pools};
use super::data::HandleState;
use super::node::{Checkpoint, Node, QueuedWake};
use super::resume::ResumeError;
use super::runtime::{AgentRuntime, RuntimeOptions};
use super::snapshot::HandleRecord;
use crate::core::host::LocalBoxFuture;
use crate::core::json::record::Record;
use crate::core::json::value::Value;
use crate::core::message::Message;

/// The `format` of a saved runtime state.
pub const STATE_FORMAT: &str = "toolnexus-agent-runtime/v1";

crate::record! {
    /// A runtime at rest, as plain JSON: what [`AgentRuntime::saved_state`] gives and
    /// [`AgentRuntime::restore`] takes.
    pub struct RuntimeState as "struct RuntimeState" {
        /// Always `"toolnexus-agent-runtime/v1"`.
        pub format: String = "format",
        /// Every handle, the root first, in table order.
        pub handles: Vec<HandleRecord> = "handles",
        /// The transition trace so far.
        pub trace: Vec<String> = "trace",
    }
}

fn corrupt(message: impl Into<String>) -> ResumeError {
    ResumeError::InvalidState(format!("saved runtime state refused: {}", message.into()))
}

impl AgentRuntime {
    /// The runtime's state as plain JSON (a [`RuntimeState`]): save it between turns, for
    /// example once the root's result is `pending`, and [`restore`](Self::restore) it later.
    pub fn saved_state(&self) -> Value {
        RuntimeState {
            format: STATE_FORMAT.to_owned(),
            handles: self.snapshot(),
            trace: self.trace(),
        }
        .to_json_value()
    }

    /// The first handle with a turn in flight, if any: a state saved then could not be
    /// restored (a running turn is not data), so save when this is `None`.
    pub fn running(&self) -> Option<String> {
        let tree = self.0.tree.borrow();
        let running = tree
            .iter()
            .find(|n| n.state == HandleState::Running)
            .map(|n| n.id.to_string());
        running
    }

    /// Saves [`saved_state`](Self::saved_state) in the runtime's store, as the one message of
    /// the conversation `key` (`{"role": "state", "state": …}`). Refused while a turn runs
    /// ([`running`](Self::running)), leaving what was saved before as it was.
    pub fn save_state(&self, key: &str) -> LocalBoxFuture<'static, Result<(), ResumeError>> {
        if let Some(id) = self.running() {
            let e = ResumeError::InvalidState(format!(
                "the state is not saved while a turn runs (handle \"{id}\"); save between turns"
            ));
            return Box::pin(async move { Err(e) });
        }
        let message = Message::from_value(crate::json_value!({
            "role": "state",
            "state": (self.saved_state())
        }));
        let saving = self.0.store.save(key, &[message]);
        Box::pin(async move { saving.await.map_err(ResumeError::Store) })
    }

    /// A runtime built from `options` holding a saved `state`: its handles as they were
    /// (suspended ones still waiting on their requests, ready for [`resume`](Self::resume)),
    /// its trace continued. Handles of the saving runtime are not handles of this one; find
    /// them again by id ([`find`](Self::find)). Refused, with nothing changed: a state that is
    /// not a [`RuntimeState`], one that is inconsistent (ids, parents, children, a handle
    /// saved mid-turn), one naming agents the registry does not have; options out of range.
    ///
    /// ```
    /// use std::rc::Rc;
    /// use futures_executor::{LocalPool, LocalSpawner};
    /// use futures_util::task::{LocalFutureObj, LocalSpawn};
    /// use toolnexus::core::agents::{data::TaskStatus, registry::{AgentDef, Registry},
    ///     runtime::{AgentRuntime, RuntimeOptions, WaitOptions}};
    /// use toolnexus::core::client::store::{InMemoryStore, Store};
    /// use toolnexus::core::host::{Clock, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture, Spawn};
    /// use toolnexus::core::{json::value::Value, spec::ToolSpec, tool::{Context, Tool, SharedTool}};
    /// use toolnexus::core::types::{pending, Request, ToolResult};
    ///
    /// /// Calls `approve` until a tool result says "granted", then answers "finished".
    /// struct Model;
    /// impl Http for Model {
    ///     fn send(&self, r: &HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
    ///         let body = if r.body.as_deref().unwrap_or("").contains("granted") {
    ///             r#"{"choices":[{"message":{"role":"assistant","content":"finished"}}]}"#
    ///         } else {
    ///             r#"{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
    ///                 {"id":"c1","type":"function","function":{"name":"approve","arguments":"{}"}}]}}]}"#
    ///         };
    ///         Box::pin(async move { Ok(HttpResponse { status: 200, retry_after: None, body: body.into() }) })
    ///     }
    /// }
    /// /// Suspends for approval; with an approving answer, "granted".
    /// struct Approve(ToolSpec);
    /// impl Tool for Approve {
    ///     fn spec(&self) -> &ToolSpec { &self.0 }
    ///     fn execute(&self, _: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
    ///         let r = match ctx.answer {
    ///             Some(a) if a.ok => ToolResult::ok("granted"),
    ///             _ => pending(Request { id: "r1".into(), kind: "approval".into(),
    ///                 prompt: "may I?".into(), url: None, data: None, expires_at: None }),
    ///         };
    ///         Box::pin(async move { r })
    ///     }
    /// }
    /// struct Still;
    /// impl Clock for Still {
    ///     fn now_ms(&self) -> f64 { 0.0 }
    ///     fn sleep(&self, _: f64) -> LocalBoxFuture<'static, ()> { Box::pin(std::future::pending()) }
    /// }
    /// struct Pool(LocalSpawner);
    /// impl Spawn for Pool {
    ///     fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
    ///         self.0.spawn_local_obj(LocalFutureObj::new(task)).unwrap();
    ///     }
    /// }
    /// let schema = toolnexus::json!({"type": "object", "properties": {}});
    /// let tools: Vec<SharedTool> = vec![Rc::new(Approve(ToolSpec::new("approve", "asks", schema, "native").unwrap()))];
    /// let store: Rc<dyn Store> = Rc::new(InMemoryStore::default());
    /// let options = |pool: &LocalPool| {
    ///     let defs = vec![AgentDef { tools: vec!["approve".into()], ..AgentDef::new("asker", "asks") }];
    ///     let mut o = RuntimeOptions::new(Registry::new(defs, &tools).unwrap(), Rc::new(Model),
    ///         Rc::new(Still), Rc::new(Pool(pool.spawner())));
    ///     o.store = Some(store.clone());
    ///     o
    /// };
    ///
    /// // No `waitFor` anywhere: the run halts, and the runtime's state is saved as text.
    /// let mut pool = LocalPool::new();
    /// let rt = AgentRuntime::new(options(&pool)).unwrap();
    /// let asker = rt.spawn(rt.root(), "asker", None).unwrap();
    /// rt.wake(asker, Some("go")).unwrap();
    /// let halted = pool.run_until(rt.wait(asker, WaitOptions::default()));
    /// assert_eq!(halted.status, TaskStatus::Pending);
    /// let saved = rt.saved_state().to_string();
    /// drop(rt);
    ///
    /// // Later, elsewhere: a new runtime from the text, and the Answer.
    /// let mut pool = LocalPool::new();
    /// let state = toolnexus::core::json::parse::from_str(&saved).unwrap();
    /// let rt = AgentRuntime::restore(options(&pool), &state).unwrap();
    /// let done = pool.run_until(rt.resume(toolnexus::json!({"id": "r1", "ok": true}))).unwrap();
    /// assert_eq!((done.status, done.text.as_str()), (TaskStatus::Done, "finished"));
    /// ```
    pub fn restore(options: RuntimeOptions, state: &Value) -> Result<AgentRuntime, ResumeError> {
        match state.get("format") {
            Some(Value::String(f)) if f == STATE_FORMAT => {}
            Some(other) => {
                return Err(corrupt(format!(
                    "its format is {}, not \"{STATE_FORMAT}\"",
                    crate::core::json::text::Json(other)
                )))
            }
            None => {
                return Err(corrupt(format!(
                    "it has no format (a saved state's is \"{STATE_FORMAT}\")"
                )))
            }
        }
        let saved = RuntimeState::from_json(state.clone()).map_err(corrupt)?;
        let rt = AgentRuntime::new(options).map_err(|e| ResumeError::Options(e.0))?;
        let nodes = rt.rebuild(&saved.handles)?;
        {
            let mut tree = rt.0.tree.borrow_mut();
            for (i, node) in nodes.into_iter().enumerate() {
                if i == 0 {
                    tree[0] = node;
                } else {
                    tree.push(node);
                }
            }
        }
        *rt.0.trace.borrow_mut() = saved.trace;
        Ok(rt)
    }

    /// [`restore`](Self::restore) from what [`save_state`](Self::save_state) saved under `key`
    /// in `options.store` (which must be given).
    pub fn restore_from_store(
        options: RuntimeOptions,
        key: &str,
    ) -> LocalBoxFuture<'static, Result<AgentRuntime, ResumeError>> {
        let Some(store) = options.store.clone() else {
            let e = ResumeError::Options("restore_from_store needs the options' store".into());
            return Box::pin(async move { Err(e) });
        };
        let loading = store.get(key);
        let key = key.to_owned();
        Box::pin(async move {
            let messages = loading.await.map_err(ResumeError::Store)?;
            let state = messages
                .as_deref()
                .and_then(|m| m.first())
                .and_then(|m| m.value().get("state"))
                .cloned()
                .ok_or_else(|| {
                    corrupt(format!("the store holds no saved state under \"{key}\""))
                })?;
            AgentRuntime::restore(options, &state)
        })
    }

    /// The saved records as handles, checked against each other and the registry.
    fn rebuild(&self, records: &[HandleRecord]) -> Result<Vec<Node>, ResumeError> {
        let index = |id: &str| records.iter().position(|r| r.id == id);
        let find = |id: &str| records.iter().enumerate().find(|(_, r)| r.id == id);
        let root = records
            .first()
            .ok_or_else(|| corrupt("it has no handles"))?;
        if root.id != "root" || root.parent.is_some() {
            return Err(corrupt("its first handle is not the root"));
        }
        if let Some((_, r)) = records
            .iter()
            .enumerate()
            .find(|(i, r)| index(&r.id) != Some(*i))
        {
            return Err(corrupt(format!("handle \"{}\" is saved twice", r.id)));
        }
        let mut nodes = Vec::with_capacity(records.len());
        for (i, r) in records.iter().enumerate() {
            if r.state == HandleState::Running {
                return Err(corrupt(format!(
                    "handle \"{}\" was saved mid-turn (running); save between turns",
                    r.id
                )));
            }
            if (r.state == HandleState::Suspended) != r.pending.is_some() {
                return Err(corrupt(format!(
                    "handle \"{}\" is {} {} a pending request",
                    r.id,
                    r.state.as_str(),
                    if r.pending.is_some() {
                        "with"
                    } else {
                        "without"
                    }
                )));
            }
            let parent = match (&r.parent, i) {
                (None, 0) => None,
                (Some(p), i) if i > 0 => {
                    let (at, parent) = find(p).filter(|(at, _)| *at < i).ok_or_else(|| {
                        corrupt(format!("handle \"{}\": no parent \"{p}\" before it", r.id))
                    })?;
                    let named =
                        r.id.strip_prefix(&format!("{p}/{}.", r.agent))
                            .and_then(|n| n.parse::<u32>().ok())
                            .is_some_and(|n| n >= 1 && n <= parent.seq);
                    if !named || !parent.children.contains(&r.id) || r.depth != parent.depth + 1 {
                        return Err(corrupt(format!(
                            "handle \"{}\" does not fit under its parent \"{p}\"",
                            r.id
                        )));
                    }
                    Some(at)
                }
                _ => return Err(corrupt(format!("handle \"{}\" has no parent", r.id))),
            };
            let agent = if i == 0 {
                self.0.tree.borrow()[0].agent.clone()
            } else {
                self.0.registry.get(&r.agent).cloned().ok_or_else(|| {
                    corrupt(format!(
                        "it names agent \"{}\", which this registry does not have (known: {})",
                        r.agent,
                        self.0.registry.names().join(", ")
                    ))
                })?
            };
            r.budget
                .check()
                .map_err(|why| corrupt(format!("handle \"{}\": {why}", r.id)))?;
            if let (Some(p), Some(_)) = (parent, &r.task_key) {
                let in_team = nodes
                    .get(p)
                    .is_some_and(|n: &Node| n.agent.def.team.contains(&r.agent));
                if !in_team {
                    return Err(corrupt(format!(
                        "handle \"{}\" was delegated by `task`, but \"{}\" is not in its parent's team",
                        r.id, r.agent
                    )));
                }
            }
            let children = r
                .children
                .iter()
                .map(|c| {
                    find(c)
                        .filter(|(_, child)| child.parent.as_deref() == Some(r.id.as_str()))
                        .map(|(at, _)| at)
                        .ok_or_else(|| {
                            corrupt(format!("handle \"{}\": unknown child \"{c}\"", r.id))
                        })
                })
                .collect::<Result<Vec<usize>, _>>()?;
            let wake_queue = r
                .wake_queue
                .iter()
                .map(|q| {
                    let child = index(&q.child)
                        .filter(|at| children.contains(at))
                        .ok_or_else(|| {
                            corrupt(format!(
                                "handle \"{}\": a queued wake of no child \"{}\"",
                                r.id, q.child
                            ))
                        })?;
                    Ok(QueuedWake {
                        child,
                        prompt: q.prompt.clone(),
                    })
                })
                .collect::<Result<VecDeque<QueuedWake>, ResumeError>>()?;
            let mut node = Node::new(Rc::from(r.id.as_str()), agent, r.budget.clone(), parent);
            node.caps = Caps::of(&node.budget);
            node.depth = r.depth;
            node.children = children;
            node.inbox = r.inbox.clone();
            node.state = r.state;
            node.pools = Pools {
                tokens: r.pool_tokens,
                tool_calls: r.pool_tool_calls,
                children: r.pool_children,
            };
            node.deadline = r.deadline;
            node.usage_total = r.usage_total;
            node.tool_calls_total = r.tool_calls_total;
            node.turns_total = r.turns_total;
            node.pending = r.pending.clone();
            node.halted_call = r.halted_call.clone();
            node.last_result = r.last_result.clone();
            node.checkpoint = r.checkpoint.clone().map(|input| Checkpoint {
                input,
                calls: r.checkpoint_calls.clone(),
            });
            node.task_key = r.task_key.clone();
            node.seq = r.seq;
            node.wake_queue = wake_queue;
            // Nothing runs between turns: no slot is held.
            node.running_children = 0;
            nodes.push(node);
        }
        Ok(nodes)
    }
}
