//! The host's callbacks seen through the core's traits: hooks, `bodyTransform`, `waitFor`,
//! an in-process `generate`, and a conversation store. Each settles its JS result through the
//! one Promise helper; a throw or a rejection becomes the `Err` the core expects.

use crate::core::json::value::Value;
use js_sys::{Function, Object};
use wasm_bindgen::prelude::*;

use super::convert::{
    error_text, from_json, get, messages_to_js, record_to_js, to_json, type_name,
};
use super::host::set;
use super::promise::{call2, settle};
use crate::core::client::hooks::{
    CallInfo, ErrorInfo, HookResult, Hooks, LlmOverride, ToolOverride, WaitFor,
};
use crate::core::client::store::Store;
use crate::core::host::LocalBoxFuture;
use crate::core::message::{self, Message};
use crate::core::types::{Request, ToolResult};

fn function(object: &JsValue, key: &str) -> Option<Function> {
    get(object, key).dyn_into::<Function>().ok()
}

/// Calls `f(event)` (with `this` = `this`) and settles; `Err` holds the thrown message.
async fn call_with(f: Function, this: JsValue, event: JsValue) -> Result<JsValue, String> {
    call2(&f, &this, &event, &JsValue::UNDEFINED)
        .await
        .map_err(|e| error_text(&e))
}

fn event(pairs: &[(&str, JsValue)]) -> JsValue {
    let object: JsValue = Object::new().into();
    for (key, value) in pairs {
        set(&object, key, value);
    }
    object
}

/// A conversion's failure as the hook's error text.
fn js(converted: Result<JsValue, JsValue>) -> Result<JsValue, String> {
    converted.map_err(|e| error_text(&e))
}

fn call_event(call: &CallInfo, args: &Value) -> Result<Vec<(&'static str, JsValue)>, String> {
    Ok(vec![
        ("name", call.name.as_str().into()),
        ("args", js(from_json(args))?),
        ("id", call.id.as_str().into()),
        ("turn", call.turn.into()),
    ])
}

fn decode_result(hook: &str, value: &JsValue) -> Result<Option<ToolResult>, String> {
    let result = get(value, "result");
    if result.is_undefined() || result.is_null() {
        return Ok(None);
    }
    let json = to_json(&result)?;
    ToolResult::from_json(json)
        .map(Some)
        .map_err(|_| format!("{hook} returned a result that is not a ToolResult {{output: string, isError: boolean}}"))
}

/// `hooks: {beforeLLM, afterLLM, beforeTool, afterTool}` and `bodyTransform`.
pub struct JsHooks {
    hooks: JsValue,
    /// Whether `hooks` is an object at all: without one, no hook is ever looked up.
    any: bool,
    body_transform: Option<Function>,
    on_error: Option<Function>,
}

impl JsHooks {
    /// Wraps the `hooks` object (may be `undefined`) and the `bodyTransform` function. Each
    /// hook is looked up on the object when it is due, so a hook added later is seen.
    pub fn new(
        hooks: JsValue,
        body_transform: Option<Function>,
        on_error: Option<Function>,
    ) -> Self {
        JsHooks {
            any: hooks.is_object() || hooks.is_function(),
            hooks,
            body_transform,
            on_error,
        }
    }

    fn hook(&self, key: &str) -> Option<Function> {
        if self.any {
            function(&self.hooks, key)
        } else {
            None
        }
    }
}

impl Hooks for JsHooks {
    fn has_before_llm(&self) -> bool {
        self.hook("beforeLLM").is_some()
    }

    fn before_llm(
        &self,
        messages: &[Message],
        tools: &Value,
        model: &str,
        turn: u32,
    ) -> HookResult<LlmOverride> {
        let Some(f) = self.hook("beforeLLM") else {
            return Box::pin(async { Ok(LlmOverride::default()) });
        };
        let ev = (|| {
            Ok::<_, String>(event(&[
                ("messages", js(messages_to_js(messages))?),
                ("tools", js(from_json(tools))?),
                ("model", model.into()),
                ("turn", turn.into()),
            ]))
        })();
        let this = self.hooks.clone();
        Box::pin(async move {
            let out = call_with(f, this, ev?).await?;
            let messages = match to_json(&get(&out, "messages"))? {
                Value::Null => None,
                Value::Array(list) => Some(list),
                other => {
                    return Err(format!(
                        "beforeLLM returned messages that are not an array ({})",
                        crate::core::spec::json_type(&other)
                    ))
                }
            };
            let tools = match to_json(&get(&out, "tools"))? {
                Value::Null => None,
                tools => Some(tools),
            };
            Ok(LlmOverride { messages, tools })
        })
    }

    fn has_after_llm(&self) -> bool {
        self.hook("afterLLM").is_some()
    }

    fn after_llm(&self, response: &Value, model: &str, turn: u32) -> HookResult<()> {
        let Some(f) = self.hook("afterLLM") else {
            return Box::pin(async { Ok(()) });
        };
        let ev = js(from_json(response)).map(|response| {
            event(&[
                ("response", response),
                ("model", model.into()),
                ("turn", turn.into()),
            ])
        });
        let this = self.hooks.clone();
        Box::pin(async move { call_with(f, this, ev?).await.map(|_| ()) })
    }

    fn has_before_tool(&self) -> bool {
        self.hook("beforeTool").is_some()
    }

    fn before_tool(&self, call: &CallInfo, args: &Value) -> HookResult<ToolOverride> {
        let Some(f) = self.hook("beforeTool") else {
            return Box::pin(async { Ok(ToolOverride::default()) });
        };
        let ev = call_event(call, args).map(|pairs| event(&pairs));
        let this = self.hooks.clone();
        Box::pin(async move {
            let out = call_with(f, this, ev?).await?;
            let result = decode_result("beforeTool", &out)?;
            let args = match to_json(&get(&out, "args"))? {
                Value::Null => None,
                args => Some(args),
            };
            Ok(ToolOverride { result, args })
        })
    }

