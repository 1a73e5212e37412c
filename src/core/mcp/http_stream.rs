//! Event streams that outlive one read (MCP 2025-11-25): a stream that ends or breaks before
//! its answer is picked up again with a GET carrying `Last-Event-ID`, after the delay the
//! server's `retry:` field asked for (SEP-1699); and the standalone GET stream, opened after
//! `initialize` when the server allows one (405 means it does not), carries the server's own
//! requests and notifications until the session is reset or closed. Under 2026-07-28 a
//! `subscriptions/listen` POST takes its place: its answer is a stream of the notifications
//! subscribed to, ended by the server with a response to it (never resumed, but sent again
//! after the `retry:` delay when it broke off).

use crate::core::json::value::Value;
use futures_util::future::{select, Either};
use std::rc::Rc;

use super::http::Poster;
use super::http_read::next_bytes;
use super::jsonrpc::{classify, Incoming};
use super::transport::{McpError, ServerRequests};
use crate::core::agents::signal::{AbortHandle, TurnAbort};
use crate::core::host::{Cancel, HeadedResponse, LocalBoxFuture, Spawn};
use crate::core::wire::sse::{SseDecoder, SseEvent};

/// The reconnection delay when the server named none, in milliseconds.
pub const DEFAULT_RETRY_MS: f64 = 1000.0;
/// Reconnections in a row that bring back nothing (not one event) before a stream is given up.
pub const MAX_QUIET_RECONNECTS: u32 = 3;
/// How long `listen` waits for the GET stream to open before `initialize` goes on (the stream
/// keeps opening in the background).
const OPEN_WAIT_MS: f64 = 1000.0;

/// Where a stream can be picked up again: its last event id and the server's `retry:` delay.
#[derive(Debug, Default)]
pub(super) struct Resume {
    last_id: Option<String>,
    retry_ms: Option<u64>,
    quiet: u32,
}

impl Resume {
    /// Takes the decoder's last event id and retry delay after a feed; any event heard
    /// restarts the count of quiet reconnections.
    pub(super) fn note(&mut self, decoder: &SseDecoder, events: &[SseEvent]) {
        if let Some(id) = decoder.last_event_id() {
            self.last_id = Some(id.to_owned());
        }
        if let Some(ms) = decoder.retry_ms() {
            self.retry_ms = Some(ms);
        }
        if !events.is_empty() {
            self.quiet = 0;
        }
    }

    /// Whether a stream whose answer is still due can be resumed (it named an event id).
    pub(super) fn resumable(&self) -> bool {
        self.last_id.is_some()
    }
}

/// The JSON-RPC message an event carries; `None` for a priming event (no data) or another
/// event type.
pub(super) fn message_of(event: &SseEvent) -> Option<Result<Value, String>> {
    if !(event.event.is_empty() || event.event == "message") || event.data.is_empty() {
        return None;
    }
    Some(crate::core::json::parse::from_str(&event.data).map_err(|_| event.data.clone()))
}

/// The response when it is a successful event stream (or of unknown type, from a transport
/// that cannot read headers).
fn event_stream(response: HeadedResponse) -> Option<HeadedResponse> {
    let media = response.header("content-type").unwrap_or("");
    let events = media.is_empty()
        || media
            .trim_start()
            .get(..17)
            .is_some_and(|m| m.eq_ignore_ascii_case("text/event-stream"));
    Some(response).filter(|r| (200..300).contains(&r.status) && events)
}

impl Poster {
    /// GETs an event stream, resuming after `last_id` when given. `Ok(None)` when the server
    /// offers none (405, any other error status, a body that is not an event stream).
    pub(super) async fn open_stream(
        &self,
        last_id: Option<&str>,
    ) -> Result<Option<HeadedResponse>, McpError> {
        if let Some(auth) = &self.auth {
            auth.fresh().await;
        }
        let mut request = self.request("GET", None, None);
        let mut headers = request.headers.to_vec();
        headers.extend(last_id.map(|id| ("last-event-id".into(), id.to_owned())));
        headers.extend(self.proof(&request).await?);
        request.headers = headers.into();
        Ok(event_stream(self.open(&request).await?))
    }

    /// POSTs a `subscriptions/listen` request (2026-07-28); `Ok(None)` when the server
    /// answers with anything but an event stream (a refusal, in a JSON body).
    async fn subscribe(&self, message: &Value) -> Result<Option<HeadedResponse>, McpError> {
        Ok(event_stream(self.post(message, None).await?))
    }

