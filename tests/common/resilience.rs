//! Fakes for retry and timeout paths: a virtual clock that records every sleep and returns at
//! once (advancing its own time), a signal that records `Cancel::abort` calls, and hooks whose
//! `on_error` answers from a script while recording what it was asked.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use toolnexus::core::json::value::Value;

use super::ManualSignal;
use super::SignalHandle;
use toolnexus::core::client::hooks::{ErrorInfo, Hooks};
use toolnexus::core::host::{Cancel, Clock, LocalBoxFuture};

/// Virtual time: `sleep(ms)` records `ms`, moves `now` forward by it and completes at once.
pub struct VirtualClock {
    pub now: Cell<f64>,
    pub sleeps: RefCell<Vec<f64>>,
    pub random: f64,
}

impl VirtualClock {
    pub fn new(start_ms: f64, random: f64) -> Rc<Self> {
        Rc::new(VirtualClock {
            now: Cell::new(start_ms),
            sleeps: RefCell::new(Vec::new()),
            random,
        })
    }

    pub fn sleeps(&self) -> Vec<f64> {
        self.sleeps.borrow().clone()
    }
}

impl Clock for VirtualClock {
    fn now_ms(&self) -> f64 {
        self.now.get()
    }
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'static, ()> {
        self.sleeps.borrow_mut().push(ms);
        self.now.set(self.now.get() + ms.max(0.0));
        Box::pin(async {})
    }
    fn random(&self) -> f64 {
        self.random
    }
}

/// A signal the core may fire itself: every `abort(reason)` is recorded and fires it.
#[derive(Default)]
pub struct AbortRecorder {
    pub inner: Rc<ManualSignal>,
    pub aborts: RefCell<Vec<String>>,
    pub reason: RefCell<Option<String>>,
    /// How many times the core began waiting on the signal.
    pub waits: std::cell::Cell<usize>,
}

/// `Cancel` over a shared [`AbortRecorder`].
pub struct RecordingSignal(pub Rc<AbortRecorder>);

impl Cancel for RecordingSignal {
    fn is_aborted(&self) -> bool {
        SignalHandle(self.0.inner.clone()).is_aborted()
    }
    fn reason(&self) -> String {
        self.0
            .reason
            .borrow()
            .clone()
            .unwrap_or_else(|| "stopped by test".into())
    }
    fn wait(&self) -> LocalBoxFuture<'static, ()> {
        self.0.waits.set(self.0.waits.get() + 1);
        SignalHandle(self.0.inner.clone()).wait()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn abort(&self, reason: &str) {
        self.0.aborts.borrow_mut().push(reason.to_owned());
        if self.0.reason.borrow().is_none() {
            *self.0.reason.borrow_mut() = Some(reason.to_owned());
        }
        self.0.inner.fire();
    }
}

/// Hooks whose `on_error` answers from `script` (then `fallback`), recording every `ErrorInfo`;
/// optionally observing `afterLLM`.
pub struct OnErrorHooks {
    pub script: RefCell<VecDeque<Option<bool>>>,
    pub fallback: Option<bool>,
    pub seen: RefCell<Vec<ErrorInfo>>,
}

impl OnErrorHooks {
    /// Always answers `answer` (`Some(true)` retry, `Some(false)` fail, `None` default).
    pub fn always(answer: Option<bool>) -> Rc<Self> {
        Self::scripted(Vec::new(), answer)
    }

    pub fn scripted(script: Vec<Option<bool>>, fallback: Option<bool>) -> Rc<Self> {
        Rc::new(OnErrorHooks {
            script: RefCell::new(script.into()),
            fallback,
            seen: RefCell::new(Vec::new()),
        })
    }

    pub fn seen(&self) -> Vec<ErrorInfo> {
        self.seen.borrow().clone()
    }
}

impl Hooks for OnErrorHooks {
    fn on_error(&self, info: &ErrorInfo) -> Option<bool> {
        self.seen.borrow_mut().push(info.clone());
        self.script
            .borrow_mut()
            .pop_front()
            .unwrap_or(self.fallback)
    }
    fn has_body_transform(&self) -> bool {
        true
    }
    fn body_transform(&self, body: Value) -> Result<Value, String> {
        Ok(body)
    }
}
