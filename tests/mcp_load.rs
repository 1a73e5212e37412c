//! Loading many servers through the scripted transport: every kind of broken server isolated
//! with its reason, header `${ENV}` expansion never leaking into a reason, call-result mapping,
//! the per-server filter and `disableTools`, the inventory, and a runtime without fetch.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::mcp_common;

use mcp_common::*;
use std::rc::Rc;
use toolnexus::core::mcp::{inventory, load, Status};
use toolnexus::core::toolkit::{Sources, Toolkit};
use toolnexus::json;

#[test]
fn every_kind_of_broken_server_is_failed_with_its_reason_and_the_others_load() {
    let bad_version = json!({"protocolVersion": "1999-01-01", "capabilities": {}});
    let fakes = vec![
        ("ok", FakeMcp::new(Mode::Events)),
        (
            "status",
            FakeMcp::new(Mode::Json).with("initialize", Reply::Raw(500, "text/plain", "boom")),
        ),
        (
            "garbage",
            FakeMcp::new(Mode::Json).with(
                "initialize",
                Reply::Raw(200, "application/json", "not json {"),
            ),
        ),
        (
            "html",
            FakeMcp::new(Mode::Json)
                .with("initialize", Reply::Raw(200, "text/html", "<html></html>")),
        ),
        (
            "rpc",
            FakeMcp::new(Mode::Json).with("initialize", Reply::Error(-32600, "bad init")),
        ),
        (
            "version",
            FakeMcp::new(Mode::Json).with("initialize", Reply::Result(bad_version)),
        ),
        (
            "empty",
            FakeMcp::new(Mode::Events).with(
                "initialize",
                Reply::Raw(200, "text/event-stream", ": nothing\n\n"),
            ),
        ),
        (
            "accepted",
            FakeMcp::new(Mode::Json).with("initialize", Reply::Raw(202, "text/plain", "")),
        ),
        (
            "list",
            FakeMcp::new(Mode::Json).with("tools/list", Reply::Result(json!({"items": []}))),
        ),
        (
            "notify",
            FakeMcp::new(Mode::Json).with(
                "notifications/initialized",
                Reply::Raw(400, "text/plain", "no"),
            ),
        ),
    ];
    let extra = [
        ("off", json!({"enabled": false})),
        ("invalid", json!({"url": 5})),
    ];
    let (source, _) = load_with(fakes, &extra);
    let got: Vec<(String, &str, Option<String>)> = source
        .servers
        .iter()
        .map(|s| (s.name.clone(), s.status.as_str(), s.error.clone()))
        .collect();
    let failed = |name: &str, why: &str| (name.to_owned(), "failed", Some(why.to_owned()));
    assert_eq!(got, vec![
        ("ok".to_owned(), "connected", None),
        failed("status", "HTTP 500: boom"),
        failed("garbage", "the response is not JSON: not json {"),
        failed("html", "unexpected content type \"text/html\": <html></html>"),
        failed("rpc", "MCP error -32600: bad init"),
        failed("version", "the server speaks MCP protocol version 1999-01-01, which this client does not (it speaks 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)"),
        failed("empty", "the event stream ended without answering request 0"),
        failed("accepted", "the server accepted the request without answering it (HTTP 202)"),
        failed("list", "tools/list returned no \"tools\" array"),
        failed("notify", "HTTP 400: no"),
        ("off".to_owned(), "disabled", None),
        failed("invalid", "a remote server needs a \"url\" string"),
    ]);
    assert_eq!(names(&source), ["ok_echo", "ok_get_weather"]);
    assert!(source
        .warnings
        .contains(&"MCP server \"status\" failed: HTTP 500: boom".to_owned()));
}

#[test]
fn a_failed_server_with_a_session_is_sent_a_delete() {
    let fake = FakeMcp::new(Mode::Json).with("tools/list", Reply::Error(-32603, "list broke"));
    let (source, _) = load_with(vec![("s", fake.clone())], &[]);
    assert_eq!(source.servers[0].status, Status::Failed);
    let deletes = fake.seen_rpc("DELETE");
    assert_eq!(deletes.len(), 1);
    assert_eq!(
        deletes[0].header("mcp-session-id").as_deref(),
        Some("sess-1")
    );
}

