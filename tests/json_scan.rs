//! `core::json::scan`'s canonical copy agrees with `serde_json`: for any JSON text, written with
//! any whitespace and any escaping, the reader's copy is exactly `json::text::to_text` of what
//! `serde_json::from_str` reads, and it refuses only what it says it refuses (fractions,
//! exponents, `-0`, long integers, duplicate keys, deep nesting). For text that is not JSON, or
//! has been cut or changed anywhere, the reader never accepts what serde_json rejects.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use toolnexus::core::json::scan::Reader;
use toolnexus::core::json::text::to_text;
use toolnexus::core::json::value::{Map, Value};

use crate::json_style;
use json_style::{broken, style, written};

/// The reader's canonical copy of `text` as a whole value, or `None` when it refuses.
fn canonical(text: &str) -> Option<String> {
    let mut reader = Reader::new(text);
    let mut out = Vec::new();
    reader.canonical(&mut out)?;
    reader.finish()?;
    Some(String::from_utf8(out).unwrap())
}

/// Whether the reader skips `text` as one whole value.
fn skipped(text: &str) -> bool {
    let mut reader = Reader::new(text);
    reader.skip().is_some() && reader.finish().is_some()
}

/// Values with fractions and exponents too, which a skip takes.
fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        value(),
        (-1e12f64..1e12).prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        Just(toolnexus::json!(1e-300)),
        Just(toolnexus::json!(-0.0)),
    ];
    leaf.prop_recursive(3, 30, 5, |inner| {
        proptest::collection::vec(inner, 0..5).prop_map(Value::Array)
    })
}

/// Strings with what escaping must get right: quotes, backslashes, controls, non-ASCII,
/// characters beyond the BMP.
fn string() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just('"'),
            Just('\\'),
            Just('/'),
            Just('\n'),
            Just('\u{1}'),
            Just('\u{1f}'),
            Just('\u{7f}'),
            Just('é'),
            Just('\u{2028}'),
            Just('😀'),
            proptest::char::range('a', 'z'),
            any::<char>(),
        ],
        0..8,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

/// Values the reader takes: integers of at most 18 digits (not `-0`), no fractions.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-999_999_999_999_999_999i64..=999_999_999_999_999_999).prop_map(Value::from),
        string().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::vec((string(), inner), 0..5).prop_map(|pairs| {
                Value::Object(pairs.into_iter().collect::<Map<String, Value>>())
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Any value the reader takes, however it is written, copies as serde_json's text of it.
    #[test]
    fn copies_any_value_as_serde_json_writes_it(value in value(), style in style()) {
        let text = written(&value, &style);
        let parsed: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&parsed, &value);
        prop_assert_eq!(canonical(&text), Some(to_text(&parsed)), "text: {}", text);
    }

    /// Cut or changed anywhere, the text is refused whenever serde_json refuses it, and when
    /// both read it, the copy is serde_json's.
    #[test]
    fn never_takes_what_serde_json_refuses(
        value in value(),
        style in style(),
        at in any::<prop::sample::Index>(),
        cut in any::<bool>(),
        byte in prop_oneof![Just(b'"'), Just(b'\\'), Just(b','), Just(b'}'), Just(b']'), Just(b'0'), Just(b'u'), Just(b' '), any::<u8>()],
    ) {
        let Some(text) = broken(written(&value, &style), at, cut, byte) else { return Ok(()) };
        match (canonical(&text), serde_json::from_str::<Value>(&text)) {
            (Some(copy), Ok(parsed)) => prop_assert_eq!(copy, to_text(&parsed)),
            (Some(copy), Err(e)) => prop_assert!(false, "took {text:?} as {copy}, serde_json: {e}"),
            (None, _) => {}
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A skip takes every value serde_json reads that has no huge number, however written.
    #[test]
    fn skips_any_value_serde_json_reads(value in any_value(), style in style()) {
        let text = written(&value, &style);
        prop_assert!(skipped(&text), "text: {}", text);
    }

    /// Cut or changed anywhere, a text serde_json refuses is never skipped.
    #[test]
    fn never_skips_what_serde_json_refuses(
        value in any_value(),
        style in style(),
        at in any::<prop::sample::Index>(),
        byte in prop_oneof![Just(b'"'), Just(b'\\'), Just(b','), Just(b'.'), Just(b'e'), Just(b'-'), Just(b'0'), any::<u8>()],
    ) {
        let mut bytes = written(&value, &style).into_bytes();
        let i = at.index(bytes.len().max(1)).min(bytes.len());
        if i < bytes.len() {
            bytes[i] = byte;
        } else {
            bytes.truncate(i / 2);
        }
        let Ok(text) = String::from_utf8(bytes) else { return Ok(()) };
        if skipped(&text) {
            prop_assert!(serde_json::from_str::<Value>(&text).is_ok(), "skipped {:?}", text);
        }
    }
}

#[test]
fn skips_numbers_serde_json_reads_and_not_those_it_refuses() {
    for text in [
        "0",
        "-0",
        "1.5",
        "-2.5e-3",
        "1E+2",
        "123456789012345678901234567890",
        "1e298",
        r#"{"a":1,"a":2}"#,
    ] {
        assert!(skipped(text), "{text}");
    }
    for text in [
        "01", "1.", ".5", "1e", "1e+", "-", "1e400", "1e300", "+1", "0x1", "1.5.5",
    ] {
        assert!(!skipped(text), "{text}");
    }
}

#[test]
fn refuses_what_it_leaves_to_serde_json() {
    for text in [
        "1.5",
        "1e3",
        "-0",
        "1234567890123456789",
        r#"{"a":1,"a":2}"#,
        r#"{"a":{"b":1,"b":1}}"#,
        r#""\ud800""#,
        r#""\udc00\ud800""#,
        "",
        "[1,]",
        "{\"a\":1,}",
        "01",
        "tru",
        "\"a\u{1}\"",
        "[1] 2",
    ] {
        assert_eq!(canonical(text), None, "{text:?}");
    }
    let deep = format!("{}{}", "[".repeat(101), "]".repeat(101));
    assert_eq!(canonical(&deep), None);
    let fine = format!("{}{}", "[".repeat(100), "]".repeat(100));
    assert_eq!(canonical(&fine), Some(fine.clone()));
}

#[test]
fn keys_repeat_only_within_one_object_to_be_refused() {
    let text = r#"{"a":{"a":1},"b":[{"a":2},{"a":3}]}"#;
    assert_eq!(canonical(text).as_deref(), Some(text));
    assert_eq!(canonical(r#"{"\u0061":1,"a":2}"#), None);
}

#[test]
fn strings_decode_and_borrow_when_they_can() {
    let mut r = Reader::new(r#""plain""#);
    assert!(matches!(
        r.string(),
        Some(std::borrow::Cow::Borrowed("plain"))
    ));
    let mut r = Reader::new(r#""a\"b\u00e9\ud83d\ude00\/""#);
    assert_eq!(r.string().as_deref(), Some("a\"bé😀/"));
}
