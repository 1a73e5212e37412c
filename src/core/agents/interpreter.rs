//! A handle's §10 interpreter (SPEC §7D escalation): the `waitFor` its client runs with. The
//! nearest interpreter wins, one hop at a time: a handle answers a request with the Answer a
//! resume handed it (once, for the request its halted tool raises again), else with its def's
//! `waitFor`, else (a top-level handle) with the runtime's; with none of them it does not
//! interpret the request, and its run halts so the request escalates to its parent.

use std::cell::RefCell;
use std::rc::Rc;

use super::data::{HandleState, TaskResult, TaskStatus};
use super::node::OneShot;
use super::runtime::AgentRuntime;
use crate::core::client::hooks::WaitFor;
use crate::core::client::suspend::check_answer;
use crate::core::host::LocalBoxFuture;
use crate::core::json::record::Record;
use crate::core::json::value::Value;
use crate::core::types::Request;

/// Who answers for one handle.
pub(super) struct Interpreter {
    pub(super) rt: AgentRuntime,
    /// The handle's id (where an escalated request's path defaults to).
    pub(super) id: Rc<str>,
    /// The resumed turn's Answer, given to the first request that is the halted one again.
    pub(super) one_shot: RefCell<Option<OneShot>>,
    /// The nearest `waitFor` and the id of the level that holds it.
    pub(super) authority: Option<(String, Rc<dyn WaitFor>)>,
}

/// Whether `raised` is `halted` raised again by the replay: the same question (kind, prompt,
/// url, data but for the relays' `data.path`); a tool may give each raise a fresh id.
pub(super) fn same_question(halted: &Request, raised: &Request) -> bool {
    let data = |r: &Request| {
        let mut data = r.data.clone().unwrap_or_default();
        data.remove("path");
        data
    };
    halted.id == raised.id
        || (halted.kind == raised.kind
            && halted.prompt == raised.prompt
            && halted.url == raised.url
            && data(halted) == data(raised))
}

impl Interpreter {
    fn holds_answer_for(&self, request: &Request) -> bool {
        self.one_shot
            .borrow()
            .as_ref()
            .is_some_and(|shot| same_question(&shot.request, request))
    }
}

impl WaitFor for Interpreter {
    fn interprets(&self, request: &Request) -> bool {
        self.authority.is_some() || self.holds_answer_for(request)
    }

    fn wait_for(&self, request: &Request) -> LocalBoxFuture<'static, Result<Value, String>> {
        if self.holds_answer_for(request) {
            if let Some(shot) = self.one_shot.borrow_mut().take() {
                // Checked once against the halted request; echoed to its raise again.
                let mut answer = shot.answer;
                answer.id = request.id.clone();
                let value = answer.to_json_value();
                return Box::pin(async move { Ok(value) });
            }
        }
        let Some((who, wait_for)) = &self.authority else {
            return Box::pin(async { Err("no interpreter holds this request".to_owned()) });
        };
        let path = match request.data.as_ref().and_then(|d| d.get("path")) {
            Some(Value::Array(segments)) => segments
                .iter()
                .map(|s| s.as_str().unwrap_or_default())
                .collect::<Vec<_>>()
                .join("/"),
            _ => self.id.to_string(),
        };
        self.rt.t(format!(
            "{path}: escalate → {who} answers (\"nearest interpreter\")"
        ));
        let asked = wait_for.wait_for(request);
        let (rt, request) = (self.rt.clone(), request.clone());
        Box::pin(async move {
            let raw = asked.await;
            // A refusal ends the relaying chain's wait: the parent is told `declined/expired`
            // (SPEC §10) and never retries the delegation, so nothing below may stay parked.
            let answer = check_answer(&request, raw.clone(), rt.0.clock.as_ref());
            if !answer.ok {
                rt.cancel_refused(&request, answer.reason.as_deref().unwrap_or("declined"));
            }
            raw
        })
    }
}

impl AgentRuntime {
    /// Moves every handle below `request.data.path` still suspended on `request` to idle,
    /// deepest first, its result the refusal.
    fn cancel_refused(&self, request: &Request, reason: &str) {
        let Some(Value::Array(segments)) = request.data.as_ref().and_then(|d| d.get("path")) else {
            return;
        };
        let path: Vec<&str> = segments.iter().filter_map(Value::as_str).collect();
        let prefix = path.join("/");
        let below = format!("{prefix}/");
        let mut waiting: Vec<(usize, u32)> = {
            let tree = self.0.tree.borrow();
            tree.iter()
                .enumerate()
                .filter(|(_, n)| {
                    n.state == HandleState::Suspended
                        && n.pending.as_ref().is_some_and(|p| p.id == request.id)
                        && (*n.id == *prefix || n.id.starts_with(&below))
                })
                .map(|(i, n)| (i, n.depth))
                .collect()
        };
        waiting.sort_by_key(|&(i, depth)| (std::cmp::Reverse(depth), i));
        for (i, _) in waiting {
            let line = {
                let mut tree = self.0.tree.borrow_mut();
                let node = &mut tree[i];
                node.state = HandleState::Idle;
                node.pending = None;
                node.checkpoint = None;
                node.halted_call = None;
                node.last_result = Some(TaskResult::settled(
                    format!("declined/expired: {}", request.prompt),
                    TaskStatus::Error,
                    node.turns_total,
                    node.usage_total,
                ));
                format!("{}: suspended→idle (Answer ok=false, {reason})", node.id)
            };
            self.t(line);
        }
    }
}
