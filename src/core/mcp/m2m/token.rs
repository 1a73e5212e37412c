//! Sending a token request and reading the answer (RFC 6749 §5): the access token, its type
//! and lifetime, or the endpoint's refusal as a sentence that names the OAuth error code and
//! never the request's secrets (the caller redacts what the server echoes).

use super::form::TokenRequest;
use crate::core::host::{Http, HttpRequest};
use crate::core::json::value::Value;

/// What a token endpoint handed out.
#[derive(Clone, PartialEq)]
pub struct Token {
    /// The access token (for the identity provider's exchange: the ID-JAG).
    pub access_token: String,
    /// `Bearer`, `DPoP`, `N_A`, … as the endpoint said (`Bearer` when it said nothing).
    pub token_type: String,
    /// Seconds it lives, when the endpoint said.
    pub expires_in: Option<f64>,
    /// The scope granted, when the endpoint said.
    pub scope: Option<String>,
    /// The refresh token, when one came.
    pub refresh_token: Option<String>,
}

impl std::fmt::Debug for Token {
    /// Never the tokens.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Token({}, expires_in: {:?})",
            self.token_type, self.expires_in
        )
    }
}

/// Why a token request gave no token.
#[derive(Debug, Clone, PartialEq)]
pub enum TokenError {
    /// The request never got an answer (network, abort).
    Transport(String),
    /// The endpoint refused: its status, OAuth `error` and `error_description`, and the
    /// `DPoP-Nonce` it asked for (RFC 9449 §8), if any.
    Refused {
        /// The HTTP status.
        status: u16,
        /// The OAuth error code (`invalid_client`, `use_dpop_nonce`, …), if it sent one.
        error: Option<String>,
        /// Its description, if it sent one.
        description: Option<String>,
        /// The nonce of a `use_dpop_nonce` answer.
        dpop_nonce: Option<String>,
    },
    /// A success status whose body is not a token response.
    Garbage(String),
}

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenError::Transport(why) => write!(f, "the token request failed: {why}"),
            TokenError::Refused {
                status,
                error,
                description,
                ..
            } => {
                write!(f, "the token endpoint refused (HTTP {status})")?;
                if let Some(error) = error {
                    write!(f, ": {error}")?;
                }
                if let Some(description) = description {
                    write!(f, " ({})", clip(description))?;
                }
                Ok(())
            }
            TokenError::Garbage(why) => write!(f, "the token endpoint's answer {why}"),
        }
    }
}

fn clip(text: &str) -> &str {
    match text.char_indices().nth(200) {
        Some((at, _)) => text.get(..at).unwrap_or(text),
        None => text,
    }
}

/// POSTs `request` and reads the token.
///
/// ```
/// # use toolnexus::core::host::{Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture};
/// # use toolnexus::core::mcp::m2m::{form::TokenRequest, token::request_token};
/// struct As;
/// impl Http for As {
///     fn send(&self, r: &HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
///         assert_eq!(r.body.as_deref(), Some("grant_type=client_credentials"));
///         let body = r#"{"access_token":"t0k","token_type":"Bearer","expires_in":60}"#.into();
///         Box::pin(async move { Ok(HttpResponse { status: 200, retry_after: None, body }) })
///     }
/// }
/// let request = TokenRequest::client_credentials("https://as/token", None, None);
/// let token = futures_executor::block_on(request_token(&As, &request)).unwrap();
/// assert_eq!((token.access_token.as_str(), token.expires_in), ("t0k", Some(60.0)));
/// ```
pub async fn request_token(http: &dyn Http, request: &TokenRequest) -> Result<Token, TokenError> {
    let mut headers = vec![
        (
            "content-type".to_owned(),
            "application/x-www-form-urlencoded".to_owned(),
        ),
        ("accept".to_owned(), "application/json".to_owned()),
    ];
    headers.extend(request.headers.iter().cloned());
    let sent = HttpRequest {
        method: "POST".into(),
        url: request.url.as_str().into(),
        headers: headers.into(),
        body: Some(request.body()),
        splice: None,
        signal: None,
    };
    let mut response = http
        .open_with_headers(&sent)
        .await
        .map_err(|e| TokenError::Transport(e.to_string()))?;
    let status = response.status;
    let dpop_nonce = response.header("dpop-nonce").map(str::to_owned);
    let mut bytes = Vec::new();
    while let Some(chunk) = response.body.next_chunk().await {
        match chunk {
            Ok(chunk) => bytes.extend_from_slice(&chunk),
            Err(e) => return Err(TokenError::Transport(e.to_string())),
        }
    }
    let text = crate::core::text::from_utf8_lossy(&bytes);
    let parsed = crate::core::json::parse::from_str(&text).ok();
    if !(200..300).contains(&status) {
        let field = |name: &str| {
            parsed
                .as_ref()
                .and_then(|v| v.get(name))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        return Err(TokenError::Refused {
            status,
            error: field("error"),
            description: field("error_description"),
            dpop_nonce,
        });
    }
    let Some(Value::Object(body)) = parsed else {
        return Err(TokenError::Garbage(format!(
            "(HTTP {status}) is not a JSON object"
        )));
    };
    let text_of = |name: &str| body.get(name).and_then(Value::as_str).map(str::to_owned);
    let access_token = text_of("access_token")
        .filter(|t| !t.is_empty())
        .ok_or_else(|| TokenError::Garbage("has no \"access_token\"".into()))?;
    Ok(Token {
        access_token,
        token_type: text_of("token_type").unwrap_or_else(|| "Bearer".into()),
        expires_in: body.get("expires_in").and_then(Value::as_f64),
        scope: text_of("scope"),
        refresh_token: text_of("refresh_token"),
    })
}
