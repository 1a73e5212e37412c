//! Getting an access token without a person: the grant's request (for an enterprise ID token,
//! first the exchange at the identity provider), the client authenticated as the entry and the
//! authorization server's metadata say (a signed client assertion for `private_key_jwt`), sent
//! through the OAuth client's one [`token_request`], every failure one sentence without a
//! secret.

use super::config::{Assertion, Grant, M2mAuth};
use super::form::TokenRequest;
use super::jwt::{assertion_claims, random_jti, sign};
use super::sign::{SharedSigner, Signer};
use crate::core::mcp::auth::config::AuthConfig;
use crate::core::mcp::auth::discovery::Discovered;
use crate::core::mcp::auth::discovery::Metadata;
use crate::core::mcp::auth::fetch::Exchange;
use crate::core::mcp::auth::register::choose_method;
use crate::core::mcp::auth::token::{token_request, ClientCredentials, Tokens};
use crate::core::mcp::tool::Redactor;
use crate::json_value;

/// A server entry's machine-to-machine grant, ready for the server's first 401: the OAuth
/// client's [`Authorizer`](crate::core::mcp::auth::Authorizer) runs it instead of the
/// authorization-code flow.
pub struct M2mGrant {
    auth: M2mAuth,
    signer: Option<SharedSigner>,
}

impl M2mGrant {
    /// The grant of an `auth` block, its `${ENV}` expanded; `None` when the block's grant needs
    /// a person, or cannot be used (the config refused it already, naming why).
    pub fn of(
        config: &AuthConfig,
        signer: Option<SharedSigner>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Option<M2mGrant> {
        let auth = M2mAuth::from_config(config).ok()??.expanded(env);
        Some(M2mGrant { auth, signer })
    }

    /// A token for the server at `server_url` as discovery found it; `scope` the scope
    /// discovery chose.
    pub async fn obtain(
        &self,
        discovered: &Discovered,
        server_url: &str,
        scope: Option<&str>,
        exchange: &Exchange,
    ) -> Result<(Tokens, ClientCredentials), String> {
        let server = AuthServer {
            issuer: &discovered.issuer,
            metadata: &discovered.metadata,
        };
        let resource = discovered.resource.as_deref().unwrap_or(server_url);
        let signer = self.signer.as_deref();
        obtain(&self.auth, server, resource, scope, exchange, signer).await
    }

    /// The secrets and tokens of the grant, for redaction.
    pub fn secrets(&self) -> Vec<String> {
        self.auth.secrets()
    }
}

/// The authorization server as discovery found it.
#[derive(Debug, Clone, Copy)]
pub struct AuthServer<'a> {
    /// Its issuer identifier: the audience of client assertions and ID-JAGs.
    pub issuer: &'a str,
    /// Its metadata (`token_endpoint`, `token_endpoint_auth_methods_supported`).
    pub metadata: &'a Metadata,
}

/// An access token for `resource` from `server` through the grant `auth` names, and the
/// client it was asked as; `scope` is what discovery chose (the entry's own `scope` wins). A
/// failure is one sentence with the entry's secrets and tokens taken out (a server may echo
/// them).
pub async fn obtain(
    auth: &M2mAuth,
    server: AuthServer<'_>,
    resource: &str,
    scope: Option<&str>,
    exchange: &Exchange,
    signer: Option<&dyn Signer>,
) -> Result<(Tokens, ClientCredentials), String> {
    let redactor = Redactor::new(auth.secrets());
    grant(auth, server, resource, scope, exchange, signer)
        .await
        .map_err(|why| redactor.apply(&why))
}

async fn grant(
    auth: &M2mAuth,
    server: AuthServer<'_>,
    resource: &str,
    scope: Option<&str>,
    exchange: &Exchange,
    signer: Option<&dyn Signer>,
) -> Result<(Tokens, ClientCredentials), String> {
    let scope = auth.scope.as_deref().or(scope);
    let endpoint = server
        .metadata
        .text("token_endpoint")
        .ok_or("the authorization server's metadata names no token_endpoint")?;
    let request = match &auth.grant {
        Grant::ClientCredentials => {
            TokenRequest::client_credentials(endpoint, scope, Some(resource))
        }
        Grant::JwtBearer(Assertion::Given(jwt)) => {
            TokenRequest::jwt_bearer(endpoint, jwt, scope, Some(resource))
        }
        Grant::JwtBearer(Assertion::Exchanged { id_token, idp }) => {
            let exchange_request = TokenRequest::id_jag_exchange(
                &idp.token_endpoint,
                id_token,
                server.issuer,
                resource,
                scope,
            );
            let at_idp = ClientCredentials {
                id: idp.client_id.clone(),
                secret: idp.client_secret.clone(),
                method: if idp.client_secret.is_some() {
                    "client_secret_basic".into()
                } else {
                    "none".into()
                },
            };
            let id_jag = send(exchange, exchange_request, &at_idp)
                .await
                .map_err(|why| format!("the identity provider's token exchange failed: {why}"))?;
            TokenRequest::jwt_bearer(endpoint, &id_jag.access_token, scope, Some(resource))
        }
    };
    let client = client(auth, server)?;
    let request = if client.method == "private_key_jwt" {
        request.with_assertion(&assertion(auth, server, exchange, signer).await?)
    } else {
        request
    };
    let tokens = send(exchange, request, &client).await?;
    Ok((tokens, client))
}

async fn send(
    exchange: &Exchange,
    request: TokenRequest,
    client: &ClientCredentials,
) -> Result<Tokens, String> {
    token_request(
        exchange,
        &request.url,
        client,
        request.params,
        request.headers,
    )
    .await
}

/// The client as the token endpoint will know it: the entry's `tokenEndpointAuthMethod`
/// when it names one, else `private_key_jwt` with a private key, else a secret's method as
/// the server prefers it (see [`choose_method`]), else `none`.
pub fn client(auth: &M2mAuth, server: AuthServer<'_>) -> Result<ClientCredentials, String> {
    let id = auth
        .client_id
        .clone()
        .ok_or("the grant needs \"auth.clientId\"")?;
    let method = match &auth.auth_method {
        Some(method) => method.clone(),
        None if auth.private_key.is_some() => "private_key_jwt".into(),
        None => choose_method(server.metadata, auth.client_secret.is_some()).into(),
    };
    Ok(ClientCredentials {
        id,
        secret: auth.client_secret.clone(),
        method,
    })
}

/// A client assertion signed with the entry's private key: `iss` and `sub` the client id,
/// `aud` the issuer.
async fn assertion(
    auth: &M2mAuth,
    server: AuthServer<'_>,
    exchange: &Exchange,
    signer: Option<&dyn Signer>,
) -> Result<String, String> {
    let (Some((key, alg)), Some(id)) = (&auth.private_key, &auth.client_id) else {
        return Err("private_key_jwt needs \"auth.clientId\" and \"auth.privateKey\"".into());
    };
    let signer =
        signer.ok_or("this runtime has no WebCrypto (crypto.subtle) to sign a client assertion")?;
    let key = signer
        .import(key, *alg)
        .await
        .map_err(|why| format!("\"auth.privateKey\" cannot sign {}: {why}", alg.as_str()))?;
    let now_s = (exchange.clock.now_ms() / 1000.0).floor() as i64;
    let claims = assertion_claims(id, server.issuer, now_s, &random_jti());
    sign(signer, &key, json_value!({"typ": "JWT"}), &claims).await
}
