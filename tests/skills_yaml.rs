//! Frontmatter through a real YAML parser: block scalars, quoting, multi-line values, the core
//! schema's non-string scalars (coerced as JavaScript's `String` does), and malformed YAML.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::indexing_slicing, clippy::unwrap_used)]

use toolnexus::core::skills::frontmatter::{parse, Frontmatter};

fn fm(yaml: &str) -> Frontmatter {
    parse(&format!("---\n{yaml}\n---\nbody"))
}

fn value(yaml: &str, key: &str) -> Option<String> {
    let parsed = fm(yaml);
    assert!(!parsed.malformed, "malformed: {yaml:?}");
    parsed.get(key).map(str::to_owned)
}

#[test]
fn literal_and_folded_block_scalars_resolve_and_are_trimmed() {
    let yaml = "description: |\n  Line one\n  Line two\n";
    assert_eq!(value(yaml, "description").unwrap(), "Line one\nLine two");
    let yaml = "description: >\n  Reads\n  PDFs\n\n  New paragraph\n";
    assert_eq!(
        value(yaml, "description").unwrap(),
        "Reads PDFs\nNew paragraph"
    );
    for chomp in ["|-", "|+", ">-", ">+", "|2"] {
        let yaml = format!("description: {chomp}\n    indented text\n\n\nname: x");
        assert_eq!(
            value(&yaml, "description").unwrap(),
            "indented text",
            "{chomp}"
        );
        assert_eq!(value(&yaml, "name").unwrap(), "x");
    }
}

#[test]
fn quoted_scalars_unescape_and_are_trimmed() {
    assert_eq!(
        value(r#"d: "tab\there \u00e9 \"q\"""#, "d").unwrap(),
        "tab\there é \"q\""
    );
    assert_eq!(value("d: 'it''s'", "d").unwrap(), "it's");
    assert_eq!(value(r#"d: "  padded  ""#, "d").unwrap(), "padded");
    assert_eq!(value("d: '1.0'", "d").unwrap(), "1.0");
    assert_eq!(value("d: \"two\n  lines\"", "d").unwrap(), "two lines");
    assert_eq!(
        value("d: 'a: b # not a comment'", "d").unwrap(),
        "a: b # not a comment"
    );
}

#[test]
fn multi_line_plain_scalars_fold_into_one_line() {
    let yaml =
        "name: pdf\ndescription: Extract text\n  from PDF files,\n  then summarise\nother: 1";
    assert_eq!(
        value(yaml, "description").unwrap(),
        "Extract text from PDF files, then summarise"
    );
    assert_eq!(value("name: a # trailing comment", "name").unwrap(), "a");
}

#[test]
fn non_string_scalars_are_coerced_as_javascript_writes_them() {
    let cases = [
        ("1.0", "1"),
        ("1.50", "1.5"),
        ("123", "123"),
        ("-0", "0"),
        ("+7", "7"),
        ("0x1F", "31"),
        ("0o17", "15"),
        ("1e3", "1000"),
        ("1e21", "1e+21"),
        ("0.000001", "0.000001"),
        ("1.5e-7", "1.5e-7"),
        (".5", "0.5"),
        ("-.inf", "-Infinity"),
        (".NaN", "NaN"),
        ("true", "true"),
        ("True", "true"),
        ("FALSE", "false"),
        ("yes", "yes"),
        ("on", "on"),
        ("012", "12"),
        ("1_000", "1_000"),
        ("0x", "0x"),
        ("1.2.3", "1.2.3"),
        ("2024-01-02", "2024-01-02"),
        ("!!str 1.0", "1.0"),
        ("!!str true", "true"),
    ];
    for (yaml, want) in cases {
        assert_eq!(value(&format!("v: {yaml}"), "v").unwrap(), want, "{yaml}");
    }
    assert_eq!(value("name: 123", "name").unwrap(), "123");
}

#[test]
fn nulls_and_collections_are_left_out() {
    for yaml in [
        "v: ~",
        "v: null",
        "v: NULL",
        "v:",
        "v: [1, 2]",
        "v: {a: 1}",
        "v:\n  - a",
    ] {
        assert_eq!(value(yaml, "v"), None, "{yaml}");
    }
    let parsed = fm("v:\n  nested: 1\nname: x");
    assert_eq!(parsed.data, [("name".to_owned(), "x".to_owned())]);
}

#[test]
fn a_tab_after_a_key_separates_as_in_the_reference_but_block_content_keeps_its_tabs() {
    assert_eq!(value("name:\tx", "name").unwrap(), "x");
    assert_eq!(
        value("name: a\ndescription:\t\tb c", "description").unwrap(),
        "b c"
    );
    let yaml = "name:\tx # c\nd:\t|\n  t:\tu\ne: >-\n  a:\tb\n\n  c:\td\nf:\tg";
    assert_eq!(value(yaml, "name").unwrap(), "x");
    assert_eq!(value(yaml, "d").unwrap(), "t:\tu");
    assert_eq!(value(yaml, "e").unwrap(), "a:\tb\nc:\td");
    assert_eq!(value(yaml, "f").unwrap(), "g");
}

#[test]
fn anchors_and_aliases_resolve() {
    assert_eq!(value("a: &who  world\nb: *who", "b").unwrap(), "world");
}

#[test]
fn a_document_that_is_not_a_mapping_has_no_values() {
    for yaml in ["- a\n- b", "just text", "", "# only a comment"] {
        let parsed = fm(yaml);
        assert!(!parsed.malformed, "{yaml:?}");
        assert!(parsed.data.is_empty(), "{yaml:?}");
    }
}

#[test]
fn malformed_yaml_is_flagged_never_a_crash() {
    for yaml in [
        "name: [unclosed",
        "name: {a: 1",
        "name: \"unterminated",
        "name: a\n  bad: indentation",
        "name: a\nname: b",
        "outer:\n  k: 1\n  k: 2",
        "name: a\n...\nname: b",
        "name: *nowhere",
        "key: value: other",
        "@reserved",
    ] {
        let parsed = fm(yaml);
        assert!(parsed.malformed, "{yaml:?} should be malformed");
        assert!(parsed.data.is_empty());
        assert_eq!(parsed.content, "body");
    }
}

#[test]
fn the_fences_split_as_the_reference_pattern_does() {
    let parsed = parse("---\r\nname: crlf\r\n---\r\nbody\r\n");
    assert_eq!(parsed.get("name"), Some("crlf"));
    assert_eq!(parsed.content, "body\r\n");
    let parsed = parse("no frontmatter\n---\nname: x\n---\n");
    assert!(parsed.data.is_empty() && !parsed.malformed);
    assert_eq!(parsed.content, "no frontmatter\n---\nname: x\n---\n");
    let parsed = parse("---\nname: a\n----\nbody");
    assert_eq!(parsed.get("name"), Some("a"));
    assert_eq!(parsed.content, "-\nbody");
    let parsed = parse("---\n\n---\nbody");
    assert!(parsed.data.is_empty() && !parsed.malformed);
    assert_eq!(parsed.content, "body");
    let parsed = parse("---\n---\nbody");
    assert_eq!(
        parsed.content, "---\n---\nbody",
        "needs a line between the fences"
    );
    let parsed = parse("---\nname: a\n---");
    assert_eq!(parsed.get("name"), Some("a"));
    assert_eq!(parsed.content, "");
    let parsed = parse("---\nname: a\n---\n\n# Title\n");
    assert_eq!(parsed.content, "\n# Title\n");
}
