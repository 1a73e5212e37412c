//! Loading scripted servers on a virtual clock, and calling their tools.

use std::rc::Rc;
use toolnexus::{core::json::value::Value, json};

use super::{host, remote, run, FakeMcp, Router, VirtualClock};
use toolnexus::core::mcp::{load, McpSource};
use toolnexus::core::tool::Context;

pub fn load_with(
    fakes: Vec<(&'static str, Rc<FakeMcp>)>,
    extra: &[(&str, Value)],
) -> (McpSource, Rc<VirtualClock>) {
    let clock = VirtualClock::new();
    let mut servers: Vec<(&str, Value)> = fakes.iter().map(|(n, _)| (*n, json!({}))).collect();
    for (name, more) in extra {
        match servers.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = more.clone(),
            None => servers.push((name, more.clone())),
        }
    }
    let entries = remote(&servers);
    let host = host(Some(Rc::new(Router(fakes))), clock.clone());
    let source = run(&clock, async move { load(&entries, &host).await });
    (source, clock)
}

pub fn names(source: &McpSource) -> Vec<String> {
    source.tools.iter().map(|t| t.spec().name.clone()).collect()
}

pub fn call(
    clock: &Rc<VirtualClock>,
    source: &McpSource,
    name: &str,
    args: Value,
) -> toolnexus::core::types::ToolResult {
    let tool = source
        .tools
        .iter()
        .find(|t| t.spec().name == name)
        .unwrap()
        .clone();
    run(clock, async move {
        tool.execute(args, Context::default()).await
    })
}
