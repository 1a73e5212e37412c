//! Single-turn translation (SPEC §11): reading a `translate` request, and the reference port's
//! pure helpers (`openAIMessagesToAnthropic` & co.), each a thin crossing into
//! `src/core/translate/`, and `Client.translate` / `Client.toolCallsJSON`. Full build only.

use crate::core::json::value::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::client::{run_error, ClientHandle};
use super::convert::{from_json, from_json_text, get, js_error, record_to_js, to_json, type_name};
use super::host::{signal_of, JsSignal};
use super::run_context::signal_for;
use super::run_context::toolkit_of;
use crate::core::client::translate::TranslateInput;
use crate::core::toolkit::Toolkit;
use crate::core::translate::{helpers, TranslateRequest};

#[wasm_bindgen(js_class = Client)]
impl ClientHandle {
    /// Translates one OpenAI Chat Completions request (SPEC §11): exactly one provider call,
    /// the reply in OpenAI shape (`arguments` as JSON text, `finishReason` `"tool_calls"`
    /// whenever the model called a tool). Nothing runs: a `toolkit` is only declared (before
    /// `tools`), and nothing is kept between calls. On an `anthropic`-style client the request
    /// is translated (tool calls to `tool_use` blocks, consecutive tool results merged into one
    /// user turn, system and developer messages hoisted, content arrays flattened); on an
    /// `openai`-style one it is sent as it is. Retries, `headers`, `requestParams`,
    /// `bodyTransform`, `timeoutMs` and the `llm` metric are the loop's; `beforeLLM` and
    /// `afterLLM` fire once, tool hooks never. A request without messages, a tool call whose
    /// arguments are not a JSON object, or a `tool` message answering no earlier call rejects
    /// with code `"invalid_request"` before anything is sent.
    ///
    /// ```js
    /// const r = await client.translate({ messages: body.messages, tools: body.tools, toolChoice: body.tool_choice })
    /// res.json({ choices: [{ message: { role: "assistant", content: r.text, tool_calls: Client.toolCallsJSON(r) }, finish_reason: r.finishReason }] })
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<TranslateResult>")]
    pub fn translate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "TranslateRequest")] request: JsValue,
    ) -> js_sys::Promise {
        let (request, toolkit, caller) = match read_request(&request) {
            Ok(read) => read,
            Err(e) => return js_sys::Promise::reject(&e),
        };
        let own = self.core.config.timeout_ms.is_some();
        let future = self.core.translate(TranslateInput {
            request,
            toolkit,
            signal: signal_for(caller.as_ref(), own),
        });
        crate::js::promise::promise(async move {
            let result = future.await.map_err(|e| run_error(&e))?;
            record_to_js(&result)
        })
    }

    /// A translate result's tool calls as an OpenAI `tool_calls` array (`[{id, type:
    /// "function", function: {name, arguments}}]`), for an assistant message of a response.
    ///
    /// ```js
    /// const message = { role: "assistant", content: r.text || null, tool_calls: Client.toolCallsJSON(r) }
    /// ```
    #[wasm_bindgen(js_name = toolCallsJSON, unchecked_return_type = "OpenAIToolCall[]")]
    pub fn tool_calls_json(
        #[wasm_bindgen(unchecked_param_type = "TranslateResult")] result: JsValue,
    ) -> Result<JsValue, JsValue> {
        tool_calls_json(&result)
    }
}

/// A translate request's JSON parts, its toolkit and the caller's signal.
pub type ReadRequest = (TranslateRequest, Option<Rc<Toolkit>>, Option<Rc<JsSignal>>);

