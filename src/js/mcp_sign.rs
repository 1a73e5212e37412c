//! The core's signing seam ([`Signer`]) over WebCrypto: `src/js/webcrypto.js` imports keys,
//! makes DPoP keys and signs; a key stays a `CryptoKey` on the JavaScript side.

use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::convert::{error_text, from_json, item};
use super::promise::wait;
use crate::core::host::LocalBoxFuture;
use crate::core::json::value::Value;
use crate::core::mcp::m2m::sign::{Alg, HostKey, KeySource, Signer};

#[wasm_bindgen(module = "/src/js/webcrypto.js")]
extern "C" {
    #[wasm_bindgen(js_name = importSigningKey)]
    fn import_signing_key(format: &str, key: &JsValue, alg: &str) -> js_sys::Promise;
    #[wasm_bindgen(js_name = generateSigningKey)]
    fn generate_signing_key(alg: &str) -> js_sys::Promise;
    #[wasm_bindgen(js_name = signJws)]
    fn sign_jws(key: &JsValue, alg: &str, input: &[u8]) -> js_sys::Promise;
}

/// Signing through the platform's `crypto.subtle`.
pub struct WebCryptoSigner;

/// The shared signer every MCP host gets.
pub fn signer() -> Rc<dyn Signer> {
    Rc::new(WebCryptoSigner)
}

fn key_of(handle: JsValue, alg: Alg) -> HostKey {
    HostKey {
        alg,
        handle: Rc::new(handle),
    }
}

impl Signer for WebCryptoSigner {
    fn import(
        &self,
        key: &KeySource,
        alg: Alg,
    ) -> LocalBoxFuture<'static, Result<HostKey, String>> {
        let started = match key {
            KeySource::Jwk(jwk) => from_json(jwk)
                .map(|jwk| import_signing_key("jwk", &jwk, alg.as_str()))
                .map_err(|_| "the JWK could not be handed to WebCrypto".to_owned()),
            KeySource::Pkcs8(der) => Ok(import_signing_key(
                "pkcs8",
                &js_sys::Uint8Array::from(der.as_slice()).into(),
                alg.as_str(),
            )),
        };
        Box::pin(async move {
            let handle = wait(started?).await.map_err(|e| error_text(&e))?;
            Ok(key_of(handle, alg))
        })
    }

    fn generate(&self, alg: Alg) -> LocalBoxFuture<'static, Result<(HostKey, Value), String>> {
        let started = generate_signing_key(alg.as_str());
        Box::pin(async move {
            let pair = wait(started).await.map_err(|e| error_text(&e))?;
            let jwk = item(&pair, 1).as_string().unwrap_or_default();
            let jwk = crate::core::json::parse::from_str(&jwk)
                .map_err(|_| "WebCrypto exported no public JWK".to_owned())?;
            Ok((key_of(item(&pair, 0), alg), jwk))
        })
    }

    fn sign(
        &self,
        key: &HostKey,
        input: &[u8],
    ) -> LocalBoxFuture<'static, Result<Vec<u8>, String>> {
        let started = key
            .handle
            .downcast_ref::<JsValue>()
            .map(|handle| sign_jws(handle, key.alg.as_str(), input))
            .ok_or_else(|| "the key is not a WebCrypto key".to_owned());
        Box::pin(async move {
            let signature = wait(started?).await.map_err(|e| error_text(&e))?;
            Ok(js_sys::Uint8Array::new(&signature).to_vec())
        })
    }
}
