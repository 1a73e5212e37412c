//! The signing seam: what the machine-to-machine grants need from the host to sign a JWT (a
//! `private_key_jwt` client assertion, RFC 7523; a DPoP proof, RFC 9449). The JS
//! host implements it over WebCrypto (`crypto.subtle`: Node 20+, Deno, browsers), so no
//! elliptic-curve or RSA code enters the module; host tests implement it natively.
//!
//! A private key never crosses back: the host imports it once into its own handle
//! ([`HostKey`]) and signs with that. Errors name the algorithm and what failed, never the key.

use crate::core::host::LocalBoxFuture;
use crate::core::json::value::Value;
use std::any::Any;
use std::rc::Rc;

/// A JWS signing algorithm the grants use.
///
/// ```
/// # use toolnexus::core::mcp::m2m::sign::Alg;
/// assert_eq!(Alg::parse("ES256"), Some(Alg::Es256));
/// assert_eq!(Alg::Rs256.as_str(), "RS256");
/// assert_eq!(Alg::parse("HS256"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alg {
    /// ECDSA on P-256 with SHA-256 (signature: `r || s`, 64 bytes).
    Es256,
    /// ECDSA on P-384 with SHA-384 (96 bytes).
    Es384,
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    Rs256,
    /// RSASSA-PSS with SHA-256.
    Ps256,
}

impl Alg {
    /// The JWS `alg` name.
    pub fn as_str(self) -> &'static str {
        match self {
            Alg::Es256 => "ES256",
            Alg::Es384 => "ES384",
            Alg::Rs256 => "RS256",
            Alg::Ps256 => "PS256",
        }
    }

    /// The algorithm named `name`; `None` for one the grants do not sign with.
    pub fn parse(name: &str) -> Option<Alg> {
        [Alg::Es256, Alg::Es384, Alg::Rs256, Alg::Ps256]
            .into_iter()
            .find(|a| a.as_str() == name)
    }

    /// The algorithm a JWK's own fields imply: its `alg` when it names one, else `EC` on
    /// `P-256` → ES256, on `P-384` → ES384, `RSA` → RS256.
    ///
    /// ```
    /// # use toolnexus::core::mcp::m2m::sign::Alg;
    /// let jwk = toolnexus::json!({"kty": "EC", "crv": "P-256", "x": "..", "y": "..", "d": ".."});
    /// assert_eq!(Alg::of_jwk(&jwk), Some(Alg::Es256));
    /// assert_eq!(Alg::of_jwk(&toolnexus::json!({"kty": "oct"})), None);
    /// ```
    pub fn of_jwk(jwk: &Value) -> Option<Alg> {
        if let Some(alg) = jwk.get("alg").and_then(Value::as_str).and_then(Alg::parse) {
            return Some(alg);
        }
        match (
            jwk.get("kty").and_then(Value::as_str),
            jwk.get("crv").and_then(Value::as_str),
        ) {
            (Some("EC"), Some("P-256")) => Some(Alg::Es256),
            (Some("EC"), Some("P-384")) => Some(Alg::Es384),
            (Some("RSA"), _) => Some(Alg::Rs256),
            _ => None,
        }
    }
}

/// A private key as the configuration gives it.
#[derive(Clone, PartialEq)]
pub enum KeySource {
    /// A JSON Web Key (RFC 7517) with its private part.
    Jwk(Value),
    /// The DER bytes of a PKCS#8 `PRIVATE KEY` (read from its PEM).
    Pkcs8(Vec<u8>),
}

impl std::fmt::Debug for KeySource {
    /// Never the key itself.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            KeySource::Jwk(_) => "KeySource::Jwk(..)",
            KeySource::Pkcs8(_) => "KeySource::Pkcs8(..)",
        })
    }
}

/// A key the host imported or made, in the host's own form (a `CryptoKey` in JS), and the
/// algorithm it signs with.
#[derive(Clone)]
pub struct HostKey {
    /// What it signs with.
    pub alg: Alg,
    /// The host's value.
    pub handle: Rc<dyn Any>,
}

impl std::fmt::Debug for HostKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HostKey({})", self.alg.as_str())
    }
}

/// The host's signing (WebCrypto in JS).
///
/// ```
/// # use toolnexus::core::host::LocalBoxFuture;
/// # use toolnexus::core::json::value::Value;
/// # use toolnexus::core::mcp::m2m::sign::{Alg, HostKey, KeySource, Signer};
/// /// A host with no cryptography: every key is refused.
/// struct NoCrypto;
/// impl Signer for NoCrypto {
///     fn import(&self, _: &KeySource, alg: Alg) -> LocalBoxFuture<'static, Result<HostKey, String>> {
///         Box::pin(async move { Err(format!("no {} signing here", alg.as_str())) })
///     }
///     fn generate(&self, alg: Alg) -> LocalBoxFuture<'static, Result<(HostKey, Value), String>> {
///         Box::pin(async move { Err(format!("no {} keys here", alg.as_str())) })
///     }
///     fn sign(&self, _: &HostKey, _: &[u8]) -> LocalBoxFuture<'static, Result<Vec<u8>, String>> {
///         Box::pin(async { Err("no signing here".to_owned()) })
///     }
/// }
/// ```
pub trait Signer {
    /// Imports a private key to sign with `alg`; refused (with a reason that does not quote
    /// the key) when it is not a private key of that algorithm.
    fn import(&self, key: &KeySource, alg: Alg)
        -> LocalBoxFuture<'static, Result<HostKey, String>>;
    /// A fresh key pair (a DPoP key): the private key and its public JWK.
    fn generate(&self, alg: Alg) -> LocalBoxFuture<'static, Result<(HostKey, Value), String>>;
    /// The JWS signature of `input` (ECDSA as `r || s`).
    fn sign(&self, key: &HostKey, input: &[u8])
        -> LocalBoxFuture<'static, Result<Vec<u8>, String>>;
}

/// A shared signer.
pub type SharedSigner = Rc<dyn Signer>;
