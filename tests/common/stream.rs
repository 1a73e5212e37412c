//! Streamed model endpoints for host tests: an [`Http`] whose `open` hands the body over as a
//! chunked [`ByteStream`] (optionally pending between chunks, ending cleanly, with an error, or
//! never). SSE bodies and the event recorder are in [`super::sse`].
#![allow(clippy::indexing_slicing)]

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use toolnexus::core::json::value::Value;

use super::http::Sent;
use toolnexus::core::host::{
    ByteStream, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture, StreamResponse,
};

/// How a scripted body is cut into chunks.
#[derive(Clone, Debug)]
pub enum Cut {
    /// One chunk.
    Whole,
    /// Chunks of `n` bytes (the last may be shorter).
    Every(usize),
    /// Chunks of these sizes, in turn, repeating.
    Sizes(Vec<usize>),
}

/// How a scripted body ends after its last chunk.
#[derive(Clone, Debug)]
pub enum End {
    /// `None`: the body is complete.
    Clean,
    /// The transport fails.
    Fail(HttpError),
    /// Never ends (only the request's signal stops it).
    Stall,
}

/// One scripted streamed response.
#[derive(Clone)]
pub struct Streamed {
    pub status: u16,
    pub retry_after: Option<String>,
    pub body: Vec<u8>,
    pub cut: Cut,
    pub end: End,
    /// Each chunk is pending once before it is ready (so other futures get polled between).
    pub yield_between: bool,
}

impl Streamed {
    pub fn ok(body: impl Into<Vec<u8>>, cut: Cut) -> Self {
        Streamed {
            status: 200,
            retry_after: None,
            body: body.into(),
            cut,
            end: End::Clean,
            yield_between: false,
        }
    }
    pub fn ending(mut self, end: End) -> Self {
        self.end = end;
        self
    }
    pub fn yielding(mut self) -> Self {
        self.yield_between = true;
        self
    }
}

/// The chunks of `body` as `cut` cuts them.
pub fn chunks(body: &[u8], cut: &Cut) -> Vec<Vec<u8>> {
    let sizes: Box<dyn Fn(usize) -> usize> = match cut {
        Cut::Whole => Box::new(|_| usize::MAX),
        Cut::Every(n) => {
            let n = (*n).max(1);
            Box::new(move |_| n)
        }
        Cut::Sizes(list) => {
            let list = list.clone();
            Box::new(move |i| list.get(i % list.len().max(1)).copied().unwrap_or(1).max(1))
        }
    };
    let (mut out, mut rest, mut i) = (Vec::new(), body, 0);
    while !rest.is_empty() {
        let take = sizes(i).min(rest.len());
        let (head, tail) = rest.split_at(take);
        out.push(head.to_vec());
        rest = tail;
        i += 1;
    }
    out
}

/// The body side of one scripted response; counts pulls and notices being dropped.
struct Body {
    chunks: VecDeque<Vec<u8>>,
    end: End,
    yield_between: bool,
    pulled: Rc<Cell<usize>>,
    dropped: Rc<Cell<bool>>,
    signal: Option<toolnexus::core::host::Signal>,
}

impl ByteStream for Body {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Option<Result<Vec<u8>, HttpError>>> {
        self.pulled.set(self.pulled.get() + 1);
        Box::pin(async move {
            if self.yield_between {
                crate::common::YieldOnce(false).await;
            }
            if let Some(chunk) = self.chunks.pop_front() {
                return Some(Ok(chunk));
            }
            match self.end.clone() {
                End::Clean => None,
                End::Fail(e) => Some(Err(e)),
                End::Stall => match &self.signal {
                    Some(signal) => {
                        signal.wait().await;
                        Some(Err(HttpError::Aborted(signal.reason())))
                    }
                    None => std::future::pending().await,
                },
            }
        })
    }
}

impl Drop for Body {
    fn drop(&mut self) {
        self.dropped.set(true);
    }
}

/// A transport that streams scripted bodies from `open` (and, from `send`, reads them whole).
#[derive(Default)]
pub struct StreamHttp {
    script: RefCell<VecDeque<Result<Streamed, HttpError>>>,
    pub sent: RefCell<Vec<Sent>>,
    /// How many times `open` / `send` were called.
    pub opened: Cell<usize>,
    pub sent_whole: Cell<usize>,
    /// `next_chunk` calls over all bodies; whether the latest body was dropped.
    pub pulled: Rc<Cell<usize>>,
    pub dropped: Rc<Cell<bool>>,
}

impl StreamHttp {
    pub fn new(script: Vec<Result<Streamed, HttpError>>) -> Rc<Self> {
        Rc::new(StreamHttp {
            script: RefCell::new(script.into()),
            ..StreamHttp::default()
        })
    }

    pub fn count(&self) -> usize {
        self.sent.borrow().len()
    }

    pub fn body(&self, n: usize) -> Value {
        self.sent.borrow()[n].body.clone()
    }

    fn record(&self, request: &HttpRequest) -> Option<Result<Streamed, HttpError>> {
        self.sent.borrow_mut().push(Sent {
            url: request.url.to_string(),
            headers: request.headers.to_vec(),
            body: serde_json::from_str(request.body.as_deref().unwrap_or(""))
                .unwrap_or(Value::Null),
            text: request.body.clone().unwrap_or_default(),
            signal: request.signal.clone(),
        });
        self.script.borrow_mut().pop_front()
    }
}

impl Http for StreamHttp {
    fn send(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        self.sent_whole.set(self.sent_whole.get() + 1);
        let next = self.record(request);
        Box::pin(async move {
            let s =
                next.unwrap_or_else(|| Err(HttpError::Network("StreamHttp: script ended".into())))?;
            Ok(HttpResponse {
                status: s.status,
                retry_after: s.retry_after,
                body: String::from_utf8_lossy(&s.body).into_owned(),
            })
        })
    }

    fn open(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<StreamResponse, HttpError>> {
        self.opened.set(self.opened.get() + 1);
        let next = self.record(request);
        self.dropped.set(false);
        let (pulled, dropped) = (self.pulled.clone(), self.dropped.clone());
        let signal = request.signal.clone();
        Box::pin(async move {
            let s =
                next.unwrap_or_else(|| Err(HttpError::Network("StreamHttp: script ended".into())))?;
            let body = Body {
                chunks: chunks(&s.body, &s.cut).into(),
                end: s.end,
                yield_between: s.yield_between,
                pulled,
                dropped,
                signal,
            };
            Ok(StreamResponse {
                status: s.status,
                retry_after: s.retry_after,
                body: Box::new(body),
            })
        })
    }
}
