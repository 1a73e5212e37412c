//! `tool_result::decode_outcome`: every shape a JS tool can give back.

use toolnexus::core::types::ToolResult;
use toolnexus::js::tool_result::decode_outcome;
use toolnexus::json_value as json;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use super::support::js;

fn returned(src: &str) -> ToolResult {
    decode_outcome("t", Ok(js(src)))
}

fn threw(src: &str) -> ToolResult {
    decode_outcome("t", Err(js(src)))
}

#[wasm_bindgen_test]
fn primitives_become_text() {
    assert_eq!(returned("'hi'"), ToolResult::ok("hi"));
    assert_eq!(returned("''"), ToolResult::ok(""));
    assert_eq!(returned("undefined"), ToolResult::ok(""));
    assert_eq!(returned("null"), ToolResult::ok(""));
}

#[wasm_bindgen_test]
fn numbers_booleans_and_bigints_become_their_text() {
    assert_eq!(returned("42"), ToolResult::ok("42"));
    assert_eq!(returned("-0.5"), ToolResult::ok("-0.5"));
    assert_eq!(returned("true"), ToolResult::ok("true"));
    assert_eq!(
        returned("12345678901234567890n"),
        ToolResult::ok("12345678901234567890")
    );
}

#[wasm_bindgen_test]
fn functions_and_symbols_are_errors() {
    let r = returned("() => 1");
    assert!(r.is_error);
    assert_eq!(
        r.output,
        r#"Tool "t" returned a function, not a string or a ToolResult"#
    );
    assert_eq!(
        returned("Symbol('s')").output,
        r#"Tool "t" returned a symbol, not a string or a ToolResult"#
    );
}

#[wasm_bindgen_test]
fn a_tool_result_is_taken_as_it_is() {
    let r = returned("{ output: 'o', isError: true, metadata: { k: 1 } }");
    assert_eq!(r.output, "o");
    assert!(r.is_error);
    assert_eq!(
        toolnexus::core::json::value::Value::Object(r.metadata.unwrap()),
        json!({"k": 1})
    );
    assert_eq!(returned("{ output: 'o' }"), ToolResult::ok("o"));
    assert_eq!(
        returned("{ output: 'o', isError: undefined, metadata: null }"),
        ToolResult::ok("o")
    );
    let inherited = returned("Object.create({ output: 'from proto', isError: false })");
    assert_eq!(inherited, ToolResult::ok("from proto"));
}

#[wasm_bindgen_test]
fn a_malformed_tool_result_is_an_error() {
    let cases = [
        (
            "{ isError: true }",
            r#"Tool "t" returned a ToolResult whose "output" is undefined, not a string"#,
        ),
        (
            "{ output: 5 }",
            r#"Tool "t" returned a ToolResult whose "output" is number, not a string"#,
        ),
        (
            "{ output: 'o', isError: 'yes' }",
            r#"Tool "t" returned a ToolResult whose "isError" is string, not a boolean"#,
        ),
        (
            "{ output: 'o', metadata: [1] }",
            r#"Tool "t" returned a ToolResult whose "metadata" is array, not an object"#,
        ),
    ];
    for (src, message) in cases {
        assert_eq!(returned(src), ToolResult::error(message), "{src}");
    }
    let cyclic =
        returned("(() => { const m = {}; m.m = m; return { output: 'o', metadata: m } })()");
    assert!(cyclic.is_error);
    assert!(
        cyclic
            .output
            .starts_with(r#"Tool "t" returned metadata that cannot be turned into JSON: "#),
        "{}",
        cyclic.output
    );
}

#[wasm_bindgen_test]
fn other_values_become_json_text() {
    assert_eq!(
        returned("{ b: 1, a: [true, null] }"),
        ToolResult::ok(r#"{"b":1,"a":[true,null]}"#)
    );
    assert_eq!(returned("[1, 'two']"), ToolResult::ok(r#"[1,"two"]"#));
    let cyclic = returned("(() => { const o = {}; o.o = o; return o })()");
    assert!(cyclic.is_error);
    assert!(
        cyclic
            .output
            .starts_with(r#"Tool "t" returned a value that cannot be turned into JSON: "#),
        "{}",
        cyclic.output
    );
    assert!(returned("{ n: 1n }").is_error);
}

#[wasm_bindgen_test]
fn a_throw_or_rejection_of_anything_is_a_clear_error() {
    assert_eq!(threw("new Error('boom')"), ToolResult::error("boom"));
    assert_eq!(threw("'plain string'"), ToolResult::error("plain string"));
    assert_eq!(threw("new TypeError('')"), ToolResult::error("TypeError"));
    assert_eq!(
        threw("''"),
        ToolResult::error(r#"Tool "t" failed with an empty error"#)
    );
    assert_eq!(threw("{ code: 7 }"), ToolResult::error(r#"{"code":7}"#));
    assert_eq!(threw("42"), ToolResult::error("42"));
    assert_eq!(threw("Symbol('s')"), ToolResult::error("Symbol(s)"));
    assert_eq!(
        threw("{}"),
        ToolResult::error(r#"Tool "t" failed: it threw an empty object"#)
    );
    let undefined = decode_outcome("t", Err(JsValue::UNDEFINED));
    assert_eq!(
        undefined,
        ToolResult::error(r#"Tool "t" failed: it threw undefined"#)
    );
    assert_eq!(
        threw("null"),
        ToolResult::error(r#"Tool "t" failed: it threw null"#)
    );
}
