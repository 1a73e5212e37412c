//! One client session with one server. Over HTTP it first probes for the stateless 2026-07-28
//! protocol (`server/discover`, see `modern.rs`): a modern server gets every request with its
//! `_meta` and no handshake. Otherwise (and always over stdio): `initialize` →
//! `notifications/initialized`. Then paginated `tools/list` (kept for the server's `ttlMs`, see
//! `list_cache.rs`) → `tools/call`, each exchange bounded by a time budget and the caller's
//! signal (a call's deadline pushed back by its progress notifications). A session the server
//! forgot (HTTP 404) is re-initialized once. After `initialize` the transport listens for the
//! server's own messages (the standalone GET stream; under 2026-07-28 a `subscriptions/listen`
//! for `list_changed`, when the server sends it), routed by [`Dispatch`].

use crate::core::json::value::Value;
use crate::core::text::JoinWith;
use futures_util::future::{select, Either};
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::rc::Rc;

use super::auth::{AuthFailure, Authorizer};
use super::dispatch::{Deadline, Dispatch};
use super::elicit::Elicitation;
use super::jsonrpc;
use super::list_cache;
use super::modern::{era_of, with_meta, Era, MODERN_VERSION};
use super::mrtr::Retry;
use super::transport::{McpError, ServerRequests, Transport};
use crate::core::host::{Clock, LocalBoxFuture, Signal};
use crate::core::types::Request;

/// The protocol version this client asks for.
pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// The versions of the `initialize` handshake this client can speak, newest first (the
/// stateless [`MODERN_VERSION`] needs none).
pub const SUPPORTED_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// Most `tools/list` pages read before giving up.
pub const MAX_PAGES: usize = 1000;

/// Runs `work` within `ms` and until `signal` fires.
pub async fn bounded<T>(
    work: impl Future<Output = Result<T, McpError>>,
    clock: &Rc<dyn Clock>,
    ms: f64,
    phase: &str,
    signal: Option<&Signal>,
) -> Result<T, McpError> {
    let deadline = Rc::new(Deadline::new(clock.now_ms(), ms));
    bounded_by(work, clock, &deadline, phase, signal).await
}

/// Runs `work` until `deadline` (which may move later while it runs) and until `signal` fires.
pub async fn bounded_by<T>(
    work: impl Future<Output = Result<T, McpError>>,
    clock: &Rc<dyn Clock>,
    deadline: &Rc<Deadline>,
    phase: &str,
    signal: Option<&Signal>,
) -> Result<T, McpError> {
    if let Some(signal) = signal.filter(|s| s.is_aborted()) {
        return Err(McpError::Aborted(signal.reason()));
    }
    let stop: LocalBoxFuture<'static, String> = match signal {
        Some(signal) => {
            let signal = signal.clone();
            Box::pin(async move {
                signal.wait().await;
                signal.reason()
            })
        }
        None => Box::pin(std::future::pending()),
    };
    let limits = select(expiry(clock.clone(), deadline.clone()), stop);
    match select(Box::pin(work), limits).await {
        Either::Left((outcome, _)) => outcome,
        Either::Right((Either::Left(_), _)) => Err(McpError::Timeout {
            phase: phase.to_owned(),
            ms: deadline.budget(),
        }),
        Either::Right((Either::Right((reason, _)), _)) => Err(McpError::Aborted(reason)),
    }
}

/// Resolves once `deadline` has passed (it may move later meanwhile). Not generic, so every
/// caller of [`bounded_by`] shares one copy.
fn expiry(clock: Rc<dyn Clock>, deadline: Rc<Deadline>) -> LocalBoxFuture<'static, ()> {
    Box::pin(async move {
        loop {
            let left = deadline.at() - clock.now_ms();
            if left <= 0.0 {
                break;
            }
            clock.sleep(left).await;
        }
    })
}

