//! `promise::settle` and `promise::call2`: a sync value, a Promise, a thenable, a throw.

use js_sys::Promise;
use toolnexus::js::convert::error_text;
use toolnexus::js::promise::{call2, settle};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use super::support::{func, get, js};

#[wasm_bindgen_test]
async fn a_plain_value_is_returned_as_is() {
    assert_eq!(
        settle(JsValue::from_f64(5.0)).await.unwrap().as_f64(),
        Some(5.0)
    );
    assert!(settle(JsValue::UNDEFINED).await.unwrap().is_undefined());
    let not_thenable = settle(js("{ then: 1 }")).await.unwrap();
    assert_eq!(get(&not_thenable, "then").as_f64(), Some(1.0));
}

#[wasm_bindgen_test]
async fn a_resolved_promise_gives_its_value() {
    let value = settle(Promise::resolve(&JsValue::from_str("v")).into())
        .await
        .unwrap();
    assert_eq!(value.as_string().as_deref(), Some("v"));
    let later = js("new Promise(r => setTimeout(() => r('late'), 5))");
    assert_eq!(
        settle(later).await.unwrap().as_string().as_deref(),
        Some("late")
    );
}

#[wasm_bindgen_test]
async fn a_rejected_promise_is_err() {
    let thrown = settle(Promise::reject(&js("new Error('no')")).into())
        .await
        .unwrap_err();
    assert_eq!(error_text(&thrown), "no");
}

#[wasm_bindgen_test]
async fn a_thenable_is_awaited() {
    let value = settle(js("{ then(resolve) { resolve(7) } }"))
        .await
        .unwrap();
    assert_eq!(value.as_f64(), Some(7.0));
    let thrown = settle(js("{ then(_, reject) { reject('nope') } }"))
        .await
        .unwrap_err();
    assert_eq!(thrown.as_string().as_deref(), Some("nope"));
    let thrown = settle(js("{ then() { throw new Error('then threw') } }"))
        .await
        .unwrap_err();
    assert_eq!(error_text(&thrown), "then threw");
}

#[wasm_bindgen_test]
async fn call2_treats_a_throw_like_a_rejection() {
    let this = js("{ k: 'this-ok' }");
    let f = func("a, b", "return this.k + ':' + a + b");
    let out = call2(&f, &this, &"x".into(), &"y".into()).await.unwrap();
    assert_eq!(out.as_string().as_deref(), Some("this-ok:xy"));

    let throws = func("", "throw new TypeError('sync')");
    let thrown = call2(&throws, &JsValue::UNDEFINED, &JsValue::NULL, &JsValue::NULL).await;
    assert_eq!(error_text(&thrown.unwrap_err()), "sync");

    let rejects = func("", "return Promise.reject(new Error('async'))");
    let thrown = call2(
        &rejects,
        &JsValue::UNDEFINED,
        &JsValue::NULL,
        &JsValue::NULL,
    )
    .await;
    assert_eq!(error_text(&thrown.unwrap_err()), "async");
}
