//! Where a server's messages outside of responses go, whichever stream carried them: its
//! requests to the elicitation bridge, `notifications/progress` to the call whose
//! `progressToken` it names (pushing that call's deadline back), and
//! `notifications/tools/list_changed` to whoever watches the tool list.

use crate::core::json::value::Value;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use super::elicit::Elicitation;
use super::jsonrpc::RpcError;
use super::transport::ServerRequests;
use crate::core::host::{Clock, LocalBoxFuture};
use crate::core::types::Request;

/// How far progress may push a call's deadline: this many times its budget from its start
/// (the spec asks for a maximum however often progress comes).
pub const PROGRESS_MAX_FACTOR: f64 = 10.0;

/// A call's deadline, which progress notifications push back.
///
/// ```
/// # use toolnexus::core::mcp::dispatch::Deadline;
/// let d = Deadline::new(0.0, 100.0);
/// d.progress(50.0);
/// assert_eq!(d.at(), 150.0);
/// d.progress(5_000.0);
/// assert_eq!(d.at(), 1_000.0); // never past 10 × the budget
/// ```
#[derive(Debug)]
pub struct Deadline {
    at: Cell<f64>,
    budget: f64,
    last: f64,
}

impl Deadline {
    /// Due `budget` ms after `now`.
    pub fn new(now: f64, budget: f64) -> Self {
        Deadline {
            at: Cell::new(now + budget),
            budget,
            last: now + budget * PROGRESS_MAX_FACTOR,
        }
    }

    /// The budget it started with.
    pub fn budget(&self) -> f64 {
        self.budget
    }

    /// When it is due.
    pub fn at(&self) -> f64 {
        self.at.get()
    }

    /// Progress at `now`: due a whole budget later again, up to the maximum.
    pub fn progress(&self, now: f64) {
        self.at
            .set((now + self.budget).min(self.last).max(self.at.get()));
    }
}

/// The session's handler of everything a server sends besides responses.
pub struct Dispatch {
    requests: Elicitation,
    clock: Rc<dyn Clock>,
    calls: RefCell<Vec<(u64, Rc<Deadline>)>>,
    tools_changed: RefCell<Option<Rc<dyn Fn()>>>,
}

impl Dispatch {
    /// Over the elicitation bridge.
    pub fn new(requests: Elicitation, clock: Rc<dyn Clock>) -> Self {
        Dispatch {
            requests,
            clock,
            calls: RefCell::default(),
            tools_changed: RefCell::default(),
        }
    }

    /// The `capabilities` of our `initialize`.
    pub fn capabilities(&self) -> Value {
        self.requests.capabilities()
    }

    /// Asks the host for `request` through the toolkit's `waitFor`; `None` without one.
    pub fn ask(&self, request: &Request) -> Option<LocalBoxFuture<'static, Result<Value, String>>> {
        self.requests.ask(request)
    }

    /// Whether the toolkit has a `waitFor` to ask.
    pub fn can_ask(&self) -> bool {
        self.requests.can_ask()
    }

    /// Watches call `token`'s progress until the returned guard is dropped.
    pub fn track(self: &Rc<Self>, token: u64, deadline: Rc<Deadline>) -> Tracked {
        self.calls.borrow_mut().push((token, deadline));
        Tracked {
            dispatch: self.clone(),
            token,
        }
    }

    /// Calls `f` on each `notifications/tools/list_changed`.
    pub fn on_tools_changed(&self, f: Rc<dyn Fn()>) {
        *self.tools_changed.borrow_mut() = Some(f);
    }
}

/// Stops watching a call's progress when dropped.
pub struct Tracked {
    dispatch: Rc<Dispatch>,
    token: u64,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.dispatch
            .calls
            .borrow_mut()
            .retain(|(t, _)| *t != self.token);
    }
}

fn token_of(params: &Value) -> Option<u64> {
    match params.get("progressToken")? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

impl ServerRequests for Dispatch {
    fn answer(
        &self,
        method: &str,
        params: &Value,
    ) -> LocalBoxFuture<'static, Result<Value, RpcError>> {
        self.requests.answer(method, params)
    }

    fn notified(&self, method: &str, params: &Value) {
        match method {
            "notifications/progress" => {
                let Some(token) = token_of(params) else {
                    return;
                };
                let now = self.clock.now_ms();
                for (_, deadline) in self.calls.borrow().iter().filter(|(t, _)| *t == token) {
                    deadline.progress(now);
                }
            }
            "notifications/tools/list_changed" => {
                let watcher = self.tools_changed.borrow().clone();
                if let Some(f) = watcher {
                    f();
                }
            }
            _ => {}
        }
    }
}
