//! What the client puts on the wire (SPEC §8): endpoint, headers, and the first request body,
//! byte for byte, for both styles; request params and the empty-tools omission.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::types::ToolResult;
use toolnexus::{core::json::value::Value, json};

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

fn one_text_run(rig: &Rig) -> Sent {
    rig.run("hi").unwrap();
    assert_eq!(rig.http.count(), 1);
    rig.http.request(0)
}

fn rig(style: Style) -> Rig {
    Rig::new(style, ScriptedHttp::replies(vec![text_reply(style, "ok")]))
}

fn header_list(sent: &Sent) -> Vec<(String, String)> {
    sent.headers.clone()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn openai_posts_to_chat_completions_under_the_base_url() {
    for (base, url) in [
        (
            "http://127.0.0.1:9/v1",
            "http://127.0.0.1:9/v1/chat/completions",
        ),
        (
            "http://127.0.0.1:9/v1/",
            "http://127.0.0.1:9/v1/chat/completions",
        ),
        (
            "https://openrouter.ai/api/v1",
            "https://openrouter.ai/api/v1/chat/completions",
        ),
    ] {
        let mut r = rig(Style::OpenAi);
        r.config.base_url = base.into();
        assert_eq!(one_text_run(&r).url, url, "base {base}");
    }
}

#[test]
fn anthropic_posts_to_v1_messages_without_doubling_v1() {
    for (base, url) in [
        (
            "https://api.anthropic.com",
            "https://api.anthropic.com/v1/messages",
        ),
        (
            "https://api.anthropic.com/",
            "https://api.anthropic.com/v1/messages",
        ),
        ("http://127.0.0.1:9/v1", "http://127.0.0.1:9/v1/messages"),
        ("http://127.0.0.1:9/v1/", "http://127.0.0.1:9/v1/messages"),
    ] {
        let mut r = rig(Style::Anthropic);
        r.config.base_url = base.into();
        assert_eq!(one_text_run(&r).url, url, "base {base}");
    }
}

#[test]
fn openai_sends_a_bearer_key_and_the_content_type() {
    let mut r = rig(Style::OpenAi);
    r.config.api_key = Some("k".into());
    assert_eq!(
        header_list(&one_text_run(&r)),
        pairs(&[
            ("Authorization", "Bearer k"),
            ("Content-Type", "application/json")
        ])
    );
}

#[test]
fn anthropic_sends_x_api_key_and_the_version() {
    let mut r = rig(Style::Anthropic);
    r.config.api_key = Some("k".into());
    assert_eq!(
        header_list(&one_text_run(&r)),
        pairs(&[
            ("x-api-key", "k"),
            ("anthropic-version", "2023-06-01"),
            ("Content-Type", "application/json")
        ])
    );
}

#[test]
fn no_auth_header_without_a_key() {
    for key in [None, Some(String::new())] {
        let mut r = rig(Style::OpenAi);
        r.config.api_key = key.clone();
        let sent = one_text_run(&r);
        assert_eq!(sent.header("authorization"), None);
        assert_eq!(
            header_list(&sent),
            pairs(&[("Content-Type", "application/json")])
        );

        let mut r = rig(Style::Anthropic);
        r.config.api_key = key;
        let sent = one_text_run(&r);
        assert_eq!(sent.header("x-api-key"), None);
        assert_eq!(
            header_list(&sent),
            pairs(&[
                ("anthropic-version", "2023-06-01"),
                ("Content-Type", "application/json")
            ])
        );
    }
}

#[test]
fn configured_headers_come_after_and_replace_same_names_case_insensitively() {
    let mut r = rig(Style::OpenAi);
    r.config.api_key = Some("k".into());
    r.config.headers = pairs(&[
        ("authorization", "Bearer proxy-token"),
        ("X-Title", "toolnexus"),
        ("CONTENT-TYPE", "application/json; charset=utf-8"),
    ]);
    assert_eq!(
        header_list(&one_text_run(&r)),
        pairs(&[
            ("authorization", "Bearer proxy-token"),
            ("X-Title", "toolnexus"),
            ("CONTENT-TYPE", "application/json; charset=utf-8"),
        ])
    );

    let mut r = rig(Style::Anthropic);
    r.config.api_key = Some("k".into());
    r.config.headers = pairs(&[("Anthropic-Version", "2024-01-01"), ("x-extra", "1")]);
    assert_eq!(
        header_list(&one_text_run(&r)),
        pairs(&[
            ("x-api-key", "k"),
            ("Content-Type", "application/json"),
            ("Anthropic-Version", "2024-01-01"),
            ("x-extra", "1"),
        ])
    );
}

#[test]
fn a_header_configured_twice_is_sent_once_with_the_last_value() {
    let mut r = rig(Style::OpenAi);
    r.config.headers = pairs(&[("X-A", "1"), ("x-a", "2")]);
    let sent = one_text_run(&r);
    assert_eq!(sent.header_values("x-a"), vec!["2".to_owned()]);
}

#[test]
fn openai_first_body_is_byte_exact_with_the_system_message_first() {
    let mut r = rig(Style::OpenAi);
    r.config.system_prompt = "Be brief.".into();
    assert_eq!(
        one_text_run(&r).text,
        r#"{"model":"test/model-1","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"hi"}]}"#
    );
}

#[test]
fn openai_sends_no_system_message_when_it_is_empty() {
    assert_eq!(
        one_text_run(&rig(Style::OpenAi)).text,
        r#"{"model":"test/model-1","messages":[{"role":"user","content":"hi"}]}"#
    );
}

#[test]
fn openai_sends_no_system_message_when_continuing_history() {
    let mut r = rig(Style::OpenAi);
    r.config.system_prompt = "Be brief.".into();
    r.history = vec![
        json!({"role": "user", "content": "earlier"}),
        json!({"role": "assistant", "content": "reply"}),
    ];
    assert_eq!(
        one_text_run(&r).text,
        r#"{"model":"test/model-1","messages":[{"role":"user","content":"earlier"},{"role":"assistant","content":"reply"},{"role":"user","content":"hi"}]}"#
    );
}

#[test]
fn anthropic_first_body_is_byte_exact_with_a_system_field_and_max_tokens() {
    let mut r = rig(Style::Anthropic);
    r.config.system_prompt = "Be brief.".into();
    assert_eq!(
        one_text_run(&r).text,
        r#"{"model":"test/model-1","max_tokens":4096,"system":"Be brief.","messages":[{"role":"user","content":"hi"}]}"#
    );
}

#[test]
fn anthropic_sends_an_empty_system_field_and_history_before_the_prompt() {
    let mut r = rig(Style::Anthropic);
    r.history = vec![json!({"role": "user", "content": "earlier"})];
    assert_eq!(
        one_text_run(&r).text,
        r#"{"model":"test/model-1","max_tokens":4096,"system":"","messages":[{"role":"user","content":"earlier"},{"role":"user","content":"hi"}]}"#
    );
}

#[test]
fn the_model_is_sent_verbatim() {
    for style in BOTH {
        let mut r = rig(style);
        r.config.model = "deepseek/deepseek-chat:free v2".into();
        assert_eq!(
            one_text_run(&r).body["model"],
            json!("deepseek/deepseek-chat:free v2")
        );
    }
}

#[test]
fn the_system_is_the_system_prompt_while_the_skills_prompt_is_empty() {
    let mut r = rig(Style::Anthropic);
    r.config.system_prompt = "line 1\nline 2".into();
    assert_eq!(one_text_run(&r).body["system"], json!("line 1\nline 2"));
    let mut r = rig(Style::OpenAi);
    r.config.system_prompt = "line 1\nline 2".into();
    assert_eq!(
        one_text_run(&r).body["messages"][0],
        json!({"role": "system", "content": "line 1\nline 2"})
    );
}

fn weather_rig(style: Style) -> Rig {
    let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}});
    let tool = FnTool::new("weather", schema, |_, _| {
        Box::pin(async { ToolResult::ok("sunny") })
    });
    rig(style).tool(tool)
}

