//! JavaScript's own text forms, for outputs the reference port pins byte for byte: `String(x)`
//! of a number or a JSON value, `JSON.stringify`, `String.prototype.trim`, `encodeURIComponent`
//! and the `URLSearchParams` serializer.

use crate::core::json::value::Value;
use crate::core::text::JoinWith;
use std::fmt::Write;

/// `String(n)` for a JS number: the shortest round-trip digits, laid out as ECMAScript does.
///
/// ```
/// # use toolnexus::core::jsfmt::number;
/// assert_eq!(number(1.0), "1");
/// assert_eq!(number(1.5e-7), "1.5e-7");
/// assert_eq!(number(1e21), "1e+21");
/// assert_eq!(number(123456.75), "123456.75");
/// assert_eq!(number(f64::NEG_INFINITY), "-Infinity");
/// ```
pub fn number(n: f64) -> String {
    // Whole numbers below 2^53 are their integer digits (the common case: counts, milliseconds).
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        return (n as i64).to_string();
    }
    ryu_js::Buffer::new().format(n).to_owned()
}

/// `String(n)` for a JSON number: integers as they are (up to 2^53), others as [`number`].
///
/// ```
/// # use toolnexus::core::jsfmt::json_number;
/// assert_eq!(json_number(&toolnexus::core::json::value::Number::from_f64(1.0).unwrap()), "1");
/// ```
pub fn json_number(n: &crate::core::json::value::Number) -> String {
    match (n.as_i64(), n.as_u64()) {
        (Some(i), _) if i.unsigned_abs() <= 1 << 53 => i.to_string(),
        (_, Some(u)) if u <= 1 << 53 => u.to_string(),
        _ => number(n.as_f64().unwrap_or(f64::NAN)),
    }
}

/// `String(value)` for JSON data: strings as they are, numbers as JS writes them, arrays
/// joined with `,` (`null` items empty), objects as `[object Object]`.
///
/// ```
/// # use toolnexus::core::jsfmt::string_of;
/// use toolnexus::json;
/// assert_eq!(string_of(&json!(2.0)), "2");
/// assert_eq!(string_of(&json!([1, null, "a"])), "1,,a");
/// assert_eq!(string_of(&json!({"a": 1})), "[object Object]");
/// ```
pub fn string_of(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => json_number(n),
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::Null => String::new(),
                other => string_of(other),
            })
            .collect::<Vec<_>>()
            .join_with(","),
        Value::Object(_) => "[object Object]".into(),
    }
}

/// `JSON.stringify(value)`: compact, keys in order, numbers as JS writes them.
///
/// ```
/// # use toolnexus::core::jsfmt::stringify;
/// let v: toolnexus::core::json::value::Value = serde_json::from_str(r#"{"a":1.0,"b":[1e2,"x"]}"#).unwrap();
/// assert_eq!(stringify(&v), r#"{"a":1,"b":[100,"x"]}"#);
/// ```
pub fn stringify(value: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value);
    out
}

fn write_json(out: &mut String, value: &Value) {
    match value {
        Value::Number(n) => {
            let text = json_number(n);
            // JSON has no NaN or Infinity: JSON.stringify writes them as null.
            let finite = n.as_f64().is_some_and(f64::is_finite);
            out.push_str(if finite { &text } else { "null" });
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&crate::core::json::text::to_text(&Value::String(
                    key.clone(),
                )));
                out.push(':');
                write_json(out, item);
            }
            out.push('}');
        }
        other => out.push_str(&crate::core::json::text::to_text(other)),
    }
}

/// Whether `c` is one of the characters `String.prototype.trim` removes.
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `s.trim()` as JavaScript does it (which differs from Rust's on U+FEFF and U+0085).
///
/// ```
/// # use toolnexus::core::jsfmt::trim;
/// assert_eq!(trim("\u{feff} a \n"), "a");
/// assert_eq!(trim("\u{85}a"), "\u{85}a");
/// ```
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

fn percent_encode(s: &str, keep: impl Fn(u8) -> bool, space_plus: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for byte in s.bytes() {
        if keep(byte) {
            out.push(char::from(byte));
        } else if space_plus && byte == b' ' {
            out.push('+');
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// `url.pathToFileURL(path).href` of Node for an absolute, normalized POSIX path.
///
/// ```
/// # use toolnexus::core::jsfmt::file_url;
/// assert_eq!(file_url("/skills/my skill"), "file:///skills/my%20skill");
/// ```
pub fn file_url(path: &str) -> String {
    let keep = |b: u8| b > b' ' && b < 0x7f && !b"\"#%<>?[\\]^`{|}~".contains(&b);
    format!("file://{}", percent_encode(path, keep, false))
}
