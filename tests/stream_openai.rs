//! The OpenAI stream assembler folds chunks into the reply a plain call would give: text
//! deltas, tool calls assembled by `index` across chunks (interleaved parallel calls, names and
//! arguments split anywhere), usage chunks with empty choices, `[DONE]` or a `finish_reason` as
//! the end; a stream with neither is `Truncated`, an error chunk is `Provider`.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use toolnexus::core::wire::openai::OpenAi;
use toolnexus::core::wire::sse::SseEvent;
use toolnexus::core::wire::stream::{Assembler, OpenAiAssembler};
use toolnexus::core::wire::{Dialect, Reply, Usage, WireError};
use toolnexus::{core::json::value::Value, json};

fn data(v: &Value) -> SseEvent {
    SseEvent {
        event: String::new(),
        data: v.to_string(),
    }
}

fn done() -> SseEvent {
    SseEvent {
        event: String::new(),
        data: "[DONE]".into(),
    }
}

/// Feeds every event; returns the deltas and the reply.
fn fold(
    a: &mut dyn Assembler,
    d: &dyn Dialect,
    events: &[SseEvent],
) -> (Vec<String>, Result<Reply, WireError>) {
    let mut deltas = Vec::new();
    for e in events {
        match a.feed(e) {
            Ok(Some(delta)) => deltas.push(delta),
            Ok(None) => {}
            Err(err) => return (deltas, Err(err)),
        }
    }
    (deltas, a.finish(d))
}

fn openai(events: &[SseEvent]) -> (Vec<String>, Result<Reply, WireError>) {
    fold(&mut OpenAiAssembler::default(), &OpenAi, events)
}

fn delta(d: Value) -> SseEvent {
    data(&json!({"choices": [{"index": 0, "delta": d}]}))
}

fn call_delta(index: u64, id: Option<&str>, name: Option<&str>, args: Option<&str>) -> SseEvent {
    let mut function = toolnexus::core::json::value::Map::new();
    if let Some(n) = name {
        function.insert("name".into(), json!(n));
    }
    if let Some(a) = args {
        function.insert("arguments".into(), json!(a));
    }
    let mut call = json!({"index": index, "function": function});
    if let Some(id) = id {
        call.as_object_mut().unwrap().insert("id".into(), json!(id));
        call.as_object_mut()
            .unwrap()
            .insert("type".into(), json!("function"));
    }
    delta(json!({"tool_calls": [call]}))
}

fn finish(reason: &str) -> SseEvent {
    data(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}))
}

