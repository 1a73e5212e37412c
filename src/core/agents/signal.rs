//! A turn's abort seam (the JS port's `AbortController`): the runtime fires it to interrupt or
//! force-close a running turn; the client races its run against it and its model call sees it.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use crate::core::host::{Cancel, LocalBoxFuture};

/// A signal the runtime owns and fires.
///
/// ```
/// # use toolnexus::core::agents::signal::TurnAbort;
/// # use toolnexus::core::host::Cancel;
/// let abort = TurnAbort::new();
/// let signal = toolnexus::core::agents::signal::AbortHandle(abort.clone());
/// abort.abort("interrupted");
/// assert!(signal.is_aborted());
/// assert!(abort.is_aborted() && abort.reason() == "interrupted");
/// ```
#[derive(Default)]
pub struct TurnAbort {
    fired: Cell<bool>,
    reason: RefCell<String>,
    wakers: RefCell<Vec<Waker>>,
}

impl TurnAbort {
    /// An unfired signal.
    pub fn new() -> Rc<TurnAbort> {
        Rc::new(TurnAbort::default())
    }
}

struct Fired(Rc<TurnAbort>);

impl Future for Fired {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0.fired.get() {
            Poll::Ready(())
        } else {
            self.0.wakers.borrow_mut().push(cx.waker().clone());
            Poll::Pending
        }
    }
}

/// The signal as a [`Cancel`] the client can hold.
pub struct AbortHandle(pub Rc<TurnAbort>);

impl Cancel for AbortHandle {
    fn is_aborted(&self) -> bool {
        self.0.is_aborted()
    }
    fn reason(&self) -> String {
        self.0.reason()
    }
    fn wait(&self) -> LocalBoxFuture<'static, ()> {
        Box::pin(Fired(self.0.clone()))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn abort(&self, reason: &str) {
        self.0.abort(reason);
    }
}

impl TurnAbort {
    /// Whether it fired.
    pub fn is_aborted(&self) -> bool {
        self.fired.get()
    }

    /// Why it fired (empty before).
    pub fn reason(&self) -> String {
        self.reason.borrow().clone()
    }

    /// Fires once; the first reason stays.
    pub fn abort(&self, reason: &str) {
        if self.fired.replace(true) {
            return;
        }
        *self.reason.borrow_mut() = reason.to_owned();
        let wakers: Vec<Waker> = self.wakers.borrow_mut().drain(..).collect();
        for waker in wakers {
            waker.wake();
        }
    }
}
