//! A native signer standing in for the host's WebCrypto in the tests (`ring`): ES256 keys
//! imported from a JWK or PKCS#8, or generated (DPoP), and RS256 from PKCS#8.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use base64ct::{Base64UrlUnpadded, Encoding as _};
use ring::rand::SystemRandom;
use ring::signature::{self, EcdsaKeyPair, KeyPair as _, RsaKeyPair};
use std::rc::Rc;
use toolnexus::core::host::LocalBoxFuture;
use toolnexus::core::json::value::Value;
use toolnexus::core::mcp::m2m::sign::{Alg, HostKey, KeySource, Signer};
use toolnexus::json;

enum Native {
    Ec(EcdsaKeyPair),
    Rsa(RsaKeyPair),
}

/// Signs with `ring`.
pub struct RingSigner;

/// Base64url (unpadded) decoded.
pub fn b64(text: &str) -> Result<Vec<u8>, String> {
    Base64UrlUnpadded::decode_vec(text).map_err(|_| "bad base64url".to_owned())
}

fn ec_from_jwk(jwk: &Value) -> Result<EcdsaKeyPair, String> {
    let part = |k: &str| b64(jwk.get(k).and_then(Value::as_str).unwrap_or(""));
    let mut public = vec![4u8];
    public.extend(part("x")?);
    public.extend(part("y")?);
    EcdsaKeyPair::from_private_key_and_public_key(
        &signature::ECDSA_P256_SHA256_FIXED_SIGNING,
        &part("d")?,
        &public,
        &SystemRandom::new(),
    )
    .map_err(|_| "not a P-256 private key".to_owned())
}

impl Signer for RingSigner {
    fn import(
        &self,
        key: &KeySource,
        alg: Alg,
    ) -> LocalBoxFuture<'static, Result<HostKey, String>> {
        let native = match (key, alg) {
            (KeySource::Jwk(jwk), Alg::Es256) => ec_from_jwk(jwk).map(Native::Ec),
            (KeySource::Pkcs8(der), Alg::Es256) => EcdsaKeyPair::from_pkcs8(
                &signature::ECDSA_P256_SHA256_FIXED_SIGNING,
                der,
                &SystemRandom::new(),
            )
            .map(Native::Ec)
            .map_err(|_| "not a P-256 PKCS#8 key".to_owned()),
            (KeySource::Pkcs8(der), Alg::Rs256) => RsaKeyPair::from_pkcs8(der)
                .map(Native::Rsa)
                .map_err(|_| "not an RSA PKCS#8 key".to_owned()),
            _ => Err(format!(
                "{} keys of this form are not supported here",
                alg.as_str()
            )),
        };
        Box::pin(async move {
            native.map(|n| HostKey {
                alg,
                handle: Rc::new(n),
            })
        })
    }

    fn generate(&self, alg: Alg) -> LocalBoxFuture<'static, Result<(HostKey, Value), String>> {
        let rng = SystemRandom::new();
        let made = EcdsaKeyPair::generate_pkcs8(&signature::ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .ok()
            .and_then(|pkcs8| {
                EcdsaKeyPair::from_pkcs8(
                    &signature::ECDSA_P256_SHA256_FIXED_SIGNING,
                    pkcs8.as_ref(),
                    &rng,
                )
                .ok()
            });
        Box::pin(async move {
            let pair = made.ok_or("no key")?;
            let public = pair.public_key().as_ref().to_vec();
            let (x, y) = public.get(1..).unwrap_or(&[]).split_at(32);
            let jwk = json!({"kty": "EC", "crv": "P-256",
                "x": Base64UrlUnpadded::encode_string(x), "y": Base64UrlUnpadded::encode_string(y)});
            Ok((
                HostKey {
                    alg,
                    handle: Rc::new(Native::Ec(pair)),
                },
                jwk,
            ))
        })
    }

    fn sign(
        &self,
        key: &HostKey,
        input: &[u8],
    ) -> LocalBoxFuture<'static, Result<Vec<u8>, String>> {
        let rng = SystemRandom::new();
        let signed = match key.handle.downcast_ref::<Native>() {
            Some(Native::Ec(pair)) => pair
                .sign(&rng, input)
                .map(|s| s.as_ref().to_vec())
                .map_err(|_| "signing failed".to_owned()),
            Some(Native::Rsa(pair)) => {
                let mut out = vec![0u8; pair.public().modulus_len()];
                pair.sign(&signature::RSA_PKCS1_SHA256, &rng, input, &mut out)
                    .map(|()| out)
                    .map_err(|_| "signing failed".to_owned())
            }
            None => Err("not this host's key".to_owned()),
        };
        Box::pin(async move { signed })
    }
}
