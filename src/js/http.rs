//! The core's `Http` over a JS `fetch` (the `fetch` option, else the global one).

use js_sys::{Function, Object, Uint8Array};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::convert::{error_text, get};
use super::host::{set, JsSignal};
use super::outcome::{Outcome, Tag};
use super::promise::settle;
use super::slot::{settler, Slot};
use crate::core::host::{
    ByteStream, HeadedResponse, HostText, Http, HttpError, HttpRequest, HttpResponse,
    LocalBoxFuture, Signal, StreamResponse,
};

/// `fetch(url, {method: "POST", headers, body, signal})`.
pub struct FetchHttp {
    fetch: Function,
    /// The JS strings of the last request's URL, method and headers: a client sends the same
    /// ones with every model call, so they cross into JS once, not once per request.
    last: RefCell<Option<Envelope>>,
}

/// A request's URL, method and headers, with their JS strings.
struct Envelope {
    url: Rc<str>,
    method: String,
    headers: Rc<[(String, String)]>,
    js: (JsValue, JsValue, js_sys::Array),
}

impl Envelope {
    fn of(request: &HttpRequest) -> Self {
        let headers = js_sys::Array::new_with_length(request.headers.len() as u32 * 2);
        for (i, (name, value)) in request.headers.iter().enumerate() {
            headers.set(i as u32 * 2, name.as_str().into());
            headers.set(i as u32 * 2 + 1, value.as_str().into());
        }
        let url = JsValue::from_str(&request.url);
        let method = JsValue::from_str(&request.method);
        Envelope {
            url: request.url.clone(),
            method: request.method.to_string(),
            headers: request.headers.clone(),
            js: (url, method, headers),
        }
    }

    fn fits(&self, request: &HttpRequest) -> bool {
        // A client's requests share one URL and one header list: the pointers say it at once.
        let same_url = Rc::ptr_eq(&self.url, &request.url) || self.url == request.url;
        let same_headers =
            Rc::ptr_eq(&self.headers, &request.headers) || self.headers == request.headers;
        same_url && same_headers && self.method == request.method
    }
}

impl FetchHttp {
    /// Uses `fetch` when given, else `globalThis.fetch`; `None` when neither exists.
    pub fn new(fetch: Option<Function>) -> Option<Self> {
        let fetch =
            fetch.or_else(|| get(&js_sys::global(), "fetch").dyn_into::<Function>().ok())?;
        Some(FetchHttp {
            fetch,
            last: RefCell::new(None),
        })
    }

    /// The JS strings of `request`'s URL, method and headers (the last ones again when equal).
    fn envelope(&self, request: &HttpRequest) -> (JsValue, JsValue, js_sys::Array) {
        let mut last = self.last.borrow_mut();
        match last.as_ref().filter(|e| e.fits(request)) {
            Some(envelope) => envelope.js.clone(),
            None => last.insert(Envelope::of(request)).js.clone(),
        }
    }
}

/// Why a request failed: aborted when its signal fired; refused for good when the transport
/// says so (`__toolnexusRefused`: the in-process model of `in-process.js` failed, which no
/// retry mends); else the thrown message.
fn failure(signal: &Option<Signal>, thrown: &JsValue, context: &str) -> HttpError {
    if let Some(s) = signal.as_ref().filter(|s| s.is_aborted()) {
        return HttpError::Aborted(s.reason());
    }
    match get(thrown, "__toolnexusRefused").as_string() {
        Some(message) => HttpError::Refused(message),
        None => HttpError::Network(format!("{context}{}", network_text(thrown))),
    }
}

#[wasm_bindgen(module = "/src/js/shim.js")]
extern "C" {
    /// See `shim.js`: one crossing for a whole exchange.
    #[wasm_bindgen(js_name = fetchText)]
    fn shim_fetch_text(
        fetch: &Function,
        url: &JsValue,
        method: &JsValue,
        headers: &js_sys::Array,
        body: Option<&str>,
        splice: Option<JsValue>,
        after: Option<&str>,
        signal: Option<JsValue>,
        settle: &Function,
        slot: u32,
    );

    /// See `shim.js`: `reader.read()`, its outcome settling `slot`.
    #[wasm_bindgen(js_name = readChunk)]
    fn shim_read_chunk(reader: &JsValue, settle: &Function, slot: u32);
}

/// A request's body in three parts: the text before the mark, the host's text that goes there
/// (a JS string), and the text after it. Without a JS splice (or a mark): the body, `None`,
/// `None`.
fn body_parts(request: &HttpRequest) -> (Option<&str>, Option<JsValue>, Option<&str>) {
    let body = request.body.as_deref();
    // Only a request with a splice has a mark to look for.
    let Some(splice) = request.splice.as_ref().and_then(|s| s.get::<JsValue>()) else {
        return (body, None, None);
    };
    match body.and_then(|b| b.split_once(HostText::MARK)) {
        Some((before, after)) => (Some(before), Some(splice.clone()), Some(after)),
        None => (body, None, None),
    }
}

