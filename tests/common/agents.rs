//! A bench for the agent runtime's host tests: a local executor as the runtime's spawner, a
//! virtual clock advanced by hand, and scripted models keyed by the request's `model` (the
//! shared fixtures' `mockLLM` rules: a reply chosen by how many tool messages the request
//! holds, tool calls or a text template, optionally blocking until released or aborted).
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use futures_executor::{LocalPool, LocalSpawner};
use futures_util::task::LocalSpawn;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use toolnexus::core::agents::registry::{AgentDef, Registry};
use toolnexus::core::agents::runtime::{AgentRuntime, RuntimeOptions};
use toolnexus::core::host::{
    Cancel, Clock, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture, Spawn,
};
use toolnexus::core::tool::SharedTool;
use toolnexus::core::types::ToolResult;
use toolnexus::{core::json::value::Value, json};

use super::agent::FnTool;
use super::http::{ok_json, openai_calls, openai_text};
use super::{ManualSignal, SignalHandle};

// ---------------------------------------------------------------------------------------------
// Spawner

/// The runtime's spawner over a `LocalPool`.
pub struct PoolSpawner(pub LocalSpawner);

impl Spawn for PoolSpawner {
    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        self.0
            .spawn_local_obj(futures_util::task::LocalFutureObj::new(task))
            .unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// Virtual clock

struct Timer {
    at: f64,
    fired: Cell<bool>,
    waker: RefCell<Option<Waker>>,
}

/// A clock that moves only when `advance` is called; sleeps finish when it passes them.
#[derive(Default)]
pub struct VirtualClock {
    now: Cell<f64>,
    timers: RefCell<Vec<Rc<Timer>>>,
}

impl VirtualClock {
    pub fn advance(&self, ms: f64) {
        let target = self.now.get() + ms;
        let mut due: Vec<Rc<Timer>> = self
            .timers
            .borrow()
            .iter()
            .filter(|t| !t.fired.get() && t.at <= target)
            .cloned()
            .collect();
        due.sort_by(|a, b| a.at.total_cmp(&b.at));
        for t in due {
            self.now.set(t.at);
            t.fired.set(true);
            if let Some(w) = t.waker.borrow_mut().take() {
                w.wake();
            }
        }
        self.now.set(target);
        self.timers.borrow_mut().retain(|t| !t.fired.get());
    }

    /// Sleeps not yet finished.
    pub fn pending_timers(&self) -> usize {
        self.timers
            .borrow()
            .iter()
            .filter(|t| !t.fired.get())
            .count()
    }
}

struct Sleep(Rc<Timer>);

impl Future for Sleep {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0.fired.get() {
            Poll::Ready(())
        } else {
            *self.0.waker.borrow_mut() = Some(cx.waker().clone());
            Poll::Pending
        }
    }
}

impl Clock for VirtualClock {
    fn now_ms(&self) -> f64 {
        self.now.get()
    }
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'static, ()> {
        let timer = Rc::new(Timer {
            at: self.now.get() + ms.max(0.0),
            fired: Cell::new(ms <= 0.0),
            waker: RefCell::new(None),
        });
        if !timer.fired.get() {
            self.timers.borrow_mut().push(timer.clone());
        }
        Box::pin(Sleep(timer))
    }
}

// ---------------------------------------------------------------------------------------------
// Scripted models

/// When a rule applies, by the number of `role: "tool"` messages in the request.
#[derive(Clone, Debug)]
pub enum When {
    Always,
    ToolMsgs(usize),
    ToolMsgsAtLeast(usize),
    /// Some tool message contains the text.
    ToolMsgContains(String),
    /// No tool message contains the text.
    NoToolMsgContains(String),
    /// The last user message contains the text.
    LastUserContains(String),
}

/// What a rule answers.
#[derive(Clone, Debug)]
pub enum Answer {
    /// Tool calls `(name, args)`.
    Calls(Vec<(String, Value)>),
    /// A text; `<first tool msg content>`, `<join all tool msg contents with ' + '>` and
    /// `<count of numbered inbox items in last user msg>` are filled in.
    Text(String),
}

