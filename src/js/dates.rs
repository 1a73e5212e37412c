//! Date-times as the JS platform reads them: the core checks the format (a request's
//! `expiresAt` is an ISO 8601 date-time, the ECMAScript Date Time String Format, the same in
//! every runtime) and `Date.parse` names the instant, a local time in the runtime's own time
//! zone.

use crate::core::host::{Clock, LocalBoxFuture};
use crate::core::time::DateTime;

use super::host::JsClock;

/// Milliseconds since the epoch of `text` when it is an ISO 8601 date-time that `Date.parse`
/// reads; `None` for anything else (the legacy forms `Date.parse` also reads, such as
/// `"Jan 1 2030"` or `"2030/01/01"`, vary between engines and are not date-times here).
pub fn date_ms(text: &str) -> Option<f64> {
    DateTime::parse(text)?;
    let ms = js_sys::Date::parse(text);
    (!ms.is_nan()).then_some(ms)
}

/// A run's clock: [`JsClock`], reading `expiresAt` with [`date_ms`].
#[derive(Clone, Copy, Default)]
pub struct JsRunClock;

impl Clock for JsRunClock {
    fn now_ms(&self) -> f64 {
        JsClock.now_ms()
    }

    fn random(&self) -> f64 {
        JsClock.random()
    }

    fn sleep(&self, ms: f64) -> LocalBoxFuture<'static, ()> {
        JsClock.sleep(ms)
    }

    fn date_ms(&self, text: &str) -> Option<f64> {
        date_ms(text)
    }
}
