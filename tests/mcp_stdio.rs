//! Local servers over a scripted child's stdio: the spawn spec, one message per line,
//! concurrent requests answered out of order and routed by id, unreadable lines skipped, a
//! server request answered in the middle of a call, a process that ends, a runtime without a
//! process API, redaction of the server's environment, and close.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::mcp_common;

use mcp_common::stdio::FakeProcess;
use mcp_common::*;
use std::rc::Rc;
use toolnexus::core::mcp::config::parse_config;
use toolnexus::core::mcp::{load, McpHost, McpSource, Status};
use toolnexus::core::tool::Context;
use toolnexus::json;

fn load_local(
    config: toolnexus::core::json::value::Value,
    host: McpHost,
    clock: &Rc<VirtualClock>,
) -> McpSource {
    let entries = parse_config(&json!({"mcpServers": config})).unwrap();
    run(clock, async move { load(&entries, &host).await })
}

fn local_host(clock: &Rc<VirtualClock>) -> (McpHost, Rc<FakeProcess>) {
    let process = Rc::new(FakeProcess::default());
    (
        with_process(host(None, clock.clone()), process.clone()),
        process,
    )
}

#[test]
fn the_child_is_spawned_as_configured_and_spoken_to_line_by_line() {
    let clock = VirtualClock::new();
    let (host, process) = local_host(&clock);
    let source = load_local(
        json!({"fs": {"command": ["node", "srv.js"], "args": ["--x"], "environment": {"K": "v"}, "cwd": "/w"}}),
        host,
        &clock,
    );
    assert_eq!(
        source.servers[0].status,
        Status::Connected,
        "{:?}",
        source.servers[0].error
    );
    let names: Vec<String> = source.tools.iter().map(|t| t.spec().name.clone()).collect();
    assert_eq!(names, ["fs_hold", "fs_release", "fs_ask", "fs_crash"]);
    let (spec, state) = process.spawned.borrow()[0].clone();
    assert_eq!(
        (spec.command.as_str(), spec.args.clone()),
        ("node", vec!["srv.js".to_string(), "--x".into()])
    );
    assert_eq!(
        (spec.env.clone(), spec.cwd.clone()),
        (
            vec![("K".to_string(), "v".to_string())],
            Some("/w".to_string())
        )
    );
    let methods: Vec<String> = state
        .written
        .borrow()
        .iter()
        .map(|m| m["method"].as_str().unwrap_or("").to_owned())
        .collect();
    assert_eq!(
        methods,
        ["initialize", "notifications/initialized", "tools/list"]
    );
    run(&clock, source.close());
    assert!(state.killed.get());
}

#[test]
fn concurrent_calls_get_their_own_responses_even_out_of_order() {
    let clock = VirtualClock::new();
    let (host, _) = local_host(&clock);
    let source = load_local(json!({"s": {"command": "srv"}}), host, &clock);
    let (hold, release) = (source.tools[0].clone(), source.tools[1].clone());
    let (held, released) = run(&clock, async move {
        futures_util::future::join(
            hold.execute(json!({}), Context::default()),
            release.execute(json!({}), Context::default()),
        )
        .await
    });
    assert_eq!(
        (held.output.as_str(), released.output.as_str()),
        ("held", "released")
    );
}

#[test]
fn a_server_request_is_answered_in_the_middle_of_a_call() {
    let clock = VirtualClock::new();
    let (host, process) = local_host(&clock);
    let wait_for = ScriptedWaitFor::new(|_| Ok(json!({"ok": false, "reason": "declined"})));
    let host = with_wait_for(host, wait_for.clone());
    let source = load_local(json!({"s": {"command": "srv"}}), host, &clock);
    let ask = source.tools[2].clone();
    let r = run(&clock, ask.execute(json!({}), Context::default()));
    assert_eq!(r.output, "answered decline");
    assert_eq!(wait_for.seen.borrow()[0].prompt, "Name?");
    let state = process.spawned.borrow()[0].1.clone();
    let reply = state
        .written
        .borrow()
        .iter()
        .find(|m| m["id"] == json!(99))
        .cloned()
        .unwrap();
    assert_eq!(
        reply,
        json!({"jsonrpc": "2.0", "id": 99, "result": {"action": "decline"}})
    );
}

