//! The Anthropic stream assembler: `message_start` usage, `content_block_start/delta/stop` with
//! `text_delta` and `input_json_delta` split mid-token, `message_delta` usage, `message_stop`;
//! `ping` changes nothing, an `error` event is `Provider`, a missing `message_stop` `Truncated`.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use toolnexus::core::wire::anthropic::Anthropic;
use toolnexus::core::wire::sse::SseEvent;
use toolnexus::core::wire::stream::{AnthropicAssembler, Assembler};
use toolnexus::core::wire::{Dialect, Reply, Usage, WireError};
use toolnexus::{core::json::value::Value, json};

fn data(v: &Value) -> SseEvent {
    SseEvent {
        event: String::new(),
        data: v.to_string(),
    }
}

fn named(v: &Value) -> SseEvent {
    SseEvent {
        event: v["type"].as_str().unwrap_or("").into(),
        data: v.to_string(),
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

fn anthropic(events: &[SseEvent]) -> (Vec<String>, Result<Reply, WireError>) {
    fold(&mut AnthropicAssembler::default(), &Anthropic, events)
}

fn block_start(index: u64, block: Value) -> SseEvent {
    named(&json!({"type": "content_block_start", "index": index, "content_block": block}))
}

fn block_delta(index: u64, d: Value) -> SseEvent {
    named(&json!({"type": "content_block_delta", "index": index, "delta": d}))
}

fn message_start(input: u64) -> SseEvent {
    named(
        &json!({"type": "message_start", "message": {"id": "m", "role": "assistant", "content": [], "usage": {"input_tokens": input, "output_tokens": 1}}}),
    )
}

fn simple(t: &str) -> SseEvent {
    named(&json!({"type": t}))
}

fn message_delta(out: u64, stop: &str) -> SseEvent {
    named(
        &json!({"type": "message_delta", "delta": {"stop_reason": stop}, "usage": {"output_tokens": out}}),
    )
}

#[test]
fn anthropic_a_full_stream_with_text_and_a_tool_use_split_mid_token() {
    let events = [
        message_start(11),
        simple("ping"),
        block_start(0, json!({"type": "text", "text": ""})),
        block_delta(0, json!({"type": "text_delta", "text": "Checking "})),
        simple("ping"),
        block_delta(0, json!({"type": "text_delta", "text": "the weather…"})),
        named(&json!({"type": "content_block_stop", "index": 0})),
        block_start(
            1,
            json!({"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}),
        ),
        block_delta(1, json!({"type": "input_json_delta", "partial_json": ""})),
        block_delta(
            1,
            json!({"type": "input_json_delta", "partial_json": "{\"ci"}),
        ),
        block_delta(
            1,
            json!({"type": "input_json_delta", "partial_json": "ty\": \"Pa"}),
        ),
        block_delta(
            1,
            json!({"type": "input_json_delta", "partial_json": "ris\", \"days\": 1"}),
        ),
        block_delta(
            1,
            json!({"type": "input_json_delta", "partial_json": "2, \"u\": \"\\u00e"}),
        ),
        block_delta(
            1,
            json!({"type": "input_json_delta", "partial_json": "9\"}"}),
        ),
        named(&json!({"type": "content_block_stop", "index": 1})),
        message_delta(17, "tool_use"),
        simple("message_stop"),
    ];
    let (deltas, reply) = anthropic(&events);
    let reply = reply.unwrap();
    assert_eq!(deltas, ["Checking ", "the weather…"]);
    assert_eq!(reply.text, "Checking the weather…");
    assert_eq!(reply.tool_calls.len(), 1);
    assert_eq!(reply.tool_calls[0].id, "toolu_1");
    assert_eq!(reply.tool_calls[0].name, "get_weather");
    assert_eq!(
        reply.tool_calls[0].args,
        Ok(json!({"city": "Paris", "days": 12, "u": "é"}))
    );
    assert_eq!(
        reply.usage,
        Usage {
            prompt_tokens: 11,
            completion_tokens: 17,
            total_tokens: 28
        }
    );
    assert_eq!(
        reply.assistant,
        json!({"role": "assistant", "content": [
        {"type": "text", "text": "Checking the weather…"},
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris", "days": 12, "u": "é"}}]})
    );
}

#[test]
fn anthropic_a_tool_use_without_input_deltas_has_empty_input() {
    let events = [
        message_start(1),
        block_start(
            0,
            json!({"type": "tool_use", "id": "t", "name": "now", "input": {}}),
        ),
        named(&json!({"type": "content_block_stop", "index": 0})),
        message_delta(2, "tool_use"),
        simple("message_stop"),
    ];
    assert_eq!(
        anthropic(&events).1.unwrap().tool_calls[0].args,
        Ok(json!({}))
    );
}

#[test]
fn anthropic_the_type_comes_from_the_data_even_without_an_event_line() {
    let events = [
        data(&json!({"type": "message_start", "message": {"usage": {"input_tokens": 2}}})),
        data(
            &json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}}),
        ),
        data(&json!({"type": "message_stop"})),
    ];
    let (deltas, reply) = anthropic(&events);
    assert_eq!(deltas, ["hi"]);
    assert_eq!(reply.unwrap().usage.prompt_tokens, 2);
}

#[test]
fn anthropic_an_error_event_is_a_provider_error() {
    let error = named(
        &json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    );
    let (deltas, reply) = anthropic(&[
        message_start(1),
        block_delta(0, json!({"type": "text_delta", "text": "a"})),
        error,
    ]);
    assert_eq!(deltas, ["a"]);
    assert_eq!(reply.unwrap_err(), WireError::Provider("Overloaded".into()));
}

#[test]
fn anthropic_a_missing_message_stop_is_truncated() {
    let events = [
        message_start(1),
        block_start(0, json!({"type": "text", "text": ""})),
        block_delta(0, json!({"type": "text_delta", "text": "cut"})),
        message_delta(3, "end_turn"),
    ];
    let err = anthropic(&events).1.unwrap_err();
    assert_eq!(err, WireError::Truncated("its message_stop event"));
    assert_eq!(
        err.to_string(),
        "the stream ended before its message_stop event"
    );
    assert_eq!(
        anthropic(&[]).1.unwrap_err(),
        WireError::Truncated("its message_stop event")
    );
}

#[test]
fn anthropic_ping_alone_changes_nothing() {
    let events = [
        message_start(4),
        simple("ping"),
        simple("ping"),
        simple("message_stop"),
    ];
    let (deltas, reply) = anthropic(&events);
    let reply = reply.unwrap();
    assert!(deltas.is_empty());
    assert_eq!(reply.text, "");
    assert_eq!(
        reply.usage,
        Usage {
            prompt_tokens: 4,
            completion_tokens: 1,
            total_tokens: 5
        }
    );
}

#[test]
fn anthropic_blocks_keep_their_index_order() {
    let events = [
        message_start(1),
        block_start(
            1,
            json!({"type": "tool_use", "id": "b", "name": "two", "input": {}}),
        ),
        block_start(
            0,
            json!({"type": "tool_use", "id": "a", "name": "one", "input": {}}),
        ),
        simple("message_stop"),
    ];
    let ids: Vec<_> = anthropic(&events)
        .1
        .unwrap()
        .tool_calls
        .into_iter()
        .map(|c| c.id)
        .collect();
    assert_eq!(ids, ["a", "b"]);
}