#[test]
fn openai_sends_tools_and_tool_choice_auto() {
    assert_eq!(
        one_text_run(&weather_rig(Style::OpenAi)).text,
        r#"{"model":"test/model-1","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"weather","description":"weather tool","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}],"tool_choice":"auto"}"#
    );
}

#[test]
fn anthropic_sends_tools_after_the_messages() {
    assert_eq!(
        one_text_run(&weather_rig(Style::Anthropic)).text,
        r#"{"model":"test/model-1","max_tokens":4096,"system":"","messages":[{"role":"user","content":"hi"}],"tools":[{"name":"weather","description":"weather tool","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}]}"#
    );
}

#[test]
fn an_empty_toolkit_omits_tools_and_tool_choice() {
    for style in BOTH {
        let body = one_text_run(&rig(style)).body;
        let map = body.as_object().unwrap();
        assert!(!map.contains_key("tools"), "{style:?}");
        assert!(!map.contains_key("tool_choice"), "{style:?}");
    }
}

#[test]
fn request_params_win_in_place_and_new_keys_go_last() {
    let mut r = rig(Style::Anthropic);
    r.config.request_params = json!({"max_tokens": 10, "temperature": 0.2})
        .as_object()
        .unwrap()
        .clone();
    assert_eq!(
        one_text_run(&r).text,
        r#"{"model":"test/model-1","max_tokens":10,"system":"","messages":[{"role":"user","content":"hi"}],"temperature":0.2}"#
    );

    let mut r = rig(Style::OpenAi);
    r.config.request_params = json!({"temperature": 0, "max_tokens": 64})
        .as_object()
        .unwrap()
        .clone();
    assert_eq!(
        one_text_run(&r).text,
        r#"{"model":"test/model-1","messages":[{"role":"user","content":"hi"}],"temperature":0,"max_tokens":64}"#
    );
}

