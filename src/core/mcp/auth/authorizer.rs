//! One remote server's authorization: the bearer token its requests carry (refreshed before it
//! expires), and what to do when the server answers 401 or 403 `insufficient_scope`: look for
//! tokens the store already has, refresh, or run discovery and the authorization-code flow,
//! its one host step a §10 `authorization` Request answered through `waitFor` or left pending.

use std::cell::RefCell;
use std::rc::Rc;

use super::challenge::Challenge;
use super::config::AuthConfig;
use super::discovery::{discover, Discovered, FALLBACK};
use super::fetch::Exchange;
use super::flow::{check, exchange_code, start, FlowSpec};
use super::register::client_for;
use super::store::{client_key, read, tokens_key, write};
use super::token::{token_request, ClientCredentials, Tokens};
use crate::core::agents::gate::{Permit, TurnGate};
use crate::core::client::hooks::WaitFor;
use crate::core::host::TokenStore;
use crate::core::json::value::Value;
use crate::core::mcp::m2m::flow::M2mGrant;
use crate::core::types::{Answer, Request};

/// A token is refreshed when it expires within this many milliseconds.
pub const REFRESH_MARGIN_MS: f64 = 60_000.0;

/// Why authorizing did not give a token.
#[derive(Debug, Clone, PartialEq)]
pub enum AuthFailure {
    /// It cannot be done; the reason (never a secret).
    Failed(String),
    /// The sign-in waits for the host (no `waitFor`): this Request, answered later through
    /// [`Authorizer::resume`].
    Pending(Box<Request>),
}

/// The tokens in use and where they came from.
#[derive(Clone)]
struct Current {
    tokens: Tokens,
    issuer: String,
    key: String,
    token_endpoint: String,
    client: ClientCredentials,
    resource: Option<String>,
}

/// One server's authorization state.
pub struct Authorizer {
    server: String,
    url: String,
    config: AuthConfig,
    exchange: Exchange,
    store: Rc<dyn TokenStore>,
    wait_for: Option<Rc<dyn WaitFor>>,
    current: RefCell<Option<Current>>,
    /// The scope asked for last, for the union a step-up asks (SEP-2350).
    asked: RefCell<Option<String>>,
    /// A grant without a person (`auth.grant` `client_credentials`, `jwt_bearer`), run
    /// instead of the sign-in (`core::mcp::m2m`).
    m2m: Option<M2mGrant>,
    /// One sign-in at a time: requests refused meanwhile wait, then use its token.
    turns: Rc<TurnGate>,
}

impl Authorizer {
    /// The authorizer of server `server` at `url`.
    pub fn new(
        server: &str,
        url: &str,
        config: AuthConfig,
        exchange: Exchange,
        store: Rc<dyn TokenStore>,
        wait_for: Option<Rc<dyn WaitFor>>,
    ) -> Self {
        Authorizer {
            server: server.to_owned(),
            url: url.to_owned(),
            config,
            exchange,
            store,
            wait_for,
            current: RefCell::default(),
            asked: RefCell::default(),
            turns: TurnGate::new(1),
            m2m: None,
        }
    }

    /// Waits for this server's turn to answer a 401 / 403 (one at a time); the turn ends when
    /// the permit is dropped. A request refused while another signed in finds a new
    /// [`header`](Self::header) after its turn and is sent again with it.
    pub async fn turn(&self) -> Permit {
        self.turns.acquire().await
    }

    /// This authorizer running `grant` instead of the sign-in.
    pub fn with_m2m(mut self, grant: Option<M2mGrant>) -> Self {
        self.m2m = grant;
        self
    }

    /// The server's config key.
    pub fn server(&self) -> &str {
        &self.server
    }

    /// The `Authorization` header value of the token in use.
    pub fn header(&self) -> Option<String> {
        self.current.borrow().as_ref().map(|c| {
            let scheme = if c.tokens.token_type.eq_ignore_ascii_case("dpop") {
                "DPoP"
            } else {
                "Bearer"
            };
            format!("{scheme} {}", c.tokens.access_token)
        })
    }

    /// The `DPoP` proof header of a request to the server (`auth.dpop`), bound to the token in
    /// use; `None` without DPoP; why, when the proof cannot be signed.
    pub async fn proof(&self, method: &str, url: &str) -> Result<Option<(String, String)>, String> {
        let Some(dpop) = self.exchange.dpop.clone() else {
            return Ok(None);
        };
        let token = self
            .current
            .borrow()
            .as_ref()
            .map(|c| c.tokens.access_token.clone());
        dpop.header(method, url, token.as_deref()).await.map(Some)
    }

