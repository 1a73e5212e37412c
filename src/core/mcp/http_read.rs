//! Reading the answer to one POSTed request: a JSON body (one message or a batch) or an event
//! stream, where server notifications go to the handler and server requests are answered until
//! our response arrives (a stream that ends first is resumed: `http_stream.rs`).

use crate::core::json::value::Value;
use std::rc::Rc;

use super::http::Poster;
use super::http_stream::{message_of, Resume};
use super::transport::{step, McpError, ServerRequests, Step};
use crate::core::host::{HeadedResponse, HttpError};
use crate::core::wire::sse::SseDecoder;

/// How much of an error body goes into a message.
const BODY_LIMIT: usize = 500;

impl Poster {
    /// Reads the response to request `id` from a JSON body or an event stream.
    pub(super) async fn response(
        &self,
        mut response: HeadedResponse,
        id: u64,
        handler: Rc<dyn ServerRequests>,
    ) -> Result<Value, McpError> {
        if response.status == 202 {
            return Err(McpError::Protocol(
                "the server accepted the request without answering it (HTTP 202)".into(),
            ));
        }
        let media = response
            .header("content-type")
            .map(|t| {
                t.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
            })
            .unwrap_or_default();
        let mut first = Vec::new();
        let mode = match media.as_str() {
            "application/json" => Mode::Json,
            "text/event-stream" => Mode::Events,
            "" => {
                // No content type known (a transport that cannot read headers): the body says.
                first = next_bytes(&mut response).await?.unwrap_or_default();
                let lead = first.iter().find(|b| !b.is_ascii_whitespace());
                if matches!(lead, Some(b'{') | Some(b'[')) {
                    Mode::Json
                } else {
                    Mode::Events
                }
            }
            other => {
                let body = read_all(response).await.unwrap_or_default();
                return Err(McpError::Protocol(format!(
                    "unexpected content type \"{other}\": {}",
                    clip(body.trim())
                )));
            }
        };
        match mode {
            Mode::Json => {
                let rest = read_all(response).await?;
                let text = crate::core::text::from_utf8_lossy(&first) + &rest;
                self.read_json(&text, id, &handler).await
            }
            Mode::Events => self.read_events(response, first, id, &handler).await,
        }
    }

    async fn read_json(
        &self,
        text: &str,
        id: u64,
        handler: &Rc<dyn ServerRequests>,
    ) -> Result<Value, McpError> {
        let parsed: Value = crate::core::json::parse::from_str(text).map_err(|_| {
            McpError::Protocol(format!("the response is not JSON: {}", clip(text.trim())))
        })?;
        let messages = match parsed {
            Value::Array(items) => items,
            one => vec![one],
        };
        for message in messages {
            match step(message, id) {
                Step::Done(outcome) => return outcome,
                Step::Answer { id, method, params } => {
                    self.answer(handler, id, &method, &params).await?;
                }
                Step::Notify { method, params } => handler.notified(&method, &params),
                Step::Skip => {}
            }
        }
        Err(McpError::Protocol(format!(
            "the JSON response does not answer request {id}"
        )))
    }

    async fn read_events(
        &self,
        mut response: HeadedResponse,
        first: Vec<u8>,
        id: u64,
        handler: &Rc<dyn ServerRequests>,
    ) -> Result<Value, McpError> {
        let mut decoder = SseDecoder::default();
        let mut events = decoder.feed(&first);
        let mut resume = Resume::default();
        let mut unreadable: Option<String> = None;
        let mut ended = false;
        loop {
            resume.note(&decoder, &events);
            for event in std::mem::take(&mut events) {
                let message = match message_of(&event) {
                    None => continue,
                    Some(Ok(message)) => message,
                    Some(Err(data)) => {
                        unreadable = Some(clip(&data));
                        continue;
                    }
                };
                match step(message, id) {
                    Step::Done(outcome) => {
                        self.drain(response).await;
                        return outcome;
                    }
                    Step::Answer { id, method, params } => {
                        self.answer(handler, id, &method, &params).await?;
                    }
                    Step::Notify { method, params } => handler.notified(&method, &params),
                    Step::Skip => {}
                }
            }
            if ended {
                // Ended (or broke) before our answer: picked up where it stopped, when it can be.
                if let Some(next) = self.resume(&mut resume, true).await? {
                    response = next;
                    decoder = SseDecoder::default();
                    ended = false;
                    continue;
                }
                let why = unreadable.map_or(String::new(), |u| format!(" (unreadable event: {u})"));
                return Err(McpError::Protocol(format!(
                    "the event stream ended without answering request {id}{why}"
                )));
            }
            match next_bytes(&mut response).await {
                Ok(Some(chunk)) => events = decoder.feed(&chunk),
                Ok(None) => {
                    events = decoder.finish();
                    ended = true;
                }
                Err(McpError::Transport(_)) if resume.resumable() => {
                    events = decoder.finish();
                    ended = true;
                }
                Err(error) => return Err(error),
            }
        }
    }
}

enum Mode {
    Json,
    Events,
}

pub(super) fn http_error(error: HttpError) -> McpError {
    match error {
        HttpError::Aborted(reason) => McpError::Aborted(reason),
        HttpError::Network(message) | HttpError::Refused(message) => McpError::Transport(message),
    }
}

pub(super) async fn next_bytes(response: &mut HeadedResponse) -> Result<Option<Vec<u8>>, McpError> {
    match response.body.next_chunk().await {
        None => Ok(None),
        Some(Ok(chunk)) => Ok(Some(chunk)),
        Some(Err(error)) => Err(http_error(error)),
    }
}

pub(super) async fn read_all(mut response: HeadedResponse) -> Result<String, McpError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = next_bytes(&mut response).await? {
        bytes.extend_from_slice(&chunk);
    }
    Ok(crate::core::text::from_utf8_lossy(&bytes))
}

/// At most [`BODY_LIMIT`] characters.
pub(super) fn clip(text: &str) -> String {
    match text.char_indices().nth(BODY_LIMIT) {
        Some((at, _)) => format!("{}…", text.get(..at).unwrap_or(text)),
        None => text.to_owned(),
    }
}
