//! The readers `record!` writes agree with the serde derives it also writes off the module:
//! the same record for every object that is one, and the same error text for every object or
//! scalar that is not (wrong types in key order first, then the first missing field). The one
//! difference is deliberate: serde may also read a record from a positional array, the
//! readers refuse one.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use serde::de::DeserializeOwned;
use toolnexus::core::client::result::ToolCallRecord;
use toolnexus::core::json::record::invalid_type;
use toolnexus::core::json::record::Record;
use toolnexus::core::metrics::MetricEvent;
use toolnexus::core::skills::SkillDef;
use toolnexus::core::types::{Answer, Request, ToolResult};
use toolnexus::core::wire::Usage;
use toolnexus::{
    core::json::value::{Map, Value},
    json,
};

/// Strings of printable ASCII, control characters and printable non-ASCII: every character
/// the readers quote as Rust's `{:?}` does (the rarer non-printable code points are the one
/// difference, pinned in `rare_non_printables_stay_unescaped`).
const TEXT: &str = "[ -~\u{0}-\u{1f}\u{7f}-\u{9f}é中😀]{0,6}";

/// Any JSON value of a few shapes: each kind a field could wrongly hold.
fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        Just(json!(1e300)),
        Just(json!(0.1)),
        TEXT.prop_map(Value::String),
        Just(json!("with \"quotes\"\n")),
        Just(json!(["a", "b"])),
        Just(json!(["a", 1])),
        Just(json!([])),
        Just(json!({"k": 1})),
        Just(json!({})),
    ]
}

/// Objects over `keys` (the record's own and a stranger), each present or not, any value.
fn object(keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    proptest::collection::vec((proptest::sample::select(keys), value()), 0..8).prop_map(|pairs| {
        let mut map = Map::new();
        for (k, v) in pairs {
            map.insert(k.to_owned(), v);
        }
        Value::Object(map)
    })
}

fn same<T: DeserializeOwned + PartialEq + std::fmt::Debug>(
    value: &Value,
    ours: impl Fn(Value) -> Result<T, String>,
) -> Result<(), TestCaseError> {
    let theirs = serde_json::from_value::<T>(serde_json::Value::from(value.clone()))
        .map_err(|e| e.to_string());
    prop_assert_eq!(ours(value.clone()), theirs, "for {}", value);
    Ok(())
}

const REQUEST: &[&str] = &["id", "kind", "prompt", "url", "data", "expiresAt", "other"];
const ANSWER: &[&str] = &["id", "ok", "data", "reason", "other"];
const RESULT: &[&str] = &["output", "isError", "metadata", "other"];
const USAGE: &[&str] = &["promptTokens", "completionTokens", "totalTokens", "other"];
const CALL: &[&str] = &["name", "args", "output", "isError", "metadata", "other"];
const METRIC: &[&str] = &[
    "event",
    "model",
    "status",
    "ms",
    "promptTokens",
    "completionTokens",
    "tool",
    "source",
    "isError",
    "pending",
    "turns",
    "toolCalls",
    "totalTokens",
    "error",
    "other",
];
const SKILL: &[&str] = &[
    "name",
    "description",
    "content",
    "resources",
    "base",
    "other",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn requests_read_as_serde_reads_them(v in prop_oneof![object(REQUEST), value()]) {
        prop_assume!(!v.is_array());
        same(&v, Request::from_json)?;
    }

    #[test]
    fn answers_read_as_serde_reads_them(v in prop_oneof![object(ANSWER), value()]) {
        prop_assume!(!v.is_array());
        same(&v, Answer::from_json)?;
    }

    #[test]
    fn tool_results_read_as_serde_reads_them(v in prop_oneof![object(RESULT), value()]) {
        prop_assume!(!v.is_array());
        same(&v, ToolResult::from_json)?;
    }

    #[test]
    fn skills_read_as_serde_reads_them(v in prop_oneof![object(SKILL), value()]) {
        prop_assume!(!v.is_array());
        same(&v, SkillDef::from_json)?;
    }

    #[test]
    fn usages_read_as_serde_reads_them(v in prop_oneof![object(USAGE), value()]) {
        prop_assume!(!v.is_array());
        same(&v, Usage::from_json)?;
    }

    #[test]
    fn tool_call_records_read_as_serde_reads_them(v in prop_oneof![object(CALL), value()]) {
        prop_assume!(!v.is_array());
        same(&v, ToolCallRecord::from_json)?;
    }

    /// A tagged union: the tag's word picks the variant (`event` set to a known word often).
    #[test]
    fn metric_events_read_as_serde_reads_them(
        v in prop_oneof![object(METRIC), value()],
        word in proptest::sample::select(&["llm", "tool", "run", "other"][..]),
    ) {
        let mut v = v;
        if let Value::Object(map) = &mut v {
            if !map.contains_key("event") {
                map.insert("event".into(), Value::String(word.into()));
            }
        }
        prop_assume!(!v.is_array());
        same(&v, <MetricEvent as Record>::from_json)?;
    }

    #[test]
    fn skill_lists_read_as_serde_reads_them(items in proptest::collection::vec(object(SKILL), 0..4), scalar in value()) {
        same(&Value::Array(items), SkillDef::list_from_json)?;
        prop_assume!(!scalar.is_array());
        same(&scalar, SkillDef::list_from_json)?;
    }
}

