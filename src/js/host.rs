//! The core's host traits over the JS platform: `Date.now` + `setTimeout` as the clock, an
//! `AbortSignal` as the cancellation signal, `crypto.getRandomValues` (through getrandom) for
//! ids. Every timer and listener is removed when its future is dropped, so nothing keeps a
//! Node process alive.

use js_sys::Function;
use std::any::Any;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

pub use super::convert::set;
use super::convert::{error_text, get, js_error};
use super::promise::{resolver, Guarded};
use crate::core::host::{Cancel, Clock, LocalBoxFuture};

fn global_fn(name: &str) -> Option<Function> {
    get(&js_sys::global(), name).dyn_into::<Function>().ok()
}

/// `Date.now()` and `setTimeout`.
#[derive(Clone, Copy, Default)]
pub struct JsClock;

impl Clock for JsClock {
    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    fn random(&self) -> f64 {
        js_sys::Math::random()
    }

    /// The core checks the format ([`DateTime`](crate::core::time::DateTime)); `Date.parse`
    /// names the instant, a local time in the runtime's own time zone.
    fn date_ms(&self, text: &str) -> Option<f64> {
        crate::core::time::DateTime::parse(text)?;
        let ms = js_sys::Date::parse(text);
        (!ms.is_nan()).then_some(ms)
    }

    fn sleep(&self, ms: f64) -> LocalBoxFuture<'static, ()> {
        let (promise, resolve) = resolver();
        let (Some(resolve), Some(set_timeout)) = (resolve, global_fn("setTimeout")) else {
            return Box::pin(std::future::pending());
        };
        let global = js_sys::global();
        let handle = set_timeout
            .call2(&global, &resolve, &JsValue::from_f64(ms.max(0.0)))
            .unwrap_or(JsValue::UNDEFINED);
        let settle = resolve.clone();
        let cleanup = Box::new(move || {
            if let Some(clear) = global_fn("clearTimeout") {
                let _ = clear.call1(&js_sys::global(), &handle);
            }
            // Settle the abandoned promise: a JsFuture's callbacks are freed only when its
            // promise settles, so an unsettled one would leak them on every call.
            let _ = settle.call0(&JsValue::UNDEFINED);
        });
        Box::pin(Guarded {
            promise: promise.into(),
            cleanup: Some(cleanup),
        })
    }
}

/// A JS `AbortSignal` seen through the core's [`Cancel`] trait.
pub struct JsSignal {
    signal: JsValue,
}

impl JsSignal {
    /// Wraps `value` when it looks like an `AbortSignal` (`aborted` and `addEventListener`).
    pub fn from_js(value: &JsValue) -> Option<Self> {
        let looks_right = get(value, "aborted").as_bool().is_some()
            && get(value, "addEventListener").is_function();
        looks_right.then(|| JsSignal {
            signal: value.clone(),
        })
    }

    /// The JS signal itself.
    pub fn js(&self) -> &JsValue {
        &self.signal
    }
}

#[wasm_bindgen]
extern "C" {
    /// Anything with an `aborted` property (an `AbortSignal`, or a look-alike).
    type SignalLike;
    /// `signal.aborted`, one crossing; a throwing getter is an `Err`.
    #[wasm_bindgen(method, getter, structural, catch)]
    fn aborted(this: &SignalLike) -> Result<JsValue, JsValue>;
}

impl Cancel for JsSignal {
    fn is_aborted(&self) -> bool {
        self.signal
            .unchecked_ref::<SignalLike>()
            .aborted()
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
    }

    fn reason(&self) -> String {
        let reason = get(&self.signal, "reason");
        if reason.is_undefined() {
            String::new()
        } else {
            error_text(&reason)
        }
    }