/// A translate request read and checked. Every refusal is the coded error `invalid_request`,
/// naming what is wrong.
pub fn read_request(request: &JsValue) -> Result<ReadRequest, JsValue> {
    let refuse = |message: String| js_error("invalid_request", &message);
    if !request.is_object() {
        return Err(refuse(format!(
            "translate: the request must be an object {{messages, tools?, toolkit?, toolChoice?, system?, maxTokens?, signal?}}, got {}",
            type_name(request)
        )));
    }
    let field = |key: &str| {
        to_json(&get(request, key))
            .map_err(|why| refuse(format!("translate: {key} is not JSON data: {why}")))
    };
    let parts = TranslateRequest::read(
        field("messages")?,
        field("tools")?,
        field("toolChoice")?,
        field("system")?,
        field("maxTokens")?,
    )
    .map_err(refuse)?;
    let kit = get(request, "toolkit");
    let toolkit = if kit.is_undefined() || kit.is_null() {
        None
    } else {
        Some(toolkit_of(&kit).ok_or_else(|| {
            refuse("translate: toolkit must be a Toolkit made by createToolkit".into())
        })?)
    };
    let signal = signal_of(&get(request, "signal"))
        .map_err(|_| refuse("translate: signal must be an AbortSignal".into()))?;
    Ok((parts, toolkit, signal))
}

/// `value` as JSON data; a value `JSON.stringify` refuses is `invalid_argument`.
fn json_arg(value: &JsValue, what: &str) -> Result<Value, JsValue> {
    to_json(value).map_err(|why| js_error("invalid_argument", &format!("{what}: {why}")))
}

/// Converts an OpenAI `messages` array for Anthropic (SPEC §11): assistant `tool_calls` become
/// `tool_use` blocks (arguments parsed into objects), `tool` results `tool_result` blocks,
/// consecutive ones merged into one user turn; `system` and `developer` messages are hoisted
/// into `system` (joined by a blank line); content arrays are flattened to text.
///
/// ```js
/// const { messages, system } = openAIMessagesToAnthropic([{ role: "system", content: "Be terse." }, { role: "user", content: "hi" }])
/// // system === "Be terse.", messages: [{ role: "user", content: "hi" }]
/// ```
#[wasm_bindgen(
    js_name = openAIMessagesToAnthropic,
    unchecked_return_type = "{ messages: AnthropicMessage[]; system: string }"
)]
pub fn openai_messages_to_anthropic(
    #[wasm_bindgen(unchecked_param_type = "TranslateMessage[]")] messages: JsValue,
) -> Result<JsValue, JsValue> {
    let messages = json_arg(&messages, "openAIMessagesToAnthropic")?;
    let (messages, system) = helpers::openai_messages_to_anthropic(&messages);
    from_json(&crate::json_value!({"messages": Value::Array(messages), "system": system}))
}

/// Converts an OpenAI `tools` array into Anthropic declarations `{name, description?,
/// input_schema}`; an entry already in Anthropic's shape is kept, anything else skipped.
///
/// ```js
/// openAIToolsToAnthropic([{ type: "function", function: { name: "f", parameters: schema } }]) // [{ name: "f", input_schema: schema }]
/// ```
#[wasm_bindgen(js_name = openAIToolsToAnthropic, unchecked_return_type = "AnthropicTool[]")]
pub fn openai_tools_to_anthropic(
    #[wasm_bindgen(unchecked_param_type = "(OpenAITool | AnthropicTool)[] | undefined")]
    tools: JsValue,
) -> Result<JsValue, JsValue> {
    let tools = json_arg(&tools, "openAIToolsToAnthropic")?;
    from_json(&Value::Array(helpers::openai_tools_to_anthropic(&tools)))
}

/// Maps an OpenAI `tool_choice` onto Anthropic's: `"required"` → `{type: "any"}`, `"none"` →
/// `{type: "none"}`, `{function: {name}}` → `{type: "tool", name}`; `undefined` for `"auto"`,
/// absence and anything unrecognised.
///
/// ```js
/// openAIToolChoiceToAnthropic("required") // { type: "any" }
/// ```
#[wasm_bindgen(
    js_name = openAIToolChoiceToAnthropic,
    unchecked_return_type = "AnthropicToolChoice | undefined"
)]
pub fn openai_tool_choice_to_anthropic(
    #[wasm_bindgen(unchecked_param_type = "unknown")] choice: JsValue,
) -> Result<JsValue, JsValue> {
    let choice = json_arg(&choice, "openAIToolChoiceToAnthropic")?;
    match helpers::openai_tool_choice_to_anthropic(&choice) {
        Some(mapped) => from_json(&mapped),
        None => Ok(JsValue::UNDEFINED),
    }
}

