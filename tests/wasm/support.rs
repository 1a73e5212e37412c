//! Small helpers: JS values from JS source (through the `Function` constructor, not `eval`),
//! property access and method calls.

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The value of the JS expression `src`.
pub fn js(src: &str) -> JsValue {
    Function::new_no_args(&format!("return ({src})"))
        .call0(&JsValue::UNDEFINED)
        .unwrap()
}

/// A JS function `(params) => { body }`.
pub fn func(params: &str, body: &str) -> Function {
    Function::new_with_args(params, body)
}

/// `object[key]`.
pub fn get(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(key)).unwrap()
}

/// `object[key] = value`.
pub fn set(object: &JsValue, key: &str, value: &JsValue) {
    Reflect::set(object, &JsValue::from_str(key), value).unwrap();
}

/// `object[path[0]][path[1]]…` as a string (panics when it is not one).
pub fn text(object: &JsValue, path: &[&str]) -> String {
    let value = path.iter().fold(object.clone(), |v, key| get(&v, key));
    value
        .as_string()
        .unwrap_or_else(|| panic!("{path:?} is not a string: {value:?}"))
}

/// `object.method(...args)`; a throw is returned as `Err`.
pub fn call(object: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = get(object, method).dyn_into().unwrap();
    f.apply(object, &args.iter().collect::<Array>())
}

/// Awaits a JS promise.
pub async fn wait(promise: JsValue) -> Result<JsValue, JsValue> {
    JsFuture::from(js_sys::Promise::from(promise)).await
}

/// `new AbortController()`.
pub fn abort_controller() -> JsValue {
    let class: Function = get(&js_sys::global(), "AbortController")
        .dyn_into()
        .unwrap();
    Reflect::construct(&class, &Array::new()).unwrap()
}

/// `JSON.stringify(value)`.
pub fn stringify(value: &JsValue) -> String {
    js_sys::JSON::stringify(value).unwrap().as_string().unwrap()
}
