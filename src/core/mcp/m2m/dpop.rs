//! DPoP (RFC 9449): a key pair made for the server's session, a fresh proof JWT per request
//! (`htm`, `htu` without query or fragment, `iat`, a unique `jti`; at a resource server also
//! `ath`, the access token's hash), and the nonces the servers hand out (§8, §9), kept per
//! origin.

use super::jwt::{random_jti, sign};
use super::sign::{Alg, HostKey, Signer};
use crate::core::json::value::Value;
use crate::json_value;
use std::cell::RefCell;

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
