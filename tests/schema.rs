#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use toolnexus::core::schema::{describe, validate, SchemaIssue};
use toolnexus::{
    core::json::value::{Map, Value},
    json, json_value,
};

/// The issues for `value` against `schema`, rendered as strings.
fn errs(value: Value, schema: Value) -> Vec<String> {
    validate(&value, &schema)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn ok(value: Value, schema: Value) {
    let issues = validate(&value, &schema);
    assert!(
        issues.is_empty(),
        "unexpected issues: {}",
        describe(&issues)
    );
}

fn weather_schema() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "description": "Get the weather",
        "properties": {
            "city": {"type": "string", "minLength": 1, "description": "City name"},
            "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
            "days": {"type": "integer", "minimum": 1, "maximum": 14},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3}
        },
        "required": ["city"],
        "additionalProperties": false
    })
}

// ---------- Display / describe ----------

#[test]
fn display_with_and_without_path() {
    let issue = SchemaIssue {
        path: "city".into(),
        message: "expected string, got number".into(),
    };
    assert_eq!(issue.to_string(), "city: expected string, got number");
    let root = SchemaIssue {
        path: String::new(),
        message: "expected object, got null".into(),
    };
    assert_eq!(root.to_string(), "expected object, got null");
}

#[test]
fn describe_joins_with_semicolons() {
    assert_eq!(describe(&[]), "");
    let issues = validate(
        &json!({"city": 1, "unit": "k", "extra": true}),
        &weather_schema(),
    );
    assert_eq!(
        describe(&issues),
        r#"city: expected string, got number; unit: must be one of "c", "f"; extra: unexpected property"#
    );
}

#[test]
fn valid_arguments_have_no_issues() {
    ok(
        json!({"city": "Oslo", "unit": "c", "days": 3, "tags": ["a", "b"]}),
        weather_schema(),
    );
    ok(json!({"city": "Oslo"}), weather_schema());
}

// ---------- type ----------

#[test]
fn type_mismatch_messages_and_got_names() {
    let cases = [
        (json!({}), "string", "expected string, got object"),
        (json!([]), "string", "expected string, got array"),
        (json!("x"), "number", "expected number, got string"),
        (json!(3), "string", "expected string, got number"),
        (json!(3.5), "integer", "expected integer, got number"),
        (json!(true), "null", "expected null, got boolean"),
        (json!(null), "object", "expected object, got null"),
        (json!(1), "array", "expected array, got number"),
        (json!(0), "boolean", "expected boolean, got number"),
    ];
    for (value, ty, message) in cases {
        assert_eq!(errs(value, json!({ "type": ty })), vec![message]);
    }
}

#[test]
fn each_type_accepts_its_values() {
    ok(json!({"a": 1}), json!({"type": "object"}));
    ok(json!([1]), json!({"type": "array"}));
    ok(json!("s"), json!({"type": "string"}));
    ok(json!(1.5), json!({"type": "number"}));
    ok(json!(false), json!({"type": "boolean"}));
    ok(json!(null), json!({"type": "null"}));
}

#[test]
fn integer_versus_number() {
    ok(json!(3), json!({"type": "integer"}));
    ok(json!(-3), json!({"type": "integer"}));
    ok(json!(u64::MAX), json!({"type": "integer"}));
    ok(json!(3.0), json!({"type": "integer"}));
    ok(json!(-0.0), json!({"type": "integer"}));
    ok(json!(3), json!({"type": "number"}));
    ok(json!(3.25), json!({"type": "number"}));
    assert_eq!(
        errs(json!(3.25), json!({"type": "integer"})),
        vec!["expected integer, got number"]
    );
    assert_eq!(
        errs(json!("3"), json!({"type": "integer"})),
        vec!["expected integer, got string"]
    );
}

