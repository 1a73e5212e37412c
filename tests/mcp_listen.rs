//! `subscriptions/listen` (MCP 2026-07-28) against a scripted server on a virtual clock: a
//! server whose capabilities say it sends `tools/list_changed` is subscribed to, its change
//! notifications re-list and swap the tools; a subscription that breaks off is sent again
//! after the `retry:` delay, one the server ends (a response) or refuses is not, and `close()`
//! stops it. A server that does not send `list_changed` gets no subscription.
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

fn event(message: Value) -> String {
    format!("event: message\ndata: {message}\n\n")
}

fn acknowledged() -> String {
    event(
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
        "_meta": {"io.modelcontextprotocol/subscriptionId": 1}, "notifications": {"toolsListChanged": true}}}),
    )
}

fn list_changed() -> String {
    event(
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {
        "_meta": {"io.modelcontextprotocol/subscriptionId": 1}}}),
    )
}

/// A 2026-07-28 server with these capabilities, answering `subscriptions/listen` with `listen`.
fn modern(capabilities: Value, listen: Reply) -> Rc<FakeMcp> {
    let discovered = json!({"supportedVersions": ["2026-07-28"], "capabilities": capabilities,
        "serverInfo": {"name": "fake", "version": "1"}});
    FakeMcp::new(Mode::Json)
        .with("server/discover", Reply::Result(discovered))
        .with("subscriptions/listen", listen)
}

fn list_changes() -> Value {
    json!({"tools": {"listChanged": true}})
}

/// What one load saw.
struct Seen {
    /// The tool names after each swap.
    swaps: Vec<Vec<String>>,
    /// `s_echo`'s output.
    echo: String,
    /// `subscriptions/listen` requests sent before `close()`.
    listens: usize,
}

/// Loads server `s`, adds a tool on it, waits `ms` (virtual), calls `s_echo`, closes, and
/// waits 10 s more.
fn load_and_wait(fake: &Rc<FakeMcp>, ms: f64) -> Seen {
    let clock = VirtualClock::new();
    *fake.clock.borrow_mut() = Some(clock.clone() as Rc<dyn Clock>);
    let entries = remote(&[("s", json!({}))]);
    let base = host(
        Some(Rc::new(Router(vec![("s", fake.clone())]))),
        clock.clone(),
    );
    let (fake, timer) = (fake.clone(), clock.clone());
    run_spawning(&clock, move |spawn| async move {
        let host = toolnexus::core::mcp::McpHost {
            spawn: Some(spawn),
            ..base
        };
        let source = load(&entries, &host).await;
        let swaps: Rc<RefCell<Vec<Vec<String>>>> = Rc::default();
        let seen = swaps.clone();
        source.on_tools_changed(Rc::new(move |_: &[SharedTool], new: &[SharedTool]| {
            seen.borrow_mut()
                .push(new.iter().map(|t| t.spec().name.clone()).collect());
        }));
        fake.tools
            .borrow_mut()
            .push(json!({"name": "added", "inputSchema": {"type": "object"}}));
        timer.sleep(ms).await;
        let echo = source.tools.iter().find(|t| t.spec().name == "s_echo");
        let echo = echo.unwrap().clone();
        let echo = echo
            .execute(json!({"text": "hi"}), Context::default())
            .await
            .output;
        let listens = fake.seen_rpc("subscriptions/listen").len();
        source.close().await;
        timer.sleep(10_000.0).await;
        let swaps = swaps.borrow().clone();
        Seen {
            swaps,
            echo,
            listens,
        }
    })
}

#[test]
fn a_server_that_sends_list_changed_is_subscribed_to_and_its_tools_swapped() {
    let stream = vec![(0.0, acknowledged()), (100.0, list_changed())];
    let fake = modern(list_changes(), Reply::Timed(stream, true));
    let seen = load_and_wait(&fake, 500.0);
    assert_eq!(
        seen.swaps,
        [["s_echo", "s_get_weather", "s_added"].map(String::from)]
    );
    assert_eq!(seen.echo, r#"called echo with {"text":"hi"}"#);
    assert_eq!(fake.seen_rpc("tools/list").len(), 2, "listed again");
    let listens = fake.seen_rpc("subscriptions/listen");
    assert_eq!(listens.len(), 1);
    let listen = &listens[0];
    assert_eq!(listen.method, "POST");
    assert_eq!(
        listen.body["params"]["notifications"],
        json!({"toolsListChanged": true})
    );
    assert_eq!(
        listen.body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert_eq!(
        listen.header("mcp-method").as_deref(),
        Some("subscriptions/listen")
    );
    assert_eq!(listen.header("mcp-session-id"), None);
    assert!(
        fake.seen_rpc("GET").is_empty(),
        "no GET stream in 2026-07-28"
    );
    assert!(fake.seen_rpc("DELETE").is_empty());
}

#[test]
fn a_subscription_that_breaks_off_is_sent_again_after_retry_until_close() {
    let stream = vec![(0.0, format!("retry: 300\n{}", acknowledged()))];
    let fake = modern(list_changes(), Reply::Timed(stream, false));
    let seen = load_and_wait(&fake, 1_000.0);
    let listens = fake.seen_rpc("subscriptions/listen");
    // At 0, 300, 600 and 900 ms; none after close().
    assert_eq!(seen.listens, 4);
    assert_eq!(listens.len(), 4, "close() stops it");
    let first = &listens[0];
    for (n, later) in listens.iter().enumerate() {
        assert_eq!(later.at - first.at, 300.0 * n as f64);
        assert_eq!(later.body["id"], first.body["id"], "the same subscription");
        assert_eq!(later.header("last-event-id"), None, "not resumable");
    }
}

#[test]
fn a_subscription_the_server_ends_or_refuses_is_not_sent_again() {
    let graceful = event(
        json!({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete",
        "_meta": {"io.modelcontextprotocol/subscriptionId": 1}}}),
    );
    let ended = Reply::Timed(vec![(0.0, acknowledged()), (50.0, graceful)], false);
    let refused = Reply::Error(-32603, "Subscription limit reached");
    let not_found = Reply::Raw(405, "text/plain", "no");
    for listen in [ended, refused, not_found] {
        let fake = modern(list_changes(), listen);
        let seen = load_and_wait(&fake, 5_000.0);
        assert_eq!(seen.echo, r#"called echo with {"text":"hi"}"#);
        assert_eq!(fake.seen_rpc("subscriptions/listen").len(), 1);
        assert!(seen.swaps.is_empty());
    }
}

#[test]
fn a_server_that_does_not_send_list_changed_gets_no_subscription() {
    for capabilities in [
        json!({"tools": {}}),
        json!({"tools": {"listChanged": false}}),
    ] {
        let fake = modern(
            capabilities,
            Reply::Timed(vec![(0.0, list_changed())], true),
        );
        let seen = load_and_wait(&fake, 500.0);
        assert_eq!(seen.echo, r#"called echo with {"text":"hi"}"#);
        assert!(fake.seen_rpc("subscriptions/listen").is_empty());
    }
}