/// How one `tools/call` goes out.
#[derive(Default)]
pub struct ToolCall {
    /// The answers to a previous `input_required`, for its retry.
    pub retry: Option<Retry>,
    /// Extra HTTP headers (`Mcp-Param-*`).
    pub headers: Vec<(String, String)>,
    /// The caller's signal.
    pub signal: Option<Signal>,
    /// The budget, in milliseconds.
    pub ms: f64,
}

/// A session over a transport.
pub struct Session {
    transport: Rc<dyn Transport>,
    handler: Rc<Dispatch>,
    listen: Cell<bool>,
    capabilities: Value,
    clock: Rc<dyn Clock>,
    timeout_ms: f64,
    next_id: Cell<u64>,
    server_capabilities: RefCell<Value>,
    auth: Option<Rc<Authorizer>>,
    /// Speaking the stateless 2026-07-28 protocol.
    modern: Cell<bool>,
    /// Whether the server was probed for it.
    probed: Cell<bool>,
}

/// Most sign-ins (or token refreshes) one request may cause before its refusal stands: a
/// server that keeps answering 403 `insufficient_scope` is not asked forever.
pub const MAX_AUTHORIZATIONS: usize = 3;

impl Session {
    /// A session that is not initialized yet.
    pub fn new(
        transport: Rc<dyn Transport>,
        elicitation: Elicitation,
        clock: Rc<dyn Clock>,
        timeout_ms: f64,
    ) -> Self {
        let handler = Rc::new(Dispatch::new(elicitation, clock.clone()));
        Session {
            transport,
            capabilities: handler.capabilities(),
            handler,
            listen: Cell::new(true),
            clock,
            timeout_ms,
            next_id: Cell::new(0),
            server_capabilities: RefCell::new(Value::Null),
            auth: None,
            modern: Cell::new(false),
            probed: Cell::new(false),
        }
    }

    /// Answers the server's 401s and 403 `insufficient_scope` with `auth` (OAuth), then sends
    /// the request again, up to [`MAX_AUTHORIZATIONS`] times per request.
    pub fn with_auth(mut self, auth: Option<Rc<Authorizer>>) -> Self {
        self.auth = auth;
        self
    }

    /// Whether `initialize` opens the stream of the server's own messages (on by default; a
    /// one-off listing turns it off).
    pub fn set_listen(&self, on: bool) {
        self.listen.set(on);
    }

    /// Calls `f` whenever the server says its tool list changed.
    pub fn on_tools_changed(&self, f: Rc<dyn Fn()>) {
        self.handler.on_tools_changed(f);
    }

    /// The OAuth authorizer of this session's server, when it has one.
    pub fn auth(&self) -> Option<&Rc<Authorizer>> {
        self.auth.as_ref()
    }

    /// Whether the server speaks the stateless 2026-07-28 protocol with us.
    pub fn is_modern(&self) -> bool {
        self.modern.get()
    }