#[test]
fn type_arrays() {
    let schema = json!({"type": ["string", "null"]});
    ok(json!("x"), schema.clone());
    ok(json!(null), schema.clone());
    assert_eq!(
        errs(json!(5), schema),
        vec!["expected string or null, got number"]
    );
    assert_eq!(
        errs(json!(true), json!({"type": ["string", "integer", "null"]})),
        vec!["expected string, integer or null, got boolean"]
    );
    ok(json!(2.0), json!({"type": ["integer", "string"]}));
    // Duplicates and unknown names are dropped from the message.
    assert_eq!(
        errs(json!(5), json!({"type": ["string", "string", "weird", 7]})),
        vec!["expected string, got number"]
    );
}

#[test]
fn type_mismatch_does_not_descend() {
    let schema = json!({"type": "object", "required": ["a"], "minLength": 10, "enum": [{}]});
    assert_eq!(
        errs(json!("x"), schema),
        vec!["expected object, got string"]
    );
    let schema = json!({"type": "array", "items": {"type": "string"}, "minItems": 5});
    assert_eq!(
        errs(json!({"a": 1}), schema),
        vec!["expected array, got object"]
    );
}

#[test]
fn unknown_or_malformed_type_is_no_constraint() {
    ok(json!(1), json!({"type": "text"}));
    ok(json!(1), json!({"type": 5}));
    ok(json!(1), json!({"type": []}));
    ok(json!(1), json!({"type": {"a": "string"}}));
    ok(json!(1), json!({"type": null}));
}

// ---------- objects ----------

#[test]
fn required_properties() {
    assert_eq!(
        errs(json!({}), weather_schema()),
        vec![r#"required property "city" is missing"#]
    );
    let schema = json!({
        "type": "object",
        "properties": {"address": {"type": "object", "required": ["zip", "street"]}}
    });
    assert_eq!(
        errs(json!({"address": {"street": "Main"}}), schema),
        vec![r#"address: required property "zip" is missing"#]
    );
    // Required without properties, and a null value still counts as present.
    ok(json!({"a": null}), json!({"required": ["a"]}));
}

#[test]
fn required_name_is_json_quoted() {
    assert_eq!(
        errs(json!({}), json!({"required": ["say \"hi\""]})),
        vec![r#"required property "say \"hi\"" is missing"#]
    );
}

#[test]
fn additional_properties_false() {
    assert_eq!(
        errs(
            json!({"city": "Oslo", "extra": 1, "more": 2}),
            weather_schema()
        ),
        vec!["extra: unexpected property", "more: unexpected property"]
    );
}

#[test]
fn additional_properties_true_absent_or_schema() {
    let mut schema = weather_schema();
    schema
        .as_object_mut()
        .unwrap()
        .insert("additionalProperties".into(), json!(true));
    ok(json!({"city": "Oslo", "extra": 1}), schema.clone());
    schema
        .as_object_mut()
        .unwrap()
        .remove("additionalProperties");
    ok(json!({"city": "Oslo", "extra": 1}), schema.clone());
    schema
        .as_object_mut()
        .unwrap()
        .insert("additionalProperties".into(), json!({"type": "integer"}));
    ok(json!({"city": "Oslo", "extra": 1}), schema.clone());
    assert_eq!(
        errs(json!({"city": "Oslo", "extra": "no"}), schema),
        vec!["extra: expected integer, got string"]
    );
    // A malformed value is no constraint.
    ok(json!({"x": 1}), json!({"additionalProperties": "nope"}));
}

#[test]
fn additional_properties_skipped_with_pattern_properties() {
    let schema = json!({
        "properties": {"a": {"type": "string"}},
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": false
    });
    ok(json!({"a": "1", "x-b": 2, "c": 3}), schema.clone());
    assert_eq!(
        errs(json!({"a": 1}), schema),
        vec!["a: expected string, got number"]
    );
}

#[test]
fn properties_only_apply_to_objects_and_present_keys() {
    let schema = json!({"properties": {"a": {"type": "string"}}, "required": ["a"]});
    ok(json!("not an object"), schema.clone());
    ok(json!([1, 2]), schema.clone());
    ok(json!({"a": "x", "b": 1}), schema);
}

#[test]
fn issues_follow_document_order() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "array", "items": {"type": "integer"}},
            "c": {"type": "string"}
        },
        "required": ["a", "b", "c", "d"],
        "additionalProperties": false
    });
    let value = json!({"c": 1, "b": [1, "x", 2, "y"], "z": 0});
    assert_eq!(
        errs(value, schema),
        vec![
            r#"required property "a" is missing"#,
            r#"required property "d" is missing"#,
            "c: expected string, got number",
            "b[1]: expected integer, got string",
            "b[3]: expected integer, got string",
            "z: unexpected property",
        ]
    );
}