#[test]
fn complete_records_come_through_whole() {
    let request = json!({"id": "p1", "kind": "approval", "prompt": "Send?", "url": "https://x",
        "data": {"n": 3}, "expiresAt": "2030-01-01T00:00:00Z"});
    let read = Request::from_json(request.clone()).unwrap();
    assert_eq!(
        read,
        serde_json::from_value::<Request>(serde_json::Value::from(request)).unwrap()
    );
    assert_eq!(read.data.unwrap().get("n"), Some(&json!(3)));
    let answer = Answer::from_json(json!({"id": "p1", "ok": false, "reason": "declined"})).unwrap();
    assert_eq!(answer.reason.as_deref(), Some("declined"));
}

#[test]
fn the_error_texts_are_serdes() {
    assert_eq!(
        Request::from_json(json!({"kind": "approval"})).unwrap_err(),
        "missing field `id`"
    );
    assert_eq!(
        Answer::from_json(json!({"ok": "yes", "id": 1})).unwrap_err(),
        "invalid type: string \"yes\", expected a boolean"
    );
    assert_eq!(
        invalid_type(&json!(1.5), "a string"),
        "invalid type: floating point `1.5`, expected a string"
    );
    assert_eq!(
        invalid_type(&json!(-3), "a map"),
        "invalid type: integer `-3`, expected a map"
    );
    assert_eq!(
        ToolResult::from_json(json!("done")).unwrap_err(),
        "invalid type: string \"done\", expected struct ToolResult"
    );
}

proptest! {
    #[test]
    fn strings_are_quoted_as_rusts_debug_quotes_them(s in TEXT) {
        prop_assert_eq!(
            invalid_type(&Value::String(s.clone()), "a map"),
            format!("invalid type: string {s:?}, expected a map")
        );
    }
}

#[test]
fn rare_non_printables_stay_unescaped() {
    // Rust's `{:?}` writes `"a\u{200b}b"`; the module keeps the character, not the tables.
    assert_eq!(
        invalid_type(&json!("a\u{200b}b"), "a map"),
        "invalid type: string \"a\u{200b}b\", expected a map"
    );
    assert_ne!(format!("{:?}", "a\u{200b}b"), "\"a\u{200b}b\"");
    // Nor a leading combining mark, which Rust escapes (`"\u{301}x"`).
    assert_eq!(
        invalid_type(&json!("\u{301}x"), "a map"),
        "invalid type: string \"\u{301}x\", expected a map"
    );
}

#[test]
fn a_positional_array_is_not_a_record() {
    let positional = json!(["p1", "approval", "Send?"]);
    assert_eq!(
        Request::from_json(positional).unwrap_err(),
        "invalid type: sequence, expected struct Request"
    );
}
