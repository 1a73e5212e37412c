//! Futures and Promises across the boundary: [`settle`] turns whatever a JS callback gave back
//! into a Rust future (a synchronous throw and a rejected Promise are the same outcome,
//! `Err(thrown value)`), and [`promise`] turns an exported method's future into its Promise.
//! A promise the module makes (a timer, an abort wait, a stream's next event) is made here too
//! ([`resolver`], [`made`]), and awaited through [`wait`] or [`Guarded`]. The shim's own
//! promises on the hot path (each fetch, each asynchronous tool) never reach here: they settle
//! numbered slots instead (see [`super::slot`]).

use js_sys::{Function, Promise};
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::convert::get;

/// Awaits `value` when it is a thenable; returns it as it is otherwise.
pub async fn settle(value: JsValue) -> Result<JsValue, JsValue> {
    if get(&value, "then").is_function() {
        JsFuture::from(Promise::resolve(&value)).await
    } else {
        Ok(value)
    }
}

/// Calls `f` with `this` and two arguments, then settles its result.
pub async fn call2(
    f: &Function,
    this: &JsValue,
    a: &JsValue,
    b: &JsValue,
) -> Result<JsValue, JsValue> {
    let returned = f.call2(this, a, b)?;
    settle(returned).await
}

/// The Promise of an exported async method: its future runs as a task and settles the Promise.
/// Every export goes through one boxed instantiation of the task machinery, instead of one per
/// future type (the module carries the polling glue once): an export returns
/// `promise(async move { … Ok(value) })`.
pub fn promise(
    future: impl std::future::Future<Output = Result<JsValue, JsValue>> + 'static,
) -> Promise {
    spawn(Box::pin(future))
}

fn spawn(future: crate::core::host::LocalBoxFuture<'static, Result<JsValue, JsValue>>) -> Promise {
    wasm_bindgen_futures::future_to_promise(future)
}

/// A promise whose `resolve` and `reject` `start` receives (`new Promise(start)`).
pub fn made(mut start: impl FnMut(Function, Function)) -> Promise {
    Promise::new(&mut |resolve, reject| start(resolve, reject))
}

/// Awaits a promise the module made.
pub async fn wait(promise: Promise) -> Result<JsValue, JsValue> {
    JsFuture::from(promise).await
}

/// A JS promise plus the clean-up to run if it is dropped before it settles.
pub struct Guarded {
    /// What is awaited.
    pub promise: JsFuture,
    /// Runs when the future is dropped unsettled.
    pub cleanup: Option<Box<dyn FnOnce()>>,
}

impl Future for Guarded {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match Pin::new(&mut self.promise).poll(cx) {
            Poll::Ready(_) => {
                self.cleanup = None;
                Poll::Ready(())
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        if let Some(cleanup) = self.cleanup.take() {
            cleanup();
        }
    }
}

/// Builds a promise and keeps its `resolve` function for the caller.
pub fn resolver() -> (Promise, Option<Function>) {
    let slot: Rc<RefCell<Option<Function>>> = Rc::new(RefCell::new(None));
    let inner = slot.clone();
    let promise = Promise::new(&mut |resolve, _reject| {
        *inner.borrow_mut() = Some(resolve);
    });
    let resolve = slot.borrow_mut().take();
    (promise, resolve)
}
