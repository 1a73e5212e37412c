//! The token endpoint (RFC 6749 §3.2, OAuth 2.1 §3.2): one function sends any grant with the
//! client authenticated as the client's method says (`client_secret_basic`,
//! `client_secret_post`, `none`; another method sends `client_id` and leaves its own
//! parameters, such as a `client_assertion`, to the caller) and reads the tokens back. Every
//! grant of the library goes through [`token_request`].

use base64ct::{Base64, Encoding};

use super::fetch::Exchange;
use super::url::form;
use crate::core::json::value::Value;

/// A client as the token endpoint knows it. Its secret never goes into a message.
#[derive(Clone, PartialEq)]
pub struct ClientCredentials {
    /// `client_id`.
    pub id: String,
    /// `client_secret`, for the `client_secret_*` methods.
    pub secret: Option<String>,
    /// `token_endpoint_auth_method`.
    pub method: String,
}

impl std::fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ClientCredentials({}, {})", self.id, self.method)
    }
}

/// Tokens as a token endpoint gave them, with the instant they expire.
#[derive(Clone, PartialEq)]
pub struct Tokens {
    /// `access_token`.
    pub access_token: String,
    /// `token_type` (`Bearer`).
    pub token_type: String,
    /// `refresh_token`.
    pub refresh_token: Option<String>,
    /// When the access token expires, in ms since the epoch (from `expires_in`).
    pub expires_at_ms: Option<f64>,
    /// `scope` as granted (or as asked, when the answer did not say).
    pub scope: Option<String>,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tokens([redacted])")
    }
}

impl Tokens {
    /// As kept in the token store.
    pub fn to_json(&self) -> Value {
        crate::json_value!({
            "access_token": self.access_token,
            "token_type": self.token_type,
            "refresh_token": self.refresh_token,
            "expires_at": self.expires_at_ms,
            "scope": self.scope,
        })
    }

    /// Back from the store; `None` when it is not a token record.
    ///
    /// ```
    /// # use toolnexus::core::mcp::auth::token::Tokens;
    /// let t = Tokens::from_json(&toolnexus::json!({"access_token": "a", "token_type": "Bearer", "expires_at": 5.0})).unwrap();
    /// assert_eq!(Tokens::from_json(&t.to_json()), Some(t));
    /// ```
    pub fn from_json(value: &Value) -> Option<Tokens> {
        let text = |k: &str| value.get(k).and_then(Value::as_str).map(str::to_owned);
        Some(Tokens {
            access_token: text("access_token").filter(|t| !t.is_empty())?,
            token_type: text("token_type").unwrap_or_else(|| "Bearer".into()),
            refresh_token: text("refresh_token"),
            expires_at_ms: value.get("expires_at").and_then(Value::as_f64),
            scope: text("scope"),
        })
    }

    /// Whether the access token has expired, or will within `margin_ms`.
    pub fn expires_within(&self, now_ms: f64, margin_ms: f64) -> bool {
        self.expires_at_ms
            .is_some_and(|at| at - margin_ms <= now_ms)
    }
}

/// Adds the client's authentication to a token (or other endpoint) request.
///
/// ```
/// # use toolnexus::core::mcp::auth::token::{authenticate, ClientCredentials};
/// let client = ClientCredentials { id: "c 1".into(), secret: Some("s:2".into()), method: "client_secret_basic".into() };
/// let (mut params, mut headers) = (vec![], vec![]);
/// authenticate(&client, &mut params, &mut headers);
/// assert!(params.is_empty());
/// assert_eq!(headers[0].1, "Basic YysxOnMlM0Ey"); // base64("c+1:s%3A2")
/// ```
pub fn authenticate(
    client: &ClientCredentials,
    params: &mut Vec<(String, String)>,
    headers: &mut Vec<(String, String)>,
) {
    match (client.method.as_str(), &client.secret) {
        ("client_secret_basic", Some(secret)) => {
            // RFC 6749 §2.3.1: each part form-encoded before joining.
            let pair = format!("{}:{}", form_part(&client.id), form_part(secret));
            let value = format!("Basic {}", Base64::encode_string(pair.as_bytes()));
            headers.push(("authorization".into(), value));
        }
        ("client_secret_post", Some(secret)) => {
            params.push(("client_id".into(), client.id.clone()));
            params.push(("client_secret".into(), secret.clone()));
        }
        _ => params.push(("client_id".into(), client.id.clone())),
    }
}

