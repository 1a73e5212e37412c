//! `fetch` whose requests are aborted when the call gives up on them: each request gets its own
//! `AbortController` (combined with the caller's signal where `AbortSignal.any` exists), aborted
//! when the request's future is dropped before it finished (a tool's timeout won the race, or
//! the call was cancelled). `httpTool` and the `webfetch` built-in send through it, so a timed
//! out request does not stay open on the server.

use js_sys::{Array, Function};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::convert::get;
use super::host::JsSignal;
use super::http::FetchHttp;
use crate::core::host::{Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture, Signal};

/// Aborts its controller when dropped before the request finished.
struct AbortOnDrop {
    controller: JsValue,
    done: bool,
}

impl AbortOnDrop {
    /// The request finished: nothing to abort any more.
    fn finish(&mut self) {
        self.done = true;
    }
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        if let Ok(abort) = get(&self.controller, "abort").dyn_into::<Function>() {
            let _ = abort.call0(&self.controller);
        }
    }
}

/// `fetch`, with each request on its own `AbortController` (combined with the caller's signal
/// where `AbortSignal.any` exists), aborted when the call is dropped.
pub struct AbortingFetch(pub FetchHttp);

fn new_controller() -> Option<JsValue> {
    let ctor = get(&js_sys::global(), "AbortController")
        .dyn_into::<Function>()
        .ok()?;
    super::convert::construct(&ctor, &[]).ok()
}

/// `AbortSignal.any([a, b])`, or `a` alone where the runtime lacks it.
fn combined(own: JsValue, caller: Option<&Signal>) -> JsValue {
    let caller = caller.and_then(|s| {
        s.as_any()
            .downcast_ref::<JsSignal>()
            .map(|s| s.js().clone())
    });
    let Some(caller) = caller else { return own };
    let class = get(&js_sys::global(), "AbortSignal");
    let any = get(&class, "any").dyn_into::<Function>();
    let both: Array = [own.clone(), caller].iter().collect();
    any.and_then(|f| f.call1(&class, &both)).unwrap_or(own)
}

impl Http for AbortingFetch {
    fn send(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        let Some(controller) = new_controller() else {
            return self.0.send(request);
        };
        let signal = combined(get(&controller, "signal"), request.signal.as_ref());
        let mut guard = AbortOnDrop {
            controller,
            done: false,
        };
        // A tool's request (small): copied to carry the controller's signal instead.
        let sent = match JsSignal::from_js(&signal) {
            Some(signal) => self.0.send(&HttpRequest {
                signal: Some(Rc::new(signal)),
                ..request.clone()
            }),
            None => self.0.send(request),
        };
        Box::pin(async move {
            let response = sent.await;
            guard.finish();
            response
        })
    }
}