#[derive(Clone, Debug)]
pub struct Rule {
    pub when: When,
    pub answer: Answer,
    /// Answers only once `release` fires (or the request is aborted).
    pub blocks: bool,
}

impl Rule {
    pub fn text(when: When, text: &str) -> Rule {
        Rule {
            when,
            answer: Answer::Text(text.into()),
            blocks: false,
        }
    }
    pub fn calls(when: When, calls: Vec<(&str, Value)>) -> Rule {
        let calls = calls.into_iter().map(|(n, a)| (n.to_owned(), a)).collect();
        Rule {
            when,
            answer: Answer::Calls(calls),
            blocks: false,
        }
    }
}

/// Models by name; every reply costs 30 + 10 = 40 tokens. Each reply yields to the executor
/// once before it answers, as a network reply would, so concurrent calls overlap.
#[derive(Default)]
pub struct Models {
    pub scripts: RefCell<Vec<(String, Vec<Rule>)>>,
    /// Fires the blocked replies.
    pub release: Rc<ManualSignal>,
    /// Blocked replies started.
    pub blocked_started: Cell<u32>,
    /// Every request body, in order.
    pub bodies: RefCell<Vec<Value>>,
    calls: Cell<u32>,
}

impl Models {
    pub fn new(scripts: Vec<(&str, Vec<Rule>)>) -> Rc<Models> {
        let models = Models::default();
        *models.scripts.borrow_mut() = scripts
            .into_iter()
            .map(|(m, r)| (m.to_owned(), r))
            .collect();
        Rc::new(models)
    }

    fn reply(&self, body: &Value) -> Result<(Rule, Value), String> {
        let model = body["model"].as_str().unwrap_or_default().to_owned();
        let messages = body["messages"].as_array().cloned().unwrap_or_default();
        let tools: Vec<String> = messages
            .iter()
            .filter(|m| m["role"] == json!("tool"))
            .map(|m| m["content"].as_str().unwrap_or_default().to_owned())
            .collect();
        let last_user = messages
            .iter()
            .rev()
            .find(|m| m["role"] == json!("user"))
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default()
            .to_owned();
        let scripts = self.scripts.borrow();
        let rules = &scripts
            .iter()
            .find(|(m, _)| *m == model)
            .ok_or_else(|| format!("no script for model {model}"))?
            .1;
        let rule = rules
            .iter()
            .find(|r| match r.when {
                When::Always => true,
                When::ToolMsgs(n) => tools.len() == n,
                When::ToolMsgsAtLeast(n) => tools.len() >= n,
                When::ToolMsgContains(ref t) => tools.iter().any(|m| m.contains(t.as_str())),
                When::NoToolMsgContains(ref t) => !tools.iter().any(|m| m.contains(t.as_str())),
                When::LastUserContains(ref t) => last_user.contains(t.as_str()),
            })
            .ok_or_else(|| format!("no rule of {model} for {} tool messages", tools.len()))?
            .clone();
        let n = self.calls.get() + 1;
        self.calls.set(n);
        let reply = match &rule.answer {
            Answer::Calls(calls) => {
                let ids: Vec<String> = (0..calls.len()).map(|i| format!("c{n}_{i}")).collect();
                let list: Vec<(&str, &str, Value)> = calls
                    .iter()
                    .zip(&ids)
                    .map(|((name, args), id)| (id.as_str(), name.as_str(), args.clone()))
                    .collect();
                openai_calls(&list, Some((30, 10)))
            }
            Answer::Text(template) => {
                let numbered = last_user
                    .lines()
                    .filter(|l| {
                        let digits = l.bytes().take_while(u8::is_ascii_digit).count();
                        digits > 0 && l.as_bytes().get(digits) == Some(&b'.')
                    })
                    .count();
                let text = template
                    .replace(
                        "<last tool msg content>",
                        tools.last().map_or("", String::as_str),
                    )
                    .replace(
                        "<first tool msg content>",
                        tools.first().map_or("", String::as_str),
                    )
                    .replace(
                        "<join all tool msg contents with ' + '>",
                        &tools.join(" + "),
                    )
                    .replace(
                        "<count of numbered inbox items in last user msg>",
                        &numbered.to_string(),
                    );
                openai_text(&text, Some((30, 10)))
            }
        };
        Ok((rule, reply))
    }
}