#[test]
fn header_values_expand_from_the_env_and_never_reach_a_reason() {
    let fake = FakeMcp::new(Mode::Json).with(
        "initialize",
        Reply::Raw(
            401,
            "text/plain",
            "bad token s3cret-value for Bearer s3cret-value",
        ),
    );
    let headers = json!({"headers": {"Authorization": "Bearer ${TOKEN}", "X-Team": "core", "Accept": "text/html"}});
    let (source, _) = load_with(vec![("s", fake.clone())], &[("s", headers)]);
    let init = &fake.seen.borrow()[0];
    assert_eq!(
        init.header("authorization").as_deref(),
        Some("Bearer s3cret-value")
    );
    assert_eq!(init.header("x-team").as_deref(), Some("core"));
    assert_eq!(
        init.header("accept").as_deref(),
        Some("application/json, text/event-stream")
    );
    let reason = source.servers[0].error.clone().unwrap();
    assert_eq!(reason, "HTTP 401: bad token [redacted] for [redacted]");
    assert!(source.warnings.iter().all(|w| !w.contains("s3cret")));
}

#[test]
fn call_results_map_errors_structured_content_and_rpc_errors() {
    let fake = FakeMcp::new(Mode::Events)
        .with("tools/call:echo", Reply::Result(json!({"isError": true, "content": [{"type": "text", "text": "no"}, {"type": "text", "text": " "}, {"type": "text", "text": "way"}]})))
        .with("tools/call:get.weather", Reply::Error(-32602, "Invalid params"));
    let (source, clock) = load_with(vec![("s", fake)], &[]);
    let failed = call(&clock, &source, "s_echo", json!({"text": "x"}));
    assert_eq!(
        (failed.output.as_str(), failed.is_error),
        ("no\n\nway", true)
    );
    let rpc = call(&clock, &source, "s_get_weather", json!({}));
    assert_eq!(
        (rpc.output.as_str(), rpc.is_error),
        ("MCP error -32602: Invalid params", true)
    );
    assert_eq!(rpc.metadata.unwrap()["server"], "s");

    let structured = FakeMcp::new(Mode::Json).with("tools/call:echo", Reply::Result(json!({"content": [{"type": "text", "text": "7"}], "structuredContent": {"sum": 7.0, "ok": true}})));
    let (source, clock) = load_with(vec![("s", structured)], &[]);
    assert_eq!(
        call(&clock, &source, "s_echo", json!({"text": "x"})).output,
        r#"{"sum":7,"ok":true}"#
    );
}

#[test]
fn the_tools_filter_allows_or_drops_by_original_name() {
    let (allow, _) = load_with(
        vec![("s", FakeMcp::new(Mode::Json))],
        &[("s", json!({"tools": {"get.weather": true, "nope": true}}))],
    );
    assert_eq!(names(&allow), ["s_get_weather"]);
    assert_eq!(
        allow.warnings,
        ["server \"s\" tools filter name \"nope\" matched no tool"]
    );
    let (drop, _) = load_with(
        vec![("s", FakeMcp::new(Mode::Json))],
        &[("s", json!({"tools": {"echo": false}}))],
    );
    assert_eq!(names(&drop), ["s_get_weather"]);
    assert_eq!(
        drop.servers[0].listed.len(),
        2,
        "the inventory stays unfiltered"
    );
}

#[test]
fn disable_tools_drops_mcp_tools_by_their_final_name() {
    let (source, _) = load_with(vec![("s", FakeMcp::new(Mode::Json))], &[]);
    let (kit, _) = Toolkit::assemble(Sources {
        mcp: source.tools.clone(),
        disable_tools: vec!["s_echo".into()],
        ..Sources::default()
    });
    let kept: Vec<String> = kit.tools().iter().map(|t| t.spec().name.clone()).collect();
    assert_eq!(kept, ["s_get_weather"]);
}

#[test]
fn the_inventory_lists_unfiltered_and_disconnects() {
    let clock = VirtualClock::new();
    let fake = FakeMcp::new(Mode::Events);
    let entries = remote(&[
        ("s", json!({"tools": {"echo": true}})),
        ("off", json!({"disabled": true})),
    ]);
    let host = host(
        Some(Rc::new(Router(vec![("s", fake.clone())]))),
        clock.clone(),
    );
    let servers = run(&clock, async move { inventory(&entries, &host).await });
    assert_eq!(servers[0].status, Status::Connected);
    let listed: Vec<&str> = servers[0]
        .listed
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["echo", "get.weather"]);
    assert_eq!(servers[1].status, Status::Disabled);
    assert_eq!(fake.seen_rpc("DELETE").len(), 1);
}

#[test]
fn no_fetch_fails_remote_servers_with_the_reason() {
    let clock = VirtualClock::new();
    let entries = remote(&[("s", json!({}))]);
    let host = host(None, clock.clone());
    let source = run(&clock, async move { load(&entries, &host).await });
    assert_eq!(
        source.servers[0].error.as_deref(),
        Some("this runtime has no fetch for remote servers")
    );
}