    /// Keeps the `DPoP-Nonce` the server at `url` sent, for the next proof.
    pub fn dpop_nonce(&self, url: &str, nonce: &str) {
        if let Some(dpop) = &self.exchange.dpop {
            dpop.nonce(url, nonce);
        }
    }

    /// The issuer of the token in use, when there is one.
    pub fn issuer(&self) -> Option<String> {
        self.current.borrow().as_ref().map(|c| c.issuer.clone())
    }

    /// The secrets a message must never show: the tokens in use and the client's secret.
    pub fn secrets(&self) -> Vec<String> {
        let mut out: Vec<String> = self.config.client_secret.iter().cloned().collect();
        out.extend(self.m2m.iter().flat_map(M2mGrant::secrets));
        if let Some(c) = self.current.borrow().as_ref() {
            out.push(c.tokens.access_token.clone());
            out.extend(c.tokens.refresh_token.clone());
            out.extend(c.client.secret.clone());
        }
        out
    }

    /// Refreshes the token in use when it expires soon and can be refreshed; one that cannot
    /// is dropped (the next 401 signs in again).
    pub async fn fresh(&self) {
        let now = self.exchange.clock.now_ms();
        let due = self
            .current
            .borrow()
            .as_ref()
            .filter(|c| c.tokens.expires_within(now, REFRESH_MARGIN_MS))
            .cloned();
        if let Some(current) = due {
            if self.refresh(&current).await.is_err() {
                *self.current.borrow_mut() = None;
            }
        }
    }

    /// Answers a 401 (or a 403 `insufficient_scope`): tokens for the server from the store
    /// when they are not the ones refused, a refresh, or a new sign-in.
    pub async fn challenged(&self, status: u16, header: &str) -> Result<(), AuthFailure> {
        let challenge = Challenge::parse(header);
        // A DPoP nonce the server asks for (RFC 9449 §9): kept from its answer, sent again.
        if challenge.error.as_deref() == Some("use_dpop_nonce")
            && self.exchange.dpop.is_some()
            && self.current.borrow().is_some()
        {
            return Ok(());
        }
        if self.config.redirect_url.is_none() && self.config.grant == "authorization_code" {
            return Err(AuthFailure::Failed(format!(
                "the server asks for OAuth authorization (HTTP {status}); set auth.redirectUrl on its entry to sign in"
            )));
        }
        let discovered = discover(&self.exchange, &self.url, &challenge)
            .await
            .map_err(AuthFailure::Failed)?;
        self.signed_in(status, &challenge, &discovered)
            .await
            .map_err(
                |failure| match (failure, discovered.metadata.text(FALLBACK)) {
                    (AuthFailure::Failed(why), Some(fallback)) => {
                        AuthFailure::Failed(format!("{why} ({fallback})"))
                    }
                    (failure, _) => failure,
                },
            )
    }

