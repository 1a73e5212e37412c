//! How a model call fails: status, network and unreadable responses, stable codes, and
//! secrets (the key, header values) that never reach an error message.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::host::HttpError;
use toolnexus::core::wire::WireError;
use toolnexus::json;

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

fn path(style: Style) -> &'static str {
    match style {
        Style::OpenAi => "/v1/chat/completions",
        Style::Anthropic => "/v1/messages",
    }
}

/// Runs against an endpoint that always gives `reply` (so a retry, were there one, sees the same).
fn fail(style: Style, reply: Result<toolnexus::core::host::HttpResponse, HttpError>) -> RunError {
    let r = Rig::new(style, ScriptedHttp::with(move |_, _| reply.clone()));
    r.run("hi").unwrap_err()
}

#[test]
fn a_non_2xx_status_is_a_status_error_with_path_and_body() {
    for style in BOTH {
        for status in [400_u16, 404, 429, 500, 503] {
            let err = fail(style, respond(status, r#"{"error":"nope"}"#));
            assert_eq!(
                err,
                RunError::Status {
                    status,
                    path: path(style).into(),
                    body: r#"{"error":"nope"}"#.into()
                }
            );
            assert_eq!(err.code(), "http_status");
            assert_eq!(
                err.to_string(),
                format!(r#"LLM {status} from {}: {{"error":"nope"}}"#, path(style))
            );
        }
    }
}

#[test]
fn statuses_in_the_2xx_range_are_read() {
    for status in [200_u16, 201, 299] {
        let r = Rig::new(
            Style::OpenAi,
            ScriptedHttp::replies(vec![respond(
                status,
                &openai_text("fine", None).to_string(),
            )]),
        );
        assert_eq!(r.run("hi").unwrap().text, "fine");
    }
    let err = fail(Style::OpenAi, respond(300, "moved"));
    assert_eq!(err.code(), "http_status");
}

#[test]
fn a_client_error_status_is_sent_once() {
    let r = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![respond(400, "x")]),
    );
    r.run("hi").unwrap_err();
    assert_eq!(r.http.count(), 1);
}

#[test]
fn the_path_in_errors_drops_the_host_and_query() {
    let mut r = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![respond(404, "not found")]),
    );
    r.config.base_url = "https://user:pw@proxy.example:8443/api/v1".into();
    match r.run("hi").unwrap_err() {
        RunError::Status { path, .. } => assert_eq!(path, "/api/v1/chat/completions"),
        other => unreachable!("{other:?}"),
    }
}

#[test]
fn a_server_echoing_the_key_or_a_header_value_is_redacted() {
    for style in BOTH {
        let mut r = Rig::new(
            style,
            ScriptedHttp::replies(vec![respond(
                401,
                r#"{"error":"invalid key sk-live-0123456789 for org org-secret-42"}"#,
            )]),
        );
        r.config.api_key = Some("sk-live-0123456789".into());
        r.config.headers = vec![("OpenAI-Organization".into(), "org-secret-42".into())];
        let err = r.run("hi").unwrap_err();
        let text = err.to_string();
        assert!(!text.contains("sk-live-0123456789"), "{text}");
        assert!(!text.contains("org-secret-42"), "{text}");
        assert_eq!(
            err,
            RunError::Status {
                status: 401,
                path: path(style).into(),
                body: r#"{"error":"invalid key [redacted] for org org-secret-42"}"#
                    .replace("org-secret-42", "[redacted]")
            }
        );
        assert!(!format!("{err:?}").contains("sk-live-0123456789"));
    }
}

#[test]
fn error_messages_never_carry_request_headers() {
    let mut r = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![respond(403, "forbidden")]),
    );
    r.config.api_key = Some("sk-abcdef".into());
    r.config.headers = vec![("X-Secret".into(), "hunter2-secret".into())];
    let text = r.run("hi").unwrap_err().to_string();
    assert_eq!(text, "LLM 403 from /v1/chat/completions: forbidden");
}

#[test]
fn a_long_error_body_is_truncated() {
    let body = "x".repeat(5000);
    match fail(Style::OpenAi, respond(500, &body)) {
        RunError::Status { body, .. } => {
            assert!(body.starts_with(&"x".repeat(2000)));
            assert!(body.ends_with("… (5000 bytes in all)"), "{}", &body[1990..]);
            assert!(body.chars().filter(|c| *c == 'x').count() == 2000);
        }
        other => unreachable!("{other:?}"),
    }
}

#[test]
fn a_key_cut_by_truncation_does_not_leak_its_prefix() {
    let key = "sk-live-ABCDEFGHIJKLMNOP";
    let body = format!("{}{key}", "x".repeat(1990));
    let mut r = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![respond(401, &body)]),
    );
    r.config.api_key = Some(key.into());
    let text = r.run("hi").unwrap_err().to_string();
    assert!(!text.contains("sk-live-AB"), "{}", &text[text.len() - 60..]);
}

#[test]
fn a_network_error_is_a_network_error_with_the_path() {
    for style in BOTH {
        let mut r = Rig::new(
            style,
            ScriptedHttp::replies(vec![Err(HttpError::Network(
                "connect ECONNREFUSED (key sk-net-secret-1)".into(),
            ))]),
        );
        r.config.api_key = Some("sk-net-secret-1".into());
        r.config.retries = 0;
        let err = r.run("hi").unwrap_err();
        assert_eq!(
            err,
            RunError::Network {
                path: path(style).into(),
                message: "connect ECONNREFUSED (key [redacted])".into()
            }
        );
        assert_eq!(err.code(), "network");
        assert_eq!(
            err.to_string(),
            format!(
                "LLM request to {} failed: connect ECONNREFUSED (key [redacted])",
                path(style)
            )
        );
    }
}

