//! The token requests of the machine-to-machine grants, as data: the grant's own parameters
//! (the client's authentication is added when it is sent, by
//! [`token_request`](crate::core::mcp::auth::token::token_request), and a client assertion by
//! [`super::flow`]).

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

/// One token request: where it goes, its parameters and its extra headers.
///
/// ```
/// # use toolnexus::core::mcp::m2m::form::TokenRequest;
/// let request = TokenRequest::client_credentials("https://as/token", Some("a b"), Some("https://rs/mcp"));
/// assert_eq!(request.param("grant_type"), Some("client_credentials"));
/// assert_eq!(request.param("scope"), Some("a b"));
/// assert_eq!(request.param("resource"), Some("https://rs/mcp"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TokenRequest {
    /// The token endpoint.
    pub url: String,
    /// The parameters, in order.
    pub params: Vec<(String, String)>,
    /// Headers besides the content type (a `dpop` proof).
    pub headers: Vec<(String, String)>,
}

impl TokenRequest {
    /// A request of `grant_type` to `url`.
    pub fn new(url: &str, grant_type: &str) -> Self {
        TokenRequest {
            url: url.to_owned(),
            params: vec![("grant_type".into(), grant_type.into())],
            headers: Vec::new(),
        }
    }

    /// Adds a parameter when it has a value.
    pub fn with(mut self, name: &str, value: Option<&str>) -> Self {
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            self.params.push((name.into(), value.into()));
        }
        self
    }

    /// The value of parameter `name`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The client credentials grant, for `scope` at `resource` (RFC 8707).
    pub fn client_credentials(url: &str, scope: Option<&str>, resource: Option<&str>) -> Self {
        TokenRequest::new(url, CLIENT_CREDENTIALS)
            .with("scope", scope)
            .with("resource", resource)
    }

    /// The JWT bearer grant (RFC 7523 §2.1): `assertion` (a workload identity token, an
    /// ID-JAG) traded for an access token.
    ///
    /// ```
    /// # use toolnexus::core::mcp::m2m::form::{TokenRequest, JWT_BEARER};
    /// let r = TokenRequest::jwt_bearer("https://as/token", "e.y.j", None, None);
    /// assert_eq!(r.param("grant_type"), Some(JWT_BEARER));
    /// assert_eq!(r.param("assertion"), Some("e.y.j"));
    /// ```
    pub fn jwt_bearer(
        url: &str,
        assertion: &str,
        scope: Option<&str>,
        resource: Option<&str>,
    ) -> Self {
        TokenRequest::new(url, JWT_BEARER)
            .with("assertion", Some(assertion))
            .with("scope", scope)
            .with("resource", resource)
    }

    /// Token exchange at an identity provider (RFC 8693): an ID token for an ID-JAG naming
    /// the authorization server (`audience`) and the MCP server (`resource`).
    ///
    /// ```
    /// # use toolnexus::core::mcp::m2m::form::{TokenRequest, ID_JAG};
    /// let r = TokenRequest::id_jag_exchange("https://idp/token", "id.tok.en", "https://as", "https://rs/mcp", None);
    /// assert_eq!(r.param("requested_token_type"), Some(ID_JAG));
    /// assert_eq!(r.param("audience"), Some("https://as"));
    /// ```
    pub fn id_jag_exchange(
        url: &str,
        id_token: &str,
        audience: &str,
        resource: &str,
        scope: Option<&str>,
    ) -> Self {
        TokenRequest::new(url, TOKEN_EXCHANGE)
            .with("requested_token_type", Some(ID_JAG))
            .with("audience", Some(audience))
            .with("resource", Some(resource))
            .with("scope", scope)
            .with("subject_token", Some(id_token))
            .with("subject_token_type", Some(ID_TOKEN))
    }

    /// A signed client assertion (`private_key_jwt`, RFC 7523 §2.2) added.
    pub fn with_assertion(self, jwt: &str) -> Self {
        self.with("client_assertion_type", Some(JWT_ASSERTION))
            .with("client_assertion", Some(jwt))
    }
}