    /// Answers a challenge once discovery is done.
    async fn signed_in(
        &self,
        status: u16,
        challenge: &Challenge,
        discovered: &Discovered,
    ) -> Result<(), AuthFailure> {
        let step_up = status == 403;
        let key = tokens_key(
            &discovered.issuer,
            discovered.resource.as_deref().unwrap_or(&self.url),
        );
        let refused = self.current.borrow_mut().take();
        if !step_up {
            let stored = read(&self.store, &key)
                .await
                .map_err(AuthFailure::Failed)?
                .as_ref()
                .and_then(Tokens::from_json);
            let refused_token = refused.as_ref().map(|c| c.tokens.access_token.as_str());
            if let Some(tokens) = stored {
                let now = self.exchange.clock.now_ms();
                if Some(tokens.access_token.as_str()) != refused_token
                    && !tokens.expires_within(now, REFRESH_MARGIN_MS)
                {
                    let client = self.client(discovered, None).await?;
                    self.use_tokens(discovered, &key, client, tokens);
                    return Ok(());
                }
                if tokens.refresh_token.is_some() {
                    let client = self.client(discovered, None).await?;
                    let current = self.current_of(discovered, &key, client, tokens);
                    if self.refresh(&current).await.is_ok() {
                        return Ok(());
                    }
                }
            }
        }
        let scope = self.scope(discovered, challenge, step_up);
        if let Some(grant) = &self.m2m {
            let (tokens, client) = grant
                .obtain(discovered, &self.url, scope.as_deref(), &self.exchange)
                .await
                .map_err(AuthFailure::Failed)?;
            write(&self.store, &key, &tokens.to_json())
                .await
                .map_err(AuthFailure::Failed)?;
            self.use_tokens(discovered, &key, client, tokens);
            return Ok(());
        }
        let client = self.client(discovered, scope.as_deref()).await?;
        *self.asked.borrow_mut() = scope.clone();
        let redirect = self.config.redirect_url.clone().unwrap_or_default();
        let started = start(
            &self.store,
            &FlowSpec {
                server: &self.server,
                server_url: &self.url,
                discovered,
                client: &client,
                redirect: &redirect,
                scope: scope.as_deref(),
            },
        )
        .await
        .map_err(AuthFailure::Failed)?;
        let Some(wait_for) = &self.wait_for else {
            return Err(AuthFailure::Pending(Box::new(started.request)));
        };
        let answer = wait_for
            .wait_for(&started.request)
            .await
            .map_err(|why| AuthFailure::Failed(format!("waitFor failed: {why}")))?;
        let url = answer_url(&answer, &started.request)?;
        self.finish(&url, Some(&started.state)).await
    }

    /// Finishes a sign-in left pending with the host's Answer (`{ok: true, data: {url}}`):
    /// the flow is the one the redirect's state names in the store (it must be this server's,
    /// and `expected` when given).
    pub async fn resume(&self, answer: &Value, expected: Option<&str>) -> Result<(), String> {
        let url = redirect_url(answer).map_err(|f| match f {
            AuthFailure::Failed(why) => why,
            AuthFailure::Pending(_) => String::new(),
        })?;
        self.finish(&url, expected).await.map_err(|f| match f {
            AuthFailure::Failed(why) => why,
            AuthFailure::Pending(_) => String::new(),
        })
    }

    /// The server a kept flow was started for, by its state (`None`: no such flow).
    pub async fn flow_server(&self, state: &str) -> Option<String> {
        let flow = read(&self.store, &super::store::flow_key(state))
            .await
            .ok()??;
        flow.get("server")?.as_str().map(str::to_owned)
    }

    async fn finish(&self, url: &str, state: Option<&str>) -> Result<(), AuthFailure> {
        let checked = check(&self.store, url, state)
            .await
            .map_err(AuthFailure::Failed)?;
        if checked.field("server") != self.server {
            return Err(AuthFailure::Failed(format!(
                "the redirect answers a sign-in to server \"{}\", not \"{}\"",
                checked.field("server"),
                self.server
            )));
        }
        let secret = self
            .secret(&checked.field("issuer"), &checked.field("clientId"))
            .await;
        let done = exchange_code(&self.exchange, checked, secret)
            .await
            .map_err(AuthFailure::Failed)?;
        let key = tokens_key(&done.issuer, done.resource.as_deref().unwrap_or(&self.url));
        write(&self.store, &key, &done.tokens.to_json())
            .await
            .map_err(AuthFailure::Failed)?;
        *self.current.borrow_mut() = Some(Current {
            tokens: done.tokens,
            issuer: done.issuer,
            key,
            token_endpoint: done.token_endpoint,
            client: done.client,
            resource: done.resource,
        });
        Ok(())
    }

    /// The client's secret for a flow: the configured one for the configured client, else
    /// the one registered with the issuer.
    async fn secret(&self, issuer: &str, client_id: &str) -> Option<String> {
        if self.config.client_id.as_deref() == Some(client_id) {
            return self.config.client_secret.clone();
        }
        let redirect = self.config.redirect_url.as_deref().unwrap_or("");
        let kept = read(&self.store, &client_key(issuer, redirect))
            .await
            .ok()??;
        (kept.get("client_id")?.as_str()? == client_id)
            .then(|| kept.get("client_secret")?.as_str().map(str::to_owned))?
    }

    async fn client(
        &self,
        discovered: &Discovered,
        scope: Option<&str>,
    ) -> Result<ClientCredentials, AuthFailure> {
        client_for(
            &self.exchange,
            &self.store,
            &self.config,
            &discovered.issuer,
            &discovered.metadata,
            scope,
        )
        .await
        .map_err(AuthFailure::Failed)
    }

