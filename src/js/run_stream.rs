//! `client.stream()`: a run whose events a consumer pulls with `for await`. The run is spawned
//! at once; events queue until pulled; `close()` (a `break` out of the loop) aborts the run and
//! its in-flight request.

use js_sys::{Function, Promise};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::convert::record_to_js;
use super::promise::{made, wait};
use crate::core::client::telemetry::{RunEvents, StreamEvent};
use crate::core::host::Signal;

#[derive(Default)]
struct Queue {
    events: VecDeque<JsValue>,
    /// `Some` once the run is over: `Ok` ended normally, `Err` holds the error still to throw.
    end: Option<Result<(), JsValue>>,
    waiting: Option<(Function, Function)>,
    /// Resolved when the consumer, having taken every queued event, asks for the next one.
    drained: Vec<Function>,
}

impl Queue {
    fn release_drained(&mut self) {
        for resolve in self.drained.drain(..) {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    }
}

/// The producer side, given to the core as its event sink.
#[derive(Clone, Default)]
pub struct StreamSink(Rc<RefCell<Queue>>);

#[wasm_bindgen(module = "/src/js/shim.js")]
extern "C" {
    /// See `shim.js`: `{type: "text", delta}` in one crossing.
    #[wasm_bindgen(js_name = textEvent)]
    fn shim_text_event(delta: &str) -> JsValue;

    /// See `shim.js`: `{value, done}` in one crossing.
    #[wasm_bindgen(js_name = iteratorStep)]
    fn shim_iterator_step(value: &JsValue, done: bool) -> JsValue;
}

fn step(value: JsValue, done: bool) -> JsValue {
    shim_iterator_step(&value, done)
}

impl StreamSink {
    fn push(&self, event: JsValue) {
        if self.0.borrow().end.is_some() {
            return;
        }
        let waiting = self.0.borrow_mut().waiting.take();
        match waiting {
            Some((resolve, _)) => {
                let _ = resolve.call1(&JsValue::UNDEFINED, &step(event, false));
            }
            None => self.0.borrow_mut().events.push_back(event),
        }
    }

    /// Ends the stream: normally (with the `done` event), or with the error the consumer's
    /// next pull throws. A stream already ended (closed by its consumer) stays as it is.
    pub fn end(&self, outcome: Result<JsValue, JsValue>) {
        if self.0.borrow().end.is_some() {
            return;
        }
        match outcome {
            Ok(done_event) => {
                self.push(done_event);
                self.0.borrow_mut().end = Some(Ok(()));
            }
            Err(error) => {
                let waiting = self.0.borrow_mut().waiting.take();
                match waiting {
                    Some((_, reject)) => {
                        self.0.borrow_mut().end = Some(Ok(()));
                        let _ = reject.call1(&JsValue::UNDEFINED, &error);
                    }
                    None => self.0.borrow_mut().end = Some(Err(error)),
                }
            }
        }
    }
}

impl RunEvents for StreamSink {
    fn emit(&self, event: StreamEvent) {
        // Text deltas are most of a stream's events: made without JSON in between.
        let value = match &event {
            StreamEvent::Text { delta } => Ok(shim_text_event(delta)),
            _ => record_to_js(&event),
        };
        match value {
            Ok(value) => self.push(value),
            // The consumer's next pull throws it; nothing is skipped silently.
            Err(error) => self.end(Err(error)),
        }
    }

    fn delivered(&self) -> crate::core::host::LocalBoxFuture<'static, ()> {
        if self.0.borrow().end.is_some() {
            return Box::pin(async {});
        }
        let queue = self.0.clone();
        let promise = made(|resolve, _| queue.borrow_mut().drained.push(resolve));
        Box::pin(async move {
            let _ = wait(promise).await;
        })
    }
}

/// The consumer side: an async iterator's `next` and `return` (the package's `stream()` wraps
/// it in a `for await`-able object).
#[wasm_bindgen]
pub struct RunStream {
    sink: StreamSink,
    signal: Option<Signal>,
}

impl RunStream {
    /// Pairs a sink with the run's signal (fired by `close`).
    pub fn new(sink: StreamSink, signal: Option<Signal>) -> Self {
        RunStream { sink, signal }
    }
}

#[wasm_bindgen]
impl RunStream {
    /// The next event: `{value, done: false}`, then `{done: true}` after `done`; rejects with
    /// the run's error when it failed.
    #[wasm_bindgen(unchecked_return_type = "Promise<IteratorResult<StreamEvent, undefined>>")]
    pub fn next(&self) -> Promise {
        let mut queue = self.sink.0.borrow_mut();
        if queue.events.is_empty() {
            queue.release_drained();
        }
        if let Some(event) = queue.events.pop_front() {
            return Promise::resolve(&step(event, false));
        }
        match queue.end.take() {
            Some(Err(error)) => {
                queue.end = Some(Ok(()));
                return Promise::reject(&error);
            }
            Some(Ok(())) => {
                queue.end = Some(Ok(()));
                return Promise::resolve(&step(JsValue::UNDEFINED, true));
            }
            None => {}
        }
        drop(queue);
        let sink = self.sink.clone();
        made(|resolve, reject| {
            sink.0.borrow_mut().waiting = Some((resolve, reject));
        })
    }

    /// Stops the run (aborting its request) and ends the stream.
    #[wasm_bindgen(unchecked_return_type = "Promise<IteratorResult<StreamEvent, undefined>>")]
    pub fn close(&self) -> Promise {
        if let Some(signal) = &self.signal {
            signal.abort("the stream was closed by its consumer");
        }
        let mut queue = self.sink.0.borrow_mut();
        queue.events.clear();
        queue.end = Some(Ok(()));
        queue.release_drained();
        if let Some((resolve, _)) = queue.waiting.take() {
            let _ = resolve.call1(&JsValue::UNDEFINED, &step(JsValue::UNDEFINED, true));
        }
        Promise::resolve(&step(JsValue::UNDEFINED, true))
    }
}