/// The transport over shared [`Models`].
pub struct ModelsHttp(pub Rc<Models>);

impl Http for ModelsHttp {
    fn send(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        let body: Value =
            serde_json::from_str(request.body.as_deref().unwrap_or("")).unwrap_or(Value::Null);
        self.0.bodies.borrow_mut().push(body.clone());
        let reply = self.0.reply(&body);
        let models = self.0.clone();
        let signal = request.signal.clone();
        Box::pin(async move {
            let (rule, reply) = reply.map_err(HttpError::Refused)?;
            super::YieldOnce(false).await;
            if rule.blocks {
                models.blocked_started.set(models.blocked_started.get() + 1);
                let release = SignalHandle(models.release.clone()).wait();
                match signal {
                    Some(signal) => {
                        let aborted = signal.wait();
                        if let futures_util::future::Either::Right(_) =
                            futures_util::future::select(release, aborted).await
                        {
                            return Err(HttpError::Aborted(signal.reason()));
                        }
                    }
                    None => release.await,
                }
            }
            ok_json(reply)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// The bench

/// The fixtures' `lookup`: returns `data(<q>)`.
pub fn lookup() -> SharedTool {
    FnTool::new(
        "lookup",
        json!({"type": "object", "properties": {"q": {"type": "string"}}}),
        |args, _| {
            let q = args["q"].as_str().unwrap_or_default().to_owned();
            Box::pin(async move { ToolResult::ok(format!("data({q})")) })
        },
    )
}

/// The fixtures' `check_secret`: without `ctx.answer`, a pending approval ("approve secret
/// access?", a fresh id on every call, as a tool minting ids does); with an approving answer,
/// `secret-token`. `runs` counts its executions, `approved` the approved ones.
pub fn check_secret(runs: Rc<Cell<u32>>, approved: Rc<Cell<u32>>) -> SharedTool {
    check_secret_named("check_secret", "approve secret access?", runs, approved)
}

/// [`check_secret`] under another name and prompt.
pub fn check_secret_named(
    name: &str,
    prompt: &str,
    runs: Rc<Cell<u32>>,
    approved: Rc<Cell<u32>>,
) -> SharedTool {
    let prompt = prompt.to_owned();
    let tool = name.to_owned();
    FnTool::new(
        name,
        json!({"type": "object", "properties": {}}),
        move |_, ctx| {
            runs.set(runs.get() + 1);
            let n = runs.get();
            let result = match ctx.answer {
                Some(answer) if answer.ok => {
                    approved.set(approved.get() + 1);
                    ToolResult::ok("secret-token")
                }
                _ => toolnexus::core::types::pending(toolnexus::core::types::Request {
                    id: format!("{tool}-req-{n}"),
                    kind: "approval".into(),
                    prompt: prompt.clone(),
                    url: None,
                    data: None,
                    expires_at: None,
                }),
            };
            Box::pin(async move { result })
        },
    )
}

/// A `waitFor` answering every request with `ok`, recording what it was asked.
pub struct Approver {
    pub ok: bool,
    pub asked: RefCell<Vec<toolnexus::core::types::Request>>,
}

impl Approver {
    pub fn new(ok: bool) -> Rc<Approver> {
        Rc::new(Approver {
            ok,
            asked: RefCell::new(Vec::new()),
        })
    }
}

impl toolnexus::core::client::hooks::WaitFor for Approver {
    fn wait_for(
        &self,
        request: &toolnexus::core::types::Request,
    ) -> LocalBoxFuture<'static, Result<Value, String>> {
        self.asked.borrow_mut().push(request.clone());
        let answer = json!({"id": request.id.clone(), "ok": self.ok});
        Box::pin(async move { Ok(answer) })
    }
}

/// A def with a model, tools and team.
pub fn def(name: &str, does: &str, model: &str, tools: &[&str], team: &[&str]) -> AgentDef {
    AgentDef {
        model: Some(model.into()),
        tools: tools.iter().map(|t| (*t).to_owned()).collect(),
        team: team.iter().map(|t| (*t).to_owned()).collect(),
        ..AgentDef::new(name, does)
    }
}

/// A runtime on a local executor, a virtual clock and scripted models.
pub struct Bed {
    pub pool: RefCell<LocalPool>,
    pub rt: AgentRuntime,
    pub clock: Rc<VirtualClock>,
    pub models: Rc<Models>,
}

impl Bed {
    /// `configure` adjusts the options before the runtime is built.
    pub fn new(
        defs: Vec<AgentDef>,
        tools: &[SharedTool],
        models: Rc<Models>,
        configure: impl FnOnce(&mut RuntimeOptions),
    ) -> Bed {
        Bed::build(defs, tools, models, configure, |o| {
            Ok::<_, ()>(AgentRuntime::new(o).unwrap())
        })
        .unwrap()
    }

    /// A bench whose runtime is restored from a saved `state` (a fresh process's), on a new
    /// executor and clock.
    pub fn restored(
        defs: Vec<AgentDef>,
        tools: &[SharedTool],
        models: Rc<Models>,
        configure: impl FnOnce(&mut RuntimeOptions),
        state: &Value,
    ) -> Result<Bed, toolnexus::core::agents::resume::ResumeError> {
        Bed::build(defs, tools, models, configure, |o| {
            AgentRuntime::restore(o, state)
        })
    }

    fn build<E>(
        defs: Vec<AgentDef>,
        tools: &[SharedTool],
        models: Rc<Models>,
        configure: impl FnOnce(&mut RuntimeOptions),
        make: impl FnOnce(RuntimeOptions) -> Result<AgentRuntime, E>,
    ) -> Result<Bed, E> {
        let pool = LocalPool::new();
        let clock = Rc::new(VirtualClock::default());
        let registry = Registry::new(defs, tools).unwrap();
        let mut options = RuntimeOptions::new(
            registry,
            Rc::new(ModelsHttp(models.clone())),
            clock.clone(),
            Rc::new(PoolSpawner(pool.spawner())),
        );
        configure(&mut options);
        Ok(Bed {
            rt: make(options)?,
            pool: RefCell::new(pool),
            clock,
            models,
        })
    }

    /// Runs the executor until `future` completes.
    pub fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        self.pool.borrow_mut().run_until(future)
    }

    /// Runs every task until none can move.
    pub fn settle(&self) {
        self.pool.borrow_mut().run_until_stalled();
    }

    /// Advances the clock and lets the tasks move.
    pub fn advance(&self, ms: f64) {
        self.clock.advance(ms);
        self.settle();
    }
}

impl Bed {
    /// Starts `task` on the bench's executor (beside the runtime's turns).
    pub fn start(&self, task: impl Future<Output = ()> + 'static) {
        PoolSpawner(self.pool.borrow().spawner()).spawn(Box::pin(task));
    }
}

/// A client over `models` with no hooks, as a host builds one by hand.
pub fn bare_client(
    models: Rc<Models>,
    clock: Rc<VirtualClock>,
    model: &str,
    soul: &str,
) -> toolnexus::core::client::run::Client {
    use toolnexus::core::client::config::{ClientConfig, Style};
    let mut config = ClientConfig::new(Style::OpenAi, "http://mock.local", model);
    config.system_prompt = soul.into();
    toolnexus::core::client::run::Client {
        dialect: config.style.dialect(),
        config: Rc::new(config),
        http: Rc::new(ModelsHttp(models)),
        hooks: Rc::new(toolnexus::core::client::hooks::NoHooks),
        wait_for: None,
        clock,
        telemetry: Rc::default(),
        requests: Rc::default(),
    }
}

/// A run of `prompt` over a toolkit of `tools`.
pub fn run_input(tools: Vec<SharedTool>, prompt: &str) -> toolnexus::core::client::run::RunInput {
    use toolnexus::core::toolkit::{Sources, Toolkit};
    let (toolkit, _) = Toolkit::assemble(Sources {
        extras: tools,
        ..Sources::default()
    });
    toolnexus::core::client::run::RunInput::new(Rc::new(toolkit), prompt.into())
}
