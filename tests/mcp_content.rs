//! A `tools/call` result as a ToolResult (SPEC §0.4): `isError` joins its non-blank text parts
//! with a blank line (or says the tool failed), `structuredContent` is its JSON text (as
//! `JSON.stringify` writes it), otherwise text parts join with `\n` and every other part is
//! described in place and kept raw in `metadata.content`.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use toolnexus::core::mcp::content::{describe, to_tool_result, NO_ERROR_TEXT};
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
fn other_parts_are_described_in_place_and_kept() {
    let parts = json!([
        {"type": "text", "text": "look:"},
        {"type": "image", "mimeType": "image/png", "data": "AAAA"},
        {"type": "audio", "mimeType": "audio/wav", "data": "AAAAAA=="},
        {"type": "resource", "resource": {"uri": "memo://1", "text": "the memo"}},
        {"type": "resource", "resource": {"uri": "file:///a.bin", "mimeType": "application/octet-stream", "blob": "AAAAAAAA"}},
        {"type": "resource_link", "uri": "file:///r.md", "name": "readme", "description": "the docs"},
        {"type": "hologram"}
    ]);
    let r = to_tool_result(&json!({"content": parts}), "srv");
    assert_eq!(r.output, "look:\n[image: image/png, 3 bytes]\n[audio: audio/wav, 4 bytes]\n[resource: memo://1]\nthe memo\n[resource: file:///a.bin, application/octet-stream, 6 bytes]\n[resource link: readme file:///r.md: the docs]\n[hologram content]");
    assert_eq!(r.metadata.unwrap()["content"], parts);
    assert_eq!(
        describe(&json!({"type": "resource_link", "uri": "u"})),
        "[resource link: u]"
    );
}