fn usage_chunk(p: u64, c: u64) -> SseEvent {
    data(
        &json!({"choices": [], "usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}}),
    )
}

#[test]
fn openai_text_deltas_usage_and_done() {
    let events = [
        delta(json!({"role": "assistant", "content": ""})),
        delta(json!({"content": "Hel"})),
        delta(json!({"content": "lo 😀"})),
        finish("stop"),
        usage_chunk(5, 2),
        done(),
    ];
    let (deltas, reply) = openai(&events);
    let reply = reply.unwrap();
    assert_eq!(deltas, ["Hel", "lo 😀"]);
    assert_eq!(reply.text, "Hello 😀");
    assert!(reply.tool_calls.is_empty());
    assert_eq!(
        reply.usage,
        Usage {
            prompt_tokens: 5,
            completion_tokens: 2,
            total_tokens: 7
        }
    );
    assert_eq!(
        reply.assistant,
        json!({"role": "assistant", "content": "Hello 😀"})
    );
}

#[test]
fn openai_two_parallel_calls_interleaved_are_assembled_by_index() {
    let events = [
        call_delta(0, Some("call_a"), Some("get_"), Some("")),
        call_delta(1, Some("call_b"), Some("get_ti"), Some("{\"ci")),
        call_delta(0, None, Some("weather"), Some("{\"city\":")),
        call_delta(1, None, Some("me"), Some("ty\":\"Os")),
        call_delta(0, None, None, Some("\"Paris\"}")),
        call_delta(1, None, None, Some("lo\"}")),
        finish("tool_calls"),
        usage_chunk(9, 4),
        done(),
    ];
    let (deltas, reply) = openai(&events);
    let reply = reply.unwrap();
    assert!(deltas.is_empty());
    let calls: Vec<_> = reply
        .tool_calls
        .iter()
        .map(|c| (c.id.as_str(), c.name.as_str(), c.args.clone().unwrap()))
        .collect();
    assert_eq!(
        calls,
        [
            ("call_a", "get_weather", json!({"city": "Paris"})),
            ("call_b", "get_time", json!({"city": "Oslo"}))
        ]
    );
    assert_eq!(
        reply.assistant,
        json!({"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
        {"id": "call_b", "type": "function", "function": {"name": "get_time", "arguments": "{\"city\":\"Oslo\"}"}}]})
    );
    assert_eq!(reply.usage.total_tokens, 13);
}

#[test]
fn openai_calls_are_ordered_by_index_not_by_arrival() {
    let events = [
        call_delta(1, Some("second"), Some("b"), Some("{}")),
        call_delta(0, Some("first"), Some("a"), Some("{}")),
        done(),
    ];
    let ids: Vec<_> = openai(&events)
        .1
        .unwrap()
        .tool_calls
        .into_iter()
        .map(|c| c.id)
        .collect();
    assert_eq!(ids, ["first", "second"]);
}

#[test]
fn openai_text_before_tool_calls_is_kept_with_them() {
    let events = [
        delta(json!({"content": "Let me check."})),
        call_delta(0, Some("c"), Some("t"), Some("{\"x\":1}")),
        finish("tool_calls"),
    ];
    let reply = openai(&events).1.unwrap();
    assert_eq!(reply.text, "Let me check.");
    assert_eq!(reply.assistant["content"], json!("Let me check."));
    assert_eq!(reply.tool_calls[0].args, Ok(json!({"x": 1})));
}

#[test]
fn openai_done_alone_or_finish_reason_alone_end_the_stream() {
    let only_done = openai(&[delta(json!({"content": "a"})), done()]).1.unwrap();
    assert_eq!(only_done.text, "a");
    assert_eq!(only_done.usage, Usage::default());
    let only_finish = openai(&[delta(json!({"content": "b"})), finish("length")])
        .1
        .unwrap();
    assert_eq!(only_finish.text, "b");
    let spaced = openai(&[SseEvent {
        event: String::new(),
        data: " [DONE] ".into(),
    }])
    .1
    .unwrap();
    assert_eq!(spaced.text, "");
}

#[test]
fn openai_a_stream_with_neither_is_truncated() {
    let (deltas, reply) = openai(&[delta(json!({"content": "partial"})), usage_chunk(1, 1)]);
    assert_eq!(deltas, ["partial"]);
    let err = reply.unwrap_err();
    assert_eq!(err, WireError::Truncated("its [DONE] line"));
    assert_eq!(err.to_string(), "the stream ended before its [DONE] line");
    assert_eq!(
        openai(&[]).1.unwrap_err(),
        WireError::Truncated("its [DONE] line")
    );
    // A null finish_reason is not an end.
    let null_reason =
        data(&json!({"choices": [{"index": 0, "delta": {"content": "x"}, "finish_reason": null}]}));
    assert!(matches!(
        openai(&[null_reason]).1,
        Err(WireError::Truncated(_))
    ));
}

#[test]
fn openai_an_error_chunk_is_a_provider_error() {
    let err = openai(&[
        delta(json!({"content": "a"})),
        data(&json!({"error": {"message": "rate limited", "code": 429}})),
    ])
    .1
    .unwrap_err();
    assert_eq!(err, WireError::Provider("rate limited".into()));
    let err = openai(&[data(&json!({"error": "boom"}))]).1.unwrap_err();
    assert_eq!(err, WireError::Provider("boom".into()));
}

#[test]
fn openai_a_chunk_that_is_not_json_is_not_json() {
    assert!(matches!(
        openai(&[SseEvent {
            event: String::new(),
            data: "{oops".into()
        }])
        .1,
        Err(WireError::NotJson(_))
    ));
}

#[test]
fn openai_null_usage_chunks_do_not_erase_the_usage() {
    let events = [
        usage_chunk(3, 4),
        data(
            &json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": null}),
        ),
        done(),
    ];
    assert_eq!(openai(&events).1.unwrap().usage.total_tokens, 7);
}
