//! Writing a JSON value the way any producer might: whitespace between tokens and each
//! character escaped or not (`mod json_style;` in the tests of the text readers).
#![allow(dead_code, clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use std::fmt::Write;

/// How to write a value: whitespace between tokens, and which characters to escape.
#[derive(Debug, Clone)]
pub struct Style {
    pub spaces: Vec<&'static str>,
    pub escape: Vec<bool>,
}

pub fn style() -> impl Strategy<Value = Style> {
    (
        proptest::collection::vec(
            prop_oneof![Just(""), Just(" "), Just("\n  "), Just("\t\r\n")],
            1..7,
        ),
        proptest::collection::vec(any::<bool>(), 1..7),
    )
        .prop_map(|(spaces, escape)| Style { spaces, escape })
}

/// `value` as JSON text in `style`; `n` picks the next whitespace and escaping choice.
pub fn write(value: &Value, style: &Style, n: &mut usize, out: &mut String) {
    let space = |out: &mut String, n: &mut usize| {
        *n += 1;
        out.push_str(style.spaces[*n % style.spaces.len()]);
    };
    space(out, n);
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, style, n, out);
            }
            space(out, n);
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                space(out, n);
                write_string(key, style, n, out);
                space(out, n);
                out.push(':');
                write(item, style, n, out);
            }
            space(out, n);
            out.push('}');
        }
        Value::String(s) => write_string(s, style, n, out),
        other => out.push_str(&other.to_string()),
    }
    space(out, n);
}

/// A JSON string, each character escaped (`\uXXXX`, surrogate pairs beyond the BMP, or a short
/// escape) or not as the style says; quotes, backslashes and controls are always escaped.
pub fn write_string(s: &str, style: &Style, n: &mut usize, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        *n += 1;
        let escape = style.escape[*n % style.escape.len()];
        match c {
            '"' if !escape => out.push_str("\\\""),
            '\\' if !escape => out.push_str("\\\\"),
            '/' if escape => out.push_str("\\/"),
            '\n' if escape => out.push_str("\\n"),
            c if escape || (c as u32) < 0x20 => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(out, "\\u{unit:04X}").unwrap();
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

pub fn written(value: &Value, style: &Style) -> String {
    let mut out = String::new();
    write(value, style, &mut 0, &mut out);
    out
}

/// `text` cut at `at` (when `cut`) or with its byte there replaced by `byte` (appended at the
/// end); `None` when that is no longer UTF-8.
pub fn broken(text: String, at: prop::sample::Index, cut: bool, byte: u8) -> Option<String> {
    let mut bytes = text.into_bytes();
    let i = at.index(bytes.len().max(1)).min(bytes.len());
    if cut {
        bytes.truncate(i);
    } else if i < bytes.len() {
        bytes[i] = byte;
    } else {
        bytes.push(byte);
    }
    String::from_utf8(bytes).ok()
}

/// An object of the given fields, each one present or not.
pub fn object(fields: Vec<(&'static str, BoxedStrategy<Value>)>) -> BoxedStrategy<Value> {
    let parts: Vec<BoxedStrategy<Option<(&'static str, Value)>>> = fields
        .into_iter()
        .map(|(key, value)| {
            proptest::option::weighted(0.8, value.prop_map(move |v| (key, v))).boxed()
        })
        .collect();
    parts
        .prop_map(|present| {
            let map: Map<String, Value> = present
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.to_owned(), v))
                .collect();
            Value::Object(map)
        })
        .boxed()
}

pub fn one_of(values: Vec<Value>) -> BoxedStrategy<Value> {
    proptest::sample::select(values).boxed()
}

pub fn text() -> BoxedStrategy<Value> {
    prop_oneof![
        "[a-z \"\\\\\n/é😀]{0,12}".prop_map(Value::String),
        one_of(vec![json!(""), json!("Paris, \"FR\"")]),
    ]
    .boxed()
}

/// A byte to put into JSON text where [`broken`] changes it: the ones that matter to a reader
/// (quotes, escapes, separators, digits), or any byte.
pub fn mutation_byte() -> BoxedStrategy<u8> {
    prop_oneof![
        Just(b'"'),
        Just(b'\\'),
        Just(b','),
        Just(b'}'),
        Just(b'0'),
        Just(b'.'),
        any::<u8>()
    ]
    .boxed()
}

/// A tool call's `name` as a provider may send it: any text, a plain name, `null` or a number.
pub fn tool_name() -> BoxedStrategy<Value> {
    prop_oneof![
        text(),
        one_of(vec![json!("get_weather"), json!(null), json!(5)])
    ]
    .boxed()
}
