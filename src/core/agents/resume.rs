//! Resuming suspended handles (SPEC §7D escalation and durable resume). The Answer routes to
//! the deepest suspended handle whose pending request it answers; that handle replays its halted
//! turn from its checkpoint (its transcript was rewound there), and the replay hands the Answer
//! to the request its halted tool raises again. Inline (an ancestor's `waitFor` answered, the
//! run never ended) the handle goes `suspended→running`; durable (`resume`), it goes
//! `suspended→idle` then `idle→running`, and each suspended ancestor is replayed after it, its
//! re-invoked `task` reattaching to the child by task key.

use super::data::{HaltedCall, HandleState, TaskResult};
use super::node::OneShot;
use super::runtime::{AgentRuntime, Handle, WaitOptions};
use crate::core::client::suspend::{check_answer, unreadable_expiry};
use crate::core::host::LocalBoxFuture;
use crate::core::json::value::Value;
use crate::core::types::{Answer, Request};

/// Why a resume or a restore was refused. Nothing changed: the runtime, its saved state and
/// every suspended handle are as they were, and the runtime keeps serving.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    /// The Answer fits no suspended handle (no such id or path, not an Answer, a request that
    /// can never be approved). Code `invalid_resume`.
    #[error("{0}")]
    InvalidAnswer(String),
    /// A saved state that is corrupt or of another registry. Code `invalid_argument`.
    #[error("{0}")]
    InvalidState(String),
    /// The store could not read or write the state. Code `store`.
    #[error("{0}")]
    Store(String),
    /// The options a restored runtime is built from are out of range. Code `invalid_options`.
    #[error("{0}")]
    Options(String),
}

impl ResumeError {
    /// The error code a host reports it under (`ToolnexusError.code`).
    ///
    /// ```
    /// # use toolnexus::core::agents::resume::ResumeError;
    /// assert_eq!(ResumeError::InvalidAnswer("x".into()).code(), "invalid_resume");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            ResumeError::InvalidAnswer(_) => "invalid_resume",
            ResumeError::InvalidState(_) => "invalid_argument",
            ResumeError::Store(_) => "store",
            ResumeError::Options(_) => "invalid_options",
        }
    }
}

fn invalid(message: impl Into<String>) -> ResumeError {
    ResumeError::InvalidAnswer(message.into())
}

