//! `host`: the `setTimeout` clock, `AbortSignal` as the core's `Cancel`, random ids.

use futures_util::future::{select, Either};
use std::rc::Rc;
use toolnexus::core::host::{Cancel, Clock};
use toolnexus::js::host::{random_id, signal_from, JsClock, JsSignal};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use super::support::{abort_controller, call, func, get, js, set};

#[wasm_bindgen_test]
async fn clock_reads_date_now_and_sleeps() {
    let before = js_sys::Date::now();
    let now = JsClock.now_ms();
    assert!(now >= before && now <= js_sys::Date::now());
    JsClock.sleep(30.0).await;
    // A lower bound only: a slow machine can never make this fail.
    assert!(js_sys::Date::now() - before >= 25.0);
    JsClock.sleep(-5.0).await; // a negative delay is a zero delay
}

#[wasm_bindgen_test]
async fn the_shorter_sleep_wins() {
    match select(JsClock.sleep(1.0), JsClock.sleep(60_000.0)).await {
        Either::Left(_) => {}
        Either::Right(_) => panic!("the 60 s sleep finished first"),
    }
}

#[wasm_bindgen_test]
async fn a_dropped_sleep_clears_its_timer() {
    let global = js_sys::global();
    let original = get(&global, "clearTimeout");
    let wrap = func(
        "orig",
        "const f = h => { f.calls++; return orig(h) }; f.calls = 0; return f",
    );
    let counting = wrap.call1(&JsValue::UNDEFINED, &original).unwrap();
    set(&global, "clearTimeout", &counting);
    JsClock.sleep(1.0).await; // finished: nothing to clear
    let after_finished = get(&counting, "calls").as_f64();
    drop(JsClock.sleep(60_000.0)); // dropped: its timer must go
    let after_drop = get(&counting, "calls").as_f64();
    set(&global, "clearTimeout", &original);
    assert_eq!(after_finished, Some(0.0));
    assert_eq!(after_drop, Some(1.0));
}

#[wasm_bindgen_test]
fn from_js_accepts_only_signal_shaped_values() {
    assert!(JsSignal::from_js(&get(&abort_controller(), "signal")).is_some());
    assert!(JsSignal::from_js(&js("{ aborted: false, addEventListener() {} }")).is_some());
    assert!(JsSignal::from_js(&js("{}")).is_none());
    assert!(JsSignal::from_js(&js("{ aborted: 'no', addEventListener() {} }")).is_none());
    assert!(JsSignal::from_js(&JsValue::from_f64(1.0)).is_none());
}

#[wasm_bindgen_test]
async fn wait_completes_when_the_controller_aborts() {
    let controller = abort_controller();
    let signal = JsSignal::from_js(&get(&controller, "signal")).unwrap();
    assert!(!signal.is_aborted());
    assert_eq!(signal.reason(), "");
    let waiting = match select(signal.wait(), JsClock.sleep(10.0)).await {
        Either::Left(_) => panic!("wait() completed before abort()"),
        Either::Right((_, waiting)) => waiting,
    };
    call(&controller, "abort", &["stop".into()]).unwrap();
    waiting.await;
    assert!(signal.is_aborted());
    assert_eq!(signal.reason(), "stop");
}

#[wasm_bindgen_test]
async fn an_aborted_signal_completes_at_once_with_its_reason() {
    let signal = js("AbortSignal.abort(new Error('early'))");
    let signal = JsSignal::from_js(&signal).unwrap();
    signal.wait().await;
    assert_eq!(signal.reason(), "early");

    let controller = abort_controller();
    call(&controller, "abort", &[]).unwrap();
    let signal = JsSignal::from_js(&get(&controller, "signal")).unwrap();
    assert!(
        !signal.reason().is_empty(),
        "a default AbortError still has a message"
    );
}

#[wasm_bindgen_test]
fn a_dropped_wait_removes_its_listener() {
    let fake = js(
        "(() => { const l = new Set(); return { aborted: false, \
         addEventListener: (t, f) => l.add(t + f.name), removeEventListener: (t, f) => l.delete(t + f.name), \
         count: () => l.size } })()",
    );
    let signal = JsSignal::from_js(&fake).unwrap();
    let waiting = signal.wait();
    assert_eq!(call(&fake, "count", &[]).unwrap().as_f64(), Some(1.0));
    drop(waiting);
    assert_eq!(call(&fake, "count", &[]).unwrap().as_f64(), Some(0.0));
}

#[wasm_bindgen_test]
fn signal_from_reads_ctx_signal() {
    let ctx = js_sys::Object::new().into();
    assert!(signal_from(&ctx).unwrap().is_none());
    set(&ctx, "signal", &JsValue::NULL);
    assert!(signal_from(&ctx).unwrap().is_none());
    set(&ctx, "signal", &get(&abort_controller(), "signal"));
    let signal: Rc<JsSignal> = signal_from(&ctx).unwrap().unwrap();
    assert!(js_sys::Object::is(signal.js(), &get(&ctx, "signal")));
    set(&ctx, "signal", &JsValue::from_f64(5.0));
    let why = signal_from(&ctx).err().unwrap();
    assert_eq!(why, "ctx.signal must be an AbortSignal");
}

#[wasm_bindgen_test]
fn random_ids_are_prefixed_hex_and_differ() {
    let (a, b) = (random_id("pnd"), random_id("pnd"));
    let hex = a.strip_prefix("pnd-").unwrap();
    assert_eq!(hex.len(), 16);
    assert!(hex.chars().all(|c| c.is_ascii_hexdigit()), "{a}");
    assert_ne!(a, b);
}
