//! `RunResult::to_json_parts`: put together the way the JS glue builds a result (the fields
//! in the result's order, the lists and the optional fields from their texts), the parts are
//! exactly the result's own JSON, key order included, with no optional field, with each one
//! alone, and with all of them.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
use toolnexus::core::client::result::{RunResult, Status, ToolCallRecord};
use toolnexus::core::types::Request;
use toolnexus::core::wire::Usage;
use toolnexus::{
    core::json::value::{Map, Value},
    json,
};

fn merged(result: &RunResult) -> String {
    let parts = result.to_json_parts();
    let mut out = Map::new();
    out.insert("text".into(), json!(result.text));
    out.insert(
        "messages".into(),
        serde_json::from_str(&parts.messages).unwrap(),
    );
    out.insert(
        "toolCalls".into(),
        serde_json::from_str(&parts.tool_calls).unwrap(),
    );
    out.insert("toolCallCount".into(), json!(result.tool_call_count));
    out.insert("turns".into(), json!(result.turns));
    let usage = &result.usage;
    let usage = json!({"promptTokens": usage.prompt_tokens, "completionTokens": usage.completion_tokens, "totalTokens": usage.total_tokens});
    out.insert("usage".into(), usage);
    out.insert("model".into(), json!(result.model));
    out.insert("status".into(), json!(result.status.as_str()));
    if let Some(extra) = parts.extra {
        let extra: Map<String, Value> = serde_json::from_str(&extra).unwrap();
        out.extend(extra);
    }
    serde_json::to_string(&out).unwrap()
}

fn done() -> RunResult {
    RunResult {
        text: "It is sunny \"there\".".into(),
        messages: vec![
            json!({"role": "user", "content": "weather?"}).into(),
            json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c1"}]}).into(),
        ],
        tool_calls: vec![ToolCallRecord {
            name: "get_weather".into(),
            args: json!({"city": "Paris"}),
            output: "sunny".into(),
            is_error: false,
            metadata: None,
        }],
        tool_call_count: 1,
        turns: 2,
        usage: Usage {
            prompt_tokens: 20,
            completion_tokens: 10,
            total_tokens: 30,
        },
        model: "gpt-4o-mini".into(),
        status: Status::Done,
        pending: None,
        limit: None,
        save_error: None,
    }
}

#[test]
fn a_result_without_optional_fields_merges_to_its_own_json() {
    let result = done();
    assert_eq!(merged(&result), serde_json::to_string(&result).unwrap());
    assert_eq!(result.to_json_parts().extra, None);
}

#[test]
fn a_result_with_every_optional_field_merges_to_its_own_json() {
    let mut result = done();
    result.status = Status::Pending;
    result.pending = Some(Request {
        id: "r1".into(),
        kind: "approval".into(),
        prompt: "Run it?".into(),
        url: Some("https://example.test/ok".into()),
        data: Some(Map::from_iter([("k".to_owned(), json!(1))])),
        expires_at: Some("2026-12-01T00:00:00Z".into()),
    });
    result.limit = Some("maxTurns".into());
    result.save_error = Some("disk full".into());
    result.tool_calls[0].metadata = Some(Map::from_iter([("m".to_owned(), json!([1, 2]))]));
    assert_eq!(merged(&result), serde_json::to_string(&result).unwrap());
}

#[test]
fn each_optional_field_alone_merges_to_its_own_json() {
    for n in 0..3 {
        let mut result = done();
        match n {
            0 => result.limit = Some("maxToolCalls".into()),
            1 => result.save_error = Some("quota".into()),
            _ => {
                result.pending = Some(Request {
                    id: "r".into(),
                    kind: "input".into(),
                    prompt: "Name?".into(),
                    url: None,
                    data: None,
                    expires_at: None,
                })
            }
        }
        assert_eq!(
            merged(&result),
            serde_json::to_string(&result).unwrap(),
            "field {n}"
        );
    }
}

#[test]
fn empty_lists_are_empty_arrays() {
    let mut result = done();
    result.messages.clear();
    result.tool_calls.clear();
    let parts = result.to_json_parts();
    assert_eq!(
        (parts.messages.as_str(), parts.tool_calls.as_str()),
        ("[]", "[]")
    );
}

/// Names and outputs with what escaping must get right.
fn text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    proptest::collection::vec(
        prop_oneof![
            Just('"'),
            Just('\\'),
            Just('\n'),
            Just('\u{1}'),
            Just('é'),
            Just('😀'),
            any::<char>()
        ],
        0..6,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

fn value() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((text(), inner), 0..4)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

    /// The tool-call list is written as serde_json writes it, for any names, arguments,
    /// outputs and metadata.
    #[test]
    fn tool_calls_are_written_as_serde_json_writes_them(
        records in proptest::collection::vec(
            (text(), value(), text(), proptest::bool::ANY, proptest::option::of(proptest::collection::vec((text(), value()), 0..3))),
            0..4,
        ),
    ) {
        let mut result = done();
        result.tool_calls = records
            .into_iter()
            .map(|(name, args, output, is_error, metadata)| ToolCallRecord {
                name,
                args,
                output,
                is_error,
                metadata: metadata.map(|pairs| pairs.into_iter().collect()),
            })
            .collect();
        proptest::prop_assert_eq!(
            result.to_json_parts().tool_calls,
            serde_json::to_string(&result.tool_calls).unwrap()
        );
    }
}
