//! The one place where JavaScript values become Rust data and back. Values cross as JSON text,
//! which keeps JavaScript's own semantics exactly (`toJSON`, dropped `undefined`, key order,
//! number formatting) and costs one `JSON.stringify` / `JSON.parse` per crossing.

use crate::core::json::value::Value;
use js_sys::{Reflect, JSON};
use wasm_bindgen::prelude::*;

/// Converts a JS value to JSON data. `undefined` becomes `null`; a value `JSON.stringify`
/// refuses (a cycle, a BigInt) is an error that says why.
pub fn to_json(value: &JsValue) -> Result<Value, String> {
    if value.is_undefined() {
        return Ok(Value::Null);
    }
    let text = JSON::stringify(value).map_err(|e| error_text(&e))?;
    match text.as_string() {
        Some(text) => crate::core::json::parse::from_str(&text).map_err(|e| e.to_string()),
        None => Ok(Value::Null),
    }
}

/// Converts JSON data to a fresh JS value.
pub fn from_json(value: &Value) -> Result<JsValue, JsValue> {
    from_json_text(&crate::core::json::text::to_text(value))
}

/// A record (`ToolResult`, `Request`, an event) as a fresh JS value, through its JSON text.
pub fn record_to_js(record: &impl crate::core::json::record::Record) -> Result<JsValue, JsValue> {
    from_json_text(&record.to_json_text())
}

/// Transcript messages as a fresh JS array (their texts joined and parsed once).
pub fn messages_to_js(messages: &[crate::core::message::Message]) -> Result<JsValue, JsValue> {
    from_json_text(&crate::core::message::items_text(messages))
}

/// Parses JSON text produced by the core into a JS value. The core writes only JSON, but
/// `JSON.parse` may still refuse it (nesting deeper than the engine's stack): that is the coded
/// error `internal`, never a silent `null`.
///
/// ```ignore
/// assert!(from_json_text("[1]").is_ok());
/// assert!(from_json_text("[1,").is_err()); // code "internal"
/// ```
pub fn from_json_text(text: &str) -> Result<JsValue, JsValue> {
    JSON::parse(text).map_err(|thrown| {
        js_error(
            "internal",
            &format!(
                "the module wrote JSON the runtime could not parse: {}",
                error_text(&thrown)
            ),
        )
    })
}

#[wasm_bindgen(module = "/src/js/shim.js")]
extern "C" {
    /// `object[key]`, `undefined` for a primitive or a throwing getter, in one crossing.
    #[wasm_bindgen(js_name = field)]
    fn shim_field(object: &JsValue, key: &JsValue) -> JsValue;
}

/// Reads `object[key]`; a missing key, a throwing getter or a non-object gives `undefined`.
pub fn get(object: &JsValue, key: &str) -> JsValue {
    with_key(key, |key| shim_field(object, key))
}

/// The most short keys [`with_key`] keeps (option and record field names are a few dozen).
const KEYS_KEPT: usize = 256;

thread_local! {
    /// Short property names as JavaScript strings, made once: reading an options object
    /// (`new AgentRuntime` reads some hundred keys) then costs no string decoding per key.
    static KEYS: std::cell::RefCell<crate::core::names::Names<JsValue>> =
        std::cell::RefCell::new(crate::core::names::Names::default());
}

/// `then(key as a JavaScript string)`; a short key is made once and kept (up to [`KEYS_KEPT`]).
fn with_key<T>(key: &str, then: impl FnOnce(&JsValue) -> T) -> T {
    if key.len() > 24 {
        return then(&JsValue::from_str(key));
    }
    let kept = KEYS.with(|keys| keys.borrow().get(key).cloned());
    let made = kept.unwrap_or_else(|| {
        let made = JsValue::from_str(key);
        KEYS.with(|keys| {
            let mut keys = keys.borrow_mut();
            if keys.len() < KEYS_KEPT {
                keys.insert(key.to_owned(), made.clone());
            }
        });
        made
    });
    then(&made)
}

/// Sets `object[key] = value`, ignoring a frozen object.
pub fn set(object: &JsValue, key: &str, value: &JsValue) {
    let _ = with_key(key, |key| Reflect::set(object, key, value));
}

/// `array[i]`; a missing item, a throwing getter or a non-object gives `undefined`.
pub fn item(array: &JsValue, i: u32) -> JsValue {
    Reflect::get_u32(array, i).unwrap_or(JsValue::UNDEFINED)
}

/// `new constructor(...args)`, or what it threw.
pub fn construct(constructor: &js_sys::Function, args: &[JsValue]) -> Result<JsValue, JsValue> {
    Reflect::construct(constructor, &args.iter().collect())
}

