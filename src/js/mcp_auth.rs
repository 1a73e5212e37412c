//! The host side of OAuth for remote MCP servers: the `tokenStore` option (any object with
//! `get`, `set` and `delete`, each sync or returning a Promise) as the core's `TokenStore`.

use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::convert::{apply, error_text, get, js_error};
use crate::core::host::{LocalBoxFuture, TokenStore};

/// A JavaScript `{get, set, delete}` object.
pub struct JsTokenStore(JsValue);

impl JsTokenStore {
    fn call(
        &self,
        verb: &'static str,
        args: Vec<JsValue>,
    ) -> LocalBoxFuture<'static, Result<JsValue, String>> {
        let method = get(&self.0, verb);
        let called = method
            .dyn_ref::<js_sys::Function>()
            .ok_or_else(|| format!("tokenStore.{verb} is not a function"))
            .and_then(|f| apply(f, &self.0, &args).map_err(|e| error_text(&e)));
        Box::pin(async move {
            let value = called?;
            super::promise::settle(value)
                .await
                .map_err(|e| format!("tokenStore.{verb} failed: {}", error_text(&e)))
        })
    }
}

impl TokenStore for JsTokenStore {
    fn get(&self, key: &str) -> LocalBoxFuture<'static, Result<Option<String>, String>> {
        let called = self.call("get", vec![JsValue::from_str(key)]);
        Box::pin(async move {
            let value = called.await?;
            // A value that is not text (undefined, null, anything else) counts as absent.
            Ok(value.as_string())
        })
    }

    fn set(&self, key: &str, value: String) -> LocalBoxFuture<'static, Result<(), String>> {
        let called = self.call(
            "set",
            vec![JsValue::from_str(key), JsValue::from_str(&value)],
        );
        Box::pin(async move { called.await.map(|_| ()) })
    }

    fn delete(&self, key: &str) -> LocalBoxFuture<'static, Result<(), String>> {
        let called = self.call("delete", vec![JsValue::from_str(key)]);
        Box::pin(async move { called.await.map(|_| ()) })
    }
}

/// The `tokenStore` option: `None` when absent (the core keeps tokens in memory), an
/// `invalid_options` error when it lacks `get`, `set` or `delete`.
pub fn token_store(options: &JsValue, what: &str) -> Result<Option<Rc<dyn TokenStore>>, JsValue> {
    let given = get(options, "tokenStore");
    if given.is_undefined() || given.is_null() {
        return Ok(None);
    }
    for verb in ["get", "set", "delete"] {
        if !get(&given, verb).is_function() {
            return Err(js_error(
                "invalid_options",
                &format!(
                    "{what}: tokenStore must have get, set and delete methods (missing {verb})"
                ),
            ));
        }
    }
    Ok(Some(Rc::new(JsTokenStore(given))))
}
