//! One turn of a handle: its client built from the runtime's settings and the agent's def,
//! one `ask` on the handle's conversation (id = handle id) with the turn's input, then the
//! outcome recorded: usage rolled up the tree (the budget ledger), the state moved on, the
//! transition traced, the waiters answered. A failure is a result, never a panic or a throw.

use std::cell::RefCell;
use std::rc::Rc;

use futures_util::future::{select, Either};

use super::admission::{pool_limit, turn_cap};
use super::completion::{exhausted_text, retry_prompt, stopped, Attempts, Completion, Verdict};
use super::data::{HaltedCall, HandleState, RecordedCall, TaskResult, TaskStatus};
use super::interpreter::Interpreter;
use super::node::{Checkpoint, OneShot};
use super::replay::{recorded_calls, replaying};
use super::runtime::{AgentRuntime, Handle};
use super::signal::{AbortHandle, TurnAbort};
use super::task::TaskTool;
use crate::core::client::config::ClientConfig;
use crate::core::client::hooks::{Hooks, NoHooks};
use crate::core::client::result::{RunResult, Status, ToolCallRecord};
use crate::core::client::run::{Client, RunInput};
use crate::core::client::telemetry::Telemetry;
use crate::core::host::{Cancel, LocalBoxFuture, Signal};
use crate::core::json::value::Value;
use crate::core::message::Message;
use crate::core::tool::SharedTool;
use crate::core::toolkit::{Sources, Toolkit};
use crate::core::types::Request;

impl AgentRuntime {
    /// Runs the admitted turn `h` with `input` to its end and settles it.
    pub(super) async fn execute_turn(self, h: Handle, input: String) {
        let abort = self.0.tree.borrow()[h.0].abort.clone().unwrap_or_default();
        let outcome = self.run_turn(h, &input, &abort).await;
        let result = match outcome {
            Ok((pre_turn, run)) => self.record_run(h, input, pre_turn, run).await,
            Err(message) => self.record_failure(h, &abort, message),
        };
        self.release_child_slot(h);
        self.settle(h, result);
    }

    /// The turn's runs with the stored transcript before them (for a rewind): one `ask`, or,
    /// under the agent's completion gate, as many as it takes. Each run is spent from the
    /// budgets as it ends; a re-ask is made only while none of them is exhausted.
    async fn run_turn(
        &self,
        h: Handle,
        input: &str,
        abort: &Rc<TurnAbort>,
    ) -> Result<(Vec<Message>, RunResult), String> {
        let id = self.id(h);
        let store = self.0.store.clone();
        let pre_turn = store.get(&id).await?.unwrap_or_default();
        let (one_shot, replay, gate) = {
            let mut tree = self.0.tree.borrow_mut();
            let node = &mut tree[h.0];
            let gate = node.agent.def.completion.clone();
            (node.one_shot.take(), std::mem::take(&mut node.replay), gate)
        };
        let (mut client, toolkit) = self.client_for(h, one_shot, replay);
        let signal: Signal = Rc::new(AbortHandle(abort.clone()));
        let mut attempts = Attempts::default();
        let mut prompt = input.to_owned();
        let mut attempt = 1;
        loop {
            let mut run = RunInput::new(toolkit.clone(), prompt.as_str().into());
            run.signal = Some(signal.clone());
            let result = client
                .ask(store.clone(), id.clone(), run)
                .await
                .map_err(|e| e.to_string())?;
            self.spend(h, &result);
            let Some(gate) = &gate else {
                return Ok((pre_turn, result));
            };
            let judged = attempts.add(result);
            // A run that stopped on its own (a suspension, a limit) is not judged.
            if judged.status != Status::Done {
                return Ok((pre_turn, judged));
            }
            let verdict = self.judge(h, gate, &judged, abort).await?;
            if verdict.ok {
                return Ok((pre_turn, judged));
            }
            let reason = verdict.reason.unwrap_or_else(|| "unspecified".into());
            if attempt >= gate.max_attempts {
                let text = exhausted_text(gate.max_attempts, &reason);
                return Ok((pre_turn, stopped(judged, "completion", text)));
            }
            if let Some(limit) = self.live_limit(h) {
                return Ok((pre_turn, stopped(judged, limit, String::new())));
            }
            attempt += 1;
            prompt = retry_prompt(&reason);
            // What is left of the turn cap and the deadline, as this re-ask starts.
            client.config = Rc::new(self.config_for(h));
        }
    }

