//! Futures and Promises across the boundary: [`settle`] turns whatever a JS callback gave back
//! into a Rust future (a synchronous throw and a rejected Promise are the same outcome,
//! `Err(thrown value)`), and [`promise`] turns an exported method's future into its Promise.
//! The shim's own promises on the hot path (each fetch, each asynchronous tool) never reach
//! here: they settle numbered slots instead (see [`super::slot`]).

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

/// The Promise of an exported async method: its future runs as a task and settles the Promise.
/// Every export goes through one boxed instantiation of the task machinery, instead of one per
/// future type (the module carries the polling glue once): an export returns
/// `promise(async move { … Ok(value) })`.
pub fn promise(
    future: impl std::future::Future<Output = Result<JsValue, JsValue>> + 'static,
) -> Promise {
    spawn(Box::pin(future))
}

fn spawn(future: crate::core::host::LocalBoxFuture<'static, Result<JsValue, JsValue>>) -> Promise {
    wasm_bindgen_futures::future_to_promise(future)
}
