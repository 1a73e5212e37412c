//! The authorization-code grant with PKCE (OAuth 2.1 §4.1, RFC 7636): [`start`] makes the
//! authorization URL and keeps the flow (verifier, state, issuer, resource, client, redirect)
//! in the token store under its `state`; the host sends the person there (a §10 `Request` of
//! kind `authorization`) and brings back the URL the redirect came to; [`finish`] checks it
//! (the state is one this store is waiting for, used once; `error`; `iss`, RFC 9207) and
//! exchanges the code.

use std::rc::Rc;

use super::discovery::Discovered;
use super::fetch::Exchange;
use super::pkce::{challenge, random_text};
use super::store::{flow_key, forget, read, write};
use super::token::{token_request, ClientCredentials, Tokens};
use super::url::{with_query, HttpUrl};
use crate::core::host::TokenStore;
use crate::core::json::value::{Map, Value};
use crate::core::types::Request;

/// A started flow: the host's step, and the state it is kept under.
pub struct Started {
    /// What the host is asked to do.
    pub request: Request,
    /// The flow's `state`.
    pub state: String,
}

/// What `start` needs to know.
pub struct FlowSpec<'a> {
    /// The server's config key.
    pub server: &'a str,
    /// The server's URL.
    pub server_url: &'a str,
    /// What discovery found.
    pub discovered: &'a Discovered,
    /// The client.
    pub client: &'a ClientCredentials,
    /// `redirect_uri`.
    pub redirect: &'a str,
    /// The scope to ask for.
    pub scope: Option<&'a str>,
}

/// Makes the authorization URL and keeps the flow under its state.
pub async fn start(store: &Rc<dyn TokenStore>, spec: &FlowSpec<'_>) -> Result<Started, String> {
    let metadata = &spec.discovered.metadata;
    if let Some(methods) = metadata.list("code_challenge_methods_supported") {
        if !methods.iter().any(|m| m == "S256") {
            return Err(format!(
                "the authorization server {} does not support PKCE with S256",
                spec.discovered.issuer
            ));
        }
    }
    let endpoint = metadata
        .text("authorization_endpoint")
        .ok_or("the authorization server has no authorization_endpoint")?;
    let verifier = random_text(32)?;
    let state = random_text(24)?;
    let code_challenge = challenge(&verifier);
    let mut pairs: Vec<(&str, &str)> = vec![
        ("response_type", "code"),
        ("client_id", &spec.client.id),
        ("redirect_uri", spec.redirect),
        ("code_challenge", &code_challenge),
        ("code_challenge_method", "S256"),
        ("state", &state),
    ];
    if let Some(scope) = spec.scope {
        pairs.push(("scope", scope));
    }
    if let Some(resource) = &spec.discovered.resource {
        pairs.push(("resource", resource));
    }
    let url = with_query(endpoint, &pairs);
    let token_endpoint = metadata.text("token_endpoint").unwrap_or("");
    let flow = crate::json_value!({
        "state": state,
        "verifier": verifier,
        "server": spec.server,
        "serverUrl": spec.server_url,
        "issuer": spec.discovered.issuer,
        "resource": spec.discovered.resource,
        "tokenEndpoint": token_endpoint,
        "clientId": spec.client.id,
        "method": spec.client.method,
        "redirect": spec.redirect,
        "scope": spec.scope,
        "issRequired": metadata.flag("authorization_response_iss_parameter_supported"),
    });
    write(store, &flow_key(&state), &flow).await?;
    let mut data = Map::new();
    data.insert("server".into(), Value::String(spec.server.to_owned()));
    data.insert(
        "issuer".into(),
        Value::String(spec.discovered.issuer.clone()),
    );
    if let Some(resource) = &spec.discovered.resource {
        data.insert("resource".into(), Value::String(resource.clone()));
    }
    data.insert("state".into(), Value::String(state.clone()));
    let request = Request {
        id: format!("oauth-{}", state.get(..12).unwrap_or(&state)),
        kind: "authorization".into(),
        prompt: format!("Sign in to {} to use its tools", spec.server),
        url: Some(url),
        data: Some(data),
        expires_at: None,
    };
    Ok(Started { request, state })
}

/// A finished flow: the tokens and where they belong.
pub struct Finished {
    /// The server's config key the flow was for.
    pub server: String,
    /// The issuer.
    pub issuer: String,
    /// The resource (`None` for a 2025-03-26 server).
    pub resource: Option<String>,
    /// The token endpoint.
    pub token_endpoint: String,
    /// The client.
    pub client: ClientCredentials,
    /// The tokens.
    pub tokens: Tokens,
}

