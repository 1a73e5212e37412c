//! Per-phase budgets on a virtual clock (SPEC §2 per-server load bound): a server that hangs in
//! any phase is `failed` at exactly its timeout while the others load; every phase gets a fresh
//! budget; a hanging tool call ends at the server's timeout (or the call's own) and the
//! caller's signal aborts it.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::common;
use crate::mcp_common;

use mcp_common::*;
use std::rc::Rc;
use toolnexus::core::host::Signal;
use toolnexus::core::mcp::{load, McpSource, Status};
use toolnexus::core::tool::Context;
use toolnexus::core::toolkit::{Sources, Toolkit};
use toolnexus::{core::json::value::Value, json};

fn load_on(
    clock: &Rc<VirtualClock>,
    fakes: Vec<(&'static str, Rc<FakeMcp>)>,
    servers: &[(&str, Value)],
) -> McpSource {
    for (_, fake) in &fakes {
        *fake.clock.borrow_mut() = Some(clock.clone());
    }
    let entries = remote(servers);
    let host = host(Some(Rc::new(Router(fakes))), clock.clone());
    run(clock, async move { load(&entries, &host).await })
}

#[test]
fn a_server_hanging_in_any_phase_fails_at_exactly_its_timeout() {
    let phases = [
        ("initialize", Reply::Hang, "initialize"),
        ("initialize", Reply::StreamThenHang, "initialize"),
        (
            "notifications/initialized",
            Reply::Hang,
            "notifications/initialized",
        ),
        ("tools/list", Reply::Hang, "tools/list"),
        ("tools/list", Reply::StreamThenHang, "tools/list"),
    ];
    for (method, reply, phase) in phases {
        let clock = VirtualClock::new();
        let hung = FakeMcp::new(Mode::Events).with(method, reply);
        let fakes = vec![("hung", hung), ("fine", FakeMcp::new(Mode::Events))];
        let source = load_on(
            &clock,
            fakes,
            &[("hung", json!({"timeout": 500})), ("fine", json!({}))],
        );
        assert_eq!(source.servers[0].status, Status::Failed, "{method}");
        assert_eq!(
            source.servers[0].error.clone().unwrap(),
            format!("timed out after 500 ms during {phase}")
        );
        assert_eq!(
            clock.now(),
            500.0,
            "{method}: given up at the timeout, not later"
        );
        assert_eq!(source.servers[1].status, Status::Connected);
        assert_eq!(source.tools.len(), 2);
    }
}

#[test]
fn the_default_timeout_is_30_seconds() {
    let clock = VirtualClock::new();
    let source = load_on(
        &clock,
        vec![(
            "slow",
            FakeMcp::new(Mode::Json).with("initialize", Reply::Hang),
        )],
        &[("slow", json!({}))],
    );
    assert_eq!(
        source.servers[0].error.as_deref(),
        Some("timed out after 30000 ms during initialize")
    );
    assert_eq!(clock.now(), 30_000.0);
}

#[test]
fn each_phase_gets_a_fresh_budget() {
    let clock = VirtualClock::new();
    let init = json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}});
    let slow = FakeMcp::new(Mode::Events)
        .with(
            "initialize",
            Reply::After(400.0, Box::new(Reply::Result(init))),
        )
        .with(
            "tools/list",
            Reply::After(
                400.0,
                Box::new(Reply::Result(json!({"tools": [{"name": "t"}]}))),
            ),
        );
    let source = load_on(
        &clock,
        vec![("slow", slow)],
        &[("slow", json!({"timeout": 500}))],
    );
    assert_eq!(source.servers[0].status, Status::Connected);
    assert_eq!(clock.now(), 800.0);
}

#[test]
fn a_hanging_call_ends_at_the_server_timeout_or_the_calls_own() {
    let clock = VirtualClock::new();
    let fake = FakeMcp::new(Mode::Events).with("tools/call:echo", Reply::Hang);
    let source = load_on(
        &clock,
        vec![("s", fake)],
        &[("s", json!({"timeout": 2000}))],
    );
    let tool = source.tools[0].clone();
    let start = clock.now();
    let r = run(
        &clock,
        tool.execute(json!({"text": "x"}), Context::default()),
    );
    assert_eq!(
        (r.output.as_str(), r.is_error),
        ("timed out after 2000 ms during tools/call", true)
    );
    assert_eq!(clock.now() - start, 2000.0);
    let ctx = Context {
        timeout_ms: Some(150.0),
        ..Context::default()
    };
    let start = clock.now();
    let r = run(&clock, tool.execute(json!({"text": "x"}), ctx));
    assert_eq!(r.output, "timed out after 150 ms during tools/call");
    assert_eq!(clock.now() - start, 150.0);
}

#[test]
fn a_call_given_up_on_is_cancelled_at_the_server() {
    let clock = VirtualClock::new();
    let fake = FakeMcp::new(Mode::Json).with("tools/call:echo", Reply::Hang);
    let source = load_on(
        &clock,
        vec![("s", fake.clone())],
        &[("s", json!({"timeout": 300}))],
    );
    let tool = source.tools[0].clone();
    run(
        &clock,
        tool.execute(json!({"text": "x"}), Context::default()),
    );
    let call_id = fake.seen_rpc("tools/call")[0].body["id"].clone();
    let cancelled = fake.seen_rpc("notifications/cancelled");
    assert_eq!(cancelled.len(), 1);
    assert_eq!(
        cancelled[0].body["params"],
        json!({"requestId": call_id, "reason": "timed out after 300 ms during tools/call"})
    );
    assert_eq!(
        cancelled[0].header("mcp-session-id").as_deref(),
        Some("sess-1")
    );
}

#[test]
fn the_callers_signal_aborts_a_call_and_reaches_the_request() {
    let clock = VirtualClock::new();
    let fake = FakeMcp::new(Mode::Events).with("tools/call:echo", Reply::Hang);
    let source = load_on(&clock, vec![("s", fake.clone())], &[("s", json!({}))]);
    let manual = Rc::new(common::ManualSignal::default());
    let signal: Signal = Rc::new(common::SignalHandle(manual.clone()));
    let ctx = Context {
        signal: Some(signal),
        ..Context::default()
    };
    let tool = source.tools[0].clone();
    let fire = manual.clone();
    let r = run(&clock, async move {
        let call = tool.execute(json!({"text": "x"}), ctx);
        let stop = async move {
            fire.fire();
        };
        futures_util::future::join(call, stop).await.0
    });
    assert_eq!(
        (r.output.as_str(), r.is_error),
        ("aborted: stopped by test", true)
    );
    assert_eq!(clock.now(), 0.0);
    let seen = fake.seen_rpc("tools/call");
    assert_eq!(seen.len(), 1);
}

#[test]
fn the_toolkit_stays_usable_while_a_call_hangs() {
    let clock = VirtualClock::new();
    let fake = FakeMcp::new(Mode::Events).with("tools/call:echo", Reply::Hang);
    let source = load_on(
        &clock,
        vec![("s", fake)],
        &[("s", json!({"timeout": 1000}))],
    );
    let (kit, _) = Toolkit::assemble(Sources {
        mcp: source.tools.clone(),
        ..Sources::default()
    });
    let kit = Rc::new(kit);
    let (a, b) = (kit.clone(), kit.clone());
    let (hung, quick) = run(&clock, async move {
        futures_util::future::join(
            a.execute("s_echo", json!({"text": "x"}), Context::default()),
            b.execute("s_get_weather", json!({}), Context::default()),
        )
        .await
    });
    assert_eq!(quick.output, "called get.weather with {}");
    assert_eq!(hung.output, "timed out after 1000 ms during tools/call");
}
