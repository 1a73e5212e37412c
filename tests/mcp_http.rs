//! The streamable-HTTP client against a scripted server: the 2026-07-28 probe a legacy server
//! turns down, the initialize handshake, session and
//! protocol-version headers, JSON and event-stream answers (any chunking, notifications and
//! priming events skipped, batches searched), pagination, tool naming, session expiry, close.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::mcp_common;

use mcp_common::*;
use std::rc::Rc;
use toolnexus::core::mcp::Status;
use toolnexus::{core::json::value::Value, json};

#[test]
fn initialize_then_initialized_then_list_with_the_session_headers() {
    for mode in [Mode::Json, Mode::Events] {
        let fake = FakeMcp::new(mode);
        let (source, _) = load_with(vec![("main", fake.clone())], &[]);
        assert_eq!(source.servers[0].status, Status::Connected);
        let all = fake.seen.borrow().clone();
        let methods: Vec<String> = all.iter().map(|s| s.rpc_method()).collect();
        assert_eq!(
            methods,
            [
                "server/discover",
                "initialize",
                "notifications/initialized",
                "tools/list"
            ]
        );
        // The 2026-07-28 probe, which this legacy server answers "method not found".
        let probe = &all[0];
        assert_eq!(
            probe.header("mcp-protocol-version").as_deref(),
            Some("2026-07-28")
        );
        assert_eq!(
            probe.header("mcp-method").as_deref(),
            Some("server/discover")
        );
        assert_eq!(
            probe.body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        let seen = &all[1..];
        assert!(seen.iter().all(|s| s.header("mcp-method").is_none()));
        let init = &seen[0];
        assert_eq!(
            init.body["params"],
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "toolnexus-wasm", "version": env!("CARGO_PKG_VERSION")}
            })
        );
        assert_eq!(init.body["jsonrpc"], "2.0");
        assert_eq!(
            init.header("accept").as_deref(),
            Some("application/json, text/event-stream")
        );
        assert_eq!(
            init.header("content-type").as_deref(),
            Some("application/json")
        );
        assert_eq!(init.header("mcp-session-id"), None);
        assert_eq!(init.header("mcp-protocol-version"), None);
        for later in &seen[1..] {
            assert_eq!(later.header("mcp-session-id").as_deref(), Some("sess-1"));
            assert_eq!(
                later.header("mcp-protocol-version").as_deref(),
                Some("2025-11-25")
            );
        }
        assert_eq!(
            seen[1].body,
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        );
        assert_eq!(seen[2].body["params"], json!({}));
    }
}

#[test]
fn tools_are_named_server_tool_and_their_schemas_closed() {
    let (source, clock) = load_with(vec![("my server.v2", FakeMcp::new(Mode::Events))], &[]);
    assert_eq!(
        names(&source),
        ["my_server_v2_echo", "my_server_v2_get_weather"]
    );
    let echo = source.tools[0].spec();
    assert_eq!(echo.source, "mcp");
    assert_eq!(echo.description, "Echoes");
    assert_eq!(
        echo.input_schema,
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"], "additionalProperties": false})
    );
    assert_eq!(
        source.tools[1].spec().input_schema,
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
    assert_eq!(source.tools[1].spec().description, "");
    let result = call(&clock, &source, "my_server_v2_get_weather", json!({}));
    assert_eq!(result.output, "called get.weather with {}");
    assert_eq!(result.metadata.unwrap()["server"], "my server.v2");
}

#[test]
fn any_chunking_of_an_event_stream_gives_the_same_answer() {
    for chunk in [1, 2, 3, 5, 64, 4096] {
        let fake = FakeMcp::new(Mode::Events);
        let fake = Rc::new(FakeMcp {
            chunk,
            ..Rc::try_unwrap(fake).ok().unwrap()
        });
        let (source, clock) = load_with(vec![("s", fake)], &[]);
        let r = call(&clock, &source, "s_echo", json!({"text": "héllo ✓"}));
        assert_eq!(
            r.output, r#"called echo with {"text":"héllo ✓"}"#,
            "chunk {chunk}"
        );
    }
}

#[test]
fn without_response_headers_the_body_tells_json_from_events() {
    for mode in [Mode::Json, Mode::Events] {
        let fake = Rc::new(FakeMcp {
            headers: false,
            session: None,
            ..Rc::try_unwrap(FakeMcp::new(mode)).ok().unwrap()
        });
        let (source, clock) = load_with(vec![("s", fake.clone())], &[]);
        assert_eq!(source.servers[0].status, Status::Connected);
        assert_eq!(
            call(&clock, &source, "s_echo", json!({"text": "x"})).output,
            r#"called echo with {"text":"x"}"#
        );
        assert!(fake
            .seen
            .borrow()
            .iter()
            .all(|s| s.header("mcp-session-id").is_none()));
    }
}

#[test]
fn pagination_follows_next_cursor_to_the_end() {
    let fake = FakeMcp::new(Mode::Json);
    *fake.tools.borrow_mut() = (0..25)
        .map(|i| json!({"name": format!("t{i:02}")}))
        .collect();
    let fake = Rc::new(FakeMcp {
        page_size: 4,
        ..Rc::try_unwrap(fake).ok().unwrap()
    });
    let (source, _) = load_with(vec![("p", fake.clone())], &[]);
    assert_eq!(source.tools.len(), 25);
    assert_eq!(names(&source)[24], "p_t24");
    let cursors: Vec<Value> = fake
        .seen_rpc("tools/list")
        .iter()
        .map(|s| s.body["params"].clone())
        .collect();
    assert_eq!(cursors.len(), 7);
    assert_eq!(cursors[0], json!({}));
    assert_eq!(cursors[1], json!({"cursor": "4"}));
    assert_eq!(cursors[6], json!({"cursor": "24"}));
}

#[test]
fn a_repeated_cursor_fails_the_server() {
    let fake = FakeMcp::new(Mode::Json).with(
        "tools/list",
        Reply::Result(json!({"tools": [{"name": "a"}], "nextCursor": "same"})),
    );
    let (source, _) = load_with(vec![("loop", fake)], &[]);
    assert_eq!(source.servers[0].status, Status::Failed);
    assert_eq!(
        source.servers[0].error.as_deref(),
        Some("MCP list returned duplicate cursor: same")
    );
}

#[test]
fn a_server_without_the_tools_capability_has_no_tools() {
    let init =
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "x"}});
    let fake = FakeMcp::new(Mode::Json).with("initialize", Reply::Result(init));
    let (source, _) = load_with(vec![("bare", fake.clone())], &[]);
    assert_eq!(source.servers[0].status, Status::Connected);
    assert!(source.tools.is_empty());
    assert!(fake.seen_rpc("tools/list").is_empty());
    assert_eq!(
        fake.seen_rpc("notifications/initialized")[0]
            .header("mcp-protocol-version")
            .as_deref(),
        Some("2025-06-18")
    );
}