/// `finishReasonFor(hasToolCalls, providerStop?)`: the facade's (`src/ts/index.ts`) documents it.
#[wasm_bindgen(js_name = finishReasonFor, unchecked_return_type = "FinishReason")]
pub fn finish_reason_for(
    #[wasm_bindgen(unchecked_param_type = "boolean")] has_tool_calls: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | undefined")] provider_stop: JsValue,
) -> String {
    let stop = provider_stop.as_string();
    helpers::finish_reason_for(has_tool_calls.is_truthy(), stop.as_deref()).to_owned()
}

/// An OpenAI `content` as text: a string as it is, a parts array as its parts' `text` joined,
/// anything else `""`.
///
/// ```js
/// contentText([{ type: "text", text: "part one " }, { type: "text", text: "part two" }]) // "part one part two"
/// ```
#[wasm_bindgen(js_name = contentText)]
pub fn content_text(
    #[wasm_bindgen(unchecked_param_type = "unknown")] content: JsValue,
) -> Result<String, JsValue> {
    if let Some(text) = content.as_string() {
        return Ok(text);
    }
    Ok(helpers::content_text(&json_arg(&content, "contentText")?))
}

/// Tool-call arguments as an object, from either wire form: an object as it is (a copy), JSON
/// text parsed; anything else, malformed text included, `{}`.
///
/// ```js
/// argsObject('{"city":"Chennai"}') // { city: "Chennai" }
/// ```
#[wasm_bindgen(js_name = argsObject, unchecked_return_type = "Record<string, unknown>")]
pub fn args_object(
    #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
) -> Result<JsValue, JsValue> {
    from_json(&helpers::args_object(&json_arg(&args, "argsObject")?))
}

/// Tool-call arguments as the JSON text OpenAI sends: a string as it is, an object
/// `JSON.stringify`'d, anything else `"{}"`.
///
/// ```js
/// argsString({ city: "Madurai" }) // '{"city":"Madurai"}'
/// ```
#[wasm_bindgen(js_name = argsString)]
pub fn args_string(
    #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
) -> Result<String, JsValue> {
    if let Some(text) = args.as_string() {
        return Ok(text);
    }
    Ok(helpers::args_string(&json_arg(&args, "argsString")?))
}

/// The `tool_calls` of an OpenAI assistant message as `{id, name, arguments}` (arguments as
/// JSON text); an entry without `function` is skipped.
///
/// ```js
/// toolCallsOf({ role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] })
/// // [{ id: "c1", name: "f", arguments: "{}" }]
/// ```
#[wasm_bindgen(js_name = toolCallsOf, unchecked_return_type = "TranslatedToolCall[]")]
pub fn tool_calls_of(
    #[wasm_bindgen(unchecked_param_type = "unknown")] message: JsValue,
) -> Result<JsValue, JsValue> {
    use crate::core::json::record::Field;
    let calls = helpers::tool_calls_of(&json_arg(&message, "toolCallsOf")?);
    // The list written as a record field would be: `[call,call]`, each the record's JSON.
    let mut text = Vec::new();
    calls.write_value(&mut text);
    from_json_text(&crate::core::json::text::buffer_text(text))
}

/// Whether a message list holds a `system` or `developer` message.
///
/// ```js
/// hasSystemMessage([{ role: "developer", content: "Be terse." }]) // true
/// ```
#[wasm_bindgen(js_name = hasSystemMessage)]
pub fn has_system_message(
    #[wasm_bindgen(unchecked_param_type = "TranslateMessage[]")] messages: JsValue,
) -> Result<bool, JsValue> {
    Ok(helpers::has_system_message(&json_arg(
        &messages,
        "hasSystemMessage",
    )?))
}

/// `Client.toolCallsJSON`: a translate result's calls as an OpenAI `tool_calls` array.
pub fn tool_calls_json(result: &JsValue) -> Result<JsValue, JsValue> {
    let calls = get(result, "toolCalls");
    if !js_sys::Array::is_array(&calls) {
        let message = format!(
            "Client.toolCallsJSON: expected a TranslateResult with a toolCalls array, got {}",
            type_name(if result.is_object() { &calls } else { result })
        );
        return Err(js_error("invalid_argument", &message));
    }
    let calls = json_arg(&calls, "Client.toolCallsJSON")?;
    from_json(&helpers::tool_calls_json(&calls))
}