/// `f.apply(this, args)`, or what it threw.
pub fn apply(f: &js_sys::Function, this: &JsValue, args: &[JsValue]) -> Result<JsValue, JsValue> {
    Reflect::apply(f, this, &args.iter().collect())
}

/// Whether `object` has `key` as an own or inherited property.
pub fn has(object: &JsValue, key: &str) -> bool {
    object.is_object() && Reflect::has(object, &JsValue::from_str(key)).unwrap_or(false)
}

/// The name `typeof` would give, with `null` and arrays told apart.
/// A refused option's value for its error message: a number or boolean as written, a short
/// word-like string quoted (`"gemini"`), anything else by its type, so a secret put in the
/// wrong option is never echoed.
///
/// ```js
/// createClient({ style: "gemini" }) // createClient: style must be "openai" or "anthropic", got "gemini"
/// ```
pub fn described(value: &JsValue) -> String {
    if let Some(n) = value.as_f64() {
        return crate::core::jsfmt::number(n);
    }
    if let Some(b) = value.as_bool() {
        return b.to_string();
    }
    match value.as_string() {
        Some(text)
            if text.len() <= 24
                && text
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ' ')) =>
        {
            format!("\"{text}\"")
        }
        Some(_) => "a string".into(),
        None => type_name(value),
    }
}

pub fn type_name(value: &JsValue) -> String {
    if value.is_null() {
        return "null".into();
    }
    if js_sys::Array::is_array(value) {
        return "array".into();
    }
    value
        .js_typeof()
        .as_string()
        .unwrap_or_else(|| "unknown".into())
}

/// `String(value)`, as JavaScript itself would write it (`42`, `1.5`, `true`, `5`, `Symbol(z)`).
pub fn js_string(value: &JsValue) -> String {
    let string = get(&js_sys::global(), "String");
    string
        .dyn_into::<js_sys::Function>()
        .ok()
        .and_then(|f| f.call1(&JsValue::UNDEFINED, value).ok())
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| type_name(value))
}

/// A string argument from JS; anything else is a `TypeError`-like error naming `what`.
pub fn expect_string(value: &JsValue, what: &str) -> Result<String, JsValue> {
    value.as_string().ok_or_else(|| {
        js_error(
            "invalid_argument",
            &format!("{what} must be a string, got {}", type_name(value)),
        )
    })
}

/// A readable message for anything a JS callback threw or rejected with.
pub fn error_text(thrown: &JsValue) -> String {
    if let Some(text) = thrown.as_string() {
        return text;
    }
    if !thrown.is_object() && !thrown.is_undefined() && !thrown.is_null() {
        return js_string(thrown);
    }
    let message = get(thrown, "message");
    if let Some(message) = message.as_string() {
        if !message.is_empty() {
            return message;
        }
        if let Some(name) = get(thrown, "name").as_string() {
            return name;
        }
    }
    if thrown.is_undefined() || thrown.is_null() {
        return type_name(thrown);
    }
    match JSON::stringify(thrown).ok().and_then(|t| t.as_string()) {
        Some(text) => text,
        None => js_string(thrown),
    }
}

/// A `ToolnexusError` with a stable `code` beside its message (see [`coded_error`]).
pub fn js_error(code: &str, message: &str) -> JsValue {
    coded_error(code, message, &JsValue::UNDEFINED)
}

thread_local! {
    /// `ToolnexusError` (src/js/errors.js), once an entry has handed it over.
    static ERROR_CLASS: std::cell::RefCell<Option<js_sys::Function>> = const { std::cell::RefCell::new(None) };
}

/// Registers the class every error the module throws is made of (what the package's entries do
/// with `ToolnexusError` when they load; not for applications).
///
/// ```js
/// import { __setErrorClass } from "./web/toolnexus.js"
/// import { ToolnexusError } from "./errors.js"
/// __setErrorClass(ToolnexusError)
/// ```
#[wasm_bindgen(js_name = __setErrorClass)]
pub fn set_error_class(class: js_sys::Function) {
    ERROR_CLASS.with(|slot| *slot.borrow_mut() = Some(class));
}

/// `new ToolnexusError(code, message, options)` (`options`: `{status, retryable, name}` or
/// `undefined`); before an entry registered the class (the bare glue), an `Error` with the
/// same properties.
pub fn coded_error(code: &str, message: &str, options: &JsValue) -> JsValue {
    let class = ERROR_CLASS.with(|slot| slot.borrow().clone());
    let args = [code.into(), message.into(), options.clone()];
    if let Some(made) = class.and_then(|class| construct(&class, &args).ok()) {
        return made;
    }
    let error: JsValue = js_sys::Error::new(message).into();
    set(&error, "code", &code.into());
    if options.is_object() {
        for key in ["status", "retryable", "name"] {
            let value = get(options, key);
            if !value.is_undefined() {
                set(&error, key, &value);
            }
        }
    }
    error
}
