//! `toolkit::create_toolkit` and the `Toolkit` class, called the way JS calls them: through the
//! exported functions and the object's methods, awaiting the Promises they return.

use js_sys::Array;
use toolnexus::js::toolkit::create_toolkit;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use super::support::{abort_controller, call, func, get, js, set, stringify, text, wait};

/// `{name: "echo", execute}` plus `{name: "hang", execute}` that never settles.
fn tools() -> (JsValue, JsValue) {
    let echo = js(
        "{ name: 'echo', description: 'Echoes', inputSchema: { type: 'object', \
        properties: { text: { type: 'string' } }, required: ['text'] } }",
    );
    set(
        &echo,
        "execute",
        &func("a", "return 'echo: ' + a.text").into(),
    );
    let hang = js("{ name: 'hang', description: 'Never settles' }");
    set(
        &hang,
        "execute",
        &func("", "return new Promise(() => {})").into(),
    );
    (echo, hang)
}

async fn toolkit(options: JsValue) -> Result<JsValue, JsValue> {
    wait(create_toolkit(Some(options)).into()).await
}

async fn kit() -> (JsValue, JsValue) {
    let (echo, hang) = tools();
    let options = js("{ builtins: false }");
    set(&options, "extraTools", &Array::of2(&echo, &hang).into());
    (toolkit(options).await.unwrap(), echo)
}

async fn execute(kit: &JsValue, name: &str, args: JsValue, ctx: JsValue) -> JsValue {
    wait(call(kit, "execute", &[name.into(), args, ctx]).unwrap())
        .await
        .unwrap()
}

#[wasm_bindgen_test]
async fn a_toolkit_lists_routes_and_keeps_each_tools_face() {
    let (kit, echo) = kit().await;
    let names: Vec<String> = Array::from(&call(&kit, "tools", &[]).unwrap())
        .iter()
        .map(|t| text(&t, &["name"]))
        .collect();
    assert_eq!(names, ["echo", "hang"]);
    assert!(js_sys::Object::is(
        &call(&kit, "get", &["echo".into()]).unwrap(),
        &echo
    ));
    assert!(call(&kit, "get", &["nope".into()]).unwrap().is_undefined());
    let result = execute(&kit, "echo", js("{ text: 'hi' }"), JsValue::UNDEFINED).await;
    assert_eq!(
        stringify(&result),
        r#"{"output":"echo: hi","isError":false}"#
    );
}

#[wasm_bindgen_test]
async fn bad_calls_resolve_to_error_results() {
    let (kit, _) = kit().await;
    let missing = execute(&kit, "echo", js("{}"), JsValue::UNDEFINED).await;
    assert_eq!(get(&missing, "isError").as_bool(), Some(true));
    assert_eq!(
        text(&missing, &["output"]),
        r#"Invalid arguments for tool "echo": required property "text" is missing"#
    );
    let wrong = execute(&kit, "echo", js("[1]"), JsValue::UNDEFINED).await;
    assert!(text(&wrong, &["output"]).contains("arguments must be a JSON object, got array"));
    let unknown = execute(&kit, "nope", js("{}"), JsValue::UNDEFINED).await;
    assert_eq!(
        text(&unknown, &["output"]),
        "Unknown tool: nope. Available tools: echo, hang"
    );
    let bad_ctx = execute(&kit, "echo", js("{ text: 'x' }"), js("{ signal: 1 }")).await;
    assert_eq!(
        text(&bad_ctx, &["output"]),
        r#"Tool "echo" was not run: ctx.signal must be an AbortSignal"#
    );
}

#[wasm_bindgen_test]
async fn a_timeout_ends_a_call_that_never_settles() {
    let (kit, _) = kit().await;
    let result = execute(&kit, "hang", js("{}"), js("{ timeout: 20 }")).await;
    assert_eq!(
        stringify(&result),
        r#"{"output":"Tool \"hang\" timed out after 20 ms","isError":true}"#
    );
}

