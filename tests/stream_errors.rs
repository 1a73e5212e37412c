//! A streamed run that goes wrong ends with a clear error, never a silent partial answer: a
//! stream cut before its terminal event, an error event, a connection that breaks, a stall
//! ended by the signal or the run's deadline, and a non-2xx status on the stream path.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::ScriptedHttp;
use common::resilience::*;
use common::sse::*;
use common::stream::*;
use futures_executor::block_on;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::result::RunResult;
use toolnexus::core::client::telemetry::{RunEvents, StreamEvent};
use toolnexus::core::host::{HttpError, Signal};
use toolnexus::core::wire::WireError;
use toolnexus::json;

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

fn path(style: Style) -> String {
    match style {
        Style::OpenAi => "/v1/chat/completions".into(),
        Style::Anthropic => "/v1/messages".into(),
    }
}

fn run_streamed(
    style: Style,
    script: Vec<Result<Streamed, HttpError>>,
    tune: impl FnOnce(&mut Rig),
) -> (Result<RunResult, RunError>, Rc<StreamHttp>, Rc<Recorder>) {
    let mut rig = Rig::new(style, ScriptedHttp::replies(vec![]));
    let recorder = Rc::new(Recorder::default());
    rig.events = Some(Rc::new(RecordEvents(recorder.clone())));
    tune(&mut rig);
    let http = StreamHttp::new(script);
    let mut client = rig.client();
    client.http = http.clone();
    (block_on(client.run(rig.input("hi"))), http, recorder)
}

/// The text stream of `style` with its terminal event(s) cut off.
fn without_end(style: Style) -> String {
    let full = stream_of(style, &["par", "tial"], &[], (1, 1));
    match style {
        Style::OpenAi => full
            .replace("data: [DONE]\n\n", "")
            .replace(",\"finish_reason\":\"stop\"", ""),
        Style::Anthropic => full.replace(
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
            "",
        ),
    }
}

#[test]
fn a_stream_cut_before_its_terminal_event_is_a_bad_response() {
    for style in BOTH {
        let body = without_end(style);
        assert!(
            !body.contains("[DONE]")
                && !body.contains("message_stop")
                && !body.contains("finish_reason\":\"stop")
        );
        for cut in [Cut::Whole, Cut::Every(1)] {
            let (result, http, events) =
                run_streamed(style, vec![Ok(Streamed::ok(body.clone(), cut))], |_| {});
            let err = result.unwrap_err();
            let expected = match style {
                Style::OpenAi => WireError::Truncated("its [DONE] line"),
                Style::Anthropic => WireError::Truncated("its message_stop event"),
            };
            assert_eq!(
                err,
                RunError::BadResponse {
                    path: path(style),
                    source: expected
                },
                "{style:?}"
            );
            assert_eq!(err.code(), "bad_response");
            assert_eq!(http.count(), 1, "a bad response is not retried");
            assert_eq!(
                events.kinds(),
                ["text:par", "text:tial"],
                "no usage, no silent end"
            );
        }
    }
}

fn error_event(style: Style, message: &str) -> String {
    match style {
        Style::OpenAi => format!("data: {}\n\n", json!({"error": {"message": message}})),
        Style::Anthropic => format!(
            "event: error\ndata: {}\n\n",
            json!({"type": "error", "error": {"type": "overloaded_error", "message": message}})
        ),
    }
}

#[test]
fn an_error_event_mid_stream_is_a_provider_error_with_the_key_redacted() {
    for style in BOTH {
        let full = stream_of(style, &["a", "b"], &[], (1, 1));
        let cut_at = full.find("b\"").unwrap();
        let line_end = full[..cut_at].rfind("\n\n").unwrap() + 2;
        let body = format!(
            "{}{}{}",
            &full[..line_end],
            error_event(style, "Overloaded for sk-live-123456"),
            &full[line_end..]
        );
        let (result, _, events) =
            run_streamed(style, vec![Ok(Streamed::ok(body, Cut::Every(3)))], |rig| {
                rig.config.api_key = Some("sk-live-123456".into());
            });
        let err = result.unwrap_err();
        assert_eq!(
            err,
            RunError::BadResponse {
                path: path(style),
                source: WireError::Provider("Overloaded for [redacted]".into())
            },
            "{style:?}"
        );
        assert!(!err.to_string().contains("sk-live"));
        assert_eq!(events.kinds(), ["text:a"], "events stop at the error");
    }
}

#[test]
fn a_connection_broken_mid_stream_is_a_network_error() {
    for style in BOTH {
        let full = stream_of(style, &["one", "two"], &[], (1, 1));
        let half = full[..full.len() / 2].to_owned();
        let streamed = Streamed::ok(half, Cut::Every(9))
            .ending(End::Fail(HttpError::Network("socket hang up".into())));
        let (result, http, _) = run_streamed(style, vec![Ok(streamed)], |_| {});
        let err = result.unwrap_err();
        assert_eq!(
            err,
            RunError::Network {
                path: path(style),
                message: "the stream broke: socket hang up".into()
            }
        );
        assert_eq!(err.code(), "network");
        assert_eq!(
            http.count(),
            1,
            "a stream that already started is not re-sent"
        );
    }
}

