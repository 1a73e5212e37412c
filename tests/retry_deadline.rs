//! Never past the deadline: a retry whose wait would end after `timeoutMs` fails at once with
//! `PastDeadline` (code `timeout`) and no sleep; a model call or tool that hangs is ended by the
//! run's timer with `Aborted("the run timed out after N ms")`, which also fires the run's signal.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::common;

use common::agent::*;
use common::http::*;
use common::resilience::*;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::host::{HttpError, HttpResponse, Signal};

fn with_retry_after(code: u16, value: &str) -> Result<HttpResponse, HttpError> {
    Ok(HttpResponse {
        status: code,
        retry_after: Some(value.to_owned()),
        body: "slow down".into(),
    })
}

fn rig_at(now: f64, timeout: f64, steps: Vec<Step>) -> (Rig, Rc<VirtualClock>, Rc<AbortRecorder>) {
    let clock = VirtualClock::new(now, 0.0);
    let stop = Rc::new(AbortRecorder::default());
    let mut rig = Rig::new(Style::OpenAi, ScriptedHttp::new(steps));
    rig.clock = clock.clone();
    rig.config.timeout_ms = Some(timeout);
    rig.signal = Some(Rc::new(RecordingSignal(stop.clone())) as Signal);
    (rig, clock, stop)
}

#[test]
fn a_retry_after_past_the_deadline_fails_at_once_without_sleeping() {
    let (rig, clock, stop) = rig_at(
        1_700_000_000_000.0,
        1000.0,
        vec![
            Step::Now(with_retry_after(429, "30")),
            Step::Now(text_reply(Style::OpenAi, "late")),
        ],
    );
    let err = rig.run("hi").unwrap_err();
    let RunError::PastDeadline { wait_ms, cause } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(*wait_ms, 30_000.0);
    assert!(matches!(**cause, RunError::Status { status: 429, .. }));
    assert_eq!(err.code(), "timeout");
    assert_eq!(err.to_string(),
        "LLM 429 from /v1/chat/completions: slow down; a retry would wait 30000 ms, past the run's deadline (timeoutMs)");
    assert!(clock.sleeps().is_empty());
    assert_eq!(rig.http.count(), 1);
    assert!(stop.aborts.borrow().is_empty());
}

#[test]
fn a_backoff_past_the_deadline_fails_too_after_the_retries_that_fit() {
    // 500 ms backoff fits in 1200 ms; the next (1000 ms, at t=500) would end at 1500.
    let (rig, clock, _) = rig_at(
        0.0,
        1200.0,
        vec![
            Step::Now(respond(503, "busy")),
            Step::Now(respond(503, "busy")),
            Step::Now(text_reply(Style::OpenAi, "x")),
        ],
    );
    let err = rig.run("hi").unwrap_err();
    assert!(
        matches!(&err, RunError::PastDeadline { wait_ms, .. } if *wait_ms == 1000.0),
        "{err:?}"
    );
    assert_eq!(clock.sleeps(), [500.0]);
    assert_eq!(rig.http.count(), 2);
}

#[test]
fn a_wait_ending_exactly_at_the_deadline_is_still_allowed() {
    let (rig, clock, _) = rig_at(
        0.0,
        1000.0,
        vec![
            Step::Now(with_retry_after(503, "1")),
            Step::Now(text_reply(Style::OpenAi, "just in time")),
        ],
    );
    assert_eq!(rig.run("hi").unwrap().text, "just in time");
    assert_eq!(clock.sleeps(), [1000.0]);
}

#[test]
fn without_a_timeout_a_long_retry_after_is_waited() {
    let clock = VirtualClock::new(0.0, 0.0);
    let mut rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![
            with_retry_after(429, "30"),
            text_reply(Style::OpenAi, "ok"),
        ]),
    );
    rig.clock = clock.clone();
    assert_eq!(rig.run("hi").unwrap().text, "ok");
    assert_eq!(clock.sleeps(), [30_000.0]);
}

#[test]
fn a_run_timeout_ends_a_hanging_model_call_and_fires_the_signal() {
    for style in [Style::OpenAi, Style::Anthropic] {
        let (mut rig, clock, stop) = rig_at(
            5_000.0,
            750.0,
            vec![Step::HangUntilAborted, Step::Now(text_reply(style, "x"))],
        );
        rig.config.style = style;
        let err = rig.run("hi").unwrap_err();
        assert_eq!(
            err,
            RunError::Aborted("the run timed out after 750 ms".into()),
            "{style:?}"
        );
        assert_eq!(err.code(), "aborted");
        assert_eq!(*stop.aborts.borrow(), ["the run timed out after 750 ms"]);
        assert_eq!(clock.sleeps(), [750.0], "one timer for the whole run");
        assert_eq!(rig.http.count(), 1, "an abort is never retried");
        assert!(
            rig.http.request(0).signal.is_some(),
            "the request carried the run's signal"
        );
    }
}

#[test]
fn a_run_timeout_without_any_signal_still_ends_the_run() {
    let clock = VirtualClock::new(0.0, 0.0);
    let mut rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::new(vec![Step::HangUntilAborted]),
    );
    rig.clock = clock;
    rig.config.timeout_ms = Some(100.0);
    assert_eq!(
        rig.run("hi").unwrap_err(),
        RunError::Aborted("the run timed out after 100 ms".into())
    );
}

#[test]
fn a_run_timeout_ends_a_hanging_tool_and_the_tool_saw_the_signal() {
    let tool = common::tool_with(
        "slow",
        "native",
        toolnexus::json!({"type": "object"}),
        common::Behaviour::Hangs,
    );
    let (rig, _, stop) = rig_at(
        0.0,
        2000.0,
        vec![Step::Now(calls_reply(
            Style::OpenAi,
            &[("c1", "slow", toolnexus::json!({}))],
        ))],
    );
    let rig = rig.tool(common::shared(&tool));
    assert_eq!(
        rig.run("hi").unwrap_err(),
        RunError::Aborted("the run timed out after 2000 ms".into())
    );
    assert_eq!(tool.calls.get(), 1);
    assert!(tool.last_ctx_had_signal.get());
    assert_eq!(stop.aborts.borrow().len(), 1);
}

#[test]
fn a_run_that_finishes_in_time_never_fires_its_signal() {
    let (rig, clock, stop) = rig_at(
        0.0,
        10.0,
        vec![Step::Now(text_reply(Style::OpenAi, "quick"))],
    );
    assert_eq!(rig.run("hi").unwrap().text, "quick");
    assert!(stop.aborts.borrow().is_empty());
    assert!(clock.sleeps().is_empty());
}
