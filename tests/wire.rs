#![cfg(not(target_arch = "wasm32"))]
//! Provider dialects: request bodies byte-identical to the reference port's `JSON.stringify`,
//! endpoints, headers, transcripts, and response parsing that never panics.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use toolnexus::core::message::Message;
use toolnexus::core::spec::ToolSpec;
use toolnexus::core::types::ToolResult;
use toolnexus::core::wire::{
    anthropic::Anthropic, body_json, openai::OpenAi, Dialect, ToolCall, ToolList, WireError,
};
use toolnexus::{core::json::value::Value, json};

fn spec(name: &str) -> ToolSpec {
    let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    ToolSpec::new(name, format!("{name} tool"), schema, "native").unwrap()
}

fn body(d: &dyn Dialect, system: &str, with_tools: bool, stream: bool) -> String {
    let (a, b) = (spec("a"), spec("b"));
    let both = [&a, &b];
    let tools = ToolList::from_text(d.tools(if with_tools { &both } else { &[] }));
    let msgs = d.start(
        system,
        Vec::new(),
        Message::role_content("user", "hi \"there\"\n"),
    );
    body_json(
        &d.body("m-1", system, tools.has_tools(), stream),
        "",
        &msgs,
        &tools,
    )
}

fn call(id: &str, name: &str, args: Result<Value, String>) -> ToolCall {
    let (id, name) = (id.to_string(), name.to_string());
    ToolCall { id, name, args }
}

const OA_TOOLS: &str = r#""tools":[{"type":"function","function":{"name":"a","description":"a tool","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}},{"type":"function","function":{"name":"b","description":"b tool","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}}]"#;
const AN_TOOLS: &str = r#""tools":[{"name":"a","description":"a tool","input_schema":{"type":"object","properties":{"q":{"type":"string"}}}},{"name":"b","description":"b tool","input_schema":{"type":"object","properties":{"q":{"type":"string"}}}}]"#;
const USER: &str = r#"{"role":"user","content":"hi \"there\"\n"}"#;

