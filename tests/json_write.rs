//! The JSON text the wasm module writes by hand (the `record!` writers, `core::json::text`'s
//! numbers) and the values `json_value!` builds are exactly serde_json's, for any content:
//! `record!` also derives serde's `Serialize` off wasm32, to be compared with here.
#![allow(clippy::unwrap_used)]

use crate::json_style;

use json_style::any_value as value;
use proptest::prelude::*;
use toolnexus::core::client::result::{RunResult, Status, ToolCallRecord};
use toolnexus::core::client::telemetry::StreamEvent;
use toolnexus::core::json::text::{to_text, Json};
use toolnexus::core::message::Message;
use toolnexus::core::metrics::MetricEvent;
use toolnexus::core::types::{Answer, Request, ToolResult};
use toolnexus::core::wire::Usage;
use toolnexus::json_value;
use toolnexus::{
    core::json::value::{Map, Value},
    json,
};

fn map() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::vec((any::<String>(), value()), 0..3).prop_map(|p| p.into_iter().collect())
}

fn request() -> impl Strategy<Value = Request> {
    (
        any::<String>(),
        any::<String>(),
        any::<String>(),
        proptest::option::of(any::<String>()),
        proptest::option::of(map()),
        proptest::option::of(any::<String>()),
    )
        .prop_map(|(id, kind, prompt, url, data, expires_at)| Request {
            id,
            kind,
            prompt,
            url,
            data,
            expires_at,
        })
}

fn tool_result() -> impl Strategy<Value = ToolResult> {
    (any::<String>(), any::<bool>(), proptest::option::of(map())).prop_map(
        |(output, is_error, metadata)| ToolResult {
            parts: None,
            output,
            is_error,
            metadata,
        },
    )
}

fn usage() -> impl Strategy<Value = Usage> {
    (any::<u64>(), any::<u64>(), any::<u64>()).prop_map(|(p, c, t)| Usage {
        prompt_tokens: p,
        completion_tokens: c,
        total_tokens: t,
    })
}

fn run_result() -> impl Strategy<Value = RunResult> {
    let record = (
        any::<String>(),
        value(),
        any::<String>(),
        any::<bool>(),
        proptest::option::of(map()),
    )
        .prop_map(|(name, args, output, is_error, metadata)| ToolCallRecord {
            name,
            args,
            output,
            is_error,
            metadata,
        });
    (
        any::<String>(),
        prop::collection::vec(value().prop_map(Message::from_value), 0..3),
        prop::collection::vec(record, 0..3),
        (any::<usize>(), any::<u32>(), usage(), any::<String>()),
        prop_oneof![
            Just(Status::Done),
            Just(Status::Pending),
            Just(Status::Incomplete)
        ],
        proptest::option::of(request()),
        proptest::option::of(any::<String>()),
        proptest::option::of(any::<String>()),
    )
        .prop_map(
            |(
                text,
                messages,
                tool_calls,
                (count, turns, usage, model),
                status,
                pending,
                limit,
                save_error,
            )| {
                RunResult {
                    text,
                    messages,
                    tool_calls,
                    tool_call_count: count,
                    turns,
                    usage,
                    model,
                    status,
                    pending,
                    limit,
                    save_error,
                }
            },
        )
}

fn ms() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(12.0),
        Just(0.25)
    ]
}

fn metric_event() -> impl Strategy<Value = MetricEvent> {
    prop_oneof![
        (
            any::<String>(),
            prop_oneof![Just("ok"), Just("error")],
            ms(),
            any::<u64>(),
            any::<u64>()
        )
            .prop_map(|(model, status, ms, p, c)| MetricEvent::Llm {
                model,
                status: status.into(),
                ms,
                prompt_tokens: p,
                completion_tokens: c,
                parts: None,
            }),
        (
            any::<String>(),
            any::<String>(),
            any::<bool>(),
            any::<bool>(),
            ms()
        )
            .prop_map(|(tool, source, is_error, pending, ms)| MetricEvent::Tool {
                tool,
                source,
                is_error,
                pending,
                ms,
            }),
        (
            any::<String>(),
            any::<u32>(),
            any::<usize>(),
            any::<u64>(),
            ms(),
            proptest::option::of(any::<String>())
        )
            .prop_map(|(model, turns, tool_calls, total_tokens, ms, error)| {
                MetricEvent::Run {
                    model,
                    turns,
                    tool_calls,
                    total_tokens,
                    ms,
                    error,
                }
            }),
    ]
}

