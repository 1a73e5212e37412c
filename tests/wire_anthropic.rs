//! The Anthropic dialect's one reader (`Anthropic::parse`, through a `Value`): every shape a
//! field can take reads the same however it is written, text cut or changed anywhere is an
//! error or a reply (never a panic), and what providers send reads whole. And the tool results
//! message written as text is the one `json!` would make.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use toolnexus::core::message::Message;
use toolnexus::core::types::ToolResult;
use toolnexus::core::wire::anthropic::Anthropic;
use toolnexus::core::wire::Dialect;
use toolnexus::{core::json::value::Value, json};

use crate::json_style;
use json_style::{broken, mutation_byte, object, one_of, style, text, tool_name, written};

fn count() -> BoxedStrategy<Value> {
    prop_oneof![
        (0u64..100_000).prop_map(Value::from),
        one_of(vec![
            json!(null),
            json!(-3),
            json!(2.7),
            json!("3"),
            json!(12345678901234567890u64)
        ]),
    ]
    .boxed()
}

fn block() -> BoxedStrategy<Value> {
    let kind = one_of(vec![
        json!("text"),
        json!("tool_use"),
        json!("thinking"),
        json!(null),
        json!(3),
    ]);
    let input = one_of(vec![
        json!({"city": "Paris"}),
        json!({"n": 1.5, "deep": {"a": [true, null]}}),
        json!({}),
        json!(null),
        json!("not an object"),
        json!([1, 2]),
    ]);
    prop_oneof![
        8 => object(vec![
            ("type", kind),
            ("text", prop_oneof![4 => text(), 1 => one_of(vec![json!(null), json!(5)])].boxed()),
            ("id", one_of(vec![json!("toolu_1"), json!("toolu_2"), json!(""), json!(null), json!(7), json!(-2), json!(1.5)])),
            ("name", tool_name()),
            ("input", input),
            ("citations", one_of(vec![json!(null), json!([{"x": 0.25}])])),
        ]),
        1 => one_of(vec![json!("a string"), json!(5), json!(null), json!([1])]),
    ]
    .boxed()
}

fn response() -> BoxedStrategy<Value> {
    let usage = object(vec![
        ("input_tokens", count()),
        ("output_tokens", count()),
        (
            "cache_read_input_tokens",
            one_of(vec![json!(0), json!(1.5)]),
        ),
    ]);
    object(vec![
        ("id", one_of(vec![json!("msg_1")])),
        ("type", one_of(vec![json!("message"), json!("error"), json!(null)])),
        ("role", one_of(vec![json!("assistant")])),
        ("model", text()),
        (
            "content",
            prop_oneof![
                8 => proptest::collection::vec(block(), 0..4).prop_map(Value::Array),
                1 => one_of(vec![json!(null), json!({}), json!("x")]),
            ]
            .boxed(),
        ),
        ("stop_reason", one_of(vec![json!("end_turn"), json!("tool_use"), json!(null)])),
        ("usage", prop_oneof![6 => usage, 1 => one_of(vec![json!(null), json!(5)])].boxed()),
        (
            "error",
            prop_oneof![
                6 => one_of(vec![json!(null)]),
                1 => one_of(vec![json!({"type": "overloaded_error", "message": "overloaded"}), json!("oops")]),
            ]
            .boxed(),
        ),
    ])
}

/// What providers send: text and tool_use blocks, integer usage.
fn standard() -> BoxedStrategy<Value> {
    let tool = ("[a-z_0-9]{1,8}", "[a-z_]{1,8}", "[a-zé \"]{0,6}")
        .prop_map(|(id, name, city)| json!({"type": "tool_use", "id": id, "name": name, "input": {"city": city}}));
    let words = "[a-z \"\\\\\n/é😀]{0,12}".prop_map(|t| json!({"type": "text", "text": t}));
    let blocks = proptest::collection::vec(prop_oneof![words, tool], 0..4);
    (blocks, 0u64..1000, 0u64..1000)
        .prop_map(|(blocks, i, o)| {
            json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude", "content": blocks,
                   "stop_reason": "end_turn", "stop_sequence": null, "usage": {"input_tokens": i, "output_tokens": o}})
        })
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Whitespace and escaping change nothing: the reply is the one its compact text gives.
    #[test]
    fn every_shape_reads_the_same_however_written(value in response(), style in style()) {
        let text = written(&value, &style);
        prop_assert_eq!(Anthropic.parse(&text), Anthropic.parse(&value.to_string()), "text: {}", text);
    }

    /// Cut or changed anywhere, a response is an error or a reply, never a panic.
    #[test]
    fn broken_text_is_an_error_or_a_reply(
        value in response(),
        style in style(),
        at in any::<prop::sample::Index>(),
        cut in any::<bool>(),
        byte in mutation_byte(),
    ) {
        let Some(text) = broken(written(&value, &style), at, cut, byte) else { return Ok(()) };
        let _ = Anthropic.parse(&text);
    }

    /// What providers send reads whole: the text blocks joined, one call per `tool_use`, the
    /// usage.
    #[test]
    fn what_providers_send_reads_whole(value in standard(), style in style()) {
        let text = written(&value, &style);
        let reply = Anthropic.parse(&text);
        prop_assert!(reply.is_ok(), "refused: {}", text);
        let reply = reply.unwrap();
        let blocks = value["content"].as_array().unwrap();
        let joined: String = blocks.iter().filter_map(|b| b.get("text").and_then(Value::as_str)).collect();
        prop_assert_eq!(&reply.text, &joined);
        let uses = blocks.iter().filter(|b| b["type"] == "tool_use").count();
        prop_assert_eq!(reply.tool_calls.len(), uses);
        prop_assert_eq!(reply.usage.prompt_tokens, value["usage"]["input_tokens"].as_u64().unwrap());
        prop_assert_eq!(reply.usage.completion_tokens, value["usage"]["output_tokens"].as_u64().unwrap());
    }
    #[test]
    fn tool_results_are_written_as_json_would_write_them(
        results in proptest::collection::vec(("[a-z_0-9\"\\\\é]{0,8}", "[a-z \"\\\\\n\u{1}é😀]{0,16}", any::<bool>()), 0..4),
    ) {
        let results: Vec<(String, ToolResult)> = results
            .into_iter()
            .map(|(id, output, is_error)| (id, ToolResult { parts: None, output, is_error, metadata: None }))
            .collect();
        let messages = Anthropic.tool_results(&results);
        if results.is_empty() {
            prop_assert!(messages.is_empty());
        } else {
            let blocks: Vec<Value> = results
                .iter()
                .map(|(id, r)| json!({"type": "tool_result", "tool_use_id": id, "content": r.output, "is_error": r.is_error}))
                .collect();
            let expected = Message::from_value(json!({"role": "user", "content": blocks}));
            prop_assert_eq!(messages.len(), 1);
            prop_assert_eq!(messages[0].text(), expected.text());
        }
    }
}
