//! Toolkit assembly, routing and the checks before a tool runs (SPEC §4, §4A toggle).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::*;
use futures_executor::block_on;
use futures_util::future::{select, Either};
use std::rc::Rc;
use toolnexus::core::host::Signal;
use toolnexus::core::tool::Context;
use toolnexus::core::toolkit::{Sources, Toolkit};
use toolnexus::core::types::ToolResult;
use toolnexus::{core::json::value::Value, json};

fn builtin_set() -> Vec<toolnexus::core::tool::SharedTool> {
    ["bash", "read", "write"]
        .iter()
        .map(|n| shared(&echo(n, "builtin")))
        .collect()
}

#[test]
fn assembles_mcp_skill_builtin_agents_extras_in_order() {
    let sources = Sources {
        mcp: vec![shared(&echo("srv_a", "mcp"))],
        skill: Some(shared(&echo("skill", "skill"))),
        builtins: builtin_set(),
        agents: vec![shared(&echo("agent_x", "a2a"))],
        extras: vec![shared(&echo("mine", "native"))],
        ..Sources::default()
    };
    let (kit, warnings) = Toolkit::assemble(sources);
    assert_eq!(
        names(&kit.tools()),
        ["srv_a", "skill", "bash", "read", "write", "agent_x", "mine"]
    );
    assert!(warnings.is_empty());
}

#[test]
fn an_extra_tool_shadows_a_builtin_of_the_same_name() {
    let mine = echo("bash", "native");
    let sources = Sources {
        builtins: builtin_set(),
        extras: vec![shared(&mine)],
        ..Sources::default()
    };
    let (kit, warnings) = Toolkit::assemble(sources);
    assert_eq!(names(&kit.tools()), ["read", "write", "bash"]);
    assert_eq!(kit.get("bash").unwrap().spec().source, "native");
    assert!(warnings.is_empty(), "shadowing is not a duplicate");
}

#[test]
fn first_name_wins_across_sources_with_a_warning() {
    let sources = Sources {
        mcp: vec![shared(&echo("dup", "mcp"))],
        skill: Some(shared(&echo("dup", "skill"))),
        extras: vec![shared(&echo("dup", "native"))],
        ..Sources::default()
    };
    let (kit, warnings) = Toolkit::assemble(sources);
    assert_eq!(names(&kit.tools()), ["dup"]);
    assert_eq!(kit.get("dup").unwrap().spec().source, "mcp");
    assert_eq!(
        warnings,
        [
            "duplicate tool name \"dup\" — keeping first",
            "duplicate tool name \"dup\" — keeping first"
        ]
    );
}

#[test]
fn disable_tools_drops_final_names_from_every_source() {
    let sources = Sources {
        mcp: vec![shared(&echo("srv_a", "mcp"))],
        builtins: builtin_set(),
        extras: vec![shared(&echo("mine", "native"))],
        disable_tools: vec!["srv_a".into(), "read".into(), "mine".into()],
        ..Sources::default()
    };
    let (kit, _) = Toolkit::assemble(sources);
    assert_eq!(names(&kit.tools()), ["bash", "write"]);
}

fn with_builtins(config: Value) -> Vec<String> {
    let sources = Sources {
        builtins: builtin_set(),
        builtins_config: Some(config),
        ..Sources::default()
    };
    names(&Toolkit::assemble(sources).0.tools())
}

#[test]
fn builtins_toggle_whole_source_and_per_tool() {
    let all = ["bash", "read", "write"];
    assert_eq!(with_builtins(json!(true)), all);
    assert_eq!(with_builtins(json!({})), all);
    assert!(with_builtins(json!(false)).is_empty());
    assert!(with_builtins(json!({"disabled": true})).is_empty());
    assert!(with_builtins(json!({"enabled": false})).is_empty());
    assert!(with_builtins(json!({"enabled": true, "disabled": true})).is_empty());
    assert_eq!(with_builtins(json!({"disabled": false})), all);
    assert_eq!(
        with_builtins(json!({"tools": {"bash": false, "nope": false}})),
        ["read", "write"]
    );
    assert_eq!(with_builtins(json!({"tools": {"bash": true}})), all);
    // Whole-source off short-circuits the map.
    assert!(with_builtins(json!({"enabled": false, "tools": {"bash": true}})).is_empty());
}

