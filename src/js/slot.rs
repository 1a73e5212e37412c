//! Awaiting a promise the shim made without wasm-bindgen closures: the shim settles a numbered
//! slot through one callback that every await shares, and the future waiting on the slot
//! wakes. `JsFuture` makes two closures per await, each registered with a
//! `FinalizationRegistry`; on the hot path (each model call, each asynchronous tool) that was a
//! measurable part of a run.
//!
//! A slot's future dropped before its promise settles (an aborted run) leaves the slot
//! abandoned: the late value is dropped and the slot freed when it arrives, so an id is never
//! given to a new await while an old promise may still settle it.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use wasm_bindgen::prelude::*;

enum State {
    Waiting(Option<Waker>),
    Settled(JsValue),
    Abandoned,
}

#[derive(Default)]
struct Slots {
    states: Vec<Option<State>>,
    free: Vec<u32>,
}

impl Slots {
    fn take(&mut self) -> u32 {
        match self.free.pop() {
            Some(id) => {
                if let Some(state) = self.states.get_mut(id as usize) {
                    *state = Some(State::Waiting(None));
                }
                id
            }
            None => {
                self.states.push(Some(State::Waiting(None)));
                (self.states.len() - 1) as u32
            }
        }
    }

    fn release(&mut self, id: u32) {
        if let Some(state) = self.states.get_mut(id as usize) {
            *state = None;
            self.free.push(id);
        }
    }
}

thread_local! {
    static SLOTS: RefCell<Slots> = RefCell::new(Slots::default());
    /// `(id, value) => …`: settles slot `id`; made once, kept for the module's lifetime.
    static SETTLE: js_sys::Function = {
        let closure = Closure::<dyn Fn(u32, JsValue)>::new(settle);
        let function = closure.as_ref().unchecked_ref::<js_sys::Function>().clone();
        closure.forget();
        function
    };
}

/// Gives slot `id` its value and wakes its future; a value for an abandoned slot is dropped.
fn settle(id: u32, value: JsValue) {
    let waker = SLOTS.with(|slots| {
        let mut slots = slots.borrow_mut();
        let state = slots.states.get_mut(id as usize)?;
        match state.take() {
            Some(State::Waiting(waker)) => {
                *state = Some(State::Settled(value));
                waker
            }
            Some(State::Abandoned) => {
                slots.release(id);
                None
            }
            // Settled twice (the shim never does): the first value stands.
            other => {
                *state = other;
                None
            }
        }
    });
    if let Some(waker) = waker {
        waker.wake();
    }
}

/// One await of a shim promise: pass [`Slot::id`] and [`settler`] to the shim, then await the
/// slot for the value the shim settles it with.
///
/// ```ignore
/// let slot = Slot::new();
/// shim_fetch_text(…, &settler(), slot.id());
/// let outcome: JsValue = slot.await;
/// ```
pub struct Slot {
    id: u32,
    done: bool,
}

impl Slot {
    /// A fresh slot, waiting.
    pub fn new() -> Self {
        let id = SLOTS.with(|slots| slots.borrow_mut().take());
        Slot { id, done: false }
    }

    /// The number the shim settles.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Gives the slot back without awaiting it: the shim answered at once and will never
    /// settle it.
    pub fn unused(mut self) {
        self.done = true;
        SLOTS.with(|slots| slots.borrow_mut().release(self.id));
    }
}

impl Default for Slot {
    fn default() -> Self {
        Self::new()
    }
}

/// The callback the shim settles a slot with: `settle(id, value)`.
pub fn settler() -> js_sys::Function {
    SETTLE.with(js_sys::Function::clone)
}

impl Future for Slot {
    type Output = JsValue;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<JsValue> {
        let id = self.id;
        let ready = SLOTS.with(|slots| {
            let mut slots = slots.borrow_mut();
            let state = slots.states.get_mut(id as usize)?;
            match state.take() {
                Some(State::Settled(value)) => {
                    slots.release(id);
                    Some(value)
                }
                _ => {
                    *state = Some(State::Waiting(Some(cx.waker().clone())));
                    None
                }
            }
        });
        match ready {
            Some(value) => {
                self.done = true;
                Poll::Ready(value)
            }
            None => Poll::Pending,
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        SLOTS.with(|slots| {
            let mut slots = slots.borrow_mut();
            let settled = matches!(
                slots.states.get(self.id as usize),
                Some(Some(State::Settled(_)))
            );
            if settled {
                slots.release(self.id);
            } else if let Some(state) = slots.states.get_mut(self.id as usize) {
                *state = Some(State::Abandoned);
            }
        });
    }
}
