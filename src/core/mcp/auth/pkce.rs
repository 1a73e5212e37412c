//! PKCE (RFC 7636) with the S256 method, and the random `state` of a flow: 32 random bytes
//! from the platform's cryptographic source (`crypto.getRandomValues` in wasm), base64url.

use base64ct::{Base64UrlUnpadded, Encoding};
use sha2::{Digest, Sha256};

/// `bytes` random bytes as base64url text; an error when the platform has no source.
///
/// ```
/// # use toolnexus::core::mcp::auth::pkce::random_text;
/// let a = random_text(32).unwrap();
/// assert_eq!(a.len(), 43);
/// assert_ne!(a, random_text(32).unwrap());
/// ```
pub fn random_text(bytes: usize) -> Result<String, String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf)
        .map_err(|_| "this runtime has no cryptographic random source for OAuth".to_owned())?;
    Ok(Base64UrlUnpadded::encode_string(&buf))
}

/// The S256 `code_challenge` of a verifier: base64url(SHA-256(verifier)).
///
/// ```
/// # use toolnexus::core::mcp::auth::pkce::challenge;
/// // RFC 7636 appendix B.
/// assert_eq!(challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
/// ```
pub fn challenge(verifier: &str) -> String {
    Base64UrlUnpadded::encode_string(&Sha256::digest(verifier.as_bytes()))
}
