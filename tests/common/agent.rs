//! Fakes for the agent loop: recording hooks with scripted returns, `waitFor` resolvers,
//! closure and asking tools, a fixed clock, and a rig that builds and runs a client.

use futures_executor::block_on;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use toolnexus::core::message::Message;
use toolnexus::{core::json::value::Value, json};

use super::http::ScriptedHttp;
use super::{ManualSignal, SignalHandle};
use toolnexus::core::client::config::{ClientConfig, Style};
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::hooks::{
    CallInfo, HookResult, Hooks, LlmOverride, ToolOverride, WaitFor,
};
use toolnexus::core::client::result::RunResult;
use toolnexus::core::client::run::{Client, RunInput};
use toolnexus::core::host::{Cancel, Clock, LocalBoxFuture, Signal};
use toolnexus::core::spec::ToolSpec;
use toolnexus::core::tool::{Context, SharedTool, Tool};
use toolnexus::core::toolkit::Toolkit;
use toolnexus::core::types::{pending, Answer, Request, ToolResult};

// ---------------------------------------------------------------------------------------------
// Hooks

type BeforeLlm = Box<dyn Fn(&[Value], &Value, u32) -> Result<LlmOverride, String>>;
type BeforeTool = Box<dyn Fn(&CallInfo, &Value) -> Result<ToolOverride, String>>;
type AfterTool = Box<dyn Fn(&CallInfo, &Value, &ToolResult) -> Result<Option<ToolResult>, String>>;
type BodyTransform = Box<dyn Fn(Value) -> Result<Value, String>>;

/// One `beforeLLM` call as the hook saw it.
#[derive(Clone, Debug)]
pub struct LlmSeen {
    pub messages: Vec<Value>,
    pub tools: Value,
    pub model: String,
    pub turn: u32,
}

/// One `beforeTool` / `afterTool` call as the hook saw it.
#[derive(Clone, Debug)]
pub struct ToolSeen {
    pub call: CallInfo,
    pub args: Value,
    /// `afterTool` only.
    pub result: Option<ToolResult>,
}

/// Hooks that record every call and answer from optional closures (absent = do nothing).
#[derive(Default)]
pub struct FakeHooks {
    /// Makes `has_before_llm` true even without a closure.
    pub observe_before_llm: bool,
    pub before_llm: Option<BeforeLlm>,
    /// Makes `has_after_llm` true.
    pub observe_after_llm: bool,
    /// `afterLLM` fails with this message.
    pub after_llm_error: Option<String>,
    pub before_tool: Option<BeforeTool>,
    pub after_tool: Option<AfterTool>,
    pub body_transform: Option<BodyTransform>,
    pub before_llm_seen: RefCell<Vec<LlmSeen>>,
    /// `(response, model, turn)`.
    pub after_llm_seen: RefCell<Vec<(Value, String, u32)>>,
    pub before_tool_seen: RefCell<Vec<ToolSeen>>,
    pub after_tool_seen: RefCell<Vec<ToolSeen>>,
    pub body_transform_seen: RefCell<Vec<Value>>,
    /// Every hook call in order: `beforeLLM#0`, `afterTool:name#id`, ….
    pub log: RefCell<Vec<String>>,
}

impl FakeHooks {
    pub fn log(&self) -> Vec<String> {
        self.log.borrow().clone()
    }
}

