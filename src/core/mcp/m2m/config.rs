//! The machine-to-machine keys of a server entry's `auth` object: which grant, the client's
//! credentials, the assertion or ID token it trades, and `dpop`. The authorization-code keys
//! (`redirectUrl`, `clientMetadataUrl`, …) are the OAuth client's (`super::super::auth`).
//!
//! ```
//! # use toolnexus::core::mcp::m2m::config::{Grant, M2mAuth};
//! let auth = M2mAuth::read(&toolnexus::json!({
//!     "grant": "client_credentials", "clientId": "app", "clientSecret": "${APP_SECRET}"
//! })).unwrap().unwrap();
//! assert_eq!(auth.grant, Grant::ClientCredentials);
//! let env = |name: &str| (name == "APP_SECRET").then(|| "s3cret".to_string());
//! assert_eq!(auth.expanded(&env).client_secret.as_deref(), Some("s3cret"));
//! ```

use super::jwt::{key_alg, read_key};
use super::sign::{Alg, KeySource};
use crate::core::json::value::{Map, Value};
use crate::core::mcp::auth::config::{parse_auth, AuthConfig};
use crate::core::mcp::config::expand_env;

/// A grant without a person.
#[derive(Debug, Clone, PartialEq)]
pub enum Grant {
    /// `client_credentials` (RFC 6749 §4.4), authenticated with a secret or a private key.
    ClientCredentials,
    /// `jwt_bearer` (RFC 7523 §2.1): a JWT traded for an access token. Either a workload
    /// identity token given as it is (`assertion`), or an enterprise ID token first exchanged
    /// at the identity provider for an ID-JAG (`idToken` and `idp`).
    JwtBearer(Assertion),
}

/// Where a JWT bearer grant's assertion comes from.
#[derive(Clone, PartialEq)]
pub enum Assertion {
    /// A JWT used as it is (workload identity federation).
    Given(String),
    /// An ID token exchanged at the identity provider (RFC 8693) for an ID-JAG.
    Exchanged {
        /// The ID token.
        id_token: String,
        /// The identity provider.
        idp: Idp,
    },
}

impl std::fmt::Debug for Assertion {
    /// Never the tokens.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Assertion::Given(_) => f.write_str("Given(..)"),
            Assertion::Exchanged { idp, .. } => write!(f, "Exchanged({})", idp.token_endpoint),
        }
    }
}

/// The enterprise identity provider of an ID-JAG exchange (`auth.idp`).
#[derive(Clone, PartialEq)]
pub struct Idp {
    /// Its token endpoint.
    pub token_endpoint: String,
    /// The client id this application has there.
    pub client_id: String,
    /// Its secret there, when it has one (sent with `client_secret_basic`, else `client_id`
    /// goes in the body).
    pub client_secret: Option<String>,
}

/// The machine-to-machine part of a server's `auth`.
#[derive(Clone, PartialEq)]
pub struct M2mAuth {
    /// The grant.
    pub grant: Grant,
    /// `clientId`.
    pub client_id: Option<String>,
    /// `clientSecret` (`${ENV}` expanded by [`M2mAuth::expanded`]).
    pub client_secret: Option<String>,
    /// `privateKey` and the algorithm it signs with.
    pub private_key: Option<(KeySource, Alg)>,
    /// `tokenEndpointAuthMethod`, when the entry names one.
    pub auth_method: Option<String>,
    /// `scope`, when the entry names one.
    pub scope: Option<String>,
}

impl std::fmt::Debug for M2mAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "M2mAuth({:?}, {:?})", self.grant, self.client_id)
    }
}

impl M2mAuth {
    /// The grant an `auth` block names: `None` for one that needs a person
    /// (`authorization_code`, the default), the grant and credentials otherwise, or why they
    /// cannot be used (naming the key).
    pub fn read(auth: &Value) -> Result<Option<M2mAuth>, String> {
        M2mAuth::from_config(&parse_auth(auth)?)
    }

    /// The machine-to-machine part of an `auth` block the OAuth client read.
    pub fn from_config(config: &AuthConfig) -> Result<Option<M2mAuth>, String> {
        let map = &config.raw;
        let grant = match config.grant.as_str() {
            "authorization_code" => return Ok(None),
            "client_credentials" => Grant::ClientCredentials,
            "jwt_bearer" | super::form::JWT_BEARER => Grant::JwtBearer(assertion(map)?),
            other => {
                return Err(format!(
                    "\"auth.grant\" must be \"authorization_code\", \"client_credentials\" or \"jwt_bearer\", got \"{other}\""
                ))
            }
        };
        let private_key = match map.get("privateKey") {
            None | Some(Value::Null) => None,
            Some(value) => {
                let key = read_key(value)?;
                let alg = key_alg(&key, text(map, "signingAlgorithm")?.as_deref())?;
                Some((key, alg))
            }
        };
        let auth = M2mAuth {
            grant,
            client_id: config.client_id.clone().filter(|s| !s.is_empty()),
            client_secret: config.client_secret.clone().filter(|s| !s.is_empty()),
            private_key,
            auth_method: config.token_endpoint_auth_method.clone(),
            scope: config.scope.clone(),
        };
        auth.check()?;
        Ok(Some(auth))
    }

