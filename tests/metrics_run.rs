//! The metric events a real run emits (through `Rig.telemetry` with a recording sink): one
//! `llm` per model call (its retries inside it), one `tool` per call (a suspension is pending,
//! not an error), one `run` (with `error` when it failed), their JSON shapes, and the registry.
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

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

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

fn two_turns(
    style: Style,
) -> Vec<Result<toolnexus::core::host::HttpResponse, toolnexus::core::host::HttpError>> {
    let calls = [("c1", "add", json!({"a": 1})), ("c2", "nope", json!({}))];
    match style {
        Style::OpenAi => vec![
            ok_json(openai_calls(&calls, Some((3, 2)))),
            ok_json(openai_text("3", Some((8, 3)))),
        ],
        Style::Anthropic => vec![
            ok_json(anthropic_calls(&calls, Some((3, 2)))),
            ok_json(anthropic_text("3", Some((8, 3)))),
        ],
    }
}

#[test]
fn a_run_emits_llm_per_call_tool_per_call_and_one_run() {
    for style in BOTH {
        let (rig, sink) = observed(
            Rig::new(style, ScriptedHttp::replies(two_turns(style)))
                .tool(shared(&echo("add", "native"))),
        );
        rig.run("1+2").unwrap();
        assert_eq!(
            kinds(&sink),
            [
                "llm:ok",
                "tool:add:false:false",
                "tool:nope:true:false",
                "llm:ok",
                "run:ok"
            ],
            "{style:?}"
        );
        let events = sink.0.borrow();
        assert_eq!(
            events[0],
            MetricEvent::Llm {
                model: MODEL.into(),
                status: "ok".into(),
                ms: 0.0,
                prompt_tokens: 3,
                completion_tokens: 2,
                parts: None
            }
        );
        assert!(
            matches!(&events[2], MetricEvent::Tool { source, .. } if source == "custom"),
            "an unknown tool is custom"
        );
        assert_eq!(
            events[4],
            MetricEvent::Run {
                model: MODEL.into(),
                turns: 2,
                tool_calls: 2,
                total_tokens: 16,
                ms: 0.0,
                error: None
            }
        );
        let text = rig.telemetry.render();
        assert!(text.contains(&format!(
            "toolnexus_llm_requests_total{{model=\"{MODEL}\",status=\"ok\"}} 2\n"
        )));
        assert!(text.contains("toolnexus_llm_tokens_total{type=\"prompt\"} 11\n"));
        assert!(text.contains("toolnexus_tool_calls_total{tool=\"nope\",source=\"custom\",is_error=\"true\",pending=\"false\"} 1\n"));
        assert!(!text.contains("toolnexus_run_errors_total{"));
    }
}

#[test]
fn retries_are_one_llm_event_timed_over_the_backoff() {
    let clock = VirtualClock::new(0.0, 0.0);
    let replies = vec![
        respond(503, "busy"),
        respond(429, "slow"),
        text_reply(Style::OpenAi, "ok"),
    ];
    let (mut rig, sink) = observed(Rig::new(Style::OpenAi, ScriptedHttp::replies(replies)));
    rig.clock = clock.clone();
    rig.run("hi").unwrap();
    assert_eq!(kinds(&sink), ["llm:ok", "run:ok"]);
    assert!(
        matches!(sink.0.borrow()[0], MetricEvent::Llm { ms, .. } if ms == 1500.0),
        "500 + 1000 ms of backoff"
    );
    assert!(matches!(sink.0.borrow()[1], MetricEvent::Run { ms, .. } if ms == 1500.0));
}

#[test]
fn a_suspension_is_a_pending_tool_event_and_its_retry_another() {
    let req = request("r1", "approval", "ok?");
    let replies = || {
        vec![
            calls_reply(Style::OpenAi, &[("c1", "send", json!({}))]),
            text_reply(Style::OpenAi, "sent"),
        ]
    };
    let (rig, sink) = observed(
        Rig::new(Style::OpenAi, ScriptedHttp::replies(replies())).tool(asking(
            "send",
            req.clone(),
            false,
        )),
    );
    rig.run("go").unwrap();
    assert_eq!(
        kinds(&sink),
        ["llm:ok", "tool:send:false:true", "run:ok"],
        "halted without waitFor"
    );
    assert!(rig.telemetry.render().contains("toolnexus_tool_calls_total{tool=\"send\",source=\"native\",is_error=\"false\",pending=\"true\"} 1\n"));
    let rig = Rig::new(Style::OpenAi, ScriptedHttp::replies(replies()))
        .tool(asking("send", req, false))
        .wait_for(FnWaitFor::answering(true, None));
    let (rig, sink) = observed(rig);
    rig.run("go").unwrap();
    assert_eq!(
        kinds(&sink),
        [
            "llm:ok",
            "tool:send:false:true",
            "tool:send:false:false",
            "llm:ok",
            "run:ok"
        ]
    );
}

#[test]
fn the_events_serialise_to_the_documented_shapes() {
    let llm = MetricEvent::Llm {
        model: "m".into(),
        status: "ok".into(),
        ms: 1.5,
        prompt_tokens: 3,
        completion_tokens: 4,
        parts: None,
    };
    assert_eq!(
        serde_json::to_value(&llm).unwrap(),
        json!({"event": "llm", "model": "m", "status": "ok", "ms": 1.5, "promptTokens": 3, "completionTokens": 4})
    );
    let tool = MetricEvent::Tool {
        tool: "t".into(),
        source: "mcp".into(),
        is_error: false,
        pending: true,
        ms: 2.0,
    };
    assert_eq!(
        serde_json::to_value(&tool).unwrap(),
        json!({"event": "tool", "tool": "t", "source": "mcp", "isError": false, "pending": true, "ms": 2.0})
    );
    let ok = MetricEvent::Run {
        model: "m".into(),
        turns: 1,
        tool_calls: 0,
        total_tokens: 7,
        ms: 3.0,
        error: None,
    };
    assert_eq!(
        serde_json::to_value(&ok).unwrap(),
        json!({"event": "run", "model": "m", "turns": 1, "toolCalls": 0, "totalTokens": 7, "ms": 3.0})
    );
    let failed = MetricEvent::Run {
        model: "m".into(),
        turns: 1,
        tool_calls: 0,
        total_tokens: 0,
        ms: 3.0,
        error: Some("boom".into()),
    };
    assert_eq!(
        serde_json::to_value(&failed).unwrap()["error"],
        json!("boom")
    );
}