// ---------- paths ----------

#[test]
fn nested_paths() {
    let schema = json!({
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "dims": {"type": "array", "items": {"type": "number"}}
                    },
                    "required": ["name"]
                }
            }
        }
    });
    let value = json!({"items": [
        {"name": "ok"},
        {"name": "ok", "dims": [1, "2"]},
        {"name": 5},
        {}
    ]});
    assert_eq!(
        errs(value, schema),
        vec![
            "items[1].dims[1]: expected number, got string",
            "items[2].name: expected string, got number",
            r#"items[3]: required property "name" is missing"#,
        ]
    );
}

#[test]
fn array_item_paths_at_root() {
    let schema = json!({"type": "array", "items": {"type": "string"}});
    assert_eq!(
        errs(json!(["a", true]), schema),
        vec!["[1]: expected string, got boolean"]
    );
    let schema = json!({"properties": {"tags": {"items": {"type": "string"}}}});
    assert_eq!(
        errs(json!({"tags": ["a", true]}), schema),
        vec!["tags[1]: expected string, got boolean"]
    );
}

#[test]
fn non_identifier_keys_are_bracketed() {
    let schema = json!({
        "properties": {
            "a key": {"type": "string"},
            "outer": {"properties": {"x.y": {"type": "string"}, "ok_key-1": {"type": "string"}}},
            "": {"type": "string"},
            "ключ": {"type": "string"}
        }
    });
    let value = json!({"a key": 1, "outer": {"x.y": 1, "ok_key-1": 1}, "": 1, "ключ": 1});
    assert_eq!(
        errs(value, schema),
        vec![
            r#"["a key"]: expected string, got number"#,
            r#"outer["x.y"]: expected string, got number"#,
            "outer.ok_key-1: expected string, got number",
            r#"[""]: expected string, got number"#,
            r#"["ключ"]: expected string, got number"#,
        ]
    );
    assert_eq!(
        errs(json!({"a\"b": 1}), json!({"additionalProperties": false})),
        vec![r#"["a\"b"]: unexpected property"#]
    );
}

#[test]
fn issue_fields_hold_path_and_message() {
    let issues = validate(&json!({"city": 1}), &weather_schema());
    assert_eq!(
        issues,
        vec![SchemaIssue {
            path: "city".into(),
            message: "expected string, got number".into()
        }]
    );
}

// ---------- enum / const ----------

#[test]
fn enum_values() {
    assert_eq!(
        errs(json!({"city": "x", "unit": "k"}), weather_schema()),
        vec![r#"unit: must be one of "c", "f""#]
    );
    assert_eq!(
        errs(
            json!(4),
            json!({"enum": [1, "two", null, [3], {"a": true}]})
        ),
        vec![r#"must be one of 1, "two", null, [3], {"a":true}"#]
    );
    ok(json!({"b": 2, "a": 1}), json!({"enum": [{"a": 1, "b": 2}]}));
    ok(json!(1.0), json!({"enum": [1]}));
    ok(json!(1), json!({"enum": [1.0]}));
    ok(json!([1, {"x": 2.0}]), json!({"enum": [[1.0, {"x": 2}]]}));
    assert_eq!(errs(json!([1, 2]), json!({"enum": [[2, 1]]})).len(), 1);
    assert_eq!(errs(json!(true), json!({"enum": [1]})).len(), 1);
    assert_eq!(
        errs(json!({"a": 1}), json!({"enum": [{"a": 1, "b": 2}]})).len(),
        1
    );
}

#[test]
fn enum_malformed_or_empty_is_no_constraint() {
    ok(json!("x"), json!({"enum": "x"}));
    ok(json!("x"), json!({"enum": []}));
    ok(json!("x"), json!({"enum": null}));
}

#[test]
fn const_values() {
    ok(json!("v1"), json!({"const": "v1"}));
    ok(json!(null), json!({"const": null}));
    ok(json!(2), json!({"const": 2.0}));
    assert_eq!(
        errs(json!("v2"), json!({"const": "v1"})),
        vec![r#"must be equal to "v1""#]
    );
    assert_eq!(
        errs(
            json!({"mode": 1}),
            json!({"properties": {"mode": {"const": null}}})
        ),
        vec!["mode: must be equal to null"]
    );
}

// ---------- strings ----------

#[test]
fn string_lengths() {
    let schema =
        json!({"properties": {"name": {"type": "string", "minLength": 3, "maxLength": 5}}});
    ok(json!({"name": "abc"}), schema.clone());
    ok(json!({"name": "abcde"}), schema.clone());
    assert_eq!(
        errs(json!({"name": "ab"}), schema.clone()),
        vec!["name: must be at least 3 characters"]
    );
    assert_eq!(
        errs(json!({"name": "abcdef"}), schema),
        vec!["name: must be at most 5 characters"]
    );
    assert_eq!(
        errs(json!(""), json!({"minLength": 1})),
        vec!["must be at least 1 character"]
    );
    assert_eq!(
        errs(json!("ab"), json!({"maxLength": 1})),
        vec!["must be at most 1 character"]
    );
    ok(json!(""), json!({"maxLength": 0}));
}

#[test]
fn string_length_counts_chars_not_bytes() {
    ok(json!("ééé"), json!({"maxLength": 3}));
    ok(json!("日本語"), json!({"minLength": 3, "maxLength": 3}));
    ok(json!("🦀🦀"), json!({"maxLength": 2}));
    assert_eq!(errs(json!("🦀🦀🦀"), json!({"maxLength": 2})).len(), 1);
}

#[test]
fn length_keywords_ignore_wrong_types_and_malformed_values() {
    ok(json!(12345), json!({"maxLength": 2}));
    ok(json!("abcdef"), json!({"maxLength": -1}));
    ok(json!("abcdef"), json!({"maxLength": 2.5}));
    ok(json!("abcdef"), json!({"maxLength": "2"}));
    assert_eq!(errs(json!("abc"), json!({"maxLength": 2.0})).len(), 1);
}

// ---------- numbers ----------

#[test]
fn numeric_bounds() {
    let schema = json!({"properties": {"age": {"type": "integer", "minimum": 0, "maximum": 150}}});
    ok(json!({"age": 0}), schema.clone());
    ok(json!({"age": 150}), schema.clone());
    assert_eq!(
        errs(json!({"age": -1}), schema.clone()),
        vec!["age: must be >= 0"]
    );
    assert_eq!(
        errs(json!({"age": 151}), schema),
        vec!["age: must be <= 150"]
    );
    let schema = json!({"exclusiveMinimum": 0, "exclusiveMaximum": 1.5});
    ok(json!(0.5), schema.clone());
    assert_eq!(errs(json!(0), schema.clone()), vec!["must be > 0"]);
    assert_eq!(errs(json!(1.5), schema.clone()), vec!["must be < 1.5"]);
    assert_eq!(
        errs(json!(-2.5), json!({"minimum": -1.25})),
        vec!["must be >= -1.25"]
    );
    ok(json!(2.0), json!({"maximum": 2}));
    ok(json!(u64::MAX), json!({"minimum": i64::MIN}));
    assert_eq!(errs(json!(i64::MIN), json!({"minimum": u64::MAX})).len(), 1);
    // Exact integer comparison beyond f64 precision.
    assert_eq!(
        errs(
            json!(9_007_199_254_740_993_u64),
            json!({"maximum": 9_007_199_254_740_992_u64})
        ),
        vec!["must be <= 9007199254740992"]
    );
    // A bound is written as JavaScript's String(number) writes it.
    assert_eq!(
        errs(json!(3), json!({"maximum": 2.0})),
        vec!["must be <= 2"]
    );
    assert_eq!(
        errs(json!(2e21), json!({"maximum": 1e21})),
        vec!["must be <= 1e+21"]
    );
    assert_eq!(
        errs(json!(0), json!({"minimum": 1e-7})),
        vec!["must be >= 1e-7"]
    );
}

#[test]
fn both_minimum_forms_can_fail() {
    assert_eq!(
        errs(json!(0), json!({"minimum": 1, "exclusiveMinimum": 0})),
        vec!["must be >= 1", "must be > 0"]
    );
}

#[test]
fn numeric_bounds_ignore_wrong_types_and_boolean_forms() {
    ok(json!("5"), json!({"maximum": 1}));
    ok(json!(5), json!({"maximum": "1"}));
    ok(json!(5), json!({"maximum": 10, "exclusiveMaximum": true}));
    ok(json!(5), json!({"minimum": null}));
}

// ---------- arrays ----------

#[test]
fn array_sizes() {
    let schema = json!({"properties": {"items": {"type": "array", "minItems": 1, "maxItems": 2}}});
    ok(json!({"items": [1]}), schema.clone());
    ok(json!({"items": [1, 2]}), schema.clone());
    assert_eq!(
        errs(json!({"items": [1, 2, 3]}), schema.clone()),
        vec!["items: must have at most 2 items"]
    );
    assert_eq!(
        errs(json!({"items": []}), schema),
        vec!["items: must have at least 1 item"]
    );
    assert_eq!(
        errs(json!([]), json!({"minItems": 2})),
        vec!["must have at least 2 items"]
    );
    ok(json!("abc"), json!({"maxItems": 1}));
    ok(json!([1, 2]), json!({"maxItems": "1"}));
}

#[test]
fn items_applies_to_every_element() {
    let schema = json!({"items": {"type": "integer", "minimum": 0}});
    ok(json!([]), schema.clone());
    ok(json!([0, 1, 2]), schema.clone());
    assert_eq!(
        errs(json!([1, -1, "x", 2.5]), schema),
        vec![
            "[1]: must be >= 0",
            "[2]: expected integer, got string",
            "[3]: expected integer, got number",
        ]
    );
    // Tuple-form, boolean and malformed `items` are no constraint.
    ok(json!([1, "x"]), json!({"items": [{"type": "string"}]}));
    ok(json!([1]), json!({"items": false}));
    ok(json!([1]), json!({"items": "string"}));
}

// ---------- anyOf / oneOf ----------

#[test]
fn any_of() {
    let schema = json!({"anyOf": [{"type": "string", "minLength": 2}, {"type": "integer"}]});
    ok(json!("ab"), schema.clone());
    ok(json!(3), schema.clone());
    assert_eq!(
        errs(json!("a"), schema.clone()),
        vec!["does not match any of the allowed schemas"]
    );
    assert_eq!(
        errs(json!({"v": true}), json!({"properties": {"v": schema}})),
        vec!["v: expected string or integer, got boolean"]
    );
}

#[test]
fn any_of_optional_pattern_names_types() {
    // The shape Pydantic emits for Optional[int].
    let schema = json!({"properties": {"n": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}});
    ok(json!({"n": null}), schema.clone());
    ok(json!({"n": 4}), schema.clone());
    assert_eq!(
        errs(json!({"n": "4"}), schema),
        vec!["n: expected integer or null, got string"]
    );
}

#[test]
fn any_of_without_types_uses_generic_message() {
    let schema = json!({"anyOf": [{"const": 1}, {"const": 2}]});
    assert_eq!(
        errs(json!(3), schema),
        vec!["does not match any of the allowed schemas"]
    );
    let schema = json!({"anyOf": [{"type": "object", "required": ["a"]}, {"type": "null"}]});
    assert_eq!(
        errs(json!({}), schema),
        vec!["does not match any of the allowed schemas"]
    );
}

#[test]
fn one_of() {
    let schema = json!({"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 10}]});
    ok(json!(3), schema.clone());
    ok(json!(10.5), schema.clone());
    assert_eq!(
        errs(json!(12), schema.clone()),
        vec!["must match exactly one of the allowed schemas"]
    );
    assert_eq!(
        errs(json!("x"), schema),
        vec!["expected integer or number, got string"]
    );
    assert_eq!(
        errs(json!(5), json!({"oneOf": [{"const": 1}, {"const": 2}]})),
        vec!["does not match any of the allowed schemas"]
    );
}

#[test]
fn combinators_with_other_keywords_and_nesting() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}]
    });
    ok(json!({"a": 1}), schema.clone());
    ok(json!({"b": 1}), schema.clone());
    assert_eq!(
        errs(json!({"a": "x"}), schema.clone()),
        vec!["a: expected integer, got string"]
    );
    assert_eq!(
        errs(json!({}), schema),
        vec!["does not match any of the allowed schemas"]
    );
    let nested =
        json!({"anyOf": [{"oneOf": [{"type": "string"}, {"const": 1}]}, {"type": "null"}]});
    ok(json!("s"), nested.clone());
    ok(json!(1), nested.clone());
    ok(json!(null), nested.clone());
    assert_eq!(errs(json!(2), nested).len(), 1);
}

#[test]
fn malformed_combinators_are_no_constraint() {
    ok(json!(1), json!({"anyOf": []}));
    ok(json!(1), json!({"oneOf": []}));
    ok(json!(1), json!({"anyOf": {"type": "string"}}));
    ok(json!(1), json!({"oneOf": "string"}));
    // Non-object branches impose nothing, so they always match.
    ok(json!(1), json!({"anyOf": [true, {"type": "string"}]}));
    ok(json!(1), json!({"anyOf": [7, {"type": "string"}]}));
}

// ---------- ignored keywords / non-object schemas ----------

#[test]
fn ignored_keywords() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "x",
        "$ref": "#/definitions/nothing",
        "$defs": {"nothing": {"type": "null"}},
        "title": "T",
        "description": "D",
        "default": 5,
        "examples": ["a"],
        "format": "email",
        "pattern": "^z+$",
        "allOf": [{"type": "null"}],
        "not": {"type": "string"},
        "if": {"type": "string"}, "then": {"type": "null"},
        "x-unknown": {"anything": true},
        "minContains": "garbage"
    });
    ok(json!("not an email"), schema);
}

