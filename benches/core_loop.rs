//! The agent loop's own cost, natively: scenario 1 of the bench (one question, two parallel tool
//! calls, then the answer) through the pure core, with a transport that hands back the same
//! bytes as `bench/lib/script.mjs` and tools that answer at once. No JS, no wasm: what is left
//! is the core's parsing, body building, tool dispatch, metrics and result.
//!
//! ```sh
//! cargo bench --bench core_loop                 # µs per run (wall clock: noisy on a shared machine)
//! N=1500 valgrind --tool=callgrind target/release/deps/core_loop-*  # instructions: repeatable
//! ```
//! `N` runs are timed after `W` warm-up runs (defaults 20,000 and 2,000). Every run's final text
//! is checked. Instructions per run = the difference of two callgrind totals (e.g. `N=500` and
//! `N=1500`, with `W=0`) divided by the difference in `N`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use futures_executor::block_on;
use serde_json::{json, Value};
use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

use toolnexus::core::client::config::{ClientConfig, Style};
use toolnexus::core::client::hooks::NoHooks;
use toolnexus::core::client::run::{Client, RunInput};
use toolnexus::core::host::{Clock, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture};
use toolnexus::core::spec::ToolSpec;
use toolnexus::core::tool::{Context, Tool};
use toolnexus::core::toolkit::Toolkit;
use toolnexus::core::types::ToolResult;

const TURN_1: &str = r#"{"id":"chatcmpl-bench-0","object":"chat.completion","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_0_0","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"c0_0\"}"}},{"id":"call_0_1","type":"function","function":{"name":"get_time","arguments":"{\"city\":\"c0_1\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":20,"completion_tokens":10,"total_tokens":30}}"#;
const TURN_2: &str = r#"{"id":"chatcmpl-bench-1","object":"chat.completion","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"final answer after 1 tool turns of 2 calls"},"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":10,"total_tokens":30}}"#;
const ANSWER: &str = "final answer after 1 tool turns of 2 calls";

/// Answers turn 1, then turn 2, alternately.
struct Scripted(Cell<usize>);

impl Http for Scripted {
    fn send(&self, _: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        let n = self.0.get();
        self.0.set(n + 1);
        let body = if n % 2 == 0 { TURN_1 } else { TURN_2 }.to_owned();
        Box::pin(async move {
            Ok(HttpResponse {
                status: 200,
                retry_after: None,
                body,
            })
        })
    }
}

/// `<prefix>:<city>=<suffix>`, at once.
struct CityTool {
    spec: ToolSpec,
    answer: &'static str,
}

impl Tool for CityTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, args: Value, _: Context) -> LocalBoxFuture<'static, ToolResult> {
        let city = args["city"].as_str().unwrap_or_default();
        let out = format!("{}:{city}={}", self.spec.name, self.answer);
        Box::pin(async move { ToolResult::ok(out) })
    }
}

/// Time stands still and no timeout ever fires.
struct Frozen;

impl Clock for Frozen {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn sleep(&self, _: f64) -> LocalBoxFuture<'static, ()> {
        Box::pin(std::future::pending())
    }
}

fn env_or(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let schema = json!({
        "type": "object",
        "properties": {"city": {"type": "string", "description": "City name"}},
        "required": ["city"],
        "additionalProperties": false
    });
    let toolkit = Rc::new(Toolkit::default());
    for (name, description, answer) in [
        ("get_weather", "Current weather for a city", "sunny"),
        ("get_time", "Local time in a city", "12:00"),
    ] {
        let spec = ToolSpec::new(name, description, schema.clone(), "native").unwrap();
        toolkit
            .register(Rc::new(CityTool { spec, answer }))
            .unwrap();
    }
    let config = ClientConfig::new(Style::OpenAi, "http://bench.invalid/v1", "gpt-4o-mini");
    let client = Client {
        dialect: config.style.dialect(),
        config: Rc::new(config),
        http: Rc::new(Scripted(Cell::new(0))),
        hooks: Rc::new(NoHooks),
        wait_for: None,
        clock: Rc::new(Frozen),
        telemetry: Rc::default(),
    };
    let run = || {
        let input = RunInput {
            toolkit: toolkit.clone(),
            prompt: "What are the weather and the local time in these cities? [bench-prompt]"
                .into(),
            history: Vec::new(),
            history_text: None,
            signal: None,
            events: None,
            resume: None,
        };
        let result = block_on(client.run(input)).expect("the run fails");
        assert_eq!(result.text, ANSWER);
        assert_eq!(result.tool_call_count, 2);
    };
    for _ in 0..env_or("W", 2_000) {
        run();
    }
    let n = env_or("N", 20_000).max(1);
    let start = Instant::now();
    for _ in 0..n {
        run();
    }
    let us = start.elapsed().as_secs_f64() * 1e6 / f64::from(n);
    println!("core loop, scenario 1 (k2t1), native: {us:.2} µs per run over {n} runs");
}