/// Fires the run's signal when the first text delta arrives.
struct StopOnText(Rc<Recorder>, Rc<AbortRecorder>);

impl RunEvents for StopOnText {
    fn emit(&self, event: StreamEvent) {
        let first = matches!(event, StreamEvent::Text { .. }) && self.0.text().is_empty();
        self.0.events.borrow_mut().push(event);
        if first {
            self.1.inner.fire();
        }
    }
}

#[test]
fn a_signal_fired_mid_stream_aborts_and_drops_the_body() {
    for style in BOTH {
        let full = stream_of(style, &["first", "second"], &[], (1, 1));
        let first_only = full[..full.find("second").unwrap()]
            .rfind("\n\n")
            .map(|i| full[..i + 2].to_owned())
            .unwrap();
        let recorder = Rc::new(Recorder::default());
        let stop = Rc::new(AbortRecorder::default());
        let streamed = Streamed::ok(first_only, Cut::Every(4))
            .ending(End::Stall)
            .yielding();
        let (result, http, _) = run_streamed(style, vec![Ok(streamed)], |rig| {
            rig.events = Some(Rc::new(StopOnText(recorder.clone(), stop.clone())));
            rig.signal = Some(Rc::new(RecordingSignal(stop.clone())) as Signal);
        });
        assert_eq!(
            result.unwrap_err(),
            RunError::Aborted("stopped by test".into()),
            "{style:?}"
        );
        assert_eq!(recorder.kinds(), ["text:first"]);
        assert!(
            http.dropped.get(),
            "the body reader was dropped (cancelled)"
        );
        assert!(
            stop.aborts.borrow().is_empty(),
            "an external abort is not re-fired by the core"
        );
    }
}

#[test]
fn a_stream_of_many_chunks_waits_on_the_signal_once_for_the_whole_stream() {
    for style in BOTH {
        let body = stream_of(style, &["one ", "two ", "three"], &[], (1, 1));
        let chunks = body.len();
        let stop = Rc::new(AbortRecorder::default());
        let streamed = Streamed::ok(body, Cut::Every(1)).yielding();
        let (result, _, _) = run_streamed(style, vec![Ok(streamed)], |rig| {
            rig.signal = Some(Rc::new(RecordingSignal(stop.clone())) as Signal);
        });
        assert_eq!(result.unwrap().text, "one two three", "{style:?}");
        assert!(chunks > 300, "{chunks} chunks");
        // The run's race against its signal, and the stream's: not one per chunk.
        assert_eq!(stop.waits.get(), 2, "{style:?}: waits for {chunks} chunks");
    }
}

#[test]
fn a_deadline_passing_mid_stream_aborts_the_run_and_fires_its_signal() {
    for style in BOTH {
        let full = stream_of(style, &["slow"], &[], (1, 1));
        let start = full[..full.find("slow").unwrap()]
            .rfind("\n\n")
            .map(|i| full[..i + 2].to_owned())
            .unwrap();
        let stop = Rc::new(AbortRecorder::default());
        let clock = VirtualClock::new(1_000.0, 0.0);
        let streamed = Streamed::ok(start, Cut::Every(5))
            .ending(End::Stall)
            .yielding();
        let (result, http, events) = run_streamed(style, vec![Ok(streamed)], |rig| {
            rig.config.timeout_ms = Some(250.0);
            rig.clock = clock.clone();
            rig.signal = Some(Rc::new(RecordingSignal(stop.clone())) as Signal);
        });
        let reason = "the run timed out after 250 ms";
        assert_eq!(
            result.unwrap_err(),
            RunError::Aborted(reason.into()),
            "{style:?}"
        );
        assert_eq!(*stop.aborts.borrow(), [reason]);
        assert_eq!(clock.sleeps(), [250.0], "the only sleep is the deadline's");
        assert!(http.dropped.get());
        assert!(events.kinds().iter().all(|k| k != "usage"));
    }
}

#[test]
fn a_non_2xx_status_on_the_stream_path_is_retried_then_reported_with_its_body() {
    for style in BOTH {
        let mut busy = Streamed::ok("{\"error\":{\"message\":\"busy\"}}", Cut::Every(3));
        busy.status = 503;
        let ok = Streamed::ok(stream_of(style, &["fine"], &[], (1, 1)), Cut::Whole);
        let (result, http, _) = run_streamed(style, vec![Ok(busy.clone()), Ok(ok)], |_| {});
        assert_eq!(result.unwrap().text, "fine", "{style:?}");
        assert_eq!(http.opened.get(), 2);
        let (result, _, _) = run_streamed(
            style,
            vec![Ok(busy.clone()), Ok(busy.clone()), Ok(busy)],
            |_| {},
        );
        assert_eq!(
            result.unwrap_err(),
            RunError::Status {
                status: 503,
                path: path(style),
                body: "{\"error\":{\"message\":\"busy\"}}".into()
            }
        );
    }
}
