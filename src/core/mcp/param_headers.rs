//! The request headers of MCP 2026-07-28 over HTTP that mirror the body (SEP-2243): a tool's
//! parameters annotated `x-mcp-header` become `Mcp-Param-{name}` headers on its `tools/call`,
//! and `Mcp-Name`, encoded the same way. A tool whose annotations break the rules (an empty or
//! non-token name, a duplicate, a non-primitive or `number` parameter, an annotation that is not
//! reached through `properties` alone) is left out of the tool list with a warning.

use crate::core::json::value::Value;
use base64ct::{Base64, Encoding};

const ANNOTATION: &str = "x-mcp-header";

/// One mirrored parameter: the `properties` path to it, and its header name part.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamHeader {
    /// The chain of `properties` keys from the schema root.
    pub path: Vec<String>,
    /// `{name}` of `Mcp-Param-{name}`.
    pub name: String,
}

/// The mirrored parameters of an `inputSchema`, or why the tool must be rejected.
///
/// ```
/// # use toolnexus::core::mcp::param_headers::param_headers;
/// let ok = toolnexus::json!({"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}});
/// assert_eq!(param_headers(&ok).unwrap()[0].name, "Region");
/// let bad = toolnexus::json!({"type": "object", "properties": {"score": {"type": "number", "x-mcp-header": "Score"}}});
/// assert!(param_headers(&bad).is_err());
/// ```
pub fn param_headers(schema: &Value) -> Result<Vec<ParamHeader>, String> {
    let mut found = Vec::new();
    reachable(schema, &mut Vec::new(), &mut found)?;
    if annotations(schema) != found.len() {
        return Err(format!(
            "{ANNOTATION} is only allowed on properties reached through \"properties\" alone"
        ));
    }
    for (i, header) in found.iter().enumerate() {
        if found
            .iter()
            .take(i)
            .any(|other| other.name.eq_ignore_ascii_case(&header.name))
        {
            return Err(format!("{ANNOTATION} \"{}\" is used twice", header.name));
        }
    }
    Ok(found)
}

fn reachable(
    schema: &Value,
    path: &mut Vec<String>,
    found: &mut Vec<ParamHeader>,
) -> Result<(), String> {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return Ok(());
    };
    for (key, property) in properties {
        path.push(key.clone());
        if let Some(name) = property.get(ANNOTATION) {
            let name = name
                .as_str()
                .ok_or_else(|| format!("{ANNOTATION} of \"{key}\" is not a string"))?;
            check_name(name)?;
            let kind = property.get("type").and_then(Value::as_str);
            if !matches!(kind, Some("string" | "integer" | "boolean")) {
                return Err(format!(
                    "{ANNOTATION} \"{name}\" is on a parameter that is not a string, integer or boolean"
                ));
            }
            found.push(ParamHeader {
                path: path.clone(),
                name: name.to_owned(),
            });
        }
        reachable(property, path, found)?;
        path.pop();
    }
    Ok(())
}

/// An HTTP token (RFC 9110 `1*tchar`).
fn check_name(name: &str) -> Result<(), String> {
    let tchar = |c: char| {
        c.is_ascii_alphanumeric()
            || matches!(
                c,
                '!' | '#'
                    | '$'
                    | '%'
                    | '&'
                    | '\''
                    | '*'
                    | '+'
                    | '-'
                    | '.'
                    | '^'
                    | '_'
                    | '`'
                    | '|'
                    | '~'
            )
    };
    if name.is_empty() {
        return Err(format!("{ANNOTATION} is empty"));
    }
    if !name.chars().all(tchar) {
        return Err(format!(
            "{ANNOTATION} \"{name}\" is not an HTTP header token"
        ));
    }
    Ok(())
}

/// How many `x-mcp-header` keys the schema holds anywhere.
fn annotations(value: &Value) -> usize {
    match value {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| usize::from(k == ANNOTATION) + annotations(v))
            .sum(),
        Value::Array(items) => items.iter().map(annotations).sum(),
        _ => 0,
    }
}

/// The `Mcp-Param-*` headers of one call: each annotated parameter present in `args` (and
/// not null), its value written out and encoded.
///
/// ```
/// # use toolnexus::core::mcp::param_headers::{call_headers, ParamHeader};
/// let params = vec![ParamHeader { path: vec!["n".into()], name: "N".into() }];
/// assert_eq!(call_headers(&params, &toolnexus::json!({"n": 42})), vec![("mcp-param-n".to_owned(), "42".to_owned())]);
/// assert!(call_headers(&params, &toolnexus::json!({"n": null})).is_empty());
/// ```
pub fn call_headers(params: &[ParamHeader], args: &Value) -> Vec<(String, String)> {
    params
        .iter()
        .filter_map(|param| {
            let value = param.path.iter().try_fold(args, |at, key| at.get(key))?;
            let text = match value {
                Value::String(text) => text.clone(),
                Value::Bool(on) => on.to_string(),
                Value::Number(n) => crate::core::jsfmt::number(n.as_f64().unwrap_or(0.0)),
                _ => return None,
            };
            let name = format!("mcp-param-{}", param.name.to_ascii_lowercase());
            Some((name, encoded(&text)))
        })
        .collect()
}

/// A header value: as it is when it is plain visible ASCII (inner spaces allowed), else the
/// Base64 sentinel `=?base64?…?=` of its UTF-8.
///
/// ```
/// # use toolnexus::core::mcp::param_headers::encoded;
/// assert_eq!(encoded("us west 1"), "us west 1");
/// assert_eq!(encoded("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
/// assert_eq!(encoded(" padded "), "=?base64?IHBhZGRlZCA=?=");
/// ```
pub fn encoded(text: &str) -> String {
    let visible = text.bytes().all(|b| (0x20..=0x7e).contains(&b));
    let padded = text.starts_with(' ') || text.ends_with(' ');
    let sentinel = text.starts_with("=?base64?") && text.ends_with("?=");
    let plain = visible && !padded && !sentinel;
    if plain {
        text.to_owned()
    } else {
        format!("=?base64?{}?=", Base64::encode_string(text.as_bytes()))
    }
}
