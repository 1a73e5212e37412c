//! Decodes what a JS tool gave back (a string, a `ToolResult`, anything else, a throw or a
//! rejection) into one [`ToolResult`]. Every shape has a defined outcome; nothing panics.

use crate::core::json::value::Value;
use wasm_bindgen::prelude::*;

use super::convert::{error_text, get, has, js_string, to_json, type_name};
use crate::core::parts::ContentPart;
use crate::core::types::ToolResult;

/// The outcome of a settled JS call, as the model will see it.
pub fn decode_outcome(tool: &str, outcome: Result<JsValue, JsValue>) -> ToolResult {
    match outcome {
        Ok(value) => decode_value(tool, &value),
        Err(thrown) => ToolResult::error(thrown_message(tool, &thrown)),
    }
}

/// The message for a throw or rejection: an `Error`'s message, a string as it is, and a
/// description for everything else (`undefined`, `null`, objects, numbers).
pub fn thrown_message(tool: &str, thrown: &JsValue) -> String {
    if thrown.is_undefined() || thrown.is_null() {
        return format!("Tool \"{tool}\" failed: it threw {}", type_name(thrown));
    }
    let text = error_text(thrown);
    if text == "{}" {
        return format!("Tool \"{tool}\" failed: it threw an empty object");
    }
    if text.is_empty() {
        format!("Tool \"{tool}\" failed with an empty error")
    } else {
        text
    }
}

fn decode_value(tool: &str, value: &JsValue) -> ToolResult {
    if let Some(text) = value.as_string() {
        return ToolResult::ok(text);
    }
    if value.is_undefined() || value.is_null() {
        return ToolResult::ok("");
    }
    if value.as_f64().is_some() || value.as_bool().is_some() || value.is_bigint() {
        return ToolResult::ok(js_string(value));
    }
    if value.is_function() || value.is_symbol() {
        return ToolResult::error(format!(
            "Tool \"{tool}\" returned a {}, not a string or a ToolResult",
            type_name(value)
        ));
    }
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        let message = error.message().as_string().unwrap_or_default();
        return ToolResult::error(if message.is_empty() {
            format!("Tool \"{tool}\" returned an Error with no message")
        } else {
            message
        });
    }
    if has(value, "output") || has(value, "isError") {
        return decode_result_shape(tool, value).unwrap_or_else(ToolResult::error);
    }
    match to_json(value) {
        Ok(json) => ToolResult::ok(crate::core::json::text::to_text(&json)),
        Err(why) => ToolResult::error(format!(
            "Tool \"{tool}\" returned a value that cannot be turned into JSON: {why}"
        )),
    }
}

fn decode_result_shape(tool: &str, value: &JsValue) -> Result<ToolResult, String> {
    let output = get(value, "output");
    let Some(output) = output.as_string() else {
        return Err(format!(
            "Tool \"{tool}\" returned a ToolResult whose \"output\" is {}, not a string",
            type_name(&output)
        ));
    };
    let is_error = get(value, "isError");
    let is_error = match is_error.as_bool() {
        Some(flag) => flag,
        None if is_error.is_undefined() => false,
        None => {
            return Err(format!(
                "Tool \"{tool}\" returned a ToolResult whose \"isError\" is {}, not a boolean",
                type_name(&is_error)
            ))
        }
    };
    let metadata = get(value, "metadata");
    let metadata = if metadata.is_undefined() || metadata.is_null() {
        None
    } else {
        match to_json(&metadata) {
            Ok(Value::Object(map)) => Some(map),
            Ok(_) => {
                return Err(format!(
                    "Tool \"{tool}\" returned a ToolResult whose \"metadata\" is {}, not an object",
                    type_name(&metadata)
                ))
            }
            Err(why) => {
                return Err(format!(
                    "Tool \"{tool}\" returned metadata that cannot be turned into JSON: {why}"
                ))
            }
        }
    };
    let parts = parts_of(tool, &get(value, "parts"))?;
    Ok(ToolResult {
        output,
        is_error,
        metadata,
        parts,
    })
}

/// A ToolResult's `parts`: absent, or an array of well-formed content parts (SPEC §1B).
fn parts_of(tool: &str, parts: &JsValue) -> Result<Option<Vec<ContentPart>>, String> {
    if parts.is_undefined() || parts.is_null() {
        return Ok(None);
    }
    if cfg!(not(feature = "full")) {
        return Err(format!("Tool \"{tool}\" returned content parts, which need the full build (toolnexus-wasm, not toolnexus-wasm/core)"));
    }
    let refused =
        |why: String| format!("Tool \"{tool}\" returned a ToolResult whose \"parts\" {why}");
    let Ok(Value::Array(items)) = to_json(parts) else {
        return Err(refused(format!(
            "is {}, not an array of content parts",
            type_name(parts)
        )));
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let part = ContentPart::from_json(item)
                .map_err(|why| refused(format!("[{i}] is not a content part: {why}")))?;
            part.validate()
                .map_err(|why| refused(format!("[{i}] is not a valid content part: {why}")))?;
            Ok(part)
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}
