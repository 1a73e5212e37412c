//! A scripted OAuth world behind the core's `Http`: an MCP server (a [`FakeMcp`]) that wants a
//! bearer token, its protected resource metadata, and an authorization server (metadata,
//! dynamic registration, a token endpoint that takes each code once). Every piece can be made
//! to misbehave; every request is recorded.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use toolnexus::{core::json::value::Value, json};

use super::FakeMcp;
use toolnexus::core::host::{
    HeadedResponse, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture, StreamResponse,
};
use toolnexus::core::mcp::auth::url::HttpUrl;

pub const SERVER: &str = "http://fake/main";
pub const ISSUER: &str = "http://as";
pub const CODE: &str = "code-1";
pub const SECRET: &str = "registered-client-secret";

/// One request the world saw.
#[derive(Clone, Debug)]
pub struct Hit {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Hit {
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    }
    /// A form field of the body.
    pub fn field(&self, name: &str) -> Option<String> {
        HttpUrl::parse(&format!("http://x/?{}", self.body))?.param(name)
    }
}

pub struct OAuthWorld {
    pub mcp: Rc<FakeMcp>,
    /// The `WWW-Authenticate` of the 401.
    pub challenge: RefCell<String>,
    /// The resource metadata document: status and body.
    pub resource_doc: RefCell<(u16, String)>,
    /// The authorization server's metadata: status and body.
    pub metadata: RefCell<(u16, String)>,
    /// Overrides the token endpoint's answer.
    pub token_answer: RefCell<Option<(u16, String)>>,
    /// `expires_in` of the tokens given.
    pub expires_in: Cell<u32>,
    /// Codes exchanged already (each is taken once).
    pub codes_used: RefCell<Vec<String>>,
    /// Tokens `access-1` … `access-<revoked>` are refused.
    pub revoked: Cell<u32>,
    /// Refresh grants are refused.
    pub refresh_fails: Cell<bool>,
    pub issued: Cell<u32>,
    pub hits: RefCell<Vec<Hit>>,
}

impl OAuthWorld {
    pub fn new(mcp: Rc<FakeMcp>) -> Rc<Self> {
        Rc::new(OAuthWorld {
            mcp,
            challenge: RefCell::new(
                r#"Bearer resource_metadata="http://fake/.well-known/oauth-protected-resource/main""#
                    .to_owned(),
            ),
            resource_doc: RefCell::new((
                200,
                json!({"resource": SERVER, "authorization_servers": [ISSUER], "scopes_supported": ["read"]})
                    .to_string(),
            )),
            metadata: RefCell::new((
                200,
                json!({
                    "issuer": ISSUER,
                    "authorization_endpoint": "http://as/authorize",
                    "token_endpoint": "http://as/token",
                    "registration_endpoint": "http://as/register",
                    "code_challenge_methods_supported": ["S256"],
                    "authorization_response_iss_parameter_supported": true
                })
                .to_string(),
            )),
            token_answer: RefCell::default(),
            expires_in: Cell::new(3600),
            codes_used: RefCell::default(),
            revoked: Cell::new(0),
            refresh_fails: Cell::new(false),
            issued: Cell::new(0),
            hits: RefCell::default(),
        })
    }

    pub fn hits_to(&self, url: &str) -> Vec<Hit> {
        self.hits
            .borrow()
            .iter()
            .filter(|h| h.url == url)
            .cloned()
            .collect()
    }

    fn valid(&self, bearer: Option<&str>) -> bool {
        let issued = self.issued.get();
        (self.revoked.get() + 1..=issued).any(|n| {
            bearer == Some(format!("Bearer access-{n}").as_str())
                || bearer == Some(format!("DPoP access-{n}").as_str())
        })
    }

    fn token(&self, hit: &Hit) -> (u16, String) {
        if let Some(answer) = self.token_answer.borrow().clone() {
            return answer;
        }
        match hit.field("grant_type").as_deref() {
            Some("authorization_code") => {
                let code = hit.field("code").unwrap_or_default();
                if !code.starts_with("code-") || self.codes_used.borrow().contains(&code) {
                    return (400, json!({"error": "invalid_grant"}).to_string());
                }
                self.codes_used.borrow_mut().push(code);
            }
            Some("refresh_token") => {
                if self.refresh_fails.get()
                    || hit.field("refresh_token").as_deref() != Some("refresh-1")
                {
                    return (400, json!({"error": "invalid_grant"}).to_string());
                }
            }
            _ => return (400, json!({"error": "unsupported_grant_type"}).to_string()),
        }
        self.issued.set(self.issued.get() + 1);
        let body = json!({
            "access_token": format!("access-{}", self.issued.get()),
            "token_type": "Bearer",
            "expires_in": self.expires_in.get(),
            "refresh_token": "refresh-1",
        });
        (200, body.to_string())
    }
}

fn whole(status: u16, headers: Vec<(String, String)>, body: String) -> HeadedResponse {
    HeadedResponse {
        status,
        headers,
        body: StreamResponse::whole(HttpResponse {
            status,
            retry_after: None,
            body,
        })
        .body,
    }
}

fn json_type() -> Vec<(String, String)> {
    vec![("content-type".into(), "application/json".into())]
}

/// The world as the host's `Http`.
pub struct WorldHttp(pub Rc<OAuthWorld>);

impl Http for WorldHttp {
    fn send(&self, _: &HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        Box::pin(async { Err(HttpError::Network("use open_with_headers".into())) })
    }

    fn open_with_headers(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HeadedResponse, HttpError>> {
        let world = &self.0;
        let hit = Hit {
            method: request.method.to_string(),
            url: request.url.to_string(),
            headers: request.headers.to_vec(),
            body: request.body.clone().unwrap_or_default(),
        };
        world.hits.borrow_mut().push(hit.clone());
        let url = request.url.to_string();
        let answer = match url.as_str() {
            SERVER => {
                if !world.valid(hit.header("authorization").as_deref()) {
                    let headers =
                        vec![("www-authenticate".into(), world.challenge.borrow().clone())];
                    whole(401, headers, r#"{"error":"invalid_token"}"#.into())
                } else {
                    return world.mcp.open(request.clone());
                }
            }
            "http://fake/.well-known/oauth-protected-resource/main" => {
                let (status, body) = world.resource_doc.borrow().clone();
                whole(status, json_type(), body)
            }
            "http://as/.well-known/oauth-authorization-server" => {
                let (status, body) = world.metadata.borrow().clone();
                whole(status, json_type(), body)
            }
            "http://as/register" => {
                let body = json!({"client_id": "registered-client", "client_secret": SECRET});
                whole(201, json_type(), body.to_string())
            }
            "http://as/token" => {
                let (status, body) = world.token(&hit);
                whole(status, json_type(), body)
            }
            _ => whole(404, Vec::new(), "not found".into()),
        };
        Box::pin(async move { Ok(answer) })
    }
}

/// The URL a sign-in redirects to for `request` (its state), with `extra` query text.
pub fn redirect_for(request: &toolnexus::core::types::Request, extra: &str) -> String {
    let state = request.data.as_ref().unwrap()["state"]
        .as_str()
        .unwrap()
        .to_owned();
    format!("http://localhost/cb?state={state}{extra}")
}

/// An Answer carrying `url`.
pub fn answer_with(request: &toolnexus::core::types::Request, url: &str) -> Value {
    json!({"id": request.id, "ok": true, "data": {"url": url}})
}
