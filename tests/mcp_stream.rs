//! Streams that outlive one read (MCP 2025-11-25), on a virtual clock: an event stream that ends
//! before its answer is resumed with GET and `Last-Event-ID` after the server's `retry:` delay
//! (and given up when it cannot be); progress notifications push a call's deadline back, up to
//! ten budgets; the standalone GET stream carries elicitations (answered with the schema's
//! defaults, SEP-1034) and `tools/list_changed` (the tools re-listed and swapped).
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::mcp_common;

use mcp_common::*;
use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::core::host::Clock;
use toolnexus::core::mcp::load;
use toolnexus::core::tool::{Context, SharedTool};
use toolnexus::{core::json::value::Value, json};

/// An SSE message event.
fn event(id: Option<&str>, message: Value) -> String {
    match id {
        Some(id) => format!("id: {id}\ndata: {message}\n\n"),
        None => format!("data: {message}\n\n"),
    }
}

fn answer(id: u64, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}})
}

fn progress(token: u64) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 1}})
}

/// Loads one server `s` over `fake` (its clock set), calls `s_echo`, and gives the result.
fn call_echo(
    fake: &Rc<FakeMcp>,
    config: Value,
) -> (toolnexus::core::types::ToolResult, Rc<VirtualClock>) {
    let clock = VirtualClock::new();
    *fake.clock.borrow_mut() = Some(clock.clone() as Rc<dyn Clock>);
    let entries = remote(&[("s", config)]);
    let host = host(
        Some(Rc::new(Router(vec![("s", fake.clone())]))),
        clock.clone(),
    );
    let result = run(&clock, async move {
        let source = load(&entries, &host).await;
        let tool = source
            .tools
            .iter()
            .find(|t| t.spec().name == "s_echo")
            .unwrap()
            .clone();
        tool.execute(json!({"text": "hi"}), Context::default())
            .await
    });
    (result, clock)
}

#[test]
fn a_stream_that_ends_before_its_answer_is_resumed_after_retry_with_last_event_id() {
    let fake = FakeMcp::new(Mode::Events)
        .with(
            "tools/call:echo",
            Reply::Timed(vec![(0.0, "id: e1\nretry: 500\ndata:\n\n".into())], false),
        )
        .with(
            "GET:e1",
            Reply::Timed(vec![(0.0, event(Some("e2"), answer(2, "resumed")))], true),
        );
    let (result, _) = call_echo(&fake, json!({}));
    assert_eq!(
        (result.output.as_str(), result.is_error),
        ("resumed", false)
    );
    let call = &fake.seen_rpc("tools/call")[0];
    let gets = fake.seen_rpc("GET");
    assert_eq!(gets.len(), 1, "one resumption");
    assert_eq!(gets[0].header("last-event-id").as_deref(), Some("e1"));
    assert_eq!(
        gets[0].header("accept").as_deref(),
        Some("text/event-stream")
    );
    assert_eq!(gets[0].header("mcp-session-id").as_deref(), Some("sess-1"));
    assert_eq!(
        gets[0].at - call.at,
        500.0,
        "after the server's retry delay"
    );
}

#[test]
fn without_a_retry_field_the_resumption_waits_the_default_delay() {
    let fake = FakeMcp::new(Mode::Events)
        .with(
            "tools/call:echo",
            Reply::Timed(vec![(10.0, "id: e1\ndata:\n\n".into())], false),
        )
        .with(
            "GET:e1",
            Reply::Timed(vec![(0.0, event(None, answer(2, "late")))], false),
        );
    let (result, _) = call_echo(&fake, json!({}));
    assert_eq!(result.output, "late");
    let get = fake.seen_rpc("GET")[0].clone();
    assert_eq!(get.at, 10.0 + toolnexus::core::mcp::DEFAULT_RETRY_MS);
}