    fn wait(&self) -> LocalBoxFuture<'static, ()> {
        if self.is_aborted() {
            return Box::pin(async {});
        }
        let (promise, resolve) = resolver();
        let Some(resolve) = resolve else {
            return Box::pin(std::future::pending());
        };
        let add = get(&self.signal, "addEventListener");
        if let Ok(add) = add.dyn_into::<Function>() {
            let _ = add.call2(&self.signal, &"abort".into(), &resolve);
        }
        let signal = self.signal.clone();
        let cleanup = Box::new(move || {
            if let Ok(remove) = get(&signal, "removeEventListener").dyn_into::<Function>() {
                let _ = remove.call2(&signal, &"abort".into(), &resolve);
            }
            // As in `sleep`: settle the abandoned promise so its callbacks are freed.
            let _ = resolve.call0(&JsValue::UNDEFINED);
        });
        Box::pin(Guarded {
            promise: promise.into(),
            cleanup: Some(cleanup),
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `N` random bytes in hex, from `crypto.getRandomValues` through getrandom (the same source
/// as the hash seed of `core::hashed`); `None` in a runtime without it.
fn random_hex<const N: usize>() -> Option<String> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).ok()?;
    Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// What a runtime without `crypto.getRandomValues` (Node before 19) gets instead of an id:
/// the coded error `unsupported`, thrown to the JS caller. An id another run or instance could
/// also make (a counter, `Math.random`) would match the wrong request or object silently.
fn no_random_source() -> ! {
    wasm_bindgen::throw_val(js_error(
        "unsupported",
        "toolnexus-wasm: this runtime has no crypto.getRandomValues (every browser, Node 19 or \
         later and Deno have it), so no random id can be made",
    ))
}

/// A random id such as `pnd-3f9a0c1d5e7b2a4c`, from `crypto.getRandomValues` (every browser,
/// Node ≥ 19, Deno); without it, throws the coded error `unsupported`.
pub fn random_id(prefix: &str) -> String {
    match random_hex::<8>() {
        Some(hex) => format!("{prefix}-{hex}"),
        None => no_random_source(),
    }
}

/// Reads `ctx.signal` from a JS context object; anything that is not an `AbortSignal` is an
/// error, so a typo never silently disables cancellation.
pub fn signal_from(ctx: &JsValue) -> Result<Option<Rc<JsSignal>>, String> {
    signal_of(&get(ctx, "signal"))
}

/// The value of `ctx.signal`, already read, as an [`JsSignal`]; `None` when absent.
pub fn signal_of(value: &JsValue) -> Result<Option<Rc<JsSignal>>, String> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    JsSignal::from_js(value)
        .map(|s| Some(Rc::new(s)))
        .ok_or_else(|| "ctx.signal must be an AbortSignal".to_owned())
}

/// The `signal` option of a loading export (`createToolkit`, `loadMcp`, `listMcpTools`):
/// `None` when absent, the coded error `invalid_options` when it is not an `AbortSignal`.
pub fn signal_option(options: &JsValue, what: &str) -> Result<Option<Rc<JsSignal>>, JsValue> {
    signal_of(&get(options, "signal")).map_err(|_| {
        js_error(
            "invalid_options",
            &format!("{what}: signal must be an AbortSignal"),
        )
    })
}

/// Runs `work` until it finishes or `signal` fires, whichever is first: an already-aborted
/// signal never starts it, and a signal that fires drops it (which ends what it started: a
/// dropped server process is killed). The abort is the coded error `aborted`.
pub async fn unless_aborted<T>(
    work: impl std::future::Future<Output = T>,
    signal: Option<Rc<JsSignal>>,
    what: &str,
) -> Result<T, JsValue> {
    let aborted = |signal: &JsSignal| {
        let reason = signal.reason();
        let why = if reason.is_empty() {
            String::new()
        } else {
            format!(": {reason}")
        };
        js_error("aborted", &format!("{what} was aborted{why}"))
    };
    let Some(signal) = signal else {
        return Ok(work.await);
    };
    if signal.is_aborted() {
        return Err(aborted(&signal));
    }
    let work = std::pin::pin!(work);
    match futures_util::future::select(work, signal.wait()).await {
        futures_util::future::Either::Left((done, _)) => Ok(done),
        futures_util::future::Either::Right(((), _)) => Err(aborted(&signal)),
    }
}

thread_local! {
    /// This instance's prefix, from `crypto.getRandomValues` (`None` without it). Node loads
    /// its web crypto module on the first read of `globalThis.crypto` (1-5 ms, once per
    /// process), which the hash seed of `core::hashed` pays too.
    static INSTANCE: Option<String> = random_hex::<8>().map(|hex| format!("inst-{hex}"));
}

/// A key for an object of this module instance: a random instance prefix plus `id`, so a key
/// made by another instance of the module (ESM and CommonJS side by side) never matches.
/// Without `crypto.getRandomValues`, throws the coded error `unsupported`.
pub fn instance_key(id: u32) -> String {
    match INSTANCE.with(Clone::clone) {
        Some(instance) => format!("{instance}:{id}"),
        None => no_random_source(),
    }
}

/// The `id` of a key made by [`instance_key`] in this instance.
pub fn key_id(key: &JsValue) -> Option<u32> {
    let key = key.as_string()?;
    let (instance, id) = key.rsplit_once(':')?;
    INSTANCE.with(|own| {
        (own.as_deref() == Some(instance))
            .then(|| id.parse().ok())
            .flatten()
    })
}
