//! One model call: the body built once as JSON text (request params merged, then the body
//! transform), sent with retries (429, 500, 502, 503, 504 and network errors; `Retry-After` as
//! delay-seconds; exponential backoff with jitter; never past the run's deadline), its response
//! read whole or as a stream, and an `llm` metric event for it.

use crate::core::json::value::{Map, Value};
use futures_util::future::{select, Either};
use std::future::Future;
use std::rc::Rc;

use super::config::ClientConfig;
use super::error::{redact, truncate, url_path, RunError};
use super::hooks::{ErrorInfo, Hooks};
use super::request_cache::RequestCache;
use super::telemetry::{RunEvents, StreamEvent, Telemetry};
use crate::core::host::{
    Clock, HostText, Http, HttpError, HttpRequest, HttpResponse, Signal, StreamResponse,
};
use crate::core::message::Message;
use crate::core::parts::PartSummary;
use crate::core::wire::sse::SseDecoder;
use crate::core::wire::{body_value, BodyTemplate, Dialect, Reply, ToolList, Usage, WireError};

/// Statuses the default policy retries.
const RETRYABLE: [u16; 5] = [429, 500, 502, 503, 504];

/// The largest `Retry-After` (in seconds) every port represents exactly.
const RETRY_AFTER_MAX_SECONDS: u64 = 2_147_483_647;

/// What a model call produced: the reply, and the raw response when a hook wants it.
pub struct Completion {
    /// The dialect's reading of the response.
    pub reply: Reply,
    /// The parsed response body, present only when `afterLLM` is set and the call was not
    /// streamed (a streamed call reports `{streamed: true, usage}`).
    pub raw: Option<Value>,
}

/// Everything a model call needs.
#[derive(Clone)]
pub struct Llm {
    /// The client's settings.
    pub config: Rc<ClientConfig>,
    /// The wire format.
    pub dialect: Rc<dyn Dialect>,
    /// The transport.
    pub http: Rc<dyn Http>,
    /// Hooks (`bodyTransform`, `onError`, and whether `afterLLM` wants the raw response).
    pub hooks: Rc<dyn Hooks>,
    /// Time, for backoff and durations.
    pub clock: Rc<dyn Clock>,
    /// Metric events.
    pub telemetry: Rc<Telemetry>,
    /// The client's URL, headers and body template.
    pub requests: Rc<RequestCache>,
}

/// One call's circumstances.
pub struct CallContext {
    /// The run's signal.
    pub signal: Option<Signal>,
    /// The run's deadline (epoch milliseconds).
    pub deadline: Option<f64>,
    /// Where text deltas go; `Some` makes the call a streamed one.
    pub events: Option<Rc<dyn RunEvents>>,
    /// The host's history text, which goes at the body's mark.
    pub splice: Option<HostText>,
    /// Keep the parsed response in [`Completion::raw`] even without an `afterLLM` hook (a
    /// `translate` returns it).
    pub keep_raw: bool,
}

/// `Retry-After` in milliseconds, honoured only as ASCII digits within 0…2147483647 seconds.
///
/// ```
/// # use toolnexus::core::client::call::retry_after_ms;
/// assert_eq!(retry_after_ms("0"), Some(0.0));
/// assert_eq!(retry_after_ms(" 2 "), Some(2000.0));
/// assert_eq!(retry_after_ms("1.5"), None);
/// assert_eq!(retry_after_ms("Wed, 21 Oct 2015 07:28:00 GMT"), None);
/// ```
pub fn retry_after_ms(raw: &str) -> Option<f64> {
    let digits = raw.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let seconds: u64 = digits.parse().ok()?;
    (seconds <= RETRY_AFTER_MAX_SECONDS).then_some(seconds as f64 * 1000.0)
}