#[test]
fn a_process_that_ends_fails_its_calls_with_the_reason() {
    let clock = VirtualClock::new();
    let (host, _) = local_host(&clock);
    let source = load_local(json!({"s": {"command": "srv"}}), host, &clock);
    let (crash, hold) = (source.tools[3].clone(), source.tools[0].clone());
    let r = run(&clock, crash.execute(json!({}), Context::default()));
    assert_eq!(
        (r.output.as_str(), r.is_error),
        ("the server process ended: exited with code 1: boom", true)
    );
    let later = run(&clock, hold.execute(json!({}), Context::default()));
    assert_eq!(
        later.output,
        "the server process ended: exited with code 1: boom"
    );
}

#[test]
fn without_a_process_api_or_a_program_the_server_fails_with_why() {
    let clock = VirtualClock::new();
    let browser = host(None, clock.clone());
    let source = load_local(
        json!({"fs": {"command": "srv"}, "off": {"command": "srv", "enabled": false}}),
        browser,
        &clock,
    );
    assert_eq!(
        source.servers[0].error.as_deref(),
        Some("no process API in this test")
    );
    assert_eq!(source.servers[1].status, Status::Disabled);
    let (host, _) = local_host(&clock);
    let source = load_local(json!({"gone": {"command": "missing"}}), host, &clock);
    assert_eq!(
        source.servers[0].error.as_deref(),
        Some("spawn missing ENOENT")
    );
}

#[test]
fn a_hanging_child_is_given_up_at_its_timeout_and_killed() {
    let clock = VirtualClock::new();
    struct Silent;
    impl toolnexus::core::mcp::process::Process for Silent {
        fn spawn(
            &self,
            _: &toolnexus::core::mcp::process::SpawnSpec,
        ) -> Result<Box<dyn toolnexus::core::mcp::process::Child>, String> {
            let state = Rc::new(mcp_common::stdio::ChildState::default());
            Ok(Box::new(Mute(mcp_common::stdio::FakeChild(state))))
        }
    }
    /// Swallows every message: never answers.
    struct Mute(mcp_common::stdio::FakeChild);
    impl toolnexus::core::mcp::process::Child for Mute {
        fn write(
            &self,
            _: &str,
        ) -> toolnexus::core::host::LocalBoxFuture<'static, Result<(), String>> {
            Box::pin(async { Ok(()) })
        }
        fn next_line(&self) -> toolnexus::core::host::LocalBoxFuture<'static, Option<String>> {
            self.0.next_line()
        }
        fn exit_reason(&self) -> Option<String> {
            self.0.exit_reason()
        }
        fn kill(&self) {
            self.0.kill()
        }
    }
    let host = with_process(host(None, clock.clone()), Rc::new(Silent));
    let source = load_local(
        json!({"mute": {"command": "srv", "timeout": 700}}),
        host,
        &clock,
    );
    assert_eq!(
        source.servers[0].error.as_deref(),
        Some("timed out after 700 ms during initialize")
    );
    assert_eq!(clock.now(), 700.0);
}

#[test]
fn progress_over_stdio_gives_a_waiting_call_its_timeout_again() {
    use toolnexus::core::host::Clock;
    let clock = VirtualClock::new();
    let (host, process) = local_host(&clock);
    let source = load_local(
        json!({"local": {"command": "srv", "timeout": 1000}}),
        host,
        &clock,
    );
    let state = process.spawned.borrow()[0].1.clone();
    let hold = source
        .tools
        .iter()
        .find(|t| t.spec().name == "local_hold")
        .unwrap()
        .clone();
    let release = source
        .tools
        .iter()
        .find(|t| t.spec().name == "local_release")
        .unwrap()
        .clone();
    let timer = clock.clone();
    let (held, released) = run(&clock, async move {
        let call = hold.execute(json!({}), Context::default());
        let driver = async {
            let token =
                state.written.borrow().last().unwrap()["params"]["_meta"]["progressToken"].clone();
            for _ in 0..3 {
                timer.sleep(700.0).await;
                state.emit(json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 1}}));
            }
            timer.sleep(700.0).await;
            release.execute(json!({}), Context::default()).await
        };
        futures_util::future::join(call, driver).await
    });
    assert_eq!((held.output.as_str(), held.is_error), ("held", false));
    assert_eq!(released.output, "released");
    assert_eq!(
        clock.now(),
        2800.0,
        "past the 1000 ms timeout, thanks to progress"
    );
}
