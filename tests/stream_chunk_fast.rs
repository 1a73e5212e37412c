//! The OpenAI stream assembler's fast path (`wire::openai_chunk`: no `Value`) and its slow one
//! (`feed_slowly`) fold every sequence of events alike:
//! each feed's delta or error and the reply at the end, for every shape a field can take,
//! written with any whitespace and escaping, cut or changed anywhere, with repeated keys. And
//! the fast path does take what providers stream. (The Anthropic assembler has one reader;
//! a long Anthropic text is still appended in place.)
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use toolnexus::core::wire::anthropic::Anthropic;
use toolnexus::core::wire::openai::OpenAi;
use toolnexus::core::wire::openai_chunk;
use toolnexus::core::wire::sse::SseEvent;
use toolnexus::core::wire::stream::{AnthropicAssembler, Assembler, OpenAiAssembler};
use toolnexus::{core::json::value::Value, json};

use crate::json_style;
use json_style::{broken, mutation_byte, object, one_of, style, text, tool_name, written};

fn index() -> BoxedStrategy<Value> {
    prop_oneof![
        4 => (0u64..3).prop_map(Value::from),
        1 => one_of(vec![json!(null), json!(-1), json!(1.0), json!("0"), json!(12345678901234567890u64)]),
    ]
    .boxed()
}

fn piece() -> BoxedStrategy<Value> {
    let function = object(vec![
        ("name", tool_name()),
        (
            "arguments",
            prop_oneof![
                text(),
                one_of(vec![json!("{\"city\":"), json!(null), json!({"a": 1})])
            ]
            .boxed(),
        ),
        ("extra", one_of(vec![json!(0.25), json!([1, {"x": null}])])),
    ]);
    object(vec![
        ("index", index()),
        (
            "id",
            one_of(vec![json!("call_1"), json!(""), json!(null), json!(7)]),
        ),
        ("type", one_of(vec![json!("function")])),
        (
            "function",
            prop_oneof![4 => function, 1 => one_of(vec![json!(null), json!("x")])].boxed(),
        ),
    ])
}

fn delta() -> BoxedStrategy<Value> {
    let calls = prop_oneof![
        4 => proptest::collection::vec(piece(), 0..3).prop_map(Value::Array),
        1 => one_of(vec![json!(null), json!("x"), json!([1])]),
    ];
    object(vec![
        ("role", one_of(vec![json!("assistant"), json!(null)])),
        (
            "content",
            prop_oneof![4 => text(), 1 => one_of(vec![json!(null), json!(5), json!(["a"])])]
                .boxed(),
        ),
        ("tool_calls", calls.boxed()),
        ("refusal", one_of(vec![json!(null)])),
    ])
}

fn choice() -> BoxedStrategy<Value> {
    object(vec![
        ("index", one_of(vec![json!(0)])),
        (
            "delta",
            prop_oneof![8 => delta(), 1 => one_of(vec![json!(null), json!("x")])].boxed(),
        ),
        ("logprobs", one_of(vec![json!(null)])),
        (
            "finish_reason",
            one_of(vec![
                json!(null),
                json!("stop"),
                json!("tool_calls"),
                json!(0),
            ]),
        ),
    ])
}

fn chunk() -> BoxedStrategy<Value> {
    object(vec![
        ("id", one_of(vec![json!("chatcmpl-1")])),
        ("object", one_of(vec![json!("chat.completion.chunk")])),
        ("created", one_of(vec![json!(1700000000), json!(1.7e9)])),
        (
            "choices",
            prop_oneof![
                8 => proptest::collection::vec(choice(), 0..3).prop_map(Value::Array),
                1 => one_of(vec![json!(null), json!({})]),
            ]
            .boxed(),
        ),
        (
            "usage",
            prop_oneof![
                4 => one_of(vec![json!(null)]),
                1 => one_of(vec![json!({"prompt_tokens": 2, "completion_tokens": 3, "total_tokens": 5}), json!(5)]),
            ]
            .boxed(),
        ),
        (
            "error",
            prop_oneof![
                8 => one_of(vec![json!(null)]),
                1 => one_of(vec![json!({"message": "overloaded"}), json!("oops")]),
            ]
            .boxed(),
        ),
    ])
}

/// Folds `datas` twice, fast and slow; every feed and the end must agree.
fn agree(datas: &[String]) -> Result<(), TestCaseError> {
    let (mut fast, mut slow) = (OpenAiAssembler::default(), OpenAiAssembler::default());
    for data in datas {
        let event = SseEvent {
            event: String::new(),
            data: data.clone(),
        };
        prop_assert_eq!(
            fast.feed(&event),
            slow.feed_slowly(&event),
            "chunk: {}",
            data
        );
    }
    prop_assert_eq!(
        fast.finish(&OpenAi),
        slow.finish(&OpenAi),
        "chunks: {:?}",
        datas
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn both_paths_fold_every_shape_alike(chunks in proptest::collection::vec(chunk(), 1..6), style in style(), done in any::<bool>()) {
        let mut datas: Vec<String> = chunks.iter().map(|c| written(c, &style)).collect();
        if done {
            datas.push("[DONE]".into());
        }
        agree(&datas)?;
    }

    #[test]
    fn both_paths_fold_broken_chunks_alike(
        chunks in proptest::collection::vec(chunk(), 1..4),
        style in style(),
        which in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        cut in any::<bool>(),
        byte in mutation_byte(),
    ) {
        let mut datas: Vec<String> = chunks.iter().map(|c| written(c, &style)).collect();
        let i = which.index(datas.len());
        let Some(text) = broken(datas[i].clone(), at, cut, byte) else { return Ok(()) };
        datas[i] = text;
        datas.push("[DONE]".into());
        agree(&datas)?;
    }

    #[test]
    fn the_fast_path_takes_what_providers_stream(
        content in "[a-z \"\\\\\n/é😀]{0,12}",
        args in "[a-z{}\":, ]{0,12}",
        finish in any::<bool>(),
        style in style(),
    ) {
        for value in [
            json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                   "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": if finish { json!("stop") } else { json!(null) }}]}),
            json!({"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                   "function": {"name": "get_weather", "arguments": args}}]}, "finish_reason": null}]}),
            json!({"id": "c", "choices": [{"index": 0, "delta": {"role": "assistant", "content": null, "refusal": null}}], "usage": null}),
        ] {
            let text = written(&value, &style);
            prop_assert!(openai_chunk::read(&text).is_some(), "refused: {}", text);
        }
    }
}

