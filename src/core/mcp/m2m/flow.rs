//! Getting an access token without a person: the client's authentication chosen from the entry
//! and the authorization server's metadata, the grant's request (for an enterprise ID token,
//! first the exchange at the identity provider), DPoP proofs when the entry asks for them, one
//! retry with the nonce a server demands, and every failure as one sentence without a secret.

use super::config::{Assertion, Grant, M2mAuth};
use super::dpop::Dpop;
use super::form::{ClientAuth, TokenRequest};
use super::jwt::{assertion_claims, random_jti, sign};
use super::sign::Signer;
use super::token::{request_token, Token, TokenError};
use crate::core::host::{Clock, Http};
use crate::core::mcp::tool::Redactor;
use crate::json_value;

/// What the grants need of the authorization server (its RFC 8414 metadata).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AuthServer {
    /// `issuer`: the audience of client assertions and ID-JAGs.
    pub issuer: String,
    /// `token_endpoint`.
    pub token_endpoint: String,
    /// `token_endpoint_auth_methods_supported` (empty when the metadata has none).
    pub auth_methods: Vec<String>,
}

/// The host's parts the grants use.
#[derive(Clone, Copy)]
pub struct M2mHost<'a> {
    /// The transport.
    pub http: &'a dyn Http,
    /// Signing, where the host has it (WebCrypto).
    pub signer: Option<&'a dyn Signer>,
    /// Now, for `iat` and `exp`.
    pub clock: &'a dyn Clock,
}

impl M2mHost<'_> {
    fn now_s(&self) -> i64 {
        (self.clock.now_ms() / 1000.0).floor() as i64
    }

    fn signer(&self, what: &str) -> Result<&dyn Signer, String> {
        self.signer
            .ok_or_else(|| format!("this runtime has no WebCrypto (crypto.subtle) to sign {what}"))
    }
}

/// An access token for `resource` from `server`, through the grant `auth` names; `scope`
/// is the scope discovery chose (the entry's own `scope` wins). A failure is one sentence
/// with the entry's secrets and tokens taken out (a server may echo them).
pub async fn obtain(
    auth: &M2mAuth,
    server: &AuthServer,
    resource: &str,
    scope: Option<&str>,
    host: M2mHost<'_>,
    dpop: Option<&Dpop>,
) -> Result<Token, String> {
    let redactor = Redactor::new(auth.secrets());
    grant(auth, server, resource, scope, host, dpop)
        .await
        .map_err(|why| redactor.apply(&why))
}

async fn grant(
    auth: &M2mAuth,
    server: &AuthServer,
    resource: &str,
    scope: Option<&str>,
    host: M2mHost<'_>,
    dpop: Option<&Dpop>,
) -> Result<Token, String> {
    let scope = auth.scope.as_deref().or(scope);
    let endpoint = server.token_endpoint.as_str();
    let request = match &auth.grant {
        Grant::ClientCredentials => {
            TokenRequest::client_credentials(endpoint, scope, Some(resource))
        }
        Grant::JwtBearer(Assertion::Given(jwt)) => {
            TokenRequest::jwt_bearer(endpoint, jwt, scope, Some(resource))
        }
        Grant::JwtBearer(Assertion::Exchanged { id_token, idp }) => {
            let exchange = TokenRequest::id_jag_exchange(
                &idp.token_endpoint,
                id_token,
                &server.issuer,
                resource,
                scope,
            )
            .authenticated(&match &idp.client_secret {
                Some(secret) => ClientAuth::Basic {
                    id: idp.client_id.clone(),
                    secret: secret.clone(),
                },
                None => ClientAuth::None {
                    id: idp.client_id.clone(),
                },
            });
            let id_jag = request_token(host.http, &exchange)
                .await
                .map_err(|e| format!("the identity provider's token exchange failed: {e}"))?;
            TokenRequest::jwt_bearer(endpoint, &id_jag.access_token, scope, Some(resource))
        }
    };
    let request = match client_auth(auth, server, host).await? {
        Some(client) => request.authenticated(&client),
        None => request,
    };
    send(request, host, dpop).await.map_err(|e| e.to_string())
}

/// POSTs a token request, with a DPoP proof when `dpop` is on, and once more with the nonce
/// the endpoint asks for (`use_dpop_nonce`, RFC 9449 §8).
pub async fn send(
    request: TokenRequest,
    host: M2mHost<'_>,
    dpop: Option<&Dpop>,
) -> Result<Token, TokenError> {
    let Some(dpop) = dpop else {
        return request_token(host.http, &request).await;
    };
    let mut retried = false;
    loop {
        let signer = host.signer("a DPoP proof").map_err(TokenError::Transport)?;
        let proof = dpop
            .proof(signer, "POST", &request.url, host.now_s(), None)
            .await
            .map_err(TokenError::Transport)?;
        let mut attempt = request.clone();
        attempt.headers.push(("dpop".into(), proof));
        match request_token(host.http, &attempt).await {
            Err(TokenError::Refused {
                error: Some(error),
                dpop_nonce: Some(nonce),
                ..
            }) if error == "use_dpop_nonce" && !retried => {
                dpop.set_nonce(&request.url, &nonce);
                retried = true;
            }
            other => return other,
        }
    }
}

/// The client's authentication: the entry's `tokenEndpointAuthMethod` when it names one, else
/// `private_key_jwt` with a private key, a secret as the server prefers it (Basic unless it
/// lists only `client_secret_post`), `client_id` alone without either, nothing without an id.
pub async fn client_auth(
    auth: &M2mAuth,
    server: &AuthServer,
    host: M2mHost<'_>,
) -> Result<Option<ClientAuth>, String> {
    let Some(id) = auth.client_id.clone() else {
        return Ok(None);
    };
    let supports = |m: &str| server.auth_methods.iter().any(|s| s == m);
    let method = match auth.auth_method.as_deref() {
        Some(method) => method,
        None if auth.private_key.is_some() => "private_key_jwt",
        None if auth.client_secret.is_some() => {
            if supports("client_secret_post") && !supports("client_secret_basic") {
                "client_secret_post"
            } else {
                "client_secret_basic"
            }
        }
        None => "none",
    };
    let secret = || auth.client_secret.clone().unwrap_or_default();
    Ok(Some(match method {
        "client_secret_basic" => ClientAuth::Basic {
            id,
            secret: secret(),
        },
        "client_secret_post" => ClientAuth::Post {
            id,
            secret: secret(),
        },
        "private_key_jwt" => {
            let Some((key, alg)) = &auth.private_key else {
                return Err("private_key_jwt needs \"auth.privateKey\"".into());
            };
            let signer = host.signer("a client assertion")?;
            let key = signer.import(key, *alg).await.map_err(|why| {
                format!("\"auth.privateKey\" cannot sign {}: {why}", alg.as_str())
            })?;
            let claims = assertion_claims(&id, &server.issuer, host.now_s(), &random_jti());
            let jwt = sign(signer, &key, json_value!({"typ": "JWT"}), &claims).await?;
            ClientAuth::Assertion { jwt }
        }
        _ => ClientAuth::None { id },
    }))
}