impl Hooks for FakeHooks {
    fn has_before_llm(&self) -> bool {
        self.observe_before_llm || self.before_llm.is_some()
    }
    fn before_llm(
        &self,
        messages: &[Message],
        tools: &Value,
        model: &str,
        turn: u32,
    ) -> HookResult<LlmOverride> {
        let messages = &toolnexus::core::message::values(messages)[..];
        self.log.borrow_mut().push(format!("beforeLLM#{turn}"));
        self.before_llm_seen.borrow_mut().push(LlmSeen {
            messages: messages.to_vec(),
            tools: tools.clone(),
            model: model.to_owned(),
            turn,
        });
        let out = match &self.before_llm {
            Some(f) => f(messages, tools, turn),
            None => Ok(LlmOverride::default()),
        };
        Box::pin(async move { out })
    }
    fn has_after_llm(&self) -> bool {
        self.observe_after_llm || self.after_llm_error.is_some()
    }
    fn after_llm(&self, response: &Value, model: &str, turn: u32) -> HookResult<()> {
        self.log.borrow_mut().push(format!("afterLLM#{turn}"));
        self.after_llm_seen
            .borrow_mut()
            .push((response.clone(), model.to_owned(), turn));
        let out = match &self.after_llm_error {
            Some(message) => Err(message.clone()),
            None => Ok(()),
        };
        Box::pin(async move { out })
    }
    fn has_before_tool(&self) -> bool {
        true // it records every call
    }
    fn has_after_tool(&self) -> bool {
        true
    }
    fn before_tool(&self, call: &CallInfo, args: &Value) -> HookResult<ToolOverride> {
        self.log
            .borrow_mut()
            .push(format!("beforeTool:{}#{}", call.name, call.id));
        self.before_tool_seen.borrow_mut().push(ToolSeen {
            call: call.clone(),
            args: args.clone(),
            result: None,
        });
        let out = match &self.before_tool {
            Some(f) => f(call, args),
            None => Ok(ToolOverride::default()),
        };
        Box::pin(async move { out })
    }
    fn after_tool(
        &self,
        call: &CallInfo,
        args: &Value,
        result: &ToolResult,
    ) -> HookResult<Option<ToolResult>> {
        self.log
            .borrow_mut()
            .push(format!("afterTool:{}#{}", call.name, call.id));
        self.after_tool_seen.borrow_mut().push(ToolSeen {
            call: call.clone(),
            args: args.clone(),
            result: Some(result.clone()),
        });
        let out = match &self.after_tool {
            Some(f) => f(call, args, result),
            None => Ok(None),
        };
        Box::pin(async move { out })
    }
    fn has_body_transform(&self) -> bool {
        self.body_transform.is_some()
    }
    fn body_transform(&self, body: Value) -> Result<Value, String> {
        self.body_transform_seen.borrow_mut().push(body.clone());
        match &self.body_transform {
            Some(f) => f(body),
            None => Ok(body),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// waitFor

type Resolver = Box<dyn Fn(&Request) -> Result<Value, String>>;

/// A `waitFor` that answers at once from a closure and records every request.
pub struct FnWaitFor {
    resolve: Resolver,
    pub requests: RefCell<Vec<Request>>,
}

impl FnWaitFor {
    pub fn new(f: impl Fn(&Request) -> Result<Value, String> + 'static) -> Rc<Self> {
        Rc::new(FnWaitFor {
            resolve: Box::new(f),
            requests: RefCell::new(Vec::new()),
        })
    }

    /// Always `{id: request.id, ok, data}`.
    pub fn answering(ok: bool, data: Option<Value>) -> Rc<Self> {
        Self::new(move |r| {
            let mut answer = json!({"id": r.id, "ok": ok});
            if let (Some(data), Some(map)) = (&data, answer.as_object_mut()) {
                map.insert("data".into(), data.clone());
            }
            Ok(answer)
        })
    }

    /// Always this raw answer.
    pub fn raw(answer: Result<Value, String>) -> Rc<Self> {
        Self::new(move |_| answer.clone())
    }

    pub fn asked(&self) -> Vec<Request> {
        self.requests.borrow().clone()
    }
}

impl WaitFor for FnWaitFor {
    fn wait_for(&self, request: &Request) -> LocalBoxFuture<'static, Result<Value, String>> {
        self.requests.borrow_mut().push(request.clone());
        let out = (self.resolve)(request);
        Box::pin(async move { out })
    }
}

/// A `waitFor` whose answer (`{id, ok: true}`) arrives only after `gate` fires.
pub struct GatedWaitFor {
    pub gate: Rc<ManualSignal>,
    pub requests: RefCell<Vec<Request>>,
    pub answered: Rc<Cell<u32>>,
}

impl GatedWaitFor {
    pub fn new(gate: Rc<ManualSignal>) -> Rc<Self> {
        Rc::new(GatedWaitFor {
            gate,
            requests: RefCell::new(Vec::new()),
            answered: Rc::new(Cell::new(0)),
        })
    }
}

impl WaitFor for GatedWaitFor {
    fn wait_for(&self, request: &Request) -> LocalBoxFuture<'static, Result<Value, String>> {
        self.requests.borrow_mut().push(request.clone());
        let wait = SignalHandle(self.gate.clone()).wait();
        let (id, answered) = (request.id.clone(), self.answered.clone());
        Box::pin(async move {
            wait.await;
            answered.set(answered.get() + 1);
            Ok(json!({"id": id, "ok": true}))
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Tools

type Body = Box<dyn Fn(Value, Context) -> LocalBoxFuture<'static, ToolResult>>;

/// A tool whose behaviour is a closure; records the arguments and answers it got.
pub struct FnTool {
    spec: ToolSpec,
    body: Body,
    pub calls: RefCell<Vec<(Value, Option<Answer>)>>,
}

impl FnTool {
    pub fn new(
        name: &str,
        schema: Value,
        body: impl Fn(Value, Context) -> LocalBoxFuture<'static, ToolResult> + 'static,
    ) -> Rc<Self> {
        Rc::new(FnTool {
            spec: ToolSpec::new(name, format!("{name} tool"), schema, "native").unwrap(),
            body: Box::new(body),
            calls: RefCell::new(Vec::new()),
        })
    }

    /// A tool answering `result` at once.
    pub fn returning(name: &str, result: ToolResult) -> Rc<Self> {
        Self::new(name, json!({"type": "object"}), move |_, _| {
            let result = result.clone();
            Box::pin(async move { result })
        })
    }

    pub fn count(&self) -> usize {
        self.calls.borrow().len()
    }

    pub fn args(&self) -> Vec<Value> {
        self.calls.borrow().iter().map(|(a, _)| a.clone()).collect()
    }

    pub fn answers(&self) -> Vec<Option<Answer>> {
        self.calls.borrow().iter().map(|(_, a)| a.clone()).collect()
    }
}

impl Tool for FnTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        self.calls
            .borrow_mut()
            .push((args.clone(), ctx.answer.clone()));
        (self.body)(args, ctx)
    }
}

/// A request with no url, data or expiry.
pub fn request(id: &str, kind: &str, prompt: &str) -> Request {
    Request {
        id: id.into(),
        kind: kind.into(),
        prompt: prompt.into(),
        url: None,
        data: None,
        expires_at: None,
    }
}

/// A tool that suspends with `req` until it is called with an answer; then it returns
/// `answered <args> with <answer.data>` — or, when `again`, suspends again.
pub fn asking(name: &str, req: Request, again: bool) -> Rc<FnTool> {
    FnTool::new(name, json!({"type": "object"}), move |args, ctx| {
        let out = match ctx.answer {
            Some(answer) if !again => ToolResult::ok(format!(
                "answered {args} with {}",
                answer
                    .data
                    .map_or("none".to_owned(), |d| Value::Object(d).to_string())
            )),
            _ => pending(req.clone()),
        };
        Box::pin(async move { out })
    })
}

/// A tool that fails: `isError` true.
pub fn failing(name: &str, output: &str) -> Rc<FnTool> {
    FnTool::returning(name, ToolResult::error(output))
}

/// A tool that never settles (only a signal can end it).
pub fn hanging(name: &str) -> Rc<FnTool> {
    FnTool::new(name, json!({"type": "object"}), |_, _| {
        Box::pin(std::future::pending())
    })
}

/// A tool that logs `start:<name>` to `log`, waits for `gate`, logs `end:<name>`, returns `out`.
pub fn waits_for(
    name: &str,
    gate: Rc<ManualSignal>,
    log: Rc<RefCell<Vec<String>>>,
    out: &str,
) -> Rc<FnTool> {
    let (name_owned, out) = (name.to_owned(), out.to_owned());
    FnTool::new(name, json!({"type": "object"}), move |_, _| {
        log.borrow_mut().push(format!("start:{name_owned}"));
        let (wait, log, name, out) = (
            SignalHandle(gate.clone()).wait(),
            log.clone(),
            name_owned.clone(),
            out.clone(),
        );
        Box::pin(async move {
            wait.await;
            log.borrow_mut().push(format!("end:{name}"));
            ToolResult::ok(out)
        })
    })
}

/// A tool that logs `start:<name>`, fires `gate`, logs `end:<name>` and returns `out`.
pub fn fires(
    name: &str,
    gate: Rc<ManualSignal>,
    log: Rc<RefCell<Vec<String>>>,
    out: &str,
) -> Rc<FnTool> {
    let (name_owned, out) = (name.to_owned(), out.to_owned());
    FnTool::new(name, json!({"type": "object"}), move |_, _| {
        log.borrow_mut().push(format!("start:{name_owned}"));
        gate.fire();
        log.borrow_mut().push(format!("end:{name_owned}"));
        let out = out.clone();
        Box::pin(async move { ToolResult::ok(out) })
    })
}

// ---------------------------------------------------------------------------------------------
// Clock

/// A clock stopped at `now_ms`; its sleeps finish at once.
pub struct FixedClock(pub f64);

impl Clock for FixedClock {
    fn now_ms(&self) -> f64 {
        self.0
    }
    fn sleep(&self, _ms: f64) -> LocalBoxFuture<'static, ()> {
        Box::pin(async {})
    }
}

// ---------------------------------------------------------------------------------------------
// The rig

pub const BASE: &str = "http://127.0.0.1:9/v1";
pub const MODEL: &str = "test/model-1";

/// The default config of `style` against [`BASE`] with [`MODEL`] and no key.
pub fn config(style: Style) -> ClientConfig {
    ClientConfig::new(style, BASE, MODEL)
}

/// Everything a test client is built from; change fields, then `run`.
pub struct Rig {
    pub config: ClientConfig,
    pub http: Rc<ScriptedHttp>,
    pub hooks: Rc<FakeHooks>,
    pub wait_for: Option<Rc<dyn WaitFor>>,
    pub clock: Rc<dyn Clock>,
    pub tools: Vec<SharedTool>,
    pub history: Vec<Value>,
    pub signal: Option<Signal>,
    pub telemetry: Rc<toolnexus::core::client::telemetry::Telemetry>,
    pub events: Option<Rc<dyn toolnexus::core::client::telemetry::RunEvents>>,
}

impl Rig {
    pub fn new(style: Style, http: Rc<ScriptedHttp>) -> Self {
        Rig {
            config: config(style),
            http,
            hooks: Rc::new(FakeHooks::default()),
            wait_for: None,
            clock: Rc::new(FixedClock(0.0)),
            tools: Vec::new(),
            history: Vec::new(),
            signal: None,
            telemetry: Rc::default(),
            events: None,
        }
    }

    pub fn tool(mut self, tool: SharedTool) -> Self {
        self.tools.push(tool);
        self
    }

    pub fn hooks(mut self, hooks: &Rc<FakeHooks>) -> Self {
        self.hooks = hooks.clone();
        self
    }

    pub fn wait_for(mut self, wait_for: Rc<dyn WaitFor>) -> Self {
        self.wait_for = Some(wait_for);
        self
    }

    pub fn signal(mut self, signal: &Rc<ManualSignal>) -> Self {
        self.signal = Some(Rc::new(SignalHandle(signal.clone())));
        self
    }

    pub fn client(&self) -> Client {
        Client {
            config: Rc::new(self.config.clone()),
            dialect: self.config.style.dialect(),
            http: self.http.clone(),
            hooks: self.hooks.clone(),
            wait_for: self.wait_for.clone(),
            clock: self.clock.clone(),
            telemetry: self.telemetry.clone(),
            requests: Default::default(),
        }
    }

    pub fn toolkit(&self) -> Rc<Toolkit> {
        let kit = Toolkit::default();
        for tool in &self.tools {
            kit.register(tool.clone()).unwrap();
        }
        Rc::new(kit)
    }

    pub fn input(&self, prompt: &str) -> RunInput {
        RunInput {
            toolkit: self.toolkit(),
            prompt: prompt.into(),
            history: toolnexus::core::message::from_values(self.history.clone()),
            history_text: None,
            history_host: None,
            signal: self.signal.clone(),
            events: self.events.clone(),
            resume: None,
        }
    }

    /// Runs `prompt` to its end on this thread.
    pub fn run(&self, prompt: &str) -> Result<RunResult, RunError> {
        block_on(self.client().run(self.input(prompt)))
    }
}
