//! The metric events of runs that fail or are cut short: an `llm` error then a `run` with its
//! error (and the registry's `run_errors_total`), aborted calls, timed-out calls, tool calls
//! whose arguments never parsed, and the turns a failed run reports.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use common::resilience::*;
use common::{echo, shared};
use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::telemetry::{MetricSink, Telemetry};
use toolnexus::core::metrics::MetricEvent;
use toolnexus::json;

#[derive(Default)]
struct Sink(RefCell<Vec<MetricEvent>>);

impl MetricSink for Sink {
    fn emit(&self, event: &MetricEvent) {
        self.0.borrow_mut().push(event.clone());
    }
}

fn observed(mut rig: Rig) -> (Rig, Rc<Sink>) {
    let sink = Rc::new(Sink::default());
    rig.telemetry = Rc::new(Telemetry::with_sink(Some(
        sink.clone() as Rc<dyn MetricSink>
    )));
    (rig, sink)
}

fn kinds(sink: &Sink) -> Vec<String> {
    sink.0
        .borrow()
        .iter()
        .map(|e| match e {
            MetricEvent::Llm { status, .. } => format!("llm:{status}"),
            MetricEvent::Tool {
                tool,
                is_error,
                pending,
                ..
            } => format!("tool:{tool}:{is_error}:{pending}"),
            MetricEvent::Run { error, .. } => {
                format!("run:{}", if error.is_some() { "error" } else { "ok" })
            }
        })
        .collect()
}

#[test]
fn a_failed_run_emits_an_llm_error_and_a_run_with_its_error() {
    let (rig, sink) = observed(Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![respond(400, "bad request")]),
    ));
    let err = rig.run("hi").unwrap_err();
    assert_eq!(kinds(&sink), ["llm:error", "run:error"]);
    let events = sink.0.borrow();
    assert_eq!(
        events[0],
        MetricEvent::Llm {
            model: MODEL.into(),
            status: "error".into(),
            ms: 0.0,
            prompt_tokens: 0,
            completion_tokens: 0,
            parts: None
        }
    );
    assert!(matches!(&events[1], MetricEvent::Run { error: Some(e), .. } if *e == err.to_string()));
    let text = rig.telemetry.render();
    assert!(text.contains(&format!(
        "toolnexus_run_errors_total{{model=\"{MODEL}\"}} 1\n"
    )));
    assert!(text.contains(&format!(
        "toolnexus_llm_requests_total{{model=\"{MODEL}\",status=\"error\"}} 1\n"
    )));
}

#[test]
fn a_run_failing_on_its_second_call_counts_both_turns() {
    let replies = vec![
        calls_reply(Style::OpenAi, &[("c1", "add", json!({}))]),
        respond(400, "bad"),
    ];
    let (rig, sink) = observed(
        Rig::new(Style::OpenAi, ScriptedHttp::replies(replies))
            .tool(shared(&echo("add", "native"))),
    );
    rig.run("hi").unwrap_err();
    let events = sink.0.borrow();
    assert!(
        matches!(
            events.last().unwrap(),
            MetricEvent::Run {
                turns: 2,
                tool_calls: 1,
                ..
            }
        ),
        "{:?}",
        events.last()
    );
}

#[test]
fn a_call_with_invalid_arguments_still_emits_a_tool_event() {
    let raw = vec![
        json!({"id": "c1", "type": "function", "function": {"name": "add", "arguments": "{oops"}}),
    ];
    let replies = vec![
        ok_json(openai_raw_calls(raw, None)),
        text_reply(Style::OpenAi, "x"),
    ];
    let (rig, sink) = observed(
        Rig::new(Style::OpenAi, ScriptedHttp::replies(replies))
            .tool(shared(&echo("add", "native"))),
    );
    let result = rig.run("hi").unwrap();
    assert_eq!(result.tool_call_count, 1);
    assert_eq!(
        kinds(&sink),
        ["llm:ok", "tool:add:true:false", "llm:ok", "run:ok"]
    );
}

#[test]
fn a_timed_out_model_call_still_emits_an_llm_error() {
    let (mut rig, sink) = observed(Rig::new(
        Style::OpenAi,
        ScriptedHttp::new(vec![Step::HangUntilAborted]),
    ));
    rig.clock = VirtualClock::new(0.0, 0.0);
    rig.config.timeout_ms = Some(100.0);
    let stop = Rc::new(AbortRecorder::default());
    rig.signal = Some(Rc::new(RecordingSignal(stop)));
    rig.run("hi").unwrap_err();
    assert_eq!(kinds(&sink), ["llm:error", "run:error"]);
}

#[test]
fn an_aborted_model_call_emits_llm_error_then_run_error() {
    let stop = Rc::new(common::ManualSignal::default());
    let (rig, sink) = observed(
        Rig::new(
            Style::OpenAi,
            ScriptedHttp::replies(vec![Err(toolnexus::core::host::HttpError::Aborted(
                "x".into(),
            ))]),
        )
        .signal(&stop),
    );
    rig.run("hi").unwrap_err();
    assert_eq!(kinds(&sink), ["llm:error", "run:error"]);
}