#[test]
fn non_object_schemas_are_no_constraint() {
    for schema in [
        json!(true),
        json!(false),
        json!(null),
        json!(1),
        json!("string"),
        json!([]),
    ] {
        for value in [
            json!(null),
            json!(1),
            json!("x"),
            json!([1]),
            json!({"a": 1}),
        ] {
            ok(value, schema.clone());
        }
    }
    ok(
        json!({"a": 1}),
        json!({"properties": {"a": true, "b": false}}),
    );
    ok(json!({"a": 1}), json!({"properties": "a"}));
    ok(json!({"a": 1}), json!({"properties": [{"type": "string"}]}));
}

#[test]
fn malformed_required_is_no_constraint() {
    ok(json!({}), json!({"required": "city"}));
    ok(json!({}), json!({"required": {"city": true}}));
    ok(json!({}), json!({"required": [1, null, ["city"]]}));
    assert_eq!(
        errs(json!({}), json!({"required": [1, "city"]})),
        vec![r#"required property "city" is missing"#]
    );
}

// ---------- depth ----------

fn nested_object_schema(levels: usize) -> Value {
    let mut schema = json!({"type": "string"});
    for _ in 0..levels {
        schema = json_value!({"type": "object", "properties": {"a": schema}, "required": ["a"]});
    }
    schema
}

fn nested_object_value(levels: usize, leaf: Value) -> Value {
    let mut value = leaf;
    for _ in 0..levels {
        value = json_value!({ "a": value });
    }
    value
}

#[test]
fn deep_nesting_within_limit_is_checked() {
    let issues = validate(
        &nested_object_value(40, json!(1)),
        &nested_object_schema(40),
    );
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].path, vec!["a"; 40].join("."));
    assert_eq!(issues[0].message, "expected string, got number");
}

