//! What the core needs from its host, as traits. The wasm glue implements them over `fetch`,
//! `setTimeout`, `AbortSignal` and `crypto`; host tests implement them with fakes.

use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

/// A boxed future that need not be `Send` (futures are never `Send` on wasm).
pub type LocalBoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// A cancellation signal (an `AbortSignal` in JS).
///
/// ```
/// # use toolnexus::core::host::{Cancel, LocalBoxFuture};
/// struct Never;
/// impl Cancel for Never {
///     fn is_aborted(&self) -> bool { false }
///     fn reason(&self) -> String { String::new() }
///     fn wait(&self) -> LocalBoxFuture<'static, ()> { Box::pin(std::future::pending()) }
///     fn as_any(&self) -> &dyn std::any::Any { self }
/// }
/// assert!(!Never.is_aborted());
/// ```
pub trait Cancel {
    /// Whether the signal has fired.
    fn is_aborted(&self) -> bool;
    /// A short human description of why it fired (empty when unknown).
    fn reason(&self) -> String;
    /// Completes when the signal fires (at once when it already has).
    fn wait(&self) -> LocalBoxFuture<'static, ()>;
    /// Lets the host recover its own signal object (the JS `AbortSignal`).
    fn as_any(&self) -> &dyn Any;
}

/// A shared cancellation signal.
pub type Signal = Rc<dyn Cancel>;

/// Time, as the host keeps it.
///
/// ```
/// # use toolnexus::core::host::{Clock, LocalBoxFuture};
/// struct Frozen;
/// impl Clock for Frozen {
///     fn now_ms(&self) -> f64 { 0.0 }
///     fn sleep(&self, _ms: f64) -> LocalBoxFuture<'static, ()> { Box::pin(async {}) }
/// }
/// assert_eq!(Frozen.now_ms(), 0.0);
/// ```
pub trait Clock {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> f64;
    /// Completes after `ms` milliseconds.
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'static, ()>;
}

/// One HTTP request; the body, when there is one, is already its final text.
#[derive(Clone)]
pub struct HttpRequest {
    /// `GET`, `POST`, `DELETE`, …
    pub method: String,
    /// The full URL.
    pub url: String,
    /// Request headers, in order (later ones win on the same name).
    pub headers: Vec<(String, String)>,
    /// The body; `None` for requests that have none (a `GET` must not).
    pub body: Option<String>,
    /// Aborts the request.
    pub signal: Option<Signal>,
}

/// A complete response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    /// The HTTP status.
    pub status: u16,
    /// The `Retry-After` header, when present.
    pub retry_after: Option<String>,
    /// The body text.
    pub body: String,
}

/// Why a request produced no response.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpError {
    /// The request's signal fired.
    #[error("aborted: {0}")]
    Aborted(String),
    /// The network failed (connection refused, reset, DNS, CORS in a browser, …).
    #[error("{0}")]
    Network(String),
    /// The transport refused the request for good (an in-process model that failed): never
    /// retried.
    #[error("{0}")]
    Refused(String),
}

/// The transport: `fetch` on the JS platform, a scripted fake in host tests.
///
/// ```
/// use toolnexus::core::host::{Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture};
/// struct Always200;
/// impl Http for Always200 {
///     fn send(&self, _r: HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
///         Box::pin(async { Ok(HttpResponse { status: 200, retry_after: None, body: "{}".into() }) })
///     }
/// }
/// ```
pub trait Http {
    /// Sends one request and reads the whole body.
    fn send(
        &self,
        request: HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>>;
}
