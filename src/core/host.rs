//! What the core needs from its host, as traits. The wasm glue implements them over `fetch`,
//! `setTimeout`, `AbortSignal` and `crypto`; host tests implement them with fakes.

use std::any::Any;
use std::borrow::Cow;
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
    /// Fires the signal, when the host lets the core do so (a run's own controller): the run
    /// uses it when its deadline passes, so in-flight requests and tools stop too.
    fn abort(&self, _reason: &str) {}
}

/// A shared cancellation signal.
pub type Signal = Rc<dyn Cancel>;

/// Runs a future in the background, to its end, on the host's one thread (the JS host:
/// `spawn_local` on the microtask queue; host tests: a local executor's spawner). The agent
/// runtime (`core::agents`) starts each woken handle's turn through it, so a `wake` returns at
/// once and the turn runs beside its caller.
///
/// ```
/// # use toolnexus::core::host::{LocalBoxFuture, Spawn};
/// # use std::{cell::RefCell, rc::Rc};
/// /// Keeps the futures; a test polls them.
/// struct Queue(RefCell<Vec<LocalBoxFuture<'static, ()>>>);
/// impl Spawn for Queue {
///     fn spawn(&self, task: LocalBoxFuture<'static, ()>) { self.0.borrow_mut().push(task) }
/// }
/// let queue = Queue(RefCell::new(Vec::new()));
/// queue.spawn(Box::pin(async {}));
/// assert_eq!(queue.0.borrow().len(), 1);
/// ```
pub trait Spawn {
    /// Starts `task`; it runs until it completes (it is never dropped half-way by the host).
    fn spawn(&self, task: LocalBoxFuture<'static, ()>);
}

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
    /// A random number in `[0, 1)`, for backoff jitter.
    fn random(&self) -> f64 {
        0.5
    }
    /// Milliseconds since the Unix epoch of `text` when it is a date-time in the ECMAScript
    /// Date Time String Format ([`DateTime`](crate::core::time::DateTime): what a request's
    /// `expiresAt` must be), `None` otherwise. The format is the core's to check; the instant a
    /// local time (a date-time without an offset) names is the host's: the JS host reads it
    /// with `Date.parse`, in its time zone. By default ([`iso_ms`](crate::core::time::iso_ms))
    /// a local time is read as UTC, for a host that keeps no time zone.
    ///
    /// ```
    /// # use toolnexus::core::host::{Clock, LocalBoxFuture};
    /// # struct Frozen;
    /// # impl Clock for Frozen {
    /// #     fn now_ms(&self) -> f64 { 0.0 }
    /// #     fn sleep(&self, _ms: f64) -> LocalBoxFuture<'static, ()> { Box::pin(async {}) }
    /// # }
    /// assert_eq!(Frozen.date_ms("1970-01-01T00:00:01Z"), Some(1000.0));
    /// assert_eq!(Frozen.date_ms("1970-01-01T00:00:01"), Some(1000.0));
    /// assert_eq!(Frozen.date_ms("next Tuesday"), None);
    /// ```
    fn date_ms(&self, text: &str) -> Option<f64> {
        crate::core::time::iso_ms(text)
    }
}

/// Text the host keeps and the core never reads: the items of a long history the host gave as
/// JSON text, which would otherwise be copied into the module and back out with every request.
/// A request body holds [`HostText::MARK`] where the text goes, and the host's [`Http`] puts
/// it there (an `Http` that says [`Http::splices_host_text`]).
///
/// ```
/// # use toolnexus::core::host::HostText;
/// let text = HostText::new(String::from(r#"{"role":"user","content":"hi"}"#));
/// assert_eq!(text.get::<String>().map(String::len), Some(30));
/// ```
#[derive(Clone)]
pub struct HostText(Rc<dyn Any>);

impl HostText {
    /// Where the text goes in a body: a raw NUL, which JSON text never holds (it is always
    /// written `\u0000`), so it cannot be confused with anything the core wrote.
    pub const MARK: char = '\u{0}';

