//! A tool's public description, checked once when the tool is made.

use crate::core::json::value::Value;

use super::input_schema::InputSchema;
use super::json::scan::Reader;
use super::types::sanitize;

/// Why a tool definition was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The name is empty.
    #[error("a tool needs a non-empty name")]
    EmptyName,
    /// The name has characters providers refuse.
    #[error("tool name \"{name}\" is invalid: use only letters, digits, \"_\" and \"-\" (sanitize gives \"{suggestion}\")")]
    InvalidName {
        /// The name as given.
        name: String,
        /// `sanitize(name)`.
        suggestion: String,
    },
    /// The input schema is not a JSON object.
    #[error("tool \"{name}\": inputSchema must be a JSON Schema object, got {got}")]
    SchemaNotObject {
        /// The tool's name.
        name: String,
        /// The JSON type that was given.
        got: &'static str,
    },
    /// The input schema describes something other than an object.
    #[error("tool \"{name}\": inputSchema.type must be \"object\" (tool arguments are always an object), got {got}")]
    SchemaTypeNotObject {
        /// The tool's name.
        name: String,
        /// The `type` that was given, as JSON.
        got: String,
    },
}

/// Name, description, input schema and source of a tool.
///
/// ```
/// # use toolnexus::core::spec::ToolSpec;
/// let s = ToolSpec::new("get_weather", "Weather", toolnexus::json!({"type": "object"}), "native").unwrap();
/// assert_eq!(s.source, "native");
/// assert!(ToolSpec::new("get weather", "", toolnexus::json!({}), "native").is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    /// Unique name of `[a-zA-Z0-9_-]` characters.
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// JSON Schema of the arguments object (reads as a `Value`; see [`InputSchema`]).
    pub input_schema: InputSchema,
    /// `"native" | "mcp" | "skill" | "builtin" | "http" | "a2a" | "relay" | "custom"`.
    pub source: String,
}

impl ToolSpec {
    /// Checks and builds a spec. `input_schema` is a `Value` or an [`InputSchema`] (one made
    /// from text was checked when it was made).
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: impl Into<InputSchema>,
        source: impl Into<String>,
    ) -> Result<Self, SpecError> {
        let name = name.into();
        check_name(&name)?;
        let input_schema = input_schema.into();
        if let Some(value) = input_schema.parsed() {
            check_schema(&name, value)?;
        }
        Ok(ToolSpec {
            name,
            description: description.into(),
            input_schema,
            source: source.into(),
        })
    }

    /// A spec from the JSON text `[name, description, source, inputSchema]` (`null` for an
    /// absent description, source or schema; `default_source` fills the source), the schema
    /// kept as text. `None` when the text is not that shape or the reader does not take it
    /// (see [`InputSchema::from_json_text`]): the caller then reads the fields the slow way.
    ///
    /// ```
    /// # use toolnexus::core::spec::ToolSpec;
    /// let s = ToolSpec::from_fields_text(r#"["t", null, null, {"type": "object"}]"#, "native").unwrap().unwrap();
    /// assert_eq!((s.name.as_str(), s.source.as_str(), s.input_schema.text()), ("t", "native", r#"{"type":"object"}"#));
    /// assert!(ToolSpec::from_fields_text(r#"["a b", "", null, null]"#, "native").unwrap().is_err());
    /// assert!(ToolSpec::from_fields_text(r#"["t", "", null, {"type": "array"}]"#, "native").is_none());
    /// ```
    pub fn from_fields_text(text: &str, default_source: &str) -> Option<Result<Self, SpecError>> {
        let mut reader = Reader::new(text);
        let (mut name, mut description, mut source, mut schema) = (None, None, None, None);
        reader.array(|r, i| {
            match i {
                0 => name = Some(r.string()?),
                1 => description = optional_string(r)?,
                2 => source = optional_string(r)?,
                3 => {
                    if !r.null()? {
                        schema = Some(InputSchema::read(r)?);
                    }
                }
                _ => return None,
            }
            Some(())
        })?;
        reader.finish()?;
        let input_schema = match schema {
            Some(schema) => schema,
            None => empty_schema().into(),
        };
        Some(ToolSpec::new(
            name?,
            description.unwrap_or_default(),
            input_schema,
            source.map_or_else(|| default_source.to_owned(), |s| s.into_owned()),
        ))
    }
}

/// A string, or `null` (`Some(None)`); `None` for anything else.
fn optional_string<'a>(reader: &mut Reader<'a>) -> Option<Option<std::borrow::Cow<'a, str>>> {
    if reader.null()? {
        Some(None)
    } else {
        reader.string().map(Some)
    }
}

/// The schema a tool gets when it declares none: an object with no properties.
///
/// ```
/// # use toolnexus::core::spec::empty_schema;
/// assert_eq!(empty_schema()["type"], "object");
/// ```
pub fn empty_schema() -> Value {
    crate::json_value!({"type": "object", "properties": {}, "additionalProperties": false})
}

/// The schema `defineTool` gives a tool that declares none, as the reference port does: an
/// object with no declared properties, so any object of arguments is accepted.
///
/// ```
/// # use toolnexus::core::spec::open_schema;
/// assert!(open_schema().get("additionalProperties").is_none());
/// ```
pub fn open_schema() -> Value {
    crate::json_value!({"type": "object", "properties": {}})
}

fn check_name(name: &str) -> Result<(), SpecError> {
    if name.is_empty() {
        return Err(SpecError::EmptyName);
    }
    let valid = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    if name.bytes().all(valid) {
        return Ok(());
    }
    Err(SpecError::InvalidName {
        name: name.to_owned(),
        suggestion: sanitize(name),
    })
}

fn check_schema(name: &str, schema: &Value) -> Result<(), SpecError> {
    let Value::Object(map) = schema else {
        return Err(SpecError::SchemaNotObject {
            name: name.to_owned(),
            got: json_type(schema),
        });
    };
    match map.get("type") {
        None => Ok(()),
        Some(Value::String(t)) if t == "object" => Ok(()),
        Some(other) => Err(SpecError::SchemaTypeNotObject {
            name: name.to_owned(),
            got: crate::core::json::text::to_text(other),
        }),
    }
}

/// The JSON type name of a value: `object`, `array`, `string`, `number`, `boolean` or `null`.
///
/// ```
/// # use toolnexus::core::spec::json_type;
/// assert_eq!(json_type(&toolnexus::json!([1])), "array");
/// ```
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Null => "null",
    }
}
