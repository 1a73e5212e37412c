//! The Anthropic dialect's fast reader (`wire::anthropic_read`, no `toolnexus::core::json::value::Value`) and its
//! slow one (`Anthropic::parse_slowly`) give the same result for every response: every shape a
//! field can take, written with any whitespace and escaping, cut or changed anywhere, with
//! repeated keys. The fast reader takes the shapes providers send; and the tool results
//! message written as text is the one `json!` would make.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use toolnexus::core::message::Message;
use toolnexus::core::types::ToolResult;
use toolnexus::core::wire::anthropic::Anthropic;
use toolnexus::core::wire::anthropic_read;
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

    #[test]
    fn both_readers_agree_on_every_shape(value in response(), style in style()) {
        let text = written(&value, &style);
        prop_assert_eq!(Anthropic.parse(&text), Anthropic.parse_slowly(&text), "text: {}", text);
    }

    #[test]
    fn both_readers_agree_on_broken_text(
        value in response(),
        style in style(),
        at in any::<prop::sample::Index>(),
        cut in any::<bool>(),
        byte in mutation_byte(),
    ) {
        let Some(text) = broken(written(&value, &style), at, cut, byte) else { return Ok(()) };
        prop_assert_eq!(Anthropic.parse(&text), Anthropic.parse_slowly(&text), "text: {}", text);
    }

    #[test]
    fn the_fast_reader_takes_what_providers_send(value in standard(), style in style()) {
        let text = written(&value, &style);
        let fast = anthropic_read::read(&text);
        prop_assert!(fast.is_some(), "refused: {}", text);
        prop_assert_eq!(Ok(fast.unwrap()), Anthropic.parse_slowly(&text));
    }

    #[test]
    fn tool_results_are_written_as_json_would_write_them(
        results in proptest::collection::vec(("[a-z_0-9\"\\\\é]{0,8}", "[a-z \"\\\\\n\u{1}é😀]{0,16}", any::<bool>()), 0..4),
    ) {
        let results: Vec<(String, ToolResult)> = results
            .into_iter()
            .map(|(id, output, is_error)| (id, ToolResult { output, is_error, metadata: None }))
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

#[test]
fn repeated_keys_read_as_the_slow_reader_reads_them() {
    for text in [
        r#"{"content":[{"type":"text","text":"a"}],"content":[{"type":"text","text":"b"}]}"#,
        r#"{"content":[{"type":"text","text":"a","text":"b"}]}"#,
        r#"{"content":[{"type":"text","type":"tool_use","id":"x","name":"f","input":{}}]}"#,
        r#"{"content":[{"type":"tool_use","id":"x","name":"f","input":{"a":1},"input":{"a":2}}]}"#,
        r#"{"content":[],"usage":{"input_tokens":1,"input_tokens":2}}"#,
        r#"{"content":[],"usage":null,"usage":{"input_tokens":2}}"#,
        r#"{"content":[],"error":null,"error":"late"}"#,
        r#"{"content":[],"type":"message","type":"error"}"#,
        r#"{"content":[],"id":1,"id":2}"#,
    ] {
        assert_eq!(
            Anthropic.parse(text),
            Anthropic.parse_slowly(text),
            "{text}"
        );
    }
}
