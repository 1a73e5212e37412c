//! Event streams that outlive one read (MCP 2025-11-25): a stream that ends or breaks before
//! its answer is picked up again with a GET carrying `Last-Event-ID`, after the delay the
//! server's `retry:` field asked for (SEP-1699); and the standalone GET stream, opened after
//! `initialize` when the server allows one (405 means it does not), carries the server's own
//! requests and notifications until the session is reset or closed.

use crate::core::json::value::Value;
use futures_util::future::{select, Either};
use std::rc::Rc;

use super::http::Poster;
use super::http_read::{http_error, next_bytes};
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

impl Poster {
    /// GETs an event stream, resuming after `last_id` when given. `Ok(None)` when the server
    /// offers none (405, any other error status, a body that is not an event stream).
    pub(super) async fn open_stream(
        &self,
        last_id: Option<&str>,
    ) -> Result<Option<HeadedResponse>, McpError> {
        let mut request = self.request("GET", None, None);
        if let Some(id) = last_id {
            let mut headers = request.headers.to_vec();
            headers.push(("last-event-id".into(), id.to_owned()));
            request.headers = headers.into();
        }
        let response = self
            .http
            .open_with_headers(&request)
            .await
            .map_err(http_error)?;
        let media = response.header("content-type").unwrap_or("");
        let events = media.is_empty()
            || media
                .trim_start()
                .get(..17)
                .is_some_and(|m| m.eq_ignore_ascii_case("text/event-stream"));
        Ok(Some(response).filter(|r| (200..300).contains(&r.status) && events))
    }

    /// After a stream ended or broke: waits the server's `retry:` delay, then reopens it from
    /// its last event (or afresh, when `need_id` is false and it named none). `Ok(None)` when
    /// it cannot or should no longer be resumed.
    pub(super) async fn resume(
        &self,
        resume: &mut Resume,
        need_id: bool,
    ) -> Result<Option<HeadedResponse>, McpError> {
        let Some(clock) = &self.clock else {
            return Ok(None);
        };
        if (need_id && !resume.resumable()) || resume.quiet >= MAX_QUIET_RECONNECTS {
            return Ok(None);
        }
        resume.quiet += 1;
        clock
            .sleep(resume.retry_ms.map_or(DEFAULT_RETRY_MS, |ms| ms as f64))
            .await;
        self.open_stream(resume.last_id.as_deref()).await
    }

    /// Opens the standalone GET stream and reads it in the background (the module doc says
    /// what it carries); resolves once the stream is open, refused, or slow to open.
    pub(super) async fn listen(self, handler: Rc<dyn ServerRequests>) {
        let (Some(spawn), Some(clock)) = (self.spawn.clone(), self.clock.clone()) else {
            return;
        };
        let poster = self.clone();
        let opening: LocalBoxFuture<'static, _> =
            Box::pin(async move { poster.open_stream(None).await });
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
            poster.keep_reading(response, handler, reader_spawn).await;
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
    ) {
        let mut resume = Resume::default();
        loop {
            let mut decoder = SseDecoder::default();
            while let Ok(Some(chunk)) = next_bytes(&mut response).await {
                let events = decoder.feed(&chunk);
                resume.note(&decoder, &events);
                self.route(events, &handler, &spawn);
            }
            let events = decoder.finish();
            resume.note(&decoder, &events);
            self.route(events, &handler, &spawn);
            match self.resume(&mut resume, false).await {
                Ok(Some(next)) => response = next,
                _ => return,
            }
        }
    }

    /// Server requests on the standalone stream are answered each in its own task (an
    /// elicitation may wait for a person); notifications go to the handler.
    fn route(
        &self,
        events: Vec<SseEvent>,
        handler: &Rc<dyn ServerRequests>,
        spawn: &Rc<dyn Spawn>,
    ) {
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
                Incoming::Response { .. } | Incoming::Invalid => {}
            }
        }
    }
}