    /// The gate's verdict on `judged`, raced against the turn's abort and the chain's
    /// deadline (either one ends the turn as an interruption or a `maxWallMs` stop).
    async fn judge(
        &self,
        h: Handle,
        gate: &Completion,
        judged: &RunResult,
        abort: &Rc<TurnAbort>,
    ) -> Result<Verdict, String> {
        let verdict = gate.verify.verify(judged);
        let fired = AbortHandle(abort.clone()).wait();
        let deadline = self.0.tree.borrow()[h.0].deadline;
        let late: LocalBoxFuture<'static, ()> = match deadline {
            Some(d) => self.0.clock.sleep((d - self.0.clock.now_ms()).max(0.0)),
            None => Box::pin(std::future::pending()),
        };
        match select(verdict, select(fired, late)).await {
            Either::Left((Ok(verdict), _)) => Ok(verdict),
            Either::Left((Err(why), _)) => Err(format!("completion.verify {why}")),
            Either::Right(_) if abort.is_aborted() => Err(abort.reason()),
            Either::Right(_) => Err("maxWallMs".into()),
        }
    }

    /// One run's model calls, tokens and tool calls, on the handle and up its chain.
    fn spend(&self, h: Handle, run: &RunResult) {
        let (tokens, calls) = (run.usage.total_tokens, run.tool_call_count as u64);
        let mut tree = self.0.tree.borrow_mut();
        tree[h.0].turns_total += run.turns;
        let mut at = Some(h.0);
        while let Some(a) = at {
            let node = &mut tree[a];
            node.usage_total += tokens;
            node.tool_calls_total += calls;
            node.pools.spend(tokens, calls);
            at = node.parent;
        }
    }

    /// The first exhausted limit of the handle's live chain or its own turn cap.
    fn live_limit(&self, h: Handle) -> Option<&'static str> {
        let tree = self.0.tree.borrow();
        pool_limit(&tree, h.0, self.0.clock.now_ms()).or_else(|| turn_cap(&tree[h.0]))
    }

    /// The handle's client settings now: the model, the soul, what is left of its turn cap
    /// and of the chain's wall-clock deadline (which bounds the run itself, not only its
    /// admission).
    fn config_for(&self, h: Handle) -> ClientConfig {
        let tree = self.0.tree.borrow();
        let node = &tree[h.0];
        let def = &node.agent.def;
        let llm = &self.0.llm;
        let model = match def.model.as_deref() {
            None | Some("inherit") => llm.model.clone(),
            Some(m) => m.to_owned(),
        };
        let mut config = ClientConfig::new(llm.style, llm.base_url.clone(), model);
        config.api_key = llm.api_key.clone();
        config.system_prompt = def.soul.clone();
        if let Some(deadline) = node.deadline {
            config.timeout_ms = Some((deadline - self.0.clock.now_ms()).max(0.0));
        }
        let left = node.caps.max_turns - f64::from(node.turns_total);
        config.max_turns = if left >= 1.0 { left as u32 } else { 1 };
        config
    }

    /// The handle's client and toolkit view. The def's `hooks` and `onMetric` each replace
    /// the runtime's when set (never merged), and are handed over untouched.
    fn client_for(
        &self,
        h: Handle,
        one_shot: Option<OneShot>,
        replay: Vec<RecordedCall>,
    ) -> (Client, Rc<Toolkit>) {
        let config = self.config_for(h);
        let tree = self.0.tree.borrow();
        let node = &tree[h.0];
        let def = &node.agent.def;
        let mut extras: Vec<SharedTool> = replaying(node.agent.tools.clone(), replay);
        if !def.team.is_empty() {
            extras.push(Rc::new(TaskTool::new(self.clone(), h, &def.team)));
        }
        let (mut toolkit, _) = Toolkit::assemble(Sources {
            extras,
            ..Sources::default()
        });
        toolkit.set_clock(self.0.clock.clone());
        let hooks: Rc<dyn Hooks> = def
            .hooks
            .clone()
            .or_else(|| self.0.hooks.clone())
            .unwrap_or_else(|| Rc::new(NoHooks));
        let sink = def.on_metric.clone().or_else(|| self.0.on_metric.clone());
        // The nearest interpreter: the def's `waitFor`, else the runtime's for a top-level
        // handle; none of them, and a suspension halts the run (it escalates to the parent).
        let authority = match (&def.wait_for, node.parent, &self.0.wait_for) {
            (Some(w), _, _) => Some((node.id.to_string(), w.clone())),
            (None, Some(0), Some(w)) => Some(("root".to_owned(), w.clone())),
            _ => None,
        };
        let interpreter = Interpreter {
            rt: self.clone(),
            id: node.id.clone(),
            one_shot: RefCell::new(one_shot),
            authority,
        };
        let client = Client {
            dialect: config.style.dialect(),
            config: Rc::new(config),
            http: self.0.http.clone(),
            hooks,
            wait_for: Some(Rc::new(interpreter)),
            clock: self.0.clock.clone(),
            // A per-turn client's metrics() is never read: its events go to the sink only.
            telemetry: Rc::new(Telemetry::sink_only(sink)),
            requests: Rc::default(),
        };
        (client, Rc::new(toolkit))
    }

    /// A run that ended: done, incomplete (a limit), or pending (rewound to its checkpoint).
    async fn record_run(
        &self,
        h: Handle,
        input: String,
        pre_turn: Vec<Message>,
        run: RunResult,
    ) -> TaskResult {
        let tokens = run.usage.total_tokens;
        let id = self.id(h);
        if let Some(why) = &run.save_error {
            // The result stands; the store's failure is said, not swallowed.
            self.t(format!("{id}: transcript not saved: {why}"));
        }
        let mut result = TaskResult {
            text: run.text,
            is_error: false,
            status: TaskStatus::Done,
            pending: None,
            turns: run.turns,
            total_tokens: tokens,
            limit: None,
        };
        match (run.status, run.pending) {
            (Status::Pending, Some(request)) => {
                // The halted turn (and the placeholder result the client appended) must not
                // stay in the saved transcript: a resume replays the turn from here.
                if let Err(why) = self.0.store.save(&id, &pre_turn).await {
                    self.t(format!("{id}: transcript not rewound: {why}"));
                }
                let halted_call = self.halted_call_of(&id, &request, &run.tool_calls);
                let calls = recorded_calls(&request, &run.tool_calls);
                let stamped = stamp_path(request, &id);
                let line = format!("{id}: running→suspended (pending \"{}\")", stamped.kind);
                {
                    let mut tree = self.0.tree.borrow_mut();
                    let node = &mut tree[h.0];
                    if node.state != HandleState::Closed {
                        node.state = HandleState::Suspended;
                    }
                    node.pending = Some(stamped.clone());
                    node.halted_call = halted_call;
                    node.checkpoint = Some(Checkpoint { input, calls });
                    node.drained.clear();
                }
                self.t(line);
                result.status = TaskStatus::Pending;
                result.pending = Some(stamped);
            }
            (Status::Incomplete, _) => {
                let limit = run.limit.unwrap_or_else(|| "maxTurns".to_owned());
                self.to_idle(h, format!("{id}: running→idle (incomplete: {limit})"));
                // A completion stop carries its own reason; a budget stop is named.
                result.text = match limit.as_str() {
                    "completion" => std::mem::take(&mut result.text),
                    "maxTurns" => "hit maxTurns without a final answer".into(),
                    other => format!("budget exhausted ({other}); partial work preserved"),
                };
                result.is_error = true;
                result.status = TaskStatus::Incomplete;
                result.limit = Some(limit);
            }
            _ => {
                self.to_idle(
                    h,
                    format!(
                        "{id}: running→idle (done, turns={}, tokens={tokens})",
                        run.turns
                    ),
                );
            }
        }
        result
    }

    /// A run that failed or was aborted: an error result, or `incomplete` when the chain's
    /// wall-clock deadline stopped it. A turn that did not complete puts the items it drained
    /// back at the front of the inbox (the drain is transactional).
    fn record_failure(&self, h: Handle, abort: &TurnAbort, message: String) -> TaskResult {
        let now = self.0.clock.now_ms();
        let reason = abort.reason();
        let stopped_by_runtime = matches!(reason.as_str(), "interrupted" | "closed");
        let timed_out =
            !stopped_by_runtime && self.0.tree.borrow()[h.0].deadline.is_some_and(|d| now >= d);
        let aborted = abort.is_aborted() || timed_out;
        let line = {
            let mut tree = self.0.tree.borrow_mut();
            let node = &mut tree[h.0];
            let drained = std::mem::take(&mut node.drained);
            if aborted {
                node.inbox.splice(0..0, drained);
            }
            if node.state != HandleState::Closed {
                node.state = HandleState::Idle;
            }
            node.abort = None;
            if timed_out {
                format!("{}: running→idle (incomplete: maxWallMs)", node.id)
            } else if aborted {
                format!("{}: running→idle (interrupted; inbox intact)", node.id)
            } else {
                format!("{}: running→idle (error: {message})", node.id)
            }
        };
        self.t(line);
        let (turns, tokens) = self.counts(h);
        if timed_out {
            let text = "budget exhausted (maxWallMs); partial work preserved";
            let mut result = TaskResult::settled(text, TaskStatus::Incomplete, turns, tokens);
            result.limit = Some("maxWallMs".into());
            return result;
        }
        let status = match (aborted, reason.as_str()) {
            (true, "closed") => TaskStatus::Closed,
            (true, _) => TaskStatus::Interrupted,
            _ => TaskStatus::Error,
        };
        let text = if aborted { reason } else { message };
        TaskResult::settled(text, status, turns, tokens)
    }

    /// The call the turn halted on (the last failed call whose output is the request's
    /// prompt); when that is `task`, the call its child's chain halted on.
    fn halted_call_of(
        &self,
        id: &str,
        request: &Request,
        calls: &[ToolCallRecord],
    ) -> Option<HaltedCall> {
        let call = calls
            .iter()
            .rev()
            .find(|c| c.is_error && c.output == request.prompt)?;
        let relayed_from = match request.data.as_ref().and_then(|d| d.get("path")) {
            Some(Value::Array(segments)) if call.name == "task" => Some(
                segments
                    .iter()
                    .map(|s| s.as_str().unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join("/"),
            ),
            _ => None,
        };
        match relayed_from {
            Some(child) => {
                let child = self.find(&child)?;
                self.0.tree.borrow()[child.0].halted_call.clone()
            }
            None => Some(HaltedCall {
                handle: id.to_owned(),
                tool: call.name.clone(),
                args: call.args.clone(),
            }),
        }
    }

    fn to_idle(&self, h: Handle, line: String) {
        {
            let mut tree = self.0.tree.borrow_mut();
            let node = &mut tree[h.0];
            if node.state != HandleState::Closed {
                node.state = HandleState::Idle;
            }
            node.drained.clear();
            node.abort = None;
        }
        self.t(line);
    }
}

/// The request with the handle's id path at `data.path` (SPEC §10 agent addendum).
fn stamp_path(mut request: Request, id: &str) -> Request {
    let path = Value::Array(id.split('/').map(|s| Value::String(s.into())).collect());
    request
        .data
        .get_or_insert_with(Default::default)
        .insert("path".into(), path);
    request
}
