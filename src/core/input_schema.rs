//! A tool's input schema, kept in the form it came in (JSON text from JavaScript, a `Value`
//! built in Rust) and turned into the other form only when something needs it. A toolkit of
//! 500 JavaScript tools parses no schema until a tool is called or a hook reads the tool list,
//! and splices each schema's text into the provider tool list as it is.

use std::cell::OnceCell;
use std::fmt;
use std::ops::Deref;

use crate::core::json::value::Value;

use super::json;
use super::json::scan::Reader;

/// The JSON Schema of a tool's arguments, as text and as a `Value`, each made on first use.
/// It reads as a `Value` (it derefs to one).
///
/// ```
/// # use toolnexus::core::input_schema::InputSchema;
/// let schema = InputSchema::from_json_text(r#"{"type": "object", "required": ["a"]}"#).unwrap();
/// assert_eq!(schema.text(), r#"{"type":"object","required":["a"]}"#);
/// assert_eq!(schema["required"][0], "a");
/// assert!(InputSchema::from_json_text(r#"{"type": "string"}"#).is_none());
/// ```
#[derive(Clone)]
pub struct InputSchema {
    /// Canonical JSON text: exactly what [`json::text::write_value`] writes for `value`.
    text: OnceCell<Box<str>>,
    value: OnceCell<Value>,
}

impl InputSchema {
    /// A schema built as a `Value` (its text is written when first asked for).
    pub fn from_value(value: Value) -> Self {
        InputSchema {
            text: OnceCell::new(),
            value: OnceCell::from(value),
        }
    }

    /// A schema given as JSON text (`JSON.stringify` of a JavaScript object), kept as text,
    /// when it is an object whose `type` is absent or `"object"` and the fast
    /// [`Reader`] takes all of it. `None` otherwise: the caller then parses the text with
    /// `serde_json` and builds the spec from the value, which gives the precise error, or
    /// accepts what the reader does not vouch for (fractions, exponents, repeated keys).
    pub fn from_json_text(text: &str) -> Option<Self> {
        let mut reader = Reader::new(text);
        let schema = Self::read(&mut reader)?;
        reader.finish()?;
        Some(schema)
    }

    /// [`from_json_text`](Self::from_json_text) of the value at `reader`'s position, leaving
    /// the reader after it.
    ///
    /// ```
    /// # use toolnexus::core::{input_schema::InputSchema, json::scan::Reader};
    /// let mut reader = Reader::new(r#"[{"properties": {}}, 1]"#);
    /// let mut schema = None;
    /// reader.array(|r, i| if i == 0 { schema = InputSchema::read(r); schema.as_ref().map(drop) } else { r.skip() }).unwrap();
    /// assert_eq!(schema.unwrap().text(), r#"{"properties":{}}"#);
    /// ```
    pub fn read(reader: &mut Reader<'_>) -> Option<Self> {
        let mut canonical = Vec::new();
        let mut object_typed = true;
        reader.canonical_object_with(&mut canonical, &mut |r, key, out| {
            if key != "type" {
                return Some(false);
            }
            let at = out.len();
            r.canonical(out)?;
            object_typed = out.get(at..) == Some(b"\"object\"".as_slice());
            Some(true)
        })?;
        if !object_typed {
            return None;
        }
        let text = String::from_utf8(canonical).ok()?;
        Some(InputSchema {
            text: OnceCell::from(text.into_boxed_str()),
            value: OnceCell::new(),
        })
    }

    /// The value, when it has been made (always, for a schema built as a `Value`); `None` for
    /// a schema still only held as the text [`from_json_text`](Self::from_json_text) checked.
    pub fn parsed(&self) -> Option<&Value> {
        self.value.get()
    }

    /// The schema as a `Value`, parsed from its text the first time.
    pub fn value(&self) -> &Value {
        self.value.get_or_init(|| {
            // The text is canonical JSON the reader vouched for (no fraction, exponent, lone
            // surrogate or repeated key, nesting under serde_json's limit), so this parses;
            // `Null` is only a guard that can never be reached.
            self.text
                .get()
                .and_then(|text| crate::core::json::parse::from_str(text).ok())
                .unwrap_or(Value::Null)
        })
    }

    /// The schema's canonical JSON text, written from its value the first time.
    pub fn text(&self) -> &str {
        self.text
            .get_or_init(|| json::text::to_text(self.value()).into_boxed_str())
    }
}

impl Deref for InputSchema {
    type Target = Value;

    fn deref(&self) -> &Value {
        self.value()
    }
}

impl From<Value> for InputSchema {
    fn from(value: Value) -> Self {
        InputSchema::from_value(value)
    }
}

impl PartialEq for InputSchema {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}

impl PartialEq<Value> for InputSchema {
    fn eq(&self, other: &Value) -> bool {
        self.value() == other
    }
}

impl fmt::Debug for InputSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}