#[test]
fn a_stream_without_an_event_id_cannot_be_resumed_and_fails_clearly() {
    let fake = FakeMcp::new(Mode::Events).with(
        "tools/call:echo",
        Reply::Timed(vec![(0.0, ": nothing\n\n".into())], false),
    );
    let (result, _) = call_echo(&fake, json!({}));
    assert!(result.is_error);
    assert_eq!(
        result.output,
        "the event stream ended without answering request 2"
    );
    assert!(fake.seen.borrow().iter().all(|s| s.method != "GET"));
}

#[test]
fn resumption_gives_up_after_quiet_reconnects() {
    let fake = FakeMcp::new(Mode::Events)
        .with(
            "tools/call:echo",
            Reply::Timed(vec![(0.0, "id: e1\nretry: 100\ndata:\n\n".into())], false),
        )
        .with("GET:e1", Reply::Timed(Vec::new(), false));
    let (result, _) = call_echo(&fake, json!({}));
    assert_eq!(
        result.output,
        "the event stream ended without answering request 2"
    );
    let gets = fake.seen_rpc("GET").len();
    assert_eq!(gets, 3);
}

#[test]
fn a_resumption_the_server_refuses_ends_the_call() {
    // No GET scripted: the fake answers 405.
    let fake = FakeMcp::new(Mode::Events).with(
        "tools/call:echo",
        Reply::Timed(vec![(0.0, "id: e1\nretry: 100\ndata:\n\n".into())], false),
    );
    let (result, _) = call_echo(&fake, json!({}));
    assert!(result.is_error);
    assert_eq!(fake.seen_rpc("GET").len(), 1);
}

#[test]
fn a_call_asks_for_progress_and_progress_pushes_its_deadline_back() {
    let texts = vec![
        (600.0, event(None, progress(2))),
        (1200.0, event(None, progress(2))),
        (1800.0, event(None, progress(2))),
        (2400.0, event(None, answer(2, "slow but alive"))),
    ];
    let fake = FakeMcp::new(Mode::Events).with("tools/call:echo", Reply::Timed(texts, false));
    let (result, clock) = call_echo(&fake, json!({"timeout": 1000}));
    assert_eq!(
        (result.output.as_str(), result.is_error),
        ("slow but alive", false)
    );
    assert_eq!(clock.now(), 2400.0);
    let call = &fake.seen_rpc("tools/call")[0];
    assert_eq!(call.body["params"]["_meta"], json!({"progressToken": 2}));
}

#[test]
fn progress_never_extends_a_call_past_ten_budgets() {
    let texts = (1..100)
        .map(|i| (f64::from(i) * 500.0, event(None, progress(2))))
        .collect();
    let fake = FakeMcp::new(Mode::Events).with("tools/call:echo", Reply::Timed(texts, true));
    let (result, clock) = call_echo(&fake, json!({"timeout": 1000}));
    assert!(result.is_error);
    assert_eq!(result.output, "timed out after 1000 ms during tools/call");
    assert_eq!(clock.now(), 10_000.0);
}

#[test]
fn progress_for_another_token_does_not_extend_the_call() {
    let texts = vec![
        (600.0, event(None, progress(99))),
        (5000.0, event(None, answer(2, "too late"))),
    ];
    let fake = FakeMcp::new(Mode::Events).with("tools/call:echo", Reply::Timed(texts, false));
    let (result, clock) = call_echo(&fake, json!({"timeout": 1000}));
    assert_eq!(result.output, "timed out after 1000 ms during tools/call");
    assert_eq!(clock.now(), 1000.0);
}

/// A server's tool names before and after a change.
type Swap = (Vec<String>, Vec<String>);

fn list_changed() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
}

