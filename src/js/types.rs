//! `sanitize`, `pending`, `authRequired`, `pendingOf` and the stand-alone adapters.

use crate::core::json::value::Value;
use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::convert::{
    expect_string, from_json_text, get, js_error, record_to_js, to_json, type_name,
};
use super::host::{random_id, JsClock};
use super::tool::spec_from_js;
use crate::core::adapters;
use crate::core::client::suspend::unreadable_expiry;
use crate::core::spec::ToolSpec;
use crate::core::types::{self, Request};

/// Replaces every character outside `[a-zA-Z0-9_-]` with `_`.
///
/// ```js
/// sanitize("my server.v2") // "my_server_v2"
/// ```
#[wasm_bindgen]
pub fn sanitize(
    #[wasm_bindgen(unchecked_param_type = "string")] value: JsValue,
) -> Result<String, JsValue> {
    Ok(types::sanitize(&expect_string(&value, "sanitize: value")?))
}

/// Builds a suspension (SPEC §10): `{output: prompt (+ "\n" + url), isError: true,
/// metadata: {pending: request}}`. A missing `id` is generated. An `expiresAt` must be an
/// ISO 8601 date-time that `Date.parse` reads (`"2030-01-02"`, `"2030-01-02T03:04Z"`,
/// `new Date(...).toISOString()`; without an offset, a date-time is local time): any other
/// throws `invalid_request`, since no answer could ever approve the request.
///
/// ```js
/// return pending({ kind: "approval", prompt: "Send 3 emails?", data: { count: 3 } })
/// ```
#[wasm_bindgen(unchecked_return_type = "ToolResult")]
pub fn pending(
    #[wasm_bindgen(unchecked_param_type = "PendingInput")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let mut json = match to_json(&request) {
        Ok(Value::Object(map)) => map,
        _ => {
            let message = format!("pending: expected a request object {{kind, prompt, id?, url?, data?, expiresAt?}}, got {}", type_name(&request));
            return Err(js_error("invalid_request", &message));
        }
    };
    if !json.contains_key("id") {
        json.insert("id".into(), Value::String(random_id("pnd")));
    }
    let request = Request::from_json(Value::Object(json)).map_err(|why| {
        js_error(
            "invalid_request",
            &format!("pending: invalid request: {why}"),
        )
    })?;
    if let Some(why) = unreadable_expiry(&JsClock, &request) {
        return Err(js_error("invalid_request", &format!("pending: {why}")));
    }
    record_to_js(&types::pending(request))
}

/// Sugar for `pending({kind: "authorization", url, prompt})`; the prompt defaults to
/// `"Authorization required to continue"`.
///
/// ```js
/// return authRequired("https://example.com/login")
/// ```
#[wasm_bindgen(js_name = authRequired, unchecked_return_type = "ToolResult")]
pub fn auth_required(
    #[wasm_bindgen(unchecked_param_type = "string")] url: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] prompt: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let url = expect_string(&url, "authRequired: url")?;
    let prompt = match prompt {
        Some(p) => expect_string(&p, "authRequired: prompt")?,
        None => "Authorization required to continue".into(),
    };
    let request = Request {
        id: random_id("pnd"),
        kind: "authorization".into(),
        prompt,
        url: Some(url),
        data: None,
        expires_at: None,
    };
    record_to_js(&types::pending(request))
}

/// The `Request` a suspended result carries, or `undefined` for every ordinary result
/// (failures included). Never throws, whatever it is given.
///
/// ```js
/// const req = pendingOf(result)
/// if (req) showDialog(req.prompt)
/// ```
#[wasm_bindgen(js_name = pendingOf, unchecked_return_type = "Request | undefined")]
pub fn pending_of(
    #[wasm_bindgen(unchecked_param_type = "ToolResult | undefined | null")] result: JsValue,
) -> JsValue {
    let candidate = get(&get(&result, "metadata"), "pending");
    let valid = to_json(&candidate)
        .ok()
        .and_then(|json| types::request_from_value(&json))
        .is_some();
    if valid {
        candidate
    } else {
        JsValue::UNDEFINED
    }
}