    /// The scope to ask for: the configured one; on a step-up the union of what was asked and
    /// what the 403 names; else the 401's, else the resource's `scopes_supported`, else none.
    /// `offline_access` is added when the authorization server lists it.
    fn scope(
        &self,
        discovered: &Discovered,
        challenge: &Challenge,
        step_up: bool,
    ) -> Option<String> {
        let mut words: Vec<String> = Vec::new();
        let add = |words: &mut Vec<String>, text: &str| {
            for word in text.split_whitespace() {
                if !words.iter().any(|w| w == word) {
                    words.push(word.to_owned());
                }
            }
        };
        if let Some(configured) = &self.config.scope {
            add(&mut words, configured);
        } else {
            if step_up {
                if let Some(asked) = self.asked.borrow().as_deref() {
                    add(&mut words, asked);
                }
            }
            match (&challenge.scope, &discovered.resource_scopes) {
                (Some(scope), _) => add(&mut words, scope),
                (None, Some(supported)) if !step_up => add(&mut words, &supported.join(" ")),
                _ => {}
            }
        }
        if !words.is_empty()
            && discovered
                .metadata
                .lists("scopes_supported", "offline_access")
        {
            add(&mut words, "offline_access");
        }
        (!words.is_empty()).then(|| words.join(" "))
    }

    fn current_of(
        &self,
        discovered: &Discovered,
        key: &str,
        client: ClientCredentials,
        tokens: Tokens,
    ) -> Current {
        Current {
            tokens,
            issuer: discovered.issuer.clone(),
            key: key.to_owned(),
            token_endpoint: discovered
                .metadata
                .text("token_endpoint")
                .unwrap_or("")
                .to_owned(),
            client,
            resource: discovered.resource.clone(),
        }
    }

    fn use_tokens(
        &self,
        discovered: &Discovered,
        key: &str,
        client: ClientCredentials,
        tokens: Tokens,
    ) {
        *self.current.borrow_mut() = Some(self.current_of(discovered, key, client, tokens));
    }

    async fn refresh(&self, current: &Current) -> Result<(), String> {
        let Some(refresh_token) = current.tokens.refresh_token.clone() else {
            return Err("no refresh token".into());
        };
        let mut params = vec![
            ("grant_type".to_owned(), "refresh_token".to_owned()),
            ("refresh_token".to_owned(), refresh_token.clone()),
        ];
        if let Some(resource) = &current.resource {
            params.push(("resource".into(), resource.clone()));
        }
        let mut tokens = token_request(
            &self.exchange,
            &current.token_endpoint,
            &current.client,
            params,
            Vec::new(),
        )
        .await?;
        if tokens.refresh_token.is_none() {
            tokens.refresh_token = Some(refresh_token);
        }
        if tokens.scope.is_none() {
            tokens.scope = current.tokens.scope.clone();
        }
        write(&self.store, &current.key, &tokens.to_json()).await?;
        let mut next = current.clone();
        next.tokens = tokens;
        *self.current.borrow_mut() = Some(next);
        Ok(())
    }
}

/// The redirect URL of an Answer to `request`: `ok: false` is a refusal.
fn answer_url(answer: &Value, request: &Request) -> Result<String, AuthFailure> {
    if answer.get("id").and_then(Value::as_str) != Some(request.id.as_str()) {
        return Err(AuthFailure::Failed(format!(
            "the answer is not for the sign-in \"{}\"",
            request.id
        )));
    }
    redirect_url(answer)
}

/// The redirect URL an Answer carries: `ok: false` is a refusal.
fn redirect_url(answer: &Value) -> Result<String, AuthFailure> {
    let answer = Answer::from_json(answer.clone()).map_err(|why| {
        AuthFailure::Failed(format!("the answer to the sign-in is not an Answer: {why}"))
    })?;
    if !answer.ok {
        let reason = answer.reason.unwrap_or_else(|| "declined".into());
        return Err(AuthFailure::Failed(format!(
            "the sign-in was not done ({reason})"
        )));
    }
    answer
        .data
        .as_ref()
        .and_then(|d| d.get("url"))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| {
            AuthFailure::Failed(
                "the answer to the sign-in carries no data.url (the URL the redirect came back to)"
                    .into(),
            )
        })
}
