//! DPoP (RFC 9449): a key pair made for the server's session, a fresh proof JWT per request
//! (`htm`, `htu` without query or fragment, `iat`, a unique `jti`; at a resource server also
//! `ath`, the access token's hash), and the nonces the servers hand out (§8, §9), kept per
//! origin.

use super::jwt::{b64url, random_jti, sign};
use super::sign::{Alg, HostKey, SharedSigner, Signer};
use crate::core::host::Clock;
use crate::core::json::value::Value;
use crate::core::mcp::auth::config::AuthConfig;
use crate::core::mcp::auth::fetch::{Answer, Exchange};
use crate::json_value;
use sha2::{Digest, Sha256};
use std::cell::RefCell;
use std::rc::Rc;

/// One DPoP key and the nonces servers asked for.
pub struct Dpop {
    key: HostKey,
    jwk: Value,
    nonces: RefCell<Vec<(String, String)>>,
}

impl std::fmt::Debug for Dpop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Dpop({})", self.key.alg.as_str())
    }
}

impl Dpop {
    /// A new ES256 key from the host.
    pub async fn generate(signer: &dyn Signer) -> Result<Dpop, String> {
        let (key, jwk) = signer
            .generate(Alg::Es256)
            .await
            .map_err(|why| format!("could not make a DPoP key: {why}"))?;
        Ok(Dpop::with_key(key, jwk))
    }

    /// A DPoP over a key the host already has, `jwk` its public half.
    pub fn with_key(key: HostKey, jwk: Value) -> Dpop {
        Dpop {
            key,
            jwk: public_only(jwk),
            nonces: RefCell::new(Vec::new()),
        }
    }

    /// The public JWK proofs carry.
    pub fn jwk(&self) -> &Value {
        &self.jwk
    }

    /// Remembers the nonce `url`'s server asked for.
    pub fn set_nonce(&self, url: &str, nonce: &str) {
        let origin = origin(url).to_owned();
        let mut nonces = self.nonces.borrow_mut();
        nonces.retain(|(o, _)| *o != origin);
        nonces.push((origin, nonce.to_owned()));
    }

    /// A proof for `method` `url` made at `now_s`, with `ath` (base64url SHA-256 of the access
    /// token) when the request carries one, and the nonce `url`'s server asked for, if any.
    pub async fn proof(
        &self,
        signer: &dyn Signer,
        method: &str,
        url: &str,
        now_s: i64,
        ath: Option<&str>,
    ) -> Result<String, String> {
        let header = json_value!({"typ": "dpop+jwt", "jwk": (self.jwk)});
        let mut claims = json_value!({
            "jti": (random_jti()),
            "htm": method,
            "htu": (htu(url)),
            "iat": now_s
        });
        if let Value::Object(map) = &mut claims {
            if let Some(ath) = ath {
                map.insert("ath".into(), Value::from(ath));
            }
            let origin = origin(url);
            if let Some((_, nonce)) = self.nonces.borrow().iter().find(|(o, _)| o == origin) {
                map.insert("nonce".into(), Value::from(nonce.as_str()));
            }
        }
        sign(signer, &self.key, header, &claims)
            .await
            .map_err(|why| format!("DPoP proof: {why}"))
    }
}

/// `url` without its query and fragment (RFC 9449 §4.2).
///
/// ```
/// assert_eq!(toolnexus::core::mcp::m2m::dpop::htu("https://rs/mcp?x=1#f"), "https://rs/mcp");
/// ```
pub fn htu(url: &str) -> &str {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    url.get(..end).unwrap_or(url)
}

/// `scheme://host[:port]` of `url`.
fn origin(url: &str) -> &str {
    let after = url.find("://").map(|i| i + 3).unwrap_or(0);
    let end = url
        .get(after..)
        .and_then(|rest| rest.find(['/', '?', '#']))
        .map(|i| i + after)
        .unwrap_or(url.len());
    url.get(..end).unwrap_or(url)
}

/// A JWK without its private members.
fn public_only(jwk: Value) -> Value {
    match jwk {
        Value::Object(mut map) => {
            for private in ["d", "p", "q", "dp", "dq", "qi", "oth", "key_ops", "ext"] {
                map.remove(private);
            }
            Value::Object(map)
        }
        other => other,
    }
}

/// A server entry's DPoP (`auth.dpop: true`): its key, made on first use through the host's
/// signer, a proof for each token request and each request to the MCP server (with `ath` for
/// the access token it carries), and the nonces the servers ask for.
pub struct DpopBinding {
    signer: SharedSigner,
    clock: Rc<dyn Clock>,
    dpop: RefCell<Option<Rc<Dpop>>>,
}

impl DpopBinding {
    /// The binding of an `auth` block asking for DPoP; `None` when it does not, or when the
    /// host cannot sign (then tokens stay bearer tokens).
    pub fn of(
        config: &AuthConfig,
        signer: Option<SharedSigner>,
        clock: Rc<dyn Clock>,
    ) -> Option<Rc<DpopBinding>> {
        if !super::config::wants_dpop(&Value::Object(config.raw.clone())) {
            return None;
        }
        Some(Rc::new(DpopBinding {
            signer: signer?,
            clock,
            dpop: RefCell::new(None),
        }))
    }

    async fn key(&self) -> Result<Rc<Dpop>, String> {
        if let Some(dpop) = self.dpop.borrow().clone() {
            return Ok(dpop);
        }
        let made = Rc::new(Dpop::generate(self.signer.as_ref()).await?);
        Ok(self.dpop.borrow_mut().get_or_insert(made).clone())
    }

    /// The `DPoP` header of a request: a fresh proof for `method` `url`, bound to
    /// `access_token` when the request carries one.
    pub async fn header(
        &self,
        method: &str,
        url: &str,
        access_token: Option<&str>,
    ) -> Result<(String, String), String> {
        let dpop = self.key().await?;
        let ath = access_token.map(|t| b64url(&Sha256::digest(t.as_bytes())));
        let now_s = (self.clock.now_ms() / 1000.0).floor() as i64;
        let proof = dpop
            .proof(self.signer.as_ref(), method, url, now_s, ath.as_deref())
            .await?;
        Ok(("dpop".into(), proof))
    }

    /// Remembers the nonce `url`'s server sent (a `DPoP-Nonce` header).
    pub fn nonce(&self, url: &str, nonce: &str) {
        if let Some(dpop) = self.dpop.borrow().as_ref() {
            dpop.set_nonce(url, nonce);
        }
    }

    /// Sends a token request with a proof, and once more with the nonce the endpoint asks for
    /// (`use_dpop_nonce`, RFC 9449 §8).
    pub async fn send_token(
        &self,
        exchange: &Exchange,
        endpoint: &str,
        headers: Vec<(String, String)>,
        body: String,
    ) -> Result<Answer, String> {
        let mut retried = false;
        loop {
            let mut sent = headers.clone();
            sent.push(self.header("POST", endpoint, None).await?);
            let answer = exchange
                .send(
                    "the token request",
                    "POST",
                    endpoint,
                    sent,
                    Some(body.clone()),
                )
                .await?;
            let asks_nonce = answer.status == 400
                && answer
                    .object()
                    .and_then(|o| o.get("error").and_then(Value::as_str).map(str::to_owned))
                    .as_deref()
                    == Some("use_dpop_nonce");
            match (&answer.dpop_nonce, asks_nonce && !retried) {
                (Some(nonce), true) => {
                    self.nonce(endpoint, nonce);
                    retried = true;
                }
                _ => return Ok(answer),
            }
        }
    }
}