impl Llm {
    /// Builds the request now and returns the future that sends it (unboxed: the caller
    /// awaits it in place). `prefix` is the JSON text of messages that come before `messages`
    /// (the items of an array, without brackets).
    pub fn call(
        &self,
        prefix: &str,
        messages: &[Message],
        tools: &Rc<ToolList>,
        system: &str,
        ctx: CallContext,
    ) -> Result<impl Future<Output = Result<Completion, RunError>> + 'static, RunError> {
        let body = self.body_text(prefix, messages, tools, system, ctx.events.is_some())?;
        // Only a sink sees the parts a request carried (worked out only for one); the lean
        // build carries none.
        #[cfg(feature = "full")]
        let parts = self
            .telemetry
            .has_sink()
            .then(|| crate::core::wire::parts::summaries(messages));
        #[cfg(not(feature = "full"))]
        let parts = None;
        Ok(self.send(body, ctx, parts))
    }

    /// Like [`Llm::call`] for a body the caller made (`translate`'s): `body` with its
    /// `messages` and `tools` placeholders, shaped as every call's is (request parameters
    /// merged, then `bodyTransform`), sent with the same retries and `llm` metric.
    pub fn call_with_body(
        &self,
        body: Map<String, Value>,
        messages: &[Message],
        tools: &ToolList,
        ctx: CallContext,
    ) -> Result<impl Future<Output = Result<Completion, RunError>> + 'static, RunError> {
        let body = self.with_params(body);
        let text = if self.hooks.has_body_transform() {
            self.transformed(body, "", messages, tools)?
        } else {
            crate::core::wire::body_json(&body, "", messages, tools)
        };
        Ok(self.send(text, ctx, None))
    }

    /// The future that sends `body` (see [`Llm::call`]).
    fn send(
        &self,
        body: String,
        ctx: CallContext,
        parts: Option<Vec<PartSummary>>,
    ) -> impl Future<Output = Result<Completion, RunError>> + 'static {
        let (url, headers) = self.requests.envelope(&self.config, self.dialect.as_ref());
        let request = HttpRequest {
            method: "POST".into(),
            url,
            headers,
            body: Some(body),
            splice: ctx.splice.clone(),
            signal: ctx.signal.clone(),
        };
        let llm = self.clone();
        async move {
            let start = llm.clock.now_ms();
            let mut in_flight = InFlight {
                llm: llm.clone(),
                start,
                settled: false,
            };
            let outcome = llm.with_retries(request, &ctx).await;
            in_flight.settled = true;
            let usage = outcome.as_ref().map(|c| c.reply.usage).unwrap_or_default();
            let ms = llm.clock.now_ms() - start;
            llm.telemetry
                .llm(&llm.config.model, outcome.is_ok(), ms, usage, parts);
            outcome
        }
    }

    async fn with_retries(
        &self,
        request: HttpRequest,
        ctx: &CallContext,
    ) -> Result<Completion, RunError> {
        // Secrets are only for redacting failures: worked out when one happens.
        let secrets = || self.config.secrets();
        // The path is for failures' messages: worked out when one happens.
        let path = || url_path(&request.url);
        let mut attempt = 0;
        loop {
            let sent = if ctx.events.is_some() {
                self.http.open(&request).await.map(Received::Stream)
            } else {
                self.http.send(&request).await.map(Received::Whole)
            };
            let (failure, wait) = match sent {
                Err(HttpError::Aborted(reason)) => return Err(RunError::Aborted(reason)),
                Err(HttpError::Refused(message)) => {
                    return Err(RunError::Model(redact(&message, &secrets())))
                }
                Err(HttpError::Network(message)) => {
                    let failure = RunError::Network {
                        path: path(),
                        message: redact(&message, &secrets()),
                    };
                    let info = ErrorInfo {
                        error: Some(failure.to_string()),
                        status: None,
                        attempt,
                        retryable: true,
                    };
                    (failure, self.decide(&info).then(|| self.backoff(attempt)))
                }
                Ok(response) if (200..300).contains(&response.status()) => {
                    return self.read(response, &request.url, ctx).await;
                }
                Ok(response) => {
                    let status = response.status();
                    let retry_after = response.retry_after().and_then(retry_after_ms);
                    let body = truncate(&redact(&response.text(64 * 1024).await, &secrets()), 2000);
                    let failure = RunError::Status {
                        status,
                        path: path(),
                        body,
                    };
                    let info = ErrorInfo {
                        error: None,
                        status: Some(status),
                        attempt,
                        retryable: RETRYABLE.contains(&status),
                    };
                    (
                        failure,
                        self.decide(&info)
                            .then(|| retry_after.unwrap_or_else(|| self.backoff(attempt))),
                    )
                }
            };
            let Some(wait) = wait.filter(|_| attempt < self.config.retries) else {
                return Err(failure);
            };
            if let Some(deadline) = ctx.deadline {
                if self.clock.now_ms() + wait > deadline {
                    return Err(RunError::PastDeadline {
                        wait_ms: wait,
                        cause: Box::new(failure),
                    });
                }
            }
            self.sleep(wait, &ctx.signal).await?;
            attempt += 1;
        }
    }

    /// Whether to retry: `onError` when it answers, else the default (retryable ⇒ retry).
    fn decide(&self, info: &ErrorInfo) -> bool {
        self.hooks.on_error(info).unwrap_or(info.retryable)
    }

    fn backoff(&self, attempt: u32) -> f64 {
        self.config.retry_base_ms * 2f64.powi(attempt.min(30) as i32) + self.clock.random() * 100.0
    }

    async fn sleep(&self, ms: f64, signal: &Option<Signal>) -> Result<(), RunError> {
        let nap = self.clock.sleep(ms);
        match signal {
            None => {
                nap.await;
                Ok(())
            }
            Some(signal) => match select(nap, signal.wait()).await {
                Either::Left(_) => Ok(()),
                Either::Right(_) => Err(RunError::Aborted(signal.reason())),
            },
        }
    }

    async fn read(
        &self,
        response: Received,
        url: &str,
        ctx: &CallContext,
    ) -> Result<Completion, RunError> {
        let bad = |source: WireError| {
            let source = match source {
                WireError::Provider(message) => {
                    WireError::Provider(redact(&message, &self.config.secrets()))
                }
                other => other,
            };
            RunError::BadResponse {
                path: url_path(url),
                source,
            }
        };
        let Some(events) = &ctx.events else {
            let text = response.text(usize::MAX).await;
            let reply = self.dialect.parse(&text).map_err(bad)?;
            let raw = (ctx.keep_raw || self.hooks.has_after_llm())
                .then(|| crate::core::json::parse::from_str(&text).ok())
                .flatten();
            return Ok(Completion { reply, raw });
        };
        let reply = self
            .read_stream(response.into_stream(), events, &ctx.signal, url)
            .await?
            .map_err(bad)?;
        let raw = self
            .hooks
            .has_after_llm()
            .then(|| crate::json_value!({"streamed": true, "usage": reply.usage}));
        Ok(Completion { reply, raw })
    }

    async fn read_stream(
        &self,
        mut response: StreamResponse,
        events: &Rc<dyn RunEvents>,
        signal: &Option<Signal>,
        url: &str,
    ) -> Result<Result<Reply, WireError>, RunError> {
        let mut decoder = SseDecoder::default();
        let mut assembler = self.dialect.assembler();
        // One wait on the signal for the whole stream, raced against each chunk in turn (a
        // wait made per chunk cost a listener and a promise for every delta).
        let mut aborted = signal.as_ref().map(|s| (s, s.wait()));
        loop {
            let next = response.body.next_chunk();
            let chunk = match &mut aborted {
                None => next.await,
                Some((signal, wait)) => match select(next, wait.as_mut()).await {
                    Either::Left((chunk, _)) => chunk,
                    Either::Right(_) => return Err(RunError::Aborted(signal.reason())),
                },
            };
            let (decoded, ended) = match chunk {
                None => (decoder.finish(), true),
                Some(Ok(bytes)) => (decoder.feed(&bytes), false),
                Some(Err(HttpError::Aborted(reason))) => return Err(RunError::Aborted(reason)),
                Some(Err(HttpError::Network(message) | HttpError::Refused(message))) => {
                    let message = format!(
                        "the stream broke: {}",
                        redact(&message, &self.config.secrets())
                    );
                    return Err(RunError::Network {
                        path: url_path(url),
                        message,
                    });
                }
            };
            for event in decoded {
                match assembler.feed(&event) {
                    Ok(Some(delta)) => events.emit(StreamEvent::Text { delta }),
                    Ok(None) => {}
                    Err(e) => return Ok(Err(e)),
                }
            }
            if ended {
                return Ok(assembler.finish(self.dialect.as_ref()));
            }
        }
    }

    fn body_text(
        &self,
        prefix: &str,
        messages: &[Message],
        tools: &Rc<ToolList>,
        system: &str,
        stream: bool,
    ) -> Result<String, RunError> {
        // A message's `metadata` is the host's, never the provider's: it leaves here, in the
        // request only (the transcript, the result and a store keep it).
        let plain = crate::core::message::for_provider(messages);
        let messages = plain.as_deref().unwrap_or(messages);
        // Content parts become the provider's blocks here, in the request only (the full
        // build's: the lean one refuses parts where they come in).
        #[cfg(feature = "full")]
        let wired = crate::core::wire::parts::for_wire(
            messages,
            self.dialect.name(),
            self.config.max_part_bytes,
            self.config.on_unsupported_part,
        )?;
        #[cfg(feature = "full")]
        let messages = wired.as_deref().unwrap_or(messages);
        if !self.hooks.has_body_transform() {
            let template = self.requests.body(system, tools, stream, || {
                BodyTemplate::new(&self.body(system, tools, stream))
            });
            return Ok(template.fill(prefix, messages, tools));
        }
        let body = self.body(system, tools, stream);
        self.transformed(body, prefix, messages, tools)
    }

    /// `body` filled by copies and rewritten by `bodyTransform`, as JSON text.
    fn transformed(
        &self,
        body: Map<String, Value>,
        prefix: &str,
        messages: &[Message],
        tools: &ToolList,
    ) -> Result<String, RunError> {
        let body = self
            .hooks
            .body_transform(body_value(body, prefix, messages, tools.value()))
            .map_err(|message| RunError::Hook {
                hook: "bodyTransform",
                message,
            })?;
        Ok(crate::core::json::text::to_text(&body))
    }

    /// The dialect's body with the configured request parameters (not `messages`, `tools`
    /// or `stream`) put in.
    fn body(&self, system: &str, tools: &ToolList, stream: bool) -> Map<String, Value> {
        let config = &self.config;
        let body = self
            .dialect
            .body(&config.model, system, tools.has_tools(), stream);
        self.with_params(body)
    }

    /// `body` with the configured request parameters (not `messages`, `tools` or `stream`)
    /// put in; they win.
    fn with_params(&self, mut body: Map<String, Value>) -> Map<String, Value> {
        let config = &self.config;
        let allowed = config
            .request_params
            .iter()
            .filter(|(key, _)| !matches!(key.as_str(), "messages" | "tools" | "stream"));
        for (key, value) in allowed {
            body.insert(key.clone(), value.clone());
        }
        body
    }
}

