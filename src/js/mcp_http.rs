//! `fetch` for MCP: every request gets its own `AbortController` (following the caller's
//! signal), fired when the core drops the request before its response arrives, so a server
//! given up on at a timeout has its connection closed instead of holding the page or the Node
//! process open. A body dropped early is cancelled by its reader.

use std::rc::Rc;

use super::host::JsSignal;
use super::http::FetchHttp;
use super::run_signal::RunSignal;
use crate::core::host::{
    Cancel, HeadedResponse, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture, Signal,
};

/// [`FetchHttp`] whose dropped requests abort.
pub struct McpFetch {
    inner: FetchHttp,
}

impl McpFetch {
    /// Over the global `fetch`; `None` where there is none.
    pub fn new() -> Option<Self> {
        FetchHttp::new(None).map(|inner| McpFetch { inner })
    }
}

/// Aborts its controller when dropped.
struct AbortOnDrop(Option<Rc<RunSignal>>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(signal) = self.0.take() {
            if !signal.is_aborted() {
                signal.abort("the MCP client stopped waiting for this request");
            }
        }
    }
}

impl Http for McpFetch {
    fn send(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        self.inner.send(request)
    }

    fn open_with_headers(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HeadedResponse, HttpError>> {
        let caller = request
            .signal
            .as_ref()
            .and_then(|s| s.as_any().downcast_ref::<JsSignal>());
        let own = RunSignal::new(caller).map(Rc::new);
        let opened = match &own {
            // An MCP message (small): copied to carry this request's own signal instead.
            Some(own) => self.inner.open_with_headers(&HttpRequest {
                signal: Some(own.clone() as Signal),
                ..request.clone()
            }),
            None => self.inner.open_with_headers(request),
        };
        Box::pin(async move {
            let mut guard = AbortOnDrop(own);
            let response = opened.await?;
            // From here the body's own reader cancels the download when it is dropped early.
            guard.0 = None;
            Ok(response)
        })
    }
}
