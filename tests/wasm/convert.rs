//! `convert`: JSON crossings, property access and error messages.

use toolnexus::core::types::Request;
use toolnexus::js::convert::{error_text, from_json_text, get, has, js_error, to_json, type_name};
use toolnexus::{core::json::value::Value, json_value as json};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use super::support::{self, js};

#[wasm_bindgen_test]
fn to_json_keeps_javascript_semantics() {
    let value = js("{ b: [1, 'x', null], a: undefined, t: { toJSON() { return 5 } }, n: 1.5 }");
    let json = to_json(&value).unwrap();
    assert_eq!(json, json!({"b": [1, "x", null], "t": 5, "n": 1.5}));
    let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["b", "t", "n"], "key order is kept");
    assert_eq!(to_json(&JsValue::UNDEFINED).unwrap(), Value::Null);
    assert_eq!(to_json(&js("() => 1")).unwrap(), Value::Null);
}

#[wasm_bindgen_test]
fn text_the_runtime_cannot_parse_is_an_error_not_null() {
    let parsed = from_json_text(r#"{"a":[1,"x"]}"#).unwrap();
    assert_eq!(to_json(&parsed).unwrap(), json!({"a": [1, "x"]}));
    let thrown = from_json_text("[1,").unwrap_err();
    assert_eq!(
        get(&thrown, "code").as_string().as_deref(),
        Some("internal")
    );
    let message = error_text(&thrown);
    assert!(
        message.starts_with("the module wrote JSON the runtime could not parse: "),
        "{message}"
    );
}

#[wasm_bindgen_test]
fn to_json_refuses_a_cycle() {
    let cyclic = js("(() => { const o = { a: 1 }; o.self = o; return o })()");
    let why = to_json(&cyclic).unwrap_err();
    assert!(why.contains("circular"), "{why}");
}

#[wasm_bindgen_test]
fn to_json_refuses_a_bigint() {
    let why = to_json(&js("{ n: 10n }")).unwrap_err();
    assert!(why.contains("BigInt"), "{why}");
    assert!(to_json(&js_sys::BigInt::from(7u64).into()).is_err());
}

#[wasm_bindgen_test]
fn a_js_object_reads_as_a_host_record() {
    let value =
        js("({ kind: 'approval', prompt: 'Send?', id: 'p1', url: undefined, data: { n: 3 } })");
    let request = to_json(&value).and_then(Request::from_json).unwrap();
    assert_eq!((request.id.as_str(), request.url), ("p1", None));
    assert_eq!(request.data.unwrap().get("n"), Some(&json!(3)));
    let wrong = to_json(&js("({ id: 'p1', kind: 1.5, prompt: 'p' })")).and_then(Request::from_json);
    assert_eq!(
        wrong.unwrap_err(),
        "invalid type: floating point `1.5`, expected a string"
    );
}

#[wasm_bindgen_test]
fn error_text_of_errors_and_strings() {
    assert_eq!(error_text(&js("new Error('bad input')")), "bad input");
    assert_eq!(error_text(&js("new RangeError('')")), "RangeError");
    assert_eq!(
        error_text(&js("new DOMException('gone', 'AbortError')")),
        "gone"
    );
    assert_eq!(error_text(&JsValue::from_str("oops")), "oops");
    assert_eq!(error_text(&js("{ message: 'm', name: 'Custom' }")), "m");
}

#[wasm_bindgen_test]
fn error_text_of_everything_else() {
    assert_eq!(error_text(&JsValue::UNDEFINED), "undefined");
    assert_eq!(error_text(&JsValue::NULL), "null");
    assert_eq!(error_text(&js("{ code: 7 }")), r#"{"code":7}"#);
    assert_eq!(error_text(&JsValue::from_f64(42.0)), "42");
}

#[wasm_bindgen_test]
fn error_text_of_objects_without_a_message_and_of_symbols() {
    assert_eq!(error_text(&js("{}")), "{}");
    let cyclic = js("(() => { const o = {}; o.o = o; return o })()");
    assert_eq!(
        error_text(&cyclic),
        "[object Object]",
        "String() when JSON refuses"
    );
    assert_eq!(error_text(&js("Symbol('s')")), "Symbol(s)");
    assert_eq!(error_text(&js("10n")), "10");
}

#[wasm_bindgen_test]
fn get_and_has_never_throw() {
    let object = js("{ a: 1, get boom() { throw new Error('no') } }");
    assert_eq!(get(&object, "a").as_f64(), Some(1.0));
    assert!(get(&object, "boom").is_undefined());
    assert!(get(&JsValue::from_str("text"), "length").is_undefined());
    assert!(has(&js("Object.create({ inherited: 1 })"), "inherited"));
    assert!(!has(&JsValue::from_f64(1.0), "x"));
}

#[wasm_bindgen_test]
fn type_names() {
    let cases = [
        ("null", "null"),
        ("[1]", "array"),
        ("{}", "object"),
        ("() => 1", "function"),
        ("'s'", "string"),
        ("1", "number"),
        ("1n", "bigint"),
        ("Symbol('s')", "symbol"),
        ("undefined", "undefined"),
    ];
    for (src, name) in cases {
        assert_eq!(type_name(&js(src)), name, "{src}");
    }
}

#[wasm_bindgen_test]
fn js_error_has_a_code() {
    let error = js_error("invalid_tool", "bad tool");
    assert!(error.is_instance_of::<js_sys::Error>());
    assert_eq!(support::text(&error, &["message"]), "bad tool");
    assert_eq!(support::text(&error, &["code"]), "invalid_tool");
}
