//! Scenario 1 of the bench (one question, two parallel tool calls, then the answer) run
//! entirely inside the core: a transport that hands back the bench endpoint's bytes, tools that
//! answer at once, a clock that never fires. Built only with the `bench-core` feature, for
//! `benches/core_loop.rs` (natively) and `__benchCoreLoop` (the same loop inside wasm), so the
//! core's own cost can be told apart from the JS boundary's.
//!
//! ```
//! # use toolnexus::core::bench_loop::Scenario;
//! let scenario = Scenario::new().unwrap();
//! scenario.run_once().unwrap();
//! ```

use crate::core::json::value::Value;
use std::cell::Cell;
use std::rc::Rc;
use std::task::{Context as TaskContext, Poll, Waker};

use crate::core::client::config::{ClientConfig, Style};
use crate::core::client::hooks::NoHooks;
use crate::core::client::run::{Client, RunInput};
use crate::core::host::{Clock, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture};
use crate::core::spec::ToolSpec;
use crate::core::tool::{Context, Tool};
use crate::core::toolkit::Toolkit;
use crate::core::types::ToolResult;

const TURN_1: &str = r#"{"id":"chatcmpl-bench-0","object":"chat.completion","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_0_0","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"c0_0\"}"}},{"id":"call_0_1","type":"function","function":{"name":"get_time","arguments":"{\"city\":\"c0_1\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":20,"completion_tokens":10,"total_tokens":30}}"#;
const TURN_2: &str = r#"{"id":"chatcmpl-bench-1","object":"chat.completion","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"final answer after 1 tool turns of 2 calls"},"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":10,"total_tokens":30}}"#;

/// The final text every run must end with.
pub const ANSWER: &str = "final answer after 1 tool turns of 2 calls";

/// The prompt of every run (the bench's).
pub const PROMPT: &str = "What are the weather and the local time in these cities? [bench-prompt]";

/// Answers turn 1, then turn 2, alternately.
struct Scripted(Cell<usize>);

impl Http for Scripted {
    fn send(&self, _: &HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
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

/// `<tool>:<city>=<answer>`, at once.
struct CityTool {
    spec: ToolSpec,
    answer: &'static str,
}

impl Tool for CityTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        self.execute_ref(&args, ctx)
    }
    /// Like a JS tool, it only reads its arguments.
    fn execute_ref(&self, args: &Value, _: Context) -> LocalBoxFuture<'static, ToolResult> {
        let city = args.get("city").and_then(Value::as_str).unwrap_or_default();
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

/// A client and toolkit set up for scenario 1.
pub struct Scenario {
    client: Client,
    toolkit: Rc<Toolkit>,
}

impl Scenario {
    /// The client (OpenAI style, no hooks, no key) and the bench's two tools.
    pub fn new() -> Result<Self, String> {
        let schema = crate::json_value!({
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
            let spec = ToolSpec::new(name, description, schema.clone(), "native")
                .map_err(|e| e.to_string())?;
            toolkit.register(Rc::new(CityTool { spec, answer }))?;
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
            requests: Default::default(),
        };
        Ok(Scenario { client, toolkit })
    }

    /// One run to its end; an error when it did not finish at once or ended otherwise than
    /// with the scripted answer after two tool calls.
    pub fn run_once(&self) -> Result<(), String> {
        let input = RunInput::new(self.toolkit.clone(), PROMPT.into());
        let mut run = self.client.run(input);
        let result = match run
            .as_mut()
            .poll(&mut TaskContext::from_waker(Waker::noop()))
        {
            Poll::Ready(result) => result.map_err(|e| e.to_string())?,
            Poll::Pending => return Err("the run did not finish at once".into()),
        };
        if result.text != ANSWER || result.tool_call_count != 2 {
            return Err(format!(
                "unexpected end: {:?} after {} tool calls",
                result.text, result.tool_call_count
            ));
        }
        Ok(())
    }
}
