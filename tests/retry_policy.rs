//! The retry policy on a virtual clock (no real sleeping): which failures are retried, how
//! often (`retries`), how long it waits (`retryBaseMs * 2^attempt + random * 100`), what
//! `onError` may change (bounded by `retries`), and that aborts are never retried.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use common::resilience::*;
use common::ManualSignal;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::hooks::ErrorInfo;
use toolnexus::core::client::result::RunResult;
use toolnexus::core::host::{Clock, HttpError, HttpResponse, LocalBoxFuture};

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

fn status(code: u16) -> Result<HttpResponse, HttpError> {
    respond(code, "{\"error\":{\"message\":\"nope\"}}")
}

fn network() -> Result<HttpResponse, HttpError> {
    Err(HttpError::Network("ECONNRESET".into()))
}

/// Runs `replies` on a virtual clock whose `random()` is 0.25; returns the outcome, the
/// request count and every sleep.
fn attempt(
    style: Style,
    replies: Vec<Result<HttpResponse, HttpError>>,
    tune: impl FnOnce(&mut Rig),
) -> (Result<RunResult, RunError>, usize, Vec<f64>) {
    let clock = VirtualClock::new(0.0, 0.25);
    let mut rig = Rig::new(style, ScriptedHttp::replies(replies));
    rig.clock = clock.clone();
    tune(&mut rig);
    let outcome = rig.run("hi");
    (outcome, rig.http.count(), clock.sleeps())
}

fn with_hooks(rig: &Rig, hooks: Rc<OnErrorHooks>) -> Result<RunResult, RunError> {
    let mut client = rig.client();
    client.hooks = hooks;
    futures_executor::block_on(client.run(rig.input("hi")))
}

#[test]
fn each_retryable_status_is_retried_twice_by_default_with_exponential_backoff() {
    for style in BOTH {
        for code in [429, 500, 502, 503, 504] {
            let (outcome, count, sleeps) = attempt(
                style,
                vec![status(code), status(code), status(code)],
                |_| {},
            );
            assert!(
                matches!(outcome, Err(RunError::Status { status, .. }) if status == code),
                "{code}"
            );
            assert_eq!(count, 3, "{code}: 1 + retries (2)");
            assert_eq!(sleeps, [525.0, 1025.0], "{code}: 500*2^n + 0.25*100");
            let (outcome, count, sleeps) =
                attempt(style, vec![status(code), text_reply(style, "ok")], |_| {});
            assert_eq!(outcome.unwrap().text, "ok");
            assert_eq!((count, sleeps), (2, vec![525.0]));
        }
    }
}

#[test]
fn network_errors_are_retried_too() {
    for style in BOTH {
        let (outcome, count, sleeps) =
            attempt(style, vec![network(), network(), network()], |_| {});
        assert!(matches!(outcome, Err(RunError::Network { .. })));
        assert_eq!((count, sleeps), (3, vec![525.0, 1025.0]));
        let (outcome, count, _) =
            attempt(style, vec![network(), text_reply(style, "back")], |_| {});
        assert_eq!((outcome.unwrap().text.as_str(), count), ("back", 2));
    }
}

#[test]
fn client_errors_are_never_retried() {
    for style in BOTH {
        for code in [400, 401, 403, 404, 422, 501, 505] {
            let (outcome, count, sleeps) =
                attempt(style, vec![status(code), text_reply(style, "x")], |_| {});
            assert!(matches!(outcome, Err(RunError::Status { status, .. }) if status == code));
            assert_eq!((count, sleeps.len()), (1, 0), "{code}");
        }
    }
}

#[test]
fn retries_zero_sends_once_and_more_retries_keep_doubling() {
    let (_, count, sleeps) = attempt(Style::OpenAi, vec![status(503), status(503)], |r| {
        r.config.retries = 0
    });
    assert_eq!((count, sleeps.len()), (1, 0));
    let replies = (0..6).map(|_| status(500)).collect();
    let (_, count, sleeps) = attempt(Style::OpenAi, replies, |r| r.config.retries = 5);
    assert_eq!(count, 6);
    assert_eq!(sleeps, [525.0, 1025.0, 2025.0, 4025.0, 8025.0]);
}

#[test]
fn the_backoff_uses_retry_base_ms_and_the_clocks_random() {
    for (random, base, expected) in [
        (0.0, 10.0, [10.0, 20.0]),
        (0.999, 10.0, [109.9, 119.9]),
        (0.5, 0.0, [50.0, 50.0]),
    ] {
        let clock = VirtualClock::new(0.0, random);
        let mut rig = Rig::new(
            Style::OpenAi,
            ScriptedHttp::replies(vec![status(429), status(429), status(429)]),
        );
        rig.clock = clock.clone();
        rig.config.retry_base_ms = base;
        rig.run("hi").unwrap_err();
        let sleeps = clock.sleeps();
        assert_eq!(sleeps.len(), 2);
        for (got, want) in sleeps.iter().zip(expected) {
            assert!(
                (got - want).abs() < 1e-9,
                "random {random}, base {base}: {sleeps:?}"
            );
        }
    }
}

