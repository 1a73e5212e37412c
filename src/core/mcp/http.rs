//! The streamable-HTTP transport (MCP 2025-03-26 and later): every message is a POST; a
//! request is answered with one JSON body or with an event stream that may carry the server's
//! own requests (answered by POSTing our response) before the response itself. The session id
//! the server hands out at `initialize` and the negotiated protocol version go on every later
//! request; `close` ends the session with a DELETE. With the stateless 2026-07-28 version every
//! POST also names its method (`Mcp-Method`), its tool or resource (`Mcp-Name`) and the
//! arguments its tool mirrors (`Mcp-Param-*`, see `param_headers.rs`). An event stream that ends before its
//! answer is resumed with GET and `Last-Event-ID`, and the standalone GET stream (2026-07-28:
//! the `subscriptions/listen` stream) carries what the server sends outside of our requests
//! (`http_stream.rs`). Under `auth.dpop` every request, GET and DELETE included, carries a
//! proof of its own method and URL.

use crate::core::json::value::Value;
use std::cell::RefCell;
use std::rc::Rc;

use super::http_read::{clip, http_error, next_bytes, read_all};
use super::modern::MODERN_VERSION;
use super::param_headers::encoded;
use super::transport::{reply, McpError, ServerRequests, Transport};
use futures_util::future::select;

use super::auth::Authorizer;
use crate::core::agents::signal::TurnAbort;
use crate::core::host::{Clock, HeadedResponse, Http, HttpRequest, LocalBoxFuture, Signal, Spawn};

/// How long the rest of a body is read once its answer is in, so the connection ends cleanly
/// (and is kept alive) instead of being cancelled.
const DRAIN_MS: f64 = 250.0;

/// Headers this transport sets itself; a configured header of the same name is dropped.
const OWN_HEADERS: [&str; 7] = [
    "content-type",
    "accept",
    "mcp-session-id",
    "mcp-protocol-version",
    "last-event-id",
    "mcp-method",
    "mcp-name",
];

#[derive(Default)]
pub(super) struct Session {
    pub(super) id: Option<String>,
    protocol: Option<String>,
    /// Stops the standalone GET stream's reader.
    pub(super) listener: Option<Rc<TurnAbort>>,
}

/// One server's HTTP endpoint.
pub struct StreamableHttp {
    http: Rc<dyn Http>,
    url: String,
    headers: Vec<(String, String)>,
    session: Rc<RefCell<Session>>,
    clock: Option<Rc<dyn Clock>>,
    spawn: Option<Rc<dyn Spawn>>,
    auth: Option<Rc<Authorizer>>,
}

impl StreamableHttp {
    /// A transport to `url` sending these (already expanded) headers.
    pub fn new(http: Rc<dyn Http>, url: String, headers: Vec<(String, String)>) -> Self {
        let headers = headers
            .into_iter()
            .filter(|(name, _)| !OWN_HEADERS.contains(&name.to_ascii_lowercase().as_str()))
            .collect();
        StreamableHttp {
            http,
            url,
            headers,
            session: Rc::default(),
            clock: None,
            spawn: None,
            auth: None,
        }
    }

    /// Sends the authorizer's bearer token on every request, and reports a 401 (or a 403
    /// `insufficient_scope`) as [`McpError::Unauthorized`] for the session to answer.
    pub fn with_auth(mut self, auth: Rc<Authorizer>) -> Self {
        self.auth = Some(auth);
        self
    }

    /// Lets the transport keep the standalone GET stream open in the background (without it,
    /// the transport only ever reads the answers to its own POSTs).
    pub fn with_spawn(mut self, spawn: Rc<dyn Spawn>) -> Self {
        self.spawn = Some(spawn);
        self
    }

    /// Lets the transport finish reading bodies after their answer (see [`DRAIN_MS`]).
    pub fn with_clock(mut self, clock: Rc<dyn Clock>) -> Self {
        self.clock = Some(clock);
        self
    }

    /// The session id the server gave, if any.
    pub fn session_id(&self) -> Option<String> {
        self.session.borrow().id.clone()
    }

    fn poster(&self) -> Poster {
        Poster {
            http: self.http.clone(),
            url: self.url.clone(),
            headers: self.headers.clone(),
            session: self.session.clone(),
            clock: self.clock.clone(),
            spawn: self.spawn.clone(),
            auth: self.auth.clone(),
        }
    }
}