#[test]
fn deep_nesting_beyond_limit_does_not_panic() {
    for levels in [63, 64, 65, 100, 500] {
        let schema = nested_object_schema(levels);
        let good = nested_object_value(levels, json!("s"));
        let bad = nested_object_value(levels, json!(1));
        assert!(validate(&good, &schema).is_empty());
        let _ = validate(&bad, &schema);
        // A value shallower than the schema reports the missing key.
        assert_eq!(validate(&json!({}), &schema).len(), 1);
    }
    // Past the limit checking stops, so a deep mismatch is not reported.
    let levels = 100;
    let issues = validate(
        &nested_object_value(levels, json!(1)),
        &nested_object_schema(levels),
    );
    assert!(issues.is_empty());
}

#[test]
fn deep_arrays_and_combinators_do_not_panic() {
    let mut schema = json!({"type": "integer"});
    let mut value = json!("x");
    for _ in 0..300 {
        schema = json_value!({"type": "array", "items": schema});
        value = json_value!([value]);
    }
    let _ = validate(&value, &schema);
    let mut schema = json!({"type": "integer"});
    for _ in 0..300 {
        schema =
            json_value!({"anyOf": [{"type": "boolean"}, {"oneOf": [schema, {"type": "null"}]}]});
    }
    let _ = validate(&json!("x"), &schema);
    // Doubling branches: every branch is evaluated, and nothing panics.
    let mut schema = json!({"type": "integer"});
    for _ in 0..14 {
        schema = json_value!({"anyOf": [schema.clone(), {"oneOf": [schema, {"type": "boolean"}]}]});
    }
    assert_eq!(
        errs(json!("x"), schema),
        vec!["does not match any of the allowed schemas"]
    );
}

