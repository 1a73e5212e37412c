//! Single-turn translation's pure part (SPEC §11): the reference port's helpers on JSON data,
//! the request check (bad input named, never sent), the bodies, and replies read back.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use toolnexus::core::translate::helpers::*;
use toolnexus::core::translate::{anthropic_result, openai_result, TranslateRequest};
use toolnexus::core::wire::Usage;
use toolnexus::{core::json::value::Value, json};

fn read(messages: Value) -> Result<TranslateRequest, String> {
    TranslateRequest::read(messages, json!(null), json!(null), json!(null), json!(null))
}

#[test]
fn a_multi_turn_tool_exchange_keeps_its_structure() {
    let (messages, system) = openai_messages_to_anthropic(&json!([
        {"role": "system", "content": "Be terse."},
        {"role": "user", "content": "weather in Chennai?"},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_abc", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Chennai\"}"}}
        ]},
        {"role": "tool", "tool_call_id": "call_abc", "content": "31C, clear"},
    ]));
    assert_eq!(system, "Be terse.");
    assert_eq!(
        Value::Array(messages),
        json!([
            {"role": "user", "content": "weather in Chennai?"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "call_abc", "name": "get_weather", "input": {"city": "Chennai"}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "content": "31C, clear", "tool_use_id": "call_abc"}
            ]},
        ])
    );
}

#[test]
fn consecutive_tool_results_merge_into_one_user_turn() {
    let (messages, _) = openai_messages_to_anthropic(&json!([
        {"role": "user", "content": "do three things"},
        {"role": "assistant", "tool_calls": [
            {"id": "a", "function": {"name": "f", "arguments": "{}"}},
            {"id": "b", "function": {"name": "f", "arguments": "{}"}},
            {"id": "c", "function": {"name": "f", "arguments": "{}"}},
        ]},
        {"role": "tool", "tool_call_id": "a", "content": "ra"},
        {"role": "tool", "tool_call_id": "b", "content": "rb"},
        {"role": "tool", "tool_call_id": "c", "content": "rc"},
        {"role": "user", "content": "thanks"},
    ]));
    assert_eq!(messages.len(), 4);
    let results = messages[2]["content"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(results[2]["tool_use_id"], json!("c"));
    assert_eq!(messages[3], json!({"role": "user", "content": "thanks"}));
}

#[test]
fn system_and_developer_messages_are_hoisted_and_joined() {
    let (messages, system) = openai_messages_to_anthropic(&json!([
        {"role": "system", "content": "One."},
        {"role": "developer", "content": [{"type": "text", "text": "Two."}]},
        {"role": "system", "content": ""},
        {"role": "user", "content": "hi"},
    ]));
    assert_eq!(system, "One.\n\nTwo.");
    assert_eq!(messages.len(), 1);
}

#[test]
fn content_parts_flatten_and_non_text_parts_pass_through() {
    let (messages, _) = openai_messages_to_anthropic(&json!([
        {"role": "user", "content": [{"type": "text", "text": "part one "}, {"type": "text", "text": "part two"}]},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "u"}}]},
        {"role": "user", "content": ""},
        {"role": "assistant", "content": ""},
        "not a message",
        null,
    ]));
    assert_eq!(
        Value::Array(messages),
        json!([
            {"role": "user", "content": "part one part two"},
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "u"}}]},
        ])
    );
}

#[test]
fn openai_media_blocks_become_anthropic_blocks() {
    let png = "iVBORw0KGgo=";
    let (messages, _) = openai_messages_to_anthropic(&json!([
        {"role": "user", "content": [
            {"type": "text", "text": "Compare"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{png}"), "detail": "high"}},
            {"type": "image_url", "image_url": {"url": "https://x.test/cat?size=2"}},
            {"type": "file", "file": {"filename": "r.pdf", "file_data": "data:application/pdf;base64,JVBERg=="}},
            {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
        ]},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "function": {"name": "shot", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": [
            {"type": "text", "text": "took it"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{png}")}},
        ]},
    ]));
    let image = json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}});
    assert_eq!(
        messages[0],
        json!({"role": "user", "content": [
            {"type": "text", "text": "Compare"},
            image,
            {"type": "image", "source": {"type": "url", "url": "https://x.test/cat?size=2"}},
            {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERg=="}},
            // Anthropic takes no audio: described, as a tool's unsupported part is.
            {"type": "text", "text": "[unsupported audio part (audio/wav, 4 bytes)]"},
        ]})
    );
    assert_eq!(
        messages[2]["content"][0]["content"],
        json!([{"type": "text", "text": "took it"}, image])
    );
}