/// A transport dropped without `close` (a load given up midway) stops its GET stream too.
impl Drop for StreamableHttp {
    fn drop(&mut self) {
        if let Some(listener) = self.session.borrow_mut().listener.take() {
            listener.abort("the MCP client was dropped");
        }
    }
}

/// The `WWW-Authenticate` value of a response that asks for authorization: a 401, or a 403
/// whose error is `insufficient_scope` (a step-up).
fn challenge_of(response: &HeadedResponse) -> Option<String> {
    let header = response.header("www-authenticate").unwrap_or("").to_owned();
    match response.status {
        401 => Some(header),
        403 if crate::core::text::find(&header, "insufficient_scope").is_some() => Some(header),
        _ => None,
    }
}

/// What a request future needs after the transport method returned.
#[derive(Clone)]
pub(super) struct Poster {
    pub(super) http: Rc<dyn Http>,
    url: String,
    headers: Vec<(String, String)>,
    pub(super) session: Rc<RefCell<Session>>,
    pub(super) clock: Option<Rc<dyn Clock>>,
    pub(super) spawn: Option<Rc<dyn Spawn>>,
    pub(super) auth: Option<Rc<Authorizer>>,
}

impl Poster {
    pub(super) fn request(
        &self,
        method: &str,
        body: Option<String>,
        signal: Option<Signal>,
    ) -> HttpRequest {
        let mut headers = self.headers.clone();
        if method == "GET" {
            headers.push(("accept".into(), "text/event-stream".into()));
        }
        if body.is_some() {
            headers.push(("content-type".into(), "application/json".into()));
            headers.push((
                "accept".into(),
                "application/json, text/event-stream".into(),
            ));
        }
        if let Some(bearer) = self.auth.as_ref().and_then(|a| a.header()) {
            headers.push(("authorization".into(), bearer));
        }
        let session = self.session.borrow();
        if let Some(id) = &session.id {
            headers.push(("mcp-session-id".into(), id.clone()));
        }
        if let Some(version) = &session.protocol {
            headers.push(("mcp-protocol-version".into(), version.clone()));
        }
        HttpRequest {
            method: method.to_owned().into(),
            url: self.url.clone().into(),
            headers: headers.into(),
            body,
            splice: None,
            signal,
        }
    }

    /// POSTs one message; an HTTP error status is an error, its body read for the message.
    pub(super) async fn post(
        &self,
        message: &Value,
        signal: Option<Signal>,
    ) -> Result<HeadedResponse, McpError> {
        self.post_headed(message, Vec::new(), signal).await
    }

    /// [`post`](Self::post) with `extra` headers, and under 2026-07-28 the headers that mirror
    /// the message's method and name.
    pub(super) async fn post_headed(
        &self,
        message: &Value,
        mut extra: Vec<(String, String)>,
        signal: Option<Signal>,
    ) -> Result<HeadedResponse, McpError> {
        let had_session = self.session.borrow().id.is_some();
        if let Some(auth) = &self.auth {
            auth.fresh().await;
        }
        let mut request = self.request(
            "POST",
            Some(crate::core::json::text::to_text(message)),
            signal,
        );
        let modern = self.session.borrow().protocol.as_deref() == Some(MODERN_VERSION);
        if modern {
            extra.extend(mirrored(message));
        }
        extra.extend(self.proof(&request).await?);
        if !extra.is_empty() {
            let mut headers = request.headers.to_vec();
            headers.extend(extra);
            request.headers = headers.into();
        }
        let response = self.open(&request).await?;
        // 2026-07-28 has no sessions: an id a server sends anyway is not kept.
        if let Some(id) = response
            .header("mcp-session-id")
            .filter(|v| !v.is_empty() && !modern)
        {
            self.session.borrow_mut().id = Some(id.to_owned());
        }
        if (200..300).contains(&response.status) {
            return Ok(response);
        }
        if response.status == 404 && had_session {
            return Err(McpError::SessionExpired);
        }
        let status = response.status;
        if let Some(challenge) = self.auth.as_ref().and_then(|_| challenge_of(&response)) {
            return Err(McpError::Unauthorized { status, challenge });
        }
        let body = read_all(response).await.unwrap_or_default();
        Err(McpError::Status {
            status,
            body: clip(body.trim()),
        })
    }

    /// The `DPoP` proof header of `request` (its method and URL) under `auth.dpop`, bound to
    /// the token it carries; none without DPoP.
    pub(super) async fn proof(
        &self,
        request: &HttpRequest,
    ) -> Result<Option<(String, String)>, McpError> {
        match &self.auth {
            Some(auth) => auth
                .proof(&request.method, &request.url)
                .await
                .map_err(McpError::Auth),
            None => Ok(None),
        }
    }