fn specs(tools: &JsValue) -> Result<Vec<ToolSpec>, JsValue> {
    if !Array::is_array(tools) {
        let message = format!("expected an array of tools, got {}", type_name(tools));
        return Err(js_error("invalid_tool", &message));
    }
    Array::from(tools)
        .iter()
        .map(|t| spec_from_js(&t, "custom").map_err(|why| js_error("invalid_tool", &why)))
        .collect()
}

/// OpenAI tool schemas for any tool list.
///
/// ```js
/// toOpenAI([weather]) // [{ type: "function", function: { name, description, parameters } }]
/// ```
#[wasm_bindgen(js_name = toOpenAI, unchecked_return_type = "OpenAITool[]")]
pub fn to_openai(
    #[wasm_bindgen(unchecked_param_type = "ToolLike[]")] tools: JsValue,
) -> Result<JsValue, JsValue> {
    from_json_text(&adapters::openai_text(&specs(&tools)?))
}

/// Anthropic tool schemas for any tool list.
///
/// ```js
/// toAnthropic([weather]) // [{ name, description, input_schema }]
/// ```
#[wasm_bindgen(js_name = toAnthropic, unchecked_return_type = "AnthropicTool[]")]
pub fn to_anthropic(
    #[wasm_bindgen(unchecked_param_type = "ToolLike[]")] tools: JsValue,
) -> Result<JsValue, JsValue> {
    from_json_text(&adapters::anthropic_text(&specs(&tools)?))
}

/// Gemini tool schemas for any tool list (one element wrapping every declaration).
///
/// ```js
/// toGemini([weather]) // [{ functionDeclarations: [{ name, description, parameters }] }]
/// ```
#[wasm_bindgen(js_name = toGemini, unchecked_return_type = "GeminiTools")]
pub fn to_gemini(
    #[wasm_bindgen(unchecked_param_type = "ToolLike[]")] tools: JsValue,
) -> Result<JsValue, JsValue> {
    from_json_text(&adapters::gemini_text(&specs(&tools)?))
}

/// A relay (declaration-only) tool: the model can call it, the host runs it. Every relay call
/// of a turn surfaces as one suspension `{kind: "tool_call", data: {calls: [{id, name, input,
/// arguments}]}}`; the answer's `data.results: [{id, output, isError}]` (or `data.output` for a
/// single call) fills them. A relay tool may not take a built-in tool's name.
///
/// ```js
/// const lookup = relayTool({ name: "lookup", description: "Looks a record up on the host", inputSchema: { type: "object", properties: { q: { type: "string" } } } })
/// // the positional form, as before: relayTool("lookup", "Looks a record up on the host", schema)
/// ```
#[wasm_bindgen(js_name = relayTool)]
pub fn relay_tool(
    #[wasm_bindgen(unchecked_param_type = "RelayToolOptions | string")] options_or_name: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] description: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "JSONSchema")] input_schema: Option<JsValue>,
) -> Result<super::tool::ToolHandle, JsValue> {
    let (name, description, input_schema) = if options_or_name.is_object() {
        let schema = get(&options_or_name, "inputSchema");
        let given = !schema.is_undefined() && !schema.is_null();
        (
            get(&options_or_name, "name"),
            get(&options_or_name, "description"),
            given.then_some(schema),
        )
    } else {
        let description = description.unwrap_or(JsValue::UNDEFINED);
        (options_or_name, description, input_schema)
    };
    // A maker refuses a bad option as invalid_tool, as defineTool does.
    let as_tool_error = |e: JsValue| js_error("invalid_tool", &super::convert::error_text(&e));
    let name = expect_string(&name, "relayTool: name").map_err(as_tool_error)?;
    let description =
        expect_string(&description, "relayTool: description").map_err(as_tool_error)?;
    let schema = match input_schema {
        None => crate::core::spec::empty_schema(),
        Some(schema) => to_json(&schema).map_err(|why| {
            js_error(
                "invalid_tool",
                &format!("relayTool: inputSchema is not JSON: {why}"),
            )
        })?,
    };
    let tool = crate::core::relay::RelayTool::new(&name, &description, schema)
        .map_err(|e| js_error("invalid_tool", &format!("relayTool: {e}")))?;
    Ok(super::tool::ToolHandle::new(std::rc::Rc::new(tool)))
}