#[test]
fn register_keeps_first_and_reports_the_duplicate() {
    let kit = Toolkit::default();
    kit.register(shared(&echo("a", "native"))).unwrap();
    let err = kit.register(shared(&echo("a", "http"))).unwrap_err();
    assert!(err.contains("\"a\""));
    assert_eq!(kit.get("a").unwrap().spec().source, "native");
}

#[test]
fn unknown_tool_names_what_exists() {
    let kit = Toolkit::default();
    let out = block_on(kit.execute("x", json!({}), Context::default()));
    assert_eq!(
        out,
        ToolResult::error("Unknown tool: x. Available tools: none")
    );
    kit.register(shared(&echo("a", "native"))).unwrap();
    kit.register(shared(&echo("b", "native"))).unwrap();
    let out = block_on(kit.execute("x", json!({}), Context::default()));
    assert_eq!(out.output, "Unknown tool: x. Available tools: a, b");
}

fn strict_tool() -> Rc<FakeTool> {
    let schema = json!({
        "type": "object",
        "properties": {"city": {"type": "string"}, "unit": {"enum": ["c", "f"]}},
        "required": ["city"]
    });
    tool_with("weather", "native", schema, Behaviour::Echo)
}

#[test]
fn invalid_arguments_never_reach_the_tool() {
    let tool = strict_tool();
    let kit = Toolkit::default();
    kit.register(shared(&tool)).unwrap();
    let run = |args: Value| block_on(kit.execute("weather", args, Context::default()));
    let out = run(json!({"unit": "k"}));
    assert!(out.is_error);
    assert_eq!(
        out.output,
        "Invalid arguments for tool \"weather\": required property \"city\" is missing; unit: must be one of \"c\", \"f\""
    );
    let out = run(json!("Paris"));
    assert_eq!(
        out.output,
        "Invalid arguments for tool \"weather\": arguments must be a JSON object, got string"
    );
    assert_eq!(run(json!([1])).output.rsplit(' ').next(), Some("array"));
    assert_eq!(tool.calls.get(), 0, "the tool never ran");
    let out = run(json!({"city": "Paris"}));
    assert_eq!(out, ToolResult::ok(r#"{"city":"Paris"}"#));
    assert_eq!(tool.calls.get(), 1);
}

#[test]
fn null_arguments_count_as_an_empty_object() {
    let tool = echo("e", "native");
    let kit = Toolkit::default();
    kit.register(shared(&tool)).unwrap();
    let out = block_on(kit.execute("e", Value::Null, Context::default()));
    assert_eq!(out, ToolResult::ok("{}"));
}

#[test]
fn execute_ref_checks_and_routes_exactly_as_execute_does() {
    let tool = strict_tool();
    let kit = Toolkit::default();
    kit.register(shared(&tool)).unwrap();
    kit.register(shared(&echo("e", "native"))).unwrap();
    let cases = [
        ("weather", json!({"unit": "k"})),
        ("weather", json!("Paris")),
        ("weather", json!([1])),
        ("weather", json!({"city": "Paris", "unit": "c"})),
        ("weather", Value::Null),
        ("e", Value::Null),
        ("e", json!({"a": [1, {"b": null}]})),
        ("nope", json!({})),
    ];
    for (name, args) in cases {
        let by_value = block_on(kit.execute(name, args.clone(), Context::default()));
        let by_ref = block_on(kit.execute_ref(name, &args, Context::default()));
        assert_eq!(by_ref, by_value, "{name} {args}");
    }
    assert_eq!(
        tool.calls.get(),
        2,
        "only the valid call ran, once each way"
    );
}

fn hanging_kit(clock: Option<Rc<dyn toolnexus::core::host::Clock>>) -> (Toolkit, Rc<FakeTool>) {
    let tool = tool_with(
        "slow",
        "native",
        json!({"type": "object"}),
        Behaviour::Hangs,
    );
    let mut kit = Toolkit::default();
    kit.register(shared(&tool)).unwrap();
    if let Some(clock) = clock {
        kit.set_clock(clock);
    }
    (kit, tool)
}

#[test]
fn an_abort_ends_a_tool_that_never_settles() {
    let (kit, tool) = hanging_kit(None);
    let flag = Rc::new(ManualSignal::default());
    let signal: Signal = Rc::new(SignalHandle(flag.clone()));
    let ctx = Context {
        signal: Some(signal),
        ..Context::default()
    };
    let call = kit.execute("slow", json!({}), ctx);
    let fire = Box::pin(async move { flag.fire() });
    let out = block_on(async move {
        match select(call, fire).await {
            Either::Left((out, _)) => out,
            Either::Right((_, call)) => call.await,
        }
    });
    assert_eq!(
        out,
        ToolResult::error("Tool \"slow\" was aborted: stopped by test")
    );
    assert!(tool.last_ctx_had_signal.get(), "the tool saw ctx.signal");
}

#[test]
fn an_aborted_signal_never_runs_the_tool() {
    let (kit, tool) = hanging_kit(None);
    let flag = Rc::new(ManualSignal::default());
    flag.fire();
    let ctx = Context {
        signal: Some(Rc::new(SignalHandle(flag))),
        ..Context::default()
    };
    let out = block_on(kit.execute("slow", json!({}), ctx));
    assert!(out.is_error && out.output.contains("aborted"));
    assert_eq!(tool.calls.get(), 0);
}

#[test]
fn a_timeout_ends_a_tool_that_never_settles() {
    let (kit, _) = hanging_kit(Some(Rc::new(InstantClock)));
    let ctx = Context {
        timeout_ms: Some(250.0),
        ..Context::default()
    };
    let out = block_on(kit.execute("slow", json!({}), ctx));
    assert_eq!(
        out,
        ToolResult::error("Tool \"slow\" timed out after 250 ms")
    );
}

#[test]
fn a_fast_tool_beats_its_timeout() {
    let tool = echo("fast", "native");
    let mut kit = Toolkit::default();
    kit.register(shared(&tool)).unwrap();
    kit.set_clock(Rc::new(FrozenClock));
    let ctx = Context {
        timeout_ms: Some(10.0),
        ..Context::default()
    };
    let out = block_on(kit.execute("fast", json!({"a": 1}), ctx));
    assert_eq!(out, ToolResult::ok(r#"{"a":1}"#));
}

#[test]
fn replace_swaps_a_servers_tools_in_place_skipping_disabled_and_taken_names() {
    let old = vec![shared(&echo("srv_a", "mcp")), shared(&echo("srv_b", "mcp"))];
    let sources = Sources {
        mcp: old.clone(),
        extras: vec![shared(&echo("mine", "native"))],
        disable_tools: vec!["srv_off".into()],
        ..Sources::default()
    };
    let (kit, _) = Toolkit::assemble(sources);
    let before = kit.tool_list("openai", |specs| format!("{}", specs.len()));
    let new = ["srv_b", "srv_c", "srv_off", "mine"]
        .map(|n| shared(&echo(n, "mcp")))
        .to_vec();
    let warnings = kit.replace(&old, new);
    assert_eq!(names(&kit.tools()), ["srv_b", "srv_c", "mine"]);
    assert_eq!(warnings, ["duplicate tool name \"mine\" — keeping first"]);
    assert!(kit.get("srv_a").is_none() && kit.get("srv_c").is_some());
    assert_eq!(kit.get("mine").unwrap().spec().source, "native");
    let after = kit.tool_list("openai", |specs| format!("{}", specs.len()));
    assert_eq!(
        (before.text(), after.text()),
        ("3", "3"),
        "the cached list was rebuilt"
    );
    assert!(!Rc::ptr_eq(&before, &after));
}
