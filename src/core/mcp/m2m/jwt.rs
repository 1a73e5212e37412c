//! Compact JWTs (RFC 7519) signed through the host's [`Signer`]: the `private_key_jwt` client
//! assertion (RFC 7523 §2.2) and, with [`super::dpop`], DPoP proofs. Also the PEM reading
//! of a PKCS#8 private key and the base64url the JOSE formats use.

use super::sign::{Alg, HostKey, KeySource, Signer};
use crate::core::json::text::to_text;
use crate::core::json::value::Value;
use crate::json_value;
use base64ct::{Base64, Base64UrlUnpadded, Encoding as _};

/// `bytes` as unpadded base64url.
///
/// ```
/// assert_eq!(toolnexus::core::mcp::m2m::jwt::b64url(b"\xfb\xff"), "-_8");
/// ```
pub fn b64url(bytes: &[u8]) -> String {
    Base64UrlUnpadded::encode_string(bytes)
}

/// Signs `header.claims` with `key`: the compact serialization `h.c.s`. The header's `alg`
/// is set from the key.
///
/// ```
/// # use toolnexus::core::mcp::m2m::jwt::signing_input;
/// let input = signing_input(&toolnexus::json!({"alg": "ES256"}), &toolnexus::json!({"a": 1}));
/// assert_eq!(input, "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ");
/// ```
pub async fn sign(
    signer: &dyn Signer,
    key: &HostKey,
    mut header: Value,
    claims: &Value,
) -> Result<String, String> {
    if let Value::Object(map) = &mut header {
        map.insert("alg".into(), Value::from(key.alg.as_str()));
    }
    let input = signing_input(&header, claims);
    let signature = signer
        .sign(key, input.as_bytes())
        .await
        .map_err(|why| format!("could not sign a {} JWT: {why}", key.alg.as_str()))?;
    Ok(format!("{input}.{}", b64url(&signature)))
}

/// The JWS signing input of a header and claims: their compact JSON texts, base64url.
pub fn signing_input(header: &Value, claims: &Value) -> String {
    format!(
        "{}.{}",
        b64url(to_text(header).as_bytes()),
        b64url(to_text(claims).as_bytes())
    )
}

/// The claims of a client assertion (RFC 7523 §3): `iss` and `sub` the client id, `aud` the
/// authorization server, issued now (`now_s`, seconds), valid for five minutes, `jti` unique.
///
/// ```
/// # use toolnexus::core::mcp::m2m::jwt::assertion_claims;
/// let claims = assertion_claims("app", "https://as.example", 1_000, "j1");
/// assert_eq!(claims["iss"], "app");
/// assert_eq!(claims["sub"], "app");
/// assert_eq!(claims["exp"], 1_300);
/// ```
pub fn assertion_claims(client_id: &str, audience: &str, now_s: i64, jti: &str) -> Value {
    json_value!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": now_s,
        "exp": now_s + 300,
        "jti": jti
    })
}

/// A random JWT id: 16 random bytes, base64url.
pub fn random_jti() -> String {
    let mut bytes = [0u8; 16];
    // Without randomness (never on the supported hosts) the id is still well-formed.
    let _ = getrandom::fill(&mut bytes);
    b64url(&bytes)
}

/// Reads a configured private key: a JWK object, or the text of a PKCS#8 PEM
/// (`-----BEGIN PRIVATE KEY-----`). The reason a key is refused never quotes it.
///
/// ```
/// # use toolnexus::core::mcp::m2m::jwt::read_key;
/// # use toolnexus::core::mcp::m2m::sign::KeySource;
/// let pem = "-----BEGIN PRIVATE KEY-----\nAAEC\n-----END PRIVATE KEY-----\n";
/// assert_eq!(read_key(&toolnexus::json!(pem)).unwrap(), KeySource::Pkcs8(vec![0, 1, 2]));
/// assert!(read_key(&toolnexus::json!("s3cret")).unwrap_err().contains("PKCS#8 PEM"));
/// assert!(!read_key(&toolnexus::json!("s3cret")).unwrap_err().contains("s3cret"));
/// ```
pub fn read_key(value: &Value) -> Result<KeySource, String> {
    match value {
        Value::Object(map) => {
            if !map.contains_key("d") {
                return Err(
                    "\"auth.privateKey\" is a public JWK: it needs its private part (\"d\")".into(),
                );
            }
            Ok(KeySource::Jwk(value.clone()))
        }
        Value::String(text) => pkcs8_der(text).map(KeySource::Pkcs8).ok_or_else(|| {
            "\"auth.privateKey\" must be a JWK object or a PKCS#8 PEM (-----BEGIN PRIVATE KEY-----)"
                .into()
        }),
        _ => Err("\"auth.privateKey\" must be a JWK object or a PKCS#8 PEM string".into()),
    }
}

fn pkcs8_der(text: &str) -> Option<Vec<u8>> {
    const BEGIN: &str = "-----BEGIN PRIVATE KEY-----";
    const END: &str = "-----END PRIVATE KEY-----";
    let start = text.find(BEGIN)? + BEGIN.len();
    let end = start + text.get(start..)?.find(END)?;
    let body: String = text
        .get(start..end)?
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    Base64::decode_vec(&body).ok().filter(|der| !der.is_empty())
}

/// The algorithm of a PKCS#8 key, from the object identifiers in its DER: an EC key on P-256
/// or P-384, or an RSA key (RS256).
///
/// ```
/// # use toolnexus::core::mcp::m2m::{jwt::pkcs8_alg, sign::Alg};
/// // id-ecPublicKey, then prime256v1.
/// let der = [0x06, 7, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
///            0x06, 8, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
/// assert_eq!(pkcs8_alg(&der), Some(Alg::Es256));
/// ```
pub fn pkcs8_alg(der: &[u8]) -> Option<Alg> {
    const EC: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
    const P256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
    const P384: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x22];
    const RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
    let has = |oid: &[u8]| der.windows(oid.len()).any(|w| w == oid);
    if has(EC) && has(P256) {
        Some(Alg::Es256)
    } else if has(EC) && has(P384) {
        Some(Alg::Es384)
    } else if has(RSA) {
        Some(Alg::Rs256)
    } else {
        None
    }
}

/// The algorithm to sign with a key: `named` when the configuration names one, else what
/// the key implies; a reason when neither says.
pub fn key_alg(key: &KeySource, named: Option<&str>) -> Result<Alg, String> {
    if let Some(name) = named {
        return Alg::parse(name).ok_or_else(|| {
            format!(
                "\"auth.signingAlgorithm\" must be ES256, ES384, RS256 or PS256, got \"{name}\""
            )
        });
    }
    match key {
        KeySource::Jwk(jwk) => Alg::of_jwk(jwk),
        KeySource::Pkcs8(der) => pkcs8_alg(der),
    }
    .ok_or_else(|| {
        "\"auth.privateKey\" is neither an EC (P-256, P-384) nor an RSA key; name its \"auth.signingAlgorithm\""
            .into()
    })
}
