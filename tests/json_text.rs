//! `core::json::text` writes exactly the bytes `serde_json::to_string` writes, for any value:
//! every control character, quotes and backslashes, non-ASCII and astral characters, integers
//! and floats of every size, nesting, key order.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use toolnexus::core::json::text::{items_text, plain_len, to_text, write_joined};
use toolnexus::{
    core::json::value::{Map, Number, Value},
    json,
};

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[\\x00-\\x7f]{0,24}",
        proptest::collection::vec(
            prop_oneof![
                Just('"'),
                Just('\\'),
                Just('\u{1f}'),
                Just('\u{7f}'),
                Just('\u{2028}'),
                Just('é'),
                Just('😀'),
                any::<char>()
            ],
            0..12
        )
        .prop_map(|chars| chars.into_iter().collect()),
    ]
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        text().prop_map(Value::String)
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((text(), inner), 0..6)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

proptest! {
    #[test]
    fn plain_len_stops_at_the_first_quote_backslash_or_control_byte(
        bytes in proptest::collection::vec(prop_oneof![
            3 => 0x20u8..0x7f, 1 => 0x80u8..=0xff, 1 => Just(b'"'), 1 => Just(b'\\'), 1 => 0u8..0x20,
        ], 0..40),
        plain in 0usize..24,
    ) {
        // A plain run first, so the stop lands anywhere in or after the eight-byte chunks.
        let mut input = vec![b'a'; plain];
        input.extend(&bytes);
        let naive = input.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(input.len());
        prop_assert_eq!(plain_len(&input), naive);
    }

    #[test]
    fn any_value_is_written_as_serde_json_writes_it(value in value()) {
        prop_assert_eq!(to_text(&value), serde_json::to_string(&value).unwrap());
    }

    #[test]
    fn any_list_is_written_as_serde_json_writes_it(items in proptest::collection::vec(value(), 0..5)) {
        prop_assert_eq!(items_text(&items), serde_json::to_string(&items).unwrap());
        let mut joined = Vec::new();
        write_joined(&mut joined, &items);
        let whole = serde_json::to_string(&items).unwrap();
        prop_assert_eq!(String::from_utf8(joined).unwrap(), &whole[1..whole.len() - 1]);
    }
}

#[test]
fn every_control_character_and_the_characters_json_escapes() {
    let all: String = (0u8..0x80)
        .map(char::from)
        .chain(['\u{2028}', '\u{2029}', '\u{feff}', '😀'])
        .collect();
    let value = json!({ all.clone(): [all.clone(), "\"\\/"] });
    assert_eq!(to_text(&value), serde_json::to_string(&value).unwrap());
}

#[test]
fn numbers_at_the_edges() {
    for n in [
        json!(0),
        json!(-0.0),
        json!(1e300),
        json!(5e-324),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(0.1),
        json!(1.0),
        json!(123456789.125),
    ] {
        assert_eq!(to_text(&n), serde_json::to_string(&n).unwrap(), "{n}");
    }
}

#[test]
fn key_order_is_kept() {
    let value: Value =
        serde_json::from_str(r#"{"z":1,"a":{"y":2,"b":3},"m":[{"q":1,"c":2}]}"#).unwrap();
    assert_eq!(
        to_text(&value),
        r#"{"z":1,"a":{"y":2,"b":3},"m":[{"q":1,"c":2}]}"#
    );
}
