//! The stdio transport: newline-delimited JSON-RPC over a child's stdin and stdout. Several
//! requests may be in flight at once; whichever of them is waiting reads the next line and
//! routes it by id, so no background task is needed (server requests and notifications are
//! handled by whichever request is waiting; none is read while no request is).

use crate::core::json::value::Value;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

use crate::core::names::Names;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use super::jsonrpc::{classify, Incoming};
use super::process::Child;
use super::transport::{reply, McpError, ServerRequests, Transport};
use crate::core::host::{LocalBoxFuture, Signal};

type Outcome = Result<Value, McpError>;
/// A server request (with its id) or notification (without), not handled yet.
type Queued = (Option<Value>, String, Value);

struct Shared {
    child: Box<dyn Child>,
    /// Requests waiting for their response, by id; filled in when it arrives.
    waiting: RefCell<Names<Option<Outcome>, u64>>,
    /// Server requests and notifications not handled yet.
    queued: RefCell<VecDeque<Queued>>,
    pumping: Cell<bool>,
    generation: Cell<u64>,
    wakers: RefCell<Vec<Waker>>,
    ended: RefCell<Option<String>>,
}

impl Shared {
    fn changed(&self) {
        self.generation.set(self.generation.get().wrapping_add(1));
        for waker in self.wakers.borrow_mut().drain(..) {
            waker.wake();
        }
    }

    fn route(&self, line: &str) {
        let Ok(message) = crate::core::json::parse::from_str(line.trim()) else {
            return;
        };
        match classify(message) {
            Incoming::Response { id, outcome } => {
                let key = id
                    .as_u64()
                    .or_else(|| id.as_str().and_then(|s| s.parse().ok()));
                let mut waiting = self.waiting.borrow_mut();
                if let Some(slot) = key.and_then(|k: u64| waiting.get_mut(&k)) {
                    *slot = Some(outcome.map_err(McpError::Rpc));
                }
            }
            Incoming::Request { id, method, params } => {
                self.queued
                    .borrow_mut()
                    .push_back((Some(id), method, params));
            }
            Incoming::Notification { method, params } => {
                self.queued.borrow_mut().push_back((None, method, params));
            }
            Incoming::Invalid => {}
        }
    }

    async fn write(&self, message: &Value) -> Result<(), McpError> {
        if let Some(reason) = self.ended.borrow().clone() {
            return Err(ended(&reason));
        }
        let line = format!("{}\n", crate::core::json::text::Json(message));
        self.child.write(&line).await.map_err(McpError::Transport)
    }
}

fn ended(reason: &str) -> McpError {
    McpError::Transport(format!("the server process ended: {reason}"))
}

/// Completes once [`Shared::changed`] ran after it was made.
struct Changed {
    shared: Rc<Shared>,
    seen: u64,
}

impl Future for Changed {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.shared.generation.get() != self.seen {
            return Poll::Ready(());
        }
        self.shared.wakers.borrow_mut().push(cx.waker().clone());
        Poll::Pending
    }
}

/// Releases the reader when the request reading a line is dropped.
struct Pumping(Rc<Shared>);

impl Drop for Pumping {
    fn drop(&mut self) {
        self.0.pumping.set(false);
        self.0.changed();
    }
}

/// Forgets a request's slot when it finishes or is dropped.
struct Waiting(Rc<Shared>, u64);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.waiting.borrow_mut().remove(&self.1);
    }
}

/// A local server over its stdio.
pub struct Stdio {
    shared: Rc<Shared>,
}

impl Stdio {
    /// Talks to `child`.
    pub fn new(child: Box<dyn Child>) -> Self {
        Stdio {
            shared: Rc::new(Shared {
                child,
                waiting: RefCell::default(),
                queued: RefCell::default(),
                pumping: Cell::new(false),
                generation: Cell::new(0),
                wakers: RefCell::default(),
                ended: RefCell::new(None),
            }),
        }
    }
}

async fn exchange(
    shared: Rc<Shared>,
    id: u64,
    message: Value,
    handler: Rc<dyn ServerRequests>,
) -> Outcome {
    shared.waiting.borrow_mut().insert(id, None);
    let _slot = Waiting(shared.clone(), id);
    shared.write(&message).await?;
    loop {
        let done = shared
            .waiting
            .borrow_mut()
            .get_mut(&id)
            .and_then(Option::take);
        if let Some(outcome) = done {
            return outcome;
        }
        if let Some(reason) = shared.ended.borrow().clone() {
            return Err(ended(&reason));
        }
        let next = shared.queued.borrow_mut().pop_front();
        match next {
            Some((Some(request_id), method, params)) => {
                let outcome = handler.answer(&method, &params).await;
                shared.write(&reply(request_id, outcome)).await?;
                continue;
            }
            Some((None, method, params)) => {
                handler.notified(&method, &params);
                continue;
            }
            None => {}
        }
        if shared.pumping.get() {
            let seen = shared.generation.get();
            Changed {
                shared: shared.clone(),
                seen,
            }
            .await;
            continue;
        }
        shared.pumping.set(true);
        let pump = Pumping(shared.clone());
        let line = shared.child.next_line().await;
        match line {
            Some(line) => shared.route(&line),
            None => {
                let reason = shared
                    .child
                    .exit_reason()
                    .unwrap_or_else(|| "its output closed".into());
                *shared.ended.borrow_mut() = Some(reason);
            }
        }
        drop(pump);
    }
}

impl Transport for Stdio {
    fn request(
        &self,
        id: u64,
        message: Value,
        handler: Rc<dyn ServerRequests>,
        _signal: Option<Signal>,
    ) -> LocalBoxFuture<'static, Result<Value, McpError>> {
        Box::pin(exchange(self.shared.clone(), id, message, handler))
    }

    fn notify(&self, message: Value) -> LocalBoxFuture<'static, Result<(), McpError>> {
        let shared = self.shared.clone();
        Box::pin(async move { shared.write(&message).await })
    }

    fn close(&self) -> LocalBoxFuture<'static, ()> {
        self.shared.child.kill();
        if self.shared.ended.borrow().is_none() {
            *self.shared.ended.borrow_mut() = Some("closed".into());
        }
        self.shared.changed();
        Box::pin(async {})
    }
}
