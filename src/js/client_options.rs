//! Reads `createClient` / `createInProcessClient` options into the core's configuration.

use crate::core::json::value::{Map, Value};
use crate::core::parts::OnUnsupported;
use js_sys::Function;
use wasm_bindgen::prelude::*;

use super::convert::{described, get, js_error, to_json, type_name};
use crate::core::client::config::{ClientConfig, Style};

fn invalid(message: String) -> JsValue {
    js_error("invalid_options", &message)
}

/// A string option; `None` when absent.
pub fn string_opt(options: &JsValue, key: &str, what: &str) -> Result<Option<String>, JsValue> {
    string_field(get(options, key), key, what)
}

/// The value of the string option `key`, already read; `None` when absent.
pub fn string_field(value: JsValue, key: &str, what: &str) -> Result<Option<String>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value.as_string().map(Some).ok_or_else(|| {
        invalid(format!(
            "{what}: {key} must be a string, got {}",
            type_name(&value)
        ))
    })
}

/// A function option; `None` when absent.
pub fn function_opt(options: &JsValue, key: &str, what: &str) -> Result<Option<Function>, JsValue> {
    function_field(get(options, key), key, what)
}

/// The value of the function option `key`, already read; `None` when absent.
pub fn function_field(value: JsValue, key: &str, what: &str) -> Result<Option<Function>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value.dyn_into::<Function>().map(Some).map_err(|v| {
        invalid(format!(
            "{what}: {key} must be a function, got {}",
            type_name(&v)
        ))
    })
}

fn headers(options: &JsValue, what: &str) -> Result<Vec<(String, String)>, JsValue> {
    match to_json(&get(options, "headers")) {
        Ok(Value::Null) => Ok(Vec::new()),
        Ok(Value::Object(map)) => map
            .into_iter()
            .map(|(name, value)| match value {
                Value::String(v) => Ok((name, v)),
                other => Err(invalid(format!(
                    "{what}: headers[\"{name}\"] must be a string, got {}",
                    crate::core::schema::type_name(&other)
                ))),
            })
            .collect(),
        _ => Err(invalid(format!(
            "{what}: headers must be an object of strings, got {}",
            type_name(&get(options, "headers"))
        ))),
    }
}

fn request_params(options: &JsValue, what: &str) -> Result<Map<String, Value>, JsValue> {
    match to_json(&get(options, "requestParams")) {
        Ok(Value::Null) => Ok(Map::new()),
        Ok(Value::Object(mut map)) => {
            for key in ["messages", "tools", "stream"] {
                if map.remove(key).is_some() {
                    let warning = format!("[toolnexus] requestParams key \"{key}\" is not allowed — ignored (use bodyTransform)");
                    web_sys::console::warn_1(&warning.into());
                }
            }
            Ok(map)
        }
        _ => Err(invalid(format!(
            "{what}: requestParams must be an object, got {}",
            type_name(&get(options, "requestParams"))
        ))),
    }
}

fn max_turns(options: &JsValue, what: &str) -> Result<u32, JsValue> {
    let value = get(options, "maxTurns");
    if value.is_undefined() || value.is_null() {
        return Ok(10);
    }
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && (1.0..=10_000.0).contains(&n) => Ok(n as u32),
        _ => Err(invalid(format!(
            "{what}: maxTurns must be a whole number from 1 to 10000, got {}",
            described(&value)
        ))),
    }
}