#[test]
fn request_params_apply_to_every_turn() {
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![
            calls_reply(style, &[("c1", "weather", json!({}))]),
            text_reply(style, "done"),
        ]);
        let mut r = weather_rig(style);
        r.http = http;
        r.config.request_params = json!({"top_p": 0.5}).as_object().unwrap().clone();
        r.run("hi").unwrap();
        assert_eq!(r.http.count(), 2);
        for n in 0..2 {
            assert_eq!(r.http.body(n)["top_p"], json!(0.5), "{style:?} turn {n}");
        }
    }
}

#[test]
fn request_params_cannot_replace_messages_tools_or_stream() {
    for style in BOTH {
        let mut r = weather_rig(style);
        r.config.request_params =
            json!({"messages": [], "tools": [], "stream": true, "temperature": 1})
                .as_object()
                .unwrap()
                .clone();
        let body = one_text_run(&r).body;
        assert_eq!(
            body["messages"],
            json!([{"role": "user", "content": "hi"}]),
            "{style:?}"
        );
        assert_eq!(body["tools"].as_array().map(Vec::len), Some(1), "{style:?}");
        assert_eq!(body.get("stream"), None, "{style:?}");
        assert_eq!(body["temperature"], json!(1), "{style:?}");
    }
}

#[test]
fn the_request_carries_the_run_signal() {
    let signal = std::rc::Rc::new(common::ManualSignal::default());
    let r = rig(Style::OpenAi).signal(&signal);
    assert!(one_text_run(&r).signal.is_some());
    assert!(one_text_run(&rig(Style::OpenAi)).signal.is_none());
}

#[test]
fn every_body_is_valid_json_text() {
    for style in BOTH {
        let mut r = rig(style);
        r.config.system_prompt = "quote \" and \u{2028} and emoji 🦀".into();
        let sent = r.http.clone();
        r.run("multi\nline \"prompt\"").unwrap();
        let text = sent.request(0).text;
        let parsed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed.to_string(), text);
    }
}

/// A compaction summary as a transcript keeps it: the host's `metadata` on the message.
fn noted_summary(role: &str) -> Value {
    json!({
        "role": role,
        "content": "[Summary of earlier conversation]\nthey said hello",
        "metadata": {"compacted": {"messages": 12, "tokens": 3400}}
    })
}

fn without_metadata(message: &Value) -> Value {
    let mut plain = message.clone();
    plain.as_object_mut().unwrap().shift_remove("metadata");
    plain
}

#[test]
fn message_metadata_never_reaches_the_provider_in_either_style_and_the_transcript_keeps_it() {
    for style in BOTH {
        let summary_role = if style == Style::OpenAi {
            "system"
        } else {
            "user"
        };
        let noted = noted_summary(summary_role);
        let history = |summary: Value| vec![summary, json!({"role": "assistant", "content": "ok"})];
        let mut with = rig(style);
        with.history = history(noted.clone());
        let mut plain = rig(style);
        plain.history = history(without_metadata(&noted));
        // The run's transcript (what a conversation store saves) still has it.
        let result = with.run("hi").unwrap();
        assert_eq!(result.messages[0], noted, "{style:?}");
        let sent = with.http.request(0);
        assert_eq!(
            sent.text,
            one_text_run(&plain).text,
            "{style:?}: the same bytes"
        );
        assert!(!sent.text.contains("metadata"), "{style:?}: {}", sent.text);
    }
}

#[test]
fn message_metadata_is_gone_before_a_body_transform_sees_the_body() {
    let mut r = rig(Style::OpenAi);
    r.history = vec![noted_summary("system")];
    r.hooks = Rc::new(FakeHooks {
        body_transform: Some(Box::new(Ok)),
        ..FakeHooks::default()
    });
    let sent = one_text_run(&r);
    assert_eq!(
        sent.body["messages"][0],
        without_metadata(&noted_summary("system"))
    );
    assert!(!r.hooks.body_transform_seen.borrow()[0]
        .to_string()
        .contains("metadata"));
}

#[test]
fn a_metadata_key_inside_content_is_sent_unchanged() {
    let mut r = rig(Style::OpenAi);
    let nested =
        json!({"role": "user", "content": [{"type": "text", "text": "hi", "metadata": {"a": 1}}]});
    r.history = vec![
        nested.clone(),
        json!({"role": "user", "content": "\"metadata\""}),
    ];
    let sent = one_text_run(&r);
    assert_eq!(sent.body["messages"][0], nested);
    assert_eq!(sent.body["messages"][1]["content"], "\"metadata\"");
}
