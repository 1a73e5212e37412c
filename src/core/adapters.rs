//! Provider tool schemas (SPEC §4 "Adapter mapping"). Key order is part of the contract: the
//! JSON text these produce is byte-identical to the reference ports'.

use serde_json::{json, Map, Value};

use super::spec::ToolSpec;

/// OpenAI: `[{type: "function", function: {name, description, parameters}}]`.
///
/// ```
/// # use toolnexus::core::{adapters::to_openai, spec::ToolSpec};
/// let s = ToolSpec::new("t", "d", serde_json::json!({"type": "object"}), "native").unwrap();
/// assert_eq!(to_openai([&s]).to_string(),
///     r#"[{"type":"function","function":{"name":"t","description":"d","parameters":{"type":"object"}}}]"#);
/// ```
pub fn to_openai<'a>(specs: impl IntoIterator<Item = &'a ToolSpec>) -> Value {
    specs
        .into_iter()
        .map(|s| {
            let mut function = Map::new();
            function.insert("name".into(), json!(s.name));
            function.insert("description".into(), json!(s.description));
            function.insert("parameters".into(), s.input_schema.clone());
            let mut entry = Map::new();
            entry.insert("type".into(), json!("function"));
            entry.insert("function".into(), Value::Object(function));
            Value::Object(entry)
        })
        .collect()
}

/// Anthropic: `[{name, description, input_schema}]`.
///
/// ```
/// # use toolnexus::core::{adapters::to_anthropic, spec::ToolSpec};
/// let s = ToolSpec::new("t", "d", serde_json::json!({"type": "object"}), "native").unwrap();
/// assert_eq!(to_anthropic([&s]).to_string(),
///     r#"[{"name":"t","description":"d","input_schema":{"type":"object"}}]"#);
/// ```
pub fn to_anthropic<'a>(specs: impl IntoIterator<Item = &'a ToolSpec>) -> Value {
    specs
        .into_iter()
        .map(|s| declaration(s, "input_schema"))
        .collect()
}

/// Gemini: one element wrapping every tool, `[{functionDeclarations: [{name, description,
/// parameters}]}]`.
///
/// ```
/// # use toolnexus::core::adapters::to_gemini;
/// assert_eq!(to_gemini([]).to_string(), r#"[{"functionDeclarations":[]}]"#);
/// ```
pub fn to_gemini<'a>(specs: impl IntoIterator<Item = &'a ToolSpec>) -> Value {
    let declarations: Vec<Value> = specs
        .into_iter()
        .map(|s| declaration(s, "parameters"))
        .collect();
    let mut wrapper = Map::new();
    wrapper.insert("functionDeclarations".into(), Value::Array(declarations));
    Value::Array(vec![Value::Object(wrapper)])
}

fn declaration(spec: &ToolSpec, schema_key: &str) -> Value {
    let mut entry = Map::new();
    entry.insert("name".into(), json!(spec.name));
    entry.insert("description".into(), json!(spec.description));
    entry.insert(schema_key.into(), spec.input_schema.clone());
    Value::Object(entry)
}