#[test]
fn a_malformed_openai_media_block_is_refused_naming_it() {
    let cases = [
        (
            json!({"type": "image_url", "image_url": {}}),
            "an image_url block has no url",
        ),
        (
            json!({"type": "image_url", "image_url": {"url": "file:///etc/passwd"}}),
            "a image part's url must be an http: or https: URL, got a file: URL",
        ),
        (
            json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,no!"}}),
            "a image part's data is not standard base64",
        ),
        (
            json!({"type": "file", "file": {"file_id": "f-1"}}),
            "a file block has no file_data (a file_id cannot be sent on)",
        ),
        (
            json!({"type": "input_audio", "input_audio": {"data": "AAAA", "format": "ogg"}}),
            "an input_audio block's format must be \"wav\" or \"mp3\"",
        ),
    ];
    for (block, why) in cases {
        let error =
            read(json!([{"role": "user", "content": [{"type": "text", "text": "x"}, block]}]))
                .err();
        let expected = format!("translate: messages[0].content[1]: {why}");
        assert_eq!(error.as_deref(), Some(expected.as_str()));
    }
}

#[test]
fn arguments_are_parsed_from_text_or_taken_as_an_object() {
    let (messages, _) = openai_messages_to_anthropic(&json!([
        {"role": "assistant", "content": "calling", "tool_calls": [
            {"id": "z", "function": {"name": "f", "arguments": {"city": "Madurai"}}},
            {"id": "y", "function": {"name": "g", "arguments": ""}},
        ]},
    ]));
    let blocks = messages[0]["content"].as_array().unwrap();
    assert_eq!(blocks[0], json!({"type": "text", "text": "calling"}));
    assert_eq!(blocks[1]["input"], json!({"city": "Madurai"}));
    assert_eq!(blocks[2]["input"], json!({}));
}

#[test]
fn the_small_helpers_behave_as_the_reference_port_s() {
    assert_eq!(content_text(&json!("x")), "x");
    assert_eq!(
        content_text(&json!([{"text": 5}, {"text": "a"}, ["b"]])),
        "a"
    );
    assert_eq!(content_text(&json!(3)), "");
    assert_eq!(args_object(&json!("[1]")), json!([1]));
    assert_eq!(args_object(&json!("  ")), json!({}));
    assert_eq!(args_object(&json!("7")), json!({}));
    assert_eq!(args_object(&json!(null)), json!({}));
    assert_eq!(args_string(&json!([1, 2.0])), "[1,2]");
    assert_eq!(args_string(&json!(null)), "{}");
    assert_eq!(args_string(&json!(true)), "{}");
    let calls = tool_calls_of(&json!({"tool_calls": [
        {"id": 7, "function": {"name": "f"}},
        {"function": {"name": null, "arguments": "x"}},
        {"id": "skip", "function": ""},
    ]}));
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].id.as_str(), calls[0].arguments.as_str()),
        ("7", "{}")
    );
    assert_eq!(
        (
            calls[1].id.as_str(),
            calls[1].name.as_str(),
            calls[1].arguments.as_str()
        ),
        ("", "", "x")
    );
    assert!(tool_calls_of(&json!({"tool_calls": "no"})).is_empty());
    assert!(!has_system_message(&json!("x")));
    assert!(has_system_message(&json!([null, {"role": "system"}])));
}

