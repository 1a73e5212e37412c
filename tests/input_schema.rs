//! A schema kept as text gives what a schema parsed into a `Value` gives: the same value when
//! read, the same canonical text in provider tool lists, the same spec or the same error from
//! `ToolSpec::from_fields_text` as from `ToolSpec::new`, for schemas written in any style.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use toolnexus::core::adapters::{anthropic_text, gemini_text, openai_text};
use toolnexus::core::input_schema::InputSchema;
use toolnexus::core::json::text::to_text;
use toolnexus::core::spec::{empty_schema, ToolSpec};
use toolnexus::{
    core::json::value::{Map, Value},
    json,
};

use crate::json_style;
use json_style::{style, written};

/// Strings with quotes, backslashes, controls, non-ASCII and characters beyond the BMP.
fn string() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just('"'),
            Just('\\'),
            Just('\n'),
            Just('\u{1}'),
            Just('é'),
            Just('😀'),
            proptest::char::range('a', 'z'),
            any::<char>(),
        ],
        0..6,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

/// Values the fast reader takes: integers of at most 18 digits, no fractions.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-999_999_999_999_999_999i64..=999_999_999_999_999_999).prop_map(Value::from),
        string().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((string(), inner), 0..4)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Schema-shaped objects: a `type` that is absent, `"object"` or something else, keys
/// schemas use, and any other keys and values.
fn schema() -> impl Strategy<Value = Value> {
    let kind = prop_oneof![
        Just(None),
        Just(Some(json!("object"))),
        Just(Some(json!("string"))),
        Just(Some(json!(["object"]))),
        value().prop_map(Some),
    ];
    let key = prop_oneof![
        Just("properties".to_owned()),
        Just("required".to_owned()),
        Just("description".to_owned()),
        string()
    ];
    (
        kind,
        proptest::collection::vec((key, value()), 0..4),
        any::<bool>(),
    )
        .prop_map(|(kind, pairs, type_first)| {
            let mut map = Map::new();
            let put_type = |map: &mut Map<String, Value>| {
                if let Some(kind) = &kind {
                    map.insert("type".into(), kind.clone());
                }
            };
            if type_first {
                put_type(&mut map);
            }
            for (key, item) in pairs {
                if key != "type" {
                    map.insert(key, item);
                }
            }
            if !type_first {
                put_type(&mut map);
            }
            Value::Object(map)
        })
}

/// Whether a tool may take `schema`: an object whose `type` is absent or `"object"`.
fn takes(schema: &Value) -> bool {
    schema
        .get("type")
        .is_none_or(|kind| kind == &json!("object"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Kept as text, a schema reads as the value it was written from, and its text is the
    /// canonical text of that value; a schema no tool may take is refused.
    #[test]
    fn text_schemas_read_as_their_values(schema in schema(), style in style()) {
        let text = written(&schema, &style);
        match InputSchema::from_json_text(&text) {
            Some(kept) => {
                prop_assert!(takes(&schema));
                prop_assert_eq!(kept.parsed(), None);
                prop_assert_eq!(kept.text(), to_text(&schema));
                prop_assert_eq!(kept.value(), &schema);
            }
            None => prop_assert!(!takes(&schema), "refused {}", text),
        }
    }

    /// `from_fields_text` gives the spec, or the error, that `ToolSpec::new` gives for the
    /// same fields, and provider lists of the two specs are byte-identical.
    #[test]
    fn fields_text_gives_what_new_gives(
        name in prop_oneof![Just("get_weather".to_owned()), Just("a b".to_owned()), Just(String::new()), string()],
        description in proptest::option::of(string()),
        source in proptest::option::of(string()),
        schema in proptest::option::of(schema()),
        style in style(),
    ) {
        let fields = json!([name, description, source, schema]);
        let fast = ToolSpec::from_fields_text(&written(&fields, &style), "native");
        let slow = ToolSpec::new(
            name.clone(),
            description.clone().unwrap_or_default(),
            schema.clone().unwrap_or_else(empty_schema),
            source.clone().unwrap_or_else(|| "native".into()),
        );
        match (fast, slow) {
            (Some(Ok(fast)), Ok(slow)) => {
                prop_assert_eq!(&fast, &slow);
                prop_assert_eq!(openai_text([&fast]), openai_text([&slow]));
                prop_assert_eq!(anthropic_text([&fast]), anthropic_text([&slow]));
                prop_assert_eq!(gemini_text([&fast]), gemini_text([&slow]));
                let parameters = schema.unwrap_or_else(empty_schema);
                let expected = json!([{"type": "function", "function": {
                    "name": name, "description": description.unwrap_or_default(), "parameters": parameters,
                }}]);
                prop_assert_eq!(openai_text([&fast]), expected.to_string());
            }
            (Some(Err(fast)), Err(slow)) => prop_assert_eq!(fast, slow),
            // A schema the reader refuses goes the slow way: only one no tool may take.
            (None, Err(_)) => prop_assert!(schema.is_some_and(|s| !takes(&s))),
            (fast, slow) => prop_assert!(false, "fast {:?} but slow {:?}", fast, slow),
        }
    }
}

#[test]
fn texts_the_reader_does_not_vouch_for_are_left_to_serde_json() {
    for text in [
        r#"{"type": "object", "properties": {"x": {"minimum": 0.5}}}"#,
        r#"{"maximum": 1e3}"#,
        r#"{"description": "\ud800"}"#,
        r#"{"a": 1, "a": 2}"#,
        r#"[]"#,
        r#"{"type": "object"} x"#,
    ] {
        assert!(InputSchema::from_json_text(text).is_none(), "{text}");
    }
}

#[test]
fn a_schema_built_as_a_value_writes_its_text_when_asked() {
    let schema = InputSchema::from_value(json!({"b": 1, "a": "é\n"}));
    assert_eq!(schema.parsed(), Some(&json!({"b": 1, "a": "é\n"})));
    assert_eq!(schema.text(), "{\"b\":1,\"a\":\"é\\n\"}");
    assert_eq!(schema["b"], 1);
}
