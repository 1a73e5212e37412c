//! Token requests of the machine-to-machine grants, built as data: the grant's parameters,
//! the client's authentication (RFC 6749 §2.3: `client_secret_basic`, `client_secret_post`,
//! `none`; RFC 7523 §2.2: `private_key_jwt`), the form body and headers. Sending is
//! [`super::token`]'s.

use base64ct::{Base64, Encoding as _};

/// `grant_type` of the client credentials grant (RFC 6749 §4.4).
pub const CLIENT_CREDENTIALS: &str = "client_credentials";
/// `grant_type` of the JWT bearer grant (RFC 7523 §2.1).
pub const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// `grant_type` of token exchange (RFC 8693).
pub const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
/// The token type of an OpenID Connect ID token (RFC 8693 §3).
pub const ID_TOKEN: &str = "urn:ietf:params:oauth:token-type:id_token";
/// The token type of an Identity Assertion JWT Authorization Grant (ID-JAG).
pub const ID_JAG: &str = "urn:ietf:params:oauth:token-type:id-jag";
/// `client_assertion_type` of a JWT client assertion (RFC 7523 §2.2).
pub const JWT_ASSERTION: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// How the client proves who it is at a token endpoint.
#[derive(Clone, PartialEq)]
pub enum ClientAuth {
    /// `Authorization: Basic` of the form-encoded id and secret.
    Basic {
        /// The client id.
        id: String,
        /// The client secret.
        secret: String,
    },
    /// `client_id` and `client_secret` in the body.
    Post {
        /// The client id.
        id: String,
        /// The client secret.
        secret: String,
    },
    /// `client_id` in the body only (a public client).
    None {
        /// The client id.
        id: String,
    },
    /// A signed client assertion (`private_key_jwt`), already made.
    Assertion {
        /// The signed JWT.
        jwt: String,
    },
}

impl std::fmt::Debug for ClientAuth {
    /// Never the secret or the assertion.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientAuth::Basic { id, .. } => write!(f, "Basic({id})"),
            ClientAuth::Post { id, .. } => write!(f, "Post({id})"),
            ClientAuth::None { id } => write!(f, "None({id})"),
            ClientAuth::Assertion { .. } => f.write_str("Assertion(..)"),
        }
    }
}

/// One token request: where it goes, its form and its extra headers.
///
/// ```
/// # use toolnexus::core::mcp::m2m::form::{ClientAuth, TokenRequest};
/// let request = TokenRequest::client_credentials("https://as/token", Some("a b"), Some("https://rs/mcp"))
///     .authenticated(&ClientAuth::Basic { id: "app".into(), secret: "s".into() });
/// assert_eq!(request.body(), "grant_type=client_credentials&scope=a+b&resource=https%3A%2F%2Frs%2Fmcp");
/// assert_eq!(request.headers, vec![("authorization".to_owned(), "Basic YXBwOnM=".to_owned())]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TokenRequest {
    /// The token endpoint.
    pub url: String,
    /// The form parameters, in order.
    pub form: Vec<(String, String)>,
    /// Headers besides the content type (`authorization`, `dpop`).
    pub headers: Vec<(String, String)>,
}

impl TokenRequest {
    /// A request of `grant_type` to `url`.
    pub fn new(url: &str, grant_type: &str) -> Self {
        TokenRequest {
            url: url.to_owned(),
            form: vec![("grant_type".into(), grant_type.into())],
            headers: Vec::new(),
        }
    }

    /// Adds a parameter when it has a value.
    pub fn param(mut self, name: &str, value: Option<&str>) -> Self {
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            self.form.push((name.into(), value.into()));
        }
        self
    }

    /// The client credentials grant, for `scope` at `resource` (RFC 8707).
    pub fn client_credentials(url: &str, scope: Option<&str>, resource: Option<&str>) -> Self {
        TokenRequest::new(url, CLIENT_CREDENTIALS)
            .param("scope", scope)
            .param("resource", resource)
    }

    /// The JWT bearer grant (RFC 7523 §2.1): `assertion` (a workload identity token, an
    /// ID-JAG) traded for an access token.
    ///
    /// ```
    /// # use toolnexus::core::mcp::m2m::form::TokenRequest;
    /// let r = TokenRequest::jwt_bearer("https://as/token", "e.y.j", None, None);
    /// assert_eq!(r.body(), "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=e.y.j");
    /// ```
    pub fn jwt_bearer(
        url: &str,
        assertion: &str,
        scope: Option<&str>,
        resource: Option<&str>,
    ) -> Self {
        TokenRequest::new(url, JWT_BEARER)
            .param("assertion", Some(assertion))
            .param("scope", scope)
            .param("resource", resource)
    }

    /// Token exchange at an identity provider (RFC 8693): an ID token for an ID-JAG naming
    /// the authorization server (`audience`) and the MCP server (`resource`).
    ///
    /// ```
    /// # use toolnexus::core::mcp::m2m::form::TokenRequest;
    /// let r = TokenRequest::id_jag_exchange("https://idp/token", "id.tok.en", "https://as", "https://rs/mcp", None);
    /// assert!(r.body().contains("requested_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aid-jag"));
    /// assert!(r.body().contains("audience=https%3A%2F%2Fas&resource="));
    /// ```
    pub fn id_jag_exchange(
        url: &str,
        id_token: &str,
        audience: &str,
        resource: &str,
        scope: Option<&str>,
    ) -> Self {
        TokenRequest::new(url, TOKEN_EXCHANGE)
            .param("requested_token_type", Some(ID_JAG))
            .param("audience", Some(audience))
            .param("resource", Some(resource))
            .param("scope", scope)
            .param("subject_token", Some(id_token))
            .param("subject_token_type", Some(ID_TOKEN))
    }

    /// The request with the client's authentication added.
    pub fn authenticated(mut self, auth: &ClientAuth) -> Self {
        match auth {
            ClientAuth::Basic { id, secret } => {
                let pair = format!("{}:{}", encode(id), encode(secret));
                self.headers.push((
                    "authorization".into(),
                    format!("Basic {}", Base64::encode_string(pair.as_bytes())),
                ));
            }
            ClientAuth::Post { id, secret } => {
                self.form.push(("client_id".into(), id.clone()));
                self.form.push(("client_secret".into(), secret.clone()));
            }
            ClientAuth::None { id } => self.form.push(("client_id".into(), id.clone())),
            ClientAuth::Assertion { jwt } => {
                self.form
                    .push(("client_assertion_type".into(), JWT_ASSERTION.into()));
                self.form.push(("client_assertion".into(), jwt.clone()));
            }
        }
        self
    }

    /// The form as `application/x-www-form-urlencoded` text.
    pub fn body(&self) -> String {
        let mut out = String::new();
        for (name, value) in &self.form {
            if !out.is_empty() {
                out.push('&');
            }
            out.push_str(&encode(name));
            out.push('=');
            out.push_str(&encode(value));
        }
        out
    }
}

/// `text` encoded for a form (the URL standard's `application/x-www-form-urlencoded`).
///
/// ```
/// assert_eq!(toolnexus::core::mcp::m2m::form::encode("a b/ü*"), "a+b%2F%C3%BC*");
/// ```
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(byte as char)
            }
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                for nibble in [byte >> 4, byte & 15] {
                    let digit = char::from_digit(u32::from(nibble), 16).unwrap_or('0');
                    out.push(digit.to_ascii_uppercase());
                }
            }
        }
    }
    out
}
