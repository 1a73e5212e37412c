//! The suspension rule (SPEC §10): with `waitFor`, ask and retry the tool once with the
//! answer; without it, halt. Answers are checked before they are trusted: a wrong `id`, an
//! expired request, a malformed answer or a `waitFor` that throws never approve.

use crate::core::value::Value;
use futures_util::future::{select, Either};
use std::rc::Rc;

use super::error::RunError;
use super::hooks::{CallInfo, WaitFor};
use super::telemetry::StreamEvent;
use super::tools::{after_tool, Outcome, ToolEnv};
use crate::core::time::rfc3339_ms;
use crate::core::tool::Context;
use crate::core::types::{pending_of, Answer, Request, ToolResult};

/// Resolves a suspended call.
pub async fn resolve(
    env: Rc<ToolEnv>,
    info: CallInfo,
    args: Value,
    request: Request,
) -> Result<Outcome, RunError> {
    if let Some(events) = &env.events {
        events.emit(StreamEvent::Pending {
            request: request.clone(),
        });
    }
    let Some(wait_for) = env.wait_for.clone() else {
        let placeholder = ToolResult::error(request.prompt.clone());
        return Ok(Outcome::Halted {
            args,
            request,
            placeholder,
        });
    };
    let raw = ask(&env, wait_for.as_ref(), &request).await?;
    with_answer(env, info, args, request, raw).await
}

/// Asks the host, racing the run's signal.
pub async fn ask(
    env: &ToolEnv,
    wait_for: &dyn WaitFor,
    request: &Request,
) -> Result<Result<Value, String>, RunError> {
    let delivered = env.events.as_ref().map(|e| e.delivered());
    // The host's `waitFor` future is lazy: it calls the host only once polled, after the
    // consumer of a streamed run has been handed the `pending` event.
    let asked = wait_for.wait_for(request);
    let asked = Box::pin(async move {
        if let Some(delivered) = delivered {
            delivered.await;
        }
        asked.await
    });
    match env.signal.clone() {
        None => Ok(asked.await),
        Some(signal) => match select(asked, signal.wait()).await {
            Either::Left((raw, _)) => Ok(raw),
            Either::Right(_) => Err(RunError::Aborted(signal.reason())),
        },
    }
}

/// The loop rule once an answer is in (from `waitFor`, or from a durable resume): re-run the
/// tool once with `ctx.answer` when the checked answer approves, else the declined result.
pub async fn with_answer(
    env: Rc<ToolEnv>,
    info: CallInfo,
    args: Value,
    request: Request,
    raw: Result<Value, String>,
) -> Result<Outcome, RunError> {
    let answer = check_answer(&request, raw, env.clock.now_ms());
    if !answer.ok {
        let result = ToolResult::error(format!("declined/expired: {}", request.prompt));
        return Ok(Outcome::Done { args, result });
    }
    let ctx = Context {
        signal: env.signal.clone(),
        answer: Some(answer),
        ..Context::default()
    };
    let start = env.clock.now_ms();
    let result = env.toolkit.execute(&info.name, args.clone(), ctx).await;
    env.tool_metric(&info.name, &result, start);
    if pending_of(&result).is_some() {
        let result = ToolResult::error(format!("unresolved: {}", request.prompt));
        return Ok(Outcome::Done { args, result });
    }
    let result = after_tool(&env, &info, &args, result).await?;
    Ok(Outcome::Done { args, result })
}

/// Turns what `waitFor` gave back into a trusted [`Answer`]. Anything that is not an object
/// with a boolean `ok`, whose `id` differs from the request's, or that has a bad `data` becomes
/// `{ok: false, reason: "cancelled"}`; an answer after `expiresAt` (or with an unreadable
/// `expiresAt`) becomes `{ok: false, reason: "expired"}`. A missing `id` is the request's own.
///
/// ```
/// # use toolnexus::core::{client::suspend::check_answer, types::Request};
/// let req = Request { id: "a".into(), kind: "approval".into(), prompt: "ok?".into(), url: None, data: None, expires_at: None };
/// assert!(check_answer(&req, Ok(toolnexus::json!({"id": "a", "ok": true})), 0.0).ok);
/// assert!(!check_answer(&req, Ok(toolnexus::json!({"id": "b", "ok": true})), 0.0).ok);
/// ```
pub fn check_answer(request: &Request, raw: Result<Value, String>, now_ms: f64) -> Answer {
    let refuse = |reason: &str| Answer {
        id: request.id.clone(),
        ok: false,
        data: None,
        reason: Some(reason.to_owned()),
    };
    let Ok(Value::Object(mut map)) = raw else {
        return refuse("cancelled");
    };
    match map.get("id") {
        None | Some(Value::Null) => {
            map.insert("id".into(), Value::String(request.id.clone()));
        }
        Some(Value::String(id)) if *id == request.id => {}
        Some(_) => return refuse("cancelled"),
    }
    let Ok(answer) = Answer::from_json(Value::Object(map)) else {
        return refuse("cancelled");
    };
    if !answer.ok {
        return answer;
    }
    if let Some(expires_at) = &request.expires_at {
        match rfc3339_ms(expires_at) {
            Some(deadline) if now_ms <= deadline => {}
            _ => return refuse("expired"),
        }
    }
    answer
}
