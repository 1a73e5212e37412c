//! Writing a JSON value the way any producer might: whitespace between tokens and each
//! character escaped or not (`mod json_style;` in the tests of the text readers).
#![allow(dead_code, clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use std::fmt::Write;
use toolnexus::{
    core::json::value::{Map, Number, Value},
    json,
};

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

/// Any JSON number: every integer form, any finite float, and the floats at the edges.
pub fn number() -> BoxedStrategy<Number> {
    prop_oneof![
        any::<u64>().prop_map(Number::from),
        any::<i64>().prop_map(Number::from),
        any::<f64>().prop_filter_map("finite", Number::from_f64),
        prop_oneof![
            Just(0.0),
            Just(-0.0),
            Just(1.0),
            Just(1e21),
            Just(1e-7),
            Just(5e-324)
        ]
        .prop_map(|f| Number::from_f64(f).unwrap()),
    ]
    .boxed()
}

/// Any JSON value, a few levels deep: any strings (and ones full of characters to escape),
/// any numbers, short keys that collide.
pub fn any_value() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number().prop_map(Value::Number),
        any::<String>().prop_map(Value::String),
        "[a-z \"\\\\\n\t/é😀\u{1}\u{1f}\u{7f}]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(("[a-c\"\\\\é]{0,3}", inner), 0..5)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
    .boxed()
}
