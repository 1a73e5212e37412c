//! The contract's data shapes (SPEC §0, §1, §10) and the provider adapters, byte for byte.
#![allow(clippy::unwrap_used)]

use toolnexus::core::adapters::{to_anthropic, to_gemini, to_openai};
use toolnexus::core::spec::{empty_schema, SpecError, ToolSpec};
use toolnexus::core::types::{pending, pending_of, sanitize, Answer, Request, ToolResult};
use toolnexus::{core::json::value::Value, json};

fn request(url: Option<&str>) -> Request {
    Request {
        id: "r1".into(),
        kind: "approval".into(),
        prompt: "Send it?".into(),
        url: url.map(str::to_owned),
        data: None,
        expires_at: None,
    }
}

#[test]
fn request_and_answer_keys_are_exact() {
    let mut r = request(Some("https://x/ok"));
    r.data = Some(json!({"n": 1}).as_object().unwrap().clone());
    r.expires_at = Some("2030-01-01T00:00:00Z".into());
    assert_eq!(
        serde_json::to_string(&r).unwrap(),
        r#"{"id":"r1","kind":"approval","prompt":"Send it?","url":"https://x/ok","data":{"n":1},"expiresAt":"2030-01-01T00:00:00Z"}"#
    );
    assert_eq!(
        serde_json::to_string(&request(None)).unwrap(),
        r#"{"id":"r1","kind":"approval","prompt":"Send it?"}"#
    );
    let a: Answer = serde_json::from_str(r#"{"id":"r1","ok":false,"reason":"declined"}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        r#"{"id":"r1","ok":false,"reason":"declined"}"#
    );
}

#[test]
fn tool_result_keys_are_exact() {
    assert_eq!(
        serde_json::to_string(&ToolResult::error("x")).unwrap(),
        r#"{"output":"x","isError":true}"#
    );
}

#[test]
fn pending_output_is_the_prompt_then_the_url() {
    let with_url = pending(request(Some("https://x/login")));
    assert_eq!(with_url.output, "Send it?\nhttps://x/login");
    assert!(with_url.is_error);
    let without = pending(request(None));
    assert_eq!(without.output, "Send it?");
    assert_eq!(
        serde_json::to_value(&without).unwrap(),
        json!({"output": "Send it?", "isError": true,
               "metadata": {"pending": {"id": "r1", "kind": "approval", "prompt": "Send it?"}}})
    );
}

#[test]
fn pending_of_reads_suspensions_only() {
    assert_eq!(pending_of(&pending(request(None))), Some(request(None)));
    assert_eq!(pending_of(&ToolResult::error("boom")), None);
    assert_eq!(pending_of(&ToolResult::ok("fine")), None);
    let mut malformed = ToolResult::error("x");
    malformed.metadata = Some(json!({"pending": {"id": 3}}).as_object().unwrap().clone());
    assert_eq!(pending_of(&malformed), None);
    malformed.metadata = Some(json!({"pending": "yes"}).as_object().unwrap().clone());
    assert_eq!(pending_of(&malformed), None);
}

#[test]
fn sanitize_replaces_everything_outside_the_safe_set() {
    assert_eq!(sanitize("my server.v2"), "my_server_v2");
    assert_eq!(sanitize("a-b_C9"), "a-b_C9");
    assert_eq!(sanitize("héllo/wörld"), "h_llo_w_rld");
    assert_eq!(sanitize(""), "");
}

#[test]
fn specs_refuse_names_and_schemas_providers_would_refuse() {
    let ok = json!({"type": "object"});
    assert_eq!(
        ToolSpec::new("", "", ok.clone(), "native"),
        Err(SpecError::EmptyName)
    );
    let err = ToolSpec::new("get weather", "", ok, "native").unwrap_err();
    assert_eq!(
        err.to_string(),
        "tool name \"get weather\" is invalid: use only letters, digits, \"_\" and \"-\" (sanitize gives \"get_weather\")"
    );
    let err = ToolSpec::new("t", "", json!("x"), "native").unwrap_err();
    assert_eq!(
        err.to_string(),
        "tool \"t\": inputSchema must be a JSON Schema object, got string"
    );
    let err = ToolSpec::new("t", "", json!({"type": "string"}), "native").unwrap_err();
    assert!(err
        .to_string()
        .contains("inputSchema.type must be \"object\""));
    assert!(ToolSpec::new("t", "", json!({"properties": {}}), "native").is_ok());
}

fn weather() -> ToolSpec {
    let schema: Value = serde_json::from_str(
        r#"{"type":"object","properties":{"city":{"type":"string","description":"City"},"days":{"type":"integer","minimum":1,"maximum":7.5}},"required":["city"]}"#,
    )
    .unwrap();
    ToolSpec::new("get_weather", "Weather by city", schema, "native").unwrap()
}

const SCHEMA: &str = r#"{"type":"object","properties":{"city":{"type":"string","description":"City"},"days":{"type":"integer","minimum":1,"maximum":7.5}},"required":["city"]}"#;
const EMPTY: &str = r#"{"type":"object","properties":{},"additionalProperties":false}"#;

#[test]
fn adapters_are_byte_exact_and_keep_schema_key_order() {
    let empty = ToolSpec::new("noop", "", empty_schema(), "native").unwrap();
    let specs = [weather(), empty];
    assert_eq!(
        to_openai(&specs).to_string(),
        format!(
            r#"[{{"type":"function","function":{{"name":"get_weather","description":"Weather by city","parameters":{SCHEMA}}}}},{{"type":"function","function":{{"name":"noop","description":"","parameters":{EMPTY}}}}}]"#
        )
    );
    assert_eq!(
        to_anthropic(&specs).to_string(),
        format!(
            r#"[{{"name":"get_weather","description":"Weather by city","input_schema":{SCHEMA}}},{{"name":"noop","description":"","input_schema":{EMPTY}}}]"#
        )
    );
    assert_eq!(
        to_gemini(&specs).to_string(),
        format!(
            r#"[{{"functionDeclarations":[{{"name":"get_weather","description":"Weather by city","parameters":{SCHEMA}}},{{"name":"noop","description":"","parameters":{EMPTY}}}]}}]"#
        )
    );
    assert_eq!(to_openai(&[]).to_string(), "[]");
    assert_eq!(to_anthropic(&[]).to_string(), "[]");
}