#[test]
fn a_retry_resends_the_identical_request() {
    let rig = Rig::new(
        Style::Anthropic,
        ScriptedHttp::replies(vec![status(503), text_reply(Style::Anthropic, "ok")]),
    );
    rig.run("hi").unwrap();
    let (a, b) = (rig.http.request(0), rig.http.request(1));
    assert_eq!((a.url, a.headers, a.text), (b.url, b.headers, b.text));
}

#[test]
fn aborted_and_refused_requests_are_never_retried_nor_classified() {
    for (failure, code) in [
        (HttpError::Aborted("user stop".into()), "aborted"),
        (HttpError::Refused("bad".into()), "model"),
    ] {
        let rig = Rig::new(
            Style::OpenAi,
            ScriptedHttp::replies(vec![Err(failure), text_reply(Style::OpenAi, "x")]),
        );
        let hooks = OnErrorHooks::always(Some(true));
        let err = with_hooks(&rig, hooks.clone()).unwrap_err();
        assert_eq!(err.code(), code);
        assert_eq!(rig.http.count(), 1);
        assert!(hooks.seen().is_empty(), "onError is not asked about {code}");
    }
}

#[test]
fn on_error_fail_stops_at_once() {
    let rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![status(503), text_reply(Style::OpenAi, "x")]),
    );
    let hooks = OnErrorHooks::always(Some(false));
    assert!(matches!(
        with_hooks(&rig, hooks.clone()),
        Err(RunError::Status { status: 503, .. })
    ));
    assert_eq!(rig.http.count(), 1);
    assert_eq!(
        hooks.seen(),
        [ErrorInfo {
            error: None,
            status: Some(503),
            attempt: 0,
            retryable: true
        }]
    );
}

#[test]
fn on_error_retry_is_bounded_by_retries_even_for_a_400() {
    let replies = (0..10).map(|_| status(400)).collect();
    let rig = Rig::new(Style::OpenAi, ScriptedHttp::replies(replies));
    let hooks = OnErrorHooks::always(Some(true));
    assert!(matches!(
        with_hooks(&rig, hooks.clone()),
        Err(RunError::Status { status: 400, .. })
    ));
    assert_eq!(rig.http.count(), 3);
    let attempts: Vec<_> = hooks
        .seen()
        .iter()
        .map(|i| (i.attempt, i.retryable, i.status))
        .collect();
    assert_eq!(
        attempts,
        [
            (0, false, Some(400)),
            (1, false, Some(400)),
            (2, false, Some(400))
        ]
    );
}

#[test]
fn on_error_none_keeps_the_default_and_a_script_can_mix() {
    let rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![
            status(503),
            status(400),
            text_reply(Style::OpenAi, "x"),
        ]),
    );
    let hooks = OnErrorHooks::always(None);
    assert!(matches!(
        with_hooks(&rig, hooks.clone()),
        Err(RunError::Status { status: 400, .. })
    ));
    assert_eq!(rig.http.count(), 2, "503 retried by default, 400 not");
    let rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![status(503), status(503), status(503)]),
    );
    let hooks = OnErrorHooks::scripted(vec![Some(true), Some(false)], None);
    with_hooks(&rig, hooks.clone()).unwrap_err();
    assert_eq!(rig.http.count(), 2);
}

#[test]
fn on_error_sees_a_network_error_as_its_message() {
    let rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![network(), text_reply(Style::OpenAi, "ok")]),
    );
    let hooks = OnErrorHooks::always(None);
    assert_eq!(with_hooks(&rig, hooks.clone()).unwrap().text, "ok");
    assert_eq!(
        hooks.seen(),
        [ErrorInfo {
            error: Some("LLM request to /v1/chat/completions failed: ECONNRESET".into()),
            status: None,
            attempt: 0,
            retryable: true
        }]
    );
}

/// Sleeps forever, but fires `stop` as soon as a sleep starts.
struct StopWhileSleeping(Rc<ManualSignal>);

impl Clock for StopWhileSleeping {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn sleep(&self, _ms: f64) -> LocalBoxFuture<'static, ()> {
        self.0.fire();
        Box::pin(std::future::pending())
    }
}

#[test]
fn a_signal_during_the_backoff_aborts_without_another_request() {
    let stop = Rc::new(ManualSignal::default());
    let mut rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![status(503), text_reply(Style::OpenAi, "x")]),
    )
    .signal(&stop);
    rig.clock = Rc::new(StopWhileSleeping(stop.clone()));
    assert_eq!(
        rig.run("hi").unwrap_err(),
        RunError::Aborted("stopped by test".into())
    );
    assert_eq!(rig.http.count(), 1);
}