#[test]
fn openai_bodies_are_byte_exact() {
    let sys = r#"{"role":"system","content":"be brief"}"#;
    let head = format!(r#"{{"model":"m-1","messages":[{sys},{USER}]"#);
    assert_eq!(body(&OpenAi, "be brief", false, false), format!("{head}}}"));
    assert_eq!(
        body(&OpenAi, "be brief", true, false),
        format!(r#"{head},{OA_TOOLS},"tool_choice":"auto"}}"#)
    );
    let stream = r#""stream":true,"stream_options":{"include_usage":true}"#;
    assert_eq!(
        body(&OpenAi, "be brief", true, true),
        format!(r#"{head},{OA_TOOLS},"tool_choice":"auto",{stream}}}"#)
    );
    let bare = format!(r#"{{"model":"m-1","messages":[{USER}],{stream}}}"#);
    assert_eq!(body(&OpenAi, "", false, true), bare);
    // Not an array: treated as no tools.
    let not_array = ToolList::new(json!({"x": 1}));
    let b = OpenAi.body("m", "", not_array.has_tools(), false);
    assert_eq!(
        body_json(&b, "", &[], &not_array),
        r#"{"model":"m","messages":[]}"#
    );
}

#[test]
fn anthropic_bodies_are_byte_exact() {
    let head = |s: &str| {
        format!(r#"{{"model":"m-1","max_tokens":4096,"system":"{s}","messages":[{USER}]"#)
    };
    assert_eq!(
        body(&Anthropic, "be brief", false, false),
        format!("{}}}", head("be brief"))
    );
    assert_eq!(
        body(&Anthropic, "", false, false),
        format!("{}}}", head(""))
    );
    assert_eq!(
        body(&Anthropic, "be brief", true, false),
        format!("{},{AN_TOOLS}}}", head("be brief"))
    );
    assert_eq!(
        body(&Anthropic, "", true, true),
        format!(r#"{},{AN_TOOLS},"stream":true}}"#, head(""))
    );
}

#[test]
fn bodies_escape_like_json_stringify() {
    // Expected text produced by node's JSON.stringify on the same object.
    let msgs = [Message::from_value(
        json!({"role": "user", "content": "é \"q\" \u{1}\n\t/ \u{2028} \u{7f}"}),
    )];
    let b = body_json(
        &Anthropic.body("m", "", ToolList::new(json!([])).has_tools(), false),
        "",
        &msgs,
        &ToolList::new(json!([])),
    );
    let want = "{\"model\":\"m\",\"max_tokens\":4096,\"system\":\"\",\"messages\":[{\"role\":\"user\",\"content\":\"é \\\"q\\\" \\u0001\\n\\t/ \u{2028} \u{7f}\"}]}";
    assert_eq!(b, want);
}

#[test]
fn endpoints() {
    for (base, oa, an) in [
        (
            "http://x/v1",
            "http://x/v1/chat/completions",
            "http://x/v1/messages",
        ),
        (
            "http://x/v1/",
            "http://x/v1/chat/completions",
            "http://x/v1/messages",
        ),
        (
            "http://x/v1//",
            "http://x/v1/chat/completions",
            "http://x/v1/messages",
        ),
        (
            "http://x",
            "http://x/chat/completions",
            "http://x/v1/messages",
        ),
        (
            "https://api.anthropic.com",
            "https://api.anthropic.com/chat/completions",
            "https://api.anthropic.com/v1/messages",
        ),
    ] {
        assert_eq!(OpenAi.endpoint(base), oa);
        assert_eq!(Anthropic.endpoint(base), an);
    }
}

#[test]
fn auth_headers() {
    let h = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    let json_ct = ("Content-Type", "application/json");
    assert_eq!(
        OpenAi.auth_headers(Some("k")),
        h(&[("Authorization", "Bearer k"), json_ct])
    );
    assert_eq!(OpenAi.auth_headers(None), h(&[json_ct]));
    assert_eq!(OpenAi.auth_headers(Some("")), h(&[json_ct]));
    let ver = ("anthropic-version", "2023-06-01");
    assert_eq!(
        Anthropic.auth_headers(Some("k")),
        h(&[("x-api-key", "k"), ver, json_ct])
    );
    assert_eq!(Anthropic.auth_headers(None), h(&[ver, json_ct]));
    assert_eq!(Anthropic.auth_headers(Some("")), h(&[ver, json_ct]));
}

#[test]
fn start_transcripts() {
    let user = json!({"role": "user", "content": "p"});
    let sys = json!({"role": "system", "content": "s"});
    let old = vec![Message::from_value(
        json!({"role": "user", "content": "old"}),
    )];
    assert_eq!(
        OpenAi.start("s", vec![], Message::role_content("user", "p")),
        [sys, user.clone()]
    );
    assert_eq!(
        OpenAi.start("", vec![], Message::role_content("user", "p")),
        vec![user.clone()]
    );
    assert_eq!(
        OpenAi.start("s", old.clone(), Message::role_content("user", "p")),
        [old[0].value().clone(), user.clone()]
    );
    assert_eq!(
        Anthropic.start("s", vec![], Message::role_content("user", "p")),
        vec![user.clone()]
    );
    assert_eq!(
        Anthropic.start("s", old.clone(), Message::role_content("user", "p")),
        [old[0].value().clone(), user]
    );
}

#[test]
fn openai_text_reply_and_usage() {
    let raw = r#"{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"Hello","refusal":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":9}}"#;
    let r = OpenAi.parse(raw).unwrap();
    assert_eq!((r.text.as_str(), r.tool_calls.len()), ("Hello", 0));
    assert_eq!(
        (
            r.usage.prompt_tokens,
            r.usage.completion_tokens,
            r.usage.total_tokens
        ),
        (5, 2, 9)
    );
    // The assistant message is kept exactly as received, key order included.
    assert_eq!(
        r.assistant.to_string(),
        r#"{"role":"assistant","content":"Hello","refusal":null}"#
    );
}

#[test]
fn openai_parallel_tool_calls_and_argument_forms() {
    let raw = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "a", "arguments": "{\"q\":\"x\"}"}},
        {"id": "c2", "type": "function", "function": {"name": "b", "arguments": ""}},
        {"type": "function", "function": {"name": "a", "arguments": "  \n"}},
        {"id": "", "function": {"name": "b", "arguments": "{\"q\":"}},
        {"id": "c5", "function": {"arguments": {"q": 1}}},
        {"id": 7, "function": {"name": 3, "arguments": null}},
        "junk",
    ]}}]});
    let r = OpenAi.parse(&raw.to_string()).unwrap();
    assert_eq!(r.text, "");
    assert_eq!(r.tool_calls.len(), 7);
    assert_eq!(r.tool_calls[0], call("c1", "a", Ok(json!({"q": "x"}))));
    assert_eq!(r.tool_calls[1], call("c2", "b", Ok(json!({}))));
    assert_eq!(r.tool_calls[2], call("call_2", "a", Ok(json!({}))));
    let bad = r.tool_calls[3].args.clone().unwrap_err();
    assert!(bad.starts_with("not valid JSON: "), "{bad}");
    assert_eq!(r.tool_calls[3].id, "call_3");
    assert_eq!(r.tool_calls[4], call("c5", "", Ok(json!({"q": 1}))));
    assert_eq!(r.tool_calls[5], call("7", "", Ok(json!({}))));
    assert_eq!(r.tool_calls[6], call("call_6", "", Ok(json!({}))));
    assert_eq!(r.usage.total_tokens, 0);
}