#[test]
fn repeated_keys_fold_as_the_slow_path_folds_them() {
    for data in [
        r#"{"choices":[{"delta":{"content":"a"}}],"choices":[{"delta":{"content":"b"}}]}"#,
        r#"{"choices":[{"delta":{"content":"a"},"delta":{"content":"b"}}]}"#,
        r#"{"choices":[{"delta":{"content":"a","content":"b"}}]}"#,
        r#"{"choices":[{"finish_reason":"stop","finish_reason":null}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"index":1,"id":"x","function":{"name":"a","name":"b"}}]}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"x","function":{"name":"f","arguments":"a"}}],"tool_calls":[{"index":0,"function":{"arguments":"b"}}]}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"x","function":{"name":"f","arguments":"a"},"function":{"arguments":"b"}}]}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"x","function":{"name":"f","arguments":"a","arguments":"b"}}]}}]}"#,
        r#"{"choices":[{"delta":{"content":"a"}}],"usage":null,"usage":{"total_tokens":2}}"#,
        r#"{"choices":[{"delta":{"content":"a"}}],"error":null,"error":"late"}"#,
        r#"{"choices":[{"delta":{"content":"a"}}],"id":1,"id":2}"#,
    ] {
        agree(&[data.to_owned(), "[DONE]".to_owned()]).unwrap();
    }
}

// ---- Anthropic (one reader: no fast path to compare with)

const STOP: &str = r#"{"type":"message_stop"}"#;

#[test]
fn a_long_anthropic_text_is_appended_in_place() {
    // 20,000 deltas: the text so far is never copied (a copy per delta made this quadratic).
    let mut assembler = AnthropicAssembler::default();
    let delta = SseEvent { event: String::new(), data: r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"abcde"}}"#.into() };
    for _ in 0..20_000 {
        assert_eq!(assembler.feed(&delta).unwrap().as_deref(), Some("abcde"));
    }
    assembler
        .feed(&SseEvent {
            event: String::new(),
            data: STOP.into(),
        })
        .unwrap();
    assert_eq!(assembler.finish(&Anthropic).unwrap().text.len(), 100_000);
}

#[test]
fn tool_call_pieces_in_any_index_order_end_in_index_order() {
    let piece = |index: u64, id: &str, args: &str| {
        let call = if id.is_empty() {
            json!({"index": index, "function": {"arguments": args}})
        } else {
            json!({"index": index, "id": id, "type": "function", "function": {"name": format!("f{index}"), "arguments": args}})
        };
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}).to_string()
    };
    let datas = [
        piece(2, "c2", "{\"n\":"),
        piece(0, "c0", "{\"n\":"),
        piece(1, "c1", "{}"),
        piece(0, "", "0}"),
        piece(2, "", "2}"),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}).to_string(),
        "[DONE]".to_owned(),
    ];
    agree(&datas).unwrap();
    let mut assembler = OpenAiAssembler::default();
    for data in &datas {
        assembler
            .feed(&SseEvent {
                event: String::new(),
                data: data.clone(),
            })
            .unwrap();
    }
    let reply = assembler.finish(&OpenAi).unwrap();
    let calls: Vec<(String, String, Value)> = reply
        .tool_calls
        .into_iter()
        .map(|c| (c.id, c.name, c.args.unwrap()))
        .collect();
    assert_eq!(
        calls,
        [
            ("c0".into(), "f0".into(), json!({"n": 0})),
            ("c1".into(), "f1".into(), json!({})),
            ("c2".into(), "f2".into(), json!({"n": 2})),
        ]
    );
}

#[test]
fn content_blocks_in_any_index_order_end_in_index_order_and_a_restart_replaces_a_block() {
    let start = |index: u64, block: Value| {
        json!({"type": "content_block_start", "index": index, "content_block": block}).to_string()
    };
    let text = |index: u64, t: &str| {
        json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": t}}).to_string()
    };
    let events: Vec<(String, String)> = [
        start(1, json!({"type": "text", "text": ""})),
        text(1, "second"),
        start(0, json!({"type": "text", "text": ""})),
        text(0, "lost"),
        start(0, json!({"type": "text", "text": ""})),
        text(0, "first "),
        STOP.to_owned(),
    ]
    .into_iter()
    .map(|data| (String::new(), data))
    .collect();
    let mut assembler = AnthropicAssembler::default();
    for (name, data) in &events {
        assembler
            .feed(&SseEvent {
                event: name.clone(),
                data: data.clone(),
            })
            .unwrap();
    }
    assert_eq!(assembler.finish(&Anthropic).unwrap().text, "first second");
}