/// The JS `AbortSignal` behind a request's signal, when it has one.
fn js_signal_of(signal: &Option<Signal>) -> Option<JsValue> {
    signal.as_ref().and_then(|s| {
        s.as_any()
            .downcast_ref::<JsSignal>()
            .map(|s| s.js().clone())
    })
}

/// Starts a whole exchange through the shim (`fetch`, then the body as text) at once, reading
/// the request where it is: its body is copied straight into JS. The slot gets the outcome.
fn fetch_text(http: &FetchHttp, request: &HttpRequest) -> Slot {
    let (url, method, headers) = http.envelope(request);
    let (body, splice, after) = body_parts(request);
    let slot = Slot::new();
    shim_fetch_text(
        &http.fetch,
        &url,
        &method,
        &headers,
        body,
        splice,
        after,
        js_signal_of(&request.signal),
        &settler(),
        slot.id(),
    );
    slot
}

/// The outcome of [`fetch_text`]'s exchange: status, `Retry-After` and the body text.
async fn fetched(slot: Slot, signal: Option<Signal>) -> Result<HttpResponse, HttpError> {
    let outcome = slot.await;
    // The usual outcome, a 200 without `Retry-After`, is the body text alone: one crossing.
    if let Some(body) = outcome.as_string() {
        return Ok(HttpResponse {
            status: 200,
            retry_after: None,
            body,
        });
    }
    let outcome = Outcome(outcome);
    match outcome.tag() {
        Some(Tag::Response) => Ok(HttpResponse {
            status: outcome.part(1).as_f64().unwrap_or(0.0) as u16,
            retry_after: outcome.part(2).as_string(),
            body: outcome.part(3).as_string().unwrap_or_default(),
        }),
        Some(Tag::BodyFailed) => Err(failure(
            &signal,
            &outcome.part(1),
            "reading the response failed: ",
        )),
        Some(Tag::NotAResponse) => Err(HttpError::Network(
            "fetch returned something that is not a Response".into(),
        )),
        _ => Err(failure(&signal, &outcome.part(1), "")),
    }
}

/// Calls `fetch` at once; the future gives the `Response` with its status and `Retry-After`.
fn start(
    fetch: &Function,
    request: &HttpRequest,
) -> impl std::future::Future<Output = Result<(JsValue, u16, Option<String>), HttpError>> {
    let signal = request.signal.clone();
    let init = init_object(request, js_signal_of(&signal).as_ref());
    let url = JsValue::from_str(&request.url);
    responded(fetch.call2(&JsValue::UNDEFINED, &url, &init), signal)
}

/// The `Response` a `fetch` call gave (or threw), with its status and `Retry-After`.
async fn responded(
    called: Result<JsValue, JsValue>,
    signal: Option<Signal>,
) -> Result<(JsValue, u16, Option<String>), HttpError> {
    let settled = match called {
        Ok(returned) => settle(returned).await,
        Err(thrown) => Err(thrown),
    };
    let response = settled.map_err(|thrown| failure(&signal, &thrown, ""))?;
    let status = get(&response, "status").as_f64().unwrap_or(0.0) as u16;
    let headers = get(&response, "headers");
    let retry_after = get(&headers, "get")
        .dyn_into::<Function>()
        .ok()
        .and_then(|g| g.call1(&headers, &"retry-after".into()).ok())
        .and_then(|v| v.as_string());
    Ok((response, status, retry_after))
}

async fn read_text(response: &JsValue, signal: &Option<Signal>) -> Result<String, HttpError> {
    let text = get(response, "text").dyn_into::<Function>().map_err(|_| {
        HttpError::Network("fetch returned something that is not a Response".into())
    })?;
    let body = match text.call0(response) {
        Ok(promise) => settle(promise).await,
        Err(thrown) => Err(thrown),
    };
    body.map(|b| b.as_string().unwrap_or_default())
        .map_err(|thrown| failure(signal, &thrown, "reading the response failed: "))
}

/// A `ReadableStream` reader; cancelled when dropped, so a consumer that stops early also
/// stops the download.
struct Reader {
    reader: JsValue,
    signal: Option<Signal>,
    finished: bool,
}

