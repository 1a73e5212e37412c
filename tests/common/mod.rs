//! Fakes shared by the host tests: scripted tools, a manual abort signal, scripted clocks.
#![allow(dead_code, clippy::unwrap_used)]

pub mod agent;
pub mod agents;
pub mod chain;
pub mod golden;
pub mod http;
pub mod resilience;
pub mod sse;
pub mod stream;

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context as TaskContext, Poll, Waker};
use toolnexus::{core::json::value::Value, json};

use toolnexus::core::host::{Cancel, Clock, LocalBoxFuture};
use toolnexus::core::spec::ToolSpec;
use toolnexus::core::tool::{Context, SharedTool, Tool};
use toolnexus::core::types::ToolResult;

/// What a fake tool does when called.
#[derive(Clone)]
pub enum Behaviour {
    /// Resolves at once with this result.
    Returns(ToolResult),
    /// Echoes its arguments as JSON text.
    Echo,
    /// Never settles.
    Hangs,
}

pub struct FakeTool {
    spec: ToolSpec,
    behaviour: Behaviour,
    pub calls: Rc<Cell<u32>>,
    pub last_ctx_had_signal: Rc<Cell<bool>>,
}

impl Tool for FakeTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        self.calls.set(self.calls.get() + 1);
        self.last_ctx_had_signal.set(ctx.signal.is_some());
        match self.behaviour.clone() {
            Behaviour::Returns(r) => Box::pin(async move { r }),
            Behaviour::Echo => Box::pin(async move { ToolResult::ok(args.to_string()) }),
            Behaviour::Hangs => Box::pin(std::future::pending()),
        }
    }
}

/// A fake tool with the given schema and source.
pub fn tool_with(name: &str, source: &str, schema: Value, behaviour: Behaviour) -> Rc<FakeTool> {
    Rc::new(FakeTool {
        spec: ToolSpec::new(name, format!("{name} tool"), schema, source).unwrap(),
        behaviour,
        calls: Rc::new(Cell::new(0)),
        last_ctx_had_signal: Rc::new(Cell::new(false)),
    })
}

/// An echoing tool with an open object schema.
pub fn echo(name: &str, source: &str) -> Rc<FakeTool> {
    tool_with(name, source, json!({"type": "object"}), Behaviour::Echo)
}

pub fn shared(tool: &Rc<FakeTool>) -> SharedTool {
    tool.clone()
}

pub fn names(tools: &[SharedTool]) -> Vec<String> {
    tools.iter().map(|t| t.spec().name.clone()).collect()
}

/// An abort signal fired by hand.
#[derive(Default)]
pub struct ManualSignal {
    fired: Cell<bool>,
    wakers: RefCell<Vec<Waker>>,
}

impl ManualSignal {
    pub fn fire(&self) {
        self.fired.set(true);
        for w in self.wakers.borrow_mut().drain(..) {
            w.wake();
        }
    }
}

struct WaitFired(Rc<ManualSignal>);

impl Future for WaitFired {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<()> {
        if self.0.fired.get() {
            Poll::Ready(())
        } else {
            self.0.wakers.borrow_mut().push(cx.waker().clone());
            Poll::Pending
        }
    }
}

/// `Cancel` over a shared `ManualSignal`.
pub struct SignalHandle(pub Rc<ManualSignal>);

impl Cancel for SignalHandle {
    fn is_aborted(&self) -> bool {
        self.0.fired.get()
    }
    fn reason(&self) -> String {
        "stopped by test".into()
    }
    fn wait(&self) -> LocalBoxFuture<'static, ()> {
        Box::pin(WaitFired(self.0.clone()))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A clock whose sleeps finish at once (every timeout fires immediately).
pub struct InstantClock;

impl Clock for InstantClock {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn sleep(&self, _ms: f64) -> LocalBoxFuture<'static, ()> {
        Box::pin(async {})
    }
}

/// A clock whose sleeps never finish (no timeout ever fires).
pub struct FrozenClock;

impl Clock for FrozenClock {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn sleep(&self, _ms: f64) -> LocalBoxFuture<'static, ()> {
        Box::pin(std::future::pending())
    }
}

/// Pending once, then ready: one yield to the executor, so the other side of a `join` (or
/// another task) is polled first.
pub struct YieldOnce(pub bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}
