//! Elicitation through `waitFor` (SPEC §2 bridge): advertised only with a `waitFor`; a server's
//! `elicitation/create` in the middle of a `tools/call` event stream becomes one Request (form →
//! `input` with `data.schema`, URL → `authorization` with `url`), and the Answer is POSTed back
//! as `accept` / `decline` / `cancel` while the call waits.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::mcp_common;

use mcp_common::*;
use std::rc::Rc;
use toolnexus::core::mcp::elicit::{to_request, to_result};
use toolnexus::core::mcp::load;
use toolnexus::core::tool::Context;
use toolnexus::{core::json::value::Value, json};

fn form() -> Value {
    json!({"mode": "form", "message": "What is your name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}})
}

/// The server echoes the client's ElicitResult as its tool output.
fn echo_answer(answer: &Value) -> Value {
    json!({"content": [{"type": "text", "text": answer.to_string()}]})
}

fn elicit_once(params: Value, wait_for: Option<Rc<ScriptedWaitFor>>) -> (String, Rc<FakeMcp>) {
    let clock = VirtualClock::new();
    let fake =
        FakeMcp::new(Mode::Events).with("tools/call:echo", Reply::Elicit(params, echo_answer));
    let entries = remote(&[("s", json!({}))]);
    let mut host = host(
        Some(Rc::new(Router(vec![("s", fake.clone())]))),
        clock.clone(),
    );
    if let Some(w) = wait_for {
        host = with_wait_for(host, w);
    }
    let out = run(&clock, async move {
        let source = load(&entries, &host).await;
        source.tools[0]
            .execute(json!({"text": "x"}), Context::default())
            .await
    });
    assert!(!out.is_error, "{}", out.output);
    (out.output, fake)
}

#[test]
fn with_wait_for_elicitation_is_advertised_in_both_modes() {
    let wait_for = ScriptedWaitFor::new(|_| Ok(json!({"ok": true})));
    let (_, fake) = elicit_once(form(), Some(wait_for));
    assert_eq!(
        fake.seen_rpc("initialize")[0].body["params"]["capabilities"],
        json!({"elicitation": {"form": {}, "url": {}}})
    );
}

#[test]
fn a_form_elicitation_becomes_an_input_request_and_accept_carries_the_data() {
    let wait_for =
        ScriptedWaitFor::new(|r| Ok(json!({"id": r.id, "ok": true, "data": {"name": "Ada"}})));
    let (output, fake) = elicit_once(form(), Some(wait_for.clone()));
    assert_eq!(output, r#"{"action":"accept","content":{"name":"Ada"}}"#);
    let request = wait_for.seen.borrow()[0].clone();
    assert_eq!(request.kind, "input");
    assert_eq!(request.prompt, "What is your name?");
    assert_eq!(request.url, None);
    assert_eq!(
        Value::Object(request.data.unwrap()),
        json!({"schema": form()["requestedSchema"]})
    );
    let id = regex_lite::Regex::new(r"^elc-[0-9a-z]+-\d+$").unwrap();
    assert!(id.is_match(&request.id), "{}", request.id);
    // The answer went back as a JSON-RPC response on the same session.
    let posted: Vec<_> = fake
        .seen
        .borrow()
        .iter()
        .filter(|s| s.body.get("result").is_some())
        .cloned()
        .collect();
    assert_eq!(posted.len(), 1);
    assert_eq!(
        posted[0].body,
        json!({"jsonrpc": "2.0", "id": "srv-1", "result": {"action": "accept", "content": {"name": "Ada"}}})
    );
    assert_eq!(
        posted[0].header("mcp-session-id").as_deref(),
        Some("sess-1")
    );
    assert_eq!(
        posted[0].header("mcp-protocol-version").as_deref(),
        Some("2025-11-25")
    );
}

#[test]
fn a_url_elicitation_becomes_an_authorization_request() {
    let wait_for = ScriptedWaitFor::new(|_| Ok(json!({"ok": true})));
    let params = json!({"mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "e1"});
    let (output, _) = elicit_once(params, Some(wait_for.clone()));
    assert_eq!(output, r#"{"action":"accept","content":{}}"#);
    let request = wait_for.seen.borrow()[0].clone();
    assert_eq!(
        (request.kind.as_str(), request.prompt.as_str()),
        ("authorization", "Sign in")
    );
    assert_eq!(request.url.as_deref(), Some("https://example.com/login"));
    assert_eq!(request.data, None);
}

#[test]
fn decline_cancel_and_failures_map_back() {
    let cases: Vec<(Result<Value, String>, &str)> = vec![
        (
            Ok(json!({"ok": false, "reason": "declined"})),
            r#"{"action":"decline"}"#,
        ),
        (
            Ok(json!({"ok": false, "reason": "expired"})),
            r#"{"action":"cancel"}"#,
        ),
        (Ok(json!({"ok": false})), r#"{"action":"cancel"}"#),
        (
            Err("the dialog was closed".into()),
            r#"{"action":"cancel"}"#,
        ),
        (Ok(json!("yes")), r#"{"action":"cancel"}"#),
        (Ok(json!({"ok": "true"})), r#"{"action":"cancel"}"#),
        (
            Ok(json!({"id": "someone-else", "ok": true})),
            r#"{"action":"cancel"}"#,
        ),
    ];
    for (answer, want) in cases {
        let label = format!("{answer:?}");
        let wait_for = ScriptedWaitFor::new(move |_| answer.clone());
        let (output, _) = elicit_once(form(), Some(wait_for));
        assert_eq!(output, want, "{label}");
    }
}

#[test]
fn without_wait_for_nothing_is_advertised_and_an_elicitation_is_refused() {
    let clock = VirtualClock::new();
    let fake = FakeMcp::new(Mode::Events).with(
        "tools/call:echo",
        Reply::Elicit(
            form(),
            |answer| json!({"content": [{"type": "text", "text": answer.to_string()}]}),
        ),
    );
    let entries = remote(&[("s", json!({}))]);
    let host = host(
        Some(Rc::new(Router(vec![("s", fake.clone())]))),
        clock.clone(),
    );
    let source = run(&clock, async move { load(&entries, &host).await });
    assert_eq!(
        fake.seen_rpc("initialize")[0].body["params"]["capabilities"],
        json!({})
    );
    let tool = source.tools[0].clone();
    run(
        &clock,
        tool.execute(json!({"text": "x"}), Context::default()),
    );
    let refused: Vec<_> = fake
        .seen
        .borrow()
        .iter()
        .filter(|s| s.body.get("error").is_some())
        .cloned()
        .collect();
    assert_eq!(
        refused[0].body,
        json!({"jsonrpc": "2.0", "id": "srv-1", "error": {"code": -32601, "message": "Method not found: elicitation/create"}})
    );
}

#[test]
fn the_mappings_alone() {
    let r = to_request(
        &json!({"message": "Pick", "requestedSchema": {"type": "object"}}),
        36.0 * 36.0,
    );
    assert_eq!((r.kind.as_str(), r.prompt.as_str()), ("input", "Pick"));
    assert!(r.id.starts_with("elc-100-"), "{}", r.id);
    let no_message = to_request(&json!({"mode": "url"}), 0.0);
    assert_eq!((no_message.prompt.as_str(), no_message.url), ("", None));
    assert_eq!(
        to_result(Ok(json!({"id": "a", "ok": true, "data": {"x": 1}})), "a"),
        json!({"action": "accept", "content": {"x": 1}})
    );
    assert_eq!(
        to_result(Ok(json!({"ok": true, "data": [1]})), "a"),
        json!({"action": "accept", "content": {}})
    );
    assert_eq!(
        to_result(
            Ok(json!({"id": "b", "ok": false, "reason": "declined"})),
            "a"
        ),
        json!({"action": "cancel"})
    );
}