#[test]
fn the_standalone_stream_answers_elicitations_with_defaults_and_refreshes_tools_on_list_changed() {
    let schema = json!({"type": "object", "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
        "colors": {"type": "array", "items": {"anyOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]}, "default": ["r"]},
        "given": {"type": "string", "default": "unused"}
    }});
    let ask = json!({"jsonrpc": "2.0", "id": "srv-1", "method": "elicitation/create", "params": {"message": "Defaults?", "requestedSchema": schema}});
    let stream = vec![
        (0.0, "id: g1\nretry: 100\ndata:\n\n".to_owned()),
        (50.0, event(Some("g2"), ask)),
        (100.0, event(Some("g3"), list_changed())),
    ];
    let fake = FakeMcp::new(Mode::Events).with("GET", Reply::Timed(stream, true));
    let clock = VirtualClock::new();
    *fake.clock.borrow_mut() = Some(clock.clone() as Rc<dyn Clock>);
    let entries = remote(&[("s", json!({}))]);
    let wait_for =
        ScriptedWaitFor::new(|r| Ok(json!({"id": r.id, "ok": true, "data": {"given": "Ada"}})));
    let base = with_wait_for(
        host(
            Some(Rc::new(Router(vec![("s", fake.clone())]))),
            clock.clone(),
        ),
        wait_for.clone(),
    );
    let changes: Rc<RefCell<Vec<Swap>>> = Rc::default();
    let seen = changes.clone();
    let (fake2, timer) = (fake.clone(), clock.clone());
    let before = run_spawning(&clock, move |spawn| async move {
        let host = toolnexus::core::mcp::McpHost {
            spawn: Some(spawn),
            token_store: None,
            signer: None,
            ..base
        };
        let source = load(&entries, &host).await;
        let before = names(&source);
        source.on_tools_changed(Rc::new(move |old: &[SharedTool], new: &[SharedTool]| {
            let n = |tools: &[SharedTool]| tools.iter().map(|t| t.spec().name.clone()).collect();
            seen.borrow_mut().push((n(old), n(new)));
        }));
        fake2
            .tools
            .borrow_mut()
            .push(json!({"name": "added", "inputSchema": {"type": "object"}}));
        timer.sleep(500.0).await;
        source.close().await;
        before
    });
    assert_eq!(before, ["s_echo", "s_get_weather"]);
    // The elicitation reached waitFor and its answer went back with the defaults filled in.
    assert_eq!(wait_for.seen.borrow().len(), 1);
    let reply = fake.replies.got.borrow().get("srv-1").cloned().unwrap();
    assert_eq!(
        reply["result"],
        json!({"action": "accept", "content": {"given": "Ada", "name": "John Doe", "age": 30, "status": "active", "colors": ["r"]}})
    );
    // list_changed: listed again, and the watcher told the old and new tools.
    assert_eq!(fake.seen_rpc("tools/list").len(), 2);
    assert_eq!(
        *changes.borrow(),
        [(
            vec!["s_echo".to_owned(), "s_get_weather".to_owned()],
            vec![
                "s_echo".to_owned(),
                "s_get_weather".to_owned(),
                "s_added".to_owned()
            ]
        )]
    );
    let get = fake.seen_rpc("GET")[0].clone();
    assert_eq!(
        get.header("last-event-id"),
        None,
        "the standalone stream starts fresh"
    );
}

#[test]
fn a_server_that_refuses_the_get_stream_loads_as_before() {
    let fake = FakeMcp::new(Mode::Json);
    let clock = VirtualClock::new();
    let entries = remote(&[("s", json!({}))]);
    let base = host(
        Some(Rc::new(Router(vec![("s", fake.clone())]))),
        clock.clone(),
    );
    let names = run_spawning(&clock, move |spawn| async move {
        let host = toolnexus::core::mcp::McpHost {
            spawn: Some(spawn),
            token_store: None,
            signer: None,
            ..base
        };
        let source = load(&entries, &host).await;
        let out = names(&source);
        source.close().await;
        out
    });
    assert_eq!(names, ["s_echo", "s_get_weather"]);
    let gets = fake.seen_rpc("GET").len();
    assert_eq!(gets, 1, "asked once, 405, never again");
}
