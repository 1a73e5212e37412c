//! Reads the contract's records out of JSON values by hand, with serde's own error texts.
//!
//! `serde_json::from_value` into a derived type costs the wasm module its whole typed
//! deserializer: a visitor per type, and serde's "invalid type" messages, which format floats
//! through `core::fmt` (35 KB of the lean module raw, 14 KiB gzip, measured when this came in). The records the module reads from its host
//! (`Request`, `Answer`, `ToolResult`, `SkillDef`) are small, so they are read here instead.
//! The derives stay for Rust callers; `tests/json_read.rs` checks both agree, errors included.

use crate::core::value::{Map, Value};

/// Serde's wording for a value of the wrong type: `invalid type: integer `5`, expected a string`.
///
/// ```
/// use toolnexus::core::json_read::invalid_type;
/// assert_eq!(invalid_type(&toolnexus::json!(true), "a string"), "invalid type: boolean `true`, expected a string");
/// ```
pub fn invalid_type(value: &Value, expected: &str) -> String {
    let found = match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => format!("integer `{u}`"),
            (None, Some(i)) => format!("integer `{i}`"),
            _ => format!("floating point `{}`", float_text(n.as_f64().unwrap_or(0.0))),
        },
        Value::String(s) => format!("string {}", debug_str(s)),
        Value::Array(_) => "sequence".to_owned(),
        Value::Object(_) => "map".to_owned(),
    };
    format!("invalid type: {found}, expected {expected}")
}

/// A float as serde_json's messages write one (zmij's shortest digits: `1.5`, `100.0`, `1e21`).
fn float_text(f: f64) -> String {
    zmij::Buffer::new().format(f).to_owned()
}

/// A string quoted as serde's message quotes it (Rust's `{:?}`): `"`, `\\`, tab, CR, LF and
/// NUL escaped, other control characters as `\u{1b}`. Rust's own also escapes the rarer
/// non-printable code points (`\u{200b}`, a leading combining mark); they stay as they are here, which keeps Rust's
/// Unicode tables out of the wasm module (`tests/json_read.rs` pins both).
fn debug_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() => {
                // At most two hex digits: control characters are below U+00A0.
                let code = u32::from(c);
                out.push_str("\\u{");
                out.extend(
                    [code >> 4, code & 15]
                        .iter()
                        .skip(usize::from(code < 16))
                        .filter_map(|d| char::from_digit(*d, 16)),
                );
                out.push('}');
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The fields of a JSON object being read as the record `name` (`struct Request`).
pub struct Record {
    fields: Map<String, Value>,
}

impl Record {
    /// `value` as an object, or serde's error for a value that is not one.
    ///
    /// ```
    /// use toolnexus::core::json_read::Record;
    /// assert!(Record::of(toolnexus::json!({"a": 1}), "struct A").is_ok());
    /// assert_eq!(Record::of(toolnexus::json!([]), "struct A").err().unwrap(), "invalid type: sequence, expected struct A");
    /// ```
    pub fn of(value: Value, name: &str) -> Result<Record, String> {
        match value {
            Value::Object(fields) => Ok(Record { fields }),
            other => Err(invalid_type(&other, name)),
        }
    }

    /// Checks the known keys' types in the object's own key order (the order serde reports the
    /// first wrong one in), `check` naming what each key must be (`None` for an unknown key).
    ///
    /// ```
    /// use toolnexus::core::json_read::{Kind, Record};
    /// let r = Record::of(toolnexus::json!({"b": 1, "a": true}), "struct A").unwrap();
    /// let kinds = |k: &str| match k { "a" | "b" => Some(Kind::String), _ => None };
    /// assert_eq!(r.check(kinds).err().unwrap(), "invalid type: integer `1`, expected a string");
    /// ```
    pub fn check(self, kinds: impl Fn(&str) -> Option<Kind>) -> Result<Record, String> {
        for (key, value) in &self.fields {
            if let Some(kind) = kinds(key) {
                kind.check(value)?;
            }
        }
        Ok(self)
    }

    /// Takes a required field that [`check`](Record::check) has already typed as a string.
    pub fn string(&mut self, key: &str) -> Result<String, String> {
        match self.fields.remove(key) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(invalid_type(&other, "a string")),
            None => Err(format!("missing field `{key}`")),
        }
    }

    /// Takes a required boolean field.
    pub fn boolean(&mut self, key: &str) -> Result<bool, String> {
        match self.fields.remove(key) {
            Some(Value::Bool(b)) => Ok(b),
            Some(other) => Err(invalid_type(&other, "a boolean")),
            None => Err(format!("missing field `{key}`")),
        }
    }

    /// Takes an optional string field: absent and `null` are `None`.
    pub fn optional_string(&mut self, key: &str) -> Result<Option<String>, String> {
        match self.fields.remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(invalid_type(&other, "a string")),
        }
    }

    /// Takes an optional object field: absent and `null` are `None`.
    pub fn optional_map(&mut self, key: &str) -> Result<Option<Map<String, Value>>, String> {
        match self.fields.remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m)),
            Some(other) => Err(invalid_type(&other, "a map")),
        }
    }

    /// Takes an optional list of strings: absent and `null` are empty.
    pub fn strings(&mut self, key: &str) -> Result<Vec<String>, String> {
        match self.fields.remove(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .into_iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s),
                    other => Err(invalid_type(&other, "a string")),
                })
                .collect(),
            Some(other) => Err(invalid_type(&other, "a sequence")),
        }
    }
}

/// What a field of a record must hold, for [`Record::check`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A string.
    String,
    /// A string or `null`.
    OptionalString,
    /// A boolean.
    Bool,
    /// An object or `null`.
    OptionalMap,
    /// A list of strings, or `null`.
    OptionalStrings,
}

impl Kind {
    /// `Ok` when `value` is of this kind, else serde's error for it.
    ///
    /// ```
    /// use toolnexus::core::json_read::Kind;
    /// assert!(Kind::OptionalString.check(&toolnexus::core::value::Value::Null).is_ok());
    /// assert!(Kind::Bool.check(&toolnexus::json!("yes")).is_err());
    /// ```
    pub fn check(self, value: &Value) -> Result<(), String> {
        let expected = match (self, value) {
            (Kind::String, Value::String(_)) | (Kind::Bool, Value::Bool(_)) => return Ok(()),
            (Kind::OptionalString, Value::String(_) | Value::Null) => return Ok(()),
            (Kind::OptionalMap, Value::Object(_) | Value::Null) => return Ok(()),
            (Kind::OptionalStrings, Value::Null) => return Ok(()),
            (Kind::OptionalStrings, Value::Array(items)) => {
                return items
                    .iter()
                    .find(|item| !item.is_string())
                    .map_or(Ok(()), |item| Err(invalid_type(item, "a string")));
            }
            (Kind::String | Kind::OptionalString, _) => "a string",
            (Kind::Bool, _) => "a boolean",
            (Kind::OptionalMap, _) => "a map",
            (Kind::OptionalStrings, _) => "a sequence",
        };
        Err(invalid_type(value, expected))
    }
}