impl ByteStream for Reader {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Option<Result<Vec<u8>, HttpError>>> {
        Box::pin(async move {
            if self.finished {
                return None;
            }
            let slot = Slot::new();
            shim_read_chunk(&self.reader, &settler(), slot.id());
            let outcome = Outcome(slot.await);
            match outcome.tag() {
                Some(Tag::Value) => {
                    // A Uint8Array (what a body gives) is copied in once; anything else is
                    // first made one (an ArrayBuffer's bytes, an array's numbers).
                    let value = outcome.part(1);
                    Some(Ok(match value.dyn_ref::<Uint8Array>() {
                        Some(bytes) => bytes.to_vec(),
                        None => Uint8Array::new(&value).to_vec(),
                    }))
                }
                Some(Tag::Done) => {
                    self.finished = true;
                    None
                }
                Some(Tag::NoReader) => {
                    self.finished = true;
                    Some(Err(HttpError::Network(
                        "the response body has no reader".into(),
                    )))
                }
                Some(Tag::NotAStep) => {
                    self.finished = true;
                    Some(Err(HttpError::Network(
                        "the response body's reader gave something other than {done, value}".into(),
                    )))
                }
                _ => {
                    self.finished = true;
                    Some(Err(failure(&self.signal, &outcome.part(1), "")))
                }
            }
        })
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        if !self.finished {
            if let Ok(cancel) = get(&self.reader, "cancel").dyn_into::<Function>() {
                if let Ok(promise) = cancel.call0(&self.reader) {
                    // Settle the cancellation quietly: nobody waits for it, and a rejection
                    // must not surface as an unhandled one.
                    wasm_bindgen_futures::spawn_local(async move {
                        let _ = settle(promise).await;
                    });
                }
            }
        }
    }
}

impl Http for FetchHttp {
    fn send(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        let slot = fetch_text(self, request);
        Box::pin(fetched(slot, request.signal.clone()))
    }

    fn open(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<StreamResponse, HttpError>> {
        let started = start(&self.fetch, request);
        let signal = request.signal.clone();
        Box::pin(async move {
            let (response, status, retry_after) = started.await?;
            let body = body_stream(&response, signal).await?;
            Ok(StreamResponse {
                status,
                retry_after,
                body,
            })
        })
    }

    fn open_with_headers(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HeadedResponse, HttpError>> {
        let started = start(&self.fetch, request);
        let signal = request.signal.clone();
        Box::pin(async move {
            let (response, status, _) = started.await?;
            let headers = all_headers(&get(&response, "headers"));
            let body = body_stream(&response, signal).await?;
            Ok(HeadedResponse {
                status,
                headers,
                body,
            })
        })
    }

    /// The body's mark gets the JS string of the request's splice, joined in JavaScript.
    fn splices_host_text(&self) -> bool {
        true
    }
}

/// The body as a stream: its reader, or (where a runtime has no readable body) its text.
async fn body_stream(
    response: &JsValue,
    signal: Option<Signal>,
) -> Result<Box<dyn ByteStream>, HttpError> {
    let body = get(response, "body");
    let reader = get(&body, "getReader")
        .dyn_into::<Function>()
        .ok()
        .and_then(|f| f.call0(&body).ok());
    let Some(reader) = reader else {
        let body = read_text(response, &signal).await?;
        let whole = StreamResponse::whole(HttpResponse {
            status: 0,
            retry_after: None,
            body,
        });
        return Ok(whole.body);
    };
    Ok(Box::new(Reader {
        reader,
        signal,
        finished: false,
    }))
}

/// Every response header (`Headers` iterates `[name, value]` pairs, names in lower case).
fn all_headers(headers: &JsValue) -> Vec<(String, String)> {
    let Ok(Some(entries)) = js_sys::try_iter(headers) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|pair| {
            let name = super::convert::item(&pair, 0).as_string()?;
            let value = super::convert::item(&pair, 1).as_string()?;
            Some((name.to_ascii_lowercase(), value))
        })
        .collect()
}

fn init_object(request: &HttpRequest, signal: Option<&JsValue>) -> JsValue {
    let init: JsValue = Object::new().into();
    set(&init, "method", &JsValue::from_str(&request.method));
    let headers: JsValue = Object::new().into();
    for (name, value) in request.headers.iter() {
        set(&headers, name, &value.as_str().into());
    }
    set(&init, "headers", &headers);
    match body_parts(request) {
        (Some(before), Some(splice), Some(after)) => {
            let body = js_sys::JsString::from(before)
                .concat(&splice)
                .concat(&after.into());
            set(&init, "body", &body);
        }
        (Some(body), _, _) => set(&init, "body", &body.into()),
        _ => {}
    }
    if let Some(signal) = signal {
        set(&init, "signal", signal);
    }
    init
}

/// The message of a failed `fetch`, with its cause when the runtime gives one (Node's
/// `fetch failed` hides `ECONNREFUSED` there).
fn network_text(thrown: &JsValue) -> String {
    let message = error_text(thrown);
    let cause = get(thrown, "cause");
    if cause.is_undefined() || cause.is_null() {
        return message;
    }
    let detail = get(&cause, "code")
        .as_string()
        .unwrap_or_else(|| error_text(&cause));
    format!("{message} ({detail})")
}