/// Reads the options every client shares; `style`, `base_url` and `api_key` are the caller's.
pub fn common(
    options: &JsValue,
    style: Style,
    base_url: String,
    what: &str,
) -> Result<ClientConfig, JsValue> {
    if !options.is_object() {
        return Err(invalid(format!(
            "{what}: options must be an object, got {}",
            type_name(options)
        )));
    }
    let model = string_opt(options, "model", what)?
        .ok_or_else(|| invalid(format!("{what}: model is required")))?;
    let mut config = ClientConfig::new(style, base_url, model);
    config.headers = headers(options, what)?;
    config.system_prompt = string_opt(options, "systemPrompt", what)?.unwrap_or_default();
    config.max_turns = max_turns(options, what)?;
    config.request_params = request_params(options, what)?;
    if let Some(retries) = number(options, "retries", what, 0.0, 100.0, true)? {
        config.retries = retries as u32;
    }
    if let Some(base) = number(options, "retryBaseMs", what, 0.0, 3_600_000.0, false)? {
        config.retry_base_ms = base;
    }
    config.timeout_ms = number(options, "timeoutMs", what, 1.0, 2_147_483_647.0, false)?;
    // A whole number of bytes: a fraction rounds down.
    let max_part_bytes = number(
        options,
        "maxPartBytes",
        what,
        0.0,
        9_007_199_254_740_991.0,
        false,
    )?;
    config.max_part_bytes = max_part_bytes.map(|limit| limit as usize);
    let choice = get(options, "onUnsupportedPart");
    config.on_unsupported_part = match choice.as_string().as_deref() {
        _ if choice.is_undefined() || choice.is_null() => None,
        Some("error") => Some(OnUnsupported::Error),
        Some("text") => Some(OnUnsupported::Text),
        _ => {
            let got = described(&choice);
            let message =
                format!("{what}: onUnsupportedPart must be \"error\" or \"text\", got {got}");
            return Err(invalid(message));
        }
    };
    Ok(config)
}

/// The API key: `apiKey`, else `OPENROUTER_API_KEY`, else the style's own variable
/// (`OPENAI_API_KEY` / `ANTHROPIC_API_KEY`), read where the runtime has an environment
/// (`process.env` in Node, `Deno.env` when permitted). No key at all is valid.
pub fn api_key(options: &JsValue, style: Style, what: &str) -> Result<Option<String>, JsValue> {
    if let Some(key) = string_opt(options, "apiKey", what)? {
        return Ok(Some(key).filter(|k| !k.is_empty()));
    }
    let own = match style {
        Style::OpenAi => "OPENAI_API_KEY",
        Style::Anthropic => "ANTHROPIC_API_KEY",
    };
    Ok(["OPENROUTER_API_KEY", own]
        .iter()
        .find_map(|name| env_var(name)))
}

/// One environment variable, or `None` where the runtime has no environment (a browser) or
/// refuses to read it (Deno without `--allow-env`).
pub fn env_var(name: &str) -> Option<String> {
    let global = js_sys::global();
    let from_process = get(&get(&get(&global, "process"), "env"), name).as_string();
    if from_process.is_some() {
        return from_process.filter(|v| !v.is_empty());
    }
    let deno = get(&global, "Deno");
    if !deno_env_granted(&deno, name) {
        return None;
    }
    let env = get(&deno, "env");
    let getter = get(&env, "get").dyn_into::<Function>().ok()?;
    getter
        .call1(&env, &name.into())
        .ok()?
        .as_string()
        .filter(|v| !v.is_empty())
}

/// Whether Deno already allows reading `name` (asking would prompt in a terminal).
fn deno_env_granted(deno: &JsValue, name: &str) -> bool {
    let permissions = get(deno, "permissions");
    let Ok(query) = get(&permissions, "querySync").dyn_into::<Function>() else {
        return false;
    };
    let descriptor: JsValue = js_sys::Object::new().into();
    super::host::set(&descriptor, "name", &"env".into());
    super::host::set(&descriptor, "variable", &name.into());
    query
        .call1(&permissions, &descriptor)
        .map(|status| get(&status, "state").as_string().as_deref() == Some("granted"))
        .unwrap_or(false)
}

/// A numeric option within `min..=max` (a whole number when `whole`); `None` when absent.
/// How JavaScript writes a bound in a message.
fn number_text(n: f64) -> String {
    crate::core::jsfmt::number(n)
}

fn number(
    options: &JsValue,
    key: &str,
    what: &str,
    min: f64,
    max: f64,
    whole: bool,
) -> Result<Option<f64>, JsValue> {
    let value = get(options, key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match value.as_f64() {
        Some(n) if (min..=max).contains(&n) && (!whole || n.fract() == 0.0) => Ok(Some(n)),
        _ => {
            let kind = if whole { "a whole number" } else { "a number" };
            Err(invalid(format!(
                "{what}: {key} must be {kind} from {} to {}, got {}",
                number_text(min),
                number_text(max),
                described(&value)
            )))
        }
    }
}