#[test]
fn a_refused_request_is_a_model_error() {
    let err = fail(Style::OpenAi, Err(HttpError::Refused("no".into())));
    assert_eq!(err, RunError::Model("no".into()));
    assert_eq!(err.code(), "model");
}

fn bad_response(style: Style, body: &str) -> WireError {
    match fail(style, respond(200, body)) {
        RunError::BadResponse { path: p, source } => {
            assert_eq!(p, path(style));
            source
        }
        other => unreachable!("{other:?}"),
    }
}

#[test]
fn a_200_that_is_not_json_is_a_bad_response() {
    for style in BOTH {
        for body in ["<html>oops</html>", "", "{\"choices\":"] {
            let source = bad_response(style, body);
            assert!(
                matches!(source, WireError::NotJson(_)),
                "{style:?} {body:?}: {source:?}"
            );
        }
        let err = fail(style, respond(200, "<html>"));
        assert_eq!(err.code(), "bad_response");
        assert!(err.to_string().starts_with(&format!(
            "LLM response from {} could not be read: the response is not JSON",
            path(style)
        )));
    }
}

#[test]
fn an_openai_200_without_choices_names_what_is_missing() {
    for body in [
        json!({}),
        json!({"choices": []}),
        json!({"choices": null}),
        json!({"choices": [{}]}),
        json!({"choices": [{"message": "hi"}]}),
    ] {
        let source = bad_response(Style::OpenAi, &body.to_string());
        assert_eq!(source, WireError::Missing("choices[0].message"), "{body}");
    }
    let err = fail(Style::OpenAi, respond(200, "{}"));
    assert_eq!(
        err.to_string(),
        "LLM response from /v1/chat/completions could not be read: the response has no choices[0].message"
    );
}

#[test]
fn an_anthropic_200_without_content_names_what_is_missing() {
    for body in [
        json!({}),
        json!({"content": null}),
        json!({"content": "hi"}),
    ] {
        let source = bad_response(Style::Anthropic, &body.to_string());
        assert_eq!(source, WireError::Missing("content"), "{body}");
    }
    let err = fail(Style::Anthropic, respond(200, r#"{"type":"message"}"#));
    assert_eq!(
        err.to_string(),
        "LLM response from /v1/messages could not be read: the response has no content"
    );
}

#[test]
fn a_provider_error_in_a_200_is_a_bad_response() {
    let source = bad_response(
        Style::OpenAi,
        r#"{"error":{"message":"model overloaded","code":503}}"#,
    );
    assert_eq!(source, WireError::Provider("model overloaded".into()));
    let source = bad_response(
        Style::Anthropic,
        r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
    );
    assert_eq!(source, WireError::Provider("Overloaded".into()));
}

#[test]
fn a_provider_error_in_a_200_echoing_the_key_is_redacted() {
    for style in BOTH {
        let mut r = Rig::new(
            style,
            ScriptedHttp::replies(vec![respond(
                200,
                r#"{"error":{"message":"bad key sk-echo-secret-9"}}"#,
            )]),
        );
        r.config.api_key = Some("sk-echo-secret-9".into());
        let text = r.run("hi").unwrap_err().to_string();
        assert!(!text.contains("sk-echo-secret-9"), "{style:?}: {text}");
    }
}

#[test]
fn an_openai_message_without_content_is_an_empty_final_answer() {
    let r = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![ok_json(
            json!({"choices": [{"message": {"role": "assistant"}}]}),
        )]),
    );
    let result = r.run("hi").unwrap();
    assert_eq!(result.text, "");
    assert_eq!(result.turns, 1);
}

#[test]
fn a_failure_on_a_later_turn_is_still_an_error() {
    for style in BOTH {
        let r = Rig::new(
            style,
            ScriptedHttp::replies(vec![
                calls_reply(style, &[("c1", "t", json!({}))]),
                respond(400, "bad request"),
            ]),
        )
        .tool(FnTool::returning(
            "t",
            toolnexus::core::types::ToolResult::ok("x"),
        ));
        let err = r.run("hi").unwrap_err();
        assert_eq!(err.code(), "http_status", "{style:?}");
        assert_eq!(r.http.count(), 2);
    }
}

#[test]
fn a_bearer_token_given_as_a_header_is_redacted_when_echoed() {
    let mut r = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![respond(
            401,
            r#"{"error":"Incorrect API key provided: sk-proxy-777777"}"#,
        )]),
    );
    r.config.headers = vec![("Authorization".into(), "Bearer sk-proxy-777777".into())];
    let text = r.run("hi").unwrap_err().to_string();
    assert!(!text.contains("sk-proxy-777777"), "{text}");
}

#[test]
fn a_secret_containing_another_is_redacted_whole() {
    let mut r = Rig::new(
        Style::Anthropic,
        ScriptedHttp::replies(vec![respond(403, "denied for tok1-long-secret-part")]),
    );
    r.config.headers = vec![
        ("X-Short".into(), "tok1".into()),
        ("X-Long".into(), "tok1-long-secret-part".into()),
    ];
    let text = r.run("hi").unwrap_err().to_string();
    assert!(!text.contains("long-secret-part"), "{text}");
}

#[test]
fn the_key_inside_a_configured_header_value_is_redacted() {
    let mut r = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![respond(401, "you sent Bearer sk-k3y-0000 via proxy")]),
    );
    r.config.api_key = Some("sk-k3y-0000".into());
    r.config.headers = vec![("X-Proxy".into(), "p-token-abc".into())];
    let text = r.run("hi").unwrap_err().to_string();
    assert_eq!(
        text,
        "LLM 401 from /v1/chat/completions: you sent Bearer [redacted] via proxy"
    );
}
