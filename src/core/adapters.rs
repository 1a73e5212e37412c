//! Provider tool schemas (SPEC §4 "Adapter mapping"). Key order is part of the contract: the
//! JSON text these produce is byte-identical to the reference ports'. Each list is written as
//! text, each tool's schema spliced in as its own text (a schema JavaScript gave is never
//! parsed for it); the `to_*` forms parse that text for callers that want data.

use crate::core::json::value::Value;

use super::json::text::write_str;
use super::spec::ToolSpec;

/// OpenAI: `[{type: "function", function: {name, description, parameters}}]`.
///
/// ```
/// # use toolnexus::core::{adapters::to_openai, spec::ToolSpec};
/// let s = ToolSpec::new("t", "d", toolnexus::json!({"type": "object"}), "native").unwrap();
/// assert_eq!(to_openai([&s]).to_string(),
///     r#"[{"type":"function","function":{"name":"t","description":"d","parameters":{"type":"object"}}}]"#);
/// ```
pub fn to_openai<'a>(specs: impl IntoIterator<Item = &'a ToolSpec>) -> Value {
    parsed(&openai_text(specs))
}

/// [`to_openai`] as JSON text.
///
/// ```
/// # use toolnexus::core::{adapters::openai_text, spec::ToolSpec};
/// let s = ToolSpec::new("t", "d", toolnexus::json!({}), "native").unwrap();
/// assert_eq!(openai_text([&s]),
///     r#"[{"type":"function","function":{"name":"t","description":"d","parameters":{}}}]"#);
/// ```
pub fn openai_text<'a>(specs: impl IntoIterator<Item = &'a ToolSpec>) -> String {
    list(specs, |out, s| {
        out.extend_from_slice(br#"{"type":"function","function":"#);
        declaration(out, s, "parameters");
        out.push(b'}');
    })
}

/// Anthropic: `[{name, description, input_schema}]`.
///
/// ```
/// # use toolnexus::core::{adapters::to_anthropic, spec::ToolSpec};
/// let s = ToolSpec::new("t", "d", toolnexus::json!({"type": "object"}), "native").unwrap();
/// assert_eq!(to_anthropic([&s]).to_string(),
///     r#"[{"name":"t","description":"d","input_schema":{"type":"object"}}]"#);
/// ```
pub fn to_anthropic<'a>(specs: impl IntoIterator<Item = &'a ToolSpec>) -> Value {
    parsed(&anthropic_text(specs))
}

/// [`to_anthropic`] as JSON text.
///
/// ```
/// # use toolnexus::core::adapters::anthropic_text;
/// assert_eq!(anthropic_text([]), "[]");
/// ```
pub fn anthropic_text<'a>(specs: impl IntoIterator<Item = &'a ToolSpec>) -> String {
    list(specs, |out, s| declaration(out, s, "input_schema"))
}

/// Gemini: one element wrapping every tool, `[{functionDeclarations: [{name, description,
/// parameters}]}]`.
///
/// ```
/// # use toolnexus::core::adapters::to_gemini;
/// assert_eq!(to_gemini([]).to_string(), r#"[{"functionDeclarations":[]}]"#);
/// ```
pub fn to_gemini<'a>(specs: impl IntoIterator<Item = &'a ToolSpec>) -> Value {
    parsed(&gemini_text(specs))
}

/// [`to_gemini`] as JSON text.
///
/// ```
/// # use toolnexus::core::{adapters::gemini_text, spec::ToolSpec};
/// let s = ToolSpec::new("t", "", toolnexus::json!({}), "native").unwrap();
/// assert_eq!(gemini_text([&s]),
///     r#"[{"functionDeclarations":[{"name":"t","description":"","parameters":{}}]}]"#);
/// ```
pub fn gemini_text<'a>(specs: impl IntoIterator<Item = &'a ToolSpec>) -> String {
    let declarations = list(specs, |out, s| declaration(out, s, "parameters"));
    format!(r#"[{{"functionDeclarations":{declarations}}}]"#)
}

/// `[` each spec written by `write`, comma-separated `]`.
fn list<'a>(
    specs: impl IntoIterator<Item = &'a ToolSpec>,
    mut write: impl FnMut(&mut Vec<u8>, &ToolSpec),
) -> String {
    let mut out = vec![b'['];
    for (i, spec) in specs.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write(&mut out, spec);
    }
    out.push(b']');
    // Only whole strings and canonical schema texts went in: always UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// `{"name":…,"description":…,"<schema_key>":<schema>}`.
fn declaration(out: &mut Vec<u8>, spec: &ToolSpec, schema_key: &str) {
    out.extend_from_slice(br#"{"name":"#);
    write_str(out, &spec.name);
    out.extend_from_slice(br#","description":"#);
    write_str(out, &spec.description);
    out.push(b',');
    write_str(out, schema_key);
    out.push(b':');
    out.extend_from_slice(spec.input_schema.text().as_bytes());
    out.push(b'}');
}

/// The value of JSON text these functions wrote (always valid).
fn parsed(text: &str) -> Value {
    crate::core::json::parse::from_str(text).unwrap_or(Value::Null)
}