    /// After a stream ended or broke: waits the server's `retry:` delay, then reopens it from
    /// its last event (or afresh, when `need_id` is false and it named none). `Ok(None)` when
    /// it cannot or should no longer be resumed.
    pub(super) async fn resume(
        &self,
        resume: &mut Resume,
        need_id: bool,
    ) -> Result<Option<HeadedResponse>, McpError> {
        if !self.may_reopen(resume, need_id).await {
            return Ok(None);
        }
        self.open_stream(resume.last_id.as_deref()).await
    }

    /// Whether a stream may be opened once more; if so, after the server's `retry:` delay.
    async fn may_reopen(&self, resume: &mut Resume, need_id: bool) -> bool {
        let Some(clock) = &self.clock else {
            return false;
        };
        if (need_id && !resume.resumable()) || resume.quiet >= MAX_QUIET_RECONNECTS {
            return false;
        }
        resume.quiet += 1;
        clock
            .sleep(resume.retry_ms.map_or(DEFAULT_RETRY_MS, |ms| ms as f64))
            .await;
        true
    }

    /// Opens the standalone GET stream, or under 2026-07-28 the `subscription` (a
    /// `subscriptions/listen` request), and reads it in the background (the module doc says
    /// what it carries); resolves once the stream is open, refused, or slow to open.
    pub(super) async fn listen(self, handler: Rc<dyn ServerRequests>, subscription: Option<Value>) {
        let (Some(spawn), Some(clock)) = (self.spawn.clone(), self.clock.clone()) else {
            return;
        };
        let poster = self.clone();
        let message = subscription.clone();
        let opening: LocalBoxFuture<'static, _> = Box::pin(async move {
            match &message {
                Some(message) => poster.subscribe(message).await,
                None => poster.open_stream(None).await,
            }
        });
        let (opened, opening) = match select(opening, clock.sleep(OPEN_WAIT_MS)).await {
            Either::Left((Ok(Some(response)), _)) => (Some(response), None),
            Either::Left(_) => return,
            Either::Right((_, opening)) => (None, Some(opening)),
        };
        let poster = self.clone();
        let reader_spawn = spawn.clone();
        let reading = async move {
            let response = match (opened, opening) {
                (Some(response), _) => response,
                (None, Some(opening)) => match opening.await {
                    Ok(Some(response)) => response,
                    _ => return,
                },
                (None, None) => return,
            };
            poster
                .keep_reading(response, handler, reader_spawn, subscription)
                .await;
        };
        let stop = TurnAbort::new();
        let stopped = AbortHandle(stop.clone()).wait();
        if let Some(old) = self.session.borrow_mut().listener.replace(stop) {
            old.abort("replaced");
        }
        spawn.spawn(Box::pin(async move {
            // Stopping drops the reader, and with it the response (its fetch is aborted).
            select(Box::pin(reading), stopped).await;
        }));
    }

    async fn keep_reading(
        &self,
        mut response: HeadedResponse,
        handler: Rc<dyn ServerRequests>,
        spawn: Rc<dyn Spawn>,
        subscription: Option<Value>,
    ) {
        let mut resume = Resume::default();
        loop {
            let mut decoder = SseDecoder::default();
            let mut ended = false;
            while let Ok(Some(chunk)) = next_bytes(&mut response).await {
                let events = decoder.feed(&chunk);
                resume.note(&decoder, &events);
                ended |= self.route(events, &handler, &spawn);
            }
            let events = decoder.finish();
            resume.note(&decoder, &events);
            // A response ends a subscription for good: the server closed it gracefully, or
            // refused it. Only a stream that broke off is opened again.
            if self.route(events, &handler, &spawn) || ended {
                return;
            }
            let next = match &subscription {
                Some(message) if self.may_reopen(&mut resume, false).await => {
                    self.subscribe(message).await
                }
                Some(_) => return,
                None => self.resume(&mut resume, false).await,
            };
            match next {
                Ok(Some(next)) => response = next,
                _ => return,
            }
        }
    }

    /// Server requests on the standalone stream are answered each in its own task (an
    /// elicitation may wait for a person); notifications go to the handler. `true` when a
    /// response came (the end of a subscription).
    fn route(
        &self,
        events: Vec<SseEvent>,
        handler: &Rc<dyn ServerRequests>,
        spawn: &Rc<dyn Spawn>,
    ) -> bool {
        let mut ended = false;
        for event in &events {
            let Some(Ok(message)) = message_of(event) else {
                continue;
            };
            match classify(message) {
                Incoming::Request { id, method, params } => {
                    let (poster, handler) = (self.clone(), handler.clone());
                    spawn.spawn(Box::pin(async move {
                        let _ = poster.answer(&handler, id, &method, &params).await;
                    }));
                }
                Incoming::Notification { method, params } => handler.notified(&method, &params),
                Incoming::Response { .. } => ended = true,
                Incoming::Invalid => {}
            }
        }
        ended
    }
}