    fn has_after_tool(&self) -> bool {
        self.hook("afterTool").is_some()
    }

    fn after_tool(
        &self,
        call: &CallInfo,
        args: &Value,
        result: &ToolResult,
    ) -> HookResult<Option<ToolResult>> {
        let Some(f) = self.hook("afterTool") else {
            return Box::pin(async { Ok(None) });
        };
        let ev = call_event(call, args).and_then(|mut pairs| {
            pairs.push(("result", js(record_to_js(result))?));
            Ok(event(&pairs))
        });
        let this = self.hooks.clone();
        Box::pin(async move {
            let out = call_with(f, this, ev?).await?;
            decode_result("afterTool", &out)
        })
    }

    fn on_error(&self, info: &ErrorInfo) -> Option<bool> {
        let f = self.on_error.as_ref()?;
        let mut pairs: Vec<(&str, JsValue)> = vec![
            ("attempt", info.attempt.into()),
            ("retryable", info.retryable.into()),
        ];
        if let Some(status) = info.status {
            pairs.push(("status", status.into()));
        }
        if let Some(error) = &info.error {
            pairs.push(("error", js_sys::Error::new(error).into()));
        }
        // A throw counts as "fail": the classifier must never turn a failure into a loop.
        match f.call1(&JsValue::UNDEFINED, &event(&pairs)) {
            Ok(tier) => match tier.as_string().as_deref() {
                Some("retry") => Some(true),
                Some("fail") => Some(false),
                _ => None,
            },
            Err(_) => Some(false),
        }
    }

    fn has_body_transform(&self) -> bool {
        self.body_transform.is_some()
    }

    fn body_transform(&self, body: Value) -> Result<Value, String> {
        let Some(f) = &self.body_transform else {
            return Ok(body);
        };
        let js_body = js(from_json(&body))?;
        let out = f
            .call1(&JsValue::UNDEFINED, &js_body)
            .map_err(|e| error_text(&e))?;
        if out.is_undefined() || out.is_null() || out.as_bool() == Some(false) {
            // Nothing returned: the body may have been edited in place.
            return to_json(&js_body);
        }
        if get(&out, "then").is_function() {
            return Err("bodyTransform must return the body synchronously, not a Promise".into());
        }
        match to_json(&out)? {
            Value::Object(map) => Ok(Value::Object(map)),
            other => Err(format!(
                "bodyTransform must return an object, got {}",
                crate::core::spec::json_type(&other)
            )),
        }
    }
}

/// `waitFor(request) → Promise<Answer>`.
pub struct JsWaitFor(pub Function);

impl WaitFor for JsWaitFor {
    fn wait_for(&self, request: &Request) -> LocalBoxFuture<'static, Result<Value, String>> {
        let (f, request) = (self.0.clone(), js(record_to_js(request)));
        Box::pin(async move { to_json(&call_with(f, JsValue::UNDEFINED, request?).await?) })
    }
}

/// Any object with async `get(id)` and `save(id, messages)`.
pub struct JsStore(pub JsValue);

impl Store for JsStore {
    fn get(&self, id: &str) -> LocalBoxFuture<'static, Result<Option<Vec<Message>>, String>> {
        let (store, id) = (self.0.clone(), JsValue::from_str(id));
        Box::pin(async move {
            let f = function(&store, "get").ok_or("the store has no get(id) function")?;
            let found = settle(f.call1(&store, &id).map_err(|e| error_text(&e))?)
                .await
                .map_err(|e| error_text(&e))?;
            match to_json(&found)? {
                Value::Null => Ok(None),
                Value::Array(messages) => Ok(Some(message::from_values(messages))),
                _ => Err(format!(
                    "store.get must resolve to an array of messages or undefined, got {}",
                    type_name(&found)
                )),
            }
        })
    }

    fn save(&self, id: &str, messages: &[Message]) -> LocalBoxFuture<'static, Result<(), String>> {
        let (store, id, messages) = (
            self.0.clone(),
            JsValue::from_str(id),
            js(messages_to_js(messages)),
        );
        Box::pin(async move {
            let messages = messages?;
            let f =
                function(&store, "save").ok_or("the store has no save(id, messages) function")?;
            let returned = f
                .call2(&store, &id, &messages)
                .map_err(|e| error_text(&e))?;
            settle(returned)
                .await
                .map(|_| ())
                .map_err(|e| error_text(&e))
        })
    }
}

/// `onMetric(event)`: a throw is reported on the console, never to the run.
pub struct JsMetricSink(pub Function);

impl crate::core::client::telemetry::MetricSink for JsMetricSink {
    fn emit(&self, event: &crate::core::metrics::MetricEvent) {
        let called = record_to_js(event).and_then(|js| self.0.call1(&JsValue::UNDEFINED, &js));
        if let Err(thrown) = called {
            let message = format!("[toolnexus] onMetric threw: {}", error_text(&thrown));
            web_sys::console::warn_1(&message.into());
        }
    }
}

/// `ask(prompt, {onText})`: text deltas to the callback; other events are not its business.
pub struct JsTextSink(pub Function);

impl crate::core::client::telemetry::RunEvents for JsTextSink {
    fn emit(&self, event: crate::core::client::telemetry::StreamEvent) {
        if let crate::core::client::telemetry::StreamEvent::Text { delta } = event {
            if let Err(thrown) = self.0.call1(&JsValue::UNDEFINED, &delta.into()) {
                let message = format!("[toolnexus] onText threw: {}", error_text(&thrown));
                web_sys::console::warn_1(&message.into());
            }
        }
    }
}