    /// Refuses the combinations that cannot authenticate, naming the missing key.
    fn check(&self) -> Result<(), String> {
        let method = self.auth_method.as_deref();
        if self.client_id.is_none() {
            return Err("a machine-to-machine grant needs \"auth.clientId\"".into());
        }
        if self.grant == Grant::ClientCredentials
            && self.private_key.is_none()
            && self.client_secret.is_none()
        {
            return Err(
                "the client_credentials grant needs \"auth.clientSecret\" or \"auth.privateKey\""
                    .into(),
            );
        }
        match method {
            Some("private_key_jwt") if self.private_key.is_none() => Err(
                "\"auth.tokenEndpointAuthMethod\" private_key_jwt needs \"auth.privateKey\"".into(),
            ),
            Some("client_secret_basic" | "client_secret_post") if self.client_secret.is_none() => {
                Err(format!(
                    "\"auth.tokenEndpointAuthMethod\" {} needs \"auth.clientSecret\"",
                    method.unwrap_or_default()
                ))
            }
            _ => Ok(()),
        }
    }

    /// This with `${ENV}` expanded in its secrets and tokens.
    pub fn expanded(&self, env: &dyn Fn(&str) -> Option<String>) -> M2mAuth {
        let mut out = self.clone();
        out.client_secret = out.client_secret.map(|s| expand_env(&s, env));
        out.grant = match out.grant {
            Grant::JwtBearer(Assertion::Given(jwt)) => {
                Grant::JwtBearer(Assertion::Given(expand_env(&jwt, env)))
            }
            Grant::JwtBearer(Assertion::Exchanged { id_token, mut idp }) => {
                idp.client_secret = idp.client_secret.map(|s| expand_env(&s, env));
                Grant::JwtBearer(Assertion::Exchanged {
                    id_token: expand_env(&id_token, env),
                    idp,
                })
            }
            other => other,
        };
        out
    }

    /// Every secret this holds, for redaction.
    pub fn secrets(&self) -> Vec<String> {
        let mut out: Vec<String> = self.client_secret.iter().cloned().collect();
        match &self.grant {
            Grant::JwtBearer(Assertion::Given(jwt)) => out.push(jwt.clone()),
            Grant::JwtBearer(Assertion::Exchanged { id_token, idp }) => {
                out.push(id_token.clone());
                out.extend(idp.client_secret.iter().cloned());
            }
            Grant::ClientCredentials => {}
        }
        out
    }
}

fn assertion(map: &Map<String, Value>) -> Result<Assertion, String> {
    if let Some(jwt) = text(map, "assertion")? {
        return Ok(Assertion::Given(jwt));
    }
    let Some(id_token) = text(map, "idToken")? else {
        return Err("the jwt_bearer grant needs \"auth.assertion\" (a JWT) or \"auth.idToken\" with \"auth.idp\"".into());
    };
    let Some(Value::Object(idp)) = map.get("idp") else {
        return Err("\"auth.idToken\" needs \"auth.idp\": {tokenEndpoint, clientId}".into());
    };
    let field = |key: &str| -> Result<Option<String>, String> {
        text(idp, key).map_err(|why| why.replace("\"auth.", "\"auth.idp."))
    };
    Ok(Assertion::Exchanged {
        id_token,
        idp: Idp {
            token_endpoint: field("tokenEndpoint")?
                .ok_or("\"auth.idp\" needs \"tokenEndpoint\"")?,
            client_id: field("clientId")?.ok_or("\"auth.idp\" needs \"clientId\"")?,
            client_secret: field("clientSecret")?,
        },
    })
}

/// A non-empty string under `key`; an error naming `auth.<key>` when it is something else.
fn text(map: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if !s.is_empty() => Ok(Some(s.clone())),
        Some(_) => Err(format!("\"auth.{key}\" must be a non-empty string")),
    }
}

/// Whether an `auth` object asks for DPoP-bound tokens (`dpop: true`).
///
/// ```
/// # use toolnexus::core::mcp::m2m::config::wants_dpop;
/// assert!(wants_dpop(&toolnexus::json!({"dpop": true})));
/// assert!(!wants_dpop(&toolnexus::json!({})));
/// ```
pub fn wants_dpop(auth: &Value) -> bool {
    auth.get("dpop").and_then(Value::as_bool) == Some(true)
}