#[test]
fn openai_content_shapes() {
    let text = |content: Value| {
        let raw = json!({"choices": [{"message": {"role": "assistant", "content": content}}]});
        OpenAi.parse(&raw.to_string()).unwrap().text
    };
    assert_eq!(text(Value::Null), "");
    assert_eq!(
        text(
            json!([{"type": "text", "text": "a"}, {"type": "image_url"}, {"type": "text", "text": "b"}])
        ),
        "ab"
    );
    assert_eq!(text(json!(42)), "");
    let r = OpenAi
        .parse(r#"{"choices":[{"message":{"role":"assistant"}}]}"#)
        .unwrap();
    assert_eq!(r.text, "");
    let r = OpenAi
        .parse(r#"{"choices":[{"message":{"content":"x","tool_calls":{"0":{}}}}]}"#)
        .unwrap();
    assert!(r.tool_calls.is_empty());
}

#[test]
fn usage_shapes() {
    let u = |usage: &str| {
        let oa = format!(r#"{{"choices":[{{"message":{{"content":""}}}}],"usage":{usage}}}"#);
        let an = format!(r#"{{"content":[],"usage":{usage}}}"#);
        let (o, a) = (
            OpenAi.parse(&oa).unwrap().usage,
            Anthropic.parse(&an).unwrap().usage,
        );
        (
            (o.prompt_tokens, o.completion_tokens, o.total_tokens),
            (a.prompt_tokens, a.completion_tokens, a.total_tokens),
        )
    };
    assert_eq!(
        u(r#"{"prompt_tokens":3,"completion_tokens":4}"#).0,
        (3, 4, 7)
    );
    assert_eq!(u(r#"{"prompt_tokens":3}"#).0, (3, 0, 3));
    assert_eq!(
        u(r#"{"prompt_tokens":3,"completion_tokens":4,"total_tokens":null}"#).0,
        (3, 4, 7)
    );
    assert_eq!(
        u(r#"{"prompt_tokens":"3","completion_tokens":2.9,"total_tokens":-1}"#).0,
        (0, 2, 0)
    );
    assert_eq!(
        u(r#"{"prompt_tokens":1e300,"completion_tokens":18446744073709551615}"#)
            .0
             .2,
        u64::MAX
    );
    assert_eq!(u(r#"{"input_tokens":10,"output_tokens":5}"#).1, (10, 5, 15));
    assert_eq!(
        u(r#"{"input_tokens":10,"output_tokens":"5","cache_read_input_tokens":9}"#).1,
        (10, 0, 10)
    );
    assert_eq!(u("null"), ((0, 0, 0), (0, 0, 0)));
    assert_eq!(u(r#""lots""#), ((0, 0, 0), (0, 0, 0)));
    assert_eq!(
        Anthropic
            .parse(r#"{"content":[]}"#)
            .unwrap()
            .usage
            .total_tokens,
        0
    );
}

#[test]
fn openai_missing_and_odd_shapes() {
    let missing = Err(WireError::Missing("choices[0].message"));
    for raw in [
        "{}",
        "[]",
        "42",
        "null",
        r#""s""#,
        r#"{"choices":[]}"#,
        r#"{"choices":{"0":{"message":{}}}}"#,
        r#"{"choices":"x"}"#,
        r#"{"choices":[null]}"#,
        r#"{"choices":[{"message":"hi"}]}"#,
        r#"{"choices":[{"message":null}]}"#,
        r#"{"choices":[{"delta":{}}]}"#,
        r#"{"error":null}"#,
    ] {
        assert_eq!(OpenAi.parse(raw), missing, "{raw}");
    }
}

#[test]
fn anthropic_reply_text_and_parallel_tool_use() {
    let raw = r#"{"id":"msg_1","type":"message","role":"assistant","content":[
        {"type":"text","text":"Let me "},{"type":"thinking","thinking":"hm"},{"type":"text","text":"check."},
        {"type":"tool_use","id":"tu_1","name":"a","input":{"q":"x"}},
        {"type":"tool_use","id":"tu_2","name":"b"},
        {"type":"tool_use","name":"a","input":"str"},{"type":"text"},null,7
    ],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":4}}"#;
    let r = Anthropic.parse(raw).unwrap();
    assert_eq!(r.text, "Let me check.");
    assert_eq!(
        r.tool_calls,
        [
            call("tu_1", "a", Ok(json!({"q": "x"}))),
            call("tu_2", "b", Ok(json!({}))),
            call("call_2", "a", Ok(json!("str")))
        ]
    );
    let content: Value = serde_json::from_str::<Value>(raw).unwrap()["content"].clone();
    assert_eq!(
        r.assistant,
        json!({"role": "assistant", "content": content})
    );
    assert!(r
        .assistant
        .to_string()
        .starts_with(r#"{"role":"assistant","content":[{"type":"text","text":"Let me "}"#));
}

#[test]
fn anthropic_missing_content() {
    for raw in [
        "{}",
        "[]",
        "1",
        "null",
        r#"{"content":"hi"}"#,
        r#"{"content":{"0":{}}}"#,
        r#"{"content":null}"#,
    ] {
        assert_eq!(
            Anthropic.parse(raw),
            Err(WireError::Missing("content")),
            "{raw}"
        );
    }
}

#[test]
fn provider_errors() {
    let p = |s: &str| Err(WireError::Provider(s.to_string()));
    for d in [&OpenAi as &dyn Dialect, &Anthropic] {
        assert_eq!(
            d.parse(r#"{"error":{"message":"bad key","type":"auth"}}"#),
            p("bad key")
        );
        assert_eq!(d.parse(r#"{"error":"rate limited"}"#), p("rate limited"));
        assert_eq!(d.parse(r#"{"error":{"code":500}}"#), p(r#"{"code":500}"#));
        assert_eq!(d.parse(r#"{"error":{"message":3}}"#), p(r#"{"message":3}"#));
        assert_eq!(
            d.parse(r#"{"error":true,"choices":[],"content":[]}"#),
            p("true")
        );
    }
    let overloaded =
        r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
    assert_eq!(Anthropic.parse(overloaded), p("Overloaded"));
    assert_eq!(
        Anthropic.parse(r#"{"type":"error"}"#),
        p(r#"{"type":"error"}"#)
    );
}

#[test]
fn non_json_bodies() {
    for d in [&OpenAi as &dyn Dialect, &Anthropic] {
        for raw in [
            "<html><body>502 Bad Gateway</body></html>",
            "",
            "   ",
            r#"{"choices":[{"message":"#,
            "data: {}",
        ] {
            assert!(
                matches!(d.parse(raw), Err(WireError::NotJson(m)) if !m.is_empty()),
                "{raw}"
            );
        }
    }
}

#[test]
fn tool_results_shapes() {
    let results = [
        ("c1".to_string(), ToolResult::ok("42")),
        ("c2".to_string(), ToolResult::error("no")),
    ];
    let oa: Vec<String> = OpenAi
        .tool_results(&results)
        .iter()
        .map(Message::to_string)
        .collect();
    assert_eq!(
        oa,
        [
            r#"{"role":"tool","tool_call_id":"c1","content":"42"}"#,
            r#"{"role":"tool","tool_call_id":"c2","content":"no"}"#,
        ]
    );
    let an = Anthropic.tool_results(&results);
    assert_eq!(an.len(), 1);
    assert_eq!(
        an[0].to_string(),
        r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"42","is_error":false},{"type":"tool_result","tool_use_id":"c2","content":"no","is_error":true}]}"#
    );
    assert!(Anthropic.tool_results(&[]).is_empty());
    assert!(OpenAi.tool_results(&[]).is_empty());
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "[a-z_ ]{0,8}".prop_map(Value::String),
        prop_oneof![
            Just("text"),
            Just("tool_use"),
            Just("error"),
            Just("function")
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        let keys = prop_oneof![
            Just("choices"),
            Just("message"),
            Just("content"),
            Just("tool_calls"),
            Just("function"),
            Just("arguments"),
            Just("name"),
            Just("id"),
            Just("type"),
            Just("text"),
            Just("input"),
            Just("usage"),
            Just("prompt_tokens"),
            Just("total_tokens"),
            Just("input_tokens"),
            Just("error"),
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((keys, inner), 0..5).prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

proptest! {
    #[test]
    fn parse_never_panics_on_strings(s in any::<String>()) {
        let _ = OpenAi.parse(&s);
        let _ = Anthropic.parse(&s);
    }

    #[test]
    fn parse_never_panics_on_json(v in any_json()) {
        let text = v.to_string();
        let _ = OpenAi.parse(&text);
        let _ = Anthropic.parse(&text);
        let wrapped = json!({"choices": [{"message": v.clone()}], "content": [v]}).to_string();
        let _ = OpenAi.parse(&wrapped);
        let _ = Anthropic.parse(&wrapped);
    }
}