impl AgentRuntime {
    /// Durable resume: routes `answer` (an `Answer` as JSON: `{id, ok, data?, reason?}`) to
    /// the deepest suspended handle whose pending request has its id, replays that handle's
    /// halted turn with it, then replays each suspended ancestor up to the top-level handle.
    /// Resolves with the last replayed handle's result (`pending` again when something else
    /// still waits). Refused, with nothing changed: an answer that is not one, an id no
    /// suspended handle waits on, a request whose `expiresAt` is no date-time. An expired
    /// answer is not refused: like a single client's, it reaches the tool as declined.
    pub fn resume(
        &self,
        answer: Value,
    ) -> LocalBoxFuture<'static, Result<TaskResult, ResumeError>> {
        self.resume_within(None, answer)
    }

    /// [`resume`](Self::resume) scoped to the subtree at `path` (a request's `data.path`, the
    /// handle id's segments): the deepest suspended handle within it takes the Answer.
    pub fn resume_within(
        &self,
        path: Option<&[String]>,
        answer: Value,
    ) -> LocalBoxFuture<'static, Result<TaskResult, ResumeError>> {
        let path = path.map(<[String]>::to_vec);
        let rt = self.clone();
        Box::pin(async move {
            // Routed when first polled: what is suspended then is what the Answer may reach.
            let (leaf, shot) = rt.route(path.as_deref(), answer)?;
            let _under_way = Resuming::start(&rt, &shot.request.id)?;
            let line = {
                let tree = rt.0.tree.borrow();
                let node = &tree[leaf.0];
                format!(
                    "{}: resume with Answer(ok={}) at checkpoint (turns so far: {})",
                    node.id, shot.answer.ok, node.turns_total
                )
            };
            rt.t(line);
            let mut result = rt.resume_suspended(leaf, Some(shot), false).await;
            let mut at = rt.0.tree.borrow()[leaf.0].parent;
            while let Some(p) = at.filter(|&p| p != 0) {
                let parent = rt.handle(p);
                if rt.state(parent) != HandleState::Suspended {
                    break;
                }
                rt.t(format!(
                    "{}: cascade resume (reattaching delegated work)",
                    rt.id(parent)
                ));
                result = rt.resume_suspended(parent, None, false).await;
                at = rt.0.tree.borrow()[p].parent;
            }
            Ok(result)
        })
    }

    /// Every suspended handle and the request it waits on, in tree order.
    pub fn suspended(&self) -> Vec<(Handle, Request)> {
        let tree = self.0.tree.borrow();
        tree.iter()
            .enumerate()
            .filter(|(_, n)| n.state == HandleState::Suspended && !n.closing)
            .filter_map(|(i, n)| Some((self.handle(i), n.pending.clone()?)))
            .collect()
    }

    /// The tool call behind the suspended request `request_id`, at the deepest handle of the
    /// chain waiting on it: its handle, tool name and arguments (what a page shows beside
    /// the request). `None` when nothing waits on that id.
    pub fn halted_call(&self, request_id: &str) -> Option<HaltedCall> {
        let tree = self.0.tree.borrow();
        self.suspended()
            .into_iter()
            .filter(|(_, r)| r.id == request_id)
            .max_by_key(|(h, _)| tree[h.0].depth)
            .and_then(|(h, _)| tree[h.0].halted_call.clone())
    }

    /// The handle the Answer goes to and the checked Answer, or why there is none.
    fn route(&self, path: Option<&[String]>, raw: Value) -> Result<(Handle, OneShot), ResumeError> {
        let Value::Object(map) = &raw else {
            return Err(invalid(format!(
                "the answer is not an Answer object ({{id, ok, data?, reason?}}): {}",
                crate::core::json::text::Json(&raw)
            )));
        };
        let id = match map.get("id") {
            Some(Value::String(id)) => id.clone(),
            Some(other) => {
                return Err(invalid(format!(
                    "the answer's id must be a string (got {})",
                    crate::core::json::text::Json(other)
                )))
            }
            None => {
                return Err(invalid(
                    "the answer has no id; it must echo the pending request's id",
                ))
            }
        };
        Answer::from_json(raw.clone())
            .map_err(|e| invalid(format!("the answer is not an Answer: {e}")))?;
        let scope = match path {
            None => 0,
            Some(segments) => {
                let wanted = segments.join("/");
                let at = self
                    .find(&wanted)
                    .ok_or_else(|| invalid(format!("no handle at path \"{wanted}\" to resume")))?;
                at.0
            }
        };
        let suspended = self.suspended();
        let within = |h: &Handle| self.is_within(h.0, scope);
        let leaf = {
            let tree = self.0.tree.borrow();
            suspended
                .iter()
                .filter(|(h, r)| within(h) && r.id == id)
                .max_by_key(|(h, _)| (tree[h.0].depth, std::cmp::Reverse(h.0)))
                .cloned()
        };
        let Some((leaf, request)) = leaf else {
            let waiting: Vec<String> = suspended
                .iter()
                .filter(|(h, _)| within(h))
                .map(|(h, r)| format!("{} waits on \"{}\"", self.id(*h), r.id))
                .collect();
            let place = match path {
                Some(p) => format!(" within \"{}\"", p.join("/")),
                None => String::new(),
            };
            return Err(invalid(if waiting.is_empty() {
                format!("no suspended handle to resume{place}")
            } else {
                format!(
                    "no suspended handle{place} waits on a request with id \"{id}\" ({})",
                    waiting.join("; ")
                )
            }));
        };
        if let Some(why) = unreadable_expiry(self.0.clock.as_ref(), &request) {
            return Err(invalid(format!("the pending request's {why}")));
        }
        let answer = check_answer(&request, Ok(raw), self.0.clock.as_ref());
        Ok((leaf, OneShot { request, answer }))
    }

    /// Whether handle `i` is `scope` or below it.
    fn is_within(&self, i: usize, scope: usize) -> bool {
        let tree = self.0.tree.borrow();
        let mut at = Some(i);
        while let Some(a) = at {
            if a == scope {
                return true;
            }
            at = tree[a].parent;
        }
        false
    }

    /// Replays the suspended handle's halted turn from its checkpoint, with `shot` for the
    /// request its tool raises again; resolves with the turn's result. Inline, the handle goes
    /// `suspended→running`; durable, `suspended→idle` then `idle→running`.
    pub(super) fn resume_suspended(
        &self,
        h: Handle,
        shot: Option<OneShot>,
        inline: bool,
    ) -> LocalBoxFuture<'static, TaskResult> {
        let (input, id) = {
            let mut tree = self.0.tree.borrow_mut();
            let node = &mut tree[h.0];
            node.pending = None;
            node.halted_call = None;
            node.state = HandleState::Idle;
            node.one_shot = shot.clone();
            let (input, calls) = node.checkpoint.take().map_or_else(
                || ("continue".to_owned(), Vec::new()),
                |c| (c.input, c.calls),
            );
            node.replay = calls;
            (input, node.id.clone())
        };
        let line = if inline {
            let ok = shot.as_ref().is_none_or(|s| s.answer.ok);
            format!("{id}: suspended→running (Answer ok={ok})")
        } else {
            self.t(format!(
                "{id}: suspended→idle (Answer accepted, checkpoint restored)"
            ));
            format!("{id}: idle→running (wake)")
        };
        let input = self.admit_traced(h, Some(&input), line);
        let waiting = self.wait(h, WaitOptions::default());
        self.start_turn(h, input);
        waiting
    }
}

/// A durable resume under way for one request id; ends when dropped.
struct Resuming {
    rt: AgentRuntime,
    id: String,
}

impl Resuming {
    fn start(rt: &AgentRuntime, id: &str) -> Result<Resuming, ResumeError> {
        let mut under_way = rt.0.resuming.borrow_mut();
        if under_way.iter().any(|r| r == id) {
            return Err(invalid(format!(
                "the request \"{id}\" is already being resumed"
            )));
        }
        under_way.push(id.to_owned());
        Ok(Resuming {
            rt: rt.clone(),
            id: id.to_owned(),
        })
    }
}

impl Drop for Resuming {
    fn drop(&mut self) {
        self.rt.0.resuming.borrow_mut().retain(|r| *r != self.id);
    }
}
