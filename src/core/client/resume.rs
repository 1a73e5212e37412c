//! Durable resume (SPEC §10 addendum, complete here): a halted run's transcript, its pending
//! request and the host's answer continue the run. Every tool call of the halted assistant turn
//! ends with exactly one result: the placeholder is replaced, the calls after it run now (and may
//! halt again, one resume at a time), and no user turn is added.

use crate::core::json::value::Value;

use crate::core::message::Message;

use super::error::RunError;
use super::hooks::CallInfo;
use super::relay::{relay_results, relayed_ids};
use super::run::{Client, Progress, Resume};
use super::suspend::{check_answer, unreadable_expiry, with_answer};
use super::tools::{Outcome, ToolEnv};
use super::turn::{run_turn, Settled};
use crate::core::types::Request;
use crate::core::wire::ToolCall;

fn invalid(message: impl Into<String>) -> RunError {
    RunError::InvalidResume(message.into())
}

/// Checks that `answer` answers `pending` (its `id` must be the request's).
pub fn check_resume_ids(pending: &Request, answer: &Value) -> Result<(), RunError> {
    match answer.get("id") {
        Some(Value::String(id)) if *id == pending.id => Ok(()),
        Some(other) => Err(invalid(format!(
            "the answer's id {} does not match the pending request's id \"{}\"",
            crate::core::json::text::Json(other),
            pending.id
        ))),
        None => Err(invalid(format!(
            "the answer has no id; it must echo the pending request's id \"{}\"",
            pending.id
        ))),
    }
}

fn args_of(call: &ToolCall) -> Value {
    call.args
        .clone()
        .unwrap_or_else(|_| Value::Object(Default::default()))
}

impl Client {
    /// Rebuilds the halted turn with the answer and runs its outstanding calls; returns the
    /// next halt, if one of them suspends with no `waitFor`.
    pub(super) async fn resume_turn(
        &self,
        env: &ToolEnv,
        progress: &mut Progress,
        history: Vec<Message>,
        resume: Resume,
    ) -> Result<Option<Request>, RunError> {
        let Resume { pending, answer } = resume;
        check_resume_ids(&pending, &answer)?;
        // A stored request (plain JSON, possibly from another runtime or edited) whose
        // `expiresAt` cannot be read is refused, not declined: nothing could approve it, and
        // the caller learns why instead of seeing an approval come back expired.
        if let Some(why) = unreadable_expiry(env.clock.as_ref(), &pending) {
            return Err(invalid(format!("the pending request's {why}")));
        }
        let at = history
            .iter()
            .rposition(|m| self.dialect.calls_of(m.value()).is_some())
            .ok_or_else(|| invalid("the history has no tool calls to resume"))?;
        let calls = history
            .get(at)
            .and_then(|m| self.dialect.calls_of(m.value()))
            .unwrap_or_default();
        let recorded = self
            .dialect
            .results_in(history.get(at + 1..).unwrap_or_default());
        let known_ids = recorded
            .iter()
            .all(|(id, _)| calls.iter().any(|c| c.id == *id));
        let halted = calls.iter().position(|c| {
            recorded
                .iter()
                .any(|(id, r)| *id == c.id && r.output == pending.prompt)
        });
        let (Some(halted), true) = (halted, known_ids) else {
            return Err(invalid(
                "the pending request matches no outstanding tool call in the history",
            ));
        };
        let halted_id = calls.get(halted).map(|c| c.id.clone()).unwrap_or_default();
        let mut settled: Vec<Settled> = Vec::new();
        let mut known = Vec::new();
        for (id, result) in recorded.iter().filter(|(id, _)| *id != halted_id) {
            if let Some(call) = calls.iter().find(|c| c.id == *id) {
                let outcome = Outcome::Done {
                    args: args_of(call),
                    result: result.clone(),
                };
                settled.push(Ok((id.clone(), call.name.clone(), outcome)));
                known.push(id.clone());
            }
        }
        let rest: Vec<ToolCall> = calls
            .iter()
            .filter(|c| !known.contains(&c.id))
            .cloned()
            .collect();
        let relay_ids = if pending.kind == "tool_call" {
            relayed_ids(&pending)
        } else {
            Vec::new()
        };
        let remaining: Vec<ToolCall> = if relay_ids.contains(&halted_id) {
            let checked = check_answer(&pending, Ok(answer), env.clock.as_ref());
            let mut results = relay_results(&pending, &checked);
            for call in rest.iter().filter(|c| relay_ids.contains(&c.id)) {
                let at = results.iter().position(|(id, _)| *id == call.id);
                if let Some(result) = at.map(|i| results.remove(i).1) {
                    let outcome = Outcome::Done {
                        args: args_of(call),
                        result,
                    };
                    settled.push(Ok((call.id.clone(), call.name.clone(), outcome)));
                }
            }
            rest.into_iter()
                .filter(|c| !relay_ids.contains(&c.id))
                .collect()
        } else {
            let Some(call) = rest.iter().find(|c| c.id == halted_id).cloned() else {
                return Err(invalid(
                    "the pending request matches no outstanding tool call in the history",
                ));
            };
            let info = CallInfo {
                name: call.name.clone(),
                id: call.id.clone(),
                turn: 0,
            };
            let outcome = with_answer(env, &info, args_of(&call), pending, Ok(answer)).await?;
            settled.push(Ok((call.id.clone(), call.name.clone(), outcome)));
            rest.into_iter().filter(|c| c.id != halted_id).collect()
        };
        settled.extend(run_turn(env, remaining, 0).await);
        let ordered = in_call_order(&calls, settled);
        progress.messages = history.into_iter().take(at + 1).collect();
        self.record_turn_except(progress, ordered, &env.events, &known)
    }
}

/// Sorts outcomes into the turn's call order (errors first, so they surface).
fn in_call_order(calls: &[ToolCall], mut settled: Vec<Settled>) -> Vec<Settled> {
    let mut ordered: Vec<Settled> = Vec::new();
    if let Some(at) = settled.iter().position(Result::is_err) {
        ordered.push(settled.remove(at));
    }
    for call in calls {
        let at = settled
            .iter()
            .position(|s| matches!(s, Ok((id, _, _)) if *id == call.id));
        if let Some(at) = at {
            ordered.push(settled.remove(at));
        }
    }
    ordered
}