    /// Sends `request`, keeping the `DPoP-Nonce` the server answers with for the next proof.
    pub(super) async fn open(&self, request: &HttpRequest) -> Result<HeadedResponse, McpError> {
        let response = self
            .http
            .open_with_headers(request)
            .await
            .map_err(http_error)?;
        if let (Some(auth), Some(nonce)) = (&self.auth, response.header("dpop-nonce")) {
            auth.dpop_nonce(&self.url, nonce);
        }
        Ok(response)
    }

    /// Reads what is left of a body for a moment, then lets it go.
    pub(super) async fn drain(&self, mut response: HeadedResponse) {
        let Some(clock) = &self.clock else {
            return;
        };
        let rest =
            Box::pin(async move { while let Ok(Some(_)) = next_bytes(&mut response).await {} });
        select(rest, clock.sleep(DRAIN_MS)).await;
    }

    /// Answers a server request by POSTing our response to it.
    pub(super) async fn answer(
        &self,
        handler: &Rc<dyn ServerRequests>,
        id: Value,
        method: &str,
        params: &Value,
    ) -> Result<(), McpError> {
        let outcome = handler.answer(method, params).await;
        let response = self.post(&reply(id, outcome), None).await?;
        self.drain(response).await;
        Ok(())
    }
}

/// `Mcp-Method` for every message, and `Mcp-Name` for the three methods that name something.
fn mirrored(message: &Value) -> Vec<(String, String)> {
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return Vec::new();
    };
    let mut headers = vec![("mcp-method".to_owned(), method.to_owned())];
    let source = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return headers,
    };
    if let Some(name) = message
        .get("params")
        .and_then(|p| p.get(source))
        .and_then(Value::as_str)
    {
        headers.push(("mcp-name".to_owned(), encoded(name)));
    }
    headers
}

impl Transport for StreamableHttp {
    fn request_headed(
        &self,
        id: u64,
        message: Value,
        headers: Vec<(String, String)>,
        handler: Rc<dyn ServerRequests>,
        signal: Option<Signal>,
    ) -> LocalBoxFuture<'static, Result<Value, McpError>> {
        let poster = self.poster();
        Box::pin(async move {
            let response = poster.post_headed(&message, headers, signal).await?;
            poster.response(response, id, handler).await
        })
    }

    fn speaks_modern(&self) -> bool {
        true
    }

    fn cache_key(&self) -> Option<String> {
        let mut key = self.url.clone();
        for (name, value) in &self.headers {
            key.push('\n');
            key.push_str(name);
            key.push(':');
            key.push_str(value);
        }
        Some(key)
    }

    fn request(
        &self,
        id: u64,
        message: Value,
        handler: Rc<dyn ServerRequests>,
        signal: Option<Signal>,
    ) -> LocalBoxFuture<'static, Result<Value, McpError>> {
        self.request_headed(id, message, Vec::new(), handler, signal)
    }

    fn notify(&self, message: Value) -> LocalBoxFuture<'static, Result<(), McpError>> {
        let poster = self.poster();
        Box::pin(async move {
            let response = poster.post(&message, None).await?;
            poster.drain(response).await;
            Ok(())
        })
    }

    fn set_protocol_version(&self, version: &str) {
        self.session.borrow_mut().protocol = Some(version.to_owned());
    }

    fn listen(
        &self,
        handler: Rc<dyn ServerRequests>,
        subscription: Option<Value>,
    ) -> LocalBoxFuture<'static, ()> {
        Box::pin(self.poster().listen(handler, subscription))
    }

    fn reset(&self) {
        let old = std::mem::take(&mut *self.session.borrow_mut());
        if let Some(listener) = old.listener {
            listener.abort("the MCP session ended");
        }
    }

    fn close(&self) -> LocalBoxFuture<'static, ()> {
        let poster = self.poster();
        let had_session = self.session.borrow().id.is_some();
        let mut request = poster.request("DELETE", None, None);
        self.reset();
        Box::pin(async move {
            if !had_session {
                return;
            }
            if let Ok(Some(proof)) = poster.proof(&request).await {
                let mut headers = request.headers.to_vec();
                headers.push(proof);
                request.headers = headers.into();
            }
            // 405 (the server does not let clients end sessions) and errors are all fine.
            if let Ok(response) = poster.open(&request).await {
                poster.drain(response).await;
            }
        })
    }
}