/// A response as the transport gave it: whole (a plain call's, read without a stream around
/// it), or still arriving (a streamed call's).
enum Received {
    Whole(HttpResponse),
    Stream(StreamResponse),
}

impl Received {
    fn status(&self) -> u16 {
        match self {
            Received::Whole(r) => r.status,
            Received::Stream(r) => r.status,
        }
    }

    fn retry_after(&self) -> Option<&str> {
        match self {
            Received::Whole(r) => r.retry_after.as_deref(),
            Received::Stream(r) => r.retry_after.as_deref(),
        }
    }

    /// The body as text, as [`StreamResponse::text`] reads it.
    async fn text(self, limit: usize) -> String {
        match self {
            Received::Whole(r) => r.body,
            Received::Stream(r) => r.text(limit).await,
        }
    }

    fn into_stream(self) -> StreamResponse {
        match self {
            Received::Whole(r) => StreamResponse::whole(r),
            Received::Stream(r) => r,
        }
    }
}

/// Emits the `llm` error event of a call that is dropped before it settles (the run was
/// aborted or passed its deadline while the call was in flight).
struct InFlight {
    llm: Llm,
    start: f64,
    settled: bool,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if !self.settled {
            let ms = self.llm.clock.now_ms() - self.start;
            let llm = &self.llm;
            llm.telemetry
                .llm(&llm.config.model, false, ms, Usage::default(), None);
        }
    }
}