    /// Asks the host for `request` in the page (the toolkit's `waitFor`); `None` without one.
    pub fn ask(&self, request: &Request) -> Option<LocalBoxFuture<'static, Result<Value, String>>> {
        self.handler.ask(request)
    }

    /// Whether the toolkit has a `waitFor` to ask in the page.
    pub fn can_ask(&self) -> bool {
        self.handler.can_ask()
    }

    /// The time now, on the session's clock.
    pub fn clock_now(&self) -> f64 {
        self.clock.now_ms()
    }

    /// The per-phase budget, in milliseconds.
    pub fn timeout_ms(&self) -> f64 {
        self.timeout_ms
    }

    async fn call(
        &self,
        method: &str,
        params: Value,
        signal: Option<Signal>,
        ms: f64,
        headers: Vec<(String, String)>,
    ) -> Result<Value, McpError> {
        let mut authorized = 0;
        loop {
            let sent = self.auth.as_ref().and_then(|a| a.header());
            let outcome = self
                .call_once(method, params.clone(), signal.clone(), ms, headers.clone())
                .await;
            let Err(McpError::Unauthorized { status, challenge }) = outcome else {
                return outcome;
            };
            let Some(auth) = &self.auth else {
                return Err(McpError::Status {
                    status,
                    body: String::new(),
                });
            };
            if authorized == MAX_AUTHORIZATIONS {
                return Err(McpError::Auth(format!(
                    "the server still answers HTTP {status} to {method} after {MAX_AUTHORIZATIONS} authorizations; giving up"
                )));
            }
            authorized += 1;
            // One sign-in at a time per server: after waiting for its turn, a request refused
            // while another signed in is sent again with the new token.
            let _turn = auth.turn().await;
            if auth.header().is_some_and(|now| Some(&now) != sent.as_ref()) {
                continue;
            }
            let authorizing = auth.challenged(status, &challenge);
            let outcome = match &signal {
                Some(signal) => {
                    let stop = signal.wait();
                    match select(Box::pin(authorizing), stop).await {
                        Either::Left((outcome, _)) => outcome,
                        Either::Right(_) => return Err(McpError::Aborted(signal.reason())),
                    }
                }
                None => authorizing.await,
            };
            match outcome {
                Ok(()) => {}
                Err(AuthFailure::Failed(why)) => return Err(McpError::Auth(why)),
                Err(AuthFailure::Pending(request)) => return Err(McpError::AuthPending(request)),
            }
        }
    }

    async fn call_once(
        &self,
        method: &str,
        mut params: Value,
        signal: Option<Signal>,
        ms: f64,
        headers: Vec<(String, String)>,
    ) -> Result<Value, McpError> {
        let id = self.next_id.get();
        self.next_id.set(id.wrapping_add(1));
        let deadline = Rc::new(Deadline::new(self.clock.now_ms(), ms));
        // A call asks for progress; each notification of it pushes the deadline back.
        let _tracked = (method == "tools/call").then(|| {
            if let Some(map) = params.as_object_mut() {
                map.insert("_meta".into(), crate::json_value!({"progressToken": id}));
            }
            self.handler.track(id, deadline.clone())
        });
        if self.modern.get() {
            params = with_meta(params);
        }
        let message = jsonrpc::request(id, method, params);
        let handler: Rc<dyn ServerRequests> = self.handler.clone();
        let sent = self
            .transport
            .request_headed(id, message, headers, handler, signal.clone());
        bounded_by(sent, &self.clock, &deadline, method, signal.as_ref()).await
    }

    /// Over a transport that can speak it, the stateless protocol when the server offers it;
    /// else `initialize`, then `notifications/initialized`, each within the budget.
    pub async fn initialize(&self) -> Result<(), McpError> {
        // The era is the server's: probed once, a forgotten legacy session goes straight to
        // `initialize` again.
        if self.transport.speaks_modern() && !self.probed.replace(true) && self.discover().await? {
            self.subscribe().await;
            return Ok(());
        }
        let params = crate::json_value!({
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": self.capabilities,
            "clientInfo": {"name": "toolnexus-wasm", "version": env!("CARGO_PKG_VERSION")},
        });
        let result = self
            .call("initialize", params, None, self.timeout_ms, Vec::new())
            .await?;
        let version = result
            .get("protocolVersion")
            .and_then(Value::as_str)
            .ok_or_else(|| McpError::Protocol("initialize returned no protocolVersion".into()))?;
        if version == MODERN_VERSION && self.transport.speaks_modern() {
            // The version in the first answer: a modern server that answered `initialize`
            // anyway. No session and no `notifications/initialized` from here on.
            *self.server_capabilities.borrow_mut() =
                result.get("capabilities").cloned().unwrap_or(Value::Null);
            self.transport.reset();
            self.transport.set_protocol_version(MODERN_VERSION);
            self.modern.set(true);
            self.subscribe().await;
            return Ok(());
        }
        if !SUPPORTED_VERSIONS.contains(&version) {
            return Err(McpError::Protocol(format!(
                "the server speaks MCP protocol version {version}, which this client does not (it speaks {})",
                SUPPORTED_VERSIONS.join_with(", ")
            )));
        }
        // 2025-03-26 and older had no protocol-version header.
        if version >= "2025-06-18" {
            self.transport.set_protocol_version(version);
        }
        *self.server_capabilities.borrow_mut() =
            result.get("capabilities").cloned().unwrap_or(Value::Null);
        let notified = self
            .transport
            .notify(jsonrpc::notification("notifications/initialized"));
        bounded(
            notified,
            &self.clock,
            self.timeout_ms,
            "notifications/initialized",
            None,
        )
        .await?;
        if self.listen.get() {
            self.transport.listen(self.handler.clone(), None).await;
        }
        Ok(())
    }

    /// Under 2026-07-28, when the server says it sends `notifications/tools/list_changed`:
    /// subscribes to them (`subscriptions/listen`), read in the background like the 2025 GET
    /// stream.
    async fn subscribe(&self) {
        let sends = self
            .server_capabilities
            .borrow()
            .get("tools")
            .and_then(|tools| tools.get("listChanged"))
            .and_then(Value::as_bool)
            == Some(true);
        if !(sends && self.listen.get()) {
            return;
        }
        let id = self.next_id.get();
        self.next_id.set(id.wrapping_add(1));
        let params = with_meta(crate::json_value!({"notifications": {"toolsListChanged": true}}));
        let message = jsonrpc::request(id, "subscriptions/listen", params);
        self.transport
            .listen(self.handler.clone(), Some(message))
            .await;
    }

    /// Probes with `server/discover`: `true` when the server speaks 2026-07-28 (its
    /// capabilities kept), `false` for a legacy server (the transport reset for `initialize`).
    async fn discover(&self) -> Result<bool, McpError> {
        // A legacy server never saw the probe as part of a session: its ids are used again.
        let first_id = self.next_id.get();
        self.modern.set(true);
        self.transport.set_protocol_version(MODERN_VERSION);
        for attempt in 0..2 {
            let answer = self
                .call(
                    "server/discover",
                    crate::json_value!({}),
                    None,
                    self.timeout_ms,
                    Vec::new(),
                )
                .await;
            match era_of(answer) {
                Era::Modern(capabilities) => {
                    *self.server_capabilities.borrow_mut() = capabilities;
                    // Requests are independent: the ids go on from the time, so a retry sent
                    // by another session (after a reload) never reuses the first call's id.
                    let now = self.clock.now_ms().max(0.0) as u64;
                    self.next_id.set(self.next_id.get().max(now));
                    return Ok(true);
                }
                Era::Retry if attempt == 0 => continue,
                Era::Legacy => break,
                Era::Retry => {
                    self.modern.set(false);
                    return Err(McpError::Protocol(format!(
                        "the server rejected MCP protocol version {MODERN_VERSION} while naming it as supported"
                    )));
                }
                Era::Failed(error) => {
                    self.modern.set(false);
                    self.transport.reset();
                    return Err(error);
                }
            }
        }
        self.modern.set(false);
        self.transport.reset();
        self.next_id.set(first_id);
        Ok(false)
    }

    /// Every tool the server lists, following `nextCursor`, within one budget. A server that
    /// does not declare the `tools` capability has none. A list a 2026-07-28 server marked
    /// fresh for `ttlMs` is served from the cache until then.
    pub async fn list_tools(&self) -> Result<Vec<Value>, McpError> {
        if self.server_capabilities.borrow().get("tools").is_none() {
            return Ok(Vec::new());
        }
        let key = self.transport.cache_key().filter(|_| self.modern.get());
        if let Some(tools) = key
            .as_deref()
            .and_then(|k| list_cache::fresh(k, self.clock.now_ms()))
        {
            return Ok(tools);
        }
        let pages = self.pages();
        let (tools, ttl) = bounded(pages, &self.clock, self.timeout_ms, "tools/list", None).await?;
        if let (Some(key), Some(ttl)) = (key, ttl) {
            list_cache::keep(key, self.clock.now_ms() + ttl, tools.clone());
        }
        Ok(tools)
    }

    /// Forgets this server's cached tool list (it said the list changed).
    pub fn forget_tools(&self) {
        if let Some(key) = self.transport.cache_key() {
            list_cache::forget(&key);
        }
    }

    /// The pages' tools, and the shortest positive `ttlMs` of them (`None` when any page
    /// had none, or zero).
    async fn pages(&self) -> Result<(Vec<Value>, Option<f64>), McpError> {
        let mut ttl: Option<f64> = Some(f64::INFINITY);
        let mut tools = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let params = match &cursor {
                Some(c) => crate::json_value!({"cursor": c}),
                None => crate::json_value!({}),
            };
            let page = self
                .call("tools/list", params, None, self.timeout_ms, Vec::new())
                .await?;
            ttl = match (ttl, page.get("ttlMs").and_then(Value::as_f64)) {
                (Some(least), Some(ms)) if ms > 0.0 => Some(least.min(ms)),
                _ => None,
            };
            match page.get("tools") {
                Some(Value::Array(items)) => tools.extend(items.iter().cloned()),
                _ => {
                    return Err(McpError::Protocol(
                        "tools/list returned no \"tools\" array".into(),
                    ))
                }
            }
            match page.get("nextCursor") {
                Some(Value::String(next)) => {
                    if seen.contains(next) {
                        return Err(McpError::Protocol(format!(
                            "MCP list returned duplicate cursor: {next}"
                        )));
                    }
                    seen.push(next.clone());
                    cursor = Some(next.clone());
                }
                _ => return Ok((tools, ttl)),
            }
        }
        Err(McpError::Protocol(format!(
            "MCP list exceeded {MAX_PAGES} pages"
        )))
    }

    /// `tools/call` within `ms` (with a multi-round-trip retry's `inputResponses` and
    /// `requestState`, and the HTTP headers that mirror its arguments); a forgotten session is
    /// re-initialized and the call sent once more. The result is as the server sent it (an
    /// `input_required` one included).
    pub async fn call_tool(
        &self,
        name: &str,
        args: Value,
        call: ToolCall,
    ) -> Result<Value, McpError> {
        let ToolCall {
            retry,
            headers,
            signal,
            ms,
        } = call;
        let mut params = crate::json_value!({"name": name, "arguments": args});
        if let Some(retry) = &retry {
            retry.apply(&mut params);
        }
        let id = self.next_id.get();
        match self
            .call(
                "tools/call",
                params.clone(),
                signal.clone(),
                ms,
                headers.clone(),
            )
            .await
        {
            Err(McpError::SessionExpired) => {
                self.transport.reset();
                self.initialize().await?;
                self.call("tools/call", params, signal, ms, headers).await
            }
            Err(error @ (McpError::Timeout { .. } | McpError::Aborted(_))) => {
                self.cancelled(id, &error.to_string()).await;
                Err(error)
            }
            outcome => outcome,
        }
    }

    /// Tells the server we gave up on request `id` (best effort, within the budget).
    async fn cancelled(&self, id: u64, reason: &str) {
        let mut message = jsonrpc::notification("notifications/cancelled");
        if let Some(map) = message.as_object_mut() {
            map.insert(
                "params".into(),
                crate::json_value!({"requestId": id, "reason": reason}),
            );
        }
        let sent = self.transport.notify(message);
        let timeout = self.timeout_ms;
        let _ = bounded(sent, &self.clock, timeout, "notifications/cancelled", None).await;
    }

    /// Ends the session.
    pub fn close(&self) -> LocalBoxFuture<'static, ()> {
        self.transport.close()
    }
}