#[test]
fn tools_convert_to_input_schema_and_native_ones_pass() {
    let tools = openai_tools_to_anthropic(&json!([
        {"type": "function", "function": {"name": "get_weather", "description": "Get the weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
        {"name": "native", "input_schema": {"type": "object"}},
        {"type": "function", "function": {"description": "no name"}},
        {"type": "function"},
        5,
    ]));
    assert_eq!(
        Value::Array(tools),
        json!([
            {"name": "get_weather", "description": "Get the weather",
                "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
            {"name": "native", "input_schema": {"type": "object"}},
        ])
    );
    assert!(openai_tools_to_anthropic(&json!(null)).is_empty());
}

#[test]
fn tool_choice_maps_onto_anthropic_s_shape() {
    let cases = [
        (json!(null), None),
        (json!("auto"), None),
        (json!("required"), Some(json!({"type": "any"}))),
        (json!("any"), Some(json!({"type": "any"}))),
        (json!("none"), Some(json!({"type": "none"}))),
        (
            json!({"type": "function", "function": {"name": "get_weather"}}),
            Some(json!({"type": "tool", "name": "get_weather"})),
        ),
        (json!({"type": "function"}), None),
        (json!(3), None),
    ];
    for (choice, want) in cases {
        assert_eq!(openai_tool_choice_to_anthropic(&choice), want, "{choice:?}");
    }
}

#[test]
fn finish_reasons_map_and_tool_calls_always_win() {
    for (stop, want) in [
        (Some("end_turn"), "stop"),
        (Some("max_tokens"), "length"),
        (Some("length"), "length"),
        (Some("refusal"), "content_filter"),
        (Some("content_filter"), "content_filter"),
        (Some("stop_sequence"), "stop"),
        (None, "stop"),
    ] {
        assert_eq!(finish_reason_for(false, stop), want);
        assert_eq!(finish_reason_for(true, stop), "tool_calls");
    }
}

#[test]
fn tool_calls_json_writes_openai_tool_calls() {
    assert_eq!(
        tool_calls_json(&json!([{"id": "t1", "name": "alpha", "arguments": "{\"n\":1}"}])),
        json!([{"id": "t1", "type": "function", "function": {"name": "alpha", "arguments": "{\"n\":1}"}}])
    );
    assert_eq!(tool_calls_json(&json!([])), json!([]));
}

#[test]
fn a_request_without_messages_is_refused() {
    assert!(read(json!(null))
        .unwrap_err()
        .contains("messages is required"));
    assert!(read(json!([])).unwrap_err().contains("got an empty array"));
    assert!(read(json!("hi")).unwrap_err().contains("got a string"));
    assert_eq!(
        read(json!([{"role": "user", "content": "x"}, 3])).unwrap_err(),
        "translate: messages[1] must be a message object, got a number"
    );
}

#[test]
fn arguments_that_are_not_a_json_object_are_refused_by_position() {
    let call = |arguments: Value| {
        read(json!([
            {"role": "user", "content": "go"},
            {"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "{}"}},
                {"id": "b", "function": {"name": "f", "arguments": arguments}}]},
        ]))
    };
    let why = call(json!("{\"city\": ")).unwrap_err();
    assert!(
        why.starts_with("translate: messages[1].tool_calls[1].function.arguments is not JSON: "),
        "{why}"
    );
    assert_eq!(
        call(json!("[1]")).unwrap_err(),
        "translate: messages[1].tool_calls[1].function.arguments must be a JSON object, got an array"
    );
    assert_eq!(
        call(json!(5)).unwrap_err(),
        "translate: messages[1].tool_calls[1].function.arguments must be a JSON object or its text, got a number"
    );
    for fine in [json!("{\"a\":1}"), json!({"a": 1}), json!(""), json!(null)] {
        assert!(call(fine.clone()).is_ok(), "{fine:?}");
    }
    let no_function = read(json!([{"role": "assistant", "tool_calls": [{"id": "a"}]}]));
    assert_eq!(
        no_function.unwrap_err(),
        "translate: messages[0].tool_calls[0] has no function {name, arguments}"
    );
}

#[test]
fn a_tool_message_must_answer_an_earlier_call() {
    let ok = read(json!([
        {"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "a", "content": "r"},
    ]));
    assert!(ok.is_ok());
    assert_eq!(
        read(json!([
            {"role": "user", "content": "go"},
            {"role": "tool", "tool_call_id": "nope", "content": "r"},
        ]))
        .unwrap_err(),
        "translate: messages[1] (role \"tool\") answers tool call \"nope\", which no earlier assistant message made"
    );
    assert_eq!(
        read(json!([{"role": "tool", "content": "r"}])).unwrap_err(),
        "translate: messages[0] (role \"tool\") has no tool_call_id"
    );
    // A call made only after the result does not count.
    assert!(read(json!([
        {"role": "tool", "tool_call_id": "a", "content": "r"},
        {"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "{}"}}]},
    ]))
    .is_err());
}

#[test]
fn the_other_fields_are_checked() {
    let m = || json!([{"role": "user", "content": "go"}]);
    let null = || json!(null);
    let tools = TranslateRequest::read(m(), json!({}), null(), null(), null()).unwrap_err();
    assert_eq!(
        tools,
        "translate: tools must be an array of OpenAI tools, got an object"
    );
    let system = TranslateRequest::read(m(), null(), null(), json!(1), null()).unwrap_err();
    assert_eq!(system, "translate: system must be a string, got a number");
    for bad in [json!(-1), json!(1.5), json!("9")] {
        assert!(TranslateRequest::read(m(), null(), null(), null(), bad).is_err());
    }
    let zero = TranslateRequest::read(m(), null(), null(), null(), json!(0)).unwrap();
    assert_eq!(zero.max_tokens, None);
}

#[test]
fn bodies_keep_the_reference_key_order() {
    let request = TranslateRequest::read(
        json!([{"role": "user", "content": "go"}]),
        json!(null),
        json!("required"),
        json!(null),
        json!(100),
    )
    .unwrap();
    let anthropic = Value::Object(request.anthropic_body("m", "sys", true));
    assert_eq!(
        toolnexus::core::json::text::to_text(&anthropic),
        r#"{"model":"m","max_tokens":100,"messages":null,"system":"sys","tools":null,"tool_choice":{"type":"any"}}"#
    );
    let openai = Value::Object(request.openai_body("m", false));
    assert_eq!(
        toolnexus::core::json::text::to_text(&openai),
        r#"{"model":"m","messages":null,"tool_choice":"required","max_tokens":100}"#
    );
    let plain = read(json!([{"role": "user", "content": "go"}])).unwrap();
    assert_eq!(
        toolnexus::core::json::text::to_text(&Value::Object(plain.anthropic_body("m", "", false))),
        r#"{"model":"m","max_tokens":4096,"messages":null}"#
    );
}

#[test]
fn openai_messages_get_the_system_prompt_only_without_a_system_message() {
    let plain = read(json!([{"role": "user", "content": "go"}])).unwrap();
    assert_eq!(
        plain.clone().take_openai_messages("S")[0],
        json!({"role": "system", "content": "S"})
    );
    assert_eq!(plain.clone().take_openai_messages("").len(), 1);
    let with =
        read(json!([{"role": "developer", "content": "D"}, {"role": "user", "content": "go"}]))
            .unwrap();
    assert_eq!(with.clone().take_openai_messages("S").len(), 2);
    // The messages are taken out, not copied.
    let mut taken = with;
    assert_eq!(taken.take_openai_messages("").len(), 2);
    assert!(taken.messages.is_empty());
}

#[test]
fn replies_read_back_in_openai_shape() {
    let usage = Usage {
        prompt_tokens: 1,
        completion_tokens: 2,
        total_tokens: 3,
    };
    let r = anthropic_result(
        json!({"content": [
            {"type": "text", "text": "calling "}, {"type": "text", "text": "three"},
            {"type": "tool_use", "id": "t1", "name": "alpha", "input": {"n": 1.0}},
            {"type": "tool_use", "id": "t2", "name": "beta"},
            {"type": "thinking", "thinking": "hm"},
        ], "stop_reason": "max_tokens"}),
        usage,
        "m",
    );
    assert_eq!(r.text, "calling three");
    assert_eq!(r.finish_reason, "tool_calls");
    let args: Vec<&str> = r.tool_calls.iter().map(|c| c.arguments.as_str()).collect();
    assert_eq!(args, [r#"{"n":1}"#, "{}"]);
    assert_eq!((r.usage, r.model.as_str()), (usage, "m"));
    assert!(r.raw.is_some());

    let o = openai_result(
        json!({"choices": [{"message": {"content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Madurai\"}"}},
            {"id": "call_2", "type": "function", "function": {"name": "g", "arguments": {"a": 1}}},
        ]}, "finish_reason": null}]}),
        usage,
        "m",
    );
    assert_eq!(o.text, "");
    assert_eq!(o.finish_reason, "tool_calls");
    assert_eq!(o.tool_calls[0].arguments, "{\"city\": \"Madurai\"}");
    assert_eq!(o.tool_calls[1].arguments, r#"{"a":1}"#);
    let stopped = openai_result(
        json!({"choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}]}),
        usage,
        "m",
    );
    assert_eq!(
        (stopped.text.as_str(), stopped.finish_reason.as_str()),
        ("hi", "stop")
    );
}

#[test]
fn a_result_writes_its_record_json() {
    let r = anthropic_result(
        json!({"content": [{"type": "text", "text": "x"}], "stop_reason": "end_turn"}),
        Usage::default(),
        "m",
    );
    assert_eq!(
        r.to_json_text(),
        r#"{"text":"x","toolCalls":[],"finishReason":"stop","usage":{"promptTokens":0,"completionTokens":0,"totalTokens":0},"model":"m","raw":{"content":[{"type":"text","text":"x"}],"stop_reason":"end_turn"}}"#
    );
}

#[test]
fn content_parts_become_anthropic_blocks_and_nothing_is_dropped() {
    let png = json!({"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="});
    let wav = json!({"type": "audio", "mimeType": "audio/wav", "data": "UklGRg=="});
    let (messages, _) = openai_messages_to_anthropic(&json!([
        {"role": "user", "content": [{"type": "text", "text": "What "}, png, {"type": "text", "text": "is this?"}, wav]},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "shot", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "took one"}, png]},
        {"role": "user", "content": [png]},
    ]));
    let image = json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}});
    assert_eq!(
        messages[0],
        json!({"role": "user", "content": [
            {"type": "text", "text": "What is this?"},
            image,
            {"type": "text", "text": "[unsupported audio part (audio/wav, 4 bytes)]"},
        ]})
    );
    assert_eq!(
        messages[2]["content"][0]["content"],
        json!([{"type": "text", "text": "took one"}, image])
    );
    // An array of parts only (no text) is not dropped: its blocks go alone.
    assert_eq!(messages[3], json!({"role": "user", "content": [image]}));
}
