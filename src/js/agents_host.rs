//! The agent runtime's host seams in the page: background turns as `spawn_local` tasks, a
//! JavaScript clock object (`{now(), setTimeout(fn, ms) → cancel}`, the reference's `Clock`)
//! as the core's [`Clock`], a definition's `onSpawn` / `onClose` as the core's callbacks, and
//! its `completion.verify` as the core's [`Verify`].

use js_sys::Function;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::convert::{error_text, get, js_string, record_to_js, type_name};
use super::promise::{resolver, settle, Guarded};
use super::run_result::run_result;
use crate::core::agents::completion::{Verdict, Verify};
use crate::core::agents::data::{CloseReason, HandleView};
use crate::core::agents::registry::{OnClose, OnSpawn};
use crate::core::client::result::RunResult;
use crate::core::host::{Clock, LocalBoxFuture, Spawn};

fn warn(message: &str) {
    web_sys::console::warn_1(&JsValue::from_str(&format!("[toolnexus] {message}")));
}

/// Starts each background turn as a task of the page's microtask queue.
///
/// ```ignore
/// let options = RuntimeOptions::new(registry, http, clock, Rc::new(LocalSpawn));
/// ```
pub struct LocalSpawn;

impl Spawn for LocalSpawn {
    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        wasm_bindgen_futures::spawn_local(task);
    }
}

/// A JavaScript clock object: `now()` in milliseconds and `setTimeout(fn, ms)` returning a
/// cancel function (a virtual clock in tests, `agents.systemClock` otherwise).
///
/// ```js
/// const clock = { now: () => t, setTimeout: (fn, ms) => { timers.push({ at: t + ms, fn }); return () => {} } }
/// ```
pub struct JsAgentClock {
    clock: JsValue,
    now: Function,
    set_timeout: Function,
}

impl JsAgentClock {
    /// The clock object, when it has both functions; else what is wrong with it.
    pub fn new(clock: JsValue) -> Result<Self, String> {
        let now = get(&clock, "now").dyn_into::<Function>();
        let set_timeout = get(&clock, "setTimeout").dyn_into::<Function>();
        match (now, set_timeout) {
            (Ok(now), Ok(set_timeout)) => Ok(JsAgentClock {
                clock,
                now,
                set_timeout,
            }),
            _ => Err("clock must have now() and setTimeout(fn, ms) functions".into()),
        }
    }
}

impl Clock for JsAgentClock {
    fn now_ms(&self) -> f64 {
        match self.now.call0(&self.clock).map(|v| v.as_f64()) {
            Ok(Some(ms)) => ms,
            Ok(None) => {
                warn("clock.now() did not return a number; 0 is used");
                0.0
            }
            Err(thrown) => {
                warn(&format!("clock.now() threw: {}", error_text(&thrown)));
                0.0
            }
        }
    }

    fn random(&self) -> f64 {
        js_sys::Math::random()
    }

    /// A timer of the clock; dropping the future cancels it. A clock that throws or has no
    /// cancel function still never hangs the sleeper: a throw ends the sleep at once.
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'static, ()> {
        let (promise, resolve) = resolver();
        let Some(resolve) = resolve else {
            return Box::pin(async {});
        };
        let cancel =
            match self
                .set_timeout
                .call2(&self.clock, &resolve, &JsValue::from_f64(ms.max(0.0)))
            {
                Ok(cancel) => cancel.dyn_into::<Function>().ok(),
                Err(thrown) => {
                    warn(&format!("clock.setTimeout threw: {}", error_text(&thrown)));
                    return Box::pin(async {});
                }
            };
        let settle = resolve.clone();
        let cleanup = Box::new(move || {
            if let Some(cancel) = cancel {
                let _ = cancel.call0(&JsValue::UNDEFINED);
            }
            // A JsFuture's callbacks are freed only when its promise settles.
            let _ = settle.call0(&JsValue::UNDEFINED);
        });
        Box::pin(Guarded {
            promise: promise.into(),
            cleanup: Some(cleanup),
        })
    }
}

/// `onSpawn(view)`: called when a handle is spawned; a throw is reported on the console.
///
/// ```js
/// registry.explore.onSpawn = (view) => console.log(`${view.id} spawned`) // the facade hands a Handle
/// ```
pub fn on_spawn(f: Function) -> OnSpawn {
    Rc::new(move |view: &HandleView| {
        let called = record_to_js(view).and_then(|v| f.call1(&JsValue::UNDEFINED, &v));
        if let Err(thrown) = called {
            warn(&format!("onSpawn threw: {}", error_text(&thrown)));
        }
    })
}

/// `onClose(view, reason)`, awaited before the handle's final state is kept; a throw or a
/// rejection is reported on the console (the close goes on).
///
/// ```js
/// registry.explore.onClose = async (view, reason) => await saveNotes(view.id, reason)
/// ```
pub fn on_close(f: Function) -> OnClose {
    Rc::new(move |view: &HandleView, reason: CloseReason| {
        let called = record_to_js(view)
            .and_then(|v| f.call2(&JsValue::UNDEFINED, &v, &reason.as_str().into()));
        Box::pin(async move {
            let settled = match called {
                Ok(returned) => settle(returned).await.map(|_| ()),
                Err(thrown) => Err(thrown),
            };
            if let Err(thrown) = settled {
                warn(&format!("onClose threw: {}", error_text(&thrown)));
            }
        })
    })
}

/// `completion.verify(result) → {ok, reason?}` (or a Promise of it), handed the turn's result
/// as the `RunResult` object `client.run` resolves to, its `toolCalls` those of every attempt.
/// A throw or a rejection (`completion.verify threw: <message>`) or a verdict that is not an
/// object (`completion.verify returned undefined, not a verdict {ok, reason?}`) ends the turn as
/// an `error` result.
///
/// ```js
/// registry.writer.completion = { verify: agents.allTodosDone, maxAttempts: 3 }
/// ```
pub struct JsVerify(pub Function);

impl Verify for JsVerify {
    fn verify(&self, result: &RunResult) -> LocalBoxFuture<'static, Result<Verdict, String>> {
        let called = self.0.call1(&JsValue::UNDEFINED, &run_result(result, None));
        Box::pin(async move {
            let verdict = match called {
                Ok(returned) => settle(returned).await,
                Err(thrown) => Err(thrown),
            }
            .map_err(|thrown| format!("threw: {}", error_text(&thrown)))?;
            if !verdict.is_object() {
                return Err(format!(
                    "returned {}, not a verdict {{ok, reason?}}",
                    type_name(&verdict)
                ));
            }
            let reason = get(&verdict, "reason");
            Ok(Verdict {
                ok: get(&verdict, "ok").is_truthy(),
                reason: if reason.is_undefined() || reason.is_null() {
                    None
                } else {
                    Some(reason.as_string().unwrap_or_else(|| js_string(&reason)))
                },
            })
        })
    }
}
