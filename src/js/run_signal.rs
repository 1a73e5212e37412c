//! A run's own `AbortController`: it follows the caller's `signal`, and the core can fire it
//! (its deadline passed, or a stream's consumer stopped), which aborts the in-flight `fetch`
//! and reaches every tool as `ctx.signal`.

use js_sys::Function;
use std::any::Any;
use wasm_bindgen::prelude::*;

use super::convert::get;
use super::host::{set, JsSignal};
use crate::core::host::{Cancel, LocalBoxFuture};

/// The run's signal (see the module doc).
pub struct RunSignal {
    controller: JsValue,
    inner: JsSignal,
    follow: Option<(JsValue, Closure<dyn FnMut()>)>,
}

impl RunSignal {
    /// A controller that follows `caller` (an `AbortSignal`, when given); `None` when the
    /// runtime has no `AbortController`.
    pub fn new(caller: Option<&JsSignal>) -> Option<RunSignal> {
        let constructor = get(&js_sys::global(), "AbortController")
            .dyn_into::<Function>()
            .ok()?;
        let controller = super::convert::construct(&constructor, &[]).ok()?;
        let inner = JsSignal::from_js(&get(&controller, "signal"))?;
        let mut run = RunSignal {
            controller,
            inner,
            follow: None,
        };
        if let Some(caller) = caller {
            let source = caller.js().clone();
            if caller.is_aborted() {
                run.fire(&get(&source, "reason"));
            } else {
                let (controller, from) = (run.controller.clone(), source.clone());
                let listener = Closure::<dyn FnMut()>::new(move || {
                    abort_with(&controller, &get(&from, "reason"))
                });
                if let Ok(add) = get(&source, "addEventListener").dyn_into::<Function>() {
                    let _ = add.call2(&source, &"abort".into(), listener.as_ref());
                }
                run.follow = Some((source, listener));
            }
        }
        Some(run)
    }

    fn fire(&self, reason: &JsValue) {
        abort_with(&self.controller, reason);
    }
}

fn abort_with(controller: &JsValue, reason: &JsValue) {
    if let Ok(abort) = get(controller, "abort").dyn_into::<Function>() {
        let _ = abort.call1(controller, reason);
    }
}

impl Drop for RunSignal {
    fn drop(&mut self) {
        if let Some((source, listener)) = self.follow.take() {
            if let Ok(remove) = get(&source, "removeEventListener").dyn_into::<Function>() {
                let _ = remove.call2(&source, &"abort".into(), listener.as_ref());
            }
        }
    }
}

impl Cancel for RunSignal {
    fn is_aborted(&self) -> bool {
        self.inner.is_aborted()
    }

    fn reason(&self) -> String {
        self.inner.reason()
    }

    fn wait(&self) -> LocalBoxFuture<'static, ()> {
        self.inner.wait()
    }

    /// The inner `JsSignal`, so `fetch` and tools receive the controller's `AbortSignal`.
    fn as_any(&self) -> &dyn Any {
        self.inner.as_any()
    }

    fn abort(&self, reason: &str) {
        let error: JsValue = js_sys::Error::new(reason).into();
        set(&error, "name", &"TimeoutError".into());
        self.fire(&error);
    }
}