    /// Wraps the host's own value.
    pub fn new<T: Any>(value: T) -> Self {
        HostText(Rc::new(value))
    }

    /// The host's value, when it is a `T`.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.downcast_ref::<T>()
    }
}

impl std::fmt::Debug for HostText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HostText(..)")
    }
}

/// One HTTP request; the body, when there is one, is already its final text (with
/// [`HostText::MARK`] where `splice` goes, when there is one).
#[derive(Clone)]
pub struct HttpRequest {
    /// `GET`, `POST`, `DELETE`, …
    pub method: Cow<'static, str>,
    /// The full URL (shared: a client sends every model call to the same one).
    pub url: Rc<str>,
    /// Request headers, in order (later ones win on the same name); shared, as the URL.
    pub headers: Rc<[(String, String)]>,
    /// The body; `None` for requests that have none (a `GET` must not).
    pub body: Option<String>,
    /// Host text that goes at the body's [`HostText::MARK`]; only ever set for an `Http` that
    /// [splices host text](Http::splices_host_text).
    pub splice: Option<HostText>,
    /// Aborts the request.
    pub signal: Option<Signal>,
}

impl HttpRequest {
    /// The body with its splice put in at the mark, for a host whose [`HostText`] holds a
    /// `String`; the body as it is when there is no splice.
    ///
    /// ```
    /// # use toolnexus::core::host::{HostText, HttpRequest};
    /// let request = HttpRequest { method: "POST".into(), url: "u".into(), headers: vec![].into(),
    ///     body: Some("[\u{0},3]".into()), splice: Some(HostText::new(String::from("1,2"))), signal: None };
    /// assert_eq!(request.spliced_body().as_deref(), Some("[1,2,3]"));
    /// ```
    pub fn spliced_body(&self) -> Option<String> {
        let body = self.body.as_deref()?;
        let text = self.splice.as_ref().and_then(|s| s.get::<String>());
        match (text, body.split_once(HostText::MARK)) {
            (Some(text), Some((before, after))) => Some(format!("{before}{text}{after}")),
            _ => Some(body.to_owned()),
        }
    }
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
///     fn send(&self, _r: &HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
///         Box::pin(async { Ok(HttpResponse { status: 200, retry_after: None, body: "{}".into() }) })
///     }
/// }
/// ```
pub trait Http {
    /// Sends one request and reads the whole body. The request is borrowed: a caller that
    /// retries sends the same one again without copying it (its body may be a long history).
    fn send(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>>;

    /// Sends one request and hands the body over as it arrives. By default the whole body is
    /// read first (right for transports that cannot stream).
    fn open(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<StreamResponse, HttpError>> {
        let sent = self.send(request);
        Box::pin(async move { sent.await.map(StreamResponse::whole) })
    }

    /// Like [`Http::open`], with the response headers (names in lower case). By default only
    /// `retry-after` is known (right for transports that cannot read headers); the MCP client
    /// then tells JSON from an event stream by the body itself.
    fn open_with_headers(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HeadedResponse, HttpError>> {
        let opened = self.open(request);
        Box::pin(async move {
            let response = opened.await?;
            let headers = response
                .retry_after
                .map(|v| vec![("retry-after".to_owned(), v)])
                .unwrap_or_default();
            Ok(HeadedResponse {
                status: response.status,
                headers,
                body: response.body,
            })
        })
    }

    /// Whether this transport puts a request's [`HostText`] in at its mark; a run gives it
    /// host text only then. By default `false`.
    fn splices_host_text(&self) -> bool {
        false
    }
}

/// A response with its headers, its body still arriving.
pub struct HeadedResponse {
    /// The HTTP status.
    pub status: u16,
    /// The response headers, names in lower case, in order.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Box<dyn ByteStream>,
}

impl HeadedResponse {
    /// The first value of header `name` (case-insensitive).
    ///
    /// ```
    /// # use toolnexus::core::host::{HeadedResponse, HttpResponse, StreamResponse};
    /// let body = StreamResponse::whole(HttpResponse { status: 200, retry_after: None, body: String::new() }).body;
    /// let r = HeadedResponse { status: 200, headers: vec![("content-type".into(), "text/plain".into())], body };
    /// assert_eq!(r.header("Content-Type"), Some("text/plain"));
    /// ```
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A response body read chunk by chunk.
pub trait ByteStream {
    /// The next chunk; `None` at the end.
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Option<Result<Vec<u8>, HttpError>>>;
    /// The whole body as text when it came complete and nothing of it was read yet (then the
    /// stream is left empty); `None` otherwise, and nothing is taken.
    fn take_whole(&mut self) -> Option<String> {
        None
    }
}

/// A response whose body is still arriving.
pub struct StreamResponse {
    /// The HTTP status.
    pub status: u16,
    /// The `Retry-After` header, when present.
    pub retry_after: Option<String>,
    /// The body.
    pub body: Box<dyn ByteStream>,
}

/// A body that is already complete, as one chunk.
struct Whole(Option<String>);

impl ByteStream for Whole {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Option<Result<Vec<u8>, HttpError>>> {
        let chunk = self.0.take().map(|text| Ok(text.into_bytes()));
        Box::pin(async move { chunk })
    }

    fn take_whole(&mut self) -> Option<String> {
        self.0.take()
    }
}

impl StreamResponse {
    /// Wraps a complete response.
    pub fn whole(response: HttpResponse) -> Self {
        StreamResponse {
            status: response.status,
            retry_after: response.retry_after,
            body: Box::new(Whole(Some(response.body))),
        }
    }

    /// Reads the rest of the body as text: a body that came whole as it is, a streamed one until
    /// at least `limit` bytes are in (for error messages).
    pub async fn text(mut self, limit: usize) -> String {
        // A whole body is taken as it is: no copy, no second UTF-8 check.
        if let Some(text) = self.body.take_whole() {
            return text;
        }
        let mut bytes = Vec::new();
        while let Some(Ok(chunk)) = self.body.next_chunk().await {
            // A whole body is one chunk: taken as it is, not copied.
            if bytes.is_empty() {
                bytes = chunk;
            } else {
                bytes.extend_from_slice(&chunk);
            }
            if bytes.len() >= limit {
                break;
            }
        }
        String::from_utf8(bytes)
            .unwrap_or_else(|invalid| crate::core::text::from_utf8_lossy(invalid.as_bytes()))
    }
}

/// Where OAuth keeps what must outlive a page or a process (the `tokenStore` option): tokens per
/// issuer and resource, registered clients per issuer, and the pending flows of sign-ins not
/// finished yet, each as JSON text under a key. The JS host wraps a `{get, set, delete}` object
/// (sync or async), the default is [`MemoryTokenStore`](crate::core::mcp::auth::store::MemoryTokenStore)
/// (full build). Nothing read from it ever goes into an error or a log.
///
/// ```
/// # use toolnexus::core::host::{LocalBoxFuture, TokenStore};
/// struct Nothing;
/// impl TokenStore for Nothing {
///     fn get(&self, _key: &str) -> LocalBoxFuture<'static, Result<Option<String>, String>> { Box::pin(async { Ok(None) }) }
///     fn set(&self, _key: &str, _value: String) -> LocalBoxFuture<'static, Result<(), String>> { Box::pin(async { Ok(()) }) }
///     fn delete(&self, _key: &str) -> LocalBoxFuture<'static, Result<(), String>> { Box::pin(async { Ok(()) }) }
/// }
/// ```
pub trait TokenStore {
    /// The text under `key`, `None` when there is none.
    fn get(&self, key: &str) -> LocalBoxFuture<'static, Result<Option<String>, String>>;
    /// Keeps `value` under `key`.
    fn set(&self, key: &str, value: String) -> LocalBoxFuture<'static, Result<(), String>>;
    /// Forgets `key`.
    fn delete(&self, key: &str) -> LocalBoxFuture<'static, Result<(), String>>;
}
