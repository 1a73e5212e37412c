//! One turn's tool calls: ordinary calls run concurrently; relay calls ride one request that
//! the host answers (`waitFor`) or that halts the run. Outcomes come back in call order.

use futures_util::future::join_all;

use super::error::RunError;
use super::relay::{relay_request, relay_results};
use super::suspend::{ask, check_answer};
use super::telemetry::StreamEvent;
use super::tools::{run_call, Outcome, ToolEnv};
use crate::core::types::ToolResult;
use crate::core::wire::ToolCall;

/// A call's id, name and outcome.
pub type Settled = Result<(String, String, Outcome), RunError>;

/// Whether `call` names a relay tool of the run's toolkit.
pub fn is_relay(env: &ToolEnv, call: &ToolCall) -> bool {
    env.toolkit
        .get(&call.name)
        .is_some_and(|t| t.spec().source == "relay")
}

/// Runs a turn's calls (see the module doc). Each call moves into its own future. A turn
/// without relay calls (the common one) is its calls' outcomes as they come; otherwise whether
/// each call is a relay call is looked up once more, to split the calls and merge the outcomes.
pub async fn run_turn(env: &ToolEnv, calls: Vec<ToolCall>, turn: u32) -> Vec<Settled> {
    if !calls.iter().any(|c| is_relay(env, c)) {
        return join_all(calls.into_iter().map(|call| run_call(env, call, turn))).await;
    }
    let relay_flags: Vec<bool> = calls.iter().map(|c| is_relay(env, c)).collect();
    let (mut relayed, mut ordinary) = (Vec::new(), Vec::new());
    for (call, relay) in calls.into_iter().zip(&relay_flags) {
        if *relay {
            relayed.push(call);
        } else {
            ordinary.push(call);
        }
    }
    let request = relay_request(&relayed.iter().collect::<Vec<_>>());
    let ordinary = ordinary.into_iter().map(|call| run_call(env, call, turn));
    let (done, relayed_outcomes) =
        futures_util::future::join(join_all(ordinary), relay_turn(env, &request, &relayed)).await;
    // Both lists are in call order, so the turn's order is theirs interleaved by the flags.
    let (mut done, mut relayed_outcomes) = match relayed_outcomes {
        Ok(outcomes) => (done.into_iter(), outcomes.into_iter()),
        Err(error) => return vec![Err(error)],
    };
    relay_flags
        .iter()
        .filter_map(|relay| {
            if *relay {
                relayed_outcomes.next().map(Ok)
            } else {
                done.next()
            }
        })
        .collect()
}

/// The relay calls' outcomes, in call order: answered through `waitFor`, else a halt on the
/// first of them.
async fn relay_turn(
    env: &ToolEnv,
    request: &crate::core::types::Request,
    relayed: &[ToolCall],
) -> Result<Vec<(String, String, Outcome)>, RunError> {
    let args_of = |c: &ToolCall| c.args.clone().unwrap_or_else(|_| crate::json_value!({}));
    let start = env.clock.now_ms();
    let placeholder = ToolResult::error(request.prompt.clone());
    let mut suspended = crate::core::types::pending(request.clone());
    suspended.output = placeholder.output.clone();
    for call in relayed {
        env.tool_metric(&call.name, &suspended, start);
    }
    if let Some(events) = &env.events {
        events.emit(StreamEvent::Pending {
            request: request.clone(),
        });
    }
    let Some(wait_for) = env.wait_for.clone().filter(|w| w.interprets(request)) else {
        return Ok(relayed
            .iter()
            .map(|c| {
                let outcome = Outcome::Halted {
                    args: args_of(c),
                    request: request.clone(),
                    placeholder: placeholder.clone(),
                };
                (c.id.clone(), c.name.clone(), outcome)
            })
            .collect());
    };
    let raw = ask(env, wait_for.as_ref(), request).await?;
    let answer = check_answer(request, raw, env.clock.as_ref());
    let mut results = relay_results(request, &answer);
    Ok(relayed
        .iter()
        .map(|c| {
            let at = results.iter().position(|(id, _)| *id == c.id);
            let result = at
                .map(|i| results.remove(i).1)
                .unwrap_or_else(|| ToolResult::error("no result"));
            (
                c.id.clone(),
                c.name.clone(),
                Outcome::Done {
                    args: args_of(c),
                    result,
                },
            )
        })
        .collect())
}