// ---------- property tests ----------

const KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "enum",
    "const",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "anyOf",
    "oneOf",
    "patternProperties",
    "description",
];

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        (-20i32..20).prop_map(|n| Value::from(f64::from(n))),
        "[a-z\"é ]{0,6}".prop_map(Value::String),
        prop::sample::select(KEYWORDS).prop_map(Value::from),
        prop::sample::select(
            &["object", "array", "string", "number", "integer", "boolean", "null"][..]
        )
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 5, |inner| {
        let key = prop_oneof![
            prop::sample::select(KEYWORDS).prop_map(str::to_owned),
            "[a-c]{1,2}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key, inner), 0..5)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A schema together with a value that satisfies it.
fn conforming() -> impl Strategy<Value = (Value, Value)> {
    let leaf = prop_oneof![
        "[a-zé日 ]{0,8}"
            .prop_flat_map(|s| {
                let len = s.chars().count() as u64;
                (Just(s), 0..=len, len..len + 3, any::<bool>())
            })
            .prop_map(|(s, min, max, as_enum)| {
                let mut schema = json!({"type": "string", "minLength": min, "maxLength": max,
                                    "pattern": "^never$", "format": "uri"});
                if as_enum {
                    schema
                        .as_object_mut()
                        .unwrap()
                        .insert("enum".into(), json!(["other", s.clone()]));
                }
                (schema, json!(s))
            }),
        (any::<i32>(), 0i64..5, 0i64..5, any::<bool>()).prop_map(|(n, below, above, float)| {
            let n = i64::from(n);
            let value = if float { json!(n as f64) } else { json!(n) };
            (
                json!({"type": "integer", "minimum": n - below, "maximum": n + above}),
                value,
            )
        }),
        (-1e6f64..1e6).prop_map(|f| {
            (
                json!({"type": "number", "exclusiveMinimum": f - 1.0, "exclusiveMaximum": f + 1.0}),
                json!(f),
            )
        }),
        any::<bool>().prop_map(|b| (json!({"type": "boolean"}), json!(b))),
        Just((json!({"type": ["string", "null"]}), json!(null))),
        arb_json().prop_map(|v| (json!({"const": v.clone(), "title": "c"}), v)),
        arb_json().prop_map(|v| (json!(true), v)),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..4), 0usize..2).prop_map(
                |(pairs, slack)| {
                    let len = pairs.len();
                    let branches: Vec<Value> = pairs.iter().map(|(s, _)| s.clone()).collect();
                    let values: Vec<Value> = pairs.into_iter().map(|(_, v)| v).collect();
                    let items = if branches.is_empty() {
                        json!({})
                    } else {
                        json!({ "anyOf": branches })
                    };
                    let schema = json!({"type": "array", "items": items,
                                        "minItems": len.saturating_sub(slack), "maxItems": len + slack});
                    (schema, Value::Array(values))
                }
            ),
            (
                prop::collection::btree_map("[a-z][a-z _-]{0,5}", (inner.clone(), any::<bool>()), 0..4),
                prop::sample::select(vec![json!(false), json!(true), json!({"type": "integer"})]),
            )
                .prop_map(|(fields, additional)| {
                    let mut properties = Map::new();
                    let mut required = Vec::new();
                    let mut value = Map::new();
                    for (key, ((schema, v), is_required)) in fields {
                        if is_required {
                            required.push(json!(key.clone()));
                        }
                        properties.insert(key.clone(), schema);
                        value.insert(key, v);
                    }
                    let schema = json!({"type": "object", "properties": properties,
                                        "required": required, "additionalProperties": additional,
                                        "description": "generated"});
                    (schema, Value::Object(value))
                }),
            inner.clone().prop_map(|(schema, v)| {
                // Exactly one branch fits: the other demands a different type.
                let other = if v.is_null() { "boolean" } else { "null" };
                (json!({"oneOf": [schema, {"type": other}]}), v)
            }),
            inner.prop_map(|(schema, v)| {
                let mut wrapped = json!({"type": "object", "properties": {"wrapped": schema}});
                wrapped.as_object_mut().unwrap().insert("required".into(), json!(["wrapped"]));
                (wrapped, json!({ "wrapped": v }))
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn validate_never_panics_on_arbitrary_schemas(value in arb_json(), schema in arb_json()) {
        let issues = validate(&value, &schema);
        let line = describe(&issues);
        prop_assert_eq!(issues.is_empty(), line.is_empty());
    }

    #[test]
    fn validate_never_panics_on_generated_schemas(value in arb_json(), (schema, _) in conforming()) {
        let _ = validate(&value, &schema);
    }

    #[test]
    fn conforming_values_have_no_issues((schema, value) in conforming()) {
        let issues = validate(&value, &schema);
        prop_assert!(issues.is_empty(), "schema {} value {}: {}", schema, value, describe(&issues));
    }

    #[test]
    fn describe_is_display_joined(value in arb_json(), schema in arb_json()) {
        let issues = validate(&value, &schema);
        let joined: Vec<String> = issues.iter().map(|i| i.to_string()).collect();
        prop_assert_eq!(describe(&issues), joined.join("; "));
    }
}