#[wasm_bindgen_test]
async fn an_abort_ends_a_running_call_with_its_reason() {
    let (kit, _) = kit().await;
    let controller = abort_controller();
    let ctx = js_sys::Object::new().into();
    set(&ctx, "signal", &get(&controller, "signal"));
    let running = call(&kit, "execute", &["hang".into(), js("{}"), ctx.clone()]).unwrap();
    call(&controller, "abort", &["user left".into()]).unwrap();
    let result = wait(running).await.unwrap();
    assert_eq!(
        text(&result, &["output"]),
        r#"Tool "hang" was aborted: user left"#
    );
    // Already aborted: the tool is not started at all.
    let again = execute(&kit, "echo", js("{ text: 'x' }"), ctx).await;
    assert_eq!(
        text(&again, &["output"]),
        r#"Tool "echo" was aborted: user left"#
    );
}

#[wasm_bindgen_test]
async fn adapters_name_every_tool() {
    let (kit, _) = kit().await;
    let openai = call(&kit, "toOpenAI", &[]).unwrap();
    assert_eq!(text(&openai, &["0", "type"]), "function");
    assert_eq!(text(&openai, &["0", "function", "name"]), "echo");
    assert_eq!(
        text(&openai, &["0", "function", "parameters", "required", "0"]),
        "text"
    );
    assert_eq!(
        text(&call(&kit, "toAnthropic", &[]).unwrap(), &["1", "name"]),
        "hang"
    );
    let gemini = call(&kit, "toGemini", &[]).unwrap();
    assert_eq!(
        text(&gemini, &["0", "functionDeclarations", "1", "name"]),
        "hang"
    );
}

#[wasm_bindgen_test]
async fn register_all_adds_and_the_first_name_wins() {
    let (kit, echo) = kit().await;
    let extra = js("{ name: 'late', execute: () => 'late ok' }");
    let imposter = js("{ name: 'echo', execute: () => 'imposter' }");
    call(&kit, "registerAll", &[Array::of2(&extra, &imposter).into()]).unwrap();
    assert_eq!(Array::from(&call(&kit, "tools", &[]).unwrap()).length(), 3);
    assert!(js_sys::Object::is(
        &call(&kit, "get", &["echo".into()]).unwrap(),
        &echo
    ));
    let late = execute(&kit, "late", js("{}"), JsValue::UNDEFINED).await;
    assert_eq!(text(&late, &["output"]), "late ok");
    let refused = call(&kit, "registerAll", &[js("[{ name: 'x' }]")]).unwrap_err();
    assert_eq!(text(&refused, &["code"]), "invalid_tool");
}

#[wasm_bindgen_test]
async fn invalid_options_reject_with_a_code() {
    let cases = [
        (
            "5",
            "invalid_options",
            "createToolkit: options must be an object, got number",
        ),
        (
            "{ extraTools: 'x' }",
            "invalid_options",
            "extraTools: expected an array of tools, got string",
        ),
        (
            "{ extraTools: [{ name: 'n' }] }",
            "invalid_tool",
            r#"extraTools[0]: tool "n" needs an execute(args, ctx) function"#,
        ),
        (
            "{ disableTools: [1] }",
            "invalid_options",
            "createToolkit: disableTools must be an array of strings, got number at [0]",
        ),
        (
            "{ builtins: 'on' }",
            "invalid_options",
            r#"createToolkit: builtins must be a boolean or {enabled?, disabled?, tools?}, got "on""#,
        ),
        (
            "{ agents: 'x' }",
            "invalid_options",
            "createToolkit: agents must be an array of agent({card}) descriptors, got string",
        ),
        (
            "{ agents: [{ card: 5 }] }",
            "invalid_options",
            "createToolkit: agents[0].card must be a string (the Agent Card URL), got number",
        ),
    ];
    for (src, code, message) in cases {
        let error = toolkit(js(src)).await.unwrap_err();
        assert_eq!(
            (text(&error, &["code"]), text(&error, &["message"])),
            (code.into(), message.into()),
            "{src}"
        );
    }
    let empty = wait(create_toolkit(None).into()).await.unwrap();
    let disabled = js("{ disableTools: ['echo'], builtins: false }");
    set(&disabled, "extraTools", &Array::of1(&tools().0).into());
    let disabled = toolkit(disabled).await.unwrap();
    assert!(call(&disabled, "get", &["echo".into()])
        .unwrap()
        .is_undefined());
    assert!(call(&empty, "tools", &[])
        .unwrap()
        .is_instance_of::<Array>());
}
