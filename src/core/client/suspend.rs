//! The suspension rule (SPEC §10): with `waitFor`, ask and retry the tool once with the
//! answer; without it, halt. Answers are checked before they are trusted: a wrong `id`, an
//! expired request, a malformed answer or a `waitFor` that throws never approve. A request whose
//! `expiresAt` is no date-time is refused before anyone is asked: no answer could approve it.

use crate::core::json::value::Value;
use futures_util::future::{select, Either};

use super::error::RunError;
use super::hooks::{CallInfo, WaitFor};
use super::telemetry::StreamEvent;
use super::tools::{after_tool, Outcome, ToolEnv};
use crate::core::host::Clock;
use crate::core::tool::Context;
use crate::core::types::{pending_of, Answer, Request, ToolResult};

/// Resolves a suspended call.
pub async fn resolve(
    env: &ToolEnv,
    info: &CallInfo,
    args: Value,
    request: Request,
) -> Result<Outcome, RunError> {
    if let Some(why) = unreadable_expiry(env.clock.as_ref(), &request) {
        let result = ToolResult::error(format!("invalid request: {why}"));
        return Ok(Outcome::Done { args, result });
    }
    if let Some(events) = &env.events {
        events.emit(StreamEvent::Pending {
            request: request.clone(),
        });
    }
    let Some(wait_for) = env.wait_for.clone().filter(|w| w.interprets(&request)) else {
        let placeholder = ToolResult::error(request.prompt.clone());
        return Ok(Outcome::Halted {
            args,
            request,
            placeholder,
        });
    };
    let raw = ask(env, wait_for.as_ref(), &request).await?;
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
    env: &ToolEnv,
    info: &CallInfo,
    args: Value,
    request: Request,
    raw: Result<Value, String>,
) -> Result<Outcome, RunError> {
    let answer = check_answer(&request, raw, env.clock.as_ref());
    if !answer.ok {
        let result = ToolResult::error(format!("declined/expired: {}", request.prompt));
        return Ok(Outcome::Done { args, result });
    }
    let ctx = Context {
        signal: env.signal.clone(),
        answer: Some(answer),
        request: Some(request.clone()),
        ..Context::default()
    };
    let start = env.clock.now_ms();
    let result = env.toolkit.execute(&info.name, args.clone(), ctx).await;
    env.tool_metric(&info.name, &result, start);
    if pending_of(&result).is_some() {
        let result = ToolResult::error(format!("unresolved: {}", request.prompt));
        return Ok(Outcome::Done { args, result });
    }
    let result = after_tool(env, info, &args, result).await?;
    Ok(Outcome::Done { args, result })
}

/// Turns what `waitFor` gave back into a trusted [`Answer`]. Anything that is not an object
/// with a boolean `ok`, whose `id` differs from the request's, or that has a bad `data` becomes
/// `{ok: false, reason: "cancelled"}`; an answer after `expiresAt` (the `clock`'s time past
/// the instant the clock reads it as) becomes `{ok: false, reason: "expired"}`, and so does one
/// to a request whose `expiresAt` the clock cannot read (never approved: see
/// [`unreadable_expiry`], which the loop checks first). A missing `id` is the request's own.
///
/// ```
/// # use toolnexus::core::{client::suspend::check_answer, host::{Clock, LocalBoxFuture}, types::Request};
/// # struct At(f64);
/// # impl Clock for At {
/// #     fn now_ms(&self) -> f64 { self.0 }
/// #     fn sleep(&self, _ms: f64) -> LocalBoxFuture<'static, ()> { Box::pin(async {}) }
/// # }
/// let req = Request { id: "a".into(), kind: "approval".into(), prompt: "ok?".into(), url: None, data: None,
///     expires_at: Some("1970-01-01T00:00:01Z".into()) };
/// assert!(check_answer(&req, Ok(toolnexus::json!({"id": "a", "ok": true})), &At(1000.0)).ok);
/// assert!(!check_answer(&req, Ok(toolnexus::json!({"id": "a", "ok": true})), &At(1001.0)).ok);
/// assert!(!check_answer(&req, Ok(toolnexus::json!({"id": "b", "ok": true})), &At(0.0)).ok);
/// ```
pub fn check_answer(request: &Request, raw: Result<Value, String>, clock: &dyn Clock) -> Answer {
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
        match clock.date_ms(expires_at) {
            Some(deadline) if clock.now_ms() <= deadline => {}
            _ => return refuse("expired"),
        }
    }
    answer
}

/// Why `request` can never be approved, when its `expiresAt` is given and `clock` cannot read it
/// as a date-time ([`Clock::date_ms`]); `None` for a request without one or with a readable one.
/// The loop refuses such a request before anyone is asked (the model is told, as
/// `invalid request: …`), and a durable resume of one is refused (`invalid_resume`).
///
/// ```
/// # use toolnexus::core::{client::suspend::unreadable_expiry, host::{Clock, LocalBoxFuture}, types::Request};
/// # struct Frozen;
/// # impl Clock for Frozen {
/// #     fn now_ms(&self) -> f64 { 0.0 }
/// #     fn sleep(&self, _ms: f64) -> LocalBoxFuture<'static, ()> { Box::pin(async {}) }
/// # }
/// let mut req = Request { id: "a".into(), kind: "approval".into(), prompt: "ok?".into(), url: None, data: None,
///     expires_at: Some("2030-01-01".into()) };
/// assert_eq!(unreadable_expiry(&Frozen, &req), None);
/// req.expires_at = Some("soon".into());
/// assert_eq!(unreadable_expiry(&Frozen, &req).unwrap(),
///     r#"expiresAt "soon" is not an ISO 8601 date-time (such as "2030-01-02T03:04:05Z")"#);
/// ```
pub fn unreadable_expiry(clock: &dyn Clock, request: &Request) -> Option<String> {
    let expires_at = request.expires_at.as_deref()?;
    match clock.date_ms(expires_at) {
        Some(_) => None,
        None => Some(format!(
            "expiresAt {} is not an ISO 8601 date-time (such as \"2030-01-02T03:04:05Z\")",
            crate::core::json::text::Json(&Value::String(expires_at.to_owned()))
        )),
    }
}
