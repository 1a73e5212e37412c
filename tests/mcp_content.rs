//! A `tools/call` result as a ToolResult (SPEC §0.4): `isError` joins its non-blank text parts
//! with a blank line (or says the tool failed), `structuredContent` is its JSON text (as
//! `JSON.stringify` writes it), otherwise text entries join with `\n` (then embedded resources'
//! text); images, audio, resource links and binary resources become content parts.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use toolnexus::core::json::record::Record;
use toolnexus::core::mcp::content::{to_tool_result, NO_ERROR_TEXT};
use toolnexus::{core::json::value::Value, json};

fn out(result: Value) -> (String, bool) {
    let r = to_tool_result(&result, "srv");
    (r.output, r.is_error)
}

#[test]
fn text_parts_join_with_a_newline() {
    let r = json!({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": ""}, {"type": "text", "text": "b"}]});
    assert_eq!(out(r), ("a\n\nb".into(), false));
    assert_eq!(out(json!({})), (String::new(), false));
    assert_eq!(
        out(json!({"content": "not a list"})),
        (String::new(), false)
    );
    let plain = to_tool_result(&json!({"content": [{"type": "text", "text": "x"}]}), "srv");
    assert_eq!(
        Value::Object(plain.metadata.unwrap()),
        json!({"server": "srv"})
    );
}

#[test]
fn an_error_joins_non_blank_text_with_a_blank_line() {
    let r = json!({"isError": true, "content": [{"type": "text", "text": "first"}, {"type": "text", "text": " \n\t"}, {"type": "text", "text": "second"}]});
    assert_eq!(out(r), ("first\n\nsecond".into(), true));
    assert_eq!(
        out(json!({"isError": true, "content": []})),
        (NO_ERROR_TEXT.into(), true)
    );
    assert_eq!(
        out(json!({"isError": true})),
        ("MCP tool returned an error".into(), true)
    );
    let structured = json!({"isError": true, "structuredContent": {"a": 1}, "content": [{"type": "text", "text": "bad"}]});
    assert_eq!(
        out(structured),
        ("bad".into(), true),
        "isError wins over structuredContent"
    );
}

#[test]
fn structured_content_is_written_as_javascript_would() {
    let r = json!({"structuredContent": {"n": 1.0, "big": 1e21, "s": "é\u{2028}", "list": [true, null]}, "content": [{"type": "text", "text": "ignored"}]});
    assert_eq!(
        out(r).0,
        "{\"n\":1,\"big\":1e+21,\"s\":\"é\u{2028}\",\"list\":[true,null]}"
    );
    let null =
        json!({"structuredContent": null, "content": [{"type": "text", "text": "text wins"}]});
    assert_eq!(out(null).0, "text wins");
}

#[test]
fn other_entries_become_content_parts_on_every_branch() {
    let content = json!([
        {"type": "text", "text": "look:"},
        {"type": "image", "mimeType": "image/png", "data": "AAAA"},
        {"type": "audio", "mimeType": "audio/wav", "data": "AAAAAA=="},
        {"type": "resource", "resource": {"uri": "memo://1", "text": "the memo"}},
        {"type": "resource", "resource": {"uri": "file:///a.bin", "mimeType": "application/pdf", "blob": "AAAAAAAA"}},
        {"type": "resource_link", "uri": "https://x.test/r.md", "name": "readme", "description": "the docs"},
        {"type": "hologram"}
    ]);
    let r = to_tool_result(&json!({"content": content}), "srv");
    assert_eq!(r.output, "look:\nthe memo\n[hologram content]");
    let parts: Vec<String> = r.parts.unwrap().iter().map(Record::to_json_text).collect();
    assert_eq!(
        parts,
        [
            r#"{"type":"image","mimeType":"image/png","data":"AAAA"}"#,
            r#"{"type":"audio","mimeType":"audio/wav","data":"AAAAAA=="}"#,
            r#"{"type":"file","mimeType":"application/pdf","data":"AAAAAAAA","name":"file:///a.bin"}"#,
            r#"{"type":"file","mimeType":"application/octet-stream","url":"https://x.test/r.md","name":"readme"}"#,
        ]
    );
    assert_eq!(Value::Object(r.metadata.unwrap()), json!({"server": "srv"}));

    // Parts only: output says what they are, never an empty string.
    let only = to_tool_result(
        &json!({"content": [{"type": "image", "mimeType": "image/png", "data": "AAAA"}]}),
        "srv",
    );
    assert_eq!(only.output, "image (image/png, 3 bytes)");
    // The error and structuredContent branches keep their parts too.
    let error = to_tool_result(
        &json!({"isError": true, "content": [{"type": "text", "text": "bad"}, {"type": "image", "mimeType": "image/png", "data": "AAAA"}]}),
        "srv",
    );
    assert_eq!(
        (error.output.as_str(), error.parts.map(|p| p.len())),
        ("bad", Some(1))
    );
    let structured = to_tool_result(
        &json!({"structuredContent": {"a": 1}, "content": [{"type": "audio", "mimeType": "audio/wav", "data": "AAAA"}]}),
        "srv",
    );
    assert_eq!(
        (
            structured.output.as_str(),
            structured.parts.map(|p| p.len())
        ),
        (r#"{"a":1}"#, Some(1))
    );
}
