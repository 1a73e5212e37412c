//! The one helper that turns whatever a JS callback gave back into a Rust future. A
//! synchronous throw and a rejected Promise are the same outcome: `Err(thrown value)`.

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::convert::get;

/// Awaits `value` when it is a thenable; returns it as it is otherwise.
pub async fn settle(value: JsValue) -> Result<JsValue, JsValue> {
    if get(&value, "then").is_function() {
        JsFuture::from(Promise::resolve(&value)).await
    } else {
        Ok(value)
    }
}

/// Calls `f` with `this` and two arguments, then settles its result.
pub async fn call2(
    f: &Function,
    this: &JsValue,
    a: &JsValue,
    b: &JsValue,
) -> Result<JsValue, JsValue> {
    let returned = f.call2(this, a, b)?;
    settle(returned).await
}
