//! `tool`: a JS object or `defineTool` options as a core `Tool`, and the exported `Tool` class.

use std::rc::Rc;
use toolnexus::core::spec::empty_schema;
use toolnexus::core::tool::Context;
use toolnexus::core::types::ToolResult;
use toolnexus::js::host::JsSignal;
use toolnexus::js::tool::{ctx_from_js, define_tool, tool_from_js};
use toolnexus::json_value as json;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use super::support::{abort_controller, func, get, js, set, text, wait};

/// `{name, description, inputSchema, execute}` with a `Function`-built `execute`.
fn echo_object() -> JsValue {
    let tool = js("{ name: 'echo', description: 'Echoes n', prefix: 'x:' }");
    set(
        &tool,
        "inputSchema",
        &js("{ type: 'object', properties: { n: { type: 'number' } } }"),
    );
    set(
        &tool,
        "execute",
        &func("a, c", "this.seen = c; return this.prefix + a.n").into(),
    );
    tool
}

#[wasm_bindgen_test]
async fn an_execute_object_becomes_a_tool_called_with_this() {
    let object = echo_object();
    let tool = tool_from_js(&object, "custom").unwrap();
    let spec = tool.spec();
    assert_eq!(
        (spec.name.as_str(), spec.description.as_str()),
        ("echo", "Echoes n")
    );
    assert_eq!(spec.source, "custom");
    assert_eq!(spec.input_schema["properties"]["n"]["type"], "number");
    let result = tool.execute(json!({"n": 1}), Context::default()).await;
    assert_eq!(result, ToolResult::ok("x:1"));
}

#[wasm_bindgen_test]
async fn the_js_function_sees_the_context() {
    let object = echo_object();
    let tool = tool_from_js(&object, "custom").unwrap();
    let signal = get(&abort_controller(), "signal");
    let ctx = Context {
        signal: Some(Rc::new(JsSignal::from_js(&signal).unwrap())),
        timeout_ms: Some(250.0),
        answer: None,
        request: None,
    };
    tool.execute(json!({"n": 2}), ctx).await;
    let seen = get(&object, "seen");
    assert!(js_sys::Object::is(&get(&seen, "signal"), &signal));
    assert_eq!(get(&seen, "timeout").as_f64(), Some(250.0));
    assert!(get(&seen, "answer").is_undefined());
}

#[wasm_bindgen_test]
async fn run_options_and_the_given_source() {
    let options = js("{ name: 'r', source: 'native', inputSchema: null }");
    set(
        &options,
        "run",
        &func(
            "a",
            "'use strict'; return Promise.resolve(typeof this + ':' + a.v)",
        )
        .into(),
    );
    let tool = tool_from_js(&options, "custom").unwrap();
    assert_eq!(tool.spec().source, "native");
    assert_eq!(
        tool.spec().input_schema,
        empty_schema(),
        "a null inputSchema takes no arguments"
    );
    let result = tool.execute(json!({"v": "ok"}), Context::default()).await;
    assert_eq!(result, ToolResult::ok("undefined:ok"));
}

#[wasm_bindgen_test]
fn bad_tool_objects_are_refused_with_a_reason() {
    let cases = [
        (
            "5",
            "a tool must be an object with name, description, inputSchema and execute, got number",
        ),
        (
            "{ description: 'd' }",
            r#"a tool needs a string "name", got undefined"#,
        ),
        (
            "{ name: 'n', description: 3, execute() {} }",
            r#"tool "n": "description" must be a string, got number"#,
        ),
        (
            "{ name: 'n' }",
            r#"tool "n" needs an execute(args, ctx) function"#,
        ),
        (
            "{ name: 'n', execute: 'no' }",
            r#"tool "n" needs an execute(args, ctx) function"#,
        ),
    ];
    for (src, message) in cases {
        assert_eq!(
            tool_from_js(&js(src), "custom").err().as_deref(),
            Some(message),
            "{src}"
        );
    }
    let cyclic = js("(() => { const s = { type: 'object' }; s.s = s; return { name: 'n', inputSchema: s, execute() {} } })()");
    let why = tool_from_js(&cyclic, "custom").err().unwrap();
    assert!(
        why.starts_with(r#"tool "n": inputSchema is not JSON: "#),
        "{why}"
    );
    let bad_name = tool_from_js(&js("{ name: 'a b', execute() {} }"), "custom")
        .err()
        .unwrap();
    assert!(
        bad_name.contains("a_b"),
        "suggests the sanitized name: {bad_name}"
    );
}

#[wasm_bindgen_test]
fn ctx_from_js_checks_each_field() {
    assert!(ctx_from_js(&JsValue::UNDEFINED).unwrap().signal.is_none());
    assert_eq!(
        ctx_from_js(&js("{ timeout: 5 }")).unwrap().timeout_ms,
        Some(5.0)
    );
    let answer = ctx_from_js(&js("{ answer: { id: 'a1', ok: true } }"))
        .unwrap()
        .answer
        .unwrap();
    assert_eq!((answer.id.as_str(), answer.ok), ("a1", true));
    assert_eq!(
        ctx_from_js(&js("'x'")).err().as_deref(),
        Some("ctx must be an object, got string")
    );
    assert!(ctx_from_js(&js("{ timeout: -1 }")).is_err());
    assert!(ctx_from_js(&js("{ timeout: '5' }")).is_err());
    assert!(ctx_from_js(&js("{ answer: { id: 1 } }")).is_err());
}

#[wasm_bindgen_test]
async fn define_tool_gives_a_tool_class_that_validates_arguments() {
    let options = js(
        "{ name: 'add', description: 'Adds', inputSchema: { type: 'object', \
        properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } }",
    );
    set(
        &options,
        "run",
        &func("x", "return String(x.a + x.b)").into(),
    );
    let tool = define_tool(options).unwrap();
    assert_eq!(
        (tool.name(), tool.source()),
        ("add".to_owned(), "native".to_owned())
    );
    let ok = wait(tool.execute(Some(js("{ a: 1, b: 2 }")), None).into())
        .await
        .unwrap();
    assert_eq!(text(&ok, &["output"]), "3");
    assert_eq!(get(&ok, "isError").as_bool(), Some(false));
    let bad = wait(tool.execute(Some(js("{ a: 1 }")), None).into())
        .await
        .unwrap();
    assert_eq!(get(&bad, "isError").as_bool(), Some(true));
    let expected = r#"Invalid arguments for tool "add": required property "b" is missing"#;
    assert_eq!(text(&bad, &["output"]), expected);
}

#[wasm_bindgen_test]
fn define_tool_needs_run() {
    let error = define_tool(js("{ name: 'n' }")).err().unwrap();
    assert_eq!(text(&error, &["code"]), "invalid_tool");
    assert!(text(&error, &["message"]).starts_with("defineTool: options.run must be a function"));
}
