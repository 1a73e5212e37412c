//! The OpenAI dialect's fast reader (`wire::openai_read`, no `toolnexus::core::json::value::Value`) and its slow
//! one (`OpenAi::parse_slowly`) give the same result for every response: every shape a field
//! can take, written with any whitespace and escaping, cut or changed anywhere, with repeated
//! keys. And the fast reader does take the shapes providers send.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use toolnexus::core::wire::openai::OpenAi;
use toolnexus::core::wire::openai_read;
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
            json!(1e300),
            json!(12345678901234567890u64)
        ]),
    ]
    .boxed()
}

fn call() -> BoxedStrategy<Value> {
    let function = object(vec![
        ("name", tool_name()),
        (
            "arguments",
            one_of(vec![
                json!(r#"{"city":"Paris"}"#),
                json!(r#"{"n": 1.5, "deep": {"a": [true]}}"#),
                json!(""),
                json!("  "),
                json!("not json"),
                json!("[1]"),
                json!(null),
                json!({"city": "Paris"}),
            ]),
        ),
        ("extra", one_of(vec![json!(0.25), json!([1, {"x": null}])])),
    ]);
    object(vec![
        (
            "id",
            one_of(vec![
                json!("call_1"),
                json!("call_2"),
                json!(""),
                json!(null),
                json!(7),
            ]),
        ),
        ("type", one_of(vec![json!("function")])),
        (
            "function",
            prop_oneof![4 => function, 1 => one_of(vec![json!(null), json!("x")])].boxed(),
        ),
    ])
}

fn message() -> BoxedStrategy<Value> {
    let content = prop_oneof![
        4 => text(),
        1 => one_of(vec![
            json!(null),
            json!([{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}]),
            json!(5),
        ]),
    ];
    let calls = prop_oneof![
        4 => proptest::collection::vec(call(), 0..3).prop_map(Value::Array),
        1 => one_of(vec![json!(null), json!("x"), json!([1])]),
    ];
    object(vec![
        ("role", one_of(vec![json!("assistant")])),
        ("content", content.boxed()),
        ("tool_calls", calls.boxed()),
        ("refusal", one_of(vec![json!(null)])),
        (
            "annotations",
            one_of(vec![json!([]), json!([{"score": 0.5}])]),
        ),
    ])
}

fn choice() -> BoxedStrategy<Value> {
    object(vec![
        ("index", one_of(vec![json!(0)])),
        (
            "message",
            prop_oneof![8 => message(), 1 => one_of(vec![json!(null), json!("x")])].boxed(),
        ),
        ("logprobs", one_of(vec![json!(null)])),
        (
            "finish_reason",
            one_of(vec![json!("stop"), json!("tool_calls")]),
        ),
    ])
}

fn response() -> BoxedStrategy<Value> {
    let usage = object(vec![
        ("prompt_tokens", count()),
        ("completion_tokens", count()),
        ("total_tokens", count()),
        ("queue_time", one_of(vec![json!(0.0123), json!(1e-7)])),
        (
            "prompt_tokens_details",
            one_of(vec![json!({"cached_tokens": 0})]),
        ),
    ]);
    object(vec![
        ("id", one_of(vec![json!("chatcmpl-1")])),
        ("object", one_of(vec![json!("chat.completion")])),
        ("created", one_of(vec![json!(1700000000), json!(1.7e9)])),
        ("model", text()),
        (
            "choices",
            prop_oneof![
                8 => proptest::collection::vec(choice(), 0..3).prop_map(Value::Array),
                1 => one_of(vec![json!(null), json!({})]),
            ]
            .boxed(),
        ),
        ("usage", prop_oneof![6 => usage, 1 => one_of(vec![json!(null), json!(5)])].boxed()),
        (
            "error",
            prop_oneof![
                6 => one_of(vec![json!(null)]),
                1 => one_of(vec![json!({"message": "bad key sk-123"}), json!("oops"), json!({"code": 1})]),
            ]
            .boxed(),
        ),
        ("system_fingerprint", one_of(vec![json!("fp_1"), json!(null)])),
    ])
}

/// The shapes providers send: string or null content, calls with ids, names and string
/// arguments, integer usage.
fn standard() -> BoxedStrategy<Value> {
    let call = ("[a-z_0-9]{1,8}", "[a-z_]{1,8}", "[a-zé \"]{0,6}").prop_map(|(id, name, city)| {
        let args = json!({"city": city}).to_string();
        json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}})
    });
    let message = (
        prop_oneof![text(), Just(json!(null))],
        proptest::collection::vec(call, 0..3),
    )
        .prop_map(|(content, calls)| {
            let mut m = json!({"role": "assistant", "content": content});
            if !calls.is_empty() {
                m.as_object_mut()
                    .unwrap()
                    .insert("tool_calls".into(), Value::Array(calls));
            }
            m
        });
    (message, 0u64..1000, 0u64..1000)
        .prop_map(|(message, p, c)| {
            json!({
                "id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000,
                "model": "gpt-4o-mini",
                "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c},
                "system_fingerprint": "fp_1"
            })
        })
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn both_readers_agree_on_every_shape(value in response(), style in style()) {
        let text = written(&value, &style);
        prop_assert_eq!(OpenAi.parse(&text), OpenAi.parse_slowly(&text), "text: {}", text);
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
        prop_assert_eq!(OpenAi.parse(&text), OpenAi.parse_slowly(&text), "text: {}", text);
    }

    #[test]
    fn the_fast_reader_takes_what_providers_send(value in standard(), style in style()) {
        let text = written(&value, &style);
        let fast = openai_read::read(&text);
        prop_assert!(fast.is_some(), "refused: {}", text);
        prop_assert_eq!(Ok(fast.unwrap()), OpenAi.parse_slowly(&text));
    }
}

#[test]
fn repeated_keys_read_as_the_slow_reader_reads_them() {
    let message = r#"{"role":"assistant","content":"a"}"#;
    for text in [
        format!(
            r#"{{"choices":[{{"message":{message}}}],"choices":[{{"message":{{"role":"assistant","content":"b"}}}}]}}"#
        ),
        format!(r#"{{"choices":[{{"message":{message},"message":{{"content":"b"}}}}]}}"#),
        r#"{"choices":[{"message":{"role":"assistant","content":"a","content":"b"}}]}"#.to_owned(),
        format!(
            r#"{{"choices":[{{"message":{message}}}],"usage":{{"prompt_tokens":1,"prompt_tokens":2}}}}"#
        ),
        format!(
            r#"{{"choices":[{{"message":{message}}}],"usage":null,"usage":{{"prompt_tokens":2}}}}"#
        ),
        format!(r#"{{"choices":[{{"message":{message}}}],"error":null,"error":"late"}}"#),
        format!(r#"{{"choices":[{{"message":{message}}}],"id":1,"id":2}}"#),
    ] {
        assert_eq!(OpenAi.parse(&text), OpenAi.parse_slowly(&text), "{text}");
    }
}