fn stream_event() -> impl Strategy<Value = StreamEvent> {
    prop_oneof![
        any::<String>().prop_map(|delta| StreamEvent::Text { delta }),
        (any::<String>(), any::<String>(), value())
            .prop_map(|(id, name, args)| StreamEvent::ToolCall { id, name, args }),
        (
            any::<String>(),
            any::<String>(),
            any::<String>(),
            any::<bool>()
        )
            .prop_map(|(id, name, output, is_error)| {
                StreamEvent::ToolResult {
                    id,
                    name,
                    output,
                    is_error,
                    parts: None,
                }
            }),
        usage().prop_map(|usage| StreamEvent::Usage { usage }),
        request().prop_map(|request| StreamEvent::Pending { request }),
        run_result().prop_map(|result| StreamEvent::Done {
            result: Box::new(result)
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn values_are_written_as_serde_json_writes_them(v in value()) {
        prop_assert_eq!(to_text(&v), serde_json::to_string(&v).unwrap());
        prop_assert_eq!(Json(&v).to_string(), v.to_string());
    }

    #[test]
    fn records_are_written_as_their_derives_write_them(
        result in tool_result(), request in request(), usage in usage(),
        answer in (any::<String>(), any::<bool>(), proptest::option::of(map()), proptest::option::of(any::<String>())),
    ) {
        prop_assert_eq!(result.to_json_text(), serde_json::to_string(&result).unwrap());
        prop_assert_eq!(request.to_json_text(), serde_json::to_string(&request).unwrap());
        prop_assert_eq!(usage.to_json_text(), serde_json::to_string(&usage).unwrap());
        let answer = Answer { id: answer.0, ok: answer.1, data: answer.2, reason: answer.3 };
        prop_assert_eq!(answer.to_json_text(), serde_json::to_string(&answer).unwrap());
    }

    #[test]
    fn run_results_and_events_are_written_as_their_derives_write_them(
        result in run_result(), metric in metric_event(), event in stream_event(),
    ) {
        prop_assert_eq!(result.to_json_text(), serde_json::to_string(&result).unwrap());
        prop_assert_eq!(metric.to_json_text(), serde_json::to_string(&metric).unwrap());
        prop_assert_eq!(event.to_json_text(), serde_json::to_string(&event).unwrap());
    }

    #[test]
    fn json_value_builds_what_json_builds(
        s in any::<String>(), n in any::<i64>(), f in any::<f64>(), b in any::<bool>(), v in value(),
        o in proptest::option::of(any::<String>()), list in prop::collection::vec(any::<u32>(), 0..4),
    ) {
        let ours = json_value!({
            "s": s, "n": n, "f": f, "b": b, "v": v, "o": o, "list": list,
            "nested": {"inner": [s.as_str(), null, {"deep": -1}], "empty": {}, "none": []},
        });
        let theirs = json!({
            "s": s, "n": n, "f": f, "b": b, "v": v, "o": o, "list": list,
            "nested": {"inner": [s.as_str(), null, {"deep": -1}], "empty": {}, "none": []},
        });
        prop_assert_eq!(ours, theirs);
    }
}

#[test]
fn a_float_field_that_is_not_finite_is_null() {
    let event = MetricEvent::Tool {
        tool: "t".into(),
        source: "native".into(),
        is_error: false,
        pending: false,
        ms: f64::NAN,
    };
    assert_eq!(
        event.to_json_text(),
        r#"{"event":"tool","tool":"t","source":"native","isError":false,"pending":false,"ms":null}"#
    );
}
