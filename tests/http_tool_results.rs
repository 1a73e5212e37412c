//! HTTP tools over a scripted transport: statuses, result modes, `${ENV}` header expansion that
//! never leaks, timeouts and the caller's signal.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

mod common;
mod http_tool_common;

use std::rc::Rc;
use toolnexus::json;

use common::http::{respond, Step};
use common::{ManualSignal, SignalHandle};
use http_tool_common::{options, rig, rig_with, with_status, SECRET};
use toolnexus::core::host::{HttpError, Signal};
use toolnexus::core::http_tool::ResultMode;
use toolnexus::core::tool::{Context, Tool};
use toolnexus::core::types::ToolResult;

#[test]
fn headers_expand_env_variables_and_the_values_never_leak() {
    let mut o = options("GET", "https://api.test/me");
    o.headers = vec![
        ("Authorization".into(), "Bearer ${API_TOKEN}".into()),
        (
            "X-Mixed".into(),
            "a${NOPE}b-${lower_case}-$API_TOKEN-${bad name}".into(),
        ),
    ];
    let steps = vec![
        Step::Now(respond(401, "bad token")),
        Step::Now(Err(HttpError::Network(
            "fetch failed (ECONNREFUSED)".into(),
        ))),
        Step::HangUntilAborted,
    ];
    let r = rig_with(o, steps, true);
    let outcomes = [r.call(json!({})), r.call(json!({})), r.call(json!({}))];
    let sent = r.sent();
    assert_eq!(
        sent.header("authorization").unwrap(),
        format!("Bearer {SECRET}")
    );
    assert_eq!(
        sent.header("x-mixed").unwrap(),
        "ab-low-$API_TOKEN-${bad name}"
    );
    assert_eq!(outcomes[0].output, "HTTP 401: bad token");
    assert_eq!(outcomes[1].output, "fetch failed (ECONNREFUSED)");
    assert_eq!(
        outcomes[2].output,
        "HTTP tool \"endpoint\" timed out after 30000 ms"
    );
    for outcome in &outcomes {
        assert!(outcome.is_error);
        assert!(!serde_json::to_string(outcome).unwrap().contains(SECRET));
    }
}

#[test]
fn a_non_2xx_status_is_an_error_with_the_body_and_the_status() {
    for status in [199, 300, 404, 500] {
        let r = rig(
            options("GET", "https://api.test/x"),
            respond(status, "nope"),
        );
        let out = r.call(json!({}));
        assert_eq!(
            out,
            with_status(ToolResult::error(format!("HTTP {status}: nope")), status)
        );
    }
}

#[test]
fn result_modes_shape_a_2xx_body() {
    let with_mode = |mode, status, body: &str| {
        let mut o = options("GET", "https://api.test/x");
        o.result_mode = mode;
        rig(o, respond(status, body)).call(json!({})).output
    };
    assert_eq!(
        with_mode(ResultMode::Text, 200, " {\"a\": 1.0} "),
        " {\"a\": 1.0} "
    );
    assert_eq!(
        with_mode(ResultMode::Json, 200, " {\"a\": 1.0, \"b\": [1e2, \"é\"]} "),
        "{\"a\":1,\"b\":[100,\"é\"]}"
    );
    assert_eq!(with_mode(ResultMode::Json, 200, "not json"), "\"not json\"");
    assert_eq!(with_mode(ResultMode::StatusText, 201, "made"), "201\nmade");
}

#[test]
fn the_timeout_is_the_options_unless_the_call_gives_one() {
    let mut o = options("GET", "https://api.test/slow");
    o.timeout_ms = Some(1234.0);
    let r = rig_with(
        o,
        vec![Step::HangUntilAborted, Step::HangUntilAborted],
        true,
    );
    let out = r.call(json!({}));
    assert_eq!(
        out,
        ToolResult::error("HTTP tool \"endpoint\" timed out after 1234 ms")
    );
    let ctx = Context {
        timeout_ms: Some(50.0),
        ..Context::default()
    };
    let out = r.call_with(json!({}), ctx);
    assert_eq!(out.output, "HTTP tool \"endpoint\" timed out after 50 ms");
    assert_eq!(*r.clock.sleeps.borrow(), [1234.0, 50.0]);
}

#[test]
fn a_reply_before_the_timeout_wins() {
    let r = rig(options("GET", "https://api.test/x"), respond(200, "fast"));
    assert_eq!(r.call(json!({})).output, "fast");
    assert_eq!(*r.clock.sleeps.borrow(), [30_000.0]);
}

#[test]
fn the_callers_signal_reaches_the_request_and_aborts_it() {
    let manual = Rc::new(ManualSignal::default());
    let signal: Signal = Rc::new(SignalHandle(manual.clone()));
    let r = rig_with(
        options("GET", "https://api.test/x"),
        vec![Step::HangUntilAborted],
        false,
    );
    let ctx = Context {
        signal: Some(signal),
        ..Context::default()
    };
    let call = r.tool.execute(json!({}), ctx);
    manual.fire();
    let out = futures_executor::block_on(call);
    assert_eq!(out, ToolResult::error("aborted: stopped by test"));
    assert!(r.sent().signal.is_some());
}