fn form_part(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// Sends one grant to `endpoint`: `params` (the grant's own: `grant_type`, `code`, …) with
/// the client authenticated, plus `headers`. Resolves with the tokens, or a message naming
/// what went wrong: the HTTP status and the OAuth `error` (`error_description`), an answer
/// that is not JSON or has no `access_token`. No token, code or secret is ever in it.
///
/// ```
/// use std::rc::Rc;
/// use toolnexus::core::host::{Clock, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture};
/// use toolnexus::core::mcp::auth::{fetch::Exchange, token::{token_request, ClientCredentials}};
/// /// A token endpoint that answers every grant with the same token.
/// struct Endpoint;
/// impl Http for Endpoint {
///     fn send(&self, r: &HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
///         assert!(r.body.as_deref().unwrap().starts_with("grant_type=client_credentials&client_id=c&client_secret=s"));
///         let body = r#"{"access_token":"t","token_type":"Bearer","expires_in":60}"#.to_owned();
///         Box::pin(async move { Ok(HttpResponse { status: 200, retry_after: None, body }) })
///     }
/// }
/// struct Frozen;
/// impl Clock for Frozen {
///     fn now_ms(&self) -> f64 { 1000.0 }
///     fn sleep(&self, _ms: f64) -> LocalBoxFuture<'static, ()> { Box::pin(std::future::pending()) }
/// }
/// let exchange = Exchange { http: Rc::new(Endpoint), clock: Rc::new(Frozen), timeout_ms: 5000.0, dpop: None };
/// let client = ClientCredentials { id: "c".into(), secret: Some("s".into()), method: "client_secret_post".into() };
/// let grant = vec![("grant_type".to_owned(), "client_credentials".to_owned())];
/// let tokens = futures_executor::block_on(token_request(&exchange, "https://as/token", &client, grant, vec![])).unwrap();
/// assert_eq!(tokens.access_token, "t");
/// assert_eq!(tokens.expires_at_ms, Some(61_000.0));
/// ```
pub async fn token_request(
    exchange: &Exchange,
    endpoint: &str,
    client: &ClientCredentials,
    mut params: Vec<(String, String)>,
    mut headers: Vec<(String, String)>,
) -> Result<Tokens, String> {
    authenticate(client, &mut params, &mut headers);
    headers.push((
        "content-type".into(),
        "application/x-www-form-urlencoded".into(),
    ));
    headers.push(("accept".into(), "application/json".into()));
    let asked_scope = params
        .iter()
        .find(|(k, _)| k == "scope")
        .map(|(_, v)| v.clone());
    let pairs: Vec<(&str, &str)> = params
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let body = form(&pairs);
    let answer = match &exchange.dpop {
        Some(dpop) => dpop.send_token(exchange, endpoint, headers, body).await?,
        None => {
            exchange
                .send("the token request", "POST", endpoint, headers, Some(body))
                .await?
        }
    };
    let body = answer.object();
    if !(200..300).contains(&answer.status) {
        return Err(format!(
            "the token endpoint answered HTTP {}{}",
            answer.status,
            oauth_error(body.as_ref())
        ));
    }
    let Some(body) = body else {
        return Err("the token endpoint's answer is not a JSON object".into());
    };
    let text = |k: &str| body.get(k).and_then(Value::as_str).map(str::to_owned);
    let Some(access_token) = text("access_token").filter(|t| !t.is_empty()) else {
        return Err(format!(
            "the token endpoint's answer has no access_token{}",
            oauth_error(Some(&body))
        ));
    };
    let expires_in = body.get("expires_in").and_then(|v| match v {
        Value::String(s) => s.parse::<f64>().ok(),
        v => v.as_f64(),
    });
    Ok(Tokens {
        access_token,
        token_type: text("token_type").unwrap_or_else(|| "Bearer".into()),
        refresh_token: text("refresh_token"),
        expires_at_ms: expires_in
            .filter(|s| s.is_finite() && *s > 0.0)
            .map(|s| exchange.clock.now_ms() + s * 1000.0),
        scope: text("scope").or(asked_scope),
    })
}

/// `: <error> (<error_description>)` of an OAuth error body, clipped; empty without one.
pub fn oauth_error(body: Option<&Value>) -> String {
    let Some(body) = body else {
        return String::new();
    };
    let clip = |s: &str| s.chars().take(200).collect::<String>();
    match (
        body.get("error").and_then(Value::as_str),
        body.get("error_description").and_then(Value::as_str),
    ) {
        (Some(e), Some(d)) => format!(": {} ({})", clip(e), clip(d)),
        (Some(e), None) => format!(": {}", clip(e)),
        _ => String::new(),
    }
}