#[test]
fn close_deletes_the_session_with_its_headers() {
    let fake = FakeMcp::new(Mode::Events);
    let (source, clock) = load_with(vec![("s", fake.clone())], &[]);
    run(&clock, source.close());
    let deletes = fake.seen_rpc("DELETE");
    assert_eq!(deletes.len(), 1);
    assert_eq!(
        deletes[0].header("mcp-session-id").as_deref(),
        Some("sess-1")
    );
    assert_eq!(
        deletes[0].header("mcp-protocol-version").as_deref(),
        Some("2025-11-25")
    );
    assert_eq!(deletes[0].body, Value::Null);
    run(&clock, source.close());
    assert_eq!(
        fake.seen_rpc("DELETE").len(),
        1,
        "a second close sends nothing"
    );

    let sessionless = Rc::new(FakeMcp {
        session: None,
        ..Rc::try_unwrap(FakeMcp::new(Mode::Json)).ok().unwrap()
    });
    let (source, clock) = load_with(vec![("s", sessionless.clone())], &[]);
    run(&clock, source.close());
    assert!(sessionless.seen_rpc("DELETE").is_empty());
}

#[test]
fn a_forgotten_session_is_initialized_again_and_the_call_retried_once() {
    let fake = FakeMcp::new(Mode::Json);
    let (source, clock) = load_with(vec![("s", fake.clone())], &[]);
    fake.expire_next_call.set(true);
    let r = call(&clock, &source, "s_echo", json!({"text": "again"}));
    assert_eq!(r.output, r#"called echo with {"text":"again"}"#);
    let methods: Vec<String> = fake.seen.borrow().iter().map(|s| s.rpc_method()).collect();
    // After the probe and the handshake; the era is known, so no second probe.
    assert_eq!(
        &methods[4..],
        [
            "tools/call",
            "initialize",
            "notifications/initialized",
            "tools/call"
        ]
    );
    assert_eq!(
        fake.seen.borrow()[5].header("mcp-session-id"),
        None,
        "the new initialize has no old session"
    );
}

#[test]
fn a_json_batch_answer_is_searched_for_our_id() {
    let fake = FakeMcp::new(Mode::Json).with("tools/call:echo", Reply::Raw(200, "application/json",
        r#"[{"jsonrpc":"2.0","method":"notifications/message","params":{}},{"jsonrpc":"2.0","id":99,"result":{}},{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"mine"}]}}]"#));
    let (source, clock) = load_with(vec![("s", fake)], &[]);
    assert_eq!(
        call(&clock, &source, "s_echo", json!({"text": "x"})).output,
        "mine"
    );
}

#[test]
fn a_server_that_answers_initialize_with_2026_07_28_is_spoken_to_statelessly() {
    // Its server/discover is "method not found", but its initialize names the stateless version.
    let fake = Rc::new(FakeMcp {
        version: "2026-07-28",
        ..Rc::try_unwrap(FakeMcp::new(Mode::Json)).ok().unwrap()
    });
    let (source, clock) = load_with(vec![("m", fake.clone())], &[]);
    assert_eq!(source.servers[0].status, Status::Connected);
    let r = call(&clock, &source, "m_echo", json!({"text": "hi"}));
    assert_eq!(r.output, r#"called echo with {"text":"hi"}"#);
    let seen = fake.seen.borrow().clone();
    let methods: Vec<String> = seen.iter().map(|s| s.rpc_method()).collect();
    assert_eq!(
        methods,
        ["server/discover", "initialize", "tools/list", "tools/call"]
    );
    for later in &seen[2..] {
        assert_eq!(later.header("mcp-session-id"), None);
        assert_eq!(
            later.header("mcp-protocol-version").as_deref(),
            Some("2026-07-28")
        );
        assert_eq!(later.header("mcp-method"), Some(later.rpc_method()));
        assert_eq!(
            later.body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
    }
    assert_eq!(seen[3].header("mcp-name").as_deref(), Some("echo"));
    run(&clock, source.close());
    assert!(fake.seen_rpc("DELETE").is_empty(), "no session to end");
}
