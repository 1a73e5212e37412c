//! Reading tool arguments. The toolkit has already checked them against the input schema, but
//! a tool called directly may get anything, so every reader has a safe fallback.

use crate::core::json::value::Value;

/// A string argument as JavaScript's `String(x ?? "")` would give it.
pub fn text(args: &Value, key: &str) -> String {
    match args.get(key) {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => crate::core::json::text::to_text(other),
    }
}

/// A required, non-empty string argument; `Err("<key> is required")` otherwise.
pub fn required(args: &Value, key: &str) -> Result<String, String> {
    let value = text(args, key);
    if value.is_empty() {
        Err(format!("{key} is required"))
    } else {
        Ok(value)
    }
}

/// A non-empty string argument, when given.
pub fn optional(args: &Value, key: &str) -> Option<String> {
    Some(text(args, key)).filter(|s| !s.is_empty())
}

/// A number argument, when it is one.
pub fn number(args: &Value, key: &str) -> Option<f64> {
    args.get(key).and_then(Value::as_f64)
}

/// A count argument truncated towards zero, when it is a number.
pub fn count(args: &Value, key: &str) -> Option<i64> {
    number(args, key).map(|n| n.trunc() as i64)
}

/// Whether the argument is exactly `true`.
pub fn flag(args: &Value, key: &str) -> bool {
    args.get(key) == Some(&Value::Bool(true))
}

/// A value as JavaScript's `String(x)` inside `Array.join` would write it (`null` → empty).
pub fn js_join_item(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => crate::core::json::text::to_text(other),
    }
}