/// The `state` a redirect URL carries.
///
/// ```
/// # use toolnexus::core::mcp::auth::flow::state_of;
/// assert_eq!(state_of("http://localhost/cb?code=c&state=abc").as_deref(), Some("abc"));
/// assert_eq!(state_of("not a url"), None);
/// ```
pub fn state_of(redirect: &str) -> Option<String> {
    HttpUrl::parse(redirect)?.param("state")
}

/// A redirect checked against the flow it answers, its code not exchanged yet.
pub struct Checked {
    flow: Value,
    code: String,
}

impl Checked {
    /// A text field of the flow record.
    pub fn field(&self, key: &str) -> String {
        self.flow
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    }
}

/// Checks the URL the redirect came back to: its state names a flow this store is waiting for
/// (and the one the caller expects, when it knows it), no `error`, the `iss` (RFC 9207), a
/// code. The flow is forgotten here, so a replay of the same redirect is refused.
///
/// ```
/// # use std::rc::Rc;
/// # use toolnexus::core::host::TokenStore;
/// use toolnexus::core::mcp::auth::{flow::check, store::MemoryTokenStore};
/// let store: Rc<dyn TokenStore> = Rc::new(MemoryTokenStore::default());
/// let refused = futures_executor::block_on(check(&store, "http://localhost/cb?code=c&state=unknown", None));
/// assert!(refused.err().unwrap().contains("no sign-in is waiting"));
/// ```
pub async fn check(
    store: &Rc<dyn TokenStore>,
    redirect: &str,
    expected: Option<&str>,
) -> Result<Checked, String> {
    let url = HttpUrl::parse(redirect)
        .ok_or("the answer's data.url is not the http(s) URL the sign-in redirected to")?;
    let state = url
        .param("state")
        .ok_or("the redirect carries no state; refusing it")?;
    if expected.is_some_and(|e| e != state) {
        return Err(
            "the redirect's state does not match the sign-in that was started; refusing it".into(),
        );
    }
    let key = flow_key(&state);
    let flow = read(store, &key)
        .await?
        .ok_or("no sign-in is waiting for the redirect's state (it was finished already, or it is not this client's)")?;
    forget(store, &key).await?;
    let clip = |s: &str| s.chars().take(200).collect::<String>();
    if let Some(error) = url.param("error") {
        let description = url
            .param("error_description")
            .map(|d| format!(" ({})", clip(&d)))
            .unwrap_or_default();
        return Err(format!(
            "the sign-in was refused by the authorization server: {}{description}",
            clip(&error)
        ));
    }
    let issuer = flow
        .get("issuer")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    match url.param("iss") {
        Some(iss) if iss != issuer => {
            return Err(format!(
                "the redirect's iss \"{}\" is not the authorization server's issuer \"{issuer}\" (RFC 9207); refusing it",
                clip(&iss)
            ))
        }
        None if flow.get("issRequired").and_then(Value::as_bool) == Some(true) => {
            return Err(format!(
                "the redirect carries no iss, which the authorization server {issuer} promises (RFC 9207); refusing it"
            ))
        }
        _ => {}
    }
    let code = url
        .param("code")
        .filter(|c| !c.is_empty())
        .ok_or("the redirect carries no code")?;
    Ok(Checked { flow, code })
}

/// Exchanges a checked redirect's code for tokens, the client authenticated with `secret`
/// (looked up by the caller: it is never kept in the flow).
pub async fn exchange_code(
    exchange: &Exchange,
    checked: Checked,
    secret: Option<String>,
) -> Result<Finished, String> {
    let client = ClientCredentials {
        id: checked.field("clientId"),
        secret,
        method: checked.field("method"),
    };
    let resource = checked
        .flow
        .get("resource")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let mut params = vec![
        ("grant_type".to_owned(), "authorization_code".to_owned()),
        ("code".to_owned(), checked.code.clone()),
        ("redirect_uri".to_owned(), checked.field("redirect")),
        ("code_verifier".to_owned(), checked.field("verifier")),
    ];
    if let Some(resource) = &resource {
        params.push(("resource".into(), resource.clone()));
    }
    let token_endpoint = checked.field("tokenEndpoint");
    let mut tokens = token_request(exchange, &token_endpoint, &client, params, Vec::new()).await?;
    if tokens.scope.is_none() {
        tokens.scope = checked
            .flow
            .get("scope")
            .and_then(Value::as_str)
            .map(str::to_owned);
    }
    Ok(Finished {
        server: checked.field("server"),
        issuer: checked.field("issuer"),
        resource,
        token_endpoint,
        client,
        tokens,
    })
}
